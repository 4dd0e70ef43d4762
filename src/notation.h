/* notation.h: the one table of symbols.
 *
 * Every symbol attn-trace prints has one row here: how it is written, its
 * plain name and its one meaning (doc/notation.md is made from this
 * table, and tests/check_notation.c checks that every symbol the
 * formatters print of every variant is in it).  The same table answers
 * the stepper's glossary key: which symbols a screen shows.  Nothing here
 * prints to a terminal; no curses. */
#ifndef ATTN_NOTATION_H
#define ATTN_NOTATION_H

#include <stddef.h>
#include <stdio.h>

enum notation_kind {
	NOTATION_SYMBOL,   /* a quantity: s_t, W_a, α_t,i */
	NOTATION_FUNCTION, /* an operation written by name: tanh, Σ, E_α */
	NOTATION_INDEX     /* a running index: t, i, j */
};

struct notation_entry {
	const char *symbol;  /* as the docs write it, with its indices:
	                        "e_t,i" */
	const char *base;    /* what a printed token is matched by: "e";
	                        unique in the table */
	int indexed;         /* 1: printed with indices after "_" ("e_1,2");
	                        0: only as written ("W_a") */
	enum notation_kind kind;
	const char *name;    /* its plain name: "score" */
	const char *meaning; /* one line */
};

extern const struct notation_entry notation_table[];
extern const int notation_count;

/* The entry that the printed token tok (len bytes, e.g. "e_1,2", "W_a",
 * "h̃_3", "→h_2") stands for, as an index into notation_table, or -1.
 * A token matches an entry whose base it equals, or an indexed entry's
 * base followed by "_" and indices (digits, t i j k l n h, ",", "+",
 * "-", "{", "}"); a trailing ᵀ or ² is not part of the symbol. */
int notation_find(const char *tok, size_t len);

/* How strictly notation_scan() picks tokens out of text. */
enum notation_mode {
	NOTATION_MATH,   /* math alone (a record's names): every token but
	                    a lowercase word of two letters or more */
	NOTATION_PROSE,  /* text around math (a screen, a whole trace):
	                    tokens with "_", "^", a Greek letter, an arrow,
	                    a combining mark, ŷ or ĝ; a lone letter only
	                    right next to "·", "=", "(", "[" or "/" */
};

/* Calls fn(tok, len, ctx) for each token of the UTF-8 text s that mode
 * takes as a symbol, in order (a head mark such as "h1" in "q_1[h1]" is
 * passed as "[h]").  Returns the number of tokens passed. */
int notation_scan(const char *s, enum notation_mode mode,
		  void (*fn)(const char *tok, size_t len, void *ctx),
		  void *ctx);

/* The glossary of a screen: the entries whose symbols appear in the
 * nlines lines (as notation_scan() in NOTATION_PROSE mode finds them),
 * each once, in the table's order, into out (at most max).  Returns how
 * many. */
int notation_glossary(const char *const *lines, int nlines, int *out,
		      int max);

/* One glossary line for entry k: "e_t,i  score: ..." with the symbol
 * padded to width columns, into buf (size bytes, cut short to fit).
 * Returns buf. */
char *notation_line(char *buf, size_t size, int k, int width);

/* The table as the Markdown of doc/notation.md's generated part: one
 * table of symbols, one of functions and one of indices.  Returns 0, or
 * -1 on a write error. */
int notation_write_md(FILE *out);

#endif
