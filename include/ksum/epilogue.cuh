#include <onchip/names_push.h>
/* ksum/epilogue.cuh -- pieces applied to a GEMM's accumulator tile in registers: kernel functions of
 * t = s d^2, the weighted row reduction and the cross-block reduction.
 *
 * WHAT (Wang et al., fused kernel summation, Algorithm 2 lines 14-21)
 *   The accumulators hold t = s |a_i - b_j|^2 (clamped at 0 here).  A kernel function is two macros:
 *       NAME_SCALE(h)    host, double: the scale s > 0 for bandwidth h
 *       NAME_EVAL(T, t)  device: K as a function of t = s d^2 >= 0, in type T
 *   Built in: KSUM_GAUSS, KSUM_LAPLACE, KSUM_CAUCHY, KSUM_MATERN32, KSUM_MATERN52, KSUM_IMQ; one's
 *   own, NAME_EVAL naming one's kernel's parameters: docs/ksum.md#kernel-functions-epiloguecuh.
 *   Helpers ksum_exp2neg_T(t) = 2^-t, ksum_sqrt_T, ksum_rsqrt_T, ksum_rcp_T (T float or double).
 *
 * PIECES (function templates, KSUM_EPI_* their macros; docs/ksum.md#pieces-for-a-kernel-of-ones-own)
 *   ksum_epi_start(acc, na, nb)      acc[i][j] = na[i] + nb[j]
 *   ksum_epi_tile(acc, wv, vacc, kf) vacc[i][r] += sum_j kf(max(acc[i][j], 0)) wv[j][r]
 *   ksum_epi_pairs(acc, kf, op)      op(i, j, k) for every pair, k = kf(max(acc[i][j], 0))
 *   ksum_epi_rowsum16(vacc)          sums over the 16 lanes sharing ty
 *   ksum_epi_store(vacc, v, row0, m, nrhs, tx, ty, atomic, accumulate)   a store, v +=, or atomicAdd
 *   ksum_epi_rows(vacc, row0, m, tx, ty, op)   op(row, vacc[i]) once per row (one block a row)
 *   acc T[TM][TN], vacc T[TM][R], wv T[TN][R], na T[TM], nb T[TN] (register arrays, sizes deduced).
 */
#ifndef KSUM_EPILOGUE_CUH
#define KSUM_EPILOGUE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the math functions are built in */
#include <cuda_runtime.h>
#include <math.h>
#endif

#include "gemm.cuh"

#define KSUM__LOG2E 1.4426950408889634074

/* 2^-t for t >= 0: float with one MUFU.EX2 (the negation folds into its operand), double exact */
static __device__ __forceinline__ float ksum_exp2neg_float(float t)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(-t));
    return y;
}
static __device__ __forceinline__ double ksum_exp2neg_double(double t) { return exp2(-t); }
static __device__ __forceinline__ float ksum_sqrt_float(float t)
{
    float y;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
    return y;
}
static __device__ __forceinline__ float ksum_rcp_float(float t)
{
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(t));
    return y;
}
static __device__ __forceinline__ double ksum_rcp_double(double t) { return 1.0 / t; }
static __device__ __forceinline__ double ksum_sqrt_double(double t) { return sqrt(t); }
static __device__ __forceinline__ float ksum_rsqrt_float(float t) { return rsqrtf(t); }
static __device__ __forceinline__ double ksum_rsqrt_double(double t) { return rsqrt(t); }

#define KSUM_GAUSS_SCALE(h) (KSUM__LOG2E / (2.0 * (h) * (h)))
#define KSUM_GAUSS_EVAL(T, t) ksum_exp2neg_##T(t)
#define KSUM_LAPLACE_SCALE(h) (1.0 / ((h) * (h)))
#define KSUM_LAPLACE_EVAL(T, t) ksum_exp2neg_##T((T)KSUM__LOG2E * ksum_sqrt_##T(t))
#define KSUM_CAUCHY_SCALE(h) (1.0 / ((h) * (h)))
#define KSUM_CAUCHY_EVAL(T, t) ksum_rcp_##T((T)1 + (t))
#define KSUM_MATERN32_SCALE(h) (3.0 / ((h) * (h)))
#define KSUM_MATERN32_EVAL(T, t) ksum_matern32_##T(t)
#define KSUM_MATERN52_SCALE(h) (5.0 / ((h) * (h)))
#define KSUM_MATERN52_EVAL(T, t) ksum_matern52_##T(t)
#define KSUM_IMQ_SCALE(h) (1.0 / ((h) * (h)))
#define KSUM_IMQ_EVAL(T, t) ksum_rsqrt_##T((T)1 + (t))

static __device__ __forceinline__ float ksum_matern32_float(float t)
{
    float r = ksum_sqrt_float(t);
    return (1.0f + r) * ksum_exp2neg_float((float)KSUM__LOG2E * r);
}
static __device__ __forceinline__ double ksum_matern32_double(double t)
{
    double r = sqrt(t);
    return (1.0 + r) * exp(-r);
}
static __device__ __forceinline__ float ksum_matern52_float(float t)
{
    float r = ksum_sqrt_float(t);
    return (1.0f + r + t * (1.0f / 3.0f)) * ksum_exp2neg_float((float)KSUM__LOG2E * r);
}
static __device__ __forceinline__ double ksum_matern52_double(double t)
{
    double r = sqrt(t);
    return (1.0 + r + t / 3.0) * exp(-r);
}

template <class T, int TM, int TN>
static __device__ __forceinline__ void ksum_epi_start(T (&acc)[TM][TN], const T (&na)[TM], const T (&nb)[TN])
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = na[i] + nb[j];
}

template <class T, int TM, int TN, class K, class OP>
static __device__ __forceinline__ void ksum_epi_pairs(const T (&acc)[TM][TN], K kf, OP op)
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            const T t = acc[i][j] > (T)0 ? acc[i][j] : (T)0;
            const T k = kf(t);
            op(i, j, k);
        }
}

/* vacc[i][r] += kf(targ(i, j)) * wv[j][r]: ksum_epi_tile's loop with t a parameter (ksum.cuh's
 * float path clamps or rescales it its own way) */
template <class T, int TM, int TN, int R, class K, class TA>
static __device__ __forceinline__ void ksum__epi_apply(T (&vacc)[TM][R], const T (&wv)[TN][R], K kf, TA targ)
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            const T t = targ(i, j);
            const T k = kf(t);
#pragma unroll
            for (int r = 0; r < R; r++) vacc[i][r] = fma(k, wv[j][r], vacc[i][r]);
        }
}

template <class T, int TM, int TN, int R, class K>
static __device__ __forceinline__ void ksum_epi_tile(const T (&acc)[TM][TN], const T (&wv)[TN][R], T (&vacc)[TM][R], K kf)
{
    ksum__epi_apply(vacc, wv, kf, [&](int i, int j) { return acc[i][j] > (T)0 ? acc[i][j] : (T)0; });
}

template <class T, int TM, int R>
static __device__ __forceinline__ void ksum_epi_rowsum16(T (&vacc)[TM][R])
{
#pragma unroll
    for (int o = 8; o >= 1; o >>= 1)
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int r = 0; r < R; r++) vacc[i][r] += __shfl_xor_sync(0xffffffffu, vacc[i][r], o);
}

template <class T, int TM, int R>
static __device__ __forceinline__ void ksum_epi_store(const T (&vacc)[TM][R], T *v, long long row0, long long m, int nrhs,
                                                      int tx, int ty, int atomic, int accumulate)
{
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const long long row = row0 + KSUM_GEMM_ROW(i, ty);
        if (tx == i && row < m) {
            T *d = v + row * nrhs;
#pragma unroll
            for (int r = 0; r < R; r++) {
                if (r < nrhs) {
                    if (atomic) atomicAdd(d + r, vacc[i][r]);
                    else d[r] = accumulate ? d[r] + vacc[i][r] : vacc[i][r];
                }
            }
        }
    }
}

template <class T, int TM, int R, class OP>
static __device__ __forceinline__ void ksum_epi_rows(T (&vacc)[TM][R], long long row0, long long m, int tx, int ty, OP op)
{
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const long long row = row0 + KSUM_GEMM_ROW(i, ty);
        if (tx == i && row < m) op(row, vacc[i]);
    }
}

/* the macro spellings: KERNEL a kernel name (its NAME_EVAL may name the caller's variables), OP a macro */
#define KSUM_EPI_START(TM, TN, acc, na, nb) ksum_epi_start(acc, na, nb)
#define KSUM_EPI_TILE(T, TM, TN, R, KERNEL, acc, wv, vacc) \
    ksum_epi_tile<T, TM, TN, R>(acc, wv, vacc, [&](T t__) { return KERNEL##_EVAL(T, t__); })
#define KSUM_EPI_PAIRS(T, TM, TN, KERNEL, acc, OP)                                                   \
    ksum_epi_pairs<T, TM, TN>(acc, [&](T t__) { return KERNEL##_EVAL(T, t__); },                    \
                              [&](int i__, int j__, T k__) { OP(i__, j__, k__); })
#define KSUM_EPI_ROWSUM16(T, TM, R, vacc) ksum_epi_rowsum16<T, TM, R>(vacc)
#define KSUM_EPI_STORE(T, TM, R, vacc, v, row0, m, nrhs, tx, ty, atomic, accumulate) \
    ksum_epi_store<T, TM, R>(vacc, (T *)(v), row0, m, nrhs, tx, ty, atomic, accumulate)
#define KSUM_EPI_ROWS(TM, vacc, row0, m, tx, ty, OP) \
    ksum_epi_rows(vacc, row0, m, tx, ty, [&](long long row__, auto &sums__) { OP(row__, sums__); })

#endif
#include <onchip/names_pop.h>
