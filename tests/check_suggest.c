/* check_suggest.c: edit distances and "did you mean", worked by hand. */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "suggest.h"

START_TEST(test_distance)
{
	ck_assert_uint_eq(suggest_distance("trace", "trace"), 0);
	/* a swap of two neighbours is one edit (Damerau) */
	ck_assert_uint_eq(suggest_distance("tarce", "trace"), 1);
	ck_assert_uint_eq(suggest_distance("dto", "dot"), 1);
	ck_assert_uint_eq(suggest_distance("ab", "ba"), 1);
	/* each letter is edited once at most: "ca" to "abc" is 3, not 2
	 * (the optimal string alignment distance) */
	ck_assert_uint_eq(suggest_distance("ca", "abc"), 3);
	/* a swap and a substitution */
	ck_assert_uint_eq(suggest_distance("lcoal", "local-"), 2);
	ck_assert_uint_eq(suggest_distance("lesons", "lessons"), 1);
	ck_assert_uint_eq(suggest_distance("", "dot"), 3);
	/* case-folded, UTF-8 counted in characters, not bytes */
	ck_assert_uint_eq(suggest_distance("ÉTUDIANT", "étudiant"), 0);
	ck_assert_uint_eq(suggest_distance("etudiant", "étudiant"), 1);
}
END_TEST

static const char *const commands[] = {
	"trace", "tui", "model", "lessons", "lesson", "heatmap", NULL, "train"
};

START_TEST(test_closest)
{
	ck_assert_str_eq(suggest_closest("tarce", commands, 8), "trace");
	ck_assert_str_eq(suggest_closest("Lesson", commands, 8), "lesson");
	ck_assert_str_eq(suggest_closest("heatmpa", commands, 8), "heatmap");
	/* three letters allow one edit: a swap is one */
	ck_assert_str_eq(suggest_closest("tiu", commands, 8), "tui");
	/* a tie goes to the first: "lessos" is 1 from both */
	ck_assert_str_eq(suggest_closest("lessos", commands, 8), "lessons");
	/* the only name that starts with it */
	ck_assert_str_eq(suggest_closest("heat", commands, 8), "heatmap");
	/* too far for its length, or a prefix of two names */
	ck_assert_ptr_null(suggest_closest("frobnicate", commands, 8));
	/* a word that starts two names is not taken for a third, nearer */
	{
		const char *windows[] = { "global", "local-m", "local-p" };
		ck_assert_ptr_null(suggest_closest("local", windows, 3));
		ck_assert_str_eq(suggest_closest("globl", windows, 3),
				 "global");
	}
	ck_assert_ptr_null(suggest_closest("xy", commands, 8));
	ck_assert_ptr_null(suggest_closest("tr", commands, 8));
	ck_assert_ptr_null(suggest_closest("dot", commands, 0));
}
END_TEST

static Suite *suggest_suite(void)
{
	Suite *s = suite_create("suggest");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_closest);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suggest_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
