/* fmt_text.c: a recorded trace as plain text (doc/trace-format.md). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "num.h"
#include "utf8.h"

#define LABEL_COL 38 /* where the shape column starts */

/* fprintf(out, "%d", v) */
static void text_int(FILE *out, int v)
{
	char buf[12];
	fwrite(buf, 1, (size_t)(num_itoa(buf, v) - buf), out);
}

/* Text put together in memory and written with one fwrite when it is
 * full or done: a stdio call costs about as much as formatting a number. */
struct text_buf {
	FILE *out;
	size_t len;
	char b[1024];
};

static void tb_flush(struct text_buf *tb)
{
	if (tb->len > 0)
		fwrite(tb->b, 1, tb->len, tb->out);
	tb->len = 0;
}

/* Returns where the next n (<= sizeof tb->b) bytes go. */
static char *tb_room(struct text_buf *tb, size_t n)
{
	if (tb->len + n > sizeof tb->b)
		tb_flush(tb);
	return tb->b + tb->len;
}

static void tb_put(struct text_buf *tb, const char *s, size_t n)
{
	if (n > sizeof tb->b) {
		tb_flush(tb);
		fwrite(s, 1, n, tb->out);
		return;
	}
	memcpy(tb_room(tb, n), s, n);
	tb->len += n;
}

static void tb_puts(struct text_buf *tb, const char *s)
{
	tb_put(tb, s, strlen(s));
}

static void tb_int(struct text_buf *tb, int v)
{
	char *p = tb_room(tb, 12);
	tb->len += (size_t)(num_itoa(p, v) - p);
}

/* Writes x with prec digits, and returns it (valid until the next call);
 * as a factor, a negative number goes in parentheses: "(-0.3000)". */
static const char *tb_num(struct text_buf *tb, double x, int prec,
			  int factor)
{
	char *p = tb_room(tb, NUM_BUFSZ + 2);
	size_t n = strlen(num_fixed(p + 1, x, prec));
	if (factor && p[1] == '-') {
		p[0] = '(';
		p[n + 1] = ')';
		tb->len += n + 2;
		return p + 1;
	}
	memmove(p, p + 1, n + 1);
	tb->len += n;
	return p;
}

/* snprintf(buf, size, "%s%s%s", a, b, c), and as cheap as it can be. */
static void text_cat(char *buf, size_t size, const char *a, const char *b,
		     const char *c)
{
	char *p = buf, *end = buf + size - 1;
	const char *part[3] = { a, b, c };
	for (int k = 0; k < 3; k++)
		for (const char *s = part[k]; *s != '\0' && p < end; s++)
			*p++ = *s;
	*p = '\0';
}

/* "  label            (4)  [a, b, c, d]" */
static void text_line(FILE *out, int indent, const char *label,
		      const double *v, int n, int prec)
{
	char head[160], shape[24], *p = shape;
	size_t len = strlen(label);
	if (indent > 0 && (size_t)indent + len < sizeof head) {
		/* the indent and the label padded in one go */
		memset(head, ' ', (size_t)indent);
		memcpy(head + indent, label, len + 1);
		fmt_pad(out, head, LABEL_COL - 1);
	} else {
		if (indent > 0)
			fmt_pad(out, "", indent);
		fmt_pad(out, label, LABEL_COL - indent - 1);
	}
	*p++ = ' '; /* " %-5s " of "(n)" */
	*p++ = '(';
	p = num_itoa(p, n);
	*p++ = ')';
	while (p < shape + 6)
		*p++ = ' ';
	*p++ = ' ';
	fwrite(shape, 1, (size_t)(p - shape), out);
	fmt_text_vec(out, v, n, prec);
	putc('\n', out);
}

static void text_rnn(FILE *out, const struct trace *tr,
		     const struct trace_rec *r, int prec, int terms)
{
	char lab[160];
	if (!terms) {
		text_cat(lab, sizeof lab, r->symbol, " = ", r->formula);
		text_line(out, 0, lab, r->result, r->len, prec);
		return;
	}
	if (r->run >= 0 && r->t == 1) {
		snprintf(lab, sizeof lab, "s_0 = h_%d, the last encoder state",
			 tr->n);
		text_line(out, 0, lab, r->ops[4].v, r->ops[4].len, prec);
	}
	fputs(r->symbol, out);
	fputs(" = ", out);
	fputs(r->formula, out);
	putc('\n', out);
	for (int k = 0; k < 4; k++)
		text_line(out, 2, r->ops[k].label, r->ops[k].v, r->ops[k].len,
			  prec);
	text_cat(lab, sizeof lab, r->symbol, " = tanh(sum)", "");
	text_line(out, 2, lab, r->result, r->len, prec);
}

static void text_score(FILE *out, const struct trace_rec *r, int prec,
		       int terms)
{
	struct text_buf tb;
	if (terms) {
		/* the intermediates first: W_a·h_i, or [s; h], W_a·[s; h] and
		 * tanh */
		for (int k = 0; k < r->nops; k++)
			if (!r->ops[k].input)
				text_line(out, 2, r->ops[k].label, r->ops[k].v,
					  r->ops[k].len, prec);
	}
	tb.out = out;
	tb.len = 0;
	tb_puts(&tb, r->symbol);
	tb_put(&tb, " = ", 3);
	tb_puts(&tb, r->formula);
	tb_put(&tb, " = ", 3);
	for (int k = 0; terms && k < r->nterms; k++) {
		if (k)
			tb_put(&tb, " + ", 3);
		tb_num(&tb, r->terms[2 * k], prec, 1);
		tb_puts(&tb, "×");
		tb_num(&tb, r->terms[2 * k + 1], prec, 1);
	}
	if (terms)
		tb_put(&tb, " = ", 3);
	tb_num(&tb, r->result[0], prec, 0);
	tb_put(&tb, "\n", 1);
	tb_flush(&tb);
}

/* step 3 written out: max, each exp(e - max), the sum, each α. */
static void text_softmax(FILE *out, const struct trace *tr,
			 const struct trace_rec *r, int prec)
{
	char sum[NUM_BUFSZ], ex_i[NUM_BUFSZ];
	const double *e = r->ops[0].v, *shifted = r->ops[2].v;
	const double *ex = r->ops[3].v;
	int n = r->len, t = r->t;
	struct text_buf tb;
	text_line(out, 0, r->ops[0].label, e, n, prec);
	tb.out = out;
	tb.len = 0;
	tb_put(&tb, "max = ", 6);
	tb_num(&tb, r->ops[1].v[0], prec, 0);
	tb_put(&tb, "\n", 1);
	for (int i = 0; i < n; i++) { /* exp(e_t,i - max) = exp(shifted) = ex */
		tb_put(&tb, "exp(e_", 6);
		tb_int(&tb, t);
		tb_put(&tb, ",", 1);
		tb_int(&tb, i + 1);
		tb_put(&tb, " - max) = exp(", 14);
		tb_num(&tb, shifted[i], prec, 0);
		tb_put(&tb, ") = ", 4);
		tb_num(&tb, ex[i], prec, 0);
		tb_put(&tb, "\n", 1);
	}
	tb_put(&tb, "sum = ", 6);
	for (int i = 0; i < n; i++) {
		if (i)
			tb_put(&tb, " + ", 3);
		tb_num(&tb, ex[i], prec, 0);
	}
	tb_put(&tb, " = ", 3);
	num_fixed(sum, r->ops[4].v[0], prec);
	tb_puts(&tb, sum);
	tb_put(&tb, "\n", 1);
	for (int i = 0; i < n; i++) { /* α_t,i = ex / sum = α */
		tb_puts(&tb, "α_");
		tb_int(&tb, t);
		tb_put(&tb, ",", 1);
		tb_int(&tb, i + 1);
		tb_put(&tb, " = ", 3);
		tb_puts(&tb, num_fixed(ex_i, ex[i], prec));
		tb_put(&tb, " / ", 3);
		tb_puts(&tb, sum);
		tb_put(&tb, " = ", 3);
		tb_num(&tb, r->result[i], prec, 0);
		tb_put(&tb, "\n", 1);
	}
	tb_flush(&tb);
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
	text_cat(lab, sizeof lab, r->symbol, " = ", r->formula);
	text_line(out, 0, lab, r->result, r->len, o->precision);
	k = text_top(idx, r->result, r->len, k);
	fputs("top ", out);
	text_int(out, k);
	putc(':', out);
	for (int j = 0; j < k; j++) {
		fputs(j ? ", " : " ", out);
		fputs(v->words[idx[j]], out);
		putc(' ', out);
		fputs(num_fixed(buf, r->result[idx[j]], o->precision), out);
	}
	free(idx);
	fputs("\noutput word: ", out);
	fputs(v->words[r->word], out);
	if (tr->ntgt) {
		int want = r->t <= tr->ntgt ? tr->tgt[r->t - 1] : tr->m->eos;
		fputs("  (target ", out);
		fputs(v->words[want], out);
		fputs(want == r->word ? ": right)" : ": wrong)", out);
	}
	putc('\n', out);
}

void fmt_text_rec(FILE *out, const struct trace *tr,
		  const struct trace_rec *r, const struct fmt_opts *o)
{
	char lab[160], buf[NUM_BUFSZ], num[12];
	int prec = o->precision;
	size_t n;
	switch (r->kind) {
	case REC_EMBED:
	case REC_CONTEXT:
	case REC_ATTENTIONAL:
		for (int k = 0; k < r->nops; k++)
			if (!r->ops[k].input)
				text_line(out, 0, r->ops[k].label, r->ops[k].v,
					  r->ops[k].len, prec);
		text_cat(lab, sizeof lab, r->symbol, " = ", r->formula);
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
		/* "%s = %s×h_%d" */
		*num_itoa(num, r->i) = '\0';
		text_cat(lab, sizeof lab, r->symbol, " = ",
			 num_fixed(buf, r->ops[0].v[0], prec));
		n = strlen(lab);
		text_cat(lab + n, sizeof lab - n, "×h_", num, "");
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
	for (int k = 0; k < n; k++) {
		if (k)
			putc(' ', out);
		fputs(v->words[w[k]], out);
	}
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
			fputs("\n--- ", out);
			fputs(stage_titles[stage], out);
			fputs(" ---\n", out);
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
		fputs("\n=== ", out);
		fputs(trace_scorer_name(ru->scorer), out);
		fputs(", t=", out);
		text_int(out, t);
		fputs(": the decoder reads ", out);
		fputs(v->words[ru->input[t - 1]], out);
		fputs(" ===\n", out);
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
