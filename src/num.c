/* num.c: numbers to text and back, always with '.', whatever the locale.
 *
 * printf and strtod follow LC_NUMERIC, which a program that called
 * setlocale(LC_ALL, "") may have set to a comma locale.  Every conversion
 * here therefore runs with the calling thread switched to the "C" locale by
 * uselocale(), and switched back afterwards. */
#include "config.h"

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale */
#endif

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "util.h"

/* The "C" locale, made once and kept for the life of the process: the one
 * global of this module. */
static locale_t num_c_locale = (locale_t)0;

/* Switches the calling thread to the "C" locale and returns the locale to
 * give back to num_restore(). */
static locale_t num_enter(void)
{
	if (num_c_locale == (locale_t)0) {
		num_c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		if (num_c_locale == (locale_t)0) {
			/* only fails when memory runs out */
			fputs("attn-trace: out of memory\n", stderr);
			abort();
		}
	}
	return uselocale(num_c_locale);
}

static void num_restore(locale_t old)
{
	uselocale(old);
}

/* Drops the sign of a number whose digits are all zero ("-0.00"). */
static void num_unsign_zero(char *buf)
{
	const char *p;

	if (buf[0] != '-')
		return;
	for (p = buf + 1; *p != '\0' && *p != 'e'; p++)
		if (*p != '0' && *p != '.')
			return;
	memmove(buf, buf + 1, strlen(buf));
}

/* A finite double needs up to 309 digits before the point, more than
 * NUM_BUFSZ holds; such a number (|x| >= 1e45 or so) is written in the
 * exponent form "1.2340e+300", still with prec digits after the point. */
char *num_fixed(char *buf, double x, int prec)
{
	locale_t old;
	int n;

	if (prec < 0)
		prec = 0;
	if (prec > NUM_MAX_PREC)
		prec = NUM_MAX_PREC;
	old = num_enter();
	n = snprintf(buf, NUM_BUFSZ, "%.*f", prec, x);
	if (n < 0 || n >= NUM_BUFSZ)
		snprintf(buf, NUM_BUFSZ, "%.*e", prec, x);
	num_restore(old);
	num_unsign_zero(buf);
	return buf;
}

/* Rewrites printf's exponent "e+05" / "e-05" as "e5" / "e-5". */
static void num_tidy_exponent(char *buf)
{
	char *e = strchr(buf, 'e');
	char *d;

	if (e == NULL)
		return;
	d = e + 1;
	if (*d == '-')
		d++;
	else if (*d == '+')
		memmove(d, d + 1, strlen(d));
	while (d[0] == '0' && d[1] != '\0')
		memmove(d, d + 1, strlen(d));
}

char *num_shortest(char *buf, double x)
{
	locale_t old;
	int prec;

	if (x == 0.0 || !isfinite(x)) {
		/* zero of either sign; non-finite breaks the contract */
		snprintf(buf, NUM_BUFSZ, "%s", x == 0.0 ? "0" : "null");
		return buf;
	}
	/* A decimal of at most DBL_DIG (15) significant digits survives the
	 * trip to a normal double and back, so if one reads back as x, %.15g
	 * prints exactly its digits (%g drops the trailing zeros); only when
	 * none does are 16 and then 17 digits needed.  Subnormal doubles hold
	 * fewer digits, so for them every precision is tried from 1. */
	old = num_enter();
	for (prec = fabs(x) < DBL_MIN ? 1 : DBL_DIG; prec <= 17; prec++) {
		snprintf(buf, NUM_BUFSZ, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	num_restore(old);
	num_tidy_exponent(buf);
	return buf;
}

/* Returns the length of the strict number at s, or 0 if s does not start
 * with one.  The grammar is JSON's, except that leading zeros and a '+'
 * sign are allowed:
 *
 *     number   = [ "+" | "-" ] digits [ "." digits ] [ exponent ]
 *     exponent = ( "e" | "E" ) [ "+" | "-" ] digits
 *
 * So ".5" is not a number, and "5." is the number "5" followed by a '.',
 * like "1e" is "1" followed by an 'e': the caller sees that the field goes
 * on past the number and decides what that means. */
static size_t num_scan(const char *s)
{
	size_t i = 0, mark;

	if (s[i] == '+' || s[i] == '-')
		i++;
	if (s[i] < '0' || s[i] > '9')
		return 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	if (s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
		i++;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (s[i] == 'e' || s[i] == 'E') {
		mark = i++;
		if (s[i] == '+' || s[i] == '-')
			i++;
		if (s[i] < '0' || s[i] > '9')
			return mark;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return i;
}

enum num_status num_parse(const char *s, double *out, const char **end)
{
	char small[NUM_BUFSZ];
	char *copy = small;
	size_t n = num_scan(s);
	locale_t old;
	double v;

	if (n == 0)
		return NUM_SYNTAX;
	/* strtod would read further than the grammar ("5.e3", "0x10"), so it
	 * gets only the scanned span. */
	if (n >= sizeof small)
		copy = xmalloc(n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	old = num_enter();
	v = strtod(copy, NULL);
	num_restore(old);
	if (copy != small)
		free(copy);
	if (end != NULL)
		*end = s + n;
	if (isinf(v))
		return NUM_RANGE;
	*out = v;
	return NUM_OK;
}
