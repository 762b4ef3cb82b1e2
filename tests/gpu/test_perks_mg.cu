/* tests/gpu/test_perks_mg.cu -- perks/mg.cuh (CG preconditioned by a geometric multigrid V-cycle, 3D
 * 7-point matrix-free) against a CPU solve in double that builds the same levels and runs the same
 * V-cycle (damped Jacobi, full weighting, trilinear prolongation, Jacobi sweeps on the coarsest
 * level) and the same Hestenes-Stiefel PCG.  Grids: ragged (13x11x9, 16x16x16, 31x7x20, 1x1x1,
 * 40x2x30: one level, an axis below 3), larger ones without --light; the Poisson weights and an
 * anisotropic set (x : y : z = 1 : 0.1 : 10).
 * CORRECTNESS: one V-cycle M r on the GPU against the CPU's (1e-12), its symmetry u.Mv = v.Mu and
 * positivity; every solve's status as the CPU's, iterations |it - it_cpu| <= 1 + it_cpu / 10, the
 * host's true residual of every x called a success <= tol, x against the CPU's x, the levels
 * (res.pc_degree) as the CPU's; float: a success's true residual, else an honest code; a warm start
 * (opts.x0); ENOCONV at exactly max_iter.  HONESTY: every refusal (NULL arguments, bad sizes, tol,
 * max_iter, nonsymmetric weights, centre <= 0, a NaN weight, opts.cheb, a cell field k) is its code, names why
 * ("refused"), makes no pass and leaves x alone (poisoned).  x is poisoned (NaN) before every
 * zero-start solve.
 *   test_perks_mg [--light] [--part K/N] [--seed N]   (--part: the V-cycle and solve cases every N-th
 *   from the K-th, the refusals in every part: compute-sanitizer's runs side by side) */
#include <perks/mg.cuh>
#include <stddef.h>

#include "gpucheck.h"

PERKS_MG3D_DEFINE(mg64, double)
PERKS_MG3D_DEFINE(mg32, float)

/* ---- the CPU multigrid in double ---------------------------------------------------------------- */
#define CPU_LMAX 32
typedef struct cpu_level {
    int nx, ny, nz;
    long long n;
    double w[7], d;
    double *b, *x, *t;
} cpu_level;

typedef struct cpu_mg {
    int L;
    cpu_level lv[CPU_LMAX];
} cpu_mg;

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p) {
        fprintf(stderr, "test_perks_mg: out of memory\n");
        exit(2);
    }
    return p;
}

static double cpu_stencil(const cpu_level *l, const double *v, long long i, int x, int y, int z)
{
    const long long sy = l->nx, sz = (long long)l->nx * l->ny;
    double s = l->w[0] * v[i];
    if (x > 0) s += l->w[1] * v[i - 1];
    if (x < l->nx - 1) s += l->w[2] * v[i + 1];
    if (y > 0) s += l->w[3] * v[i - sy];
    if (y < l->ny - 1) s += l->w[4] * v[i + sy];
    if (z > 0) s += l->w[5] * v[i - sz];
    if (z < l->nz - 1) s += l->w[6] * v[i + sz];
    return s;
}

static void cpu_apply(const cpu_level *l, const double *v, double *out)
{
    for (int z = 0; z < l->nz; z++)
        for (int y = 0; y < l->ny; y++)
            for (int x = 0; x < l->nx; x++) {
                const long long i = ((long long)z * l->ny + y) * l->nx + x;
                out[i] = cpu_stencil(l, v, i, x, y, z);
            }
}

static void cpu_mg_make(cpu_mg *m, int nx, int ny, int nz, const double *w)
{
    memset(m, 0, sizeof *m);
    int L = 0, dx = nx, dy = ny, dz = nz;
    double sc = 1;
    for (;;) {
        cpu_level *l = &m->lv[L++];
        l->nx = dx, l->ny = dy, l->nz = dz, l->n = (long long)dx * dy * dz;
        double g = 0;
        for (int k = 0; k < 7; k++) l->w[k] = sc * w[k], g += fabs(l->w[k]);
        g /= l->w[0];
        l->d = PERKS_MG_OMEGA * (g > 2 ? 2 / g : 1) / l->w[0];
        l->b = (double *)xcalloc(l->n, 8), l->x = (double *)xcalloc(l->n, 8), l->t = (double *)xcalloc(l->n, 8);
        if (L >= PERKS_MG_LEVELS || dx < 3 || dy < 3 || dz < 3 || l->n <= PERKS_MG_COARSE_CELLS) break;
        dx = (dx - 1) / 2, dy = (dy - 1) / 2, dz = (dz - 1) / 2, sc *= 0.25;
    }
    m->L = L;
}

static void cpu_mg_free(cpu_mg *m)
{
    for (int l = 0; l < m->L; l++) free(m->lv[l].b), free(m->lv[l].x), free(m->lv[l].t);
}

static void cpu_sweeps(cpu_level *l, int k)
{
    for (int j = 0; j < k; j++) {
        for (int z = 0; z < l->nz; z++)
            for (int y = 0; y < l->ny; y++)
                for (int x = 0; x < l->nx; x++) {
                    const long long i = ((long long)z * l->ny + y) * l->nx + x;
                    l->t[i] = l->x[i] + l->d * (l->b[i] - cpu_stencil(l, l->x, i, x, y, z));
                }
        double *s = l->x;
        l->x = l->t, l->t = s;
    }
}

/* x of level l = the V-cycle from 0 applied to its b */
static void cpu_vcycle(cpu_mg *m, int l)
{
    cpu_level *f = &m->lv[l];
    const int last = l == m->L - 1;
    for (long long i = 0; i < f->n; i++) f->x[i] = f->d * f->b[i];
    cpu_sweeps(f, (last ? PERKS_MG_COARSE_SWEEPS : PERKS_MG_NU) - 1);
    if (last) return;
    cpu_level *c = &m->lv[l + 1];
    cpu_apply(f, f->x, f->t);
    for (long long i = 0; i < f->n; i++) f->t[i] = f->b[i] - f->t[i];
    static const double wt[3] = {0.25, 0.5, 0.25};
    for (int K = 0; K < c->nz; K++)
        for (int J = 0; J < c->ny; J++)
            for (int I = 0; I < c->nx; I++) {
                double s = 0;
                for (int cc = 0; cc < 3; cc++)
                    for (int bb = 0; bb < 3; bb++)
                        for (int aa = 0; aa < 3; aa++)
                            s += wt[cc] * wt[bb] * wt[aa] *
                                 f->t[((long long)(2 * K + cc) * f->ny + 2 * J + bb) * f->nx + 2 * I + aa];
                c->b[((long long)K * c->ny + J) * c->nx + I] = s;
            }
    cpu_vcycle(m, l + 1);
    /* trilinear: an odd fine index sits on coarse (f - 1) / 2, an even one between f / 2 - 1 and f / 2 */
    for (int Z = 0; Z < f->nz; Z++)
        for (int Y = 0; Y < f->ny; Y++)
            for (int X = 0; X < f->nx; X++) {
                double s = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            const int a = X + dx, b = Y + dy, e = Z + dz;
                            if (!(a & 1) || !(b & 1) || !(e & 1) || a < 0 || b < 0 || e < 0) continue;
                            const int I = (a - 1) / 2, J = (b - 1) / 2, K = (e - 1) / 2;
                            if (I >= c->nx || J >= c->ny || K >= c->nz) continue;
                            const double w = (dx ? 0.5 : 1.0) * (dy ? 0.5 : 1.0) * (dz ? 0.5 : 1.0);
                            s += w * c->x[((long long)K * c->ny + J) * c->nx + I];
                        }
                const long long i = ((long long)Z * f->ny + Y) * f->nx + X;
                f->x[i] += s;
            }
    cpu_sweeps(f, PERKS_MG_NU);
}

static double dot(const double *a, const double *b, long long n)
{
    double s = 0;
    for (long long i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* the true residual ||b - A x|| / ||b|| of level 0's operator */
static double true_residual(const cpu_mg *m, const double *b, const double *x)
{
    const cpu_level *l = &m->lv[0];
    double *t = (double *)xcalloc(l->n, 8), rr = 0, bb = 0;
    cpu_apply(l, x, t);
    for (long long i = 0; i < l->n; i++) rr += (b[i] - t[i]) * (b[i] - t[i]), bb += b[i] * b[i];
    free(t);
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

/* PCG from x (x0: as given, else 0); the status into *status, the iterations returned */
static int cpu_pcg(cpu_mg *m, const double *b, double *x, int x0, double tol, int max_iter, int *status)
{
    cpu_level *f = &m->lv[0];
    const long long n = f->n;
    double *r = f->b, *p = (double *)xcalloc(n, 8), *q = (double *)xcalloc(n, 8);
    int it = 0;
    if (!x0)
        for (long long i = 0; i < n; i++) x[i] = 0;
    cpu_apply(f, x, q);
    for (long long i = 0; i < n; i++) r[i] = b[i] - q[i];
    double rr = dot(r, r, n), bb = dot(b, b, n), rz = 0;
    *status = PERKS_SUCCESS;
    if (rr > tol * tol * bb) {
        cpu_vcycle(m, 0);
        rz = dot(r, f->x, n);
        memcpy(p, f->x, sizeof(double) * n);
        for (;;) {
            if (it >= max_iter) {
                *status = PERKS_ENOCONV;
                break;
            }
            if (!(rz > 0)) {
                *status = PERKS_EBREAKDOWN;
                break;
            }
            cpu_apply(f, p, q);
            const double pq = dot(p, q, n);
            if (!(pq > 0)) {
                *status = PERKS_EBREAKDOWN;
                break;
            }
            const double alpha = rz / pq;
            for (long long i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
            rr = dot(r, r, n);
            cpu_vcycle(m, 0);
            const double rz1 = dot(r, f->x, n);
            it++;
            if (!(rr > tol * tol * bb)) break;
            const double beta = rz1 / rz;
            rz = rz1;
            for (long long i = 0; i < n; i++) p[i] = f->x[i] + beta * p[i];
        }
    }
    if (*status == PERKS_SUCCESS && !(true_residual(m, b, x) <= tol)) *status = PERKS_EINACCURATE;
    free(p), free(q);
    return it;
}

/* ---- the GPU solve -------------------------------------------------------------------------------- */
typedef struct cfg {
    int nx, ny, nz, dbl, x0, max_iter;
    double tol;
    const double *w;
} cfg;

typedef struct gpu_out {
    int rc, levels;
    long long passes;
    perks_cg_result res;
} gpu_out;

static gpu_out gpu_solve(const cfg *c, const double *b, double *x)
{
    const long long n = (long long)c->nx * c->ny * c->nz;
    const int elt = c->dbl ? 8 : 4;
    gpu_out o;
    memset(&o, 0, sizeof o);
    void *db = NULL, *dx = NULL, *hv = xcalloc(n, elt);
    CUDA_OK(cudaMalloc(&db, elt * n));
    CUDA_OK(cudaMalloc(&dx, elt * n));
    for (long long i = 0; i < n; i++)
        if (c->dbl) ((double *)hv)[i] = b[i];
        else ((float *)hv)[i] = (float)b[i];
    CUDA_OK(cudaMemcpy(db, hv, elt * n, cudaMemcpyHostToDevice));
    if (c->x0) {
        for (long long i = 0; i < n; i++)
            if (c->dbl) ((double *)hv)[i] = x[i];
            else ((float *)hv)[i] = (float)x[i];
        CUDA_OK(cudaMemcpy(dx, hv, elt * n, cudaMemcpyHostToDevice));
    } else {
        CUDA_OK(cudaMemset(dx, 0xFF, elt * n)); /* NaN: a zero start must not read it */
    }
    perks_cgs_args a;
    memset(&a, 0, sizeof a);
    a.nx = c->nx, a.ny = c->ny, a.nz = c->nz, a.w = c->w, a.b = db, a.x = dx;
    a.opts = perks_cg_defaults();
    a.opts.tol = c->tol, a.opts.max_iter = c->max_iter, a.opts.x0 = c->x0;
    a.result = &o.res;
    perks_mg_plan p;
    o.rc = c->dbl ? mg64_plan(&a, &p) : mg32_plan(&a, &p);
    o.levels = p.levels, o.passes = p.passes;
    if (!o.rc) o.rc = c->dbl ? mg64_run(&a, &p, 0) : mg32_run(&a, &p, 0);
    perks_mg_plan_free(&p);
    CUDA_OK(cudaMemcpy(hv, dx, elt * n, cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; i++) x[i] = c->dbl ? ((double *)hv)[i] : ((float *)hv)[i];
    free(hv);
    cudaFree(db), cudaFree(dx);
    return o;
}

static void fill(double *v, long long n)
{
    for (long long i = 0; i < n; i++) v[i] = gpucheck_uniform();
}

static const double w_poisson[7] = {6, -1, -1, -1, -1, -1, -1};
static const double w_aniso[7] = {22.2, -1, -1, -0.1, -0.1, -10, -10};

/* one grid, one configuration: the GPU against the CPU */
static void compare(const char *name, const cfg *c)
{
    const long long n = (long long)c->nx * c->ny * c->nz;
    double *b = (double *)xcalloc(n, 8), *xc = (double *)xcalloc(n, 8), *xg = (double *)xcalloc(n, 8);
    char label[300];
    cpu_mg m;
    int cst = 0;
    /* the case begins before the solve (a CUDA error is charged to it); its label gains the counts after */
    snprintf(label, sizeof label, "perks mg %s %dx%dx%d fp%d%s tol %.0e max_iter %d", name, c->nx, c->ny, c->nz,
             c->dbl ? 64 : 32, c->x0 ? " x0" : "", c->tol, c->max_iter);
    if (!case_part(label)) {
        free(b), free(xc), free(xg);
        return;
    }
    fill(b, n);
    if (c->x0) {
        fill(xc, n);
        for (long long i = 0; i < n; i++) xc[i] *= 0.1, xg[i] = xc[i];
    }
    cpu_mg_make(&m, c->nx, c->ny, c->nz, c->w);
    const int cit = cpu_pcg(&m, b, xc, c->x0, c->dbl ? c->tol : 1e-5, c->max_iter, &cst);
    gpu_out o = gpu_solve(c, b, xg);
    snprintf(label, sizeof label, "perks mg %s %dx%dx%d fp%d%s tol %.0e max_iter %d: %d iterations (cpu %d), %d levels",
             name, c->nx, c->ny, c->nz, c->dbl ? 64 : 32, c->x0 ? " x0" : "", c->tol, c->max_iter, o.res.iterations,
             cit, o.res.pc_degree);
    const double tr = true_residual(&m, b, xg), trc = true_residual(&m, b, xc);
    CHECK(o.rc == o.res.status, "rc %d, res.status %d", o.rc, o.res.status);
    CHECK(o.passes == 1, "plan passes %lld", o.passes);
    CHECK(o.res.precond == PERKS_CG_PC_MG && o.res.pc_degree == m.L && o.levels == m.L,
          "precond %d, pc_degree %d, plan levels %d, the CPU's %d", o.res.precond, o.res.pc_degree, o.levels, m.L);
    CHECK(o.rc != PERKS_SUCCESS || tr <= c->tol, "SUCCESS with the host's true residual %.3g > tol %.3g", tr, c->tol);
    CHECK(o.rc != PERKS_SUCCESS || fabs(o.res.true_residual - tr) <= 1e-3 * tr + 1e-300,
          "reported true residual %.6g, the host's %.6g", o.res.true_residual, tr);
    CHECK(o.res.pc_setup_ms == 0, "pc_setup_ms %g", o.res.pc_setup_ms);
    if (c->dbl) {
        CHECK(o.rc == cst, "rc %d (%s), the CPU's %d (%s)", o.rc, perks_strerror(o.rc), cst, perks_strerror(cst));
        CHECK(abs(o.res.iterations - cit) <= 1 + cit / 10, "%d iterations, the CPU's %d", o.res.iterations, cit);
        CHECK(cst != PERKS_ENOCONV || o.res.iterations == c->max_iter, "ENOCONV after %d iterations, max_iter %d",
              o.res.iterations, c->max_iter);
        double num = 0, den = 0;
        for (long long i = 0; i < n; i++) num += (xg[i] - xc[i]) * (xg[i] - xc[i]), den += xc[i] * xc[i];
        const double dx = sqrt(num / (den > 0 ? den : 1));
        if (o.rc == PERKS_SUCCESS && cst == PERKS_SUCCESS)
            CHECK(dx <= 1e4 * (tr + trc) + 1e-12, "||x - x_cpu|| / ||x_cpu|| = %.3g (true residuals %.3g, %.3g)",
                  dx, tr, trc);
        else /* the same iterations in the same order: close, not equal */
            CHECK(dx <= 1e-6, "||x - x_cpu|| / ||x_cpu|| = %.3g", dx);
    } else { /* float: a success is the true residual's; else an honest code */
        CHECK(o.rc == PERKS_SUCCESS || o.rc == PERKS_EINACCURATE || o.rc == PERKS_ENOCONV, "rc %d (%s)", o.rc,
              perks_strerror(o.rc));
        CHECK(o.rc != PERKS_EINACCURATE || o.res.true_residual > c->tol, "EINACCURATE at %.3g <= tol",
              o.res.true_residual);
    }
    case_end();
    cpu_mg_free(&m);
    free(b), free(xc), free(xg);
}

/* one V-cycle on the GPU (the plan's internal sequence) against the CPU's; u.Mv = v.Mu, v.Mv > 0 */
static void vcycle_case(int nx, int ny, int nz, const double *w)
{
    const long long n = (long long)nx * ny * nz;
    char label[200];
    snprintf(label, sizeof label, "perks mg V-cycle %dx%dx%d: M r as the CPU's, symmetric, positive", nx, ny, nz);
    if (!case_part(label)) return;
    double *u = (double *)xcalloc(n, 8), *v = (double *)xcalloc(n, 8), *mu = (double *)xcalloc(n, 8),
           *mv = (double *)xcalloc(n, 8), *cu = (double *)xcalloc(n, 8);
    fill(u, n), fill(v, n);
    cpu_mg m;
    cpu_mg_make(&m, nx, ny, nz, w);
    memcpy(m.lv[0].b, u, 8 * n);
    cpu_vcycle(&m, 0);
    memcpy(cu, m.lv[0].x, 8 * n);
    double *db = NULL, *dx = NULL;
    CUDA_OK(cudaMalloc(&db, 8 * n));
    CUDA_OK(cudaMalloc(&dx, 8 * n));
    CUDA_OK(cudaMemset(db, 0, 8 * n));
    perks_cg_result res;
    perks_cgs_args a;
    memset(&a, 0, sizeof a);
    a.nx = nx, a.ny = ny, a.nz = nz, a.w = w, a.b = db, a.x = dx, a.opts = perks_cg_defaults(), a.result = &res;
    perks_mg_plan p;
    int rc = mg64_plan(&a, &p);
    CHECK(rc == PERKS_SUCCESS, "plan rc %d (%s): %s", rc, perks_strerror(rc), p.why ? p.why : "(null)");
    if (!rc) {
        for (int k = 0; k < 2; k++) {
            double *z = NULL;
            CUDA_OK(cudaMemcpy(p.lv[0].b, k ? v : u, 8 * n, cudaMemcpyHostToDevice));
            rc = perks__mg_vcycle<double>(&p, 0, &z);
            CHECK(rc == PERKS_SUCCESS && z, "vcycle rc %d", rc);
            if (rc || !z) break;
            CUDA_OK(cudaMemcpy(k ? mv : mu, z, 8 * n, cudaMemcpyDeviceToHost));
        }
        double num = 0, den = 0;
        for (long long i = 0; i < n; i++) num += (mu[i] - cu[i]) * (mu[i] - cu[i]), den += cu[i] * cu[i];
        CHECK(sqrt(num / den) <= 1e-12, "||M u - M_cpu u|| / ||M_cpu u|| = %.3g", sqrt(num / den));
        const double umv = dot(u, mv, n), vmu = dot(v, mu, n), vmv = dot(v, mv, n), umu = dot(u, mu, n);
        CHECK(fabs(umv - vmu) <= 1e-11 * sqrt(fabs(umu * vmv)), "u.Mv %.17g, v.Mu %.17g", umv, vmu);
        CHECK(umu > 0 && vmv > 0, "u.Mu %.3g, v.Mv %.3g", umu, vmv);
    }
    perks_mg_plan_free(&p);
    cudaFree(db), cudaFree(dx);
    cpu_mg_free(&m);
    free(u), free(v), free(mu), free(mv), free(cu);
    case_end();
}

/* ---- refusals ------------------------------------------------------------------------------------- */
static void refusals(void)
{
    case_begin("perks mg: refusals are their code, name why, make no pass, leave x alone");
    const int nx = 8, ny = 7, nz = 6, n = nx * ny * nz;
    double *db = NULL, *dx = NULL;
    CUDA_OK(cudaMalloc(&db, 8 * n));
    CUDA_OK(cudaMalloc(&dx, 8 * n));
    CUDA_OK(cudaMemset(db, 0, 8 * n));
    gpucheck_poison(dx, 8 * n);
    perks_cg_result res;
    perks_cgs_args a0;
    memset(&a0, 0, sizeof a0);
    a0.nx = nx, a0.ny = ny, a0.nz = nz, a0.w = w_poisson, a0.b = db, a0.x = dx, a0.opts = perks_cg_defaults();
    a0.result = &res;
    double wbad[7];
    for (int v = 0; v < 15; v++) {
        perks_cgs_args a = a0;
        const perks_cgs_args *pa = &a;
        int want = PERKS_ENULL;
        memcpy(wbad, w_poisson, sizeof wbad);
        switch (v) {
        case 0: pa = NULL; break;
        case 1: a.w = NULL; break;
        case 2: a.b = NULL; break;
        case 3: a.x = NULL; break;
        case 4: a.result = NULL; break;
        case 5: a.nx = 0, want = PERKS_ESIZE; break;
        case 6: a.nz = -3, want = PERKS_ESIZE; break;
        case 7: a.nx = 70000, a.ny = 70000, want = PERKS_ESIZE; break;
        case 8: a.opts.tol = 0, want = PERKS_ESIZE; break;
        case 9: a.opts.max_iter = -1, want = PERKS_ESIZE; break;
        case 10: wbad[2] = -0.9, a.w = wbad, want = PERKS_ENOTSYM; break;
        case 11: wbad[5] = -2, a.w = wbad, want = PERKS_ENOTSYM; break;
        case 12: wbad[0] = 0, a.w = wbad, want = PERKS_EDIAG; break;
        case 13: wbad[0] = -6, a.w = wbad, want = PERKS_EDIAG; break;
        default: wbad[3] = wbad[4] = NAN, a.w = wbad, want = PERKS_EFORMAT; break;
        }
        perks_mg_plan p;
        int rc = mg64_plan(pa, &p);
        CHECK(rc == want, "case %d: rc %d (%s), want %d", v, rc, perks_strerror(rc), want);
        CHECK(p.passes == 0 && p.base == NULL && p.why && strstr(p.why, "refused"), "case %d: passes %lld, why %s", v,
              (long long)p.passes, p.why ? p.why : "(null)");
        perks_mg_plan_free(&p);
        memset(&res, 0x5A, sizeof res);
        rc = mg64_launch(pa, 0);
        CHECK(rc == want, "case %d: launch rc %d, want %d", v, rc, want);
        CHECK(v == 0 || v == 4 || res.status == want, "case %d: launch result status %d", v, res.status);
    }
    {
        perks_cgs_args a = a0;
        a.opts.cheb = 4;
        perks_mg_plan p;
        const int rc = mg32_plan(&a, &p);
        CHECK(rc == PERKS_EUNSUPPORTED && p.passes == 0 && p.why && strstr(p.why, "refused"), "cheb: rc %d, why %s", rc,
              p.why ? p.why : "(null)");
        perks_mg_plan_free(&p);
        a = a0, a.k = a0.b; /* a cell field: the constant stencil only */
        const int rk = mg64_plan(&a, &p);
        CHECK(rk == PERKS_EUNSUPPORTED && p.passes == 0 && p.why && strstr(p.why, "refused"), "k: rc %d, why %s", rk,
              p.why ? p.why : "(null)");
        perks_mg_plan_free(&p);
        /* a freed plan runs nothing */
        CHECK(mg64_run(&a0, &p, 0) == PERKS_ESIZE && res.status == PERKS_ESIZE, "a freed plan's run: status %d",
              res.status);
        CHECK(mg64_plan(NULL, NULL) == PERKS_ENULL, "plan(NULL, NULL)");
    }
    CHECK(gpucheck_poison_changed(dx, 8 * n) == 0, "x changed by a refused call");
    cudaFree(db), cudaFree(dx);
    case_end();
}

int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    static const int sizes[][3] = {{13, 11, 9}, {16, 16, 16}, {31, 7, 20}, {1, 1, 1}, {40, 2, 30},
                                   {33, 33, 33}, {64, 48, 40}};
    const int nsizes = light ? 5 : 7;
    check_plan(1 + 2 + nsizes + 2 + 3);
    refusals();
    vcycle_case(13, 11, 9, w_poisson);
    vcycle_case(light ? 16 : 31, light ? 15 : 29, light ? 14 : 27, w_aniso);
    for (int k = 0; k < nsizes; k++) {
        cfg c = {sizes[k][0], sizes[k][1], sizes[k][2], 1, 0, 1000, 1e-10, w_poisson};
        compare("poisson", &c);
    }
    {
        /* --light (racecheck: its time grows with cells x iterations): 20 x 7 x 14 and 12^3 */
        cfg c = {light ? 20 : 31, 7, light ? 14 : 20, 1, 0, 1000, 1e-10, w_aniso};
        compare("anisotropic", &c);
        cfg d = {light ? 12 : 33, light ? 12 : 33, light ? 12 : 33, 1, 0, 1000, 1e-10, w_aniso};
        compare("anisotropic", &d);
    }
    {
        cfg f = {light ? 16 : 33, light ? 16 : 33, light ? 16 : 33, 0, 0, 1000, 1e-5, w_poisson};
        compare("poisson", &f);
        cfg x = {13, 11, 9, 1, 1, 1000, 1e-10, w_poisson};
        compare("poisson warm start", &x);
        cfg e = {16, 16, 16, 1, 0, 2, 1e-12, w_poisson};
        compare("poisson ENOCONV", &e);
    }
    return check_exit();
}
