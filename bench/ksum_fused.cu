/* bench/ksum_fused.cu -- fused Gaussian kernel summation against its unfused peers in the same run:
 *   fused       KSUM_DEFINE(..., KSUM_GAUSS, ksum_policy<>): one kernel (plus the norm pre-pass), atomic
 *               mode; float is the staged path (cp.async stages, targets resident for dim <= 128)
 *   fused-det   the same, KSUM_DETERMINISTIC (one block per 128 targets, plain stores)
 *   fused-v1    float: the generic register-staged kernel (KSUM_REGS_DEFINE 8 x 8), for comparison
 *   fused-nofac float, dim <= 128: the staged path with the general epilogue (the Gaussian under another
 *               name, so 2^-t is not factorised over the norms), for comparison
 *   tf32-v1     the register-staged TF32 kernel (KSUM_REGS_DEFINE of ksum_tf32), for comparison
 *   cublas      the paper's cuBLAS-Unfused: cuBLAS SGEMM/DGEMM C = A B^T (m x n in memory), a norm
 *               kernel, an exp kernel K = exp(-(|a|^2 + |b|^2 - 2C) / 2h^2) in place, cuBLAS GEMV
 *   tf32        ksum/tc.cuh, dot products on TF32 tensor cores (dim >= 16, float), and 3xtf32 (the
 *               three-pass split, about FP32 accurate): KSUM_DEFINE of T ksum_tf32 / ksum_tf32x3, named
 *               tf32-wg / 3xtf32-wg where it runs wgmma (ksum/wgmma.cuh); tf32-mma / 3xtf32-mma its
 *               mma.sync kernels alone (KSUM_SCHEDULE_MMA: what runs where wgmma does not); tf32-w3,
 *               tf32-r2, 3xtf32-r2: the staged kernel's other fragment-read variants (WIDE 3/1 and
 *               scalar reads 0/0), same run
 *               (tf32 is WIDE 4/0, 3xtf32 1/0: so at dim > 128 tf32 = tf32-r2, 3xtf32 = 3xtf32-r2)
 *   small       ksum/smalldim.cuh at dim 3 (DMAX 3, 2 blocks/SM): targets in registers, sources broadcast
 *               from shared memory, every exponential on the MUFU; small-p1 1 of 8 exponentials by the
 *               FMA-pipe polynomial; small-b3 3 blocks/SM; small-det KSUM_DETERMINISTIC (splits reduced
 *               in order by a second kernel)
 *   own         our own unfused path: a GEMM kernel built from ksum/gemm.cuh storing C, then the same
 *               exp kernel and cuBLAS GEMV (the paper's CUDA-Unfused)
 * Shapes: the paper's (n = 1024 sources, m = 1024 ... 524288 targets, dim = 32 ... 256) and the square
 * m = n = 65536 with dim = 3, 16, 64; fp64 on two shapes.  One right-hand side.
 * ms is the median of --reps runs after 3 warm-ups (CUDA events).  Floors: FMA = pairs (dim + 5) / peak
 * FMA rate (FP32 33.5 T/s, FP64 17 T/s: the dot product, distance, clamp, weight), exp = pairs / 4.18 T/s
 * (MUFU.EX2, 16 per SM per clock; float only); tensor rows: MMA = pairs x dim (rounded up to 32, x3 for
 * the split) / the wgmma TF32 rate measured first; %floor = the larger floor / ms.  Each fused result is
 * compared with cuBLAS-Unfused (relative 2-norm difference of v).  First, a plain cuBLAS SGEMM 8192^3
 * (2048^3 with --light) prints the FP32 FMA rate this GPU reaches, beside the 33.5 T floor rate.
 * usage: ksum [--json PATH] [--reps N] [--light] [--only-fused] [--dim D] [--tc]   (--dim: only shapes of that
 *        dim; --tc: only 524288 x 1024 x 32..256 and 65536^2 x 64 with cublas, fused and the TF32 kernels) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <ksum/ksum.cuh>
#include <ksum/smalldim.cuh>
#include <ksum/tc.cuh>

#include "gpucheck.h"

#define FMA32 33.5e12
#define FMA64 17e12
#define EXPRATE 4.18e12

KSUM_DEFINE(bench_gauss_f32, float, KSUM_GAUSS, ksum_policy<>) /* the float path: cp.async stages */
/* the generic kernel (register staging) */
KSUM_REGS_DEFINE(bench_gauss_f32_v1, float, KSUM_GAUSS, ksum_regs_policy<1, 8, 8, 2>)
/* the same Gaussian under another name: the staged float path without the factorised epilogue */
#define BENCH_NOFAC_SCALE(h) KSUM_GAUSS_SCALE(h)
#define BENCH_NOFAC_EVAL(T, t) KSUM_GAUSS_EVAL(T, t)
KSUM_DEFINE(bench_gauss_f32_nofac, float, BENCH_NOFAC, ksum_policy<>)
KSUM_DEFINE(bench_gauss_f64, double, KSUM_GAUSS, ksum_policy<>)
KSUM_DEFINE(bench_gauss_tf32, ksum_tf32, KSUM_GAUSS, ksum_policy<>)
KSUM_DEFINE(bench_gauss_3xtf32, ksum_tf32x3, KSUM_GAUSS, ksum_policy<>)
/* register staging, a barrier per 8 coordinates */
KSUM_REGS_DEFINE(bench_gauss_tf32_v1, ksum_tf32, KSUM_GAUSS, ksum_regs_policy<>)
/* the staged kernel's fragment-read variants (tc.cuh WIDE, resident / streamed): 3/1 LDS.128 reads,
 * m16n8k8; 0/0 scalar reads */
KSUM_DEFINE(bench_gauss_tf32_w3, ksum_tf32, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 3, 1>)
KSUM_DEFINE(bench_gauss_tf32_r2, ksum_tf32, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 0, 0>)
KSUM_DEFINE(bench_gauss_3xtf32_r2, ksum_tf32x3, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 0, 0>)
/* the mma.sync kernels of the two above alone (what they run where wgmma does not) */
KSUM_DEFINE(bench_gauss_tf32_mma, ksum_tf32, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 4, 0>)
KSUM_DEFINE(bench_gauss_3xtf32_mma, ksum_tf32x3, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 1, 0>)

/* the TF32 tensor rate of wgmma on this device (the tensor floors' denominator): per SM 2 warpgroups,
 * each 8 chained wgmma.m64n128k8 per group on zeroed shared tiles, one group in flight; FMAs per second
 * (0 where the build has no sm_90a code) */
__global__ void __launch_bounds__(256, 1) bench_wg_rate(float *out, int iters)
{
    __shared__ __align__(1024) float tile[2 * 4096];
    for (int i = threadIdx.x; i < 2 * 4096; i += 256) tile[i] = 0.0f;
    ksum__fence_async();
    __syncthreads();
    float d[64];
    for (int i = 0; i < 64; i++) d[i] = 0.0f;
    const unsigned sa = ksum_smem_u32(tile) + 8192 * (threadIdx.x >> 7), sb = ksum_smem_u32(tile + 4096);
    for (int it = 0; it < iters; it++) {
        ksum_wg_fence();
#pragma unroll
        for (int k = 0; k < 8; k++) ksum_wg_mma_tf32(d, ksum_wg_desc(sa + 32 * (k & 3)), ksum_wg_desc(sb + 32 * (k & 3)), 1);
        ksum_wg_commit();
        KSUM_WG_WAIT(0);
    }
    float acc = 0.0f;
    for (int i = 0; i < 64; i++) acc += d[i];
    if (acc == 12345.678f) out[0] = acc; /* keeps the MMAs alive */
}
static double wg_rate; /* FMA/s, 0: not measured */
static void run_wg_rate(void *p, int set)
{
    (void)set;
    int sms = 132;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    bench_wg_rate<<<sms, 256>>>((float *)p, 2000);
}
KSUM_SMALLDIM_DEFINE(bench_gauss_sd3, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 0, 2>)    /* all exps on the MUFU */
KSUM_SMALLDIM_DEFINE(bench_gauss_sd3_p1, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 1, 2>) /* 1 of 8 by polynomial */
KSUM_SMALLDIM_DEFINE(bench_gauss_sd3_b3, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 0, 3>) /* 3 blocks/SM (80 regs) */

/* ---- the unfused peers' pieces ----------------------------------------------------------------- */
#define BENCH_UNFUSED_DEFINE(T)                                                                        \
    __global__ void bench_norms_##T(const T *__restrict__ x, long long np, int dim, T *__restrict__ out) \
    {                                                                                                  \
        long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                                \
        if (i >= np) return;                                                                           \
        T s = 0;                                                                                       \
        for (int k = 0; k < dim; k++) s += x[i * dim + k] * x[i * dim + k];                            \
        out[i] = s;                                                                                    \
    }                                                                                                  \
    /* C row-major m x n (cuBLAS's column-major n x m): K = exp(-(na_i + nb_j - 2C) / 2h^2) in place */ \
    __global__ void bench_exp_##T(T *__restrict__ c, const T *__restrict__ na, const T *__restrict__ nb, \
                                  long long m, int n, T g)                                             \
    {                                                                                                  \
        long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;                                \
        const long long tot = m * n;                                                                   \
        for (; e < tot; e += (long long)gridDim.x * blockDim.x) {                                      \
            const long long i = e / n;                                                                 \
            const int j = (int)(e - i * n);                                                            \
            T d = na[i] + nb[j] - 2 * c[e];                                                            \
            c[e] = exp(-(d > 0 ? d : (T)0) * g);                                                       \
        }                                                                                              \
    }                                                                                                  \
    /* our own GEMM from ksum/gemm.cuh: C[i][j] = a_i . b_j, row-major m x n, one tile per block */    \
    __global__ void __launch_bounds__(KSUM_THREADS, 1) bench_gemm_##T(const T *__restrict__ a,          \
        const T *__restrict__ b, T *__restrict__ c, int m, int n, int dim, int vec)                    \
    {                                                                                                  \
        enum { TM = 8, TN = (sizeof(T) == 4 ? 8 : 4), BM = 16 * TM, BN = 16 * TN };                    \
        __shared__ __align__(16) T sa[KSUM_GEMM_SMEM_ELEMS(BM)];                                       \
        __shared__ __align__(16) T sb[KSUM_GEMM_SMEM_ELEMS(BN)];                                       \
        const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;                                     \
        const long long r0 = (long long)blockIdx.y * BM, c0 = (long long)blockIdx.x * BN;              \
        T acc[TM][TN], ra[TM / 2], rb[TN / 2];                                                         \
        _Pragma("unroll") for (int i = 0; i < TM; i++) _Pragma("unroll") for (int j = 0; j < TN; j++) acc[i][j] = 0; \
        const int nch = (dim + KSUM_BK - 1) / KSUM_BK;                                                 \
        KSUM_GEMM_LOAD(T, TM / 2, ra, a, dim, m, dim, r0, 0, tid, vec);                                \
        KSUM_GEMM_LOAD(T, TN / 2, rb, b, dim, n, dim, c0, 0, tid, vec);                                \
        KSUM_GEMM_STORE(T, TM / 2, ra, sa, BM, 0, tid, (T)1);                                          \
        KSUM_GEMM_STORE(T, TN / 2, rb, sb, BN, 0, tid, (T)1);                                          \
        __syncthreads();                                                                               \
        for (int s = 0; s < nch; s++) {                                                                \
            if (s + 1 < nch) {                                                                         \
                KSUM_GEMM_LOAD(T, TM / 2, ra, a, dim, m, dim, r0, (s + 1) * KSUM_BK, tid, vec);        \
                KSUM_GEMM_LOAD(T, TN / 2, rb, b, dim, n, dim, c0, (s + 1) * KSUM_BK, tid, vec);        \
            }                                                                                          \
            KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, s & 1, min(KSUM_BK, dim - s * KSUM_BK), tx, ty); \
            if (s + 1 < nch) {                                                                         \
                KSUM_GEMM_STORE(T, TM / 2, ra, sa, BM, (s + 1) & 1, tid, (T)1);                        \
                KSUM_GEMM_STORE(T, TN / 2, rb, sb, BN, (s + 1) & 1, tid, (T)1);                        \
            }                                                                                          \
            __syncthreads();                                                                           \
        }                                                                                              \
        _Pragma("unroll") for (int i = 0; i < TM; i++) {                                               \
            const long long r = r0 + KSUM_GEMM_ROW(i, ty);                                             \
            _Pragma("unroll") for (int j = 0; j < TN; j++) {                                           \
                const long long q = c0 + KSUM_GEMM_ROW(j, tx);                                         \
                if (r < m && q < n) c[r * n + q] = acc[i][j];                                          \
            }                                                                                          \
        }                                                                                              \
    }
BENCH_UNFUSED_DEFINE(float)
BENCH_UNFUSED_DEFINE(double)

#define CUBLAS_DIE(call)                                                                               \
    do {                                                                                               \
        cublasStatus_t st_ = (call);                                                                   \
        if (st_ != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "%s: cublas status %d\n", #call, (int)st_); exit(2); } \
    } while (0)

static int reps = 15, only_dim, tc_only;
static FILE *json;
static int json_rows;
static cublasHandle_t blas;

typedef struct ctx {
    int m, n, dim, dbl, own, tc, sd; /* sd: 1 small-dim, 2 with the polynomial, 3 three blocks/SM */
    int v1;                          /* 1: the generic KSUM_REGS_DEFINE kernel instead of the float path;
                                        2: the float path without the factorised Gaussian */
    double h;
    void *a, *b, *w, *v, *c, *na, *nb;
    unsigned flags;
} ctx;

static void run_fused(void *p, int set)
{
    ctx *c = (ctx *)p;
    (void)set;
    ksum_args k;
    memset(&k, 0, sizeof k);
    k.a = c->a; k.b = c->b; k.w = c->w; k.v = c->v; k.m = c->m; k.n = c->n; k.dim = c->dim; k.h = c->h;
    k.flags = c->flags;
    int rc = c->sd == 1 ? bench_gauss_sd3_launch(&k, 0)
             : c->sd == 2 ? bench_gauss_sd3_p1_launch(&k, 0)
             : c->sd == 3 ? bench_gauss_sd3_b3_launch(&k, 0)
             : c->dbl ? bench_gauss_f64_launch(&k, 0)
             : c->v1 == 1 ? bench_gauss_f32_v1_launch(&k, 0)
             : c->v1 == 2 ? bench_gauss_f32_nofac_launch(&k, 0)
             : c->tc == 1 ? bench_gauss_tf32_launch(&k, 0)
             : c->tc == 2 ? bench_gauss_tf32_v1_launch(&k, 0)
             : c->tc == 3 ? bench_gauss_3xtf32_launch(&k, 0)
             : c->tc == 4 ? bench_gauss_tf32_w3_launch(&k, 0)
             : c->tc == 5 ? bench_gauss_tf32_r2_launch(&k, 0)
             : c->tc == 6 ? bench_gauss_3xtf32_r2_launch(&k, 0)
             : c->tc == 7 ? bench_gauss_tf32_mma_launch(&k, 0)
             : c->tc == 8 ? bench_gauss_3xtf32_mma_launch(&k, 0) : bench_gauss_f32_launch(&k, 0);
    if (rc) { fprintf(stderr, "ksum launch: %s\n", ksum_strerror(rc)); exit(2); }
}

static void run_unfused(void *p, int set)
{
    ctx *c = (ctx *)p;
    (void)set;
    const long long m = c->m;
    const int n = c->n, dim = c->dim;
    const double g = 1.0 / (2 * c->h * c->h);
    if (c->dbl) {
        bench_norms_double<<<(unsigned)((m + 255) / 256), 256>>>((const double *)c->a, m, dim, (double *)c->na);
        bench_norms_double<<<(n + 255) / 256, 256>>>((const double *)c->b, n, dim, (double *)c->nb);
    } else {
        bench_norms_float<<<(unsigned)((m + 255) / 256), 256>>>((const float *)c->a, m, dim, (float *)c->na);
        bench_norms_float<<<(n + 255) / 256, 256>>>((const float *)c->b, n, dim, (float *)c->nb);
    }
    if (c->own) {
        const int bn = c->dbl ? 64 : 128;
        dim3 grid((unsigned)((n + bn - 1) / bn), (unsigned)((m + 127) / 128));
        const int vec = dim % 4 == 0;
        if (c->dbl) bench_gemm_double<<<grid, KSUM_THREADS>>>((const double *)c->a, (const double *)c->b, (double *)c->c, (int)m, n, dim, vec);
        else bench_gemm_float<<<grid, KSUM_THREADS>>>((const float *)c->a, (const float *)c->b, (float *)c->c, (int)m, n, dim, vec);
    } else if (c->dbl) {
        const double one = 1, zero = 0;
        CUBLAS_DIE(cublasDgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, n, (int)m, dim, &one, (const double *)c->b, dim,
                               (const double *)c->a, dim, &zero, (double *)c->c, n));
    } else {
        const float one = 1, zero = 0;
        CUBLAS_DIE(cublasSgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, n, (int)m, dim, &one, (const float *)c->b, dim,
                               (const float *)c->a, dim, &zero, (float *)c->c, n));
    }
    if (c->dbl) bench_exp_double<<<132 * 16, 256>>>((double *)c->c, (const double *)c->na, (const double *)c->nb, m, n, g);
    else bench_exp_float<<<132 * 16, 256>>>((float *)c->c, (const float *)c->na, (const float *)c->nb, m, n, (float)g);
    if (c->dbl) {
        const double one = 1, zero = 0;
        CUBLAS_DIE(cublasDgemv(blas, CUBLAS_OP_T, n, (int)m, &one, (const double *)c->c, n, (const double *)c->w, 1,
                               &zero, (double *)c->v, 1));
    } else {
        const float one = 1, zero = 0;
        CUBLAS_DIE(cublasSgemv(blas, CUBLAS_OP_T, n, (int)m, &one, (const float *)c->c, n, (const float *)c->w, 1,
                               &zero, (float *)c->v, 1));
    }
}

static void sgemm_only(void *p, int set)
{
    ctx *c = (ctx *)p;
    (void)set;
    const float one = 1, zero = 0;
    CUBLAS_DIE(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, c->m, c->m, c->m, &one, (const float *)c->a, c->m,
                           (const float *)c->b, c->m, &zero, (float *)c->c, c->m));
}

/* median ms of reps calls of f after 3 warm-ups (f ignores the set argument: one input set) */
static double time_it(gpucheck_run_fn f, ctx *c) { return gpucheck_time_ms(f, c, 3, reps); }

#define vdiff gpucheck_devdiff

/* tensor rows (c->tc): the floor is the larger of the MMAs over the measured wgmma rate (dim rounded up
 * to 32, x3 for the split) and the exps over the MUFU rate */
static void report(const ctx *c, const char *impl, double ms, double base_ms, double diff)
{
    const double pairs = (double)c->m * c->n;
    const int passes = c->tc == 3 || c->tc == 6 || c->tc == 8 ? 3 : 1;
    const double ffma = c->tc && wg_rate > 0 ? pairs * ((c->dim + 31) / 32 * 32) * passes / wg_rate * 1e3
                                             : pairs * (c->dim + 5) / (c->dbl ? FMA64 : FMA32) * 1e3;
    const double fexp = c->dbl ? 0 : pairs / EXPRATE * 1e3;
    const double fl = ffma > fexp ? ffma : fexp;
    printf("%-4s %7d %6d %4d  %-10s %9.4f ms %8.1f Gpairs/s  floor %7.4f ms (%s) %5.1f%%", c->dbl ? "fp64" : "fp32",
           c->m, c->n, c->dim, impl, ms, pairs / ms / 1e6, fl, ffma > fexp ? (c->tc && wg_rate > 0 ? "mma" : "fma") : "exp",
           100 * fl / ms);
    if (base_ms > 0) printf("  %6.2fx cublas", base_ms / ms);
    if (!(diff < 0)) printf("  |v - cublas|/|cublas| %.1e", diff); /* NaN printed too */
    printf("\n");
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"impl\": \"%s\", \"m\": %d, \"n\": %d, \"dim\": %d, \"ms\": %.5f, "
                      "\"gpairs_s\": %.3f, \"floor_%s_ms\": %.5f, \"floor_exp_ms\": %.5f, \"speedup_vs_cublas\": %.3f, "
                      "\"diff_vs_cublas\": %.3g}",
                json_rows++ ? ",\n" : "", c->dbl ? "fp64" : "fp32", impl, c->m, c->n, c->dim, ms, pairs / ms / 1e6,
                c->tc && wg_rate > 0 ? "mma" : "fma", ffma, fexp, base_ms > 0 ? base_ms / ms : 0, diff);
}

static void run_shape(int m, int n, int dim, int dbl, int only_fused)
{
    if (only_dim && dim != only_dim) return;
    ctx c;
    memset(&c, 0, sizeof c);
    c.m = m; c.n = n; c.dim = dim; c.dbl = dbl;
    c.h = 0.5 * sqrt((double)dim); /* data uniform in [-1, 1)^dim: a bandwidth of about half the spacing */
    const size_t es = dbl ? 8 : 4;
    CUDA_DIE(cudaMalloc(&c.a, (size_t)m * dim * es));
    CUDA_DIE(cudaMalloc(&c.b, (size_t)n * dim * es));
    CUDA_DIE(cudaMalloc(&c.w, (size_t)n * es));
    CUDA_DIE(cudaMalloc(&c.v, (size_t)m * es));
    CUDA_DIE(cudaMalloc(&c.na, (size_t)m * es));
    CUDA_DIE(cudaMalloc(&c.nb, (size_t)n * es));
    void *vref = NULL;
    CUDA_DIE(cudaMalloc(&vref, (size_t)m * es));
    size_t big = (size_t)(m > n ? m : n) * (dim > 1 ? dim : 1);
    void *h = malloc(big * es);
#define FILL(d, cnt)                                                                                   \
    do {                                                                                               \
        for (size_t i_ = 0; i_ < (size_t)(cnt); i_++) {                                                \
            double u_ = gpucheck_uniform();                                                            \
            if (dbl) ((double *)h)[i_] = u_; else ((float *)h)[i_] = (float)u_;                         \
        }                                                                                              \
        CUDA_DIE(cudaMemcpy(d, h, (size_t)(cnt)*es, cudaMemcpyHostToDevice));                          \
    } while (0)
    FILL(c.a, (size_t)m * dim);
    FILL(c.b, (size_t)n * dim);
    FILL(c.w, n);
    double base = -1;
    if (!only_fused) {
        CUDA_DIE(cudaMalloc(&c.c, (size_t)m * n * es));
        base = time_it(run_unfused, &c);
        CUDA_DIE(cudaMemcpy(vref, c.v, (size_t)m * es, cudaMemcpyDeviceToDevice));
        report(&c, "cublas", base, -1, -1);
        if (!tc_only) {
            c.own = 1;
            double t = time_it(run_unfused, &c);
            report(&c, "own", t, base, vdiff(c.v, vref, m, dbl));
            c.own = 0;
        }
        cudaFree(c.c);
    }
    double t = time_it(run_fused, &c);
    report(&c, "fused", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
    if (!tc_only) {
        c.flags = KSUM_DETERMINISTIC;
        t = time_it(run_fused, &c);
        report(&c, "fused-det", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        c.flags = 0;
    }
    if (!dbl && !tc_only) { /* the generic kernel (KSUM_REGS_DEFINE 8 x 8), for comparison */
        c.v1 = 1;
        t = time_it(run_fused, &c);
        report(&c, "fused-v1", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        if (dim <= 128) { /* resident targets: with and without the factorised epilogue */
            c.v1 = 2;
            t = time_it(run_fused, &c);
            report(&c, "fused-nofac", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        }
        c.v1 = 0;
    }
    if (!dbl && dim <= 3) { /* the small-dim variant */
        c.sd = 1;
        t = time_it(run_fused, &c);
        report(&c, "small", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        c.sd = 2;
        t = time_it(run_fused, &c);
        report(&c, "small-p1", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        c.sd = 3;
        t = time_it(run_fused, &c);
        report(&c, "small-b3", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        c.sd = 1;
        c.flags = KSUM_DETERMINISTIC;
        t = time_it(run_fused, &c);
        report(&c, "small-det", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        c.flags = 0;
        c.sd = 0;
    }
    if (!dbl && dim >= 16) { /* the tensor-core path: TF32, and the 3-pass split */
        ksum_args q;
        memset(&q, 0, sizeof q);
        q.a = c.a; q.b = c.b; q.w = c.w; q.v = c.v; q.m = m; q.n = n; q.dim = dim; q.h = c.h;
        ksum_plan p1, p3;
        const int wg1 = bench_gauss_tf32_plan(&q, &p1) == 0 && p1.path == KSUM_PATH_WGMMA;
        const int wg3 = bench_gauss_3xtf32_plan(&q, &p3) == 0 && p3.path == KSUM_PATH_WGMMA;
        c.tc = 1;
        t = time_it(run_fused, &c);
        report(&c, wg1 ? "tf32-wg" : "tf32", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        c.tc = 3;
        t = time_it(run_fused, &c);
        report(&c, wg3 ? "3xtf32-wg" : "3xtf32", t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        static const char *const tcname[] = {"", "tf32", "tf32-v1", "3xtf32", "tf32-w3", "tf32-r2", "3xtf32-r2", "tf32-mma", "3xtf32-mma"};
        for (int v = tc_only ? 7 : 2; v <= 8; v++) { /* mma.sync kernels and variants beside it */
            if (v == 3 || (v == 7 && !wg1) || (v == 8 && !wg3)) continue; /* 7, 8: only where they differ */
            c.tc = v;
            t = time_it(run_fused, &c);
            report(&c, tcname[v], t, base, only_fused ? -1 : vdiff(c.v, vref, m, dbl));
        }
        c.tc = 0;
    }
    cudaFree(c.a); cudaFree(c.b); cudaFree(c.w); cudaFree(c.v); cudaFree(c.na); cudaFree(c.nb); cudaFree(vref);
    free(h);
}

int main(int argc, char **argv)
{
    const char *jpath = NULL;
    int light = 0, only_fused = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--light")) light = 1;
        else if (!strcmp(argv[i], "--only-fused")) only_fused = 1;
        else if (!strcmp(argv[i], "--dim") && i + 1 < argc) only_dim = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tc")) tc_only = 1;
        else { fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--light] [--only-fused] [--dim D] [--tc]\n", argv[0]); return 2; }
    }
    if (reps < 1) { fprintf(stderr, "bad --reps\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    printf("ksum bench on %s, Gaussian kernel, 1 rhs, median of %d\n", pr.name, reps);
    if (jpath) {
        json = gpucheck_json_open(jpath, "ksum", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }
    CUBLAS_DIE(cublasCreate(&blas));
    CUBLAS_DIE(cublasSetMathMode(blas, CUBLAS_PEDANTIC_MATH)); /* FP32 GEMM: no TF32 */
    { /* the FP32 rate this GPU reaches in a plain cuBLAS SGEMM (8192^3), for the FMA floors */
        const int q = light ? 2048 : 8192;
        float *x = NULL, *y = NULL, *z = NULL;
        CUDA_DIE(cudaMalloc(&x, (size_t)q * q * 4));
        CUDA_DIE(cudaMalloc(&y, (size_t)q * q * 4));
        CUDA_DIE(cudaMalloc(&z, (size_t)q * q * 4));
        CUDA_DIE(cudaMemset(x, 0, (size_t)q * q * 4));
        CUDA_DIE(cudaMemset(y, 0, (size_t)q * q * 4));
        ctx cs;
        memset(&cs, 0, sizeof cs);
        cs.m = q; cs.a = x; cs.b = y; cs.c = z;
        const double ms = time_it(sgemm_only, &cs);
        printf("cuBLAS SGEMM %d^3 (FP32, pedantic): %.3f ms = %.1f T FMA/s (%.0f%% of the %.1f T FMA/s floor rate)\n", q, ms,
               (double)q * q * q / ms / 1e9, 100 * (double)q * q * q / ms / 1e9 / (FMA32 / 1e12), FMA32 / 1e12);
        if (json)
            fprintf(json, "%s  {\"type\": \"fp32\", \"impl\": \"cublas-sgemm-square\", \"m\": %d, \"n\": %d, \"dim\": %d, \"ms\": %.5f, "
                          "\"tfma_s\": %.3f}", json_rows++ ? ",\n" : "", q, q, q, ms, (double)q * q * q / ms / 1e9);
        cudaFree(x); cudaFree(y); cudaFree(z);
    }
    { /* the wgmma TF32 rate (sm_90a builds on sm_90): the tensor rows' floor */
        float *o = NULL;
        CUDA_DIE(cudaMalloc(&o, 4));
        int sms = 132;
        CUDA_DIE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        float *pts = NULL; /* the plan's arguments: 1024 targets and sources of dim 64, weights, sums */
        CUDA_DIE(cudaMalloc(&pts, (size_t)(2 * 1024 * 64 + 2 * 1024) * 4));
        ksum_args q;
        memset(&q, 0, sizeof q);
        q.a = pts; q.b = pts + 1024 * 64; q.w = pts + 2 * 1024 * 64; q.v = pts + 2 * 1024 * 64 + 1024;
        q.m = q.n = 1024; q.dim = 64; q.h = 1;
        ksum_plan pl;
        if (bench_gauss_tf32_plan(&q, &pl) == 0 && pl.path == KSUM_PATH_WGMMA) {
            const double ms = gpucheck_time_ms(run_wg_rate, o, 2, 5);
            wg_rate = (double)sms * 2 * 2000 * 8 * 65536 / ms * 1e3;
            printf("wgmma.m64n128k8 TF32 rate: %.1f T FMA/s (%.1fx the 33.5 T FP32 FMA floor rate)\n", wg_rate / 1e12,
                   wg_rate / FMA32);
            if (json)
                fprintf(json, "%s  {\"type\": \"fp32\", \"impl\": \"wgmma-tf32-rate\", \"tfma_s\": %.3f}", json_rows++ ? ",\n" : "",
                        wg_rate / 1e12);
        } else printf("wgmma: not built for this device (tensor floors not printed)\n");
        cudaFree(o);
        cudaFree(pts);
    }
    gpucheck_seed(4242);
    if (tc_only) { /* the tensor-core goal's shapes: cublas-unfused, fused and the TF32 kernels only */
        static const int ks[] = {32, 64, 128, 256};
        for (int ki = 0; ki < 4; ki++) run_shape(524288, 1024, ks[ki], 0, only_fused);
        run_shape(65536, 65536, 64, 0, only_fused);
    } else if (light) {
        run_shape(4096, 1024, 32, 0, only_fused);
        run_shape(8192, 8192, 3, 0, only_fused);
    } else {
        static const int ms[] = {1024, 16384, 131072, 524288}, ks[] = {32, 64, 128, 256};
        for (int ki = 0; ki < 4; ki++)
            for (int mi = 0; mi < 4; mi++) run_shape(ms[mi], 1024, ks[ki], 0, only_fused);
        static const int sq[] = {3, 16, 64};
        for (int i = 0; i < 3; i++) run_shape(65536, 65536, sq[i], 0, only_fused);
        run_shape(131072, 1024, 32, 1, only_fused);
        run_shape(16384, 16384, 3, 1, only_fused);
    }
    cublasDestroy(blas);
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    return 0;
}
