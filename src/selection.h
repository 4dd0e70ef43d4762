/* selection.h: selections, which decide how a decoder step's weights
 * make its context.
 *
 * A selection is one file, src/selection_NAME.c, that defines one
 * `const struct selection_class selection_NAME`, registered by one line
 * SELECTION(NAME) in src/selection_list.h.  trace_attend() (src/arch.h)
 * calls its context() with the window's weights; soft attention is the
 * weighted sum of every state. */
#ifndef ATTN_SELECTION_H
#define ATTN_SELECTION_H

#include "trace.h"

struct train_work;

enum selection {
#define SELECTION(name) SELECTION_##name,
#include "selection_list.h"
#undef SELECTION
	SELECTION_COUNT
};

struct selection_class {
	const char *name;    /* "soft": the option, the lesson format, JSON */
	const char *summary; /* one line for listings and --help */
	/* Records the context of step t of run from the weights a (n) and
	 * the encoder states Hs (n, H), and returns it (H).  q (H) is the
	 * step's query, for a selection that looks ahead at the output
	 * (hard's exact view, arch_class.log_prob). */
	const double *(*context)(struct trace *tr, int run, int t,
				 const double *q, const double *a,
				 const double *Hs);

	/* ---- training (src/train.c), which calls these and knows no
	 * selection by name; every one is needed.  Step t of a pass over
	 * one pair (n source words, the encoder states w->h rows 1..n). */

	/* Step 3: the context into c (H) from the window's weights α_t
	 * (alpha, n); keeps in w what the backward pass of step t reads
	 * (hard: the draw l_t). */
	void (*train_context)(double *c, const double *alpha, int n, int t,
			      struct train_work *w);
	/* After step t's output with scorer sc, R = log p_t(y_t): returns
	 * its share of the loss beyond -R (hard: the test hook's surrogate,
	 * 0 without it) and learns from R (hard: the baseline).  NULL:
	 * nothing (soft). */
	double (*train_reward)(struct train_work *w, const double *alpha,
			       int n, int t, int sc, double R);
	/* The backward pass of train_context: given dc (H), dL/dc_t, adds
	 * to dL/dh_i (w->dh rows 1..n), and sets what it makes of dL/dα_t
	 * in w->dalpha (n) (soft: with dalpha_in, n, what later steps sent
	 * back to α_t; NULL: none). */
	void (*train_context_back)(const double *dc, const double *alpha,
				   const double *dalpha_in, int n, int t,
				   struct train_work *w);
	/* dL/de_t into w->e (n), through the window of w (its
	 * window_class.train_back), from w->dalpha (soft) or from
	 * REINFORCE's terms and dalpha_in (hard); adds to the gradients of
	 * the window's own weights (g) and to dq (H), dL/dq for the query
	 * q.  scale: the loss's scale, 1 / predictions. */
	void (*train_scores_back)(struct model *g, const struct model *m,
				  const double *q, double *dq,
				  const double *alpha, const double *dalpha_in,
				  int n, int t, double scale,
				  struct train_work *w);
	/* 1 if its training state carries from pair to pair (hard: the
	 * draws' random stream and the baselines), so that the trainer
	 * takes the pairs in order on one thread; 0 (the default): the
	 * pairs are independent, and train --jobs shares them out. */
	int train_serial;
};

extern const struct selection_class *const selection_registry[SELECTION_COUNT];

static inline const struct selection_class *selection_get(int s)
{
	return selection_registry[s];
}

/* The selection called name (exactly), or -1. */
int selection_find(const char *name);

#endif
