/* pairs.c: the one grammar and the one reader of "source ||| target"
 * lines, for train --pairs and trace --batch (pairs.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "pairs.h"
#include "utf8.h"

#define PAIRS_SEP "|||"
#define PAIRS_BOM "\xEF\xBB\xBF"

/* Sets *col to off + 1 and err to the message, fmt in the user's language
 * (po/Makevars marks it); returns -1. */
static int pairs_err(size_t *col, size_t off, struct errbuf *err,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int pairs_err(size_t *col, size_t off, struct errbuf *err,
		     const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, _(fmt), ap);
	va_end(ap);
	*col = off + 1;
	err_set(err, "%s", what);
	return -1;
}

void pairs_long_error(size_t *col, struct errbuf *err)
{
	pairs_err(col, PAIRS_MAX_LINE, err, "expected a line of at most %d "
		  "bytes, found a longer one", PAIRS_MAX_LINE);
}

/* Checks s[0..n) for valid UTF-8, NUL bytes, control characters other
 * than tab (C0, DEL and the C1 controls U+0080 .. U+009F) and the
 * bidirectional controls (utf8_bidi_len()). */
static int pairs_check_text(const char *s, size_t n, size_t *col,
			    struct errbuf *err)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, ok;

	while (i < n) {
		ok = i + utf8_valid_prefix(s + i, n - i);
		for (; i < ok; i++) {
			unsigned long c = u[i];
			size_t at = i;
			/* the C1 controls are 0xC2 0x80..0x9F; any other
			 * byte from 0x80 up is part of a character */
			if (utf8_bidi_len(s + i, ok - i))
				return pairs_err(col, at, err, "expected text, "
						 "found the bidirectional "
						 "control U+%04lX",
						 utf8_bidi_code(s + i));
			if (c == 0xC2 && i + 1 < ok && u[i + 1] < 0xA0)
				c = u[++i];
			else if (c >= 0x80)
				continue;
			if (c == 0)
				return pairs_err(col, at, err, "expected text, "
						 "found a NUL byte");
			if ((c < 0x20 && c != '\t') || c == 0x7F ||
			    (c >= 0x80 && c < 0xA0))
				return pairs_err(col, at, err, "expected text, "
						 "found the control character "
						 "U+%04lX", c);
		}
		if (i < n)
			return pairs_err(col, i, err, "expected UTF-8 text, "
					 "found the byte 0x%02X", u[i]);
	}
	return 0;
}

static int pairs_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The offset of the first "|||" in s[from..n), or n. */
static size_t pairs_find_sep(const char *s, size_t from, size_t n)
{
	for (size_t i = from; i + 3 <= n; i++)
		if (memcmp(s + i, PAIRS_SEP, 3) == 0)
			return i;
	return n;
}

/* Trims the blanks around s[*from..*to). */
static void pairs_trim(const char *s, size_t *from, size_t *to)
{
	while (*from < *to && pairs_blank(s[*from]))
		++*from;
	while (*to > *from && pairs_blank(s[*to - 1]))
		--*to;
}

/* The number of blank-separated words in s[from..to). */
static int pairs_count_words(const char *s, size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++)
		if (!pairs_blank(s[i]) && (i == from || pairs_blank(s[i - 1])))
			n++;
	return n;
}

/* Reads a position, 1 to max, of the link at s[*i..to), which starts
 * with a digit; leaves *i after it.  Returns it, or 0 if it is out of
 * range. */
static int pairs_position(const char *s, size_t *i, size_t to, int max)
{
	long v = 0;

	for (; *i < to && s[*i] >= '0' && s[*i] <= '9'; ++*i)
		if (v <= max)
			v = 10 * v + (s[*i] - '0');
	return v >= 1 && v <= max ? (int)v : 0;
}

/* Reads the one link at s[from..to), a word of the alignment, into *l
 * (from 0), for sides of nsrc and ntgt words.  Returns 0, or -1 with the
 * error at its column. */
static int pairs_link(const char *s, size_t from, size_t to, int nsrc,
		      int ntgt, struct pairs_link *l, size_t *col,
		      struct errbuf *err)
{
	size_t i = from, dash;
	int len = (int)(to - from > 64 ? 64 : to - from);

	if (to - from > 1 && strspn(s + from, "0123456789") > 0 &&
	    (dash = from + strspn(s + from, "0123456789")) < to &&
	    s[dash] == '-' && dash + 1 < to &&
	    strspn(s + dash + 1, "0123456789") == to - dash - 1) {
		l->src = pairs_position(s, &i, dash, nsrc) - 1;
		if (l->src < 0)
			return pairs_err(col, from, err, "expected a source "
					 "position from 1 to %d, found "
					 "\"%.*s\"", nsrc, (int)(dash - from),
					 s + from);
		i = dash + 1;
		l->tgt = pairs_position(s, &i, to, ntgt) - 1;
		if (l->tgt < 0)
			return pairs_err(col, dash + 1, err, "expected a target "
					 "position from 1 to %d, found "
					 "\"%.*s\"", ntgt, (int)(to - dash - 1),
					 s + dash + 1);
		return 0;
	}
	return pairs_err(col, from, err, "expected an alignment link "
			 "\"SOURCE-TARGET\" such as 1-1, found \"%.*s\"", len,
			 s + from);
}

/* Reads the links of the alignment s[from..to) between sides of nsrc and
 * ntgt words into links (room for max; NULL: check only).  Returns their
 * number, or -1 with the error at its column. */
static int pairs_links(const char *s, size_t from, size_t to, int nsrc,
		       int ntgt, struct pairs_link *links, int max,
		       size_t *col, struct errbuf *err)
{
	static const int room = PAIRS_MAX_WORDS * PAIRS_MAX_WORDS;
	unsigned char seen[PAIRS_MAX_WORDS * PAIRS_MAX_WORDS];
	struct pairs_link l;
	size_t i = from, start;
	int n = 0;

	memset(seen, 0, sizeof seen);
	while (i < to) {
		for (; i < to && pairs_blank(s[i]); i++)
			;
		if (i >= to)
			break;
		for (start = i; i < to && !pairs_blank(s[i]); i++)
			;
		if (pairs_link(s, start, i, nsrc, ntgt, &l, col, err) != 0)
			return -1;
		if (l.src >= PAIRS_MAX_WORDS || l.tgt >= PAIRS_MAX_WORDS ||
		    seen[l.src * PAIRS_MAX_WORDS + l.tgt]++)
			return pairs_err(col, start, err, "expected each link "
					 "once, found %d-%d again", l.src + 1,
					 l.tgt + 1);
		if (links && n < max && n < room)
			links[n] = l;
		n++;
	}
	return n;
}

/* Cuts s[c..n), after the target's "|||", into the target words and the
 * alignment after a second "|||", which it checks against the sides. */
static int pairs_target(const char *s, size_t c, size_t n,
			struct pairs_line *out, size_t *col,
			struct errbuf *err)
{
	size_t sep = pairs_find_sep(s, c, n), d = sep, a = sep + 3, b = n;
	int nsrc, ntgt;

	pairs_trim(s, &c, &d);
	if (c == d)
		return pairs_err(col, sep, err, "expected target words after "
				 "\"%s\", found %s", PAIRS_SEP, sep == n ?
				 _("end of line") : "\"" PAIRS_SEP "\"");
	out->has_target = 1;
	out->tgt = c;
	out->ntgt = d - c;
	if (sep == n)
		return 1;
	if (pairs_find_sep(s, a, n) < n)
		return pairs_err(col, pairs_find_sep(s, a, n), err, "expected "
				 "alignment links, found a third \"%s\"",
				 PAIRS_SEP);
	pairs_trim(s, &a, &b);
	if (a == b)
		return pairs_err(col, n, err, "expected alignment links such "
				 "as 1-1 after the second \"%s\", found end of "
				 "line", PAIRS_SEP);
	out->has_align = 1;
	out->aln = a;
	out->naln = b - a;
	nsrc = pairs_count_words(s, out->src, out->src + out->nsrc);
	ntgt = pairs_count_words(s, out->tgt, out->tgt + out->ntgt);
	/* a side of more words is refused by its reader */
	nsrc = nsrc < PAIRS_MAX_WORDS ? nsrc : PAIRS_MAX_WORDS;
	ntgt = ntgt < PAIRS_MAX_WORDS ? ntgt : PAIRS_MAX_WORDS;
	return pairs_links(s, a, b, nsrc, ntgt, NULL, 0, col, err) < 0 ? -1 : 1;
}

/* Cuts s[start..n), which is not blank, into its sides at the "|||". */
static int pairs_sides(const char *s, size_t start, size_t n, int need_target,
		       struct pairs_line *out, size_t *col, struct errbuf *err)
{
	size_t sep = pairs_find_sep(s, start, n), a = start, b = sep;

	memset(out, 0, sizeof *out);
	if (sep == n && need_target)
		return pairs_err(col, n, err, "expected \"%s\" between the "
				 "source and the target words, found end of "
				 "line", PAIRS_SEP);
	pairs_trim(s, &a, &b);
	if (a == b)
		return pairs_err(col, sep, err, "expected source words before "
				 "\"%s\", found none", PAIRS_SEP);
	out->src = a;
	out->nsrc = b - a;
	if (sep == n)
		return 1;
	return pairs_target(s, sep + 3, n, out, col, err);
}

int pairs_align(const char *line, const struct pairs_line *pl,
		struct pairs_link *links, int max)
{
	struct errbuf err;
	size_t col;

	return pairs_links(line, pl->aln, pl->aln + pl->naln,
			   pairs_count_words(line, pl->src, pl->src + pl->nsrc),
			   pairs_count_words(line, pl->tgt, pl->tgt + pl->ntgt),
			   links, max, &col, &err);
}

int pairs_split(const char *line, size_t len, int lineno, int need_target,
		struct pairs_line *out, size_t *col, struct errbuf *err)
{
	size_t start = 0, n;
	const char *hash;

	if (len > PAIRS_MAX_LINE) {
		pairs_long_error(col, err);
		return -1;
	}
	if (len > 0 && line[len - 1] == '\r')
		len--; /* CRLF */
	if (lineno == 1 && len >= 3 && memcmp(line, PAIRS_BOM, 3) == 0)
		start = 3;
	if (pairs_check_text(line + start, len - start, col, err) != 0) {
		*col += start;
		return -1;
	}
	hash = memchr(line + start, '#', len - start);
	n = hash ? (size_t)(hash - line) : len;
	while (n > start && pairs_blank(line[n - 1]))
		n--;
	while (start < n && pairs_blank(line[start]))
		start++;
	if (start == n)
		return 0;
	return pairs_sides(line, start, n, need_target, out, col, err);
}

enum pairs_read pairs_getline(FILE *in, char *buf, size_t *len)
{
	switch (util_read_line(in, buf, PAIRS_MAX_LINE, len)) {
	case UTIL_LINE: return PAIRS_LINE;
	case UTIL_LONG: return PAIRS_LONG;
	case UTIL_END: return PAIRS_END;
	case UTIL_ERROR: break;
	}
	return PAIRS_ERROR;
}
