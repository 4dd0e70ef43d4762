/* accuracy_fmt.c: the accuracy report (accuracy.h) as text (a table and a
 * text plot), CSV, JSON and an SVG line chart.  It formats the counts
 * accuracy_measure() made and computes nothing but shares and layout.
 * The layouts are described in doc/accuracy.md. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "accuracy.h"
#include "fmt.h"
#include "fmt_svg.h"
#include "i18n.h"
#include "num.h"
#include "scorer.h"
#include "window.h"

static const char *const accuracy_formats[] = { "text", "csv", "json",
						"svg" };

const char *accuracy_format_name(int k)
{
	return k >= 0 && k < (int)(sizeof accuracy_formats /
				   sizeof accuracy_formats[0])
	       ? accuracy_formats[k] : NULL;
}

/* The source lengths that hold pairs, from the first line's counts (every
 * line counts the same pairs file): into len (PAIRS_MAX_WORDS), their
 * number returned. */
static int accuracy_lengths(const struct accuracy_report *r, int *len)
{
	int k = 0;
	for (int n = 1; n <= PAIRS_MAX_WORDS; n++)
		if (r->n > 0 && r->lines[0].by_len[n].pairs > 0)
			len[k++] = n;
	return k;
}

/* A share as a percentage with one decimal, "97.5%", into buf (NUM_BUFSZ
 * + 1 bytes). */
static const char *accuracy_pct(char *buf, int right, int total)
{
	size_t k = num_fixed_len(buf, 100.0 * accuracy_share(right, total),
				 1);
	buf[k] = '%';
	buf[k + 1] = '\0';
	return buf;
}

/* Writes s with each control byte written \xNN, for text that a terminal
 * shows (a model's name as typed). */
static void accuracy_put(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02X", c);
		else
			fputc(c, out);
	}
}

/* The letter of line k in the text table and plot: A, B, ... */
static char accuracy_letter(int k)
{
	return (char)('A' + k);
}

/* ---------------------------------------------------------------- text */

/* The row of source length n (0: every pair, "all"). */
static void accuracy_text_row(FILE *out, const struct accuracy_report *r,
			      int n)
{
	char a[NUM_BUFSZ + 1], b[NUM_BUFSZ + 1];
	const struct accuracy_line *l0 = &r->lines[0];
	if (n > 0)
		fprintf(out, "%6d %6d", n, l0->by_len[n].pairs);
	else
		fprintf(out, "%6s %6d", "all", l0->all.pairs);
	for (int k = 0; k < r->n; k++) {
		const struct accuracy_count *c = n > 0 ? &r->lines[k].by_len[n]
						       : &r->lines[k].all;
		fprintf(out, "  %8s %8s", accuracy_pct(a, c->words_right,
							c->words),
			accuracy_pct(b, c->exact, c->pairs));
	}
	fputc('\n', out);
}

/* The key: a line's letter and its label, a line each. */
static void accuracy_text_key(FILE *out, const struct accuracy_report *r)
{
	char label[512];
	for (int k = 0; k < r->n; k++) {
		accuracy_label(label, sizeof label, &r->lines[k], 0);
		fprintf(out, "  %c  ", accuracy_letter(k));
		accuracy_put(out, label);
		fputc('\n', out);
	}
}

static void accuracy_text_table(FILE *out, const struct accuracy_report *r)
{
	int len[PAIRS_MAX_WORDS];
	int nlen = accuracy_lengths(r, len);
	fputs("accuracy by source length, greedy decoding: ", out);
	accuracy_put(out, r->pairs);
	fputs("\n\n", out);
	accuracy_text_key(out, r);
	fputs("\nlength  pairs", out);
	for (int k = 0; k < r->n; k++)
		fprintf(out, "  %c: words    exact", accuracy_letter(k));
	fputc('\n', out);
	for (int i = 0; i < nlen; i++)
		accuracy_text_row(out, r, len[i]);
	accuracy_text_row(out, r, 0);
}

/* The mark of source length n in the plot's row `row` of rows (row
 * rows: 100%): the letter of the one line whose word accuracy rounds to
 * it, '*' if several do, ' ' if none. */
static char accuracy_mark(const struct accuracy_report *r, int n, int row,
			  int rows)
{
	char mark = ' ';
	for (int k = 0; k < r->n; k++) {
		const struct accuracy_count *c = &r->lines[k].by_len[n];
		int tenth = (int)(rows * accuracy_share(c->words_right,
							 c->words) + 0.5);
		if (tenth == row)
			mark = mark == ' ' ? accuracy_letter(k) : '*';
	}
	return mark;
}

/* Word accuracy against source length, a row a 1/rows (100% at the
 * top), a column of 3 characters a length. */
static void accuracy_text_plot(FILE *out, const struct accuracy_report *r,
			       int rows)
{
	int len[PAIRS_MAX_WORDS];
	int nlen = accuracy_lengths(r, len);
	for (int row = rows; row >= 0; row--) {
		fprintf(out, "%4d%% |", 100 * row / rows);
		int end = 0; /* the columns written, without trailing blanks */
		for (int i = 0; i < nlen; i++) {
			char mark = accuracy_mark(r, len[i], row, rows);
			if (mark == ' ')
				continue;
			fprintf(out, "%*c", 3 * (i + 1) - end, mark);
			end = 3 * (i + 1);
		}
		fputc('\n', out);
	}
	fputs("      +", out);
	for (int i = 0; i < nlen; i++)
		fputs("---", out);
	fputs("\n       ", out);
	for (int i = 0; i < nlen; i++)
		fprintf(out, "%3d", len[i]);
	fputs("\n       source length (words)\n", out);
}

int accuracy_write_plot(FILE *out, const struct accuracy_report *r, int rows)
{
	accuracy_text_key(out, r);
	accuracy_text_plot(out, r, rows);
	return ferror(out) ? -1 : 0;
}

/* ----------------------------------------------------------- csv, json */

/* The CSV row of line l's counts c, at source length n (0: "all"). */
static void accuracy_csv_row(FILE *out, const struct accuracy_line *l,
			     const struct accuracy_count *c, int n)
{
	char a[NUM_BUFSZ], b[NUM_BUFSZ];
	fmt_csv_field(out, l->model);
	fprintf(out, ",%s,%s,%d,", scorer_get(l->scorer)->name,
		window_get(l->cfg.window)->name, l->cfg.window_size);
	if (n > 0)
		fprintf(out, "%d", n);
	else
		fputs("all", out);
	fprintf(out, ",%d,%d,%d,%d,%s,%s\n", c->pairs, c->words,
		c->words_right, c->exact,
		num_shortest(a, accuracy_share(c->words_right, c->words)),
		num_shortest(b, accuracy_share(c->exact, c->pairs)));
}

static void accuracy_csv(FILE *out, const struct accuracy_report *r)
{
	int len[PAIRS_MAX_WORDS];
	int nlen = accuracy_lengths(r, len);
	fputs("model,scorer,window,window_size,length,pairs,words,"
	      "words_right,exact,word_accuracy,exact_accuracy\n", out);
	for (int k = 0; k < r->n; k++) {
		const struct accuracy_line *l = &r->lines[k];
		for (int i = 0; i < nlen; i++)
			accuracy_csv_row(out, l, &l->by_len[len[i]], len[i]);
		accuracy_csv_row(out, l, &l->all, 0);
	}
}

/* The JSON object of counts c (at source length n; 0: no "length"). */
static void accuracy_json_count(FILE *out, const struct accuracy_count *c,
				int n)
{
	char a[NUM_BUFSZ], b[NUM_BUFSZ];
	fputc('{', out);
	if (n > 0)
		fprintf(out, "\"length\": %d, ", n);
	fprintf(out, "\"pairs\": %d, \"words\": %d, \"words_right\": %d, "
		"\"exact\": %d, \"word_accuracy\": %s, \"exact_accuracy\": %s}",
		c->pairs, c->words, c->words_right, c->exact,
		num_shortest(a, accuracy_share(c->words_right, c->words)),
		num_shortest(b, accuracy_share(c->exact, c->pairs)));
}

static void accuracy_json_line(FILE *out, const struct accuracy_line *l,
			       const int *len, int nlen)
{
	char label[512];
	accuracy_label(label, sizeof label, l, 0);
	fputs("    {\"label\": ", out);
	fmt_json_string(out, label);
	fputs(", \"model\": ", out);
	fmt_json_string(out, l->model);
	fprintf(out, ", \"scorer\": \"%s\", \"window\": \"%s\", "
		"\"window_size\": %d,\n     \"by_length\": [",
		scorer_get(l->scorer)->name, window_get(l->cfg.window)->name,
		l->cfg.window_size);
	for (int i = 0; i < nlen; i++) {
		fputs(i ? ",\n       " : "\n       ", out);
		accuracy_json_count(out, &l->by_len[len[i]], len[i]);
	}
	fputs("],\n     \"all\": ", out);
	accuracy_json_count(out, &l->all, 0);
	fputc('}', out);
}

static void accuracy_json(FILE *out, const struct accuracy_report *r)
{
	int len[PAIRS_MAX_WORDS];
	int nlen = accuracy_lengths(r, len);
	fputs("{\"format\": \"attn-trace-accuracy/1\", \"pairs\": ", out);
	fmt_json_string(out, r->pairs);
	fputs(", \"decoding\": \"greedy\",\n \"lines\": [\n", out);
	for (int k = 0; k < r->n; k++) {
		if (k)
			fputs(",\n", out);
		accuracy_json_line(out, &r->lines[k], len, nlen);
	}
	fputs("\n]}\n", out);
}

/* ----------------------------------------------------------------- svg */

/* The chart's layout in the viewBox's units (1280 x 720, a 16:9 slide):
 * the plot's box and the legend's column. */
enum { SVG_W = 1280, SVG_H = 720, PLOT_X0 = 120, PLOT_X1 = 840,
       PLOT_Y0 = 130, PLOT_Y1 = 590, LEGEND_X = 880, LEGEND_Y = 150,
       LEGEND_STEP = 42, FONT = 22, FONT_TITLE = 28 };

/* The colours of the lines, Okabe and Ito's palette for colour-blind
 * readers (black and yellow left out: black draws the key, yellow is too
 * light on white); more lines than colours reuse them. */
static const char *const accuracy_colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
	"#7F7F7F", "#882255"
};
#define ACCURACY_NCOLOURS \
	((int)(sizeof accuracy_colours / sizeof accuracy_colours[0]))

/* The x of source length n, the lengths len[0..nlen) spread across the
 * plot with a margin at each end. */
static double accuracy_x(const int *len, int nlen, int n)
{
	double lo = len[0], hi = len[nlen - 1], margin = 30;
	if (hi == lo)
		return (PLOT_X0 + PLOT_X1) / 2.0;
	return PLOT_X0 + margin +
	       (n - lo) / (hi - lo) * (PLOT_X1 - PLOT_X0 - 2 * margin);
}

/* The y of a share from 0 to 1. */
static double accuracy_y(double share)
{
	return PLOT_Y1 - share * (PLOT_Y1 - PLOT_Y0);
}

/* Writes x with one decimal. */
static void accuracy_svg_num(FILE *out, double x)
{
	char buf[NUM_BUFSZ];
	fputs(num_fixed(buf, x, 1), out);
}

/* The axes: the grid and labels of accuracy from 0 to 100%, the source
 * lengths, and both axes' titles. */
static void accuracy_svg_axes(FILE *out, const int *len, int nlen)
{
	for (int p = 0; p <= 100; p += 20) {
		double y = accuracy_y(p / 100.0);
		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"", PLOT_X0, PLOT_X1);
		accuracy_svg_num(out, y);
		fputs("\" y2=\"", out);
		accuracy_svg_num(out, y);
		fprintf(out, "\" stroke=\"%s\" stroke-width=\"%d\"/>\n",
			p ? "#d9d9d9" : "#000000", p ? 1 : 2);
		fprintf(out, "<text x=\"%d\" y=\"", PLOT_X0 - 12);
		accuracy_svg_num(out, y + 8);
		fprintf(out, "\" text-anchor=\"end\">%d</text>\n", p);
	}
	fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" "
		"stroke=\"#000000\" stroke-width=\"2\"/>\n", PLOT_X0, PLOT_X0,
		PLOT_Y0, PLOT_Y1);
	int every = (nlen + 14) / 15; /* at most 15 labels */
	for (int i = 0; i < nlen; i += every) {
		fputs("<text x=\"", out);
		accuracy_svg_num(out, accuracy_x(len, nlen, len[i]));
		fprintf(out, "\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
			PLOT_Y1 + 34, len[i]);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(PLOT_X0 + PLOT_X1) / 2, PLOT_Y1 + 80);
	fmt_svg_text(out, _("source sentence length (words)"));
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\">", PLOT_X0 - 70,
		PLOT_Y0 - 30);
	fmt_svg_text(out, _("accuracy (%)"));
	fputs("</text>\n", out);
}

/* One series of line l: word accuracy (exact 0: a solid line, filled
 * dots) or exact-match accuracy (exact 1: dashed, open dots). */
static void accuracy_svg_series(FILE *out, const struct accuracy_line *l,
				const char *colour, int exact,
				const int *len, int nlen)
{
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"%d\"%s points=\"", colour, exact ? 3 : 4,
		exact ? " stroke-dasharray=\"12 8\"" : "");
	for (int i = 0; i < nlen; i++) {
		const struct accuracy_count *c = &l->by_len[len[i]];
		double share = exact ? accuracy_share(c->exact, c->pairs)
				     : accuracy_share(c->words_right, c->words);
		if (i)
			fputc(' ', out);
		accuracy_svg_num(out, accuracy_x(len, nlen, len[i]));
		fputc(',', out);
		accuracy_svg_num(out, accuracy_y(share));
	}
	fputs("\"/>\n", out);
	for (int i = 0; i < nlen; i++) {
		const struct accuracy_count *c = &l->by_len[len[i]];
		double share = exact ? accuracy_share(c->exact, c->pairs)
				     : accuracy_share(c->words_right, c->words);
		fputs("<circle cx=\"", out);
		accuracy_svg_num(out, accuracy_x(len, nlen, len[i]));
		fputs("\" cy=\"", out);
		accuracy_svg_num(out, accuracy_y(share));
		fprintf(out, "\" r=\"6\" fill=\"%s\" stroke=\"%s\" "
			"stroke-width=\"3\"/>\n", exact ? "#ffffff" : colour,
			colour);
	}
}

/* A legend entry at row `row`: a sample of the line's stroke and text. */
static void accuracy_svg_key(FILE *out, int row, const char *colour,
			     int dashed, const char *text)
{
	int y = LEGEND_Y + row * LEGEND_STEP;
	fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" "
		"stroke=\"%s\" stroke-width=\"4\"%s/>\n", LEGEND_X,
		LEGEND_X + 50, y - 7, y - 7, colour,
		dashed ? " stroke-dasharray=\"12 8\"" : "");
	fprintf(out, "<text x=\"%d\" y=\"%d\">", LEGEND_X + 62, y);
	fmt_svg_text(out, text);
	fputs("</text>\n", out);
}

static void accuracy_svg(FILE *out, const struct accuracy_report *r)
{
	int len[PAIRS_MAX_WORDS];
	int nlen = accuracy_lengths(r, len);
	char label[512];
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"font-family=\"%s\" font-size=\"%d\">\n"
		"<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		SVG_W, SVG_H, SVG_W, SVG_H, FMT_SVG_FONTS, FONT, SVG_W, SVG_H);
	fprintf(out, "<text x=\"40\" y=\"56\" font-size=\"%d\">", FONT_TITLE);
	/* TRANSLATORS: the chart's title, before and after the pairs
	 * file's name: "Accuracy by source length: " FILE " (greedy
	 * decoding)" */
	fmt_svg_text(out, _("Accuracy by source length: "));
	fmt_svg_text(out, accuracy_base(r->pairs));
	fmt_svg_text(out, _(" (greedy decoding)"));
	fputs("</text>\n", out);
	if (nlen > 0)
		accuracy_svg_axes(out, len, nlen);
	for (int k = 0; k < r->n && nlen > 0; k++) {
		const char *colour = accuracy_colours[k % ACCURACY_NCOLOURS];
		accuracy_svg_series(out, &r->lines[k], colour, 1, len, nlen);
		accuracy_svg_series(out, &r->lines[k], colour, 0, len, nlen);
	}
	for (int k = 0; k < r->n; k++) {
		accuracy_label(label, sizeof label, &r->lines[k], 1);
		accuracy_svg_key(out, k, accuracy_colours[k % ACCURACY_NCOLOURS],
				 0, label);
	}
	accuracy_svg_key(out, r->n + 1, "#000000", 0, _("word accuracy"));
	accuracy_svg_key(out, r->n + 2, "#000000", 1, _("exact match"));
	fputs("</svg>\n", out);
}

int accuracy_write(FILE *out, const struct accuracy_report *r,
		   enum accuracy_format f)
{
	switch (f) {
	case ACCURACY_TEXT:
		accuracy_text_table(out, r);
		fputs("\nword accuracy against source length (each letter a "
		      "line above, * where two or more meet):\n", out);
		accuracy_text_plot(out, r, 10);
		break;
	case ACCURACY_CSV:
		accuracy_csv(out, r);
		break;
	case ACCURACY_JSON:
		accuracy_json(out, r);
		break;
	case ACCURACY_SVG:
		accuracy_svg(out, r);
		break;
	}
	return ferror(out) ? -1 : 0;
}
