/* image_fmt.h: a PGM image (pgm.h) drawn for people: as shaded blocks
 * in the terminal (image_fmt.c) and as SVG pixels (image_svg.c).  Like
 * every formatter they draw what the reader read and compute nothing but
 * the layout; the same image always gives the same bytes, and numbers
 * are written with '.' whatever the locale. */
#ifndef ATTN_IMAGE_FMT_H
#define ATTN_IMAGE_FMT_H

#include <stdio.h>

#include "pgm.h"

/* The shades of the blocks: each pixel is drawn at the nearest quarter
 * of white, level 0 (black, 0) to IMAGE_LEVELS - 1 (white, the maxval). */
#define IMAGE_LEVELS 5

/* The level (0 .. IMAGE_LEVELS - 1) of a raw value of an image of that
 * maxval: raw / maxval · 4 rounded, a half up, in whole numbers. */
int image_level(int raw, int maxval);

/* The block of a level (0 .. IMAGE_LEVELS - 1), two columns wide: UTF-8
 * shades, or with ascii '.', ':', '+' and '#'. */
const char *image_shade(int level, int ascii);

/* Writes im to out as text: a heading that names it (name, its bytes
 * that could drive a terminal shown as \xNN), the pixels as blocks two
 * columns wide in a frame, with row and column numbers from 1, and a
 * legend of the shades; with values, the table of the pixels' values in
 * [0, 1] too.  ascii: '.', ':', '+' and '#' and a frame of '+', '-' and
 * '|' instead of the UTF-8 shades ░ ▒ ▓ █ and box drawing.  Returns 0,
 * or -1 if the stream reports a write error. */
int image_fmt_text(FILE *out, const struct pgm_image *im, const char *name,
		   int ascii, int values);

/* Writes im to out as a standalone SVG document: a title that names it,
 * a square of the pixel's gray for each pixel with its value written in
 * it when the squares are large enough (at most 9 a side), row and column
 * numbers, and a legend of the values 0 to 1.  Legible 1920 px wide (no
 * text under 20 px then).  Returns 0, or -1 on a write error. */
int image_fmt_svg(FILE *out, const struct pgm_image *im, const char *name);

/* The pixels of im as SVG squares of side cell from (left, top), each
 * with its value (2 digits, 22 px) in it when cell is 60 or more. */
void image_svg_pixels(FILE *out, const struct pgm_image *im, int left,
		      int top, int cell);

#endif
