/* fuzz_model.c: libFuzzer harness for the model file parser.
 *
 * The input is split at its last NUL byte, if it has one: the bytes before
 * it are the model text, the bytes after it (at most 200) a word to look
 * up.  Without a NUL the whole input is the model text and the word is its
 * last line.  When the model parses, the word goes through vocab_find() and
 * vocab_closest() in both vocabularies, and a short trace of the model's
 * first source word is built and rendered, so that hostile weights (huge,
 * tiny, of mixed sign) reach the arithmetic and the formatters too.
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
#include "trace.h"
#include "util.h"

#define FUZZ_MAX_WORD 200 /* bytes of the looked-up word */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (sink == NULL)
		sink = fopen("/dev/null", "w");
	if (sink == NULL)
		abort();
	return sink;
}

/* Looks word up in v the two ways the command line does. */
static void fuzz_lookup(const struct vocab *v, const char *word)
{
	int near[5], k, n;

	k = vocab_find(v, word);
	if (k < -1 || k >= v->n)
		abort();
	n = vocab_closest(v, word, near, 5);
	if (n < 0 || n > 5 || n > v->n)
		abort();
	for (k = 0; k < n; k++)
		if (near[k] < 0 || near[k] >= v->n)
			abort();
}

/* Traces the first source word with every scorer and renders the trace
 * every way the program can. */
static void fuzz_trace(const struct model *m)
{
	struct fmt_opts o;
	struct trace tr;
	struct errbuf err;
	struct fmt_bar bars[1];
	int src = 0;

	if (trace_build(&tr, m, &src, 1, NULL, 0, SCORER_ALL, NULL, &err) != 0)
		abort(); /* a one-word sentence is always in range */
	fmt_opts_default(&o);
	fmt_text_trace(fuzz_sink(), &tr, &o);
	fmt_json_trace(fuzz_sink(), &tr, &o);
	for (int run = 0; run < tr.nruns; run++) {
		fmt_bars(bars, &tr, run, 1, 4);
		fmt_text_bars(fuzz_sink(), &tr, run, 1, 20, 4);
		fmt_text_heatmap(fuzz_sink(), &tr, run, 4, run & 1);
	}
	fmt_text_compare(fuzz_sink(), &tr, 1, 4, 80);
	trace_free(&tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const uint8_t *nul = NULL;
	size_t len = size, wlen;
	const char *w;
	char *word;
	struct model m;
	struct errbuf err;

	for (size_t i = size; i > 0; i--)
		if (data[i - 1] == 0) {
			nul = data + i - 1;
			break;
		}
	if (nul != NULL) {
		len = (size_t)(nul - data);
		w = (const char *)nul + 1;
		wlen = size - len - 1;
	} else {
		w = text + len;
		while (w > text && w[-1] != '\n')
			w--;
		wlen = (size_t)(text + len - w);
	}
	if (wlen > FUZZ_MAX_WORD)
		wlen = FUZZ_MAX_WORD;

	if (model_parse(&m, text, len, "fuzz", &err) != 0) {
		/* a failure leaves *m empty and one line of message */
		if (m.src.n != 0 || m.tgt.n != 0 || m.name != NULL ||
		    strchr(err.msg, '\n') != NULL ||
		    strncmp(err.msg, "fuzz:", 5) != 0)
			abort();
		model_free(&m);
		return 0;
	}
	word = xstrndup(w, wlen);
	fuzz_lookup(&m.src, word);
	fuzz_lookup(&m.tgt, word);
	free(word);
	fmt_json_model(fuzz_sink(), &m);
	fuzz_trace(&m);
	model_free(&m);
	return 0;
}
