/* score_location_aware.c: the location-aware scorer of Chorowski et al.
 * (2015, §2.2), e_t,i = v_a·tanh(W_a·q + U_a·h_i + U_f·f_t,i + b_a), q the
 * query.  (Chorowski et al. write w, W, V, U and b; here they are named
 * as the additive scorer's, which this one extends, so that U, V and W
 * keep the one meaning doc/notation.md gives them.)
 *
 * f_t = F ∗ α_{t-1}: k = 2 filters of width r = 3 slid over the last
 * step's attention weights, a cross-correlation with one zero of padding
 * at each end ("same", as torch's conv1d computes it), so
 *
 *   f_t,i[c] = F[c][0]·α_{t-1},i-1 + F[c][1]·α_{t-1},i + F[c][2]·α_{t-1},i+1
 *
 * with α_{t-1},0 = α_{t-1},n+1 = 0, and α_0 one-hot on the first source
 * word.  Remembering where it looked lets it move on from there. */
#include "config.h"

#include "attn.h"
#include "i18n.h"
#include "scorer.h"
#include "trace.h"

#define K 2 /* filters */
#define R 3 /* their width */

enum { P_W, P_V, P_U, P_B, P_LW, P_F };

static const struct param_spec locaware_params[] = {
	{ "W", "W_a, applied to the query", DIM_A, DIM_H },
	{ "V", "U_a, applied to h_i", DIM_A, DIM_H },
	{ "U", "U_f, applied to f_t,i", DIM_A, DIM_K },
	{ "b", "b_a", DIM_ONE, DIM_A },
	{ "w", "v_a", DIM_ONE, DIM_A },
	{ "F", "F, the 2 filters of width 3 over α_{t-1}", DIM_K, DIM_R },
};

/* the layout of a row of ws->aux: the window of α_{t-1} around i, each
 * filter's three products, f_t,i, and U_f·f_t,i */
#define AUX_WIN 0
#define AUX_PROD (AUX_WIN + R)
#define AUX_F (AUX_PROD + K * R)
#define AUX_UF (AUX_F + K)

/* U_a·h_i depends on h_i alone: once a sentence, into ws->key (n, A) */
static void locaware_prepare(const struct score_in *in, struct score_ws *ws)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);

	for (int i = 0; i < in->n; i++)
		attn_matvec(ws->key + (size_t)i * W, in->w[P_V],
			    in->Hs + (size_t)i * H, A, H);
}

/* The scores after W_a·q for A = 4 (rows of mid and act 4 apart, of aux
 * X apart): the window, the filters' products and sums, U_f·f_t,i, pre and
 * act, as locaware_forward computes them, with the weights in locals. */
static void locaware_forward4(const double *restrict const *w,
			      const double *restrict q,
			      const double *restrict key,
			      const double *restrict al, double *restrict aux,
			      double *restrict mid, double *restrict act,
			      double *restrict e, int n, int X)
{
	const double *F = w[P_F], *U = w[P_U], *b = w[P_B], *lw = w[P_LW];
	const double F0 = F[0], F1 = F[1], F2 = F[2], F3 = F[3], F4 = F[4],
		     F5 = F[5];
	const double qb[4] = { q[0], q[1], q[2], q[3] };

	for (int i = 0; i < n; i++) {
		double *x = aux + (size_t)i * X, *p = mid + 4 * i;
		const double w0 = i > 0 ? al[i - 1] : 0.0, w1 = al[i];
		const double w2 = i + 1 < n ? al[i + 1] : 0.0;
		const double p0 = F0 * w0, p1 = F1 * w1, p2 = F2 * w2;
		const double p3 = F3 * w0, p4 = F4 * w1, p5 = F5 * w2;
		double f0 = 0.0, f1 = 0.0;

		f0 += p0;
		f0 += p1;
		f0 += p2;
		f1 += p3;
		f1 += p4;
		f1 += p5;
		x[AUX_WIN] = w0;
		x[AUX_WIN + 1] = w1;
		x[AUX_WIN + 2] = w2;
		x[AUX_PROD] = p0;
		x[AUX_PROD + 1] = p1;
		x[AUX_PROD + 2] = p2;
		x[AUX_PROD + 3] = p3;
		x[AUX_PROD + 4] = p4;
		x[AUX_PROD + 5] = p5;
		x[AUX_F] = f0;
		x[AUX_F + 1] = f1;
		for (int a = 0; a < 4; a++) { /* U_f·f, then pre */
			double uf = 0.0;
			uf += U[2 * a] * f0;
			uf += U[2 * a + 1] * f1;
			x[AUX_UF + a] = uf;
			p[a] = qb[a] + key[4 * i + a] + uf + b[a];
		}
		e[i] = score_tanh_out4(lw, p, act + 4 * i);
	}
}

static void locaware_forward(const struct score_in *in, const double *s,
			     double *e, struct score_ws *ws)
{
	const int H = in->H, A = in->A, n = in->n;
	const int W = SCORE_WS_WIDTH(in->m), X = SCORE_WS_AUX(in->m);
	const double *F = in->w[P_F], *al = in->prev_alpha;

	attn_matvec(ws->q, in->w[P_W], s, A, H);
	if (A == 4 && W == 4) {
		locaware_forward4(in->w, ws->q, ws->key, al, ws->aux, ws->mid,
				  ws->act, e, n, X);
		return;
	}
	for (int i = 0; i < n; i++) {
		double *aux = ws->aux + (size_t)i * X;
		double *pre = ws->mid + (size_t)i * W;
		double *act = ws->act + (size_t)i * W;
		for (int m = 0; m < R; m++) { /* zero padding at both ends */
			int j = i + m - 1;
			aux[AUX_WIN + m] = j >= 0 && j < n ? al[j] : 0.0;
		}
		for (int c = 0; c < K; c++) {
			double acc = 0.0;
			for (int m = 0; m < R; m++) {
				double p = F[c * R + m] * aux[AUX_WIN + m];
				aux[AUX_PROD + c * R + m] = p;
				acc += p;
			}
			aux[AUX_F + c] = acc;
		}
		attn_matvec(aux + AUX_UF, in->w[P_U], aux + AUX_F, A, K);
		for (int a = 0; a < A; a++)
			pre[a] = ws->q[a] + ws->key[(size_t)i * W + a] +
				 aux[AUX_UF + a] + in->w[P_B][a];
		e[i] = score_tanh_out(in->w[P_LW], pre, act, A);
	}
}

/* locaware_backward for H = A = 4 (rows of act 4 apart, of aux X apart):
 * the same operations in the same order, the gradients of w, b, U and F
 * and ds held in locals across the n words. */
static void locaware_backward44(const double *restrict const *w,
				double *restrict const *gw,
				double *restrict ds, double *restrict dHs,
				double *restrict dprev,
				const double *restrict s,
				const double *restrict Hs,
				const double *restrict act,
				const double *restrict aux,
				const double *restrict de, int n, int X)
{
	const double *U = w[P_U], *F = w[P_F];
	double glw[4], gb[4], dsl[4], gU[8], gF[6];

	for (int k = 0; k < 4; k++) {
		glw[k] = gw[P_LW][k];
		gb[k] = gw[P_B][k];
		dsl[k] = ds[k];
	}
	for (int k = 0; k < 8; k++)
		gU[k] = gw[P_U][k];
	for (int k = 0; k < 6; k++)
		gF[k] = gw[P_F][k];
	for (int i = 0; i < n; i++) {
		const double *x = aux + (size_t)i * X;
		const double f0 = x[AUX_F], f1 = x[AUX_F + 1];
		double du[4], df0 = 0.0, df1 = 0.0;

		score_tanh_out_back4(w[P_LW], act + 4 * i, de[i], glw, du);
		for (int a = 0; a < 4; a++)
			gb[a] += du[a];
		attn_linear_back44(gw[P_W], dsl, w[P_W], 4, du, s);
		attn_linear_back44(gw[P_V], dHs + 4 * i, w[P_V], 4, du,
				   Hs + 4 * i);
		for (int r = 0; r < 4; r++) { /* U (4, 2) */
			gU[2 * r] += du[r] * f0;
			df0 += du[r] * U[2 * r];
			gU[2 * r + 1] += du[r] * f1;
			df1 += du[r] * U[2 * r + 1];
		}
		for (int m = 0; m < R; m++) {
			gF[m] += df0 * x[AUX_WIN + m];
			gF[R + m] += df1 * x[AUX_WIN + m];
		}
		if (!dprev)
			continue;
		for (int m = 0; m < R; m++) {
			int j = i + m - 1;
			if (j < 0 || j >= n)
				continue; /* the padding */
			dprev[j] += df0 * F[m];
			dprev[j] += df1 * F[R + m];
		}
	}
	for (int k = 0; k < 4; k++) {
		gw[P_LW][k] = glw[k];
		gw[P_B][k] = gb[k];
		ds[k] = dsl[k];
	}
	for (int k = 0; k < 8; k++)
		gw[P_U][k] = gU[k];
	for (int k = 0; k < 6; k++)
		gw[P_F][k] = gF[k];
}

/* The gradient to w, b, W (and s), V (and h_i), U and F, and through the
 * window to α_{t-1} (ws->dprev). */
static void locaware_backward(const struct score_in *in, const double *s,
			      const double *de, struct score_ws *ws,
			      double *const *gw, double *ds, double *dHs)
{
	const int H = in->H, A = in->A, n = in->n;
	const int W = SCORE_WS_WIDTH(in->m), X = SCORE_WS_AUX(in->m);
	double *du = ws->q + W; /* (A) */

	if (H == 4 && A == 4) {
		locaware_backward44(in->w, gw, ds, dHs, ws->dprev, s, in->Hs,
				    ws->act, ws->aux, de, n, X);
		return;
	}
	for (int i = 0; i < n; i++) {
		const double *act = ws->act + (size_t)i * W;
		const double *aux = ws->aux + (size_t)i * X;
		double df[K] = { 0 };
		score_tanh_out_back(in->w[P_LW], act, de[i], gw[P_LW], du, A);
		for (int a = 0; a < A; a++)
			gw[P_B][a] += du[a];
		attn_linear_back(gw[P_W], ds, in->w[P_W], H, du, s, A, H);
		attn_linear_back(gw[P_V], dHs + (size_t)i * H, in->w[P_V], H,
				 du, in->Hs + (size_t)i * H, A, H);
		attn_linear_back(gw[P_U], df, in->w[P_U], K, du, aux + AUX_F,
				 A, K);
		for (int c = 0; c < K; c++)
			for (int m = 0; m < R; m++)
				gw[P_F][c * R + m] += df[c] * aux[AUX_WIN + m];
		for (int m = 0; m < R && ws->dprev; m++) {
			int j = i + m - 1;
			if (j < 0 || j >= n)
				continue; /* the padding */
			for (int c = 0; c < K; c++)
				ws->dprev[j] += df[c] * in->w[P_F][c * R + m];
		}
	}
}

static void locaware_record(const struct score_view *v)
{
	const int A = v->in->A, W = SCORE_WS_WIDTH(v->in->m);
	const double *aux = v->ws->aux + (size_t)v->i * SCORE_WS_AUX(v->in->m);
	const double *act = v->ws->act + (size_t)v->i * W;

	trace_rec_op(v->r, OP_MID,
		     "(α_{t-1},{i-1}; α_{t-1},{i}; α_{t-1},{i+1})", "window",
		     aux + AUX_WIN, R, 1);
	trace_rec_op(v->r, OP_MID, "F_1 times them, term by term",
		     "F1_terms", aux + AUX_PROD, R, 1);
	trace_rec_op(v->r, OP_MID, "F_2 times them, term by term",
		     "F2_terms", aux + AUX_PROD + R, R, 1);
	trace_rec_op(v->r, OP_MID, "f_{t},{i}: the two sums", "f",
		     aux + AUX_F, K, 1);
	trace_rec_op(v->r, OP_MID, "U_f·f_{t},{i}", "U_f", aux + AUX_UF, A, 1);
	trace_rec_op(v->r, OP_MID, "W_a·{q}", "W_a_q", v->ws->q, A, 1);
	trace_rec_op(v->r, OP_MID, "U_a·h_{i}", "U_a_h",
		     v->ws->key + (size_t)v->i * W, A, 1);
	trace_rec_op(v->r, OP_MID, "W_a·{q} + U_a·h_{i} + U_f·f_{t},{i} + b_a",
		     "pre",
		     v->ws->mid + (size_t)v->i * W, A, 1);
	trace_rec_op(v->r, OP_MID, "tanh(W_a·{q} + U_a·h_{i} + U_f·f_{t},{i} + b_a)",
		     "act", act, A, 1);
	trace_rec_op(v->r, OP_WEIGHT, "v_a", NULL, v->in->w[P_LW], A, 1);
	v->r->formula = "v_a·tanh(W_a·{q} + U_a·h_{i} + U_f·f_{t},{i} + b_a)";
	trace_rec_terms(v->tr, v->r, v->in->w[P_LW], 9, act, 8, A);
}

const struct scorer_class scorer_location_aware = {
	.name = "location-aware",
	.formula = "e_t,i = v_a·tanh(W_a·s_t + U_a·h_i + U_f·f_t,i + b_a), "
		   "f_t = F ∗ α_{t-1}",
	.prose = N_("v_a·tanh(W_a·s_t + U_a·h_i + U_f·f_t,i + b_a), where f_t,i is "
		    "what "
		    "two small filters see of the last step's weights around i"),
	.summary = N_("v_a·tanh(W_a·s_t + U_a·h_i + U_f·f_t,i + b_a): content and where it "
		      "looked last (f_t = F ∗ α_{t-1})"),
	.quiz = N_("The location-aware scorer's v_a, and tanh(W_a·{q} + U_a·h_{i} + "
		   "U_f·f_{t},{i} + b_a) for the encoder state h_{i} ({x}):"),
	.nparams = 6,
	.params = locaware_params,
	.uses_prev_alpha = 1,
	.prepare = locaware_prepare,
	.forward = locaware_forward,
	.backward = locaware_backward,
	.record = locaware_record,
};
