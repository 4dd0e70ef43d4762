/* check_progress.c: the progress line's text (progress_format), with the
 * rate, the part done, the time left and the bytes worked out by hand. */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "progress.h"

static void check_line(double done, double elapsed, double frac,
		       double bytes, const char *want)
{
	char buf[200];
	progress_format(buf, sizeof buf, done, "lines", elapsed, frac, bytes);
	ck_assert_str_eq(buf, want);
}

START_TEST(test_format)
{
	/* 50 lines in 10 s: 5 a second; a quarter done, so 3 quarters left
	 * at 10 s a quarter: 30 s; 1536 bytes = 1.5 KiB */
	check_line(50, 10, 0.25, 1536,
		   "50 lines, 5 lines/s, 25%, 0:30 left, 1.5 KiB written");
	/* 2 % done in 100 s: 4900 s left = 1 h 21 min 40 s */
	check_line(2, 100, 0.02, 3.0 * 1024 * 1024 * 1024,
		   "2 lines, 0 lines/s, 2%, 1:21:40 left, 3.0 GiB written");
	/* nothing known but the count */
	check_line(7, 0, -1, -1, "7 lines");
	/* no part done (a pipe), bytes below a KiB */
	check_line(1200, 4, -1, 1023, "1200 lines, 300 lines/s, 1023 bytes written");
	/* the end itself shows no time left */
	check_line(9, 3, 1.0, -1, "9 lines, 3 lines/s");
}
END_TEST

START_TEST(test_tail)
{
	char buf[100];
	progress_tail(buf, sizeof buf, 30, "epochs", 2, 0.5, -1);
	ck_assert_str_eq(buf, ", 15 epochs/s, 50%, 0:02 left");
	progress_tail(buf, sizeof buf, 30, "epochs", 0, -1, -1);
	ck_assert_str_eq(buf, "");
	/* a small buffer is cut, never overrun */
	char small[12];
	progress_tail(small, sizeof small, 30, "epochs", 2, 0.5, -1);
	ck_assert_str_eq(small, ", 15 epochs");
}
END_TEST

/* Off the terminal (standard error of a test is a file or a pipe) the
 * progress draws nothing and is never due. */
START_TEST(test_off)
{
	struct progress p;
	progress_start(&p, stderr, 0);
	ck_assert_ptr_null(p.fp);
	ck_assert_int_eq(progress_due(&p), 0);
}
END_TEST

static Suite *progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_tail);
	tcase_add_test(tc, test_off);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(progress_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
