/* score_general.c: the general scorer, e_t,i = s_t·(W_a·h_i) (Luong et
 * al. 2015): a dot product after W_a maps h_i into the decoder's space. */
#include "config.h"

#include "attn.h"
#include "scorer.h"
#include "trace.h"

static const struct param_spec general_params[] = {
	{ "W", "W_a", DIM_H, DIM_H },
};

/* W_a·h_i depends on h_i alone: once a sentence, into ws->key (n, H) */
static void general_prepare(const struct score_in *in, struct score_ws *ws)
{
	const int H = in->H, W = SCORE_WS_WIDTH(in->m);

	for (int i = 0; i < in->n; i++)
		attn_matvec(ws->key + (size_t)i * W, in->w[0],
			    in->Hs + (size_t)i * H, H, H);
}

static void general_forward(const struct score_in *in, const double *s,
			    double *e, struct score_ws *ws)
{
	const int W = SCORE_WS_WIDTH(in->m);

	for (int i = 0; i < in->n; i++)
		e[i] = attn_dot(s, ws->key + (size_t)i * W, in->H);
}

/* de/ds = W_a·h_i, de/dh_i = W_aᵀ s, de/dW_a = s ⊗ h_i */
static void general_backward(const struct score_in *in, const double *s,
			     const double *de, struct score_ws *ws,
			     double *const *gw, double *ds, double *dHs)
{
	const int H = in->H, W = SCORE_WS_WIDTH(in->m);
	const double *Wa = in->w[0];
	double *wts = ws->q; /* W_aᵀ s */

	for (int k = 0; k < H; k++) {
		double acc = 0.0;
		for (int r = 0; r < H; r++)
			acc += Wa[(size_t)r * H + k] * s[r];
		wts[k] = acc;
	}
	for (int i = 0; i < in->n; i++) {
		const double *h = in->Hs + (size_t)i * H;
		const double *wh = ws->key + (size_t)i * W;
		double *dh = dHs + (size_t)i * H;
		for (int k = 0; k < H; k++) {
			ds[k] += de[i] * wh[k];
			dh[k] += de[i] * wts[k];
		}
		for (int r = 0; r < H; r++)
			for (int k = 0; k < H; k++)
				gw[0][(size_t)r * H + k] += de[i] * s[r] * h[k];
	}
}

static void general_record(const struct score_view *v)
{
	const int H = v->in->H, W = SCORE_WS_WIDTH(v->in->m);
	const double *wh = v->ws->key + (size_t)v->i * W;

	trace_rec_op(v->r, OP_INPUT, "{q}", NULL, v->s, H, 1);
	trace_rec_op(v->r, OP_INPUT, "h_{i}", NULL,
		     v->in->Hs + (size_t)v->i * H, H, 1);
	trace_rec_op(v->r, OP_MID, "W_a·h_{i}", "W_a_h", wh, H, 1);
	v->r->formula = "{q}·(W_a·h_{i})";
	trace_rec_terms(v->tr, v->r, v->s, 0, wh, 2, H);
}

const struct scorer_class scorer_general = {
	.name = "general",
	.formula = "e_t,i = s_t·(W_a·h_i)",
	.prose = "s_t·(W_a·h_i), a dot product after W_a maps h_i into the "
		 "decoder's space",
	.summary = "s_t·(W_a·h_i): a dot product after a learnt map W_a",
	.quiz = "The decoder state {q}, and W_a·h_{i}: the encoder state "
		"h_{i} ({x}) times W_a:",
	.nparams = 1,
	.params = general_params,
	.prepare = general_prepare,
	.forward = general_forward,
	.backward = general_backward,
	.record = general_record,
};
