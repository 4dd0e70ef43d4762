/* self_diagram.h: the line diagram of one self-attention head, without
 * curses (issue 18, "Self-attention").
 *
 * The query tokens on the left, the key tokens on the right, and a line
 * from a query to each key as thick as the head's weight A_h[i][j]; a
 * masked pair (--causal) has no line and says "masked".  Built from the
 * trace's records alone (REC_ROW_SOFTMAX: the weights, and its scores
 * operand, -inf where masked); nothing is recomputed.  The stepper shows
 * its lines on key d; the tests check its pairs. */
#ifndef ATTN_SELF_DIAGRAM_H
#define ATTN_SELF_DIAGRAM_H

#include "self.h"

/* The thickness of a line: 0 masked (no line), else 1 + ⌊4w⌋ capped at 4,
 * drawn as '.', '-', '=' and '#'. */
#define SELF_DIAGRAM_LEVELS 5

struct self_diagram_pair {
	int i, j;     /* the query row and the key, from 0 */
	double w;     /* A_h[i][j], as the REC_ROW_SOFTMAX record holds it */
	int masked;   /* the record's score was -inf */
	int level;    /* the line's thickness, 0 .. SELF_DIAGRAM_LEVELS - 1 */
	int is_max;   /* the row's largest weight (the first, on a tie) */
};

struct self_diagram {
	int head;     /* from 0 */
	int row;      /* the query row shown, from 0; -1: every row */
	int nq, n;    /* query tokens, key tokens */
	char *const *qwords, *const *kwords; /* borrowed from the trace */
	struct self_diagram_pair *pairs; /* the rows shown × n, row-major */
	int npairs;
	char **lines; /* the picture in ASCII (but the words), each at most
	                 width columns */
	int nlines;
};

/* Builds the diagram of head (from 0) of t, of query row (from 0, or -1
 * for every row), drawn at most width columns wide with prec digits.
 * Returns 0, or -1 if the trace holds no weights of that head or row is
 * out of range.  self_diagram_free releases it; t must outlive it. */
int self_diagram_build(struct self_diagram *d, const struct self_trace *t,
		       int head, int row, int width, int prec);
void self_diagram_free(struct self_diagram *d);

/* The thickness of weight w (not masked), 1 .. SELF_DIAGRAM_LEVELS - 1. */
int self_diagram_level(double w);

/* The line diagram of each head in heads (bit h: head h + 1) that the
 * trace recorded, as a picture (SVG 1.1), a panel a head side by side:
 * the query words down the left, the key words down the right, a line for
 * each pair as wide as its weight (0.5 + 8w px; the lines of query row
 * row, from 0, dark, the others pale; a masked pair dotted grey), and the
 * weights of row printed by the keys, the largest marked "◄ largest" and a
 * masked one "masked (j > i)".  Each line carries data-head, data-i,
 * data-j (from 1) and its exact weight in data-alpha.  Returns 0, or -1 on
 * a write error, a row out of range or no head to draw. */
int self_diagram_svg(FILE *out, const struct self_trace *t, unsigned heads,
		     int row, int prec);

#endif
