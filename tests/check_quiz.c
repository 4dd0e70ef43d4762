/* check_quiz.c: quiz questions (quiz.h) against values computed here, from
 * the model's weights and the recorded states, with loops of our own;
 * picking by seed; the tolerance; reading answers; the text; and quiz
 * directives in lessons. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "num.h"
#include "quiz.h"
#include "selection.h"
#include "tok.h"

#define SENTENCE "je suis étudiant"

static struct model M;
static struct trace TR; /* all three scorers: runs 0, 1, 2 */

static void setup(void)
{
	struct errbuf err;
	/* the hand-set model, whose numbers the known values below are */
	if (model_load_named(&M, "handset4", &err) != 0)
		ck_abort_msg("cannot load the built-in model: %s", err.msg);
	if (tok_trace(&TR, &M, SENTENCE, NULL, SCORER_ALL, NULL, &err) != 0)
		ck_abort_msg("cannot trace: %s", err.msg);
}

static void teardown(void)
{
	trace_free(&TR);
	model_free(&M);
}

/* --- the reference: our own arithmetic --------------------------------- */

/* The recorded state h_i (encoder) or s_t (decoder, run). */
static const double *state(int run, int t, int i)
{
	const struct trace_rec *r = trace_find(&TR, REC_RNN, run, t, i);
	ck_assert_ptr_nonnull(r);
	return r->result;
}

/* e_t,i of the scorer of run, computed from the weights. */
static double ref_score(int run, int t, int i)
{
	const double *s = state(run, t, 0), *h = state(-1, 0, i);
	int H = M.H, A = M.A;
	double e = 0.0;
	switch (TR.runs[run].scorer) {
	case SCORER_dot:
		for (int k = 0; k < H; k++)
			e += s[k] * h[k];
		return e;
	case SCORER_general:
		for (int j = 0; j < H; j++) {
			double wh = 0.0;
			for (int k = 0; k < H; k++)
				wh += model_weights(&M, "general.W")[j * H + k] * h[k];
			e += s[j] * wh;
		}
		return e;
	case SCORER_location: /* row i of W_loc times s; no h */
		for (int k = 0; k < H; k++)
			e += model_weights(&M, "location.W")[(i - 1) * H + k] *
			     s[k];
		return e;
	case SCORER_scaled:
		for (int k = 0; k < H; k++)
			e += s[k] * h[k];
		return e / sqrt((double)H);
	case SCORER_additive: /* v_a·tanh(W_a s + U_a h) */
		for (int a = 0; a < A; a++) {
			double z = 0.0;
			for (int k = 0; k < H; k++)
				z += model_weights(&M, "additive.W")[a * H + k] *
				     s[k] +
				     model_weights(&M, "additive.U")[a * H + k] *
				     h[k];
			e += model_weights(&M, "additive.v")[a] * tanh(z);
		}
		return e;
	default:
		for (int a = 0; a < A; a++) {
			double z = 0.0;
			for (int k = 0; k < H; k++)
				z += model_weights(&M, "concat.W")[a * 2 * H + k] * s[k] +
				     model_weights(&M, "concat.W")[a * 2 * H + H + k] * h[k];
			e += model_weights(&M, "concat.v")[a] * tanh(z);
		}
		return e;
	}
}

/* α_t,i: a softmax of our own scores, written as 1 / Σ_j exp(e_j - e_i). */
static double ref_alpha(int run, int t, int i)
{
	double sum = 0.0, ei = ref_score(run, t, i);
	for (int j = 1; j <= TR.n; j++)
		sum += exp(ref_score(run, t, j) - ei);
	return 1.0 / sum;
}

/* c_t[k] = Σ_i α_t,i·h_i[k]. */
static double ref_context(int run, int t, int k)
{
	double c = 0.0;
	for (int i = 1; i <= TR.n; i++)
		c += ref_alpha(run, t, i) * state(-1, 0, i)[k - 1];
	return c;
}

static void make_at(struct quiz_question *q, int run, enum trace_stage st,
		    int t, int i, int k)
{
	struct errbuf err;
	if (quiz_make_at(q, &TR, run, st, t, i, k, 4, &err) != 0)
		ck_abort_msg("quiz_make_at: %s", err.msg);
}

/* --- expected answers --------------------------------------------------- */

START_TEST(test_scoring_expected)
{
	struct quiz_question q;
	int run = _i;
	if (run >= TR.nruns) /* a scorer handset4 has no weights of */
		return;
	for (int t = 1; t <= TR.runs[run].nsteps; t++)
		for (int i = 1; i <= TR.n; i++) {
			make_at(&q, run, STAGE_SCORING, t, i, 0);
			ck_assert_double_eq_tol(q.expected,
						ref_score(run, t, i), 1e-12);
			ck_assert_int_eq(q.rec->kind, REC_SCORE);
		}
}
END_TEST

START_TEST(test_softmax_expected)
{
	struct quiz_question q;
	int run = _i;
	if (run >= TR.nruns) /* a scorer handset4 has no weights of */
		return;
	for (int t = 1; t <= TR.runs[run].nsteps; t++)
		for (int i = 1; i <= TR.n; i++) {
			make_at(&q, run, STAGE_SOFTMAX, t, i, 0);
			ck_assert_double_eq_tol(q.expected,
						ref_alpha(run, t, i), 1e-12);
		}
}
END_TEST

START_TEST(test_weighted_expected)
{
	struct quiz_question q;
	int run = _i;
	if (run >= TR.nruns) /* a scorer handset4 has no weights of */
		return;
	for (int t = 1; t <= TR.runs[run].nsteps; t++)
		for (int k = 1; k <= M.H; k++) {
			make_at(&q, run, STAGE_WEIGHTED_SUM, t, 0, k);
			ck_assert_double_eq_tol(q.expected,
						ref_context(run, t, k), 1e-12);
			ck_assert_int_eq(q.i, 0);
		}
}
END_TEST

/* The hand-checked values of the lessons and the README. */
START_TEST(test_known_values)
{
	struct quiz_question q;
	make_at(&q, 0, STAGE_SCORING, 1, 1, 0);
	ck_assert_str_eq(q.symbol, "e_1,1");
	ck_assert_double_eq_tol(q.expected, 0.9765, 5e-5);
	make_at(&q, 0, STAGE_SOFTMAX, 1, 1, 0);
	ck_assert_str_eq(q.symbol, "α_1,1");
	ck_assert_double_eq_tol(q.expected, 0.5704, 5e-5);
	make_at(&q, 0, STAGE_WEIGHTED_SUM, 1, 0, 1);
	ck_assert_str_eq(q.symbol, "c_1[1]");
	ck_assert_double_eq_tol(q.expected, 0.5627, 5e-5);
}
END_TEST

START_TEST(test_make_errors)
{
	struct quiz_question q;
	struct errbuf err;
	int steps = TR.runs[0].nsteps;
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_OUTPUT, 1, 1, 0, 4,
				      &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "scoring, softmax, "
				     "weighted-sum or hard-draw"));
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_SCORING, steps + 1,
				      1, 0, 4, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "found t="));
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_SCORING, 0, 1, 0, 4,
				      &err), -1);
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_SOFTMAX, 1, 4, 0, 4,
				      &err), -1);
	ck_assert_str_eq(err.msg, "expected i from 1 to 3 (the source "
			 "words), found i=4");
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_WEIGHTED_SUM, 1, 0,
				      5, 4, &err), -1);
	ck_assert_str_eq(err.msg, "expected k from 1 to 4 (the coordinates "
			 "of c_t), found k=5");
	ck_assert_int_eq(quiz_make_at(&q, &TR, TR.nruns, STAGE_SCORING, 1, 1, 0,
				      4, &err), -1);
}
END_TEST

/* --- picking by seed ---------------------------------------------------- */

START_TEST(test_rand_reference)
{
	/* splitmix64's published first outputs for the seed 0 */
	uint64_t s = 0;
	ck_assert_uint_eq(quiz_rand(&s), UINT64_C(0xE220A8397B1DCDAF));
	ck_assert_uint_eq(quiz_rand(&s), UINT64_C(0x6E789E6AA1B965F4));
	ck_assert_uint_eq(quiz_rand(&s), UINT64_C(0x06C45D188009454F));
}
END_TEST

START_TEST(test_seed_deterministic)
{
	struct quiz_question a, b;
	struct errbuf err;
	int differ = 0;
	for (uint64_t seed = 0; seed < 50; seed++)
		for (int st = STAGE_SCORING; st <= STAGE_WEIGHTED_SUM; st++) {
			ck_assert_int_eq(quiz_make(&a, &TR, 1, st, seed, 4,
						   &err), 0);
			ck_assert_int_eq(quiz_make(&b, &TR, 1, st, seed, 4,
						   &err), 0);
			ck_assert(a.t == b.t && a.i == b.i && a.k == b.k);
			ck_assert(a.expected == b.expected);
			ck_assert_int_ge(a.t, 1);
			ck_assert_int_le(a.t, TR.runs[1].nsteps);
			ck_assert_int_eq(a.stage, st);
			if (st == STAGE_WEIGHTED_SUM)
				ck_assert(a.k >= 1 && a.k <= M.H && a.i == 0);
			else
				ck_assert(a.i >= 1 && a.i <= TR.n && a.k == 0);
			ck_assert_int_eq(quiz_make(&b, &TR, 1, st, seed + 1000,
						   4, &err), 0);
			differ += a.t != b.t || a.i != b.i || a.k != b.k;
		}
	ck_assert_int_gt(differ, 50);
}
END_TEST

/* The dot scorer's scores are often 0 here (orthogonal slots); a seeded
 * question draws again rather than ask for one. */
START_TEST(test_seed_avoids_zero)
{
	struct quiz_question q;
	struct errbuf err;
	for (uint64_t seed = 0; seed < 200; seed++) {
		ck_assert_int_eq(quiz_make(&q, &TR, 0, STAGE_SCORING, seed, 4,
					   &err), 0);
		ck_assert_double_gt(fabs(q.expected), 1e-4);
	}
}
END_TEST

START_TEST(test_stage_parse)
{
	enum trace_stage st;
	ck_assert_int_eq(quiz_stage_parse("scoring", &st), 0);
	ck_assert_int_eq(st, STAGE_SCORING);
	ck_assert_int_eq(quiz_stage_parse("softmax", &st), 0);
	ck_assert_int_eq(st, STAGE_SOFTMAX);
	ck_assert_int_eq(quiz_stage_parse("weighted-sum", &st), 0);
	ck_assert_int_eq(st, STAGE_WEIGHTED_SUM);
	ck_assert_int_eq(quiz_stage_parse("output", &st), -1);
	ck_assert_int_eq(quiz_stage_parse("Softmax", &st), -1);
	ck_assert_int_eq(quiz_stage_parse("", &st), -1);
}
END_TEST

/* --- the tolerance and answers ---------------------------------------- */

START_TEST(test_tolerance_rule)
{
	ck_assert_double_eq_tol(quiz_tolerance(0.0, 4), 0.0005, 1e-15);
	ck_assert_double_eq_tol(quiz_tolerance(1.0, 4), 0.0010, 1e-15);
	ck_assert_double_eq_tol(quiz_tolerance(-2.0, 4), 0.0015, 1e-15);
	ck_assert_double_eq_tol(quiz_tolerance(0.0, 2), 0.05, 1e-15);
	ck_assert_double_eq_tol(quiz_tolerance(0.0, 0), 0.05, 1e-15);
	ck_assert_double_eq_tol(quiz_tolerance(0.0, 17), 5e-8, 1e-20);
}
END_TEST

/* Checks the answer written as x (shortest form) against q. */
static enum quiz_result check_num(const struct quiz_question *q, double x)
{
	char buf[NUM_BUFSZ];
	struct quiz_answer a;
	return quiz_check(q, num_shortest(buf, x), &a);
}

START_TEST(test_tolerance_boundary)
{
	struct quiz_question q;
	for (int st = STAGE_SCORING; st <= STAGE_WEIGHTED_SUM; st++) {
		make_at(&q, 2, st, 1, 1, 1); /* concat: a score near -2.46 */
		double x = q.expected, tol = q.tolerance;
		ck_assert_double_eq_tol(tol, 0.0005 * (1 + fabs(x)), 1e-15);
		ck_assert_int_eq(check_num(&q, x), QUIZ_RIGHT);
		ck_assert_int_eq(check_num(&q, x + 0.999 * tol), QUIZ_RIGHT);
		ck_assert_int_eq(check_num(&q, x - 0.999 * tol), QUIZ_RIGHT);
		ck_assert_int_eq(check_num(&q, x + 1.001 * tol), QUIZ_WRONG);
		ck_assert_int_eq(check_num(&q, x - 1.001 * tol), QUIZ_WRONG);
	}
}
END_TEST

static const struct {
	const char *text;
	enum quiz_result want;
	const char *hint; /* a fragment of the hint, or NULL */
} answers[] = {
	{ "0.57", QUIZ_RIGHT, NULL },           /* α_1,1 = 0.57037... */
	{ "0.5704", QUIZ_RIGHT, NULL },
	{ " +0.5704 \n", QUIZ_RIGHT, NULL },
	{ "\t0.5704\r\n", QUIZ_RIGHT, NULL },
	{ ".5704", QUIZ_RIGHT, NULL },
	{ "5.704e-1", QUIZ_RIGHT, NULL },
	{ "0.5715", QUIZ_WRONG, NULL },
	{ "0.5", QUIZ_WRONG, NULL },
	{ "-0.5704", QUIZ_WRONG, NULL },
	{ "1", QUIZ_WRONG, NULL },
	{ "1,5", QUIZ_UNPARSEABLE, "'.'" },
	{ "0,5704", QUIZ_UNPARSEABLE, "'.'" },
	{ "abc", QUIZ_UNPARSEABLE, "not a number" },
	{ "0.5704abc", QUIZ_UNPARSEABLE, "not a number" },
	{ "0.57 04", QUIZ_UNPARSEABLE, "not a number" },
	{ "nan", QUIZ_UNPARSEABLE, "not a number" },
	{ "inf", QUIZ_UNPARSEABLE, "not a number" },
	{ "0x1p-1", QUIZ_UNPARSEABLE, "not a number" },
	{ "1e999", QUIZ_UNPARSEABLE, "too large" },
	{ "", QUIZ_UNPARSEABLE, "Type a number" },
	{ "   \n", QUIZ_UNPARSEABLE, "Type a number" },
	{ "+", QUIZ_UNPARSEABLE, "not a number" },
};

START_TEST(test_answer_parsing)
{
	struct quiz_question q;
	struct quiz_answer a;
	make_at(&q, 0, STAGE_SOFTMAX, 1, 1, 0);
	enum quiz_result r = quiz_check(&q, answers[_i].text, &a);
	ck_assert_msg(r == answers[_i].want, "'%s': got %d, expected %d",
		      answers[_i].text, r, answers[_i].want);
	ck_assert_int_eq(a.result, r);
	if (answers[_i].hint) {
		ck_assert_ptr_nonnull(a.hint);
		ck_assert_msg(strstr(a.hint, answers[_i].hint) != NULL,
			      "'%s': hint '%s' lacks '%s'", answers[_i].text,
			      a.hint, answers[_i].hint);
	} else {
		ck_assert_ptr_null(a.hint);
	}
}
END_TEST

START_TEST(test_answer_minus_sign)
{
	struct quiz_question q;
	struct quiz_answer a;
	make_at(&q, 0, STAGE_SCORING, 4, 1, 0); /* e_4,1 = -0.4507 */
	ck_assert_double_lt(q.expected, 0.0);
	ck_assert_int_eq(quiz_check(&q, "-0.4507", &a), QUIZ_RIGHT);
	ck_assert_int_eq(quiz_check(&q, "\xE2\x88\x92" "0.4507", &a),
			 QUIZ_RIGHT); /* U+2212, as typeset */
	ck_assert_double_eq_tol(a.value, -0.4507, 1e-12);
	ck_assert_str_eq(a.text, "-0.4507");
	ck_assert_int_eq(quiz_check(&q, "-.4507", &a), QUIZ_RIGHT);
	ck_assert_str_eq(a.text, "-0.4507");
	ck_assert_int_eq(quiz_check(&q, " +1E2\n", &a), QUIZ_WRONG);
	ck_assert_str_eq(a.text, "+1E2"); /* as typed, for the feedback */
	ck_assert_int_eq(quiz_check(&q, "x", &a), QUIZ_UNPARSEABLE);
	ck_assert_str_eq(a.text, "");
	ck_assert_int_eq(quiz_check(&q, "0.4507", &a), QUIZ_WRONG);
}
END_TEST

/* --- text --------------------------------------------------------------- */

static char *buf;
static size_t buflen;

/* Renders what fn writes for q into buf and returns it. */
static const char *render(int (*fn)(FILE *, const struct quiz_question *),
			  const struct quiz_question *q)
{
	free(buf);
	buf = NULL;
	FILE *f = open_memstream(&buf, &buflen);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fn(f, q), 0);
	fclose(f);
	return buf;
}

static void text_teardown(void)
{
	free(buf);
	buf = NULL;
	teardown();
}

static void has(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want) != NULL, "'%s' not in:\n%s", want,
		      text);
}

static void lacks(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want) == NULL, "'%s' in:\n%s", want, text);
}

START_TEST(test_worked_has_formula)
{
	struct quiz_question q;
	for (int run = 0; run < TR.nruns; run++)
		for (int st = STAGE_SCORING; st <= STAGE_WEIGHTED_SUM; st++) {
			make_at(&q, run, st, 2, 3, 3);
			const char *w = render(quiz_worked_text, &q);
			struct trace_names nm;
			trace_names(q.tr, q.rec, &nm);
			has(w, nm.formula);
			has(w, nm.symbol);
		}
}
END_TEST

START_TEST(test_prompt_dot)
{
	struct quiz_question q;
	make_at(&q, 0, STAGE_SCORING, 1, 1, 0);
	const char *p = render(quiz_prompt_text, &q);
	has(p, "  s_1                                 (4)   "
	       "[ 0.9898,  0.0000,  0.0000,  0.0000]\n");
	has(p, "  h_1                                 (4)   "
	       "[ 0.9866,  0.0000,  0.0000,  0.1974]\n");
	has(p, "What is the score e_1,1 = s_1·h_1?\n");
	has(p, "within 0.0005 × (1 + |e_1,1|) counts");
	lacks(p, "0.9765"); /* never the answer */
	has(render(quiz_answer_text, &q), "e_1,1 = 0.9765\n");
	/* 84 columns: broken at the last blank that leaves 80 or fewer */
	has(render(quiz_worked_text, &q), "e_1,1 = s_1·h_1 = 0.9898×0.9866 "
	    "+ 0.0000×0.0000 + 0.0000×0.0000 + 0.0000×0.1974\n    = 0.9765\n");
}
END_TEST

START_TEST(test_prompt_general_concat)
{
	struct quiz_question q;
	make_at(&q, 1, STAGE_SCORING, 1, 2, 0);
	const char *p = render(quiz_prompt_text, &q);
	has(p, "  s_1 ");
	has(p, "  W_a·h_2 ");
	has(p, "e_1,2 = s_1·(W_a·h_2)?");
	make_at(&q, 2, STAGE_SCORING, 1, 2, 0);
	p = render(quiz_prompt_text, &q);
	has(p, "  v_a ");
	has(p, "  tanh(W_a·[s_1; h_2]) ");
	has(p, "e_1,2 = v_a·tanh(W_a·[s_1; h_2])?");
}
END_TEST

START_TEST(test_prompt_softmax_weighted)
{
	struct quiz_question q;
	make_at(&q, 0, STAGE_SOFTMAX, 1, 2, 0);
	const char *p = render(quiz_prompt_text, &q);
	has(p, "  e_1                                 (3)   "
	       "[ 0.9765,  0.0000,  0.0000]\n");
	has(p, "h_2 (suis), α_1,2 = ");
	lacks(p, "0.2148");
	make_at(&q, 0, STAGE_WEIGHTED_SUM, 1, 0, 4);
	p = render(quiz_prompt_text, &q);
	has(p, "  α_1                                 (3)   "
	       "[ 0.5704,  0.2148,  0.2148]\n");
	has(p, "  h_3 (étudiant)                      (4)   ");
	has(p, "c_1[4] = Σ_i α_1,i·h_i[4]?");
	lacks(p, "0.2249");
	const char *w = render(quiz_worked_text, &q);
	has(w, "c_1[4] = 0.5704×0.1974 + 0.2148×0.2536 + 0.2148×0.2693 = "
	    "0.2249\n");
	has(w, "c_1 = Σ_i α_1,i·h_i ");
}
END_TEST

/* The prompt at another precision: the operands, and the rule. */
START_TEST(test_prompt_precision)
{
	struct quiz_question q;
	struct errbuf err;
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_SOFTMAX, 1, 1, 0, 2,
				      &err), 0);
	const char *p = render(quiz_prompt_text, &q);
	has(p, "[ 0.98,  0.00,  0.00]");
	has(p, "Give 2 decimal places; an answer within 0.05 × (1 + |α_1,1|)");
	ck_assert_int_eq(quiz_make_at(&q, &TR, 0, STAGE_SOFTMAX, 1, 1, 0, 0,
				      &err), 0);
	ck_assert_int_eq(q.precision, QUIZ_MIN_PREC);
}
END_TEST

START_TEST(test_feedback)
{
	struct quiz_question q;
	struct quiz_answer a;
	FILE *f;
	make_at(&q, 0, STAGE_SCORING, 1, 1, 0);
	const char *cases[] = { "0.9765", "0.5", "0.97", "1,5" };
	const char *want[] = { "right: e_1,1 = 0.9765\n",
			       "not quite: e_1,1 = 0.9765, not 0.5.\nThe "
			       "worked arithmetic:\ne_1,1 = s_1·h_1 = ",
			       "not 0.97 (close: give 4 decimal places).",
			       "Write the decimal point as '.'" };
	for (int k = 0; k < 4; k++) {
		quiz_check(&q, cases[k], &a);
		free(buf);
		buf = NULL;
		f = open_memstream(&buf, &buflen);
		ck_assert_int_eq(quiz_feedback_text(f, &q, &a), 0);
		fclose(f);
		has(buf, want[k]);
	}
	lacks(buf, "0.9765");
}
END_TEST

/* --- quiz directives in lessons ----------------------------------------- */

#define LESSON "title: T\nsentence: " SENTENCE "\npage: P\n"
/* the same on the hand-set model, whose numbers the answers below are */
#define LESSON_HANDSET "title: T\nmodel: handset4\nsentence: " SENTENCE \
	"\npage: P\n"

/* Parses and prepares text; returns 0, or -1 with err filled. */
static int lesson_try(struct lesson *l, struct model *m, struct trace *tr,
		      const char *text, struct errbuf *err)
{
	if (lesson_parse(l, text, strlen(text), "t.lesson", err) != 0)
		return -1;
	return lesson_prepare(l, m, tr, err);
}

static void lesson_err(const char *line, const char *want)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	char text[512];
	snprintf(text, sizeof text, LESSON "%s\n", line);
	err.msg[0] = '\0';
	int rc = lesson_try(&l, &m, &tr, text, &err);
	if (rc == 0) {
		trace_free(&tr);
		model_free(&m);
	}
	lesson_free(&l);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(err.msg, want);
}

START_TEST(test_lesson_directive)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	const char *text = LESSON_HANDSET "Text.\n\nquiz softmax i=2 t=3\n"
		"quiz weighted-sum t=1 k=4 scorer=general  # a comment\n"
		"page: Q\nquiz scoring t=2 i=1\n";
	if (lesson_try(&l, &m, &tr, text, &err) != 0)
		ck_abort_msg("%s", err.msg);
	const struct lesson_show *sh = &l.pages[0].blocks[1].show;
	ck_assert_int_eq(sh->what, SHOW_QUIZ);
	ck_assert_int_eq(sh->stage, STAGE_SOFTMAX);
	ck_assert(sh->t == 3 && sh->i == 2 && sh->k == 0 && sh->scorer == -1);
	ck_assert_int_eq(sh->col_t, 18);
	sh = &l.pages[0].blocks[2].show;
	ck_assert_int_eq(sh->stage, STAGE_WEIGHTED_SUM);
	ck_assert(sh->t == 1 && sh->k == 4 && sh->scorer == SCORER_general);
	ck_assert_int_eq(sh->col_k, 23);
	ck_assert_ptr_eq(lesson_page_quiz(&l, 0), &l.pages[0].blocks[1].show);
	ck_assert_ptr_eq(lesson_page_quiz(&l, 1), &l.pages[1].blocks[0].show);
	ck_assert_ptr_null(lesson_page_quiz(&l, 2));

	struct quiz_question q;
	ck_assert_int_eq(lesson_quiz_make(&q, &l, sh, &tr, 0, 4, &err), 0);
	ck_assert_int_eq(q.run, SCORER_general); /* its own scorer wins */
	ck_assert_int_eq(lesson_quiz_make(&q, &l, &l.pages[1].blocks[0].show,
					  &tr, 2, 4, &err), 0);
	ck_assert_int_eq(q.run, 2); /* the stepper's scorer */

	struct fmt_opts o;
	fmt_opts_default(&o);
	FILE *f = open_memstream(&buf, &buflen);
	ck_assert_int_eq(lesson_plain(f, &l, &tr, &o, 76, 1), 0);
	fclose(f);
	has(buf, "Quiz: work it out by hand.\nThe scores of step 3");
	has(buf, "(general scorer)\nQuiz: work it out by hand.\nThe weights "
	    "of step 1");
	/* the answers collected after the pages, not under each question */
	const char *ans = strstr(buf, "\n\n[answers]\n");
	ck_assert_ptr_nonnull(ans);
	ck_assert_ptr_null(strstr(buf, "counts.\n\n(answer:"));
	has(ans, "\n(answer: α_3,2 = 0.2129)\n(answer: c_1[4] = ");
	has(buf, "(answer: e_2,1 = 0.0000)\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &buflen);
	ck_assert_int_eq(lesson_page_text(f, &l, 0, &tr, &o, 76), 0);
	fclose(f);
	lacks(buf, "(answer:"); /* the stepper's page keeps its answers */
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_errors)
{
	lesson_err("quiz", "t.lesson:4:5: expected what to ask (scoring, "
		   "softmax, weighted-sum, hard-draw, or glimpse-KIND on a "
		   "lesson's glimpses (place, draw, retina, glimpse, core, "
		   "class or reinforce)), found the end of the line");
	lesson_err("quiz output t=1", "t.lesson:4:6: expected what to ask "
		   "(scoring, softmax, weighted-sum, hard-draw, or "
		   "glimpse-KIND on a lesson's glimpses (place, draw, retina, "
		   "glimpse, core, class or reinforce)), found 'output'");
	lesson_err("quiz softmax t=1", "t.lesson:4:17: expected i=N after "
		   "'quiz softmax', found the end of the line");
	lesson_err("quiz weighted-sum t=1", "t.lesson:4:22: expected k=N "
		   "after 'quiz weighted-sum', found the end of the line");
	lesson_err("quiz scoring t=1 i=1 k=2", "t.lesson:4:22: expected t=N, "
		   "i=N or scorer=NAME after 'quiz scoring', found 'k=2'");
	lesson_err("quiz weighted-sum t=1 i=1 k=2", "t.lesson:4:23: expected "
		   "t=N, k=N or scorer=NAME after 'quiz weighted-sum', found "
		   "'i=1'");
	lesson_err("quiz scoring t=1 i=1 arithmetic", "t.lesson:4:22: "
		   "expected t=N, i=N or scorer=NAME after 'quiz scoring', "
		   "found 'arithmetic'");
	lesson_err("quiz scoring t=1 i=1 x=1", "t.lesson:4:22: expected t=N, "
		   "i=N, k=N or scorer=NAME, found 'x=1'");
	lesson_err("quiz softmax t=1 i=1 i=2", "t.lesson:4:22: expected i=N "
		   "once, found it again: 'i=2'");
	lesson_err("quiz weighted-sum t=1 k=0", "t.lesson:4:23: expected k= "
		   "from 1 to 64 (coordinates count from 1), found 'k=0'");
	lesson_err("show score t=1 i=1 k=2", "t.lesson:4:20: expected t=N, "
		   "i=N, scorer=NAME, model=PATH, window=NAME or arithmetic, "
		   "found 'k=2'");
	/* checked against the trace, like show */
	lesson_err("quiz softmax t=9 i=1", "t.lesson:4:14: expected t= from 1 "
		   "to 5 (the dot scorer decodes \"" SENTENCE "\" in 5 "
		   "steps), found 't=9'");
	lesson_err("quiz scoring t=1 i=4", "t.lesson:4:18: expected i= from 1 "
		   "to 3 (\"" SENTENCE "\" has 3 words), found 'i=4'");
	lesson_err("quiz weighted-sum t=1 k=5", "t.lesson:4:23: expected k= "
		   "from 1 to 4 (c_t has 4 coordinates), found 'k=5'");
}
END_TEST

START_TEST(test_lesson_before_page)
{
	struct lesson l;
	struct errbuf err;
	const char *text = "title: T\nsentence: je\nquiz softmax t=1 i=1\n";
	ck_assert_int_eq(lesson_parse(&l, text, strlen(text), "t.lesson",
				      &err), -1);
	lesson_free(&l);
	ck_assert_str_eq(err.msg, "t.lesson:3:1: expected a header line 'KEY: "
			 "value' or 'page:', found a 'quiz' line before the "
			 "first page");
	/* "quiz" as the start of a word is narrative, and so is "\quiz" */
	text = LESSON "quizzes are fun\n\\quiz me\n";
	if (lesson_parse(&l, text, strlen(text), "t.lesson", &err) != 0)
		ck_abort_msg("%s", err.msg);
	ck_assert_int_eq(l.pages[0].nblocks, 1);
	ck_assert_str_eq(l.pages[0].blocks[0].text, "quizzes are fun quiz me");
	lesson_free(&l);
}
END_TEST

/* hard-draw: on a --hard=sample trace (seed 5), l_t from u_t and the
 * cumulative sums, worked here from α_t (the softmax record) and u_t drawn
 * again by a SplitMix64 of this test's own; on an argmax trace, an error. */
static uint64_t hd_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

START_TEST(test_hard_draw)
{
	struct trace tr;
	struct errbuf err;
	struct quiz_question q;
	struct quiz_answer a;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	uint64_t rng = 5;
	char want[64];
	int draws[3] = { 0, 0, 0 };

	cfg.selection = SELECTION_hard;
	cfg.seed = 5;
	ck_assert(tok_trace(&tr, &M, SENTENCE, NULL, 1u << SCORER_dot, &cfg,
			    &err) == 0);
	for (int t = 1; t <= tr.runs[0].nsteps; t++) {
		const struct trace_rec *sm = trace_find(&tr, REC_SOFTMAX, 0, t, 0);
		double u = (double)(hd_next(&rng) >> 11) * 0x1.0p-53, cum = 0;
		int l = 0;
		ck_assert_ptr_nonnull(sm);
		while (l < tr.n && !(u < (cum += sm->result[l])))
			l++;
		ck_assert_int_lt(l, tr.n);
		draws[l < 3 ? l : 2]++;
		ck_assert(quiz_make_at(&q, &tr, 0, QUIZ_HARD_DRAW, t, 0, 0, 4,
				       &err) == 0);
		ck_assert_int_eq((int)q.expected, l + 1);
		snprintf(want, sizeof want, "l_%d", t);
		ck_assert_str_eq(q.symbol, want);
		snprintf(want, sizeof want, "%d", l + 1);
		ck_assert_int_eq(quiz_check(&q, want, &a), QUIZ_RIGHT);
		snprintf(want, sizeof want, "%d", l == 0 ? 2 : l);
		ck_assert_int_eq(quiz_check(&q, want, &a), QUIZ_WRONG);
		snprintf(want, sizeof want, "u_%d = %.4f", t, u);
		has(render(quiz_prompt_text, &q), want);
		snprintf(want, sizeof want, "l_%d = %d (", t, l + 1);
		has(render(quiz_answer_text, &q), want);
	}
	trace_free(&tr);
	/* quiz_make picks a step and asks the same kind */
	cfg.hard_rule = 1; /* argmax: nothing is drawn */
	ck_assert(tok_trace(&tr, &M, SENTENCE, NULL, 1u << SCORER_dot, &cfg,
			    &err) == 0);
	ck_assert(quiz_make_at(&q, &tr, 0, QUIZ_HARD_DRAW, 1, 0, 0, 4,
			       &err) != 0);
	has(err.msg, "--hard=sample");
	trace_free(&tr);
	ck_assert(quiz_stage_parse("hard-draw", &q.stage) == 0 &&
		  q.stage == QUIZ_HARD_DRAW);
	ck_assert_str_eq(quiz_stage_name(QUIZ_HARD_DRAW), "hard-draw");
}
END_TEST

/* quiz_read_answer: lines without their LF or CRLF, q and quit between
 * blanks, a line past QUIZ_MAX_ANSWER skipped whole (and the next line
 * read), the end; nothing is allocated, so no line is ever held whole. */
START_TEST(test_read_answer)
{
	size_t big = 3 * QUIZ_MAX_ANSWER + 5, n = 0;
	char *text = malloc(big + 64), line[QUIZ_MAX_ANSWER + 1];
	ck_assert_ptr_nonnull(text);
	n += (size_t)sprintf(text + n, "0.5\r\n  q \n");
	memset(text + n, '1', big);
	n += big;
	n += (size_t)sprintf(text + n, "\n-1.25\n quit\nlast");
	FILE *in = fmemopen(text, n, "r");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_ANSWER);
	ck_assert_str_eq(line, "0.5");
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_QUIT);
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_LONG);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_ANSWER);
	ck_assert_str_eq(line, "-1.25");
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_QUIT);
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_ANSWER);
	ck_assert_str_eq(line, "last");
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_END);
	fclose(in);
	/* a line of exactly QUIZ_MAX_ANSWER bytes is kept */
	memset(text, '2', QUIZ_MAX_ANSWER);
	text[QUIZ_MAX_ANSWER] = '\n';
	in = fmemopen(text, QUIZ_MAX_ANSWER + 1, "r");
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_ANSWER);
	ck_assert_uint_eq(strlen(line), QUIZ_MAX_ANSWER);
	fclose(in);
	/* a stream that cannot be read is an error, not the end */
	in = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(quiz_read_answer(in, line), QUIZ_READ_ERROR);
	fclose(in);
	free(text);
}
END_TEST

static Suite *quiz_suite(void)
{
	Suite *s = suite_create("quiz");
	TCase *tc = tcase_create("expected");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_scoring_expected, 0, SCORER_COUNT);
	tcase_add_loop_test(tc, test_softmax_expected, 0, SCORER_COUNT);
	tcase_add_loop_test(tc, test_weighted_expected, 0, SCORER_COUNT);
	tcase_add_test(tc, test_known_values);
	tcase_add_test(tc, test_make_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("seed");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rand_reference);
	tcase_add_test(tc, test_seed_deterministic);
	tcase_add_test(tc, test_seed_avoids_zero);
	tcase_add_test(tc, test_stage_parse);
	suite_add_tcase(s, tc);

	tc = tcase_create("answers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tolerance_rule);
	tcase_add_test(tc, test_tolerance_boundary);
	tcase_add_loop_test(tc, test_answer_parsing, 0,
			    (int)(sizeof answers / sizeof answers[0]));
	tcase_add_test(tc, test_answer_minus_sign);
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_checked_fixture(tc, setup, text_teardown);
	tcase_add_test(tc, test_hard_draw);
	tcase_add_test(tc, test_worked_has_formula);
	tcase_add_test(tc, test_prompt_dot);
	tcase_add_test(tc, test_prompt_general_concat);
	tcase_add_test(tc, test_prompt_softmax_weighted);
	tcase_add_test(tc, test_prompt_precision);
	tcase_add_test(tc, test_feedback);
	suite_add_tcase(s, tc);

	tc = tcase_create("lessons");
	tcase_add_checked_fixture(tc, setup, text_teardown);
	tcase_add_test(tc, test_lesson_directive);
	tcase_add_test(tc, test_lesson_errors);
	tcase_add_test(tc, test_lesson_before_page);
	tcase_add_test(tc, test_read_answer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(quiz_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
