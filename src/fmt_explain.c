/* fmt_explain.c: trace --explain NAME (doc/trace-format.md, "Why this
 * number: --explain"): where one value of a trace comes from, as text.
 * The value's record first, as the text trace writes it (its formula
 * with its operands filled in), then, indented under it, the record of
 * each operand it reads, and theirs under them, back to the embeddings
 * and the weights.  A record already written is named again, not
 * repeated, and one whose line its parent wrote (e_t) is left out.  It
 * walks the records only: an operand's maker is the record whose result
 * holds it, found by address. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "whatif.h"
#include "window.h"

#define EX_MAX_KIDS FMT_EXPLAIN_MAX_KIDS /* a record's makers, at most */

struct ex {
	const struct trace *tr;
	const struct fmt_opts *o;
	struct fmt_buf *b;
	unsigned char *seen; /* (tr->nrecs) 1: written already */
};

/* 1 if [a, a + na) and [c, c + nc) share a double; 2 if the first lies
 * within the second. */
static int ex_overlap(const double *a, int na, const double *c, int nc)
{
	uintptr_t a0 = (uintptr_t)a, a1 = (uintptr_t)(a + na);
	uintptr_t c0 = (uintptr_t)c, c1 = (uintptr_t)(c + nc);
	if (!(a0 < c1 && c0 < a1))
		return 0;
	return a0 >= c0 && a1 <= c1 ? 2 : 1;
}

/* Adds to kids (*n of them) the records before record k whose result
 * overlaps v (len), the latest first, leaving out one whose result lies
 * within one added (e_t holds each e_t,i: e_t is the maker). */
static void ex_makers(const struct trace *tr, int k, const double *v,
		      int len, int *kids, int *n)
{
	int first = *n;
	for (int q = k - 1; q >= 0 && *n < EX_MAX_KIDS; q--) {
		const struct trace_rec *r = &tr->recs[q];
		if (!r->result || !ex_overlap(r->result, r->len, v, len))
			continue;
		int inside = 0;
		for (int j = first; j < *n && !inside; j++)
			inside = ex_overlap(r->result, r->len,
					    tr->recs[kids[j]].result,
					    tr->recs[kids[j]].len) == 2;
		if (!inside)
			kids[(*n)++] = q;
	}
}

/* The latest record before k of run and step t whose kind is one of
 * kinds (a mask of 1 << enum trace_kind), or -1. */
static int ex_before(const struct trace *tr, int k, int run, int t,
		     unsigned kinds)
{
	for (int q = k - 1; q >= 0; q--)
		if (tr->recs[q].run == run && tr->recs[q].t == t &&
		    (kinds >> tr->recs[q].kind & 1))
			return q;
	return -1;
}

/* The operand of r with id id, or NULL. */
static const struct trace_operand *ex_op(const struct trace_rec *r,
					 const char *id)
{
	for (int j = 0; j < r->nops; j++)
		if (r->ops[j].id && strcmp(r->ops[j].id, id) == 0)
			return &r->ops[j];
	return NULL;
}

/* The records that record k is made from: the makers of its inputs; the
 * records whose results are parts of its own (e_t of each e_t,i); for an
 * RNN step, the embedding it reads and, with input feeding, the
 * attentional state h̃_{t-1} of the step before (which it reads as a
 * copy, so no address finds it); for h̃_t and ŷ_t, which record only
 * the product W·x, the concatenation (or h̃_t) that x is. */
static int ex_kids(const struct trace *tr, int k, int *kids)
{
	const struct trace_rec *r = &tr->recs[k];
	int n = 0;
	for (int j = 0; j < r->nops; j++)
		if (r->ops[j].role == OP_INPUT)
			ex_makers(tr, k, r->ops[j].v, r->ops[j].len, kids, &n);
	for (int q = k - 1; q >= 0 && n < EX_MAX_KIDS; q--) {
		const struct trace_rec *p = &tr->recs[q];
		if (p->result && p->len < r->len &&
		    ex_overlap(p->result, p->len, r->result, r->len) == 2)
			kids[n++] = q;
	}
	if (r->kind == REC_RNN || r->kind == REC_FORWARD ||
	    r->kind == REC_BACKWARD)
		for (int q = k - 1; q >= 0 && n < EX_MAX_KIDS; q--)
			if (tr->recs[q].kind == REC_EMBED &&
			    tr->recs[q].run == r->run &&
			    tr->recs[q].t == r->t && tr->recs[q].i == r->i) {
				kids[n++] = q;
				break;
			}
	int q = -1;
	if (r->kind == REC_ATTENTIONAL || r->kind == REC_OUTPUT)
		q = ex_before(tr, k, r->run, r->t, 1u << REC_CONCAT |
			      1u << REC_ATTENTIONAL);
	else if (r->kind == REC_RNN && r->t > 1 && ex_op(r, "feed"))
		q = ex_before(tr, k, r->run, r->t - 1, 1u << REC_ATTENTIONAL);
	if (q >= 0 && n < EX_MAX_KIDS)
		kids[n++] = q;
	return n;
}

/* The text of r as the text trace writes it, into t. */
static void ex_raw(const struct ex *x, const struct trace_rec *r,
		   struct fmt_buf *t)
{
	fmt_text_rec_buf(t, x->tr, r, x->o);
}

/* Where a vector line's padding before its "(n)" starts (four spaces or
 * more, "(", digits, ")"), or NULL. */
static const char *ex_pad(const char *line, const char *end)
{
	for (const char *p = line; p + 4 < end; p++) {
		if (p[0] != ' ' || (p > line && p[-1] == ' '))
			continue;
		const char *q = p;
		while (q < end && *q == ' ')
			q++;
		if (q - p < 4 || q >= end || *q != '(')
			continue;
		const char *d = q + 1;
		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d > q + 1 && d < end && *d == ')')
			return p;
	}
	return NULL;
}

/* Writes t (the text of a record), each line indented by depth steps.
 * The text trace pads a vector's label to the same column whether the
 * line is indented under a heading (two spaces) or not, so a record
 * indented under another would put its vectors two columns right of its
 * parent's lines of the same indentation ("x_1 = emb(je)" under h_1's
 * "W_x·x_1"); below the top, a line that starts unindented gives two of
 * its padding's spaces back, so that lines that start in the same column
 * have their vectors in the same column. */
static void ex_put(struct ex *x, const struct fmt_buf *t, int depth)
{
	for (size_t i = 0; i < t->len;) {
		const char *line = t->p + i;
		const char *nl = memchr(line, '\n', t->len - i);
		size_t end = nl ? (size_t)(nl - t->p) + 1 : t->len;
		const char *pad = depth > 0 && *line != ' '
				  ? ex_pad(line, t->p + end) : NULL;
		fmt_buf_spaces(x->b, 2 * depth);
		if (pad) {
			fmt_buf_put(x->b, line, (size_t)(pad - line));
			fmt_buf_put(x->b, pad + 2, t->p + end - (pad + 2));
		} else {
			fmt_buf_put(x->b, line, end - i);
		}
		i = end;
	}
}

/* Writes the text of r, each line indented by depth steps. */
static void ex_text(struct ex *x, const struct trace_rec *r, int depth)
{
	struct fmt_buf t = FMT_BUF_INIT;
	ex_raw(x, r, &t);
	ex_put(x, &t, depth);
	fmt_buf_free(&t);
}

/* 1 if t, one line, is a line of parent, blanks aside: the softmax
 * writes e_t as the first line of its own text, so e_t's record, its
 * child, would say it again right under it. */
static int ex_shown(const struct fmt_buf *t, const struct fmt_buf *parent)
{
	const char *nl = memchr(t->p, '\n', t->len);
	if (!t->len || (nl && (size_t)(nl - t->p) + 1 != t->len))
		return 0;
	size_t n = nl ? (size_t)(nl - t->p) : t->len;
	for (size_t i = 0; i < parent->len;) {
		const char *l = parent->p + i;
		const char *e = memchr(l, '\n', parent->len - i);
		size_t m = e ? (size_t)(e - l) : parent->len - i;
		/* the two lines, each run of blanks as one */
		size_t a = 0, b = 0;
		while (a < n && t->p[a] == ' ')
			a++;
		while (b < m && l[b] == ' ')
			b++;
		while (a < n && b < m && t->p[a] == l[b]) {
			int sp = t->p[a] == ' ';
			a++;
			b++;
			while (sp && a < n && t->p[a] == ' ')
				a++;
			while (sp && b < m && l[b] == ' ')
				b++;
		}
		if (a == n && b == m)
			return 1;
		i += m + 1;
	}
	return 0;
}

/* What r reads that no record made: the model's weights among its
 * operands, and for an embedding, the model's row of its word. */
static void ex_leaves(struct ex *x, const struct trace_rec *r, int depth)
{
	struct trace_names nm;
	trace_names(x->tr, r, &nm);
	for (int j = 0; j < r->nops; j++)
		if (r->ops[j].role == OP_WEIGHT) {
			fmt_buf_spaces(x->b, 2 * depth);
			fmt_buf_printf(x->b, _("%s: a weight of the model\n"),
				       nm.op[j][0] ? nm.op[j] : r->ops[j].id);
		}
	if (r->kind == REC_ATTENTIONAL || r->kind == REC_OUTPUT) {
		/* the matrix of "W_c·[c_t; s_t]": its name before the dot */
		const char *dot = strstr(nm.op[0], "·");
		fmt_buf_spaces(x->b, 2 * depth);
		fmt_buf_printf(x->b, _("%.*s: a weight of the model\n"),
			       dot ? (int)(dot - nm.op[0]) : 0, nm.op[0]);
	}
	if (r->kind == REC_EMBED) {
		fmt_buf_spaces(x->b, 2 * depth);
		fmt_buf_printf(x->b, _("%s: the model's embedding of %s\n"),
			       nm.symbol, r->run < 0
			       ? x->tr->m->src.words[r->word]
			       : x->tr->m->tgt.words[r->word]);
	}
}

/* The step's value (an enum whatif_what) that r holds, or WHATIF_MODEL. */
static enum whatif_what ex_what(const struct trace *tr,
				const struct trace_rec *r)
{
	if (r->run < 0)
		return WHATIF_MODEL;
	if (r->kind == REC_SCORE)
		return WHATIF_SCORES;
	if (r->kind == REC_RNN)
		return WHATIF_STATE;
	if (r->kind == REC_CONTEXT)
		return WHATIF_CONTEXT;
	return r->result == trace_weights(tr, r->run, r->t) ? WHATIF_WEIGHTS
							    : WHATIF_MODEL;
}

void fmt_set_notes(struct fmt_buf *b, const struct trace *tr,
		   const struct trace_rec *r, int precision, int indent)
{
	enum whatif_what w = ex_what(tr, r);
	char num[NUM_BUFSZ];
	for (int k = 0; w != WHATIF_MODEL && k < tr->cfg.nset; k++) {
		const struct whatif_edit *e = &tr->cfg.set[k];
		double old = tr->set_old[r->run * tr->cfg.nset + k];
		if (e->what != w || e->step != r->t || isnan(old) ||
		    (w == WHATIF_SCORES && e->index + 1 != r->i))
			continue;
		fmt_buf_spaces(b, indent);
		fmt_buf_printf(b, _("set by --set: %s = "), e->name);
		fmt_buf_put(b, num, num_fixed_len(num, e->value, precision));
		fmt_buf_puts(b, _(", computed "));
		fmt_buf_put(b, num, num_fixed_len(num, old, precision));
		if (w == WHATIF_WEIGHTS) /* the others are not made to add
					    up to 1 around it */
			fmt_buf_puts(b, _("; the weights are not renormalised"));
		fmt_buf_putc(b, '\n');
	}
}

/* Under r, each --set of a step's value made in it (fmt_set_notes). */
static void ex_set(struct ex *x, const struct trace_rec *r, int depth)
{
	fmt_set_notes(x->b, x->tr, r, x->o->precision, 2 * depth);
}

static int ex_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int fmt_explain_makers(const struct trace *tr, int k, int *kids)
{
	int n = ex_kids(tr, k, kids);
	qsort(kids, (size_t)n, sizeof *kids, ex_cmp);
	return n;
}

void fmt_explain_rec_buf(struct fmt_buf *b, const struct trace *tr, int k,
			 const struct fmt_opts *o)
{
	struct ex x = { tr, o, b, NULL };
	ex_text(&x, &tr->recs[k], 0);
	ex_set(&x, &tr->recs[k], 1);
	ex_leaves(&x, &tr->recs[k], 1);
}

/* Record k and, under it, what it is made from (each record once), in
 * the order they were computed.  A record whose one line its parent has
 * written already (e_t under the softmax) is not written again: what it
 * is made from comes at its place. */
static void ex_rec(struct ex *x, int k, int depth, const struct fmt_buf *up)
{
	const struct trace_rec *r = &x->tr->recs[k];
	if (x->seen[k]) {
		struct trace_names nm;
		trace_names(x->tr, r, &nm);
		fmt_buf_spaces(x->b, 2 * depth);
		fmt_buf_printf(x->b, _("%s: as above\n"), nm.symbol);
		return;
	}
	x->seen[k] = 1;
	struct fmt_buf t = FMT_BUF_INIT;
	ex_raw(x, r, &t);
	int shown = up && ex_shown(&t, up);
	if (shown)
		depth--;
	else
		ex_put(x, &t, depth);
	ex_set(x, r, depth + 1);
	ex_leaves(x, r, depth + 1);
	int kids[EX_MAX_KIDS];
	int n = fmt_explain_makers(x->tr, k, kids);
	for (int j = 0; j < n; j++)
		ex_rec(x, kids[j], depth + 1, shown ? up : &t);
	fmt_buf_free(&t);
}

/* The record of run that holds the value e names, or NULL. */
static const struct trace_rec *ex_start(const struct trace *tr, int run,
					const struct whatif_edit *e)
{
	const struct trace_rec *r = NULL;
	switch (e->what) {
	case WHATIF_STATE: return trace_find(tr, REC_RNN, run, e->step, 0);
	case WHATIF_SCORES:
		return trace_find(tr, REC_SCORE, run, e->step, e->index + 1);
	case WHATIF_WEIGHTS:
		r = trace_find(tr, REC_GAUSS, run, e->step, 0);
		return r ? r : trace_find(tr, REC_SOFTMAX, run, e->step, 0);
	case WHATIF_CONTEXT:
		return trace_find(tr, REC_CONTEXT, run, e->step, 0);
	case WHATIF_ATTENTIONAL:
		return trace_find(tr, REC_ATTENTIONAL, run, e->step, 0);
	case WHATIF_OUTPUT:
		return trace_find(tr, REC_OUTPUT, run, e->step, 0);
	case WHATIF_MODEL:
	case WHATIF_WHAT_COUNT:
		break;
	}
	return NULL;
}

int fmt_text_explain(FILE *out, const struct trace *tr,
		     const struct whatif_edit *e, const struct fmt_opts *o)
{
	struct fmt_buf b = FMT_BUF_INIT;
	struct ex x = { tr, o, &b, xcalloc((size_t)tr->nrecs + 1, 1) };
	for (int run = 0; run < tr->nruns; run++) {
		const struct trace_rec *r = ex_start(tr, run, e);
		if (!r)
			continue;
		int at = e->what == WHATIF_SCORES ? 0 : e->index;
		memset(x.seen, 0, (size_t)tr->nrecs);
		if (e->what == WHATIF_OUTPUT && at < 0) /* the word chosen */
			fmt_buf_printf(&b, "%s%s[%s] = ", run ? "\n" : "",
				       e->name, tr->m->tgt.words[at = r->word]);
		else
			fmt_buf_printf(&b, "%s%s = ", run ? "\n" : "",
				       e->name);
		char num[NUM_BUFSZ];
		fmt_buf_put(&b, num, num_fixed_len(num, r->result[at],
						   o->precision));
		fmt_buf_printf(&b, _(" (%s run), from:\n"),
			       trace_scorer_name(tr->runs[run].scorer));
		ex_rec(&x, (int)(r - tr->recs), 0, NULL);
	}
	free(x.seen);
	int rc = fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
	return rc;
}
