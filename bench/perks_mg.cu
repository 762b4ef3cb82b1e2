/* bench/perks_mg.cu -- 3D Poisson (w = {6, -1, -1, -1, -1, -1, -1}, Dirichlet) on n^3 cells, n = 64,
 * 128, 256 (and 512 with --big), time to a relative residual tol (1e-8) from x = 0, fp64, b random:
 *   jacobi    PERKS_CG_STENCIL3D_DEFINE(mf3, double, ONCHIP_SHAPE_STAR3D_R1) with opts.jacobi 1 (one
 *             persistent cooperative kernel, the stencil applied on the fly)
 *   mg        PERKS_MG3D_DEFINE(mgp, double): CG preconditioned by one symmetric geometric multigrid
 *             V-cycle an iteration (host-driven launches on the stream)
 * Each time: the median of --reps runs of name_run (plan made once, outside); iterations, the status,
 * the levels (mg) and the true residual ||b - A x|| / ||b|| of the x returned (computed here, on the
 * host, in double) beside it; "x jacobi": jacobi's ms over the row's.
 * usage: perks_mg [--reps N] [--tol T] [--big] [--only N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perks/cg_stencil.cuh>
#include <perks/mg.cuh>

#include "gpucheck.h"

PERKS_CG_STENCIL3D_DEFINE(mf3, double, ONCHIP_SHAPE_STAR3D_R1)
PERKS_MG3D_DEFINE(mgp, double)

static int reps = 5;
static const double g_w[7] = {6, -1, -1, -1, -1, -1, -1};

/* ||b - A x|| / ||b|| on the host, in double (x downloaded) */
static double true_res(int n, const double *hb, const double *dx)
{
    const long long N = (long long)n * n * n, s1 = n, s2 = (long long)n * n;
    double *x = (double *)malloc(8 * (size_t)N), rr = 0, bb = 0;
    if (!x) {
        fprintf(stderr, "perks_mg: out of host memory\n");
        exit(2);
    }
    CUDA_DIE(cudaMemcpy(x, dx, 8 * (size_t)N, cudaMemcpyDeviceToHost));
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int c = 0; c < n; c++) {
                const long long i = z * s2 + y * s1 + c;
                double s = g_w[0] * x[i];
                if (c > 0) s += g_w[1] * x[i - 1];
                if (c < n - 1) s += g_w[2] * x[i + 1];
                if (y > 0) s += g_w[3] * x[i - s1];
                if (y < n - 1) s += g_w[4] * x[i + s1];
                if (z > 0) s += g_w[5] * x[i - s2];
                if (z < n - 1) s += g_w[6] * x[i + s2];
                rr += (hb[i] - s) * (hb[i] - s), bb += hb[i] * hb[i];
            }
    free(x);
    return sqrt(rr / bb);
}

typedef struct timed {
    int rc, iterations, levels;
    double ms, tr;
} timed;

/* median ms of reps runs of name_run after one warm-up; the last run's result */
#define BENCH_TIME(out, PLAN, RUN, FREE, PLAN_T, a)                                                    \
    do {                                                                                               \
        PLAN_T p__;                                                                                    \
        double t__[32];                                                                                \
        (out).rc = PLAN(&(a), &p__);                                                                   \
        if ((out).rc) {                                                                                \
            printf("plan refused: %s (%s)\n", perks_strerror((out).rc), p__.why ? p__.why : "");      \
            break;                                                                                     \
        }                                                                                              \
        cudaEvent_t e0__, e1__;                                                                        \
        CUDA_DIE(cudaEventCreate(&e0__));                                                              \
        CUDA_DIE(cudaEventCreate(&e1__));                                                              \
        (out).rc = RUN(&(a), &p__, 0);                                                                 \
        for (int r__ = 0; r__ < reps; r__++) {                                                         \
            float ms__ = 0;                                                                            \
            CUDA_DIE(cudaEventRecord(e0__, 0));                                                        \
            (out).rc = RUN(&(a), &p__, 0);                                                             \
            CUDA_DIE(cudaEventRecord(e1__, 0));                                                        \
            CUDA_DIE(cudaEventSynchronize(e1__));                                                      \
            CUDA_DIE(cudaEventElapsedTime(&ms__, e0__, e1__));                                         \
            t__[r__] = ms__;                                                                           \
        }                                                                                              \
        cudaEventDestroy(e0__), cudaEventDestroy(e1__);                                                \
        FREE(&p__);                                                                                    \
        (out).ms = gpucheck_median(t__, reps);                                                         \
    } while (0)

static const char *sname(int rc)
{
    return rc == PERKS_SUCCESS ? "SUCCESS" : rc == PERKS_ENOCONV ? "ENOCONV" : rc == PERKS_EINACCURATE ? "EINACCURATE"
         : rc == PERKS_EBREAKDOWN ? "EBREAKDOWN" : "error";
}

static void row(int n, const char *solver, double tol, const timed *t, double jac_ms)
{
    char lv[16];
    if (t->levels) snprintf(lv, sizeof lv, "%d", t->levels);
    else snprintf(lv, sizeof lv, "-");
    printf("%4d^3  %-8s %6.0e  %-14s %6d  %6s  %10.3f  %9.2e  %7.2fx\n", n, solver, tol, sname(t->rc),
           t->iterations, lv, t->ms, t->tr, t->ms > 0 ? jac_ms / t->ms : 0.0);
    fflush(stdout);
}

static void bench_size(int n, double tol)
{
    const long long N = (long long)n * n * n;
    double *hb = (double *)malloc(8 * (size_t)N), *db = NULL, *dx = NULL;
    if (!hb) {
        fprintf(stderr, "perks_mg: out of host memory\n");
        exit(2);
    }
    CUDA_DIE(cudaMalloc(&db, 8 * (size_t)N));
    CUDA_DIE(cudaMalloc(&dx, 8 * (size_t)N));
    gpucheck_fill_dev<<<1024, 256>>>(db, (size_t)N, 1, 12345u, -1.0, 1.0);
    CUDA_DIE(cudaGetLastError());
    CUDA_DIE(cudaMemcpy(hb, db, 8 * (size_t)N, cudaMemcpyDeviceToHost));
    perks_cg_result res;
    perks_cgs_args a;
    memset(&a, 0, sizeof a);
    a.nx = a.ny = a.nz = n, a.w = g_w, a.b = db, a.x = dx, a.opts = perks_cg_defaults(), a.result = &res;
    a.opts.tol = tol, a.opts.max_iter = 100000;
    timed j, m;
    memset(&j, 0, sizeof j), memset(&m, 0, sizeof m);
    /* (1) Jacobi CG, matrix-free, one persistent kernel */
    a.opts.jacobi = 1;
    BENCH_TIME(j, mf3_plan, mf3_run, perks_cgs_plan_free, perks_cgs_plan, a);
    j.iterations = res.iterations;
    j.tr = j.rc == PERKS_SUCCESS || j.rc == PERKS_EINACCURATE ? true_res(n, hb, dx) : NAN;
    row(n, "jacobi", tol, &j, j.ms);
    /* (2) multigrid-preconditioned CG */
    a.opts.jacobi = 0;
    BENCH_TIME(m, mgp_plan, mgp_run, perks_mg_plan_free, perks_mg_plan, a);
    m.iterations = res.iterations, m.levels = res.pc_degree;
    m.tr = m.rc == PERKS_SUCCESS || m.rc == PERKS_EINACCURATE ? true_res(n, hb, dx) : NAN;
    row(n, "mg", tol, &m, j.ms);
    cudaFree(db), cudaFree(dx);
    free(hb);
}

int main(int argc, char **argv)
{
    double tol = 1e-8;
    int big = 0, only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--big")) big = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--reps N] [--tol T] [--big] [--only N]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    if (reps > 32) reps = 32;
    {
        cudaDeviceProp pr;
        CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
        printf("device %s, reps %d (median), 3D Poisson 7-point, fp64, x = 0, b random\n", pr.name, reps);
    }
    printf("%6s  %-8s %6s  %-14s %6s  %6s  %10s  %9s  %8s\n", "grid", "solver", "tol", "status", "iters", "levels",
           "ms", "true res", "x jacobi");
    static const int sizes[4] = {64, 128, 256, 512};
    for (int k = 0; k < (big ? 4 : 3); k++) {
        if (only && sizes[k] != only) continue;
        bench_size(sizes[k], tol);
    }
    return 0;
}
