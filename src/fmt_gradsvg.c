/* fmt_gradsvg.c: the gradient paths of a trace as an SVG bar chart
 * (heatmap --gradient-paths; doc/heatmap.md, "The gradient paths").
 *
 * One panel a run, one above the other, on one scale: for each source
 * word three bars, ‖dL_t/dh_i‖ (the total, grey), its direct part
 * through step t's attention (blue) and the part through the recurrence
 * (orange), from the REC_GRADPATH records (src/gradpath.c); an axis
 * with its ticks, the words under the bars, a legend.  Each bar carries
 * data-i and data-value (its norm, shortest round trip).  Like every
 * formatter it draws what the trace recorded and computes only layout;
 * its smallest text is 18 px in a picture at most 180 + 110 n px wide,
 * so 20 px or more on a 1920 px slide for up to 15 words. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt_svg.h"
#include "gradpath.h"
#include "num.h"

#define GS_LEFT 150      /* the plot's left edge: the tick labels */
#define GS_GROUP 110     /* px a source word */
#define GS_PLOT_H 300    /* the bars' height at the top of the axis */
#define GS_PANEL_H 430   /* a run's panel, its title and words included */
#define GS_TOP 130       /* the titles above the first panel */
#define GS_FS 18         /* the smallest text */
#define GS_INK "#222222"

static const char *const gs_key[3] = { "total", "direct", "recurrence" };
static const char *const gs_colour[3] = { "#9a9a9a", "#2166ac",
					  "#e08214" };
/* The legend's labels, templates of the step t the paths are for, in
 * the notation of the title (L_t) and of the text trace. */
static const char *const gs_label[3] = {
	"total ‖∂L_{%d}/∂h_i‖", "direct, through the attention of step %d",
	"through the recurrence" };
static const char *const gs_op[3] = { NULL, "direct_norm",
				      "recurrence_norm" };

/* The norms of bar kind k (0 total, 1 direct, 2 recurrence) of r, found
 * by their ids (trace.h, REC_GRADPATH). */
static const double *gs_norms(const struct trace_rec *r, int k)
{
	return k == 0 ? r->result : trace_op(r, gs_op[k])->v;
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

/* One run's panel: its title, the bars and the words under them. */
static void gs_panel(FILE *out, const struct trace *tr,
		     const struct trace_rec *r, int y, int width, double top,
		     double step)
{
	char buf[NUM_BUFSZ];
	const int y0 = y + 60 + GS_PLOT_H;
	const int group = (width - GS_LEFT - 30) / tr->n;
	const int bw = group / 5 < 60 ? group / 5 : 60;

	fprintf(out, "<g class=\"panel\" data-scorer=\"%s\">\n"
		"<text class=\"panel-title\" x=\"%d\" y=\"%d\" font-size=\"22\" "
		"fill=\"%s\">", trace_scorer_name(tr->runs[r->run].scorer),
		GS_LEFT, y + 30, GS_INK);
	char what[80];
	snprintf(what, sizeof what, " scorer: ‖∂L_{%d}/∂h_i‖ for each source "
		 "word", r->t);
	fmt_svg_text(out, trace_scorer_name(tr->runs[r->run].scorer));
	fmt_svg_math(out, what);
	fputs("</text>\n", out);
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
			x + (3 * bw + 8) / 2, y0 + 28, GS_FS, GS_INK);
		fmt_svg_text(out, tr->m->src.words[tr->src[i]]);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

/* The characters of UTF-8 s. */
static int gs_chars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* The legend of the paths of step t, a swatch and a label a bar, in one
 * row at y. */
static void gs_legend(FILE *out, int y, int t)
{
	int x = GS_LEFT;
	char label[80];

	fprintf(out, "<g class=\"legend\" font-size=\"%d\" fill=\"%s\">\n",
		GS_FS, GS_INK);
	for (int k = 0; k < 3; k++) {
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"22\" "
			"height=\"22\" fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\">",
			x, y - 18, gs_colour[k], x + 30, y);
		snprintf(label, sizeof label, gs_label[k], t);
		fmt_svg_math(out, label);
		fputs("</text>\n", out);
		x += 30 + GS_FS * 6 / 10 * gs_chars(label) + 40;
	}
	fputs("</g>\n", out);
}

/* The titles: what L_t is, and the sentence. */
static void gs_title(FILE *out, const struct trace *tr,
		     const struct trace_rec *r)
{
	char lead[64];

	snprintf(lead, sizeof lead, "How the loss L_{%d} = −log ŷ_{%d}[",
		 r->t, r->t);
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"44\" "
		"font-size=\"28\" fill=\"%s\">", GS_LEFT, GS_INK);
	fmt_svg_math(out, lead);
	fmt_svg_text(out, tr->m->tgt.words[r->word]);
	fputs("] reaches each source word</text>\n", out);
	fprintf(out, "<text class=\"sentence\" x=\"%d\" y=\"84\" "
		"font-size=\"22\" fill=\"%s\">", GS_LEFT, GS_INK);
	for (int i = 0; i < tr->n; i++) {
		fputs(i ? " " : "", out);
		fmt_svg_text(out, tr->m->src.words[tr->src[i]]);
	}
	fputs(" → ", out);
	for (int j = 0; j < tr->ntgt; j++) {
		fputs(j ? " " : "", out);
		fmt_svg_text(out, tr->m->tgt.words[tr->tgt[j]]);
	}
	fputs("</text>\n", out);
}

int fmt_svg_gradpaths(FILE *out, const struct trace *tr)
{
	const struct trace_rec *first = gradpath_find(tr, 0);
	double top = 0;
	int width = GS_LEFT + 30 + tr->n * GS_GROUP, height;

	if (!first)
		return -1;
	if (width < 1200)
		width = 1200;
	for (int run = 0; run < tr->nruns; run++)
		for (int k = 0; k < 3; k++)
			for (int i = 0; i < tr->n; i++)
				if (gs_norms(gradpath_find(tr, run), k)[i] > top)
					top = gs_norms(gradpath_find(tr, run),
						       k)[i];
	if (!(top > 0))
		top = 1; /* a loss that reaches no word: an empty chart */
	double step = gs_tick(top);
	top = ceil(top / step - 1e-9) * step;
	height = GS_TOP + tr->nruns * GS_PANEL_H + 50;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\">\n<rect class=\"background\" x=\"0\" "
		"y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		width, height, width, height, FMT_SVG_FONTS, width, height);
	gs_title(out, tr, first);
	gs_legend(out, 118, first->t);
	for (int run = 0; run < tr->nruns; run++)
		gs_panel(out, tr, gradpath_find(tr, run),
			 GS_TOP + run * GS_PANEL_H, width, top, step);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
