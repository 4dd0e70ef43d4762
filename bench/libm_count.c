/* libm_count.c: an LD_PRELOAD library that counts the calls a program
 * makes to libm's exp, log, tanh and pow, and keeps every S-th argument,
 * so that bench/libm_time.c can time as many calls with the same kind of
 * arguments alone: the floor that libm puts under a training run whose
 * bytes must not change (bench/README.md, "The libm floor").  Not part of
 * the build; bench/run-train builds it:
 *
 *     cc -O2 -shared -fPIC -o libm_count.so bench/libm_count.c -ldl
 *     LIBM_COUNT_OUT=PREFIX LD_PRELOAD=./libm_count.so attn-trace train ...
 *
 * At exit it writes PREFIX.counts, one line a function ("exp 1234"), and
 * PREFIX.FUNCTION, the kept arguments as raw doubles (pow's two a call).
 * LIBM_COUNT_STRIDE sets S (default 16).  Each wrapper returns what
 * libm's own function returns for the same arguments, so the program
 * computes the same bytes; only its speed changes.  The counts take no
 * lock: for a program that calls libm from one thread, as train does. */
#define _GNU_SOURCE /* RTLD_NEXT */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { F_EXP, F_LOG, F_TANH, F_POW, F_COUNT };

static const char *const lc_name[F_COUNT] = { "exp", "log", "tanh", "pow" };
static uint64_t lc_calls[F_COUNT];
static FILE *lc_out[F_COUNT];
static uint64_t lc_stride = 16;
static int lc_ready; /* 0: not yet set up, 1: recording, -1: counting only */
static double (*lc_f1[F_COUNT])(double);
static double (*lc_pow)(double, double);

static void lc_finish(void);

static void lc_setup(void)
{
	const char *prefix = getenv("LIBM_COUNT_OUT");
	const char *stride = getenv("LIBM_COUNT_STRIDE");
	char path[4096];

	lc_f1[F_EXP] = (double (*)(double))dlsym(RTLD_NEXT, "exp");
	lc_f1[F_LOG] = (double (*)(double))dlsym(RTLD_NEXT, "log");
	lc_f1[F_TANH] = (double (*)(double))dlsym(RTLD_NEXT, "tanh");
	lc_pow = (double (*)(double, double))dlsym(RTLD_NEXT, "pow");
	if (!lc_f1[F_EXP] || !lc_f1[F_LOG] || !lc_f1[F_TANH] || !lc_pow) {
		fputs("libm_count: libm's functions not found\n", stderr);
		abort();
	}
	if (stride && atoi(stride) > 0)
		lc_stride = (uint64_t)atoi(stride);
	lc_ready = -1;
	if (!prefix)
		return;
	for (int f = 0; f < F_COUNT; f++) {
		snprintf(path, sizeof path, "%s.%s", prefix, lc_name[f]);
		lc_out[f] = fopen(path, "wb");
		if (!lc_out[f]) {
			perror(path);
			abort();
		}
	}
	lc_ready = 1;
	atexit(lc_finish);
}

static void lc_finish(void)
{
	const char *prefix = getenv("LIBM_COUNT_OUT");
	char path[4096];
	FILE *fp;

	for (int f = 0; f < F_COUNT; f++)
		if (lc_out[f])
			fclose(lc_out[f]);
	snprintf(path, sizeof path, "%s.counts", prefix);
	fp = fopen(path, "w");
	if (!fp) {
		perror(path);
		return;
	}
	fprintf(fp, "stride %llu\n", (unsigned long long)lc_stride);
	for (int f = 0; f < F_COUNT; f++)
		fprintf(fp, "%s %llu\n", lc_name[f],
			(unsigned long long)lc_calls[f]);
	fclose(fp);
}

/* Counts a call of f with argument x (and y, for pow). */
static void lc_note(int f, double x, double y)
{
	if (!lc_ready)
		lc_setup();
	if (lc_ready > 0 && lc_calls[f] % lc_stride == 0) {
		fwrite(&x, sizeof x, 1, lc_out[f]);
		if (f == F_POW)
			fwrite(&y, sizeof y, 1, lc_out[f]);
	}
	lc_calls[f]++;
}

double exp(double x)
{
	lc_note(F_EXP, x, 0.0);
	return lc_f1[F_EXP](x);
}

double log(double x)
{
	lc_note(F_LOG, x, 0.0);
	return lc_f1[F_LOG](x);
}

double tanh(double x)
{
	lc_note(F_TANH, x, 0.0);
	return lc_f1[F_TANH](x);
}

double pow(double x, double y)
{
	lc_note(F_POW, x, y);
	return lc_pow(x, y);
}
