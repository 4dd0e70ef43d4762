/* self_view.h: the self-attention stepper's screens, without curses.
 *
 * Like view.h for the Luong trace: it turns a struct self_trace and the
 * stepper's state into a struct view_screen (title, narrative, body,
 * α bars and key hints) made by the formatters, and handles the keys
 * (VIEW_KEY_* codes of view_key.h); the TUI only draws (tui_run_screens),
 * and the tests check the screens without a terminal. */
#ifndef ATTN_SELF_VIEW_H
#define ATTN_SELF_VIEW_H

#include "self.h"
#include "view.h"

struct self_view {
	const struct self_trace *t; /* borrowed */
	int stage;       /* enum self_stage shown */
	int row;         /* the query row of the α bars, from 0 */
	int head;        /* the head of the α bars, from 0 */
	unsigned heads;  /* the heads shown (bit h: head h + 1) */
	int help;        /* the help screen is up */
	int diagram;     /* the line diagram of the head is up (key d) */
	int prec;        /* digits after the point */
	int width;       /* columns to wrap text to */
	int scroll;      /* the first body line shown; the TUI clamps it */
	int hscroll;     /* the first body column shown (keys < and >); the
			    TUI clamps it */
	int page_rows;   /* rows that PgUp and PgDn scroll */
};

/* Sets v up on t, at stage 1, row 1, the first head of heads. */
void self_view_init(struct self_view *v, const struct self_trace *t,
		    unsigned heads, int prec, int width);

/* Fills *s with the current screen (view_screen_free frees it). */
void self_view_render(const struct self_view *v, struct view_screen *s);

/* Handles key (a byte or a VIEW_KEY_* code): → n space and ← p step the
 * stages, Home/End the first and last, r and R the query row of the α
 * bars, h the head, d the line diagram of the head (self_diagram.h),
 * ↑ ↓ PgUp PgDn scroll, < and > scroll the body sideways by
 * SELF_VIEW_HSTEP columns, ? the help, q quits.  Returns
 * VIEW_KEY_* flags. */
int self_view_key(struct self_view *v, int key);
#define SELF_VIEW_HSTEP 8

/* The per-head matrices of stage (SELF_STAGE_SCORES: the scores after the
 * mask, _SOFTMAX: the weights as a shaded heatmap, _Z: Z) of the heads in
 * heads, side by side, as the stepper shows them (for lessons).  When
 * width is above 0 and the heads side by side would take more columns,
 * each head's table goes below the one before. */
void self_view_tables(FILE *out, const struct self_trace *t,
		      enum self_stage stage, unsigned heads, int prec,
		      int width);

/* The weights A of the heads in heads as the stepper's shaded tables
 * (SELF_STAGE_SOFTMAX), for attn-trace heatmap --self on a terminal;
 * ascii: shades . : + # for a terminal that is not UTF-8. */
void self_view_heatmap(FILE *out, const struct self_trace *t,
		       unsigned heads, int prec, int ascii);

/* The lines of the help screen, NULL-terminated. */
extern const char *const self_view_help[];

#endif
