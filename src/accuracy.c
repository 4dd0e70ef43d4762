/* accuracy.c: accuracy by source length (accuracy.h): greedy decoding of
 * every pair of a pairs file, counted against its target words.  Computes
 * and never prints. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "accuracy.h"
#include "scorer.h"
#include "window.h"

int accuracy_words_right(const int *out, int nout, const int *ref, int nref)
{
	int right = 0;
	for (int j = 0; j < nref && j < nout; j++)
		right += out[j] == ref[j];
	return right;
}

double accuracy_share(int right, int total)
{
	return total > 0 ? (double)right / total : 0.0;
}

static void accuracy_add(struct accuracy_count *c, int exact, int words,
			 int right)
{
	c->pairs++;
	c->exact += exact;
	c->words += words;
	c->words_right += right;
}

/* Decodes pair p greedily and adds it to line's counts.  Returns 0, or -1
 * with err (without the file and line) if it cannot be traced. */
static int accuracy_pair(struct accuracy_line *line, const struct model *m,
			 const struct train_pair *p, int sc,
			 const struct trace_cfg *cfg, struct errbuf *err)
{
	struct trace tr;
	if (trace_build(&tr, m, p->src, p->nsrc, NULL, 0, 1u << sc, cfg,
			err) != 0)
		return -1;
	const struct trace_run *run = &tr.runs[0];
	int nout = run->nsteps;
	/* the output words, without the </s> that stopped the decoding */
	if (run->stopped && nout > 0 && run->pred[nout - 1] == m->eos)
		nout--;
	int right = accuracy_words_right(run->pred, nout, p->tgt, p->ntgt);
	int exact = nout == p->ntgt && right == p->ntgt;
	accuracy_add(&line->by_len[p->nsrc], exact, p->ntgt, right);
	accuracy_add(&line->all, exact, p->ntgt, right);
	trace_free(&tr);
	return 0;
}

int accuracy_measure(struct accuracy_line *line, const struct model *m,
		     const struct train_data *d, const char *name, int sc,
		     const struct trace_cfg *cfg, struct errbuf *err)
{
	for (int k = 0; k < d->n; k++) {
		const struct train_pair *p = &d->pairs[k];
		struct errbuf why;
		if (accuracy_pair(line, m, p, sc, cfg, &why) != 0) {
			err_set(err, "%s:%d:1: %s", name, p->line, why.msg);
			return -1;
		}
	}
	return 0;
}

/* The last part of a path, after its last '/': what the chart names a
 * file by, so that a long directory does not run off the slide. */
const char *accuracy_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

void accuracy_label(char *buf, size_t size, const struct accuracy_line *l,
		    int base)
{
	int n = snprintf(buf, size, "%s %s",
			 base ? accuracy_base(l->model) : l->model,
			 scorer_get(l->scorer)->name);
	if (l->cfg.window != 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, " %s",
			      window_get(l->cfg.window)->name);
	if (l->cfg.window != 0 && l->cfg.window_size != 1 && n >= 0 &&
	    (size_t)n < size)
		snprintf(buf + n, size - n, " D=%d", l->cfg.window_size);
}
