/* raster.h: a picture that attn-trace draws as SVG, turned into a PNG
 * image for slide software: librsvg rasterises the SVG the program
 * already writes (one drawing path; doc/architecture.md says why) onto a
 * cairo image surface, which cairo writes as PNG.  Built only when
 * ./configure finds librsvg (--with-png, HAVE_PNG); without it
 * raster_available() is 0 and raster_png() fails with the configure
 * option to use.  No function prints, and none keeps state. */
#ifndef ATTN_RASTER_H
#define ATTN_RASTER_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

/* The default box: a full-HD slide, which the picture is scaled to fit. */
#define RASTER_BOX_W 1920
#define RASTER_BOX_H 1080
/* The smallest and largest side of a box, and of an image, in pixels. */
#define RASTER_MIN 16
#define RASTER_MAX 8192

/* The box the PNG is scaled to fit, keeping the picture's shape: the
 * largest image whose width is at most w and height at most h (h 0: any
 * height, the image w pixels wide). */
struct raster_size {
	int w, h;
};

/* Whether this build can write PNG: 1 or 0. */
int raster_available(void);

/* Whether path names a PNG file: it ends in ".png", in any case. */
int raster_name(const char *path);

/* Checks the name of an output file, path (NULL or "-": standard output),
 * for what is written into it: picture 1 for an SVG picture, which a
 * ".png" name turns into PNG; 0 for anything else.  Refuses, with err
 * set: a ".png" name for what is not a picture, or in a build without
 * PNG; ".png.gz"; and for a picture, the names of image formats that
 * attn-trace does not write (".jpg", ".pdf" ...).  Returns 0 or -1. */
int raster_check_name(const char *path, int picture, struct errbuf *err);

/* Parses --png-size's value "W" or "WxH" (each RASTER_MIN to RASTER_MAX)
 * into *s.  Returns 0, or -1 with err set. */
int raster_size_parse(const char *arg, struct raster_size *s,
		      struct errbuf *err);

/* The size of the image that a picture of w by h (CSS pixels, w, h > 0)
 * takes in box: *pw by *ph, each at least 1.  Returns 0, or -1 if a side
 * would be over RASTER_MAX. */
int raster_fit(double w, double h, const struct raster_size *box, int *pw,
	       int *ph);

/* Rasterises the SVG document svg[0 .. len), fitted to box
 * (raster_fit()) on a white background, and writes it to out as PNG: the
 * same bytes for the same SVG, box and fonts.  Returns 0, or -1 with err
 * set to the reason (the SVG is not one librsvg reads, it has no size, the
 * image would be too large, a write failed: then errno is kept in
 * *write_errno, else 0 there; or no PNG in this build). */
int raster_png(FILE *out, const char *svg, size_t len,
	       const struct raster_size *box, int *write_errno,
	       struct errbuf *err);

#endif
