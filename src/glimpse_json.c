/* glimpse_json.c: a glimpse trace and a glimpse model as JSON, and the
 * one table of a step's values that JSON, CSV and Markdown walk
 * (glimpse_fmt.h; the names: doc/trace-format.md and doc/model.md,
 * "Glimpses").  Every number in its shortest exact form. */
#include "config.h"

#include <stddef.h>

#include "fmt.h"
#include "glimpse_fmt.h"
#include "num.h"

#define GJ_F(name, member, dim, n) \
	{ name, offsetof(struct glimpse_step, member), dim, n }
const struct glimpse_field glimpse_fields[] = {
	GJ_F("h_prev", h_prev, GD_H, 0),
	GJ_F("a_l", a_l, GD_TWO, 0),
	GJ_F("l_hat", l_hat, GD_TWO, 0),
	GJ_F("u", u, GD_TWO, 0),
	GJ_F("eps", eps, GD_TWO, 0),
	GJ_F("l", l, GD_TWO, 0),
	GJ_F("log_pi", log_pi, GD_ONE, 0),
	GJ_F("dlog_pi_dl_hat", dlogpi, GD_TWO, 0),
	GJ_F("corner", row, GD_TWO, 0),          /* two ints, row and col */
	GJ_F("fovea", x, GD_ONE, 4),
	GJ_F("periphery", x[4], GD_ONE, 4),
	GJ_F("x", x, GD_IN, 0),
	GJ_F("a_g", a_g, GD_D, 0),
	GJ_F("g", g, GD_D, 0),
	GJ_F("a_h", a_h, GD_H, 0),
	GJ_F("h", h, GD_H, 0),
};
const int glimpse_nfields =
	(int)(sizeof glimpse_fields / sizeof glimpse_fields[0]);

int glimpse_field_get(const struct glimpse_model *m,
		      const struct glimpse_step *s, int k, double *v)
{
	const struct glimpse_field *f = &glimpse_fields[k];
	if (f->off == offsetof(struct glimpse_step, row)) {
		v[0] = s->row;
		v[1] = s->col;
		return 2;
	}
	int n = f->n ? f->n : glimpse_dim_size(m, f->dim);
	const double *p = (const double *)((const char *)s + f->off);
	for (int i = 0; i < n; i++)
		v[i] = p[i];
	return n;
}

int glimpse_field_scalar(int k)
{
	return glimpse_fields[k].dim == GD_ONE && glimpse_fields[k].n == 0;
}

/* The writer: where, and whether on one line. */
struct gj {
	FILE *out;
	int compact;
};

/* ,\n  "key": (depth 1 or 3 levels of two spaces), or , "key": */
static void gj_key(const struct gj *w, int depth, const char *key)
{
	if (w->compact)
		fprintf(w->out, ", \"%s\": ", key);
	else
		fprintf(w->out, ",\n%*s\"%s\": ", 2 * depth, "", key);
}

/* "key": [v] */
static void gj_vec(const struct gj *w, int depth, const char *key,
		   const double *v, int n)
{
	gj_key(w, depth, key);
	fmt_json_vec(w->out, v, n);
}

/* "key": x */
static void gj_num(const struct gj *w, int depth, const char *key, double x)
{
	char num[NUM_BUFSZ];
	gj_key(w, depth, key);
	fputs(num_shortest(num, x), w->out);
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

/* One step's object: t, then every field of glimpse_fields. */
static void gj_step(const struct gj *w, const struct glimpse_model *m,
		    const struct glimpse_step *s, int t)
{
	double v[GLIMPSE_MAX_HIDDEN + GLIMPSE_IN];
	if (w->compact)
		fprintf(w->out, "{\"t\": %d", t);
	else
		fprintf(w->out, "    {\n      \"t\": %d", t);
	for (int k = 0; k < glimpse_nfields; k++) {
		int n = glimpse_field_get(m, s, k, v);
		if (glimpse_field_scalar(k))
			gj_num(w, 3, glimpse_fields[k].name, v[0]);
		else
			gj_vec(w, 3, glimpse_fields[k].name, v, n);
	}
	fputs(w->compact ? "}" : "\n    }", w->out);
}

/* The classifier and, with a true class, the learning terms. */
static void gj_classify(const struct gj *w, const struct glimpse_model *m,
			const struct glimpse_trace *tr)
{
	gj_vec(w, 1, "z", tr->z, m->nclass);
	gj_vec(w, 1, "p", tr->p, m->nclass);
	gj_key(w, 1, "class");
	fmt_json_string(w->out, m->cls[tr->pred]);
	if (tr->truth < 0)
		return;
	gj_key(w, 1, "true_class");
	fmt_json_string(w->out, m->cls[tr->truth]);
	gj_num(w, 1, "loss", tr->loss);
	gj_num(w, 1, "reward", tr->reward);
	gj_vec(w, 1, "baseline", m->base, m->steps);
	gj_vec(w, 1, "advantage", tr->adv, m->steps);
}

/* The image's values as its file gave them, rows of 0 .. maxval. */
static void gj_raw(FILE *out, const struct pgm_image *im)
{
	for (int r = 0; r < im->height; r++) {
		fputs(r ? ", [" : "[[", out);
		for (int c = 0; c < im->width; c++)
			fprintf(out, c ? ", %u" : "%u",
				(unsigned)im->raw[r * im->width + c]);
		fputc(']', out);
	}
	fputc(']', out);
}

int glimpse_fmt_json_out(FILE *out, const struct glimpse_model *m,
			 const char *mname, const struct pgm_image *im,
			 const char *name, const struct glimpse_trace *tr,
			 const struct glimpse_out *o)
{
	struct gj w = { out, o->compact };
	fputs(w.compact ? "{\"kind\": \"glimpse\"" : "{\n  \"kind\": \"glimpse\"",
	      out);
	if (o->line > 0)
		gj_num(&w, 1, "line", o->line);
	gj_key(&w, 1, "model");
	fmt_json_string(out, mname);
	gj_key(&w, 1, "image");
	fmt_json_string(out, name);
	gj_num(&w, 1, "height", im->height);
	gj_num(&w, 1, "width", im->width);
	gj_key(&w, 1, "pgm");
	fprintf(out, "\"%s\"", pgm_kind_name(im->kind));
	gj_num(&w, 1, "maxval", im->maxval);
	gj_key(&w, 1, "raw");
	gj_raw(out, im);
	gj_key(&w, 1, "pixels");
	fmt_json_mat(out, im->pix, im->height, im->width);
	gj_key(&w, 1, "classes");
	gj_classes(out, m);
	gj_num(&w, 1, "sigma", m->sigma);
	gj_key(&w, 1, "draw");
	fprintf(out, "\"%s\"", glimpse_draw_name(tr->draw));
	gj_key(&w, 1, "seed");
	fprintf(out, "%llu", (unsigned long long)tr->seed);
	gj_key(&w, 1, "steps");
	fputs(w.compact ? "[" : "[\n", out);
	for (int t = 0; t < m->steps; t++) {
		gj_step(&w, m, &tr->st[t], t + 1);
		fputs(t + 1 < m->steps ? (w.compact ? ", " : ",\n")
		      : (w.compact ? "]" : "\n  ]"), out);
	}
	gj_classify(&w, m, tr);
	fputs(w.compact ? "}\n" : "\n}\n", out);
	return ferror(out) ? -1 : 0;
}

int glimpse_fmt_json(FILE *out, const struct glimpse_model *m,
		     const char *mname, const struct pgm_image *im,
		     const char *name, const struct glimpse_trace *tr)
{
	struct glimpse_out o = { 0, 0, 4, 0 };
	return glimpse_fmt_json_out(out, m, mname, im, name, tr, &o);
}

int glimpse_fmt_model_json(FILE *out, const struct glimpse_model *m,
			   const char *mname)
{
	struct glimpse_model *mm = (struct glimpse_model *)m;
	struct gj w = { out, 0 };
	fputs("{\n  \"kind\": \"glimpse-model\",\n  \"model\": ", out);
	fmt_json_string(out, mname);
	fprintf(out, ",\n  \"hidden\": %d,\n  \"glimpse\": %d,\n"
		"  \"steps\": %d", m->hidden, m->gsize, m->steps);
	gj_num(&w, 1, "sigma", m->sigma);
	gj_key(&w, 1, "classes");
	gj_classes(out, m);
	for (int k = 0; k < glimpse_nparams; k++) {
		const struct glimpse_param *p = &glimpse_params[k];
		int rows = glimpse_dim_size(m, p->rows);
		int cols = glimpse_dim_size(m, p->cols);
		gj_key(&w, 1, p->name);
		if (p->rows == GD_ONE)
			fmt_json_vec(out, glimpse_param_ptr(mm, k), cols);
		else
			fmt_json_mat(out, glimpse_param_ptr(mm, k), rows, cols);
	}
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}
