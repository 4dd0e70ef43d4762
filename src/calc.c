/* calc.c: attention on any vectors, recorded with the trace's own stages
 * (calc.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "calc.h"
#include "i18n.h"
#include "scorer.h"
#include "train.h"

int calc_weight_shape(int sc, int k, int d, int n, char *name, int *rows,
		      int *cols)
{
	struct model m;
	struct model_param tab[SCORER_MAX_PARAMS];
	memset(&m, 0, sizeof m);
	m.E = m.H = m.A = d;
	m.L = n;
	int np = model_param_scorers(&m, 1u << sc, tab);
	if (k >= 0 && k < np) {
		snprintf(name, 48, "%s", tab[k].section);
		*rows = tab[k].rows;
		*cols = tab[k].cols;
	}
	return np;
}

/* The synthetic models: m of size d whose source words are the keys'
 * names, its scorer's weights copied from in->w or drawn; mv the same
 * with H = d_v for the weighted sum of the values. */
static void calc_model(struct calc *c)
{
	const struct calc_in *in = c->in;
	struct model *m = &c->m;
	uint64_t rng = in->seed;
	m->E = m->H = m->A = in->d;
	m->L = in->n;
	m->arch = ARCH_DEFAULT;
	m->name = "calc";
	for (int i = 0; i < in->n; i++) {
		char w[16];
		snprintf(w, sizeof w, "k%d", i + 1);
		c->words[i] = xstrdup(w);
	}
	m->src.n = in->n;
	m->src.words = m->src.folded = c->words;
	/* no output word: CSV's "output" column stays empty */
	static char *none[] = { "" };
	m->tgt.n = 1;
	m->tgt.words = m->tgt.folded = none;
	c->random = in->w[0] == NULL && scorer_get(in->scorer)->nparams > 0;
	for (int k = 0; ; k++) {
		char name[48];
		int rows = 0, cols = 0;
		if (k >= calc_weight_shape(in->scorer, k, in->d, in->n, name,
					   &rows, &cols))
			break;
		size_t len = (size_t)rows * cols;
		double *w = xmalloc(len * sizeof *w);
		double r = 1.0 / sqrt((double)cols);
		for (size_t j = 0; j < len; j++)
			w[j] = c->random ? train_rand_uniform(&rng, -r, r)
					 : in->w[k][j];
		m->sw[in->scorer][k] = w;
	}
	c->mv = *m;
	c->mv.H = in->dv;
}

/* The values' names in the weighted sum: v_i where the trace says h_i. */
static void calc_name_values(struct trace *tr, int first)
{
	for (int k = first; k < tr->nrecs; k++) {
		struct trace_rec *r = &tr->recs[k];
		int at = trace_op_at(r, "h");
		if (r->kind == REC_WEIGHTED && at >= 0) {
			r->ops[at].name = "v_{i}";
			r->symbol = "α_{t},{i}·v_{i}";
			r->formula = "α_{t},{i} × v_{i}";
		} else if (r->kind == REC_CONTEXT) {
			r->title = "the output";
			r->formula = "Σ_i α_{t},i·v_i";
		}
	}
}

/* A trace of one run of one step, as trace_build() would set it. */
static void calc_trace_init(struct calc *c)
{
	static const struct trace_cfg defaults = TRACE_CFG_DEFAULT;
	struct trace *tr = &c->tr;
	struct trace_run *ru = &tr->runs[0];
	memset(tr, 0, sizeof *tr);
	tr->cfg = defaults;
	tr->m = &c->m;
	tr->n = c->in->n;
	tr->src = xcalloc((size_t)tr->n, sizeof *tr->src);
	for (int i = 0; i < tr->n; i++)
		tr->src[i] = i;
	tr->max_steps = 1;
	tr->arch = ARCH_DEFAULT;
	tr->prog = TRACE_TRANSLATE;
	tr->nruns = 1;
	ru->scorer = c->in->scorer;
	ru->nsteps = 1;
	ru->input = xcalloc(1, sizeof *ru->input);
	ru->pred = xcalloc(1, sizeof *ru->pred);
	ru->step_first = xcalloc(1, sizeof *ru->step_first);
}

int calc_build(struct calc *c, const struct calc_in *in, struct errbuf *err)
{
	struct trace *tr = &c->tr;
	struct score_in si;
	struct score_ws ws = { NULL, NULL, NULL, NULL, NULL, NULL };
	const struct scorer_class *cls = scorer_get(in->scorer);
	int n = in->n, d = in->d, dv = in->dv;

	memset(c, 0, sizeof *c);
	c->in = in;
	if (n < 1 || n > CALC_MAX_KEYS || d < 1 || d > CALC_MAX_DIM ||
	    dv < 1 || dv > CALC_MAX_DIM) {
		err_set(err, _("calc takes 1 to %d keys of 1 to %d numbers"),
			CALC_MAX_KEYS, CALC_MAX_DIM);
		return -1;
	}
	calc_model(c);
	calc_trace_init(c);
	/* step 0: the keys and values as the trace's (n, d) and (n, d_v) */
	double *Hs = trace_alloc(tr, (size_t)n * d);
	double *Vs = trace_alloc(tr, (size_t)n * dv);
	double *q = trace_alloc(tr, (size_t)d);
	double *alpha0 = trace_alloc(tr, (size_t)n);
	for (int i = 0; i < n; i++) {
		memcpy(Hs + (size_t)i * d, in->K[i], sizeof(double) * d);
		memcpy(Vs + (size_t)i * dv, in->V[i], sizeof(double) * dv);
	}
	memcpy(q, in->q, sizeof(double) * d);
	scorer_input(&si, &c->m, in->scorer, Hs, n);
	alpha0[0] = 1.0; /* α_0: one-hot on the first key, as in a trace */
	si.prev_alpha = alpha0;
	if (cls->prepare) {
		ws.key = trace_alloc(tr, (size_t)n * SCORE_WS_WIDTH(&c->m));
		cls->prepare(&si, &ws);
	}
	/* step 1: the scores; step 2: the softmax */
	const double *e = trace_scores(tr, 0, 1, q, &si, &ws);
	const double *a = trace_softmax(tr, 0, 1, e);
	tr->runs[0].weights = a;
	/* step 3: the weighted sum of the values, d_v numbers each */
	int first = tr->nrecs;
	tr->m = &c->mv;
	trace_context(tr, 0, 1, a, Vs);
	tr->m = &c->m;
	calc_name_values(tr, first);
	tr->runs[0].nrecs = tr->nrecs;
	return 0;
}

void calc_free(struct calc *c)
{
	trace_free(&c->tr);
	for (int k = 0; k < SCORER_MAX_PARAMS; k++)
		free(c->m.sw[c->in ? c->in->scorer : 0][k]);
	for (int i = 0; i < CALC_MAX_KEYS; i++)
		free(c->words[i]);
	memset(c, 0, sizeof *c);
}
