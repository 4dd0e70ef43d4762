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

#include "diagram.h"
#include "fmt_svg.h"
#include "num.h"

#define W 1280   /* a 16:9 slide */

/* Writes s as XML character data or an attribute value. */
static void esc(FILE *out, const char *s)
{
	fmt_svg_text(out, s);
}

/* data-values="v1 v2 ...": exact */
static void data_values(FILE *out, const char *attr, const double *v, int n)
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
		data_values(out, "data-value", &v[k], 1);
		fputs("/>\n", out);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
			"text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			cx + size / 2, y + size * 2 / 3 + 2, size * 2 / 3,
			a > 0.6 ? "#ffffff" : "#000000", v[k] < 0 ? "−" : "+");
	}
}

/* One labelled box of a state: class, the label, its cells and, when
 * nums, its numbers under them. */
static void state_box(FILE *out, const char *cls, const char *label,
		      const char *sub, const double *v, int len, int x, int y,
		      int w, int h, int prec, int strong)
{
	char num[NUM_BUFSZ + 1];
	fprintf(out, "<g class=\"%s\"", cls);
	data_values(out, "data-values", v, len);
	fprintf(out, ">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"rx=\"8\" fill=\"#f7f7f7\" stroke=\"#222222\" stroke-width=\"%d\"/>\n",
		x, y, w, h, strong ? 5 : 2);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"24\" "
		"font-weight=\"bold\">", x + 14, y + h / 2 - (sub ? 2 : -8));
	esc(out, label);
	fputs("</text>\n", out);
	if (sub) {
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"16\" "
			"fill=\"#444444\">", x + 14, y + h / 2 + 20);
		esc(out, sub);
		fputs("</text>\n", out);
	}
	int size = h - 34 < 34 ? (h - 34 > 14 ? h - 34 : 14) : 34;
	cells(out, v, len, x + w - 4 * (size + 8) - 6, y + 8, size);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" "
		"text-anchor=\"end\" fill=\"#333333\" "
		"font-family=\"'DejaVu Sans Mono', monospace\">",
		x + w - 8, y + size + 24);
	for (int k = 0; k < len && k < DIAGRAM_CELLS; k++)
		fprintf(out, "%s%s", k ? " " : "", signed_fixed(num, v[k], prec));
	fputs("</text>\n</g>\n", out);
}

int diagram_svg(FILE *out, const struct diagram *d, int precision)
{
	char num[NUM_BUFSZ + 1], lab[64];
	int prec = precision < 1 ? 1 : precision > 6 ? 6 : precision;
	/* input feeding: a row above the boxes for h̃_{t-1}, which the
	 * decoder's RNN read to make s_t, the query */
	int n = d->n, top = d->feed ? 230 : 110;
	int rh = n <= 5 ? 96 : 480 / n < 50 ? 50 : 480 / n;
	int bh = rh - 16, bw = 400, bx = 60;
	int qx = 840, qw = 380, qy = top + (n * rh - bh) / 2 - 8;
	int bottom = top + n * rh + 20;
	int height = bottom + 230;
	int hlen = d->hlen;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" data-step=\"%d\">\n", W, height, W, height,
		FMT_SVG_FONTS, d->t);
	fprintf(out, "<title>attn-trace: step %d, the query %s weighs each "
		"state h_i</title>\n", d->t, d->qname);
	fprintf(out, "<desc>One decoder step of attention: a box for each "
		"source word with its state, a line from the query to each, as "
		"thick as its weight, and the context they make.</desc>\n");
	fprintf(out, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" "
		"height=\"%d\" fill=\"#ffffff\"/>\n", W, height);
	fprintf(out, "<text x=\"%d\" y=\"56\" font-size=\"34\" "
		"font-weight=\"bold\">Step %d: the query %s weighs each encoder "
		"state h_i</text>\n", bx, d->t, d->qname);
	fprintf(out, "<text x=\"%d\" y=\"88\" font-size=\"20\" "
		"fill=\"#444444\">%s</text>\n", bx, d->feeds_rnn
		? "the query is the decoder's state before the step; c_t then "
		  "feeds its RNN"
		: "the query is the decoder's new state; c_t then makes the "
		  "attentional state");

	/* a local window: a dashed frame round its boxes, and p_t.  The
	 * left margin has two columns: p_t's marker (x 26..42) by the frame
	 * and, left of it, the word "window" turned upright (its baseline at
	 * x 20, its glyphs within x 5..24), so that the word never runs into
	 * the marker, whichever box p_t points at and however short the
	 * frame.  The frame ends 8 px right of the boxes, clear of the α
	 * labels at bx + bw + 16. */
	if (d->win_lo > 0 && d->win_hi >= d->win_lo && d->win_hi <= n) {
		int y0 = top + (d->win_lo - 1) * rh - 6;
		int y1 = top + (d->win_hi - 1) * rh + bh + 6;
		int lx = bx - 40;
		fprintf(out, "<g class=\"window\" data-lo=\"%d\" data-hi=\"%d\">"
			"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"none\" stroke=\"#7b3294\" stroke-width=\"3\" "
			"stroke-dasharray=\"10 6\"/><text x=\"%d\" y=\"%d\" "
			"font-size=\"16\" fill=\"#7b3294\" transform=\"rotate(-90 %d %d)\" "
			"text-anchor=\"middle\">window</text></g>\n",
			d->win_lo, d->win_hi, bx - 14, y0, bw + 22, y1 - y0,
			lx, (y0 + y1) / 2, lx, (y0 + y1) / 2);
	}
	if (d->has_pt) {
		double py = top + (d->pt - 1) * rh + bh / 2.0;
		fprintf(out, "<g class=\"pt\"");
		data_values(out, "data-value", &d->pt, 1);
		/* the marker at p_t; its value is written below the
		 * picture, where there is room */
		fprintf(out, "><path d=\"M %d %.1f l -16 -10 l 0 20 z\" "
			"fill=\"#7b3294\"><title>p_%d = %s</title></path></g>\n",
			bx - 18, py, d->t, num_fixed(num, d->pt, prec));
	}

	/* the lines first, under the boxes */
	for (int i = 0; i < n; i++) {
		double a = d->alpha[i];
		int y = top + i * rh + bh / 2;
		fprintf(out, "<line class=\"weight\" data-i=\"%d\"", i + 1);
		data_values(out, "data-alpha", &a, 1);
		fprintf(out, " x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#222222\" stroke-linecap=\"round\" "
			"stroke-width=\"%.2f\" stroke-opacity=\"%.3f\"/>\n",
			qx, qy + bh / 2, bx + bw, y, 1.5 + 22 * a, 0.2 + 0.8 * a);
		fprintf(out, "<text class=\"alpha\" x=\"%d\" y=\"%d\" "
			"font-size=\"22\"%s>%s_%d,%d = %s%s</text>\n",
			bx + bw + 16, y - 17, i == d->amax ? " font-weight=\"bold\"" : "",
			trace_weight_symbol(d->tr), d->t, i + 1, num_fixed(num, a, prec),
			i == d->amax ? "  ◀ largest" : "");
		if (d->sampled == i + 1) /* below the line, where it has room */
			fprintf(out, "<text class=\"sampled\" x=\"%d\" y=\"%d\" "
				"font-size=\"18\" fill=\"#7b3294\">● sampled: "
				"c_%d = h_%d</text>\n", bx + bw + 16, y + 30,
				d->t, i + 1);
	}
	/* the encoder's boxes */
	for (int i = 0; i < n; i++) {
		snprintf(lab, sizeof lab, "h_%d", i + 1);
		char word[MODEL_MAX_WORD + 8];
		snprintf(word, sizeof word, "%s", d->words[i]);
		state_box(out, "state", word, lab, d->h[i], hlen, bx,
			  top + i * rh, bw, bh, prec, d->sampled == i + 1);
	}
	/* the query */
	state_box(out, "query", d->qname, "the query", d->query, d->qlen, qx, qy, qw,
		  bh > 80 ? 80 : bh, prec, 0);
	if (d->feed) { /* h̃_{t-1} and its arrow into the RNN that made s_t */
		int fy = 100, fh = 80, ax = qx + qw / 2;
		snprintf(lab, sizeof lab, "h̃_%d", d->t - 1);
		char sub[48];
		if (d->t > 1)
			snprintf(sub, sizeof sub, "from step %d", d->t - 1);
		else
			snprintf(sub, sizeof sub, "no step yet");
		state_box(out, "feed", lab, sub, d->feed, d->flen, qx, fy, qw,
			  fh, prec, 0);
		fprintf(out, "<g class=\"feed-arrow\"><line x1=\"%d\" "
			"y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1a9641\" "
			"stroke-width=\"4\"/><path d=\"M %d %d l -9 -14 l 18 0 "
			"z\" fill=\"#1a9641\"/>\n", ax, fy + fh, ax, qy - 14,
			ax, qy);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"18\" "
			"text-anchor=\"end\" fill=\"#1a9641\">input feeding: "
			"s_%d = tanh(W_x·[y_%d; h̃_%d] + W_h·s_%d + b)</text>"
			"</g>\n", qx - 16, fy + fh / 2 + 6, d->t, d->t - 1,
			d->t - 1, d->t - 1);
	}
	/* the result: c_t, then what the step makes of it */
	snprintf(lab, sizeof lab, "c_%d", d->t);
	char drawn[32];
	snprintf(drawn, sizeof drawn, "= h_%d, drawn", d->sampled);
	state_box(out, "context", lab, d->sampled > 0 ? drawn : "the context",
		  d->context,
		  d->clen, bx, bottom, bw, 80, prec, 0);
	state_box(out, "result", d->rname, d->feeds_rnn
		  ? "the new state" : "attentional state",
		  d->result, d->rlen, qx - 240, bottom, bw, 80, prec, 0);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"34\" "
		"text-anchor=\"middle\">→</text>\n", bx + bw + 110, bottom + 50);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"24\">", bx,
		bottom + 130);
	if (d->feeds_rnn)
		fprintf(out, "c_%d feeds the RNN: s_%d = f(s_%d, y_%d, c_%d)",
			d->t, d->t, d->t - 1, d->t - 1, d->t);
	else
		fprintf(out, "%s = tanh(W_c·[c_%d; s_%d])", d->rname, d->t, d->t);
	fputs("  →  output \"<tspan font-weight=\"bold\">", out);
	esc(out, d->out);
	fprintf(out, "</tspan>\"  P = %s</text>\n", num_fixed(num, d->out_p, prec));
	if (d->has_pt)
		fprintf(out, "<text class=\"pt-value\" x=\"%d\" y=\"%d\" "
			"font-size=\"17\" fill=\"#7b3294\">▶ p_%d = %s: the "
			"window's centre; positions %d..%d</text>\n", bx,
			bottom + 162, d->t, num_fixed(num, d->pt, prec),
			d->win_lo, d->win_hi);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"15\" fill=\"#555555\">"
		"cells: orange +, blue −, as strong as the number; a line as "
		"thick and dark as its weight %s</text>\n", bx,
		bottom + (d->has_pt ? 192 : 180), trace_weight_symbol(d->tr));
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
