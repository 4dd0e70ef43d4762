/* glimpse_quiz.h: quiz questions on a glimpse trace (glimpse.h), for a
 * learner to answer by hand: "attn-trace quiz --model=glimpse6
 * IMAGE.pgm" (doc/quiz.md).
 *
 * A question asks for one number of glimpse t, or of the class after the
 * last: where the policy points (l̂_t), the drawn place (l_t), a
 * periphery number of the retina (ρ_t), a coordinate of the glimpse
 * vector (φ_t) or of the core's state (h_t), a class probability (ŷ),
 * or REINFORCE's score function ∂ log π / ∂ l̂_t.  The answer is read
 * from the trace, never recomputed; the prompt shows the operands, the
 * worked arithmetic every term.  The questions go through quiz.h's
 * struct quiz_question, so the quiz's loop, answers, feedback and
 * worksheets are the same as for a sentence. */
#ifndef ATTN_GLIMPSE_QUIZ_H
#define ATTN_GLIMPSE_QUIZ_H

#include <stdint.h>
#include <stdio.h>

#include "glimpse.h"
#include "quiz.h"
#include "util.h"

/* What a glimpse question asks for, in the order of the model's
 * arithmetic; quiz --stage names them (glimpse_quiz_name). */
enum glimpse_quiz_kind {
	GLIMPSE_QUIZ_PLACE,     /* l̂_t[k] = tanh(W_l[k]·h_{t-1} + b_l[k]) */
	GLIMPSE_QUIZ_DRAW,      /* l_t[k] = l̂_t[k] + σ·ε_t[k] */
	GLIMPSE_QUIZ_RETINA,    /* ρ_t[k], k = 5..8: a 2×2 block's mean */
	GLIMPSE_QUIZ_GLIMPSE,   /* φ_t[k] = tanh(W_g[k]·[ρ_t; l_t] + b_g[k]) */
	GLIMPSE_QUIZ_CORE,      /* h_t[k] = tanh(W_h[k]·h_{t-1} +
				   W_x[k]·φ_t + b_h[k]) */
	GLIMPSE_QUIZ_CLASS,     /* ŷ[c] = exp(z_c - max) / Σ exp(z - max) */
	GLIMPSE_QUIZ_REINFORCE, /* ∂ log π / ∂ l̂_t[k] = (l_t[k] - l̂_t[k])/σ² */
	GLIMPSE_QUIZ_COUNT
};

/* What the questions are asked about; the caller keeps it (and what it
 * points to) alive while a question made from it is used. */
struct glimpse_quiz_src {
	const struct glimpse_model *m;
	const struct pgm_image *im;
	const struct glimpse_trace *tr;
};

/* The name of kind ("place", "draw", "retina", "glimpse", "core",
 * "class", "reinforce"), or NULL past the last. */
const char *glimpse_quiz_name(int kind);

/* Parses a kind's name; returns 0 and sets *kind, or -1. */
int glimpse_quiz_parse(const char *name, enum glimpse_quiz_kind *kind);

/* The first (*lo) and last (*hi) k a question of kind asks about, for
 * src's model. */
void glimpse_quiz_range(const struct glimpse_quiz_src *src,
			enum glimpse_quiz_kind kind, int *lo, int *hi);

/* Makes the question of kind about glimpse t (from 1; ignored for class)
 * and k: the coordinate from 1 (place, draw, reinforce: 1 the row, 2 the
 * column; retina: 5 .. 8; glimpse and core: 1 .. D or H) or, for class,
 * the class from 1.  precision is clamped as quiz_make_at clamps it.
 * Returns 0, or -1 with err filled when t or k is out of range.  *q
 * borrows src. */
int glimpse_quiz_make_at(struct quiz_question *q,
			 const struct glimpse_quiz_src *src,
			 enum glimpse_quiz_kind kind, int t, int k,
			 int precision, struct errbuf *err);

/* As glimpse_quiz_make_at, with t and k picked from seed (splitmix64,
 * quiz_rand()): a pick whose answer rounds to zero is drawn again, up to
 * QUIZ_TRIES picks, as quiz_make does. */
int glimpse_quiz_make(struct quiz_question *q,
		      const struct glimpse_quiz_src *src,
		      enum glimpse_quiz_kind kind, uint64_t seed,
		      int precision, struct errbuf *err);

/* What quiz_prompt_text and quiz_worked_text write for such a question:
 * the operands and the question; every term of the answer's
 * arithmetic.  Each returns 0, or -1 on a write error. */
int glimpse_quiz_prompt_text(FILE *out, const struct quiz_question *q);
int glimpse_quiz_worked_text(FILE *out, const struct quiz_question *q);

#endif
