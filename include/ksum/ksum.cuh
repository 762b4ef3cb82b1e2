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
 *   launch.  A documented limit on a generator's compile-time arguments is a static_assert.
 *
 * STRUCTURE (also smalldim.cuh and tc.cuh)
 *   A KSUM_DEFINE* macro only pastes names, sizes and types: its __global__ kernels are short macros
 *   (KSUM__EX_KERNEL, KSUM__F32_KERNEL, ...) made of pieces of a few lines each, which expand inside
 *   the kernel and use its names (documented above each group); loops whose bounds are the compile-
 *   time sizes stay macros, the rest are static __device__ __forceinline__ functions (ksum__norms_T,
 *   ksum__sw_load_T, ...).  The staging of the float path (KSUM__STAGED_*) and of the register path
 *   (KSUM__REGS_LOAD, ksum__sw_*) is shared with tc.cuh.  name_launch is one call of an ordinary host
 *   function (ksum__launch_generic, ksum__launch_staged, ksum__sd_launch) that takes the kernels as
 *   pointers and launches them with cudaLaunchKernel.
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


/* ---- host pieces shared by every launcher (ksum.cuh, tc.cuh, smalldim.cuh) ----------------------- */

/* KSUM_EUNSUPPORTED below sm_80 (the tensor-core launchers), KSUM_ECUDA if the device can't be asked */
static inline int ksum__need_sm80(void)
{
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess)
        return KSUM_ECUDA;
    return major >= 8 ? KSUM_SUCCESS : KSUM_EUNSUPPORTED;
}

/* the grid every launcher plans: defaults filled in, bm targets per block, the sources in tiles of bn
 * split over gridDim.y */
typedef struct ksum__plan {
    int nrhs;                 /* right-hand sides (args->nrhs, 0 meaning 1) */
    long long lda, ldb;       /* elements between points (0 meaning dim) */
    long long rowtiles;       /* gridDim.x */
    int ntiles, per, ysplits; /* source tiles, tiles per split, gridDim.y */
    int atomic, accumulate;   /* the flags as the kernels take them */
} ksum__plan;

static inline int ksum__plan_make(ksum__plan *p, const ksum_args *args, int bm, int bn, int minb)
{
    p->nrhs = args->nrhs ? args->nrhs : 1;
    p->lda = args->lda ? args->lda : args->dim;
    p->ldb = args->ldb ? args->ldb : args->dim;
    p->rowtiles = ((long long)args->m + bm - 1) / bm;
    p->ntiles = (args->n + bn - 1) / bn;
    if (p->rowtiles > 2147483647LL) return KSUM_ESIZE;
    const int splits = ksum__splits(args, p->rowtiles, p->ntiles, minb);
    p->per = (p->ntiles + splits - 1) / splits;
    p->ysplits = (p->ntiles + p->per - 1) / p->per;
    p->atomic = !(args->flags & KSUM_DETERMINISTIC);
    p->accumulate = (args->flags & KSUM_ACCUMULATE) != 0;
    return KSUM_SUCCESS;
}

/* a kernel argument of the element type (float or double, by esize), for cudaLaunchKernel */
typedef union ksum__scalar {
    float f;
    double d;
} ksum__scalar;
static inline ksum__scalar ksum__scalar_make(double x, size_t esize)
{
    ksum__scalar s;
    if (esize == sizeof(float)) s.f = (float)x;
    else s.d = x;
    return s;
}

/* 0 if the launch went in, else KSUM_ECUDA (the CUDA error stays for cudaPeekAtLastError) */
static inline int ksum__launched(cudaError_t e)
{
    return e != cudaSuccess || cudaPeekAtLastError() != cudaSuccess ? KSUM_ECUDA : KSUM_SUCCESS;
}

/* the workspace: args->work, or cudaMallocAsync on the stream (given back by ksum__work_put) */
static inline int ksum__work_get(const ksum_args *args, size_t esize, cudaStream_t stream, void **work)
{
    *work = args->work;
    if (!*work && cudaMallocAsync(work, ksum_work_bytes(args->m, args->n, esize), stream) != cudaSuccess)
        return KSUM_ECUDA;
    return KSUM_SUCCESS;
}
static inline int ksum__work_put(const ksum_args *args, void *work, cudaStream_t stream, int rc)
{
    if (!args->work && cudaFreeAsync(work, stream) != cudaSuccess && !rc) rc = KSUM_ECUDA;
    return rc;
}

/* the norm pre-pass name_norms over the first m targets and all sources, into out */
static inline int ksum__run_norms(const void *norms_fn, const ksum_args *args, const ksum__plan *p, int m,
                                  ksum__scalar scale, void *out, cudaStream_t stream)
{
    const void *a = args->a, *b = args->b;
    long long lda = p->lda, ldb = p->ldb;
    int n = args->n, dim = args->dim;
    void *kargs[] = {(void *)&a, &lda, &m, (void *)&b, &ldb, &n, &dim, &scale, &out};
    const size_t npts = (size_t)m + (size_t)n;
    return ksum__launched(cudaLaunchKernel(norms_fn, dim3((unsigned)((npts + 255) / 256)), dim3(256), kargs, 0, stream));
}

/* v = 0 before the atomic adds (unless accumulating) */
static inline int ksum__zero_v(const ksum_args *args, const ksum__plan *p, size_t esize, cudaStream_t stream)
{
    if (p->atomic && !p->accumulate &&
        cudaMemsetAsync(args->v, 0, (size_t)args->m * p->nrhs * esize, stream) != cudaSuccess)
        return KSUM_ECUDA;
    return KSUM_SUCCESS;
}

/* the main kernel of ksum.cuh and tc.cuh: (a, lda, b, ldb, w, v, m, n, dim, nrhs, -2s, norms,
 * tiles_per_split, x, [y,] atomic, accumulate), x y the generator's own ints: nx = 2 (vec_a, vec_b) for
 * the generic kernels, nx = 1 (ks) for the staged ones */
static inline int ksum__run_main(const void *kernel_fn, const ksum_args *args, const ksum__plan *p,
                                 ksum__scalar m2scale, void *norms, int x, int y, int nx, size_t smem,
                                 cudaStream_t stream)
{
    const void *a = args->a, *b = args->b, *w = args->w;
    void *v = args->v;
    long long lda = p->lda, ldb = p->ldb;
    int m = args->m, n = args->n, dim = args->dim, nrhs = p->nrhs, per = p->per;
    int atomic = p->atomic, accumulate = p->accumulate;
    void *kargs2[] = {(void *)&a, &lda, (void *)&b, &ldb, (void *)&w, &v, &m, &n, &dim, &nrhs, &m2scale,
                      &norms, &per, &x, &y, &atomic, &accumulate};
    void *kargs1[] = {(void *)&a, &lda, (void *)&b, &ldb, (void *)&w, &v, &m, &n, &dim, &nrhs, &m2scale,
                      &norms, &per, &x, &atomic, &accumulate};
    const dim3 grid((unsigned)p->rowtiles, (unsigned)p->ysplits);
    return ksum__launched(cudaLaunchKernel(kernel_fn, grid, dim3(KSUM_THREADS), nx == 2 ? kargs2 : kargs1, smem, stream));
}

/* the launcher of the generic kernels (KSUM_DEFINE_EX, KSUM_DEFINE_TF32_V1): checks (KSUM_EUNSUPPORTED
 * below sm_80 when need_sm80), the plan, workspace, the norm pre-pass, v zeroed in atomic mode, the
 * main kernel (block tile 16 tm x 16 tn) */
static inline int ksum__launch_generic(const ksum_args *args, cudaStream_t stream, const void *norms_fn,
                                       const void *kernel_fn, size_t esize, double scale, int R, int tm, int tn,
                                       int minb, int need_sm80)
{
    int rc = ksum__check(args, R, scale, esize == sizeof(float));
    if (rc) return rc;
    if (need_sm80 && (rc = ksum__need_sm80()) != KSUM_SUCCESS) return rc;
    ksum__plan p;
    if ((rc = ksum__plan_make(&p, args, 16 * tm, 16 * tn, minb)) != KSUM_SUCCESS) return rc;
    const int ea = tm / 2, eb = tn / 2;
    const int vec_a = (ea == 4 || ea == 2) && args->dim % ea == 0 && p.lda % ea == 0 && ((uintptr_t)args->a % 16) == 0;
    const int vec_b = args->dim % eb == 0 && p.ldb % eb == 0 && ((uintptr_t)args->b % 16) == 0;
    void *work = NULL;
    if (ksum__work_get(args, esize, stream, &work)) return KSUM_ECUDA;
    rc = ksum__run_norms(norms_fn, args, &p, args->m, ksum__scalar_make(scale, esize), work, stream);
    if (!rc) rc = ksum__zero_v(args, &p, esize, stream);
    if (!rc) rc = ksum__run_main(kernel_fn, args, &p, ksum__scalar_make(-2.0 * scale, esize), work, vec_a, vec_b, 2, 0, stream);
    return ksum__work_put(args, work, stream, rc);
}

#define KSUM__CAT(a, b) a##b
#define KSUM__XCAT(a, b) KSUM__CAT(a, b)

/* |p|^2 over dim coordinates, one FMA after another (the pre-passes' order) */
static __device__ __forceinline__ float ksum__sqnorm_float(const float *p, int dim)
{
    float s = 0;
    for (int k = 0; k < dim; k++) s = fma(p[k], p[k], s);
    return s;
}
static __device__ __forceinline__ double ksum__sqnorm_double(const double *p, int dim)
{
    double s = 0;
    for (int k = 0; k < dim; k++) s = fma(p[k], p[k], s);
    return s;
}
/* the pre-pass: scale * |x|^2 for the m targets, then the n sources, into out[m + n] */
static __device__ __forceinline__ void ksum__norms_float(const float *a, long long lda, int m, const float *b,
                                                         long long ldb, int n, int dim, float scale, float *out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)m + n) return;
    out[i] = ksum__sqnorm_float(i < m ? a + i * lda : b + (i - m) * ldb, dim) * scale;
}
static __device__ __forceinline__ void ksum__norms_double(const double *a, long long lda, int m, const double *b,
                                                          long long ldb, int n, int dim, double scale, double *out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)m + n) return;
    out[i] = ksum__sqnorm_double(i < m ? a + i * lda : b + (i - m) * ldb, dim) * scale;
}
#define KSUM__NORMS(name, T)                                                                           \
    __global__ void name##_norms(const T *__restrict__ a, long long lda, int m, const T *__restrict__ b, \
                                 long long ldb, int n, int dim, T scale, T *__restrict__ out)         \
    {                                                                                                  \
        ksum__norms_##T(a, lda, m, b, ldb, n, dim, scale, out);                                        \
    }

/* ---- device pieces shared by the generators: the macros expand inside a kernel and use its names
 * (the arguments, tid, the enum BM, BN) --------------------------------------------------------- */

/* the block's targets row0.. and its source tiles t0..t1 of BN (a split of gridDim.y); returns when it
 * has none */
#define KSUM__TILE_RANGE()                                                                             \
    const long long row0 = (long long)blockIdx.x * BM;                                                 \
    const int ntiles = (n + BN - 1) / BN;                                                              \
    const int t0 = blockIdx.y * tiles_per_split;                                                       \
    const int t1 = min(ntiles, t0 + tiles_per_split);                                                  \
    if (t0 >= t1) return

/* the register-staged kernels' steps: chunks of 8 coordinates per tile; nb the sources' norms */
#define KSUM__CHUNKS(T)                                                                                \
    const int nchunks = (dim + KSUM_BK - 1) / KSUM_BK;                                                 \
    const int nsteps = (t1 - t0) * nchunks;                                                            \
    const T *nb = norms + m

/* s|a_i|^2 of the block's BM targets from the pre-pass into shared sna, zero past m */
#define KSUM__SNA_LOAD(T)                                                                              \
    for (int q = tid; q < BM; q += KSUM_THREADS) sna[q] = row0 + q < m ? norms[row0 + q] : (T)0

/* the per-tile record of the register-staged kernels: element e = tid + 256 q (q < nwper) of
 * [0: s|b_j|^2, 1 + r: w_r][bn] for the tile of sources j0.., zero past n, nrhs and nw (= bn (1 + R));
 * ksum__sw_store_T puts a thread's elements into shared memory */
static __device__ __forceinline__ void ksum__sw_load_float(float *rw, const float *nb, const float *w, long long j0,
                                                           int n, int nrhs, int tid, int bn, int nw, int nwper)
{
#pragma unroll
    for (int q = 0; q < nwper; q++) {
        const int e = tid + q * KSUM_THREADS, qq = e / bn;
        const long long j = j0 + e % bn;
        rw[q] = 0.0f;
        if (e < nw && j < n) rw[q] = qq == 0 ? nb[j] : (qq - 1 < nrhs ? w[j * nrhs + qq - 1] : 0.0f);
    }
}
static __device__ __forceinline__ void ksum__sw_load_double(double *rw, const double *nb, const double *w,
                                                            long long j0, int n, int nrhs, int tid, int bn, int nw,
                                                            int nwper)
{
#pragma unroll
    for (int q = 0; q < nwper; q++) {
        const int e = tid + q * KSUM_THREADS, qq = e / bn;
        const long long j = j0 + e % bn;
        rw[q] = 0.0;
        if (e < nw && j < n) rw[q] = qq == 0 ? nb[j] : (qq - 1 < nrhs ? w[j * nrhs + qq - 1] : 0.0);
    }
}
static __device__ __forceinline__ void ksum__sw_store_float(float *d, const float *rw, int tid, int nw, int nwper)
{
#pragma unroll
    for (int q = 0; q < nwper; q++) if (tid + q * KSUM_THREADS < nw) d[tid + q * KSUM_THREADS] = rw[q];
}
static __device__ __forceinline__ void ksum__sw_store_double(double *d, const double *rw, int tid, int nw, int nwper)
{
#pragma unroll
    for (int q = 0; q < nwper; q++) if (tid + q * KSUM_THREADS < nw) d[tid + q * KSUM_THREADS] = rw[q];
}

/* ---- the generic kernel: KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB) --------------------------
 * The pieces below expand inside name_kernel and use its names: the arguments, tid, tx, ty, row0, nb
 * (the sources' norms), sa, sb, sw, sna, acc, vacc, ra, rb, rw, ls_tile, nchunks and the enum BM, BN,
 * NW, NWPER.  Register staging (gemm.cuh): step s+1's global loads in flight during step s. */

/* global -> registers for chunk c of tile ls_tile: targets (if load_a), sources, the tile's record
 * (if load_w); E* = TM/2 and TN/2 elements per thread (KSUM_GEMM_LOAD) */
#define KSUM__REGS_LOAD(T, EA, EB, c, load_a, load_w)                                                  \
    do {                                                                                               \
        if (load_a) KSUM_GEMM_LOAD(T, EA, ra, a, lda, m, dim, row0, (c)*KSUM_BK, tid, vec_a);          \
        KSUM_GEMM_LOAD(T, EB, rb, b, ldb, n, dim, (long long)ls_tile * BN, (c)*KSUM_BK, tid, vec_b);   \
        if (load_w) ksum__sw_load_##T(rw, nb, w, (long long)ls_tile * BN, n, nrhs, tid, BN, NW, NWPER); \
    } while (0)

/* zero the TM x R partial sums and the TM x TN accumulators */
#define KSUM__EX_ZERO(TM, TN, R)                                                                       \
    _Pragma("unroll") for (int i = 0; i < (TM); i++) {                                                 \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] = 0;                            \
        _Pragma("unroll") for (int j = 0; j < (TN); j++) acc[i][j] = 0;                                \
    }

/* step 0 (tile t0, chunk 0) into registers and buffer 0 (the targets into both buffers when one chunk
 * is all: they stay) */
#define KSUM__EX_PROLOGUE(T, TM, TN)                                                                   \
    do {                                                                                               \
        KSUM__REGS_LOAD(T, (TM) / 2, (TN) / 2, 0, 1, 1);                                               \
        KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, 0, tid, m2scale);                                     \
        if (nchunks == 1) KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, 1, tid, m2scale);                   \
        KSUM_GEMM_STORE(T, (TN) / 2, rb, sb, BN, 0, tid, (T)1);                                        \
        ksum__sw_store_##T(sw, rw, tid, NW, NWPER);                                                    \
        __syncthreads();                                                                               \
    } while (0)

/* a tile's first chunk: the accumulators start at s|a_i|^2 + s|b_j|^2 (swb: the tile's record) */
#define KSUM__EX_ACC_INIT(T, TM, TN, swb)                                                              \
    do {                                                                                               \
        T nbv[TN], na[TM];                                                                             \
        _Pragma("unroll") for (int v4 = 0; v4 < (TN) / 4; v4++) ksum__lds4_##T(nbv + 4 * v4, (swb) + tx * 4 + 64 * v4); \
        _Pragma("unroll") for (int v4 = 0; v4 < (TM) / 4; v4++) ksum__lds4_##T(na + 4 * v4, sna + ty * 4 + 64 * v4); \
        _Pragma("unroll") for (int i = 0; i < (TM); i++)                                               \
            _Pragma("unroll") for (int j = 0; j < (TN); j++) acc[i][j] = na[i] + nbv[j];               \
    } while (0)

/* a tile's last chunk: kernel values, weighted into the row sums (weights from the record swb) */
#define KSUM__EX_TILE_EPI(T, TM, TN, R, KERNEL, swb)                                                   \
    do {                                                                                               \
        T wv[TN][R];                                                                                   \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                           \
            T tmp[TN];                                                                                 \
            _Pragma("unroll") for (int v4 = 0; v4 < (TN) / 4; v4++)                                    \
                ksum__lds4_##T(tmp + 4 * v4, (swb) + (1 + r2) * BN + tx * 4 + 64 * v4);                \
            _Pragma("unroll") for (int j = 0; j < (TN); j++) wv[j][r2] = tmp[j];                       \
        }                                                                                              \
        KSUM_EPI_TILE(T, TM, TN, R, KERNEL, acc, wv, vacc);                                            \
    } while (0)

/* step s: issue step s+1's loads, compute chunk c (accumulators started at its tile's first chunk,
 * epilogue at its last), store step s+1 into the other buffer, one barrier */
#define KSUM__EX_STEP(T, KERNEL, R, TM, TN)                                                            \
    do {                                                                                               \
        const int more = s + 1 < nsteps;                                                               \
        int nc = c + 1, ntile_first = 0;                                                               \
        if (nc == nchunks) { nc = 0; ntile_first = 1; }                                               \
        if (more) {                                                                                    \
            if (ntile_first) ls_tile++;                                                                \
            KSUM__REGS_LOAD(T, (TM) / 2, (TN) / 2, nc, nchunks > 1, ntile_first);                      \
        }                                                                                              \
        const T *swb = sw + tpar * NW;                                                                 \
        if (c == 0) KSUM__EX_ACC_INIT(T, TM, TN, swb);                                                 \
        const int kc = min(KSUM_BK, dim - c * KSUM_BK);                                                \
        KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, s & 1, kc, tx, ty);                            \
        if (c == nchunks - 1) KSUM__EX_TILE_EPI(T, TM, TN, R, KERNEL, swb);                            \
        if (more) {                                                                                    \
            const int nb2 = (s + 1) & 1;                                                               \
            if (nchunks > 1) KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, nb2, tid, m2scale);              \
            KSUM_GEMM_STORE(T, (TN) / 2, rb, sb, BN, nb2, tid, (T)1);                                  \
            if (ntile_first) ksum__sw_store_##T(sw + (tpar ^ 1) * NW, rw, tid, NW, NWPER);             \
        }                                                                                              \
        __syncthreads();                                                                               \
        if (ntile_first) tpar ^= 1;                                                                    \
        c = nc;                                                                                        \
    } while (0)

#define KSUM__EX_KERNEL(kname, T, KERNEL, R, TM, TN, MINB)                                             \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB)                                              \
        kname(const T *__restrict__ a, long long lda, const T *__restrict__ b, long long ldb,          \
              const T *__restrict__ w, T *__restrict__ v, int m, int n, int dim, int nrhs, T m2scale,  \
              const T *__restrict__ norms, int tiles_per_split, int vec_a, int vec_b, int atomic, int accumulate) \
    {                                                                                                  \
        enum { BM = 16 * (TM), BN = 16 * (TN), NW = BN * (1 + (R)), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS }; \
        __shared__ __align__(16) T sa[KSUM_GEMM_SMEM_ELEMS(BM)];                                       \
        __shared__ __align__(16) T sb[KSUM_GEMM_SMEM_ELEMS(BN)];                                       \
        __shared__ __align__(16) T sw[2 * NW]; /* [buf][0: s|b|^2, 1+r: w_r][BN] */                    \
        const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;                                     \
        KSUM__TILE_RANGE();                                                                            \
        KSUM__CHUNKS(T);                                                                               \
        __shared__ __align__(16) T sna[BM]; /* s|a_i|^2 of the block's targets */                      \
        T acc[TM][TN], vacc[TM][R];                                                                    \
        KSUM__SNA_LOAD(T);                                                                             \
        KSUM__EX_ZERO(TM, TN, R);                                                                      \
        T ra[(TM) / 2], rb[(TN) / 2], rw[NWPER];                                                       \
        int ls_tile = t0; /* the tile of the staged loads */                                           \
        KSUM__EX_PROLOGUE(T, TM, TN);                                                                  \
        int c = 0, tpar = 0; /* chunk and tile parity of step s */                                     \
        for (int s = 0; s < nsteps; s++) KSUM__EX_STEP(T, KERNEL, R, TM, TN);                          \
        KSUM_EPI_ROWSUM16(T, TM, R, vacc);                                                             \
        KSUM_EPI_STORE(T, TM, R, vacc, v, row0, m, nrhs, tx, ty, atomic, accumulate);                  \
    }

/* name_launch of the generic kernels (KSUM_DEFINE_EX, KSUM_DEFINE_TF32_V1) */
#define KSUM__LAUNCHER(name, T, KERNEL, R, TM, TN, MINB, NEED_SM80)                                    \
    static inline __attribute__((unused)) int name##_launch(const ksum_args *args, cudaStream_t stream) \
    {                                                                                                  \
        return ksum__launch_generic(args, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                    sizeof(T), args ? (double)(KERNEL##_SCALE(args->h)) : 0, R, TM, TN, MINB, \
                                    NEED_SM80);                                                        \
    }

#define KSUM_DEFINE(name, T, KERNEL) KSUM__XCAT(KSUM__DEFINE_, T)(name, KERNEL)
#define KSUM__DEFINE_float(name, KERNEL) KSUM_DEFINE_F32(name, KERNEL, 1, 2)
#define KSUM__DEFINE_double(name, KERNEL) KSUM_DEFINE_EX(name, double, KERNEL, 1, 4, 4, 1)

#define KSUM_DEFINE_EX(name, T, KERNEL, R, TM, TN, MINB)                                               \
    static_assert(((TM) == 4 || (TM) == 8) && ((TN) == 4 || (TN) == 8),                                \
                  "KSUM_DEFINE_EX: the microtile TM x TN must be 4 or 8 each");                        \
    static_assert((R) >= 1 && (MINB) >= 1, "KSUM_DEFINE_EX: R and MINB must be at least 1");           \
    KSUM__NORMS(name, T)                                                                               \
    KSUM__EX_KERNEL(name##_kernel, T, KERNEL, R, TM, TN, MINB)                                         \
    KSUM__LAUNCHER(name, T, KERNEL, R, TM, TN, MINB, 0)

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
 * The next stage's copies are issued before this stage's FMAs and waited for after them.
 * The staging pieces (KSUM__STAGED_*) are shared with tc.cuh's KSUM_DEFINE_TF32; they expand inside
 * the kernel and use its names: the arguments, tid, row0, nb, sA, sB, sw, sna, dp, ks, nst, nsteps, the
 * step's st, tile, tpar, and the enum P (shared row length), BN, NW, NWPER. */
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

/* the kernel's frame: its tiles t0..t1 of sources (returns when it has none), dp = dim rounded up to
 * 8, nst stages of ks per tile, and the dynamic shared memory carved up: sA (dp rows resident, else
 * 2 ks), sB (2 ks), sw (2 NW), sna (128) */
#define KSUM__STAGED_FRAME(RES)                                                                        \
    KSUM__TILE_RANGE();                                                                                \
    const int dp = (dim + 7) & ~7, nst = (dp + ks - 1) / ks;                                           \
    const int nsteps = (t1 - t0) * nst;                                                                \
    float *sA = ksum__smem;                                                                            \
    float *sB = sA + ((RES) ? dp : 2 * ks) * P;                                                        \
    float *sw = sB + 2 * ks * P;                                                                       \
    float *sna = sw + 2 * NW;                                                                          \
    const float *nb = norms + m

/* the copies of one stage into buffer buf: coordinates k0..k0+kz-1 of source tile tl (and of the
 * targets when streamed) */
#define KSUM__STAGED_COPY(RES, buf, tl, k0, kz)                                                        \
    do {                                                                                               \
        KSUM_GEMM_TILE_OP(KSUM__F32_CP, sB + (buf)*ks * P, P, b, ldb, n, dim, (long long)(tl)*BN, k0, kz, tid); \
        if (!(RES)) KSUM_GEMM_TILE_OP(KSUM__F32_CP, sA + (buf)*ks * P, P, a, lda, m, dim, row0, k0, kz, tid); \
    } while (0)

/* stage 0 of tile t0 and its record, waited for */
#define KSUM__STAGED_FIRST(RES)                                                                        \
    do {                                                                                               \
        const int kz = min(ks, dp);                                                                    \
        KSUM__STAGED_COPY(RES, 0, t0, 0, kz);                                                          \
        KSUM__F32_SW(sw, t0);                                                                          \
        ksum__cp_wait();                                                                               \
        __syncthreads();                                                                               \
    } while (0)

/* the start of step s (stage st of tile `tile`): the next step's stage (nst2 of ntile; newtile when it
 * starts a tile) and record copies issued, in flight during this step; swb this tile's record */
#define KSUM__STAGED_NEXT(RES)                                                                         \
    int nst2 = st + 1, ntile = tile, newtile = 0;                                                      \
    if (nst2 == nst) { nst2 = 0; ntile++; newtile = 1; }                                               \
    if (s + 1 < nsteps) { /* the next stage's copies, in flight during this stage */                  \
        const int buf = (s + 1) & 1, k0 = nst2 * ks, kz = min(ks, dp - k0);                            \
        KSUM__STAGED_COPY(RES, buf, ntile, k0, kz);                                                    \
        if (newtile) KSUM__F32_SW(sw + (tpar ^ 1) * NW, ntile);                                        \
    }                                                                                                  \
    const float *swb = sw + tpar * NW

/* the end of step s: this thread's copies done, then everyone's (one barrier), on to the next stage */
#define KSUM__STAGED_END()                                                                             \
    do {                                                                                               \
        ksum__cp_wait();                                                                               \
        __syncthreads();                                                                               \
        if (newtile) tpar ^= 1;                                                                        \
        st = nst2;                                                                                     \
        tile = ntile;                                                                                  \
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

/* the 8 s|a_i|^2 of this thread's target rows, from sna */
#define KSUM__F32_NA(na)                                                                               \
    float na[8];                                                                                       \
    ksum__lds4_float(na, sna + ty * 4); ksum__lds4_float(na + 4, sna + ty * 4 + 64)

/* the weighted kernel values of the 8 x 8 tile into vacc; TEXPR the argument t of acc[i][j] */
#define KSUM__F32_EPI(KERNEL, R, TEXPR)                                                                \
    _Pragma("unroll") for (int i = 0; i < 8; i++)                                                      \
        _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                \
            const float t = (TEXPR);                                                                   \
            const float kv = KERNEL##_EVAL(float, t);                                                  \
            _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] = fmaf(kv, wv[j][r2], vacc[i][r2]); \
        }

/* a tile's first stage without the factorisation: the accumulators start at the norms */
#define KSUM__F32_ACC_INIT()                                                                           \
    do {                                                                                               \
        float nbv[8];                                                                                  \
        ksum__lds4_float(nbv, swb + tx * 4); ksum__lds4_float(nbv + 4, swb + tx * 4 + 64);              \
        KSUM__F32_NA(na);                                                                              \
        _Pragma("unroll") for (int i = 0; i < 8; i++)                                                  \
            _Pragma("unroll") for (int j = 0; j < 8; j++) acc[i][j] = na[i] + nbv[j];                  \
    } while (0)

/* the coordinates of stage st (8 at a time, the real ones of a partial last chunk); with the
 * factorisation, a tile's first 8 start the accumulators at s|b_j|^2 */
#define KSUM__F32_STAGE(RES)                                                                           \
    do {                                                                                               \
        const int k0 = st * ks, kz = min(ks, dp - k0);                                                 \
        const float *pa = ((RES) ? sA + k0 * P : sA + (s & 1) * ks * P) + ty * 4;                      \
        const float *pb = sB + (s & 1) * ks * P + tx * 4;                                              \
        const int kr = min(kz, dim - k0); /* coordinates really there (the rest are zeros) */          \
        int c = 0;                                                                                     \
        if (FAC && st == 0) { /* the first 8 coordinates; the accumulators start at s|b_j|^2 */       \
            float nbv[8];                                                                              \
            ksum__lds4_float(nbv, swb + tx * 4); ksum__lds4_float(nbv + 4, swb + tx * 4 + 64);          \
            KSUM__F32_KSTEP_INIT(0, nbv);                                                              \
            if (kr >= KSUM_BK)                                                                         \
                _Pragma("unroll") for (int kk = 1; kk < KSUM_BK; kk++) KSUM__F32_KSTEP(kk);            \
            else                                                                                       \
                _Pragma("unroll") for (int kk = 1; kk < KSUM_BK; kk++) if (kk < kr) KSUM__F32_KSTEP(kk); \
            c = KSUM_BK;                                                                               \
        }                                                                                              \
        for (; c + KSUM_BK <= kr; c += KSUM_BK)                                                        \
            _Pragma("unroll") for (int kk = 0; kk < KSUM_BK; kk++) KSUM__F32_KSTEP(c + kk);            \
        if (c < kr) /* a last partial chunk of 8 (dim % 8 != 0): only its real coordinates */         \
            _Pragma("unroll") for (int kk = 0; kk < KSUM_BK; kk++) if (kk < kr - c) KSUM__F32_KSTEP(c + kk); \
    } while (0)

/* a tile's last stage: kernel values, weighted row sums; t from acc as the kernel left it */
#define KSUM__F32_TILE_EPI(KERNEL, R, RES)                                                             \
    do {                                                                                               \
        float wv[8][R];                                                                                \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                           \
            float tmp[8];                                                                              \
            ksum__lds4_float(tmp, swb + (1 + r2) * BN + tx * 4);                                       \
            ksum__lds4_float(tmp + 4, swb + (1 + r2) * BN + tx * 4 + 64);                              \
            _Pragma("unroll") for (int j = 0; j < 8; j++) wv[j][r2] = tmp[j];                          \
        }                                                                                              \
        if (FAC && fac) { /* acc = t - s|a_i|^2: 2^-acc, the row factor at the end */                 \
            KSUM__F32_EPI(KERNEL, R, acc[i][j])                                                        \
        } else if (FAC) { /* acc = t - s|a_i|^2 */                                                     \
            KSUM__F32_NA(na);                                                                          \
            KSUM__F32_EPI(KERNEL, R, fmaxf(acc[i][j] + na[i], 0.0f))                                   \
        } else {                                                                                       \
            KSUM__F32_EPI(KERNEL, R, (RES) ? fmaxf(acc[i][j], 0.0f) : fmaxf(acc[i][j] * m2scale, 0.0f)) \
        }                                                                                              \
    } while (0)

/* the factorised Gaussian (resident targets): fac when this thread's targets all have s|a|^2 <= 64 */
#define KSUM__F32_FAC_SETUP()                                                                          \
    do {                                                                                               \
        if (FAC) {                                                                                     \
            KSUM__F32_NA(na);                                                                          \
            fac = 1;                                                                                   \
            _Pragma("unroll") for (int i = 0; i < 8; i++) fac &= na[i] <= KSUM__FACTOR_MAX;            \
        }                                                                                              \
    } while (0)

/* the end: the rows' factors 2^-s|a_i|^2 (factorised), the row sums over 16 lanes, stores or atomics */
#define KSUM__F32_FINISH(R)                                                                            \
    do {                                                                                               \
        if (FAC && fac) {                                                                              \
            KSUM__F32_NA(na);                                                                          \
            _Pragma("unroll") for (int i = 0; i < 8; i++) {                                            \
                const float f = ksum_exp2neg_float(na[i]);                                             \
                _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] *= f;                   \
            }                                                                                          \
        }                                                                                              \
        KSUM_EPI_ROWSUM16(float, 8, R, vacc);                                                          \
        KSUM_EPI_STORE(float, 8, R, vacc, v, row0, m, nrhs, tx, ty, atomic, accumulate);               \
    } while (0)

#define KSUM__F32_KERNEL(kname, KERNEL, R, MINB, RES)                                                  \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB)                                              \
        kname(const float *__restrict__ a, long long lda, const float *__restrict__ b, long long ldb,  \
              const float *__restrict__ w, float *__restrict__ v, int m, int n, int dim, int nrhs,     \
              float m2scale, const float *__restrict__ norms, int tiles_per_split, int ks, int atomic, \
              int accumulate)                                                                          \
    {                                                                                                  \
        enum { BM = 128, BN = 128, P = KSUM_GEMM_P, NW = BN * (1 + (R)), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS }; \
        /* the factorised Gaussian (resident targets): K = 2^-s|a|^2 2^-(t - s|a|^2) */               \
        enum { FAC = (RES) && KSUM__FACTOR(KERNEL) && KSUM__FACTOR_ARCH };                             \
        extern __shared__ __align__(16) float ksum__smem[];                                            \
        const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;                                     \
        KSUM__STAGED_FRAME(RES);                                                                       \
        if (RES) KSUM__LOAD_RESIDENT(P);                                                               \
        else KSUM__SNA_LOAD(float);                                                                    \
        KSUM__STAGED_FIRST(RES);                                                                       \
        float acc[8][8], vacc[8][R];                                                                   \
        _Pragma("unroll") for (int i = 0; i < 8; i++) _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][r2] = 0.0f; \
        int fac = 0; /* this thread's targets all have s|a|^2 <= 64 */                                 \
        KSUM__F32_FAC_SETUP();                                                                         \
        int st = 0, tile = t0, tpar = 0;                                                               \
        for (int s = 0; s < nsteps; s++) {                                                             \
            KSUM__STAGED_NEXT(RES);                                                                    \
            if (!FAC && st == 0) KSUM__F32_ACC_INIT();                                                 \
            KSUM__F32_STAGE(RES);                                                                      \
            if (st == nst - 1) KSUM__F32_TILE_EPI(KERNEL, R, RES);                                     \
            KSUM__STAGED_END();                                                                        \
        }                                                                                              \
        KSUM__F32_FINISH(R);                                                                           \
    }

/* shared-memory bytes of a staged kernel (rows of LDP floats): resident targets (res) or streamed */
static inline size_t ksum__stage_smem(int dp, int ks, int res, int R, int ldp)
{
    return ((size_t)(res ? dp + 2 * ks : 4 * ks) * ldp + 2 * 128 * (size_t)(1 + R) + 128) * sizeof(float);
}

/* the dynamic shared memory limit already set for a staged kernel pair, per kernel (streamed, resident) */
typedef struct ksum__smem_set {
    int dev[2];
    size_t bytes[2];
} ksum__smem_set;

/* the launcher of the staged float kernels (KSUM_DEFINE_F32, KSUM_DEFINE_TF32): checks (KSUM_EUNSUPPORTED
 * below sm_80 when need_sm80), resident or streamed mode and stage size from the device's shared memory,
 * workspace, norm pre-pass (s|x|^2 resident, -|x|^2/2 streamed), v zeroed in atomic mode, the kernel */
static inline int ksum__launch_staged(const ksum_args *args, cudaStream_t stream, const void *norms_fn,
                                      const void *kernel_res, const void *kernel_stream, ksum__smem_set *set,
                                      double scale, int R, int minb, int ldp, int need_sm80)
{
    int rc = ksum__check(args, R, scale, 1);
    if (rc) return rc;
    if (need_sm80 && (rc = ksum__need_sm80()) != KSUM_SUCCESS) return rc;
    ksum__plan p;
    if ((rc = ksum__plan_make(&p, args, 128, 128, minb)) != KSUM_SUCCESS) return rc;
    int dev = 0, optin = 48 * 1024, persm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&persm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) != cudaSuccess)
        return KSUM_ECUDA;
    const int dp = (args->dim + 7) & ~7;
    int ks = dp < 32 ? dp : 32;
    const int res = dp <= 128 && ksum__stage_smem(dp, ks, 1, R, ldp) <= (size_t)optin &&
                    (ksum__stage_smem(dp, ks, 1, R, ldp) + 2048) * minb <= (size_t)persm;
    while (!res && ks > 8 && ksum__stage_smem(dp, ks, 0, R, ldp) > (size_t)optin) ks -= 8;
    const size_t bytes = ksum__stage_smem(dp, ks, res, R, ldp);
    if (bytes > (size_t)optin) return KSUM_ESIZE;
    if (bytes > 48 * 1024 && (set->dev[res] != dev || set->bytes[res] < bytes)) {
        if (cudaFuncSetAttribute(res ? kernel_res : kernel_stream, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)bytes) != cudaSuccess)
            return KSUM_ECUDA;
        set->dev[res] = dev;
        set->bytes[res] = bytes;
    }
    void *work = NULL;
    if (ksum__work_get(args, sizeof(float), stream, &work)) return KSUM_ECUDA;
    /* resident: the targets' norms are summed in the kernel, the pre-pass does the sources */
    rc = ksum__run_norms(norms_fn, args, &p, res ? 0 : args->m, ksum__scalar_make(res ? scale : -0.5, sizeof(float)),
                         res ? (float *)work + args->m : work, stream);
    if (!rc) rc = ksum__zero_v(args, &p, sizeof(float), stream);
    if (!rc)
        rc = ksum__run_main(res ? kernel_res : kernel_stream, args, &p, ksum__scalar_make(-2.0 * scale, sizeof(float)),
                            work, ks, 0, 1, bytes, stream);
    return ksum__work_put(args, work, stream, rc);
}

/* name_launch of the staged kernels */
#define KSUM__LAUNCHER_STAGED(name, KERNEL, R, MINB, LDP, NEED_SM80)                                   \
    static inline __attribute__((unused)) int name##_launch(const ksum_args *args, cudaStream_t stream) \
    {                                                                                                  \
        static ksum__smem_set set = {{-1, -1}, {0, 0}};                                                \
        return ksum__launch_staged(args, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                   (const void *)name##_kernel_stream, &set,                           \
                                   args ? (double)(KERNEL##_SCALE(args->h)) : 0, R, MINB, LDP, NEED_SM80); \
    }

#define KSUM_DEFINE_F32(name, KERNEL, R, MINB)                                                         \
    static_assert((R) >= 1 && (MINB) >= 1, "KSUM_DEFINE_F32: R and MINB must be at least 1");          \
    KSUM__NORMS(name, float)                                                                           \
    KSUM__F32_KERNEL(name##_kernel, KERNEL, R, MINB, 1)                                                \
    KSUM__F32_KERNEL(name##_kernel_stream, KERNEL, R, MINB, 0)                                         \
    KSUM__LAUNCHER_STAGED(name, KERNEL, R, MINB, KSUM_GEMM_P, 0)

#endif
