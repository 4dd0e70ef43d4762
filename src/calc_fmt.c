/* calc_fmt.c: calc's trace as text and JSON (calc.h).  The text is each
 * record as fmt_text_rec() prints it in a trace; the JSON names every
 * input, weight and intermediate (doc/trace-format.md, "calc"). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "calc.h"
#include "i18n.h"
#include "scorer.h"

#define CALC_JSON_VERSION "attn-trace-calc/1"

/* The inputs and weights, as text. */
static void calc_text_inputs(FILE *out, const struct calc *c, int prec)
{
	const struct calc_in *in = c->in;
	char name[48], label[64];
	int r, cols;
	fprintf(out, ngettext("query s_1 (d = %d), %d key h_i and value v_i "
		"(d_v = %d)\n", "query s_1 (d = %d), %d keys h_i and values "
		"v_i (d_v = %d)\n", in->n), in->d, in->n, in->dv);
	fmt_text_line(out, 2, "s_1", in->q, in->d, prec);
	for (int i = 0; i < in->n; i++) {
		snprintf(label, sizeof label, "h_%d", i + 1);
		fmt_text_line(out, 2, label, in->K[i], in->d, prec);
	}
	for (int i = 0; i < in->n; i++) {
		snprintf(label, sizeof label, "v_%d", i + 1);
		fmt_text_line(out, 2, label, in->V[i], in->dv, prec);
	}
	int np = calc_weight_shape(in->scorer, 0, in->d, in->n, name, &r,
				   &cols);
	if (np)
		fputs(c->random ? _("weights (drawn at random from --seed):\n")
		      : _("weights (from the file):\n"), out);
	for (int k = 0; k < np; k++) {
		calc_weight_shape(in->scorer, k, in->d, in->n, name, &r, &cols);
		for (int j = 0; j < r; j++) {
			snprintf(label, sizeof label, "%s[%d]", name, j + 1);
			fmt_text_line(out, 2, label,
				      c->m.sw[in->scorer][k] + (size_t)j * cols,
				      cols, prec);
		}
	}
}

int calc_fmt_text(FILE *out, const struct calc *c, const struct fmt_opts *o)
{
	const struct trace *tr = &c->tr;
	const struct scorer_class *cls = scorer_get(c->in->scorer);
	int stage = -1;
	fprintf(out, _("attn-trace calc: attention on any vectors, scorer %s: "
		"%s\n"), cls->name, cls->formula);
	calc_text_inputs(out, c, o->precision);
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if ((int)r->stage != stage) {
			stage = (int)r->stage;
			fprintf(out, "\n== %s ==\n", trace_stage_name(r->stage));
		}
		fmt_text_rec(out, tr, r, o);
	}
	return ferror(out) ? -1 : 0;
}

/* "key": [rows of cols] */
static void calc_json_mat(struct fmt_buf *b, const char *key,
			  const double *v, int rows, int cols, int stride)
{
	fmt_buf_printf(b, ",\n  \"%s\": [", key);
	for (int j = 0; j < rows; j++) {
		fmt_buf_puts(b, j ? ", " : "");
		fmt_buf_json_vec(b, v + (size_t)j * stride, cols);
	}
	fmt_buf_putc(b, ']');
}

/* The scorer's weights under their keys ("W", "v"). */
static void calc_json_weights(struct fmt_buf *b, const struct calc *c)
{
	const struct calc_in *in = c->in;
	const struct scorer_class *cls = scorer_get(in->scorer);
	char name[48];
	int r, cols;
	fmt_buf_puts(b, ",\n  \"weights\": {");
	for (int k = 0; k < cls->nparams; k++) {
		calc_weight_shape(in->scorer, k, in->d, in->n, name, &r, &cols);
		fmt_buf_puts(b, k ? ", " : "");
		fmt_buf_json_string(b, cls->params[k].key);
		fmt_buf_puts(b, ": ");
		if (cls->params[k].rows == DIM_ONE) { /* a vector: flat */
			fmt_buf_json_vec(b, c->m.sw[in->scorer][k], cols);
			continue;
		}
		fmt_buf_putc(b, '[');
		for (int j = 0; j < r; j++) {
			fmt_buf_puts(b, j ? ", " : "");
			fmt_buf_json_vec(b, c->m.sw[in->scorer][k] +
					 (size_t)j * cols, cols);
		}
		fmt_buf_putc(b, ']');
	}
	fmt_buf_putc(b, '}');
}

/* One score e_i: its value, its terms, and every intermediate the
 * scorer recorded under its plain name. */
static void calc_json_score(struct fmt_buf *b, const struct trace_rec *r)
{
	fmt_buf_printf(b, "{\"i\": %d, \"e\": ", r->i);
	fmt_buf_json_num(b, r->result[0]);
	for (int j = 0; j < r->nops; j++)
		if (r->ops[j].role == OP_MID && r->ops[j].key) {
			fmt_buf_printf(b, ", \"%s\": ", r->ops[j].key);
			fmt_buf_json_vec(b, r->ops[j].v, r->ops[j].len);
		}
	fmt_buf_puts(b, ", \"terms\": [");
	for (int k = 0; k < r->nterms; k++) {
		fmt_buf_puts(b, k ? ", " : "");
		fmt_buf_json_vec(b, r->terms + 2 * k, 2);
	}
	fmt_buf_putc(b, ']');
	if (r->divisor) {
		fmt_buf_puts(b, ", \"divisor\": ");
		fmt_buf_json_num(b, *r->divisor);
	}
	fmt_buf_putc(b, '}');
}

/* The softmax's numbers: max, shifted, exp, sum and the weights. */
static void calc_json_softmax(struct fmt_buf *b, const struct trace_rec *r)
{
	static const char *const ids[] = { "max", "shifted", "exp", "sum" };
	fmt_buf_puts(b, ",\n  \"softmax\": {");
	for (int k = 0; k < 4; k++) {
		const struct trace_operand *op = trace_op(r, ids[k]);
		fmt_buf_printf(b, "%s\"%s\": ", k ? ", " : "", ids[k]);
		if (op->len == 1 && (k == 0 || k == 3))
			fmt_buf_json_num(b, op->v[0]);
		else
			fmt_buf_json_vec(b, op->v, op->len);
	}
	fmt_buf_puts(b, ", \"weights\": ");
	fmt_buf_json_vec(b, r->result, r->len);
	fmt_buf_putc(b, '}');
}

/* Joins b's lines into one: each '\n' but the last and the blanks after
 * it become one space. */
static void calc_json_compact(struct fmt_buf *b)
{
	size_t w = 0;
	for (size_t r = 0; r < b->len; r++) {
		if (b->p[r] == '\n' && r + 1 < b->len) {
			while (r + 1 < b->len && b->p[r + 1] == ' ')
				r++;
			b->p[w++] = ' ';
			continue;
		}
		b->p[w++] = b->p[r];
	}
	b->len = w;
}

int calc_fmt_json(FILE *out, const struct calc *c, const struct fmt_opts *o)
{
	const struct calc_in *in = c->in;
	const struct trace *tr = &c->tr;
	struct fmt_buf b = FMT_BUF_INIT;
	fmt_buf_printf(&b, "{\"format\": \"%s\",\n  \"scorer\": ",
		       CALC_JSON_VERSION);
	fmt_buf_json_string(&b, scorer_get(in->scorer)->name);
	fmt_buf_printf(&b, ",\n  \"d\": %d, \"d_v\": %d, \"n\": %d, "
		       "\"weights_from\": \"%s\"", in->d, in->dv, in->n,
		       c->random ? "seed" : scorer_get(in->scorer)->nparams
		       ? "file" : "none");
	if (c->random)
		fmt_buf_printf(&b, ", \"seed\": %llu", in->seed);
	fmt_buf_puts(&b, ",\n  \"query\": ");
	fmt_buf_json_vec(&b, in->q, in->d);
	calc_json_mat(&b, "keys", in->K[0], in->n, in->d, CALC_MAX_DIM);
	calc_json_mat(&b, "values", in->V[0], in->n, in->dv, CALC_MAX_DIM);
	calc_json_weights(&b, c);
	fmt_buf_puts(&b, ",\n  \"scores\": [");
	for (int i = 1; i <= in->n; i++) {
		fmt_buf_puts(&b, i > 1 ? ",\n    " : "\n    ");
		calc_json_score(&b, trace_find(tr, REC_SCORE, 0, 1, i));
	}
	fmt_buf_puts(&b, "],\n  \"e\": ");
	fmt_buf_json_vec(&b, trace_find(tr, REC_SCORES, 0, 1, 0)->result,
			 in->n);
	calc_json_softmax(&b, trace_find(tr, REC_SOFTMAX, 0, 1, 0));
	const struct trace_rec *ctx = trace_find(tr, REC_CONTEXT, 0, 1, 0);
	calc_json_mat(&b, "weighted", trace_op(ctx, "terms")->v, in->n,
		      in->dv, in->dv);
	fmt_buf_puts(&b, ",\n  \"output\": ");
	fmt_buf_json_vec(&b, ctx->result, ctx->len);
	fmt_buf_puts(&b, "}\n");
	if (o->compact) /* JSON Lines: each line break and its indent out
			   (no string here holds one), but the last */
		calc_json_compact(&b);
	int rc = fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
	return rc;
}
