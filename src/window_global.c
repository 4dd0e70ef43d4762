/* window_global.c: global attention (Luong et al. 2015, §3.1), every
 * source word in the window:
 *
 *   α_t = softmax(e_t) over i = 1 .. n
 */
#include "config.h"

#include "arch.h"
#include "window.h"

static const double *global_weights(struct trace *tr, int run, int t,
				    const double *q, const double *e)
{
	(void)q;
	return trace_softmax(tr, run, t, e);
}

const struct window_class window_global = {
	.name = "global",
	.summary = "every source word, weighted by the softmax of its score",
	.weights = global_weights,
};
