/* check_linebreak.c: where text breaks into lines, by display width.
 * Every expected break below was worked out by hand from the rule in
 * linebreak.h, the columns counted character by character (a CJK
 * character 2, a combining mark 0, anything else 1). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "linebreak.h"
#include "utf8.h"

/* The lines of s at room columns, as linebreak_line cuts them, joined by
 * '|' (s holds no '|'). */
static const char *lines(const char *s, int room)
{
	static char buf[1024];
	size_t n = strlen(s), at = 0, next, o = 0;
	buf[0] = '\0';
	while (at < n) {
		size_t end = linebreak_line(s + at, n - at, room, &next);
		ck_assert_uint_gt(next, 0); /* it always moves on */
		if (o)
			buf[o++] = '|';
		memcpy(buf + o, s + at, end);
		o += end;
		buf[o] = '\0';
		at += next;
	}
	return buf;
}

START_TEST(test_cluster_len)
{
	ck_assert_uint_eq(linebreak_cluster_len(""), 0);
	ck_assert_uint_eq(linebreak_cluster_len("ab"), 1);
	ck_assert_uint_eq(linebreak_cluster_len("注意"), 3);
	/* e + U+0301 combining acute: one cluster of 3 bytes */
	ck_assert_uint_eq(linebreak_cluster_len("e\xcc\x81x"), 3);
	/* s + U+0303 combining tilde, as in s̃_t */
	ck_assert_uint_eq(linebreak_cluster_len("s\xcc\x83_t"), 3);
	/* 注 + U+0303: the mark stays with the ideograph */
	ck_assert_uint_eq(linebreak_cluster_len("注\xcc\x83意"), 5);
	ck_assert_uint_eq(linebreak_cluster_len("\xff" "a"), 1);
}
END_TEST

START_TEST(test_between)
{
	ck_assert_int_eq(linebreak_between("注意", "意"), 1);
	ck_assert_int_eq(linebreak_between("a注", "注"), 1);
	ck_assert_int_eq(linebreak_between("注1", "1"), 1);
	ck_assert_int_eq(linebreak_between("ab", "b"), 0);    /* Latin */
	ck_assert_int_eq(linebreak_between("0.4", ".4"), 0);  /* a number */
	ck_assert_int_eq(linebreak_between("1，", "，"), 0);  /* closing */
	ck_assert_int_eq(linebreak_between("力。", "。"), 0);
	ck_assert_int_eq(linebreak_between("力）", "）"), 0);
	ck_assert_int_eq(linebreak_between("力」", "」"), 0);
	ck_assert_int_eq(linebreak_between("力,", ","), 0);
	ck_assert_int_eq(linebreak_between("（注", "注"), 0); /* opening */
	ck_assert_int_eq(linebreak_between("「注", "注"), 0);
	ck_assert_int_eq(linebreak_between("“注", "注"), 0);
	ck_assert_int_eq(linebreak_between("看（", "（"), 1);
	ck_assert_int_eq(linebreak_between("，注", "注"), 1);
	ck_assert_int_eq(linebreak_between("注 ", " "), 0);   /* blanks */
	ck_assert_int_eq(linebreak_between(" 注", "注"), 0);
	ck_assert_int_eq(linebreak_between("한국", "국"), 1);  /* hangul */
	ck_assert_int_eq(linebreak_between("です", "す"), 1);  /* kana */
	/* fullwidth digits are a number, not CJK */
	ck_assert_int_eq(linebreak_between("１２", "２"), 0);
	ck_assert_int_eq(linebreak_is_cjk("１"), 0);
	ck_assert_int_eq(linebreak_is_cjk("注"), 1);
	ck_assert_int_eq(linebreak_is_cjk("，"), 1);
	ck_assert_int_eq(linebreak_is_cjk("a"), 0);
	ck_assert_int_eq(linebreak_is_cjk("\xff"), 0);
}
END_TEST

/* Latin text breaks at blanks only, and fills the room exactly. */
START_TEST(test_latin)
{
	/* "the encoder" is 11 columns */
	ck_assert_str_eq(lines("the encoder reads it", 11),
			 "the encoder|reads it");
	ck_assert_str_eq(lines("the encoder reads it", 10),
			 "the|encoder|reads it");
	ck_assert_str_eq(lines("  two  blanks  ", 80), "  two  blanks");
	ck_assert_str_eq(lines("", 10), "");
}
END_TEST

/* A number next to CJK text is never broken, and a closing mark after
 * it stays with it: 分数是 is 6 columns, 0.9765， 8, 其余 4. */
START_TEST(test_number_beside_cjk)
{
	ck_assert_str_eq(lines("分数是0.9765，其余", 9),
			 "分数是|0.9765，|其余");
	ck_assert_str_eq(lines("分数是0.9765，其余", 14),
			 "分数是0.9765，|其余");
	/* 约为 4 columns, -1.5e-3。 9: wider than 6, kept whole */
	ck_assert_str_eq(lines("约为-1.5e-3。", 6), "约为|-1.5e-3。");
	/* α_1,1 and h_3[2] are symbols: 权重α_1,1是 = 4 + 5 + 2 */
	ck_assert_str_eq(lines("权重α_1,1是h_3[2]的", 8),
			 "权重|α_1,1是|h_3[2]的");
}
END_TEST

/* No line starts with closing punctuation, none ends with opening. */
START_TEST(test_punctuation)
{
	/* 注意力 would fit in 6 but 力 must keep its ， */
	ck_assert_str_eq(lines("注意力，编码器。", 6),
			 "注意|力，编|码器。");
	/* 看「 would fit in 4 but 「 must not end a line */
	ck_assert_str_eq(lines("看「注意力」", 4), "看|「注|意|力」");
	ck_assert_str_eq(lines("（它们只是分数）", 6), "（它们|只是分|数）");
}
END_TEST

/* Combining marks take no column and stay on their base. */
START_TEST(test_combining)
{
	/* 注̃ is one cluster of 2 columns */
	ck_assert_str_eq(lines("注\xcc\x83意力", 2), "注\xcc\x83|意|力");
	/* h是 is 3 columns, s̃_t 3 */
	ck_assert_str_eq(lines("h是s\xcc\x83_t", 4), "h是|s\xcc\x83_t");
	ck_assert_str_eq(lines("h是s\xcc\x83_t", 6), "h是s\xcc\x83_t");
}
END_TEST

/* A piece wider than the room gets a line of its own, whole. */
START_TEST(test_long_word)
{
	ck_assert_str_eq(lines("ab abcdefghijklmnop cd", 5),
			 "ab|abcdefghijklmnop|cd");
	ck_assert_str_eq(lines("注意力abcdefgh注意", 6),
			 "注意力|abcdefgh|注意");
	/* a room smaller than one character: a character a line */
	ck_assert_str_eq(lines("注意", 1), "注|意");
}
END_TEST

/* Mixed text: Latin words and CJK, the blanks between them dropped at a
 * break.  je的 breaks between je and 的; "softmax之后，" at 12 columns:
 * softmax 7, 之后 4, ， 2. */
START_TEST(test_mixed)
{
	ck_assert_str_eq(lines("softmax之后，je得到", 12),
			 "softmax之|后，je得到");
	ck_assert_str_eq(lines("c_t = Σ_i α_t,i h_i。注意力", 16),
			 "c_t = Σ_i α_t,i|h_i。注意力");
	ck_assert_str_eq(lines("编码器 encoder 解码器", 10),
			 "编码器|encoder 解|码器");
}
END_TEST

static Suite *linebreak_suite(void)
{
	Suite *s = suite_create("linebreak");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cluster_len);
	tcase_add_test(tc, test_between);
	tcase_add_test(tc, test_latin);
	tcase_add_test(tc, test_number_beside_cjk);
	tcase_add_test(tc, test_punctuation);
	tcase_add_test(tc, test_combining);
	tcase_add_test(tc, test_long_word);
	tcase_add_test(tc, test_mixed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(linebreak_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
