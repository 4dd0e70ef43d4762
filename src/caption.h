/* caption.h: soft attention over an image (Show, Attend and Tell, Xu et
 * al. 2015), toy-sized, as an encoder plug-in (trace.h's struct
 * trace_encoder) in front of Bahdanau's decoder (src/arch_bahdanau.c).
 *
 * A 6×6 image is read as a 3×3 grid of cells of 2×2 pixels, cell i from
 * 1 in reading order (top left, top, top right, left, middle, ...).  The
 * patch encoder turns each cell's pixels into an annotation h_i (H), the
 * state attention reads:
 *
 *   patch_i = [p(2r, 2c), p(2r, 2c+1), p(2r+1, 2c), p(2r+1, 2c+1)]
 *   h_i     = tanh(W_patch·patch_i + b_patch + pos_i) r, c: the cell's row
 *   h̄       = (1/9)·Σ_i h_i                           and column from 0
 *   s_0     = tanh(W_init·h̄)
 *
 * and Bahdanau's step program decodes the caption from them with any
 * scorer: the query s_{t-1}, the softmax over the nine cells, the context,
 * s_t = tanh(W_y·y_{t-1} + U·s_{t-1} + C·c_t + b), ŷ_t.  An image model is
 * a model file of Bahdanau's architecture with the [patch.*] sections
 * (model.h) and the nine cell names as its source words; its word encoder
 * is not used.  doc/model.md has the whole model. */
#ifndef ATTN_CAPTION_H
#define ATTN_CAPTION_H

#include <stdio.h>

#include "imageset.h"
#include "model.h"
#include "pgm.h"
#include "trace.h"
#include "util.h"

#define CAPTION_GRID 3    /* cells a side */
#define CAPTION_CELLS 9   /* CAPTION_GRID² */
#define CAPTION_PATCH 2   /* pixels a side of a cell */
#define CAPTION_SIDE 6    /* pixels a side of an image */

/* The encoder plug-in: its encode records REC_PATCH for each cell and
 * its start REC_INIT; tr->input is the struct pgm_image. */
extern const struct trace_encoder caption_encoder;

/* The source words of an image model, the cells' names in reading order:
 * "top-left", "top", ..., "bottom-right". */
extern const char *const caption_cell_names[CAPTION_CELLS];

/* 0 if m is an image model: Bahdanau's architecture, the [patch.*]
 * sections, and the nine cell names as its source words in that order.
 * Otherwise -1 with err saying what is missing. */
int caption_check_model(const struct model *m, struct errbuf *err);

/* 0 if im is CAPTION_SIDE pixels a side, else -1 with err naming the file
 * name and its size. */
int caption_check_image(const struct pgm_image *im, const char *name,
			struct errbuf *err);

/* x (PATCH_PIXELS) = the pixels of cell (from 0) of im, row-major. */
void caption_patch(const struct pgm_image *im, int cell, double *x);

/* The arithmetic of cell (from 0), for the trace and training alike: wx
 * (H) = W_patch·x, pre (H) = wx + b_patch + P_cell, h (H) = tanh(pre). */
void caption_annotate(const struct model *m, int cell, const double *x,
		      double *wx, double *pre, double *h);

/* s_0 from the n annotations Hs (n, H): mean (H) = h̄, wi (H) =
 * W_init·h̄, s0 (H) = tanh(wi). */
void caption_start_state(const struct model *m, const double *Hs, int n,
			 double *mean, double *wi, double *s0);

/* Traces the caption of im with model m (caption_check_model), as
 * trace_build() does a sentence: with tgt (ntgt target word indices) the
 * decoder is teacher-forced, else greedy; scorers and cfg as there.
 * Returns 0, or -1 with err filled.  im must outlive the trace, which the
 * caller frees with trace_free(). */
int caption_build(struct trace *tr, const struct model *m,
		  const struct pgm_image *im, const int *tgt, int ntgt,
		  unsigned scorers, const struct trace_cfg *cfg,
		  struct errbuf *err);

/* 1 if m is an image model (caption_check_model() passes): every
 * tracing command then reads a PGM path where it reads a sentence. */
int caption_is_model(const struct model *m);

/* The image path of a line of the batch file batch: path itself when it
 * is absolute, or batch is NULL or "-" (standard input), else path
 * relative to batch's directory, as a .captions file names its images.
 * A copy the caller frees. */
char *caption_batch_path(const char *batch, const char *path);

/* Reads the PGM at path (white space around it ignored; "-" standard
 * input), and traces it with image model m as caption_build() does.  The
 * trace owns its copy of the image: trace_free() frees it.  Only the
 * global window applies (an image's cells have no order for local-m,
 * local-p or fixed to centre on).  Returns 0, or -1 with err filled
 * ("FILE:LINE:COL: ..." or "FILE: byte N: ..." for a bad PGM) and
 * nothing to free. */
int caption_trace_file(struct trace *tr, const struct model *m,
		       const char *path, const int *tgt, int ntgt,
		       unsigned scorers, const struct trace_cfg *cfg,
		       struct errbuf *err);

/* The name caption_trace_file() read tr's image by ("-" standard
 * input), or NULL for any other trace.  Owned by the trace. */
const char *caption_image_name(const struct trace *tr);

/* Writes each decoder step of each run of tr (a caption trace) to out:
 * the step's word (the target's under teacher forcing, else the
 * prediction), and six rows of blocks, the image's pixels and beside them
 * each pixel shaded by the weight α_t,i of its cell (to the nearest
 * quarter, 0 black to 1 white), with the cells' weights to 2 decimals.
 * ascii: the ASCII shades (image_fmt.h).  Returns 0, or -1 on a write
 * error.  (src/caption_fmt.c) */
int caption_fmt_weights(FILE *out, const struct trace *tr, int ascii);

/* The six rows of blocks of step t (from 1) of run of tr, as
 * caption_fmt_weights() draws them: the image, its pixels shaded by
 * α_t,i, the cells' weights.  The caller checks that the run has step t. */
void caption_fmt_rows(FILE *out, const struct trace *tr, int run, int t,
		      int ascii);

/* Writes step t (from 1) of run of tr, as caption_fmt_weights does:
 * the line "t=T: WORD ..." and the six rows of blocks
 * (caption_fmt_rows()).  The caller checks that the run has step t. */
void caption_fmt_step(FILE *out, const struct trace *tr, int run, int t,
		      int ascii);

/* Draws step t of run of tr (a caption trace) into an SVG document: the
 * image's pixels, pix px each, from (x, y), under its cells (rects of
 * class "image-cell") coloured by α_t,i (the heatmaps' ramp), each weight
 * written in its cell (22 px; legible with pix 30 or more). */
void caption_svg_step(FILE *out, const struct trace *tr, int run, int t,
		      int x, int y, int pix);

/* Writes tr (a caption trace) as a standalone SVG document titled with
 * name: for each run a row of panels, one a step, each the image's
 * pixels in gray under its cells coloured by their weights (the heatmaps'
 * ramp) with each weight written in its cell, and the step's word under
 * it.  Legible 1920 px wide.  Returns 0, or -1 on a write error. */
int caption_fmt_svg(FILE *out, const struct trace *tr, const char *name);

/* ---- training (src/caption_train.c), with train.c's driver */

struct train_data;
struct trainer;

/* 1 if word names a place in the image (top, bottom, left, right,
 * middle): the words whose attention caption_measure() scores. */
int caption_place_word(const char *word);

/* 1 if the object box of it overlaps cell (from 0) by a pixel or more
 * (imageset_box_overlap). */
int caption_cell_on_object(const struct imageset_item *it, int cell);

/* Fills d with the images of set as train.c's pairs: the source the nine
 * cells, the target the caption, each place word aligned (gold) to the
 * cells its image's object covers, and each pair's encoder the patch
 * encoder reading its image (set must outlive d).  name is set's file,
 * for messages.  Returns 0, or -1 with err filled and d empty. */
int caption_data(struct train_data *d, const struct imageset *set,
		 const char *name, struct errbuf *err);

/* Sets the blocks of t that an image model does not use (the source
 * embeddings, the word encoder, decoder.W_init) to 0 and freezes them. */
void caption_init_unused(struct trainer *t);

/* What caption_measure counts over a set. */
struct caption_score {
	int images;      /* images decoded */
	int exact;       /* whose greedy caption is their caption exactly */
	int place_words; /* place words in their captions */
	int on_object;   /* of those, teacher-forced, whose largest weight
	                    α_t,i lies on a cell the object covers */
};

/* Decodes every image of set with m and scorer sc, greedy and teacher-
 * forced, into *s.  Returns 0, or -1 with err filled (a caption word m
 * lacks). */
int caption_measure(const struct model *m, const struct imageset *set,
		    int sc, struct caption_score *s, struct errbuf *err);

#endif
