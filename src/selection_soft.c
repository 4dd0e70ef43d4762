/* selection_soft.c: soft attention, the weighted average of every state:
 *
 *   c_t = Σ_i α_t,i·h_i
 */
#include "config.h"

#include "arch.h"
#include "selection.h"

static const double *soft_context(struct trace *tr, int run, int t,
				  const double *q, const double *a,
				  const double *Hs)
{
	(void)q;
	return trace_context(tr, run, t, a, Hs);
}

const struct selection_class selection_soft = {
	.name = "soft",
	.summary = "the context is the weighted sum of every encoder state",
	.context = soft_context,
};
