/* scorer.h: the score functions of attention, each a registered class.
 *
 * A scorer is one file, src/score_NAME.c, that defines one
 * `const struct scorer_class scorer_NAME`: its forward arithmetic, its
 * gradient, the weights it owns, and its names, formula and prose.  It is
 * registered by one line SCORER(NAME) in src/scorer_list.h.  Everything
 * that lists, parses or describes scorers walks scorer_registry[]: the
 * trace, training, the model format, the formatters, help texts, errors,
 * completion and --scorer=all.  doc/architecture.md walks through adding
 * one. */
#ifndef ATTN_SCORER_H
#define ATTN_SCORER_H

#include <math.h>
#include <stddef.h>

#include "attn.h"
#include "model.h"
#include "util.h"

/* The scorer ids, SCORER_dot, SCORER_general, ..., in registry order. */
enum scorer {
#define SCORER(name) SCORER_##name,
#include "scorer_list.h"
#undef SCORER
	SCORER_COUNT
};
#define SCORER_ALL ((1u << SCORER_COUNT) - 1)

/* What a scorer reads: the model and its own weights, and the n encoder
 * states it scores the query against. */
struct score_in {
	const struct model *m;
	const double *const *w; /* the scorer's weights, m->sw[id] */
	const double *Hs;       /* (n, H) h_1 .. h_n, row-major */
	int n, H, A;
	/* (n) the previous step's attention weights α_{t-1}, for a scorer
	 * that reads them (uses_prev_alpha); at the first step α_0, one-hot
	 * on the first source word.  The caller sets it before each step. */
	const double *prev_alpha;
};

/* The scorer's working memory, owned by the caller: the trace gives it
 * fresh storage for each step (so records can point into it), training
 * one block for all.  Each is (n, SCORE_WS_WIDTH(m)) unless said. */
struct score_ws {
	double *key; /* what prepare() derives from h_i alone (per sentence) */
	double *mid; /* forward()'s first intermediate for each h_i */
	double *act; /* forward()'s second intermediate for each h_i */
	double *q;   /* (2 * SCORE_WS_WIDTH(m)) what depends on the query
	                alone; backward() may use it as scratch */
	double *aux; /* (n, SCORE_WS_AUX(m)) more for each h_i, for a scorer
	                that needs it (location-aware: its convolution) */
	double *dprev; /* (n) dL/dα_{t-1}, which backward() of a scorer that
	                  reads in->prev_alpha adds to; NULL otherwise */
};
#define SCORE_WS_WIDTH(m) ((m)->H > (m)->A ? (m)->H : (m)->A)
#define SCORE_WS_AUX(m) (16 + (m)->A)

struct trace;
struct trace_rec;

/* How a score record e_t,i shows its arithmetic: what
 * scorer_class.record() fills for source word i. */
struct score_view {
	struct trace *tr;
	struct trace_rec *r;    /* the REC_SCORE record, its result set */
	const struct score_in *in;
	const struct score_ws *ws;
	const double *s;        /* (H) the query */
	int i;                  /* from 0 */
};

struct scorer_class {
	const char *name;    /* "general": --scorer, JSON, model sections */
	const char *formula; /* "e_t,i = s_t·(W_a·h_i)", in headings */
	const char *prose;   /* what it computes, for the stepper's story:
	                        "s_t·(W_a·h_i), a dot product after W_a ..." */
	const char *summary; /* one line for listings and --help */
	const char *quiz;    /* the quiz's lead-in to the two vectors of the
	                        score's terms (a name template, trace.h) */
	int nparams;
	const struct param_spec *params; /* (nparams) the weights it owns */
	int uses_prev_alpha; /* 1: it reads in->prev_alpha (α_{t-1}), so a
	                        step's scores depend on the step before, and
	                        training goes back through the steps in order */
	/* step 0, once a sentence: what depends on h_i alone, into ws->key;
	 * NULL when nothing does */
	void (*prepare)(const struct score_in *in, struct score_ws *ws);
	/* step 1: e (n) = the scores of the query s (H) against the n
	 * states, keeping in ws what record() and backward() need */
	void (*forward)(const struct score_in *in, const double *s,
			double *e, struct score_ws *ws);
	/* the gradient: given de (n) = dL/de after forward() with the same
	 * ws, adds to the scorer's weight gradients gw (as in->w), to ds (H)
	 * and to dHs (n, H), and to ws->dprev (n, dL/dα_{t-1}) if it reads
	 * in->prev_alpha */
	void (*backward)(const struct score_in *in, const double *s,
			 const double *de, struct score_ws *ws,
			 double *const *gw, double *ds, double *dHs);
	/* the record of e_t,i: its operands with their names and the terms
	 * of its dot product (trace.h, trace_rec_op and trace_rec_terms) */
	void (*record)(const struct score_view *v);
};

/* The last layer of the scorers that are small networks (concat,
 * additive, location-aware): act (A) = tanh(pre), and the score v·act. */
double score_tanh_out(const double *v, const double *pre, double *act,
		      int A);

/* Its gradient for one score with dL/de = de: adds de·act to gv (A) and
 * writes du (A) = dL/dpre = de·v·(1 - act²). */
void score_tanh_out_back(const double *v, const double *act, double de,
			 double *gv, double *du, int A);

/* e (n) = the dot products s·x_i for H = 4, x_i = x + i·stride, each
 * summed from 0.0 in index order as attn_dot does, with s in locals. */
static ATTN_INLINE void score_dots4(double *restrict e,
				    const double *restrict s,
				    const double *restrict x, int stride,
				    int n)
{
	const double s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];

	for (int i = 0; i < n; i++) {
		const double *h = x + (size_t)i * stride;
		double acc = 0.0;

		acc += s0 * h[0];
		acc += s1 * h[1];
		acc += s2 * h[2];
		acc += s3 * h[3];
		e[i] = acc;
	}
}

/* score_tanh_out for A = 4, inline: act (4) = tanh(pre), and v·act
 * summed from 0.0 in index order. */
static ATTN_INLINE double score_tanh_out4(const double *restrict v,
					  const double *restrict pre,
					  double *restrict act)
{
	const double c0 = tanh(pre[0]), c1 = tanh(pre[1]);
	const double c2 = tanh(pre[2]), c3 = tanh(pre[3]);
	double e = 0.0;

	act[0] = c0;
	act[1] = c1;
	act[2] = c2;
	act[3] = c3;
	e += v[0] * c0;
	e += v[1] * c1;
	e += v[2] * c2;
	e += v[3] * c3;
	return e;
}

/* The last steps of concat's and additive's forward pass for A = 4 (rows
 * 4 apart): for each of the n words, pre (n, 4) = q + key row i, act (n,
 * 4) = tanh(pre) and e (n) = v·act, as score_tanh_out computes them, with
 * q and v in locals. */
static ATTN_INLINE void score_tanh_out44(const double *restrict v,
					 const double *restrict q,
					 const double *restrict key,
					 double *restrict pre,
					 double *restrict act,
					 double *restrict e, int n)
{
	const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
	const double v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];

	for (int i = 0; i < n; i++) {
		const double *k = key + 4 * i;
		double *p = pre + 4 * i, *c = act + 4 * i, ei = 0.0;
		const double p0 = q0 + k[0], p1 = q1 + k[1];
		const double p2 = q2 + k[2], p3 = q3 + k[3];
		const double c0 = tanh(p0), c1 = tanh(p1);
		const double c2 = tanh(p2), c3 = tanh(p3);

		p[0] = p0;
		p[1] = p1;
		p[2] = p2;
		p[3] = p3;
		c[0] = c0;
		c[1] = c1;
		c[2] = c2;
		c[3] = c3;
		ei += v0 * c0;
		ei += v1 * c1;
		ei += v2 * c2;
		ei += v3 * c3;
		e[i] = ei;
	}
}

/* score_tanh_out_back for A = 4, inline: adds de·act to gv (4) and
 * writes du (4), each the same operations in the same order. */
static ATTN_INLINE void score_tanh_out_back4(const double *restrict v,
					     const double *restrict act,
					     double de, double *restrict gv,
					     double *restrict du)
{
	const double c0 = act[0], c1 = act[1], c2 = act[2], c3 = act[3];

	gv[0] += de * c0;
	gv[1] += de * c1;
	gv[2] += de * c2;
	gv[3] += de * c3;
	du[0] = de * v[0] * (1.0 - c0 * c0);
	du[1] = de * v[1] * (1.0 - c1 * c1);
	du[2] = de * v[2] * (1.0 - c2 * c2);
	du[3] = de * v[3] * (1.0 - c3 * c3);
}

/* The backward pass of e_i = (s·h_i) / root for H = 4 (dot's, root 1,
 * and scaled's, root √4 = 2): adds g_i h_i to ds and g_i s to dL/dh_i
 * (dHs, rows 4 apart), g_i = de_i / root (de_i itself when root is 1:
 * x / 1 is x), with ds and s in locals across the n words. */
static ATTN_INLINE void score_dot_back4(double *restrict ds,
					double *restrict dHs,
					const double *restrict s,
					const double *restrict Hs,
					const double *restrict de,
					double root, int n)
{
	const double s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
	double a0 = ds[0], a1 = ds[1], a2 = ds[2], a3 = ds[3];

	for (int i = 0; i < n; i++) {
		const double *h = Hs + 4 * i, g = de[i] / root;
		double *dh = dHs + 4 * i;

		a0 += g * h[0];
		a1 += g * h[1];
		a2 += g * h[2];
		a3 += g * h[3];
		dh[0] += g * s0;
		dh[1] += g * s1;
		dh[2] += g * s2;
		dh[3] += g * s3;
	}
	ds[0] = a0;
	ds[1] = a1;
	ds[2] = a2;
	ds[3] = a3;
}

/* The backward pass of e_i = v·tanh(W·s + U·h_i) for H = A = 4, rows of
 * act 4 apart, W's and U's rows (and their gradients') ld apart:
 * concat's W_a = [W U] is one matrix (ld 8, U at W + 4), additive's W_a
 * and U_a are two (ld 4).  Adds to the gradients of v, W and U, to ds
 * and to dL/dh_i (dHs), the same operations in the same order as the
 * general loop, with dL/dv and ds in locals across the n words. */
static ATTN_INLINE void score_tanh_back44(double *restrict gW,
					  double *restrict gU, int ld,
					  double *restrict gv,
					  double *restrict ds,
					  double *restrict dHs,
					  const double *restrict W,
					  const double *restrict U,
					  const double *restrict v,
					  const double *restrict s,
					  const double *restrict Hs,
					  const double *restrict act,
					  const double *restrict de, int n)
{
	double g[4] = { gv[0], gv[1], gv[2], gv[3] };
	double dsl[4] = { ds[0], ds[1], ds[2], ds[3] };

	for (int i = 0; i < n; i++) {
		double du[4];

		score_tanh_out_back4(v, act + 4 * i, de[i], g, du);
		attn_linear_back44(gW, dsl, W, ld, du, s);
		attn_linear_back44(gU, dHs + 4 * i, U, ld, du, Hs + 4 * i);
	}
	for (int k = 0; k < 4; k++) {
		gv[k] = g[k];
		ds[k] = dsl[k];
	}
}

extern const struct scorer_class *const scorer_registry[SCORER_COUNT];

/* The class of scorer sc (0 <= sc < SCORER_COUNT). */
static inline const struct scorer_class *scorer_get(int sc)
{
	return scorer_registry[sc];
}

/* The scorer called name (exactly), or -1. */
int scorer_find(const char *name);

/* Parses "all", one name, or names separated by commas ("dot,general").
 * Returns the bitmask, or 0 if a name is unknown. */
unsigned scorer_parse(const char *list);

/* Writes the names of the scorers into buf (size bytes), separated by sep
 * with last before the last one ("dot, general or concat"); returns buf. */
char *scorer_names(char *buf, size_t size, const char *sep,
		   const char *last);

/* 1 if a weight of scorer sc has a row a source position (DIM_L): it can
 * score at most L source words, the model's "positions L". */
int scorer_uses_positions(int sc);

/* Fills in's fields for scorer sc of model m and the states Hs (n, H). */
void scorer_input(struct score_in *in, const struct model *m, int sc,
		  const double *Hs, int n);

#endif
