/* check_bahdanau.c: Bahdanau's architecture on tests/data/bahdanau.model
 * (E = 3, H = 4, each encoder direction 2 units, non-symmetric weights):
 * the bidirectional encoder, s_0, the query of each step, the context
 * fed to the RNN and the readout, worked out here from the weights of the
 * file, written out below, with the test's own arithmetic; and the model
 * format's "architecture" line. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "attn.h"
#include "testmodel.h"
#include "trace.h"
#include "train.h"

#define TOL 1e-12

static struct model M;

static void setup(void)
{
	testmodel_load(&M, "bahdanau.model");
}

static void teardown(void)
{
	model_free(&M);
}

/* the weights of tests/data/bahdanau.model, as the file writes them */
static const double X_UN[3] = { 0.5, -0.25, 1.0 };
static const double X_DEUX[3] = { -1.0, 0.75, 0.5 };
static const double Y_BOS[3] = { 0.1, 0.2, 0.3 };
static const double WHF[2][2] = { { 0.7, 0.1 }, { -0.3, 0.4 } };
static const double WHB[2][2] = { { 0.2, -0.6 }, { 0.9, 0.3 } };
static const double WINIT[4][2] = {
	{ 0.8, -0.3 }, { -0.5, 0.6 }, { 0.2, 0.9 }, { -0.7, -0.4 }
};
static const double WY[4][3] = {
	{ -0.6, 0.2, 0.4 }, { 0.3, -0.5, 0.8 }, { 0.1, 0.7, -0.2 },
	{ -0.4, 0.1, 0.5 }
};
static const double WS[4][4] = {
	{ 0.2, -0.7, 0.1, 0.3 }, { 0.5, 0.9, -0.2, 0.1 },
	{ -0.3, 0.4, 0.6, -0.5 }, { 0.1, -0.1, 0.2, 0.7 }
};
static const double WC[4][4] = {
	{ 0.9, -0.2, 0.3, 0.1 }, { -0.4, 0.6, 0.2, -0.8 },
	{ 0.3, 0.1, -0.7, 0.5 }, { 0.2, -0.5, 0.4, 0.6 }
};
static const double BD[4] = { -0.05, 0.15, 0.1, -0.2 };
static const double WO[5][11] = {
	{ 0.1, -0.2, 0.3, 0.4, -0.5, 0.2, 0.1, -0.3, 0.6, 0.2, -0.1 },
	{ -0.4, 0.5, -0.1, 0.2, 0.3, -0.6, 0.4, 0.1, -0.2, 0.5, 0.3 },
	{ 0.7, 0.1, -0.3, -0.2, 0.4, 0.3, -0.5, 0.2, 0.1, -0.4, 0.6 },
	{ -0.2, 0.6, 0.5, -0.1, -0.3, 0.1, 0.7, -0.4, 0.3, 0.2, -0.5 },
	{ 0.3, -0.4, 0.2, 0.6, 0.1, -0.2, -0.3, 0.5, -0.6, 0.1, 0.4 },
};

/* "un deux" = 0 1; target "one" = 2 */
static const int SRC[] = { 0, 1 };
static const int TGT[] = { 2 };

static const struct trace_rec *need(const struct trace *tr,
				    enum trace_kind k, int run, int t, int i)
{
	const struct trace_rec *r = trace_find(tr, k, run, t, i);
	ck_assert_msg(r != NULL, "no record of kind %d for run %d t %d i %d",
		      k, run, t, i);
	return r;
}

static void expect_vec(const double *got, const double *want, int n,
		       const char *what)
{
	for (int k = 0; k < n; k++)
		ck_assert_msg(fabs(got[k] - want[k]) < TOL,
			      "%s[%d]: got %.17g, want %.17g", what, k,
			      got[k], want[k]);
}

/* The encoder of "un deux", by hand.  Forward: W_x^f·x_1 = [0.25 + 0.1 +
 * 0.3, 0.1 - 0.15 - 0.1] = [0.65, -0.15], plus b^f = [0.05, -0.1]. 
 * Backward, from the end: W_x^b·x_2 = [0.3 + 0.6 + 0.1, -0.6 - 0.15 +
 * 0.25] = [1.0, -0.5], plus b^b = [-0.15, 0.1]; W_x^b·x_1 = [-0.15 - 0.2 +
 * 0.2, 0.3 + 0.05 + 0.5] = [-0.15, 0.85]; W_x^f·x_2 = [-0.5 - 0.3 + 0.15,
 * -0.2 + 0.45 - 0.05] = [-0.65, 0.2]. */
static void encoder_by_hand(double f1[2], double f2[2], double b1[2],
			    double b2[2])
{
	f1[0] = tanh(0.70);
	f1[1] = tanh(-0.25);
	f2[0] = tanh(-0.65 + WHF[0][0] * f1[0] + WHF[0][1] * f1[1] + 0.05);
	f2[1] = tanh(0.2 + WHF[1][0] * f1[0] + WHF[1][1] * f1[1] - 0.1);
	b2[0] = tanh(0.85);
	b2[1] = tanh(-0.4);
	b1[0] = tanh(-0.15 + WHB[0][0] * b2[0] + WHB[0][1] * b2[1] - 0.15);
	b1[1] = tanh(0.85 + WHB[1][0] * b2[0] + WHB[1][1] * b2[1] + 0.1);
}

START_TEST(test_encoder_by_hand)
{
	struct trace tr;
	struct errbuf err;
	double f1[2], f2[2], b1[2], b2[2], h1[4], s0[4];
	ck_assert_int_eq(trace_build(&tr, &M, SRC, 2, TGT, 1,
				     1u << SCORER_dot, NULL, &err), 0);
	encoder_by_hand(f1, f2, b1, b2);
	expect_vec(need(&tr, REC_EMBED, -1, 0, 1)->result, X_UN, 3, "x_1");
	expect_vec(need(&tr, REC_EMBED, -1, 0, 2)->result, X_DEUX, 3, "x_2");
	expect_vec(need(&tr, REC_FORWARD, -1, 0, 1)->result, f1, 2, "→h_1");
	expect_vec(need(&tr, REC_FORWARD, -1, 0, 2)->result, f2, 2, "→h_2");
	expect_vec(need(&tr, REC_BACKWARD, -1, 0, 2)->result, b2, 2, "←h_2");
	expect_vec(need(&tr, REC_BACKWARD, -1, 0, 1)->result, b1, 2, "←h_1");
	/* the backward RNN of the last word starts from zero */
	const double zero[2] = { 0, 0 };
	expect_vec(need(&tr, REC_BACKWARD, -1, 0, 2)->ops[4].v, zero, 2,
		   "←h_3");
	/* h_1 = [→h_1; ←h_1]: forward first */
	memcpy(h1, f1, sizeof f1);
	memcpy(h1 + 2, b1, sizeof b1);
	expect_vec(need(&tr, REC_ANNOTATION, -1, 0, 1)->result, h1, 4, "h_1");
	/* s_0 = tanh(W_init·←h_1): ←h_1, not →h_n */
	for (int k = 0; k < 4; k++)
		s0[k] = tanh(WINIT[k][0] * b1[0] + WINIT[k][1] * b1[1]);
	expect_vec(need(&tr, REC_INIT, -1, 0, 0)->result, s0, 4, "s_0");
	trace_free(&tr);
}
END_TEST

/* Step 1 with the dot scorer: the query is s_0; the context feeds the
 * RNN; the readout reads [s_1; c_1; y_0]. */
START_TEST(test_step_by_hand)
{
	struct trace tr;
	struct errbuf err;
	double f1[2], f2[2], b1[2], b2[2], h[2][4], s0[4], e[2], a[2], c[4];
	double pre[4], s1[4], scy[11], logit[5], p[5], sum = 0, top;
	ck_assert_int_eq(trace_build(&tr, &M, SRC, 2, TGT, 1,
				     1u << SCORER_dot, NULL, &err), 0);
	encoder_by_hand(f1, f2, b1, b2);
	memcpy(h[0], f1, sizeof f1);
	memcpy(h[0] + 2, b1, sizeof b1);
	memcpy(h[1], f2, sizeof f2);
	memcpy(h[1] + 2, b2, sizeof b2);
	for (int k = 0; k < 4; k++)
		s0[k] = tanh(WINIT[k][0] * b1[0] + WINIT[k][1] * b1[1]);
	expect_vec(need(&tr, REC_QUERY, 0, 1, 0)->result, s0, 4, "query");
	for (int j = 0; j < 2; j++)
		e[j] = s0[0] * h[j][0] + s0[1] * h[j][1] + s0[2] * h[j][2] +
		       s0[3] * h[j][3];
	expect_vec(need(&tr, REC_SCORES, 0, 1, 0)->result, e, 2, "e_1");
	top = e[0] > e[1] ? e[0] : e[1];
	a[0] = exp(e[0] - top) / (exp(e[0] - top) + exp(e[1] - top));
	a[1] = exp(e[1] - top) / (exp(e[0] - top) + exp(e[1] - top));
	expect_vec(need(&tr, REC_SOFTMAX, 0, 1, 0)->result, a, 2, "α_1");
	for (int k = 0; k < 4; k++)
		c[k] = a[0] * h[0][k] + a[1] * h[1][k];
	expect_vec(need(&tr, REC_CONTEXT, 0, 1, 0)->result, c, 4, "c_1");
	/* s_1 = tanh(W_y·y_0 + U·s_0 + C·c_1 + b) */
	const struct trace_rec *r = need(&tr, REC_RNN, 0, 1, 0);
	for (int k = 0; k < 4; k++) {
		double wc = 0;
		for (int j = 0; j < 4; j++)
			wc += WC[k][j] * c[j];
		ck_assert_msg(fabs(r->ops[2].v[k] - wc) < TOL, "C·c_1[%d]", k);
		pre[k] = WY[k][0] * Y_BOS[0] + WY[k][1] * Y_BOS[1] +
			 WY[k][2] * Y_BOS[2] + BD[k] + wc;
		for (int j = 0; j < 4; j++)
			pre[k] += WS[k][j] * s0[j];
		s1[k] = tanh(pre[k]);
	}
	expect_vec(r->result, s1, 4, "s_1");
	expect_vec(r->ops[6].v, c, 4, "the c_t operand");
	expect_vec(r->ops[5].v, s0, 4, "the s_{t-1} operand");
	/* [s_1; c_1; y_0] and p_1 */
	memcpy(scy, s1, sizeof s1);
	memcpy(scy + 4, c, sizeof c);
	memcpy(scy + 8, Y_BOS, sizeof Y_BOS);
	expect_vec(need(&tr, REC_CONCAT, 0, 1, 0)->result, scy, 11,
		   "[s_1; c_1; y_0]");
	for (int w = 0; w < 5; w++) {
		logit[w] = 0;
		for (int k = 0; k < 11; k++)
			logit[w] += WO[w][k] * scy[k];
	}
	top = logit[0];
	for (int w = 1; w < 5; w++)
		top = logit[w] > top ? logit[w] : top;
	for (int w = 0; w < 5; w++)
		sum += exp(logit[w] - top);
	for (int w = 0; w < 5; w++)
		p[w] = exp(logit[w] - top) / sum;
	r = need(&tr, REC_OUTPUT, 0, 1, 0);
	expect_vec(r->ops[0].v, logit, 5, "logits");
	expect_vec(r->result, p, 5, "ŷ_1");
	trace_free(&tr);
}
END_TEST

/* The query of step 2 is the state step 1 made, and the names say so. */
START_TEST(test_query_and_names)
{
	struct trace tr;
	struct errbuf err;
	struct trace_names nm;
	const int tgt[] = { 2, 3 };
	ck_assert_int_eq(trace_build(&tr, &M, SRC, 2, tgt, 2,
				     1u << SCORER_general, NULL, &err), 0);
	const struct trace_rec *s1 = need(&tr, REC_RNN, 0, 1, 0);
	const struct trace_rec *q2 = need(&tr, REC_QUERY, 0, 2, 0);
	ck_assert_ptr_eq(q2->result, s1->result);
	trace_names(&tr, need(&tr, REC_SCORE, 0, 2, 1), &nm);
	ck_assert_str_eq(nm.formula, "s_1·(W_a·h_1)");
	trace_names(&tr, q2, &nm);
	ck_assert_str_eq(nm.symbol, "s_1");
	trace_names(&tr, s1, &nm);
	ck_assert_str_eq(nm.formula,
			 "tanh(W_y·y_0 + U·s_0 + C·c_1 + b)");
	ck_assert_str_eq(nm.op[2], "C·c_1");
	trace_names(&tr, need(&tr, REC_BACKWARD, -1, 0, 1), &nm);
	ck_assert_str_eq(nm.formula, "tanh(W_x^b·x_1 + W_h^b·←h_2 + b^b)");
	trace_names(&tr, need(&tr, REC_CONCAT, 0, 2, 0), &nm);
	ck_assert_str_eq(nm.symbol, "[s_2; c_2; y_1]");
	/* the order of a step: query, scores, softmax, context, state,
	 * output */
	const struct trace_run *ru = &tr.runs[0];
	int first = ru->step_first[1];
	ck_assert_int_eq(tr.recs[first].kind, REC_QUERY);
	ck_assert(need(&tr, REC_CONTEXT, 0, 2, 0) < need(&tr, REC_RNN, 0, 2, 0));
	ck_assert(need(&tr, REC_RNN, 0, 2, 0) < need(&tr, REC_OUTPUT, 0, 2, 0));
	trace_free(&tr);
}
END_TEST

static int parse_text(struct model *m, const char *text, struct errbuf *err)
{
	return model_parse(m, text, strlen(text), "t.model", err);
}

/* The sizes lines of a model, then the architecture line arch. */
static char *model_text(const char *sizes, const char *arch)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	fprintf(f, "attn-trace-model 1\n%s%s", sizes, arch);
	fclose(f);
	return s;
}

START_TEST(test_arch_line)
{
	struct model m;
	struct errbuf err;
	char *t;
	/* an unknown architecture, and an odd hidden size */
	t = model_text("embedding 2\nhidden 2\nattention 2\n",
		       "architecture bahdanu\n");
	ck_assert_int_eq(parse_text(&m, t, &err), -1);
	ck_assert_str_eq(err.msg, "t.model:5:14: expected an architecture "
			 "(luong or bahdanau), found \"bahdanu\"");
	free(t);
	t = model_text("embedding 2\nhidden 3\nattention 2\n",
		       "architecture bahdanau\n");
	ck_assert_int_eq(parse_text(&m, t, &err), -1);
	ck_assert_str_eq(err.msg, "t.model:5:14: expected an even hidden size "
			 "for the bahdanau architecture (each encoder "
			 "direction has half of it), found hidden 3");
	free(t);
	t = model_text("embedding 2\nhidden 2\nattention 2\n",
		       "architecture bahdanau extra\n");
	ck_assert_int_eq(parse_text(&m, t, &err), -1);
	ck_assert_str_eq(err.msg, "t.model:5:23: expected end of line, found "
			 "\"extra\"");
	free(t);
	/* a luong section in a bahdanau model */
	t = model_text("embedding 2\nhidden 2\nattention 2\n",
		       "architecture bahdanau\n[encoder.W_x]\n");
	ck_assert_int_eq(parse_text(&m, t, &err), -1);
	ck_assert_str_eq(err.msg, "t.model:6:1: expected a section of the "
			 "bahdanau architecture, found [encoder.W_x], a section "
			 "of the luong architecture (the line \"architecture "
			 "NAME\" after the sizes says which)");
	free(t);
}
END_TEST

/* The test model has the bahdanau line; the parameter table follows it. */
START_TEST(test_table)
{
	struct model_param tab[MODEL_MAX_PARAMS];
	int n = model_param_table(&M, 0, tab);
	static const char *const want[] = {
		"source", "target", "forward.W_x", "forward.W_h", "forward.b",
		"backward.W_x", "backward.W_h", "backward.b", "decoder.W_init",
		"decoder.W_y", "decoder.W_s", "decoder.W_c", "decoder.b",
		"output.W_o"
	};
	ck_assert_int_eq(M.arch, ARCH_bahdanau);
	ck_assert_int_eq(n, 14);
	for (int k = 0; k < n; k++)
		ck_assert_str_eq(tab[k].section, want[k]);
	ck_assert_int_eq(tab[2].rows, 2);  /* H/2 */
	ck_assert_int_eq(tab[8].cols, 2);  /* W_init reads ←h_1 */
	ck_assert_int_eq(tab[13].cols, 11); /* [s; c; y] */
	ck_assert_int_eq(model_scorers(&M), SCORER_ALL);
}
END_TEST

/* Written and read again, the model is the same, byte for byte. */
START_TEST(test_write_round_trip)
{
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	struct model m2;
	struct errbuf err;
	FILE *f = open_memstream(&a, &na);
	ck_assert_int_eq(train_write_model(f, &M, NULL), 0);
	fclose(f);
	ck_assert_msg(strstr(a, "\narchitecture bahdanau\n") != NULL, "%s", a);
	ck_assert_int_eq(model_parse(&m2, a, na, "w.model", &err), 0);
	ck_assert_int_eq(m2.arch, ARCH_bahdanau);
	f = open_memstream(&b, &nb);
	ck_assert_int_eq(train_write_model(f, &m2, NULL), 0);
	fclose(f);
	ck_assert_str_eq(a, b);
	model_free(&m2);
	free(a);
	free(b);
}
END_TEST

/* Every scorer runs in this architecture, with s_{t-1} as the query. */
START_TEST(test_every_scorer)
{
	struct trace tr;
	struct errbuf err;
	ck_assert_int_eq(trace_build(&tr, &M, SRC, 2, NULL, 0, SCORER_ALL, NULL,
				     &err), 0);
	ck_assert_int_eq(tr.nruns, SCORER_COUNT);
	for (int run = 0; run < tr.nruns; run++) {
		const struct trace_rec *q = need(&tr, REC_QUERY, run, 1, 0);
		expect_vec(q->result, need(&tr, REC_INIT, -1, 0, 0)->result, 4,
			   "query of step 1");
	}
	ck_assert_int_eq(arch_get(ARCH_bahdanau)->query_off, -1);
	ck_assert_int_eq(arch_find("bahdanau"), ARCH_bahdanau);
	ck_assert_int_eq(arch_find("Bahdanau"), -1);
	trace_free(&tr);
}
END_TEST

/* ---- the built-in bahdanau4, trained on data/toy.pairs */

static struct model B4;
static struct train_data PAIRS;

static void setup_b4(void)
{
	struct errbuf err;
	const char *dir = getenv("srcdir");
	char path[4096];
	if (model_load_named(&B4, "bahdanau4", &err) != 0)
		ck_abort_msg("cannot load bahdanau4: %s", err.msg);
	snprintf(path, sizeof path, "%s/data/toy.pairs", dir ? dir : ".");
	if (train_pairs_load(&PAIRS, path, &B4, &err) != 0)
		ck_abort_msg("cannot load %s: %s", path, err.msg);
}

static void teardown_b4(void)
{
	train_data_free(&PAIRS);
	model_free(&B4);
}

/* Greedy decoding reproduces every training pair, with each scorer. */
START_TEST(test_b4_decodes_every_pair)
{
	ck_assert_int_eq(B4.arch, ARCH_bahdanau);
	ck_assert_int_ge(PAIRS.n, 17); /* the corpus may grow */
	ck_assert(model_scorers(&B4) & (1u << _i));
	for (int k = 0; k < PAIRS.n; k++) {
		const struct train_pair *p = &PAIRS.pairs[k];
		struct trace tr;
		struct errbuf err;
		ck_assert_int_eq(trace_build(&tr, &B4, p->src, p->nsrc, NULL, 0,
					     1u << _i, NULL, &err), 0);
		const struct trace_run *ru = &tr.runs[0];
		ck_assert_msg(ru->nsteps == p->ntgt + 1 && ru->stopped,
			      "%s: pair %d: %d steps", scorer_get(_i)->name,
			      k + 1, ru->nsteps);
		for (int j = 0; j < p->ntgt; j++)
			ck_assert_msg(ru->pred[j] == p->tgt[j], "%s: pair %d, "
				      "word %d", scorer_get(_i)->name, k + 1,
				      j + 1);
		trace_free(&tr);
	}
}
END_TEST

/* "zone économique européenne ||| european economic area": each English
 * word looks hardest at the French word it translates, the order crossing
 * (3, 2, 1), with the scorers that learn it (dot and scaled, which have
 * no weights of their own, do not: their second step looks at word 3). */
START_TEST(test_b4_crossing)
{
	static const int learns[] = {
		SCORER_general, SCORER_concat, SCORER_location,
		SCORER_additive, SCORER_location_aware
	};
	int sc = learns[_i];
	const struct train_pair *p = NULL;
	struct trace tr;
	struct errbuf err;
	for (int k = 0; k < PAIRS.n && !p; k++) /* the word-order pair */
		if (PAIRS.pairs[k].nsrc == 3 &&
		    strcmp(B4.src.words[PAIRS.pairs[k].src[0]], "zone") == 0 &&
		    strcmp(B4.src.words[PAIRS.pairs[k].src[1]],
			   "économique") == 0)
			p = &PAIRS.pairs[k];
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(trace_build(&tr, &B4, p->src, 3, p->tgt, 3, 1u << sc, NULL,
				     &err), 0);
	for (int t = 1; t <= 3; t++) {
		const double *a = trace_find(&tr, REC_SOFTMAX, 0, t, 0)->result;
		int best = attn_argmax(a, 3);
		ck_assert_msg(best == 3 - t, "%s: step %d looks at word %d",
			      scorer_get(sc)->name, t, best + 1);
		ck_assert_msg(a[best] > 0.6, "%s: step %d: %g",
			      scorer_get(sc)->name, t, a[best]);
	}
	trace_free(&tr);
}
END_TEST

static Suite *bahdanau_suite(void)
{
	Suite *s = suite_create("bahdanau");
	TCase *tc = tcase_create("bahdanau model");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_encoder_by_hand);
	tcase_add_test(tc, test_step_by_hand);
	tcase_add_test(tc, test_query_and_names);
	tcase_add_test(tc, test_arch_line);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_write_round_trip);
	tcase_add_test(tc, test_every_scorer);
	suite_add_tcase(s, tc);
	tc = tcase_create("bahdanau4");
	tcase_add_checked_fixture(tc, setup_b4, teardown_b4);
	tcase_add_loop_test(tc, test_b4_decodes_every_pair, 0, SCORER_COUNT);
	tcase_add_loop_test(tc, test_b4_crossing, 0, 5);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bahdanau_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
