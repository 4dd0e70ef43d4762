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

/* The sizes a weight's shape is written in.  A scorer declares its weights
 * in these terms (struct param_spec), so the one table of parameters
 * (model_param_table) can size every section of every model. */
enum model_dim {
	DIM_ONE, /* 1 */
	DIM_E,   /* the embedding dimension */
	DIM_H,   /* the hidden dimension */
	DIM_2H,  /* twice that: [s_t; h_i] and [c_t; s_t] */
	DIM_A,   /* the attention dimension of the concat scorer */
	DIM_L,   /* the source positions a model knows ("positions L") */
	DIM_K,   /* the location-aware scorer's filters: 2 */
	DIM_R    /* the width of each filter: 3 */
};

/* A weight that a scorer owns: the model file's section "<scorer>.<key>",
 * the JSON key inside the scorer's object, its symbol in text, and its
 * shape.  Training starts it uniform in [-1/sqrt(cols), 1/sqrt(cols)]. */
struct param_spec {
	const char *key;    /* "W", "v" */
	const char *label;  /* "W_a, applied to [s_t; h_i]" for model text */
	enum model_dim rows, cols;
};

/* The architecture ids, ARCH_luong, ARCH_bahdanau, in the order of
 * src/arch_list.h; a model file states its own (src/arch.h). */
enum arch {
#define ARCH(name) ARCH_##name,
#include "arch_list.h"
#undef ARCH
	ARCH_COUNT
};

/* The documented default architecture (--arch, a model file with no
 * "architecture" line): the registry's first, Luong's. */
#define ARCH_DEFAULT 0

#define SCORER_MAX 16         /* registered scorers, at most */
#define SCORER_MAX_PARAMS 6   /* weights one scorer owns, at most */

/* The optional weight groups of self- and cross-attention: sections
 * [self.W_Q] .. [self.W_O] and [cross.W_Q] .. [cross.W_O]. */
enum { MHA_SELF, MHA_CROSS, MHA_GROUPS };
enum { MHA_Q, MHA_K, MHA_V, MHA_O, MHA_NW };
/* In model_param_table's mask: the bit of group g, after the scorers'. */
#define MHA_PARAM_BIT(g) (1u << (30 + (g)))
#define MHA_PARAM_ALL (MHA_PARAM_BIT(MHA_SELF) | MHA_PARAM_BIT(MHA_CROSS))
/* The model_param.scorer of group g's weights (-1 is a shared one). */
#define MHA_PARAM_OWNER(g) (-2 - (g))

/* The optional weights of the local-p window (src/window_local_p.c):
 * [local-p.W_p] (H, H) and [local-p.v_p] (1, H), which place p_t.  Their
 * bit in model_param_table's mask, and their model_param.scorer. */
#define LOCALP_PARAM_BIT (1u << 29)
#define LOCALP_PARAM_OWNER (-4)

/* The optional weights of the patch encoder of attention over an image
 * (src/caption.c, Bahdanau's architecture only): [patch.W] (H, 4),
 * [patch.b] (H), [patch.P] (9, H) and [patch.W_init] (H, H), which turn
 * each 2×2 patch of a 6×6 image and its cell's place into an annotation
 * h_i and the annotations' mean into s_0.
 * Their bit in model_param_table's mask, and their model_param.scorer. */
#define PATCH_PARAM_BIT (1u << 28)
#define PATCH_PARAM_OWNER (-5)
#define PATCH_PIXELS 4 /* the pixels of one patch, 2×2 */
#define PATCH_CELLS 9  /* the cells of an image, 3×3 */

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
	int L; /* source positions ("positions L"), 0 when not given */
	int arch; /* an enum arch: the line "architecture NAME", luong when
	             there is none */
	int input_feeding; /* 1: the line "input-feeding yes" (Luong's
	                      architecture only): the decoder reads
	                      [y_{t-1}; h̃_{t-1}], and its W_x is (H, E + H) */
	struct vocab src;
	struct vocab tgt;
	int bos; /* index of "<s>" in tgt */
	int eos; /* index of "</s>" in tgt */
	struct rnn enc; /* luong: (H, E); bahdanau: the forward RNN, H/2
	                   units */
	struct rnn dec; /* luong: W_x, W_h, b; bahdanau: W_y, W_s, b */
	/* bahdanau only (NULL otherwise): */
	struct rnn enc_bwd; /* the backward RNN, H/2 units */
	double *Winit;      /* (H, H/2) s_0 = tanh(W_init·←h_1) */
	double *Wcd;        /* (H, H) the decoder's W_c, applied to c_t */
	double *Wo;         /* (tgt.n, 2H + E) applied to [s_t; c_t; y_{t-1}] */
	/* sw[sc][k]: weight k of scorer sc as its class declares it (e.g.
	 * general's W_a (H, H)), or NULL when the model has no such section;
	 * a model can use scorer sc when all of them are there */
	double *sw[SCORER_MAX][SCORER_MAX_PARAMS];
	/* mha[g][w]: the self-attention (g = MHA_SELF) and cross-attention
	 * (MHA_CROSS) weights W_Q, W_K, W_V, W_O, each (E, E), or NULL when
	 * the model has no such sections (doc/model.md, src/self.h) */
	double *mha[MHA_GROUPS][MHA_NW];
	double *Wp; /* local-p: (H, H) and (H), p_t = 1 + (n-1)·σ(v_p·tanh(W_p·q)); */
	double *vp; /* NULL when the model has no [local-p.*] sections */
	double *Wpatch; /* (H, PATCH_PIXELS) a_i = tanh(W·x_i + b) */
	double *bpatch; /* (H) */
	double *Ppatch; /* (PATCH_CELLS, H) row i: cell i's place */
	double *Wpinit; /* (H, H) s_0 = tanh(W_init·ā); all three NULL when
	                   the model has no [patch.*] sections */
	double *Wc; /* luong: (H, 2H) applied to [c_t; s_t] */
	double *Ws; /* luong: (tgt.n, H) row k scores target word k */
	char *name; /* where it came from, for messages: a path or "<built-in>" */
};

/* The one table of a model's parameters: every section of the model
 * format, in the order a model file is written, with its shape for m's
 * sizes and where m keeps it.  The parser, the writer, the text and JSON
 * printers and the trainer all walk it. */
enum param_kind {
	PARAM_SRC_VOCAB, /* [source]: a word and its embedding a line */
	PARAM_TGT_VOCAB, /* [target]: the same */
	PARAM_MATRIX,    /* rows lines of cols numbers */
	PARAM_WORD_ROWS  /* [output.W_s], [output.W_o]: a target word and its
	                    row a line */
};
struct model_param {
	char section[48];   /* "encoder.W_x", "general.W" */
	const char *label;  /* "encoder W_x", "W_a" (after the scorer's name) */
	enum param_kind kind;
	int scorer;         /* the scorer that owns it, -1 for a shared one,
			       MHA_PARAM_OWNER(g) for self/cross-attention */
	int rows, cols;     /* the shape; rows of a vocabulary: its words */
	int vector;         /* 1: one row by definition (a bias, v_a), which
			       JSON writes as a list; 0: a matrix, a list
			       of rows even when it has one (A = 1, H = 1) */
	double **slot;      /* where m keeps it (for a vocabulary, its emb) */
};
#define MODEL_MAX_PARAMS (16 + SCORER_MAX * SCORER_MAX_PARAMS + \
			  MHA_GROUPS * MHA_NW + 2 + 4)

/* Fills tab (MODEL_MAX_PARAMS) with m's parameters and returns how many:
 * the shared ones of m's architecture (m->arch), the weights of the
 * scorers in the bitmask scorers (registry order, between the decoder's
 * and the output's), then those of the self/cross-attention groups in the
 * mask (MHA_PARAM_BIT).  The sizes are m's (E, H, A, L and the
 * vocabularies' lengths). */
int model_param_table(struct model *m, unsigned scorers,
		      struct model_param *tab);

/* The blocks of an architecture's table (struct arch_class's params, in
 * src/arch_*.c): model_param_add fills entry e (section copied); the
 * others add the sections of the scorers in the bitmask scorers, of the
 * multi-head groups (MHA_PARAM_BIT) and of local-p (LOCALP_PARAM_BIT) at
 * tab, and return how many.  rows MODEL_PARAM_VEC marks a section that
 * is a vector by its definition (a bias, v_a), one row that the model
 * JSON writes flat, as against a matrix with one row when a size is 1. */
#define MODEL_PARAM_VEC (-1)
void model_param_add(struct model_param *e, const char *section,
		     const char *label, enum param_kind kind, int scorer,
		     int rows, int cols, double **slot);
int model_param_scorers(struct model *m, unsigned scorers,
			struct model_param *tab);
int model_param_mha(struct model *m, unsigned scorers, struct model_param *tab);
int model_param_localp(struct model *m, unsigned mask,
		       struct model_param *tab);
/* The patch encoder's three sections, if PATCH_PARAM_BIT is in mask. */
int model_param_patch(struct model *m, unsigned mask,
		      struct model_param *tab);

/* The bitmask of the scorers whose weights m holds (every scorer without
 * weights, such as dot, is always in it). */
unsigned model_scorers(const struct model *m);

/* The MHA_PARAM_BIT mask of the self/cross-attention groups whose every
 * weight m holds, with LOCALP_PARAM_BIT if it holds local-p's and
 * PATCH_PARAM_BIT if it holds the patch encoder's. */
unsigned model_mha(const struct model *m);

/* Returns the weights of section name ("general.W"), or NULL. */
const double *model_weights(const struct model *m, const char *name);

/* 0 if m holds every weight of scorer sc.  Otherwise -1, with err saying
 * which sections are missing and which scorers m does support. */
int model_check_scorer(const struct model *m, int sc, struct errbuf *err);

/* Parses the model text text[0..len) (need not be NUL-terminated) into *m.
 * name is used in error messages ("NAME:LINE:COL: expected ..., found ...").
 * Returns 0 on success; the caller then owns m's memory and releases it
 * with model_free().  On failure returns -1, fills err, and leaves *m empty
 * (model_free() on it is harmless). */
int model_parse(struct model *m, const char *text, size_t len,
		const char *name, struct errbuf *err);

/* Reads and parses the model file at path.  Same contract as model_parse. */
int model_load_file(struct model *m, const char *path, struct errbuf *err);

/* model_load_file for a path that a shared document chose (a lesson's
 * model): a parse error says where the file is wrong ("PATH:LINE:COL:
 * expected a model file ..., found something else ...") but echoes
 * nothing of what it holds, so that a lesson cannot show the user a line
 * of a file it names. */
int model_load_file_quiet(struct model *m, const char *path,
			  struct errbuf *err);

/* Parses the toy model built into the program (data/toy4.model, the
 * trained default).  Same contract as model_parse. */
int model_load_builtin(struct model *m, struct errbuf *err);

/* Parses the built-in model called name: "toy4" (data/toy4.model, the
 * trained default, as model_load_builtin), "handset4"
 * (data/handset4.model, the hand-set model of the lessons), "bahdanau4"
 * (data/bahdanau4.model, the trained model of Bahdanau's architecture) or
 * "self4" (data/self4.model, the hand-set model of self-attention).  Same
 * contract as model_parse; an unknown name is an error "expected a
 * built-in model (toy4, handset4, bahdanau4, self4, localp4, feed4, hard4, longattn8, longfixed8 or caption4), found \"NAME\"". */
int model_load_named(struct model *m, const char *name, struct errbuf *err);

/* 1 if name is the name of a built-in model that model_load_named
 * loads, else 0. */
int model_builtin_name(const char *name);

/* The name of built-in model k (from 0, in the order lists name them),
 * with *what (if what is not NULL) saying what it is; NULL past the last.
 * The one table of them is in model.c. */
const char *model_builtin_nth(size_t k, const char **what);

/* Every built-in model, as model_builtin_nth, glimpse6 included: *cmd
 * (if cmd is not NULL) is NULL for a model of struct model, else the
 * command that reads it ("glimpse").  For lists of every built-in model
 * ("attn-trace models"). */
const char *model_builtin_each(size_t k, const char **what,
			       const char **cmd);

/* The names of the built-in models for a message: "toy4, handset4,
 * bahdanau4, self4, localp4, feed4, hard4, longattn8, longfixed8 or caption4". */
const char *model_builtin_list(void);

/* Loads the model that a --model option (or a lesson's model:) names:
 * NULL is the built-in toy4; a built-in name (model_builtin_list())
 * is that
 * built-in model; anything else is the path of a model file.  Same
 * contract as model_parse. */
int model_load_arg(struct model *m, const char *arg, struct errbuf *err);

/* Frees everything m owns and zeroes it. */
void model_free(struct model *m);

/* Returns the index of word in v, matching without regard to case, or -1.
 * word is a NUL-terminated UTF-8 string. */
int vocab_find(const struct vocab *v, const char *word);

/* Fills out[0..max) with the indices of the words of v closest to word by
 * edit distance over code points (closest first, ties in vocabulary order)
 * and returns how many it stored. */
int vocab_closest(const struct vocab *v, const char *word, int *out, int max);

/* The built-in model texts and their lengths (each text is followed by a
 * NUL that the length does not count), generated by src/model_builtin.sh:
 * model_builtin_* from data/toy4.model, model_handset4_* from
 * data/handset4.model, model_bahdanau4_* from data/bahdanau4.model. */
extern const unsigned char model_builtin_text[];
extern const size_t model_builtin_len;
extern const unsigned char model_handset4_text[];
extern const size_t model_handset4_len;
extern const unsigned char model_bahdanau4_text[];
extern const size_t model_bahdanau4_len;
extern const unsigned char model_self4_text[];
extern const size_t model_self4_len;
extern const unsigned char model_localp4_text[]; /* data/localp4.model */
extern const size_t model_localp4_len;
extern const unsigned char model_feed4_text[]; /* data/feed4.model */
extern const size_t model_feed4_len;
extern const unsigned char model_hard4_text[]; /* data/hard4.model */
extern const size_t model_hard4_len;
extern const unsigned char model_longattn8_text[]; /* data/longattn8.model */
extern const size_t model_longattn8_len;
extern const unsigned char model_longfixed8_text[]; /* data/longfixed8.model */
extern const size_t model_longfixed8_len;
extern const unsigned char model_caption4_text[]; /* data/caption4.model */
extern const size_t model_caption4_len;

#endif
