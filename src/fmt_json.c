/* fmt_json.c: a recorded trace as one JSON object (doc/trace-format.md). */
#include "config.h"

#include <math.h>

#include "arch.h"
#include "gradpath.h"
#include "selection.h"
#include "fmt.h"
#include "whatif.h"
#include "window.h"

/* What every function of this file writes with. */
struct jw {
	struct fmt_buf *b;
	const struct trace *tr;
	const struct fmt_opts *o;
};

/* A line break and indent, or one space on a compact line. */
static void jw_nl(const struct jw *w, int indent)
{
	fmt_buf_putc(w->b, w->o->compact ? ' ' : '\n');
	if (!w->o->compact)
		fmt_buf_pad(w->b, "", indent);
}

static int jw_stage(const struct jw *w, enum trace_stage st)
{
	return (w->o->stages & (1u << st)) != 0;
}

/* ,"key": [..] for the result of the record (kind, run, t, i), if its
 * stage is selected. */
static void jw_rec(const struct jw *w, const char *key, enum trace_kind kind,
		   int run, int t, int i, int indent)
{
	const struct trace_rec *r = trace_find(w->tr, kind, run, t, i);
	if (!r || !jw_stage(w, r->stage))
		return;
	fmt_buf_putc(w->b, ',');
	jw_nl(w, indent);
	fmt_buf_putc(w->b, '"');
	fmt_buf_puts(w->b, key);
	fmt_buf_puts(w->b, "\": ");
	fmt_buf_json_vec(w->b, r->result, r->len);
}

static void jw_words(const struct jw *w, const struct vocab *v, const int *ix,
		     int n)
{
	fmt_buf_putc(w->b, '[');
	for (int k = 0; k < n; k++) {
		fmt_buf_puts(w->b, k ? ", " : "");
		fmt_buf_json_string(w->b, v->words[ix ? ix[k] : k]);
	}
	fmt_buf_putc(w->b, ']');
}

/* ,"key": [..] for each operand of r that has a plain name (in JSON). */
static void jw_op_keys(const struct jw *w, const struct trace_rec *r,
		       int indent)
{
	for (int k = 0; k < r->nops; k++) {
		if (!r->ops[k].key)
			continue;
		fmt_buf_putc(w->b, ',');
		jw_nl(w, indent);
		fmt_buf_putc(w->b, '"');
		fmt_buf_puts(w->b, r->ops[k].key);
		fmt_buf_puts(w->b, "\": ");
		fmt_buf_json_vec(w->b, r->ops[k].v, r->ops[k].len);
	}
}

/* ,"name": {"key": [..], ..}: the operands of r that have a plain name,
 * as an object (a bidirectional encoder's two RNN steps of a word). */
static void jw_parts_of(const struct jw *w, const char *name,
			const struct trace_rec *r, int indent)
{
	int any = 0;
	fmt_buf_putc(w->b, ',');
	jw_nl(w, indent);
	fmt_buf_printf(w->b, "\"%s\": {", name);
	for (int k = 0; k < r->nops; k++) {
		if (!r->ops[k].key)
			continue;
		fmt_buf_printf(w->b, "%s\"%s\": ", any++ ? ", " : "",
			       r->ops[k].key);
		fmt_buf_json_vec(w->b, r->ops[k].v, r->ops[k].len);
	}
	fmt_buf_putc(w->b, '}');
}

/* ,"initial": {"state": s_0, and its parts} */
static void jw_initial(const struct jw *w)
{
	const struct trace_rec *r = trace_find(w->tr, REC_INIT, -1, 0, 0);
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 1);
	fmt_buf_puts(w->b, "\"initial\": {\"state\": ");
	fmt_buf_json_vec(w->b, r->result, r->len);
	jw_op_keys(w, r, 2);
	fmt_buf_putc(w->b, '}');
}

/* Bahdanau's encoder: each word's forward and backward states and its
 * annotation, then the decoder's first state with W_init·←h_1. */
static void jw_encoder_bidir(const struct jw *w)
{
	const struct trace *tr = w->tr;
	for (int i = 1; i <= tr->n; i++) {
		fmt_buf_puts(w->b, i > 1 ? "," : "");
		jw_nl(w, 2);
		fmt_buf_puts(w->b, "{\"token\": ");
		fmt_buf_json_string(w->b, tr->m->src.words[tr->src[i - 1]]);
		jw_rec(w, "embedding", REC_EMBED, -1, 0, i, 3);
		jw_rec(w, "forward", REC_FORWARD, -1, 0, i, 3);
		jw_parts_of(w, "forward_parts",
			    trace_find(tr, REC_FORWARD, -1, 0, i), 3);
		jw_rec(w, "backward", REC_BACKWARD, -1, 0, i, 3);
		jw_parts_of(w, "backward_parts",
			    trace_find(tr, REC_BACKWARD, -1, 0, i), 3);
		jw_rec(w, "annotation", REC_ANNOTATION, -1, 0, i, 3);
		fmt_buf_putc(w->b, '}');
	}
	fmt_buf_puts(w->b, "]");
	jw_initial(w);
}

/* An encoder plug-in's (src/caption.c): each cell with its patch's
 * parts and its annotation, then the decoder's first state. */
static void jw_encoder_patch(const struct jw *w)
{
	const struct trace *tr = w->tr;
	for (int i = 1; i <= tr->n; i++) {
		const struct trace_rec *r = trace_find(tr, REC_PATCH, -1, 0, i);
		fmt_buf_puts(w->b, i > 1 ? "," : "");
		jw_nl(w, 2);
		fmt_buf_puts(w->b, "{\"token\": ");
		fmt_buf_json_string(w->b, tr->m->src.words[tr->src[i - 1]]);
		jw_op_keys(w, r, 3);
		jw_rec(w, "annotation", REC_PATCH, -1, 0, i, 3);
		fmt_buf_putc(w->b, '}');
	}
	fmt_buf_puts(w->b, "]");
	jw_initial(w);
}

static void jw_encoder(const struct jw *w)
{
	const struct trace *tr = w->tr;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 1);
	fmt_buf_puts(w->b, "\"encoder\": [");
	if (tr->enc) {
		jw_encoder_patch(w);
		return;
	}
	if (arch_get(tr->arch)->bidir) {
		jw_encoder_bidir(w);
		return;
	}
	for (int i = 1; i <= tr->n; i++) {
		fmt_buf_puts(w->b, i > 1 ? "," : "");
		jw_nl(w, 2);
		fmt_buf_puts(w->b, "{\"token\": ");
		fmt_buf_json_string(w->b, tr->m->src.words[tr->src[i - 1]]);
		jw_rec(w, "embedding", REC_EMBED, -1, 0, i, 3);
		jw_rec(w, "state", REC_RNN, -1, 0, i, 3);
		jw_op_keys(w, trace_find(tr, REC_RNN, -1, 0, i), 3);
		fmt_buf_putc(w->b, '}');
	}
	fmt_buf_puts(w->b, "]");
}

/* ,"parts": {"key": [..], ..}: the intermediates of the scorer that have
 * a plain name (trace_operand.key), a row a source word (a number a
 * source word when each is one number).  None for dot. */
static void jw_parts(const struct jw *w, int run, int t)
{
	const struct trace *tr = w->tr;
	const struct trace_rec *first = trace_find(tr, REC_SCORE, run, t, 1);
	int any = 0;
	if (!first || !jw_stage(w, STAGE_SCORING))
		return;
	for (int k = 0; k < first->nops; k++) {
		const char *key = first->ops[k].key;
		if (!key)
			continue;
		fmt_buf_puts(w->b, any ? ", \"" : ",");
		if (!any) {
			jw_nl(w, 5);
			fmt_buf_puts(w->b, "\"parts\": {\"");
		}
		any = 1;
		fmt_buf_puts(w->b, key);
		fmt_buf_puts(w->b, "\": [");
		for (int i = 1; i <= tr->n; i++) {
			const struct trace_rec *r = first + (i - 1);
			fmt_buf_puts(w->b, i > 1 ? ", " : "");
			if (r->ops[k].scalar) {
				fmt_buf_json_num(w->b, r->ops[k].v[0]);
			} else {
				fmt_buf_json_vec(w->b, r->ops[k].v,
						 r->ops[k].len);
			}
		}
		fmt_buf_putc(w->b, ']');
	}
	if (any)
		fmt_buf_putc(w->b, '}');
}

/* v (n) as a list, null outside the softmax sm's window (win_lo ..
 * win_hi from 1; 0, 0: every entry), where nothing was computed. */
static void jw_window_vec(const struct jw *w, const struct trace_rec *sm,
			  const double *v, int n)
{
	fmt_buf_putc(w->b, '[');
	for (int k = 1; k <= n; k++) {
		fmt_buf_puts(w->b, k > 1 ? ", " : "");
		if (sm->win_lo && (k < sm->win_lo || k > sm->win_hi))
			fmt_buf_puts(w->b, "null");
		else
			fmt_buf_json_num(w->b, v[k - 1]);
	}
	fmt_buf_putc(w->b, ']');
}

static void jw_softmax(const struct jw *w, int run, int t)
{
	const struct trace_rec *sm = trace_find(w->tr, REC_SOFTMAX, run, t, 0);
	if (!jw_stage(w, STAGE_SOFTMAX))
		return;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	fmt_buf_puts(w->b, "\"softmax\": {\"max\": ");
	fmt_buf_json_vec(w->b, trace_op(sm, "max")->v, 1);
	fmt_buf_puts(w->b, ", \"sum\": ");
	fmt_buf_json_vec(w->b, trace_op(sm, "sum")->v, 1);
	fmt_buf_puts(w->b, ", \"shifted\": ");
	jw_window_vec(w, sm, trace_op(sm, "shifted")->v, sm->len);
	fmt_buf_puts(w->b, ", \"exp\": ");
	jw_window_vec(w, sm, trace_op(sm, "exp")->v, sm->len);
	fmt_buf_puts(w->b, "}");
	/* local-p's softmax is align; its weights come with the Gaussian */
	jw_rec(w, trace_find(w->tr, REC_GAUSS, run, t, 0) ? "align" : "weights",
	       REC_SOFTMAX, run, t, 0, 5);
}

/* A local window's records: "position" (local-p's p_t), "window", and
 * "gaussian" with local-p's "weights". */
static void jw_local(const struct jw *w, const struct trace_rec *r)
{
	if (!jw_stage(w, r->stage))
		return;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	switch (r->kind) {
	case REC_POSITION:
		fmt_buf_puts(w->b, "\"position\": {\"p\": ");
		fmt_buf_json_vec(w->b, r->result, 1);
		jw_op_keys(w, r, 7);
		fmt_buf_puts(w->b, "}");
		break;
	case REC_WINDOW: {
		const double *bounds = trace_op(r, "window")->v;
		fmt_buf_puts(w->b, "\"window\": {\"name\": ");
		fmt_buf_json_string(w->b, window_get(w->tr->cfg.window)->name);
		fmt_buf_puts(w->b, ", \"p\": ");
		fmt_buf_json_vec(w->b, trace_op(r, "p")->v, 1);
		fmt_buf_printf(w->b, ", \"D\": %d, \"first\": %d, \"last\": %d, "
			       "\"words\": ", (int)trace_op(r, "D")->v[0],
			       (int)bounds[0], (int)bounds[1]);
		jw_words(w, &w->tr->m->src, w->tr->src + (int)bounds[0] - 1,
			 r->len);
		fmt_buf_puts(w->b, ", \"positions\": ");
		fmt_buf_json_vec(w->b, r->result, r->len);
		fmt_buf_puts(w->b, "}");
		break;
	}
	default: { /* REC_GAUSS */
		const struct trace_operand *g = trace_op(r, "gauss");
		fmt_buf_puts(w->b, "\"gaussian\": {\"sigma\": ");
		fmt_buf_json_vec(w->b, trace_op(r, "sigma")->v, 1);
		fmt_buf_puts(w->b, ", \"factors\": ");
		fmt_buf_json_vec(w->b, g->v, g->len);
		fmt_buf_puts(w->b, ", \"sum\": ");
		fmt_buf_json_vec(w->b, trace_op(r, "sum")->v, 1);
		fmt_buf_puts(w->b, "}");
		jw_rec(w, "weights", REC_GAUSS, r->run, r->t, 0, 5);
		break;
	}
	}
}

static void jw_weighted(const struct jw *w, int run, int t)
{
	if (!jw_stage(w, STAGE_WEIGHTED_SUM))
		return;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	fmt_buf_puts(w->b, "\"weighted\": [");
	for (int i = 1; i <= w->tr->n; i++) {
		fmt_buf_puts(w->b, i > 1 ? ", " : "");
		fmt_buf_json_vec(w->b, trace_find(w->tr, REC_WEIGHTED, run, t, i)->result,
			     w->tr->m->H);
	}
	fmt_buf_puts(w->b, "]");
	jw_rec(w, "context", REC_CONTEXT, run, t, 0, 5);
}

/* Hard attention's choice: "hard": {"rule", "cumsum", "u", "l",
 * "context"}, after the soft "context" it replaces; a window whose
 * weights are not a distribution (local-p) adds their "sum" and the
 * normalised weights "pi" the draw is made from, before "cumsum". */
static void jw_sample(const struct jw *w, const struct trace_rec *r)
{
	if (!jw_stage(w, STAGE_WEIGHTED_SUM))
		return;
	const struct trace_operand *u = trace_op_key(r, "u");
	const struct trace_operand *sum = trace_op_key(r, "sum");
	const struct trace_operand *pi = trace_op_key(r, "pi");
	const struct trace_operand *cum = trace_op_key(r, "cumsum");
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	fmt_buf_puts(w->b, "\"hard\": {\"rule\": ");
	fmt_buf_puts(w->b, u ? "\"sample\"" : "\"argmax\"");
	if (sum && pi) {
		fmt_buf_puts(w->b, ", \"sum\": ");
		fmt_buf_json_num(w->b, sum->v[0]);
		fmt_buf_puts(w->b, ", \"pi\": ");
		fmt_buf_json_vec(w->b, pi->v, pi->len);
	}
	fmt_buf_puts(w->b, ", \"cumsum\": ");
	fmt_buf_json_vec(w->b, cum->v, cum->len);
	if (u) {
		fmt_buf_puts(w->b, ", \"u\": ");
		fmt_buf_json_num(w->b, u->v[0]);
	}
	fmt_buf_puts(w->b, ", \"l\": ");
	fmt_buf_int(w->b, r->i);
	fmt_buf_puts(w->b, ", \"context\": ");
	fmt_buf_json_vec(w->b, r->result, r->len);
	fmt_buf_puts(w->b, "}");
}

/* A record as "name": {each operand with a key: a number when it is one
 * by definition (trace_operand.scalar), else a list; then its result as
 * "total"}. */
static void jw_keyed(const struct jw *w, const char *name,
		     const struct trace_rec *r, const char *total)
{
	if (!jw_stage(w, STAGE_WEIGHTED_SUM))
		return;
	int any = 0;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	fmt_buf_printf(w->b, "\"%s\": {", name);
	for (int k = 0; k < r->nops; k++) {
		const struct trace_operand *op = &r->ops[k];
		if (!op->key)
			continue;
		fmt_buf_printf(w->b, "%s\"%s\": ", any++ ? ", " : "", op->key);
		if (op->scalar)
			fmt_buf_json_num(w->b, op->v[0]);
		else
			fmt_buf_json_vec(w->b, op->v, op->len);
	}
	if (total) {
		fmt_buf_printf(w->b, ", \"%s\": ", total);
		fmt_buf_json_vec(w->b, r->result, r->len);
	}
	fmt_buf_puts(w->b, "}");
}

/* Hard attention's exact view (teacher-forced): "exact": {"y",
 * "log_p", "expected", "log_marginal", "jensen_gap", "given_past"}. */
static void jw_exact(const struct jw *w, const struct trace_rec *r)
{
	if (!jw_stage(w, STAGE_WEIGHTED_SUM))
		return;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	fmt_buf_puts(w->b, "\"exact\": {\"y\": ");
	fmt_buf_json_string(w->b, w->tr->m->tgt.words[r->word]);
	fmt_buf_puts(w->b, ", \"log_p\": ");
	const struct trace_operand *lp = trace_op(r, "log_p");
	fmt_buf_json_vec(w->b, lp->v, lp->len);
	fmt_buf_puts(w->b, ", \"expected\": ");
	fmt_buf_json_num(w->b, trace_op(r, "expected")->v[0]);
	fmt_buf_puts(w->b, ", \"log_marginal\": ");
	fmt_buf_json_num(w->b, trace_op(r, "log_marginal")->v[0]);
	fmt_buf_puts(w->b, ", \"jensen_gap\": ");
	fmt_buf_json_num(w->b, r->result[0]);
	fmt_buf_puts(w->b, trace_steps_chained(w->tr) ? ", \"given_past\": true}"
						    : ", \"given_past\": false}");
}

static void jw_output(const struct jw *w, int run, int t)
{
	const struct trace_rec *o = trace_find(w->tr, REC_OUTPUT, run, t, 0);
	if (!jw_stage(w, STAGE_OUTPUT))
		return;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 5);
	fmt_buf_puts(w->b, "\"output\": {\"token\": ");
	fmt_buf_json_string(w->b, w->tr->m->tgt.words[o->word]);
	fmt_buf_puts(w->b, ", \"logits\": ");
	const struct trace_operand *lg = trace_op(o, "logits");
	fmt_buf_json_vec(w->b, lg->v, lg->len);
	fmt_buf_puts(w->b, ", \"probs\": ");
	fmt_buf_json_vec(w->b, o->result, o->len);
	fmt_buf_puts(w->b, "}");
}

/* The keys of a step, one writer a kind of record, in the order the
 * architecture's step program made the records (NULL: nothing, or
 * written with the first record of its kind). */
static void jw_step_rec(const struct jw *w, const struct trace_rec *r)
{
	int run = r->run, t = r->t;
	switch (r->kind) {
	case REC_RNN:
		jw_rec(w, "state", REC_RNN, run, t, 0, 5);
		if (jw_stage(w, r->stage))
			jw_op_keys(w, r, 5);
		break;
	case REC_QUERY: jw_rec(w, "query", REC_QUERY, run, t, 0, 5); break;
	case REC_SCORE:
		if (r->i == 1)
			jw_parts(w, run, t);
		break;
	case REC_SCORES: jw_rec(w, "scores", REC_SCORES, run, t, 0, 5); break;
	case REC_SOFTMAX: jw_softmax(w, run, t); break;
	case REC_WEIGHTED:
		if (r->i == 1)
			jw_weighted(w, run, t);
		break;
	case REC_CONCAT: jw_rec(w, "concat", REC_CONCAT, run, t, 0, 5); break;
	case REC_ATTENTIONAL:
		jw_rec(w, "attentional", REC_ATTENTIONAL, run, t, 0, 5);
		if (jw_stage(w, r->stage))
			jw_op_keys(w, r, 5);
		break;
	case REC_OUTPUT: jw_output(w, run, t); break;
	case REC_POSITION:
	case REC_WINDOW:
	case REC_GAUSS: jw_local(w, r); break;
	case REC_SAMPLE: jw_sample(w, r); break;
	case REC_EXACT: jw_exact(w, r); break;
	case REC_GRADIENT: jw_keyed(w, "gradient", r, "scores"); break;
	case REC_SAMPLES: jw_keyed(w, "samples", r, NULL); break;
	case REC_EMBED: /* y_{t-1}, the embedding of the step's "input" */
		jw_rec(w, "embedding", REC_EMBED, run, t, 0, 5);
		break;
	case REC_GRADPATH: /* the run's: jw_gradpath() */
	case REC_CONTEXT: /* written with the weighted terms */
	case REC_FORWARD: /* the encoder's */
	case REC_BACKWARD:
	case REC_ANNOTATION:
	case REC_INIT:
	case REC_PATCH:
	case REC_X: /* self-attention's: jw_mat_trace() */
	case REC_PROJECT:
	case REC_HEAD_SCORES:
	case REC_MASK:
	case REC_ROW_SOFTMAX:
	case REC_HEAD_Z:
	case REC_HEADS_CONCAT:
	case REC_KIND_COUNT:
		break;
	}
}

static void jw_step(const struct jw *w, int run, int t)
{
	const struct trace_run *ru = &w->tr->runs[run];
	int first = ru->step_first[t - 1];
	int end = t < ru->nsteps ? ru->step_first[t]
				 : ru->first_rec + ru->nrecs;
	fmt_buf_puts(w->b, "{\"t\": ");
	fmt_buf_int(w->b, t);
	fmt_buf_puts(w->b, ", \"input\": ");
	fmt_buf_json_string(w->b, w->tr->m->tgt.words[ru->input[t - 1]]);
	for (int k = first; k < end; k++)
		jw_step_rec(w, &w->tr->recs[k]);
	fmt_buf_puts(w->b, "}");
}

/* The run's gradient paths (--gradient-paths), if recorded:
 * "gradient_paths": {"t", "word", "loss", "total", "direct",
 * "recurrence" (a row a source word), "total_norm", "direct_norm",
 * "recurrence_norm"}: the record's operands under their keys. */
static void jw_gradpath(const struct jw *w, int run)
{
	const struct trace_rec *r = gradpath_find(w->tr, run);
	if (!r)
		return;
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 3);
	fmt_buf_printf(w->b, "\"gradient_paths\": {\"t\": %d, \"word\": ",
		       r->t);
	fmt_buf_json_string(w->b, w->tr->m->tgt.words[r->word]);
	fmt_buf_puts(w->b, ", \"loss\": ");
	fmt_buf_json_num(w->b, trace_op_key(r, "loss")->v[0]);
	for (int k = 0; k < 3; k++) { /* the vectors, a row a word */
		const struct trace_operand *op = &r->ops[k];
		fmt_buf_printf(w->b, ", \"%s\": [", op->key);
		for (int i = 0, cols = op->len / op->rows; i < op->rows; i++) {
			fmt_buf_puts(w->b, i ? ", " : "");
			fmt_buf_json_vec(w->b, op->v + (size_t)i * cols, cols);
		}
		fmt_buf_puts(w->b, "]");
	}
	fmt_buf_puts(w->b, ", \"total_norm\": ");
	fmt_buf_json_vec(w->b, r->result, r->len);
	for (int k = 3; k < r->nops; k++) /* the norms, a number a word */
		if (!r->ops[k].scalar) {
			fmt_buf_printf(w->b, ", \"%s\": ", r->ops[k].key);
			fmt_buf_json_vec(w->b, r->ops[k].v, r->ops[k].len);
		}
	fmt_buf_puts(w->b, "}");
}

static void jw_run(const struct jw *w, int run)
{
	const struct trace_run *ru = &w->tr->runs[run];
	jw_nl(w, 2);
	fmt_buf_puts(w->b, "{\"scorer\": ");
	fmt_buf_json_string(w->b, trace_scorer_name(ru->scorer));
	fmt_buf_puts(w->b, ", \"output\": ");
	jw_words(w, &w->tr->m->tgt, ru->pred, ru->nsteps);
	if (!w->tr->ntgt)
		fmt_buf_printf(w->b, ", \"stopped\": %s", ru->stopped ? "true" : "false");
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 3);
	fmt_buf_puts(w->b, "\"steps\": [");
	for (int t = 1; t <= ru->nsteps; t++) {
		fmt_buf_puts(w->b, t > 1 ? "," : "");
		jw_nl(w, 4);
		jw_step(w, run, t);
	}
	fmt_buf_puts(w->b, "]");
	jw_gradpath(w, run);
	fmt_buf_puts(w->b, "}");
}

/* "set": the --set edits applied to the model, if any, each with its
 * name, the value set and the value it replaced. */
static void jw_set(const struct jw *w)
{
	if (!w->o->nset)
		return;
	fmt_buf_puts(w->b, "\"set\": [");
	for (int k = 0; k < w->o->nset; k++) {
		const struct whatif_edit *e = &w->o->set[k];
		fmt_buf_puts(w->b, k ? ", {\"name\": " : "{\"name\": ");
		fmt_buf_json_string(w->b, e->name);
		fmt_buf_puts(w->b, ", \"value\": ");
		fmt_buf_json_num(w->b, e->value);
		fmt_buf_puts(w->b, ", \"old\": ");
		fmt_buf_json_num(w->b, e->old);
		fmt_buf_puts(w->b, "}");
	}
	fmt_buf_puts(w->b, "],");
	jw_nl(w, 1);
}

static void jw_header(const struct jw *w)
{
	const struct trace *tr = w->tr;
	const struct model *m = tr->m;
	fmt_buf_printf(w->b, "{\"format\": \"%s\",", FMT_JSON_VERSION);
	if (w->o->pair)
		fmt_buf_printf(w->b, " \"line\": %d,", w->o->pair);
	jw_nl(w, 1);
	fmt_buf_puts(w->b, "\"model\": ");
	fmt_buf_json_string(w->b, m->name);
	fmt_buf_printf(w->b, ",");
	jw_nl(w, 1);
	jw_set(w);
	fmt_buf_printf(w->b, "\"embedding_dim\": %d, \"hidden_dim\": %d, "
		"\"attention_dim\": %d,", m->E, m->H, m->A);
	if (tr->arch != ARCH_DEFAULT)
		fmt_buf_printf(w->b, " \"architecture\": \"%s\",",
			       arch_get(tr->arch)->name);
	if (tr->enc)
		fmt_buf_printf(w->b, " \"encoder_kind\": \"%s\",",
			       tr->enc->name);
	if (tr->enc && tr->enc->json_input) {
		jw_nl(w, 1);
		fmt_buf_puts(w->b, "\"input\": ");
		tr->enc->json_input(w->b, tr);
		fmt_buf_putc(w->b, ',');
	}
	if (tr->cfg.selection != SELECTION_DEFAULT) {
		const struct selection_class *sc =
			selection_get(tr->cfg.selection);
		fmt_buf_printf(w->b, " \"selection\": \"%s\",", sc->name);
		if (sc->json)
			sc->json(w->b, &tr->cfg);
	}
	jw_nl(w, 1);
	fmt_buf_puts(w->b, "\"source\": ");
	jw_words(w, &m->src, tr->src, tr->n);
	if (tr->ntgt) {
		fmt_buf_puts(w->b, ",");
		jw_nl(w, 1);
		fmt_buf_puts(w->b, "\"target\": ");
		jw_words(w, &m->tgt, tr->tgt, tr->ntgt);
		fmt_buf_puts(w->b, ", \"decoding\": \"teacher-forced\"");
	} else {
		fmt_buf_puts(w->b, ",");
		jw_nl(w, 1);
		fmt_buf_printf(w->b, "\"decoding\": \"greedy\", \"max_steps\": %d",
			tr->max_steps);
	}
	fmt_buf_puts(w->b, ",");
	jw_nl(w, 1);
	fmt_buf_puts(w->b, "\"vocab\": ");
	jw_words(w, &m->tgt, NULL, m->tgt.n);
}

/* ------------------------------------------------------ matrix records */

/* Self-attention's trace (trace.prog TRACE_SELF): its header, the
 * weights its records use, then every record as an object: stage, name,
 * head, what its rows and columns run over, its value and the
 * intermediates with a plain name (doc/trace-format.md). */

/* A matrix (rows, len / rows) as an array of rows; -inf as null. */
static void jw_mat(const struct jw *w, const double *v, int len, int rows)
{
	const int cols = len / rows;
	fmt_buf_putc(w->b, '[');
	for (int i = 0; i < rows; i++) {
		fmt_buf_puts(w->b, i ? ", [" : "[");
		for (int j = 0; j < cols; j++) {
			double x = v[i * cols + j];
			fmt_buf_puts(w->b, j ? ", " : "");
			if (x == -INFINITY)
				fmt_buf_puts(w->b, "null");
			else
				fmt_buf_json_num(w->b, x);
		}
		fmt_buf_putc(w->b, ']');
	}
	fmt_buf_putc(w->b, ']');
}

static const char *jw_axis(enum op_axis a)
{
	switch (a) {
	case AXIS_SOURCE: return "source";
	case AXIS_TARGET: return "target";
	case AXIS_VOCAB: return "vocab";
	case AXIS_NONE: break;
	}
	return "features";
}

/* ,"key": value on a line of its own (indent) or after a space. */
static void jw_key(const struct jw *w, const char *key, int indent)
{
	fmt_buf_putc(w->b, ',');
	jw_nl(w, indent);
	fmt_buf_json_string(w->b, key);
	fmt_buf_puts(w->b, ": ");
}

static void jw_mat_rec(const struct jw *w, const struct trace_rec *r)
{
	fmt_buf_puts(w->b, "{\"stage\": ");
	fmt_buf_json_string(w->b, trace_stage_name(r->stage));
	fmt_buf_puts(w->b, ", \"name\": ");
	fmt_buf_json_string(w->b, r->key);
	if (r->head)
		fmt_buf_printf(w->b, ", \"head\": %d", r->head);
	fmt_buf_printf(w->b, ", \"rows\": \"%s\", \"columns\": \"%s\"",
		       jw_axis(r->row_axis), jw_axis(r->result_axis));
	jw_key(w, "value", 3);
	jw_mat(w, r->result, r->len, r->rows);
	for (int k = 0; k < r->nops; k++) {
		if (!r->ops[k].key)
			continue;
		jw_key(w, r->ops[k].key, 3);
		jw_mat(w, r->ops[k].v, r->ops[k].len, r->ops[k].rows);
	}
	fmt_buf_putc(w->b, '}');
}

static void jw_mat_trace(const struct jw *w)
{
	const struct trace *tr = w->tr;
	const struct trace_self *s = &tr->self;
	fmt_buf_printf(w->b, "{\"format\": \"%s\"", FMT_SELF_JSON_VERSION);
	jw_key(w, "model", 1);
	fmt_buf_json_string(w->b, tr->m->name);
	jw_key(w, "attention", 1);
	fmt_buf_puts(w->b, s->cross ? "\"cross\"" : "\"self\"");
	fmt_buf_printf(w->b, ", \"causal\": %s, \"position\": %s",
		       s->causal ? "true" : "false",
		       s->position ? "true" : "false");
	jw_key(w, "d_model", 1);
	fmt_buf_printf(w->b, "%d, \"num_heads\": %d, \"d_k\": %d", s->d,
		       s->heads, s->dk);
	jw_key(w, "heads_shown", 1);
	fmt_buf_putc(w->b, '[');
	for (int h = 0, first = 1; h < s->heads; h++)
		if (s->shown & (1u << h)) {
			fmt_buf_printf(w->b, "%s%d", first ? "" : ", ", h + 1);
			first = 0;
		}
	fmt_buf_putc(w->b, ']');
	jw_key(w, "source", 1);
	jw_words(w, &tr->m->src, tr->src, tr->n);
	jw_key(w, "queries", 1);
	if (s->cross)
		jw_words(w, &tr->m->tgt, tr->tgt, tr->ntgt);
	else
		jw_words(w, &tr->m->src, tr->src, tr->n);
	/* the weights, each once, as the records name them */
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		for (int j = 0; j < r->nops; j++)
			if (r->ops[j].role == OP_WEIGHT) {
				jw_key(w, r->ops[j].name, 1);
				jw_mat(w, r->ops[j].v, r->ops[j].len,
				       r->ops[j].rows);
			}
	}
	jw_key(w, "records", 1);
	fmt_buf_putc(w->b, '[');
	for (int k = 0; k < tr->nrecs; k++) {
		fmt_buf_puts(w->b, k ? "," : "");
		jw_nl(w, 2);
		jw_mat_rec(w, &tr->recs[k]);
	}
	fmt_buf_puts(w->b, "]}\n");
}

int fmt_json_trace(FILE *out, const struct trace *tr,
		   const struct fmt_opts *o)
{
	struct fmt_buf b = FMT_BUF_INIT;
	struct jw w = { &b, tr, o };
	int rc;
	fmt_buf_grow(&b, FMT_BUF_TRACE);
	if (tr->prog == TRACE_SELF) {
		jw_mat_trace(&w);
		rc = fmt_buf_flush(&b, out);
		fmt_buf_free(&b);
		return rc;
	}
	jw_header(&w);
	if (jw_stage(&w, STAGE_ENCODING))
		jw_encoder(&w);
	fmt_buf_putc(&b, ',');
	jw_nl(&w, 1);
	fmt_buf_puts(&b, "\"runs\": [");
	for (int k = 0; k < tr->nruns; k++) {
		fmt_buf_puts(&b, k ? "," : "");
		jw_run(&w, k);
	}
	fmt_buf_puts(&b, "]}\n");
	rc = fmt_buf_flush(&b, out);
	fmt_buf_free(&b);
	return rc;
}
