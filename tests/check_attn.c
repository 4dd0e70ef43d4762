/* check_attn.c: the arithmetic of each stage against values worked out by
 * hand.  Every matrix is non-symmetric and every operand pair unequal, so a
 * transposed matrix or a swapped concatenation gives a different number. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "scorer.h"

#define TOL 1e-12

START_TEST(test_matvec_rectangular)
{
	/* W (2, 3) times x (3): rows 1-2+6 and 4-5+12 */
	const double W[] = { 1, 2, 3, 4, 5, 6 };
	const double x[] = { 1, -1, 2 };
	double out[2];
	attn_matvec(out, W, x, 2, 3);
	ck_assert_double_eq_tol(out[0], 5.0, TOL);
	ck_assert_double_eq_tol(out[1], 11.0, TOL);
}
END_TEST

/* attn_matvec and attn_linear_back run rows and columns side by side;
 * each number must still be the plain loops' bit for bit: out[r] summed
 * from 0.0 over k in order; G[r][k] += dy[r] x[k]; dx[k] += dy[r]
 * W[r][k] over r in order.  Every shape from 1 to 13 columns (so every
 * remainder of four) and 1 to 27 rows, with a row stride above the
 * columns, and the values of a fixed generator, unequal and of both
 * signs, whose sums round differently in another order. */
static double lb_next(unsigned long long *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(*s >> 11) * 0x1.0p-53 - 0.5) *
	       (1.0 + (double)(*s >> 60));
}

START_TEST(test_matvec_linear_back_bits)
{
	unsigned long long st = 7;
	double W[27 * 15], G[27 * 15], Gw[27 * 15], x[13], dy[27];
	double out[27], dx[13], dxw[13], Wt[27 * 13];

	for (int rows = 1; rows <= 27; rows++)
		for (int cols = 1; cols <= 13; cols++) {
			const int ld = cols + 2;
			for (int k = 0; k < 27 * 15; k++) {
				W[k] = lb_next(&st);
				G[k] = Gw[k] = lb_next(&st);
			}
			for (int k = 0; k < 13; k++) {
				x[k] = lb_next(&st);
				dx[k] = dxw[k] = lb_next(&st);
			}
			for (int r = 0; r < 27; r++)
				dy[r] = lb_next(&st);
			/* matvec (row stride cols) */
			attn_matvec(out, W, x, rows, cols);
			for (int r = 0; r < rows; r++) {
				double a = 0.0;
				for (int k = 0; k < cols; k++)
					a += W[r * cols + k] * x[k];
				ck_assert_msg(memcmp(&a, &out[r], sizeof a) == 0,
					      "matvec %dx%d row %d: %.17g, "
					      "expected %.17g", rows, cols, r,
					      out[r], a);
			}
			/* the same product through Wᵀ: the same bits */
			attn_transpose(Wt, W, rows, cols);
			attn_matvec_t(out, Wt, x, rows, cols);
			for (int r = 0; r < rows; r++) {
				double a = 0.0;
				for (int k = 0; k < cols; k++)
					a += W[r * cols + k] * x[k];
				ck_assert_msg(memcmp(&a, &out[r], sizeof a) == 0,
					      "matvec_t %dx%d row %d: %.17g, "
					      "expected %.17g", rows, cols, r,
					      out[r], a);
			}
			/* the backward pass, with dx and without */
			attn_linear_back(G, dx, W, ld, dy, x, rows, cols);
			for (int r = 0; r < rows; r++)
				for (int k = 0; k < cols; k++) {
					Gw[r * ld + k] += dy[r] * x[k];
					dxw[k] += dy[r] * W[r * ld + k];
				}
			ck_assert(memcmp(G, Gw, sizeof G) == 0);
			ck_assert_msg(memcmp(dx, dxw, sizeof dx) == 0,
				      "linear_back %dx%d: dx differs", rows,
				      cols);
			attn_linear_back(G, NULL, W, ld, dy, x, rows, cols);
			for (int r = 0; r < rows; r++)
				for (int k = 0; k < cols; k++)
					Gw[r * ld + k] += dy[r] * x[k];
			ck_assert(memcmp(G, Gw, sizeof G) == 0);
		}
}
END_TEST

/* The paths for four rows (attn_matvec's 4 x 4 and 4 x 4k, attn_dot's 4
 * numbers, attn_linear_back44), many draws each, since one draw may
 * round the same in another order: bit for bit the plain loops. */
START_TEST(test_four_rows_bits)
{
	unsigned long long st = 5;
	double W[4 * 18], G[4 * 18], Gw[4 * 18], x[16], dy[4], out[4];
	double dx[16], dxw[16];

	for (int cols = 4; cols <= 16; cols += 4)
		for (int draw = 0; draw < 300; draw++) {
			const int ld = cols + 2 * (draw % 2); /* 4 x 4: ld too */
			for (int k = 0; k < 4 * 18; k++) {
				W[k] = lb_next(&st);
				G[k] = Gw[k] = lb_next(&st);
			}
			for (int k = 0; k < 16; k++) {
				x[k] = lb_next(&st);
				dx[k] = dxw[k] = lb_next(&st);
			}
			for (int r = 0; r < 4; r++)
				dy[r] = lb_next(&st);
			attn_matvec(out, W, x, 4, cols);
			for (int r = 0; r < 4; r++) {
				double a = 0.0, d = attn_dot(W + r * cols, x, cols);
				for (int k = 0; k < cols; k++)
					a += W[r * cols + k] * x[k];
				ck_assert_msg(memcmp(&a, &out[r], sizeof a) == 0 &&
					      memcmp(&a, &d, sizeof a) == 0,
					      "matvec 4x%d row %d", cols, r);
			}
			attn_linear_back(G, dx, W, ld, dy, x, 4, cols);
			for (int r = 0; r < 4; r++)
				for (int k = 0; k < cols; k++) {
					Gw[r * ld + k] += dy[r] * x[k];
					dxw[k] += dy[r] * W[r * ld + k];
				}
			ck_assert_msg(memcmp(G, Gw, sizeof G) == 0 &&
				      memcmp(dx, dxw, sizeof dx) == 0,
				      "linear_back 4x%d, row stride %d", cols, ld);
		}
}
END_TEST

/* attn_matvec_t by hand: W (2, 3) not symmetric, so a transposition the
 * wrong way round fails; and -0.0 products sum to +0.0 from 0.0, as
 * attn_matvec's do. */
START_TEST(test_matvec_t_by_hand)
{
	const double W[] = { 1, 2, 3, 4, 5, 6 }, x[] = { 1, -1, 2 };
	const double Z[] = { -0.0, -0.0, -0.0, -0.0 }, one[] = { 1, 1 };
	double Wt[6], out[3];

	attn_transpose(Wt, W, 2, 3);
	ck_assert(Wt[0] == 1 && Wt[1] == 4 && Wt[2] == 2 && Wt[3] == 5 &&
		  Wt[4] == 3 && Wt[5] == 6);
	attn_matvec_t(out, Wt, x, 2, 3);
	ck_assert_double_eq_tol(out[0], 1 - 2 + 6, TOL); /* 5 */
	ck_assert_double_eq_tol(out[1], 4 - 5 + 12, TOL); /* 11 */
	/* every product -0.0: from 0.0 the sums are +0.0 (from -0.0, -0.0) */
	attn_matvec_t(out, Z, one, 2, 2);
	ck_assert(out[0] == 0.0 && !signbit(out[0]));
	ck_assert(out[1] == 0.0 && !signbit(out[1]));
}
END_TEST

/* The backward pass of y = W x by hand: W (2, 3), x (3), dy (2); G =
 * dy ⊗ x, dx = Wᵀ dy, added to what G and dx held. */
START_TEST(test_linear_back_by_hand)
{
	const double W[] = { 1, 2, 3, 4, 5, 6 }, x[] = { 1, -1, 2 };
	const double dy[] = { 0.5, -2 };
	double G[6] = { 0, 0, 0, 0, 0, 1 }, dx[3] = { 1, 0, 0 };

	attn_linear_back(G, dx, W, 3, dy, x, 2, 3);
	/* G = (0.5, -0.5, 1; -2, 2, -4 + 1) */
	ck_assert_double_eq_tol(G[0], 0.5, TOL);
	ck_assert_double_eq_tol(G[1], -0.5, TOL);
	ck_assert_double_eq_tol(G[2], 1.0, TOL);
	ck_assert_double_eq_tol(G[3], -2.0, TOL);
	ck_assert_double_eq_tol(G[4], 2.0, TOL);
	ck_assert_double_eq_tol(G[5], -3.0, TOL);
	/* dx = 1 + (0.5*1 - 2*4, 0.5*2 - 2*5, 0.5*3 - 2*6) */
	ck_assert_double_eq_tol(dx[0], -6.5, TOL);
	ck_assert_double_eq_tol(dx[1], -9.0, TOL);
	ck_assert_double_eq_tol(dx[2], -10.5, TOL);
}
END_TEST

START_TEST(test_dot)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, -5, 6 };
	ck_assert_double_eq_tol(attn_dot(a, b, 3), 12.0, TOL); /* 4-10+18 */
	ck_assert_double_eq_tol(attn_dot(a, b, 0), 0.0, TOL);
}
END_TEST

START_TEST(test_rnn_step)
{
	/* W_x x = (0.5*2 - 1*1, 2*2 + 0.25*1) = (0, 4.25)
	 * W_h h = (1*0.5 + 2*-0.25, 0*0.5 + 1*-0.25) = (0, -0.25)
	 * pre = (0 + 0 + 0.1, 4.25 - 0.25 - 0.2) = (0.1, 3.8) */
	const double Wx[] = { 0.5, -1, 2, 0.25 }, Wh[] = { 1, 2, 0, 1 };
	const double b[] = { 0.1, -0.2 }, x[] = { 2, 1 };
	const double hp[] = { 0.5, -0.25 };
	double wx[2], wh[2], pre[2], h[2];
	attn_rnn_step(wx, wh, pre, h, Wx, Wh, b, x, hp, 2, 2);
	ck_assert_double_eq_tol(wx[0], 0.0, TOL);
	ck_assert_double_eq_tol(wx[1], 4.25, TOL);
	ck_assert_double_eq_tol(wh[0], 0.0, TOL);
	ck_assert_double_eq_tol(wh[1], -0.25, TOL);
	ck_assert_double_eq_tol(pre[0], 0.1, TOL);
	ck_assert_double_eq_tol(pre[1], 3.8, TOL);
	ck_assert_double_eq_tol(h[0], 0.09966799462495582, TOL); /* tanh 0.1 */
	ck_assert_double_eq_tol(h[1], 0.9989995977, 1e-10);      /* tanh 3.8 */
}
END_TEST

START_TEST(test_rnn_step_rectangular)
{
	/* E = 3, H = 2: W_x (2, 3), so x's third entry must be used */
	const double Wx[] = { 1, 0, 2, 0, 1, -1 }, Wh[] = { 0, 0, 0, 0 };
	const double b[] = { 0, 0 }, x[] = { 0.25, 0.5, 0.125 };
	const double hp[] = { 0, 0 };
	double wx[2], wh[2], pre[2], h[2];
	attn_rnn_step(wx, wh, pre, h, Wx, Wh, b, x, hp, 3, 2);
	ck_assert_double_eq_tol(wx[0], 0.5, TOL);   /* 0.25 + 0.25 */
	ck_assert_double_eq_tol(wx[1], 0.375, TOL); /* 0.5 - 0.125 */
	ck_assert_double_eq_tol(h[0], tanh(0.5), TOL);
}
END_TEST

/* Scorer sc's prepare() and forward() for the query s against the n
 * states Hs (n, H), with weights w0 and w1; its working memory (rows of
 * SCORE_WS_WIDTH numbers) is left in these. */
static double ws_key[256], ws_mid[256], ws_act[256], ws_q[64];

static void run_scorer(int sc, double *e, const double *s, const double *Hs,
		       int n, int H, int A, double *w0, double *w1)
{
	struct model m;
	struct score_in in;
	struct score_ws ws = { ws_key, ws_mid, ws_act, ws_q, NULL, NULL };
	memset(&m, 0, sizeof m);
	m.H = H;
	m.A = A;
	m.sw[sc][0] = w0;
	m.sw[sc][1] = w1;
	scorer_input(&in, &m, sc, Hs, n);
	if (scorer_get(sc)->prepare)
		scorer_get(sc)->prepare(&in, &ws);
	scorer_get(sc)->forward(&in, s, e, &ws);
}

START_TEST(test_score_dot)
{
	const double s[] = { 1, 2, 3 };
	const double Hs[] = { 4, -5, 6, 0.5, 0.25, -1 };
	double e[2];
	run_scorer(SCORER_dot, e, s, Hs, 2, 3, 1, NULL, NULL);
	ck_assert_double_eq_tol(e[0], 12.0, TOL);
	ck_assert_double_eq_tol(e[1], -2.0, TOL); /* 0.5 + 0.5 - 3 */
}
END_TEST

START_TEST(test_score_scaled)
{
	/* the dots of test_score_dot, 12 and -2, over √3 */
	const double s[] = { 1, 2, 3 };
	const double Hs[] = { 4, -5, 6, 0.5, 0.25, -1 };
	double e[2];
	run_scorer(SCORER_scaled, e, s, Hs, 2, 3, 1, NULL, NULL);
	ck_assert_double_eq_tol(e[0], 6.928203230275509, TOL);
	ck_assert_double_eq_tol(e[1], -1.1547005383792517, TOL);
	ck_assert_double_eq_tol(ws_mid[0], 12.0, TOL); /* the dot, kept */
}
END_TEST

START_TEST(test_score_location)
{
	/* W_loc (3, 3): rows 1 and 2 for the two words, row 3 unused;
	 * e = (1 + 4 + 9, 0 - 2 + 12).  Wᵀ would give 16 first. */
	double W[] = { 1, 2, 3, 0, -1, 4, 5, 0, 0.5 };
	const double s[] = { 1, 2, 3 };
	const double Ha[] = { 4, -5, 6, 0.5, 0.25, -1 };
	const double Hb[] = { -9, 9, 0, 7, 7, 7 };
	double e[2], f[2];
	run_scorer(SCORER_location, e, s, Ha, 2, 3, 1, W, NULL);
	ck_assert_double_eq_tol(e[0], 14.0, TOL);
	ck_assert_double_eq_tol(e[1], 10.0, TOL);
	/* content-blind: other encoder states, the same scores */
	run_scorer(SCORER_location, f, s, Hb, 2, 3, 1, W, NULL);
	ck_assert(e[0] == f[0] && e[1] == f[1]);
}
END_TEST

START_TEST(test_score_general)
{
	/* W h = (4 - 10, -5, 12 + 6) = (-6, -5, 18); s·Wh = -6 - 10 + 54.
	 * The transpose would give W'h = (22, 3, 6) and 46. */
	const double s[] = { 1, 2, 3 }, Hs[] = { 4, -5, 6 };
	double W[] = { 1, 2, 0, 0, 1, 0, 3, 0, 1 };
	double e[1], *Wh = ws_key;
	run_scorer(SCORER_general, e, s, Hs, 1, 3, 1, W, NULL);
	ck_assert_double_eq_tol(Wh[0], -6.0, TOL);
	ck_assert_double_eq_tol(Wh[1], -5.0, TOL);
	ck_assert_double_eq_tol(Wh[2], 18.0, TOL);
	ck_assert_double_eq_tol(e[0], 38.0, TOL);
}
END_TEST

START_TEST(test_score_concat)
{
	/* [s; h] = (1, 0, 0, 2); W (2, 4) rows give 0.5 + 0.5 = 1 and 0;
	 * e = 2 tanh(1) + 3 tanh(0).  [h; s] would give 3 tanh(-1.5). */
	const double s[] = { 1, 0 }, Hs[] = { 0, 2 };
	double W[] = { 0.5, 0, 0, 0.25, 0, -1, 0.5, 0 };
	double v[] = { 2, 3 };
	double e[1], *pre = ws_mid, *act = ws_act;
	run_scorer(SCORER_concat, e, s, Hs, 1, 2, 2, W, v);
	ck_assert_double_eq_tol(pre[0], 1.0, TOL);
	ck_assert_double_eq_tol(pre[1], 0.0, TOL);
	ck_assert_double_eq_tol(act[0], 0.7615941559557649, TOL);
	ck_assert_double_eq_tol(e[0], 2 * 0.7615941559557649, TOL);
}
END_TEST

START_TEST(test_score_concat_attention_width)
{
	/* A = 3 with d = 1: W (3, 2); [s; h] = (2, -1) */
	const double s[] = { 2 }, Hs[] = { -1 };
	double W[] = { 1, 1, 0, 1, 0.5, 0 };
	double v[] = { 1, -1, 0.5 };
	double e[1], *pre = ws_mid;
	run_scorer(SCORER_concat, e, s, Hs, 1, 1, 3, W, v);
	ck_assert_double_eq_tol(pre[0], 1.0, TOL);
	ck_assert_double_eq_tol(pre[1], -1.0, TOL);
	ck_assert_double_eq_tol(pre[2], 1.0, TOL);
	/* tanh(1) + tanh(1) + 0.5 tanh(1) */
	ck_assert_double_eq_tol(e[0], 2.5 * 0.7615941559557649, TOL);
}
END_TEST

/* additive: v_a·tanh(W_a·s + U_a·h_i), worked by hand; and the same as
 * concat with W = [W_a U_a] */
START_TEST(test_score_additive)
{
	const double s[] = { 1, 2 }, Hs[] = { 3, -1, 0.5, 2 };
	double Wa[] = { 0.5, 1, -1, 0.25 }, Ua[] = { 1, -2, 0, 0.5 };
	double v[] = { 2, -1 }, e[2], f[2];
	double Wcat[] = { 0.5, 1, 1, -2, -1, 0.25, 0, 0.5 };
	struct model m;
	struct score_in in;
	struct score_ws ws = { ws_key, ws_mid, ws_act, ws_q, NULL, NULL };
	memset(&m, 0, sizeof m);
	m.H = 2;
	m.A = 2;
	m.sw[SCORER_additive][0] = Wa;
	m.sw[SCORER_additive][1] = Ua;
	m.sw[SCORER_additive][2] = v;
	scorer_input(&in, &m, SCORER_additive, Hs, 2);
	scorer_get(SCORER_additive)->prepare(&in, &ws);
	/* U_a·h_1 = (3 + 2, -0.5), U_a·h_2 = (0.5 - 4, 1): once, by prepare */
	ck_assert_double_eq_tol(ws_key[0], 5.0, TOL);
	ck_assert_double_eq_tol(ws_key[1], -0.5, TOL);
	ck_assert_double_eq_tol(ws_key[2], -3.5, TOL);
	ck_assert_double_eq_tol(ws_key[3], 1.0, TOL);
	scorer_get(SCORER_additive)->forward(&in, s, e, &ws);
	/* W_a·s = (2.5, -0.5); pre_1 = (7.5, -1), pre_2 = (-1, 0.5) */
	ck_assert_double_eq_tol(ws_q[0], 2.5, TOL);
	ck_assert_double_eq_tol(ws_q[1], -0.5, TOL);
	ck_assert_double_eq_tol(ws_mid[0], 7.5, TOL);
	ck_assert_double_eq_tol(ws_mid[3], 0.5, TOL);
	ck_assert_double_eq_tol(e[0], 2 * tanh(7.5) + tanh(1.0), TOL);
	ck_assert_double_eq_tol(e[1], -2 * tanh(1.0) - tanh(0.5), TOL);
	run_scorer(SCORER_concat, f, s, Hs, 2, 2, 2, Wcat, v);
	ck_assert_double_eq_tol(f[0], e[0], TOL);
	ck_assert_double_eq_tol(f[1], e[1], TOL);
}
END_TEST

/* location-aware: the convolution of α_{t-1} with zero padding, worked
 * by hand, H = A = 1, n = 3, α_{t-1} = (0.2, 0.5, 0.3) */
START_TEST(test_score_location_aware)
{
	const double s[] = { 0.25 }, Hs[] = { 1, -2, 0.5 };
	const double prev[] = { 0.2, 0.5, 0.3 };
	double W[] = { 2 }, V[] = { -1 }, U[] = { 0.5, -1 }, b[] = { 0.1 };
	double w[] = { 3 }, F[] = { 1, 2, 3, -1, 0.5, 4 };
	double aux[3 * 17], e[3], dprev[3] = { 0, 0, 0 }, de[3] = { 1, 0, 0 };
	double gw0[1] = { 0 }, gw1[1] = { 0 }, gw2[2] = { 0 }, gw3[1] = { 0 };
	double gw4[1] = { 0 }, gw5[6] = { 0 }, ds[1] = { 0 }, dH[3] = { 0 };
	double *gw[] = { gw0, gw1, gw2, gw3, gw4, gw5 };
	struct model m;
	struct score_in in;
	struct score_ws ws = { ws_key, ws_mid, ws_act, ws_q, aux, dprev };
	memset(&m, 0, sizeof m);
	m.H = 1;
	m.A = 1;
	m.sw[SCORER_location_aware][0] = W;
	m.sw[SCORER_location_aware][1] = V;
	m.sw[SCORER_location_aware][2] = U;
	m.sw[SCORER_location_aware][3] = b;
	m.sw[SCORER_location_aware][4] = w;
	m.sw[SCORER_location_aware][5] = F;
	scorer_input(&in, &m, SCORER_location_aware, Hs, 3);
	in.prev_alpha = prev;
	scorer_get(SCORER_location_aware)->prepare(&in, &ws);
	scorer_get(SCORER_location_aware)->forward(&in, s, e, &ws);
	/* i = 1: window (0, 0.2, 0.5), f = (0.4 + 1.5, 0.1 + 2) */
	ck_assert_double_eq_tol(aux[0], 0.0, TOL);
	ck_assert_double_eq_tol(aux[2], 0.5, TOL);
	ck_assert_double_eq_tol(aux[9], 1.9, TOL);
	ck_assert_double_eq_tol(aux[10], 2.1, TOL);
	/* 3 tanh(2·0.25 - 1 + 0.5·1.9 - 2.1 + 0.1) */
	ck_assert_double_eq_tol(e[0], 3 * tanh(-1.55), TOL);
	/* i = 2: window (0.2, 0.5, 0.3), f = (2.1, 1.25) */
	ck_assert_double_eq_tol(e[1], 3 * tanh(2.4), TOL);
	/* i = 3: window (0.5, 0.3, 0), f = (1.1, -0.35) */
	ck_assert_double_eq_tol(aux[2 * 17 + 9], 1.1, TOL);
	ck_assert_double_eq_tol(e[2], 3 * tanh(1.0), TOL);
	/* back from e_1 alone: de/dα_{t-1},j = Σ_c df_c·F[c][m] with
	 * df = w (1 - tanh²)·U, through the window (0, α_1, α_2) */
	scorer_get(SCORER_location_aware)->backward(&in, s, de, &ws, gw, ds,
						    dH);
	double g = 3 * (1 - tanh(-1.55) * tanh(-1.55));
	ck_assert_double_eq_tol(dprev[0], g * (0.5 * 2 + -1 * 0.5), TOL);
	ck_assert_double_eq_tol(dprev[1], g * (0.5 * 3 + -1 * 4), TOL);
	ck_assert_double_eq_tol(dprev[2], 0.0, TOL);
	ck_assert_double_eq_tol(gw5[1], g * 0.5 * 0.2, TOL); /* F[0][1] */
	ck_assert_double_eq_tol(ds[0], g * 2, TOL);
	ck_assert_double_eq_tol(dH[0], g * -1, TOL);
}
END_TEST

/* Every scorer's forward() and backward() against the plain formula,
 * bit for bit: the scorers take a path of their own for H = A = 4 (the
 * toy's sizes) that keeps values in registers and unrolls, and it must
 * give the very doubles of the loops below, which add in the order the
 * general code does.  Sizes 4 and 4 and others around them, 1 to 9
 * words, the values of lb_next with ±0 and repeated values among them,
 * the weights' gradients, ds, dL/dh_i and dL/dα_{t-1} starting from
 * values of their own. */
#define SB_MAX 512
struct sb_case {
	int H, A, n;
	double w[6][SB_MAX], Hs[SB_MAX], s[16], prev[16], de[16];
};

/* The plain forward pass of scorer sc: e (n), key, mid, act (rows of
 * W = max(H, A)), q and aux (rows of X = 16 + A) as the scorer keeps
 * them. */
static void sb_ref_forward(int sc, const struct sb_case *c, double *e,
			   double *key, double *mid, double *act, double *q,
			   double *aux)
{
	const int H = c->H, A = c->A, n = c->n, W = H > A ? H : A;
	const int X = 16 + A;

	for (int i = 0; i < n; i++) {
		const double *h = c->Hs + i * H;
		double acc = 0.0;
		switch ((enum scorer)sc) { /* a new scorer: add it */
		case SCORER_dot:
			for (int k = 0; k < H; k++)
				acc += c->s[k] * h[k];
			e[i] = acc;
			break;
		case SCORER_scaled:
			for (int k = 0; k < H; k++)
				acc += c->s[k] * h[k];
			mid[i * W] = acc;
			q[0] = sqrt((double)H);
			e[i] = acc / q[0];
			break;
		case SCORER_general:
			for (int r = 0; r < H; r++) {
				double a = 0.0;
				for (int k = 0; k < H; k++)
					a += c->w[0][r * H + k] * h[k];
				key[i * W + r] = a;
			}
			for (int k = 0; k < H; k++)
				acc += c->s[k] * key[i * W + k];
			e[i] = acc;
			break;
		case SCORER_location:
			for (int k = 0; k < H; k++)
				acc += c->w[0][i * H + k] * c->s[k];
			e[i] = acc;
			break;
		case SCORER_concat:
		case SCORER_additive:
		case SCORER_location_aware: {
			const int la = sc == SCORER_location_aware;
			const double *Wq = c->w[0], *Wh = c->w[sc ==
				SCORER_concat ? 0 : 1];
			const double *v = c->w[sc == SCORER_concat ? 1
					       : la ? 4 : 2];
			const int ld = sc == SCORER_concat ? 2 * H : H;
			const int off = sc == SCORER_concat ? H : 0;
			double *x = aux + i * X;
			for (int a = 0; a < A; a++) {
				double kq = 0.0, kh = 0.0;
				for (int k = 0; k < H; k++) {
					kq += Wq[a * ld + k] * c->s[k];
					kh += Wh[a * ld + off + k] * h[k];
				}
				q[a] = kq;
				key[i * W + a] = kh;
			}
			if (la) {
				double f[2];
				for (int m = 0; m < 3; m++) {
					int j = i + m - 1;
					x[m] = j >= 0 && j < n ? c->prev[j]
							       : 0.0;
				}
				for (int k = 0; k < 2; k++) {
					f[k] = 0.0;
					for (int m = 0; m < 3; m++) {
						x[3 + 3 * k + m] =
							c->w[5][3 * k + m] *
							x[m];
						f[k] += x[3 + 3 * k + m];
					}
					x[9 + k] = f[k];
				}
				for (int a = 0; a < A; a++) {
					double uf = 0.0;
					for (int k = 0; k < 2; k++)
						uf += c->w[2][a * 2 + k] * f[k];
					x[11 + a] = uf;
				}
			}
			for (int a = 0; a < A; a++) {
				double p = q[a] + key[i * W + a];
				if (la)
					p = p + x[11 + a] + c->w[3][a];
				mid[i * W + a] = p;
				act[i * W + a] = tanh(p);
				acc += v[a] * act[i * W + a];
			}
			e[i] = acc;
			break;
		}
		case SCORER_COUNT: /* not a scorer */
			break;
		}
	}
}

/* The plain backward pass after sb_ref_forward: adds to the gradients
 * gw, to ds (H), dHs (n, H) and dprev (n). */
static void sb_ref_backward(int sc, const struct sb_case *c,
			    const double *act, const double *key,
			    const double *aux, double gw[6][SB_MAX],
			    double *ds, double *dHs, double *dprev)
{
	const int H = c->H, A = c->A, n = c->n, W = H > A ? H : A;
	const double *s = c->s, *de = c->de;
	double wts[64];

	if (sc == SCORER_general)
		for (int k = 0; k < H; k++) {
			wts[k] = 0.0;
			for (int r = 0; r < H; r++)
				wts[k] += c->w[0][r * H + k] * s[r];
		}
	for (int i = 0; i < n; i++) {
		const double *h = c->Hs + i * H;
		double *dh = dHs + i * H;
		switch ((enum scorer)sc) { /* a new scorer: add it */
		case SCORER_dot:
		case SCORER_scaled: {
			double g = sc == SCORER_dot ? de[i]
				   : de[i] / sqrt((double)H);
			for (int k = 0; k < H; k++) {
				ds[k] += g * h[k];
				dh[k] += g * s[k];
			}
			break;
		}
		case SCORER_general:
			for (int k = 0; k < H; k++) {
				ds[k] += de[i] * key[i * W + k];
				dh[k] += de[i] * wts[k];
			}
			for (int r = 0; r < H; r++)
				for (int k = 0; k < H; k++)
					gw[0][r * H + k] += de[i] * s[r] * h[k];
			break;
		case SCORER_location:
			for (int k = 0; k < H; k++) {
				gw[0][i * H + k] += de[i] * s[k];
				ds[k] += de[i] * c->w[0][i * H + k];
			}
			break;
		case SCORER_concat:
		case SCORER_additive:
		case SCORER_location_aware: {
			const int la = sc == SCORER_location_aware;
			const int iv = sc == SCORER_concat ? 1 : la ? 4 : 2;
			const int ih = sc == SCORER_concat ? 0 : 1;
			const int ld = sc == SCORER_concat ? 2 * H : H;
			const int off = sc == SCORER_concat ? H : 0;
			const double *x = aux + i * (16 + A);
			double du[64], df[2] = { 0.0, 0.0 };
			for (int a = 0; a < A; a++) {
				const double t = act[i * W + a];
				gw[iv][a] += de[i] * t;
				du[a] = de[i] * c->w[iv][a] * (1.0 - t * t);
				if (la)
					gw[3][a] += du[a];
			}
			for (int r = 0; r < A; r++)
				for (int k = 0; k < H; k++) {
					gw[0][r * ld + k] += du[r] * s[k];
					ds[k] += du[r] * c->w[0][r * ld + k];
				}
			for (int r = 0; r < A; r++)
				for (int k = 0; k < H; k++) {
					gw[ih][r * ld + off + k] += du[r] * h[k];
					dh[k] += du[r] *
						 c->w[ih][r * ld + off + k];
				}
			if (!la)
				break;
			for (int r = 0; r < A; r++)
				for (int k = 0; k < 2; k++) {
					gw[2][r * 2 + k] += du[r] * x[9 + k];
					df[k] += du[r] * c->w[2][r * 2 + k];
				}
			for (int k = 0; k < 2; k++)
				for (int m = 0; m < 3; m++)
					gw[5][k * 3 + m] += df[k] * x[m];
			for (int m = 0; m < 3 && dprev; m++) {
				int j = i + m - 1;
				if (j < 0 || j >= n)
					continue;
				for (int k = 0; k < 2; k++)
					dprev[j] += df[k] * c->w[5][k * 3 + m];
			}
			break;
		}
		case SCORER_COUNT: /* not a scorer */
			break;
		}
	}
}

/* a value of lb_next, or now and then ±0 or the value before it */
static double sb_value(unsigned long long *st, double *last)
{
	double v = lb_next(st);
	unsigned long long pick = *st >> 58;

	if (pick == 0)
		v = 0.0;
	else if (pick == 1)
		v = -0.0;
	else if (pick == 2)
		v = *last;
	*last = v;
	return v;
}

static int sb_same(const double *a, const double *b, int n)
{
	return memcmp(a, b, sizeof *a * (size_t)n) == 0;
}

static struct sb_case sb_c;
static double sb_gw[6][SB_MAX], sb_gr[6][SB_MAX];
static double sb_key[SB_MAX], sb_mid[SB_MAX], sb_act[SB_MAX], sb_q[64];
static double sb_aux[SB_MAX], sb_rkey[SB_MAX], sb_rmid[SB_MAX];
static double sb_ract[SB_MAX], sb_rq[64], sb_raux[SB_MAX];
static double sb_dHs[SB_MAX], sb_rdHs[SB_MAX];

/* Draws a case of scorer sc with sizes H, A and n words from *st, runs
 * the scorer and the plain loops, and compares every number they make;
 * withprev: with dL/dα_{t-1} (location-aware's ws->dprev). */
static void sb_run(int sc, int H, int A, int n, int withprev,
		   unsigned long long *st)
{
	const struct scorer_class *cls = scorer_get(sc);
	const int W = H > A ? H : A;
	struct sb_case *c = &sb_c;
	double e[16], re[16], ds[16], rds[16], dprev[16], rdprev[16];
	double last = 1.0, *gp[6];
	struct model m;
	struct score_in in;
	struct score_ws ws = { sb_key, sb_mid, sb_act, sb_q, sb_aux,
			       withprev ? dprev : NULL };

	c->H = H;
	c->A = A;
	c->n = n;
	for (int k = 0; k < SB_MAX; k++) {
		for (int p = 0; p < 6; p++) {
			c->w[p][k] = sb_value(st, &last);
			sb_gw[p][k] = sb_gr[p][k] = sb_value(st, &last);
		}
		c->Hs[k] = sb_value(st, &last);
		sb_dHs[k] = sb_rdHs[k] = sb_value(st, &last);
		sb_key[k] = sb_mid[k] = sb_act[k] = sb_aux[k] = 7.0;
		sb_rkey[k] = sb_rmid[k] = sb_ract[k] = sb_raux[k] = 7.0;
	}
	for (int k = 0; k < 16; k++) {
		c->s[k] = sb_value(st, &last);
		c->prev[k] = sb_value(st, &last);
		c->de[k] = sb_value(st, &last);
		ds[k] = rds[k] = sb_value(st, &last);
		dprev[k] = rdprev[k] = sb_value(st, &last);
	}
	memset(&m, 0, sizeof m);
	m.H = H;
	m.A = A;
	m.L = n;
	for (int p = 0; p < 6; p++) {
		m.sw[sc][p] = c->w[p];
		gp[p] = sb_gw[p];
	}
	scorer_input(&in, &m, sc, c->Hs, n);
	in.prev_alpha = c->prev;
	if (cls->prepare)
		cls->prepare(&in, &ws);
	cls->forward(&in, c->s, e, &ws);
	sb_ref_forward(sc, c, re, sb_rkey, sb_rmid, sb_ract, sb_rq, sb_raux);
	ck_assert_msg(sb_same(e, re, n), "%s H=%d A=%d n=%d: e differs",
		      cls->name, H, A, n);
	ck_assert_msg(sb_same(sb_mid, sb_rmid, n * W) &&
		      sb_same(sb_act, sb_ract, n * W) &&
		      sb_same(sb_aux, sb_raux, n * (16 + A)),
		      "%s H=%d A=%d n=%d: the kept values differ", cls->name,
		      H, A, n);
	ck_assert_msg(sb_same(sb_key, sb_rkey, n * W) &&
		      sb_same(sb_q, sb_rq, sc == SCORER_scaled ? 1
				: sc == SCORER_dot || sc == SCORER_general ||
				  sc == SCORER_location ? 0 : A),
		      "%s H=%d A=%d n=%d: key or q differs", cls->name, H, A,
		      n);
	cls->backward(&in, c->s, c->de, &ws, gp, ds, sb_dHs);
	sb_ref_backward(sc, c, sb_act, sb_key, sb_aux, sb_gr, rds, sb_rdHs,
			withprev ? rdprev : NULL);
	ck_assert_msg(sb_same(ds, rds, 16) && sb_same(sb_dHs, sb_rdHs, SB_MAX),
		      "%s H=%d A=%d n=%d: ds or dh differs", cls->name, H, A,
		      n);
	ck_assert_msg(sb_same(dprev, rdprev, 16),
		      "%s H=%d A=%d n=%d: dprev differs", cls->name, H, A, n);
	for (int p = 0; p < 6; p++)
		ck_assert_msg(sb_same(sb_gw[p], sb_gr[p], SB_MAX),
			      "%s H=%d A=%d n=%d: gradient %d differs",
			      cls->name, H, A, n, p);
}

START_TEST(test_scorers_bits)
{
	static const int sizes[][2] = { { 4, 4 }, { 4, 2 }, { 2, 4 },
					{ 4, 6 }, { 6, 4 }, { 3, 5 } };
	unsigned long long st = 11;

	for (int z = 0; z < 6; z++)
		for (int n = 1; n <= 9; n++)
			for (int sc = 0; sc < SCORER_COUNT; sc++) {
				sb_run(sc, sizes[z][0], sizes[z][1], n, 0, &st);
				sb_run(sc, sizes[z][0], sizes[z][1], n, 1, &st);
			}
}
END_TEST

START_TEST(test_softmax_small)
{
	/* e = (1, 2, 3): max 3, shifts (-2, -1, 0) */
	const double e[] = { 1, 2, 3 };
	double a[3], sh[3], ex[3], sum;
	double max = attn_softmax(a, sh, ex, &sum, e, 3);
	double e1 = 0.36787944117144233, e2 = 0.1353352832366127;
	ck_assert_double_eq_tol(max, 3.0, TOL);
	ck_assert_double_eq_tol(sh[0], -2.0, TOL);
	ck_assert_double_eq_tol(ex[0], e2, TOL);
	ck_assert_double_eq_tol(ex[2], 1.0, TOL);
	ck_assert_double_eq_tol(sum, 1 + e1 + e2, TOL);
	ck_assert_double_eq_tol(a[0], e2 / (1 + e1 + e2), TOL);
	ck_assert_double_eq_tol(a[1], e1 / (1 + e1 + e2), TOL);
	ck_assert_double_eq_tol(a[2], 1 / (1 + e1 + e2), TOL);
}
END_TEST

START_TEST(test_softmax_huge_scores)
{
	/* exp(1000) overflows a double; subtracting the max must avoid it */
	const double e[] = { 1000, -1000, 1000 };
	double a[3], sh[3], ex[3], sum;
	double max = attn_softmax(a, sh, ex, &sum, e, 3);
	ck_assert_double_eq_tol(max, 1000.0, TOL);
	ck_assert(isfinite(sum));
	ck_assert_double_eq_tol(sum, 2.0, TOL);
	ck_assert_double_eq_tol(a[0], 0.5, TOL);
	ck_assert_double_eq_tol(a[1], 0.0, TOL);
	ck_assert_double_eq_tol(a[2], 0.5, TOL);
}
END_TEST

START_TEST(test_softmax_all_negative_huge)
{
	const double e[] = { -1000, -1001 };
	double a[2], sh[2], ex[2], sum;
	attn_softmax(a, sh, ex, &sum, e, 2);
	/* 1 / (1 + e^-1) and e^-1 / (1 + e^-1) */
	ck_assert_double_eq_tol(a[0], 0.7310585786300049, TOL);
	ck_assert_double_eq_tol(a[1], 0.2689414213699951, TOL);
}
END_TEST

START_TEST(test_softmax_equal)
{
	const double e[] = { 5, 5, 5, 5 };
	double a[4], sh[4], ex[4], sum;
	attn_softmax(a, sh, ex, &sum, e, 4);
	ck_assert_double_eq_tol(sum, 4.0, TOL);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(a[i], 0.25, TOL);
}
END_TEST

START_TEST(test_softmax_single)
{
	const double e[] = { -7.5 };
	double a[1], sh[1], ex[1], sum;
	attn_softmax(a, sh, ex, &sum, e, 1);
	ck_assert_double_eq_tol(a[0], 1.0, TOL);
}
END_TEST

START_TEST(test_weighted_sum)
{
	/* 0.25 (1, 2) + 0.75 (3, -4) = (0.25, 0.5) + (2.25, -3) */
	const double alpha[] = { 0.25, 0.75 }, Hs[] = { 1, 2, 3, -4 };
	double c[2], terms[4];
	attn_weighted_sum(c, terms, alpha, Hs, 2, 2);
	ck_assert_double_eq_tol(terms[0], 0.25, TOL);
	ck_assert_double_eq_tol(terms[1], 0.5, TOL);
	ck_assert_double_eq_tol(terms[2], 2.25, TOL);
	ck_assert_double_eq_tol(terms[3], -3.0, TOL);
	ck_assert_double_eq_tol(c[0], 2.5, TOL);
	ck_assert_double_eq_tol(c[1], -2.5, TOL);
}
END_TEST

START_TEST(test_concat_order)
{
	const double c[] = { 1, 2 }, s[] = { 3, 4, 5 };
	double out[5];
	attn_concat(out, c, 2, s, 3);
	const double want[] = { 1, 2, 3, 4, 5 };
	for (int i = 0; i < 5; i++)
		ck_assert_double_eq_tol(out[i], want[i], TOL);
}
END_TEST

START_TEST(test_argmax_first_on_ties)
{
	const double x[] = { 0.1, 0.4, 0.4, -1 };
	ck_assert_int_eq(attn_argmax(x, 4), 1);
	ck_assert_int_eq(attn_argmax(x, 1), 0);
}
END_TEST

static Suite *attn_suite(void)
{
	Suite *s = suite_create("attn");
	TCase *tc = tcase_create("stages");
	tcase_add_test(tc, test_matvec_rectangular);
	tcase_add_test(tc, test_dot);
	tcase_add_test(tc, test_matvec_linear_back_bits);
	tcase_add_test(tc, test_four_rows_bits);
	tcase_add_test(tc, test_linear_back_by_hand);
	tcase_add_test(tc, test_matvec_t_by_hand);
	tcase_add_test(tc, test_rnn_step);
	tcase_add_test(tc, test_rnn_step_rectangular);
	tcase_add_test(tc, test_score_dot);
	tcase_add_test(tc, test_score_scaled);
	tcase_add_test(tc, test_score_location);
	tcase_add_test(tc, test_score_general);
	tcase_add_test(tc, test_score_concat);
	tcase_add_test(tc, test_score_concat_attention_width);
	tcase_add_test(tc, test_score_additive);
	tcase_add_test(tc, test_score_location_aware);
	tcase_add_test(tc, test_scorers_bits);
	tcase_add_test(tc, test_softmax_small);
	tcase_add_test(tc, test_softmax_huge_scores);
	tcase_add_test(tc, test_softmax_all_negative_huge);
	tcase_add_test(tc, test_softmax_equal);
	tcase_add_test(tc, test_softmax_single);
	tcase_add_test(tc, test_weighted_sum);
	tcase_add_test(tc, test_concat_order);
	tcase_add_test(tc, test_argmax_first_on_ties);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(attn_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
