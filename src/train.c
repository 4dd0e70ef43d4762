/* train.c: the loss of the attention model, its gradient by
 * backpropagation through time, and the optimiser.
 *
 * Pure: every function computes into memory the caller owns (the trainer
 * and its work space, allocated by the init functions), nothing prints,
 * and there is no global state; the random numbers come from a seed.
 *
 * The forward pass is that of doc/model.md.  This file is the driver:
 * pairs in chunks over threads, the loss, the optimiser, greedy decoding
 * and the alignment count, and the blocks every architecture shares
 * (train_part.h).  Each architecture's own forward and backward pass
 * are in its class (struct arch_class's train_* hooks, src/arch_*.c),
 * each window's in its class (src/window_*.c) and each selection's in
 * its class (src/selection_*.c): nothing here asks which it trains. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "attn.h"
#include "i18n.h"
#include "selection.h"
#include "train.h"
#include "train_part.h"
#include "train_simd.h"
#include "window.h"

/* train_layout_init, with input feeding if feed. */
static void tr_layout_init(struct train_layout *l, int arch, int feed, int E,
			   int H, int A, int L, int nsrc, int ntgt,
			   unsigned scorers)
{
	struct model sizes;
	size_t off = 0;

	memset(&sizes, 0, sizeof sizes);
	sizes.arch = arch;
	sizes.input_feeding = feed;
	sizes.E = E;
	sizes.H = H;
	sizes.A = A;
	sizes.L = L;
	sizes.src.n = nsrc;
	sizes.tgt.n = ntgt;
	memset(l, 0, sizeof *l);
	l->arch = arch;
	l->E = E;
	l->H = H;
	l->A = A;
	l->L = L;
	l->nsrc = nsrc;
	l->ntgt = ntgt;
	l->scorers = scorers;
	l->feed = feed;
	l->nblocks = model_param_table(&sizes, scorers, l->block);
	for (int b = 0; b < l->nblocks; b++) {
		l->block[b].slot = NULL; /* they pointed into sizes */
		l->off[b] = off;
		l->len[b] = (size_t)l->block[b].rows * (size_t)l->block[b].cols;
		off += l->len[b];
	}
	l->total = off;
}

void train_layout_init(struct train_layout *l, int arch, int E, int H,
		       int A, int L, int nsrc, int ntgt, unsigned scorers)
{
	tr_layout_init(l, arch, 0, E, H, A, L, nsrc, ntgt, scorers);
}

const char *train_block_name(const struct train_layout *l, int b)
{
	return l->block[b].section;
}

int train_block_find(const struct train_layout *l, const char *name)
{
	for (int b = 0; b < l->nblocks; b++)
		if (strcmp(l->block[b].section, name) == 0)
			return b;
	return -1;
}

void train_view(struct model *v, const struct train_layout *l,
		double *theta, const struct train_data *d)
{
	struct model_param tab[MODEL_MAX_PARAMS];

	memset(v, 0, sizeof *v);
	v->arch = l->arch;
	v->input_feeding = l->feed;
	v->E = l->E;
	v->H = l->H;
	v->A = l->A;
	v->L = l->L;
	v->src = d->src; /* borrows the words */
	v->tgt = d->tgt;
	v->bos = d->bos;
	v->eos = d->eos;
	/* the same table, so block b is the model's section b */
	model_param_table(v, l->scorers, tab);
	for (int b = 0; b < l->nblocks; b++)
		*tab[b].slot = theta + l->off[b];
}

/* ------------------------------------------------------------ work space */

void train_work_init(struct train_work *w, const struct train_layout *l,
		     int maxn, int maxT)
{
	const size_t H = (size_t)l->H, n = (size_t)maxn;
	const size_t W = (size_t)(l->H > l->A ? l->H : l->A);

	memset(w, 0, sizeof *w);
	w->H = l->H;
	w->A = l->A;
	w->V = l->ntgt;
	w->maxn = maxn;
	w->maxT = maxT;
	w->h = xcalloc((n + 1) * H, sizeof *w->h);
	w->dh = xcalloc((n + 1) * H, sizeof *w->dh);
	w->s = xcalloc(((size_t)maxT + 1) * H, sizeof *w->s);
	w->ds = xcalloc(((size_t)maxT + 1) * H, sizeof *w->ds);
	w->sws.key = xcalloc(n * W, sizeof *w->sws.key);
	w->sws.mid = xcalloc(n * W, sizeof *w->sws.mid);
	w->sws.act = xcalloc(n * W, sizeof *w->sws.act);
	w->sws.q = xcalloc(2 * W, sizeof *w->sws.q);
	w->e = xcalloc(n, sizeof *w->e);
	w->alpha = xcalloc(n, sizeof *w->alpha);
	w->dalpha = xcalloc(n, sizeof *w->dalpha);
	w->cs = xcalloc(2 * H, sizeof *w->cs);
	w->dcs = xcalloc(2 * H, sizeof *w->dcs);
	w->ht = xcalloc(H, sizeof *w->ht);
	w->dht = xcalloc(H, sizeof *w->dht);
	w->p = xcalloc((size_t)l->ntgt, sizeof *w->p);
	w->sws.aux = xcalloc(n * (size_t)(16 + l->A), sizeof *w->sws.aux);
	w->seq_ws = xcalloc((size_t)maxT * (2 * n * W +
			    n * (size_t)(16 + l->A) + 2 * W),
			    sizeof *w->seq_ws);
	w->seq_alpha = xcalloc(((size_t)maxT + 1) * n, sizeof *w->seq_alpha);
	w->seq_out = xcalloc((size_t)maxT * (3 * H + (size_t)l->E +
					     (size_t)l->ntgt),
			     sizeof *w->seq_out);
	w->dprev = xcalloc(n, sizeof *w->dprev);
	w->dprev_next = xcalloc(n, sizeof *w->dprev_next);
	w->hf = xcalloc((n + 2) * H, sizeof *w->hf);
	w->hb = xcalloc((n + 2) * H, sizeof *w->hb);
	w->dhf = xcalloc((n + 2) * H, sizeof *w->dhf);
	w->dhb = xcalloc((n + 2) * H, sizeof *w->dhb);
	w->scy = xcalloc(2 * H + (size_t)l->E, sizeof *w->scy);
	w->dscy = xcalloc(2 * H + (size_t)l->E, sizeof *w->dscy);
	w->dq = xcalloc(H, sizeof *w->dq);
	w->dnext = xcalloc(H, sizeof *w->dnext);
	w->dpre = xcalloc(H, sizeof *w->dpre);
	w->dc = xcalloc(H, sizeof *w->dc);
	w->outT = xcalloc((2 * H + (size_t)l->E) * (size_t)l->ntgt,
			  sizeof *w->outT);
	w->wth = xcalloc(H, sizeof *w->wth);
	w->walign = xcalloc(n, sizeof *w->walign);
	w->wgauss = xcalloc(n, sizeof *w->wgauss);
	w->seq_win = xcalloc((size_t)maxT * (4 + H + 2 * n),
			     sizeof *w->seq_win);
	w->hard_l = xcalloc((size_t)maxT + 1, sizeof *w->hard_l);
	w->hard_adv = xcalloc((size_t)maxT + 1, sizeof *w->hard_adv);
	w->hard_pi = xcalloc(n, sizeof *w->hard_pi);
	w->simd = train_simd_avx2();
}

void train_work_free(struct train_work *w)
{
	double *all[] = { w->h, w->dh, w->s, w->ds, w->sws.key, w->sws.mid,
			  w->sws.act, w->sws.q, w->e, w->alpha, w->dalpha,
			  w->cs, w->dcs, w->ht, w->dht, w->p, w->sws.aux,
			  w->seq_ws, w->seq_alpha, w->seq_out, w->dprev,
			  w->dprev_next, w->hf, w->hb, w->dhf, w->dhb, w->scy,
			  w->dscy, w->dq, w->dnext, w->dpre, w->dc, w->wth,
			  w->walign, w->wgauss, w->seq_win, w->outT };

	for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
		free(all[k]);
	free(w->hard_l);
	free(w->hard_adv);
	free(w->hard_pi);
	memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------- small algebra */

/* The shared algebra of attn.h, by its short names here. */
#define tr_dot attn_dot
#define tr_matvec attn_matvec
#define tr_matvec_t attn_matvec_t
#define tr_argmax attn_argmax
#define tr_linear_back attn_linear_back

/* attn_argmax(x, n), the first index of the largest.  attn_argmax's
 * running largest only changes to a larger x_i, so its index is the
 * first i with x_i equal to the largest value (every earlier x is smaller
 * or NaN): found here as that value, by two runs of maxima side by side
 * (over the even and the odd indices, without branches, NaNs skipped as
 * attn_argmax skips them), then the first x_i equal to it.  A NaN at x[0]
 * or x[1] would stop a run, so then attn_argmax decides. */
static int tr_argmax2(const double *x, int n)
{
	double te, to, top;
	int i;

	if (n < 2 || x[0] != x[0] || x[1] != x[1])
		return tr_argmax(x, n);
	te = x[0];
	to = x[1];
	for (i = 2; i + 1 < n; i += 2) {
		te = x[i] > te ? x[i] : te;
		to = x[i + 1] > to ? x[i + 1] : to;
	}
	if (n % 2)
		te = x[n - 1] > te ? x[n - 1] : te;
	top = to > te ? to : te;
	for (i = 0; x[i] != top; i++)
		;
	return i;
}

/* p (n) = softmax(x), computed stably: exp(x_k - max) in index order,
 * summed in index order, each then divided by the sum; p may be x.
 * Returns log Σ exp(x) if lse, else 0 (the attention weights' softmax
 * needs no log).  With top, stores there what attn_argmax(p, n) would
 * return, the index of the largest p_k, the first on ties. */
static double tr_softmax_top(double *p, const double *x, int n, int lse,
			     int *top)
{
	const int best = tr_argmax2(x, n);
	const double max = x[best];
	double sum = 0.0, d = max - max;
	int k;

	for (k = 0; k < best; k++) {
		p[k] = exp(x[k] - max);
		sum += p[k];
	}
	/* exp(+0) is exactly 1 (C11 F.10.3.1), so no call for the maximum;
	 * d is +0 unless max is infinite or NaN */
	p[best] = d == 0.0 ? 1.0 : exp(d);
	sum += p[best];
	for (k = best + 1; k < n; k++) {
		p[k] = exp(x[k] - max);
		sum += p[k];
	}
	/* four divisions at a time, each the same correctly rounded one */
	for (k = 0; k + 4 <= n; k += 4) {
		p[k] /= sum;
		p[k + 1] /= sum;
		p[k + 2] /= sum;
		p[k + 3] /= sum;
	}
	for (; k < n; k++)
		p[k] /= sum;
	if (top) {
		/* exp(x_k - max) <= 1 = exp(x_best - max) (an exp within one
		 * ulp cannot pass 1 from below), and dividing by the same sum
		 * keeps the order, so p_best is the largest p and the first
		 * largest is the first k with p_k = p_best: at or before best.
		 * Unless the sum is not finite, where attn_argmax decides. */
		if (!(sum - sum == 0.0)) {
			*top = tr_argmax(p, n);
		} else {
			*top = best;
			for (k = 0; k < best; k++)
				if (p[k] == p[best]) {
					*top = k;
					break;
				}
		}
	}
	return lse ? max + log(sum) : 0.0;
}

double train_softmax(double *p, const double *x, int n, int *top)
{
	return tr_softmax_top(p, x, n, 1, top);
}

void train_softmax_weights(double *alpha, const double *e, int n)
{
	tr_softmax_top(alpha, e, n, 0, NULL);
}

/* ------------------------------------------------- the forward pass */

/* The scorer sc's view of the model and the encoder states in w. */
static void tr_score_in(struct score_in *in, const struct model *m, int sc,
			int n, const struct train_work *w)
{
	scorer_input(in, m, sc, w->h + m->H, n); /* h_1 .. h_n */
}

/* Starts scorer sc on a sentence of n words whose states are in w: its
 * view (*in) and its prepare(), and α_0, one-hot on the first source
 * word, in w->seq_alpha's first row, for a scorer that reads α_{t-1}. */
void train_scorer_start(struct score_in *in, const struct model *m,
			    int sc, int n, struct train_work *w)
{
	const struct scorer_class *cls = scorer_get(sc);

	tr_score_in(in, m, sc, n, w);
	if (cls->prepare)
		cls->prepare(in, &w->sws);
	memset(w->seq_alpha, 0, sizeof *w->seq_alpha * (size_t)n);
	w->seq_alpha[0] = 1.0;
}

/* ------------------------------------------------------- the window */

/* Keeps step t's window state for a backward pass that runs after every
 * step's forward pass, if the window keeps any. */
static void tr_window_keep(struct train_work *w, int n, int t)
{
	const struct window_class *wc = window_get(w->window);

	if (wc->train_keep)
		wc->train_keep(w, n, t);
}

int train_window_check(const struct window_class *wc, struct errbuf *err)
{
	if (wc->train_weights && wc->train_back)
		return 0;
	err_set(err, _("the window %s cannot be trained: it has no training "
		"part (train_weights and train_back, src/window.h)"), wc->name);
	return -1;
}

int train_arch_check(const struct arch_class *a, struct errbuf *err)
{
	if (a->train_begin && a->train_encode && a->train_step &&
	    a->train_pair)
		return 0;
	err_set(err, _("the architecture %s cannot be trained: it has no "
		"training part (train_begin, train_encode, train_step and "
		"train_pair, src/arch.h)"), a->name);
	return -1;
}

/* ----------------------------------------------------- the selection */

int train_hard_supported(int arch, unsigned scorers)
{
	/* an architecture with a training part, every scorer */
	return arch_get(arch)->train_pair && (scorers & SCORER_ALL) != 0;
}

/* The selection that w trains (src/selection_*.c): train_hard_start
 * sets hard's. */
static const struct selection_class *tr_sel(const struct train_work *w)
{
	return selection_get(w->selection);
}

/* Greedy decoding and the alignment count weigh with the registry's
 * first selection, the documented default (soft: the weighted sum). */
static const struct selection_class *tr_sel_default(void)
{
	return selection_get(0);
}

/* ------------------------------------------------- the backward pass */

/* Σ of the α_i whose gold[i] is set: the weight on the gold words. */
static double tr_gold_mass(const double *alpha, const unsigned char *gold,
			   int n)
{
	double a = 0.0;

	for (int i = 0; i < n; i++)
		if (gold[i])
			a += alpha[i];
	return a;
}

/* The gold links of target word t of pr (a row of n flags), or NULL when
 * the pair has no alignment, t is its </s>, or the word is linked to no
 * source word. */
static const unsigned char *tr_gold_row(const struct train_pair *pr, int t)
{
	const unsigned char *row;

	if (!pr->gold || t > pr->ntgt)
		return NULL;
	row = pr->gold + (size_t)(t - 1) * pr->nsrc;
	for (int i = 0; i < pr->nsrc; i++)
		if (row[i])
			return row;
	return NULL;
}

/* The gold links of target word t when the guided-alignment term is on
 * (w->align_weight), else NULL. */
static const unsigned char *tr_align_links(const struct train_pair *pr, int t,
					   const struct train_work *w)
{
	return w->align_weight != 0.0 ? tr_gold_row(pr, t) : NULL;
}

/* The guided-alignment term of step t, from w->alpha: λ -log of the
 * attention on the gold words, or 0. */
static double tr_align_loss(const struct train_pair *pr, int t, int n,
			    const struct train_work *w)
{
	const unsigned char *links = tr_align_links(pr, t, w);

	return links ? -w->align_weight *
		       log(tr_gold_mass(w->alpha, links, n)) : 0.0;
}

/* Adds the guided-alignment term's dL/de to e (n): λ' α_i (1 - [i in G] /
 * a), a = Σ_{i in G} α_i, λ' being λ times the loss's scale. */
static void tr_align_back(double *e, const double *alpha,
			  const unsigned char *gold, double lambda, int n)
{
	double in; /* 1 - 1/a: the factor of a gold word, 1 - 0 = 1 else */

	if (!gold || lambda == 0.0)
		return;
	in = 1.0 - 1.0 / tr_gold_mass(alpha, gold, n); /* once, not a word */
	for (int i = 0; i < n; i++)
		e[i] += lambda * alpha[i] * (gold[i] ? in : 1.0);
}

/* Starts a pass (train_scorer_start). */
void train_pass_begin(struct train_pass *p, struct model *g,
			  const struct model *m, const struct train_pair *pr,
			  int sc, double scale, struct train_work *w,
			  int *right)
{
	p->g = g;
	p->m = m;
	p->pr = pr;
	p->sc = sc;
	p->n = pr->nsrc;
	p->T = pr->ntgt + 1;
	p->scale = scale;
	p->sel = tr_sel(w);
	p->ws = w->sws;
	p->loss = 0.0;
	p->right = right;
	train_scorer_start(&p->in, m, sc, p->n, w);
}

/* Ends a pass, giving w its scorer's memory back; returns the loss. */
double train_pass_end(struct train_pass *p, struct train_work *w)
{
	w->sws = p->ws;
	return p->loss;
}

/* The loss of step t, whose output made R = log p_t[gold]: -R, the
 * guided-alignment term, and the selection's share (train_reward),
 * added in that order; counts a right prediction. */
void train_step_loss(struct train_pass *p, int t, int gold, double R,
			 struct train_work *w)
{
	p->loss -= R;
	p->loss += tr_align_loss(p->pr, t, p->n, w);
	*p->right += w->ptop == gold;
	if (p->sel->train_reward)
		p->loss += p->sel->train_reward(w, w->alpha, p->n, t, p->sc,
						R);
}

/* Back from dL/dc_t (dc, H) to the scores of step t and the scorer, in
 * either architecture: the selection's context (to dL/dh_i and dL/dα_t,
 * with dalpha_in, what later steps sent back to α_t, or NULL), the window
 * and the selection's own terms (to dL/de_t), the guided-alignment term,
 * and the scorer's gradient for the query q (H), adding to dq (H).  α_t
 * is alpha (n); the step's window state must be in w. */
void train_weights_back(struct train_pass *p, int t, const double *q,
			    double *dq, const double *alpha,
			    const double *dalpha_in, const double *dc,
			    struct train_work *w)
{
	const int n = p->n;
	double *dh = w->dh; /* probed: step t's own part first, kept */
	const size_t len = (size_t)(n + 1) * (size_t)p->m->H;

	if (w->probe_direct && t == w->probe_t) {
		memset(w->probe_direct, 0, sizeof *dh * len);
		w->dh = w->probe_direct;
	}
	p->sel->train_context_back(dc, alpha, dalpha_in, n, t, w);
	p->sel->train_scores_back(p->g, p->m, q, dq, alpha, dalpha_in, n, t,
				  p->scale, w);
	/* the guided-alignment term -λ' log a, a = Σ_{i in G} α_t,i */
	tr_align_back(w->e, alpha, tr_align_links(p->pr, t, w),
		      p->scale * w->align_weight, n);
	scorer_get(p->sc)->backward(&p->in, q, w->e, &w->sws,
				    p->g->sw[p->sc], dq, w->dh + p->m->H);
	if (w->dh != dh) {
		w->dh = dh;
		for (size_t k = 0; k < len; k++)
			dh[k] += w->probe_direct[k];
	}
}

/* Points the scorer's mid, act, aux and q at step t's slice of seq_ws. */
static inline void tr_seq_ws(struct train_work *w, int n, int t)
{
	const size_t W = (size_t)(w->H > w->A ? w->H : w->A);
	const size_t X = (size_t)(16 + w->A), N = (size_t)n;
	double *p = w->seq_ws + (size_t)(t - 1) * (2 * N * W + N * X + 2 * W);

	w->sws.mid = p;
	w->sws.act = p + N * W;
	w->sws.aux = p + 2 * N * W;
	w->sws.q = p + 2 * N * W + N * X;
}

/* Step t of a pass that keeps every step for a backward pass in
 * reverse: the scorer reads α_{t-1}, and keeps its working values in
 * step t's slice of w->seq_ws. */
void train_seq_step(struct train_pass *p, int t, struct train_work *w)
{
	p->in.prev_alpha = w->seq_alpha + (size_t)(t - 1) * p->n;
	tr_seq_ws(w, p->n, t);
}

/* Keeps α_t and the window's state of step t for the backward pass. */
void train_seq_keep(const struct train_pass *p, int t, struct train_work *w)
{
	memcpy(w->seq_alpha + (size_t)t * p->n, w->alpha,
	       sizeof *w->alpha * (size_t)p->n);
	tr_window_keep(w, p->n, t);
}

/* ------------------------------------------------ the loss over the pairs */

/* One train_loss, shared by its threads (train.h, TRAIN_CHUNK).  Each
 * thread takes the next chunk of pairs and sums it from zero into the
 * chunk's slot, one of a ring: chunk c goes to slot c mod nslots.  The
 * finished chunks are added into the results in chunk order, as soon as
 * every chunk before them is, by whichever thread finds them so (one at
 * a time), so that a thread never waits for a slower one until the ring
 * is full.  Chunk 0 runs straight into grad, loss and right, so that a
 * corpus of one chunk is one running sum over its pairs, from grad's
 * zeros. */
struct tr_slot {
	double *buf;             /* (l->total) the chunk's gradient */
	double loss[SCORER_COUNT];
	int right[SCORER_COUNT];
	int done;                /* summed, not yet added; under lock */
};

struct tr_job {
	const struct train_layout *l;
	const struct model *m;   /* the weights, a view of theta */
	double *grad;            /* (l->total) zeroed; NULL: the loss alone */
	const struct train_data *d;
	unsigned scorers;
	double scale;            /* 1 / d->ntokens */
	int nchunks;
	int threads;             /* 1: no lock, no thread but the caller */
	double loss[SCORER_COUNT]; /* the sums of the chunks added so far */
	int right[SCORER_COUNT];
	struct tr_slot *slot;    /* (nslots) */
	int nslots;
	/* under lock: */
	int taken;               /* chunks taken */
	int added;               /* chunks added */
	int adding;              /* a thread is adding chunks */
	pthread_mutex_t lock;
	pthread_cond_t room;     /* added has grown: a slot is free */
};

/* One thread of a job: its scratch. */
struct tr_hand {
	struct tr_job *job;
	struct train_work *w;
};

/* The slots of a job on n threads: room for each thread to run ahead. */
static int tr_slots(int n)
{
	return n > 1 ? 4 * n : 1;
}

static void tr_job_lock(struct tr_job *j)
{
	if (j->threads > 1)
		pthread_mutex_lock(&j->lock);
}

static void tr_job_unlock(struct tr_job *j)
{
	if (j->threads > 1)
		pthread_mutex_unlock(&j->lock);
}

/* Adds chunk c's pairs with work w: the gradient into acc (if not NULL),
 * each scorer's loss and right predictions into loss, right. */
static void tr_chunk_sum(const struct tr_job *j, int c, double *acc,
			 struct train_work *w, double loss[SCORER_COUNT],
			 int right[SCORER_COUNT])
{
	const struct model *m = j->m;
	const int from = c * TRAIN_CHUNK;
	const int to = from + TRAIN_CHUNK < j->d->n ? from + TRAIN_CHUNK
						     : j->d->n;
	struct model g;

	if (acc)
		train_view(&g, j->l, acc, j->d);
	for (int k = from; k < to; k++)
		arch_get(m->arch)->train_pair(acc ? &g : NULL, m,
					      &j->d->pairs[k], j->scorers,
					      j->scale, w, loss, right);
}

/* Sums chunk c with work w: chunk 0 into the job's results, another
 * into its slot from zero. */
static void tr_chunk(struct tr_job *j, int c, struct train_work *w)
{
	struct tr_slot *s = &j->slot[c % j->nslots];

	if (c == 0) {
		tr_chunk_sum(j, 0, j->grad, w, j->loss, j->right);
		return;
	}
	memset(s->loss, 0, sizeof s->loss);
	memset(s->right, 0, sizeof s->right);
	if (j->grad)
		memset(s->buf, 0, sizeof *s->buf * j->l->total);
	tr_chunk_sum(j, c, j->grad ? s->buf : NULL, w, s->loss, s->right);
}

/* Adds slot s (a chunk after the first) into the job's results. */
static void tr_slot_add(struct tr_job *j, const struct tr_slot *s)
{
	double *restrict grad = j->grad;
	const double *restrict buf = s->buf;

	for (size_t k = 0; grad && k < j->l->total; k++)
		grad[k] += buf[k];
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		j->loss[sc] += s->loss[sc];
		j->right[sc] += s->right[sc];
	}
}

/* With the lock held: unless another thread is at it, adds every
 * finished chunk that follows the chunks added, in order. */
static void tr_job_drain(struct tr_job *j)
{
	if (j->adding)
		return;
	j->adding = 1;
	while (j->added < j->nchunks && j->slot[j->added % j->nslots].done) {
		struct tr_slot *s = &j->slot[j->added % j->nslots];
		int c = j->added;
		tr_job_unlock(j);
		if (c > 0) /* chunk 0 is in the results already */
			tr_slot_add(j, s);
		tr_job_lock(j);
		s->done = 0;
		j->added++;
		if (j->threads > 1)
			pthread_cond_broadcast(&j->room);
	}
	j->adding = 0;
}

/* A thread's loop: the next chunk, once its slot is free, until none is
 * left. */
static void *tr_hand_run(void *arg)
{
	struct tr_hand *h = arg;
	struct tr_job *j = h->job;

	arch_get(j->m->arch)->train_begin(j->m, h->w);
	tr_job_lock(j);
	while (j->taken < j->nchunks) {
		int c = j->taken;
		if (c >= j->added + j->nslots) { /* its slot is not free */
			pthread_cond_wait(&j->room, &j->lock);
			continue;
		}
		j->taken++;
		tr_job_unlock(j);
		tr_chunk(j, c, h->w);
		tr_job_lock(j);
		j->slot[c % j->nslots].done = 1;
		tr_job_drain(j);
	}
	tr_job_unlock(j);
	return NULL;
}

/* Runs the job on hands[0 .. j->threads): hands[0] in the calling thread,
 * the others in threads of their own.  A thread that cannot be started
 * leaves its chunks to the others. */
static void tr_job_run(struct tr_job *j, struct tr_hand *hands)
{
	pthread_t tid[TRAIN_MAX_THREADS];
	int started[TRAIN_MAX_THREADS] = { 0 };

	memset(tid, 0, sizeof tid); /* joined only if started */
	if (j->threads > 1) {
		pthread_mutex_init(&j->lock, NULL);
		pthread_cond_init(&j->room, NULL);
	}
	for (int i = 1; i < j->threads; i++)
		started[i] = pthread_create(&tid[i], NULL, tr_hand_run,
					    &hands[i]) == 0;
	tr_hand_run(&hands[0]);
	for (int i = 1; i < j->threads; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	if (j->threads > 1) {
		pthread_cond_destroy(&j->room);
		pthread_mutex_destroy(&j->lock);
	}
}

/* The job's sums as train_loss returns them, into *st if not NULL. */
static double tr_loss_stats(struct tr_job *j, struct train_stats *st)
{
	double total = 0.0;
	int count = 0, nright = 0;

	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		j->loss[sc] *= j->scale;
		total += j->loss[sc];
		if (st) {
			st->loss_of[sc] = j->loss[sc];
			st->acc_of[sc] = (double)j->right[sc] * j->scale;
		}
		if (j->scorers & (1u << sc)) {
			count++;
			nright += j->right[sc];
		}
	}
	if (st) {
		st->scorers = j->scorers;
		st->loss = count ? total / count : 0.0;
		st->accuracy = count ? (double)nright * j->scale / count : 0.0;
	}
	return total;
}

/* train_loss on works[0 .. threads) (their settings the same), with the
 * slots' buffers bufs (tr_slots(threads), each l->total; may be NULL
 * without grad or with one chunk). */
static double tr_loss(const struct train_layout *l, const double *theta,
		      double *grad, const struct train_data *d,
		      unsigned scorers, struct train_work *const *works,
		      int threads, double *bufs, struct train_stats *st)
{
	struct model m;
	struct tr_job j;
	struct tr_hand hands[TRAIN_MAX_THREADS];
	struct tr_slot slot[4 * TRAIN_MAX_THREADS];

	train_view(&m, l, (double *)theta, d);
	memset(&j, 0, sizeof j);
	j.l = l;
	j.m = &m;
	j.grad = grad;
	j.d = d;
	j.scorers = scorers & model_scorers(&m); /* those it has weights of */
	j.scale = 1.0 / d->ntokens;
	j.nchunks = (d->n + TRAIN_CHUNK - 1) / TRAIN_CHUNK;
	j.threads = threads < j.nchunks ? threads : j.nchunks;
	if (j.threads < 1)
		j.threads = 1;
	if (grad)
		memset(grad, 0, sizeof *grad * l->total);
	j.slot = slot;
	j.nslots = tr_slots(j.threads);
	for (int i = 0; i < j.nslots; i++) {
		slot[i].buf = bufs ? bufs + (size_t)i * l->total : NULL;
		slot[i].done = 0;
	}
	for (int i = 0; i < j.threads; i++) {
		hands[i].job = &j;
		hands[i].w = works[i];
	}
	tr_job_run(&j, hands);
	return tr_loss_stats(&j, st);
}

double train_loss(const struct train_layout *l, const double *theta,
		  double *grad, const struct train_data *d, unsigned scorers,
		  struct train_work *w, struct train_stats *st)
{
	double *buf = grad && d->n > TRAIN_CHUNK
		      ? xcalloc(l->total, sizeof *buf) : NULL;
	double loss = tr_loss(l, theta, grad, d, scorers, &w, 1, buf, st);

	free(buf);
	return loss;
}

/* --------------------------------------------------------- the PRNG */

uint64_t train_rand_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15u);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

double train_rand_uniform(uint64_t *s, double lo, double hi)
{
	double u = (double)(train_rand_next(s) >> 11) * 0x1.0p-53;

	return lo + (hi - lo) * u;
}

/* ------------------------------------------------------- the trainer */

void train_opts_default(struct train_opts *o)
{
	memset(o, 0, sizeof *o);
	o->scorers = SCORER_ALL;
	o->epochs = 3000;
	o->lr = 0.01;
	o->weight_decay = 0.2;
	o->clip = 5.0;
	o->optim = TRAIN_ADAM;
	o->beta1 = 0.9;
	o->beta2 = 0.999;
	o->eps = 1e-8;
	o->seed = 1;
}

/* 1 if a weight of the scorers in the bitmask has a row a position. */
static int tr_uses_positions(unsigned scorers)
{
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if ((scorers & (1u << sc)) && scorer_uses_positions(sc))
			return 1;
	return 0;
}

/* Allocates the vectors of *t for data d, sizes E, H, A, L and the
 * weights of the scorers in the bitmask. */
static void tr_alloc(struct trainer *t, const struct train_data *d,
		     int arch, int feed, int E, int H, int A, int L,
		     unsigned scorers)
{
	int maxT = d->max_tgt + 1;

	memset(t, 0, sizeof *t);
	if (!tr_uses_positions(scorers))
		L = 0; /* no weight has a row a source position */
	tr_layout_init(&t->lay, arch, feed, E, H, A, L, d->src.n, d->tgt.n,
		       scorers);
	t->theta = xcalloc(t->lay.total, sizeof *t->theta);
	t->grad = xcalloc(t->lay.total, sizeof *t->grad);
	t->m1 = xcalloc(t->lay.total, sizeof *t->m1);
	t->m2 = xcalloc(t->lay.total, sizeof *t->m2);
	t->frozen = xcalloc((size_t)t->lay.nblocks, sizeof *t->frozen);
	/* room for greedy decoding too: up to 2n + 2 steps */
	if (2 * d->max_src + 2 > maxT)
		maxT = 2 * d->max_src + 2;
	train_work_init(&t->work, &t->lay, d->max_src, maxT);
	t->nthreads = 1;
}

/* The range r of the uniform [-r, r] start of block b: 1 for the
 * embeddings, 1/sqrt(fan-in) for the matrices whose rows read fan-in
 * numbers (every scorer's weights among them); 0 for the blocks that
 * start at a fixed value (W_h of both RNNs, the biases). */
static double tr_init_range(const struct train_layout *l, int b)
{
	const struct model_param *p = &l->block[b];

	if (p->kind == PARAM_SRC_VOCAB || p->kind == PARAM_TGT_VOCAB)
		return 1.0;
	if (p->scorer >= 0 || p->kind == PARAM_WORD_ROWS ||
	    strcmp(p->section, "output.W_c") == 0 ||
	    strcmp(p->section, "encoder.W_x") == 0 ||
	    strcmp(p->section, "decoder.W_x") == 0 ||
	    strcmp(p->section, "forward.W_x") == 0 ||
	    strcmp(p->section, "backward.W_x") == 0 ||
	    strcmp(p->section, "decoder.W_init") == 0 ||
	    strcmp(p->section, "decoder.W_y") == 0 ||
	    strcmp(p->section, "decoder.W_c") == 0 ||
	    p->scorer == LOCALP_PARAM_OWNER || /* W_p, v_p: 0 would stay 0 */
	    (p->scorer == PATCH_PARAM_OWNER && !p->vector)) /* W, P, W_init */
		return 1.0 / sqrt((double)p->cols);
	return 0.0;
}

/* The "attention first" start, see train.h: draws block b from state. */
static void tr_init_block(struct trainer *t, int b, uint64_t *state)
{
	const int H = t->lay.H;
	const double r = tr_init_range(&t->lay, b);
	const int wc = strcmp(t->lay.block[b].section, "output.W_c") == 0;
	const int dec_wh = strcmp(t->lay.block[b].section, "decoder.W_h") == 0 ||
			   strcmp(t->lay.block[b].section, "decoder.W_s") == 0;
	double *x = t->theta + t->lay.off[b];

	for (size_t k = 0; k < t->lay.len[b]; k++) {
		/* W_c reads [c_t; s_t]: only the c_t half is drawn */
		int s_half = wc && (int)(k % (2 * (size_t)H)) >= H;
		x[k] = r > 0.0 && !s_half ? train_rand_uniform(state, -r, r)
					  : 0.0;
	}
	for (int k = 0; dec_wh && k < H; k++)
		x[(size_t)k * H + k] = 1.0; /* the decoder's W_h = I */
}

void train_init_random(struct trainer *t, const struct train_data *d,
		       int E, int H, int A, int L, unsigned scorers,
		       uint64_t seed)
{
	train_init_random_arch(t, d, ARCH_DEFAULT, E, H, A, L, scorers, seed);
}

void train_init_random_arch(struct trainer *t, const struct train_data *d,
			    int arch, int E, int H, int A, int L,
			    unsigned scorers, uint64_t seed)
{
	uint64_t state = seed;

	tr_alloc(t, d, arch, 0, E, H, A, L, scorers);
	for (int b = 0; b < t->lay.nblocks; b++)
		tr_init_block(t, b, &state);
}

void train_init_random_feed(struct trainer *t, const struct train_data *d,
			    int E, int H, int A, int L, unsigned scorers,
			    uint64_t seed)
{
	uint64_t state = seed;

	tr_alloc(t, d, ARCH_DEFAULT, 1, E, H, A, L, scorers);
	for (int b = 0; b < t->lay.nblocks; b++)
		tr_init_block(t, b, &state);
}

void train_init_model(struct trainer *t, const struct train_data *d,
		      const struct model *m, unsigned scorers, int L,
		      uint64_t seed, int keep_others)
{
	struct model v;
	struct model_param tab[MODEL_MAX_PARAMS];
	uint64_t state = seed;
	/* m's scorers, and its [local-p.*] and [patch.*] sections if it
	 * has them */
	unsigned extra = (m->Wp && m->vp ? LOCALP_PARAM_BIT : 0u) |
			 (m->Wpatch ? PATCH_PARAM_BIT : 0u);
	unsigned have = model_scorers(m) | extra;
	if (!keep_others) /* a window's or an encoder's weights are not a
			     scorer's */
		have &= scorers | extra;

	tr_alloc(t, d, m->arch, m->input_feeding, m->E, m->H, m->A,
		 m->L ? m->L : L,
		 have | scorers);
	train_view(&v, &t->lay, t->theta, d);
	model_param_table(&v, t->lay.scorers, tab);
	for (int b = 0; b < t->lay.nblocks; b++) {
		int sc = t->lay.block[b].scorer;
		const double *src = model_weights(m, t->lay.block[b].section);
		if ((sc >= 0 && !(have & (1u << sc))) ||
		    (sc == LOCALP_PARAM_OWNER && !(have & LOCALP_PARAM_BIT)) ||
		    (sc == PATCH_PARAM_OWNER && !(have & PATCH_PARAM_BIT)))
			tr_init_block(t, b, &state); /* new to this model */
		else
			memcpy(*tab[b].slot, src,
			       sizeof **tab[b].slot * t->lay.len[b]);
	}
	for (int g = 0; g < MHA_GROUPS; g++)
		for (int w = 0; w < MHA_NW; w++)
			if (m->mha[g][w]) {
				size_t len = (size_t)m->E * (size_t)m->E;
				t->mha[g][w] = xmalloc(len * sizeof(double));
				memcpy(t->mha[g][w], m->mha[g][w],
				       len * sizeof(double));
			}
}

void train_freeze_shared(struct trainer *t, unsigned scorers)
{
	for (int b = 0; b < t->lay.nblocks; b++) {
		int sc = t->lay.block[b].scorer;
		t->frozen[b] = sc == LOCALP_PARAM_OWNER
			       ? !(scorers & LOCALP_PARAM_BIT)
			       : sc < 0 || !(scorers & (1u << sc));
	}
}

void train_free(struct trainer *t)
{
	free(t->theta);
	free(t->grad);
	free(t->m1);
	free(t->m2);
	free(t->frozen);
	for (int g = 0; g < MHA_GROUPS; g++)
		for (int w = 0; w < MHA_NW; w++)
			free(t->mha[g][w]);
	train_work_free(&t->work);
	for (int i = 0; i + 1 < t->nthreads; i++)
		train_work_free(&t->peer[i]);
	free(t->peer);
	free(t->chunk);
	memset(t, 0, sizeof *t);
}

int train_weights_ok(const struct trainer *t)
{
	for (size_t k = 0; k < t->lay.total; k++)
		if (!(fabs(t->theta[k]) <= MODEL_MAX_WEIGHT))
			return 0; /* NaN fails the comparison too */
	return 1;
}

/* Scales grad (n) to norm at most clip (clip > 0); returns the norm it
 * had. */
static double tr_clip(double *grad, size_t n, double clip)
{
	double sq = 0.0, norm;

	for (size_t k = 0; k < n; k++)
		sq += grad[k] * grad[k];
	norm = sqrt(sq);
	if (clip > 0.0 && norm > clip)
		for (size_t k = 0; k < n; k++)
			grad[k] *= clip / norm;
	return norm;
}

/* One update of t->theta[from .. to) from t->grad, after the decoupled
 * weight decay theta -= lr * weight_decay * theta (as AdamW does it). */
static void tr_update_range(struct trainer *t, const struct train_opts *o,
			    size_t from, size_t to)
{
	const double lr = o->lr, decay = 1.0 - o->lr * o->weight_decay;

	if (o->optim == TRAIN_SGD) {
		for (size_t k = from; k < to; k++)
			t->theta[k] = decay * t->theta[k] - lr * t->grad[k];
		return;
	}
	/* Adam: the moments, then the step with its bias corrections */
	const double c1 = 1.0 - pow(o->beta1, (double)t->step);
	const double c2 = 1.0 - pow(o->beta2, (double)t->step);
	for (size_t k = from; k < to; k++) {
		double g = t->grad[k];
		t->m1[k] = o->beta1 * t->m1[k] + (1.0 - o->beta1) * g;
		t->m2[k] = o->beta2 * t->m2[k] + (1.0 - o->beta2) * g * g;
		t->theta[k] = decay * t->theta[k] - lr * (t->m1[k] / c1) /
			      (sqrt(t->m2[k] / c2) + o->eps);
	}
}

static void tr_update(struct trainer *t, const struct train_opts *o)
{
	t->step++;
	for (int b = 0; b < t->lay.nblocks; b++)
		if (!t->frozen[b])
			tr_update_range(t, o, t->lay.off[b],
					t->lay.off[b] + t->lay.len[b]);
}

/* Gives t the scratch of n threads (n >= t->nthreads) and the slots'
 * buffers of a job on n threads (tr_slots). */
static void tr_crew_grow(struct trainer *t, int n)
{
	int had = t->nthreads > 1 ? t->nthreads : 1;

	t->peer = xreallocarray(t->peer, (size_t)n - 1, sizeof *t->peer);
	for (int i = had - 1; i < n - 1; i++)
		train_work_init(&t->peer[i], &t->lay, t->work.maxn,
				t->work.maxT);
	free(t->chunk);
	t->chunk = xcalloc((size_t)tr_slots(n) * t->lay.total,
			   sizeof *t->chunk);
	t->nthreads = n;
}

/* Sets t's scratch for a pass over d with the settings of o, and returns
 * how many threads run it: o->threads, but no more than d has chunks, and
 * one with hard attention (its draws and baselines run on from pair to
 * pair).  works gets their scratch, t->work first. */
static int tr_crew(struct trainer *t, const struct train_data *d,
		   const struct train_opts *o, struct train_work **works)
{
	const int nchunks = (d->n + TRAIN_CHUNK - 1) / TRAIN_CHUNK;
	int n = o->threads < TRAIN_MAX_THREADS ? o->threads
					       : TRAIN_MAX_THREADS;

	if (n > nchunks)
		n = nchunks;
	if (n < 1 || selection_get(t->work.selection)->train_serial)
		n = 1;
	if (n > t->nthreads || (nchunks > 1 && !t->chunk))
		tr_crew_grow(t, n > t->nthreads ? n : t->nthreads);
	works[0] = &t->work;
	t->work.align_weight = o->align_weight;
	t->work.window = o->window;
	t->work.window_size = o->window_size;
	for (int i = 1; i < n; i++) { /* the settings of t->work */
		works[i] = &t->peer[i - 1];
		works[i]->align_weight = t->work.align_weight;
		works[i]->window = t->work.window;
		works[i]->window_size = t->work.window_size;
		works[i]->simd = t->work.simd;
	}
	return n;
}

void train_epoch(struct trainer *t, const struct train_data *d,
		 const struct train_opts *o, struct train_stats *st)
{
	struct train_work *works[TRAIN_MAX_THREADS];
	int n;

	if (o->selection != t->work.selection &&
	    selection_get(o->selection)->train_start)
		selection_get(o->selection)->train_start(&t->work, o->seed);
	n = tr_crew(t, d, o, works);
	tr_loss(&t->lay, t->theta, t->grad, d, o->scorers, works, n, t->chunk,
		st);
	for (int b = 0; b < t->lay.nblocks; b++) /* no part in the clip */
		if (t->frozen[b])
			memset(t->grad + t->lay.off[b], 0,
			       sizeof *t->grad * t->lay.len[b]);
	st->grad_norm = tr_clip(t->grad, t->lay.total, o->clip);
	tr_update(t, o);
}

int train_run(struct trainer *t, const struct train_data *d,
	      const struct train_opts *o, train_progress_fn progress,
	      void *ctx, struct train_stats *last)
{
	struct train_work *works[TRAIN_MAX_THREADS];
	struct train_stats st;
	int e, n;

	memset(&st, 0, sizeof st);
	for (e = 1; e <= o->epochs; e++) {
		train_epoch(t, d, o, &st);
		st.epoch = e;
		st.epochs = o->epochs;
		if (progress && progress(&st, ctx) != 0) {
			e++;
			break;
		}
	}
	memset(last, 0, sizeof *last);
	n = tr_crew(t, d, o, works);
	tr_loss(&t->lay, t->theta, NULL, d, o->scorers, works, n, NULL, last);
	last->epoch = e - 1;
	last->epochs = o->epochs;
	last->grad_norm = st.grad_norm;
	return e - 1;
}

/* ------------------------------------------------------- the results */

/* After step t of greedy decoding: α_t becomes the α_{t-1} of the next
 * step (w->seq_alpha), and row t - 1 of alpha (if not NULL); the
 * predicted word goes to out[t - 1], and is returned. */
static int tr_greedy_word(int t, int n, int *out, double *alpha,
			  struct train_work *w)
{
	memcpy(w->seq_alpha, w->alpha, sizeof *w->alpha * (size_t)n);
	if (alpha)
		memcpy(alpha + (size_t)(t - 1) * n, w->alpha,
		       sizeof *alpha * (size_t)n);
	return out[t - 1] = w->ptop;
}

int train_greedy(const struct model *m, const int *src, int n,
		 int sc, int *out, int max, double *alpha,
		 struct train_work *w)
{
	const struct arch_class *cls = arch_get(m->arch);
	struct score_in in;
	int word = m->bos, t;

	if (n < 1 || n > w->maxn)
		return 0;
	if (max > 2 * n + 2)
		max = 2 * n + 2;
	if (max > w->maxT)
		max = w->maxT;
	cls->train_begin(m, w);
	cls->train_encode(m, src, n, w);
	train_scorer_start(&in, m, sc, n, w);
	in.prev_alpha = w->seq_alpha;
	for (t = 1; t <= max; t++) {
		cls->train_step(m, &in, sc, t, n, word, tr_sel_default(), w);
		word = tr_greedy_word(t, n, out, alpha, w);
		if (word == m->eos)
			return t;
	}
	return t - 1;
}

int train_count_exact(const struct model *m, const struct train_data *d,
		      int sc, struct train_work *w)
{
	int count = 0, out[2 * TRAIN_MAX_WORDS + 2];

	for (int k = 0; k < d->n; k++) {
		const struct train_pair *pr = &d->pairs[k];
		int steps = train_greedy(m, pr->src, pr->nsrc, sc, out,
					 2 * TRAIN_MAX_WORDS + 2, NULL, w);
		int same = steps == pr->ntgt + 1 && out[pr->ntgt] == m->eos;
		for (int j = 0; same && j < pr->ntgt; j++)
			same = out[j] == pr->tgt[j];
		count += same;
	}
	return count;
}

/* The share of pr's aligned target words whose largest teacher-forced α
 * with scorer sc is on a gold source word: adds to *hits and *total. */
static void tr_align_pair(const struct model *m, const struct train_pair *pr,
			  int sc, struct train_work *w, int *hits, int *total)
{
	const struct arch_class *cls = arch_get(m->arch);
	const int n = pr->nsrc;
	struct score_in in;

	cls->train_encode(m, pr->src, n, w);
	train_scorer_start(&in, m, sc, n, w);
	in.prev_alpha = w->seq_alpha;
	for (int t = 1; t <= pr->ntgt; t++) {
		const unsigned char *gold = pr->gold + (size_t)(t - 1) * n;
		int linked = 0, word = train_input(m, pr->tgt, t);
		cls->train_step(m, &in, sc, t, n, word, tr_sel_default(), w);
		memcpy(w->seq_alpha, w->alpha, sizeof *w->alpha * (size_t)n);
		for (int i = 0; i < n; i++)
			linked |= gold[i];
		if (!linked)
			continue; /* a word aligned to nothing is not counted */
		*total += 1;
		*hits += gold[tr_argmax(w->alpha, n)];
	}
}

int train_align_count(const struct model *m, const struct train_data *d,
		      int sc, struct train_work *w, int *total)
{
	int hits = 0;

	*total = 0;
	arch_get(m->arch)->train_begin(m, w);
	for (int k = 0; k < d->n; k++)
		if (d->pairs[k].gold && d->pairs[k].nsrc <= w->maxn &&
		    d->pairs[k].ntgt <= w->maxT &&
		    (!scorer_uses_positions(sc) || d->pairs[k].nsrc <= m->L))
			tr_align_pair(m, &d->pairs[k], sc, w, &hits, total);
	return hits;
}
