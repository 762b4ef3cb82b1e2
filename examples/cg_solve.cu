/* examples/cg_solve.cu -- solve A x = b with perks/cg.cuh for a Matrix Market file.
 *   cg_solve [FILE.mtx] [--jacobi] [--fsai] [--cheb] [--cgear] [--float] [--mixed] [--tol T] [--max-iter N]
 * --fsai: the sparse approximate inverse G' G (opts.fsai: G built by the plan, on the device; the
 * setup time printed); --cheb: a Chebyshev polynomial of D^-1 A (opts.cheb -1, the planner's degree).
 * --cgear: Chronopoulos-Gear CG (one grid barrier per iteration; other rounding; grid path).
 * --float: the float solver (A, b, x in float; residual replacement on).  --mixed: float CG
 * iterations with x and the replaced residuals in double (PERKS_CG_DEFINE with T perks_cg_mixed),
 * double accuracy.
 * The matrix is checked first (perks_csr_check: square, no empty row, positive diagonal, symmetric).
 * Every solve reports the true residual ||b - A x|| / ||b|| beside the recurrence's; a success means
 * the true one met the tolerance.
 * With no file it solves a generated 2D Poisson system (256 x 256 grid, 5 points).  The planner
 * picks the path: one thread-block cluster for small systems on sm_90, else the cooperative grid.  b = A * ones,
 * so the exact solution is all ones and the example prints how far x is from it.  Exit status 0
 * when the solver converged, 1 otherwise (the reason is printed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perks/cg.cuh>
#include <perks/mtx.h>

PERKS_CG_DEFINE(cg64, double, 256)
PERKS_CG_DEFINE(cg32, float, 256)
PERKS_CG_DEFINE(cgm, perks_cg_mixed, 256)

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                            \
            return 2;                                                                              \
        }                                                                                          \
    } while (0)

static int poisson2d(perks_csr *A, int m)
{
    int n = m * m, k = 0;
    memset(A, 0, sizeof *A);
    A->row_ptr = (int *)malloc(sizeof(int) * (n + 1));
    A->col = (int *)malloc(sizeof(int) * 5 * n);
    A->val = (double *)malloc(sizeof(double) * 5 * n);
    if (!A->row_ptr || !A->col || !A->val) return PERKS_ENOMEM;
    A->row_ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        int x = i % m, y = i / m;
        if (y > 0) A->col[k] = i - m, A->val[k++] = -1;
        if (x > 0) A->col[k] = i - 1, A->val[k++] = -1;
        A->col[k] = i, A->val[k++] = 4;
        if (x < m - 1) A->col[k] = i + 1, A->val[k++] = -1;
        if (y < m - 1) A->col[k] = i + m, A->val[k++] = -1;
        A->row_ptr[i + 1] = k;
    }
    A->n_rows = A->n_cols = n;
    A->nnz = k;
    A->symmetric = 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int single = 0, mixed = 0;
    perks_cg_opts o = perks_cg_defaults();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--jacobi")) o.jacobi = 1;
        else if (!strcmp(argv[i], "--fsai")) o.fsai = 1;
        else if (!strcmp(argv[i], "--cheb")) o.cheb = -1;
        else if (!strcmp(argv[i], "--cgear")) o.variant = PERKS_CG_CGEAR;
        else if (!strcmp(argv[i], "--float")) single = 1;
        else if (!strcmp(argv[i], "--mixed")) mixed = 1;
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) o.tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--max-iter") && i + 1 < argc) o.max_iter = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else {
            fprintf(stderr,
                    "usage: %s [FILE.mtx] [--jacobi] [--fsai] [--cheb] [--cgear] [--float] [--mixed] [--tol T] "
                    "[--max-iter N]\n",
                    argv[0]);
            return 2;
        }
    }
    perks_csr A;
    int rc;
    if (path) {
        perks_mtx_error e;
        rc = perks_mtx_read_path(path, &A, &e);
        if (rc) {
            fprintf(stderr, "%s:%ld: %s (%s)\n", path, e.line, e.message, perks_strerror(rc));
            return 2;
        }
        long long bad_row;
        rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &bad_row);
        if (rc) { /* CG needs a symmetric positive definite matrix: say why this one is not */
            fprintf(stderr, "%s: %s (row %lld)\n", path, perks_strerror(rc), bad_row + 1);
            return 2;
        }
        printf("%s: %d x %d, %lld nonzeros%s\n", path, A.n_rows, A.n_cols, A.nnz, A.symmetric ? ", symmetric" : "");
    } else {
        if ((rc = poisson2d(&A, 256)) != 0) return 2;
        printf("no file given: 2D Poisson on a 256 x 256 grid, %d unknowns, %lld nonzeros\n", A.n_rows, A.nnz);
    }
    int n = A.n_rows;
    double *b = (double *)malloc(sizeof(double) * n), *x = (double *)malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) { /* b = A * ones */
        double s = 0;
        for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) s += A.val[k];
        b[i] = s;
    }
    int *d_rp, *d_ci;
    double *d_va, *d_b, *d_x;
    CHECK_CUDA(cudaMalloc(&d_rp, sizeof(int) * (n + 1)));
    CHECK_CUDA(cudaMalloc(&d_ci, sizeof(int) * (A.nnz ? A.nnz : 1)));
    CHECK_CUDA(cudaMalloc(&d_va, sizeof(double) * (A.nnz ? A.nnz : 1)));
    CHECK_CUDA(cudaMalloc(&d_b, sizeof(double) * n));
    CHECK_CUDA(cudaMalloc(&d_x, sizeof(double) * n));
    CHECK_CUDA(cudaMemcpy(d_rp, A.row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_ci, A.col, sizeof(int) * A.nnz, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_va, A.val, sizeof(double) * A.nnz, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_b, b, sizeof(double) * n, cudaMemcpyHostToDevice));

    /* float: the values and b rounded to float, in their own buffers */
    float *f_va = NULL, *f_b = NULL, *f_x = NULL;
    if (single) {
        float *h = (float *)malloc(sizeof(float) * (A.nnz > n ? A.nnz : n));
        for (long long k = 0; k < A.nnz; k++) h[k] = (float)A.val[k];
        CHECK_CUDA(cudaMalloc(&f_va, sizeof(float) * (A.nnz ? A.nnz : 1)));
        CHECK_CUDA(cudaMemcpy(f_va, h, sizeof(float) * A.nnz, cudaMemcpyHostToDevice));
        for (int i = 0; i < n; i++) h[i] = (float)b[i];
        CHECK_CUDA(cudaMalloc(&f_b, sizeof(float) * n));
        CHECK_CUDA(cudaMalloc(&f_x, sizeof(float) * n));
        CHECK_CUDA(cudaMemcpy(f_b, h, sizeof(float) * n, cudaMemcpyHostToDevice));
        free(h);
    }
    /* one solve: its arguments, the plan (which path and why; the device memory it holds), the run */
    perks_cg_plan p;
    perks_cg_result res = {};
    perks_cg_args a = {};
    a.n = n, a.nnz = A.nnz, a.row_ptr = d_rp, a.col = d_ci, a.opts = o, a.result = &res;
    if (single && !mixed) a.val = f_va, a.b = f_b, a.x = f_x;
    else a.val = d_va, a.b = d_b, a.x = d_x; /* double; mixed: double too, float iterations inside */
    rc = mixed ? cgm_plan(&a, &p) : single ? cg32_plan(&a, &p) : cg64_plan(&a, &p);
    if (rc) {
        fprintf(stderr, "plan: %s (%s)\n", perks_strerror(rc), p.why);
        return 2;
    }
    printf("plan: %s (%lld launches at most, %.1f MB held)\n", p.why, p.passes, p.workspace_bytes / 1e6);
    cudaEvent_t e0, e1;
    float ms = 0;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    CHECK_CUDA(cudaEventRecord(e0, 0));
    rc = mixed ? cgm_run(&a, &p, 0) : single ? cg32_run(&a, &p, 0) : cg64_run(&a, &p, 0); /* the whole solve */
    CHECK_CUDA(cudaEventRecord(e1, 0));
    if (rc == PERKS_ENULL || rc == PERKS_ESIZE || rc == PERKS_ECUDA || rc == PERKS_ENOMEM) {
        fprintf(stderr, "solve: %s\n", perks_strerror(rc));
        return 2;
    }
    CHECK_CUDA(cudaEventSynchronize(e1));
    CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (single && !mixed) { /* the answer is where the plan says: p.result (a.x) */
        float *h = (float *)malloc(sizeof(float) * n);
        CHECK_CUDA(cudaMemcpy(h, p.result, sizeof(float) * n, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) x[i] = h[i];
        free(h);
    } else
        CHECK_CUDA(cudaMemcpy(x, p.result, sizeof(double) * n, cudaMemcpyDeviceToHost));
    double err = 0;
    for (int i = 0; i < n; i++) {
        const double d = fabs(x[i] - 1);
        if (!(d <= err)) err = d; /* a NaN x shows as NaN (fmax would drop it) */
    }
    const char *what = mixed ? (res.ran == PERKS_CG_RAN_MIXED     ? " (mixed: float iterations, double x and replacements)"
                                : res.ran == PERKS_CG_RAN_FALLBACK ? " (mixed: refinement stalled, double finished)"
                                                                   : " (mixed: double alone, the system is on chip)")
                       : single ? " (float)"
                                : "";
    printf("perks cg%s%s%s: %s after %d iterations, true ||b - Ax||/||b|| = %.3e (recurrence %.3e), %d replacements, "
           "%.3f ms",
           what, o.variant ? " (Chronopoulos-Gear)" : "",
           res.precond == PERKS_CG_PC_FSAI   ? " (FSAI)"
           : res.precond == PERKS_CG_PC_CHEB ? " (Chebyshev)"
           : o.jacobi                        ? " (Jacobi)"
                                             : "",
           rc ? perks_strerror(rc) : "converged", res.iterations, res.true_residual, res.rel_residual, res.replacements,
           ms);
    if (!mixed)
        printf(" (%.2f us/iteration, the wait included; %s path, %d blocks of %d, cache tier %d)", res.iterations ? 1e3 * ms / res.iterations : 0.0,
               p.path == PERKS_CG_PATH_CLUSTER ? "cluster" : p.path == PERKS_CG_PATH_STREAM ? "stream" : "grid", p.blocks, p.block, p.cached);
    else
        printf(" (mixed precision, %s)", res.ran == PERKS_CG_RAN_DOUBLE ? "double alone" : "float iterations");
    if (res.precond == PERKS_CG_PC_FSAI || res.precond == PERKS_CG_PC_CHEB)
        printf("\npreconditioner setup %.3f ms (%s)", res.pc_setup_ms,
               res.precond == PERKS_CG_PC_FSAI ? "the plan's construction of G, not in the solve's time"
                                               : "the Jacobi steps and the host math, inside the solve's time");
    printf("\nmax |x - 1| = %.3e\n", err);
    cudaFree(f_va), cudaFree(f_b), cudaFree(f_x);
    perks_cg_plan_free(&p);
    cudaFree(d_rp), cudaFree(d_ci), cudaFree(d_va), cudaFree(d_b), cudaFree(d_x);
    free(b), free(x);
    perks_csr_free(&A);
    return rc ? 1 : 0;
}
