/* attn.c: the arithmetic of attention.  Pure: no I/O, no allocation. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "attn.h"

void attn_tanh(double *out, const double *x, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = tanh(x[i]);
}

void attn_rnn_step(double *wx, double *wh, double *pre, double *h,
		   const double *Wx, const double *Wh, const double *b,
		   const double *x, const double *h_prev, int E, int H)
{
	/* step 1: the input through W_x, the previous state through W_h */
	attn_matvec(wx, Wx, x, H, E);
	attn_matvec(wh, Wh, h_prev, H, H);
	/* step 2: add them with the bias */
	for (int k = 0; k < H; k++)
		pre[k] = wx[k] + wh[k] + b[k];
	/* step 3: squash */
	attn_tanh(h, pre, H);
}

double attn_softmax(double *alpha, double *shifted, double *ex, double *sum,
		    const double *e, int n)
{
	/* step 1: the maximum */
	double max = e[attn_argmax(e, n)];
	/* step 2: subtract it and exponentiate; the largest term is exp(0) = 1 */
	double total = 0.0;
	for (int i = 0; i < n; i++) {
		shifted[i] = e[i] - max;
		ex[i] = exp(shifted[i]);
		total += ex[i];
	}
	/* step 3: divide by the sum, which is at least 1 */
	for (int i = 0; i < n; i++)
		alpha[i] = ex[i] / total;
	*sum = total;
	return max;
}

void attn_weighted_sum(double *c, double *terms, const double *alpha,
		       const double *Hs, int n, int d)
{
	memset(c, 0, sizeof *c * (size_t)d);
	for (int i = 0; i < n; i++) {
		double *t = terms + (size_t)i * d;
		for (int k = 0; k < d; k++) {
			t[k] = alpha[i] * Hs[(size_t)i * d + k];
			c[k] += t[k];
		}
	}
}

void attn_concat(double *out, const double *a, int na, const double *b,
		 int nb)
{
	memcpy(out, a, sizeof *a * (size_t)na);
	memcpy(out + na, b, sizeof *b * (size_t)nb);
}
