/* fmt_text.c: a recorded trace as plain text (doc/trace-format.md). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "num.h"
#include "utf8.h"

#define LABEL_COL 38 /* where the shape column starts */

/* "  label            (4)  [a, b, c, d]" */
static void text_line(FILE *out, int indent, const char *label,
		      const double *v, int n, int prec)
{
	char shape[16];
	fprintf(out, "%*s", indent, "");
	fmt_pad(out, label, LABEL_COL - indent - 1);
	snprintf(shape, sizeof shape, "(%d)", n);
	fprintf(out, " %-5s ", shape);
	fmt_text_vec(out, v, n, prec);
	putc('\n', out);
}

/* A number as a factor: negatives in parentheses, "(-0.3000)". */
static void text_factor(FILE *out, double x, int prec)
{
	char buf[NUM_BUFSZ];
	num_fixed(buf, x, prec);
	fprintf(out, buf[0] == '-' ? "(%s)" : "%s", buf);
}

static void text_rnn(FILE *out, const struct trace *tr,
		     const struct trace_rec *r, int prec, int terms)
{
	char lab[160];
	if (!terms) {
		snprintf(lab, sizeof lab, "%s = %s", r->symbol, r->formula);
		text_line(out, 0, lab, r->result, r->len, prec);
		return;
	}
	if (r->run >= 0 && r->t == 1) {
		snprintf(lab, sizeof lab, "s_0 = h_%d, the last encoder state",
			 tr->n);
		text_line(out, 0, lab, r->ops[4].v, r->ops[4].len, prec);
	}
	fprintf(out, "%s = %s\n", r->symbol, r->formula);
	for (int k = 0; k < 4; k++)
		text_line(out, 2, r->ops[k].label, r->ops[k].v, r->ops[k].len,
			  prec);
	snprintf(lab, sizeof lab, "%s = tanh(sum)", r->symbol);
	text_line(out, 2, lab, r->result, r->len, prec);
}

static void text_score(FILE *out, const struct trace_rec *r, int prec,
		       int terms)
{
	char buf[NUM_BUFSZ];
	if (!terms) {
		fprintf(out, "%s = %s = %s\n", r->symbol, r->formula,
			num_fixed(buf, r->result[0], prec));
		return;
	}
	/* the intermediates first: W_a·h_i, or [s; h], W_a·[s; h] and tanh */
	for (int k = 0; k < r->nops; k++)
		if (!r->ops[k].input)
			text_line(out, 2, r->ops[k].label, r->ops[k].v,
				  r->ops[k].len, prec);
	fprintf(out, "%s = %s = ", r->symbol, r->formula);
	for (int k = 0; k < r->nterms; k++) {
		fputs(k ? " + " : "", out);
		text_factor(out, r->terms[2 * k], prec);
		fputs("×", out);
		text_factor(out, r->terms[2 * k + 1], prec);
	}
	fprintf(out, " = %s\n", num_fixed(buf, r->result[0], prec));
}

/* step 3 written out: max, each exp(e - max), the sum, each α. */
static void text_softmax(FILE *out, const struct trace *tr,
			 const struct trace_rec *r, int prec)
{
	char a[NUM_BUFSZ], b[NUM_BUFSZ], c[NUM_BUFSZ];
	const double *e = r->ops[0].v, *shifted = r->ops[2].v;
	const double *ex = r->ops[3].v;
	int n = r->len, t = r->t;
	text_line(out, 0, r->ops[0].label, e, n, prec);
	fprintf(out, "max = %s\n", num_fixed(a, r->ops[1].v[0], prec));
	for (int i = 0; i < n; i++)
		fprintf(out, "exp(e_%d,%d - max) = exp(%s) = %s\n", t, i + 1,
			num_fixed(a, shifted[i], prec), num_fixed(b, ex[i], prec));
	fputs("sum = ", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? " + " : "", num_fixed(a, ex[i], prec));
	fprintf(out, " = %s\n", num_fixed(a, r->ops[4].v[0], prec));
	for (int i = 0; i < n; i++)
		fprintf(out, "α_%d,%d = %s / %s = %s\n", t, i + 1,
			num_fixed(a, ex[i], prec),
			num_fixed(b, r->ops[4].v[0], prec),
			num_fixed(c, r->result[i], prec));
	text_line(out, 0, r->symbol, r->result, n, prec);
	(void)tr;
}

/* Stores in idx the indices of the k largest of p (V), largest first and
 * ties in index order, and returns how many it stored. */
static int text_top(int *idx, const double *p, int V, int k)
{
	int m = 0;
	for (int w = 0; w < V && k > 0; w++) {
		int j;
		if (m < k)
			j = m++;
		else if (p[w] > p[idx[k - 1]])
			j = k - 1;
		else
			continue;
		while (j > 0 && p[w] > p[idx[j - 1]]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = w;
	}
	return m;
}

static void text_output(FILE *out, const struct trace *tr,
			const struct trace_rec *r, const struct fmt_opts *o)
{
	char buf[NUM_BUFSZ], lab[160];
	const struct vocab *v = &tr->m->tgt;
	int k = o->top < r->len ? o->top : r->len;
	int *idx = xcalloc((size_t)(k > 0 ? k : 1), sizeof *idx);
	text_line(out, 0, r->ops[0].label, r->ops[0].v, r->ops[0].len,
		  o->precision);
	snprintf(lab, sizeof lab, "%s = %s", r->symbol, r->formula);
	text_line(out, 0, lab, r->result, r->len, o->precision);
	k = text_top(idx, r->result, r->len, k);
	fprintf(out, "top %d:", k);
	for (int j = 0; j < k; j++)
		fprintf(out, "%s %s %s", j ? "," : "", v->words[idx[j]],
			num_fixed(buf, r->result[idx[j]], o->precision));
	free(idx);
	fprintf(out, "\noutput word: %s", v->words[r->word]);
	if (tr->ntgt) {
		int want = r->t <= tr->ntgt ? tr->tgt[r->t - 1] : tr->m->eos;
		fprintf(out, "  (target %s: %s)", v->words[want],
			want == r->word ? "right" : "wrong");
	}
	putc('\n', out);
}

void fmt_text_rec(FILE *out, const struct trace *tr,
		  const struct trace_rec *r, const struct fmt_opts *o)
{
	char lab[160], buf[NUM_BUFSZ];
	int prec = o->precision;
	switch (r->kind) {
	case REC_EMBED:
	case REC_CONTEXT:
	case REC_ATTENTIONAL:
		for (int k = 0; k < r->nops; k++)
			if (!r->ops[k].input)
				text_line(out, 0, r->ops[k].label, r->ops[k].v,
					  r->ops[k].len, prec);
		snprintf(lab, sizeof lab, "%s = %s", r->symbol, r->formula);
		text_line(out, 0, lab, r->result, r->len, prec);
		break;
	case REC_RNN:
		text_rnn(out, tr, r, prec, o->terms);
		break;
	case REC_SCORE:
		text_score(out, r, prec, o->terms);
		break;
	case REC_SCORES:
	case REC_CONCAT:
		text_line(out, 0, r->symbol, r->result, r->len, prec);
		break;
	case REC_SOFTMAX:
		text_softmax(out, tr, r, prec);
		break;
	case REC_WEIGHTED:
		snprintf(lab, sizeof lab, "%s = %s×h_%d", r->symbol,
			 num_fixed(buf, r->ops[0].v[0], prec), r->i);
		text_line(out, 0, lab, r->result, r->len, prec);
		break;
	case REC_OUTPUT:
		text_output(out, tr, r, o);
		break;
	case REC_KIND_COUNT:
		break;
	}
}

static const char *const stage_titles[STAGE_COUNT] = {
	"encoding", "scoring", "softmax", "weighted sum", "concatenation",
	"output"
};

static const char *const scorer_formulas[SCORER_COUNT] = {
	"e_t,i = s_t·h_i",
	"e_t,i = s_t·(W_a·h_i)",
	"e_t,i = v_a·tanh(W_a·[s_t; h_i])",
};

static void text_words(FILE *out, const struct vocab *v, const int *w, int n)
{
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? " " : "", v->words[w[k]]);
}

static void text_header(FILE *out, const struct trace *tr,
			const struct fmt_opts *o)
{
	const struct model *m = tr->m;
	fprintf(out, "%s\n", FMT_TEXT_VERSION);
	if (o->pair)
		fprintf(out, "pair: line %d\n", o->pair);
	fprintf(out, "model: %s (embedding %d, hidden %d, attention %d)\n",
		m->name, m->E, m->H, m->A);
	fputs("source: ", out);
	text_words(out, &m->src, tr->src, tr->n);
	fprintf(out, " (%d words)\n", tr->n);
	if (tr->ntgt) {
		fputs("target: ", out);
		text_words(out, &m->tgt, tr->tgt, tr->ntgt);
		fprintf(out, " (teacher forcing, %d steps)\n", tr->ntgt + 1);
	} else {
		fprintf(out, "target: none (greedy decoding, at most %d "
			"steps)\n", tr->max_steps);
	}
	fputs("scorers:", out);
	for (int k = 0; k < tr->nruns; k++)
		fprintf(out, " %s", trace_scorer_name(tr->runs[k].scorer));
	fprintf(out, "\nprecision: %d\n", o->precision);
}

/* Prints the records [first, first + count), with a heading wherever the
 * stage changes. */
static void text_recs(FILE *out, const struct trace *tr, int first, int count,
		      const struct fmt_opts *o)
{
	int stage = -1;
	for (int k = first; k < first + count; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (!(o->stages & (1u << r->stage)))
			continue;
		if ((int)r->stage != stage) {
			stage = (int)r->stage;
			fprintf(out, "\n--- %s ---\n", stage_titles[stage]);
		}
		fmt_text_rec(out, tr, r, o);
	}
}

static void text_run(FILE *out, const struct trace *tr, int run,
		     const struct fmt_opts *o)
{
	const struct trace_run *ru = &tr->runs[run];
	const struct vocab *v = &tr->m->tgt;
	fprintf(out, "\n==== %s scorer (%d of %d): %s ====\n",
		trace_scorer_name(ru->scorer), run + 1, tr->nruns,
		scorer_formulas[ru->scorer]);
	for (int t = 1; t <= ru->nsteps; t++) {
		int first = ru->step_first[t - 1];
		int end = t < ru->nsteps ? ru->step_first[t]
					 : ru->first_rec + ru->nrecs;
		fprintf(out, "\n=== %s, t=%d: the decoder reads %s ===\n",
			trace_scorer_name(ru->scorer), t,
			v->words[ru->input[t - 1]]);
		text_recs(out, tr, first, end - first, o);
	}
	fprintf(out, "\n%s output: ", trace_scorer_name(ru->scorer));
	text_words(out, v, ru->pred, ru->nsteps);
	if (!tr->ntgt && !ru->stopped)
		fprintf(out, " (stopped at the limit of %d steps)", tr->max_steps);
	putc('\n', out);
}

int fmt_text_trace(FILE *out, const struct trace *tr,
		   const struct fmt_opts *o)
{
	text_header(out, tr, o);
	text_recs(out, tr, tr->enc_first_rec, tr->enc_nrecs, o);
	for (int k = 0; k < tr->nruns; k++)
		text_run(out, tr, k, o);
	return ferror(out) ? -1 : 0;
}
