/* window.h: windows, which decide which source words a decoder step may
 * weigh, and how its scores become weights.
 *
 * A window is one file, src/window_NAME.c, that defines one
 * `const struct window_class window_NAME`, registered by one line
 * WINDOW(NAME) in src/window_list.h.  trace_attend() (src/arch.h) calls
 * its weights() after the scores of each step; global attention (Luong
 * et al. 2015, §3.1) is the softmax over every source word. */
#ifndef ATTN_WINDOW_H
#define ATTN_WINDOW_H

#include "trace.h"

enum window {
#define WINDOW(name) WINDOW_##name,
#include "window_list.h"
#undef WINDOW
	WINDOW_COUNT
};

struct window_class {
	const char *name;    /* "global": --window, the lesson format, JSON */
	const char *summary; /* one line for listings and --help */
	/* Records the weights of step t of run from its scores e (n) and
	 * its query q (H), and returns them (n): the weights the context is
	 * made with. */
	const double *(*weights)(struct trace *tr, int run, int t,
				 const double *q, const double *e);
	/* Whether model m and cfg can use the window (NULL: always); fills
	 * err and returns -1 if not. */
	int (*check)(const struct model *m, const struct trace_cfg *cfg,
		     struct errbuf *err);
	/* 1 if its weights need not sum to 1 (local-p's sum to less), so
	 * that hard attention draws from them normalised, π = a / Σ a
	 * (src/selection_hard.c); 0 (the default) if they are a
	 * distribution already */
	int unnormalised;
	/* the least window size D it takes (0, the default: any), and why,
	 * for the command line's usage error and check()'s */
	int min_size;
	const char *min_size_why;
};

extern const struct window_class *const window_registry[WINDOW_COUNT];

static inline const struct window_class *window_get(int w)
{
	return window_registry[w];
}

/* The window called name (exactly), or -1. */
int window_find(const char *name);

/* ---- shared by the local windows (src/window_local.c) */

/* Records step t's window around centre (clipped to 1 .. n, half-width
 * tr->cfg.window_size) with p_t = *p, and stores its first and last
 * position in *lo, *hi. */
void window_local_record(struct trace *tr, int run, int t, const double *p,
			 int centre, int *lo, int *hi);

/* Records the softmax of e over positions lo .. hi only (0 elsewhere),
 * named symbol ("α_{t}", "align_{t}"), and returns it (n). */
const double *window_local_softmax(struct trace *tr, int run, int t,
				   const double *e, int lo, int hi,
				   const char *symbol);

#endif
