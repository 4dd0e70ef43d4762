/* diagram_svg.c: the picture of one decoder step as an SVG document for
 * slides (diagram.h).  It draws what diagram_build() read from the
 * records and computes nothing but layout: the encoder's boxes down the
 * left, each with its word and its state as four cells (orange for a
 * positive number, blue for a negative one, as strong as its magnitude,
 * and a '+' or '−' in each, so that they read apart without colour), the
 * query on the right, a line from it to each box as thick and as dark as
 * its weight with α written by the box and the largest marked, then the
 * context and the step's result; under input feeding, h̃_{t-1} above
 * the query with an arrow into it.  Each state, line and cell carries its
 * exact numbers in data- attributes (the shortest form that reads back as
 * the same double), which tests/diagram_check.py compares with the JSON
 * trace. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "caption.h"
#include "diagram.h"
#include "fmt.h"
#include "fmt_svg.h"
#include "i18n.h"
#include "num.h"

#define W 1280   /* a 16:9 slide */
#define DIAGRAM_WHATIF_COLS 84 /* a line of the what-if, at most */

/* Writes s as XML character data or an attribute value. */
static void esc(FILE *out, const char *s)
{
	fmt_svg_text(out, s);
}

/* Writes s with its subscripts set as subscripts ("h_1", "α_1,2"). */
static void math(FILE *out, const char *s)
{
	fmt_svg_math(out, s);
}

void diagram_svg_data(FILE *out, const char *attr, const double *v, int n)
{
	char num[NUM_BUFSZ];
	fprintf(out, " %s=\"", attr);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? " " : "", num_shortest(num, v[k]));
	putc('"', out);
}

/* A fixed number with its sign: "+0.5704", "-0.2000". */
static const char *signed_fixed(char *buf, double x, int prec)
{
	char num[NUM_BUFSZ];
	num_fixed(num, x, prec);
	snprintf(buf, NUM_BUFSZ + 1, "%s%s", num[0] == '-' ? "" : "+", num);
	return buf;
}

/* The legibility floor (doc/heatmap.md): at 1280 wide, shown 1920 wide,
 * a size in the picture is 1.5 times as large on the slide.  No text is
 * set under MIN_FS (21 px on the slide); the cells' signs are two thirds
 * of a cell, so no cell is under MIN_CELL. */
#define MIN_FS 14
#define MIN_CELL 22
#define NUM_FS 15      /* a state's numbers, monospace */
#define BIG_BOX 88     /* the query, the context, the result, h̃_{t-1} */
#define FEED_Y 124     /* the top of h̃_{t-1}'s box, under the header */
#define COL2_MIN 4     /* from this many words, the boxes in two columns */
#define H_MAX 720      /* the height of a 16:9 picture W wide */
#define COL2_BW 326    /* a box's width in two columns */
#define COL2_BX 36     /* the left column's x */
#define COL2_G 24      /* from the last row to the bottom row */
#define COL2_X0 20     /* the bottom row's first box */
#define COL2_GAP 40    /* between the bottom row's boxes */

/* The cells of v at (x, y), size px each. */
static void cells(FILE *out, const double *v, int len, int x, int y, int size)
{
	char num[NUM_BUFSZ];
	for (int k = 0; k < DIAGRAM_CELLS && k < len; k++) {
		double a = fabs(v[k]) > 1 ? 1 : fabs(v[k]);
		int cx = x + k * (size + 8);
		fprintf(out, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" "
			"height=\"%d\" rx=\"4\" fill=\"%s\" fill-opacity=\"%s\" "
			"stroke=\"#555555\" stroke-width=\"1\"", cx, y, size, size,
			v[k] < 0 ? "#2c7bb6" : "#e66101", num_fixed(num, a, 3));
		diagram_svg_data(out, "data-value", &v[k], 1);
		fputs("/>\n", out);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
			"text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			cx + size / 2, y + size * 2 / 3 + 2, size * 2 / 3,
			a > 0.6 ? "#ffffff" : "#000000", v[k] < 0 ? "−" : "+");
	}
}

/* One labelled box of a state: class, the label and, under it, sub (both
 * with subscripts set), its cells at the top right and its numbers along
 * the bottom.  h is 54 or more: the label, its sub, the cells and the
 * numbers then keep inside the box, off its border (a strong one too),
 * and clear of each other (sub may be long only when h is 80 or more;
 * under 64 the label is 18 px).  A box narrower than 360 has 22 px cells
 * and 14 px numbers. */
static void state_box(FILE *out, const char *cls, const char *label,
		      const char *sub, const double *v, int len, int x, int y,
		      int w, int h, int prec, int strong)
{
	char num[NUM_BUFSZ + 1];
	int ly = y + (h >= 80 ? 26 : h >= 64 ? 25 : 19);
	int sy = y + (h < 80 ? h - 14 : w < 300 ? 57 : 58);
	fprintf(out, "<g class=\"%s\"", cls);
	diagram_svg_data(out, "data-values", v, len);
	fprintf(out, ">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"rx=\"8\" fill=\"#f7f7f7\" stroke=\"#222222\" stroke-width=\"%d\"/>\n",
		x, y, w, h, strong ? 5 : 2);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
		"font-weight=\"bold\">", x + 14, sub ? ly : y + h / 2 + 8,
		h < 64 ? 18 : w < 300 ? 22 : 24);
	math(out, label);
	fputs("</text>\n", out);
	if (sub) {
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"18\" "
			"fill=\"#444444\">", x + 14, sy);
		math(out, sub);
		fputs("</text>\n", out);
	}
	int size = h - 34 < MIN_CELL ? MIN_CELL : h - 34 > 34 ? 34 : h - 34;
	if (w < 360) /* a narrow box: room for its label */
		size = MIN_CELL;
	cells(out, v, len, x + w - 4 * (size + 8) - 6, y + 8, size);
	fprintf(out, "<text class=\"numbers\" x=\"%d\" y=\"%d\" "
		"font-size=\"%d\" text-anchor=\"end\" fill=\"#333333\" "
		"font-family=\"'DejaVu Sans Mono', monospace\">",
		x + w - 8, y + h - (h < 80 ? 10 : strong ? 7 : w < 300 ? 5 : 4),
		w >= 360 ? NUM_FS : NUM_FS - 1);
	for (int k = 0; k < len && k < DIAGRAM_CELLS; k++)
		fprintf(out, "%s%s", k ? " " : "", signed_fixed(num, v[k], prec));
	fputs("</text>\n</g>\n", out);
}

/* A downward arrow from (x, y0) to its head at (x, y1), in colour. */
static void arrow_down(FILE *out, const char *cls, int x, int y0, int y1,
		       const char *colour)
{
	fprintf(out, "<g class=\"%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"%s\" stroke-width=\"4\"/><path d=\"M %d %d "
		"l -9 -14 l 18 0 z\" fill=\"%s\"/></g>\n", cls, x, y0, x,
		y1 - 12, colour, x, y1, colour);
}

/* The layout of a picture: rows of rh, boxes bh high, the encoder's
 * column at bx (bw wide), the query at qx, qy (qw by BIG_BOX) and the
 * bottom row of results at bottom. */
struct lay {
	int n, top, rh, bh, bx, bw, qx, qy, qw, bottom;
	int cols, k;   /* 1 or 2 columns of boxes, k rows each */
	int bx2, sx;   /* two columns: the right one's x, the spine's */
};

/* Box i's top left corner. */
static void box_xy(const struct lay *L, int i, int *x, int *y)
{
	int c = i >= L->k;
	*x = c ? L->bx2 : L->bx;
	*y = L->top + (i - c * L->k) * L->rh;
}

/* The lines under the bottom row in two columns: the formula, input
 * feeding's formula, the local window's line, the legend (captions()). */
static int below_two(const struct diagram *d)
{
	int local = (d->has_pt && !d->note[0]) ||
		    (d->win_lo > 0 && d->win_hi >= d->win_lo && d->win_hi <= d->n);
	return BIG_BOX + 42 + (d->feed ? 36 : 0) + (local ? 34 : 0) + 32 + 24;
}

/* Two columns (COL2_MIN words or more): h_1..h_k down the left, the
 * rest down the right, each joined by a level line to the spine between
 * them that runs down into c_t; the rows as high as a 16:9 picture lets
 * them be (H_MAX), 96 at most; the query, c_t and the result in one row
 * under them. */
static void lay_two(struct lay *L, const struct diagram *d)
{
	L->cols = 2;
	L->k = (d->n + 1) / 2;
	L->top = 124;
	L->bw = COL2_BW;
	L->bx = COL2_BX;
	L->bx2 = W - COL2_BX - COL2_BW;
	L->sx = W / 2;
	L->rh = (H_MAX - L->top - COL2_G - below_two(d)) / L->k;
	if (L->rh > 96)
		L->rh = 96;
	L->bh = L->rh - (L->rh >= 96 ? 16 : 4);
	L->bottom = L->top + (L->k - 1) * L->rh + L->bh + COL2_G;
	/* a fourth slot: input feeding's h̃_{t-1}, or an image's panel
	 * (image_panel_two) */
	int four = d->feed || d->tr->enc == &caption_encoder;
	L->qw = (W - 2 * COL2_X0 - (four ? 3 : 2) * COL2_GAP) / (four ? 4 : 3);
	L->qx = COL2_X0 + 2 * (L->qw + COL2_GAP);
	L->qy = L->bottom;
}

static void lay_out(struct lay *L, const struct diagram *d)
{
	L->n = d->n;
	L->cols = 1;
	L->k = d->n;
	if (d->n >= COL2_MIN) {
		lay_two(L, d);
		return;
	}
	L->top = 124;
	L->rh = d->n <= 5 ? 96 : 480 / d->n < 72 ? 72 : 480 / d->n;
	L->bh = L->rh - 16;
	L->bw = 400;
	L->bx = 60;
	L->qx = 840;
	L->qw = 380;
	L->qy = L->top + (d->n * L->rh - 16 - BIG_BOX) / 2;
	if (L->qy < L->top)
		L->qy = L->top;
	if (d->feed && L->qy < FEED_Y + BIG_BOX + 68) /* under h̃_{t-1} */
		L->qy = FEED_Y + BIG_BOX + 68;
	L->bottom = L->top + d->n * L->rh + 50;
	if (L->bottom < L->qy + BIG_BOX + 50)
		L->bottom = L->qy + BIG_BOX + 50;
}

/* A local window: a dashed frame round its boxes (its words are said
 * under the picture, by window_caption()) and p_t's marker in the left
 * margin. */
static void window_marks(FILE *out, const struct diagram *d,
			 const struct lay *L, int prec)
{
	char num[NUM_BUFSZ];
	for (int c = 0; c < L->cols && d->win_lo > 0 && d->win_hi >= d->win_lo
	     && d->win_hi <= d->n; c++) { /* a frame a column */
		int lo = d->win_lo > c * L->k + 1 ? d->win_lo : c * L->k + 1;
		int hi = d->win_hi < (c + 1) * L->k ? d->win_hi : (c + 1) * L->k;
		if (lo > hi)
			continue;
		int x, y0, y1;
		box_xy(L, lo - 1, &x, &y0);
		box_xy(L, hi - 1, &x, &y1);
		int m = L->rh - L->bh >= 12 ? 6 : (L->rh - L->bh) / 2;
		y0 -= m; /* in the gap between the rows */
		y1 += L->bh + m;
		fprintf(out, "<rect class=\"window-frame\" data-lo=\"%d\" "
			"data-hi=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" "
			"height=\"%d\" fill=\"none\" stroke=\"#7b3294\" "
			"stroke-width=\"3\" stroke-dasharray=\"10 6\"/>\n",
			d->win_lo, d->win_hi, x - (c ? 8 : 14), y0, L->bw + 22,
			y1 - y0);
	}
	if (d->has_pt) {
		int i = (int)floor(d->pt + 0.5) - 1;
		int c = L->cols > 1 && i >= L->k, x, y;
		box_xy(L, c ? L->k : 0, &x, &y);
		double py = y + (d->pt - 1 - c * L->k) * L->rh + L->bh / 2.0;
		fprintf(out, "<g class=\"pt\"");
		diagram_svg_data(out, "data-value", &d->pt, 1);
		/* the marker at p_t, outside its column, pointing at it; its
		 * value is written below the picture, where there is room */
		fprintf(out, "><path d=\"M %d %.1f l %d -10 l 0 20 z\" "
			"fill=\"#7b3294\"><title>p_%d = %s</title></path></g>\n",
			c ? x + L->bw + 18 : x - 18, py, c ? 16 : -16, d->t,
			num_fixed(num, d->pt, prec));
	}
}

/* The weights: a line from the query to each box, as thick and dark as
 * its weight but never thinner than 3 px nor paler than 45% (a weight
 * near 0 still shows, and the caption says so), α_t,i written above it
 * and the largest marked. */
/* Under a window with a diagram_note (fixed): no line from the query;
 * the window's word i gets its weight and says that c_t is h_i, which
 * the arrow down from its box draws. */
static void fixed_label(FILE *out, const struct diagram *d,
			const struct lay *L, int i, int y, int prec)
{
	char num[NUM_BUFSZ], lab[96];
	if (i + 1 < d->win_lo || i + 1 > d->win_hi)
		return;
	snprintf(lab, sizeof lab, _("%s_%d,%d = %s: c_%d = h_%d, fixed"),
		 trace_weight_symbol(d->tr), d->t, i + 1,
		 num_fixed(num, d->alpha[i], prec), d->t, i + 1);
	fprintf(out, "<text class=\"alpha fixed\" x=\"%d\" y=\"%d\" "
		"font-size=\"22\" font-weight=\"bold\">",
		L->bx + L->bw + 16, y + 8);
	math(out, lab);
	fputs("</text>\n", out);
}

/* Two columns: a level line from box i's inner edge to the spine, as
 * thick and dark as α_t,i, with α_t,i written above it by the box (the
 * largest marked, pointing at its box); under fixed, only the window's
 * words have one. */
static void weight_line_two(FILE *out, const struct diagram *d,
			    const struct lay *L, int i, int prec)
{
	char num[NUM_BUFSZ], lab[96];
	double a = d->alpha[i];
	int c = i >= L->k, x, y;
	if (d->note[0] && (i + 1 < d->win_lo || i + 1 > d->win_hi))
		return;
	box_xy(L, i, &x, &y);
	y += L->bh / 2;
	int edge = c ? x : x + L->bw;
	fprintf(out, "<line class=\"weight\" data-i=\"%d\"", i + 1);
	diagram_svg_data(out, "data-alpha", &a, 1);
	fprintf(out, " x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#222222\" stroke-width=\"%.2f\" "
		"stroke-opacity=\"%.3f\"/>\n", L->sx, y, edge, y, 3 + 21 * a,
		0.45 + 0.55 * a);
	snprintf(lab, sizeof lab, "%s_%d,%d = %s%s%s",
		 trace_weight_symbol(d->tr), d->t, i + 1, num_fixed(num, a, prec),
		 d->note[0] ? _(", fixed") : i != d->amax ? "" : c ? " ▶ "
		 : " ◀ ", !d->note[0] && i == d->amax ? _("largest") : "");
	fprintf(out, "<text class=\"alpha%s\" x=\"%d\" y=\"%d\" "
		"font-size=\"20\"%s>", d->note[0] ? " fixed" : "",
		c ? edge - 14 : edge + 14, y - 16,
		c ? " text-anchor=\"end\"" : "");
	math(out, lab);
	fputs("</text>\n", out);
}

static void weight_lines(FILE *out, const struct diagram *d,
			 const struct lay *L, int prec)
{
	if (L->cols > 1) {
		for (int i = 0; i < d->n; i++)
			weight_line_two(out, d, L, i, prec);
		return;
	}
	char num[NUM_BUFSZ], lab[96];
	for (int i = 0; i < d->n; i++) {
		double a = d->alpha[i];
		int y = L->top + i * L->rh + L->bh / 2;
		if (d->note[0]) { /* fixed: no line from the query at all */
			fixed_label(out, d, L, i, y, prec);
			continue;
		}
		fprintf(out, "<line class=\"weight\" data-i=\"%d\"", i + 1);
		diagram_svg_data(out, "data-alpha", &a, 1);
		fprintf(out, " x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#222222\" stroke-linecap=\"round\" "
			"stroke-width=\"%.2f\" stroke-opacity=\"%.3f\"/>\n",
			L->qx, L->qy + BIG_BOX / 2, L->bx + L->bw, y,
			3 + 21 * a, 0.45 + 0.55 * a);
		snprintf(lab, sizeof lab, "%s_%d,%d = %s%s%s",
			 trace_weight_symbol(d->tr), d->t, i + 1,
			 num_fixed(num, a, prec), i == d->amax ? "  ◀ " : "",
			 i == d->amax ? _("largest") : "");
		fprintf(out, "<text class=\"alpha\" x=\"%d\" y=\"%d\" "
			"font-size=\"22\"%s>", L->bx + L->bw + 16, y - 17,
			i == d->amax ? " font-weight=\"bold\"" : "");
		math(out, lab);
		fputs("</text>\n", out);
		if (d->sampled == i + 1) { /* below the line, where it has room */
			snprintf(lab, sizeof lab, _("● sampled: c_%d = h_%d"),
				 d->t, i + 1);
			fprintf(out, "<text class=\"sampled\" x=\"%d\" y=\"%d\" "
				"font-size=\"18\" fill=\"#7b3294\">",
				L->bx + L->bw + 16, y + 30);
			math(out, lab);
			fputs("</text>\n", out);
		}
	}
}

/* Input feeding: h̃_{t-1} above the query, with an arrow down its right
 * end into the query and the RNN's formula in the gap, left of the
 * arrow, on two lines (clear of the α labels on the left). */
static void feed_box(FILE *out, const struct diagram *d, const struct lay *L,
		     int prec)
{
	char lab[48], sub[48], f[128];
	int fy = FEED_Y, ax = L->qx + L->qw - 28, ty = fy + BIG_BOX + 24;
	snprintf(lab, sizeof lab, "h̃_%d", d->t - 1);
	if (d->t > 1)
		snprintf(sub, sizeof sub, _("from step %d"), d->t - 1);
	else
		snprintf(sub, sizeof sub, "%s", _("no step yet"));
	state_box(out, "feed", lab, sub, d->feed, d->flen, L->qx, fy, L->qw,
		  BIG_BOX, prec, 0);
	fprintf(out, "<g class=\"feed-arrow\"><line x1=\"%d\" "
		"y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1a9641\" "
		"stroke-width=\"4\"/><path d=\"M %d %d l -9 -14 l 18 0 "
		"z\" fill=\"#1a9641\"/>\n", ax, fy + BIG_BOX, ax, L->qy - 14,
		ax, L->qy);
	snprintf(f, sizeof f, "s_%d = tanh(W_x·[y_%d; h̃_%d] + W_h·s_%d + b)",
		 d->t, d->t - 1, d->t - 1, d->t - 1);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"18\" "
		"fill=\"#1a9641\">", L->qx, ty);
	esc(out, _("input feeding:"));
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"18\" "
		"fill=\"#1a9641\">", L->qx, ty + 26);
	math(out, f);
	fputs("</text></g>\n", out);
}

/* The step's formula and its output word, at baseline y. */
static void results_formula(FILE *out, const struct diagram *d, int x, int y,
			    int prec)
{
	char num[NUM_BUFSZ], lab[96];
	if (d->feeds_rnn)
		snprintf(lab, sizeof lab, _("c_%d feeds the RNN: s_%d = "
			 "f(s_%d, y_%d, c_%d)"), d->t, d->t, d->t - 1,
			 d->t - 1, d->t);
	else
		snprintf(lab, sizeof lab, "%s = tanh(W_c·[c_%d; s_%d])",
			 d->rname, d->t, d->t);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"24\">", x, y);
	math(out, lab);
	fputs("  →  ", out);
	esc(out, _("output"));
	fputs(" \"<tspan font-weight=\"bold\">", out);
	esc(out, d->out);
	fprintf(out, "</tspan>\"  P = %s</text>\n", num_fixed(num, d->out_p, prec));
}

/* The bottom row: c_t, joined to the weighted h_i above it by an arrow
 * that says how it is made; what the step makes of it, joined to the
 * query that it also reads; and the step's formula and output under
 * them.  Returns the baseline of the formula line. */
static int results(FILE *out, const struct diagram *d, const struct lay *L,
		   int prec)
{
	char lab[96], drawn[64];
	int b = L->bottom, ax = L->bx + L->bw / 2;
	arrow_down(out, "sum-arrow", ax, L->top + L->n * L->rh - 12, b - 2,
		   "#555555");
	if (d->sampled > 0)
		snprintf(lab, sizeof lab, _("c_%d = h_%d, the word drawn"),
			 d->t, d->sampled);
	else
		snprintf(lab, sizeof lab, "c_%d = Σ_i %s_%d,i h_i", d->t,
			 trace_weight_symbol(d->tr), d->t);
	fprintf(out, "<text class=\"sum\" x=\"%d\" y=\"%d\" font-size=\"20\" "
		"fill=\"#333333\">", ax + 14, b - 14);
	math(out, lab);
	fputs("</text>\n", out);
	arrow_down(out, "query-arrow", L->qx + 60, L->qy + BIG_BOX + 2, b - 2,
		   "#555555");
	snprintf(lab, sizeof lab, "c_%d", d->t);
	snprintf(drawn, sizeof drawn, _("= h_%d, drawn"), d->sampled);
	state_box(out, "context", lab, d->sampled > 0 ? drawn : _("the context"),
		  d->context, d->clen, L->bx, b, L->bw, BIG_BOX, prec, 0);
	state_box(out, "result", d->rname, d->feeds_rnn
		  ? _("the new state") : _("attentional state"),
		  d->result, d->rlen, L->qx - 240, b, L->bw, BIG_BOX, prec, 0);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"34\" "
		"text-anchor=\"middle\">→</text>\n", L->bx + L->bw + 70,
		b + 54);
	int y = b + BIG_BOX + 42;
	results_formula(out, d, L->bx, y, prec);
	return y;
}

/* A level arrow from (x0, y) to its head at (x1, y), either way. */
static void arrow_level(FILE *out, const char *cls, int x0, int x1, int y)
{
	int s = x1 > x0 ? 1 : -1;
	fprintf(out, "<g class=\"%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"#555555\" stroke-width=\"4\"/><path "
		"d=\"M %d %d l %d -9 l 0 18 z\" fill=\"#555555\"/></g>\n", cls,
		x0, y, x1 - 12 * s, y, x1, y, -14 * s);
}

/* Two columns: the spine that gathers the lines and runs down into c_t,
 * then the bottom row, c_t → result ← query (← h̃_{t-1} under input
 * feeding), and the step's formula under it.  Returns the formula's
 * baseline. */
static int results_two(FILE *out, const struct diagram *d,
		       const struct lay *L, int prec)
{
	char lab[96], sum[96], f[128];
	int b = L->bottom, w = L->qw, x[4], ym = b + BIG_BOX / 2;
	for (int j = 0; j < 4; j++)
		x[j] = COL2_X0 + j * (w + COL2_GAP);
	int y0, y1, bx;
	box_xy(L, 0, &bx, &y0);
	y0 += L->bh / 2;
	y1 = b - COL2_G / 2;
	fprintf(out, "<g class=\"sum-arrow\"><polyline points=\"%d,%d %d,%d "
		"%d,%d %d,%d\" fill=\"none\" stroke=\"#555555\" "
		"stroke-width=\"4\"/><path d=\"M %d %d l -9 -12 l 18 0 z\" "
		"fill=\"#555555\"/></g>\n", L->sx, y0, L->sx, y1, x[0] + w / 2,
		y1, x[0] + w / 2, b - 12, x[0] + w / 2, b);
	if (d->sampled > 0)
		snprintf(sum, sizeof sum, _("= h_%d, drawn"), d->sampled);
	else
		snprintf(sum, sizeof sum, "= Σ_i %s_%d,i h_i",
			 trace_weight_symbol(d->tr), d->t);
	snprintf(lab, sizeof lab, "c_%d", d->t);
	state_box(out, "context", lab, sum, d->context, d->clen, x[0], b, w,
		  BIG_BOX, prec, 0);
	arrow_level(out, "context-arrow", x[0] + w + 6, x[1] - 6, ym);
	state_box(out, "result", d->rname, d->feeds_rnn ? _("the new state")
		  : _("attentional state"), d->result, d->rlen, x[1], b, w,
		  BIG_BOX, prec, 0);
	arrow_level(out, "query-arrow", x[2] - 6, x[1] + w + 6, ym);
	state_box(out, "query", d->qname, _("the query"), d->query, d->qlen,
		  x[2], b, w, BIG_BOX, prec, 0);
	if (d->feed) {
		snprintf(lab, sizeof lab, "h̃_%d", d->t - 1);
		if (d->t > 1)
			snprintf(f, sizeof f, _("from step %d"), d->t - 1);
		else
			snprintf(f, sizeof f, "%s", _("no step yet"));
		state_box(out, "feed", lab, f, d->feed, d->flen, x[3], b, w,
			  BIG_BOX, prec, 0);
		arrow_level(out, "feed-arrow", x[3] - 6, x[2] + w + 6, ym);
	}
	int y = b + BIG_BOX + 42;
	results_formula(out, d, L->bx, y, prec);
	if (d->feed) {
		y += 36;
		snprintf(f, sizeof f, _("input feeding: s_%d = tanh(W_x·[y_%d; "
			 "h̃_%d] + W_h·s_%d + b)"), d->t, d->t - 1, d->t - 1,
			 d->t - 1);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"20\" "
			"fill=\"#1a9641\">", L->bx, y);
		math(out, f);
		fputs("</text>\n", out);
	}
	return y;
}

/* The lines under the picture, from baseline y: p_t's value, the
 * window's words, and what the colours and lines mean.  Returns the
 * picture's height. */
static int captions(FILE *out, const struct diagram *d, int bx, int y,
		    int prec, int one)
{
	char num[NUM_BUFSZ], lab[128], legend[320];
	int wx = bx, local = d->win_lo > 0 && d->win_hi >= d->win_lo &&
		d->win_hi <= d->n;
	if (one && ((d->has_pt && !d->note[0]) || local)) {
		y += 34; /* one line: p_t's value, then the window */
		if (d->has_pt && !d->note[0]) {
			snprintf(lab, sizeof lab, _("▶ p_%d = %s: the "
				 "Gaussian's centre"), d->t,
				 num_fixed(num, d->pt, prec));
			fprintf(out, "<text class=\"pt-value\" x=\"%d\" "
				"y=\"%d\" font-size=\"20\" fill=\"#7b3294\">",
				bx, y);
			math(out, lab);
			fputs("</text>\n", out);
			wx = bx + 420;
		}
		y -= local ? 34 : 0;
	} else if (d->has_pt && !d->note[0]) {
		y += 36; /* clear of the formula's subscripts */
		snprintf(lab, sizeof lab, _("▶ p_%d = %s: the Gaussian's "
			 "centre"), d->t, num_fixed(num, d->pt, prec));
		fprintf(out, "<text class=\"pt-value\" x=\"%d\" y=\"%d\" "
			"font-size=\"20\" fill=\"#7b3294\">", bx, y);
		math(out, lab);
		fputs("</text>\n", out);
	}
	if (local) {
		y += 34;
		fprintf(out, "<g class=\"window\" data-lo=\"%d\" data-hi=\"%d\">"
			"<rect x=\"%d\" y=\"%d\" width=\"36\" height=\"20\" "
			"fill=\"none\" stroke=\"#7b3294\" stroke-width=\"3\" "
			"stroke-dasharray=\"10 6\"/><text x=\"%d\" y=\"%d\" "
			"font-size=\"20\" fill=\"#7b3294\">", d->win_lo,
			d->win_hi, wx, y - 17, wx + 48, y);
		snprintf(lab, sizeof lab, _("window: positions %d..%d, the "
			 "words this step weighs"), d->win_lo, d->win_hi);
		esc(out, lab);
		fputs("</text></g>\n", out);
	}
	y += 32;
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#555555\">",
		bx, y, MIN_FS + 2);
	snprintf(legend, sizeof legend, _("cells: orange +, blue −, as strong "
		 "as the number; a line as thick and dark as its weight %s (at "
		 "least 3 px, so that a weight near 0 still shows)"),
		 trace_weight_symbol(d->tr));
	math(out, legend);
	fputs("</text>\n", out);
	return y + 24;
}

/* The header: the title, the line under it. */
static void header(FILE *out, const struct diagram *d, int bx, int height)
{
	char lab[192];
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" data-step=\"%d\">\n", W, height, W, height,
		FMT_SVG_FONTS, d->t);
	fputs("<title>", out);
	snprintf(lab, sizeof lab, _("attn-trace: step %d, the query %s weighs "
		 "each state h_i"), d->t, d->qname);
	esc(out, lab);
	fputs("</title>\n<desc>", out);
	esc(out, _("One decoder step of attention: a box for each source word "
		"with its state, a line from the query to each, as thick as its "
		"weight, and the context they make."));
	fputs("</desc>\n", out);
	fprintf(out, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" "
		"height=\"%d\" fill=\"#ffffff\"/>\n", W, height);
	if (d->note[0]) /* the window's own heading (fixed) */
		snprintf(lab, sizeof lab, "%s", d->note);
	else
		snprintf(lab, sizeof lab, _("Step %d: the query %s weighs "
			 "each encoder state h_i"), d->t, d->qname);
	fprintf(out, "<text x=\"%d\" y=\"56\" font-size=\"34\" "
		"font-weight=\"bold\">", bx);
	math(out, lab);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"100\" font-size=\"20\" "
		"fill=\"#444444\">", bx);
	math(out, d->feeds_rnn
	     ? _("the query is the decoder's state before the step; c_t then "
		 "feeds its RNN")
	     : _("the query is the decoder's new state; c_t then makes the "
		 "attentional state"));
	fputs("</text>\n", out);
}

/* An image's trace: the image with the step's weights over its cells,
 * above the query, right of the lines (caption_svg_step). */
static void image_panel(FILE *out, const struct diagram *d,
			const struct lay *L)
{
	const int pix = 30, x = L->qx + 110, y = L->top + 4;
	char lab[96];
	fprintf(out, "<g class=\"image\">\n");
	caption_svg_step(out, d->tr, d->run, d->t, x, y, pix);
	snprintf(lab, sizeof lab, _("the image, %s_%d,i over its cells"),
		 trace_weight_symbol(d->tr), d->t);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"20\" "
		"text-anchor=\"middle\" fill=\"#444444\">", x + 3 * pix,
		y + 6 * pix + 26);
	math(out, lab);
	fputs("</text>\n</g>\n", out);
}

/* An image's trace in two columns: the image with the step's weights
 * over its cells in the bottom row's fourth slot, its caption above it,
 * rising into the right column's last row, which is empty (nine cells
 * make five rows on the left and four on the right), and reaching no
 * lower than the formula's line, which ends left of it. */
static void image_panel_two(FILE *out, const struct diagram *d,
			    const struct lay *L)
{
	const int pix = 28, x = COL2_X0 + 3 * (L->qw + COL2_GAP);
	const int y = L->top + (L->k - 1) * L->rh + 4;
	char lab[64];
	snprintf(lab, sizeof lab, "the image, %s_%d,i over its cells",
		 trace_weight_symbol(d->tr), d->t);
	fputs("<g class=\"image\">\n", out);
	caption_svg_step(out, d->tr, d->run, d->t, x, y + 40, pix);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"20\" "
		"text-anchor=\"end\" fill=\"#444444\">", W - COL2_X0, y + 20);
	math(out, lab);
	fputs("</text>\n</g>\n", out);
}

/* The picture's height: the captions' last line, worked out as
 * captions() will lay them. */
static int picture_height(const struct diagram *d, const struct lay *L)
{
	if (L->cols > 1)
		return L->bottom + below_two(d);
	int y = L->bottom + BIG_BOX + 42 + 32 + 24;
	if (d->has_pt && !d->note[0])
		y += 36;
	if (d->win_lo > 0 && d->win_hi >= d->win_lo && d->win_hi <= d->n)
		y += 34;
	return y;
}

int diagram_svg(FILE *out, const struct diagram *d, int precision)
{
	char lab[96];
	int prec = precision < 1 ? 1 : precision > 6 ? 6 : precision;
	struct lay L;
	lay_out(&L, d);
	int height = picture_height(d, &L);
	/* --set: a line under the captions says the trace is a what-if */
	char wif[FMT_WHATIF_NOTE];
	int wifh = fmt_whatif_note(d->tr, wif, sizeof wif)
		   ? 12 + 28 * fmt_whatif_wrap(wif, DIAGRAM_WHATIF_COLS) : 0;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	header(out, d, L.bx, height + wifh);
	window_marks(out, d, &L, prec);
	weight_lines(out, d, &L, prec); /* under the boxes */
	for (int i = 0; i < d->n; i++) { /* the encoder's boxes */
		int x, y;
		box_xy(&L, i, &x, &y);
		snprintf(lab, sizeof lab, "h_%d", i + 1);
		state_box(out, "state", d->words[i], lab, d->h[i], d->hlen,
			  x, y, L.bw, L.bh, prec, d->sampled == i + 1);
	}
	int y;
	if (L.cols > 1) {
		y = results_two(out, d, &L, prec);
		if (d->tr->enc == &caption_encoder)
			image_panel_two(out, d, &L);
	} else {
		state_box(out, "query", d->qname, _("the query"), d->query,
			  d->qlen, L.qx, L.qy, L.qw, BIG_BOX, prec, 0);
		if (d->feed)
			feed_box(out, d, &L, prec);
		if (d->tr->enc == &caption_encoder)
			image_panel(out, d, &L);
		y = results(out, d, &L, prec);
	}
	if (captions(out, d, L.bx, y, prec, L.cols > 1) != height)
		return -1; /* picture_height() and captions() disagree */
	y = height;
	for (char *s = wifh ? wif : "", *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		int last = !*e;
		*e = '\0';
		y += 28;
		fprintf(out, "<text class=\"whatif\" x=\"%d\" y=\"%d\" "
			"font-size=\"20\" font-weight=\"bold\" "
			"fill=\"#b2182b\">", L.bx, y - 4);
		esc(out, s);
		fputs("</text>\n", out);
		if (!last)
			*e = '\n';
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
