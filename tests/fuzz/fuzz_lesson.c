/* fuzz_lesson.c: libFuzzer harness for the lesson reader and everything
 * that renders a lesson.
 *
 * The input is a lesson file.  lesson_parse() reads it under the name
 * /nonexistent/fuzz.lesson; a failure must leave a one-line message that
 * starts with that name.  When it parses, the harness neutralises the
 * lesson's models before lesson_prepare() sees them, the model: header's
 * and those of show ... model= directives: "toy4" and "handset4" (or no
 * model: line) are built in, and any other path is replaced, by the
 * parity of its length, either by the built-in model or by a file that
 * does not exist (/nonexistent/fuzz-missing.model, so the failure path
 * runs).  The
 * fuzzer thus never opens a file that the input names: not /dev/zero, not
 * a FIFO, nothing it could block on, and no harness writes anywhere but
 * /dev/null.
 *
 * When lesson_prepare() succeeds, the numbers of the narrative are
 * checked (lesson_check_numbers(), each message naming the lesson), and
 * every page is rendered the ways the
 * program renders it: lesson_page_text() and lesson_page_answers() at a
 * width taken from the input's size, lesson_plain(), every directive with
 * lesson_show_text() under each scorer (as the stepper does after 's'),
 * every quiz directive with lesson_quiz_make() and the quiz_*_text
 * renderers and quiz_check(), and the stepper's view model (view.c) on
 * each page with each scorer, its quiz included.
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "lesson.h"
#include "model.h"
#include "num.h"
#include "quiz.h"
#include "trace.h"
#include "util.h"
#include "view.h"

#define FUZZ_PATH "/nonexistent/fuzz.lesson"
#define FUZZ_MISSING "fuzz-missing.model" /* relative: in /nonexistent/ */

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

/* A failure's message: one line, naming the lesson. */
static void fuzz_check_err(const struct errbuf *err)
{
	if (strchr(err->msg, '\n') != NULL ||
	    strncmp(err->msg, FUZZ_PATH, strlen(FUZZ_PATH)) != 0)
		abort();
}

/* A model name that names no file: a built-in name, or "toy4" or the
 * missing file in place of a path. */
static char *fuzz_safe_name(char *name)
{
	if (model_builtin_name(name))
		return name;
	int missing = strlen(name) & 1;
	free(name);
	return xstrdup(missing ? FUZZ_MISSING : "toy4");
}

/* A number of the narrative that the trace lacks: a message that names
 * the lesson. */
static void fuzz_check_number(void *ctx, const char *msg)
{
	(void)ctx;
	if (strncmp(msg, FUZZ_PATH ":", sizeof FUZZ_PATH) != 0 ||
	    strchr(msg, '\n'))
		abort();
}

/* Keeps lesson_prepare() away from any file the input names. */
static void fuzz_neutralise_model(struct lesson *l)
{
	if (l->model != NULL)
		l->model = fuzz_safe_name(l->model);
	for (int k = 0; k < l->nalts; k++)
		l->alts[k].name = fuzz_safe_name(l->alts[k].name);
}

/* A quiz directive: its question, answer, worked arithmetic, and what a
 * right, a wrong and an unparseable answer get. */
static void fuzz_quiz(const struct lesson *l, const struct lesson_show *sh,
		      const struct trace *tr, int run, int prec)
{
	static const char *const answers[] = {
		"0", "1,5", "-0.5", ("\xe2\x88\x92" "0.25"), ".5", "1e400", "x"
	};
	struct quiz_question q;
	struct quiz_answer a;
	struct errbuf err;
	char buf[64];

	if (lesson_quiz_make(&q, l, sh, tr, run, prec, &err) != 0) {
		if (strchr(err.msg, '\n') != NULL)
			abort();
		return;
	}
	quiz_prompt_text(fuzz_sink(), &q);
	quiz_answer_text(fuzz_sink(), &q);
	quiz_worked_text(fuzz_sink(), &q);
	snprintf(buf, sizeof buf, "%.17g", q.expected);
	if (quiz_check(&q, buf, &a) != QUIZ_RIGHT)
		abort(); /* the exact value is always right */
	quiz_feedback_text(fuzz_sink(), &q, &a);
	for (size_t k = 0; k < sizeof answers / sizeof answers[0]; k++) {
		quiz_check(&q, answers[k], &a);
		quiz_feedback_text(fuzz_sink(), &q, &a);
	}
}

/* Every directive of every page, under the lesson's scorers and each of
 * the trace's runs, as lesson_page_text and the stepper show it. */
static void fuzz_directives(const struct lesson *l, const struct trace *tr,
			    const struct fmt_opts *o, int width)
{
	for (int p = 0; p < l->npages; p++) {
		const struct lesson_page *pg = &l->pages[p];
		for (int b = 0; b < pg->nblocks; b++) {
			const struct lesson_show *sh = &pg->blocks[b].show;
			if (pg->blocks[b].text != NULL)
				continue;
			for (int run = -1; run < tr->nruns; run++) {
				lesson_show_text(fuzz_sink(), l, sh, tr, o, run,
						 width);
				if (sh->what == SHOW_QUIZ)
					fuzz_quiz(l, sh, tr, run, o->precision);
			}
		}
	}
}

/* The stepper's view of each page with each scorer, and its quiz. */
static void fuzz_view(const struct lesson *l, const struct trace *tr,
		      int prec, int width)
{
	struct view v;
	struct view_screen s;
	struct errbuf err;

	view_init(&v, tr, l, prec, width);
	for (int r = 0; r < tr->nruns; r++) {
		for (int p = 0; p < view_count(&v); p++) {
			view_goto(&v, p);
			view_render(&v, &s);
			view_screen_free(&s);
			if (r != 0 || lesson_page_quiz(l, p) == NULL)
				continue;
			if (view_quiz_start(&v, (unsigned long long)p, &err) != 0)
				continue;
			view_render(&v, &s);
			view_screen_free(&s);
			view_quiz_type(&v, '1');
			view_quiz_answer(&v);
			view_render(&v, &s);
			view_screen_free(&s);
			view_quiz_end(&v);
		}
		view_next_scorer(&v);
	}
	view_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	struct fmt_opts o;
	int width = 10 + (int)(size % 100); /* below the minimum too */

	if (lesson_parse(&l, (const char *)data, size, FUZZ_PATH, &err) != 0) {
		fuzz_check_err(&err);
		lesson_free(&l);
		return 0;
	}
	if (l.npages < 1 || l.npages > LESSON_MAX_PAGES || l.title == NULL ||
	    l.sentence == NULL)
		abort(); /* what the parser promises of a lesson */
	fuzz_neutralise_model(&l);
	if (lesson_prepare(&l, &m, &tr, &err) != 0) {
		fuzz_check_err(&err);
		lesson_free(&l);
		return 0;
	}
	lesson_check_numbers(&l, &tr, fuzz_check_number, NULL);
	fmt_opts_default(&o);
	o.precision = (int)(size % (NUM_MAX_PREC + 1));
	for (int p = 0; p < l.npages; p++) {
		lesson_page_text(fuzz_sink(), &l, p, &tr, &o, width);
		lesson_page_answers(fuzz_sink(), &l, p, &tr, &o);
	}
	lesson_plain(fuzz_sink(), &l, &tr, &o, width, width % 2);
	fuzz_directives(&l, &tr, &o, width);
	fuzz_view(&l, &tr, o.precision, width);
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
	return 0;
}
