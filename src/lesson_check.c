/* lesson_check.c: what lesson --check adds to every lesson command's
 * checks: no number typed in the prose (each proposed as the reference
 * that names it), and no directive that shows nothing, so that a
 * retrained model or an edited lesson cannot make the prose say a number
 * the screen below it does not show (doc/lessons.md,
 * "References", "Numbers typed by hand" and "Claims"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "glimpse.h"
#include "i18n.h"
#include "lesson.h"
#include "num.h"
#include "util.h"

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
	char gsym[40];               /* a value of the glimpse trace: its
	                                symbol ("l̂_1"), else "" */
	int glen;                    /* and its vector's length */
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

struct cs_ctx {
	struct cset *c;
	const struct trace *tr;
};

static void cs_vec(struct cset *c, const struct trace *tr,
		   const struct trace_rec *r, int op, const double *v, int n)
{
	for (int k = 0; v && k < n; k++)
		cs_add(c, (struct cvalue){ v[k], tr, r, op, k, NULL, 0, 0,
					   "", 0 });
}

/* A vector of the glimpse trace (lesson_image_walk). */
static void cs_glimpse(void *ctx, const char *sym, const double *v, int len)
{
	struct cs_ctx *x = ctx;
	for (int k = 0; k < len; k++) {
		struct cvalue cv = { v[k], x->tr, NULL, 0, k, NULL, 0, 0, "",
				     len };
		snprintf(cv.gsym, sizeof cv.gsym, "%s", sym);
		cs_add(x->c, cv);
	}
}

static int cs_visit(void *ctx, const struct trace_rec *r, int op,
		    const double *v, int len, const struct trace_names *nm)
{
	struct cs_ctx *x = ctx;
	(void)nm;
	cs_vec(x->c, x->tr, r, op, v, len);
	return 0;
}

/* Every number of tr's records, walked as references resolve them. */
static void cs_trace(struct cset *c, const struct trace *tr)
{
	struct cs_ctx x = { c, tr };
	lesson_walk(tr, -2, 0, cs_visit, &x);
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
						   tab[p].section, cols, 0, "",
						   0 });
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
	struct cs_ctx x = { c, tr };
	lesson_image_walk(l, cs_glimpse, &x);
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

/* Names value v as a reference that finds it: "{α_1,3 scorer=general}",
 * "{sum[2] of h_2}", "{encoder.W_x[1][1]}", with "model=NAME" when it is
 * not the lesson's model. */
static void cv_name(char *buf, size_t size, const struct cvalue *v,
		    const struct lesson *l, const struct trace *own, int d)
{
	char where[300] = "", scorer[64] = "", idx[40] = "", dec[8] = "";
	if (d < 4)
		snprintf(dec, sizeof dec, ":%d", d % 10);
	for (int k = 0; v->tr != own && k < l->nalts; k++) {
		struct lesson_show sh;
		memset(&sh, 0, sizeof sh);
		sh.alt = k + 1;
		if (lesson_show_trace(l, &sh, own) == v->tr) {
			snprintf(where, sizeof where, " model=%s",
				 l->alts[k].name);
			break;
		}
	}
	if (v->gsym[0]) { /* p and z by class, as {p[bar]} */
		struct lesson_ref r;
		memset(&r, 0, sizeof r);
		snprintf(r.sym, sizeof r.sym, "%s", v->gsym);
		if (v->glen > 1 && lesson_image_word(l, &r, l->gm->cls[0]) > 0)
			snprintf(idx, sizeof idx, "[%s]", l->gm->cls[v->idx]);
		else if (v->glen > 1)
			snprintf(idx, sizeof idx, "[%d]", v->idx + 1);
		snprintf(buf, size, "{%s%s%s}", v->gsym, idx, dec);
		return;
	}
	if (!v->r) {
		snprintf(buf, size, "{%s[%d][%d]%s%s}", v->section,
			 v->idx / v->cols + 1, v->idx % v->cols + 1,
			 dec, where);
		return;
	}
	struct trace_names nm;
	trace_names(v->tr, v->r, &nm);
	if (v->r->run >= 0 && v->tr->runs[v->r->run].scorer != l->scorer)
		snprintf(scorer, sizeof scorer, " scorer=%s",
			 trace_scorer_name(v->tr->runs[v->r->run].scorer));
	int len = v->op == -1 ? v->r->len : v->r->ops[v->op].len;
	if (len > 1)
		snprintf(idx, sizeof idx, v->op == -1 && v->r->result_axis ==
			 AXIS_SOURCE ? ",%d" : "[%d]", v->idx + 1);
	if (v->op == -1)
		snprintf(buf, size, "{%s%s%s%s%s}", nm.symbol, idx, dec, scorer,
			 where);
	else
		snprintf(buf, size, "{%s%s of %s%s%s%s}", nm.op[v->op], idx,
			 nm.symbol, dec, scorer, where);
}

/* How well value v fits as the reference a typed number meant: lower is
 * better.  The lesson's own model and run first, then results before
 * operands before weights. */
static int cv_rank(const struct cvalue *v, const struct lesson *l,
		   const struct trace *own)
{
	if (v->gsym[0]) /* a lesson with glimpses is about them */
		return -1;
	int rank = v->tr != own ? 100 : 0;
	if (v->r && v->r->run >= 0 &&
	    v->tr->runs[v->r->run].scorer != l->scorer)
		rank += 10;
	rank += !v->r ? 2 : v->op == -1 ? 0 : 1;
	return rank;
}

/* The value of c the number u meant: the best ranked of those that round
 * to it, else the nearest; NULL when c is empty. */
static const struct cvalue *cs_pick(const struct cset *c,
				    const struct lesson_num *u,
				    const struct lesson *l,
				    const struct trace *own)
{
	int d = u->decimals < NUM_MAX_PREC ? u->decimals : NUM_MAX_PREC;
	double half = 0.5;
	for (int j = 0; j < d; j++)
		half /= 10;
	half *= 1 + 1e-9; /* a value just at the half rounds either way */
	int at = cs_lower(c, u->value - half);
	const struct cvalue *best = NULL;
	for (int k = at; k < c->n && c->v[k].v <= u->value + half; k++)
		if (!best || cv_rank(&c->v[k], l, own) < cv_rank(best, l, own))
			best = &c->v[k];
	if (best)
		return best;
	if (at < c->n)
		best = &c->v[at];
	if (at > 0 && (!best || u->value - c->v[at - 1].v <
			       best->v - u->value)) {
		int b = at - 1; /* the first of its equals */
		while (b > 0 && c->v[b - 1].v == c->v[b].v)
			b--;
		best = &c->v[b];
	}
	return best;
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
			const struct cvalue *v = cs_pick(&c, u, l, tr);
			char name[512] = "", num[NUM_BUFSZ];
			struct errbuf e;
			int d = u->decimals < NUM_MAX_PREC ? u->decimals
							   : NUM_MAX_PREC;
			if (v) {
				cv_name(name, sizeof name, v, l, tr, d);
			}
			char hint[600] = "";
			if (v)
				snprintf(hint, sizeof hint, _(", such as %s (%s)"),
					 name, num_fixed(num, v->v, 4));
			err_at(&e, l->path, u->line, u->col, "expected a "
			       "reference to a value of the trace%s, or \\%s "
			       "for a number that is not the trace's, found "
			       "'%s'", hint, u->text, u->text);
			report(ctx, e.msg);
			bad++;
		}
	}
	free(c.v);
	return bad;
}

int lesson_check_shows(const struct lesson *l, const struct trace *tr,
		       const struct fmt_opts *o,
		       void (*report)(void *ctx, const char *msg), void *ctx)
{
	int bad = 0;
	for (int p = 0; p < l->npages; p++) {
		const struct lesson_page *pg = &l->pages[p];
		for (int b = 0; b < pg->nblocks; b++) {
			const struct lesson_block *bl = &pg->blocks[b];
			char *text = NULL;
			size_t len = 0;
			if (bl->text)
				continue;
			FILE *f = open_memstream(&text, &len);
			if (!f)
				continue;
			lesson_show_text(f, l, &bl->show, tr, o, -1, 80);
			fclose(f);
			/* a header line alone, "(general scorer)", shows nothing */
			const char *nl = text ? strchr(text, '\n') : NULL;
			int lines = 0;
			for (size_t k = 0; k < len; k++)
				lines += text[k] == '\n';
			if (len == 0 || (lines == 1 && nl && text[0] == '(' &&
					 nl[-1] == ')')) {
				struct errbuf e;
				err_at(&e, l->path, bl->show.line, 1,
				       "expected a directive that shows "
				       "something, found one that shows nothing "
				       "on this trace (the %s architecture has "
				       "no such records); `attn-trace trace` "
				       "lists the stages it has",
				       arch_get(tr->arch)->name);
				report(ctx, e.msg);
				bad++;
			}
			free(text);
		}
	}
	return bad;
}

/* 1 if text holds sym as a name of its own: not followed by a digit
 * ("α_1" is not in "α_10") nor preceded by a letter, digit or '_'. */
static int lc_names(const char *text, const char *sym)
{
	size_t n = strlen(sym);
	for (const char *s = text; n && (s = strstr(s, sym)); s++) {
		char before = s == text ? ' ' : s[-1], after = s[n];
		if (!(after >= '0' && after <= '9') && !(before == '_' ||
		    (before >= '0' && before <= '9') ||
		    (before >= 'a' && before <= 'z') ||
		    (before >= 'A' && before <= 'Z')))
			return 1;
	}
	return 0;
}

/* The symbols prediction pr asks about (the vectors or values of its
 * terms), into syms[0..2); returns how many. */
static int lc_predict_syms(const struct lesson_predict *pr,
			   const char *syms[2])
{
	const struct lesson_term *t[2] = { &pr->c.a, &pr->c.b };
	int n = 0;
	for (int k = 0; k < (pr->kind == PREDICT_YESNO ? 2 : 1); k++)
		if (t[k]->fn != LFN_NUMBER && t[k]->fn != LFN_WORD &&
		    !strchr(t[k]->ref.sym, '.'))
			syms[n++] = t[k]->ref.sym;
	return n;
}

/* What shows the answer of page pg's prediction before it is asked: a
 * reference to its symbol in the prose before it, or a directive before
 * it whose text names the symbol.  Reports each; returns how many. */
static int lc_predict_early(const struct lesson *l,
			    const struct lesson_page *pg,
			    const struct trace *tr, const struct fmt_opts *o,
			    void (*report)(void *ctx, const char *msg),
			    void *ctx)
{
	const struct lesson_predict *pr = pg->predict;
	const char *syms[2];
	int nsyms = lc_predict_syms(pr, syms), bad = 0, ref = 0;
	struct errbuf e;
	for (int b = 0; b < pr->block; b++) {
		const struct lesson_block *bl = &pg->blocks[b];
		char *text = NULL;
		size_t len = 0;
		int line = bl->show.line, shown = -1;
		if (bl->text) {
			for (const char *s = bl->text; *s; s++)
				if (*s == LESSON_REF_MARK && ref < pg->nrefs) {
					const struct lesson_ref *r =
						&pg->refs[ref++];
					for (int k = 0; k < nsyms; k++)
						if (lc_names(r->sym, syms[k]))
							shown = k, line = r->line;
				}
		} else {
			FILE *f = open_memstream(&text, &len);
			if (!f)
				continue;
			lesson_show_text(f, l, &bl->show, tr, o, -1, 80);
			fclose(f);
			for (int k = 0; text && k < nsyms; k++)
				if (lc_names(text, syms[k]))
					shown = k;
			free(text);
		}
		if (shown < 0)
			continue;
		err_at(&e, l->path, line, 1, "expected the numbers that answer "
		       "'predict %s' (line %d) after it, found %s before it "
		       "that shows %s", pr->c.text, pr->line,
		       bl->text ? _("a reference") : _("a directive"),
		       syms[shown]);
		report(ctx, e.msg);
		bad++;
	}
	return bad;
}

int lesson_check_predicts(const struct lesson *l, const struct trace *tr,
			  const struct fmt_opts *o,
			  void (*report)(void *ctx, const char *msg),
			  void *ctx)
{
	int bad = 0;
	for (int p = 0; p < l->npages; p++) {
		const struct lesson_page *pg = &l->pages[p];
		if (!pg->predict)
			continue;
		bad += lc_predict_early(l, pg, tr, o, report, ctx);
		/* every run the stepper's s shows, or the pinned one */
		for (int run = 0; run < tr->nruns; run++) {
			struct lesson own = *l;
			struct predict_q q;
			char why[512];
			struct errbuf e;
			own.scorer = pg->pin ? l->own_scorer
					     : (int)tr->runs[run].scorer;
			if (pg->pin && run > 0)
				break;
			if (lesson_predict_make(&q, &own, pg->predict, tr,
						o->precision, why,
						sizeof why) == 0)
				continue;
			err_at(&e, l->path, pg->predict->line,
			       pg->predict->col, "%s (in the %s scorer's run%s)",
			       why, trace_scorer_name(own.scorer), pg->pin ? ""
			       : _(", which the stepper's s shows"));
			report(ctx, e.msg);
			bad++;
			break;
		}
	}
	return bad;
}
