/* tests/gpu/test_perks_stencil3d.cu -- perks/stencil3d.cuh: after N steps (1, 2, 7, 100) the persistent
 * 3D kernel equals the non-persistent steps of the same generator (path PERKS_KERNEL_STEPS) bit for
 * bit, and both match a CPU reference in double (fp32 < 1e-5, fp64 < 1e-12 relative); fully cached
 * (every plane of every tile in shared memory: the plan says 100%, path resident), partially cached
 * (planes per tile capped: 0 < % < 100, the rest streamed), not cached (mode none: 0%), several tiles
 * per block (more tile columns than co-resident blocks); ragged sizes (not multiples of the tile,
 * 1x1x1, thinner than the stencil in each axis); outputs poisoned with NaN first.  The plan's
 * promise on every path: the answer is read from p.result, steps_per_pass x passes = steps, a caller
 * workspace of exactly p.workspace_bytes (a poisoned guard after it) works.  Every error code (src
 * and dst poisoned with a byte pattern: a refused call writes nothing; its plan names why and plans
 * no pass), including a pitch or plane that is not dense and a wrong ncoef; a grid that cannot be
 * co-resident refused by perks_launch (never a hang), steps = 0 writes nothing, src and dst that
 * overlap refused.  The non-persistent result is checked against the CPU cell by cell within the
 * rounding bound of its steps (reference()). */
#include <perks/stencil3d.cuh>

#include <stddef.h>
#include <type_traits>

#include "gpucheck.h"
#include "stencil_ref.h"

static_assert(offsetof(perks_plan, path) == offsetof(onchip_plan, path) &&
                  offsetof(perks_plan, why) == offsetof(onchip_plan, why) &&
                  offsetof(perks_plan, steps_per_pass) == offsetof(onchip_plan, steps_per_pass) &&
                  offsetof(perks_plan, passes) == offsetof(onchip_plan, passes) &&
                  offsetof(perks_plan, workspace_bytes) == offsetof(onchip_plan, workspace_bytes) &&
                  offsetof(perks_plan, result) == offsetof(onchip_plan, result),
              "perks_plan begins with onchip_plan's head");
static_assert(std::is_same<perks_stencil3d_args, onchip_stencil_args>::value, "perks_stencil3d_args");

/* (name, T, shape, BX, BY, RC) */
PERKS_STENCIL3D_DEFINE(f7, float, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 4, 4>)
PERKS_STENCIL3D_DEFINE(f13, float, ONCHIP_SHAPE_3D13PT, perks_stencil3d_policy<32, 2, 3>)
PERKS_STENCIL3D_DEFINE(d27, double, ONCHIP_SHAPE_3D27PT, perks_stencil3d_policy<64, 2, 2>)
PERKS_STENCIL3D_DEFINE(f125, float, ONCHIP_SHAPE_3D125PT, perks_stencil3d_policy<32, 4, 1>)
PERKS_STENCIL3D_DEFINE(fp19, float, ONCHIP_SHAPE_POISSON, perks_stencil3d_policy<32, 8, 4>)

typedef int (*launch_fn)(const perks_stencil3d_args *, cudaStream_t);
typedef int (*plan_fn)(const perks_stencil3d_args *, perks_plan *);
typedef int (*run_fn)(const perks_stencil3d_args *, const perks_plan *, cudaStream_t);
#define PT(I, DX, DY, DZ) {I, DX, DY, DZ},
static const int pts_f7[][4] = {ONCHIP_SHAPE_3D7PT(PT)};
static const int pts_f13[][4] = {ONCHIP_SHAPE_3D13PT(PT)};
static const int pts_d27[][4] = {ONCHIP_SHAPE_3D27PT(PT)};
static const int pts_f125[][4] = {ONCHIP_SHAPE_3D125PT(PT)};
static const int pts_fp19[][4] = {ONCHIP_SHAPE_POISSON(PT)};

typedef struct kern {
    const char *name;
    launch_fn launch;
    plan_fn plan;
    run_fn run;
    const int (*pts)[4];
    int npts, ncoef, r, dbl, bx, by;
} kern;
#define K(n, r, dbl, bx, by) \
    {#n, n##_launch, n##_plan, n##_run, pts_##n, (int)(sizeof pts_##n / sizeof pts_##n[0]), n##_NCOEF, r, dbl, bx, by}
static const kern kernels[] = {K(f7, 1, 0, 32, 4), K(f13, 2, 0, 32, 2), K(d27, 1, 1, 64, 2), K(f125, 2, 0, 32, 4),
                               K(fp19, 1, 0, 32, 8)};

/* name_launch with path PERKS_KERNEL_STEPS: one launch a step */
static int launch_steps(launch_fn f, perks_stencil3d_args a)
{
    a.path = PERKS_KERNEL_STEPS;
    return f(&a, 0);
}

/* a chosen plan's head: why read alike through onchip_plan_head, the steps covered (one pass of all
 * steps, or one a step), the result in src or dst by the parity of the steps */
static void check_head(const perks_plan *p, const perks_stencil3d_args *a, const char *what)
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
    CHECK(p->path == PERKS_PLAN_STEPS || p->path == (p->cached_fraction == 1.0 ? PERKS_PLAN_RESIDENT : PERKS_PLAN_STREAM),
          "%s: path %d with %g cached", what, p->path, p->cached_fraction);
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
static void reference(const double *in, double *out, int W, int H, int D, const kern *k, const double *w, int steps,
                      double *mag)
{
    const size_t n = (size_t)W * H * D;
    double *scratch = (double *)malloc(sizeof(double) * 2 * n);
    /* perks keeps the cells within the radius of a face (stencil_ref.h: ONCHIP_KEEP_RADIUS) */
    ref_stencil_steps(k->pts, k->npts, w, in, steps, out, mag, scratch, n, 3, W, H, D, W, (long long)W * H,
                      SREF_KEEP_RADIUS);
    free(scratch);
}

/* want: the plan's cached fraction in mode SMEM: 2 = 1.0 (resident), 1 = in (0, 1), -1 unchecked;
 * tpb: 1 = check that some block takes several tiles */
static void run_case(const kern *k, int W, int H, int D, int steps, int planes_max, int want, int bps, int tpb)
{
    enum { GUARD = 4096 }; /* poisoned bytes after a caller workspace */
    char name[200];
    snprintf(name, sizeof name, "perks3d %s %dx%dx%d steps %d%s%s%s", k->name, W, H, D, steps,
             planes_max ? " (cache capped)" : "", want == 2 ? " fully cached" : want == 1 ? " partially cached" : "",
             tpb ? " (several tiles a block)" : "");
    case_begin(name);
    size_t n = (size_t)W * H * D, es = k->dbl ? 8 : 4;
    double *in = (double *)malloc(n * 8), *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8), w[128];
    void *h = malloc(n * es), *hbase = malloc(n * es), *hout = malloc(n * es);
    float wf[128];
    double wsum = 0;
    for (int i = 0; i < k->npts; i++) { w[i] = 0.5 + 0.5 * (gpucheck_uniform() + 1); wsum += w[i]; }
    for (int i = 0; i < k->npts; i++) { w[i] /= wsum; wf[i] = (float)w[i]; if (!k->dbl) w[i] = wf[i]; }
    for (size_t i = 0; i < n; i++) {
        float v = gpucheck_uniform();
        in[i] = v;
        if (k->dbl) ((double *)h)[i] = v; else ((float *)h)[i] = v;
    }
    reference(in, ref, W, H, D, k, w, steps, mag);
    void *da, *db;
    CUDA_OK(cudaMalloc(&da, n * es));
    CUDA_OK(cudaMalloc(&db, n * es));
    perks_stencil3d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.nx = W; a.ny = H; a.nz = D; a.steps = steps;
    a.coef = k->dbl ? (const void *)w : (const void *)wf; a.ncoef = k->ncoef;
    a.blocks_per_sm = bps; a.cache_rows_max = planes_max;
    /* the non-persistent baseline (path PERKS_KERNEL_STEPS, plan then run): outputs poisoned with NaN */
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
    a.path = PERKS_KERNEL_AUTO;
    {
        size_t bad = 0;
        double num = 0, den = 0;
        for (size_t i = 0; i < n; i++) {
            double v = k->dbl ? ((double *)hbase)[i] : ((float *)hbase)[i];
            if (!isfinite(v)) { bad++; continue; }
            num += (v - ref[i]) * (v - ref[i]);
            den += ref[i] * ref[i];
        }
        double err = den > 0 ? sqrt(num / den) : sqrt(num);
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
    /* none and mix: name_launch (its own workspace); smem: plan, then run with a caller workspace of
       exactly p.workspace_bytes and a poisoned guard after it */
    static const char *mode[] = {"none", "smem", "reg", "mix"};
    static const int modes[] = {PERKS_CACHE_NONE, PERKS_CACHE_SMEM, PERKS_CACHE_MIX};
    for (int mi = 0; mi < 3 && !check__failed_case; mi++) {
        const int m = modes[mi];
        a.cache = m;
        rc = k->plan(&a, &p);
        CHECK(rc == 0, "%s plan: %s", mode[m], perks_strerror(rc));
        if (rc) break;
        check_head(&p, &a, mode[m]);
        if (m == PERKS_CACHE_NONE)
            CHECK(p.cached_fraction == 0 && p.smem_rows == 0 && p.workspace_bytes == 0, "none caches %g", p.cached_fraction);
        if (m != PERKS_CACHE_NONE && want == 2) CHECK(p.path == PERKS_PLAN_RESIDENT && p.cached_fraction == 1.0, "%s: cached %g, wanted all", mode[m], p.cached_fraction);
        if (m != PERKS_CACHE_NONE && want == 1)
            CHECK(p.path == PERKS_PLAN_STREAM && p.cached_fraction > 0 && p.cached_fraction < 1, "%s: cached %g, wanted part", mode[m], p.cached_fraction);
        if (tpb) CHECK(p.tiles > p.grid, "%d tiles on %d blocks: wanted several a block", p.tiles, p.grid);
        CUDA_OK(cudaMemcpy(da, h, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(db, 0xff, n * es));
        if (m != PERKS_CACHE_SMEM) {
            rc = k->launch(&a, 0);
            CHECK(rc == 0, "%s launch: %s", mode[m], perks_strerror(rc));
        } else {
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
        CHECK(diff == 0, "%s (cached %.3f, %d tiles of %d planes on %d blocks, %d cached a tile): %zu cells differ from "
              "the non-persistent result, first (%zu, %zu, %zu)", mode[m], p.cached_fraction, p.tiles, p.tile_len, p.grid,
              p.smem_rows, diff, first % W, first / W % H, first / ((size_t)W * H));
    }
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
    case_begin("perks3d stencil: error codes (NULL, sizes, layout, ncoef, cache mode, path, workspace, co-residency)");
    float w[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    void *da = NULL, *db = NULL;
    CUDA_OK(cudaMalloc(&da, 16 * 16 * 16 * 4));
    CUDA_OK(cudaMalloc(&db, 16 * 16 * 16 * 4));
    /* src and dst poisoned with a byte pattern: every refused call below leaves both as they are */
    CUDA_OK(cudaMemset(da, 0xA5, 16 * 16 * 16 * 4));
    CUDA_OK(cudaMemset(db, 0xA5, 16 * 16 * 16 * 4));
    perks_stencil3d_args a, b;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = da; a.dst = db; a.nx = 16; a.ny = 16; a.nz = 16; a.steps = 3; a.coef = w; a.ncoef = f7_NCOEF;
    a.cache = PERKS_CACHE_SMEM;
    /* each refusal: from name_plan (the code, why, no pass), name_launch, the steps path, and
     * name_run of the refused plan (it runs nothing) */
#define REFUSED(args, code, what)                                                                   \
    do {                                                                                            \
        check_refused(f7_plan(&(args), &p), code, &p, what);                                        \
        CHECK(f7_run(&(args), &p, 0) == 0, "%s: the refused plan's run", what);                     \
        CHECK(f7_launch(&(args), 0) == (code), "%s (launch)", what);                                \
        CHECK(launch_steps(f7_launch, args) == (code), "%s (steps)", what);                         \
    } while (0)
    CHECK(f7_launch(NULL, 0) == PERKS_ENULL, "NULL args");
    CHECK(f7_plan(&a, NULL) == PERKS_ENULL, "NULL plan");
    check_refused(f7_plan(NULL, &p), PERKS_ENULL, &p, "NULL args (plan)");
    CHECK(f7_run(NULL, &p, 0) == PERKS_ENULL && f7_run(&a, NULL, 0) == PERKS_ENULL, "NULL run");
    b = a; b.src = NULL; REFUSED(b, PERKS_ENULL, "NULL src");
    b = a; b.dst = NULL; REFUSED(b, PERKS_ENULL, "NULL dst");
    b = a; b.coef = NULL; REFUSED(b, PERKS_ENULL, "NULL coef");
    b = a; b.nz = 0; REFUSED(b, PERKS_ESIZE, "nz 0");
    b = a; b.nx = -3; REFUSED(b, PERKS_ESIZE, "nx -3");
    b = a; b.ny = 0; REFUSED(b, PERKS_ESIZE, "ny 0");
    b = a; b.steps = -1; REFUSED(b, PERKS_ESIZE, "steps -1");
    /* perks is dense: pitch 0 or nx, plane 0 or nx * ny */
    b = a; b.pitch = 32; REFUSED(b, PERKS_ESIZE, "pitch 32 for nx 16");
    b = a; b.plane = 16 * 17; REFUSED(b, PERKS_ESIZE, "plane 272 for 16 x 16");
    b = a; b.plane = 16 * 16 * 2; REFUSED(b, PERKS_ESIZE, "plane 512 for 16 x 16");
    b = a; b.ncoef = 6; REFUSED(b, PERKS_ESIZE, "ncoef 6 for 7 coefficients");
    b = a; b.ncoef = 8; REFUSED(b, PERKS_ESIZE, "ncoef 8 for 7 coefficients");
    b = a; b.cache = 4; REFUSED(b, PERKS_ESIZE, "cache mode 4");
    b = a; b.cache = PERKS_CACHE_REG; REFUSED(b, PERKS_ESIZE, "cache mode reg (no register cache in 3D)");
    b = a; b.cache_rows_max = -1; REFUSED(b, PERKS_ESIZE, "cache_rows_max -1");
    b = a; b.blocks_per_sm = -1; REFUSED(b, PERKS_ESIZE, "blocks_per_sm -1");
    static const int bad_paths[] = {PERKS_KERNEL_STREAM, PERKS_KERNEL_RESIDENT, PERKS_KERNEL_HYBRID, 5, -1};
    for (int i = 0; i < 5; i++) {
        b = a; b.path = bad_paths[i];
        check_refused(f7_plan(&b, &p), PERKS_ESIZE, &p, "a 3D path other than AUTO or STEPS");
        CHECK(f7_launch(&b, 0) == PERKS_ESIZE, "path %d (launch)", bad_paths[i]);
    }
    /* the dense values themselves */
    b = a; b.pitch = 16; b.plane = 16 * 16;
    CHECK(f7_plan(&b, &p) == 0 && p.passes == 1, "pitch nx, plane nx * ny: %s", p.why);
    a.blocks_per_sm = 1000;
    check_refused(f7_plan(&a, &p), PERKS_ESIZE, &p, "1000 blocks per SM");
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "1000 blocks per SM (launch)");
    a.blocks_per_sm = 0;
    CHECK(f7_plan(&a, &p) == 0 && p.path == PERKS_PLAN_RESIDENT && p.workspace_bytes > 1, "16^3 resident, workspace %zu",
          p.workspace_bytes);
    check_head(&p, &a, "16^3 resident");
    a.work = db; a.work_bytes = p.workspace_bytes - 1;
    check_refused(f7_plan(&a, &p), PERKS_ESIZE, &p, "workspace one byte short");
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "workspace one byte short (launch)");
    b = a; b.path = PERKS_KERNEL_STEPS; /* the steps path takes none */
    CHECK(f7_plan(&b, &p) == 0 && p.workspace_bytes == 0, "steps path with a short workspace: %s", p.why);
    b = a; b.cache = PERKS_CACHE_NONE; /* nothing cached: no edge buffers */
    CHECK(f7_plan(&b, &p) == 0 && p.workspace_bytes == 0, "cache none with a short workspace: %s", p.why);
    a.work = NULL; a.work_bytes = 0;
    /* perks_launch refuses a grid larger than the co-resident blocks (never launches, never hangs) */
    {
        int bps = 0, sms = 0;
        CHECK(perks_occupancy((const void *)f7_kernel, f7_NT, f7_ring_bytes(), &bps, &sms) == 0, "occupancy");
        void *args[1] = {NULL};
        CHECK(perks_launch((const void *)f7_kernel, dim3(bps * sms + 1), dim3(f7_NT), args, f7_ring_bytes(), 0) ==
                  PERKS_ECORESIDENT, "perks_launch of %d blocks", bps * sms + 1);
    }
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(all_bytes(da, 16 * 16 * 16 * 4, 0xA5) && all_bytes(db, 16 * 16 * 16 * 4, 0xA5), "a refused call above wrote src or dst");
    /* steps 0: success, nothing launched, the result is src, on both paths */
    a.steps = 0;
    CUDA_OK(cudaMemset(db, 0x7f, 16 * 16 * 16 * 4));
    for (int i = 0; i < 2; i++) {
        a.path = i ? PERKS_KERNEL_STEPS : PERKS_KERNEL_AUTO;
        CHECK(f7_plan(&a, &p) == 0 && p.passes == 0 && p.result == da && p.workspace_bytes == 0, "steps 0, path %d", a.path);
        check_head(&p, &a, "steps 0");
        CHECK(f7_run(&a, &p, 0) == 0 && f7_launch(&a, 0) == 0, "steps 0, path %d: run", a.path);
    }
    a.path = PERKS_KERNEL_AUTO;
    {
        static unsigned char hb[16 * 16 * 16 * 4];
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

/* src and dst meeting: PERKS_EOVERLAP from name_plan (so from name_launch, on both paths) before
 * anything is launched (the one buffer under both, poisoned, stays as it was); grids that only touch
 * pass the test (0 steps: nothing to write) */
static void test_overlap(void)
{
    case_begin("perks3d stencil: src and dst overlap (PERKS_EOVERLAP, nothing written)");
    enum { W = 16, H = 16, D = 16, CELLS = W * H * D };
    float w[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    const size_t bytes = 2 * CELLS * sizeof(float);
    float *d = NULL;
    CUDA_OK(cudaMalloc(&d, bytes));
    gpucheck_poison(d, bytes);
    perks_stencil3d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d; a.nx = W; a.ny = H; a.nz = D; a.steps = 3; a.coef = w; a.ncoef = f7_NCOEF;
    a.cache = PERKS_CACHE_SMEM;
    check_refused(f7_plan(&a, &p), PERKS_EOVERLAP, &p, "src == dst");
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "src == dst");
    CHECK(launch_steps(f7_launch, a) == PERKS_EOVERLAP, "src == dst (steps)");
    a.dst = d + CELLS - 1;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "dst from src's last cell");
    CHECK(launch_steps(f7_launch, a) == PERKS_EOVERLAP, "dst from src's last cell (steps)");
    a.src = d + W * H; a.dst = d;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "src one plane into dst");
    a.cache = PERKS_CACHE_NONE;
    check_refused(f7_plan(&a, &p), PERKS_EOVERLAP, &p, "src one plane into dst, nothing cached");
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "src one plane into dst, nothing cached");
    a.cache = PERKS_CACHE_SMEM; a.src = d; a.dst = d; a.steps = 0;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP && launch_steps(f7_launch, a) == PERKS_EOVERLAP, "src == dst, 0 steps");
    a.dst = d + CELLS;
    CHECK(f7_launch(&a, 0) == 0 && launch_steps(f7_launch, a) == 0, "dst right after src, 0 steps: %d", f7_launch(&a, 0));
    a.src = d + CELLS; a.dst = d;
    CHECK(f7_launch(&a, 0) == 0, "src right after dst, 0 steps");
    const long long changed = gpucheck_poison_changed(d, bytes);
    CHECK(changed == 0, "%lld bytes written by refused calls", changed);
    CHECK(strstr(perks_strerror(PERKS_EOVERLAP), "overlap") != NULL, "strerror");
    cudaFree(d);
    case_end();
}

/* the boundary policies: keep-radius and keep-extent (the default 0) the same bits for the 7-point
 * star; the others refused on both paths, writing nothing */
static void test_boundary(void)
{
    case_begin("perks stencil3d boundary policies: keep-radius as keep-extent, PERKS_EBOUNDARY");
    enum { W = 40, H = 20, D = 18, CELLS = W * H * D, STEPS = 3 };
    float w[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    float *h = (float *)malloc(CELLS * 4), *o1 = (float *)malloc(CELLS * 4), *o2 = (float *)malloc(CELLS * 4);
    for (int i = 0; i < CELLS; i++) h[i] = gpucheck_uniform();
    float *d = NULL;
    CUDA_OK(cudaMalloc(&d, 2 * (size_t)CELLS * 4));
    perks_stencil3d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + CELLS; a.nx = W; a.ny = H; a.nz = D; a.steps = STEPS; a.coef = w; a.ncoef = f7_NCOEF;
    a.cache = PERKS_CACHE_SMEM;
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(f7_launch(&a, 0) == 0, "keep-extent (0)");
    CUDA_OK(cudaMemcpy(o1, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost)); /* odd steps: the result in dst */
    a.boundary = ONCHIP_KEEP_RADIUS;
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(f7_launch(&a, 0) == 0, "keep-radius");
    CUDA_OK(cudaMemcpy(o2, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(o1, o2, CELLS * 4) == 0, "keep-radius and keep-extent differ for the 7-point star");
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    gpucheck_poison(d + CELLS, CELLS * 4);
    static const int others[] = {ONCHIP_PERIODIC, ONCHIP_ZERO_OUTSIDE, -1, 40};
    for (int i = 0; i < 4; i++) {
        a.boundary = others[i];
        CHECK(f7_launch(&a, 0) == PERKS_EBOUNDARY && launch_steps(f7_launch, a) == PERKS_EBOUNDARY, "policy %d", others[i]);
        check_refused(f7_plan(&a, &p), PERKS_EBOUNDARY, &p, "policy");
    }
    a.boundary = ONCHIP_KEEP_RADIUS;
    a.update = ONCHIP_UPDATE_LEAPFROG; /* the model's updates and fields: refused, nothing written */
    CHECK(f7_launch(&a, 0) == PERKS_EUPDATE, "a leapfrog update");
    check_refused(f7_plan(&a, &p), PERKS_EUPDATE, &p, "a leapfrog update");
    a.update = ONCHIP_UPDATE_SUM;
    a.field[ONCHIP_FIELD_SCALE].p = d;
    CHECK(f7_launch(&a, 0) == PERKS_EUPDATE, "a coefficient field");
    check_refused(f7_plan(&a, &p), PERKS_EUPDATE, &p, "a coefficient field");
    a.field[ONCHIP_FIELD_SCALE].p = NULL;
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(gpucheck_poison_changed(d + CELLS, CELLS * 4) == 0, "a refused call wrote dst");
    CUDA_OK(cudaMemcpy(o1, d, CELLS * 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(o1, h, CELLS * 4) == 0, "a refused call wrote src");
    cudaFree(d);
    free(h), free(o1), free(o2);
    case_end();
}

int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const int nk = (int)(sizeof kernels / sizeof kernels[0]);
    static const int steps_full[] = {1, 2, 7, 100}, steps_light[] = {1, 2, 7};
    const int *st = light ? steps_light : steps_full, nst = light ? 3 : 4;
    /* a kernel: nst step counts + 1 partially cached + 5 tiny; several tiles a block 1 (3 without
     * --light); 3 larger domains without --light; test_errors, test_overlap */
    check_plan(nk * (nst + 1 + 5) + (light ? 1 : 3) + (light ? 0 : 3) + 1 + 1 + 1); /* ..., test_boundary */
    for (int i = 0; i < nk; i++) {
        const kern *k = &kernels[i];
        /* ragged in every axis: fully cached at the plan's default */
        int W = 3 * k->bx + 5, H = 7 * k->by + 3, D = light ? 13 : 37;
        for (int s = 0; s < nst; s++) {
            if (st[s] == 100) run_case(k, W / 2 + 1, H / 2 + 1, 19, 100, 0, 2, 0, 0);
            else run_case(k, W, H, D, st[s], 0, 2, 0, 0);
        }
        /* partially cached: 3 planes a tile, the rest streamed; 1 block per SM, slabs */
        run_case(k, W, H, light ? 21 : 45, light ? 2 : 7, 3, 1, 1, 0);
        /* tiny and ragged: 1x1x1, thinner than the stencil, one row, one column, one plane */
        run_case(k, 1, 1, 1, 3, 0, -1, 0, 0);
        run_case(k, 2 * k->r, 5, 2 * k->r + 1, 3, 0, -1, 0, 0);
        run_case(k, 97, 1, 1, 2, 0, -1, 0, 0);
        run_case(k, 1, 1, 45, 2, 0, -1, 0, 0);
        run_case(k, k->bx + 1, k->by + 1, 2 * k->r + 1, 5, 0, -1, 0, 0);
    }
    /* several tiles a block: more tile columns (x, y) than co-resident blocks, 1 block per SM, fully
       and partially cached */
    {
        int sms = 0;
        CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        const kern *k = &kernels[0];
        int tx = 12, ty = (sms + 12) / 12 + 1; /* > sms tile columns */
        run_case(k, tx * k->bx - 3, ty * k->by - 1, light ? 5 : 9, light ? 2 : 7, 0, 2, 1, 1);
        if (!light) run_case(k, tx * k->bx - 3, ty * k->by - 1, 30, 7, 2, 1, 1, 1);
        k = &kernels[2];
        if (!light) run_case(k, 6 * k->bx + 1, ((sms + 5) / 6 + 2) * k->by, 11, 7, 0, -1, 1, 1);
    }
    if (!light) {
        /* the plan's default blocks per SM and 2, larger domains */
        run_case(&kernels[0], 300, 200, 60, 9, 0, 2, 0, 0);
        run_case(&kernels[0], 300, 200, 60, 9, 0, 2, 2, 0);
        run_case(&kernels[2], 200, 100, 50, 9, 0, -1, 0, 0);
    }
    test_errors();
    test_overlap();
    test_boundary();
    return check_exit();
}
