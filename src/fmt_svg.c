/* fmt_svg.c: the alignment matrix as an SVG picture (fmt_svg.h).
 *
 * Every coordinate is a whole number of pixels computed with integers, so
 * the bytes never depend on the locale or on how printf rounds.  Text
 * widths are estimated from the number of terminal columns a word takes,
 * generously, because the picture is drawn without knowing the font. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fmt.h"
#include "fmt_svg.h"
#include "i18n.h"
#include "linebreak.h"
#include "num.h"
#include "utf8.h"

/* font sizes, in px: none under SVG_FS_CELL, subscripts (75%) of the
 * subtitle and the legend included, so that the cells' numbers are the
 * smallest text (doc/heatmap.md, "Legible from the back row") */
#define SVG_FS_TITLE 18
#define SVG_FS_SUB 17
#define SVG_FS_HEAD 15
#define SVG_FS_LABEL 14
#define SVG_FS_CELL 13
#define SVG_FS_TICK 13

/* spacing, in px */
#define SVG_MARGIN 24
#define SVG_LINE 24      /* from one title or subtitle line to the next */
#define SVG_WHATIF_COLS 90 /* a line of the what-if subtitle, at most */
#define SVG_SUB_DROP 6   /* more under the subtitle, whose α_t,i descends */
#define SVG_CELL_H 34
#define SVG_CELL_W 58    /* the narrowest cell */
#define SVG_CELL_PAD 16  /* room beside a cell's value */
#define SVG_GAP 48       /* between two panels */
#define SVG_LABEL_GAP 10 /* between a label and the grid */
#define SVG_HEAD 30      /* a panel's heading, when there are several */
#define SVG_BAR_W 240    /* the legend's colour bar */
#define SVG_BAR_H 14

#define SVG_SQRT1_2 0.70710678118654752 /* cos 45 degrees */

#define SVG_TEXT "#222222"   /* titles and labels */
#define SVG_MUTED "#555555"  /* subtitles, ticks */
#define SVG_WRONG "#b2182b"  /* "(target X)" beside a wrong output word */

/* ColorBrewer's sequential Blues, 9 classes: white to dark blue. */
static const unsigned char svg_blues[9][3] = {
	{ 0xf7, 0xfb, 0xff }, { 0xde, 0xeb, 0xf7 }, { 0xc6, 0xdb, 0xef },
	{ 0x9e, 0xca, 0xe1 }, { 0x6b, 0xae, 0xd6 }, { 0x42, 0x92, 0xc6 },
	{ 0x21, 0x71, 0xb5 }, { 0x08, 0x51, 0x9c }, { 0x08, 0x30, 0x6b },
};

/* The colour of a, linearly between the two nearest classes. */
static void svg_rgb(double a, int rgb[3])
{
	if (!(a > 0))
		a = 0;
	if (a > 1)
		a = 1;
	double x = a * 8;
	int k = (int)x;
	if (k > 7)
		k = 7;
	double f = x - k;
	for (int c = 0; c < 3; c++) {
		double lo = svg_blues[k][c], hi = svg_blues[k + 1][c];
		rgb[c] = (int)(lo + (hi - lo) * f + 0.5);
	}
}

void fmt_svg_ramp(double a, char hex[8])
{
	int rgb[3];
	svg_rgb(a, rgb);
	snprintf(hex, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* The relative luminance of an sRGB channel value 0..255 (WCAG 2). */
static double svg_linear(int c)
{
	double v = c / 255.0;
	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

int fmt_svg_dark(double a)
{
	int rgb[3];
	svg_rgb(a, rgb);
	double lum = 0.2126 * svg_linear(rgb[0]) + 0.7152 * svg_linear(rgb[1]) +
		     0.0722 * svg_linear(rgb[2]);
	/* white wins when 1.05 / (L + 0.05) > (L + 0.05) / 0.05 */
	return (lum + 0.05) * (lum + 0.05) < 1.05 * 0.05;
}

void fmt_svg_opts_default(struct fmt_svg_opts *o)
{
	o->precision = 4;
	o->drawn = 0;
}

/* Writes s (UTF-8) as XML character data or an attribute value: & < > " '
 * become entities, U+FFFE and U+FFFF, which XML forbids, become U+FFFD,
 * and a C0 control other than tab, LF and CR, which XML 1.0 forbids too,
 * becomes '?'. */
static void svg_esc(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) {
			fputs("\xEF\xBF\xBD", out);
			p += 2;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			putc(*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r'
			     ? '?' : *p, out);
		}
	}
}

/* Writes the n bytes at s as fmt_svg_text() does. */
static void svg_esc_n(FILE *out, const char *s, size_t n)
{
	char buf[64];
	while (n > 0) {
		size_t m = n < sizeof buf - 1 ? n : sizeof buf - 1;
		memcpy(buf, s, m);
		buf[m] = '\0';
		svg_esc(out, buf);
		s += m;
		n -= m;
	}
}

/* The estimated width in px of text that takes cols terminal columns at
 * font size fs: 0.62 em a column, 0.66 em in bold.  DejaVu Sans, the
 * widest of the fonts asked for, averages under 0.6 em a letter. */
static int svg_width(int cols, int fs, int bold)
{
	return (cols * fs * (bold ? 66 : 62) + 99) / 100;
}

/* The same for a number of len characters in bold: digits are wider than
 * the average letter (0.70 em in DejaVu Sans Bold). */
static int svg_num_width(int len, int fs)
{
	return (len * fs * 70 + 99) / 100;
}

static int svg_max(int a, int b)
{
	return a > b ? a : b;
}

static int svg_cols(const char *s)
{
	int w = utf8_width(s);
	return w > 0 ? w : 0;
}

/* The columns of the words w (n) joined by spaces. */
static int svg_words_cols(const struct vocab *v, const int *w, int n)
{
	int cols = n > 0 ? n - 1 : 0;
	for (int k = 0; k < n; k++)
		cols += svg_cols(v->words[w[k]]);
	return cols;
}

static void svg_words(FILE *out, const struct vocab *v, const int *w, int n)
{
	for (int k = 0; k < n; k++) {
		if (k)
			putc(' ', out);
		svg_esc(out, v->words[w[k]]);
	}
}

/* The same, as they are (the title is escaped when it is written). */
static void svg_words_raw(FILE *out, const struct vocab *v, const int *w,
			  int n)
{
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? " " : "", v->words[w[k]]);
}

/* The word the decoder should output at step t under teacher forcing, or
 * -1 when it decodes greedily. */
static int svg_want(const struct trace *tr, int t)
{
	if (!tr->ntgt)
		return -1;
	return t <= tr->ntgt ? tr->tgt[t - 1] : tr->m->eos;
}

/* The most panels a picture has: every scorer of every architecture. */
#define SVG_MAX_PANELS (SCORER_COUNT * ARCH_COUNT)

/* Everything the layout decides, in px. */
struct svg_lay {
	const struct trace *tr; /* the first panel's: the title, the words */
	int ntrs;         /* traces drawn (one for each architecture) */
	int prec;
	int count;        /* panels */
	const struct trace *ptr[SVG_MAX_PANELS]; /* each panel's trace */
	int prun[SVG_MAX_PANELS];                /* and run in it */
	int cw;           /* a cell's width */
	int ch;           /* a cell's height: SVG_CELL_H, less for many rows */
	int vw;           /* the widest value's estimated width, in it */
	int rot;          /* 1: the source words are turned 45 degrees */
	int drawn;        /* the one-hot of the drawn words, not α */
	const char *sym;  /* the weights' symbol: α, or a for local-p's
	                     a_t = align_t × the Gaussian */
	int band;         /* the height of the source-word band */
	int over;         /* how far turned words reach past the grid */
	int head;         /* a panel heading's height; 0 for one panel */
	int per_row;      /* panels a row at most */
	int shade;        /* 1: the overview of several scorers in shades
	                     (svg_lay_shade): a panel's rows are the source
	                     words, its columns the steps, and no cell
	                     writes its number */
	char *title;      /* the title as it is, unescaped (svg_title) */
	int tcols;        /* the title's widest line, in columns */
	int twrap;        /* the columns it is broken to, or 0 */
	int rl[SVG_MAX_PANELS]; /* each panel's row-label column */
	int pw[SVG_MAX_PANELS]; /* each panel's width */
	int px[SVG_MAX_PANELS]; /* each panel's left edge */
	int gx[SVG_MAX_PANELS]; /* each panel's grid's left edge */
	int py[SVG_MAX_PANELS]; /* each panel's top, below L->top */
	int prow[SVG_MAX_PANELS]; /* each panel's row */
	int nsub;         /* subtitle lines */
	char wnote[256];  /* the window's heatmap_note, expanded, or "" */
	char wif[FMT_WHATIF_NOTE]; /* --set: fmt_whatif_note() in lines
	                              ('\n' between them), or "" */
	int ntitle;       /* title lines */
	int top;          /* where the panels start */
	int legend;       /* where the legend starts */
	int width, height;
};

/* Writes the list "a, b and c" of the n names (with out NULL only
 * measures it); returns its columns. */
static int svg_list(FILE *out, const char *const *names, int n)
{
	int cols = 0;
	for (int k = 0; k < n; k++) {
		const char *sep = k == 0 ? "" : k + 1 < n ? ", " : _(" and ");
		cols += svg_cols(sep) + svg_cols(names[k]);
		if (out)
			fprintf(out, "%s%s", sep, names[k]);
	}
	return cols;
}

/* Writes the title as it is, unescaped: "dot scorer: SOURCE → OUTPUT"
 * or "dot, general and concat scorers: SOURCE", after "bahdanau: " for a
 * model of an architecture other than Luong's, or "luong and bahdanau: "
 * for several. */
static void svg_title(FILE *out, const struct svg_lay *L)
{
	const struct trace *tr = L->tr;
	const char *names[SVG_MAX_PANELS];
	int n = 0;
	if (L->ntrs > 1 || tr->arch != ARCH_DEFAULT) {
		for (int k = 0; k < L->count; k++)
			if (k == 0 || L->ptr[k] != L->ptr[k - 1])
				names[n++] = arch_get(L->ptr[k]->arch)->name;
		svg_list(out, names, n);
		fputs(": ", out);
	}
	n = 0; /* the scorers, each once */
	for (int k = 0; k < L->count; k++) {
		const char *name =
			trace_scorer_name(L->ptr[k]->runs[L->prun[k]].scorer);
		int seen = 0;
		for (int j = 0; j < n; j++)
			seen |= strcmp(names[j], name) == 0;
		if (!seen)
			names[n++] = name;
	}
	svg_list(out, names, n);
	fputs(n > 1 ? _(" scorers: ") : _(" scorer: "), out);
	svg_words_raw(out, &tr->m->src, tr->src, tr->n);
	if (L->count == 1) {
		const struct trace_run *ru = &tr->runs[L->prun[0]];
		fputs(" → ", out);
		svg_words_raw(out, &tr->m->tgt, ru->pred, ru->nsteps);
	}
}

/* The end of the title's line that starts at s, at most cols columns
 * wide, broken as linebreak_line() breaks text: at a blank or beside a
 * CJK character, never inside a word, a number or a symbol (a word wider
 * than cols stands alone); *next is where the next line starts, at the
 * end of the string when none does. */
static const char *svg_line_end(const char *s, int cols, const char **next)
{
	size_t at, end = linebreak_line(s, strlen(s), cols, &at);
	*next = s + at;
	return s + end;
}

/* The title's lines at most cols wide: their number, and in *widest the
 * widest line's columns. */
static int svg_title_lines(const char *title, int cols, int *widest)
{
	int n = 0;
	*widest = 0;
	for (const char *s = title, *next; *s; s = next, n++) {
		const char *e = svg_line_end(s, cols, &next);
		char line[1024];
		size_t m = (size_t)(e - s) < sizeof line ?
			   (size_t)(e - s) : sizeof line - 1;
		memcpy(line, s, m);
		line[m] = '\0';
		*widest = svg_max(*widest, svg_cols(line));
	}
	return n;
}

/* The subtitle and the legend's caption, with "t,i" as a subscript
 * (marked N_(): printed and measured through _()). */
static const char svg_sub1a[] = N_("attention weights ");
static const char svg_sub1b[] = N_(" (rows: output words; columns: source "
				   "words)");
static const char svg_legend_cap[] = N_("weight ");
static const char svg_sub_open[] = "<tspan baseline-shift=\"sub\" "
	"font-size=\"75%\">";
static const char svg_subscript[] = "<tspan baseline-shift=\"sub\" "
	"font-size=\"75%\">t,i</tspan>";
/* their columns, with the symbol (α) and its subscript (t,i) */
#define SVG_SUB1_COLS \
	(svg_cols(_(svg_sub1a)) + 1 + 3 + svg_cols(_(svg_sub1b)))
#define SVG_LEGEND_COLS (svg_cols(_(svg_legend_cap)) + 1 + 3)
static const char svg_sub2[] = N_("teacher forcing with the target: ");
/* the picture in shades (svg_shade_lay): its axes, and where the
 * numbers are (for several panels, and for one) */
static const char svg_shade_sub1b[] = N_(" (rows: source words; columns: "
	"steps t = 1, 2, … of the output)");
static const char svg_shade_note[] = N_("shades only: a cell's tooltip "
	"gives its weight and words; the numbers: heatmap -o DIR/, a slide "
	"a scorer");
static const char svg_shade_note1[] = N_("shades only: a cell's tooltip "
	"gives its weight and words; the numbers: heatmap without -o, as "
	"text");
#define SVG_SHADE_SUB1_COLS \
	(svg_cols(_(svg_sub1a)) + 1 + 3 + svg_cols(_(svg_shade_sub1b)))

/* " (target X)" beside output word X of a row, into buf. */
static const char *svg_wanted(char *buf, size_t size, const char *want)
{
	snprintf(buf, size, _("(target %s)"), want);
	return buf;
}

/* The columns of the row label of step t: the output word, and
 * " (target X)" when teacher forcing wanted another. */
static int svg_row_cols(const struct trace *tr, int run, int t)
{
	int pred = tr->runs[run].pred[t - 1], want = svg_want(tr, t);
	int cols = svg_cols(tr->m->tgt.words[pred]);
	char buf[MODEL_MAX_WORD + 64];
	if (want >= 0 && want != pred)
		cols += 1 + svg_cols(svg_wanted(buf, sizeof buf,
						tr->m->tgt.words[want]));
	return cols;
}

/* Panel k's heading: "dot → OUTPUT", after "bahdanau · " when the
 * picture has several architectures; measures it when out is NULL. */
static int svg_head_text(FILE *out, const struct svg_lay *L, int k)
{
	const struct trace *tr = L->ptr[k];
	const struct trace_run *ru = &tr->runs[L->prun[k]];
	const char *name = trace_scorer_name(ru->scorer);
	int cols = 0;
	if (L->ntrs > 1) {
		const char *a = arch_get(tr->arch)->name;
		cols += (int)strlen(a) + 3;
		if (out)
			fprintf(out, "%s · ", a);
	}
	if (L->shade) { /* the outputs are in the cells' tooltips */
		if (out)
			fputs(name, out);
		return cols + (int)strlen(name);
	}
	if (out) {
		fprintf(out, "%s → ", name);
		svg_words(out, &tr->m->tgt, ru->pred, ru->nsteps);
	}
	return cols + (int)strlen(name) + 3 +
	       svg_words_cols(&tr->m->tgt, ru->pred, ru->nsteps);
}

/* The cell width, and whether and how far the source words turn. */
static void svg_lay_columns(struct svg_lay *L)
{
	const struct trace *tr = L->tr;
	char buf[NUM_BUFSZ];
	int vw = svg_num_width((int)strlen(num_fixed(buf, 0.5, L->prec)),
			       SVG_FS_CELL);
	L->cw = vw + SVG_CELL_PAD > SVG_CELL_W ? vw + SVG_CELL_PAD : SVG_CELL_W;
	L->vw = vw;
	int widest = 0;
	for (int i = 0; i < tr->n; i++) {
		int w = svg_width(svg_cols(tr->m->src.words[tr->src[i]]),
				  SVG_FS_LABEL, 0);
		widest = w > widest ? w : widest;
	}
	L->rot = widest > L->cw - 8;
	L->band = SVG_FS_LABEL + 14;
	L->over = 0;
	if (!L->rot)
		return;
	/* a word turned 45 degrees rises and reaches right by w / sqrt 2 */
	L->band = (int)ceil((widest + SVG_FS_LABEL) * SVG_SQRT1_2) + 14;
	for (int i = 0; i < tr->n; i++) {
		int w = svg_width(svg_cols(tr->m->src.words[tr->src[i]]),
				  SVG_FS_LABEL, 0);
		int reach = (2 * i + 1) * L->cw / 2 +
			    (int)ceil((w + SVG_FS_LABEL) * SVG_SQRT1_2);
		if (reach - tr->n * L->cw > L->over)
			L->over = reach - tr->n * L->cw;
	}
}

/* The least width of the text above the panels (the subtitle), and
 * about the height of the titles and the legend: what svg_lay() adds to
 * the panels when it chooses how many go on a row. */
#define SVG_TEXT_W 760
#define SVG_CHROME_H 170

/* The highest picture whose smallest text (12.75 px) is still 20 px
 * fitted into a 1080 px slide, and the lowest a cell may be (its 13 px
 * value's line box is 15 px, a row label's 16.3; at 17 px general's 23
 * steps at 10 words, with the title on two lines, fit). */
#define SVG_LEGIBLE_H (1080 * SVG_FS_SUB * 3 / 4 / 20)
#define SVG_CELL_H_MIN 17

/* Whether a panel draws a window's marks (svg_windows). */
static int svg_windowed(const struct svg_lay *L)
{
	for (int k = 0; k < L->count; k++)
		if (trace_find(L->ptr[k], REC_WINDOW, L->prun[k], 1, 0))
			return 1;
	return 0;
}

/* How large a picture w by h is shown fitted into a 1920x1080 slide: the
 * scale, times 1000. */
static long svg_fit(int w, int h)
{
	long a = 1920000L / (w > 0 ? w : 1), b = 1080000L / (h > 0 ? h : 1);
	return a < b ? a : b;
}

/* The widest picture whose smallest text, the subscripts (75 %) of the
 * subtitle and the legend, is still 20 px when the picture is shown 1920
 * px wide (doc/heatmap.md, "Legible from the back row"). */
#define SVG_LEGIBLE_W (1920 * SVG_FS_SUB * 3 / 4 / 20)

/* Centres each row of panels [from, to) in width w, from x = 0. */
static void svg_centre_rows(struct svg_lay *L, int w)
{
	for (int from = 0, to; from < L->count; from = to) {
		for (to = from + 1; to < L->count; to++)
			if (L->prow[to] != L->prow[from])
				break;
		int rw = L->px[to - 1] + L->pw[to - 1] - L->px[from];
		int shift = (w - rw) / 2 - L->px[from];
		for (int k = from; k < to; k++) {
			L->px[k] += shift;
			L->gx[k] += shift;
		}
	}
}

/* Each panel's row labels and width, and the panels' positions, per_row a
 * row, and each architecture on rows of its own; returns the height of
 * the panels. */
static int svg_shade_lay(struct svg_lay *L);

static int svg_lay_panels(struct svg_lay *L)
{
	if (L->shade)
		return svg_shade_lay(L);
	int x = 0, tallest = 0, y = 0, widest_row = 0, row = 0, first = 0;
	for (int k = 0; k < L->count; k++) {
		if (k > 0 && (k - first == L->per_row ||
			      (L->ptr[k] != L->ptr[k - 1] &&
			       L->ptr[k - 1]->nruns > 1))) { /* a new row */
			row++;
			first = k;
			y += L->head + L->band + tallest * L->ch + SVG_GAP;
			widest_row = svg_max(widest_row, x - SVG_GAP);
			x = 0;
			tallest = 0;
		}
		const struct trace *tr = L->ptr[k];
		int run = L->prun[k], widest = 0;
		const struct trace_run *ru = &tr->runs[run];
		for (int t = 1; t <= ru->nsteps; t++) {
			int w = svg_width(svg_row_cols(tr, run, t), SVG_FS_LABEL, 0);
			widest = w > widest ? w : widest;
		}
		L->rl[k] = widest + SVG_LABEL_GAP;
		int inner = L->rl[k] + tr->n * L->cw + L->over;
		L->pw[k] = inner;
		if (L->head) {
			int hw = svg_width(svg_head_text(NULL, L, k),
					   SVG_FS_HEAD, 1);
			L->pw[k] = hw > L->pw[k] ? hw : L->pw[k];
		}
		L->px[k] = x;
		L->py[k] = y;
		L->prow[k] = row;
		/* the labels and grid centred under a wider heading */
		L->gx[k] = x + (L->pw[k] - inner) / 2 + L->rl[k];
		x += L->pw[k] + SVG_GAP;
		if (ru->nsteps > tallest)
			tallest = ru->nsteps;
	}
	widest_row = svg_max(widest_row, x - SVG_GAP);
	if (row > 0)
		svg_centre_rows(L, widest_row);
	L->width = widest_row + 2 * SVG_MARGIN;
	return y + L->head + L->band + tallest * L->ch;
}

/* The overview in shades: SVG_SHADE_GAP between two panels, cells
 * SVG_SHADE_W_MIN wide at least and SVG_SHADE_H_MIN high (a source
 * word's line box is 16.3 px), and the width it keeps to, under
 * SVG_LEGIBLE_W. */
#define SVG_SHADE_GAP 24
#define SVG_SHADE_W_MIN 6
#define SVG_SHADE_H_MIN 18
#define SVG_SHADE_FIT_W 1200

/* The overview's panels, per_row a row, for cells L->cw by L->ch: each
 * panel a column a step and a row a source word, the source words down
 * the left of the first panel of each row, the scorer's name over the
 * grid; returns the height of the panels. */
static int svg_shade_panels(struct svg_lay *L)
{
	const struct trace *tr = L->tr;
	int label = 0, x = 0, y = 0, row = 0, widest_row = 0;
	for (int i = 0; i < tr->n; i++)
		label = svg_max(label, svg_width(svg_cols(
			tr->m->src.words[tr->src[i]]), SVG_FS_LABEL, 0));
	const int rowh = L->head + tr->n * L->ch;
	for (int k = 0; k < L->count; k++) {
		if (k > 0 && k % L->per_row == 0) { /* a new row */
			row++;
			y += rowh + SVG_GAP;
			widest_row = svg_max(widest_row, x - SVG_SHADE_GAP);
			x = 0;
		}
		int grid = L->ptr[k]->runs[L->prun[k]].nsteps * L->cw;
		int hw = svg_width(svg_head_text(NULL, L, k), SVG_FS_HEAD, 1);
		L->rl[k] = k % L->per_row == 0 ? label + SVG_LABEL_GAP : 0;
		L->pw[k] = L->rl[k] + svg_max(grid, hw);
		L->px[k] = x;
		L->py[k] = y;
		L->prow[k] = row;
		L->gx[k] = x + L->rl[k] + (L->pw[k] - L->rl[k] - grid) / 2;
		x += L->pw[k] + SVG_SHADE_GAP;
	}
	widest_row = svg_max(widest_row, x - SVG_SHADE_GAP);
	if (row > 0)
		svg_centre_rows(L, widest_row);
	L->width = widest_row + 2 * SVG_MARGIN;
	return y + rowh;
}

/* The overview's panels per_row a row, in the widest cells, down to
 * SVG_SHADE_W_MIN, that keep it SVG_SHADE_FIT_W wide; returns their
 * height. */
static int svg_shade_lay(struct svg_lay *L)
{
	int ph = 0;
	for (L->cw = SVG_CELL_H; L->cw >= SVG_SHADE_W_MIN; L->cw--) {
		ph = svg_shade_panels(L);
		if (L->width <= SVG_SHADE_FIT_W)
			break;
	}
	if (L->cw < SVG_SHADE_W_MIN) { /* too wide even so */
		L->cw = SVG_SHADE_W_MIN;
		ph = svg_shade_panels(L);
	}
	return ph;
}

/* The window's heatmap_note (fixed's: why one column is lit) as a
 * subtitle line of its own, when the window has one and a step recorded
 * its window. */
static void svg_lay_note(struct svg_lay *L, const struct trace *tr)
{
	L->wnote[0] = '\0';
	if (fmt_heat_window_note(tr, L->prun[0], L->wnote, sizeof L->wnote))
		L->nsub++;
	L->wif[0] = '\0';
	if (fmt_whatif_note(tr, L->wif, sizeof L->wif)) /* an edited trace */
		L->nsub += fmt_whatif_wrap(L->wif, SVG_WHATIF_COLS);
}

static void svg_lay_fit(struct svg_lay *L);

/* Lays out the whole picture: run `run` of trs[0], or every run of each
 * of the ntrs traces. */
static void svg_lay(struct svg_lay *L, const struct trace *const *trs,
		    int ntrs, int run, int prec)
{
	const struct trace *tr = trs[0];
	memset(L, 0, sizeof *L);
	L->tr = tr;
	L->ntrs = ntrs;
	L->prec = prec;
	for (int j = 0; j < ntrs; j++)
		for (int r = 0; r < trs[j]->nruns; r++)
			if ((run == FMT_SVG_ALL_RUNS || r == run) &&
			    L->count < SVG_MAX_PANELS) {
				L->ptr[L->count] = trs[j];
				L->prun[L->count++] = r;
			}
	L->head = L->count > 1 ? SVG_HEAD : 0;
	L->nsub = tr->ntgt ? 2 : 1;
	svg_lay_note(L, tr);
	size_t tlen;
	FILE *t = open_memstream(&L->title, &tlen);
	if (t) {
		svg_title(t, L);
		if (fclose(t) != 0) {
			free(L->title);
			L->title = NULL;
		}
	}
	if (!L->title) /* out of memory: no title */
		L->title = calloc(1, 1);
	svg_lay_columns(L);
	svg_lay_fit(L);
	/* numbers that would be under 20 px on a slide: the picture in
	 * shades (doc/heatmap.md) */
	if (L->width > SVG_LEGIBLE_W || L->height > SVG_LEGIBLE_H) {
		L->shade = 1;
		L->rot = 0;
		L->band = 0;
		L->over = 0;
		L->nsub++; /* svg_shade_note */
		svg_lay_fit(L);
	}
}

/* The rows of panels, the cells' height, the title's lines, the width
 * and every position, for the columns svg_lay_columns() chose (or, in
 * shades, svg_shade_lay() chooses). */
static void svg_lay_fit(struct svg_lay *L)
{
	const struct trace *tr = L->tr;
	L->ch = SVG_CELL_H;
	int ph;
	/* as many panels a row as make the picture largest when it is
	 * fitted into a 1920x1080 slide */
	int best = 1;
	long most = -1;
	for (L->per_row = L->count; L->per_row >= 1; L->per_row--) {
		ph = svg_lay_panels(L);
		long fit = svg_fit(svg_max(L->width, SVG_TEXT_W),
				   ph + SVG_CHROME_H);
		if (fit > most) {
			most = fit;
			best = L->per_row;
		}
	}
	L->per_row = best;
	ph = svg_lay_panels(L);
	/* the title on one line, or broken to fit the panels or the
	 * legible width, whichever is wider (the rows' height does not
	 * change the width) */
	int tw = svg_width(svg_cols(L->title), SVG_FS_TITLE, 1), lines = 1;
	int room = svg_max(L->width, SVG_LEGIBLE_W) - 2 * SVG_MARGIN;
	L->tcols = svg_cols(L->title);
	if (tw > room) {
		L->twrap = room * 100 / (SVG_FS_TITLE * 66);
		lines = svg_title_lines(L->title, L->twrap, &L->tcols);
	}
	/* rows lower, down to SVG_CELL_H_MIN, while the picture is higher
	 * than keeps its smallest text 20 px on a 1080 px slide; not under
	 * a window, whose p_t runs in the room under the values */
	/* (the titles and legend as svg_lay lays them below) */
	int chrome = 2 * SVG_MARGIN + SVG_FS_TITLE +
		     (svg_max(lines, 2) - 1 + L->nsub) * SVG_LINE + 12 +
		     SVG_SUB_DROP + 28 +
		     SVG_BAR_H + 6 + SVG_FS_TICK;
	while (ph + chrome > SVG_LEGIBLE_H &&
	       L->ch > (L->shade ? SVG_SHADE_H_MIN : SVG_CELL_H_MIN) &&
	       (L->shade || !svg_windowed(L))) {
		L->ch--;
		ph = svg_lay_panels(L);
	}
	L->ntitle = lines;
	int textw = svg_width(L->tcols, SVG_FS_TITLE, 1);
	textw = svg_max(textw, svg_width(L->shade ? SVG_SHADE_SUB1_COLS
					 : SVG_SUB1_COLS, SVG_FS_SUB, 0));
	if (L->shade)
		textw = svg_max(textw, svg_width(svg_max(
			svg_cols(_(svg_shade_note)),
			svg_cols(_(svg_shade_note1))), SVG_FS_SUB, 0));
	if (L->wnote[0])
		textw = svg_max(textw, svg_width(svg_cols(L->wnote),
						 SVG_FS_SUB, 0));
	for (const char *s = L->wif, *e; *s; s = *e ? e + 1 : e) {
		char line[FMT_WHATIF_NOTE];
		e = s + strcspn(s, "\n");
		snprintf(line, sizeof line, "%.*s", (int)(e - s), s);
		textw = svg_max(textw, svg_width(svg_cols(line), SVG_FS_SUB,
						 0));
	}
	if (tr->ntgt)
		textw = svg_max(textw, svg_width(svg_cols(_(svg_sub2)) +
			svg_words_cols(&tr->m->tgt, tr->tgt, tr->ntgt),
			SVG_FS_SUB, 0));
	textw = svg_max(textw, svg_width(SVG_LEGEND_COLS, SVG_FS_SUB, 0) +
			SVG_BAR_W + 24);
	/* the panels, centred */
	int shift = SVG_MARGIN;
	if (textw + 2 * SVG_MARGIN > L->width) {
		shift += (textw + 2 * SVG_MARGIN - L->width) / 2;
		L->width = textw + 2 * SVG_MARGIN;
	}
	for (int k = 0; k < L->count; k++) {
		L->px[k] += shift;
		L->gx[k] += shift;
	}
	L->top = SVG_MARGIN + SVG_FS_TITLE + (L->ntitle - 1 + L->nsub) *
		 SVG_LINE + 12 + (L->nsub > 1 ? SVG_SUB_DROP : 0);
	L->legend = L->top + ph + 28;
	L->height = L->legend + SVG_BAR_H + 6 + SVG_FS_TICK + SVG_MARGIN;
}

/* The XML declaration, the root element, the title and the legend's
 * gradient. */
static void svg_open(FILE *out, const struct svg_lay *L)
{
	char hex[8];
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\">\n", L->width, L->height, L->width,
		L->height, FMT_SVG_FONTS);
	fputs("<title>", out);
	svg_esc(out, L->title);
	fputs("</title>\n<desc>", out);
	svg_esc(out, _("The attention weights of attn-trace: a row for each "
		       "decoder step, a column for each source word."));
	fputs("</desc>\n", out);
	fputs("<defs>\n<linearGradient id=\"ramp\" x1=\"0\" y1=\"0\" x2=\"1\" "
	      "y2=\"0\">\n", out);
	for (int k = 0; k <= 8; k++) {
		fmt_svg_ramp(k / 8.0, hex);
		fprintf(out, "<stop offset=\"%d.%03d\" stop-color=\"%s\"/>\n",
			k / 8, k % 8 * 125, hex);
	}
	fputs("</linearGradient>\n</defs>\n", out);
	fprintf(out, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" "
		"height=\"%d\" fill=\"#ffffff\"/>\n", L->width, L->height);
}

/* The title and the subtitle lines, centred. */
static void svg_heading(FILE *out, const struct svg_lay *L)
{
	const struct trace *tr = L->tr;
	int x = L->width / 2, y = SVG_MARGIN + SVG_FS_TITLE;
	fputs("<g class=\"heading\" text-anchor=\"middle\">\n", out);
	for (const char *s = L->title, *next; *s; s = next) {
		const char *e = L->twrap ? svg_line_end(s, L->twrap, &next)
					 : (next = s + strlen(s));
		fprintf(out, "<text class=\"title\" x=\"%d\" y=\"%d\" "
			"font-size=\"%d\" font-weight=\"bold\" fill=\"%s\">",
			x, y, SVG_FS_TITLE, SVG_TEXT);
		svg_esc_n(out, s, (size_t)(e - s));
		fputs("</text>\n", out);
		y += SVG_LINE;
	}
	fprintf(out, "<text class=\"subtitle\" x=\"%d\" y=\"%d\" "
		"font-size=\"%d\" fill=\"%s\">%s%s%s%s</text>\n", x, y,
		SVG_FS_SUB, SVG_MUTED, _(svg_sub1a), L->sym, svg_subscript,
		L->shade ? _(svg_shade_sub1b) : _(svg_sub1b));
	y += SVG_SUB_DROP; /* below the subtitle's subscript */
	if (tr->ntgt) {
		y += SVG_LINE;
		fprintf(out, "<text class=\"subtitle\" x=\"%d\" y=\"%d\" "
			"font-size=\"%d\" fill=\"%s\">%s", x, y, SVG_FS_SUB,
			SVG_MUTED, _(svg_sub2));
		svg_words(out, &tr->m->tgt, tr->tgt, tr->ntgt);
		fputs("</text>\n", out);
	}
	if (L->wnote[0]) { /* why the window's cells are as they are */
		y += SVG_LINE;
		fprintf(out, "<text class=\"subtitle window-note\" x=\"%d\" "
			"y=\"%d\" font-size=\"%d\" fill=\"%s\">", x, y,
			SVG_FS_SUB, SVG_MUTED);
		svg_esc(out, L->wnote);
		fputs("</text>\n", out);
	}
	/* --set: not the model's own numbers, a line or more */
	for (const char *s = L->wif, *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "\n");
		y += SVG_LINE;
		fprintf(out, "<text class=\"subtitle whatif\" x=\"%d\" "
			"y=\"%d\" font-size=\"%d\" fill=\"%s\">", x, y,
			SVG_FS_SUB, SVG_MUTED);
		svg_esc_n(out, s, (size_t)(e - s));
		fputs("</text>\n", out);
	}
	if (L->shade) /* where the numbers are */
		fprintf(out, "<text class=\"subtitle shade-note\" x=\"%d\" "
			"y=\"%d\" font-size=\"%d\" fill=\"%s\">%s</text>\n", x,
			y + SVG_LINE, SVG_FS_SUB, SVG_MUTED, L->count > 1 ?
			_(svg_shade_note) : _(svg_shade_note1));
	fputs("</g>\n", out);
}

/* The source words over the columns of the grid at gx, gy. */
static void svg_col_labels(FILE *out, const struct svg_lay *L, int gx,
			   int gy)
{
	const struct trace *tr = L->tr;
	fprintf(out, "<g class=\"col-labels\" font-size=\"%d\" fill=\"%s\"%s>\n",
		SVG_FS_LABEL, SVG_TEXT,
		L->rot ? "" : " text-anchor=\"middle\"");
	for (int i = 0; i < tr->n; i++) {
		int x = gx + (2 * i + 1) * L->cw / 2, y = gy - 10;
		if (L->rot) {
			x -= SVG_FS_LABEL / 4;
			fprintf(out, "<text class=\"col-label\" x=\"%d\" y=\"%d\" "
				"transform=\"rotate(-45 %d %d)\">", x, y, x, y);
		} else {
			fprintf(out, "<text class=\"col-label\" x=\"%d\" "
				"y=\"%d\">", x, y);
		}
		svg_esc(out, tr->m->src.words[tr->src[i]]);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

/* The baseline that centres text of size fs in a cell at y. */
static int svg_baseline(const struct svg_lay *L, int y, int fs)
{
	return y + L->ch / 2 + (fs * 35 + 50) / 100;
}

/* The output words down the left of the grid at gx, gy. */
static void svg_row_labels(FILE *out, const struct svg_lay *L, int k,
			   int gx, int gy)
{
	const struct trace *tr = L->ptr[k];
	const struct trace_run *ru = &tr->runs[L->prun[k]];
	fprintf(out, "<g class=\"row-labels\" font-size=\"%d\" fill=\"%s\" "
		"text-anchor=\"end\">\n", SVG_FS_LABEL, SVG_TEXT);
	for (int t = 1; t <= ru->nsteps; t++) {
		int pred = ru->pred[t - 1], want = svg_want(tr, t);
		fprintf(out, "<text class=\"row-label\" x=\"%d\" y=\"%d\">",
			gx - SVG_LABEL_GAP,
			svg_baseline(L, gy + (t - 1) * L->ch, SVG_FS_LABEL));
		svg_esc(out, tr->m->tgt.words[pred]);
		if (want >= 0 && want != pred) {
			char buf[MODEL_MAX_WORD + 64];
			fprintf(out, "<tspan class=\"target\" fill=\"%s\"> ",
				SVG_WRONG);
			svg_esc(out, svg_wanted(buf, sizeof buf,
						tr->m->tgt.words[want]));
			fputs("</tspan>", out);
		}
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

/* The rect of the cell of step t and source word i at x, y, weight a,
 * with its tooltip: "α_t,i = 0.1234: OUTPUT ← SOURCE". */
static void svg_cell_rect(FILE *out, const struct svg_lay *L, int k, int t,
			  int i, int x, int y, double a)
{
	const struct trace *tr = L->ptr[k];
	int run = L->prun[k];
	char hex[8], buf[NUM_BUFSZ];
	fmt_svg_ramp(a, hex);
	num_fixed(buf, a, L->prec);
	fprintf(out, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"2\">"
		"<title>%s_%d,%d = %s: ", x, y, L->cw,
		L->ch, hex, L->drawn ? "drawn" : L->sym, t, i + 1, buf);
	svg_esc(out, tr->m->tgt.words[tr->runs[run].pred[t - 1]]);
	fputs(" ← ", out);
	svg_esc(out, tr->m->src.words[tr->src[i]]);
	fputs("</title></rect>\n", out);
}

/* One cell: its rect, with a tooltip, and its value. */
static void svg_cell(FILE *out, const struct svg_lay *L, int k, int t,
		     int i, int gx, int gy, const double *alpha, int best)
{
	char buf[NUM_BUFSZ];
	int x = gx + i * L->cw, y = gy + (t - 1) * L->ch;
	double a = alpha[i];
	svg_cell_rect(out, L, k, t, i, x, y, a);
	num_fixed(buf, a, L->prec);
	fprintf(out, "<text class=\"value\" x=\"%d\" y=\"%d\" fill=\"%s\"%s>"
		"%s</text>\n", x + L->cw / 2, svg_baseline(L, y, SVG_FS_CELL),
		fmt_svg_dark(a) ? "#ffffff" : "#000000",
		i == best ? " font-weight=\"bold\"" : "", buf);
}

/* Where p_t's dot sits in its row: in the band between the value, whose
 * digits end at its baseline (y + 22) and its font's box at y + 24, and
 * the window's outline (y + 32 .. y + 34); the dot, y + 25 .. y + 31 with
 * its stroke, meets neither, and neither it nor its path ever crosses a
 * number. */
#define SVG_PT_DY 28

/* The x of the path's way down from row t to row t + 1, which crosses row
 * t + 1's values: straight above p_{t+1} (at x) when that misses the
 * value of the cell under it, else at the nearer edge of that cell, in the
 * gap between two values. */
static double svg_pt_leg(const struct svg_lay *L, int gx, int n, double x)
{
	int j = (int)floor((x - gx) / L->cw);
	if (j < 0)
		j = 0;
	if (j > n - 1)
		j = n - 1;
	double mid = gx + (2 * j + 1) * L->cw / 2.0;
	if (fabs(x - mid) > L->vw / 2.0 + 3)
		return x;
	return x < mid ? gx + j * L->cw : gx + (j + 1) * L->cw;
}

/* A local window's marks on the grid of panel k: each step's window
 * outlined, and p_t as a dot on its row, under the value, joined to the
 * next: the path of p_t, which runs along the rows under their values and
 * goes down between two values (svg_pt_leg). */
static void svg_windows(FILE *out, const struct svg_lay *L, int k, int gx,
			int gy)
{
	const struct trace *tr = L->ptr[k];
	int run = L->prun[k];
	int any = 0;
	for (int t = 1; t <= tr->runs[run].nsteps; t++) {
		const struct trace_rec *w = trace_find(tr, REC_WINDOW, run, t, 0);
		if (!w)
			continue;
		const double *bounds = trace_op(w, "window")->v;
		const double pt = trace_op(w, "p")->v[0];
		int lo = (int)bounds[0], hi = (int)bounds[1];
		int y = gy + (t - 1) * SVG_CELL_H;
		double px = gx + (pt - 0.5) * L->cw;
		if (!any)
			fputs("<g class=\"window\" fill=\"none\" stroke=\"#d62728\" "
			      "stroke-width=\"2\">\n", out);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\">"
			"<title>window %d .. %d</title></rect>\n",
			gx + (lo - 1) * L->cw + 1, y + 1, (hi - lo + 1) * L->cw - 2,
			SVG_CELL_H - 2, lo, hi);
		fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%d\" "
			"r=\"2.5\" stroke-width=\"1\" fill=\"#d62728\"><title>p_%d = %.4f</title>"
			"</circle>\n", px, y + SVG_PT_DY, t, pt);
		if (t < tr->runs[run].nsteps) {
			const struct trace_rec *nx = trace_find(tr, REC_WINDOW,
								run, t + 1, 0);
			if (nx) {
				double qx = gx + (trace_op(nx, "p")->v[0] - 0.5)
					    * L->cw;
				double lx = svg_pt_leg(L, gx, tr->n, qx);
				int y1 = y + SVG_PT_DY, y2 = y1 + SVG_CELL_H;
				fprintf(out, "<polyline class=\"pt-path\" "
					"points=\"%.1f,%d %.1f,%d %.1f,%d "
					"%.1f,%d\"/>\n", px, y1, lx, y1, lx, y2,
					qx, y2);
			}
		}
		any = 1;
	}
	if (any)
		fputs("</g>\n", out);
}

/* The grid of run at gx, gy: a row for each step, a cell for each source
 * word; the largest weight of a row is written in bold. */
static void svg_grid(FILE *out, const struct svg_lay *L, int k, int gx,
		     int gy)
{
	const struct trace *tr = L->ptr[k];
	int run = L->prun[k];
	fprintf(out, "<g class=\"cells\" font-size=\"%d\" "
		"text-anchor=\"middle\">\n", SVG_FS_CELL);
	double *one = xcalloc((size_t)tr->n, sizeof *one);
	for (int t = 1; t <= tr->runs[run].nsteps; t++) {
		const double *a = fmt_heat_row(tr, run, t, L->drawn, one);
		if (!a)
			continue;
		int best = 0;
		for (int i = 1; i < tr->n; i++)
			if (a[i] > a[best])
				best = i;
		for (int i = 0; i < tr->n; i++)
			svg_cell(out, L, k, t, i, gx, gy, a, best);
	}
	free(one);
	fputs("</g>\n", out);
	svg_windows(out, L, k, gx, gy);
}

/* A local window's marks on panel k in shades, whose cells hold no
 * number: each step's window outlined down its column, p_t a dot at its
 * place in the column, and the path from each dot to the next. */
static void svg_shade_windows(FILE *out, const struct svg_lay *L, int k,
			      int gx, int gy)
{
	const struct trace *tr = L->ptr[k];
	int run = L->prun[k], any = 0;
	for (int t = 1; t <= tr->runs[run].nsteps; t++) {
		const struct trace_rec *w = trace_find(tr, REC_WINDOW, run, t, 0);
		if (!w)
			continue;
		const double *b = trace_op(w, "window")->v;
		double pt = trace_op(w, "p")->v[0];
		int x = gx + (t - 1) * L->cw, lo = (int)b[0], hi = (int)b[1];
		double cx = x + L->cw / 2.0, cy = gy + (pt - 0.5) * L->ch;
		if (!any)
			fputs("<g class=\"window\" fill=\"none\" stroke=\"#d62728\" "
			      "stroke-width=\"2\">\n", out);
		any = 1;
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\">"
			"<title>window %d .. %d</title></rect>\n", x + 1,
			gy + (lo - 1) * L->ch + 1, L->cw - 2,
			(hi - lo + 1) * L->ch - 2, lo, hi);
		fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"2.5\" stroke-width=\"1\" fill=\"#d62728\"><title>"
			"p_%d = %.4f</title></circle>\n", cx, cy, t, pt);
		const struct trace_rec *nx = t < tr->runs[run].nsteps ?
			trace_find(tr, REC_WINDOW, run, t + 1, 0) : NULL;
		if (nx)
			fprintf(out, "<line class=\"pt-path\" x1=\"%.1f\" "
				"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx, cy,
				cx + L->cw, gy + (trace_op(nx, "p")->v[0] - 0.5)
				* L->ch);
	}
	if (any)
		fputs("</g>\n", out);
}

/* Panel k of the overview in shades at gx, gy: the source words down the
 * left of the first panel of a row, then a column a step, a row a source
 * word, each cell shaded with its tooltip and no number. */
static void svg_shade_grid(FILE *out, const struct svg_lay *L, int k,
			   int gx, int gy)
{
	const struct trace *tr = L->ptr[k];
	int run = L->prun[k];
	if (L->rl[k]) {
		fprintf(out, "<g class=\"row-labels\" font-size=\"%d\" "
			"fill=\"%s\" text-anchor=\"end\">\n", SVG_FS_LABEL,
			SVG_TEXT);
		for (int i = 0; i < tr->n; i++) {
			fprintf(out, "<text class=\"source-label\" x=\"%d\" "
				"y=\"%d\">", gx - SVG_LABEL_GAP,
				svg_baseline(L, gy + i * L->ch, SVG_FS_LABEL));
			svg_esc(out, tr->m->src.words[tr->src[i]]);
			fputs("</text>\n", out);
		}
		fputs("</g>\n", out);
	}
	fputs("<g class=\"cells\">\n", out);
	double *one = xcalloc((size_t)tr->n, sizeof *one);
	for (int t = 1; t <= tr->runs[run].nsteps; t++) {
		const double *a = fmt_heat_row(tr, run, t, L->drawn, one);
		for (int i = 0; a && i < tr->n; i++)
			svg_cell_rect(out, L, k, t, i, gx + (t - 1) * L->cw,
				      gy + i * L->ch, a[i]);
	}
	free(one);
	fputs("</g>\n", out);
	svg_shade_windows(out, L, k, gx, gy);
}

/* Panel k: its heading when there are several, the source words, the
 * output words and the grid. */
static void svg_panel(FILE *out, const struct svg_lay *L, int k)
{
	const struct trace *tr = L->ptr[k];
	const char *name = trace_scorer_name(tr->runs[L->prun[k]].scorer);
	int gx = L->gx[k], gy = L->top + L->py[k] + L->head + L->band;
	if (L->ntrs > 1)
		fprintf(out, "<g class=\"panel\" id=\"run-%s-%s\">\n",
			arch_get(tr->arch)->name, name);
	else
		fprintf(out, "<g class=\"panel\" id=\"run-%s\">\n", name);
	if (L->head) {
		fprintf(out, "<text class=\"panel-title\" x=\"%d\" y=\"%d\" "
			"font-size=\"%d\" font-weight=\"bold\" fill=\"%s\" "
			"text-anchor=\"middle\">", L->px[k] + L->rl[k] * L->shade +
			(L->pw[k] - L->rl[k] * L->shade) / 2,
			L->top + L->py[k] + SVG_FS_HEAD, SVG_FS_HEAD, SVG_TEXT);
		svg_head_text(out, L, k);
		fputs("</text>\n", out);
	}
	if (L->shade) {
		svg_shade_grid(out, L, k, gx, gy);
	} else {
		svg_col_labels(out, L, gx, gy);
		svg_row_labels(out, L, k, gx, gy);
		svg_grid(out, L, k, gx, gy);
	}
	fputs("</g>\n", out);
}

/* The caption and the colour bar from 0 to 1 with its ticks, centred. */
static void svg_legend(FILE *out, const struct svg_lay *L)
{
	static const char *const ticks[5] = { "0", "0.25", "0.5", "0.75", "1" };
	int cap = svg_width(SVG_LEGEND_COLS, SVG_FS_SUB, 0) + 12;
	int x = (L->width - cap - SVG_BAR_W) / 2, y = L->legend;
	int bx = x + cap;
	fprintf(out, "<g class=\"legend\" fill=\"%s\">\n", SVG_MUTED);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">%s%s%s</text>\n",
		x, y + SVG_BAR_H - 2, SVG_FS_SUB, _(svg_legend_cap), L->sym,
		svg_subscript);
	fprintf(out, "<rect class=\"legend-bar\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" fill=\"url(#ramp)\" stroke=\"#999999\" "
		"stroke-width=\"1\"/>\n", bx, y, SVG_BAR_W, SVG_BAR_H);
	for (int k = 0; k < 5; k++) {
		int tx = bx + k * SVG_BAR_W / 4;
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#999999\" stroke-width=\"1\"/>\n", tx,
			y + SVG_BAR_H, tx, y + SVG_BAR_H + 4);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
			"text-anchor=\"middle\">%s</text>\n", tx,
			y + SVG_BAR_H + 5 + SVG_FS_TICK, SVG_FS_TICK, ticks[k]);
	}
	fputs("</g>\n", out);
}

/* The picture of run `run` of trs[0], or of every run of the ntrs traces. */
static int svg_draw(FILE *out, const struct trace *const *trs, int ntrs,
		    int run, const struct fmt_svg_opts *o)
{
	struct svg_lay L;
	svg_lay(&L, trs, ntrs, run, o->precision);
	L.drawn = o->drawn;
	L.sym = trace_weight_symbol(trs[0]);
	svg_open(out, &L);
	svg_heading(out, &L);
	for (int k = 0; k < L.count; k++)
		svg_panel(out, &L, k);
	svg_legend(out, &L);
	fputs("</svg>\n", out);
	free(L.title);
	return ferror(out) ? -1 : 0;
}

int fmt_svg_heatmap(FILE *out, const struct trace *tr, int run,
		    const struct fmt_svg_opts *o)
{
	if (run != FMT_SVG_ALL_RUNS && (run < 0 || run >= tr->nruns))
		return -1;
	if (tr->nruns < 1)
		return -1;
	return svg_draw(out, &tr, 1, run, o);
}

int fmt_svg_heatmaps(FILE *out, const struct trace *const *trs, int ntrs,
		     const struct fmt_svg_opts *o)
{
	if (ntrs < 1 || ntrs > ARCH_COUNT)
		return -1;
	for (int j = 0; j < ntrs; j++)
		if (trs[j]->nruns < 1 || trs[j]->n != trs[0]->n)
			return -1;
	return svg_draw(out, trs, ntrs, FMT_SVG_ALL_RUNS, o);
}

void fmt_svg_text(FILE *out, const char *s)
{
	svg_esc(out, s);
}

/* The length of the subscript after a '_' at s: a {braced} group, or a
 * run of letters, digits, commas and '-'.  0 when there is none. */
static size_t svg_sub_len(const char *s)
{
	if (*s == '{') {
		const char *e = strchr(s, '}');
		return e ? (size_t)(e - s) + 1 : 0;
	}
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789,-");
	while (n > 0 && s[n - 1] == ',') /* "h_2, drawn": the comma is prose */
		n--;
	return n;
}

void fmt_svg_math(FILE *out, const char *s)
{
	fmt_svg_math_tags(out, s, svg_sub_open, "</tspan>");
}

/* The columns that the n bytes of UTF-8 at s take in monospace text: one
 * a character (what a subscript may hold is never wide). */
static size_t svg_mono_cols(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

void fmt_svg_math_cols(FILE *out, const char *s)
{
	while (*s) {
		const char *u = strchr(s, '_');
		size_t k = u ? svg_sub_len(u + 1) : 0;
		if (!u || k == 0) {
			size_t m = u ? (size_t)(u - s) + 1 : strlen(s);
			svg_esc_n(out, s, m);
			s += m;
			continue;
		}
		int brace = u[1] == '{';
		svg_esc_n(out, s, (size_t)(u - s));
		fprintf(out, "<span class=\"sb\" style=\"width:%zuch\"><sub>",
			1 + svg_mono_cols(u + 1, k));
		svg_esc_n(out, u + 1 + brace, k - 2 * (size_t)brace);
		fputs("</sub></span>", out);
		s = u + 1 + k;
	}
}

void fmt_svg_math_tags(FILE *out, const char *s, const char *open,
		       const char *close)
{
	while (*s) {
		const char *u = strchr(s, '_');
		size_t k = u ? svg_sub_len(u + 1) : 0;
		if (!u || k == 0) {
			size_t m = u ? (size_t)(u - s) + 1 : strlen(s);
			svg_esc_n(out, s, m);
			s += m;
			continue;
		}
		int brace = u[1] == '{';
		svg_esc_n(out, s, (size_t)(u - s));
		fputs(open, out);
		svg_esc_n(out, u + 1 + brace, k - 2 * (size_t)brace);
		fputs(close, out);
		s = u + 1 + k;
	}
}
