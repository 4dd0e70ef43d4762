/* model.c: reading the attention model from its text format.
 *
 * The parser walks the text line by line.  Every line is checked for valid
 * UTF-8 and control characters first, then stripped of its comment and cut
 * into blank-separated fields.  Each error names the line and the byte
 * column of the offending field. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "glimpse.h"
#include "i18n.h"
#include "model.h"
#include "suggest.h"
#include "num.h"
#include "scorer.h"
#include "utf8.h"
#include "util.h"

/* A field of the current line: bytes line[off .. off+n). */
struct mfield {
	size_t off;
	size_t n;
};

/* The state of one parse. */
struct mparse {
	const char *text;  /* (len + 1) NUL-terminated copy of the input */
	size_t len;
	size_t pos;        /* where the next line starts */
	int lineno;        /* number of the current line, from 1 */
	const char *line;  /* the current line, without its newline */
	size_t n;          /* its length up to any comment */
	int pushed;        /* the current line is to be read again */
	int sec_line;      /* line and column of the last section header */
	size_t sec_col;
	int seen[MODEL_MAX_PARAMS]; /* the line of each section read, or 0 */
	const char *name;  /* for messages */
	int quiet;         /* messages name the place, never the content */
	struct errbuf *err;
	const char *why;   /* NULL, or why a row of the section being read
	                      has the width it has, told after a wrong count
	                      of numbers ("; with input feeding ...") */
};

/* Fills err with "NAME:LINE:COL: " and the formatted text, fmt in the
 * user's language (po/Makevars marks it); returns -1. */
static int mp_errat(struct mparse *p, int line, size_t col, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static int mp_errat(struct mparse *p, int line, size_t col, const char *fmt,
		    ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, _(fmt), ap);
	va_end(ap);
	if (p->quiet)
		snprintf(what, sizeof what, "%s", _("expected a model file "
			 "(doc/model-format.md), found something else; "
			 "'attn-trace model --model=FILE' says what"));
	err_set(p->err, "%s:%d:%zu: %s", p->name, line, col, what);
	return -1;
}

/* The error's position is byte offset off of the current line. */
#define mp_err(p, off, ...) mp_errat((p), (p)->lineno, (off) + 1, __VA_ARGS__)
/* The error's position is the start of the line after the last line. */
#define mp_err_eof(p, ...) mp_errat((p), (p)->lineno + 1, 1, __VA_ARGS__)

/* Writes field f into buf, in double quotes if quotes is set, shortened to
 * about 40 bytes. */
static const char *mp_show(const struct mparse *p, const struct mfield *f,
			   char *buf, size_t size, int quotes)
{
	const char *s = p->line + f->off;
	size_t n = f->n;
	int cut = 0;

	if (n > 40) {
		n = 40;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--; /* do not split a character */
		cut = 1;
	}
	snprintf(buf, size, "%s%.*s%s%s", quotes ? "\"" : "", (int)n, s,
		 cut ? "..." : "", quotes ? "\"" : "");
	return buf;
}

#define mp_quote(p, f, buf, size) mp_show((p), (f), (buf), (size), 1)

/* Checks that the line holds valid UTF-8 without NUL bytes, control
 * characters other than tab, or bidirectional controls (utf8_bidi_len()),
 * which would let a word show as another.  Returns 0 or -1 with err filled. */
static int mp_check_line(struct mparse *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p->line;
	size_t i = 0, ok;
	unsigned long cp;

	while (i < n) {
		ok = utf8_valid_prefix(p->line + i, n - i);
		for (; ok > 0; ok--, i++) {
			cp = s[i];
			if ((cp & 0xC0) == 0x80)
				continue; /* inside a character */
			if (utf8_bidi_len(p->line + i, ok))
				return mp_err(p, i, "expected text, found the "
					      "bidirectional control U+%04lX",
					      utf8_bidi_code(p->line + i));
			if (cp == 0xC2 && s[i + 1] < 0xA0)
				cp = s[i + 1]; /* U+0080 .. U+009F */
			if (cp == 0)
				return mp_err(p, i,
					      "expected text, found a NUL byte");
			if ((cp < 0x20 && cp != '\t') || cp == 0x7F ||
			    (cp >= 0x80 && cp < 0xA0))
				return mp_err(p, i, "expected text, found the "
					      "control character U+%04lX", cp);
		}
		if (i < n)
			return mp_err(p, i, "expected UTF-8 text, found the "
				      "byte 0x%02X", s[i]);
	}
	return 0;
}

/* Reads the next line of the text.  Returns 1, 0 at the end of the text, or
 * -1 with err filled. */
static int mp_raw_line(struct mparse *p)
{
	const char *start, *nl;
	size_t n;
	char *hash;

	if (p->pos >= p->len)
		return 0;
	start = p->text + p->pos;
	nl = memchr(start, '\n', p->len - p->pos);
	n = nl ? (size_t)(nl - start) : p->len - p->pos;
	p->pos += n + (nl != NULL);
	p->lineno++;
	p->line = start;
	if (n > 0 && start[n - 1] == '\r')
		n--; /* CRLF line ending */
	if (mp_check_line(p, n) != 0)
		return -1;
	hash = memchr(start, '#', n);
	p->n = hash ? (size_t)(hash - start) : n;
	return 1;
}

/* Finds the field that starts at or after *cur in the current line.
 * Returns 1 and advances *cur past it, or 0 if the line has no more. */
static int mp_field(const struct mparse *p, size_t *cur, struct mfield *f)
{
	size_t i = *cur;

	while (i < p->n && (p->line[i] == ' ' || p->line[i] == '\t'))
		i++;
	if (i >= p->n)
		return 0;
	f->off = i;
	while (i < p->n && p->line[i] != ' ' && p->line[i] != '\t')
		i++;
	f->n = i - f->off;
	*cur = i;
	return 1;
}

/* Reads the next line that holds a field, skipping blank and comment lines.
 * Returns 1, 0 at the end of the text, or -1 with err filled. */
static int mp_next(struct mparse *p)
{
	struct mfield f;
	size_t cur;
	int r;

	if (p->pushed) {
		p->pushed = 0;
		return 1;
	}
	for (;;) {
		r = mp_raw_line(p);
		cur = 0;
		if (r != 1 || mp_field(p, &cur, &f))
			return r;
	}
}

/* Returns 1 if field f is the whole text s. */
static int mp_is(const struct mparse *p, const struct mfield *f, const char *s)
{
	return strlen(s) == f->n && memcmp(p->line + f->off, s, f->n) == 0;
}

/* Returns 1 if the current line is a section header: a single field in
 * brackets, which *f then holds. */
static int mp_header(const struct mparse *p, struct mfield *f)
{
	struct mfield extra;
	size_t cur = 0;

	if (!mp_field(p, &cur, f) || mp_field(p, &cur, &extra))
		return 0;
	return f->n >= 2 && p->line[f->off] == '[' &&
	       p->line[f->off + f->n - 1] == ']';
}

/* Fails unless the current line has no field after *cur. */
static int mp_end_of_line(struct mparse *p, size_t cur)
{
	struct mfield f;
	char q[64];

	if (!mp_field(p, &cur, &f))
		return 0;
	return mp_err(p, f.off, "expected end of line, found %s",
		      mp_quote(p, &f, q, sizeof q));
}

/* Reads the magic line "attn-trace-model 1". */
static int mp_magic(struct mparse *p)
{
	struct mfield f;
	size_t cur = 0;
	char q[64];
	int r = mp_next(p);

	if (r < 0)
		return -1;
	if (r == 0)
		return mp_err_eof(p, "expected the line \"attn-trace-model 1\","
				  " found end of file");
	mp_field(p, &cur, &f);
	if (f.n >= 3 && memcmp(p->line + f.off, "\xEF\xBB\xBF", 3) == 0)
		return mp_err(p, f.off, "expected the line \"attn-trace-model 1\""
			      ", found a byte order mark (U+FEFF); save the "
			      "file as UTF-8 without one");
	if (!mp_is(p, &f, "attn-trace-model"))
		return mp_err(p, f.off, "expected the line \"attn-trace-model 1\""
			      ", found %s", mp_quote(p, &f, q, sizeof q));
	if (!mp_field(p, &cur, &f))
		return mp_err(p, cur, "expected format version 1, found end "
			      "of line");
	if (!mp_is(p, &f, "1"))
		return mp_err(p, f.off, "expected format version 1, found %s",
			      mp_quote(p, &f, q, sizeof q));
	return mp_end_of_line(p, cur);
}

/* Reads the size line "KEY N" into *out, checking 1 <= N <= 64. */
static int mp_size(struct mparse *p, const char *key, int *out)
{
	struct mfield f;
	size_t cur = 0, i;
	char q[64];
	int r = mp_next(p), v = 0;

	if (r < 0)
		return -1;
	if (r == 0)
		return mp_err_eof(p, "expected the line \"%s N\", found end of "
				  "file", key);
	mp_field(p, &cur, &f);
	if (!mp_is(p, &f, key))
		return mp_err(p, f.off, "expected the line \"%s N\", found %s",
			      key, mp_quote(p, &f, q, sizeof q));
	if (!mp_field(p, &cur, &f))
		return mp_err(p, cur, "expected a size from 1 to %d, found end "
			      "of line", MODEL_MAX_DIM);
	for (i = 0; i < f.n && v <= MODEL_MAX_DIM; i++) {
		char c = p->line[f.off + i];

		if (c < '0' || c > '9')
			break;
		v = v * 10 + (c - '0');
	}
	if (i < f.n || v < 1 || v > MODEL_MAX_DIM)
		return mp_err(p, f.off, "expected a size from 1 to %d, found %s",
			      MODEL_MAX_DIM, mp_quote(p, &f, q, sizeof q));
	*out = v;
	return mp_end_of_line(p, cur);
}

/* Reads exactly count numbers from the current line, from *cur on, into
 * out[0..count), and checks that nothing follows them. */
static int mp_numbers(struct mparse *p, size_t cur, double *out, int count)
{
	struct mfield f;
	const char *end;
	enum num_status st;
	char q[64];
	size_t at;
	int i, extra;

	for (i = 0; mp_field(p, &cur, &f); i++) {
		if (i == count) {
			at = f.off; /* the first number too many */
			for (extra = 1; mp_field(p, &cur, &f); extra++)
				;
			return mp_err(p, at, "expected %d number%s, "
				      "found %d%s", count, count == 1 ? "" : "s",
				      count + extra, p->why ? p->why : "");
		}
		st = num_parse(p->line + f.off, &out[i], &end);
		if (st == NUM_SYNTAX || end != p->line + f.off + f.n)
			return mp_err(p, f.off, "expected a number, found %s",
				      mp_quote(p, &f, q, sizeof q));
		if (st == NUM_RANGE)
			return mp_err(p, f.off, "expected a number that fits "
				      "in a double, found %s",
				      mp_quote(p, &f, q, sizeof q));
		if (out[i] > MODEL_MAX_WEIGHT || out[i] < -MODEL_MAX_WEIGHT)
			return mp_err(p, f.off, "expected a number from -%s "
				      "to %s, found %s", MODEL_MAX_WEIGHT_TEXT,
				      MODEL_MAX_WEIGHT_TEXT,
				      mp_quote(p, &f, q, sizeof q));
	}
	if (i < count)
		return mp_err(p, cur, "expected %d number%s, found %d%s", count,
			      count == 1 ? "" : "s", i, p->why ? p->why : "");
	return 0;
}

/* Reports a section that ended, at the header or end of file just read,
 * after found of its rows rows. */
static int mp_short(struct mparse *p, int r, const char *sec, int rows,
		    int found)
{
	struct mfield f;

	if (r == 0)
		return mp_err_eof(p, "expected %d row%s in [%s], found %d",
				  rows, rows == 1 ? "" : "s", sec, found);
	mp_header(p, &f);
	return mp_err(p, f.off, "expected %d row%s in [%s], found %d", rows,
		      rows == 1 ? "" : "s", sec, found);
}

/* Checks that section sec, which holds rows rows, has no more. */
static int mp_no_more_rows(struct mparse *p, const char *sec, int rows)
{
	struct mfield f;
	size_t cur = 0;
	int r = mp_next(p);

	if (r <= 0)
		return r;
	if (mp_header(p, &f)) {
		p->pushed = 1;
		return 0;
	}
	mp_field(p, &cur, &f);
	return mp_err(p, f.off, "expected only %d row%s in [%s], found "
		      "another row", rows, rows == 1 ? "" : "s", sec);
}

/* Reads the body of matrix section sec, R rows of C numbers, into a newly
 * allocated *out. */
static int mp_matrix(struct mparse *p, const char *sec, double **out, int R,
		     int C)
{
	struct mfield f;
	int i, r;

	*out = xcalloc((size_t)R * (size_t)C, sizeof **out);
	for (i = 0; i < R; i++) {
		r = mp_next(p);
		if (r < 0)
			return -1;
		if (r == 0 || mp_header(p, &f))
			return mp_short(p, r, sec, R, i);
		if (mp_numbers(p, 0, *out + (size_t)i * (size_t)C, C) != 0)
			return -1;
	}
	return mp_no_more_rows(p, sec, R);
}

/* Reads the line "word e1 .. eE" into word v->n of v, whose arrays have
 * room for it; lines[j] is the line of word j. */
static int mp_vocab_line(struct mparse *p, struct vocab *v, int E,
			 const char *sec, const int *lines)
{
	struct mfield f;
	size_t cur = 0;
	char q[64], *folded;
	int j;

	mp_field(p, &cur, &f);
	if (f.n > MODEL_MAX_WORD)
		return mp_err(p, f.off, "expected a word of at most %d bytes, "
			      "found one of %zu bytes", MODEL_MAX_WORD, f.n);
	folded = utf8_fold(p->line + f.off, f.n);
	for (j = 0; j < v->n; j++) {
		if (strcmp(folded, v->folded[j]) == 0) {
			free(folded);
			return mp_err(p, f.off, "expected a new word in [%s], "
				      "found %s, already on line %d", sec,
				      mp_quote(p, &f, q, sizeof q), lines[j]);
		}
	}
	if (mp_numbers(p, cur, v->emb + (size_t)v->n * (size_t)E, E) != 0) {
		free(folded);
		return -1;
	}
	v->words[v->n] = utf8_nfc(p->line + f.off, f.n);
	v->folded[v->n] = folded;
	v->n++;
	return 0;
}

/* Makes room in v (and lines) for one more word. */
static void mp_vocab_grow(struct vocab *v, int E, int **lines, int *cap)
{
	if (v->n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap > MODEL_MAX_VOCAB)
		*cap = MODEL_MAX_VOCAB;
	v->words = xreallocarray(v->words, (size_t)*cap, sizeof *v->words);
	v->folded = xreallocarray(v->folded, (size_t)*cap, sizeof *v->folded);
	v->emb = xreallocarray(v->emb, (size_t)*cap * (size_t)E,
			       sizeof *v->emb);
	*lines = xreallocarray(*lines, (size_t)*cap, sizeof **lines);
}

/* Reads the body of vocabulary section sec into v: word lines up to the
 * next header or the end of the file. */
static int mp_vocab(struct mparse *p, struct vocab *v, int E,
		    const char *name)
{
	struct mfield f;
	char q[64];
	int *lines = NULL, cap = 0, r;

	while ((r = mp_next(p)) == 1 && !mp_header(p, &f)) {
		if (v->n == MODEL_MAX_VOCAB) {
			r = mp_err(p, 0, "expected at most %d words in [%s], "
				   "found more", MODEL_MAX_VOCAB, name);
			break;
		}
		mp_vocab_grow(v, E, &lines, &cap);
		if ((r = mp_vocab_line(p, v, E, name, lines)) != 0)
			break;
		lines[v->n - 1] = p->lineno;
	}
	free(lines);
	if (r < 0)
		return -1;
	if (r == 1)
		p->pushed = 1;
	if (v->n > 0)
		return 0;
	if (r == 0)
		return mp_err_eof(p, "expected at least one word in [%s], "
				  "found end of file", name);
	return mp_err(p, f.off, "expected at least one word in [%s], found %s",
		      name, mp_show(p, &f, q, sizeof q, 0));
}

/* Finds <s> and </s> in the target vocabulary just read. */
static int mp_specials(struct mparse *p, struct model *m)
{
	m->bos = vocab_find(&m->tgt, "<s>");
	m->eos = vocab_find(&m->tgt, "</s>");
	if (m->bos < 0 || m->eos < 0)
		return mp_errat(p, p->sec_line, p->sec_col, "expected [target] "
				"to hold the word \"%s\", found no such word",
				m->bos < 0 ? "<s>" : "</s>");
	return 0;
}

/* Reads the body of a section of word rows (table entry e, [output.W_s]
 * or [output.W_o]): one row a target word, in the order of [target], each
 * "word w1 .. w_cols". */
static int mp_ws(struct mparse *p, struct model *m,
		 const struct model_param *e)
{
	struct mfield f;
	size_t cur;
	char q[64], *folded;
	int k, r, same;
	double *W = xcalloc((size_t)m->tgt.n * (size_t)e->cols, sizeof *W);

	*e->slot = W;
	for (k = 0; k < m->tgt.n; k++) {
		r = mp_next(p);
		if (r < 0)
			return -1;
		if (r == 0 || mp_header(p, &f))
			return mp_short(p, r, e->section, m->tgt.n, k);
		cur = 0;
		mp_field(p, &cur, &f);
		folded = utf8_fold(p->line + f.off, f.n);
		same = strcmp(folded, m->tgt.folded[k]) == 0;
		free(folded);
		if (!same)
			return mp_err(p, f.off, "expected the row of \"%s\", "
				      "found %s", m->tgt.words[k],
				      mp_quote(p, &f, q, sizeof q));
		if (mp_numbers(p, cur, W + (size_t)k * (size_t)e->cols,
			       e->cols) != 0)
			return -1;
	}
	return mp_no_more_rows(p, e->section, m->tgt.n);
}

/* The table entry whose section header field f names, or -1. */
static int mp_section_index(const struct mparse *p, const struct mfield *f,
			    const struct model_param *tab, int ntab)
{
	struct mfield name = { f->off + 1, f->n - 2 };

	for (int k = 0; k < ntab; k++)
		if (mp_is(p, &name, tab[k].section))
			return k;
	return -1;
}

/* Reads the body of the section of table entry e into m.  A weight of
 * the target's words waits until [target] is read (mp_deferred). */
static int mp_body(struct mparse *p, struct model *m,
		   const struct model_param *e)
{
	switch (e->kind) {
	case PARAM_SRC_VOCAB: return mp_vocab(p, &m->src, m->E, e->section);
	case PARAM_TGT_VOCAB:
		if (mp_vocab(p, &m->tgt, m->E, e->section) != 0)
			return -1;
		return mp_specials(p, m);
	case PARAM_MATRIX:
		if (arch_get(m->arch)->feed_model && e->slot == &m->dec.Wx) {
			/* its width is the one that input feeding changes */
			char why[192];
			if (m->input_feeding)
				snprintf(why, sizeof why, _("; with input "
					 "feeding the decoder's W_x rows read "
					 "[y_{t-1}; h̃_{t-1}], and so have E + H = "
					 "%d + %d numbers"), m->E, m->H);
			else
				snprintf(why, sizeof why, _("; without "
					 "input feeding (no line \"input-feeding "
					 "yes\") the decoder's W_x rows read "
					 "y_{t-1}, and so have E = %d numbers"),
					 m->E);
			p->why = why;
			int rc = mp_matrix(p, e->section, e->slot, e->rows,
					   e->cols);
			p->why = NULL;
			return rc;
		}
		return mp_matrix(p, e->section, e->slot, e->rows, e->cols);
	case PARAM_WORD_ROWS:
		return mp_ws(p, m, e);
	}
	return -1;
}

/* Skips the rows of a section, up to the next header or the end. */
static int mp_skip_rows(struct mparse *p)
{
	struct mfield f;
	int r;

	while ((r = mp_next(p)) == 1)
		if (mp_header(p, &f)) {
			p->pushed = 1;
			return 0;
		}
	return r;
}

/* Reads the header of the next section and its body; returns 1, 0 at the
 * end of the file, or -1.  *defer is set to where the rows of a section
 * that must wait for [target] begin. */
static int mp_section(struct mparse *p, struct model *m,
		      const struct model_param *tab, int ntab,
		      size_t *defer_pos, int *defer_line, int *defer_k)
{
	struct mfield f;
	size_t cur = 0;
	char q[64];
	int r = mp_next(p), k;

	if (r <= 0)
		return r;
	if (!mp_header(p, &f)) {
		mp_field(p, &cur, &f);
		return mp_err(p, f.off, "expected a section header such as "
			      "[source], found %s", mp_quote(p, &f, q, sizeof q));
	}
	k = mp_section_index(p, &f, tab, ntab);
	mp_show(p, &f, q, sizeof q, 0);
	if (k < 0) {
		/* a section of another architecture's table */
		struct model other = { .E = m->E, .H = m->H, .A = m->A };
		struct model_param otab[MODEL_MAX_PARAMS];
		for (other.arch = 0; other.arch < ARCH_COUNT; other.arch++) {
			int no = model_param_table(&other, 0, otab);
			if (other.arch != m->arch &&
			    mp_section_index(p, &f, otab, no) >= 0)
				return mp_err(p, f.off, "expected a section of "
					      "the %s architecture, found %s, "
					      "a section of the %s architecture "
					      "(the line \"architecture NAME\" "
					      "after the sizes says which)",
					      arch_get(m->arch)->name, q,
					      arch_get(other.arch)->name);
		}
		return mp_err(p, f.off, "expected a section of the model "
			      "format (doc/model-format.md), found unknown "
			      "section %s", q);
	}
	if (p->seen[k])
		return mp_err(p, f.off, "expected each section once, found a "
			      "second %s (the first is on line %d)", q,
			      p->seen[k]);
	if (tab[k].rows == 0 && tab[k].kind == PARAM_MATRIX)
		return mp_err(p, f.off, "expected the line \"positions N\" "
			      "after \"attention\" for %s, found none", q);
	p->seen[k] = p->lineno;
	p->sec_line = p->lineno;
	p->sec_col = f.off + 1;
	if (tab[k].kind == PARAM_WORD_ROWS && m->tgt.n == 0) {
		*defer_pos = p->pos;
		*defer_line = p->lineno;
		*defer_k = k;
		return mp_skip_rows(p) < 0 ? -1 : 1;
	}
	return mp_body(p, m, &tab[k]) != 0 ? -1 : 1;
}

/* Reads the optional size line "positions L" (model.h). */
static int mp_positions(struct mparse *p, struct model *m)
{
	struct mfield f;
	size_t cur = 0;
	int r = mp_next(p);

	if (r <= 0)
		return r;
	mp_field(p, &cur, &f);
	p->pushed = 1;
	if (!mp_is(p, &f, "positions"))
		return 0;
	return mp_size(p, "positions", &m->L);
}

/* Reads the optional line "architecture NAME" (model.h); without it the
 * model is of the documented default, ARCH_DEFAULT.  An architecture
 * with a bidirectional encoder splits the hidden size between its two
 * directions, so it must be even (arch_class.even_hidden). */
static int mp_arch(struct mparse *p, struct model *m)
{
	struct mfield f;
	size_t cur = 0;
	char q[64], names[128];
	int r = mp_next(p), a;

	m->arch = ARCH_DEFAULT;
	if (r <= 0)
		return r;
	mp_field(p, &cur, &f);
	if (!mp_is(p, &f, "architecture")) {
		p->pushed = 1;
		return 0;
	}
	arch_names(names, sizeof names, ", ", " or ");
	if (!mp_field(p, &cur, &f))
		return mp_err(p, cur, "expected an architecture (%s), found "
			      "end of line", names);
	char *name = xmalloc(f.n + 1);
	memcpy(name, p->line + f.off, f.n);
	name[f.n] = '\0';
	a = arch_find(name);
	free(name);
	if (a < 0)
		return mp_err(p, f.off, "expected an architecture (%s), found "
			      "%s", names, mp_quote(p, &f, q, sizeof q));
	if (arch_get(a)->bidir && m->H % 2 != 0)
		return mp_err(p, f.off, "expected an even hidden size for the "
			      "%s architecture (each encoder direction has "
			      "half of it), found hidden %d",
			      arch_get(a)->name, m->H);
	m->arch = a;
	return mp_end_of_line(p, cur);
}

/* Reads the optional line "input-feeding yes" or "input-feeding no"
 * (model.h), which Luong's architecture alone has. */
static int mp_feeding(struct mparse *p, struct model *m)
{
	struct mfield f;
	size_t cur = 0;
	char q[64];
	int r = mp_next(p);

	m->input_feeding = 0;
	if (r <= 0)
		return r;
	mp_field(p, &cur, &f);
	if (!mp_is(p, &f, "input-feeding")) {
		p->pushed = 1;
		return 0;
	}
	if (!mp_field(p, &cur, &f))
		return mp_err(p, cur, "expected yes or no after input-feeding, "
			      "found end of line");
	if (f.n == 3 && memcmp(p->line + f.off, "yes", 3) == 0)
		m->input_feeding = 1;
	else if (!(f.n == 2 && memcmp(p->line + f.off, "no", 2) == 0))
		return mp_err(p, f.off, "expected yes or no after "
			      "input-feeding, found %s",
			      mp_quote(p, &f, q, sizeof q));
	if (m->input_feeding && !arch_get(m->arch)->feed_model)
		return mp_err(p, f.off, "expected no input feeding in the %s "
			      "architecture, whose decoder %s; input feeding "
			      "is %s", arch_get(m->arch)->name,
			      _(arch_get(m->arch)->no_feed),
			      _(arch_feed_owner()));
	return mp_end_of_line(p, cur);
}

/* What owns the optional weights of owner (model_param.scorer), for
 * messages: "general scorer", "self-attention". */
static const char *mp_owner(int owner)
{
	static char buf[SCORER_MAX][48];
	if (owner == MHA_PARAM_OWNER(MHA_SELF))
		return _("self-attention");
	if (owner == MHA_PARAM_OWNER(MHA_CROSS))
		return _("cross-attention");
	if (owner == LOCALP_PARAM_OWNER)
		return _("local-p window");
	if (owner == PATCH_PARAM_OWNER)
		return _("patch encoder");
	snprintf(buf[owner], sizeof buf[owner], _("%s scorer"),
		 scorer_get(owner)->name);
	return buf[owner];
}

/* Checks, at the end of the file, that every shared section was there
 * and that each scorer has all of its weights or none. */
static int mp_complete(struct mparse *p, const struct model_param *tab,
		       int ntab)
{
	for (int k = 0; k < ntab; k++) {
		if (p->seen[k])
			continue;
		if (tab[k].scorer == -1)
			return mp_err_eof(p, "expected section [%s], found end "
					  "of file", tab[k].section);
		for (int j = 0; j < ntab; j++)
			if (tab[j].scorer == tab[k].scorer && p->seen[j])
				return mp_err_eof(p, "expected section [%s] as "
						  "well as [%s] (line %d): the %s "
						  "needs both, found end "
						  "of file", tab[k].section,
						  tab[j].section, p->seen[j],
						  mp_owner(tab[k].scorer));
	}
	return 0;
}

/* Reads a whole model file; the sizes are checked before anything that
 * depends on them is allocated.  Sections come in any order. */
static int mp_model(struct mparse *p, struct model *m)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	size_t defer_pos = 0;
	int defer_line = 0, defer_k = 0, ntab, r;

	if (mp_magic(p) != 0 || mp_size(p, "embedding", &m->E) != 0 ||
	    mp_size(p, "hidden", &m->H) != 0 ||
	    mp_size(p, "attention", &m->A) != 0 || mp_positions(p, m) < 0 ||
	    mp_arch(p, m) < 0 || mp_feeding(p, m) < 0)
		return -1;
	ntab = model_param_table(m, SCORER_ALL | MHA_PARAM_ALL | LOCALP_PARAM_BIT |
				  PATCH_PARAM_BIT, tab);
	while ((r = mp_section(p, m, tab, ntab, &defer_pos, &defer_line,
			       &defer_k)) == 1)
		;
	if (r < 0)
		return -1;
	if (defer_line && m->tgt.n > 0) { /* [output.W_s] before [target] */
		size_t end_pos = p->pos;
		int end_line = p->lineno;
		p->pos = defer_pos;
		p->lineno = defer_line;
		p->pushed = 0;
		if (mp_ws(p, m, &tab[defer_k]) != 0)
			return -1;
		p->pos = end_pos;
		p->lineno = end_line;
		p->pushed = 0;
	}
	return mp_complete(p, tab, ntab);
}

/* model_parse, with messages that echo nothing of the text if quiet. */
static int model_parse_as(struct model *m, const char *text, size_t len,
			  const char *name, int quiet, struct errbuf *err)
{
	struct mparse p;
	char *copy;
	int r;

	memset(m, 0, sizeof *m);
	/* A NUL-terminated copy lets num_parse() stop on its own at the end
	 * of the last field. */
	copy = xmalloc(len + 1);
	if (len > 0)
		memcpy(copy, text, len);
	copy[len] = '\0';
	memset(&p, 0, sizeof p);
	p.text = copy;
	p.len = len;
	p.name = name;
	p.quiet = quiet;
	p.err = err;
	r = mp_model(&p, m);
	free(copy);
	if (r != 0) {
		model_free(m);
		return -1;
	}
	m->name = utf8_safe(name); /* shown, never opened again */
	return 0;
}

int model_parse(struct model *m, const char *text, size_t len,
		const char *name, struct errbuf *err)
{
	return model_parse_as(m, text, len, name, 0, err);
}

/* model_load_file, with quiet messages if quiet is set. */
static int model_load_as(struct model *m, const char *path, int quiet,
			 struct errbuf *err)
{
	size_t len;
	char *text;
	int r;

	memset(m, 0, sizeof *m);
	text = util_read_file(path, MODEL_MAX_BYTES, &len, err);
	if (text == NULL)
		return -1;
	r = model_parse_as(m, text, len, path, quiet, err);
	free(text);
	return r;
}

int model_load_file(struct model *m, const char *path, struct errbuf *err)
{
	return model_load_as(m, path, 0, err);
}

int model_load_file_quiet(struct model *m, const char *path,
			  struct errbuf *err)
{
	return model_load_as(m, path, 1, err);
}

int model_load_builtin(struct model *m, struct errbuf *err)
{
	return model_parse(m, (const char *)model_builtin_text,
			   model_builtin_len, "<built-in toy4.model>", err);
}

/* The built-in models, in the order every list of them names them; cmd
 * is NULL for a model of struct model (model_load_named), else the one
 * command that reads it (glimpse6: attn-trace glimpse, glimpse.h). */
static const struct {
	const char *name;
	const unsigned char *text;
	const size_t *len;
	const char *what;
	const char *cmd;
} model_builtins[] = {
	{ "toy4", model_builtin_text, &model_builtin_len,
	  N_("trained on data/toy.pairs; the default"), NULL },
	{ "handset4", model_handset4_text, &model_handset4_len,
	  N_("set by hand, for lessons 1 to 11 and 13"), NULL },
	{ "bahdanau4", model_bahdanau4_text, &model_bahdanau4_len,
	  N_("trained on data/toy.pairs; the default of --arch=bahdanau"),
	  NULL },
	{ "self4", model_self4_text, &model_self4_len,
	  N_("set by hand, for attn-trace self (lessons 19 and 20)"), NULL },
	{ "localp4", model_localp4_text, &model_localp4_len,
	  N_("toy4 trained on through --window=local-p --window-size=1"),
	  NULL },
	{ "feed4", model_feed4_text, &model_feed4_len,
	  N_("trained on data/toy.pairs as toy4, with input feeding"), NULL },
	{ "hard4", model_hard4_text, &model_hard4_len,
	  N_("trained on data/toy.pairs with train --hard (REINFORCE)"), NULL },
	{ "longattn8", model_longattn8_text, &model_longattn8_len,
	  N_("trained on data/long.pairs, with attention (general)"), NULL },
	{ "longfixed8", model_longfixed8_text, &model_longfixed8_len,
	  N_("trained on data/long.pairs without attention (--window=fixed)"),
	  NULL },
	{ "caption4", model_caption4_text, &model_caption4_len,
	  N_("trained on data/images/train.captions: attn-trace caption"),
	  NULL },
	{ "glimpse6", model_glimpse6_text, &model_glimpse6_len,
	  N_("trained on data/images/train.captions: attn-trace glimpse"),
	  "glimpse" },
};
#define MODEL_NBUILTINS (sizeof model_builtins / sizeof model_builtins[0])

/* The index in model_builtins of the struct model k, or -1 past the
 * last. */
static int model_builtin_index(size_t k)
{
	for (size_t i = 0; i < MODEL_NBUILTINS; i++)
		if (!model_builtins[i].cmd && k-- == 0)
			return (int)i;
	return -1;
}

int model_builtin_name(const char *name)
{
	const char *any;
	for (size_t k = 0; (any = model_builtin_nth(k, NULL)); k++)
		if (strcmp(name, any) == 0)
			return 1;
	return 0;
}

const char *model_builtin_nth(size_t k, const char **what)
{
	int i = model_builtin_index(k);
	if (i < 0)
		return NULL;
	if (what)
		*what = model_builtins[i].what;
	return model_builtins[i].name;
}

const char *model_builtin_each(size_t k, const char **what,
			       const char **cmd)
{
	if (k >= MODEL_NBUILTINS)
		return NULL;
	if (what)
		*what = model_builtins[k].what;
	if (cmd)
		*cmd = model_builtins[k].cmd;
	return model_builtins[k].name;
}

const char *model_builtin_list(void)
{
	static char list[128];
	const char *name;
	size_t n = 0;
	while (model_builtin_nth(n, NULL))
		n++;
	if (!list[0]) {
		char *p = list;
		for (size_t k = 0; (name = model_builtin_nth(k, NULL)); k++)
			p += sprintf(p, "%s%s", k == 0 ? "" :
				     k + 1 == n ? " or " : ", ", name);
	}
	return list;
}

/* The command that reads the built-in model name if it is not a struct
 * model ("glimpse" for glimpse6), else NULL. */
static const char *model_builtin_other(const char *name)
{
	for (size_t k = 0; k < MODEL_NBUILTINS; k++)
		if (model_builtins[k].cmd &&
		    strcmp(name, model_builtins[k].name) == 0)
			return model_builtins[k].cmd;
	return NULL;
}

int model_load_named(struct model *m, const char *name, struct errbuf *err)
{
	char label[64];
	memset(m, 0, sizeof *m);
	for (size_t k = 0; k < MODEL_NBUILTINS; k++) {
		if (model_builtins[k].cmd ||
		    strcmp(name, model_builtins[k].name) != 0)
			continue;
		snprintf(label, sizeof label, "<built-in %s.model>", name);
		return model_parse(m, (const char *)model_builtins[k].text,
				   *model_builtins[k].len, label, err);
	}
	const char *cmd = model_builtin_other(name);
	if (cmd)
		err_set(err, _("expected a built-in model (%s), found \"%s\", "
			"the model of 'attn-trace %s'"), model_builtin_list(),
			name, cmd);
	else
		err_set(err, _("expected a built-in model (%s), found \"%s\""),
			model_builtin_list(), name);
	return -1;
}

/* Adds to err, for a name arg that is neither a file nor a built-in
 * model ("toy5"), the built-in model it most likely meant and their
 * list. */
static void model_arg_hint(const char *arg, struct errbuf *err)
{
	const char *names[MODEL_NBUILTINS];
	char hint[96] = "";
	int n = 0;
	if (!err || strchr(arg, '/') || access(arg, F_OK) == 0)
		return;
	while (n < (int)MODEL_NBUILTINS && model_builtin_nth((size_t)n, NULL))
		names[n] = model_builtin_nth((size_t)n, NULL), n++;
	const char *near = suggest_closest(arg, names, n);
	if (near)
		snprintf(hint, sizeof hint, _("did you mean '%s'? "), near);
	size_t len = strlen(err->msg);
	snprintf(err->msg + len, sizeof err->msg - len, _("; %sexpected a "
		 "model file or a built-in model (%s)"), hint,
		 model_builtin_list());
}

int model_load_arg(struct model *m, const char *arg, struct errbuf *err)
{
	if (!arg || model_builtin_name(arg) ||
	    (model_builtin_other(arg) && access(arg, F_OK) != 0))
		return model_load_named(m, arg ? arg : "toy4", err);
	int rc = model_load_file(m, arg, err);
	if (rc != 0)
		model_arg_hint(arg, err);
	return rc;
}

static void vocab_free(struct vocab *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		free(v->words[i]);
		free(v->folded[i]);
	}
	free(v->words);
	free(v->folded);
	free(v->emb);
}

void model_free(struct model *m)
{
	vocab_free(&m->src);
	vocab_free(&m->tgt);
	free(m->enc.Wx);
	free(m->enc.Wh);
	free(m->enc.b);
	free(m->dec.Wx);
	free(m->dec.Wh);
	free(m->dec.b);
	free(m->enc_bwd.Wx);
	free(m->enc_bwd.Wh);
	free(m->enc_bwd.b);
	free(m->Winit);
	free(m->Wcd);
	free(m->Wo);
	for (int sc = 0; sc < SCORER_MAX; sc++)
		for (int k = 0; k < SCORER_MAX_PARAMS; k++)
			free(m->sw[sc][k]);
	for (int g = 0; g < MHA_GROUPS; g++)
		for (int k = 0; k < MHA_NW; k++)
			free(m->mha[g][k]);
	free(m->Wc);
	free(m->Wp);
	free(m->vp);
	free(m->Wpatch);
	free(m->bpatch);
	free(m->Ppatch);
	free(m->Wpinit);
	free(m->Ws);
	free(m->name);
	memset(m, 0, sizeof *m);
}

int vocab_find(const struct vocab *v, const char *word)
{
	char *folded = utf8_fold(word, strlen(word));
	int i, found = -1;

	for (i = 0; i < v->n && found < 0; i++)
		if (strcmp(folded, v->folded[i]) == 0)
			found = i;
	free(folded);
	return found;
}

/* A word of the vocabulary and its distance, for sorting. */
struct vocab_hit {
	size_t dist;
	int index;
};

static int vocab_hit_cmp(const void *pa, const void *pb)
{
	const struct vocab_hit *a = pa, *b = pb;

	if (a->dist != b->dist)
		return a->dist < b->dist ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* Words are compared case-folded, so "JE" is at distance 0 from "je". */
int vocab_closest(const struct vocab *v, const char *word, int *out, int max)
{
	char *folded = utf8_fold(word, strlen(word));
	unsigned long *a, *b;
	size_t na, nb, *row;
	struct vocab_hit *hits;
	int i, count;

	if (max <= 0 || v->n <= 0) {
		free(folded);
		return 0;
	}
	na = suggest_code_points(folded, &a);
	hits = xreallocarray(NULL, (size_t)v->n, sizeof *hits);
	row = xreallocarray(NULL, 3 * (MODEL_MAX_WORD + 1), sizeof *row);
	for (i = 0; i < v->n; i++) {
		nb = suggest_code_points(v->folded[i], &b);
		if (nb > MODEL_MAX_WORD)
			row = xreallocarray(row, 3 * (nb + 1), sizeof *row);
		hits[i].dist = suggest_edit_distance(a, na, b, nb, row);
		hits[i].index = i;
		free(b);
	}
	qsort(hits, (size_t)v->n, sizeof *hits, vocab_hit_cmp);
	count = max < v->n ? max : v->n;
	for (i = 0; i < count; i++)
		out[i] = hits[i].index;
	free(hits);
	free(row);
	free(a);
	free(folded);
	return count;
}

/* ------------------------------------------------ the parameter table */

/* The size that d stands for in m; 0 for positions m does not have. */
static int model_dim_size(const struct model *m, enum model_dim d)
{
	switch (d) {
	case DIM_ONE: return 1;
	case DIM_E: return m->E;
	case DIM_H: return m->H;
	case DIM_2H: return 2 * m->H;
	case DIM_A: return m->A;
	case DIM_L: return m->L;
	case DIM_K: return 2;
	case DIM_R: return 3;
	}
	return 0;
}

void model_param_add(struct model_param *e, const char *section,
		    const char *label, enum param_kind kind, int scorer,
		    int rows, int cols, double **slot)
{
	snprintf(e->section, sizeof e->section, "%s", section);
	e->label = label;
	e->kind = kind;
	e->scorer = scorer;
	e->vector = rows == MODEL_PARAM_VEC;
	e->rows = rows == MODEL_PARAM_VEC ? 1 : rows;
	e->cols = cols;
	e->slot = slot;
}

/* The weights of the scorers in the bitmask scorers, from their classes;
 * returns how many were added at tab. */
int model_param_scorers(struct model *m, unsigned scorers,
		       struct model_param *tab)
{
	int n = 0;

	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		const struct scorer_class *c = scorer_get(sc);
		if (!(scorers & (1u << sc)))
			continue;
		for (int k = 0; k < c->nparams; k++) {
			char name[48];
			const struct param_spec *ps = &c->params[k];
			snprintf(name, sizeof name, "%s.%s", c->name, ps->key);
			model_param_add(&tab[n++], name, ps->label, PARAM_MATRIX, sc,
				ps->rows == DIM_ONE ? MODEL_PARAM_VEC
						    : model_dim_size(m, ps->rows),
				model_dim_size(m, ps->cols), &m->sw[sc][k]);
		}
	}
	return n;
}

/* The local-p window's two sections, if LOCALP_PARAM_BIT is in mask. */
int model_param_localp(struct model *m, unsigned mask, struct model_param *tab)
{
	if (!(mask & LOCALP_PARAM_BIT))
		return 0;
	model_param_add(&tab[0], "local-p.W_p", "local-p W_p, applied to the query",
		PARAM_MATRIX, LOCALP_PARAM_OWNER, m->H, m->H, &m->Wp);
	model_param_add(&tab[1], "local-p.v_p", "local-p v_p", PARAM_MATRIX,
		LOCALP_PARAM_OWNER, MODEL_PARAM_VEC, m->H, &m->vp);
	return 2;
}

int model_param_patch(struct model *m, unsigned mask, struct model_param *tab)
{
	if (!(mask & PATCH_PARAM_BIT))
		return 0;
	model_param_add(&tab[0], "patch.W", "patch encoder W_patch, applied to "
		"a patch's pixels", PARAM_MATRIX, PATCH_PARAM_OWNER, m->H,
		PATCH_PIXELS, &m->Wpatch);
	model_param_add(&tab[1], "patch.b", "patch encoder b_patch", PARAM_MATRIX,
		PATCH_PARAM_OWNER, MODEL_PARAM_VEC, m->H, &m->bpatch);
	model_param_add(&tab[2], "patch.P", "patch encoder P, a row for "
		"each cell's place", PARAM_MATRIX, PATCH_PARAM_OWNER,
		PATCH_CELLS, m->H, &m->Ppatch);
	model_param_add(&tab[3], "patch.W_init", "patch encoder W_init, "
		"applied to the mean annotation", PARAM_MATRIX,
		PATCH_PARAM_OWNER, m->H, m->H, &m->Wpinit);
	return 4;
}

/* The multi-head scorers' groups in the bitmask scorers, W_Q, W_K, W_V
 * and W_O each (MHA_PARAM_BIT); returns how many were added at tab. */
int model_param_mha(struct model *m, unsigned scorers, struct model_param *tab)
{
	const int E = m->E;
	int n = 0;

	for (int g = 0; g < MHA_GROUPS; g++) {
		static const char *const group[MHA_GROUPS] = { "self", "cross" };
		static const char *const key[MHA_NW] = { "W_Q", "W_K", "W_V",
							 "W_O" };
		static const char *const label[MHA_GROUPS][MHA_NW] = {
			{ "self-attention W_Q", "self-attention W_K",
			  "self-attention W_V", "self-attention W_O" },
			{ "cross-attention W_Q", "cross-attention W_K",
			  "cross-attention W_V", "cross-attention W_O" } };
		if (!(scorers & MHA_PARAM_BIT(g)))
			continue;
		for (int k = 0; k < MHA_NW; k++) {
			char name[48];
			snprintf(name, sizeof name, "%s.%s", group[g], key[k]);
			model_param_add(&tab[n++], name, label[g][k],
					PARAM_MATRIX, MHA_PARAM_OWNER(g), E, E,
					&m->mha[g][k]);
		}
	}
	return n;
}

int model_param_table(struct model *m, unsigned scorers,
		      struct model_param *tab)
{
	return arch_get(m->arch)->params(m, scorers, tab);
}

/* 1 if m holds every weight of scorer sc. */
static int model_has(const struct model *m, int sc)
{
	const struct scorer_class *c = scorer_get(sc);

	for (int k = 0; k < c->nparams; k++)
		if (!m->sw[sc][k])
			return 0;
	return 1;
}

unsigned model_scorers(const struct model *m)
{
	unsigned mask = 0;

	for (int sc = 0; sc < SCORER_COUNT; sc++)
		if (model_has(m, sc))
			mask |= 1u << sc;
	return mask;
}

unsigned model_mha(const struct model *m)
{
	unsigned mask = 0;

	for (int g = 0; g < MHA_GROUPS; g++) {
		int k = 0;
		while (k < MHA_NW && m->mha[g][k])
			k++;
		if (k == MHA_NW)
			mask |= MHA_PARAM_BIT(g);
	}
	if (m->Wp && m->vp)
		mask |= LOCALP_PARAM_BIT;
	if (m->Wpatch && m->bpatch && m->Ppatch && m->Wpinit)
		mask |= PATCH_PARAM_BIT;
	return mask;
}

const double *model_weights(const struct model *m, const char *name)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int n = model_param_table((struct model *)m,
				  SCORER_ALL | MHA_PARAM_ALL | LOCALP_PARAM_BIT |
				  PATCH_PARAM_BIT, tab);

	for (int k = 0; k < n; k++)
		if (strcmp(tab[k].section, name) == 0)
			return *tab[k].slot;
	return NULL;
}

int model_check_scorer(const struct model *m, int sc, struct errbuf *err)
{
	const struct scorer_class *c = scorer_get(sc);
	char missing[256] = "", have[256] = "";
	size_t nm = 0, nh = 0;
	unsigned ok = model_scorers(m);

	if (ok & (1u << sc))
		return 0;
	if (!err)
		return -1;
	for (int k = 0; k < c->nparams; k++)
		if (!m->sw[sc][k] && nm < sizeof missing)
			nm += (size_t)snprintf(missing + nm, sizeof missing - nm,
					       "%s[%s.%s]", nm ? " and " : "",
					       c->name, c->params[k].key);
	for (int k = 0; k < SCORER_COUNT && nh < sizeof have; k++)
		if (ok & (1u << k))
			nh += (size_t)snprintf(have + nh, sizeof have - nh,
					       "%s%s", nh ? ", " : "",
					       scorer_get(k)->name);
	err_set(err, _("%s: the %s scorer needs the weights %s, which this "
		"model does not have; it supports %s"), m->name ? m->name : "",
		c->name, missing, have);
	return -1;
}
