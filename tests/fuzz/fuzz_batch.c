/* fuzz_batch.c: libFuzzer harness for batch files (trace --batch) and
 * pairs files (train --pairs), which share one grammar (src/pairs.h),
 * against the built-in toy model.
 *
 * The input is a batch file.  It is read as src/cli_trace.c reads it,
 * with pairs_getline() from a memory stream (lines longer than
 * PAIRS_MAX_LINE are skipped, never held), and each line goes where
 * cli_trace.c sends it: pairs_split() drops blank lines and comments and
 * cuts "source ||| target" or finds the line's fault, whose column must
 * lie in the line, and tok_trace() traces the pair with every scorer.
 * Each trace is rendered by every batch format into memory: text, JSON
 * (pretty and compact, that is JSON Lines), CSV (with and without the
 * header) and Markdown, with the pair's line number, and with options
 * (precision, top, terms, stages) taken from the input's size so that
 * they vary too.  The checks: every message is one line; a JSON Lines
 * record is exactly one line; no format writes a control character other
 * than '\n' (a word from the file must not reach a terminal as an escape
 * sequence).  The same input is then parsed whole as a pairs file
 * (train_pairs_parse), whose message must be one line too.
 *
 * At most FUZZ_MAX_PAIRS lines are traced per input, so one run stays
 * short.  Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "num.h"
#include "pairs.h"
#include "tok.h"
#include "trace.h"
#include "train.h"
#include "util.h"

#define FUZZ_MAX_PAIRS 8 /* lines traced per input */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct model fuzz_m;

static void fuzz_init(void)
{
	static int done;
	struct errbuf err;

	if (done)
		return;
	if (model_load_builtin(&fuzz_m, &err) != 0) {
		fprintf(stderr, "fuzz_batch: %s\n", err.msg);
		abort();
	}
	done = 1;
}

/* Checks what a formatter wrote into buf[0..n), which open_memstream()
 * ended with a NUL: no control character but '\n' (nor a NUL), and, when
 * one_line is set, exactly one '\n', at the end.  libc's strcspn and
 * memchr do the scanning: a loop here would be instrumented for coverage
 * byte by byte and slow every run down. */
static void fuzz_check_out(const char *buf, size_t n, int one_line)
{
	static char ctl[32];

	if (ctl[0] == '\0') {
		size_t k = 0;
		for (int c = 1; c < 0x20; c++)
			if (c != '\n')
				ctl[k++] = (char)c;
		ctl[k] = 0x7F;
	}
	if (strcspn(buf, ctl) != n)
		abort();
	if (one_line && (n == 0 || memchr(buf, '\n', n) != buf + n - 1))
		abort();
}

/* Renders tr with the formatter `which` into memory and checks it. */
static void fuzz_format(const struct trace *tr, const struct fmt_opts *o,
			int which)
{
	struct fmt_opts fo = *o;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (f == NULL)
		abort();
	switch (which) {
	case 0: fmt_text_trace(f, tr, &fo); break;
	case 1: fmt_json_trace(f, tr, &fo); break;
	case 2: fo.compact = 1; fmt_json_trace(f, tr, &fo); break;
	case 3: fmt_csv_trace(f, tr, &fo, 1); break;
	case 4: fmt_csv_trace(f, tr, &fo, 0); break;
	default: fmt_md_trace(f, tr, &fo); break;
	}
	if (fclose(f) != 0)
		abort();
	fuzz_check_out(buf, n, which == 2);
	free(buf);
}

/* One line of the batch, line[0..len) with a NUL after it, numbered
 * lineno.  Returns 1 if it was traced or refused. */
static int fuzz_line(char *line, size_t len, int lineno,
		     const struct fmt_opts *o)
{
	struct pairs_line pl;
	struct trace tr;
	struct errbuf err;
	struct fmt_opts fo = *o;
	size_t col;
	int r = pairs_split(line, len, lineno, 0, &pl, &col, &err);

	if (r < 0 && (col < 1 || col > len + 1 ||
		      strchr(err.msg, '\n') != NULL))
		abort(); /* the fault is in the line */
	if (r <= 0)
		return r < 0;
	if (pl.src + pl.nsrc > len ||
	    (pl.has_target && pl.tgt + pl.ntgt > len))
		abort();
	line[pl.src + pl.nsrc] = '\0';
	if (pl.has_target)
		line[pl.tgt + pl.ntgt] = '\0';
	if (tok_trace(&tr, &fuzz_m, line + pl.src,
		      pl.has_target ? line + pl.tgt : NULL, SCORER_ALL, NULL,
		      &err) != 0) {
		if (strchr(err.msg, '\n') != NULL)
			abort();
		return 1;
	}
	fo.pair = lineno;
	for (int which = 0; which < 6; which++)
		fuzz_format(&tr, &fo, which);
	trace_free(&tr);
	return 1;
}

/* The input as a pairs file for train: one message of one line, or
 * pairs that each have both sides. */
static void fuzz_pairs(const uint8_t *data, size_t size)
{
	struct train_data d;
	struct errbuf err;

	if (train_pairs_parse(&d, (const char *)data, size, "fuzz.pairs",
			      NULL, &err) != 0) {
		if (strchr(err.msg, '\n') != NULL)
			abort();
		return;
	}
	for (int k = 0; k < d.n; k++)
		if (d.pairs[k].nsrc < 1 || d.pairs[k].ntgt < 1)
			abort();
	train_data_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fmt_opts o;
	int lineno = 0, traced = 0;
	char *line = xmalloc(PAIRS_MAX_LINE + 1);
	size_t len;
	enum pairs_read r;
	FILE *in = fmemopen((void *)data, size ? size : 1, "rb");

	if (in == NULL)
		abort();
	fuzz_init();
	fmt_opts_default(&o);
	o.precision = (int)(size % (NUM_MAX_PREC + 1));
	o.terms = (int)(size / 18 % 2);
	o.top = (int)(size / 36 % 10);
	if (size / 360 % 4 == 3)
		o.stages = 1u + (unsigned)(size % ((1u << STAGE_COUNT) - 1));
	while (size > 0 && traced < FUZZ_MAX_PAIRS &&
	       (r = pairs_getline(in, line, &len)) != PAIRS_END) {
		if (r == PAIRS_ERROR)
			abort(); /* a memory stream does not fail */
		lineno++;
		if (r == PAIRS_LINE)
			traced += fuzz_line(line, len, lineno, &o);
	}
	fclose(in);
	free(line);
	fuzz_pairs(data, size);
	return 0;
}
