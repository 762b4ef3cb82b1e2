/* tests/gpu/test_perks_stencil.cu -- perks/stencil.cuh: after N steps (1, 2, 7, 100) the persistent
 * kernels (resident, hybrid and streaming) equal the non-persistent step of the same generator
 * (path PERKS_KERNEL_STEPS) bit for bit, and all match a CPU reference in double (fp32 < 1e-5, fp64
 * < 1e-12 relative); every cache mode (none, smem, reg, mix); fully, partially and not cached
 * domains (the plan's cached fraction is checked to be 1, in (0, 1) and 0); ragged sizes (not
 * multiples of the tile, 1x1, narrower than the stencil); outputs poisoned with NaN first.  The
 * plan's promise on every path: the answer is read from p.result, steps_per_pass x passes = steps,
 * a caller workspace of exactly p.workspace_bytes (a poisoned guard after it) works, name_plan +
 * name_run = name_launch.  Every error code, including a grid that cannot be co-resident, a pitch or
 * plane that is not dense, a wrong ncoef (src and dst poisoned with a byte pattern: a refused call
 * writes nothing; its plan names why and plans no pass); src and dst that overlap refused.  The
 * non-persistent result is checked against the CPU cell by cell within the rounding bound of its
 * steps (reference()). */
#include <perks/stencil.cuh>

#include <stddef.h>
#include <type_traits>

#include "gpucheck.h"
#include "stencil_ref.h"

/* perks_plan begins with onchip_plan's head: the same fields, types and offsets */
#define HEAD_SAME(f)                                                                                \
    static_assert(offsetof(perks_plan, f) == offsetof(onchip_plan, f) &&                            \
                      std::is_same<decltype(perks_plan::f), decltype(onchip_plan::f)>::value,       \
                  "perks_plan." #f " is not onchip_plan's")
HEAD_SAME(path);
HEAD_SAME(why);
HEAD_SAME(steps_per_pass);
HEAD_SAME(passes);
HEAD_SAME(workspace_bytes);
HEAD_SAME(result);
static_assert(std::is_same<perks_stencil2d_args, onchip_stencil_args>::value, "perks_stencil2d_args");

/* (name, T, shape, BX, RC, DEPTH) */
PERKS_STENCIL2D_DEFINE(f5, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 32>)
PERKS_STENCIL2D_DEFINE(f13, float, ONCHIP_SHAPE_STAR2D_R3, perks_stencil2d_policy<64, 8, 16>)
PERKS_STENCIL2D_DEFINE(f9box, float, ONCHIP_SHAPE_BOX2D_R1, perks_stencil2d_policy<64, 4, 0>)
PERKS_STENCIL2D_DEFINE(d25, double, ONCHIP_SHAPE_BOX2D_R2, perks_stencil2d_policy<128, 4, 8>)
/* RC < r: the resident kernel's chunk grows to r rows */
PERKS_STENCIL2D_DEFINE(f13s, float, ONCHIP_SHAPE_STAR2D_R3, perks_stencil2d_policy<64, 2, 0>)
/* the radius-2 star at a narrow block */
PERKS_STENCIL2D_DEFINE(fss9, float, ONCHIP_SHAPE_STAR2D_R2, perks_stencil2d_policy<64, 8, 8>)
/* an asymmetric shape (extents -2 .. 1 in x, -1 .. 2 in y, radius 2): keep-radius only */
#define UPWIND(X) X(0, 0, 0) X(1, -1, 0) X(2, 0, -1) X(3, -2, 0) X(4, 1, 2)
PERKS_STENCIL2D_DEFINE(fup, float, UPWIND, perks_stencil2d_policy<64, 4, 0>)

typedef int (*launch_fn)(const perks_stencil2d_args *, cudaStream_t);
typedef int (*plan_fn)(const perks_stencil2d_args *, perks_plan *);
typedef int (*run_fn)(const perks_stencil2d_args *, const perks_plan *, cudaStream_t);
#define PT(I, DX, DY) {I, DX, DY, 0},
static const int pts_f5[][4] = {ONCHIP_SHAPE_STAR2D_R1(PT)};
static const int pts_f13[][4] = {ONCHIP_SHAPE_STAR2D_R3(PT)};
static const int pts_f9box[][4] = {ONCHIP_SHAPE_BOX2D_R1(PT)};
static const int pts_d25[][4] = {ONCHIP_SHAPE_BOX2D_R2(PT)};
static const int pts_f13s[][4] = {ONCHIP_SHAPE_STAR2D_R3(PT)};
static const int pts_fss9[][4] = {ONCHIP_SHAPE_STAR2D_R2(PT)};

typedef struct kern {
    const char *name;
    launch_fn launch;
    plan_fn plan;
    run_fn run;
    const int (*pts)[4];
    int npts, ncoef, r, dbl, bx, depth;
} kern;
#define K(n, r, dbl, bx, depth) \
    {#n, n##_launch, n##_plan, n##_run, pts_##n, (int)(sizeof pts_##n / sizeof pts_##n[0]), n##_NCOEF, r, dbl, bx, depth}
static const kern kernels[] = {
    K(f5, 1, 0, 256, 32), K(f13, 3, 0, 64, 16), K(f9box, 1, 0, 64, 0), K(d25, 2, 1, 128, 8), K(f13s, 3, 0, 64, 0),
    K(fss9, 2, 0, 64, 8),
};

/* name_launch with path PERKS_KERNEL_STEPS: one launch a step */
static int launch_steps(launch_fn f, perks_stencil2d_args a)
{
    a.path = PERKS_KERNEL_STEPS;
    return f(&a, 0);
}

/* a chosen plan's head: why read alike through onchip_plan_head, the steps covered (one pass of all
 * steps, or one a step), the result in src or dst by the parity of the steps */
static void check_head(const perks_plan *p, const perks_stencil2d_args *a, const char *what)
{
    CHECK(p->why && p->why[0] && onchip_plan_head(p).why == p->why, "%s: no why", what);
    CHECK((long long)p->steps_per_pass * p->passes == a->steps, "%s: %d steps a pass x %lld passes, %d steps", what,
          p->steps_per_pass, p->passes, a->steps);
    CHECK(p->passes == (a->steps == 0 ? 0 : p->path == PERKS_PLAN_STEPS ? a->steps : 1), "%s: %lld passes (path %d)",
          what, p->passes, p->path);
    CHECK(p->result == ((a->steps & 1) ? a->dst : (const void *)a->src), "%s: result %p (src %p, dst %p)", what,
          p->result, a->src, a->dst);
    CHECK(p->path != PERKS_PLAN_STEPS || p->workspace_bytes == 0, "%s: steps path with %zu workspace bytes", what,
          p->workspace_bytes);
}

/* a refused plan: the code, a sentence, no pass */
static void check_refused(int rc, int want, const perks_plan *p, const char *what)
{
    CHECK(rc == want, "%s: %d (%s), wanted %d", what, rc, perks_strerror(rc), want);
    CHECK(p->why && p->why[0] && onchip_plan_head(p).why == p->why, "%s: refused without a why", what);
    CHECK(p->passes == 0 && p->result == NULL, "%s: refused with %lld passes", what, p->passes);
}

/* steps of the stencil on the host in double into out, and into mag the same steps applied to |in|
 * with |w|: the rounding bound of a cell after t steps in precision u is t (npts + 1) u mag (each
 * step's error of a sum of npts products at most (npts + 1) u times its sum of magnitudes, carried
 * by the later steps' |w|) */
static void reference(const double *in, double *out, int W, int H, const kern *k, const double *w, int steps, double *mag)
{
    const size_t n = (size_t)W * H;
    double *scratch = (double *)malloc(sizeof(double) * 2 * n);
    /* perks keeps the cells within the radius of an edge (stencil_ref.h: ONCHIP_KEEP_RADIUS) */
    ref_stencil_steps(k->pts, k->npts, w, in, steps, out, mag, scratch, n, 2, W, H, 1, W, (long long)W * H,
                      SREF_KEEP_RADIUS);
    free(scratch);
}

/* one domain, every cache mode, against the non-persistent steps and the reference.
 * want: the cached fraction expected of mode MIX: 2 = 1.0, 1 = in (0,1), 0 = 0 (or -1: unchecked) */
static void run_case(const kern *k, int W, int H, int steps, int rows_max, int want, int bps)
{
    enum { GUARD = 4096 }; /* poisoned bytes after a caller workspace */
    char name[200];
    snprintf(name, sizeof name, "perks %s %dx%d steps %d%s%s", k->name, W, H, steps,
             rows_max ? " (shared cache capped)" : "", want == 2 ? " fully cached" : want == 1 ? " partially cached" : want == 0 ? " not cached" : "");
    case_begin(name);
    size_t n = (size_t)W * H, es = k->dbl ? 8 : 4;
    double *in = (double *)malloc(n * 8), *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8), w[32];
    void *h = malloc(n * es), *hbase = malloc(n * es), *hout = malloc(n * es);
    float wf[32];
    double wsum = 0;
    int ncoef = 0;
    for (int p = 0; p < k->npts; p++) ncoef = k->pts[p][0] + 1 > ncoef ? k->pts[p][0] + 1 : ncoef;
    for (int i = 0; i < ncoef; i++) { w[i] = 0.5 + 0.5 * (gpucheck_uniform() + 1); wsum += w[i]; }
    for (int i = 0; i < ncoef; i++) { w[i] /= wsum; wf[i] = (float)w[i]; if (!k->dbl) w[i] = wf[i]; }
    for (size_t i = 0; i < n; i++) {
        float v = gpucheck_uniform();
        in[i] = v;
        if (k->dbl) ((double *)h)[i] = v; else ((float *)h)[i] = v;
    }
    reference(in, ref, W, H, k, w, steps, mag);
    void *da, *db;
    CUDA_OK(cudaMalloc(&da, n * es));
    CUDA_OK(cudaMalloc(&db, n * es));
    perks_stencil2d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.nx = W; a.ny = H; a.steps = steps;
    a.coef = k->dbl ? (const void *)w : (const void *)wf; a.ncoef = k->ncoef;
    a.blocks_per_sm = bps; a.cache_rows_max = rows_max;
    /* the non-persistent baseline: path PERKS_KERNEL_STEPS, plan then run */
    a.path = PERKS_KERNEL_STEPS;
    CUDA_OK(cudaMemcpy(da, h, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(db, 0xff, n * es));
    int rc = k->plan(&a, &p);
    CHECK(rc == 0, "steps plan: %s", perks_strerror(rc));
    check_head(&p, &a, "steps");
    CHECK(p.path == PERKS_PLAN_STEPS && p.steps_per_pass == 1, "steps: path %d, %d steps a pass", p.path, p.steps_per_pass);
    rc = k->run(&a, &p, 0);
    CHECK(rc == 0, "steps: %s", perks_strerror(rc));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(hbase, p.result ? p.result : da, n * es, cudaMemcpyDeviceToHost));
    {
        size_t bad = 0;
        double err = 0, num = 0, den = 0;
        for (size_t i = 0; i < n; i++) {
            double v = k->dbl ? ((double *)hbase)[i] : ((float *)hbase)[i];
            if (!isfinite(v)) { bad++; continue; }
            num += (v - ref[i]) * (v - ref[i]);
            den += ref[i] * ref[i];
        }
        err = den > 0 ? sqrt(num / den) : sqrt(num);
        CHECK(bad == 0, "baseline: %zu cells not written", bad);
        CHECK(err < (k->dbl ? 1e-12 : 1e-5), "baseline: relative error %.3g", err);
        /* cell by cell: within 2 steps (npts + 1) u mag of the host's (2: the host's own rounding, and
         * any order of the sum, fused or not); a wrong neighbour or a cell not kept is off by O(1) */
        const double u = k->dbl ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
        size_t over = 0, at = 0;
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            const double v = k->dbl ? ((double *)hbase)[i] : ((float *)hbase)[i], e = fabs(v - ref[i]),
                         bound = 2.0 * steps * (k->npts + 1) * u * mag[i] + 1e-300;
            if (!(e <= bound) && !over++) at = i;
            if (e / (bound > 0 ? bound : 1) > worst) worst = e / (bound > 0 ? bound : 1);
        }
        CHECK(over == 0, "baseline: %zu cells beyond the rounding bound, first %zu: %.9g, host %.9g (bound %.3g; worst %.2f "
              "of its bound)", over, at, k->dbl ? ((double *)hbase)[at] : ((float *)hbase)[at], ref[at],
              2.0 * steps * (k->npts + 1) * u * mag[at], worst);
    }
    /* modes 0-3 with the kernel chosen automatically (SMEM, MIX: resident where the tiles fit,
       else hybrid or the one-pass steps); 4, 5: SMEM and MIX on the streaming kernel; 6, 7: SMEM
       and NONE on the hybrid kernel (NONE: nothing cached, every row streamed).  Even modes: plan,
       then run with a caller workspace of exactly p.workspace_bytes; odd: name_launch (its own
       workspace) */
    static const char *mode[] = {"none", "smem", "reg", "mix", "smem/stream", "mix/stream", "smem/hybrid", "none/hybrid"};
    static const char *kname[] = {"stream", "resident", "hybrid", "steps"};
    for (int m = 0; m < 8 && !check__failed_case; m++) {
        a.cache = m < 4 ? m : m == 5 ? PERKS_CACHE_MIX : m == 7 ? PERKS_CACHE_NONE : PERKS_CACHE_SMEM;
        a.path = m < 4 ? PERKS_KERNEL_AUTO : m < 6 ? PERKS_KERNEL_STREAM : PERKS_KERNEL_HYBRID;
        rc = k->plan(&a, &p);
        CHECK(rc == 0, "%s plan: %s", mode[m], perks_strerror(rc));
        if (rc) break;
        check_head(&p, &a, mode[m]);
        if (m == PERKS_CACHE_NONE || m == 7) CHECK(p.cached_fraction == 0, "%s caches %g", mode[m], p.cached_fraction);
        if (m == 7) CHECK(p.smem_rows == 0, "none/hybrid: %d shared rows", p.smem_rows);
        if (m == 0 || m == 2 || m == 4 || m == 5) CHECK(p.path == PERKS_PLAN_STREAM, "%s: kernel %d chosen", mode[m], p.path);
        if (m >= 6) CHECK(p.path == PERKS_PLAN_HYBRID, "%s: kernel %d chosen", mode[m], p.path);
        if (p.path == PERKS_PLAN_RESIDENT)
            CHECK(p.cached_fraction == 1.0 && p.smem_rows == p.tile_len, "%s: resident plan caches %g", mode[m], p.cached_fraction);
        if (m == PERKS_CACHE_MIX && want == 2) CHECK(p.path == PERKS_PLAN_RESIDENT, "mix: not resident (%d tiles of %d rows)", p.tiles, p.tile_len);
        if ((m == 5 || m == 6) && want == 2) CHECK(p.cached_fraction == 1.0, "%s: cached %g, wanted all", mode[m], p.cached_fraction);
        if ((m == PERKS_CACHE_MIX || m == 5 || m == 6) && want == 1)
            CHECK(p.path != PERKS_PLAN_RESIDENT && p.cached_fraction > 0 && p.cached_fraction < 1, "%s: cached %g, wanted part", mode[m], p.cached_fraction);
        if (m == 6 && want == 1) CHECK(p.smem_rows > 0 && p.smem_rows < p.tile_len, "smem/hybrid: %d of %d rows cached", p.smem_rows, p.tile_len);
        if ((m == PERKS_CACHE_MIX || m == 5) && want == 0) CHECK(p.cached_fraction == 0, "mix: cached %g, wanted none", p.cached_fraction);
        CUDA_OK(cudaMemcpy(da, h, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(db, 0xff, n * es));
        if (steps == 0) CUDA_OK(cudaMemset(db, 0, n * es));
        if (m & 1) {
            rc = k->launch(&a, 0);
            CHECK(rc == 0, "%s launch: %s", mode[m], perks_strerror(rc));
        } else {
            /* the workspace the plan asks for, to the byte, and a poisoned guard after it */
            const size_t wb = p.workspace_bytes;
            void *ws = NULL;
            perks_plan q;
            if (wb) {
                CUDA_OK(cudaMalloc(&ws, wb + GUARD));
                gpucheck_poison(ws, wb + GUARD);
                a.work = ws; a.work_bytes = wb;
            }
            rc = k->plan(&a, &q);
            CHECK(rc == 0 && q.path == p.path && q.workspace_bytes == wb && q.result == p.result,
                  "%s: plan with its workspace: %s, path %d", mode[m], perks_strerror(rc), q.path);
            rc = rc ? rc : k->run(&a, &q, 0);
            CHECK(rc == 0, "%s run: %s", mode[m], perks_strerror(rc));
            CUDA_OK(cudaDeviceSynchronize());
            if (ws) {
                CHECK(gpucheck_poison_changed((char *)ws + wb, GUARD) == 0, "%s: written past workspace_bytes (%zu)",
                      mode[m], wb);
                CUDA_OK(cudaFree(ws));
            }
            a.work = NULL; a.work_bytes = 0;
        }
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hout, p.result, n * es, cudaMemcpyDeviceToHost));
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < n; i++)
            if (memcmp((char *)hout + i * es, (char *)hbase + i * es, es)) { if (!diff) first = i; diff++; }
        CHECK(diff == 0, "%s (%s, cached %.3f, %d tiles of %d rows, reg %d smem %d): %zu cells differ from the "
              "non-persistent result, first (%zu, %zu)", mode[m], kname[p.path & 3], p.cached_fraction,
              p.tiles, p.tile_len, p.reg_rows, p.smem_rows, diff, first % W, first / W);
    }
    a.path = 0;
    cudaFree(da);
    cudaFree(db);
    free(in); free(ref); free(mag); free(h); free(hbase); free(hout);
    case_end();
}

/* whether the `bytes` bytes at d all hold `pat` */
static int all_bytes(const void *d, size_t bytes, int pat)
{
    unsigned char *h = (unsigned char *)malloc(bytes);
    int ok = h && cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (size_t i = 0; ok && i < bytes; i++) ok = h[i] == (unsigned char)pat;
    free(h);
    return ok;
}

static void test_errors(void)
{
    case_begin("perks stencil: error codes (NULL, sizes, layout, ncoef, cache mode, workspace, co-residency)");
    float w[5] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
    void *da = NULL, *db = NULL;
    CUDA_OK(cudaMalloc(&da, 64 * 133 * 4 * 3));
    CUDA_OK(cudaMalloc(&db, 64 * 133 * 4 * 3));
    /* src and dst poisoned with a byte pattern: every refused call below leaves both as they are */
    CUDA_OK(cudaMemset(da, 0xA5, 64 * 133 * 4 * 3));
    CUDA_OK(cudaMemset(db, 0xA5, 64 * 133 * 4 * 3));
    perks_stencil2d_args a, b;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.nx = 16; a.ny = 16; a.steps = 3; a.coef = w; a.ncoef = f5_NCOEF;
    /* each refusal: from name_plan (the code, why, no pass), name_launch, and name_run of the refused
     * plan (it runs nothing) */
#define REFUSED(args, code, what)                                                                   \
    do {                                                                                            \
        check_refused(f5_plan(&(args), &p), code, &p, what);                                        \
        CHECK(f5_run(&(args), &p, 0) == 0, "%s: the refused plan's run", what);                     \
        CHECK(f5_launch(&(args), 0) == (code), "%s (launch)", what);                                \
        CHECK(launch_steps(f5_launch, args) == (code), "%s (steps)", what);                         \
    } while (0)
    CHECK(f5_launch(NULL, 0) == PERKS_ENULL, "NULL args");
    CHECK(f5_plan(&a, NULL) == PERKS_ENULL, "NULL plan");
    check_refused(f5_plan(NULL, &p), PERKS_ENULL, &p, "NULL args (plan)");
    CHECK(f5_run(NULL, &p, 0) == PERKS_ENULL && f5_run(&a, NULL, 0) == PERKS_ENULL, "NULL run");
    b = a; b.src = NULL; REFUSED(b, PERKS_ENULL, "NULL src");
    b = a; b.dst = NULL; REFUSED(b, PERKS_ENULL, "NULL dst");
    b = a; b.coef = NULL; REFUSED(b, PERKS_ENULL, "NULL coef");
    b = a; b.nx = 0; REFUSED(b, PERKS_ESIZE, "nx 0");
    b = a; b.ny = -1; REFUSED(b, PERKS_ESIZE, "ny -1");
    b = a; b.nz = 2; REFUSED(b, PERKS_ESIZE, "nz 2 in 2D");
    b = a; b.steps = -1; REFUSED(b, PERKS_ESIZE, "steps -1");
    /* perks is dense: pitch 0 or nx, plane 0 or nx * ny */
    b = a; b.pitch = 17; REFUSED(b, PERKS_ESIZE, "pitch 17 for nx 16");
    b = a; b.pitch = 8; REFUSED(b, PERKS_ESIZE, "pitch 8 for nx 16");
    b = a; b.plane = 16 * 17; REFUSED(b, PERKS_ESIZE, "plane 272 for 16 x 16");
    b = a; b.ncoef = 4; REFUSED(b, PERKS_ESIZE, "ncoef 4 for 5 coefficients");
    b = a; b.ncoef = 6; REFUSED(b, PERKS_ESIZE, "ncoef 6 for 5 coefficients");
    b = a; b.cache = 4; REFUSED(b, PERKS_ESIZE, "cache mode 4");
    b = a; b.cache = PERKS_CACHE_MIX; b.cache_rows_max = -1; REFUSED(b, PERKS_ESIZE, "cache_rows_max -1");
    b = a; b.blocks_per_sm = -1; REFUSED(b, PERKS_ESIZE, "blocks_per_sm -1");
    b = a; b.path = 5; check_refused(f5_plan(&b, &p), PERKS_ESIZE, &p, "path 5");
    CHECK(f5_launch(&b, 0) == PERKS_ESIZE, "path 5 (launch)");
    b.path = -1; check_refused(f5_plan(&b, &p), PERKS_ESIZE, &p, "path -1");
    /* the dense values themselves, nz 1 */
    b = a; b.pitch = 16; b.plane = 16 * 16; b.nz = 1;
    CHECK(f5_plan(&b, &p) == 0 && p.passes == 1, "pitch nx, plane nx * ny, nz 1: %s", p.why);
    /* the resident kernel alone: needs a shared cache mode and tiles that fit */
    a.path = PERKS_KERNEL_RESIDENT; a.cache = PERKS_CACHE_NONE;
    check_refused(f5_plan(&a, &p), PERKS_ESIZE, &p, "resident kernel with cache none");
    CHECK(f5_launch(&a, 0) == PERKS_ESIZE, "resident kernel with cache none (launch)");
    a.cache = PERKS_CACHE_REG;
    check_refused(f5_plan(&a, &p), PERKS_ESIZE, &p, "resident kernel with cache reg");
    a.cache = PERKS_CACHE_SMEM;
    CHECK(f5_plan(&a, &p) == 0 && p.path == PERKS_PLAN_RESIDENT, "resident kernel on 16x16");
    check_head(&p, &a, "resident kernel on 16x16");
    a.nx = 8192; a.ny = 8192; /* plans and refused launches only, on buffers that size */
    {
        float *big = NULL;
        CUDA_OK(cudaMalloc(&big, 2 * (size_t)8192 * 8192 * 4));
        a.src = big; a.dst = big + (size_t)8192 * 8192;
        check_refused(f5_plan(&a, &p), PERKS_ERESOURCE, &p, "resident kernel on 8192x8192");
        CHECK(f5_launch(&a, 0) == PERKS_ERESOURCE, "resident launch on 8192x8192");
        a.path = PERKS_KERNEL_AUTO;
        CHECK(f5_plan(&a, &p) == 0 && (p.path == PERKS_PLAN_HYBRID || p.path == PERKS_PLAN_STEPS) && p.cached_fraction > 0 &&
                  p.cached_fraction < 1, "auto on 8192x8192: hybrid or steps, part cached (kernel %d, %g)", p.path, p.cached_fraction);
        check_head(&p, &a, "auto on 8192x8192");
        a.path = PERKS_KERNEL_HYBRID;
        CHECK(f5_plan(&a, &p) == 0 && p.path == PERKS_PLAN_HYBRID && p.smem_rows > 0 && p.smem_rows < p.tile_len &&
                  p.smem_rows % 8 == 0, "hybrid on 8192x8192: %d of %d rows cached", p.smem_rows, p.tile_len);
        check_head(&p, &a, "hybrid on 8192x8192");
        CHECK(p.workspace_bytes >= 2 * perks_edge_elems(p.tiles, 1, p.tile_len) * 4, "hybrid workspace %zu", p.workspace_bytes);
        a.cache = PERKS_CACHE_REG;
        check_refused(f5_plan(&a, &p), PERKS_ESIZE, &p, "hybrid kernel with cache reg");
        CHECK(f5_launch(&a, 0) == PERKS_ESIZE, "hybrid launch with cache reg");
        CUDA_OK(cudaFree(big));
    }
    a.src = da; a.dst = db;
    a.cache = PERKS_CACHE_SMEM;
    a.nx = 16; a.ny = 300; a.cache_rows_max = 1; a.path = PERKS_KERNEL_RESIDENT; a.blocks_per_sm = 1;
    check_refused(f5_plan(&a, &p), PERKS_ERESOURCE, &p, "resident kernel with cache_rows_max 1 < rows a tile");
    a.nx = 16; a.ny = 16; a.path = 0; a.cache = PERKS_CACHE_MIX; a.cache_rows_max = 0; a.blocks_per_sm = 1000;
    check_refused(f5_plan(&a, &p), PERKS_ESIZE, &p, "1000 blocks per SM");
    CHECK(f5_launch(&a, 0) == PERKS_ESIZE, "1000 blocks per SM (launch)");
    a.blocks_per_sm = 0;
    CHECK(f5_plan(&a, &p) == 0 && p.workspace_bytes > 1, "workspace %zu", p.workspace_bytes);
    a.work = db; a.work_bytes = p.workspace_bytes - 1;
    check_refused(f5_plan(&a, &p), PERKS_ESIZE, &p, "workspace one byte short");
    CHECK(f5_launch(&a, 0) == PERKS_ESIZE, "workspace one byte short (launch)");
    b = a; b.path = PERKS_KERNEL_STEPS; /* the steps path takes none */
    CHECK(f5_plan(&b, &p) == 0 && p.workspace_bytes == 0, "steps path with a short workspace: %s", p.why);
    a.work = NULL; a.work_bytes = 0;
    /* a grid that cannot be co-resident: 133 tile columns of 64 with one block per SM (132 SMs) */
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    a.nx = 64 * (sms + 1); a.ny = 3; a.blocks_per_sm = 1; a.ncoef = f13_NCOEF;
    {
        float w13[13];
        for (int i = 0; i < 13; i++) w13[i] = 1.0f / 13;
        a.coef = w13;
        check_refused(f13_plan(&a, &p), PERKS_ECORESIDENT, &p, "plan of 133 tile columns on 132 blocks");
        CHECK(f13_launch(&a, 0) == PERKS_ECORESIDENT, "launch of %d tile columns on %d blocks", sms + 1, sms);
        a.coef = w;
    }
    a.ncoef = f5_NCOEF;
    /* perks_launch itself refuses a grid larger than the co-resident blocks */
    {
        int bps = 0, s2 = 0;
        CHECK(perks_occupancy((const void *)f13_kernel, 64, f13_smem_base(), &bps, &s2) == 0, "occupancy");
        void *args[1] = {NULL};
        CHECK(perks_launch((const void *)f13_kernel, dim3(bps * s2 + 1), dim3(64), args, f13_smem_base(), 0) ==
                  PERKS_ECORESIDENT, "perks_launch of %d blocks", bps * s2 + 1);
    }
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(all_bytes(da, 64 * 133 * 4 * 3, 0xA5) && all_bytes(db, 64 * 133 * 4 * 3, 0xA5), "a refused call above wrote src or dst");
    /* steps 0: success, nothing launched, the result is src, on every path */
    a.nx = 16; a.ny = 16; a.blocks_per_sm = 0; a.steps = 0;
    CUDA_OK(cudaMemset(db, 0x7f, 16 * 16 * 4));
    for (int path = PERKS_KERNEL_AUTO; path <= PERKS_KERNEL_STEPS; path++) {
        a.path = path;
        a.cache = path == PERKS_KERNEL_RESIDENT ? PERKS_CACHE_SMEM : PERKS_CACHE_MIX;
        CHECK(f5_plan(&a, &p) == 0 && p.passes == 0 && p.result == da && p.workspace_bytes == 0, "steps 0, path %d", path);
        check_head(&p, &a, "steps 0");
        CHECK(f5_run(&a, &p, 0) == 0 && f5_launch(&a, 0) == 0, "steps 0, path %d: run", path);
    }
    a.path = 0;
    {
        unsigned char hb[16 * 16 * 4];
        CUDA_OK(cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost));
        int same = 1;
        for (size_t i = 0; i < sizeof hb; i++) same &= hb[i] == 0x7f;
        CHECK(same, "steps 0 wrote dst");
    }
#undef REFUSED
    CUDA_OK(cudaGetLastError());
    cudaFree(da);
    cudaFree(db);
    case_end();
}

/* src and dst meeting: PERKS_EOVERLAP from name_plan (so from name_launch, on every path) before
 * anything is launched (the one buffer under both, poisoned, stays as it was); grids that only touch
 * pass the test (0 steps: nothing to write) */
static void test_overlap(void)
{
    case_begin("perks stencil: src and dst overlap (PERKS_EOVERLAP, nothing written)");
    enum { W = 16, H = 16, CELLS = W * H };
    float w[5] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
    const size_t bytes = 2 * CELLS * sizeof(float);
    float *d = NULL;
    CUDA_OK(cudaMalloc(&d, bytes));
    gpucheck_poison(d, bytes);
    perks_stencil2d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d; a.nx = W; a.ny = H; a.steps = 3; a.coef = w; a.ncoef = f5_NCOEF; a.cache = PERKS_CACHE_MIX;
    check_refused(f5_plan(&a, &p), PERKS_EOVERLAP, &p, "src == dst");
    CHECK(f5_launch(&a, 0) == PERKS_EOVERLAP, "src == dst");
    CHECK(launch_steps(f5_launch, a) == PERKS_EOVERLAP, "src == dst (steps)");
    a.dst = d + CELLS - 1;
    CHECK(f5_launch(&a, 0) == PERKS_EOVERLAP, "dst from src's last cell");
    CHECK(launch_steps(f5_launch, a) == PERKS_EOVERLAP, "dst from src's last cell (steps)");
    a.src = d + 7; a.dst = d;
    CHECK(f5_launch(&a, 0) == PERKS_EOVERLAP, "src 7 cells into dst");
    a.path = PERKS_KERNEL_STREAM;
    CHECK(f5_launch(&a, 0) == PERKS_EOVERLAP, "src 7 cells into dst, streaming kernel");
    a.path = PERKS_KERNEL_RESIDENT; a.cache = PERKS_CACHE_SMEM;
    check_refused(f5_plan(&a, &p), PERKS_EOVERLAP, &p, "src 7 cells into dst, resident kernel");
    CHECK(f5_launch(&a, 0) == PERKS_EOVERLAP, "src 7 cells into dst, resident kernel");
    a.path = PERKS_KERNEL_AUTO; a.cache = PERKS_CACHE_MIX; a.src = d; a.dst = d; a.steps = 0;
    CHECK(f5_launch(&a, 0) == PERKS_EOVERLAP && launch_steps(f5_launch, a) == PERKS_EOVERLAP, "src == dst, 0 steps");
    a.dst = d + CELLS;
    CHECK(f5_launch(&a, 0) == 0 && launch_steps(f5_launch, a) == 0, "dst right after src, 0 steps: %d", f5_launch(&a, 0));
    a.src = d + CELLS; a.dst = d;
    CHECK(f5_launch(&a, 0) == 0, "src right after dst, 0 steps");
    const long long changed = gpucheck_poison_changed(d, bytes);
    CHECK(changed == 0, "%lld bytes written by refused calls", changed);
    CHECK(strstr(perks_strerror(PERKS_EOVERLAP), "overlap") != NULL, "strerror");
    cudaFree(d);
    case_end();
}

/* the boundary policies: keep-radius and keep-extent (the default 0) the same bits for a symmetric
 * shape; an asymmetric one takes keep-radius only, against the CPU; every other policy refused on
 * every path, writing nothing */
static void test_boundary(void)
{
    case_begin("perks stencil boundary policies: keep-radius, keep-extent where the same, PERKS_EBOUNDARY");
    enum { W = 70, H = 45, CELLS = W * H, STEPS = 5 };
    static const int pts_up[][4] = {{0, 0, 0, 0}, {1, -1, 0, 0}, {2, 0, -1, 0}, {3, -2, 0, 0}, {4, 1, 2, 0}};
    float w[5], *h = (float *)malloc(CELLS * 4), *o1 = (float *)malloc(CELLS * 4), *o2 = (float *)malloc(CELLS * 4);
    double wd[5], *in = (double *)malloc(CELLS * 8), *ref = (double *)malloc(CELLS * 8),
                  *mag = (double *)malloc(CELLS * 8), *scratch = (double *)malloc(CELLS * 16);
    for (int i = 0; i < 5; i++) w[i] = 0.1f + 0.05f * (float)i, wd[i] = w[i];
    for (int i = 0; i < CELLS; i++) h[i] = gpucheck_uniform(), in[i] = h[i];
    float *d = NULL;
    CUDA_OK(cudaMalloc(&d, 2 * CELLS * 4));
    perks_stencil2d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + CELLS; a.nx = W; a.ny = H; a.steps = STEPS; a.coef = w; a.ncoef = 5; a.cache = PERKS_CACHE_MIX;
    /* the 5-point star: keep-radius keeps the cells keep-extent keeps, with the same bits */
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(f5_launch(&a, 0) == 0, "star, keep-extent (0)");
    CUDA_OK(cudaMemcpy(o1, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost)); /* odd steps: the result in dst */
    a.boundary = ONCHIP_KEEP_RADIUS;
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(f5_launch(&a, 0) == 0, "star, keep-radius");
    CUDA_OK(cudaMemcpy(o2, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(o1, o2, CELLS * 4) == 0, "star: keep-radius and keep-extent differ");
    /* the asymmetric shape under keep-radius, against the CPU and against its one-pass steps */
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(fup_launch(&a, 0) == 0, "asymmetric, keep-radius");
    CUDA_OK(cudaMemcpy(o1, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(launch_steps(fup_launch, a) == 0, "asymmetric, keep-radius, one-pass steps");
    CUDA_OK(cudaMemcpy(o2, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(o1, o2, CELLS * 4) == 0, "asymmetric: the persistent and the one-pass steps differ");
    ref_stencil_steps(pts_up, 5, wd, in, STEPS, ref, mag, scratch, CELLS, 2, W, H, 1, W, CELLS, SREF_KEEP_RADIUS);
    long long bad = 0;
    for (int i = 0; i < CELLS; i++) bad += !(fabs(o1[i] - ref[i]) <= 2.0 * STEPS * 6 * 0x1p-24 * mag[i] + 1e-300);
    CHECK(bad == 0, "asymmetric, keep-radius: %lld cells beyond the rounding bound of the CPU's", bad);
    /* refused: keep-extent for the asymmetric shape, the other policies for both, on every path;
     * nothing written */
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    gpucheck_poison(d + CELLS, CELLS * 4);
    a.boundary = ONCHIP_KEEP_EXTENT;
    CHECK(fup_launch(&a, 0) == PERKS_EBOUNDARY && launch_steps(fup_launch, a) == PERKS_EBOUNDARY, "asymmetric, keep-extent");
    for (int path = PERKS_KERNEL_AUTO; path <= PERKS_KERNEL_STEPS; path++) {
        a.path = path;
        check_refused(fup_plan(&a, &p), PERKS_EBOUNDARY, &p, "asymmetric, keep-extent");
    }
    a.path = PERKS_KERNEL_AUTO;
    static const int others[] = {ONCHIP_PERIODIC, ONCHIP_ZERO_OUTSIDE, -1, 4, 40};
    for (int i = 0; i < 5; i++) {
        a.boundary = others[i];
        CHECK(f5_launch(&a, 0) == PERKS_EBOUNDARY && launch_steps(f5_launch, a) == PERKS_EBOUNDARY &&
              fup_launch(&a, 0) == PERKS_EBOUNDARY, "policy %d", others[i]);
        check_refused(f5_plan(&a, &p), PERKS_EBOUNDARY, &p, "policy");
    }
    a.boundary = ONCHIP_KEEP_RADIUS;
    a.update = ONCHIP_UPDATE_LEAPFROG; /* the model's updates and fields: refused, nothing written */
    CHECK(f5_launch(&a, 0) == PERKS_EUPDATE, "a leapfrog update");
    check_refused(f5_plan(&a, &p), PERKS_EUPDATE, &p, "a leapfrog update");
    a.update = ONCHIP_UPDATE_SUM;
    a.field[ONCHIP_FIELD_SCALE].p = d;
    CHECK(f5_launch(&a, 0) == PERKS_EUPDATE, "a coefficient field");
    check_refused(f5_plan(&a, &p), PERKS_EUPDATE, &p, "a coefficient field");
    a.field[ONCHIP_FIELD_SCALE].p = NULL;
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(gpucheck_poison_changed(d + CELLS, CELLS * 4) == 0, "a refused call wrote dst");
    CUDA_OK(cudaMemcpy(o1, d, CELLS * 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(o1, h, CELLS * 4) == 0, "a refused call wrote src");
    CHECK(strstr(perks_strerror(PERKS_EBOUNDARY), "boundary") != NULL, "strerror");
    cudaFree(d);
    free(h), free(o1), free(o2), free(in), free(ref), free(mag), free(scratch);
    case_end();
}

int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const int nk = (int)(sizeof kernels / sizeof kernels[0]);
    static const int steps_full[] = {1, 2, 7, 100}, steps_light[] = {1, 2, 7};
    const int *st = light ? steps_light : steps_full, nst = light ? 3 : 4;
    /* a kernel: nst step counts + 1 partially cached + 5 tiny; then 3 on many tiles, 8 more without
     * --light, test_errors, test_overlap, test_boundary */
    check_plan(nk * (nst + 1 + 5) + 3 + (light ? 0 : 8) + 1 + 1 + 1);
    for (int i = 0; i < nk; i++) {
        const kern *k = &kernels[i];
        /* tall enough that tiles hold the register rows (rows per tile >= DEPTH + r), ragged */
        int W = k->bx == 256 ? 300 : 200, H = k->bx == 256 ? 2500 : 37 * (k->depth + 2 * k->r + 3) + 5;
        if (light) H = H / 4 + 3;
        for (int s = 0; s < nst; s++) {
            if (st[s] == 100 && k->dbl && !light) run_case(k, W / 2 + 1, H / 2 + 1, 100, 0, -1, 1);
            else run_case(k, W, H, st[s], 0, 2, 1);
        }
        /* partially cached: the shared cache capped at 8 rows per tile (hybrid: 8 rounded down to
           whole chunks, the other rows streamed in ragged chunks) */
        {
            int sms = 0, tx = (W + 33 + k->bx - 1) / k->bx;
            CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
            run_case(k, W + 33, (sms / tx) * 45 + 13, light ? 2 : 7, 8, 1, 1); /* tiles of ~46 rows */
        }
        /* tiny and ragged: 1x1, narrower than the stencil, one row, one column */
        run_case(k, 1, 1, 3, 0, -1, 0);
        run_case(k, 2 * k->r, 7, 3, 0, -1, 0);
        run_case(k, 97, 1, 2, 0, -1, 0);
        run_case(k, 1, 45, 2, 0, -1, 0);
        run_case(k, k->bx + 1, 2 * k->r + 1, 5, 0, -1, 0);
    }
    /* the resident kernel on many tiles (rows and columns of tiles: every frame cell from a
       neighbour, corners included, in batches) at the plan's blocks per SM, many steps */
    run_case(&kernels[0], 1000, light ? 300 : 1200, light ? 7 : 100, 0, 2, 0);
    run_case(&kernels[3], 300, 400, light ? 3 : 20, 0, -1, 0);
    run_case(&kernels[1], 64 * 9 + 7, light ? 300 : 900, light ? 7 : 60, 0, -1, 0);
    /* blocks per SM from the plan (0) and forced to 2 */
    if (!light) {
        run_case(&kernels[0], 1000, 600, 7, 0, -1, 0);
        run_case(&kernels[1], 64 * 3 + 5, 2000, 7, 0, -1, 2);
        run_case(&kernels[0], 3000, 1500, 9, 0, -1, 0);
        run_case(&kernels[3], 700, 500, 9, 0, -1, 0);
        /* partially cached at the plan's blocks per SM: capped, and a domain larger than the
           shared memory of the whole GPU (no cap: AUTO picks hybrid or the steps by itself) */
        run_case(&kernels[0], 1000, 6000, 7, 24, 1, 0);
        run_case(&kernels[3], 700, 3000, 7, 8, 1, 0);
        run_case(&kernels[0], 4096, 3000, 2, 0, 1, 0);
        run_case(&kernels[2], 5000, 3001, 1, 0, 1, 0);
    }
    test_errors();
    test_overlap();
    test_boundary();
    return check_exit();
}
