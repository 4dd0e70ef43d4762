/* fuzz_sentence.c: libFuzzer harness for the sentence tokenizer and what
 * follows it, against the built-in toy model.
 *
 * The input is a source sentence, optionally followed by a NUL byte and a
 * target sentence (a command line cannot hold NUL bytes, so this splits
 * nothing the program could be given).  Each sentence goes through
 * tok_split(), whose contract is checked, and then both through tok_trace()
 * as the command line does (split, look up, refuse <s> and </s> in the
 * target, trace); when that succeeds the trace of every scorer is rendered
 * as text and JSON into /dev/null.  The word limits keep each run short: at
 * most 64 words and 100 decoder steps.
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "tok.h"
#include "trace.h"
#include "util.h"
#include "window.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct model fuzz_m;
static FILE *fuzz_out;

static void fuzz_init(void)
{
	struct errbuf err;

	if (fuzz_out != NULL)
		return;
	if (model_load_builtin(&fuzz_m, &err) != 0) {
		fprintf(stderr, "fuzz_sentence: %s\n", err.msg);
		abort();
	}
	fuzz_out = fopen("/dev/null", "w");
	if (fuzz_out == NULL)
		abort();
}

/* Checks tok_split's contract on the NUL-terminated sentence s: at most
 * TRACE_MAX_TOKENS words of 1 to MODEL_MAX_WORD bytes, or a one-line error
 * and nothing to free. */
static void fuzz_split(const char *s)
{
	struct tok_list tl;
	struct errbuf err;

	if (tok_split(&tl, s, TRACE_MAX_TOKENS, "source", &err) != 0) {
		if (tl.n != 0 || tl.words != NULL ||
		    strchr(err.msg, '\n') != NULL)
			abort();
		return;
	}
	if (tl.n > TRACE_MAX_TOKENS)
		abort();
	for (int k = 0; k < tl.n; k++)
		if (strlen(tl.words[k]) == 0 ||
		    strlen(tl.words[k]) > MODEL_MAX_WORD)
			abort();
	tok_free(&tl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *target;
	struct trace tr;
	struct errbuf err;
	struct fmt_opts o;

	fuzz_init();
	buf = xmalloc(size + 2);
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	target = (char *)memchr(buf, '\0', size + 1) + 1; /* past the end */
	if (target > buf + size)
		target = NULL;
	fuzz_split(buf);
	if (target != NULL)
		fuzz_split(target);
	/* what the command line does: split, look up, check, trace; with
	 * each window and half-width 0 to 2 in turn, by the input's size */
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	cfg.window = (int)(size % WINDOW_COUNT);
	cfg.window_size = (int)(size / WINDOW_COUNT % 3);
	if (tok_trace(&tr, &fuzz_m, buf, target, SCORER_ALL, &cfg, &err) == 0) {
		fmt_opts_default(&o);
		fmt_text_trace(fuzz_out, &tr, &o);
		fmt_json_trace(fuzz_out, &tr, &o);
		trace_free(&tr);
	} else if (strchr(err.msg, '\n') != NULL) {
		abort(); /* every message is one line */
	}
	free(buf);
	return 0;
}
