/* fmt_json.c: a recorded trace as one JSON object (doc/trace-format.md). */
#include "config.h"

#include "fmt.h"

/* What every function of this file writes with. */
struct jw {
	FILE *out;
	const struct trace *tr;
	const struct fmt_opts *o;
};

/* A line break and indent, or one space on a compact line. */
static void jw_nl(const struct jw *w, int indent)
{
	putc(w->o->compact ? ' ' : '\n', w->out);
	if (!w->o->compact)
		fmt_pad(w->out, "", indent);
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
	putc(',', w->out);
	jw_nl(w, indent);
	putc('"', w->out);
	fputs(key, w->out);
	fputs("\": ", w->out);
	fmt_json_vec(w->out, r->result, r->len);
}

static void jw_words(const struct jw *w, const struct vocab *v, const int *ix,
		     int n)
{
	putc('[', w->out);
	for (int k = 0; k < n; k++) {
		fputs(k ? ", " : "", w->out);
		fmt_json_string(w->out, v->words[ix ? ix[k] : k]);
	}
	putc(']', w->out);
}

static void jw_encoder(const struct jw *w)
{
	const struct trace *tr = w->tr;
	fputs(",", w->out);
	jw_nl(w, 1);
	fputs("\"encoder\": [", w->out);
	for (int i = 1; i <= tr->n; i++) {
		fputs(i > 1 ? "," : "", w->out);
		jw_nl(w, 2);
		fputs("{\"token\": ", w->out);
		fmt_json_string(w->out, tr->m->src.words[tr->src[i - 1]]);
		jw_rec(w, "embedding", REC_EMBED, -1, 0, i, 3);
		jw_rec(w, "state", REC_RNN, -1, 0, i, 3);
		putc('}', w->out);
	}
	fputs("]", w->out);
}

static void jw_softmax(const struct jw *w, int run, int t)
{
	const struct trace_rec *sm = trace_find(w->tr, REC_SOFTMAX, run, t, 0);
	if (!jw_stage(w, STAGE_SOFTMAX))
		return;
	fputs(",", w->out);
	jw_nl(w, 5);
	fputs("\"softmax\": {\"max\": ", w->out);
	fmt_json_vec(w->out, sm->ops[1].v, 1);
	fputs(", \"sum\": ", w->out);
	fmt_json_vec(w->out, sm->ops[4].v, 1);
	fputs("}", w->out);
	jw_rec(w, "weights", REC_SOFTMAX, run, t, 0, 5);
}

static void jw_weighted(const struct jw *w, int run, int t)
{
	if (!jw_stage(w, STAGE_WEIGHTED_SUM))
		return;
	fputs(",", w->out);
	jw_nl(w, 5);
	fputs("\"weighted\": [", w->out);
	for (int i = 1; i <= w->tr->n; i++) {
		fputs(i > 1 ? ", " : "", w->out);
		fmt_json_vec(w->out, trace_find(w->tr, REC_WEIGHTED, run, t, i)->result,
			     w->tr->m->H);
	}
	fputs("]", w->out);
	jw_rec(w, "context", REC_CONTEXT, run, t, 0, 5);
}

static void jw_output(const struct jw *w, int run, int t)
{
	const struct trace_rec *o = trace_find(w->tr, REC_OUTPUT, run, t, 0);
	if (!jw_stage(w, STAGE_OUTPUT))
		return;
	fputs(",", w->out);
	jw_nl(w, 5);
	fputs("\"output\": {\"token\": ", w->out);
	fmt_json_string(w->out, w->tr->m->tgt.words[o->word]);
	fputs(", \"logits\": ", w->out);
	fmt_json_vec(w->out, o->ops[0].v, o->ops[0].len);
	fputs(", \"probs\": ", w->out);
	fmt_json_vec(w->out, o->result, o->len);
	fputs("}", w->out);
}

static void jw_step(const struct jw *w, int run, int t)
{
	const struct trace_run *ru = &w->tr->runs[run];
	fprintf(w->out, "{\"t\": %d, \"input\": ", t);
	fmt_json_string(w->out, w->tr->m->tgt.words[ru->input[t - 1]]);
	jw_rec(w, "state", REC_RNN, run, t, 0, 5);
	jw_rec(w, "scores", REC_SCORES, run, t, 0, 5);
	jw_softmax(w, run, t);
	jw_weighted(w, run, t);
	jw_rec(w, "concat", REC_CONCAT, run, t, 0, 5);
	jw_rec(w, "attentional", REC_ATTENTIONAL, run, t, 0, 5);
	jw_output(w, run, t);
	fputs("}", w->out);
}

static void jw_run(const struct jw *w, int run)
{
	const struct trace_run *ru = &w->tr->runs[run];
	jw_nl(w, 2);
	fputs("{\"scorer\": ", w->out);
	fmt_json_string(w->out, trace_scorer_name(ru->scorer));
	fputs(", \"output\": ", w->out);
	jw_words(w, &w->tr->m->tgt, ru->pred, ru->nsteps);
	if (!w->tr->ntgt)
		fprintf(w->out, ", \"stopped\": %s", ru->stopped ? "true" : "false");
	fputs(",", w->out);
	jw_nl(w, 3);
	fputs("\"steps\": [", w->out);
	for (int t = 1; t <= ru->nsteps; t++) {
		fputs(t > 1 ? "," : "", w->out);
		jw_nl(w, 4);
		jw_step(w, run, t);
	}
	fputs("]}", w->out);
}

static void jw_header(const struct jw *w)
{
	const struct trace *tr = w->tr;
	const struct model *m = tr->m;
	fprintf(w->out, "{\"format\": \"%s\",", FMT_JSON_VERSION);
	if (w->o->pair)
		fprintf(w->out, " \"line\": %d,", w->o->pair);
	jw_nl(w, 1);
	fputs("\"model\": ", w->out);
	fmt_json_string(w->out, m->name);
	fprintf(w->out, ",");
	jw_nl(w, 1);
	fprintf(w->out, "\"embedding_dim\": %d, \"hidden_dim\": %d, "
		"\"attention_dim\": %d,", m->E, m->H, m->A);
	jw_nl(w, 1);
	fputs("\"source\": ", w->out);
	jw_words(w, &m->src, tr->src, tr->n);
	if (tr->ntgt) {
		fputs(",", w->out);
		jw_nl(w, 1);
		fputs("\"target\": ", w->out);
		jw_words(w, &m->tgt, tr->tgt, tr->ntgt);
		fputs(", \"decoding\": \"teacher-forced\"", w->out);
	} else {
		fputs(",", w->out);
		jw_nl(w, 1);
		fprintf(w->out, "\"decoding\": \"greedy\", \"max_steps\": %d",
			tr->max_steps);
	}
	fputs(",", w->out);
	jw_nl(w, 1);
	fputs("\"vocab\": ", w->out);
	jw_words(w, &m->tgt, NULL, m->tgt.n);
}

int fmt_json_trace(FILE *out, const struct trace *tr,
		   const struct fmt_opts *o)
{
	struct jw w = { out, tr, o };
	jw_header(&w);
	if (jw_stage(&w, STAGE_ENCODING))
		jw_encoder(&w);
	fputs(",", out);
	jw_nl(&w, 1);
	fputs("\"runs\": [", out);
	for (int k = 0; k < tr->nruns; k++) {
		fputs(k ? "," : "", out);
		jw_run(&w, k);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
