/* check_whatif.c: the --set parser (whatif_apply) on the built-in toy
 * model: which cell an edit reaches, its record, and its errors. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "whatif.h"

static struct model m;
#define W(name) model_weights(&m, name)

static void setup(void)
{
	struct errbuf err;
	ck_assert_int_eq(model_load_builtin(&m, &err), 0);
}

static void teardown(void)
{
	model_free(&m);
}

/* row 2, column 3 of a 4 x 4 matrix is element 1 * 4 + 2 */
START_TEST(test_matrix_cell)
{
	struct whatif_edit e;
	struct errbuf err;
	double old = W("general.W")[6];
	ck_assert_int_eq(whatif_apply(&m, "general.W[2][3]=0.5", 1, &e, &err),
			 0);
	ck_assert_double_eq_tol(W("general.W")[6], 0.5, 1e-15);
	ck_assert_double_eq_tol(e.old, old, 1e-15);
	ck_assert_double_eq_tol(e.value, 0.5, 1e-15);
	ck_assert_str_eq(e.name, "general.W[2][3]");
}
END_TEST

/* a vocabulary row by its word or its number: suis is source word 2 */
START_TEST(test_word_row)
{
	struct whatif_edit e;
	struct errbuf err;
	ck_assert_str_eq(m.src.words[1], "suis");
	ck_assert_int_eq(whatif_apply(&m, "source[suis][4]=-2", 1, &e, &err),
			 0);
	ck_assert_double_eq_tol(m.src.emb[1 * m.E + 3], -2, 1e-15);
	ck_assert_int_eq(whatif_apply(&m, "source[2][1]=1e-3", 1, &e, &err),
			 0);
	ck_assert_double_eq_tol(m.src.emb[1 * m.E + 0], 1e-3, 1e-18);
}
END_TEST

/* a vector takes one index: v_a's third entry */
START_TEST(test_vector)
{
	struct whatif_edit e;
	struct errbuf err;
	ck_assert_int_eq(whatif_apply(&m, "concat.v[3]=7", 1, &e, &err), 0);
	ck_assert_double_eq_tol(W("concat.v")[2], 7, 1e-15);
}
END_TEST

/* each error names --set:ARGNO:COLUMN and leaves the model alone */
START_TEST(test_errors)
{
	static const struct { const char *arg, *msg; } bad[] = {
		{ "general.Wx[1][1]=1",
		  "--set:3:1: unknown name 'general.Wx'; did you mean "
		  "general.W?" },
		{ "general.W[5][1]=1", "--set:3:11: index '5' out of range" },
		{ "general.W[1][5]=1", "--set:3:14: index '5' out of range" },
		{ "general.W[1][1]=inf", "--set:3:17: expected a finite" },
		{ "general.W[1][1]=", "--set:3:17: expected a finite" },
		{ "general.W[1][1]", "--set:3:16: expected '=VALUE'" },
	};
	double before = W("general.W")[0];
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		struct whatif_edit e;
		struct errbuf err;
		ck_assert_int_eq(whatif_apply(&m, bad[k].arg, 3, &e, &err), -1);
		ck_assert_msg(strncmp(err.msg, bad[k].msg, strlen(bad[k].msg))
			      == 0, "%s: %s", bad[k].arg, err.msg);
		ck_assert_double_eq(W("general.W")[0], before);
	}
}
END_TEST

/* a step's value: canonical name, step and entry from the alias; the
 * model is left alone */
START_TEST(test_step_name)
{
	struct whatif_edit e;
	struct errbuf err;
	double before = W("general.W")[0];
	ck_assert_int_eq(whatif_apply(&m, "step[2].alpha[3]=0.9", 1, &e, &err),
			 0);
	ck_assert_str_eq(e.name, "step[2].weights[3]");
	ck_assert_int_eq(e.what, WHATIF_WEIGHTS);
	ck_assert_int_eq(e.step, 2);
	ck_assert_int_eq(e.index, 2);
	ck_assert_double_eq(e.value, 0.9);
	ck_assert_int_eq(whatif_apply(&m, "step[1].s[4]=-1", 1, &e, &err), 0);
	ck_assert_str_eq(e.name, "step[1].state[4]");
	ck_assert_int_eq(e.what, WHATIF_STATE);
	ck_assert_double_eq(W("general.W")[0], before);
}
END_TEST

/* Step 1's scores set to 0, ln 2, 0: by hand, α_1 = (1/4, 1/2, 1/4) and
 * c_1 = h_1/4 + h_2/2 + h_3/4; step 2's weights set to (2, 0, 0), not
 * renormalised: c_2 = 2 h_1.  The dot scorer on the toy model. */
START_TEST(test_step_trace)
{
	static const char *arg[] = {
		"step[1].scores[1]=0", "step[1].scores[2]=0.6931471805599453",
		"step[1].scores[3]=0", "step[2].weights[1]=2",
		"step[2].weights[2]=0", "step[2].weights[3]=0",
	};
	struct whatif_edit e[6];
	struct errbuf err;
	for (int k = 0; k < 6; k++)
		ck_assert_int_eq(whatif_apply(&m, arg[k], k + 1, &e[k], &err),
				 0);
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	cfg.set = e;
	cfg.nset = 6;
	int src[3] = { 0, 1, 2 }, tgt[2] = { 2, 3 };
	struct trace tr;
	ck_assert_int_eq(trace_build(&tr, &m, src, 3, tgt, 2,
				     1u << SCORER_dot, &cfg, &err), 0);
	const double *h1 = trace_find(&tr, REC_RNN, -1, 0, 1)->result;
	const double *h2 = trace_find(&tr, REC_RNN, -1, 0, 2)->result;
	const double *h3 = trace_find(&tr, REC_RNN, -1, 0, 3)->result;
	const double *a1 = trace_weights(&tr, 0, 1);
	ck_assert_double_eq_tol(a1[0], 0.25, 1e-15);
	ck_assert_double_eq_tol(a1[1], 0.5, 1e-15);
	ck_assert_double_eq_tol(a1[2], 0.25, 1e-15);
	const double *c1 = trace_find(&tr, REC_CONTEXT, 0, 1, 0)->result;
	const double *c2 = trace_find(&tr, REC_CONTEXT, 0, 2, 0)->result;
	for (int k = 0; k < m.H; k++) {
		ck_assert_double_eq_tol(c1[k], h1[k] / 4 + h2[k] / 2 +
					h3[k] / 4, 1e-15);
		ck_assert_double_eq_tol(c2[k], 2 * h1[k], 1e-15);
	}
	ck_assert_int_eq(whatif_check_trace(e, 6, &tr, &err), 0);
	trace_free(&tr);
}
END_TEST

static Suite *whatif_suite(void)
{
	Suite *s = suite_create("whatif");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_matrix_cell);
	tcase_add_test(tc, test_word_row);
	tcase_add_test(tc, test_vector);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_step_name);
	tcase_add_test(tc, test_step_trace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(whatif_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
