/* self.c: self-attention and cross-attention with two heads, every
 * matrix recorded (self.h).  Sums run in index order, as in attn.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	if (!(model_mha(m) & MHA_PARAM_BIT(group))) {
		err_set(err, "%s: %s-attention needs the weights [%s.W_Q], "
			"[%s.W_K], [%s.W_V] and [%s.W_O], which this model "
			"does not have; the built-in model self4 has them",
			m->name ? m->name : "", g, g, g, g, g);
		return -1;
	}
	if (m->E % SELF_HEADS != 0) {
		err_set(err, "%s: %s-attention splits the embedding into %d "
			"heads, so it needs an even embedding size, not %d",
			m->name ? m->name : "", g, SELF_HEADS, m->E);
		return -1;
	}
	return 0;
}

static double *self_mat(int rows, int cols)
{
	return xcalloc((size_t)rows * (size_t)cols, sizeof(double));
}

/* X = embedding + PE (if position) for the words idx of v. */
static void self_inputs(const struct vocab *v, const int *idx, int n, int d,
			int position, char **words, double *E, double *PE,
			double *X)
{
	for (int i = 0; i < n; i++) {
		words[i] = xstrdup(v->words[idx[i]]);
		memcpy(E + (size_t)i * d, v->emb + (size_t)idx[i] * d,
		       (size_t)d * sizeof *E);
		if (position)
			self_pe(i, d, PE + (size_t)i * d);
		for (int c = 0; c < d; c++)
			X[i * d + c] = E[i * d + c] + PE[i * d + c];
	}
}

/* out (rows, d) = X (rows, d) Wᵀ: row i is W x_i. */
static void self_project(const double *X, int rows, int d, const double *W,
			 double *out)
{
	for (int i = 0; i < rows; i++)
		for (int r = 0; r < d; r++) {
			double s = 0;
			for (int c = 0; c < d; c++)
				s += W[r * d + c] * X[i * d + c];
			out[i * d + r] = s;
		}
}

/* The stages of head h: scores, scaling, mask, softmax, Z. */
static void self_head(struct self_trace *t, int h)
{
	const int n = t->n, nq = t->nq, d = t->d, dk = t->dk, off = h * dk;
	const double scale = sqrt((double)dk);

	t->dot[h] = self_mat(nq, n);
	t->S[h] = self_mat(nq, n);
	t->M[h] = self_mat(nq, n);
	t->A[h] = self_mat(nq, n);
	t->Z[h] = self_mat(nq, dk);
	for (int i = 0; i < nq; i++) {
		double *dot = t->dot[h] + (size_t)i * n, *S = t->S[h] + (size_t)i * n;
		double *M = t->M[h] + (size_t)i * n, *A = t->A[h] + (size_t)i * n;
		double max = -INFINITY, sum = 0;
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int c = 0; c < dk; c++)
				s += t->Q[i * d + off + c] * t->K[j * d + off + c];
			dot[j] = s;
			S[j] = s / scale;
			M[j] = self_masked(t, i, j) ? -INFINITY : S[j];
			if (M[j] > max)
				max = M[j];
		}
		for (int j = 0; j < n; j++) {
			A[j] = self_masked(t, i, j) ? 0 : exp(M[j] - max);
			sum += A[j];
		}
		for (int j = 0; j < n; j++)
			A[j] /= sum;
		for (int c = 0; c < dk; c++) {
			double z = 0;
			for (int j = 0; j < n; j++)
				z += A[j] * t->V[j * d + off + c];
			t->Z[h][i * dk + c] = z;
		}
	}
}

int self_build(struct self_trace *t, const struct model *m,
	       const struct self_opts *o, const int *ki, int n,
	       const int *qi, int nq, struct errbuf *err)
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
	t->o = *o;
	t->n = n;
	t->nq = nq;
	t->d = d;
	t->dk = d / SELF_HEADS;
	t->model_name = m->name;
	for (int k = 0; k < MHA_NW; k++)
		t->W[k] = m->mha[group][k];
	t->kwords = xcalloc((size_t)n, sizeof *t->kwords);
	t->qwords = xcalloc((size_t)nq, sizeof *t->qwords);
	t->Ek = self_mat(n, d);
	t->PEk = self_mat(n, d);
	t->Xk = self_mat(n, d);
	t->Eq = self_mat(nq, d);
	t->PEq = self_mat(nq, d);
	t->Xq = self_mat(nq, d);
	self_inputs(&m->src, ki, n, d, o->position, t->kwords, t->Ek, t->PEk,
		    t->Xk);
	self_inputs(o->cross ? &m->tgt : &m->src, qi, nq, d, o->position,
		    t->qwords, t->Eq, t->PEq, t->Xq);
	t->Q = self_mat(nq, d);
	t->K = self_mat(n, d);
	t->V = self_mat(n, d);
	self_project(t->Xq, nq, d, t->W[MHA_Q], t->Q);
	self_project(t->Xk, n, d, t->W[MHA_K], t->K);
	self_project(t->Xk, n, d, t->W[MHA_V], t->V);
	for (int h = 0; h < SELF_HEADS; h++)
		self_head(t, h);
	t->C = self_mat(nq, d);
	for (int i = 0; i < nq; i++)
		for (int h = 0; h < SELF_HEADS; h++)
			memcpy(t->C + (size_t)i * d + h * t->dk,
			       t->Z[h] + (size_t)i * t->dk,
			       (size_t)t->dk * sizeof *t->C);
	t->Y = self_mat(nq, d);
	self_project(t->C, nq, d, t->W[MHA_O], t->Y);
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
	double *mats[] = { t->Ek, t->PEk, t->Xk, t->Eq, t->PEq, t->Xq, t->Q,
			   t->K, t->V, t->C, t->Y };
	for (size_t k = 0; k < sizeof mats / sizeof mats[0]; k++)
		free(mats[k]);
	for (int h = 0; h < SELF_HEADS; h++) {
		free(t->dot[h]);
		free(t->S[h]);
		free(t->M[h]);
		free(t->A[h]);
		free(t->Z[h]);
	}
	memset(t, 0, sizeof *t);
}
