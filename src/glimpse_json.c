/* glimpse_json.c: a glimpse trace and a glimpse model as JSON
 * (glimpse_fmt.h; the names: doc/trace-format.md and doc/model.md,
 * "Glimpses").  Every number in its shortest exact form. */
#include "config.h"

#include "fmt.h"
#include "glimpse_fmt.h"
#include "num.h"

/* ,\n  "key": */
static void gj_key(FILE *out, const char *indent, const char *key)
{
	fprintf(out, ",\n%s\"%s\": ", indent, key);
}

/* "key": [v] */
static void gj_vec(FILE *out, const char *indent, const char *key,
		   const double *v, int n)
{
	gj_key(out, indent, key);
	fmt_json_vec(out, v, n);
}

/* "key": x */
static void gj_num(FILE *out, const char *indent, const char *key, double x)
{
	char num[NUM_BUFSZ];
	gj_key(out, indent, key);
	fputs(num_shortest(num, x), out);
}

/* the class names as a JSON array */
static void gj_classes(FILE *out, const struct glimpse_model *m)
{
	fputc('[', out);
	for (int k = 0; k < m->nclass; k++) {
		if (k)
			fputs(", ", out);
		fmt_json_string(out, m->cls[k]);
	}
	fputc(']', out);
}

/* One step's object. */
static void gj_step(FILE *out, const struct glimpse_model *m,
		    const struct glimpse_step *s, int t)
{
	const char *in = "      ";
	fprintf(out, "    {\n%s\"t\": %d", in, t);
	gj_vec(out, in, "h_prev", s->h_prev, m->hidden);
	gj_vec(out, in, "a_l", s->a_l, 2);
	gj_vec(out, in, "l_hat", s->l_hat, 2);
	gj_vec(out, in, "u", s->u, 2);
	gj_vec(out, in, "eps", s->eps, 2);
	gj_vec(out, in, "l", s->l, 2);
	gj_num(out, in, "log_pi", s->log_pi);
	gj_vec(out, in, "dlog_pi_dl_hat", s->dlogpi, 2);
	gj_key(out, in, "corner");
	fprintf(out, "[%d, %d]", s->row, s->col);
	gj_vec(out, in, "fovea", s->x, 4);
	gj_vec(out, in, "periphery", s->x + 4, 4);
	gj_vec(out, in, "x", s->x, GLIMPSE_IN);
	gj_vec(out, in, "a_g", s->a_g, m->gsize);
	gj_vec(out, in, "g", s->g, m->gsize);
	gj_vec(out, in, "a_h", s->a_h, m->hidden);
	gj_vec(out, in, "h", s->h, m->hidden);
	fputs("\n    }", out);
}

/* The classifier and, with a true class, the learning terms. */
static void gj_classify(FILE *out, const struct glimpse_model *m,
			const struct glimpse_trace *tr)
{
	gj_vec(out, "  ", "z", tr->z, m->nclass);
	gj_vec(out, "  ", "p", tr->p, m->nclass);
	gj_key(out, "  ", "class");
	fmt_json_string(out, m->cls[tr->pred]);
	if (tr->truth < 0)
		return;
	gj_key(out, "  ", "true_class");
	fmt_json_string(out, m->cls[tr->truth]);
	gj_num(out, "  ", "loss", tr->loss);
	gj_num(out, "  ", "reward", tr->reward);
	gj_vec(out, "  ", "baseline", m->base, m->steps);
	gj_vec(out, "  ", "advantage", tr->adv, m->steps);
}

int glimpse_fmt_json(FILE *out, const struct glimpse_model *m,
		     const char *mname, const struct pgm_image *im,
		     const char *name, const struct glimpse_trace *tr)
{
	fputs("{\n  \"kind\": \"glimpse\",\n  \"model\": ", out);
	fmt_json_string(out, mname);
	gj_key(out, "  ", "image");
	fmt_json_string(out, name);
	fprintf(out, ",\n  \"height\": %d,\n  \"width\": %d", im->height,
		im->width);
	gj_key(out, "  ", "pixels");
	fmt_json_mat(out, im->pix, im->height, im->width);
	gj_key(out, "  ", "classes");
	gj_classes(out, m);
	gj_num(out, "  ", "sigma", m->sigma);
	fprintf(out, ",\n  \"draw\": \"%s\",\n  \"seed\": %llu",
		glimpse_draw_name(tr->draw), (unsigned long long)tr->seed);
	fputs(",\n  \"steps\": [\n", out);
	for (int t = 0; t < m->steps; t++) {
		gj_step(out, m, &tr->st[t], t + 1);
		fputs(t + 1 < m->steps ? ",\n" : "\n  ]", out);
	}
	gj_classify(out, m, tr);
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}

int glimpse_fmt_model_json(FILE *out, const struct glimpse_model *m,
			   const char *mname)
{
	struct glimpse_model *mm = (struct glimpse_model *)m;
	fputs("{\n  \"kind\": \"glimpse-model\",\n  \"model\": ", out);
	fmt_json_string(out, mname);
	fprintf(out, ",\n  \"hidden\": %d,\n  \"glimpse\": %d,\n"
		"  \"steps\": %d", m->hidden, m->gsize, m->steps);
	gj_num(out, "  ", "sigma", m->sigma);
	gj_key(out, "  ", "classes");
	gj_classes(out, m);
	for (int k = 0; k < glimpse_nparams; k++) {
		const struct glimpse_param *p = &glimpse_params[k];
		int rows = glimpse_dim_size(m, p->rows);
		int cols = glimpse_dim_size(m, p->cols);
		gj_key(out, "  ", p->name);
		if (p->rows == GD_ONE)
			fmt_json_vec(out, glimpse_param_ptr(mm, k), cols);
		else
			fmt_json_mat(out, glimpse_param_ptr(mm, k), rows, cols);
	}
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}
