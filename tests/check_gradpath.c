/* check_gradpath.c: the gradient paths (src/gradpath.c) worked by hand
 * on a model of one unit (E = H = 1), two source words and the dot
 * scorer, where every derivative of doc/model.md's definition is a
 * product of scalars:
 *
 *   h_1 = tanh(wx·x_1 + be)            h_2 = tanh(wx·x_2 + u·h_1 + be)
 *   s_0 = h_2                          s_1 = tanh(dx·y_0 + dh·s_0 + db)
 *   e_i = s_1·h_i,  α = softmax(e),    c = α_1·h_1 + α_2·h_2
 *   h̃ = tanh(c1·c + c2·s_1),           ŷ = softmax(W_s·h̃),  L_1 = −log ŷ[y]
 *
 * Back from L_1:  δ_k = ŷ_k − [k = y];  g = Σ_k W_s,k·δ_k·(1 − h̃²);
 *   dc = c1·g;  dα_i = dc·h_i;  de_i = α_i·(dα_i − Σ_j α_j·dα_j);
 *   direct_i = α_i·dc + de_i·s_1          (h_i as a value and a key)
 *   ds_1 = c2·g + Σ_i de_i·h_i;  ds_0 = ds_1·(1 − s_1²)·dh
 *   total_2 = direct_2 + ds_0             (s_0 = h_2)
 *   total_1 = direct_1 + total_2·(1 − h_2²)·u
 * and the recurrence's part is ds_0 for h_2, total_2·(1 − h_2²)·u for
 * h_1.  A second case, step 2 of the same pair, is the same with s_1
 * in place of s_0: the loss of step 2 reaches h_i through s_1 too. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gradpath.h"
#include "model.h"
#include "trace.h"

static const char MODEL[] =
	"attn-trace-model 1\n"
	"embedding 1\nhidden 1\nattention 1\n"
	"[source]\na 0.8\nb -0.6\n"
	"[target]\n<s> 0.5\n</s> -0.4\nw 0.9\n"
	"[encoder.W_x]\n1.3\n[encoder.W_h]\n0.7\n[encoder.b]\n0.1\n"
	"[decoder.W_x]\n-0.9\n[decoder.W_h]\n1.1\n[decoder.b]\n0.2\n"
	"[output.W_c]\n1.4 -0.6\n"
	"[output.W_s]\n<s> -1.0\n</s> 0.5\nw 1.5\n";

/* the weights above */
static const double WX = 1.3, U = 0.7, BE = 0.1, DX = -0.9, DH = 1.1,
		    DB = 0.2, C1 = 1.4, C2 = -0.6, X1 = 0.8, X2 = -0.6;
static const double WS[3] = { -1.0, 0.5, 1.5 }, Y[3] = { 0.5, -0.4, 0.9 };

/* One Luong step from state s fed the target word y (an index): the
 * direct parts (2), dL/ds of the step, and L, for gold word gold. */
static double hand_step(double s_prev, int y, int gold, const double h[2],
			double *s_out, double direct[2], double *ds)
{
	double s = tanh(DX * Y[y] + DH * s_prev + DB);
	double e[2] = { s * h[0], s * h[1] };
	double z = exp(e[0]) + exp(e[1]);
	double a[2] = { exp(e[0]) / z, exp(e[1]) / z };
	double c = a[0] * h[0] + a[1] * h[1];
	double ht = tanh(C1 * c + C2 * s), lz = 0, g = 0, da[2], mean;
	for (int k = 0; k < 3; k++)
		lz += exp(WS[k] * ht);
	for (int k = 0; k < 3; k++)
		g += WS[k] * (exp(WS[k] * ht) / lz - (k == gold));
	g *= 1 - ht * ht;
	double dc = C1 * g;
	da[0] = dc * h[0];
	da[1] = dc * h[1];
	mean = a[0] * da[0] + a[1] * da[1];
	*ds = C2 * g;
	for (int i = 0; i < 2; i++) {
		double de = a[i] * (da[i] - mean);
		direct[i] = a[i] * dc + de * s;
		*ds += de * h[i];
	}
	*s_out = s;
	return -(WS[gold] * ht - log(lz));
}

/* h_1 and h_2 */
static void hand_encode(double h[2])
{
	h[0] = tanh(WX * X1 + BE);
	h[1] = tanh(WX * X2 + U * h[0] + BE);
}

/* The totals from the direct parts and dL/ds_0 = ds0: s_0 = h_2, then
 * back through h_2 = tanh(.. + u·h_1 + ..) into h_1. */
static void hand_totals(const double h[2], const double direct[2],
			double ds0, double total[2])
{
	total[1] = direct[1] + ds0;
	total[0] = direct[0] + total[1] * (1 - h[1] * h[1]) * U;
}

static struct model M;

static void setup(void)
{
	struct errbuf err;
	if (model_parse(&M, MODEL, strlen(MODEL), "hand", &err) != 0)
		ck_abort_msg("%s", err.msg);
}

static void teardown(void)
{
	model_free(&M);
}

/* traces "a b" -> "w" with the gradient paths of step t */
static const struct trace_rec *trace_paths(struct trace *tr, int t)
{
	static const int src[2] = { 0, 1 }, tgt[1] = { 2 };
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	cfg.grad_paths = t;
	if (trace_build(tr, &M, src, 2, tgt, 1, 1u << SCORER_dot, &cfg,
			&err) != 0)
		ck_abort_msg("%s", err.msg);
	ck_assert_ptr_nonnull(gradpath_find(tr, 0));
	return gradpath_find(tr, 0);
}

static void expect_paths(const struct trace_rec *r, const double total[2],
			 const double direct[2], double L)
{
	for (int i = 0; i < 2; i++) {
		ck_assert_double_eq_tol(r->ops[0].v[i], total[i], 1e-14);
		ck_assert_double_eq_tol(r->ops[1].v[i], direct[i], 1e-14);
		ck_assert_double_eq_tol(r->ops[2].v[i], total[i] - direct[i],
					1e-14);
		ck_assert_double_eq_tol(r->result[i], fabs(total[i]), 1e-14);
		ck_assert_double_eq_tol(r->ops[3].v[i], fabs(direct[i]), 1e-14);
		ck_assert_double_eq_tol(r->ops[4].v[i],
					fabs(total[i] - direct[i]), 1e-14);
	}
	ck_assert_double_eq_tol(r->ops[5].v[0], L, 1e-14);
	/* not all 0: the case measures something */
	ck_assert(fabs(direct[0]) > 1e-3 && fabs(total[1] - direct[1]) > 1e-3);
}

START_TEST(test_step1_by_hand)
{
	struct trace tr;
	const struct trace_rec *r = trace_paths(&tr, 1);
	double h[2], s1, direct[2], ds, total[2];
	hand_encode(h);
	double L = hand_step(h[1], 0, 2, h, &s1, direct, &ds);
	/* dL_1/ds_0, s_0 = h_2 */
	hand_totals(h, direct, ds * (1 - s1 * s1) * DH, total);
	ck_assert_int_eq(r->t, 1);
	ck_assert_int_eq(r->word, 2);
	expect_paths(r, total, direct, L);
	trace_free(&tr);
}
END_TEST

/* step 2 (predicting </s> after "w"): its own attention, and back
 * through s_1 and s_0 = h_2; step 1's loss has no part in it */
START_TEST(test_step2_by_hand)
{
	struct trace tr;
	const struct trace_rec *r = trace_paths(&tr, -1);
	double h[2], s1, s2, direct[2], ds, ds1, total[2];
	hand_encode(h);
	s1 = tanh(DX * Y[0] + DH * h[1] + DB);
	double L = hand_step(s1, 2, 1, h, &s2, direct, &ds);
	/* dL_2/ds_1, then s_1 = tanh(dx·y_0 + dh·s_0 + db) with s_0 = h_2 */
	ds1 = ds * (1 - s2 * s2) * DH;
	hand_totals(h, direct, ds1 * (1 - s1 * s1) * DH, total);
	ck_assert_int_eq(r->t, 2);
	ck_assert_int_eq(r->word, 1);
	expect_paths(r, total, direct, L);
	trace_free(&tr);
}
END_TEST

/* what gradpath_check refuses */
START_TEST(test_refused)
{
	struct trace tr;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	static const int src[2] = { 0, 1 }, tgt[1] = { 2 };
	cfg.grad_paths = -1;
	ck_assert_int_ne(trace_build(&tr, &M, src, 2, NULL, 0,
				     1u << SCORER_dot, &cfg, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "need a target"));
	cfg.grad_paths = 3;
	ck_assert_int_ne(trace_build(&tr, &M, src, 2, tgt, 1,
				     1u << SCORER_dot, &cfg, &err), 0);
	/* without the option: no record */
	cfg.grad_paths = 0;
	ck_assert_int_eq(trace_build(&tr, &M, src, 2, tgt, 1,
				     1u << SCORER_dot, &cfg, &err), 0);
	ck_assert_ptr_null(gradpath_find(&tr, 0));
	trace_free(&tr);
}
END_TEST

static Suite *gradpath_suite(void)
{
	Suite *s = suite_create("gradpath");
	TCase *tc = tcase_create("by hand");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_step1_by_hand);
	tcase_add_test(tc, test_step2_by_hand);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(gradpath_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
