/* self.h: self-attention and cross-attention with two heads, recorded
 * matrix by matrix (doc/model.md, "Self-attention and multi-head
 * attention"; doc/trace-format.md, "attn-trace self").
 *
 * A second trace program over the records of trace.h: like the
 * translation's, it computes and records and never prints.  self_build()
 * records each step as a matrix record in t->tr (trace.h, "Self-
 * attention's"), which the shared formatters print (fmt_text_trace,
 * fmt_json_trace, fmt_csv_trace, fmt_md_trace); struct self_trace also
 * points at each matrix by name, for self_build() and the tests (the
 * stepper, the SVGs and the quiz read the records). */
#ifndef ATTN_SELF_H
#define ATTN_SELF_H

#include <stdio.h>

#include "fmt.h"
#include "model.h"
#include "quiz.h"
#include "trace.h"
#include "util.h"

#define SELF_HEADS 2      /* h: the heads of both groups */
#define SELF_MAX_WORDS 64 /* words in a sentence (and in a target) */

/* What self_build computes. */
struct self_opts {
	int cross;    /* 1: queries from the target words (cross-attention) */
	int causal;   /* 1: scores above the diagonal (j > i) are -inf */
	int position; /* 1: add the positional encoding (the default) */
};

/* Every matrix of one run, row-major; rows are tokens.  They live in the
 * storage of tr, whose records (trace.h, "Self-attention's") are what the
 * formatters, the stepper, the SVGs and the quiz read; the pointers here
 * name the matrices for self_build() and the tests.  "q" matrices have
 * a row for each query token (nq), "k" ones a row for each key token (n):
 * the source words.  For self-attention the query tokens are the source
 * words as well (nq = n) and the q matrices equal the k ones. */
struct self_trace {
	struct self_opts o;
	int n, nq;        /* key/value tokens, query tokens */
	int d, dk;        /* d_model = E, and d_k = d_v = d / SELF_HEADS */
	const char *model_name;
	char **kwords;    /* (n) the source words, as the model spells them */
	char **qwords;    /* (nq) the query words */
	double *Ek, *PEk, *Xk; /* (n, d) embeddings, PE, X = E + PE */
	double *Eq, *PEq, *Xq; /* (nq, d) the same for the queries */
	const double *W[MHA_NW]; /* W_Q, W_K, W_V, W_O (d, d), the model's */
	double *Q;        /* (nq, d) Q = Xq W_Qᵀ */
	double *K, *V;    /* (n, d) K = Xk W_Kᵀ, V = Xk W_Vᵀ */
	/* per head h (0-based), each (nq, n) but Z (nq, dk): */
	double *dot[SELF_HEADS];  /* q_i·k_j over the head's features */
	double *S[SELF_HEADS];    /* dot / √d_k */
	double *M[SELF_HEADS];    /* S with -inf where masked (S itself
	                             without the mask) */
	double *A[SELF_HEADS];    /* the row softmax of M */
	double *Z[SELF_HEADS];    /* A V_h */
	double *C;        /* (nq, d) concat(Z_1, Z_2) */
	double *Y;        /* (nq, d) the output, C W_Oᵀ */
	struct trace tr;  /* the records: tr.prog is TRACE_SELF */
};

/* PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(the same),
 * pos from 0, into out (d). */
void self_pe(int pos, int d, double *out);

/* 1 if position j of the keys is masked for query i. */
static inline int self_masked(const struct self_trace *t, int i, int j)
{
	return t->o.causal && j > i;
}

/* 0 if m can run the group (MHA_SELF or MHA_CROSS): it has its four
 * weights and an even embedding size.  Otherwise -1 with err set. */
int self_check_model(const struct model *m, int group, struct errbuf *err);

/* Runs the attention of m's group (o->cross: cross, else self) on the
 * source words ki (n of them) and, for cross-attention, the query words
 * qi (nq, of the target vocabulary), and records it in t->tr: the
 * per-head records of the heads in the bitmask heads (bit h for head
 * h + 1) only, though both heads are computed for the concat.  Returns 0,
 * or -1 with err set (a model that cannot, self_check_model).  self_free
 * releases t; m must outlive it. */
int self_build(struct self_trace *t, const struct model *m,
	       const struct self_opts *o, const int *ki, int n,
	       const int *qi, int nq, unsigned heads, struct errbuf *err);
void self_free(struct self_trace *t);

/* The stages of the stepper: which records each shows (self_fmt.c);
 * the text trace prints SELF_STAGE_SCORES and SELF_STAGE_SOFTMAX under
 * one heading.  The trace itself is printed by fmt_text_trace(),
 * fmt_json_trace(), fmt_csv_trace() and fmt_md_trace() on t->tr. */
enum self_stage { SELF_STAGE_X, SELF_STAGE_QKV, SELF_STAGE_SCORES,
		  SELF_STAGE_SOFTMAX, SELF_STAGE_Z, SELF_STAGE_OUT,
		  SELF_STAGE_COUNT };

/* The records of stage st as the text trace shows them (fmt_text_rec);
 * head (0-based) for the per-head stages, whose records exist for the
 * heads self_build() was asked for; terms: each product term by term
 * (else only its result, as a folded lesson page shows it). */
void self_fmt_text_stage(FILE *out, const struct self_trace *t,
			 enum self_stage st, int head, int prec, int terms);

/* The weights A of each head shown as a heatmap picture (SVG 1.1), a panel
 * a head side by side: rows the query words, columns the source words,
 * cells shaded on the ramp of the Luong heatmap (fmt_svg.h) with their
 * value, a masked cell "−∞". */
int self_fmt_svg(FILE *out, const struct self_trace *t, unsigned heads,
		 int prec);

/* Quiz questions on a self-attention trace (quiz.h): a score e_i,j of a
 * head, a weight α_i,j (of a masked row, with --causal), or coordinate k
 * of z_i of a head. */
enum self_quiz_kind { SELF_QUIZ_SCORE, SELF_QUIZ_WEIGHT, SELF_QUIZ_Z };

/* Makes the question of kind about head (from 1), query row i and key j
 * (from 1; score and weight) or coordinate k of z_i (from 1; z).
 * precision is clamped as quiz_make_at clamps it.  Returns 0, or -1 with
 * err filled when a number is out of range.  *q borrows t. */
int self_quiz_make(struct quiz_question *q, const struct self_trace *t,
		   enum self_quiz_kind kind, int head, int i, int j, int k,
		   int precision, struct errbuf *err);

/* What quiz_prompt_text and quiz_worked_text write for such a question:
 * the operands and the question; the arithmetic of the answer. */
void self_quiz_prompt_text(FILE *out, const struct quiz_question *q);
int self_quiz_worked_text(FILE *out, const struct quiz_question *q);

#endif
