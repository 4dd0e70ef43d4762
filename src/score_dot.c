/* score_dot.c: the dot scorer, e_t,i = s_t·h_i (Luong et al. 2015).
 * No weights: the query and the encoder state must already live in the
 * same space. */
#include "config.h"

#include "attn.h"
#include "i18n.h"
#include "scorer.h"
#include "trace.h"

static void dot_forward(const struct score_in *in, const double *s,
			double *e, struct score_ws *ws)
{
	(void)ws;
	if (in->H == 4) {
		score_dots4(e, s, in->Hs, 4, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++)
		e[i] = attn_dot(s, in->Hs + (size_t)i * in->H, in->H);
}

/* de/ds = h_i, de/dh_i = s */
static void dot_backward(const struct score_in *in, const double *s,
			 const double *de, struct score_ws *ws,
			 double *const *gw, double *ds, double *dHs)
{
	const int H = in->H;

	(void)ws;
	(void)gw;
	if (H == 4) {
		score_dot_back4(ds, dHs, s, in->Hs, de, 1.0, in->n);
		return;
	}
	for (int i = 0; i < in->n; i++) {
		const double *h = in->Hs + (size_t)i * H;
		double *dh = dHs + (size_t)i * H;
		for (int k = 0; k < H; k++) {
			ds[k] += de[i] * h[k];
			dh[k] += de[i] * s[k];
		}
	}
}

static void dot_record(const struct score_view *v)
{
	const int H = v->in->H;
	const double *h = v->in->Hs + (size_t)v->i * H;

	trace_rec_op(v->r, OP_INPUT, "{q}", NULL, v->s, H, 1);
	trace_rec_op(v->r, OP_INPUT, "h_{i}", NULL, h, H, 1);
	v->r->formula = "{q}·h_{i}";
	trace_rec_terms(v->tr, v->r, v->s, 0, h, 1, H);
}

const struct scorer_class scorer_dot = {
	.name = "dot",
	.formula = "e_t,i = s_t·h_i",
	.prose = N_("s_t·h_i, a plain dot product"),
	.summary = N_("s_t·h_i: how far the two states point the same way"),
	.quiz = N_("The decoder state {q} and the encoder state h_{i} ({x}):"),
	.nparams = 0,
	.params = NULL,
	.prepare = NULL,
	.forward = dot_forward,
	.backward = dot_backward,
	.record = dot_record,
};
