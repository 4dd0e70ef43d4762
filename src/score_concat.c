/* score_concat.c: the concat scorer, e_t,i = v_a·tanh(W_a·[s_t; h_i])
 * (Luong et al. 2015): a small one-layer network of A hidden units. */
#include "config.h"

#include "attn.h"
#include "i18n.h"
#include "scorer.h"
#include "trace.h"

static const struct param_spec concat_params[] = {
	{ "W", "W_a, applied to [s_t; h_i]", DIM_A, DIM_2H },
	{ "v", "v_a", DIM_ONE, DIM_A },
};

/* W_a·[s; h] = W_a[:, :H]·s + W_a[:, H:]·h: the h_i half once a sentence,
 * into ws->key (n, A) */
static void concat_prepare(const struct score_in *in, struct score_ws *ws)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);

	for (int i = 0; i < in->n; i++)
		for (int a = 0; a < A; a++)
			ws->key[(size_t)i * W + a] =
				attn_dot(in->w[0] + (size_t)a * 2 * H + H,
					 in->Hs + (size_t)i * H, H);
}

/* ws->mid (n, A) = W_a·[s; h_i], ws->act (n, A) its tanh */
static void concat_forward(const struct score_in *in, const double *s,
			   double *e, struct score_ws *ws)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);

	for (int a = 0; a < A; a++) /* the s half */
		ws->q[a] = attn_dot(in->w[0] + (size_t)a * 2 * H, s, H);
	if (H == 4 && A == 4) {
		score_tanh_out44(in->w[1], ws->q, ws->key, ws->mid, ws->act, e,
				 in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		double *pre = ws->mid + (size_t)i * W;
		double *act = ws->act + (size_t)i * W;
		for (int a = 0; a < A; a++)
			pre[a] = ws->q[a] + ws->key[(size_t)i * W + a];
		e[i] = score_tanh_out(in->w[1], pre, act, A);
	}
}

/* de/dv_a = tanh(..); through tanh, du = de·v_a·(1 - tanh²); then W_a
 * reads [s; h_i], so du goes to both halves */
static void concat_backward(const struct score_in *in, const double *s,
			    const double *de, struct score_ws *ws,
			    double *const *gw, double *ds, double *dHs)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);
	const double *Wa = in->w[0], *va = in->w[1];
	double *du = ws->q + W; /* (A) */

	if (H == 4 && A == 4) {
		score_tanh_back44(gw[0], gw[0] + 4, 8, gw[1], ds, dHs, Wa,
				  Wa + 4, va, s, in->Hs, ws->act, de, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		const double *act = ws->act + (size_t)i * W;
		const double *h = in->Hs + (size_t)i * H;
		score_tanh_out_back(va, act, de[i], gw[1], du, A);
		attn_linear_back(gw[0], ds, Wa, 2 * H, du, s, A, H);
		attn_linear_back(gw[0] + H, dHs + (size_t)i * H, Wa + H, 2 * H,
				 du, h, A, H);
	}
}

static void concat_record(const struct score_view *v)
{
	const int H = v->in->H, A = v->in->A, W = SCORE_WS_WIDTH(v->in->m);
	const double *act = v->ws->act + (size_t)v->i * W;
	double *sh = trace_alloc(v->tr, 2 * (size_t)H);

	attn_concat(sh, v->s, H, v->in->Hs + (size_t)v->i * H, H);
	trace_rec_op(v->r, OP_MID, "[{q}; h_{i}]", "concat", sh, 2 * H, 1);
	trace_rec_op(v->r, OP_MID, "W_a·[{q}; h_{i}]", "pre",
		     v->ws->mid + (size_t)v->i * W, A, 1);
	trace_rec_op(v->r, OP_MID, "tanh(W_a·[{q}; h_{i}])", "act", act, A, 1);
	trace_rec_op(v->r, OP_WEIGHT, "v_a", NULL, v->in->w[1], A, 1);
	v->r->formula = "v_a·tanh(W_a·[{q}; h_{i}])";
	trace_rec_terms(v->tr, v->r, v->in->w[1], 3, act, 2, A);
}

const struct scorer_class scorer_concat = {
	.name = "concat",
	.formula = "e_t,i = v_a·tanh(W_a·[s_t; h_i])",
	.prose = N_("v_a·tanh(W_a·[s_t; h_i]), a small one-layer network"),
	.summary = N_("v_a·tanh(W_a·[s_t; h_i]): a one-layer network of the pair"),
	.quiz = N_("The concat scorer's v_a, and tanh(W_a·[{q}; h_{i}]) for the "
		   "encoder state h_{i} ({x}):"),
	.nparams = 2,
	.params = concat_params,
	.prepare = concat_prepare,
	.forward = concat_forward,
	.backward = concat_backward,
	.record = concat_record,
};
