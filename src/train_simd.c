/* train_simd.c: attn.h's output-layer kernels built for AVX2
 * (train_simd.h).
 *
 * attn.h is included after "#pragma GCC target", so that its inline
 * functions are compiled here for AVX2 (and not FMA) and inlined into the
 * wrappers; train_simd_avx2, after the target is restored, is plain code
 * that any x86-64 runs, and the only one the trainer calls before it
 * knows the processor has AVX2. */
#include "config.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TRAIN_SIMD_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#include "attn.h"
#include "train_simd.h"

void train_simd_matvec_t(double *restrict out, const double *restrict Wt,
			 const double *restrict x, int rows, int cols)
{
	attn_matvec_t(out, Wt, x, rows, cols);
}

void train_simd_linear_back(double *restrict G, double *restrict dx,
			    const double *restrict W, int ld,
			    const double *restrict dy,
			    const double *restrict x, int rows, int cols)
{
	attn_linear_back(G, dx, W, ld, dy, x, rows, cols);
}

#ifdef TRAIN_SIMD_AVX2
#pragma GCC pop_options

int train_simd_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") != 0;
}
#else
int train_simd_avx2(void)
{
	return 0;
}
#endif
