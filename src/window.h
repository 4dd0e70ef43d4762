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

#include <stdio.h>

#include "trace.h"

struct train_work;

enum window {
#define WINDOW(name) WINDOW_##name,
#include "window_list.h"
#undef WINDOW
	WINDOW_COUNT
};

/* The documented default window (--window, a lesson with no 'window:'):
 * the registry's first, global. */
#define WINDOW_DEFAULT 0

struct window_class {
	const char *name;    /* "global": --window, the lesson format, JSON */
	const char *summary; /* one line for listings and --help */
	/* the built-in model that has its weights ("localp4"), which a
	 * command loads when no --model, --input-feeding or other --arch
	 * asks for another; NULL: it needs none */
	const char *model;
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
	/* 1 if it takes no window size D (fixed: always the one position
	 * n), so that no front end shows one; 0, the default */
	int sizeless;
	/* the least window size D it takes (0, the default: any), and why,
	 * for the command line's usage error and check()'s */
	int min_size;
	const char *min_size_why;
	/* The stepper's narration (view.c) of stage (the scores, the
	 * weights, the context) at step t of run, numbers with prec
	 * digits: returns 1 if it said all of it, 0 if the shared
	 * narration follows.  NULL: the shared narration alone. */
	int (*narrate)(FILE *f, const struct trace *tr, int run,
		       enum trace_stage stage, int t, int prec);
	/* the heatmap's line under its caption, a template ({n}: the
	 * source length), or NULL; the three texts here are marked with
	 * N_() and translated where they are printed */
	const char *heatmap_note;
	/* the step diagram's heading, a template ({t}, {n}), which draws
	 * then a line only from the window's positions, to the context
	 * (fixed: one line from h_n); NULL: the query weighs every h_i */
	const char *diagram_note;
	/* why training reports no alignment accuracy through this window
	 * (the share of target words whose largest weight is on a gold
	 * source word), which would say nothing of what it learnt: fixed's
	 * weight is on h_n whatever the scores.  NULL, the default: it
	 * reports it */
	const char *no_alignment;
	/* the model's sections the window owns, as bits of
	 * model_param_table's mask (local-p: LOCALP_PARAM_BIT): training
	 * through the window trains them too; 0, the default: none */
	unsigned params;

	/* ---- training (src/train.c), which calls these and knows no
	 * window by name.  A window without train_weights or train_back
	 * cannot be trained: train refuses it by name
	 * (train_window_check, src/train.h). */

	/* Step 2 of a training step: the weights α_t into w->alpha (n) from
	 * the scores w->e (n) of step t, with the query q (H) (s_t in
	 * Luong's architecture, s_{t-1} in Bahdanau's); keeps in w what
	 * train_back reads. */
	void (*train_weights)(const struct model *m, const double *q, int t,
			      int n, struct train_work *w);
	/* The backward pass of train_weights: dL/de_t into w->e (n) from
	 * dL/dα_t in w->dalpha (n, which it may change), α_t being alpha
	 * (n) and the rest of the step's state in w; adds to the gradients
	 * of the window's own weights in g (local-p: W_p, v_p) and to dq
	 * (H), dL/dq. */
	void (*train_back)(struct model *g, const struct model *m,
			   const double *q, double *dq, const double *alpha,
			   int n, struct train_work *w);
	/* Keeps what train_back reads of step t beyond α_t, for a backward
	 * pass that runs after every step's forward pass, and puts it back
	 * (train_recall).  NULL, both: the window needs nothing beyond
	 * α_t, which train_back is given. */
	void (*train_keep)(struct train_work *w, int n, int t);
	void (*train_recall)(struct train_work *w, int n, int t);
	/* An unnormalised window under hard attention, which draws from
	 * π = a / Σ a: its weights are the softmax of the scores over the
	 * window times factors that do not depend on the scores, so π is
	 * the softmax of z = e + log(factors), and REINFORCE's terms dz
	 * (n, an ascent direction, scaled by -scale) on z are the terms on
	 * e too.  Adds what they send to the window's own weights (g) and
	 * to dq (H).  NULL: a normalised window, or one with no weights. */
	void (*train_draw_back)(struct model *g, const struct model *m,
				const double *q, double *dq,
				const double *dz, double scale, int n,
				struct train_work *w);
};

extern const struct window_class *const window_registry[WINDOW_COUNT];

static inline const struct window_class *window_get(int w)
{
	return window_registry[w];
}

/* The window called name (exactly), or -1. */
int window_find(const char *name);

/* Every window's name from the registry, "global, local-m, local-p or
 * fixed", into buf (size bytes, cut if it must be); returns buf. */
const char *window_names(char *buf, size_t size);

/* ---- shared by the windows' training parts */

/* Training's step 2 for a window that is the softmax over all n
 * (global): α_t = softmax(w->e) into w->alpha. */
void window_train_softmax(const struct model *m, const double *q, int t,
			  int n, struct train_work *w);

/* The backward pass of a softmax over the window (global, local-m):
 * w->e_i = α_i (w->dalpha_i - Σ_j α_j w->dalpha_j), 0 where α_i is. */
void window_train_softmax_back(struct model *g, const struct model *m,
			       const double *q, double *dq,
			       const double *alpha, int n,
			       struct train_work *w);

/* ---- shared by the local windows (src/window_local.c) */

/* Records step t's window around centre (clipped to 1 .. n, half-width
 * tr->cfg.window_size) with p_t = *p, and stores its first and last
 * position in *lo, *hi.  Returns the record (valid until the next one
 * is added): its formula is "⌊p_t⌋ ± D" ("⌊{=p}⌋ ± {#D}"), which a
 * window may replace by its own or NULL, and a window whose p_t has no
 * record of its own (local-p's REC_POSITION) says how it made it in the
 * record's note, the operand "p" its note_op: local-m's
 * "p_{t} = min({t}, {n})".  The front ends print both. */
struct trace_rec *window_local_record(struct trace *tr, int run, int t,
				      const double *p, int centre, int *lo,
				      int *hi);

/* Records the softmax of e over positions lo .. hi only (0 elsewhere),
 * named symbol ("α_{t}", "align_{t}"), and returns it (n). */
const double *window_local_softmax(struct trace *tr, int run, int t,
				   const double *e, int lo, int hi,
				   const char *symbol);

/* Training's window around centre: w->wlo .. w->whi (from 1, clipped to
 * 1 .. n, half-width w->window_size), and w->alpha (n) the softmax of
 * w->e over it, 0 elsewhere. */
void window_local_train(int centre, int n, struct train_work *w);

#endif
