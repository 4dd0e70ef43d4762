/* self.c: self-attention and cross-attention with two heads, every
 * matrix recorded (self.h).  Sums run in index order, as in attn.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "self.h"
#include "util.h"

void self_pe(int pos, int d, double *out)
{
	for (int c = 0; c < d; c++) {
		int i2 = c - c % 2; /* 2i */
		double angle = pos / pow(10000.0, (double)i2 / d);
		out[c] = c % 2 ? cos(angle) : sin(angle);
	}
}

int self_check_model(const struct model *m, int group, struct errbuf *err)
{
	const char *g = group == MHA_SELF ? "self" : "cross";
	const char *what = group == MHA_SELF ? _("self-attention")
					     : _("cross-attention");
	if (!(model_mha(m) & MHA_PARAM_BIT(group))) {
		err_set(err, _("%s: %s needs the weights [%s.W_Q], [%s.W_K], "
			"[%s.W_V] and [%s.W_O], which this model does not "
			"have; the built-in model self4 has them"),
			m->name ? m->name : "", what, g, g, g, g);
		return -1;
	}
	if (m->E % SELF_HEADS != 0) {
		err_set(err, _("%s: %s splits the embedding into %d heads, so "
			"it needs an even embedding size, not %d"),
			m->name ? m->name : "", what, SELF_HEADS, m->E);
		return -1;
	}
	return 0;
}

/* A matrix of the trace's storage, zeroed. */
static double *self_mat(struct trace *tr, int rows, int cols)
{
	return trace_alloc(tr, (size_t)rows * (size_t)cols);
}

/* Adds operand (rows, cols) to r, its rows over row_axis and its columns
 * over col_axis. */
static struct trace_operand *self_op(struct trace_rec *r, enum op_role role,
				     const char *name, const char *key,
				     const double *v, int rows, int cols,
				     enum op_axis row_axis,
				     enum op_axis col_axis)
{
	struct trace_operand *op = trace_rec_op(r, role, name, key, v,
						rows * cols, rows);
	op->row_axis = row_axis;
	op->axis = col_axis;
	return op;
}

/* A new record of result res (rows, cols) named key, symbol and formula
 * templates as trace.h describes them. */
static struct trace_rec *self_rec(struct trace *tr, enum trace_kind kind,
				  enum trace_stage stage, int head,
				  const char *key, const char *symbol,
				  const char *formula, const double *res,
				  int rows, int cols, enum op_axis row_axis,
				  enum op_axis col_axis)
{
	struct trace_rec *r = trace_rec_new(tr, kind, stage, -1, 0, 0);
	r->head = head;
	r->key = key;
	r->symbol = symbol;
	r->formula = formula;
	r->result = res;
	r->len = rows * cols;
	r->rows = rows;
	r->row_axis = row_axis;
	r->result_axis = col_axis;
	return r;
}

/* X = embedding + PE (if position) for the words idx of v, recorded. */
static double *self_inputs(struct trace *tr, const struct vocab *v,
			   const int *idx, int n, int d, int position,
			   char **words, enum op_axis axis, const char *key,
			   int query, double **Eout, double **PEout)
{
	double *E = self_mat(tr, n, d), *PE = self_mat(tr, n, d);
	double *X = self_mat(tr, n, d);
	*Eout = E;
	*PEout = PE;
	for (int i = 0; i < n; i++) {
		words[i] = xstrdup(v->words[idx[i]]);
		memcpy(E + (size_t)i * d, v->emb + (size_t)idx[i] * d,
		       (size_t)d * sizeof *E);
		if (position)
			self_pe(i, d, PE + (size_t)i * d);
		for (int c = 0; c < d; c++)
			X[i * d + c] = E[i * d + c] + PE[i * d + c];
	}
	const char *sym = query ? "y_{i}" : "x_{i}";
	struct trace_rec *r = self_rec(tr, REC_X, STAGE_INPUT, 0, key, sym,
				       position ? "emb({w}) + PE({i-1})"
						: "emb({w})",
				       X, n, d, axis, AXIS_NONE);
	if (tr->self.cross)
		r->title = query ? N_("queries (target words):")
				 : N_("keys and values (source words):");
	self_op(r, OP_INPUT, "emb({w})", query ? "emb_q" : "emb", E, n, d, axis,
		AXIS_NONE);
	if (position)
		self_op(r, OP_MID, "PE({i-1})", query ? "PE_q" : "PE", PE, n,
			d, axis, AXIS_NONE);
	return X;
}

/* out (rows, d) = X (rows, d) Wᵀ: row i is W x_i, recorded as key. */
static double *self_project(struct trace *tr, enum trace_stage stage,
			    const char *key, const char *symbol,
			    const char *formula, const char *xname,
			    const double *X, int rows, int d,
			    const char *wname, const double *W,
			    enum op_axis axis)
{
	double *out = self_mat(tr, rows, d);
	for (int i = 0; i < rows; i++)
		for (int r = 0; r < d; r++) {
			double s = 0;
			for (int c = 0; c < d; c++)
				s += W[r * d + c] * X[i * d + c];
			out[i * d + r] = s;
		}
	struct trace_rec *r = self_rec(tr, REC_PROJECT, stage, 0, key, symbol,
				       formula, out, rows, d, axis, AXIS_NONE);
	self_op(r, OP_INPUT, xname, NULL, X, rows, d, axis, AXIS_NONE);
	self_op(r, OP_WEIGHT, wname, NULL, W, d, d, AXIS_NONE, AXIS_NONE);
	r->matmul = MATMUL_ABT;
	r->term_ops[0] = 0;
	r->term_ops[1] = 1;
	return out;
}

/* The head's features h·d_k … of M (rows, d), as a matrix (rows, d_k). */
static double *self_slice(struct trace *tr, const double *M, int rows, int d,
			  int dk, int h)
{
	double *out = self_mat(tr, rows, dk);
	for (int i = 0; i < rows; i++)
		memcpy(out + (size_t)i * dk, M + (size_t)i * d + h * dk,
		       (size_t)dk * sizeof *out);
	return out;
}

/* The stages of head h: scores, scaling, mask, softmax, Z; recorded when
 * the head is shown. */
static void self_head(struct self_trace *t, struct trace *tr, int h,
		      int shown)
{
	const int n = t->n, nq = t->nq, d = t->d, dk = t->dk;
	const enum op_axis qa = t->o.cross ? AXIS_TARGET : AXIS_SOURCE;
	double *scale = self_mat(tr, 1, 1);
	double *Qh = self_slice(tr, t->Q, nq, d, dk, h);
	double *Kh = self_slice(tr, t->K, n, d, dk, h);
	double *Vh = self_slice(tr, t->V, n, d, dk, h);
	double *max = self_mat(tr, nq, 1), *sum = self_mat(tr, nq, 1);
	double *shift = self_mat(tr, nq, n), *ex = self_mat(tr, nq, n);
	struct trace_rec *r;

	*scale = sqrt((double)dk);
	t->dot[h] = self_mat(tr, nq, n);
	t->S[h] = self_mat(tr, nq, n);
	t->M[h] = t->o.causal ? self_mat(tr, nq, n) : t->S[h];
	t->A[h] = self_mat(tr, nq, n);
	t->Z[h] = self_mat(tr, nq, dk);
	for (int i = 0; i < nq; i++) {
		double *dot = t->dot[h] + (size_t)i * n, *S = t->S[h] + (size_t)i * n;
		double *M = t->M[h] + (size_t)i * n, *A = t->A[h] + (size_t)i * n;
		double *sh = shift + (size_t)i * n, *e = ex + (size_t)i * n;
		max[i] = -INFINITY;
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int c = 0; c < dk; c++)
				s += Qh[i * dk + c] * Kh[j * dk + c];
			dot[j] = s;
			S[j] = s / *scale;
			M[j] = self_masked(t, i, j) ? -INFINITY : S[j];
			if (M[j] > max[i])
				max[i] = M[j];
		}
		for (int j = 0; j < n; j++) {
			sh[j] = self_masked(t, i, j) ? -INFINITY : M[j] - max[i];
			e[j] = self_masked(t, i, j) ? 0 : exp(sh[j]);
			sum[i] += e[j];
		}
		for (int j = 0; j < n; j++)
			A[j] = e[j] / sum[i];
		for (int c = 0; c < dk; c++) {
			double z = 0;
			for (int j = 0; j < n; j++)
				z += A[j] * Vh[j * dk + c];
			t->Z[h][i * dk + c] = z;
		}
	}
	if (!shown)
		return;
	r = self_rec(tr, REC_HEAD_SCORES, STAGE_SCORING, h + 1, "scores",
		     "e_{i},{t}", "q_{i}[h{h}]·k_{t}[h{h}] / √d_k", t->S[h], nq,
		     n, qa, AXIS_SOURCE);
	r->title = N_("scores: e_i,j = (q_i[h{h}]·k_j[h{h}]) / √d_k");
	self_op(r, OP_MID, "q_{i}[h{h}]", "Q_h", Qh, nq, dk, qa, AXIS_NONE);
	self_op(r, OP_MID, "k_{i}[h{h}]", "K_h", Kh, n, dk, AXIS_SOURCE,
		AXIS_NONE);
	self_op(r, OP_MID, "q_{i}[h{h}]·k_{t}[h{h}]", "QK", t->dot[h], nq, n,
		qa, AXIS_SOURCE);
	self_op(r, OP_MID, "√d_k", "scale", scale, 1, 1, AXIS_NONE, AXIS_NONE);
	r->matmul = MATMUL_ABT;
	r->term_ops[0] = 0;
	r->term_ops[1] = 1;
	r->divisor = scale;
	if (t->o.causal) {
		r = self_rec(tr, REC_MASK, STAGE_SCORING, h + 1,
			     "scores_masked", "e_{i},{t}", "", t->M[h], nq, n, qa, AXIS_SOURCE);
		r->title = N_("causal mask: a query sees no later word");
		self_op(r, OP_INPUT, "e_{i},{t}", NULL, t->S[h], nq, n, qa,
			AXIS_SOURCE)->id = "scores";
	}
	r = self_rec(tr, REC_ROW_SOFTMAX, STAGE_SOFTMAX, h + 1, "A",
		     "α_{i}[h{h}]", "", t->A[h], nq, n, qa, AXIS_SOURCE);
	r->title = N_("softmax of each row:");
	self_op(r, OP_INPUT, "e_{i},{t}", NULL, t->M[h], nq, n, qa,
		AXIS_SOURCE)->id = "scores";
	self_op(r, OP_MID, "max", "max", max, nq, 1, qa, AXIS_NONE);
	self_op(r, OP_MID, "e_{i},{t} - max", "shifted", shift, nq, n, qa,
		AXIS_SOURCE);
	self_op(r, OP_MID, "exp(e_{i},{t} - max)", "exp", ex, nq, n, qa,
		AXIS_SOURCE);
	self_op(r, OP_MID, "sum", "sum", sum, nq, 1, qa, AXIS_NONE);
	r = self_rec(tr, REC_HEAD_Z, STAGE_WEIGHTED_SUM, h + 1, "Z",
		     "z_{i}[h{h}]", "Σ_j α_{i},j v_j[h{h}]", t->Z[h], nq, dk,
		     qa, AXIS_NONE);
	self_op(r, OP_INPUT, "α_{i}[h{h}]", NULL, t->A[h], nq, n, qa,
		AXIS_SOURCE)->id = "A";
	self_op(r, OP_MID, "v_{i}[h{h}]", "V_h", Vh, n, dk, AXIS_SOURCE,
		AXIS_NONE);
	r->matmul = MATMUL_AB;
	r->term_ops[0] = 0;
	r->term_ops[1] = 1;
}

int self_build(struct self_trace *t, const struct model *m,
	       const struct self_opts *o, const int *ki, int n,
	       const int *qi, int nq, unsigned heads, struct errbuf *err)
{
	const int group = o->cross ? MHA_CROSS : MHA_SELF;
	memset(t, 0, sizeof *t);
	if (self_check_model(m, group, err) != 0)
		return -1;
	if (!o->cross) {
		qi = ki;
		nq = n;
	}
	const int d = m->E;
	struct trace *tr = &t->tr;
	const enum op_axis qa = o->cross ? AXIS_TARGET : AXIS_SOURCE;
	t->o = *o;
	t->n = n;
	t->nq = nq;
	t->d = d;
	t->dk = d / SELF_HEADS;
	t->model_name = m->name;
	tr->m = m;
	tr->prog = TRACE_SELF;
	tr->self = (struct trace_self){ o->cross, o->causal, o->position,
		SELF_HEADS, d, t->dk, heads & ((1u << SELF_HEADS) - 1) };
	tr->n = n;
	tr->src = xcalloc((size_t)n, sizeof *tr->src);
	memcpy(tr->src, ki, (size_t)n * sizeof *ki);
	if (o->cross) {
		tr->ntgt = nq;
		tr->tgt = xcalloc((size_t)nq, sizeof *tr->tgt);
		memcpy(tr->tgt, qi, (size_t)nq * sizeof *qi);
	}
	for (int k = 0; k < MHA_NW; k++)
		t->W[k] = m->mha[group][k];
	t->kwords = xcalloc((size_t)n, sizeof *t->kwords);
	t->qwords = xcalloc((size_t)nq, sizeof *t->qwords);
	/* cross-attention's queries first: the order of the stages */
	if (o->cross)
		t->Xq = self_inputs(tr, &m->tgt, qi, nq, d, o->position,
				    t->qwords, AXIS_TARGET, "X_q", 1, &t->Eq,
				    &t->PEq);
	t->Xk = self_inputs(tr, &m->src, ki, n, d, o->position, t->kwords,
			    AXIS_SOURCE, "X", 0, &t->Ek, &t->PEk);
	if (!o->cross) {
		t->Xq = t->Xk;
		t->Eq = t->Ek;
		t->PEq = t->PEk;
		for (int i = 0; i < n; i++)
			t->qwords[i] = xstrdup(t->kwords[i]);
	}
	const char *xq = o->cross ? "y_{i}" : "x_{i}";
	t->Q = self_project(tr, STAGE_PROJECTION, "Q", "q_{i}",
			    o->cross ? "W_Q·y_{i}" : "W_Q·x_{i}", xq, t->Xq,
			    nq, d, "W_Q", t->W[MHA_Q], qa);
	t->K = self_project(tr, STAGE_PROJECTION, "K", "k_{i}", "W_K·x_{i}",
			    "x_{i}", t->Xk, n, d, "W_K", t->W[MHA_K],
			    AXIS_SOURCE);
	t->V = self_project(tr, STAGE_PROJECTION, "V", "v_{i}", "W_V·x_{i}",
			    "x_{i}", t->Xk, n, d, "W_V", t->W[MHA_V],
			    AXIS_SOURCE);
	for (int h = 0; h < SELF_HEADS; h++)
		self_head(t, tr, h, (heads >> h) & 1u);
	t->C = self_mat(tr, nq, d);
	for (int i = 0; i < nq; i++)
		for (int h = 0; h < SELF_HEADS; h++)
			memcpy(t->C + (size_t)i * d + h * t->dk,
			       t->Z[h] + (size_t)i * t->dk,
			       (size_t)t->dk * sizeof *t->C);
	struct trace_rec *r = self_rec(tr, REC_HEADS_CONCAT, STAGE_CONCAT, 0,
				       "concat", "z_{i}",
				       "[z_{i}[h1]; z_{i}[h2]]", t->C, nq, d,
				       qa, AXIS_NONE);
	self_op(r, OP_INPUT, "z_{i}[h1]", NULL, t->Z[0], nq, t->dk, qa,
		AXIS_NONE);
	self_op(r, OP_INPUT, "z_{i}[h2]", NULL, t->Z[1], nq, t->dk, qa,
		AXIS_NONE);
	t->Y = self_project(tr, STAGE_OUTPUT, "output", "o_{i}", "W_O·z_{i}",
			    "z_{i}", t->C, nq, d, "W_O", t->W[MHA_O], qa);
	return 0;
}

void self_free(struct self_trace *t)
{
	for (int i = 0; t->kwords && i < t->n; i++)
		free(t->kwords[i]);
	for (int i = 0; t->qwords && i < t->nq; i++)
		free(t->qwords[i]);
	free(t->kwords);
	free(t->qwords);
	trace_free(&t->tr);
	memset(t, 0, sizeof *t);
}
