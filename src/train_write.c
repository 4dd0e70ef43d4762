/* train_write.c: a model in the model file format (doc/model-format.md),
 * every number in the shortest form that reads back as the same double,
 * so that writing, reading and writing again gives the same bytes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "num.h"
#include "train.h"
#include "utf8.h"

/* Writes comment, each line prefixed with "# " ("#" for an empty line)
 * and made safe with utf8_safe(): a comment can quote file names, and the
 * model parser refuses a control character or a byte that is not UTF-8,
 * even in a comment, so what is written must read back. */
static void tw_comment(FILE *out, const char *comment)
{
	const char *p = comment;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n), *safe = utf8_safe(line);
		fprintf(out, n ? "# %s\n" : "#\n", safe);
		free(safe);
		free(line);
		p += n + (nl != NULL);
	}
}

/* Writes the n numbers of v, each after a space. */
static void tw_numbers(FILE *out, const double *v, int n)
{
	char buf[NUM_BUFSZ];

	for (int k = 0; k < n; k++) {
		putc(' ', out);
		fputs(num_shortest(buf, v[k]), out);
	}
	putc('\n', out);
}

/* Writes a section of word lines "word n1 .. n_cols", the words padded to
 * one width so that the numbers line up. */
static void tw_words(FILE *out, const char *name, char *const *words, int n,
		     const double *rows, int cols)
{
	int width = 0;

	fprintf(out, "\n[%s]\n", name);
	for (int k = 0; k < n; k++) {
		int w = utf8_width(words[k]);
		if (w > width)
			width = w;
	}
	for (int k = 0; k < n; k++) {
		fputs(words[k], out);
		for (int pad = utf8_width(words[k]); pad < width; pad++)
			putc(' ', out);
		tw_numbers(out, rows + (size_t)k * cols, cols);
	}
}

/* Writes a matrix section of rows rows of cols numbers. */
static void tw_matrix(FILE *out, const char *name, const double *W, int rows,
		      int cols)
{
	fprintf(out, "\n[%s]\n", name);
	for (int r = 0; r < rows; r++) {
		const double *row = W + (size_t)r * cols;
		char buf[NUM_BUFSZ];
		fputs(num_shortest(buf, row[0]), out);
		tw_numbers(out, row + 1, cols - 1);
	}
}

int train_write_model(FILE *out, const struct model *m, const char *comment)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int n = model_param_table((struct model *)m,
				  model_scorers(m) | model_mha(m), tab);

	if (comment)
		tw_comment(out, comment);
	fprintf(out, "\nattn-trace-model 1\n\nembedding %d\nhidden %d\n"
		"attention %d\n", m->E, m->H, m->A);
	if (m->L)
		fprintf(out, "positions %d\n", m->L);
	if (m->arch != ARCH_DEFAULT)
		fprintf(out, "architecture %s\n", arch_get(m->arch)->name);
	if (m->input_feeding)
		fputs("input-feeding yes\n", out);
	for (int k = 0; k < n; k++) {
		const struct model_param *p = &tab[k];
		switch (p->kind) {
		case PARAM_SRC_VOCAB:
			tw_words(out, p->section, m->src.words, m->src.n,
				 *p->slot, p->cols);
			break;
		case PARAM_TGT_VOCAB:
		case PARAM_WORD_ROWS:
			tw_words(out, p->section, m->tgt.words, m->tgt.n,
				 *p->slot, p->cols);
			break;
		case PARAM_MATRIX:
			tw_matrix(out, p->section, *p->slot, p->rows, p->cols);
			break;
		}
	}
	return ferror(out) ? -1 : 0;
}
