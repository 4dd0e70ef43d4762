/* arch.h: architectures, which decide the order of a decoder step.
 *
 * An architecture is one file, src/arch_NAME.c, whose step program
 * records one decoder step with the building blocks below (each records
 * its part of the arithmetic and returns its result).  The trace runs the
 * encoder, then calls the step program for t = 1, 2, ... of each run.
 * Luong's is the only one yet (src/arch_luong.c). */
#ifndef ATTN_ARCH_H
#define ATTN_ARCH_H

#include "trace.h"

struct arch_class {
	const char *name;    /* "luong" */
	const char *summary; /* one line for listings */
	int query_off;       /* step t scores with s_{t + query_off} */
	/* Records decoder step t of run: it reads the word fed at step t and
	 * the previous state prev (H), writes the new state into s (H), and
	 * returns the predicted word.  Hs (n, H) are the encoder states and
	 * in/ws the run's scorer, prepared. */
	int (*step)(struct trace *tr, int run, int t, int word,
		    const double *prev, double *s, const double *Hs,
		    const struct score_in *in, struct score_ws *ws);
};

extern const struct arch_class arch_luong;

/* ---- building blocks, in src/trace.c */

/* The names of a record: templates (trace.h). */
struct rec_names {
	const char *symbol, *formula;
	const char *op[TRACE_MAX_OPS];
};

/* Records the embedding of word in v: x_i for the encoder (run -1),
 * y_{t-1} for the decoder.  Returns it (E). */
const double *trace_embed(struct trace *tr, const struct vocab *v, int word,
			  int run, int t, int i);

/* Records one RNN step h = tanh(W_x x + W_h prev + b) into h (H), which
 * the caller allocated; nm names it. */
void trace_rnn(struct trace *tr, const struct rnn *w, const double *x,
	       const double *prev, double *h, int run, int t, int i,
	       const struct rec_names *nm);

/* Scores the query s (H) with the run's scorer, recording e_t,i for each
 * source word and then e_t.  Returns e_t (n). */
const double *trace_scores(struct trace *tr, int run, int t, const double *s,
			   const struct score_in *in, struct score_ws *ws);

/* Records the softmax of e (n): α_t.  Returns it (n). */
const double *trace_softmax(struct trace *tr, int run, int t,
			    const double *e);

/* Records each α_t,i·h_i and their sum c_t.  Returns c_t (H). */
const double *trace_context(struct trace *tr, int run, int t,
			    const double *alpha, const double *Hs);

#endif
