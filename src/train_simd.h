/* train_simd.h: the output layer's kernels of attn.h built for AVX2, which
 * the trainer runs instead of the plain builds when the processor has AVX2
 * (train_simd_avx2).
 *
 * Each is the attn.h function of the same name after "train_simd_", the
 * same C compiled again with 256-bit vectors: four lanes of a vector do
 * what two did, each element getting the same IEEE additions and
 * multiplications in the same order (no fused multiply-add: neither is
 * it enabled, nor would -std=c11 let the compiler contract a * b + c), so
 * the results are the same bits as the plain builds' (tests/check_train.c
 * checks it).  The default build assumes no AVX2: without it, or with a
 * compiler other than GCC on x86-64, train_simd_avx2 returns 0 and the
 * trainer never calls these. */
#ifndef ATTN_TRAIN_SIMD_H
#define ATTN_TRAIN_SIMD_H

/* 1 when these were built for AVX2 and the processor (and the operating
 * system) can run them, else 0. */
int train_simd_avx2(void);

void train_simd_matvec_t(double *restrict out, const double *restrict Wt,
			 const double *restrict x, int rows, int cols);
void train_simd_linear_back(double *restrict G, double *restrict dx,
			    const double *restrict W, int ld,
			    const double *restrict dy,
			    const double *restrict x, int rows, int cols);

#endif
