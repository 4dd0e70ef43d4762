/* window_global.c: global attention (Luong et al. 2015, §3.1), every
 * source word in the window:
 *
 *   α_t = softmax(e_t) over i = 1 .. n
 */
#include "config.h"

#include "arch.h"
#include "i18n.h"
#include "train.h"
#include "window.h"

static const double *global_weights(struct trace *tr, int run, int t,
				    const double *q, const double *e)
{
	(void)q;
	return trace_softmax(tr, run, t, e);
}

void window_train_softmax(const struct model *m, const double *q, int t,
			  int n, struct train_work *w)
{
	(void)m;
	(void)q;
	(void)t;
	train_softmax_weights(w->alpha, w->e, n);
}

void window_train_softmax_back(struct model *g, const struct model *m,
			       const double *q, double *dq,
			       const double *alpha, int n,
			       struct train_work *w)
{
	double dot = 0.0;

	(void)g;
	(void)m;
	(void)q;
	(void)dq;
	for (int i = 0; i < n; i++)
		dot += alpha[i] * w->dalpha[i];
	for (int i = 0; i < n; i++)
		w->e[i] = alpha[i] * (w->dalpha[i] - dot);
}

const struct window_class window_global = {
	.name = "global",
	.summary = N_("every source word, weighted by the softmax of its score"),
	.weights = global_weights,
	.train_weights = window_train_softmax,
	.train_back = window_train_softmax_back,
};
