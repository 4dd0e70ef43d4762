/* pgm.h: the reader of Netpbm grayscale images (PGM), plain (P2) and
 * binary (P5), for attention over an image (issue 29).
 *
 * An image is small by design, so that every pixel fits on a screen: at
 * most PGM_MAX_SIDE pixels a side.  It lives whole in struct pgm_image,
 * with no pointer to free, so a data set is an array of them and a patch
 * encoder reads pix[] by row and column (pgm_at()).
 *
 * The reader follows the Netpbm PGM specification (pgm(5)), with these
 * choices:
 * - whitespace is a blank, a tab, a CR or an LF; a comment runs from '#'
 *   through the next CR or LF and ends a token as whitespace does; it may
 *   stand anywhere in the header and, in a plain (P2) file, between the
 *   pixels too, as libnetpbm reads them;
 * - maxval is 1 to 65535; from 256 on, a P5 pixel is two bytes, the most
 *   significant first (16-bit PGM, as GIMP and ImageMagick write it);
 * - in a P5 file, comments may follow the maxval, each through its end of
 *   line, and then exactly one whitespace character comes before the
 *   pixels;
 * - one image a file: a P5 file ends with its last pixel, a P2 file with
 *   its last value and any whitespace or comments after it.  (The
 *   specification allows several images in a row; attn-trace refuses the
 *   bytes after the first, saying so.)
 *
 * Errors name the place: "FILE:LINE:COLUMN: expected ..., found ..." in
 * the header and in a P2 file's values (lines end at LF, CR LF or a lone
 * CR; columns count bytes from 1), and "FILE: byte N: expected ...,
 * found ..." in a P5 file's binary pixels (N counts the file's bytes
 * from 1).  The reader never prints and keeps no state. */
#ifndef ATTN_PGM_H
#define ATTN_PGM_H

#include <stddef.h>

#include "util.h"

/* The largest image: 32 pixels a side (the shipped ones are 6×6). */
#define PGM_MAX_SIDE 32
#define PGM_MAX_PIXELS (PGM_MAX_SIDE * PGM_MAX_SIDE)
/* The largest file read: a 32×32 P2 file with maxval 65535 and one
 * pixel a line is about 6 KiB; the rest is room for comments. */
#define PGM_MAX_BYTES (256 * 1024)
/* The largest maxval of the format. */
#define PGM_MAX_MAXVAL 65535

/* The two encodings of the pixels. */
enum pgm_kind { PGM_PLAIN, /* P2: decimal numbers in text */
		PGM_RAW    /* P5: binary, one or two bytes a pixel */ };

/* A grayscale image.  0 is black, maxval white. */
struct pgm_image {
	int width;            /* columns, 1 .. PGM_MAX_SIDE */
	int height;           /* rows, 1 .. PGM_MAX_SIDE */
	int maxval;           /* 1 .. PGM_MAX_MAXVAL, as the file says */
	enum pgm_kind kind;   /* how the file held the pixels */
	unsigned short raw[PGM_MAX_PIXELS]; /* (height, width) row-major:
				 the file's values, 0 .. maxval */
	double pix[PGM_MAX_PIXELS]; /* (height, width) row-major: raw /
				 maxval, in [0, 1]; 0 black, 1 white */
};

/* Pixel (row, col) of im, in [0, 1]: rows from the top, columns from the
 * left, both from 0.  The caller keeps them in range. */
static inline double pgm_at(const struct pgm_image *im, int row, int col)
{
	return im->pix[row * im->width + col];
}

/* Reads the PGM image in buf[0 .. len) into *im; name is the file's name
 * for the messages.  Returns 0, or -1 with err set to one line that
 * starts with name (see above); on error *im is all zero. */
int pgm_parse(struct pgm_image *im, const unsigned char *buf, size_t len,
	      const char *name, struct errbuf *err);

/* Reads the PGM file path ("-": standard input; NAME.gz: gzip) into *im,
 * as pgm_parse().  A file larger than PGM_MAX_BYTES, or one that cannot
 * be read, is refused.  Returns 0, or -1 with err set. */
int pgm_load(struct pgm_image *im, const char *path, struct errbuf *err);

/* The name of a kind: "P2" or "P5". */
const char *pgm_kind_name(enum pgm_kind kind);

#endif
