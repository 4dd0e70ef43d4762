/* predict.h: predict, then reveal (doc/lessons.md, "Predicting first").
 *
 * A lesson page can ask the learner to predict something about the trace
 * before it shows the numbers: which word step 1 will look at most,
 * whether the largest weight will be above 0.5, a score worked out in
 * one's head.  The answer is read from the trace by whoever makes the
 * question (lesson_predict_make, lesson_ref.c), never typed.  A wrong
 * answer gets the page's hint and a second try; a second wrong answer
 * gets the worked answer.  Either way the page then shows its numbers.
 * Nothing here prints except the *_text renderers, which write to a
 * stream so that the stepper and --plain show the same words. */
#ifndef ATTN_PREDICT_H
#define ATTN_PREDICT_H

#include <stdio.h>

/* What the learner types. */
enum predict_kind {
	PREDICT_WORD,   /* a word of a vector's axis, or its position */
	PREDICT_YESNO,  /* y or n: whether a claim holds */
	PREDICT_NUMBER  /* a number, at decimals digits */
};

/* Wrong answers before the worked answer: the first gets the hint. */
#define PREDICT_TRIES 2

struct predict_q {
	enum predict_kind kind;
	char symbol[160];    /* what is asked, as written: "argmax(α_1)",
	                        "max(α_1) > 0.5", "e_1,1:1" */
	double expected;     /* WORD: the position, from 1; YESNO: 1 (yes)
	                        or 0 (no); NUMBER: the trace's value */
	int decimals;        /* NUMBER: the digits asked for; an answer
	                        counts within half a unit of the last of
	                        them (it is the value rounded to them) */
	/* WORD: the words the answer may name, names[ids[k]] for k from 0
	 * to nwords - 1 (ids NULL: names[k]); borrowed from the model and
	 * the trace */
	const char *const *names;
	const int *ids;
	int nwords;
	char answer[96];     /* the right answer as the learner would type
	                        it: "je", "yes", "0.98" */
	char worked[256];    /* the worked answer, one line: "argmax(α_1) =
	                        1 (je)", "max(α_1) = 0.5704, and 0.5704 > 0.5" */
	const char *hint;    /* borrowed: the page's hint */
};

/* Where one prediction stands. */
struct predict_try {
	int wrong;  /* wrong answers so far */
	int done;   /* 1 once right, or after PREDICT_TRIES wrong answers:
	               the page shows its numbers */
	int right;  /* 1 if it was right */
};

enum predict_verdict {
	PREDICT_RIGHT,      /* right: done */
	PREDICT_HINT,       /* wrong, a try is left: the hint */
	PREDICT_REVEAL,     /* wrong again: the worked answer, done */
	PREDICT_UNREADABLE  /* not an answer of the kind asked (a word not
	                       among the names, "maybe"): no try is used */
};

/* The word at position k (from 0) of q's names. */
const char *predict_word(const struct predict_q *q, int k);

/* Reads the answer text (surrounding blanks ignored) and advances *t:
 * WORD takes a word of the names (case folded, as the sentence is) or
 * its position from 1; YESNO takes y, yes, n or no in any case; NUMBER a
 * number as the quiz reads it (quiz.h: '.', '−', ".5").  Once t->done,
 * changes nothing and returns PREDICT_RIGHT or PREDICT_REVEAL as it was
 * settled. */
enum predict_verdict predict_answer(const struct predict_q *q,
				    struct predict_try *t, const char *text);

/* What to type, one line: "Type a word of the sentence (je, suis or
 * étudiant) or its position, then Enter." and the like.  Returns 0, or
 * -1 on a write error. */
int predict_prompt_text(FILE *out, const struct predict_q *q);

/* What the learner sees after answering text with verdict v: "Right: je."
 * / "Not suis. Hint: ... Try again." / "Not suis. The answer is je:
 * argmax(α_1) = 1 (je)." / why the text is not an answer.  The numbers
 * below it (the rest of the page) are the working.  Returns 0 or -1. */
int predict_feedback_text(FILE *out, const struct predict_q *q,
			  enum predict_verdict v, const char *text);

#endif
