/* tests/gpu/test_ssam_temporal3d.cu -- ssam/temporal3d.cuh: N steps fused TT per pass against N
 * launches of ssam's streaming 3D kernel (SSAM_STENCIL3D_DEFINE, SSAM_SCHEDULE_STREAM), bit for bit, and against a
 * CPU reference in double.  3d7pt with TT 1 to 4, 3d13pt, 3d27pt, user-defined asymmetric shapes (one
 * whose points all lie off the cell), the register-ring and z-column schedules (RING, ZCOL: 3d7pt,
 * 3d13pt and a z-star reaching two planes up), float and double, Dirichlet and periodic, N = 1, TT - 1, TT,
 * TT + 1, 3 TT + 2, ragged sizes from 1 x 1 x 1 up (several strips, tiles and z segments), a row
 * pitch and a plane pitch larger than the domain's.  Periodic domains whose width is not a multiple
 * of V are compared within 2 N npts eps max|u0| G^N (as in test_ssam_temporal).  Buffers start
 * poisoned (NaN): every cell must be written and the padding never.  Then the error codes (a
 * refused call writes nothing).
 * Against the double reference, besides the norm, every cell (bounds_stencil.h): after N steps
 * |out - ref| <= c N (K + 1) u mag, mag = (|S|^N |u0|) (the N steps with |c| on |u0|), K the points,
 * u 2^-24 in float with c = 2 (one step's K fmas and K - 1 adds, 2^-24 of its magnitude each; the
 * N steps' errors carried on by |S|), 2^-53 in double with c = 4 (the reference rounds as much);
 * Dirichlet cells equal their start exactly.
 * AUTO (the planned path and one pass per step from the same start; configurations that run
 * nowhere else: 3d7pt z-column TT 4 P 3 512 threads, 3d13pt z-column TT 2, 3d27pt ring TT 2 512
 * threads, the one-pass kernels of SSAM_STENCIL3D_DEFINE): every buffer poisoned (NaN) first,
 * Dirichlet and periodic, one pass (the state in dst) and several, bit for bit against each other
 * and every cell against the double reference within the bound above. */
/* the AUTO cases below run the temporal path on small domains: the planner's size rule (host-tested
 * in tests/host/test_ssam_tbplan.c) is turned off here */
#define SSAM_TB3_MIN_CELLS 0
#define SSAM_TB3_MIN_XFILL 0
#include <ssam/temporal3d.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index: the CPU references' border rule */
#include "bounds_stencil.h"

#define USER3D_A(X) X(0, 0, 0, 0) X(1, -1, 0, 1) X(2, 0, 2, -1) X(3, 1, -1, 0) X(1, 2, 0, 0)
#define USER3D_OFF(X) X(0, 1, 0, 1) X(1, 0, 1, 2) X(2, -1, 1, 1)
/* a z-star (DY = 0 off the centre plane) reaching two planes up and one down, x offsets off the centre */
#define USER3D_Z(X) X(0, 0, 0, 0) X(1, -1, 0, 1) X(2, 0, 2, 0) X(3, 1, 0, -1) X(1, 2, 0, 0) X(2, 0, -1, 0) X(3, 0, 0, 2)

/* (shape, name, TT float, TT double, P, B, schedule: SMEM, RING or ZCOL) */
#define LIST(X)                                                                                           \
    X(ONCHIP_SHAPE_3D7PT, s7_t4, 4, 4, 2, 256, SMEM) X(ONCHIP_SHAPE_3D7PT, s7_t3, 3, 3, 1, 256, SMEM)     \
    X(ONCHIP_SHAPE_3D7PT, s7_t2, 2, 2, 2, 128, SMEM) X(ONCHIP_SHAPE_3D7PT, s7_t1, 1, 1, 2, 64, SMEM)      \
    X(ONCHIP_SHAPE_3D13PT, s13_t2, 2, 2, 2, 256, SMEM) X(ONCHIP_SHAPE_3D27PT, b27_t2, 2, 2, 2, 256, SMEM) \
    X(USER3D_A, user3d_a_t3, 3, 2, 2, 256, SMEM) X(USER3D_OFF, user3d_off_t2, 2, 2, 2, 128, SMEM)         \
    X(ONCHIP_SHAPE_3D27PT, b27_ring_t2, 2, 2, 2, 256, RING)                                               \
    X(ONCHIP_SHAPE_3D7PT, s7_ring_t3, 3, 2, 3, 128, RING) X(USER3D_A, user3d_a_ring_t2, 2, 2, 2, 128, RING) \
    X(ONCHIP_SHAPE_3D7PT, s7_zcol_t4, 4, 4, 2, 256, ZCOL) X(ONCHIP_SHAPE_3D7PT, s7_zcol_t3, 3, 2, 1, 256, ZCOL) \
    X(ONCHIP_SHAPE_3D7PT, s7_zcol_t1, 1, 1, 2, 64, ZCOL) X(ONCHIP_SHAPE_3D13PT, s13_zcol_t3, 3, 3, 2, 256, ZCOL) \
    X(USER3D_Z, user3d_z_zcol_t3, 3, 2, 2, 256, ZCOL)

#define DEF(S, n, TF, TD, P, B, G)                                                                        \
    SSAM_STENCIL3D_TEMPORAL_DEFINE(tf_##n, float, S, ssam_temporal_policy<TF, B, SSAM_SCHEDULE_##G, P>)   \
    SSAM_STENCIL3D_TEMPORAL_DEFINE(td_##n, double, S, ssam_temporal_policy<TD, B, SSAM_SCHEDULE_##G, P>)  \
    SSAM_STENCIL3D_DEFINE(of_##n, float, S, ssam_stencil_policy<2, 128, 1, SSAM_SCHEDULE_STREAM>)         \
    SSAM_STENCIL3D_DEFINE(od_##n, double, S, ssam_stencil_policy<2, 128, 1, SSAM_SCHEDULE_STREAM>)
LIST(DEF)

/* the planner's generator: the z-column kernel for 3d7pt (TT 4, P 3, 512 threads) and 3d13pt (TT 2),
 * the register ring for 3d27pt, one pass for 3d125pt */
SSAM_STENCIL3D_TEMPORAL_DEFINE(af_s7, float, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<>)
SSAM_STENCIL3D_TEMPORAL_DEFINE(ad_s7, double, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<>)
SSAM_STENCIL3D_TEMPORAL_DEFINE(af_s13, float, ONCHIP_SHAPE_3D13PT, ssam_temporal_policy<>)
SSAM_STENCIL3D_TEMPORAL_DEFINE(ad_s13, double, ONCHIP_SHAPE_3D13PT, ssam_temporal_policy<>)
SSAM_STENCIL3D_TEMPORAL_DEFINE(ad_b125, double, ONCHIP_SHAPE_3D125PT, ssam_temporal_policy<>)
SSAM_STENCIL3D_TEMPORAL_DEFINE(af_b27, float, ONCHIP_SHAPE_3D27PT, ssam_temporal_policy<>) /* TT 2 with the register ring */

#define HPT(I, DX, DY, DZ) {I, DX, DY, DZ},
#define PTS(S, n, TF, TD, P, B, G) static const int pts_##n[][4] = {S(HPT)};
LIST(PTS)
/* the AUTO shapes */
static const int apts_s7[][4] = {ONCHIP_SHAPE_3D7PT(HPT)};
static const int apts_s13[][4] = {ONCHIP_SHAPE_3D13PT(HPT)};
static const int apts_b27[][4] = {ONCHIP_SHAPE_3D27PT(HPT)};
static const int apts_b125[][4] = {ONCHIP_SHAPE_3D125PT(HPT)};

typedef int (*advance_fn)(const ssam_stencil_args *, int, void **, cudaStream_t);
typedef struct kern {
    const char *name;
    int dbl, tt, npts, ncoef, stepx, stepy;
    const int (*pts)[4];
    advance_fn advance, onepass;
} kern;
#define ENT(S, n, TF, TD, P, B, G)                                                                        \
    {"float " #n, 0, TF, tf_##n##_NPTS, tf_##n##_ncoef(), tf_##n##_STEPX, tf_##n##_STEPY, pts_##n,                 \
     tb_steps<tf_##n##_plan, tf_##n##_run, 0>, ref_steps<of_##n##_plan, of_##n##_run>},                                           \
    {"double " #n, 1, TD, td_##n##_NPTS, td_##n##_ncoef(), td_##n##_STEPX, td_##n##_STEPY, pts_##n,                 \
     tb_steps<td_##n##_plan, td_##n##_run, 0>, ref_steps<od_##n##_plan, od_##n##_run>},

/* one step in double; Dirichlet keeps every cell whose stencil leaves the domain */
static void ref_step(const kern *k, const double *c, const double *in, double *out, int nx, int ny, int nz,
                     long long pitch, long long plane, int periodic)
{
    int e[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < k->npts; i++)
        for (int d = 0; d < 3; d++) {
            if (k->pts[i][1 + d] < e[2 * d]) e[2 * d] = k->pts[i][1 + d];
            if (k->pts[i][1 + d] > e[2 * d + 1]) e[2 * d + 1] = k->pts[i][1 + d];
        }
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const long long o = z * plane + y * pitch + x;
                if (!periodic && !(x + e[0] >= 0 && x + e[1] < nx && y + e[2] >= 0 && y + e[3] < ny && z + e[4] >= 0 &&
                                   z + e[5] < nz)) {
                    out[o] = in[o];
                    continue;
                }
                double s = 0;
                for (int i = 0; i < k->npts; i++)
                    s += c[k->pts[i][0]] * in[ref_index(z + k->pts[i][3], nz, SSAM_BORDER_WRAP) * plane +
                                              ref_index(y + k->pts[i][2], ny, SSAM_BORDER_WRAP) * pitch +
                                              ref_index(x + k->pts[i][1], nx, SSAM_BORDER_WRAP)];
                out[o] = s;
            }
}

static double inexact_max; /* the largest difference / bound where bit for bit is not expected */
static double worst_ratio; /* the largest |out - ref| / per-cell bound against the double reference */
static double get(const void *buf, size_t i, int dbl) { return dbl ? ((const double *)buf)[i] : ((const float *)buf)[i]; }

/* the compared run of one size and boundary: differing, unwritten and padding cells */
static void compare(const kern *k, const void *h0, const void *ht, const void *ho, const double *c, int nx, int ny, int nz,
                    long long pitch, long long plane, int periodic, int N)
{
    const size_t es = k->dbl ? 8 : 4, n = (size_t)plane * nz;
    const int V = (int)(16 / es), exact = !periodic || nx % V == 0;
    double umax = 0, dmax = 0, G = 0;
    for (size_t i = 0; i < n; i++) umax = fmax(umax, fabs(get(h0, i, k->dbl)));
    for (int i = 0; i < k->npts; i++) G += fabs(c[k->pts[i][0]]);
    const double bound = 2.0 * N * k->npts * (k->dbl ? 1.12e-16 : 5.97e-8) * umax * pow(fmax(G, 1.0), N);
    long long differ = 0, padding = 0, unwritten = 0, first = -1;
    for (size_t o = 0; o < n; o++) {
        const long long z = (long long)o / plane, y = ((long long)o % plane) / pitch, x = (long long)o % plane % pitch;
        const double g = get(ht, o, k->dbl);
        if (x >= nx || y >= ny || z >= nz) { padding += !isnan(g); continue; }
        unwritten += !isfinite(g);
        if (memcmp((const char *)ht + o * es, (const char *)ho + o * es, es) != 0) {
            const double d = fabs(g - get(ho, o, k->dbl));
            dmax = fmax(dmax, d);
            if (exact || !(d <= bound)) differ++;
            if (first < 0) first = (long long)o;
        }
    }
    CHECK(unwritten == 0 && padding == 0, "%dx%dx%d %s N %d: %lld unwritten, %lld padding cells written", nx, ny, nz,
          periodic ? "periodic" : "Dirichlet", N, unwritten, padding);
    CHECK(differ == 0, "%dx%dx%d pitch %lld plane %lld %s N %d: %lld cells differ from the one-pass kernel's (%s), first "
          "at %lld: %.17g vs %.17g, largest difference %.3g", nx, ny, nz, pitch, plane, periodic ? "periodic" : "Dirichlet",
          N, differ, exact ? "bit for bit expected" : "bound", first, first >= 0 ? get(ht, (size_t)first, k->dbl) : 0.0,
          first >= 0 ? get(ho, (size_t)first, k->dbl) : 0.0, dmax);
    if (!exact) inexact_max = fmax(inexact_max, bound > 0 ? dmax / bound : 0);
}

/* against the reference in double, normalised by the same steps with |c| on |u0| */
static void against_ref(const kern *k, const void *h0, const void *ht, const double *c, int nx, int ny, int nz,
                        long long pitch, long long plane, int periodic, int N)
{
    const size_t n = (size_t)plane * nz;
    double *u = (double *)calloc(n, 8), *v = (double *)calloc(n, 8), *ua = (double *)calloc(n, 8),
           *va = (double *)calloc(n, 8), ca[64], num = 0, den = 0;
    for (int i = 0; i < k->ncoef; i++) ca[i] = fabs(c[i]);
    for (size_t i = 0; i < n; i++) u[i] = get(h0, i, k->dbl), ua[i] = fabs(u[i]);
    for (int s = 0; s < N; s++) {
        ref_step(k, c, u, v, nx, ny, nz, pitch, plane, periodic);
        ref_step(k, ca, ua, va, nx, ny, nz, pitch, plane, periodic);
        double *t = u; u = v; v = t;
        t = ua; ua = va; va = t;
    }
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const size_t o = (size_t)(z * plane + y * pitch + x);
                const double d = get(ht, o, k->dbl) - u[o];
                num += d * d;
                den += ua[o] * ua[o];
            }
    const double err = den > 0 ? sqrt(num / den) : sqrt(num), tol = (k->dbl ? 1e-13 : 5e-7) * k->npts * N;
    CHECK(err < tol, "%dx%dx%d %s N %d: |out - ref| / |ref with |c|| = %.3g (tolerance %.3g)", nx, ny, nz,
          periodic ? "periodic" : "Dirichlet", N, err, tol);
    /* every cell within c N (K + 1) u of its magnitude (the file's comment) */
    for (size_t i = 0; i < n; i++) va[i] = get(ht, i, k->dbl);
    int e[6], bx = 0, by = 0, bz = 0;
    ref_stencil_extents(k->pts, k->npts, e);
    const double beta = (k->dbl ? 4.0 * 0x1p-53 : 2.0 * 0x1p-24) * N * (k->npts + 1);
    const bs_res br = bs_check(va, u, ua, beta, NULL, e, periodic, nx, ny, nz, pitch, plane);
    if (br.first >= 0) bs_cell(br.first, pitch, plane, &bx, &by, &bz);
    CHECK(br.bad == 0 && br.cells == (long long)nx * ny * nz,
          "%dx%dx%d pitch %lld plane %lld %s N %d: %lld of %lld cells outside their bound (%lld Dirichlet cells changed); "
          "first (%d, %d, %d): %.17g, reference %.17g, allowed [%.17g, %.17g]", nx, ny, nz, pitch, plane,
          periodic ? "periodic" : "Dirichlet", N, br.bad, br.cells, br.kept_bad, bx, by, bz, br.g, br.ref, br.lo, br.hi);
    worst_ratio = fmax(worst_ratio, br.worst);
    free(u); free(v); free(ua); free(va);
}

static void run_kernel(const kern *k, int light)
{
    /* ragged sizes; the last ones span several strips, tiles and z segments */
    static const int sz[][3] = {{1, 1, 1}, {5, 3, 2}, {33, 7, 9}, {67, 30, 11}, {130, 41, 40}, {300, 70, 33}};
    const int nsizes = light ? 3 : 6, tt = k->tt;
    const int nsteps[5] = {1, tt - 1, tt, tt + 1, 3 * tt + 2};
    char name[240];
    snprintf(name, sizeof name, "ssam temporal 3D %s (TT %d, tile stores %d x %d): N steps = N one-pass launches bit "
             "for bit, and the double reference; Dirichlet and periodic, ragged sizes, pitches", k->name, tt, k->stepx,
             k->stepy);
    if (!case_part(name)) return;
    const size_t es = k->dbl ? 8 : 4;
    double c[64];
    void *hc = malloc(64 * es);
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        const int nx = sz[si][0], ny = sz[si][1], nz = sz[si][2];
        for (int pk = light; pk < 2 && !check__failed_case; pk++) { /* --light: the padded pitch only */
            const long long pitch = pk ? nx + 3 : nx, plane = pk ? pitch * ny + 5 : pitch * ny;
            const size_t n = (size_t)plane * nz;
            void *h0 = malloc(n * es), *ht = malloc(n * es), *ho = malloc(n * es), *b[4];
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
                for (size_t i = 0; i < n; i++) { /* NaN in the padding: it must stay unread and unwritten */
                    const long long y = ((long long)i % plane) / pitch, x = (long long)i % plane % pitch;
                    const double r = (x < nx && y < ny) ? gpucheck_uniform() : NAN;
                    if (k->dbl) ((double *)h0)[i] = r;
                    else ((float *)h0)[i] = (float)r;
                }
                for (int ci = 0; ci < 5 && !check__failed_case; ci++) {
                    /* --light (one launch a step under the sanitizers): TT - 1, TT and TT + 1 steps */
                    if (light && (ci == 0 || ci == 4) && tt > 1) continue;
                    const int N = nsteps[ci];
                    if (N < 1 || (ci > 0 && N == nsteps[ci - 1])) continue;
                    void *rt = NULL, *ro = NULL;
                    ssam_stencil_args a;
                    memset(&a, 0, sizeof a);
                    a.nx = nx; a.ny = ny; a.nz = nz; a.pitch = pk ? pitch : 0; a.plane = pk ? plane : 0;
                    a.coef = hc; a.ncoef = k->ncoef;
                    a.boundary = periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
                    for (int i = 0; i < 4; i++) CUDA_OK(cudaMemset(b[i], 0xFF, n * es)); /* NaN */
                    CUDA_OK(cudaMemcpy(b[0], h0, n * es, cudaMemcpyHostToDevice));
                    CUDA_OK(cudaMemcpy(b[2], h0, n * es, cudaMemcpyHostToDevice));
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
                    compare(k, h0, ht, ho, c, nx, ny, nz, pitch, plane, periodic, N);
                    if ((long long)n * N <= 3000000LL && !check__failed_case)
                        against_ref(k, h0, ht, c, nx, ny, nz, pitch, plane, periodic, N);
                }
            }
            for (int i = 0; i < 4; i++) cudaFree(b[i]);
            free(h0); free(ht); free(ho);
        }
    }
    free(hc);
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam temporal 3D error codes are returned before any launch, and nothing is written; the tile layout");
    float c[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f}, *d = NULL;
    void *res = NULL;
    const int N = 32 * 16 * 8;
    const size_t bytes = 2 * (size_t)N * 4;
    CUDA_OK(cudaMalloc(&d, bytes));
    CUDA_OK(cudaMemset(d, 0, bytes));
    ssam_stencil_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + N; a.nx = 32; a.ny = 16; a.nz = 8; a.coef = c; a.ncoef = 7;
    a.boundary = SSAM_STENCIL_DIRICHLET;
    ssam_plan p;
    /* the valid calls first (they write) */
    a.steps = 4;
    CHECK(tf_s7_t4_launch(&a, 0) == 0, "valid arguments");
    const advance_fn t4_steps = tb_steps<tf_s7_t4_plan, tf_s7_t4_run, 0>;
    CHECK(t4_steps(&a, 0, &res, 0) == 0 && res == a.src, "0 steps: the state is src");
    CHECK(t4_steps(&a, 9, &res, 0) == 0 && res == a.dst, "9 steps: 3 passes, the state in dst");
    a.steps = 9;
    CHECK(tf_s7_t4_plan(&a, &p) == 0 && p.path == SSAM_PATH_TEMPORAL && p.steps_per_pass == 4 && p.passes == 3,
          "9 steps: passes of 4, 4 and 1");
    a.steps = 1;
    CUDA_OK(cudaDeviceSynchronize());
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
    REFUSED(tf_s7_t4, NULL, SSAM_ENULL, "NULL args");
    b = a; b.src = NULL; REFUSED(tf_s7_t4, &b, SSAM_ENULL, "NULL src");
    b = a; b.coef = NULL; REFUSED(tf_s7_t4, &b, SSAM_ENULL, "NULL coef");
    b = a; b.nz = 0; REFUSED(tf_s7_t4, &b, SSAM_ESIZE, "nz 0");
    b = a; b.ny = -1; REFUSED(tf_s7_t4, &b, SSAM_ESIZE, "ny -1");
    b = a; b.pitch = 31; REFUSED(tf_s7_t4, &b, SSAM_EPITCH, "pitch < nx");
    b = a; b.plane = 32 * 15; REFUSED(tf_s7_t4, &b, SSAM_EPITCH, "plane < pitch ny");
    b = a; b.boundary = ONCHIP_ZERO_OUTSIDE; REFUSED(tf_s7_t4, &b, SSAM_EBORDER, "zero-outside");
    b = a; b.ncoef = 5; REFUSED(tf_s7_t4, &b, SSAM_EFILTER, "ncoef 5 for 7 points");
    b = a; b.ncoef = 5; b.steps = 9; REFUSED(tf_s7_t4, &b, SSAM_EFILTER, "ncoef 5, 9 steps");
    b = a; b.dst = d + N - 32; REFUSED(tf_s7_t4, &b, SSAM_EOVERLAP, "src and dst overlap");
    b = a; b.update = ONCHIP_UPDATE_DAMPED; REFUSED(tf_s7_t4, &b, SSAM_EUPDATE, "a damped update");
    b = a; b.field[ONCHIP_FIELD_DAMP].p = d; REFUSED(tf_s7_t4, &b, SSAM_EUPDATE, "a coefficient field");
    b = a; b.steps = -1; REFUSED(tf_s7_t4, &b, SSAM_ESIZE, "steps < 0");
    b = a; b.path = SSAM_PATH_ONEPASS; REFUSED(tf_s7_t4, &b, SSAM_EFLAGS, "a fixed schedule: path one pass");
    b = a; b.ncoef = 5; REFUSED(tf_s7_zcol_t4, &b, SSAM_EFILTER, "z-column ncoef");
    b = a; b.boundary = 3; REFUSED(tf_b27_ring_t2, &b, SSAM_EBORDER, "ring boundary");
    b = a; b.ny = 1 << 30; b.nx = 1 << 30; b.pitch = 0; b.plane = 0; b.nz = 1 << 30;
    REFUSED(af_s7, &b, SSAM_ESIZE, "AUTO: cells past a long long");
#undef REFUSED
    CUDA_OK(cudaDeviceSynchronize());
    const long long changed = gpucheck_poison_changed(d, bytes);
    CHECK(changed == 0, "%lld bytes written by refused calls", changed);
    /* the layout: columns and rows a block stores, shared memory */
    CHECK(tf_s7_t4_STEPX == 120 && td_s7_t4_STEPX == 56 && tf_s7_t4_STEPY == 8 && tf_s7_t3_STEPY == 2 &&
          tf_s13_t2_STEPY == 8 && tf_s7_t4_SMEM == 4 * 4 * 18 * 512 && tf_user3d_a_t3_STEPY == 7,
          "tile layout: %d %d %d %d %d %d", tf_s7_t4_STEPX, td_s7_t4_STEPX, tf_s7_t4_STEPY, tf_s7_t3_STEPY,
          tf_s13_t2_STEPY, tf_user3d_a_t3_STEPY);
    cudaFree(d);
    case_end();
}

/* AUTO: the plan's path and reason, and the result against one pass per step and the reference */
static void test_auto(int light)
{
    if (!case_part("ssam temporal 3D AUTO: the planned path (temporal for 3d7pt, 3d13pt and 3d27pt, one pass for 3d125pt and "
                   "1 step), the same result as one pass per step, poisoned buffers, Dirichlet and periodic, the double "
                   "reference"))
        return;
    typedef int (*plan_fn)(const ssam_stencil_args *, ssam_plan *);
    /* steps: one pass (the state in dst), several; periodic sizes a multiple of V (bit for bit) */
    static const struct { int dbl, n, steps, want, periodic, npts; const int (*pts)[4]; plan_fn plan; advance_fn adv, one; } cases[] = {
        {0, 70, 9, SSAM_PATH_TEMPORAL, 0, 7, apts_s7, af_s7_plan, tb_steps<af_s7_plan, af_s7_run, 0>, tb_steps<af_s7_plan, af_s7_run, SSAM_PATH_ONEPASS>},
        {0, 48, 4, SSAM_PATH_TEMPORAL, 1, 7, apts_s7, af_s7_plan, tb_steps<af_s7_plan, af_s7_run, 0>, tb_steps<af_s7_plan, af_s7_run, SSAM_PATH_ONEPASS>},
        {1, 45, 5, SSAM_PATH_TEMPORAL, 0, 7, apts_s7, ad_s7_plan, tb_steps<ad_s7_plan, ad_s7_run, 0>, tb_steps<ad_s7_plan, ad_s7_run, SSAM_PATH_ONEPASS>},
        {1, 40, 9, SSAM_PATH_TEMPORAL, 1, 7, apts_s7, ad_s7_plan, tb_steps<ad_s7_plan, ad_s7_run, 0>, tb_steps<ad_s7_plan, ad_s7_run, SSAM_PATH_ONEPASS>},
        {0, 70, 1, SSAM_PATH_ONEPASS, 0, 7, apts_s7, af_s7_plan, tb_steps<af_s7_plan, af_s7_run, 0>, tb_steps<af_s7_plan, af_s7_run, SSAM_PATH_ONEPASS>},
        {0, 60, 5, SSAM_PATH_TEMPORAL, 0, 13, apts_s13, af_s13_plan, tb_steps<af_s13_plan, af_s13_run, 0>, tb_steps<af_s13_plan, af_s13_run, SSAM_PATH_ONEPASS>},
        {0, 48, 2, SSAM_PATH_TEMPORAL, 1, 13, apts_s13, af_s13_plan, tb_steps<af_s13_plan, af_s13_run, 0>, tb_steps<af_s13_plan, af_s13_run, SSAM_PATH_ONEPASS>},
        {1, 45, 3, SSAM_PATH_TEMPORAL, 0, 13, apts_s13, ad_s13_plan, tb_steps<ad_s13_plan, ad_s13_run, 0>, tb_steps<ad_s13_plan, ad_s13_run, SSAM_PATH_ONEPASS>},
        {1, 40, 5, SSAM_PATH_TEMPORAL, 1, 13, apts_s13, ad_s13_plan, tb_steps<ad_s13_plan, ad_s13_run, 0>, tb_steps<ad_s13_plan, ad_s13_run, SSAM_PATH_ONEPASS>},
        {0, 50, 7, SSAM_PATH_TEMPORAL, 0, 27, apts_b27, af_b27_plan, tb_steps<af_b27_plan, af_b27_run, 0>, tb_steps<af_b27_plan, af_b27_run, SSAM_PATH_ONEPASS>},
        {0, 40, 2, SSAM_PATH_TEMPORAL, 1, 27, apts_b27, af_b27_plan, tb_steps<af_b27_plan, af_b27_run, 0>, tb_steps<af_b27_plan, af_b27_run, SSAM_PATH_ONEPASS>},
        {1, 30, 3, SSAM_PATH_ONEPASS, 0, 125, apts_b125, ad_b125_plan, tb_steps<ad_b125_plan, ad_b125_run, 0>, tb_steps<ad_b125_plan, ad_b125_run, SSAM_PATH_ONEPASS>},
        {1, 24, 2, SSAM_PATH_ONEPASS, 1, 125, apts_b125, ad_b125_plan, tb_steps<ad_b125_plan, ad_b125_run, 0>, tb_steps<ad_b125_plan, ad_b125_run, SSAM_PATH_ONEPASS>}};
    double cd[125];
    float cf[125];
    CHECK(af_s7_tb_TT == 4 && ad_s7_tb_TT == 4 && af_s13_tb_TT == 2 && ad_s13_tb_TT == 2 && ad_b125_tb_TT == 1 && af_b27_tb_TT == 2,
          "TT by the rule");
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases && !check__failed_case; ci++) {
        /* --light: half the sizes; the first case a pass and one step (5), not two and one (9) */
        const int dbl = cases[ci].dbl, n1 = light ? cases[ci].n / 2 : cases[ci].n, N = light && ci == 0 ? 5 : cases[ci].steps;
        const int npts = cases[ci].npts, periodic = cases[ci].periodic;
        const size_t n = (size_t)n1 * n1 * n1, es = dbl ? 8 : 4;
        const char *bnd = periodic ? "periodic" : "Dirichlet";
        double sum = 0; /* positive coefficients summing to 1 */
        for (int i = 0; i < npts; i++) { cd[i] = 0.2 + 0.5 * (gpucheck_uniform() + 1); sum += cd[i]; }
        for (int i = 0; i < npts; i++) { cd[i] /= sum; cf[i] = (float)cd[i]; }
        void *b[4] = {NULL, NULL, NULL, NULL}, *h0 = malloc(n * es), *h1 = malloc(n * es), *h2 = malloc(n * es);
        void *r1 = NULL, *r2 = NULL;
        double *u0 = (double *)malloc(n * 8);
        for (size_t i = 0; i < n; i++) {
            if (dbl) ((double *)h0)[i] = gpucheck_uniform();
            else ((float *)h0)[i] = gpucheck_uniform();
            u0[i] = get(h0, i, dbl);
        }
        for (int i = 0; i < 4; i++) {
            CUDA_OK(cudaMalloc(&b[i], n * es));
            CUDA_OK(cudaMemset(b[i], 0xFF, n * es)); /* NaN: the destinations, and the sources beside the start */
        }
        CUDA_OK(cudaMemcpy(b[0], h0, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(b[2], h0, n * es, cudaMemcpyHostToDevice));
        ssam_stencil_args a;
        ssam_plan p;
        memset(&p, 0, sizeof p);
        memset(&a, 0, sizeof a);
        a.nx = a.ny = a.nz = n1; a.coef = dbl ? (const void *)cd : (const void *)cf; a.ncoef = npts;
        a.boundary = periodic ? SSAM_STENCIL_PERIODIC : SSAM_STENCIL_DIRICHLET;
        a.src = b[0]; a.dst = b[1];
        a.steps = N;
        CHECK(cases[ci].plan(&a, &p) == 0, "plan");
        CHECK(p.path == cases[ci].want && p.why && strlen(p.why) > 10, "%d^3, %d points, %d steps: path %d (%s), %d expected",
              n1, npts, N, p.path, p.why, cases[ci].want);
        CHECK(cases[ci].adv(&a, N, &r1, 0) == 0 && (r1 == b[0] || r1 == b[1]), "advance");
        a.src = b[2]; a.dst = b[3];
        CHECK(cases[ci].one(&a, N, &r2, 0) == 0 && (r2 == b[2] || r2 == b[3]), "one-pass advance");
        CUDA_OK(cudaDeviceSynchronize());
        if (!check__failed_case) {
            CUDA_OK(cudaMemcpy(h1, r1, n * es, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(h2, r2, n * es, cudaMemcpyDeviceToHost));
            long long unwritten = 0;
            for (size_t i = 0; i < n; i++) unwritten += !isfinite(get(h1, i, dbl));
            CHECK(unwritten == 0, "%d^3 %s, %d points, %d steps: %lld cells unwritten", n1, bnd, npts, N, unwritten);
            CHECK(memcmp(h1, h2, n * es) == 0, "%d^3 %s, %d points, %d steps: AUTO differs from one pass per step", n1, bnd,
                  npts, N);
            CHECK(memcmp(h1, h0, n * es) != 0, "the state did not move");
        }
        if (!check__failed_case) { /* every cell against N steps in double */
            double c[125], *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8), *sc = (double *)malloc(2 * n * 8);
            for (int i = 0; i < npts; i++) c[i] = dbl ? cd[i] : (double)cf[i]; /* as the GPU sees them */
            const long long pl = (long long)n1 * n1;
            bs_steps(cases[ci].pts, npts, c, u0, N, ref, mag, sc, n, n1, n1, n1, n1, pl, periodic);
            for (size_t i = 0; i < n; i++) sc[i] = get(h1, i, dbl);
            int e[6], bx = 0, by = 0, bz = 0;
            ref_stencil_extents(cases[ci].pts, npts, e);
            const double beta = (dbl ? 4.0 * 0x1p-53 : 2.0 * 0x1p-24) * N * (npts + 1);
            const bs_res br = bs_check(sc, ref, mag, beta, NULL, e, periodic, n1, n1, n1, n1, pl);
            if (br.first >= 0) bs_cell(br.first, n1, pl, &bx, &by, &bz);
            CHECK(br.bad == 0 && br.cells == (long long)n,
                  "%d^3 %s, %d points, %d steps: %lld of %lld cells outside their bound against the double reference (%lld "
                  "Dirichlet cells changed); first (%d, %d, %d): %.17g, reference %.17g, allowed [%.17g, %.17g]", n1, bnd,
                  npts, N, br.bad, br.cells, br.kept_bad, bx, by, bz, br.g, br.ref, br.lo, br.hi);
            worst_ratio = fmax(worst_ratio, br.worst);
            free(ref); free(mag); free(sc);
        }
        for (int i = 0; i < 4; i++) cudaFree(b[i]);
        free(h0); free(h1); free(h2); free(u0);
    }
    { /* 3d125pt: no temporal kernel, args.path SSAM_PATH_TEMPORAL refused */
        ssam_stencil_args a;
        ssam_plan p;
        double c1[125] = {1};
        memset(&a, 0, sizeof a);
        a.nx = a.ny = a.nz = 8; a.coef = c1; a.ncoef = 125; a.steps = 4; a.path = SSAM_PATH_TEMPORAL;
        a.src = (void *)((uintptr_t)1 << 44); /* name_plan reads no buffer: two addresses far apart */
        a.dst = (void *)((uintptr_t)1 << 45);
        const int rc = ad_b125_plan(&a, &p);
        CHECK(rc == SSAM_EFLAGS && p.passes == 0 && p.why && strstr(p.why, "no temporal kernel") &&
                  onchip_plan_head(&p).why == p.why, "3d125pt: no temporal kernel (rc %d)", rc);
    }
    case_end();
}

/* usage: test_ssam_temporal3d [--light] [--only SUBSTRING] [--part K/N]   (--light: small sizes, the
 * padded pitch, TT - 1 to TT + 1 steps, for compute-sanitizer; --only: AUTO ("auto") and the kernels
 * whose name contains SUBSTRING, e.g. "ring", the others skipped; --part: the K-th of AUTO and the
 * kernels and every N-th after it: racecheck in parts side by side) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const char *only = gpucheck_only(argc, argv);
    static const kern kernels[] = {LIST(ENT)};
    int ran = 0;
    /* the errors, AUTO, one case a kernel (in every mode), and the --only case */
    check_plan(2 + (int)(sizeof kernels / sizeof *kernels) + (only ? 1 : 0));
    test_errors();
    if (!only || strstr("auto", only)) test_auto(light), ran++;
    else check_skip("ssam temporal 3D AUTO", "not named by --only");
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!only || strstr(kernels[i].name, only)) run_kernel(&kernels[i], light), ran++;
        else check_skip(kernels[i].name, "not named by --only");
    if (only) { /* an --only that names nothing compares nothing: not a pass */
        case_begin("ssam temporal 3D --only: the cases asked for ran");
        CHECK(ran > 0, "--only %s: %d cases ran", only, ran);
        case_end();
    }
    printf("periodic widths not a multiple of V: largest difference from one-pass = %.3g of the bound\n", inexact_max);
    printf("against the double reference: largest |out - ref| = %.3g of the per-cell bound\n", worst_ratio);
    return check_exit();
}
