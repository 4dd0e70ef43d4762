/* whatif.h: --set NAME=VALUE, what-if edits of a model's weights and
 * embeddings before it traces (doc/trace-format.md, "What-if: --set"). */
#ifndef ATTN_WHATIF_H
#define ATTN_WHATIF_H

#include "model.h"
#include "util.h"

#define WHATIF_MAX 32 /* --set options a command line may give */

/* One edit as applied: its canonical name ("general.W[2][3]",
 * "source[je][2]"), the value set and the value it replaced. */
struct whatif_edit {
	char name[112];
	double value, old;
};

/* Applies one --set argument arg ("NAME[i][j]=VALUE", indices counted
 * from 1, a vocabulary's row by its word or its number) to m, the argno-th
 * --set of the command line (from 1).  Returns 0 with *out filled, or -1
 * with err "--set:ARGNO:COL: ..." (an unknown name with the closest one,
 * an index out of range, a value that is not a finite number), m
 * unchanged.  NAME is a section of the model format (model_param_table). */
int whatif_apply(struct model *m, const char *arg, int argno,
		 struct whatif_edit *out, struct errbuf *err);

#endif
