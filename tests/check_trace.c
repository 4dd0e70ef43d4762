/* check_trace.c: every recorded stage of a trace of tests/data/tiny.model
 * (E = 3, H = 2, A = 3, non-symmetric weights) against the formulas of the
 * model, evaluated here with loops of the test's own, stage by stage. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "selection.h"
#include "testmodel.h"
#include "trace.h"

#define TOL 1e-12

static struct model M;

static void setup(void)
{
	testmodel_load(&M, "tiny.model");
}

static void teardown(void)
{
	model_free(&M);
}

/* source "un deux trois" = 0 1 2; target "one two three" = 2 3 4 */
static const int SRC[] = { 0, 1, 2 };
static const int TGT[] = { 2, 3, 4 };

static const struct trace_rec *need(const struct trace *tr,
				    enum trace_kind k, int run, int t, int i)
{
	const struct trace_rec *r = trace_find(tr, k, run, t, i);
	ck_assert_msg(r != NULL, "no record of kind %d for run %d t %d i %d",
		      k, run, t, i);
	return r;
}

static void build(struct trace *tr, const int *tgt, int ntgt,
		  unsigned scorers)
{
	struct errbuf err;
	int rc = trace_build(tr, &M, SRC, 3, tgt, ntgt, scorers, NULL, &err);
	ck_assert_msg(rc == 0, "trace_build: %s", err.msg);
}

/* tanh of row k of W (rows, cols) times x, plus Wh row times hp, plus b */
static double rnn_unit(const struct rnn *w, int k, const double *x,
		       const double *hp, int E, int H)
{
	double acc = w->b[k];
	for (int j = 0; j < E; j++)
		acc += w->Wx[k * E + j] * x[j];
	for (int j = 0; j < H; j++)
		acc += w->Wh[k * H + j] * hp[j];
	return tanh(acc);
}

/* The names trace_names() gives record r; valid until the next call. */
static struct trace_names NM;
static const struct trace_names *names(const struct trace *tr,
				       const struct trace_rec *r)
{
	trace_names(tr, r, &NM);
	return &NM;
}

START_TEST(test_encoder_by_hand)
{
	struct trace tr;
	build(&tr, NULL, 0, SCORER_ALL);
	/* x_1 = emb(un) = (0.5, -0.25, 1); W_x x_1 + b:
	 * 0.5*0.5 - 0.4*-0.25 + 0.3*1 + 0.05 = 0.7
	 * 0.2*0.5 + 0.6*-0.25 - 0.1*1 - 0.1 = -0.25 */
	const struct trace_rec *h1 = need(&tr, REC_RNN, -1, 0, 1);
	ck_assert_double_eq_tol(h1->ops[3].v[0], 0.7, TOL);
	ck_assert_double_eq_tol(h1->ops[3].v[1], -0.25, TOL);
	ck_assert_double_eq_tol(h1->result[0], tanh(0.7), TOL);
	ck_assert_double_eq_tol(h1->result[1], tanh(-0.25), TOL);
	ck_assert_str_eq(names(&tr, h1)->symbol, "h_1");
	ck_assert_str_eq(NM.formula, "tanh(W_x·x_1 + W_h·h_0 + b)");
	ck_assert_str_eq(NM.op[0], "W_x·x_1");
	ck_assert_str_eq(NM.op[1], "W_h·h_0");
	ck_assert_str_eq(NM.op[4], "h_0");
	const struct trace_rec *x3 = need(&tr, REC_EMBED, -1, 0, 3);
	ck_assert_str_eq(names(&tr, x3)->symbol, "x_3");
	ck_assert_double_eq_tol(x3->result[2], -0.75, TOL);
	/* h_2 and h_3 carry the previous state through W_h */
	for (int i = 2; i <= 3; i++) {
		const double *hp = need(&tr, REC_RNN, -1, 0, i - 1)->result;
		const double *x = need(&tr, REC_EMBED, -1, 0, i)->result;
		const double *h = need(&tr, REC_RNN, -1, 0, i)->result;
		for (int k = 0; k < 2; k++)
			ck_assert_double_eq_tol(h[k],
				rnn_unit(&M.enc, k, x, hp, 3, 2), TOL);
	}
	trace_free(&tr);
}
END_TEST

/* The score of s against h by the formula of each scorer; prev (3) is
 * α_{t-1}, which the location-aware scorer reads. */
static double score_by_formula(enum scorer sc, const double *s,
			       const double *h, int i, const double *prev)
{
	/* location: row i (from 0) of tiny.model's W_loc */
	static const double Wloc[4][2] = {
		{ 0.5, -1.0 }, { 2.0, 0.25 }, { -0.75, 1.5 }, { 0.3, 0.9 }
	};
	double e = 0;
	if (sc == SCORER_location) {
		e = Wloc[i][0] * s[0] + Wloc[i][1] * s[1];
	} else if (sc == SCORER_dot) {
		e = s[0] * h[0] + s[1] * h[1];
	} else if (sc == SCORER_scaled) {
		e = (s[0] * h[0] + s[1] * h[1]) / sqrt(2.0); /* H = 2 */
	} else if (sc == SCORER_general) {
		/* s' W h with W = [[1.5, -0.5], [2.0, 0.25]] from tiny.model */
		e = s[0] * (1.5 * h[0] - 0.5 * h[1]) +
		    s[1] * (2.0 * h[0] + 0.25 * h[1]);
	} else if (sc == SCORER_location_aware) {
		/* w·tanh(W s + V h + U f + b), f = F ∗ α_{t-1} with a zero at
		 * each end: the weights of tiny.model */
		static const double W[3][2] = {
			{ 0.6, -0.4 }, { -0.3, 0.8 }, { 0.2, 0.5 }
		};
		static const double V[3][2] = {
			{ 0.7, 0.1 }, { -0.6, 0.4 }, { 0.3, -0.9 }
		};
		static const double U[3][2] = {
			{ 1.5, -0.5 }, { -1.0, 2.0 }, { 0.5, 0.75 }
		};
		static const double b[3] = { 0.1, -0.2, 0.05 };
		static const double w[3] = { 1.3, -0.8, 0.6 };
		static const double F[2][3] = {
			{ 0.2, 0.5, 1.5 }, { -1.0, 0.3, 0.8 }
		};
		double win[3], f[2];
		for (int m = 0; m < 3; m++)
			win[m] = i + m - 1 >= 0 && i + m - 1 < 3
				 ? prev[i + m - 1] : 0.0;
		for (int c = 0; c < 2; c++)
			f[c] = F[c][0] * win[0] + F[c][1] * win[1] +
			       F[c][2] * win[2];
		for (int r = 0; r < 3; r++)
			e += w[r] * tanh(W[r][0] * s[0] + W[r][1] * s[1] +
					 V[r][0] * h[0] + V[r][1] * h[1] +
					 U[r][0] * f[0] + U[r][1] * f[1] + b[r]);
	} else if (sc == SCORER_additive) {
		/* v_a·tanh(W_a s + U_a h), the weights of tiny.model */
		static const double Wa[3][2] = {
			{ 0.4, -0.3 }, { -0.2, 0.6 }, { 0.7, 0.1 }
		};
		static const double Ua[3][2] = {
			{ -0.5, 0.2 }, { 0.3, 0.8 }, { 0.1, -0.6 }
		};
		static const double va[3] = { 0.9, -1.1, 0.5 };
		for (int r = 0; r < 3; r++)
			e += va[r] * tanh(Wa[r][0] * s[0] + Wa[r][1] * s[1] +
					  Ua[r][0] * h[0] + Ua[r][1] * h[1]);
	} else {
		for (int r = 0; r < 3; r++) {
			const double *w = model_weights(&M, "concat.W") + r * 4;
			e += model_weights(&M, "concat.v")[r] * tanh(w[0] * s[0] + w[1] * s[1] +
					    w[2] * h[0] + w[3] * h[1]);
		}
	}
	return e;
}

/* Checks every stage of step t of run `run` against the formulas, taking
 * each stage's inputs from the records of the stage before. */
static void check_step(const struct trace *tr, int run, int t)
{
	enum scorer sc = tr->runs[run].scorer;
	const double *s_prev = t == 1 ? need(tr, REC_RNN, -1, 0, 3)->result
				      : need(tr, REC_RNN, run, t - 1, 0)->result;
	const double *y = need(tr, REC_EMBED, run, t, 0)->result;
	const double *s = need(tr, REC_RNN, run, t, 0)->result;
	for (int k = 0; k < 2; k++)
		ck_assert_double_eq_tol(s[k], rnn_unit(&M.dec, k, y, s_prev, 3, 2),
					TOL);
	/* scores */
	const double *e = need(tr, REC_SCORES, run, t, 0)->result;
	const double *h[3];
	static const double alpha0[3] = { 1, 0, 0 }; /* one-hot on word 1 */
	const double *prev = t == 1 ? alpha0
			     : need(tr, REC_SOFTMAX, run, t - 1, 0)->result;
	for (int i = 0; i < 3; i++) {
		h[i] = need(tr, REC_RNN, -1, 0, i + 1)->result;
		ck_assert_double_eq_tol(e[i], score_by_formula(sc, s, h[i], i, prev),
					TOL);
		const struct trace_rec *r = need(tr, REC_SCORE, run, t, i + 1);
		double sum = 0;
		for (int k = 0; k < r->nterms; k++)
			sum += r->terms[2 * k] * r->terms[2 * k + 1];
		if (r->divisor)
			sum /= *r->divisor;
		ck_assert_double_eq_tol(sum, e[i], TOL);
	}
	/* softmax */
	double max = fmax(e[0], fmax(e[1], e[2]));
	double z = exp(e[0] - max) + exp(e[1] - max) + exp(e[2] - max);
	const struct trace_rec *sm = need(tr, REC_SOFTMAX, run, t, 0);
	ck_assert_double_eq_tol(sm->ops[1].v[0], max, TOL);
	ck_assert_double_eq_tol(sm->ops[4].v[0], z, TOL);
	for (int i = 0; i < 3; i++)
		ck_assert_double_eq_tol(sm->result[i], exp(e[i] - max) / z, TOL);
	/* weighted sum and context */
	const double *a = sm->result;
	const double *c = need(tr, REC_CONTEXT, run, t, 0)->result;
	for (int k = 0; k < 2; k++) {
		ck_assert_double_eq_tol(c[k], a[0] * h[0][k] + a[1] * h[1][k] +
					a[2] * h[2][k], TOL);
		ck_assert_double_eq_tol(need(tr, REC_WEIGHTED, run, t, 2)->result[k],
					a[1] * h[1][k], TOL);
	}
	/* [c; s], context first */
	const double *cs = need(tr, REC_CONCAT, run, t, 0)->result;
	const double want_cs[4] = { c[0], c[1], s[0], s[1] };
	for (int k = 0; k < 4; k++)
		ck_assert_double_eq_tol(cs[k], want_cs[k], TOL);
	/* h~ = tanh(W_c [c; s]), W_c from tiny.model */
	const double *ht = need(tr, REC_ATTENTIONAL, run, t, 0)->result;
	ck_assert_double_eq_tol(ht[0], tanh(0.6 * c[0] - 0.2 * c[1] +
					    0.3 * s[0] + 0.5 * s[1]), TOL);
	ck_assert_double_eq_tol(ht[1], tanh(-0.4 * c[0] + 0.7 * c[1] -
					    0.5 * s[0] + 0.2 * s[1]), TOL);
	/* p = softmax(W_s h~) over the five target words */
	const struct trace_rec *o = need(tr, REC_OUTPUT, run, t, 0);
	double logit[5], lmax = -INFINITY, lz = 0;
	for (int w = 0; w < 5; w++) {
		logit[w] = M.Ws[2 * w] * ht[0] + M.Ws[2 * w + 1] * ht[1];
		lmax = fmax(lmax, logit[w]);
	}
	for (int w = 0; w < 5; w++)
		lz += exp(logit[w] - lmax);
	int best = 0;
	for (int w = 0; w < 5; w++) {
		ck_assert_double_eq_tol(o->result[w], exp(logit[w] - lmax) / lz,
					TOL);
		if (logit[w] > logit[best])
			best = w;
	}
	ck_assert_int_eq(o->word, best);
}

START_TEST(test_every_stage_teacher_forced)
{
	struct trace tr;
	build(&tr, TGT, 3, SCORER_ALL);
	/* every scorer whose weights tiny.model has, in registry order */
	ck_assert_int_eq(tr.nruns, __builtin_popcount(model_scorers(&M)));
	ck_assert_int_ge(tr.nruns, 4);
	for (int run = 0, sc = 0; run < tr.nruns; run++, sc++) {
		while (!(model_scorers(&M) & (1u << sc)))
			sc++;
		ck_assert_int_eq(tr.runs[run].scorer, sc);
		ck_assert_int_eq(tr.runs[run].nsteps, 4);
		/* the decoder reads <s>, one, two, three */
		ck_assert_int_eq(tr.runs[run].input[0], M.bos);
		for (int t = 2; t <= 4; t++)
			ck_assert_int_eq(tr.runs[run].input[t - 1], TGT[t - 2]);
		for (int t = 1; t <= 4; t++)
			check_step(&tr, run, t);
	}
	trace_free(&tr);
}
END_TEST

START_TEST(test_every_stage_greedy)
{
	struct trace tr;
	build(&tr, NULL, 0, SCORER_ALL);
	ck_assert_int_eq(tr.max_steps, 8); /* 2n + 2 */
	for (int run = 0; run < tr.nruns; run++) {
		const struct trace_run *ru = &tr.runs[run];
		ck_assert(ru->nsteps >= 1 && ru->nsteps <= 8);
		/* each step feeds back the word predicted before it */
		for (int t = 2; t <= ru->nsteps; t++)
			ck_assert_int_eq(ru->input[t - 1], ru->pred[t - 2]);
		/* it stops at </s>, or at the limit */
		if (ru->stopped)
			ck_assert_int_eq(ru->pred[ru->nsteps - 1], M.eos);
		else
			ck_assert_int_eq(ru->nsteps, 8);
		for (int t = 1; t <= ru->nsteps; t++)
			check_step(&tr, run, t);
	}
	trace_free(&tr);
}
END_TEST

START_TEST(test_score_terms_by_scorer)
{
	struct trace tr;
	build(&tr, TGT, 3, SCORER_ALL);
	const double *s = need(&tr, REC_RNN, 1, 1, 0)->result;
	const double *h2 = need(&tr, REC_RNN, -1, 0, 2)->result;
	/* dot: pairs (s_k, h_2k) */
	const struct trace_rec *r = need(&tr, REC_SCORE, 0, 1, 2);
	ck_assert_int_eq(r->nterms, 2);
	ck_assert_double_eq_tol(r->terms[1], need(&tr, REC_RNN, -1, 0, 2)->result[0],
				TOL);
	ck_assert_str_eq(names(&tr, r)->symbol, "e_1,2");
	ck_assert_str_eq(NM.formula, "s_1·h_2");
	ck_assert_str_eq(NM.op[0], "s_1");
	ck_assert_str_eq(NM.op[1], "h_2");
	/* general: pairs (s_k, (W_a h_2)_k) */
	r = need(&tr, REC_SCORE, 1, 1, 2);
	ck_assert_str_eq(names(&tr, r)->formula, "s_1·(W_a·h_2)");
	ck_assert_str_eq(NM.op[2], "W_a·h_2");
	ck_assert_double_eq_tol(r->terms[0], s[0], TOL);
	ck_assert_double_eq_tol(r->terms[1], 1.5 * h2[0] - 0.5 * h2[1], TOL);
	ck_assert_double_eq_tol(r->terms[3], 2.0 * h2[0] + 0.25 * h2[1], TOL);
	/* concat: three pairs (v_r, tanh(W_a [s; h])_r), [s; h] s first */
	r = need(&tr, REC_SCORE, 2, 1, 2);
	ck_assert_str_eq(names(&tr, r)->formula, "v_a·tanh(W_a·[s_1; h_2])");
	ck_assert_str_eq(NM.op[0], "[s_1; h_2]");
	ck_assert_str_eq(NM.op[1], "W_a·[s_1; h_2]");
	ck_assert_str_eq(NM.op[2], "tanh(W_a·[s_1; h_2])");
	ck_assert_str_eq(NM.op[3], "v_a");
	ck_assert_int_eq(r->nterms, 3);
	ck_assert_double_eq_tol(r->terms[0], 1.2, TOL);
	ck_assert_double_eq_tol(r->ops[0].v[0], need(&tr, REC_RNN, 2, 1, 0)->result[0],
				TOL);
	ck_assert_double_eq_tol(r->ops[0].v[2], h2[0], TOL);
	/* scaled: the pairs of dot, their sum divided by √H = √2 */
	r = need(&tr, REC_SCORE, 3, 1, 2);
	ck_assert_int_eq(tr.runs[3].scorer, SCORER_scaled);
	s = need(&tr, REC_RNN, 3, 1, 0)->result;
	ck_assert_str_eq(names(&tr, r)->formula, "(s_1·h_2) / √2");
	ck_assert_str_eq(NM.op[2], "s_1·h_2");
	ck_assert_str_eq(NM.op[3], "√2");
	ck_assert_int_eq(r->nterms, 2);
	ck_assert_double_eq_tol(r->terms[0], s[0], TOL);
	ck_assert_double_eq_tol(r->terms[1], h2[0], TOL);
	ck_assert_double_eq_tol(r->terms[3], h2[1], TOL);
	ck_assert_double_eq_tol(*r->divisor, 1.4142135623730951, TOL);
	ck_assert_double_eq_tol(r->ops[2].v[0], s[0] * h2[0] + s[1] * h2[1],
				TOL);
	ck_assert_double_eq_tol(r->result[0], (s[0] * h2[0] + s[1] * h2[1]) /
				1.4142135623730951, TOL);
	/* location: row 2 of W_loc = (2, 0.25) with s, and no h at all */
	r = need(&tr, REC_SCORE, 4, 1, 2);
	ck_assert_int_eq(tr.runs[4].scorer, SCORER_location);
	s = need(&tr, REC_RNN, 4, 1, 0)->result;
	ck_assert_str_eq(names(&tr, r)->formula, "W_loc[2]·s_1");
	ck_assert_str_eq(NM.op[0], "s_1");
	ck_assert_str_eq(NM.op[1], "W_loc[2]");
	ck_assert_int_eq(r->nterms, 2);
	ck_assert_double_eq_tol(r->terms[0], 2.0, TOL);
	ck_assert_double_eq_tol(r->terms[1], s[0], TOL);
	ck_assert_double_eq_tol(r->terms[2], 0.25, TOL);
	ck_assert_double_eq_tol(r->terms[3], s[1], TOL);
	ck_assert_ptr_null(r->divisor);
	ck_assert_double_eq_tol(r->result[0], 2.0 * s[0] + 0.25 * s[1], TOL);
	trace_free(&tr);
}
END_TEST

/* trace_names_part() gives every name it is asked for exactly as
 * trace_names() does, whatever else it leaves out. */
START_TEST(test_names_part)
{
	struct trace tr;
	struct trace_names all, part;
	int checked = 0;
	build(&tr, NULL, 0, SCORER_ALL);
	for (int k = 0; k < tr.nrecs; k++) {
		const struct trace_rec *r = &tr.recs[k];
		trace_names(&tr, r, &all);
		ck_assert_str_ne(all.symbol, "");
		for (unsigned parts = 1; parts <= TRACE_NAME_ALL; parts++) {
			trace_names_part(&tr, r, &part, parts);
			if (parts & TRACE_NAME_SYMBOL)
				ck_assert_str_eq(part.symbol, all.symbol);
			if (parts & TRACE_NAME_FORMULA)
				ck_assert_str_eq(part.formula, all.formula);
			if (parts & TRACE_NAME_OPS)
				for (int j = 0; j < r->nops; j++) {
					ck_assert_str_ne(all.op[j], "");
					ck_assert_str_eq(part.op[j], all.op[j]);
				}
			checked++;
		}
	}
	ck_assert_int_gt(checked, 100);
	trace_free(&tr);
}
END_TEST

/* The symbol of run 0's record of a kind at step t. */
#define SYM(kind, t) names(&tr, need(&tr, kind, 0, t, 0))->symbol

START_TEST(test_symbols)
{
	struct trace tr;
	build(&tr, TGT, 3, 1u << SCORER_dot);
	ck_assert_str_eq(SYM(REC_EMBED, 1), "y_0");
	ck_assert_str_eq(SYM(REC_RNN, 2), "s_2");
	ck_assert_str_eq(SYM(REC_SOFTMAX, 1), "α_1");
	ck_assert_str_eq(SYM(REC_CONTEXT, 3), "c_3");
	ck_assert_str_eq(SYM(REC_CONCAT, 1), "[c_1; s_1]");
	ck_assert_str_eq(SYM(REC_ATTENTIONAL, 1), "h̃_1");
	ck_assert_str_eq(SYM(REC_OUTPUT, 4), "ŷ_4");
	ck_assert_int_eq(need(&tr, REC_SCORE, 0, 1, 1)->stage, STAGE_SCORING);
	ck_assert_int_eq(need(&tr, REC_WEIGHTED, 0, 1, 1)->stage,
			 STAGE_WEIGHTED_SUM);
	ck_assert_ptr_null(trace_find(&tr, REC_SCORE, 0, 5, 1));
	ck_assert_ptr_null(trace_find(&tr, REC_SCORE, 0, 1, 4));
	ck_assert_ptr_null(trace_find(&tr, REC_SCORE, 1, 1, 1));
	trace_free(&tr);
}
END_TEST

START_TEST(test_one_scorer_only)
{
	struct trace tr;
	build(&tr, NULL, 0, 1u << SCORER_concat);
	ck_assert_int_eq(tr.nruns, 1);
	ck_assert_int_eq(tr.runs[0].scorer, SCORER_concat);
	check_step(&tr, 0, 1);
	trace_free(&tr);
}
END_TEST

/* A sentence longer than the model's positions cannot use location;
 * --scorer=all leaves it out. */
START_TEST(test_positions_limit)
{
	struct trace tr;
	struct errbuf err;
	const int five[] = { 0, 1, 2, 0, 1 };
	ck_assert_int_eq(M.L, 4);
	ck_assert_int_ne(trace_build(&tr, &M, five, 5, NULL, 0,
				     1u << SCORER_location, NULL, &err), 0);
	ck_assert_str_eq(err.msg, "the location scorer of this model knows 4 "
			 "source positions (\"positions 4\"), and the sentence "
			 "has 5 words");
	ck_assert_int_eq(trace_build(&tr, &M, five, 5, NULL, 0, SCORER_ALL, NULL,
				     &err), 0);
	for (int k = 0; k < tr.nruns; k++)
		ck_assert_int_ne(tr.runs[k].scorer, SCORER_location);
	ck_assert_int_eq(tr.nruns, SCORER_COUNT - 1);
	trace_free(&tr);
	ck_assert_int_eq(trace_build(&tr, &M, five, 4, NULL, 0, SCORER_ALL, NULL,
				     &err), 0);
	ck_assert_int_eq(tr.nruns, SCORER_COUNT);
	trace_free(&tr);
}
END_TEST

START_TEST(test_bad_lengths)
{
	struct trace tr;
	struct errbuf err;
	int many[TRACE_MAX_TOKENS + 1] = { 0 };
	ck_assert_int_ne(trace_build(&tr, &M, SRC, 0, NULL, 0, SCORER_ALL, NULL, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "1 to 64 words"));
	ck_assert_int_ne(trace_build(&tr, &M, many, TRACE_MAX_TOKENS + 1, NULL,
				     0, SCORER_ALL, NULL, &err), 0);
	ck_assert_int_ne(trace_build(&tr, &M, SRC, 3, many,
				     TRACE_MAX_TOKENS + 1, SCORER_ALL, NULL, &err), 0);
	ck_assert_int_ne(trace_build(&tr, &M, SRC, 3, NULL, 0, 0, NULL, &err), 0);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_uint_eq(trace_scorer_parse("dot"), 1u << SCORER_dot);
	ck_assert_uint_eq(trace_scorer_parse("general"), 1u << SCORER_general);
	ck_assert_uint_eq(trace_scorer_parse("concat"), 1u << SCORER_concat);
	ck_assert_uint_eq(trace_scorer_parse("scaled"), 1u << SCORER_scaled);
	ck_assert_uint_eq(trace_scorer_parse("dot,scaled"),
			  1u << SCORER_dot | 1u << SCORER_scaled);
	ck_assert_uint_eq(trace_scorer_parse("dot,"), 0);
	ck_assert_uint_eq(trace_scorer_parse(",dot"), 0);
	ck_assert_uint_eq(trace_scorer_parse("dot,no-such-scorer"), 0);
	ck_assert_uint_eq(trace_scorer_parse("all"), SCORER_ALL);
	ck_assert_uint_eq(trace_scorer_parse("Dot"), 0);
	ck_assert_str_eq(trace_stage_name(STAGE_WEIGHTED_SUM), "weighted-sum");
	ck_assert_str_eq(trace_scorer_name(SCORER_general), "general");
}
END_TEST

/* ---- hard attention (src/selection_hard.c), worked here independently */

static void build_hard(struct trace *tr, const int *tgt, int ntgt,
		       unsigned long long seed, int rule)
{
	struct errbuf err;
	struct trace_cfg cfg = TRACE_CFG_DEFAULT;
	cfg.selection = SELECTION_hard;
	cfg.seed = seed;
	cfg.hard_rule = rule;
	cfg.hard_gradient = 1;
	int rc = trace_build(tr, &M, SRC, 3, tgt, ntgt, 1u << SCORER_dot,
			     &cfg, &err);
	ck_assert_msg(rc == 0, "trace_build: %s", err.msg);
}

/* log p(y | c) in Luong's output, from the formula: logits =
 * W_s·tanh(W_c·[c; s]) (H = 2), then the log of the softmax at y */
static double luong_logp(const double *c, const double *s, int y)
{
	double cs[4] = { c[0], c[1], s[0], s[1] }, ht[2], lg[5] = { 0 }, mx;
	double sum = 0;
	for (int k = 0; k < 2; k++) {
		double acc = 0;
		for (int j = 0; j < 4; j++)
			acc += M.Wc[k * 4 + j] * cs[j];
		ht[k] = tanh(acc);
	}
	int V = M.tgt.n;
	ck_assert_int_le(V, 5);
	for (int w = 0; w < V; w++)
		lg[w] = M.Ws[2 * w] * ht[0] + M.Ws[2 * w + 1] * ht[1];
	mx = lg[0];
	for (int w = 1; w < V; w++)
		mx = lg[w] > mx ? lg[w] : mx;
	for (int w = 0; w < V; w++)
		sum += exp(lg[w] - mx);
	return lg[y] - mx - log(sum);
}

static const struct trace_rec *sample_rec(const struct trace *tr, int t)
{
	for (int i = 1; i <= tr->n; i++) {
		const struct trace_rec *r = trace_find(tr, REC_SAMPLE, 0, t, i);
		if (r)
			return r;
	}
	ck_abort_msg("no REC_SAMPLE at step %d", t);
	return NULL;
}

/* seed 0: u from SplitMix64's published first outputs
 * (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F), and every
 * other number of the step from the formulas of doc/model.md */
START_TEST(test_hard_by_hand)
{
	static const unsigned long long x[3] = {
		0xE220A8397B1DCDAFULL, 0x6E789E6AA1B965F4ULL,
		0x06C45D188009454FULL
	};
	const int H = 2;
	struct trace tr;
	build_hard(&tr, TGT, 3, 0, 0);
	double b = 0;
	for (int t = 1; t <= 4; t++) {
		const struct trace_rec *r = sample_rec(&tr, t);
		const double *a = need(&tr, REC_SOFTMAX, 0, t, 0)->result;
		/* u from the published outputs, then the cumulative sums */
		if (t <= 3)
			ck_assert(r->ops[3].v[0] ==
				  (double)(x[t - 1] >> 11) / 9007199254740992.0);
		double cum = 0;
		int l = -1;
		for (int j = 0; j < 3; j++) {
			cum += a[j];
			ck_assert(fabs(r->ops[1].v[j] - cum) <= TOL);
			if (l < 0 && r->ops[3].v[0] < cum)
				l = j;
		}
		ck_assert_int_eq(r->i, l + 1);
		/* c_t = h_l, and it goes into [c_t; s_t] */
		const double *h = need(&tr, REC_RNN, -1, 0, l + 1)->result;
		const double *cs = need(&tr, REC_CONCAT, 0, t, 0)->result;
		const double *s = need(&tr, REC_RNN, 0, t, 0)->result;
		for (int k = 0; k < H; k++) {
			ck_assert(r->result[k] == h[k]);
			ck_assert(cs[k] == h[k]);
		}
		/* the exact view */
		const struct trace_rec *x2 = need(&tr, REC_EXACT, 0, t, 0);
		int y = t <= 3 ? TGT[t - 1] : M.eos;
		double lp[3], e = 0, mix = 0;
		for (int j = 0; j < 3; j++) {
			lp[j] = luong_logp(need(&tr, REC_RNN, -1, 0, j + 1)->result,
					   s, y);
			ck_assert(fabs(x2->ops[1].v[j] - lp[j]) <= TOL);
			e += a[j] * lp[j];
			mix += a[j] * exp(lp[j]);
		}
		ck_assert(fabs(x2->ops[2].v[0] - e) <= TOL);
		ck_assert(fabs(x2->ops[3].v[0] - log(mix)) <= TOL);
		ck_assert(fabs(x2->result[0] - (log(mix) - e)) <= TOL);
		ck_assert(x2->result[0] >= 0); /* Jensen */
		/* --gradient: R, b, the terms; ∂R/∂c by central differences */
		const struct trace_rec *g = need(&tr, REC_GRADIENT, 0, t, 0);
		double R = lp[l], hh = 0;
		ck_assert(fabs(g->ops[1].v[0] - R) <= TOL);
		ck_assert(fabs(g->ops[2].v[0] - b) <= TOL);
		ck_assert(fabs(g->ops[3].v[0] - (R - b)) <= TOL);
		for (int j = 0; j < 3; j++)
			hh -= a[j] * log(a[j]);
		ck_assert(fabs(g->ops[5].v[0] - hh) <= TOL);
		for (int j = 0; j < 3; j++) {
			double sf = 0.1 * (R - b) * ((j == l) - a[j]);
			double de = -0.002 * a[j] * (log(a[j]) + hh);
			ck_assert(fabs(g->ops[4].v[j] - sf) <= TOL);
			ck_assert(fabs(g->ops[6].v[j] - de) <= TOL);
			ck_assert(fabs(g->result[j] - (sf + de)) <= TOL);
		}
		for (int k = 0; k < H; k++) {
			double cp[2] = { h[0], h[1] }, cm[2] = { h[0], h[1] };
			cp[k] += 1e-6;
			cm[k] -= 1e-6;
			double fd = (luong_logp(cp, s, y) - luong_logp(cm, s, y)) /
				    2e-6;
			ck_assert_msg(fabs(g->ops[7].v[k] - fd) <= 1e-7,
				      "∂R/∂c_%d,%d: %.17g, differences %.17g",
				      t, k + 1, g->ops[7].v[k], fd);
		}
		b = 0.9 * b + 0.1 * R;
	}
	trace_free(&tr);
}
END_TEST

/* argmax: the first largest weight, no u, and greedy: no exact view */
START_TEST(test_hard_argmax)
{
	struct trace tr;
	build_hard(&tr, NULL, 0, 5, 1);
	for (int t = 1; t <= tr.runs[0].nsteps; t++) {
		const struct trace_rec *r = sample_rec(&tr, t);
		const double *a = need(&tr, REC_SOFTMAX, 0, t, 0)->result;
		int best = 0;
		for (int j = 1; j < 3; j++)
			if (a[j] > a[best])
				best = j;
		ck_assert_int_eq(r->i, best + 1);
		ck_assert_int_eq(r->nops, 3);
		ck_assert(trace_find(&tr, REC_EXACT, 0, t, 0) == NULL);
	}
	trace_free(&tr);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("tiny model");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_encoder_by_hand);
	tcase_add_test(tc, test_every_stage_teacher_forced);
	tcase_add_test(tc, test_every_stage_greedy);
	tcase_add_test(tc, test_score_terms_by_scorer);
	tcase_add_test(tc, test_symbols);
	tcase_add_test(tc, test_names_part);
	tcase_add_test(tc, test_one_scorer_only);
	tcase_add_test(tc, test_bad_lengths);
	tcase_add_test(tc, test_positions_limit);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_hard_by_hand);
	tcase_add_test(tc, test_hard_argmax);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(trace_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
