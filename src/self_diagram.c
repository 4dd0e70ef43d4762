/* self_diagram.c: the line diagram of one self-attention head, without
 * curses (self_diagram.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "fmt_svg.h"
#include "i18n.h"
#include "num.h"
#include "self_diagram.h"
#include "utf8.h"
#include "util.h"

static const char glyph[SELF_DIAGRAM_LEVELS] = { ' ', '.', '-', '=', '#' };

int self_diagram_level(double w)
{
	int l = 1 + (int)floor(w * 4);
	if (l < 1)
		l = 1;
	if (l > SELF_DIAGRAM_LEVELS - 1)
		l = SELF_DIAGRAM_LEVELS - 1;
	return l;
}

/* The REC_ROW_SOFTMAX record of head h (0-based), or NULL. */
static const struct trace_rec *softmax_rec(const struct self_trace *t, int h)
{
	for (int k = 0; k < t->tr.nrecs; k++)
		if (t->tr.recs[k].kind == REC_ROW_SOFTMAX &&
		    t->tr.recs[k].head == h + 1)
			return &t->tr.recs[k];
	return NULL;
}

static void push(struct self_diagram *d, char *s, int *cap)
{
	if (d->nlines == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		d->lines = xreallocarray(d->lines, (size_t)*cap,
					 sizeof *d->lines);
	}
	d->lines[d->nlines++] = s;
}

/* s cut to at most width columns, in place. */
static void cut(char *s, int width)
{
	int cols = 0;
	size_t k = 0;
	while (s[k]) {
		size_t len = utf8_char_len(s + k);
		char c[8];
		if (len == 0 || len >= sizeof c)
			len = 1;
		memcpy(c, s + k, len);
		c[len] = '\0';
		int w = utf8_width(c);
		if (cols + w > width)
			break;
		cols += w;
		k += len;
	}
	s[k] = '\0';
	while (k > 0 && s[k - 1] == ' ')
		s[--k] = '\0';
}

static int words_cols(char *const *w, int n)
{
	int m = 0;
	for (int k = 0; k < n; k++)
		if (utf8_width(w[k]) > m)
			m = utf8_width(w[k]);
	return m;
}

int self_diagram_build(struct self_diagram *d, const struct self_trace *t,
		       int head, int row, int width, int prec)
{
	const struct trace_rec *r;
	int cap = 0, lo, hi;

	memset(d, 0, sizeof *d);
	if (head < 0 || head >= SELF_HEADS || row < -1 || row >= t->nq)
		return -1;
	r = softmax_rec(t, head);
	if (!r)
		return -1;
	d->head = head;
	d->row = row;
	d->nq = t->nq;
	d->n = t->n;
	d->qwords = t->qwords;
	d->kwords = t->kwords;
	lo = row < 0 ? 0 : row;
	hi = row < 0 ? t->nq : row + 1;
	d->npairs = (hi - lo) * t->n;
	d->pairs = xcalloc((size_t)d->npairs, sizeof *d->pairs);
	for (int i = lo; i < hi; i++) {
		struct self_diagram_pair *p = d->pairs + (size_t)(i - lo) * t->n;
		int best = -1;
		for (int j = 0; j < t->n; j++) {
			size_t at = (size_t)i * t->n + j;
			p[j].i = i;
			p[j].j = j;
			p[j].w = r->result[at];
			/* the scores weighed, -inf where masked */
			const double s = trace_op(r, "scores")->v[at];
			p[j].masked = isinf(s) && s < 0;
			p[j].level = p[j].masked ? 0
						 : self_diagram_level(p[j].w);
			if (!p[j].masked && (best < 0 || p[j].w > p[best].w))
				best = j;
		}
		if (best >= 0)
			p[best].is_max = 1;
	}

	/* the picture: for each row, a fan from the query to every key */
	int qw = words_cols(t->qwords, t->nq) + 4;
	int kw = words_cols(t->kwords, t->n) + 4;
	int tail = prec + 3 + 12; /* the weight and "  <- largest" */
	int len = width - qw - 3 - kw - tail;
	char num[NUM_BUFSZ];
	if (len > 24)
		len = 24;
	if (len < 4)
		len = 4;
	push(d, xasprintf(_("head %d: a line from each query to each key, "
			    "as thick as its weight"), head + 1), &cap);
	push(d, xstrdup(_("  . under 0.25   - under 0.5   = under 0.75   "
			  "# 0.75 and over")), &cap);
	for (int i = lo; i < hi; i++) {
		const struct self_diagram_pair *p =
			d->pairs + (size_t)(i - lo) * t->n;
		int mid = (t->n - 1) / 2;
		push(d, xstrdup(""), &cap);
		for (int j = 0; j < t->n; j++) {
			char *line = NULL, lab[16];
			size_t sz = 0;
			FILE *f = open_memstream(&line, &sz);
			if (j == mid) {
				snprintf(lab, sizeof lab, "%d ", i + 1);
				fputs(lab, f);
				fmt_pad(f, t->qwords[i], qw - (int)strlen(lab));
				fputs("--", f);
			} else {
				fprintf(f, "%*s", qw + 2, "");
			}
			fputc(t->n == 1 ? '-' : j == 0 ? '.' :
			      j == t->n - 1 ? '\'' : '+', f);
			for (int c = 0; c < len; c++)
				fputc(glyph[p[j].level], f);
			snprintf(lab, sizeof lab, " %d ", j + 1);
			fputs(lab, f);
			fmt_pad(f, t->kwords[j], kw - (int)strlen(lab) + 1);
			if (p[j].masked) {
				/* right-aligned by display width */
				const char *m = _("masked");
				int pad = prec + 3 - utf8_width(m);
				fprintf(f, " %*s%s", pad > 0 ? pad : 0, "", m);
			} else {
				fmt_num(num, p[j].w, prec);
				fprintf(f, " %*s", prec + 3, num);
				if (p[j].is_max)
					fputs(_("  <- largest"), f);
			}
			fclose(f);
			push(d, line, &cap);
		}
	}
	for (int k = 0; k < d->nlines; k++)
		cut(d->lines[k], width);
	return 0;
}

void self_diagram_free(struct self_diagram *d)
{
	for (int k = 0; k < d->nlines; k++)
		free(d->lines[k]);
	free(d->lines);
	free(d->pairs);
	memset(d, 0, sizeof *d);
}

/* ------------------------------------------------------------------- SVG */

#define SVG_FS 13      /* the font size */
#define SVG_ROW 36     /* between two tokens */
#define SVG_SPAN 190   /* the lines' horizontal run (two heads of 12-letter words within 1248 px: 20 px on a slide) */
#define SVG_TOP 64     /* above the first token */
#define SVG_GAP 48     /* between two heads */
#define SVG_NUMS 150   /* the weights of the row, right of the keys */

/* The estimated width in px of s at the font size: 0.62 em a column. */
static int svg_px(const char *s)
{
	return (int)(utf8_width(s) * SVG_FS * 0.62 + 0.5);
}

/* The width of a line of weight w: larger for a larger weight. */
static double svg_stroke(double w)
{
	return 0.5 + 8 * w;
}

static void svg_line(FILE *out, const struct self_diagram_pair *p, int head,
		     int row, int xq, int xk, int y0)
{
	char num[NUM_BUFSZ];
	const int yq = y0 + SVG_TOP + p->i * SVG_ROW;
	const int yk = y0 + SVG_TOP + p->j * SVG_ROW;
	fprintf(out, "<line class=\"%s\" data-head=\"%d\" data-i=\"%d\" "
		"data-j=\"%d\" data-alpha=\"%s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" ", p->masked ? "masked" : "weight", head + 1,
		p->i + 1, p->j + 1, num_shortest(num, p->w), xq, yq - 4, xk,
		yk - 4);
	if (p->masked)
		fputs("stroke=\"#969696\" stroke-width=\"1\" "
		      "stroke-dasharray=\"3 4\"", out);
	else
		fprintf(out, "stroke=\"%s\" stroke-opacity=\"%s\" "
			"stroke-width=\"%.3f\" stroke-linecap=\"round\"",
			p->i == row ? "#08519c" : "#6baed6",
			p->i == row ? "1" : "0.45", svg_stroke(p->w));
	fprintf(out, "><title>α_%d,%d = %s</title></line>\n", p->i + 1,
		p->j + 1, p->masked ? "0, masked" : num_shortest(num, p->w));
}

int self_diagram_svg(FILE *out, const struct self_trace *t, unsigned heads,
		     int row, int prec)
{
	int lq = 0, lk = 0, nh = 0, rows;
	char num[NUM_BUFSZ], lab[16];
	if (row < 0 || row >= t->nq)
		return -1;
	for (int i = 0; i < t->nq; i++)
		if (svg_px(t->qwords[i]) > lq)
			lq = svg_px(t->qwords[i]);
	for (int j = 0; j < t->n; j++)
		if (svg_px(t->kwords[j]) > lk)
			lk = svg_px(t->kwords[j]);
	for (int h = 0; h < SELF_HEADS; h++)
		nh += (heads & t->tr.self.shown) >> h & 1;
	if (nh == 0)
		return -1;
	lq += 32;
	lk += 32;
	rows = t->nq > t->n ? t->nq : t->n;
	const int panel = lq + SVG_SPAN + lk + SVG_NUMS;
	const int ph = SVG_TOP + rows * SVG_ROW + 24; /* a panel's height */
	/* the heads side by side, or one above the other when that is
	 * nearer a 16:9 slide (a few words: not a strip) */
	int width = 20 + nh * panel + (nh - 1) * SVG_GAP + 20, height = ph;
	const int sw = 20 + panel + 20, sh = nh * ph + (nh - 1) * SVG_GAP / 2;
	const int stack = fabs(log((double)sw / sh / (16.0 / 9))) <
			  fabs(log((double)width / height / (16.0 / 9)));
	if (stack) {
		width = sw;
		height = sh;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" font-size=\"%d\" data-row=\"%d\">\n", width,
		height, width, height, FMT_SVG_FONTS, SVG_FS, row + 1);
	fputs("<title>", out);
	fmt_svg_text(out, t->o.cross ? (t->o.causal ? _("cross-attention: a "
		"line from each query word to each key word, as thick as the "
		"head's weight (causal mask)") : _("cross-attention: a line "
		"from each query word to each key word, as thick as the head's "
		"weight")) : t->o.causal ? _("self-attention: a line from each "
		"query word to each key word, as thick as the head's weight "
		"(causal mask)") : _("self-attention: a line from each query "
		"word to each key word, as thick as the head's weight"));
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#ffffff\"/>\n", width, height);
	int x0 = 20, y0 = 0;
	for (int h = 0; h < SELF_HEADS; h++) {
		struct self_diagram d;
		if (!(heads & t->tr.self.shown & (1u << h)))
			continue;
		if (self_diagram_build(&d, t, h, -1, 80, prec) != 0)
			return -1;
		const int xq = x0 + lq, xk = xq + SVG_SPAN;
		fprintf(out, "<g class=\"head\" id=\"head%d\" data-head=\"%d\">\n",
			h + 1, h + 1);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">",
			x0, y0 + 22);
		fprintf(out, _("head %d: queries left, keys right; row %d's "
			       "weights"), h + 1, row + 1);
		fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\" "
			"fill=\"#555555\">%s</text>\n", x0, y0 + SVG_TOP - 24,
			_("queries"));
		fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#555555\">%s"
			"</text>\n", xk + 8, y0 + SVG_TOP - 24, _("keys"));
		/* the other rows first, the chosen row's lines on top */
		for (int pass = 0; pass < 2; pass++)
			for (int k = 0; k < d.npairs; k++)
				if ((d.pairs[k].i == row) == pass)
					svg_line(out, &d.pairs[k], h, row,
						 xq - 6, xk + 6, y0);
		for (int i = 0; i < t->nq; i++) {
			snprintf(lab, sizeof lab, "%d ", i + 1);
			fprintf(out, "<text class=\"query\" x=\"%d\" y=\"%d\" "
				"text-anchor=\"end\"%s>%s", xq - 14,
				y0 + SVG_TOP + i * SVG_ROW, i == row
				? " font-weight=\"bold\"" : "", lab);
			fmt_svg_text(out, t->qwords[i]);
			fputs("</text>\n", out);
		}
		for (int j = 0; j < t->n; j++) {
			const struct self_diagram_pair *p =
				&d.pairs[(size_t)row * t->n + j];
			int y = y0 + SVG_TOP + j * SVG_ROW;
			snprintf(lab, sizeof lab, "%d ", j + 1);
			fprintf(out, "<text class=\"key\" x=\"%d\" y=\"%d\">%s",
				xk + 10, y, lab);
			fmt_svg_text(out, t->kwords[j]);
			fputs("</text>\n", out);
			fprintf(out, "<text class=\"alpha\" data-j=\"%d\" x=\"%d\" "
				"y=\"%d\"%s>%s%s</text>\n", j + 1,
				xk + lk + 10, y, p->is_max
				? " font-weight=\"bold\"" : "",
				p->masked ? _("masked (j > i)")
					  : fmt_num(num, p->w, prec),
				p->is_max ? _(" ◄ largest") : "");
		}
		fputs("</g>\n", out);
		self_diagram_free(&d);
		if (stack)
			y0 += ph + SVG_GAP / 2;
		else
			x0 += panel + SVG_GAP;
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
