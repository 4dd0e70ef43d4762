/* window_local_m.c: local-m, the monotonic local window (Luong et al.
 * 2015, §3.2): at step t it looks at the positions around p_t = min(t, n)
 *
 *   α_t = softmax(e_t) over j = p_t - D .. p_t + D, within 1 .. n
 *
 * and gives the positions outside the window 0.  There is no Gaussian. */
#include "config.h"

#include "i18n.h"
#include "train.h"
#include "window.h"

static const double *local_m_weights(struct trace *tr, int run, int t,
				     const double *q, const double *e)
{
	int lo, hi, centre = t < tr->n ? t : tr->n;
	double *p = trace_alloc(tr, 1);
	(void)q;
	*p = centre;
	struct trace_rec *r = window_local_record(tr, run, t, p, centre, &lo,
						  &hi);
	r->note = "p_{t} = min({t}, {n})";
	r->note_op = trace_op_at(r, "p");
	return window_local_softmax(tr, run, t, e, lo, hi, "α_{t}");
}

/* Training's weights: the softmax over min(t, n) - D .. min(t, n) + D. */
static void local_m_train_weights(const struct model *m, const double *q,
				  int t, int n, struct train_work *w)
{
	(void)m;
	(void)q;
	window_local_train(t < n ? t : n, n, w);
}

const struct window_class window_local_m = {
	.name = "local-m",
	.summary = N_("the softmax over the 2D+1 words around p_t = min(t, n)"),
	.weights = local_m_weights,
	.check = NULL,
	.train_weights = local_m_train_weights,
	.train_back = window_train_softmax_back,
};
