/* attn.h: the arithmetic of attention, one pure function a stage.
 *
 * Every function reads const inputs and writes into memory the caller owns.
 * None prints, allocates, or keeps state; all vectors are double precision
 * and matrices are row-major. */
#ifndef ATTN_ATTN_H
#define ATTN_ATTN_H

#include <stddef.h>

/* The small algebra that the trace, the scorers and training share,
 * inline so that the compiler can fold it into the loops that training
 * runs millions of times.  Sums run in index order, so the trace and
 * training get the same doubles. */

/* The kernels for the toy's constant sizes, inlined wherever they are
 * called, so that their locals stay in registers. */
#if defined(__GNUC__)
#define ATTN_INLINE inline __attribute__((always_inline))
#else
#define ATTN_INLINE inline
#endif

/* Returns a·b for vectors of length n, summed in index order (four terms
 * a round, still one after the other). */
static inline double attn_dot(const double *restrict a,
			      const double *restrict b, int n)
{
	double acc = 0.0;
	int k = 0;

	if (n == 4) { /* the toy's size: no loop */
		acc += a[0] * b[0];
		acc += a[1] * b[1];
		acc += a[2] * b[2];
		acc += a[3] * b[3];
		return acc;
	}
	for (; k + 4 <= n; k += 4) {
		acc += a[k] * b[k];
		acc += a[k + 1] * b[k + 1];
		acc += a[k + 2] * b[k + 2];
		acc += a[k + 3] * b[k + 3];
	}
	for (; k < n; k++)
		acc += a[k] * b[k];
	return acc;
}

/* out = W x, where W is (rows, cols) and x is (cols); out is (rows).
 * Each out[r] is attn_dot(row r, x, cols): summed from 0.0 in index
 * order.  Eight (then four) rows run side by side, each its own sum,
 * so that the chains of additions overlap instead of waiting one for
 * another: the same operations in the same order, so the same bits.  out
 * must not overlap W or x. */
static inline void attn_matvec(double *restrict out, const double *restrict W,
			       const double *restrict x, int rows, int cols)
{
	int r = 0;

	/* the toy's sizes, 4 x 4 and W_c's 4 x 8: four columns a turn */
	if (rows == 4 && cols % 4 == 0) {
		const double *w0 = W, *w1 = w0 + cols, *w2 = w1 + cols,
			     *w3 = w2 + cols;
		double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;

		for (int k = 0; k < cols; k += 4) {
			const double x0 = x[k], x1 = x[k + 1], x2 = x[k + 2],
				     x3 = x[k + 3];

			a0 += w0[k] * x0;
			a1 += w1[k] * x0;
			a2 += w2[k] * x0;
			a3 += w3[k] * x0;
			a0 += w0[k + 1] * x1;
			a1 += w1[k + 1] * x1;
			a2 += w2[k + 1] * x1;
			a3 += w3[k + 1] * x1;
			a0 += w0[k + 2] * x2;
			a1 += w1[k + 2] * x2;
			a2 += w2[k + 2] * x2;
			a3 += w3[k + 2] * x2;
			a0 += w0[k + 3] * x3;
			a1 += w1[k + 3] * x3;
			a2 += w2[k + 3] * x3;
			a3 += w3[k + 3] * x3;
		}
		out[0] = a0;
		out[1] = a1;
		out[2] = a2;
		out[3] = a3;
		return;
	}
	for (; r + 8 <= rows; r += 8) {
		const double *w0 = W + (size_t)r * cols, *w1 = w0 + cols;
		const double *w2 = w1 + cols, *w3 = w2 + cols;
		const double *w4 = w3 + cols, *w5 = w4 + cols;
		const double *w6 = w5 + cols, *w7 = w6 + cols;
		double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
		double a4 = 0.0, a5 = 0.0, a6 = 0.0, a7 = 0.0;

		for (int k = 0; k < cols; k++) {
			a0 += w0[k] * x[k];
			a1 += w1[k] * x[k];
			a2 += w2[k] * x[k];
			a3 += w3[k] * x[k];
			a4 += w4[k] * x[k];
			a5 += w5[k] * x[k];
			a6 += w6[k] * x[k];
			a7 += w7[k] * x[k];
		}
		out[r] = a0;
		out[r + 1] = a1;
		out[r + 2] = a2;
		out[r + 3] = a3;
		out[r + 4] = a4;
		out[r + 5] = a5;
		out[r + 6] = a6;
		out[r + 7] = a7;
	}
	for (; r + 4 <= rows; r += 4) {
		const double *w0 = W + (size_t)r * cols, *w1 = w0 + cols;
		const double *w2 = w1 + cols, *w3 = w2 + cols;
		double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;

		for (int k = 0; k < cols; k++) {
			a0 += w0[k] * x[k];
			a1 += w1[k] * x[k];
			a2 += w2[k] * x[k];
			a3 += w3[k] * x[k];
		}
		out[r] = a0;
		out[r + 1] = a1;
		out[r + 2] = a2;
		out[r + 3] = a3;
	}
	for (; r < rows; r++)
		out[r] = attn_dot(W + (size_t)r * cols, x, cols);
}

/* out = W x as attn_matvec computes it, given Wt = Wᵀ (cols, rows)
 * instead of W: each out[r] summed from 0.0 over k = 0, 1, .. in order,
 * so the same operations in the same order and the same bits, but a
 * column of W (a row of Wt) is contiguous, so that neighbouring rows'
 * sums run side by side in pairs (eight rows, then two, at a time).
 * For a matrix that stays the same across many products (training's
 * output layer within an epoch), transposed once.  out must not overlap
 * Wt or x. */
static inline void attn_matvec_t(double *restrict out,
				 const double *restrict Wt,
				 const double *restrict x, int rows, int cols)
{
	int r = 0;

	for (; r + 8 <= rows; r += 8) {
		double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
		double a4 = 0.0, a5 = 0.0, a6 = 0.0, a7 = 0.0;

		for (int k = 0; k < cols; k++) {
			const double *w = Wt + (size_t)k * rows + r;
			const double xk = x[k];

			a0 += w[0] * xk;
			a1 += w[1] * xk;
			a2 += w[2] * xk;
			a3 += w[3] * xk;
			a4 += w[4] * xk;
			a5 += w[5] * xk;
			a6 += w[6] * xk;
			a7 += w[7] * xk;
		}
		out[r] = a0;
		out[r + 1] = a1;
		out[r + 2] = a2;
		out[r + 3] = a3;
		out[r + 4] = a4;
		out[r + 5] = a5;
		out[r + 6] = a6;
		out[r + 7] = a7;
	}
	for (; r + 2 <= rows; r += 2) {
		double a0 = 0.0, a1 = 0.0;

		for (int k = 0; k < cols; k++) {
			const double *w = Wt + (size_t)k * rows + r;

			a0 += w[0] * x[k];
			a1 += w[1] * x[k];
		}
		out[r] = a0;
		out[r + 1] = a1;
	}
	for (; r < rows; r++) {
		double a = 0.0;

		for (int k = 0; k < cols; k++)
			a += Wt[(size_t)k * rows + r] * x[k];
		out[r] = a;
	}
}

/* Wt (cols, rows) = Wᵀ for W (rows, cols): attn_matvec_t's operand. */
static inline void attn_transpose(double *restrict Wt,
				  const double *restrict W, int rows, int cols)
{
	for (int r = 0; r < rows; r++)
		for (int k = 0; k < cols; k++)
			Wt[(size_t)k * rows + r] = W[(size_t)r * cols + k];
}

/* y (n) += d x (n). */
static inline void attn_axpy(double *restrict y, double d,
			     const double *restrict x, int n)
{
	int k = 0;

	for (; k + 4 <= n; k += 4) {
		y[k] += d * x[k];
		y[k + 1] += d * x[k + 1];
		y[k + 2] += d * x[k + 2];
		y[k + 3] += d * x[k + 3];
	}
	for (; k < n; k++)
		y[k] += d * x[k];
}

/* attn_linear_back for rows = cols = 4, with dx: the same operations in
 * the same order (each dx[k] summed over r = 0 .. 3 in turn from what it
 * held), unrolled, with x, dy and dx in locals. */
static ATTN_INLINE void attn_linear_back44(double *restrict G,
				      double *restrict dx,
				      const double *restrict W, int ld,
				      const double *restrict dy,
				      const double *restrict x)
{
	const double x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
	double a0 = dx[0], a1 = dx[1], a2 = dx[2], a3 = dx[3];

#define ATTN_LB44_ROW(r)                                                      \
	do {                                                                  \
		const double *w = W + (size_t)(r) * ld;                       \
		double *g = G + (size_t)(r) * ld;                             \
		const double d = dy[r];                                       \
		g[0] += d * x0;                                               \
		g[1] += d * x1;                                               \
		g[2] += d * x2;                                               \
		g[3] += d * x3;                                               \
		a0 += d * w[0];                                               \
		a1 += d * w[1];                                               \
		a2 += d * w[2];                                               \
		a3 += d * w[3];                                               \
	} while (0)
	ATTN_LB44_ROW(0);
	ATTN_LB44_ROW(1);
	ATTN_LB44_ROW(2);
	ATTN_LB44_ROW(3);
#undef ATTN_LB44_ROW
	dx[0] = a0;
	dx[1] = a1;
	dx[2] = a2;
	dx[3] = a3;
}

/* The backward pass of y = W x, W (rows, cols), given dy (rows): adds
 * dy ⊗ x to the gradient G of W and, unless dx is NULL, Wᵀ dy to dx (cols).
 * ld is the row stride of W and G (at least cols), so that a block of
 * columns can stand for the whole matrix. */
static inline void attn_linear_back_any(double *restrict G,
					double *restrict dx,
					const double *restrict W, int ld,
					const double *restrict dy,
					const double *restrict x, int rows,
					int cols)
{
	int k = 0;

	if (!dx) {
		for (int r = 0; r < rows; r++)
			attn_axpy(G + (size_t)r * ld, dy[r], x, cols);
		return;
	}
	/* One pass over the rows for eight (then four) columns at a time:
	 * G[r][k] += dy[r] x[k] (each element once, so in any order) and
	 * dx[k] += dy[r] W[r][k] for r = 0, 1, .. in turn, as attn_axpy row
	 * after row would, with those of dx held in locals across the rows
	 * rather than stored and reloaded at each: the same operations in
	 * the same order, so the same bits, the updates of G overlapping
	 * the chains of additions into dx. */
	for (; k + 8 <= cols; k += 8) { /* eight chains when there are 8 */
		double a0 = dx[k], a1 = dx[k + 1], a2 = dx[k + 2], a3 = dx[k + 3];
		double a4 = dx[k + 4], a5 = dx[k + 5], a6 = dx[k + 6],
		       a7 = dx[k + 7];
		const double x0 = x[k], x1 = x[k + 1], x2 = x[k + 2],
			     x3 = x[k + 3], x4 = x[k + 4], x5 = x[k + 5],
			     x6 = x[k + 6], x7 = x[k + 7];

		for (int r = 0; r < rows; r++) {
			const double *w = W + (size_t)r * ld + k;
			double *g = G + (size_t)r * ld + k, d = dy[r];

			g[0] += d * x0;
			g[1] += d * x1;
			g[2] += d * x2;
			g[3] += d * x3;
			g[4] += d * x4;
			g[5] += d * x5;
			g[6] += d * x6;
			g[7] += d * x7;
			a0 += d * w[0];
			a1 += d * w[1];
			a2 += d * w[2];
			a3 += d * w[3];
			a4 += d * w[4];
			a5 += d * w[5];
			a6 += d * w[6];
			a7 += d * w[7];
		}
		dx[k] = a0;
		dx[k + 1] = a1;
		dx[k + 2] = a2;
		dx[k + 3] = a3;
		dx[k + 4] = a4;
		dx[k + 5] = a5;
		dx[k + 6] = a6;
		dx[k + 7] = a7;
	}
	for (; k + 4 <= cols; k += 4) {
		double a0 = dx[k], a1 = dx[k + 1], a2 = dx[k + 2], a3 = dx[k + 3];
		const double x0 = x[k], x1 = x[k + 1], x2 = x[k + 2],
			     x3 = x[k + 3];

		for (int r = 0; r < rows; r++) {
			const double *w = W + (size_t)r * ld + k;
			double *g = G + (size_t)r * ld + k, d = dy[r];

			g[0] += d * x0;
			g[1] += d * x1;
			g[2] += d * x2;
			g[3] += d * x3;
			a0 += d * w[0];
			a1 += d * w[1];
			a2 += d * w[2];
			a3 += d * w[3];
		}
		dx[k] = a0;
		dx[k + 1] = a1;
		dx[k + 2] = a2;
		dx[k + 3] = a3;
	}
	for (; k < cols; k++) {
		double a = dx[k];

		for (int r = 0; r < rows; r++) {
			G[(size_t)r * ld + k] += dy[r] * x[k];
			a += dy[r] * W[(size_t)r * ld + k];
		}
		dx[k] = a;
	}
}

/* attn_linear_back for any shape; 4 x 4 with dx, the toy's size, inline
 * at the call (attn_linear_back44), the rest out of line. */
static ATTN_INLINE void attn_linear_back(double *restrict G,
					 double *restrict dx,
					 const double *restrict W, int ld,
					 const double *restrict dy,
					 const double *restrict x, int rows,
					 int cols)
{
	if (rows == 4 && cols == 4 && dx)
		attn_linear_back44(G, dx, W, ld, dy, x);
	else
		attn_linear_back_any(G, dx, W, ld, dy, x, rows, cols);
}

/* Returns the index of the largest of x[0..n), the first on ties. */
static inline int attn_argmax(const double *x, int n)
{
	int best = 0;
	double top = x[0]; /* x[best], kept in a local: no reload per word */

	for (int i = 1; i < n; i++)
		if (x[i] > top) {
			top = x[i];
			best = i;
		}
	return best;
}

/* One Elman RNN step, h = tanh(W_x x + W_h h_prev + b), keeping the parts:
 *   wx   (H)  W_x x
 *   wh   (H)  W_h h_prev
 *   pre  (H)  wx + wh + b
 *   h    (H)  tanh(pre)
 * Wx is (H, E), Wh is (H, H), b and h_prev are (H), x is (E). */
void attn_rnn_step(double *wx, double *wh, double *pre, double *h,
		   const double *Wx, const double *Wh, const double *b,
		   const double *x, const double *h_prev, int E, int H);

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

#endif
