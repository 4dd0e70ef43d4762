/* fuzz_batch.c: libFuzzer harness for batch files (trace --batch), against
 * the built-in toy model.
 *
 * The input is a batch file.  It is cut into lines as getline() cuts them
 * (each with its '\n', the last one perhaps without), and each line goes
 * where src/cli_trace.c sends it: tok_pair_skip() drops blank lines and
 * comments, tok_pair_split() cuts "source ||| target" (a line with two
 * "|||" is an error), and tok_trace() traces the pair with every scorer.
 * A line holding a NUL byte is seen, as the command line sees it today,
 * only up to that byte.  Each trace is rendered by every batch format into
 * memory: text, JSON (pretty and compact, that is JSON Lines), CSV (with
 * and without the header) and Markdown, with the pair's line number, and
 * with options (precision, top, terms, stages) taken from the input's size
 * so that they vary too.  The checks: every message is one line; a JSON
 * Lines record is exactly one line; no format writes a control character
 * other than '\n' (a word from the file must not reach a terminal as an
 * escape sequence).
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
#include "tok.h"
#include "trace.h"
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

/* One line of the batch, NUL-terminated, numbered lineno.  Returns 1 if
 * it was traced. */
static int fuzz_line(char *line, int lineno, const struct fmt_opts *o)
{
	char *source, *target;
	struct trace tr;
	struct errbuf err;
	struct fmt_opts fo = *o;

	if (tok_pair_skip(line))
		return 0;
	if (tok_pair_split(line, &source, &target) != 0)
		return 0;
	if (strchr(source, '\n') != NULL ||
	    (target != NULL && strchr(target, '\n') != NULL))
		abort(); /* the line end is cut */
	if (tok_trace(&tr, &fuzz_m, source, target, SCORER_ALL, &err) != 0) {
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fmt_opts o;
	size_t pos = 0;
	int lineno = 0, traced = 0;
	char *line;

	fuzz_init();
	fmt_opts_default(&o);
	o.precision = (int)(size % (NUM_MAX_PREC + 1));
	o.terms = (int)(size / 18 % 2);
	o.top = (int)(size / 36 % 10);
	if (size / 360 % 4 == 3)
		o.stages = 1u + (unsigned)(size % ((1u << STAGE_COUNT) - 1));
	while (pos < size && traced < FUZZ_MAX_PAIRS) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t n = nl ? (size_t)(nl - (data + pos)) + 1 : size - pos;
		line = xmalloc(n + 1);
		memcpy(line, data + pos, n);
		line[n] = '\0';
		pos += n;
		traced += fuzz_line(line, ++lineno, &o);
		free(line);
	}
	return 0;
}
