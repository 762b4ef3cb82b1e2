/* tests/gpu/test_perks_stencil3d.cu -- perks/stencil3d.cuh: after N steps (1, 2, 7, 100) the persistent
 * 3D kernel equals the non-persistent steps of the same generator bit for bit, and both match a CPU
 * reference in double (fp32 < 1e-5, fp64 < 1e-12 relative); fully cached (every plane of every tile in
 * shared memory: the plan says 100%), partially cached (planes per tile capped: 0 < % < 100, the rest
 * streamed), not cached (mode none: 0%), several tiles per block (more tile columns than co-resident
 * blocks); ragged sizes (not multiples of the tile, 1x1x1, thinner than the stencil in each axis);
 * outputs poisoned with NaN first; every error code of the launcher (a and b poisoned with a byte
 * pattern: a refused call writes nothing), a grid that cannot be co-resident refused by perks_launch
 * (never a hang), steps = 0 writes nothing, a and b that overlap refused.  The non-persistent
 * result is checked against the CPU cell by cell within the rounding bound of its steps
 * (reference()). */
#include <perks/stencil3d.cuh>

#include "gpucheck.h"
#include "stencil_ref.h"

/* (name, T, shape, BX, BY, RC) */
PERKS_STENCIL3D_DEFINE(f7, float, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 4, 4>)
PERKS_STENCIL3D_DEFINE(f13, float, ONCHIP_SHAPE_3D13PT, perks_stencil3d_policy<32, 2, 3>)
PERKS_STENCIL3D_DEFINE(d27, double, ONCHIP_SHAPE_3D27PT, perks_stencil3d_policy<64, 2, 2>)
PERKS_STENCIL3D_DEFINE(f125, float, ONCHIP_SHAPE_3D125PT, perks_stencil3d_policy<32, 4, 1>)
PERKS_STENCIL3D_DEFINE(fp19, float, ONCHIP_SHAPE_POISSON, perks_stencil3d_policy<32, 8, 4>)

typedef int (*launch_fn)(const perks_stencil3d_args *, cudaStream_t);
typedef int (*plan_fn)(const perks_stencil3d_args *, perks_plan *);
#define PT(I, DX, DY, DZ) {I, DX, DY, DZ},
static const int pts_f7[][4] = {ONCHIP_SHAPE_3D7PT(PT)};
static const int pts_f13[][4] = {ONCHIP_SHAPE_3D13PT(PT)};
static const int pts_d27[][4] = {ONCHIP_SHAPE_3D27PT(PT)};
static const int pts_f125[][4] = {ONCHIP_SHAPE_3D125PT(PT)};
static const int pts_fp19[][4] = {ONCHIP_SHAPE_POISSON(PT)};

typedef struct kern {
    const char *name;
    launch_fn launch, steps;
    plan_fn plan;
    const int (*pts)[4];
    int npts, r, dbl, bx, by;
} kern;
#define K(n, r, dbl, bx, by) \
    {#n, n##_launch, n##_steps, n##_plan, pts_##n, (int)(sizeof pts_##n / sizeof pts_##n[0]), r, dbl, bx, by}
static const kern kernels[] = {K(f7, 1, 0, 32, 4), K(f13, 2, 0, 32, 2), K(d27, 1, 1, 64, 2), K(f125, 2, 0, 32, 4),
                               K(fp19, 1, 0, 32, 8)};

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
    memset(&a, 0, sizeof a);
    a.a = da; a.b = db; a.width = W; a.height = H; a.depth = D; a.steps = steps;
    a.weights = k->dbl ? (const void *)w : (const void *)wf;
    a.blocks_per_sm = bps; a.smem_planes_max = planes_max;
    /* the non-persistent baseline: outputs poisoned with NaN */
    CUDA_OK(cudaMemcpy(da, h, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(db, 0xff, n * es));
    int rc = k->steps(&a, 0);
    CHECK(rc == 0, "steps: %s", perks_strerror(rc));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(hbase, (steps & 1) ? db : da, n * es, cudaMemcpyDeviceToHost));
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
    static const char *mode[] = {"none", "smem", "reg", "mix"};
    static const int modes[] = {PERKS_CACHE_NONE, PERKS_CACHE_SMEM, PERKS_CACHE_MIX};
    for (int mi = 0; mi < 3 && !check__failed_case; mi++) {
        const int m = modes[mi];
        perks_plan p;
        a.cache = m;
        rc = k->plan(&a, &p);
        CHECK(rc == 0, "%s plan: %s", mode[m], perks_strerror(rc));
        if (rc) break;
        if (m == PERKS_CACHE_NONE) CHECK(p.cached_fraction == 0 && p.smem_rows == 0, "none caches %g", p.cached_fraction);
        if (m != PERKS_CACHE_NONE && want == 2) CHECK(p.resident && p.cached_fraction == 1.0, "%s: cached %g, wanted all", mode[m], p.cached_fraction);
        if (m != PERKS_CACHE_NONE && want == 1)
            CHECK(!p.resident && p.cached_fraction > 0 && p.cached_fraction < 1, "%s: cached %g, wanted part", mode[m], p.cached_fraction);
        if (tpb) CHECK(p.tiles > p.grid, "%d tiles on %d blocks: wanted several a block", p.tiles, p.grid);
        CUDA_OK(cudaMemcpy(da, h, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(db, 0xff, n * es));
        rc = k->launch(&a, 0);
        CHECK(rc == 0, "%s launch: %s", mode[m], perks_strerror(rc));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hout, (steps & 1) ? db : da, n * es, cudaMemcpyDeviceToHost));
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
    case_begin("perks3d stencil: error codes (NULL, sizes, cache mode, workspace, co-residency)");
    float w[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    void *da = NULL, *db = NULL;
    CUDA_OK(cudaMalloc(&da, 16 * 16 * 16 * 4));
    CUDA_OK(cudaMalloc(&db, 16 * 16 * 16 * 4));
    /* a and b poisoned with a byte pattern: every refused launch below leaves both as they are */
    CUDA_OK(cudaMemset(da, 0xA5, 16 * 16 * 16 * 4));
    CUDA_OK(cudaMemset(db, 0xA5, 16 * 16 * 16 * 4));
    perks_stencil3d_args a;
    perks_plan p;
    memset(&a, 0, sizeof a);
    a.a = da; a.b = db; a.width = 16; a.height = 16; a.depth = 16; a.steps = 3; a.weights = w;
    a.cache = PERKS_CACHE_SMEM;
    CHECK(f7_launch(NULL, 0) == PERKS_ENULL, "NULL args");
    CHECK(f7_steps(NULL, 0) == PERKS_ENULL, "NULL args (steps)");
    CHECK(f7_plan(&a, NULL) == PERKS_ENULL, "NULL plan");
    CHECK(f7_plan(NULL, &p) == PERKS_ENULL, "NULL args (plan)");
    a.b = NULL;
    CHECK(f7_launch(&a, 0) == PERKS_ENULL, "NULL b");
    CHECK(f7_steps(&a, 0) == PERKS_ENULL, "NULL b (steps)");
    a.b = db; a.weights = NULL;
    CHECK(f7_launch(&a, 0) == PERKS_ENULL, "NULL weights");
    a.weights = w; a.depth = 0;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "depth 0");
    CHECK(f7_steps(&a, 0) == PERKS_ESIZE, "depth 0 (steps)");
    a.depth = 16; a.width = -3;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "width -3");
    a.width = 16; a.height = 0;
    CHECK(f7_plan(&a, &p) == PERKS_ESIZE, "height 0");
    a.height = 16; a.steps = -1;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "steps -1");
    CHECK(f7_steps(&a, 0) == PERKS_ESIZE, "steps -1 (steps)");
    a.steps = 3; a.cache = 4;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "cache mode 4");
    a.cache = PERKS_CACHE_REG;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "cache mode reg (no register cache in 3D)");
    a.cache = PERKS_CACHE_SMEM; a.smem_planes_max = -1;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "smem_planes_max -1");
    a.smem_planes_max = 0; a.blocks_per_sm = -1;
    CHECK(f7_plan(&a, &p) == PERKS_ESIZE, "blocks_per_sm -1");
    a.blocks_per_sm = 1000;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "1000 blocks per SM");
    a.blocks_per_sm = 0; a.work = db; a.work_bytes = 1;
    CHECK(f7_launch(&a, 0) == PERKS_ESIZE, "workspace too small");
    a.work = NULL; a.work_bytes = 0;
    CHECK(f7_plan(&a, &p) == 0 && p.resident, "16^3 resident");
    /* perks_launch refuses a grid larger than the co-resident blocks (never launches, never hangs) */
    {
        int bps = 0, sms = 0;
        CHECK(perks_occupancy((const void *)f7_kernel, f7_NT, f7_ring_bytes(), &bps, &sms) == 0, "occupancy");
        void *args[1] = {NULL};
        CHECK(perks_launch((const void *)f7_kernel, dim3(bps * sms + 1), dim3(f7_NT), args, f7_ring_bytes(), 0) ==
                  PERKS_ECORESIDENT, "perks_launch of %d blocks", bps * sms + 1);
    }
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(all_bytes(da, 16 * 16 * 16 * 4, 0xA5) && all_bytes(db, 16 * 16 * 16 * 4, 0xA5), "a refused call above wrote a or b");
    /* steps 0: success, nothing written */
    a.steps = 0;
    CUDA_OK(cudaMemset(db, 0x7f, 16 * 16 * 16 * 4));
    CHECK(f7_launch(&a, 0) == 0, "steps 0");
    CHECK(f7_steps(&a, 0) == 0, "steps 0 (steps)");
    {
        static unsigned char hb[16 * 16 * 16 * 4];
        CUDA_OK(cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost));
        int same = 1;
        for (size_t i = 0; i < sizeof hb; i++) same &= hb[i] == 0x7f;
        CHECK(same, "steps 0 wrote b");
    }
    CUDA_OK(cudaGetLastError());
    cudaFree(da);
    cudaFree(db);
    case_end();
}

/* a and b meeting: PERKS_EOVERLAP from name_launch and name_steps before anything is launched (the
 * one buffer under both, poisoned, stays as it was); grids that only touch pass the test (0 steps:
 * nothing to write) */
static void test_overlap(void)
{
    case_begin("perks3d stencil: a and b overlap (PERKS_EOVERLAP, nothing written)");
    enum { W = 16, H = 16, D = 16, CELLS = W * H * D };
    float w[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    const size_t bytes = 2 * CELLS * sizeof(float);
    float *d = NULL;
    CUDA_OK(cudaMalloc(&d, bytes));
    gpucheck_poison(d, bytes);
    perks_stencil3d_args a;
    memset(&a, 0, sizeof a);
    a.a = d; a.b = d; a.width = W; a.height = H; a.depth = D; a.steps = 3; a.weights = w; a.cache = PERKS_CACHE_SMEM;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "a == b");
    CHECK(f7_steps(&a, 0) == PERKS_EOVERLAP, "a == b (steps)");
    a.b = d + CELLS - 1;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "b from a's last cell");
    CHECK(f7_steps(&a, 0) == PERKS_EOVERLAP, "b from a's last cell (steps)");
    a.a = d + W * H; a.b = d;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "a one plane into b");
    a.cache = PERKS_CACHE_NONE;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP, "a one plane into b, nothing cached");
    a.cache = PERKS_CACHE_SMEM; a.a = d; a.b = d; a.steps = 0;
    CHECK(f7_launch(&a, 0) == PERKS_EOVERLAP && f7_steps(&a, 0) == PERKS_EOVERLAP, "a == b, 0 steps");
    a.b = d + CELLS;
    CHECK(f7_launch(&a, 0) == 0 && f7_steps(&a, 0) == 0, "b right after a, 0 steps: %d", f7_launch(&a, 0));
    a.a = d + CELLS; a.b = d;
    CHECK(f7_launch(&a, 0) == 0, "a right after b, 0 steps");
    const long long changed = gpucheck_poison_changed(d, bytes);
    CHECK(changed == 0, "%lld bytes written by refused calls", changed);
    CHECK(strstr(perks_strerror(PERKS_EOVERLAP), "overlap") != NULL, "strerror");
    cudaFree(d);
    case_end();
}

/* the boundary policies: keep-radius and keep-extent (the default 0) the same bits for the 7-point
 * star; the others refused by every entry point, writing nothing */
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
    a.a = d; a.b = d + CELLS; a.width = W; a.height = H; a.depth = D; a.steps = STEPS; a.weights = w;
    a.cache = PERKS_CACHE_SMEM;
    CUDA_OK(cudaMemcpy(d, h, CELLS * 4, cudaMemcpyHostToDevice));
    CHECK(f7_launch(&a, 0) == 0, "keep-extent (0)");
    CUDA_OK(cudaMemcpy(o1, d + CELLS, CELLS * 4, cudaMemcpyDeviceToHost)); /* odd steps: the result in b */
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
        CHECK(f7_launch(&a, 0) == PERKS_EBOUNDARY && f7_steps(&a, 0) == PERKS_EBOUNDARY &&
              f7_plan(&a, &p) == PERKS_EBOUNDARY, "policy %d", others[i]);
    }
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(gpucheck_poison_changed(d + CELLS, CELLS * 4) == 0, "a refused call wrote b");
    CUDA_OK(cudaMemcpy(o1, d, CELLS * 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(o1, h, CELLS * 4) == 0, "a refused call wrote a");
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
