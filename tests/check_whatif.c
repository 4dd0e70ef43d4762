/* check_whatif.c: the --set parser (whatif_apply) on the built-in toy
 * model: which cell an edit reaches, its record, and its errors. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

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

static Suite *whatif_suite(void)
{
	Suite *s = suite_create("whatif");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_matrix_cell);
	tcase_add_test(tc, test_word_row);
	tcase_add_test(tc, test_vector);
	tcase_add_test(tc, test_errors);
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
