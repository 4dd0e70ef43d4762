/* score_cosine.c: a throw-away scorer for tests/plugin.sh, which copies
 * it into a scratch tree as src/score_cosine.c with the line
 * SCORER(cosine) in src/scorer_list.h: the cosine of the angle between
 * the query and each encoder state,
 *
 *   e_t,i = (s_t·h_i) / (|s_t| |h_i|)
 *
 * (0 when either is the zero vector).  No weights. */
#include "config.h"

#include <math.h>

#include "attn.h"
#include "scorer.h"
#include "trace.h"

/* ws->mid row i: s·h_i; ws->act row i: |s| |h_i| */
static void cosine_forward(const struct score_in *in, const double *s,
			   double *e, struct score_ws *ws)
{
	const int H = in->H, W = SCORE_WS_WIDTH(in->m);
	const double ns = sqrt(attn_dot(s, s, H));

	for (int i = 0; i < in->n; i++) {
		const double *h = in->Hs + (size_t)i * H;
		double dot = attn_dot(s, h, H);
		double norms = ns * sqrt(attn_dot(h, h, H));
		ws->mid[(size_t)i * W] = dot;
		ws->act[(size_t)i * W] = norms;
		e[i] = norms > 0.0 ? dot / norms : 0.0;
	}
}

/* With a = |s|, b = |h_i| and e = s·h_i / (a b):
 *   de/ds   = h_i / (a b) - e s / a²
 *   de/dh_i = s / (a b) - e h_i / b²
 * recomputed from s and h_i, which is all the step keeps. */
static void cosine_backward(const struct score_in *in, const double *s,
			    const double *de, struct score_ws *ws,
			    double *const *gw, double *ds, double *dHs)
{
	const int H = in->H;
	const double aa = attn_dot(s, s, H);

	(void)ws;
	(void)gw;
	for (int i = 0; i < in->n; i++) {
		const double *h = in->Hs + (size_t)i * H;
		double *dh = dHs + (size_t)i * H;
		const double bb = attn_dot(h, h, H), ab = sqrt(aa * bb);
		if (!(ab > 0.0))
			continue;
		const double e = attn_dot(s, h, H) / ab;
		for (int k = 0; k < H; k++) {
			ds[k] += de[i] * (h[k] / ab - e * s[k] / aa);
			dh[k] += de[i] * (s[k] / ab - e * h[k] / bb);
		}
	}
}

static void cosine_record(const struct score_view *v)
{
	const int H = v->in->H, W = SCORE_WS_WIDTH(v->in->m);
	const double *h = v->in->Hs + (size_t)v->i * H;

	trace_rec_op(v->r, OP_INPUT, "{q}", NULL, v->s, H, 1);
	trace_rec_op(v->r, OP_INPUT, "h_{i}", NULL, h, H, 1);
	trace_rec_op(v->r, OP_MID, "{q}·h_{i}", "dot",
		     v->ws->mid + (size_t)v->i * W, 1, 1);
	trace_rec_op(v->r, OP_MID, "|{q}| |h_{i}|", "norms",
		     v->ws->act + (size_t)v->i * W, 1, 1);
	v->r->formula = "({q}·h_{i}) / (|{q}| |h_{i}|)";
	trace_rec_terms(v->tr, v->r, v->s, 0, h, 1, H);
	v->r->divisor = v->ws->act + (size_t)v->i * W;
}

const struct scorer_class scorer_cosine = {
	.name = "cosine",
	.formula = "e_t,i = (s_t·h_i) / (|s_t| |h_i|)",
	.prose = "(s_t·h_i) / (|s_t| |h_i|), the cosine of the angle between "
		 "the two states",
	.summary = "(s_t·h_i) / (|s_t| |h_i|): the cosine of their angle",
	.quiz = "The decoder state {q} and the encoder state h_{i} ({x}):",
	.nparams = 0,
	.params = NULL,
	.prepare = NULL,
	.forward = cosine_forward,
	.backward = cosine_backward,
	.record = cosine_record,
};
