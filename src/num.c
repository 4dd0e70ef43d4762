/* num.c: numbers to text and back, always with '.', whatever the locale.
 *
 * printf and strtod follow LC_NUMERIC, which a program that called
 * setlocale(LC_ALL, "") may have set to a comma locale.  The two writers
 * therefore do their usual work with integer arithmetic of their own, which
 * no locale touches, and fall back on printf (and strtod) only for the rare
 * number they cannot decide; that fallback, and num_parse(), run with the
 * calling thread switched to the "C" locale by uselocale(), and switched
 * back afterwards.
 *
 * The bytes are those printf writes: num_fixed() is "%.*f", num_shortest()
 * is the first of "%.15g", "%.16g", "%.17g" (from "%.1g" for a subnormal)
 * that strtod reads back as the same double, with the exponent tidied.
 * tests/check_num.c compares both with printf over a few hundred thousand
 * numbers. */
#include "config.h"

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale */
#endif

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "util.h"

/* The "C" locale, made once and kept for the life of the process. */
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

/* 10^k, exact in a uint64_t for k <= 19, and as a double for k <= 22. */
static const uint64_t num_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull
};

/* "00" to "99": two digits at a time. */
static const char num_pairs[200] =
	"00010203040506070809" "10111213141516171819"
	"20212223242526272829" "30313233343536373839"
	"40414243444546474849" "50515253545556575859"
	"60616263646566676869" "70717273747576777879"
	"80818283848586878889" "90919293949596979899";

/* Writes the 8 decimal digits of v < 10^8 at p, with leading zeros: two
 * chains of 32-bit arithmetic that the processor can run side by side. */
static void num_put_8(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v - hi * 10000;
	uint32_t a = hi / 100, b = hi - a * 100, c = lo / 100, d = lo - c * 100;

	memcpy(p, num_pairs + 2 * a, 2);
	memcpy(p + 2, num_pairs + 2 * b, 2);
	memcpy(p + 4, num_pairs + 2 * c, 2);
	memcpy(p + 6, num_pairs + 2 * d, 2);
}

/* Writes v < 10^width as width decimal digits at p, with leading zeros;
 * returns the byte after them.  No NUL. */
static char *num_put_digits(char *p, uint64_t v, int width)
{
	char *q = p + width;

	for (; q - p >= 8; q -= 8) {
		uint64_t h = v / 100000000;
		num_put_8(q - 8, (uint32_t)(v - h * 100000000));
		v = h;
	}
	for (; q - p >= 2; q -= 2) {
		uint64_t h = v / 100;
		memcpy(q - 2, num_pairs + 2 * (v - h * 100), 2);
		v = h;
	}
	if (q > p)
		*--q = (char)('0' + v);
	return p + width;
}

/* Writes v in decimal at p, without leading zeros ("0" for 0); returns the
 * byte after the last digit.  No NUL. */
static char *num_put_u64(char *p, uint64_t v)
{
	int n = 1;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}

	while (n < 20 && v >= num_pow10[n])
		n++;
	return num_put_digits(p, v, n);
}

/* *q = v / 10^k and *r = v % 10^k, 0 <= k < 20: with a constant divisor,
 * which the compiler turns into a multiplication, for the usual k. */
static void num_divmod_pow10(uint64_t v, int k, uint64_t *q, uint64_t *r)
{
	switch (k) {
	case 0: *q = v; break;
	case 1: *q = v / 10; break;
	case 2: *q = v / 100; break;
	case 3: *q = v / 1000; break;
	case 4: *q = v / 10000; break;
	case 5: *q = v / 100000; break;
	case 6: *q = v / 1000000; break;
	case 7: *q = v / 10000000; break;
	case 8: *q = v / 100000000; break;
	default: *q = v / num_pow10[k]; break;
	}
	*r = v - *q * num_pow10[k];
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

/* num_fixed() without printf, for |x|·10^prec < 2^52.  Returns 0, having
 * written nothing, for the numbers it leaves to printf.
 *
 * %.*f rounds the exact value of x to prec decimals, ties to even.  Here
 * y = |x|·10^prec is one rounded multiplication (10^prec is exact as a
 * double), so the exact product Y is within half an ulp of y.  Below 2^52
 * every half-integer is a multiple of ulp(y) (0.5 is, and ulp(y) <= 0.5),
 * so a y that is not itself a half-integer is at least one ulp from the
 * nearest one: no half-integer lies between y and Y, neither is one, and
 * both round to the integer nearest y.  Only when y is exactly a
 * half-integer can Y be below it, above it or on it (a tie such as 0.125
 * at prec 2), and printf decides; that happens for exact ties and about
 * one number in 2^52 / y otherwise.  (A margin such as |frac(y) - 0.5| >
 * 1e-7 would be safe too, and pointless.)  tests/check_num.c compares
 * this with printf over ties, near-ties and random numbers. */
static int num_fixed_fast(char *buf, double x, int prec)
{
	double y = fabs(x) * (double)num_pow10[prec];
	double f;
	uint64_t n;
	int neg, nd, k;
	char *p;

	if (!(y < 0x1p52)) /* also NaN */
		return 0;
	n = (uint64_t)y;
	f = y - (double)n; /* exact: the fraction of y */
	if (f == 0.5)
		return 0;
	n += f > 0.5;
	/* the digits of n, with at least one before the point, written from
	 * the end: two at a time, and the point after prec of them */
	neg = n != 0 && signbit(x);
	for (nd = prec + 1; nd < 20 && n >= num_pow10[nd]; nd++)
		;
	p = buf + neg + nd + (prec > 0);
	*p = '\0';
	for (k = prec; k >= 2; k -= 2, n /= 100)
		memcpy(p -= 2, num_pairs + 2 * (n % 100), 2);
	if (k == 1) {
		*--p = (char)('0' + n % 10);
		n /= 10;
	}
	if (prec > 0)
		*--p = '.';
	for (; p - buf - neg >= 2; n /= 100)
		memcpy(p -= 2, num_pairs + 2 * (n % 100), 2);
	if (p > buf + neg)
		*--p = (char)('0' + n);
	if (neg)
		buf[0] = '-';
	return 1;
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
	if (num_fixed_fast(buf, x, prec))
		return buf;
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

/* The reference num_shortest(), and the fallback of the fast one: printf
 * at 15, 16 and 17 digits until strtod reads the text back as x.  A decimal
 * of at most DBL_DIG (15) significant digits survives the trip to a normal
 * double and back, so if one reads back as x, %.15g prints exactly its
 * digits (%g drops the trailing zeros); only when none does are 16 and
 * then 17 digits needed.  Subnormal doubles hold fewer digits, so for them
 * every precision is tried from 1. */
static void num_shortest_printf(char *buf, double x)
{
	locale_t old = num_enter();

	for (int prec = fabs(x) < DBL_MIN ? 1 : DBL_DIG; prec <= 17; prec++) {
		snprintf(buf, NUM_BUFSZ, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	num_restore(old);
	num_tidy_exponent(buf);
}

#if defined(__SIZEOF_INT128__) && DBL_MANT_DIG == 53 && FLT_RADIX == 2
#define NUM_FAST_SHORTEST 1
#endif

#ifdef NUM_FAST_SHORTEST
/* The fast num_shortest(): the same digits as num_shortest_printf(),
 * computed with integers.
 *
 * x = m·2^e exactly (m < 2^53).  For a chosen power of ten 10^k, the
 * integer V = floor(x·10^-k) has 18 or 19 digits, and from V and whether
 * x·10^-k is an integer, the digits of x rounded to p <= 17 significant
 * digits follow exactly, ties to even as printf rounds them.  Such a
 * decimal reads back as x when it lies inside x's rounding interval, whose
 * ends x ± ulp/2 (ulp/4 below a power of two) are scaled and floored the
 * same way; an end itself reads back as x when m is even (strtod rounds
 * ties to even).  So for p = 15, 16, 17 (1 .. 17 for a subnormal) the
 * first p whose rounding lies inside is the p printf's loop stops at.
 *
 * The scaling multiplies by 5^-k·2^-k: exactly with 128-bit integers for
 * -55 <= k <= 27, and otherwise with the top 128 bits of 5^|k| or of
 * 2^u / 5^|k| (num_pow5 and num_pow5_inv).  Truncating those leaves an
 * error below one unit of the multiplier, so the product is known to lie
 * in [N·M, N·M + N)·2^s; when both ends have the same floor that is the
 * floor, and otherwise (the product within N·2^s of an integer, which
 * happened for none of the doubles tried in testing) num_scale says so and
 * num_shortest falls back on printf. */

__extension__ typedef unsigned __int128 num_u128;

#define NUM_POW5_MAX 341     /* 5^341: 10^-k for the smallest subnormal */
#define NUM_POW5_INV_MAX 290 /* 5^-290: 10^-k for DBL_MAX */
#define NUM_POW5_EXACT 55    /* 5^55 < 2^128 <= 5^56 */
#define NUM_POW5_SMALL 28    /* 5^k < 2^63 for k below this */
#define NUM_BIG_LIMBS 28     /* 32-bit limbs: 896 bits, room for 2^864 */
#define NUM_BIG_ONE 27       /* 2^(32·27) = 2^864 starts the inverses */

/* A 128-bit multiplier (hi, lo) with a power of two: 5^k is (hi:lo)·2^shift
 * in num_pow5, 5^-k is (hi:lo)·2^-shift in num_pow5_inv; truncated (and
 * then exactly 128 bits long) except for 5^k, k <= NUM_POW5_EXACT, which
 * are exact with shift 0. */
struct num_pow {
	uint64_t hi, lo;
	int shift;
};

/* Filled by num_tables() at the first use: the module's other globals. */
static struct num_pow num_pow5[NUM_POW5_MAX + 1];
static struct num_pow num_pow5_inv[NUM_POW5_INV_MAX + 1];
static int num_tables_ready;

/* The top 128 bits of the big number x (NUM_BIG_LIMBS limbs, least
 * significant first, not zero), or all of it if it is shorter; sets shift
 * to the number of bits below them. */
static struct num_pow num_big_top(const uint32_t *x)
{
	struct num_pow r;
	uint32_t w[4];
	int top = NUM_BIG_LIMBS - 1, bits, limb, bit;

	while (x[top] == 0)
		top--;
	bits = 32 * top + 32 - __builtin_clz(x[top]);
	r.shift = bits > 128 ? bits - 128 : 0;
	limb = r.shift / 32;
	bit = r.shift % 32;
	for (int j = 0; j < 4; j++) {
		uint64_t lo = limb + j < NUM_BIG_LIMBS ? x[limb + j] : 0;
		uint64_t hi = limb + j + 1 < NUM_BIG_LIMBS ? x[limb + j + 1] : 0;
		w[j] = (uint32_t)(((hi << 32) | lo) >> bit);
	}
	r.hi = (uint64_t)w[3] << 32 | w[2];
	r.lo = (uint64_t)w[1] << 32 | w[0];
	return r;
}

/* Fills the tables with a small big-number calculation (about 20,000
 * limb operations): 5^k by multiplying by 5, and floor(2^864 / 5^k) by
 * dividing by 5, since floor(floor(a / 5^k) / 5) = floor(a / 5^(k+1)).
 * Not thread-safe; attn-trace has one thread. */
static void num_tables(void)
{
	uint32_t big[NUM_BIG_LIMBS] = { 1 };
	uint64_t carry;

	for (int k = 0; k <= NUM_POW5_MAX; k++) {
		num_pow5[k] = num_big_top(big);
		carry = 0;
		for (int j = 0; j < NUM_BIG_LIMBS; j++) {
			carry += (uint64_t)big[j] * 5;
			big[j] = (uint32_t)carry;
			carry >>= 32;
		}
	}
	memset(big, 0, sizeof big);
	big[NUM_BIG_ONE] = 1;
	for (int k = 0; k <= NUM_POW5_INV_MAX; k++) {
		num_pow5_inv[k] = num_big_top(big);
		num_pow5_inv[k].shift = 32 * NUM_BIG_ONE - num_pow5_inv[k].shift;
		carry = 0;
		for (int j = NUM_BIG_LIMBS - 1; j >= 0; j--) {
			carry = carry << 32 | big[j];
			big[j] = (uint32_t)(carry / 5);
			carry %= 5;
		}
	}
	num_tables_ready = 1;
}

void num_init(void)
{
	if (!num_tables_ready)
		num_tables();
	num_restore(num_enter()); /* makes num_c_locale */
}

/* w (3 limbs, least significant first) = n·(hi:lo). */
static inline void num_mul(uint64_t *w, uint64_t n, uint64_t hi, uint64_t lo)
{
	num_u128 a = (num_u128)n * lo;
	num_u128 b = (num_u128)n * hi;
	num_u128 mid = (a >> 64) + (uint64_t)b;

	w[0] = (uint64_t)a;
	w[1] = (uint64_t)mid;
	w[2] = (uint64_t)(b >> 64) + (uint64_t)(mid >> 64);
}

/* *q = floor(w / 2^s) for 0 < s < 192, and *zero = whether w mod 2^s is 0.
 * Returns 0 if the quotient does not fit in 64 bits. */
static inline int num_shr(const uint64_t *w, int s, uint64_t *q, int *zero)
{
	num_u128 hi;

	if (s > 0 && s < 64) {
		hi = ((num_u128)w[1] << 64 | w[0]) >> s;
		*zero = (w[0] << (64 - s)) == 0;
		if (w[2] != 0)
			return 0;
	} else if (s >= 64 && s < 128) {
		hi = ((num_u128)w[2] << 64 | w[1]) >> (s - 64);
		*zero = w[0] == 0 && (s == 64 || (w[1] << (128 - s)) == 0);
	} else if (s >= 128 && s < 192) {
		hi = w[2] >> (s - 128);
		*zero = w[0] == 0 && w[1] == 0 &&
			(s == 128 || (w[2] << (192 - s)) == 0);
	} else {
		return 0;
	}
	*q = (uint64_t)hi;
	return (hi >> 64) == 0;
}

/* num_scale() for the cases that need more than one 64-bit product: |x|
 * below about 1e-10 or above about 1e16. */
static int num_scale_wide(uint64_t N, int a, int b, uint64_t *v, int *exact)
{
	const struct num_pow *m;
	uint64_t w[3], q;
	int s, zero;

	if (b >= 0) { /* N·5^b·2^(a+b) */
		if (b > NUM_POW5_MAX)
			return 0;
		m = &num_pow5[b];
		num_mul(w, N, m->hi, m->lo);
		s = a + b + m->shift;
		if (s >= 0) { /* an integer: only with an exact 5^b */
			if (m->shift != 0 || s >= 64 || w[2] != 0 || w[1] != 0 ||
			    (s > 0 && (w[0] >> (64 - s)) != 0))
				return 0;
			*v = w[0] << s;
			*exact = 1;
			return 1;
		}
		if (!num_shr(w, -s, v, exact))
			return 0;
		if (m->shift == 0)
			return 1;
	} else if (-b < NUM_POW5_SMALL) { /* N·2^(a+b) / 5^-b */
		uint64_t d = num_pow5[-b].lo;
		num_u128 num, quo;
		s = a + b;
		if (s < 0 || s > 72) /* N·2^s must fit in 128 bits */
			return 0;
		num = (num_u128)N << s;
		quo = num / d;
		if ((quo >> 64) != 0)
			return 0;
		*v = (uint64_t)quo;
		*exact = num % d == 0;
		return 1;
	} else { /* N·2^(a+b)·5^b */
		if (-b > NUM_POW5_INV_MAX)
			return 0;
		m = &num_pow5_inv[-b];
		num_mul(w, N, m->hi, m->lo);
		s = a + b - m->shift;
		if (s >= 0 || !num_shr(w, -s, v, exact))
			return 0;
	}
	/* A truncated multiplier: the product lies in [w, w + N)·2^s.  It is
	 * never an integer: for b > 55, x·10^b = N·5^b / 2^-s with 2^-s > N;
	 * for b < -27, 5^-b > N does not divide N. */
	w[0] += N;
	if (w[0] < N && ++w[1] == 0)
		w[2]++;
	if (!num_shr(w, -s, &q, &zero) || q != *v)
		return 0;
	*exact = 0;
	return 1;
}

/* *v = floor(N·2^a·10^b) and *exact = whether that is exact, for
 * 0 < N < 2^56 and a result below 2^64.  Returns 0 when it cannot decide
 * (see above) or the result does not fit. */
static inline int num_scale(uint64_t N, int a, int b, uint64_t *v,
			    int *exact)
{
	if (b >= 0 && b < NUM_POW5_SMALL && a + b < 0 && a + b > -128) {
		/* the usual case, |x| from about 1e-10 to 1e16: N·5^b, exact
		 * and below 2^118, shifted right */
		num_u128 prod = (num_u128)N * num_pow5[b].lo;
		num_u128 quo = prod >> -(a + b);
		if ((quo >> 64) != 0)
			return 0;
		*v = (uint64_t)quo;
		*exact = (quo << -(a + b)) == prod;
		return 1;
	}
	return num_scale_wide(N, a, b, v, exact);
}

/* floor(e2·log10(2)) for |e2| <= 1100 (all a double needs): 78913 / 2^18
 * is close enough to log10(2) over that range, checked against a 60-digit
 * log10(2) for every e2 in it. */
static int num_log10_pow2(int e2)
{
	if (e2 >= 0)
		return (int)(((int64_t)e2 * 78913) >> 18);
	return -(int)(((int64_t)-e2 * 78913 + (1 << 18) - 1) >> 18);
}

/* Writes the p-digit decimal d (10^(p-1) <= d < 10^p) times 10^(X-p+1)
 * as "%.{p}g" writes it, trailing zeros dropped, and the exponent tidied
 * ("1.5e-7", "1e21"); returns the NUL at the end. */
static char *num_put_g(char *out, uint64_t d, int p, int X)
{
	char dig[20];
	int k;

	num_put_digits(dig, d, p);
	for (k = p; k > 1 && dig[k - 1] == '0'; k--)
		;
	if (X < -4 || X >= p) {
		*out++ = dig[0];
		if (k > 1) {
			*out++ = '.';
			memcpy(out, dig + 1, (size_t)k - 1);
			out += k - 1;
		}
		*out++ = 'e';
		if (X < 0)
			*out++ = '-';
		out = num_put_u64(out, (uint64_t)(X < 0 ? -X : X));
	} else if (X >= 0) {
		memcpy(out, dig, (size_t)X + 1);
		out += X + 1;
		if (k > X + 1) {
			*out++ = '.';
			memcpy(out, dig + X + 1, (size_t)(k - X - 1));
			out += k - X - 1;
		}
	} else {
		*out++ = '0';
		*out++ = '.';
		for (int z = 0; z < -X - 1; z++)
			*out++ = '0';
		memcpy(out, dig, (size_t)k);
		out += k;
	}
	*out = '\0';
	return out;
}

/* num_shortest() for a finite non-zero x, without printf; returns 0,
 * having written nothing, in the cases it leaves to printf. */
static int num_shortest_fast(char *buf, double x)
{
	uint64_t bits, m, frac, v, vp, vm;
	int be, e, k, n, ex, exp_, exm, even;

	if (!num_tables_ready)
		num_tables();
	memcpy(&bits, &x, sizeof bits);
	be = (int)(bits >> 52 & 0x7ff);
	frac = bits & ((1ull << 52) - 1);
	m = be == 0 ? frac : frac | 1ull << 52;
	e = be == 0 ? -1074 : be - 1075;
	/* step 1: V = floor(x·10^-k), 10^17 <= V < 2·10^18 */
	k = num_log10_pow2(e + 63 - __builtin_clzll(m)) - 17;
	if (!num_scale(4 * m, e - 2, -k, &v, &ex) ||
	    !num_scale(4 * m + 2, e - 2, -k, &vp, &exp_) ||
	    !num_scale(4 * m - (frac == 0 && be > 1 ? 1 : 2), e - 2, -k, &vm,
		       &exm) ||
	    v < num_pow10[17])
		return 0;
	n = v >= num_pow10[18] ? 19 : 18;
	even = (m & 1) == 0;
	/* step 2: round to p digits until the result reads back as x */
	for (int p = be == 0 ? 1 : DBL_DIG; p <= 17; p++) {
		uint64_t unit = num_pow10[n - p], d, r, c;
		num_divmod_pow10(v, n - p, &d, &r);
		d += r > unit / 2 || (r == unit / 2 && (!ex || (d & 1)));
		c = d * unit;
		if (!(c < vp || (c == vp && (!exp_ || even))) ||
		    !(c > vm || (c == vm && exm && even)))
			continue;
		/* step 3: write it as printf would */
		int X = n - 1 + k;
		if (d == num_pow10[p]) { /* 9.99.. rounded up to 10.0.. */
			d = num_pow10[p - 1];
			X++;
		}
		if (x < 0)
			*buf++ = '-';
		num_put_g(buf, d, p, X);
		return 1;
	}
	return 0;
}
#endif

char *num_shortest(char *buf, double x)
{
	if (x == 0.0 || !isfinite(x)) {
		/* zero of either sign; non-finite breaks the contract */
		memcpy(buf, x == 0.0 ? "0" : "null", x == 0.0 ? 2 : 5);
		return buf;
	}
#ifdef NUM_FAST_SHORTEST
	if (num_shortest_fast(buf, x))
		return buf;
#endif
	num_shortest_printf(buf, x);
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

char *num_itoa(char *p, int v)
{
	char tmp[12];
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	int n = 0;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*p++ = '-';
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}
