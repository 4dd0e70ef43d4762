/* tui.h: the full-screen stepper (ncursesw).  It draws what the view model
 * (view.h) and the formatters produce and recomputes nothing. */
#ifndef ATTN_TUI_H
#define ATTN_TUI_H

#include "lesson.h"
#include "trace.h"

struct view_retrace;

enum tui_color { TUI_COLOR_AUTO, TUI_COLOR_ALWAYS, TUI_COLOR_NEVER };

struct tui_opts {
	enum tui_color color; /* NO_COLOR in the environment counts as never
	                         unless this is TUI_COLOR_ALWAYS */
	int precision;        /* digits after the point */
	int start_scorer;     /* the enum scorer to show first; -1 for the
	                         trace's first run */
	int present;          /* presentation mode: large, high contrast, one
	                         idea a screen, for a projector */
	int autoplay_ms;      /* present: advance every this many ms; 0: no */
	const struct trace *const *archs; /* (narchs) the same sentence in
	                              every architecture, the stepped trace
	                              among them (--arch=all), or NULL */
	int narchs;
	const struct view_retrace *retrace; /* how to trace again with the
	                              stepper's edits (view.h), or NULL: none */
	int goal_t, goal_i;   /* --goal: source word goal_i (from 1) the
	                         largest weight at step goal_t; 0: none */
};

/* Steps through tr, which should hold all three scorers.  Returns the exit
 * status: 0 after q, 1 after an error (printed after the terminal has been
 * restored), and 128 + N after signal N ended it (130 after Ctrl-C, 131
 * after Ctrl-\ (SIGQUIT), 143 after SIGTERM), the terminal restored
 * first. */
int tui_run_trace(const struct trace *tr, const struct tui_opts *o);

/* Steps through the pages of lesson l, whose trace is tr (from
 * lesson_prepare).  Same return values. */
int tui_run_lesson(const struct lesson *l, const struct trace *tr,
		   const struct tui_opts *o);

/* The stepper of another trace program (the self-attention one,
 * self_view.h): render fills the screen for width columns, key handles a
 * key code of view_key.h and returns VIEW_KEY_* flags (page_rows: the rows
 * PgUp and PgDn scroll), and scroll is the body's first line, which the
 * stepper clamps.  It is drawn as the Luong stepper is. */
struct view_screen;
struct tui_screens {
	void *ctx;
	void (*render)(void *ctx, int width, struct view_screen *s);
	int (*key)(void *ctx, int key, int page_rows);
	int *scroll;
	int *hscroll;  /* the first column of the body shown, or NULL: the
			  body does not scroll sideways */
};

/* Runs the stepper on sc; same return values as tui_run_trace. */
int tui_run_screens(const struct tui_screens *sc, const struct tui_opts *o);

/* Parses "auto", "always" or "never"; returns 0, or -1 if it is none. */
int tui_color_parse(const char *s, enum tui_color *out);
/* The name of colour choice k (an enum tui_color), or NULL past the
 * last: the values --color takes. */
const char *tui_color_name(int k);

#endif
