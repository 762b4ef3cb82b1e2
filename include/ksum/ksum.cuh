/* ksum/ksum.cuh -- fused kernel summation V = K(A, B) W: one kernel, no m x n matrix in memory.
 *
 * WHAT (Wang et al., fused kernel summation, Algorithm 2, generalised)
 *   KSUM_DEFINE(name, T, KERNEL) defines
 *       __global__ void name_norms(...), name_kernel(...)       the pre-pass and the fused kernel
 *       int name_launch(const ksum_args *a, cudaStream_t s)    checks, plans, launches; 0 or KSUM_E*
 *   computing, for targets a (m x dim) and sources b (n x dim), both point-major (see base.cuh),
 *       v[i][r] = sum_j KERNEL(|a_i - b_j|, h) * w[j][r]        (r < nrhs <= 1 for KSUM_DEFINE)
 *   KERNEL is KSUM_GAUSS, KSUM_LAPLACE, KSUM_CAUCHY, KSUM_MATERN32, KSUM_MATERN52, KSUM_IMQ or a
 *   pair of macros of one's own (epilogue.cuh).  T is float or double.
 *   KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB) chooses R right-hand sides (w is n x nrhs with
 *   nrhs <= R, run time), the per-thread microtile TM x TN (4 or 8 each; block tile 16 TM x 16 TN)
 *   and the __launch_bounds__ minimum blocks per SM.  KSUM_DEFINE uses R = 1 and 8 x 8 (float,
 *   2 blocks per SM) or 4 x 4 (double, 1 block per SM).
 *
 *   How it runs: a pre-pass writes s|a_i|^2 and s|b_j|^2 to a workspace (s the kernel's scale,
 *   epilogue.cuh).  The main kernel gives each block 16 TM targets and a range of source tiles
 *   (gridDim.y splits of the sources).  For each source tile it runs the dot-product GEMM over dim
 *   in chunks of 8 (gemm.cuh; the next chunk is loaded into registers while this one is computed,
 *   one barrier per chunk; when dim <= 8 the targets' chunk stays in shared memory; the accumulators
 *   start at s|a_i|^2 + s|b_j|^2 and the targets are staged times -2s), then the
 *   epilogue turns the accumulators into kernel values and adds them, weighted, into TM x R partial
 *   sums kept in registers across all the block's source tiles.  At the end the 16 threads of a row
 *   group sum by shuffles and one lane stores (KSUM_DETERMINISTIC) or atomically adds (default) each
 *   (row, rhs): one store or atomic per row per split.
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
 *   splits <= 65535.  float 8 x 8, R = 1: 128 registers (2 blocks per SM, no spills), 19 KB shared memory,
 *   256 threads.  The tensor-core variant is in tc.cuh.
 *   The launcher takes (m + n + 4) sizeof(T) bytes of workspace (a->work, or cudaMallocAsync /
 *   cudaFreeAsync on the stream), zeroes v first in atomic mode (unless KSUM_ACCUMULATE), and
 *   queries the SM count once per call.  All argument checks happen before any launch.
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

#define KSUM_DEFINE(name, T, KERNEL)                                                                   \
    KSUM_DEFINE_EX(name, T, KERNEL, 1, KSUM__XCAT(KSUM__TM_, T), KSUM__XCAT(KSUM__TN_, T), KSUM__XCAT(KSUM__MINB_, T))

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

#endif
