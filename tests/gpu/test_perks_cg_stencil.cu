/* tests/gpu/test_perks_cg_stencil.cu -- perks/cg_stencil.cuh (matrix-free CG) against the CSR solver of
 * perks/cg.cuh on the same operator: the stencil written out as CSR on the host (Dirichlet: points
 * outside the grid dropped), both solved from the same b (random, fresh seed) with the same options.
 * Checked: the status; iterations within 1 + it/50 of the CSR solver's (the sums run in another
 * order); the true residual ||b - A x|| / ||b|| recomputed on the host in double from the CSR and
 * the x returned (<= tol on success, and equal to res.true_residual to 1e-6 relative); the rounding
 * floor against the host's.  Shapes: 3D 7-point (Poisson), 13-point (fourth order), 27-point box,
 * 2D 5-point; ragged grids, 1 x 1 x 1, one column; double, float, mixed; Jacobi on and off; x0 given;
 * b = 0; the iteration limit; one plan for two right-hand sides (bitwise reproducible); every error
 * code (asymmetric weights, a non-positive or non-finite centre, a non-finite weight, an indefinite
 * operator, bad sizes, NULL), each refused plan naming why and launching nothing; the plan's head
 * (onchip/plan.h: path, why, passes, workspace, result = a.x, where the answer is read).
 * ONCHIP_OPERATOR_DIVK instances (onchip/operator.h: the 7-, 13- and 5-point stars, double, float and
 * mixed) the same way, the CSR written out on the host from k and the face rule (2 k k' / (k + k') or
 * the mean) with k in layers 1 / 1000 or in 3^3 blocks spanning 1000x, both rules, Jacobi from the
 * cell's diagonal (iterations within 2 + it/20 of the CSR's); refused: NULL k, a bad face rule, an
 * off-centre weight > 0, a negative weight sum, a cell's k of 0, -1, NaN, inf, 1e30 or 1e-30, k given
 * to a constant instance.  x is poisoned (NaN) before every zero-start solve. */
#include <perks/cg.cuh>
#include <perks/cg_stencil.cuh>
#include <perks/mtx.h>
#include <stddef.h>

#include "gpucheck.h"

PERKS_CG_DEFINE(csr64, double, 256)
PERKS_CG_STENCIL3D_DEFINE(p7, double, ONCHIP_SHAPE_STAR3D_R1)
PERKS_CG_STENCIL3D_DEFINE(p7f, float, ONCHIP_SHAPE_STAR3D_R1)
PERKS_CG_STENCIL3D_DEFINE(p7m, perks_cg_mixed, ONCHIP_SHAPE_STAR3D_R1)
PERKS_CG_STENCIL3D_DEFINE(p13, double, ONCHIP_SHAPE_STAR3D_R2)
PERKS_CG_STENCIL3D_DEFINE(p27, double, ONCHIP_SHAPE_BOX3D_R1)
PERKS_CG_STENCIL2D_DEFINE(p5, double, ONCHIP_SHAPE_STAR2D_R1)
PERKS_CG_STENCIL2D_DEFINE(p5m, perks_cg_mixed, ONCHIP_SHAPE_STAR2D_R1)
/* the divergence form -div(k grad u) (onchip/operator.h) */
PERKS_CG_STENCIL3D_DEFINE(d7, double, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)
PERKS_CG_STENCIL3D_DEFINE(d7f, float, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)
PERKS_CG_STENCIL3D_DEFINE(d7m, perks_cg_mixed, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)
PERKS_CG_STENCIL3D_DEFINE(d13, double, ONCHIP_SHAPE_STAR3D_R2, ONCHIP_OPERATOR_DIVK)
PERKS_CG_STENCIL2D_DEFINE(d5, double, ONCHIP_SHAPE_STAR2D_R1, ONCHIP_OPERATOR_DIVK)
PERKS_CG_STENCIL2D_DEFINE(d5m, perks_cg_mixed, ONCHIP_SHAPE_STAR2D_R1, ONCHIP_OPERATOR_DIVK)

/* a shape's points on the host: index and offset */
typedef struct pts { int n, i[32], dx[32], dy[32], dz[32]; } pts;
#define PT3(I, DX, DY, DZ) p.i[p.n] = (I), p.dx[p.n] = (DX), p.dy[p.n] = (DY), p.dz[p.n] = (DZ), p.n++;
#define PT2(I, DX, DY) PT3(I, DX, DY, 0)
static pts pts7(void) { pts p; p.n = 0; ONCHIP_SHAPE_STAR3D_R1(PT3) return p; }
static pts pts13(void) { pts p; p.n = 0; ONCHIP_SHAPE_STAR3D_R2(PT3) return p; }
static pts pts27(void) { pts p; p.n = 0; ONCHIP_SHAPE_BOX3D_R1(PT3) return p; }
static pts pts5(void) { pts p; p.n = 0; ONCHIP_SHAPE_STAR2D_R1(PT2) return p; }

/* the weights by offset: centre c, |offset| 1 (each axis) a1, |offset| 2 a2, other (box) ab */
static void weights(const pts *p, double c, double a1, double a2, double ab, double *w)
{
    for (int k = 0; k < p->n; k++) {
        const int d = abs(p->dx[k]) + abs(p->dy[k]) + abs(p->dz[k]), axis = !!p->dx[k] + !!p->dy[k] + !!p->dz[k];
        w[p->i[k]] = d == 0 ? c : axis > 1 ? ab : d == 1 ? a1 : a2;
    }
}

/* the operator as CSR (columns ascending); k not NULL: ONCHIP_OPERATOR_DIVK's with the cell field k and
 * face rule `face`, written out from its definition (onchip/operator.h) */
static void to_csr_k(const pts *p, const double *w, const double *k, int face, int nx, int ny, int nz, perks_csr *A);
static void to_csr(const pts *p, const double *w, int nx, int ny, int nz, perks_csr *A)
{
    to_csr_k(p, w, NULL, 0, nx, ny, nz, A);
}
static void to_csr_k(const pts *p, const double *w, const double *kc, int face, int nx, int ny, int nz, perks_csr *A)
{
    const int n = nx * ny * nz;
    memset(A, 0, sizeof *A);
    A->n_rows = A->n_cols = n;
    A->row_ptr = (int *)calloc((size_t)n + 1, sizeof(int));
    A->col = (int *)malloc(sizeof(int) * (size_t)n * (p->n + 1));
    A->val = (double *)malloc(sizeof(double) * (size_t)n * (p->n + 1));
    long long k = 0;
    for (int i = 0; i < n; i++) {
        const int x = i % nx, y = i / nx % ny, z = i / (nx * ny);
        long long s = k;
        double diag = 0; /* DIVK: sigma + sum of -w[I] k_I */
        for (int m = 0; kc && m < p->n; m++) diag += w[p->i[m]];
        for (int m = 0; m < p->n; m++) {
            const int x1 = x + p->dx[m], y1 = y + p->dy[m], z1 = z + p->dz[m];
            const int out = x1 < 0 || x1 >= nx || y1 < 0 || y1 >= ny || z1 < 0 || z1 >= nz;
            const int centre = !p->dx[m] && !p->dy[m] && !p->dz[m];
            double v = w[p->i[m]];
            if (kc && !centre) { /* -w k_f on the diagonal, w k_f off it */
                const double ki = kc[i], kn = out ? ki : kc[x1 + nx * (y1 + ny * z1)];
                const double kf = face == ONCHIP_FACE_HARMONIC ? 2 * ki * kn / (ki + kn) : 0.5 * (ki + kn);
                diag -= v * kf, v *= kf;
            }
            if (out || (kc && centre)) continue;
            const int j = x1 + nx * (y1 + ny * z1);
            long long at = k++;
            while (at > s && A->col[at - 1] > j) A->col[at] = A->col[at - 1], A->val[at] = A->val[at - 1], at--;
            A->col[at] = j, A->val[at] = v;
        }
        if (kc) { /* the diagonal entry */
            long long at = k++;
            while (at > s && A->col[at - 1] > i) A->col[at] = A->col[at - 1], A->val[at] = A->val[at - 1], at--;
            A->col[at] = i, A->val[at] = diag;
        }
        A->row_ptr[i + 1] = (int)k;
    }
    A->nnz = k;
}

/* ||b - A x|| / ||b|| and eps || |A| |x| || / ||b|| on the host in double */
static double host_resid(const perks_csr *A, const double *b, const double *x, double eps, double *floor_)
{
    double rr = 0, bb = 0, aa = 0;
    for (int i = 0; i < A->n_rows; i++) {
        double s = 0, sa = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) s += A->val[k] * x[A->col[k]], sa += fabs(A->val[k] * x[A->col[k]]);
        rr += (b[i] - s) * (b[i] - s), bb += b[i] * b[i], aa += sa * sa;
    }
    if (floor_) *floor_ = eps * sqrt(aa / (bb > 0 ? bb : 1));
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

/* an instance's verbs (the same signatures for every T: a's b and x are T *) */
typedef int (*plan_fn)(const perks_cgs_args *, perks_cgs_plan *);
typedef int (*run_fn)(const perks_cgs_args *, const perks_cgs_plan *, cudaStream_t);
typedef int (*launch_fn)(const perks_cgs_args *, cudaStream_t);
typedef struct verbs {
    plan_fn plan;
    run_fn run;
    launch_fn launch;
} verbs;
#define VERBS(name) {name##_plan, name##_run, name##_launch}
static const verbs v_p7 = VERBS(p7), v_p7f = VERBS(p7f), v_p7m = VERBS(p7m), v_p13 = VERBS(p13), v_p27 = VERBS(p27),
                   v_p5 = VERBS(p5), v_p5m = VERBS(p5m), v_d7 = VERBS(d7), v_d7f = VERBS(d7f), v_d7m = VERBS(d7m),
                   v_d13 = VERBS(d13), v_d5 = VERBS(d5), v_d5m = VERBS(d5m);

/* the plan's head is onchip_plan's (the same offsets), read alike through onchip_plan_head */
static_assert(offsetof(perks_cgs_plan, path) == offsetof(onchip_plan, path) &&
                  offsetof(perks_cgs_plan, why) == offsetof(onchip_plan, why) &&
                  offsetof(perks_cgs_plan, steps_per_pass) == offsetof(onchip_plan, steps_per_pass) &&
                  offsetof(perks_cgs_plan, passes) == offsetof(onchip_plan, passes) &&
                  offsetof(perks_cgs_plan, workspace_bytes) == offsetof(onchip_plan, workspace_bytes) &&
                  offsetof(perks_cgs_plan, result) == offsetof(onchip_plan, result),
              "perks_cgs_plan begins with onchip_plan's head");

/* the promise of a plan's head (rc what name_plan returned for a): made, the grid path, its why,
 * no fixed step count, 1 + the refinements' launches (mixed: 2), its workspace, result a.x; refused,
 * why named, no launch */
static void check_head(const perks_cgs_plan *p, int rc, const perks_cgs_args *a, int mixed)
{
    const onchip_plan h = onchip_plan_head(p);
    CHECK(h.why == p->why && p->why && p->why[0], "why: '%s'", p->why ? p->why : "(null)");
    if (rc) {
        CHECK(p->passes == 0 && p->workspace_bytes == 0, "refused (rc %d) with %lld passes", rc, p->passes);
        return;
    }
    CHECK(p->path == PERKS_CG_PATH_GRID && !strncmp(p->why, "grid", 4), "path %d, why '%s'", p->path, p->why);
    CHECK(p->steps_per_pass == 0 && p->passes == (mixed ? 2 : 1 + PERKS_CG_RESTARTS), "steps_per_pass %d, passes %lld",
          p->steps_per_pass, p->passes);
    CHECK(p->workspace_bytes > 0 && p->result == a->x, "workspace %zu bytes, result %p (a.x %p)", p->workspace_bytes,
          p->result, a->x);
}

/* one compare(): the shape (0 7-point, 1 13-point, 2 27-point, 3 5-point), the grid, the solver
 * (double, float or mixed), tol, Jacobi, x0; kf the cell field of an ONCHIP_OPERATOR_DIVK instance (0
 * none; 1 layers along z, 1 and 1000, each cell +-30 %; 2 blocks of 3 x 3 x 3 cells, k log-uniform in
 * [1e-3, 1]) and its face rule */
typedef struct cmp_case {
    int shape, nx, ny, nz;
    const verbs *f64; /* double (and mixed) instances */
    const verbs *f32; /* the float instance */
    int mixed;
    double tol;
    int jacobi, x0;
    int kf, face;
    int blocks; /* opts.blocks: 0 the occupancy's grid, else at most this many blocks */
} cmp_case;

/* the cell field of kind kf (cmp_case) on an nx x ny x nz grid, fresh random */
static void kfield(int kf, int nx, int ny, int nz, double *k)
{
    const int bx = (nx + 2) / 3, by = (ny + 2) / 3, bz = (nz + 2) / 3;
    double *blk = (double *)malloc(sizeof(double) * (size_t)bx * by * bz);
    for (int b = 0; b < bx * by * bz; b++) blk[b] = pow(10.0, -1.5 * (gpucheck_uniform() + 1));
    for (int i = 0; i < nx * ny * nz; i++) {
        const int x = i % nx, y = i / nx % ny, z = i / (nx * ny);
        k[i] = kf == 1 ? (z < nz / 2 ? 1.0 : 1000.0) * (1 + 0.3 * gpucheck_uniform())
                       : blk[x / 3 + bx * (y / 3 + by * (z / 3))];
    }
    free(blk);
}

/* DIVK: the plan's 1 / A_ii (p.ws.dv: float for a float instance, else double) against the CSR's
 * diagonal written out on the host */
static void check_diag(const perks_csr *A, const perks_cgs_plan *p, int f32)
{
    const int n = A->n_rows;
    double *h = (double *)malloc(sizeof(double) * n), worst = 0;
    if (f32) {
        float *t = (float *)malloc(sizeof(float) * n);
        CUDA_OK(cudaMemcpy(t, p->ws.dv, sizeof(float) * n, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) h[i] = t[i];
        free(t);
    } else CUDA_OK(cudaMemcpy(h, p->ws.dv, sizeof(double) * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        for (int e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++)
            if (A->col[e] == i) {
                const double d = fabs(h[i] * A->val[e] - 1);
                if (!(d <= worst)) worst = d;
            }
    CHECK(worst <= (f32 ? 1e-6 : 1e-13), "the plan's 1 / A_ii off the host's diagonal by %.3g (relative)", worst);
    free(h);
}

/* one comparison: the matrix-free solve (c's f64 or f32) against csr64 on the same b (and the same
 * operator written out as CSR on the host: DIVK's from c's cell field) */
static void compare(const char *name, const pts *p, const double *w, const cmp_case *c)
{
    const int nx = c->nx, ny = c->ny, nz = c->nz, jacobi = c->jacobi, x0 = c->x0, mixed = c->mixed;
    const verbs *f64 = c->f64, *f32 = c->f32;
    const double tol = c->tol;
    char cname[200];
    snprintf(cname, sizeof cname, "%s%s %dx%dx%d %s tol %.0e jacobi %d x0 %d", c->kf ? "divk " : "", name, nx, ny, nz,
             f32 ? "float" : mixed ? "mixed" : "double", tol, jacobi, x0);
    if (c->kf) snprintf(cname + strlen(cname), sizeof cname - strlen(cname), " k %s %s", c->kf == 1 ? "layers" : "blocks",
                        onchip_face_name(c->face));
    case_begin(cname);
    const int n = nx * ny * nz;
    double *hk = c->kf ? (double *)malloc(sizeof(double) * n) : NULL, *dk = NULL;
    if (hk) {
        kfield(c->kf, nx, ny, nz, hk);
        if (f32) for (int i = 0; i < n; i++) hk[i] = (float)hk[i]; /* the float instance's k */
        CUDA_OK(cudaMalloc(&dk, sizeof(double) * n));
        if (f32) {
            float *t = (float *)malloc(sizeof(float) * n);
            for (int i = 0; i < n; i++) t[i] = (float)hk[i];
            CUDA_OK(cudaMemcpy(dk, t, sizeof(float) * n, cudaMemcpyHostToDevice));
            free(t);
        } else CUDA_OK(cudaMemcpy(dk, hk, sizeof(double) * n, cudaMemcpyHostToDevice));
    }
    perks_csr A;
    to_csr_k(p, w, hk, c->face, nx, ny, nz, &A);
    double *hb = (double *)malloc(sizeof(double) * n), *hx = (double *)malloc(sizeof(double) * n),
           *hx0 = (double *)malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) hb[i] = gpucheck_uniform(), hx0[i] = x0 ? gpucheck_uniform() : NAN;
    int *drp, *dci;
    double *dva, *db, *dx, *dxc;
    CUDA_OK(cudaMalloc(&drp, sizeof(int) * (n + 1)));
    CUDA_OK(cudaMalloc(&dci, sizeof(int) * A.nnz));
    CUDA_OK(cudaMalloc(&dva, sizeof(double) * A.nnz));
    CUDA_OK(cudaMalloc(&db, sizeof(double) * n));
    CUDA_OK(cudaMalloc(&dx, sizeof(double) * n));
    CUDA_OK(cudaMalloc(&dxc, sizeof(double) * n));
    CUDA_OK(cudaMemcpy(drp, A.row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dci, A.col, sizeof(int) * A.nnz, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dva, A.val, sizeof(double) * A.nnz, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(db, hb, sizeof(double) * n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dxc, hx0, sizeof(double) * n, cudaMemcpyHostToDevice));
    perks_cg_opts o = perks_cg_defaults();
    o.tol = tol, o.jacobi = jacobi, o.x0 = x0, o.max_iter = 20000, o.blocks = c->blocks;
    perks_cg_result rc_, rm;
    perks_cg_args ac = {};
    ac.n = n, ac.nnz = A.nnz, ac.row_ptr = drp, ac.col = dci, ac.val = dva, ac.b = db, ac.x = dxc, ac.opts = o;
    ac.result = &rc_;
    int sc = csr64_launch(&ac, 0);
    int sm;
    /* the matrix-free solve: plan, run (from p.result), free */
    perks_cgs_args a = {};
    a.nx = nx, a.ny = ny, a.nz = nz, a.w = w, a.opts = o, a.result = &rm, a.k = dk, a.face = c->face;
    perks_cgs_plan pl;
    double eps = 1.1102230246251565e-16;
    if (f32) { /* float: b and x0 rounded to float; the host residual from the float x and the rounded b */
        float *fb, *fx, *hf = (float *)malloc(sizeof(float) * n);
        CUDA_OK(cudaMalloc(&fb, sizeof(float) * n));
        CUDA_OK(cudaMalloc(&fx, sizeof(float) * n));
        for (int i = 0; i < n; i++) hf[i] = (float)hb[i], hb[i] = hf[i];
        CUDA_OK(cudaMemcpy(fb, hf, sizeof(float) * n, cudaMemcpyHostToDevice));
        for (int i = 0; i < n; i++) hf[i] = (float)hx0[i];
        CUDA_OK(cudaMemcpy(fx, hf, sizeof(float) * n, cudaMemcpyHostToDevice));
        a.b = fb, a.x = fx;
        sm = f32->plan(&a, &pl);
        check_head(&pl, sm, &a, 0);
        if (!sm && hk) check_diag(&A, &pl, 1);
        if (!sm) sm = f32->run(&a, &pl, 0);
        CUDA_OK(cudaMemcpy(hf, sm ? fx : pl.result, sizeof(float) * n, cudaMemcpyDeviceToHost));
        perks_cgs_plan_free(&pl);
        for (int i = 0; i < n; i++) hx[i] = hf[i];
        eps = 5.9604644775390625e-08;
        cudaFree(fb), cudaFree(fx), free(hf);
    } else {
        CUDA_OK(cudaMemcpy(dx, hx0, sizeof(double) * n, cudaMemcpyHostToDevice));
        a.b = db, a.x = dx;
        sm = f64->plan(&a, &pl);
        check_head(&pl, sm, &a, mixed);
        if (!sm && hk) check_diag(&A, &pl, 0);
        if (!sm) sm = f64->run(&a, &pl, 0);
        CUDA_OK(cudaMemcpy(hx, sm ? dx : pl.result, sizeof(double) * n, cudaMemcpyDeviceToHost));
        perks_cgs_plan_free(&pl);
    }
    double fl = 0;
    const double tr = host_resid(&A, hb, hx, eps, &fl);
    printf("  %s: csr %d (%d it, true %.3g), stencil %d (%d it, %d rounds, ran %d, true %.3g, host %.3g, floor %.3g)\n", cname,
           sc, rc_.iterations, rc_.true_residual, sm, rm.iterations, rm.replacements, rm.ran, rm.true_residual, tr,
           rm.rounding_floor);
    CHECK(sc == rc_.status, "csr: returned %d, res.status %d", sc, rc_.status);
    CHECK(sm == PERKS_SUCCESS, "status %d (%s)", sm, perks_strerror(sm));
    CHECK(sm == rm.status, "returned %d, res.status %d", sm, rm.status);
    CHECK(tr <= tol, "host true residual %.3g above tol %.0e", tr, tol);
    /* the two residuals of one x differ by their rounding (2 floors); with a cell field also by the
     * operator's: the device forms each face from k (two k's, 3 roundings) and the diagonal as their
     * sum (6 more), the host's CSR in another order -- up to ~10 eps |A||x| (a 1x1x1 DIVK solve, x one
     * division from b: reported 3.0e-16, host 0, floor 1.1e-16, H200) */
    const double rtol = (c->kf ? 12 : 2) * fl;
    CHECK(fabs(tr - rm.true_residual) <= 1e-6 * tr + rtol, "reported true residual %.9g, host %.9g (floor %.3g)",
          rm.true_residual, tr, fl);
    CHECK(fabs(fl - rm.rounding_floor) <= 1e-3 * fl, "reported floor %.9g, host %.9g", rm.rounding_floor, fl);
    CHECK(rm.at_floor == (tol < PERKS_CG_FLOOR_MARGIN * rm.rounding_floor), "at_floor %d", rm.at_floor);
    if (!mixed && !f32 && sc == PERKS_SUCCESS) {
        /* DIVK's 1000x jumps: CG's rounding spreads further (2 + it/20) */
        const int d = abs(rm.iterations - rc_.iterations), slack = c->kf ? 2 + rc_.iterations / 20 : 1 + rc_.iterations / 50;
        CHECK(d <= slack, "iterations %d, csr %d", rm.iterations, rc_.iterations);
    }
    if (mixed) CHECK(rm.ran == PERKS_CG_RAN_MIXED, "ran %d", rm.ran);
    cudaFree(drp), cudaFree(dci), cudaFree(dva), cudaFree(db), cudaFree(dx), cudaFree(dxc), cudaFree(dk);
    free(hb), free(hx), free(hx0), free(hk);
    perks_csr_free(&A);
    case_end();
}

/* whether the n doubles at d hold the byte `pat` in every byte */
static int poisoned(const double *d, int n, int pat)
{
    unsigned char *h = (unsigned char *)malloc(sizeof(double) * (size_t)n);
    int ok = h && cudaMemcpy(h, d, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (size_t i = 0; ok && i < sizeof(double) * (size_t)n; i++) ok = h[i] == (unsigned char)pat;
    free(h);
    return ok;
}
/* whether the n doubles at d are the bytes of want (host) */
static int poisoned_b(const double *d, const double *want, int n)
{
    double *h = (double *)malloc(sizeof(double) * (size_t)n);
    int ok = h && cudaMemcpy(h, d, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost) == cudaSuccess &&
             memcmp(h, want, sizeof(double) * (size_t)n) == 0;
    free(h);
    return ok;
}

/* one solve's arguments */
static perks_cgs_args mk(int nx, int ny, int nz, const double *w, const void *b, void *x, const perks_cg_opts *o,
                         perks_cg_result *r)
{
    perks_cgs_args a = {};
    a.nx = nx, a.ny = ny, a.nz = nz, a.w = w, a.b = b, a.x = x, a.opts = *o, a.result = r;
    return a;
}
/* the same with an ONCHIP_OPERATOR_DIVK instance's cell field k and face rule */
static perks_cgs_args mkk(int nx, int ny, int nz, const double *w, const void *b, void *x, const perks_cg_opts *o,
                          perks_cg_result *r, const void *k, int face)
{
    perks_cgs_args a = mk(nx, ny, nz, w, b, x, o, r);
    a.k = k, a.face = face;
    return a;
}
/* name_launch of a: plan, run, free */
static int solve(const verbs *v, perks_cgs_args a)
{
    const int rc = v->launch(&a, 0);
    CHECK(!a.result || a.result->status == rc, "returned %d, result.status %d", rc, a.result->status);
    return rc;
}

/* the error codes and the edge cases */
static void edges(void)
{
    const pts p7 = pts7();
    double w[32], bad[32];
    weights(&p7, 6, -1, 0, 0, w);
    const int n = 20 * 10 * 6;
    double *db, *dx, *h = (double *)malloc(sizeof(double) * n);
    perks_cg_opts o = perks_cg_defaults();
    perks_cg_result r;
    case_begin("cg_stencil errors (x poisoned: a refused call writes nothing)");
    CUDA_OK(cudaMalloc(&db, sizeof(double) * n));
    CUDA_OK(cudaMalloc(&dx, sizeof(double) * n));
    for (int i = 0; i < n; i++) h[i] = 1;
    CUDA_OK(cudaMemcpy(db, h, sizeof(double) * n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dx, 0xA5, sizeof(double) * n)); /* every refused call below must leave these bytes */
/* a solve refused with CODE: the plan says why and holds nothing; name_launch launches nothing (x
 * and b keep their bytes) */
#define REFUSED(V, ARGS, code, what)                                                                        \
    do {                                                                                                    \
        const perks_cgs_args a__ = ARGS;                                                                    \
        perks_cgs_plan p__;                                                                                 \
        const int rp__ = (V).plan(&a__, &p__);                                                              \
        CHECK(rp__ == (code), "%s: plan rc %d (%s), want %s", what, rp__, perks_strerror(rp__), #code);    \
        check_head(&p__, rp__ ? rp__ : -1, &a__, 0);                                                        \
        perks_cgs_plan_free(&p__);                                                                          \
        const int rc__ = (V).launch(&a__, 0);                                                               \
        CHECK(rc__ == (code), "%s: rc %d (%s), want %s", what, rc__, perks_strerror(rc__), #code);          \
        if (a__.result) CHECK(r.status == rc__, "%s: result.status %d", what, r.status);                    \
        CHECK(poisoned(dx, n, 0xA5), "%s: x written by a refused call", what);                              \
        CHECK(poisoned_b(db, h, n), "%s: b written", what);                                                 \
    } while (0)
    REFUSED(v_p7, mk(20, 10, 6, NULL, db, dx, &o, &r), PERKS_ENULL, "NULL w");
    REFUSED(v_p7, mk(20, 10, 6, w, NULL, dx, &o, &r), PERKS_ENULL, "NULL b");
    REFUSED(v_p7, mk(20, 10, 6, w, db, NULL, &o, &r), PERKS_ENULL, "NULL x");
    REFUSED(v_p7, mk(20, 10, 6, w, db, dx, &o, NULL), PERKS_ENULL, "NULL result");
    REFUSED(v_p7, mk(0, 10, 6, w, db, dx, &o, &r), PERKS_ESIZE, "nx 0");
    REFUSED(v_p7, mk(20, 10, -1, w, db, dx, &o, &r), PERKS_ESIZE, "nz -1");
    REFUSED(v_p7, mk(65536, 65536, 1, w, db, dx, &o, &r), PERKS_ESIZE, "2^32 cells");
    REFUSED(v_p5, mk(20, 10, 2, w, db, dx, &o, &r), PERKS_ESIZE, "2D with nz 2");
    o.tol = 0;
    REFUSED(v_p7, mk(20, 10, 6, w, db, dx, &o, &r), PERKS_ESIZE, "tol 0");
    o.tol = NAN;
    REFUSED(v_p7, mk(20, 10, 6, w, db, dx, &o, &r), PERKS_ESIZE, "tol NaN");
    o = perks_cg_defaults();
    o.max_iter = -1;
    REFUSED(v_p7, mk(20, 10, 6, w, db, dx, &o, &r), PERKS_ESIZE, "max_iter -1");
    REFUSED(v_p7m, mk(20, 10, 6, w, db, dx, &o, &r), PERKS_ESIZE, "max_iter -1 (mixed)");
    o = perks_cg_defaults();
    o.blocks = -1;
    REFUSED(v_p7, mk(20, 10, 6, w, db, dx, &o, &r), PERKS_ESIZE, "blocks -1");
    o = perks_cg_defaults();
    memcpy(bad, w, sizeof w), bad[1] = -1.5;
    REFUSED(v_p7, mk(20, 10, 6, bad, db, dx, &o, &r), PERKS_ENOTSYM, "asymmetric");
    REFUSED(v_p7m, mk(20, 10, 6, bad, db, dx, &o, &r), PERKS_ENOTSYM, "asymmetric (mixed)");
    memcpy(bad, w, sizeof w), bad[0] = 0;
    REFUSED(v_p7, mk(20, 10, 6, bad, db, dx, &o, &r), PERKS_EDIAG, "centre 0");
    bad[0] = -6;
    REFUSED(v_p7, mk(20, 10, 6, bad, db, dx, &o, &r), PERKS_EDIAG, "centre -6");
    bad[0] = INFINITY;
    REFUSED(v_p7, mk(20, 10, 6, bad, db, dx, &o, &r), PERKS_EDIAG, "centre inf");
    memcpy(bad, w, sizeof w), bad[3] = bad[4] = NAN;
    REFUSED(v_p7, mk(20, 10, 6, bad, db, dx, &o, &r), PERKS_EFORMAT, "NaN weight");
    /* ONCHIP_OPERATOR_DIVK: k and face; the weights' signs; a cell's k (b = 1 serves as k where it is
     * good); k on a constant instance and on the multigrid */
    double *dk;
    CUDA_OK(cudaMalloc(&dk, sizeof(double) * n));
    CUDA_OK(cudaMemcpy(dk, h, sizeof(double) * n, cudaMemcpyHostToDevice));
    REFUSED(v_d7, mkk(20, 10, 6, w, db, dx, &o, &r, NULL, 0), PERKS_ENULL, "divk: NULL k");
    REFUSED(v_d7m, mkk(20, 10, 6, w, db, dx, &o, &r, NULL, 0), PERKS_ENULL, "divk: NULL k (mixed)");
    REFUSED(v_d7, mkk(20, 10, 6, w, db, dx, &o, &r, dk, 2), PERKS_EFORMAT, "divk: face 2");
    REFUSED(v_d7, mkk(20, 10, 6, w, db, dx, &o, &r, dk, -1), PERKS_EFORMAT, "divk: face -1");
    memcpy(bad, w, sizeof w), bad[2] = bad[1] = 0.5;
    REFUSED(v_d7, mkk(20, 10, 6, bad, db, dx, &o, &r, dk, 0), PERKS_EFORMAT, "divk: an off-centre weight > 0");
    memcpy(bad, w, sizeof w), bad[0] = 5;
    REFUSED(v_d7, mkk(20, 10, 6, bad, db, dx, &o, &r, dk, 0), PERKS_EFORMAT, "divk: the weights' sum < 0");
    REFUSED(v_p7, mkk(20, 10, 6, w, db, dx, &o, &r, dk, 0), PERKS_EUNSUPPORTED, "k on a constant instance");
    { /* -laplace / h^2: a weight sum that is 0 but for its rounding is taken; name_run with another k refused */
        static const double hs[] = {0.1, 0.2, 1.0 / 3, 1.0 / 7};
        for (int j = 0; j < 4; j++) {
            double wh[32];
            weights(&p7, 6 / (hs[j] * hs[j]), -1 / (hs[j] * hs[j]), 0, 0, wh);
            perks_cgs_args a = mkk(20, 10, 6, wh, db, dx, &o, &r, dk, ONCHIP_FACE_HARMONIC);
            perks_cgs_plan p;
            const int rp = d7_plan(&a, &p);
            CHECK(rp == PERKS_SUCCESS, "h %g: plan %d (%s)", hs[j], rp, p.why);
            a.k = db; /* another field */
            CHECK(rp || d7_run(&a, &p, 0) == PERKS_EUNSUPPORTED, "h %g: run with another k", hs[j]);
            perks_cgs_plan_free(&p);
        }
        CHECK(poisoned(dx, n, 0xA5), "x written by a refused run");
    }
    REFUSED(v_p7m, mkk(20, 10, 6, w, db, dx, &o, &r, dk, 0), PERKS_EUNSUPPORTED, "k on a constant instance (mixed)");
    static const double badk[] = {0, -1, NAN, INFINITY, 1e30, 1e-30};
    for (int j = 0; j < (int)(sizeof badk / sizeof *badk); j++) {
        double *hk = (double *)malloc(sizeof(double) * n);
        for (int i = 0; i < n; i++) hk[i] = 1 + i % 7;
        hk[(j * 397) % n] = badk[j];
        CUDA_OK(cudaMemcpy(dk, hk, sizeof(double) * n, cudaMemcpyHostToDevice));
        char what[64];
        snprintf(what, sizeof what, "divk: a cell's k %g", badk[j]);
        REFUSED(v_d7, mkk(20, 10, 6, w, db, dx, &o, &r, dk, j & 1), PERKS_EFORMAT, what);
        REFUSED(v_d7m, mkk(20, 10, 6, w, db, dx, &o, &r, dk, j & 1), PERKS_EFORMAT, what);
        free(hk);
    }
    cudaFree(dk);
#undef REFUSED
    { /* name_run re-checks a's b, x and result, and refuses a freed plan */
        perks_cgs_args a = mk(20, 10, 6, w, db, dx, &o, &r);
        perks_cgs_plan p;
        CHECK(p7_plan(&a, &p) == 0, "a good plan: %s", p.why);
        check_head(&p, 0, &a, 0);
        CHECK(p7_run(NULL, &p, 0) == PERKS_ENULL && p7_run(&a, NULL, 0) == PERKS_ENULL, "run NULL");
        a.b = NULL;
        CHECK(p7_run(&a, &p, 0) == PERKS_ENULL && r.status == PERKS_ENULL, "run NULL b");
        a.b = db, a.x = NULL;
        CHECK(p7_run(&a, &p, 0) == PERKS_ENULL, "run NULL x");
        a.x = dx, a.result = NULL;
        CHECK(p7_run(&a, &p, 0) == PERKS_ENULL, "run NULL result");
        a.result = &r;
        perks_cgs_plan_free(&p);
        CHECK(p7_run(&a, &p, 0) == PERKS_ESIZE && r.status == PERKS_ESIZE, "freed plan");
        CHECK(poisoned(dx, n, 0xA5), "x written by a refused run");
        perks_cgs_plan_free(NULL);
    }
    /* indefinite: centre 1, neighbours -1, b = 1: p.Ap = b.Ab < 0 at the first iteration */
    memcpy(bad, w, sizeof w), bad[0] = 1;
    int rc = solve(&v_p7, mk(20, 10, 6, bad, db, dx, &o, &r));
    CHECK(rc == PERKS_EBREAKDOWN && r.iterations == 0, "indefinite: %d after %d iterations", rc, r.iterations);
    rc = solve(&v_p7m, mk(20, 10, 6, bad, db, dx, &o, &r));
    CHECK(rc == PERKS_EBREAKDOWN, "indefinite (mixed): %d", rc);
    /* the iteration limit */
    o.max_iter = 5;
    rc = solve(&v_p7, mk(20, 10, 6, w, db, dx, &o, &r));
    CHECK(rc == PERKS_ENOCONV && r.iterations == 5 && r.true_residual > o.tol, "max_iter 5: %d, %d it", rc, r.iterations);
    o.max_iter = 0;
    rc = solve(&v_p7, mk(20, 10, 6, w, db, dx, &o, &r));
    CHECK(rc == PERKS_ENOCONV && r.iterations == 0, "max_iter 0: %d, %d it", rc, r.iterations);
    o = perks_cg_defaults();
    /* b = 0: x = 0, no iteration (x poisoned before) */
    CUDA_OK(cudaMemset(db, 0, sizeof(double) * n));
    CUDA_OK(cudaMemset(dx, 0xff, sizeof(double) * n));
    rc = solve(&v_p7, mk(20, 10, 6, w, db, dx, &o, &r));
    CUDA_OK(cudaMemcpy(h, dx, sizeof(double) * n, cudaMemcpyDeviceToHost));
    int nz_ = 0;
    for (int i = 0; i < n; i++) nz_ += h[i] != 0;
    CHECK(rc == PERKS_SUCCESS && r.iterations == 0 && nz_ == 0, "b = 0: %d, %d it, %d nonzero", rc, r.iterations, nz_);
    CUDA_OK(cudaMemset(dx, 0xff, sizeof(double) * n));
    rc = solve(&v_p7m, mk(20, 10, 6, w, db, dx, &o, &r));
    CUDA_OK(cudaMemcpy(h, dx, sizeof(double) * n, cudaMemcpyDeviceToHost));
    nz_ = 0;
    for (int i = 0; i < n; i++) nz_ += h[i] != 0;
    CHECK(rc == PERKS_SUCCESS && nz_ == 0, "b = 0 (mixed): %d, %d nonzero", rc, nz_);
    cudaFree(db), cudaFree(dx), free(h);
    case_end();
}

/* one plan, three solves: b1, b2, b1 again -- each answer where p.result says, its true residual the
 * host's (from the CSR of the operator) and <= tol; the third the first's bits */
static void repro(int light)
{
    case_begin("cg_stencil: one plan, two right-hand sides and the first again (bitwise the first)");
    const pts sh = pts7();
    double w[32];
    weights(&sh, 6, -1, 0, 0, w);
    const int nx = light ? 13 : 45, ny = light ? 11 : 33, nz = light ? 7 : 21, n = nx * ny * nz;
    perks_csr A;
    to_csr(&sh, w, nx, ny, nz, &A);
    double *hb = (double *)malloc(sizeof(double) * 2 * n), *hx = (double *)malloc(sizeof(double) * 3 * n), *db, *dx;
    for (int i = 0; i < 2 * n; i++) hb[i] = gpucheck_uniform();
    CUDA_OK(cudaMalloc(&db, sizeof(double) * 2 * n));
    CUDA_OK(cudaMalloc(&dx, sizeof(double) * n));
    CUDA_OK(cudaMemcpy(db, hb, sizeof(double) * 2 * n, cudaMemcpyHostToDevice));
    perks_cg_opts o = perks_cg_defaults();
    perks_cg_result r[3];
    perks_cgs_args a = mk(nx, ny, nz, w, db, dx, &o, &r[0]);
    perks_cgs_plan p;
    int rc = p7_plan(&a, &p);
    CHECK(rc == 0, "plan: %s (%s)", perks_strerror(rc), p.why);
    check_head(&p, rc, &a, 0);
    for (int k = 0; k < 3 && !rc; k++) {
        const int rhs = k == 1;
        double fl = 0;
        a.b = db + (size_t)rhs * n, a.result = &r[k];
        CUDA_OK(cudaMemset(dx, 0xff, sizeof(double) * n)); /* NaN: every solve starts from x = 0 */
        const int rk = p7_run(&a, &p, 0);
        CUDA_OK(cudaMemcpy(hx + (size_t)k * n, p.result, sizeof(double) * n, cudaMemcpyDeviceToHost));
        const double tr = host_resid(&A, hb + (size_t)rhs * n, hx + (size_t)k * n, 1.1102230246251565e-16, &fl);
        CHECK(rk == PERKS_SUCCESS && rk == r[k].status, "solve %d: %s (status %d)", k, perks_strerror(rk), r[k].status);
        CHECK(tr <= o.tol, "solve %d: host true residual %.3g above tol", k, tr);
        CHECK(fabs(tr - r[k].true_residual) <= 1e-6 * tr + 2 * fl, "solve %d: reported true residual %.9g, host %.9g", k,
              r[k].true_residual, tr);
    }
    if (!rc) {
        CHECK(memcmp(hx, hx + n, sizeof(double) * n) != 0, "the two right-hand sides gave the same x");
        CHECK(r[0].iterations == r[2].iterations && !memcmp(hx, hx + 2 * (size_t)n, sizeof(double) * n),
              "the first right-hand side again: %d iterations (%d), x %s", r[2].iterations, r[0].iterations,
              memcmp(hx, hx + 2 * (size_t)n, sizeof(double) * n) ? "differs" : "the same");
    }
    perks_cgs_plan_free(&p);
    cudaFree(db), cudaFree(dx), free(hb), free(hx);
    perks_csr_free(&A);
    case_end();
}

/* --light (compute-sanitizer): small grids, every kernel once, on 2 to 5 blocks (racecheck's time grows
 * with the blocks, and the occupancy's grid idles on grids this small) */
static const cmp_case light_cases[] = {
    {0, 13, 9, 7, &v_p7, NULL, 0, 1e-10, 1, 0, 0, 0, 3},   {0, 13, 9, 7, NULL, &v_p7f, 0, 1e-4, 0, 1, 0, 0, 4},
    {0, 13, 9, 7, &v_p7m, NULL, 1, 1e-10, 0, 0, 0, 0, 5},  {1, 9, 11, 10, &v_p13, NULL, 0, 1e-9, 0, 0, 0, 0, 2},
    {2, 7, 9, 5, &v_p27, NULL, 0, 1e-10, 0, 0, 0, 0, 3},   {3, 31, 17, 1, &v_p5, NULL, 0, 1e-10, 0, 0, 0, 0, 4},
    {3, 31, 17, 1, &v_p5m, NULL, 1, 1e-10, 0, 1, 0, 0, 5},
    {0, 13, 9, 7, &v_d7, NULL, 0, 1e-10, 1, 0, 1, ONCHIP_FACE_ARITH, 2},
    {0, 13, 9, 7, NULL, &v_d7f, 0, 1e-4, 1, 1, 2, ONCHIP_FACE_HARMONIC, 3},
    {0, 13, 9, 7, &v_d7m, NULL, 1, 1e-10, 1, 0, 2, ONCHIP_FACE_HARMONIC, 4},
    {1, 9, 11, 10, &v_d13, NULL, 0, 1e-9, 0, 0, 1, ONCHIP_FACE_HARMONIC, 5},
    {3, 31, 17, 1, &v_d5m, NULL, 1, 1e-10, 1, 1, 1, ONCHIP_FACE_ARITH, 2},
};
static const cmp_case full_cases[] = {
    {0, 1, 1, 1, &v_p7, NULL, 0, 1e-10, 0, 0, 0, 0, 0},
    {0, 1, 40, 1, &v_p7, NULL, 0, 1e-10, 0, 0, 0, 0, 0},
    {0, 1, 1, 77, &v_p7, NULL, 0, 1e-10, 1, 0, 0, 0, 0},
    {0, 37, 29, 23, &v_p7, NULL, 0, 1e-8, 0, 0, 0, 0, 0},
    {0, 37, 29, 23, &v_p7, NULL, 0, 1e-10, 1, 0, 0, 0, 0},
    {0, 37, 29, 23, &v_p7, NULL, 0, 1e-8, 0, 1, 0, 0, 0},
    {0, 37, 29, 23, NULL, &v_p7f, 0, 1e-4, 0, 0, 0, 0, 0},
    {0, 37, 29, 23, &v_p7m, NULL, 1, 1e-10, 0, 0, 0, 0, 0},
    {0, 37, 29, 23, &v_p7m, NULL, 1, 1e-12, 1, 1, 0, 0, 0},
    {0, 37, 29, 23, &v_p7, NULL, 0, 1e-10, 1, 0, 0, 0, 5}, /* 5 blocks: many work items a block */
    {1, 33, 17, 40, &v_p13, NULL, 0, 1e-9, 0, 0, 0, 0, 0},
    {2, 19, 31, 13, &v_p27, NULL, 0, 1e-10, 1, 0, 0, 0, 0},
    {3, 101, 77, 1, &v_p5, NULL, 0, 1e-10, 0, 0, 0, 0, 0},
    {3, 101, 77, 1, &v_p5m, NULL, 1, 1e-10, 0, 1, 0, 0, 0},
    {0, 130, 97, 61, &v_p7, NULL, 0, 1e-10, 0, 0, 0, 0, 0},
    {0, 130, 97, 61, &v_p7m, NULL, 1, 1e-10, 0, 0, 0, 0, 0},
    {3, 700, 513, 1, &v_p5, NULL, 0, 1e-9, 1, 0, 0, 0, 0},
    /* a 3D grid of 256^3: the sweep's z chunks on a full GPU (double and mixed) */
    {0, 256, 256, 256, &v_p7, NULL, 0, 1e-8, 0, 0, 0, 0, 0},
    {0, 256, 256, 256, &v_p7m, NULL, 1, 1e-10, 0, 0, 0, 0, 0},
    /* ONCHIP_OPERATOR_DIVK: both face rules, 1000x jumps, ragged grids */
    {0, 1, 1, 1, &v_d7, NULL, 0, 1e-10, 1, 0, 2, ONCHIP_FACE_HARMONIC, 0},
    {0, 1, 40, 1, &v_d7, NULL, 0, 1e-10, 0, 0, 2, ONCHIP_FACE_ARITH, 0},
    {0, 37, 29, 23, &v_d7, NULL, 0, 1e-10, 1, 0, 1, ONCHIP_FACE_ARITH, 0},
    {0, 37, 29, 23, &v_d7, NULL, 0, 1e-10, 1, 0, 2, ONCHIP_FACE_HARMONIC, 0},
    {0, 37, 29, 23, &v_d7, NULL, 0, 1e-9, 0, 1, 1, ONCHIP_FACE_HARMONIC, 0},
    {0, 37, 29, 23, NULL, &v_d7f, 0, 1e-4, 1, 0, 2, ONCHIP_FACE_ARITH, 0},
    {0, 37, 29, 23, NULL, &v_d7f, 0, 1e-4, 0, 0, 1, ONCHIP_FACE_HARMONIC, 0},
    {0, 37, 29, 23, &v_d7m, NULL, 1, 1e-10, 1, 0, 1, ONCHIP_FACE_HARMONIC, 0},
    {0, 37, 29, 23, &v_d7m, NULL, 1, 1e-12, 0, 1, 2, ONCHIP_FACE_ARITH, 0},
    {0, 37, 29, 23, &v_d7m, NULL, 1, 1e-10, 1, 0, 2, ONCHIP_FACE_HARMONIC, 7},
    {1, 33, 17, 40, &v_d13, NULL, 0, 1e-9, 1, 0, 2, ONCHIP_FACE_HARMONIC, 0},
    {3, 101, 77, 1, &v_d5, NULL, 0, 1e-10, 1, 0, 2, ONCHIP_FACE_HARMONIC, 0},
    {3, 101, 77, 1, &v_d5m, NULL, 1, 1e-10, 0, 1, 1, ONCHIP_FACE_ARITH, 0},
    {0, 130, 97, 61, &v_d7, NULL, 0, 1e-10, 1, 0, 2, ONCHIP_FACE_HARMONIC, 0},
    {0, 130, 97, 61, &v_d7m, NULL, 1, 1e-10, 1, 0, 1, ONCHIP_FACE_ARITH, 0},
    {0, 256, 256, 256, &v_d7, NULL, 0, 1e-8, 1, 0, 2, ONCHIP_FACE_HARMONIC, 0},
    {0, 256, 256, 256, &v_d7m, NULL, 1, 1e-10, 1, 0, 1, ONCHIP_FACE_ARITH, 0},
};
#define N_LIGHT_CASES ((int)(sizeof light_cases / sizeof *light_cases))
#define N_FULL_CASES ((int)(sizeof full_cases / sizeof *full_cases))

/* usage: test_perks_cg_stencil [--light] [--part K/N]   (--light: small grids, for compute-sanitizer;
 * --part: the table's cases i with i % N == K, and the edges and repro in part 0, the rest skipped) */
int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    int part, parts;
    const int bad_part = gpucheck_part(argc, argv, &part, &parts);
    /* edges (1), repro (1), then the table (--light: its own) */
    check_plan(2 + (light ? N_LIGHT_CASES : N_FULL_CASES) + (bad_part ? 1 : 0));
    if (bad_part) {
        case_begin("cg_stencil --part K/N: 0 <= K < N");
        CHECK(0, "a --part that is not K/N with 0 <= K < N");
        case_end();
    }
    const pts sh[4] = {pts7(), pts13(), pts27(), pts5()};
    static const char *names[4] = {"7pt", "13pt", "27pt", "5pt"};
    double w[4][32], wk13[32], wk7[32];
    weights(&sh[0], 6, -1, 0, 0, w[0]);
    weights(&sh[1], 7.5, -4.0 / 3, 1.0 / 12, 0, w[1]);
    weights(&sh[2], 26.5, -1, 0, -1, w[2]);
    weights(&sh[3], 4, -1, 0, 0, w[3]);
    weights(&sh[1], 9, -1, -0.5, 0, wk13);   /* DIVK takes off-centre weights <= 0 */
    weights(&sh[0], 6.25, -1, 0, 0, wk7);    /* and a shift s = 0.25 (the weights' sum) */
    if (part == 0) edges(), repro(light);
    else check_skip("cg_stencil errors", "--part"), check_skip("cg_stencil: one plan, two right-hand sides", "--part");
    const cmp_case *t = light ? light_cases : full_cases;
    for (int i = 0; i < (light ? N_LIGHT_CASES : N_FULL_CASES); i++)
        if (i % parts == part)
            compare(names[t[i].shape], &sh[t[i].shape],
                    !t[i].kf ? w[t[i].shape] : t[i].shape == 1 ? wk13 : t[i].shape == 0 && i % 2 ? wk7 : w[t[i].shape],
                    &t[i]);
        else check_skip(names[t[i].shape], "--part");
    return check_exit();
}
