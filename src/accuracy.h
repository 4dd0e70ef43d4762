/* accuracy.h: accuracy by source length, for `attn-trace accuracy`
 * (doc/accuracy.md).  For a model, one of its scorers and a window, every
 * pair of a pairs file is decoded greedily, as `trace` decodes a sentence
 * without --target (trace_build), and the output is compared with the
 * pair's target words:
 *
 *   the words right of a pair: the positions j (from 1 to m, m the target's
 *     words) where output word j is target word j; an output shorter than
 *     the target has nothing right past its end, and words past the
 *     target's end count for nothing (they spoil the exact match only);
 *   exact match: the output is the target, word for word, and as long.
 *
 * The output is the predicted words without the closing </s>.  The counts
 * are kept for each source length; word accuracy is the words right over
 * the target words (summed over the pairs of a length, not averaged over
 * pairs), exact-match accuracy the pairs matched over the pairs.  The
 * core computes and never prints: src/accuracy_fmt.c writes it. */
#ifndef ATTN_ACCURACY_H
#define ATTN_ACCURACY_H

#include <stdio.h>

#include "model.h"
#include "pairs.h"
#include "trace.h"
#include "train.h"
#include "util.h"

/* The counts of the pairs of one source length (or of all of them). */
struct accuracy_count {
	int pairs;       /* pairs of this length */
	int exact;       /* pairs whose output is the target */
	int words;       /* target words, summed over the pairs */
	int words_right; /* of those, the words right */
};

/* One line of the chart: a model decoded with a scorer through a window. */
struct accuracy_line {
	char *model;    /* the model as named on the command line (owned) */
	int scorer;     /* an enum scorer */
	struct trace_cfg cfg; /* the window it was decoded through */
	/* by_len[n]: the pairs with n source words (n from 1 to
	 * PAIRS_MAX_WORDS; by_len[0] is unused) */
	struct accuracy_count by_len[PAIRS_MAX_WORDS + 1];
	struct accuracy_count all;
};

/* The words right of the output out[0..nout) against the target
 * ref[0..nref), position by position, as above. */
int accuracy_words_right(const int *out, int nout, const int *ref, int nref);

/* Decodes every pair of d (parsed with m's vocabularies: train_pairs_load
 * with init m) greedily with scorer sc through cfg (NULL: the defaults)
 * and adds each to line's counts, which the caller zeroed.  Returns 0, or
 * -1 with err "NAME:LINE:1: ..." (name: the pairs file's name) when a pair
 * cannot be traced (a source longer than the location scorer's
 * positions). */
int accuracy_measure(struct accuracy_line *line, const struct model *m,
		     const struct train_data *d, const char *name, int sc,
		     const struct trace_cfg *cfg, struct errbuf *err);

/* A share as a fraction, right / total, 0 when total is 0. */
double accuracy_share(int right, int total);

/* The output formats (--format of `attn-trace accuracy`). */
enum accuracy_format { ACCURACY_TEXT, ACCURACY_CSV, ACCURACY_JSON,
		       ACCURACY_SVG };
/* The name of format k, or NULL past the last. */
const char *accuracy_format_name(int k);

/* What a formatter is given: the lines (n of them, all measured on the
 * same pairs file, whose name is pairs). */
struct accuracy_report {
	const struct accuracy_line *lines;
	int n;
	const char *pairs;
};

/* The label of line l in legends and headings: "MODEL SCORER", then the
 * window when it is not global ("MODEL SCORER local-m D=2"), into buf
 * (size bytes); base 1 names the model by the last part of its path
 * (accuracy_base), as the chart does. */
void accuracy_label(char *buf, size_t size, const struct accuracy_line *l,
		    int base);

/* The last part of path, after its last '/' (path itself if none). */
const char *accuracy_base(const char *path);

/* Writes the report in format f to out: text (a table by source length,
 * then a text plot of word accuracy against length), CSV, JSON, or an SVG
 * line chart.  The same report gives the same bytes, whatever the locale.
 * Returns 0, or -1 if the stream reports a write error. */
int accuracy_write(FILE *out, const struct accuracy_report *r,
		   enum accuracy_format f);

/* Writes the text format's key (a letter a line) and its plot of word
 * accuracy against length, a row a 1/rows of it (the text format's has
 * 10), without the table or a caption (a lesson's `show accuracy`, 5
 * rows so that it fits a terminal's page).  Returns 0, or -1 on a
 * write error. */
int accuracy_write_plot(FILE *out, const struct accuracy_report *r, int rows);

#endif
