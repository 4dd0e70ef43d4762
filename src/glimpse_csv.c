/* glimpse_csv.c: a glimpse trace as CSV in long form, one value a row
 * (glimpse_fmt.h; the columns: doc/trace-format.md, "Glimpses").  The
 * symbol is the JSON key, i and j its indices from 1 into the JSON's
 * array, so a row finds its number in the JSON mechanically. */
#include "config.h"

#include "fmt.h"
#include "glimpse_fmt.h"
#include "num.h"

/* Where the rows go, and the fields every row starts with. */
struct gc_row {
	FILE *out;
	const struct glimpse_out *o;
	const char *image;
};

/* One row: t, symbol, i and j (0: empty), the number (when num) and the
 * name (NULL: empty). */
static void gc_put(const struct gc_row *w, int t, const char *symbol,
		   int i, int j, int num, double v, const char *name)
{
	char buf[NUM_BUFSZ];
	if (w->o->line > 0)
		fprintf(w->out, "%d,", w->o->line);
	fmt_csv_field(w->out, w->image);
	fprintf(w->out, ",%d,", t);
	fmt_csv_field(w->out, symbol);
	fputc(',', w->out);
	if (i)
		fprintf(w->out, "%d", i);
	fputc(',', w->out);
	if (j)
		fprintf(w->out, "%d", j);
	fprintf(w->out, ",%s,", num ? num_shortest(buf, v) : "");
	if (name)
		fmt_csv_field(w->out, name);
	fputc('\n', w->out);
}

/* A vector's rows, i from 1; names (may be NULL) the name of each. */
static void gc_vec(const struct gc_row *w, int t, const char *symbol,
		   const double *v, int n,
		   const char (*names)[GLIMPSE_MAX_WORD + 1])
{
	for (int i = 0; i < n; i++)
		gc_put(w, t, symbol, i + 1, 0, 1, v[i], names ? names[i] : NULL);
}

/* The image and the model's settings, t = 0. */
static void gc_head(const struct gc_row *w, const struct glimpse_model *m,
		    const char *mname, const struct pgm_image *im,
		    const struct glimpse_trace *tr)
{
	gc_put(w, 0, "model", 0, 0, 0, 0, mname);
	gc_put(w, 0, "height", 0, 0, 1, im->height, NULL);
	gc_put(w, 0, "width", 0, 0, 1, im->width, NULL);
	gc_put(w, 0, "pgm", 0, 0, 0, 0, pgm_kind_name(im->kind));
	gc_put(w, 0, "maxval", 0, 0, 1, im->maxval, NULL);
	for (int r = 0; r < im->height; r++)
		for (int c = 0; c < im->width; c++)
			gc_put(w, 0, "raw", r + 1, c + 1, 1,
			       im->raw[r * im->width + c], NULL);
	for (int r = 0; r < im->height; r++)
		for (int c = 0; c < im->width; c++)
			gc_put(w, 0, "pixels", r + 1, c + 1, 1,
			       im->pix[r * im->width + c], NULL);
	for (int k = 0; k < m->nclass; k++)
		gc_put(w, 0, "classes", k + 1, 0, 0, 0, m->cls[k]);
	gc_put(w, 0, "sigma", 0, 0, 1, m->sigma, NULL);
	gc_put(w, 0, "draw", 0, 0, 0, 0, glimpse_draw_name(tr->draw));
	/* the seed is a 64-bit whole number: written whole, not as a double */
	char seed[24];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)tr->seed);
	gc_put(w, 0, "seed", 0, 0, 0, 0, seed);
}

int glimpse_fmt_csv(FILE *out, const struct glimpse_model *m,
		    const char *mname, const struct pgm_image *im,
		    const char *name, const struct glimpse_trace *tr,
		    const struct glimpse_out *o)
{
	struct gc_row w = { out, o, name };
	double v[GLIMPSE_MAX_HIDDEN + GLIMPSE_IN];
	if (o->header)
		fputs(o->line > 0 ? "line,image,t,symbol,i,j,value,name\n"
		      : "image,t,symbol,i,j,value,name\n", out);
	gc_head(&w, m, mname, im, tr);
	for (int t = 0; t < m->steps; t++)
		for (int k = 0; k < glimpse_nfields; k++) {
			int n = glimpse_field_get(m, &tr->st[t], k, v);
			if (glimpse_field_scalar(k))
				gc_put(&w, t + 1, glimpse_fields[k].name, 0, 0,
				       1, v[0], NULL);
			else
				gc_vec(&w, t + 1, glimpse_fields[k].name, v, n,
				       NULL);
		}
	gc_vec(&w, 0, "z", tr->z, m->nclass, m->cls);
	gc_vec(&w, 0, "p", tr->p, m->nclass, m->cls);
	gc_put(&w, 0, "class", 0, 0, 0, 0, m->cls[tr->pred]);
	if (tr->truth >= 0) {
		gc_put(&w, 0, "true_class", 0, 0, 0, 0, m->cls[tr->truth]);
		gc_put(&w, 0, "loss", 0, 0, 1, tr->loss, NULL);
		gc_put(&w, 0, "reward", 0, 0, 1, tr->reward, NULL);
		gc_vec(&w, 0, "baseline", m->base, m->steps, NULL);
		gc_vec(&w, 0, "advantage", tr->adv, m->steps, NULL);
	}
	return ferror(out) ? -1 : 0;
}
