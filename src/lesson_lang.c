/* lesson_lang.c: translated lessons (doc/translating.md, "Translated
 * lessons"): which language the lessons are shown in, where a lesson's
 * translation is, and checking a translation against its original. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
#include "util.h"

/* The languages that have a directory of translated lessons. */
static const char *const ll_langs[] = { "zh_CN" };
#define LL_NLANGS (sizeof ll_langs / sizeof ll_langs[0])

static const char *ll_forced; /* --lang, or NULL */

int lesson_set_lang(const char *lang)
{
	if (strcmp(lang, "en") == 0 || strcmp(lang, "C") == 0) {
		ll_forced = "en";
		return 0;
	}
	for (size_t k = 0; k < LL_NLANGS; k++)
		if (strcmp(lang, ll_langs[k]) == 0) {
			ll_forced = ll_langs[k];
			return 0;
		}
	return -1;
}

/* The language of a locale name or LANGUAGE entry ("zh_CN.UTF-8", "zh"),
 * one of ll_langs, "en" for English, or NULL for one we do not have. */
static const char *ll_of(const char *name, size_t n)
{
	if ((n == 2 || (n > 2 && (name[2] == '_' || name[2] == '.'))) &&
	    strncmp(name, "zh", 2) == 0)
		return "zh_CN";
	if ((n == 2 || (n > 2 && (name[2] == '_' || name[2] == '.'))) &&
	    strncmp(name, "en", 2) == 0)
		return "en";
	if ((n == 1 && name[0] == 'C') || (n > 1 && strncmp(name, "C.", 2) == 0)
	    || (n == 5 && strncmp(name, "POSIX", 5) == 0))
		return "en";
	return NULL;
}

/* As gettext chooses: none in the C locale; else the first of LANGUAGE's
 * list that we have; else LC_MESSAGES's locale. */
const char *lesson_lang(void)
{
	if (ll_forced)
		return ll_forced;
	const char *loc = setlocale(LC_MESSAGES, NULL);
	if (!loc || strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0)
		return "en";
	const char *list = getenv("LANGUAGE");
	while (list && *list) {
		size_t n = strcspn(list, ":");
		const char *lang = ll_of(list, n);
		if (lang)
			return lang;
		list += n + (list[n] == ':');
	}
	const char *lang = ll_of(loc, strlen(loc));
	return lang ? lang : "en";
}

char *lesson_localize(const char *path)
{
	const char *lang = lesson_lang();
	if (strcmp(lang, "en") == 0)
		return xstrdup(path);
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) : 0;
	const char *file = slash ? slash + 1 : path;
	size_t n = strlen(path) + strlen(lang) + 3;
	char *tr = xmalloc(n);
	snprintf(tr, n, "%.*s%s%s/%s", (int)dir, path, slash ? "/" : "", lang,
		 file);
	if (access(tr, R_OK) == 0)
		return tr;
	free(tr);
	return xstrdup(path);
}

/* Reports "PATH:LINE:COL: expected WHAT as in ORIG, found ..." once. */
static int ll_report(const struct lesson *t, int line, int col,
		     const char *orig, const char *what, const char *found,
		     void (*report)(void *ctx, const char *msg), void *ctx)
{
	char msg[4096];
	snprintf(msg, sizeof msg, "%.1000s:%d:%d: expected %.300s as in %.1000s, "
		 "found %.1500s",
		 t->path, line, col, what, orig, found);
	report(ctx, msg);
	return 1;
}

/* 1 if two directives show the same thing (their places aside). */
static int ll_same_show(const struct lesson_show *a,
			const struct lesson_show *b)
{
	return a->what == b->what && a->t == b->t && a->i == b->i &&
	       a->scorer == b->scorer && a->stage == b->stage &&
	       a->arithmetic == b->arithmetic && a->k == b->k &&
	       a->alt == b->alt && a->window == b->window &&
	       a->self_quiz == b->self_quiz &&
	       a->self_stage == b->self_stage &&
	       a->self_flags == b->self_flags && a->head == b->head &&
	       a->j == b->j;
}

/* The directives of page a against those of page b, in order. */
static int ll_page_shows(const struct lesson *t, const struct lesson_page *a,
			 const struct lesson_page *b, const char *orig,
			 void (*report)(void *ctx, const char *msg), void *ctx)
{
	int ka = 0, kb = 0;
	char found[128];
	for (;;) {
		while (ka < a->nblocks && a->blocks[ka].text)
			ka++;
		while (kb < b->nblocks && b->blocks[kb].text)
			kb++;
		if (ka == a->nblocks && kb == b->nblocks)
			return 0;
		if (ka < a->nblocks && kb < b->nblocks &&
		    ll_same_show(&a->blocks[ka].show, &b->blocks[kb].show)) {
			ka++, kb++;
			continue;
		}
		int line = ka < a->nblocks ? a->blocks[ka].show.line : a->line;
		snprintf(found, sizeof found, kb < b->nblocks ?
			 "another (the original's line %d)" : "one more",
			 kb < b->nblocks ? b->blocks[kb].show.line : 0);
		return ll_report(t, line, 1, orig, ka < a->nblocks ?
				 "the same directive" : "another directive",
				 ka < a->nblocks ? found : "none", report, ctx);
	}
}

/* The references and claims of page a against those of page b. */
static int ll_page_refs(const struct lesson *t, const struct lesson_page *a,
			const struct lesson_page *b, const char *orig,
			void (*report)(void *ctx, const char *msg), void *ctx)
{
	char what[256], found[256];
	int n = a->nrefs < b->nrefs ? a->nrefs : b->nrefs;
	for (int k = 0; k < n; k++)
		if (strcmp(a->refs[k].text, b->refs[k].text) != 0) {
			snprintf(what, sizeof what, "the reference {%s}",
				 b->refs[k].text);
			snprintf(found, sizeof found, "{%s}", a->refs[k].text);
			return ll_report(t, a->refs[k].line, a->refs[k].col,
					 orig, what, found, report, ctx);
		}
	if (a->nrefs != b->nrefs) {
		snprintf(what, sizeof what, "%d references on the page",
			 b->nrefs);
		snprintf(found, sizeof found, "%d", a->nrefs);
		return ll_report(t, a->line, 1, orig, what, found, report, ctx);
	}
	int same = a->nclaims == b->nclaims;
	for (int k = 0; same && k < a->nclaims; k++)
		same = strcmp(a->claims[k].text, b->claims[k].text) == 0;
	if (!same)
		return ll_report(t, a->line, 1, orig, "the same claims",
				 "others", report, ctx);
	return 0;
}

int lesson_check_translation(const struct lesson *t,
			     void (*report)(void *ctx, const char *msg),
			     void *ctx)
{
	if (!t->translates)
		return 0;
	const char *slash = strrchr(t->path, '/');
	size_t dir = slash ? (size_t)(slash - t->path) : 0;
	size_t n = dir + strlen(t->translates) + 8;
	char *orig = xmalloc(n), found[64];
	snprintf(orig, n, "%.*s%s../%s", (int)dir, t->path, slash ? "/" : "",
		 t->translates);
	struct lesson o;
	struct errbuf err;
	int bad = 0;
	if (lesson_load(&o, orig, &err) != 0) {
		bad = ll_report(t, t->translates_pos.line,
				t->translates_pos.col, "its header",
				"a lesson that loads", err.msg, report, ctx);
	} else if (o.npages != t->npages) {
		snprintf(found, sizeof found, "%d", t->npages);
		char what[64];
		snprintf(what, sizeof what, "%d pages", o.npages);
		bad = ll_report(t, t->npages ? t->pages[t->npages - 1].line : 1,
				1, orig, what, found, report, ctx);
	} else {
		for (int k = 0; k < t->npages; k++) {
			bad += ll_page_shows(t, &t->pages[k], &o.pages[k],
					     orig, report, ctx);
			bad += ll_page_refs(t, &t->pages[k], &o.pages[k],
					    orig, report, ctx);
		}
	}
	lesson_free(&o);
	free(orig);
	return bad;
}
