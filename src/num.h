/* num.h: numbers to text and back, always with '.', whatever the locale. */
#ifndef ATTN_NUM_H
#define ATTN_NUM_H

#include <stddef.h>

/* Room for any number either formatter writes, with its NUL.  The buf
 * given to num_fixed() and num_shortest() must have this room whatever the
 * number: they may write scratch bytes after the NUL (whole 8-byte words,
 * which is quicker than byte by byte), though never past NUM_BUFSZ. */
#define NUM_BUFSZ 64
/* The largest --precision accepted. */
#define NUM_MAX_PREC 17

/* Makes, once, what this module keeps for the life of the process: the
 * "C" locale that num_parse() and the rare printf fallback switch to, and
 * the power-of-five tables that num_shortest() needs for |x| outside about
 * 2e-9 .. 5e14 (and for subnormals).  Each function here also makes them
 * at its first use if they are missing, which is enough in a program with
 * one thread; a program that formats or parses numbers in several threads
 * must call num_init() from one thread before it starts the others (after
 * that the module only reads them).  Calling it again does nothing. */
void num_init(void);

/* Writes x with exactly prec digits after the point (0 <= prec <=
 * NUM_MAX_PREC) into buf and returns buf.  The point is always '.', and a
 * value that rounds to zero never shows a minus sign ("0.0000", not
 * "-0.0000").  x must be finite. */
char *num_fixed(char *buf, double x, int prec);

/* Writes the shortest decimal form that reads back as exactly the same
 * double (0.1, not 0.10000000000000001), as JSON allows it, and returns
 * buf.  Negative zero is written "0".  x must be finite. */
char *num_shortest(char *buf, double x);

/* num_fixed() and num_shortest() that return the length of what they
 * wrote (not counting the NUL): a caller that goes on writing after the
 * number need not look for its end with strlen(), which would wait for
 * the stores that wrote it. */
size_t num_fixed_len(char *buf, double x, int prec);
size_t num_shortest_len(char *buf, double x);

/* Writes the n numbers of v with num_shortest(), sep (seplen bytes, 1
 * or 2; sep has room for 2 even if seplen is 1) between them, at p, and
 * returns the byte after the last; no NUL.  p needs room for
 * n·(NUM_BUFSZ + seplen) bytes. */
char *num_shortest_join(char *p, const double *v, int n, const char *sep,
			size_t seplen);

/* num_fixed_len() of the n numbers of v, each into its own num[k], its
 * length into len[k] (it is below NUM_BUFSZ); returns the largest length
 * (0 for no numbers).  Quicker than a call a number: what depends on prec
 * alone is worked out once. */
size_t num_fixed_many(char (*num)[NUM_BUFSZ], unsigned char *len,
		      const double *v, int n, int prec);

/* Parses a strict decimal number at s: an optional sign, digits, an optional
 * '.' with digits, an optional exponent.  No hex, nan, inf or leading
 * blanks.  On success stores the value in *out, the first byte after the
 * number in *end, and returns NUM_OK.  Returns NUM_SYNTAX if s does not start
 * with such a number, NUM_RANGE if it overflows a double. */
enum num_status { NUM_OK = 0, NUM_SYNTAX, NUM_RANGE };

/* Writes v in decimal at p, as printf's "%d" would (no locale changes
 * it), and returns the byte after it; no NUL is written.  p needs room for
 * 11 bytes. */
char *num_itoa(char *p, int v);
enum num_status num_parse(const char *s, double *out, const char **end);

#endif
