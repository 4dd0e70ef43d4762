/* score_scaled.c: the scaled dot scorer, e_t,i = (s_t·h_i) / √H (the
 * scaling of Vaswani et al. 2017), inside the Luong decoder.  The dot
 * product of two H-dimensional vectors grows like √H; dividing by √H
 * keeps the scores, and so the softmax, as soft in a wide model as in a
 * narrow one.  No weights. */
#include "config.h"

#include <math.h>

#include "attn.h"
#include "i18n.h"
#include "scorer.h"
#include "trace.h"

/* scaled_forward for H = 4, whose √H is exactly 2 (sqrt is correctly
 * rounded): dot_i = s·h_i into mid (rows W apart) and e_i = dot_i / 2,
 * the same operations with s in locals and the divisor a constant. */
static ATTN_INLINE void scaled_forward4(double *restrict e,
					double *restrict mid, int W,
					const double *restrict s,
					const double *restrict Hs, int n)
{
	const double s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];

	for (int i = 0; i < n; i++) {
		const double *h = Hs + 4 * i;
		double dot = 0.0;

		dot += s0 * h[0];
		dot += s1 * h[1];
		dot += s2 * h[2];
		dot += s3 * h[3];
		mid[(size_t)i * W] = dot;
		e[i] = dot / 2.0;
	}
}

/* ws->mid row i: s·h_i before the scaling; ws->q[0]: √H */
static void scaled_forward(const struct score_in *in, const double *s,
			   double *e, struct score_ws *ws)
{
	const int H = in->H, W = SCORE_WS_WIDTH(in->m);
	const double root = sqrt((double)H);

	ws->q[0] = root;
	if (H == 4) {
		scaled_forward4(e, ws->mid, W, s, in->Hs, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		double dot = attn_dot(s, in->Hs + (size_t)i * H, H);
		ws->mid[(size_t)i * W] = dot;
		e[i] = dot / root;
	}
}

/* de/ds = h_i / √H, de/dh_i = s / √H */
static void scaled_backward(const struct score_in *in, const double *s,
			    const double *de, struct score_ws *ws,
			    double *const *gw, double *ds, double *dHs)
{
	const int H = in->H;
	const double root = sqrt((double)H);

	(void)ws;
	(void)gw;
	if (H == 4) { /* √4 = 2 exactly: a constant divisor */
		score_dot_back4(ds, dHs, s, in->Hs, de, 2.0, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		const double *h = in->Hs + (size_t)i * H;
		const double g = de[i] / root;
		double *dh = dHs + (size_t)i * H;
		for (int k = 0; k < H; k++) {
			ds[k] += g * h[k];
			dh[k] += g * s[k];
		}
	}
}

static void scaled_record(const struct score_view *v)
{
	const int H = v->in->H, W = SCORE_WS_WIDTH(v->in->m);
	const double *h = v->in->Hs + (size_t)v->i * H;

	trace_rec_op(v->r, OP_INPUT, "{q}", NULL, v->s, H, 1);
	trace_rec_op(v->r, OP_INPUT, "h_{i}", NULL, h, H, 1);
	trace_rec_op(v->r, OP_MID, "{q}·h_{i}", "dot",
		     v->ws->mid + (size_t)v->i * W, 1, 1)->scalar = 1;
	trace_rec_op(v->r, OP_WEIGHT, "√{H}", NULL, v->ws->q, 1, 1);
	v->r->formula = "({q}·h_{i}) / √{H}";
	trace_rec_terms(v->tr, v->r, v->s, 0, h, 1, H);
	v->r->divisor = v->ws->q;
}

const struct scorer_class scorer_scaled = {
	.name = "scaled",
	.formula = "e_t,i = (s_t·h_i) / √H",
	.prose = N_("(s_t·h_i) / √H, the dot product scaled down by the square "
		    "root of the state size, as the Transformer does, so that "
		    "wider states do not make the weights sharper"),
	.summary = N_("(s_t·h_i) / √H: the dot product, scaled as in Transformers"),
	.quiz = N_("The decoder state {q} and the encoder state h_{i} ({x}); "
		   "the state size is H = {H}:"),
	.nparams = 0,
	.params = NULL,
	.prepare = NULL,
	.forward = scaled_forward,
	.backward = scaled_backward,
	.record = scaled_record,
};
