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

#include <string.h>

#include "attn.h"
#include "i18n.h"
#include "train.h"
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
	r->title = N_("the predicted position");
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
	trace_rec_op(r, OP_INPUT, "p_{t}", NULL, p, 1, 1)->id = "p";
	trace_rec_op(r, OP_INPUT, "σ", "sigma", sigma, 1, 1);
	trace_rec_op(r, OP_MID, "Σ_j a_{t},j", "sum", sum, 1, 1);
	r->ops[0].axis = r->ops[1].axis = AXIS_SOURCE;
	r->win_lo = lo;
	r->win_hi = hi;
	r->title = N_("the weights");
	r->symbol = "a_{t}";
	r->formula = "align_{t},j·exp(-(j - p_{t})²/(2σ²))";
	r->result = a;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
	return a;
}

extern const struct window_class window_local_p;

/* ---------------------------------------------------------- training */

/* Training's weights a_t (w->alpha) from the scores w->e, as
 * local_p_weights makes them for the trace: p_t (w->wpos, with σ(v_p·
 * tanh(W_p q)) in w->wsig and tanh(W_p q) in w->wth), the window
 * ⌊p_t⌋ - D .. ⌊p_t⌋ + D, align_t (w->walign) and the Gaussian
 * (w->wgauss). */
static void local_p_train_weights(const struct model *m, const double *q,
				  int t, int n, struct train_work *w)
{
	const int H = m->H, D = w->window_size;

	(void)t;
	attn_matvec(w->wth, m->Wp, q, H, H);
	for (int k = 0; k < H; k++)
		w->wth[k] = tanh(w->wth[k]);
	w->wsig = 1.0 / (1.0 + exp(-attn_dot(m->vp, w->wth, H)));
	w->wpos = 1.0 + (n - 1) * w->wsig;
	window_local_train((int)floor(w->wpos), n, w);
	memcpy(w->walign, w->alpha, sizeof *w->alpha * (size_t)n);
	for (int j = w->wlo; j <= w->whi; j++) {
		double d = j - w->wpos, sg = D / 2.0;
		w->wgauss[j - 1] = exp(-(d * d) / (2.0 * sg * sg));
		w->alpha[j - 1] = w->walign[j - 1] * w->wgauss[j - 1];
	}
	if (w->hard_fix && n > 1) /* the test hook: near a jump of ⌊p_t⌋? */
		w->hard_pnear = fmin(w->hard_pnear,
				     fabs(w->wpos - floor(w->wpos + 0.5)));
}

/* p_t = 1 + (n - 1)·σ(v), v = v_p·tanh(W_p q), backwards: given dL/dp_t
 * (dp), adds to the gradients of W_p and v_p (g) and to dq (H). */
static void local_p_position_back(struct model *g, const struct model *m,
				  const double *q, double *dq, int n,
				  double dp, const struct train_work *w)
{
	const int H = m->H;
	double dv = dp * (n - 1) * w->wsig * (1.0 - w->wsig);

	for (int k = 0; k < H; k++) {
		double dpre = dv * m->vp[k] * (1.0 - w->wth[k] * w->wth[k]);
		g->vp[k] += dv * w->wth[k];
		for (int i = 0; i < H; i++) {
			g->Wp[(size_t)k * H + i] += dpre * q[i];
			dq[i] += dpre * m->Wp[(size_t)k * H + i];
		}
	}
}

/* The backward pass of local_p_train_weights, given dL/da_t in
 * w->dalpha: through the Gaussian (a_j = align_j g_j, dg_j/dp = g_j (j -
 * p)/σ²) to dL/dp_t, and on to W_p, v_p and dq; then through the softmax
 * over the window, with align_t.  p_t reaches the loss through the
 * Gaussian only: ⌊p_t⌋, the window's place, is piecewise constant, so
 * its derivative is 0 wherever it exists. */
static void local_p_train_back(struct model *g, const struct model *m,
			       const double *q, double *dq,
			       const double *alpha, int n,
			       struct train_work *w)
{
	const double sg = w->window_size / 2.0;
	double dp = 0.0;

	for (int j = w->wlo; j <= w->whi; j++) {
		dp += w->dalpha[j - 1] * alpha[j - 1] * (j - w->wpos) /
		      (sg * sg);
		w->dalpha[j - 1] *= w->wgauss[j - 1];
	}
	for (int j = 1; j <= n; j++)
		if (j < w->wlo || j > w->whi)
			w->dalpha[j - 1] = 0.0;
	local_p_position_back(g, m, q, dq, n, dp, w);
	/* then through the softmax over the window, with align_t */
	window_train_softmax_back(g, m, q, dq, w->walign, n, w);
}

/* Hard attention draws from π = a / Σ a = softmax of z_j = e_j - (j -
 * p_t)²/(2σ²) over the window: dL/dp_t = Σ_j dL/dz_j (j - p_t)/σ², with
 * dL/dz_j = -scale dz_j. */
static void local_p_train_draw_back(struct model *g, const struct model *m,
				    const double *q, double *dq,
				    const double *dz, double scale, int n,
				    struct train_work *w)
{
	const double sg = w->window_size / 2.0;
	double dp = 0.0;

	for (int j = 0; j < n; j++)
		dp -= scale * dz[j] * (j + 1 - w->wpos) / (sg * sg);
	local_p_position_back(g, m, q, dq, n, dp, w);
}

/* Step t's slice of w->seq_win, for n source words. */
static double *local_p_slot(const struct train_work *w, int n, int t)
{
	return w->seq_win + (size_t)(t - 1) * (4 + (size_t)w->H +
					       2 * (size_t)n);
}

/* Keeps step t's window (its place, p_t, σ, tanh(W_p q), align_t and the
 * Gaussian). */
static void local_p_train_keep(struct train_work *w, int n, int t)
{
	const size_t H = (size_t)w->H, N = (size_t)n;
	double *k = local_p_slot(w, n, t);

	k[0] = w->wlo;
	k[1] = w->whi;
	k[2] = w->wpos;
	k[3] = w->wsig;
	memcpy(k + 4, w->wth, sizeof *k * H);
	memcpy(k + 4 + H, w->walign, sizeof *k * N);
	memcpy(k + 4 + H + N, w->wgauss, sizeof *k * N);
}

/* Puts back what local_p_train_keep kept of step t. */
static void local_p_train_recall(struct train_work *w, int n, int t)
{
	const size_t H = (size_t)w->H, N = (size_t)n;
	const double *k = local_p_slot(w, n, t);

	w->wlo = (int)k[0];
	w->whi = (int)k[1];
	w->wpos = k[2];
	w->wsig = k[3];
	memcpy(w->wth, k + 4, sizeof *k * H);
	memcpy(w->walign, k + 4 + H, sizeof *k * N);
	memcpy(w->wgauss, k + 4 + H + N, sizeof *k * N);
}

static int local_p_check(const struct model *m, const struct trace_cfg *cfg,
			 struct errbuf *err)
{
	if (!m->Wp || !m->vp) {
		err_set(err, _("the local-p window needs the model's sections "
			"[local-p.W_p] and [local-p.v_p], which %s does not "
			"have"), m->name ? m->name : _("the model"));
		return -1;
	}
	if (cfg->window_size < window_local_p.min_size) {
		err_set(err, _("the local-p window needs a window size of at "
			"least %d (%s), not %d"), window_local_p.min_size,
			window_local_p.min_size_why, cfg->window_size);
		return -1;
	}
	return 0;
}

const struct window_class window_local_p = {
	.name = "local-p",
	.summary = N_("the 2D+1 words around ⌊p_t⌋, each weighted by a "
		      "Gaussian centred on the learnt p_t"),
	.model = "localp4",
	.weights = local_p_weights,
	.check = local_p_check,
	.unnormalised = 1,
	.min_size = 1,
	.min_size_why = "its Gaussian's σ is D/2",
	.params = LOCALP_PARAM_BIT,
	.train_weights = local_p_train_weights,
	.train_back = local_p_train_back,
	.train_keep = local_p_train_keep,
	.train_recall = local_p_train_recall,
	.train_draw_back = local_p_train_draw_back,
};
