#include <onchip/names_push.h>
/* perks/stencil3d.cuh -- persistent 3D stencils: the time loop in one cooperative kernel, the domain
 * cached in shared memory between steps (all of it where it fits, a slab of planes per tile where
 * it does not), the rest streamed from device memory in the same pass.
 *
 * WHAT (PERKS paper §4.2 "2D planes loaded one after the other", Listing 1, §5)
 *   PERKS_STENCIL3D_DEFINE(name, T, SHAPE, perks_stencil3d_policy<BX, BY, RC, MINB>) defines
 *       __global__ void name_kernel(...)     the kernel (persistent when the plan says so)
 *       int name_plan(const perks_stencil3d_args *a, perks_plan *p)   checks a, plans the tiles and
 *                                    cached planes, fills p's head (onchip/plan.h: path, why, ...)
 *       int name_run(const perks_stencil3d_args *a, const perks_plan *p, cudaStream_t)   runs p
 *       int name_launch(const perks_stencil3d_args *a, cudaStream_t)  name_plan, then name_run
 *   (and name_ring_bytes, name_geom, the types name_policy, name_weights, name_shape, name_sizes
 *   and the constants name_R, name_WX, name_PP, name_NT, name_NPF, name_NCOEF).
 *   The policy (the last argument; defaults perks_stencil3d_policy<32, 16, 4, 1>): tiles of BX x BY
 *   columns (the threads), RC planes a chunk, MINB: __launch_bounds__(BX * BY, MINB).
 *   SHAPE is an X-macro list X(I, DX, DY, DZ) (onchip/shape.cuh: ONCHIP_SHAPE_3D7PT ... or a user's
 *   list).  A step computes, for every cell at least r = max |offset| from each face of the domain,
 *       out(x, y, z) = sum over DZ ascending, then list order, of c[I] * in(x + DX, y + DY, z + DZ)
 *   (one fma per point; for the catalogue's boxes and poisson that is list order) and keeps the
 *   value of every cell within r of a face (args.boundary ONCHIP_KEEP_RADIUS; the default 0,
 *   ONCHIP_KEEP_EXTENT, where the shape's extents all equal r: the same cells).
 *
 *   Tiles of BX x BY columns by tile_len planes, the first smem_rows planes of each in shared memory
 *   (all where the domain fits: path PERKS_PLAN_RESIDENT), the rest streamed through a ring; each
 *   plane read once a step into 2r + 1 register accumulators.  args.path PERKS_KERNEL_STEPS: the
 *   same kernel one launch a step, nothing cached (PERKS_PLAN_STEPS), bit for bit the same result.
 *   docs/perks.md#reference-the-3d-layout-pass-and-halo.
 *
 * EXAMPLE
 *   [compile: float *d_u, *d_v; int W, H, D; cudaStream_t stream]
 *     #include <perks/stencil3d.cuh>
 *     PERKS_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 16, 4>)
 *
 *     float c[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};  // (0,0,0), -x, +x, -y, +y, -z, +z
 *     perks_stencil3d_args a = {};
 *     a.src = d_u; a.dst = d_v; a.nx = W; a.ny = H; a.nz = D; a.steps = 100; a.coef = c;
 *     a.ncoef = heat3_NCOEF; a.cache = PERKS_CACHE_SMEM;
 *     int rc = heat3_launch(&a, stream);  // result in d_u (even steps) or d_v (odd steps)
 *
 * PARAMETERS AND LIMITS (all: docs/perks.md#reference-3d-parameters-and-limits)
 *   T float or double; BX a multiple of 32, BX x BY <= 1024; RC 1..16 planes a chunk; MINB >= 1;
 *   r <= 4.  Any sizes >= 1, dense (x fastest; pitch, plane 0 or the dense value); src and dst
 *   apart, both written; coef in HOST memory, ncoef the shape's.  cache NONE, SMEM or MIX (the same:
 *   no register cache), REG: PERKS_ESIZE; path AUTO or STEPS.  work NULL: name_run allocates
 *   (synchronising).  Refused: the code, p.why, p.passes 0, nothing launched.  Not co-resident:
 *   PERKS_ECORESIDENT, never a hang.  Bad instantiations: static_asserts naming the generator, the
 *   instance and the argument.
 *
 * PIECES: perks_stencil3d<T, S, BX, BY, RC>(...), the body of name_kernel; the host logic is the
 *   perks__s3d_* functions, one copy for all instantiations.  Includes perks/stencil.cuh, nothing
 *   from ssam.  NVRTC (docs/python.md): name_kernel only (the planner's tiling, a cooperative launch).
 *   GLOSSARY of the internal bodies' names: docs/perks.md#perks-stencil-glossary.
 */
#ifndef PERKS_STENCIL3D_CUH
#define PERKS_STENCIL3D_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernel only */
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>
#endif

#include <onchip/device.cuh>
#include <onchip/policy.cuh>
#include "base.h"
#include "cache.cuh"
#include "grid.cuh"
#include "plan.h"
#include "stencil.cuh"

/* the arguments (onchip/stencil.h), as in 2D with nz >= 1 (plane 0 or nx * ny), cache NONE, SMEM
 * or MIX (the same here; REG: PERKS_ESIZE), cache_rows_max the cached planes a tile, path
 * PERKS_KERNEL_AUTO or PERKS_KERNEL_STEPS */
typedef onchip_stencil_args perks_stencil3d_args;

/* an instantiation's sizes: r the radius, wx = BX + 2r a framed plane's row, pp its cells, nt the
 * threads, npf the ring cells a thread loads per chunk */
template <class S, int BX, int BY, int RC>
struct perks__s3d_sizes {
    enum {
        r = S::rmax,
        wx = BX + 2 * S::rmax,
        pp = (BX + 2 * S::rmax) * (BY + 2 * S::rmax),
        nt = BX * BY,
        npf = (RC * (BX + 2 * S::rmax) * (BY + 2 * S::rmax) + BX * BY - 1) / (BX * BY)
    };
};

/* ---- the kernel: the body of name_kernel, its steps written out (docs/perks.md#kernel-bodies) */
#ifdef __CUDACC_RTC__
/* under NVRTC the fold calls this functor, not a generic lambda: docs/onchip.md#nvrtc-functors */
template <class T, int R, int WX>
struct perks__s3d_taps_f {
    T &acc;
    const T *w;
    const T *src;
    int own, k;
    template <class P>
    __device__ __forceinline__ void operator()(P) const
    {
        if (P::dz == R - k) acc = fma(w[P::i], src[own + P::dy * WX + P::dx], acc);
    }
};
#endif
template <class T, class S, int BX, int BY, int RC>
static __device__ __forceinline__ void perks_stencil3d(T *a, T *b, T *ea, T *eb, int W, int H, int D, int steps,
                                                       int ntiles, int tiles_x, int tiles_y, int TH, int nc, const T *w)
{
    typedef perks__s3d_sizes<S, BX, BY, RC> Z;
    enum { R = S::rmax, WX = Z::wx, PP = Z::pp, NT = Z::nt, NPF = Z::npf };
    const int tid = (int)threadIdx.x;
    const int tx = tid % BX, ty = tid / BX;
    const int own = (ty + R) * WX + tx + R;
    extern __shared__ __align__(16) unsigned char perks__s3d_dyn[];
    T *ring = (T *)perks__s3d_dyn;
    T *cache0 = ring + 2 * RC * PP;
    {
        int s = 0;
        for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x, s++) {
            const int tix = tile % tiles_x, tiy = (tile / tiles_x) % tiles_y, tiz = tile / (tiles_x * tiles_y);
            const int x = tix * BX + tx, y = tiy * BY + ty, z0 = tiz * TH;
            const int nce = min(nc, D - z0);
            T *cache = cache0 + (size_t)s * nc * PP;
            for (int o = 0; o < nce; o++)
                cache[o * PP + own] = (x < W && y < H) ? a[((size_t)(z0 + o) * H + y) * W + x] : (T)0;
        }
    }
    PERKS_FOR_STEPS(t, steps)
    {
        const T *in = (t & 1) ? b : a; /* step t's arrays: in / out alternate, so do the edge buffers */
        T *out = (t & 1) ? a : b;
        const T *ein = (t & 1) ? eb : ea;
        T *eout = (t & 1) ? ea : eb;
        const int last = t == steps - 1;
        int s = 0;
        for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x, s++) {
            const int tix = tile % tiles_x, tiy = (tile / tiles_x) % tiles_y, tiz = tile / (tiles_x * tiles_y);
            const int x0 = tix * BX, y0 = tiy * BY, z0 = tiz * TH;
            const int the = min(TH, D - z0);
            const int nce = min(nc, the);
            const int x = x0 + tx, y = y0 + ty;
            const int xyin = x < W && y < H;
            const int xyint = x >= R && x < W - R && y >= R && y < H - R;
            const int has_l = tix > 0, has_r = tix < tiles_x - 1;
            const int ylen = nce * BY;
            T *cache = cache0 + (size_t)s * nc * PP;
            T pf[NPF];
            /* (1) the frame of the cached planes: x sides from the edge buffers (step 0: the input), y
             * sides with the corners from the domain array */
            for (int i = tid; i < 2 * R * ylen; i += NT) {
                const int side = i >= R * ylen, j = i - side * R * ylen;
                const int k = j / ylen, q = j - k * ylen, o = q / BY, yy = q - o * BY;
                const int gx = side ? x0 + BX + k : x0 - R + k, gy = y0 + yy;
                T v = (T)0;
                if (gx >= 0 && gx < W && gy < H)
                    v = t == 0 ? in[((size_t)(z0 + o) * H + gy) * W + gx]
                               : ein[PERKS_EDGE_INDEX(tile + (side ? 1 : -1), 1 - side, k, q, R, TH * BY)];
                cache[o * PP + (yy + R) * WX + (side ? BX + R + k : k)] = v;
            }
            for (int i = tid; i < 2 * R * nce * WX; i += NT) {
                const int n1 = R * nce * WX;
                const int side = i >= n1, j = i - side * n1;
                const int k = j / (nce * WX), q = j - k * (nce * WX);
                const int o = q / WX, wx = q - o * WX;
                const int wy = side ? BY + R + k : k;
                const int gy = y0 - R + wy, gx = x0 - R + wx;
                T v = (T)0;
                if (gx >= 0 && gx < W && gy >= 0 && gy < H) v = in[((size_t)(z0 + o) * H + gy) * W + gx];
                cache[o * PP + wy * WX + wx] = v;
            }
            /* (2) the pass */
            const int nch = (the + 2 * R + RC - 1) / RC;
            if (((0) * RC < R || min(((0) + 1) * RC - R, the + R) > nce)) {
                /* LOAD(0) */
#pragma unroll
                for (int j = 0; j < NPF; j++) {
                    const int i = tid + j * NT;
                    T v = (T)0;
                    if (i < RC * PP) {
                        const int pl = i / PP, rem = i - pl * PP, wy = rem / WX, wx = rem - wy * WX;
                        const int p = (0) * RC - R + pl, gz = z0 + p;
                        const int gy = y0 - R + wy, gx = x0 - R + wx;
                        if ((p < 0 || p >= nce) && p < the + R && gz >= 0 && gz < D && gy >= 0 && gy < H && gx >= 0 && gx < W)
                            v = in[((size_t)gz * H + gy) * W + gx];
                    }
                    pf[j] = v;
                }
                /* STORE(0) */
#pragma unroll
                for (int j = 0; j < NPF; j++) {
                    const int i = tid + j * NT;
                    if (i < RC * PP) ring[((0) & 1) * RC * PP + i] = pf[j];
                }
            }
            if (nch > 1 && ((1) * RC < R || min(((1) + 1) * RC - R, the + R) > nce)) {
                /* LOAD(1) */
#pragma unroll
                for (int j = 0; j < NPF; j++) {
                    const int i = tid + j * NT;
                    T v = (T)0;
                    if (i < RC * PP) {
                        const int pl = i / PP, rem = i - pl * PP, wy = rem / WX, wx = rem - wy * WX;
                        const int p = (1) * RC - R + pl, gz = z0 + p;
                        const int gy = y0 - R + wy, gx = x0 - R + wx;
                        if ((p < 0 || p >= nce) && p < the + R && gz >= 0 && gz < D && gy >= 0 && gy < H && gx >= 0 && gx < W)
                            v = in[((size_t)gz * H + gy) * W + gx];
                    }
                    pf[j] = v;
                }
            }
            __syncthreads();
            T acc[2 * R + 1];
            T hist[R + 1];
#pragma unroll
            for (int k = 0; k < 2 * R + 1; k++) acc[k] = (T)0;
#pragma unroll
            for (int k = 0; k < R + 1; k++) hist[k] = (T)0;
#pragma unroll 1
            for (int c = 0; c < nch; c++) {
                T ov[RC];
                if (c + 1 < nch && ((c + 1) * RC < R || min(((c + 1) + 1) * RC - R, the + R) > nce)) {
                    /* STORE(c + 1) */
#pragma unroll
                    for (int j = 0; j < NPF; j++) {
                        const int i = tid + j * NT;
                        if (i < RC * PP) ring[((c + 1) & 1) * RC * PP + i] = pf[j];
                    }
                }
                if (c + 2 < nch && ((c + 2) * RC < R || min(((c + 2) + 1) * RC - R, the + R) > nce)) {
                    /* LOAD(c + 2) */
#pragma unroll
                    for (int j = 0; j < NPF; j++) {
                        const int i = tid + j * NT;
                        T v = (T)0;
                        if (i < RC * PP) {
                            const int pl = i / PP, rem = i - pl * PP, wy = rem / WX, wx = rem - wy * WX;
                            const int p = (c + 2) * RC - R + pl, gz = z0 + p;
                            const int gy = y0 - R + wy, gx = x0 - R + wx;
                            if ((p < 0 || p >= nce) && p < the + R && gz >= 0 && gz < D && gy >= 0 && gy < H && gx >= 0 && gx < W)
                                v = in[((size_t)gz * H + gy) * W + gx];
                        }
                        pf[j] = v;
                    }
                }
#pragma unroll
                for (int j = 0; j < RC; j++) {
                    const int p = c * RC - R + j;
                    const T *src = (p >= 0 && p < nce) ? cache + p * PP : ring + (((c)&1) * RC + j) * PP;
#pragma unroll
                    for (int k = 0; k < R; k++) hist[k] = hist[k + 1];
                    hist[R] = src[own];
#pragma unroll
                    for (int k = 0; k < 2 * R + 1; k++) {
#ifndef __CUDACC_RTC__
                        onchip_shape_each(S(), [&](auto pt) {
                            typedef decltype(pt) P;
                            if (P::dz == R - k) acc[k] = fma(w[P::i], src[own + P::dy * WX + P::dx], acc[k]);
                        });
#else
                        onchip_shape_each(S(), perks__s3d_taps_f<T, R, WX>{acc[k], w, src, own, k});
#endif
                    }
                    {
                        const int gz = z0 + p - R;
                        ov[j] = (xyint && gz >= R && gz < D - R) ? acc[0] : hist[0];
                    }
#pragma unroll
                    for (int k = 0; k < 2 * R; k++) acc[k] = acc[k + 1];
                    acc[2 * R] = (T)0;
                }
                __syncthreads();
                if (xyin)
#pragma unroll
                    for (int j = 0; j < RC; j++) {
                        const int o = c * RC - 2 * R + j;
                        if (o >= 0 && o < the) {
                            const int cached = o < nce;
                            if (cached) cache[o * PP + own] = ov[j];
                            if (last || !cached || o < R || o >= the - R || ty < R || ty >= BY - R)
                                out[((size_t)(z0 + o) * H + y) * W + x] = ov[j];
                        }
                    }
            }
            __syncthreads();
            /* (3) the cached planes' x edges, transposed, for the neighbours' next step */
            if (!last)
                for (int i = tid; i < 2 * R * ylen; i += NT) {
                    const int side = i >= R * ylen, j = i - side * R * ylen;
                    const int k = j / ylen, q = j - k * ylen, o = q / BY, yy = q - o * BY;
                    if ((side ? has_r : has_l) && y0 + yy < H)
                        eout[PERKS_EDGE_INDEX(tile, side, k, q, R, TH * BY)] =
                            cache[o * PP + (yy + R) * WX + (side ? BX - R + k : k) + R];
                }
        }
        if (!last) PERKS_GRID_SYNC();
    }
}
/* ---- host pieces of the 3D generator: one copy for every instantiation */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* an instantiation's sizes and kernel (name_geom() fills one) */
typedef struct perks__s3d_geom {
    int bx, by, r, pp, nt, npf, cell_bytes; /* tile columns, rows, radius, framed plane's cells, threads,
                                               ring cells a thread, sizeof(T) */
    int ncoef;                              /* the shape's coefficients */
    size_t ring_bytes;                      /* name_ring_bytes(): 2 RC planes */
    const void *kernel;                     /* name_kernel */
    unsigned policies;                      /* the boundary policies it gives (bit p for policy p) */
} perks__s3d_geom;

/* the persistent plan (args checked): tiles, cached planes, % cached */
static inline int perks__s3d_pers_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc, bps, maxb, tx, ty, slabs, th, tpb, nc;
    long long across, planes, cs;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kernel, g->nt, (long)g->ring_bytes, g->npf * g->cell_bytes, g->cell_bytes, g->pp)))
        return rc;
    maxb = perks_plan_max_blocks(&d, &k);
    if (maxb < 1) return PERKS_ERESOURCE;
    if (a->blocks_per_sm > maxb) return PERKS_ESIZE;
    bps = a->blocks_per_sm;
    if (!bps) {
        bps = perks_plan_little(&d, &k);
        if (bps > maxb) bps = maxb;
    }
    rc = perks_plan_make(p, &d, &k, (long long)a->nx * a->ny * a->nz, bps);
    if (rc) return rc;
    planes = a->cache == PERKS_CACHE_NONE ? 0 : p->smem_cache_cells / g->pp;
    tx = (a->nx + g->bx - 1) / g->bx;
    ty = (a->ny + g->by - 1) / g->by;
    across = (long long)tx * ty;
    if (across <= p->grid) {
        slabs = (int)(p->grid / across);
        if (slabs > a->nz) slabs = a->nz;
        th = (a->nz + slabs - 1) / slabs;
        slabs = (a->nz + th - 1) / th;
        p->tiles = (int)(across * slabs);
        tpb = 1;
    } else {
        if (across > (1LL << 30)) return PERKS_ESIZE;
        slabs = 1;
        th = a->nz;
        p->tiles = (int)across;
        tpb = (int)((across + p->grid - 1) / p->grid);
    }
    p->grid = (p->tiles + tpb - 1) / tpb;
    nc = (int)(planes / tpb < th ? planes / tpb : th);
    if (a->cache_rows_max > 0 && nc > a->cache_rows_max) nc = a->cache_rows_max;
    p->tiles_x = tx;
    p->tiles_y = ty;
    p->tile_w = g->bx;
    p->tile_h = g->by;
    p->tile_len = th;
    p->reg_rows = 0;
    p->smem_rows = nc;
    p->smem_cache_cells = (long)nc * g->pp;
    p->smem_bytes = (long)g->ring_bytes + (long)tpb * nc * g->pp * (long)g->cell_bytes;
    cs = 0;
    for (int i = 0; i < slabs; i++) {
        int len = a->nz - i * th < th ? a->nz - i * th : th;
        cs += len < nc ? len : nc;
    }
    p->cells_reg = 0;
    p->cells_smem = cs * a->nx * a->ny;
    p->cells_dev = p->cells - p->cells_smem;
    p->cached_fraction = (double)p->cells_smem / (double)p->cells;
    p->path = p->cells_smem == p->cells ? PERKS_PLAN_RESIDENT : PERKS_PLAN_STREAM;
    return PERKS_SUCCESS;
}

/* one launch a step (args checked): the same kernel with nothing cached, one step, tiles of at
 * least 16 planes sized to fill about two waves of resident blocks (the kernel's shared memory
 * raised to the ring, its occupancy queried; neither for 0 steps) */
static inline int perks__s3d_steps_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g)
{
    int dev, sms, bps = 0, slabs, tx, ty, th;
    long long across, tiles;
    memset(p, 0, sizeof *p);
    p->path = PERKS_PLAN_STEPS;
    p->block = g->nt;
    p->tile_w = g->bx;
    p->tile_h = g->by;
    p->smem_bytes = (long)g->ring_bytes;
    p->dyn_smem_base = (long)g->ring_bytes;
    p->cell_bytes = g->cell_bytes;
    p->cells = (long long)a->nx * a->ny * a->nz;
    p->cells_dev = p->cells;
    if (a->steps == 0) return PERKS_SUCCESS;
    if (cudaGetDevice(&dev) != cudaSuccess || onchip_device_sms(dev, &sms) != cudaSuccess) return PERKS_ECUDA;
    if (onchip_smem_allow(g->kernel, g->ring_bytes) != cudaSuccess) return PERKS_ECUDA;
    if (onchip_occupancy(g->kernel, g->nt, g->ring_bytes, &bps) != cudaSuccess) return PERKS_ECUDA;
    if (bps < 1) return PERKS_ERESOURCE;
    tx = (a->nx + g->bx - 1) / g->bx;
    ty = (a->ny + g->by - 1) / g->by;
    across = (long long)tx * ty;
    slabs = (int)((2LL * bps * sms + across - 1) / across);
    if (slabs > a->nz) slabs = a->nz;
    th = (a->nz + slabs - 1) / slabs;
    if (th < 16) th = a->nz < 16 ? a->nz : 16;
    tiles = across * ((a->nz + th - 1) / th);
    if (tiles > 0x7fffffffLL) return PERKS_ESIZE;
    p->tiles_x = tx;
    p->tiles_y = ty;
    p->tile_len = th;
    p->tiles = p->grid = (int)tiles;
    return PERKS_SUCCESS;
}

/* the edge buffers of a persistent plan (none when nothing is cached): its workspace_bytes */
static inline size_t perks__s3d_work_bytes(const perks__s3d_geom *g, const perks_plan *p)
{
    return p->smem_rows > 0 ? 2 * perks_edge_elems(p->tiles, g->r, p->tile_len * g->by) * g->cell_bytes : 0;
}

/* name_plan: the checks, the persistent plan or one launch a step, the head */
static inline int perks__s3d_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g)
{
    const char *why = NULL;
    int rc;
    if (!p) return PERKS_ENULL;
    if (!a) return perks__plan_refuse(p, PERKS_ENULL, "a NULL argument: args");
    if ((rc = perks__stencil_check(a, 3, g->policies, g->ncoef, g->cell_bytes, &why))) return perks__plan_refuse(p, rc, why);
    if (a->path == PERKS_KERNEL_STEPS) {
        if ((rc = perks__s3d_steps_plan(a, p, g)))
            return perks__plan_refuse(p, rc, rc == PERKS_ESIZE ? "one launch a step: more than 2^31 - 1 tiles" : NULL);
        return perks__plan_done(a, p, PERKS_PLAN_STEPS, "one launch a step, as args.path asks: the non-persistent baseline", 0);
    }
    if ((rc = perks__s3d_pers_plan(a, p, g))) return perks__plan_refuse(p, rc, NULL);
    why = p->path == PERKS_PLAN_RESIDENT     ? "resident: every plane of every tile fits in shared memory"
          : a->cache == PERKS_CACHE_NONE     ? "streamed: cache mode NONE keeps no plane in shared memory"
          : p->smem_rows == 0                ? "streamed: not one plane of a tile fits in shared memory"
                                             : "partly cached: the first planes of each tile in shared memory, the rest "
                                               "streamed through the ring";
    return perks__plan_done(a, p, p->path, why, perks__s3d_work_bytes(g, p));
}

/* one cooperative launch: the edge buffers (a->work, or allocated and freed here; none when nothing
 * is cached), w the weights */
static inline int perks__s3d_launch(const perks_stencil3d_args *a, const perks_plan *p, const perks__s3d_geom *g, void *w,
                                    cudaStream_t stream)
{
    const size_t elems = p->smem_rows > 0 ? perks_edge_elems(p->tiles, g->r, p->tile_len * g->by) : 0;
    const size_t need = p->workspace_bytes;
    int rc;
    void *work, *pa, *pb, *ea, *eb;
    work = a->work;
    if (!work && need && cudaMalloc(&work, need) != cudaSuccess) return PERKS_ECUDA;
    pa = (void *)a->src;
    pb = a->dst;
    ea = need ? work : NULL;
    eb = need ? (char *)work + elems * g->cell_bytes : NULL;
    {
        int W = a->nx, H = a->ny, D = a->nz, steps = a->steps, nt = p->tiles, tx = p->tiles_x, ty = p->tiles_y,
            th = p->tile_len, nc = p->smem_rows;
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &D, &steps, &nt, &tx, &ty, &th, &nc, w};
        rc = perks_launch(g->kernel, dim3(p->grid), dim3(g->nt), args, (size_t)p->smem_bytes, stream);
    }
    if (!a->work && need) {
        if (cudaFree(work) != cudaSuccess && !rc) rc = PERKS_ECUDA;
    }
    return rc;
}

/* one ordinary launch a step of the same kernel, nothing cached, on the plan's tiles; w the weights */
static inline int perks__s3d_steps(const perks_stencil3d_args *a, const perks_plan *p, const perks__s3d_geom *g, void *w,
                                   cudaStream_t stream)
{
    const size_t sm = g->ring_bytes;
    int tx = p->tiles_x, ty = p->tiles_y, th = p->tile_len, W = a->nx, H = a->ny, D = a->nz, one = 1, nt = p->tiles, nc = 0;
    void *pa, *pb, *ea = NULL, *eb = NULL;
    if (onchip_smem_allow(g->kernel, sm) != cudaSuccess) return PERKS_ECUDA;
    for (long long t = 0; t < p->passes; t++) {
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &D, &one, &nt, &tx, &ty, &th, &nc, w};
        pa = (t & 1) ? a->dst : (void *)a->src;
        pb = (t & 1) ? (void *)a->src : a->dst;
        cudaLaunchKernel(g->kernel, dim3((unsigned)nt), dim3(g->nt), args, sm, stream);
        if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;
    }
    return PERKS_SUCCESS;
}

/* name_run: what the plan says (none, one cooperative launch, or one launch a step); w: storage of
 * wbytes for the weights */
static inline int perks__s3d_run(const perks_stencil3d_args *a, const perks_plan *p, const perks__s3d_geom *g, void *w,
                                 size_t wbytes, cudaStream_t stream)
{
    if (!a || !p) return PERKS_ENULL;
    if (p->passes <= 0) return PERKS_SUCCESS;
    perks__stencil_weights(w, wbytes, a->coef, g->ncoef, g->cell_bytes);
    if (p->path == PERKS_PLAN_STEPS) return perks__s3d_steps(a, p, g, w, stream);
    return perks__s3d_launch(a, p, g, w, stream);
}
#endif /* !__CUDACC_RTC__ */


/* ---- the generator: names, sizes and types pasted around one call of the body */
/* the policy, the generator's last argument (docs/perks.md#reference-3d-parameters-and-limits) */
template <int BX_ = 32, int BY_ = 16, int RC_ = 4, int MINB_ = 1>
struct perks_stencil3d_policy {
    enum { bx = BX_, by = BY_, rc = RC_, minb = MINB_ };
};
/* a policy's fields and value 1; for another type value 0 and the defaults (docs/onchip.md#one-sentence) */
template <class X>
struct perks__is_s3d_policy : onchip_policy<perks_stencil3d_policy, X>::type {
    enum { value = onchip_policy<perks_stencil3d_policy, X>::value };
};

#define PERKS_STENCIL3D_DEFINE(name, T, SHAPE, ...)                                                  \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                            \
    static_assert(perks__is_s3d_policy<name##_policy>::value, "PERKS_STENCIL3D_DEFINE(" #name        \
                  "): the last argument must be a perks_stencil3d_policy<BX, BY, RC, MINB>");         \
    PERKS__S3D_DEFINE(name, T, SHAPE, PERKS__S3D_FIELD(name, bx), PERKS__S3D_FIELD(name, by),         \
                      PERKS__S3D_FIELD(name, rc), PERKS__S3D_FIELD(name, minb))
#define PERKS__S3D_FIELD(name, field) ((int)perks__is_s3d_policy<name##_policy>::field)
#define PERKS__S3D_DEFINE(name, T, SHAPE, BX, BY, RC, MINB)                                         \
    PERKS__S3D_TYPES(name, T, SHAPE, BX, BY, RC, MINB)                                               \
    __global__ void __launch_bounds__((BX) * (BY), MINB)                                             \
        name##_kernel(T *a, T *b, T *ea, T *eb, int nx, int ny, int D, int steps, int ntiles, int tiles_x, int tiles_y, \
                      int TH, int nc, name##_weights w)                                              \
    { perks_stencil3d<T, name##_shape, BX, BY, RC>(a, b, ea, eb, nx, ny, D, steps, ntiles, tiles_x, tiles_y, TH, nc, w.w); } \
    PERKS__S3D_HOST(name, T, BX, BY, RC)

/* the limits (T first: a wrong type stops here), the shape as a type, the sizes, the coefficients */
#define PERKS__S3D_TYPES(name, T, SHAPE, BX, BY, RC, MINB)                                           \
    static_assert(perks__is_real<T>::value, "PERKS_STENCIL3D_DEFINE(" #name "): T must be float or double"); \
    typedef ONCHIP_SHAPE3D_TYPE(SHAPE) name##_shape;                                                  \
    static_assert(name##_shape::rmax <= PERKS_STENCIL3D_RMAX,                                       \
                  "PERKS_STENCIL3D_DEFINE(" #name "): SHAPE reaches more than 4 cells away; r must be at most 4"); \
    static_assert((BX) % 32 == 0 && (BX) >= 32 && (BY) >= 1 && (BX) * (BY) <= ONCHIP_THREADS_PER_BLOCK_MAX, \
                  "PERKS_STENCIL3D_DEFINE(" #name "): BX must be a multiple of 32 and BX * BY at most 1024 threads"); \
    static_assert((RC) >= 1 && (RC) <= 16, "PERKS_STENCIL3D_DEFINE(" #name "): RC must be from 1 to 16 planes"); \
    static_assert((MINB) >= 1, "PERKS_STENCIL3D_DEFINE(" #name "): MINB must be at least 1");           \
    typedef perks__s3d_sizes<name##_shape, BX, BY, RC> name##_sizes;                                 \
    typedef struct name##_weights {                                                                  \
        T w[name##_shape::npts];                                                                     \
    } name##_weights;                                                                                \
    enum { name##_R = name##_sizes::r, name##_WX = name##_sizes::wx, name##_PP = name##_sizes::pp,   \
           name##_NT = name##_sizes::nt, name##_NPF = name##_sizes::npf, name##_NCOEF = name##_shape::ncoef };

/* the host side: each function one call of a shared one (above); none under NVRTC, where the
 * generator emits the kernel only */
#ifndef __CUDACC_RTC__
#define PERKS__S3D_FN static inline __attribute__((unused))
#define PERKS__S3D_HOST(name, T, BX, BY, RC)                                                         \
    PERKS__S3D_FN perks__s3d_geom name##_geom(void)                                                  \
    {                                                                                                \
        const perks__s3d_geom g = {(BX), (BY), name##_R, name##_PP, name##_NT, name##_NPF, (int)sizeof(T), \
                                   name##_NCOEF, (size_t)2 * (RC) * name##_PP * sizeof(T), (const void *)name##_kernel, \
                                   perks__stencil_policies<name##_shape>(3)};                        \
        return g;                                                                                    \
    }                                                                                                \
    /* the ring (2 RC planes) at the start of dynamic shared memory; cached planes follow */       \
    PERKS__S3D_FN size_t name##_ring_bytes(void) { return name##_geom().ring_bytes; }                \
    PERKS__S3D_FN int name##_plan(const perks_stencil3d_args *a, perks_plan *p)                      \
    { const perks__s3d_geom g = name##_geom(); return perks__s3d_plan(a, p, &g); }                  \
    PERKS__S3D_FN int name##_run(const perks_stencil3d_args *a, const perks_plan *p, cudaStream_t stream) \
    { const perks__s3d_geom g = name##_geom(); name##_weights w; return perks__s3d_run(a, p, &g, &w, sizeof w, stream); } \
    ONCHIP__LAUNCH_VERB(name, perks_stencil3d_args, perks_plan)
#else
#define PERKS__S3D_HOST(name, T, BX, BY, RC)
#endif

#endif /* PERKS_STENCIL3D_CUH */
#include <onchip/names_pop.h>
