/* calc_md.c: calc's trace as Markdown (calc.h): the numbers of the JSON
 * (calc_fmt.c) as tables, for handouts (doc/trace-format.md, "calc").
 * It writes what calc_build() recorded and computes nothing. */
#include "config.h"

#include <stdio.h>

#include "calc.h"
#include "i18n.h"
#include "num.h"
#include "scorer.h"

/* "| label | `[a, b]` |": one row of the inputs' table. */
static void calc_md_row(FILE *out, const char *label, const double *v,
			int n, int prec)
{
	fputs("| ", out);
	fmt_md_text(out, label);
	fputs(" | ", out);
	fmt_md_vec(out, v, n, prec);
	fputs(" |\n", out);
}

/* The query, keys, values and the scorer's weights, a row each. */
static void calc_md_inputs(FILE *out, const struct calc *c, int prec)
{
	const struct calc_in *in = c->in;
	char name[48], label[64];
	int r, cols;
	fprintf(out, "\n## %s\n\n| %s | %s |\n|---|---|\n", _("Inputs"),
		_("vector"), _("numbers"));
	calc_md_row(out, "s_1", in->q, in->d, prec);
	for (int i = 0; i < in->n; i++) {
		snprintf(label, sizeof label, "h_%d", i + 1);
		calc_md_row(out, label, in->K[i], in->d, prec);
	}
	for (int i = 0; i < in->n; i++) {
		snprintf(label, sizeof label, "v_%d", i + 1);
		calc_md_row(out, label, in->V[i], in->dv, prec);
	}
	int np = calc_weight_shape(in->scorer, 0, in->d, in->n, name, &r,
				   &cols);
	for (int k = 0; k < np; k++) {
		calc_weight_shape(in->scorer, k, in->d, in->n, name, &r, &cols);
		for (int j = 0; j < r; j++) {
			snprintf(label, sizeof label, "%s[%d]", name, j + 1);
			calc_md_row(out, label, c->m.sw[in->scorer][k] +
				    (size_t)j * cols, cols, prec);
		}
	}
}

/* "a·b + c·(-d)": the terms of r, a negative factor in parentheses. */
static void calc_md_terms(FILE *out, const struct trace_rec *r, int prec)
{
	char buf[NUM_BUFSZ];
	for (int k = 0; k < r->nterms; k++) {
		fputs(k ? " + " : "", out);
		for (int j = 0; j < 2; j++) {
			double x = r->terms[2 * k + j];
			fprintf(out, x < 0 ? "%s(%s)" : "%s%s", j ? "·" : "",
				num_fixed(buf, x, prec));
		}
	}
}

/* Score i: a row "| i | e_i | terms | intermediates |". */
static void calc_md_score(FILE *out, const struct trace_rec *r, int prec)
{
	char buf[NUM_BUFSZ];
	fprintf(out, "| %d | %s | `", r->i, num_fixed(buf, r->result[0], prec));
	if (r->divisor)
		fputs("(", out);
	calc_md_terms(out, r, prec);
	if (r->divisor)
		fprintf(out, ") / %s", num_fixed(buf, *r->divisor, prec));
	fputs("` |", out);
	int first = 1;
	for (int j = 0; j < r->nops; j++)
		if (r->ops[j].role == OP_MID && r->ops[j].key) {
			fputs(first ? " " : "; ", out);
			first = 0;
			fmt_md_text(out, r->ops[j].key);
			fputs(" = ", out);
			fmt_md_vec(out, r->ops[j].v, r->ops[j].len, prec);
		}
	fputs(" |\n", out);
}

/* The softmax and the weighted sum: a row a key, then the output. */
static void calc_md_sum(FILE *out, const struct trace *tr, int n, int dv,
			int prec)
{
	const struct trace_rec *sm = trace_find(tr, REC_SOFTMAX, 0, 1, 0);
	const struct trace_rec *ctx = trace_find(tr, REC_CONTEXT, 0, 1, 0);
	const double *sh = trace_op(sm, "shifted")->v;
	const double *ex = trace_op(sm, "exp")->v;
	char b[4][NUM_BUFSZ];
	fprintf(out, "\n## %s\n\nmax = %s, sum = "
		"%s\n\n| i | e_i − max | exp | α_i | α_i·v_i |\n"
		"|--:|--:|--:|--:|---|\n", _("Softmax and the weighted sum"),
		num_fixed(b[0], trace_op(sm, "max")->v[0], prec),
		num_fixed(b[1], trace_op(sm, "sum")->v[0], prec));
	for (int i = 0; i < n; i++) {
		fprintf(out, "| %d | %s | %s | %s | ", i + 1,
			num_fixed(b[0], sh[i], prec),
			num_fixed(b[1], ex[i], prec),
			num_fixed(b[2], sm->result[i], prec));
		fmt_md_vec(out, trace_op(ctx, "terms")->v + (size_t)i * dv,
			   dv, prec);
		fputs(" |\n", out);
	}
	fputs("\n", out);
	fputs(_("The output c_1 = Σ_i α_i·v_i = "), out);
	fmt_md_vec(out, ctx->result, ctx->len, prec);
	fputs("\n", out);
}

int calc_fmt_md(FILE *out, const struct calc *c, const struct fmt_opts *o)
{
	const struct calc_in *in = c->in;
	const struct scorer_class *cls = scorer_get(in->scorer);
	int prec = o->precision;
	fprintf(out, "# %s\n\n", _("attn-trace calc: attention on any "
				    "vectors"));
	fputs(_("Scorer "), out);
	fmt_md_text(out, cls->name);
	fputs(": `", out);
	fputs(cls->formula, out);
	fprintf(out, _("`; d = %d, d_v = %d, n = %d; weights %s; %d "
		       "digits.\n"),
		in->d, in->dv, in->n, c->random ? _("drawn from --seed") :
		cls->nparams ? _("from the file") : _("none"), prec);
	calc_md_inputs(out, c, prec);
	fprintf(out, "\n## %s\n\n| i | e_i | %s | %s |\n|--:|--:|---|---|\n",
		_("Scores"), _("terms"), _("intermediates"));
	for (int i = 1; i <= in->n; i++)
		calc_md_score(out, trace_find(&c->tr, REC_SCORE, 0, 1, i),
			      prec);
	calc_md_sum(out, &c->tr, in->n, in->dv, prec);
	return ferror(out) ? -1 : 0;
}
