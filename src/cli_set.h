/* cli_set.h: --set NAME=VALUE on the commands that draw a trace (heatmap,
 * diagram, deck, quiz), as trace and tui take it (src/whatif.h;
 * doc/trace-format.md, "What-if: --set"). */
#ifndef ATTN_CLI_SET_H
#define ATTN_CLI_SET_H

#include "model.h"
#include "trace.h"
#include "whatif.h"

/* The --set options of a command line, in their order. */
struct cli_set {
	const char *arg[WHATIF_MAX];       /* (n) the arguments, borrowed */
	struct whatif_edit edit[WHATIF_MAX]; /* (n) as applied */
	int n;
};

/* One more --set arg: 0, or EXIT_USAGE after "--set:33:1: expected at
 * most 32 --set". */
int cli_set_add(struct cli_set *s, const char *arg);

/* Applies the edits of s to m, the model just loaded, and points cfg's
 * set at them (the step values the trace makes); checks them against
 * cfg (whatif_check_cfg).  Returns 0, or EXIT_USAGE after the
 * "--set:N:COL: ..." message (m is still the caller's to free). */
int cli_set_apply(struct cli_set *s, struct model *m, struct trace_cfg *cfg);

/* Whether the step values of s were in tr (whatif_check_trace): 0, or
 * EXIT_USAGE after the message. */
int cli_set_check_trace(const struct cli_set *s, const struct trace *tr);

/* Refuses --set on a command that draws what it cannot edit (why, a
 * sentence such as "--arch=all draws the built-in model of each
 * architecture"): EXIT_USAGE after "--set:1:1: WHY; expected no --set
 * with it", or 0 without --set. */
int cli_set_refuse(const struct cli_set *s, const char *why);

#endif
