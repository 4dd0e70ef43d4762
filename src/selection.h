/* selection.h: selections, which decide how a decoder step's weights
 * make its context.
 *
 * A selection is one file, src/selection_NAME.c, that defines one
 * `const struct selection_class selection_NAME`, registered by one line
 * SELECTION(NAME) in src/selection_list.h.  trace_attend() (src/arch.h)
 * calls its context() with the window's weights; soft attention is the
 * weighted sum of every state. */
#ifndef ATTN_SELECTION_H
#define ATTN_SELECTION_H

#include "trace.h"

enum selection {
#define SELECTION(name) SELECTION_##name,
#include "selection_list.h"
#undef SELECTION
	SELECTION_COUNT
};

struct selection_class {
	const char *name;    /* "soft": the option, the lesson format, JSON */
	const char *summary; /* one line for listings and --help */
	/* Records the context of step t of run from the weights a (n) and
	 * the encoder states Hs (n, H), and returns it (H).  q (H) is the
	 * step's query, for a selection that looks ahead at the output
	 * (hard's exact view, arch_class.log_prob). */
	const double *(*context)(struct trace *tr, int run, int t,
				 const double *q, const double *a,
				 const double *Hs);
};

extern const struct selection_class *const selection_registry[SELECTION_COUNT];

static inline const struct selection_class *selection_get(int s)
{
	return selection_registry[s];
}

/* The selection called name (exactly), or -1. */
int selection_find(const char *name);

#endif
