/* fmt_svg.h: the alignment matrix of a trace as an SVG picture, for slides.
 *
 * The picture is a standalone SVG 1.1 document: a title (the scorer, the
 * source sentence and the output), the output words down the left (a row
 * for each decoder step), the source words across the top, a cell for each
 * weight α_t,i shaded on a white-to-dark-blue ramp with its value written
 * in it, and a colour legend from 0 to 1.  Like every formatter it renders
 * what trace_build() recorded and computes nothing but layout.  The layout
 * and the file are described in doc/heatmap.md. */
#ifndef ATTN_FMT_SVG_H
#define ATTN_FMT_SVG_H

#include <stdio.h>

#include "trace.h"

/* The run argument that draws every run of the trace side by side, in
 * their order, sharing one title and one legend. */
#define FMT_SVG_ALL_RUNS (-1)

/* The font families the picture asks for, first found wins. */
#define FMT_SVG_FONTS "'DejaVu Sans', Arial, Helvetica, sans-serif"

struct fmt_svg_opts {
	int precision; /* digits after the point in the cells, 0..NUM_MAX_PREC */
	int drawn;     /* 1: the one-hot of hard attention's drawn words */
};

/* The defaults: precision 4, as in the text trace. */
void fmt_svg_opts_default(struct fmt_svg_opts *o);

/* Writes the SVG document of run `run` of tr (an index into tr->runs, or
 * FMT_SVG_ALL_RUNS) to out.  Every word is XML-escaped, every number is
 * written with '.', and the same trace always gives the same bytes.
 * Returns 0, or -1 if the stream reports a write error (the caller reports
 * it) or if run is neither a run of tr nor FMT_SVG_ALL_RUNS (then nothing
 * is written). */
int fmt_svg_heatmap(FILE *out, const struct trace *tr, int run,
		    const struct fmt_svg_opts *o);

/* The same picture for several traces of one sentence (ntrs of them, one
 * for each architecture: trace --arch=all), every run of each side by
 * side, each panel headed "bahdanau · dot → OUTPUT".  Returns 0, or -1
 * on a write error or if the traces differ in length or have no runs
 * (then nothing is written). */
int fmt_svg_heatmaps(FILE *out, const struct trace *const *trs, int ntrs,
		     const struct fmt_svg_opts *o);

/* The gradient paths of every run of tr (trace_cfg.grad_paths: a
 * REC_GRADPATH record a run) as a bar chart, a panel a run: for each
 * source word ‖dL_t/dh_i‖, its direct part and its part through the
 * recurrence (src/fmt_gradsvg.c).  Returns 0, or -1 if tr has no
 * gradient paths (then nothing is written) or on a write error. */
int fmt_svg_gradpaths(FILE *out, const struct trace *tr);

/* The colour of a weight a (clamped to [0, 1]) on the ramp: "#rrggbb"
 * into hex (8 bytes).  0 is almost white, 1 dark blue, and the lightness
 * falls steadily in between (ColorBrewer's sequential Blues). */
void fmt_svg_ramp(double a, char hex[8]);

/* Writes s (UTF-8) as XML character data or an attribute value, & < > "
 * and ' as entities (for other pictures: the self-attention heatmaps). */
void fmt_svg_text(FILE *out, const char *s);

/* Writes s as fmt_svg_text() does, with each subscript set as one: "_"
 * followed by a {braced group} or by a run of letters, digits, commas
 * and '-' not ending in a comma ("h_1", "α_1,2", "h̃_{t-1}"; in "h_2,
 * drawn" the comma is not lowered) becomes a lowered tspan at 75%
 * of the text's size, as the heatmap's α_t,i.  A plain-text copy of the
 * same words belongs in <title>. */
void fmt_svg_math(FILE *out, const char *s);

/* fmt_svg_math() with each subscript between open and close instead of
 * the tspan: "<sub>" and "</sub>" for HTML (src/deck.c). */
void fmt_svg_math_tags(FILE *out, const char *s, const char *open,
		       const char *close);

/* fmt_svg_math() for HTML monospace text whose columns line up (the
 * arithmetic of the deck): each subscript is a <sub> in an inline-block
 * span (class "sb") as wide, in ch, as its typed form with the '_', so
 * that what follows stays in its column. */
void fmt_svg_math_cols(FILE *out, const char *s);

/* Returns 1 when white text reads better than black on the colour of a
 * (WCAG contrast), 0 otherwise. */
int fmt_svg_dark(double a);

#endif
