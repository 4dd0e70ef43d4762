/* fmt_text.c: a recorded trace as plain text (doc/trace-format.md). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fmt.h"
#include "whatif.h"
#include "gradpath.h"
#include "i18n.h"
#include "window.h"
#include "num.h"
#include "utf8.h"

#define LABEL_COL 38 /* where the shape column starts */

/* Writes x with prec digits; as a factor, a negative number goes in
 * parentheses: "(-0.3000)". */
static void text_num(struct fmt_buf *b, double x, int prec, int factor)
{
	char *p = fmt_buf_room(b, NUM_BUFSZ + 2);
	size_t n = num_fixed_len(p, x, prec);
	if (factor && p[0] == '-') {
		/* the usual number moved as a block of constant size (with the
		 * bytes after it, inside the room asked for): a few moves, not
		 * a call */
		if (n <= NUM_BUFSZ / 2)
			memmove(p + 1, p, NUM_BUFSZ / 2);
		else
			memmove(p + 1, p, n);
		p[0] = '(';
		p[n + 1] = ')';
		b->len += n + 2;
		return;
	}
	b->len += n;
}

/* fmt_buf_put() of a literal, whose length the compiler knows. */
#define TEXT_LIT(b, s) fmt_buf_put(b, s, sizeof s - 1)

/* The rest of a line whose label, cols columns wide, is already in b:
 * the padding to the shape column, " %-5s " of "(n)", and v. */
static void text_line_end(struct fmt_buf *b, int cols, const double *v,
			  int n, int prec)
{
	char *p, *q;
	fmt_buf_spaces(b, LABEL_COL - 1 - cols);
	/* the shape as a store of 8 spaces with "(n)" over it, the bytes
	 * past it overwritten by what comes next: cheaper than a memcpy of
	 * its length on each of a hundred thousand lines a batch */
	p = fmt_buf_room(b, 24);
	memcpy(p, "        ", 8);
	p[1] = '(';
	q = num_itoa(p + 2, n);
	*q++ = ')';
	*q++ = ' '; /* the last space of a "(n)" longer than 5 */
	b->len += q - p < 7 ? 7 : (size_t)(q - p);
	fmt_buf_text_vec(b, v, n, prec);
	fmt_buf_putc(b, '\n');
}

/* "  label            (4)  [a, b, c, d]" */
static void text_line(struct fmt_buf *b, int indent, const char *label,
		      const double *v, int n, int prec)
{
	fmt_buf_spaces(b, indent);
	text_line_end(b, indent + fmt_buf_put_cols(b, label), v, n, prec);
}

/* text_line() with the label "a = c", written straight into b rather
 * than put together first and copied. */
static void text_line_eq(struct fmt_buf *b, int indent, const char *a,
			 const char *c, const double *v, int n, int prec)
{
	int cols;
	fmt_buf_spaces(b, indent);
	cols = indent + fmt_buf_put_cols(b, a);
	TEXT_LIT(b, " = ");
	cols += 3 + fmt_buf_put_cols(b, c);
	text_line_end(b, cols, v, n, prec);
}

/* A record's title or note (N_() where the record is made) in the
 * user's language; NULL and "" as they are. */
static const char *text_tr(const char *s)
{
	return s && *s ? _(s) : s;
}

/* text_line_eq() of record r, its title in front: "the context vector
 * c_1 = ...". */
static void text_line_titled(struct fmt_buf *b, const struct trace_rec *r,
			     const char *a, const char *c, int prec)
{
	int cols = 0;
	if (r->title) {
		cols = fmt_buf_put_cols(b, text_tr(r->title)) + 1;
		fmt_buf_putc(b, ' ');
	}
	cols += fmt_buf_put_cols(b, a);
	TEXT_LIT(b, " = ");
	cols += 3 + fmt_buf_put_cols(b, c);
	text_line_end(b, cols, r->result, r->len, prec);
}

static void text_rnn(struct fmt_buf *b, const struct trace *tr,
		     const struct trace_rec *r, const struct trace_names *nm,
		     int prec, int terms)
{
	if (!terms) {
		text_line_eq(b, 0, nm->symbol, nm->formula, r->result, r->len,
			     prec);
		return;
	}
	if (r->note) {
		char note[96];
		trace_expand(note, sizeof note, text_tr(r->note), tr, r);
		text_line(b, 0, note, r->ops[r->note_op].v,
			  r->ops[r->note_op].len, prec);
	}
	for (int k = 0; k < r->nops; k++) /* input feeding: h̃_{t-1} */
		if (r->ops[k].key && strcmp(r->ops[k].key, "feed") == 0)
			text_line(b, 0, nm->op[k], r->ops[k].v, r->ops[k].len,
				  prec);
	fmt_buf_puts(b, nm->symbol);
	TEXT_LIT(b, " = ");
	fmt_buf_puts(b, nm->formula);
	fmt_buf_putc(b, '\n');
	for (int k = 0; k < r->nops; k++) /* the terms and their sum */
		if (r->ops[k].role != OP_INPUT)
			text_line(b, 2, nm->op[k], r->ops[k].v,
				  r->ops[k].len, prec);
	text_line_eq(b, 2, nm->symbol, "tanh(sum)", r->result, r->len, prec);
}

static void text_score(struct fmt_buf *b, const struct trace_rec *r,
		       const struct trace_names *nm, int prec, int terms)
{
	if (terms) {
		/* the intermediates first: W_a·h_i, or [s; h], W_a·[s; h] and
		 * tanh */
		for (int k = 0; k < r->nops; k++)
			if (!r->ops[k].input)
				text_line(b, 2, nm->op[k], r->ops[k].v,
					  r->ops[k].len, prec);
	}
	fmt_buf_puts(b, nm->symbol);
	fmt_buf_put(b, " = ", 3);
	fmt_buf_puts(b, nm->formula);
	fmt_buf_put(b, " = ", 3);
	if (terms && r->divisor)
		fmt_buf_putc(b, '(');
	for (int k = 0; terms && k < r->nterms; k++) {
		if (k)
			fmt_buf_put(b, " + ", 3);
		text_num(b, r->terms[2 * k], prec, 1);
		TEXT_LIT(b, "×");
		text_num(b, r->terms[2 * k + 1], prec, 1);
	}
	if (terms && r->divisor) { /* "(a×b + c×d) / 2.0000" */
		TEXT_LIT(b, ") / ");
		text_num(b, r->divisor[0], prec, 0);
	}
	if (terms)
		fmt_buf_put(b, " = ", 3);
	text_num(b, r->result[0], prec, 0);
	fmt_buf_put(b, "\n", 1);
}

/* Appends again the n bytes that are already in b at offset at. */
static void text_again(struct fmt_buf *b, size_t at, size_t n)
{
	char *q = fmt_buf_room(b, n); /* first: it may move b->p */
	memcpy(q, b->p + at, n);
	b->len += n;
}

/* exp(e - max) values of a softmax whose text is written once and then
 * copied (each appears three times); any further ones are formatted each
 * time. */
#define TEXT_EX_KEPT 32

/* exp(e_t,i - max) again: a copy of its text if kept, else formatted. */
static void text_ex_again(struct fmt_buf *b, int i, const double *ex,
			  const size_t *ex_at, const size_t *ex_len, int prec)
{
	if (i < TEXT_EX_KEPT)
		text_again(b, ex_at[i], ex_len[i]);
	else
		text_num(b, ex[i], prec, 0);
}

/* step 3 written out: max, each exp(e - max), the sum, each α. */
static void text_softmax(struct fmt_buf *b, const struct trace_rec *r,
			 const struct trace_names *nm, int prec)
{
	char sum[NUM_BUFSZ];
	size_t sum_len, ex_at[TEXT_EX_KEPT], ex_len[TEXT_EX_KEPT];
	const double *e = trace_op(r, "e")->v;
	const double *shifted = trace_op(r, "shifted")->v;
	const double *ex = trace_op(r, "exp")->v;
	int n = r->len, t = r->t;
	/* a local window's softmax runs over its positions only */
	int lo = r->win_lo ? r->win_lo - 1 : 0, hi = r->win_lo ? r->win_hi : n;
	text_line(b, 0, nm->op[trace_op_at(r, "e")], e, n, prec);
	fmt_buf_put(b, "max = ", 6);
	text_num(b, trace_op(r, "max")->v[0], prec, 0);
	fmt_buf_put(b, "\n", 1);
	for (int i = lo; i < hi; i++) { /* exp(e_t,i - max) = exp(shifted) = ex */
		fmt_buf_put(b, "exp(e_", 6);
		fmt_buf_int(b, t);
		fmt_buf_put(b, ",", 1);
		fmt_buf_int(b, i + 1);
		fmt_buf_put(b, " - max) = exp(", 14);
		text_num(b, shifted[i], prec, 0);
		fmt_buf_put(b, ") = ", 4);
		if (i < TEXT_EX_KEPT) {
			ex_at[i] = b->len;
			text_num(b, ex[i], prec, 0);
			ex_len[i] = b->len - ex_at[i];
		} else {
			text_num(b, ex[i], prec, 0);
		}
		fmt_buf_put(b, "\n", 1);
	}
	fmt_buf_put(b, "sum = ", 6);
	for (int i = lo; i < hi; i++) {
		if (i > lo)
			fmt_buf_put(b, " + ", 3);
		text_ex_again(b, i, ex, ex_at, ex_len, prec);
	}
	fmt_buf_put(b, " = ", 3);
	sum_len = num_fixed_len(sum, trace_op(r, "sum")->v[0], prec);
	fmt_buf_put(b, sum, sum_len);
	fmt_buf_put(b, "\n", 1);
	for (int i = lo; i < hi; i++) { /* α_t,i = ex / sum = α */
		if (r->win_lo && strncmp(r->symbol, "align", 5) == 0)
			TEXT_LIT(b, "align_");
		else
			TEXT_LIT(b, "α_");
		fmt_buf_int(b, t);
		fmt_buf_put(b, ",", 1);
		fmt_buf_int(b, i + 1);
		fmt_buf_put(b, " = ", 3);
		text_ex_again(b, i, ex, ex_at, ex_len, prec);
		fmt_buf_put(b, " / ", 3);
		fmt_buf_put(b, sum, sum_len);
		fmt_buf_put(b, " = ", 3);
		text_num(b, r->result[i], prec, 0);
		fmt_buf_put(b, "\n", 1);
	}
	text_line(b, 0, nm->symbol, r->result, n, prec);
}

/* local-p's p_t: W_p·q, its tanh, the dot product with v_p term by
 * term, the logistic function and the position. */
static void text_position(struct fmt_buf *b, const struct trace *tr,
			  const struct trace_rec *r,
			  const struct trace_names *nm, int prec)
{
	const int wq = trace_op_at(r, "W_p_q"), th = trace_op_at(r, "tanh_W_p_q");
	const int dot = trace_op_at(r, "v_p_tanh"), sig = trace_op_at(r, "sigmoid");
	text_line(b, 0, nm->op[wq], r->ops[wq].v, r->ops[wq].len, prec);
	text_line(b, 0, nm->op[th], r->ops[th].v, r->ops[th].len, prec);
	fmt_buf_puts(b, nm->op[dot]);
	TEXT_LIT(b, " = ");
	for (int k = 0; k < r->nterms; k++) {
		if (k)
			TEXT_LIT(b, " + ");
		text_num(b, r->terms[2 * k], prec, 1);
		TEXT_LIT(b, "×");
		text_num(b, r->terms[2 * k + 1], prec, 1);
	}
	TEXT_LIT(b, " = ");
	text_num(b, r->ops[dot].v[0], prec, 0);
	fmt_buf_putc(b, '\n');
	fmt_buf_puts(b, nm->op[sig]);
	TEXT_LIT(b, " = 1 / (1 + exp(-");
	text_num(b, r->ops[dot].v[0], prec, 1);
	TEXT_LIT(b, ")) = ");
	text_num(b, r->ops[sig].v[0], prec, 0);
	fmt_buf_putc(b, '\n');
	fmt_buf_puts(b, text_tr(r->title));
	fmt_buf_putc(b, ' ');
	fmt_buf_puts(b, nm->symbol);
	fmt_buf_printf(b, " = 1 + (%d - 1)×", tr->n);
	text_num(b, r->ops[sig].v[0], prec, 0);
	TEXT_LIT(b, " = ");
	text_num(b, r->result[0], prec, 0);
	fmt_buf_putc(b, '\n');
}

/* A window: its note, how its p_t was made, with its value (local-m's
 * "p_1 = min(1, 5) = 1.0000"); its formula, with the values of the
 * operands it names ("⌊p_1⌋ ± D = ⌊1.0000⌋ ± 1"); then the positions
 * with their words. */
static void text_window(struct fmt_buf *b, const struct trace *tr,
			const struct trace_rec *r,
			const struct trace_names *nm, int prec)
{
	const double *bounds = trace_op(r, "window")->v;
	int lo = (int)bounds[0], hi = (int)bounds[1];
	char line[160];
	if (r->note) { /* where p_t comes from: local-m's, fixed's */
		trace_expand_values(line, sizeof line, text_tr(r->note), tr, r,
				    prec);
		fmt_buf_puts(b, line);
		if (r->note_op >= 0) {
			TEXT_LIT(b, " = ");
			text_num(b, r->ops[r->note_op].v[0], prec, 0);
		}
		fmt_buf_putc(b, '\n');
	}
	fmt_buf_puts(b, nm->symbol);
	if (r->formula) {
		trace_expand_values(line, sizeof line, r->formula, tr, r, prec);
		fmt_buf_printf(b, " = %s = %s,", nm->formula, line);
	} else {
		fmt_buf_putc(b, ':');
	}
	fmt_buf_printf(b, " within 1 .. %d: positions %d .. %d:", tr->n, lo,
		       hi);
	for (int j = lo; j <= hi; j++)
		fmt_buf_printf(b, " %s (%d)", tr->m->src.words[tr->src[j - 1]],
			       j);
	fmt_buf_putc(b, '\n');
}

/* local-p's weights: each align times its Gaussian factor, and their sum
 * below 1. */
static void text_gauss(struct fmt_buf *b, const struct trace_rec *r,
		       const struct trace_names *nm, int prec)
{
	const double *align = trace_op(r, "align")->v;
	const double *g = trace_op(r, "gauss")->v;
	double p = trace_op(r, "p")->v[0], sigma = trace_op(r, "sigma")->v[0];
	TEXT_LIT(b, "the Gaussian's width σ = D/2 = ");
	text_num(b, sigma, prec, 0);
	fmt_buf_putc(b, '\n');
	for (int j = r->win_lo; j <= r->win_hi; j++) {
		fmt_buf_printf(b, "a_%d,%d = align_%d,%d × exp(-(%d - ", r->t,
			       j, r->t, j, j);
		text_num(b, p, prec, 0);
		TEXT_LIT(b, ")²/(2×");
		text_num(b, sigma, prec, 0);
		TEXT_LIT(b, "²)) = ");
		text_num(b, align[j - 1], prec, 0);
		TEXT_LIT(b, " × ");
		text_num(b, g[j - 1], prec, 0);
		TEXT_LIT(b, " = ");
		text_num(b, r->result[j - 1], prec, 0);
		fmt_buf_putc(b, '\n');
	}
	text_line(b, 0, nm->symbol, r->result, r->len, prec);
	fmt_buf_printf(b, "Σ_j a_%d,j = ", r->t);
	for (int j = r->win_lo; j <= r->win_hi; j++) {
		if (j > r->win_lo)
			TEXT_LIT(b, " + ");
		text_num(b, r->result[j - 1], prec, 0);
	}
	TEXT_LIT(b, " = ");
	text_num(b, trace_op(r, "sum")->v[0], prec, 0);
	fmt_buf_puts(b, _(", below 1: the weights are the softmax over the "
			  "window times Gaussian factors of at most 1, and "
			  "nothing is renormalised\n"));
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

static void text_output(struct fmt_buf *b, const struct trace *tr,
			const struct trace_rec *r, const struct trace_names *nm,
			const struct fmt_opts *o)
{
	const struct vocab *v = &tr->m->tgt;
	int k = o->top < r->len ? o->top : r->len;
	int *idx = xcalloc((size_t)(k > 0 ? k : 1), sizeof *idx);
	const int lg = trace_op_at(r, "logits");
	text_line(b, 0, nm->op[lg], r->ops[lg].v, r->ops[lg].len,
		  o->precision);
	text_line_eq(b, 0, nm->symbol, nm->formula, r->result, r->len,
		     o->precision);
	k = text_top(idx, r->result, r->len, k);
	/* TRANSLATORS: the k likeliest target words follow */
	fmt_buf_printf(b, _("top %d:"), k);
	for (int j = 0; j < k; j++) {
		if (j)
			fmt_buf_putc(b, ',');
		fmt_buf_putc(b, ' ');
		fmt_buf_puts(b, v->words[idx[j]]);
		fmt_buf_putc(b, ' ');
		text_num(b, r->result[idx[j]], o->precision, 0);
	}
	free(idx);
	fmt_buf_putc(b, '\n');
	fmt_buf_printf(b, _("output word: %s"), v->words[r->word]);
	if (tr->ntgt) {
		int want = r->t <= tr->ntgt ? tr->tgt[r->t - 1] : tr->m->eos;
		fmt_buf_printf(b, want == r->word ? _("  (target %s: right)")
			       : _("  (target %s: wrong)"), v->words[want]);
	}
	fmt_buf_putc(b, '\n');
}

/* The names text_rec() prints for r: only the symbol of many records,
 * and the operands' names only with the terms. */
static unsigned text_names_needed(const struct trace_rec *r, int terms)
{
	switch (r->kind) {
	case REC_SCORES:
	case REC_CONCAT:
	case REC_WEIGHTED:
		return TRACE_NAME_SYMBOL | TRACE_NAME_OPS;
	case REC_SOFTMAX:
		return TRACE_NAME_SYMBOL | TRACE_NAME_OPS;
	case REC_RNN:
	case REC_FORWARD:
	case REC_BACKWARD:
	case REC_SCORE:
		return terms ? TRACE_NAME_ALL
			     : TRACE_NAME_SYMBOL | TRACE_NAME_FORMULA;
	default:
		return TRACE_NAME_ALL;
	}
}

static void mat_rec(struct fmt_buf *b, const struct trace *tr,
		    const struct trace_rec *r, const struct fmt_opts *o);

/* A run's gradient paths (--gradient-paths), record r: L_t, then for
 * each source word dL_t/dh_i and its two parts, then their norms. */
static void text_gradpath(struct fmt_buf *b, const struct trace *tr,
			  const struct trace_rec *r, int prec)
{
	const int H = tr->m->H;
	char name[64];
	fmt_buf_printf(b, _("\n--- gradient paths of L_%d ---\n"), r->t);
	fmt_buf_printf(b, "L_%d = -log ŷ_%d[%s] = ", r->t, r->t,
		       tr->m->tgt.words[r->word]);
	text_num(b, trace_op_key(r, "loss")->v[0], prec, 0);
	fmt_buf_printf(b, _("\ndirect: through step %d's attention alone "
			    "(h_i as its key and value); through the "
			    "recurrence: the rest\n"), r->t);
	for (int i = 0; i < tr->n; i++) {
		snprintf(name, sizeof name, "∂L_%d/∂h_%d (%s)", r->t, i + 1,
			 tr->m->src.words[tr->src[i]]);
		text_line(b, 0, name, r->ops[0].v + (size_t)i * H, H, prec);
		for (int k = 1; k < 3; k++)
			text_line(b, 2, r->ops[k].name,
				  r->ops[k].v + (size_t)i * H, H, prec);
	}
	snprintf(name, sizeof name, "‖∂L_%d/∂h_i‖", r->t);
	text_line(b, 0, name, r->result, r->len, prec);
	for (int k = 3; k < 5; k++)
		text_line(b, 2, r->ops[k].name, r->ops[k].v, r->ops[k].len,
			  prec);
}


static void text_rec(struct fmt_buf *b, const struct trace *tr,
		     const struct trace_rec *r, const struct fmt_opts *o)
{
	if (r->rows > 1 || r->key) { /* a matrix record */
		mat_rec(b, tr, r, o);
		return;
	}
	struct trace_names nm;
	int prec = o->precision, cols;
	size_t at;
	trace_names_part(tr, r, &nm, text_names_needed(r, o->terms));
	switch (r->kind) {
	case REC_EMBED:
	case REC_CONTEXT:
	case REC_ATTENTIONAL:
	case REC_ANNOTATION:
	case REC_INIT:
	case REC_PATCH:
	case REC_SAMPLE:
	case REC_EXACT:
	case REC_GRADIENT:
	case REC_SAMPLES:
		for (int k = 0; k < r->nops; k++)
			if (!r->ops[k].input)
				text_line(b, 0, nm.op[k], r->ops[k].v,
					  r->ops[k].len,
					  fmt_op_prec(r, k, prec));
		text_line_titled(b, r, nm.symbol, nm.formula, prec);
		break;
	case REC_RNN:
	case REC_FORWARD:
	case REC_BACKWARD:
		text_rnn(b, tr, r, &nm, prec, o->terms);
		break;
	case REC_QUERY: /* "the query s_0 = ..." */
		text_line_titled(b, r, nm.symbol, nm.formula, prec);
		break;
	case REC_SCORE:
		text_score(b, r, &nm, prec, o->terms);
		break;
	case REC_SCORES:
	case REC_CONCAT:
		text_line(b, 0, nm.symbol, r->result, r->len, prec);
		break;
	case REC_SOFTMAX:
		text_softmax(b, r, &nm, prec);
		break;
	case REC_WEIGHTED:
		/* "%s = %s×%s", the symbol, the weight and the vector's
		 * name (h_i; calc's v_i), ASCII but for '×' */
		cols = fmt_buf_put_cols(b, nm.symbol);
		at = b->len;
		TEXT_LIT(b, " = ");
		text_num(b, trace_op(r, "weight")->v[0], prec, 0);
		TEXT_LIT(b, "×");
		fmt_buf_puts(b, nm.op[trace_op_at(r, "h")]);
		cols += (int)(b->len - at) - 1;
		text_line_end(b, cols, r->result, r->len, prec);
		break;
	case REC_OUTPUT:
		text_output(b, tr, r, &nm, o);
		break;
	case REC_POSITION:
		text_position(b, tr, r, &nm, prec);
		break;
	case REC_WINDOW:
		text_window(b, tr, r, &nm, prec);
		break;
	case REC_GAUSS:
		text_gauss(b, r, &nm, prec);
		break;
	case REC_GRADPATH: /* after the run */
		text_gradpath(b, tr, r, prec);
		break;
	case REC_X: /* matrix records: mat_rec() */
	case REC_PROJECT:
	case REC_HEAD_SCORES:
	case REC_MASK:
	case REC_ROW_SOFTMAX:
	case REC_HEAD_Z:
	case REC_HEADS_CONCAT:
	case REC_KIND_COUNT:
		break;
	}
}

static void text_words(struct fmt_buf *b, const struct vocab *v, const int *w, int n)
{
	for (int k = 0; k < n; k++) {
		if (k)
			fmt_buf_putc(b, ' ');
		fmt_buf_puts(b, v->words[w[k]]);
	}
}

/* The header's line of --set edit k: "set: NAME = VALUE (was OLD)"; an
 * intermediate's old value is each run's ("was dot 0.1, general 0.2";
 * "dot: not reached" for a step a greedy run did not make). */
static void text_set_line(struct fmt_buf *b, const struct trace *tr,
			  const struct fmt_opts *o, int k)
{
	const struct whatif_edit *e = &o->set[k];
	fmt_buf_printf(b, "set: %s = ", e->name);
	text_num(b, e->value, o->precision, 0);
	fmt_buf_puts(b, " (was ");
	if (e->what == WHATIF_MODEL || !tr->set_old)
		text_num(b, e->old, o->precision, 0);
	for (int r = 0; e->what != WHATIF_MODEL && tr->set_old &&
			r < tr->nruns; r++) {
		double old = tr->set_old[r * tr->cfg.nset + k];
		if (r)
			fmt_buf_puts(b, ", ");
		if (tr->nruns > 1 || isnan(old))
			fmt_buf_printf(b, "%s ",
				       trace_scorer_name(tr->runs[r].scorer));
		if (isnan(old))
			fmt_buf_puts(b, _("not reached"));
		else
			text_num(b, old, o->precision, 0);
	}
	fmt_buf_puts(b, ")\n");
}

static void text_header(struct fmt_buf *b, const struct trace *tr,
			const struct fmt_opts *o)
{
	const struct model *m = tr->m;
	fmt_buf_printf(b, "%s\n", FMT_TEXT_VERSION);
	if (o->pair)
		fmt_buf_printf(b, "pair: line %d\n", o->pair);
	/* the header's keys ("model:", "source:", ...) stay English: a
	 * script may read them; the words in parentheses are prose */
	fmt_buf_printf(b, _("model: %s (embedding %d, hidden %d, attention "
			    "%d)\n"), m->name, m->E, m->H, m->A);
	for (int k = 0; k < o->nset; k++)
		text_set_line(b, tr, o, k);
	if (tr->arch != ARCH_DEFAULT)
		fmt_buf_printf(b, "architecture: %s (%s)\n",
			       arch_get(tr->arch)->name,
			       _(arch_get(tr->arch)->summary));
	if (tr->cfg.window != WINDOW_DEFAULT
	    && window_get(tr->cfg.window)->sizeless)
		fmt_buf_printf(b, "window: %s (%s)\n",
			       window_get(tr->cfg.window)->name,
			       _(window_get(tr->cfg.window)->summary));
	else if (tr->cfg.window != WINDOW_DEFAULT)
		fmt_buf_printf(b, "window: %s, D = %d (%s)\n",
			       window_get(tr->cfg.window)->name,
			       tr->cfg.window_size,
			       _(window_get(tr->cfg.window)->summary));
	if (tr->enc)
		fmt_buf_printf(b, "encoder: %s (%s)\n", tr->enc->name,
			       _(tr->enc->summary));
	fmt_buf_puts(b, "source: ");
	text_words(b, &m->src, tr->src, tr->n);
	if (tr->enc)
		fmt_buf_printf(b, " (%d %s)\n", tr->n, _(tr->enc->items));
	else
		fmt_buf_printf(b, ngettext(" (%d word)\n", " (%d words)\n",
					   (unsigned long)tr->n), tr->n);
	if (tr->ntgt) {
		fmt_buf_puts(b, "target: ");
		text_words(b, &m->tgt, tr->tgt, tr->ntgt);
		fmt_buf_printf(b, _(" (teacher forcing, %d steps)\n"),
			       tr->ntgt + 1);
	} else {
		fmt_buf_printf(b, _("target: none (greedy decoding, at most "
				    "%d steps)\n"), tr->max_steps);
	}
	fmt_buf_puts(b, "scorers:");
	for (int k = 0; k < tr->nruns; k++)
		fmt_buf_printf(b, " %s", trace_scorer_name(tr->runs[k].scorer));
	fmt_buf_printf(b, "\nprecision: %d\n", o->precision);
}

/* The record of base (the unedited trace) at the place of r in tr: the
 * same offset from the encoder's first record or from its step's, and
 * of the same kind, run, step and word; or NULL (a step base did not
 * reach). */
static const struct trace_rec *text_base_rec(const struct trace *base,
					     const struct trace *tr,
					     const struct trace_rec *r)
{
	long k = (long)(r - tr->recs), bk;
	if (r->run < 0) {
		bk = base->enc_first_rec + (k - tr->enc_first_rec);
	} else {
		const struct trace_run *ru = &tr->runs[r->run];
		if (r->run >= base->nruns || r->t < 1 ||
		    r->t > base->runs[r->run].nsteps)
			return NULL;
		bk = base->runs[r->run].step_first[r->t - 1] +
		     (k - ru->step_first[r->t - 1]);
	}
	if (bk < 0 || bk >= base->nrecs)
		return NULL;
	const struct trace_rec *rb = &base->recs[bk];
	return rb->kind == r->kind && rb->run == r->run && rb->t == r->t &&
	       rb->i == r->i ? rb : NULL;
}

/* text_rec(), and with --set (o->base) each changed number's old value
 * under it (fmt_mark_changes). */
static void text_rec_marked(struct fmt_buf *b, const struct trace *tr,
			    const struct trace_rec *r,
			    const struct fmt_opts *o)
{
	size_t at = b->len;
	text_rec(b, tr, r, o);
	const struct trace_rec *rb = o->base ? text_base_rec(o->base, tr, r)
					     : NULL;
	if (!rb)
		return;
	struct fmt_buf old = FMT_BUF_INIT;
	text_rec(&old, o->base, rb, o);
	fmt_mark_changes(b, at, old.p, old.len);
	fmt_buf_free(&old);
	fmt_set_notes(b, tr, r, o->precision, 0);
}

/* Prints the records [first, first + count), with a heading wherever the
 * stage changes. */
static void text_recs(struct fmt_buf *b, const struct trace *tr, int first, int count,
		      const struct fmt_opts *o)
{
	int stage = -1;
	for (int k = first; k < first + count; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (!(o->stages & (1u << r->stage)))
			continue;
		if ((int)r->stage != stage) {
			stage = (int)r->stage;
			TEXT_LIT(b, "\n--- ");
			fmt_buf_puts(b, trace_stage_name(stage));
			TEXT_LIT(b, " ---\n");
		}
		text_rec_marked(b, tr, r, o);
	}
}

/* The run's line "\nSCORER output: WORDS" (and why it stopped). */
static void text_run_output(struct fmt_buf *b, const struct trace *tr,
			    int run)
{
	const struct trace_run *ru = &tr->runs[run];
	fmt_buf_printf(b, _("\n%s output: "), trace_scorer_name(ru->scorer));
	text_words(b, &tr->m->tgt, ru->pred, ru->nsteps);
	if (!tr->ntgt && !ru->stopped)
		fmt_buf_printf(b, _(" (stopped at the limit of %d steps)"),
			       tr->max_steps);
	fmt_buf_putc(b, '\n');
}

static void text_run(struct fmt_buf *b, const struct trace *tr, int run,
		     const struct fmt_opts *o)
{
	const struct trace_run *ru = &tr->runs[run];
	const struct vocab *v = &tr->m->tgt;
	char formula[128];
	/* TRANSLATORS: %1$s the scorer's name, %2$d of %3$d its place
	 * among the runs, %4$s its formula */
	fmt_buf_printf(b, _("\n==== %1$s scorer (%2$d of %3$d): %4$s ====\n"),
		trace_scorer_name(ru->scorer), run + 1, tr->nruns,
		fmt_scorer_formula(tr, ru->scorer, formula, sizeof formula));
	for (int t = 1; t <= ru->nsteps; t++) {
		int first = ru->step_first[t - 1];
		int end = t < ru->nsteps ? ru->step_first[t]
					 : ru->first_rec + ru->nrecs;
		/* TRANSLATORS: %1$s the scorer's name, %2$d the step t,
		 * %3$s the word the decoder reads */
		fmt_buf_printf(b, _("\n=== %1$s, t=%2$d: the decoder reads "
				    "%3$s ===\n"), trace_scorer_name(ru->scorer),
			       t, v->words[ru->input[t - 1]]);
		text_recs(b, tr, first, end - first, o);
	}
	size_t at = b->len;
	text_run_output(b, tr, run);
	if (o->base && run < o->base->nruns) {
		struct fmt_buf old = FMT_BUF_INIT;
		text_run_output(&old, o->base, run);
		fmt_mark_changes(b, at, old.p, old.len);
		fmt_buf_free(&old);
	}
	if (!gradpath_find(tr, run))
		return;
	at = b->len;
	text_gradpath(b, tr, gradpath_find(tr, run), o->precision);
	if (o->base && run < o->base->nruns && gradpath_find(o->base, run)) {
		struct fmt_buf old = FMT_BUF_INIT;
		text_gradpath(&old, o->base, gradpath_find(o->base, run),
			      o->precision);
		fmt_mark_changes(b, at, old.p, old.len);
		fmt_buf_free(&old);
	}
}

/* "NAME by word: w1 x1, w2 x2, ...": each entry of v (over r's axis) with
 * the word it stands for. */
static void text_by_word(struct fmt_buf *b, const struct trace *tr,
			 const char *name, enum op_axis axis, const double *v,
			 int n, int prec)
{
	fmt_buf_puts(b, name);
	TEXT_LIT(b, " by word:");
	for (int k = 0; k < n; k++) {
		fmt_buf_puts(b, k ? ", " : " ");
		fmt_buf_puts(b, axis == AXIS_VOCAB ? tr->m->tgt.words[k]
			     : tr->m->src.words[tr->src[k]]);
		fmt_buf_putc(b, ' ');
		text_num(b, v[k], prec, 0);
	}
	fmt_buf_putc(b, '\n');
}

void fmt_text_rec_buf(struct fmt_buf *b, const struct trace *tr,
		      const struct trace_rec *r, const struct fmt_opts *o)
{
	text_rec(b, tr, r, o);
}

void fmt_text_rec(FILE *out, const struct trace *tr,
		  const struct trace_rec *r, const struct fmt_opts *o)
{
	struct fmt_buf b = FMT_BUF_INIT;
	text_rec(&b, tr, r, o);
	if (r->kind == REC_OUTPUT && !o->no_by_word) { /* a word each */
		struct trace_names nm;
		trace_names(tr, r, &nm);
		const struct trace_operand *lg = trace_op(r, "logits");
		text_by_word(&b, tr, "logits", lg->axis, lg->v, lg->len,
			     o->precision);
		text_by_word(&b, tr, nm.symbol, r->result_axis, r->result,
			     r->len, o->precision);
	}
	fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
}

void fmt_text_line(FILE *out, int indent, const char *label,
		   const double *v, int n, int prec)
{
	struct fmt_buf b = FMT_BUF_INIT;
	text_line(&b, indent, label, v, n, prec);
	fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
}

/* ------------------------------------------------------ matrix records */

/* Self-attention's records (trace.h): each a matrix, shown a row or an
 * entry a line, every entry of a product term by term. */

/* The name of entry (row, col) of r: its symbol, formula and operands'. */
static void mat_names(const struct trace *tr, const struct trace_rec *r,
		      int row, int col, struct trace_names *nm)
{
	struct trace_rec cell;
	trace_cell(tr, r, row, col, &cell);
	trace_names(tr, &cell, nm);
}

/* " (word)" after a label, for a row over tokens; returns its columns. */
static int mat_word(struct fmt_buf *b, const struct trace *tr,
		    enum op_axis axis, int row)
{
	const char *w = trace_axis_word(tr, axis, row);
	if (!w)
		return 0;
	TEXT_LIT(b, " (");
	int cols = 3 + fmt_buf_put_cols(b, w);
	fmt_buf_putc(b, ')');
	return cols;
}

/* "a×b + c×d": the terms of entry (i, j) of product record r. */
static void mat_terms(struct fmt_buf *b, const struct trace_rec *r, int i,
		      int j, int prec)
{
	const struct trace_operand *A = &r->ops[r->term_ops[0]];
	const struct trace_operand *B = &r->ops[r->term_ops[1]];
	const int K = A->len / A->rows, bcols = B->len / B->rows;
	/* a weight's factor first, as W·x is written */
	const int wfirst = B->role == OP_WEIGHT;
	for (int k = 0; k < K; k++) {
		double a = A->v[i * K + k];
		double c = r->matmul == MATMUL_ABT ? B->v[j * K + k]
						   : B->v[k * bcols + j];
		if (k)
			TEXT_LIT(b, " + ");
		text_num(b, wfirst ? c : a, prec, 1);
		fmt_buf_puts(b, "×");
		text_num(b, wfirst ? a : c, prec, 1);
	}
}

/* A number, or "-inf". */
static void mat_num(struct fmt_buf *b, double x, int prec)
{
	if (x == -INFINITY)
		TEXT_LIT(b, "-inf");
	else
		text_num(b, x, prec, 0);
}

/* The rows of operand k of r, a line each, with their word. */
static void mat_op_rows(struct fmt_buf *b, const struct trace *tr,
			const struct trace_rec *r, int k, int prec)
{
	const struct trace_operand *op = &r->ops[k];
	const int cols = op->len / op->rows;
	for (int i = 0; i < op->rows; i++) {
		struct trace_names nm;
		mat_names(tr, r, i, 0, &nm);
		int w = fmt_buf_put_cols(b, nm.op[k]);
		w += mat_word(b, tr, op->row_axis, i);
		text_line_end(b, w, op->v + (size_t)i * cols, cols, prec);
	}
}

/* The operand of r shaped as its result that is its product before the
 * divisor, or -1. */
static int mat_same_shape(const struct trace_rec *r)
{
	if (!r->divisor)
		return -1;
	for (int k = 0; k < r->nops; k++)
		if (r->ops[k].role == OP_MID && r->ops[k].len == r->len &&
		    r->ops[k].rows == r->rows)
			return k;
	return -1;
}

/* A product whose columns are tokens (the scores): an entry a line,
 * "s_1,2 = (a×b + c×d) / 1.4142 = 1 / 1.4142 = 0.7071". */
static void mat_cells(struct fmt_buf *b, const struct trace *tr,
		      const struct trace_rec *r, int prec)
{
	const int cols = r->len / r->rows, prod = mat_same_shape(r);
	for (int i = 0; i < r->rows; i++)
		for (int j = 0; j < cols; j++) {
			struct trace_names nm;
			mat_names(tr, r, i, j, &nm);
			fmt_buf_puts(b, nm.symbol);
			TEXT_LIT(b, " = ");
			if (r->divisor)
				fmt_buf_putc(b, '(');
			mat_terms(b, r, i, j, prec);
			if (r->divisor) {
				TEXT_LIT(b, ") / ");
				text_num(b, *r->divisor, prec, 0);
				if (prod >= 0) {
					TEXT_LIT(b, " = ");
					text_num(b, r->ops[prod].v[i * cols + j],
						 prec, 0);
					TEXT_LIT(b, " / ");
					text_num(b, *r->divisor, prec, 0);
				}
			}
			TEXT_LIT(b, " = ");
			mat_num(b, r->result[i * cols + j], prec);
			fmt_buf_putc(b, '\n');
		}
}

/* A row of r: "q_1 = W_Q·x_1 (je)   (4) [...]". */
static void mat_row(struct fmt_buf *b, const struct trace *tr,
		    const struct trace_rec *r, int i, int prec)
{
	const int cols = r->len / r->rows;
	struct trace_names nm;
	mat_names(tr, r, i, 0, &nm);
	int w = fmt_buf_put_cols(b, nm.symbol);
	if (nm.formula[0]) {
		TEXT_LIT(b, " = ");
		w += 3 + fmt_buf_put_cols(b, nm.formula);
	}
	if (r->kind != REC_X)
		w += mat_word(b, tr, r->row_axis, i);
	text_line_end(b, w, r->result + (size_t)i * cols, cols, prec);
}

/* The softmax of each row: its max, each exp, the sum, the weights. */
static void mat_softmax(struct fmt_buf *b, const struct trace *tr,
			const struct trace_rec *r, int prec)
{
	const int cols = r->len / r->rows, k_ex = trace_op_at(r, "exp");
	const double *max = trace_op(r, "max")->v;
	const double *shifted = trace_op(r, "shifted")->v;
	const double *ex = r->ops[k_ex].v, *sum = trace_op(r, "sum")->v;
	for (int i = 0; i < r->rows; i++) {
		struct trace_names nm;
		TEXT_LIT(b, "row ");
		fmt_buf_int(b, i + 1);
		mat_word(b, tr, r->row_axis, i);
		TEXT_LIT(b, ": max = ");
		text_num(b, max[i], prec, 0);
		fmt_buf_putc(b, '\n');
		for (int j = 0; j < cols; j++) {
			mat_names(tr, r, i, j, &nm);
			TEXT_LIT(b, "  ");
			fmt_buf_puts(b, nm.op[k_ex]);
			TEXT_LIT(b, " = exp(");
			if (shifted[i * cols + j] == -INFINITY) {
				TEXT_LIT(b, "-inf) = 0\n"); /* masked: exactly */
				continue;
			}
			text_num(b, shifted[i * cols + j], prec, 0);
			TEXT_LIT(b, ") = ");
			text_num(b, ex[i * cols + j], prec, 0);
			fmt_buf_putc(b, '\n');
		}
		TEXT_LIT(b, "  sum = ");
		text_num(b, sum[i], prec, 0);
		fmt_buf_putc(b, '\n');
		mat_row(b, tr, r, i, prec);
	}
}

static void mat_rec(struct fmt_buf *b, const struct trace *tr,
		    const struct trace_rec *r, const struct fmt_opts *o)
{
	const int prec = o->precision, cols = r->len / r->rows;
	/* the operands made here and shaped otherwise than the result (the
	 * head's slices of Q, K and V), a row a line */
	if (r->kind != REC_X && r->kind != REC_ROW_SOFTMAX)
		for (int k = 0; k < r->nops; k++)
			if (r->ops[k].role == OP_MID && r->ops[k].rows > 1 &&
			    k != mat_same_shape(r))
				mat_op_rows(b, tr, r, k, prec);
	if (r->title) { /* then what the record says before its numbers */
		char title[128];
		trace_expand(title, sizeof title, text_tr(r->title), tr, r);
		fmt_buf_puts(b, title);
		fmt_buf_putc(b, '\n');
	}
	switch (r->kind) {
	case REC_ROW_SOFTMAX:
		mat_softmax(b, tr, r, prec);
		return;
	case REC_MASK:
		for (int i = 0; i < r->rows; i++)
			for (int j = 0; j < cols; j++) {
				struct trace_names nm;
				double s = trace_op(r, "scores")->v[i * cols + j];
				if (r->result[i * cols + j] == s)
					continue;
				mat_names(tr, r, i, j, &nm);
				fmt_buf_puts(b, nm.symbol);
				TEXT_LIT(b, " = ");
				text_num(b, s, prec, 0);
				TEXT_LIT(b, " -> -inf\n");
			}
		return;
	default:
		break;
	}
	if (r->matmul != MATMUL_NONE && r->result_axis != AXIS_NONE) {
		mat_cells(b, tr, r, prec);
		return;
	}
	for (int i = 0; i < r->rows; i++) {
		mat_row(b, tr, r, i, prec);
		if (r->kind == REC_X && r->nops > 1) /* E and PE */
			for (int k = 0; k < r->nops; k++) {
				struct trace_names nm;
				mat_names(tr, r, i, 0, &nm);
				text_line(b, 2, nm.op[k], r->ops[k].v +
					  (size_t)i * cols, cols, prec);
			}
		if (r->matmul == MATMUL_NONE || !o->terms)
			continue;
		for (int j = 0; j < cols; j++) { /* "  q_1[2] = a×b + ... = r" */
			struct trace_names nm;
			mat_names(tr, r, i, j, &nm);
			TEXT_LIT(b, "  ");
			fmt_buf_puts(b, nm.symbol);
			fmt_buf_putc(b, '[');
			fmt_buf_int(b, j + 1);
			TEXT_LIT(b, "] = ");
			mat_terms(b, r, i, j, prec);
			TEXT_LIT(b, " = ");
			text_num(b, r->result[i * cols + j], prec, 0);
			fmt_buf_putc(b, '\n');
		}
	}
}

static void mat_section_title(struct fmt_buf *b, const struct trace *tr,
			      const struct trace_rec *r)
{
	char title[96];
	fmt_buf_printf(b, "\n--- %d. ", fmt_mat_section(tr, r, title,
							sizeof title));
	fmt_buf_puts(b, title);
	TEXT_LIT(b, " ---\n");
}

static void mat_header(struct fmt_buf *b, const struct trace *tr,
		       const struct fmt_opts *o)
{
	const struct trace_self *s = &tr->self;
	/* the header's keys stay English, as in fmt_text_header() */
	fmt_buf_printf(b, "%s\n", FMT_SELF_TEXT_VERSION);
	fmt_buf_printf(b, _("model: %s (d_model %d, %d heads of d_k = d_v = "
			    "%d)\n"), tr->m->name, s->d, s->heads, s->dk);
	fmt_buf_puts(b, s->cross
		? _("attention: cross (queries from the target words; keys "
		    "and values from the source words)\n")
		: _("attention: self (queries, keys and values from the "
		    "source words)\n"));
	fmt_buf_puts(b, "source: ");
	text_words(b, &tr->m->src, tr->src, tr->n);
	fmt_buf_printf(b, ngettext(" (%d word)\n", " (%d words)\n",
				   (unsigned long)tr->n), tr->n);
	if (s->cross) {
		fmt_buf_puts(b, "target: ");
		text_words(b, &tr->m->tgt, tr->tgt, tr->ntgt);
		fmt_buf_printf(b, ngettext(" (%d word)\n", " (%d words)\n",
					   (unsigned long)tr->ntgt), tr->ntgt);
	}
	fmt_buf_printf(b, "mask: %s\npositions: %s\nheads shown:",
		       s->causal ? _("causal (e_i,j = -inf where j > i)")
		       : _("none"),
		       s->position ? _("sin/cos added, from position 0")
				   : _("none (--no-position)"));
	for (int h = 0; h < s->heads; h++)
		if (s->shown & (1u << h))
			fmt_buf_printf(b, " %d", h + 1);
	fmt_buf_printf(b, "\nprecision: %d\n", o->precision);
}

static void mat_trace(struct fmt_buf *b, const struct trace *tr,
		      const struct fmt_opts *o)
{
	int section = 0, head = -1;
	mat_header(b, tr, o);
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		int sec = fmt_mat_section(tr, r, NULL, 0);
		if (sec != section || r->head != head) {
			section = sec;
			head = r->head;
			mat_section_title(b, tr, r);
		}
		mat_rec(b, tr, r, o);
	}
}

int fmt_text_trace(FILE *out, const struct trace *tr,
		   const struct fmt_opts *o)
{
	struct fmt_buf b = FMT_BUF_INIT;
	int rc;
	fmt_buf_grow(&b, FMT_BUF_TRACE);
	if (tr->prog == TRACE_SELF) {
		mat_trace(&b, tr, o);
		rc = fmt_buf_flush(&b, out);
		fmt_buf_free(&b);
		return rc;
	}
	text_header(&b, tr, o);
	text_recs(&b, tr, tr->enc_first_rec, tr->enc_nrecs, o);
	for (int k = 0; k < tr->nruns; k++)
		text_run(&b, tr, k, o);
	rc = fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
	return rc;
}
