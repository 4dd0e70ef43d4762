/* fmt_csv.c: a recorded trace as CSV in long form, one number a row. */
#include "config.h"

#include <string.h>

#include "fmt.h"
#include "num.h"

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', out);
		putc(*s, out);
	}
	putc('"', out);
}

/* The rows of one vector: a row a component. */
static void csv_vec(FILE *out, const struct trace *tr,
		    const struct trace_rec *r, const struct fmt_opts *o,
		    const char *symbol, const double *v, int len)
{
	char buf[NUM_BUFSZ];
	const char *scorer = r->run < 0 ? ""
			   : trace_scorer_name(tr->runs[r->run].scorer);
	for (int k = 0; k < len; k++) {
		if (o->pair)
			fprintf(out, "%d,", o->pair);
		fprintf(out, "%s,%d,%s,", scorer, r->t, trace_stage_name(r->stage));
		csv_field(out, symbol);
		fprintf(out, ",%d,%s\n", k + 1, num_shortest(buf, v[k]));
	}
}

int fmt_csv_trace(FILE *out, const struct trace *tr, const struct fmt_opts *o,
		  int header)
{
	if (header)
		fprintf(out, "%sscorer,t,stage,symbol,index,value\n",
			o->pair ? "pair," : "");
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		if (!(o->stages & (1u << r->stage)) || r->kind == REC_SCORES)
			continue;
		/* the intermediates a record computed, then its result */
		for (int j = 0; j < r->nops; j++)
			if (!r->ops[j].input)
				csv_vec(out, tr, r, o, r->ops[j].label, r->ops[j].v,
					r->ops[j].len);
		csv_vec(out, tr, r, o, r->symbol, r->result, r->len);
	}
	return ferror(out) ? -1 : 0;
}
