/* pgm.c: the reader of plain (P2) and binary (P5) PGM images; the
 * grammar and the choices are in pgm.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "pgm.h"

/* A number larger than any the header or a pixel may hold, where the
 * digits of a long token stop counting. */
#define PGM_BIG 100000000L

/* The state of one parse: the bytes, where we are, and where errors go. */
struct pgm_parser {
	const unsigned char *b; /* (len) the file */
	size_t len;
	size_t pos;             /* the next byte */
	const char *name;       /* the file's name, for messages */
	struct errbuf *err;
};

const char *pgm_kind_name(enum pgm_kind kind)
{
	switch (kind) {
	case PGM_PLAIN: return "P2";
	case PGM_RAW: return "P5";
	}
	return "?";
}

static int pgm_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int pgm_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The line and column (both from 1, columns in bytes) of byte pos: a line
 * ends at LF, CR LF or a lone CR. */
static void pgm_line_col(const struct pgm_parser *p, size_t pos, int *line,
			 size_t *col)
{
	size_t start = 0;
	*line = 1;
	for (size_t i = 0; i < pos && i < p->len; i++) {
		int end = p->b[i] == '\n' ||
			  (p->b[i] == '\r' &&
			   (i + 1 >= p->len || p->b[i + 1] != '\n'));
		if (end) {
			(*line)++;
			start = i + 1;
		}
	}
	*col = pos - start + 1;
}

/* What stands at byte pos, for "found ...": the end of the file, a
 * printable character in quotes, a named blank, or the byte in hex; a
 * run of digits is given whole (cut after 20 of them). */
static void pgm_found(const struct pgm_parser *p, size_t pos, char *out,
		      size_t n)
{
	if (pos >= p->len) {
		snprintf(out, n, "%s", _("the end of the file"));
		return;
	}
	int c = p->b[pos];
	size_t k = 0;
	while (pos + k < p->len && pgm_is_digit(p->b[pos + k]))
		k++;
	if (k > 0)
		snprintf(out, n, "%.*s%s", (int)(k > 20 ? 20 : k),
			 (const char *)p->b + pos, k > 20 ? "..." : "");
	else if (c == '\n' || c == '\r')
		snprintf(out, n, "%s", _("the end of the line"));
	else if (c == ' ')
		snprintf(out, n, "%s", _("a blank"));
	else if (c == '\t')
		snprintf(out, n, "%s", _("a tab"));
	else if (c > ' ' && c < 0x7f)
		snprintf(out, n, "'%c'", c);
	else
		snprintf(out, n, _("the byte 0x%02X"), (unsigned)c);
}

/* "NAME:LINE:COL: MSG, found WHAT-IS-AT-pos": returns -1. */
static int pgm_err_at(const struct pgm_parser *p, size_t pos,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int pgm_err_at(const struct pgm_parser *p, size_t pos,
		      const char *fmt, ...)
{
	char msg[400], found[64];
	int line;
	size_t col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pgm_line_col(p, pos, &line, &col);
	pgm_found(p, pos, found, sizeof found);
	/* TRANSLATORS: file:line:column: what was expected, found what */
	err_set(p->err, _("%s:%d:%zu: %s, found %s"), p->name, line, col,
		msg, found);
	return -1;
}

/* Skips whitespace and comments ('#' through the next CR or LF). */
static void pgm_skip(struct pgm_parser *p)
{
	while (p->pos < p->len) {
		int c = p->b[p->pos];
		if (pgm_is_space(c)) {
			p->pos++;
		} else if (c == '#') {
			while (p->pos < p->len && p->b[p->pos] != '\n' &&
			       p->b[p->pos] != '\r')
				p->pos++;
		} else {
			return;
		}
	}
}

/* Whether a token may end at pos: whitespace, a comment or the end. */
static int pgm_token_ends(const struct pgm_parser *p, size_t pos)
{
	return pos >= p->len || pgm_is_space(p->b[pos]) || p->b[pos] == '#';
}

/* Reads the decimal number at p->pos into *v (past PGM_BIG it stays
 * PGM_BIG) and moves past it.  Returns 0, or -1 when no digit is there
 * (nothing moves). */
static int pgm_digits(struct pgm_parser *p, long *v)
{
	if (p->pos >= p->len || !pgm_is_digit(p->b[p->pos]))
		return -1;
	*v = 0;
	while (p->pos < p->len && pgm_is_digit(p->b[p->pos])) {
		*v = *v * 10 + (p->b[p->pos++] - '0');
		if (*v > PGM_BIG)
			*v = PGM_BIG;
	}
	return 0;
}

/* One number of the header after whitespace: what names it ("the
 * width"), [lo, hi] its range, note what to add when it is too large. */
static int pgm_header_number(struct pgm_parser *p, const char *what,
			     long lo, long hi, const char *note, int *out)
{
	long v;
	pgm_skip(p);
	size_t start = p->pos;
	if (pgm_digits(p, &v) != 0)
		return pgm_err_at(p, start, _("expected %s, a whole number "
				  "from %ld to %ld"), _(what), lo, hi);
	if (v < lo || v > hi)
		return pgm_err_at(p, start, _("expected %s from %ld to %ld%s"),
				  _(what), lo, hi, v > hi ? _(note) : "");
	if (!pgm_token_ends(p, p->pos))
		return pgm_err_at(p, p->pos, _("expected whitespace after %s"),
				  _(what));
	*out = (int)v;
	return 0;
}

/* What a magic number other than P2 and P5 is, or NULL. */
static const char *pgm_other_format(int c)
{
	switch (c) {
	case '1': case '4': return _("a PBM bitmap");
	case '3': case '6': return _("a PPM colour image");
	case '7': return _("a PAM image");
	case 'F': case 'f': return _("a PFM floating-point image");
	default: return NULL;
	}
}

/* The magic number "P2" or "P5" and the whitespace after it. */
static int pgm_magic(struct pgm_parser *p, struct pgm_image *im)
{
	const char *want = _("expected P2 or P5, the magic number "
			     "of a grayscale PGM image");
	if (p->len < 1 || p->b[0] != 'P')
		return pgm_err_at(p, 0, "%s", want);
	int c = p->len > 1 ? p->b[1] : 0;
	const char *other = pgm_other_format(c);
	if (other) {
		err_set(p->err, _("%s:1:1: %s, found P%c (%s)"), p->name, want,
			c, other);
		return -1;
	}
	if (c >= '0' && c <= '9' && c != '2' && c != '5') {
		err_set(p->err, _("%s:1:2: %s: 2 or 5 after the P, found '%c'"),
			p->name, want, c);
		return -1;
	}
	if (c != '2' && c != '5')
		return pgm_err_at(p, 1, _("%s: 2 or 5 after the P"), want);
	im->kind = c == '2' ? PGM_PLAIN : PGM_RAW;
	p->pos = 2;
	if (p->len > 2 && pgm_is_digit(p->b[2])) { /* "P26": a character */
		err_set(p->err, _("%s:1:3: expected whitespace after the magic "
			"number P%c, found '%c'"), p->name, c, p->b[2]);
		return -1;
	}
	if (!pgm_token_ends(p, 2) || p->len == 2)
		return pgm_err_at(p, 2, _("expected whitespace after the magic "
				  "number P%c"), c);
	return 0;
}

/* The header: magic number, width, height and maxval. */
static int pgm_header(struct pgm_parser *p, struct pgm_image *im)
{
	static const char big[] = N_(" (attn-trace reads images of at most "
				     "32×32 pixels)");
	if (pgm_magic(p, im) != 0 ||
	    pgm_header_number(p, N_("the width"), 1, PGM_MAX_SIDE, big,
			      &im->width) != 0 ||
	    pgm_header_number(p, N_("the height"), 1, PGM_MAX_SIDE, big,
			      &im->height) != 0 ||
	    pgm_header_number(p, N_("the maxval"), 1, PGM_MAX_MAXVAL,
			      N_(" (the largest the format allows)"),
			      &im->maxval) != 0)
		return -1;
	return 0;
}

/* Pixel k's place in words, for messages: "pixel K of N (row R, column
 * C)", all from 1. */
static void pgm_pixel_name(const struct pgm_image *im, int k, char *out,
			   size_t n)
{
	snprintf(out, n, _("pixel %d of %d (row %d, column %d)"), k + 1,
		 im->width * im->height, k / im->width + 1,
		 k % im->width + 1);
}

/* Sets pixel k to v (0 .. maxval). */
static void pgm_set(struct pgm_image *im, int k, long v)
{
	im->raw[k] = (unsigned short)v;
	im->pix[k] = (double)v / (double)im->maxval;
}

/* A P2 file's values, after the maxval, and nothing after them but
 * whitespace and comments. */
static int pgm_plain_body(struct pgm_parser *p, struct pgm_image *im)
{
	int npix = im->width * im->height;
	char where[80];
	for (int k = 0; k < npix; k++) {
		long v;
		pgm_skip(p);
		size_t start = p->pos;
		pgm_pixel_name(im, k, where, sizeof where);
		if (pgm_digits(p, &v) != 0)
			return pgm_err_at(p, start, _("expected %s, a whole "
					  "number from 0 to %d"), where,
					  im->maxval);
		if (v > im->maxval)
			return pgm_err_at(p, start, _("expected a value from 0 "
					  "to the maxval %d for %s"),
					  im->maxval, where);
		if (!pgm_token_ends(p, p->pos))
			return pgm_err_at(p, p->pos, _("expected whitespace "
					  "after the value of %s"), where);
		pgm_set(im, k, v);
	}
	pgm_skip(p);
	if (p->pos < p->len)
		return pgm_err_at(p, p->pos, ngettext("expected the end of "
				  "the file after the %d pixel (one image a file)",
				  "expected the end of the file after the %d "
				  "pixels (one image a file)", npix), npix);
	return 0;
}

/* The comments and the one whitespace character between a P5 file's
 * maxval and its pixels. */
static int pgm_raw_gap(struct pgm_parser *p, const struct pgm_image *im)
{
	while (p->pos < p->len && p->b[p->pos] == '#') {
		while (p->pos < p->len && p->b[p->pos] != '\n' &&
		       p->b[p->pos] != '\r')
			p->pos++;
		if (p->pos < p->len)
			p->pos++; /* a comment here takes its end of line */
	}
	if (p->pos >= p->len || !pgm_is_space(p->b[p->pos]))
		return pgm_err_at(p, p->pos, ngettext("expected one "
				  "whitespace character after the maxval, then "
				  "the %d pixel", "expected one whitespace "
				  "character after the maxval, then the %d "
				  "pixels", im->width * im->height),
				  im->width * im->height);
	p->pos++;
	return 0;
}

/* A P5 file's binary pixels: one byte each, or two (the most significant
 * first) when maxval is 256 or more; nothing after them. */
static int pgm_raw_body(struct pgm_parser *p, struct pgm_image *im)
{
	int npix = im->width * im->height;
	size_t size = im->maxval > 255 ? 2 : 1;
	char where[80];
	if (pgm_raw_gap(p, im) != 0)
		return -1;
	for (int k = 0; k < npix; k++) {
		size_t at = p->pos + (size_t)k * size;
		pgm_pixel_name(im, k, where, sizeof where);
		if (at + size > p->len) {
			err_set(p->err, _("%s: byte %zu: expected %s, found "
				"the end of the file"), p->name, p->len + 1, where);
			return -1;
		}
		long v = size == 1 ? p->b[at] : p->b[at] * 256L + p->b[at + 1];
		if (v > im->maxval) {
			err_set(p->err, _("%s: byte %zu: expected a value "
				"from 0 to the maxval %d for %s, found %ld"),
				p->name,
				at + 1, im->maxval, where, v);
			return -1;
		}
		pgm_set(im, k, v);
	}
	size_t end = p->pos + (size_t)npix * size;
	if (end < p->len) {
		char more[64];
		snprintf(more, sizeof more, ngettext("%zu more byte",
			 "%zu more bytes", p->len - end), p->len - end);
		/* TRANSLATORS: the last %s is "N more bytes" */
		err_set(p->err, ngettext("%s: byte %zu: expected the end of "
			"the file after the %d pixel (one image a file), "
			"found %s", "%s: byte %zu: expected the end of the "
			"file after the %d pixels (one image a file), found "
			"%s", npix), p->name, end + 1, npix, more);
		return -1;
	}
	return 0;
}

int pgm_parse(struct pgm_image *im, const unsigned char *buf, size_t len,
	      const char *name, struct errbuf *err)
{
	struct pgm_parser p = { buf, len, 0, name, err };
	memset(im, 0, sizeof *im);
	int rc = pgm_header(&p, im);
	if (rc == 0)
		rc = im->kind == PGM_PLAIN ? pgm_plain_body(&p, im)
					   : pgm_raw_body(&p, im);
	if (rc != 0)
		memset(im, 0, sizeof *im);
	return rc;
}

int pgm_load(struct pgm_image *im, const char *path, struct errbuf *err)
{
	size_t len;
	char *buf = util_read_file(path, PGM_MAX_BYTES, &len, err);
	memset(im, 0, sizeof *im);
	if (buf == NULL)
		return -1;
	int rc = pgm_parse(im, (const unsigned char *)buf, len,
			   strcmp(path, "-") == 0 ? "standard input" : path,
			   err);
	free(buf);
	return rc;
}
