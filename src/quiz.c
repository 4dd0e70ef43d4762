/* quiz.c: making questions from a recorded trace and checking answers.
 * Every expected value is read from the trace; nothing here prints. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "num.h"
#include "quiz.h"
#include "whatif.h"

uint64_t quiz_rand(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

const char *quiz_stage_name(enum trace_stage stage)
{
	return stage == QUIZ_HARD_DRAW ? "hard-draw" : trace_stage_name(stage);
}

int quiz_stage_parse(const char *name, enum trace_stage *out)
{
	if (strcmp(name, "hard-draw") == 0) {
		*out = QUIZ_HARD_DRAW;
		return 0;
	}
	static const enum trace_stage stages[] = {
		STAGE_SCORING, STAGE_SOFTMAX, STAGE_WEIGHTED_SUM
	};
	for (size_t k = 0; k < sizeof stages / sizeof stages[0]; k++)
		if (strcmp(name, trace_stage_name(stages[k])) == 0) {
			*out = stages[k];
			return 0;
		}
	return -1;
}

static int quiz_clamp_prec(int precision)
{
	return precision < QUIZ_MIN_PREC ? QUIZ_MIN_PREC
	       : precision > QUIZ_MAX_PREC ? QUIZ_MAX_PREC : precision;
}

double quiz_tolerance(double expected, int precision)
{
	double unit = 1.0;
	for (int p = quiz_clamp_prec(precision); p > 0; p--)
		unit /= 10.0;
	return QUIZ_TOL_UNITS * unit * (1.0 + fabs(expected));
}

/* Checks that run and t exist; fills err and returns -1 if not. */
static int quiz_check_step(const struct trace *tr, int run, int t,
			   struct errbuf *err)
{
	if (run < 0 || run >= tr->nruns) {
		err_set(err, _("the trace has no run %d"), run);
		return -1;
	}
	int steps = tr->runs[run].nsteps;
	if (t < 1 || t > steps) {
		/* TRANSLATORS: %1$d and %3$d the number of steps, %2$s the
		 * scorer's name, %4$d the step asked for */
		err_set(err, _("expected a step t from 1 to %1$d (the %2$s "
			       "scorer decodes in %3$d steps), found t=%4$d"),
			steps,
			trace_scorer_name(tr->runs[run].scorer), steps, t);
		return -1;
	}
	return 0;
}

/* Checks 1 <= v <= max for i (source words) or k (coordinates). */
static int quiz_check_index(char name, int v, int max, struct errbuf *err)
{
	if (v >= 1 && v <= max)
		return 0;
	/* TRANSLATORS: %1$c and %4$c the index's letter (i or k), %2$d its
	 * largest value, %3$s what it counts, %5$d the value given */
	err_set(err, _("expected %1$c from 1 to %2$d (%3$s), found %4$c=%5$d"),
		name, max, name == 'i' ? _("the source words")
		: _("the coordinates of c_t"), name, v);
	return -1;
}

/* Finds the records of q (stage, run, t, i, k set) and the answer. */
static int quiz_fill(struct quiz_question *q, struct errbuf *err)
{
	const struct trace *tr = q->tr;
	if (q->stage == QUIZ_HARD_DRAW) {
		/* the REC_SAMPLE of step t: its i is the drawn l; a draw
		 * (not --hard=argmax) records u (its operand "u") */
		for (int i = 1; i <= tr->n && !q->rec; i++)
			q->rec = trace_find(tr, REC_SAMPLE, q->run, q->t, i);
		if (!q->rec || !trace_op_key(q->rec, "u")) {
			err_set(err, _("hard-draw asks which word hard "
				       "attention draws: it needs a trace made "
				       "with --hard=sample (in a lesson, hard: "
				       "sample); step %d has no draw"), q->t);
			q->rec = NULL;
			return -1;
		}
		q->expected = q->rec->i;
		snprintf(q->symbol, sizeof q->symbol, "l_%d", q->t);
		q->tolerance = 0.25; /* a whole number: only l itself */
		return 0;
	}
	switch (q->stage) {
	case STAGE_SCORING:
		q->rec = trace_find(tr, REC_SCORE, q->run, q->t, q->i);
		if (q->rec)
			q->expected = q->rec->result[0];
		snprintf(q->symbol, sizeof q->symbol, "e_%d,%d", q->t, q->i);
		break;
	case STAGE_SOFTMAX:
		q->rec = trace_find(tr, REC_SOFTMAX, q->run, q->t, 0);
		if (q->rec)
			q->expected = q->rec->result[q->i - 1];
		/* local-p's softmax over the window is align_t, as the
		 * trace names it; its weights a_t come after the Gaussian */
		snprintf(q->symbol, sizeof q->symbol, "%s_%d,%d", q->rec &&
			 strncmp(q->rec->symbol, "align", 5) == 0 ? "align"
			 : "α", q->t, q->i);
		break;
	default:
		q->rec = trace_find(tr, REC_CONTEXT, q->run, q->t, 0);
		/* the weights the context was made with: local-p's a_t */
		q->softmax = trace_find(tr, REC_GAUSS, q->run, q->t, 0);
		if (!q->softmax)
			q->softmax = trace_find(tr, REC_SOFTMAX, q->run, q->t,
						0);
		if (q->rec)
			q->expected = q->rec->result[q->k - 1];
		snprintf(q->symbol, sizeof q->symbol, "c_%d[%d]", q->t, q->k);
		break;
	}
	if (!q->rec || (q->stage == STAGE_WEIGHTED_SUM && !q->softmax)) {
		err_set(err, _("the trace has no %s record at t=%d"),
			quiz_stage_name(q->stage), q->t);
		return -1;
	}
	q->tolerance = quiz_tolerance(q->expected, q->precision);
	return 0;
}

int quiz_make_at(struct quiz_question *q, const struct trace *tr, int run,
		 enum trace_stage stage, int t, int i, int k, int precision,
		 struct errbuf *err)
{
	memset(q, 0, sizeof *q);
	if (stage != QUIZ_HARD_DRAW &&
	    (stage >= STAGE_COUNT || !(QUIZ_STAGES & (1u << stage)))) {
		err_set(err, _("expected a quiz stage (scoring, softmax, "
			       "weighted-sum or hard-draw), found %s"),
			stage < STAGE_COUNT ? trace_stage_name(stage) : _("none"));
		return -1;
	}
	if (quiz_check_step(tr, run, t, err) != 0)
		return -1;
	if (stage == QUIZ_HARD_DRAW) {
		i = k = 0;
	} else if (stage == STAGE_WEIGHTED_SUM) {
		if (quiz_check_index('k', k, tr->m->H, err) != 0)
			return -1;
		i = 0;
	} else {
		if (quiz_check_index('i', i, tr->n, err) != 0)
			return -1;
		k = 0;
	}
	q->tr = tr;
	q->run = run;
	q->stage = stage;
	q->t = t;
	q->i = i;
	q->k = k;
	q->precision = quiz_clamp_prec(precision);
	return quiz_fill(q, err);
}

/* 1 if --set gives the answer of q, or a number of its prompt, instead
 * of the arithmetic its prompt shows (doc/trace-format.md, "What-if:
 * --set"): a score e_t,i set (whose terms still add up to the old one),
 * a weight α_t,i set (the softmax still gives the old one), a context
 * c_t[k] set, or any weight of step t under a weighted-sum question
 * (its prompt shows the softmax's weights). */
static int quiz_given(const struct quiz_question *q)
{
	for (int k = 0; k < q->tr->cfg.nset; k++) {
		const struct whatif_edit *e = &q->tr->cfg.set[k];
		if (e->step != q->t)
			continue;
		switch (q->stage) {
		case STAGE_SCORING:
			if (e->what == WHATIF_SCORES && e->index == q->i - 1)
				return 1;
			break;
		case STAGE_SOFTMAX:
			if (e->what == WHATIF_WEIGHTS && e->index == q->i - 1)
				return 1;
			break;
		case STAGE_WEIGHTED_SUM:
			if (e->what == WHATIF_WEIGHTS ||
			    (e->what == WHATIF_CONTEXT && e->index == q->k - 1))
				return 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

int quiz_make(struct quiz_question *q, const struct trace *tr, int run,
	      enum trace_stage stage, uint64_t seed, int precision,
	      struct errbuf *err)
{
	if (run < 0 || run >= tr->nruns || tr->runs[run].nsteps < 1 ||
	    tr->n < 1) {
		memset(q, 0, sizeof *q);
		err_set(err, "%s", _("the trace has no step to ask about"));
		return -1;
	}
	uint64_t state = seed;
	for (int tries = 1;; tries++) {
		/* step 1: the decoder step; step 2: the word or coordinate */
		int t = 1 + (int)(quiz_rand(&state) %
				  (uint64_t)tr->runs[run].nsteps);
		int i = 1 + (int)(quiz_rand(&state) % (uint64_t)tr->n);
		int k = 1 + (int)(quiz_rand(&state) % (uint64_t)tr->m->H);
		if (quiz_make_at(q, tr, run, stage, t, i, k, precision,
				 err) != 0)
			return -1;
		/* step 3: a number that --set gives is not asked for: draw
		 * again, up to QUIZ_TRIES_SET picks */
		if (quiz_given(q)) {
			if (tries < QUIZ_TRIES_SET)
				continue;
			err_set(err, _("every %s question the quiz drew asks "
				       "for a number that --set gives"),
				quiz_stage_name(stage));
			return -1;
		}
		/* step 4: an answer that rounds to zero is a dull question
		 * (orthogonal vectors); draw again, a few times at most */
		if (tries >= QUIZ_TRIES || fabs(q->expected) >=
		    quiz_tolerance(0.0, q->precision) / QUIZ_TOL_UNITS)
			return 0;
	}
}

/* --- answers ----------------------------------------------------------- */

static int quiz_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Marks a as unparseable with hint; returns QUIZ_UNPARSEABLE. */
static enum quiz_result quiz_refuse(struct quiz_answer *a, const char *hint)
{
	a->result = QUIZ_UNPARSEABLE;
	a->value = 0.0;
	a->text[0] = '\0';
	a->hint = hint;
	return a->result;
}

/* Copies s[0..n) into buf (size bytes) with the sign written '-' and a
 * '0' before a leading '.', so that num_parse reads "−.5" as -0.5.
 * Returns 0, or -1 if it does not fit. */
static int quiz_normalise(char *buf, size_t size, const char *s, size_t n)
{
	size_t o = 0;
	if (n >= 3 && memcmp(s, "\xE2\x88\x92", 3) == 0) { /* U+2212 */
		buf[o++] = '-';
		s += 3;
		n -= 3;
	} else if (n > 0 && (s[0] == '+' || s[0] == '-')) {
		buf[o++] = s[0];
		s++;
		n--;
	}
	if (n > 0 && s[0] == '.')
		buf[o++] = '0';
	if (o + n + 1 > size)
		return -1;
	memcpy(buf + o, s, n);
	buf[o + n] = '\0';
	return 0;
}

enum quiz_result quiz_check(const struct quiz_question *q, const char *text,
			    struct quiz_answer *a)
{
	char buf[128];
	const char *end;
	size_t n = strlen(text);
	while (n > 0 && quiz_blank(*text)) {
		text++;
		n--;
	}
	while (n > 0 && quiz_blank(text[n - 1]))
		n--;
	if (n == 0)
		return quiz_refuse(a, _("Type a number, such as 0.5704."));
	if (quiz_normalise(buf, sizeof buf, text, n) != 0)
		return quiz_refuse(a, _("That is too long to be a number."));
	if (strchr(buf, ',') && !strchr(buf, '.'))
		return quiz_refuse(a, _("Write the decimal point as '.': 0.5, "
				     "not 0,5."));
	enum num_status st = num_parse(buf, &a->value, &end);
	if (st == NUM_RANGE)
		return quiz_refuse(a, _("That number is too large."));
	if (st != NUM_OK || *end != '\0')
		return quiz_refuse(a, _("That is not a number; type one such "
				     "as 0.5704 or -1.25."));
	a->hint = NULL;
	snprintf(a->text, sizeof a->text, "%s", buf);
	a->result = fabs(a->value - q->expected) <= q->tolerance
		? QUIZ_RIGHT : QUIZ_WRONG;
	return a->result;
}

enum quiz_read quiz_read_answer(FILE *in, char *buf)
{
	size_t n;
	switch (util_read_line(in, buf, QUIZ_MAX_ANSWER, &n)) {
	case UTIL_LINE: break;
	case UTIL_LONG: return QUIZ_READ_LONG;
	case UTIL_END: return QUIZ_READ_END;
	case UTIL_ERROR: return QUIZ_READ_ERROR;
	}
	if (n > 0 && buf[n - 1] == '\r')
		buf[--n] = '\0'; /* a CRLF line end */
	const char *s = buf + strspn(buf, " \t");
	size_t len = strcspn(s, " \t\r");
	if ((len == 1 && s[0] == 'q') ||
	    (len == 4 && strncmp(s, "quit", 4) == 0))
		return QUIZ_READ_QUIT;
	return QUIZ_READ_ANSWER;
}
