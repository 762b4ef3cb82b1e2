/* bench/perks_cg_divk.cu -- CG for -div(k grad u) = b on an n^3 grid (7 points, h = 1, zero outside),
 * k a cell field with 1000x jumps, Jacobi preconditioning, time to a true residual of --tol (1e-8)
 * from x = 0, every solver in the same run:
 *   mfree     PERKS_CG_STENCIL3D_DEFINE(.., double, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK):
 *             the operator from k on the fly, 1 / the diagonal a cell from name_plan
 *   mfree-mixed  the same with T perks_cg_mixed (float iterations, double replacements)
 *   csr       PERKS_CG_DEFINE(.., double, 256), the planner's path, on the same operator assembled as
 *             CSR on the host (the harmonic face rule of onchip/operator.h, written out)
 * Each time: the median of --reps runs of name_run (plan made once, outside; its ms printed as
 * setup), iterations, status, the true residual ||b - A x|| / ||b|| computed here in double from
 * the CSR.  Per iteration beside its floor (bytes over 4.27 TB/s): mfree 12 passes of 8 B a cell (8
 * vector passes, k read by both sweeps, 1 / diagonal read and z written by phase B), mfree-mixed 12
 * of 4 B, csr 12 B a nonzero + 4 B a row + 6 vector passes of 8 B.  "x csr": csr's ms over the row's.
 * k: "layers" (1 below z = n/2, 1000 above, each cell +-30 %) and "blocks" (8^3 blocks, k
 * log-uniform in [1e-3, 1]), b uniform in [-1, 1).
 * usage: perks_cg_divk [--reps N] [--tol T] [--sizes 64,128,256] [--arith]   (--arith: the
 * arithmetic face rule, in the CSR too) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perks/cg.cuh>
#include <perks/cg_stencil.cuh>
#include <perks/mtx.h>

#include "gpucheck.h"

PERKS_CG_DEFINE(csr64, double, 256)
PERKS_CG_STENCIL3D_DEFINE(mfk, double, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)
PERKS_CG_STENCIL3D_DEFINE(mfkm, perks_cg_mixed, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)

#define BW 4.27e12

static int reps = 5, g_face = ONCHIP_FACE_HARMONIC;

/* wall-clock ms (name_plan and name_run are synchronous) */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

/* k of the kind (0 layers, 1 blocks) on an n^3 grid */
static void kfield(int kind, int n, double *k)
{
    const int nb = (n + 7) / 8;
    double *blk = (double *)malloc(sizeof(double) * (size_t)nb * nb * nb);
    for (int b = 0; b < nb * nb * nb; b++) blk[b] = pow(10.0, -1.5 * (gpucheck_uniform() + 1));
    for (long long i = 0; i < (long long)n * n * n; i++) {
        const int x = (int)(i % n), y = (int)(i / n % n), z = (int)(i / ((long long)n * n));
        k[i] = kind == 0 ? (z < n / 2 ? 1.0 : 1000.0) * (1 + 0.3 * gpucheck_uniform())
                         : blk[x / 8 + nb * (y / 8 + nb * (z / 8))];
    }
    free(blk);
}

/* the operator as CSR (columns ascending): -w k_f off the diagonal, the sum on it, w = 1 */
static void assemble(int n, const double *k, perks_csr *A)
{
    const long long N = (long long)n * n * n;
    memset(A, 0, sizeof *A);
    A->n_rows = A->n_cols = (int)N;
    A->row_ptr = (int *)malloc(sizeof(int) * (size_t)(N + 1));
    A->col = (int *)malloc(sizeof(int) * (size_t)N * 7);
    A->val = (double *)malloc(sizeof(double) * (size_t)N * 7);
    static const int off[6][3] = {{0, 0, -1}, {0, -1, 0}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    long long e = 0;
    A->row_ptr[0] = 0;
    for (long long i = 0; i < N; i++) {
        const int x = (int)(i % n), y = (int)(i / n % n), z = (int)(i / ((long long)n * n));
        double d = 0;
        long long dpos = -1;
        for (int m = 0; m < 6; m++) {
            const int x1 = x + off[m][0], y1 = y + off[m][1], z1 = z + off[m][2];
            const int out = x1 < 0 || x1 >= n || y1 < 0 || y1 >= n || z1 < 0 || z1 >= n;
            const long long j = out ? -1 : x1 + (long long)n * (y1 + (long long)n * z1);
            const double kn = out ? k[i] : k[j];
            const double kf = g_face == ONCHIP_FACE_HARMONIC ? 2 * k[i] * kn / (k[i] + kn) : 0.5 * (k[i] + kn);
            d += kf;
            if (m == 3) dpos = e++; /* the diagonal between -x and +x */
            if (!out) A->col[e] = (int)j, A->val[e] = -kf, e++;
        }
        A->col[dpos] = (int)i, A->val[dpos] = d;
        A->row_ptr[i + 1] = (int)e;
    }
    A->nnz = e;
}

static double host_resid(const perks_csr *A, const double *b, const double *x)
{
    double rr = 0, bb = 0;
    for (int i = 0; i < A->n_rows; i++) {
        double s = 0;
        for (int e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) s += A->val[e] * x[A->col[e]];
        rr += (b[i] - s) * (b[i] - s), bb += b[i] * b[i];
    }
    return sqrt(rr / bb);
}

typedef int (*plan_fn)(const perks_cgs_args *, perks_cgs_plan *);
typedef int (*run_fn)(const perks_cgs_args *, const perks_cgs_plan *, cudaStream_t);

/* one row: median ms of reps name_run calls after a warm-up, the true residual of the last x */
static void row(const char *sys, long long N, const char *solver, double ms, double setup, const perks_cg_result *r,
                int rc, double tres, double floor_us, double csr_ms)
{
    const double us = r->iterations ? 1e3 * ms / r->iterations : 0;
    printf("%-14s %10lld  %-12s %-14s %6d  %9.2f  %8.2f  %9.2e  %8.1f  %8.1f  %5.0f%%  %6.2f\n", sys, N, solver,
           rc ? perks_strerror(rc) : "ok", r->iterations, ms, setup, tres, us, floor_us,
           us > 0 ? 100 * floor_us / us : 0, ms > 0 ? csr_ms / ms : 0);
}

static double mfree_time(plan_fn plan, run_fn run, perks_cgs_args *a, double *setup, int *rc_out)
{
    perks_cgs_plan p;
    double t[32];
    const double t0 = now_ms();
    int rc = plan(a, &p);
    CUDA_DIE(cudaDeviceSynchronize());
    *setup = now_ms() - t0;
    if (rc) return *rc_out = rc, perks_cgs_plan_free(&p), 0;
    rc = run(a, &p, 0); /* warm-up */
    for (int k = 0; k < reps; k++) {
        const double s = now_ms();
        rc = run(a, &p, 0);
        t[k] = now_ms() - s;
    }
    perks_cgs_plan_free(&p);
    *rc_out = rc;
    return gpucheck_median(t, reps);
}

static double csr_time(perks_cg_args *a, double *setup, int *rc_out)
{
    perks_cg_plan p;
    double t[32];
    const double t0 = now_ms();
    int rc = csr64_plan(a, &p);
    CUDA_DIE(cudaDeviceSynchronize());
    *setup = now_ms() - t0;
    if (rc) return *rc_out = rc, perks_cg_plan_free(&p), 0;
    rc = csr64_run(a, &p, 0);
    for (int k = 0; k < reps; k++) {
        const double s = now_ms();
        rc = csr64_run(a, &p, 0);
        t[k] = now_ms() - s;
    }
    perks_cg_plan_free(&p);
    *rc_out = rc;
    return gpucheck_median(t, reps);
}

int main(int argc, char **argv)
{
    double tol = 1e-8;
    int sizes[8] = {64, 128, 256}, ns = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--arith")) g_face = ONCHIP_FACE_ARITH;
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            ns = 0;
            for (char *s = strtok(argv[++i], ","); s && ns < 8; s = strtok(NULL, ",")) sizes[ns++] = atoi(s);
        } else {
            fprintf(stderr, "usage: %s [--reps N] [--tol T] [--sizes 64,128,256] [--arith]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    if (reps > 32) reps = 32;
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    printf("device %s, reps %d (median), tol %.0e, Jacobi, %s faces\n", pr.name, reps, tol, onchip_face_name(g_face));
    printf("%-14s %10s  %-12s %-14s %6s  %9s  %8s  %9s  %8s  %8s  %6s  %6s\n", "system", "cells", "solver", "status",
           "iters", "ms", "setup ms", "true res", "us/it", "floor", "of fl", "x csr");
    for (int si = 0; si < ns; si++)
        for (int kind = 0; kind < 2; kind++) {
            const int n = sizes[si];
            const long long N = (long long)n * n * n;
            char sys[64];
            snprintf(sys, sizeof sys, "%d^3 %s", n, kind ? "blocks" : "layers");
            double *hk = (double *)malloc(sizeof(double) * N), *hb = (double *)malloc(sizeof(double) * N),
                   *hx = (double *)malloc(sizeof(double) * N);
            kfield(kind, n, hk);
            for (long long i = 0; i < N; i++) hb[i] = gpucheck_uniform();
            perks_csr A;
            assemble(n, hk, &A);
            double *dk, *db, *dx, *dva;
            int *drp, *dci;
            CUDA_DIE(cudaMalloc(&dk, sizeof(double) * N));
            CUDA_DIE(cudaMalloc(&db, sizeof(double) * N));
            CUDA_DIE(cudaMalloc(&dx, sizeof(double) * N));
            CUDA_DIE(cudaMalloc(&drp, sizeof(int) * (N + 1)));
            CUDA_DIE(cudaMalloc(&dci, sizeof(int) * A.nnz));
            CUDA_DIE(cudaMalloc(&dva, sizeof(double) * A.nnz));
            CUDA_DIE(cudaMemcpy(dk, hk, sizeof(double) * N, cudaMemcpyHostToDevice));
            CUDA_DIE(cudaMemcpy(db, hb, sizeof(double) * N, cudaMemcpyHostToDevice));
            CUDA_DIE(cudaMemcpy(drp, A.row_ptr, sizeof(int) * (N + 1), cudaMemcpyHostToDevice));
            CUDA_DIE(cudaMemcpy(dci, A.col, sizeof(int) * A.nnz, cudaMemcpyHostToDevice));
            CUDA_DIE(cudaMemcpy(dva, A.val, sizeof(double) * A.nnz, cudaMemcpyHostToDevice));
            perks_cg_opts o = perks_cg_defaults();
            o.tol = tol, o.jacobi = 1, o.max_iter = 200000;
            /* csr first: its ms is the rows' reference */
            perks_cg_result rc_;
            perks_cg_args ac = {};
            ac.n = (int)N, ac.nnz = A.nnz, ac.row_ptr = drp, ac.col = dci, ac.val = dva, ac.b = db, ac.x = dx;
            ac.opts = o, ac.result = &rc_;
            double setup = 0;
            int rc = 0;
            const double tc = csr_time(&ac, &setup, &rc);
            CUDA_DIE(cudaMemcpy(hx, dx, sizeof(double) * N, cudaMemcpyDeviceToHost));
            row(sys, N, "csr", tc, setup, &rc_, rc, host_resid(&A, hb, hx), 1e6 * (12.0 * A.nnz + 4.0 * N + 48.0 * N) / BW,
                tc);
            static const double const_w[7] = {6, -1, -1, -1, -1, -1, -1};
            for (int m = 0; m < 2; m++) {
                perks_cg_result r;
                perks_cgs_args a = {};
                a.nx = a.ny = a.nz = n, a.w = const_w, a.b = db, a.x = dx, a.opts = o, a.result = &r;
                a.k = dk, a.face = g_face;
                const double t = m ? mfree_time(mfkm_plan, mfkm_run, &a, &setup, &rc)
                                   : mfree_time(mfk_plan, mfk_run, &a, &setup, &rc);
                CUDA_DIE(cudaMemcpy(hx, dx, sizeof(double) * N, cudaMemcpyDeviceToHost));
                row(sys, N, m ? "mfree-mixed" : "mfree", t, setup, &r, rc, host_resid(&A, hb, hx),
                    1e6 * 12.0 * (m ? 4 : 8) * N / BW, tc);
            }
            cudaFree(dk), cudaFree(db), cudaFree(dx), cudaFree(drp), cudaFree(dci), cudaFree(dva);
            free(hk), free(hb), free(hx);
            perks_csr_free(&A);
        }
    return 0;
}
