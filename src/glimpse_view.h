/* glimpse_view.h: the glimpse stepper's screens, without curses
 * ("attn-trace glimpse --tui", doc/trace-format.md).
 *
 * Like self_view.h: it turns a glimpse trace and the stepper's state
 * into a struct view_screen made by the formatters (glimpse_fmt.h), and
 * handles the keys (VIEW_KEY_* of view_key.h); the TUI only draws it
 * (tui_run_screens), and the tests check the screens without a
 * terminal.  Screens 0 .. T-1 are the glimpses: the image with the
 * glimpse's retina and the path so far (each corner's number) beside
 * the step's numbers (l̂, u, ε, l, log π, the corner, the retina, g and
 * h); screen T is the class: the path and p (and with a true class the
 * loss, the reward and the advantages). */
#ifndef ATTN_GLIMPSE_VIEW_H
#define ATTN_GLIMPSE_VIEW_H

#include "glimpse.h"
#include "view.h"

struct glimpse_view {
	const struct glimpse_model *m;  /* borrowed */
	const struct pgm_image *im;     /* borrowed */
	const struct glimpse_trace *tr; /* borrowed */
	const char *mname;  /* the model's name, for the title (borrowed) */
	const char *name;   /* the image's name, for the title (borrowed) */
	int screen;         /* 0 .. steps: a glimpse, or the class */
	int help;           /* the help screen is up */
	int prec;           /* digits after the point */
	int ascii;          /* pictures in ASCII */
	int width;          /* columns: below 80 the numbers go under the
			       picture, not beside it */
	int scroll;         /* the first body line shown; the TUI clamps it */
	int page_rows;      /* rows that PgUp and PgDn scroll */
};

/* Sets v up on tr of m (called mname) on im (called name), at the
 * first glimpse. */
void glimpse_view_init(struct glimpse_view *v, const struct glimpse_model *m,
		       const char *mname, const struct pgm_image *im,
		       const char *name,
		       const struct glimpse_trace *tr, int prec, int ascii,
		       int width);

/* Fills *s with the current screen (view_screen_free frees it). */
void glimpse_view_render(const struct glimpse_view *v, struct view_screen *s);

/* Handles key (a byte or a VIEW_KEY_* code): → n space Enter the next
 * screen, ← p the one before, Home/End the first and last, ↑ ↓ PgUp
 * PgDn scroll, ? the help, q quits.  Returns VIEW_KEY_* flags. */
int glimpse_view_key(struct glimpse_view *v, int key);

/* The lines of the help screen, NULL-terminated. */
extern const char *const glimpse_view_help[];

#endif
