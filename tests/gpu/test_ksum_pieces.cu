/* tests/gpu/test_ksum_pieces.cu -- ksum's pieces (gemm.cuh, epilogue.cuh) in kernels written here,
 * not by KSUM_DEFINE: the shape of examples/ksum_custom.cu, in float and double.
 *
 *   sum:  v_i = sum_j K(a_i, b_j) w_j with a kernel function of the test's own, the rational quadratic
 *         K = (1 + d^2 / (2 alpha h^2))^-alpha, alpha a run-time kernel parameter that the EVAL macro
 *         names (KSUM_GEMM_LOAD/STORE/CHUNK, KSUM_GEMM_PER_POINT, KSUM_EPI_START, KSUM_EPI_TILE,
 *         KSUM_EPI_ROWSUM16, KSUM_EPI_STORE with atomics over source splits);
 *   mean: the Nadaraya-Watson mean out_i = sum_j K y_j / sum_j K (Gaussian), both sums in one pass
 *         (KSUM_EPI_PAIRS with a combine step of the test's own, KSUM_EPI_ROWS forming the ratio).
 * Ragged m, n, dim (not multiples of the tiles, dim 1 ... 129), fresh random data (--seed N),
 * outputs NaN-poisoned, references in double on the data as the GPU sees it.  Every output against a
 * bound of its own from the arithmetic (u the unit roundoff of T, t = s d^2 in the kernel's units,
 * S = s (|a|^2 + |b|^2 + 2 sum_c |a_c b_c|)):
 *   a pair's t      dt = (2 dim + 8) u S + (u + (dim + 4) 2^-53) t   (norms, the -2s staging, the FMA
 *                   chain; s rounded to T; the reference's own d2), carried by the steepest slope of K
 *                   within dt of t, plus twice K's own evaluation error (ex2.approx 2^-22; __log2f
 *                   2^-22 (1 + L), L = log2(1 + t); double 1 ulp each), the reference's pow/exp2 and
 *                   the flush to 0;
 *   sum:            the pairs' errors weighted by |w_j|, and (n/16 + n/64 + 16) u sum_j |K w_j| for the
 *                   row's sum (one thread's chain, the 16-lane sum, an atomic per source tile);
 *   mean N / D:     (dN + |N / D| dD) / (D - dD) with dN, dD the two sums' bounds, and the division.
 * Shown able to fail: the same mean with a wrong denominator (padded sources counted) and the sum
 * against the reference of another alpha are both rejected by the same bounds.  The wgmma pieces
 * case is skipped (counted) off an sm_90 device or without an sm_90a build.
 * Also: every ksum generator is defined here once and never called, so this file compiling under the
 * Makefile's -Werror is the check that unused generated launchers give no warning. */
#include <ksum/ksum.cuh>
#include <ksum/smalldim.cuh>
#include <ksum/tc.cuh>
#include <ksum/wgmma.cuh>

#include "gpucheck.h"

/* defined, never called: no "declared but never referenced" warning may come from a generator */
KSUM_DEFINE(unused_f32, float, KSUM_GAUSS, ksum_policy<>)
KSUM_DEFINE(unused_f64, double, KSUM_CAUCHY, ksum_policy<>)
KSUM_DEFINE(unused_tc, ksum_tf32, KSUM_GAUSS, ksum_policy<>)
KSUM_REGS_DEFINE(unused_tc_v1, ksum_tf32, KSUM_GAUSS, ksum_regs_policy<>)
KSUM_SMALLDIM_DEFINE(unused_sd, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1>)

/* the user's kernel function, on t = s d^2 with s = 1 / (2 alpha h^2): K = (1 + t)^-alpha */
static __device__ __forceinline__ float rq_eval_float(float t, float alpha)
{
    return ksum_exp2neg_float(alpha * __log2f(1.0f + t));
}
static __device__ __forceinline__ double rq_eval_double(double t, double alpha) { return exp(-alpha * log1p(t)); }
#define RQ_EVAL(T, t) rq_eval_##T(t, alpha) /* alpha: a parameter of the kernels below */

#define PIECES_NORMS(T)                                                                                \
    __global__ void sqnorms_##T(const T *__restrict__ x, int np, int dim, T s, T *__restrict__ out)    \
    {                                                                                                  \
        const int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
        if (i >= np) return;                                                                           \
        T q = 0;                                                                                       \
        for (int k = 0; k < dim; k++) q = fma(x[(long long)i * dim + k], x[(long long)i * dim + k], q); \
        out[i] = s * q;                                                                                \
    }
PIECES_NORMS(float)
PIECES_NORMS(double)

/* the double-buffered main loop shared by both kernels (one barrier per 8-coordinate chunk); the
 * statements ... run after a source tile's last chunk, with col0 its first source */
#define PIECES_LOOP(T, TM, TN, t0, t1, ...)                                                            \
    enum { BM = 16 * (TM), BN = 16 * (TN) };                                                           \
    __shared__ __align__(16) T sa[KSUM_GEMM_SMEM_ELEMS(BM)];                                           \
    __shared__ __align__(16) T sb[KSUM_GEMM_SMEM_ELEMS(BN)];                                           \
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;                                         \
    const long long row0 = (long long)blockIdx.x * BM;                                                 \
    const int nchunks = (dim + KSUM_BK - 1) / KSUM_BK, nsteps = ((t1) - (t0)) * nchunks;               \
    const T m2s = (T)-2 * s;                                                                           \
    T acc[TM][TN], ra[(TM) / 2], rb[(TN) / 2];                                                         \
    KSUM_GEMM_LOAD(T, (TM) / 2, ra, a, dim, m, dim, row0, 0, tid, vec_a);                              \
    KSUM_GEMM_LOAD(T, (TN) / 2, rb, b, dim, n, dim, (long long)(t0)*BN, 0, tid, vec_b);                \
    KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, 0, tid, m2s);                                             \
    if (nchunks == 1) KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, 1, tid, m2s);                           \
    KSUM_GEMM_STORE(T, (TN) / 2, rb, sb, BN, 0, tid, (T)1);                                            \
    __syncthreads();                                                                                   \
    int tile = (t0), c = 0;                                                                            \
    for (int st = 0; st < nsteps; st++) {                                                              \
        const long long col0 = (long long)tile * BN;                                                   \
        const int nc = c + 1 == nchunks ? 0 : c + 1, ntile = nc == 0 ? tile + 1 : tile;                \
        if (st + 1 < nsteps) {                                                                         \
            if (nchunks > 1) KSUM_GEMM_LOAD(T, (TM) / 2, ra, a, dim, m, dim, row0, nc * KSUM_BK, tid, vec_a); \
            KSUM_GEMM_LOAD(T, (TN) / 2, rb, b, dim, n, dim, (long long)ntile * BN, nc * KSUM_BK, tid, vec_b); \
        }                                                                                              \
        if (c == 0) {                                                                                  \
            T na[TM], nb[TN];                                                                          \
            KSUM_GEMM_PER_POINT(T, TM, na, na_g, 1, row0, m, ty);                                      \
            KSUM_GEMM_PER_POINT(T, TN, nb, nb_g, 1, col0, n, tx);                                      \
            KSUM_EPI_START(TM, TN, acc, na, nb);                                                       \
        }                                                                                              \
        KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, st & 1, min(KSUM_BK, dim - c * KSUM_BK), tx, ty); \
        if (c == nchunks - 1) { __VA_ARGS__ }                                                          \
        if (st + 1 < nsteps) {                                                                         \
            if (nchunks > 1) KSUM_GEMM_STORE(T, (TM) / 2, ra, sa, BM, (st + 1) & 1, tid, m2s);         \
            KSUM_GEMM_STORE(T, (TN) / 2, rb, sb, BN, (st + 1) & 1, tid, (T)1);                         \
        }                                                                                              \
        __syncthreads();                                                                               \
        tile = ntile;                                                                                  \
        c = nc;                                                                                        \
    }

/* the rational-quadratic sum over this block's source tiles into v: stored (atomic 0: one split) or
 * atomically added (v zeroed first) */
#define PIECES_SUM_DEFINE(name, T, TM, TN, MINB)                                                       \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB)                                              \
        name(const T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ w, T *__restrict__ v, \
             int m, int n, int dim, const T *__restrict__ na_g, const T *__restrict__ nb_g, T s, T alpha, \
             int per, int vec_a, int vec_b, int atomic)                                                \
    {                                                                                                  \
        const int ntiles_ = (n + 16 * (TN) - 1) / (16 * (TN)), t0_ = blockIdx.y * per;                 \
        const int t1_ = min(ntiles_, t0_ + per);                                                       \
        if (t0_ >= t1_) return;                                                                        \
        T vacc[TM][1];                                                                                 \
        _Pragma("unroll") for (int i = 0; i < (TM); i++) vacc[i][0] = 0;                               \
        PIECES_LOOP(T, TM, TN, t0_, t1_, {                                                             \
            T wj[TN];                                                                                  \
            T wv[TN][1];                                                                               \
            KSUM_GEMM_PER_POINT(T, TN, wj, w, 1, col0, n, tx);                                         \
            _Pragma("unroll") for (int j = 0; j < (TN); j++) wv[j][0] = wj[j];                         \
            KSUM_EPI_TILE(T, TM, TN, 1, RQ, acc, wv, vacc);                                            \
        })                                                                                             \
        KSUM_EPI_ROWSUM16(T, TM, 1, vacc);                                                             \
        KSUM_EPI_STORE(T, TM, 1, vacc, v, row0, m, 1, tx, ty, atomic, 0);                              \
    }

/* out = sum K y / sum K over all sources (one block per row tile); LIVE(col): the denominator's
 * weight of source col -- (col) < n is right, 1 counts the zero-padded sources (wrong, on purpose) */
#define NW_PAIR(i, j, k)                                                                               \
    do {                                                                                               \
        vacc[i][0] = fma(k, yj[j], vacc[i][0]);                                                        \
        vacc[i][1] = fma(k, live[j], vacc[i][1]);                                                      \
    } while (0)
#define NW_OUT(row, sums) (out[row] = (sums)[0] / (sums)[1])
#define NW_LIVE_RIGHT(col) ((col) < n)
#define NW_LIVE_WRONG(col) 1
#define PIECES_NW_DEFINE(name, T, TM, TN, MINB, LIVE)                                                  \
    __global__ void __launch_bounds__(KSUM_THREADS, MINB)                                              \
        name(const T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ y, T *__restrict__ out, \
             int m, int n, int dim, const T *__restrict__ na_g, const T *__restrict__ nb_g, T s, int vec_a, \
             int vec_b)                                                                                \
    {                                                                                                  \
        T vacc[TM][2];                                                                                 \
        _Pragma("unroll") for (int i = 0; i < (TM); i++) vacc[i][0] = vacc[i][1] = 0;                  \
        PIECES_LOOP(T, TM, TN, 0, (n + 16 * (TN) - 1) / (16 * (TN)), {                                 \
            T yj[TN];                                                                                  \
            T live[TN];                                                                                \
            KSUM_GEMM_PER_POINT(T, TN, yj, y, 1, col0, n, tx);                                         \
            _Pragma("unroll") for (int j = 0; j < (TN); j++) live[j] = LIVE(col0 + KSUM_GEMM_ROW(j, tx)) ? (T)1 : (T)0; \
            KSUM_EPI_PAIRS(T, TM, TN, KSUM_GAUSS, acc, NW_PAIR);                                       \
        })                                                                                             \
        KSUM_EPI_ROWSUM16(T, TM, 2, vacc);                                                             \
        KSUM_EPI_ROWS(TM, vacc, row0, m, tx, ty, NW_OUT);                                              \
    }

PIECES_SUM_DEFINE(sum_f32, float, 8, 8, 2)
PIECES_SUM_DEFINE(sum_f64, double, 4, 4, 1)
PIECES_NW_DEFINE(nw_f32, float, 8, 4, 2, NW_LIVE_RIGHT)
PIECES_NW_DEFINE(nw_f64, double, 4, 4, 1, NW_LIVE_RIGHT)
PIECES_NW_DEFINE(nw_f32_wrongden, float, 8, 4, 2, NW_LIVE_WRONG)

enum { SUM_F32, SUM_F64, NW_F32, NW_F64, NW_F32_WRONG };
static const int tile_n[] = {128, 64, 64, 64, 64}; /* sources per block tile (BN) */
static const int tile_m[] = {128, 64, 128, 64, 128};

typedef struct shape {
    int m, n, dim;
    double hf; /* h = hf sqrt(dim) */
} shape;

/* one run: fresh data, poison, launch the pieces kernel, compare each output with its bound (see the
 * top); returns the worst error/bound with *nbad the outputs beyond it, or -1 after a failed CHECK.
 * alpha_ref != alpha only for the negative check. */
static double run_one(int which, const shape *sh, double alpha, double alpha_ref, int split_all, long long *nonfinite,
                      long long *nbad)
{
    const int m = sh->m, n = sh->n, dim = sh->dim, dbl = which == SUM_F64 || which == NW_F64;
    const int nw = which >= NW_F32;
    const size_t es = dbl ? 8 : 4;
    const double h = sh->hf * sqrt((double)dim);
    const double s = nw ? KSUM_GAUSS_SCALE(h) : 1.0 / (2.0 * alpha * h * h);
    double *ha = (double *)malloc((size_t)m * dim * 8), *hb = (double *)malloc((size_t)n * dim * 8);
    double *hw = (double *)malloc((size_t)n * 8);
    void *buf = malloc((size_t)(m > n ? m : n) * (dim > 1 ? dim : 1) * es);
    if (!ha || !hb || !hw || !buf) { fprintf(stderr, "out of memory\n"); exit(1); }
    for (size_t i = 0; i < (size_t)m * dim; i++) ha[i] = gpucheck_uniform();
    for (size_t i = 0; i < (size_t)n * dim; i++) hb[i] = gpucheck_uniform();
    /* y in [-0.5, 1.5) (mixed signs, mean 0.5: a wrong denominator scales it visibly), or w in (0, 1] */
    for (int j = 0; j < n; j++) hw[j] = nw ? 0.5 + gpucheck_uniform() : 0.5 * (1.0 - gpucheck_uniform());
    if (!dbl) { /* the reference sees what the GPU sees */
        for (size_t i = 0; i < (size_t)m * dim; i++) ha[i] = (float)ha[i];
        for (size_t i = 0; i < (size_t)n * dim; i++) hb[i] = (float)hb[i];
        for (int j = 0; j < n; j++) hw[j] = (float)hw[j];
    }
    void *da = NULL, *db = NULL, *dw = NULL, *dout = NULL, *dnorms = NULL;
    CUDA_OK(cudaMalloc(&da, (size_t)m * dim * es));
    CUDA_OK(cudaMalloc(&db, (size_t)n * dim * es));
    CUDA_OK(cudaMalloc(&dw, (size_t)n * es));
    CUDA_OK(cudaMalloc(&dout, (size_t)m * es));
    CUDA_OK(cudaMalloc(&dnorms, ((size_t)m + n) * es));
#define UPLOAD(d, x, cnt)                                                                              \
    do {                                                                                               \
        for (size_t i_ = 0; i_ < (size_t)(cnt); i_++)                                                  \
            if (dbl) ((double *)buf)[i_] = (x)[i_]; else ((float *)buf)[i_] = (float)(x)[i_];          \
        CUDA_OK(cudaMemcpy(d, buf, (size_t)(cnt)*es, cudaMemcpyHostToDevice));                         \
    } while (0)
    UPLOAD(da, ha, (size_t)m * dim);
    UPLOAD(db, hb, (size_t)n * dim);
    UPLOAD(dw, hw, (size_t)n);
    CUDA_OK(cudaMemset(dout, 0xFF, (size_t)m * es)); /* NaN poison */
    if (!check__failed_case) {
        const int bm = tile_m[which], bn = tile_n[which], vec = dim % 4 == 0; /* cudaMalloc: aligned */
        const unsigned rowtiles = (unsigned)((m + bm - 1) / bm);
        const int ntiles = (n + bn - 1) / bn, per = split_all ? 1 : ntiles; /* one tile per split, or one split */
        if (dbl) {
            double *nrm = (double *)dnorms;
            sqnorms_double<<<(m + 255) / 256, 256>>>((const double *)da, m, dim, s, nrm);
            sqnorms_double<<<(n + 255) / 256, 256>>>((const double *)db, n, dim, s, nrm + m);
        } else {
            float *nrm = (float *)dnorms;
            sqnorms_float<<<(m + 255) / 256, 256>>>((const float *)da, m, dim, (float)s, nrm);
            sqnorms_float<<<(n + 255) / 256, 256>>>((const float *)db, n, dim, (float)s, nrm + m);
        }
        CUDA_OK(cudaGetLastError());
        if (!nw && per < ntiles) { /* atomics over splits: v zeroed (a row never added to shows as 0; w > 0) */
            CUDA_OK(cudaMemset(dout, 0, (size_t)m * es));
        }
        const dim3 grid(rowtiles, nw ? 1u : (unsigned)((ntiles + per - 1) / per));
        switch (which) {
        case SUM_F32:
            sum_f32<<<grid, KSUM_THREADS>>>((const float *)da, (const float *)db, (const float *)dw, (float *)dout, m, n,
                                            dim, (const float *)dnorms, (const float *)dnorms + m, (float)s, (float)alpha,
                                            per, vec, vec, per < ntiles);
            break;
        case SUM_F64:
            sum_f64<<<grid, KSUM_THREADS>>>((const double *)da, (const double *)db, (const double *)dw, (double *)dout, m,
                                            n, dim, (const double *)dnorms, (const double *)dnorms + m, s, alpha, per,
                                            vec, vec, per < ntiles);
            break;
        case NW_F32:
        case NW_F32_WRONG:
            (which == NW_F32 ? nw_f32 : nw_f32_wrongden)<<<grid, KSUM_THREADS>>>(
                (const float *)da, (const float *)db, (const float *)dw, (float *)dout, m, n, dim, (const float *)dnorms,
                (const float *)dnorms + m, (float)s, vec, vec);
            break;
        default:
            nw_f64<<<grid, KSUM_THREADS>>>((const double *)da, (const double *)db, (const double *)dw, (double *)dout, m, n,
                                           dim, (const double *)dnorms, (const double *)dnorms + m, s, vec, vec);
        }
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(buf, dout, (size_t)m * es, cudaMemcpyDeviceToHost));
    }
    double worst = -1;
    *nbad = 0;
    if (!check__failed_case) {
        /* t in the kernel's units (the Gaussian's 2^-t: s = log2(e) / 2h^2), the reference's alpha */
        const double sr = nw ? KSUM_GAUSS_SCALE(h) : 1.0 / (2.0 * alpha_ref * h * h), ar = alpha_ref;
        const double uT = dbl ? 1.1102230246251565e-16 : 5.9604644775390625e-08, u53 = 1.1102230246251565e-16;
        const double flush = dbl ? 0 : 1.1754943508222875e-38; /* ftz: a value below 2^-126 read as 0 */
        worst = 0;
        *nonfinite = 0;
        for (int i = 0; i < m; i++) {
            double na = 0;
            for (int k = 0; k < dim; k++) na += ha[(size_t)i * dim + k] * ha[(size_t)i * dim + k];
            double sum = 0, sumabs = 0, den = 0, dk = 0, dky = 0;
            for (int j = 0; j < n; j++) {
                double d2 = 0, nb = 0, ab = 0;
                for (int k = 0; k < dim; k++) {
                    const double x = ha[(size_t)i * dim + k], y = hb[(size_t)j * dim + k];
                    d2 += (x - y) * (x - y);
                    nb += y * y;
                    ab += fabs(x * y);
                }
                const double t = sr * d2, kv = nw ? exp2(-t) : pow(1.0 + t, -ar);
                /* t's error: the norm trick in T ((2 dim + 8) uT of its magnitudes), s rounded to T, the
                 * reference's own d2 */
                const double dt = (2.0 * dim + 8) * uT * sr * (na + nb + 2 * ab) + (uT + (dim + 4) * u53) * t;
                const double tl = t - dt > 0 ? t - dt : 0; /* the steepest slope within dt of t */
                const double slope = nw ? 0.6931471805599453 * exp2(-tl) : ar * pow(1.0 + tl, -ar - 1);
                const double L = nw ? 0 : log2(1.0 + t);
                /* the kernel function: ex2.approx (2^-22) / exp2 (1 ulp); the rational quadratic also the
                 * log (2^-22 (1 + L) for __log2f, 1 ulp for log1p), 1 + t and the product by alpha; the
                 * reference's own pow or exp2: at most 4 uT (1 + 1.1 alpha (1 + L)) + 1.5 alpha uT, counted twice */
                const double rel = nw ? 8 * uT + 4 * u53 : 8 * uT + 10 * ar * uT * (1 + L) + (4 + 5 * ar * (1 + L)) * u53;
                const double e = slope * dt + rel * kv + flush;
                sum += kv * hw[j];
                sumabs += kv * fabs(hw[j]);
                den += kv;
                dk += e;
                dky += fabs(hw[j]) * e;
            }
            const double g = dbl ? ((double *)buf)[i] : ((float *)buf)[i];
            if (!isfinite(g)) { (*nonfinite)++; continue; }
            double ref, bound;
            if (nw) { /* the ratio N / D of the two sums: |d(N/D)| <= (dN + |N/D| dD) / (D - dD), and the division */
                const double cs = (n / 16.0 + 16) * uT + n * u53; /* a row's sums: n/16 + 4 terms a thread, 4 shuffles */
                const double en = dky + cs * sumabs, ed = dk + cs * den;
                ref = sum / den;
                bound = den - ed > 0 ? (en + fabs(ref) * ed) / (den - ed) + 2 * (uT + u53) * fabs(ref) : NAN;
            } else { /* n/16 + 8 terms a thread, 4 shuffles, an atomic per source tile; the reference's sum */
                ref = sum;
                bound = dky + ((n / 16.0 + n / 64.0 + 16) * uT + n * u53) * sumabs;
            }
            const double e = fabs(g - ref) / bound;
            if (!(e <= worst)) worst = e; /* a NaN (a bound of 0 or NaN) stays the worst */
            if (!(e <= 1)) (*nbad)++;
        }
    }
    cudaFree(da); cudaFree(db); cudaFree(dw); cudaFree(dout); cudaFree(dnorms);
    free(ha); free(hb); free(hw); free(buf);
    return worst;
}

static const shape shapes[] = {
    {1, 1, 1, 0.5},     {7, 129, 3, 0.3},   {129, 7, 8, 1.0},  {300, 257, 13, 0.5}, {2, 1000, 5, 0.4},
    {1000, 1000, 32, 0.5}, {257, 130, 67, 0.3}, {513, 65, 129, 0.7}, {130, 300, 9, 0.5}, {1001, 777, 16, 0.4},
};

static void run_kind(int which, const char *name, int light)
{
    const int nsh = light ? 5 : (int)(sizeof shapes / sizeof *shapes);
    case_begin(name);
    double worst = 0;
    for (int si = 0; si < nsh && !check__failed_case; si++) {
        long long nonfinite = 0, bad = 0;
        const double e = run_one(which, &shapes[si], 1.5, 1.5, si & 1, &nonfinite, &bad);
        if (check__failed_case) break;
        CHECK(nonfinite == 0, "%lld outputs not written or not finite (m %d n %d dim %d)", nonfinite, shapes[si].m,
              shapes[si].n, shapes[si].dim);
        CHECK(bad == 0, "%lld outputs beyond the bound, worst error/bound %.3g (m %d n %d dim %d)", bad, e, shapes[si].m,
              shapes[si].n, shapes[si].dim);
        if (!(e <= worst)) worst = e;
    }
    printf("    worst error/bound %.3g\n", worst);
    case_end();
}

/* the checks above can fail: a wrong denominator and a wrong kernel parameter are rejected */
static void run_negative(void)
{
    case_begin("ksum pieces: the bound rejects a wrong denominator (padded sources counted) and a wrong alpha");
    const shape sh = {300, 1000, 13, 0.5}; /* 1000 = 15 x 64 + 40: 24 padded sources in the last tile */
    long long nonfinite = 0, bad = 0;
    double e = run_one(NW_F32_WRONG, &sh, 1.5, 1.5, 0, &nonfinite, &bad);
    if (!check__failed_case) CHECK(bad > 0, "the wrong-denominator mean passed: worst error/bound %.3g", e);
    printf("    wrong denominator: %lld of %d outputs beyond the bound, worst error/bound %.3g\n", bad, sh.m, e);
    e = run_one(SUM_F32, &sh, 3.0, 1.5, 1, &nonfinite, &bad); /* alpha 3 on the GPU, 1.5 in the reference */
    if (!check__failed_case)
        CHECK(bad > 0, "the sum with alpha 3 passed against the reference with alpha 1.5: worst error/bound %.3g", e);
    printf("    wrong alpha: %lld of %d outputs beyond the bound, worst error/bound %.3g\n", bad, sh.m, e);
    case_end();
}

/* ksum/wgmma.cuh's pieces in a kernel of one's own: D = A B^T for A 64 x 32 (one warpgroup's rows) and
 * B 128 x 32, both staged K-major in the 128-byte swizzle (ksum_wg_swz), A by plain stores and the
 * proxy fence, B by one bulk copy on an mbarrier from an array laid out swizzled on the host; 4 k-steps
 * of ksum_wg_mma_tf32; each thread writes its d[64] to where the documented layout says they belong.
 * The values are small integers times 1/8: TF32-exact, so D must equal the reference bit for bit. */
__global__ void wg_pieces_kernel(const float *a, const float *bsw, float *dout)
{
#if KSUM_WG_ON /* (the body, and so its static shared memory, only in an sm_90a build) */
    __shared__ __align__(1024) float sa[64 * 32];
    __shared__ __align__(1024) float sb[128 * 32];
    __shared__ __align__(8) unsigned long long mbar;
    const int tid = threadIdx.x;
    {
        if (tid == 0) ksum_mbar_init(ksum_smem_u32(&mbar), 1);
        ksum_mbar_init_fence();
        for (int i = tid; i < 64 * 32; i += 128)
            sa[ksum_wg_swz(i / 32, i % 32) / 4] = a[i];
        ksum__fence_async();
        __syncthreads();
        if (tid == 0) {
            ksum_mbar_expect(ksum_smem_u32(&mbar), 128 * 32 * 4);
            ksum_bulk_copy(ksum_smem_u32(sb), bsw, 128 * 32 * 4, ksum_smem_u32(&mbar));
        }
        ksum_mbar_wait(ksum_smem_u32(&mbar), 0);
        float d[64];
        for (int i = 0; i < 64; i++) d[i] = -1.0f;
        ksum_wg_fence();
        for (int kk = 0; kk < 4; kk++)
            ksum_wg_mma_tf32(d, ksum_wg_desc(ksum_smem_u32(sa) + 32 * kk), ksum_wg_desc(ksum_smem_u32(sb) + 32 * kk), kk > 0);
        ksum_wg_commit();
        KSUM_WG_WAIT(0);
        const int w = tid >> 5, t = tid & 31;
        for (int c = 0; c < 16; c++)
            for (int h = 0; h < 2; h++)
                for (int e = 0; e < 2; e++) dout[(16 * w + t / 4 + 8 * h) * 128 + 8 * c + 2 * (t % 4) + e] = d[4 * c + 2 * h + e];
    }
#else
    (void)a; (void)bsw; (void)dout;
#endif
}
static void run_wg_pieces(void)
{
    case_begin("ksum wgmma pieces: swizzle, descriptor, bulk copy + mbarrier, m64n128k8 TF32 and its layout");
    int dev = 0, major = 0, minor = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    cudaFuncAttributes fa;
    CUDA_OK(cudaFuncGetAttributes(&fa, (const void *)wg_pieces_kernel));
#ifdef ONCHIP_SM90A
    CHECK(!(major == 9 && minor == 0) || fa.sharedSizeBytes > 0, "an sm_90a build on sm_90 must have the wgmma body");
#endif
    if (!(major == 9 && minor == 0) || fa.sharedSizeBytes == 0) {
        /* nothing compared: skipped (failed instead when a CUDA call above failed) */
        char why[96];
        snprintf(why, sizeof why, "needs an sm_90 device and an sm_90a build (this: sm_%d%d)", major, minor);
        case_skip(why);
        return;
    }
    float *ha = (float *)malloc(64 * 32 * 4), *hb = (float *)malloc(128 * 32 * 4), *hbs = (float *)malloc(128 * 32 * 4);
    float *hd = (float *)malloc(64 * 128 * 4);
    for (int i = 0; i < 64 * 32; i++) ha[i] = (float)((int)(gpucheck_uniform() * 16)) / 8;
    for (int i = 0; i < 128 * 32; i++) hb[i] = (float)((int)(gpucheck_uniform() * 16)) / 8;
    for (int i = 0; i < 128 * 32; i++) /* the swizzled layout: chunk k/4 of row r at chunk (k/4) ^ (r % 8) */
        hbs[(i / 32) * 32 + ((((i % 32) / 4) ^ ((i / 32) % 8)) * 4) + i % 4] = hb[i];
    float *da, *db, *dd;
    CUDA_OK(cudaMalloc(&da, 64 * 32 * 4));
    CUDA_OK(cudaMalloc(&db, 128 * 32 * 4));
    CUDA_OK(cudaMalloc(&dd, 64 * 128 * 4));
    CUDA_OK(cudaMemcpy(da, ha, 64 * 32 * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(db, hbs, 128 * 32 * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dd, 0xFF, 64 * 128 * 4));
    wg_pieces_kernel<<<1, 128>>>(da, db, dd);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(hd, dd, 64 * 128 * 4, cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 128; j++) {
            double r = 0;
            for (int k = 0; k < 32; k++) r += (double)ha[i * 32 + k] * hb[j * 32 + k];
            if (hd[i * 128 + j] != (float)r) bad++;
        }
    CHECK(bad == 0, "%lld of 8192 products differ from the exact reference", bad);
    cudaFree(da); cudaFree(db); cudaFree(dd);
    free(ha); free(hb); free(hbs); free(hd);
    case_end();
}

int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    check_plan(6); /* the same six cases in every mode (--light: fewer shapes) */
    run_kind(SUM_F32, "ksum pieces: float rational-quadratic sum (alpha at run time), 8x8, ragged, splits", light);
    run_kind(SUM_F64, "ksum pieces: double rational-quadratic sum, 4x4, ragged, splits", light);
    run_kind(NW_F32, "ksum pieces: float Nadaraya-Watson mean (two sums, one pass, ratio by KSUM_EPI_ROWS), 8x4", light);
    run_kind(NW_F64, "ksum pieces: double Nadaraya-Watson mean, 4x4", light);
    run_negative();
    run_wg_pieces();
    return check_exit();
}
