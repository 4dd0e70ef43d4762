/* check_pgm.c: the PGM reader (src/pgm.h) on files written by hand: plain
 * and binary, comments and every kind of whitespace, 8- and 16-bit, and
 * every error with its exact place.  The expected pixels are the file's
 * values divided by maxval, worked out by hand. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgm.h"

/* Parses the n bytes s as file "f"; returns pgm_parse's status. */
static int parse(struct pgm_image *im, const char *s, size_t n,
		 struct errbuf *err)
{
	return pgm_parse(im, (const unsigned char *)s, n, "f", err);
}

/* s fails to parse with exactly the message want, leaving *im zero. */
static void expect_error(const char *s, size_t n, const char *want)
{
	static struct pgm_image im, zero;
	struct errbuf err;
	ck_assert_int_eq(parse(&im, s, n, &err), -1);
	ck_assert_str_eq(err.msg, want);
	ck_assert(memcmp(&im, &zero, sizeof im) == 0);
}
#define EXPECT_ERROR(lit, want) expect_error(lit, sizeof lit - 1, want)

static struct pgm_image img;

START_TEST(test_plain_comments_whitespace)
{
	/* CR LF, tabs, comments after tokens and in the pixels, a trailing
	 * comment without an end of line */
	static const char f[] = "P2\r\n# a comment\n3\t2 # width, height\n4\n"
				"0 1 2 # the first row\n3\t4\r\n0\n# end";
	struct errbuf err;
	ck_assert_int_eq(parse(&img, f, sizeof f - 1, &err), 0);
	ck_assert_int_eq(img.kind, PGM_PLAIN);
	ck_assert_int_eq(img.width, 3);
	ck_assert_int_eq(img.height, 2);
	ck_assert_int_eq(img.maxval, 4);
	static const unsigned short raw[] = { 0, 1, 2, 3, 4, 0 };
	static const double pix[] = { 0, .25, .5, .75, 1, 0 };
	for (int k = 0; k < 6; k++) {
		ck_assert_uint_eq(img.raw[k], raw[k]);
		ck_assert_double_eq_tol(img.pix[k], pix[k], 1e-15);
	}
	/* row 1 (the second), column 0 */
	ck_assert_double_eq_tol(pgm_at(&img, 1, 0), .75, 1e-15);
	ck_assert_double_eq_tol(pgm_at(&img, 0, 2), .5, 1e-15);
}
END_TEST

START_TEST(test_plain_comment_ends_token)
{
	/* a comment ends a token as whitespace does; no end of line at the
	 * end of the file */
	static const char f[] = "P2#c\n2#w\n1#h\n1#m\n0 1";
	struct errbuf err;
	ck_assert_int_eq(parse(&img, f, sizeof f - 1, &err), 0);
	ck_assert_int_eq(img.width, 2);
	ck_assert_int_eq(img.height, 1);
	ck_assert_int_eq(img.maxval, 1);
	ck_assert_double_eq(img.pix[0], 0);
	ck_assert_double_eq(img.pix[1], 1);
}
END_TEST

START_TEST(test_raw_8bit)
{
	static const char f[] = "P5 3 2 255\n\x00\x33\x66\x99\xcc\xff";
	struct errbuf err;
	ck_assert_int_eq(parse(&img, f, sizeof f - 1, &err), 0);
	ck_assert_int_eq(img.kind, PGM_RAW);
	ck_assert_int_eq(img.width, 3);
	ck_assert_int_eq(img.height, 2);
	/* 0x33 = 51 = 255 / 5 */
	static const double pix[] = { 0, .2, .4, .6, .8, 1 };
	for (int k = 0; k < 6; k++)
		ck_assert_double_eq_tol(img.pix[k], pix[k], 1e-15);
	ck_assert_uint_eq(img.raw[4], 204);
}
END_TEST

START_TEST(test_raw_16bit)
{
	/* maxval 65535: two bytes a pixel, the most significant first */
	static const char f[] = "P5\n2 1\n65535\n\x01\x00\xff\xff";
	struct errbuf err;
	ck_assert_int_eq(parse(&img, f, sizeof f - 1, &err), 0);
	ck_assert_uint_eq(img.raw[0], 256);
	ck_assert_uint_eq(img.raw[1], 65535);
	ck_assert_double_eq_tol(img.pix[0], 256.0 / 65535.0, 1e-15);
	ck_assert_double_eq(img.pix[1], 1);
	/* 256 is the first maxval of two bytes: 0x0100 = 256 is white */
	static const char g[] = "P5 1 1 256\n\x01\x00";
	ck_assert_int_eq(parse(&img, g, sizeof g - 1, &err), 0);
	ck_assert_double_eq(img.pix[0], 1);
}
END_TEST

START_TEST(test_raw_comment_after_maxval)
{
	/* the comment takes its end of line; then one whitespace byte, which
	 * is \n here, and the pixel 0x09; a pixel may be any byte, a newline
	 * or a '#' included */
	static const char f[] = "P5 2 1 35# c\n\n\x09#";
	struct errbuf err;
	ck_assert_int_eq(parse(&img, f, sizeof f - 1, &err), 0);
	ck_assert_uint_eq(img.raw[0], 9);
	ck_assert_uint_eq(img.raw[1], '#');
	ck_assert_double_eq_tol(img.pix[1], 1, 1e-15);
	/* a single space delimits the raster; the next space is a pixel */
	static const char g[] = "P5 1 1 32  ";
	ck_assert_int_eq(parse(&img, g, sizeof g - 1, &err), 0);
	ck_assert_uint_eq(img.raw[0], 32);
}
END_TEST

START_TEST(test_largest)
{
	/* 32×32 is read; every pixel (r * 32 + c) % 8 of maxval 7 */
	char f[32 * 32 * 2 + 32];
	int n = snprintf(f, sizeof f, "P2 32 32 7\n");
	for (int k = 0; k < 32 * 32; k++)
		n += snprintf(f + n, sizeof f - (size_t)n, "%d ", k % 8);
	struct errbuf err;
	ck_assert_int_eq(parse(&img, f, (size_t)n, &err), 0);
	ck_assert_int_eq(img.width, 32);
	ck_assert_double_eq_tol(pgm_at(&img, 31, 31), 7.0 / 7.0, 1e-15);
	ck_assert_double_eq_tol(pgm_at(&img, 31, 30), 6.0 / 7.0, 1e-15);
	ck_assert_double_eq_tol(pgm_at(&img, 2, 3), 3.0 / 7.0, 1e-15);
}
END_TEST

START_TEST(test_header_errors)
{
	EXPECT_ERROR("", "f:1:1: expected P2 or P5, the magic number of a "
		     "grayscale PGM image, found the end of the file");
	EXPECT_ERROR("GIF89a", "f:1:1: expected P2 or P5, the magic number "
		     "of a grayscale PGM image, found 'G'");
	EXPECT_ERROR("P6 1 1 255\n\0\0\0", "f:1:1: expected P2 or P5, the "
		     "magic number of a grayscale PGM image, found P6 (a PPM "
		     "colour image)");
	EXPECT_ERROR("P4 8 1\n\xff", "f:1:1: expected P2 or P5, the magic "
		     "number of a grayscale PGM image, found P4 (a PBM "
		     "bitmap)");
	EXPECT_ERROR("P9", "f:1:2: expected P2 or P5, the magic number of a "
		     "grayscale PGM image: 2 or 5 after the P, found '9'");
	EXPECT_ERROR("P2", "f:1:3: expected whitespace after the magic "
		     "number P2, found the end of the file");
	EXPECT_ERROR("P26 6", "f:1:3: expected whitespace after the magic "
		     "number P2, found '6'");
	EXPECT_ERROR("P2\n# c\n 0 6\n", "f:3:2: expected the width from 1 "
		     "to 32, found 0");
	EXPECT_ERROR("P2\n33 6", "f:2:1: expected the width from 1 to 32 "
		     "(attn-trace reads images of at most 32×32 pixels), "
		     "found 33");
	EXPECT_ERROR("P5 6 99999999999 255\n", "f:1:6: expected the height "
		     "from 1 to 32 (attn-trace reads images of at most 32×32 "
		     "pixels), found 99999999999");
	EXPECT_ERROR("P2 6 x", "f:1:6: expected the height, a whole number "
		     "from 1 to 32, found 'x'");
	EXPECT_ERROR("P2 6x6", "f:1:5: expected whitespace after the width, "
		     "found 'x'");
	EXPECT_ERROR("P2 6 6 0\n", "f:1:8: expected the maxval from 1 to "
		     "65535, found 0");
	EXPECT_ERROR("P5 6 6 65536\n", "f:1:8: expected the maxval from 1 to "
		     "65535 (the largest the format allows), found 65536");
	EXPECT_ERROR("P2 6 6", "f:1:7: expected the maxval, a whole number "
		     "from 1 to 65535, found the end of the file");
	/* lines end at LF, CR LF and a lone CR */
	EXPECT_ERROR("P2\r\n\r6 6 0", "f:3:5: expected the maxval from 1 to "
		     "65535, found 0");
	EXPECT_ERROR("P2\r\n6\t-6", "f:2:3: expected the height, a whole "
		     "number from 1 to 32, found '-'");
}
END_TEST

START_TEST(test_plain_body_errors)
{
	EXPECT_ERROR("P2 2 1 9\n3 10\n", "f:2:3: expected a value from 0 to "
		     "the maxval 9 for pixel 2 of 2 (row 1, column 2), found "
		     "10");
	EXPECT_ERROR("P2 2 2 9\n1 2\n3", "f:3:2: expected pixel 4 of 4 (row 2, "
		     "column 2), a whole number from 0 to 9, found the end of "
		     "the file");
	EXPECT_ERROR("P2 1 1 9\n1.5\n", "f:2:2: expected whitespace after the "
		     "value of pixel 1 of 1 (row 1, column 1), found '.'");
	EXPECT_ERROR("P2 1 1 9\n-1\n", "f:2:1: expected pixel 1 of 1 (row 1, "
		     "column 1), a whole number from 0 to 9, found '-'");
	EXPECT_ERROR("P2 1 1 9\n1 2\n", "f:2:3: expected the end of the file "
		     "after the 1 pixel (one image a file), found 2");
	EXPECT_ERROR("P2 1 1 9\n\x01", "f:2:1: expected pixel 1 of 1 (row 1, "
		     "column 1), a whole number from 0 to 9, found the byte "
		     "0x01");
	EXPECT_ERROR("P2 3 1 9 1 2\t\tx", "f:1:15: expected pixel 3 of 3 (row "
		     "1, column 3), a whole number from 0 to 9, found 'x'");
}
END_TEST

START_TEST(test_raw_body_errors)
{
	/* "P5 2 2 255\n" is bytes 1 .. 11; the pixels 12, 13, 14, 15 */
	EXPECT_ERROR("P5 2 2 255\n\1\2\3", "f: byte 15: expected pixel 4 of 4 "
		     "(row 2, column 2), found the end of the file");
	/* a 16-bit pixel cut after its first byte (byte 12 of 13) */
	EXPECT_ERROR("P5 1 1 300\n\1", "f: byte 13: expected pixel 1 of 1 "
		     "(row 1, column 1), found the end of the file");
	EXPECT_ERROR("P5 2 1 9\n\x09\x0a", "f: byte 11: expected a value from "
		     "0 to the maxval 9 for pixel 2 of 2 (row 1, column 2), "
		     "found 10");
	/* 0x012D = 301 */
	EXPECT_ERROR("P5 1 1 300\n\x01\x2d", "f: byte 12: expected a value "
		     "from 0 to the maxval 300 for pixel 1 of 1 (row 1, column "
		     "1), found 301");
	EXPECT_ERROR("P5 1 1 255\n\0\0\0", "f: byte 13: expected the end of "
		     "the file after the 1 pixel (one image a file), found 2 "
		     "more bytes");
	EXPECT_ERROR("P5 1 1 255", "f:1:11: expected one whitespace character "
		     "after the maxval, then the 1 pixel, found the end of the "
		     "file");
	EXPECT_ERROR("P5 2 1 255#c", "f:1:13: expected one whitespace "
		     "character after the maxval, then the 2 pixels, found the "
		     "end of the file");
}
END_TEST

START_TEST(test_load)
{
	char path[] = "/tmp/check_pgm.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	static const char f[] = "P2 1 1 2\n1\n";
	ck_assert_int_eq(write(fd, f, sizeof f - 1), (int)(sizeof f - 1));
	close(fd);
	struct errbuf err;
	ck_assert_int_eq(pgm_load(&img, path, &err), 0);
	ck_assert_double_eq_tol(img.pix[0], .5, 1e-15);
	unlink(path);
	ck_assert_int_eq(pgm_load(&img, path, &err), -1);
	ck_assert(strncmp(err.msg, path, strlen(path)) == 0);
	ck_assert_int_eq(img.width, 0);
}
END_TEST

static Suite *pgm_suite(void)
{
	Suite *s = suite_create("pgm");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_plain_comments_whitespace);
	tcase_add_test(tc, test_plain_comment_ends_token);
	tcase_add_test(tc, test_raw_8bit);
	tcase_add_test(tc, test_raw_16bit);
	tcase_add_test(tc, test_raw_comment_after_maxval);
	tcase_add_test(tc, test_largest);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_plain_body_errors);
	tcase_add_test(tc, test_raw_body_errors);
	tcase_add_test(tc, test_load);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pgm_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
