/* check_imageset.c: the reader of .captions files (src/imageset.h) on
 * files written here by hand, every error with its exact place, and the
 * shipped sets of data/images/, whose lines are counted here by hand. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imageset.h"

static char dir[] = "/tmp/check_imageset.XXXXXX";

/* Writes s into dir/name. */
static void put(const char *name, const char *s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(s, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char sub[600];
	snprintf(sub, sizeof sub, "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	/* 3 wide, 2 high: the second a 4×4 */
	put("a.pgm", "P2 3 2 4\n0 1 2\n3 4 0\n");
	put("sub/b.pgm", "P2 4 4 1\n0 0 0 0\n0 1 1 0\n0 1 1 0\n0 0 0 0\n");
}

static void teardown(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/check_imageset.XXXXXX");
}

/* Loads dir/c.captions holding text; returns imageset_load's status. */
static int load(struct imageset *set, const char *text, struct errbuf *err)
{
	put("c.captions", text);
	char path[512];
	snprintf(path, sizeof path, "%s/c.captions", dir);
	return imageset_load(set, path, err);
}

/* text fails with the message "DIR/c.captions:" + want. */
static void expect_error(const char *text, const char *want)
{
	struct imageset set;
	struct errbuf err;
	ck_assert_int_eq(load(&set, text, &err), -1);
	char full[1200];
	snprintf(full, sizeof full, "%s/c.captions:%s", dir, want);
	ck_assert_str_eq(err.msg, full);
	ck_assert_int_eq(set.n, 0);
	ck_assert_ptr_null(set.item);
}

START_TEST(test_read)
{
	struct imageset set;
	struct errbuf err;
	ck_assert_int_eq(load(&set, "\xef\xbb\xbf# two images\n\n"
			      "a.pgm ||| dot ||| a dot ||| 1 2 1 1 # one\r\n"
			      "\tsub/b.pgm|||box|||a  box in\tthe middle|||"
			      "1 1 2 2", &err), 0);
	ck_assert_int_eq(set.n, 2);
	struct imageset_item *a = &set.item[0], *b = &set.item[1];
	ck_assert_str_eq(a->file, "a.pgm");
	ck_assert_str_eq(a->cls, "dot");
	ck_assert_int_eq(a->ncaption, 2);
	ck_assert_str_eq(a->caption[0], "a");
	ck_assert_str_eq(a->caption[1], "dot");
	ck_assert_int_eq(a->line, 3);
	ck_assert_int_eq(a->box_row, 1);
	ck_assert_int_eq(a->box_col, 2);
	ck_assert_int_eq(a->box_height, 1);
	ck_assert_int_eq(a->box_width, 1);
	ck_assert_int_eq(a->image.width, 3);
	ck_assert_double_eq_tol(pgm_at(&a->image, 1, 0), .75, 1e-15);
	ck_assert_str_eq(b->file, "sub/b.pgm");
	ck_assert_str_eq(b->cls, "box");
	ck_assert_int_eq(b->ncaption, 5);
	ck_assert_str_eq(b->caption[2], "in");
	ck_assert_str_eq(b->caption[4], "middle");
	ck_assert_int_eq(b->line, 4);
	ck_assert_int_eq(b->image.height, 4);
	/* the box of b is rows 1-2, columns 1-2 */
	ck_assert(imageset_in_box(b, 1, 1));
	ck_assert(imageset_in_box(b, 2, 2));
	ck_assert(!imageset_in_box(b, 3, 2));
	ck_assert(!imageset_in_box(b, 1, 0));
	/* a 2×2 cell at (0, 0) holds pixel (1, 1) of the box: 1/4 */
	ck_assert_double_eq_tol(imageset_box_overlap(b, 0, 0, 2, 2), .25,
				1e-15);
	ck_assert_double_eq_tol(imageset_box_overlap(b, 1, 1, 2, 2), 1, 1e-15);
	ck_assert_double_eq_tol(imageset_box_overlap(b, 2, 0, 2, 3), 2.0 / 6,
				1e-15);
	imageset_free(&set);
	ck_assert_int_eq(set.n, 0);
}
END_TEST

START_TEST(test_errors)
{
	expect_error("a.pgm ||| dot ||| a dot\n",
		     "1:24: expected four fields, FILE ||| CLASS ||| CAPTION "
		     "||| ROW COL HEIGHT WIDTH, found fewer");
	expect_error("\na.pgm ||| dot ||| a ||| 0 0 1 1 ||| x\n",
		     "2:33: expected four fields, FILE ||| CLASS ||| CAPTION "
		     "||| ROW COL HEIGHT WIDTH, found more");
	expect_error(" ||| dot ||| a ||| 0 0 1 1\n",
		     "1:1: expected the image's file name, found nothing");
	expect_error("a.pgm b.pgm ||| dot ||| a ||| 0 0 1 1\n",
		     "1:7: expected \"|||\" after one word, found \"b.pgm\"");
	expect_error("../a.pgm ||| dot ||| a ||| 0 0 1 1\n",
		     "1:1: expected a relative path without \".\" or \"..\" "
		     "(an image beside the captions file or under it), found "
		     "\"../a.pgm\"");
	expect_error("/etc/passwd ||| dot ||| a ||| 0 0 1 1\n",
		     "1:1: expected a relative path without \".\" or \"..\" "
		     "(an image beside the captions file or under it), found "
		     "\"/etc/passwd\"");
	expect_error("sub/./b.pgm ||| dot ||| a ||| 0 0 1 1\n",
		     "1:1: expected a relative path without \".\" or \"..\" "
		     "(an image beside the captions file or under it), found "
		     "\"sub/./b.pgm\"");
	expect_error("a.pgm |||  ||| a ||| 0 0 1 1\n",
		     "1:10: expected the image's class, one word of at most 63 "
		     "bytes, found nothing");
	expect_error("a.pgm ||| dot |||   ||| 0 0 1 1\n",
		     "1:18: expected a caption of one word or more, found "
		     "nothing");
	expect_error("a.pgm ||| dot ||| a b c d e f g h i j k l m n o p q r "
		     "||| 0 0 1 1\n",
		     "1:51: expected \"|||\" after at most 16 caption words, "
		     "found \"q\"");
	expect_error("a.pgm ||| dot ||| a ||| 0 x 1 1\n",
		     "1:27: expected the box's left column (a whole number from "
		     "0), found \"x\"");
	expect_error("a.pgm ||| dot ||| a ||| 0 0 0 1\n",
		     "1:29: expected the box's height (a whole number from 1), "
		     "found \"0\"");
	expect_error("a.pgm ||| dot ||| a ||| 0 0 1\n",
		     "1:30: expected the box's width (a whole number from 1), "
		     "found nothing");
	expect_error("a.pgm ||| dot ||| a ||| 0 0 1 1 5\n",
		     "1:33: expected the end of the line after the box's four "
		     "numbers, found \"5\"");
	/* rows 1 to 2 of an image 2 high */
	expect_error("a.pgm ||| dot ||| a ||| 1 0 2 1\n",
		     "1:24: expected a box inside the 3×2 image, found rows 1 "
		     "to 2 and columns 0 to 0");
	expect_error("a.pgm ||| d\x01t ||| a ||| 0 0 1 1\n",
		     "1:12: expected a printable character, found \"\\x01\"");
	expect_error("a.pgm ||| d\xc3 ||| a ||| 0 0 1 1\n",
		     "1:12: expected valid UTF-8, found \"\\xc3\"");
	expect_error("# nothing\n\n",
		     "3:1: expected an image a line (FILE ||| CLASS ||| CAPTION "
		     "||| ROW COL HEIGHT WIDTH), found none");
}
END_TEST

/* An image that cannot be read gets its own reader's message, which
 * names it; one that does not exist, the captions file's place. */
START_TEST(test_image_errors)
{
	struct imageset set;
	struct errbuf err;
	put("bad.pgm", "P2 2 2 4\n0 1 2\n");
	ck_assert_int_eq(load(&set, "a.pgm ||| dot ||| a ||| 0 0 1 1\n"
			      "bad.pgm ||| dot ||| a ||| 0 0 1 1\n", &err), -1);
	char want[600];
	snprintf(want, sizeof want, "%s/bad.pgm:", dir);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
	ck_assert_int_eq(set.n, 0);
	/* a missing image: the place is the captions file's line, at the
	 * name, and the message names the path tried */
	ck_assert_int_eq(load(&set, "a.pgm ||| dot ||| a ||| 0 0 1 1\n"
			      "  sub/gone.pgm ||| dot ||| a ||| 0 0 1 1\n",
			      &err), -1);
	char full[1400];
	snprintf(full, sizeof full, "%s/c.captions:2:3: expected the name of "
		 "a PGM image beside the captions file or under it, found "
		 "%s/sub/gone.pgm, which does not exist", dir, dir);
	ck_assert_str_eq(err.msg, full);
	ck_assert_int_eq(set.n, 0);
}
END_TEST

/* The shipped sets: 44 and 20 images (data/README.md), every one 6×6
 * with a box inside it, the first line of train.captions read back. */
START_TEST(test_shipped)
{
	const char *src = getenv("srcdir");
	char path[1024];
	static const struct { const char *file; int n; } sets[] = {
		{ "train.captions", 44 }, { "heldout.captions", 20 } };
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/data/images/%s",
			 src ? src : ".", sets[k].file);
		struct imageset set;
		struct errbuf err;
		ck_assert_msg(imageset_load(&set, path, &err) == 0, "%s",
			      err.msg);
		ck_assert_int_eq(set.n, sets[k].n);
		for (int i = 0; i < set.n; i++) {
			ck_assert_int_eq(set.item[i].image.width, 6);
			ck_assert_int_eq(set.item[i].image.height, 6);
			/* the brightest pixel is in the object's box */
			const struct pgm_image *im = &set.item[i].image;
			int best = 0;
			for (int p = 1; p < 36; p++)
				if (im->pix[p] > im->pix[best])
					best = p;
			ck_assert(imageset_in_box(&set.item[i], best / 6,
						  best % 6));
		}
		imageset_free(&set);
	}
}
END_TEST

static Suite *imageset_suite(void)
{
	Suite *s = suite_create("imageset");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_image_errors);
	tcase_add_test(tc, test_shipped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(imageset_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
