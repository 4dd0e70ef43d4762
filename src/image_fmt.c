/* image_fmt.c: a PGM image as shaded blocks in the terminal (see
 * image_fmt.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "image_fmt.h"
#include "num.h"
#include "utf8.h"

/* The blocks of each level, and the frame, in UTF-8 and in ASCII; a
 * pixel is two columns wide, so that it is about square. */
static const char *const image_shade_str[2][IMAGE_LEVELS] = {
	{ "  ", "░░", "▒▒", "▓▓", "██" },
	{ "  ", "..", "::", "++", "##" },
};
/* top left, top right, bottom left, bottom right, across, down */
static const char *const image_frame[2][6] = {
	{ "┌", "┐", "└", "┘", "─", "│" },
	{ "+", "+", "+", "+", "-", "|" },
};
/* the quarters of the legend */
static const char *const image_quarter[IMAGE_LEVELS] = {
	"0", "0.25", "0.5", "0.75", "1"
};

const char *image_shade(int level, int ascii)
{
	return image_shade_str[ascii != 0][level];
}

int image_level(int raw, int maxval)
{
	return (raw * 2 * (IMAGE_LEVELS - 1) + maxval) / (2 * maxval);
}

/* A line of the frame: left, width pixels of across, right. */
static void image_rule(FILE *out, const char *const *fr, int width,
		       const char *left, const char *right)
{
	fprintf(out, "   %s", left);
	for (int c = 0; c < 2 * width; c++)
		fputs(fr[4], out);
	fprintf(out, "%s\n", right);
}

/* The column numbers, each over its pixel, cell columns wide; in cells
 * of 2, past 9 columns, only 1, 5, 10, ... (two digits would meet). */
static void image_columns(FILE *out, int width, int cell)
{
	int sparse = cell == 2 && width > 9;
	fprintf(out, "%*s", cell == 2 ? 4 : 3, "");
	for (int c = 0; c < width; c++)
		if (!sparse || c == 0 || (c + 1) % 5 == 0)
			fprintf(out, "%*d", cell, c + 1);
		else
			fprintf(out, "%*s", cell, "");
	fputc('\n', out);
}

/* The blocks in their frame, and the legend. */
static void image_blocks(FILE *out, const struct pgm_image *im, int ascii)
{
	const char *const *fr = image_frame[ascii];
	image_columns(out, im->width, 2);
	image_rule(out, fr, im->width, fr[0], fr[1]);
	for (int r = 0; r < im->height; r++) {
		fprintf(out, "%2d %s", r + 1, fr[5]);
		for (int c = 0; c < im->width; c++)
			fputs(image_shade_str[ascii][image_level(
				im->raw[r * im->width + c], im->maxval)], out);
		fprintf(out, "%s\n", fr[5]);
	}
	image_rule(out, fr, im->width, fr[2], fr[3]);
	fputs(_("each pixel shaded to the nearest quarter, 0 black to 1 "
		"white (the maxval):\n "), out);
	for (int k = 0; k < IMAGE_LEVELS; k++)
		fprintf(out, "  \"%s\" %s", image_shade_str[ascii][k],
			image_quarter[k]);
	fputc('\n', out);
}

/* The table of values, 2 digits after the point. */
static void image_values(FILE *out, const struct pgm_image *im)
{
	char num[NUM_BUFSZ];
	fprintf(out, _("\nvalues (the file's numbers / maxval %d):\n"),
		im->maxval);
	image_columns(out, im->width, 5);
	for (int r = 0; r < im->height; r++) {
		fprintf(out, "%2d ", r + 1);
		for (int c = 0; c < im->width; c++)
			fprintf(out, "%5s", num_fixed(num, pgm_at(im, r, c),
							 2));
		fputc('\n', out);
	}
}

int image_fmt_text(FILE *out, const struct pgm_image *im, const char *name,
		   int ascii, int values)
{
	char *safe = utf8_safe(name);
	ascii = ascii != 0;
	fprintf(out, "%s: %d%s%d pixels, %s, maxval %d\n", safe, im->width,
		ascii ? "x" : "×", im->height, pgm_kind_name(im->kind),
		im->maxval);
	free(safe);
	image_blocks(out, im, ascii);
	if (values)
		image_values(out, im);
	return ferror(out) ? -1 : 0;
}
