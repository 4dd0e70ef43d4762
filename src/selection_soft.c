/* selection_soft.c: soft attention, the weighted average of every state:
 *
 *   c_t = Σ_i α_t,i·h_i
 */
#include "config.h"

#include "arch.h"
#include "attn.h"
#include "selection.h"
#include "train.h"
#include "window.h"

static const double *soft_context(struct trace *tr, int run, int t,
				  const double *q, const double *a,
				  const double *Hs)
{
	(void)q;
	return trace_context(tr, run, t, a, Hs);
}

/* ---------------------------------------------------------- training */

/* c (H) = Σ_i α_i h_i over the states w->h rows 1..n: each c_k summed
 * from 0.0 over i in order, four of c in locals across the rows. */
static void soft_train_context(double *restrict c, const double *alpha,
			       int n, int t, struct train_work *w)
{
	const int H = w->H;
	const double *restrict hs = w->h + H;
	int k = 0;

	(void)t;
	for (; k + 4 <= H; k += 4) {
		double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;

		for (int i = 0; i < n; i++) {
			const double *h = hs + (size_t)i * H + k;

			a0 += alpha[i] * h[0];
			a1 += alpha[i] * h[1];
			a2 += alpha[i] * h[2];
			a3 += alpha[i] * h[3];
		}
		c[k] = a0;
		c[k + 1] = a1;
		c[k + 2] = a2;
		c[k + 3] = a3;
	}
	for (; k < H; k++) {
		double a = 0.0;

		for (int i = 0; i < n; i++)
			a += alpha[i] * hs[(size_t)i * H + k];
		c[k] = a;
	}
}

/* dL/dα_t,i = dc·h_i (+ dalpha_in_i), and dL/dh_i += α_t,i dc. */
static void soft_train_context_back(const double *dc, const double *alpha,
				    const double *dalpha_in, int n, int t,
				    struct train_work *w)
{
	const int H = w->H;

	(void)t;
	for (int i = 0; i < n; i++) {
		const double *h = w->h + (size_t)(i + 1) * H;
		double *dh = w->dh + (size_t)(i + 1) * H;
		w->dalpha[i] = attn_dot(dc, h, H);
		if (dalpha_in)
			w->dalpha[i] += dalpha_in[i];
		for (int k = 0; k < H; k++)
			dh[k] += alpha[i] * dc[k];
	}
}

/* The window's backward pass of w->dalpha, the whole of dL/dα_t. */
static void soft_train_scores_back(struct model *g, const struct model *m,
				   const double *q, double *dq,
				   const double *alpha,
				   const double *dalpha_in, int n, int t,
				   double scale, struct train_work *w)
{
	(void)dalpha_in; /* already in w->dalpha */
	(void)t;
	(void)scale;
	window_get(w->window)->train_back(g, m, q, dq, alpha, n, w);
}

const struct selection_class selection_soft = {
	.name = "soft",
	.summary = "the context is the weighted sum of every encoder state",
	.context = soft_context,
	.train_context = soft_train_context,
	.train_context_back = soft_train_context_back,
	.train_scores_back = soft_train_scores_back,
};
