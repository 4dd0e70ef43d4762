/* pairs.h: the one grammar and the one reader of the lines
 *
 *     source words ||| target words ||| alignment
 *
 * that `train --pairs` learns from and `trace --batch` traces
 * (doc/training.md).  '#' starts a comment anywhere on a line, blank and
 * comment lines are skipped, words are separated by spaces and tabs, a
 * line ends with LF or CRLF, and a byte order mark at the start of the
 * file is skipped.  Every line is valid UTF-8 without NUL bytes or
 * control characters other than tab, and at most PAIRS_MAX_LINE bytes
 * long.  The alignment, "I-J" links of source word I to target word J
 * (from 1), is optional; the batch alone may leave out "||| target
 * words" as well. */
#ifndef ATTN_PAIRS_H
#define ATTN_PAIRS_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

/* The bytes of one line, its line end not counted: well above the
 * longest sensible line, 64 words of 64 bytes on each side and the
 * blanks between them (about 8 KiB), so that comments and generous
 * spacing fit, and small enough that a line need never be held whole
 * to be refused. */
#define PAIRS_MAX_LINE 65536

/* One line, split: offsets into the line it was split from. */
struct pairs_line {
	size_t src, nsrc;  /* the source side: line[src .. src + nsrc) */
	size_t tgt, ntgt;  /* the target side, when has_target */
	int has_target;    /* the line has "|||" */
	size_t aln, naln;  /* the alignment: line[aln .. aln + naln), when
	                      has_align; its links are checked already */
	int has_align;     /* the line has a second "|||" */
};

/* The most words on one side of a pair: a link's positions are at most
 * this. */
#define PAIRS_MAX_WORDS 64

/* One link of an alignment: source word src and target word tgt, both
 * from 0. */
struct pairs_link {
	int src, tgt;
};

/* Reads the alignment of pl, split from line by pairs_split() with
 * has_align, into links (room for max; PAIRS_MAX_WORDS squared always
 * suffices, as a repeated link is an error).  Returns the number of
 * links (at least 1). */
int pairs_align(const char *line, const struct pairs_line *pl,
		struct pairs_link *links, int max);

/* Splits line[0..len), one line without its '\n' (a '\r' before it is
 * cut here), numbered lineno from 1, so that line 1 may start with a byte
 * order mark.  need_target: a line without "|||" is an error.  An
 * alignment is checked whole here: each link "I-J" names a word of each
 * side, and no link comes twice.  Returns 1
 * and fills *out for a pair; 0 for a blank or comment line; -1 with *col
 * (the byte column, from 1) and err ("expected ..., found ...", without
 * the file and line) for a bad line. */
int pairs_split(const char *line, size_t len, int lineno, int need_target,
		struct pairs_line *out, size_t *col, struct errbuf *err);

/* What pairs_getline() read. */
enum pairs_read {
	PAIRS_LINE,  /* a line */
	PAIRS_LONG,  /* a line longer than PAIRS_MAX_LINE, skipped */
	PAIRS_END,   /* the end of the input */
	PAIRS_ERROR  /* a read error, errno says which */
};

/* Reads the next line of in into buf, which holds PAIRS_MAX_LINE + 1
 * bytes: buf[0..*len) without its '\n', and a NUL after it.  A line too
 * long is read to its end but not kept (PAIRS_LONG, *len 0).  The end of
 * the input and a read error are told apart with feof and ferror, never
 * from the return value alone. */
enum pairs_read pairs_getline(FILE *in, char *buf, size_t *len);

/* Fills *col and err for a line longer than PAIRS_MAX_LINE, as
 * pairs_split() would. */
void pairs_long_error(size_t *col, struct errbuf *err);

#endif
