/* quiz.h: questions on one step of a recorded trace, for a learner to
 * answer by hand (doc/quiz.md).
 *
 * A question asks for one number of the trace: a score e_t,i, a weight
 * α_t,i or one coordinate c_t[k] of the context vector.  The prompt shows
 * the operands the learner needs, the expected answer is read from the
 * trace (never recomputed), and a wrong answer is met with the worked
 * arithmetic of the records that hold it.  quiz_make and quiz_check never
 * print; the quiz_*_text renderers write to a stream, so that the command
 * line, the lessons and the stepper all show the same text. */
#ifndef ATTN_QUIZ_H
#define ATTN_QUIZ_H

#include <stdint.h>
#include <stdio.h>

#include "trace.h"
#include "util.h"

/* The precisions a question can be shown with; others are clamped. */
#define QUIZ_MIN_PREC 2
#define QUIZ_MAX_PREC 8

/* The tolerance: an answer a is right when
 *     |a - expected| <= QUIZ_TOL_UNITS · 10^-p · (1 + |expected|)
 * for a question shown with p digits after the point.  The operands are
 * rounded to half a unit of the last digit; a sum of a few products can
 * grow that tenfold, and the (1 + |expected|) keeps the rule fair for the
 * larger scores.  At p = 4: 0.0005 for a value near 0, 0.0010 near 1. */
#define QUIZ_TOL_UNITS 5

/* Picks that quiz_make tries before it accepts an answer of zero. */
#define QUIZ_TRIES 8
/* the picks drawn before a quiz gives up on a trace whose numbers of a
 * stage --set gives (quiz_make) */
#define QUIZ_TRIES_SET 256

/* The stages a question can be about. */
#define QUIZ_STAGES ((1u << STAGE_SCORING) | (1u << STAGE_SOFTMAX) | \
		     (1u << STAGE_WEIGHTED_SUM))

/* A quiz kind that is not a stage of the trace: hard attention's draw
 * ("hard-draw"), l_t from u_t and the cumulative sums of α_t, on a trace
 * built with --hard=sample.  It is passed where a stage is. */
#define QUIZ_HARD_DRAW ((enum trace_stage)STAGE_COUNT)

/* The name of a quiz stage: trace_stage_name's, or "hard-draw". */
const char *quiz_stage_name(enum trace_stage stage);

struct glimpse_quiz_src;

struct quiz_question {
	const struct trace *tr;  /* borrowed; must outlive the question */
	int run;                 /* an index into tr->runs */
	enum trace_stage stage;  /* STAGE_SCORING, _SOFTMAX or _WEIGHTED_SUM */
	int t;                   /* the decoder step, from 1 */
	int i;                   /* scoring and softmax: the source word, from
	                            1; weighted-sum: 0 */
	int k;                   /* weighted-sum: the coordinate of c_t, from
	                            1; otherwise 0 */
	int precision;           /* digits after the point in the prompt */
	char symbol[64];         /* what is asked: "e_1,2", "α_1,2", "c_1[3]" */
	double expected;         /* the trace's value of symbol */
	double tolerance;        /* see QUIZ_TOL_UNITS */
	const struct trace_rec *rec;     /* REC_SCORE, REC_SOFTMAX or
	                                    REC_CONTEXT: holds the answer */
	const struct trace_rec *softmax; /* weighted-sum: α_t; else NULL */
	/* A question on a self-attention trace (self.h) instead, made by
	 * self_quiz_make: st is not NULL, and self_kind (enum
	 * self_quiz_kind), head, i, j and k say which number; tr, run and
	 * rec are unused, and stage is the Luong stage it is like. */
	const struct self_trace *st;
	int self_kind;
	int head;                /* from 1 */
	int j;                   /* the key word, from 1 */
	/* A question on a glimpse trace (glimpse_quiz.h) instead, made by
	 * glimpse_quiz_make: gq is not NULL, glimpse_kind (enum
	 * glimpse_quiz_kind), t and k say which number; tr, run, rec and
	 * st are unused. */
	const struct glimpse_quiz_src *gq;
	int glimpse_kind;
};

/* One step of splitmix64: advances *state and returns the next number.
 * The same seed gives the same sequence on every platform. */
uint64_t quiz_rand(uint64_t *state);

/* Parses "scoring", "softmax", "weighted-sum" or "hard-draw".  Returns 0 and sets *out,
 * or -1 if name is none of them. */
int quiz_stage_parse(const char *name, enum trace_stage *out);

/* The tolerance for an expected value shown with precision digits
 * (clamped to QUIZ_MIN_PREC .. QUIZ_MAX_PREC). */
double quiz_tolerance(double expected, int precision);

/* Makes the question of stage about step t of run `run`, source word i
 * (scoring, softmax) or coordinate k of c_t (weighted-sum; the other of i
 * and k is ignored).  precision is clamped to QUIZ_MIN_PREC ..
 * QUIZ_MAX_PREC.  Returns 0, or -1 with err filled when the stage cannot
 * be asked about or t, i or k is not in the trace.  *q borrows from tr and
 * needs no freeing. */
int quiz_make_at(struct quiz_question *q, const struct trace *tr, int run,
		 enum trace_stage stage, int t, int i, int k, int precision,
		 struct errbuf *err);

/* As quiz_make_at, with t, i and k picked from seed (uniformly, by
 * splitmix64): the same trace, stage and seed always give the same
 * question.  A pick whose answer rounds to zero (a score of orthogonal
 * vectors) is drawn again, up to QUIZ_TRIES picks in all; a pick whose
 * answer (or a number of its prompt) --set gives instead of the arithmetic
 * shown is drawn again always, up to QUIZ_TRIES_SET picks, then -1 with
 * err set. */
int quiz_make(struct quiz_question *q, const struct trace *tr, int run,
	      enum trace_stage stage, uint64_t seed, int precision,
	      struct errbuf *err);

enum quiz_result { QUIZ_RIGHT, QUIZ_WRONG, QUIZ_UNPARSEABLE };

struct quiz_answer {
	enum quiz_result result;
	double value;       /* the number read; 0 when unparseable */
	char text[128];     /* the number as read, trimmed, with '-' for '−'
	                       and "0.5" for ".5"; "" when unparseable */
	const char *hint;   /* QUIZ_UNPARSEABLE: why, as a static sentence;
	                       NULL otherwise */
};

/* Reads the learner's answer text (one line; surrounding blanks and the
 * line end are ignored) in any locale: an optional '+', '-' or '−' sign,
 * digits with an optional '.' fraction (".5" is 0.5) and exponent.  "1,5"
 * is refused with a hint to write '.', anything else that is not a number
 * with a general hint.  Fills *a and returns a->result. */
enum quiz_result quiz_check(const struct quiz_question *q, const char *text,
			    struct quiz_answer *a);

/* Renderers.  Each writes to out and returns 0, or -1 on a write error.
 *
 * quiz_prompt_text: the operands (s_t and h_i, s_t and W_a·h_i, v_a and
 *   the tanh vector, e_t, or α_t and every h_i), the question and the
 *   tolerance rule, a line each.
 * quiz_answer_text: "e_1,2 = s_1·h_2 = 0.0000" and a newline.
 * quiz_worked_text: the worked arithmetic: fmt_text_rec of the records
 *   that hold the answer (with every term), and for weighted-sum the sum
 *   of coordinate k written out.
 * quiz_feedback_text: what the learner sees after answering a:
 *   "right: e_1,2 = 0.9765"; "not quite: e_1,2 = 0.9765, not 0.5." (with
 *   "(close: give 4 decimal places)" when the answer is within ten
 *   tolerances) and the worked arithmetic; or, for an unparseable answer,
 *   its hint. */
int quiz_prompt_text(FILE *out, const struct quiz_question *q);
/* quiz_prompt_text wrapped at cols (at least 40) instead of 80: a
 * lesson's page or the stepper, laid out at its own width; and
 * quiz_feedback_text likewise. */
int quiz_prompt_text_cols(FILE *out, const struct quiz_question *q,
			  int cols);
int quiz_answer_text(FILE *out, const struct quiz_question *q);
/* The value v as the question writes its answers: with q->precision
 * decimals, or, for hard-draw, a whole number.  Returns buf. */
char *quiz_value(char *buf, const struct quiz_question *q, double v);
int quiz_worked_text(FILE *out, const struct quiz_question *q);
int quiz_feedback_text(FILE *out, const struct quiz_question *q,
		       const struct quiz_answer *a);
int quiz_feedback_text_cols(FILE *out, const struct quiz_question *q,
			    const struct quiz_answer *a, int cols);

/* Worksheets (quiz_sheet.c): questions to print, with a blank for each
 * answer, or their key, the answers with the worked arithmetic.  Each
 * function writes to out and returns 0, or -1 on a write error. */
enum quiz_sheet_format { QUIZ_SHEET_TEXT, QUIZ_SHEET_MARKDOWN,
	QUIZ_SHEET_HTML };

/* Parses "text", "markdown" or "html"; returns 0, or -1 if it is none. */
int quiz_sheet_parse(const char *name, enum quiz_sheet_format *out);
/* The name of sheet format k (an enum quiz_sheet_format), or NULL past
 * the last: quiz --format's values. */
const char *quiz_sheet_name(int k);

/* The start of a sheet (key 0) or of its key (key 1): "Worksheet: " or
 * "Answer key: " and title, then subtitle (the seed), and on a
 * worksheet a line for the learner's name.  HTML is a whole page, its
 * style inline: it needs no other file.  Every word is escaped for the
 * format (HTML: & < > " ' as references, a control or a byte that is not
 * UTF-8 as U+FFFD; Markdown: its markup characters behind '\'). */
int quiz_sheet_begin(FILE *out, enum quiz_sheet_format f, int key,
		     const char *title, const char *subtitle);

/* Question num (from 1) under heading ("scoring at step t=2"): its
 * prompt (quiz_prompt_text) and a blank for the answer, or on a key its
 * answer and worked arithmetic (quiz_answer_text, quiz_worked_text). */
int quiz_sheet_item(FILE *out, enum quiz_sheet_format f, int key, int num,
		    const char *heading, const struct quiz_question *q);

/* The end of the sheet: HTML's closing tags. */
int quiz_sheet_end(FILE *out, enum quiz_sheet_format f);

/* The longest answer line the quiz reads, in bytes: a longer one is read
 * to its end but not kept, so that no answer, however long, is held. */
#define QUIZ_MAX_ANSWER 1024

/* What quiz_read_answer() read. */
enum quiz_read {
	QUIZ_READ_ANSWER, /* a line to check with quiz_check */
	QUIZ_READ_QUIT,   /* "q" or "quit", between blanks */
	QUIZ_READ_LONG,   /* a line longer than QUIZ_MAX_ANSWER, not kept */
	QUIZ_READ_END,    /* the end of the input */
	QUIZ_READ_ERROR   /* a read error (errno says which); never taken for
	                     the end */
};

/* Reads the learner's next answer line from in into buf, which holds
 * QUIZ_MAX_ANSWER + 1 bytes: without its line end (LF or CRLF), with a
 * NUL after it (buf is "" for QUIZ_READ_LONG and after the end or an
 * error).  Allocates nothing. */
enum quiz_read quiz_read_answer(FILE *in, char *buf);

#endif
