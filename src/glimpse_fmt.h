/* glimpse_fmt.h: a glimpse trace (glimpse.h) for people and programs:
 * text with pictures of each glimpse on the image (glimpse_fmt.c), JSON
 * of the trace and of the model (glimpse_json.c), and an SVG of the
 * glimpses and their path (glimpse_svg.c).  They write what the trace
 * holds and compute nothing but the layout; numbers are written with
 * '.' whatever the locale.  Each returns 0, or -1 if the stream reports
 * a write error. */
#ifndef ATTN_GLIMPSE_FMT_H
#define ATTN_GLIMPSE_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "glimpse.h"

/* How a trace is written beyond its format: line, the line of a
 * --batch list (0 outside a batch), written into JSON ("line"), CSV (a
 * first column) and Markdown; compact, JSON on one line (JSON Lines);
 * precision, digits after the point in Markdown; header, CSV's header
 * line first. */
struct glimpse_out {
	int line;
	int compact;
	int precision;
	int header;
};

/* The one table of a step's values, in the order JSON writes them: its
 * key (doc/trace-format.md), where it lies in struct glimpse_step, and
 * its length, n if n > 0 else the size dim stands for.  "corner" is the
 * two ints row, col; "log_pi" the one scalar (glimpse_field_scalar). */
struct glimpse_field {
	const char *name;
	size_t off;
	enum glimpse_dim dim;
	int n;
};
extern const struct glimpse_field glimpse_fields[];
extern const int glimpse_nfields;

/* Copies field k of step s of a run of m into v (room for H + 10
 * numbers) and returns how many. */
int glimpse_field_get(const struct glimpse_model *m,
		      const struct glimpse_step *s, int k, double *v);

/* 1 if field k is one number (JSON: a number, not an array). */
int glimpse_field_scalar(int k);

/* The trace tr of model m (called mname) on im (called name) as text:
 * each glimpse's numbers and a picture of its retina on the image, the
 * classifier, with a true class the loss, reward and REINFORCE's terms,
 * and the path of the glimpses.  prec digits after the point; ascii:
 * pictures in ASCII. */
int glimpse_fmt_text(FILE *out, const struct glimpse_model *m,
		     const char *mname, const struct pgm_image *im,
		     const char *name, const struct glimpse_trace *tr,
		     int prec, int ascii);

/* The picture of im with the retina of the steps first .. last - 1 of
 * tr (the fovea solid, the periphery dotted); with path, only their
 * foveas, and each glimpse's corner marked with its number (1 ..).  A
 * pixel is two columns, and the lines between pixels one.  Where a box
 * reaches past the image, the picture grows by the pixels it needs (at
 * most 2 a side), drawn "··" ("x " in ASCII), and a last line says what
 * they are, so that every box shows whole. */
void glimpse_fmt_picture(FILE *out, const struct pgm_image *im,
			 const struct glimpse_trace *tr, int first, int last,
			 int path, int ascii);

/* The stepper's picture of step t (from 0): the retina of step t and
 * the numbers of steps 1 .. t + 1 on their corners, the path so far; t
 * = tr->steps: every fovea and every number.  Each line is 3·W + 5
 * columns wide: the boxes are clipped to the image. */
void glimpse_fmt_picture_at(FILE *out, const struct pgm_image *im,
			    const struct glimpse_trace *tr, int t, int ascii);

/* Glimpse t (from 1 to m->steps) of tr, as glimpse_fmt_text writes
 * it: "glimpse T of N", h_{t-1}, the place and its draw, the retina,
 * the glimpse network and the core, and the picture of its retina. */
void glimpse_fmt_step(FILE *out, const struct glimpse_model *m,
		      const struct pgm_image *im,
		      const struct glimpse_trace *tr, int t, int prec,
		      int ascii);

/* The classifier's lines of glimpse_fmt_text ("classifier", z, p and
 * the class) and, with a true class, the loss, R and REINFORCE's. */
void glimpse_fmt_classify(FILE *out, const struct glimpse_model *m,
			  const struct glimpse_trace *tr, int prec);

/* The trace as one JSON object (doc/trace-format.md, "Glimpses"). */
int glimpse_fmt_json(FILE *out, const struct glimpse_model *m,
		     const char *mname, const struct pgm_image *im,
		     const char *name, const struct glimpse_trace *tr);

/* The same with o's line (o->line > 0 adds "line": N after "kind") and
 * on one line if o->compact (JSON Lines). */
int glimpse_fmt_json_out(FILE *out, const struct glimpse_model *m,
			 const char *mname, const struct pgm_image *im,
			 const char *name, const struct glimpse_trace *tr,
			 const struct glimpse_out *o);

/* The trace as CSV in long form, one value a row: the header
 * image,t,symbol,i,j,value,name (with "line," in front when o->line > 0)
 * if o->header, then a row for each number and each name the JSON
 * holds (doc/trace-format.md, "Glimpses"). */
int glimpse_fmt_csv(FILE *out, const struct glimpse_model *m,
		    const char *mname, const struct pgm_image *im,
		    const char *name, const struct glimpse_trace *tr,
		    const struct glimpse_out *o);

/* The trace as Markdown for handouts: the image's pixels, a section a
 * glimpse with its numbers in tables, and the classifier; o->precision
 * digits. */
int glimpse_fmt_md(FILE *out, const struct glimpse_model *m,
		   const char *mname, const struct pgm_image *im,
		   const char *name, const struct glimpse_trace *tr,
		   const struct glimpse_out *o);

/* The model as one JSON object (doc/model.md, "Glimpses"). */
int glimpse_fmt_model_json(FILE *out, const struct glimpse_model *m,
			   const char *mname);

/* The trace as a standalone SVG: the image's pixels, each glimpse's
 * fovea and periphery as boxes, the path from glimpse to glimpse, and
 * the class.  Legible 1920 px wide. */
int glimpse_fmt_svg(FILE *out, const struct glimpse_model *m,
		    const struct pgm_image *im, const char *name,
		    const struct glimpse_trace *tr);

#endif
