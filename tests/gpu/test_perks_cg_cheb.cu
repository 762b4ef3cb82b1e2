/* tests/gpu/test_perks_cg_cheb.cu -- perks/cg.cuh with the Chebyshev preconditioner (opts.cheb)
 * against a CPU solve in double that runs the same two phases: Jacobi CG steps recording alpha and
 * beta, the interval of perks/cheb.h from them, then CG preconditioned by p(D^-1 A) D^-1 from the
 * steps' x.  Systems: a 2D Poisson of ragged size, a 3D diffusion operator whose conductivity jumps
 * 1000x (Jacobi's diagonal varies), a random SDD matrix with ragged rows, 1 x 1, and the SuiteSparse
 * files under ../shared/data/mtx or .data/mtx (a missing file: counted skips).  Degrees 1, 4, 8,
 * 16 and the planner's (-1), cache tier 2 (the matrix in shared memory) and 0, fp32.
 * CORRECTNESS: iterations |it - it_cpu| <= 2 + it_cpu / 10 (Ritz values from rounded alpha, beta
 * move the interval a little), the interval [a, b] within 1e-6 of the CPU's, x against the CPU's
 * x, and the host's true residual of every x called a success <= tol.  HONESTY: an indefinite
 * matrix never succeeds; a non-positive diagonal is PERKS_EDIAG; max_iter below the steps is
 * ENOCONV at max_iter; every refusal names why, makes no pass and leaves x alone (poisoned).
 * FSAI (opts.fsai): the same systems against PCG with the host's G (perks/fsai.h) in double, the
 * iterations within 2 + it / 10 of the CPU's and below Jacobi's, tiers 2 and 0, grid.sync, a narrow
 * width, fp32; an indefinite matrix refused or never a success; unsorted columns, an asymmetric
 * pattern and a NaN refused at the plan; its refusals.
 * x is poisoned (NaN) before every zero-start solve. */
#include <perks/cg.cuh>
#include <perks/cheb.h>
#include <perks/fsai.h>
#include <perks/mtx.h>
#include <limits.h>
#include <stddef.h>

#include "gpucheck.h"

PERKS_CG_DEFINE(cg64, double, 256)
PERKS_CG_DEFINE(cg32, float, 256)
PERKS_CG_DEFINE(cgm, perks_cg_mixed, 256)

/* ---- matrices (host CSR) ------------------------------------------------------------------- */
static void csr_alloc(perks_csr *A, int n, long long nnz)
{
    memset(A, 0, sizeof *A);
    A->n_rows = A->n_cols = n;
    A->row_ptr = (int *)calloc((size_t)n + 1, sizeof(int));
    A->col = (int *)malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
    A->val = (double *)malloc(sizeof(double) * (size_t)(nnz ? nnz : 1));
}

/* -div(k grad u) on nx x ny x nz cells, Dirichlet outside; k per cell (NULL: 1), the face's the
 * harmonic mean; shifted by -sigma I */
static void diffusion(perks_csr *A, int nx, int ny, int nz, const double *kc, double sigma)
{
    const int n = nx * ny * nz;
    long long k = 0;
    csr_alloc(A, n, 7LL * n);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const int i = (z * ny + y) * nx + x;
                const double ki = kc ? kc[i] : 1;
                const int nb[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z}, {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
                double diag = -sigma, off[6];
                int col[6], m = 0;
                for (int f = 0; f < 6; f++) {
                    const int X = nb[f][0], Y = nb[f][1], Z = nb[f][2];
                    if ((f >= 4 && nz == 1)) continue;
                    const int in = X >= 0 && X < nx && Y >= 0 && Y < ny && Z >= 0 && Z < nz;
                    const int j = in ? (Z * ny + Y) * nx + X : -1;
                    const double kj = in ? (kc ? kc[j] : 1) : ki, w = 2 * ki * kj / (ki + kj);
                    diag += w;
                    if (in) col[m] = j, off[m++] = -w;
                }
                /* columns in order */
                for (int u = 0; u < m; u++)
                    for (int v = u + 1; v < m; v++)
                        if (col[v] < col[u]) {
                            int t = col[u];
                            double tv = off[u];
                            col[u] = col[v], off[u] = off[v], col[v] = t, off[v] = tv;
                        }
                int placed = 0;
                for (int u = 0; u <= m; u++) {
                    if (!placed && (u == m || col[u] > i)) A->col[k] = i, A->val[k++] = diag, placed = 1;
                    if (u < m) A->col[k] = col[u], A->val[k++] = off[u];
                }
                A->row_ptr[i + 1] = (int)k;
            }
    A->nnz = k;
}

/* uniform in [0, 1) */
static double u01(void) { return 0.5 * ((double)gpucheck_uniform() + 1.0); }

/* symmetric, diagonally dominant, rows of ragged length (a few long ones), diagonals 1 .. 1000 */
static void random_sdd(perks_csr *A, int n)
{
    double *D = (double *)calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++) {
        const int per = (i % 17 == 0) ? n / 3 : 1 + (int)(u01() * 6);
        for (int t = 0; t < per; t++) {
            const int j = (int)(u01() * n) % n;
            if (j == i) continue;
            const double v = -u01();
            D[(size_t)i * n + j] = D[(size_t)j * n + i] = v;
        }
    }
    long long nnz = 0;
    for (size_t e = 0; e < (size_t)n * n; e++) nnz += D[e] != 0;
    csr_alloc(A, n, nnz + n);
    long long k = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += fabs(D[(size_t)i * n + j]);
        D[(size_t)i * n + i] = s * (1.01 + 1000.0 * u01() * (i % 5 == 0)) + 1e-3;
        for (int j = 0; j < n; j++)
            if (D[(size_t)i * n + j] != 0) A->col[k] = j, A->val[k++] = D[(size_t)i * n + j];
        A->row_ptr[i + 1] = (int)k;
    }
    A->nnz = k;
    free(D);
}

static void spmv(const perks_csr *A, const double *x, double *y)
{
    for (int i = 0; i < A->n_rows; i++) {
        double s = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) s += A->val[k] * x[A->col[k]];
        y[i] = s;
    }
}

static double true_residual(const perks_csr *A, const double *b, const double *x)
{
    const int n = A->n_rows;
    double *t = (double *)malloc(sizeof(double) * n), rr = 0, bb = 0;
    spmv(A, x, t);
    for (int i = 0; i < n; i++) rr += (b[i] - t[i]) * (b[i] - t[i]), bb += b[i] * b[i];
    free(t);
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

/* ---- the CPU solve: the same two phases in double --------------------------------------------- */
typedef struct cpu_out {
    int status, iterations, steps, degree;
    double a, b;
} cpu_out;

/* the CPU's FSAI factor while an FSAI case runs (cpu_apply applies it), else NULL */
static const perks_fsai *cpu_fsai;
static int g_light; /* --light */

/* z = p(D^-1 A) D^-1 r (c NULL: z = D^-1 r); cpu_fsai set: z = G' G r */
static void cpu_apply(const perks_csr *A, const double *dinv, const perks_cheb *c, const double *r, double *z,
                      double *dz, double *t)
{
    const int n = A->n_rows;
    if (cpu_fsai) {
        const perks_fsai *f = cpu_fsai;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = f->rp[i]; k < f->rp[i + 1]; k++) s += f->va[k] * r[f->ci[k]];
            t[i] = s;
        }
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = f->trp[j]; k < f->trp[j + 1]; k++) s += f->tva[k] * t[f->tci[k]];
            z[j] = s;
        }
        return;
    }
    const double nu0 = c ? c->nu[0] : 1;
    for (int i = 0; i < n; i++) dz[i] = z[i] = nu0 * dinv[i] * r[i];
    for (int s = 1; c && s <= c->degree; s++) {
        spmv(A, z, t);
        for (int i = 0; i < n; i++) {
            dz[i] = c->mu[s] * dz[i] + c->nu[s] * (dinv[i] * (r[i] - t[i]));
            z[i] += dz[i];
        }
    }
}

/* preconditioned CG from x (x0: as given, else 0), at most max_iter; alpha, beta recorded */
static int cpu_pcg(const perks_csr *A, const double *b, double *x, int x0, const perks_cheb *c, double tol, int max_iter,
                   double *al, double *be, int *status)
{
    const int n = A->n_rows;
    double *r = (double *)calloc(n, sizeof(double)), *z = (double *)calloc(n, sizeof(double)),
           *p = (double *)calloc(n, sizeof(double)), *q = (double *)calloc(n, sizeof(double)),
           *dz = (double *)calloc(n, sizeof(double)), *t = (double *)calloc(n, sizeof(double)),
           *dinv = (double *)calloc(n, sizeof(double));
    double rr = 0, bb = 0, rz = 0, beta = 0;
    int it = 0;
    if (!r || !z || !p || !q || !dz || !t || !dinv) {
        fprintf(stderr, "cpu_pcg: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < n; i++) {
        dinv[i] = 0;
        if (!x0) x[i] = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col[k] == i) dinv[i] = 1 / A->val[k];
    }
    spmv(A, x, t);
    for (int i = 0; i < n; i++) r[i] = b[i] - t[i], rr += r[i] * r[i], bb += b[i] * b[i];
    cpu_apply(A, dinv, c, r, z, dz, t);
    for (int i = 0; i < n; i++) rz += r[i] * z[i];
    *status = PERKS_SUCCESS;
    while (rr > tol * tol * bb) {
        if (it >= max_iter) {
            *status = PERKS_ENOCONV;
            break;
        }
        if (!(rz > 0)) {
            *status = PERKS_EBREAKDOWN;
            break;
        }
        double pq = 0;
        for (int i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
        spmv(A, p, q);
        for (int i = 0; i < n; i++) pq += p[i] * q[i];
        if (!(pq > 0)) {
            *status = PERKS_EBREAKDOWN;
            break;
        }
        const double alpha = rz / pq;
        if (it < PERKS_CHEB_KMAX) al[it] = alpha;
        rr = 0;
        for (int i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i], rr += r[i] * r[i];
        cpu_apply(A, dinv, c, r, z, dz, t);
        double rz1 = 0;
        for (int i = 0; i < n; i++) rz1 += r[i] * z[i];
        beta = rz1 / rz;
        if (it < PERKS_CHEB_KMAX) be[it] = beta;
        rz = rz1;
        ++it;
    }
    free(r), free(z), free(p), free(q), free(dz), free(t), free(dinv);
    return it;
}

/* the library's two phases on the CPU: steps Jacobi steps, then degree deg (-1: the cost model) */
static cpu_out cpu_cheb(const perks_csr *A, const double *b, double *x, int deg, int steps, double tol, int max_iter)
{
    double al[PERKS_CHEB_KMAX], be[PERKS_CHEB_KMAX], lmin, lmax;
    cpu_out o = {0, 0, 0, 0, 0, 0};
    const int s1 = steps < max_iter ? steps : max_iter;
    o.steps = cpu_pcg(A, b, x, 0, NULL, tol, s1, al, be, &o.status);
    o.iterations = o.steps;
    if (o.status != PERKS_ENOCONV || o.steps >= max_iter) return o;
    perks_cheb_rule rule;
    perks_cheb c;
    int rc = perks_cheb_lanczos_bounds(al, be, o.steps, &lmin, &lmax);
    if (!rc) rc = perks_cheb_rule_default(PERKS_CHEB_PRECOND, &rule);
    if (!rc) rc = perks_cheb_margin(&rule, lmin, lmax, &o.a, &o.b);
    o.degree = deg > 0 ? deg : rc ? 1 : perks__cg_cheb_degree(o.a, o.b);
    if (!rc) rc = perks_cheb_coeffs(o.a, o.b, o.degree, &c);
    if (rc) {
        o.status = PERKS_EBREAKDOWN;
        return o;
    }
    o.iterations += cpu_pcg(A, b, x, 1, &c, tol, max_iter - o.steps, al, be, &o.status);
    return o;
}

/* ---- the GPU solve ------------------------------------------------------------------------------ */
typedef struct gpu_cfg {
    int dbl, deg, steps, cache, max_iter;
    double tol;
    int barrier; /* opts.barrier (PERKS_CG_BAR_GRID: barriers between the steps, no neighbour flags) */
} gpu_cfg;

typedef struct gpu_out {
    int rc, planned, nsync;
    perks_cg_result res;
    const char *why;
} gpu_out;

/* fw: -1 no FSAI; -2 Jacobi CG (opts.jacobi 1, opts.cheb 0); else opts.fsai 1, opts.fsai_width fw
 * (opts.cheb 0) */
static gpu_out gpu_solve(const perks_csr *A, const double *b, double *x, const gpu_cfg *g, int fw)
{
    const int n = A->n_rows, elt = g->dbl ? 8 : 4;
    gpu_out o;
    memset(&o, 0, sizeof o);
    int *drp, *dci;
    void *dva, *db, *dx;
    CUDA_OK(cudaMalloc(&drp, sizeof(int) * (n + 1)));
    CUDA_OK(cudaMalloc(&dci, sizeof(int) * (A->nnz ? A->nnz : 1)));
    CUDA_OK(cudaMalloc(&dva, elt * (A->nnz ? A->nnz : 1)));
    CUDA_OK(cudaMalloc(&db, elt * n));
    CUDA_OK(cudaMalloc(&dx, elt * n));
    CUDA_OK(cudaMemcpy(drp, A->row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dci, A->col, sizeof(int) * A->nnz, cudaMemcpyHostToDevice));
    {
        void *hv = malloc(elt * (A->nnz ? A->nnz : 1)), *hb = malloc(elt * n);
        for (long long k = 0; k < A->nnz; k++)
            if (g->dbl) ((double *)hv)[k] = A->val[k];
            else ((float *)hv)[k] = (float)A->val[k];
        for (int i = 0; i < n; i++)
            if (g->dbl) ((double *)hb)[i] = b[i];
            else ((float *)hb)[i] = (float)b[i];
        CUDA_OK(cudaMemcpy(dva, hv, elt * A->nnz, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(db, hb, elt * n, cudaMemcpyHostToDevice));
        free(hv), free(hb);
    }
    CUDA_OK(cudaMemset(dx, 0xFF, elt * n)); /* NaN: a zero start must not read it */
    perks_cg_args a = {};
    a.n = n, a.nnz = A->nnz, a.row_ptr = drp, a.col = dci, a.val = dva, a.b = db, a.x = dx;
    a.opts = perks_cg_defaults();
    a.opts.tol = g->tol, a.opts.max_iter = g->max_iter, a.opts.cheb = g->deg, a.opts.cheb_steps = g->steps;
    a.opts.cache = g->cache, a.opts.barrier = g->barrier;
    if (fw >= 0) a.opts.fsai = 1, a.opts.fsai_width = fw, a.opts.cheb = 0;
    if (fw == -2) a.opts.jacobi = 1, a.opts.cheb = 0;
    a.result = &o.res;
    perks_cg_plan p;
    o.rc = g->dbl ? cg64_plan(&a, &p) : cg32_plan(&a, &p);
    o.why = p.why;
    o.planned = p.cached;
    o.nsync = p.args.ndep != NULL;
    if (!o.rc) o.rc = g->dbl ? cg64_run(&a, &p, 0) : cg32_run(&a, &p, 0);
    perks_cg_plan_free(&p);
    {
        void *hx = malloc(elt * n);
        CUDA_OK(cudaMemcpy(hx, dx, elt * n, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) x[i] = g->dbl ? ((double *)hx)[i] : ((float *)hx)[i];
        free(hx);
    }
    cudaFree(drp), cudaFree(dci), cudaFree(dva), cudaFree(db), cudaFree(dx);
    return o;
}

static void fill_b(double *b, int n)
{
    for (int i = 0; i < n; i++) b[i] = gpucheck_uniform();
}

/* one system, one configuration: the GPU against the CPU's two phases */
static void compare(const char *name, const perks_csr *A, const gpu_cfg *g)
{
    const int n = A->n_rows;
    double *b = (double *)malloc(sizeof(double) * n), *xc = (double *)malloc(sizeof(double) * n),
           *xg = (double *)malloc(sizeof(double) * n);
    char label[300];
    fill_b(b, n);
    cpu_out c = cpu_cheb(A, b, xc, g->deg, g->steps ? g->steps : PERKS_CG_CHEB_STEPS, g->dbl ? g->tol : 1e-5,
                         g->max_iter);
    gpu_out o = gpu_solve(A, b, xg, g, -1);
    snprintf(label, sizeof label,
             "perks cg chebyshev %s fp%d degree %d (got %d) steps %d cache %d%s: %d iterations (cpu %d), tier %d, %s",
             name, g->dbl ? 64 : 32, g->deg, o.res.pc_degree, g->steps, g->cache,
             g->barrier == PERKS_CG_BAR_GRID ? " grid.sync" : "", o.res.iterations, c.iterations, o.planned,
             o.nsync ? "neighbour flags" : "barriers");
    case_begin(label);
    const double tr = true_residual(A, b, xg);
    CHECK(o.rc == o.res.status, "rc %d, res.status %d", o.rc, o.res.status);
    CHECK(o.rc != PERKS_SUCCESS || tr <= g->tol, "SUCCESS with the host's true residual %.3g > tol %.3g", tr, g->tol);
    /* fp32: the device's residual is of b rounded to float (2^-24 relative), the host's of b */
    CHECK(o.rc != PERKS_SUCCESS || fabs(o.res.true_residual - tr) <= 1e-3 * tr + (g->dbl ? 1e-300 : 1e-7),
          "reported true residual %.6g, the host's %.6g", o.res.true_residual, tr);
    CHECK(o.res.precond == PERKS_CG_PC_CHEB, "res.precond %d", o.res.precond);
    CHECK(g->barrier != PERKS_CG_BAR_GRID || !o.nsync, "neighbour flags with grid.sync asked for");
    if (g->dbl) {
        CHECK(o.rc == c.status, "rc %d (%s), the CPU's %d (%s)", o.rc, perks_strerror(o.rc), c.status,
              perks_strerror(c.status));
        CHECK(abs(o.res.iterations - c.iterations) <= 2 + c.iterations / 10, "%d iterations, the CPU's %d",
              o.res.iterations, c.iterations);
        CHECK(o.res.pc_setup_iterations == c.steps, "%d Jacobi steps, the CPU's %d", o.res.pc_setup_iterations, c.steps);
        CHECK(o.res.pc_degree == c.degree, "degree %d, the CPU's %d", o.res.pc_degree, c.degree);
        CHECK(fabs(o.res.pc_a - c.a) <= 1e-6 * c.b && fabs(o.res.pc_b - c.b) <= 1e-6 * c.b,
              "[a, b] = [%.9g, %.9g], the CPU's [%.9g, %.9g]", o.res.pc_a, o.res.pc_b, c.a, c.b);
        CHECK(!c.degree || (o.res.pc_setup_ms > 0 && o.res.pc_setup_ms < 1e4), "setup %.3g ms", o.res.pc_setup_ms);
        if (o.rc == PERKS_SUCCESS && c.status == PERKS_SUCCESS) {
            double num = 0, den = 0;
            for (int i = 0; i < n; i++) num += (xg[i] - xc[i]) * (xg[i] - xc[i]), den += xc[i] * xc[i];
            const double rc_ = true_residual(A, b, xc);
            /* both x meet tol: they differ by at most what the two residuals allow through cond(A) */
            CHECK(sqrt(num / (den > 0 ? den : 1)) <= 1e4 * (tr + rc_) + 1e-12, "||x - x_cpu|| / ||x_cpu|| = %.3g",
                  sqrt(num / den));
        }
    } else { /* float: a success is the true residual's; else an honest EINACCURATE or ENOCONV */
        CHECK(o.rc == PERKS_SUCCESS || o.rc == PERKS_EINACCURATE || o.rc == PERKS_ENOCONV, "rc %d (%s)", o.rc,
              perks_strerror(o.rc));
        CHECK(o.rc != PERKS_EINACCURATE || o.res.true_residual > g->tol, "EINACCURATE at %.3g <= tol",
              o.res.true_residual);
    }
    case_end();
    free(b), free(xc), free(xg);
}

/* ---- honesty and refusals --------------------------------------------------------------------- */
static void honesty(void)
{
    perks_csr A;
    double *b, *x;
    /* indefinite: -Laplacian - 3 I in 2D has eigenvalues on both sides of 0 */
    diffusion(&A, 23, 19, 1, NULL, 3.0);
    b = (double *)malloc(sizeof(double) * A.n_rows), x = (double *)malloc(sizeof(double) * A.n_rows);
    fill_b(b, A.n_rows);
    case_begin("perks cg chebyshev: an indefinite matrix never succeeds");
    for (int d = 0; d < 3; d++) {
        gpu_cfg g = {1, d == 0 ? 4 : d == 1 ? -1 : 1, 4, 1, 2000, 1e-8, 0};
        gpu_out o = gpu_solve(&A, b, x, &g, -1);
        CHECK(o.rc != PERKS_SUCCESS || true_residual(&A, b, x) <= 1e-8, "degree %d: SUCCESS at %.3g", g.deg,
              true_residual(&A, b, x));
        CHECK(o.rc == PERKS_EBREAKDOWN || o.rc == PERKS_ENOCONV || o.rc == PERKS_EINACCURATE || o.rc == PERKS_SUCCESS,
              "degree %d: rc %d (%s)", g.deg, o.rc, perks_strerror(o.rc));
    }
    case_end();
    /* a negative diagonal */
    for (int k = A.row_ptr[7]; k < A.row_ptr[8]; k++)
        if (A.col[k] == 7) A.val[k] = -A.val[k];
    case_begin("perks cg chebyshev: a negative diagonal is PERKS_EDIAG");
    {
        gpu_cfg g = {1, 4, 0, 1, 100, 1e-8, 0};
        gpu_out o = gpu_solve(&A, b, x, &g, -1);
        CHECK(o.rc == PERKS_EDIAG, "rc %d (%s)", o.rc, perks_strerror(o.rc));
    }
    case_end();
    perks_csr_free(&A);
    free(b), free(x);
    /* max_iter below the Jacobi steps, and between */
    diffusion(&A, 31, 17, 1, NULL, 0);
    b = (double *)malloc(sizeof(double) * A.n_rows), x = (double *)malloc(sizeof(double) * A.n_rows);
    fill_b(b, A.n_rows);
    case_begin("perks cg chebyshev: ENOCONV at exactly max_iter (within the Jacobi steps and after them)");
    for (int m = 0; m < 2; m++) {
        gpu_cfg g = {1, 8, 20, 1, m ? 25 : 7, 1e-12, 0};
        gpu_out o = gpu_solve(&A, b, x, &g, -1);
        CHECK(o.rc == PERKS_ENOCONV && o.res.iterations == g.max_iter, "max_iter %d: rc %d, %d iterations",
              g.max_iter, o.rc, o.res.iterations);
    }
    case_end();
    perks_csr_free(&A);
    free(b), free(x);
}

/* a double system on the device (b 0, x poisoned) and the arguments over it, opts the defaults */
typedef struct dev_sys {
    int *rp, *ci;
    double *va, *b, *x;
    int n;
} dev_sys;

static dev_sys dev_upload(const perks_csr *A, perks_cg_args *a, perks_cg_result *res)
{
    dev_sys d;
    const int n = A->n_rows;
    d.n = n;
    CUDA_OK(cudaMalloc(&d.rp, sizeof(int) * (n + 1)));
    CUDA_OK(cudaMalloc(&d.ci, sizeof(int) * A->nnz));
    CUDA_OK(cudaMalloc(&d.va, 8 * A->nnz));
    CUDA_OK(cudaMalloc(&d.b, 8 * n));
    CUDA_OK(cudaMalloc(&d.x, 8 * n));
    CUDA_OK(cudaMemcpy(d.rp, A->row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d.ci, A->col, sizeof(int) * A->nnz, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d.va, A->val, 8 * A->nnz, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d.b, 0, 8 * n));
    gpucheck_poison(d.x, 8 * n);
    memset(a, 0, sizeof *a);
    a->n = n, a->nnz = A->nnz, a->row_ptr = d.rp, a->col = d.ci, a->val = d.va, a->b = d.b, a->x = d.x;
    a->opts = perks_cg_defaults(), a->result = res;
    return d;
}

static void dev_free(dev_sys *d) { cudaFree(d->rp), cudaFree(d->ci), cudaFree(d->va), cudaFree(d->b), cudaFree(d->x); }

static void refusals(void)
{
    perks_csr A;
    diffusion(&A, 8, 8, 1, NULL, 0);
    case_begin("perks cg chebyshev: refusals name why, make no pass, leave x alone");
    perks_cg_result res;
    perks_cg_args a0;
    dev_sys d = dev_upload(&A, &a0, &res);
    a0.opts.cheb = 4;
    for (int v = 0; v < 8; v++) {
        perks_cg_args a = a0;
        perks_cg_plan p;
        int want = PERKS_EUNSUPPORTED, rc;
        switch (v) {
        case 0: a.opts.cheb = 17, want = PERKS_ESIZE; break;
        case 1: a.opts.cheb = -2, want = PERKS_ESIZE; break;
        case 2: a.opts.cheb_steps = 1, want = PERKS_ESIZE; break;
        case 3: a.opts.cheb_steps = 65, want = PERKS_ESIZE; break;
        case 4: a.opts.path = PERKS_CG_PATH_CLUSTER; break;
        case 5: a.opts.variant = PERKS_CG_CGEAR; break;
        case 6: a.opts.barrier = PERKS_CG_BAR_FLAG; break;
        default: break;
        }
        rc = v == 7 ? cgm_plan(&a, &p) : cg64_plan(&a, &p);
        CHECK(rc == want, "case %d: rc %d (%s), want %d", v, rc, perks_strerror(rc), want);
        CHECK(p.passes == 0 && p.why && strstr(p.why, "refused"), "case %d: passes %lld, why %s", v, (long long)p.passes,
              p.why ? p.why : "(null)");
        CHECK(v != 7 || strstr(p.why, "Chebyshev"), "case 7: why %s", p.why);
        perks_cg_plan_free(&p);
    }
    CHECK(gpucheck_poison_changed(d.x, 8 * 64) == 0, "x changed by a refused plan");
    case_end();
    dev_free(&d);
    perks_csr_free(&A);
}

/* ---- FSAI (opts.fsai) --------------------------------------------------------------------------- */
/* one system under FSAI (width fw): the GPU against PCG with the same G in double on the CPU */
static void compare_fsai(const char *name, const perks_csr *A, const gpu_cfg *g, int fw)
{
    const int n = A->n_rows;
    double *b = (double *)malloc(sizeof(double) * n), *xc = (double *)malloc(sizeof(double) * n),
           *xg = (double *)malloc(sizeof(double) * n), al[PERKS_CHEB_KMAX], be[PERKS_CHEB_KMAX];
    char label[300];
    perks_fsai f;
    long long bad = -1;
    int cst = PERKS_SUCCESS, cit = 0;
    fill_b(b, n);
    const int frc = perks_fsai_build(n, A->row_ptr, A->col, A->val, fw, &f, &bad);
    if (!frc) {
        cpu_fsai = &f;
        cit = cpu_pcg(A, b, xc, 0, NULL, g->dbl ? g->tol : 1e-5, g->max_iter, al, be, &cst);
        cpu_fsai = NULL;
    }
    gpu_out o = gpu_solve(A, b, xg, g, fw);
    /* Jacobi on the same system, for the count (not under --light: the sanitizers' runs) */
    gpu_out j;
    memset(&j, 0, sizeof j);
    j.res.iterations = INT_MAX;
    if (!g_light) {
        double *xj = (double *)malloc(sizeof(double) * n);
        j = gpu_solve(A, b, xj, g, -2);
        free(xj);
    }
    snprintf(label, sizeof label,
             "perks cg fsai %s fp%d width %d cache %d%s: %d iterations (cpu %d, jacobi %d), tier %d, %s, setup %.2f ms",
             name, g->dbl ? 64 : 32, fw, g->cache, g->barrier == PERKS_CG_BAR_GRID ? " grid.sync" : "",
             o.res.iterations, cit, j.res.iterations, o.planned, o.nsync ? "neighbour flags" : "barriers",
             o.res.pc_setup_ms);
    case_begin(label);
    const double tr = true_residual(A, b, xg);
    CHECK(frc == PERKS_SUCCESS, "the host build: rc %d row %lld", frc, bad);
    CHECK(o.rc == o.res.status, "rc %d, res.status %d", o.rc, o.res.status);
    CHECK(o.rc != PERKS_SUCCESS || tr <= g->tol, "SUCCESS with the host's true residual %.3g > tol %.3g", tr, g->tol);
    /* fp32: the device's residual is of b rounded to float (2^-24 relative), the host's of b */
    CHECK(o.rc != PERKS_SUCCESS || fabs(o.res.true_residual - tr) <= 1e-3 * tr + (g->dbl ? 1e-300 : 1e-7),
          "reported true residual %.6g, the host's %.6g", o.res.true_residual, tr);
    CHECK(o.res.precond == PERKS_CG_PC_FSAI, "res.precond %d", o.res.precond);
    CHECK(o.res.pc_degree == (fw ? fw : PERKS_FSAI_WIDTH), "res.pc_degree %d, the width %d", o.res.pc_degree, fw);
    CHECK(o.res.pc_setup_ms > 0 && o.res.pc_setup_ms < 1e4, "setup %.3g ms", o.res.pc_setup_ms);
    CHECK(g->barrier != PERKS_CG_BAR_GRID || !o.nsync, "neighbour flags with grid.sync asked for");
    if (g->dbl) {
        CHECK(o.rc == cst, "rc %d (%s), the CPU's %d (%s)", o.rc, perks_strerror(o.rc), cst, perks_strerror(cst));
        CHECK(abs(o.res.iterations - cit) <= 2 + cit / 10, "%d iterations, the CPU's %d", o.res.iterations, cit);
        CHECK(n < 50 || o.res.iterations < j.res.iterations, "%d iterations, Jacobi's %d", o.res.iterations,
              j.res.iterations);
        if (o.rc == PERKS_SUCCESS && cst == PERKS_SUCCESS) {
            double num = 0, den = 0;
            for (int i = 0; i < n; i++) num += (xg[i] - xc[i]) * (xg[i] - xc[i]), den += xc[i] * xc[i];
            const double rc_ = true_residual(A, b, xc);
            CHECK(sqrt(num / (den > 0 ? den : 1)) <= 1e4 * (tr + rc_) + 1e-12, "||x - x_cpu|| / ||x_cpu|| = %.3g",
                  sqrt(num / den));
        }
    } else {
        CHECK(o.rc == PERKS_SUCCESS || o.rc == PERKS_EINACCURATE || o.rc == PERKS_ENOCONV, "rc %d (%s)", o.rc,
              perks_strerror(o.rc));
        CHECK(o.rc != PERKS_EINACCURATE || o.res.true_residual > g->tol, "EINACCURATE at %.3g <= tol",
              o.res.true_residual);
    }
    case_end();
    if (!frc) perks_fsai_free(&f);
    free(b), free(xc), free(xg);
}

/* the plan's G and G' (built on the device) against perks_fsai_build's on the host: the same
 * pattern, values within 1e-10 (a different order of the Cholesky's sums) */
static void fsai_factor(const char *name, const perks_csr *A, int fw)
{
    const int n = A->n_rows;
    char label[200];
    snprintf(label, sizeof label, "perks cg fsai %s width %d: the device's G and G' against the host's", name, fw);
    case_begin(label);
    perks_fsai f;
    long long bad = -1;
    const int hrc = perks_fsai_build(n, A->row_ptr, A->col, A->val, fw, &f, &bad);
    perks_cg_result res;
    perks_cg_args a;
    dev_sys d = dev_upload(A, &a, &res);
    a.opts.fsai = 1, a.opts.fsai_width = fw;
    perks_cg_plan p;
    const int rc = cg64_plan(&a, &p);
    CHECK(hrc == PERKS_SUCCESS && rc == PERKS_SUCCESS, "host rc %d, plan rc %d (%s)", hrc, rc, p.why);
    if (hrc == PERKS_SUCCESS && rc == PERKS_SUCCESS) {
        CHECK(p.fsai_nnz == f.nnz, "nnz(G) %lld, the host's %lld", p.fsai_nnz, f.nnz);
        if (p.fsai_nnz == f.nnz) {
            const size_t z = (size_t)f.nnz;
            int *rp = (int *)malloc(sizeof(int) * (n + 1)), *ci = (int *)malloc(sizeof(int) * z);
            double *va = (double *)malloc(8 * z), worst = 0;
            for (int t = 0; t < 2; t++) {
                CUDA_OK(cudaMemcpy(rp, t ? p.args.gtrp : p.args.grp, sizeof(int) * (n + 1), cudaMemcpyDeviceToHost));
                CUDA_OK(cudaMemcpy(ci, t ? p.args.gtci : p.args.gci, sizeof(int) * z, cudaMemcpyDeviceToHost));
                CUDA_OK(cudaMemcpy(va, t ? p.args.gtva : p.args.gva, 8 * z, cudaMemcpyDeviceToHost));
                const int *hrp = t ? f.trp : f.rp, *hci = t ? f.tci : f.ci;
                const double *hva = t ? f.tva : f.va;
                CHECK(!memcmp(rp, hrp, sizeof(int) * (n + 1)) && !memcmp(ci, hci, sizeof(int) * z),
                      "%s: the pattern differs from the host's", t ? "G'" : "G");
                for (int r = 0; r < n; r++) { /* relative to the row's largest entry */
                    double big = 0;
                    for (int k = hrp[r]; k < hrp[r + 1]; k++) big = fabs(hva[k]) > big ? fabs(hva[k]) : big;
                    for (int k = hrp[r]; k < hrp[r + 1]; k++) {
                        const double d = fabs(va[k] - hva[k]) / (big > 0 ? big : 1);
                        worst = d > worst ? d : worst;
                    }
                }
            }
            CHECK(worst <= 1e-10, "values differ from the host's by %.3g (relative)", worst);
            free(rp), free(ci), free(va);
        }
    }
    perks_cg_plan_free(&p);
    if (!hrc) perks_fsai_free(&f);
    dev_free(&d);
    case_end();
}

/* FSAI: an indefinite matrix is refused at the plan or never succeeds; refusals name why, make no
 * pass, leave x alone */
static void fsai_honesty(void)
{
    perks_csr A;
    diffusion(&A, 23, 19, 1, NULL, 3.0);
    double *b = (double *)malloc(sizeof(double) * A.n_rows), *x = (double *)malloc(sizeof(double) * A.n_rows);
    fill_b(b, A.n_rows);
    case_begin("perks cg fsai: an indefinite matrix is refused (PERKS_EBREAKDOWN at the plan) or never succeeds");
    {
        gpu_cfg g = {1, 0, 0, 1, 2000, 1e-8, 0};
        gpu_out o = gpu_solve(&A, b, x, &g, 0);
        CHECK(o.rc != PERKS_SUCCESS, "SUCCESS on an indefinite matrix (true residual %.3g)", true_residual(&A, b, x));
        CHECK(!o.why || !strstr(o.why, "refused") || (o.rc == PERKS_EBREAKDOWN && strstr(o.why, "SPD")),
              "refused with rc %d: %s", o.rc, o.why);
        printf("# indefinite under FSAI: rc %d (%s), %s\n", o.rc, perks_strerror(o.rc), o.why ? o.why : "(null)");
    }
    case_end();
    perks_csr_free(&A);
    free(b), free(x);
    diffusion(&A, 8, 8, 1, NULL, 0);
    case_begin("perks cg fsai: refusals name why, make no pass, leave x alone");
    perks_cg_result res;
    perks_cg_args a0;
    dev_sys d = dev_upload(&A, &a0, &res);
    a0.opts.fsai = 1;
    for (int v = 0; v < 9; v++) {
        perks_cg_args a = a0;
        perks_cg_plan p;
        int want = PERKS_EUNSUPPORTED, rc;
        switch (v) {
        case 0: a.opts.fsai = 2, want = PERKS_ESIZE; break;
        case 1: a.opts.fsai_width = PERKS_FSAI_WIDTH_MAX + 1, want = PERKS_ESIZE; break;
        case 2: a.opts.fsai_width = -1, want = PERKS_ESIZE; break;
        case 3: a.opts.cheb = 4; break;
        case 4: a.opts.path = PERKS_CG_PATH_CLUSTER; break;
        case 5: a.opts.variant = PERKS_CG_CGEAR; break;
        case 6: a.opts.barrier = PERKS_CG_BAR_FLAG; break;
        case 7: a.opts.path = PERKS_CG_PATH_STREAM; break;
        default: break;
        }
        rc = v == 8 ? cgm_plan(&a, &p) : cg64_plan(&a, &p);
        CHECK(rc == want, "case %d: rc %d (%s), want %d", v, rc, perks_strerror(rc), want);
        CHECK(p.passes == 0 && p.why && strstr(p.why, "refused"), "case %d: passes %lld, why %s", v, (long long)p.passes,
              p.why ? p.why : "(null)");
        CHECK(v != 8 || strstr(p.why, "FSAI"), "case 8: why %s", p.why);
        perks_cg_plan_free(&p);
    }
    CHECK(gpucheck_poison_changed(d.x, 8 * 64) == 0, "x changed by a refused plan");
    dev_free(&d);
    /* matrices FSAI cannot take: columns not increasing in a row (row 9's first two swapped), a
     * pattern that is not symmetric (row 20's entry left of the diagonal moved to another column, its
     * mirror kept), a NaN above the diagonal: refused at the plan, x untouched */
    for (int v = 0; v < 3; v++) {
        perks_csr B;
        diffusion(&B, 8, 8, 1, NULL, 0);
        int want = PERKS_EFORMAT;
        if (v == 0) {
            const int k = B.row_ptr[9], t = B.col[k];
            const double u = B.val[k];
            B.col[k] = B.col[k + 1], B.val[k] = B.val[k + 1], B.col[k + 1] = t, B.val[k + 1] = u;
        } else if (v == 1) {
            for (int k = B.row_ptr[20]; k < B.row_ptr[21]; k++)
                if (B.col[k] == 19) B.col[k] = 18; /* (20, 18): no (18, 20) in row 18 */
        } else {
            for (int k = B.row_ptr[30]; k < B.row_ptr[31]; k++)
                if (B.col[k] > 30) B.val[k] = NAN;
            want = PERKS_EBREAKDOWN;
        }
        perks_cg_args a;
        dev_sys e = dev_upload(&B, &a, &res);
        a.opts.fsai = 1;
        perks_cg_plan p;
        const int rc = cg64_plan(&a, &p);
        CHECK(rc == want && p.passes == 0 && p.why && strstr(p.why, "FSAI"), "matrix %d: rc %d (%s), want %d; why %s",
              v, rc, perks_strerror(rc), want, p.why ? p.why : "(null)");
        perks_cg_plan_free(&p);
        CHECK(gpucheck_poison_changed(e.x, 8 * 64) == 0, "matrix %d: x changed by a refused plan", v);
        dev_free(&e);
        perks_csr_free(&B);
    }
    case_end();
    perks_csr_free(&A);
}

/* ---- the files ------------------------------------------------------------------------------ */
static const char *data_dir(void)
{
    static const char *dirs[] = {"../shared/data/mtx", ".data/mtx"};
    for (int k = 0; k < 2; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/bcsstk01.mtx", dirs[k]);
        FILE *f = fopen(path, "r");
        if (f) return fclose(f), dirs[k];
    }
    return NULL;
}
static const char *const g_files[] = {"bcsstk01", "494_bus", "bcsstk05", "1138_bus", "bcsstk09",
                                      "bcsstk21", "crystm01", "msc04515", "bcsstk13"};
#define N_FILES ((int)(sizeof g_files / sizeof *g_files))

static void files(int light)
{
    const char *dir = data_dir();
    for (int k = 0; k < (light ? 1 : N_FILES); k++) {
        char path[512], label[300];
        perks_csr A;
        perks_mtx_error e;
        memset(&e, 0, sizeof e);
        snprintf(label, sizeof label, "perks cg chebyshev SuiteSparse %s", g_files[k]);
        snprintf(path, sizeof path, "%s/%s.mtx", dir ? dir : "(none)", g_files[k]);
        const int rc = dir ? perks_mtx_read_path(path, &A, &e) : PERKS_EFORMAT;
        if (rc) {
            check_skip(label, dir ? "the file did not read" : "../shared/data/mtx and .data/mtx not found");
            check_skip(label, dir ? "the file did not read (fsai)" : "../shared/data/mtx and .data/mtx not found (fsai)");
            check_skip(label, dir ? "the file did not read (fsai G)" : "../shared/data/mtx and .data/mtx not found (fsai G)");
            continue;
        }
        gpu_cfg g = {1, -1, 0, 1, 20000, 1e-8, 0};
        compare(g_files[k], &A, &g);
        compare_fsai(g_files[k], &A, &g, 0);
        fsai_factor(g_files[k], &A, 0);
        perks_csr_free(&A);
    }
}

int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    g_light = light;
    perks_csr A;
    check_plan(4 + 1 + 3 * (light ? 1 : N_FILES) + 1 + 8 + 3 + 2 + 2 + 5 + 1 + 2 + 1);
    refusals();
    honesty();
    fsai_honesty();
    /* 1 x 1: the Jacobi steps meet tol */
    csr_alloc(&A, 1, 1);
    A.row_ptr[1] = 1, A.col[0] = 0, A.val[0] = 3.5, A.nnz = 1;
    {
        gpu_cfg g = {1, 4, 0, 1, 100, 1e-12, 0};
        compare("1x1", &A, &g);
        compare_fsai("1x1", &A, &g, 0);
    }
    perks_csr_free(&A);
    files(light);
    /* 2D Poisson, ragged: degrees and tiers */
    diffusion(&A, light ? 37 : 97, light ? 29 : 83, 1, NULL, 0);
    {
        static const int degs[8] = {1, 4, 8, 16, -1, 8, 8, 8};
        for (int v = 0; v < 8; v++) {
            gpu_cfg g = {1, degs[v], v == 6 ? 6 : 0, v == 5 ? 0 : 1, 20000, 1e-10, v == 7 ? PERKS_CG_BAR_GRID : 0};
            compare(light ? "poisson2d 37x29" : "poisson2d 97x83", &A, &g);
        }
        fsai_factor(light ? "poisson2d 37x29" : "poisson2d 97x83", &A, 5);
        /* FSAI: tier 2, tier 0, grid.sync, width 4, fp32 */
        for (int v = 0; v < 5; v++) {
            gpu_cfg g = {v != 4, 0, 0, v == 1 ? 0 : 1, 20000, v == 4 ? 1e-5 : 1e-10, v == 2 ? PERKS_CG_BAR_GRID : 0};
            compare_fsai(light ? "poisson2d 37x29" : "poisson2d 97x83", &A, &g, v == 3 ? 4 : 0);
        }
    }
    perks_csr_free(&A);
    /* 3D diffusion, conductivity 1 or 1000 by blocks of cells */
    {
        const int nx = light ? 11 : 29, ny = light ? 9 : 23, nz = light ? 7 : 19, n = nx * ny * nz;
        double *kc = (double *)malloc(sizeof(double) * n);
        for (int i = 0; i < n; i++) {
            const int x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
            kc[i] = ((x / 4 + y / 3 + z / 5) % 2) ? 1000.0 : 1.0;
        }
        diffusion(&A, nx, ny, nz, kc, 0);
        free(kc);
        char name[64];
        snprintf(name, sizeof name, "diffusion3d %dx%dx%d jumps 1000x", nx, ny, nz);
        for (int v = 0; v < 3; v++) {
            gpu_cfg g = {1, v == 0 ? 4 : v == 1 ? -1 : 8, 0, v == 2 ? 0 : 1, 20000, 1e-8, 0};
            compare(name, &A, &g);
        }
        {
            gpu_cfg g = {1, 0, 0, 1, 20000, 1e-8, 0};
            compare_fsai(name, &A, &g, 0);
        }
        perks_csr_free(&A);
    }
    /* random SDD, ragged rows; fp32 */
    random_sdd(&A, light ? 300 : 1500);
    {
        gpu_cfg g = {1, 8, 0, 1, 20000, 1e-10, 0};
        compare("random sdd", &A, &g);
        gpu_cfg f = {0, 8, 0, 1, 20000, 1e-5, 0};
        compare("random sdd", &A, &f);
        compare_fsai("random sdd", &A, &g, 0);
        compare_fsai("random sdd", &A, &f, 0);
    }
    perks_csr_free(&A);
    return check_exit();
}
