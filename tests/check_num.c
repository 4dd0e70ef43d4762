/* check_num.c: numbers to text and back, in any locale. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <float.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* Reads s with num_parse(), which must succeed and consume all of s. */
static double parse_all(const char *s)
{
	const char *end = NULL;
	double v = -12345.0;

	ck_assert_int_eq(num_parse(s, &v, &end), NUM_OK);
	ck_assert_ptr_eq(end, s + strlen(s));
	return v;
}

START_TEST(test_fixed_basic)
{
	char buf[NUM_BUFSZ];

	ck_assert_str_eq(num_fixed(buf, 0.5, 4), "0.5000");
	ck_assert_str_eq(num_fixed(buf, -1.26, 1), "-1.3");
	ck_assert_str_eq(num_fixed(buf, 3.7, 0), "4");
	ck_assert_str_eq(num_fixed(buf, 123.456, 2), "123.46");
	ck_assert_str_eq(num_fixed(buf, 0.1, 17), "0.10000000000000001");
}
END_TEST

START_TEST(test_fixed_no_negative_zero)
{
	char buf[NUM_BUFSZ];

	ck_assert_str_eq(num_fixed(buf, -0.00001, 4), "0.0000");
	ck_assert_str_eq(num_fixed(buf, -0.0, 2), "0.00");
	ck_assert_str_eq(num_fixed(buf, -0.4, 0), "0");
	ck_assert_str_eq(num_fixed(buf, -0.00005001, 4), "-0.0001");
}
END_TEST

START_TEST(test_fixed_huge_fits)
{
	char buf[NUM_BUFSZ];

	num_fixed(buf, DBL_MAX, NUM_MAX_PREC);
	ck_assert_uint_lt(strlen(buf), NUM_BUFSZ);
	ck_assert_str_eq(num_fixed(buf, -1e300, 2), "-1.00e+300");
	ck_assert_str_eq(num_fixed(buf, 1e20, 1), "100000000000000000000.0");
}
END_TEST

START_TEST(test_shortest)
{
	char buf[NUM_BUFSZ];

	ck_assert_str_eq(num_shortest(buf, 0.1), "0.1");
	ck_assert_str_eq(num_shortest(buf, 1.0 / 3.0), "0.3333333333333333");
	ck_assert_str_eq(num_shortest(buf, -2.5), "-2.5");
	ck_assert_str_eq(num_shortest(buf, 123456789.0), "123456789");
	ck_assert_str_eq(num_shortest(buf, 0.0), "0");
	ck_assert_str_eq(num_shortest(buf, -0.0), "0");
	ck_assert_str_eq(num_shortest(buf, 1e21), "1e21");
	ck_assert_str_eq(num_shortest(buf, 1e-7), "1e-7");
	ck_assert_str_eq(num_shortest(buf, 5e-324), "5e-324");
	ck_assert_str_eq(num_shortest(buf, DBL_MAX), "1.7976931348623157e308");
}
END_TEST

/* The vector writer: the same numbers as num_shortest() one at a time,
 * fast route and rare ones mixed, with either separator, and nothing
 * written for no numbers. */
START_TEST(test_shortest_join)
{
	static const double v[] = { 0.1, -0.0, 1.0 / 3.0, 5e-324, -2.5, 1e21,
				    -0.000123456789, 0.0 };
	char buf[8 * (NUM_BUFSZ + 2)], *end;

	end = num_shortest_join(buf, v, 8, ", ", 2);
	*end = '\0';
	ck_assert_str_eq(buf, "0.1, 0, 0.3333333333333333, 5e-324, -2.5, "
			 "1e21, -0.000123456789, 0");
	end = num_shortest_join(buf, v + 2, 3, ",?", 1);
	*end = '\0';
	ck_assert_str_eq(buf, "0.3333333333333333,5e-324,-2.5");
	ck_assert_ptr_eq(num_shortest_join(buf, v, 0, ", ", 2), buf);
}
END_TEST

START_TEST(test_shortest_round_trips)
{
	char buf[NUM_BUFSZ];
	double x = 0.7;
	int i;

	for (i = 0; i < 2000; i++) {
		x = x * 3.999 * (1.0 - x) + 1e-9; /* a chaotic walk in (0,1) */
		ck_assert(parse_all(num_shortest(buf, x)) == x);
		ck_assert(parse_all(num_shortest(buf, -x * 1e200)) == -x * 1e200);
		ck_assert(parse_all(num_shortest(buf, x * 1e-300)) == x * 1e-300);
	}
}
END_TEST

/* The shortest form by brute force: the first of %.1g .. %.17g that reads
 * back as x, with the exponent written as num_shortest writes it. */
static void shortest_by_search(char *buf, double x)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, 64, "%.*g", p, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}

/* The digits and exponent of a %g string, for comparing "1e-05" with
 * "1e-5". */
static void digits_of(const char *s, char *digits, int *exp10)
{
	double v = strtod(s, NULL);
	char tmp[64];
	int n = 0;
	snprintf(tmp, sizeof tmp, "%.16e", v);
	*exp10 = atoi(strchr(tmp, 'e') + 1);
	for (const char *p = s; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	digits[n] = '\0';
	/* neither the leading zeros of 0.00123 nor the trailing ones of
	 * 1200 are significant */
	size_t lead = strspn(digits, "0");
	memmove(digits, digits + lead, strlen(digits + lead) + 1);
	for (n = (int)strlen(digits); n > 0 && digits[n - 1] == '0'; n--)
		digits[n - 1] = '\0';
}

START_TEST(test_shortest_matches_search)
{
	/* as many significant digits as a brute-force search finds, over a
	 * spread of magnitudes, including subnormals */
	double xs[4000];
	int n = 0;
	unsigned long long r = 88172645463325252ull;
	for (int k = 0; k < 3990; k++) {
		r ^= r << 13; r ^= r >> 7; r ^= r << 17;
		double mant = (double)(r >> 11) / 9007199254740992.0;
		int e = (int)(r % 80) - 40;
		xs[n++] = (k % 2 ? -1 : 1) * mant * pow(10, e);
	}
	xs[n++] = 5e-324;
	xs[n++] = 1.5e-320;
	xs[n++] = 2.2250738585072014e-308;
	xs[n++] = 0.1;
	xs[n++] = 0.5703702982083377;
	for (int k = 0; k < n; k++) {
		char got[NUM_BUFSZ], want[64], dg[64], dw[64];
		int eg, ew;
		num_shortest(got, xs[k]);
		shortest_by_search(want, xs[k]);
		ck_assert_msg(strtod(got, NULL) == xs[k], "%s does not read back", got);
		digits_of(got, dg, &eg);
		digits_of(want, dw, &ew);
		ck_assert_msg(strlen(dg) == strlen(dw), "%.17g: %s, not %s", xs[k],
			      got, want);
	}
}
END_TEST

/* The reference for num_shortest: the exact search num_shortest did
 * before it had its own conversion (printf at 15, 16, 17 digits, from 1
 * for a subnormal, until strtod reads x back), with the exponent tidied. */
static void shortest_printf(char *buf, double x)
{
	if (x == 0.0) {
		strcpy(buf, "0");
		return;
	}
	for (int p = fabs(x) < DBL_MIN ? 1 : DBL_DIG; p <= 17; p++) {
		snprintf(buf, 64, "%.*g", p, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	char *e = strchr(buf, 'e');
	if (e != NULL) { /* "e+05" -> "e5", "e-05" -> "e-5" */
		char *d = e + 1, *q = d;
		if (*d == '+')
			memmove(d, d + 1, strlen(d));
		else if (*d == '-')
			q = d + 1;
		while (q[0] == '0' && q[1] != '\0')
			memmove(q, q + 1, strlen(q));
	}
}

/* The reference for num_fixed: printf's "%.*f" ("%.*e" when that is too
 * long), without the sign of a number that shows as zero. */
static void fixed_printf(char *buf, double x, int prec)
{
	int n = snprintf(buf, NUM_BUFSZ, "%.*f", prec, x);
	if (n < 0 || n >= NUM_BUFSZ)
		snprintf(buf, NUM_BUFSZ, "%.*e", prec, x);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strcspn(buf + 1, "e"))
		memmove(buf, buf + 1, strlen(buf));
}

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: the same numbers on every run */
static unsigned long long rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static double from_bits(unsigned long long b)
{
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}

/* num_shortest(x) must be the reference's bytes and read back as x. */
static int shortest_ok(double x)
{
	char got[NUM_BUFSZ], want[64];
	if (!isfinite(x))
		return 0;
	size_t len = num_shortest_len(got, x);
	shortest_printf(want, x);
	ck_assert_msg(strcmp(got, want) == 0, "%a: \"%s\", not \"%s\"", x, got,
		      want);
	ck_assert_msg(len == strlen(want), "%a: length %zu for \"%s\"", x, len,
		      want);
	ck_assert_str_eq(num_shortest(got, x), want);
	ck_assert_msg(strtod(got, NULL) == x || x == 0.0,
		      "%a: \"%s\" does not read back", x, got);
	return 1;
}

START_TEST(test_shortest_matches_printf)
{
	char t[64];
	long n = 0;
	/* every power of two, its neighbours and small multiples, both signs */
	for (int e = -1074; e <= 1023; e++) {
		double p = ldexp(1.0, e);
		double near[] = { p, nextafter(p, 0.0), nextafter(p, INFINITY),
				  3 * p, 5 * p, 7 * p };
		for (size_t k = 0; k < sizeof near / sizeof near[0]; k++) {
			n += shortest_ok(near[k]);
			n += shortest_ok(-near[k]);
		}
	}
	/* powers of ten and their neighbours; d·10^e and d.5·10^e */
	for (int e = -324; e <= 308; e++) {
		snprintf(t, sizeof t, "1e%d", e);
		double p = strtod(t, NULL), up = p, down = p;
		for (int k = 0; k < 3; k++) {
			n += shortest_ok(up);
			n += shortest_ok(-down);
			up = nextafter(up, INFINITY);
			down = nextafter(down, 0.0);
		}
		for (int d = 1; d < 100; d += 7) {
			snprintf(t, sizeof t, "%de%d", d, e);
			n += shortest_ok(strtod(t, NULL));
			snprintf(t, sizeof t, "%d.5e%d", d, e);
			n += shortest_ok(strtod(t, NULL));
		}
	}
	/* the ends of the range */
	const double ends[] = { DBL_MAX, DBL_MIN, 5e-324, 1e-323, DBL_EPSILON,
				nextafter(DBL_MAX, 0.0), nextafter(DBL_MIN, 0.0),
				nextafter(DBL_MIN, 1.0), 9007199254740993.0,
				9007199254740992.0, 1e15, 1e16, 1e17, 1e21, 1e22,
				1e23, 123456789012345678.0, 0.1, 0.2, 0.3 };
	for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
		n += shortest_ok(ends[k]);
		n += shortest_ok(-ends[k]);
	}
	for (int k = 0; k < 40000; k++) {
		/* any bit pattern: every binade, subnormals included */
		n += shortest_ok(from_bits(rng()));
		/* a random mantissa at a random decimal magnitude */
		double mant = (double)(rng() >> 11) / 9007199254740992.0;
		n += shortest_ok((k % 2 ? -1 : 1) * mant *
				 pow(10, (int)(rng() % 640) - 325));
		/* integers, and fractions with few bits */
		n += shortest_ok((double)(rng() >> (rng() % 64)));
		n += shortest_ok(ldexp((double)(rng() >> (11 + rng() % 53)),
				       -(int)(rng() % 80)));
		/* short decimals: 1 to 17 digits */
		snprintf(t, sizeof t, "%llue%d", rng() % 100000000000000000ull,
			 (int)(rng() % 660) - 340);
		n += shortest_ok(strtod(t, NULL));
		/* subnormals */
		n += shortest_ok(from_bits(rng() >> (12 + rng() % 52)));
	}
	ck_assert_int_ge(n, 200000);
}
END_TEST

/* num_fixed(x, prec) must be the reference's bytes. */
static void fixed_ok(double x, int prec)
{
	char got[NUM_BUFSZ], want[NUM_BUFSZ];
	size_t len = num_fixed_len(got, x, prec);
	fixed_printf(want, x, prec);
	ck_assert_msg(strcmp(got, want) == 0, "%a at %d: \"%s\", not \"%s\"", x,
		      prec, got, want);
	ck_assert_msg(len == strlen(want), "%a at %d: length %zu for \"%s\"",
		      x, prec, len, want);
	ck_assert_str_eq(num_fixed(got, x, prec), want);
}

START_TEST(test_fixed_matches_printf)
{
	long n = 0;
	for (int k = 0; k < 50000; k++) {
		int prec = (int)(rng() % 9);
		double mant = (double)(rng() >> 11) / 9007199254740992.0;
		double x = (k % 2 ? -1 : 1) * mant * pow(10, (int)(rng() % 30) - 15);
		/* a random number at every magnitude the text shows */
		fixed_ok(x, prec);
		/* any bit pattern, at any precision */
		fixed_ok(from_bits(rng()), (int)(rng() % (NUM_MAX_PREC + 1)));
		/* exact ties: j / 2^(p+1) with j odd is (j·5^p / 2) / 10^p */
		fixed_ok((k % 2 ? -1 : 1) *
			 ldexp((double)(2 * (rng() % 1000000) + 1), -(prec + 1)),
			 prec);
		/* within a few ulps of a tie */
		double tie = ldexp((double)(2 * (rng() % 100000) + 1), -(prec + 1));
		fixed_ok(nextafter(tie, (k % 3) - 1.0), prec);
		n += 4;
	}
	ck_assert_int_ge(n, 200000);
}
END_TEST

/* num_shortest's usual route works in fixed point from one product, for
 * |x| from 2^-29 to 2^49: its edges, where it hands over to the general
 * route, and the cases its masks pick between. */
START_TEST(test_shortest_fast_edges)
{
	char t[64];
	long n = 0;
	/* every power of ten near the range, where the first digit's
	 * position (X) changes, and its neighbours */
	for (int e = -12; e <= 17; e++) {
		snprintf(t, sizeof t, "1e%d", e);
		double p = strtod(t, NULL), up = p, down = p;
		for (int k = 0; k < 6; k++) {
			n += shortest_ok(up);
			n += shortest_ok(-down);
			up = nextafter(up, INFINITY);
			down = nextafter(down, 0.0);
		}
	}
	/* the binades at and beyond both ends of the range */
	const int edge[] = { -31, -30, -29, -28, 47, 48, 49, 50 };
	for (size_t k = 0; k < sizeof edge / sizeof edge[0]; k++) {
		double lo = ldexp(1.0, edge[k]);
		n += shortest_ok(lo);
		n += shortest_ok(nextafter(lo, 0.0));
		n += shortest_ok(nextafter(2 * lo, 0.0));
		for (int j = 0; j < 2000; j++)
			n += shortest_ok(lo * (1.0 + (double)(rng() >> 11) /
					       9007199254740992.0));
	}
	/* roundings that carry into the first 15 digits: runs of 9s */
	for (int nines = 1; nines <= 17; nines++) {
		for (int e = -12; e <= 16; e += 2) {
			char d[32];
			memset(d, '9', (size_t)nines);
			d[nines] = '\0';
			snprintf(t, sizeof t, "0.%s4e%d", d, e);
			n += shortest_ok(strtod(t, NULL));
			snprintf(t, sizeof t, "1.2%s6e%d", d, e);
			n += shortest_ok(strtod(t, NULL));
			snprintf(t, sizeof t, "-8.76%se%d", d, e);
			n += shortest_ok(strtod(t, NULL));
		}
	}
	/* every layout: 0.000ddd, d.ddd, ddd.dd, and the exponent form */
	for (int e = -12; e <= 17; e++) {
		const char *const digs[] = { "1", "5", "25", "123456789",
			"1234567890123456", "12345678901234567",
			"10000000000000001", "9007199254740993" };
		for (size_t k = 0; k < sizeof digs / sizeof digs[0]; k++) {
			snprintf(t, sizeof t, "%.1s.%se%d", digs[k], digs[k] + 1,
				 e);
			n += shortest_ok(strtod(t, NULL));
			n += shortest_ok(-strtod(t, NULL));
		}
	}
	/* decimals of 16 and 17 digits ending in 5: at or near a tie when
	 * rounded to one digit fewer */
	for (int k = 0; k < 20000; k++) {
		snprintf(t, sizeof t, "%llu5e%d",
			 rng() % 10000000000000000ull, (int)(rng() % 30) - 25);
		n += shortest_ok(strtod(t, NULL));
		snprintf(t, sizeof t, "%llu5e%d", rng() % 1000000000000000ull,
			 (int)(rng() % 30) - 24);
		n += shortest_ok(strtod(t, NULL));
	}
	ck_assert_int_ge(n, 50000);
}
END_TEST

/* num_fixed's own digits: up to 8 of them written at once, and where
 * y = |x|·10^prec and its rounding are on an edge. */
START_TEST(test_fixed_fast_edges)
{
	for (int prec = 0; prec <= NUM_MAX_PREC; prec++) {
		double scale = pow(10, prec);
		/* 8 digits and 9, and a rounding that makes 9 of 8 */
		const double ns[] = { 9999999.0, 99999999.0, 99999999.49,
				      99999999.5001, 100000000.0, 999999999.0,
				      0.0, 0.49, 0.51, 1.0, 9.5001, 10.0 };
		for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
			fixed_ok(ns[k] / scale, prec);
			fixed_ok(-ns[k] / scale, prec);
			fixed_ok(nextafter(ns[k] / scale, 0.0), prec);
			fixed_ok(nextafter(ns[k] / scale, INFINITY), prec);
		}
		/* n of every length from 1 to 9 digits: each count of
		 * leading zeros in the digit word, around the units digit
		 * that is written even when 0 */
		for (int d = 0; d <= 8; d++) {
			double p10 = pow(10, d);
			const double ms[] = { p10, p10 - 1.0, 3.0 * p10 };
			for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++) {
				fixed_ok(ms[k] / scale, prec);
				fixed_ok(-ms[k] / scale, prec);
				fixed_ok((ms[k] + 0.3) / scale, prec);
			}
		}
		/* y far below 1/2, where y + 1/2 is not exact, and just
		 * below it, where it rounds up to 1 */
		fixed_ok(1e-300, prec);
		fixed_ok(-1e-300, prec);
		fixed_ok(nextafter(0.5, 0.0) / scale, prec);
		fixed_ok(-nextafter(0.5, 0.0) / scale, prec);
		fixed_ok(0.25 / scale, prec);
		/* y near 2^52, where ulp(y) reaches 1/2 */
		fixed_ok(ldexp(1.0, 52) / scale, prec);
		fixed_ok(nextafter(ldexp(1.0, 52), 0.0) / scale, prec);
		fixed_ok(ldexp(1.0, 51) / scale + 0.25 / scale, prec);
	}
	ck_assert_str_eq(num_fixed((char[NUM_BUFSZ]){ 0 }, 0.5716, 4),
			 "0.5716");
}
END_TEST

/* num_fixed_many() writes each number as num_fixed_len() does, whichever
 * way it goes (its own digits, the long form, printf for ties and huge
 * numbers), clamps prec the same way, and returns the longest length. */
START_TEST(test_fixed_many)
{
	static const double ns[] = { 0.5716, -12.3, 0.0, -0.0, -0.00004,
				     0.125, 99999999.0, -1e8, 1e300, 2.5,
				     -0.00005001, 9.99999995, 123.456 };
	enum { N = sizeof ns / sizeof ns[0] };
	char num[N][NUM_BUFSZ], one[NUM_BUFSZ];
	unsigned char len[N];

	for (int prec = -1; prec <= NUM_MAX_PREC + 1; prec++) {
		size_t most = 0, got;
		for (int scaled = 0; scaled < 2; scaled++) {
			double v[N];
			for (int k = 0; k < N; k++) /* as is, and at 10^-prec */
				v[k] = scaled ? ns[k] / pow(10, prec) : ns[k];
			memset(num, 'x', sizeof num);
			got = num_fixed_many(num, len, v, N, prec);
			most = 0;
			for (int k = 0; k < N; k++) {
				size_t n = num_fixed_len(one, v[k], prec);
				ck_assert_msg(strcmp(num[k], one) == 0 &&
					      len[k] == n,
					      "%a at %d: \"%s\" (%u), "
					      "not \"%s\"", v[k], prec,
					      num[k], len[k], one);
				if (n > most)
					most = n;
			}
			ck_assert_uint_eq(got, most);
		}
	}
	ck_assert_uint_eq(num_fixed_many(num, len, ns, 0, 4), 0);
}
END_TEST

/* num_init() may be called more than once; the numbers that need its
 * tables come out right after it. */
START_TEST(test_num_init)
{
	char buf[NUM_BUFSZ];

	num_init();
	num_init();
	ck_assert_str_eq(num_shortest(buf, 5e-324), "5e-324");
	ck_assert_str_eq(num_shortest(buf, 1e300), "1e300");
	ck_assert_str_eq(num_shortest(buf, -1.7976931348623157e308),
			 "-1.7976931348623157e308");
	ck_assert_str_eq(num_shortest(buf, 1.5e-10), "1.5e-10");
	ck_assert_double_eq_tol(parse_all("0.25"), 0.25, 1e-15);
}
END_TEST

START_TEST(test_fixed_ties)
{
	char buf[NUM_BUFSZ];

	/* printf rounds an exact half to even */
	ck_assert_str_eq(num_fixed(buf, 0.125, 2), "0.12");
	ck_assert_str_eq(num_fixed(buf, 0.375, 2), "0.38");
	ck_assert_str_eq(num_fixed(buf, 2.5, 0), "2");
	ck_assert_str_eq(num_fixed(buf, 3.5, 0), "4");
	ck_assert_str_eq(num_fixed(buf, -2.5, 0), "-2");
	ck_assert_str_eq(num_fixed(buf, 0.5, 0), "0");
	ck_assert_str_eq(num_fixed(buf, -0.5, 0), "0");
	ck_assert_str_eq(num_fixed(buf, 1.5, 0), "2");
	ck_assert_str_eq(num_fixed(buf, 0.03125, 4), "0.0312");
	ck_assert_str_eq(num_fixed(buf, -0.03125, 4), "-0.0312");
	/* not ties: the binary value lies just off the half */
	ck_assert_str_eq(num_fixed(buf, 0.045, 2), "0.04");
	ck_assert_str_eq(num_fixed(buf, 1.005, 2), "1.00");
	ck_assert_str_eq(num_fixed(buf, 2.675, 2), "2.67");
	ck_assert_str_eq(num_fixed(buf, 0.15, 1), "0.1");
	ck_assert_str_eq(num_fixed(buf, 0.25, 1), "0.2");
	ck_assert_str_eq(num_fixed(buf, 0.35, 1), "0.3");
	/* the edge of the fast path, 2^52 */
	ck_assert_str_eq(num_fixed(buf, 4503599627370495.5, 0),
			 "4503599627370496");
	ck_assert_str_eq(num_fixed(buf, 4503599627370496.0, 1),
			 "4503599627370496.0");
	ck_assert_str_eq(num_fixed(buf, 450359962737049.5, 1),
			 "450359962737049.5");
	ck_assert_str_eq(num_fixed(buf, 99.99996, 4), "100.0000");
	/* -9.99995 is -9.99995000000000011..: not a tie */
	ck_assert_str_eq(num_fixed(buf, -9.99995, 4), "-10.0000");
}
END_TEST

START_TEST(test_itoa)
{
	/* and both sides of the edges of the one- and two-digit path */
	const int vs[] = { 0, 7, -7, 10, 4096, -123456, 2147483647,
			   -2147483647 - 1, -1, 9, 99, 100, 101 };
	for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
		char got[16], want[16];
		*num_itoa(got, vs[k]) = '\0';
		snprintf(want, sizeof want, "%d", vs[k]);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

START_TEST(test_parse_good)
{
	ck_assert_double_eq_tol(parse_all("2.5"), 2.5, 1e-15);
	ck_assert_double_eq_tol(parse_all("-0.25"), -0.25, 1e-15);
	ck_assert_double_eq_tol(parse_all("+3"), 3.0, 1e-15);
	ck_assert_double_eq_tol(parse_all("1.5e-2"), 0.015, 1e-15);
	ck_assert_double_eq_tol(parse_all("1E3"), 1000.0, 1e-12);
	ck_assert_double_eq_tol(parse_all("007"), 7.0, 1e-15);
	ck_assert_double_eq_tol(parse_all("1e-999"), 0.0, 1e-300);
	ck_assert(parse_all("4.9e-324") > 0.0);
}
END_TEST

START_TEST(test_parse_syntax)
{
	static const char *const bad[] = {
		"", " 1", ".5", "-", "+", "-.5", "nan", "NaN", "inf",
		"-inf", "Infinity", "e5", "x", ",5",
	};
	size_t i;
	double v;
	const char *end;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(num_parse(bad[i], &v, &end) == NUM_SYNTAX,
			      "\"%s\" was accepted", bad[i]);
}
END_TEST

/* A number followed by other text: num_parse reads the number and leaves
 * the rest to the caller. */
START_TEST(test_parse_stops)
{
	static const struct {
		const char *s;
		size_t used;
		double v;
	} cases[] = {
		{ "0x1p3", 1, 0.0 }, { "1,5", 1, 1.0 }, { "5.", 1, 5.0 },
		{ "5.e3", 1, 5.0 }, { "1e", 1, 1.0 }, { "1e+", 1, 1.0 },
		{ "2.5abc", 3, 2.5 }, { "-7 8", 2, -7.0 },
	};
	size_t i;
	double v;
	const char *end;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(num_parse(cases[i].s, &v, &end), NUM_OK);
		ck_assert_ptr_eq(end, cases[i].s + cases[i].used);
		ck_assert_double_eq_tol(v, cases[i].v, 1e-15);
	}
}
END_TEST

START_TEST(test_parse_range)
{
	double v = 42.0;
	const char *end;

	ck_assert_int_eq(num_parse("1e999", &v, &end), NUM_RANGE);
	ck_assert_int_eq(num_parse("-1e999", &v, &end), NUM_RANGE);
	ck_assert_int_eq(num_parse("1.8e308", &v, &end), NUM_RANGE);
	ck_assert(v == 42.0); /* untouched on failure */
	ck_assert_int_eq(num_parse("1.7e308", &v, &end), NUM_OK);
}
END_TEST

START_TEST(test_comma_locale)
{
	static const char *const names[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
	};
	char buf[NUM_BUFSZ], probe[16];
	const char *got = NULL;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0] && !got; i++)
		got = setlocale(LC_ALL, names[i]);
	ck_assert_msg(got != NULL, "no comma locale: generate de_DE.UTF-8 "
		      "(uncomment it in /etc/locale.gen and run locale-gen)");
	snprintf(probe, sizeof probe, "%.1f", 0.5);
	ck_assert_str_eq(probe, "0,5"); /* the locale really uses a comma */
	ck_assert_str_eq(num_fixed(buf, 0.5, 4), "0.5000");
	ck_assert_str_eq(num_fixed(buf, -1234.5, 1), "-1234.5");
	ck_assert_str_eq(num_shortest(buf, 0.1), "0.1");
	ck_assert_str_eq(num_shortest(buf, -2.5e-10), "-2.5e-10");
	ck_assert_double_eq_tol(parse_all("2.5"), 2.5, 1e-15);
	ck_assert_double_eq_tol(parse_all("-1.25e1"), -12.5, 1e-15);
	setlocale(LC_ALL, "C");
}
END_TEST

static Suite *num_suite(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fixed_basic);
	tcase_add_test(tc, test_fixed_no_negative_zero);
	tcase_add_test(tc, test_fixed_huge_fits);
	tcase_add_test(tc, test_shortest);
	tcase_add_test(tc, test_shortest_round_trips);
	tcase_add_test(tc, test_shortest_join);
	tcase_add_test(tc, test_shortest_matches_search);
	tcase_add_test(tc, test_itoa);
	tcase_add_test(tc, test_parse_good);
	tcase_add_test(tc, test_parse_syntax);
	tcase_add_test(tc, test_parse_stops);
	tcase_add_test(tc, test_parse_range);
	tcase_add_test(tc, test_comma_locale);
	tcase_add_test(tc, test_fixed_ties);
	tcase_add_test(tc, test_num_init);
	suite_add_tcase(s, tc);
	/* a few hundred thousand numbers each, against printf */
	TCase *many = tcase_create("against printf");
	tcase_set_timeout(many, 120);
	tcase_add_test(many, test_shortest_matches_printf);
	tcase_add_test(many, test_fixed_matches_printf);
	tcase_add_test(many, test_shortest_fast_edges);
	tcase_add_test(many, test_fixed_fast_edges);
	tcase_add_test(many, test_fixed_many);
	suite_add_tcase(s, many);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(num_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
