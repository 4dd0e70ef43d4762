/* view_key.h: the stepper's keys, without curses.
 *
 * The TUI turns what the terminal reports into a key code (a byte as it
 * comes, or one of the VIEW_KEY_* codes below) and hands it to
 * view_key(), which changes the view and says what to do next.  The
 * tests and the fuzzer (tests/fuzz/fuzz_view.c) drive the same function,
 * so the keys they check are the keys the program runs. */
#ifndef ATTN_VIEW_KEY_H
#define ATTN_VIEW_KEY_H

#include "view.h"

/* Keys that are not a byte: above 0xff, so no byte is mistaken for one. */
enum view_key_code {
	VIEW_KEY_RIGHT = 0x100, VIEW_KEY_LEFT, VIEW_KEY_UP, VIEW_KEY_DOWN,
	VIEW_KEY_HOME, VIEW_KEY_END, VIEW_KEY_NPAGE, VIEW_KEY_PPAGE,
	VIEW_KEY_BACKSPACE, VIEW_KEY_ENTER,
	VIEW_KEY_RESIZE, /* the terminal changed size */
	VIEW_KEY_OTHER   /* any other key the terminal knows (F1...) */
};

/* What view_key() asks of its caller: flags, or'ed together. */
enum {
	VIEW_KEY_DONE = 0,   /* nothing to show */
	VIEW_KEY_REDRAW = 1, /* draw the screen again */
	VIEW_KEY_QUIT = 2,   /* leave the stepper */
	VIEW_KEY_BEEP = 4    /* the key was refused: tell the user */
};

/* Handles key (a byte 0..255 or a VIEW_KEY_* code; anything else is
 * ignored) in whatever mode v is in: stepping, help, compare, heatmap or
 * a quiz.  It scrolls v->scroll by v->page_rows for PgUp and PgDn, and
 * resets the scroll when it opens a new screen.  Returns VIEW_KEY_* flags. */
int view_key(struct view *v, int key);

/* What Space and → (dir 1), ← and Backspace (dir -1) do first on a
 * lesson page taller than the screen, as less does: scroll *scroll, the
 * first of nbody lines shown in rows rows (the last of which says "more
 * below" while there is), by the rows of text shown.  Returns 1 if it
 * scrolled, 0 at the bottom (forward) or top (back), when the caller
 * turns the page. */
int view_scroll_first(int *scroll, int rows, int nbody, int dir);

/* The keys of a stepper of a few screens (glimpse_view.c, calc_view.c):
 * with the help up, any key leaves it (q quits); else → n space Enter
 * the next of screens 0 .. last, ← p the one before, Home/End the first
 * and last, ↑ ↓ PgUp PgDn scroll (by page_rows), ? the help, q quits.
 * A new screen opens unscrolled.  Returns VIEW_KEY_* flags. */
struct view_pager {
	int *screen, last, *scroll, page_rows, *help;
};
int view_pager_key(const struct view_pager *p, int key);

#endif
