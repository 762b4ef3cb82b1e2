/* bench/perks_cg.cu -- perks/cg.cuh against the usual GPU CG loops, fp64, no preconditioner, x0 = 0:
 *   cusparse  cusparseSpMV + cublasDdot/Daxpy/Dscal, host pointer mode: the loop a user writes
 *             (each dot returns to the host: a sync per dot)
 *   graph     the same loop in device pointer mode (alpha, beta by two 1-thread kernels), 10
 *             iterations captured in one CUDA graph, graphs launched back to back
 *   perks     PERKS_CG_DEFINE(.., double, 256), the planner's choice (path and cache tier printed:
 *             the cluster for small systems, the grid with the count barrier for those it caches,
 *             the stream path, sliced ELL, for the rest; its own bytes floor printed beside)
 *   grid      the grid path with cooperative_groups grid.sync (PERKS_CG_BAR_GRID)
 *   flag      the grid path with the flag barrier (perks_flag_sum: one L2 hop, no atomics)
 *   cluster   the cluster path (one thread-block cluster, distributed shared memory; "-" where the
 *             system does not fit)
 *   nocache   the grid path with opts.cache = 0 (vectors and matrix from device memory, CSR)
 *   sumbar    the grid path with the sum barrier (perks/barrier.cuh: the last block to arrive sums)
 *   cgear     the grid path, Chronopoulos-Gear CG (opts.variant = PERKS_CG_CGEAR: one grid barrier
 *             per iteration instead of 2; other rounding, so its iterations to 1e-8 are printed)
 *   k1024     the grid path (classic, grid.sync) built with BLOCK = 1024 (one block per SM)
 *   cgear1024 Chronopoulos-Gear with BLOCK = 1024
 *   count     the grid path (classic) with the count barrier (perks_count_sum: grid.sync's counter,
 *             the partials read by the spinning warp; the same bits as grid.sync)
 *   cgcount   Chronopoulos-Gear with the count barrier
 *   (flag and sumbar, which measure slower, run only with --all)
 *   mfree     the Poisson grids matrix-free (perks/cg_stencil.cuh, PERKS_CG_STENCIL2D/3D_DEFINE), per
 *             iteration from two solves of 10 and 10 + K iterations; its floor: 8 vector passes, 64
 *             bytes a cell
 *   mfree-mixed  the same, PERKS_CG_STENCIL*_MIXED_DEFINE (float iterations, double replacements
 *             included); floor 32 bytes a cell
 * Per iteration: a run of K iterations (tol 0) timed with events, divided by the iterations done,
 * median of --reps runs after a warm-up.  Time to solution: tol 1e-8 from x = 0 (the loops check
 * the residual every iteration, the graph every 10), with the iteration counts beside.
 * floor = bytes / 4.27 TB/s with bytes = one pass over the CSR (12 B per nonzero + 4 B per row)
 * + 6 vector passes of 8 B per row (p read, q or p written, x and r read and written: the least
 * any CG iteration moves).
 * Matrices: Poisson 2D 64^2 .. 2048^2 and 3D 32^3 .. 256^3 (Dirichlet, 5/7 points), then the
 * SuiteSparse files in ../shared/data/mtx or .data/mtx (per iteration only: without a
 * preconditioner most do not reach 1e-8).
 * Accuracy, after the tables above:
 *   repl      the float solver's cost per iteration with residual replacement every k iterations
 *             (k = 0: none; tol 0, a fixed iteration count, so every replacement is a periodic one)
 *   mixed     time to a TRUE residual of 1e-10, end to end (name_launch: plan, solve, free; wall clock,
 *             median of 3): the double solver (bcg64) against T perks_cg_mixed (bcgm: float iterations
 *             forced, and auto), each with its status, iterations, double replacements; on the
 *             Poisson grids also matrix-free, double and mixed
 * usage: cg [--json PATH] [--reps N] [--light] [--no-256] [--all] [--accuracy-only] [--only TEXT]
 *   (--light: the small cases only; --accuracy-only: only the accuracy tables; --only: the systems
 *   whose name holds TEXT) */
#include <cublas_v2.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perks/cg.cuh>
#include <perks/cg_stencil.cuh>
#include <perks/mtx.h>

#include "gpucheck.h"

PERKS_CG_DEFINE(bcg64, double, 256)
/* blocks of 1024 threads: one per SM, every thread of the SM in the block */
PERKS_CG_DEFINE(bcg64k, double, 1024)
PERKS_CG_DEFINE(bcg32, float, 256)
PERKS_CG_DEFINE(bcgm, perks_cg_mixed, 256)
/* the Poisson systems matrix-free (perks/cg_stencil.cuh) */
PERKS_CG_STENCIL2D_DEFINE(mf2, double, ONCHIP_SHAPE_STAR2D_R1)
PERKS_CG_STENCIL3D_DEFINE(mf3, double, ONCHIP_SHAPE_STAR3D_R1)
PERKS_CG_STENCIL2D_DEFINE(mf2m, perks_cg_mixed, ONCHIP_SHAPE_STAR2D_R1)
PERKS_CG_STENCIL3D_DEFINE(mf3m, perks_cg_mixed, ONCHIP_SHAPE_STAR3D_R1)

#define BW 4.27e12
#define CUBLAS_DIE(call)                                                                           \
    do {                                                                                           \
        cublasStatus_t s__ = (call);                                                               \
        if (s__ != CUBLAS_STATUS_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #call, (int)s__); \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)
#define CUSPARSE_DIE(call)                                                                           \
    do {                                                                                             \
        cusparseStatus_t s__ = (call);                                                               \
        if (s__ != CUSPARSE_STATUS_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s__)); \
            exit(2);                                                                                 \
        }                                                                                            \
    } while (0)

static int reps = 7;
static int all_rows = 0;
static FILE *json;
static int json_rows;

static double median(double *t, int n) { return gpucheck_median(t, n); }

/* host CSR of a Poisson matrix */
static void poisson(perks_csr *A, int nx, int ny, int nz)
{
    long long n = (long long)nx * ny * nz, k = 0, i = 0;
    memset(A, 0, sizeof *A);
    A->n_rows = A->n_cols = (int)n;
    A->row_ptr = (int *)malloc(sizeof(int) * (n + 1));
    A->col = (int *)malloc(sizeof(int) * n * (nz > 1 ? 7 : 5));
    A->val = (double *)malloc(sizeof(double) * n * (nz > 1 ? 7 : 5));
    A->row_ptr[0] = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++, i++) {
#define PUSH(c, v) (A->col[k] = (int)(c), A->val[k] = (v), k++)
                if (z > 0) PUSH(i - (long long)nx * ny, -1.0);
                if (y > 0) PUSH(i - nx, -1.0);
                if (x > 0) PUSH(i - 1, -1.0);
                PUSH(i, nz > 1 ? 6.0 : 4.0);
                if (x < nx - 1) PUSH(i + 1, -1.0);
                if (y < ny - 1) PUSH(i + nx, -1.0);
                if (z < nz - 1) PUSH(i + (long long)nx * ny, -1.0);
#undef PUSH
                A->row_ptr[i + 1] = (int)k;
            }
    A->nnz = k;
}

__global__ void k_alpha(const double *rz, const double *pq, double *alpha, double *nalpha)
{
    double a = *rz / *pq;
    *alpha = a;
    *nalpha = -a;
}
__global__ void k_beta(const double *rrn, double *rz, double *beta)
{
    *beta = *rrn / *rz;
    *rz = *rrn;
}

typedef struct sys {
    int n;
    long long nnz;
    int *rp, *ci;
    double *va, *b, *x, *r, *p, *q;
    double *dconst; /* one, zero, rz, pq, alpha, nalpha, rrn, beta */
    void *buf;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vp, vq;
    cusparseHandle_t sp;
    cublasHandle_t bl;
    cudaStream_t s;
} sys;

/* r = b, p = b, x = 0; returns b.b */
static double cg_reset(sys *S)
{
    double bb;
    CUDA_DIE(cudaMemsetAsync(S->x, 0, 8 * (size_t)S->n, S->s));
    CUDA_DIE(cudaMemcpyAsync(S->r, S->b, 8 * (size_t)S->n, cudaMemcpyDeviceToDevice, S->s));
    CUDA_DIE(cudaMemcpyAsync(S->p, S->b, 8 * (size_t)S->n, cudaMemcpyDeviceToDevice, S->s));
    CUBLAS_DIE(cublasSetPointerMode(S->bl, CUBLAS_POINTER_MODE_HOST));
    CUBLAS_DIE(cublasDdot(S->bl, S->n, S->b, 1, S->b, 1, &bb));
    return bb;
}

/* the plain loop, host pointer mode: up to K iterations, stop at rr <= tol^2 bb; returns iterations */
static int cg_cusparse(sys *S, int K, double tol)
{
    const double one = 1, zero = 0;
    double bb = cg_reset(S), rr = bb, pq = 0, rrn = 0;
    CUSPARSE_DIE(cusparseSetPointerMode(S->sp, CUSPARSE_POINTER_MODE_HOST));
    int it = 0;
    while (it < K && !(rr <= tol * tol * bb)) {
        CUSPARSE_DIE(cusparseSpMV(S->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S->A, S->vp, &zero, S->vq,
                                  CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, S->buf));
        CUBLAS_DIE(cublasDdot(S->bl, S->n, S->p, 1, S->q, 1, &pq));
        double alpha = rr / pq, nalpha = -alpha;
        CUBLAS_DIE(cublasDaxpy(S->bl, S->n, &alpha, S->p, 1, S->x, 1));
        CUBLAS_DIE(cublasDaxpy(S->bl, S->n, &nalpha, S->q, 1, S->r, 1));
        CUBLAS_DIE(cublasDdot(S->bl, S->n, S->r, 1, S->r, 1, &rrn));
        double beta = rrn / rr;
        rr = rrn;
        CUBLAS_DIE(cublasDscal(S->bl, S->n, &beta, S->p, 1));
        CUBLAS_DIE(cublasDaxpy(S->bl, S->n, &one, S->r, 1, S->p, 1));
        it++;
    }
    return it;
}

/* one iteration in device pointer mode (capturable) */
static void cg_device_iter(sys *S)
{
    double *one = S->dconst, *zero = S->dconst + 1, *rz = S->dconst + 2, *pq = S->dconst + 3, *al = S->dconst + 4,
           *nal = S->dconst + 5, *rrn = S->dconst + 6, *beta = S->dconst + 7;
    CUSPARSE_DIE(cusparseSpMV(S->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, one, S->A, S->vp, zero, S->vq, CUDA_R_64F,
                              CUSPARSE_SPMV_ALG_DEFAULT, S->buf));
    CUBLAS_DIE(cublasDdot(S->bl, S->n, S->p, 1, S->q, 1, pq));
    k_alpha<<<1, 1, 0, S->s>>>(rz, pq, al, nal);
    CUBLAS_DIE(cublasDaxpy(S->bl, S->n, al, S->p, 1, S->x, 1));
    CUBLAS_DIE(cublasDaxpy(S->bl, S->n, nal, S->q, 1, S->r, 1));
    CUBLAS_DIE(cublasDdot(S->bl, S->n, S->r, 1, S->r, 1, rrn));
    k_beta<<<1, 1, 0, S->s>>>(rrn, rz, beta);
    CUBLAS_DIE(cublasDscal(S->bl, S->n, beta, S->p, 1));
    CUBLAS_DIE(cublasDaxpy(S->bl, S->n, one, S->r, 1, S->p, 1));
}

#define GRAPH_ITERS 10
static cudaGraphExec_t cg_graph(sys *S)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUBLAS_DIE(cublasSetPointerMode(S->bl, CUBLAS_POINTER_MODE_DEVICE));
    CUSPARSE_DIE(cusparseSetPointerMode(S->sp, CUSPARSE_POINTER_MODE_DEVICE));
    CUDA_DIE(cudaStreamBeginCapture(S->s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < GRAPH_ITERS; i++) cg_device_iter(S);
    CUDA_DIE(cudaStreamEndCapture(S->s, &g));
    CUDA_DIE(cudaGraphInstantiate(&ge, g, 0));
    CUDA_DIE(cudaGraphDestroy(g));
    return ge;
}
/* graph loop: rz = bb set on the device, then graphs until rr <= tol^2 bb (checked per graph) */
static int cg_graph_run(sys *S, cudaGraphExec_t ge, int K, double tol)
{
    double bb = cg_reset(S), rr = bb, c[2] = {1, 0};
    CUDA_DIE(cudaMemcpyAsync(S->dconst, c, sizeof c, cudaMemcpyHostToDevice, S->s));
    CUDA_DIE(cudaMemcpyAsync(S->dconst + 2, &bb, 8, cudaMemcpyHostToDevice, S->s));
    int it = 0;
    while (it < K && !(rr <= tol * tol * bb)) {
        CUDA_DIE(cudaGraphLaunch(ge, S->s));
        it += GRAPH_ITERS;
        if (tol > 0) {
            CUDA_DIE(cudaMemcpyAsync(&rr, S->dconst + 2, 8, cudaMemcpyDeviceToHost, S->s));
            CUDA_DIE(cudaStreamSynchronize(S->s));
        }
    }
    return it;
}

static const char *only; /* --only: the systems whose name holds it */

static void row(const char *name, int n, long long nnz, const char *impl, double us_it, double floor_us, int it_sol,
                double ms_sol, int cached)
{
    printf("  %-9s %9.2f us/it  floor %7.2f  (x%5.2f)", impl, us_it, floor_us, us_it / floor_us);
    if (it_sol > 0) printf("   solve %5d it %9.3f ms", it_sol, ms_sol);
    if (cached >= 0) printf("   cache tier %d", cached);
    printf("\n");
    if (json)
        fprintf(json,
                "%s  {\"matrix\": \"%s\", \"n\": %d, \"nnz\": %lld, \"impl\": \"%s\", \"us_per_iter\": %.4f, "
                "\"floor_us\": %.4f, \"solve_iters\": %d, \"solve_ms\": %.5f, \"cached\": %d}",
                json_rows++ ? ",\n" : "", name, n, nnz, impl, us_it, floor_us, it_sol, ms_sol, cached);
}

/* one perks plan timed: the median over runs (after one warm-up) of the whole run in ms, or of the
 * time per iteration in us when per_iter; res gets the last run's result */
static double time_plan(perks_cg_plan *p, sys *S, int runs, int per_iter, perks_cg_result *res)
{
    /* the launch alone between the events (perks__cg_start, name_run's first step; perks__cg_finish
     * then waits and reads the result, refining where due, untimed) */
    cudaEvent_t e0, e1;
    double t[64];
    int n = runs < 64 ? runs : 64;
    CUDA_DIE(cudaEventCreate(&e0));
    CUDA_DIE(cudaEventCreate(&e1));
    for (int r = -1; r < n; r++) {
        float ms;
        CUDA_DIE(cudaEventRecord(e0, S->s));
        int rc = perks__cg_start(p, S->b, S->x, S->s);
        CUDA_DIE(cudaEventRecord(e1, S->s));
        CUDA_DIE(cudaEventSynchronize(e1));
        if (rc) {
            printf("  perks run failed: %s\n", perks_strerror(rc));
            exit(1);
        }
        perks__cg_finish(p, res);
        CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0) t[r] = per_iter ? ms * 1e3 / (res->iterations > 0 ? res->iterations : 1) : ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return gpucheck_median(t, n);
}

/* the matrix-free solve of a Poisson grid g (nx, ny, nz; nz = 1: 2D), double (mixed 0) or mixed (1):
 * name_launch (plan, run, free) */
static int mfree_solve(const int *g, int mixed, const double *b, double *x, const perks_cg_opts *o, perks_cg_result *res)
{
    static const double w2[5] = {4, -1, -1, -1, -1}, w3[7] = {6, -1, -1, -1, -1, -1, -1};
    perks_cgs_args a = {};
    a.nx = g[0], a.ny = g[1], a.nz = g[2], a.w = g[2] == 1 ? w2 : w3, a.b = b, a.x = x, a.opts = *o, a.result = res;
    if (g[2] == 1) return mixed ? mf2m_launch(&a, 0) : mf2_launch(&a, 0);
    return mixed ? mf3m_launch(&a, 0) : mf3_launch(&a, 0);
}

/* the arguments of a solve of S (b, x: S's) */
static perks_cg_args sys_args(const sys *S, const perks_cg_opts *o, perks_cg_result *res)
{
    perks_cg_args a = {};
    a.n = S->n, a.nnz = S->nnz, a.row_ptr = S->rp, a.col = S->ci, a.val = S->va, a.b = S->b, a.x = S->x, a.opts = *o;
    a.result = res;
    return a;
}

/* matrix-free rows: per iteration (two runs of 10 and 10 + K iterations at tol 1e-300, the difference
 * over K; median of R) and, with solve, time to 1e-8 (the whole call, median of 3 after a warm-up).
 * floor: 8 vector passes (64 bytes a cell in double, 32 in float) */
static void bench_mfree(const char *name, const int *g, const double *b, double *x, int K, int R, int solve,
                        cudaEvent_t e0, cudaEvent_t e1)
{
    const int n = g[0] * g[1] * g[2];
    for (int mixed = 0; mixed < 2; mixed++) {
        double t[64];
        float ms[2];
        perks_cg_result res = {};
        for (int r = -1; r < R; r++) {
            for (int k = 0; k < 2; k++) {
                perks_cg_opts o = perks_cg_defaults();
                o.tol = 1e-300, o.max_iter = 10 + k * K;
                CUDA_DIE(cudaEventRecord(e0, 0));
                const int rc = mfree_solve(g, mixed, b, x, &o, &res);
                CUDA_DIE(cudaEventRecord(e1, 0));
                CUDA_DIE(cudaEventSynchronize(e1));
                CUDA_DIE(cudaEventElapsedTime(&ms[k], e0, e1));
                if (rc != PERKS_ENOCONV || res.iterations != o.max_iter) {
                    printf("  matrix-free run: %s after %d iterations\n", perks_strerror(rc), res.iterations);
                    exit(1);
                }
            }
            if (r >= 0) t[r] = (ms[1] - ms[0]) * 1e3 / K;
        }
        const double us = gpucheck_median(t, R), floor_us = 8.0 * (mixed ? 4 : 8) * n / BW * 1e6;
        int it = 0;
        double msol = 0;
        if (solve) {
            double ts[3];
            for (int r = -1; r < 3; r++) {
                perks_cg_opts o = perks_cg_defaults();
                o.tol = 1e-8, o.max_iter = 20000;
                CUDA_DIE(cudaEventRecord(e0, 0));
                const int rc = mfree_solve(g, mixed, b, x, &o, &res);
                CUDA_DIE(cudaEventRecord(e1, 0));
                CUDA_DIE(cudaEventSynchronize(e1));
                CUDA_DIE(cudaEventElapsedTime(&ms[0], e0, e1));
                if (r >= 0) ts[r] = ms[0];
                it = rc ? -res.iterations : res.iterations;
            }
            msol = gpucheck_median(ts, 3);
        }
        row(name, n, 0, mixed ? "mfree-mixed" : "mfree", us, floor_us, it, msol, -1);
    }
}

static void bench_matrix(const char *name, perks_csr *H, const int *grid, int solve, int sweep)
{
    if (only && !strstr(name, only)) return;
    sys S;
    memset(&S, 0, sizeof S);
    S.n = H->n_rows;
    S.nnz = H->nnz;
    size_t n = (size_t)S.n;
    double floor_us = ((double)S.nnz * 12 + (double)(n + 1) * 4 + 6.0 * 8 * n) / BW * 1e6;
    printf("%s: n %d, nnz %lld, %.1f MB CSR+vectors, floor %.2f us/iteration\n", name, S.n, S.nnz,
           ((double)S.nnz * 12 + n * 4 + 6.0 * 8 * n) / 1e6, floor_us);
    CUDA_DIE(cudaMalloc(&S.rp, 4 * (n + 1)));
    CUDA_DIE(cudaMalloc(&S.ci, 4 * (size_t)S.nnz));
    CUDA_DIE(cudaMalloc(&S.va, 8 * (size_t)S.nnz));
    CUDA_DIE(cudaMalloc(&S.b, 8 * n));
    CUDA_DIE(cudaMalloc(&S.x, 8 * n));
    CUDA_DIE(cudaMalloc(&S.r, 8 * n));
    CUDA_DIE(cudaMalloc(&S.p, 8 * n));
    CUDA_DIE(cudaMalloc(&S.q, 8 * n));
    CUDA_DIE(cudaMalloc(&S.dconst, 8 * 8));
    CUDA_DIE(cudaMemcpy(S.rp, H->row_ptr, 4 * (n + 1), cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(S.ci, H->col, 4 * (size_t)S.nnz, cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(S.va, H->val, 8 * (size_t)S.nnz, cudaMemcpyHostToDevice));
    {
        double *hb = (double *)malloc(8 * n);
        for (size_t i = 0; i < n; i++) hb[i] = gpucheck_uniform();
        CUDA_DIE(cudaMemcpy(S.b, hb, 8 * n, cudaMemcpyHostToDevice));
        free(hb);
    }
    CUDA_DIE(cudaStreamCreate(&S.s));
    CUSPARSE_DIE(cusparseCreate(&S.sp));
    CUBLAS_DIE(cublasCreate(&S.bl));
    CUSPARSE_DIE(cusparseSetStream(S.sp, S.s));
    CUBLAS_DIE(cublasSetStream(S.bl, S.s));
    CUSPARSE_DIE(cusparseCreateCsr(&S.A, S.n, S.n, S.nnz, S.rp, S.ci, S.va, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CUSPARSE_DIE(cusparseCreateDnVec(&S.vp, S.n, S.p, CUDA_R_64F));
    CUSPARSE_DIE(cusparseCreateDnVec(&S.vq, S.n, S.q, CUDA_R_64F));
    {
        const double one = 1, zero = 0;
        size_t sz = 0;
        CUSPARSE_DIE(cusparseSpMV_bufferSize(S.sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S.A, S.vp, &zero, S.vq,
                                             CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &sz));
        CUDA_DIE(cudaMalloc(&S.buf, sz ? sz : 16));
    }
    /* iterations per timed run: enough for ~10 ms, at least 20 */
    int K = S.nnz > 20000000 ? 20 : S.nnz > 2000000 ? 50 : 200;
    cudaEvent_t e0, e1;
    CUDA_DIE(cudaEventCreate(&e0));
    CUDA_DIE(cudaEventCreate(&e1));
    double t[64];
    float ms = 0;
    int R = reps < 64 ? reps : 64;

    /* cusparse plain loop */
    double us_sp = 0, us_gr = 0, us_pk = 0, us_nc = 0, us_gs = 0, us_t5 = 0, us_gd = 0, us_fl = 0, us_cl = 0;
    double us_cg = 0, us_ck = 0, us_cn = 0, us_cc = 0;
    int cached_cn = -1, cached_cc = -1;
    int cached_gs = -1, cached_t5 = -1, cached_gd = -1, cached_fl = -1, cached_cl = -1, cached_cg = -1, cached_ck = -1;
    int it_cg = 0;
    double ms_cg = 0;
    int it_sp = 0, it_gr = 0, it_pk = 0, it_nc = 0, cached_pk = -1, cached_nc = -1;
    double ms_sp = 0, ms_gr = 0, ms_pk = 0, ms_nc = 0;
    for (int r = -1; r < R; r++) {
        cg_reset(&S);
        CUDA_DIE(cudaStreamSynchronize(S.s));
        CUDA_DIE(cudaEventRecord(e0, S.s));
        int it = cg_cusparse(&S, K, 0);
        CUDA_DIE(cudaEventRecord(e1, S.s));
        CUDA_DIE(cudaEventSynchronize(e1));
        CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0) t[r] = ms * 1e3 / it;
    }
    us_sp = median(t, R);
    /* graph */
    cudaGraphExec_t ge = cg_graph(&S);
    for (int r = -1; r < R; r++) {
        cg_graph_run(&S, ge, 0, 0); /* reset only */
        CUDA_DIE(cudaStreamSynchronize(S.s));
        CUDA_DIE(cudaEventRecord(e0, S.s));
        int it = cg_graph_run(&S, ge, K, 0);
        CUDA_DIE(cudaEventRecord(e1, S.s));
        CUDA_DIE(cudaEventSynchronize(e1));
        CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0) t[r] = ms * 1e3 / it; /* includes the reset's few copies: small beside K iterations */
    }
    us_gr = median(t, R);
    /* perks, cached and not; the grid.sync barrier; the 512-threads-per-SM build */
    /* c: 0 perks (auto), 1 nocache, 2 sumbar, 3 k1024, 4 grid (grid.sync), 5 flag, 6 cluster, 7 cgear,
     * 8 cgear1024, 9 count, 10 cgcount */
    for (int c = 0; c < 11; c++) {
        perks_cg_opts o = perks_cg_defaults();
        perks_cg_plan p;
        perks_cg_result res = {};
        if ((c == 2 || c == 5) && !all_rows) continue;
        o.tol = 0;
        o.max_iter = K;
        o.cache = c != 1;
        if ((c >= 1 && c <= 5) || c >= 7) o.path = PERKS_CG_PATH_GRID;
        if (c == 2) o.barrier = PERKS_CG_BAR_SUM;
        if (c == 3 || c == 4) o.barrier = PERKS_CG_BAR_GRID;
        if (c == 5) o.barrier = PERKS_CG_BAR_FLAG;
        if (c == 6) o.path = PERKS_CG_PATH_CLUSTER;
        if (c == 7 || c == 8 || c == 10) o.variant = PERKS_CG_CGEAR;
        if (c >= 9) o.barrier = PERKS_CG_BAR_COUNT;
        const perks_cg_args a = sys_args(&S, &o, &res);
        int rc = c == 3 || c == 8 ? bcg64k_plan(&a, &p) : bcg64_plan(&a, &p);
        if (rc && (c == 6 || c == 5)) { /* the cluster does not fit / more blocks than the flag takes */
            printf("  (%s: %s)\n", c == 6 ? "cluster" : "flag", perks_strerror(rc));
            continue;
        }
        if (rc) {
            printf("  perks plan failed: %s\n", perks_strerror(rc));
            exit(1);
        }
        const double us = time_plan(&p, &S, R, 1, &res);
        const int its = res.iterations > 0 ? res.iterations : 1;
        if (c == 0) us_pk = us, cached_pk = p.cached;
        else if (c == 1) us_nc = us, cached_nc = p.cached;
        else if (c == 2) us_gs = us, cached_gs = p.cached;
        else if (c == 3) us_t5 = us, cached_t5 = p.cached;
        else if (c == 4) us_gd = us, cached_gd = p.cached;
        else if (c == 5) us_fl = us, cached_fl = p.cached;
        else if (c == 6) us_cl = us, cached_cl = p.cached;
        else if (c == 7) us_cg = us, cached_cg = p.cached;
        else if (c == 8) us_ck = us, cached_ck = p.cached;
        else if (c == 9) us_cn = us, cached_cn = p.cached;
        else us_cc = us, cached_cc = p.cached;
        if (c == 0 || c == 3 || c == 5 || c == 6 || c == 7 || c == 8)
            printf("  (%s plan: %s%s, %d blocks of %d, %d lanes per row, %d iterations timed)\n",
                   c == 0   ? "perks"
                   : c == 3 ? "k1024"
                   : c == 5 ? "flag"
                   : c == 6 ? "cluster"
                   : c == 7 ? "cgear"
                            : "cgear1024",
                   p.path == PERKS_CG_PATH_CLUSTER ? "cluster" : p.path == PERKS_CG_PATH_STREAM ? "stream" : "grid",
                   p.path == PERKS_CG_PATH_CLUSTER     ? ""
                   : p.barrier == PERKS_CG_BAR_FLAG  ? " flag"
                   : p.barrier == PERKS_CG_BAR_COUNT ? " count"
                                                     : " grid.sync",
                   p.blocks, p.block, p.sub, its);
        if (c == 0 && p.path == PERKS_CG_PATH_STREAM) /* the stream path's own bytes: its copy and 9 vector passes */
            printf("  (stream path: %lld slice entries (%.2f%% padding); its own floor %.2f us: 12 B an entry, 4 B a slice, "
                   "72 B a row)\n",
                   p.sell_nnz, 100.0 * (p.sell_nnz - S.nnz) / S.nnz,
                   (12.0 * p.sell_nnz + 4.0 * (S.n / 32 + 1) + 72.0 * S.n) / 4.27e6);
        perks_cg_plan_free(&p);
    }
    /* how the per-iteration time depends on the block count (the planner's choice is above) */
    if (sweep) {
        static const int gs[] = {2, 4, 8, 16, 32, 66, 132, 264, 528};
        printf("  blocks sweep (perks, us/it):");
        for (int g = 0; g < 9; g++) {
            perks_cg_opts o = perks_cg_defaults();
            perks_cg_plan p;
            perks_cg_result res = {};
            o.tol = 0, o.max_iter = K, o.blocks = gs[g], o.path = PERKS_CG_PATH_GRID;
            const perks_cg_args a = sys_args(&S, &o, &res);
            if (bcg64_plan(&a, &p)) break;
            const double us = time_plan(&p, &S, 3, 1, &res);
            printf(" %d:%.2f(t%d)", p.blocks, us, p.cached);
            perks_cg_plan_free(&p);
        }
        printf("\n  cluster sweep (us/it):");
        for (int g = 1; g <= 16; g *= 2) {
            perks_cg_opts o = perks_cg_defaults();
            perks_cg_plan p;
            perks_cg_result res = {};
            o.tol = 0, o.max_iter = K, o.path = PERKS_CG_PATH_CLUSTER, o.cluster = g;
            const perks_cg_args a = sys_args(&S, &o, &res);
            if (bcg64_plan(&a, &p)) continue;
            const double us = time_plan(&p, &S, 3, 1, &res);
            printf(" %d:%.2f(t%d)", p.blocks, us, p.cached);
            perks_cg_plan_free(&p);
        }
        printf("\n");
    }
    /* time to solution, tol 1e-8 */
    if (solve) {
        const double tol = 1e-8;
        const int maxit = 20000;
        for (int r = -1; r < 3; r++) {
            cg_reset(&S);
            CUDA_DIE(cudaStreamSynchronize(S.s));
            CUDA_DIE(cudaEventRecord(e0, S.s));
            it_sp = cg_cusparse(&S, maxit, tol);
            CUDA_DIE(cudaEventRecord(e1, S.s));
            CUDA_DIE(cudaEventSynchronize(e1));
            CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0) t[r] = ms;
        }
        ms_sp = median(t, 3);
        for (int r = -1; r < 3; r++) {
            cg_graph_run(&S, ge, 0, 0);
            CUDA_DIE(cudaStreamSynchronize(S.s));
            CUDA_DIE(cudaEventRecord(e0, S.s));
            it_gr = cg_graph_run(&S, ge, maxit, tol);
            CUDA_DIE(cudaEventRecord(e1, S.s));
            CUDA_DIE(cudaEventSynchronize(e1));
            CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0) t[r] = ms;
        }
        ms_gr = median(t, 3);
        for (int c = 0; c < 3; c++) {
            perks_cg_opts o = perks_cg_defaults();
            perks_cg_plan p;
            perks_cg_result res = {};
            o.tol = tol;
            o.max_iter = maxit;
            o.cache = c != 1;
            if (c >= 1) o.path = PERKS_CG_PATH_GRID;
            if (c == 2) o.variant = PERKS_CG_CGEAR;
            const perks_cg_args a = sys_args(&S, &o, &res);
            if (bcg64_plan(&a, &p)) exit(1);
            const double ms_run = time_plan(&p, &S, 3, 0, &res);
            const int it_run = res.status == 0 ? res.iterations : -res.iterations;
            if (c == 0) ms_pk = ms_run, it_pk = it_run;
            else if (c == 1) ms_nc = ms_run, it_nc = it_run;
            else ms_cg = ms_run, it_cg = it_run;
            perks_cg_plan_free(&p);
        }
    }
    row(name, S.n, S.nnz, "cusparse", us_sp, floor_us, it_sp, ms_sp, -1);
    row(name, S.n, S.nnz, "graph", us_gr, floor_us, it_gr, ms_gr, -1);
    row(name, S.n, S.nnz, "perks", us_pk, floor_us, it_pk, ms_pk, cached_pk);
    row(name, S.n, S.nnz, "grid", us_gd, floor_us, 0, 0, cached_gd);
    if (cached_fl >= 0) row(name, S.n, S.nnz, "flag", us_fl, floor_us, 0, 0, cached_fl);
    if (cached_cl >= 0) row(name, S.n, S.nnz, "cluster", us_cl, floor_us, 0, 0, cached_cl);
    row(name, S.n, S.nnz, "nocache", us_nc, floor_us, it_nc, ms_nc, cached_nc);
    if (cached_gs >= 0) row(name, S.n, S.nnz, "sumbar", us_gs, floor_us, 0, 0, cached_gs);
    row(name, S.n, S.nnz, "k1024", us_t5, floor_us, 0, 0, cached_t5);
    row(name, S.n, S.nnz, "cgear", us_cg, floor_us, it_cg, ms_cg, cached_cg);
    row(name, S.n, S.nnz, "cgear1024", us_ck, floor_us, 0, 0, cached_ck);
    row(name, S.n, S.nnz, "count", us_cn, floor_us, 0, 0, cached_cn);
    row(name, S.n, S.nnz, "cgcount", us_cc, floor_us, 0, 0, cached_cc);
    double best = us_sp < us_gr ? us_sp : us_gr;
    printf("  speedup per iteration vs the best cuSPARSE loop: %.2fx (perks), %.2fx (grid.sync), %.2fx (flag), "
           "%.2fx (cluster), %.2fx (nocache), %.2fx (k1024), %.2fx (cgear), %.2fx (cgear1024), %.2fx (count), "
           "%.2fx (cgcount)\n",
           best / us_pk, best / us_gd, us_fl > 0 ? best / us_fl : 0.0, us_cl > 0 ? best / us_cl : 0.0, best / us_nc,
           best / us_t5, best / us_cg, best / us_ck, best / us_cn, best / us_cc);
    if (solve)
        printf("  iterations to 1e-8: cusparse %d, graph %d (rounded up to %d), perks %d, grid nocache %d, cgear %d\n",
               it_sp, it_gr, GRAPH_ITERS, it_pk, it_nc, it_cg);
    if (grid) bench_mfree(name, grid, S.b, S.x, K < 50 ? 50 : K, R, solve, e0, e1);
    CUDA_DIE(cudaGraphExecDestroy(ge));
    cusparseDestroySpMat(S.A);
    cusparseDestroyDnVec(S.vp);
    cusparseDestroyDnVec(S.vq);
    cusparseDestroy(S.sp);
    cublasDestroy(S.bl);
    cudaStreamDestroy(S.s);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(S.rp), cudaFree(S.ci), cudaFree(S.va), cudaFree(S.b), cudaFree(S.x), cudaFree(S.r), cudaFree(S.p);
    cudaFree(S.q), cudaFree(S.dconst), cudaFree(S.buf);
}

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void json_acc(const char *name, int n, long long nnz, const char *impl, double val, const char *unit, int rc,
                     int iters, int repl, double true_res)
{
    if (json)
        fprintf(json,
                "%s  {\"matrix\": \"%s\", \"n\": %d, \"nnz\": %lld, \"impl\": \"%s\", \"%s\": %.5f, "
                "\"status\": %d, \"iters\": %d, \"replacements\": %d, \"true_residual\": %.3e}",
                json_rows++ ? ",\n" : "", name, n, nnz, impl, unit, val, rc, iters, repl, true_res);
}

/* a float copy of H on the device (values rounded), b random in [-1, 1), x for the solution */
typedef struct f32sys {
    int *rp, *ci;
    float *va, *b, *x;
} f32sys;
static f32sys f32sys_upload(const perks_csr *H)
{
    const int n = H->n_rows;
    f32sys S;
    float *hv = (float *)malloc(sizeof(float) * (H->nnz > n ? H->nnz : n));
    CUDA_DIE(cudaMalloc(&S.rp, sizeof(int) * (n + 1)));
    CUDA_DIE(cudaMalloc(&S.ci, sizeof(int) * H->nnz));
    CUDA_DIE(cudaMalloc(&S.va, sizeof(float) * H->nnz));
    CUDA_DIE(cudaMalloc(&S.b, sizeof(float) * n));
    CUDA_DIE(cudaMalloc(&S.x, sizeof(float) * n));
    CUDA_DIE(cudaMemcpy(S.rp, H->row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(S.ci, H->col, sizeof(int) * H->nnz, cudaMemcpyHostToDevice));
    for (long long k = 0; k < H->nnz; k++) hv[k] = (float)H->val[k];
    CUDA_DIE(cudaMemcpy(S.va, hv, sizeof(float) * H->nnz, cudaMemcpyHostToDevice));
    for (int i = 0; i < n; i++) hv[i] = gpucheck_uniform();
    CUDA_DIE(cudaMemcpy(S.b, hv, sizeof(float) * n, cudaMemcpyHostToDevice));
    free(hv);
    return S;
}

/* the float solver's cost of residual replacement: us per iteration at a fixed count, k = 0 .. 200 */
static void bench_replace(const char *name, const perks_csr *H)
{
    if (only && !strstr(name, only)) return;
    const int n = H->n_rows, K = 400;
    f32sys S = f32sys_upload(H);
    int *rp = S.rp, *ci = S.ci;
    float *va = S.va, *b = S.b, *x = S.x;
    /* k > 0: every k iterations; k < 0: reliable updates with delta 10^k (the replacements then come as
     * the residual falls: at tol 0 and a fixed count, the cost of those few) */
    static const int ks[] = {0, 20, 50, 100, 200, -1};
    double base = 0;
    printf("%s: float CG, residual replacement every k iterations (%d iterations, tol 0)\n", name, K);
    for (int q = 0; q < 6; q++) {
        perks_cg_opts o = perks_cg_defaults();
        perks_cg_plan p;
        perks_cg_result res = {};
        o.tol = 0, o.max_iter = K, o.replace = ks[q] > 0 ? ks[q] : ks[q] < 0 ? -1 : 0;
        o.replace_delta = ks[q] < 0 ? pow(10.0, ks[q]) : 0;
        perks_cg_args a = {};
        a.n = n, a.nnz = H->nnz, a.row_ptr = rp, a.col = ci, a.val = va, a.b = b, a.x = x, a.opts = o, a.result = &res;
        if (bcg32_plan(&a, &p)) {
            printf("  plan failed\n");
            break;
        }
        double t[16];
        cudaEvent_t e0, e1;
        CUDA_DIE(cudaEventCreate(&e0));
        CUDA_DIE(cudaEventCreate(&e1));
        for (int r = -1; r < 5; r++) {
            float ms;
            CUDA_DIE(cudaEventRecord(e0, 0));
            perks__cg_start(&p, b, x, 0); /* the launch alone timed, as in time_plan */
            CUDA_DIE(cudaEventRecord(e1, 0));
            perks__cg_finish(&p, &res);
            CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0) t[r] = ms * 1e3 / K;
        }
        double us = gpucheck_median(t, 5);
        if (q == 0) base = us;
        printf("  repl %s=%-4d %8.2f us/it  (%+5.1f%% vs none; %d replacements, %s path)\n", ks[q] < 0 ? "lg(delta)" : "k", ks[q], us,
               100 * (us / base - 1), res.replacements, p.path == PERKS_CG_PATH_CLUSTER ? "cluster" : p.path == PERKS_CG_PATH_STREAM ? "stream" : "grid");
        char impl[32];
        if (ks[q] < 0) snprintf(impl, sizeof impl, "f32-reliable-1e%d", ks[q]);
        else snprintf(impl, sizeof impl, "f32-repl-%d", ks[q]);
        json_acc(name, n, H->nnz, impl, us, "us_per_iter", res.status, K, res.replacements, res.true_residual);
        cudaEventDestroy(e0), cudaEventDestroy(e1);
        perks_cg_plan_free(&p);
    }
    cudaFree(rp), cudaFree(ci), cudaFree(va), cudaFree(b), cudaFree(x);
}

/* what each replacement policy lets a float solve reach: tol 1e-7 (below float's reach for most
 * files), Jacobi; status, iterations, replacements and the true residual of the x returned */
static void bench_policy(const char *name, const perks_csr *H)
{
    if (only && !strstr(name, only)) return;
    const int n = H->n_rows;
    f32sys S = f32sys_upload(H);
    int *rp = S.rp, *ci = S.ci;
    float *va = S.va, *b = S.b, *x = S.x;
    /* replace, replace_delta */
    static const int rk[] = {0, -1, 50, 200, -1, -1};
    static const double rd[] = {0, 0, 0, 0, 0.1, 0.01};
    static const char *what[] = {"none", "default (conv.)", "every 50", "every 200", "reliable 0.1", "reliable 0.01"};
    printf("%s (float, Jacobi, tol 1e-7, max 20000 iterations): what each replacement policy reaches\n", name);
    for (int q = 0; q < 6; q++) {
        perks_cg_opts o = perks_cg_defaults();
        perks_cg_plan p;
        perks_cg_result res = {};
        o.tol = 1e-7, o.max_iter = 20000, o.jacobi = 1, o.replace = rk[q], o.replace_delta = rd[q];
        perks_cg_args a = {};
        a.n = n, a.nnz = H->nnz, a.row_ptr = rp, a.col = ci, a.val = va, a.b = b, a.x = x, a.opts = o, a.result = &res;
        if (bcg32_plan(&a, &p)) {
            printf("  plan failed\n");
            break;
        }
        int rc = bcg32_run(&a, &p, 0);
        printf("  %-15s %-16s %6d it %4d replacements  recurrence %.2e  true %.2e\n", what[q],
               rc == 0 ? "converged" : rc == PERKS_EINACCURATE ? "inaccurate" : rc == PERKS_ENOCONV ? "iteration limit"
               : rc == PERKS_EBREAKDOWN ? "breakdown" : "error", res.iterations, res.replacements, res.rel_residual,
               res.true_residual);
        char impl[48];
        snprintf(impl, sizeof impl, "f32-policy-%s", what[q]);
        json_acc(name, n, H->nnz, impl, res.true_residual, "true_residual", rc, res.iterations, res.replacements,
                 res.true_residual);
        perks_cg_plan_free(&p);
    }
    cudaFree(rp), cudaFree(ci), cudaFree(va), cudaFree(b), cudaFree(x);
}

/* time to a true residual of 1e-10: the double solver against mixed precision */
static void bench_mixed(const char *name, const perks_csr *H, const int *grid, int jac)
{
    if (only && !strstr(name, only)) return;
    const int n = H->n_rows;
    int *rp, *ci;
    double *va, *b, *x, *hb = (double *)malloc(sizeof(double) * n);
    CUDA_DIE(cudaMalloc(&rp, sizeof(int) * (n + 1)));
    CUDA_DIE(cudaMalloc(&ci, sizeof(int) * H->nnz));
    CUDA_DIE(cudaMalloc(&va, sizeof(double) * H->nnz));
    CUDA_DIE(cudaMalloc(&b, sizeof(double) * n));
    CUDA_DIE(cudaMalloc(&x, sizeof(double) * n));
    CUDA_DIE(cudaMemcpy(rp, H->row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(ci, H->col, sizeof(int) * H->nnz, cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(va, H->val, sizeof(double) * H->nnz, cudaMemcpyHostToDevice));
    for (int i = 0; i < n; i++) hb[i] = gpucheck_uniform();
    CUDA_DIE(cudaMemcpy(b, hb, sizeof(double) * n, cudaMemcpyHostToDevice));
    printf("%s%s: time to a true residual of 1e-10 (end to end, median of 3)\n", name, jac ? " (Jacobi)" : "");
    double t_double = 0;
    /* double; mixed forced; mixed auto; then, on the mid-sized systems, mixed forced with no periodic
     * replacement (reliable updates alone) and with every 50 (these rows set the default, 200) */
    for (int m = 0; m < 5; m++) {
        perks_cg_opts o = perks_cg_defaults();
        perks_cg_result res = {};
        if (m >= 3 && (n < 100000 || n > 4000000)) break;
        o.tol = 1e-10, o.max_iter = 100000, o.jacobi = jac, o.mixed = m == 1 || m >= 3;
        o.replace = m == 3 ? 0 : m == 4 ? 50 : -1;
        double t[3];
        int rc = 0;
        for (int r = -1; r < 3; r++) {
            CUDA_DIE(cudaDeviceSynchronize());
            double t0 = wall_ms();
            perks_cg_args a = {};
            a.n = n, a.nnz = H->nnz, a.row_ptr = rp, a.col = ci, a.val = va, a.b = b, a.x = x, a.opts = o;
            a.result = &res;
            rc = m == 0 ? bcg64_launch(&a, 0) : bcgm_launch(&a, 0);
            CUDA_DIE(cudaDeviceSynchronize());
            if (r >= 0) t[r] = wall_ms() - t0;
        }
        double ms = gpucheck_median(t, 3);
        if (m == 0) t_double = ms;
        const char *impl = m == 0 ? "double" : m == 1 ? "mixed" : m == 2 ? "mixed-auto" : m == 3 ? "mixed-k0" : "mixed-k50";
        printf("  %-11s %10.3f ms  (x%5.2f vs double)  %-22s %6d it  %3d replacements  true %.2e  ran %s\n", impl, ms,
               t_double / ms, rc ? perks_strerror(rc) + 7 : "converged", res.iterations, res.replacements,
               res.true_residual,
               m == 0 ? "double" : res.ran == PERKS_CG_RAN_MIXED ? "mixed" : res.ran == PERKS_CG_RAN_DOUBLE ? "double" : "fallback");
        json_acc(name, n, H->nnz, impl, ms, "ms_to_1e-10", rc, res.iterations, res.replacements, res.true_residual);
    }
    for (int m = 0; m < 2 && grid; m++) { /* matrix-free, double and mixed */
        perks_cg_opts o = perks_cg_defaults();
        perks_cg_result res = {};
        o.tol = 1e-10, o.max_iter = 100000, o.jacobi = jac;
        double t[3];
        int rc = 0;
        for (int r = -1; r < 3; r++) {
            CUDA_DIE(cudaDeviceSynchronize());
            double t0 = wall_ms();
            rc = mfree_solve(grid, m, b, x, &o, &res);
            CUDA_DIE(cudaDeviceSynchronize());
            if (r >= 0) t[r] = wall_ms() - t0;
        }
        const double ms = gpucheck_median(t, 3);
        const char *impl = m ? "mfree-mixed" : "mfree";
        printf("  %-11s %10.3f ms  (x%5.2f vs double)  %-22s %6d it  %3d replacements  true %.2e  ran %s\n", impl, ms,
               t_double / ms, rc ? perks_strerror(rc) + 7 : "converged", res.iterations, res.replacements,
               res.true_residual, !m ? "double" : res.ran == PERKS_CG_RAN_MIXED ? "mixed" : "fallback");
        json_acc(name, n, H->nnz, impl, ms, "ms_to_1e-10", rc, res.iterations, res.replacements, res.true_residual);
    }
    cudaFree(rp), cudaFree(ci), cudaFree(va), cudaFree(b), cudaFree(x);
    free(hb);
}

static int read_file(const char *file, perks_csr *A)
{
    const char *dirs[] = {"../shared/data/mtx", ".data/mtx"};
    perks_mtx_error e;
    char path[512];
    int rc = -1;
    for (int d = 0; d < 2 && rc; d++) {
        snprintf(path, sizeof path, "%s/%s.mtx", dirs[d], file);
        rc = perks_mtx_read_path(path, A, &e);
    }
    if (rc) printf("skip %s: %s (line %ld: %s)\n", file, perks_strerror(rc), e.line, e.message);
    return rc;
}

static void bench_accuracy(int light, int big)
{
    perks_csr A;
    printf("\n== accuracy: residual replacement cost (float) and time to a 1e-10 true residual (mixed vs double)\n");
    poisson(&A, 256, 256, 1);
    bench_replace("poisson2d 256^2", &A);
    perks_csr_free(&A);
    poisson(&A, 1024, 1024, 1);
    bench_replace("poisson2d 1024^2", &A);
    perks_csr_free(&A);
    static const int p2[] = {64, 1024, 2048}, p3[] = {32, 128, 256};
    char name[64];
    for (int k = 0; k < 3; k++) {
        if (light && k) break;
        const int g[3] = {p2[k], p2[k], 1};
        poisson(&A, p2[k], p2[k], 1);
        snprintf(name, sizeof name, "poisson2d %d^2", p2[k]);
        bench_mixed(name, &A, g, 0);
        perks_csr_free(&A);
    }
    for (int k = 0; k < 3; k++) {
        if ((light && k) || (!big && k == 2)) break;
        const int g[3] = {p3[k], p3[k], p3[k]};
        poisson(&A, p3[k], p3[k], p3[k]);
        snprintf(name, sizeof name, "poisson3d %d^3", p3[k]);
        bench_mixed(name, &A, g, 0);
        perks_csr_free(&A);
    }
    static const char *pfiles[] = {"bcsstk01", "494_bus", "bcsstk05", "1138_bus", "bcsstk09", "bcsstk21",
                                   "msc04515", "bcsstk13", "bcsstk25", "bcsstk38"};
    for (int k = 0; k < 10 && !light; k++) {
        if (read_file(pfiles[k], &A)) continue;
        bench_policy(pfiles[k], &A);
        perks_csr_free(&A);
    }
    static const char *files[] = {"crystm01", "bcsstk13", "bcsstk38"};
    for (int k = 0; k < 3 && !light; k++) {
        if (read_file(files[k], &A)) continue;
        bench_mixed(files[k], &A, NULL, 1);
        perks_csr_free(&A);
    }
}

int main(int argc, char **argv)
{
    const char *jpath = NULL;
    int light = 0, big = 1, acc_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--light")) light = 1;
        else if (!strcmp(argv[i], "--no-256")) big = 0;
        else if (!strcmp(argv[i], "--all")) all_rows = 1;
        else if (!strcmp(argv[i], "--accuracy-only")) acc_only = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--light] [--no-256] [--all] [--accuracy-only] [--only TEXT]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) return 2;
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    printf("cg bench on %s, fp64, median of %d; us per iteration and time to solution (tol 1e-8)\n", pr.name, reps);
    if (jpath) {
        json = gpucheck_json_open(jpath, "cg", pr.name, reps);
        if (!json) {
            perror(jpath);
            return 1;
        }
    }
    gpucheck_seed(777);
    static const int p2[] = {64, 256, 512, 1024, 2048}, p3[] = {32, 64, 128, 256};
    char name[64];
    for (int k = 0; k < 5 && !acc_only; k++) {
        if (light && k > 1) break;
        perks_csr A;
        const int g[3] = {p2[k], p2[k], 1};
        poisson(&A, p2[k], p2[k], 1);
        snprintf(name, sizeof name, "poisson2d %d^2", p2[k]);
        bench_matrix(name, &A, g, 1, k < 2);
        perks_csr_free(&A);
    }
    for (int k = 0; k < 4 && !acc_only; k++) {
        if ((light && k > 1) || (!big && k == 3)) break;
        perks_csr A;
        const int g[3] = {p3[k], p3[k], p3[k]};
        poisson(&A, p3[k], p3[k], p3[k]);
        snprintf(name, sizeof name, "poisson3d %d^3", p3[k]);
        bench_matrix(name, &A, g, 1, k < 2);
        perks_csr_free(&A);
    }
    static const char *files[] = {"bcsstk13", "crystm01", "bcsstk38", "bcsstk25"};
    for (int k = 0; k < 4 && !light && !acc_only; k++) {
        perks_csr A;
        if (read_file(files[k], &A)) continue;
        bench_matrix(files[k], &A, NULL, 0, 0);
        perks_csr_free(&A);
    }
    bench_accuracy(light, big);
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    return 0;
}
