/* check_predict.c: predict, then reveal (src/predict.c, the "predict"
 * lines of lessons, and the stepper's page that hides its numbers until
 * the learner answers).
 *
 * The expected answers are worked out here from the hand-set model's
 * design (data/handset4.model: s_1 points along h_1, so step 1 looks at
 * je) and from the softmax formula, never read off the program. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "predict.h"
#include "view.h"
#include "view_key.h"

/* --- predict_answer alone -------------------------------------------- */

static const char *const words[] = { "je", "suis", "étudiant" };

static struct predict_q word_q(int expected)
{
	struct predict_q q;
	memset(&q, 0, sizeof q);
	q.kind = PREDICT_WORD;
	q.expected = expected;
	q.names = words;
	q.nwords = 3;
	q.hint = "the hint";
	snprintf(q.answer, sizeof q.answer, "%s", words[expected - 1]);
	return q;
}

/* A wrong answer gets the hint and a second try; a second wrong answer
 * the worked answer; then nothing changes. */
START_TEST(test_hint_then_second_try_then_answer)
{
	struct predict_q q = word_q(1);
	struct predict_try t = { 0 };
	ck_assert_int_eq(predict_answer(&q, &t, "suis"), PREDICT_HINT);
	ck_assert_int_eq(t.done, 0);
	ck_assert_int_eq(t.wrong, 1);
	ck_assert_int_eq(predict_answer(&q, &t, " 3 "), PREDICT_REVEAL);
	ck_assert_int_eq(t.done, 1);
	ck_assert_int_eq(t.right, 0);
	/* settled: a right answer now changes nothing */
	ck_assert_int_eq(predict_answer(&q, &t, "je"), PREDICT_REVEAL);
	ck_assert_int_eq(t.right, 0);
}
END_TEST

/* Right at the second try, after the hint; right at once. */
START_TEST(test_right)
{
	struct predict_q q = word_q(3);
	struct predict_try t = { 0 };
	ck_assert_int_eq(predict_answer(&q, &t, "je"), PREDICT_HINT);
	ck_assert_int_eq(predict_answer(&q, &t, "ÉTUDIANT"), PREDICT_RIGHT);
	ck_assert_int_eq(t.done, 1);
	ck_assert_int_eq(t.right, 1);
	struct predict_try u = { 0 };
	ck_assert_int_eq(predict_answer(&q, &u, "3\n"), PREDICT_RIGHT);
	ck_assert_int_eq(u.wrong, 0);
}
END_TEST

/* Text that is not an answer of the kind asked costs no try. */
START_TEST(test_unreadable)
{
	struct predict_q q = word_q(1);
	struct predict_try t = { 0 };
	ck_assert_int_eq(predict_answer(&q, &t, "chat"), PREDICT_UNREADABLE);
	ck_assert_int_eq(predict_answer(&q, &t, "4"), PREDICT_UNREADABLE);
	ck_assert_int_eq(predict_answer(&q, &t, "1.5"), PREDICT_UNREADABLE);
	ck_assert_int_eq(predict_answer(&q, &t, ""), PREDICT_UNREADABLE);
	ck_assert_int_eq(t.wrong, 0);
	ck_assert_int_eq(t.done, 0);
	ck_assert_int_eq(predict_answer(&q, &t, "suis"), PREDICT_HINT);
	ck_assert_int_eq(predict_answer(&q, &t, "maybe"), PREDICT_UNREADABLE);
	ck_assert_int_eq(t.done, 0);
}
END_TEST

START_TEST(test_yesno)
{
	struct predict_q q;
	struct predict_try t = { 0 };
	memset(&q, 0, sizeof q);
	q.kind = PREDICT_YESNO;
	q.expected = 0;
	ck_assert_int_eq(predict_answer(&q, &t, "perhaps"),
			 PREDICT_UNREADABLE);
	ck_assert_int_eq(predict_answer(&q, &t, "Y"), PREDICT_HINT);
	ck_assert_int_eq(predict_answer(&q, &t, "no"), PREDICT_RIGHT);
}
END_TEST

/* A number counts when it is the value rounded to the decimals asked:
 * 0.7204 at 1 decimal is 0.7; 0.65 and 0.8 are not. */
START_TEST(test_number)
{
	struct predict_q q;
	memset(&q, 0, sizeof q);
	q.kind = PREDICT_NUMBER;
	q.expected = 0.7204;
	q.decimals = 1;
	struct predict_try t = { 0 };
	ck_assert_int_eq(predict_answer(&q, &t, "0,7"), PREDICT_UNREADABLE);
	ck_assert_int_eq(predict_answer(&q, &t, "0.8"), PREDICT_HINT);
	ck_assert_int_eq(predict_answer(&q, &t, "0.65"), PREDICT_REVEAL);
	struct predict_try u = { 0 };
	ck_assert_int_eq(predict_answer(&q, &u, ".7"), PREDICT_RIGHT);
	q.expected = -0.4507; /* rounds to -0.5 */
	struct predict_try w = { 0 };
	ck_assert_int_eq(predict_answer(&q, &w, "−0.5"), PREDICT_RIGHT);
	/* a whole number asked: 2.9 is no answer (no try used), 3 is */
	q.expected = 2.8732;
	q.decimals = 0;
	struct predict_try x = { 0 };
	ck_assert_int_eq(predict_answer(&q, &x, "2.9"), PREDICT_UNREADABLE);
	ck_assert_int_eq(predict_answer(&q, &x, "3"), PREDICT_RIGHT);
}
END_TEST

/* --- in a lesson ------------------------------------------------------ */

#define LESSON \
	"title: t\nsentence: je suis étudiant\nmodel: handset4\n" \
	"page: p\nWhich word will step 1 look at?\n" \
	"predict argmax(α_1)\nhint Where s_1 points.\n\n" \
	"SECRET-PROSE\n\nshow weights t=1\n" \
	"page: q\nAbove a half?\npredict max(α_1) > 0.5\nhint Two zeros.\n" \
	"show softmax t=1\n" \
	"page: r\nIn your head.\npredict {e_1,1:1}\nhint Add.\n" \
	"show score t=1 i=1\n"

static struct lesson L;
static struct model M;
static struct trace T;

static void lesson_setup(void)
{
	struct errbuf err;
	if (lesson_parse(&L, LESSON, strlen(LESSON), "t.lesson", &err) != 0 ||
	    lesson_prepare(&L, &M, &T, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
}

static void lesson_teardown(void)
{
	trace_free(&T);
	model_free(&M);
	lesson_free(&L);
}

/* The answers are the trace's: handset4's s_1 is the first unit
 * direction, as h_1 is, so e_1 = [e, 0, 0] with e > 0 and step 1 looks
 * at je; α_1,1 = 1 / (1 + 2 exp(-e)), above one half when e > ln 2. */
START_TEST(test_lesson_answers)
{
	struct predict_q q;
	char why[512];
	ck_assert_int_eq(lesson_predict_make(&q, &L, L.pages[0].predict, &T,
					     4, why, sizeof why), 0);
	ck_assert_int_eq(q.kind, PREDICT_WORD);
	ck_assert_int_eq((int)q.expected, 1);
	ck_assert_str_eq(q.answer, "je");
	ck_assert_str_eq(q.hint, "Where s_1 points.");
	ck_assert_int_eq(q.nwords, 3);
	ck_assert_str_eq(predict_word(&q, 2), "étudiant");

	/* e_1,1 = s_1[1]·h_1[1] = tanh(·)·tanh(·), each near 0.99 */
	const struct trace_rec *r = trace_find(&T, REC_SCORE, 0, 1, 1);
	ck_assert_ptr_nonnull(r);
	double e = r->result[0];
	ck_assert(e > 0.9 && e < 1);
	double a11 = 1 / (1 + 2 * exp(-e));
	ck_assert_int_eq(lesson_predict_make(&q, &L, L.pages[1].predict, &T,
					     4, why, sizeof why), 0);
	ck_assert_int_eq(q.kind, PREDICT_YESNO);
	ck_assert_int_eq((int)q.expected, a11 > 0.5);
	ck_assert_str_eq(q.answer, "yes");

	ck_assert_int_eq(lesson_predict_make(&q, &L, L.pages[2].predict, &T,
					     4, why, sizeof why), 0);
	ck_assert_int_eq(q.kind, PREDICT_NUMBER);
	ck_assert_int_eq(q.decimals, 1);
	ck_assert_double_eq_tol(q.expected, e, 1e-12);
	ck_assert_str_eq(q.answer, "1.0");
}
END_TEST

/* --plain's page shows everything, and the line of what to type; the
 * hidden rendering stops at that line. */
START_TEST(test_lesson_text)
{
	struct fmt_opts o;
	char *text = NULL;
	size_t len = 0;
	fmt_opts_default(&o);
	FILE *f = open_memstream(&text, &len);
	lesson_page_text(f, &L, 0, &T, &o, 76);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "Predict: type one word (je, suis "
				     "or étudiant) or its position, then "
				     "Enter."));
	ck_assert_ptr_nonnull(strstr(text, "SECRET-PROSE"));
	ck_assert_ptr_nonnull(strstr(text, "<- largest"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	lesson_page_text_predict(f, &L, 0, &T, &o, 76, 1, "INSERTED\n");
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "Which word will step 1 look at?"));
	ck_assert_ptr_nonnull(strstr(text, "Predict: type one word"));
	ck_assert_ptr_nonnull(strstr(text, "INSERTED"));
	ck_assert_ptr_null(strstr(text, "SECRET-PROSE"));
	ck_assert_ptr_null(strstr(text, "largest"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	lesson_page_answers(f, &L, 0, &T, &o);
	lesson_page_answers(f, &L, 1, &T, &o);
	lesson_page_answers(f, &L, 2, &T, &o);
	fclose(f);
	ck_assert_str_eq(text, "\n(prediction: argmax(α_1) = je)\n"
			 "\n(prediction: max(α_1) > 0.5? yes)\n"
			 "\n(prediction: e_1,1 = 1.0)\n");
	free(text);
}
END_TEST

/* --- the stepper's page ----------------------------------------------- */

static struct view V;

/* 1 if the screen's body holds s. */
static int shows(const char *s)
{
	struct view_screen sc;
	int found = 0;
	view_render(&V, &sc);
	for (int k = 0; k < sc.nbody; k++)
		found |= strstr(sc.body[k], s) != NULL;
	view_screen_free(&sc);
	return found;
}

static void type(const char *s)
{
	for (; *s; s++)
		view_key(&V, (unsigned char)*s);
}

/* Wrong: the hint, the numbers still hidden; wrong again: the worked
 * answer and the numbers. */
START_TEST(test_view_wrong_twice)
{
	view_init(&V, &T, &L, 4, 78);
	ck_assert(shows("Press z or Enter to answer"));
	ck_assert(!shows("SECRET-PROSE"));
	view_key(&V, 'z');
	ck_assert(shows("answer> _"));
	type("suis");
	ck_assert(shows("answer> suis_"));
	view_key(&V, VIEW_KEY_ENTER);
	ck_assert(shows("Not suis. Hint: Where s_1 points. Try again."));
	ck_assert(!shows("SECRET-PROSE"));
	ck_assert(shows("answer> _"));
	type("chat\n"); /* not a word of the sentence: no try used */
	ck_assert(shows("Type one of the words"));
	ck_assert(!shows("SECRET-PROSE"));
	type("étudiant\n");
	ck_assert(shows("Not étudiant either. The answer is je: argmax(α_1) "
			"= 1 (je)."));
	ck_assert(shows("SECRET-PROSE"));
	ck_assert(shows("<- largest"));
	/* revealed for good: away and back, the numbers stay */
	view_key(&V, VIEW_KEY_RIGHT);
	view_key(&V, VIEW_KEY_LEFT);
	ck_assert_int_eq(V.pos, 0);
	ck_assert(shows("SECRET-PROSE"));
	view_free(&V);
}
END_TEST

/* Right at once; a page left unanswered starts afresh; s, a and h still
 * work while the answer line is closed. */
START_TEST(test_view_right)
{
	view_init(&V, &T, &L, 4, 78);
	view_key(&V, VIEW_KEY_RIGHT);
	ck_assert_int_eq(V.pos, 1);
	ck_assert(shows("Predict: type y (yes) or n (no), then Enter."));
	view_key(&V, VIEW_KEY_ENTER);
	type("n\n");
	ck_assert(shows("Not n. Hint: Two zeros. Try again."));
	view_key(&V, VIEW_KEY_RIGHT); /* the line is open: a key closes it */
	ck_assert_int_eq(V.pos, 2);
	view_key(&V, VIEW_KEY_LEFT);
	ck_assert(!shows("Hint"));
	int run = V.run;
	view_key(&V, 's');
	ck_assert_int_ne(V.run, run);
	view_key(&V, '1'); /* a digit opens the line and is typed */
	ck_assert(shows("answer> 1_"));
	view_key(&V, VIEW_KEY_BACKSPACE);
	/* the run s chose: its own answer, max(α_1) > 0.5 from its record */
	const struct trace_rec *r = trace_find(&T, REC_SOFTMAX, V.run, 1, 0);
	ck_assert_ptr_nonnull(r);
	double mx = r->result[0];
	for (int k = 1; k < r->len; k++)
		mx = r->result[k] > mx ? r->result[k] : mx;
	type(mx > 0.5 ? "y\n" : "n\n");
	ck_assert(shows(mx > 0.5 ? "Right: yes." : "Right: no."));
	ck_assert(shows("sum ="));
	view_free(&V);
}
END_TEST

/* c, m and d would show the hidden numbers: on an unanswered page they
 * beep and keep the page; once it is answered, c opens compare. */
START_TEST(test_view_keys_wait)
{
	view_init(&V, &T, &L, 4, 78);
	ck_assert(view_predict_hidden(&V));
	ck_assert(view_key(&V, 'c') & VIEW_KEY_BEEP);
	ck_assert(view_key(&V, 'm') & VIEW_KEY_BEEP);
	ck_assert(view_key(&V, 'd') & VIEW_KEY_BEEP);
	ck_assert_int_eq(V.mode, VIEW_STEP);
	ck_assert(!shows("SECRET-PROSE"));
	view_key(&V, 'z');
	type("je\n");
	ck_assert(!view_predict_hidden(&V));
	ck_assert(!(view_key(&V, 'c') & VIEW_KEY_BEEP));
	ck_assert_int_eq(V.mode, VIEW_COMPARE);
	view_free(&V);
}
END_TEST

static Suite *predict_suite(void)
{
	Suite *s = suite_create("predict");
	TCase *tc = tcase_create("answer");
	tcase_add_test(tc, test_hint_then_second_try_then_answer);
	tcase_add_test(tc, test_right);
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_yesno);
	tcase_add_test(tc, test_number);
	suite_add_tcase(s, tc);
	tc = tcase_create("lesson");
	tcase_add_checked_fixture(tc, lesson_setup, lesson_teardown);
	tcase_add_test(tc, test_lesson_answers);
	tcase_add_test(tc, test_lesson_text);
	tcase_add_test(tc, test_view_wrong_twice);
	tcase_add_test(tc, test_view_right);
	tcase_add_test(tc, test_view_keys_wait);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(predict_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
