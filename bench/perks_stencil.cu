/* bench/perks_stencil.cu -- persistent stencils (perks/stencil.cuh) against one-pass kernels, same run.
 * For each 2D catalogue stencil, fp32 and fp64, on two domains:
 *   F  the largest fully cached domain: width 3072, the tallest height whose plan caches 100%
 *      (mode mix; the paper's 'F')
 *   P  8192 x 8192, partially cached (the paper's 'P')
 * it times
 *   step    the generator's own non-persistent step (shared-memory window), one launch per step
 *           (name_launch with path PERKS_KERNEL_STEPS)
 *   ssam    ssam/stencil.cuh's one-pass kernel (SSAM_STENCIL2D_DEFINE), one launch per step
 *           (when that header exists; -DONCHIP_NO_SSAM_PEER leaves it out)
 *   none, smem, reg, mix   the streaming persistent kernel (PERKS_KERNEL_STREAM) with each cache
 *           mode (256 threads, 1 block per SM, the register depth below)
 *   none2, smem2  fp32: the same generator without register cache, 2 blocks per SM (r6: 1)
 *           (perks_stencil2d_policy<256, RC, 0, 2>): twice the warps to hide latency, smem cache only
 *   res, res4, res1   the resident kernel (PERKS_KERNEL_RESIDENT: every tile in shared memory, one
 *           pass per step), 256 threads, blocks per SM by the plan (2; fp32 over 9 points: 3) / 4
 *           (where the build allows it) / 1; only where the tiles fit (F)
 *   hyb, hyb4, hyb0, hyb16   the hybrid kernel (PERKS_KERNEL_HYBRID: the first rows of each tile
 *           resident in shared memory, the rest streamed from device memory every step, loads two
 *           chunks ahead), 256 threads: blocks per SM by the plan (2; fp64 r >= 4: 1) / forced 4
 *           (where the build allows: fp32 up to 9 points) / nothing cached (mode none, every row
 *           streamed) / at most 16 rows a tile cached (the shared memory left to L1); hyb0, hyb16 on P
 *   auto    name_launch with PERKS_KERNEL_AUTO and mode smem: resident where it fits, else the
 *           hybrid kernel or, where PERKS_HYB_WINS says it loses, the one-pass steps (then it is
 *           not counted as persistent)
 * F is the tallest height (width 3072) that the resident kernel holds with the plan's blocks per SM;
 * M (only step, ssam, hyb, hyb4, auto) is 3072 x 1.25 F: just too large for the resident kernel,
 * where the hybrid kernel caches about half of it.
 * and prints GCells/s (cells x steps / time), % cached, and the speedup over the best one-pass
 * kernel, beside the one-pass floor: 2 x sizeof(T) bytes per cell and step over 4.27 TB/s.
 * Also the cost of one grid barrier (PERKS_GRID_SYNC) at 1 and at the most blocks per SM.
 * Time: median of --reps runs (each `steps` steps) after one warm-up, CUDA events.
 * 3D (--section 3d): the 3D catalogue (3d7pt, 3d13pt, 3d27pt, 3d125pt, poisson), fp32 and fp64, on
 *   F  256 x 256 x D, D the deepest domain whose plan (default blocks per SM) caches every plane
 *   P  512 x 512 x 512 (fp32 512 MB: a few % cached)
 * step = the generator's own non-persistent step (perks/stencil3d.cuh, path PERKS_KERNEL_STEPS), ssam = ssam's
 * one-pass SSAM_STENCIL3D_DEFINE (bench/ssam_stencil.cu's configurations), none = persistent, nothing
 * cached, smem = persistent with the shared-memory cache (blocks per SM by the plan), smem1 / smem2
 * = forced 1 / 2 blocks per SM (where the build allows); 32 x 16 threads a block.
 * --dom: the 2D domains to run, any of the letters F, P, M (default all)
 * usage: perks [--json PATH] [--reps N] [--light] [--only NAME] [--section all|sync|2d|3d] [--dom FPM] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perks/stencil.cuh>
#include <perks/stencil3d.cuh>

#if !defined(ONCHIP_NO_SSAM_PEER) && defined(__has_include)
#if __has_include(<ssam/stencil.cuh>)
#include <ssam/stencil.cuh>
#define HAVE_SSAM 1
#endif
#endif

#include "gpucheck.h"

#define BW 4.27e12

/* (name, perks shape, ssam shape, register depth fp32, fp64, rows a chunk and blocks per SM of the
 * build without register cache (star2d_r6 spills at 2 blocks per SM: 1)): 256 threads, 8 rows a chunk;
 * depths: multiples of 8 that compile with 0 spills on sm_80 and sm_90 (make test checks) */
#define STENCILS(X)                                                                                 \
    X(star2d_r1, ONCHIP_SHAPE_STAR2D_R1, ONCHIP_SHAPE_STAR2D_R1, 64, 32, 8, 2)                               \
    X(star2d_r2, ONCHIP_SHAPE_STAR2D_R2, ONCHIP_SHAPE_STAR2D_R2, 56, 24, 8, 2)                               \
    X(star2d_r3, ONCHIP_SHAPE_STAR2D_R3, ONCHIP_SHAPE_STAR2D_R3, 48, 24, 8, 2)                               \
    X(star2d_r4, ONCHIP_SHAPE_STAR2D_R4, ONCHIP_SHAPE_STAR2D_R4, 40, 16, 4, 2)                               \
    X(star2d_r5, ONCHIP_SHAPE_STAR2D_R5, ONCHIP_SHAPE_STAR2D_R5, 32, 0, 4, 2)                               \
    X(star2d_r6, ONCHIP_SHAPE_STAR2D_R6, ONCHIP_SHAPE_STAR2D_R6, 16, 0, 4, 1)                               \
    X(box2d_r1, ONCHIP_SHAPE_BOX2D_R1, ONCHIP_SHAPE_BOX2D_R1, 64, 32, 8, 2)                                  \
    X(box2d_r2, ONCHIP_SHAPE_BOX2D_R2, ONCHIP_SHAPE_BOX2D_R2, 48, 16, 8, 2)

#ifdef HAVE_SSAM
#define DEF_SSAM(n, SS)                                                                             \
    SSAM_STENCIL2D_DEFINE(ss_f32_##n, float, SS, ssam_stencil_policy<4>)                            \
    SSAM_STENCIL2D_DEFINE(ss_f64_##n, double, SS, ssam_stencil_policy<2>)
#define SSAM_FN(n, T) ss_##T##_##n##_launch
typedef int (*ssam_fn)(const ssam_stencil_args *, cudaStream_t);
#else
#define DEF_SSAM(n, SS)
#define SSAM_FN(n, T) NULL
typedef void *ssam_fn;
#endif

#define DEF(n, PS, SS, D32, D64, RC2, MB2)                                                                    \
    PERKS_STENCIL2D_DEFINE(pk_f32_##n, float, PS, perks_stencil2d_policy<256, 8, D32>)              \
    PERKS_STENCIL2D_DEFINE(pk2_f32_##n, float, PS, perks_stencil2d_policy<256, RC2, 0, MB2>)            \
    PERKS_STENCIL2D_DEFINE(pk_f64_##n, double, PS, perks_stencil2d_policy<256, 8, D64>)             \
    DEF_SSAM(n, SS)
STENCILS(DEF)

typedef int (*launch_fn)(const perks_stencil2d_args *, cudaStream_t);
typedef int (*plan_fn)(const perks_stencil2d_args *, perks_plan *);
typedef struct entry {
    const char *name;
    int dbl, ncoef, depth;
    launch_fn launch;  /* all paths: args.path picks (PERKS_KERNEL_STEPS: the one-launch-a-step baseline) */
    plan_fn plan;
    ssam_fn ssam;
    launch_fn launch2; /* the 2-blocks-per-SM build without register cache (fp32), or NULL */
    plan_fn plan2;
} entry;
#define ENT(n, PS, SS, D32, D64, RC2, MB2)                                                                    \
    {#n, 0, pk_f32_##n##_NCOEF, D32, pk_f32_##n##_launch, pk_f32_##n##_plan, SSAM_FN(n, f32),              \
     pk2_f32_##n##_launch, pk2_f32_##n##_plan},                                                        \
    {#n, 1, pk_f64_##n##_NCOEF, D64, pk_f64_##n##_launch, pk_f64_##n##_plan, SSAM_FN(n, f64), NULL, NULL},
static const entry entries[] = {STENCILS(ENT)};

/* ---- 3D: (name, perks shape, ssam shape, RC fp32, RC fp64, ssam P fp32, P fp64, B fp64, MINB fp64) ---- */
#define STENCILS3D(X)                                                                                  \
    X(star3d_r1, ONCHIP_SHAPE_3D7PT, ONCHIP_SHAPE_STAR3D_R1, 4, 4, 4, 4, 128, 1)                           \
    X(star3d_r2, ONCHIP_SHAPE_3D13PT, ONCHIP_SHAPE_STAR3D_R2, 4, 4, 4, 2, 128, 1)                          \
    X(box3d_r1, ONCHIP_SHAPE_3D27PT, ONCHIP_SHAPE_BOX3D_R1, 4, 4, 4, 2, 128, 1)                            \
    X(box3d_r2, ONCHIP_SHAPE_3D125PT, ONCHIP_SHAPE_BOX3D_R2, 1, 1, 2, 1, 64, 6)                            \
    X(poisson, ONCHIP_SHAPE_POISSON, ONCHIP_SHAPE_POISSON3D_19, 4, 4, 4, 2, 128, 1)
#ifdef HAVE_SSAM
#define DEF_SSAM3(n, SS, PF, PD, BD, MD)                                                               \
    SSAM_STENCIL3D_DEFINE(ss3_f32_##n, float, SS, ssam_stencil_policy<PF>)                              \
    SSAM_STENCIL3D_DEFINE(ss3_f64_##n, double, SS, ssam_stencil_policy<PD, BD, MD>)
#define SSAM3_FN(n, T) ss3_##T##_##n##_launch
#else
#define DEF_SSAM3(n, SS, PF, PD, BD, MD)
#define SSAM3_FN(n, T) NULL
#endif
#define DEF3(n, PS, SS, RC32, RC64, PF, PD, BD, MD)                                                    \
    PERKS_STENCIL3D_DEFINE(p3_f32_##n, float, PS, perks_stencil3d_policy<32, 16, RC32>)                \
    PERKS_STENCIL3D_DEFINE(p3_f64_##n, double, PS, perks_stencil3d_policy<32, 16, RC64>)               \
    DEF_SSAM3(n, SS, PF, PD, BD, MD)
STENCILS3D(DEF3)
typedef int (*launch3_fn)(const perks_stencil3d_args *, cudaStream_t);
typedef int (*plan3_fn)(const perks_stencil3d_args *, perks_plan *);
typedef struct entry3 {
    const char *name;
    int dbl, npts, ncoef;
    launch3_fn launch; /* both paths: args.path picks (PERKS_KERNEL_STEPS: one launch a step) */
    plan3_fn plan;
    ssam_fn ssam;
} entry3;
#define ENT3(n, PS, SS, RC32, RC64, PF, PD, BD, MD)                                                    \
    {#n, 0, ONCHIP_SHAPE3D_NPTS(PS), p3_f32_##n##_NCOEF, p3_f32_##n##_launch, p3_f32_##n##_plan, SSAM3_FN(n, f32)}, \
    {#n, 1, ONCHIP_SHAPE3D_NPTS(PS), p3_f64_##n##_NCOEF, p3_f64_##n##_launch, p3_f64_##n##_plan, SSAM3_FN(n, f64)},
static const entry3 entries3[] = {STENCILS3D(ENT3)};

/* the barrier alone: n grid syncs */
__global__ void sync_kernel(int n)
{
    for (int i = 0; i < n; i++) PERKS_GRID_SYNC();
}

static int reps = 7;
#define DOMN(d) ((d) == 1 ? "P" : (d) == 2 ? "M" : "F")
static FILE *json;
static int json_rows;

typedef struct run_ctx {
    const entry *e;
    perks_stencil2d_args a;
#ifdef HAVE_SSAM
    ssam_stencil_args s;
#endif
    int impl; /* 0 step, 1 ssam, 2..5 persistent with cache mode impl-2, 6..7 the 2-blocks-per-SM build
                 with mode none / smem */
} run_ctx;

/* per impl: cache mode, path, blocks per SM (the streaming builds: as the args say) */
static const int impl_cache[] = {0, 0, PERKS_CACHE_NONE, PERKS_CACHE_SMEM, PERKS_CACHE_REG, PERKS_CACHE_MIX,
                                 PERKS_CACHE_NONE, PERKS_CACHE_SMEM, PERKS_CACHE_SMEM, PERKS_CACHE_SMEM, PERKS_CACHE_SMEM,
                                 PERKS_CACHE_SMEM, PERKS_CACHE_SMEM, PERKS_CACHE_NONE, PERKS_CACHE_SMEM, PERKS_CACHE_SMEM};
static const int impl_bps[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 0, 4, 0, 0, 0};
#define NIMPL 16
#define IMPL_AUTO 14
static void impl_args(perks_stencil2d_args *a, int impl)
{
    a->cache = impl_cache[impl];
    a->cache_rows_max = impl == 15 ? 16 : 0;
    a->path = impl == 0 ? PERKS_KERNEL_STEPS : impl == IMPL_AUTO ? PERKS_KERNEL_AUTO : impl >= 11 ? PERKS_KERNEL_HYBRID
              : impl >= 8 ? PERKS_KERNEL_RESIDENT : PERKS_KERNEL_STREAM;
    a->blocks_per_sm = impl_bps[impl];
}

static void run_once(run_ctx *c)
{
    int rc = 0;
    if (c->impl == 0) {
        impl_args(&c->a, 0);
        rc = c->e->launch(&c->a, 0);
    }
#ifdef HAVE_SSAM
    else if (c->impl == 1) {
        /* steps launches, ping-pong, as the others (name_launch runs s.steps) */
        c->s.src = c->a.src;
        c->s.dst = c->a.dst;
        c->s.steps = c->a.steps;
        rc = c->e->ssam(&c->s, 0);
    }
#endif
    else if (c->impl == 6 || c->impl == 7) {
        impl_args(&c->a, c->impl);
        rc = c->e->launch2(&c->a, 0);
    } else {
        impl_args(&c->a, c->impl);
        rc = c->e->launch(&c->a, 0);
    }
    if (rc) { fprintf(stderr, "%s impl %d: status %d (%s)\n", c->e->name, c->impl, rc, perks_strerror(rc)); exit(2); }
}

static void run_once_set(void *p, int set)
{
    (void)set;
    run_once((run_ctx *)p);
}
/* median ms of reps runs after one warm-up */
static double time_ms(run_ctx *c) { return gpucheck_time_ms(run_once_set, c, 1, reps); }

/* the tallest height (width W) that the resident kernel holds (the plan's blocks per SM); the plans
 * on buffers da, db of cells cells each, at most as many rows as they hold */
static int full_height(const entry *e, int W, void *da, void *db, size_t cells, const void *coef)
{
    perks_stencil2d_args a;
    perks_plan p;
    int lo = 1, hi = cells / W < (1 << 15) ? (int)(cells / W) : 1 << 15;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.coef = coef; a.ncoef = e->ncoef;
    a.nx = W; a.steps = 1;
    impl_args(&a, 8);
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        a.ny = mid;
        if (e->plan(&a, &p) == 0 && p.path == PERKS_PLAN_RESIDENT) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static const char *impl_name[] = {"step", "ssam", "none", "smem", "reg", "mix", "none2", "smem2", "res", "res4", "res1",
                                  "hyb", "hyb4", "hyb0", "auto", "hyb16"};

/* ---- 3D ---------------------------------------------------------------------------------------- */
typedef struct run3_ctx {
    const entry3 *e;
    perks_stencil3d_args a;
#ifdef HAVE_SSAM
    ssam_stencil_args s;
#endif
    int impl; /* 0 step, 1 ssam, 2 none, 3 smem (plan's blocks per SM), 4 smem1, 5 smem2 */
} run3_ctx;
static const char *impl3_name[] = {"step", "ssam", "none", "smem", "smem1", "smem2"};
#define NIMPL3 6
static void impl3_args(perks_stencil3d_args *a, int impl)
{
    a->cache = impl == 2 ? PERKS_CACHE_NONE : PERKS_CACHE_SMEM;
    a->blocks_per_sm = impl == 4 ? 1 : impl == 5 ? 2 : 0;
    a->path = impl == 0 ? PERKS_KERNEL_STEPS : PERKS_KERNEL_AUTO;
}
static void run3_once(void *ctx, int set)
{
    run3_ctx *c = (run3_ctx *)ctx;
    int rc = 0;
    (void)set;
    if (c->impl == 0) {
        impl3_args(&c->a, 0);
        rc = c->e->launch(&c->a, 0);
    }
#ifdef HAVE_SSAM
    else if (c->impl == 1) {
        /* steps launches, ping-pong, as the others (name_launch runs s.steps) */
        c->s.src = c->a.src;
        c->s.dst = c->a.dst;
        c->s.steps = c->a.steps;
        rc = c->e->ssam(&c->s, 0);
    }
#endif
    else {
        impl3_args(&c->a, c->impl);
        rc = c->e->launch(&c->a, 0);
    }
    if (rc) { fprintf(stderr, "%s impl %s: status %d (%s)\n", c->e->name, impl3_name[c->impl], rc, perks_strerror(rc)); exit(2); }
}
/* the deepest D (W x H fixed) whose default plan caches every plane; the plans on buffers da, db of
 * cells cells each, at most as many planes as they hold */
static int full_depth(const entry3 *e, int W, int H, void *da, void *db, size_t cells, const void *coef)
{
    perks_stencil3d_args a;
    perks_plan p;
    const size_t most = cells / ((size_t)W * H);
    int lo = 1, hi = most < 4096 ? (int)most : 4096;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.coef = coef; a.ncoef = e->ncoef;
    a.nx = W; a.ny = H; a.steps = 1; a.cache = PERKS_CACHE_SMEM;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        a.nz = mid;
        if (e->plan(&a, &p) == 0 && p.path == PERKS_PLAN_RESIDENT) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}
static void bench3d(int light, const char *only)
{
    const int PN = light ? 256 : 512, FW = 256, FH = 256;
    size_t maxn = (size_t)PN * PN * PN;
    void *da, *db, *work = NULL;
    size_t work_bytes = 0;
    CUDA_DIE(cudaMalloc(&da, maxn * 8));
    CUDA_DIE(cudaMalloc(&db, maxn * 8));
    /* random input in [-1, 1), uploaded as the next entry's type (and again when the type changes) */
    float *hf = (float *)malloc(maxn * 4);
    double *hd = (double *)malloc(maxn * 8);
    if (!hf || !hd) { fprintf(stderr, "bench3d: out of host memory\n"); exit(2); }
    gpucheck_seed(778);
    for (size_t i = 0; i < maxn; i++) hd[i] = hf[i] = gpucheck_uniform();
    int loaded = -1;
    printf("%-10s %-4s %-2s %-13s %5s %-5s %9s %9s %7s %7s %8s\n", "stencil", "type", "", "domain", "steps", "impl", "ms",
           "GCells/s", "cached", "vs1pass", "floor1p");
    double gl[2][2] = {{0, 0}, {0, 0}};
    int gn[2][2] = {{0, 0}, {0, 0}};
    const int ne = (int)(sizeof entries3 / sizeof entries3[0]);
    for (int ei = 0; ei < ne; ei++) {
        const entry3 *e = &entries3[ei];
        if (only && strncmp(only, e->name, strlen(only))) continue;
        if (light && e->dbl) continue;
        double w[128];
        float wf[128];
        for (int i = 0; i < e->npts; i++) { w[i] = 1.0 / e->npts; wf[i] = (float)w[i]; }
        if (loaded != e->dbl) {
            CUDA_DIE(cudaMemcpy(da, e->dbl ? (const void *)hd : (const void *)hf, maxn * (e->dbl ? 8 : 4), cudaMemcpyHostToDevice));
            CUDA_DIE(cudaMemcpy(db, e->dbl ? (const void *)hd : (const void *)hf, maxn * (e->dbl ? 8 : 4), cudaMemcpyHostToDevice));
            loaded = e->dbl;
        }
        for (int dom = 0; dom < 2; dom++) {
            int W = dom ? PN : FW, H = dom ? PN : FH,
                D = dom ? PN : full_depth(e, FW, FH, da, db, maxn, e->dbl ? (const void *)w : (const void *)wf);
            int steps = dom ? (light ? 3 : 10) : (light ? 20 : 100);
            double cells = (double)W * H * D * steps, es = e->dbl ? 8 : 4;
            double floor_gc = BW / (2 * es) / 1e9;
            run3_ctx c;
            memset(&c, 0, sizeof c);
            c.e = e;
            c.a.src = da; c.a.dst = db; c.a.nx = W; c.a.ny = H; c.a.nz = D; c.a.steps = steps;
            c.a.coef = e->dbl ? (const void *)w : (const void *)wf; c.a.ncoef = e->ncoef;
            {
                perks_plan p;
                size_t need = 0;
                for (int m = 2; m < NIMPL3; m++) {
                    impl3_args(&c.a, m);
                    if (e->plan(&c.a, &p) == 0 && p.workspace_bytes > need) need = p.workspace_bytes;
                }
                if (need > work_bytes) {
                    if (work) CUDA_DIE(cudaFree(work));
                    CUDA_DIE(cudaMalloc(&work, need));
                    work_bytes = need;
                }
                c.a.work = work;
                c.a.work_bytes = work_bytes;
            }
#ifdef HAVE_SSAM
            memset(&c.s, 0, sizeof c.s);
            c.s.nx = W; c.s.ny = H; c.s.nz = D; c.s.coef = c.a.coef; c.s.ncoef = e->npts;
            c.s.boundary = SSAM_STENCIL_DIRICHLET;
#endif
            double best1 = 0, bestp = 0;
            for (int impl = 0; impl < NIMPL3; impl++) {
                if (impl == 1 && !e->ssam) continue;
                c.impl = impl;
                double frac = 0;
                int bps = 0;
                if (impl >= 2) {
                    perks_plan p;
                    impl3_args(&c.a, impl);
                    if (e->plan(&c.a, &p)) continue;
                    frac = p.cached_fraction;
                    bps = p.blocks_per_sm;
                }
                double ms = gpucheck_time_ms(run3_once, &c, 1, reps);
                double gc = cells / ms / 1e6;
                if (impl < 2 && gc > best1) best1 = gc;
                if (impl >= 2 && gc > bestp) bestp = gc;
                printf("%-10s %-4s %-2s %4dx%3dx%-4d %5d %-5s %9.3f %9.1f %6.1f%% %7.2f %8.1f\n", e->name, e->dbl ? "fp64" : "fp32",
                       DOMN(dom), W, H, D, steps, impl3_name[impl], ms, gc, 100 * frac, best1 > 0 ? gc / best1 : 0, floor_gc);
                fflush(stdout);
                if (json)
                    fprintf(json,
                            "%s  {\"kind\": \"stencil3d\", \"stencil\": \"%s\", \"type\": \"%s\", \"domain\": \"%s\", "
                            "\"width\": %d, \"height\": %d, \"depth\": %d, \"steps\": %d, \"impl\": \"%s\", \"ms\": %.5f, "
                            "\"gcells_s\": %.3f, \"cached\": %.4f, \"blocks_per_sm\": %d, \"floor_onepass_gcells_s\": %.2f}",
                            json_rows++ ? ",\n" : "", e->name, e->dbl ? "fp64" : "fp32", DOMN(dom), W, H, D, steps,
                            impl3_name[impl], ms, gc, frac, bps, floor_gc);
            }
            printf("%-10s %-4s %-2s best persistent / best one-pass: %.2fx\n", e->name, e->dbl ? "fp64" : "fp32",
                   DOMN(dom), bestp / best1);
            if (!strchr(e->name, '/')) {
                gl[e->dbl][dom] += log(bestp / best1);
                gn[e->dbl][dom]++;
            }
        }
    }
    for (int t = 0; t < 2; t++)
        if (gn[t][0])
            printf("geomean speedup over one-pass, %s 3D: F %.2fx, P %.2fx (%d stencils)\n", t ? "fp64" : "fp32",
                   exp(gl[t][0] / gn[t][0]), exp(gl[t][1] / gn[t][1]), gn[t][0]);
    if (gn[0][0] + gn[1][0])
        printf("geomean speedup over one-pass, 3D all: F %.2fx, P %.2fx\n",
               exp((gl[0][0] + gl[1][0]) / (gn[0][0] + gn[1][0])), exp((gl[0][1] + gl[1][1]) / (gn[0][1] + gn[1][1])));
    free(hf);
    free(hd);
    cudaFree(da);
    cudaFree(db);
    if (work) cudaFree(work);
}

int main(int argc, char **argv)
{
    int light = 0;
    const char *jpath = NULL, *only = NULL, *section = "all", *doms = "FPM";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--light")) light = 1;
        else if (!strcmp(argv[i], "--section") && i + 1 < argc) section = argv[++i];
        else if (!strcmp(argv[i], "--dom") && i + 1 < argc) doms = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--light] [--only NAME] [--section all|sync|2d|3d] [--dom FPM]\n", argv[0]);
            return 2;
        }
    }
    const int sec_sync = !strcmp(section, "all") || !strcmp(section, "sync");
    const int sec_2d = !strcmp(section, "all") || !strcmp(section, "2d");
    const int sec_3d = !strcmp(section, "all") || !strcmp(section, "3d");
    if (!sec_sync && !sec_2d && !sec_3d) { fprintf(stderr, "bad --section %s\n", section); return 2; }
    if (reps < 1) { fprintf(stderr, "bad --reps\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    printf("perks bench on %s, median of %d; peers: step%s\n", pr.name, reps,
#ifdef HAVE_SSAM
           " ssam"
#else
           " (no ssam)"
#endif
    );
    if (jpath) {
        json = gpucheck_json_open(jpath, "perks", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }

    /* ---- grid barrier cost ---- */
    if (sec_sync) {
        int bps = 0, sms = 0;
        CUDA_DIE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, sync_kernel, 256, 0));
        sms = pr.multiProcessorCount;
        int conf[2] = {1, bps};
        for (int k = 0; k < 2; k++) {
            double ms[2];
            for (int j = 0; j < 2; j++) {
                int n = j ? 2000 : 0;
                void *args[] = {&n};
                cudaEvent_t e0, e1;
                double t[16];
                CUDA_DIE(cudaEventCreate(&e0));
                CUDA_DIE(cudaEventCreate(&e1));
                for (int i = -1; i < 9; i++) {
                    CUDA_DIE(cudaEventRecord(e0));
                    int rc = perks_launch((const void *)sync_kernel, dim3(conf[k] * sms), dim3(256), args, 0, 0);
                    if (rc) { fprintf(stderr, "sync: %s\n", perks_strerror(rc)); return 2; }
                    CUDA_DIE(cudaEventRecord(e1));
                    CUDA_DIE(cudaEventSynchronize(e1));
                    float f;
                    CUDA_DIE(cudaEventElapsedTime(&f, e0, e1));
                    if (i >= 0) t[i] = f;
                }
                ms[j] = gpucheck_median(t, 9);
                cudaEventDestroy(e0);
                cudaEventDestroy(e1);
            }
            double us = (ms[1] - ms[0]) / 2000 * 1e3;
            printf("grid.sync: %d blocks of 256 (%d per SM): %.2f us per barrier\n", conf[k] * sms, conf[k], us);
            if (json)
                fprintf(json, "%s  {\"kind\": \"grid_sync\", \"blocks_per_sm\": %d, \"blocks\": %d, \"us\": %.3f}",
                        json_rows++ ? ",\n" : "", conf[k], conf[k] * sms, us);
        }
    }

    /* ---- 2D stencils ---- */
    if (sec_2d) {
    const int PS = light ? 4096 : 8192;
    size_t maxn = (size_t)PS * PS;
    void *da, *db, *work = NULL;
    size_t work_bytes = 0;
    CUDA_DIE(cudaMalloc(&da, maxn * 8));
    CUDA_DIE(cudaMalloc(&db, maxn * 8));
    {
        double *h = (double *)malloc(maxn * 8);
        gpucheck_seed(777);
        for (size_t i = 0; i < maxn; i++) h[i] = gpucheck_uniform();
        CUDA_DIE(cudaMemcpy(da, h, maxn * 8, cudaMemcpyHostToDevice));
        free(h);
    }
    printf("%-10s %-4s %-2s %-11s %5s %-5s %9s %9s %7s %7s %8s\n", "stencil", "type", "", "domain", "steps", "impl", "ms",
           "GCells/s", "cached", "vs1pass", "floor1p");
    double gm_f_log = 0, gm_p_log = 0;
    int gm_n = 0;
    const int ne = (int)(sizeof entries / sizeof entries[0]);
    for (int ei = 0; ei < ne; ei++) {
        const entry *e = &entries[ei];
        if (only && strcmp(only, e->name)) continue;
        if (light && e->dbl) continue;
        double w[32];
        float wf[32];
        for (int i = 0; i < e->ncoef; i++) { w[i] = 1.0 / e->ncoef; wf[i] = (float)w[i]; }
        for (int dom = 0; dom < 3; dom++) {
            if (!strchr(doms, DOMN(dom)[0])) continue;
            int W = dom == 1 ? PS : 3072,
                H = dom == 1 ? PS : full_height(e, 3072, da, db, maxn, e->dbl ? (const void *)w : (const void *)wf);
            if (dom == 2) H = H + H / 4;
            int steps = dom == 1 ? (light ? 5 : 10) : (light ? 20 : 100);
            double cells = (double)W * H * steps, es = e->dbl ? 8 : 4;
            double floor_gc = BW / (2 * es) / 1e9;
            run_ctx c;
            memset(&c, 0, sizeof c);
            c.e = e;
            c.a.src = da; c.a.dst = db; c.a.nx = W; c.a.ny = H; c.a.steps = steps;
            c.a.coef = e->dbl ? (const void *)w : (const void *)wf; c.a.ncoef = e->ncoef;
            /* the workspace for the largest plan */
            {
                perks_plan p;
                size_t need = 0;
                for (int m = 2; m < NIMPL; m++) {
                    impl_args(&c.a, m);
                    if ((m < 6 || m >= 8) && e->plan(&c.a, &p) == 0 && p.workspace_bytes > need) need = p.workspace_bytes;
                    if (e->plan2 && (m == 6 || m == 7) && e->plan2(&c.a, &p) == 0 && p.workspace_bytes > need)
                        need = p.workspace_bytes;
                }
                if (need > work_bytes) {
                    if (work) CUDA_DIE(cudaFree(work));
                    CUDA_DIE(cudaMalloc(&work, need));
                    work_bytes = need;
                }
                c.a.work = work;
                c.a.work_bytes = work_bytes;
            }
#ifdef HAVE_SSAM
            memset(&c.s, 0, sizeof c.s);
            c.s.nx = W; c.s.ny = H; c.s.nz = 1; c.s.coef = c.a.coef; c.s.ncoef = e->ncoef;
            c.s.boundary = SSAM_STENCIL_DIRICHLET;
#endif
            double best1 = 0, bestp = 0, autogc = 0;
            int autok = -1;
            for (int impl = 0; impl < NIMPL; impl++) {
                if (impl == 1 && !e->ssam) continue;
                if ((impl == 6 || impl == 7) && !e->launch2) continue;
                if ((impl == 13 || impl == 15) && dom != 1) continue;
                if (dom == 2 && impl != 0 && impl != 1 && impl != 11 && impl != 12 && impl != IMPL_AUTO) continue;
                c.impl = impl;
                double frac = 0;
                int kind = -1;
                if (impl >= 2) {
                    perks_plan p;
                    impl_args(&c.a, impl);
                    if ((impl == 6 || impl == 7 ? e->plan2 : e->plan)(&c.a, &p)) continue;
                    frac = p.cached_fraction;
                    kind = p.path;
                }
                double ms = time_ms(&c);
                double gc = cells / ms / 1e6;
                if (impl < 2 && gc > best1) best1 = gc;
                if (impl >= 2 && kind != PERKS_PLAN_STEPS && gc > bestp) bestp = gc;
                if (impl == IMPL_AUTO) autogc = gc, autok = kind;
                printf("%-10s %-4s %-2s %5dx%-5d %5d %-5s %9.3f %9.1f %6.1f%% %7.2f %8.1f\n", e->name,
                       e->dbl ? "fp64" : "fp32", DOMN(dom), W, H, steps, impl_name[impl], ms, gc, 100 * frac,
                       best1 > 0 ? gc / best1 : 0, floor_gc);
                fflush(stdout);
                if (json)
                    fprintf(json,
                            "%s  {\"kind\": \"stencil\", \"stencil\": \"%s\", \"type\": \"%s\", \"domain\": \"%s\", "
                            "\"width\": %d, \"height\": %d, \"steps\": %d, \"impl\": \"%s\", \"ms\": %.5f, "
                            "\"gcells_s\": %.3f, \"cached\": %.4f, \"floor_onepass_gcells_s\": %.2f, \"depth\": %d}",
                            json_rows++ ? ",\n" : "", e->name, e->dbl ? "fp64" : "fp32", DOMN(dom), W, H, steps,
                            impl_name[impl], ms, gc, frac, floor_gc, e->depth);
            }
            printf("%-10s %-4s %-2s best persistent / best one-pass: %.2fx; auto (%s) / best one-pass: %.2fx\n", e->name,
                   e->dbl ? "fp64" : "fp32", DOMN(dom), bestp / best1,
                   autok == PERKS_PLAN_RESIDENT ? "resident" : autok == PERKS_PLAN_HYBRID ? "hybrid" : autok == PERKS_PLAN_STEPS ? "steps" : "stream",
                   autogc / best1);
            if (json)
                fprintf(json,
                        "%s  {\"kind\": \"stencil_auto\", \"stencil\": \"%s\", \"type\": \"%s\", \"domain\": \"%s\", "
                        "\"auto_kernel\": %d, \"best_persistent_over_onepass\": %.4f, \"auto_over_onepass\": %.4f}",
                        json_rows++ ? ",\n" : "", e->name, e->dbl ? "fp64" : "fp32", DOMN(dom), autok, bestp / best1, autogc / best1);
            if (!e->dbl && dom < 2) {
                if (dom) gm_p_log += log(bestp / best1);
                else gm_f_log += log(bestp / best1), gm_n++;
            }
        }
    }
    if (gm_n) printf("geomean speedup over one-pass, fp32 2D: F %.2fx, P %.2fx (%d stencils)\n", exp(gm_f_log / gm_n),
                     exp(gm_p_log / gm_n), gm_n);
    cudaFree(da);
    cudaFree(db);
    if (work) cudaFree(work);
    }
    /* ---- 3D stencils ---- */
    if (sec_3d) bench3d(light, only);
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    return 0;
}
