/* window_local.c: what local-m and local-p (Luong et al. 2015, §3.2)
 * share: the window of positions p_t - D .. p_t + D, clipped to the
 * sentence, and the softmax of the scores over it alone. */
#include "config.h"

#include <string.h>

#include "attn.h"
#include "i18n.h"
#include "train.h"
#include "window.h"

struct trace_rec *window_local_record(struct trace *tr, int run, int t,
				      const double *p, int centre, int *lo,
				      int *hi)
{
	const int D = tr->cfg.window_size;
	double *bounds = trace_alloc(tr, 3), *pos;
	*lo = centre - D < 1 ? 1 : centre - D;
	*hi = centre + D > tr->n ? tr->n : centre + D;
	bounds[0] = *lo;
	bounds[1] = *hi;
	bounds[2] = D;
	pos = trace_alloc(tr, (size_t)(*hi - *lo + 1));
	for (int j = *lo; j <= *hi; j++)
		pos[j - *lo] = j;
	struct trace_rec *r = trace_rec_new(tr, REC_WINDOW, STAGE_SOFTMAX,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "p_{t}", "p", p, 1, 1);
	trace_rec_op(r, OP_MID, "window", "window", bounds, 2, 1);
	trace_rec_op(r, OP_INPUT, "D", NULL, bounds + 2, 1, 1)->id = "D";
	r->title = N_("the window");
	r->symbol = "window_{t}";
	r->formula = "⌊{=p}⌋ ± {#D}";
	r->result = pos;
	r->len = *hi - *lo + 1;
	return r;
}

const double *window_local_softmax(struct trace *tr, int run, int t,
				   const double *e, int lo, int hi,
				   const char *symbol)
{
	const int n = tr->n, w = hi - lo + 1;
	double *alpha = trace_alloc(tr, (size_t)n);
	double *shifted = trace_alloc(tr, (size_t)n);
	double *ex = trace_alloc(tr, (size_t)n);
	double *max = trace_alloc(tr, 2), *sum = max + 1;
	*max = attn_softmax(alpha + lo - 1, shifted + lo - 1, ex + lo - 1, sum,
			    e + lo - 1, w);

	struct trace_rec *r = trace_rec_new(tr, REC_SOFTMAX, STAGE_SOFTMAX,
					    run, t, 0);
	trace_rec_op(r, OP_INPUT, "e_{t}", NULL, e, n, 1)->id = "e";
	trace_rec_op(r, OP_MID, "max", NULL, max, 1, 1)->id = "max";
	trace_rec_op(r, OP_MID, "e - max", NULL, shifted, n, 1)->id = "shifted";
	trace_rec_op(r, OP_MID, "exp(e - max)", NULL, ex, n, 1)->id = "exp";
	trace_rec_op(r, OP_MID, "sum", NULL, sum, 1, 1)->id = "sum";
	r->ops[0].axis = r->ops[2].axis = r->ops[3].axis = AXIS_SOURCE;
	r->symbol = symbol;
	r->formula = "exp(e_{t},i - max) / Σ_j exp(e_{t},j - max), i and j "
		     "in the window";
	r->win_lo = lo;
	r->win_hi = hi;
	r->result = alpha;
	r->len = n;
	r->result_axis = AXIS_SOURCE;
	return alpha;
}

void window_local_train(int centre, int n, struct train_work *w)
{
	const int D = w->window_size;

	w->wlo = centre - D < 1 ? 1 : centre - D;
	w->whi = centre + D > n ? n : centre + D;
	memset(w->alpha, 0, sizeof *w->alpha * (size_t)n);
	train_softmax_weights(w->alpha + w->wlo - 1, w->e + w->wlo - 1,
			      w->whi - w->wlo + 1);
}
