/* check_util.c: the allocators' way out when memory runs out: the fatal
 * hook (the stepper's chance to give the terminal back) runs first, runs
 * once, and can be removed; sizes that overflow abort instead of wrapping.
 * And the processor count behind the default --jobs. */
#include "config.h"

#include <check.h>
#ifdef HAVE_SCHED_GETAFFINITY
#include <sched.h>
#endif
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define HOOK_STATUS 42 /* the hook's exit status: it ran */

/* A request that cannot be met on any system: the size overflows, so
 * xreallocarray gives up without asking malloc (no sanitizer steps in). */
static void run_out(void)
{
	void *p = xreallocarray(NULL, SIZE_MAX, 2);
	free(p);
}

static void hook_exits(void)
{
	_exit(HOOK_STATUS);
}

static void hook_runs_out(void)
{
	run_out(); /* a second failure, inside the hook */
}

START_TEST(test_oom_aborts)
{
	util_set_fatal_hook(NULL);
	run_out();
}
END_TEST

START_TEST(test_hook_runs_first)
{
	util_set_fatal_hook(hook_exits);
	run_out();
}
END_TEST

START_TEST(test_hook_runs_once)
{
	/* the hook runs out of memory itself: no endless recursion, abort */
	util_set_fatal_hook(hook_runs_out);
	run_out();
}
END_TEST

START_TEST(test_hook_removed)
{
	util_set_fatal_hook(hook_exits);
	util_set_fatal_hook(NULL);
	run_out();
}
END_TEST

START_TEST(test_strndup_stops_at_nul)
{
	char *s = xstrndup("ab\0cd", 5);
	ck_assert_str_eq(s, "ab");
	free(s);
	s = xstrndup("abcdef", 3);
	ck_assert_str_eq(s, "abc");
	free(s);
}
END_TEST

/* The default --jobs: narrowed to one processor, the process counts one,
 * whatever the machine has online. */
/* util_whole: decimal digits only, at most max, by hand: 2^64 - 1 =
 * 18446744073709551615 is the largest, one more overflows. */
START_TEST(test_whole)
{
	unsigned long long x = 7;

	ck_assert_int_eq(util_whole("0", 1, 64, &x), 0);
	ck_assert(x == 0);
	ck_assert_int_eq(util_whole("64", 2, 64, &x), 0);
	ck_assert(x == 64);
	ck_assert_int_eq(util_whole("65", 2, 64, &x), -1);
	ck_assert(x == 64); /* unchanged */
	ck_assert_int_eq(util_whole("640", 2, 64, &x), 0); /* n bytes */
	ck_assert(x == 64);
	ck_assert_int_eq(util_whole("7", 1, 5, &x), -1); /* a digit > max */
	ck_assert_int_eq(util_whole("18446744073709551615", 20, ~0ULL, &x),
			 0);
	ck_assert(x == 18446744073709551615ULL);
	ck_assert_int_eq(util_whole("18446744073709551616", 20, ~0ULL, &x),
			 -1);
	ck_assert_int_eq(util_whole("99999999999999999999", 20, ~0ULL, &x),
			 -1);
	ck_assert_int_eq(util_whole("", 0, 64, &x), -1);
	ck_assert_int_eq(util_whole("+1", 2, 64, &x), -1);
	ck_assert_int_eq(util_whole(" 1", 2, 64, &x), -1);
	ck_assert_int_eq(util_whole("1 ", 2, 64, &x), -1);
	ck_assert_int_eq(util_whole("-1", 2, 64, &x), -1);
	ck_assert(x == 18446744073709551615ULL);
}
END_TEST

START_TEST(test_processors_follow_affinity)
{
#ifdef HAVE_SCHED_GETAFFINITY
	cpu_set_t set, one;
	int first = -1;
	ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
	ck_assert_int_eq(util_processors(), CPU_COUNT(&set));
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &set))
			first = c;
	ck_assert_int_ge(first, 0);
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
	ck_assert_int_eq(util_processors(), 1);
	ck_assert_int_eq(sched_setaffinity(0, sizeof set, &set), 0);
	ck_assert_int_eq(util_processors(), CPU_COUNT(&set));
#else
	ck_assert_int_ge(util_processors(), 1);
#endif
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("util");
	tcase_add_test_raise_signal(tc, test_oom_aborts, SIGABRT);
	tcase_add_exit_test(tc, test_hook_runs_first, HOOK_STATUS);
	tcase_add_test_raise_signal(tc, test_hook_runs_once, SIGABRT);
	tcase_add_test_raise_signal(tc, test_hook_removed, SIGABRT);
	tcase_add_test(tc, test_strndup_stops_at_nul);
	tcase_add_test(tc, test_whole);
	tcase_add_test(tc, test_processors_follow_affinity);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(util_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
