/* whatif.h: --set NAME=VALUE, what-if edits of a model's weights and
 * embeddings before it traces, and of a decoder step's intermediate
 * values while it traces (doc/trace-format.md, "What-if: --set"). */
#ifndef ATTN_WHATIF_H
#define ATTN_WHATIF_H

#include "model.h"
#include "util.h"

struct trace;
struct trace_cfg;

#define WHATIF_MAX 32 /* --set options a command line may give */

/* What an edit sets: a number of the model (a weight, an embedding), or
 * an intermediate value of one decoder step, step[T].KEY[K] with KEY one
 * of whatif_keys[]: the state s_t, a score e_t,i, a weight α_t,i, the
 * context c_t, or (to --explain only) the attentional state h̃_t or the
 * output ŷ_t. */
enum whatif_what {
	WHATIF_MODEL,
	WHATIF_STATE,
	WHATIF_SCORES,
	WHATIF_WEIGHTS,
	WHATIF_CONTEXT,
	WHATIF_ATTENTIONAL, /* h̃_t: --explain names it, --set does not */
	WHATIF_OUTPUT,      /* ŷ_t, an entry a target word: --explain only */
	WHATIF_WHAT_COUNT
};

/* An intermediate's name after "step[T].": its plain name in the trace
 * JSON (the canonical one), a second spelling (its symbol), what its
 * entries run over (WHATIF_PER_*), and whether --set can set it (the
 * attentional state and the output only --explain names). */
enum { WHATIF_PER_UNIT, WHATIF_PER_WORD, WHATIF_PER_TARGET };
struct whatif_key {
	enum whatif_what what;
	const char *key, *alias;
	int per_word; /* WHATIF_PER_UNIT: the hidden units (H); _WORD: the
	                 source words (n); _TARGET: the target vocabulary,
	                 an entry a number or a word */
	int settable;
};
extern const struct whatif_key whatif_keys[WHATIF_WHAT_COUNT - 1];

/* One edit as applied: its canonical name ("general.W[2][3]",
 * "source[je][2]", "step[2].scores[1]"), the value set and, for a model's
 * number, the value it replaced (an intermediate's is the trace's,
 * trace.set_old, one a run). */
struct whatif_edit {
	char name[112];
	double value, old;
	enum whatif_what what;
	int step;   /* an intermediate's decoder step, from 1; 0: the model's */
	int index;  /* an intermediate's entry, from 0 */
	int argno;  /* the --set it came from, from 1 */
	int tcol, kcol; /* the columns of its step and of its index */
	int wcol;       /* the column of its KEY ("attentional") */
};

/* Applies one --set argument arg ("NAME[i][j]=VALUE", indices counted
 * from 1, a vocabulary's row by its word or its number) to m, the argno-th
 * --set of the command line (from 1).  An intermediate
 * ("step[T].KEY[K]=VALUE") leaves m alone: *out says what the trace sets
 * (trace_cfg.set).  Returns 0 with *out filled, or -1 with err
 * "--set:ARGNO:COL: ..." (an unknown name with the closest one, an index
 * out of range, a value that is not a finite number), m unchanged.  NAME
 * is a section of the model format (model_param_table). */
int whatif_apply(struct model *m, const char *arg, int argno,
		 struct whatif_edit *out, struct errbuf *err);

/* --explain NAME: a step's value "step[T].KEY[K]" (whatif_apply's names
 * of one, without "=VALUE", and step[T].attentional[K] and
 * step[T].output[WORD]) into *out (its value 0); m is read only.
 * Returns 0, or -1 with err "--explain:1:COL: ...". */
int whatif_name(const struct model *m, const char *name,
		struct whatif_edit *out, struct errbuf *err);

/* tui --goal "step[T].weights=WORD" (or alpha): the source word of tr
 * at position *i (from 1; WORD a word of the sentence or its position)
 * that the learner's edits should make the largest weight of step *t,
 * a step of tr's first run.  Returns 0, or -1 with err "--goal:1:COL:
 * expected ...". */
int whatif_goal(const struct trace *tr, const char *arg, int *t, int *i,
		struct errbuf *err);

/* err's "--set:N:COL: ..." as "--explain:N:COL: ...": a whatif error
 * about --explain's name. */
void whatif_as_explain(struct errbuf *err);

/* 1 if one of set (n) is an edit of the model (model 1), or of a step's
 * value (model 0). */
int whatif_has(const struct whatif_edit *set, int n, int model);

/* Whether the intermediates of set (n) can be set under cfg: not under
 * a selection other than soft, nor with --gradient-paths (whose
 * derivatives would not be those of the edited trace).  Returns 0, or -1
 * with err "--set:ARGNO:1: ...". */
int whatif_check_cfg(const struct whatif_edit *set, int n,
		     const struct trace_cfg *cfg, struct errbuf *err);

/* Whether every intermediate of set (n) was in tr: its index within the
 * sentence (scores, weights) or the state (H), its step one that a run
 * of tr reached.  Returns 0, or -1 with err "--set:ARGNO:COL: ...". */
int whatif_check_trace(const struct whatif_edit *set, int n,
		       const struct trace *tr, struct errbuf *err);

#endif
