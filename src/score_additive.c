/* score_additive.c: the additive scorer, e_t,i = v_a·tanh(W_a·s + U_a·h_i)
 * (Bahdanau et al. 2015), s the query.  It is Luong's concat with its W_a
 * split in two, [W_a U_a]: U_a·h_i does not depend on the step, so it is
 * computed once a sentence. */
#include "config.h"

#include "attn.h"
#include "i18n.h"
#include "scorer.h"
#include "trace.h"

static const struct param_spec additive_params[] = {
	{ "W", "W_a, applied to the query", DIM_A, DIM_H },
	{ "U", "U_a, applied to h_i", DIM_A, DIM_H },
	{ "v", "v_a", DIM_ONE, DIM_A },
};

/* U_a·h_i depends on h_i alone: once a sentence, into ws->key (n, A) */
static void additive_prepare(const struct score_in *in, struct score_ws *ws)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);

	for (int i = 0; i < in->n; i++)
		attn_matvec(ws->key + (size_t)i * W, in->w[1],
			    in->Hs + (size_t)i * H, A, H);
}

/* ws->q (A) = W_a·s; ws->mid (n, A) = W_a·s + U_a·h_i, ws->act its tanh */
static void additive_forward(const struct score_in *in, const double *s,
			     double *e, struct score_ws *ws)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);

	attn_matvec(ws->q, in->w[0], s, A, H);
	if (H == 4 && A == 4) {
		score_tanh_out44(in->w[2], ws->q, ws->key, ws->mid, ws->act, e,
				 in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		double *pre = ws->mid + (size_t)i * W;
		double *act = ws->act + (size_t)i * W;
		for (int a = 0; a < A; a++)
			pre[a] = ws->q[a] + ws->key[(size_t)i * W + a];
		e[i] = score_tanh_out(in->w[2], pre, act, A);
	}
}

/* de/dv_a = tanh(..); through tanh, du = de·v_a·(1 - tanh²); du goes to
 * W_a (and s) and to U_a (and h_i) */
static void additive_backward(const struct score_in *in, const double *s,
			      const double *de, struct score_ws *ws,
			      double *const *gw, double *ds, double *dHs)
{
	const int H = in->H, A = in->A, W = SCORE_WS_WIDTH(in->m);
	const double *va = in->w[2];
	double *du = ws->q + W; /* (A) */

	if (H == 4 && A == 4) {
		score_tanh_back44(gw[0], gw[1], 4, gw[2], ds, dHs, in->w[0],
				  in->w[1], va, s, in->Hs, ws->act, de, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		const double *act = ws->act + (size_t)i * W;
		const double *h = in->Hs + (size_t)i * H;
		score_tanh_out_back(va, act, de[i], gw[2], du, A);
		attn_linear_back(gw[0], ds, in->w[0], H, du, s, A, H);
		attn_linear_back(gw[1], dHs + (size_t)i * H, in->w[1], H, du,
				 h, A, H);
	}
}

static void additive_record(const struct score_view *v)
{
	const int A = v->in->A, W = SCORE_WS_WIDTH(v->in->m);
	const double *act = v->ws->act + (size_t)v->i * W;
	const double *uh = v->ws->key + (size_t)v->i * W;

	/* U_a·h_i is shown where it is computed, before the first step */
	if (v->r->t == 1)
		trace_rec_op(v->r, OP_MID, "U_a·h_{i}, the same at every step",
			     "U_a_h", uh, A, 1);
	else
		trace_rec_op(v->r, OP_INPUT, "U_a·h_{i}", "U_a_h", uh, A, 1);
	trace_rec_op(v->r, OP_MID, "W_a·{q}", "W_a_q", v->ws->q, A, 1);
	trace_rec_op(v->r, OP_MID, "W_a·{q} + U_a·h_{i}", "pre",
		     v->ws->mid + (size_t)v->i * W, A, 1);
	trace_rec_op(v->r, OP_MID, "tanh(W_a·{q} + U_a·h_{i})", "act", act,
		     A, 1);
	trace_rec_op(v->r, OP_WEIGHT, "v_a", NULL, v->in->w[2], A, 1);
	v->r->formula = "v_a·tanh(W_a·{q} + U_a·h_{i})";
	trace_rec_terms(v->tr, v->r, v->in->w[2], 4, act, 3, A);
}

const struct scorer_class scorer_additive = {
	.name = "additive",
	.formula = "e_t,i = v_a·tanh(W_a·s_t + U_a·h_i)",
	.prose = N_("v_a·tanh(W_a·s_t + U_a·h_i), Bahdanau's: concat with its "
		    "W_a split into [W_a U_a], so U_a·h_i is computed once"),
	.summary = N_("v_a·tanh(W_a·s_t + U_a·h_i): Bahdanau's, concat split in "
		      "two"),
	.quiz = N_("The additive scorer's v_a, and tanh(W_a·{q} + U_a·h_{i}) for "
		   "the encoder state h_{i} ({x}):"),
	.nparams = 3,
	.params = additive_params,
	.prepare = additive_prepare,
	.forward = additive_forward,
	.backward = additive_backward,
	.record = additive_record,
};
