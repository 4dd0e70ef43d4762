/* check_caption.c: soft attention over an image (src/caption.c): the
 * patch encoder and the first step of attention on a hand-set model and
 * image, worked out by hand; the gradient of every weight of an image
 * model, the patch encoder's included, against central differences; and
 * the place-word measure on a hand-made set. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "caption.h"
#include "imageset.h"
#include "train.h"

static const char *srcdir(void)
{
	const char *dir = getenv("srcdir");
	return dir ? dir : ".";
}

/* tests/data/caption-random.model, an image model of random weights */
static void load_model(struct model *m)
{
	char path[4096];
	struct errbuf err;
	snprintf(path, sizeof path, "%s/tests/data/caption-random.model",
		 srcdir());
	ck_assert_msg(model_load_file(m, path, &err) == 0, "%s", err.msg);
}

/* A 6x6 image, black but pixel (row 2, col 3) = 1: in the middle cell
 * (rows 2-3, columns 2-3), its top right pixel. */
static void one_pixel(struct pgm_image *im)
{
	memset(im, 0, sizeof *im);
	im->width = im->height = 6;
	im->maxval = 1;
	im->raw[2 * 6 + 3] = 1;
	im->pix[2 * 6 + 3] = 1.0;
}

/* W_patch = I, b_patch = 0, P = 0, W_init = I: h_i = tanh(patch_i),
 * s_0 = tanh(h̄).  By hand: patch_5 = [0, 1, 0, 0], h_5 = [0, tanh 1,
 * 0, 0], every other h_i = 0; h̄ = [0, tanh(1)/9, 0, 0]; s_0 =
 * [0, tanh(tanh(1)/9), 0, 0]; with dot, e_1,i = s_0·h_i is 0 but for
 * e_1,5 = tanh(tanh(1)/9)·tanh(1), and α_1,5 = exp(e_1,5) / (8 +
 * exp(e_1,5)). */
START_TEST(test_by_hand)
{
	struct model m;
	struct pgm_image im;
	struct trace tr;
	struct errbuf err;
	load_model(&m);
	for (int k = 0; k < 16; k++) {
		m.Wpatch[k] = k % 5 == 0;
		m.Wpinit[k] = k % 5 == 0;
	}
	memset(m.bpatch, 0, 4 * sizeof(double));
	memset(m.Ppatch, 0, 9 * 4 * sizeof(double));
	one_pixel(&im);
	ck_assert_msg(caption_build(&tr, &m, &im, NULL, 0, 1u << SCORER_dot,
				    NULL, &err) == 0, "%s", err.msg);
	const double t1 = tanh(1.0), s01 = tanh(tanh(1.0) / 9.0);
	const struct trace_rec *r = trace_find(&tr, REC_PATCH, -1, 0, 5);
	const struct trace_operand *px = trace_op_key(r, "pixels");
	const double want_px[4] = { 0, 1, 0, 0 };
	for (int k = 0; k < 4; k++) {
		ck_assert_double_eq_tol(px->v[k], want_px[k], 1e-15);
		ck_assert_double_eq_tol(r->result[k], k == 1 ? t1 : 0.0, 1e-15);
	}
	r = trace_find(&tr, REC_PATCH, -1, 0, 6);
	for (int k = 0; k < 4; k++)
		ck_assert_double_eq_tol(r->result[k], 0.0, 1e-15);
	r = trace_find(&tr, REC_INIT, -1, 0, 0);
	ck_assert_double_eq_tol(trace_op_key(r, "mean")->v[1], t1 / 9.0,
				1e-15);
	ck_assert_double_eq_tol(r->result[1], s01, 1e-15);
	ck_assert_double_eq_tol(r->result[0], 0.0, 1e-15);
	const double e5 = s01 * t1;
	r = trace_find(&tr, REC_SCORES, 0, 1, 0);
	ck_assert_double_eq_tol(r->result[4], e5, 1e-15);
	ck_assert_double_eq_tol(r->result[0], 0.0, 1e-15);
	const double *a = trace_weights(&tr, 0, 1);
	ck_assert_double_eq_tol(a[4], exp(e5) / (8.0 + exp(e5)), 1e-15);
	ck_assert_double_eq_tol(a[0], 1.0 / (8.0 + exp(e5)), 1e-15);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* Loads the first n images of data/images/train.captions into *set. */
static void load_set(struct imageset *set, int n)
{
	char path[4096];
	struct errbuf err;
	snprintf(path, sizeof path, "%s/data/images/train.captions", srcdir());
	ck_assert_msg(imageset_load(set, path, &err) == 0, "%s", err.msg);
	ck_assert_int_ge(set->n, n);
	set->n = n;
}

/* Every weight of an image model with the dot and general scorers, all
 * random in [-1, 1], against central differences on three images with
 * their place words guided (λ 0.3): the loss goes through the decoder
 * back into the annotations, s_0 and the patch encoder. */
START_TEST(test_gradient)
{
	struct imageset set;
	struct train_data d;
	struct trainer t;
	struct errbuf err;
	uint64_t state = 99;
	const unsigned scorers = 1u << SCORER_dot | 1u << SCORER_general;
	const int picks[3] = { 0, 30, 40 }; /* a dot, a bar, a box */
	load_set(&set, 44);
	struct imageset_item keep[3];
	for (int k = 0; k < 3; k++)
		keep[k] = set.item[picks[k]];
	for (int k = 0; k < 3; k++)
		set.item[k] = keep[k];
	int all = set.n;
	set.n = 3;
	ck_assert_msg(caption_data(&d, &set, "train.captions", &err) == 0,
		      "%s", err.msg);
	train_init_random_arch(&t, &d, arch_find("bahdanau"), 4, 4, 4, 9,
			       scorers | PATCH_PARAM_BIT, 7);
	t.work.align_weight = 0.3;
	for (size_t k = 0; k < t.lay.total; k++)
		t.theta[k] = train_rand_uniform(&state, -1.0, 1.0);
	train_loss(&t.lay, t.theta, t.grad, &d, scorers, &t.work, NULL);
	int patch = 0;
	for (int b = 0; b < t.lay.nblocks; b++) {
		const double h = 1e-5;
		double worst = 0.0;
		for (size_t k = t.lay.off[b]; k < t.lay.off[b] + t.lay.len[b];
		     k++) {
			double save = t.theta[k];
			t.theta[k] = save + h;
			double up = train_loss(&t.lay, t.theta, NULL, &d,
					       scorers, &t.work, NULL);
			t.theta[k] = save - h;
			double down = train_loss(&t.lay, t.theta, NULL, &d,
						 scorers, &t.work, NULL);
			t.theta[k] = save;
			double num = (up - down) / (2 * h), a = t.grad[k];
			double scale = fmax(fmax(fabs(a), fabs(num)), 1e-4);
			worst = fmax(worst, fabs(a - num) / scale);
		}
		patch += strncmp(train_block_name(&t.lay, b), "patch.", 6) == 0;
		ck_assert_msg(worst < 1e-5, "block %s: relative error %g",
			      train_block_name(&t.lay, b), worst);
	}
	ck_assert_int_eq(patch, 4); /* W, b, P, W_init were checked */
	train_free(&t);
	train_data_free(&d);
	set.n = all;
	imageset_free(&set);
}
END_TEST

/* The pairs of caption_data: the cells, the caption, and each place word
 * linked to the cells the object covers.  Image 31 of the training set,
 * "a bar at the top" (bar-y1: row 1, all six columns), covers the top
 * row of cells 1, 2, 3; image 0, "a dot at the top left" at (0, 1),
 * covers cell 1 alone. */
START_TEST(test_data)
{
	struct imageset set;
	struct train_data d;
	struct errbuf err;
	load_set(&set, 44);
	ck_assert_msg(caption_data(&d, &set, "train.captions", &err) == 0,
		      "%s", err.msg);
	ck_assert_int_eq(d.src.n, 9);
	ck_assert_str_eq(d.src.words[0], "top-left");
	ck_assert_str_eq(d.src.words[8], "bottom-right");
	const struct train_pair *pr = &d.pairs[30];
	ck_assert_str_eq(set.item[30].file, "train/bar-y1.pgm");
	ck_assert_int_eq(pr->ntgt, 5); /* a bar at the top */
	for (int j = 0; j < 5; j++)
		for (int i = 0; i < 9; i++)
			ck_assert_int_eq(pr->gold[j * 9 + i],
					 j == 4 && i < 3);
	pr = &d.pairs[0];
	ck_assert_str_eq(set.item[0].file, "train/dot-y0-x1.pgm");
	for (int j = 0; j < 6; j++) /* a dot at the top left */
		for (int i = 0; i < 9; i++)
			ck_assert_int_eq(pr->gold[j * 9 + i], j >= 4 && i == 0);
	ck_assert_ptr_eq(pr->input, &set.item[0].image);
	train_data_free(&d);
	imageset_free(&set);
}
END_TEST

static Suite *caption_suite(void)
{
	Suite *s = suite_create("caption");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_by_hand);
	tcase_add_test(tc, test_data);
	tcase_add_test(tc, test_gradient);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(caption_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
