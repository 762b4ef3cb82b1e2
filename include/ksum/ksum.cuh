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
 *   KSUM_DEFINE(name, float, K) is KSUM_DEFINE_F32(name, K, 1, 2), the staged float path below;
 *   KSUM_DEFINE(name, double, K) is KSUM_DEFINE_EX(name, double, K, 1, 4, 4, 1).
 *   KSUM_DEFINE_F32(name, KERNEL, R, MINB): float, R right-hand sides, MINB blocks per SM.
 *   KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB), the generic kernel: R right-hand sides (w is
 *   n x nrhs with nrhs <= R, run time), the per-thread microtile TM x TN (4 or 8 each; block tile
 *   16 TM x 16 TN) and the __launch_bounds__ minimum blocks per SM.
 *
 *   How it runs (both): a pre-pass writes the scaled squared norms to a workspace (s the kernel's
 *   scale, epilogue.cuh).  The main kernel gives each block 16 TM targets and a range of source
 *   tiles (gridDim.y splits of the sources).  For each source tile it runs the dot-product GEMM,
 *   with the accumulators started at s|a_i|^2 + s|b_j|^2 and the targets times -2s, so that they
 *   end at t = s|a_i - b_j|^2; then the epilogue turns them into kernel values and adds them,
 *   weighted, into TM x R partial sums kept in registers across all the block's source tiles.  At
 *   the end the 16 threads of a row group sum by shuffles and one lane stores (KSUM_DETERMINISTIC)
 *   or atomically adds (default) each (row, rhs): one store or atomic per row per split.
 *   Generic kernel: dim in chunks of 8 loaded through registers (the next chunk's global loads in
 *   flight while this one is computed), one barrier per chunk; dim <= 8 keeps the targets' chunk.
 *   Float path (KSUM_DEFINE_F32), 128 x 128 tiles, 8 x 8 per thread: operands copied global ->
 *   shared by 4-byte cp.async (sm_80+; plain loads below), transposed on the way, in stages of up
 *   to 32 coordinates, the next stage's copies in flight during this one, one barrier per stage;
 *   no run-time bounds inside an 8-coordinate step.  For dim <= 128 (when the shared memory of
 *   MINB blocks fits: always on sm_90) the block's targets are loaded once, times -2s, and stay in
 *   shared memory (name_kernel), and their norms are summed there (the pre-pass does only the
 *   sources); larger dim streams both operands (name_kernel_stream: accumulators start at
 *   -(|a|^2 + |b|^2)/2, t = -2s acc, one FMUL per pair more).  For KSUM_GAUSS the resident kernel
 *   factorises 2^-t = 2^-s|a|^2 2^-(t - s|a|^2) in threads whose targets all have s|a|^2 <= 64: the
 *   accumulators start at s|b|^2 through the first FMA, a pair costs one ex2 and one FMA after the
 *   GEMM, the rows are multiplied by 2^-s|a|^2 at the end (sm_80+; other threads and kernels clamp t).
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
 *   The distance comes from norms (|a|^2 + |b|^2 - 2 a.b), as in the paper: the scaled distance
 *   t = s |a - b|^2 has an absolute error of at most (2 dim + 2) eps s (|a|^2 + |b|^2 + 2|a||b|) to
 *   first order (eps the unit roundoff of T: dim + 1 roundings in each norm, one in the start value,
 *   one in each staged coordinate, dim in the GEMM's sum), and about (dim + 6) eps s (|a|^2 + |b|^2 +
 *   2|a||b|) in practice (the bound the tests check, docs/ksum.md), so points far from the origin
 *   compared with their spacing lose digits (centre the data first).
 *
 * LIMITS AND COSTS
 *   m, n, dim >= 1, any values (ragged tiles are zero-padded); ceil(m / 16TM) < 2^31 blocks;
 *   splits <= 65535.  256 threads.  Float path, R = 1: 127 registers (2 blocks per SM, no spills),
 *   dynamic shared memory (128 + 4) (dp + 2 ks) floats + 1.5 KB with targets resident (dp = dim
 *   rounded up to 8, ks = min(dp, 32): 52 KB at dim 32, 103 KB at dim 128; the launcher raises the
 *   kernel's limit with cudaFuncSetAttribute once per device), 4 x 132 ks floats + 1.5 KB streamed.
 *   Generic float 8 x 8: 128 registers, 19 KB.  The tensor-core variants are in tc.cuh.
 *   The launcher takes (m + n + 4) sizeof(T) bytes of workspace (a->work, or cudaMallocAsync /
 *   cudaFreeAsync on the stream), zeroes v first in atomic mode (unless KSUM_ACCUMULATE), and
 *   queries the SM count and shared-memory limits per call.  All argument checks happen before any
 *   launch.  A documented limit on a generator's compile-time arguments is a static_assert.
 *
 * GENERATOR LIMITS (static_asserts naming the generator, the instance and the argument)
 *   T spelled float or double (KSUM_DEFINE, KSUM_DEFINE_EX); TM, TN 4 or 8; R >= 1; MINB >= 1.
 *
 * STRUCTURE (also smalldim.cuh and tc.cuh)
 *   A KSUM_DEFINE* macro only pastes names, sizes and types: each __global__ kernel it defines is one
 *   call of a function template (the body: ksum__ex_body, ksum__f32_body, ...), with the kernel
 *   function KERNEL passed as a functor, and name_launch is one call of an ordinary host function
 *   (ksum__launch_generic, ksum__launch_staged, ksum__sd_launch) that takes the kernels as pointers
 *   and launches them with cudaLaunchKernel.  A body keeps its innermost loops written out in place
 *   (the k-steps, the copies' address arithmetic): as calls they give the kernels other code.  The
 *   pieces, by scope:
 *     ksum/ksum/device.cuh   device pieces every kernel shares (norm pre-pass, the targets' norms,
 *                            the register-staged records) and the generators' helper macros
 *     ksum/ksum/generic.cuh  KSUM_DEFINE_EX's body (register staging, gemm.cuh and epilogue.cuh)
 *     ksum/ksum/staged.cuh   KSUM_DEFINE_F32's body and the cp.async staging shared with tc.cuh
 *     ksum/ksum/launch.cuh   the host side: checks, plan, workspace, launches
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ the generators emit their kernels only (name_norms, name_kernel, and
 *   name_kernel_stream for KSUM_DEFINE_F32 / float KSUM_DEFINE); no name_launch.  Their arguments
 *   (the scaled norms in a workspace, splits, tiles per split) are ksum/ksum/launch.cuh's, host code
 *   a caller repeats; the kernels compile without the toolkit's include folder.
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

/* the main kernels' parameters and arguments (ksum.cuh, tc.cuh, wgmma.cuh); the variable part is the
 * generator's own ints (vec_a, vec_b of the generic kernels, ks of the staged ones, vecs of wgmma's) */
#define KSUM__PARAMS(T, ...)                                                                           \
    const T *__restrict__ a, long long lda, const T *__restrict__ b, long long ldb, const T *__restrict__ w, \
        T *__restrict__ v, int m, int n, int dim, int nrhs, T m2scale, const T *__restrict__ norms,    \
        int tiles_per_split, __VA_ARGS__, int atomic, int accumulate
#define KSUM__ARGS(...) a, lda, b, ldb, w, v, m, n, dim, nrhs, m2scale, norms, tiles_per_split, __VA_ARGS__, atomic, accumulate

/* T is spelled float or double: KSUM_DEFINE(name, float, K) is KSUM_DEFINE_F32(name, K, 1, 2),
 * KSUM_DEFINE(name, double, K) is KSUM_DEFINE_EX(name, double, K, 1, 4, 4, 1); any other T gives the one
 * static_assert (nothing else is defined) */
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
    { ksum__ex_body<T, (R), (TM), (TN)>(KSUM__EVAL_FN(T, KERNEL), KSUM__ARGS(vec_a, vec_b)); }              \
    KSUM__EX_HOST(name, T, KERNEL, R, TM, TN, MINB)

#define KSUM_DEFINE_F32(name, KERNEL, R, MINB)                                                         \
    static_assert((R) >= 1, "KSUM_DEFINE_F32(" #name "): R must be at least 1");                       \
    static_assert((MINB) >= 1, "KSUM_DEFINE_F32(" #name "): MINB must be at least 1");                 \
    KSUM__NORMS(name, float)                                                                           \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB) name##_kernel(KSUM__PARAMS(float, int ks))   \
    { ksum__f32_body<(R), 1, KSUM__FACTOR(KERNEL)>(KSUM__EVAL_FN(float, KERNEL), KSUM__ARGS(ks)); }      \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB) name##_kernel_stream(KSUM__PARAMS(float, int ks)) \
    { ksum__f32_body<(R), 0, KSUM__FACTOR(KERNEL)>(KSUM__EVAL_FN(float, KERNEL), KSUM__ARGS(ks)); }      \
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
