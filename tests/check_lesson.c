/* check_lesson.c: the lesson format (doc/lessons.md): parsing, every kind
 * of error with its position, checking directives against the trace,
 * finding lessons, and the plain text of a page. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "diagram.h"
#include "window.h"
#include "lesson.h"
#include "num.h"
#include "utf8.h"

#define HEAD "title: T\nsentence: je suis étudiant\n"

static char *buf;
static size_t buflen;
static FILE *mem;

static void mem_open(void)
{
	mem = open_memstream(&buf, &buflen);
	ck_assert_ptr_nonnull(mem);
}

/* Closes the stream and returns what was written; freed in teardown. */
static const char *mem_text(void)
{
	fclose(mem);
	mem = NULL;
	return buf;
}

static void teardown(void)
{
	if (mem)
		fclose(mem);
	free(buf);
	buf = NULL;
	mem = NULL;
}

/* Parses text as "t.lesson", which must succeed. */
static void parse_ok(struct lesson *l, const char *text)
{
	struct errbuf err;
	if (lesson_parse(l, text, strlen(text), "t.lesson", &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
}

/* Parses text as "t.lesson", which must fail with exactly want. */
static void parse_err(const char *text, const char *want)
{
	struct lesson l;
	struct errbuf err;
	err.msg[0] = '\0';
	int rc = lesson_parse(&l, text, strlen(text), "t.lesson", &err);
	lesson_free(&l);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(err.msg, want);
}

/* Parses and prepares text, which must fail in lesson_prepare with
 * exactly want. */
static void prepare_err(const char *text, const char *want)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	parse_ok(&l, text);
	err.msg[0] = '\0';
	ck_assert_int_eq(lesson_prepare(&l, &m, &tr, &err), -1);
	lesson_free(&l);
	ck_assert_str_eq(err.msg, want);
}

/* --- what parses, and to what ---------------------------------------- */

START_TEST(test_header_keys)
{
	struct lesson l;
	parse_ok(&l, "# a comment\n"
		 "title: Softmax: from scores to weights  \n"
		 "goal:   By the end you can do it.\n"
		 "model: toy4\n"
		 "sentence: je suis étudiant\n"
		 "target: i am a student\n"
		 "scorer: general\n"
		 "\n"
		 "page: One\n"
		 "text\n");
	ck_assert_str_eq(l.path, "t.lesson");
	ck_assert_str_eq(l.title, "Softmax: from scores to weights");
	ck_assert_str_eq(l.goal, "By the end you can do it.");
	ck_assert_str_eq(l.model, "toy4");
	ck_assert_str_eq(l.sentence, "je suis étudiant");
	ck_assert_str_eq(l.target, "i am a student");
	ck_assert_int_eq(l.scorer, SCORER_general);
	ck_assert_int_eq(l.sentence_pos.line, 5);
	ck_assert_int_eq(l.sentence_pos.col, 11);
	ck_assert_int_eq(l.target_pos.line, 6);
	ck_assert_int_eq(l.model_pos.line, 4);
	ck_assert_int_eq(l.npages, 1);
	ck_assert_str_eq(l.pages[0].title, "One");
	lesson_free(&l);
}
END_TEST

START_TEST(test_header_defaults)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\nx\n");
	ck_assert_ptr_null(l.goal);
	ck_assert_ptr_null(l.model);
	ck_assert_ptr_null(l.target);
	ck_assert_int_eq(l.scorer, SCORER_dot);
	ck_assert_int_eq(l.target_pos.line, 0);
	lesson_free(&l);
	lesson_free(&l); /* harmless twice */
}
END_TEST

static const struct show_case {
	const char *line;
	enum show_what what;
	int t, i, scorer, stage, arithmetic, col_t, col_i;
} show_cases[] = {
	{ "show embedding i=2", SHOW_EMBEDDING, 0, 2, -1, -1, 0, 0, 16 },
	{ "show embedding t=3 scorer=concat", SHOW_EMBEDDING, 3, 0,
	  SCORER_concat, -1, 0, 16, 0 },
	{ "show encoder i=3 arithmetic", SHOW_ENCODER, 0, 3, -1, -1, 1, 0,
	  14 },
	{ "show state t=2", SHOW_STATE, 2, 0, -1, -1, 0, 12, 0 },
	{ "show score i=2 t=1 arithmetic", SHOW_SCORE, 1, 2, -1, -1, 1, 16,
	  12 },
	{ "show scores t=4 scorer=general", SHOW_SCORES, 4, 0,
	  SCORER_general, -1, 0, 13, 0 },
	{ "show softmax t=1", SHOW_SOFTMAX, 1, 0, -1, -1, 0, 14, 0 },
	{ "show weights t=5", SHOW_WEIGHTS, 5, 0, -1, -1, 0, 14, 0 },
	{ "show weighted t=2 i=1", SHOW_WEIGHTED, 2, 1, -1, -1, 0, 15, 19 },
	{ "show weighted t=2", SHOW_WEIGHTED, 2, 0, -1, -1, 0, 15, 0 },
	{ "show context t=3 scorer=dot", SHOW_CONTEXT, 3, 0, SCORER_dot, -1,
	  0, 14, 0 },
	{ "show concat t=1", SHOW_CONCAT, 1, 0, -1, -1, 0, 13, 0 },
	{ "show output t=2", SHOW_OUTPUT, 2, 0, -1, -1, 0, 13, 0 },
	{ "show stage=scoring t=2 arithmetic", SHOW_STAGE, 2, 0, -1,
	  STAGE_SCORING, 1, 20, 0 },
	{ "show stage=decoder t=3", SHOW_STAGE, 3, 0, -1, STAGE_DECODER, 0,
	  20, 0 },
	{ "show stage=encoding", SHOW_STAGE, 0, 0, -1, STAGE_ENCODING, 0, 0,
	  0 },
	{ "show stage=weighted-sum t=1 scorer=concat", SHOW_STAGE, 1, 0,
	  SCORER_concat, STAGE_WEIGHTED_SUM, 0, 25, 0 },
	{ "show heatmap", SHOW_HEATMAP, 0, 0, -1, -1, 0, 0, 0 },
	{ "show heatmap scorer=general", SHOW_HEATMAP, 0, 0, SCORER_general,
	  -1, 0, 0, 0 },
	{ "show compare t=2", SHOW_COMPARE, 2, 0, -1, -1, 0, 14, 0 },
	{ "show diagram t=3 scorer=general", SHOW_DIAGRAM, 3, 0,
	  SCORER_general, -1, 0, 14, 0 },
	{ "show\tsoftmax   t=100   # t=1 in a comment", SHOW_SOFTMAX, 100, 0,
	  -1, -1, 0, 16, 0 },
	{ "show words", SHOW_WORDS, 0, 0, -1, -1, 0, 0, 0 },
	{ "show words scorer=general", SHOW_WORDS, 0, 0, SCORER_general, -1,
	  0, 0, 0 },
	{ "show gradpaths", SHOW_GRADPATHS, 0, 0, -1, -1, 0, 0, 0 },
	{ "show accuracy", SHOW_ACCURACY, 0, 0, -1, -1, 0, 0, 0 },
};

START_TEST(test_show_kinds)
{
	const struct show_case *c = &show_cases[_i];
	char text[256];
	struct lesson l;
	snprintf(text, sizeof text, HEAD "page: p\n%s\n", c->line);
	parse_ok(&l, text);
	ck_assert_int_eq(l.npages, 1);
	ck_assert_int_eq(l.pages[0].nblocks, 1);
	const struct lesson_block *b = &l.pages[0].blocks[0];
	ck_assert_ptr_null(b->text);
	ck_assert_int_eq(b->show.what, c->what);
	ck_assert_int_eq(b->show.t, c->t);
	ck_assert_int_eq(b->show.i, c->i);
	ck_assert_int_eq(b->show.scorer, c->scorer);
	ck_assert_int_eq(b->show.stage, c->stage);
	ck_assert_int_eq(b->show.arithmetic, c->arithmetic);
	ck_assert_int_eq(b->show.line, 4);
	ck_assert_int_eq(b->show.col_t, c->col_t);
	ck_assert_int_eq(b->show.col_i, c->col_i);
	lesson_free(&l);
}
END_TEST

/* Each model= name is registered once, where it is first written. */
START_TEST(test_show_model)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\nshow heatmap\n"
		 "show heatmap model=models/a.model scorer=dot\n"
		 "show heatmap model=handset4\n"
		 "show heatmap scorer=concat model=models/a.model\n");
	const struct lesson_block *b = l.pages[0].blocks;
	ck_assert_int_eq(l.nalts, 2);
	ck_assert_str_eq(l.alts[0].name, "models/a.model");
	ck_assert_int_eq(l.alts[0].pos.line, 5);
	ck_assert_int_eq(l.alts[0].pos.col, 20);
	ck_assert_str_eq(l.alts[1].name, "handset4");
	ck_assert_int_eq(l.alts[1].pos.line, 6);
	ck_assert_int_eq(b[0].show.alt, 0);
	ck_assert_int_eq(b[0].show.col_model, 0);
	ck_assert_int_eq(b[1].show.alt, 1);
	ck_assert_int_eq(b[1].show.col_model, 14);
	ck_assert_int_eq(b[1].show.scorer, SCORER_dot);
	ck_assert_int_eq(b[2].show.alt, 2);
	ck_assert_int_eq(b[3].show.alt, 1);
	ck_assert_int_eq(b[3].show.col_model, 28);
	ck_assert(!l.alts[0].ready && !l.alts[1].ready);
	lesson_free(&l);
}
END_TEST

/* window=NAME beside model=: a model traced through two windows is two
 * models; a reference's window= is its own (lesson 3's baseline). */
START_TEST(test_show_window)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\nshow words model=longfixed8 window=fixed\n"
		 "show gradpaths model=longfixed8\n"
		 "show words window=fixed model=longfixed8\n"
		 "It is {α_1,3 model=longfixed8 window=fixed}.\n"
		 "claim {accuracy[12] model=longfixed8 window=fixed} < 1\n");
	const struct lesson_block *b = l.pages[0].blocks;
	ck_assert_int_eq(l.nalts, 2);
	ck_assert_str_eq(l.alts[0].name, "longfixed8");
	ck_assert_int_eq(l.alts[0].window, window_find("fixed"));
	ck_assert_int_eq(l.alts[1].window, -1);
	ck_assert_int_eq(b[0].show.what, SHOW_WORDS);
	ck_assert_int_eq(b[0].show.alt, 1);
	ck_assert_int_eq(b[0].show.window, window_find("fixed"));
	ck_assert_int_eq(b[1].show.alt, 2);
	ck_assert_int_eq(b[1].show.window, -1);
	ck_assert_int_eq(b[2].show.alt, 1);
	ck_assert_int_eq(l.pages[0].refs[0].alt, 1);
	ck_assert_int_eq(l.pages[0].refs[0].window, window_find("fixed"));
	ck_assert_str_eq(l.pages[0].claims[0].a.ref.sym, "accuracy");
	ck_assert_str_eq(l.pages[0].claims[0].a.ref.idx[0], "12");
	ck_assert_int_eq(l.pages[0].claims[0].a.ref.alt, 1);
	lesson_free(&l);
}
END_TEST

START_TEST(test_err_window)
{
	parse_err(HEAD "page: p\nshow words window=fixed\n", "t.lesson:4:12: "
		  "expected model=PATH before window=NAME (the window the "
		  "other model is traced through), found window= alone");
	parse_err(HEAD "page: p\nshow words model=x window=fixd\n",
		  "t.lesson:4:27: expected a window (global, local-m, local-p "
		  "or fixed) after 'window=', found 'fixd'");
	parse_err(HEAD "page: p\nshow softmax t=1 model=x window=fixed\n",
		  "t.lesson:4:18: expected t=N or scorer=NAME after 'show "
		  "softmax', found 'model=x'");
	parse_err(HEAD "page: p\nIt is {α_1,1 window=fixed}.\n",
		  "t.lesson:4:8: expected model=PATH beside window=NAME (the "
		  "window the other model is traced through), found window= "
		  "alone in '{α_1,1 window=fixed}'");
	parse_err(HEAD "page: p\nIt is {α_1,1 model=x window=fix}.\n",
		  "t.lesson:4:30: expected a window (global, local-m, local-p "
		  "or fixed) after 'window=', found 'fix'");
	parse_err(HEAD "page: p\nshow accuracy t=1\n", "t.lesson:4:15: "
		  "expected nothing more after 'show accuracy', found 't=1'");
	parse_err(HEAD "gradient-paths: 0\npage: p\nx\n", "t.lesson:3:17: "
		  "expected a step from 1 to 100 or last (the step whose loss "
		  "L_t the gradient paths follow), found '0'");
}
END_TEST

START_TEST(test_paragraphs_join)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: First page\n"
		 "One line,   \n"
		 "  \\ and\tthe next.\n" /* indented: a verbatim block */
		 "Then\n"
		 "# a comment does not end a paragraph\n"
		 "   \t\n"
		 "  \n"
		 "Second paragraph\n"
		 "ends at a directive.\n"
		 "show weights t=1\n"
		 "Third.\n"
		 "page: Second page\n"
		 "Fourth.\n");
	ck_assert_int_eq(l.npages, 2);
	const struct lesson_page *p = &l.pages[0];
	ck_assert_str_eq(p->title, "First page");
	ck_assert_int_eq(p->nblocks, 6);
	ck_assert_str_eq(p->blocks[0].text, "One line,");
	ck_assert_int_eq(p->blocks[0].verbatim, 0);
	ck_assert_str_eq(p->blocks[1].text, "   and  the next.");
	ck_assert_int_eq(p->blocks[1].verbatim, 1);
	ck_assert_str_eq(p->blocks[2].text, "Then");
	ck_assert_str_eq(p->blocks[3].text, "Second paragraph ends at a "
			 "directive.");
	ck_assert_ptr_null(p->blocks[4].text);
	ck_assert_int_eq(p->blocks[4].show.what, SHOW_WEIGHTS);
	ck_assert_str_eq(p->blocks[5].text, "Third.");
	ck_assert_int_eq(l.pages[1].nblocks, 1);
	ck_assert_str_eq(l.pages[1].blocks[0].text, "Fourth.");
	lesson_free(&l);
}
END_TEST

START_TEST(test_verbatim_and_escapes)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\n"
		 "    α = exp(e) / Σ exp(e)\n"
		 "    \\\n"
		 "    \\# not a comment\n"
		 "\tshow weights t=1\n"
		 "\\show me the numbers\n"
		 "\\page: not a page\n"
		 "\\title: not a key\n"
		 "# title: a comment, even on a page\n");
	ck_assert_int_eq(l.npages, 1);
	ck_assert_int_eq(l.pages[0].nblocks, 2);
	const struct lesson_block *b = l.pages[0].blocks;
	ck_assert_int_eq(b[0].verbatim, 1);
	ck_assert_str_eq(b[0].text, "    α = exp(e) / Σ exp(e)\n"
			 "\n"
			 "    # not a comment\n"
			 "        show weights t=1");
	ck_assert_int_eq(b[1].verbatim, 0);
	ck_assert_str_eq(b[1].text, "show me the numbers page: not a page "
			 "title: not a key");
	lesson_free(&l);
}
END_TEST

START_TEST(test_crlf_and_bom)
{
	struct lesson l;
	parse_ok(&l, "\xEF\xBB\xBFtitle: T\r\nsentence: je\r\n\r\n"
		 "page: p\r\nshow weights t=1\r\nword\r\n");
	ck_assert_str_eq(l.title, "T");
	ck_assert_str_eq(l.sentence, "je");
	ck_assert_int_eq(l.pages[0].nblocks, 2);
	ck_assert_str_eq(l.pages[0].blocks[1].text, "word");
	lesson_free(&l);
}
END_TEST

START_TEST(test_no_final_newline)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\nlast words");
	ck_assert_str_eq(l.pages[0].blocks[0].text, "last words");
	lesson_free(&l);
}
END_TEST

/* --- one test for each kind of error ---------------------------------- */

START_TEST(test_err_empty_file)
{
	parse_err("", "t.lesson:1:1: expected a lesson (a 'title:' line, a "
		  "'sentence:' line and pages), found an empty file");
	parse_err("# only\n\n  # comments\n", "t.lesson:1:1: expected a "
		  "lesson (a 'title:' line, a 'sentence:' line and pages), "
		  "found an empty file");
}
END_TEST

START_TEST(test_err_invalid_utf8)
{
	parse_err(HEAD "page: p\nabc \xE9t\n", "t.lesson:4:5: expected UTF-8 "
		  "text, found the byte 0xE9");
}
END_TEST

START_TEST(test_err_control_character)
{
	parse_err(HEAD "page: p\nab\x01\n", "t.lesson:4:3: expected text, "
		  "found the control character U+0001");
}
END_TEST

START_TEST(test_err_nul_byte)
{
	struct lesson l;
	struct errbuf err;
	const char text[] = HEAD "page: p\nab\0c\n";
	ck_assert_int_eq(lesson_parse(&l, text, sizeof text - 1, "t.lesson",
				      &err), -1);
	lesson_free(&l);
	ck_assert_str_eq(err.msg, "t.lesson:4:3: expected text, found a NUL "
			 "byte");
}
END_TEST

/* 'image:' stands in for 'sentence:'; 'glimpse:' and 'class:' are kept
 * as written (lesson_image.c reads them). */
START_TEST(test_image_header)
{
	struct lesson l;
	parse_ok(&l, "title: T\nimage: data/x.pgm\nglimpse: glimpse6\n"
		 "class: bar\npage: p\nshow glimpses\nshow image t=2\n");
	ck_assert_str_eq(l.image, "data/x.pgm");
	ck_assert_int_eq(l.image_pos.line, 2);
	ck_assert_int_eq(l.image_pos.col, 8);
	ck_assert_str_eq(l.glimpse, "glimpse6");
	ck_assert_str_eq(l.cls, "bar");
	ck_assert_ptr_null(l.sentence);
	ck_assert_int_eq(l.pages[0].blocks[0].show.what, SHOW_GLIMPSES);
	ck_assert_int_eq(l.pages[0].blocks[1].show.what, SHOW_IMAGE);
	ck_assert_int_eq(l.pages[0].blocks[1].show.t, 2);
	lesson_free(&l);
	parse_err("title: T\nglimpse: glimpse6\npage: p\nx\n",
		  "t.lesson:3:1: expected a 'sentence:' line before the first "
		  "page, found 'page:'");
	parse_err("title: T\nimage: x.pgm\npage: p\nshow glimpse\n",
		  "t.lesson:4:13: expected t=N after 'show glimpse', found "
		  "the end of the line");
}
END_TEST

START_TEST(test_err_unknown_key)
{
	/* all 19 keys of doc/lessons.md's header table, in its order */
	parse_err(HEAD "author: me\npage: p\nx\n", "t.lesson:3:1: expected a "
		  "header key (title, goal, model, sentence, target, scorer, "
		  "scorers, arch, window, window-size, hard, seed, "
		  "input-feeding, gradient-paths, pairs, translates, image, "
		  "glimpse or class) or 'page:', found 'author:'");
}
END_TEST

/* "fold" belongs to a page, once (issue 25: dense pages start folded). */
START_TEST(test_fold_line)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\nfold\nx\npage: q\ny\n");
	ck_assert_int_eq(l.pages[0].fold, 1);
	ck_assert_int_eq(l.pages[1].fold, 0);
	lesson_free(&l);
	parse_err(HEAD "page: p\nfold\nfold\nx\n", "t.lesson:5:1: expected "
		  "one 'fold' line on a page, found another");
	parse_err("title: T\nfold\n", "t.lesson:2:1: expected a header line "
		  "'KEY: value' or 'page:', found a 'fold' line before the "
		  "first page");
}
END_TEST

/* Each header value is kept as written, at its line and column, and a
 * translation's base is DIR/../ORIGINAL, its original's path (issue 30):
 * "zh_CN/t.lesson" translating "r.lesson" resolves files as
 * "zh_CN/../r.lesson" does. */
START_TEST(test_header_raw_and_base)
{
	struct lesson l;
	struct errbuf err;
	const char *text = "title: 甲\ntranslates: r.lesson\nmodel:  toy4 \n"
			   "sentence: je suis\npage: p\nx\n";
	ck_assert_int_eq(lesson_parse(&l, text, strlen(text),
				      "d/zh_CN/t.lesson", &err), 0);
	int model = -1, words = 0;
	for (int k = 0; k < LESSON_NKEYS; k++) {
		if (strcmp(lesson_key_name(k), "model") == 0)
			model = k;
		words += lesson_key_words(k);
	}
	ck_assert_int_ge(model, 0);
	ck_assert_str_eq(l.head[model], "toy4"); /* blanks trimmed */
	ck_assert_int_eq(l.head_pos[model].line, 3);
	ck_assert_int_eq(l.head_pos[model].col, 9);
	ck_assert_int_eq(words, 3); /* title, goal and translates */
	ck_assert_ptr_nonnull(l.base);
	ck_assert_str_eq(l.base, "d/zh_CN/../r.lesson");
	lesson_free(&l);
	parse_ok(&l, HEAD "page: p\nx\n");
	ck_assert_ptr_null(l.base); /* not a translation: its own path */
	lesson_free(&l);
	char *o = lesson_original_path("t.lesson", "r.lesson");
	ck_assert_str_eq(o, "../r.lesson");
	free(o);
}
END_TEST

START_TEST(test_err_duplicate_key)
{
	parse_err("title: A\nsentence: je\n\ntitle: B\npage: p\nx\n",
		  "t.lesson:4:1: expected each header key once, found a "
		  "second 'title:' (the first is on line 1)");
}
END_TEST

START_TEST(test_err_empty_value)
{
	parse_err("title: T\nsentence:   \npage: p\nx\n", "t.lesson:2:13: "
		  "expected a value after 'sentence:', found the end of the "
		  "line");
}
END_TEST

START_TEST(test_err_bad_header_scorer)
{
	char want[256], names[200];
	snprintf(want, sizeof want, "t.lesson:3:9: expected %s, found 'all'",
		 scorer_names(names, sizeof names, ", ", " or "));
	parse_err(HEAD "scorer: all\npage: p\nx\n", want);
}
END_TEST

START_TEST(test_err_text_before_page)
{
	parse_err(HEAD "Hello there.\npage: p\nx\n", "t.lesson:3:1: expected "
		  "a header line 'KEY: value' or 'page:', found text before "
		  "the first page");
	parse_err(HEAD "   indented\npage: p\nx\n", "t.lesson:3:4: expected "
		  "a header line 'KEY: value' or 'page:', found text before "
		  "the first page");
}
END_TEST

START_TEST(test_err_show_before_page)
{
	parse_err(HEAD "show weights t=1\npage: p\nx\n", "t.lesson:3:1: "
		  "expected a header line 'KEY: value' or 'page:', found a "
		  "'show' line before the first page");
}
END_TEST

START_TEST(test_err_key_on_page)
{
	parse_err(HEAD "page: p\nx\ntarget: i am\n", "t.lesson:5:1: expected "
		  "header keys before the first page, found 'target:' on a "
		  "page (start the line with '\\' if it is narrative)");
}
END_TEST

START_TEST(test_err_missing_title)
{
	parse_err("sentence: je\n\npage: p\nx\n", "t.lesson:3:1: expected a "
		  "'title:' line before the first page, found 'page:'");
}
END_TEST

START_TEST(test_err_missing_sentence)
{
	parse_err("title: T\npage: p\nx\n", "t.lesson:2:1: expected a "
		  "'sentence:' line before the first page, found 'page:'");
	parse_err("title: T\n", "t.lesson:2:1: expected a 'sentence:' line "
		  "before the first page, found the end of the file");
}
END_TEST

START_TEST(test_err_no_page)
{
	parse_err(HEAD "# nothing else\n", "t.lesson:4:1: expected at least "
		  "one 'page:' line, found the end of the file");
}
END_TEST

START_TEST(test_err_empty_page)
{
	parse_err(HEAD "page: p\n\n# nothing\npage: q\nx\n", "t.lesson:3:1: "
		  "expected narrative or a 'show' line on the page \"p\", "
		  "found the next 'page:'");
	parse_err(HEAD "page: p\nx\npage: last\n\n", "t.lesson:5:1: expected "
		  "narrative or a 'show' line on the page \"last\", found the "
		  "end of the file");
}
END_TEST

START_TEST(test_err_page_without_title)
{
	parse_err(HEAD "page:  \nx\n", "t.lesson:3:8: expected a page title "
		  "after 'page:', found the end of the line");
}
END_TEST

START_TEST(test_err_too_many_pages)
{
	size_t size = 64 + 16 * (LESSON_MAX_PAGES + 1);
	char *text = malloc(size);
	ck_assert_ptr_nonnull(text);
	strcpy(text, HEAD);
	for (int k = 0; k <= LESSON_MAX_PAGES; k++)
		strcat(text, "page: p\nx\n");
	char want[160];
	snprintf(want, sizeof want, "t.lesson:%d:1: expected at most %d "
		 "pages, found another 'page:'", 3 + 2 * LESSON_MAX_PAGES,
		 LESSON_MAX_PAGES);
	parse_err(text, want);
	free(text);
}
END_TEST

START_TEST(test_err_too_large)
{
	size_t n = LESSON_MAX_BYTES + 1u;
	char *text = malloc(n);
	ck_assert_ptr_nonnull(text);
	memset(text, 'x', n);
	struct lesson l;
	struct errbuf err;
	ck_assert_int_eq(lesson_parse(&l, text, n, "big.lesson", &err), -1);
	lesson_free(&l);
	free(text);
	ck_assert_str_eq(err.msg, "big.lesson: the lesson is larger than "
			 "1048576 bytes");
}
END_TEST

START_TEST(test_err_unknown_directive)
{
	parse_err(HEAD "page: p\nshow frob t=1\n", "t.lesson:4:6: expected "
		  "what to show (embedding, encoder, state, score, scores, "
		  "softmax, weights, weighted, context, concat, output, "
		  "stage=NAME, heatmap, compare, diagram, words, gradpaths, "
		  "accuracy, image, glimpse or glimpses), found 'frob'");
	parse_err(HEAD "page: p\nshow  # nothing\n", "t.lesson:4:7: expected "
		  "what to show (embedding, encoder, state, score, scores, "
		  "softmax, weights, weighted, context, concat, output, "
		  "stage=NAME, heatmap, compare, diagram, words, gradpaths, "
		  "accuracy, image, glimpse or glimpses), found the end of the line");
}
END_TEST

START_TEST(test_err_unknown_stage)
{
	parse_err(HEAD "page: p\nshow stage=frob t=1\n", "t.lesson:4:12: "
		  "expected a stage (encoding, decoder, scoring, softmax, "
		  "weighted-sum, concat or output), found 'frob'");
	parse_err(HEAD "page: p\nshow stage scoring t=1\n", "t.lesson:4:6: "
		  "expected what to show (embedding, encoder, state, score, "
		  "scores, softmax, weights, weighted, context, concat, "
		  "output, stage=NAME, heatmap, compare, diagram, words, gradpaths, "
		  "accuracy, image, glimpse or glimpses), found 'stage'");
}
END_TEST

START_TEST(test_err_unknown_option)
{
	parse_err(HEAD "page: p\nshow softmax t=1 x=2\n", "t.lesson:4:18: "
		  "expected t=N, i=N, scorer=NAME, model=PATH, window=NAME or "
		  "arithmetic, found 'x=2'");
}
END_TEST

/* model=PATH: on heatmap only, once, not empty, and not on a quiz. */
START_TEST(test_err_model_option)
{
	parse_err(HEAD "page: p\nshow weights t=1 model=handset4\n",
		  "t.lesson:4:18: expected t=N or scorer=NAME after 'show "
		  "weights', found 'model=handset4'");
	parse_err(HEAD "page: p\nshow heatmap model=\n", "t.lesson:4:20: "
		  "expected a model (toy4, handset4, bahdanau4, self4, localp4, feed4, hard4, longattn8, longfixed8 or caption4, or "
		  "the path of a model file) after 'model=', found nothing");
	parse_err(HEAD "page: p\nshow heatmap model=a model=b\n",
		  "t.lesson:4:22: expected model=PATH once, found it again: "
		  "'model=b'");
	parse_err(HEAD "page: p\nquiz scoring t=1 i=1 model=a\n",
		  "t.lesson:4:22: expected t=N, i=N, k=N or scorer=NAME, "
		  "found 'model=a'");
}
END_TEST

START_TEST(test_err_option_not_allowed)
{
	parse_err(HEAD "page: p\nshow encoder i=1 t=1\n", "t.lesson:4:18: "
		  "expected i=N or arithmetic after 'show encoder', found "
		  "'t=1'");
	parse_err(HEAD "page: p\nshow compare t=1 scorer=dot\n",
		  "t.lesson:4:18: expected t=N after 'show compare', found "
		  "'scorer=dot'");
	parse_err(HEAD "page: p\nshow stage=encoding t=1\n", "t.lesson:4:21: "
		  "expected arithmetic after 'show stage=encoding', found "
		  "'t=1'");
	parse_err(HEAD "page: p\nshow softmax t=1 arithmetic\n",
		  "t.lesson:4:18: expected t=N or scorer=NAME after 'show "
		  "softmax', found 'arithmetic'");
}
END_TEST

START_TEST(test_err_missing_t)
{
	parse_err(HEAD "page: p\nshow softmax\n", "t.lesson:4:13: expected "
		  "t=N after 'show softmax', found the end of the line");
	parse_err(HEAD "page: p\nshow weights   # t=1\n", "t.lesson:4:13: "
		  "expected t=N after 'show weights', found the end of the "
		  "line");
}
END_TEST

START_TEST(test_err_missing_i)
{
	parse_err(HEAD "page: p\nshow score t=1\n", "t.lesson:4:15: expected "
		  "i=N after 'show score', found the end of the line");
}
END_TEST

START_TEST(test_err_embedding_t_or_i)
{
	parse_err(HEAD "page: p\nshow embedding\n", "t.lesson:4:15: expected "
		  "i=N (a source word) or t=N (the decoder's input) after "
		  "'show embedding', found the end of the line");
	parse_err(HEAD "page: p\nshow embedding i=1 t=2\n", "t.lesson:4:20: "
		  "expected i=N or t=N after 'show embedding', found both");
}
END_TEST

START_TEST(test_err_bad_number)
{
	parse_err(HEAD "page: p\nshow softmax t=one\n", "t.lesson:4:16: "
		  "expected a whole number after 't=', found 'one'");
	parse_err(HEAD "page: p\nshow softmax t=2x\n", "t.lesson:4:16: "
		  "expected a whole number after 't=', found '2x'");
	parse_err(HEAD "page: p\nshow score t=1 i=\n", "t.lesson:4:18: "
		  "expected a whole number after 'i=', found nothing");
	parse_err(HEAD "page: p\nshow softmax t=-1\n", "t.lesson:4:16: "
		  "expected a whole number after 't=', found '-1'");
}
END_TEST

START_TEST(test_err_t_zero)
{
	parse_err(HEAD "page: p\nshow softmax t=0\n", "t.lesson:4:14: "
		  "expected t= from 1 to 100 (steps count from 1), found "
		  "'t=0'");
	parse_err(HEAD "page: p\nshow score t=1 i=0\n", "t.lesson:4:16: "
		  "expected i= from 1 to 64 (source words count from 1), found "
		  "'i=0'");
}
END_TEST

START_TEST(test_err_number_too_large)
{
	parse_err(HEAD "page: p\nshow softmax t=101\n", "t.lesson:4:14: "
		  "expected t= from 1 to 100 (steps count from 1), found "
		  "'t=101'");
	parse_err(HEAD "page: p\nshow softmax t=99999999999999999999\n",
		  "t.lesson:4:14: expected t= from 1 to 100 (steps count "
		  "from 1), found 't=99999999999999999999'");
}
END_TEST

START_TEST(test_err_duplicate_option)
{
	parse_err(HEAD "page: p\nshow softmax t=1 t=2\n", "t.lesson:4:18: "
		  "expected t=N once, found it again: 't=2'");
	parse_err(HEAD "page: p\nshow scores t=1 arithmetic arithmetic\n",
		  "t.lesson:4:28: expected arithmetic once, found it again: "
		  "'arithmetic'");
}
END_TEST

START_TEST(test_err_unknown_scorer)
{
	char want[512], names[200];
	scorer_names(names, sizeof names, ", ", " or ");
	snprintf(want, sizeof want, "t.lesson:4:25: expected %s after "
		 "'scorer=', found 'no-such-scorer'", names);
	parse_err(HEAD "page: p\nshow softmax t=1 scorer=no-such-scorer\n", want);
	snprintf(want, sizeof want, "t.lesson:4:25: expected %s after "
		 "'scorer=', found 'all'", names);
	parse_err(HEAD "page: p\nshow softmax t=1 scorer=all\n", want);
}
END_TEST

START_TEST(test_err_long_word_is_cut)
{
	parse_err(HEAD "page: p\nshow abcdefghijabcdefghijabcdefghijabcdefghij"
		  "abcdefghij\n", "t.lesson:4:6: expected what to show "
		  "(embedding, encoder, state, score, scores, softmax, "
		  "weights, weighted, context, concat, output, stage=NAME, "
		  "heatmap, compare, diagram, words, gradpaths, accuracy, image, "
		  "glimpse or glimpses), "
		  "found 'abcdefghijabcdefghijabcdefghijabcdefghij...'");
}
END_TEST

/* --- lesson_prepare: the directives against the trace ---------------- */

/* "scorers:" chooses the runs of the lesson's trace; a directive may
 * show only those. */
START_TEST(test_prepare_scorers)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	parse_ok(&l, HEAD "scorers: location,dot\npage: p\n"
		 "show scores t=1 scorer=location\n");
	ck_assert_uint_eq(l.scorers, 1u << SCORER_dot | 1u << SCORER_location);
	if (lesson_prepare(&l, &m, &tr, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	ck_assert_int_eq(tr.nruns, 2);
	ck_assert_int_eq(tr.runs[0].scorer, SCORER_dot);
	ck_assert_int_eq(tr.runs[1].scorer, SCORER_location);
	ck_assert_int_eq(lesson_show_run(&l, &l.pages[0].blocks[0].show, &tr),
			 1);
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
	char want[320], names[200];
	snprintf(want, sizeof want, "t.lesson:3:10: expected all, or scorers "
		 "separated by commas (%s), found 'dot, general'",
		 scorer_names(names, sizeof names, ", ", ", "));
	parse_err(HEAD "scorers: dot, general\npage: p\nx\n", want);
	prepare_err(HEAD "scorers: dot,general\npage: p\n"
		    "show scores t=1 scorer=concat\n", "t.lesson:5:1: expected "
		    "a scorer of the lesson's trace, found concat, which the "
		    "lesson's scorers: leave out");
	prepare_err(HEAD "model: handset4\npage: p\n"
		    "show scores t=1 scorer=location\n", "t.lesson:5:1: "
		    "expected a scorer of the lesson's trace, found location, "
		    "which its model has no weights for");
}
END_TEST

START_TEST(test_prepare_ok)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	parse_ok(&l, HEAD "target: i am a student\npage: p\n"
		 "show softmax t=5\nshow score t=1 i=3\nshow compare t=5\n");
	if (lesson_prepare(&l, &m, &tr, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	/* every scorer toy4 has the weights of, in registry order */
	int k = 0;
	for (int sc = 0; sc < SCORER_COUNT; sc++) {
		if (!(model_scorers(&m) & (1u << sc)))
			continue;
		ck_assert_int_lt(k, tr.nruns);
		ck_assert_int_eq(tr.runs[k].scorer, sc);
		/* four target words and </s> */
		ck_assert_int_eq(tr.runs[k++].nsteps, 5);
	}
	ck_assert_int_eq(tr.nruns, k);
	ck_assert_int_ge(k, 5);
	ck_assert_int_eq(tr.n, 3);
	ck_assert_int_eq(tr.ntgt, 4);
	ck_assert_str_eq(m.src.words[tr.src[2]], "étudiant");
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
}
END_TEST

START_TEST(test_prepare_step_past_end)
{
	prepare_err(HEAD "target: i am a student\npage: p\nx\n"
		    "show weights t=6 scorer=concat\n", "t.lesson:6:14: "
		    "expected t= from 1 to 5 (the concat scorer decodes \"je "
		    "suis étudiant\" in 5 steps), found 't=6'");
	/* greedy: i am a student </s> is five steps */
	prepare_err(HEAD "page: p\nshow softmax t=9\n", "t.lesson:4:14: "
		    "expected t= from 1 to 5 (the dot scorer decodes \"je suis "
		    "étudiant\" in 5 steps), found 't=9'");
}
END_TEST

START_TEST(test_prepare_word_past_end)
{
	prepare_err(HEAD "page: p\n\nshow score t=1 i=4\n", "t.lesson:5:16: "
		    "expected i= from 1 to 3 (\"je suis étudiant\" has 3 "
		    "words), found 'i=4'");
	prepare_err(HEAD "page: p\nshow encoder i=4\n", "t.lesson:4:14: "
		    "expected i= from 1 to 3 (\"je suis étudiant\" has 3 "
		    "words), found 'i=4'");
}
END_TEST

START_TEST(test_prepare_unknown_source_word)
{
	/* the closest words are those of the hand-set vocabulary */
	prepare_err("title: T\nmodel: handset4\nsentence:  je  chat suis\n"
		    "page: p\nx\n",
		    "t.lesson:3:16: unknown source word \"chat\"; the closest "
		    "source words are \"je\", \"suis\", \"zone\", \"étudiant\" "
		    "or \"économique\"; 'attn-trace vocab' lists them all");
}
END_TEST

START_TEST(test_prepare_unknown_target_word)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	parse_ok(&l, HEAD "target: i am a teacher\npage: p\nx\n");
	ck_assert_int_eq(lesson_prepare(&l, &m, &tr, &err), -1);
	lesson_free(&l);
	const char *want = "t.lesson:3:16: unknown target word \"teacher\"";
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0,
		      "got: %s", err.msg);
}
END_TEST

START_TEST(test_prepare_marker_in_target)
{
	prepare_err(HEAD "target: i am </s>\npage: p\nx\n", "t.lesson:3:14: "
		    "expected a target sentence without <s> or </s> (the "
		    "decoder adds them), found \"</s>\"");
}
END_TEST

START_TEST(test_prepare_missing_model)
{
	prepare_err(HEAD "model: /nonexistent/x.model\npage: p\nx\n",
		    "t.lesson:3:8: cannot load the model: /nonexistent/x.model: "
		    "No such file or directory");
}
END_TEST

/* Writes text to dir/name; returns the path (static). */
static const char *write_file(const char *dir, const char *name,
			      const char *text)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* Copies $srcdir/tests/data/tiny.model into dir. */
static void copy_tiny_model(const char *dir)
{
	const char *src = getenv("srcdir");
	char path[4096];
	size_t len;
	struct errbuf err;
	snprintf(path, sizeof path, "%s/tests/data/tiny.model",
		 src ? src : ".");
	char *text = util_read_file(path, 1u << 20, &len, &err);
	ck_assert_msg(text != NULL, "%s", err.msg);
	write_file(dir, "tiny.model", text);
	free(text);
}

START_TEST(test_prepare_model_beside_lesson)
{
	char dir[] = "/tmp/check_lesson.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	copy_tiny_model(dir);
	char *path = strdup(write_file(dir, "own.lesson", "title: T\n"
				       "model: tiny.model\nsentence: un deux\n"
				       "page: p\nshow heatmap\n"));
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	if (lesson_load(&l, path, &err) != 0 ||
	    lesson_prepare(&l, &m, &tr, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	char want[4200];
	snprintf(want, sizeof want, "%s/tiny.model", dir);
	ck_assert_str_eq(m.name, want);
	ck_assert_int_eq(tr.n, 2);
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
	unlink(path);
	unlink(want);
	rmdir(dir);
	free(path);
}
END_TEST

/* show heatmap model=PATH: another model, found beside the lesson, traces
 * the same sentence; a model that cannot load or cannot read the sentence
 * is reported where model= names it. */
START_TEST(test_prepare_show_model)
{
	char dir[] = "/tmp/check_lesson.XXXXXX";
	const char *src = getenv("srcdir");
	char path[4096], sub[4200], want[4300];
	size_t len;
	struct errbuf err;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/data/handset4.model", src ? src : ".");
	char *text = util_read_file(path, 1u << 20, &len, &err);
	ck_assert_msg(text != NULL, "%s", err.msg);
	snprintf(sub, sizeof sub, "%s/models", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	write_file(sub, "h.model", text);
	free(text);
	char *lpath = strdup(write_file(dir, "own.lesson", HEAD "target: i am "
					"a student\npage: p\nshow heatmap "
					"model=models/h.model\nshow softmax "
					"t=5\n"));
	struct lesson l;
	struct model m;
	struct trace tr;
	if (lesson_load(&l, lpath, &err) != 0 ||
	    lesson_prepare(&l, &m, &tr, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	ck_assert_int_eq(l.nalts, 1);
	ck_assert(l.alts[0].ready);
	snprintf(want, sizeof want, "%s/models/h.model", dir);
	ck_assert_str_eq(l.alts[0].m.name, want);
	ck_assert_str_eq(m.name, "<built-in toy4.model>");
	/* every scorer that model has the weights of, teacher-forced */
	ck_assert_int_eq(l.alts[0].tr.nruns,
			 __builtin_popcount(model_scorers(&l.alts[0].m)));
	ck_assert_int_eq(l.alts[0].tr.runs[SCORER_concat].nsteps, 5);
	ck_assert_ptr_eq(lesson_show_trace(&l, &l.pages[0].blocks[0].show,
					   &tr), &l.alts[0].tr);
	ck_assert_ptr_eq(lesson_show_trace(&l, &l.pages[0].blocks[1].show,
					   &tr), &tr);
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
	unlink(lpath);
	free(lpath);
	unlink(want);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

START_TEST(test_prepare_show_model_errors)
{
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	prepare_err(HEAD "page: p\nshow heatmap model=/nonexistent/x.model\n",
		    "t.lesson:4:20: cannot load the model: /nonexistent/x.model: "
		    "No such file or directory");
	/* the hand-set model knows neither the noun nor the adjective */
	prepare_err("title: T\nsentence: politique sociale européenne\n"
		    "page: p\nshow heatmap\n\nshow heatmap model=handset4\n",
		    "t.lesson:6:20: the model handset4 cannot trace the "
		    "lesson's sentence: unknown source words \"politique\" "
		    "(closest \"économique\") and \"sociale\" (closest "
		    "\"suis\"); 'attn-trace vocab' lists the words the model "
		    "knows");
	/* a later error unloads the models already loaded */
	parse_ok(&l, HEAD "page: p\nshow heatmap model=handset4\n"
		 "show softmax t=9\n");
	ck_assert_int_eq(lesson_prepare(&l, &m, &tr, &err), -1);
	ck_assert_int_eq(l.alts[0].ready, 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "found 't=9'"));
	lesson_free(&l);
}
END_TEST

START_TEST(test_load_missing_file)
{
	struct lesson l;
	struct errbuf err;
	ck_assert_int_eq(lesson_load(&l, "/nonexistent/a.lesson", &err), -1);
	lesson_free(&l);
	ck_assert_str_eq(err.msg, "/nonexistent/a.lesson: No such file or "
			 "directory");
}
END_TEST

/* --- finding lessons ------------------------------------------------- */

static char find_dir[64];

static void find_setup(void)
{
	strcpy(find_dir, "/tmp/check_lesson.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(find_dir));
	const char *l = HEAD "page: p\nx\n";
	write_file(find_dir, "02-beta.lesson", l);
	write_file(find_dir, "01-alpha.lesson", l);
	write_file(find_dir, "10-gamma.lesson", l);
	write_file(find_dir, "notes.txt", "not a lesson\n");
	write_file(find_dir, ".hidden.lesson", l);
	setenv("ATTN_TRACE_LESSONS", find_dir, 1);
}

static void find_teardown(void)
{
	static const char *const names[] = {
		"02-beta.lesson", "01-alpha.lesson", "10-gamma.lesson",
		"notes.txt", ".hidden.lesson"
	};
	char path[128];
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", find_dir, names[k]);
		unlink(path);
	}
	rmdir(find_dir);
	teardown();
}

/* lesson_find(name) must give find_dir/file. */
static void find_is(const char *name, const char *file)
{
	struct errbuf err;
	char want[128];
	char *got = lesson_find(name, &err);
	ck_assert_msg(got != NULL, "lesson_find(%s): %s", name, err.msg);
	snprintf(want, sizeof want, "%s/%s", find_dir, file);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_dir_from_environment)
{
	ck_assert_str_eq(lesson_dir(), find_dir);
	unsetenv("ATTN_TRACE_LESSONS");
	ck_assert_str_eq(lesson_dir(), lesson_installed_dir());
	setenv("ATTN_TRACE_LESSONS", "", 1);
	ck_assert_str_eq(lesson_dir(), lesson_installed_dir());
}
END_TEST

START_TEST(test_find_by_number)
{
	find_is("2", "02-beta.lesson");
	find_is("02", "02-beta.lesson");
	find_is("1", "01-alpha.lesson");
	find_is("10", "10-gamma.lesson");
}
END_TEST

START_TEST(test_find_by_name)
{
	find_is("beta", "02-beta.lesson");
	find_is("gamma", "10-gamma.lesson");
	find_is("02-beta", "02-beta.lesson");
}
END_TEST

START_TEST(test_find_by_path)
{
	struct errbuf err;
	char *p = lesson_find("sub/x", &err);
	ck_assert_str_eq(p, "sub/x");
	free(p);
	p = lesson_find("own.lesson", &err);
	ck_assert_str_eq(p, "own.lesson");
	free(p);
}
END_TEST

START_TEST(test_find_missing)
{
	struct errbuf err;
	char want[512];
	ck_assert_ptr_null(lesson_find("7", &err));
	snprintf(want, sizeof want, "no lesson number \"7\" in %s "
		 "('attn-trace lessons' lists them; ATTN_TRACE_LESSONS names "
		 "another directory)", find_dir);
	ck_assert_str_eq(err.msg, want);
	ck_assert_ptr_null(lesson_find("delta", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "no lesson named \"delta\""));
	ck_assert_ptr_null(lesson_find("alph", &err));
}
END_TEST

START_TEST(test_list_sorted)
{
	char **paths;
	struct errbuf err;
	char want[128];
	static const char *const order[] = {
		"01-alpha.lesson", "02-beta.lesson", "10-gamma.lesson"
	};
	int n = lesson_list(&paths, &err);
	ck_assert_int_eq(n, 3);
	for (int k = 0; k < n; k++) {
		snprintf(want, sizeof want, "%s/%s", find_dir, order[k]);
		ck_assert_str_eq(paths[k], want);
		free(paths[k]);
	}
	free(paths);
}
END_TEST

START_TEST(test_list_missing_dir)
{
	char **paths;
	struct errbuf err;
	setenv("ATTN_TRACE_LESSONS", "/nonexistent/lessons", 1);
	ck_assert_int_eq(lesson_list(&paths, &err), -1);
	ck_assert_str_eq(err.msg, "cannot open the lesson directory "
			 "/nonexistent/lessons: No such file or directory (set "
			 "ATTN_TRACE_LESSONS to the directory that holds the "
			 "*.lesson files)");
	ck_assert_ptr_null(lesson_find("3", &err));
}
END_TEST

/* --- numbers in the narrative (lesson_check_numbers) ------------------ */

#define HEAD_H4 "title: T\nmodel: handset4\nsentence: je suis étudiant\n"

/* The numbers with a decimal point are recorded where they are written;
 * integers, names and numbers after a backslash are not, and the
 * backslash is dropped from the text. */
START_TEST(test_numbers_recorded)
{
	struct lesson l;
	parse_ok(&l, HEAD "page: p\n"
		 "Step 2 of 4: h_1 is 0.9866, exp(-0.9765) too; \\2.66 and\n"
		 "x2.5 h_1.5 1.2.3 (a)-0.5 e^0.98.\n"
		 "    verbatim 2.6973 \\0.1\n"
		 "show encoder i=1\n");
	const struct lesson_page *pg = &l.pages[0];
	static const struct {
		int line, col, decimals;
		const char *text;
	} want[] = {
		{ 4, 21, 4, "0.9866" }, { 4, 33, 4, "-0.9765" },
		{ 5, 22, 1, "0.5" }, { 5, 28, 2, "0.98" },
		{ 6, 14, 4, "2.6973" },
	};
	ck_assert_int_eq(pg->nnums, 5);
	for (int k = 0; k < 5; k++) {
		ck_assert_int_eq(pg->nums[k].line, want[k].line);
		ck_assert_int_eq(pg->nums[k].col, want[k].col);
		ck_assert_int_eq(pg->nums[k].decimals, want[k].decimals);
		ck_assert_str_eq(pg->nums[k].text, want[k].text);
	}
	ck_assert_double_eq(pg->nums[1].value, -0.9765);
	ck_assert_str_eq(pg->blocks[0].text, "Step 2 of 4: h_1 is 0.9866, "
			 "exp(-0.9765) too; 2.66 and x2.5 h_1.5 1.2.3 (a)-0.5 "
			 "e^0.98.");
	ck_assert_str_eq(pg->blocks[1].text, "    verbatim 2.6973 0.1");
	lesson_free(&l);
}
END_TEST

struct reports {
	int n;
	char msg[4][1024];
};

static void collect(void *ctx, const char *msg)
{
	struct reports *r = ctx;
	if (r->n < 4)
		snprintf(r->msg[r->n], sizeof r->msg[0], "%s", msg);
	r->n++;
}

/* The check of text (on handset4, whose numbers are worked out by hand:
 * h_1 = tanh(2.5 x_1) = [tanh 2.5, 0, 0, tanh 0.2] = [0.98661, 0, 0,
 * 0.19738], and slot 2 of h_2's sum is 2.5 + 0.2 × 0.98661 = 2.69732):
 * returns how many numbers failed, the messages in *r. */
static int check_text(const char *text, struct reports *r)
{
	struct errbuf err;
	struct lesson l;
	struct model m;
	struct trace t;
	memset(r, 0, sizeof *r);
	parse_ok(&l, text);
	if (lesson_prepare(&l, &m, &t, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	int bad = lesson_check_numbers(&l, &t, collect, r);
	ck_assert_int_eq(bad, r->n);
	trace_free(&t);
	model_free(&m);
	lesson_free(&l);
	return bad;
}

/* Every decimal typed in the prose is reported, right or wrong, and
 * the message proposes the reference; a number marked with a backslash is
 * not reported. */
START_TEST(test_numbers_typed)
{
	struct reports r;
	ck_assert_int_eq(check_text(HEAD_H4 "page: p\n"
		"h_1 holds 0.9866 in slot 1, about 0.99; e^2.5 is \\12.18.\n"
		"\n    0.1974\n"
		"show encoder i=1\n", &r), 4);
	/* tanh 2.5 = 0.98661 is h_1[1]; at 2 decimals it is {h_1[1]:2} */
	ck_assert_str_eq(r.msg[0], "t.lesson:5:11: expected a reference to "
			 "a value of the trace, such as {h_1[1]} (0.9866), or "
			 "\\0.9866 for a number that is not the trace's, "
			 "found '0.9866'");
	ck_assert_ptr_nonnull(strstr(r.msg[1], "t.lesson:5:35: expected a "
				     "reference to a value of the trace, such "
				     "as {h_1[1]:2} (0.9866)"));
	ck_assert_ptr_nonnull(strstr(r.msg[2], ":5:43: "));  /* e^2.5 */
	ck_assert_ptr_nonnull(strstr(r.msg[3], "t.lesson:7:5: expected a "
				     "reference to a value of the trace, such "
				     "as {h_1[4]} (0.1974)"));
	/* references and marked numbers pass */
	ck_assert_int_eq(check_text(HEAD_H4 "page: p\n"
		"{h_1[1]} and \\0.5 and {e_1,1:2}\n", &r), 0);
}
END_TEST

START_TEST(test_numbers_wrong)
{
	struct reports r;
	/* a drifted number gets the nearest value's reference */
	ck_assert_int_eq(check_text(HEAD_H4 "page: p\nshow encoder i=1\n"
		"page: q\n"
		"h_1 holds 0.9867 in slot 1,\n"
		"    and 0.1975\n", &r), 2);
	ck_assert_str_eq(r.msg[0], "t.lesson:7:11: expected a reference to "
			 "a value of the trace, such as {h_1[1]} (0.9866), or "
			 "\\0.9867 for a number that is not the trace's, "
			 "found '0.9867'");
	ck_assert_ptr_nonnull(strstr(r.msg[1], "t.lesson:8:9: expected a "
				     "reference to a value of the trace, such "
				     "as {h_1[4]} (0.1974)"));
	/* a number of another scorer's run is named with its scorer */
	ck_assert_int_eq(check_text(HEAD_H4 "page: p\nabout 2.4413\n", &r),
			 1);
	ck_assert_ptr_nonnull(strstr(r.msg[0], "{e_1,1 scorer=general}"));
}
END_TEST

/* A number of a model= model's trace is proposed with its model=. */
START_TEST(test_numbers_other_model)
{
	struct errbuf err;
	struct model toy;
	struct trace t;
	int src[3], shown = 0;
	ck_assert_int_eq(model_load_named(&toy, "toy4", &err), 0);
	src[0] = vocab_find(&toy.src, "je");
	src[1] = vocab_find(&toy.src, "suis");
	src[2] = vocab_find(&toy.src, "étudiant");
	ck_assert_int_eq(trace_build(&t, &toy, src, 3, NULL, 0,
				     1u << SCORER_dot, NULL, &err), 0);
	/* a weight of toy4's first step that handset4's trace lacks */
	const struct trace_rec *a = trace_find(&t, REC_SOFTMAX, 0, 1, 0);
	for (int i = 0; i < a->len && !shown; i++) {
		char num[NUM_BUFSZ], text[512], want[64];
		struct reports r;
		num_fixed(num, a->result[i], 4);
		snprintf(text, sizeof text, HEAD_H4 "page: q\nso %s\n"
			 "show heatmap model=toy4\n", num);
		check_text(text, &r);
		snprintf(want, sizeof want, "{α_1,%d model=toy4}", i + 1);
		if (strstr(r.msg[0], "model=toy4"))
			shown = strstr(r.msg[0], want) != NULL;
	}
	ck_assert_int_eq(shown, 1);
	trace_free(&t);
	model_free(&toy);
}
END_TEST

/* --- references and claims (lesson_ref.c) ----------------------------- */

START_TEST(test_ref_parse)
{
	struct lesson_ref r;
	size_t mo, ml, bad;
	char why[256];
	const char *t = "sum[2] of h_2:2 scorer=general model=x.model";
	ck_assert_int_eq(lesson_ref_parse(&r, t, strlen(t), &mo, &ml, why,
					  sizeof why, &bad), 0);
	ck_assert_str_eq(r.op, "sum");
	ck_assert_str_eq(r.idx[0], "2");
	ck_assert_str_eq(r.sym, "h_2");
	ck_assert_int_eq(r.decimals, 2);
	ck_assert_int_eq(r.scorer, SCORER_general);
	ck_assert_int_eq((int)ml, 7);
	ck_assert_int_eq(memcmp(t + mo, "x.model", 7), 0);
	t = "W_c·[c_1; s_1][3] of h̃_1";
	ck_assert_int_eq(lesson_ref_parse(&r, t, strlen(t), &mo, &ml, why,
					  sizeof why, &bad), 0);
	ck_assert_str_eq(r.op, "W_c·[c_1; s_1]");
	ck_assert_str_eq(r.idx[0], "3");
	t = "encoder.W_x[4][1]";
	ck_assert_int_eq(lesson_ref_parse(&r, t, strlen(t), &mo, &ml, why,
					  sizeof why, &bad), 0);
	ck_assert_str_eq(r.sym, "encoder.W_x");
	ck_assert_str_eq(r.idx[0], "4");
	ck_assert_str_eq(r.idx[1], "1");
	t = "α_1 scorer=no-such-scorer";
	ck_assert_int_eq(lesson_ref_parse(&r, t, strlen(t), &mo, &ml, why,
					  sizeof why, &bad), -1);
	ck_assert_int_eq((int)bad, 5);
	ck_assert_int_eq(lesson_ref_parse(&r, " ", 1, &mo, &ml, why,
					  sizeof why, &bad), -1);
}
END_TEST

/* The value of the one reference on a page of a handset4 lesson. */
static double ref_value(const char *ref, int scorer)
{
	char text[512];
	struct errbuf err;
	struct lesson l;
	struct model m;
	struct trace t;
	double v = -999;
	char why[512];
	snprintf(text, sizeof text, HEAD_H4 "page: p\n{%s}\n", ref);
	parse_ok(&l, text);
	if (lesson_prepare(&l, &m, &t, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	ck_assert_int_eq(l.pages[0].nrefs, 1);
	int run = scorer < 0 ? -1 : trace_run_of(&t, scorer);
	if (lesson_ref_value(&l, &l.pages[0].refs[0], &t, run, &v, why,
			     sizeof why) != 0)
		ck_abort_msg("%s: %s", ref, why);
	trace_free(&t);
	model_free(&m);
	lesson_free(&l);
	return v;
}

/* References resolve to the values worked out here from handset4's
 * weights (doc/model.md), independently of the trace. */
START_TEST(test_ref_values)
{
	double h1[4] = { tanh(2.5), 0, 0, tanh(0.2) };
	double h2_2 = tanh(2.5 + 0.2 * h1[0]);
	double h2_4 = tanh(0.2 + 0.3 * h1[3]);
	double h3_3 = tanh(2.5 + 0.2 * h2_2), h3_4 = tanh(0.2 + 0.3 * h2_4);
	double s1 = tanh(2.5 + 0.5 * h3_4);   /* s_0 = h_3, y_0 = <s> */
	double e11 = s1 * h1[0];              /* dot: only slot 1 */
	double a11 = 1 / (1 + 2 * exp(-e11)); /* e_1,2 = e_1,3 = 0 */
	double g1 = s1 * 2.5 * h1[0], g2 = s1 * 0.5 * h2_2; /* general */
	double ga11 = exp(g1) / (exp(g1) + exp(g2) + 1);
	const double tol = 1e-12;
	ck_assert_double_eq_tol(ref_value("h_1[1]", -1), h1[0], tol);
	ck_assert_double_eq_tol(ref_value("h_1,4", -1), h1[3], tol);
	ck_assert_double_eq_tol(ref_value("h_3[3]", -1), h3_3, tol);
	ck_assert_double_eq_tol(ref_value("sum[2] of h_2", -1),
				2.5 + 0.2 * h1[0], tol);
	ck_assert_double_eq_tol(ref_value("s_1[1]", -1), s1, tol);
	ck_assert_double_eq_tol(ref_value("e_1,1", -1), e11, tol);
	ck_assert_double_eq_tol(ref_value("α_1,1", -1), a11, tol);
	ck_assert_double_eq_tol(ref_value("α_1[je]", -1), a11, tol);
	ck_assert_double_eq_tol(ref_value("sum of α_1", -1),
				1 + 2 * exp(-e11), tol);
	ck_assert_double_eq_tol(ref_value("e_1,2 scorer=general", -1), g2,
				tol);
	ck_assert_double_eq_tol(ref_value("α_1,1 scorer=general", -1), ga11,
				tol);
	/* without scorer=, the run shown: the stepper's scorer key */
	ck_assert_double_eq_tol(ref_value("α_1,1", SCORER_general), ga11, tol);
	ck_assert_double_eq_tol(ref_value("α_1,1 scorer=dot",
					  SCORER_general), a11, tol);
	ck_assert_double_eq_tol(ref_value("encoder.W_x[4][1]", -1), 0.2, 1e-15);
	ck_assert_double_eq_tol(ref_value("general.W[1][2]", -1), 0.5, 1e-15);
}
END_TEST

/* prepare's error for the reference text on a handset4 page */
static void ref_bad(const char *line, const char *want)
{
	char text[512];
	struct errbuf err;
	struct lesson l;
	struct model m;
	struct trace t;
	snprintf(text, sizeof text, HEAD_H4 "scorers: dot,general\npage: p\n"
		 "x\n%s\n", line);
	parse_ok(&l, text);
	ck_assert_int_eq(lesson_prepare(&l, &m, &t, &err), -1);
	if (!strstr(err.msg, want))
		ck_abort_msg("%s: got %s, want %s", line, err.msg, want);
	lesson_free(&l);
}

START_TEST(test_ref_errors)
{
	ref_bad("so {α_9,1}", "t.lesson:7:4: expected a value of the trace, "
		"found '{α_9,1}' (the dot scorer's run has α_1 to α_5)");
	ref_bad("so {h_4[1]}", "t.lesson:7:4: expected a value of the trace, "
		"found '{h_4[1]}' (the dot scorer's run has h_1 to h_3)");
	ref_bad("so {α_1,4}", "expected an entry of α_1 from 1 to 3, found "
		"'[4]' in '{α_1,4}'");
	ref_bad("so {α_1[chat]}", "found '[chat]' in '{α_1[chat]}'");
	ref_bad("so {α_1,1 scorer=concat}", "t.lesson:7:4: expected a scorer "
		"of the lesson's trace, found concat");
	ref_bad("so {q_1}", "expected a value of the trace (a symbol the "
		"trace prints");
	ref_bad("so {bogus of α_1}", "expected an operand of α_1 (");
	ref_bad("so {α_1}", "expected one entry of α_1, which has 3");
	ref_bad("claim argmax(α_9) = je", "t.lesson:7:7: expected a value");
}
END_TEST

START_TEST(test_ref_parse_errors)
{
	struct errbuf err;
	struct lesson l;
	ck_assert_int_eq(lesson_parse(&l, HEAD "page: p\nso {α_1,1\n",
				      strlen(HEAD) + 20, "t.lesson", &err), -1);
	ck_assert_str_eq(err.msg, "t.lesson:4:4: expected '}' closing the "
			 "reference (write '\\{' for a brace), found the end "
			 "of the line");
	lesson_free(&l);
	const char *c = HEAD "page: p\nclaim α_1,1 0.5\n";
	ck_assert_int_eq(lesson_parse(&l, c, strlen(c), "t.lesson", &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.lesson:4:7: expected a claim "
				     "'A OP B'"));
	lesson_free(&l);
}
END_TEST

/* Claims: true ones pass; a false one is reported; one that names no
 * scorer must hold in every run. */
START_TEST(test_claims)
{
	static const struct { const char *claim; int bad; } cases[] = {
		{ "claim argmax(α_1) = je", 0 },
		{ "claim argmax(α_1) = 1", 0 },
		{ "claim argmax(α_1) = suis", 1 },
		{ "claim α_1,1 > α_1,2", 0 },
		{ "claim α_1,1 < α_1,2", 1 },
		{ "claim sum(α_1) = 1", 0 },
		{ "claim max(e_1) < 1", 1 },          /* general's is 2.44 */
		{ "claim max(e_1 scorer=dot) < 1", 0 },
		{ "claim α_1,1 scorer=general > α_1,1 scorer=dot", 0 },
		{ "claim e_1,1 = 0.9765", 1 },        /* not in general's run */
		{ "claim e_1,1 scorer=dot = 0.9765", 0 },
		{ "claim e_1,1 scorer=dot != 0.9765", 1 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char text[512];
		struct errbuf err;
		struct lesson l;
		struct model m;
		struct trace t;
		struct reports r;
		memset(&r, 0, sizeof r);
		snprintf(text, sizeof text, HEAD_H4 "scorers: dot,general\n"
			 "page: p\nx\n%s\n", cases[k].claim);
		parse_ok(&l, text);
		if (lesson_prepare(&l, &m, &t, &err) != 0)
			ck_abort_msg("%s: %s", cases[k].claim, err.msg);
		int bad = lesson_check_claims(&l, &t, collect, &r);
		if (bad != cases[k].bad)
			ck_abort_msg("%s: %d false, want %d (%s)",
				     cases[k].claim, bad, cases[k].bad,
				     r.msg[0]);
		if (bad)
			ck_assert_ptr_nonnull(strstr(r.msg[0], "t.lesson:7:7: "
						     "expected a claim that "
						     "holds"));
		trace_free(&t);
		model_free(&m);
		lesson_free(&l);
	}
}
END_TEST

/* The page fills its references, for the run it is shown with. */
START_TEST(test_ref_render)
{
	struct errbuf err;
	struct lesson l;
	struct model m;
	struct trace t;
	struct fmt_opts o;
	char *text = NULL;
	size_t len = 0;
	parse_ok(&l, HEAD_H4 "page: p\nje gets {α_1,1}, {α_1,1:2} and\n"
		 "{α_1,1 scorer=dot} of y_{t-1}.\n    {e_1,2}|\n");
	ck_assert_int_eq(lesson_prepare(&l, &m, &t, &err), 0);
	fmt_opts_default(&o);
	FILE *f = open_memstream(&text, &len);
	l.scorer = SCORER_general; /* as the stepper's scorer key does */
	lesson_page_text(f, &l, 0, &t, &o, 76);
	fclose(f);
	ck_assert_str_eq(text, "p\n-\n\nje gets 0.8135, 0.81 and 0.5704 of "
			 "y_{t-1}.\n\n    0.4904|\n");
	free(text);
	trace_free(&t);
	model_free(&m);
	lesson_free(&l);
}
END_TEST

/* A pinned page keeps the lesson's scorer when another is shown, and
 * says why; its claims are evaluated in the lesson's run alone. */
START_TEST(test_pin)
{
	struct errbuf err;
	struct lesson l;
	struct model m;
	struct trace t;
	struct fmt_opts o;
	struct reports r;
	char *text = NULL;
	size_t len = 0;
	parse_ok(&l, HEAD_H4 "scorers: dot,general\npage: p\n"
		 "pin the dot product\nthe score is {e_1,1}.\n"
		 "claim max(e_1) < 1\nshow score t=1 i=1\n");
	ck_assert_str_eq(l.pages[0].pin, "the dot product");
	ck_assert_int_eq(lesson_prepare(&l, &m, &t, &err), 0);
	ck_assert_int_eq(lesson_check_claims(&l, &t, collect, &r), 0);
	fmt_opts_default(&o);
	FILE *f = open_memstream(&text, &len);
	l.scorer = SCORER_general; /* the scorer key */
	lesson_page_text(f, &l, 0, &t, &o, 76);
	fclose(f);
	ck_assert_str_eq(text, "p\n-\nOn this page: the score e_1,1.\n\n"
			 "(This page stays with the dot scorer: "
			 "the dot product)\n\nthe score is 0.9765.\n\n"
			 "e_1,1 = s_1·h_1 = 0.9765\n");
	free(text);
	trace_free(&t);
	model_free(&m);
	lesson_free(&l);
	/* without pin, the same claim must hold in general's run too */
	parse_ok(&l, HEAD_H4 "scorers: dot,general\npage: p\nx\n"
		 "claim max(e_1) < 1\n");
	ck_assert_int_eq(lesson_prepare(&l, &m, &t, &err), 0);
	memset(&r, 0, sizeof r);
	ck_assert_int_eq(lesson_check_claims(&l, &t, collect, &r), 1);
	trace_free(&t);
	model_free(&m);
	lesson_free(&l);
	const char *bad = HEAD "page: p\nx\npin\n";
	ck_assert_int_eq(lesson_parse(&l, bad, strlen(bad), "t.lesson", &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.lesson:5:4: expected why the "
				     "page keeps its scorer"));
	lesson_free(&l);
	bad = HEAD "page: p\npin a\npin b\n";
	ck_assert_int_eq(lesson_parse(&l, bad, strlen(bad), "t.lesson", &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.lesson:5:1: expected one "
				     "'pin' line on a page"));
	lesson_free(&l);
}
END_TEST

/* A directive that renders nothing on the lesson's architecture. */
START_TEST(test_show_nothing)
{
	static const struct { const char *show; int bad; } cases[] = {
		{ "show stage=concat t=1", 1 },  /* Bahdanau has none */
		{ "show stage=decoder t=1", 0 },
		{ "show weights t=1", 0 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char text[256];
		struct errbuf err;
		struct lesson l;
		struct model m;
		struct trace t;
		struct reports r;
		struct fmt_opts o;
		memset(&r, 0, sizeof r);
		fmt_opts_default(&o);
		snprintf(text, sizeof text, HEAD "arch: bahdanau\npage: p\n%s\n",
			 cases[k].show);
		parse_ok(&l, text);
		ck_assert_int_eq(lesson_prepare(&l, &m, &t, &err), 0);
		ck_assert_int_eq(lesson_check_shows(&l, &t, &o, collect, &r),
				 cases[k].bad);
		if (cases[k].bad)
			ck_assert_ptr_nonnull(strstr(r.msg[0], "t.lesson:5:1: "
				"expected a directive that shows something"));
		trace_free(&t);
		model_free(&m);
		lesson_free(&l);
	}
}
END_TEST

/* --- text ------------------------------------------------------------- */

/* A prepared lesson for the text tests. */
static struct lesson tl;
static struct model tm;
static struct trace ttr;
static struct fmt_opts topts;

static void text_prepare(const char *text)
{
	struct errbuf err;
	parse_ok(&tl, text);
	if (lesson_prepare(&tl, &tm, &ttr, &err) != 0)
		ck_abort_msg("unexpected error: %s", err.msg);
	fmt_opts_default(&topts);
}

static void text_teardown(void)
{
	trace_free(&ttr);
	model_free(&tm);
	lesson_free(&tl);
	teardown();
}

/* The text of page p at width columns; freed in teardown. */
static const char *page_text(int p, int width)
{
	mem_open();
	ck_assert_int_eq(lesson_page_text(mem, &tl, p, &ttr, &topts, width),
			 0);
	return mem_text();
}

/* What fmt_text_rec writes for the record (kind, run, t, i), with the
 * terms or without; the caller frees it. */
static char *rec_text(enum trace_kind kind, int run, int t, int i, int terms)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	struct fmt_opts o = topts;
	o.terms = terms;
	const struct trace_rec *r = trace_find(&ttr, kind, run, t, i);
	ck_assert_ptr_nonnull(r);
	fmt_text_rec(f, &ttr, r, &o);
	fclose(f);
	return s;
}

/* Asserts that hay holds needle, and frees needle. */
static void holds(const char *hay, char *needle)
{
	ck_assert_msg(strstr(hay, needle) != NULL, "missing:\n%s\nin:\n%s",
		      needle, hay);
	free(needle);
}

/* The opener: one line that says what the page shows, from its
 * directives in their order, each once; a page of text alone has none. */
START_TEST(test_text_opener)
{
	text_prepare(HEAD "page: P\nx\nshow softmax t=2\nshow weights t=2\n"
		     "show softmax t=2\npage: Q\njust words\n"
		     "page: R\nshow embedding t=1\nshow heatmap\n");
	const char *s = page_text(0, 76);
	ck_assert_int_eq(strncmp(s, "P\n-\nOn this page: the softmax of step "
				 "2; the weights α_2 as bars.\n\n", 68), 0);
	free(buf); /* page_text reuses buf: the last one teardown frees */
	buf = NULL;
	s = page_text(1, 76);
	ck_assert_ptr_null(strstr(s, "On this page"));
	free(buf);
	buf = NULL;
	s = page_text(2, 76);
	ck_assert_ptr_nonnull(strstr(s, "\nOn this page: the word step 1 "
				     "reads, y_0; the alignment heatmap.\n"));
}
END_TEST

START_TEST(test_text_title_and_score)
{
	text_prepare(HEAD "page: A título\nshow score t=1 i=2 arithmetic\n"
		     "show score t=1 i=2\n");
	const char *s = page_text(0, 76);
	/* the underline is as wide as the title in columns, not bytes; the
	 * opener names what the directives show, each once (issue 25) */
	ck_assert_int_eq(strncmp(s, "A título\n--------\nOn this page: the "
				 "score e_1,2.\n\n", 51), 0);
	ck_assert_ptr_nonnull(strstr(s, "e_1,2 = s_1·h_2 = "));
	holds(s, rec_text(REC_SCORE, SCORER_dot, 1, 2, 1));
	holds(s, rec_text(REC_SCORE, SCORER_dot, 1, 2, 0));
	/* the term-by-term line once, the short line once */
	const char *terms = strstr(s, "×");
	ck_assert_ptr_nonnull(terms);
	ck_assert_ptr_null(strstr(strchr(terms, '\n'), "×"));
}
END_TEST

START_TEST(test_text_directives_use_formatters)
{
	text_prepare(HEAD "scorer: general\npage: p\n"
		     "show embedding i=3\nshow embedding t=2\n"
		     "show encoder i=2 arithmetic\nshow state t=3\n"
		     "show softmax t=2\nshow context t=4\nshow concat t=1\n"
		     "show output t=2\nshow weighted t=1 i=3\n"
		     "show scores t=2\n");
	const char *s = page_text(0, 76);
	holds(s, rec_text(REC_EMBED, -1, 0, 3, 0));
	holds(s, rec_text(REC_EMBED, SCORER_general, 2, 0, 0));
	holds(s, rec_text(REC_RNN, -1, 0, 2, 1));
	holds(s, rec_text(REC_RNN, SCORER_general, 3, 0, 0));
	holds(s, rec_text(REC_SOFTMAX, SCORER_general, 2, 0, 1));
	holds(s, rec_text(REC_CONTEXT, SCORER_general, 4, 0, 1));
	holds(s, rec_text(REC_CONCAT, SCORER_general, 1, 0, 1));
	holds(s, rec_text(REC_ATTENTIONAL, SCORER_general, 1, 0, 1));
	holds(s, rec_text(REC_OUTPUT, SCORER_general, 2, 0, 1));
	holds(s, rec_text(REC_WEIGHTED, SCORER_general, 1, 3, 1));
	for (int i = 1; i <= 3; i++)
		holds(s, rec_text(REC_SCORE, SCORER_general, 2, i, 0));
	holds(s, rec_text(REC_SCORES, SCORER_general, 2, 0, 0));
	/* the lesson's own scorer is not announced */
	ck_assert_ptr_null(strstr(s, "scorer)"));
}
END_TEST

START_TEST(test_text_stage)
{
	text_prepare(HEAD "page: p\nshow stage=softmax t=2 scorer=concat\n"
		     "page: q\nshow stage=encoding\n");
	const char *s = page_text(0, 76);
	ck_assert_ptr_nonnull(strstr(s, "(concat scorer)\n"));
	holds(s, rec_text(REC_SOFTMAX, SCORER_concat, 2, 0, 0));
	ck_assert_ptr_null(strstr(s, "e_2,1 ="));
	free(buf);
	buf = NULL;
	s = page_text(1, 76);
	for (int i = 1; i <= 3; i++) {
		holds(s, rec_text(REC_EMBED, -1, 0, i, 0));
		holds(s, rec_text(REC_RNN, -1, 0, i, 0));
	}
	ck_assert_ptr_null(strstr(s, "s_1"));
}
END_TEST

/* The decoder's update is a stage of its own: stage=decoder shows y_{t-1}
 * and s_t, stage=scoring the scores alone. */
START_TEST(test_text_stage_decoder)
{
	text_prepare(HEAD "page: p\nshow stage=decoder t=2\n"
		     "page: q\nshow stage=scoring t=2\n");
	const char *s = page_text(0, 76);
	holds(s, rec_text(REC_EMBED, SCORER_dot, 2, 0, 0));
	holds(s, rec_text(REC_RNN, SCORER_dot, 2, 0, 0));
	ck_assert_ptr_null(strstr(s, "e_2,1"));
	free(buf);
	buf = NULL;
	s = page_text(1, 76);
	holds(s, rec_text(REC_SCORES, SCORER_dot, 2, 0, 0));
	ck_assert_ptr_nonnull(strstr(s, "e_2,1 = "));
	ck_assert_ptr_null(strstr(s, "s_2 = tanh"));
	ck_assert_ptr_null(strstr(s, "y_1"));
}
END_TEST

START_TEST(test_text_views)
{
	text_prepare(HEAD "page: p\nshow weights t=1\nshow heatmap "
		     "scorer=concat\nshow compare t=3\n");
	char *want = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&want, &n);
	fmt_text_heatmap(f, &ttr, SCORER_concat, topts.precision, 0);
	fclose(f);
	const char *s = page_text(0, 76);
	holds(s, want);
	f = open_memstream(&want, &n);
	fmt_text_compare(f, &ttr, 3, topts.precision, 76);
	fclose(f);
	holds(s, want);
	ck_assert_ptr_nonnull(strstr(s, "the attention weights α_1, dot "
				     "scorer:\n  je "));
	/* one bar is marked the largest, and no line is wider than 76 */
	const char *mark = strstr(s, "<- largest");
	ck_assert_ptr_nonnull(mark);
	ck_assert_ptr_null(strstr(mark + 1, "<- largest"));
	const char *line = strstr(s, "  suis ");
	char *copy = strndup(line, (size_t)(strchr(line, '\n') - line));
	ck_assert_int_le(utf8_width(copy), 76);
	free(copy);
}
END_TEST

/* show diagram: the picture of diagram_render() at the page's width, of
 * the scorer it names; it needs t=, and takes no i= */
START_TEST(test_text_diagram)
{
	struct diagram d;
	struct errbuf err;
	char **lines;
	text_prepare(HEAD "page: p\nshow diagram t=2 scorer=general\n");
	const char *s = page_text(0, 76);
	int run = trace_run_of(&ttr, SCORER_general);
	ck_assert_int_eq(diagram_build(&d, &ttr, run, 2, &err), 0);
	int n = diagram_render(&d, 76, 0, topts.precision, &lines);
	ck_assert_int_gt(n, 5);
	for (int k = 0; k < n; k++) {
		ck_assert_msg(strstr(s, lines[k]) != NULL, "lacks %s", lines[k]);
		ck_assert_int_le(utf8_width(lines[k]), 76);
	}
	diagram_lines_free(lines, n);
	ck_assert_ptr_nonnull(strstr(s, "(general scorer)"));
	ck_assert_ptr_nonnull(strstr(s, "┼── s_2"));
	parse_err(HEAD "page: p\nshow diagram\n", "t.lesson:4:13: expected t=N "
		  "after 'show diagram', found the end of the line");
	parse_err(HEAD "page: p\nshow diagram t=1 i=2\n", "t.lesson:4:18: "
		  "expected t=N or scorer=NAME after 'show diagram', found "
		  "'i=2'");
}
END_TEST

/* A heatmap of another model says which, and shows that model's α. */
START_TEST(test_text_show_model)
{
	text_prepare(HEAD "target: i am a student\npage: p\n"
		     "show heatmap model=handset4 scorer=general\n"
		     "show heatmap scorer=general\n");
	char *alt = NULL, *own = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&alt, &n);
	fputs("(the model handset4)\n", f);
	fmt_text_heatmap(f, &tl.alts[0].tr, SCORER_general, topts.precision, 0);
	fclose(f);
	f = open_memstream(&own, &n);
	fmt_text_heatmap(f, &ttr, SCORER_general, topts.precision, 0);
	fclose(f);
	ck_assert_str_ne(alt + strlen("(the model handset4)\n"), own);
	const char *s = page_text(0, 76);
	holds(s, alt);
	holds(s, own);
	const char *said = strstr(s, "(the model");
	ck_assert_ptr_nonnull(said);
	ck_assert_ptr_null(strstr(said + 1, "(the model")); /* said once */
}
END_TEST

START_TEST(test_text_wraps_at_width)
{
	text_prepare(HEAD "page: p\n"
		     "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll\n"
		     "mmm 注意力 nnn\n");
	const char *s = page_text(0, 15);
	ck_assert_str_eq(s, "p\n-\n\n"
			 "aaa bbb ccc ddd\n" /* 15 columns: fits exactly */
			 "eee fff ggg hhh\n"
			 "iii jjj kkk lll\n"
			 "mmm 注意力 nnn\n"); /* 14 columns, 17 bytes */
}
END_TEST

START_TEST(test_wrap_long_word_and_wide_text)
{
	mem_open();
	ck_assert_int_eq(lesson_wrap(mem, "ab abcdefghijklmnop cd 注意力注意力 "
				     "x", 12), 0);
	/* 12 columns: "cd 注意力注" is 2 + 1 + 4 × 2 = 11, and CJK text
	 * breaks between its characters (linebreak.h) */
	ck_assert_str_eq(mem_text(), "ab\nabcdefghijklmnop\ncd 注意力注\n"
			 "意力 x\n");
}
END_TEST

START_TEST(test_text_verbatim_unwrapped)
{
	text_prepare(HEAD "page: p\n    a b c d e f g h i j k l m n o p\n");
	const char *s = page_text(0, 12);
	ck_assert_str_eq(s, "p\n-\n\n    a b c d e f g h i j k l m n o p\n");
}
END_TEST

START_TEST(test_text_run_override)
{
	text_prepare(HEAD "page: p\nshow softmax t=1\n"
		     "show softmax t=1 scorer=dot\n");
	const struct lesson_page *pg = &tl.pages[0];
	mem_open();
	/* a stepper switched to concat: the first directive follows it,
	 * the second keeps the scorer it names */
	ck_assert_int_eq(lesson_show_text(mem, &tl, &pg->blocks[0].show, &ttr,
					  &topts, SCORER_concat, 76), 0);
	ck_assert_int_eq(lesson_show_text(mem, &tl, &pg->blocks[1].show, &ttr,
					  &topts, SCORER_concat, 76), 0);
	const char *s = mem_text();
	char *want = rec_text(REC_SOFTMAX, SCORER_concat, 1, 0, 0);
	ck_assert_int_eq(strncmp(s, "(concat scorer)\n", 16), 0);
	ck_assert_int_eq(strncmp(s + 16, want, strlen(want)), 0);
	holds(s + 16 + strlen(want), rec_text(REC_SOFTMAX, SCORER_dot, 1, 0,
					      0));
	free(want);
	ck_assert_int_eq(lesson_show_run(&tl, &pg->blocks[0].show, &ttr), 0);
	ck_assert_int_eq(lesson_show_run(&tl, &pg->blocks[1].show, &ttr), 0);
}
END_TEST

START_TEST(test_plain_whole_lesson)
{
	text_prepare("title: Soft max\ngoal: Learn it.\n"
		     "sentence: je suis étudiant\ntarget: i am a student\n"
		     "page: One\nx\npage: Two\ny\n");
	mem_open();
	ck_assert_int_eq(lesson_plain(mem, &tl, &ttr, &topts, 76, 1), 0);
	const char *s = mem_text();
	const char *head = "Soft max\n========\n\nGoal: Learn it.\n"
			   "Sentence: je suis étudiant\n"
			   "Target: i am a student\nScorer: dot\n"
			   "Model: <built-in toy4.model>\n";
	ck_assert_int_eq(strncmp(s, head, strlen(head)), 0);
	const char *one = strstr(s, "\n[page 1 of 2]\nOne\n---\n\nx\n");
	const char *two = strstr(s, "\n[page 2 of 2]\nTwo\n---\n\ny\n");
	ck_assert_ptr_nonnull(one);
	ck_assert_ptr_nonnull(two);
	ck_assert(two > one);
}
END_TEST

START_TEST(test_text_write_error)
{
	text_prepare(HEAD "page: p\nshow softmax t=1\n");
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		return; /* no /dev/full here */
	setvbuf(full, NULL, _IONBF, 0);
	ck_assert_int_eq(lesson_page_text(full, &tl, 0, &ttr, &topts, 76), -1);
	ck_assert_int_eq(lesson_plain(full, &tl, &ttr, &topts, 76, 1), -1);
	fclose(full);
}
END_TEST

static Suite *lesson_suite(void)
{
	Suite *s = suite_create("lesson");
	TCase *tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_header_keys);
	tcase_add_test(tc, test_header_defaults);
	tcase_add_loop_test(tc, test_show_kinds, 0,
			    sizeof show_cases / sizeof show_cases[0]);
	tcase_add_test(tc, test_show_model);
	tcase_add_test(tc, test_show_window);
	tcase_add_test(tc, test_paragraphs_join);
	tcase_add_test(tc, test_verbatim_and_escapes);
	tcase_add_test(tc, test_crlf_and_bom);
	tcase_add_test(tc, test_no_final_newline);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_err_empty_file);
	tcase_add_test(tc, test_err_invalid_utf8);
	tcase_add_test(tc, test_err_control_character);
	tcase_add_test(tc, test_err_nul_byte);
	tcase_add_test(tc, test_err_unknown_key);
	tcase_add_test(tc, test_image_header);
	tcase_add_test(tc, test_err_window);
	tcase_add_test(tc, test_err_duplicate_key);
	tcase_add_test(tc, test_fold_line);
	tcase_add_test(tc, test_header_raw_and_base);
	tcase_add_test(tc, test_err_empty_value);
	tcase_add_test(tc, test_err_bad_header_scorer);
	tcase_add_test(tc, test_err_text_before_page);
	tcase_add_test(tc, test_err_show_before_page);
	tcase_add_test(tc, test_err_key_on_page);
	tcase_add_test(tc, test_err_missing_title);
	tcase_add_test(tc, test_err_missing_sentence);
	tcase_add_test(tc, test_err_no_page);
	tcase_add_test(tc, test_err_empty_page);
	tcase_add_test(tc, test_err_page_without_title);
	tcase_add_test(tc, test_err_too_many_pages);
	tcase_add_test(tc, test_err_too_large);
	tcase_add_test(tc, test_err_unknown_directive);
	tcase_add_test(tc, test_err_unknown_stage);
	tcase_add_test(tc, test_err_unknown_option);
	tcase_add_test(tc, test_err_model_option);
	tcase_add_test(tc, test_err_option_not_allowed);
	tcase_add_test(tc, test_err_missing_t);
	tcase_add_test(tc, test_err_missing_i);
	tcase_add_test(tc, test_err_embedding_t_or_i);
	tcase_add_test(tc, test_err_bad_number);
	tcase_add_test(tc, test_err_t_zero);
	tcase_add_test(tc, test_err_number_too_large);
	tcase_add_test(tc, test_err_duplicate_option);
	tcase_add_test(tc, test_err_unknown_scorer);
	tcase_add_test(tc, test_err_long_word_is_cut);
	suite_add_tcase(s, tc);

	tc = tcase_create("prepare");
	tcase_add_test(tc, test_prepare_ok);
	tcase_add_test(tc, test_prepare_scorers);
	tcase_add_test(tc, test_prepare_step_past_end);
	tcase_add_test(tc, test_prepare_word_past_end);
	tcase_add_test(tc, test_prepare_unknown_source_word);
	tcase_add_test(tc, test_prepare_unknown_target_word);
	tcase_add_test(tc, test_prepare_marker_in_target);
	tcase_add_test(tc, test_prepare_missing_model);
	tcase_add_test(tc, test_prepare_model_beside_lesson);
	tcase_add_test(tc, test_prepare_show_model);
	tcase_add_test(tc, test_prepare_show_model_errors);
	tcase_add_test(tc, test_load_missing_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("numbers");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_numbers_recorded);
	tcase_add_test(tc, test_numbers_typed);
	tcase_add_test(tc, test_numbers_wrong);
	tcase_add_test(tc, test_numbers_other_model);
	tcase_add_test(tc, test_ref_parse);
	tcase_add_test(tc, test_ref_values);
	tcase_add_test(tc, test_ref_errors);
	tcase_add_test(tc, test_ref_parse_errors);
	tcase_add_test(tc, test_claims);
	tcase_add_test(tc, test_ref_render);
	tcase_add_test(tc, test_show_nothing);
	tcase_add_test(tc, test_pin);
	suite_add_tcase(s, tc);

	tc = tcase_create("find");
	tcase_add_checked_fixture(tc, find_setup, find_teardown);
	tcase_add_test(tc, test_dir_from_environment);
	tcase_add_test(tc, test_find_by_number);
	tcase_add_test(tc, test_find_by_name);
	tcase_add_test(tc, test_find_by_path);
	tcase_add_test(tc, test_find_missing);
	tcase_add_test(tc, test_list_sorted);
	tcase_add_test(tc, test_list_missing_dir);
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_checked_fixture(tc, NULL, text_teardown);
	tcase_add_test(tc, test_text_title_and_score);
	tcase_add_test(tc, test_text_opener);
	tcase_add_test(tc, test_text_directives_use_formatters);
	tcase_add_test(tc, test_text_stage);
	tcase_add_test(tc, test_text_stage_decoder);
	tcase_add_test(tc, test_text_views);
	tcase_add_test(tc, test_text_diagram);
	tcase_add_test(tc, test_text_show_model);
	tcase_add_test(tc, test_text_wraps_at_width);
	tcase_add_test(tc, test_wrap_long_word_and_wide_text);
	tcase_add_test(tc, test_text_verbatim_unwrapped);
	tcase_add_test(tc, test_text_run_override);
	tcase_add_test(tc, test_plain_whole_lesson);
	tcase_add_test(tc, test_text_write_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lesson_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
