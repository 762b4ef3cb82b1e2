/* bench/perks_cg_precond.cu -- preconditioned CG, time to a relative residual tol (1e-8, 1e-10)
 * from x = 0, fp64, b random, setup included, every solver in the same run:
 *   jacobi    PERKS_CG_DEFINE(.., double, 256) with opts.jacobi 1 (the planner's path)
 *   cheb      the same instance with opts.cheb = -1 (the planner's degree; 20 Jacobi steps bound
 *             the spectrum of D^-1 A, then CG preconditioned by p(D^-1 A) D^-1), and cheb4, cheb8,
 *             cheb16 with the degree fixed; the degree and the setup (steps + host math) printed
 *   fsai      the same instance with opts.fsai 1 (G' G, perks/fsai.h; G's rows at most 64 entries),
 *             and fsai16 (16); ms is name_run's plus name_plan's construction of G (setup)
 *   ic0       cuSPARSE: csric02 on the lower triangle (analysis + factor: setup), then PCG with two
 *             cusparseSpSV solves an iteration (L, then L^T), cusparseSpMV, cublas dots in host
 *             pointer mode -- the loop NVIDIA's samples write; "zero pivot" where IC(0) breaks down
 * Each time: the median of --reps runs of name_run (plan made once, outside) or of the whole
 * IC(0) solve (factor included); iterations, the status and the true residual ||b - A x|| / ||b||
 * of the x returned (computed here, in double) beside it.  Floor of an iteration: the CSR once and
 * 6 vector passes over 4.27 TB/s ("floor us/it").  "x jacobi": jacobi's ms over the row's.
 * Systems: the SuiteSparse files in ../shared/data/mtx or .data/mtx, then 3D Poisson 64^3.
 * usage: perks_cg_precond [--reps N] [--only TEXT] [--tol T] [--blocks G] [--no-ic0]
 *   (--blocks: opts.blocks of the kit's rows; --no-ic0: without the cuSPARSE rows) */
#include <cublas_v2.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perks/cg.cuh>
#include <perks/mtx.h>

#include "gpucheck.h"

PERKS_CG_DEFINE(pcg64, double, 256)

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

static int reps = 5;
static int g_blocks = 0; /* --blocks: opts.blocks of the kit's rows (0: the planner) */
static int g_tier, g_G, g_ns; /* the last plan's cache tier, blocks, neighbour sync */
static long long g_fnnz;      /* the last plan's entries of G (FSAI) */
static int g_noic0;      /* --no-ic0: the kit's rows only */

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

typedef struct dsys {
    int n;
    long long nnz;
    int *rp, *ci;
    double *va, *b, *x;
    const perks_csr *H;
    double *hb;
} dsys;

static double true_res(const dsys *S)
{
    const int n = S->n;
    double *x = (double *)malloc(8 * (size_t)n), rr = 0, bb = 0;
    CUDA_DIE(cudaMemcpy(x, S->x, 8 * (size_t)n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = S->H->row_ptr[i]; k < S->H->row_ptr[i + 1]; k++) s += S->H->val[k] * x[S->H->col[k]];
        rr += (S->hb[i] - s) * (S->hb[i] - s), bb += S->hb[i] * S->hb[i];
    }
    free(x);
    return sqrt(rr / bb);
}

static void row(const char *name, const dsys *S, const char *impl, double tol, const char *status, int it, double ms,
                double setup_ms, double tr, double jac_ms, const char *extra)
{
    const double floor_us = (12.0 * S->nnz + 4.0 * S->n + 48.0 * S->n) / BW * 1e6;
    printf("%-16s %8d %9lld  %-8s %6.0e  %-14s %6d  %10.3f  %8.3f  %9.2e  %6.3f  %6.2fx  %s\n", name, S->n, S->nnz,
           impl, tol, status, it, ms, setup_ms, tr, floor_us, ms > 0 ? jac_ms / ms : 0, extra);
    fflush(stdout);
}

/* the kit's solver with opts o: median ms of reps runs of name_run, the last run's result */
static double perks_time(dsys *S, const perks_cg_opts *o, perks_cg_result *res, int *rc_out)
{
    perks_cg_args a = {};
    perks_cg_plan p;
    double t[32];
    a.n = S->n, a.nnz = S->nnz, a.row_ptr = S->rp, a.col = S->ci, a.val = S->va, a.b = S->b, a.x = S->x;
    a.opts = *o, a.result = res;
    int rc = pcg64_plan(&a, &p);
    g_tier = p.cached, g_G = p.blocks, g_ns = p.args.ndep != NULL, g_fnnz = p.fsai_nnz;
    if (rc) {
        *rc_out = rc;
        memset(res, 0, sizeof *res);
        return 0;
    }
    cudaEvent_t e0, e1;
    CUDA_DIE(cudaEventCreate(&e0));
    CUDA_DIE(cudaEventCreate(&e1));
    rc = pcg64_run(&a, &p, 0); /* warm-up */
    for (int r = 0; r < reps; r++) {
        float ms = 0;
        CUDA_DIE(cudaEventRecord(e0, 0));
        rc = pcg64_run(&a, &p, 0);
        CUDA_DIE(cudaEventRecord(e1, 0));
        CUDA_DIE(cudaEventSynchronize(e1));
        CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms;
    }
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    perks_cg_plan_free(&p);
    *rc_out = rc;
    return gpucheck_median(t, reps);
}

/* ---- the cuSPARSE IC(0) PCG peer ----------------------------------------------------------------
 * csric02 is cuSPARSE's only incomplete Cholesky; CUDA 13 marks it deprecated (to be removed in the
 * next major release), so its warnings are silenced here alone */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
typedef struct ic0 {
    cusparseHandle_t sp;
    cublasHandle_t bl;
    int *lrp, *lci;
    double *lva0, *lva; /* the lower triangle as given, and factored */
    long long lnnz;
    double *r, *z, *t, *p, *q;
    void *bufA, *bufL, *bufLt, *bufIC;
    cusparseSpMatDescr_t A, L;
    cusparseDnVecDescr_t vr, vz, vt, vp, vq;
    cusparseSpSVDescr_t sL, sLt;
    cusparseMatDescr_t dL;
    csric02Info_t info;
} ic0;

static void ic0_init(ic0 *c, const dsys *S)
{
    const perks_csr *H = S->H;
    const int n = S->n;
    int *lrp = (int *)malloc(sizeof(int) * (n + 1)), *lci = (int *)malloc(sizeof(int) * H->nnz);
    double *lva = (double *)malloc(8 * H->nnz);
    long long k = 0;
    lrp[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int e = H->row_ptr[i]; e < H->row_ptr[i + 1]; e++)
            if (H->col[e] <= i) lci[k] = H->col[e], lva[k++] = H->val[e];
        lrp[i + 1] = (int)k;
    }
    c->lnnz = k;
    CUSPARSE_DIE(cusparseCreate(&c->sp));
    CUBLAS_DIE(cublasCreate(&c->bl));
    CUDA_DIE(cudaMalloc(&c->lrp, sizeof(int) * (n + 1)));
    CUDA_DIE(cudaMalloc(&c->lci, sizeof(int) * k));
    CUDA_DIE(cudaMalloc(&c->lva0, 8 * k));
    CUDA_DIE(cudaMalloc(&c->lva, 8 * k));
    CUDA_DIE(cudaMemcpy(c->lrp, lrp, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(c->lci, lci, sizeof(int) * k, cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(c->lva0, lva, 8 * k, cudaMemcpyHostToDevice));
    free(lrp), free(lci), free(lva);
    double **v[5] = {&c->r, &c->z, &c->t, &c->p, &c->q};
    cusparseDnVecDescr_t *d[5] = {&c->vr, &c->vz, &c->vt, &c->vp, &c->vq};
    for (int j = 0; j < 5; j++) {
        CUDA_DIE(cudaMalloc(v[j], 8 * (size_t)n));
        CUSPARSE_DIE(cusparseCreateDnVec(d[j], n, *v[j], CUDA_R_64F));
    }
    CUSPARSE_DIE(cusparseCreateCsr(&c->A, n, n, S->nnz, S->rp, S->ci, S->va, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CUSPARSE_DIE(cusparseCreateCsr(&c->L, n, n, k, c->lrp, c->lci, c->lva, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseFillMode_t fl = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t dt = CUSPARSE_DIAG_TYPE_NON_UNIT;
    CUSPARSE_DIE(cusparseSpMatSetAttribute(c->L, CUSPARSE_SPMAT_FILL_MODE, &fl, sizeof fl));
    CUSPARSE_DIE(cusparseSpMatSetAttribute(c->L, CUSPARSE_SPMAT_DIAG_TYPE, &dt, sizeof dt));
    const double one = 1, zero = 0;
    size_t sz = 0;
    CUSPARSE_DIE(cusparseSpMV_bufferSize(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->vp, &zero, c->vq,
                                         CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &sz));
    CUDA_DIE(cudaMalloc(&c->bufA, sz ? sz : 1));
    CUSPARSE_DIE(cusparseCreateMatDescr(&c->dL));
    CUSPARSE_DIE(cusparseSetMatType(c->dL, CUSPARSE_MATRIX_TYPE_GENERAL));
    CUSPARSE_DIE(cusparseSetMatFillMode(c->dL, CUSPARSE_FILL_MODE_LOWER));
    CUSPARSE_DIE(cusparseSetMatDiagType(c->dL, CUSPARSE_DIAG_TYPE_NON_UNIT));
    CUSPARSE_DIE(cusparseCreateCsric02Info(&c->info));
    int isz = 0;
    CUSPARSE_DIE(cusparseDcsric02_bufferSize(c->sp, n, (int)k, c->dL, c->lva, c->lrp, c->lci, c->info, &isz));
    CUDA_DIE(cudaMalloc(&c->bufIC, isz ? isz : 1));
    CUSPARSE_DIE(cusparseSpSV_createDescr(&c->sL));
    CUSPARSE_DIE(cusparseSpSV_createDescr(&c->sLt));
    c->bufL = c->bufLt = NULL;
}

/* factor (analysis included) and solve from x = 0; iterations, or -1 - i at a zero pivot i */
static int ic0_solve(ic0 *c, const dsys *S, double tol, int max_iter, double *setup_ms)
{
    const int n = S->n;
    const double one = 1, zero = 0;
    cudaEvent_t e0, e1;
    CUDA_DIE(cudaEventCreate(&e0));
    CUDA_DIE(cudaEventCreate(&e1));
    CUDA_DIE(cudaEventRecord(e0, 0));
    CUDA_DIE(cudaMemcpy(c->lva, c->lva0, 8 * c->lnnz, cudaMemcpyDeviceToDevice));
    CUSPARSE_DIE(cusparseDcsric02_analysis(c->sp, n, (int)c->lnnz, c->dL, c->lva, c->lrp, c->lci, c->info,
                                           CUSPARSE_SOLVE_POLICY_NO_LEVEL, c->bufIC));
    CUSPARSE_DIE(cusparseDcsric02(c->sp, n, (int)c->lnnz, c->dL, c->lva, c->lrp, c->lci, c->info,
                                  CUSPARSE_SOLVE_POLICY_NO_LEVEL, c->bufIC));
    int piv = -1;
    cusparseStatus_t st = cusparseXcsric02_zeroPivot(c->sp, c->info, &piv);
    if (st == CUSPARSE_STATUS_ZERO_PIVOT) {
        cudaEventDestroy(e0), cudaEventDestroy(e1);
        return -1 - piv;
    }
    size_t s1 = 0, s2 = 0;
    CUSPARSE_DIE(cusparseSpSV_bufferSize(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->L, c->vr, c->vt,
                                         CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, c->sL, &s1));
    CUSPARSE_DIE(cusparseSpSV_bufferSize(c->sp, CUSPARSE_OPERATION_TRANSPOSE, &one, c->L, c->vt, c->vz, CUDA_R_64F,
                                         CUSPARSE_SPSV_ALG_DEFAULT, c->sLt, &s2));
    if (!c->bufL) CUDA_DIE(cudaMalloc(&c->bufL, s1 ? s1 : 1));
    if (!c->bufLt) CUDA_DIE(cudaMalloc(&c->bufLt, s2 ? s2 : 1));
    CUSPARSE_DIE(cusparseSpSV_analysis(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->L, c->vr, c->vt, CUDA_R_64F,
                                       CUSPARSE_SPSV_ALG_DEFAULT, c->sL, c->bufL));
    CUSPARSE_DIE(cusparseSpSV_analysis(c->sp, CUSPARSE_OPERATION_TRANSPOSE, &one, c->L, c->vt, c->vz, CUDA_R_64F,
                                       CUSPARSE_SPSV_ALG_DEFAULT, c->sLt, c->bufLt));
    CUDA_DIE(cudaEventRecord(e1, 0));
    CUDA_DIE(cudaEventSynchronize(e1));
    float ms = 0;
    CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
    *setup_ms = ms;
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    /* PCG, host pointer mode */
    double bb, rr, rz, pq, rz1;
    CUDA_DIE(cudaMemset(S->x, 0, 8 * (size_t)n));
    CUDA_DIE(cudaMemcpy(c->r, S->b, 8 * (size_t)n, cudaMemcpyDeviceToDevice));
    CUBLAS_DIE(cublasDdot(c->bl, n, S->b, 1, S->b, 1, &bb));
    rr = bb;
    CUSPARSE_DIE(cusparseSpSV_solve(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->L, c->vr, c->vt, CUDA_R_64F,
                                    CUSPARSE_SPSV_ALG_DEFAULT, c->sL));
    CUSPARSE_DIE(cusparseSpSV_solve(c->sp, CUSPARSE_OPERATION_TRANSPOSE, &one, c->L, c->vt, c->vz, CUDA_R_64F,
                                    CUSPARSE_SPSV_ALG_DEFAULT, c->sLt));
    CUBLAS_DIE(cublasDdot(c->bl, n, c->r, 1, c->z, 1, &rz));
    CUDA_DIE(cudaMemcpy(c->p, c->z, 8 * (size_t)n, cudaMemcpyDeviceToDevice));
    int it = 0;
    while (it < max_iter && !(rr <= tol * tol * bb)) {
        CUSPARSE_DIE(cusparseSpMV(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->vp, &zero, c->vq, CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, c->bufA));
        CUBLAS_DIE(cublasDdot(c->bl, n, c->p, 1, c->q, 1, &pq));
        const double al = rz / pq, nal = -al;
        CUBLAS_DIE(cublasDaxpy(c->bl, n, &al, c->p, 1, S->x, 1));
        CUBLAS_DIE(cublasDaxpy(c->bl, n, &nal, c->q, 1, c->r, 1));
        CUBLAS_DIE(cublasDdot(c->bl, n, c->r, 1, c->r, 1, &rr));
        it++;
        if (rr <= tol * tol * bb) break;
        CUSPARSE_DIE(cusparseSpSV_solve(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->L, c->vr, c->vt, CUDA_R_64F,
                                        CUSPARSE_SPSV_ALG_DEFAULT, c->sL));
        CUSPARSE_DIE(cusparseSpSV_solve(c->sp, CUSPARSE_OPERATION_TRANSPOSE, &one, c->L, c->vt, c->vz, CUDA_R_64F,
                                        CUSPARSE_SPSV_ALG_DEFAULT, c->sLt));
        CUBLAS_DIE(cublasDdot(c->bl, n, c->r, 1, c->z, 1, &rz1));
        const double be = rz1 / rz;
        rz = rz1;
        CUBLAS_DIE(cublasDscal(c->bl, n, &be, c->p, 1));
        CUBLAS_DIE(cublasDaxpy(c->bl, n, &one, c->z, 1, c->p, 1));
    }
    return it;
}

static void ic0_free(ic0 *c)
{
    cusparseDestroySpMat(c->A), cusparseDestroySpMat(c->L);
    cusparseDestroyDnVec(c->vr), cusparseDestroyDnVec(c->vz), cusparseDestroyDnVec(c->vt);
    cusparseDestroyDnVec(c->vp), cusparseDestroyDnVec(c->vq);
    cusparseSpSV_destroyDescr(c->sL), cusparseSpSV_destroyDescr(c->sLt);
    cusparseDestroyMatDescr(c->dL), cusparseDestroyCsric02Info(c->info);
    cudaFree(c->lrp), cudaFree(c->lci), cudaFree(c->lva0), cudaFree(c->lva);
    cudaFree(c->r), cudaFree(c->z), cudaFree(c->t), cudaFree(c->p), cudaFree(c->q);
    cudaFree(c->bufA), cudaFree(c->bufL), cudaFree(c->bufLt), cudaFree(c->bufIC);
    cusparseDestroy(c->sp), cublasDestroy(c->bl);
}

#pragma GCC diagnostic pop

/* ---- one system ------------------------------------------------------------------------------ */
static void bench_system(const char *name, const perks_csr *H, double tol)
{
    dsys S;
    const int n = H->n_rows;
    S.n = n, S.nnz = H->nnz, S.H = H;
    S.hb = (double *)malloc(8 * (size_t)n);
    for (int i = 0; i < n; i++) S.hb[i] = gpucheck_uniform(); /* [-1, 1) */
    CUDA_DIE(cudaMalloc(&S.rp, sizeof(int) * (n + 1)));
    CUDA_DIE(cudaMalloc(&S.ci, sizeof(int) * H->nnz));
    CUDA_DIE(cudaMalloc(&S.va, 8 * H->nnz));
    CUDA_DIE(cudaMalloc(&S.b, 8 * (size_t)n));
    CUDA_DIE(cudaMalloc(&S.x, 8 * (size_t)n));
    CUDA_DIE(cudaMemcpy(S.rp, H->row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(S.ci, H->col, sizeof(int) * H->nnz, cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(S.va, H->val, 8 * H->nnz, cudaMemcpyHostToDevice));
    CUDA_DIE(cudaMemcpy(S.b, S.hb, 8 * (size_t)n, cudaMemcpyHostToDevice));
    const int max_iter = 100000;
    perks_cg_opts o = perks_cg_defaults();
    o.tol = tol, o.max_iter = max_iter, o.jacobi = 1, o.blocks = g_blocks;
    perks_cg_result res;
    int rc;
    char extra[160];
    const double jac = perks_time(&S, &o, &res, &rc);
    snprintf(extra, sizeof extra, "path %d, tier %d, %d blocks", res.path, g_tier, g_G);
    row(name, &S, "jacobi", tol, rc ? perks_strerror(rc) + 7 : "converged", res.iterations, jac, 0, true_res(&S), jac,
        extra);
    static const int degs[4] = {-1, 4, 8, 16};
    static const char *names[4] = {"cheb", "cheb4", "cheb8", "cheb16"};
    for (int d = 0; d < 4; d++) {
        perks_cg_opts oc = o;
        oc.cheb = degs[d];
        const double ms = perks_time(&S, &oc, &res, &rc);
        snprintf(extra, sizeof extra, "degree %d, [a, b] = [%.3g, %.3g], %d setup steps, tier %d, %d blocks%s",
                 res.pc_degree, res.pc_a, res.pc_b, res.pc_setup_iterations, g_tier, g_G,
                 g_ns ? ", neighbour sync" : "");
        row(name, &S, names[d], tol, rc ? perks_strerror(rc) + 7 : "converged", res.iterations, ms, res.pc_setup_ms,
            true_res(&S), jac, extra);
    }
    static const int widths[2] = {0, 16};
    static const char *fnames[2] = {"fsai", "fsai16"};
    for (int w = 0; w < 2; w++) {
        perks_cg_opts of = o;
        of.fsai = 1, of.fsai_width = widths[w];
        const double ms = perks_time(&S, &of, &res, &rc);
        snprintf(extra, sizeof extra, "width %d, nnz(G) %lld, tier %d, %d blocks%s; ms: name_run + name_plan's setup",
                 res.pc_degree, g_fnnz, g_tier, g_G, g_ns ? ", neighbour sync" : "");
        row(name, &S, fnames[w], tol, rc ? perks_strerror(rc) + 7 : "converged", res.iterations,
            rc == PERKS_SUCCESS || rc == PERKS_EINACCURATE ? ms + res.pc_setup_ms : ms, res.pc_setup_ms, true_res(&S),
            jac, extra);
    }
    if (!g_noic0) {
        ic0 c;
        double t[32], setup = 0, st[32];
        int it = 0;
        ic0_init(&c, &S);
        it = ic0_solve(&c, &S, tol, max_iter, &setup); /* warm-up */
        if (it < 0) {
            snprintf(extra, sizeof extra, "zero pivot at row %d", -1 - it);
            row(name, &S, "ic0", tol, "zero pivot", 0, 0, setup, 0, jac, extra);
        } else {
            for (int r = 0; r < reps; r++) {
                const double w0 = wall_ms();
                it = ic0_solve(&c, &S, tol, max_iter, &st[r]);
                CUDA_DIE(cudaDeviceSynchronize());
                t[r] = wall_ms() - w0;
            }
            const double tr = true_res(&S);
            row(name, &S, "ic0", tol, it >= max_iter ? "no convergence" : tr <= tol ? "converged" : "inaccurate", it,
                gpucheck_median(t, reps), gpucheck_median(st, reps), tr, jac, "cuSPARSE csric02 + SpSV");
        }
        ic0_free(&c);
    }
    cudaFree(S.rp), cudaFree(S.ci), cudaFree(S.va), cudaFree(S.b), cudaFree(S.x);
    free(S.hb);
}

static void poisson3d(perks_csr *A, int m)
{
    const int n = m * m * m;
    long long k = 0;
    memset(A, 0, sizeof *A);
    A->n_rows = A->n_cols = n;
    A->row_ptr = (int *)calloc((size_t)n + 1, sizeof(int));
    A->col = (int *)malloc(sizeof(int) * 7 * (size_t)n);
    A->val = (double *)malloc(8 * 7 * (size_t)n);
    for (int z = 0; z < m; z++)
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                const int i = (z * m + y) * m + x;
                const int js[7] = {z > 0 ? i - m * m : -1, y > 0 ? i - m : -1, x > 0 ? i - 1 : -1, i,
                                   x < m - 1 ? i + 1 : -1, y < m - 1 ? i + m : -1, z < m - 1 ? i + m * m : -1};
                for (int e = 0; e < 7; e++)
                    if (js[e] >= 0) A->col[k] = js[e], A->val[k++] = js[e] == i ? 6.0 : -1.0;
                A->row_ptr[i + 1] = (int)k;
            }
    A->nnz = k;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    double tols[2] = {1e-8, 1e-10};
    int ntol = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) tols[0] = atof(argv[++i]), ntol = 1;
        else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) g_blocks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-ic0")) g_noic0 = 1;
        else {
            fprintf(stderr, "usage: %s [--reps N] [--only TEXT] [--tol T] [--blocks G] [--no-ic0]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    if (reps > 32) reps = 32;
    {
        cudaDeviceProp pr;
        CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
        printf("device %s, reps %d (median)\n", pr.name, reps);
    }
    printf("%-16s %8s %9s  %-8s %6s  %-14s %6s  %10s  %8s  %9s  %6s  %7s  %s\n", "system", "n", "nnz", "solver", "tol",
           "status", "iters", "ms", "setup ms", "true res", "floor", "x jac", "notes");
    static const char *files[] = {"bcsstk01", "494_bus", "bcsstk05", "1138_bus", "Trefethen_2000", "bcsstk09",
                                  "bcsstk21", "crystm01", "msc04515", "bcsstk13", "bcsstk38",       "bcsstk25"};
    for (int f = 0; f < (int)(sizeof files / sizeof *files) + 1; f++) {
        perks_csr A;
        const char *name = f < 12 ? files[f] : "poisson3d 64^3";
        if (only && !strstr(name, only)) continue;
        if (f < 12) {
            const char *dirs[] = {"../shared/data/mtx", ".data/mtx"};
            perks_mtx_error e;
            char path[512];
            int rc = -1;
            for (int d = 0; d < 2 && rc; d++) {
                snprintf(path, sizeof path, "%s/%s.mtx", dirs[d], name);
                rc = perks_mtx_read_path(path, &A, &e);
            }
            if (rc) {
                printf("skip %s: %s\n", name, perks_strerror(rc));
                continue;
            }
        } else poisson3d(&A, 64);
        for (int t = 0; t < ntol; t++) bench_system(name, &A, tols[t]);
        perks_csr_free(&A);
    }
    return 0;
}
