/* imageset.h: the reader of a set of toy images with their classes,
 * captions and object boxes, the ".captions" files of data/images/
 * (data/README.md), for attention over an image (issue 29).
 *
 * One image a line:
 *
 *     FILE ||| CLASS ||| CAPTION ||| ROW COL HEIGHT WIDTH
 *
 * - FILE is a PGM image (pgm.h), named relative to the directory of the
 *   .captions file: a relative path without "." or ".." components, so
 *   that a captions file reads only images beside it or under it;
 * - CLASS is one word, the image's class (dot, bar, box in the shipped
 *   set; any word of at most IMAGESET_MAX_WORD bytes here);
 * - CAPTION is 1 .. IMAGESET_MAX_CAPTION words;
 * - the box is the object's bounding box in pixels: its top row and left
 *   column from 0, its height and width from 1; it lies inside the image.
 *
 * '#' starts a comment to the end of the line; blank and comment lines
 * are skipped; words are separated by blanks and tabs; a line ends with
 * LF or CR LF.  Errors name the place, "FILE:LINE:COLUMN: expected ...",
 * columns counting bytes from 1, and for an image its own reader's
 * message (pgm.h).  The reader never prints and keeps no state. */
#ifndef ATTN_IMAGESET_H
#define ATTN_IMAGESET_H

#include <stddef.h>

#include "pgm.h"
#include "util.h"

/* The most images a set, the bytes of a class or caption word, and the
 * words of a caption. */
#define IMAGESET_MAX 4096
#define IMAGESET_MAX_WORD 63
#define IMAGESET_MAX_CAPTION 16
/* The largest .captions file. */
#define IMAGESET_MAX_BYTES (1024 * 1024)

/* One image of a set. */
struct imageset_item {
	char file[256];     /* FILE as written on the line */
	char cls[IMAGESET_MAX_WORD + 1];  /* CLASS */
	int ncaption;       /* the caption's words, 1 .. IMAGESET_MAX_CAPTION */
	char caption[IMAGESET_MAX_CAPTION][IMAGESET_MAX_WORD + 1];
	int box_row, box_col;        /* the box's top left pixel, from 0 */
	int box_height, box_width;   /* its size in pixels, from 1 */
	int line;           /* the line of the .captions file, from 1 */
	struct pgm_image image;      /* the image, read */
};

/* A set: n images in the order of the file. */
struct imageset {
	int n;
	struct imageset_item *item;  /* n of them; NULL when n is 0 */
};

/* Reads the .captions file path ("NAME.gz": gzip) and every image it
 * names into *set.  Returns 0, or -1 with err set to one line naming the
 * place; on error *set is empty and nothing is left to free. */
int imageset_load(struct imageset *set, const char *path, struct errbuf *err);

/* What imageset_load() does with the file's bytes buf[0 .. len) once
 * read (any bytes: a control character is refused): name is the file's name for the messages and
 * dir the directory its images are named relative to, "" or ending in
 * '/'.  The caller frees *set with imageset_free() on success; on error
 * set->item may hold the lines read so far, freed the same way. */
int imageset_parse(struct imageset *set, const char *buf, size_t len,
		   const char *name, const char *dir, struct errbuf *err);

/* Frees what imageset_load() read; *set is empty after. */
void imageset_free(struct imageset *set);

/* Whether pixel (row, col) lies inside the object box of it. */
int imageset_in_box(const struct imageset_item *it, int row, int col);

/* The share of the pixels of the rectangle (row, col, height, width)
 * that lie inside the box of it, in [0, 1]: for a cell of a grid, how much of
 * the cell the object covers. */
double imageset_box_overlap(const struct imageset_item *it, int row, int col,
			    int height, int width);

#endif
