#include <onchip/names_push.h>
/* ksum/ksum.cuh -- fused kernel summation V = K(A, B) W: one kernel, no m x n matrix in memory.
 *
 * WHAT (Wang et al., fused kernel summation, Algorithm 2, generalised)
 *   KSUM_DEFINE(name, T, KERNEL) defines
 *       __global__ void name_norms(...), name_kernel(...)       the pre-pass and the fused kernel
 *                                                               (float: also name_kernel_stream)
 *       int name_launch(const ksum_args *a, cudaStream_t s)    checks, plans, launches; 0 or KSUM_E*
 *   computing, for targets a (m x dim) and sources b (n x dim), both point-major (see base.cuh),
 *       v[i][r] = sum_j KERNEL(|a_i - b_j|, h) * w[j][r]        (r < nrhs <= 1 for KSUM_DEFINE)
 *   KERNEL is KSUM_GAUSS, KSUM_LAPLACE, KSUM_CAUCHY, KSUM_MATERN32, KSUM_MATERN52, KSUM_IMQ or a
 *   pair of macros of one's own (epilogue.cuh).  T is float or double.
 *   KSUM_DEFINE(name, float, K) is KSUM_DEFINE_F32(name, K, 1, 2), the staged float path;
 *   KSUM_DEFINE(name, double, K) is KSUM_DEFINE_EX(name, double, K, 1, 4, 4, 1).
 *   KSUM_DEFINE_F32(name, KERNEL, R, MINB): float, R right-hand sides, MINB blocks per SM.
 *   KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB), the generic kernel: R right-hand sides (w is
 *   n x nrhs, nrhs <= R at run time), microtile TM x TN (4 or 8 each; block tile 16 TM x 16 TN),
 *   MINB the __launch_bounds__ minimum blocks per SM.  How each path runs: docs/ksum.md.
 *
 * EXAMPLE
 *   [compile: const float *d_targets, *d_sources, *d_weights; float *d_out; int M, N, D; cudaStream_t stream]
 *     #include <ksum/ksum.cuh>
 *     KSUM_DEFINE(gauss_f32, float, KSUM_GAUSS)
 *
 *     ksum_args k = {};
 *     k.a = d_targets; k.b = d_sources; k.w = d_weights; k.v = d_out;
 *     k.m = M; k.n = N; k.dim = D; k.h = 0.5;
 *     int rc = gauss_f32_launch(&k, stream);             // 0 or KSUM_E*: ksum_strerror(rc)
 *
 * ACCURACY
 *   The distance comes from norms (|a|^2 + |b|^2 - 2 a.b): t = s |a - b|^2 errs by at most
 *   (2 dim + 2) eps s (|a|^2 + |b|^2 + 2|a||b|) to first order; far from the origin compared with
 *   their spacing, points lose digits (centre the data).  docs/ksum.md#accuracy.
 *
 * LIMITS AND COSTS
 *   m, n, dim >= 1, any values (ragged tiles zero-padded); ceil(m / 16TM) < 2^31 blocks; splits
 *   <= 65535; 256 threads.  Float path, R = 1: 127 registers, 2 blocks per SM; shared memory 52 KB at
 *   dim 32, 103 KB at dim 128 with targets resident.  Workspace (m + n + 4) sizeof(T) bytes (a->work,
 *   else cudaMallocAsync on the stream); v zeroed first in atomic mode unless KSUM_ACCUMULATE.  All
 *   checks before any launch; a generator's compile-time limits (T float or double, TM, TN 4 or 8,
 *   R >= 1, MINB >= 1) are static_asserts.  Tensor-core variants: tc.cuh.
 *
 * STRUCTURE (also smalldim.cuh, tc.cuh)
 *   A generator pastes names and sizes: each kernel is one call of a body template (ksum__ex_body,
 *   ksum__f32_body, ...) with KERNEL as a functor; name_launch one call of a host function
 *   (ksum__launch_generic, ksum__launch_staged, ksum__sd_launch) taking the kernels as pointers.
 *   ksum/ksum/device.cuh (shared device pieces, helper macros), generic.cuh (KSUM_DEFINE_EX's body),
 *   staged.cuh (KSUM_DEFINE_F32's body, cp.async staging), launch.cuh (checks, plan, launches).
 *
 * NVRTC (docs/python.md): the generators emit their kernels only, no name_launch; the arguments a
 *   caller repeats are ksum/ksum/launch.cuh's.
 */
#ifndef KSUM_KSUM_CUH
#define KSUM_KSUM_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "base.cuh"
#include "epilogue.cuh"
#include "gemm.cuh"
#include "ksum/device.cuh"
#include "ksum/generic.cuh"
#include "ksum/launch.cuh"
#include "ksum/staged.cuh"

/* the main kernels' parameters (ksum.cuh, tc.cuh, wgmma.cuh), the variable part the generator's own ints
 * (vec_a, vec_b of the generic kernels, ks of the staged ones, vecs of wgmma's), and the body's
 * argument built from them (ksum__kargs<T>: vec_a, vec_b, ks given) */
#define KSUM__PARAMS(T, ...)                                                                           \
    const T *__restrict__ a, long long lda, const T *__restrict__ b, long long ldb, const T *__restrict__ w, \
        T *__restrict__ v, int m, int n, int dim, int nrhs, T m2scale, const T *__restrict__ norms,    \
        int tiles_per_split, __VA_ARGS__, int atomic, int accumulate
#define KSUM__KARGS(T, vec_a, vec_b, ks)                                                               \
    ksum__kargs<T> { a, lda, b, ldb, w, v, m, n, dim, nrhs, m2scale, norms, tiles_per_split, vec_a, vec_b, ks, \
                     atomic, accumulate }

/* T spelled float or double (the usage block's mapping); any other T gives one static_assert only */
#define KSUM_DEFINE(name, T, KERNEL)                                                                   \
    static_assert(KSUM__REAL(T), "KSUM_DEFINE(" #name "): T must be float or double");               \
    KSUM__XCAT(KSUM__DEFINE_, KSUM__PROBE(KSUM__XCAT(KSUM__T_, T)))(name, KERNEL)
#define KSUM__T_float ~, float
#define KSUM__T_double ~, double
#define KSUM__DEFINE_float(name, KERNEL) KSUM_DEFINE_F32(name, KERNEL, 1, 2)
#define KSUM__DEFINE_double(name, KERNEL) KSUM__EX(name, double, KERNEL, 1, 4, 4, 1)
#define KSUM__DEFINE_0(name, KERNEL)

#define KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB)                                               \
    static_assert(KSUM__REAL(T), "KSUM_DEFINE_EX(" #name "): T must be float or double");            \
    KSUM__XCAT(KSUM__EX_, KSUM__REAL(T))(name, T, KERNEL, R, TM, TN, MINB)
#define KSUM__EX_0(name, T, KERNEL, R, TM, TN, MINB)
#define KSUM__EX_1(name, T, KERNEL, R, TM, TN, MINB) KSUM__EX(name, T, KERNEL, R, TM, TN, MINB)
#define KSUM__EX(name, T, KERNEL, R, TM, TN, MINB)                                                     \
    static_assert(((TM) == 4 || (TM) == 8) && ((TN) == 4 || (TN) == 8),                                \
                  "KSUM_DEFINE_EX(" #name "): the microtile TM x TN must be 4 or 8 each");             \
    static_assert((R) >= 1, "KSUM_DEFINE_EX(" #name "): R must be at least 1");                        \
    static_assert((MINB) >= 1, "KSUM_DEFINE_EX(" #name "): MINB must be at least 1");                  \
    KSUM__NORMS(name, T)                                                                               \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB) name##_kernel(KSUM__PARAMS(T, int vec_a, int vec_b)) \
    { ksum__ex_body<T, (R), (TM), (TN)>(KSUM__EVAL_FN(T, KERNEL), KSUM__KARGS(T, vec_a, vec_b, 0)); }  \
    KSUM__EX_HOST(name, T, KERNEL, R, TM, TN, MINB)

#define KSUM_DEFINE_F32(name, KERNEL, R, MINB)                                                         \
    static_assert((R) >= 1, "KSUM_DEFINE_F32(" #name "): R must be at least 1");                       \
    static_assert((MINB) >= 1, "KSUM_DEFINE_F32(" #name "): MINB must be at least 1");                 \
    KSUM__NORMS(name, float)                                                                           \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB) name##_kernel(KSUM__PARAMS(float, int ks))   \
    { ksum__f32_body<(R), 1, KSUM__FACTOR(KERNEL)>(KSUM__EVAL_FN(float, KERNEL), KSUM__KARGS(float, 0, 0, ks)); } \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB) name##_kernel_stream(KSUM__PARAMS(float, int ks)) \
    { ksum__f32_body<(R), 0, KSUM__FACTOR(KERNEL)>(KSUM__EVAL_FN(float, KERNEL), KSUM__KARGS(float, 0, 0, ks)); } \
    KSUM__F32_HOST(name, KERNEL, R, MINB)

/* the launchers (host code: none under NVRTC, where the generators emit their kernels only) */
#ifndef __CUDACC_RTC__
#define KSUM__EX_HOST(name, T, KERNEL, R, TM, TN, MINB)                                                \
    static inline __attribute__((unused)) int name##_launch(const ksum_args *args, cudaStream_t stream) \
    {                                                                                                  \
        return ksum__launch_generic(args, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                    sizeof(T), KSUM__SCALE(KERNEL, args), R, TM, TN, MINB, 0);         \
    }
#define KSUM__F32_HOST(name, KERNEL, R, MINB)                                                          \
    static inline __attribute__((unused)) int name##_launch(const ksum_args *args, cudaStream_t stream) \
    {                                                                                                  \
        return ksum__launch_staged(args, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                   (const void *)name##_kernel_stream, KSUM__SCALE(KERNEL, args), R, MINB, \
                                   KSUM_GEMM_P, 0);                                                    \
    }
#else
#define KSUM__EX_HOST(name, T, KERNEL, R, TM, TN, MINB)
#define KSUM__F32_HOST(name, KERNEL, R, MINB)
#endif

#endif
#include <onchip/names_pop.h>
