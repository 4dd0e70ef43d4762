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

#if defined(__SSE2__) && !defined(NUM_NO_SIMD) /* every x86-64 */
#include <emmintrin.h>
#define NUM_SIMD 1
#endif

#include "num.h"
#include "util.h"

/* Keeps a rare case out of line, so that it does not weigh on the code of
 * the usual one. */
#ifdef __GNUC__
#define NUM_NOINLINE __attribute__((noinline))
#else
#define NUM_NOINLINE
#endif

/* The "C" locale, made once and kept for the life of the process. */
static locale_t num_c_locale = (locale_t)0;

/* num_c_locale, made at the first call (or by num_init()). */
static locale_t num_locale(void)
{
	if (num_c_locale == (locale_t)0) {
		num_c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		if (num_c_locale == (locale_t)0) {
			/* only fails when memory runs out */
			util_out_of_memory();
		}
	}
	return num_c_locale;
}

/* Switches the calling thread to the "C" locale and returns the locale to
 * give back to num_restore(). */
static locale_t num_enter(void)
{
	return uselocale(num_locale());
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

/* The 8 decimal digits of v < 10^8, one a byte, the first in the lowest
 * byte, as values 0 to 9 (add NUM_ASCII8 for the characters).  A division
 * a digit would be a long chain; instead v is split into two halves of 4
 * digits, each half into two pairs, each pair into two digits, with every
 * part side by side in lanes of one 64-bit word, so each step is one
 * multiplication for all lanes at once.  The per-lane divisions cannot
 * carry into the next lane: x / 100 = x·5243 >> 19 for x < 10^4 (below
 * 2^26 in a 32-bit lane) and x / 10 = x·103 >> 10 for x < 100 (below 2^14
 * in a 16-bit lane), both checked for every x in range; the masks drop
 * what the shift brings down from the lane above. */
static inline uint64_t num_swar8(uint32_t v)
{
	uint64_t w = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t h = (w * 5243 >> 19) & 0x0000007f0000007full;

	w = h | (w - h * 100) << 16;
	h = (w * 103 >> 10) & 0x000f000f000f000full;
	return h | (w - h * 10) << 8;
}

#define NUM_ASCII8 0x3030303030303030ull /* '0' in every byte */

/* Stores the 8 bytes of w at p, the lowest byte first on any machine. */
static inline void num_store8(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
	__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(p, &w, sizeof w);
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

/* 10^k as a double for every precision: exact (any 10^k up to 10^22 is),
 * and read straight from a table, with no conversion from num_pow10. */
static const double num_pow10_fixed[NUM_MAX_PREC + 1] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17
};

/* The digits of n (more than 8 of them, or prec >= 8), at least one
 * before the point, the point before the last prec of them, and the NUL,
 * at p = buf or buf + 1 (after a '-'); returns the length of all that
 * buf holds.  Written from the end, two digits at a time. */
static NUM_NOINLINE size_t num_fixed_long(char *buf, char *p, uint64_t n,
					  int prec)
{
	int nd, k;
	char *q, *end;

	for (nd = prec + 1; nd < 20 && n >= num_pow10[nd]; nd++)
		;
	q = end = p + nd + (prec > 0);
	*q = '\0';
	for (k = prec; k >= 2; k -= 2, n /= 100)
		memcpy(q -= 2, num_pairs + 2 * (n % 100), 2);
	if (k == 1) {
		*--q = (char)('0' + n % 10);
		n /= 10;
	}
	if (prec > 0)
		*--q = '.';
	for (; q - p >= 2; n /= 100)
		memcpy(q -= 2, num_pairs + 2 * (n % 100), 2);
	if (q > p)
		*--q = (char)('0' + n);
	return (size_t)(end - buf);
}

/* num_fixed() by printf, for what num_fixed_len() leaves; returns the
 * length.  A finite double needs up to 309 digits before the point, more
 * than NUM_BUFSZ holds; such a number (|x| >= 1e45 or so) is written in
 * the exponent form "1.2340e+300", still with prec digits after the
 * point. */
static NUM_NOINLINE size_t num_fixed_printf(char *buf, double x, int prec)
{
	locale_t old = num_enter();
	int n = snprintf(buf, NUM_BUFSZ, "%.*f", prec, x);

	if (n < 0 || n >= NUM_BUFSZ)
		snprintf(buf, NUM_BUFSZ, "%.*e", prec, x);
	num_restore(old);
	num_unsign_zero(buf);
	return strlen(buf);
}

/* Without printf for |x|·10^prec < 2^52, and by printf for the rest;
 * prec is in range, and scale is 10^prec.  For num_fixed_len(), where the
 * calls to the rarer paths are tail calls (so that the usual number,
 * written here, needs no stack frame), and for num_fixed_many(), whose
 * loop computes what depends on prec alone once for all its numbers.
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
 * this with printf over ties, near-ties and random numbers.
 *
 * The usual number (at most 8 digits in all and prec < 8, such as 0.5716
 * or -12.3000 at prec 4: nearly every number of a text trace) is written
 * from one num_swar8 word, with no loop and no branch that depends on the
 * number: its leading zero digits are the zero bytes at the low end of
 * the word, which one count of trailing zero bits finds, and two stores
 * write the digits before the point, the leading zeros shifted out, and
 * the prec after it.  Each store writes 8 bytes, some of them past the
 * end of the number, which the next store or the NUL overwrites; none
 * goes further than 18 bytes into buf. */
static inline __attribute__((always_inline)) size_t
num_fixed_one(char *buf, double x, int prec, double scale)
{
	double y = fabs(x) * scale, z;
	uint64_t n, d, w, bits;
	unsigned lead8;
	char *p;

	if (!(y < 0x1p52)) /* also NaN */
		return num_fixed_printf(buf, x, prec);
	/* z = y + 1/2, rounded.  No integer lies strictly between y + 1/2
	 * and z (the rounding would stop on it), so unless z is an integer,
	 * its integer part is floor(y + 1/2), and y is no half-integer (y +
	 * 1/2 would be an integer, and so would z): n is y rounded.  An
	 * integer z is a tie, or a y within an ulp of one, for printf.
	 * (Signed conversions: quicker than unsigned ones, and exact.) */
	z = y + 0.5;
	n = (uint64_t)(int64_t)z;
	if ((double)(int64_t)n == z)
		return num_fixed_printf(buf, x, prec);
	/* the sign bit, but no sign on a number that rounds to zero */
	memcpy(&bits, &x, sizeof bits);
	buf[0] = '-'; /* overwritten by the first digit if not negative */
	p = buf + ((bits >> 63) & (n != 0));
	if (n >= 100000000 || prec >= 8)
		return num_fixed_long(buf, p, n, prec);
	d = num_swar8((uint32_t)n);
	/* 8 times the leading zeros, but never the units digit (byte 7 -
	 * prec), which is there even when it is 0: the mask's bit stops the
	 * count there, and n = 0 (d = 0) needs no case of its own */
	lead8 = (unsigned)__builtin_ctzll(d | 1ull << 8 * (7 - prec)) & ~7u;
	w = d + NUM_ASCII8;
	num_store8(p, w >> lead8);
	p += (size_t)(8 - prec) - lead8 / 8;
	if (prec > 0) {
		*p++ = '.';
		num_store8(p, w >> 8 * (8 - prec));
		p += prec;
	}
	*p = '\0';
	return (size_t)(p - buf);
}

static inline int num_prec(int prec)
{
	if ((unsigned)prec > NUM_MAX_PREC)
		prec = prec < 0 ? 0 : NUM_MAX_PREC;
	return prec;
}

size_t num_fixed_len(char *buf, double x, int prec)
{
	prec = num_prec(prec);
	return num_fixed_one(buf, x, prec, num_pow10_fixed[prec]);
}

size_t num_fixed_many(char (*num)[NUM_BUFSZ], unsigned char *len,
		      const double *v, int n, int prec)
{
	size_t most = 0;

	prec = num_prec(prec);
	for (int k = 0; k < n; k++) {
		size_t l = num_fixed_one(num[k], v[k], prec,
					 num_pow10_fixed[prec]);
		len[k] = (unsigned char)l;
		if (l > most)
			most = l;
	}
	return most;
}

char *num_fixed(char *buf, double x, int prec)
{
	num_fixed_len(buf, x, prec);
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
 * computed with integers, by one of two routes.
 *
 * Both rest on this.  x = m·2^e exactly (m < 2^53).  Scaled by a power of
 * ten, its integer part and what lies above it (or just whether anything
 * does) give the digits of x rounded to p <= 17 significant digits
 * exactly, ties to even as printf rounds them.  Such a decimal reads back
 * as x when it lies inside x's rounding interval, whose ends are x ± ulp/2
 * (ulp/4 below a power of two); an end itself reads back as x when m is
 * even (strtod rounds ties to even).  So for p = 15, 16, 17 (1 .. 17 for a
 * subnormal) the first p whose rounding lies inside is the p printf's
 * loop stops at.
 *
 * The usual route, num_shortest_fast(), takes |x| from about 1.9e-9 to
 * 5.6e14 and is described there.  The general one, num_shortest_wide(),
 * computes V = floor(x·10^-k), 19 digits, whether it is exact, and the
 * ends of the interval scaled and floored the same way, with num_scale:
 * it multiplies by 5^-k·2^-k, exactly with 128-bit integers for -55 <= k
 * <= 27, and otherwise with the top 128 bits of 5^|k| or of 2^u / 5^|k|
 * (num_pow5 and num_pow5_inv).  Truncating those leaves an error below one
 * unit of the multiplier, so the product is known to lie in [N·M, N·M +
 * N)·2^s; when both ends have the same floor that is the floor, and
 * otherwise (the product within N·2^s of an integer, which happened for
 * none of the doubles tried in testing) num_scale says so and
 * num_shortest falls back on printf. */

__extension__ typedef unsigned __int128 num_u128;

/* All ones if c, else 0, as a value the compiler cannot trace back to c:
 * for the selects below it would otherwise bring back the branch on c
 * that the mask was there to avoid, on conditions such as "16 digits or
 * 17" that come out either way about as often, which no branch predictor
 * guesses. */
static inline uint64_t num_mask(int c)
{
	uint64_t m = 0 - (uint64_t)(c != 0);

	__asm__("" : "+r"(m));
	return m;
}

#define NUM_POW5_MAX 342     /* 5^342: 10^-k for the smallest subnormal */
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
 * Not thread-safe: a program with threads calls num_init() before it
 * starts them (see num.h); the usual numbers never need the tables. */
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
 * log10(2) for every e2 in it.  The product is lifted by 400·2^18 so that
 * the shift sees a positive number and floors without a branch on the sign
 * (the largest sum, 1100·78913 + 400·2^18, is below 2^28). */
static inline int num_log10_pow2(int e2)
{
	return ((e2 * 78913 + (400 << 18)) >> 18) - 400;
}

/* 5^(k-1) for k = 0 .. 24, exact: the multipliers of the usual case,
 * constant so that it needs neither num_tables() nor a check that they
 * are filled.  The 0 in front stands for 5^-1, which is loaded (for an X
 * one more than the largest) but never used. */
static const uint64_t num_pow5_m1[25] = {
	0ull, 1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull,
	390625ull, 1953125ull, 9765625ull, 48828125ull, 244140625ull,
	1220703125ull, 6103515625ull, 30517578125ull, 152587890625ull,
	762939453125ull, 3814697265625ull, 19073486328125ull,
	95367431640625ull, 476837158203125ull, 2384185791015625ull,
	11920928955078125ull
};

/* The 15 digits of Q = hi·10^8 + lo (hi < 10^7, lo < 10^8) after a '0',
 * as 16 characters, for num_put_words().  With SSE2 they are made in one
 * register, both halves at once, in the steps of num_swar8: 4-digit
 * groups in 32-bit lanes (x / 10^4 = x·0xd1b71759 >> 45 for any 32-bit
 * x, as compilers divide), pairs in 16-bit lanes (x / 100 = x·5243 >> 19
 * for x < 10^4) and digits in bytes (x / 10 = x·6554 >> 16 for x < 100),
 * checked for every x in range; elsewhere as two num_swar8 words. */
#ifdef NUM_SIMD
typedef __m128i num_dig16;

static inline num_dig16 num_dig16_of(uint32_t hi, uint32_t lo)
{
	__m128i x = _mm_set_epi64x((long long)lo, (long long)hi);
	__m128i q = _mm_srli_epi64(_mm_mul_epu32(x,
				   _mm_set1_epi32((int)0xd1b71759)), 45);
	__m128i r = _mm_sub_epi32(x, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
	__m128i y = _mm_or_si128(q, _mm_slli_epi64(r, 32));
	__m128i d = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi16(5243)), 3);
	__m128i z = _mm_or_si128(d, _mm_slli_epi32(_mm_sub_epi16(y,
				 _mm_mullo_epi16(d, _mm_set1_epi16(100))), 16));
	__m128i t = _mm_mulhi_epu16(z, _mm_set1_epi16(6554));
	__m128i u = _mm_sub_epi16(z, _mm_mullo_epi16(t, _mm_set1_epi16(10)));

	return _mm_add_epi8(_mm_or_si128(t, _mm_slli_epi16(u, 8)),
			    _mm_set1_epi8('0'));
}

static inline void num_dig16_store(char *p, num_dig16 d)
{
	_mm_storeu_si128((__m128i *)(void *)p, d);
}

/* The index of the last digit that is not '0' (there is one, Q's first). */
static inline int num_dig16_last(num_dig16 d)
{
	unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(d,
						    _mm_set1_epi8('0')));

	return 31 - __builtin_clz(zero ^ 0xffff);
}

static inline char num_dig16_first(num_dig16 d)
{
	return (char)(_mm_extract_epi16(d, 0) >> 8);
}
#else
typedef struct {
	uint64_t w[2]; /* num_swar8 of hi and of lo: values, not characters */
} num_dig16;

static inline num_dig16 num_dig16_of(uint32_t hi, uint32_t lo)
{
	num_dig16 d = { { num_swar8(hi), num_swar8(lo) } };

	return d;
}

static inline void num_dig16_store(char *p, num_dig16 d)
{
	num_store8(p, d.w[0] + NUM_ASCII8);
	num_store8(p + 8, d.w[1] + NUM_ASCII8);
}

static inline int num_dig16_last(num_dig16 d)
{
	return d.w[1] != 0 ? 8 + (63 - __builtin_clzll(d.w[1])) / 8
			   : (63 - __builtin_clzll(d.w[0])) / 8;
}

static inline char num_dig16_first(num_dig16 d)
{
	return (char)('0' + (d.w[0] >> 8 & 0xff));
}
#endif

/* Writes x, whose rounding to p significant digits has the 15 digits of a
 * number Q (10^14 <= Q < 10^15) followed by the 2 of L2 (< 100), zeros at
 * the end for p < 17, and the decimal exponent X (of Q's first digit), as
 * "%.{p}g" writes it: trailing zeros dropped, the exponent tidied
 * ("1.5e-7", "1e21"), after a '-' if neg.  Q comes as num_dig16_of()
 * made it.  In a fast call (fast is a constant), -9 <= X <= 14 and p >=
 * 15, so X < p.
 *
 * Every layout is a few stores of whole words at offsets that depend on X,
 * and the significant digits end at L2 or at the last one of Q that is not
 * 0, so there is no scan for zeros.  The usual layouts, "0.000ddd" (-4 <=
 * X < 0) and "d.ddd" (X = 0, and the exponent form), differ only in where
 * the digits go, so they share one sequence of stores over "0.000000"
 * without a branch on which (X is -1 or 0 about equally often in a
 * trace); for the same reason a fast call always stores an exponent, and
 * keeps it or not by where it puts the NUL.  Stores reach past the end of
 * the number (overwritten, or after the NUL), never further than 36 bytes
 * into buf. */
static inline __attribute__((always_inline)) char *
num_put_words(char *buf, int neg, num_dig16 dig, uint32_t L2, int p, int X,
	      int fast)
{
	char *o = buf + neg;
	int last = num_dig16_last(dig), n2 = 17 - (L2 % 10 == 0);
	int nd, zf, at, dot, ex;

	/* nd significant digits (L2 is 0 for 1 number in 8) */
	nd = last ^ ((last ^ n2) & (int)num_mask(L2 != 0));
	buf[0] = '-'; /* overwritten by the first digit if not neg */
	if (X > 0 && (fast || X < p)) { /* "123.45": X + 1 digits first */
		char dg[48] = { 0 };
		num_dig16_store(dg, dig); /* '0', then the digits from dg + 1 */
		memcpy(dg + 16, num_pairs + 2 * L2, 2);
		memcpy(o, dg + 1, 24);
		o[X + 1] = '.';
		memcpy(o + X + 2, dg + X + 2, 16);
		o += nd > X + 1 ? nd + 1 : X + 1;
		*o = '\0';
		return o;
	}
	/* "0.000ddd" (zf) puts the first digit after 1 - X bytes of
	 * "0.000000" and the rest right after it; "d.ddd" puts it on the '0'
	 * and the rest after the '.'.  Q's digits are stored from the byte
	 * before the first, which is in "0.000000" or the first digit, and
	 * L2's right after them. */
	zf = (unsigned)(X + 4) < 4; /* -4 <= X < 0 */
	at = (1 - X) & -zf;
	dot = !zf;
	memcpy(o, "0.000000", 8);
	num_dig16_store(o + at + dot - 1, dig);
	memcpy(o + at + dot + 15, num_pairs + 2 * L2, 2);
	o[0] = (char)('0' + ((num_dig16_first(dig) - '0') &
			     (int)num_mask(dot)));
	o[1] = '.';
	/* after the last digit; a lone digit in "d.ddd" drops the point */
	o += at + dot + nd - (dot && nd == 1);
	ex = X < -4 || (!fast && X >= p);
	if (fast) {
		/* "e-5" .. "e-9", stored whether or not it is kept */
		num_store8(o, 'e' | '-' << 8 | (uint32_t)('0' - X) << 16);
		o += 3 & (int)num_mask(ex);
	} else if (ex) { /* "1.2345e-307" */
		*o++ = 'e';
		if (X < 0) {
			*o++ = '-';
			X = -X;
		}
		if (X >= 100) {
			*o++ = (char)('0' + X / 100);
			X %= 100;
			memcpy(o, num_pairs + 2 * X, 2);
			o += 2;
		} else if (X >= 10) {
			memcpy(o, num_pairs + 2 * X, 2);
			o += 2;
		} else {
			*o++ = (char)('0' + X);
		}
	}
	*o = '\0';
	return o;
}

/* num_put_words() for Q itself, 10^14 <= Q <= 10^15 (10^15 when 9.99..
 * rounded up to 10.0..): the rounded numbers that carried into Q, and the
 * subnormals. */
static NUM_NOINLINE char *
num_put_q(char *buf, int neg, uint64_t Q, uint32_t L2, int p, int X)
{
	uint64_t qh;

	if (Q == num_pow10[15]) {
		Q = num_pow10[14];
		X++;
	}
	qh = Q / 100000000;
	return num_put_words(buf, neg,
			     num_dig16_of((uint32_t)qh,
					  (uint32_t)(Q - qh * 100000000)),
			     L2, p, X, 0);
}

/* The digits of a normal x, from V = floor(x·10^-k), 10^18 <= V < 10^19
 * (inexact if x·10^-k is not an integer), and the rounding interval in
 * units of V: a decimal c reads back as x when -lw <= c - V <= hw (an end
 * counts when it is exact and m even; the caller has folded that in).
 * Finds the p at which printf's loop stops and writes x; returns 0, having
 * written nothing, if not even 17 digits land inside, which the old loop
 * allowed for and a normal double never does.
 *
 * The roundings of V to p = 15, 16, 17 digits, at the units 10^4, 10^3,
 * 10^2, change only its last 4 digits b0 (and carry into Q = V / 10^4
 * when b0 rounds up to 10^4), so all three are decided on b0 with small
 * integers, each as the step e from V to it: V·10^-unit rounded half to
 * even (printf's rounding) when exact, and a remainder of half a unit is
 * more than half when it is not.  The parity of the quotient is that of
 * its last digit, in b0 except for p = 15.  The three are independent of
 * each other and of Q's digits, so the processor works on all of them at
 * once, and the first inside is chosen with masks, not branches: 16 and 17
 * digits are about equally likely in a trace, which no branch predictor
 * guesses. */
static inline __attribute__((always_inline)) int
num_pick_put(char *buf, uint64_t bits, uint64_t V, int inexact, int lw,
	     int hw, int X, int fast)
{
	uint64_t Q = V / 10000, qh = V / 1000000000000;
	unsigned b0 = (unsigned)(V - Q * 10000), t16 = b0 / 1000, t17 = b0 / 100;
	unsigned r16 = b0 - t16 * 1000, r17 = b0 - t17 * 100, in = (unsigned)inexact;
	unsigned up15 = b0 + (in | (unsigned)(Q & 1)) > 5000;
	unsigned up16 = r16 + (in | (t16 & 1)) > 500;
	unsigned up17 = r17 + (in | (t17 & 1)) > 50;
	/* the steps from V to the roundings, -5000 < e <= 5000 */
	int e15 = (int)(10000 & -up15) - (int)b0;
	int e16 = (int)(1000 & -up16) - (int)r16;
	int e17 = (int)(100 & -up17) - (int)r17;
	unsigned w = (unsigned)(hw + lw);
	/* the digits of Q, which do not wait for the rounding */
	num_dig16 dig = num_dig16_of((uint32_t)qh,
				     (uint32_t)(Q - qh * 100000000));
	int m15, m16, p;
	uint32_t L2;

	if ((unsigned)(e17 + lw) > w)
		return 0;
	/* all ones where inside */
	m16 = (int)num_mask((unsigned)(e16 + lw) <= w);
	m15 = (int)num_mask((unsigned)(e15 + lw) <= w);
	/* the last two of the 17 digits: t17 + up17 for p = 17, the tens
	 * rounded for 16, 0 (or 100 with a carry) for 15 */
	L2 = t17 + up17;
	L2 ^= (L2 ^ (t16 + up16) * 10) & (uint32_t)m16;
	L2 ^= (L2 ^ up15 * 100) & (uint32_t)m15;
	p = 17 + m16;
	p -= m15 & (p - 15);
	if (L2 == 100) /* rounded up into Q: one number in 16 or so */
		num_put_q(buf, (int)(bits >> 63), Q + 1, 0, p, X);
	else
		num_put_words(buf, (int)(bits >> 63), dig, L2, p, X, fast);
	return 1;
}

/* The arguments of num_pick_put from the floors of x·10^-k and of the
 * ends of the rounding interval, and their exact flags.  (V - vm and vp -
 * V are below 2^12: about half an ulp, and an ulp is V / m < 10^19 / 2^52
 * units of V.) */
static inline __attribute__((always_inline)) int
num_pick_put_ends(char *buf, uint64_t bits, uint64_t v, int ex,
		  uint64_t vp, int exp_, uint64_t vm, int exm, int X)
{
	int even = (bits & 1) == 0;

	return num_pick_put(buf, bits, v, !ex, (int)(v - vm) -
			    !(exm && even), (int)(vp - v) - (exp_ && !even),
			    X, 0);
}

/* num_shortest_fast() for the numbers outside its usual range: three
 * num_scale calls, with k chosen so that V has 19 digits (one call more
 * when the estimate gives 18), and for a subnormal every p from 1.
 * Returns 0, having written nothing, where num_scale cannot decide. */
static NUM_NOINLINE int num_shortest_wide(char *buf, uint64_t bits)
{
	uint64_t frac = bits & ((1ull << 52) - 1), m, v, vp, vm, D;
	int be = (int)(bits >> 52 & 0x7ff), e, k, ex, exp_, exm, even, p;

	if (!num_tables_ready)
		num_tables();
	m = be == 0 ? frac : frac | 1ull << 52;
	e = be == 0 ? -1074 : be - 1075;
	/* V = floor(x·10^-k), 10^18 <= V < 10^19 */
	k = num_log10_pow2(e + 63 - __builtin_clzll(m)) - 17;
	if (!num_scale(4 * m, e - 2, -k, &v, &ex))
		return 0;
	if (v < num_pow10[18]) {
		k--;
		if (!num_scale(4 * m, e - 2, -k, &v, &ex))
			return 0;
	}
	if (!num_scale(4 * m + 2, e - 2, -k, &vp, &exp_) ||
	    !num_scale(4 * m - (frac == 0 && be > 1 ? 1 : 2), e - 2, -k, &vm,
		       &exm) ||
	    v < num_pow10[18])
		return 0;
	if (be != 0)
		return num_pick_put_ends(buf, bits, v, ex, vp, exp_, vm, exm,
					 18 + k);
	/* a subnormal holds fewer digits: printf's loop starts at 1 */
	even = (m & 1) == 0;
	for (p = 1; p <= 17; p++) {
		uint64_t unit = num_pow10[19 - p], d, r, c;
		num_divmod_pow10(v, 19 - p, &d, &r);
		d += r > unit / 2 || (r == unit / 2 && (!ex || (d & 1)));
		c = d * unit;
		if ((c < vp || (c == vp && (!exp_ || even))) &&
		    (c > vm || (c == vm && exm && even))) {
			D = d * num_pow10[17 - p]; /* at most 10^17 */
			num_put_q(buf, (int)(bits >> 63), D / 100,
				  (uint32_t)(D % 100), p, 18 + k);
			return 1;
		}
	}
	return 0;
}

/* The smallest double >= 10^j, for j = -8 .. 15: x >= 10^j exactly when
 * x >= num_pow10_up[j + 8].  The literals are exact for j >= 0 and round
 * up for the others, except 1e-7 and 1e-6, which round down and are
 * replaced by the next double up. */
static const double num_pow10_up[24] = {
	1e-8, 0x1.ad7f29abcaf49p-24 /* 1e-7 */,
	0x1.0c6f7a0b5ed8ep-20 /* 1e-6 */, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0,
	1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
	1e14, 1e15
};

/* All ones if v, a difference of numbers below 2^62, is negative: its
 * sign bit copied by an arithmetic shift (what GCC and Clang do with a
 * negative signed number, and this part of the file is for them). */
static inline uint64_t num_neg(uint64_t v)
{
	return (uint64_t)((int64_t)v >> 63);
}

/* Whether the rounding at a digit lies inside the rounding interval, as a
 * mask: f is what is left below the digit, in 60-bit fixed point (below
 * 2^60), up is all ones if the rounding goes up, and the interval reaches
 * dl below x and du above, in the same units.  The distance from x is f
 * down, or 2^60 - f up. */
static inline uint64_t num_inside(uint64_t f, uint64_t up, uint64_t dl,
				  uint64_t du)
{
	uint64_t a = f + du - (1ull << 60), b = dl - f;

	return ~num_neg(b ^ ((a ^ b) & up));
}

/* num_shortest() for a finite non-zero x, without printf; returns 0,
 * having written nothing, for the numbers it leaves to the general route
 * (num_shortest_rare): zero, subnormals, non-finite, and |x| outside
 * 2^-29 .. 2^49 (about 1.9e-9 to 5.6e14).
 *
 * In that range it works in fixed point from one exact product.  With E
 * the binary exponent of x, X = floor(log10 |x|) is floor(E·log10 2) or
 * one more, decided by one comparison with num_pow10_up.  Then x·10^(14-X)
 * = Q + φ, Q the first 15 digits, is 4m·5^(14-X) (4m < 2^55) divided by
 * 2^s, s = 40 - E + X, 6 <= s <= 60.  The multiplier is given the 60 - s
 * bits of shift that make it 5^(14-X)·2^(60-s) (below 2^56), so that the
 * 128-bit product has Q above bit 60 and φ·2^60, exactly, below it: no
 * variable shift of the product.  φ·10 (below 2^64) gives the 16th digit
 * and what is left, and that times 10 the 17th: the three roundings of
 * printf's loop, each up when what is left is over half, or exactly half
 * and the digit odd.  The rounding interval is 2·5^(14-X)·2^(60-s) either
 * side of x in the same units (half an ulp; a quarter below a power of
 * two), less than 0.111·2^60, times 10 for the 16th digit, and a rounding
 * is inside when its distance from x is within it.  (Whether an end
 * counts, as it does for an even m, never matters here: an end is K·2^j,
 * K odd and above 2^53, j <= -5, and a decimal D·10^k equal to it has D =
 * K·2^(j-k)·5^-k >= 2^53·5^5 > 10^17, more than 17 digits.)  All of it
 * is masks and arithmetic: whether a number needs 15,
 * 16 or 17 digits, and rounds up or down, comes out either way about as
 * often, which no branch predictor guesses.  Q's digits do not depend on
 * the roundings, so they are made at the same time.
 *
 * 17 digits always read back, so they are not checked: in units of their
 * last digit, 10^(X-16), the 17-digit rounding is within 1/2 of x, and
 * the interval reaches 2^(E-53)·10^(16-X) > 10^16 / 2^54 = 0.555 either
 * side, as 10^X <= |x| < 2^(E+1) (below a power of two, where |x| = 2^E,
 * a quarter ulp is as much). */
static inline __attribute__((always_inline)) char *
num_shortest_fast(char *buf, double x, uint64_t bits)
{
	const uint64_t one = 1ull << 60, half = 1ull << 59;
	uint64_t frac = bits & ((1ull << 52) - 1), g, g1, lo;
	uint64_t Q, qh, f15, f16, f17, r, t, du, dl, u15, u16, m15, m16;
	int E = (int)(bits >> 52 & 0x7ff) - 1023, X, big, p;
	uint32_t L2;
	num_dig16 dig;
	num_u128 P;

	if ((unsigned)(E + 29) > 77) /* -29 <= E <= 48 */
		return NULL;
	X = num_log10_pow2(E);
	/* 5^(14 - X) and 5^(13 - X), loaded while X is being settled */
	g = num_pow5_m1[15 - X];
	g1 = num_pow5_m1[14 - X];
	big = fabs(x) >= num_pow10_up[X + 9]; /* |x| >= 10^(X+1) */
	g ^= (g ^ g1) & num_mask(big);
	X += big;
	g <<= 20 + E - X; /* 60 - s */
	P = (num_u128)((frac | 1ull << 52) << 2) * g;
	lo = (uint64_t)P;
	Q = (uint64_t)(P >> 64) << 4 | lo >> 60; /* 10^14 <= Q < 10^15 */
	qh = Q / 100000000;
	dig = num_dig16_of((uint32_t)qh, (uint32_t)(Q - qh * 100000000));
	/* what is left after 15, 16 and 17 digits, and the two digits */
	f15 = lo & (one - 1);
	r = f15 * 10 >> 60;
	f16 = f15 * 10 & (one - 1);
	t = f16 * 10 >> 60;
	f17 = f16 * 10 & (one - 1);
	/* all ones for up: over half, or half and the digit odd */
	u15 = num_neg(half - (Q & 1) - f15);
	u16 = num_neg(half - (r & 1) - f16);
	/* the interval: half an ulp above, and below (a quarter under a
	 * power of two) */
	du = g << 1;
	dl = g << (frac != 0);
	m16 = num_inside(f16, u16, dl * 10, du * 10);
	m15 = num_inside(f15, u15, dl, du);
	/* the last two of the 17 digits (100: rounded up into Q) */
	L2 = (uint32_t)(10 * r + t + (num_neg(half - (t & 1) - f17) & 1));
	L2 ^= (L2 ^ (uint32_t)(10 * (r - u16))) & (uint32_t)m16;
	L2 ^= (L2 ^ (uint32_t)(100 & u15)) & (uint32_t)m15;
	p = 17 + (int)m16;
	p -= (int)m15 & (p - 15);
	if (L2 == 100) /* one number in 20 or so */
		return num_put_q(buf, (int)(bits >> 63), Q + 1, 0, p, X);
	return num_put_words(buf, (int)(bits >> 63), dig, L2, p, X, 1);
}
#endif

/* Makes what the module keeps for the life of the process: the "C"
 * locale, and the tables of num_shortest().  Each is made once; later
 * calls find them made and return. */
void num_init(void)
{
	num_locale();
#ifdef NUM_FAST_SHORTEST
	if (!num_tables_ready)
		num_tables();
#endif
}

/* num_shortest() for the numbers its fast route leaves: zero, non-finite,
 * and then num_shortest_wide() or printf. */
static NUM_NOINLINE void num_shortest_rare(char *buf, double x)
{
	if (x == 0.0 || !isfinite(x)) {
		/* zero of either sign; non-finite breaks the contract */
		memcpy(buf, x == 0.0 ? "0" : "null", x == 0.0 ? 2 : 5);
		return;
	}
#ifdef NUM_FAST_SHORTEST
	{
		uint64_t bits;

		memcpy(&bits, &x, sizeof bits);
		if (num_shortest_wide(buf, bits))
			return;
	}
#endif
	num_shortest_printf(buf, x);
}

size_t num_shortest_len(char *buf, double x)
{
#ifdef NUM_FAST_SHORTEST
	uint64_t bits;
	char *end;

	memcpy(&bits, &x, sizeof bits);
	end = num_shortest_fast(buf, x, bits);
	if (end != NULL)
		return (size_t)(end - buf);
#endif
	num_shortest_rare(buf, x);
	return strlen(buf);
}

/* The loop of num_shortest_join(), with the usual route inlined into it:
 * a vector of a trace is a few numbers, and a call a number, with the
 * registers num_shortest_fast() saves and restores, costs about a tenth of
 * the number itself. */
char *num_shortest_join(char *p, const double *v, int n, const char *sep,
			size_t seplen)
{
	if (seplen > 2)
		seplen = 2;
	for (int k = 0; k < n; k++) {
		char *end = NULL;
		if (k) { /* not memcpy: a call for two bytes */
			p[0] = sep[0];
			p[1] = sep[1];
			p += seplen;
		}
#ifdef NUM_FAST_SHORTEST
		{
			uint64_t bits;
			memcpy(&bits, &v[k], sizeof bits);
			end = num_shortest_fast(p, v[k], bits);
		}
#endif
		if (end == NULL) {
			num_shortest_rare(p, v[k]);
			end = p + strlen(p);
		}
		p = end;
	}
	return p;
}

char *num_shortest(char *buf, double x)
{
	num_shortest_len(buf, x);
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
	unsigned u;
	int n = 0;

	if (v >= 0 && v < 100) { /* t, i and lengths: nearly every call */
		if (v >= 10)
			*p++ = num_pairs[2 * v];
		*p++ = num_pairs[2 * v + 1];
		return p;
	}
	u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
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
