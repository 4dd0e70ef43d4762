/* calc.h: "attn-trace calc", attention on any vectors: a query q, n keys
 * and n values of dimension 1 to CALC_MAX_DIM, scored by any scorer of
 * the registry and traced term by term (doc/trace-format.md, "calc").
 *
 * calc_build() records the trace with the trace's own stages: the
 * scorer's forward() and record() (trace_scores), the softmax
 * (trace_softmax) and the weighted sum (trace_context), so nothing of
 * attention is computed here.  The query is named s_1 and the keys h_i,
 * as in every trace; the values are v_i.  Nothing here prints but the
 * formatters calc_fmt_*. */
#ifndef ATTN_CALC_H
#define ATTN_CALC_H

#include <stdio.h>

#include "fmt.h"
#include "model.h"
#include "trace.h"
#include "util.h"

#define CALC_MAX_DIM 16               /* d and d_v, each 1 .. 16 */
#define CALC_MAX_KEYS TRACE_MAX_TOKENS /* n, 1 .. 64 */
#define CALC_MAX_ROWS 64              /* rows of a weight (W_loc: n) */

/* What calc computes with. */
struct calc_in {
	int scorer;            /* an enum scorer */
	int d, dv, n;          /* the query's and keys' size, the values',
	                          the keys' number */
	double q[CALC_MAX_DIM];
	double K[CALC_MAX_KEYS][CALC_MAX_DIM];
	double V[CALC_MAX_KEYS][CALC_MAX_DIM];
	/* the scorer's weights as a file gave them, each (rows, cols) of
	 * model_param_scorers' shape for E = H = A = d and L = n, row-major
	 * and owned by the caller; all NULL: drawn from seed */
	double *w[SCORER_MAX_PARAMS];
	unsigned long long seed;
};

/* The trace and the sizes it was made with. */
struct calc {
	struct model m;  /* E = H = A = d, L = n; its scorer's weights */
	struct model mv; /* m with H = d_v, for the weighted sum of values */
	struct trace tr;
	const struct calc_in *in; /* borrowed */
	int random;      /* 1: the weights were drawn from in->seed */
	char *words[CALC_MAX_KEYS]; /* "k1" .. "kn", the keys' names */
};

/* Records attention of in->q over the keys and values into *c.  The
 * weights are in->w, or else each uniform in [-1/√cols, 1/√cols] from
 * the SplitMix64 stream of in->seed, in the scorer's order of weights
 * and row-major.  Returns 0, or -1 with err filled (a shape of in->w
 * that is wrong cannot happen: the parser checks it).  in must outlive
 * *c; calc_free() releases it. */
int calc_build(struct calc *c, const struct calc_in *in, struct errbuf *err);
void calc_free(struct calc *c);

/* The shape of weight k of scorer sc for d and n: its section name
 * ("general.W") into name (48 bytes) and rows, cols.  Returns the number
 * of weights of sc. */
int calc_weight_shape(int sc, int k, int d, int n, char *name, int *rows,
		      int *cols);

/* Parsing.  A list of numbers is separated by commas or blanks; on the
 * command line the rows of --keys and --values are separated by ';'.
 * Errors read "WHERE:LINE:COL: expected ..., found ...". */

/* Parses arg, the value of --NAME (name "query", "keys" or "values"),
 * into in: the query (rows 0) or the rows of K or V.  Returns 0, or -1
 * with err filled. */
int calc_parse_arg(struct calc_in *in, const char *name, const char *arg,
		   struct errbuf *err);

/* Parses a calc file (path, "-": standard input) into in and the
 * weights it gives (in->w, which the caller frees with calc_in_free).
 * Returns 0, or -1 with err filled. */
int calc_parse_file(struct calc_in *in, const char *path, struct errbuf *err);

/* Checks what the arguments or the file gave once all is read: keys and
 * values alike in number, values that default to the keys; where names
 * the input for messages.  Returns 0, or -1 with err filled. */
int calc_finish(struct calc_in *in, const char *where, struct errbuf *err);

void calc_in_free(struct calc_in *in);

/* The formatters: text (each record as the trace prints it), JSON
 * (every input, weight and intermediate under its plain name), CSV (the
 * trace's long form), Markdown.  Each returns 0, or -1 on a write error. */
int calc_fmt_text(FILE *out, const struct calc *c, const struct fmt_opts *o);
int calc_fmt_json(FILE *out, const struct calc *c, const struct fmt_opts *o);
/* The same numbers as a Markdown document (calc_md.c): the inputs, each
 * score with its terms, the softmax and the weighted sum as tables,
 * every number with o->precision digits. */
int calc_fmt_md(FILE *out, const struct calc *c, const struct fmt_opts *o);

#endif
