/* window_local_p.c: local-p, the predictive local window (Luong et al.
 * 2015, §3.2, as the authors' released code computes it).  With the
 * query q (s_t in Luong's architecture, s_{t-1} in Bahdanau's):
 *
 *   p_t    = 1 + (n - 1)·sigmoid(v_p·tanh(W_p·q))
 *   window = ⌊p_t⌋ - D .. ⌊p_t⌋ + D, within 1 .. n
 *   align  = softmax(e_t) over the window
 *   a_t,j  = align_j·exp(-(j - p_t)² / (2σ²)),  σ = D/2
 *
 * and 0 outside the window.  Nothing is renormalised, so the weights sum
 * to less than 1.  W_p (H, H) and v_p (H) are the model's optional
 * sections [local-p.W_p] and [local-p.v_p]. */
#include "config.h"

#include <math.h>

#include "attn.h"
#include "window.h"

/* p_t and the record of its arithmetic. */
static const double *local_p_position(struct trace *tr, int run, int t,
				      const double *q)
{
	const struct model *m = tr->m;
	const int H = m->H;
	double *wq = trace_alloc(tr, (size_t)H), *th = trace_alloc(tr, (size_t)H);
	double *v = trace_alloc(tr, 3), *sig = v + 1, *p = v + 2;
	attn_matvec(wq, m->Wp, q, H, H);
	for (int k = 0; k < H; k++)
		th[k] = tanh(wq[k]);
	*v = attn_dot(m->vp, th, H);
	*sig = 1.0 / (1.0 + exp(-*v));
	*p = 1.0 + (tr->n - 1) * *sig;

	struct trace_rec *r = trace_rec_new(tr, REC_POSITION, STAGE_SOFTMAX,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "{q}", NULL, q, H, 1);
	trace_rec_op(r, OP_WEIGHT, "W_p", NULL, m->Wp, H * H, H);
	trace_rec_op(r, OP_WEIGHT, "v_p", NULL, m->vp, H, 1);
	trace_rec_op(r, OP_MID, "W_p·{q}", "W_p_q", wq, H, 1);
	trace_rec_op(r, OP_MID, "tanh(W_p·{q})", "tanh_W_p_q", th, H, 1);
	trace_rec_op(r, OP_MID, "v_p·tanh(W_p·{q})", "v_p_tanh", v, 1, 1);
	trace_rec_op(r, OP_MID, "sigmoid(v_p·tanh(W_p·{q}))", "sigmoid", sig, 1, 1);
	trace_rec_terms(tr, r, m->vp, 2, th, 4, H);
	r->title = "the predicted position";
	r->symbol = "p_{t}";
	r->formula = "1 + ({n} - 1)·sigmoid(v_p·tanh(W_p·{q}))";
	r->result = p;
	r->len = 1;
	return p;
}

static const double *local_p_weights(struct trace *tr, int run, int t,
				     const double *q, const double *e)
{
	const int n = tr->n;
	int lo, hi;
	const double *p = local_p_position(tr, run, t, q);
	window_local_record(tr, run, t, p, (int)floor(*p), &lo, &hi);
	const double *align = window_local_softmax(tr, run, t, e, lo, hi,
						   "align_{t}");
	double *gauss = trace_alloc(tr, (size_t)n), *a = trace_alloc(tr, (size_t)n);
	double *sigma = trace_alloc(tr, 2), *sum = sigma + 1;
	*sigma = tr->cfg.window_size / 2.0;
	for (int j = lo; j <= hi; j++) {
		double d = j - *p;
		gauss[j - 1] = exp(-(d * d) / (2.0 * *sigma * *sigma));
		a[j - 1] = align[j - 1] * gauss[j - 1];
	}
	for (int j = 0; j < n; j++)
		*sum += a[j];

	struct trace_rec *r = trace_rec_new(tr, REC_GAUSS, STAGE_SOFTMAX,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "align_{t}", "align", align, n, 1);
	trace_rec_op(r, OP_MID, "exp(-(j - p_{t})²/(2σ²))", "gauss", gauss,
		     n, 1);
	trace_rec_op(r, OP_INPUT, "p_{t}", NULL, p, 1, 1);
	trace_rec_op(r, OP_INPUT, "σ", "sigma", sigma, 1, 1);
	trace_rec_op(r, OP_MID, "Σ_j a_{t},j", "sum", sum, 1, 1);
	r->ops[0].axis = r->ops[1].axis = AXIS_SOURCE;
	r->win_lo = lo;
	r->win_hi = hi;
	r->title = "the weights";
	r->symbol = "a_{t}";
	r->formula = "align_{t},j·exp(-(j - p_{t})²/(2σ²))";
	r->result = a;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
	return a;
}

extern const struct window_class window_local_p;

static int local_p_check(const struct model *m, const struct trace_cfg *cfg,
			 struct errbuf *err)
{
	if (!m->Wp || !m->vp) {
		err_set(err, "the local-p window needs the model's sections "
			"[local-p.W_p] and [local-p.v_p], which %s does not "
			"have", m->name ? m->name : "the model");
		return -1;
	}
	if (cfg->window_size < window_local_p.min_size) {
		err_set(err, "the local-p window needs a window size of at "
			"least %d (%s), not %d", window_local_p.min_size,
			window_local_p.min_size_why, cfg->window_size);
		return -1;
	}
	return 0;
}

const struct window_class window_local_p = {
	.name = "local-p",
	.summary = "the 2D+1 words around a learnt p_t, each weighted by a "
		   "Gaussian",
	.weights = local_p_weights,
	.check = local_p_check,
	.unnormalised = 1,
	.min_size = 1,
	.min_size_why = "its Gaussian's σ is D/2",
};
