/* tests/gpu/test_ssam_stencil_tc.cu -- ssam/stencil_tc.cuh (box stencils on tensor cores) against a
 * CPU reference in double: 3D boxes r = 1, 2, poisson (a box with holes), an asymmetric user shape;
 * 2D boxes r = 2, 4, 8x8 and a user shape; every mode (f64, tf32, tf32x3) on the radius-2 boxes and
 * explicit tiles (ssam_stencil_tc_policy); Dirichlet and periodic, several steps, ragged sizes (domains smaller than a
 * tile and than the stencil, several tiles in x and y, several Z segments), a padded pitch.  Each
 * step's output is poisoned (NaN) first: every cell must be written, the padding never, and the
 * Dirichlet cells must keep their values bit for bit.  Every step runs through name_plan + name_run
 * (the plan's path SSAM_PATH_TC, why and head checked, the answer read from the plan's result); then
 * name_plan + name_run and name_launch of all the steps against the stepwise result (bitwise, in the
 * plan's result), Inf and NaN reaching exactly the cells whose points read them (the FMA path of the
 * planes that hold them), the paths (args.path SSAM_PATH_TC and SSAM_PATH_SIMT are the paths taken:
 * the bits of the tensor cores and of the SIMT instance), 0 steps, and every error code (a refused
 * plan names why, has no passes and launches nothing).
 * Bounds (rms of out - ref over the rms of the magnitude: the reference run with |c| on |u|, so that
 * a cancelling coefficient cannot make the measure ill-conditioned): f64 1e-12; tf32x3 1e-5
 * (float's); tf32 2e-3 per step (TF32: the data truncated to 10 mantissa bits, < 2^-10, the
 * weights rounded, <= 2^-11, the sums 2^-23 per product: at most 1.5e-3 in any cell; s steps'
 * errors add up).  (Over rms(ref) instead, the
 * measure is ill-conditioned: a 5 x 3 periodic domain reaches 8.5e-3 on some data.)
 * Per cell (bounds_stencil.h), every step against the step computed in double from the input the
 * kernel read, mag the sum of |c x| over the cell's points, B the cells of the shape's box (the
 * tensor cores multiply the whole box, zeros included; B products and at most B accumulator
 * roundings, 2 B in all, each at most an ulp of a sum bounded by mag):
 *   f64     |out - ref| <= 4 (2 B + 1) 2^-53 mag    (the reference rounds as much)
 *   tf32    |out - ref| <= 2 (2^-10 + (2 B + 1) 2^-23) mag, ref with the weights rounded to TF32 as
 *           the kernel rounds them (cvt.rna); the data's truncation is the 2^-10
 *   tf32x3  |out - ref| <= 2 (3 2^-22 + (2 B + 1) 2^-23) mag (big + small: 2^-22 per operand, the
 *           dropped small x small term 2^-22)
 * and the Dirichlet cells equal their input exactly, every step. */
#include <ssam/stencil_tc.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index: the CPU references' border rule */
#include "bounds_stencil.h"

#define USER2D(X) X(0, 0, 0) X(1, -1, 0) X(2, 0, -1) X(3, -2, 0) X(4, 1, 2) X(5, 3, -1)
#define USER3D(X) X(0, 0, 0, 0) X(1, 1, 0, -1) X(2, -2, 1, 0) X(3, 0, 0, 2) X(4, 0, -1, 1) X(5, 5, 0, 0)
#define DUP2D(X) X(0, 0, 0) X(1, 1, 0) X(2, 1, 0) /* an offset listed twice: refused */

/* name, mode, shape, dims, type (0 float, 1 double), tolerance of the norm (tf32: per step) */
#define LIST(X)                                                                                           \
    X(d_box3d_r2, f64, ONCHIP_SHAPE_BOX3D_R2, 3, 1, 1e-12)                                                  \
    X(f_box3d_r2, tf32, ONCHIP_SHAPE_BOX3D_R2, 3, 0, 2e-3)                                                  \
    X(x_box3d_r2, tf32x3, ONCHIP_SHAPE_BOX3D_R2, 3, 0, 1e-5)                                                \
    X(d_box3d_r1, f64, ONCHIP_SHAPE_BOX3D_R1, 3, 1, 1e-12)                                                  \
    X(x_box3d_r1, tf32x3, ONCHIP_SHAPE_BOX3D_R1, 3, 0, 1e-5)                                                \
    X(d_poisson, f64, ONCHIP_SHAPE_POISSON3D_19, 3, 1, 1e-12)                                               \
    X(d_box2d_r4, f64, ONCHIP_SHAPE_BOX2D_R4, 2, 1, 1e-12)                                                  \
    X(f_box2d_r4, tf32, ONCHIP_SHAPE_BOX2D_R4, 2, 0, 2e-3)                                                  \
    X(x_box2d_r4, tf32x3, ONCHIP_SHAPE_BOX2D_R4, 2, 0, 1e-5)                                                \
    X(d_box2d_r2, f64, ONCHIP_SHAPE_BOX2D_R2, 2, 1, 1e-12)                                                  \
    X(d_box2d_8x8, f64, ONCHIP_SHAPE_BOX2D_8X8, 2, 1, 1e-12)                                                \
    X(d_user2d, f64, USER2D, 2, 1, 1e-12)
#define DEF_3(n, MODE, S) SSAM_STENCIL3D_TC_DEFINE(n, MODE, S, ssam_stencil_tc_policy<>)
#define DEF_2(n, MODE, S) SSAM_STENCIL2D_TC_DEFINE(n, MODE, S, ssam_stencil_tc_policy<>)
#define DEF(n, MODE, S, D, t, tol) DEF_##D(n, MODE, S)
LIST(DEF)
/* explicit tiles (dilation D, JX x tiles, WY x WX warps) */
SSAM_STENCIL3D_TC_DEFINE(e1_box3d_r2, f64, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<1, 2, 1, 2, 2>)
SSAM_STENCIL3D_TC_DEFINE(e2_box3d_r2, tf32x3, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<1, 1, 4, 1, 3>)
SSAM_STENCIL2D_TC_DEFINE(e3_box2d_r4, tf32, ONCHIP_SHAPE_BOX2D_R4, ssam_stencil_tc_policy<2, 4, 1, 2, 1>)
SSAM_STENCIL2D_TC_DEFINE(dup2d, f64, DUP2D, ssam_stencil_tc_policy<>)
/* the user shape with 2 blocks per SM (MINB 2): the default MINB (3 or 4) caps registers at 168 or 128,
 * which fits the catalogue's boxes; this box of 8 x 3 x 4 needs more (ptxas: 48 bytes of spills at 168) */
SSAM_STENCIL3D_TC_DEFINE(d_user3d, f64, USER3D, ssam_stencil_tc_policy<2, 1, 1, 4, 2>)
SSAM_STENCIL3D_TC_DEFINE(x_user3d, tf32x3, USER3D, ssam_stencil_tc_policy<1, 1, 1, 4, 2>)

#define HPT2(I, DX, DY) {I, DX, DY, 0},
#define HPT3(I, DX, DY, DZ) {I, DX, DY, DZ},
#define PTS_3(n, S) static const int pts_##n[][4] = {S(HPT3)};
#define PTS_2(n, S) static const int pts_##n[][4] = {S(HPT2)};
#define PTS(n, MODE, S, D, t, tol) PTS_##D(n, S)
LIST(PTS)
static const int pts_d_user3d[][4] = {USER3D(HPT3)};

typedef int (*plan_fn)(const ssam_stencil_args *, ssam_plan *);
typedef int (*run_fn)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t);
typedef int (*launch_fn)(const ssam_stencil_args *, cudaStream_t);
enum { MODE_f64, MODE_tf32, MODE_tf32x3 };
typedef struct kern {
    const char *name;
    int dims, dbl, npts, ncoef, mode;
    double tol;
    const int (*pts)[4];
    plan_fn plan;
    run_fn run;
    launch_fn launch;
    plan_fn simt_plan; /* the SIMT instance (name_simt, the fallback) */
    run_fn simt_run;
} kern;
#define VERBS(n) n##_plan, n##_run, n##_launch, n##_simt_plan, n##_simt_run
#define ENT(n, MODE, S, D, t, tol)                                                                        \
    {#n " (" #MODE ")", D, t, n##_NPTS, n##_ncoef(), MODE_##MODE, tol, pts_##n, VERBS(n)},
#define ENTE(n, MODE, base, D, t, tol)                                                                    \
    {#n " (" #MODE ", a tile)", D, t, n##_NPTS, n##_ncoef(), MODE_##MODE, tol, pts_##base, VERBS(n)},
/* the plans' sentences (docs/ssam.md#stencil-plans) */
#define WHY_TC "tensor cores: the device and the kernel's PTX are sm_80+ and a block gets the tile's shared memory"
#define WHY_FORCE_TC "tensor cores, as args.path asks (SSAM_PATH_TC)"
#define WHY_FORCE_SIMT "SIMT fallback, as args.path asks (SSAM_PATH_SIMT)"
#define WHY_0 "0 steps: nothing to launch, the state stays in src"

/* an accepted plan's head: path, why, one step a pass, `steps` passes, no workspace, result */
static int plan_bad(const ssam_plan *p, int path, const char *why, int steps, const void *result)
{
    return p->path != path || !p->why || strcmp(p->why, why) != 0 || p->steps_per_pass != 1 || p->passes != steps ||
           p->workspace_bytes != 0 || p->result != result;
}
/* a refused plan: why names the code, no passes, no result, path 0 */
static int refusal_bad(const ssam_plan *p, const char *code)
{
    return !p->why || strncmp(p->why, "refused (", 9) != 0 || !strstr(p->why, code) || p->passes != 0 || p->result != NULL ||
           p->path != 0;
}

/* the references (ssam_ref.h), on a kernel's points */
static void extents(const kern *k, int *e) { ref_stencil_extents(k->pts, k->npts, e); }
static void ref_step(const kern *k, const double *c, const double *in, double *out, int nx, int ny, int nz,
                     long long pitch, long long plane, int periodic)
{
    ref_stencil_step(k->pts, k->npts, c, in, out, nx, ny, nz, pitch, plane, periodic);
}

static void put(void *buf, size_t i, double v, int dbl)
{
    if (dbl) ((double *)buf)[i] = v;
    else ((float *)buf)[i] = (float)v;
}
static double get(const void *buf, size_t i, int dbl) { return dbl ? ((const double *)buf)[i] : ((const float *)buf)[i]; }

/* x rounded to TF32 as cvt.rna.tf32.f32 does (to nearest, ties away from zero; 10 mantissa bits) */
static double tf32_rna(double v)
{
    float x = (float)v;
    unsigned b;
    memcpy(&b, &x, 4);
    if ((b & 0x7f800000u) != 0x7f800000u) b = (b + 0x1000u) & 0xffffe000u;
    memcpy(&x, &b, 4);
    return x;
}
/* the per-cell bound's factor (the file's comment); rna: the reference's weights rounded as the
 * kernel's (tf32), else the rounding of the weights (2^-11) is in the bound too */
static double tc_beta(const kern *k, int rna)
{
    int e[6];
    extents(k, e);
    const double box = (double)(e[1] - e[0] + 1) * (e[3] - e[2] + 1) * (e[5] - e[4] + 1);
    if (k->mode == MODE_f64) return 4.0 * (2 * box + 1) * 0x1p-53;
    if (k->mode == MODE_tf32) return 2.0 * ((rna ? 0.0 : 0x1p-11) + 0x1p-10 + (2 * box + 1) * 0x1p-23);
    return 2.0 * (3 * 0x1p-22 + (2 * box + 1) * 0x1p-23);
}

/* coefficients: positive, distinct, summing to 1, the last one negative (|c| sums to <= 1) */
static void coefs(const kern *k, double *c, void *hc)
{
    double sum = 0;
    for (int i = 0; i < k->ncoef; i++) { c[i] = 0.2 + 0.5 * (gpucheck_uniform() + 1); sum += c[i]; }
    for (int i = 0; i < k->ncoef; i++) c[i] /= sum;
    c[k->ncoef - 1] = -c[k->ncoef - 1];
    for (int i = 0; i < k->ncoef; i++) { put(hc, (size_t)i, c[i], k->dbl); c[i] = get(hc, (size_t)i, k->dbl); }
}

static void run_kernel(const kern *k, int light)
{
    static const int sz2[][3] = {{300, 70, 1}, {5, 3, 1}, {1, 1, 1}, {33, 1, 1}, {130, 200, 1}, {33, 2000, 1}};
    static const int sz3[][3] = {{7, 5, 3}, {150, 40, 9}, {1, 1, 1}, {67, 65, 100}, {3, 2, 40}};
    const int(*sizes)[3] = k->dims == 2 ? sz2 : sz3;
    const int nsizes = light ? 3 : k->dims == 2 ? 6 : 5, steps = 2;
    char name[200];
    snprintf(name, sizeof name, "ssam stencil_tc %dD %s: Dirichlet and periodic, %d steps, ragged sizes, pitch", k->dims,
             k->name, steps);
    if (!case_part(name)) return; /* --part: this part's kernels only */
    const size_t es = k->dbl ? 8 : 4;
    double c[128], ct[128]; /* ct: the weights as the tensor cores see them (tf32: rounded) */
    void *hc = malloc(128 * 8);
    const double beta = tc_beta(k, 1);
    double worst = 0;
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        const int nx = sizes[si][0], ny = sizes[si][1], nz = sizes[si][2];
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            const long long pitch = pk ? nx + 3 : nx, plane = pk ? pitch * ny + 5 : pitch * ny;
            if (pk && (long long)nx * ny * nz > 100000) continue; /* the padded layout on the small sizes */
            const size_t n = (size_t)plane * nz;
            double *u = (double *)malloc(n * 8), *v = (double *)malloc(n * 8), *u0 = (double *)malloc(n * 8);
            double *m = (double *)malloc(n * 8), *mv = (double *)malloc(n * 8), ca[128]; /* magnitudes, |c| */
            /* the kernel's input and output of a step, and the step from that input: value, magnitude */
            double *gin = (double *)malloc(n * 8), *gout = (double *)malloc(n * 8);
            double *rv = (double *)malloc(n * 8), *rm = (double *)malloc(n * 8);
            void *hb = malloc(n * es), *h0 = malloc(n * es);
            void *da = NULL, *db = NULL;
            CUDA_OK(cudaMalloc(&da, n * es));
            CUDA_OK(cudaMalloc(&db, n * es));
            for (int periodic = 0; periodic < 2 && !check__failed_case; periodic++) {
                coefs(k, c, hc);
                for (int i = 0; i < k->ncoef; i++) ca[i] = fabs(c[i]), ct[i] = k->mode == MODE_tf32 ? tf32_rna(c[i]) : c[i];
                for (size_t i = 0; i < n; i++) {
                    put(h0, i, gpucheck_uniform(), k->dbl);
                    u[i] = u0[i] = gin[i] = get(h0, i, k->dbl);
                    m[i] = fabs(u[i]);
                }
                CUDA_OK(cudaMemcpy(da, h0, n * es, cudaMemcpyHostToDevice));
                ssam_stencil_args a;
                memset(&a, 0, sizeof a);
                a.nx = nx; a.ny = ny; a.nz = k->dims == 3 ? nz : 0;
                a.pitch = pk ? pitch : 0; a.plane = pk && k->dims == 3 ? plane : 0;
                a.coef = hc; a.ncoef = k->ncoef;
                a.boundary = periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
                a.steps = 1; /* a plan of one step a run, the state in dst */
                void *cur = da, *oth = db;
                int e[6];
                extents(k, e);
                for (int s = 0; s < steps && !check__failed_case; s++) {
                    CUDA_OK(cudaMemset(oth, 0xFF, n * es)); /* NaN poison, the padding too */
                    a.src = cur; a.dst = oth;
                    ssam_plan p;
                    int rc = k->plan(&a, &p); /* the tensor-core path on sm_80+ */
                    CHECK(rc == 0 && !plan_bad(&p, SSAM_PATH_TC, WHY_TC, 1, oth), "plan rc %d (%s): path %d (want the "
                          "tensor cores', %d), %d x %lld steps, result %s, why \"%s\"", rc, ssam_stencil_strerror(rc), p.path,
                          SSAM_PATH_TC, p.steps_per_pass, p.passes, p.result == oth ? "dst" : "not dst", p.why ? p.why : "(NULL)");
                    if (check__failed_case) break;
                    rc = k->run(&a, &p, 0);
                    CHECK(rc == 0, "run rc %d (%s)", rc, ssam_stencil_strerror(rc));
                    CUDA_OK(cudaDeviceSynchronize());
                    ref_step(k, c, u, v, nx, ny, nz, pitch, plane, periodic);
                    ref_step(k, ca, m, mv, nx, ny, nz, pitch, plane, periodic);
                    double *t = u; u = v; v = t;
                    t = m; m = mv; mv = t;
                    void *tt = cur; cur = oth; oth = tt;
                    CUDA_OK(cudaMemcpy(hb, p.result, n * es, cudaMemcpyDeviceToHost)); /* the plan's result */
                    double num = 0, den = 0;
                    long long unwritten = 0, padding = 0, moved = 0;
                    for (long long o = 0; o < (long long)n; o++) {
                        int z = (int)(o / plane), r = (int)(o % plane / pitch), x = (int)(o % plane % pitch);
                        double g = get(hb, (size_t)o, k->dbl);
                        if (r >= ny || x >= nx) { if (!isnan(g)) padding++; continue; }
                        if (!isfinite(g)) { unwritten++; continue; }
                        num += (g - u[o]) * (g - u[o]);
                        den += m[o] * m[o];
                        if (!periodic && !ref_stencil_inside(e, x, r, z, nx, ny, nz) && g != u0[o]) moved++;
                    }
                    double err = den > 0 ? sqrt(num / den) : sqrt(num);
                    CHECK(unwritten == 0 && padding == 0, "%dx%dx%d pitch %lld %s step %d: %lld unwritten, %lld padding "
                          "cells written", nx, ny, nz, pitch, periodic ? "periodic" : "dirichlet", s + 1, unwritten, padding);
                    CHECK(moved == 0, "%dx%dx%d %s step %d: %lld Dirichlet cells changed", nx, ny, nz,
                          periodic ? "periodic" : "dirichlet", s + 1, moved);
                    const double tol = k->mode == MODE_tf32 ? k->tol * (s + 1) : k->tol;
                    CHECK(err < tol, "%dx%dx%d pitch %lld %s step %d: |out - ref| / |magnitude| = %.3g (bound %.2g)", nx, ny,
                          nz, pitch, periodic ? "periodic" : "dirichlet", s + 1, err, tol);
                    /* every cell against the step from the input this kernel read */
                    bs_step(k->pts, k->npts, ct, gin, rv, rm, nx, ny, nz, pitch, plane, periodic);
                    for (size_t i = 0; i < n; i++) gout[i] = get(hb, i, k->dbl);
                    const bs_res br = bs_check(gout, rv, rm, beta, NULL, e, periodic, nx, ny, nz, pitch, plane);
                    int bx = 0, by = 0, bz = 0;
                    if (br.first >= 0) bs_cell(br.first, pitch, plane, &bx, &by, &bz);
                    CHECK(br.bad == 0 && br.cells == (long long)nx * ny * nz,
                          "%dx%dx%d pitch %lld %s step %d: %lld of %lld cells outside their bound (%lld Dirichlet cells "
                          "changed); first (%d, %d, %d): %.9g, reference %.9g, allowed [%.9g, %.9g]", nx, ny, nz, pitch,
                          periodic ? "periodic" : "dirichlet", s + 1, br.bad, br.cells, br.kept_bad, bx, by, bz, br.g,
                          br.ref, br.lo, br.hi);
                    worst = fmax(worst, br.worst);
                    double *tg = gin; gin = gout; gout = tg; /* the next step's input */
                }
                if (!check__failed_case && pk == 0) /* all the steps in one plan from the same start: the same bits */
                    ref_check_steps(k->plan, k->run, k->launch, a, da, db, cur, h0, hb, n, es, steps, nx, ny, nz);
            }
            cudaFree(da);
            cudaFree(db);
            free(u); free(v); free(u0); free(m); free(mv); free(gin); free(gout); free(rv); free(rm); free(hb); free(h0);
        }
    }
    free(hc);
    if (!check__failed_case) printf("  %s: largest |out - ref| %.3g of the per-cell bound\n", k->name, worst);
    case_end();
}

/* an Inf and a NaN in the domain: the outputs that read them (and only those) are Inf / NaN, the
 * others within the bound; Dirichlet cells holding them keep them */
static void run_nonfinite(const kern *k)
{
    char name[200];
    snprintf(name, sizeof name, "ssam stencil_tc %s: an Inf and a NaN reach exactly the cells that read them", k->name);
    if (!case_part(name)) return;
    const int nx = 150, ny = 70, nz = k->dims == 3 ? 12 : 1;
    const size_t n = (size_t)nx * ny * nz, es = k->dbl ? 8 : 4;
    double c[128], ca[128], *u = (double *)malloc(n * 8), *v = (double *)malloc(n * 8);
    double *m = (double *)malloc(n * 8), *mv = (double *)malloc(n * 8); /* magnitudes: |c| on |u| */
    void *hc = malloc(128 * 8), *hb = malloc(n * es), *da = NULL, *db = NULL;
    CUDA_OK(cudaMalloc(&da, n * es));
    CUDA_OK(cudaMalloc(&db, n * es));
    for (int periodic = 0; periodic < 2 && !check__failed_case; periodic++) {
        coefs(k, c, hc);
        for (size_t i = 0; i < n; i++) { put(hb, i, gpucheck_uniform(), k->dbl); u[i] = get(hb, i, k->dbl); }
        const size_t pinf = ((size_t)(nz / 2) * ny + 30) * nx + 70, pnan = ((size_t)(nz / 2) * ny + 33) * nx + 75;
        const size_t pedge = (size_t)(nz - 1) * ny * nx + 3; /* a Dirichlet cell in the last plane (2D: row 0) */
        u[pinf] = INFINITY; u[pnan] = NAN; u[pedge] = -INFINITY;
        put(hb, pinf, INFINITY, k->dbl); put(hb, pnan, NAN, k->dbl); put(hb, pedge, -INFINITY, k->dbl);
        CUDA_OK(cudaMemcpy(da, hb, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(db, 0xFF, n * es));
        ssam_stencil_args a;
        memset(&a, 0, sizeof a);
        a.src = da; a.dst = db; a.nx = nx; a.ny = ny; a.nz = k->dims == 3 ? nz : 0;
        a.coef = hc; a.ncoef = k->ncoef;
        a.boundary = periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
        a.steps = 1; /* the state in dst */
        int rc = k->launch(&a, 0);
        CHECK(rc == 0, "launch rc %d", rc);
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hb, db, n * es, cudaMemcpyDeviceToHost));
        ref_step(k, c, u, v, nx, ny, nz, nx, (long long)nx * ny, periodic);
        for (int i = 0; i < k->ncoef; i++) ca[i] = fabs(c[i]);
        for (size_t i = 0; i < n; i++) m[i] = fabs(u[i]);
        ref_step(k, ca, m, mv, nx, ny, nz, nx, (long long)nx * ny, periodic);
        /* per cell: the finite ones within the bound (the reference's weights unrounded: the tiles
         * that hold an Inf or NaN take plain FMAs with them, the others the tensor cores) */
        const double beta = tc_beta(k, 0);
        long long wrong = 0, nonfin = 0, outside = 0, first = -1;
        double num = 0, den = 0;
        for (size_t i = 0; i < n; i++) {
            const double g = get(hb, i, k->dbl);
            if (!isfinite(v[i])) {
                nonfin++;
                if (!(isnan(v[i]) ? isnan(g) : g == v[i])) wrong++;
            } else if (!isfinite(g)) {
                wrong++;
            } else {
                num += (g - v[i]) * (g - v[i]);
                den += mv[i] * mv[i];
                if (!(fabs(g - v[i]) <= beta * mv[i])) {
                    outside++;
                    if (first < 0) first = (long long)i;
                }
            }
        }
        CHECK(nonfin > 2 && wrong == 0, "%s: %lld cells differ in being Inf / NaN (of %lld in the reference)",
              periodic ? "periodic" : "dirichlet", wrong, nonfin);
        CHECK(outside == 0, "%s: %lld finite cells outside their bound, first at %lld: %.9g, reference %.9g, bound %.3g",
              periodic ? "periodic" : "dirichlet", outside, first, first >= 0 ? get(hb, (size_t)first, k->dbl) : 0.0,
              first >= 0 ? v[first] : 0.0, first >= 0 ? beta * mv[first] : 0.0);
        CHECK(sqrt(num / den) < k->tol, "%s: finite cells |out - ref| / |magnitude| = %.3g", periodic ? "periodic" : "dirichlet",
              sqrt(num / den));
    }
    cudaFree(da);
    cudaFree(db);
    free(u); free(v); free(m); free(mv); free(hc); free(hb);
    case_end();
}

/* the paths: args.path 0 the tensor cores (sm_80+), SSAM_PATH_TC the same plan and bits, SSAM_PATH_SIMT
 * the SIMT instance's bits (name_simt_plan + name_simt_run; tf32: not the tensor cores' bits), each in the
 * plan's result after 3 steps; name_launch the forced path's bits; 0 steps nothing launched; a path the
 * stencil does not have refused */
static void run_paths(const kern *k)
{
    char name[200];
    snprintf(name, sizeof name, "ssam stencil_tc %s: args.path SSAM_PATH_TC / SSAM_PATH_SIMT is the path taken, 0 steps, "
             "other paths refused", k->name);
    if (!case_part(name)) return;
    const int nx = 150, ny = 70, nz = k->dims == 3 ? 12 : 1, steps = 3;
    const size_t n = (size_t)nx * ny * nz, es = k->dbl ? 8 : 4;
    double c[128];
    void *hc = malloc(128 * 8), *h0 = malloc(n * es), *hb[4] = {malloc(n * es), malloc(n * es), malloc(n * es), malloc(n * es)};
    void *da = NULL, *db = NULL;
    CUDA_OK(cudaMalloc(&da, n * es));
    CUDA_OK(cudaMalloc(&db, n * es));
    coefs(k, c, hc);
    for (size_t i = 0; i < n; i++) put(h0, i, gpucheck_uniform(), k->dbl);
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.nx = nx; a.ny = ny; a.nz = k->dims == 3 ? nz : 0;
    a.coef = hc; a.ncoef = k->ncoef; a.boundary = SSAM_STENCIL_DIRICHLET; a.steps = steps;
    /* 0: args.path 0, 1: SSAM_PATH_TC, 2: SSAM_PATH_SIMT, 3: the SIMT instance; 4: name_launch, SIMT forced */
    static const int path[4] = {0, SSAM_PATH_TC, SSAM_PATH_SIMT, 0};
    static const char *const why[4] = {WHY_TC, WHY_FORCE_TC, WHY_FORCE_SIMT, NULL};
    for (int v = 0; v < 5 && !check__failed_case; v++) {
        ssam_plan p;
        a.path = path[v < 4 ? v : 2];
        CUDA_OK(cudaMemcpy(da, h0, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(db, 0xFF, n * es));
        int rc = v == 3 ? k->simt_plan(&a, &p) : k->plan(&a, &p);
        if (v == 3)
            CHECK(rc == 0 && p.passes == steps && p.result == db, "the SIMT instance's plan: %d, %lld passes", rc, p.passes);
        else
            CHECK(rc == 0 && !plan_bad(&p, v == 0 || v == 1 ? SSAM_PATH_TC : SSAM_PATH_SIMT, why[v < 4 ? v : 2], steps, db),
                  "args.path %d: plan %d (%s), path %d, %d x %lld steps, result %s, why \"%s\"", a.path, rc,
                  ssam_stencil_strerror(rc), p.path, p.steps_per_pass, p.passes, p.result == db ? "dst" : "not dst",
                  p.why ? p.why : "(NULL)");
        if (check__failed_case) break;
        rc = v == 4 ? k->launch(&a, 0) : v == 3 ? k->simt_run(&a, &p, 0) : k->run(&a, &p, 0);
        CHECK(rc == 0, "args.path %d, variant %d: rc %d (%s)", a.path, v, rc, ssam_stencil_strerror(rc));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hb[v < 4 ? v : 0], p.result, n * es, cudaMemcpyDeviceToHost)); /* v 4: over path 0's copy */
        if (v == 1) CHECK(memcmp(hb[0], hb[1], n * es) == 0, "SSAM_PATH_TC: not the bits of args.path 0's plan");
        if (v == 4) CHECK(memcmp(hb[0], hb[2], n * es) == 0, "name_launch with SSAM_PATH_SIMT: not the SIMT plan's bits");
    }
    if (!check__failed_case) {
        size_t fin = 0;
        for (size_t i = 0; i < n; i++) fin += isfinite(get(hb[1], i, k->dbl)) != 0;
        CHECK(fin == n, "SSAM_PATH_TC: %zu of %zu cells finite", fin, n);
        CHECK(memcmp(hb[1], hb[3], n * es) != 0 || k->mode != MODE_tf32,
              "tf32: the tensor cores' bits equal the SIMT instance's (the paths are not told apart)");
        CHECK(memcmp(hb[2], hb[3], n * es) == 0, "SSAM_PATH_SIMT: not the SIMT instance's bits");
    }
    /* 0 steps on either path: the state in src, nothing launched (src and dst poisoned: neither changes) */
    for (int v = 0; v < 2 && !check__failed_case; v++) {
        ssam_plan p;
        a.path = v ? SSAM_PATH_SIMT : 0;
        a.steps = 0;
        gpucheck_poison(da, n * es);
        gpucheck_poison(db, n * es);
        const int pc = k->plan(&a, &p), rr = k->run(&a, &p, 0), rc = k->launch(&a, 0);
        CHECK(pc == 0 && rr == 0 && rc == 0 && !plan_bad(&p, v ? SSAM_PATH_SIMT : SSAM_PATH_TC, WHY_0, 0, da),
              "0 steps, args.path %d: plan %d, run %d, launch %d, path %d, %lld passes, result %s, why \"%s\"", a.path, pc,
              rr, rc, p.path, p.passes, p.result == da ? "src" : "not src", p.why ? p.why : "(NULL)");
        const long long ch = gpucheck_poison_changed(da, n * es) + gpucheck_poison_changed(db, n * es);
        CHECK(ch == 0, "0 steps, args.path %d: %lld bytes written", a.path, ch);
    }
    /* a path the tensor-core stencils do not have */
    a.steps = steps;
    for (int v = 0; v < 3 && !check__failed_case; v++) {
        ssam_plan p;
        static const int bad[3] = {SSAM_PATH_ONEPASS, SSAM_PATH_SLICE, 99};
        a.path = bad[v];
        gpucheck_poison(db, n * es);
        const int pc = k->plan(&a, &p), rr = k->run(&a, &p, 0), rc = k->launch(&a, 0);
        const long long ch = gpucheck_poison_changed(db, n * es);
        CHECK(pc == SSAM_EFLAGS && !refusal_bad(&p, "SSAM_EFLAGS") && rr == 0 && rc == SSAM_EFLAGS && ch == 0,
              "args.path %d: plan %d (why \"%s\", %lld passes), run %d, launch %d, %lld bytes written", a.path, pc,
              p.why ? p.why : "(NULL)", p.passes, rr, rc, ch);
    }
    cudaFree(da);
    cudaFree(db);
    free(hc); free(h0);
    for (int i = 0; i < 4; i++) free(hb[i]);
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam stencil_tc error codes: name_plan refuses with why, nothing launched or written");
    double c[125] = {0}, *d = NULL;
    const size_t bytes = 2 * 32 * 32 * 32 * 8;
    CUDA_OK(cudaMalloc(&d, bytes));
    CUDA_OK(cudaMemset(d, 0, bytes));
    ssam_stencil_args a, b, b2;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 32 * 32 * 32; a.nx = 32; a.ny = 32; a.nz = 32; a.coef = c; a.ncoef = 125;
    a.boundary = SSAM_STENCIL_DIRICHLET; a.steps = 1;
    b2 = a; b2.nz = 0; b2.ncoef = 81; b2.nx = 64; b2.ny = 64;
    static const char *const names[] = {"SSAM_SUCCESS", "SSAM_ENULL", "SSAM_ESIZE", "SSAM_EPITCH", "SSAM_EBORDER",
                                        "SSAM_EFILTER", "SSAM_EFLAGS", "SSAM_ECUDA", "SSAM_EOVERLAP", "SSAM_EANCHOR",
                                        "SSAM_EUPDATE"};
    /* b = base, stmt, name_plan: the code.  Refused: why names it, no passes, no result; name_run of that
     * plan and name_launch (the code again) leave the poisoned buffer as it was.  Taken: the tensor
     * cores' plan of b.steps steps; name_launch runs */
#define EXPECT(code, base, name, stmt)                                                                     \
    do {                                                                                                  \
        b = base;                                                                                         \
        stmt;                                                                                             \
        ssam_plan p_;                                                                                     \
        memset(&p_, 0x5A, sizeof p_);                                                                     \
        const int pc_ = name##_plan(&b, &p_);                                                             \
        CHECK(pc_ == (code), "%s (%s): plan %d (%s), want %d", #stmt, #name, pc_, ssam_stencil_strerror(pc_), code); \
        if ((code) != 0 && pc_ == (code)) {                                                               \
            CHECK(!refusal_bad(&p_, names[code]), "%s (%s): the refused plan: why \"%s\", passes %lld, path %d", #stmt,  \
                  #name, p_.why ? p_.why : "(NULL)", p_.passes, p_.path);                                 \
            gpucheck_poison(d, bytes);                                                                    \
            const int rr_ = name##_run(&b, &p_, 0);                                                       \
            CHECK(rr_ == 0, "%s (%s): name_run of a refused plan: %d", #stmt, #name, rr_);                \
            const int rc_ = name##_launch(&b, 0);                                                         \
            CHECK(rc_ == (code), "%s (%s): launch %d (%s), want %d", #stmt, #name, rc_, ssam_stencil_strerror(rc_), code); \
            const long long ch_ = gpucheck_poison_changed(d, bytes);                                      \
            CHECK(ch_ == 0, "%s (%s): %lld bytes written by a refused plan or call", #stmt, #name, ch_);  \
        } else if ((code) == 0 && pc_ == 0) {                                                             \
            CHECK(!plan_bad(&p_, SSAM_PATH_TC, b.steps ? WHY_TC : WHY_0, b.steps, (b.steps & 1) ? b.dst : (void *)b.src), \
                  "%s (%s): the plan's head: path %d, %d x %lld steps, why \"%s\"", #stmt, #name, p_.path,       \
                  p_.steps_per_pass, p_.passes, p_.why ? p_.why : "(NULL)");                              \
            const int rc_ = name##_launch(&b, 0);                                                         \
            CHECK(rc_ == 0, "%s (%s): launch %d (%s)", #stmt, #name, rc_, ssam_stencil_strerror(rc_));    \
        }                                                                                                 \
    } while (0)
    /* taken */
    EXPECT(0, a, d_box3d_r2, (void)0);
    EXPECT(0, a, d_box3d_r2, b.steps = 2);
    EXPECT(0, a, d_box3d_r2, (b.cache = 1, b.blocks_per_sm = 9, b.cache_rows_max = 2, b.work = d, b.work_bytes = 3));
    EXPECT(0, b2, d_box2d_r4, (void)0);                  /* 2D nz 0 */
    EXPECT(0, b2, d_box2d_r4, b.nz = 1);
    EXPECT(0, b2, d_box2d_r4, (b.nz = 1, b.plane = 1)); /* 2D: plane is ignored, as stencil.cuh's 2D kernels do */
    /* NULL args or plan */
    {
        ssam_plan p;
        memset(&p, 0x5A, sizeof p);
        gpucheck_poison(d, bytes);
        CHECK(d_box3d_r2_plan(NULL, &p) == SSAM_ENULL && !refusal_bad(&p, "SSAM_ENULL"), "NULL args: the plan");
        CHECK(d_box3d_r2_plan(&a, NULL) == SSAM_ENULL && d_box3d_r2_launch(NULL, 0) == SSAM_ENULL, "NULL plan, NULL args");
        CHECK(d_box3d_r2_run(NULL, &p, 0) == SSAM_ENULL && d_box3d_r2_run(&a, NULL, 0) == SSAM_ENULL,
              "name_run: NULL args or plan");
        CHECK(gpucheck_poison_changed(d, bytes) == 0, "NULL args: the buffer written");
    }
    /* refused */
    EXPECT(SSAM_ENULL, a, d_box3d_r2, b.src = NULL);
    EXPECT(SSAM_ENULL, a, d_box3d_r2, b.dst = NULL);
    EXPECT(SSAM_ENULL, a, d_box3d_r2, b.coef = NULL);
    EXPECT(SSAM_ESIZE, a, d_box3d_r2, b.nx = 0);
    EXPECT(SSAM_ESIZE, a, d_box3d_r2, b.nz = 0); /* 3D nz 0 */
    EXPECT(SSAM_ESIZE, a, d_box3d_r2, b.steps = -1);
    EXPECT(SSAM_EPITCH, a, d_box3d_r2, b.pitch = 31);
    EXPECT(SSAM_EPITCH, a, d_box3d_r2, b.plane = 32 * 31);
    EXPECT(SSAM_EBORDER, a, d_box3d_r2, b.boundary = ONCHIP_ZERO_OUTSIDE);
    EXPECT(SSAM_EFILTER, a, d_box3d_r2, b.ncoef = 124);
    EXPECT(SSAM_EFLAGS, a, d_box3d_r2, b.path = SSAM_PATH_ONEPASS);
    EXPECT(SSAM_EFLAGS, a, d_box3d_r2, b.path = -1);
    EXPECT(SSAM_EOVERLAP, a, d_box3d_r2, b.dst = d + 100);
    EXPECT(SSAM_EUPDATE, a, d_box3d_r2, b.update = ONCHIP_UPDATE_LEAPFROG);
    EXPECT(SSAM_EUPDATE, a, d_box3d_r2, b.field[ONCHIP_FIELD_DAMP].p = d);
    EXPECT(SSAM_EUPDATE, b2, d_box2d_r4, b.update = ONCHIP_UPDATE_DAMPED);
    EXPECT(SSAM_ESIZE, a, d_box3d_r2, (b.ny = 65536 * 64, b.nz = 1, b.nx = 1, b.dst = (char *)d + (1LL << 31))); /* tiles of <= 64 rows */
    EXPECT(SSAM_ESIZE, b2, d_box2d_r4, b.nz = 2);
    EXPECT(SSAM_EFILTER, b2, dup2d, b.ncoef = 3); /* an offset listed twice */
    EXPECT(SSAM_EFILTER, b2, dup2d, (b.ncoef = 3, b.path = SSAM_PATH_SIMT)); /* on every path */
#undef EXPECT
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);
    case_end();
}

/* usage: test_ssam_stencil_tc [--light] [--only SUBSTRING] */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const char *only = gpucheck_only(argc, argv);
    static const kern kernels[] = {LIST(ENT) ENTE(d_user3d, f64, d_user3d, 3, 1, 1e-12)
                                   ENTE(x_user3d, tf32x3, d_user3d, 3, 0, 1e-5) ENTE(e1_box3d_r2, f64, d_box3d_r2, 3, 1, 1e-12)
                                   ENTE(e2_box3d_r2, tf32x3, d_box3d_r2, 3, 0, 1e-5)
                                   ENTE(e3_box2d_r4, tf32, d_box2d_r4, 2, 0, 2e-3)};
    int ran = 0, match = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) match += !only || strstr(kernels[i].name, only) != NULL;
    /* the errors, three cases a kernel (those --only names: the run, the Inf / NaN case, the paths), the
     * --only case */
    check_plan(1 + 3 * match + (only ? 1 : 0));
    test_errors();
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!only || strstr(kernels[i].name, only)) run_kernel(&kernels[i], light), ran++;
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!only || strstr(kernels[i].name, only)) run_nonfinite(&kernels[i]);
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!only || strstr(kernels[i].name, only)) run_paths(&kernels[i]);
    if (only) { /* an --only that names no kernel compares nothing: not a pass */
        case_begin("ssam stencil_tc --only: the kernels asked for ran");
        CHECK(ran > 0, "--only %s: %d kernels matched", only, ran);
        case_end();
    }
    return check_exit();
}
