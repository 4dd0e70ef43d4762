/* train_write.c: a model in the model file format (doc/model-format.md),
 * every number in the shortest form that reads back as the same double,
 * so that writing, reading and writing again gives the same bytes. */
#include "config.h"

#include <string.h>

#include "num.h"
#include "train.h"
#include "utf8.h"

/* Writes comment, each line prefixed with "# " ("#" for an empty line). */
static void tw_comment(FILE *out, const char *comment)
{
	const char *p = comment;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		fprintf(out, n ? "# %.*s\n" : "#\n", (int)n, p);
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
	const int E = m->E, H = m->H, A = m->A;

	if (comment)
		tw_comment(out, comment);
	fprintf(out, "\nattn-trace-model 1\n\nembedding %d\nhidden %d\n"
		"attention %d\n", E, H, A);
	tw_words(out, "source", m->src.words, m->src.n, m->src.emb, E);
	tw_words(out, "target", m->tgt.words, m->tgt.n, m->tgt.emb, E);
	tw_matrix(out, "encoder.W_x", m->enc.Wx, H, E);
	tw_matrix(out, "encoder.W_h", m->enc.Wh, H, H);
	tw_matrix(out, "encoder.b", m->enc.b, 1, H);
	tw_matrix(out, "decoder.W_x", m->dec.Wx, H, E);
	tw_matrix(out, "decoder.W_h", m->dec.Wh, H, H);
	tw_matrix(out, "decoder.b", m->dec.b, 1, H);
	tw_matrix(out, "general.W", m->Wg, H, H);
	tw_matrix(out, "concat.W", m->Wa, A, 2 * H);
	tw_matrix(out, "concat.v", m->va, 1, A);
	tw_matrix(out, "output.W_c", m->Wc, H, 2 * H);
	tw_words(out, "output.W_s", m->tgt.words, m->tgt.n, m->Ws, H);
	return ferror(out) ? -1 : 0;
}
