/* glimpse_batch.c: the image list of glimpse --batch (glimpse_batch.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glimpse_batch.h"
#include "i18n.h"
#include "utf8.h"

/* The place of a message: the list's name, the line and its first byte. */
struct gb_at {
	const char *name;
	const char *line;
	int lineno;
};

/* Fails at [p, p + n) with "expected what, found ..." (at most 20 bytes
 * of what is there, made safe, or "nothing"). */
static int gb_fail(struct errbuf *err, const struct gb_at *at, const char *p,
		   size_t n, const char *what)
{
	int col = (int)(p - at->line) + 1;
	if (n == 0) {
		err_set(err, _("%s:%d:%d: expected %s, found nothing"), at->name,
			at->lineno, col, _(what));
		return -1;
	}
	char *shown = xstrndup(p, n > 20 ? 20 : n);
	char *safe = utf8_safe(shown);
	err_set(err, _("%s:%d:%d: expected %s, found \"%s%s\""), at->name,
		at->lineno, col, _(what), safe, n > 20 ? "..." : "");
	free(safe);
	free(shown);
	return -1;
}

/* [*s, *e) without its blanks at either end. */
static void gb_trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

/* The first "|||" in [s, e), or NULL. */
static const char *gb_bars(const char *s, const char *e)
{
	for (const char *p = s; p + 3 <= e; p++)
		if (p[0] == '|' && p[1] == '|' && p[2] == '|')
			return p;
	return NULL;
}

/* The class field [s, e) into *truth: one of m's classes. */
static int gb_class(const char *s, const char *e, const struct gb_at *at,
		    const struct glimpse_model *m, int *truth,
		    struct errbuf *err)
{
	char list[GLIMPSE_MAX_CLASSES * (GLIMPSE_MAX_WORD + 2)] = "";
	char what[256 + sizeof list];
	gb_trim(&s, &e);
	size_t n = (size_t)(e - s);
	for (int k = 0; k < m->nclass; k++)
		if (strlen(m->cls[k]) == n && memcmp(m->cls[k], s, n) == 0) {
			*truth = k;
			return 0;
		}
	for (int k = 0; k < m->nclass; k++) {
		strcat(list, m->cls[k]);
		if (k + 1 < m->nclass)
			strcat(list, ", ");
	}
	/* translated here: gb_fail's _() finds no message of it */
	snprintf(what, sizeof what, _("a class of the model (%s)"), list);
	return gb_fail(err, at, s, n, what);
}

/* One line [s, e) (no comment, not blank) into it. */
static int gb_line(struct glimpse_batch_item *it, const char *s,
		   const char *e, const struct gb_at *at, const char *dir,
		   const struct glimpse_model *m, struct errbuf *err)
{
	const char *bars = gb_bars(s, e), *pe = bars ? bars : e;
	it->truth = -1;
	it->line = at->lineno;
	gb_trim(&s, &pe);
	if (s == pe)
		return gb_fail(err, at, s, 0, N_("the path of a PGM image"));
	if (bars && gb_bars(bars + 3, e))
		return gb_fail(err, at, gb_bars(bars + 3, e), 3,
			       N_("the end of the line after the class"));
	if (bars && gb_class(bars + 3, e, at, m, &it->truth, err) != 0)
		return -1;
	size_t n = (size_t)(pe - s), dn = *s == '/' ? 0 : strlen(dir);
	it->path = xmalloc(dn + n + 1);
	memcpy(it->path, dir, dn);
	memcpy(it->path + dn, s, n);
	it->path[dn + n] = '\0';
	return 0;
}

/* The next line of [p, end) into [*s, *e) without its CR and comment;
 * returns where the one after starts. */
static const char *gb_next(const char *p, const char *end, const char **s,
			   const char **e)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*s = p;
	*e = nl ? nl : end;
	if (*e > p && (*e)[-1] == '\r')
		(*e)--;
	const char *hash = memchr(p, '#', (size_t)(*e - p));
	if (hash)
		*e = hash;
	return nl ? nl + 1 : end;
}

int glimpse_batch_parse(struct glimpse_batch *b, const char *text,
			size_t len, const char *name, const char *dir,
			const struct glimpse_model *m, struct errbuf *err)
{
	struct gb_at at = { name, text, 0 };
	const char *p = text, *end = text + len, *s, *e;
	memset(b, 0, sizeof *b);
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < end) {
		at.line = p;
		at.lineno++;
		p = gb_next(p, end, &s, &e);
		size_t ok = utf8_valid_prefix(s, (size_t)(e - s));
		const char *nul = memchr(s, '\0', ok);
		if (nul || ok < (size_t)(e - s)) {
			err_set(err, _("%s:%d:%d: expected UTF-8 text, found %s"),
				name, at.lineno, (int)((nul ? nul : s + ok) -
						       at.line) + 1,
				nul ? _("a NUL byte") : _("a byte that is not UTF-8"));
			goto fail;
		}
		gb_trim(&s, &e);
		if (s == e)
			continue;
		if (b->n == GLIMPSE_BATCH_MAX) {
			err_set(err, _("%s:%d:1: expected at most %d images, "
				"found more"), name, at.lineno,
				GLIMPSE_BATCH_MAX);
			goto fail;
		}
		b->item = xreallocarray(b->item, (size_t)b->n + 1,
					sizeof *b->item);
		if (gb_line(&b->item[b->n], s, e, &at, dir, m, err) != 0)
			goto fail;
		b->n++;
	}
	if (b->n > 0)
		return 0;
	err_set(err, _("%s:%d:1: expected an image a line (PATH [||| CLASS]), "
		"found none"), name, at.lineno + 1);
fail:
	glimpse_batch_free(b);
	return -1;
}

int glimpse_batch_load(struct glimpse_batch *b, const char *path,
		       const struct glimpse_model *m, struct errbuf *err)
{
	size_t len;
	int std = strcmp(path, "-") == 0;
	memset(b, 0, sizeof *b);
	char *text = util_read_file(path, GLIMPSE_BATCH_MAX_BYTES, &len, err);
	if (!text)
		return -1;
	const char *slash = std ? NULL : strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path + 1))
			  : xstrdup("");
	int rc = glimpse_batch_parse(b, text, len, std ? "standard input"
				     : path, dir, m, err);
	free(dir);
	free(text);
	return rc;
}

void glimpse_batch_free(struct glimpse_batch *b)
{
	for (int k = 0; k < b->n; k++)
		free(b->item[k].path);
	free(b->item);
	memset(b, 0, sizeof *b);
}
