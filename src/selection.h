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

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

struct fmt_buf;
struct train_work;

enum selection {
#define SELECTION(name) SELECTION_##name,
#include "selection_list.h"
#undef SELECTION
	SELECTION_COUNT
};

/* The documented default selection (no option, a lesson with no key of
 * a selection): the registry's first, soft. */
#define SELECTION_DEFAULT 0

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

	/* ---- its option, so that no file outside selection_NAME.c names
	 * it (src/cli.c, src/lesson.c, src/fmt_json.c, src/cli_train.c) */

	/* the option that chooses it, --OPTION[=VALUE] on the command line
	 * and "OPTION: VALUE" in a lesson ("hard"); NULL: chosen by no
	 * option (the default) */
	const char *option;
	/* the values its option takes (NULL-terminated, the first what a
	 * bare --OPTION means), what a value is called in errors ("rule"),
	 * and set(), which puts value k into cfg (hard: cfg->hard_rule) */
	const char *const *values;
	const char *value_noun;
	void (*set)(struct trace_cfg *cfg, int k);
	/* 1 if it draws a position from the weights: --seed seeds it,
	 * heatmap --show=drawn marks the draws, and --gradient and
	 * --samples show REINFORCE's learning signal for them */
	int draws;
	/* Appends its fields of a JSON trace's header to b, each as
	 * ' "KEY": VALUE,', after the header's "selection" (hard: its rule
	 * and seed); NULL: none. */
	void (*json)(struct fmt_buf *b, const struct trace_cfg *cfg);

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
	/* Starts its training state in w, once, with the seed of its draws
	 * (hard: train_hard_start); NULL: it has none. */
	void (*train_start)(struct train_work *w, uint64_t seed);
	/* train --OPTION: the one value training takes (an index of
	 * values: hard's "sample", the draws REINFORCE learns from) and
	 * why, for the error; greedy, the value a trained model is read
	 * with when greedy decoding counts the pairs it reproduces (hard's
	 * "argmax", which draws nothing); train_note, a sentence for the
	 * header of the model it trains */
	int train_value;
	const char *train_value_why;
	int greedy;
	const char *train_note;
};

extern const struct selection_class *const selection_registry[SELECTION_COUNT];

static inline const struct selection_class *selection_get(int s)
{
	return selection_registry[s];
}

/* The selection called name (exactly), or -1. */
int selection_find(const char *name);

/* The selection that option --option (a lesson's key "option")
 * chooses, or -1. */
int selection_by_option(const char *option);

/* The index in c->values of the value v (n bytes, not NUL-terminated),
 * or -1; the number of values in *count. */
int selection_value(const struct selection_class *c, const char *v,
		    size_t n, int *count);

/* The option of the first selection that draws (selection_class.draws),
 * for "--show=drawn needs --hard", or "" if none. */
const char *selection_draws_option(void);

#endif
