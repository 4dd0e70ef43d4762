/* libm_time.c: times libm alone on the calls that bench/libm_count.c
 * counted in one run of a program: for each of exp, log, tanh and pow, as
 * many calls as the run made, on its kept arguments taken in turn (each
 * kept argument stands for the S calls around it), through the same
 * dynamic libm.  Prints the CPU seconds of each function and their sum:
 * the time that run cannot go below while it calls libm as it does
 * (bench/README.md, "The libm floor").  Not part of the build;
 * bench/run-train builds it:
 *
 *     cc -O2 -o libm_time bench/libm_time.c -lm
 *     libm_time PREFIX            # PREFIX.counts, PREFIX.exp, ...
 *
 * The best of 3 timings of each function is kept. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double lt_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The kept arguments of PREFIX.NAME, *n of them (pairs for pow). */
static double *lt_load(const char *prefix, const char *name, size_t *n)
{
	char path[4096];
	FILE *fp;
	double *a = NULL;
	size_t cap = 0, len = 0, got;

	snprintf(path, sizeof path, "%s.%s", prefix, name);
	fp = fopen(path, "rb");
	if (!fp) {
		perror(path);
		exit(1);
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			a = realloc(a, cap * sizeof *a);
			if (!a) {
				fputs("libm_time: out of memory\n", stderr);
				exit(1);
			}
		}
		got = fread(a + len, sizeof *a, cap - len, fp);
		len += got;
	} while (got > 0);
	fclose(fp);
	*n = len;
	return a;
}

static volatile double lt_sink;

/* Calls function f count times on a[0..n) in turn (pairs for pow, f = 3),
 * each call a direct call of libm's function, as the program makes it;
 * returns the sum of the results so that no call can be left out. */
static double lt_run(int f, const double *a, size_t n, unsigned long long count)
{
	double acc = 0.0;
	size_t j = 0;

#define LT_LOOP(CALL, STEP)                               \
	for (unsigned long long k = 0; k < count; k++) {  \
		acc += CALL;                              \
		j += STEP;                                \
		if (j + STEP > n)                         \
			j = 0;                            \
	}
	switch (f) {
	case 0: LT_LOOP(exp(a[j]), 1) break;
	case 1: LT_LOOP(log(a[j]), 1) break;
	case 2: LT_LOOP(tanh(a[j]), 1) break;
	default: LT_LOOP(pow(a[j], a[j + 1]), 2) break;
	}
#undef LT_LOOP
	return acc;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "exp", "log", "tanh", "pow" };
	char path[4096], name[64];
	unsigned long long count[4] = { 0 }, stride = 0, c;
	double total = 0.0;
	FILE *fp;

	if (argc != 2) {
		fputs("usage: libm_time PREFIX\n", stderr);
		return 2;
	}
	snprintf(path, sizeof path, "%s.counts", argv[1]);
	fp = fopen(path, "r");
	if (!fp) {
		perror(path);
		return 1;
	}
	while (fscanf(fp, "%63s %llu", name, &c) == 2) {
		if (strcmp(name, "stride") == 0)
			stride = c;
		for (int f = 0; f < 4; f++)
			if (strcmp(name, names[f]) == 0)
				count[f] = c;
	}
	fclose(fp);
	printf("stride %llu\n", stride);
	for (int f = 0; f < 4; f++) {
		size_t n;
		double *a = lt_load(argv[1], names[f], &n), best = 1e300;
		size_t step = f == 3 ? 2 : 1;

		if (count[f] == 0 || n < step) {
			printf("%-5s %12llu calls  %8.3f s\n", names[f], count[f],
			       0.0);
			free(a);
			continue;
		}
		for (int round = 0; round < 3; round++) {
			double t0 = lt_cpu(), t;

			lt_sink = lt_run(f, a, n, count[f]);
			t = lt_cpu() - t0;
			if (t < best)
				best = t;
		}
		printf("%-5s %12llu calls  %8.3f s  %6.2f ns a call\n",
		       names[f], count[f], best, 1e9 * best / (double)count[f]);
		total += best;
		free(a);
	}
	printf("libm  %8.3f s\n", total);
	return 0;
}
