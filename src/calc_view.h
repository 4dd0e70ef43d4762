/* calc_view.h: the calc stepper's screens, without curses ("attn-trace
 * calc --tui", doc/trace-format.md, "calc").
 *
 * Like glimpse_view.h: it turns a calc trace (calc.h) and the stepper's
 * state into a struct view_screen, and handles the keys (VIEW_KEY_* of
 * view_key.h); the TUI only draws it (tui_run_screens).  The screens
 * are the sections of calc's text trace (calc_fmt_text), so the stepper
 * shows the very lines 'calc' prints, wrapped as the main stepper wraps
 * its arithmetic (view_wrap): screen 0 the inputs (the query,
 * the keys, the values), then scoring, softmax and the weighted sum, a
 * few sentences of narrative above each, and from the softmax on the
 * weights as bars. */
#ifndef ATTN_CALC_VIEW_H
#define ATTN_CALC_VIEW_H

#include "calc.h"
#include "view.h"

#define CALC_VIEW_SCREENS 4 /* the inputs, scoring, softmax, weighted sum */

struct calc_view {
	const struct calc *c;  /* borrowed */
	int prec;              /* digits after the point */
	int screen;            /* 0 .. CALC_VIEW_SCREENS - 1 */
	int help;              /* the help screen is up */
	int width;             /* columns to wrap the narrative to */
	int scroll;            /* the first body line shown; the TUI clamps */
	int page_rows;         /* rows that PgUp and PgDn scroll */
	char *sec[CALC_VIEW_SCREENS]; /* the text of each screen, owned */
};

/* Sets v up on c (which must outlive it), at the inputs. */
void calc_view_init(struct calc_view *v, const struct calc *c, int prec,
		    int width);
void calc_view_free(struct calc_view *v);

/* Fills *s with the current screen (view_screen_free frees it). */
void calc_view_render(const struct calc_view *v, struct view_screen *s);

/* Handles key: → n space Enter the next screen, ← p the one before,
 * Home/End the first and last, ↑ ↓ PgUp PgDn scroll, ? the help, q
 * quits.  Returns VIEW_KEY_* flags. */
int calc_view_key(struct calc_view *v, int key);

#endif
