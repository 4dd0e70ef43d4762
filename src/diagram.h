/* diagram.h: the picture of one decoder step, without curses.
 *
 * diagram_build() reads one step of one run of a recorded trace into a
 * struct diagram: the source words and the states h_i attention read,
 * the query (s_t in Luong's architecture, s_{t-1} in Bahdanau's), the
 * weights α_t,i, the context c_t, what the step makes of it (Luong's
 * attentional state h̃_t, or Bahdanau's new state s_t that c_t feeds) and
 * the output word.  Every number is a pointer into the trace's records:
 * nothing is recomputed.  diagram_render() lays it out as lines of text
 * for any width, with box drawing or, for the C locale, ASCII. */
#ifndef ATTN_DIAGRAM_H
#define ATTN_DIAGRAM_H

#include <stdio.h>

#include "trace.h"
#include "util.h"

/* The cells a state is drawn with: its first DIAGRAM_CELLS numbers. */
#define DIAGRAM_CELLS 4

/* The thickness of a weight's line, from 0 (thinnest) to
 * DIAGRAM_LEVELS - 1 (thickest). */
#define DIAGRAM_LEVELS 4

struct diagram {
	const struct trace *tr; /* borrowed */
	int run, t;             /* the step drawn: run index, step from 1 */
	int n;                  /* source words */
	const char *words[TRACE_MAX_TOKENS]; /* the source words */
	const double *h[TRACE_MAX_TOKENS];   /* h_i, hlen numbers each */
	int hlen;
	const double *alpha;    /* (n) α_t */
	int amax;               /* the largest weight's position, from 0 */
	const double *query;    /* (qlen) the state that asks */
	int qlen;
	char qname[24];         /* "s_1" (Luong) or "s_0" (Bahdanau) */
	const double *context;  /* (clen) c_t */
	int clen;
	const double *result;   /* (rlen) h̃_t, or s_t when c_t feeds the RNN */
	int rlen;
	char rname[24];         /* "h̃_1" or "s_1" */
	int feeds_rnn;          /* 1: c_t feeds the decoder's RNN (the step
	                           records its context before its new state) */
	const char *out;        /* the output word */
	double out_p;           /* its probability */
	/* The variants' marks, drawn when set (0: unset). */
	int win_lo, win_hi;     /* a local window: positions lo..hi, from 1 */
	int has_pt;             /* p_t, the Gaussian's centre, is set */
	double pt;
	int sampled;            /* hard attention: the sampled position, from 1 */
	/* the window's heading (window_class.diagram_note, expanded), or
	 * "": when set, only the window's positions have a line, and it
	 * runs to the context, not from the query (fixed) */
	char note[160];
	/* Input feeding (Luong's): h̃_{t-1}, the last step's attentional
	 * state (0 at step 1), which the decoder's RNN read with y_{t-1} to
	 * make s_t; NULL without input feeding. */
	const double *feed;
	int flen;
};

/* Fills *d from step t (from 1) of run run of tr.  Returns 0, or -1 with
 * err filled when there is no such step or a record is missing. */
int diagram_build(struct diagram *d, const struct trace *tr, int run, int t,
		  struct errbuf *err);

/* The thickness level of weight a, 0 .. DIAGRAM_LEVELS - 1: never thinner
 * for a larger weight. */
int diagram_level(double a);

/* Lays d out for width columns, with box drawing and shading, or ASCII
 * when ascii is set.  It fits 80 columns and uses more; below about 64 a
 * line that would run past width is cut there.  Sets *lines to a newly
 * allocated array of newly allocated lines, and returns how many; free
 * them with diagram_lines_free(). */
int diagram_render(const struct diagram *d, int width, int ascii,
		   int precision, char ***lines);
void diagram_lines_free(char **lines, int n);

/* Writes d as a standalone SVG document for a slide (1280 wide), its
 * numbers to precision places and, exactly, in data- attributes.
 * Returns 0, or -1 if the stream reports a write error. */
int diagram_svg(FILE *out, const struct diagram *d, int precision);

#endif
