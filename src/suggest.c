/* suggest.c: edit distances, and "did you mean". */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "utf8.h"
#include "util.h"

size_t suggest_code_points(const char *s, unsigned long **out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k = 0, len, j;
	unsigned long *cp = xreallocarray(NULL, n + 1, sizeof *cp);

	while (i < n) {
		len = utf8_valid_prefix(s + i, n - i < 4 ? n - i : 4) ? 0 : 1;
		if (len == 1)
			cp[k] = 0x110000ul + u[i];
		else if (u[i] < 0x80)
			len = 1, cp[k] = u[i];
		else if (u[i] < 0xE0)
			len = 2, cp[k] = u[i] & 0x1Fu;
		else if (u[i] < 0xF0)
			len = 3, cp[k] = u[i] & 0x0Fu;
		else
			len = 4, cp[k] = u[i] & 0x07u;
		for (j = 1; j < len; j++)
			cp[k] = (cp[k] << 6) | (u[i + j] & 0x3Fu);
		i += len;
		k++;
	}
	*out = cp;
	return k;
}

size_t suggest_edit_distance(const unsigned long *a, size_t na,
			     const unsigned long *b, size_t nb, size_t *row)
{
	/* three rows of the table: i - 2, i - 1 and i, turned round */
	size_t *r2 = row, *r1 = row + nb + 1, *r = row + 2 * (nb + 1), *t;
	size_t i, j, best;

	for (j = 0; j <= nb; j++)
		r[j] = j;
	for (i = 1; i <= na; i++) {
		t = r2, r2 = r1, r1 = r, r = t;
		r[0] = i;
		for (j = 1; j <= nb; j++) {
			best = r1[j - 1] + (a[i - 1] != b[j - 1]);
			if (r1[j] + 1 < best)
				best = r1[j] + 1;
			if (r[j - 1] + 1 < best)
				best = r[j - 1] + 1;
			/* two neighbours swapped: one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && r2[j - 2] + 1 < best)
				best = r2[j - 2] + 1;
			r[j] = best;
		}
	}
	return r[nb];
}

size_t suggest_distance(const char *a, const char *b)
{
	char *fa = utf8_fold(a, strlen(a)), *fb = utf8_fold(b, strlen(b));
	unsigned long *ca, *cb;
	size_t na = suggest_code_points(fa, &ca);
	size_t nb = suggest_code_points(fb, &cb);
	size_t *row = xreallocarray(NULL, 3 * (nb + 1), sizeof *row);
	size_t d = suggest_edit_distance(ca, na, cb, nb, row);
	free(row);
	free(ca);
	free(cb);
	free(fa);
	free(fb);
	return d;
}

/* 1 if the case-folded word starts the case-folded name. */
static int suggest_starts(const char *word, const char *name)
{
	char *fw = utf8_fold(word, strlen(word));
	char *fn = utf8_fold(name, strlen(name));
	int yes = strncmp(fw, fn, strlen(fw)) == 0;
	free(fw);
	free(fn);
	return yes;
}

const char *suggest_closest(const char *word, const char *const *names,
			    int n)
{
	size_t len = utf8_len(word);
	size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3, best = (size_t)-1;
	const char *pick = NULL, *prefix = NULL;
	int nprefix = 0;

	for (int k = 0; k < n; k++) {
		if (!names[k])
			continue;
		size_t d = suggest_distance(word, names[k]);
		if (d < best) {
			best = d;
			pick = names[k];
		}
		if (len >= 2 && suggest_starts(word, names[k])) {
			nprefix += !prefix || strcmp(prefix, names[k]) != 0;
			prefix = names[k];
		}
	}
	/* "local" starts local-m and local-p: not "global", though nearer */
	if (nprefix > 1 && pick && !suggest_starts(word, pick))
		return NULL;
	if (pick && best <= limit && best < utf8_len(pick))
		return pick;
	return nprefix == 1 ? prefix : NULL;
}
