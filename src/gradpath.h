/* gradpath.h: the gradient paths, how strongly the loss of one output
 * step reaches each encoder state, and by which path (doc/model.md,
 * "The gradient paths").
 *
 * For a teacher-forced trace and step t, L_t = -log ŷ_t[y_t] is the
 * cross-entropy of the gold word at step t, and for each source position
 * i (H numbers each; Bahdanau's h_i = [→h_i; ←h_i]):
 *   total       dL_t/dh_i, every path from h_i to L_t;
 *   direct      ∂L_t/∂h_i through step t's attention alone: h_i as a
 *               key (the scores) and a value (the context) of step t,
 *               every other input of step t (its query, α_{t-1}, the
 *               other h_j) held fixed;
 *   recurrence  total − direct: every other path, through the encoder's
 *               recurrence (h_{i+1} .. h_n, or ←h_{i-1} .. ←h_1), the
 *               decoder's start s_0 made from h_n (or ←h_1), and the
 *               attention of the steps before t where they reach step t
 *               (Bahdanau's s_{t-1}, input feeding's h̃_{t-1}, α_{t-1}).
 * They are computed by the architecture's own training pass (its
 * train_pair hook: the forward pass kept on its tape, then back with the
 * classes' backward functions), with only step t's loss weighted
 * (struct train_work's probe), and recorded as one REC_GRADPATH record
 * a run, after the trace's steps.  Nothing here prints. */
#ifndef ATTN_GRADPATH_H
#define ATTN_GRADPATH_H

#include "trace.h"
#include "util.h"

/* Whether the gradient paths of step cfg->grad_paths (-1: the last) can
 * be recorded for model m and a target of ntgt words (0: greedy): 0, or
 * -1 with err set to why not (no target, a step past the last, hard
 * attention, a window or architecture without a training part). */
int gradpath_check(const struct model *m, const struct trace_cfg *cfg,
		   int ntgt, struct errbuf *err);

/* The step the gradient paths of tr are for: tr->cfg.grad_paths, or the
 * last step (ntgt + 1) when it is -1; 0 when none were asked for. */
int gradpath_step(const struct trace *tr);

/* Records the REC_GRADPATH record of run (an index into tr->runs) for
 * step gradpath_step(tr), appended after every record of the trace;
 * gradpath_check has let tr's model and cfg through. */
void gradpath_record(struct trace *tr, int run);

/* The REC_GRADPATH record of run, or NULL. */
const struct trace_rec *gradpath_find(const struct trace *tr, int run);

#endif
