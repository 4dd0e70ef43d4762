/* fuzz_pgm.c: libFuzzer harness for the PGM image reader (src/pgm.h).
 *
 * The input is a PGM file.  When pgm_parse() accepts it, the image must
 * keep the reader's contract: a width and a height from 1 to
 * PGM_MAX_SIDE, a maxval from 1 to 65535, every raw value at most the
 * maxval and every pixel that value divided by the maxval, in [0, 1];
 * then the image is drawn as blocks (UTF-8 and ASCII, with and without
 * the values) and as SVG into /dev/null.  When it refuses the input, the
 * image must be all zero and the message one line that starts with the
 * file's name ("fuzz:LINE:COL: expected" or "fuzz: byte N: expected").
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_fmt.h"
#include "pgm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (sink == NULL)
		sink = fopen("/dev/null", "w");
	if (sink == NULL)
		abort();
	return sink;
}

/* The contract of an image that parsed. */
static void fuzz_check_image(const struct pgm_image *im)
{
	if (im->width < 1 || im->width > PGM_MAX_SIDE || im->height < 1 ||
	    im->height > PGM_MAX_SIDE || im->maxval < 1 ||
	    im->maxval > PGM_MAX_MAXVAL ||
	    (im->kind != PGM_PLAIN && im->kind != PGM_RAW))
		abort();
	for (int k = 0; k < im->width * im->height; k++) {
		double want = (double)im->raw[k] / (double)im->maxval;
		if (im->raw[k] > im->maxval || im->pix[k] != want ||
		    !(im->pix[k] >= 0 && im->pix[k] <= 1))
			abort();
	}
}

/* The contract of a refusal: a zero image, one line, the file's name. */
static void fuzz_check_error(const struct pgm_image *im, const char *msg)
{
	static const struct pgm_image zero;
	if (memcmp(im, &zero, sizeof *im) != 0 ||
	    strchr(msg, '\n') != NULL || strncmp(msg, "fuzz:", 5) != 0 ||
	    strstr(msg, ": expected ") == NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pgm_image im;
	struct errbuf err;

	if (pgm_parse(&im, data, size, "fuzz", &err) != 0) {
		fuzz_check_error(&im, err.msg);
		return 0;
	}
	fuzz_check_image(&im);
	for (int style = 0; style < 4; style++)
		image_fmt_text(fuzz_sink(), &im, "fuzz", style & 1,
			       style >> 1);
	image_fmt_svg(fuzz_sink(), &im, "fuzz");
	return 0;
}
