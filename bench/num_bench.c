/* num_bench.c: how long num_shortest() and num_fixed(x, 4) take a number,
 * on the kind of numbers a trace prints (bench/README.md, "Number
 * formatting").  Not part of the build or of make check; built by hand:
 *
 *     gcc -O2 -I src -I build -o num_bench bench/num_bench.c \
 *         build/src/libattn.a -lm
 *
 * Usage: num_bench [ROUNDS [FILE]].  The numbers are NUM_SET non-zero
 * doubles made by a fixed generator (the same on every run), or those of
 * FILE, one per line.  Each round formats the whole set with each
 * function; the median and the fastest round are printed, in ns of CPU
 * time a number.  Only the
 * functions of num.h are called, so the same source links against any
 * version of src/num.c, e.g. the one of an older commit, for a before and
 * after comparison. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "num.h"

#define NUM_SET 65536

static uint64_t bench_state = 0x2545f4914f6cdd1dull;

/* A 64-bit LCG, top 53 bits: a uniform double in [0, 1). */
static double bench_unif(void)
{
	bench_state = bench_state * 6364136223846793005ull +
		      1442695040888963407ull;
	return (double)(bench_state >> 11) * 0x1p-53;
}

/* What a trace of the toy model is made of: tanh of hidden states,
 * softmax probabilities (down to about 1e-8), dot products and logits
 * (sums of a few products, up to about 10), in equal parts. */
static double bench_typical(int k)
{
	double s = 0.0, z = 1.0;
	int j;

	switch (k % 4) {
	case 0:
		return tanh(6.0 * bench_unif() - 3.0);
	case 1:
		for (j = 0; j < 5; j++)
			z += exp(8.0 * bench_unif() - 4.0);
		return exp(14.0 * bench_unif() - 14.0) / z;
	case 2:
		for (j = 0; j < 4; j++)
			s += tanh(4.0 * bench_unif() - 2.0) *
			     (4.0 * bench_unif() - 2.0);
		return s;
	default:
		for (j = 0; j < 4; j++)
			s += (2.0 * bench_unif() - 1.0) *
			     (3.0 * bench_unif() - 1.5);
		return 2.5 * s;
	}
}

/* The CPU time of this thread, in ns: the time the machine's other work
 * takes from it, while it waits for a core, does not count. */
static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double bench_median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, bench_cmp);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The significant digits of a number as num_shortest wrote it. */
static int bench_digits(const char *s)
{
	int n = 0, lead = 1, zeros = 0;

	for (; *s != '\0' && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s == '0' && lead)
			continue;
		lead = 0;
		n++;
		zeros = *s == '0' ? zeros + 1 : 0;
	}
	return n - zeros;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 21;
	static double xs[1 << 22];
	double *ts_s, *ts_f, t0, med_s, med_f;
	char buf[NUM_BUFSZ];
	size_t sum = 0;
	long n = 0, hist[18] = { 0 };
	int r;

	if (rounds < 1)
		rounds = 1;
	if (argc > 2) {
		FILE *f = fopen(argv[2], "r");
		if (f == NULL) {
			perror(argv[2]);
			return 1;
		}
		while (n < (long)(sizeof xs / sizeof xs[0]) &&
		       fscanf(f, "%lf", &xs[n]) == 1)
			n++;
		fclose(f);
	} else {
		for (; n < NUM_SET; n++)
			xs[n] = bench_typical((int)n);
	}
	if (n == 0) {
		fputs("num_bench: no numbers\n", stderr);
		return 1;
	}
	ts_s = malloc(sizeof *ts_s * (size_t)rounds);
	ts_f = malloc(sizeof *ts_f * (size_t)rounds);
	if (ts_s == NULL || ts_f == NULL)
		return 1;
	for (long i = 0; i < n; i++) { /* warm up, and what the set is */
		int d = bench_digits(num_shortest(buf, xs[i]));
		hist[d < 17 ? d : 17]++;
		sum += strlen(num_fixed(buf, xs[i], 4));
	}
	for (r = 0; r < rounds; r++) {
		t0 = bench_now();
		for (long i = 0; i < n; i++)
			sum += strlen(num_shortest(buf, xs[i]));
		ts_s[r] = (bench_now() - t0) / (double)n;
		t0 = bench_now();
		for (long i = 0; i < n; i++)
			sum += strlen(num_fixed(buf, xs[i], 4));
		ts_f[r] = (bench_now() - t0) / (double)n;
	}
	printf("%ld numbers (%s), %d rounds; shortest digits: <=14 %.1f%%, "
	       "15 %.1f%%, 16 %.1f%%, 17 %.1f%%\n", n,
	       argc > 2 ? argv[2] : "generated", rounds,
	       100.0 * (double)(n - hist[15] - hist[16] - hist[17]) /
	       (double)n, 100.0 * (double)hist[15] / (double)n,
	       100.0 * (double)hist[16] / (double)n,
	       100.0 * (double)hist[17] / (double)n);
	med_s = bench_median(ts_s, rounds); /* sorts: ts_s[0] is the best */
	med_f = bench_median(ts_f, rounds);
	printf("num_shortest     %7.2f ns/number (median; best %.2f)\n",
	       med_s, ts_s[0]);
	printf("num_fixed(x, 4)  %7.2f ns/number (median; best %.2f)\n",
	       med_f, ts_f[0]);
	printf("(checksum %zu)\n", sum);
	free(ts_s);
	free(ts_f);
	return 0;
}
