/* calc_parse.c: calc's vectors from the command line or a file (calc.h,
 * doc/trace-format.md "calc"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"
#include "i18n.h"
#include "num.h"
#include "scorer.h"

/* Where a row of numbers was read: "--keys" or a file's path, its line,
 * and the column (from 1) of its first byte. */
struct calc_at {
	const char *where;
	int line, col;
};

static int calc_sep(char ch)
{
	return ch == ',' || ch == ' ' || ch == '\t' || ch == '\r';
}

/* The error at byte p of a row starting at s. */
static int calc_err(struct errbuf *err, const struct calc_at *at,
		    const char *s, const char *p, const char *msg)
{
	size_t len = 0;
	while (p[len] && p[len] != ';' && p[len] != '\n' && !calc_sep(p[len]))
		len++;
	if (len == 0)
		err_set(err, _("%s:%d:%d: %s, found %s"), at->where, at->line,
			at->col + (int)(p - s), msg,
			*p == ';' || *p == '\n' || !*p ? _("the end of the row")
						       : _("a separator"));
	else
		err_set(err, _("%s:%d:%d: %s, found '%.*s'"), at->where,
			at->line, at->col + (int)(p - s), msg,
			len > 24 ? 24 : (int)len, p);
	return -1;
}

/* Parses the numbers of row s (up to ';', a newline or the end) into out
 * (max); *count gets how many, *end the byte after the row.  Returns 0,
 * or -1 with err filled: not a number, more than max, or none. */
static int calc_row(const char *s, const struct calc_at *at, double *out,
		    int max, int *count, const char **end,
		    struct errbuf *err)
{
	const char *p = s;
	*count = 0;
	for (;;) {
		double x;
		const char *e;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*count > 0 && *p == ',') /* one comma between numbers */
			for (p++; *p == ' ' || *p == '\t'; p++)
				;
		else if (!*p || *p == ';' || *p == '\n')
			break;
		if (*count == max) {
			char msg[96];
			snprintf(msg, sizeof msg, ngettext("expected at most "
				 "%d number", "expected at most %d numbers",
				 max), max);
			return calc_err(err, at, s, p, msg);
		}
		enum num_status st = num_parse(p, &x, &e);
		if (st == NUM_SYNTAX || (*e && *e != ';' && *e != '\n' &&
					 !calc_sep(*e)))
			return calc_err(err, at, s, p, _("expected a number"));
		if (st == NUM_RANGE || fabs(x) > MODEL_MAX_WEIGHT) {
			char msg[96];
			snprintf(msg, sizeof msg, _("expected a number from "
				 "-%s to %s"), MODEL_MAX_WEIGHT_TEXT,
				 MODEL_MAX_WEIGHT_TEXT);
			return calc_err(err, at, s, p, msg);
		}
		out[(*count)++] = x;
		p = e;
	}
	if (*count == 0)
		return calc_err(err, at, s, p, _("expected a number"));
	*end = p;
	return 0;
}

/* The error for key or value (value non-zero) CALC_MAX_KEYS + 1, whose
 * row starts at column col: it names the one found, as "key 65". */
static int calc_too_many(struct errbuf *err, const struct calc_at *at,
			 int col, int value)
{
	err_set(err, value ? _("%s:%d:%d: expected at most %d values, found "
			       "value %d")
			   : _("%s:%d:%d: expected at most %d keys, found key "
			       "%d"), at->where, at->line, col, CALC_MAX_KEYS,
		CALC_MAX_KEYS + 1);
	return -1;
}

/* A key (K) or value (V, value non-zero) row at s into row *n of M,
 * checked against want numbers (0: the first row sets it into *want). */
static int calc_key(double (*M)[CALC_MAX_DIM], int *n, int *want,
		    int value, const char *s,
		    const struct calc_at *at,
		    const char **end, struct errbuf *err)
{
	int cnt;
	if (*n == CALC_MAX_KEYS)
		return calc_too_many(err, at, at->col, value);
	if (calc_row(s, at, M[*n], CALC_MAX_DIM, &cnt, end, err) != 0)
		return -1;
	if (*want && cnt != *want) {
		err_set(err, value ? ngettext("%s:%d:%d: expected %d number "
			"in value %d, as the first value has, found %d",
			"%s:%d:%d: expected %d numbers in value %d, as the "
			"first value has, found %d", *want)
			: ngettext("%s:%d:%d: expected %d number in key %d, as "
			"the query has, found %d", "%s:%d:%d: expected %d "
			"numbers in key %d, as the query has, found %d", *want),
			at->where, at->line, at->col, *want, *n + 1, cnt);
		return -1;
	}
	*want = cnt;
	(*n)++;
	return 0;
}

int calc_parse_arg(struct calc_in *in, const char *name, const char *arg,
		   struct errbuf *err)
{
	char where[16];
	struct calc_at at = { where, 1, 1 };
	const char *p = arg, *end;
	int cnt, nv = 0;
	snprintf(where, sizeof where, "--%s", name);
	if (strcmp(name, "query") == 0) {
		if (calc_row(arg, &at, in->q, CALC_MAX_DIM, &cnt, &end,
			     err) != 0)
			return -1;
		if (*end)
			return calc_err(err, &at, arg, end, _("expected the "
					"end of the query"));
		in->d = cnt;
		return 0;
	}
	int values = strcmp(name, "values") == 0;
	for (;;) {
		at.col = 1 + (int)(p - arg);
		if (values ? calc_key(in->V, &nv, &in->dv, 1, p, &at,
				      &end, err)
			   : calc_key(in->K, &in->n, &in->d, 0, p, &at,
				      &end, err))
			return -1;
		if (!*end)
			break;
		p = end + 1;
	}
	if (values && nv != in->n) {
		err_set(err, ngettext("--values:1:%d: expected %d value, one "
			"a key, found %d", "--values:1:%d: expected %d values, "
			"one a key, found %d", in->n), 1 + (int)(end - arg),
			in->n, nv);
		return -1;
	}
	return 0;
}

/* A weight row of the file: the section name at s (len bytes) and its
 * numbers at p, added to in->w[k] if it is a weight of in->scorer.
 * rows[k] counts the rows.  Returns 0, 1 for a name that is no weight
 * of any scorer, or -1 with err filled. */
static int calc_weight_row(struct calc_in *in, const char *s, size_t len,
			   const char *p, const struct calc_at *at,
			   int *rows, struct errbuf *err)
{
	char name[48];
	int r, c, cnt, found = 0;
	const char *end;
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		for (int k = 0; k < calc_weight_shape(sc, k, 1, 1, name, &r,
						       &c); k++)
			if (strlen(name) == len && !memcmp(name, s, len))
				found = sc == in->scorer ? k + 1 : -1;
	if (found == 0)
		return 1;
	if (found < 0)
		return 0; /* another scorer's */
	int k = found - 1;
	if (in->d == 0)
		return calc_err(err, at, s, s, _("expected the query "
				"before the weights"));
	calc_weight_shape(in->scorer, k, in->d, CALC_MAX_ROWS, name, &r, &c);
	double row[CALC_MAX_DIM * 2];
	if (calc_row(p, &(struct calc_at){ at->where, at->line,
					   at->col + (int)(p - s) },
		     row, c, &cnt, &end, err) != 0)
		return -1;
	if (cnt != c) {
		err_set(err, _("%s:%d:%d: expected %d numbers in a row of %s, "
			"found %d"), at->where, at->line, at->col + (int)(p - s),
			c, name, cnt);
		return -1;
	}
	if (rows[k] == CALC_MAX_ROWS)
		return calc_err(err, at, s, s, _("expected fewer rows"));
	in->w[k] = xreallocarray(in->w[k], (size_t)(rows[k] + 1) * c,
				 sizeof(double));
	memcpy(in->w[k] + (size_t)rows[k] * c, row, sizeof(double) * c);
	rows[k]++;
	return 0;
}

/* One line of a file (NUL-terminated, its newline cut). */
static int calc_line(struct calc_in *in, char *s, const struct calc_at *at0,
		     int *rows, int *nv, struct errbuf *err)
{
	struct calc_at at = *at0;
	const char *p = s, *end;
	int cnt;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#' || *p == '\r')
		return 0;
	size_t len = strcspn(p, " \t,\r");
	const char *nums = p + len;
	at.col = 1 + (int)(p - s);
	if (len == 5 && !memcmp(p, "query", 5)) {
		if (in->d)
			return calc_err(err, &at, p, p, _("expected one query"));
		struct calc_at an = { at.where, at.line, at.col + 5 };
		if (calc_row(nums, &an, in->q, CALC_MAX_DIM, &cnt, &end,
			     err) != 0)
			return -1;
		in->d = cnt;
		return 0;
	}
	int key = len == 3 && !memcmp(p, "key", 3);
	if (key || (len == 5 && !memcmp(p, "value", 5))) {
		if (!in->d)
			return calc_err(err, &at, p, p, _("expected the "
					"query before the keys and values"));
		/* one too many: at the word "key" or "value" */
		if ((key ? in->n : *nv) == CALC_MAX_KEYS)
			return calc_too_many(err, &at, at.col, !key);
		at.col += (int)len;
		if (key)
			return calc_key(in->K, &in->n, &in->d, 0, nums,
					&at, &end, err);
		return calc_key(in->V, nv, &in->dv, 1, nums, &at, &end,
				err);
	}
	int rc = calc_weight_row(in, p, len, nums, &at, rows, err);
	if (rc > 0)
		return calc_err(err, &at, p, p, _("expected query, key, "
				"value or a scorer's weight (general.W)"));
	return rc;
}

/* After the file: every weight of the scorer given in full, or none. */
static int calc_weights_done(struct calc_in *in, const char *path,
			     int line, const int *rows, struct errbuf *err)
{
	char name[48];
	int r, c, given = 0, np;
	np = calc_weight_shape(in->scorer, 0, in->d, in->n, name, &r, &c);
	for (int k = 0; k < np; k++)
		given += rows[k] > 0;
	if (given == 0)
		return 0;
	for (int k = 0; k < np; k++) {
		calc_weight_shape(in->scorer, k, in->d, in->n, name, &r, &c);
		if (rows[k] != r) {
			err_set(err, ngettext("%s:%d:1: expected %d row of %s, "
				"found %d", "%s:%d:1: expected %d rows of %s, "
				"found %d", r), path, line, r, name, rows[k]);
			return -1;
		}
	}
	return 0;
}

int calc_parse_file(struct calc_in *in, const char *path, struct errbuf *err)
{
	size_t len;
	int rows[SCORER_MAX_PARAMS] = { 0 }, nv = 0, line = 1, rc = 0;
	char *text = util_read_file(path, 1u << 20, &len, err);
	const char *where = strcmp(path, "-") == 0 ? _("standard input") : path;
	if (!text)
		return -1;
	if (strlen(text) != len) {
		free(text);
		err_set(err, _("%s: expected text, found a NUL byte"), where);
		return -1;
	}
	for (char *s = text; rc == 0 && *s; line++) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		struct calc_at at = { where, line, 1 };
		rc = calc_line(in, s, &at, rows, &nv, err);
		s = nl ? nl + 1 : s + strlen(s);
	}
	free(text);
	if (rc != 0)
		return -1;
	if (nv && nv != in->n) {
		err_set(err, ngettext("%s:%d:1: expected %d value, one a key, "
			"found %d", "%s:%d:1: expected %d values, one a key, "
			"found %d", in->n), where, line, in->n, nv);
		return -1;
	}
	if (!in->d || !in->n) {
		err_set(err, _("%s:%d:1: expected a query line and key lines"),
			where, line);
		return -1;
	}
	return calc_weights_done(in, where, line, rows, err);
}

int calc_finish(struct calc_in *in, const char *where, struct errbuf *err)
{
	if (!in->d || !in->n) {
		err_set(err, _("%s: expected a query and at least one key"),
			where);
		return -1;
	}
	if (!in->dv) { /* no values: the keys are the values */
		in->dv = in->d;
		memcpy(in->V, in->K, sizeof in->V);
	}
	return 0;
}

void calc_in_free(struct calc_in *in)
{
	for (int k = 0; k < SCORER_MAX_PARAMS; k++) {
		free(in->w[k]);
		in->w[k] = NULL;
	}
}
