/* train_part.h: the trainer's building blocks for the training part of
 * an architecture (struct arch_class's train_* hooks, src/arch_*.c).
 *
 * src/train.c is the driver: pairs, chunks and threads, the loss, the
 * optimiser, greedy decoding and the alignment count.  It never asks
 * which architecture it trains: it calls the class's hooks, and they
 * call these blocks, which are the parts every architecture shares: a
 * pass of one scorer over one pair (struct train_pass), the loss of a
 * step, the backward pass from dL/dc_t through the selection, the window
 * and the scorer, and the kept steps of a pass that goes back after
 * every step's forward pass.  Internal to the trainer: nothing outside
 * train.c and src/arch_*.c includes it. */
#ifndef ATTN_TRAIN_PART_H
#define ATTN_TRAIN_PART_H

#include <math.h>
#include <string.h>

#include "attn.h"
#include "selection.h"
#include "train.h"
#include "train_simd.h"
#include "window.h"

/* One pass of scorer sc over a pair: what each of its steps reads. */
struct train_pass {
	struct model *g;             /* the gradients to add to, or NULL */
	const struct model *m;
	const struct train_pair *pr;
	int sc, n, T;
	double scale;                /* the loss's, 1 / predictions */
	const struct selection_class *sel;
	struct score_in in;          /* the scorer's view */
	struct score_ws ws;          /* w->sws as it was, put back at the end */
	double loss;                 /* the summed cross-entropy, and the
	                                selection's share */
	int *right;                  /* right predictions, counted */
};

/* What the backward pass of step t reads of its forward pass, an entry of
 * the pass's tape: w's own vectors in a pass that goes back at once, the
 * slices the forward pass kept (w->seq_alpha, w->seq_out) in one that
 * goes back after every step. */
struct train_step {
	const double *alpha; /* (n) α_t */
	const double *cs;    /* (2H) [c_t; s_t] */
	const double *ht;    /* (H) h̃_t */
	const double *dy;    /* (V) dL/dlogits, scaled */
};

/* h (H) = tanh(W_x x + W_h prev + b): one Elman step of E inputs; each
 * sum as attn_dot(W_x row k, x) + attn_dot(W_h row k, prev) + b_k. */
static inline void train_rnn(double *h, const struct rnn *r, const double *x,
			     const double *prev, int E, int H)
{
	double wx[MODEL_MAX_DIM], wh[MODEL_MAX_DIM];

	attn_matvec(wx, r->Wx, x, H, E);
	attn_matvec(wh, r->Wh, prev, H, H);
	for (int k = 0; k < H; k++)
		h[k] = tanh(wx[k] + wh[k] + r->b[k]);
}

/* The backward pass of train_rnn, given dL/dh in dh (H), which it turns
 * into dL/dpre.  Adds to the gradients of the weights (g), to dx (E) and
 * to dprev (H); dx may be NULL. */
static inline void train_rnn_back(struct rnn *g, const struct rnn *r,
				  double *dh, const double *h, const double *x,
				  const double *prev, double *dx,
				  double *dprev, int E, int H)
{
	for (int k = 0; k < H; k++) {
		dh[k] *= 1.0 - h[k] * h[k];
		g->b[k] += dh[k];
	}
	attn_linear_back(g->Wx, dx, r->Wx, E, dh, x, H, E);
	attn_linear_back(g->Wh, dprev, r->Wh, H, dh, prev, H, H);
}

/* The output layer's product, W x through Wt = Wᵀ (w->outT, which the
 * class's train_begin made), and its backward pass: the largest of a
 * step, so built for AVX2 too (train_simd.h), which runs when w->simd
 * says the processor can, with the same bits. */
static inline void train_out_matvec(const struct train_work *w,
				    double *restrict out,
				    const double *restrict Wt,
				    const double *restrict x, int rows,
				    int cols)
{
	if (w->simd)
		train_simd_matvec_t(out, Wt, x, rows, cols);
	else
		attn_matvec_t(out, Wt, x, rows, cols);
}

static inline void train_out_back(const struct train_work *w,
				  double *restrict G, double *restrict dx,
				  const double *restrict W, int ld,
				  const double *restrict dy,
				  const double *restrict x, int rows, int cols)
{
	if (w->simd)
		train_simd_linear_back(G, dx, W, ld, dy, x, rows, cols);
	else
		attn_linear_back(G, dx, W, ld, dy, x, rows, cols);
}

/* The scale of step t's dL/dlogits: the pass's, but 0 for every step
 * other than w->probe_t when the gradient paths probe one step. */
static inline double train_step_scale(const struct train_pass *p, int t,
				      const struct train_work *w)
{
	return w->probe_t && t != w->probe_t ? 0.0 : p->scale;
}

/* When the gradient paths probe (w->probe_total), keeps dL/dh (len
 * numbers) of encoder position i, complete now that the encoder's
 * backward pass has reached it, at offset off of row i of
 * w->probe_total (Bahdanau's: →h_i at 0, ←h_i at H/2). */
static inline void train_probe_total(struct train_work *w, int i, int off,
				     const double *dh, int len)
{
	if (w->probe_total)
		memcpy(w->probe_total + (size_t)i * w->H + off, dh,
		       sizeof *dh * (size_t)len);
}

/* The word fed to the decoder at step t (from 1): <s>, then tgt. */
static inline int train_input(const struct model *m, const int *tgt, int t)
{
	return t == 1 ? m->bos : tgt[t - 2];
}

/* The word step t of pass p must predict: target word t, or </s>. */
static inline int train_gold(const struct train_pass *p, int t)
{
	return t <= p->pr->ntgt ? p->pr->tgt[t - 1] : p->m->eos;
}

/* dy (V) = dL/dlogits = scale (p - onehot(gold)) from the softmax's p
 * (V), whose p[gold] it lowers by 1 first. */
static inline void train_dlogits(double *restrict dy, double *restrict p,
				 int V, int gold, double scale)
{
	p[gold] -= 1.0;
	for (int k = 0; k < V; k++)
		dy[k] = p[k] * scale;
}

/* Exchanges two of w's buffers: dL/dα_{t-1}, computed into dprev_next,
 * becomes the dprev of the step before without a copy. */
static inline void train_swap(double **a, double **b)
{
	double *t = *a;

	*a = *b;
	*b = t;
}

/* Starts scorer sc on a sentence of n words whose states are in w (rows
 * 1..n of w->h): its view (*in) and its prepare(), and α_0, one-hot on
 * the first source word, in w->seq_alpha's first row. */
void train_scorer_start(struct score_in *in, const struct model *m, int sc,
			int n, struct train_work *w);

/* Starts a pass (train_scorer_start) of scorer sc over pr. */
void train_pass_begin(struct train_pass *p, struct model *g,
		      const struct model *m, const struct train_pair *pr,
		      int sc, double scale, struct train_work *w, int *right);

/* Ends a pass, giving w its scorer's memory back; returns the loss. */
double train_pass_end(struct train_pass *p, struct train_work *w);

/* Step 2 of a step, the weights α_t (w->alpha) from the scores w->e
 * with the query q, by the window class of w (train_window_check has
 * let it through). */
static inline void train_window(const struct model *m, const double *q,
				int t, int n, struct train_work *w)
{
	window_get(w->window)->train_weights(m, q, t, n, w);
}

/* Puts back what train_seq_keep kept of step t's window, if it keeps
 * any. */
static inline void train_window_recall(struct train_work *w, int n, int t)
{
	const struct window_class *wc = window_get(w->window);

	if (wc->train_recall)
		wc->train_recall(w, n, t);
}

/* The loss of step t, whose output made R = log p_t[gold]: -R, the
 * guided-alignment term, and the selection's share, added in that
 * order; counts a right prediction. */
void train_step_loss(struct train_pass *p, int t, int gold, double R,
		     struct train_work *w);

/* Back from dL/dc_t (dc, H) to the scores of step t and the scorer: the
 * selection's context (to dL/dh_i and dL/dα_t, with dalpha_in, what
 * later steps sent back to α_t, or NULL), the window and the selection's
 * own terms (to dL/de_t), the guided-alignment term, and the scorer's
 * gradient for the query q (H), adding to dq (H).  α_t is alpha (n); the
 * step's window state must be in w. */
void train_weights_back(struct train_pass *p, int t, const double *q,
			double *dq, const double *alpha,
			const double *dalpha_in, const double *dc,
			struct train_work *w);

/* Step t of a pass that keeps every step for a backward pass in
 * reverse: the scorer reads α_{t-1}, and keeps its working values in
 * step t's slice of w->seq_ws. */
void train_seq_step(struct train_pass *p, int t, struct train_work *w);

/* Keeps α_t and the window's state of step t for the backward pass. */
void train_seq_keep(const struct train_pass *p, int t, struct train_work *w);

#endif
