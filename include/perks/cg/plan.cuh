#include <onchip/names_push.h>
/* perks/cg/plan.cuh -- the CG planner and launcher (host): which path, how many blocks, which cache
 * tier, the row split, the workspace; one launch per solve (perks/cg.cuh, THE GRID PATH, THE
 * CLUSTER PATH, PARAMETERS AND LIMITS).
 *
 * WHAT (docs/perks-cg.md#design-notes-perkscgplancuh)
 *   perks__cg_plan_make(p, kernel, kernel1, ckernel, elt, block, n, nnz, d_rp, d_ci, d_va, opts)
 *                          name_plan of PERKS_CG_DEFINE: the cluster path when asked for or (auto)
 *                          when the system fits one cluster, else the grid or stream path
 *   perks__cg_start(p, d_b, d_x, stream)      one solve, asynchronous (the true residual after it)
 *   perks_cg_plan_free(p)
 *   and the planner's steps (perks__cg_split, _lanes, _plan_cluster, _plan_grid, ...).
 *
 * EXAMPLE
 *   [not compiled: name_plan stands for a PERKS_CG_DEFINE instance]
 *   perks_cg_plan p;
 *   int rc = name_plan(&a, &p);              // perks__cg_plan_make with name's kernels
 *   if (!rc) rc = name_run(&a, &p, stream);  // perks__cg_start, then perks__cg_finish (refine.cuh)
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

#include <chrono>
#endif

#include <onchip/device.cuh>
#include "../barrier.cuh"
#include "../base.h"
#include "../cheb.h"
#include "../fsai.h"
#include "../grid.cuh"
#include "fsai_setup.cuh"
#include "resid.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it */
static inline void perks_cg_plan_free(perks_cg_plan *p)
{
    if (!p) return;
    if (p->dbl) { /* a mixed plan's double plan */
        perks_cg_plan_free(p->dbl);
        free(p->dbl);
    }
    if (p->fbuf) cudaFree(p->fbuf);
    if (p->ws) cudaFree(p->ws);
    if (p->rpart) cudaFree(p->rpart);
    if (p->sell) cudaFree(p->sell);
    if (p->nbuf) cudaFree(p->nbuf);
    if (p->gbuf) cudaFree(p->gbuf);
    memset(p, 0, sizeof *p);
}

static inline size_t perks__cg_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* the plans perks__cg_finish refines (double, Chronopoulos-Gear), and their buffers' bytes */
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
    p->workspace_bytes += total;
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
static inline int perks__cg_grid_workspace(perks_cg_plan *p, int n, int elt, int G, int cgear, int cheb,
                                           const int *split)
{ /* cheb: also FSAI's (r, w = dz, z, its own rows zo and po) */
    const size_t vec = perks__cg_align((size_t)n * elt);
    const size_t cbytes = perks__cg_align(sizeof(double) * 2 * (PERKS_CHEB_DMAX + 1)),
                 lbytes = perks__cg_align(sizeof(double) * 2 * PERKS_CHEB_KMAX);
    size_t off = (cgear ? 9 : cheb ? 10 : 6) * vec + (cheb ? cbytes + lbytes : 0), total;
    char *ws;
    total = off + perks__cg_align(sizeof(double) * 8 * G) + perks__cg_align(sizeof(perks__cg_out)) +
            perks__cg_align(sizeof(int) * ((size_t)G + 1)) + perks__cg_align(sizeof(double) * PERKS_SUM_BARRIER_WORDS) +
            perks__cg_align(sizeof(double) * PERKS_FLAG_WORDS(G));
    if (cudaMalloc(&p->ws, total) != cudaSuccess) {
        p->ws = NULL;
        return PERKS_ECUDA;
    }
    p->workspace_bytes += total;
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
    if (cheb) { /* the second z buffer, the step, the own z and p, the coefficients, the Lanczos scalars */
        p->args.z2 = ws + 6 * vec;
        p->args.dz = ws + 7 * vec;
        p->args.zo = ws + 8 * vec;
        p->args.po = ws + 9 * vec;
        p->args.cheb = (const double *)(ws + 10 * vec);
        p->args.lanc = (double *)(ws + 10 * vec + cbytes);
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
    const int cgear = o->variant == PERKS_CG_CGEAR, cheb = o->cheb != 0, fsai = o->fsai != 0;
    /* x, r, q, p (+ D^-1); Chronopoulos-Gear: quads, x, p; Chebyshev: x, r, q, D^-1, dz, z, p; FSAI:
     * x, r, q, z, p */
    const int nv = fsai ? 5 : cheb ? 7 : cgear ? 6 : 4 + (o->jacobi ? 1 : 0);
    int sms, G, W, rc, bmode = 0;
    perks__cg_grid_fit f = {NULL, 0, 0, 0, 0, 0};
    rc = perks__cg_grid_count(kernel, block, n, nnz, o, &G, &sms);
    if (rc) return rc;
    W = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE);
    rc = perks__cg_grid_split(rp, n, nnz, elt, nv, sell, sms, o, &G, &f);
    if (rc) return rc;
    rc = perks__cg_grid_barrier(o, cgear, G, block, &bmode);
    if (!rc) rc = perks__cg_grid_tier(p, kernel, block, G, sell, &sms, o, &f);
    if (!rc) rc = perks__cg_grid_workspace(p, n, elt, G, cgear, cheb || fsai, f.split);
    free(f.split);
    if (rc) return rc;
    if (p->cached == 0) W = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE_DRAM); /* more rows in flight */
    p->path = sell ? PERKS_CG_PATH_STREAM : PERKS_CG_PATH_GRID;
    p->variant = cgear ? PERKS_CG_CGEAR : PERKS_CG_CLASSIC;
    p->cheb = o->cheb;
    p->fsai = fsai;
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

/* Chebyshev: the neighbour lists of the polynomial steps' sync (perks__cg_cheb_sync): block c is
 * block b's neighbour when a row of one has a column in the other's rows (both ways: a pattern
 * that is not symmetric is safe too).  None (barriers, p->args.ndep NULL) below
 * PERKS_CG_CHEB_NSYNC_PER_SM blocks an SM, with more than PERKS_CG_CHEB_NDEP_MAX neighbours
 * somewhere, more than 4096 blocks, a column outside 0..n-1, or a barrier other than the count
 * barrier (grid.sync asked for).
 * rp: the host row_ptr; d_ci the device columns (copied here once) */
static inline int perks__cg_cheb_neighbours(perks_cg_plan *p, int n, long long nnz, const int *rp, const int *d_ci)
{
    const int G = p->blocks;
    int *split = NULL, *ci = NULL, *deg = NULL, *h = NULL, rc = PERKS_SUCCESS, maxdeg = 0;
    unsigned char *adj = NULL;
    long long maxr, maxk, tot = 0;
    p->args.ndep = NULL, p->args.nflag = NULL;
    if (G > 4096 || p->args.bmode != PERKS_CG_BAR_COUNT) return PERKS_SUCCESS;
    {
        onchip_device_attrs da;
        if (onchip_device_current(NULL, &da) != cudaSuccess) return PERKS_ECUDA;
        if (G < PERKS_CG_CHEB_NSYNC_PER_SM * da.sms) return PERKS_SUCCESS; /* few blocks: the count barrier is as fast */
    }
    split = (int *)malloc(sizeof(int) * ((size_t)G + 1));
    ci = (int *)malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
    deg = (int *)calloc((size_t)G, sizeof(int));
    adj = (unsigned char *)calloc((size_t)G * G, 1);
    if (!split || !ci || !deg || !adj) {
        rc = PERKS_ENOMEM;
        goto done;
    }
    if (nnz && cudaMemcpy(ci, d_ci, sizeof(int) * (size_t)nnz, cudaMemcpyDeviceToHost) != cudaSuccess) {
        rc = PERKS_ECUDA;
        goto done;
    }
    perks__cg_split(rp, n, nnz, G, 1, split, &maxr, &maxk);
    for (int b = 0; b < G; b++)
        for (long long k = rp[split[b]]; k < rp[split[b + 1]]; k++) {
            const int j = ci[k];
            int lo = 0, hi = G - 1;
            if (j < 0 || j >= n) goto done; /* not a matrix the solver takes: barriers */
            while (lo < hi) { /* the block of row j: the last with split[c] <= j */
                const int mid = (lo + hi + 1) / 2;
                if (split[mid] <= j) lo = mid;
                else hi = mid - 1;
            }
            if (lo != b && !adj[(size_t)b * G + lo]) {
                adj[(size_t)b * G + lo] = adj[(size_t)lo * G + b] = 1;
                deg[b]++, deg[lo]++;
            }
        }
    for (int b = 0; b < G; b++) {
        if (deg[b] > maxdeg) maxdeg = deg[b];
        tot += deg[b];
    }
    if (maxdeg > PERKS_CG_CHEB_NDEP_MAX) goto done;
    {
        const size_t lbytes = perks__cg_align(sizeof(int) * ((size_t)G + 1 + (size_t)tot));
        const size_t bytes = lbytes + sizeof(unsigned int) * (size_t)G;
        long long e = G + 1;
        h = (int *)malloc(sizeof(int) * ((size_t)G + 1 + (size_t)tot));
        if (!h) {
            rc = PERKS_ENOMEM;
            goto done;
        }
        for (int b = 0; b < G; b++) {
            h[b] = (int)e;
            for (int c = 0; c < G; c++)
                if (adj[(size_t)b * G + c]) h[e++] = c;
        }
        h[G] = (int)e;
        if (cudaMalloc(&p->nbuf, bytes) != cudaSuccess) {
            p->nbuf = NULL;
            rc = PERKS_ECUDA;
            goto done;
        }
        p->workspace_bytes += bytes;
        if (cudaMemcpy(p->nbuf, h, sizeof(int) * (size_t)e, cudaMemcpyHostToDevice) != cudaSuccess) {
            rc = PERKS_ECUDA;
            goto done;
        }
        p->args.ndep = (const int *)p->nbuf;
        p->args.nflag = (unsigned int *)((char *)p->nbuf + lbytes);
    }
done:
    free(split), free(ci), free(deg), free(adj), free(h);
    return rc;
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
    p->workspace_bytes += b0 + b1 + (size_t)elt * (size_t)(tot ? tot : 1);
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

/* FSAI: G and G' of the system (perks/fsai.h's construction) built on the device from the plan's
 * CSR (perks/cg/fsai_setup.cuh) into p->gbuf; the time into p->fsai_ms.  PERKS_EBREAKDOWN /
 * PERKS_EFORMAT: A not SPD / a row without its diagonal or a pattern that is not symmetric */
static inline int perks__cg_fsai_setup(perks_cg_plan *p, const perks_cg_args *a, int elt)
{
    const auto t0 = std::chrono::steady_clock::now();
    void *out[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    size_t bytes = 0;
    const int w = a->opts.fsai_width ? a->opts.fsai_width : PERKS_FSAI_WIDTH;
    const int rc = perks__cg_fsai_build(a->n, a->row_ptr, a->col, a->val, elt, w, &p->gbuf, &bytes, out, &p->fsai_nnz);
    if (rc) return rc;
    p->workspace_bytes += bytes;
    p->args.grp = (const int *)out[0], p->args.gci = (const int *)out[1], p->args.gva = out[2];
    p->args.gtrp = (const int *)out[3], p->args.gtci = (const int *)out[4], p->args.gtva = out[5];
    p->fsai_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return PERKS_SUCCESS;
}

/* the kernels of one PERKS_CG_DEFINE instance and its T and BLOCK */
typedef struct perks__cg_kset {
    const void *grid, *cgear, *cluster, *stream; /* name_kernel, name_kernel1, name_ckernel, name_skernel */
    int elt, block;                              /* sizeof(T), BLOCK */
    const void *cheb;                            /* name_pkernel (NULL: the instance has none) */
    const void *fsai;                            /* name_fkernel (NULL: the instance has none) */
} perks__cg_kset;

/* a refused plan: what it holds released, the code, why, no passes */
static inline int perks__cg_refuse(perks_cg_plan *p, int rc, const char *why)
{
    perks_cg_plan_free(p);
    p->why = why;
    p->passes = 0;
    return rc;
}

/* why a planning step failed with rc (the steps past the argument checks) */
static inline const char *perks__cg_why_code(int rc)
{
    switch (rc) {
    case PERKS_ENOMEM: return "refused: host memory ran out while planning";
    case PERKS_EUNSUPPORTED: return "refused: the cluster path needs an sm_90 device and an sm_90 build";
    case PERKS_ERESOURCE: return "refused: the kernel does not fit the device (shared memory or registers)";
    case PERKS_ENOCOOP: return "refused: the device has no cooperative launch (the grid and stream paths need it)";
    case PERKS_ECORESIDENT: return "refused: the grid's blocks cannot all be co-resident";
    case PERKS_ESIZE: return "refused: a size the planner cannot hold";
    default: return "refused: a CUDA call failed while planning (an allocation, a copy, an attribute)";
    }
}

/* the sentence of a plan's path, its cache tier and barrier: o the options asked for */
#define PERKS__CG_WHY_BARS(S)                                                                                 \
    {S "; barrier: grid.sync", S "; barrier: the sum barrier (the last block to arrive sums)",                  \
     S "; barrier: the flag barrier (every block reads every block's partials)",                               \
     S "; barrier: the count barrier (grid.sync's counter, the partials' read folded in)"}
static inline const char *perks__cg_why(const perks_cg_plan *p, const perks_cg_opts *o)
{
    static const char *const grid[9][4] = {
        PERKS__CG_WHY_BARS("grid: the system, matrix included, fits the blocks' shared memory (cache tier 2)"),
        PERKS__CG_WHY_BARS("grid: the vectors fit the blocks' shared memory, the matrix is read from device memory "
                           "(cache tier 1)"),
        PERKS__CG_WHY_BARS("grid: nothing cached (opts.cache 0, or the vectors do not fit): vectors and matrix "
                           "from device memory"),
        PERKS__CG_WHY_BARS("grid, Chronopoulos-Gear (opts.variant): the system, matrix included, fits the blocks' "
                           "shared memory (cache tier 2)"),
        PERKS__CG_WHY_BARS("grid, Chronopoulos-Gear (opts.variant): the vectors fit the blocks' shared memory, "
                           "the matrix is read from device memory (cache tier 1)"),
        PERKS__CG_WHY_BARS("grid, Chronopoulos-Gear (opts.variant): nothing cached, vectors and matrix from device "
                           "memory"),
        PERKS__CG_WHY_BARS("stream: nothing fits on chip and the rows are short (one lane a row), so the grid "
                           "kernel reads a sliced-ELL copy padded at most 1.25x"),
        PERKS__CG_WHY_BARS("stream (opts.path 3): the grid kernel over a sliced-ELL copy of the matrix"),
        PERKS__CG_WHY_BARS("mixed: float CG on the grid path (the double system does not fit on chip, or opts.mixed "
                           "1), x and the replaced residuals in double")};
    static const char *const mstream[4] = PERKS__CG_WHY_BARS(
        "mixed: float CG on the stream path (the double system streams), x and the replaced residuals in double");
    static const char *const mdouble[4] = PERKS__CG_WHY_BARS(
        "mixed, the double solver alone: the double system fits the grid's shared memory, so barriers bound it, "
        "not bytes (opts.mixed 0)");
    const int bar = p->barrier >= 1 && p->barrier <= 4 ? p->barrier - 1 : 0, tier = p->cached == 2 ? 0 : p->cached == 1 ? 1 : 2;
    if (p->mixed == PERKS_CG_RAN_DOUBLE)
        return p->path == PERKS_CG_PATH_CLUSTER
                   ? "mixed, the double solver alone: the double system fits one cluster's shared memory, so barriers "
                     "bound it, not bytes (opts.mixed 0); the cluster's barrier"
                   : mdouble[bar];
    if (p->mixed) return p->path == PERKS_CG_PATH_STREAM ? mstream[bar] : grid[8][bar];
    if (p->path == PERKS_CG_PATH_CLUSTER)
        return o->path == PERKS_CG_PATH_AUTO
                   ? "cluster: the system, matrix included, fits one cluster's shared memory (at most 16 blocks); "
                     "the cluster's barrier"
               : p->cached == 2 ? "cluster (opts.path 2): the system, matrix included, in the cluster's shared memory; "
                                  "the cluster's barrier"
                                : "cluster (opts.path 2): the vectors in the cluster's shared memory, the matrix read "
                                  "from device memory; the cluster's barrier";
    if (p->path == PERKS_CG_PATH_STREAM) return grid[o->path == PERKS_CG_PATH_STREAM ? 7 : 6][bar];
    if (p->fsai) {
        static const char *const fsai[3] = {
            "grid, FSAI (opts.fsai): the system, matrix included, fits the blocks' shared memory (cache tier 2), G "
            "and G' from device memory",
            "grid, FSAI (opts.fsai): the vectors fit the blocks' shared memory, the matrix, G and G' from device "
            "memory (cache tier 1)",
            "grid, FSAI (opts.fsai): nothing cached, vectors, the matrix, G and G' from device memory"};
        return fsai[tier];
    }
    if (p->cheb) {
        static const char *const cheb[3][2] = {
            {"grid, Chebyshev (opts.cheb): the system, matrix included, fits the blocks' shared memory (cache tier 2); "
             "barrier: grid.sync",
             "grid, Chebyshev (opts.cheb): the system, matrix included, fits the blocks' shared memory (cache tier 2); "
             "barrier: the count barrier"},
            {"grid, Chebyshev (opts.cheb): the vectors fit the blocks' shared memory, the matrix is read from device "
             "memory (cache tier 1); barrier: grid.sync",
             "grid, Chebyshev (opts.cheb): the vectors fit the blocks' shared memory, the matrix is read from device "
             "memory (cache tier 1); barrier: the count barrier"},
            {"grid, Chebyshev (opts.cheb): nothing cached, vectors and matrix from device memory; barrier: grid.sync",
             "grid, Chebyshev (opts.cheb): nothing cached, vectors and matrix from device memory; barrier: the count "
             "barrier"}};
        static const char *const nsync[3] = {
            "grid, Chebyshev (opts.cheb): the system, matrix included, fits the blocks' shared memory (cache tier 2); "
            "the count barrier at the reductions, neighbour flags between the polynomial's steps",
            "grid, Chebyshev (opts.cheb): the vectors fit the blocks' shared memory, the matrix is read from device "
            "memory (cache tier 1); the count barrier at the reductions, neighbour flags between the polynomial's steps",
            "grid, Chebyshev (opts.cheb): nothing cached, vectors and matrix from device memory; the count barrier at "
            "the reductions, neighbour flags between the polynomial's steps"};
        return p->args.ndep && bar != 0 ? nsync[tier] : cheb[tier][bar == 0 ? 0 : 1];
    }
    return grid[(p->variant == PERKS_CG_CGEAR ? 3 : 0) + tier][bar];
}
#undef PERKS__CG_WHY_BARS

/* the options of a kernel that runs on the grid path with the count barrier or grid.sync only
 * (Chebyshev, FSAI, Chronopoulos-Gear): not the cluster or stream path, not the sum or flag barrier */
static inline int perks__cg_grid_bar_ok(const perks_cg_opts *o)
{
    return o->path != PERKS_CG_PATH_CLUSTER && o->path != PERKS_CG_PATH_STREAM && !o->sum_barrier &&
           (!o->barrier || o->barrier == PERKS_CG_BAR_GRID || o->barrier == PERKS_CG_BAR_COUNT);
}

/* name_plan's argument checks: 0, or the refusal (the code, p->why) */
static inline int perks__cg_plan_check(perks_cg_plan *p, const perks__cg_kset *ks, const perks_cg_args *a)
{
    const perks_cg_opts *o = &a->opts;
    if (!ks || !ks->grid || !ks->cgear || !ks->cluster || !ks->stream)
        return perks__cg_refuse(p, PERKS_ENULL, "refused: a kernel of the instance is NULL");
    if (!a->row_ptr || !a->col || !a->val) return perks__cg_refuse(p, PERKS_ENULL, "refused: a.row_ptr, a.col or a.val is NULL");
    if (!a->b || !a->x || !a->result) return perks__cg_refuse(p, PERKS_ENULL, "refused: a.b, a.x or a.result is NULL");
    if (a->n < 1 || a->nnz < 0 || a->nnz > 2147483647LL)
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: n < 1, or nnz outside 0 .. 2^31 - 1");
    if (ks->block < 64 || ks->block > ONCHIP_THREADS_PER_BLOCK_MAX || ks->block % 32)
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: BLOCK must be a multiple of 32 from 64 to 1024");
    if (!(o->tol >= 0)) return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.tol < 0 or NaN");
    if (o->max_iter < 0) return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.max_iter < 0");
    if (o->blocks < 0) return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.blocks < 0");
    if (o->path < 0 || o->path > 3) return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.path outside 0 .. 3");
    if (o->cluster < 0 || o->cluster > PERKS_CG_CMAX)
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.cluster outside 0 .. 16");
    if (o->barrier < 0 || o->barrier > 4) return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.barrier outside 0 .. 4");
    if (o->replace < -1 || (o->replace > 0 && o->variant != PERKS_CG_CLASSIC))
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.replace < -1, or > 0 with Chronopoulos-Gear");
    if (!(o->replace_delta == -1 || (o->replace_delta >= 0 && o->replace_delta < 1)) ||
        (o->replace_delta > 0 && o->variant != PERKS_CG_CLASSIC))
        return perks__cg_refuse(p, PERKS_ESIZE,
                                "refused: opts.replace_delta neither -1 nor in [0, 1), or > 0 with Chronopoulos-Gear");
    if (o->variant < 0 || o->variant > 1) return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.variant neither 0 nor 1");
    if (o->cheb < -1 || o->cheb > PERKS_CHEB_DMAX || o->cheb_steps < 0 || o->cheb_steps == 1 ||
        o->cheb_steps > PERKS_CHEB_KMAX)
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.cheb outside -1 .. 16, or opts.cheb_steps neither 0 "
                                                "nor in 2 .. 64");
    if (o->cheb && !ks->cheb)
        return perks__cg_refuse(p, PERKS_EUNSUPPORTED,
                                "refused: Chebyshev (opts.cheb) is not built for this instance (T perks_cg_mixed: "
                                "use a double instance)");
    if (o->cheb && (!perks__cg_grid_bar_ok(o) || o->variant != PERKS_CG_CLASSIC))
        return perks__cg_refuse(p, PERKS_EUNSUPPORTED,
                                "refused: Chebyshev (opts.cheb) takes the grid path (opts.path 0 or 1), classic CG "
                                "(opts.variant 0) and the count barrier or grid.sync (opts.barrier, opts.sum_barrier)");
    if ((o->fsai != 0 && o->fsai != 1) || o->fsai_width < 0 || o->fsai_width > PERKS_FSAI_WIDTH_MAX)
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: opts.fsai neither 0 nor 1, or opts.fsai_width outside 0 .. 64");
    if (o->fsai && !ks->fsai)
        return perks__cg_refuse(p, PERKS_EUNSUPPORTED,
                                "refused: FSAI (opts.fsai) is not built for this instance (T perks_cg_mixed: use a "
                                "double instance)");
    if (o->fsai && o->cheb)
        return perks__cg_refuse(p, PERKS_EUNSUPPORTED, "refused: opts.fsai and opts.cheb: one preconditioner at a time");
    if (o->fsai && (!perks__cg_grid_bar_ok(o) || o->variant != PERKS_CG_CLASSIC))
        return perks__cg_refuse(p, PERKS_EUNSUPPORTED,
                                "refused: FSAI (opts.fsai) takes the grid path (opts.path 0 or 1), classic CG "
                                "(opts.variant 0) and the count barrier or grid.sync (opts.barrier, opts.sum_barrier)");
    /* Chronopoulos-Gear: the grid path with grid.sync only */
    if (o->variant == PERKS_CG_CGEAR && !perks__cg_grid_bar_ok(o))
        return perks__cg_refuse(p, PERKS_ESIZE,
                                "refused: Chronopoulos-Gear takes the grid path with grid.sync or the count barrier "
                                "(opts.path, opts.barrier, opts.sum_barrier)");
    return PERKS_SUCCESS;
}

/* the host copy of a->row_ptr into *rp_out (malloc'd), checked: 0, or the refusal */
static inline int perks__cg_plan_rows(perks_cg_plan *p, const perks_cg_args *a, int **rp_out)
{
    const int n = a->n;
    int *rp = (int *)malloc(sizeof(int) * ((size_t)n + 1)), rc;
    if (!rp) return perks__cg_refuse(p, PERKS_ENOMEM, perks__cg_why_code(PERKS_ENOMEM));
    if (cudaMemcpy(rp, a->row_ptr, sizeof(int) * ((size_t)n + 1), cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(rp);
        return perks__cg_refuse(p, PERKS_ECUDA, "refused: a CUDA call failed (row_ptr copied to the host)");
    }
    if (rp[0] != 0 || rp[n] != a->nnz) {
        free(rp);
        return perks__cg_refuse(p, PERKS_ESIZE, "refused: row_ptr[0] != 0 or row_ptr[n] != nnz");
    }
    for (int i = 0; i < n; i++)
        if (rp[i + 1] <= rp[i]) { /* an empty row (A singular) or a row_ptr that goes down */
            rc = rp[i + 1] == rp[i] ? PERKS_EEMPTYROW : PERKS_ESIZE;
            free(rp);
            return perks__cg_refuse(p, rc, rc == PERKS_EEMPTYROW ? "refused: a row without entries (A is singular)"
                                                                 : "refused: row_ptr goes down at a row");
        }
    *rp_out = rp;
    return PERKS_SUCCESS;
}

/* the path (rp the host row_ptr): the cluster when asked for or (auto) when the system is small and
 * no grid option was asked for; else the grid, or the stream path (asked for; auto: below); 0, or
 * the refusal */
static inline int perks__cg_plan_path(perks_cg_plan *p, const perks__cg_kset *ks, const perks_cg_args *a,
                                      const int *rp, int build)
{
    const perks_cg_opts *o = &a->opts;
    const int n = a->n, elt = ks->elt;
    const long long nnz = a->nnz;
    const int is_auto = o->path == PERKS_CG_PATH_AUTO && !o->blocks && !o->barrier && !o->sum_barrier && o->cache &&
                        o->variant == PERKS_CG_CLASSIC && !o->cheb && !o->fsai;
    int rc = PERKS_ERESOURCE;
    if (o->path == PERKS_CG_PATH_CLUSTER || is_auto) {
        rc = perks__cg_plan_cluster(p, ks->cluster, elt, n, nnz, rp, o, is_auto);
        if (rc != PERKS_SUCCESS) {
            perks_cg_plan_free(p);
            if (rc == PERKS_ECUDA) (void)cudaGetLastError();
        }
        if (rc == PERKS_ERESOURCE && o->path == PERKS_CG_PATH_CLUSTER)
            return perks__cg_refuse(p, rc, "refused: the cluster path (opts.path 2): the system does not fit one "
                                           "cluster's shared memory");
    }
    if (rc != PERKS_SUCCESS && o->path != PERKS_CG_PATH_CLUSTER) {
        /* auto: the stream path when nothing is cached, a row gets one lane and the padding is small */
        const int stream = o->path == PERKS_CG_PATH_STREAM;
        rc = perks__cg_plan_grid(p,
                                 o->fsai   ? ks->fsai
                                 : o->cheb ? ks->cheb
                                 : stream  ? ks->stream
                                 : o->variant == PERKS_CG_CGEAR ? ks->cgear
                                                                : ks->grid,
                                 elt, ks->block, n, nnz, rp, o, stream);
        if (rc == PERKS_SUCCESS && o->path == PERKS_CG_PATH_AUTO && p->cached == 0 && !o->cheb && !o->fsai &&
            o->variant == PERKS_CG_CLASSIC && perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE_DRAM) == 1 &&
            perks__cg_sell_size(rp, n, NULL) <= PERKS_CG_SELL_PAD * (double)nnz) {
            perks_cg_plan_free(p);
            rc = perks__cg_plan_grid(p, ks->stream, elt, ks->block, n, nnz, rp, o, 1);
        }
        if (rc == PERKS_ESIZE) /* perks__cg_grid_barrier's refusal */
            return perks__cg_refuse(p, rc, "refused: the flag barrier (opts.barrier 3) over more than 2 BLOCK blocks");
        if (rc == PERKS_SUCCESS && (o->cheb || o->fsai)) rc = perks__cg_cheb_neighbours(p, n, nnz, rp, a->col);
        if (rc == PERKS_SUCCESS && o->fsai) {
            rc = perks__cg_fsai_setup(p, a, elt);
            if (rc == PERKS_EBREAKDOWN || rc == PERKS_EFORMAT)
                return perks__cg_refuse(p, rc, rc == PERKS_EBREAKDOWN
                                                   ? "refused: FSAI (opts.fsai): a principal submatrix of A is not "
                                                     "positive definite, or an entry is not finite (A is not SPD)"
                                                   : "refused: FSAI (opts.fsai): a row without its diagonal, a column "
                                                     "outside 0 .. n-1, columns not increasing in a row, or a pattern "
                                                     "that is not symmetric");
        }
        if (rc == PERKS_SUCCESS && p->path == PERKS_CG_PATH_STREAM && build) {
            rc = perks__cg_sell_build(p, elt, n, rp, a->row_ptr, a->col, a->val);
            if (rc == PERKS_ESIZE)
                return perks__cg_refuse(p, rc, "refused: the stream path's padded slices reach 2^31 entries");
        }
    }
    return rc ? perks__cg_refuse(p, rc, perks__cg_why_code(rc)) : PERKS_SUCCESS;
}

/* The plan of one instance's kernels ks for a (build 0: a stream plan without its copy of the
 * matrix, the mixed driver's double plan, whose copy a fallback builds; perks__cg_start refuses it).
 * On an error the code, p->why the refusal, p->passes 0 and nothing held. */
static inline int perks__cg_plan_make(perks_cg_plan *p, const perks__cg_kset *ks, const perks_cg_args *a, int build)
{
    int *rp = NULL, rc;
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!a) return perks__cg_refuse(p, PERKS_ENULL, "refused: the arguments (a) are NULL");
    if ((rc = perks__cg_plan_check(p, ks, a)) || (rc = perks__cg_plan_rows(p, a, &rp))) return rc;
    rc = perks__cg_plan_path(p, ks, a, rp, build);
    free(rp);
    if (rc) return rc;
    /* the true-residual partials, then the best-x buffer (n T); solves refined on the host (double,
     * Chronopoulos-Gear) also r = b - A x (n double), the correction d and r in T (n T each) */
    {
        const int elt = ks->elt, n = a->n;
        const size_t bytes = sizeof(double) * 3 * PERKS_CG_RESID_BLOCKS + perks__cg_align((size_t)elt * n) +
                             (perks__cg_refines(elt, p->variant) || p->cheb || p->fsai ? perks__cg_refine_bytes(elt, n)
                                                                                        : 0);
        if (cudaMalloc((void **)&p->rpart, bytes) != cudaSuccess) {
            p->rpart = NULL;
            return perks__cg_refuse(p, PERKS_ECUDA, perks__cg_why_code(PERKS_ECUDA));
        }
        p->workspace_bytes += bytes;
    }
    perks__cg_set_common(p, a->n, a->nnz, ks->elt, &a->opts, a->row_ptr, a->col, a->val);
    p->args.xbest = (char *)p->rpart + sizeof(double) * 3 * PERKS_CG_RESID_BLOCKS;
    /* the head: one launch, and the host's refinements where they are due (perks__cg_finish) */
    p->why = perks__cg_why(p, &a->opts);
    p->steps_per_pass = 0;
    p->passes = (p->cheb ? 2 : 1) +
                ((perks__cg_refines(ks->elt, p->variant) || p->cheb || p->fsai) && a->opts.replace != 0
                     ? PERKS_CG_RESTARTS
                     : 0);
    p->result = a->x;
    return PERKS_SUCCESS;
}

/* launch one solve (asynchronous on stream); perks__cg_finish waits and reads the outcome */
static inline int perks__cg_start(perks_cg_plan *p, const void *d_b, void *d_x, cudaStream_t stream)
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
    if (p->args.nflag && cudaMemsetAsync(p->args.nflag, 0, sizeof(unsigned int) * p->blocks, stream) != cudaSuccess)
        return PERKS_ECUDA;
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
