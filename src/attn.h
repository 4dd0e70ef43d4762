/* attn.h: the arithmetic of attention, one pure function a stage.
 *
 * Every function reads const inputs and writes into memory the caller owns.
 * None prints, allocates, or keeps state; all vectors are double precision
 * and matrices are row-major. */
#ifndef ATTN_ATTN_H
#define ATTN_ATTN_H

/* out = W x, where W is (rows, cols) and x is (cols); out is (rows). */
void attn_matvec(double *out, const double *W, const double *x,
		 int rows, int cols);

/* Returns a·b, summed in index order, for vectors of length n. */
double attn_dot(const double *a, const double *b, int n);

/* One Elman RNN step, h = tanh(W_x x + W_h h_prev + b), keeping the parts:
 *   wx   (H)  W_x x
 *   wh   (H)  W_h h_prev
 *   pre  (H)  wx + wh + b
 *   h    (H)  tanh(pre)
 * Wx is (H, E), Wh is (H, H), b and h_prev are (H), x is (E). */
void attn_rnn_step(double *wx, double *wh, double *pre, double *h,
		   const double *Wx, const double *Wh, const double *b,
		   const double *x, const double *h_prev, int E, int H);

/* Dot scorer: e[i] = s · Hs[i] for the n encoder states Hs (n, d). */
void attn_score_dot(double *e, const double *s, const double *Hs,
		    int n, int d);

/* General scorer: e[i] = s · (W Hs[i]).  Wh (n, d) receives each W Hs[i];
 * W is (d, d). */
void attn_score_general(double *e, double *Wh, const double *s,
			const double *Hs, const double *W, int n, int d);

/* Concat scorer: e[i] = v · tanh(W [s; Hs[i]]).  pre (n, A) receives each
 * W [s; Hs[i]] and act (n, A) its tanh; W is (A, 2d), v is (A). */
void attn_score_concat(double *e, double *pre, double *act, const double *s,
		       const double *Hs, const double *W, const double *v,
		       int n, int d, int A);

/* Softmax over e (n), stable: subtracts the maximum first.
 *   shifted (n)  e[i] - max
 *   ex      (n)  exp(shifted[i])
 *   alpha   (n)  ex[i] / sum
 * Stores the sum in *sum and returns the maximum.  n >= 1. */
double attn_softmax(double *alpha, double *shifted, double *ex, double *sum,
		    const double *e, int n);

/* Weighted sum: terms[i] = alpha[i] * Hs[i] and c = sum of the terms, added
 * in index order.  terms is (n, d), c is (d). */
void attn_weighted_sum(double *c, double *terms, const double *alpha,
		       const double *Hs, int n, int d);

/* out (na + nb) = [a; b]. */
void attn_concat(double *out, const double *a, int na, const double *b,
		 int nb);

/* out[i] = tanh(x[i]) for n values. */
void attn_tanh(double *out, const double *x, int n);

/* Returns the index of the largest of x[0..n), the first on ties. */
int attn_argmax(const double *x, int n);

#endif
