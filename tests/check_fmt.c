/* check_fmt.c: the text and JSON formatters: layout, escaping, number
 * forms, stage selection and write errors. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "num.h"
#include "testmodel.h"
#include "utf8.h"
#include "window.h"

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

START_TEST(test_json_string_escapes)
{
	mem_open();
	fmt_json_string(mem, "a\"b\\c\x01\n\t\x7f é 学");
	ck_assert_str_eq(mem_text(),
			 "\"a\\\"b\\\\c\\u0001\\n\\t\\u007f é 学\"");
}
END_TEST

START_TEST(test_json_vec_shortest)
{
	const double v[] = { 0.1, -0.0, 1e-05, 1.0 / 3.0, 123456789.0, -2.5 };
	mem_open();
	fmt_json_vec(mem, v, 6);
	ck_assert_str_eq(mem_text(), "[0.1, 0, 1e-5, 0.3333333333333333, "
			 "123456789, -2.5]");
}
END_TEST

START_TEST(test_json_mat_rows)
{
	const double W[] = { 1, 2, 3, 4, 5, 6 };
	mem_open();
	fmt_json_mat(mem, W, 2, 3);
	ck_assert_str_eq(mem_text(), "[[1, 2, 3], [4, 5, 6]]");
}
END_TEST

START_TEST(test_text_vec_aligned)
{
	const double v[] = { 0.5, -0.25, 10.125 };
	mem_open();
	fmt_text_vec(mem, v, 3, 2);
	/* the widest positive number keeps a column for a sign too;
	 * 10.125 rounds to 10.12 or 10.13 by the binary value: it is exact,
	 * and printf rounds half to even, giving 10.12 */
	ck_assert_str_eq(mem_text(), "[  0.50,  -0.25,  10.12]");
}
END_TEST

/* Every vector keeps a column for the sign, negative numbers or not, so
 * that two vectors of one trace line up column for column. */
START_TEST(test_text_vec_sign_column)
{
	const double pos[] = { 0.5, 0.25 }, neg[] = { 0.5, -0.25 };
	mem_open();
	fmt_text_vec(mem, pos, 2, 4);
	ck_assert_str_eq(mem_text(), "[ 0.5000,  0.2500]");
	free(buf); /* a second stream: teardown frees only the last */
	buf = NULL;
	mem_open();
	fmt_text_vec(mem, neg, 2, 4);
	ck_assert_str_eq(mem_text(), "[ 0.5000, -0.2500]");
}
END_TEST

START_TEST(test_pad_counts_columns)
{
	mem_open();
	fmt_pad(mem, "é", 3);
	fmt_pad(mem, "学", 3);
	fmt_pad(mem, "h̃", 3);
	ck_assert_str_eq(mem_text(), "é  学 h̃  ");
}
END_TEST

START_TEST(test_text_vec_long)
{
	/* more numbers than the formatter keeps on its stack, and more text
	 * than its line buffer: built here with printf */
	double v[300];
	char want[300 * 16 + 8] = "[", num[32];
	int width = 0;
	for (int k = 0; k < 300; k++) {
		v[k] = (k % 7 - 3) * 123.456789 / (k + 1);
		int w = snprintf(num, sizeof num, "%.4f", v[k]);
		if (w > width)
			width = w;
	}
	for (int k = 0; k < 300; k++) {
		snprintf(num, sizeof num, "%s%*.4f", k ? ", " : "", width, v[k]);
		strcat(want, strcmp(num, "-0.0000") ? num : "0.0000");
	}
	strcat(want, "]");
	mem_open();
	fmt_text_vec(mem, v, 300, 4);
	ck_assert_str_eq(mem_text(), want);
}
END_TEST

START_TEST(test_json_vec_long)
{
	/* more text than the formatter's line buffer */
	double v[300];
	char want[300 * 24 + 8] = "[", num[32];
	for (int k = 0; k < 300; k++) {
		v[k] = k % 3 ? 1.0 / 3.0 : 0.25 * k; /* 0.25·k: exact, short */
		if (k)
			strcat(want, ", ");
		if (k % 3)
			strcat(want, "0.3333333333333333");
		else {
			snprintf(num, sizeof num, "%g", v[k]);
			strcat(want, num);
		}
	}
	strcat(want, "]");
	mem_open();
	fmt_json_vec(mem, v, 300);
	ck_assert_str_eq(mem_text(), want);
}
END_TEST

START_TEST(test_pad_long_and_wide)
{
	char label[301], want[400], wide[64] = "";
	memset(label, 'a', 300);
	label[300] = '\0';
	for (int k = 0; k < 20; k++) /* 40 bytes of 2-byte letters, 20 columns */
		strcat(wide, "é");
	strcat(wide, "x");
	mem_open();
	fmt_pad(mem, label, 304); /* longer than the formatter's one-go buffer */
	fmt_pad(mem, wide, 25);
	fmt_pad(mem, "h̃·α", 5); /* 1 + 0 + 1 + 1 columns */
	fmt_pad(mem, "", 2);
	snprintf(want, sizeof want, "%s    %s    h̃·α    ", label, wide);
	ck_assert_str_eq(mem_text(), want);
}
END_TEST

/* fmt_buf_put_cols() copies s exactly and counts its columns as
 * utf8_width() does, in the one pass of the usual label (ASCII and the
 * two-byte code points below U+0400) and the general way for the rest:
 * wide letters, combining marks on both sides of U+0370, invalid bytes,
 * and strings longer than the one pass takes. */
#define SIXTY "012345678901234567890123456789012345678901234567890123456789"
START_TEST(test_put_cols)
{
	static const char *const ss[] = {
		"", "b", "W_x·x_1", "α_1,2·h_2 = 0.5716×h_2", "h̃_1",
		"W_s·h̃_3", "emb(économique)", "\xcd\xaf", "\xcd\xb0" "x",
		"a\xcc\x80", "学生", "a\xe2\x80\x8b" "b", "\xc2" "A", "\xc2",
		"\x80", "x\xcc", "\xc1\xbf", "\xd0\xb4", "\xf0\x9f\x98\x80",
		/* 61 to 70 bytes, around the end of the one pass */
		SIXTY "0", SIXTY "01", SIXTY "é", SIXTY "0é",
		SIXTY "0123456789",
	};
	for (size_t k = 0; k < sizeof ss / sizeof ss[0]; k++) {
		struct fmt_buf b = FMT_BUF_INIT;
		fmt_buf_putc(&b, '>');
		int cols = fmt_buf_put_cols(&b, ss[k]);
		fmt_buf_putc(&b, '<');
		ck_assert_uint_eq(b.len, strlen(ss[k]) + 2);
		ck_assert_msg(memcmp(b.p + 1, ss[k], strlen(ss[k])) == 0 &&
			      b.p[b.len - 1] == '<', "copy of string %zu", k);
		ck_assert_msg(cols == utf8_width(ss[k]),
			      "string %zu: %d columns, not %d", k, cols,
			      utf8_width(ss[k]));
		fmt_buf_free(&b);
	}
}
END_TEST

/* A trace of the tiny model, teacher-forced, with all three scorers. */
static void tiny_trace(struct model *m, struct trace *tr, unsigned scorers)
{
	static const int src[] = { 0, 1, 2 }, tgt[] = { 2, 3, 4 };
	struct errbuf err;
	testmodel_load(m, "tiny.model");
	ck_assert_int_eq(trace_build(tr, m, src, 3, tgt, 3, scorers, NULL, &err), 0);
}

/* The output record of the stepper and the lessons names the word of each
 * logit and each p (tiny.model's target words: <s> </s> one two three). */
START_TEST(test_text_output_by_word)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	char want[256], a[NUM_BUFSZ], b2[NUM_BUFSZ], c[NUM_BUFSZ];
	tiny_trace(&m, &tr, 1u << SCORER_dot);
	fmt_opts_default(&o);
	const struct trace_rec *r = trace_find(&tr, REC_OUTPUT, 0, 2, 0);
	mem_open();
	fmt_text_rec(mem, &tr, r, &o);
	const char *text = mem_text();
	snprintf(want, sizeof want, "\nŷ_2 by word: <s> %s, </s> %s, one %s, ",
		 num_fixed(a, r->result[0], 4), num_fixed(b2, r->result[1], 4),
		 num_fixed(c, r->result[2], 4));
	ck_assert_msg(strstr(text, want) != NULL, "%s", text);
	snprintf(want, sizeof want, "\nlogits by word: <s> %s, ",
		 num_fixed(a, r->ops[0].v[0], 4));
	ck_assert_msg(strstr(text, want) != NULL, "%s", text);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_text_score_terms)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	char want[512], a[64], b[64];
	tiny_trace(&m, &tr, 1u << SCORER_dot);
	fmt_opts_default(&o);
	const struct trace_rec *r = trace_find(&tr, REC_SCORE, 0, 1, 2);
	mem_open();
	fmt_text_rec(mem, &tr, r, &o);
	/* built from the recorded terms with printf, independently of the
	 * formatter's own number code */
	snprintf(want, sizeof want, "e_1,2 = s_1·h_2 = ");
	for (int k = 0; k < 2; k++) {
		snprintf(a, sizeof a, r->terms[2 * k] < 0 ? "(%.4f)" : "%.4f",
			 r->terms[2 * k]);
		snprintf(b, sizeof b, r->terms[2 * k + 1] < 0 ? "(%.4f)" : "%.4f",
			 r->terms[2 * k + 1]);
		strcat(want, k ? " + " : "");
		strcat(want, a);
		strcat(want, "×");
		strcat(want, b);
	}
	snprintf(a, sizeof a, " = %.4f\n", r->result[0]);
	strcat(want, a);
	ck_assert_str_eq(mem_text(), want);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* r with its operands in the reverse order, and the indices into them
 * (note_op, term_ops) moved with them. */
static void rec_reversed(const struct trace_rec *r, struct trace_rec *out)
{
	*out = *r;
	for (int k = 0; k < r->nops; k++)
		out->ops[k] = r->ops[r->nops - 1 - k];
	if (r->note)
		out->note_op = r->nops - 1 - r->note_op;
	for (int k = 0; k < 2; k++)
		if (r->term_ops[k] >= 0)
			out->term_ops[k] = r->nops - 1 - r->term_ops[k];
}

/* fmt_text_rec() of r into a string the caller frees. */
static char *rec_text(const struct trace *tr, const struct trace_rec *r,
		      const struct fmt_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	fmt_text_rec(f, tr, r, o);
	fclose(f);
	return text;
}

/* The text of every record of the kinds whose operands fmt_text reads
 * one by one (the softmax, local-p's position, the window, local-p's
 * Gaussian, the weighted terms, the output) is the same with the
 * record's operands in the reverse order: the formatter finds them by
 * name (trace_op), not by position.  Returns how many it compared. */
static int text_order_free(const struct trace *tr)
{
	struct fmt_opts o;
	int compared = 0;
	fmt_opts_default(&o);
	o.terms = 1;
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		struct trace_rec rev;
		if (r->kind != REC_SOFTMAX && r->kind != REC_POSITION &&
		    r->kind != REC_WINDOW && r->kind != REC_GAUSS &&
		    r->kind != REC_WEIGHTED && r->kind != REC_OUTPUT)
			continue;
		rec_reversed(r, &rev);
		char *want = rec_text(tr, r, &o), *got = rec_text(tr, &rev, &o);
		ck_assert_msg(want[0] != '\0', "record %d printed nothing", k);
		ck_assert_str_eq(got, want);
		free(want);
		free(got);
		compared++;
	}
	return compared;
}

/* text_order_free() of a trace of model file name through window. */
static int window_order_free(const char *name, int window)
{
	static const int src[] = { 0, 1, 2 }, tgt[] = { 2, 3, 4 };
	struct model m;
	struct trace tr;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	testmodel_load(&m, name);
	cfg.window = window;
	ck_assert_int_eq(trace_build(&tr, &m, src, 3, tgt, 3,
				     1u << SCORER_dot, &cfg, &err), 0);
	int compared = text_order_free(&tr);
	trace_free(&tr);
	model_free(&m);
	return compared;
}

START_TEST(test_text_operands_by_name)
{
	/* local-m over the tiny model: 4 steps of softmax, window, output
	 * and 3 weighted terms */
	ck_assert_int_eq(window_order_free("tiny.model", WINDOW_local_m), 4 * 6);
	/* local-p: its position and Gaussian too */
	ck_assert_int_eq(window_order_free("localp.model", WINDOW_local_p),
			 4 * 8);
}
END_TEST

/* A window's text is its record's: its note and formula with the values
 * of the operands they name, or no formula at all.  The tiny model, n = 3,
 * local-m with D = 1: at step 1 p_1 = min(1, 3) = 1, so the window is
 * 1 - 1 .. 1 + 1 clipped to 1 .. 2. */
START_TEST(test_text_window_from_record)
{
	static const int src[] = { 0, 1, 2 }, tgt[] = { 2, 3, 4 };
	struct model m;
	struct trace tr;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	struct errbuf err;
	struct fmt_opts o;
	char want[512];
	testmodel_load(&m, "tiny.model");
	cfg.window = WINDOW_local_m;
	ck_assert_int_eq(trace_build(&tr, &m, src, 3, tgt, 3,
				     1u << SCORER_dot, &cfg, &err), 0);
	fmt_opts_default(&o);
	struct trace_rec *r = (struct trace_rec *)trace_find(&tr, REC_WINDOW,
							      0, 1, 0);
	const char *w1 = m.src.words[0], *w2 = m.src.words[1];
	snprintf(want, sizeof want, "p_1 = min(1, 3) = 1.0000\n"
		 "window_1 = ⌊p_1⌋ ± D = ⌊1.0000⌋ ± 1, within 1 .. 3: "
		 "positions 1 .. 2: %s (1) %s (2)\n", w1, w2);
	char *text = rec_text(&tr, r, &o);
	ck_assert_str_eq(text, want);
	free(text);
	/* a window of its own words, and one with none */
	r->note = "p_{t} = {#D} + {t} - 1";
	r->formula = "{#window} .. {=p} + {#D}";
	snprintf(want, sizeof want, "p_1 = 1 + 1 - 1 = 1.0000\n"
		 "window_1 = window .. p_1 + D = 1 .. 1.0000 + 1, within 1 .. 3: "
		 "positions 1 .. 2: %s (1) %s (2)\n", w1, w2);
	text = rec_text(&tr, r, &o);
	ck_assert_str_eq(text, want);
	free(text);
	r->note = NULL;
	r->formula = NULL;
	snprintf(want, sizeof want, "window_1: within 1 .. 3: positions 1 .. 2: "
		 "%s (1) %s (2)\n", w1, w2);
	text = rec_text(&tr, r, &o);
	ck_assert_str_eq(text, want);
	free(text);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_text_stages_in_order)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	tiny_trace(&m, &tr, SCORER_ALL);
	fmt_opts_default(&o);
	mem_open();
	ck_assert_int_eq(fmt_text_trace(mem, &tr, &o), 0);
	const char *text = mem_text();
	const char *order[] = { "attn-trace-text/3\n", "--- encoding ---",
		"==== dot scorer", "--- scoring ---", "--- softmax ---",
		"--- weighted-sum ---", "--- concat ---",
		"--- output ---", "==== general scorer", "W_a·h_1",
		"==== concat scorer", "tanh(W_a·[s_1; h_1])", "concat output:" };
	const char *p = text;
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		const char *q = strstr(p, order[k]);
		ck_assert_msg(q != NULL, "\"%s\" missing or out of order",
			      order[k]);
		p = q;
	}
	ck_assert_ptr_nonnull(strstr(text, "h̃_1 = tanh(W_c·[c_1; s_1])"));
	ck_assert_ptr_nonnull(strstr(text, "(target one: "));
	ck_assert_ptr_null(strchr(text, '\033'));
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_text_stage_selection)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	tiny_trace(&m, &tr, 1u << SCORER_dot);
	fmt_opts_default(&o);
	o.stages = 1u << STAGE_SOFTMAX;
	mem_open();
	fmt_text_trace(mem, &tr, &o);
	const char *text = mem_text();
	ck_assert_ptr_nonnull(strstr(text, "--- softmax ---"));
	ck_assert_ptr_null(strstr(text, "--- scoring ---"));
	ck_assert_ptr_null(strstr(text, "--- encoding ---"));
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_text_precision)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	tiny_trace(&m, &tr, 1u << SCORER_dot);
	fmt_opts_default(&o);
	o.precision = 7;
	mem_open();
	fmt_text_rec(mem, &tr, trace_find(&tr, REC_RNN, -1, 0, 1), &o);
	/* tanh(0.7) = 0.6043677771..., tanh(-0.25) = -0.2449186624... */
	ck_assert_ptr_nonnull(strstr(mem_text(),
		"h_1 = tanh(sum)                     (2)   [ 0.6043678, -0.2449187]"));
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_csv_rows)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	tiny_trace(&m, &tr, 1u << SCORER_dot);
	fmt_opts_default(&o);
	o.pair = 7;
	mem_open();
	ck_assert_int_eq(fmt_csv_trace(mem, &tr, &o, 1), 0);
	const char *text = mem_text();
	ck_assert_ptr_eq(strstr(text, "pair,scorer,t,stage,symbol,index,value,word,source,output\n"),
			 text);
	/* a symbol with a comma is quoted; after the value, the entry's
	 * word, the record's source word and the step's output word */
	const struct trace_rec *r = trace_find(&tr, REC_SCORE, 0, 1, 2);
	const char *pred = m.tgt.words[tr.runs[0].pred[0]];
	char want[256], num[NUM_BUFSZ];
	snprintf(want, sizeof want, "\n7,dot,1,scoring,\"e_1,2\",1,%s,,deux,"
		 "%s\n", num_shortest(num, r->result[0]), pred);
	ck_assert_ptr_nonnull(strstr(text, want));
	/* h_1: the source word of position 1, no step */
	snprintf(want, sizeof want, "\n7,,0,encoding,h_1,2,%s,,un,\n",
		 num_shortest(num, trace_find(&tr, REC_RNN, -1, 0, 1)->result[1]));
	ck_assert_ptr_nonnull(strstr(text, want));
	/* α_1 runs over the source words, ŷ_1 over the target vocabulary
	 * (tiny.model: <s> </s> one two three) */
	r = trace_find(&tr, REC_SOFTMAX, 0, 1, 0);
	snprintf(want, sizeof want, "\n7,dot,1,softmax,α_1,3,%s,trois,,%s\n",
		 num_shortest(num, r->result[2]), pred);
	ck_assert_ptr_nonnull(strstr(text, want));
	r = trace_find(&tr, REC_OUTPUT, 0, 1, 0);
	snprintf(want, sizeof want, "\n7,dot,1,output,ŷ_1,3,%s,one,,%s\n",
		 num_shortest(num, r->result[2]), pred);
	ck_assert_ptr_nonnull(strstr(text, want));
	for (const char *p = strchr(text, '\n') + 1; *p; p = strchr(p, '\n') + 1)
		ck_assert_msg(strncmp(p, "7,", 2) == 0, "row without its pair");
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_write_error_reported)
{
	struct model m;
	struct trace tr;
	struct fmt_opts o;
	tiny_trace(&m, &tr, 1u << SCORER_dot);
	fmt_opts_default(&o);
	FILE *full = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(full);
	setvbuf(full, NULL, _IONBF, 0);
	ck_assert_int_eq(fmt_text_trace(full, &tr, &o), -1);
	clearerr(full);
	ck_assert_int_eq(fmt_json_trace(full, &tr, &o), -1);
	fclose(full);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

static Suite *fmt_suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("formatters");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_json_string_escapes);
	tcase_add_test(tc, test_json_vec_shortest);
	tcase_add_test(tc, test_json_mat_rows);
	tcase_add_test(tc, test_text_vec_aligned);
	tcase_add_test(tc, test_text_vec_sign_column);
	tcase_add_test(tc, test_pad_counts_columns);
	tcase_add_test(tc, test_text_vec_long);
	tcase_add_test(tc, test_json_vec_long);
	tcase_add_test(tc, test_pad_long_and_wide);
	tcase_add_test(tc, test_put_cols);
	tcase_add_test(tc, test_csv_rows);
	tcase_add_test(tc, test_text_score_terms);
	tcase_add_test(tc, test_text_output_by_word);
	tcase_add_test(tc, test_text_operands_by_name);
	tcase_add_test(tc, test_text_window_from_record);
	tcase_add_test(tc, test_text_stages_in_order);
	tcase_add_test(tc, test_text_stage_selection);
	tcase_add_test(tc, test_text_precision);
	tcase_add_test(tc, test_write_error_reported);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fmt_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
