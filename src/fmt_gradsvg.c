/* fmt_gradsvg.c: the gradient paths of one or more traces as an SVG bar
 * chart (heatmap --gradient-paths; doc/heatmap.md, "The gradient
 * paths").
 *
 * One panel a run, one above the other: for each source word three
 * bars, ‖∂L_t/∂h_i‖ (the total, grey), its direct part through step t's
 * attention (blue) and the part through the recurrence (orange), from
 * the REC_GRADPATH records (src/gradpath.c); an axis with its ticks, the
 * words under the bars, a legend.  Each bar carries data-i and
 * data-value (its norm, shortest round trip).  The runs of one trace
 * share a scale; with several traces (models: the attention model and
 * the baseline), each trace has its own, its panels are headed by its
 * label and its window's heatmap_note, and a line under the chart says
 * so.  Like every formatter it draws what the trace recorded and
 * computes only layout.  Its smallest text is 20 px: one trace in a
 * picture at most 180 + 110 n px wide (1200 at least), two traces of one
 * run each in one 1920 px wide and at most 1080 high, so 20 px or more
 * on a 1920×1080 slide for up to 15 words. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "fmt_svg.h"
#include "gradpath.h"
#include "i18n.h"
#include "num.h"
#include "utf8.h"
#include "window.h"

#define GS_LEFT 150      /* the plot's left edge: the tick labels */
#define GS_GROUP 110     /* px a source word */
#define GS_PLOT_H 290    /* the bars' height at the top of the axis */
#define GS_PLOT_TOP 95   /* from a panel's top to its plot's: the titles */
#define GS_PANEL_H 430   /* a run's panel, its titles and words included */
#define GS_TOP 130       /* the titles above the first panel */
#define GS_LINE 28       /* the sentence's second line, when it has one */
#define GS_FOOT 60       /* under the last panel: the note on scales */
#define GS_WIDE 1920     /* the least width of a chart of several traces */
#define GS_FS 20         /* the smallest text */
#define GS_FS_SUB 27     /* text with subscripts, set at 75%: 20.25 px */
#define GS_MAX_TRACES 8
#define GS_INK "#222222"

static const char *const gs_key[3] = { "total", "direct", "recurrence" };
static const char *const gs_colour[3] = { "#9a9a9a", "#2166ac",
					  "#e08214" };
/* the legend's labels, of step %d (L_t's t), with no subscript: the
 * panels' titles say what is measured, ‖∂L_t/∂h_i‖ */
static const char *const gs_label[3] = {
	N_("total"), N_("direct: through the attention of step %d"),
	N_("through the recurrence") };

/* The norms of bar kind k (0 total, 1 direct, 2 recurrence) of r. */
static const double *gs_norms(const struct trace_rec *r, int k)
{
	return k == 0 ? r->result : r->ops[k + 2].v;
}

/* A round step for about four ticks up to top > 0: 1, 2 or 5 × 10^k. */
static double gs_tick(double top)
{
	double raw = top / 4, p = pow(10, floor(log10(raw)));
	double m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The axis of a panel whose bars start at y0 (the zero line), with
 * ticks every step up to top. */
static void gs_axis(FILE *out, int y0, int width, double step, double top)
{
	char buf[NUM_BUFSZ];
	int prec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	fprintf(out, "<g class=\"axis\" font-size=\"%d\" fill=\"%s\" "
		"text-anchor=\"end\">\n", GS_FS, GS_INK);
	for (int k = 0; k * step <= top * (1 + 1e-9); k++) {
		int y = y0 - (int)lround(k * step / top * GS_PLOT_H);
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#dddddd\"/>\n", GS_LEFT, y, width - 30, y);
		fprintf(out, "<text x=\"%d\" y=\"%d\">%s</text>\n",
			GS_LEFT - 10, y + 6, num_fixed(buf, k * step,
						       prec > 17 ? 17 : prec));
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"%s\"/>\n</g>\n", GS_LEFT, y0, width - 30, y0,
		GS_INK);
}

/* A panel's titles: its label (the model, or NULL), the scorer and the
 * norm, then the window's note (the baseline's: no attention) if any. */
static void gs_panel_title(FILE *out, const struct trace *tr,
			   const struct trace_rec *r, const char *label, int y)
{
	char lead[128], note[256];
	const char *scorer = trace_scorer_name(tr->runs[r->run].scorer);

	fprintf(out, "<text class=\"panel-title\" x=\"%d\" y=\"%d\" "
		"font-size=\"%d\" fill=\"%s\">", GS_LEFT, y + 34, GS_FS_SUB,
		GS_INK);
	if (label) {
		fmt_svg_text(out, label);
		fputs(", ", out);
	}
	fmt_svg_text(out, scorer);
	snprintf(lead, sizeof lead, tr->enc
		 ? _(" scorer: ‖∂L_{%d}/∂h_i‖ for each cell of the image")
		 : _(" scorer: ‖∂L_{%d}/∂h_i‖ for each source word"), r->t);
	fmt_svg_math(out, lead);
	fputs("</text>\n", out);
	if (fmt_heat_window_note(tr, r->run, note, sizeof note)) {
		fprintf(out, "<text class=\"window-note\" x=\"%d\" y=\"%d\" "
			"font-size=\"%d\" fill=\"%s\">", GS_LEFT, y + 77,
			GS_FS_SUB, GS_INK);
		fmt_svg_math(out, note);
		fputs("</text>\n", out);
	}
}

/* One run's panel: its titles, the bars and the words under them. */
static void gs_panel(FILE *out, const struct trace *tr,
		     const struct trace_rec *r, const char *label, int y,
		     int width, double top, double step)
{
	char buf[NUM_BUFSZ];
	const int y0 = y + GS_PLOT_TOP + GS_PLOT_H;
	const int group = (width - GS_LEFT - 30) / tr->n;
	const int bw = group / 5 < 60 ? group / 5 : 60;

	fprintf(out, "<g class=\"panel\" data-scorer=\"%s\" "
		"data-window=\"%s\"",
		trace_scorer_name(tr->runs[r->run].scorer),
		window_get(tr->cfg.window)->name);
	if (label) {
		fputs(" data-model=\"", out);
		fmt_svg_text(out, label);
		fputc('"', out);
	}
	fputs(">\n", out);
	gs_panel_title(out, tr, r, label, y);
	gs_axis(out, y0, width, step, top);
	for (int i = 0; i < tr->n; i++) {
		int x = GS_LEFT + (group - 3 * bw - 8) / 2 + i * group;
		for (int k = 0; k < 3; k++) {
			double v = gs_norms(r, k)[i];
			int h = (int)lround(v / top * GS_PLOT_H);
			fprintf(out, "<rect class=\"%s\" data-i=\"%d\" "
				"data-value=\"%s\" x=\"%d\" y=\"%d\" "
				"width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
				gs_key[k], i + 1, num_shortest(buf, v),
				x + k * (bw + 4), y0 - h, bw, h,
				gs_colour[k]);
		}
		fprintf(out, "<text class=\"word\" x=\"%d\" y=\"%d\" "
			"font-size=\"%d\" fill=\"%s\" text-anchor=\"middle\">",
			x + (3 * bw + 8) / 2, y0 + 30, GS_FS, GS_INK);
		fmt_svg_text(out, tr->m->src.words[tr->src[i]]);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

/* The display columns of UTF-8 s: a wide (CJK) character takes two. */
static int gs_chars(const char *s)
{
	int n = utf8_width(s);

	return n > 0 ? n : 0;
}

/* The legend, a swatch and a label a bar, in one row at y, for L_t. */
static void gs_legend(FILE *out, int y, int t)
{
	int x = GS_LEFT;

	fprintf(out, "<g class=\"legend\" font-size=\"%d\" fill=\"%s\">\n",
		GS_FS, GS_INK);
	for (int k = 0; k < 3; k++) {
		char label[96];
		/* %d or none */
		snprintf(label, sizeof label, _(gs_label[k]), t);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"22\" "
			"height=\"22\" fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\">",
			x, y - 18, gs_colour[k], x + 30, y);
		fmt_svg_text(out, label);
		fputs("</text>\n", out);
		x += 30 + GS_FS * 6 / 10 * gs_chars(label) + 40;
	}
	fputs("</g>\n", out);
}

/* Whether the sentence line, "SOURCE → TARGET" at 22 px (0.62 em a
 * character), is wider than a chart width wide: then it takes two. */
static int gs_two_lines(const struct trace *tr, int width)
{
	int cols = 3;

	for (int i = 0; i < tr->n; i++)
		cols += gs_chars(tr->m->src.words[tr->src[i]]) + 1;
	for (int j = 0; j < tr->ntgt; j++)
		cols += gs_chars(tr->m->tgt.words[tr->tgt[j]]) + 1;
	return GS_LEFT + cols * 22 * 62 / 100 > width - 20;
}

/* The titles: what L_t is, and the sentence, "SOURCE → TARGET" on one
 * line, or on two when one would be wider than width (0.62 em a
 * character).  Returns how much lower than GS_TOP the panels start: 0,
 * or a line's height. */
static int gs_title(FILE *out, const struct trace *tr,
		    const struct trace_rec *r, int width)
{
	char lead[128];
	int two = gs_two_lines(tr, width);

	/* TRANSLATORS: the title, up to the target word, then the rest of
	 * it: "How the loss L_1 = −log ŷ_1[" WORD "] reaches each source
	 * word" */
	snprintf(lead, sizeof lead, _("How the loss L_{%d} = −log ŷ_{%d}["),
		 r->t, r->t);
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"44\" "
		"font-size=\"28\" fill=\"%s\">", GS_LEFT, GS_INK);
	fmt_svg_math(out, lead);
	fmt_svg_text(out, tr->m->tgt.words[r->word]);
	fmt_svg_text(out, tr->enc ? _("] reaches each cell of the image")
				  : _("] reaches each source word"));
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"sentence\" x=\"%d\" y=\"84\" "
		"font-size=\"22\" fill=\"%s\">", GS_LEFT, GS_INK);
	for (int i = 0; i < tr->n; i++) {
		fputs(i ? " " : "", out);
		fmt_svg_text(out, tr->m->src.words[tr->src[i]]);
	}
	if (two)
		fprintf(out, "</text>\n<text class=\"sentence\" x=\"%d\" "
			"y=\"%d\" font-size=\"22\" fill=\"%s\">→ ", GS_LEFT,
			84 + GS_LINE, GS_INK);
	else
		fputs(" → ", out);
	for (int j = 0; j < tr->ntgt; j++) {
		fputs(j ? " " : "", out);
		fmt_svg_text(out, tr->m->tgt.words[tr->tgt[j]]);
	}
	fputs("</text>\n", out);
	return two ? GS_LINE : 0;
}

/* The chart's least width: a group of bars a source word, as wide as
 * its word (0.62 em a character) and GS_GROUP at least. */
static int gs_width(const struct trace *tr)
{
	int group = GS_GROUP;

	for (int i = 0; i < tr->n; i++) {
		int c = gs_chars(tr->m->src.words[tr->src[i]]);
		if (c * GS_FS * 62 / 100 + 16 > group)
			group = c * GS_FS * 62 / 100 + 16;
	}
	return GS_LEFT + 30 + tr->n * group;
}

/* The largest norm of any bar of tr's runs, rounded up to a tick: the
 * top of its scale, and the tick's step into *step. */
static double gs_scale(const struct trace *tr, double *step)
{
	double top = 0;

	for (int run = 0; run < tr->nruns; run++)
		for (int k = 0; k < 3; k++)
			for (int i = 0; i < tr->n; i++)
				if (gs_norms(gradpath_find(tr, run), k)[i] > top)
					top = gs_norms(gradpath_find(tr, run),
						       k)[i];
	if (!(top > 0))
		top = 1; /* a loss that reaches no word: an empty chart */
	*step = gs_tick(top);
	return ceil(top / *step - 1e-9) * *step;
}

int fmt_svg_gradpaths(FILE *out, const struct trace *const *trs,
		      const char *const *labels, int ntr)
{
	const struct trace *tr = ntr > 0 ? trs[0] : NULL;
	const struct trace_rec *first = tr ? gradpath_find(tr, 0) : NULL;
	int width, height, panels = 0;

	if (!first || ntr > GS_MAX_TRACES)
		return -1;
	for (int k = 0; k < ntr; k++) {
		if (!gradpath_find(trs[k], 0) || trs[k]->n != tr->n)
			return -1;
		panels += trs[k]->nruns;
	}
	width = gs_width(tr);
	if (width < (ntr > 1 ? GS_WIDE : 1200))
		width = ntr > 1 ? GS_WIDE : 1200;
	int dy = gs_two_lines(tr, width) ? GS_LINE : 0;
	height = GS_TOP + dy + panels * GS_PANEL_H + (ntr > 1 ? GS_FOOT : 40);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\">\n<rect class=\"background\" x=\"0\" "
		"y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		width, height, width, height, FMT_SVG_FONTS, width, height);
	gs_title(out, tr, first, width);
	gs_legend(out, 118 + dy, first->t);
	for (int k = 0, y = GS_TOP + dy; k < ntr; k++) {
		double step, top = gs_scale(trs[k], &step);
		for (int run = 0; run < trs[k]->nruns; run++, y += GS_PANEL_H)
			gs_panel(out, trs[k], gradpath_find(trs[k], run),
				 labels ? labels[k] : NULL, y, width, top,
				 step);
	}
	if (ntr > 1) {
		fprintf(out, "<text class=\"scale-note\" x=\"%d\" y=\"%d\" "
			"font-size=\"%d\" fill=\"%s\">", GS_LEFT, height - 24,
			GS_FS, GS_INK);
		fmt_svg_text(out, _("Each model on a scale of its own: compare "
				    "where its bars stand, not their heights "
				    "across models."));
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
