/* arch.h: architectures, which decide the encoder, the decoder's first
 * state and the order of a decoder step.
 *
 * An architecture is one file, src/arch_NAME.c, that defines one
 * `const struct arch_class arch_NAME`, registered by one line ARCH(NAME)
 * in src/arch_list.h.  Its encoder, start and step program record their
 * arithmetic with the building blocks below (each records its part and
 * returns its result).  The trace runs the encoder and the start once,
 * then calls the step program for t = 1, 2, ... of each run.  A model
 * file states its architecture ("architecture NAME", model.h), and the
 * parameter table (model_param_table) depends on it. */
#ifndef ATTN_ARCH_H
#define ATTN_ARCH_H

#include <stdio.h>

#include "trace.h"

struct selection_class;
struct train_pair;
struct train_work;

struct arch_class {
	const char *name;    /* "luong": --arch, the model file, JSON */
	const char *summary; /* one line for listings */
	int query_off;       /* step t scores with s_{t + query_off} */
	const char *model;   /* its built-in model: "toy4" */
	/* its input-feeding variant (Luong et al. 2015, §3.3: the model
	 * line "input-feeding yes"): the built-in model of that variant,
	 * "feed4", or NULL if the architecture has none; then no_feed says
	 * why, completing "its decoder ...": "already reads the context
	 * c_{t-1}" (marked with N_(): pass it through _() to print it) */
	const char *feed_model, *no_feed;
	/* "Luong's": the architecture's name in prose (N_(), as no_feed) */
	const char *owner;
	/* 1: its encoder is bidirectional, H/2 units a direction, so the
	 * hidden size must be even, and the formatters print both
	 * directions' states */
	int bidir;
	/* 1: its decoder's state depends on the attention of the steps
	 * before even without input feeding (trace_steps_chained) */
	int chained;
	/* The Jensen gap's title when a step depends on the steps before
	 * (chained, or input feeding): it names what carries the earlier
	 * draws, marked with N_() and translated where it is printed */
	const char *chained_title;
	/* Fills tab (MODEL_MAX_PARAMS) with m's parameter sections in the
	 * model file's order and returns how many (model_param_table):
	 * its own, and model.h's blocks for the scorers in scorers. */
	int (*params)(struct model *m, unsigned scorers,
		      struct model_param *tab);
	/* The stepper's narration (view.c) of stage at step t (word i of
	 * the encoder) of run, numbers with prec digits: returns 1 if it
	 * said all of it, 0 if the shared narration of the stage (the
	 * scores, the weights, the context) follows what it wrote. */
	int (*narrate)(FILE *f, const struct trace *tr, int run,
		       enum trace_stage stage, int t, int i, int prec);
	/* The records the stepper's screen of stage shows for step t of run
	 * (run -1: the encoder's of word i), in its order, each handed to
	 * show with ctx; NULL: the stage's records in the order the step
	 * program made them (src/view.c; s_0 after the last word's). */
	void (*screen)(const struct trace *tr, int run,
		       enum trace_stage stage, int t, int i,
		       void (*show)(const struct trace_rec *r, void *ctx),
		       void *ctx);
	/* Records the encoder and returns the states (annotations) h_1..h_n
	 * that attention reads, (n, H) row-major. */
	const double *(*encode)(struct trace *tr);
	/* Returns s_0 (H), the decoder's first state, recording how it is
	 * made (with the encoder's records) if it is computed. */
	const double *(*start)(struct trace *tr, const double *Hs);
	/* Records decoder step t of run: it reads the word fed at step t and
	 * the previous state prev (H), writes the new state into s (H), and
	 * returns the predicted word.  Hs (n, H) are the encoder states and
	 * in/ws the run's scorer, prepared. */
	int (*step)(struct trace *tr, int run, int t, int word,
		    const double *prev, double *s, const double *Hs,
		    const struct score_in *in, struct score_ws *ws);
	/* log p(y | c): the log-probability of target word y that step t
	 * gives with the context c (H) in place of its own, q (H) the
	 * step's query (s_t in Luong's, s_{t-1} in Bahdanau's) and word the
	 * word fed at step t.  work holds ARCH_LOGP_WORK(m) doubles.
	 * Records nothing: hard attention's exact view (selection_hard.c)
	 * calls it for every source word.  With dc not NULL it also writes
	 * ∂ log p(y | c)/∂c there (H). */
	double (*log_prob)(const struct model *m, const double *c,
			   const double *q, int word, int y, double *work,
			   double *dc);

	/* ---- its training part, which src/train.c drives through
	 * train_part.h's blocks; all four NULL if it cannot be trained */
	/* Before the first step with the weights m, which stay the same
	 * until the trainer's entry point returns: the output layer's
	 * matrix transposed into w->outT. */
	void (*train_begin)(const struct model *m, struct train_work *w);
	/* Encodes src (n) into w->h rows 1..n, and s_0 into w->s row 0. */
	void (*train_encode)(const struct model *m, const int *src, int n,
			     struct train_work *w);
	/* Decoder step t after train_encode, with no gold word (greedy
	 * decoding, the alignment count): reads the word fed and s_{t-1}
	 * (w->s row t - 1), writes s_t there (row t), α_t (w->alpha) by the
	 * window of w and the selection sel, p_t (w->p) and its largest
	 * (w->ptop).  in is the scorer's view, train_scorer_start's. */
	void (*train_step)(const struct model *m, const struct score_in *in,
			   int sc, int t, int n, int word,
			   const struct selection_class *sel,
			   struct train_work *w);
	/* One pair with every scorer of scorers: the forward pass, adding
	 * each scorer's summed cross-entropy to loss[sc] and its right
	 * predictions to right[sc]; with g, the backward pass adding scale
	 * times the gradient to g. */
	void (*train_pair)(struct model *g, const struct model *m,
			   const struct train_pair *pr, unsigned scorers,
			   double scale, struct train_work *w,
			   double loss[SCORER_COUNT], int right[SCORER_COUNT]);
};

/* The work space of arch_class.log_prob. */
#define ARCH_LOGP_WORK(m) (6 * (size_t)(m)->H + (size_t)(m)->E + \
			   2 * (size_t)(m)->tgt.n)

/* log softmax(x)[k] of x (n), shifted by the maximum as attn_softmax
 * is; for the log_prob hooks. */
double arch_log_softmax_at(const double *x, int n, int k);

/* The architecture ids, ARCH_luong, ..., are in model.h (a model file
 * states its architecture). */
extern const struct arch_class *const arch_registry[ARCH_COUNT];

static inline const struct arch_class *arch_get(int a)
{
	return arch_registry[a];
}

/* --arch=all: every architecture, each on its built-in model */
#define ARCH_ALL ARCH_COUNT

/* The name of the built-in model of architecture a: "toy4", "bahdanau4";
 * for an a out of range (none asked for), the documented default's. */
const char *arch_builtin_model(int a);

/* The architecture that has an input-feeding variant's name in prose
 * ("Luong's"), the registry's first with feed_model, untranslated. */
const char *arch_feed_owner(void);

/* The architecture called name (exactly), or -1. */
int arch_find(const char *name);

/* Writes the names of the architectures into buf (size bytes), separated
 * by sep with last before the last one; returns buf. */
char *arch_names(char *buf, size_t size, const char *sep, const char *last);

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

/* The same for any sizes (x: in numbers, h and prev: out) and a record
 * of the given kind (REC_RNN, REC_FORWARD, REC_BACKWARD). */
void trace_rnn_sized(struct trace *tr, enum trace_kind kind,
		     const struct rnn *w, const double *x, const double *prev,
		     double *h, int in, int out, int run, int t, int i,
		     const struct rec_names *nm);

/* The encoders.  Each records the embeddings x_i and its states, and
 * returns the states attention reads, (n, H).  One tanh RNN:
 * h_i = tanh(W_x x_i + W_h h_{i-1} + b), h_0 = 0.  Bidirectional: a
 * forward RNN (m->enc) and a backward one (m->enc_bwd), H/2 units each,
 * and h_i = [→h_i; ←h_i]. */
const double *trace_encode_rnn(struct trace *tr);
const double *trace_encode_bidir(struct trace *tr);

/* Scores the query s (H) with the run's scorer, recording e_t,i for each
 * source word and then e_t.  Returns e_t (n). */
const double *trace_scores(struct trace *tr, int run, int t, const double *s,
			   const struct score_in *in, struct score_ws *ws);

/* Attention at step t with the query q (H): records the scores of the
 * run's scorer, the weights that the trace's window makes of them, and
 * the context that its selection makes of those, and returns c_t (H).
 * Every step program calls this; the three below are its parts. */
const double *trace_attend(struct trace *tr, int run, int t, const double *q,
			   const double *Hs, const struct score_in *in,
			   struct score_ws *ws);

/* Records the softmax of e (n): α_t.  Returns it (n). */
const double *trace_softmax(struct trace *tr, int run, int t,
			    const double *e);

/* Records each α_t,i·h_i and their sum c_t.  Returns c_t (H). */
const double *trace_context(struct trace *tr, int run, int t,
			    const double *alpha, const double *Hs);

#endif
