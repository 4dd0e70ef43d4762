/* fuzz_view.c: libFuzzer harness for the stepper's keys and screens.
 *
 * The input is a short header and a sequence of keys.  The header picks
 * what is stepped (a trace of every scorer of one of two sentences of the
 * built-in model, greedy or with a target, or a small lesson of the
 * hand-set model with a quiz page), the precision, and the text width
 * (from 1 column, far below the stepper's minimum).  Every byte after it
 * is a key, given to view_key() as the terminal would give it: raw bytes
 * included, so a Latin-1 byte, half a UTF-8 character, a control or an
 * escape reaches the quiz's answer box as it would from a keyboard.  A
 * NUL byte escapes the next byte: a key that is not a byte (an arrow,
 * PgDn, Enter, Backspace, another key), a change of width (a resize), or
 * the NUL byte itself.
 *
 * view_key() is what the program runs (src/tui.c only maps curses keys
 * onto its codes), and after every key that asks for a redraw the screen
 * is rendered with view_render() and walked as tui_put() walks it, a
 * character at a time by utf8_char_len().  The harness checks what the
 * stepper relies on: the answer box is valid UTF-8 that fits its buffer;
 * every line of the screen is valid UTF-8; every wrapped line fits the
 * width; the position, the scorer and the scroll stay in range.  Anything
 * else (a read past a buffer, a leak, undefined behaviour) the sanitizers
 * catch.  A q ends the input, as it ends the program.
 *
 * Built and run by tests/fuzz/run; see tests/fuzz/README.md. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "model.h"
#include "num.h"
#include "trace.h"
#include "utf8.h"
#include "util.h"
#include "view.h"
#include "view_key.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_HEADER 3 /* setup, precision, width */

/* A lesson of the hand-set model: text, a directive with bars, a quiz. */
static const char fuzz_lesson_text[] =
	"title: Keys\n"
	"model: handset4\n"
	"sentence: je suis \xc3\xa9tudiant\n"
	"\n"
	"page: Text\n"
	"Words: \xc3\xa9tudiant, \xce\xb1_1,1 and h\xcc\x83_1, "
	"then a long line to wrap at any width that the input asks for.\n"
	"\n"
	"page: Bars\n"
	"show weights t=1\n"
	"\n"
	"page: Quiz\n"
	"quiz softmax t=3 i=1\n";

/* The keys that are not bytes, for the byte after a NUL. */
static const int fuzz_special[] = {
	VIEW_KEY_RIGHT, VIEW_KEY_LEFT, VIEW_KEY_UP, VIEW_KEY_DOWN,
	VIEW_KEY_HOME, VIEW_KEY_END, VIEW_KEY_NPAGE, VIEW_KEY_PPAGE,
	VIEW_KEY_BACKSPACE, VIEW_KEY_ENTER, VIEW_KEY_OTHER,
};
#define FUZZ_NSPECIAL ((int)(sizeof fuzz_special / sizeof fuzz_special[0]))

/* What is stepped: the model, the trace and, for a lesson, the lesson. */
struct fuzz_subject {
	struct model m;
	struct trace tr;
	struct lesson l;
	int is_lesson;
};

/* A trace of every scorer of sentence (and target, or NULL) with the
 * built-in toy model; aborts if the built-in sentence fails. */
static void fuzz_trace(struct fuzz_subject *su, const char *const *src,
		       int n, const char *const *tgt, int ntgt)
{
	struct errbuf err;
	int s[4], t[4];

	if (model_load_named(&su->m, "toy4", &err) != 0)
		abort();
	for (int k = 0; k < n; k++)
		s[k] = vocab_find(&su->m.src, src[k]);
	for (int k = 0; k < ntgt; k++)
		t[k] = vocab_find(&su->m.tgt, tgt[k]);
	if (trace_build(&su->tr, &su->m, s, n, ntgt ? t : NULL, ntgt,
			SCORER_ALL, NULL, &err) != 0)
		abort();
}

/* Sets up subject number which (of 4). */
static void fuzz_subject_init(struct fuzz_subject *su, int which)
{
	static const char *const je[] = { "je", "suis", "\xc3\xa9tudiant" };
	static const char *const zone[] = {
		"zone", "\xc3\xa9" "conomique", "europ\xc3\xa9" "enne"
	};
	static const char *const eea[] = { "european", "economic", "area" };
	struct errbuf err;

	memset(su, 0, sizeof *su);
	switch (which) {
	case 0: fuzz_trace(su, je, 3, NULL, 0); break;
	case 1: fuzz_trace(su, zone, 3, eea, 3); break;
	case 2: fuzz_trace(su, zone, 3, NULL, 0); break;
	default:
		su->is_lesson = 1;
		if (lesson_parse(&su->l, fuzz_lesson_text,
				 sizeof fuzz_lesson_text - 1, "fuzz.lesson",
				 &err) != 0 ||
		    lesson_prepare(&su->l, &su->m, &su->tr, &err) != 0)
			abort();
		break;
	}
}

static void fuzz_subject_free(struct fuzz_subject *su)
{
	trace_free(&su->tr);
	model_free(&su->m);
	if (su->is_lesson)
		lesson_free(&su->l);
}

/* s is valid UTF-8 from end to end. */
static int fuzz_valid(const char *s)
{
	size_t n = strlen(s);
	return utf8_valid_prefix(s, n) == n;
}

/* Walks s as tui_put() does and checks it is valid UTF-8. */
static void fuzz_line(const char *s)
{
	size_t len, bytes = 0, n = strlen(s);

	for (const char *p = s; (len = utf8_char_len(p)) > 0; p += len)
		bytes += len;
	if (bytes != n || !fuzz_valid(s))
		abort();
}

/* The lines of a screen, walked and checked; the wrapped ones against
 * the width.  wrap_push() gives a line at least 14 columns (8 past the
 * continuation indent of 6).  The help's lines and the answer line are
 * not wrapped: tui_put() cuts them. */
static void fuzz_screen(const struct view *v, const struct view_screen *s)
{
	int room = v->width > 14 ? v->width : 14;
	int wrapped = v->mode != VIEW_HELP;

	fuzz_line(s->title);
	fuzz_line(s->where);
	fuzz_line(s->keys);
	for (int k = 0; k < s->nnarr; k++) {
		fuzz_line(s->narr[k]);
		if (utf8_width(s->narr[k]) > room)
			abort();
	}
	for (int k = 0; k < s->nbody; k++) {
		fuzz_line(s->body[k]);
		if (wrapped && strncmp(s->body[k], "answer> ", 8) != 0 &&
		    utf8_width(s->body[k]) > room)
			abort();
	}
	for (int k = 0; k < s->nbars; k++)
		fuzz_line(s->bars[k].label);
	if (s->bars_title)
		fuzz_line(s->bars_title);
}

/* What every key must leave true of the view. */
static void fuzz_state(const struct view *v)
{
	size_t len = strlen(v->quiz_input);

	if (len >= sizeof v->quiz_input || !fuzz_valid(v->quiz_input))
		abort();
	if (v->quiz_npart < 0 || v->quiz_npart > 3)
		abort();
	if (v->pos < 0 || v->pos >= view_count(v) || v->run < 0 ||
	    v->run >= v->tr->nruns || v->scroll < 0)
		abort();
}

/* The next key from data[*at..size), or -1 at the end; a NUL escapes
 * the byte after it: a special key, a new width (*width), or NUL. */
static int fuzz_next_key(const uint8_t *data, size_t size, size_t *at,
			 int *width)
{
	if (*at >= size)
		return -1;
	int b = data[(*at)++];
	if (b != 0)
		return b;
	if (*at >= size)
		return 0;
	b = data[(*at)++];
	if (b < FUZZ_NSPECIAL)
		return fuzz_special[b];
	if (b == 0xff)
		return 0;
	*width = 1 + b % 160;
	return VIEW_KEY_RESIZE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_subject su;
	struct view v;
	struct view_screen s;
	int key, width;
	size_t at = FUZZ_HEADER;

	if (size < FUZZ_HEADER)
		return 0;
	fuzz_subject_init(&su, data[0] % 4);
	width = 1 + data[2] % 160;
	view_init(&v, &su.tr, su.is_lesson ? &su.l : NULL,
		  data[1] % (NUM_MAX_PREC + 1), width);
	v.page_rows = 1 + data[2] % 30;
	view_render(&v, &s);
	fuzz_screen(&v, &s);
	view_screen_free(&s);
	while ((key = fuzz_next_key(data, size, &at, &width)) >= 0) {
		v.width = width;
		int r = view_key(&v, key);
		fuzz_state(&v);
		if (r & VIEW_KEY_QUIT)
			break;
		if (!(r & VIEW_KEY_REDRAW))
			continue;
		view_render(&v, &s);
		fuzz_screen(&v, &s);
		view_screen_free(&s);
	}
	view_free(&v);
	fuzz_subject_free(&su);
	return 0;
}
