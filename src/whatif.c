/* whatif.c: --set NAME=VALUE on a model's parameter table. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "num.h"
#include "selection.h"
#include "suggest.h"
#include "trace.h"
#include "whatif.h"

const struct whatif_key whatif_keys[WHATIF_WHAT_COUNT - 1] = {
	{ WHATIF_STATE, "state", "s", WHATIF_PER_UNIT, 1 },
	{ WHATIF_SCORES, "scores", "e", WHATIF_PER_WORD, 1 },
	{ WHATIF_WEIGHTS, "weights", "alpha", WHATIF_PER_WORD, 1 },
	{ WHATIF_CONTEXT, "context", "c", WHATIF_PER_UNIT, 1 },
	{ WHATIF_ATTENTIONAL, "attentional", "htilde", WHATIF_PER_UNIT, 0 },
	{ WHATIF_OUTPUT, "output", "yhat", WHATIF_PER_TARGET, 0 },
};
#define WHATIF_NKEYS ((int)(sizeof whatif_keys / sizeof whatif_keys[0]))

/* The entry of tab[0..n) whose section is the n-byte name, or NULL after
 * err names it (and the closest section) at column 1. */
static const struct model_param *whatif_find(const struct model_param *tab,
					     int n, const char *name,
					     int argno, struct errbuf *err)
{
	const char *names[MODEL_MAX_PARAMS + 1];
	for (int k = 0; k < n; k++) {
		if (strcmp(tab[k].section, name) == 0)
			return &tab[k];
		names[k] = tab[k].section;
	}
	names[n] = "step"; /* step[T].KEY[K]: whatif_step */
	const char *near = suggest_closest(name, names, n + 1);
	if (near)
		err_set(err, _("--set:%d:1: unknown name '%s'; did you mean %s?"),
			argno, name, near);
	else
		err_set(err, _("--set:%d:1: unknown name '%s'; expected one of the "
			"model's sections, such as %s"), argno, name,
			n ? names[n - 1] : "W");
	return NULL;
}

/* The vocabulary whose rows name the entry e's first index, or NULL. */
static const struct vocab *whatif_words(const struct model *m,
					const struct model_param *e)
{
	switch (e->kind) {
	case PARAM_SRC_VOCAB: return &m->src;
	case PARAM_TGT_VOCAB: case PARAM_WORD_ROWS: return &m->tgt;
	case PARAM_MATRIX: return NULL;
	}
	return NULL;
}

/* One "[index]" at *p (column col), from 1 to max, or a word of v: its
 * 0-based value, *p moved past it; -1 after err (a word not in v with
 * the closest one).  step: it is step[T]'s, whose range only the trace
 * knows (whatif_check_trace), so max is not named. */
static int whatif_index(const char **p, int max, const struct vocab *v,
			int argno, int col, int step, struct errbuf *err)
{
	const char *s = *p + 1, *close = strchr(s, ']');
	if (**p != '[' || !close) {
		err_set(err, _("--set:%d:%d: expected [INDEX], found '%s'"), argno,
			col, *p);
		return -1;
	}
	char buf[64];
	size_t len = (size_t)(close - s);
	snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), s);
	*p = close + 1;
	char *end;
	long k = strtol(buf, &end, 10);
	if (*buf && !*end && k >= 1 && k <= max)
		return (int)k - 1;
	for (int w = 0; v && w < v->n; w++)
		if (strcmp(v->words[w], buf) == 0)
			return w;
	const char *near = NULL;
	if (v && *buf && (*end || end == buf)) /* a word, not a number */
		near = suggest_closest(buf, (const char *const *)v->words,
				       v->n);
	if (step)
		err_set(err, _("--set:%d:%d: expected a decoder step, a whole "
			"number from 1, found '%s'"), argno, col + 1, buf);
	else if (near)
		err_set(err, _("--set:%d:%d: unknown word '%s'; did you mean "
			"%s? (or a number from 1 to %d)"), argno, col + 1, buf,
			near, max);
	else
		err_set(err, _("--set:%d:%d: index '%s' out of range: expected "
			"%s1 to %d"), argno, col + 1, buf,
			v ? _("a word or ") : "", max);
	return -1;
}

/* "=VALUE" at p (column p - arg + 1): the finite number into *v; -1
 * after err. */
static int whatif_value(const char *p, const char *arg, int argno, double *v,
			struct errbuf *err)
{
	if (*p != '=') {
		err_set(err, _("--set:%d:%d: expected '=VALUE', found '%s'"), argno,
			(int)(p - arg) + 1, p);
		return -1;
	}
	/* the number grammar of calc and the model files (num_parse): no
	 * hex, nan or inf; and their bound, so that no exp() overflows */
	const char *end;
	enum num_status st = num_parse(p + 1, v, &end);
	if (st != NUM_OK || *end || !isfinite(*v)) {
		err_set(err, _("--set:%d:%d: expected a finite number, found '%s'"),
			argno, (int)(p - arg) + 2, p + 1);
		return -1;
	}
	if (fabs(*v) > MODEL_MAX_WEIGHT) {
		err_set(err, _("--set:%d:%d: expected a number from -%s to %s, "
			"found '%s'"), argno, (int)(p - arg) + 2,
			MODEL_MAX_WEIGHT_TEXT, MODEL_MAX_WEIGHT_TEXT, p + 1);
		return -1;
	}
	return 0;
}

/* The key of step[T].KEY at *p (column col), *p moved past it, or NULL
 * after err names the closest. */
static const struct whatif_key *whatif_key(const char **p, int argno,
					   int col, int set,
					   struct errbuf *err)
{
	size_t len = strcspn(*p, "[=");
	const char *names[2 * WHATIF_NKEYS];
	int nnames = 0;
	char key[64];
	snprintf(key, sizeof key, "%.*s", (int)(len < 63 ? len : 63), *p);
	for (int k = 0; k < WHATIF_NKEYS; k++) {
		if (strcmp(key, whatif_keys[k].key) == 0 ||
		    strcmp(key, whatif_keys[k].alias) == 0) {
			if (set && !whatif_keys[k].settable) {
				err_set(err, _("--set:%d:%d: --explain can "
					"name %s but --set cannot set it; "
					"expected state, scores, weights or "
					"context"), argno, col, key);
				return NULL;
			}
			*p += len;
			return &whatif_keys[k];
		}
		if (set && !whatif_keys[k].settable)
			continue;
		names[nnames++] = whatif_keys[k].key;
		names[nnames++] = whatif_keys[k].alias;
	}
	const char *near = suggest_closest(key, names, nnames);
	if (near)
		err_set(err, _("--set:%d:%d: unknown value '%s' of a step; did "
			"you mean %s?"), argno, col, key, near);
	else if (set)
		err_set(err, _("--set:%d:%d: unknown value '%s' of a step; "
			"expected state, scores, weights or context"), argno,
			col, key);
	else
		err_set(err, _("--set:%d:%d: unknown value '%s' of a step; "
			"expected state, scores, weights, context, "
			"attentional or output"), argno, col, key);
	return NULL;
}

/* An intermediate, arg = "step[T].KEY[K]=VALUE" (with value 0, the
 * name alone, "step[T].KEY[K]"), into *out; m is read only (its H).
 * Returns 0, or -1 after err. */
static int whatif_step(const struct model *m, const char *arg, int argno,
		       int value, struct whatif_edit *out, struct errbuf *err)
{
	const char *p = arg + 4; /* past "step" */
	out->tcol = 6;
	int t = whatif_index(&p, TRACE_MAX_STEPS, NULL, argno, 5, 1, err);
	if (t < 0)
		return -1;
	if (*p != '.') {
		err_set(err, _("--set:%d:%d: expected '.' and state, scores, "
			"weights or context, found '%s'"), argno,
			(int)(p - arg) + 1, p);
		return -1;
	}
	p++;
	out->wcol = (int)(p - arg) + 1;
	const struct whatif_key *key = whatif_key(&p, argno,
						  (int)(p - arg) + 1, value,
						  err);
	if (!key)
		return -1;
	out->kcol = (int)(p - arg) + 2;
	int k = -1; /* step[T].output alone: the word each run chose */
	int indexed = key->per_word != WHATIF_PER_TARGET || value || *p;
	if (indexed)
		k = whatif_index(&p, key->per_word == WHATIF_PER_WORD
				 ? TRACE_MAX_TOKENS
				 : key->per_word == WHATIF_PER_TARGET
				 ? m->tgt.n : m->H,
			     key->per_word == WHATIF_PER_TARGET ? &m->tgt
								 : NULL,
			     argno, (int)(p - arg) + 1, 0, err);
	if ((indexed && k < 0) || (value && whatif_value(p, arg, argno, &out->value,
					    err) != 0))
		return -1;
	if (!value && *p) {
		err_set(err, _("--set:%d:%d: expected the end of the name, found "
			"'%s'"), argno, (int)(p - arg) + 1, p);
		return -1;
	}
	if (key->per_word == WHATIF_PER_TARGET && k >= 0)
		snprintf(out->name, sizeof out->name, "step[%d].%s[%s]",
			 t + 1, key->key, m->tgt.words[k]);
	else if (k >= 0)
		snprintf(out->name, sizeof out->name, "step[%d].%s[%d]",
			 t + 1, key->key, k + 1);
	else
		snprintf(out->name, sizeof out->name, "step[%d].%s", t + 1,
			 key->key);
	out->what = key->what;
	out->step = t + 1;
	out->index = k;
	out->old = NAN;
	return 0;
}

int whatif_apply(struct model *m, const char *arg, int argno,
		 struct whatif_edit *out, struct errbuf *err)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int n = model_param_table(m, model_scorers(m), tab);
	size_t nl = strcspn(arg, "[=");
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)(nl < 63 ? nl : 63), arg);
	out->argno = argno;
	out->step = out->index = out->tcol = out->kcol = out->wcol = 0;
	out->what = WHATIF_MODEL;
	if (strcmp(name, "step") == 0 && arg[nl] == '[')
		return whatif_step(m, arg, argno, 1, out, err);
	if (strcmp(name, "step") == 0) {
		err_set(err, _("--set:%d:5: expected [T], a decoder step, as in "
			"step[1].scores[2]=3, found '%s'"), argno, arg + nl);
		return -1;
	}
	const struct model_param *e = whatif_find(tab, n, name, argno, err);
	if (!e)
		return -1;
	const char *p = arg + nl;
	int row = 0, col = 0;
	int rows = e->kind == PARAM_MATRIX ? e->rows : whatif_words(m, e)->n;
	if (!e->vector && rows > 0) {
		row = whatif_index(&p, rows, whatif_words(m, e), argno,
				   (int)(p - arg) + 1, 0, err);
		if (row < 0)
			return -1;
	}
	col = whatif_index(&p, e->cols, NULL, argno, (int)(p - arg) + 1, 0,
			   err);
	double v;
	if (col < 0 || whatif_value(p, arg, argno, &v, err) != 0)
		return -1;
	double *cell = &(*e->slot)[(size_t)row * (size_t)e->cols + (size_t)col];
	snprintf(out->name, sizeof out->name, "%.*s", (int)(p - arg), arg);
	out->old = *cell;
	out->value = v;
	*cell = v;
	return 0;
}

int whatif_name(const struct model *m, const char *name,
		struct whatif_edit *out, struct errbuf *err)
{
	memset(out, 0, sizeof *out);
	out->argno = 1;
	if (strncmp(name, "step[", 5) != 0) {
		err_set(err, _("--explain:1:1: expected step[T].state[K], "
			"step[T].scores[I], step[T].weights[I], "
			"step[T].context[K], step[T].attentional[K] or "
			"step[T].output[WORD], found '%s'"), name);
		return -1;
	}
	if (whatif_step(m, name, 1, 0, out, err) == 0)
		return 0;
	whatif_as_explain(err);
	return -1;
}

void whatif_as_explain(struct errbuf *err)
{
	char msg[sizeof err->msg];
	if (strncmp(err->msg, "--set:", 6) != 0)
		return;
	snprintf(msg, sizeof msg, "--explain:%s", err->msg + 6);
	snprintf(err->msg, sizeof err->msg, "%s", msg);
}

int whatif_has(const struct whatif_edit *set, int n, int model)
{
	for (int k = 0; k < n; k++)
		if ((set[k].what == WHATIF_MODEL) == (model != 0))
			return 1;
	return 0;
}

int whatif_check_cfg(const struct whatif_edit *set, int n,
		     const struct trace_cfg *cfg, struct errbuf *err)
{
	for (int k = 0; k < n; k++) {
		if (set[k].what == WHATIF_MODEL)
			continue;
		const char *why = cfg->selection != SELECTION_DEFAULT
				  ? selection_get(cfg->selection)->option
				  : cfg->grad_paths ? "gradient-paths" : NULL;
		if (why) {
			err_set(err, _("--set:%d:1: %s is set while the trace "
				"runs, which --%s does not follow; expected "
				"no --%s with it"), set[k].argno, set[k].name,
				why, why);
			return -1;
		}
	}
	return 0;
}

/* The most steps a run of tr made. */
static int whatif_steps(const struct trace *tr)
{
	int most = 0;
	for (int r = 0; r < tr->nruns; r++)
		if (tr->runs[r].nsteps > most)
			most = tr->runs[r].nsteps;
	return most;
}

int whatif_check_trace(const struct whatif_edit *set, int n,
		       const struct trace *tr, struct errbuf *err)
{
	for (int k = 0; k < n; k++) {
		const struct whatif_edit *e = &set[k];
		if (e->what == WHATIF_MODEL)
			continue;
		int per = whatif_keys[e->what - 1].per_word;
		int len = per == WHATIF_PER_WORD ? tr->n
			  : per == WHATIF_PER_TARGET ? tr->m->tgt.n : tr->m->H;
		if (e->index >= len) {
			err_set(err, _("--set:%d:%d: index '%d' out of range: "
				"expected 1 to %d"), e->argno, e->kcol,
				e->index + 1, len);
			return -1;
		}
		int has = e->what != WHATIF_ATTENTIONAL;
		for (int r = 0; r < tr->nruns && !has; r++)
			has = trace_find(tr, REC_ATTENTIONAL, r, 1, 0) != NULL;
		if (!has) {
			err_set(err, _("--set:%d:%d: this architecture has no "
				"attentional state h̃_t: its output reads "
				"[s_t; c_t; y_{t-1}]; expected state, scores, "
				"weights, context or output"), e->argno,
				e->wcol);
			return -1;
		}
		if (e->step > whatif_steps(tr)) {
			err_set(err, _("--set:%d:%d: step '%d' out of range: "
				"expected 1 to %d, the steps of the trace"),
				e->argno, e->tcol, e->step, whatif_steps(tr));
			return -1;
		}
	}
	return 0;
}

int whatif_goal(const struct trace *tr, const char *arg, int *t, int *i,
		struct errbuf *err)
{
	const char *p = arg;
	char *end;
	if (strncmp(p, "step[", 5) != 0) {
		err_set(err, _("--goal:1:1: expected step[T].weights=WORD, as in "
			"step[1].weights=étudiant, found '%s'"), arg);
		return -1;
	}
	p += 5;
	long step = strtol(p, &end, 10);
	int steps = tr->nruns ? tr->runs[0].nsteps : 0;
	if (end == p || *end != ']' || step < 1 || step > steps) {
		err_set(err, _("--goal:1:6: expected a step of the trace, 1 to "
			"%d, found '%.*s'"), steps, (int)strcspn(p, "]"), p);
		return -1;
	}
	p = end + 1;
	size_t kl = strcspn(p, "=");
	if (!((kl == 8 && strncmp(p, ".weights", 8) == 0) ||
	      (kl == 6 && strncmp(p, ".alpha", 6) == 0)) || p[kl] != '=') {
		err_set(err, _("--goal:1:%d: expected '.weights=WORD' (the "
			"weights of the step), found '%s'"),
			(int)(p - arg) + 1, p);
		return -1;
	}
	p += kl + 1;
	int col = (int)(p - arg) + 1;
	for (int k = 0; k < tr->n; k++)
		if (strcmp(tr->m->src.words[tr->src[k]], p) == 0) {
			*t = (int)step;
			*i = k + 1;
			return 0;
		}
	long k = strtol(p, &end, 10);
	if (*p && !*end && k >= 1 && k <= tr->n) {
		*t = (int)step;
		*i = (int)k;
		return 0;
	}
	const char *words[TRACE_MAX_TOKENS];
	for (int j = 0; j < tr->n && j < TRACE_MAX_TOKENS; j++)
		words[j] = tr->m->src.words[tr->src[j]];
	const char *near = suggest_closest(p, words, tr->n);
	if (near) /* "etudiant": a learner's keyboard without its accent */
		err_set(err, _("--goal:1:%d: expected a word of the sentence, "
			"found '%s'; did you mean %s?"), col, p, near);
	else
		err_set(err, _("--goal:1:%d: expected a word of the sentence or "
			"its position, 1 to %d, found '%s'"), col, tr->n, p);
	return -1;
}
