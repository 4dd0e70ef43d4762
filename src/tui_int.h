/* tui_int.h: what the stepper's files share.  Not for the rest of the
 * program: only tui.c and tui_present.c include it. */
#ifndef ATTN_TUI_INT_H
#define ATTN_TUI_INT_H

#include <curses.h>

#include "tui.h"
#include "view.h"

#define MIN_COLS 80
#define MIN_LINES 24
#define TUI_BAR_COLS 50 /* the longest weight bar */
#define HEAT_WORD_COLS 14 /* a word in the heatmap is cut to this */

enum {
	PAIR_TITLE = 1, PAIR_STAGE, PAIR_BAR, PAIR_MAX, PAIR_KEYS, PAIR_HEAD,
	PAIR_HEAT0 /* .. PAIR_HEAT0 + HEAT_LEVELS - 1 */
};
#define HEAT_LEVELS 6

struct tui {
	struct view v;
	int present;     /* presentation mode */
	int autoplay_ms; /* present: advance every this many ms; 0: no */
	int paused;      /* autoplay is paused */
	int blank;       /* the screen is blanked (b) */
	int elapsed_ms;  /* time since the last advance */
	int color;     /* colour pairs are in use */
	int utf8;      /* the terminal takes UTF-8 */
	const struct tui_screens *sc; /* another stepper's screens, or NULL */
};

/* The attribute for a role: a colour pair, or mono (bold, reverse). */
attr_t tui_attr(const struct tui *ui, int pair, attr_t mono);

/* Writes s at (y, x), cut to at most maxcols columns; returns the columns
 * used. */
int tui_put(int y, int x, const char *s, int maxcols);

/* As tui_put, and when s is cut, a mark (a bold "›") in the column after
 * the maxcols, if the screen has it: text runs on past the edge. */
int tui_put_cut(const struct tui *ui, int y, int x, const char *s,
		int maxcols);

/* A full-width line of s in attribute a. */
void tui_band(int y, const char *s, attr_t a);

/* The weight bars of s from row y. */
void tui_bars(const struct tui *ui, int y, const struct view_screen *s);

/* Draws the presentation screen (tui_present.c). */
void tui_draw_present(struct tui *ui);

#endif
