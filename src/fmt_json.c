/* fmt_json.c: a recorded trace as one JSON object (doc/trace-format.md). */
#include "config.h"

#include "fmt.h"

/* "key": [..] for the result of the record (kind, run, t, i). */
static void json_rec(FILE *out, const struct trace *tr, const char *key,
		     enum trace_kind kind, int run, int t, int i)
{
	const struct trace_rec *r = trace_find(tr, kind, run, t, i);
	fprintf(out, "\"%s\": ", key);
	if (r)
		fmt_json_vec(out, r->result, r->len);
	else
		fputs("null", out);
}

static void json_words(FILE *out, const struct vocab *v, const int *w, int n)
{
	putc('[', out);
	for (int k = 0; k < n; k++) {
		fputs(k ? ", " : "", out);
		fmt_json_string(out, v->words[w[k]]);
	}
	putc(']', out);
}

static void json_encoder(FILE *out, const struct trace *tr)
{
	const struct vocab *v = &tr->m->src;
	fputs("\"encoder\": [", out);
	for (int i = 1; i <= tr->n; i++) {
		fputs(i > 1 ? ",\n  {\"token\": " : "\n  {\"token\": ", out);
		fmt_json_string(out, v->words[tr->src[i - 1]]);
		fputs(", ", out);
		json_rec(out, tr, "embedding", REC_EMBED, -1, 0, i);
		fputs(", ", out);
		json_rec(out, tr, "state", REC_RNN, -1, 0, i);
		putc('}', out);
	}
	fputs("]", out);
}

static void json_step(FILE *out, const struct trace *tr, int run, int t)
{
	const struct trace_run *ru = &tr->runs[run];
	const struct vocab *v = &tr->m->tgt;
	const struct trace_rec *sm = trace_find(tr, REC_SOFTMAX, run, t, 0);
	const struct trace_rec *o = trace_find(tr, REC_OUTPUT, run, t, 0);
	fprintf(out, "{\"t\": %d, \"input\": ", t);
	fmt_json_string(out, v->words[ru->input[t - 1]]);
	fputs(",\n     ", out);
	json_rec(out, tr, "state", REC_RNN, run, t, 0);
	fputs(",\n     ", out);
	json_rec(out, tr, "scores", REC_SCORES, run, t, 0);
	fputs(",\n     \"softmax\": {\"max\": ", out);
	fmt_json_vec(out, sm->ops[1].v, 1);
	fputs(", \"sum\": ", out);
	fmt_json_vec(out, sm->ops[4].v, 1);
	fputs("},\n     ", out);
	json_rec(out, tr, "weights", REC_SOFTMAX, run, t, 0);
	fputs(",\n     \"weighted\": [", out);
	for (int i = 1; i <= tr->n; i++) {
		fputs(i > 1 ? ", " : "", out);
		fmt_json_vec(out, trace_find(tr, REC_WEIGHTED, run, t, i)->result,
			     tr->m->H);
	}
	fputs("],\n     ", out);
	json_rec(out, tr, "context", REC_CONTEXT, run, t, 0);
	fputs(",\n     ", out);
	json_rec(out, tr, "concat", REC_CONCAT, run, t, 0);
	fputs(",\n     ", out);
	json_rec(out, tr, "attentional", REC_ATTENTIONAL, run, t, 0);
	fputs(",\n     \"output\": {\"token\": ", out);
	fmt_json_string(out, v->words[o->word]);
	fputs(", \"logits\": ", out);
	fmt_json_vec(out, o->ops[0].v, o->ops[0].len);
	fputs(", \"probs\": ", out);
	fmt_json_vec(out, o->result, o->len);
	fputs("}}", out);
}

static void json_run(FILE *out, const struct trace *tr, int run)
{
	const struct trace_run *ru = &tr->runs[run];
	fputs("\n  {\"scorer\": ", out);
	fmt_json_string(out, trace_scorer_name(ru->scorer));
	fputs(", \"output\": ", out);
	json_words(out, &tr->m->tgt, ru->pred, ru->nsteps);
	if (!tr->ntgt)
		fprintf(out, ", \"stopped\": %s", ru->stopped ? "true" : "false");
	fputs(",\n   \"steps\": [", out);
	for (int t = 1; t <= ru->nsteps; t++) {
		fputs(t > 1 ? ",\n    " : "\n    ", out);
		json_step(out, tr, run, t);
	}
	fputs("]}", out);
}

int fmt_json_trace(FILE *out, const struct trace *tr)
{
	const struct model *m = tr->m;
	fprintf(out, "{\"format\": \"%s\",\n \"model\": ", FMT_JSON_VERSION);
	fmt_json_string(out, m->name);
	fprintf(out, ",\n \"embedding_dim\": %d, \"hidden_dim\": %d, "
		"\"attention_dim\": %d,\n \"source\": ", m->E, m->H, m->A);
	json_words(out, &m->src, tr->src, tr->n);
	if (tr->ntgt) {
		fputs(",\n \"target\": ", out);
		json_words(out, &m->tgt, tr->tgt, tr->ntgt);
		fputs(",\n \"decoding\": \"teacher-forced\"", out);
	} else {
		fprintf(out, ",\n \"decoding\": \"greedy\", \"max_steps\": %d",
			tr->max_steps);
	}
	fputs(",\n \"vocab\": ", out);
	fputs("[", out);
	for (int k = 0; k < m->tgt.n; k++) {
		fputs(k ? ", " : "", out);
		fmt_json_string(out, m->tgt.words[k]);
	}
	fputs("],\n ", out);
	json_encoder(out, tr);
	fputs(",\n \"runs\": [", out);
	for (int k = 0; k < tr->nruns; k++) {
		fputs(k ? "," : "", out);
		json_run(out, tr, k);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
