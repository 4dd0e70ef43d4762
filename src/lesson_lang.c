/* lesson_lang.c: translated lessons (doc/translating.md, "Translated
 * lessons"): which language the lessons are shown in, where a lesson's
 * translation is, and checking a translation against its original. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
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
	char tail[3000];
	/* TRANSLATORS: the first %s is what the original lesson has, the
	 * second the original's file, the third what this translation has. */
	snprintf(tail, sizeof tail, _("expected %.300s as in %.1000s, found "
		 "%.1500s"), what, orig, found);
	snprintf(msg, sizeof msg, "%.1000s:%d:%d: %s", t->path, line, col,
		 tail);
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
	       a->j == b->j && a->glimpse_quiz == b->glimpse_quiz;
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
			 _("another (the original's line %d)") : _("one more"),
			 kb < b->nblocks ? b->blocks[kb].show.line : 0);
		return ll_report(t, line, 1, orig, ka < a->nblocks ?
				 _("the same directive") : _("another directive"),
				 ka < a->nblocks ? found : _("none"), report, ctx);
	}
}

/* The references of page a against those of page b, in order. */
static int ll_page_refs(const struct lesson *t, const struct lesson_page *a,
			const struct lesson_page *b, const char *orig,
			void (*report)(void *ctx, const char *msg), void *ctx)
{
	char what[256], found[256];
	int n = a->nrefs < b->nrefs ? a->nrefs : b->nrefs;
	for (int k = 0; k < n; k++)
		if (strcmp(a->refs[k].text, b->refs[k].text) != 0) {
			snprintf(what, sizeof what, _("the reference {%s}"),
				 b->refs[k].text);
			snprintf(found, sizeof found, "{%s}", a->refs[k].text);
			return ll_report(t, a->refs[k].line, a->refs[k].col,
					 orig, what, found, report, ctx);
		}
	if (a->nrefs != b->nrefs) {
		snprintf(what, sizeof what, _("%d references on the page"),
			 b->nrefs);
		snprintf(found, sizeof found, "%d", a->nrefs);
		return ll_report(t, a->line, 1, orig, what, found, report, ctx);
	}
	return 0;
}

/* Where ll_number has got to: a block of a page, and a place in its
 * text (NULL: its start). */
struct ll_cur {
	int b;
	const char *s;
};

static int ll_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The next number with a decimal point ("0.5", "-2.66") typed in the
 * text of page pg from *c on, with *len set and *c moved past it; NULL
 * after the last.  A page's prose holds only literal ones ("\\2.66",
 * shown without the backslash): lesson_check_numbers refuses others. */
static const char *ll_number(const struct lesson_page *pg, struct ll_cur *c,
			     size_t *len)
{
	for (; c->b < pg->nblocks; c->b++, c->s = NULL) {
		const char *t = pg->blocks[c->b].text;
		if (!t)
			continue;
		for (const char *s = c->s ? c->s : t; *s; s++) {
			size_t d = strspn(s, "0123456789");
			if (d == 0 || s[d] != '.' || !ll_digit(s[d + 1]) ||
			    (s > t && (ll_digit(s[-1]) || s[-1] == '.')))
				continue;
			const char *st = s > t && s[-1] == '-' ? s - 1 : s;
			*len = (size_t)(s + d + 1 - st) +
			       strspn(s + d + 1, "0123456789");
			c->s = st + *len;
			return st;
		}
	}
	return NULL;
}

/* The claims and the numbers typed in the prose of page a against those
 * of page b, in order. */
static int ll_page_claims(const struct lesson *t, const struct lesson_page *a,
			  const struct lesson_page *b, const char *orig,
			  void (*report)(void *ctx, const char *msg), void *ctx)
{
	char what[256], found[256];
	for (int k = 0; k < a->nclaims || k < b->nclaims; k++) {
		if (k < a->nclaims && k < b->nclaims &&
		    strcmp(a->claims[k].text, b->claims[k].text) == 0)
			continue;
		snprintf(what, sizeof what, k < b->nclaims ?
			 _("the claim '%s'") : _("no more claims%s"),
			 k < b->nclaims ? b->claims[k].text : "");
		snprintf(found, sizeof found, k < a->nclaims ? "'%s'" :
			 _("none%s"), k < a->nclaims ? a->claims[k].text : "");
		return ll_report(t, k < a->nclaims ? a->claims[k].line :
				 a->line, k < a->nclaims ? 7 : 1, orig, what,
				 found, report, ctx);
	}
	struct ll_cur ca = { 0, NULL }, cb = { 0, NULL };
	size_t la = 0, lb = 0;
	for (int k = 1;; k++) {
		const char *na = ll_number(a, &ca, &la);
		const char *nb = ll_number(b, &cb, &lb);
		if (!na && !nb)
			break;
		if (na && nb && la == lb && memcmp(na, nb, la) == 0)
			continue;
		if (nb)
			snprintf(what, sizeof what, _("the literal number %.*s "
				 "(the page's number %d)"), (int)lb, nb, k);
		else
			snprintf(what, sizeof what, _("no literal number %d"),
				 k);
		snprintf(found, sizeof found, "%.*s", na ? (int)la : 4,
			 na ? na : _("none"));
		return ll_report(t, a->line, 1, orig, what, found, report,
				 ctx);
	}
	return 0;
}

/* The prediction, fold and pin of page a against those of page b. */
static int ll_page_predict(const struct lesson *t,
			   const struct lesson_page *a,
			   const struct lesson_page *b, const char *orig,
			   void (*report)(void *ctx, const char *msg),
			   void *ctx)
{
	const struct lesson_predict *pa = a->predict, *pb = b->predict;
	char what[256], found[256];
	if (pa && pb && pa->kind == pb->kind && pa->block == pb->block &&
	    strcmp(pa->c.text, pb->c.text) == 0)
		pa = pb = NULL;
	if (pa || pb) {
		snprintf(what, sizeof what, pb ? _("'predict %s' before the "
			 "page's block %d") : _("no 'predict'%.0s%.0d"),
			 pb ? pb->c.text : "", pb ? pb->block + 1 : 0);
		snprintf(found, sizeof found, pa ? _("'predict %s' before "
			 "block %d") : _("none%.0s%.0d"), pa ? pa->c.text : "",
			 pa ? pa->block + 1 : 0);
		return ll_report(t, pa ? pa->line : a->line, pa ? pa->col : 1,
				 orig, what, found, report, ctx);
	}
	if (a->fold != b->fold)
		return ll_report(t, a->line, 1, orig, b->fold ? _("'fold' on "
				 "the page") : _("no 'fold'"), a->fold ? "'fold'" :
				 _("none"), report, ctx);
	if (!a->pin != !b->pin)
		return ll_report(t, a->line, 1, orig, b->pin ? _("'pin' on the "
				 "page") : _("no 'pin'"), a->pin ? "'pin'" : _("none"),
				 report, ctx);
	return 0;
}

/* The header values that carry meaning (all but lesson_key_words) of t
 * against those of o. */
static int ll_header(const struct lesson *t, const struct lesson *o,
		     const char *orig,
		     void (*report)(void *ctx, const char *msg), void *ctx)
{
	char what[256], found[256];
	int bad = 0;
	for (int k = 0; k < LESSON_NKEYS; k++) {
		const char *a = t->head[k], *b = o->head[k];
		if (lesson_key_words(k) || (!a && !b) ||
		    (a && b && strcmp(a, b) == 0))
			continue;
		const char *key = lesson_key_name(k);
		if (b)
			snprintf(what, sizeof what, "'%s: %.200s'", key, b);
		else
			snprintf(what, sizeof what, _("no '%s:'"), key);
		if (a)
			snprintf(found, sizeof found, "'%s: %.200s'", key, a);
		else
			snprintf(found, sizeof found, "%s", _("none"));
		bad += ll_report(t, a ? t->head_pos[k].line :
				 t->translates_pos.line, a ?
				 t->head_pos[k].col : 1, orig, what, found,
				 report, ctx);
	}
	return bad;
}

char *lesson_original_path(const char *path, const char *file)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) : 0;
	size_t n = dir + strlen(file) + 8;
	char *orig = xmalloc(n);
	snprintf(orig, n, "%.*s%s../%s", (int)dir, path, slash ? "/" : "",
		 file);
	return orig;
}

/* Every page of t against the same page of o. */
static int ll_pages(const struct lesson *t, const struct lesson *o,
		    const char *orig,
		    void (*report)(void *ctx, const char *msg), void *ctx)
{
	int bad = 0;
	if (o->npages != t->npages) {
		char what[64], found[64];
		snprintf(found, sizeof found, "%d", t->npages);
		snprintf(what, sizeof what, _("%d pages"), o->npages);
		return ll_report(t, t->npages ? t->pages[t->npages - 1].line :
				 1, 1, orig, what, found, report, ctx);
	}
	for (int k = 0; k < t->npages; k++) {
		const struct lesson_page *a = &t->pages[k], *b = &o->pages[k];
		bad += ll_page_shows(t, a, b, orig, report, ctx);
		bad += ll_page_refs(t, a, b, orig, report, ctx);
		bad += ll_page_claims(t, a, b, orig, report, ctx);
		bad += ll_page_predict(t, a, b, orig, report, ctx);
	}
	return bad;
}

int lesson_check_translation(const struct lesson *t,
			     void (*report)(void *ctx, const char *msg),
			     void *ctx)
{
	if (!t->translates || !t->base)
		return 0;
	struct lesson o;
	struct errbuf err;
	int bad;
	if (lesson_load(&o, t->base, &err) != 0)
		bad = ll_report(t, t->translates_pos.line,
				t->translates_pos.col, _("its header"),
				_("a lesson that loads"), err.msg, report, ctx);
	else
		bad = ll_header(t, &o, t->base, report, ctx) +
		      ll_pages(t, &o, t->base, report, ctx);
	lesson_free(&o);
	return bad;
}
