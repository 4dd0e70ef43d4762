/* fuzz_quiz.c: libFuzzer harness for the quiz's answer reader.
 *
 * The input is what a learner (or a script, or an attacker) pipes into
 * `attn-trace quiz`: answer lines, of any length, with any bytes.  The
 * first byte picks the question: its stage (scoring, softmax or
 * weighted-sum), its seed and its precision, on a trace of every scorer
 * of the built-in toy model; the rest is read as src/cli_quiz.c reads
 * standard input, with quiz_read_answer() from a memory stream, and each
 * answer goes where cli_quiz.c sends it: quiz_check(), then
 * quiz_feedback_text() into memory, and utf8_safe() for the echo of a
 * piped answer.
 *
 * The checks: an answer line is at most QUIZ_MAX_ANSWER bytes, ends at
 * its NUL and holds no '\n'; a line longer than that is skipped whole
 * (QUIZ_READ_LONG, buf ""); a memory stream never fails (QUIZ_READ_ERROR
 * aborts); the reader always makes progress, so the input ends after at
 * most one answer a byte; an answer within the tolerance is right, and
 * an unparseable one has a hint; the echo and the feedback hold no
 * control character but '\n' and tab (and the echo no bidirectional
 * control).
 * Anything else (a read past the buffer, a leak) the sanitizers catch.
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "quiz.h"
#include "tok.h"
#include "trace.h"
#include "utf8.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct model fuzz_m;
static struct trace fuzz_tr;

static void fuzz_init(void)
{
	static int done;
	struct errbuf err;

	if (done)
		return;
	if (model_load_builtin(&fuzz_m, &err) != 0 ||
	    tok_trace(&fuzz_tr, &fuzz_m, "je suis \xc3\xa9tudiant", NULL,
		      SCORER_ALL, NULL, &err) != 0) {
		fprintf(stderr, "fuzz_quiz: %s\n", err.msg);
		abort();
	}
	done = 1;
}

/* Aborts if s[0..n) holds a control character other than '\n' and tab
 * (a NUL included), or, when bidi is set, a bidirectional control. */
static void fuzz_check_text(const char *s, size_t n, int bidi)
{
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
			abort();
		if (bidi && utf8_bidi_len(s + k, n - k))
			abort();
	}
}

/* One answer: checked against q, its feedback and its echo rendered. */
static void fuzz_answer(const struct quiz_question *q, const char *line)
{
	struct quiz_answer a;
	char *buf = NULL, *safe = utf8_safe(line);
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (f == NULL)
		abort();
	fuzz_check_text(safe, strlen(safe), 1);
	free(safe);
	enum quiz_result r = quiz_check(q, line, &a);
	if (r == QUIZ_UNPARSEABLE && a.hint == NULL)
		abort();
	if (r != QUIZ_UNPARSEABLE &&
	    (r == QUIZ_RIGHT) != (fabs(a.value - q->expected) <= q->tolerance))
		abort();
	quiz_feedback_text(f, q, &a);
	if (fclose(f) != 0)
		abort();
	fuzz_check_text(buf, n, 0);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum trace_stage stages[] = {
		STAGE_SCORING, STAGE_SOFTMAX, STAGE_WEIGHTED_SUM };
	struct quiz_question q;
	struct errbuf err;
	char line[QUIZ_MAX_ANSWER + 1];
	enum quiz_read r;
	size_t reads = 0;

	if (size == 0)
		return 0;
	fuzz_init();
	if (quiz_make(&q, &fuzz_tr, data[0] % fuzz_tr.nruns,
		      stages[data[0] / 8 % 3], data[0], 2 + data[0] / 32 % 7,
		      &err) != 0)
		return 0; /* a stage this scorer's trace cannot ask about */
	FILE *in = fmemopen((void *)(data + 1), size > 1 ? size - 1 : 1,
			    "rb");
	if (in == NULL)
		abort();
	if (size == 1)
		getc(in); /* fmemopen wants a byte: use it up */
	while ((r = quiz_read_answer(in, line)) != QUIZ_READ_END &&
	       r != QUIZ_READ_QUIT) {
		if (r == QUIZ_READ_ERROR || ++reads > size)
			abort(); /* a memory stream neither fails nor stalls */
		size_t len = strlen(line);
		if (len > QUIZ_MAX_ANSWER || memchr(line, '\n', len))
			abort();
		if (r == QUIZ_READ_LONG && len != 0)
			abort();
		fuzz_answer(&q, line);
	}
	fclose(in);
	return 0;
}
