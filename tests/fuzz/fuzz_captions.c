/* fuzz_captions.c: libFuzzer harness for the reader of ".captions" files
 * (src/imageset.h), the image sets that caption --captions and glimpse
 * --train and --measure read.
 *
 * The input is a .captions file whose images are named relative to the
 * shipped data/images/ (FUZZ_IMAGES, set by tests/fuzz/run), so that a
 * line can name a real image (train/bar-x0.pgm), a missing one, or a
 * path the reader must refuse (../x.pgm, /etc/passwd).  Only files under
 * that directory are ever opened: the reader's contract, checked here.
 *
 * A set that parses must hold 1 .. IMAGESET_MAX images, each with a
 * relative path free of "." and ".." components, a class of 1 .. 63
 * bytes, 1 .. IMAGESET_MAX_CAPTION caption words, a box inside its image,
 * a valid image, and lines that increase; imageset_box_overlap of each
 * cell of its grid lies in [0, 1].  A refusal must leave one line that
 * starts with "fuzz:" (or the image's own path, for a PGM the reader
 * refused) and says what was expected.
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imageset.h"

#ifndef FUZZ_IMAGES
#error "tests/fuzz/run defines FUZZ_IMAGES, data/images/ with its '/'"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether file is relative, with no "", "." or ".." component. */
static int fuzz_path_ok(const char *file)
{
	if (file[0] == '\0' || file[0] == '/')
		return 0;
	for (const char *p = file; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
		if (*p == '/')
			p++;
	}
	return 1;
}

static void fuzz_check_item(const struct imageset_item *it, int prev_line)
{
	const struct pgm_image *im = &it->image;
	size_t cls = strlen(it->cls);
	if (!fuzz_path_ok(it->file) || cls < 1 || cls > IMAGESET_MAX_WORD ||
	    it->ncaption < 1 || it->ncaption > IMAGESET_MAX_CAPTION ||
	    it->line <= prev_line || im->width < 1 || im->height < 1 ||
	    im->width > PGM_MAX_SIDE || im->height > PGM_MAX_SIDE ||
	    it->box_row < 0 || it->box_col < 0 || it->box_height < 1 ||
	    it->box_width < 1 ||
	    it->box_row + it->box_height > im->height ||
	    it->box_col + it->box_width > im->width)
		abort();
	for (int w = 0; w < it->ncaption; w++)
		if (it->caption[w][0] == '\0' || strchr(it->caption[w], ' '))
			abort();
	for (int r = 0; r + 2 <= im->height; r += 2)
		for (int c = 0; c + 2 <= im->width; c += 2) {
			double o = imageset_box_overlap(it, r, c, 2, 2);
			if (!(o >= 0 && o <= 1))
				abort();
		}
}

static void fuzz_check_error(const char *msg)
{
	if (strchr(msg, '\n') != NULL || strstr(msg, "expected") == NULL ||
	    (strncmp(msg, "fuzz:", 5) != 0 &&
	     strncmp(msg, FUZZ_IMAGES, strlen(FUZZ_IMAGES)) != 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct imageset set = { 0, NULL };
	struct errbuf err;
	if (imageset_parse(&set, (const char *)data, size, "fuzz",
			   FUZZ_IMAGES, &err) != 0) {
		fuzz_check_error(err.msg);
		imageset_free(&set);
		return 0;
	}
	if (set.n < 1 || set.n > IMAGESET_MAX)
		abort();
	for (int k = 0; k < set.n; k++)
		fuzz_check_item(&set.item[k], k ? set.item[k - 1].line : 0);
	imageset_free(&set);
	return 0;
}
