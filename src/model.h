/* model.h: the attention model, its vocabularies and its text format.
 * The format is documented in doc/model-format.md. */
#ifndef ATTN_MODEL_H
#define ATTN_MODEL_H

#include <stddef.h>

#include "util.h"

#define MODEL_MAX_DIM 64       /* E, H and A are each at most this */
#define MODEL_MAX_VOCAB 4096   /* words in each vocabulary */
#define MODEL_MAX_WORD 64      /* bytes in one word */
#define MODEL_MAX_BYTES (16u << 20) /* a model file larger than this is refused */
/* No weight or embedding is larger in magnitude than this, so no sum or
 * product of the model's arithmetic (at most 2 * 64 terms of two factors)
 * can overflow to inf or NaN. */
#define MODEL_MAX_WEIGHT 1e6
#define MODEL_MAX_WEIGHT_TEXT "1e6"

/* A vocabulary: words in file order with their embeddings. */
struct vocab {
	int n;
	char **words;  /* (n) as written in the file, NUL-terminated */
	char **folded; /* (n) case-folded, for matching */
	double *emb;   /* (n, E) row-major */
};

/* The weights of one Elman RNN: h_t = tanh(W_x x_t + W_h h_{t-1} + b). */
struct rnn {
	double *Wx; /* (H, E) */
	double *Wh; /* (H, H) */
	double *b;  /* (H) */
};

struct model {
	int E; /* embedding dimension */
	int H; /* hidden dimension */
	int A; /* attention dimension of the concat scorer */
	struct vocab src;
	struct vocab tgt;
	int bos; /* index of "<s>" in tgt */
	int eos; /* index of "</s>" in tgt */
	struct rnn enc;
	struct rnn dec;
	double *Wg; /* (H, H) general scorer W_a */
	double *Wa; /* (A, 2H) concat scorer W_a, applied to [s_t; h_i] */
	double *va; /* (A) concat scorer v_a */
	double *Wc; /* (H, 2H) applied to [c_t; s_t] */
	double *Ws; /* (tgt.n, H) row k scores target word k */
	char *name; /* where it came from, for messages: a path or "<built-in>" */
};

/* Parses the model text text[0..len) (need not be NUL-terminated) into *m.
 * name is used in error messages ("NAME:LINE:COL: expected ..., found ...").
 * Returns 0 on success; the caller then owns m's memory and releases it
 * with model_free().  On failure returns -1, fills err, and leaves *m empty
 * (model_free() on it is harmless). */
int model_parse(struct model *m, const char *text, size_t len,
		const char *name, struct errbuf *err);

/* Reads and parses the model file at path.  Same contract as model_parse. */
int model_load_file(struct model *m, const char *path, struct errbuf *err);

/* Parses the toy model built into the program (data/toy4.model). */
int model_load_builtin(struct model *m, struct errbuf *err);

/* Frees everything m owns and zeroes it. */
void model_free(struct model *m);

/* Returns the index of word in v, matching without regard to case, or -1.
 * word is a NUL-terminated UTF-8 string. */
int vocab_find(const struct vocab *v, const char *word);

/* Fills out[0..max) with the indices of the words of v closest to word by
 * edit distance over code points (closest first, ties in vocabulary order)
 * and returns how many it stored. */
int vocab_closest(const struct vocab *v, const char *word, int *out, int max);

/* The built-in model text and its length, generated from data/toy4.model. */
extern const unsigned char model_builtin_text[];
extern const size_t model_builtin_len;

#endif
