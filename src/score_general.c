/* score_general.c: the general scorer, e_t,i = s_t·(W_a·h_i) (Luong et
 * al. 2015): a dot product after W_a maps h_i into the decoder's space. */
#include "config.h"

#include "attn.h"
#include "i18n.h"
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

	if (in->H == 4) {
		score_dots4(e, s, ws->key, W, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++)
		e[i] = attn_dot(s, ws->key + (size_t)i * W, in->H);
}

/* general_backward for H = 4 (rows of wh 4 apart): the same operations
 * in the same order, W_aᵀ s, ds and dL/dW_a held in locals across the n
 * words, nothing reloaded for fear of aliasing. */
static void general_backward4(double *restrict G, double *restrict ds,
			      double *restrict dHs,
			      const double *restrict Wa,
			      const double *restrict s,
			      const double *restrict Hs,
			      const double *restrict wh,
			      const double *restrict de, int n)
{
	const double s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
	double t[4], g[16], dsl[4];

	for (int k = 0; k < 4; k++) { /* W_aᵀ s, each summed from 0.0 */
		double acc = 0.0;
		acc += Wa[k] * s0;
		acc += Wa[4 + k] * s1;
		acc += Wa[8 + k] * s2;
		acc += Wa[12 + k] * s3;
		t[k] = acc;
		dsl[k] = ds[k];
	}
	for (int k = 0; k < 16; k++)
		g[k] = G[k];
	for (int i = 0; i < n; i++) {
		const double *h = Hs + 4 * i, *w = wh + 4 * i, d = de[i];
		const double h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3];
		double *dh = dHs + 4 * i;
		const double d0 = d * s0, d1 = d * s1, d2 = d * s2,
			     d3 = d * s3;

		for (int k = 0; k < 4; k++) {
			dsl[k] += d * w[k];
			dh[k] += d * t[k];
		}
		g[0] += d0 * h0;
		g[1] += d0 * h1;
		g[2] += d0 * h2;
		g[3] += d0 * h3;
		g[4] += d1 * h0;
		g[5] += d1 * h1;
		g[6] += d1 * h2;
		g[7] += d1 * h3;
		g[8] += d2 * h0;
		g[9] += d2 * h1;
		g[10] += d2 * h2;
		g[11] += d2 * h3;
		g[12] += d3 * h0;
		g[13] += d3 * h1;
		g[14] += d3 * h2;
		g[15] += d3 * h3;
	}
	for (int k = 0; k < 16; k++)
		G[k] = g[k];
	for (int k = 0; k < 4; k++)
		ds[k] = dsl[k];
}

/* de/ds = W_a·h_i, de/dh_i = W_aᵀ s, de/dW_a = s ⊗ h_i */
static void general_backward(const struct score_in *in, const double *s,
			     const double *de, struct score_ws *ws,
			     double *const *gw, double *ds, double *dHs)
{
	const int H = in->H, W = SCORE_WS_WIDTH(in->m);
	const double *Wa = in->w[0];
	double *wts = ws->q; /* W_aᵀ s */

	if (H == 4 && W == 4) {
		general_backward4(gw[0], ds, dHs, Wa, s, in->Hs, ws->key, de,
				  in->n);
		return;
	}
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
	.prose = N_("s_t·(W_a·h_i), a dot product after W_a maps h_i into the "
		    "decoder's space"),
	.summary = N_("s_t·(W_a·h_i): a dot product after a learnt map W_a"),
	.quiz = N_("The decoder state {q}, and W_a·h_{i}: the encoder state "
		   "h_{i} ({x}) times W_a:"),
	.nparams = 1,
	.params = general_params,
	.prepare = general_prepare,
	.forward = general_forward,
	.backward = general_backward,
	.record = general_record,
};
