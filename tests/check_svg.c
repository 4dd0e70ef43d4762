/* check_svg.c: the SVG heatmap: the colour ramp, the document's shape, a
 * cell and a value for each weight, escaping, several panels, determinism
 * and write errors.  tests/svg.sh parses the documents with a real XML
 * parser and has Chromium draw them. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_svg.h"
#include "model.h"
#include "testmodel.h"
#include "trace.h"

static char *buf;
static size_t buflen;

static void teardown(void)
{
	free(buf);
	buf = NULL;
}

/* Renders run of tr with precision prec; the text is freed in teardown. */
static const char *render(const struct trace *tr, int run, int prec)
{
	struct fmt_svg_opts o;
	fmt_svg_opts_default(&o);
	o.precision = prec;
	free(buf);
	FILE *mem = open_memstream(&buf, &buflen);
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(fmt_svg_heatmap(mem, tr, run, &o), 0);
	fclose(mem);
	return buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The trace of the built-in model on words src (n), greedy. */
static void builtin_trace(struct model *m, struct trace *tr,
			  const char *const *words, int n, unsigned scorers)
{
	struct errbuf err;
	int src[8];
	ck_assert_int_eq(model_load_builtin(m, &err), 0);
	for (int k = 0; k < n; k++) {
		src[k] = vocab_find(&m->src, words[k]);
		ck_assert_int_ge(src[k], 0);
	}
	ck_assert_int_eq(trace_build(tr, m, src, n, NULL, 0, scorers, NULL, &err), 0);
}

static const char *const je[] = { "je", "suis", "étudiant" };

/* Eight words on which the general scorer's decoder runs to its step
 * limit: a heatmap of many rows. */
static const char *const eight[] = { "économique", "européenne",
	"ingénieur", "politique", "étudiant", "agricole", "centrale",
	"artiste" };

/* A heatmap of many output words keeps to a slide: its rows lower, from
 * 34 px, until the picture is at most 688 px high (12.75 px subscripts at
 * 20 px on a 1080 px slide, doc/heatmap.md), and never under 22 px. */
START_TEST(test_many_rows_fit_a_slide)
{
	struct model m;
	struct trace tr;
	int w, h, y1, y2;
	builtin_trace(&m, &tr, eight, 8, 1u << SCORER_general);
	ck_assert_int_ge(tr.runs[0].nsteps, 16);
	const char *s = render(&tr, 0, 4);
	ck_assert_int_eq(sscanf(strstr(s, "viewBox=\"0 0 "),
				"viewBox=\"0 0 %d %d\"", &w, &h), 2);
	ck_assert_int_le(h, 1080 * 17 * 3 / 4 / 20);
	const char *c = strstr(s, "<rect class=\"cell\"");
	ck_assert_int_eq(sscanf(strstr(c, " y=\""), " y=\"%d\"", &y1), 1);
	for (int k = 0; k < 8; k++) /* the cell below, a row of 8 on */
		c = strstr(c + 1, "<rect class=\"cell\"");
	ck_assert_int_eq(sscanf(strstr(c, " y=\""), " y=\"%d\"", &y2), 1);
	ck_assert_int_lt(y2 - y1, 34);
	ck_assert_int_ge(y2 - y1, 22);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_ramp_ends_and_clamps)
{
	char hex[8];
	fmt_svg_ramp(0, hex);
	ck_assert_str_eq(hex, "#f7fbff");
	fmt_svg_ramp(1, hex);
	ck_assert_str_eq(hex, "#08306b");
	fmt_svg_ramp(-3, hex);
	ck_assert_str_eq(hex, "#f7fbff");
	fmt_svg_ramp(7, hex);
	ck_assert_str_eq(hex, "#08306b");
	fmt_svg_ramp(0.5, hex); /* the middle class exactly */
	ck_assert_str_eq(hex, "#6baed6");
	ck_assert_int_eq(fmt_svg_dark(0), 0);
	ck_assert_int_eq(fmt_svg_dark(0.5), 0);
	ck_assert_int_eq(fmt_svg_dark(1), 1);
}
END_TEST

/* Lightness must fall as the weight grows, so that darker always means
 * more attention: the sum of the channels never rises. */
START_TEST(test_ramp_darkens_steadily)
{
	char hex[8];
	int last = 3 * 255 + 1, was_dark = 0;
	for (int k = 0; k <= 200; k++) {
		unsigned r, g, b;
		fmt_svg_ramp(k / 200.0, hex);
		ck_assert_int_eq(sscanf(hex, "#%2x%2x%2x", &r, &g, &b), 3);
		ck_assert_int_le((int)(r + g + b), last);
		last = (int)(r + g + b);
		/* text turns white once, and stays white */
		int dark = fmt_svg_dark(k / 200.0);
		ck_assert_int_ge(dark, was_dark);
		was_dark = dark;
	}
	ck_assert_int_eq(was_dark, 1);
}
END_TEST

START_TEST(test_document_shape)
{
	struct model m;
	struct trace tr;
	builtin_trace(&m, &tr, je, 3, 1u << SCORER_dot);
	const char *s = render(&tr, 0, 4);
	ck_assert_msg(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			      "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			      "version=\"1.1\" width=\"", 93) == 0, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "viewBox=\"0 0 "));
	ck_assert_ptr_nonnull(strstr(s, "font-family=\"'DejaVu Sans', Arial"));
	ck_assert_ptr_nonnull(strstr(s, "<title>dot scorer: je suis étudiant "
				     "→ i am a student &lt;/s&gt;</title>"));
	ck_assert_int_eq(count(s, "<rect class=\"cell\""),
			 tr.n * tr.runs[0].nsteps);
	ck_assert_int_eq(count(s, "<text class=\"value\""),
			 tr.n * tr.runs[0].nsteps);
	ck_assert_int_eq(count(s, "<text class=\"col-label\""), tr.n);
	ck_assert_int_eq(count(s, "<text class=\"row-label\""),
			 tr.runs[0].nsteps);
	ck_assert_int_eq(count(s, "<stop "), 9);
	ck_assert_int_eq(count(s, "class=\"panel\""), 1);
	ck_assert_int_eq(count(s, "panel-title"), 0);
	size_t len = strlen(s);
	ck_assert_str_eq(s + len - 7, "</svg>\n");
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* Each cell's text is its weight with the precision, printed here with
 * printf independently of the formatter's number code, in row order. */
START_TEST(test_values_in_order)
{
	struct model m;
	struct trace tr;
	char want[64];
	builtin_trace(&m, &tr, je, 3, 1u << SCORER_dot);
	for (int prec = 0; prec <= 6; prec += 3) {
		const char *p = render(&tr, 0, prec);
		for (int t = 1; t <= tr.runs[0].nsteps; t++) {
			const struct trace_rec *r =
				trace_find(&tr, REC_SOFTMAX, 0, t, 0);
			for (int i = 0; i < tr.n; i++) {
				p = strstr(p, "<text class=\"value\"");
				ck_assert_ptr_nonnull(p);
				p = strchr(p, '>') + 1;
				snprintf(want, sizeof want, "%.*f</text>", prec,
					 r->result[i]);
				ck_assert_msg(strncmp(p, want, strlen(want)) == 0,
					      "t=%d i=%d: want %s", t, i, want);
			}
		}
	}
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_largest_in_bold)
{
	struct model m;
	struct trace tr;
	builtin_trace(&m, &tr, je, 3, 1u << SCORER_dot);
	const char *s = render(&tr, 0, 4);
	/* one bold value a row */
	ck_assert_int_eq(count(s, "font-weight=\"bold\">"),
			 tr.runs[0].nsteps);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_same_bytes)
{
	struct model m;
	struct trace tr;
	builtin_trace(&m, &tr, je, 3, SCORER_ALL);
	char *first = strdup(render(&tr, FMT_SVG_ALL_RUNS, 4));
	ck_assert_str_eq(render(&tr, FMT_SVG_ALL_RUNS, 4), first);
	free(first);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_all_runs_side_by_side)
{
	struct model m;
	struct trace tr;
	builtin_trace(&m, &tr, je, 3, SCORER_ALL);
	const char *s = render(&tr, FMT_SVG_ALL_RUNS, 4);
	int cells = 0;
	for (int k = 0; k < tr.nruns; k++)
		cells += tr.n * tr.runs[k].nsteps;
	ck_assert_int_eq(count(s, "<rect class=\"cell\""), cells);
	/* a panel for every scorer of the built-in model, each titled */
	ck_assert_int_eq(tr.nruns, __builtin_popcount(model_scorers(&m)));
	ck_assert_int_eq(count(s, "class=\"panel\""), tr.nruns);
	ck_assert_int_eq(count(s, "class=\"panel-title\""), tr.nruns);
	for (int k = 0; k < tr.nruns; k++) {
		char id[64];
		snprintf(id, sizeof id, "id=\"run-%s\"",
			 trace_scorer_name(tr.runs[k].scorer));
		ck_assert_ptr_nonnull(strstr(s, id));
	}
	ck_assert_ptr_nonnull(strstr(s, "<title>dot, general, concat"));
	/* the panels laid out for a 16:9 slide: neither a strip nor a
	 * tower (three a row made 796x1080 on the slide), and on more than
	 * one row */
	if (tr.nruns > 3) {
		int w, h, y1, yn;
		ck_assert_int_eq(sscanf(strstr(s, "viewBox=\"0 0 "),
					"viewBox=\"0 0 %d %d\"", &w, &h), 2);
		ck_assert_int_ge(w * 10, h * 13);
		ck_assert_int_le(w * 10, h * 24);
		const char *p = strstr(s, "class=\"panel-title\" x=\"");
		ck_assert_int_eq(sscanf(p, "class=\"panel-title\" x=\"%*d\" "
					"y=\"%d\"", &y1), 1);
		for (const char *q; (q = strstr(p + 1, "class=\"panel-title\""));)
			p = q;
		ck_assert_int_eq(sscanf(p, "class=\"panel-title\" x=\"%*d\" "
					"y=\"%d\"", &yn), 1);
		ck_assert_int_gt(yn, y1);
	}
	ck_assert_ptr_nonnull(strstr(s, " scorers: je suis étudiant</title>"));
	/* one run of the three alone */
	s = render(&tr, 2, 4);
	ck_assert_int_eq(count(s, "class=\"panel\""), 1);
	ck_assert_ptr_nonnull(strstr(s, "<title>concat scorer: "));
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* Words that could break the XML, in a model made for it. */
static const char escape_model[] =
	"attn-trace-model 1\nembedding 1\nhidden 1\nattention 1\n"
	"[source]\na&b<\"c\"> 1\nl'autre 0.5\n"
	"[target]\n<s> 0.1\n</s> 0.2\nx'y&z 0.3\n"
	"[encoder.W_x]\n1\n[encoder.W_h]\n0.5\n[encoder.b]\n0\n"
	"[decoder.W_x]\n1\n[decoder.W_h]\n0.5\n[decoder.b]\n0\n"
	"[general.W]\n1\n[concat.W]\n1 1\n[concat.v]\n1\n"
	"[output.W_c]\n1 1\n[output.W_s]\n<s> -1\n</s> 0.5\nx'y&z 1\n";

START_TEST(test_words_escaped)
{
	struct model m;
	struct trace tr;
	struct errbuf err;
	ck_assert_int_eq(model_parse(&m, escape_model, sizeof escape_model - 1,
				     "escape", &err), 0);
	int src[] = { 0, 1 }, tgt[] = { 2 };
	ck_assert_int_eq(trace_build(&tr, &m, src, 2, tgt, 1, SCORER_ALL, NULL,
				     &err), 0);
	const char *s = render(&tr, FMT_SVG_ALL_RUNS, 2);
	ck_assert_ptr_nonnull(strstr(s, ">a&amp;b&lt;&quot;c&quot;&gt;</text>"));
	ck_assert_ptr_nonnull(strstr(s, ">l&apos;autre</text>"));
	ck_assert_ptr_nonnull(strstr(s, "x&apos;y&amp;z"));
	ck_assert_ptr_null(strstr(s, "a&b"));
	ck_assert_ptr_null(strstr(s, "<\"c\">"));
	ck_assert_ptr_null(strstr(s, "x'y"));
	ck_assert_ptr_null(strstr(s, "<s>"));
	ck_assert_ptr_null(strstr(s, "</s>"));
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* Under teacher forcing a row whose output is not the target shows the
 * target beside it. */
START_TEST(test_wrong_output_shows_target)
{
	struct model m;
	struct trace tr;
	struct errbuf err;
	testmodel_load(&m, "tiny.model");
	int src[] = { 0, 1, 2 }, tgt[] = { 2, 3, 4 };
	ck_assert_int_eq(trace_build(&tr, &m, src, 3, tgt, 3, 1u << SCORER_dot, NULL,
				     &err), 0);
	int wrong = 0;
	for (int t = 1; t <= tr.runs[0].nsteps; t++) {
		int want = t <= 3 ? tgt[t - 1] : m.eos;
		wrong += tr.runs[0].pred[t - 1] != want;
	}
	ck_assert_int_gt(wrong, 0); /* the tiny model is wrong somewhere */
	const char *s = render(&tr, 0, 4);
	ck_assert_int_eq(count(s, "<tspan class=\"target\""), wrong);
	ck_assert_ptr_nonnull(strstr(s, "teacher forcing with the target: "
				     "one two three</text>"));
	/* short words stay level */
	ck_assert_ptr_null(strstr(s, "rotate("));
	trace_free(&tr);
	model_free(&m);
}
END_TEST

/* Long source words are turned 45 degrees, and the picture grows to hold
 * them. */
START_TEST(test_long_words_turn)
{
	static const char *const zone[] = { "zone", "économique",
					    "européenne" };
	struct model m;
	struct trace tr;
	builtin_trace(&m, &tr, zone, 3, 1u << SCORER_dot);
	const char *s = render(&tr, 0, 4);
	ck_assert_int_eq(count(s, "transform=\"rotate(-45 "), 3);
	int width = 0;
	ck_assert_int_eq(sscanf(strstr(s, " width=\""), " width=\"%d", &width),
			 1);
	/* the title alone, 68 characters in 18 px bold, needs about 0.55 em
	 * a character in DejaVu Sans Bold, and the margins 48 px */
	ck_assert_int_gt(width, 68 * 10 + 48);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_bad_run_writes_nothing)
{
	struct model m;
	struct trace tr;
	struct fmt_svg_opts o;
	builtin_trace(&m, &tr, je, 3, 1u << SCORER_dot);
	fmt_svg_opts_default(&o);
	FILE *mem = open_memstream(&buf, &buflen);
	ck_assert_int_eq(fmt_svg_heatmap(mem, &tr, 1, &o), -1);
	ck_assert_int_eq(fmt_svg_heatmap(mem, &tr, -2, &o), -1);
	fclose(mem);
	ck_assert_uint_eq(buflen, 0);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

START_TEST(test_write_error_reported)
{
	struct model m;
	struct trace tr;
	struct fmt_svg_opts o;
	builtin_trace(&m, &tr, je, 3, SCORER_ALL);
	fmt_svg_opts_default(&o);
	FILE *full = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(full);
	setvbuf(full, NULL, _IONBF, 0);
	ck_assert_int_eq(fmt_svg_heatmap(full, &tr, FMT_SVG_ALL_RUNS, &o), -1);
	fclose(full);
	trace_free(&tr);
	model_free(&m);
}
END_TEST

static Suite *svg_suite(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("heatmap");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_ramp_ends_and_clamps);
	tcase_add_test(tc, test_many_rows_fit_a_slide);
	tcase_add_test(tc, test_ramp_darkens_steadily);
	tcase_add_test(tc, test_document_shape);
	tcase_add_test(tc, test_values_in_order);
	tcase_add_test(tc, test_largest_in_bold);
	tcase_add_test(tc, test_same_bytes);
	tcase_add_test(tc, test_all_runs_side_by_side);
	tcase_add_test(tc, test_words_escaped);
	tcase_add_test(tc, test_wrong_output_shows_target);
	tcase_add_test(tc, test_long_words_turn);
	tcase_add_test(tc, test_bad_run_writes_nothing);
	tcase_add_test(tc, test_write_error_reported);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(svg_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
