/* glimpse_svg.c: a glimpse trace as SVG: the image's pixels, each
 * glimpse's fovea and periphery, the path from one to the next, and the
 * class (glimpse_fmt.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fmt_svg.h"
#include "i18n.h"
#include "glimpse_fmt.h"
#include "image_fmt.h"
#include "num.h"
#include "utf8.h"

#define GS_MARGIN 30
#define GS_FS_TITLE 28
#define GS_FS 22
#define GS_LINE 34
#define GS_CELL 64        /* a pixel's side */
#define GS_TEXT "#222222"
#define GS_MUTED "#555555"

/* a colour a glimpse, from a palette that reads in gray too */
static const char *const gs_colour[GLIMPSE_MAX_STEPS] = {
	"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
	"#e377c2", "#17becf"
};

/* Where the image goes: two pixels of room around it, so that a
 * periphery at the edge shows whole. */
struct gs_lay {
	int left, top;     /* the image's top left */
	int text_x;        /* the legend's left */
	int width, height;
};

static void gs_layout(struct gs_lay *L, const struct pgm_image *im,
		      const struct glimpse_model *m)
{
	L->left = GS_MARGIN + 2 * GS_CELL;
	L->top = GS_MARGIN + GS_FS_TITLE + 2 * GS_LINE + 2 * GS_CELL;
	L->text_x = L->left + (im->width + 2) * GS_CELL + 40;
	L->width = L->text_x + 760;
	int img_bottom = L->top + (im->height + 2) * GS_CELL;
	int text_bottom = L->top - 2 * GS_CELL +
			  (3 + m->steps + m->nclass) * GS_LINE;
	L->height = (img_bottom > text_bottom ? img_bottom : text_bottom) +
		    GS_MARGIN;
}

/* The x or y of lattice corner k from origin o. */
static int gs_at(int o, int k)
{
	return o + k * GS_CELL;
}

/* Glimpse t's periphery (dashed) and fovea (solid) boxes, on the
 * lattice lines between the pixels: a pixel's number ("0.00" at 22 px,
 * about 49 px wide) leaves (64 - 49) / 2 = 7 px clear each side of its
 * cell's edges, and the strokes (3 and 5 px, centred on the line) stay in
 * that band, so no frame crosses a number.  Peripheries that share a
 * line are told apart by their dashes' phase, not by an inset. */
static void gs_boxes(FILE *out, const struct gs_lay *L,
		     const struct glimpse_step *s, int t)
{
	fprintf(out, "<g class=\"glimpse\" fill=\"none\" stroke=\"%s\">\n"
		"<rect class=\"periphery\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" stroke-width=\"3\" stroke-dasharray=\"10 6\" "
		"stroke-dashoffset=\"%d\"/>\n"
		"<rect class=\"fovea\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" stroke-width=\"5\"/>\n</g>\n", gs_colour[t],
		gs_at(L->left, s->col - 2), gs_at(L->top, s->row - 2),
		4 * GS_CELL, 4 * GS_CELL, 5 * t % 16,
		gs_at(L->left, s->col - 1), gs_at(L->top, s->row - 1),
		2 * GS_CELL, 2 * GS_CELL);
}

/* The cell of the two-pixel margin round the image (cx, cy, in pixels
 * from the image's top left) nearest to glimpse t's corner and not taken
 * by an earlier glimpse: its number goes in a disc in that cell's middle.
 * Frames run on the lattice lines and the margin holds no pixel's number,
 * so a number there crosses no frame and meets no text (a number on the
 * corner itself sat on the lines of the other glimpses' frames).  The
 * margin has at least 20 cells, more than GLIMPSE_MAX_STEPS. */
static void gs_badge_cell(const struct pgm_image *im,
			  const struct glimpse_trace *tr, int t,
			  int *cx, int *cy)
{
	long best = -1;
	for (int y = -2; y < im->height + 2; y++)
		for (int x = -2; x < im->width + 2; x++) {
			int taken = 0, bx, by;
			if (x >= 0 && x < im->width && y >= 0 && y < im->height)
				continue;
			for (int u = 0; u < t; u++) {
				gs_badge_cell(im, tr, u, &bx, &by);
				taken |= bx == x && by == y;
			}
			/* in half pixels: the cell's middle from the corner */
			long dx = 2 * x + 1 - 2 * tr->st[t].col;
			long dy = 2 * y + 1 - 2 * tr->st[t].row;
			if (!taken && (best < 0 || dx * dx + dy * dy < best)) {
				best = dx * dx + dy * dy;
				*cx = x;
				*cy = y;
			}
		}
}

/* The path: a line from each glimpse's corner to the next, a dot on
 * each corner, and a thin line from the dot to the glimpse's number in
 * the margin (gs_badge_cell). */
static void gs_path(FILE *out, const struct gs_lay *L,
		    const struct pgm_image *im,
		    const struct glimpse_trace *tr)
{
	fputs("<g class=\"path\" stroke=\"#ffbf00\" stroke-width=\"5\" "
	      "fill=\"none\">\n<polyline points=\"", out);
	for (int t = 0; t < tr->steps; t++)
		fprintf(out, "%s%d,%d", t ? " " : "",
			gs_at(L->left, tr->st[t].col),
			gs_at(L->top, tr->st[t].row));
	fputs("\"/>\n</g>\n", out);
	fprintf(out, "<g class=\"corners\" font-size=\"%d\" "
		"font-weight=\"bold\" text-anchor=\"middle\">\n", GS_FS);
	for (int t = 0; t < tr->steps; t++) {
		int x = gs_at(L->left, tr->st[t].col);
		int y = gs_at(L->top, tr->st[t].row), cx, cy;
		gs_badge_cell(im, tr, t, &cx, &cy);
		int bx = gs_at(L->left, cx) + GS_CELL / 2;
		int by = gs_at(L->top, cy) + GS_CELL / 2;
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"2\"/>\n<circle cx=\"%d\" "
			"cy=\"%d\" r=\"8\" fill=\"%s\" stroke=\"#ffffff\" "
			"stroke-width=\"2\"/>\n", x, y, bx, by, gs_colour[t], x,
			y, gs_colour[t]);
		fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"17\" fill=\"%s\" "
			"stroke=\"#ffffff\" stroke-width=\"2\"/>\n<text x=\"%d\" "
			"y=\"%d\" fill=\"#ffffff\">%d</text>\n", bx, by,
			gs_colour[t], bx, by + GS_FS / 3, t + 1);
	}
	fputs("</g>\n", out);
}

/* The legend: each glimpse's place, then p over the classes. */
static void gs_legend(FILE *out, const struct gs_lay *L,
		      const struct glimpse_model *m,
		      const struct glimpse_trace *tr)
{
	char a[NUM_BUFSZ], b[NUM_BUFSZ];
	int y = L->top - 2 * GS_CELL + GS_FS;
	fprintf(out, "<g class=\"legend\" font-size=\"%d\" fill=\"%s\">\n",
		GS_FS, GS_TEXT);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">",
		L->text_x, y);
	fmt_svg_text(out, _("glimpse: place l (row, column), retina corner"));
	fputs("</text>\n", out);
	for (int t = 0; t < tr->steps; t++) {
		const struct glimpse_step *s = &tr->st[t];
		y += GS_LINE;
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"22\" "
			"fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\">", L->text_x,
			y - 18, gs_colour[t], L->text_x + 32, y);
		fprintf(out, _("%d: l = (%s, %s), corner (%d, %d)"), t + 1,
			num_fixed(a, s->l[0], 3), num_fixed(b, s->l[1], 3),
			s->row, s->col);
		fputs("</text>\n", out);
	}
	y += GS_LINE + 10;
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">",
		L->text_x, y);
	fprintf(out, _("class: %s"), m->cls[tr->pred]);
	fputs("</text>\n", out);
	for (int k = 0; k < m->nclass; k++) {
		y += GS_LINE;
		fprintf(out, "<text x=\"%d\" y=\"%d\">ŷ[%s] = %s</text>\n",
			L->text_x, y, m->cls[k], num_fixed(a, tr->p[k], 4));
	}
	fputs("</g>\n", out);
}

int glimpse_fmt_svg(FILE *out, const struct glimpse_model *m,
		    const struct pgm_image *im, const char *name,
		    const struct glimpse_trace *tr)
{
	struct gs_lay L;
	char *safe = utf8_safe(name);
	gs_layout(&L, im, m);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
		"xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\">\n<title>", L.width, L.height,
		L.width, L.height, FMT_SVG_FONTS);
	fmt_svg_text(out, _("glimpses on "));
	fmt_svg_text(out, safe);
	fprintf(out, "</title>\n<rect class=\"background\" x=\"0\" y=\"0\" "
		"width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n<text "
		"class=\"title\" x=\"%d\" y=\"%d\" font-size=\"%d\" "
		"font-weight=\"bold\" fill=\"%s\">", L.width,
		L.height, GS_MARGIN, GS_MARGIN + GS_FS_TITLE, GS_FS_TITLE,
		GS_TEXT);
	fprintf(out, _("%d glimpses on "), m->steps);
	fmt_svg_text(out, safe);
	free(safe);
	fprintf(out, "</text>\n<text class=\"subtitle\" x=\"%d\" y=\"%d\" "
		"font-size=\"%d\" fill=\"%s\">", GS_MARGIN, GS_MARGIN +
		GS_FS_TITLE + GS_LINE, GS_FS, GS_MUTED);
	fmt_svg_text(out, _("solid: the fovea (2×2 pixels); dashed: the "
			    "periphery (4×4, averaged to 2×2); dots: the path, "
			    "numbered in the margin"));
	fputs("</text>\n", out);
	image_svg_pixels(out, im, L.left, L.top, GS_CELL);
	for (int t = 0; t < tr->steps; t++)
		gs_boxes(out, &L, &tr->st[t], t);
	gs_path(out, &L, im, tr);
	gs_legend(out, &L, m, tr);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
