#include <onchip/names_push.h>
/* perks/cg/plan.cuh -- the CG planner and launcher (host): which path, how many blocks, which cache
 * tier, the row split, the workspace; one launch per solve (perks/cg.cuh, THE GRID PATH, THE
 * CLUSTER PATH, PARAMETERS AND LIMITS).
 *
 * WHAT (docs/perks-cg.md#design-notes-perkscgplancuh)
 *   perks__cg_plan_make(p, kernel, kernel1, ckernel, elt, block, n, nnz, d_rp, d_ci, d_va, opts)
 *                          name_plan of PERKS_CG_DEFINE: the cluster path when asked for or (auto)
 *                          when the system fits one cluster, else the grid or stream path
 *   perks_cg_run(p, d_b, d_x, stream)      one solve, asynchronous (the true residual after it)
 *   perks_cg_plan_free(p)
 *   and the planner's steps (perks__cg_split, _lanes, _plan_cluster, _plan_grid, ...).
 *
 * EXAMPLE
 *   [not compiled: name_plan stands for a PERKS_CG_DEFINE instance]
 *   perks_cg_plan p;
 *   int rc = name_plan(&p, n, nnz, d_rp, d_ci, d_va, &o);     // perks__cg_plan_make with name's kernels
 *   if (!rc) rc = perks_cg_run(&p, d_b, d_x, stream);
 *   if (!rc) rc = perks_cg_wait(&p, &res);                     // perks/cg/refine.cuh
 *   perks_cg_plan_free(&p);
 *
 * LIMITS: perks/cg.cuh (PARAMETERS AND LIMITS).  Errors are codes, nothing is printed.  The plan
 * copies row_ptr to the host once.
 */
#ifndef PERKS_CG_PLAN_CUH
#define PERKS_CG_PLAN_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#endif

#include <onchip/device.cuh>
#include "../barrier.cuh"
#include "../base.h"
#include "../grid.cuh"
#include "resid.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it */
static inline void perks_cg_plan_free(perks_cg_plan *p)
{
    if (!p) return;
    if (p->ws) cudaFree(p->ws);
    if (p->rpart) cudaFree(p->rpart);
    if (p->sell) cudaFree(p->sell);
    memset(p, 0, sizeof *p);
}

static inline size_t perks__cg_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* the plans perks_cg_wait refines (double, Chronopoulos-Gear), and their buffers' bytes */
static inline int perks__cg_refines(int elt, int variant) { return elt == 8 || variant == PERKS_CG_CGEAR; }
static inline size_t perks__cg_refine_bytes(int elt, int n)
{
    return perks__cg_align((size_t)8 * n) + 2 * perks__cg_align((size_t)elt * n);
}

/* first row of block b: the smallest row i with i + row_ptr[i] >= b (n + nnz) / G */
static inline int perks__cg_split_row(const int *rp, int n, long long target)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((long long)mid + rp[mid] < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* G parts of even rows + nonzeros, each starting at a multiple of align; the largest's sizes */
static inline void perks__cg_split(const int *rp, int n, long long nnz, int G, int align, int *split, long long *maxr,
                                   long long *maxk)
{
    int b;
    split[0] = 0;
    split[G] = n;
    *maxr = *maxk = 0;
    for (b = 1; b < G; b++) {
        split[b] = perks__cg_split_row(rp, n, ((long long)n + nnz) * b / G);
        split[b] -= split[b] % align;
    }
    for (b = 0; b < G; b++) {
        long long r = split[b + 1] - split[b], k = (long long)rp[split[b + 1]] - rp[split[b]];
        if (r > *maxr) *maxr = r;
        if (k > *maxk) *maxk = k;
    }
}

/* lanes per row: the least power of two giving at most per_lane nonzeros per lane on average */
static inline int perks__cg_lanes(int n, long long nnz, int per_lane)
{
    double mean = (double)nnz / n;
    int W = 1;
    while (W < 32 && W * per_lane < mean) W *= 2;
    return W;
}

static inline void perks__cg_set_common(perks_cg_plan *p, int n, long long nnz, int elt, const perks_cg_opts *o,
                                        const int *d_rp, const int *d_ci, const void *d_va)
{
    p->n = n;
    p->nnz = nnz;
    p->elt = elt;
    p->opts = *o;
    p->args.n = n;
    p->args.cache = p->cached;
    p->args.jacobi = o->jacobi ? 1 : 0;
    p->args.use_x0 = o->x0 ? 1 : 0;
    p->args.max_iter = o->max_iter;
    p->args.tol = o->tol;
    /* replacement (classic CG): at convergence, periodic or reliable updates (docs/perks-cg.md#design-notes) */
    {
        const int classic = p->variant == PERKS_CG_CLASSIC && o->replace != 0;
        const double d = classic && o->replace_delta > 0 ? o->replace_delta : 0;
        p->args.rper = classic && o->replace > 0 ? o->replace : 0;
        p->args.rdelta2 = d * d;
        p->args.rconv = classic;
    }
    p->args.rp = d_rp;
    p->args.ci = d_ci;
    p->args.va = d_va;
}

/* a launch of one cluster of C blocks of PERKS_CG_CBLOCK threads */
static inline void perks__cg_cluster_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *at, int C, size_t smem,
                                            cudaStream_t stream)
{
    cfg->gridDim = dim3(C);
    cfg->blockDim = dim3(PERKS_CG_CBLOCK);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = stream;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = C;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg->attrs = at;
    cfg->numAttrs = 1;
}

/* the cluster path, or why not (PERKS_EUNSUPPORTED: no sm_90; PERKS_ERESOURCE: does not fit) */
static inline int perks__cg_plan_cluster(perks_cg_plan *p, const void *ckernel, int elt, int n, long long nnz,
                                         const int *rp, const perks_cg_opts *o, int is_auto)
{
    int major = 0, optin = 0, want, C = 0, tier, cmax = PERKS_CG_CMAX, split[PERKS_CG_CMAX + 1];
    long long maxr = 0, maxk = 0;
    size_t need = 0, total, off;
    struct cudaFuncAttributes fa;
    onchip_device_attrs da;
    char *ws;
    if (onchip_device_current(NULL, &da) != cudaSuccess) return PERKS_ECUDA;
    major = da.cc_major, optin = da.smem_optin;
    if (major < 9) return PERKS_EUNSUPPORTED;
    if (cudaFuncGetAttributes(&fa, ckernel) != cudaSuccess) return PERKS_ECUDA;
    if (fa.ptxVersion < 90 || fa.binaryVersion < 90) return PERKS_EUNSUPPORTED; /* built without sm_90 */
    if (cudaFuncSetAttribute(ckernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
        (void)cudaGetLastError();
        cmax = 8;
    }
    /* auto: only with the matrix in shared memory too (why: docs/perks-cg.md#design-notes) */
    tier = is_auto ? 2 : 0;
    want = 1;
    while (want < cmax && (long long)want * PERKS_CG_CLUSTER_WORK < (long long)n + nnz) want *= 2;
    if (o->cluster) want = o->cluster;
    /* the matrix in shared memory at the least cluster size that holds it; else vectors only */
    for (int t = 2; t >= 1 && !C; t--) {
        if (t < tier || (t == 2 && !o->cache)) continue;
        for (int c = want; c <= (o->cluster ? want : cmax) && !C; c = c < 2 ? 2 : 2 * c) {
            int ncl = 0;
            if (c > cmax) break;
            perks__cg_split(rp, n, nnz, c, 1, split, &maxr, &maxk);
            if (maxr >= (1LL << 24)) continue;
            need = (size_t)elt * ((size_t)4 * maxr + (size_t)(o->jacobi ? 4 : 3) * maxr);
            if (t == 2) need += (size_t)maxk * (elt + 4) + (size_t)(maxr + 1) * 4;
            if (need + fa.sharedSizeBytes > (size_t)optin) continue; /* static shared memory counts too */
            if (onchip_smem_allow(ckernel, need) != cudaSuccess) return PERKS_ECUDA;
            {
                cudaLaunchConfig_t cfg = {};
                cudaLaunchAttribute at[1] = {};
                perks__cg_cluster_config(&cfg, at, c, need, 0);
                if (cudaOccupancyMaxActiveClusters(&ncl, ckernel, &cfg) != cudaSuccess) {
                    (void)cudaGetLastError();
                    ncl = 0;
                }
            }
            if (ncl >= 1) {
                C = c;
                p->cached = t;
            }
        }
    }
    if (!C) return PERKS_ERESOURCE;
    /* workspace: out, split, the encoded columns (matrix in device memory) */
    total = perks__cg_align(sizeof(perks__cg_out)) + perks__cg_align(sizeof(int) * (PERKS_CG_CMAX + 1)) +
            (p->cached == 1 ? perks__cg_align(sizeof(int) * (size_t)(nnz ? nnz : 1)) : 0);
    if (cudaMalloc(&p->ws, total) != cudaSuccess) {
        p->ws = NULL;
        return PERKS_ECUDA;
    }
    ws = (char *)p->ws;
    p->args.out = (perks__cg_out *)ws;
    off = perks__cg_align(sizeof(perks__cg_out));
    p->args.split = (const int *)(ws + off);
    if (cudaMemcpy(ws + off, split, sizeof(int) * ((size_t)C + 1), cudaMemcpyHostToDevice) != cudaSuccess) {
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    off += perks__cg_align(sizeof(int) * (PERKS_CG_CMAX + 1));
    p->args.cenc = p->cached == 1 ? (int *)(ws + off) : NULL;
    p->path = PERKS_CG_PATH_CLUSTER;
    p->barrier = 0;
    p->blocks = C;
    p->block = PERKS_CG_CBLOCK;
    p->sub = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE);
    p->smem = need;
    p->kernel = ckernel;
    p->args.sub = p->sub;
    p->args.nrmax = (int)maxr;
    p->args.bmode = 0;
    return PERKS_SUCCESS;
}

/* the grid path's block split and what its cache tiers need (perks__cg_plan_grid's steps) */
typedef struct perks__cg_grid_fit {
    int *split;           /* G + 1 row boundaries (malloc'd) */
    long long maxr, maxk; /* the most rows, nonzeros of a block */
    size_t need1, need2;  /* shared memory of cache tier 1 (vectors), tier 2 (and the matrix slice) */
    size_t avail;         /* shared memory a block has at G blocks */
} perks__cg_grid_fit;

/* grid path, the blocks: o->blocks or one per PERKS_CG_WORK_PER_BLOCK rows + nonzeros, within
 * the co-resident count, n and 1 */
static inline int perks__cg_grid_count(const void *kernel, int block, int n, long long nnz, const perks_cg_opts *o,
                                       int *G_out, int *sms)
{
    int bps0, Gmax, G;
    const int rc = perks_occupancy(kernel, block, 0, &bps0, sms);
    if (rc) return rc;
    Gmax = bps0 * *sms;
    if (o->blocks) G = o->blocks < Gmax ? o->blocks : Gmax;
    else {
        long long g = ((long long)n + nnz + PERKS_CG_WORK_PER_BLOCK - 1) / PERKS_CG_WORK_PER_BLOCK;
        G = g < Gmax ? (int)g : Gmax;
    }
    /* the flag barrier reads PERKS_FLAG_U slots per thread: at most that many blocks per thread */
    if (!o->blocks && o->barrier == PERKS_CG_BAR_FLAG && G > PERKS_FLAG_U * block) G = PERKS_FLAG_U * block;
    if (G > n) G = n;
    if (G < 1) G = 1;
    *G_out = G;
    return PERKS_SUCCESS;
}

/* grid path, the row split over *G blocks and the tiers' sizes; on chip at PERKS_CG_ONCHIP_BPS
 * blocks per SM, *G becomes that count (docs/perks-cg.md#design-notes) */
static inline int perks__cg_grid_split(const int *rp, int n, long long nnz, int elt, int nv, int sell, int sms,
                                       const perks_cg_opts *o, int *G, perks__cg_grid_fit *f)
{
    int smem_sm, optin, G2;
    {
        onchip_device_attrs da;
        if (onchip_device_current(NULL, &da) != cudaSuccess) return PERKS_ECUDA;
        smem_sm = da.smem_per_sm, optin = da.smem_optin;
    }
    G2 = (!o->blocks && o->cache && *G > PERKS_CG_ONCHIP_BPS * sms) ? PERKS_CG_ONCHIP_BPS * sms : 0;
    for (;;) {
        const int Gt = G2 ? G2 : *G;
        f->split = (int *)malloc(sizeof(int) * ((size_t)Gt + 1));
        if (!f->split) return PERKS_ENOMEM;
        perks__cg_split(rp, n, nnz, Gt, sell ? PERKS_CG_SELL_C : 1, f->split, &f->maxr, &f->maxk);
        /* the on-chip cache tier that fits the shared memory left per block */
        f->need1 = (size_t)nv * f->maxr * elt;
        f->need2 = f->need1 + (size_t)f->maxk * (elt + 4) + (size_t)(f->maxr + 1) * 4;
        {
            int per_sm = (Gt + sms - 1) / sms;
            f->avail = (size_t)smem_sm / per_sm;
            f->avail = f->avail > 2048 ? f->avail - 2048 : 0; /* static shared memory and the per-block reserve */
            if (f->avail > (size_t)optin) f->avail = (size_t)optin;
        }
        if (G2 && f->need2 > f->avail) { /* not on chip at the capped count: all the blocks */
            free(f->split);
            f->split = NULL;
            G2 = 0;
            continue;
        }
        *G = Gt;
        return PERKS_SUCCESS;
    }
}

/* grid path, the barrier: count unless asked otherwise (docs/perks-cg.md#design-notes); flag needs
 * G <= PERKS_FLAG_U BLOCK (asked for: PERKS_ESIZE, else grid.sync) */
static inline int perks__cg_grid_barrier(const perks_cg_opts *o, int cgear, int G, int block, int *bmode_out)
{
    int bmode = o->barrier ? o->barrier : o->sum_barrier ? PERKS_CG_BAR_SUM : PERKS_CG_BAR_COUNT;
    if (cgear && bmode != PERKS_CG_BAR_COUNT) bmode = PERKS_CG_BAR_GRID;
    if (bmode == PERKS_CG_BAR_FLAG && G > PERKS_FLAG_U * block) {
        if (o->barrier == PERKS_CG_BAR_FLAG) return PERKS_ESIZE;
        bmode = PERKS_CG_BAR_GRID;
    }
    *bmode_out = bmode;
    return PERKS_SUCCESS;
}

/* grid path, the cache tier (p->cached, p->smem): the largest that fits and leaves G blocks
 * co-resident */
static inline int perks__cg_grid_tier(perks_cg_plan *p, const void *kernel, int block, int G, int sell, int *sms,
                                      const perks_cg_opts *o, const perks__cg_grid_fit *f)
{
    int rc, bps;
    p->cached = 0;
    p->smem = 0;
    if (o->cache && !sell) {
        if (f->need2 <= f->avail) {
            p->cached = 2;
            p->smem = f->need2;
        } else if (f->need1 <= f->avail) {
            p->cached = 1;
            p->smem = f->need1;
        }
    }
    for (;;) { /* the tier must leave G blocks co-resident; fall back otherwise */
        rc = perks_occupancy(kernel, block, p->smem, &bps, sms);
        if (rc == PERKS_SUCCESS && (long long)bps * *sms >= G) return PERKS_SUCCESS;
        if (p->cached == 0) return rc ? rc : PERKS_ECORESIDENT;
        p->cached--;
        p->smem = p->cached == 1 ? f->need1 : 0;
    }
}

/* grid path, the workspace: the vectors (Chronopoulos-Gear: two quad buffers and p), partials 8 G,
 * out, split, barrier words */
static inline int perks__cg_grid_workspace(perks_cg_plan *p, int n, int elt, int G, int cgear, const int *split)
{
    const size_t vec = perks__cg_align((size_t)n * elt);
    size_t off = (cgear ? 9 : 6) * vec, total;
    char *ws;
    total = off + perks__cg_align(sizeof(double) * 8 * G) + perks__cg_align(sizeof(perks__cg_out)) +
            perks__cg_align(sizeof(int) * ((size_t)G + 1)) + perks__cg_align(sizeof(double) * PERKS_SUM_BARRIER_WORDS) +
            perks__cg_align(sizeof(double) * PERKS_FLAG_WORDS(G));
    if (cudaMalloc(&p->ws, total) != cudaSuccess) {
        p->ws = NULL;
        return PERKS_ECUDA;
    }
    ws = (char *)p->ws;
    p->args.r = ws;
    p->args.z = ws + vec;
    p->args.p0 = ws + 2 * vec;
    p->args.p1 = ws + 3 * vec;
    p->args.q = ws + 4 * vec;
    p->args.dinv = ws + 5 * vec;
    if (cgear) {
        p->args.r = ws;           /* quads, buffer 0 */
        p->args.z = ws + 4 * vec; /* quads, buffer 1 */
        p->args.p0 = ws + 8 * vec;
        p->args.p1 = p->args.q = p->args.dinv = NULL;
    }
    p->args.part = (double *)(ws + off);
    off += perks__cg_align(sizeof(double) * 8 * G);
    p->args.out = (perks__cg_out *)(ws + off);
    off += perks__cg_align(sizeof(perks__cg_out));
    p->args.split = (const int *)(ws + off);
    if (cudaMemcpy(ws + off, split, sizeof(int) * ((size_t)G + 1), cudaMemcpyHostToDevice) != cudaSuccess) {
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    off += perks__cg_align(sizeof(int) * ((size_t)G + 1));
    p->args.bar = (double *)(ws + off);
    off += perks__cg_align(sizeof(double) * PERKS_SUM_BARRIER_WORDS);
    p->args.flag = (double *)(ws + off);
    return PERKS_SUCCESS;
}

/* the grid path (the rows of the host row_ptr rp) */
static inline int perks__cg_plan_grid(perks_cg_plan *p, const void *kernel, int elt, int block, int n, long long nnz,
                                      const int *rp, const perks_cg_opts *o, int sell)
{
    const int cgear = o->variant == PERKS_CG_CGEAR;
    /* x, r, q, p (+ D^-1); Chronopoulos-Gear: quads, x, p */
    const int nv = cgear ? 6 : 4 + (o->jacobi ? 1 : 0);
    int sms, G, W, rc, bmode = 0;
    perks__cg_grid_fit f = {NULL, 0, 0, 0, 0, 0};
    rc = perks__cg_grid_count(kernel, block, n, nnz, o, &G, &sms);
    if (rc) return rc;
    W = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE);
    rc = perks__cg_grid_split(rp, n, nnz, elt, nv, sell, sms, o, &G, &f);
    if (rc) return rc;
    rc = perks__cg_grid_barrier(o, cgear, G, block, &bmode);
    if (!rc) rc = perks__cg_grid_tier(p, kernel, block, G, sell, &sms, o, &f);
    if (!rc) rc = perks__cg_grid_workspace(p, n, elt, G, cgear, f.split);
    free(f.split);
    if (rc) return rc;
    if (p->cached == 0) W = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE_DRAM); /* more rows in flight */
    p->path = sell ? PERKS_CG_PATH_STREAM : PERKS_CG_PATH_GRID;
    p->variant = cgear ? PERKS_CG_CGEAR : PERKS_CG_CLASSIC;
    p->barrier = bmode;
    p->blocks = G;
    p->block = block;
    p->sub = W;
    p->kernel = kernel;
    p->args.sub = W;
    p->args.bmode = bmode;
    p->args.nrmax = (int)f.maxr;
    return PERKS_SUCCESS;
}

/* the stream path's slices' entries, padding included; soff (may be NULL): their offsets */
static inline long long perks__cg_sell_size(const int *rp, int n, int *soff)
{
    long long tot = 0;
    for (int s = 0; s * PERKS_CG_SELL_C < n; s++) {
        const int e = n - s * PERKS_CG_SELL_C < PERKS_CG_SELL_C ? n : (s + 1) * PERKS_CG_SELL_C;
        int w = 0;
        for (int i = s * PERKS_CG_SELL_C; i < e; i++)
            if (rp[i + 1] - rp[i] > w) w = rp[i + 1] - rp[i];
        if (soff) soff[s] = (int)tot;
        tot += (long long)PERKS_CG_SELL_C * w;
        if (soff && s * PERKS_CG_SELL_C + PERKS_CG_SELL_C >= n) soff[s + 1] = (int)tot;
    }
    return tot;
}

/* the stream path's copy of the matrix (d_rp, d_ci, d_va; rp the host row pointers) into p->sell */
static inline int perks__cg_sell_build(perks_cg_plan *p, int elt, int n, const int *rp, const int *d_rp,
                                       const int *d_ci, const void *d_va)
{
    const int ns = (n + PERKS_CG_SELL_C - 1) / PERKS_CG_SELL_C;
    long long tot;
    size_t b0, b1;
    int *soff = (int *)malloc(sizeof(int) * ((size_t)ns + 1));
    char *m;
    if (!soff) return PERKS_ENOMEM;
    tot = perks__cg_sell_size(rp, n, soff);
    if (tot > 2147483647LL) { /* 32-bit entry offsets (soff holds them wrapped: not used) */
        free(soff);
        return PERKS_ESIZE;
    }
    b0 = perks__cg_align(sizeof(int) * ((size_t)ns + 1));
    b1 = perks__cg_align(sizeof(int) * (size_t)(tot ? tot : 1));
    if (cudaMalloc(&p->sell, b0 + b1 + (size_t)elt * (size_t)(tot ? tot : 1)) != cudaSuccess) {
        p->sell = NULL;
        free(soff);
        return PERKS_ECUDA;
    }
    m = (char *)p->sell;
    if (cudaMemcpy(m, soff, sizeof(int) * ((size_t)ns + 1), cudaMemcpyHostToDevice) != cudaSuccess) {
        free(soff);
        return PERKS_ECUDA;
    }
    free(soff);
    perks__cg_sell_fill<<<4 * PERKS_CG_RESID_BLOCKS, 256, 0, 0>>>(n, elt, d_rp, d_ci, d_va, (const int *)m, (int *)(m + b0),
                                                           m + b0 + b1);
    if (cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess) return PERKS_ECUDA;
    p->args.soff = (const int *)m;
    p->args.sci = (const int *)(m + b0);
    p->args.sva = m + b0 + b1;
    p->sell_nnz = tot;
    return PERKS_SUCCESS;
}

/* build 0: a stream plan without its matrix copy (the mixed driver's fallback); perks_cg_run refuses it */
static inline int perks__cg_plan_make2(perks_cg_plan *p, const void *kernel, const void *kernel1, const void *ckernel,
                                       const void *skernel, int elt, int block, int n, long long nnz, const int *d_rp,
                                       const int *d_ci, const void *d_va, const perks_cg_opts *o, int build)
{
    int *rp, rc = PERKS_ERESOURCE, is_auto;
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!kernel || !kernel1 || !ckernel || !skernel || !d_rp || !d_ci || !d_va || !o) return PERKS_ENULL;
    if (n < 1 || nnz < 0 || nnz > 2147483647LL || block < 64 || block > ONCHIP_THREADS_PER_BLOCK_MAX || block % 32)
        return PERKS_ESIZE;
    if (!(o->tol >= 0) || o->max_iter < 0 || o->blocks < 0) return PERKS_ESIZE;
    if (o->path < 0 || o->path > 3 || o->cluster < 0 || o->cluster > PERKS_CG_CMAX || o->barrier < 0 || o->barrier > 4)
        return PERKS_ESIZE;
    if (o->replace < -1 || (o->replace > 0 && o->variant != PERKS_CG_CLASSIC)) return PERKS_ESIZE;
    if (!(o->replace_delta == -1 || (o->replace_delta >= 0 && o->replace_delta < 1)) ||
        (o->replace_delta > 0 && o->variant != PERKS_CG_CLASSIC))
        return PERKS_ESIZE;
    /* Chronopoulos-Gear: the grid path with grid.sync only */
    if (o->variant < 0 || o->variant > 1 ||
        (o->variant == PERKS_CG_CGEAR && (o->path == PERKS_CG_PATH_CLUSTER || o->path == PERKS_CG_PATH_STREAM ||
                                          o->sum_barrier ||
                                          (o->barrier && o->barrier != PERKS_CG_BAR_GRID &&
                                           o->barrier != PERKS_CG_BAR_COUNT))))
        return PERKS_ESIZE;
    rp = (int *)malloc(sizeof(int) * ((size_t)n + 1));
    if (!rp) return PERKS_ENOMEM;
    if (cudaMemcpy(rp, d_rp, sizeof(int) * ((size_t)n + 1), cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(rp);
        return PERKS_ECUDA;
    }
    if (rp[0] != 0 || rp[n] != nnz) {
        free(rp);
        return PERKS_ESIZE;
    }
    for (int i = 0; i < n; i++)
        if (rp[i + 1] <= rp[i]) { /* an empty row (A singular) or a row_ptr that goes down */
            rc = rp[i + 1] == rp[i] ? PERKS_EEMPTYROW : PERKS_ESIZE;
            free(rp);
            return rc;
        }
    /* auto: the cluster when the system is small and no grid option was asked for */
    is_auto = o->path == PERKS_CG_PATH_AUTO && !o->blocks && !o->barrier && !o->sum_barrier && o->cache &&
              o->variant == PERKS_CG_CLASSIC;
    if (o->path == PERKS_CG_PATH_CLUSTER || is_auto) {
        rc = perks__cg_plan_cluster(p, ckernel, elt, n, nnz, rp, o, is_auto);
        if (rc != PERKS_SUCCESS) {
            perks_cg_plan_free(p);
            if (rc == PERKS_ECUDA) (void)cudaGetLastError();
        }
    }
    if (rc != PERKS_SUCCESS && o->path != PERKS_CG_PATH_CLUSTER) {
        /* auto: the stream path when nothing is cached, a row gets one lane and the padding is small */
        const int stream = o->path == PERKS_CG_PATH_STREAM;
        rc = perks__cg_plan_grid(p, stream ? skernel : o->variant == PERKS_CG_CGEAR ? kernel1 : kernel, elt, block, n,
                                 nnz, rp, o, stream);
        if (rc == PERKS_SUCCESS && o->path == PERKS_CG_PATH_AUTO && p->cached == 0 &&
            o->variant == PERKS_CG_CLASSIC && perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE_DRAM) == 1 &&
            perks__cg_sell_size(rp, n, NULL) <= PERKS_CG_SELL_PAD * (double)nnz) {
            perks_cg_plan_free(p);
            rc = perks__cg_plan_grid(p, skernel, elt, block, n, nnz, rp, o, 1);
        }
        if (rc == PERKS_SUCCESS && p->path == PERKS_CG_PATH_STREAM && build)
            rc = perks__cg_sell_build(p, elt, n, rp, d_rp, d_ci, d_va);
    }
    free(rp);
    if (rc != PERKS_SUCCESS) {
        perks_cg_plan_free(p);
        return rc;
    }
    /* the true-residual partials, the best x (n T), the refinement's r (n double), d and r (n T) */
    if (cudaMalloc((void **)&p->rpart, sizeof(double) * 3 * PERKS_CG_RESID_BLOCKS + perks__cg_align((size_t)elt * n) +
                                           (perks__cg_refines(elt, p->variant) ? perks__cg_refine_bytes(elt, n) : 0)) != cudaSuccess) {
        p->rpart = NULL;
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    perks__cg_set_common(p, n, nnz, elt, o, d_rp, d_ci, d_va);
    p->args.xbest = (char *)p->rpart + sizeof(double) * 3 * PERKS_CG_RESID_BLOCKS;
    return PERKS_SUCCESS;
}

static inline int perks__cg_plan_make(perks_cg_plan *p, const void *kernel, const void *kernel1, const void *ckernel,
                                      const void *skernel, int elt, int block, int n, long long nnz, const int *d_rp,
                                      const int *d_ci, const void *d_va, const perks_cg_opts *o)
{
    return perks__cg_plan_make2(p, kernel, kernel1, ckernel, skernel, elt, block, n, nnz, d_rp, d_ci, d_va, o, 1);
}

/* launch one solve (asynchronous on stream); perks_cg_wait waits and reads the outcome */
static inline int perks_cg_run(perks_cg_plan *p, const void *d_b, void *d_x, cudaStream_t stream)
{
    void *args[1];
    int rc;
    if (!p || !d_b || !d_x) return PERKS_ENULL;
    if (!p->ws || !p->kernel || !p->rpart || (p->path == PERKS_CG_PATH_STREAM && !p->sell)) return PERKS_ESIZE;
    p->stream = stream;
    p->args.b = d_b;
    p->args.x = d_x;
    args[0] = &p->args;
    if (p->path == PERKS_CG_PATH_CLUSTER) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute at[1] = {};
        perks__cg_cluster_config(&cfg, at, p->blocks, p->smem, stream);
        if (cudaLaunchKernelExC(&cfg, p->kernel, args) != cudaSuccess) return PERKS_ECUDA;
        return perks__cg_resid_launch(p->n, p->elt, p->args.rp, p->args.ci, p->args.va, d_b, d_x, NULL, p->rpart,
                                      stream);
    }
    if ((p->args.bmode == PERKS_CG_BAR_SUM || p->args.bmode == PERKS_CG_BAR_COUNT) &&
        cudaMemsetAsync(p->args.bar, 0, sizeof(double) * PERKS_SUM_BARRIER_WORDS, stream) != cudaSuccess)
        return PERKS_ECUDA;
    if (p->args.bmode == PERKS_CG_BAR_FLAG &&
        cudaMemsetAsync(p->args.flag, 0xff, sizeof(double) * PERKS_FLAG_WORDS(p->blocks), stream) != cudaSuccess)
        return PERKS_ECUDA;
    rc = perks_launch(p->kernel, dim3(p->blocks), dim3(p->block), args, p->smem, stream);
    if (rc) return rc;
    if (p->args.x_hi) /* mixed: the double system's residual of the double x */
        return perks__cg_resid_launch(p->n, 8, p->args.rp, p->args.ci, p->args.va_hi, p->args.b_hi, p->args.x_hi,
                                      NULL, p->rpart, stream);
    return perks__cg_resid_launch(p->n, p->elt, p->args.rp, p->args.ci, p->args.va, d_b, d_x, NULL, p->rpart, stream);
}


#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_PLAN_CUH */
#include <onchip/names_pop.h>
