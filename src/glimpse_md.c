/* glimpse_md.c: a glimpse trace as Markdown for handouts (glimpse_fmt.h;
 * the layout: doc/trace-format.md, "Glimpses").  Every number the JSON
 * holds, with o->precision digits; names escaped by fmt_md_text(). */
#include "config.h"

#include "fmt.h"
#include "glimpse_fmt.h"
#include "i18n.h"
#include "num.h"

/* "label = `[v]`\n\n" */
static void gm_vec(FILE *out, const char *label, const double *v, int n,
		   int prec)
{
	fprintf(out, "%s = `", label);
	fmt_text_vec(out, v, n, prec);
	fputs("`\n\n", out);
}

/* " x |" */
static void gm_cell(FILE *out, double x, int prec)
{
	char num[NUM_BUFSZ];
	fprintf(out, " %s |", num_fixed(num, x, prec));
}

/* The heading, the settings and the image's pixels as a table. */
static void gm_head(FILE *out, const struct glimpse_model *m,
		    const char *mname, const struct pgm_image *im,
		    const char *name, const struct glimpse_trace *tr,
		    const struct glimpse_out *o)
{
	char num[NUM_BUFSZ];
	fputs(_("# Glimpses on "), out);
	fmt_md_text(out, name);
	if (o->line > 0)
		fprintf(out, _(" (line %d)"), o->line);
	fputs("\n\n", out);
	fputs(_("Model "), out);
	fmt_md_text(out, mname);
	fprintf(out, _(": %d glimpses, σ = %s, places drawn: %s, seed %llu; "
		"classes"), m->steps, num_fixed(num, m->sigma, o->precision),
		glimpse_draw_name(tr->draw), (unsigned long long)tr->seed);
	for (int k = 0; k < m->nclass; k++) {
		fputs(k ? ", " : " ", out);
		fmt_md_text(out, m->cls[k]);
	}
	fputs(_("."), out); /* the sentence's full stop */
	fputs("\n\n", out);
	fprintf(out, _("The image, %d×%d pixels (0 black, 1 white):"),
		im->height, im->width);
	fprintf(out, "\n\n| %s |", _("row"));
	for (int c = 0; c < im->width; c++)
		fprintf(out, " %d |", c + 1);
	fputs("\n|--:|", out);
	for (int c = 0; c < im->width; c++)
		fputs("--:|", out);
	for (int r = 0; r < im->height; r++) {
		fprintf(out, "\n| %d |", r + 1);
		for (int c = 0; c < im->width; c++)
			gm_cell(out, im->pix[r * im->width + c], o->precision);
	}
	fputs("\n\n", out);
}

/* Glimpse t (from 0): its place as a table of rows and columns, then
 * its vectors. */
static void gm_step(FILE *out, const struct glimpse_model *m,
		    const struct glimpse_step *s, int t, int prec)
{
	char num[NUM_BUFSZ], lab[64];
	const struct { const char *fmt; const double *v; } place[] = {
		{ "W_l·h_%d + b_l", s->a_l },
		{ "l̂_%d = tanh(W_l·h + b_l)", s->l_hat },
		{ "u (SplitMix64)", s->u },
		{ "ε (Box–Muller)", s->eps },
		{ "l_%d = l̂ + σ·ε", s->l },
		{ "∂ log π / ∂ l̂_%d = (l - l̂)/σ²", s->dlogpi },
	};
	fputs("## ", out);
	fprintf(out, _("Glimpse %d of %d"), t + 1, m->steps);
	fputs("\n\n", out);
	snprintf(lab, sizeof lab, "h_%d", t);
	gm_vec(out, lab, s->h_prev, m->hidden, prec);
	fprintf(out, "| | %s | %s |\n|---|--:|--:|\n", _("row"), _("column"));
	for (size_t k = 0; k < sizeof place / sizeof place[0]; k++) {
		fputs("| ", out);
		fprintf(out, place[k].fmt, k == 0 ? t : t + 1);
		fputs(" |", out);
		gm_cell(out, place[k].v[0], prec);
		gm_cell(out, place[k].v[1], prec);
		fputc('\n', out);
	}
	fprintf(out, "| %s | %d | %d |\n\n", _("corner (row, column), from 0"),
		s->row, s->col);
	fprintf(out, "log π(l_%d \\| l̂_%d) = %s\n\n", t + 1, t + 1,
		num_fixed(num, s->log_pi, prec));
	gm_vec(out, _("fovea ρ_1..4"), s->x, 4, prec);
	gm_vec(out, _("periphery ρ_5..8"), s->x + 4, 4, prec);
	snprintf(lab, sizeof lab, "[ρ_%d; l_%d]", t + 1, t + 1);
	gm_vec(out, lab, s->x, GLIMPSE_IN, prec);
	snprintf(lab, sizeof lab, "W_g·[ρ_%d; l_%d] + b_g", t + 1, t + 1);
	gm_vec(out, lab, s->a_g, m->gsize, prec);
	snprintf(lab, sizeof lab, "φ_%d = tanh(W_g·[ρ; l] + b_g)", t + 1);
	gm_vec(out, lab, s->g, m->gsize, prec);
	snprintf(lab, sizeof lab, "W_h·h_%d + W_x·φ_%d + b_h", t, t + 1);
	gm_vec(out, lab, s->a_h, m->hidden, prec);
	snprintf(lab, sizeof lab, "h_%d = tanh(W_h·h + W_x·φ + b_h)", t + 1);
	gm_vec(out, lab, s->h, m->hidden, prec);
}

/* The classifier, and with a true class the learning terms. */
static void gm_classify(FILE *out, const struct glimpse_model *m,
			const struct glimpse_trace *tr, int prec)
{
	char num[NUM_BUFSZ];
	fprintf(out, "## %s\n\n| k | %s | W_o·h_T + b_o | ŷ |\n"
		"|--:|---|--:|--:|\n", _("The class"), _("class"));
	for (int k = 0; k < m->nclass; k++) {
		fprintf(out, "| %d | ", k + 1);
		fmt_md_text(out, m->cls[k]);
		fputs(" |", out);
		gm_cell(out, tr->z[k], prec);
		gm_cell(out, tr->p[k], prec);
		fputc('\n', out);
	}
	fputs("\n", out);
	fputs(_("Class: "), out);
	fputs("**", out);
	fmt_md_text(out, m->cls[tr->pred]);
	fputs("**\n", out);
	if (tr->truth < 0)
		return;
	fputs("\n", out);
	fputs(_("True class: "), out);
	fputs("**", out);
	fmt_md_text(out, m->cls[tr->truth]);
	fputs("**", out);
	fprintf(out, _("; loss -log ŷ[true class] = %s, "),
		num_fixed(num, tr->loss, prec));
	fprintf(out, _("reward R = %s"), num_fixed(num, tr->reward, prec));
	fputs("\n\n| t | R̄_t | δ_t = R - R̄_t |\n|--:|--:|--:|\n", out);
	for (int t = 0; t < m->steps; t++) {
		fprintf(out, "| %d |", t + 1);
		gm_cell(out, m->base[t], prec);
		gm_cell(out, tr->adv[t], prec);
		fputc('\n', out);
	}
}

int glimpse_fmt_md(FILE *out, const struct glimpse_model *m,
		   const char *mname, const struct pgm_image *im,
		   const char *name, const struct glimpse_trace *tr,
		   const struct glimpse_out *o)
{
	gm_head(out, m, mname, im, name, tr, o);
	for (int t = 0; t < m->steps; t++)
		gm_step(out, m, &tr->st[t], t, o->precision);
	gm_classify(out, m, tr, o->precision);
	return ferror(out) ? -1 : 0;
}
