/* image_svg.c: a PGM image as SVG pixels (see image_fmt.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fmt_svg.h"
#include "i18n.h"
#include "image_fmt.h"
#include "num.h"
#include "utf8.h"

#define SVG_MARGIN 30
#define SVG_FS_TITLE 28
#define SVG_FS 22          /* labels, values and the legend */
#define SVG_LINE 34        /* from one line of text to the next */
#define SVG_LABEL_W 44     /* the row numbers' column */
#define SVG_VALUES_MIN 60  /* the smallest cell that holds its value */
#define SVG_SWATCH 36
#define SVG_TEXT "#222222"
#define SVG_MUTED "#555555"
#define SVG_GRID "#888888"

/* Where everything goes. */
struct image_lay {
	int cell;           /* a pixel's side */
	int left, top;      /* the image's top left corner */
	int legend_x;       /* the legend's left */
	int width, height;  /* of the picture */
};

static int image_max(int a, int b)
{
	return a > b ? a : b;
}

/* The layout of im, whose title is title_len characters long. */
static void image_layout(struct image_lay *L, const struct pgm_image *im,
			 int title_len)
{
	int side = image_max(im->width, im->height);
	L->cell = 480 / side;
	if (L->cell > 96)
		L->cell = 96;
	if (L->cell < 24)
		L->cell = 24;
	L->left = SVG_MARGIN + SVG_LABEL_W;
	L->top = SVG_MARGIN + SVG_FS_TITLE + 2 * SVG_LINE + 10;
	L->legend_x = L->left + im->width * L->cell + 50;
	L->width = L->legend_x + SVG_SWATCH + 90 + SVG_MARGIN;
	/* a title at about 0.6 em a character */
	L->width = image_max(L->width, 2 * SVG_MARGIN + title_len *
			     SVG_FS_TITLE * 6 / 10);
	int legend_bottom = L->top + SVG_LINE + IMAGE_LEVELS * (SVG_SWATCH + 8);
	L->height = image_max(L->top + im->height * L->cell, legend_bottom) +
		    SVG_MARGIN;
}

/* The gray of a value in [0, 1]: "#rrggbb" into hex (8 bytes). */
static void image_gray(double v, char hex[8])
{
	int g = (int)(v * 255 + 0.5);
	snprintf(hex, 8, "#%02x%02x%02x", g, g, g);
}

/* The title and the line under it. */
static void image_svg_heading(FILE *out, const struct pgm_image *im,
			      const char *safe)
{
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"%d\" font-size=\"%d\" "
		"font-weight=\"bold\" fill=\"%s\">", SVG_MARGIN,
		SVG_MARGIN + SVG_FS_TITLE, SVG_FS_TITLE, SVG_TEXT);
	fmt_svg_text(out, safe);
	fprintf(out, _(": %d×%d pixels"), im->width, im->height);
	fprintf(out, "</text>\n<text class=\"subtitle\" x=\"%d\" y=\"%d\" "
		"font-size=\"%d\" fill=\"%s\">", SVG_MARGIN,
		SVG_MARGIN + SVG_FS_TITLE + SVG_LINE, SVG_FS, SVG_MUTED);
	fprintf(out, _("value = the file's number / maxval %d (%s): 0 black, "
		       "1 white"), im->maxval, pgm_kind_name(im->kind));
	fputs("</text>\n", out);
}

/* The row and column numbers, from 1; with small cells, the columns 1,
 * 5, 10, ... only. */
static void image_svg_labels(FILE *out, const struct pgm_image *im,
			     const struct image_lay *L)
{
	int step = L->cell >= 40 ? 1 : 5;
	fprintf(out, "<g class=\"labels\" font-size=\"%d\" fill=\"%s\" "
		"text-anchor=\"middle\">\n", SVG_FS, SVG_MUTED);
	for (int c = 0; c < im->width; c++)
		if (step == 1 || c == 0 || (c + 1) % step == 0)
			fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text>\n",
				L->left + c * L->cell + L->cell / 2, L->top - 10,
				c + 1);
	for (int r = 0; r < im->height; r++)
		if (step == 1 || r == 0 || (r + 1) % step == 0)
			fprintf(out, "<text x=\"%d\" y=\"%d\">%d</text>\n",
				L->left - SVG_LABEL_W / 2,
				L->top + r * L->cell + L->cell / 2 + SVG_FS / 3,
				r + 1);
	fputs("</g>\n", out);
}

void image_svg_pixels(FILE *out, const struct pgm_image *im, int left,
		      int top, int cell)
{
	char hex[8], num[NUM_BUFSZ];
	int values = cell >= SVG_VALUES_MIN;
	fprintf(out, "<g class=\"pixels\" stroke=\"%s\" stroke-width=\"1\" "
		"font-size=\"%d\" text-anchor=\"middle\">\n", SVG_GRID, SVG_FS);
	for (int r = 0; r < im->height; r++)
		for (int c = 0; c < im->width; c++) {
			double v = pgm_at(im, r, c);
			int x = left + c * cell, y = top + r * cell;
			image_gray(v, hex);
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
				"height=\"%d\" fill=\"%s\"/>\n", x, y, cell,
				cell, hex);
			if (values)
				fprintf(out, "<text x=\"%d\" y=\"%d\" "
					"stroke=\"none\" fill=\"%s\">%s</text>\n",
					x + cell / 2, y + cell / 2 + SVG_FS / 3,
					v >= 0.5 ? "#000000" : "#ffffff",
					num_fixed(num, v, 2));
		}
	fputs("</g>\n", out);
}

/* The legend: a swatch of each quarter, 0 to 1, with its value. */
static void image_svg_legend(FILE *out, const struct image_lay *L)
{
	static const char *const quarter[IMAGE_LEVELS] = {
		"0", "0.25", "0.5", "0.75", "1"
	};
	char hex[8];
	int y = L->top;
	fprintf(out, "<g class=\"legend\" font-size=\"%d\" fill=\"%s\">\n"
		"<text x=\"%d\" y=\"%d\">%s</text>\n", SVG_FS, SVG_TEXT,
		L->legend_x, y + SVG_FS, _("value"));
	y += SVG_LINE;
	for (int k = 0; k < IMAGE_LEVELS; k++, y += SVG_SWATCH + 8) {
		image_gray(k / (double)(IMAGE_LEVELS - 1), hex);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"%s\" stroke=\"%s\"/>\n<text x=\"%d\" y=\"%d\">"
			"%s</text>\n", L->legend_x, y, SVG_SWATCH, SVG_SWATCH,
			hex, SVG_GRID, L->legend_x + SVG_SWATCH + 12,
			y + SVG_SWATCH / 2 + SVG_FS / 3, quarter[k]);
	}
	fputs("</g>\n", out);
}

int image_fmt_svg(FILE *out, const struct pgm_image *im, const char *name)
{
	struct image_lay L;
	char *safe = utf8_safe(name);
	image_layout(&L, im, (int)utf8_width(safe) + 16);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\">\n<title>", L.width, L.height, L.width,
		L.height, FMT_SVG_FONTS);
	fmt_svg_text(out, safe);
	fputs("</title>\n<desc>", out);
	fmt_svg_text(out, _("A PGM image drawn by attn-trace: a square of its "
			    "gray for each pixel."));
	fprintf(out, "</desc>\n<rect class=\"background\" x=\"0\" y=\"0\" "
		"width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", L.width,
		L.height);
	image_svg_heading(out, im, safe);
	free(safe);
	image_svg_labels(out, im, &L);
	image_svg_pixels(out, im, L.left, L.top, L.cell);
	image_svg_legend(out, &L);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
