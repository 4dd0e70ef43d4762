/* check_glimpse.c: the glimpse model (src/glimpse.h, glimpse_train.h).
 *
 * - a case worked by hand: a 2×2 image, a model of one unit each, one
 *   glimpse at a held place; the retina's numbers written out, the rest
 *   from the formulas with those numbers;
 * - the draw: u from SplitMix64's published first output, ε by
 *   Box–Muller;
 * - the corner and the retina at the image's edges;
 * - the gradient of the training objective J (glimpse_train.h) against
 *   central differences with the draws held fixed: every weight, the
 *   backpropagated terms and REINFORCE's (W_l, b_l) and the baseline's;
 * - the model file: written and read back to the same doubles, and its
 *   errors with their place. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glimpse.h"
#include "glimpse_train.h"
#include "glimpse_view.h"
#include "view_key.h"
#include "train.h"

#define TOL 1e-12

/* The 2×2 image [0.2 0.4; 0.6 0.8]. */
static void image_2x2(struct pgm_image *im)
{
	memset(im, 0, sizeof *im);
	im->width = im->height = 2;
	im->maxval = 5;
	const double v[4] = { 0.2, 0.4, 0.6, 0.8 };
	for (int k = 0; k < 4; k++) {
		im->pix[k] = v[k];
		im->raw[k] = (unsigned short)(v[k] * 5 + 0.5);
	}
}

/* H = D = 1, T = 1, K = 2, σ = 0.5. */
static void model_tiny(struct glimpse_model *m)
{
	memset(m, 0, sizeof *m);
	m->hidden = m->gsize = m->steps = 1;
	m->nclass = 2;
	strcpy(m->cls[0], "yes");
	strcpy(m->cls[1], "no");
	m->sigma = 0.5;
	m->W_l[0] = 0.5;
	m->W_l[1] = -0.25;
	m->b_l[0] = 0.1;
	m->b_l[1] = 0.2;
	for (int j = 0; j < GLIMPSE_IN; j++)
		m->W_g[j] = 0.1;
	m->b_g[0] = -0.06;
	m->W_h[0] = 0.7;
	m->W_x[0] = 2.0;
	m->b_h[0] = 0.1;
	m->W_c[0] = 1.0;
	m->W_c[1] = -1.0;
	m->b_c[0] = 0.0;
	m->b_c[1] = 0.5;
	m->base[0] = 0.25;
}

START_TEST(test_hand_worked)
{
	static struct glimpse_model m;
	static struct pgm_image im;
	static struct glimpse_trace tr;
	model_tiny(&m);
	image_2x2(&im);
	const double held[2] = { 0.3, -0.2 };
	glimpse_run(&m, &im, GLIMPSE_HELD, NULL, held, 0, &tr);
	const struct glimpse_step *s = &tr.st[0];
	/* h_0 = 0, so a_l = b_l */
	ck_assert_double_eq_tol(s->a_l[0], 0.1, TOL);
	ck_assert_double_eq_tol(s->l_hat[1], tanh(0.2), TOL);
	double e0 = (0.3 - tanh(0.1)) / 0.5, e1 = (-0.2 - tanh(0.2)) / 0.5;
	ck_assert_double_eq_tol(s->eps[0], e0, TOL);
	ck_assert_double_eq_tol(s->eps[1], e1, TOL);
	/* the density of two independent normals of spread 0.5 */
	double dens = exp(-e0 * e0 / 2) / (0.5 * sqrt(2 * 3.14159265358979323846)) *
		      exp(-e1 * e1 / 2) / (0.5 * sqrt(2 * 3.14159265358979323846));
	ck_assert_double_eq_tol(s->log_pi, log(dens), TOL);
	ck_assert_double_eq_tol(s->dlogpi[0], (0.3 - tanh(0.1)) / 0.25, TOL);
	/* corner: row ⌊1.3/2·2 + 0.5⌋ = 1, column ⌊0.8/2·2 + 0.5⌋ = 1 */
	ck_assert_int_eq(s->row, 1);
	ck_assert_int_eq(s->col, 1);
	/* the fovea is the whole image; the periphery's blocks each hold
	 * one pixel and three outside: 0.2/4, 0.4/4, 0.6/4, 0.8/4 */
	const double x[GLIMPSE_IN] = { 0.2, 0.4, 0.6, 0.8, 0.05, 0.1, 0.15,
				       0.2, 0.3, -0.2 };
	for (int j = 0; j < GLIMPSE_IN; j++)
		ck_assert_double_eq_tol(s->x[j], x[j], TOL);
	/* a_g = 0.1·2.6 - 0.06 = 0.2 */
	ck_assert_double_eq_tol(s->a_g[0], 0.2, TOL);
	double h = tanh(2.0 * tanh(0.2) + 0.1);
	ck_assert_double_eq_tol(s->h[0], h, TOL);
	/* z = (h, 0.5 - h) */
	ck_assert_double_eq_tol(tr.z[1], 0.5 - h, TOL);
	double p0 = 1.0 / (1.0 + exp(0.5 - 2.0 * h));
	ck_assert_double_eq_tol(tr.p[0], p0, TOL);
	ck_assert_int_eq(tr.pred, p0 > 0.5 ? 0 : 1);
	ck_assert_double_eq_tol(tr.loss, -log(p0), TOL);
	ck_assert_double_eq_tol(tr.reward, p0 > 0.5 ? 1.0 : 0.0, TOL);
	ck_assert_double_eq_tol(tr.adv[0], tr.reward - 0.25, TOL);
}
END_TEST

START_TEST(test_draw)
{
	uint64_t rng = 0;
	double u[2], eps[2];
	glimpse_normal(&rng, u, eps);
	/* SplitMix64 from 0: 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4 */
	double u0 = (double)(0xE220A8397B1DCDAFULL >> 11) / 9007199254740992.0;
	double u1 = (double)(0x6E789E6AA1B965F4ULL >> 11) / 9007199254740992.0;
	ck_assert(u[0] == u0);
	ck_assert(u[1] == u1);
	double r = sqrt(-2.0 * log(1.0 - u0));
	ck_assert_double_eq_tol(eps[0], r * cos(2 * 3.14159265358979323846 * u1),
				TOL);
	ck_assert_double_eq_tol(eps[1], r * sin(2 * 3.14159265358979323846 * u1),
				TOL);
}
END_TEST

START_TEST(test_corner_and_edges)
{
	static struct pgm_image im;
	image_2x2(&im);
	int r, c;
	double far[2] = { -7.0, 3.0 };   /* clamped to (-1, 1) */
	glimpse_corner(&im, far, &r, &c);
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(c, 2);
	/* corner (0, 2): the fovea's pixels are rows -1, 0, columns 1, 2:
	 * only (0, 1) = 0.4 is inside; the periphery's blocks start at rows
	 * -2 and 0, columns 0 and 2: only the third, rows 0-1, columns 0-1,
	 * is inside, the whole image */
	double out[GLIMPSE_RETINA];
	glimpse_retina(&im, 0, 2, out);
	const double want[GLIMPSE_RETINA] = { 0, 0, 0.4, 0,
					      0, 0, (0.2 + 0.4 + 0.6 + 0.8) / 4,
					      0 };
	for (int k = 0; k < GLIMPSE_RETINA; k++)
		ck_assert_double_eq_tol(out[k], want[k], TOL);
}
END_TEST

/* A model of H = 3, D = 2, T = 3, K = 3, weights uniform in ±0.8. */
static void model_random(struct glimpse_model *m)
{
	uint64_t rng = 7;
	memset(m, 0, sizeof *m);
	m->hidden = 3;
	m->gsize = 2;
	m->steps = 3;
	m->nclass = 3;
	m->sigma = 0.3;
	for (int k = 0; k < glimpse_nparams; k++) {
		int n = glimpse_dim_size(m, glimpse_params[k].rows) *
			glimpse_dim_size(m, glimpse_params[k].cols);
		double *v = glimpse_param_ptr(m, k);
		for (int i = 0; i < n; i++)
			v[i] = train_rand_uniform(&rng, -0.8, 0.8);
	}
}

/* A 6×6 image: a bar down column 1 and some noise. */
static void image_bar(struct pgm_image *im)
{
	memset(im, 0, sizeof *im);
	im->width = im->height = 6;
	im->maxval = 255;
	for (int r = 0; r < 6; r++)
		for (int c = 0; c < 6; c++)
			im->pix[r * 6 + c] = c == 1 ? 0.8 : (r + c) % 5 == 0 ? 0.2 : 0;
}

/* J of m on im with the places and advantages of base held. */
static double objective_held(const struct glimpse_model *m,
			     const struct pgm_image *im,
			     const struct glimpse_trace *base)
{
	static struct glimpse_trace tr;
	double held[2 * GLIMPSE_MAX_STEPS];
	for (int t = 0; t < base->steps; t++) {
		held[2 * t] = base->st[t].l[0];
		held[2 * t + 1] = base->st[t].l[1];
	}
	glimpse_run(m, im, GLIMPSE_HELD, NULL, held, base->truth, &tr);
	tr.reward = base->reward; /* R held too */
	return glimpse_objective(m, &tr, base->adv);
}

/* The gradient check for the true class y and the seed of the draws;
 * returns the largest |dJ/dW_l| seen. */
static double gradient_check(int y, uint64_t seed)
{
	static struct glimpse_model m, grad, mm;
	static struct pgm_image im;
	static struct glimpse_trace tr;
	model_random(&m);
	image_bar(&im);
	uint64_t rng = seed;
	glimpse_run(&m, &im, GLIMPSE_SAMPLE, &rng, NULL, y, &tr);
	memset(&grad, 0, sizeof grad);
	glimpse_backward(&m, &tr, &grad);
	double wl = 0;
	for (int k = 0; k < glimpse_nparams; k++) {
		int n = glimpse_dim_size(&m, glimpse_params[k].rows) *
			glimpse_dim_size(&m, glimpse_params[k].cols);
		for (int i = 0; i < n; i++) {
			const double e = 1e-6;
			mm = m;
			glimpse_param_ptr(&mm, k)[i] += e;
			double jp = objective_held(&mm, &im, &tr);
			mm = m;
			glimpse_param_ptr(&mm, k)[i] -= e;
			double jm = objective_held(&mm, &im, &tr);
			double fd = (jp - jm) / (2 * e);
			double an = glimpse_param_ptr(&grad, k)[i];
			ck_assert_msg(fabs(fd - an) <= 1e-7 * (1 + fabs(fd)),
				      "%s[%d]: analytic %.12g, differences %.12g",
				      glimpse_params[k].name, i, an, fd);
			if (k == 0 && fabs(an) > wl)
				wl = fabs(an);
		}
	}
	return wl;
}

START_TEST(test_gradient)
{
	/* each class as the true one, so both R = 1 and R = 0 occur */
	double wl = 0;
	int rewards = 0;
	for (int y = 0; y < 3; y++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			double w = gradient_check(y, seed);
			if (w > wl)
				wl = w;
			rewards++;
		}
	ck_assert_int_eq(rewards, 9);
	/* REINFORCE's term is not vacuous: W_l has a gradient */
	ck_assert_msg(wl > 1e-3, "dJ/dW_l is %g", wl);
}
END_TEST

START_TEST(test_model_file)
{
	static struct glimpse_model m, back;
	struct errbuf err;
	char *buf = NULL;
	size_t len = 0;
	model_random(&m);
	strcpy(m.cls[0], "dot");
	strcpy(m.cls[1], "bar");
	strcpy(m.cls[2], "box");
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(glimpse_model_write(f, &m, "a comment\n\nof two"), 0);
	fclose(f);
	ck_assert_int_eq(glimpse_model_parse(&back, buf, len, "m", &err), 0);
	ck_assert_int_eq(memcmp(&m, &back, sizeof m), 0);
	free(buf);
	static const struct { const char *text, *msg; } bad[] = {
		{ "attn-trace-glimpse 2\n", "m:1:20: expected the version 1, "
		  "found '2'" },
		{ "attn-trace-glimpse 1\nhidden 99\n", "m:2:8: expected a whole "
		  "number from 1 to 16, found '99'" },
		{ "attn-trace-glimpse 1\nhidden 2\nglimpse 2\nsteps 1\n"
		  "sigma 0\n", "m:5:7: expected a number above 0, at most 10, "
		  "found '0'" },
		{ "attn-trace-glimpse 1\nhidden 1\nglimpse 1\nsteps 1\nsigma "
		  "0.3000000000000000000000000000000000000000000000000000000000"
		  "0000001\n", "m:5:7: expected a number above 0, at most 10, "
		  "found '0.300000000000000000...'" },
		{ "attn-trace-glimpse 1\nhidden 1\nglimpse 1\nsteps 1\n"
		  "sigma 1\nclasses a b\n[W_l]\n1 2\n", "m:8:3: expected the end "
		  "of the row, found '2'" },
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		int rc = glimpse_model_parse(&back, bad[k].text,
					     strlen(bad[k].text), "m", &err);
		ck_assert_int_eq(rc, -1);
		ck_assert_str_eq(err.msg, bad[k].msg);
	}
}
END_TEST
/* The stepper's view model (glimpse_view.h), without a terminal: a
 * glimpse's screen holds the picture (2·6 + 1 rows for a 6×6 image)
 * with the numbers beside it at 80 columns and below it at 40, the
 * corner the run chose, and the keys step from glimpse 1 to the class
 * and no further. */
START_TEST(test_view)
{
	static struct glimpse_model m;
	static struct pgm_image im;
	static struct glimpse_trace tr;
	struct glimpse_view v;
	struct view_screen sc;
	struct errbuf err;
	char want[64];
	uint64_t rng = 1;
	ck_assert_int_eq(glimpse_model_load(&m, GLIMPSE_BUILTIN, &err), 0);
	ck_assert_int_eq(pgm_parse(&im, (const unsigned char *)
		"P2 6 6 9\n0 0 9 0 0 0\n0 0 9 0 0 0\n0 0 9 0 0 0\n"
		"0 0 9 0 0 0\n0 0 9 0 0 0\n0 0 9 0 0 0\n", 81, "bar", &err), 0);
	glimpse_run(&m, &im, GLIMPSE_SAMPLE, &rng, NULL, 1, &tr);
	glimpse_view_init(&v, &m, "glimpse6", &im, "bar", &tr, 4, 1, 80);
	glimpse_view_render(&v, &sc);
	ck_assert_int_eq(sc.nbody, 13);  /* side by side: the picture's rows */
	snprintf(want, sizeof want, "corner (row, column) = (%d, %d)",
		 tr.st[0].row, tr.st[0].col);
	int found = 0;
	for (int k = 0; k < sc.nbody; k++)
		found += strstr(sc.body[k], want) != NULL;
	ck_assert_int_eq(found, 1);
	view_screen_free(&sc);
	v.width = 40;
	glimpse_view_render(&v, &sc);
	ck_assert_int_gt(sc.nbody, 13 + 10); /* the numbers below it */
	view_screen_free(&sc);
	ck_assert_int_eq(glimpse_view_key(&v, VIEW_KEY_LEFT), VIEW_KEY_BEEP);
	for (int t = 1; t <= m.steps; t++) {
		ck_assert_int_eq(glimpse_view_key(&v, VIEW_KEY_RIGHT),
				 VIEW_KEY_REDRAW);
		ck_assert_int_eq(v.screen, t);
	}
	ck_assert_int_eq(glimpse_view_key(&v, VIEW_KEY_RIGHT), VIEW_KEY_BEEP);
	ck_assert_int_eq(v.screen, m.steps);
	glimpse_view_render(&v, &sc);
	ck_assert_ptr_nonnull(strstr(sc.where, "the class"));
	view_screen_free(&sc);
	ck_assert_int_eq(glimpse_view_key(&v, VIEW_KEY_HOME), VIEW_KEY_REDRAW);
	ck_assert_int_eq(v.screen, 0);
	ck_assert_int_eq(glimpse_view_key(&v, 'q'), VIEW_KEY_QUIT);
}
END_TEST


static Suite *glimpse_suite(void)
{
	Suite *s = suite_create("glimpse");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_hand_worked);
	tcase_add_test(tc, test_draw);
	tcase_add_test(tc, test_corner_and_edges);
	tcase_add_test(tc, test_gradient);
	tcase_add_test(tc, test_model_file);
	tcase_add_test(tc, test_view);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(glimpse_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
