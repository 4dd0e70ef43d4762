/* check_self.c: self- and cross-attention (src/self.c) against values
 * worked out by hand on a model whose weights are not symmetric, so that a
 * transposed weight, swapped heads or a swapped concatenation fails. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "model.h"
#include "self.h"
#include "self_diagram.h"
#include "self_view.h"
#include "utf8.h"
#include "view_key.h"

/* E = 4: two heads of d_k = 2.  With x_a = (1, 0, 0, 0) and
 * x_b = (0, 1, 0, 0) (no positions), W x_a is W's first column and W x_b
 * its second:
 *   q_a = (1, 0, 0, 3)  q_b = (2, 1, 0, 0)
 *   k_a = (0, 1, 2, 0)  k_b = (1, 0, 0, 0)
 *   v_a = (1, 0, 2, 0)  v_b = (4, -1, 0, 3)
 * head 1: q_a.k_a = 0, q_a.k_b = 1, q_b.k_a = 1, q_b.k_b = 2, so both
 * rows are softmax(u, u + 1/√2): weights (1 - p, p), p = 1/(1 + e^-(1/√2));
 * z = (1 - p) (1, 0) + p (4, -1) = (1 + 3p, -p).
 * head 2: q_a.k_a = 0 (3·0), every score 0, weights (1/2, 1/2),
 * z = ((2, 0) + (0, 3)) / 2 = (1, 1.5).
 * W_O sends c to (c_4, c_1, c_2, 2 c_3). */
static const char MODEL[] =
	"attn-trace-model 1\nembedding 4\nhidden 1\nattention 1\n"
	"[source]\na 1 0 0 0\nb 0 1 0 0\n"
	"[target]\n<s> 0 0 0 0\n</s> 0 0 0 0\nx 0 1 0 0\n"
	"[encoder.W_x]\n1 0 0 0\n[encoder.W_h]\n0\n[encoder.b]\n0\n"
	"[decoder.W_x]\n1 0 0 0\n[decoder.W_h]\n0\n[decoder.b]\n0\n"
	"[output.W_c]\n1 0\n[output.W_s]\n<s> 0\n</s> 0\nx 1\n"
	"[self.W_Q]\n1 2 0 0\n0 1 0 0\n0 0 0 0\n3 0 0 0\n"
	"[self.W_K]\n0 1 0 0\n1 0 0 0\n2 0 0 0\n0 0 0 0\n"
	"[self.W_V]\n1 4 0 0\n0 -1 0 0\n2 0 0 0\n0 3 0 0\n"
	"[self.W_O]\n0 0 0 1\n1 0 0 0\n0 1 0 0\n0 0 2 0\n"
	/* cross: W_Q twice self's, the rest the same */
	"[cross.W_Q]\n2 4 0 0\n0 2 0 0\n0 0 0 0\n6 0 0 0\n"
	"[cross.W_K]\n0 1 0 0\n1 0 0 0\n2 0 0 0\n0 0 0 0\n"
	"[cross.W_V]\n1 4 0 0\n0 -1 0 0\n2 0 0 0\n0 3 0 0\n"
	"[cross.W_O]\n0 0 0 1\n1 0 0 0\n0 1 0 0\n0 0 2 0\n";

#define TOL 1e-12

static void load(struct model *m)
{
	struct errbuf err;
	ck_assert_msg(model_parse(m, MODEL, strlen(MODEL), "t.model", &err)
		      == 0, "%s", err.msg);
}

static void build(struct self_trace *t, const struct model *m, int cross,
		  int causal, int position)
{
	static const int ki[2] = { 0, 1 }, qi[1] = { 2 };
	struct self_opts o = { cross, causal, position };
	struct errbuf err;
	ck_assert_msg(self_build(t, m, &o, ki, 2, qi, 1, 3u, &err) == 0, "%s",
		      err.msg);
}

START_TEST(test_pe)
{
	double pe[4];
	self_pe(0, 4, pe);
	ck_assert_double_eq(pe[0], 0);
	ck_assert_double_eq(pe[1], 1);
	ck_assert_double_eq(pe[2], 0);
	ck_assert_double_eq(pe[3], 1);
	self_pe(2, 4, pe); /* 10000^(2/4) = 100 */
	ck_assert_double_eq_tol(pe[0], sin(2.0), TOL);
	ck_assert_double_eq_tol(pe[1], cos(2.0), TOL);
	ck_assert_double_eq_tol(pe[2], sin(0.02), TOL);
	ck_assert_double_eq_tol(pe[3], cos(0.02), TOL);
}
END_TEST

START_TEST(test_self_by_hand)
{
	struct model m;
	struct self_trace t;
	const double r2 = sqrt(2.0), p = 1 / (1 + exp(-1 / r2));
	load(&m);
	build(&t, &m, 0, 0, 0);
	ck_assert_int_eq(t.dk, 2);
	/* Q, K and V: the columns of the weights */
	const double Q[8] = { 1, 0, 0, 3, 2, 1, 0, 0 };
	const double K[8] = { 0, 1, 2, 0, 1, 0, 0, 0 };
	const double V[8] = { 1, 0, 2, 0, 4, -1, 0, 3 };
	for (int k = 0; k < 8; k++) {
		ck_assert_double_eq(t.Q[k], Q[k]);
		ck_assert_double_eq(t.K[k], K[k]);
		ck_assert_double_eq(t.V[k], V[k]);
	}
	/* head 1: q_i.k_j, then / √2 */
	const double dot[4] = { 0, 1, 1, 2 };
	for (int k = 0; k < 4; k++) {
		ck_assert_double_eq(t.dot[0][k], dot[k]);
		ck_assert_double_eq_tol(t.S[0][k], dot[k] / r2, TOL);
		ck_assert_double_eq_tol(t.dot[1][k], 0, TOL);
	}
	ck_assert_double_eq_tol(t.A[0][0], 1 - p, TOL);
	ck_assert_double_eq_tol(t.A[0][1], p, TOL);
	ck_assert_double_eq_tol(t.A[0][3], p, TOL);
	ck_assert_double_eq_tol(t.A[1][1], 0.5, TOL);
	ck_assert_double_eq_tol(t.Z[0][0], 1 + 3 * p, TOL);
	ck_assert_double_eq_tol(t.Z[0][1], -p, TOL);
	ck_assert_double_eq_tol(t.Z[1][2], 1, TOL); /* row b, head 2 */
	ck_assert_double_eq_tol(t.Z[1][3], 1.5, TOL);
	/* concat: head 1 first */
	const double C[4] = { 1 + 3 * p, -p, 1, 1.5 };
	const double Y[4] = { 1.5, 1 + 3 * p, -p, 2 };
	for (int k = 0; k < 4; k++) {
		ck_assert_double_eq_tol(t.C[k], C[k], TOL);
		ck_assert_double_eq_tol(t.Y[k], Y[k], TOL);
	}
	self_free(&t);
	model_free(&m);
}
END_TEST

/* Recomputes record r from its operands as trace.h's table says, and
 * compares. */
static void rec_consistent(const struct trace_rec *r)
{
	const int rows = r->rows, cols = r->len / r->rows;
	ck_assert_int_eq(r->len % r->rows, 0);
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			double want = 0, got = r->result[i * cols + j];
			const struct trace_operand *a = &r->ops[0];
			switch (r->kind) {
			case REC_X:
				want = a->v[i * cols + j] +
				       (r->nops > 1 ? r->ops[1].v[i * cols + j] : 0);
				break;
			case REC_PROJECT:
			case REC_HEAD_SCORES:
			case REC_HEAD_Z: {
				const struct trace_operand *x =
					&r->ops[r->term_ops[0]],
					*y = &r->ops[r->term_ops[1]];
				int K = x->len / x->rows;
				for (int k = 0; k < K; k++)
					want += x->v[i * K + k] *
						(r->matmul == MATMUL_ABT
						 ? y->v[j * K + k]
						 : y->v[k * cols + j]);
				if (r->divisor)
					want /= *r->divisor;
				break;
			}
			case REC_MASK:
				want = j > i ? -INFINITY : a->v[i * cols + j];
				break;
			case REC_ROW_SOFTMAX:
				want = r->ops[3].v[i * cols + j] / r->ops[4].v[i];
				if (isinf(a->v[i * cols + j]))
					ck_assert(r->ops[3].v[i * cols + j] == 0);
				else
					ck_assert_double_eq_tol(
						r->ops[2].v[i * cols + j] +
						r->ops[1].v[i],
						a->v[i * cols + j], TOL);
				break;
			case REC_HEADS_CONCAT: {
				int dk = cols / 2;
				want = r->ops[j / dk].v[i * dk + j % dk];
				break;
			}
			default:
				ck_abort_msg("a record of kind %d", r->kind);
			}
			if (isinf(want))
				ck_assert(isinf(got) && got < 0);
			else
				ck_assert_double_eq_tol(got, want, TOL);
		}
}

/* The records of the trace (trace.h, "Self-attention's"): in the order of
 * the stages, matrix-shaped with their axes and names, every one
 * recomputed from its operands. */
START_TEST(test_records)
{
	struct model m;
	struct self_trace t;
	load(&m);
	build(&t, &m, 1, 1, 1); /* cross, causal, with positions */
	const struct trace *tr = &t.tr;
	static const struct {
		enum trace_kind kind;
		enum trace_stage stage;
		const char *key;
		int head, rows, cols;
		enum op_axis row_axis, col_axis;
	} want[] = {
		{ REC_X, STAGE_INPUT, "X_q", 0, 1, 4, AXIS_TARGET, AXIS_NONE },
		{ REC_X, STAGE_INPUT, "X", 0, 2, 4, AXIS_SOURCE, AXIS_NONE },
		{ REC_PROJECT, STAGE_PROJECTION, "Q", 0, 1, 4, AXIS_TARGET,
		  AXIS_NONE },
		{ REC_PROJECT, STAGE_PROJECTION, "K", 0, 2, 4, AXIS_SOURCE,
		  AXIS_NONE },
		{ REC_PROJECT, STAGE_PROJECTION, "V", 0, 2, 4, AXIS_SOURCE,
		  AXIS_NONE },
		{ REC_HEAD_SCORES, STAGE_SCORING, "scores", 1, 1, 2, AXIS_TARGET,
		  AXIS_SOURCE },
		{ REC_MASK, STAGE_SCORING, "scores_masked", 1, 1, 2, AXIS_TARGET,
		  AXIS_SOURCE },
		{ REC_ROW_SOFTMAX, STAGE_SOFTMAX, "A", 1, 1, 2, AXIS_TARGET,
		  AXIS_SOURCE },
		{ REC_HEAD_Z, STAGE_WEIGHTED_SUM, "Z", 1, 1, 2, AXIS_TARGET,
		  AXIS_NONE },
		{ REC_HEAD_SCORES, STAGE_SCORING, "scores", 2, 1, 2, AXIS_TARGET,
		  AXIS_SOURCE },
		{ REC_MASK, STAGE_SCORING, "scores_masked", 2, 1, 2, AXIS_TARGET,
		  AXIS_SOURCE },
		{ REC_ROW_SOFTMAX, STAGE_SOFTMAX, "A", 2, 1, 2, AXIS_TARGET,
		  AXIS_SOURCE },
		{ REC_HEAD_Z, STAGE_WEIGHTED_SUM, "Z", 2, 1, 2, AXIS_TARGET,
		  AXIS_NONE },
		{ REC_HEADS_CONCAT, STAGE_CONCAT, "concat", 0, 1, 4,
		  AXIS_TARGET, AXIS_NONE },
		{ REC_PROJECT, STAGE_OUTPUT, "output", 0, 1, 4, AXIS_TARGET,
		  AXIS_NONE },
	};
	ck_assert_int_eq(tr->prog, TRACE_SELF);
	ck_assert_int_eq(tr->nrecs, (int)(sizeof want / sizeof want[0]));
	for (int k = 0; k < tr->nrecs; k++) {
		const struct trace_rec *r = &tr->recs[k];
		ck_assert_int_eq(r->kind, want[k].kind);
		ck_assert_int_eq(r->stage, want[k].stage);
		ck_assert_str_eq(r->key, want[k].key);
		ck_assert_int_eq(r->head, want[k].head);
		ck_assert_int_eq(r->rows, want[k].rows);
		ck_assert_int_eq(r->len, want[k].rows * want[k].cols);
		ck_assert_int_eq(r->row_axis, want[k].row_axis);
		ck_assert_int_eq(r->result_axis, want[k].col_axis);
		rec_consistent(r);
	}
	/* the query x is a target word; W_Q·y_1's entry 4 is 6·y_1[1] */
	const struct trace_rec *q = &tr->recs[2];
	ck_assert_ptr_eq(q->ops[1].v, m.mha[MHA_CROSS][MHA_Q]);
	ck_assert_double_eq_tol(q->result[3], 6 * tr->recs[0].result[0], TOL);
	/* the names of entry (1, 2) of head 2's scores: e_1,2 */
	struct trace_rec cell;
	struct trace_names nm;
	trace_cell(tr, &tr->recs[9], 0, 1, &cell);
	trace_names(tr, &cell, &nm);
	ck_assert_str_eq(nm.symbol, "e_1,2");
	ck_assert_str_eq(nm.op[2], "q_1[h2]·k_2[h2]");
	trace_cell(tr, &tr->recs[9], 1, 0, &cell); /* row 2 of K_h */
	trace_names(tr, &cell, &nm);
	ck_assert_str_eq(nm.op[1], "k_2[h2]");
	trace_cell(tr, &tr->recs[0], 0, 0, &cell);
	trace_names(tr, &cell, &nm);
	ck_assert_str_eq(nm.formula, "emb(x) + PE(0)");
	self_free(&t);
	/* only the heads asked for have records; no mask without --causal */
	static const int ki[2] = { 0, 1 };
	struct self_opts o = { 0, 0, 1 };
	struct errbuf err;
	ck_assert(self_build(&t, &m, &o, ki, 2, NULL, 0, 2u, &err) == 0);
	ck_assert_int_eq(t.tr.nrecs, 1 + 3 + 3 + 2);
	for (int k = 0; k < t.tr.nrecs; k++) {
		ck_assert(t.tr.recs[k].head == 0 || t.tr.recs[k].head == 2);
		rec_consistent(&t.tr.recs[k]);
	}
	self_free(&t);
	model_free(&m);
}
END_TEST

START_TEST(test_causal_by_hand)
{
	struct model m;
	struct self_trace t;
	load(&m);
	build(&t, &m, 0, 1, 0);
	/* row a sees a alone: z1 = v_a[h1] = (1, 0), z2 = v_a[h2] = (2, 0) */
	ck_assert(isinf(t.M[0][1]) && t.M[0][1] < 0);
	ck_assert(isinf(t.M[1][1]) && t.M[1][1] < 0);
	ck_assert(!isinf(t.M[0][2]) && !isinf(t.M[0][3]));
	ck_assert_double_eq(t.A[0][0], 1);
	ck_assert_double_eq(t.A[0][1], 0);
	ck_assert_double_eq(t.A[1][1], 0);
	const double Y[4] = { 0, 1, 0, 4 };
	for (int k = 0; k < 4; k++)
		ck_assert_double_eq_tol(t.Y[k], Y[k], TOL);
	/* row b is as without the mask */
	ck_assert_double_eq_tol(t.A[1][3], 0.5, TOL);
	self_free(&t);
	model_free(&m);
}
END_TEST

START_TEST(test_cross_by_hand)
{
	struct model m;
	struct self_trace t;
	/* the query x = (0, 1, 0, 0) from [target], cross W_Q = 2 self's:
	 * q = (4, 2, 0, 0); head 1 scores (2, 4) / √2, weight of b
	 * p = 1 / (1 + e^-√2) */
	const double p = 1 / (1 + exp(-sqrt(2.0)));
	load(&m);
	build(&t, &m, 1, 0, 0);
	ck_assert_int_eq(t.nq, 1);
	ck_assert_int_eq(t.n, 2);
	ck_assert_str_eq(t.qwords[0], "x");
	ck_assert_double_eq(t.Q[0], 4);
	ck_assert_double_eq(t.Q[1], 2);
	ck_assert_double_eq_tol(t.A[0][1], p, TOL);
	ck_assert_double_eq_tol(t.Z[0][0], 1 + 3 * p, TOL);
	ck_assert_double_eq_tol(t.Y[1], 1 + 3 * p, TOL);
	self_free(&t);
	model_free(&m);
}
END_TEST

START_TEST(test_position_added)
{
	struct model m;
	struct self_trace t;
	double pe[4];
	load(&m);
	build(&t, &m, 0, 0, 1);
	self_pe(1, 4, pe);
	/* x_b = (0, 1, 0, 0) + PE(1) */
	ck_assert_double_eq_tol(t.Xk[4], pe[0], TOL);
	ck_assert_double_eq_tol(t.Xk[5], 1 + pe[1], TOL);
	/* q_b[1] = row 1 of W_Q (1 2 0 0) . x_b */
	ck_assert_double_eq_tol(t.Q[4], pe[0] + 2 * (1 + pe[1]), TOL);
	self_free(&t);
	model_free(&m);
}
END_TEST

START_TEST(test_model_without_groups)
{
	struct model m;
	struct self_trace t;
	struct errbuf err;
	static const int ki[1] = { 0 };
	struct self_opts o = { 0, 0, 1 };
	ck_assert(model_load_named(&m, "handset4", &err) == 0);
	ck_assert_int_eq(self_build(&t, &m, &o, ki, 1, NULL, 0, 3u, &err), -1);
	ck_assert(strstr(err.msg, "[self.W_Q]") != NULL);
	model_free(&m);
}
END_TEST

/* The first body line that holds text, or NULL. */
static const char *body_find(const struct view_screen *s, const char *text)
{
	for (int k = 0; k < s->nbody; k++)
		if (strstr(s->body[k], text))
			return s->body[k];
	return NULL;
}

/* The stepper's screens: the heads side by side, the bars of one row,
 * and the keys that move between stages, rows and heads. */
START_TEST(test_view_screens)
{
	struct model m;
	struct self_trace t;
	struct self_view v;
	struct view_screen s;
	const double p = 1 / (1 + exp(-1 / sqrt(2.0)));
	char want[64];
	load(&m);
	build(&t, &m, 0, 1, 0); /* causal */
	self_view_init(&v, &t, 3, 4, 100);
	self_view_render(&v, &s);
	ck_assert_str_eq(s.where, "stage 1 of 6: X = embeddings + positional "
			 "encoding");
	ck_assert_int_eq(s.nbars, 0);
	view_screen_free(&s);
	ck_assert_int_eq(self_view_key(&v, VIEW_KEY_LEFT), VIEW_KEY_BEEP);
	ck_assert_int_eq(self_view_key(&v, VIEW_KEY_RIGHT), VIEW_KEY_REDRAW);
	ck_assert_int_eq(self_view_key(&v, 'n'), VIEW_KEY_REDRAW);
	self_view_render(&v, &s);
	ck_assert_str_eq(s.where, "stage 3 of 6: scores, scaling and mask");
	/* both heads on one line, head 1 first */
	const char *line = body_find(&s, "head 1: e, masked");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "head 2: e, masked"));
	ck_assert(strstr(line, "head 1") < strstr(line, "head 2"));
	/* row a of both heads: a's own score, then b masked */
	line = body_find(&s, "1 a ");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "-inf"));
	/* the bars: row 1 of head 1, a alone under the mask */
	ck_assert_int_eq(s.nbars, 2);
	ck_assert_str_eq(s.bars[0].label, "a");
	ck_assert_str_eq(s.bars[0].value, "1.0000");
	ck_assert(s.bars[0].is_max && !s.bars[1].is_max);
	view_screen_free(&s);
	/* r: row 2, whose weights are (1 - p, p) in head 1 */
	ck_assert_int_eq(self_view_key(&v, 'r'), VIEW_KEY_REDRAW);
	self_view_render(&v, &s);
	snprintf(want, sizeof want, "%.4f", p);
	ck_assert_str_eq(s.bars[1].value, want);
	ck_assert(s.bars[1].is_max);
	ck_assert_ptr_nonnull(strstr(s.bars_title, "row 2 (b), head 1"));
	view_screen_free(&s);
	/* h: head 2, uniform */
	self_view_key(&v, 'h');
	self_view_render(&v, &s);
	ck_assert_str_eq(s.bars[0].value, "0.5000");
	ck_assert_ptr_nonnull(strstr(s.bars_title, "head 2"));
	view_screen_free(&s);
	/* the heatmap of the softmax stage */
	self_view_key(&v, VIEW_KEY_RIGHT);
	self_view_render(&v, &s);
	ck_assert_ptr_nonnull(body_find(&s, "head 1: A (heatmap)"));
	ck_assert_ptr_nonnull(body_find(&s, "█"));
	view_screen_free(&s);
	/* < and > scroll the body sideways, 8 columns a key; < at the
	 * first column is refused; another stage starts at the first */
	ck_assert_int_eq(self_view_key(&v, '<'), VIEW_KEY_BEEP);
	ck_assert_int_eq(self_view_key(&v, '>'), VIEW_KEY_REDRAW);
	ck_assert_int_eq(self_view_key(&v, '>'), VIEW_KEY_REDRAW);
	ck_assert_int_eq(v.hscroll, 16);
	ck_assert_int_eq(self_view_key(&v, '<'), VIEW_KEY_REDRAW);
	ck_assert_int_eq(v.hscroll, 8);
	self_view_key(&v, VIEW_KEY_LEFT);
	ck_assert_int_eq(v.hscroll, 0);
	self_view_key(&v, VIEW_KEY_RIGHT);
	ck_assert_int_eq(self_view_key(&v, VIEW_KEY_END), VIEW_KEY_REDRAW);
	ck_assert_int_eq(self_view_key(&v, VIEW_KEY_RIGHT), VIEW_KEY_BEEP);
	ck_assert_int_eq(v.stage, SELF_STAGE_OUT);
	/* the key bar's arrows in ASCII, as the main stepper's: '←' is
	 * drawn as '?' under a locale that is not UTF-8; it fits 78 */
	self_view_render(&v, &s);
	ck_assert_ptr_nonnull(strstr(s.keys, "<-/-> stage"));
	ck_assert_ptr_null(strstr(s.keys, "←"));
	ck_assert_int_le(utf8_width(s.keys), 78);
	view_screen_free(&s);
	ck_assert_int_eq(self_view_key(&v, '?'), VIEW_KEY_REDRAW);
	self_view_render(&v, &s);
	ck_assert_str_eq(s.body[0], self_view_help[0]);
	view_screen_free(&s);
	ck_assert_int_eq(self_view_key(&v, 'x'), VIEW_KEY_REDRAW);
	ck_assert_int_eq(self_view_key(&v, 'q'), VIEW_KEY_QUIT);
	self_free(&t);
	model_free(&m);
}
END_TEST

/* --heads=2: the stepper shows head 2 alone, and its bars. */
START_TEST(test_view_one_head)
{
	struct model m;
	struct self_trace t;
	struct self_view v;
	struct view_screen s;
	load(&m);
	build(&t, &m, 0, 0, 0);
	self_view_init(&v, &t, 2, 4, 100);
	ck_assert_int_eq(v.head, 1);
	v.stage = SELF_STAGE_SOFTMAX;
	self_view_render(&v, &s);
	ck_assert_ptr_null(body_find(&s, "head 1"));
	ck_assert_ptr_nonnull(body_find(&s, "head 2: A (heatmap)"));
	view_screen_free(&s);
	self_view_key(&v, 'h'); /* the only head: stays */
	ck_assert_int_eq(v.head, 1);
	self_free(&t);
	model_free(&m);
}
END_TEST

/* The line diagram of a head: its pairs hold the weights of the
 * REC_ROW_SOFTMAX record, worked by hand (the model above: under the
 * causal mask row a weighs (1, masked) and row b (1 - p, p) in head 1,
 * (1/2, 1/2) in head 2), its lines are as thick as the weights are
 * large, and its picture fits each width. */
static const char *line_find(const struct self_diagram *d, const char *text)
{
	for (int k = 0; k < d->nlines; k++)
		if (strstr(d->lines[k], text))
			return d->lines[k];
	return NULL;
}

START_TEST(test_diagram)
{
	struct model m;
	struct self_trace t;
	struct self_diagram d;
	const double p = 1 / (1 + exp(-1 / sqrt(2.0)));
	static const int widths[] = { 30, 80, 100, 200 };
	load(&m);
	build(&t, &m, 0, 1, 0); /* causal */
	ck_assert_int_eq(self_diagram_build(&d, &t, 0, -1, 80, 4), 0);
	ck_assert_int_eq(d.npairs, 4);
	ck_assert_int_eq(d.nq, 2);
	ck_assert_int_eq(d.n, 2);
	/* row a: a alone, b masked */
	ck_assert_int_eq(d.pairs[0].i, 0);
	ck_assert_int_eq(d.pairs[0].j, 0);
	ck_assert_double_eq_tol(d.pairs[0].w, 1, TOL);
	ck_assert_int_eq(d.pairs[0].masked, 0);
	ck_assert_int_eq(d.pairs[0].is_max, 1);
	ck_assert_int_eq(d.pairs[0].level, 4);
	ck_assert_int_eq(d.pairs[1].masked, 1);
	ck_assert_int_eq(d.pairs[1].level, 0);
	ck_assert_int_eq(d.pairs[1].is_max, 0);
	/* row b: 1 - p ≈ 0.33 then p ≈ 0.67, the larger thicker */
	ck_assert_int_eq(d.pairs[2].i, 1);
	ck_assert_int_eq(d.pairs[3].j, 1);
	ck_assert_double_eq_tol(d.pairs[2].w, 1 - p, TOL);
	ck_assert_double_eq_tol(d.pairs[3].w, p, TOL);
	ck_assert_int_eq(d.pairs[2].level, 2);
	ck_assert_int_eq(d.pairs[3].level, 3);
	ck_assert_int_eq(d.pairs[2].is_max, 0);
	ck_assert_int_eq(d.pairs[3].is_max, 1);
	/* the picture: the thick line of a to a, b masked, b's largest */
	ck_assert_ptr_nonnull(strstr(line_find(&d, " 1 a "), "####"));
	ck_assert_ptr_nonnull(strstr(line_find(&d, " 1 a "), "1.0000"));
	ck_assert_ptr_nonnull(line_find(&d, "masked"));
	ck_assert_ptr_null(strstr(line_find(&d, "masked"), "#"));
	ck_assert_ptr_nonnull(strstr(line_find(&d, "0.6698"), "===="));
	ck_assert_ptr_nonnull(strstr(line_find(&d, "0.6698"),
				     "<- largest"));
	ck_assert_ptr_nonnull(strstr(line_find(&d, "0.3302"), "----"));
	self_diagram_free(&d);
	/* every width: no line wider, one line a key per row shown */
	for (size_t k = 0; k < sizeof widths / sizeof *widths; k++) {
		ck_assert_int_eq(self_diagram_build(&d, &t, 1, 1, widths[k], 4),
				 0);
		ck_assert_int_eq(d.npairs, 2);
		ck_assert_int_eq(d.nlines, 2 + 1 + 2);
		for (int l = 0; l < d.nlines; l++)
			ck_assert_msg(utf8_width(d.lines[l]) <= widths[k],
				      "width %d: %s", widths[k], d.lines[l]);
		/* head 2: equal weights, equal lines, the first the max */
		ck_assert_double_eq_tol(d.pairs[0].w, 0.5, TOL);
		ck_assert_double_eq_tol(d.pairs[1].w, 0.5, TOL);
		ck_assert_int_eq(d.pairs[0].level, d.pairs[1].level);
		ck_assert_int_eq(d.pairs[0].is_max + d.pairs[1].is_max, 1);
		ck_assert_int_eq(d.pairs[0].is_max, 1);
		self_diagram_free(&d);
	}
	/* the thickness never falls as the weight grows */
	for (double w = 0; w < 1; w += 0.01)
		ck_assert_int_le(self_diagram_level(w),
				 self_diagram_level(w + 0.01));
	ck_assert_int_eq(self_diagram_level(0), 1);
	ck_assert_int_eq(self_diagram_level(1), SELF_DIAGRAM_LEVELS - 1);
	ck_assert_int_eq(self_diagram_build(&d, &t, 0, 2, 80, 4), -1);
	ck_assert_int_eq(self_diagram_build(&d, &t, 2, 0, 80, 4), -1);
	self_free(&t);
	model_free(&m);
}
END_TEST

/* The stepper's d shows the diagram of the head and row of the bars. */
START_TEST(test_view_diagram)
{
	struct model m;
	struct self_trace t;
	struct self_view v;
	struct view_screen s;
	load(&m);
	build(&t, &m, 0, 1, 0);
	self_view_init(&v, &t, 3, 4, 80);
	ck_assert_int_eq(self_view_key(&v, 'd'), VIEW_KEY_REDRAW);
	self_view_render(&v, &s);
	ck_assert_str_eq(s.where, "line diagram of head 1, query row 1 (a)");
	ck_assert_ptr_nonnull(body_find(&s, "masked"));
	view_screen_free(&s);
	self_view_key(&v, 'r');
	self_view_key(&v, 'h');
	self_view_render(&v, &s);
	ck_assert_str_eq(s.where, "line diagram of head 2, query row 2 (b)");
	ck_assert_ptr_null(body_find(&s, "masked"));
	ck_assert_ptr_nonnull(body_find(&s, "0.5000  <- largest"));
	view_screen_free(&s);
	ck_assert_int_eq(self_view_key(&v, 'd'), VIEW_KEY_REDRAW);
	self_view_render(&v, &s);
	ck_assert_str_eq(s.where, "stage 1 of 6: X = embeddings + positional "
			 "encoding");
	view_screen_free(&s);
	self_free(&t);
	model_free(&m);
}
END_TEST

/* The questions on a self-attention trace, worked by hand. */
START_TEST(test_quiz_by_hand)
{
	struct model m;
	struct self_trace t;
	struct quiz_question q;
	struct quiz_answer a;
	struct errbuf err;
	char *text = NULL;
	size_t len = 0;
	const double p = 1 / (1 + exp(-1 / sqrt(2.0)));
	load(&m);
	build(&t, &m, 0, 1, 0); /* causal */
	/* e_2,2 of head 1: q_b.k_b / √2 = 2 / √2 */
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_SCORE, 1, 2, 2, 0, 4,
					&err), 0);
	ck_assert_str_eq(q.symbol, "e_2,2[h1]");
	ck_assert_double_eq_tol(q.expected, sqrt(2.0), TOL);
	ck_assert_int_eq(quiz_check(&q, "1.4142", &a), QUIZ_RIGHT);
	ck_assert_int_eq(quiz_check(&q, "0.7071", &a), QUIZ_WRONG);
	FILE *f = open_memstream(&text, &len);
	quiz_prompt_text(f, &q);
	quiz_worked_text(f, &q);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "What is the score e_2,2[h1]"));
	ck_assert_ptr_nonnull(strstr(text, "e_2,2[h1] = (2.0000×1.0000 + "
				     "1.0000×0.0000) / 1.4142 = 2.0000 / 1.4142"
				     " = 1.4142"));
	free(text);
	/* α_1,2 of head 1 is masked: 0; α_2,2 is p */
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_WEIGHT, 1, 1, 2, 0, 4,
					&err), 0);
	ck_assert_double_eq(q.expected, 0);
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_WEIGHT, 1, 2, 2, 0, 4,
					&err), 0);
	ck_assert_double_eq_tol(q.expected, p, TOL);
	text = NULL;
	f = open_memstream(&text, &len);
	quiz_prompt_text(f, &q);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "after the causal mask"));
	free(text);
	/* the worked softmax of row b: scores 1/√2 and 2/√2, so max 2/√2,
	 * exps e^(-1/√2) = 0.49307 and 1, sum 1.49307 */
	text = NULL;
	f = open_memstream(&text, &len);
	quiz_worked_text(f, &q);
	fclose(f);
	ck_assert_str_eq(text, "max = 1.4142\n"
			 "exp(e_2,1 - max) = exp(-0.7071) = 0.4931\n"
			 "exp(e_2,2 - max) = exp(0.0000) = 1.0000\n"
			 "sum = 1.4931\n"
			 "α_2,2[h1] = exp(e_2,2 - max) / sum = 0.6698\n");
	free(text);
	/* z_2[h1][1] = 1 + 3p; z_1[h2][1] = v_a[h2][1] = 2 (row a sees a) */
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_Z, 1, 2, 0, 1, 4,
					&err), 0);
	ck_assert_double_eq_tol(q.expected, 1 + 3 * p, TOL);
	/* worked from the weights (1 - p, p) and v_a[h1], v_b[h1] = (1, 0),
	 * (4, -1) */
	text = NULL;
	f = open_memstream(&text, &len);
	quiz_prompt_text(f, &q);
	quiz_worked_text(f, &q);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "v_2[h1] (b)"));
	ck_assert_ptr_nonnull(strstr(text, "z_2[h1][1] = 0.3302×1.0000 + "
				     "0.6698×4.0000 = 3.0093\n"));
	free(text);
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_Z, 2, 1, 0, 1, 4,
					&err), 0);
	ck_assert_double_eq_tol(q.expected, 2, TOL);
	ck_assert_str_eq(q.symbol, "z_1[h2][1]");
	/* out of range */
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_Z, 1, 1, 0, 3, 4,
					&err), -1);
	ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_SCORE, 3, 1, 1, 0, 4,
					&err), -1);
	self_free(&t);
	/* a trace of head 2 alone has no records of head 1 to ask about */
	{
		static const int ki[2] = { 0, 1 };
		struct self_opts o = { 0, 0, 0 };
		ck_assert_int_eq(self_build(&t, &m, &o, ki, 2, NULL, 0, 2u,
					    &err), 0);
		ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_WEIGHT, 1, 1,
						1, 0, 4, &err), -1);
		ck_assert_str_eq(err.msg, "head 1 is not in the "
				 "self-attention trace");
		ck_assert_int_eq(self_quiz_make(&q, &t, SELF_QUIZ_WEIGHT, 2, 1,
						1, 0, 4, &err), 0);
		ck_assert_double_eq_tol(q.expected, 0.5, TOL);
		self_free(&t);
	}
	model_free(&m);
}
END_TEST

/* A lesson's self-attention quiz in the stepper: the question, and the
 * answer checked against the trace. */
START_TEST(test_lesson_quiz_in_stepper)
{
	static const char text[] =
		"title: T\nmodel: self4\nsentence: zone économique européenne\n"
		"page: p\nshow self=softmax head=1\n"
		"page: q\nquiz self-weight i=2 j=1 head=1 causal\n";
	struct lesson l;
	struct model m;
	struct trace tr;
	struct errbuf err;
	struct view v;
	ck_assert_msg(lesson_parse(&l, text, sizeof text - 1, "t.lesson", &err)
		      == 0, "%s", err.msg);
	ck_assert_msg(lesson_prepare(&l, &m, &tr, &err) == 0, "%s", err.msg);
	ck_assert_ptr_null(lesson_page_quiz(&l, 0));
	const struct lesson_show *sh = lesson_page_quiz(&l, 1);
	ck_assert_ptr_nonnull(sh);
	/* the expected answer is the causal trace's α_2,1 of head 1 */
	const struct self_trace *st = l.selfs[LESSON_SELF_CAUSAL];
	ck_assert_ptr_nonnull(st);
	view_init(&v, &tr, &l, 4, 78);
	view_goto(&v, 1);
	ck_assert_int_eq(view_quiz_start(&v, 1, &err), 0);
	ck_assert_double_eq(v.quiz.expected, st->A[0][1 * st->n + 0]);
	char answer[32];
	snprintf(answer, sizeof answer, "%.4f", v.quiz.expected);
	for (const char *c = answer; *c; c++)
		view_quiz_type(&v, (unsigned char)*c);
	ck_assert_int_eq(view_quiz_answer(&v), 1);
	ck_assert_ptr_nonnull(strstr(v.quiz_feedback, "right: α_2,1[h1]"));
	view_free(&v);
	trace_free(&tr);
	model_free(&m);
	lesson_free(&l);
}
END_TEST

static Suite *self_suite(void)
{
	Suite *s = suite_create("self");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_pe);
	tcase_add_test(tc, test_self_by_hand);
	tcase_add_test(tc, test_records);
	tcase_add_test(tc, test_causal_by_hand);
	tcase_add_test(tc, test_cross_by_hand);
	tcase_add_test(tc, test_position_added);
	tcase_add_test(tc, test_model_without_groups);
	tcase_add_test(tc, test_view_screens);
	tcase_add_test(tc, test_view_one_head);
	tcase_add_test(tc, test_diagram);
	tcase_add_test(tc, test_view_diagram);
	tcase_add_test(tc, test_quiz_by_hand);
	tcase_add_test(tc, test_lesson_quiz_in_stepper);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(self_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
