/* check_window.c: the local windows (src/window_local*.c) and the fixed
 * window (src/window_fixed.c) against numbers
 * worked out by hand from the formulas of doc/model.md, on
 * tests/data/localp.model (tiny.model with W_p = [[0.9, -0.4], [0.3, 1.2]]
 * and v_p = [1.5, -0.7]) and tests/data/localp-bahdanau.model. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testmodel.h"
#include "trace.h"
#include "window.h"

#define TOL 1e-12

static struct model M;

static void setup(void)
{
	testmodel_load(&M, "localp.model");
}

static void teardown(void)
{
	model_free(&M);
}

/* "un deux trois deux un" -> "one two three" */
static const int SRC[] = { 0, 1, 2, 1, 0 };
static const int TGT[] = { 2, 3, 4 };

static const struct trace_rec *need(const struct trace *tr,
				    enum trace_kind k, int run, int t)
{
	const struct trace_rec *r = trace_find(tr, k, run, t, 0);
	ck_assert_msg(r != NULL, "no record of kind %d at t %d", k, t);
	return r;
}

static void build(struct trace *tr, const struct model *m, int window,
		  int D, unsigned scorers)
{
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	cfg.window = window;
	cfg.window_size = D;
	int rc = trace_build(tr, m, SRC, 5, TGT, 3, scorers, &cfg, &err);
	ck_assert_msg(rc == 0, "trace_build: %s", err.msg);
}

/* Step 1 of local-p, D = 1, dot scorer, worked by hand:
 *   s_1 = (0.0396, 0.4782)  (the decoder's state, checked in check_trace)
 *   W_p·s_1 = (0.9×0.0396 - 0.4×0.4782, 0.3×0.0396 + 1.2×0.4782)
 *           = (-0.1556, 0.5857);  tanh = (-0.1544, 0.5268)
 *   v_p·tanh = 1.5×(-0.1544) - 0.7×0.5268 = -0.6004
 *   σ = 1/(1 + e^0.6004) = 0.3543;  p_1 = 1 + 4×0.3543 = 2.417
 *   window ⌊2.417⌋ ± 1 = 1 .. 3;  σ_G = 0.5
 *   Gaussian factors exp(-(j - 2.417)²/0.5): 0.0180, 0.7062, 0.5068 */
START_TEST(test_local_p_by_hand)
{
	struct trace tr;
	build(&tr, &M, WINDOW_local_p, 1, 1u << SCORER_dot);
	const struct trace_rec *pos = need(&tr, REC_POSITION, 0, 1);
	const struct trace_rec *win = need(&tr, REC_WINDOW, 0, 1);
	const struct trace_rec *sm = need(&tr, REC_SOFTMAX, 0, 1);
	const struct trace_rec *g = need(&tr, REC_GAUSS, 0, 1);
	const double *s = need(&tr, REC_RNN, 0, 1)->result;
	const double *e = need(&tr, REC_SCORES, 0, 1)->result;
	ck_assert_double_eq_tol(s[0], 0.0396, 5e-5);
	ck_assert_double_eq_tol(s[1], 0.4782, 5e-5);
	/* the formula, with the test's own loops */
	double wq0 = 0.9 * s[0] - 0.4 * s[1], wq1 = 0.3 * s[0] + 1.2 * s[1];
	double v = 1.5 * tanh(wq0) - 0.7 * tanh(wq1);
	double sig = 1.0 / (1.0 + exp(-v)), p = 1.0 + 4.0 * sig;
	ck_assert_double_eq_tol(pos->ops[3].v[0], wq0, TOL);
	ck_assert_double_eq_tol(pos->ops[3].v[1], wq1, TOL);
	ck_assert_double_eq_tol(pos->ops[5].v[0], v, TOL);
	ck_assert_double_eq_tol(pos->ops[6].v[0], sig, TOL);
	ck_assert_double_eq_tol(pos->result[0], p, TOL);
	ck_assert_double_eq_tol(p, 2.417, 5e-4); /* by hand */
	ck_assert_int_eq(pos->nterms, 2);
	ck_assert_double_eq_tol(pos->terms[0], 1.5, TOL);
	ck_assert_double_eq_tol(pos->terms[3], tanh(wq1), TOL);
	/* the window: positions 1 .. 3 */
	ck_assert_int_eq((int)win->ops[1].v[0], 1);
	ck_assert_int_eq((int)win->ops[1].v[1], 3);
	ck_assert_int_eq(win->len, 3);
	ck_assert_int_eq(sm->win_lo, 1);
	ck_assert_int_eq(sm->win_hi, 3);
	/* align: the softmax over e_1 .. e_3 alone */
	double z = exp(e[0]) + exp(e[1]) + exp(e[2]);
	static const double hand[3] = { 0.0180, 0.7062, 0.5068 };
	double sum = 0;
	for (int j = 1; j <= 5; j++) {
		double al = j <= 3 ? exp(e[j - 1]) / z : 0.0;
		double gf = j <= 3 ? exp(-(j - p) * (j - p) / (2 * 0.25)) : 0.0;
		ck_assert_double_eq_tol(sm->result[j - 1], al, TOL);
		ck_assert_double_eq_tol(g->ops[1].v[j - 1], gf, TOL);
		ck_assert_double_eq_tol(g->result[j - 1], al * gf, TOL);
		if (j <= 3)
			ck_assert_double_eq_tol(gf, hand[j - 1], 5e-4);
		sum += al * gf;
	}
	ck_assert_double_eq_tol(g->ops[3].v[0], 0.5, TOL);
	ck_assert_double_eq_tol(g->ops[4].v[0], sum, TOL);
	ck_assert(sum < 1.0);
	/* the context is made with a_1, not align_1 */
	ck_assert_ptr_eq(trace_weights(&tr, 0, 1), g->result);
	const struct trace_rec *c = need(&tr, REC_CONTEXT, 0, 1);
	const struct trace_rec *h1 = trace_find(&tr, REC_RNN, -1, 0, 2);
	const struct trace_rec *h2 = trace_find(&tr, REC_RNN, -1, 0, 3);
	const struct trace_rec *h0 = trace_find(&tr, REC_RNN, -1, 0, 1);
	for (int k = 0; k < 2; k++)
		ck_assert_double_eq_tol(c->result[k],
					g->result[0] * h0->result[k] +
					g->result[1] * h1->result[k] +
					g->result[2] * h2->result[k], TOL);
	trace_free(&tr);
}
END_TEST

/* local-m: p_t = min(t, n), no Gaussian, the softmax over the window */
START_TEST(test_local_m)
{
	struct trace tr;
	build(&tr, &M, WINDOW_local_m, 1, 1u << SCORER_general);
	ck_assert_ptr_null(trace_find(&tr, REC_POSITION, 0, 1, 0));
	ck_assert_ptr_null(trace_find(&tr, REC_GAUSS, 0, 1, 0));
	static const int lo[4] = { 1, 1, 2, 3 }, hi[4] = { 2, 3, 4, 5 };
	for (int t = 1; t <= 4; t++) {
		const struct trace_rec *win = need(&tr, REC_WINDOW, 0, t);
		const struct trace_rec *sm = need(&tr, REC_SOFTMAX, 0, t);
		const double *e = need(&tr, REC_SCORES, 0, t)->result;
		ck_assert_double_eq(win->ops[0].v[0], t);
		ck_assert_int_eq((int)win->ops[1].v[0], lo[t - 1]);
		ck_assert_int_eq((int)win->ops[1].v[1], hi[t - 1]);
		double z = 0, sum = 0;
		for (int j = lo[t - 1]; j <= hi[t - 1]; j++)
			z += exp(e[j - 1]);
		for (int j = 1; j <= 5; j++) {
			int in = j >= lo[t - 1] && j <= hi[t - 1];
			ck_assert_double_eq_tol(sm->result[j - 1],
						in ? exp(e[j - 1]) / z : 0, TOL);
			sum += sm->result[j - 1];
		}
		ck_assert_double_eq_tol(sum, 1.0, TOL);
		ck_assert_ptr_eq(trace_weights(&tr, 0, t), sm->result);
	}
	trace_free(&tr);
	/* D = 0: all the weight on word min(t, n) */
	build(&tr, &M, WINDOW_local_m, 0, 1u << SCORER_dot);
	for (int t = 1; t <= 4; t++) {
		const double *a = trace_weights(&tr, 0, t);
		for (int j = 1; j <= 5; j++)
			ck_assert_double_eq(a[j - 1], j == t ? 1.0 : 0.0);
	}
	trace_free(&tr);
}
END_TEST

/* Bahdanau's architecture: local-p's query is s_{t-1}, the REC_QUERY */
START_TEST(test_local_p_bahdanau)
{
	struct model b;
	struct trace tr;
	testmodel_load(&b, "localp-bahdanau.model");
	build(&tr, &b, WINDOW_local_p, 2, 1u << SCORER_dot);
	for (int t = 1; t <= 4; t++) {
		const struct trace_rec *pos = need(&tr, REC_POSITION, 0, t);
		const struct trace_rec *q = need(&tr, REC_QUERY, 0, t);
		ck_assert_ptr_eq(pos->ops[0].v, q->result);
		double v = 0;
		for (int r = 0; r < 4; r++) {
			double acc = 0;
			for (int k = 0; k < 4; k++)
				acc += b.Wp[r * 4 + k] * q->result[k];
			v += b.vp[r] * tanh(acc);
		}
		double p = 1 + 4.0 / (1 + exp(-v));
		ck_assert_double_eq_tol(pos->result[0], p, TOL);
		const struct trace_rec *win = need(&tr, REC_WINDOW, 0, t);
		int c = (int)floor(p);
		ck_assert_int_eq((int)win->ops[1].v[0], c - 2 < 1 ? 1 : c - 2);
		ck_assert_int_eq((int)win->ops[1].v[1], c + 2 > 5 ? 5 : c + 2);
	}
	trace_free(&tr);
	model_free(&b);
}
END_TEST

/* The fixed window (no attention) on tiny.model, "un deux trois", worked
 * by hand: the encoder h_i = tanh(W_x·x_i + W_h·h_{i-1} + b), h_0 = 0,
 * with the model file's numbers typed here, not read from the model:
 *   W_x·x_1 + b = (0.25 + 0.1 + 0.3 + 0.05, 0.1 - 0.15 - 0.1 - 0.1)
 *               = (0.70, -0.25);  h_1 = (0.6044, -0.2449)
 *   h_2 = tanh((-0.65 + 0.05, 0.20 - 0.1) + W_h·h_1) = (-0.1988, -0.1774)
 *   W_x·x_3 + b = (0.125 - 0.2 - 0.225 + 0.05, 0.05 + 0.3 + 0.075 - 0.1)
 *               = (-0.25, 0.325)
 *   W_h·h_2 = (0.7×(-0.1988) + 0.1×(-0.1774), -0.3×(-0.1988) + 0.4×(-0.1774))
 *           = (-0.1569, -0.0113);  h_3 = tanh(-0.4069, 0.3137)
 *           = (-0.3858, 0.3038)
 * Every step's weights are (0, 0, 1), so c_t = h_3 exactly: not h_1 or
 * h_2, which differ from it in both entries. */
static void fixed_h(double h[3][2])
{
	static const double x[3][3] = { { 0.5, -0.25, 1.0 },
					{ -1.0, 0.75, 0.5 },
					{ 0.25, 0.5, -0.75 } };
	static const double Wx[2][3] = { { 0.5, -0.4, 0.3 },
					 { 0.2, 0.6, -0.1 } };
	static const double Wh[2][2] = { { 0.7, 0.1 }, { -0.3, 0.4 } };
	static const double b[2] = { 0.05, -0.1 };
	double prev[2] = { 0, 0 };
	for (int i = 0; i < 3; i++) {
		for (int r = 0; r < 2; r++)
			h[i][r] = tanh(Wx[r][0] * x[i][0] + Wx[r][1] * x[i][1]
				       + Wx[r][2] * x[i][2] + Wh[r][0] * prev[0]
				       + Wh[r][1] * prev[1] + b[r]);
		prev[0] = h[i][0];
		prev[1] = h[i][1];
	}
}

START_TEST(test_fixed_by_hand)
{
	static const int src[] = { 0, 1, 2 }; /* un deux trois */
	struct trace tr;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	double h[3][2];
	fixed_h(h);
	ck_assert_double_eq_tol(h[0][0], 0.6044, 5e-5);
	ck_assert_double_eq_tol(h[1][1], -0.1774, 5e-5);
	ck_assert_double_eq_tol(h[2][0], -0.3858, 5e-5);
	ck_assert_double_eq_tol(h[2][1], 0.3038, 5e-5);
	cfg.window = WINDOW_fixed;
	cfg.window_size = 2; /* ignored: the window is position n alone */
	ck_assert_int_eq(trace_build(&tr, &M, src, 3, TGT, 3,
				     1u << SCORER_dot | 1u << SCORER_general,
				     &cfg, &err), 0);
	for (int run = 0; run < 2; run++)
		for (int t = 1; t <= 4; t++) {
			const double *a = trace_weights(&tr, run, t);
			const double *c = need(&tr, REC_CONTEXT, run, t)->result;
			const struct trace_rec *win = need(&tr, REC_WINDOW, run, t);
			const double *e = need(&tr, REC_SCORES, run, t)->result;
			const double *s = need(&tr, REC_RNN, run, t)->result;
			ck_assert_double_eq(a[0], 0.0);
			ck_assert_double_eq(a[1], 0.0);
			ck_assert_double_eq(a[2], 1.0);
			for (int r = 0; r < 2; r++) {
				ck_assert_double_eq_tol(c[r], h[2][r], TOL);
				ck_assert(fabs(c[r] - h[0][r]) > 0.1);
				ck_assert(fabs(c[r] - h[1][r]) > 0.1);
			}
			/* p_t = n, the window n .. n, D = 0 */
			ck_assert_double_eq(win->ops[0].v[0], 3.0);
			ck_assert_double_eq(win->ops[1].v[0], 3.0);
			ck_assert_double_eq(win->ops[1].v[1], 3.0);
			ck_assert_double_eq(win->ops[2].v[0], 0.0);
			/* the scores are computed (dot's: s_t·h_i), and
			 * unused */
			if (run == 0)
				for (int i = 0; i < 3; i++)
					ck_assert_double_eq_tol(
						e[i], s[0] * h[i][0]
						+ s[1] * h[i][1], TOL);
		}
	trace_free(&tr);
}
END_TEST

/* Bahdanau's architecture: the context is the last annotation h_n =
 * [→h_n; ←h_n] at every step, whatever the query. */
START_TEST(test_fixed_bahdanau)
{
	struct model b;
	struct trace tr;
	testmodel_load(&b, "localp-bahdanau.model");
	build(&tr, &b, WINDOW_fixed, 1, 1u << SCORER_dot);
	const double *hn = trace_find(&tr, REC_ANNOTATION, -1, 0, 5)->result;
	const double *h1 = trace_find(&tr, REC_ANNOTATION, -1, 0, 1)->result;
	for (int t = 1; t <= 4; t++) {
		const double *c = need(&tr, REC_CONTEXT, 0, t)->result;
		for (int k = 0; k < 4; k++) {
			ck_assert_double_eq(c[k], hn[k]);
			ck_assert(c[k] != h1[k]);
		}
	}
	trace_free(&tr);
	model_free(&b);
}
END_TEST

/* what cannot run: local-p without its weights, or with D = 0 */
START_TEST(test_refused)
{
	struct model tiny;
	struct trace tr;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	testmodel_load(&tiny, "tiny.model");
	cfg.window = WINDOW_local_p;
	ck_assert_int_ne(trace_build(&tr, &tiny, SRC, 5, NULL, 0,
				     1u << SCORER_dot, &cfg, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "[local-p.W_p]"));
	model_free(&tiny);
	cfg.window_size = 0;
	ck_assert_int_ne(trace_build(&tr, &M, SRC, 5, NULL, 0,
				     1u << SCORER_dot, &cfg, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "at least 1"));
	cfg.window = WINDOW_local_m;
	cfg.window_size = -1;
	ck_assert_int_ne(trace_build(&tr, &M, SRC, 5, NULL, 0,
				     1u << SCORER_dot, &cfg, &err), 0);
	ck_assert_int_eq(window_find("local-p"), WINDOW_local_p);
	ck_assert_int_eq(window_find("local-m"), WINDOW_local_m);
	ck_assert_int_eq(window_find("local"), -1);
	ck_assert_uint_eq(model_mha(&M) & LOCALP_PARAM_BIT, LOCALP_PARAM_BIT);
}
END_TEST

static Suite *window_suite(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("local windows");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_local_p_by_hand);
	tcase_add_test(tc, test_local_m);
	tcase_add_test(tc, test_local_p_bahdanau);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_fixed_by_hand);
	tcase_add_test(tc, test_fixed_bahdanau);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(window_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
