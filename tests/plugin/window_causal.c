/* window_causal.c: a throw-away window for tests/plugin.sh, which copies
 * it into a scratch tree as src/window_causal.c with the line
 * WINDOW(causal) in src/window_list.h.  At step t it looks at the 2D+1
 * source words that end at min(t, n), never past it:
 *
 *   α_t = softmax(e_t) over j = min(t, n) - 2D .. min(t, n), within 1 .. n
 *
 * that is the local window around the centre p_t = min(t, n) - D.  Its
 * record says so in its own words, which a text trace prints:
 *
 *   p_3 = min(3, 3) - 1 = 2.0000
 *   window_3 = min(3, 3) - 2·D .. min(3, 3) = min(3, 3) - 2·1 .. min(3, 3), ...
 */
#include "config.h"

#include "train.h"
#include "window.h"

static int causal_centre(int t, int n, int D)
{
	return (t < n ? t : n) - D;
}

static const double *causal_weights(struct trace *tr, int run, int t,
				    const double *q, const double *e)
{
	int lo, hi, centre = causal_centre(t, tr->n, tr->cfg.window_size);
	double *p = trace_alloc(tr, 1);
	(void)q;
	*p = centre;
	struct trace_rec *r = window_local_record(tr, run, t, p, centre, &lo,
						  &hi);
	r->note = "p_{t} = min({t}, {n}) - {#D}";
	r->note_op = trace_op_at(r, "p");
	r->formula = "min({t}, {n}) - 2·{#D} .. min({t}, {n})";
	return window_local_softmax(tr, run, t, e, lo, hi, "α_{t}");
}

/* Training's weights: the same softmax over the same positions. */
static void causal_train_weights(const struct model *m, const double *q,
				 int t, int n, struct train_work *w)
{
	(void)m;
	(void)q;
	window_local_train(causal_centre(t, n, w->window_size), n, w);
}

const struct window_class window_causal = {
	.name = "causal",
	.summary = "the softmax over the 2D+1 words that end at min(t, n)",
	.weights = causal_weights,
	.train_weights = causal_train_weights,
	.train_back = window_train_softmax_back,
};
