/* self_fmt.c: what is self-attention's own in showing its trace: the
 * stepper's stages as lists of records (printed by fmt_text_rec), the
 * weights of each head as an SVG heatmap, and its quiz questions.  The
 * trace itself is printed by the shared formatters (fmt_text.c,
 * fmt_json.c, fmt_csv.c, fmt_md.c), which walk its records. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "i18n.h"
#include "num.h"
#include "fmt_svg.h"
#include "self.h"
#include "utf8.h"

/* x with prec digits, in parentheses when negative, as a factor. */
static const char *factor(char *buf, double x, int prec)
{
	char n[NUM_BUFSZ];
	fmt_num(n, x, prec);
	snprintf(buf, NUM_BUFSZ + 2, x < 0 ? "(%s)" : "%s", n);
	return buf;
}

/* ------------------------------------------------------------------ text */

/* The records of each stage of the stepper (enum self_stage): which
 * kinds, and whether they are one head's. */
static int stage_has(enum self_stage st, const struct trace_rec *r, int head)
{
	switch (st) {
	case SELF_STAGE_X: return r->stage == STAGE_INPUT;
	case SELF_STAGE_QKV: return r->stage == STAGE_PROJECTION;
	case SELF_STAGE_SCORES:
		return r->stage == STAGE_SCORING && r->head == head + 1;
	case SELF_STAGE_SOFTMAX:
		return r->stage == STAGE_SOFTMAX && r->head == head + 1;
	case SELF_STAGE_Z:
		return r->stage == STAGE_WEIGHTED_SUM && r->head == head + 1;
	case SELF_STAGE_OUT:
		return r->stage == STAGE_CONCAT || r->stage == STAGE_OUTPUT;
	case SELF_STAGE_COUNT: break;
	}
	return 0;
}

void self_fmt_text_stage(FILE *out, const struct self_trace *t,
			 enum self_stage st, int head, int prec, int terms)
{
	struct fmt_opts o;
	fmt_opts_default(&o);
	o.precision = prec;
	o.terms = terms;
	for (int k = 0; k < t->tr.nrecs; k++)
		if (stage_has(st, &t->tr.recs[k], head))
			fmt_text_rec(out, &t->tr, &t->tr.recs[k], &o);
}

/* The record of kind of head (from 1), or NULL if the trace holds none
 * (a head self_build() was not asked to record). */
static const struct trace_rec *head_rec(const struct self_trace *t,
					enum trace_kind kind, int head)
{
	for (int k = 0; k < t->tr.nrecs; k++)
		if (t->tr.recs[k].kind == kind && t->tr.recs[k].head == head)
			return &t->tr.recs[k];
	return NULL;
}

/* ------------------------------------------------------------------- SVG */

#define SVG_CELL 64   /* a cell is this wide */
#define SVG_ROW 32    /* and this high */
#define SVG_SHADE 26  /* a cell's width without its number (compact) */
#define SVG_SHADE_H 24 /* and its height */
#define SVG_FS 13     /* the font size */
#define SVG_GAP 40    /* between two heads */
#define SVG_TITLE 64  /* the title and the sentence, above the heads */
#define SVG_LEGEND 56 /* the legend, below them */
#define SVG_BAR 200   /* the legend's colour bar */

/* The estimated width in px of s at the font size: 0.62 em a column. */
static int svg_text_px(const char *s)
{
	return (int)(utf8_width(s) * SVG_FS * 0.62 + 0.5);
}

/* The estimated width of the words, a space between each. */
static int svg_words_px(char *const *w, int n)
{
	int px = 0;
	for (int k = 0; k < n; k++)
		px += svg_text_px(w[k]) + (k ? svg_text_px(" ") : 0);
	return px;
}

/* The cells' size, and whether they hold their numbers: a picture whose
 * 13 px text would be under 20 px on a 1920x1080 slide with the numbers
 * written in 64x32 cells drops them and shades 26x24 cells instead, each
 * with its weight as a tooltip and each row's largest weight framed
 * (doc/heatmap.md, "Legible from the back row"). */
struct svg_grid {
	int cw, ch;   /* a cell's width and height */
	int numbers;  /* 1: each cell writes its weight */
};

/* The title's and the legend's words (N_(): printed and measured
 * through _()). */
static const char svg_causal[] = N_("causal: a word attends to itself and "
	"the words before it");
static const char svg_full[] = N_("every word attends to every word");
static const char svg_cross[] = N_("each query word attends to every "
	"source word");
static const char svg_masked_cap[] = N_("masked by the causal mask: "
	"weight 0 (its score −∞)");
static const char svg_best_cap[] = N_("framed: a row's largest weight (a "
	"cell's tooltip gives its number)");

/* The title into buf: what is drawn, and whether it is masked. */
static const char *svg_title_text(char *buf, size_t size,
				  const struct self_trace *t)
{
	const char *what = _(t->o.causal ? svg_causal : t->o.cross ? svg_cross
			     : svg_full);
	snprintf(buf, size, t->o.cross ? _("cross-attention weights A, %s")
		 : _("self-attention weights A, %s"), what);
	return buf;
}

/* The hatching of a masked cell and the legend's ramp. */
static void svg_defs(FILE *out)
{
	char hex[8];
	fputs("<defs><pattern id=\"masked\" width=\"8\" height=\"8\" "
	      "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
	      "<rect width=\"8\" height=\"8\" fill=\"#f2f2f2\"/><line x1=\"0\" "
	      "y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#bdbdbd\" stroke-width=\"4\"/>"
	      "</pattern>\n<linearGradient id=\"ramp\">", out);
	for (int k = 0; k <= 4; k++) {
		fmt_svg_ramp(k / 4.0, hex);
		fprintf(out, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", k * 25,
			hex);
	}
	fputs("</linearGradient></defs>\n", out);
}

/* The title (what is drawn, and whether it is masked) and the words. */
static void svg_header(FILE *out, const struct self_trace *t, int x)
{
	char title[512];
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"24\" font-size=\"18\" "
		"font-weight=\"bold\">%s</text>\n", x,
		svg_title_text(title, sizeof title, t));
	fprintf(out, "<text class=\"sentence\" x=\"%d\" y=\"48\">%s", x,
		t->o.cross ? _("queries (rows): ") : _("sentence: "));
	for (int k = 0; k < t->nq; k++) {
		fputs(k ? " " : "", out);
		fmt_svg_text(out, t->qwords[k]);
	}
	if (t->o.cross) { /* the keys on a line of their own */
		fprintf(out, "</text>\n<text class=\"sentence\" x=\"%d\" "
			"y=\"%d\">%s", x, 48 + SVG_FS + 5, _("keys (columns): "));
		for (int k = 0; k < t->n; k++) {
			fputs(k ? " " : "", out);
			fmt_svg_text(out, t->kwords[k]);
		}
	}
	fputs("</text>\n", out);
}

/* The legend at y: the ramp from 0 to 1, the hatching of a masked
 * cell when there is a mask, and below it the frame of a row's largest
 * weight when the cells do not write their numbers. */
static void svg_legend(FILE *out, const struct self_trace *t,
		       const struct svg_grid *g, int x, int y)
{
	fprintf(out, "<g class=\"legend\">\n<text x=\"%d\" y=\"%d\">%s"
		"</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"14\" "
		"fill=\"url(#ramp)\" stroke=\"#999999\"/>\n<text x=\"%d\" "
		"y=\"%d\" text-anchor=\"start\">0</text><text x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">1</text>\n", x, y + 12, _("weight"), x + 56, y,
		SVG_BAR, x + 56, y + 30, x + 56 + SVG_BAR, y + 30);
	if (t->o.causal)
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"28\" height=\"18\" "
			"fill=\"url(#masked)\" stroke=\"#999999\"/>\n<text "
			"x=\"%d\" y=\"%d\">%s</text>\n", x + 56 + SVG_BAR + 24,
			y - 2, x + 56 + SVG_BAR + 60, y + 12, _(svg_masked_cap));
	if (!g->numbers)
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"28\" "
			"height=\"18\" fill=\"none\" stroke=\"#d62728\" "
			"stroke-width=\"2\"/>\n<text x=\"%d\" y=\"%d\">%s"
			"</text>\n", x + 56 + SVG_BAR + 24, y + 20,
			x + 56 + SVG_BAR + 60, y + 34, _(svg_best_cap));
	fputs("</g>\n", out);
}

/* A panel's heading, with its head's number. */
static const char svg_head_fmt[] = N_("head %d: rows are queries, columns "
	"keys");

/* One cell of head's panel at (x, y), query i and key j: its weight a
 * shaded, written when g->numbers, and always its tooltip; masked, hatched
 * with its weight 0. */
static void svg_cell(FILE *out, const struct svg_grid *g, double a,
		     int masked, int x, int y, int i, int j, int prec)
{
	char hex[8], num[NUM_BUFSZ];
	fmt_svg_ramp(a, hex);
	fmt_num(num, a, prec);
	fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" fill=\"%s\" stroke=\"#ffffff\"><title>A_%d,%d "
		"= %s</title></rect>\n", masked ? "masked" : "cell", x, y,
		g->cw, g->ch, masked ? "url(#masked)" : hex, i + 1, j + 1, num);
	if (g->numbers)
		fprintf(out, "<text class=\"value\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			x + g->cw / 2, y + g->ch / 2 + SVG_FS / 3,
			!masked && fmt_svg_dark(a) ? "#ffffff" : "#000000", num);
}

/* Row i's largest unmasked weight framed, after the row's cells so that
 * no cell covers a frame: each key whose weight equals it (a word that
 * comes twice has the same weight twice). */
static void svg_best(FILE *out, const struct self_trace *t,
		     const struct svg_grid *g, const double *A, int i,
		     int gx, int y)
{
	double most = -1;
	for (int j = 0; j < t->n; j++)
		if (!self_masked(t, i, j) && A[i * t->n + j] > most)
			most = A[i * t->n + j];
	for (int j = 0; j < t->n; j++)
		if (!self_masked(t, i, j) && A[i * t->n + j] == most)
			fprintf(out, "<rect class=\"best\" x=\"%d\" y=\"%d\" "
				"width=\"%d\" height=\"%d\" fill=\"none\" "
				"stroke=\"#d62728\" stroke-width=\"2\"/>\n",
				gx + j * g->cw + 1, y + 1, g->cw - 2, g->ch - 2);
}

/* Head h's panel, its left edge at x0, its grid below top, its row
 * labels label px wide. */
static void svg_head(FILE *out, const struct self_trace *t,
		     const struct svg_grid *g, const struct trace_rec *sm,
		     int h, int x0, int top, int label, int prec)
{
	const int gx = x0 + label;
	fprintf(out, "<g class=\"head\" id=\"head%d\">\n", h + 1);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">",
		x0, SVG_TITLE + 22);
	fprintf(out, _(svg_head_fmt), h + 1);
	fputs("</text>\n", out);
	for (int j = 0; j < t->n; j++) {
		int cx = gx + j * g->cw + g->cw / 2;
		fprintf(out, "<text transform=\"translate(%d %d) "
			"rotate(-45)\">", cx, top - 8);
		fmt_svg_text(out, t->kwords[j]);
		fputs("</text>\n", out);
	}
	for (int i = 0; i < t->nq; i++) {
		int y = top + i * g->ch;
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			gx - 8, y + g->ch / 2 + SVG_FS / 3);
		fmt_svg_text(out, t->qwords[i]);
		fputs("</text>\n", out);
		for (int j = 0; j < t->n; j++)
			svg_cell(out, g, sm->result[i * t->n + j],
				 self_masked(t, i, j), gx + j * g->cw, y, i,
				 j, prec);
		if (!g->numbers)
			svg_best(out, t, g, sm->result, i, gx, y);
	}
	fputs("</g>\n", out);
}

/* The picture's layout for the cells g: its width and height, where
 * the grids start (top), the row labels' width and a panel's. */
struct svg_size {
	int width, height, top, label, panel;
};

static void svg_size(struct svg_size *z, const struct self_trace *t,
		     const struct svg_grid *g, int nh)
{
	int label = 0, top = 0;
	for (int i = 0; i < t->nq; i++)
		if (svg_text_px(t->qwords[i]) > label)
			label = svg_text_px(t->qwords[i]);
	for (int j = 0; j < t->n; j++)
		if (svg_text_px(t->kwords[j]) > top)
			top = svg_text_px(t->kwords[j]);
	z->label = label + 16;
	const int spill = top * 7 / 10; /* how far the last column's label
					   reaches right, at -45 degrees */
	z->top = SVG_TITLE + spill + 70;
	/* a panel is as wide as its bold heading at least (0.70 em a
	 * character), so two headings never meet */
	int panel = z->label + t->n * g->cw;
	int heading = (int)(utf8_width(_(svg_head_fmt)) * SVG_FS * 0.70 + 0.5);
	z->panel = panel < heading + SVG_GAP / 2 ? heading + SVG_GAP / 2
						  : panel;
	int width = 20 + nh * z->panel + (nh - 1) * SVG_GAP + 20 + spill;
	int words = 20 + svg_text_px(_("queries (rows): ")) +
		    svg_words_px(t->qwords, t->nq) + 20;
	int keys = 20 + svg_text_px(_("keys (columns): ")) +
		   svg_words_px(t->kwords, t->n) + 20;
	if (t->o.cross && keys > words)
		words = keys;
	int cap = svg_text_px(_(g->numbers ? svg_masked_cap : svg_best_cap));
	int legend = 20 + 56 + SVG_BAR + 60 + cap + 20;
	/* the title measured as self-attention's, for cross-attention's
	 * too (one column short in English: 12 px, within the margin), as
	 * it always was, so that the English pictures keep their size */
	char buf[512];
	snprintf(buf, sizeof buf, _("self-attention weights A, %s"),
		 _(t->o.causal ? svg_causal : t->o.cross ? svg_cross
		   : svg_full));
	int title = 20 + (int)(utf8_width(buf) * 18 * 0.66) + 20;
	width = width < words ? words : width;
	width = width < legend ? legend : width;
	z->width = width < title ? title : width;
	z->height = z->top + t->nq * g->ch + 30 + SVG_LEGEND;
}

/* Whether a picture w by h, fitted into a 1920x1080 slide, shows its
 * SVG_FS px text at 20 px or more. */
static int svg_legible(int w, int h)
{
	return SVG_FS * 1920 >= 20 * w && SVG_FS * 1080 >= 20 * h;
}

int self_fmt_svg(FILE *out, const struct self_trace *t, unsigned heads,
		 int prec)
{
	int nh = 0;
	for (int h = 0; h < SELF_HEADS; h++)
		nh += (heads >> h) & 1;
	struct svg_grid g = { SVG_CELL, SVG_ROW, 1 };
	struct svg_size z;
	svg_size(&z, t, &g, nh);
	if (!svg_legible(z.width, z.height)) { /* the numbers yield */
		g = (struct svg_grid){ SVG_SHADE, SVG_SHADE_H, 0 };
		svg_size(&z, t, &g, nh);
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" font-size=\"%d\">\n", z.width, z.height,
		z.width, z.height, FMT_SVG_FONTS, SVG_FS);
	fprintf(out, "<title>%s</title>\n", t->o.cross ?
		(t->o.causal ? _("cross-attention weights A, a panel for each "
				 "head (causal mask)")
		 : _("cross-attention weights A, a panel for each head"))
		: t->o.causal ? _("self-attention weights A, a panel for each "
				  "head (causal mask)")
		: _("self-attention weights A, a panel for each head"));
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#ffffff\"/>\n", z.width, z.height);
	svg_defs(out);
	svg_header(out, t, 20);
	int x0 = 20;
	for (int h = 0; h < SELF_HEADS; h++) {
		if (!(heads & (1u << h)))
			continue;
		const struct trace_rec *sm = head_rec(t, REC_ROW_SOFTMAX, h + 1);
		if (!sm)
			continue; /* not recorded */
		svg_head(out, t, &g, sm, h, x0, z.top, z.label, prec);
		x0 += z.panel + SVG_GAP;
	}
	svg_legend(out, t, &g, 20, z.height - SVG_LEGEND + 8);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ quiz */

int self_quiz_make(struct quiz_question *q, const struct self_trace *t,
		   enum self_quiz_kind kind, int head, int i, int j, int k,
		   int precision, struct errbuf *err)
{
	memset(q, 0, sizeof *q);
	if (head < 1 || head > SELF_HEADS || i < 1 || i > t->nq ||
	    (kind != SELF_QUIZ_Z && (j < 1 || j > t->n)) ||
	    (kind == SELF_QUIZ_Z && (k < 1 || k > t->dk))) {
		err_set(err, _("no such number in the self-attention trace"));
		return -1;
	}
	if (precision < QUIZ_MIN_PREC)
		precision = QUIZ_MIN_PREC;
	if (precision > QUIZ_MAX_PREC)
		precision = QUIZ_MAX_PREC;
	q->st = t;
	q->self_kind = kind;
	q->head = head;
	q->i = i;
	q->j = j;
	q->k = k;
	q->t = 1;
	q->precision = precision;
	static const enum trace_kind rec_of[] = {
		[SELF_QUIZ_SCORE] = REC_HEAD_SCORES,
		[SELF_QUIZ_WEIGHT] = REC_ROW_SOFTMAX,
		[SELF_QUIZ_Z] = REC_HEAD_Z,
	};
	const struct trace_rec *r = head_rec(t, rec_of[kind], head);
	if (!r) {
		err_set(err, _("head %d is not in the self-attention trace"), head);
		return -1;
	}
	switch (kind) {
	case SELF_QUIZ_SCORE:
		q->stage = STAGE_SCORING;
		snprintf(q->symbol, sizeof q->symbol, "e_%d,%d[h%d]", i, j, head);
		q->expected = r->result[(i - 1) * t->n + j - 1];
		break;
	case SELF_QUIZ_WEIGHT:
		q->stage = STAGE_SOFTMAX;
		snprintf(q->symbol, sizeof q->symbol, "α_%d,%d[h%d]", i, j, head);
		q->expected = r->result[(i - 1) * t->n + j - 1];
		break;
	case SELF_QUIZ_Z:
		q->stage = STAGE_WEIGHTED_SUM;
		snprintf(q->symbol, sizeof q->symbol, "z_%d[h%d][%d]", i, head, k);
		q->expected = r->result[(i - 1) * t->dk + k - 1];
		break;
	}
	q->tolerance = quiz_tolerance(q->expected, precision);
	return 0;
}

/* A row of numbers with -inf for a masked score, "  label   [a, -inf]". */
static void quiz_row(FILE *out, const char *label, const double *v, int n,
		     int prec)
{
	char buf[NUM_BUFSZ];
	fputs("  ", out);
	fmt_pad(out, label, 36);
	fprintf(out, "(%d)   [", n);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? ", " : "",
			isinf(v[k]) ? "-inf" : fmt_num(buf, v[k], prec));
	fputs("]\n", out);
}

void self_quiz_prompt_text(FILE *out, const struct quiz_question *q)
{
	const struct self_trace *t = q->st;
	const int h = q->head - 1, dk = t->dk, off = h * dk;
	const int i = q->i - 1, p = q->precision;
	/* the operands, from the records (self_quiz_make found them) */
	const struct trace_rec *S = head_rec(t, REC_HEAD_SCORES, q->head);
	const struct trace_rec *A = head_rec(t, REC_ROW_SOFTMAX, q->head);
	const struct trace_rec *Z = head_rec(t, REC_HEAD_Z, q->head);
	char label[96];
	switch (q->self_kind) {
	case SELF_QUIZ_SCORE:
		fprintf(out, "Head %d compares the query of %s with the key of "
			"%s on its features %d-%d:\n", q->head, t->qwords[i],
			t->kwords[q->j - 1], off + 1, off + dk);
		snprintf(label, sizeof label, "q_%d[h%d]", q->i, q->head);
		fmt_text_line(out, 2, label, trace_op(S, "Q_h")->v + (size_t)i * dk,
			      dk, p);
		snprintf(label, sizeof label, "k_%d[h%d]", q->j, q->head);
		fmt_text_line(out, 2, label, trace_op(S, "K_h")->v +
			      (size_t)(q->j - 1) * dk, dk, p);
		fprintf(out, "What is the score %s = (q_%d[h%d]·k_%d[h%d]) / "
			"√%d?\n", q->symbol, q->i, q->head, q->j, q->head, dk);
		break;
	case SELF_QUIZ_WEIGHT:
		fprintf(out, "The scores of row %d (%s) in head %d%s:\n", q->i,
			t->qwords[i], q->head, t->o.causal
			? ", after the causal mask" : "");
		snprintf(label, sizeof label, "e_%d[h%d]", q->i, q->head);
		quiz_row(out, label, trace_op(A, "scores")->v + (size_t)i * t->n,
			 t->n, p);
		fprintf(out, "What is the weight of %s, %s = exp(e_%d,%d - max) "
			"/ Σ_j exp(e_%d,j - max)?\n", t->kwords[q->j - 1],
			q->symbol, q->i, q->j, q->i);
		break;
	default:
		fprintf(out, "The weights of row %d (%s) in head %d and the "
			"values:\n", q->i, t->qwords[i], q->head);
		snprintf(label, sizeof label, "α_%d[h%d]", q->i, q->head);
		fmt_text_line(out, 2, label, trace_op(Z, "A")->v +
			      (size_t)i * t->n, t->n, p);
		for (int j = 0; j < t->n; j++) {
			snprintf(label, sizeof label, "v_%d[h%d] (%s)", j + 1,
				 q->head, t->kwords[j]);
			fmt_text_line(out, 2, label, trace_op(Z, "V_h")->v +
				      (size_t)j * dk, dk, p);
		}
		fprintf(out, "What is coordinate %d of %s's output, %s = "
			"Σ_j α_%d,j·v_j[h%d][%d]?\n", q->k, t->qwords[i],
			q->symbol, q->i, q->head, q->k);
		break;
	}
}

int self_quiz_worked_text(FILE *out, const struct quiz_question *q)
{
	const struct self_trace *t = q->st;
	const int dk = t->dk, i = q->i - 1, p = q->precision;
	char a[NUM_BUFSZ], b[NUM_BUFSZ], fa[NUM_BUFSZ + 2], fb[NUM_BUFSZ + 2];
	/* every number from the records (self_quiz_make found them) */
	const struct trace_rec *S = head_rec(t, REC_HEAD_SCORES, q->head);
	const struct trace_rec *A = head_rec(t, REC_ROW_SOFTMAX, q->head);
	const struct trace_rec *Z = head_rec(t, REC_HEAD_Z, q->head);
	switch (q->self_kind) {
	case SELF_QUIZ_SCORE: {
		const double *Qh = trace_op(S, "Q_h")->v + (size_t)i * dk;
		const double *Kh = trace_op(S, "K_h")->v + (size_t)(q->j - 1) * dk;
		fprintf(out, "%s = (", q->symbol);
		for (int c = 0; c < dk; c++)
			fprintf(out, "%s%s×%s", c ? " + " : "",
				factor(fa, Qh[c], p), factor(fb, Kh[c], p));
		fmt_num(a, trace_op(S, "scale")->v[0], p);
		fprintf(out, ") / %s = %s / %s = %s\n", a,
			fmt_num(b, trace_op(S, "QK")->v[i * t->n + q->j - 1], p), a,
			fmt_num(fa, q->expected, p));
		break;
	}
	case SELF_QUIZ_WEIGHT: {
		const double *sh = trace_op(A, "shifted")->v + (size_t)i * t->n;
		const double *ex = trace_op(A, "exp")->v + (size_t)i * t->n;
		fprintf(out, "max = %s\n", fmt_num(a, trace_op(A, "max")->v[i], p));
		for (int j = 0; j < t->n; j++) {
			if (isinf(sh[j]))
				fprintf(out, "exp(e_%d,%d - max) = exp(-inf) = 0\n",
					q->i, j + 1);
			else
				fprintf(out, "exp(e_%d,%d - max) = exp(%s) = %s\n",
					q->i, j + 1, fmt_num(a, sh[j], p),
					fmt_num(b, ex[j], p));
		}
		fprintf(out, "sum = %s\n", fmt_num(a, trace_op(A, "sum")->v[i], p));
		fprintf(out, "%s = exp(e_%d,%d - max) / sum = %s\n", q->symbol,
			q->i, q->j, fmt_num(b, q->expected, p));
		break;
	}
	default:
		fprintf(out, "%s = ", q->symbol);
		for (int j = 0; j < t->n; j++)
			fprintf(out, "%s%s×%s", j ? " + " : "",
				factor(fa, trace_op(Z, "A")->v[i * t->n + j], p),
				factor(fb, trace_op(Z, "V_h")->v[j * dk + q->k - 1],
				       p));
		fprintf(out, " = %s\n", fmt_num(a, q->expected, p));
		break;
	}
	return ferror(out) ? -1 : 0;
}
