/* caption_fmt.c: a caption trace (caption.h) as each word beside the
 * image with its weights over the cells, in shaded blocks (image_fmt.h).
 * Like every formatter it draws the recorded numbers and computes only
 * the layout. */
#include "config.h"

#include <stdio.h>

#include "caption.h"
#include "fmt_svg.h"
#include "i18n.h"
#include "image_fmt.h"
#include "num.h"
#include "utf8.h"

/* The level of a weight in [0, 1], to the nearest quarter. */
static int caption_weight_level(double a)
{
	return image_level((int)(a * 10000.0 + 0.5), 10000);
}

/* Pixel row y of step t: the image's row, then the weights of its
 * cells' row, then (on the first row of a cell) their numbers. */
static void caption_fmt_row(FILE *out, const struct pgm_image *im,
			    const double *a, int y, int ascii)
{
	fputs("  ", out);
	for (int x = 0; x < CAPTION_SIDE; x++)
		fputs(image_shade(image_level(im->raw[y * im->width + x],
						 im->maxval), ascii), out);
	fputs("   ", out);
	for (int x = 0; x < CAPTION_SIDE; x++)
		fputs(image_shade(caption_weight_level(a[(y / CAPTION_PATCH)
			* CAPTION_GRID + x / CAPTION_PATCH]), ascii), out);
	for (int c = 0; y % CAPTION_PATCH == 0 && c < CAPTION_GRID; c++) {
		char buf[NUM_BUFSZ];
		fprintf(out, "  %s", num_fixed(buf, a[(y / CAPTION_PATCH) *
						     CAPTION_GRID + c], 2));
	}
	fputc('\n', out);
}

void caption_fmt_rows(FILE *out, const struct trace *tr, int run, int t,
		      int ascii)
{
	const double *a = trace_weights(tr, run, t);
	for (int y = 0; y < CAPTION_SIDE; y++)
		caption_fmt_row(out, tr->input, a, y, ascii);
}

void caption_fmt_step(FILE *out, const struct trace *tr, int run, int t,
		      int ascii)
{
	int w = tr->ntgt ? (t <= tr->ntgt ? tr->tgt[t - 1] : tr->m->eos)
			 : tr->runs[run].pred[t - 1];
	fprintf(out, _("t=%d: %s  (the image; α_%d over its cells)\n"), t,
		tr->m->tgt.words[w], t);
	caption_fmt_rows(out, tr, run, t, ascii);
}

int caption_fmt_weights(FILE *out, const struct trace *tr, int ascii)
{
	for (int run = 0; run < tr->nruns; run++) {
		const struct trace_run *ru = &tr->runs[run];
		fputs(run ? "\n" : "", out);
		fprintf(out, _("%s scorer: each word, the image, and each "
			"pixel shaded by its cell's weight\n"),
			trace_scorer_name(ru->scorer));
		for (int t = 1; t <= ru->nsteps; t++) {
			fputc('\n', out);
			caption_fmt_step(out, tr, run, t, ascii);
		}
	}
	return ferror(out) ? -1 : 0;
}

/* ---- SVG: each step a panel, the image's pixels in gray under its
 * cells' weights (fmt_svg_ramp, the heatmaps' colours), each weight
 * written in its cell, the word under the panel */

#define CSVG_PIX 30                      /* a pixel's side */
#define CSVG_SIDE (CAPTION_SIDE * CSVG_PIX) /* a panel's image */
#define CSVG_GAP 36
#define CSVG_MARGIN 30
#define CSVG_FS 22
#define CSVG_FS_TITLE 28
#define CSVG_ROW (CSVG_SIDE + 3 * CSVG_FS + 20) /* a run's height */

/* The image's pixels and its cells coloured by the weights a, each
 * written in its cell, from (x, y), pix px a pixel. */
static void caption_svg_cells(FILE *out, const struct pgm_image *im,
			      const double *a, int x, int y, int pix,
			      const char *cls)
{
	char hex[8], buf[NUM_BUFSZ];
	for (int r = 0; r < CAPTION_SIDE; r++)
		for (int c = 0; c < CAPTION_SIDE; c++) {
			int g = (int)(im->pix[r * im->width + c] * 255 + 0.5);
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
				"height=\"%d\" fill=\"#%02x%02x%02x\"/>\n",
				x + c * pix, y + r * pix, pix, pix, g, g, g);
		}
	const int cell = CAPTION_PATCH * pix;
	for (int i = 0; i < CAPTION_CELLS; i++) {
		int cx = x + (i % CAPTION_GRID) * cell;
		int cy = y + (i / CAPTION_GRID) * cell;
		fmt_svg_ramp(a[i], hex);
		fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\" "
			"width=\"%d\" height=\"%d\" fill=\"%s\" "
			"fill-opacity=\"0.6\" stroke=\"#888888\"/>\n", cls, cx,
			cy, cell, cell, hex);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
			"text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			cx + cell / 2, cy + cell / 2 + CSVG_FS / 3, CSVG_FS,
			fmt_svg_dark(a[i]) ? "#ffffff" : "#111111",
			num_fixed(buf, a[i], 2));
	}
}

void caption_svg_step(FILE *out, const struct trace *tr, int run, int t,
		      int x, int y, int pix)
{
	caption_svg_cells(out, tr->input, trace_weights(tr, run, t), x, y,
			  pix, "image-cell");
}

/* The panel of step t at (x, y): pixels, cells, weights, word. */
static void caption_svg_panel(FILE *out, const struct pgm_image *im,
			      const double *a, const char *word, int t, int x,
			      int y)
{
	caption_svg_cells(out, im, a, x, y, CSVG_PIX, "cell");
	fprintf(out, "<text class=\"word\" x=\"%d\" y=\"%d\" font-size=\"%d\" "
		"text-anchor=\"middle\" fill=\"#222222\">t=%d: ", x +
		CSVG_SIDE / 2, y + CSVG_SIDE + CSVG_FS + 10, CSVG_FS, t);
	fmt_svg_text(out, word);
	fputs("</text>\n", out);
}

/* The subtitle, under the image's name: csvg_sub_a, the subscript t,i,
 * csvg_sub_b (N_(): printed and measured through _()). */
static const char csvg_sub_a[] = N_("each word's weights α");
static const char csvg_sub_b[] = N_(" over the 3×3 cells");
static const char csvg_subscript[] = "<tspan baseline-shift=\"sub\" "
	"font-size=\"75%\">t,i</tspan>";
/* its columns, the subscript counted, and one to spare (44 in English) */
#define CSVG_SUB_COLS \
	(utf8_width(_(csvg_sub_a)) + 3 + utf8_width(_(csvg_sub_b)) + 1)
#define CSVG_FS_SUB 24    /* its size: its subscript, 18 px, is the
			     picture's smallest text */

/* The layout: the panels a row, so that the picture is as large as it
 * goes on a 16:9 slide (a strip of one panel a word is not), and the
 * picture's size; a run's panels wrap onto rows of their own. */
struct csvg_lay {
	int per_row, rows_run, width, height, top;
};

static void caption_svg_lay(struct csvg_lay *L, const struct trace *tr,
			    const char *name)
{
	int most = 1;
	for (int run = 0; run < tr->nruns; run++)
		if (tr->runs[run].nsteps > most)
			most = tr->runs[run].nsteps;
	/* the texts' widths: 0.66 em a column of the bold title, 0.62 em
	 * of the rest */
	int text = utf8_width(name) * CSVG_FS_TITLE * 66 / 100;
	if (text < CSVG_SUB_COLS * CSVG_FS_SUB * 62 / 100)
		text = CSVG_SUB_COLS * CSVG_FS_SUB * 62 / 100;
	*L = (struct csvg_lay){ most, 1, 0, 0,
				CSVG_MARGIN + CSVG_FS_TITLE + CSVG_FS_SUB +
				28 };
	long best = -1;
	for (int p = most; p >= 1; p--) {
		int rows = (most + p - 1) / p;
		int w = 2 * CSVG_MARGIN + p * (CSVG_SIDE + CSVG_GAP);
		if (w < 2 * CSVG_MARGIN + text)
			w = 2 * CSVG_MARGIN + text;
		int h = L->top + tr->nruns * (CSVG_FS + 12 + rows *
					       (CSVG_ROW - CSVG_FS - 12));
		long fit = 1920000L / w < 1080000L / h ? 1920000L / w
						       : 1080000L / h;
		if (fit > best) { /* at equal fit, more panels a row */
			best = fit;
			*L = (struct csvg_lay){ p, rows, w, h, L->top };
		}
	}
}

int caption_fmt_svg(FILE *out, const struct trace *tr, const char *name)
{
	const struct pgm_image *im = tr->input;
	struct csvg_lay L;
	caption_svg_lay(&L, tr, name);
	const int run_h = CSVG_FS + 12 + L.rows_run * (CSVG_ROW - CSVG_FS - 12);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">"
		"\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
		"<text class=\"title\" x=\"%d\" y=\"%d\" font-size=\"%d\" "
		"font-weight=\"bold\" fill=\"#222222\">", L.width, L.height,
		L.width, L.height, CSVG_MARGIN, CSVG_MARGIN + CSVG_FS_TITLE,
		CSVG_FS_TITLE);
	fmt_svg_text(out, name);
	fprintf(out, "</text>\n<text class=\"subtitle\" x=\"%d\" y=\"%d\" "
		"font-size=\"%d\" fill=\"#555555\">", CSVG_MARGIN,
		CSVG_MARGIN + CSVG_FS_TITLE + CSVG_FS_SUB + 10, CSVG_FS_SUB);
	fmt_svg_text(out, _(csvg_sub_a));
	fputs(csvg_subscript, out);
	fmt_svg_text(out, _(csvg_sub_b));
	fputs("</text>\n", out);
	for (int run = 0; run < tr->nruns; run++) {
		const struct trace_run *ru = &tr->runs[run];
		int y = L.top + run * run_h;
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
			"fill=\"#555555\">", CSVG_MARGIN, y + CSVG_FS, CSVG_FS);
		fprintf(out, _("%s scorer"), trace_scorer_name(ru->scorer));
		fputs("</text>\n", out);
		for (int t = 1; t <= ru->nsteps; t++) {
			int w = tr->ntgt ? (t <= tr->ntgt ? tr->tgt[t - 1]
					    : tr->m->eos) : ru->pred[t - 1];
			int col = (t - 1) % L.per_row, row = (t - 1) / L.per_row;
			caption_svg_panel(out, im, trace_weights(tr, run, t),
					  tr->m->tgt.words[w], t, CSVG_MARGIN +
					  col * (CSVG_SIDE + CSVG_GAP),
					  y + CSVG_FS + 12 + row *
					  (CSVG_ROW - CSVG_FS - 12));
		}
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
