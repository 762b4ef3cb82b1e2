/* tests/gpu/test_ssam_temporal.cu -- ssam/temporal.cuh: N steps fused TT per pass against N launches
 * of the one-pass kernel (ssam/stencil.cuh), bit for bit, and against a CPU reference in double.
 * Stars r = 1, 2, 3, boxes r = 1, 2, user-defined asymmetric shapes (one whose points all lie off
 * the cell), float and double, TT from 1 to 8, Dirichlet and periodic, N = 1, TT - 1, TT, TT + 1,
 * 3 TT + 2 (and 100 on one size), ragged sizes from 1 x 1 up, several row segments and warps, a row
 * pitch larger than the width.  Periodic domains whose width is not a multiple of V (16 bytes of
 * elements) are not bit for bit (the wrapped copies of a column are summed in another order): there
 * the difference must stay within 2 N npts eps max|u0| G^N (G: the sum of |c| over the points), and
 * the largest ratio is printed.  Every buffer starts poisoned (NaN): every cell must be written and
 * the padding never.  The staged kernels (the input rows in shared memory: stars r = 1, 3, 4, the
 * 5 x 5 box, a user shape; blocks of 128 and 96 threads) the same way, and AUTO where it builds one.
 * Then the error codes (a refused call writes nothing).
 * Against the double reference, besides the norm, every cell (bounds_stencil.h): after N steps
 * |out - ref| <= c N (K + 1) u mag, mag = (|S|^N |u0|) (the N steps with |c| on |u0|), K the points,
 * u 2^-24 in float with c = 2 (one step's K fmas and K - 1 adds, 2^-24 of its magnitude each; the
 * N steps' errors carried on by |S|), 2^-53 in double with c = 4 (the reference rounds as much);
 * Dirichlet cells equal their start exactly.
 * AUTO (the planned path and one pass per step, each from the same start): every buffer poisoned
 * (NaN) first, Dirichlet and periodic, bit for bit against each other, and against the reference
 * within the bound above (every AUTO kernel on at least one size, Dirichlet and periodic); the
 * fp64 staged kernel of 2d17pt (TT 2, 128 threads: nowhere else) also directly on a small domain. */
#include <ssam/temporal.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index: the CPU references' border rule */
#include "bounds_stencil.h"

#define USER2D_A(X) X(0, 0, 0) X(1, -1, 0) X(1, 0, -1) X(2, -2, 0) X(3, 1, 2) X(2, 3, -1)
#define USER2D_OFF(X) X(0, 1, 1) X(1, 2, 0) X(2, 1, 3)

/* (shape, name, TT of the float kernel, TT of the double kernel) */
#define LIST(X)                                                                                           \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1_t8, 8, 8) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1_t4, 4, 4)              \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1_t2, 2, 2) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1_t1, 1, 1)              \
    X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2_t4, 4, 3) X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3_t2, 2, 2)              \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1_t4, 4, 4) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2_t2, 2, 2)                  \
    X(USER2D_A, user2d_a_t3, 3, 2) X(USER2D_OFF, user2d_off_t3, 3, 3)

/* the staged kernels (SSAM_SCHEDULE_SMEM: the input rows in shared memory) */
#define LIST_S(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4_s3, 3, 2) X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3_s4, 4, 1)              \
    X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2_s4, 4, 4) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1_s8, 8, 5)                \
    X(USER2D_A, user2d_a_s3, 3, 2)

#define DEF(S, n, TF, TD)                                                                                 \
    SSAM_STENCIL2D_TEMPORAL_DEFINE(tf_##n, float, S, ssam_temporal_policy<TF, 128, SSAM_SCHEDULE_REGS>)   \
    SSAM_STENCIL2D_TEMPORAL_DEFINE(td_##n, double, S, ssam_temporal_policy<TD, 64, SSAM_SCHEDULE_REGS>)   \
    SSAM_STENCIL2D_DEFINE(of_##n, float, S, ssam_stencil_policy<4>)                                       \
    SSAM_STENCIL2D_DEFINE(od_##n, double, S, ssam_stencil_policy<2, 64>)
LIST(DEF)
#define DEFS(S, n, TF, TD)                                                                                \
    SSAM_STENCIL2D_TEMPORAL_DEFINE(tf_##n, float, S, ssam_temporal_policy<TF, 128, SSAM_SCHEDULE_SMEM>)   \
    SSAM_STENCIL2D_TEMPORAL_DEFINE(td_##n, double, S, ssam_temporal_policy<TD, 96, SSAM_SCHEDULE_SMEM>)   \
    SSAM_STENCIL2D_DEFINE(of_##n, float, S, ssam_stencil_policy<4>)                                       \
    SSAM_STENCIL2D_DEFINE(od_##n, double, S, ssam_stencil_policy<2, 64>)
LIST_S(DEFS)
/* AUTO builds the staged kernel for 2d17pt (fp32 TT 3, fp64 TT 2) */
SSAM_STENCIL2D_TEMPORAL_DEFINE(af_r4, float, ONCHIP_SHAPE_STAR2D_R4, ssam_temporal_policy<>)
SSAM_STENCIL2D_TEMPORAL_DEFINE(ad_r4, double, ONCHIP_SHAPE_STAR2D_R4, ssam_temporal_policy<>)

/* the planner's generator: temporal for 2d5pt on a domain larger than the L2, one pass for 2d121pt */
SSAM_STENCIL2D_TEMPORAL_DEFINE(af_r1, float, ONCHIP_SHAPE_STAR2D_R1, ssam_temporal_policy<>)
SSAM_STENCIL2D_TEMPORAL_DEFINE(ad_b5, double, ONCHIP_SHAPE_BOX2D_R5, ssam_temporal_policy<0, 64>)

#define HPT(I, DX, DY) {I, DX, DY, 0},
#define PTS(S, n, TF, TD) static const int pts_##n[][4] = {S(HPT)};
LIST(PTS)
LIST_S(PTS)
/* the AUTO shapes */
static const int apts_r1[][4] = {ONCHIP_SHAPE_STAR2D_R1(HPT)};
static const int apts_b5[][4] = {ONCHIP_SHAPE_BOX2D_R5(HPT)};
static const int apts_r4[][4] = {ONCHIP_SHAPE_STAR2D_R4(HPT)};

typedef int (*advance_fn)(const ssam_stencil_args *, int, void **, cudaStream_t);
typedef struct kern {
    const char *name;
    int dbl, tt, npts, ncoef, step;
    const int (*pts)[4];
    advance_fn advance, onepass;
} kern;
#define ENT(S, n, TF, TD)                                                                                 \
    {"float " #n, 0, TF, tf_##n##_NPTS, tf_##n##_ncoef(), tf_##n##_STEP, pts_##n, tb_steps<tf_##n##_plan, tf_##n##_run, 0>, ref_steps<of_##n##_plan, of_##n##_run>}, \
    {"double " #n, 1, TD, td_##n##_NPTS, td_##n##_ncoef(), td_##n##_STEP, pts_##n, tb_steps<td_##n##_plan, td_##n##_run, 0>, ref_steps<od_##n##_plan, od_##n##_run>},


/* one step in double; Dirichlet keeps every cell whose stencil leaves the domain */
static void ref_step(const kern *k, const double *c, const double *in, double *out, int nx, int ny, long long pitch,
                     int periodic)
{
    int e[4] = {0, 0, 0, 0};
    for (int i = 0; i < k->npts; i++) {
        if (k->pts[i][1] < e[0]) e[0] = k->pts[i][1];
        if (k->pts[i][1] > e[1]) e[1] = k->pts[i][1];
        if (k->pts[i][2] < e[2]) e[2] = k->pts[i][2];
        if (k->pts[i][2] > e[3]) e[3] = k->pts[i][2];
    }
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            long long o = y * pitch + x;
            if (!periodic && !(x + e[0] >= 0 && x + e[1] < nx && y + e[2] >= 0 && y + e[3] < ny)) { out[o] = in[o]; continue; }
            double s = 0;
            for (int i = 0; i < k->npts; i++)
                s += c[k->pts[i][0]] * in[ref_index(y + k->pts[i][2], ny, SSAM_BORDER_WRAP) * pitch +
                                          ref_index(x + k->pts[i][1], nx, SSAM_BORDER_WRAP)];
            out[o] = s;
        }
}

static double inexact_max; /* the largest difference / bound where bit for bit is not expected */
static double worst_ratio; /* the largest |out - ref| / per-cell bound against the double reference */
static double get(const void *buf, size_t i, int dbl) { return dbl ? ((const double *)buf)[i] : ((const float *)buf)[i]; }

static void run_kernel(const kern *k, int light)
{
    /* ragged sizes; 400 x 900 spans several strips and row segments */
    static const int sz[][2] = {{1, 1}, {5, 3}, {33, 1}, {67, 65}, {130, 200}, {1000, 37}, {400, 900}};
    const int nsizes = light ? 5 : 7;
    const int tt = k->tt;
    int nsteps[6] = {1, tt - 1, tt, tt + 1, 3 * tt + 2, 100}, nn = 5;
    /* --light (compute-sanitizer: every launch checked): one step, one whole pass, a pass and one */
    if (light) nsteps[1] = tt, nsteps[2] = tt + 1, nn = 3;
    char name[200];
    snprintf(name, sizeof name, "ssam temporal %s (TT %d, %d columns per warp): N steps = N one-pass launches "
             "bit for bit, and the double reference; Dirichlet and periodic, ragged sizes, pitch", k->name, tt, k->step);
    if (!case_part(name)) return; /* --part: this part's kernels only */
    const size_t es = k->dbl ? 8 : 4;
    double c[64];
    void *hc = malloc(64 * es);
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        const int nx = sz[si][0], ny = sz[si][1];
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            const long long pitch = pk ? nx + 3 : nx;
            const size_t n = (size_t)pitch * ny;
            double *u = (double *)malloc(n * 8), *v = (double *)malloc(n * 8);
            void *h0 = malloc(n * es), *ht = malloc(n * es), *ho = malloc(n * es);
            void *b[4] = {NULL, NULL, NULL, NULL};
            for (int i = 0; i < 4; i++) CUDA_OK(cudaMalloc(&b[i], n * es));
            for (int periodic = 0; periodic < 2 && !check__failed_case; periodic++) {
                double sum = 0;
                for (int i = 0; i < k->ncoef; i++) { c[i] = 0.2 + 0.5 * (gpucheck_uniform() + 1); sum += c[i]; }
                for (int i = 0; i < k->ncoef; i++) c[i] /= sum;
                if (strstr(k->name, "user")) c[k->ncoef - 1] = -c[k->ncoef - 1];
                for (int i = 0; i < k->ncoef; i++) {
                    if (k->dbl) ((double *)hc)[i] = c[i];
                    else ((float *)hc)[i] = (float)c[i];
                    c[i] = get(hc, (size_t)i, k->dbl); /* as the GPU sees them */
                }
                for (size_t i = 0; i < n; i++) {
                    double r = gpucheck_uniform();
                    if (k->dbl) ((double *)h0)[i] = r;
                    else ((float *)h0)[i] = (float)r;
                }
                /* the last size also runs 100 steps (not under --light) */
                const int ncase = (si == nsizes - 1 && !light) ? 6 : nn;
                for (int ci = 0; ci < ncase && !check__failed_case; ci++) {
                    const int N = nsteps[ci];
                    if (N < 1 || (ci > 0 && N == nsteps[ci - 1])) continue;
                    void *rt = NULL, *ro = NULL;
                    ssam_stencil_args a;
                    memset(&a, 0, sizeof a);
                    a.nx = nx; a.ny = ny; a.pitch = pk ? pitch : 0; a.coef = hc; a.ncoef = k->ncoef;
                    a.boundary = periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
                    for (int i = 0; i < 4; i++) CUDA_OK(cudaMemset(b[i], 0xFF, n * es)); /* NaN, padding too */
                    /* the padding of the start stays NaN: copy the rows only */
                    CUDA_OK(cudaMemcpy2D(b[0], pitch * es, h0, pitch * es, nx * es, ny, cudaMemcpyHostToDevice));
                    CUDA_OK(cudaMemcpy2D(b[2], pitch * es, h0, pitch * es, nx * es, ny, cudaMemcpyHostToDevice));
                    a.src = b[0]; a.dst = b[1];
                    int rc = k->advance(&a, N, &rt, 0);
                    CHECK(rc == 0 && rt == (((N + tt - 1) / tt) % 2 ? b[1] : b[0]), "temporal advance rc %d (%s)", rc,
                          ssam_stencil_strerror(rc));
                    a.src = b[2]; a.dst = b[3];
                    rc = k->onepass(&a, N, &ro, 0);
                    CHECK(rc == 0, "one-pass advance rc %d", rc);
                    CUDA_OK(cudaDeviceSynchronize());
                    if (check__failed_case) break;
                    CUDA_OK(cudaMemcpy(ht, rt, n * es, cudaMemcpyDeviceToHost));
                    CUDA_OK(cudaMemcpy(ho, ro, n * es, cudaMemcpyDeviceToHost));
                    /* bit for bit, except periodic domains whose width is not a multiple of V: there the
                     * wrapped copies of a column sit at another place in their lane than the column
                     * itself, and are summed in another order; bound: 2 N npts eps max|u0| G^N, G the sum
                     * of |c| over the points */
                    const int V = (int)(16 / es), exact = !periodic || nx % V == 0;
                    double umax = 0, dmax = 0;
                    for (size_t i = 0; i < n; i++) umax = fmax(umax, fabs(get(h0, i, k->dbl)));
                    double G = 0; /* the growth per step: sum over the points of |c| (shared coefficients count twice) */
                    for (int i = 0; i < k->npts; i++) G += fabs(c[k->pts[i][0]]);
                    const double bound = 2.0 * N * k->npts * (k->dbl ? 1.12e-16 : 5.97e-8) * umax * pow(fmax(G, 1.0), N);
                    long long differ = 0, padding = 0, unwritten = 0, first = -1;
                    for (int y = 0; y < ny; y++)
                        for (long long x = 0; x < pitch; x++) {
                            const size_t o = (size_t)(y * pitch + x);
                            const double g = get(ht, o, k->dbl);
                            if (x >= nx) { padding += !isnan(g); continue; }
                            unwritten += !isfinite(g);
                            if (memcmp((char *)ht + o * es, (char *)ho + o * es, es) != 0) {
                                const double d = fabs(g - get(ho, o, k->dbl));
                                dmax = fmax(dmax, d);
                                if (exact || !(d <= bound)) differ++;
                                if (first < 0) first = (long long)o;
                            }
                        }
                    CHECK(unwritten == 0 && padding == 0, "%dx%d pitch %lld %s N %d: %lld unwritten, %lld padding cells written",
                          nx, ny, pitch, periodic ? "periodic" : "Dirichlet", N, unwritten, padding);
                    CHECK(differ == 0, "%dx%d pitch %lld %s N %d: %lld cells differ from the one-pass kernel's (%s), first "
                          "(%lld, %lld): %.17g vs %.17g, largest difference %.3g", nx, ny, pitch, periodic ? "periodic" : "Dirichlet",
                          N, differ, exact ? "bit for bit expected" : "bound", first % pitch, first / pitch,
                          get(ht, (size_t)first, k->dbl), get(ho, (size_t)first, k->dbl), dmax);
                    if (!exact) inexact_max = fmax(inexact_max, bound > 0 ? dmax / bound : 0);
                    /* against the reference in double (only where it is cheap) */
                    if ((long long)n * N <= 8000000LL && !check__failed_case) {
                        /* the reference, and the same steps with |c| on |u0|: the scale of the rounding
                         * (a negative coefficient can cancel |ref| far below it) */
                        double *ua = (double *)malloc(n * 8), *va = (double *)malloc(n * 8), ca[64];
                        for (int i = 0; i < k->ncoef; i++) ca[i] = fabs(c[i]);
                        for (size_t i = 0; i < n; i++) u[i] = get(h0, i, k->dbl), ua[i] = fabs(u[i]);
                        for (int s = 0; s < N; s++) {
                            ref_step(k, c, u, v, nx, ny, pitch, periodic);
                            ref_step(k, ca, ua, va, nx, ny, pitch, periodic);
                            double *t = u; u = v; v = t;
                            t = ua; ua = va; va = t;
                        }
                        double num = 0, den = 0;
                        for (int y = 0; y < ny; y++)
                            for (int x = 0; x < nx; x++) {
                                const size_t o = (size_t)(y * pitch + x);
                                const double d = get(ht, o, k->dbl) - u[o];
                                num += d * d;
                                den += ua[o] * ua[o];
                            }
                        const double err = den > 0 ? sqrt(num / den) : sqrt(num);
                        const double tol = (k->dbl ? 1e-13 : 5e-7) * k->npts * N; /* rounding grows with the steps */
                        CHECK(err < tol, "%dx%d %s N %d: |out - ref| / |ref with |c|| = %.3g (tolerance %.3g)", nx, ny,
                              periodic ? "periodic" : "Dirichlet", N, err, tol);
                        /* every cell within c N (K + 1) u of its magnitude (the file's comment) */
                        for (size_t i = 0; i < n; i++) va[i] = get(ht, i, k->dbl);
                        int e[6];
                        ref_stencil_extents(k->pts, k->npts, e);
                        const double beta = (k->dbl ? 4.0 * 0x1p-53 : 2.0 * 0x1p-24) * N * (k->npts + 1);
                        const bs_res br = bs_check(va, u, ua, beta, NULL, e, periodic, nx, ny, 1, pitch, pitch * ny);
                        CHECK(br.bad == 0 && br.cells == (long long)nx * ny,
                              "%dx%d pitch %lld %s N %d: %lld of %lld cells outside their bound (%lld Dirichlet cells "
                              "changed); first (%lld, %lld): %.17g, reference %.17g, allowed [%.17g, %.17g]", nx, ny, pitch,
                              periodic ? "periodic" : "Dirichlet", N, br.bad, br.cells, br.kept_bad,
                              br.first >= 0 ? br.first % pitch : -1, br.first >= 0 ? br.first / pitch : -1, br.g, br.ref, br.lo,
                              br.hi);
                        worst_ratio = fmax(worst_ratio, br.worst);
                        free(ua); free(va);
                    }
                }
            }
            for (int i = 0; i < 4; i++) cudaFree(b[i]);
            free(u); free(v); free(h0); free(ht); free(ho);
        }
    }
    free(hc);
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam temporal error codes are returned before any launch, and nothing is written");
    float c[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f}, *d = NULL;
    void *res = NULL;
    const size_t bytes = 2 * 64 * 64 * 4;
    CUDA_OK(cudaMalloc(&d, bytes));
    CUDA_OK(cudaMemset(d, 0, bytes));
    ssam_stencil_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 64 * 64; a.nx = 64; a.ny = 64; a.coef = c; a.ncoef = 5;
    a.boundary = SSAM_STENCIL_DIRICHLET;
    ssam_plan p;
    /* the valid calls first (they write) */
    a.steps = 8;
    CHECK(tf_star2d_r1_t8_launch(&a, 0) == 0, "valid arguments");
    const advance_fn t8_steps = tb_steps<tf_star2d_r1_t8_plan, tf_star2d_r1_t8_run, 0>;
    CHECK(t8_steps(&a, 0, &res, 0) == 0 && res == a.src, "0 steps: the state is src");
    CHECK(t8_steps(&a, 17, &res, 0) == 0 && res == a.dst,
          "17 steps: 3 passes, the state in dst");
    CHECK(tf_star2d_r1_t8_plan(&a, &p) == 0 && p.path == SSAM_PATH_TEMPORAL && p.steps_per_pass == 8 && p.passes == 1 &&
              p.result == a.dst && strstr(p.why, "fixed SCHEDULE"), "8 steps: one pass of 8 (%s)", p.why);
    a.steps = 17;
    CHECK(tf_star2d_r1_t8_plan(&a, &p) == 0 && p.steps_per_pass == 8 && p.passes == 3,
          "17 steps: passes of 8, 8 and 1");
    a.steps = 1;
    CUDA_OK(cudaDeviceSynchronize());
    { /* keep-radius: the 5-point star's extents all equal its radius, so it keeps the cells keep-extent
       * keeps: taken, with the same bits */
        const size_t plane = 64 * 64;
        float *h = (float *)malloc(plane * 4), *o1 = (float *)malloc(plane * 4), *o2 = (float *)malloc(plane * 4);
        for (size_t i = 0; i < plane; i++) h[i] = gpucheck_uniform();
        b = a;
        b.steps = 5;
        CUDA_OK(cudaMemcpy(d, h, plane * 4, cudaMemcpyHostToDevice));
        CHECK(tf_star2d_r1_t8_launch(&b, 0) == 0, "keep-extent, 5 steps");
        CUDA_OK(cudaMemcpy(o1, d + plane, plane * 4, cudaMemcpyDeviceToHost));
        b.boundary = ONCHIP_KEEP_RADIUS;
        CUDA_OK(cudaMemset(d + plane, 0xFF, plane * 4));
        CHECK(tf_star2d_r1_t8_launch(&b, 0) == 0, "keep-radius taken for the 5-point star");
        CUDA_OK(cudaMemcpy(o2, d + plane, plane * 4, cudaMemcpyDeviceToHost));
        CHECK(memcmp(o1, o2, plane * 4) == 0, "keep-radius and keep-extent differ for the 5-point star");
        free(h), free(o1), free(o2);
    }
    /* then every refused call on a poisoned buffer (src and dst alike): none may write; each refused
     * plan names why and has no passes */
    CUDA_OK(cudaMemset(d, 0xFF, bytes));
#define REFUSED(name, args, code, what)                                                                 \
    do {                                                                                                \
        memset(&p, 0, sizeof p);                                                                        \
        p.passes = 7;                                                                                   \
        const int rc_ = name##_plan(args, &p);                                                          \
        CHECK(rc_ == (code) && p.passes == 0 && p.why && p.why[0] && onchip_plan_head(&p).why == p.why, \
              "%s: plan rc %d (%s)", what, rc_, p.why ? p.why : "");                                    \
        CHECK(name##_launch(args, 0) == (code), "%s: launch", what);                                    \
    } while (0)
    CHECK(tf_star2d_r1_t8_plan(&a, NULL) == SSAM_ENULL, "NULL plan");
    CHECK(tf_star2d_r1_t8_run(&a, NULL, 0) == SSAM_ENULL && tf_star2d_r1_t8_run(NULL, &p, 0) == SSAM_ENULL, "NULL run");
    REFUSED(tf_star2d_r1_t8, NULL, SSAM_ENULL, "NULL args");
    b = a; b.src = NULL; REFUSED(tf_star2d_r1_t8, &b, SSAM_ENULL, "NULL src");
    b = a; b.coef = NULL; REFUSED(tf_star2d_r1_t8, &b, SSAM_ENULL, "NULL coef");
    b = a; b.nx = 0; REFUSED(tf_star2d_r1_t8, &b, SSAM_ESIZE, "nx 0");
    b = a; b.nz = 2; REFUSED(tf_star2d_r1_t8, &b, SSAM_ESIZE, "nz 2");
    b = a; b.pitch = 63; REFUSED(tf_star2d_r1_t8, &b, SSAM_EPITCH, "pitch < nx");
    b = a; b.boundary = ONCHIP_ZERO_OUTSIDE; REFUSED(tf_star2d_r1_t8, &b, SSAM_EBORDER, "zero-outside");
    b = a; b.boundary = ONCHIP_KEEP_RADIUS; /* an asymmetric shape: keep-radius keeps other cells */
    REFUSED(tf_user2d_off_t3, &b, SSAM_EBORDER, "keep-radius for an asymmetric shape");
    b = a; b.ncoef = 4; REFUSED(tf_star2d_r1_t8, &b, SSAM_EFILTER, "ncoef 4 for 5 points");
    b = a; b.ncoef = 3; b.steps = 9; REFUSED(tf_star2d_r1_t8, &b, SSAM_EFILTER, "ncoef 3, 9 steps");
    b = a; b.dst = d + 64 * 63; REFUSED(tf_star2d_r1_t8, &b, SSAM_EOVERLAP, "src and dst overlap");
    b = a; b.update = ONCHIP_UPDATE_LEAPFROG; REFUSED(tf_star2d_r1_t8, &b, SSAM_EUPDATE, "a leapfrog update");
    b = a; b.field[ONCHIP_FIELD_SCALE].p = d; REFUSED(tf_star2d_r1_t8, &b, SSAM_EUPDATE, "a coefficient field");
    b = a; b.steps = -1; REFUSED(tf_star2d_r1_t8, &b, SSAM_ESIZE, "steps < 0");
    b = a; b.path = SSAM_PATH_ONEPASS; REFUSED(tf_star2d_r1_t8, &b, SSAM_EFLAGS, "a fixed schedule: path one pass");
    b = a; b.path = SSAM_PATH_SLICE; REFUSED(af_r1, &b, SSAM_EFLAGS, "AUTO: path SLICE");
#undef REFUSED
    CUDA_OK(cudaDeviceSynchronize());
    const long long changed = gpucheck_poison_changed(d, bytes);
    CHECK(changed == 0, "%lld bytes written by refused calls", changed);
    /* the layout: the columns a warp stores */
    CHECK(tf_star2d_r1_t8_STEP == 112 && td_star2d_r1_t8_STEP == 48 && tf_star2d_r1_t1_STEP == 120 &&
          tf_star2d_r3_t2_STEP == 112 && tf_user2d_off_t3_STEP == 120 && SSAM_TEMPORAL_HL(4, -2, 3) == 8 &&
          SSAM_TEMPORAL_HR(2, 3, 3) == 10, "columns per warp");
    cudaFree(d);
    case_end();
}

/* positive coefficients summing to 1 (no growth, no cancellation), as double and as float */
static void auto_coefs(int nc, double *cd, float *cf)
{
    double sum = 0;
    for (int i = 0; i < nc; i++) { cd[i] = 0.2 + 0.5 * (gpucheck_uniform() + 1); sum += cd[i]; }
    for (int i = 0; i < nc; i++) { cd[i] /= sum; cf[i] = (float)cd[i]; }
}

/* one AUTO comparison: adv (the planned path, or a kernel of AUTO's called directly) and one (one
 * pass per step) from the same start, every buffer poisoned (NaN) first; every cell written, the
 * results bit for bit equal (nx a multiple of V where periodic), the state moved, and where anchor
 * every cell within the per-cell bound of N steps against the double reference */
static void auto_run(const char *what, int dbl, int nx, int ny, int N, int periodic, const int (*pts)[4], int npts,
                     const double *cd, const float *cf, advance_fn adv, advance_fn one, int anchor)
{
    const size_t n = (size_t)nx * ny, es = dbl ? 8 : 4;
    void *b[4] = {NULL, NULL, NULL, NULL}, *h0 = malloc(n * es), *h1 = malloc(n * es), *h2 = malloc(n * es);
    void *r1 = NULL, *r2 = NULL;
    double *u0 = (double *)malloc(n * 8);
    const char *bnd = periodic ? "periodic" : "Dirichlet";
    for (size_t i = 0; i < n; i++) {
        const double r = gpucheck_uniform();
        if (dbl) ((double *)h0)[i] = r;
        else ((float *)h0)[i] = (float)r;
        u0[i] = get(h0, i, dbl);
    }
    for (int i = 0; i < 4; i++) {
        CUDA_OK(cudaMalloc(&b[i], n * es));
        CUDA_OK(cudaMemset(b[i], 0xFF, n * es)); /* NaN */
    }
    CUDA_OK(cudaMemcpy(b[0], h0, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b[2], h0, n * es, cudaMemcpyHostToDevice));
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.nx = nx; a.ny = ny; a.coef = dbl ? (const void *)cd : (const void *)cf; a.ncoef = npts;
    a.boundary = periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
    a.src = b[0]; a.dst = b[1];
    int rc = adv(&a, N, &r1, 0);
    CHECK(rc == 0 && (r1 == b[0] || r1 == b[1]), "%s %dx%d %s, %d steps: advance rc %d", what, nx, ny, bnd, N, rc);
    a.src = b[2]; a.dst = b[3];
    rc = one(&a, N, &r2, 0);
    CHECK(rc == 0 && (r2 == b[2] || r2 == b[3]), "%s %dx%d %s, %d steps: one-pass rc %d", what, nx, ny, bnd, N, rc);
    CUDA_OK(cudaDeviceSynchronize());
    if (!check__failed_case) {
        CUDA_OK(cudaMemcpy(h1, r1, n * es, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h2, r2, n * es, cudaMemcpyDeviceToHost));
        long long unwritten = 0;
        for (size_t i = 0; i < n; i++) unwritten += !isfinite(get(h1, i, dbl));
        CHECK(unwritten == 0, "%s %dx%d %s, %d steps: %lld cells unwritten", what, nx, ny, bnd, N, unwritten);
        CHECK(memcmp(h1, h2, n * es) == 0, "%s %dx%d %s, %d steps: AUTO differs from one pass per step", what, nx, ny, bnd, N);
        CHECK(memcmp(h1, h0, n * es) != 0, "%s %dx%d: the state did not move", what, nx, ny);
    }
    if (anchor && !check__failed_case) {
        double c[128], *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8), *sc = (double *)malloc(2 * n * 8);
        for (int i = 0; i < npts; i++) c[i] = dbl ? cd[i] : (double)cf[i]; /* as the GPU sees them */
        bs_steps(pts, npts, c, u0, N, ref, mag, sc, n, nx, ny, 1, nx, (long long)n, periodic);
        for (size_t i = 0; i < n; i++) sc[i] = get(h1, i, dbl);
        int e[6];
        ref_stencil_extents(pts, npts, e);
        const double beta = (dbl ? 4.0 * 0x1p-53 : 2.0 * 0x1p-24) * N * (npts + 1);
        const bs_res br = bs_check(sc, ref, mag, beta, NULL, e, periodic, nx, ny, 1, nx, (long long)n);
        CHECK(br.bad == 0 && br.cells == (long long)n,
              "%s %dx%d %s, %d steps: %lld of %lld cells outside their bound against the double reference (%lld "
              "Dirichlet cells changed); first (%lld, %lld): %.17g, reference %.17g, allowed [%.17g, %.17g]",
              what, nx, ny, bnd, N, br.bad, br.cells, br.kept_bad, br.first >= 0 ? br.first % nx : -1,
              br.first >= 0 ? br.first / nx : -1, br.g, br.ref, br.lo, br.hi);
        worst_ratio = fmax(worst_ratio, br.worst);
        free(ref); free(mag); free(sc);
    }
    for (int i = 0; i < 4; i++) cudaFree(b[i]);
    free(h0); free(h1); free(h2); free(u0);
}

/* AUTO: the plan's path and reason, and the result against one pass per step and the reference */
static void test_auto(int light)
{
    case_begin("ssam temporal AUTO: the planned path (temporal for 2d5pt, one pass for 2d121pt and for 1 step), "
               "the same result as one pass per step, poisoned buffers, Dirichlet and periodic, the double reference");
    /* anchor: against the double reference too (not the 19 steps of 2048^2: its kernel is the
     * 300 x 200 cases', whose anchors cover it) */
    static const struct { int dbl, nx, ny, steps, want, periodic, anchor; } cases[] = {
        {0, 2048, 2048, 19, SSAM_PATH_TEMPORAL, 0, 0}, {0, 2048, 2048, 1, SSAM_PATH_ONEPASS, 0, 1},
        {0, 300, 200, 19, SSAM_PATH_TEMPORAL, 0, 1},   {0, 300, 200, 8, SSAM_PATH_TEMPORAL, 1, 1},
        {1, 1000, 300, 3, SSAM_PATH_ONEPASS, 0, 0},    {1, 200, 150, 3, SSAM_PATH_ONEPASS, 0, 1},
        {1, 200, 150, 2, SSAM_PATH_ONEPASS, 1, 1}};
    double cd[121];
    float cf[121];
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases && !check__failed_case; ci++) {
        const int dbl = cases[ci].dbl, nx = light && ci < 2 ? 1024 : cases[ci].nx, ny = light && ci < 2 ? 1024 : cases[ci].ny;
        const int N = cases[ci].steps, npts = dbl ? 121 : 5;
        auto_coefs(npts, cd, cf);
        ssam_stencil_args a;
        ssam_plan p;
        memset(&p, 0, sizeof p);
        memset(&a, 0, sizeof a);
        a.nx = nx; a.ny = ny; a.coef = dbl ? (const void *)cd : (const void *)cf; a.ncoef = npts;
        a.boundary = cases[ci].periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
        a.src = (void *)((uintptr_t)1 << 44); /* name_plan reads no buffer: two addresses far apart */
        a.dst = (void *)((uintptr_t)1 << 45);
        a.steps = N;
        int rc = dbl ? ad_b5_plan(&a, &p) : af_r1_plan(&a, &p);
        CHECK(rc == 0, "plan rc %d", rc);
        CHECK(p.path == cases[ci].want, "%dx%d %s, %d steps: path %d (%s), %d expected", nx, ny, dbl ? "fp64" : "fp32",
                  N, p.path, p.why, cases[ci].want);
        CHECK(p.why && strlen(p.why) > 10 && (p.path == SSAM_PATH_ONEPASS || p.steps_per_pass == 8), "why, steps a pass");
        if (dbl) { /* the rule builds no temporal kernel for 2d121pt: args.path TEMPORAL is refused */
            ssam_stencil_args t = a;
            t.path = SSAM_PATH_TEMPORAL;
            rc = ad_b5_plan(&t, &p);
            CHECK(ad_b5_tb_TT == 1 && rc == SSAM_EFLAGS && p.passes == 0 && strstr(p.why, "no temporal kernel"),
                  "2d121pt: no temporal kernel (rc %d)", rc);
        }
        if (dbl)
            auto_run("fp64 2d121pt", 1, nx, ny, N, cases[ci].periodic, apts_b5, 121, cd, cf, tb_steps<ad_b5_plan, ad_b5_run, 0>,
                     tb_steps<ad_b5_plan, ad_b5_run, SSAM_PATH_ONEPASS>, cases[ci].anchor);
        else
            auto_run("fp32 2d5pt", 0, nx, ny, N, cases[ci].periodic, apts_r1, 5, cd, cf, tb_steps<af_r1_plan, af_r1_run, 0>, tb_steps<af_r1_plan, af_r1_run, SSAM_PATH_ONEPASS>,
                     cases[ci].anchor);
    }
    case_end();
}

/* AUTO with the staged kernel (2d17pt): the plan says so, and the result is one pass's bit for bit */
static void test_auto_smem(int light)
{
    case_begin("ssam temporal AUTO: 2d17pt runs the staged kernel (fp32 TT 3, fp64 TT 2) from SSAM_TB_SMEM_MIN_CELLS "
               "cells on, one pass below, the same result as one pass per step, poisoned buffers, Dirichlet and "
               "periodic, the double reference; the staged kernels directly on a small domain");
    double cd[17];
    float cf[17];
    CHECK(af_r4_tb_TT == 3 && ad_r4_tb_TT == 2 && af_r4_tb_SMEM == SSAM_TEMPORAL_SMEM_BYTES(9, 128) &&
          ad_r4_tb_SMEM > 0 && tf_star2d_r1_t8_SMEM == 0, "the rules' TT and kernels");
    /* big: 1999 x 1001 Dirichlet 11 steps (kit against kit), 2000 x 1001 periodic TT steps (one pass,
     * anchored: the first steps of the same kernel); small: 300 x 200, one pass per step, both
     * boundaries, anchored */
    static const struct { int nx, ny, steps, periodic, anchor; } sz[] = {
        {1999, 1001, 11, 0, 0}, {2000, 1001, 0, 1, 1}, {300, 200, 11, 0, 1}, {300, 200, 11, 1, 1}};
    for (int ci = 0; ci < 8 && !check__failed_case; ci++) {
        const int dbl = ci & 1, si = ci / 2, big = si < 2, nx = sz[si].nx, ny = sz[si].ny;
        const int N = sz[si].steps ? sz[si].steps : (dbl ? 2 : 3);
        if (big && light) continue;
        auto_coefs(17, cd, cf);
        ssam_stencil_args a;
        ssam_plan p;
        memset(&p, 0, sizeof p);
        memset(&a, 0, sizeof a);
        a.nx = nx; a.ny = ny; a.coef = dbl ? (const void *)cd : (const void *)cf; a.ncoef = 17;
        a.boundary = sz[si].periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
        a.src = (void *)((uintptr_t)1 << 44); /* name_plan reads no buffer: two addresses far apart */
        a.dst = (void *)((uintptr_t)1 << 45);
        a.steps = N;
        int rc = dbl ? ad_r4_plan(&a, &p) : af_r4_plan(&a, &p);
        if (big)
            CHECK(rc == 0 && p.path == SSAM_PATH_TEMPORAL && p.steps_per_pass == (dbl ? 2 : 3) && p.why && strstr(p.why, "shared memory"),
                  "%s %dx%d plan: rc %d path %d tt %d (%s)", dbl ? "fp64" : "fp32", nx, ny, rc, p.path, p.steps_per_pass,
                  p.why ? p.why : "");
        else
            CHECK(rc == 0 && p.path == SSAM_PATH_ONEPASS && p.why && strstr(p.why, "SSAM_TB_SMEM_MIN_CELLS"),
                  "%s %dx%d plan: rc %d path %d (%s)", dbl ? "fp64" : "fp32", nx, ny, rc, p.path, p.why ? p.why : "");
        if (dbl)
            auto_run("fp64 2d17pt", 1, nx, ny, N, sz[si].periodic, apts_r4, 17, cd, cf, tb_steps<ad_r4_plan, ad_r4_run, 0>, tb_steps<ad_r4_plan, ad_r4_run, SSAM_PATH_ONEPASS>,
                     sz[si].anchor);
        else
            auto_run("fp32 2d17pt", 0, nx, ny, N, sz[si].periodic, apts_r4, 17, cd, cf, tb_steps<af_r4_plan, af_r4_run, 0>, tb_steps<af_r4_plan, af_r4_run, SSAM_PATH_ONEPASS>,
                     sz[si].anchor);
    }
    /* the staged kernels themselves on the small domain (AUTO takes one pass there): Dirichlet 3 passes
     * (the state in dst), periodic one pass */
    for (int ci = 0; ci < 4 && !check__failed_case; ci++) {
        const int dbl = ci & 1, periodic = ci / 2, tt = dbl ? 2 : 3, N = periodic ? tt : 2 * tt + 1;
        auto_coefs(17, cd, cf);
        if (dbl)
            auto_run("fp64 2d17pt staged", 1, 300, 200, N, periodic, apts_r4, 17, cd, cf, tb_steps<ad_r4_plan, ad_r4_run, SSAM_PATH_TEMPORAL>,
                     tb_steps<ad_r4_plan, ad_r4_run, SSAM_PATH_ONEPASS>, 1);
        else
            auto_run("fp32 2d17pt staged", 0, 300, 200, N, periodic, apts_r4, 17, cd, cf, tb_steps<af_r4_plan, af_r4_run, SSAM_PATH_TEMPORAL>,
                     tb_steps<af_r4_plan, af_r4_run, SSAM_PATH_ONEPASS>, 1);
    }
    case_end();
}

/* usage: test_ssam_temporal [--light]   (--light: small sizes only, for compute-sanitizer) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    static const kern kernels[] = {LIST(ENT) LIST_S(ENT)};
    /* the errors, the two AUTO cases, one case a kernel (in every mode) */
    check_plan(3 + (int)(sizeof kernels / sizeof *kernels));
    test_errors();
    test_auto(light);
    test_auto_smem(light);
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) run_kernel(&kernels[i], light);
    printf("periodic widths not a multiple of V: largest difference from one-pass = %.3g of the bound\n", inexact_max);
    printf("against the double reference: largest |out - ref| = %.3g of the per-cell bound\n", worst_ratio);
    return check_exit();
}
