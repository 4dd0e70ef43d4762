/* check_model.c: the model file parser, its error messages, and vocabulary
 * look-up.  Each malformed file is the good one below with one edit. */
#include "config.h"

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkstemp, write, unlink */
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "scorer.h"

/* E=2, H=3, A=2 so that a swapped dimension cannot parse.  The numbers on
 * the right are line numbers, which the error tests below rely on. */
static const char GOOD[] =
	"# a tiny model for the tests\n"     /*  1 */
	"attn-trace-model 1\n"               /*  2 */
	"embedding 2\n"                      /*  3 */
	"hidden 3      # H\n"                /*  4 */
	"attention 2\n"                      /*  5 */
	"\n"                                 /*  6 */
	"[source]\n"                         /*  7 */
	"je 0.1 0.2\n"                       /*  8 */
	"suis -1 2.5e-1\n"                   /*  9 */
	"\xc3\xa9tudiant 3 4\n"              /* 10 étudiant */
	"[target]   # with <s> and </s>\n"   /* 11 */
	"<s> 0 0\n"                          /* 12 */
	"</s> 1 1\n"                         /* 13 */
	"I 0.5 -0.5\n"                       /* 14 */
	"am\t2\t3\n"                         /* 15 */
	"[encoder.W_x]\n"                    /* 16 */
	"1 2\n"                              /* 17 */
	"3 4\n"                              /* 18 */
	"5 6\n"                              /* 19 */
	"[encoder.W_h]\n"                    /* 20 */
	"1 0 0\n"                            /* 21 */
	"0 1 0\n"                            /* 22 */
	"0 0 1\n"                            /* 23 */
	"[encoder.b]\n"                      /* 24 */
	"0.1 0.2 0.3\n"                      /* 25 */
	"[decoder.W_x]\n"                    /* 26 */
	"-1 -2\n"                            /* 27 */
	"-3 -4\n"                            /* 28 */
	"-5 -6\n"                            /* 29 */
	"[decoder.W_h]\n"                    /* 30 */
	"2 0 0\n"                            /* 31 */
	"0 2 0\n"                            /* 32 */
	"0 0 2\n"                            /* 33 */
	"[decoder.b]\n"                      /* 34 */
	"-0.1 -0.2 -0.3\n"                   /* 35 */
	"[general.W]\n"                      /* 36 */
	"11 12 13\n"                         /* 37 */
	"21 22 23\n"                         /* 38 */
	"31 32 33\n"                         /* 39 */
	"[concat.W]\n"                       /* 40 */
	"1 2 3 4 5 6\n"                      /* 41 */
	"7 8 9 10 11 12\n"                   /* 42 */
	"[concat.v]\n"                       /* 43 */
	"0.5 -0.5\n"                         /* 44 */
	"[output.W_c]\n"                     /* 45 */
	"1 0 0 0 0 0\n"                      /* 46 */
	"0 1 0 0 0 0\n"                      /* 47 */
	"0 0 1 0 0 0\n"                      /* 48 */
	"[output.W_s]\n"                     /* 49 */
	"<s> 0 0 0\n"                        /* 50 */
	"</s> 1 1 1\n"                       /* 51 */
	"i 1 2 3\n"                          /* 52 row names match case-blind */
	"am 4 5 6\n";                        /* 53 */

/* Returns a copy of GOOD with the first from replaced by to. */
static char *edit(const char *from, const char *to)
{
	const char *at = strstr(GOOD, from);
	size_t head, nf = strlen(from), nt = strlen(to);
	char *out;

	ck_assert_msg(at != NULL, "\"%s\" is not in GOOD", from);
	head = (size_t)(at - GOOD);
	out = malloc(sizeof GOOD - nf + nt);
	ck_assert_ptr_nonnull(out);
	memcpy(out, GOOD, head);
	memcpy(out + head, to, nt);
	strcpy(out + head + nt, at + nf);
	return out;
}

/* Parses text[0..len), which must fail with exactly the message want. */
static void expect_error_n(const char *text, size_t len, const char *want)
{
	static const struct model zero;
	struct model m;
	struct errbuf err;

	memset(&m, 0x5a, sizeof m);
	strcpy(err.msg, "(no message)");
	ck_assert_int_eq(model_parse(&m, text, len, "t.model", &err), -1);
	ck_assert_str_eq(err.msg, want);
	ck_assert(memcmp(&m, &zero, sizeof m) == 0); /* left empty */
	model_free(&m);
}

static void expect_error(const char *text, const char *want)
{
	expect_error_n(text, strlen(text), want);
}

/* expect_error() on GOOD with one edit. */
static void expect_edit_error(const char *from, const char *to,
			      const char *want)
{
	char *text = edit(from, to);

	expect_error(text, want);
	free(text);
}

static void parse_ok(struct model *m, const char *text, size_t len)
{
	struct errbuf err;

	strcpy(err.msg, "");
	ck_assert_msg(model_parse(m, text, len, "t.model", &err) == 0,
		      "refused: %s", err.msg);
}

START_TEST(test_good_sizes_and_vocab)
{
	struct model m;

	parse_ok(&m, GOOD, strlen(GOOD));
	ck_assert_int_eq(m.E, 2);
	ck_assert_int_eq(m.H, 3);
	ck_assert_int_eq(m.A, 2);
	ck_assert_int_eq(m.src.n, 3);
	ck_assert_str_eq(m.src.words[2], "\xc3\xa9tudiant");
	ck_assert_double_eq_tol(m.src.emb[1 * 2 + 0], -1.0, 1e-15);
	ck_assert_double_eq_tol(m.src.emb[1 * 2 + 1], 0.25, 1e-15);
	ck_assert_double_eq_tol(m.src.emb[2 * 2 + 1], 4.0, 1e-15);
	ck_assert_int_eq(m.tgt.n, 4);
	ck_assert_str_eq(m.tgt.words[2], "I");
	ck_assert_str_eq(m.tgt.folded[2], "i");
	ck_assert_int_eq(m.bos, 0);
	ck_assert_int_eq(m.eos, 1);
	ck_assert_double_eq_tol(m.tgt.emb[3 * 2 + 1], 3.0, 1e-15);
	ck_assert_str_eq(m.name, "t.model");
	model_free(&m);
	ck_assert_ptr_null(m.src.words);
	model_free(&m); /* twice is harmless */
}
END_TEST

/* Returns GOOD with its sections in the reverse order (so [output.W_s]
 * comes before [target]), from line 7 on. */
static char *reversed_sections(void)
{
	const char *first = strstr(GOOD, "\n[source]") + 1, *p;
	const char *starts[32];
	int n = 0;
	char *out = malloc(sizeof GOOD), *q;

	ck_assert_ptr_nonnull(out);
	for (p = first; p; p = strstr(p + 1, "\n[")) {
		starts[n++] = p[0] == '\n' ? p + 1 : p;
		if (n == 32)
			break;
	}
	memcpy(out, GOOD, (size_t)(first - GOOD));
	q = out + (first - GOOD);
	for (int k = n - 1; k >= 0; k--) {
		const char *end = k + 1 < n ? starts[k + 1] : GOOD + strlen(GOOD);
		memcpy(q, starts[k], (size_t)(end - starts[k]));
		q += end - starts[k];
	}
	*q = '\0';
	return out;
}

/* Sections are found by name: the reverse order gives the same model. */
START_TEST(test_good_any_order)
{
	struct model a, b;
	struct model_param ta[MODEL_MAX_PARAMS], tb[MODEL_MAX_PARAMS];
	char *text = reversed_sections();

	ck_assert_ptr_eq(strstr(text, "[output.W_s]") < strstr(text,
			 "[target]") ? text : NULL, text);
	parse_ok(&a, GOOD, strlen(GOOD));
	parse_ok(&b, text, strlen(text));
	int na = model_param_table(&a, SCORER_ALL, ta);
	ck_assert_int_eq(model_param_table(&b, SCORER_ALL, tb), na);
	for (int k = 0; k < na; k++) {
		size_t len = (size_t)ta[k].rows * (size_t)ta[k].cols;
		ck_assert_str_eq(ta[k].section, tb[k].section);
		if (!*ta[k].slot) { /* a scorer GOOD has no weights for */
			ck_assert_int_ge(ta[k].scorer, 0);
			ck_assert_ptr_null(*tb[k].slot);
			continue;
		}
		ck_assert(memcmp(*ta[k].slot, *tb[k].slot,
				 len * sizeof(double)) == 0);
	}
	model_free(&a);
	model_free(&b);
	free(text);
}
END_TEST

/* A scorer's weights are optional: without [general.W] the model loads,
 * cannot use general, and says which weights it lacks. */
START_TEST(test_good_without_scorer_weights)
{
	struct model m;
	struct errbuf err;
	char *text = edit("[general.W]\n11 12 13\n21 22 23\n31 32 33\n", "");

	parse_ok(&m, text, strlen(text));
	ck_assert_uint_eq(model_scorers(&m) & (1u << SCORER_general), 0);
	ck_assert_uint_ne(model_scorers(&m) & (1u << SCORER_dot), 0);
	ck_assert_uint_ne(model_scorers(&m) & (1u << SCORER_concat), 0);
	ck_assert_ptr_null(model_weights(&m, "general.W"));
	ck_assert_int_eq(model_check_scorer(&m, SCORER_dot, &err), 0);
	ck_assert_int_eq(model_check_scorer(&m, SCORER_general, &err), -1);
	ck_assert_msg(strstr(err.msg, "the general scorer needs the weights "
			     "[general.W], which this model does not have")
		      != NULL, "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "it supports dot, concat") != NULL,
		      "%s", err.msg);
	model_free(&m);
	free(text);
}
END_TEST

/* A scorer's weights come all together or not at all. */
START_TEST(test_err_scorer_weights_partial)
{
	char *text = edit("[concat.v]\n0.5 -0.5\n", "");
	expect_error(text, "t.model:52:1: expected section [concat.v] as well "
		     "as [concat.W] (line 40): the concat scorer needs both, "
		     "found end of file");
	free(text);
}
END_TEST

START_TEST(test_good_matrices_row_major)
{
	struct model m;

	parse_ok(&m, GOOD, strlen(GOOD));
	/* enc.Wx is (H, E): row i holds the numbers of line 17 + i */
	ck_assert_double_eq_tol(m.enc.Wx[0 * 2 + 1], 2.0, 1e-15);
	ck_assert_double_eq_tol(m.enc.Wx[1 * 2 + 0], 3.0, 1e-15);
	ck_assert_double_eq_tol(m.enc.Wx[2 * 2 + 1], 6.0, 1e-15);
	ck_assert_double_eq_tol(m.enc.Wh[1 * 3 + 1], 1.0, 1e-15);
	ck_assert_double_eq_tol(m.enc.b[2], 0.3, 1e-15);
	ck_assert_double_eq_tol(m.dec.Wx[2 * 2 + 0], -5.0, 1e-15);
	ck_assert_double_eq_tol(m.dec.Wh[2 * 3 + 2], 2.0, 1e-15);
	ck_assert_double_eq_tol(m.dec.b[0], -0.1, 1e-15);
	/* general.W not transposed: Wg[i*H + j] is row i, column j */
	ck_assert_double_eq_tol(model_weights(&m, "general.W")[0 * 3 + 1], 12.0, 1e-15);
	ck_assert_double_eq_tol(model_weights(&m, "general.W")[1 * 3 + 0], 21.0, 1e-15);
	ck_assert_double_eq_tol(model_weights(&m, "general.W")[2 * 3 + 1], 32.0, 1e-15);
	/* concat.W is (A, 2H) = (2, 6) */
	ck_assert_double_eq_tol(model_weights(&m, "concat.W")[0 * 6 + 5], 6.0, 1e-15);
	ck_assert_double_eq_tol(model_weights(&m, "concat.W")[1 * 6 + 0], 7.0, 1e-15);
	ck_assert_double_eq_tol(model_weights(&m, "concat.v")[1], -0.5, 1e-15);
	ck_assert_double_eq_tol(m.Wc[2 * 6 + 2], 1.0, 1e-15);
	ck_assert_double_eq_tol(m.Wc[2 * 6 + 3], 0.0, 1e-15);
	/* W_s rows follow [target]: row 2 is "I", row 3 is "am" */
	ck_assert_double_eq_tol(m.Ws[1 * 3 + 2], 1.0, 1e-15);
	ck_assert_double_eq_tol(m.Ws[2 * 3 + 0], 1.0, 1e-15);
	ck_assert_double_eq_tol(m.Ws[3 * 3 + 2], 6.0, 1e-15);
	model_free(&m);
}
END_TEST

START_TEST(test_good_crlf_and_no_final_newline)
{
	char *crlf = malloc(2 * sizeof GOOD);
	struct model m;
	size_t i, n = 0;

	ck_assert_ptr_nonnull(crlf);
	for (i = 0; GOOD[i] != '\0'; i++) {
		if (GOOD[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = GOOD[i];
	}
	parse_ok(&m, crlf, n);
	ck_assert_double_eq_tol(m.Ws[3 * 3 + 2], 6.0, 1e-15);
	model_free(&m);
	parse_ok(&m, crlf, n - 2); /* no final CRLF */
	ck_assert_double_eq_tol(m.Ws[3 * 3 + 2], 6.0, 1e-15);
	model_free(&m);
	parse_ok(&m, GOOD, strlen(GOOD) - 1); /* no final LF */
	ck_assert_double_eq_tol(m.Ws[3 * 3 + 2], 6.0, 1e-15);
	model_free(&m);
	free(crlf);
}
END_TEST

/* The text need not be NUL-terminated: a number running to the very end
 * of the buffer must not be read past it. */
START_TEST(test_good_not_nul_terminated)
{
	size_t n = strlen(GOOD) - 1;
	char *exact = malloc(n);
	struct model m;

	ck_assert_ptr_nonnull(exact);
	memcpy(exact, GOOD, n);
	parse_ok(&m, exact, n);
	model_free(&m);
	free(exact);
}
END_TEST

START_TEST(test_builtin)
{
	struct model m;
	struct errbuf err;

	ck_assert_msg(model_load_builtin(&m, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(m.name, "<built-in toy4.model>");
	ck_assert_int_ge(m.tgt.n, 2);
	model_free(&m);
}
END_TEST

/* The built-in models by name, each the bytes of its file in data/. */
static void builtin_is_file(const char *name, const unsigned char *text,
			    size_t len)
{
	const char *dir = getenv("srcdir");
	char path[4096];
	size_t flen;
	struct errbuf err;
	snprintf(path, sizeof path, "%s/data/%s.model", dir ? dir : ".", name);
	char *file = util_read_file(path, MODEL_MAX_BYTES, &flen, &err);
	ck_assert_msg(file != NULL, "%s", err.msg);
	ck_assert_msg(flen == len && memcmp(file, text, len) == 0,
		      "the built-in %s is not %s", name, path);
	ck_assert_int_eq(text[len], 0);
	free(file);
}

START_TEST(test_builtin_named)
{
	struct model m;
	struct errbuf err;

	ck_assert_msg(model_load_named(&m, "toy4", &err) == 0, "%s", err.msg);
	ck_assert_str_eq(m.name, "<built-in toy4.model>");
	model_free(&m);
	ck_assert_msg(model_load_named(&m, "handset4", &err) == 0, "%s",
		      err.msg);
	ck_assert_str_eq(m.name, "<built-in handset4.model>");
	/* six French words, nine English ones with <s> and </s>; A = 3 */
	ck_assert_int_eq(m.src.n, 6);
	ck_assert_int_eq(m.tgt.n, 9);
	ck_assert_int_eq(m.A, 3);
	ck_assert_double_eq_tol(model_weights(&m, "general.W")[0], 2.5, 1e-15);
	model_free(&m);
	ck_assert_int_eq(model_load_named(&m, "toy5", &err), -1);
	ck_assert_str_eq(err.msg, "expected a built-in model (toy4, "
			 "handset4, bahdanau4, self4, localp4, feed4, hard4, longattn8, longfixed8 or caption4), found \"toy5\"");
	ck_assert_ptr_null(m.name);
	ck_assert(model_builtin_name("toy4") && model_builtin_name("handset4"));
	ck_assert(!model_builtin_name("Toy4") && !model_builtin_name("toy4.model"));
	builtin_is_file("toy4", model_builtin_text, model_builtin_len);
	builtin_is_file("handset4", model_handset4_text, model_handset4_len);
	builtin_is_file("bahdanau4", model_bahdanau4_text, model_bahdanau4_len);
	ck_assert_msg(model_load_named(&m, "bahdanau4", &err) == 0, "%s",
		      err.msg);
	ck_assert_str_eq(m.name, "<built-in bahdanau4.model>");
	ck_assert_int_eq(m.arch, ARCH_bahdanau);
	model_free(&m);
	builtin_is_file("self4", model_self4_text, model_self4_len);
	/* self4 has both attention groups, the others neither */
	ck_assert(model_builtin_name("self4"));
	ck_assert_msg(model_load_named(&m, "self4", &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(model_mha(&m), MHA_PARAM_ALL);
	/* row 1 of [self.W_Q] is "1.62 -2.52 0 0": rows are output features */
	ck_assert_double_eq_tol(model_weights(&m, "self.W_Q")[1], -2.52, 1e-15);
	ck_assert_double_eq_tol(model_weights(&m, "cross.W_O")[2], 1, 1e-15);
	model_free(&m);
	ck_assert_msg(model_load_named(&m, "handset4", &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(model_mha(&m), 0);
	model_free(&m);
	/* localp4 has the local-p window's sections, and is Luong's */
	builtin_is_file("localp4", model_localp4_text, model_localp4_len);
	ck_assert(model_builtin_name("localp4"));
	ck_assert_msg(model_load_named(&m, "localp4", &err) == 0, "%s",
		      err.msg);
	ck_assert_ptr_nonnull(m.Wp);
	ck_assert_ptr_nonnull(m.vp);
	ck_assert_int_eq(m.arch, ARCH_luong);
	ck_assert_int_eq(m.input_feeding, 0);
	model_free(&m);
	/* feed4 has input feeding: its decoder's W_x is (H, E + H) */
	builtin_is_file("feed4", model_feed4_text, model_feed4_len);
	ck_assert(model_builtin_name("feed4"));
	ck_assert_msg(model_load_named(&m, "feed4", &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(m.input_feeding, 1);
	ck_assert_ptr_nonnull(model_weights(&m, "decoder.W_x"));
	model_free(&m);
}
END_TEST

/* The one list of built-in models: every name it gives loads, is a
 * built-in name and says what it is; the message list names them all. */
START_TEST(test_builtin_list)
{
	static const char *const names[] = { "toy4", "handset4", "bahdanau4",
					     "self4", "localp4", "feed4", "hard4",
					     "longattn8", "longfixed8", "caption4" };
	const char *name, *what = NULL;
	size_t k;
	for (k = 0; (name = model_builtin_nth(k, &what)); k++) {
		struct model m;
		struct errbuf err;
		ck_assert_uint_lt(k, sizeof names / sizeof names[0]);
		ck_assert_str_eq(name, names[k]);
		ck_assert(model_builtin_name(name));
		ck_assert(what && what[0]);
		ck_assert_msg(model_load_named(&m, name, &err) == 0, "%s",
			      err.msg);
		model_free(&m);
	}
	ck_assert_uint_eq(k, sizeof names / sizeof names[0]);
	ck_assert_ptr_null(model_builtin_nth(k, NULL));
	ck_assert_str_eq(model_builtin_list(),
			 "toy4, handset4, bahdanau4, self4, localp4, feed4, hard4, longattn8, longfixed8 or caption4");	/* every built-in model, glimpse6 (read by attn-trace glimpse) last */
	const char *cmd = NULL;
	for (k = 0; model_builtin_each(k, NULL, NULL); k++)
		if (k < sizeof names / sizeof names[0])
			ck_assert_str_eq(model_builtin_each(k, NULL, &cmd),
					 names[k]);
	ck_assert_uint_eq(k, sizeof names / sizeof names[0] + 1);
	ck_assert_str_eq(model_builtin_each(k - 1, &what, &cmd), "glimpse6");
	ck_assert_str_eq(cmd, "glimpse");
	ck_assert(!model_builtin_name("glimpse6"));
}
END_TEST

/* A --model argument: a built-in name, or else a path. */
START_TEST(test_load_arg)
{
	struct model m;
	struct errbuf err;

	ck_assert_msg(model_load_arg(&m, NULL, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(m.name, "<built-in toy4.model>");
	model_free(&m);
	ck_assert_msg(model_load_arg(&m, "handset4", &err) == 0, "%s",
		      err.msg);
	ck_assert_str_eq(m.name, "<built-in handset4.model>");
	model_free(&m);
	ck_assert_int_eq(model_load_arg(&m, "./handset4", &err), -1);
	ck_assert_str_eq(err.msg, "./handset4: No such file or directory");
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/check_model_XXXXXX";
	int fd = mkstemp(path);
	struct model m;
	struct errbuf err;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, GOOD, strlen(GOOD)), (int)strlen(GOOD));
	close(fd);
	ck_assert_msg(model_load_file(&m, path, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(m.name, path);
	ck_assert_int_eq(m.tgt.n, 4);
	model_free(&m);
	unlink(path);
}
END_TEST

START_TEST(test_load_file_missing)
{
	struct model m;
	struct errbuf err;

	ck_assert_int_eq(model_load_file(&m, "/nonexistent/x.model", &err), -1);
	ck_assert_str_eq(err.msg,
			 "/nonexistent/x.model: No such file or directory");
	model_free(&m);
}
END_TEST

START_TEST(test_read_file_too_large)
{
	char path[] = "/tmp/check_model_XXXXXX";
	int fd = mkstemp(path);
	struct errbuf err;
	size_t len = 0;
	char *buf;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "12345", 5), 5);
	close(fd);
	ck_assert_ptr_null(util_read_file(path, 4, &len, &err));
	ck_assert_msg(strstr(err.msg, ": file is larger than 4 bytes") != NULL,
		      "%s", err.msg);
	buf = util_read_file(path, 5, &len, &err);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(len, 5);
	ck_assert_str_eq(buf, "12345");
	free(buf);
	unlink(path);
}
END_TEST

/* ---- malformed files: one test per kind ---- */

START_TEST(test_err_empty_file)
{
	expect_error("", "t.model:1:1: expected the line "
		     "\"attn-trace-model 1\", found end of file");
	expect_error("# only a comment\n\n", "t.model:3:1: expected the line "
		     "\"attn-trace-model 1\", found end of file");
}
END_TEST

START_TEST(test_err_bad_magic)
{
	expect_edit_error("attn-trace-model 1", "attn-trace-modle 1",
			  "t.model:2:1: expected the line "
			  "\"attn-trace-model 1\", found \"attn-trace-modle\"");
}
END_TEST

START_TEST(test_err_bad_version)
{
	expect_edit_error("attn-trace-model 1", "attn-trace-model 2",
			  "t.model:2:18: expected format version 1, "
			  "found \"2\"");
	expect_edit_error("attn-trace-model 1", "attn-trace-model",
			  "t.model:2:17: expected format version 1, "
			  "found end of line");
}
END_TEST

START_TEST(test_err_size_missing)
{
	expect_edit_error("hidden 3      # H\n", "",
			  "t.model:4:1: expected the line \"hidden N\", "
			  "found \"attention\"");
	expect_error("attn-trace-model 1\nembedding 2\n",
		     "t.model:3:1: expected the line \"hidden N\", "
		     "found end of file");
	expect_edit_error("embedding 2", "embedding",
			  "t.model:3:10: expected a size from 1 to 64, "
			  "found end of line");
}
END_TEST

START_TEST(test_err_size_not_whole)
{
	expect_edit_error("embedding 2", "embedding 2.5",
			  "t.model:3:11: expected a size from 1 to 64, "
			  "found \"2.5\"");
}
END_TEST

START_TEST(test_err_size_zero)
{
	expect_edit_error("hidden 3", "hidden 0",
			  "t.model:4:8: expected a size from 1 to 64, "
			  "found \"0\"");
}
END_TEST

START_TEST(test_err_size_negative)
{
	expect_edit_error("attention 2", "attention -2",
			  "t.model:5:11: expected a size from 1 to 64, "
			  "found \"-2\"");
}
END_TEST

/* Refused before anything is allocated (ASan would catch a huge one). */
START_TEST(test_err_size_huge)
{
	expect_edit_error("hidden 3", "hidden 1000000000000",
			  "t.model:4:8: expected a size from 1 to 64, "
			  "found \"1000000000000\"");
	expect_edit_error("hidden 3", "hidden 65",
			  "t.model:4:8: expected a size from 1 to 64, "
			  "found \"65\"");
}
END_TEST

START_TEST(test_err_size_extra_field)
{
	expect_edit_error("embedding 2", "embedding 2 3",
			  "t.model:3:13: expected end of line, found \"3\"");
}
END_TEST

START_TEST(test_err_section_expected)
{
	expect_edit_error("\n[source]", "\nsource 3\n[source]",
			  "t.model:7:1: expected a section header such as "
			  "[source], found \"source\"");
}
END_TEST

START_TEST(test_err_section_unknown)
{
	expect_edit_error("[encoder.W_h]", "[encoder.Wh]",
			  "t.model:20:1: expected a section of the model "
			  "format (doc/model-format.md), found unknown section "
			  "[encoder.Wh]");
}
END_TEST

START_TEST(test_err_section_twice)
{
	expect_edit_error("[encoder.b]", "[decoder.b]",
			  "t.model:34:1: expected each section once, found a "
			  "second [decoder.b] (the first is on line 24)");
}
END_TEST

START_TEST(test_err_section_duplicate)
{
	expect_edit_error("[encoder.b]", "  [source]",
			  "t.model:24:3: expected each section once, found a "
			  "second [source] (the first is on line 7)");
	expect_edit_error("am 4 5 6\n", "am 4 5 6\n[concat.v]\n",
			  "t.model:54:1: expected each section once, found a "
			  "second [concat.v] (the first is on line 43)");
}
END_TEST

START_TEST(test_err_section_missing_at_eof)
{
	char *text = edit("[output.W_s]", "");

	text[strlen(text) - strlen("\n<s> 0 0 0\n</s> 1 1 1\ni 1 2 3\n"
				   "am 4 5 6\n")] = '\0';
	expect_error(text, "t.model:49:1: expected section [output.W_s], "
		     "found end of file");
	free(text);
}
END_TEST

START_TEST(test_err_too_few_numbers)
{
	expect_edit_error("suis -1 2.5e-1", "suis -1",
			  "t.model:9:8: expected 2 numbers, found 1");
	expect_edit_error("\n0.5 -0.5", "\n0.5   # v",
			  "t.model:44:4: expected 2 numbers, found 1");
}
END_TEST

START_TEST(test_err_too_many_numbers)
{
	expect_edit_error("\n3 4\n", "\n3 4 9 10\n",
			  "t.model:18:5: expected 2 numbers, found 4");
}
END_TEST

START_TEST(test_err_too_few_rows)
{
	expect_edit_error("5 6\n", "",
			  "t.model:19:1: expected 3 rows in [encoder.W_x], "
			  "found 2");
	expect_edit_error("am 4 5 6\n", "",
			  "t.model:53:1: expected 4 rows in [output.W_s], "
			  "found 3");
}
END_TEST

START_TEST(test_err_too_many_rows)
{
	expect_edit_error("0.1 0.2 0.3\n", "0.1 0.2 0.3\n 0.4 0.5 0.6\n",
			  "t.model:26:2: expected only 1 row in [encoder.b], "
			  "found another row");
}
END_TEST

START_TEST(test_err_not_a_number)
{
	expect_edit_error("\n0.5 -0.5", "\n0.5 abc",
			  "t.model:44:5: expected a number, found \"abc\"");
	expect_edit_error("\n0.5 -0.5", "\n0.5 -0.5x",
			  "t.model:44:5: expected a number, found \"-0.5x\"");
	expect_edit_error("\n0.5 -0.5", "\n0.5 .5",
			  "t.model:44:5: expected a number, found \".5\"");
}
END_TEST

START_TEST(test_err_nan)
{
	expect_edit_error("-3 -4", "-3 nan",
			  "t.model:28:4: expected a number, found \"nan\"");
}
END_TEST

START_TEST(test_err_inf)
{
	expect_edit_error("-3 -4", "-inf -4",
			  "t.model:28:1: expected a number, found \"-inf\"");
}
END_TEST

START_TEST(test_err_hex)
{
	expect_edit_error("1 2 3 4 5 6", "1 2 3 0x1p3 5 6",
			  "t.model:41:7: expected a number, found \"0x1p3\"");
}
END_TEST

START_TEST(test_err_overflow)
{
	expect_edit_error("7 8 9 10", "7 8 1e999 10",
			  "t.model:42:5: expected a number that fits in a "
			  "double, found \"1e999\"");
}
END_TEST

/* The largest weights keep every sum of the arithmetic finite; one past
 * them could overflow (fuzz_model found 1e300 and -1.1e308 making NaN). */
START_TEST(test_err_weight_too_large)
{
	expect_edit_error("7 8 9 10", "7 8 1e300 10",
			  "t.model:42:5: expected a number from -1e6 to 1e6, "
			  "found \"1e300\"");
	expect_edit_error("7 8 9 10", "7 8 -1000000.5 10",
			  "t.model:42:5: expected a number from -1e6 to 1e6, "
			  "found \"-1000000.5\"");
}
END_TEST

START_TEST(test_good_weight_at_limit)
{
	char *text = edit("7 8 9 10", "7 8 1e6 -1000000");
	struct model m;

	parse_ok(&m, text, strlen(text));
	free(text);
	model_free(&m);
}
END_TEST

START_TEST(test_err_byte_order_mark)
{
	char *text = edit("# a tiny model for the tests\n",
			  "\xef\xbb\xbf" "attn-trace-model 1\n");

	expect_error(text, "t.model:1:1: expected the line \"attn-trace-model"
		     " 1\", found a byte order mark (U+FEFF); save the file "
		     "as UTF-8 without one");
	free(text);
}
END_TEST

START_TEST(test_err_duplicate_word)
{
	expect_edit_error("suis", "JE",
			  "t.model:9:1: expected a new word in [source], "
			  "found \"JE\", already on line 8");
	expect_edit_error("suis", "\xc3\x89TUDIANT",
			  "t.model:10:1: expected a new word in [source], "
			  "found \"\xc3\xa9tudiant\", already on line 9");
}
END_TEST

START_TEST(test_err_word_too_long)
{
	char word[66];

	memset(word, 'a', 65);
	word[65] = '\0';
	expect_edit_error("suis", word,
			  "t.model:9:1: expected a word of at most 64 bytes, "
			  "found one of 65 bytes");
}
END_TEST

START_TEST(test_err_invalid_utf8)
{
	expect_edit_error("suis", "su\xffis",
			  "t.model:9:3: expected UTF-8 text, found the byte "
			  "0xFF");
	expect_edit_error("# a tiny", "# a \xc3(tiny",
			  "t.model:1:5: expected UTF-8 text, found the byte "
			  "0xC3");
	expect_error("attn-trace-model 1 \xe4\xb8",
		     "t.model:1:20: expected UTF-8 text, found the byte 0xE4");
}
END_TEST

START_TEST(test_err_control_character)
{
	expect_edit_error("suis", "su\x07is",
			  "t.model:9:3: expected text, found the control "
			  "character U+0007");
	expect_edit_error("suis", "su\ris",
			  "t.model:9:3: expected text, found the control "
			  "character U+000D");
	expect_edit_error("suis", "su\xc2\x85is",
			  "t.model:9:3: expected text, found the control "
			  "character U+0085");
}
END_TEST

START_TEST(test_err_nul_byte)
{
	char *text = edit("suis", "suXs");

	*strchr(text, 'X') = '\0';
	expect_error_n(text, sizeof GOOD - 1,
		       "t.model:9:3: expected text, found a NUL byte");
	free(text);
}
END_TEST

/* 4097 source words "w0" .. "w4096". */
START_TEST(test_err_vocab_too_large)
{
	const char *head = "attn-trace-model 1\nembedding 1\nhidden 1\n"
			   "attention 1\n[source]\n";
	size_t size = strlen(head) + 4097 * 10 + 1, n;
	char *text = malloc(size);
	int i;

	ck_assert_ptr_nonnull(text);
	n = (size_t)snprintf(text, size, "%s", head);
	for (i = 0; i <= 4096; i++)
		n += (size_t)snprintf(text + n, size - n, "w%d 1\n", i);
	expect_error(text, "t.model:4102:1: expected at most 4096 words in "
		     "[source], found more");
	free(text);
}
END_TEST

START_TEST(test_err_vocab_empty)
{
	expect_edit_error("je 0.1 0.2\nsuis -1 2.5e-1\n\xc3\xa9tudiant 3 4\n",
			  "# none\n",
			  "t.model:9:1: expected at least one word in "
			  "[source], found [target]");
}
END_TEST

START_TEST(test_err_missing_bos)
{
	expect_edit_error("<s> 0 0", "<t> 0 0",
			  "t.model:11:1: expected [target] to hold the word "
			  "\"<s>\", found no such word");
}
END_TEST

START_TEST(test_err_missing_eos)
{
	expect_edit_error("</s> 1 1\n", "",
			  "t.model:11:1: expected [target] to hold the word "
			  "\"</s>\", found no such word");
}
END_TEST

START_TEST(test_err_ws_order)
{
	expect_edit_error("i 1 2 3", "am 1 2 3",
			  "t.model:52:1: expected the row of \"I\", "
			  "found \"am\"");
}
END_TEST

/* The self/cross-attention groups: optional, all or none, E x E. */
START_TEST(test_mha_sections)
{
	struct model m;
	/* GOOD has E = 2: four self-attention sections before [output.W_c] */
	char *text = edit("[output.W_c]\n", "[self.W_Q]\n1 2\n3 4\n"
			  "[self.W_K]\n5 6\n7 8\n[self.W_V]\n-1 0\n0 -2\n"
			  "[self.W_O]\n0.5 0.25\n0 1\n[output.W_c]\n");
	parse_ok(&m, text, strlen(text));
	ck_assert_uint_eq(model_mha(&m), MHA_PARAM_BIT(MHA_SELF));
	ck_assert_double_eq(m.mha[MHA_SELF][MHA_Q][1], 2); /* row 0, col 1 */
	ck_assert_double_eq(m.mha[MHA_SELF][MHA_O][1], 0.25);
	ck_assert_ptr_null(m.mha[MHA_CROSS][MHA_Q]);
	model_free(&m);
	free(text);
	parse_ok(&m, GOOD, strlen(GOOD));
	ck_assert_uint_eq(model_mha(&m), 0);
	model_free(&m);
	/* one section of the group without the others */
	text = edit("[output.W_c]\n", "[cross.W_K]\n1 2\n3 4\n"
		    "[output.W_c]\n");
	expect_error(text, "t.model:57:1: expected section [cross.W_Q] as "
		     "well as [cross.W_K] (line 45): the cross-attention "
		     "needs both, found end of file");
	free(text);
	/* E x E: a row of three numbers where E = 2 */
	text = edit("[output.W_c]\n", "[self.W_Q]\n1 2 3\n");
	expect_error(text, "t.model:46:5: expected 2 numbers, found 3");
	free(text);
}
END_TEST

/* ---- vocabulary look-up ---- */

START_TEST(test_vocab_find)
{
	struct model m;

	parse_ok(&m, GOOD, strlen(GOOD));
	ck_assert_int_eq(vocab_find(&m.src, "je"), 0);
	ck_assert_int_eq(vocab_find(&m.src, "JE"), 0);
	ck_assert_int_eq(vocab_find(&m.src, "Suis"), 1);
	ck_assert_int_eq(vocab_find(&m.src, "\xc3\x89TUDIANT"), 2);
	ck_assert_int_eq(vocab_find(&m.src, "etudiant"), -1);
	ck_assert_int_eq(vocab_find(&m.src, ""), -1);
	ck_assert_int_eq(vocab_find(&m.tgt, "i"), 2);
	ck_assert_int_eq(vocab_find(&m.tgt, "</S>"), 1);
	model_free(&m);
}
END_TEST

START_TEST(test_vocab_closest)
{
	struct model m;
	int out[4] = { -1, -1, -1, -1 };

	parse_ok(&m, GOOD, strlen(GOOD));
	/* "etudiant" is 1 edit from "étudiant" (one code point, two bytes) */
	ck_assert_int_eq(vocab_closest(&m.src, "etudiant", out, 1), 1);
	ck_assert_int_eq(out[0], 2);
	/* "Sui": suis 1, je 3, étudiant 7 */
	ck_assert_int_eq(vocab_closest(&m.src, "Sui", out, 4), 3);
	ck_assert_int_eq(out[0], 1);
	ck_assert_int_eq(out[1], 0);
	ck_assert_int_eq(out[2], 2);
	/* "x": I 1, am 2, <s> 3, </s> 4 */
	ck_assert_int_eq(vocab_closest(&m.tgt, "x", out, 4), 4);
	ck_assert_int_eq(out[0], 2);
	ck_assert_int_eq(out[1], 3);
	ck_assert_int_eq(out[2], 0);
	ck_assert_int_eq(out[3], 1);
	/* ties keep vocabulary order: "A" is 1 from both "I" and "am" */
	ck_assert_int_eq(vocab_closest(&m.tgt, "A", out, 2), 2);
	ck_assert_int_eq(out[0], 2);
	ck_assert_int_eq(out[1], 3);
	/* the empty word: je 2, suis 4 */
	ck_assert_int_eq(vocab_closest(&m.src, "", out, 2), 2);
	ck_assert_int_eq(out[0], 0);
	ck_assert_int_eq(out[1], 1);
	ck_assert_int_eq(vocab_closest(&m.src, "xx", out, 0), 0);
	model_free(&m);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *good = tcase_create("good");
	TCase *bad = tcase_create("malformed");
	TCase *vocab = tcase_create("vocab");

	tcase_add_test(good, test_good_sizes_and_vocab);
	tcase_add_test(good, test_good_matrices_row_major);
	tcase_add_test(good, test_good_any_order);
	tcase_add_test(good, test_good_without_scorer_weights);
	tcase_add_test(bad, test_err_scorer_weights_partial);
	tcase_add_test(good, test_good_crlf_and_no_final_newline);
	tcase_add_test(good, test_good_not_nul_terminated);
	tcase_add_test(good, test_builtin);
	tcase_add_test(good, test_builtin_named);
	tcase_add_test(good, test_builtin_list);
	tcase_add_test(good, test_load_arg);
	tcase_add_test(good, test_load_file);
	tcase_add_test(good, test_load_file_missing);
	tcase_add_test(good, test_read_file_too_large);
	tcase_add_test(bad, test_err_empty_file);
	tcase_add_test(bad, test_err_bad_magic);
	tcase_add_test(bad, test_err_bad_version);
	tcase_add_test(bad, test_err_size_missing);
	tcase_add_test(bad, test_err_size_not_whole);
	tcase_add_test(bad, test_err_size_zero);
	tcase_add_test(bad, test_err_size_negative);
	tcase_add_test(bad, test_err_size_huge);
	tcase_add_test(bad, test_err_size_extra_field);
	tcase_add_test(bad, test_err_section_expected);
	tcase_add_test(bad, test_err_section_unknown);
	tcase_add_test(bad, test_err_section_twice);
	tcase_add_test(bad, test_err_section_duplicate);
	tcase_add_test(bad, test_err_section_missing_at_eof);
	tcase_add_test(bad, test_err_too_few_numbers);
	tcase_add_test(bad, test_err_too_many_numbers);
	tcase_add_test(bad, test_err_too_few_rows);
	tcase_add_test(bad, test_err_too_many_rows);
	tcase_add_test(bad, test_err_not_a_number);
	tcase_add_test(bad, test_err_nan);
	tcase_add_test(bad, test_err_inf);
	tcase_add_test(bad, test_err_hex);
	tcase_add_test(bad, test_err_overflow);
	tcase_add_test(bad, test_err_weight_too_large);
	tcase_add_test(good, test_good_weight_at_limit);
	tcase_add_test(bad, test_err_byte_order_mark);
	tcase_add_test(bad, test_err_duplicate_word);
	tcase_add_test(bad, test_err_word_too_long);
	tcase_add_test(bad, test_err_invalid_utf8);
	tcase_add_test(bad, test_err_control_character);
	tcase_add_test(bad, test_err_nul_byte);
	tcase_add_test(bad, test_err_vocab_too_large);
	tcase_add_test(bad, test_err_vocab_empty);
	tcase_add_test(bad, test_err_missing_bos);
	tcase_add_test(bad, test_err_missing_eos);
	tcase_add_test(bad, test_err_ws_order);
	tcase_add_test(good, test_mha_sections);
	tcase_add_test(vocab, test_vocab_find);
	tcase_add_test(vocab, test_vocab_closest);
	suite_add_tcase(s, good);
	suite_add_tcase(s, bad);
	suite_add_tcase(s, vocab);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
