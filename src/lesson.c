/* lesson.c: reading lessons (doc/lessons.md) and checking them against the
 * trace of their sentence.
 *
 * The parser walks the text one line at a time, copying each line into a
 * buffer that grows as needed.  A line is checked for UTF-8 and control
 * characters, then classified by its first characters: blank, comment,
 * "page:", "show", a header key, or text.  Every error names the line and
 * the byte column of what is wrong. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch.h"
#include "gradpath.h"
#include "i18n.h"
#include "glimpse_quiz.h"
#include "lesson.h"
#include "num.h"
#include "selection.h"
#include "self.h"
#include "suggest.h"
#include "tok.h"
#include "utf8.h"
#include "util.h"
#include "window.h"

enum lesson_key {
	KEY_TITLE, KEY_GOAL, KEY_MODEL, KEY_SENTENCE, KEY_TARGET, KEY_SCORER,
	KEY_SCORERS, KEY_ARCH, KEY_WINDOW, KEY_WINDOW_SIZE, KEY_HARD, KEY_SEED,
	KEY_INPUT_FEEDING, KEY_GRADIENT_PATHS, KEY_PAIRS, KEY_TRANSLATES,
	KEY_IMAGE, KEY_GLIMPSE, KEY_CLASS, KEY_COUNT
};

static const char *const lesson_key_names[KEY_COUNT] = {
	"title", "goal", "model", "sentence", "target", "scorer", "scorers",
	"arch", "window", "window-size", "hard", "seed",
	"input-feeding", "gradient-paths", "pairs", "translates", "image",
	"glimpse", "class"
};
_Static_assert(KEY_COUNT == LESSON_NKEYS, "lesson.h's LESSON_NKEYS");

const char *lesson_key_name(int k)
{
	return lesson_key_names[k];
}

int lesson_key_words(int k)
{
	return k == KEY_TITLE || k == KEY_GOAL || k == KEY_TRANSLATES;
}

/* What an open block of text may still take more lines of. */
enum lesson_open { OPEN_NONE, OPEN_PARA, OPEN_VERBATIM };

/* The state of one parse. */
struct lparse {
	struct lesson *l;
	const char *text;   /* (len) the lesson */
	size_t len;
	size_t pos;         /* where the next line starts */
	int lineno;         /* the current line, from 1 */
	char *line;         /* (cap) the current line, NUL-terminated, without
	                       its newline */
	size_t n;           /* its length in bytes */
	size_t cap;
	int key_line[KEY_COUNT]; /* where each header key was; 0: not yet */
	int page_line;      /* the "page:" line of the current page */
	enum lesson_open open;
	size_t open_len;    /* the length of the open block's text, and the */
	size_t open_cap;    /* bytes allocated for it: lines are appended in
	                       amortised constant time, never by strlen */
	int content;        /* a line that is neither blank nor a comment has
	                       been read */
	struct errbuf *err;
};

/* Fills err with "PATH:LINE:COL: " and the formatted text, fmt in the
 * user's language (po/Makevars marks it); returns -1. */
static int lp_errat(struct lparse *p, int line, size_t col, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static int lp_errat(struct lparse *p, int line, size_t col, const char *fmt,
		    ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, _(fmt), ap);
	va_end(ap);
	err_set(p->err, "%s:%d:%zu: %s", p->l->path, line, col, what);
	return -1;
}

/* An error at byte offset off of the current line. */
#define lp_err(p, off, ...) lp_errat((p), (p)->lineno, (off) + 1, __VA_ARGS__)

/* Writes s[0..n) into buf (size bytes) in single quotes, cut to about 40
 * bytes without splitting a character; returns buf. */
static const char *lp_quote(char *buf, size_t size, const char *s, size_t n)
{
	int cut = 0;
	if (n > 40) {
		n = 40;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		cut = 1;
	}
	snprintf(buf, size, "'%.*s%s'", (int)n, s, cut ? "..." : "");
	return buf;
}

static int lp_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Copies the next line into p->line.  Returns 1, or 0 at the end. */
static int lp_next(struct lparse *p)
{
	if (p->pos >= p->len)
		return 0;
	const char *s = p->text + p->pos;
	size_t rest = p->len - p->pos;
	const char *nl = memchr(s, '\n', rest);
	size_t n = nl ? (size_t)(nl - s) : rest;
	p->pos += n + (nl != NULL);
	if (n > 0 && s[n - 1] == '\r')
		n--; /* CRLF line ends */
	if (n + 1 > p->cap) {
		p->cap = n + 1;
		p->line = xrealloc(p->line, p->cap);
	}
	memcpy(p->line, s, n);
	p->line[n] = '\0';
	p->n = n;
	p->lineno++;
	if (p->lineno == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		p->n -= 3; /* a byte-order mark */
		memmove(p->line, p->line + 3, p->n + 1);
	}
	return 1;
}

/* Refuses invalid UTF-8, NUL bytes and control characters but tab. */
static int lp_check(struct lparse *p)
{
	const unsigned char *s = (const unsigned char *)p->line;
	size_t ok = utf8_valid_prefix(p->line, p->n);
	for (size_t k = 0; k < ok; k++) {
		if (s[k] == 0)
			return lp_err(p, k, "expected text, found a NUL byte");
		if ((s[k] < 0x20 && s[k] != '\t') || s[k] == 0x7F)
			return lp_err(p, k, "expected text, found the control "
				      "character U+%04X", s[k]);
	}
	if (ok < p->n)
		return lp_err(p, ok, "expected UTF-8 text, found the byte "
			      "0x%02X", s[ok]);
	return 0;
}

/* Adds an empty block to the current page and returns it, or NULL with
 * the error set when the page already has LESSON_MAX_BLOCKS. */
static struct lesson_block *lp_block(struct lparse *p)
{
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	if (pg->nblocks == LESSON_MAX_BLOCKS) {
		lp_err(p, 0, "expected at most %d paragraphs and directives on "
		       "a page, found more; start a new 'page:'",
		       LESSON_MAX_BLOCKS);
		return NULL;
	}
	pg->blocks = xreallocarray(pg->blocks, (size_t)pg->nblocks + 1,
				   sizeof *pg->blocks);
	struct lesson_block *b = &pg->blocks[pg->nblocks++];
	memset(b, 0, sizeof *b);
	return b;
}

/* Appends sep and s[0..n) to the text of the page's last block, the open
 * one, whose length and capacity p keeps. */
static void lp_append(struct lparse *p, const char *sep, const char *s,
		      size_t n)
{
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	struct lesson_block *b = &pg->blocks[pg->nblocks - 1];
	size_t old = p->open_len, ls = strlen(sep);
	if (old + ls + n + 1 > p->open_cap) {
		p->open_cap = 2 * (old + ls + n + 1);
		b->text = xrealloc(b->text, p->open_cap);
	}
	memcpy(b->text + old, sep, ls);
	memcpy(b->text + old + ls, s, n);
	b->text[old + ls + n] = '\0';
	p->open_len = old + ls + n;
}

/* Returns s[0..n) with each tab widened to the next multiple of 8
 * columns (a column for each character); the caller frees it. */
static char *lp_detab(const char *s, size_t n)
{
	size_t tabs = 0;
	for (size_t k = 0; k < n; k++)
		tabs += s[k] == '\t';
	char *out = xmalloc(n + 7 * tabs + 1), *o = out;
	size_t col = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '\t') {
			do
				*o++ = ' ';
			while (++col % 8);
		} else {
			*o++ = s[k];
			col += ((unsigned char)s[k] & 0xC0) != 0x80;
		}
	}
	*o = '\0';
	return out;
}

static int lp_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The length of the number at s: an optional '-', digits, and a '.' with
 * digits; *decimals is how many digits follow the point (0: none).
 * Returns 0 if s starts no number. */
static size_t lp_num_len(const char *s, int *decimals)
{
	size_t k = s[0] == '-', d;
	*decimals = 0;
	for (d = k; lp_digit(s[k]); k++)
		;
	if (k == d)
		return 0;
	if (s[k] == '.' && lp_digit(s[k + 1])) {
		for (d = ++k; lp_digit(s[k]); k++)
			;
		*decimals = (int)(k - d);
	}
	return k;
}

/* Whether a number may start after the byte c: not inside a name such
 * as h_1 or x2, nor after another number's point. */
static int lp_num_boundary(char c)
{
	return !(lp_digit(c) || c == '_' || c == '.' ||
		 (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

static int lp_alt(struct lparse *p, size_t off, size_t n, int window);

/* The reference written between the braces at s[at] and s[close] of
 * the current line: parsed into the page's refs, its model= added to the
 * lesson's models.  Returns 0 or -1 with the error set. */
static int lp_ref(struct lparse *p, size_t at, size_t close)
{
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	struct lesson_ref r;
	size_t moff, mlen, bad;
	char why[512];
	if (lesson_ref_parse(&r, p->line + at + 1, close - at - 1, &moff, &mlen,
			     why, sizeof why, &bad) != 0)
		return lp_err(p, at + 1 + bad, "%s", why);
	r.line = p->lineno;
	r.col = (int)at + 1;
	if (mlen)
		r.alt = lp_alt(p, at + 1 + moff, mlen, r.window);
	pg->refs = xreallocarray(pg->refs, (size_t)pg->nrefs + 1,
				 sizeof *pg->refs);
	pg->refs[pg->nrefs++] = r;
	return 0;
}

/* Finds the numbers and references of the narrative line
 * p->line[first..*end): records each number with a decimal point on the
 * page (struct lesson_num), and drops the backslash in front of a number
 * written "\2.66", which is not recorded; replaces each reference "{...}"
 * by LESSON_REF_MARK (a brace after '_', as in y_{t-1}, or written
 * "\{", is text).  *end and p->n shrink by what was dropped.  Returns 0,
 * or -1 with the error set (a brace that is not closed, a bad reference). */
static int lp_numbers(struct lparse *p, size_t first, size_t *end)
{
	char *s = p->line;
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	size_t out = first, k = first;
	char prev = first ? s[first - 1] : ' '; /* the byte before k, as read */
	while (k < *end) {
		int esc = s[k] == '\\', decimals = 0;
		size_t at = k + (size_t)esc, n = 0;
		if (at < *end && s[at] == '{' && (esc || prev == '_')) {
			prev = s[out++] = '{'; /* "\{" and y_{t-1}: text */
			k = at + 1;
			continue;
		}
		if (s[k] == '{') {
			char *close = memchr(s + k, '}', *end - k);
			if (!close)
				return lp_err(p, k, "expected '}' closing the "
					      "reference (write '\\{' for a "
					      "brace), found the end of the "
					      "line");
			if (lp_ref(p, k, (size_t)(close - s)) != 0)
				return -1;
			s[out++] = LESSON_REF_MARK;
			prev = '}';
			k = (size_t)(close - s) + 1;
			continue;
		}
		if (at < *end && lp_num_boundary(prev) &&
		    !(s[at] == '-' && (prev == ')' || prev == ']')))
			n = lp_num_len(s + at, &decimals);
		if (n == 0) { /* a byte as it is */
			prev = s[k];
			s[out++] = s[k++];
			continue;
		}
		if (!esc && decimals > 0 &&
		    !(s[at + n] == '.' && lp_digit(s[at + n + 1]))) {
			struct lesson_num *u;
			pg->nums = xreallocarray(pg->nums, (size_t)pg->nnums + 1,
						 sizeof *pg->nums);
			u = &pg->nums[pg->nnums++];
			memset(u, 0, sizeof *u);
			u->line = p->lineno;
			u->col = (int)at + 1;
			u->decimals = decimals;
			snprintf(u->text, sizeof u->text, "%.*s", (int)n, s + at);
			const char *e;
			if (num_parse(u->text, &u->value, &e) != NUM_OK)
				u->value = 0;
		}
		prev = s[at + n - 1];
		memmove(s + out, s + at, n);
		out += n;
		k = at + n;
	}
	memmove(s + out, s + *end, p->n - *end + 1);
	p->n -= *end - out;
	*end = out;
	return 0;
}

/* A line of text on a page: narrative (joined into the open paragraph) or,
 * when it is indented, verbatim.  A backslash as the first non-blank
 * character is dropped. */
static int lp_text(struct lparse *p, size_t first)
{
	const char *s = p->line;
	size_t end = p->n;
	int verbatim = first > 0;
	if (p->l->npages == 0)
		return lp_err(p, first, "expected a header line 'KEY: value' "
			      "or 'page:', found text before the first page");
	while (end > first && lp_blank(s[end - 1]))
		end--;
	if (lp_numbers(p, first, &end) != 0)
		return -1;
	if (s[first] == '\\') {
		if (verbatim) {
			memmove(p->line + first, p->line + first + 1,
				end-- - first);
			while (end > 0 && lp_blank(s[end - 1]))
				end--;
		} else {
			first++;
		}
	}
	if (!verbatim) {
		while (first < end && lp_blank(s[first]))
			first++;
		if (first == end)
			return 0; /* a lone backslash */
	}
	enum lesson_open want = verbatim ? OPEN_VERBATIM : OPEN_PARA;
	char *t = verbatim ? lp_detab(s, end) : xstrndup(s + first,
							 end - first);
	if (p->open == want) {
		lp_append(p, verbatim ? "\n" : " ", t, strlen(t));
		free(t);
	} else {
		struct lesson_block *b = lp_block(p);
		if (!b) {
			free(t);
			return -1;
		}
		b->text = t;
		b->verbatim = verbatim;
		p->open = want;
		p->open_len = strlen(t);
		p->open_cap = p->open_len + 1;
	}
	return 0;
}

/* Checks, at the line that ends the header, that it had what it needs. */
static int lp_header_done(struct lparse *p, int line, const char *found)
{
	static const int required[] = { KEY_TITLE, KEY_SENTENCE };
	for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
		if (!p->key_line[required[k]] && !(required[k] ==
		    KEY_SENTENCE && p->key_line[KEY_IMAGE]))
			return lp_errat(p, line, 1, "expected a '%s:' line "
					"before the first page, found %s",
					lesson_key_names[required[k]], found);
	return 0;
}

/* Checks that the current page has something on it. */
static int lp_page_done(struct lparse *p, const char *found)
{
	const struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	const struct lesson_predict *pr = pg->predict;
	if (pg->nblocks == 0)
		return lp_errat(p, p->page_line, 1, "expected narrative or a "
				"'show' line on the page \"%s\", found %s",
				pg->title, found);
	if (pr && !pr->hint)
		return lp_errat(p, pr->line, 1, "expected a 'hint' line after "
				"'predict' (a wrong prediction gets it before "
				"a second try), found %s", found);
	if (pr && pr->block == pg->nblocks)
		return lp_errat(p, pr->line, 1, "expected the numbers that "
				"answer the prediction after 'predict' (a "
				"'show' line, or narrative), found %s", found);
	return 0;
}

/* "page: TITLE" */
static int lp_page(struct lparse *p)
{
	struct lesson *l = p->l;
	if (l->npages == 0) {
		if (lp_header_done(p, p->lineno, "'page:'") != 0)
			return -1;
	} else if (lp_page_done(p, "the next 'page:'") != 0) {
		return -1;
	}
	if (l->npages == LESSON_MAX_PAGES)
		return lp_err(p, 0, "expected at most %d pages, found "
			      "another 'page:'", LESSON_MAX_PAGES);
	size_t v = 5, end = p->n;
	while (v < end && lp_blank(p->line[v]))
		v++;
	while (end > v && lp_blank(p->line[end - 1]))
		end--;
	if (v == end)
		return lp_err(p, v, "expected a page title after 'page:', "
			      "found the end of the line");
	l->pages = xreallocarray(l->pages, (size_t)l->npages + 1,
				 sizeof *l->pages);
	struct lesson_page *pg = &l->pages[l->npages++];
	memset(pg, 0, sizeof *pg);
	pg->title = xstrndup(p->line + v, end - v);
	pg->line = p->lineno;
	p->page_line = p->lineno;
	p->open = OPEN_NONE;
	return 0;
}

/* "; did you mean 'NAME'?" (NAME and then tail) into buf (size bytes)
 * when names[0..n) has one close to w[0..len) (suggest_closest) that
 * is not w itself, "quiz" or "stage", else "";
 * returns buf. */
static const char *lp_meant(char *buf, size_t size, const char *w,
			    size_t len, const char *const *names, int n,
			    const char *tail)
{
	char word[32];
	const char *m = NULL;
	if (len < sizeof word) {
		memcpy(word, w, len);
		word[len] = '\0';
		m = suggest_closest(word, names, n);
	}
	if (m && strcmp(m, word) != 0 && strcmp(m, "quiz") != 0 &&
	    strcmp(m, "stage") != 0) /* not names that need more */
		snprintf(buf, size, _("; did you mean '%s%s'?"), m, tail);
	else
		buf[0] = '\0';
	return buf;
}

/* The length of a header key at the start of s ("title" in "title: x"),
 * or 0 if s does not start with lowercase letters and a colon. */
static size_t lp_key_len(const char *s)
{
	size_t k = 0;
	while ((s[k] >= 'a' && s[k] <= 'z') || (k > 0 && s[k] == '-'))
		k++;
	return k > 0 && s[k] == ':' ? k : 0;
}

static int lp_key_find(const char *s, size_t n)
{
	for (int k = 0; k < KEY_COUNT; k++)
		if (strlen(lesson_key_names[k]) == n &&
		    memcmp(s, lesson_key_names[k], n) == 0)
			return k;
	return -1;
}

/* The scorer named s[0..n), or -1. */
static int lp_scorer_find(const char *s, size_t n)
{
	for (int k = 0; k < SCORER_COUNT; k++)
		if (strlen(trace_scorer_name(k)) == n &&
		    memcmp(s, trace_scorer_name(k), n) == 0)
			return k;
	return -1;
}

/* Stores the value v[0..n), which starts at byte offset off. */
static int lp_set_key(struct lparse *p, int key, const char *v, size_t n,
		      size_t off)
{
	struct lesson *l = p->l;
	struct lesson_pos pos = { p->lineno, (int)off + 1 };
	char buf[64], names[256];
	switch (key) {
	case KEY_TITLE: l->title = xstrndup(v, n); break;
	case KEY_GOAL: l->goal = xstrndup(v, n); break;
	case KEY_TRANSLATES: /* a file of the parent directory */
		l->translates = xstrndup(v, n);
		l->translates_pos = pos;
		if (memchr(v, '/', n) || (n == 1 && v[0] == '.') ||
		    (n == 2 && memcmp(v, "..", 2) == 0))
			return lp_err(p, off, "expected the file name of the "
				      "original lesson, in the parent "
				      "directory, found %s",
				      lp_quote(buf, sizeof buf, v, n));
		l->base = lesson_original_path(l->path, l->translates);
		break;
	case KEY_MODEL: l->model = xstrndup(v, n); l->model_pos = pos; break;
	case KEY_SENTENCE:
		l->sentence = xstrndup(v, n);
		l->sentence_pos = pos;
		break;
	case KEY_TARGET:
		l->target = xstrndup(v, n);
		l->target_pos = pos;
		break;
	case KEY_SCORERS: {
		char *list = xstrndup(v, n);
		l->scorers_pos = pos;
		l->scorers = scorer_parse(list);
		free(list);
		if (l->scorers)
			return 0;
		l->scorers = SCORER_ALL;
		return lp_err(p, off, "expected all, or scorers separated by "
			      "commas (%s), found %s",
			      scorer_names(names, sizeof names, ", ", ", "),
			      lp_quote(buf, sizeof buf, v, n));
	}
	case KEY_ARCH: {
		char *name = xstrndup(v, n);
		l->arch = arch_find(name);
		free(name);
		l->arch_pos = pos;
		if (l->arch >= 0)
			return 0;
		return lp_err(p, off, "expected %s, found %s",
			      arch_names(names, sizeof names, ", ", " or "),
			      lp_quote(buf, sizeof buf, v, n));
	}
	case KEY_WINDOW: {
		char *name = xstrndup(v, n);
		int w = window_find(name);
		free(name);
		l->window_pos = pos;
		if (w >= 0) {
			l->cfg.window = w;
			return 0;
		}
		return lp_err(p, off, "expected %s, found %s",
			      window_names(names, sizeof names),
			      lp_quote(buf, sizeof buf, v, n));
	}
	case KEY_WINDOW_SIZE: {
		unsigned long long d;
		l->window_size_pos = pos;
		if (util_whole(v, n, TRACE_MAX_TOKENS, &d) == 0) {
			l->cfg.window_size = (int)d;
			return 0;
		}
		return lp_err(p, off, "expected a whole number from 0 to %d "
			      "(a local window's half-width), found %s",
			      TRACE_MAX_TOKENS, lp_quote(buf, sizeof buf, v, n));
	}
	case KEY_HARD: { /* the selection whose option is the key */
		int s = selection_by_option(lesson_key_names[key]), count;
		const struct selection_class *c = selection_get(s);
		int k = selection_value(c, v, n, &count);
		if (k >= 0) {
			l->cfg.selection = s;
			c->set(&l->cfg, k);
			return 0;
		}
		names[0] = '\0';
		for (k = 0; k < count; k++)
			snprintf(names + strlen(names), sizeof names -
				 strlen(names), "%s%s", k == 0 ? "" :
				 k + 1 < count ? ", " : " or ", c->values[k]);
		return lp_err(p, off, "expected %s, found %s", names,
			      lp_quote(buf, sizeof buf, v, n));
	}
	case KEY_INPUT_FEEDING: /* the model must have it, or not */
		l->feed_pos = pos;
		if ((n == 3 && memcmp(v, "yes", 3) == 0) ||
		    (n == 2 && memcmp(v, "no", 2) == 0)) {
			l->input_feeding = n == 3;
			return 0;
		}
		return lp_err(p, off, "expected yes or no (whether the model "
			      "has input feeding), found %s",
			      lp_quote(buf, sizeof buf, v, n));
	case KEY_GRADIENT_PATHS: { /* --gradient-paths[=T] */
		unsigned long long t;
		l->grad_pos = pos;
		if (n == 4 && memcmp(v, "last", 4) == 0) {
			l->cfg.grad_paths = -1;
			return 0;
		}
		if (util_whole(v, n, TRACE_MAX_STEPS, &t) == 0 && t > 0) {
			l->cfg.grad_paths = (int)t;
			return 0;
		}
		return lp_err(p, off, "expected a step from 1 to %d or last "
			      "(the step whose loss L_t the gradient paths "
			      "follow), found %s", TRACE_MAX_STEPS,
			      lp_quote(buf, sizeof buf, v, n));
	}
	case KEY_PAIRS:
		l->pairs = xstrndup(v, n);
		l->pairs_pos = pos;
		break;
	case KEY_IMAGE: l->image = xstrndup(v, n); l->image_pos = pos; break;
	case KEY_GLIMPSE:
		l->glimpse = xstrndup(v, n);
		l->glimpse_pos = pos;
		break;
	case KEY_CLASS: l->cls = xstrndup(v, n); l->cls_pos = pos; break;
	case KEY_SEED: /* the seed of a selection's draws */
		if (util_whole(v, n, ULLONG_MAX, &l->cfg.seed) == 0)
			return 0;
		return lp_err(p, off, "expected a whole number from 0 to "
			      "18446744073709551615, found %s",
			      lp_quote(buf, sizeof buf, v, n));
	case KEY_SCORER:
		l->scorer_pos = pos;
		l->scorer = lp_scorer_find(v, n);
		if (l->scorer >= 0)
			return 0;
		l->scorer = SCORER_dot;
		return lp_err(p, off, "expected %s, found %s",
			      scorer_names(names, sizeof names, ", ", " or "),
			      lp_quote(buf, sizeof buf, v, n));
	}
	return 0;
}

/* Every header key, from the key table: "title, goal, ... or
 * input-feeding", into buf (size bytes, cut if it must be). */
static const char *lp_key_list(char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < KEY_COUNT && at < size; k++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s",
				       k == 0 ? "" : k + 1 == KEY_COUNT ?
				       " or " : ", ", lesson_key_names[k]);
	return buf;
}

/* "KEY: value" before the first page. */
static int lp_header(struct lparse *p)
{
	const char *s = p->line;
	char buf[64], keys[256], mean[64];
	size_t k = lp_key_len(s);
	if (k == 0)
		return lp_text(p, 0);
	int key = lp_key_find(s, k);
	if (key < 0)
		return lp_err(p, 0, "expected a header key (%s) or 'page:', "
			      "found %s%s", lp_key_list(keys, sizeof keys),
			      lp_quote(buf, sizeof buf, s, k + 1),
			      lp_meant(mean, sizeof mean, s, k,
				       lesson_key_names, KEY_COUNT, ":"));
	if (p->key_line[key])
		return lp_err(p, 0, "expected each header key once, found "
			      "a second '%s:' (the first is on line %d)",
			      lesson_key_names[key], p->key_line[key]);
	size_t v = k + 1, end = p->n;
	while (v < end && lp_blank(s[v]))
		v++;
	while (end > v && lp_blank(s[end - 1]))
		end--;
	if (v == end)
		return lp_err(p, v, "expected a value after '%s:', found the "
			      "end of the line", lesson_key_names[key]);
	p->key_line[key] = p->lineno;
	p->l->head[key] = xstrndup(s + v, end - v);
	p->l->head_pos[key] = (struct lesson_pos){ p->lineno, (int)v + 1 };
	return lp_set_key(p, key, s + v, end - v, v);
}


/* --- directives ------------------------------------------------------ */

static const char *const show_names[SHOW_COUNT] = {
	"embedding", "encoder", "state", "score", "scores", "softmax",
	"weights", "weighted", "context", "concat", "output", "stage",
	"heatmap", "compare", "quiz", "self", "diagram", "words",
	"gradpaths", "accuracy", "image", "glimpse", "glimpses"
};

#define SHOW_LIST "embedding, encoder, state, score, scores, softmax, " \
	"weights, weighted, context, concat, output, stage=NAME, heatmap, " \
	"compare, diagram, words, gradpaths, accuracy, image, glimpse or " \
	"glimpses"
#define STAGE_LIST "encoding, decoder, scoring, softmax, weighted-sum, " \
	"concat or output"
#define QUIZ_LIST "scoring, softmax, weighted-sum, hard-draw, or " \
	"glimpse-KIND on a lesson's glimpses (place, draw, retina, glimpse, " \
	"core, class or reinforce)"

/* The options of a directive, as bits.  k= is for quiz directives only,
 * model= for show directives only. */
enum { OPT_T, OPT_I, OPT_K, OPT_SCORER, OPT_MODEL, OPT_WINDOW, OPT_ARITH,
       OPT_COUNT };
#define OPT(x) (1u << (x))

/* Which options each directive needs and which it allows.  Three cases
 * are settled in code: embedding needs exactly one of t= and i=,
 * stage=encoding takes neither t= nor scorer=, and a quiz's rule depends
 * on its stage (quiz_rule). */
static const struct show_rule {
	unsigned need;
	unsigned allow;
} show_rules[SHOW_COUNT] = {
	[SHOW_EMBEDDING] = { 0, OPT(OPT_T) | OPT(OPT_I) | OPT(OPT_SCORER) },
	[SHOW_ENCODER] = { OPT(OPT_I), OPT(OPT_I) | OPT(OPT_ARITH) },
	[SHOW_STATE] = { OPT(OPT_T),
			 OPT(OPT_T) | OPT(OPT_SCORER) | OPT(OPT_ARITH) },
	[SHOW_SCORE] = { OPT(OPT_T) | OPT(OPT_I), OPT(OPT_T) | OPT(OPT_I) |
			 OPT(OPT_SCORER) | OPT(OPT_ARITH) },
	[SHOW_SCORES] = { OPT(OPT_T),
			  OPT(OPT_T) | OPT(OPT_SCORER) | OPT(OPT_ARITH) },
	[SHOW_SOFTMAX] = { OPT(OPT_T), OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_WEIGHTS] = { OPT(OPT_T), OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_WEIGHTED] = { OPT(OPT_T),
			    OPT(OPT_T) | OPT(OPT_I) | OPT(OPT_SCORER) },
	[SHOW_CONTEXT] = { OPT(OPT_T), OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_CONCAT] = { OPT(OPT_T), OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_OUTPUT] = { OPT(OPT_T), OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_STAGE] = { OPT(OPT_T),
			 OPT(OPT_T) | OPT(OPT_SCORER) | OPT(OPT_ARITH) },
	[SHOW_HEATMAP] = { 0, OPT(OPT_SCORER) | OPT(OPT_MODEL) |
			   OPT(OPT_WINDOW) },
	[SHOW_COMPARE] = { OPT(OPT_T), OPT(OPT_T) },
	[SHOW_DIAGRAM] = { OPT(OPT_T), OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_WORDS] = { 0, OPT(OPT_SCORER) | OPT(OPT_MODEL) | OPT(OPT_WINDOW) },
	[SHOW_GRADPATHS] = { 0, OPT(OPT_SCORER) | OPT(OPT_MODEL) |
			     OPT(OPT_WINDOW) },
	[SHOW_ACCURACY] = { 0, 0 },
	[SHOW_IMAGE] = { 0, OPT(OPT_T) | OPT(OPT_SCORER) },
	[SHOW_GLIMPSE] = { OPT(OPT_T), OPT(OPT_T) },
	[SHOW_GLIMPSES] = { 0, 0 },
	/* SHOW_QUIZ: by its stage, in quiz_rule() */
};

/* What a quiz directive needs and allows: t= and i= for scoring and
 * softmax, t= and k= for weighted-sum. */
static struct show_rule quiz_rule(int stage, int glimpse_quiz)
{
	if (glimpse_quiz) /* k=: a class, or a number of glimpse t= */
		return glimpse_quiz - 1 == GLIMPSE_QUIZ_CLASS
		       ? (struct show_rule){ OPT(OPT_K), OPT(OPT_K) }
		       : (struct show_rule){ OPT(OPT_T) | OPT(OPT_K),
					     OPT(OPT_T) | OPT(OPT_K) };
	unsigned which = stage == STAGE_WEIGHTED_SUM ? OPT(OPT_K) : OPT(OPT_I);
	if (stage == (int)QUIZ_HARD_DRAW) /* t= alone */
		which = 0;
	return (struct show_rule){ OPT(OPT_T) | which,
				   OPT(OPT_T) | which | OPT(OPT_SCORER) };
}

static const char *const opt_forms[OPT_COUNT] = {
	"t=N", "i=N", "k=N", "scorer=NAME", "model=PATH", "window=NAME",
	"arithmetic"
};

/* One directive being parsed: the options seen, where, and how long. */
struct lp_show {
	struct lesson_show sh;
	size_t off[OPT_COUNT];   /* byte offset of each option given */
	size_t olen[OPT_COUNT];  /* its length; 0: not given */
	size_t end;              /* the offset just past the last word */
	const char *verb;        /* "show" or "quiz" */
	char name[32];           /* "softmax", "stage=encoding": for messages */
};

/* Finds the next blank-separated word of s from *pos; a word that starts
 * with '#' begins a comment.  Returns 1 with its offset and length, or 0. */
static int lp_word(const char *s, size_t *pos, size_t *off, size_t *len)
{
	size_t k = *pos;
	while (lp_blank(s[k]))
		k++;
	*off = k;
	if (s[k] == '\0' || s[k] == '#')
		return 0;
	while (s[k] && !lp_blank(s[k]))
		k++;
	*len = k - *off;
	*pos = k;
	return 1;
}

/* The word after "show": what to show. */
static int lp_what(struct lparse *p, struct lp_show *d, size_t off,
		   size_t n)
{
	const char *w = p->line + off;
	char buf[64], mean[64];
	if (n > 6 && memcmp(w, "stage=", 6) == 0) {
		for (int k = 0; k < STAGE_COUNT; k++)
			if (strlen(trace_stage_name(k)) == n - 6 &&
			    memcmp(w + 6, trace_stage_name(k), n - 6) == 0) {
				d->sh.what = SHOW_STAGE;
				d->sh.stage = k;
				snprintf(d->name, sizeof d->name, "stage=%s",
					 trace_stage_name(k));
				return 0;
			}
		return lp_err(p, off + 6, "expected a stage (%s), found %s",
			      STAGE_LIST,
			      lp_quote(buf, sizeof buf, w + 6, n - 6));
	}
	for (int k = 0; k < SHOW_COUNT; k++)
		if (k != SHOW_STAGE && k != SHOW_QUIZ &&
		    strlen(show_names[k]) == n &&
		    memcmp(w, show_names[k], n) == 0) {
			d->sh.what = (enum show_what)k;
			snprintf(d->name, sizeof d->name, "%s", show_names[k]);
			return 0;
		}
	return lp_err(p, off, "expected what to show (%s), found %s%s",
		      SHOW_LIST, lp_quote(buf, sizeof buf, w, n),
		      lp_meant(mean, sizeof mean, w, n, show_names, SHOW_COUNT,
			       ""));
}

/* The word after "quiz": the stage asked about. */
static int lp_quiz_what(struct lparse *p, struct lp_show *d, size_t off,
			size_t n)
{
	const char *w = p->line + off;
	char buf[64];
	enum trace_stage st;
	if (n < sizeof d->name) {
		memcpy(d->name, w, n);
		d->name[n] = '\0';
		if (quiz_stage_parse(d->name, &st) == 0) {
			d->sh.what = SHOW_QUIZ;
			d->sh.stage = (int)st;
			return 0;
		}
		enum glimpse_quiz_kind gk;
		if (n > 8 && memcmp(w, "glimpse-", 8) == 0 &&
		    glimpse_quiz_parse(d->name + 8, &gk) == 0) {
			d->sh.what = SHOW_QUIZ;
			d->sh.glimpse_quiz = 1 + (int)gk;
			return 0;
		}
	}
	return lp_err(p, off, "expected what to ask (%s), found %s",
		      QUIZ_LIST, lp_quote(buf, sizeof buf, w, n));
}

/* The number in "t=N", "i=N" or "k=N" (w[0..n) is the whole word). */
static int lp_number(struct lparse *p, const char *w, size_t n, size_t off,
		     int max, int *out)
{
	char buf[64];
	long v = 0;
	size_t k = 2;
	for (; k < n && w[k] >= '0' && w[k] <= '9'; k++)
		if (v <= 1000000)
			v = 10 * v + (w[k] - '0');
	if (k == 2 || k < n)
		return lp_err(p, off + 2, "expected a whole number after "
			      "'%c=', found %s", w[0],
			      k == 2 && n == 2 ? _("nothing") :
			      lp_quote(buf, sizeof buf, w + 2, n - 2));
	if (v < 1 || v > max)
		return lp_err(p, off, "expected %c= from 1 to %d (%s count "
			      "from 1), found %s", w[0], max,
			      w[0] == 't' ? _("steps") : w[0] == 'i' ?
			      _("source words") : _("coordinates"),
			      lp_quote(buf, sizeof buf, w, n));
	*out = (int)v;
	return 0;
}

/* One option word of a directive. */
static int lp_option(struct lparse *p, struct lp_show *d, size_t off,
		     size_t n)
{
	const char *w = p->line + off;
	char buf[64], names[256];
	int opt = -1;
	int quiz = d->sh.what == SHOW_QUIZ;
	if (n == 10 && memcmp(w, "arithmetic", 10) == 0)
		opt = OPT_ARITH;
	else if (n >= 2 && (w[0] == 't' || w[0] == 'i') && w[1] == '=')
		opt = w[0] == 't' ? OPT_T : OPT_I;
	else if (quiz && n >= 2 && w[0] == 'k' && w[1] == '=')
		opt = OPT_K;
	else if (n >= 7 && memcmp(w, "scorer=", 7) == 0)
		opt = OPT_SCORER;
	else if (!quiz && n >= 6 && memcmp(w, "model=", 6) == 0)
		opt = OPT_MODEL;
	else if (!quiz && n >= 7 && memcmp(w, "window=", 7) == 0)
		opt = OPT_WINDOW;
	if (opt < 0)
		return lp_err(p, off, "expected %s, found %s", quiz ?
			      "t=N, i=N, k=N or scorer=NAME" :
			      "t=N, i=N, scorer=NAME, model=PATH, "
			      "window=NAME or arithmetic",
			      lp_quote(buf, sizeof buf, w, n));
	if (d->olen[opt])
		return lp_err(p, off, "expected %s once, found it again: %s",
			      opt_forms[opt], lp_quote(buf, sizeof buf, w, n));
	d->off[opt] = off;
	d->olen[opt] = n;
	switch (opt) {
	case OPT_T:
		d->sh.col_t = (int)off + 1;
		return lp_number(p, w, n, off, TRACE_MAX_STEPS, &d->sh.t);
	case OPT_I:
		d->sh.col_i = (int)off + 1;
		return lp_number(p, w, n, off, TRACE_MAX_TOKENS, &d->sh.i);
	case OPT_K:
		d->sh.col_k = (int)off + 1;
		return lp_number(p, w, n, off, MODEL_MAX_DIM, &d->sh.k);
	case OPT_SCORER:
		d->sh.scorer = lp_scorer_find(w + 7, n - 7);
		if (d->sh.scorer >= 0)
			return 0;
		return lp_err(p, off + 7, "expected %s "
			      "after 'scorer=', found %s",
			      scorer_names(names, sizeof names, ", ", " or "),
			      lp_quote(buf, sizeof buf, w + 7, n - 7));
	case OPT_MODEL:
		d->sh.col_model = (int)off + 1;
		if (n > 6)
			return 0;
		return lp_err(p, off + 6, "expected a model (%s, or the "
			      "path of a model file) after 'model=', found "
			      "nothing", model_builtin_list());
	case OPT_WINDOW: {
		char name[32];
		snprintf(name, sizeof name, "%.*s", (int)(n - 7), w + 7);
		d->sh.window = n - 7 < sizeof name ? window_find(name) : -1;
		if (d->sh.window >= 0)
			return 0;
		return lp_err(p, off + 7, "expected a window (%s) after "
			      "'window=', found %s", window_names(names,
			      sizeof names), lp_quote(buf, sizeof buf, w + 7,
			      n - 7));
	}
	default:
		d->sh.arithmetic = 1;
		return 0;
	}
}

/* Writes into buf the options that directive d allows, "t=N or
 * scorer=NAME"; returns buf. */
static const char *lp_allowed(char *buf, size_t size, unsigned allow)
{
	int count = 0, k, seen = 0;
	for (k = 0; k < OPT_COUNT; k++)
		count += (allow >> k) & 1;
	buf[0] = '\0';
	for (k = 0; k < OPT_COUNT; k++) {
		if (!(allow & OPT(k)))
			continue;
		size_t used = strlen(buf);
		snprintf(buf + used, size - used, "%s%s",
			 seen == 0 ? "" : seen == count - 1 ? " or " : ", ",
			 opt_forms[k]);
		seen++;
	}
	return count ? buf : "nothing more";
}

/* Checks the options of d against the rules of what it shows. */
static int lp_rules(struct lparse *p, struct lp_show *d)
{
	struct show_rule r = show_rules[d->sh.what];
	char buf[64], list[96];
	if (d->sh.what == SHOW_STAGE && d->sh.stage == STAGE_ENCODING)
		r = (struct show_rule){ 0, OPT(OPT_ARITH) };
	if (d->sh.what == SHOW_QUIZ)
		r = quiz_rule(d->sh.stage, d->sh.glimpse_quiz);
	for (int k = 0; k < OPT_COUNT; k++)
		if (d->olen[k] && !(r.allow & OPT(k)))
			return lp_err(p, d->off[k], "expected %s after '%s "
				      "%s', found %s",
				      lp_allowed(list, sizeof list, r.allow),
				      d->verb, d->name, lp_quote(buf,
				      sizeof buf, p->line + d->off[k],
				      d->olen[k]));
	for (int k = 0; k < OPT_COUNT; k++)
		if ((r.need & OPT(k)) && !d->olen[k])
			return lp_err(p, d->end, "expected %s after '%s %s', "
				      "found the end of the line",
				      opt_forms[k], d->verb, d->name);
	if (d->olen[OPT_WINDOW] && !d->olen[OPT_MODEL])
		return lp_err(p, d->off[OPT_WINDOW], "expected model=PATH "
			      "before window=NAME (the window the other "
			      "model is traced through), found window= alone");
	if (d->sh.what != SHOW_EMBEDDING || (!d->olen[OPT_T]) != !d->olen[OPT_I])
		return 0;
	if (d->olen[OPT_T])
		return lp_err(p, d->off[OPT_T] > d->off[OPT_I] ?
			      d->off[OPT_T] : d->off[OPT_I], "expected i=N or "
			      "t=N after 'show embedding', found both");
	return lp_err(p, d->end, "expected i=N (a source word) or t=N (the "
		      "decoder's input) after 'show embedding', found the end "
		      "of the line");
}

/* The model named by the n bytes at off of the line, traced through
 * window (-1: the lesson's): its number in l->alts from 1, adding it
 * there if it is new. */
static int lp_alt(struct lparse *p, size_t off, size_t n, int window)
{
	struct lesson *l = p->l;
	char *name = xstrndup(p->line + off, n);
	for (int k = 0; k < l->nalts; k++)
		if (strcmp(l->alts[k].name, name) == 0 &&
		    l->alts[k].window == window) {
			free(name);
			return k + 1;
		}
	l->alts = xreallocarray(l->alts, (size_t)l->nalts + 1, sizeof *l->alts);
	memset(&l->alts[l->nalts], 0, sizeof *l->alts);
	l->alts[l->nalts].name = name;
	l->alts[l->nalts].window = window;
	l->alts[l->nalts].pos = (struct lesson_pos){ p->lineno, (int)off + 1 };
	return ++l->nalts;
}

/* "show self=STAGE [head=K] [causal] [no-position] [cross]" and
 * "quiz self-score|self-weight i=I j=J head=K [...]", "quiz self-z i=I
 * k=C head=K [...]" (doc/lessons.md); the word after the verb is at off
 * (n bytes), the options from pos. */
static int lp_self(struct lparse *p, struct lp_show *d, int quiz, size_t off,
		   size_t n, size_t pos)
{
	static const char *const stages[SELF_STAGE_COUNT + 1] = {
		"x", "qkv", "scores", "softmax", "z", "output", "heatmap"
	};
	static const char *const kinds[3] = { "self-score", "self-weight",
					      "self-z" };
	const char *w = p->line + off;
	char buf[64];
	d->sh.what = SHOW_SELF;
	d->end = off + n;
	if (!quiz) {
		int k = 0;
		while (k <= SELF_STAGE_COUNT && !(n == 5 + strlen(stages[k]) &&
		       memcmp(w, "self=", 5) == 0 &&
		       memcmp(w + 5, stages[k], n - 5) == 0))
			k++;
		if (k > SELF_STAGE_COUNT)
			return lp_err(p, off, "expected self=STAGE (x, qkv, "
				      "scores, softmax, z, output or heatmap), "
				      "found %s", lp_quote(buf, sizeof buf, w, n));
		d->sh.self_stage = k;
	} else {
		int k = 0;
		while (k < 3 && !(strlen(kinds[k]) == n &&
				  memcmp(w, kinds[k], n) == 0))
			k++;
		if (k == 3)
			return lp_err(p, off, "expected what to ask (self-score, "
				      "self-weight or self-z), found %s",
				      lp_quote(buf, sizeof buf, w, n));
		d->sh.self_quiz = 1 + k;
	}
	while (lp_word(p->line, &pos, &off, &n)) {
		w = p->line + off;
		int *num = NULL, *col = NULL, max = TRACE_MAX_TOKENS;
		if (n == 6 && memcmp(w, "causal", 6) == 0)
			d->sh.self_flags |= LESSON_SELF_CAUSAL;
		else if (n == 11 && memcmp(w, "no-position", 11) == 0)
			d->sh.self_flags |= LESSON_SELF_NO_POSITION;
		else if (n == 5 && memcmp(w, "cross", 5) == 0)
			d->sh.self_flags |= LESSON_SELF_CROSS;
		else if (n >= 5 && memcmp(w, "head=", 5) == 0) {
			if (n != 6 || w[5] < '1' || w[5] > '0' + SELF_HEADS)
				return lp_err(p, off, "expected head=1 or "
					      "head=2, found %s",
					      lp_quote(buf, sizeof buf, w, n));
			d->sh.head = w[5] - '0';
			d->sh.col_head = (int)off + 1;
		} else if (quiz && n >= 2 && w[1] == '=' &&
			   (w[0] == 'i' || (w[0] == 'j' && d->sh.self_quiz != 3)
			    || (w[0] == 'k' && d->sh.self_quiz == 3))) {
			num = w[0] == 'i' ? &d->sh.i : w[0] == 'j' ? &d->sh.j
			      : &d->sh.k;
			col = w[0] == 'i' ? &d->sh.col_i : w[0] == 'j'
			      ? &d->sh.col_j : &d->sh.col_k;
			if (w[0] == 'k')
				max = MODEL_MAX_DIM;
		} else {
			return lp_err(p, off, "expected %s, found %s", quiz ?
				      (d->sh.self_quiz == 3 ? "i=N, k=N, head=K, "
				       "causal, no-position or cross"
				       : "i=N, j=N, head=K, causal, "
				       "no-position or cross")
				      : "head=K, causal, no-position or cross",
				      lp_quote(buf, sizeof buf, w, n));
		}
		if (num) {
			if (*num)
				return lp_err(p, off, "expected %c=N once, found "
					      "it again: %s", w[0],
					      lp_quote(buf, sizeof buf, w, n));
			*col = (int)off + 1;
			if (lp_number(p, w, n, off, max, num) != 0)
				return -1;
		}
		d->end = off + n;
	}
	if (quiz && (!d->sh.i || !d->sh.head ||
		     (d->sh.self_quiz == 3 ? !d->sh.k : !d->sh.j)))
		return lp_err(p, d->end, "expected %s after '%.*s', found the "
			      "end of the line", !d->sh.i ? "i=N" :
			      (d->sh.self_quiz == 3 ? !d->sh.k : !d->sh.j)
			      ? (d->sh.self_quiz == 3 ? "k=N" : "j=N")
			      : "head=K", (int)strlen(kinds[d->sh.self_quiz - 1]),
			      kinds[d->sh.self_quiz - 1]);
	struct lesson_block *b = lp_block(p);
	if (!b)
		return -1;
	b->show = d->sh;
	p->open = OPEN_NONE;
	return 0;
}

/* "show WHAT [OPTION]..." or, with quiz set, "quiz STAGE [OPTION]..." */
static int lp_show(struct lparse *p, int quiz)
{
	struct lp_show d;
	size_t pos = 4, off, n;
	memset(&d, 0, sizeof d);
	d.sh.scorer = -1;
	d.sh.stage = -1;
	d.sh.window = -1;
	d.sh.line = p->lineno;
	d.end = 4;
	d.verb = quiz ? "quiz" : "show";
	if (p->l->npages == 0)
		return lp_err(p, 0, "expected a header line 'KEY: value' or "
			      "'page:', found a '%s' line before the first "
			      "page", d.verb);
	if (!lp_word(p->line, &pos, &off, &n))
		return lp_err(p, off, "expected %s (%s), found the end of the "
			      "line",
			      quiz ? _("what to ask") : _("what to show"),
			      quiz ? QUIZ_LIST : SHOW_LIST);
	if (n >= 4 && memcmp(p->line + off, "self", 4) == 0 &&
	    (n == 4 || p->line[off + 4] == '=' || p->line[off + 4] == '-'))
		return lp_self(p, &d, quiz, off, n, pos);
	if ((quiz ? lp_quiz_what(p, &d, off, n) : lp_what(p, &d, off, n)) != 0)
		return -1;
	d.end = off + n;
	while (lp_word(p->line, &pos, &off, &n)) {
		if (lp_option(p, &d, off, n) != 0)
			return -1;
		d.end = off + n;
	}
	if (lp_rules(p, &d) != 0)
		return -1;
	struct lesson_block *b = lp_block(p);
	if (!b)
		return -1;
	if (d.olen[OPT_MODEL])
		d.sh.alt = lp_alt(p, d.off[OPT_MODEL] + 6,
				  d.olen[OPT_MODEL] - 6, d.sh.window);
	b->show = d.sh;
	p->open = OPEN_NONE;
	return 0;
}

/* "claim A OP B": a claim about the trace, which --check evaluates. */
static int lp_claim(struct lparse *p)
{
	struct lesson_claim c;
	size_t moff[2], mlen[2], bad, n = p->n;
	char why[512];
	if (p->l->npages == 0)
		return lp_err(p, 0, "expected a header line 'KEY: value' or "
			      "'page:', found a 'claim' line before the first "
			      "page");
	while (n > 6 && lp_blank(p->line[n - 1]))
		n--;
	if (n <= 6)
		return lp_err(p, 5, "expected a claim such as 'claim "
			      "argmax(α_1) = je' after 'claim', found the end "
			      "of the line");
	if (lesson_claim_parse(&c, p->line + 6, n - 6, moff, mlen, why,
			       sizeof why, &bad) != 0)
		return lp_err(p, 6 + bad, "%s", why);
	c.line = p->lineno;
	if (mlen[0])
		c.a.ref.alt = lp_alt(p, 6 + moff[0], mlen[0],
					    c.a.ref.window);
	if (mlen[1])
		c.b.ref.alt = lp_alt(p, 6 + moff[1], mlen[1],
					    c.b.ref.window);
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	pg->claims = xreallocarray(pg->claims, (size_t)pg->nclaims + 1,
				   sizeof *pg->claims);
	pg->claims[pg->nclaims++] = c;
	return 0; /* never shown: a paragraph goes on past it */
}

/* "pin REASON": the page keeps the lesson's scorer, and says why. */
static int lp_pin(struct lparse *p)
{
	size_t b = 3, n = p->n;
	if (p->l->npages == 0)
		return lp_err(p, 0, "expected a header line 'KEY: value' or "
			      "'page:', found a 'pin' line before the first "
			      "page");
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	while (lp_blank(p->line[b]))
		b++;
	while (n > b && lp_blank(p->line[n - 1]))
		n--;
	if (n == b)
		return lp_err(p, 3, "expected why the page keeps its scorer "
			      "after 'pin' (it is shown when s chooses "
			      "another), found the end of the line");
	if (pg->pin)
		return lp_err(p, 0, "expected one 'pin' line on a page, found "
			      "another");
	pg->pin = xstrndup(p->line + b, n - b);
	return 0;
}

/* "fold": the page opens folded in the stepper. */
static int lp_fold(struct lparse *p)
{
	if (p->l->npages == 0)
		return lp_err(p, 0, "expected a header line 'KEY: value' or "
			      "'page:', found a 'fold' line before the first "
			      "page");
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	if (pg->fold)
		return lp_err(p, 0, "expected one 'fold' line on a page, "
			      "found another");
	pg->fold = 1;
	return 0;
}

/* "predict TERM" or "predict A OP B": the blocks after it wait for the
 * learner's prediction. */
static int lp_predict(struct lparse *p)
{
	size_t moff[2], mlen[2], bad, n = p->n;
	char why[512];
	if (p->l->npages == 0)
		return lp_err(p, 0, "expected a header line 'KEY: value' or "
			      "'page:', found a 'predict' line before the "
			      "first page");
	struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	if (pg->predict)
		return lp_err(p, 0, "expected one 'predict' line on a page, "
			      "found another (the first is on line %d)",
			      pg->predict->line);
	while (n > 8 && lp_blank(p->line[n - 1]))
		n--;
	if (n <= 8)
		return lp_err(p, 7, "expected what to predict, such as "
			      "'predict argmax(α_1)', after 'predict', found "
			      "the end of the line");
	struct lesson_predict *pr = xcalloc(1, sizeof *pr);
	pg->predict = pr;
	if (lesson_predict_parse(pr, p->line + 8, n - 8, moff, mlen, why,
				 sizeof why, &bad) != 0)
		return lp_err(p, 8 + bad, "%s", why);
	pr->line = pr->c.line = p->lineno;
	pr->col = 9;
	pr->block = pg->nblocks;
	if (mlen[0])
		pr->c.a.ref.alt = lp_alt(p, 8 + moff[0], mlen[0],
						pr->c.a.ref.window);
	if (mlen[1])
		pr->c.b.ref.alt = lp_alt(p, 8 + moff[1], mlen[1],
						pr->c.b.ref.window);
	p->open = OPEN_NONE; /* what follows is hidden until the answer */
	return 0;
}

/* "hint TEXT": what a wrong prediction is told before its second try;
 * plain words, with no reference (it must not give the answer away). */
static int lp_hint(struct lparse *p)
{
	size_t b = 4, end = p->n;
	struct lesson_page *pg = p->l->npages ? &p->l->pages[p->l->npages - 1]
					      : NULL;
	if (!pg || !pg->predict)
		return lp_err(p, 0, "expected a 'predict' line on the page "
			      "before its 'hint', found 'hint' alone");
	if (pg->predict->hint)
		return lp_err(p, 0, "expected one 'hint' line after 'predict', "
			      "found another (the first is on line %d)",
			      pg->predict->hint_line);
	while (lp_blank(p->line[b]))
		b++;
	while (end > b && lp_blank(p->line[end - 1]))
		end--;
	if (end == b)
		return lp_err(p, 4, "expected the hint a wrong prediction gets "
			      "after 'hint', found the end of the line");
	int nrefs = pg->nrefs;
	if (lp_numbers(p, b, &end) != 0)
		return -1;
	if (pg->nrefs != nrefs)
		return lp_errat(p, p->lineno, (size_t)pg->refs[nrefs].col,
				"expected a hint in words (a reference would "
				"give the numbers away), found '{%s}'",
				pg->refs[nrefs].text);
	pg->predict->hint = xstrndup(p->line + b, end - b);
	pg->predict->hint_line = p->lineno;
	return 0;
}

/* --- misspelt directives --------------------------------------------- */

/* The directives a line can start with, for "did you mean". */
static const char *const lp_directives[] = {
	"show", "quiz", "claim", "pin", "fold", "predict", "hint", "page"
};
#define LP_NDIRECTIVES (int)(sizeof lp_directives / sizeof lp_directives[0])

/* Whether the words of s from pos are what follows "show" (quiz 0) or
 * "quiz" (quiz 1): what to show or ask, then option words only. */
static int lp_show_shape(const char *s, size_t pos, int quiz)
{
	static const char *const opts[] = {
		"t=", "i=", "k=", "scorer=", "model=", "window="
	};
	size_t off, n, k;
	char w[32];
	enum trace_stage st;
	if (!lp_word(s, &pos, &off, &n) || n >= sizeof w)
		return 0;
	memcpy(w, s + off, n);
	w[n] = '\0';
	if (quiz && quiz_stage_parse(w, &st) != 0)
		return 0;
	for (k = 0; !quiz && k < SHOW_COUNT; k++)
		if (strcmp(w, show_names[k]) == 0 || strncmp(w, "stage=", 6)
		    == 0 || strncmp(w, "self", 4) == 0)
			break;
	if (!quiz && k == SHOW_COUNT)
		return 0;
	while (lp_word(s, &pos, &off, &n)) {
		for (k = 0; k < sizeof opts / sizeof opts[0]; k++)
			if (strncmp(s + off, opts[k], strlen(opts[k])) == 0)
				break;
		if (k == sizeof opts / sizeof opts[0] &&
		    !(n == 10 && memcmp(s + off, "arithmetic", 10) == 0))
			return 0;
	}
	return 1;
}

/* The number of blank-separated words in s[0..n). */
static size_t lp_words(const char *s, size_t n)
{
	size_t count = 0;
	for (size_t k = 0; k < n; k++)
		count += !lp_blank(s[k]) && (k == 0 || lp_blank(s[k - 1]));
	return count;
}

/* Whether the rest of the line, s from pos, has the shape of what
 * directive d takes, so that a line starting with a near miss of d is a
 * misspelt directive and not narrative; pos is where the first word
 * ends. */
static int lp_directive_shape(struct lparse *p, const char *d, size_t pos)
{
	const char *s = p->line, *rest = s + pos;
	size_t mo[2], ml[2], bad, n = p->n - pos;
	char why[256];
	const struct lesson_page *pg = &p->l->pages[p->l->npages - 1];
	while (lp_blank(*rest))
		rest++, n--;
	while (n > 0 && lp_blank(rest[n - 1]))
		n--;
	if (strcmp(d, "page") == 0)
		return s[pos] == ':' && n > 1;
	if (s[pos] != '\0' && !lp_blank(s[pos]))
		return 0;
	if (strcmp(d, "show") == 0 || strcmp(d, "quiz") == 0)
		return lp_show_shape(s, pos, d[0] == 'q');
	if (strcmp(d, "fold") == 0) /* alone, not in a paragraph */
		return n == 0 && p->open == OPEN_NONE;
	if (strcmp(d, "hint") == 0) /* only where a hint is due */
		return n > 0 && pg->predict && !pg->predict->hint;
	if (strcmp(d, "pin") == 0) /* a block of its own */
		return n > 0 && p->open == OPEN_NONE;
	/* claims and predictions are short, name a value (α_1, argmax(...),
	 * {R}, h_3[4]) and compare it, but for a prediction of one term */
	if (lp_words(rest, n) > 4 || strcspn(rest, "_({[") >= n ||
	    (strcspn(rest, "=<>") >= n && (d[0] == 'c' ||
	     lp_words(rest, n) > 1)))
		return 0;
	if (strcmp(d, "claim") == 0) {
		struct lesson_claim c;
		return n > 0 && lesson_claim_parse(&c, rest, n, mo, ml, why,
						   sizeof why, &bad) == 0;
	}
	if (strcmp(d, "predict") == 0) {
		struct lesson_predict pr;
		memset(&pr, 0, sizeof pr);
		return n > 0 && lesson_predict_parse(&pr, rest, n, mo, ml,
						     why, sizeof why, &bad) == 0;
	}
	return 0;
}

/* On a page, refuses a line that starts at column 1 with a near miss of a
 * directive ("shwo": 1 edit, or 2 for show, quiz and predict, whose
 * shapes are the surest) followed by what that directive takes ("weights t=1"):
 * such a line would otherwise be narrative.  Returns 0 when the line is
 * not one, or -1 with the error set. */
static int lp_misspelt(struct lparse *p)
{
	const char *s = p->line;
	size_t n = 0;
	char word[16];
	while (s[n] >= 'a' && s[n] <= 'z')
		n++;
	if (n < 3 || n >= sizeof word)
		return 0;
	memcpy(word, s, n);
	word[n] = '\0';
	const char *d = suggest_closest(word, lp_directives, LP_NDIRECTIVES);
	if (!d || strcmp(d, word) == 0 || suggest_distance(word, d) >
	    (strchr("sqr", d[1]) ? 2u : 1u) || !lp_directive_shape(p, d, n))
		return 0;
	return lp_err(p, 0, "unknown directive '%s'; did you mean '%s%s'? "
		      "(start the line with '\\' if it is narrative)", word,
		      d, strcmp(d, "page") == 0 ? ":" : "");
}

/* --- lines and files ------------------------------------------------- */

static int lp_line(struct lparse *p)
{
	const char *s = p->line;
	size_t b = 0, k;
	if (lp_check(p) != 0)
		return -1;
	while (lp_blank(s[b]))
		b++;
	if (s[b] == '\0') {
		p->open = OPEN_NONE; /* a blank line ends a paragraph */
		return 0;
	}
	if (s[b] == '#')
		return 0;
	p->content = 1;
	if (b > 0 || s[0] == '\\')
		return lp_text(p, b);
	if (strncmp(s, "page:", 5) == 0)
		return lp_page(p);
	if ((strncmp(s, "show", 4) == 0 || strncmp(s, "quiz", 4) == 0) &&
	    (s[4] == '\0' || lp_blank(s[4])))
		return lp_show(p, s[0] == 'q');
	if (strncmp(s, "claim", 5) == 0 && (s[5] == '\0' || lp_blank(s[5])))
		return lp_claim(p);
	if (strncmp(s, "pin", 3) == 0 && (s[3] == '\0' || lp_blank(s[3])))
		return lp_pin(p);
	if (strcmp(s, "fold") == 0)
		return lp_fold(p);
	if (strncmp(s, "predict", 7) == 0 && (s[7] == '\0' || lp_blank(s[7])))
		return lp_predict(p);
	if (strncmp(s, "hint", 4) == 0 && (s[4] == '\0' || lp_blank(s[4])))
		return lp_hint(p);
	if (p->l->npages == 0)
		return lp_header(p);
	if (lp_misspelt(p) != 0)
		return -1;
	k = lp_key_len(s);
	if (k > 0 && lp_key_find(s, k) >= 0)
		return lp_err(p, 0, "expected header keys before the first "
			      "page, found '%.*s' on a page (start the line "
			      "with '\\' if it is narrative)", (int)k + 1, s);
	return lp_text(p, 0);
}

static int lp_finish(struct lparse *p)
{
	if (!p->content)
		return lp_errat(p, 1, 1, "expected a lesson (a 'title:' line, "
				"a 'sentence:' line and pages), found an empty "
				"file");
	if (p->l->npages > 0)
		return lp_page_done(p, "the end of the file");
	if (lp_header_done(p, p->lineno + 1, "the end of the file") != 0)
		return -1;
	return lp_errat(p, p->lineno + 1, 1, "expected at least one 'page:' "
			"line, found the end of the file");
}

int lesson_parse(struct lesson *l, const char *text, size_t len,
		 const char *path, struct errbuf *err)
{
	struct lparse p;
	memset(l, 0, sizeof *l);
	l->path = xstrdup(path);
	l->scorer = SCORER_dot;
	l->scorers = SCORER_ALL;
	l->arch = -1;
	l->input_feeding = -1;
	l->cfg = (struct trace_cfg)TRACE_CFG_DEFAULT;
	if (len > LESSON_MAX_BYTES) {
		err_set(err, _("%s: the lesson is larger than %u bytes"), path,
			LESSON_MAX_BYTES);
		return -1;
	}
	memset(&p, 0, sizeof p);
	p.l = l;
	p.text = text;
	p.len = len;
	p.err = err;
	int rc = 0;
	while (rc == 0 && lp_next(&p))
		rc = lp_line(&p);
	if (rc == 0)
		rc = lp_finish(&p);
	l->own_scorer = l->scorer;
	free(p.line);
	return rc;
}

int lesson_load(struct lesson *l, const char *path, struct errbuf *err)
{
	size_t len;
	char *text = util_read_file(path, LESSON_MAX_BYTES, &len, err);
	if (!text) {
		memset(l, 0, sizeof *l);
		return -1;
	}
	int rc = lesson_parse(l, text, len, path, err);
	free(text);
	return rc;
}

/* Frees the models and traces that lesson_prepare made for model=. */
static void lesson_alts_unload(struct lesson *l)
{
	for (int k = 0; k < l->nalts; k++)
		if (l->alts[k].ready) {
			trace_free(&l->alts[k].tr);
			model_free(&l->alts[k].m);
			l->alts[k].ready = 0;
		}
}

void lesson_free(struct lesson *l)
{
	lesson_image_free(l);
	free(l->image);
	free(l->glimpse);
	free(l->cls);
	lesson_why_free(l);
	free(l->pairs);
	lesson_alts_unload(l);
	lesson_self_free(l);
	for (int k = 0; k < l->nalts; k++)
		free(l->alts[k].name);
	free(l->alts);
	for (int k = 0; k < l->npages; k++) {
		struct lesson_page *pg = &l->pages[k];
		for (int b = 0; b < pg->nblocks; b++)
			free(pg->blocks[b].text);
		free(pg->blocks);
		free(pg->nums);
		free(pg->refs);
		free(pg->claims);
		free(pg->pin);
		if (pg->predict)
			free(pg->predict->hint);
		free(pg->predict);
		free(pg->title);
	}
	free(l->pages);
	free(l->path);
	free(l->next);
	free(l->title);
	free(l->goal);
	free(l->translates);
	free(l->base);
	for (int k = 0; k < KEY_COUNT; k++)
		free(l->head[k]);
	free(l->model);
	free(l->sentence);
	free(l->target);
	memset(l, 0, sizeof *l);
}

/* --- preparing: the model, the trace, the directives against it ------ */

/* The model files a lesson has loaded so far, known by device and inode,
 * and who holds each: -1 the lesson's own model, else an index of alts. */
struct prep_files {
	int n;
	dev_t dev[LESSON_MAX_MODELS];
	ino_t ino[LESSON_MAX_MODELS];
	int who[LESSON_MAX_MODELS];
};

/* The real path of the directory that holds the lesson (a
 * translation's: its original's), newly allocated, or NULL with errno
 * set. */
static char *prep_lesson_dir(const struct lesson *l)
{
	const char *base = l->base ? l->base : l->path;
	const char *slash = strrchr(base, '/');
	char *dir, *real;
	if (!slash)
		return realpath(".", NULL);
	dir = xstrndup(base, slash == base ? 1 : (size_t)(slash - base));
	real = realpath(dir, NULL);
	free(dir);
	return real;
}

/* The real path of the model file name, relative to the lesson's
 * directory (a translation's: its original's, l->base), if it lies in
 * that directory or below it; else NULL with e
 * filled.  The check is made on the path with every symbolic link and
 * ".." resolved, so no spelling leads out of the tree. */
char *lesson_resolve(const struct lesson *l, const char *name, int model,
		     struct errbuf *e)
{
	const char *base = l->base ? l->base : l->path;
	const char *slash = strrchr(base, '/');
	size_t dir = name[0] == '/' || !slash ? 0 :
		     (size_t)(slash - base) + 1;
	char *path = xmalloc(dir + strlen(name) + 1), *real, *top;
	memcpy(path, base, dir);
	strcpy(path + dir, name);
	real = realpath(path, NULL);
	top = real ? prep_lesson_dir(l) : NULL;
	if (!real || !top) {
		err_set(e, "%s: %s", path, strerror(errno));
	} else {
		size_t n = strcmp(top, "/") == 0 ? 0 : strlen(top);
		if (strncmp(real, top, n) != 0 || real[n] != '/') {
			if (model)
				err_set(e, _("expected a built-in model (%s) "
					"or a file in the lesson's directory "
					"or below it, found \"%s\""),
					model_builtin_list(), name);
			else
				err_set(e, _("expected a file in the lesson's "
					"directory or below it, found \"%s\""),
					name);
			free(real);
			real = NULL;
		}
	}
	free(top);
	free(path);
	return real;
}

/* Loads the model file name for who (-1: the lesson's own model, else an
 * index of alts) into *m, unless files already holds that file: then sets
 * *same to its holder and leaves *m empty.  Refuses a file outside the
 * lesson's tree, and more than LESSON_MAX_MODELS files. */
static int prep_file(const struct lesson *l, const char *name, int who,
		     struct prep_files *files, struct model *m, int *same,
		     struct errbuf *e)
{
	struct stat st;
	char *real = lesson_resolve(l, name, 1, e);
	int rc = -1;
	memset(m, 0, sizeof *m);
	if (!real)
		return -1;
	if (stat(real, &st) != 0) {
		err_set(e, "%s: %s", name, strerror(errno));
		goto out;
	}
	for (int k = 0; k < files->n; k++)
		if (files->dev[k] == st.st_dev && files->ino[k] == st.st_ino) {
			*same = files->who[k];
			rc = 0;
			goto out;
		}
	if (files->n == LESSON_MAX_MODELS) {
		err_set(e, _("expected at most %d model files in a lesson, found "
			"another, \"%s\""), LESSON_MAX_MODELS, name);
		goto out;
	}
	files->dev[files->n] = st.st_dev;
	files->ino[files->n] = st.st_ino;
	files->who[files->n++] = who;
	rc = model_load_file_quiet(m, real, e);
out:
	free(real);
	return rc;
}

/* Loads the model called name (NULL: the default), written at pos, for
 * who (as prep_file): a built-in name, or a file of the lesson's tree,
 * relative to the lesson's own directory.  *same is set as prep_file
 * sets it, else left alone. */
static int prep_model(const struct lesson *l, const char *name,
		      struct lesson_pos pos, int who, struct prep_files *files,
		      struct model *m, int *same, struct errbuf *err)
{
	struct errbuf e;
	int rc;
	if (!name || model_builtin_name(name))
		rc = model_load_arg(m, name, &e);
	else
		rc = prep_file(l, name, who, files, m, same, &e);
	if (rc != 0)
		err_set(err, _("%s:%d:%d: cannot load the model: %s"), l->path,
			pos.line, pos.col, e.msg);
	return rc;
}

/* The window alt a is traced through: its window=, else the lesson's. */
static int prep_alt_window(const struct lesson *l, const struct lesson_alt *a)
{
	return a->window >= 0 ? a->window : l->cfg.window;
}

/* Traces the lesson's sentence (and target) with model m through alt
 * a's window into a->tr. */
static int prep_alt_trace(struct lesson *l, struct lesson_alt *a,
			  const struct model *m, struct errbuf *err)
{
	struct trace_cfg cfg = l->cfg;
	struct errbuf e;
	cfg.window = prep_alt_window(l, a);
	const struct window_class *w = window_get(cfg.window);
	if ((w->check && w->check(m, &cfg, &e) != 0) ||
	    tok_trace(&a->tr, m, l->sentence, l->target, l->scorers, &cfg,
		      &e) != 0) {
		err_set(err, _("%s:%d:%d: the model %s cannot trace the "
			"lesson's sentence: %s"), l->path, a->pos.line,
			a->pos.col, a->name, e.msg);
		return -1;
	}
	a->ready = 1;
	return 0;
}

/* Loads each model of a model= directive, and traces the lesson's
 * sentence (and target) with it through its window; a file loaded
 * already, as the lesson's own model (own) or another model=, is shown
 * from there, or traced again when its window differs. */
static int prep_alts(struct lesson *l, const struct model *own,
		     struct prep_files *files, struct errbuf *err)
{
	for (int k = 0; k < l->nalts; k++) {
		struct lesson_alt *a = &l->alts[k];
		int same = -2;
		if (prep_model(l, a->name, a->pos, k, files, &a->m, &same,
			       err) != 0)
			return -1;
		if (same == -2) {
			if (prep_alt_trace(l, a, &a->m, err) != 0) {
				model_free(&a->m);
				return -1;
			}
			continue;
		}
		int held = same < 0 ? l->cfg.window
				    : prep_alt_window(l, &l->alts[same]);
		if (held == prep_alt_window(l, a)) {
			a->same = same < 0 ? -1 : same + 1;
			continue;
		}
		if (prep_alt_trace(l, a, same < 0 ? own : &l->alts[same].m,
				   err) != 0)
			return -1;
	}
	return 0;
}

/* The byte offset in s of its word number k (from 0). */
static size_t prep_word_off(const char *s, int k)
{
	size_t pos = 0, off = 0, n;
	for (int j = 0; j <= k && lp_word(s, &pos, &off, &n); j++)
		;
	return off;
}

/* Turns the sentence s, written at pos, into word indices of v; idx has
 * TRACE_MAX_TOKENS slots.  Returns the count, or -1 with err filled. */
static int prep_words(const struct lesson *l, int *idx, const char *s,
		      struct lesson_pos pos, const struct vocab *v,
		      const char *what, struct errbuf *err)
{
	struct tok_list tl;
	struct errbuf e;
	int n = -1, col = pos.col;
	if (tok_split(&tl, s, TRACE_MAX_TOKENS, what, &e) == 0) {
		if (tok_lookup(idx, &tl, v, what, &e) == 0) {
			n = tl.n;
		} else {
			int k = 0;
			while (k < tl.n && vocab_find(v, tl.words[k]) >= 0)
				k++;
			col += (int)prep_word_off(s, k);
		}
		tok_free(&tl);
	}
	if (n < 0)
		err_set(err, "%s:%d:%d: %s", l->path, pos.line, col, e.msg);
	return n;
}

/* Refuses <s> and </s> in a target: the decoder adds them itself. */
static int prep_target(const struct lesson *l, const struct model *m,
		       const int *tgt, int n, struct errbuf *err)
{
	for (int k = 0; k < n; k++)
		if (tgt[k] == m->bos || tgt[k] == m->eos) {
			err_at(err, l->path, l->target_pos.line,
			       l->target_pos.col +
			       (int)prep_word_off(l->target, k),
			       "expected a target sentence without <s> or "
			       "</s> (the decoder adds them), found \"%s\"",
			       m->tgt.words[tgt[k]]);
			return -1;
		}
	return 0;
}

static int prep_trace(struct lesson *l, const struct model *m,
		      struct trace *tr, struct errbuf *err)
{
	int src[TRACE_MAX_TOKENS], tgt[TRACE_MAX_TOKENS], ntgt = 0;
	struct errbuf e;
	int n = l->image ? 0 : prep_words(l, src, l->sentence,
					  l->sentence_pos, &m->src, "source",
					  err);
	if (n < 0)
		return -1;
	if (l->target) {
		ntgt = prep_words(l, tgt, l->target, l->target_pos, &m->tgt,
				  "target", err);
		if (ntgt < 0 || prep_target(l, m, tgt, ntgt, err) != 0)
			return -1;
	}
	/* what the model lacks for "scorers:" and "window:" is said at
	 * their values; what trace_build() refuses besides, at the sentence */
	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (l->scorers != SCORER_ALL && (l->scorers & (1u << sc)) &&
		    model_check_scorer(m, sc, &e) != 0) {
			err_set(err, "%s:%d:%d: %s", l->path,
				l->scorers_pos.line, l->scorers_pos.col, e.msg);
			return -1;
		}
	const struct window_class *w = window_get(l->cfg.window);
	if (w->check && w->check(m, &l->cfg, &e) != 0) {
		err_set(err, "%s:%d:%d: %s", l->path, l->window_pos.line,
			l->window_pos.col, e.msg);
		return -1;
	}
	if (l->cfg.grad_paths && gradpath_check(m, &l->cfg, ntgt, &e) != 0) {
		err_set(err, "%s:%d:%d: %s", l->path, l->grad_pos.line,
			l->grad_pos.col, e.msg);
		return -1;
	}
	if (l->image) /* the caption of an image */
		return lesson_image_trace(l, m, ntgt ? tgt : NULL, ntgt, tr,
					  err);
	if (trace_build(tr, m, src, n, ntgt ? tgt : NULL, ntgt, l->scorers,
			&l->cfg, &e) != 0) {
		err_set(err, "%s:%d:%d: %s", l->path, l->sentence_pos.line,
			l->sentence_pos.col, e.msg);
		return -1;
	}
	return 0;
}

int lesson_show_run(const struct lesson *l, const struct lesson_show *sh,
		    const struct trace *tr)
{
	return trace_run_of(tr, sh->scorer >= 0 ? sh->scorer : l->scorer);
}

const struct trace *lesson_show_trace(const struct lesson *l,
				      const struct lesson_show *sh,
				      const struct trace *tr)
{
	const struct lesson_alt *a;
	if (sh->alt <= 0 || sh->alt > l->nalts)
		return tr;
	a = &l->alts[sh->alt - 1];
	if (a->same < 0)
		return tr;
	if (a->same > 0)
		a = &l->alts[a->same - 1];
	return a->ready ? &a->tr : tr;
}

/* Checks that the step and the word of directive sh are in the trace. */
static int prep_show(const struct lesson *l, const struct lesson_show *sh,
		     const struct trace *tr, struct errbuf *err)
{
	int run = lesson_show_run(l, sh, tr);
	if (run < 0) {
		int sc = sh->scorer >= 0 ? sh->scorer : l->scorer;
		const char *why = (l->scorers & (1u << sc))
			? "its model has no weights for"
			: "the lesson's scorers: leave out";
		if (sh->scorer < 0 && l->scorer_pos.line > 0)
			/* the directive names none: "scorer:" chose it */
			err_at(err, l->path, l->scorer_pos.line,
			       l->scorer_pos.col,
			       "expected a scorer of the lesson's trace (the "
			       "directive on line %d uses it), found %s, "
			       "which %s", sh->line, trace_scorer_name(sc),
			       why);
		else
			err_at(err, l->path, sh->line, 1,
			       "expected a scorer of the lesson's trace, "
			       "found %s, which %s", trace_scorer_name(sc),
			       why);
		return -1;
	}
	int steps = tr->runs[run].nsteps;
	const char *whose = trace_scorer_name(tr->runs[run].scorer);
	if (sh->what == SHOW_COMPARE) {
		for (int k = 0; k < tr->nruns; k++)
			if (tr->runs[k].nsteps > steps) {
				steps = tr->runs[k].nsteps;
				whose = trace_scorer_name(tr->runs[k].scorer);
			}
	}
	if (sh->t > steps) {
		err_at(err, l->path, sh->line, sh->col_t,
		       "expected t= from 1 to %d (the %s scorer decodes "
		       "\"%s\" in %d steps), found 't=%d'", steps, whose,
		       l->sentence, steps, sh->t);
		return -1;
	}
	if (sh->i > tr->n) {
		err_at(err, l->path, sh->line, sh->col_i,
		       "expected i= from 1 to %d (\"%s\" has %d words), "
		       "found 'i=%d'", tr->n, l->sentence, tr->n, sh->i);
		return -1;
	}
	if (sh->k > tr->m->H) {
		err_at(err, l->path, sh->line, sh->col_k,
		       "expected k= from 1 to %d (c_t has %d coordinates), "
		       "found 'k=%d'", tr->m->H, tr->m->H, sh->k);
		return -1;
	}
	return 0;
}

/* Checks every directive against the trace it shows. */
static int prep_shows(const struct lesson *l, const struct trace *tr,
		      struct errbuf *err)
{
	for (int p = 0; p < l->npages; p++)
		for (int b = 0; b < l->pages[p].nblocks; b++) {
			const struct lesson_block *bl = &l->pages[p].blocks[b];
			if (!bl->text && bl->show.what != SHOW_SELF &&
			    bl->show.what != SHOW_GLIMPSE &&
			    !bl->show.glimpse_quiz && /* lesson_image.c's */
			    prep_show(l, &bl->show, lesson_show_trace(l,
				      &bl->show, tr), err) != 0)
				return -1;
		}
	return 0;
}

int lesson_prepare(struct lesson *l, struct model *m, struct trace *tr,
		   struct errbuf *err)
{
	struct prep_files files = { 0 };
	int same = -2;
	memset(tr, 0, sizeof *tr);
	/* without "model:", "arch: NAME" means that architecture's built-in
	 * model (bahdanau4) */
	const char *model = l->model;
	if (!model && l->image) /* an image's caption: caption4 */
		model = "caption4";
	const struct arch_class *ac = l->arch >= 0 ? arch_get(l->arch) : NULL;
	if (!model && ac && l->arch != ARCH_DEFAULT)
		model = ac->model;
	if (l->input_feeding == 1 && ac && !ac->feed_model) {
		err_set(err, _("%s:%d:%d: expected no input feeding with 'arch: "
			"%s', found 'input-feeding: yes'; %s decoder %s, and "
			"input feeding is %s"), l->path, l->feed_pos.line,
			l->feed_pos.col, ac->name, _(ac->owner), _(ac->no_feed),
			_(arch_feed_owner()));
		return -1;
	}
	const struct window_class *w = window_get(l->cfg.window);
	if (l->cfg.window_size < w->min_size) {
		err_at(err, l->path, l->window_size_pos.line,
		       l->window_size_pos.col,
		       "expected a window size of at least %d with 'window: "
		       "%s' (%s), found %d", w->min_size, w->name,
		       w->min_size_why, l->cfg.window_size);
		return -1;
	}
	/* and "input-feeding: yes" the built-in feed4 */
	if (!model && l->input_feeding == 1)
		model = arch_get(ARCH_DEFAULT)->feed_model;
	if (prep_model(l, model, l->model_pos, -1, &files, m, &same,
		       err) != 0)
		return -1;
	if (l->arch >= 0 && m->arch != l->arch) {
		err_at(err, l->path, l->arch_pos.line, l->arch_pos.col,
		       "expected a model of the %s architecture, as 'arch:' "
		       "says, found one of the %s architecture",
		       arch_get(l->arch)->name, arch_get(m->arch)->name);
		model_free(m);
		return -1;
	}
	if (l->input_feeding >= 0 && m->input_feeding != l->input_feeding) {
		/* why not: its decoder reads the context already, or its
		 * variant with input feeding is another built-in model */
		const struct arch_class *c = arch_get(m->arch);
		char why[160] = "";
		if (!m->input_feeding && c->feed_model)
			snprintf(why, sizeof why, _(" (%s is built in with "
				 "it)"), c->feed_model);
		else if (!m->input_feeding)
			snprintf(why, sizeof why, _(" (%s decoder %s)"),
				 _(c->owner), _(c->no_feed));
		err_set(err, l->input_feeding ? _("%s:%d:%d: expected a model "
			"with input feeding, as 'input-feeding: yes' says, "
			"found %s, which has none%s") : _("%s:%d:%d: expected "
			"a model without input feeding, as 'input-feeding: no' "
			"says, found %s, which has it%s"),
			l->path, l->feed_pos.line, l->feed_pos.col,
			model ? model : arch_get(ARCH_DEFAULT)->model, why);
		model_free(m);
		return -1;
	}
	if (prep_trace(l, m, tr, err) != 0) {
		model_free(m);
		return -1;
	}
	if (prep_alts(l, m, &files, err) != 0 ||
	    prep_shows(l, tr, err) != 0 ||
	    lesson_why_prepare(l, m, err) != 0 ||
	    lesson_image_prepare(l, err) != 0 ||
	    lesson_refs_prepare(l, tr, err) != 0 ||
	    lesson_self_prepare(l, m, err) != 0) {
		lesson_self_free(l);
		lesson_image_free(l);
		lesson_why_free(l);
		lesson_alts_unload(l);
		trace_free(tr);
		model_free(m);
		return -1;
	}
	return 0;
}
