/* lesson_check.c: the numbers of a lesson's narrative, checked against
 * the trace, so that a retrained model or an edited lesson cannot make the
 * prose say a number the screen below it does not show (doc/lessons.md,
 * "Numbers in the narrative"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "num.h"

/* One number a page can show, and where it comes from, to name it. */
struct cvalue {
	double v;
	const struct trace *tr;      /* the trace, or the model's owner */
	const struct trace_rec *r;   /* its record; NULL for a weight */
	int op;                      /* the operand, -1 the result, -2 a
	                                term, -3 the divisor */
	int idx;                     /* the entry, from 0 */
	const char *section;         /* a weight: its model file section */
	int cols;                    /* a weight: its columns */
	int ord;                     /* the order it was added in, so that
	                                equal values sort the same way
	                                everywhere */
};

struct cset {
	int n, cap;
	struct cvalue *v;
};

static void cs_add(struct cset *c, struct cvalue v)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->v = xreallocarray(c->v, (size_t)c->cap, sizeof *c->v);
	}
	v.ord = c->n;
	c->v[c->n++] = v;
}

static void cs_vec(struct cset *c, const struct trace *tr,
		   const struct trace_rec *r, int op, const double *v, int n)
{
	for (int k = 0; v && k < n; k++)
		cs_add(c, (struct cvalue){ v[k], tr, r, op, k, NULL, 0, 0 });
}

/* Every number of tr's records. */
static void cs_trace(struct cset *c, const struct trace *tr)
{
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		cs_vec(c, tr, r, -1, r->result, r->len);
		for (int o = 0; o < r->nops; o++)
			cs_vec(c, tr, r, o, r->ops[o].v, r->ops[o].len);
		cs_vec(c, tr, r, -2, r->terms, 2 * r->nterms);
		cs_vec(c, tr, r, -3, r->divisor, r->divisor ? 1 : 0);
	}
}

/* Every weight of tr's model; the table names them. */
static void cs_model(struct cset *c, const struct trace *tr,
		     struct model_param *tab)
{
	/* the table only says where the model keeps its weights */
	struct model *m = (struct model *)tr->m;
	int n = model_param_table(m, model_scorers(m), tab);
	for (int p = 0; p < n; p++) {
		const double *w = *tab[p].slot;
		int len = tab[p].kind == PARAM_SRC_VOCAB ? m->src.n * m->E
			: tab[p].kind == PARAM_TGT_VOCAB ? m->tgt.n * m->E
			: tab[p].rows * tab[p].cols;
		int cols = tab[p].kind == PARAM_SRC_VOCAB ||
			   tab[p].kind == PARAM_TGT_VOCAB ? m->E : tab[p].cols;
		for (int k = 0; w && k < len; k++)
			cs_add(c, (struct cvalue){ w[k], tr, NULL, 0, k,
						   tab[p].section, cols, 0 });
	}
}

static int cv_cmp(const void *a, const void *b)
{
	const struct cvalue *x = a, *y = b;
	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->ord > y->ord) - (x->ord < y->ord);
}

/* The values of page p: those of tr and of the models of its model=
 * directives, with their weights; sorted. */
static void cs_page(struct cset *c, const struct lesson *l, int p,
		    const struct trace *tr, struct model_param *tab)
{
	const struct trace *seen[LESSON_MAX_BLOCKS + 1];
	int nseen = 0;
	c->n = 0;
	seen[nseen++] = tr;
	cs_trace(c, tr);
	cs_model(c, tr, tab);
	const struct lesson_page *pg = &l->pages[p];
	for (int b = 0; b < pg->nblocks; b++) {
		if (pg->blocks[b].text)
			continue;
		const struct trace *t = lesson_show_trace(l, &pg->blocks[b].show,
							  tr);
		int k = 0;
		while (k < nseen && seen[k] != t)
			k++;
		if (k < nseen)
			continue;
		seen[nseen++] = t;
		cs_trace(c, t);
		cs_model(c, t, tab);
	}
	qsort(c->v, (size_t)c->n, sizeof *c->v, cv_cmp);
}

/* The first value of c not below x. */
static int cs_lower(const struct cset *c, double x)
{
	int lo = 0, hi = c->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (c->v[mid].v < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Names value v for a message: "α_1[3] (general scorer)", "sum[2] of
 * h_2", "a term of e_1,2 (dot scorer)", "decoder.W_h[2][1]", each with
 * "of the model NAME" when it is not the lesson's model. */
static void cv_name(char *buf, size_t size, const struct cvalue *v,
		    const struct trace *own)
{
	char where[256] = "";
	if (v->tr != own)
		snprintf(where, sizeof where, " of the model %s", v->tr->m->name);
	if (!v->r) {
		snprintf(buf, size, "the weight %s[%d][%d]%s", v->section,
			 v->idx / v->cols + 1, v->idx % v->cols + 1, where);
		return;
	}
	struct trace_names nm;
	char scorer[64] = "";
	trace_names(v->tr, v->r, &nm);
	if (v->r->run >= 0)
		snprintf(scorer, sizeof scorer, " (%s scorer)",
			 trace_scorer_name(v->tr->runs[v->r->run].scorer));
	if (v->op == -1)
		snprintf(buf, size, "%s[%d]%s%s", nm.symbol, v->idx + 1, scorer,
			 where);
	else if (v->op >= 0)
		snprintf(buf, size, "%s[%d] of %s%s%s", nm.op[v->op][0]
			 ? nm.op[v->op] : "an operand", v->idx + 1, nm.symbol,
			 scorer, where);
	else
		snprintf(buf, size, "a %s of %s%s%s", v->op == -2 ? "term"
			 : "divisor", nm.symbol, scorer, where);
}

int lesson_check_numbers(const struct lesson *l, const struct trace *tr,
			 void (*report)(void *ctx, const char *msg),
			 void *ctx)
{
	struct cset c = { 0 };
	struct model_param tab[MODEL_MAX_PARAMS];
	int bad = 0;
	for (int p = 0; p < l->npages; p++) {
		const struct lesson_page *pg = &l->pages[p];
		if (pg->nnums == 0)
			continue;
		cs_page(&c, l, p, tr, tab);
		for (int k = 0; k < pg->nnums; k++) {
			const struct lesson_num *u = &pg->nums[k];
			int d = u->decimals < NUM_MAX_PREC ? u->decimals
							   : NUM_MAX_PREC;
			double half = 0.5;
			for (int j = 0; j < d; j++)
				half /= 10;
			half *= 1 + 1e-9; /* a value just at the half rounds either way */
			int at = cs_lower(&c, u->value - half);
			if (at < c.n && c.v[at].v <= u->value + half)
				continue;
			/* none: name the nearest, below or above */
			const struct cvalue *near = NULL;
			if (at < c.n)
				near = &c.v[at];
			if (at > 0 && (!near || u->value - c.v[at - 1].v <
					       near->v - u->value)) {
				int b = at - 1; /* the first of its equals */
				while (b > 0 && c.v[b - 1].v == c.v[b].v)
					b--;
				near = &c.v[b];
			}
			char msg[1024], name[512], num[NUM_BUFSZ];
			if (near) {
				cv_name(name, sizeof name, near, tr);
				snprintf(msg, sizeof msg, "%s:%d:%d: expected a "
					 "number the page shows, at %d decimals "
					 "(the nearest is %s, %s; write \\%s "
					 "for a number that is not the trace's), "
					 "found '%s'", l->path, u->line, u->col,
					 u->decimals, num_fixed(num, near->v, d),
					 name, u->text, u->text);
			} else {
				snprintf(msg, sizeof msg, "%s:%d:%d: expected a "
					 "number the page shows, found '%s'",
					 l->path, u->line, u->col, u->text);
			}
			report(ctx, msg);
			bad++;
		}
	}
	free(c.v);
	return bad;
}
