/* tests/gpu/test_ssam_stencil.cu -- ssam/stencil.cuh against a CPU reference in double: every
 * catalogue stencil (2D stars r = 1..6, boxes r = 1, 2, 4, 5 and 8x8, 3D stars and boxes r = 1, 2,
 * poisson; 3D in both variants, register streaming and slices, and the default) and user-defined
 * asymmetric ones (one whose points all lie off the cell), float and
 * double, the keep-extent (Dirichlet), periodic and keep-radius policies, several steps, ragged sizes (1000x37, 67x65x33,
 * domains smaller than a warp and than the stencil), a row pitch larger than the width.  Each step's
 * output is poisoned (NaN) before the launch; every cell must be written, the padding never, and
 * with Dirichlet the boundary cells must keep their initial values bit for bit.  Every step runs
 * through name_plan + name_run (the plan's path, why and head checked; the answer read from the
 * plan's result), then name_plan + name_run and name_launch of all the steps against the stepwise
 * result (bitwise, in the plan's result); the plan's sentences, 0 steps (nothing launched, the state
 * in src) and every error code (a refused plan names why, has no passes and launches nothing).  The
 * layout, grid and window options of the internal *_DEFINE_X macros (overlap or ghost lanes, 2D grid
 * rules, 3D per-slot rows or the full window) beside the defaults.
 * Besides the norm against the double reference, every cell of every step is checked against the
 * step computed in double from the input the kernel read (bounds_stencil.h): with mag the sum of
 * |c x| over the cell's points and K the points, |out - ref| <= 2 (K + 1) 2^-24 mag in float (K fmas
 * and at most K - 1 adds of the lane schedule, 2^-24 of mag each), 4 (K + 1) 2^-53 mag in double
 * (the reference rounds as much as the kernel); FP16 / BF16 (float sums rounded once at the store)
 * must lie in [round(ref - d), round(ref + d)], d = 2 (K + 1) 2^-24 mag: the nearest value of the
 * storage type, or its neighbour only where float's sum can cross a rounding boundary.  Dirichlet
 * cells equal their input exactly. */
#include <ssam/stencil.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index: the CPU references' border rule */
#include "bounds_stencil.h"

/* user-defined: an asymmetric 2D stencil with a shared coefficient, one lying off the cell (all
 * offsets positive), and an asymmetric 3D one */
#define USER2D_A(X) X(0, 0, 0) X(1, -1, 0) X(1, 0, -1) X(2, -2, 0) X(3, 1, 2) X(2, 3, -1)
#define USER2D_OFF(X) X(0, 1, 1) X(1, 2, 0) X(2, 1, 3)
#define USER3D_A(X) X(0, 0, 0, 0) X(1, 1, 0, -1) X(2, -2, 1, 0) X(1, 0, 0, 2) X(3, 0, -1, 1) X(4, 5, 0, 0)
/* asymmetric stars (x points only on the cell's row): the ghost-lane layout with unequal sides */
#define USER2D_STAR(X) X(0, 0, 0) X(1, -1, 0) X(2, 3, 0) X(3, 0, -2) X(1, 0, 1) X(4, 2, 0)
#define USER3D_STAR(X) X(0, 0, 0, 0) X(1, 2, 0, 0) X(2, 0, 1, 0) X(3, 0, 0, -1) X(2, -1, 0, 0) X(4, 0, -2, 2)

/* (shape, name, P) */
#define LIST2D(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, 4) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, 4) X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, 2) \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, 2) X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, 2) X(ONCHIP_SHAPE_STAR2D_R6, star2d_r6, 2) \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, 4) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, 2) X(ONCHIP_SHAPE_BOX2D_R4, box2d_r4, 1)       \
    X(ONCHIP_SHAPE_BOX2D_R5, box2d_r5, 1) X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, 1) X(USER2D_A, user2d_a, 3)                \
    X(USER2D_OFF, user2d_off, 2) X(USER2D_STAR, user2d_star, 3)
/* (shape, name, P, MINB of the double kernel: 3d125pt in double needs the budget of 6 blocks of 64
 * threads, or the compiler hoists all 125 coefficients into registers and spills) */
#define LIST3D(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, 2, 1) X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, 1, 1)                     \
    X(ONCHIP_SHAPE_STAR3D_R3, star3d_r3, 1, 1) X(ONCHIP_SHAPE_STAR3D_R4, star3d_r4, 1, 1)                     \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, 2, 1) X(ONCHIP_SHAPE_BOX3D_R2, box3d_r2, 1, 6)                         \
    X(ONCHIP_SHAPE_POISSON3D_19, poisson3d_19, 2, 1) X(USER3D_A, user3d_a, 1, 1) X(USER3D_STAR, user3d_star, 2, 1)

#define DEF2(S, n, P)                                                                                     \
    SSAM_STENCIL2D_DEFINE(f_##n, float, S, ssam_stencil_policy<P>)                                        \
    SSAM_STENCIL2D_DEFINE(d_##n, double, S, ssam_stencil_policy<P, 64>)
/* 3D: the register-streaming sweep (f_, d_) and the slice variant of section 4.9 (fs_, ds_: blocks
 * of 4 and of 3 warps, so the ring of plane slots is 4 + NZ - 1 and 3 + NZ - 1 long) */
#define DEF3(S, n, P, MB)                                                                                 \
    SSAM_STENCIL3D_DEFINE(f_##n, float, S, ssam_stencil_policy<P, 128, 1, SSAM_SCHEDULE_STREAM>)          \
    SSAM_STENCIL3D_DEFINE(d_##n, double, S, ssam_stencil_policy<P, 64, MB, SSAM_SCHEDULE_STREAM>)         \
    SSAM_STENCIL3D_DEFINE(fs_##n, float, S, ssam_stencil_policy<2 * (P), 128, 1, SSAM_SCHEDULE_SLICE>)    \
    SSAM_STENCIL3D_DEFINE(ds_##n, double, S, ssam_stencil_policy<P, 96, 1, SSAM_SCHEDULE_SLICE>)
LIST2D(DEF2)
LIST3D(DEF3)
/* the default SSAM_STENCIL3D_DEFINE: whichever variant SSAM_STENCIL3D_SLICE_RULE picks (3d13pt:
 * streaming in both types; 3d125pt: streaming in float, slice in double; test_shapes checks which) */
#define LISTAUTO(X) X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, 1, 1) X(ONCHIP_SHAPE_BOX3D_R2, box3d_r2, 1, 1)
#define DEFA(S, n, P, MB)                                                                                 \
    SSAM_STENCIL3D_DEFINE(fa_##n, float, S, ssam_stencil_policy<P>)                                       \
    SSAM_STENCIL3D_DEFINE(da_##n, double, S, ssam_stencil_policy<P, 64>)
LISTAUTO(DEFA)
/* the layout and window options of the internal definitions, beside the defaults above (which take
 * the per-slot rows in 3D: user3d_a's planes read different rows; and overlap lanes for 2d17pt fp32):
 * (shape, name, P, GHM, OPT); GHM 0 overlap lanes (for a star), 1 ghost lanes where allowed (2d17pt
 * in float: W = 4); OPT the 2D grid rule (1: ~48 warps per SM, 3 and 4: full waves) or the 3D per-slot
 * rows (TRIM 0: every plane holds the whole window) */
#define LISTX2(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, 2, 1, 0) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, 4, 1, 3)               \
    X(USER2D_STAR, user2d_star, 3, 0, 4) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, 4, 0, 1) X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, 4, 1, 1)
#define LISTX3(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, 2, 1, 0) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, 2, 1, 0)               \
    X(USER3D_STAR, user3d_star, 2, 1, 0) X(USER3D_A, user3d_a, 1, 1, 0) X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, 1, 0, 1) \
    X(ONCHIP_SHAPE_POISSON3D_19, poisson3d_19, 2, 1, 0)
#define XN(pre, n, P, G, O) pre##_##n##_p##P##_g##G##_o##O
#define XCAT_(a, b) a##b
#define XCAT(a, b) XCAT_(a, b)
#define DEFX2_(nm, T, S, P, B, G, O) SSAM__STENCIL2D_DEFINE_X(nm, T, S, P, B, 1, G, O)
#define DEFX3_(nm, T, S, P, B, G, O) SSAM__STENCIL3D_STREAM_DEFINE_X(nm, T, S, P, B, 1, G, O)
#define DEFX2(S, n, P, G, O) DEFX2_(XN(fx, n, P, G, O), float, S, P, 128, G, O) DEFX2_(XN(dx, n, P, G, O), double, S, P, 64, G, O)
#define DEFX3(S, n, P, G, O) DEFX3_(XN(fx, n, P, G, O), float, S, P, 128, G, O) DEFX3_(XN(dx, n, P, G, O), double, S, P, 64, G, O)
LISTX2(DEFX2)
LISTX3(DEFX3)
/* half-precision storage (computed in float): the 5-point star, a box with offsets across lanes
 * (V = 8), a user shape */
SSAM_STENCIL2D_DEFINE(h_star2d_r1, __half, ONCHIP_SHAPE_STAR2D_R1, ssam_stencil_policy<4>)
SSAM_STENCIL2D_DEFINE(b_star2d_r1, __nv_bfloat16, ONCHIP_SHAPE_STAR2D_R1, ssam_stencil_policy<4>)
SSAM_STENCIL2D_DEFINE(h_box2d_r2, __half, ONCHIP_SHAPE_BOX2D_R2, ssam_stencil_policy<2>)
SSAM_STENCIL2D_DEFINE(b_user2d_off, __nv_bfloat16, USER2D_OFF, ssam_stencil_policy<2>)

/* the points on the host: {I, dx, dy, dz} */
#define HPT2(I, DX, DY) {I, DX, DY, 0},
#define HPT3(I, DX, DY, DZ) {I, DX, DY, DZ},
#define PTS2(S, n, P) static const int pts_##n[][4] = {S(HPT2)};
#define PTS3(S, n, P, MB) static const int pts_##n[][4] = {S(HPT3)};
LIST2D(PTS2)
LIST3D(PTS3)

typedef int (*plan_fn)(const ssam_stencil_args *, ssam_plan *);
typedef int (*run_fn)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t);
typedef int (*launch_fn)(const ssam_stencil_args *, cudaStream_t);
typedef struct kern {
    const char *name;
    int dims, dbl, npts, ncoef; /* dbl: the storage type, 0 float, 1 double, 2 FP16, 3 BF16 */
    const int (*pts)[4];
    plan_fn plan;
    run_fn run;
    launch_fn launch;
    int path;         /* the plan's path: SSAM_PATH_ONEPASS or SSAM_PATH_SLICE */
    const char *rule; /* words of the plan's why: the rule that chose the path */
} kern;
/* the plans' sentences (docs/ssam.md#stencil-plans) */
#define WHY_2D "one pass a step: 2D rows, a 2D stencil's one path"
#define WHY_STREAM "one pass a step: 3D register streaming along z, as the policy's SSAM_SCHEDULE_STREAM asks"
#define WHY_SLICE "one pass a step: 3D slices, as the policy's SSAM_SCHEDULE_SLICE asks"
#define WHY_AUTO_SLICE                                                                                    \
    "one pass a step: 3D slices, SSAM_SCHEDULE_AUTO's SSAM_STENCIL3D_SLICE_RULE (a double shape of NZ >= 5 planes " \
    "filling more than half its box)"
#define WHY_AUTO_STREAM                                                                                   \
    "one pass a step: 3D register streaming along z, SSAM_SCHEDULE_AUTO's SSAM_STENCIL3D_SLICE_RULE (not a double " \
    "shape of NZ >= 5 planes filling more than half its box)"
#define WHY_0 "0 steps: nothing to launch, the state stays in src"
#define VERBS(n) n##_plan, n##_run, n##_launch
#define AUTO_PATH(n) (n##_SLICE ? SSAM_PATH_SLICE : SSAM_PATH_ONEPASS)
#define AUTO_WHY(n) (n##_SLICE ? WHY_AUTO_SLICE : WHY_AUTO_STREAM)

#define ENT2(S, n, P)                                                                                     \
    {"float " #n, 2, 0, f_##n##_NPTS, f_##n##_ncoef(), pts_##n, VERBS(f_##n), SSAM_PATH_ONEPASS, WHY_2D},   \
    {"double " #n, 2, 1, d_##n##_NPTS, d_##n##_ncoef(), pts_##n, VERBS(d_##n), SSAM_PATH_ONEPASS, WHY_2D},
#define ENT3(S, n, P, MB)                                                                                  \
    {"float " #n, 3, 0, f_##n##_NPTS, f_##n##_ncoef(), pts_##n, VERBS(f_##n), SSAM_PATH_ONEPASS, WHY_STREAM}, \
    {"double " #n, 3, 1, d_##n##_NPTS, d_##n##_ncoef(), pts_##n, VERBS(d_##n), SSAM_PATH_ONEPASS, WHY_STREAM}, \
    {"float slice " #n, 3, 0, fs_##n##_NPTS, fs_##n##_ncoef(), pts_##n, VERBS(fs_##n), SSAM_PATH_SLICE, WHY_SLICE}, \
    {"double slice " #n, 3, 1, ds_##n##_NPTS, ds_##n##_ncoef(), pts_##n, VERBS(ds_##n), SSAM_PATH_SLICE, WHY_SLICE},
#define ENTA(S, n, P, MB)                                                                                  \
    {"float default " #n, 3, 0, fa_##n##_NPTS, fa_##n##_ncoef(), pts_##n, VERBS(fa_##n), AUTO_PATH(fa_##n),    \
     AUTO_WHY(fa_##n)},                                                                                    \
    {"double default " #n, 3, 1, da_##n##_NPTS, da_##n##_ncoef(), pts_##n, VERBS(da_##n), AUTO_PATH(da_##n),   \
     AUTO_WHY(da_##n)},

#define ENTX(S, n, P, G, O, D)                                                                            \
    {"float x-P" #P "-g" #G "-o" #O " " #n, D, 0, XCAT(XN(fx, n, P, G, O), _NPTS), XCAT(XN(fx, n, P, G, O), _ncoef)(), pts_##n, \
     XCAT(XN(fx, n, P, G, O), _plan), XCAT(XN(fx, n, P, G, O), _run), XCAT(XN(fx, n, P, G, O), _launch),   \
     SSAM_PATH_ONEPASS, (D) == 2 ? WHY_2D : WHY_STREAM},                                                    \
    {"double x-P" #P "-g" #G "-o" #O " " #n, D, 1, XCAT(XN(dx, n, P, G, O), _NPTS), XCAT(XN(dx, n, P, G, O), _ncoef)(), pts_##n, \
     XCAT(XN(dx, n, P, G, O), _plan), XCAT(XN(dx, n, P, G, O), _run), XCAT(XN(dx, n, P, G, O), _launch),   \
     SSAM_PATH_ONEPASS, (D) == 2 ? WHY_2D : WHY_STREAM},
#define ENTH(n, pts, t)                                                                                   \
    {(t) == 2 ? "fp16 " #n : "bf16 " #n, 2, t, n##_NPTS, n##_ncoef(), pts, VERBS(n), SSAM_PATH_ONEPASS, WHY_2D},
#define ENTX2(S, n, P, G, O) ENTX(S, n, P, G, O, 2)
#define ENTX3(S, n, P, G, O) ENTX(S, n, P, G, O, 3)


/* the references (ssam_ref.h), on a kernel's points */
static void extents(const kern *k, int *e) { ref_stencil_extents(k->pts, k->npts, e); }
static void ref_step(const kern *k, const double *c, const double *in, double *out, int nx, int ny, int nz,
                     long long pitch, long long plane, int policy)
{
    ref_stencil_step_dims(k->pts, k->npts, c, in, out, NULL, k->dims, nx, ny, nz, pitch, plane, policy);
}

/* t: 0 float, 1 double, 2 FP16, 3 BF16 */
static void to_dev_type(const double *h, void *buf, size_t n, int t)
{
    for (size_t i = 0; i < n; i++) {
        if (t == 1) ((double *)buf)[i] = h[i];
        else if (t == 0) ((float *)buf)[i] = (float)h[i];
        else if (t == 2) ((__half *)buf)[i] = __float2half((float)h[i]);
        else ((__nv_bfloat16 *)buf)[i] = __float2bfloat16((float)h[i]);
    }
}
static double get(const void *buf, size_t i, int t)
{
    return t == 1 ? ((const double *)buf)[i] : t == 0 ? ((const float *)buf)[i]
           : t == 2 ? (double)__half2float(((const __half *)buf)[i]) : (double)__bfloat162float(((const __nv_bfloat16 *)buf)[i]);
}
static size_t tsize(int t) { return t == 1 ? 8 : t == 0 ? 4 : 2; }
/* the value stored as type t (half types: float's sum rounded once, as the kernel does) */
static double round_to(double v, int t)
{
    return t == 2 ? (double)__half2float(__float2half((float)v)) : t == 3 ? (double)__bfloat162float(__float2bfloat16((float)v)) : v;
}
static double round_h(double v) { return round_to(v, 2); }
static double round_b(double v) { return round_to(v, 3); }

/* an accepted plan's head for `steps` steps, the state in result: the kernel's path, the sentence of
 * its rule (0 steps: WHY_0), one step a pass, no workspace */
static int plan_bad(const kern *k, const ssam_plan *p, int steps, const void *result)
{
    return p->path != k->path || !p->why || strcmp(p->why, steps ? k->rule : WHY_0) != 0 || p->steps_per_pass != 1 ||
           p->passes != steps || p->workspace_bytes != 0 || p->result != result;
}
/* a refused plan: why names the code (CODE, e.g. "SSAM_EBORDER"), no passes, no result, path 0 */
static int refusal_bad(const ssam_plan *p, const char *code)
{
    return !p->why || strncmp(p->why, "refused (", 9) != 0 || !strstr(p->why, code) || p->passes != 0 || p->result != NULL ||
           p->path != 0;
}

static void run_kernel(const kern *k, int light)
{
    /* 9 x 100000: a grid of one block column, so each block's segment is several P-row steps
     * (shorter domains give every block one step, and the window's slide would never run) */
    static const int sz2[][3] = {{67, 65, 1}, {5, 3, 1}, {33, 1, 1}, {1000, 37, 1}, {130, 200, 1}, {9, 100000, 1}};
    static const int sz3[][3] = {{7, 5, 3}, {40, 9, 12}, {1, 1, 1}, {67, 65, 33}};
    const int(*sizes)[3] = k->dims == 2 ? sz2 : sz3;
    int nsizes = k->dims == 2 ? (light ? 3 : 6) : (light ? 3 : 4);
    const int steps = light ? 2 : 3;
    char name[160];
    snprintf(name, sizeof name, "ssam stencil %dD %s: keep-extent, periodic, keep-radius, %d steps, ragged sizes, pitch",
             k->dims, k->name, steps);
    if (!case_part(name)) return; /* --part: this part's kernels only */
    const int ct = k->dbl == 1; /* the coefficients' type: double, else float */
    size_t es = tsize(k->dbl);
    /* half types: the reference rounds each step to the storage type too, so only rare one-ulp
     * flips (float's sum against double's across a rounding boundary) remain */
    double tol = k->dbl == 1 ? 1e-12 : k->dbl == 0 ? 1e-5 : k->dbl == 2 ? 1e-3 : 8e-3;
    /* the per-cell bound (the file's comment): beta mag, or the store's rounding of ref +- beta mag */
    const double beta = k->dbl == 1 ? 4.0 * (k->npts + 1) * 0x1p-53 : 2.0 * (k->npts + 1) * 0x1p-24;
    double (*const rnd)(double) = k->dbl == 2 ? round_h : k->dbl == 3 ? round_b : NULL;
    double worst = 0;
    long long amb = 0, off = 0, cells = 0;
    CHECK(k->ncoef >= 1 && k->ncoef <= k->npts, "ncoef %d of %d points", k->ncoef, k->npts);
    /* coefficients: positive, distinct, summing to 1 (a stable averaging stencil: no growth, no
     * cancellation), and for user shapes one negative (still no growth: |c| sums to <= 1) */
    double c[128], cw[128];
    void *hc = malloc(128 * 8);
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        int nx = sizes[si][0], ny = sizes[si][1], nz = sizes[si][2];
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            long long pitch = pk ? nx + 3 : nx, plane = pk ? pitch * ny + 5 : pitch * ny;
            if (pk && k->dims == 3 && nx > 40) continue; /* one padded 3D size is enough */
            if (pk && ny > 10000) continue;                /* and one tall 2D size */
            size_t n = (size_t)plane * nz;
            double *u = (double *)malloc(n * 8), *v = (double *)malloc(n * 8), *u0 = (double *)malloc(n * 8);
            /* the kernel's input and output of a step, and the step from that input: value, magnitude */
            double *gin = (double *)malloc(n * 8), *gout = (double *)malloc(n * 8);
            double *rv = (double *)malloc(n * 8), *rm = (double *)malloc(n * 8);
            void *hb = malloc(n * es), *h0 = malloc(n * es);
            void *da = NULL, *db = NULL;
            CUDA_OK(cudaMalloc(&da, n * es));
            CUDA_OK(cudaMalloc(&db, n * es));
            /* policies: 0 keep-extent (Dirichlet), 1 periodic, 2 keep-radius (on the first two sizes:
             * taken where the shape's extents all equal its radius, else refused, writing nothing) */
            for (int pol = 0; pol < (si < 2 ? 3 : 2) && !check__failed_case; pol++) {
                const char *pname = pol == 0 ? "keep-extent" : pol == 1 ? "periodic" : "keep-radius";
                double sum = 0;
                for (int i = 0; i < k->ncoef; i++) { c[i] = 0.2 + 0.5 * (gpucheck_uniform() + 1); sum += c[i]; }
                for (int i = 0; i < k->ncoef; i++) c[i] /= sum;
                if (strstr(k->name, "user")) c[k->ncoef - 1] = -c[k->ncoef - 1];
                to_dev_type(c, hc, (size_t)k->ncoef, ct);
                for (int i = 0; i < k->ncoef; i++) cw[i] = get(hc, (size_t)i, ct); /* as the GPU sees them */
                for (size_t i = 0; i < n; i++) u[i] = gpucheck_uniform();
                to_dev_type(u, h0, n, k->dbl);
                for (size_t i = 0; i < n; i++) u[i] = u0[i] = gin[i] = get(h0, i, k->dbl);
                CUDA_OK(cudaMemset(da, 0xFF, n * es)); /* padding NaN too */
                CUDA_OK(cudaMemcpy(da, h0, n * es, cudaMemcpyHostToDevice));
                ssam_stencil_args a;
                memset(&a, 0, sizeof a);
                a.nx = nx; a.ny = ny; a.nz = k->dims == 3 ? nz : 0;
                a.pitch = pk ? pitch : 0; a.plane = pk && k->dims == 3 ? plane : 0;
                a.coef = hc; a.ncoef = k->ncoef;
                a.boundary = pol;
                a.steps = 1; /* a plan of one step a run, the state in dst */
                void *cur = da, *oth = db;
                if (pol == ONCHIP_KEEP_RADIUS) {
                    int ee[6], r = 0, sym = 1;
                    extents(k, ee);
                    for (int j = 0; j < 6; j++) r = abs(ee[j]) > r ? abs(ee[j]) : r;
                    for (int j = 0; j < (k->dims == 3 ? 6 : 4); j++) sym &= abs(ee[j]) == r;
                    if (!sym) { /* keep-radius keeps other cells than keep-extent here: refused */
                        ssam_plan p;
                        gpucheck_poison(db, n * es);
                        a.src = da; a.dst = db;
                        const int pc = k->plan(&a, &p), rr = k->run(&a, &p, 0), rc = k->launch(&a, 0);
                        CUDA_OK(cudaDeviceSynchronize());
                        CHECK(pc == SSAM_EBORDER && !refusal_bad(&p, "SSAM_EBORDER") && rr == 0 && rc == SSAM_EBORDER &&
                                  gpucheck_poison_changed(db, n * es) == 0,
                              "%dx%dx%d: keep-radius for an asymmetric shape: plan %d (why \"%s\", %lld passes), run %d, "
                              "launch %d, or it wrote", nx, ny, nz, pc, p.why ? p.why : "(NULL)", p.passes, rr, rc);
                        continue;
                    }
                }
                for (int s = 0; s < steps && !check__failed_case; s++) {
                    CUDA_OK(cudaMemset(oth, 0xFF, n * es)); /* NaN poison */
                    a.src = cur; a.dst = oth;
                    ssam_plan p;
                    int rc = k->plan(&a, &p);
                    CHECK(rc == 0 && !plan_bad(k, &p, 1, oth), "plan rc %d (%s): path %d (want %d), %d x %lld steps, result %s, "
                          "why \"%s\" (want \"%s\")", rc, ssam_stencil_strerror(rc), p.path, k->path, p.steps_per_pass,
                          p.passes, p.result == oth ? "dst" : "not dst", p.why ? p.why : "(NULL)", k->rule);
                    if (check__failed_case) break;
                    rc = k->run(&a, &p, 0);
                    CHECK(rc == 0, "run rc %d (%s)", rc, ssam_stencil_strerror(rc));
                    CUDA_OK(cudaDeviceSynchronize());
                    ref_step(k, cw, u, v, nx, ny, nz, pitch, plane, pol);
                    if (k->dbl >= 2)
                        for (size_t i = 0; i < n; i++) v[i] = round_to(v[i], k->dbl);
                    double *t = u; u = v; v = t;
                    void *tt = cur; cur = oth; oth = tt;
                    CUDA_OK(cudaMemcpy(hb, p.result, n * es, cudaMemcpyDeviceToHost)); /* the plan's result */
                    double num = 0, den = 0;
                    long long unwritten = 0, padding = 0, moved = 0;
                    int e[6];
                    extents(k, e);
                    for (long long o = 0; o < (long long)n; o++) {
                        int z = (int)(o / plane), r = (int)(o % plane / pitch), x = (int)(o % plane % pitch);
                        double g = get(hb, (size_t)o, k->dbl);
                        if (r >= ny || x >= nx) { if (!isnan(g)) padding++; continue; }
                        if (!isfinite(g)) { unwritten++; continue; }
                        num += (g - u[o]) * (g - u[o]);
                        den += u[o] * u[o];
                        /* a kept cell keeps its initial value exactly */
                        if (ref_stencil_kept(pol, e, k->dims, x, r, z, nx, ny, nz) && g != u0[o]) moved++;
                    }
                    double err = den > 0 ? sqrt(num / den) : sqrt(num);
                    CHECK(unwritten == 0 && padding == 0, "%dx%dx%d pitch %lld %s step %d: %lld unwritten, %lld padding "
                          "cells written", nx, ny, nz, pitch, pname, s + 1, unwritten, padding);
                    CHECK(moved == 0, "%dx%dx%d %s step %d: %lld boundary cells changed", nx, ny, nz, pname, s + 1, moved);
                    CHECK(err < tol, "%dx%dx%d pitch %lld %s step %d: |out - ref| / |ref| = %.3g", nx, ny, nz, pitch,
                          pname, s + 1, err);
                    /* every cell against the step from the input this kernel read */
                    bs_step(k->pts, k->npts, cw, gin, rv, rm, nx, ny, nz, pitch, plane, pol);
                    for (size_t i = 0; i < n; i++) gout[i] = get(hb, i, k->dbl);
                    const bs_res br = bs_check(gout, rv, rm, beta, rnd, e, pol, nx, ny, nz, pitch, plane);
                    int bx = 0, by = 0, bz = 0;
                    if (br.first >= 0) bs_cell(br.first, pitch, plane, &bx, &by, &bz);
                    CHECK(br.bad == 0 && br.cells == (long long)nx * ny * nz,
                          "%dx%dx%d pitch %lld %s step %d: %lld of %lld cells outside their bound (%lld Dirichlet cells "
                          "changed); first (%d, %d, %d): %.17g, reference %.17g, allowed [%.17g, %.17g]", nx, ny, nz, pitch,
                          pname, s + 1, br.bad, br.cells, br.kept_bad, bx, by, bz, br.g,
                          br.ref, br.lo, br.hi);
                    worst = fmax(worst, br.worst);
                    amb += br.amb; off += br.off; cells += br.cells;
                    double *tg = gin; gin = gout; gout = tg; /* the next step's input */
                }
                if (!check__failed_case && pk == 0) /* all the steps in one plan from the same start: the same bits */
                    ref_check_steps(k->plan, k->run, k->launch, a, da, db, cur, h0, hb, n, es, steps, nx, ny, nz);
            }
            cudaFree(da);
            cudaFree(db);
            free(u); free(v); free(u0); free(gin); free(gout); free(rv); free(rm); free(hb); free(h0);
        }
    }
    free(hc);
    if (!check__failed_case) {
        if (rnd) printf("  %s: %lld of %lld cells differ from the nearest value of the reference, %lld could\n", k->name,
                        off, cells, amb);
        else printf("  %s: largest |out - ref| %.3g of the per-cell bound\n", k->name, worst);
    }
    case_end();
}

static void test_shapes(void)
{
    case_begin("ssam stencil shapes: extents, point counts, coefficient counts");
    CHECK(f_star2d_r1_XLO == -1 && f_star2d_r1_XHI == 1 && f_star2d_r1_YLO == -1 && f_star2d_r1_YHI == 1, "2d5pt");
    CHECK(f_star2d_r6_NPTS == 25 && f_star2d_r6_XLO == -6 && f_star2d_r6_YHI == 6, "2ds25pt");
    CHECK(f_box2d_8x8_NPTS == 64 && f_box2d_8x8_XLO == -3 && f_box2d_8x8_XHI == 4, "2d64pt");
    CHECK(f_box2d_r5_NPTS == 121 && f_box2d_r4_NPTS == 81 && f_box2d_r2_NPTS == 25 && f_box2d_r1_NPTS == 9, "boxes");
    CHECK(f_user2d_a_XLO == -2 && f_user2d_a_XHI == 3 && f_user2d_a_YLO == -1 && f_user2d_a_YHI == 2 &&
          f_user2d_a_ncoef() == 4, "user 2D");
    CHECK(f_user2d_off_XLO == 0 && f_user2d_off_XHI == 2 && f_user2d_off_YLO == 0 && f_user2d_off_YHI == 3, "user off");
    CHECK(f_box3d_r2_NPTS == 125 && f_box3d_r2_ZLO == -2 && f_poisson3d_19_NPTS == 19 && f_star3d_r2_NPTS == 13, "3D");
    CHECK(f_user3d_a_XHI == 5 && f_user3d_a_XLO == -2 && f_user3d_a_ZLO == -1 && f_user3d_a_ZHI == 2 &&
          f_user3d_a_ncoef() == 5, "user 3D");
    CHECK(ONCHIP_SHAPE2D_XLO(ONCHIP_SHAPE_2DS9PT) == -2 && ONCHIP_SHAPE2D_NPTS(ONCHIP_SHAPE_2D9PT) == 9, "aliases");
    CHECK(SSAM_STENCIL_STEP(4, -1, 1) == 120 && SSAM_STENCIL_STEP(2, -6, 6) == 52, "STEP");
    /* the kernels' layout: ghost lanes (32 V columns per warp) for stars within one lane, else overlap */
    CHECK(SSAM__STENCIL_WSTEP(4, -1, 1, (0 ONCHIP_SHAPE_STAR2D_R1(SSAM__OFFAX2))) == 128 &&
          SSAM__STENCIL_WSTEP(4, -1, 1, (0 ONCHIP_SHAPE_BOX2D_R1(SSAM__OFFAX2))) == 120 &&
          SSAM__STENCIL_WSTEP(4, -5, 5, 0) == 112 && SSAM__STENCIL_WSTEP(2, -2, 2, 0) == 64 &&
          SSAM__STENCIL_WSTEP(2, -1, 1, (0 ONCHIP_SHAPE_STAR3D_R1(SSAM__OFFAX3))) == 64 &&
          SSAM__STENCIL_WSTEP(2, -1, 1, (0 ONCHIP_SHAPE_POISSON3D_19(SSAM__OFFAX3))) == 60 &&
          SSAM__STENCIL_WSTEPM(4, -4, 4, (0 ONCHIP_SHAPE_STAR2D_R4(SSAM__OFFAX2)), 0) == 120 &&
          SSAM__STENCIL_WSTEPM(4, -4, 4, (0 ONCHIP_SHAPE_STAR2D_R4(SSAM__OFFAX2)), 1) == 128 &&
          SSAM__STENCIL_GHM_DEFAULT(float, -4, 4) == 0 && SSAM__STENCIL_GHM_DEFAULT(float, -3, 3) == 1, "layout");
    /* the default 3D variant follows the documented rule */
    CHECK(fa_star3d_r2_SLICE == 0 && da_star3d_r2_SLICE == 0 && fa_box3d_r2_SLICE == 0 && da_box3d_r2_SLICE == 1 &&
          SSAM_STENCIL3D_SLICE_RULE(double, 27, 3, 3, 3) == 0 && SSAM_STENCIL3D_SLICE_RULE(double, 13, 5, 5, 5) == 0 &&
          SSAM_STENCIL3D_SLICE_RULE(double, 125, 5, 5, 5) == 1 && SSAM_STENCIL3D_SLICE_RULE(float, 125, 5, 5, 5) == 0, "default variant rule");
    /* the slice variant's shared memory: (NW + NZ - 1) slots of NZ - 1 partial rows, and the row table */
    CHECK(SSAM__STENCIL3S_SMEM(float, 3, 3, 4, 8) == (size_t)6 * 2 * 8 * 512 + 10 * 4 &&
          SSAM__STENCIL3S_SMEM(double, 1, 1, 4, 2) == (size_t)2 * 4, "slice shared memory");
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam stencil plans: the path and why, 0 steps, the result's parity; every error code refused by "
               "name_plan with why, nothing launched or written");
    float c[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f}, *d = NULL;
    const size_t bytes = 2 * 64 * 64 * 4;
    CUDA_OK(cudaMalloc(&d, bytes));
    CUDA_OK(cudaMemset(d, 0, bytes));
    ssam_stencil_args a, b, b3;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 64 * 64; a.nx = 64; a.ny = 64; a.coef = c; a.ncoef = 5;
    a.boundary = SSAM_STENCIL_DIRICHLET; a.steps = 1;
    double c7[7] = {0}, c125[125] = {0};
    memset(&b3, 0, sizeof b3);
    b3.src = d; b3.dst = d + 2 * 64 * 64 - 128; b3.nx = 4; b3.ny = 4; b3.nz = 4; b3.coef = c7; b3.ncoef = 7; /* 512 bytes each, apart */
    b3.steps = 1;
    static const char *const names[] = {"SSAM_SUCCESS", "SSAM_ENULL", "SSAM_ESIZE", "SSAM_EPITCH", "SSAM_EBORDER",
                                        "SSAM_EFILTER", "SSAM_EFLAGS", "SSAM_ECUDA", "SSAM_EOVERLAP", "SSAM_EANCHOR",
                                        "SSAM_EUPDATE"};
    /* b = base, stmt, name_plan: the code.  Refused: why names it, no passes, no result; name_run of that
     * plan (nothing to launch) and name_launch (the code again) leave the poisoned buffer as it was.
     * Taken: the kernel's path, why WHY (0 steps: WHY_0), b.steps passes, the state in src or dst by
     * their parity; name_launch runs */
#define EXPECT(code, base, name, PATH, WHY, stmt)                                                          \
    do {                                                                                                  \
        b = base;                                                                                         \
        stmt;                                                                                             \
        ssam_plan p_;                                                                                     \
        memset(&p_, 0x5A, sizeof p_);                                                                     \
        const int pc_ = name##_plan(&b, &p_);                                                             \
        CHECK(pc_ == (code), "%s (%s): plan %d (%s: %s), want %d", #stmt, #name, pc_, ssam_stencil_strerror(pc_),    \
              pc_ == 0 || pc_ == (code) ? "" : p_.why, code);                                             \
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
            const kern k_ = {#name, 0, 0, 0, 0, NULL, NULL, NULL, NULL, PATH, WHY};                       \
            CHECK(!plan_bad(&k_, &p_, b.steps, (b.steps & 1) ? b.dst : (void *)b.src),                    \
                  "%s (%s): the plan's head: path %d (want %d), %d x %lld steps, result %s, why \"%s\"", #stmt, #name, \
                  p_.path, PATH, p_.steps_per_pass, p_.passes, p_.result == b.src ? "src" : p_.result == b.dst ? "dst" : "?", \
                  p_.why ? p_.why : "(NULL)");                                                            \
            const int rc_ = name##_launch(&b, 0);                                                         \
            CHECK(rc_ == 0, "%s (%s): launch %d (%s)", #stmt, #name, rc_, ssam_stencil_strerror(rc_));    \
        }                                                                                                 \
    } while (0)
#define E2(code, stmt) EXPECT(code, a, f_star2d_r1, SSAM_PATH_ONEPASS, WHY_2D, stmt)
#define E3(code, stmt) EXPECT(code, b3, d_star3d_r1, SSAM_PATH_ONEPASS, WHY_STREAM, stmt)
#define ES(code, stmt) EXPECT(code, b3, ds_star3d_r1, SSAM_PATH_SLICE, WHY_SLICE, stmt)
    /* taken: the path and its sentence, the steps' parity, the fields the one-pass stencils ignore */
    E2(0, (void)0);
    E2(0, b.nz = 1);
    E2(0, b.steps = 2);
    E2(0, b.steps = 7);
    E2(0, b.path = SSAM_PATH_ONEPASS);
    E2(0, (b.cache = 3, b.blocks_per_sm = 2, b.cache_rows_max = 5, b.work = d, b.work_bytes = 1));
    E3(0, (void)0);
    E3(0, (b.steps = 4, b.path = SSAM_PATH_ONEPASS));
    ES(0, (void)0);
    ES(0, (b.steps = 3, b.path = SSAM_PATH_SLICE));
    EXPECT(0, b3, da_box3d_r2, SSAM_PATH_SLICE, WHY_AUTO_SLICE, (b.coef = c125, b.ncoef = 125));
    EXPECT(0, b3, fa_box3d_r2, SSAM_PATH_ONEPASS, WHY_AUTO_STREAM, (b.coef = c125, b.ncoef = 125)); /* float reads c125 as floats */
    /* 0 steps: the state stays in src, nothing launched (src and dst poisoned: neither changes) */
    {
        ssam_plan p;
        b = a; b.steps = 0;
        gpucheck_poison(d, bytes);
        const int pc = f_star2d_r1_plan(&b, &p), rr = f_star2d_r1_run(&b, &p, 0), rc = f_star2d_r1_launch(&b, 0);
        b = b3; b.steps = 0;
        ssam_plan q;
        const int qc = ds_star3d_r1_plan(&b, &q), qr = ds_star3d_r1_run(&b, &q, 0), qs = ds_star3d_r1_launch(&b, 0);
        CHECK(pc == 0 && rr == 0 && rc == 0 && p.result == a.src && p.passes == 0 && p.steps_per_pass == 1 &&
                  p.path == SSAM_PATH_ONEPASS && p.why && !strcmp(p.why, WHY_0),
              "0 steps (2D): plan %d, run %d, launch %d, result %s, %lld passes, why \"%s\"", pc, rr, rc,
              p.result == a.src ? "src" : "not src", p.passes, p.why ? p.why : "(NULL)");
        CHECK(qc == 0 && qr == 0 && qs == 0 && q.result == b3.src && q.passes == 0 && q.path == SSAM_PATH_SLICE &&
                  q.why && !strcmp(q.why, WHY_0),
              "0 steps (3D slices): plan %d, run %d, launch %d, %lld passes", qc, qr, qs, q.passes);
        const long long ch = gpucheck_poison_changed(d, bytes);
        CHECK(ch == 0, "0 steps: %lld bytes written", ch);
    }
    /* NULL args or plan */
    {
        ssam_plan p;
        memset(&p, 0x5A, sizeof p);
        gpucheck_poison(d, bytes);
        CHECK(f_star2d_r1_plan(NULL, &p) == SSAM_ENULL && !refusal_bad(&p, "SSAM_ENULL"), "NULL args: the plan");
        CHECK(f_star2d_r1_plan(&a, NULL) == SSAM_ENULL && f_star2d_r1_launch(NULL, 0) == SSAM_ENULL, "NULL plan, NULL args");
        CHECK(f_star2d_r1_run(NULL, &p, 0) == SSAM_ENULL && f_star2d_r1_run(&a, NULL, 0) == SSAM_ENULL,
              "name_run: NULL args or plan");
        CHECK(gpucheck_poison_changed(d, bytes) == 0, "NULL args: the buffer written");
    }
    /* refused */
    E2(SSAM_ENULL, b.src = NULL);
    E2(SSAM_ENULL, b.dst = NULL);
    E2(SSAM_ENULL, b.coef = NULL);
    E2(SSAM_ESIZE, b.nx = 0);
    E2(SSAM_ESIZE, b.ny = -1);
    E2(SSAM_ESIZE, b.nz = 2);
    E2(SSAM_ESIZE, b.steps = -1);
    E2(SSAM_EPITCH, b.pitch = 63);
    E2(SSAM_EBORDER, b.boundary = ONCHIP_ZERO_OUTSIDE);
    E2(SSAM_EBORDER, b.boundary = 4);
    E2(SSAM_EBORDER, b.boundary = 40); /* past a shift's width */
    E2(SSAM_EBORDER, b.boundary = -1);
    E2(SSAM_EFILTER, b.ncoef = 4);
    E2(SSAM_EFLAGS, b.path = SSAM_PATH_SLICE);
    E2(SSAM_EFLAGS, b.path = SSAM_PATH_TC);
    E2(SSAM_EFLAGS, b.path = 99);
    E2(SSAM_EUPDATE, b.update = ONCHIP_UPDATE_LEAPFROG);
    E2(SSAM_EUPDATE, b.update = ONCHIP_UPDATE_DAMPED);
    E2(SSAM_EUPDATE, b.update = 3);
    E2(SSAM_EUPDATE, b.field[ONCHIP_FIELD_SCALE].p = d);
    E2(SSAM_EUPDATE, b.field[ONCHIP_FIELDS - 1].p = d);
    E2(SSAM_EOVERLAP, b.dst = d);
    E2(SSAM_EOVERLAP, b.dst = d + 64 * 63);
    E2(SSAM_ESIZE, (b.ny = 65536 * 4096, b.nx = 1, b.dst = (char *)d + (1LL << 31))); /* never touched: refused first */
    /* 3D */
    E3(SSAM_EOVERLAP, (b.dst = d + 64 * 64, b.nx = 16, b.ny = 16, b.nz = 16)); /* double 16^3 overlaps */
    E3(SSAM_ESIZE, b.nz = 0);
    E3(SSAM_EUPDATE, (b.update = ONCHIP_UPDATE_LEAPFROG, b.field[ONCHIP_FIELD_SCALE].p = d));
    E3(SSAM_ESIZE, b.steps = -2);
    E3(SSAM_EPITCH, b.plane = 15);
    E3(SSAM_EFILTER, b.ncoef = 5);
    E3(SSAM_EBORDER, b.boundary = 7);
    E3(SSAM_EFLAGS, b.path = SSAM_PATH_SLICE);
    E3(SSAM_EFLAGS, b.path = SSAM_PATH_SIMT);
    /* the slice variant shares the checks */
    ES(SSAM_EFILTER, b.ncoef = 5);
    ES(SSAM_ESIZE, b.nz = -1);
    ES(SSAM_EOVERLAP, b.dst = d);
    ES(SSAM_EBORDER, b.boundary = 3);
    ES(SSAM_ENULL, b.coef = NULL);
    ES(SSAM_EPITCH, b.pitch = 3);
    ES(SSAM_EFLAGS, b.path = SSAM_PATH_ONEPASS);
#undef E2
#undef E3
#undef ES
#undef EXPECT
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(strstr(ssam_stencil_strerror(SSAM_EOVERLAP), "overlap") != NULL &&
          strstr(ssam_stencil_strerror(SSAM_EPITCH), "pitch") != NULL &&
          strstr(ssam_stencil_strerror(SSAM_EFLAGS), "path") != NULL, "strerror");
    cudaFree(d);
    case_end();
}

/* usage: test_ssam_stencil [--light] [--only SUBSTRING]   (--light: small sizes only, for
 * compute-sanitizer; --only: the kernels whose name contains SUBSTRING, e.g. "fp16") */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const char *only = gpucheck_only(argc, argv);
    static const kern kernels[] = {LIST2D(ENT2) LIST3D(ENT3) LISTAUTO(ENTA) LISTX2(ENTX2) LISTX3(ENTX3)
                                   ENTH(h_star2d_r1, pts_star2d_r1, 2) ENTH(b_star2d_r1, pts_star2d_r1, 3)
                                   ENTH(h_box2d_r2, pts_box2d_r2, 2) ENTH(b_user2d_off, pts_user2d_off, 3)};
    int ran = 0, match = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) match += !only || strstr(kernels[i].name, only) != NULL;
    /* shapes, errors, one case a kernel (those --only names), and the --only case */
    check_plan(2 + match + (only ? 1 : 0));
    test_shapes();
    test_errors();
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!only || strstr(kernels[i].name, only)) run_kernel(&kernels[i], light), ran++;
    if (only) { /* an --only that names no kernel compares nothing: not a pass */
        case_begin("ssam stencil --only: the kernels asked for ran");
        CHECK(ran > 0, "--only %s: %d kernels matched", only, ran);
        case_end();
    }
    return check_exit();
}
