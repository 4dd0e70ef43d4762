/* caption_fmt.c: a caption trace (caption.h) as each word beside the
 * image with its weights over the cells, in shaded blocks (image_fmt.h).
 * Like every formatter it draws the recorded numbers and computes only
 * the layout. */
#include "config.h"

#include <stdio.h>

#include "caption.h"
#include "image_fmt.h"
#include "num.h"

/* The level of a weight in [0, 1], to the nearest quarter. */
static int caption_weight_level(double a)
{
	return image_level((int)(a * 10000.0 + 0.5), 10000);
}

/* Pixel row y of step t: the image's row, then the weights of its
 * cells' row, then (on the first row of a cell) their numbers. */
static void caption_fmt_row(FILE *out, const struct pgm_image *im,
			    const double *a, int y, int ascii)
{
	fputs("  ", out);
	for (int x = 0; x < CAPTION_SIDE; x++)
		fputs(image_shade_of(image_level(im->raw[y * im->width + x],
						 im->maxval), ascii), out);
	fputs("   ", out);
	for (int x = 0; x < CAPTION_SIDE; x++)
		fputs(image_shade_of(caption_weight_level(a[(y / CAPTION_PATCH)
			* CAPTION_GRID + x / CAPTION_PATCH]), ascii), out);
	for (int c = 0; y % CAPTION_PATCH == 0 && c < CAPTION_GRID; c++) {
		char buf[NUM_BUFSZ];
		fprintf(out, "  %s", num_fixed(buf, a[(y / CAPTION_PATCH) *
						     CAPTION_GRID + c], 2));
	}
	fputc('\n', out);
}

int caption_fmt_weights(FILE *out, const struct trace *tr, int ascii)
{
	const struct pgm_image *im = tr->input;
	for (int run = 0; run < tr->nruns; run++) {
		const struct trace_run *ru = &tr->runs[run];
		fprintf(out, "%s%s scorer: each word, the image, and each "
			"pixel shaded by its cell's weight\n", run ? "\n" : "",
			trace_scorer_name(ru->scorer));
		for (int t = 1; t <= ru->nsteps; t++) {
			const double *a = trace_weights(tr, run, t);
			int w = tr->ntgt ? (t <= tr->ntgt ? tr->tgt[t - 1]
					    : tr->m->eos) : ru->pred[t - 1];
			fprintf(out, "\nt=%d: %s  (the image; α_%d over its "
				"cells)\n", t, tr->m->tgt.words[w], t);
			for (int y = 0; y < CAPTION_SIDE; y++)
				caption_fmt_row(out, im, a, y, ascii);
		}
	}
	return ferror(out) ? -1 : 0;
}
