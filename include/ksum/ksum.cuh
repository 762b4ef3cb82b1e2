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
 *     #include <ksum/ksum.cuh>
 *     KSUM_DEFINE(gauss_f32, float, KSUM_GAUSS)
 *     ksum_args k = {0};
 *     k.a = d_targets; k.b = d_sources; k.w = d_weights; k.v = d_out;
 *     k.m = M; k.n = N; k.dim = D; k.h = 0.5;
 *     int rc = gauss_f32_launch(&k, stream);             // 0 or KSUM_E*: ksum_strerror(rc)
 *
 * ACCURACY
 *   The distance comes from norms (|a|^2 + |b|^2 - 2 a.b), as in the paper: its absolute error is
 *   about (dim + 4) eps (|a|^2 + |b|^2), so points far from the origin compared with their spacing
 *   lose digits (centre the data first).  The error bound the tests check is in docs/ksum.md.
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
 *   launch.
 */
#ifndef KSUM_KSUM_CUH
#define KSUM_KSUM_CUH

#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "base.cuh"
#include "epilogue.cuh"
#include "gemm.cuh"

/* checks shared by every launcher; returns 0 or a KSUM_E* code */
static inline int ksum__check(const ksum_args *a, int R, double scale, int is_float)
{
    if (!a || !a->a || !a->b || !a->w || !a->v) return KSUM_ENULL;
    if (a->m <= 0 || a->n <= 0 || a->dim <= 0) return KSUM_ESIZE;
    if ((a->lda != 0 && a->lda < a->dim) || (a->ldb != 0 && a->ldb < a->dim)) return KSUM_ESIZE;
    if (!(a->h > 0) || !isfinite(a->h)) return KSUM_EH;
    if (!(scale > 0) || !isfinite(scale) || (is_float && scale > (double)FLT_MAX / 4)) return KSUM_EH;
    if (a->nrhs < 0 || a->nrhs > R) return KSUM_ERHS;
    if ((a->flags & ~KSUM__FLAGS) != 0 || a->splits < 0 || a->splits > 65535) return KSUM_EFLAGS;
    if (a->work && a->work_bytes < ksum_work_bytes(a->m, a->n, is_float ? 4 : 8)) return KSUM_EWORK;
    return KSUM_SUCCESS;
}

/* the number of source splits: 1 when deterministic, else enough blocks for ~8 per SM */
static inline int ksum__splits(const ksum_args *a, long long rowtiles, int ntiles, int minb)
{
    if (a->flags & KSUM_DETERMINISTIC) return 1;
    int s = a->splits;
    if (s == 0) {
        int dev = 0, sms = 132;
        if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        long long want = (long long)sms * minb * 4;
        long long q = (want + rowtiles - 1) / rowtiles;
        s = (int)(q < 1 ? 1 : q > 65535 ? 65535 : q);
    }
    if (s > ntiles) s = ntiles;
    return s;
}

#define KSUM__TN_float 8
#define KSUM__TN_double 4
#define KSUM__TM_float 8
#define KSUM__TM_double 4
#define KSUM__MINB_float 2
#define KSUM__MINB_double 1
#define KSUM__ISF_float 1
#define KSUM__ISF_double 0
#define KSUM__CAT(a, b) a##b
#define KSUM__XCAT(a, b) KSUM__CAT(a, b)

/* the pre-pass: scale * |x|^2 for the m targets, then the n sources, into out[m + n] */
#define KSUM__NORMS(name, T)                                                                           \
    __global__ void name##_norms(const T *__restrict__ a, long long lda, int m, const T *__restrict__ b, \
                                 long long ldb, int n, int dim, T scale, T *__restrict__ out)         \
    {                                                                                                  \
        const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                          \
        if (i >= (long long)m + n) return;                                                             \
        const T *p = i < m ? a + i * lda : b + (i - m) * ldb;                                          \
        T s = 0;                                                                                       \
        for (int k = 0; k < dim; k++) s = fma(p[k], p[k], s);                                          \
        out[i] = s * scale;                                                                            \
    }

/* the host launcher shared by the generators: checks (then EXTRA, a statement that may return a
 * code), workspace, the norm pre-pass, zeroing v in atomic mode, the main kernel */
#define KSUM__LAUNCHER(name, T, KERNEL, R, TM, TN, MINB, EXTRA)                                        \
    static inline int name##_launch(const ksum_args *args, cudaStream_t stream)                        \
    {                                                                                                  \
        enum { BM = 16 * (TM), BN = 16 * (TN) };                                                       \
        const double scale = args ? (double)(KERNEL##_SCALE(args->h)) : 0;                             \
        int rc = ksum__check(args, R, scale, KSUM__XCAT(KSUM__ISF_, T));                               \
        if (rc) return rc;                                                                             \
        EXTRA;                                                                                         \
        const int nrhs = args->nrhs ? args->nrhs : 1;                                                  \
        const long long lda = args->lda ? args->lda : args->dim, ldb = args->ldb ? args->ldb : args->dim; \
        const long long rowtiles = ((long long)args->m + BM - 1) / BM;                                 \
        const int ntiles = (args->n + BN - 1) / BN;                                                    \
        if (rowtiles > 2147483647LL) return KSUM_ESIZE;                                                \
        const int splits = ksum__splits(args, rowtiles, ntiles, MINB);                                 \
        const int per = (ntiles + splits - 1) / splits;                                                \
        const int ysplits = (ntiles + per - 1) / per;                                                  \
        const int atomic = !(args->flags & KSUM_DETERMINISTIC);                                        \
        const int accumulate = (args->flags & KSUM_ACCUMULATE) != 0;                                   \
        const int vec_a = ((TM) / 2 == 4 || (TM) / 2 == 2) && args->dim % ((TM) / 2) == 0 &&          \
                          lda % ((TM) / 2) == 0 && ((uintptr_t)args->a % 16) == 0;                     \
        const int vec_b = args->dim % ((TN) / 2) == 0 && ldb % ((TN) / 2) == 0 && ((uintptr_t)args->b % 16) == 0; \
        T *work = (T *)args->work;                                                                     \
        const size_t npts = (size_t)args->m + (size_t)args->n;                                         \
        if (!work && cudaMallocAsync((void **)&work, ksum_work_bytes(args->m, args->n, sizeof(T)), stream) != cudaSuccess) \
            return KSUM_ECUDA;                                                                         \
        rc = KSUM_SUCCESS;                                                                             \
        name##_norms<<<(unsigned)((npts + 255) / 256), 256, 0, stream>>>(                              \
            (const T *)args->a, lda, args->m, (const T *)args->b, ldb, args->n, args->dim, (T)scale, work); \
        if (cudaPeekAtLastError() != cudaSuccess) rc = KSUM_ECUDA;                                     \
        if (!rc && atomic && !accumulate &&                                                            \
            cudaMemsetAsync(args->v, 0, (size_t)args->m * nrhs * sizeof(T), stream) != cudaSuccess)   \
            rc = KSUM_ECUDA;                                                                           \
        if (!rc) {                                                                                     \
            dim3 grid((unsigned)rowtiles, (unsigned)ysplits);                                          \
            name##_kernel<<<grid, KSUM_THREADS, 0, stream>>>(                                          \
                (const T *)args->a, lda, (const T *)args->b, ldb, (const T *)args->w, (T *)args->v, args->m, \
                args->n, args->dim, nrhs, (T)(-2.0 * scale), work, per, vec_a, vec_b, atomic, accumulate); \
            if (cudaPeekAtLastError() != cudaSuccess) rc = KSUM_ECUDA;                                 \
        }                                                                                              \
        if (!args->work && cudaFreeAsync(work, stream) != cudaSuccess && !rc) rc = KSUM_ECUDA;         \
        return rc;                                                                                     \
    }

#define KSUM_DEFINE(name, T, KERNEL) KSUM__XCAT(KSUM__DEFINE_, T)(name, KERNEL)
#define KSUM__DEFINE_float(name, KERNEL) KSUM_DEFINE_F32(name, KERNEL, 1, 2)
#define KSUM__DEFINE_double(name, KERNEL) KSUM_DEFINE_EX(name, double, KERNEL, 1, 4, 4, 1)

#define KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB)                                               \
    KSUM__NORMS(name, T)                                                                               \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB)                                              \
        name##_kernel(const T *__restrict__ a, long long lda, const T *__restrict__ b, long long ldb,  \
                      const T *__restrict__ w, T *__restrict__ v, int m, int n, int dim, int nrhs,     \
                      T m2scale, const T *__restrict__ norms, int tiles_per_split, int vec_a, int vec_b, \
                      int atomic, int accumulate)                                                      \
    {                                                                                                  \
        enum { BM = 16 * (TM), BN = 16 * (TN), NW = BN * (1 + (R)), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS }; \
        __shared__ __align__(16) T sa[KSUM_GEMM_SMEM_ELEMS(BM)];                                       \
        __shared__ __align__(16) T sb[KSUM_GEMM_SMEM_ELEMS(BN)];                                       \
        __shared__ __align__(16) T sw[2 * NW]; /* [buf][0: s|b|^2, 1+r: w_r][BN] */                    \
        const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;                                     \
        const long long row0 = (long long)blockIdx.x * BM;                                             \
        const int ntiles = (n + BN - 1) / BN;                                                          \
        const int t0 = blockIdx.y * tiles_per_split;                                                   \
        const int t1 = min(ntiles, t0 + tiles_per_split);                                              \
        if (t0 >= t1) return;                                                                          \
        const int nchunks = (dim + KSUM_BK - 1) / KSUM_BK;                                             \
        const int nsteps = (t1 - t0) * nchunks;                                                        \
        const T *nb = norms + m;                                                                       \
        __shared__ __align__(16) T sna[BM]; /* s|a_i|^2 of the block's targets */                      \
        T acc[TM][TN], vacc[TM][R];                                                                    \
        for (int q = tid; q < BM; q += KSUM_THREADS) sna[q] = row0 + q < m ? norms[row0 + q] : (T)0;   \
        _Pragma("unroll") for (int i = 0; i < (TM); i++) {                                             \
            _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] = 0;                        \
            _Pragma("unroll") for (int j = 0; j < (TN); j++) acc[i][j] = 0;                            \
        }                                                                                              \
        T ra[(TM) / 2], rb[(TN) / 2], rw[NWPER];                                                       \
        /* staging loads of step (tile tl, chunk c) */                                                 \
        int ls_tile = t0, ls_c = 0;                                                                    \
        _Pragma("unroll") for (int q = 0; q < NWPER; q++) rw[q] = 0;                                   \
        KSUM_GEMM_LOAD(T, (TM) / 2, ra, a, lda, m, dim, row0, 0, tid, vec_a);                          \
        KSUM_GEMM_LOAD(T, (TN) / 2, rb, b, ldb, n, dim, (long long)ls_tile * BN, 0, tid, vec_b);       \
        _Pragma("unroll") for (int q = 0; q < NWPER; q++) {                                            \
            const int e = tid + q * KSUM_THREADS, qq = e / BN;                                         \
            const long long j = (long long)ls_tile * BN + e % BN;                                      \
            if (e < NW && j < n) rw[q] = qq == 0 ? nb[j] : (qq - 1 < nrhs ? w[j * nrhs + qq - 1] : (T)0); \
        }                                                                                              \
        KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, 0, tid, m2scale);                                     \
        if (nchunks == 1) KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, 1, tid, m2scale);                   \
        KSUM_GEMM_STORE(T, (TN) / 2, rb, sb, BN, 0, tid, (T)1);                                        \
        _Pragma("unroll") for (int q = 0; q < NWPER; q++) if (tid + q * KSUM_THREADS < NW) sw[tid + q * KSUM_THREADS] = rw[q]; \
        __syncthreads();                                                                               \
        int c = 0, tpar = 0; /* chunk and tile parity of step s */                                     \
        for (int s = 0; s < nsteps; s++) {                                                             \
            const int more = s + 1 < nsteps;                                                           \
            int nc = c + 1, ntile_first = 0;                                                           \
            if (nc == nchunks) { nc = 0; ntile_first = 1; }                                            \
            if (more) {                                                                                \
                if (ntile_first) ls_tile++;                                                            \
                ls_c = nc;                                                                             \
                if (nchunks > 1) KSUM_GEMM_LOAD(T, (TM) / 2, ra, a, lda, m, dim, row0, ls_c * KSUM_BK, tid, vec_a); \
                KSUM_GEMM_LOAD(T, (TN) / 2, rb, b, ldb, n, dim, (long long)ls_tile * BN, ls_c * KSUM_BK, tid, vec_b); \
                if (ntile_first) {                                                                     \
                    _Pragma("unroll") for (int q = 0; q < NWPER; q++) {                                \
                        const int e = tid + q * KSUM_THREADS, qq = e / BN;                             \
                        const long long j = (long long)ls_tile * BN + e % BN;                          \
                        rw[q] = 0;                                                                     \
                        if (e < NW && j < n) rw[q] = qq == 0 ? nb[j] : (qq - 1 < nrhs ? w[j * nrhs + qq - 1] : (T)0); \
                    }                                                                                  \
                }                                                                                      \
            }                                                                                          \
            const T *swb = sw + tpar * NW;                                                             \
            if (c == 0) { /* start the tile's accumulators at s|a_i|^2 + s|b_j|^2 */                   \
                T nbv[TN], na[TM];                                                                     \
                _Pragma("unroll") for (int v4 = 0; v4 < (TN) / 4; v4++) ksum__lds4_##T(nbv + 4 * v4, swb + tx * 4 + 64 * v4); \
                _Pragma("unroll") for (int v4 = 0; v4 < (TM) / 4; v4++) ksum__lds4_##T(na + 4 * v4, sna + ty * 4 + 64 * v4); \
                _Pragma("unroll") for (int i = 0; i < (TM); i++)                                       \
                    _Pragma("unroll") for (int j = 0; j < (TN); j++) acc[i][j] = na[i] + nbv[j];       \
            }                                                                                          \
            const int kc = min(KSUM_BK, dim - c * KSUM_BK);                                            \
            KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, s & 1, kc, tx, ty);                        \
            if (c == nchunks - 1) { /* the tile is done: kernel values, weighted row sums */           \
                T wv[TN][R];                                                                           \
                _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                   \
                    T tmp[TN];                                                                         \
                    _Pragma("unroll") for (int v4 = 0; v4 < (TN) / 4; v4++)                            \
                        ksum__lds4_##T(tmp + 4 * v4, swb + (1 + r2) * BN + tx * 4 + 64 * v4);          \
                    _Pragma("unroll") for (int j = 0; j < (TN); j++) wv[j][r2] = tmp[j];               \
                }                                                                                      \
                KSUM_EPI_TILE(T, TM, TN, R, KERNEL, acc, wv, vacc);                                    \
            }                                                                                          \
            if (more) {                                                                                \
                const int nb2 = (s + 1) & 1;                                                           \
                if (nchunks > 1) KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, nb2, tid, m2scale);          \
                KSUM_GEMM_STORE(T, (TN) / 2, rb, sb, BN, nb2, tid, (T)1);                              \
                if (ntile_first) {                                                                     \
                    T *d = sw + (tpar ^ 1) * NW;                                                       \
                    _Pragma("unroll") for (int q = 0; q < NWPER; q++) if (tid + q * KSUM_THREADS < NW) d[tid + q * KSUM_THREADS] = rw[q]; \
                }                                                                                      \
            }                                                                                          \
            __syncthreads();                                                                           \
            if (ntile_first) tpar ^= 1;                                                                \
            c = nc;                                                                                    \
        }                                                                                              \
        KSUM_EPI_ROWSUM16(T, TM, R, vacc);                                                             \
        KSUM_EPI_STORE(T, TM, R, vacc, v, row0, m, nrhs, tx, ty, atomic, accumulate);                  \
    }                                                                                                  \
    KSUM__LAUNCHER(name, T, KERNEL, R, TM, TN, MINB, (void)0)

/* ---- the float path: KSUM_DEFINE_F32(name, KERNEL, R, MINB) ---------------------------------------
 * 128 x 128 block tile, 8 x 8 per thread as in KSUM_DEFINE_EX, but the operands reach shared memory by
 * 4-byte cp.async copies (transposed on the way, gemm.cuh KSUM_GEMM_TILE_OP), in stages of ks <= 32
 * coordinates (one barrier per stage), with no run-time bound inside the 8-coordinate steps (dim is
 * zero-padded to a multiple of 8).  Two kernels:
 *   name_kernel         dim <= 128 (when it fits): the block's targets, times -2s, stay in shared memory
 *                       for the block's whole life (loaded once); only sources are copied per stage.
 *                       The accumulators start at s|a|^2 + s|b|^2 and end at t = s|a - b|^2.
 *   name_kernel_stream  larger dim: targets and sources both copied per stage, unscaled; the
 *                       accumulators start at -(|a|^2 + |b|^2)/2, end at -|a - b|^2/2, and t = -2s acc
 *                       (one FMUL per pair more).
 * The next stage's copies are issued before this stage's FMAs and waited for after them. */
#define KSUM__F32_CP(d, src, ok) ksum__cp4(d, src, ok)
/* resident targets: load, keep |a|^2 partial sums per point (pq__ is KSUM_GEMM_TILE_OP's point index),
 * store times -2s */
#define KSUM__F32_LDNORM(d, src, ok)                                                                   \
    do {                                                                                               \
        const float x__ = (ok) ? __ldg(src) : 0.0f;                                                    \
        nsq[pq__] = fmaf(x__, x__, nsq[pq__]);                                                         \
        *(d) = x__ * m2scale;                                                                          \
    } while (0)
/* the resident targets of the block (rows row0..row0+127, all dp coordinates) into sA (rows of LDP),
 * times -2s, and s|a_i|^2 into sna (s = -m2scale / 2): the 8 lanes holding one point add by shuffles */
#define KSUM__LOAD_RESIDENT(LDP)                                                                       \
    do {                                                                                               \
        float nsq[4] = {0.0f, 0.0f, 0.0f, 0.0f};                                                       \
        for (int k0 = 0; k0 < dp; k0 += 32)                                                            \
            KSUM_GEMM_TILE_OP(KSUM__F32_LDNORM, sA + k0 * (LDP), LDP, a, lda, m, dim, row0, k0, min(32, dp - k0), tid); \
        _Pragma("unroll") for (int pq = 0; pq < 4; pq++) {                                             \
            float x = nsq[pq];                                                                         \
            x += __shfl_xor_sync(0xffffffffu, x, 4);                                                   \
            x += __shfl_xor_sync(0xffffffffu, x, 8);                                                   \
            x += __shfl_xor_sync(0xffffffffu, x, 16);                                                  \
            if ((tid & 31) < 4) sna[(((tid >> 5) << 2) + (tid & 3)) + 32 * pq] = x * (-0.5f * m2scale); \
        }                                                                                              \
    } while (0)

/* sw[e], e < 128 (1 + R): [0..127] the tile's s|b_j|^2 (or -|b_j|^2/2), then weights w_r, zero past n */
#define KSUM__F32_SW(dst, tile)                                                                        \
    do {                                                                                               \
        _Pragma("unroll") for (int q = 0; q < NWPER; q++) {                                            \
            const int e = tid + q * KSUM_THREADS, qq = e >> 7;                                         \
            if (e < NW) {                                                                              \
                const int j = (tile)*BN + (e & 127); /* < n + 128: no overflow */                      \
                const float *base = qq == 0 ? nb : w + (qq - 1); /* per-thread constants */           \
                const int str = qq == 0 ? 1 : nrhs;                                                    \
                const int ok = j < n && (qq == 0 || qq - 1 < nrhs);                                    \
                ksum__cp4((dst) + e, ok ? base + (long long)j * str : nb, ok);                         \
            }                                                                                          \
        }                                                                                              \
    } while (0)

/* one coordinate k of the 8 x 8 outer product: two 16-byte loads of each operand, 64 FMAs */
#define KSUM__F32_KSTEP(k)                                                                             \
    do {                                                                                               \
        float fa[8], fb[8];                                                                            \
        ksum__lds4_float(fa, pa + (k)*P); ksum__lds4_float(fa + 4, pa + (k)*P + 64);                    \
        ksum__lds4_float(fb, pb + (k)*P); ksum__lds4_float(fb + 4, pb + (k)*P + 64);                    \
        _Pragma("unroll") for (int i = 0; i < 8; i++)                                                  \
            _Pragma("unroll") for (int j = 0; j < 8; j++) acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);   \
    } while (0)

/* the first coordinate of a tile's 8 x 8 outer product, starting the accumulators at init[j] (the FMA's
 * addend: no separate initialisation) */
#define KSUM__F32_KSTEP_INIT(k, init)                                                                  \
    do {                                                                                               \
        float fa[8], fb[8];                                                                            \
        ksum__lds4_float(fa, pa + (k)*P); ksum__lds4_float(fa + 4, pa + (k)*P + 64);                    \
        ksum__lds4_float(fb, pb + (k)*P); ksum__lds4_float(fb + 4, pb + (k)*P + 64);                    \
        _Pragma("unroll") for (int i = 0; i < 8; i++)                                                  \
            _Pragma("unroll") for (int j = 0; j < 8; j++) acc[i][j] = fmaf(fa[i], fb[j], (init)[j]);   \
    } while (0)

/* kernels whose value factorises over the two norms: KSUM__FACTOR(K) is 1 for KSUM_GAUSS (2^-(x + y) =
 * 2^-x 2^-y), 0 for any other name (the preprocessor probe: KSUM__FACTOR_<name> defined or not) */
#define KSUM__PROBE_2ND(x, y, ...) y
#define KSUM__PROBE(...) KSUM__PROBE_2ND(__VA_ARGS__, 0, 0)
#define KSUM__FACTOR(K) KSUM__PROBE(KSUM__FACTOR_##K)
#define KSUM__FACTOR_KSUM_GAUSS ~, 1
/* the largest s|a_i|^2 of a thread's targets for the factorised Gaussian: 2^-u <= 2^64 (no overflow),
 * and the error of u near t = 0 stays ~ (dim + 6) eps 256, so no clamp is needed */
#define KSUM__FACTOR_MAX 64.0f
/* below sm_80 (plain loads instead of cp.async: more registers) the factorised kernel would spill */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define KSUM__FACTOR_ARCH 0
#else
#define KSUM__FACTOR_ARCH 1
#endif

/* the weighted kernel values of the 8 x 8 tile into vacc; TEXPR the argument t of acc[i][j] */
#define KSUM__F32_EPI(KERNEL, R, TEXPR)                                                                \
    _Pragma("unroll") for (int i = 0; i < 8; i++)                                                      \
        _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                \
            const float t = (TEXPR);                                                                   \
            const float kv = KERNEL##_EVAL(float, t);                                                  \
            _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] = fmaf(kv, wv[j][r2], vacc[i][r2]); \
        }

#define KSUM__F32_KERNEL(kname, KERNEL, R, MINB, RES)                                                  \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB)                                              \
        kname(const float *__restrict__ a, long long lda, const float *__restrict__ b, long long ldb,  \
              const float *__restrict__ w, float *__restrict__ v, int m, int n, int dim, int nrhs,     \
              float m2scale, const float *__restrict__ norms, int tiles_per_split, int ks, int atomic, \
              int accumulate)                                                                          \
    {                                                                                                  \
        enum { BM = 128, BN = 128, P = KSUM_GEMM_P, NW = BN * (1 + (R)), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS }; \
        extern __shared__ __align__(16) float ksum__smem[];                                            \
        const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;                                     \
        const long long row0 = (long long)blockIdx.x * BM;                                             \
        const int ntiles = (n + BN - 1) / BN;                                                          \
        const int t0 = blockIdx.y * tiles_per_split;                                                   \
        const int t1 = min(ntiles, t0 + tiles_per_split);                                              \
        if (t0 >= t1) return;                                                                          \
        const int dp = (dim + 7) & ~7, nst = (dp + ks - 1) / ks;                                       \
        const int nsteps = (t1 - t0) * nst;                                                            \
        float *sA = ksum__smem;                                                                        \
        float *sB = sA + ((RES) ? dp : 2 * ks) * P;                                                    \
        float *sw = sB + 2 * ks * P;                                                                   \
        float *sna = sw + 2 * NW;                                                                      \
        const float *nb = norms + m;                                                                   \
        if (RES) KSUM__LOAD_RESIDENT(P);                                                              \
        else for (int q = tid; q < BM; q += KSUM_THREADS) sna[q] = row0 + q < m ? norms[row0 + q] : 0.0f; \
        {                                                                                              \
            const int kz = min(ks, dp);                                                                \
            KSUM_GEMM_TILE_OP(KSUM__F32_CP, sB, KSUM_GEMM_P, b, ldb, n, dim, (long long)t0 * BN, 0, kz, tid);      \
            if (!(RES)) KSUM_GEMM_TILE_OP(KSUM__F32_CP, sA, KSUM_GEMM_P, a, lda, m, dim, row0, 0, kz, tid);         \
            KSUM__F32_SW(sw, t0);                                                                      \
        }                                                                                              \
        ksum__cp_wait();                                                                               \
        __syncthreads();                                                                               \
        float acc[8][8], vacc[8][R];                                                                   \
        _Pragma("unroll") for (int i = 0; i < 8; i++) _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] = 0.0f; \
        enum { FAC = (RES) && KSUM__FACTOR(KERNEL) && KSUM__FACTOR_ARCH }; /* the factorised Gaussian (resident targets) */ \
        int fac = 0; /* this thread's targets all have s|a|^2 <= 64: K = 2^-s|a|^2 2^-(t - s|a|^2) */ \
        if (FAC) {                                                                                     \
            float na[8];                                                                               \
            ksum__lds4_float(na, sna + ty * 4); ksum__lds4_float(na + 4, sna + ty * 4 + 64);            \
            fac = 1;                                                                                   \
            _Pragma("unroll") for (int i = 0; i < 8; i++) fac &= na[i] <= KSUM__FACTOR_MAX;            \
        }                                                                                              \
        int st = 0, tile = t0, tpar = 0;                                                               \
        for (int s = 0; s < nsteps; s++) {                                                             \
            int nst2 = st + 1, ntile = tile, newtile = 0;                                              \
            if (nst2 == nst) { nst2 = 0; ntile++; newtile = 1; }                                       \
            if (s + 1 < nsteps) { /* the next stage's copies, in flight during this stage */          \
                const int buf = (s + 1) & 1, k0 = nst2 * ks, kz = min(ks, dp - k0);                    \
                KSUM_GEMM_TILE_OP(KSUM__F32_CP, sB + buf * ks * P, KSUM_GEMM_P, b, ldb, n, dim, (long long)ntile * BN, k0, kz, tid); \
                if (!(RES)) KSUM_GEMM_TILE_OP(KSUM__F32_CP, sA + buf * ks * P, KSUM_GEMM_P, a, lda, m, dim, row0, k0, kz, tid); \
                if (newtile) KSUM__F32_SW(sw + (tpar ^ 1) * NW, ntile);                                \
            }                                                                                          \
            const float *swb = sw + tpar * NW;                                                         \
            if (!FAC && st == 0) { /* the tile's accumulators start at the norms */                  \
                float nbv[8], na[8];                                                                   \
                ksum__lds4_float(nbv, swb + tx * 4); ksum__lds4_float(nbv + 4, swb + tx * 4 + 64);      \
                ksum__lds4_float(na, sna + ty * 4); ksum__lds4_float(na + 4, sna + ty * 4 + 64);        \
                _Pragma("unroll") for (int i = 0; i < 8; i++)                                          \
                    _Pragma("unroll") for (int j = 0; j < 8; j++) acc[i][j] = na[i] + nbv[j];          \
            }                                                                                          \
            {                                                                                          \
                const int k0 = st * ks, kz = min(ks, dp - k0);                                         \
                const float *pa = ((RES) ? sA + k0 * P : sA + (s & 1) * ks * P) + ty * 4;              \
                const float *pb = sB + (s & 1) * ks * P + tx * 4;                                      \
                const int kr = min(kz, dim - k0); /* coordinates really there (the rest are zeros) */  \
                int c = 0;                                                                             \
                if (FAC && st == 0) { /* the first 8 coordinates; the accumulators start at s|b_j|^2 */ \
                    float nbv[8];                                                                      \
                    ksum__lds4_float(nbv, swb + tx * 4); ksum__lds4_float(nbv + 4, swb + tx * 4 + 64);  \
                    KSUM__F32_KSTEP_INIT(0, nbv);                                                      \
                    if (kr >= KSUM_BK)                                                                 \
                        _Pragma("unroll") for (int kk = 1; kk < KSUM_BK; kk++) KSUM__F32_KSTEP(kk);    \
                    else                                                                               \
                        _Pragma("unroll") for (int kk = 1; kk < KSUM_BK; kk++) if (kk < kr) KSUM__F32_KSTEP(kk); \
                    c = KSUM_BK;                                                                       \
                }                                                                                      \
                for (; c + KSUM_BK <= kr; c += KSUM_BK)                                                \
                    _Pragma("unroll") for (int kk = 0; kk < KSUM_BK; kk++) KSUM__F32_KSTEP(c + kk);    \
                if (c < kr) /* a last partial chunk of 8 (dim % 8 != 0): only its real coordinates */ \
                    _Pragma("unroll") for (int kk = 0; kk < KSUM_BK; kk++) if (kk < kr - c) KSUM__F32_KSTEP(c + kk); \
            }                                                                                          \
            if (st == nst - 1) { /* the tile is done: kernel values, weighted row sums */              \
                float wv[8][R];                                                                        \
                _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                   \
                    float tmp[8];                                                                      \
                    ksum__lds4_float(tmp, swb + (1 + r2) * BN + tx * 4);                               \
                    ksum__lds4_float(tmp + 4, swb + (1 + r2) * BN + tx * 4 + 64);                      \
                    _Pragma("unroll") for (int j = 0; j < 8; j++) wv[j][r2] = tmp[j];                  \
                }                                                                                      \
                if (FAC && fac) { /* acc = t - s|a_i|^2: 2^-acc, the row factor at the end */         \
                    KSUM__F32_EPI(KERNEL, R, acc[i][j])                                                \
                } else if (FAC) { /* acc = t - s|a_i|^2 */                                             \
                    float na[8];                                                                       \
                    ksum__lds4_float(na, sna + ty * 4); ksum__lds4_float(na + 4, sna + ty * 4 + 64);    \
                    KSUM__F32_EPI(KERNEL, R, fmaxf(acc[i][j] + na[i], 0.0f))                           \
                } else {                                                                               \
                    KSUM__F32_EPI(KERNEL, R, (RES) ? fmaxf(acc[i][j], 0.0f) : fmaxf(acc[i][j] * m2scale, 0.0f)) \
                }                                                                                      \
            }                                                                                          \
            ksum__cp_wait();                                                                           \
            __syncthreads();                                                                           \
            if (newtile) tpar ^= 1;                                                                    \
            st = nst2;                                                                                 \
            tile = ntile;                                                                              \
        }                                                                                              \
        if (FAC && fac) { /* the rows' factors 2^-s|a_i|^2 */                                         \
            float na[8];                                                                               \
            ksum__lds4_float(na, sna + ty * 4); ksum__lds4_float(na + 4, sna + ty * 4 + 64);            \
            _Pragma("unroll") for (int i = 0; i < 8; i++) {                                            \
                const float f = ksum_exp2neg_float(na[i]);                                             \
                _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] *= f;                   \
            }                                                                                          \
        }                                                                                              \
        KSUM_EPI_ROWSUM16(float, 8, R, vacc);                                                          \
        KSUM_EPI_STORE(float, 8, R, vacc, v, row0, m, nrhs, tx, ty, atomic, accumulate);               \
    }

/* shared-memory bytes of a staged kernel (rows of LDP floats): resident targets (res) or streamed */
static inline size_t ksum__stage_smem(int dp, int ks, int res, int R, int ldp)
{
    return ((size_t)(res ? dp + 2 * ks : 4 * ks) * ldp + 2 * 128 * (size_t)(1 + R) + 128) * sizeof(float);
}

/* the launcher of the staged float kernels (KSUM_DEFINE_F32, KSUM_DEFINE_TF32): checks, then EXTRA
 * (a statement that may return a code), resident or streamed mode and stage size from the device's
 * shared memory, workspace, norm pre-pass (s|x|^2 resident, -|x|^2/2 streamed), v zeroed in atomic
 * mode, the kernel */
#define KSUM__LAUNCHER_STAGED(name, KERNEL, R, MINB, LDP, EXTRA)                                       \
    static inline int name##_launch(const ksum_args *args, cudaStream_t stream)                        \
    {                                                                                                  \
        const double scale = args ? (double)(KERNEL##_SCALE(args->h)) : 0;                             \
        int rc = ksum__check(args, R, scale, 1);                                                       \
        if (rc) return rc;                                                                             \
        EXTRA;                                                                                         \
        const int nrhs = args->nrhs ? args->nrhs : 1;                                                  \
        const long long lda = args->lda ? args->lda : args->dim, ldb = args->ldb ? args->ldb : args->dim; \
        const long long rowtiles = ((long long)args->m + 127) / 128;                                   \
        const int ntiles = (args->n + 127) / 128;                                                      \
        if (rowtiles > 2147483647LL) return KSUM_ESIZE;                                                \
        const int splits = ksum__splits(args, rowtiles, ntiles, MINB);                                 \
        const int per = (ntiles + splits - 1) / splits;                                                \
        const int ysplits = (ntiles + per - 1) / per;                                                  \
        const int atomic = !(args->flags & KSUM_DETERMINISTIC);                                        \
        const int accumulate = (args->flags & KSUM_ACCUMULATE) != 0;                                   \
        int dev = 0, optin = 48 * 1024, persm = 0;                                                     \
        if (cudaGetDevice(&dev) != cudaSuccess ||                                                      \
            cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || \
            cudaDeviceGetAttribute(&persm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) != cudaSuccess) \
            return KSUM_ECUDA;                                                                         \
        const int dp = (args->dim + 7) & ~7;                                                           \
        int ks = dp < 32 ? dp : 32;                                                                    \
        const int res = dp <= 128 && ksum__stage_smem(dp, ks, 1, R, LDP) <= (size_t)optin &&           \
                        (ksum__stage_smem(dp, ks, 1, R, LDP) + 2048) * (MINB) <= (size_t)persm;       \
        while (!res && ks > 8 && ksum__stage_smem(dp, ks, 0, R, LDP) > (size_t)optin) ks -= 8;         \
        const size_t bytes = ksum__stage_smem(dp, ks, res, R, LDP);                                    \
        if (bytes > (size_t)optin) return KSUM_ESIZE;                                                  \
        static int set_dev[2] = {-1, -1};                                                              \
        static size_t set_bytes[2] = {0, 0}; /* the dynamic shared memory limit already set, per kernel */ \
        if (bytes > 48 * 1024 && (set_dev[res] != dev || set_bytes[res] < bytes)) {                    \
            if (cudaFuncSetAttribute(res ? name##_kernel : name##_kernel_stream,                       \
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) != cudaSuccess) \
                return KSUM_ECUDA;                                                                     \
            set_dev[res] = dev;                                                                        \
            set_bytes[res] = bytes;                                                                    \
        }                                                                                              \
        float *work = (float *)args->work;                                                             \
        const size_t npts = (res ? 0 : (size_t)args->m) + (size_t)args->n; /* resident: targets' norms in the kernel */ \
        if (!work && cudaMallocAsync((void **)&work, ksum_work_bytes(args->m, args->n, sizeof(float)), stream) != cudaSuccess) \
            return KSUM_ECUDA;                                                                         \
        rc = KSUM_SUCCESS;                                                                             \
        name##_norms<<<(unsigned)((npts + 255) / 256), 256, 0, stream>>>(                              \
            (const float *)args->a, lda, res ? 0 : args->m, (const float *)args->b, ldb, args->n, args->dim, \
            res ? (float)scale : -0.5f, res ? work + args->m : work);                                  \
        if (cudaPeekAtLastError() != cudaSuccess) rc = KSUM_ECUDA;                                     \
        if (!rc && atomic && !accumulate &&                                                            \
            cudaMemsetAsync(args->v, 0, (size_t)args->m * nrhs * sizeof(float), stream) != cudaSuccess) \
            rc = KSUM_ECUDA;                                                                           \
        if (!rc) {                                                                                     \
            dim3 grid((unsigned)rowtiles, (unsigned)ysplits);                                          \
            (res ? name##_kernel : name##_kernel_stream)<<<grid, KSUM_THREADS, bytes, stream>>>(       \
                (const float *)args->a, lda, (const float *)args->b, ldb, (const float *)args->w, (float *)args->v, \
                args->m, args->n, args->dim, nrhs, (float)(-2.0 * scale), work, per, ks, atomic, accumulate); \
            if (cudaPeekAtLastError() != cudaSuccess) rc = KSUM_ECUDA;                                 \
        }                                                                                              \
        if (!args->work && cudaFreeAsync(work, stream) != cudaSuccess && !rc) rc = KSUM_ECUDA;         \
        return rc;                                                                                     \
    }

#define KSUM_DEFINE_F32(name, KERNEL, R, MINB)                                                         \
    KSUM__NORMS(name, float)                                                                           \
    KSUM__F32_KERNEL(name##_kernel, KERNEL, R, MINB, 1)                                                \
    KSUM__F32_KERNEL(name##_kernel_stream, KERNEL, R, MINB, 0)                                         \
    KSUM__LAUNCHER_STAGED(name, KERNEL, R, MINB, KSUM_GEMM_P, (void)0)

#endif
