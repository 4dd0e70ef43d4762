/* check_utf8.c: validation, case folding, width and length of UTF-8. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static size_t prefix(const char *s)
{
	return utf8_valid_prefix(s, strlen(s));
}

START_TEST(test_valid_prefix_good)
{
	ck_assert_uint_eq(prefix(""), 0);
	ck_assert_uint_eq(prefix("abc"), 3);
	ck_assert_uint_eq(prefix("\xc3\xa9t\xc3\xa9"), 5);      /* été */
	ck_assert_uint_eq(prefix("\xe4\xb8\xad"), 3);           /* U+4E2D */
	ck_assert_uint_eq(prefix("\xf0\x9f\x98\x80"), 4);       /* U+1F600 */
	ck_assert_uint_eq(prefix("\xf4\x8f\xbf\xbf"), 4);       /* U+10FFFF */
	ck_assert_uint_eq(prefix("\xef\xbf\xbf"), 3);           /* U+FFFF */
	ck_assert_uint_eq(utf8_valid_prefix("a\0b", 3), 3);     /* NUL is valid */
}
END_TEST

START_TEST(test_valid_prefix_bad)
{
	ck_assert_uint_eq(prefix("ab\xff"), 2);
	ck_assert_uint_eq(prefix("a\x80"), 1);              /* lone continuation */
	ck_assert_uint_eq(prefix("a\xc0\x80"), 1);          /* overlong NUL */
	ck_assert_uint_eq(prefix("a\xc1\xbf"), 1);          /* overlong */
	ck_assert_uint_eq(prefix("a\xe0\x80\xaf"), 1);      /* overlong '/' */
	ck_assert_uint_eq(prefix("a\xf0\x8f\xbf\xbf"), 1);  /* overlong U+FFFF */
	ck_assert_uint_eq(prefix("a\xed\xa0\x80"), 1);      /* surrogate D800 */
	ck_assert_uint_eq(prefix("a\xed\xbf\xbf"), 1);      /* surrogate DFFF */
	ck_assert_uint_eq(prefix("a\xf4\x90\x80\x80"), 1);  /* past U+10FFFF */
	ck_assert_uint_eq(prefix("a\xf5\x80\x80\x80"), 1);
	ck_assert_uint_eq(prefix("a\xc3"), 1);              /* cut short */
	ck_assert_uint_eq(prefix("a\xe4\xb8"), 1);
	ck_assert_uint_eq(prefix("a\xc3z"), 1);
	/* n stops before the end of a character */
	ck_assert_uint_eq(utf8_valid_prefix("a\xc3\xa9", 2), 1);
}
END_TEST

/* utf8_char_len of a heap copy of s, exactly as long as s: a read past
 * the NUL is an error under AddressSanitizer. */
static size_t char_len(const char *s)
{
	char *copy = strdup(s);
	size_t n = utf8_char_len(copy);

	free(copy);
	return n;
}

/* The lengths of the characters of s, stepping by utf8_char_len until it
 * says 0, written into out as digits ("221" for "été"). */
static void steps(const char *s, char *out)
{
	char *copy = strdup(s), *p = copy;
	size_t n;

	while ((n = utf8_char_len(p)) > 0) {
		*out++ = (char)('0' + n);
		p += n;
	}
	*out = '\0';
	free(copy);
}

START_TEST(test_char_len)
{
	char got[32];

	ck_assert_uint_eq(char_len(""), 0);
	ck_assert_uint_eq(char_len("a"), 1);
	ck_assert_uint_eq(char_len("\xc3\xa9"), 2);            /* é */
	ck_assert_uint_eq(char_len("\xe2\x82\xac"), 3);        /* € */
	ck_assert_uint_eq(char_len("\xf0\x9f\x98\x80"), 4);    /* U+1F600 */
	/* a byte that starts no valid sequence is one character */
	ck_assert_uint_eq(char_len("\xe9"), 1);                /* Latin-1 é */
	ck_assert_uint_eq(char_len("\xe9_"), 1);
	ck_assert_uint_eq(char_len("\xe2\x82"), 1);            /* € cut off */
	ck_assert_uint_eq(char_len("\xf0\x9f\x98"), 1);
	ck_assert_uint_eq(char_len("\x80"), 1);
	ck_assert_uint_eq(char_len("\xc0\x80"), 1);            /* overlong */
	ck_assert_uint_eq(char_len("\xed\xa0\x80"), 1);        /* surrogate */
	ck_assert_uint_eq(char_len("\xff"), 1);
	/* stepping stops at the NUL, whatever the lead bytes promise */
	steps("answer> \xe9_", got);
	ck_assert_str_eq(got, "1111111111");
	steps("\xc3\xa9t\xc3\xa9\xe2\x82", got);
	ck_assert_str_eq(got, "21211");
	steps("\xf0\x9f\x98\x80\xf0", got);
	ck_assert_str_eq(got, "41");
}
END_TEST

/* Folds s and compares it with want. */
static void check_fold(const char *s, const char *want)
{
	char *got = utf8_fold(s, strlen(s));

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_fold)
{
	check_fold("JE Suis", "je suis");
	check_fold("\xc3\x89TUDIANT", "\xc3\xa9tudiant");      /* ÉTUDIANT */
	check_fold("\xc3\x80\xc3\x9e\xc3\x97\xc3\x9f",         /* ÀÞ×ß */
		   "\xc3\xa0\xc3\xbe\xc3\x97\xc3\x9f");
	check_fold("\xc5\x81\xc4\x80\xc5\xb8\xc5\xbd\xc4\xb9", /* ŁĀŸŽĹ */
		   "\xc5\x82\xc4\x81\xc3\xbf\xc5\xbe\xc4\xba");
	check_fold("\xc4\xb1\xc5\x89", "\xc4\xb1\xc5\x89");    /* ı ŉ kept */
	check_fold("\xce\x91\xce\xa9\xce\x86\xce\x8f",         /* ΑΩΆΏ */
		   "\xce\xb1\xcf\x89\xce\xac\xcf\x8e");
	check_fold("\xd0\x9f\xd0\xaf\xd0\x81",                 /* ПЯЁ */
		   "\xd0\xbf\xd1\x8f\xd1\x91");
	check_fold("\xd1\xa0\xd3\x81", "\xd1\xa1\xd3\x82");    /* Ѡ Ӂ */
	check_fold("\xe4\xb8\xad <s>", "\xe4\xb8\xad <s>");    /* unchanged */
	check_fold("A\xffZ", "a\xffz");                        /* bad byte kept */
	/* beyond the old hand-written tables: Armenian, Latin Extended-B */
	check_fold("\xd4\xb1\xc7\x8d", "\xd5\xa1\xc7\x8e");    /* Ա Ǎ */
	/* a capital İ (2 bytes) folds to i (1 byte): lengths may change */
	check_fold("\xc4\xb0X", "ix");
	/* decomposed (E + U+0301) folds to the composed small letter */
	check_fold("E\xcc\x81T\xc3\x89", "\xc3\xa9t\xc3\xa9");
}
END_TEST

/* Puts s into NFC and compares it with want. */
static void check_nfc(const char *s, const char *want)
{
	char *got = utf8_nfc(s, strlen(s));

	ck_assert_str_eq(got, want);
	free(got);
}

/* The expected forms are Unicode's (UnicodeData.txt decompositions),
 * worked out by hand, not taken from utf8proc. */
START_TEST(test_nfc)
{
	check_nfc("", "");
	check_nfc("je suis", "je suis");
	check_nfc("e\xcc\x81tudiant", "\xc3\xa9tudiant");  /* e + U+0301 */
	check_nfc("E\xcc\x81", "\xc3\x89");                /* É */
	check_nfc("\xc3\xa9", "\xc3\xa9");                  /* already NFC */
	/* a + U+0323 + U+0302 and a + U+0302 + U+0323: both ậ, U+1EAD */
	check_nfc("a\xcc\xa3\xcc\x82", "\xe1\xba\xad");
	check_nfc("a\xcc\x82\xcc\xa3", "\xe1\xba\xad");
	check_nfc("\xe2\x84\xa6", "\xce\xa9");             /* OHM SIGN: Ω */
	check_nfc("\xef\xac\x81", "\xef\xac\x81");        /* ﬁ: NFC keeps it */
	check_nfc("e\xcc\x81\xff", "e\xcc\x81\xff");      /* invalid: as is */
	char *got = utf8_nfc("e\xcc\x81X", 3);              /* a prefix */
	ck_assert_str_eq(got, "\xc3\xa9");
	free(got);
}
END_TEST

START_TEST(test_fold_length)
{
	char *got = utf8_fold("ABC", 2);

	ck_assert_str_eq(got, "ab");
	free(got);
}
END_TEST

START_TEST(test_width)
{
	ck_assert_int_eq(utf8_width(""), 0);
	ck_assert_int_eq(utf8_width("abc"), 3);
	ck_assert_int_eq(utf8_width("\xc3\xa9t\xc3\xa9"), 3);
	ck_assert_int_eq(utf8_width("\xe4\xb8\xad\xe6\x96\x87"), 4);  /* 中文 */
	ck_assert_int_eq(utf8_width("\xed\x95\x9c"), 2);              /* 한 */
	ck_assert_int_eq(utf8_width("e\xcc\x81"), 1);                 /* e + U+0301 */
	ck_assert_int_eq(utf8_width("\xf0\x9f\x98\x80"), 2);          /* U+1F600 */
	ck_assert_int_eq(utf8_width("\xef\xbc\xa1"), 2);              /* U+FF21 */
	ck_assert_int_eq(utf8_width("a\xff\xfe"), 3);                 /* invalid */
	/* beyond the old hand-written tables */
	ck_assert_int_eq(utf8_width("\xe0\xa4\x95\xe0\xa4\x81"), 1); /* क + U+0901 */
	ck_assert_int_eq(utf8_width("\xf0\x9f\x9a\x80"), 2);          /* U+1F680 */
	ck_assert_int_eq(utf8_width("a\x01"), 2);                    /* control: 1 */
	/* utf8_width_n stops at n: 中 of 中文, and "ab" of "abc" */
	ck_assert_int_eq(utf8_width_n("\xe4\xb8\xad\xe6\x96\x87", 3), 2);
	ck_assert_int_eq(utf8_width_n("abc", 2), 2);
	ck_assert_int_eq(utf8_width_n("e\xcc\x81x", 3), 1);
	ck_assert_int_eq(utf8_width_n("a\0b", 3), 3);              /* NUL: a control */
}
END_TEST

START_TEST(test_len)
{
	ck_assert_uint_eq(utf8_len(""), 0);
	ck_assert_uint_eq(utf8_len("abc"), 3);
	ck_assert_uint_eq(utf8_len("\xc3\xa9tudiant"), 8);
	ck_assert_uint_eq(utf8_len("\xe4\xb8\xad\xe6\x96\x87"), 2);
	ck_assert_uint_eq(utf8_len("\xf0\x9f\x98\x80!"), 2);
	ck_assert_uint_eq(utf8_len("a\xff"), 2);
}
END_TEST

/* utf8_safe: what may drive a terminal or is not UTF-8 becomes \xNN;
 * text, tab and every valid character from U+00A0 up stay as they are. */
static void safe_is(const char *in, const char *want)
{
	char *got = utf8_safe(in);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_safe)
{
	safe_is("", "");
	safe_is("je suis\tétudiant €", "je suis\tétudiant €");
	safe_is("a\033[2Jb", "a\\x1b[2Jb");
	safe_is("\r\n\x7f", "\\x0d\\x0a\\x7f");
	safe_is("\xc2\x85|\xc2\xa0", "\\xc2\\x85|\xc2\xa0"); /* NEL; NBSP */
	safe_is("\xff\xc3", "\\xff\\xc3");       /* no UTF-8; cut short */
	safe_is("\xc0\xaf", "\\xc0\\xaf");       /* overlong '/' */
	safe_is("\xed\xa0\x80", "\\xed\\xa0\\x80"); /* a surrogate */
}
END_TEST

/* The bidirectional controls, each of its bytes escaped by utf8_safe;
 * their neighbours (U+200D, U+202F, U+2065, U+206A, U+061B) are text. */
START_TEST(test_bidi)
{
	static const char *const bidi[] = {
		"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac",
		"\xe2\x80\xad", "\xe2\x80\xae",         /* U+202A..E */
		"\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8",
		"\xe2\x81\xa9",                          /* U+2066..9 */
		"\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c" }; /* LRM RLM ALM */
	static const unsigned long code[] = {
		0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067,
		0x2068, 0x2069, 0x200E, 0x200F, 0x061C };
	static const char *const text[] = {
		"\xe2\x80\x8d", "\xe2\x80\xaf", "\xe2\x81\xa5",
		"\xe2\x81\xaa", "\xd8\x9b" };
	for (size_t k = 0; k < sizeof bidi / sizeof *bidi; k++) {
		size_t n = strlen(bidi[k]);
		ck_assert_uint_eq(utf8_bidi_len(bidi[k], n), n);
		ck_assert_uint_eq(utf8_bidi_len(bidi[k], n - 1), 0);
		ck_assert_uint_eq(utf8_bidi_code(bidi[k]), code[k]);
		char *got = utf8_safe(bidi[k]);
		ck_assert_uint_eq(strlen(got), 4 * n);
		ck_assert(got[0] == '\\' && got[1] == 'x');
		free(got);
	}
	for (size_t k = 0; k < sizeof text / sizeof *text; k++) {
		ck_assert_uint_eq(utf8_bidi_len(text[k], strlen(text[k])), 0);
		safe_is(text[k], text[k]);
	}
	safe_is("a\xe2\x80\xae" "b", "a\\xe2\\x80\\xae" "b");
}
END_TEST

static Suite *utf8_suite(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_valid_prefix_good);
	tcase_add_test(tc, test_valid_prefix_bad);
	tcase_add_test(tc, test_char_len);
	tcase_add_test(tc, test_fold);
	tcase_add_test(tc, test_fold_length);
	tcase_add_test(tc, test_nfc);
	tcase_add_test(tc, test_width);
	tcase_add_test(tc, test_len);
	tcase_add_test(tc, test_safe);
	tcase_add_test(tc, test_bidi);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(utf8_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
