/* examples/cg_poisson.cu -- the 3D Poisson equation -laplace(u) = f on the unit cube (Dirichlet u = 0),
 * solved matrix-free with perks/cg_stencil.cuh beside the same system in CSR with perks/cg.cuh.
 *   cg_poisson [--n N] [--tol T] [--no-csr]
 * The grid: N^3 interior points (256 by default), h = 1 / (N + 1); the 7-point operator times h^2:
 * centre 6, neighbours -1 (ONCHIP_SHAPE_STAR3D_R1).  The exact solution is
 * u = 64 x(1-x) y(1-y) z(1-z) (largest value 1), a quadratic in each direction, on which the 7-point
 * Laplacian is exact: the discrete solution equals u at the grid points, so the error of x against
 * u is the solver's alone.  For each solve (matrix-free double, matrix-free mixed, CSR double) the
 * example prints its status, iterations, the true residual it reports, the wall time and the
 * largest error |x - u|, which must stay below tol sqrt(N^3) (||x - u|| <= ||A^-1|| ||b - A x||,
 * with ||A^-1|| ||b|| below sqrt(N^3) for this u).  --no-csr: the matrix-free solves only (the CSR
 * matrix of 256^3 takes 1.6 GB on the host and 2.3 GB on the GPU).  Exit status 0 when every solve
 * converged within that error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perks/cg.cuh>
#include <perks/cg_stencil.cuh>

PERKS_CG_STENCIL3D_DEFINE(poisson, double, ONCHIP_SHAPE_STAR3D_R1)
PERKS_CG_STENCIL3D_DEFINE(poisson_mixed, perks_cg_mixed, ONCHIP_SHAPE_STAR3D_R1)
PERKS_CG_DEFINE(csr, double, 256)

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                            \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* the 7-point operator as CSR (columns ascending) */
static void poisson_csr(int m, int **rp, int **ci, double **va, long long *nnz)
{
    const int n = m * m * m;
    long long k = 0;
    *rp = (int *)malloc(sizeof(int) * ((size_t)n + 1));
    *ci = (int *)malloc(sizeof(int) * 7 * (size_t)n);
    *va = (double *)malloc(sizeof(double) * 7 * (size_t)n);
    if (!*rp || !*ci || !*va) { fprintf(stderr, "cg_poisson: out of host memory for the CSR matrix\n"); exit(2); }
    (*rp)[0] = 0;
    for (int i = 0; i < n; i++) {
        const int x = i % m, y = i / m % m, z = i / (m * m);
#define PUT(c, v) ((*ci)[k] = (c), (*va)[k] = (v), k++)
        if (z > 0) PUT(i - m * m, -1.0);
        if (y > 0) PUT(i - m, -1.0);
        if (x > 0) PUT(i - 1, -1.0);
        PUT(i, 6.0);
        if (x < m - 1) PUT(i + 1, -1.0);
        if (y < m - 1) PUT(i + m, -1.0);
        if (z < m - 1) PUT(i + m * m, -1.0);
#undef PUT
        (*rp)[i + 1] = (int)k;
    }
    *nnz = k;
}

/* u = 64 x(1-x) y(1-y) z(1-z) at grid point (a, b, c) (1-based), and f = -laplace(u) there */
static double u_at(int a, int b, int c, double h)
{
    const double x = a * h, y = b * h, z = c * h;
    return 64 * x * (1 - x) * y * (1 - y) * z * (1 - z);
}
static double f_at(int a, int b, int c, double h)
{
    const double x = a * h, y = b * h, z = c * h, X = x * (1 - x), Y = y * (1 - y), Z = z * (1 - z);
    return 128 * (Y * Z + X * Z + X * Y);
}

/* the largest |x - u| over the grid (max |u| = 1) */
static double max_error(const double *x, int m)
{
    const double h = 1.0 / (m + 1);
    double e = 0;
    for (int i = 0; i < m * m * m; i++) {
        const double d = fabs(x[i] - u_at(i % m + 1, i / m % m + 1, i / (m * m) + 1, h));
        if (!(d <= e)) e = d; /* NaN counts */
    }
    return e;
}

static int report(const char *what, int rc, const perks_cg_result *r, double ms, const double *hx, int m, double bound)
{
    const double err = max_error(hx, m);
    printf("  %-22s %-28s %5d it  true residual %.2e  %9.2f ms  max error %.3e\n", what,
           rc ? perks_strerror(rc) : "converged", r->iterations, r->true_residual, ms, err);
    return rc == PERKS_SUCCESS && err <= bound;
}

int main(int argc, char **argv)
{
    int m = 256, csr_too = 1;
    double tol = 1e-8;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) m = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--no-csr")) csr_too = 0;
        else { fprintf(stderr, "usage: %s [--n N] [--tol T] [--no-csr]\n", argv[0]); return 2; }
    }
    if (m < 2 || m > 1024 || !(tol > 0)) { fprintf(stderr, "cg_poisson: need 2 <= N <= 1024 and tol > 0\n"); return 2; }
    const int n = m * m * m;
    const double h = 1.0 / (m + 1);
    /* the operator is h^2 (-laplace): b = h^2 f */
    double *hb = (double *)malloc(sizeof(double) * n), *hx = (double *)malloc(sizeof(double) * n);
    if (!hb || !hx) { fprintf(stderr, "cg_poisson: out of host memory\n"); return 2; }
    for (int i = 0; i < n; i++) hb[i] = h * h * f_at(i % m + 1, i / m % m + 1, i / (m * m) + 1, h);
    const double bound = tol * sqrt((double)n);
    double *db, *dx;
    CHECK_CUDA(cudaMalloc(&db, sizeof(double) * n));
    CHECK_CUDA(cudaMalloc(&dx, sizeof(double) * n));
    CHECK_CUDA(cudaMemcpy(db, hb, sizeof(double) * n, cudaMemcpyHostToDevice));
    printf("cg_poisson: %d^3 grid (%d unknowns), 7 points, tol %.0e; error bound tol sqrt(n) = %.2e\n", m, n, tol,
           bound);
    perks_cg_opts o = perks_cg_defaults();
    o.tol = tol, o.max_iter = 100000;
    const double w[7] = {6, -1, -1, -1, -1, -1, -1};
    perks_cg_result r;
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        CHECK_CUDA(cudaMemset(dx, 0xff, sizeof(double) * n)); /* poisoned: the solve starts from x = 0 */
        const double t0 = now_ms();
        perks_cgs_args a = {};
        a.nx = a.ny = a.nz = m, a.w = w, a.b = db, a.x = dx, a.opts = o, a.result = &r;
        const int rc = k ? poisson_mixed_launch(&a, 0) : poisson_launch(&a, 0); /* plan, run, free */
        const double ms = now_ms() - t0;
        CHECK_CUDA(cudaMemcpy(hx, dx, sizeof(double) * n, cudaMemcpyDeviceToHost));
        ok &= report(k ? "matrix-free mixed" : "matrix-free double", rc, &r, ms, hx, m, bound);
    }
    if (csr_too) {
        int *rp, *ci, *drp, *dci;
        double *va, *dva;
        long long nnz;
        poisson_csr(m, &rp, &ci, &va, &nnz);
        CHECK_CUDA(cudaMalloc(&drp, sizeof(int) * ((size_t)n + 1)));
        CHECK_CUDA(cudaMalloc(&dci, sizeof(int) * (size_t)nnz));
        CHECK_CUDA(cudaMalloc(&dva, sizeof(double) * (size_t)nnz));
        CHECK_CUDA(cudaMemcpy(drp, rp, sizeof(int) * ((size_t)n + 1), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dci, ci, sizeof(int) * (size_t)nnz, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(dva, va, sizeof(double) * (size_t)nnz, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemset(dx, 0xff, sizeof(double) * n));
        const double t0 = now_ms();
        perks_cg_args a = {};
        a.n = n, a.nnz = nnz, a.row_ptr = drp, a.col = dci, a.val = dva, a.b = db, a.x = dx, a.opts = o, a.result = &r;
        const int rc = csr_launch(&a, 0);
        const double ms = now_ms() - t0;
        CHECK_CUDA(cudaMemcpy(hx, dx, sizeof(double) * n, cudaMemcpyDeviceToHost));
        ok &= report("CSR double (cg.cuh)", rc, &r, ms, hx, m, bound);
        cudaFree(drp), cudaFree(dci), cudaFree(dva), free(rp), free(ci), free(va);
    }
    cudaFree(db), cudaFree(dx), free(hb), free(hx);
    printf("cg_poisson: %s\n", ok ? "every solve converged, errors within the bound" : "FAILED");
    return ok ? 0 : 1;
}
