/* whatif.c: --set NAME=VALUE on a model's parameter table. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "suggest.h"
#include "whatif.h"

/* The entry of tab[0..n) whose section is the n-byte name, or NULL after
 * err names it (and the closest section) at column 1. */
static const struct model_param *whatif_find(const struct model_param *tab,
					     int n, const char *name,
					     int argno, struct errbuf *err)
{
	const char *names[MODEL_MAX_PARAMS];
	for (int k = 0; k < n; k++) {
		if (strcmp(tab[k].section, name) == 0)
			return &tab[k];
		names[k] = tab[k].section;
	}
	const char *near = suggest_closest(name, names, n);
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
 * 0-based value, *p moved past it; -1 after err. */
static int whatif_index(const char **p, int max, const struct vocab *v,
			int argno, int col, struct errbuf *err)
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
	err_set(err, _("--set:%d:%d: index '%s' out of range: expected %s1 to %d"),
		argno, col + 1, buf, v ? _("a word or ") : "", max);
	return -1;
}

int whatif_apply(struct model *m, const char *arg, int argno,
		 struct whatif_edit *out, struct errbuf *err)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int n = model_param_table(m, model_scorers(m), tab);
	size_t nl = strcspn(arg, "[=");
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)(nl < 63 ? nl : 63), arg);
	const struct model_param *e = whatif_find(tab, n, name, argno, err);
	if (!e)
		return -1;
	const char *p = arg + nl;
	int row = 0, col = 0;
	int rows = e->kind == PARAM_MATRIX ? e->rows : whatif_words(m, e)->n;
	if (!e->vector && rows > 0) {
		row = whatif_index(&p, rows, whatif_words(m, e), argno,
				   (int)(p - arg) + 1, err);
		if (row < 0)
			return -1;
	}
	col = whatif_index(&p, e->cols, NULL, argno, (int)(p - arg) + 1, err);
	if (col < 0)
		return -1;
	if (*p != '=') {
		err_set(err, _("--set:%d:%d: expected '=VALUE', found '%s'"), argno,
			(int)(p - arg) + 1, p);
		return -1;
	}
	char *end;
	double v = strtod(p + 1, &end);
	if (!p[1] || *end || !isfinite(v)) {
		err_set(err, _("--set:%d:%d: expected a finite number, found '%s'"),
			argno, (int)(p - arg) + 2, p + 1);
		return -1;
	}
	double *cell = &(*e->slot)[(size_t)row * (size_t)e->cols + (size_t)col];
	snprintf(out->name, sizeof out->name, "%.*s", (int)(p - arg), arg);
	out->old = *cell;
	out->value = v;
	*cell = v;
	return 0;
}
