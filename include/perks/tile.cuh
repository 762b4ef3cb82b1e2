#include <onchip/names_push.h>
/* perks/tile.cuh -- a block's tile of a 2D domain kept in shared memory for a whole persistent run,
 * and the halo exchange between tiles through device memory (examples/life.cu builds Conway's Game
 * of Life from these pieces).  Costs and design: docs/perks.md#design-notes-perkstilecuh.
 *
 * WHAT (PERKS paper §3-§4.2)
 *   perks_tile2d_split, perks_tile2d_at, perks_tile_plan_make   the tiling, a tile, a kernel's plan
 *   PERKS_TILE_AT(P, r, y, x)   shared-memory index of cell (y, x), y, x >= -r, of a tile framed by r
 *                               cells, P >= tile_w + 2r a row
 *   PERKS_TILE_LOAD / _STORE / _PUBLISH / _LOAD_FRAME (the functions perks_tile_load, ...): the
 *   interior from / to the domain, the edges out (rows to the row buffer, columns transposed to the
 *   column buffer), the frame in from the neighbours' edges (wrap 1: a torus, 0: `fill` outside)
 *   GLOSSARY of the internal bodies' names: docs/perks.md#perks-stencil-glossary.
 *
 * EXAMPLE (one step of a user's update between grid barriers; see examples/life_kernel.inc)
 *   [not compiled: a piece of a kernel with the user's own step elided]
 *   perks_tile2d t = perks_tile2d_at(blockIdx.x, tiles_x, BX, tile_h, W, H);
 *   PERKS_TILE_LOAD(s, P, 1, t, in, W);  __syncthreads();
 *   PERKS_FOR_STEPS(g, steps) {
 *       T *rb = rows + (g & 1) * rows_elems, *cb = cols + (g & 1) * cols_elems;
 *       PERKS_TILE_PUBLISH(s, P, 1, t, rb, cb, W, tile_h);
 *       PERKS_GRID_SYNC();                                  // edges of every tile are out
 *       PERKS_TILE_LOAD_FRAME(s, P, 1, t, rb, cb, W, H, tiles_x, tiles_y, tile_h, 1, 0);
 *       __syncthreads();
 *       ...update the interior of s in place (the user's own step, ending with __syncthreads)...
 *   }
 *   PERKS_TILE_STORE(s, P, 1, t, out, W);
 *   One grid barrier a step: docs/perks.md#tile-one-barrier.
 *
 * LIMITS
 *   Type-generic.  All threads of the block run each piece, no barrier inside: __syncthreads between
 *   a step's writes of s and the next piece that reads them.  Every tile needs >= r rows and columns
 *   (perks_tile2d_split ensures it), W, H >= r.
 */
#ifndef PERKS_TILE_CUH
#define PERKS_TILE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the device pieces only */
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>
#endif
#include "base.h"
#include "cache.cuh"
#include "grid.cuh"

typedef struct perks_tile2d {
    int x0, y0; /* the tile's first column and row in the domain */
    int w, h;   /* its columns and rows (the last tile column / row may be narrower) */
    int tx, ty; /* its position in the tiling */
    int id;     /* ty * tiles_x + tx */
} perks_tile2d;

static __host__ __device__ __forceinline__ perks_tile2d perks_tile2d_at(int id, int tiles_x, int tile_w, int tile_h,
                                                                        int W, int H)
{
    perks_tile2d t;
    t.id = id;
    t.ty = id / tiles_x;
    t.tx = id - t.ty * tiles_x;
    t.x0 = t.tx * tile_w;
    t.y0 = t.ty * tile_h;
    t.w = W - t.x0 < tile_w ? W - t.x0 : tile_w;
    t.h = H - t.y0 < tile_h ? H - t.y0 : tile_h;
    return t;
}

/* tiles of tile_w columns and equal rows (the last ragged), at most `grid`, each >= r rows and
 * columns; PERKS_ECORESIDENT: W needs more tile columns than `grid` */
static __host__ __device__ __forceinline__ int perks_tile2d_split(int W, int H, int tile_w, int grid, int r,
                                                                  int *tiles_x, int *tiles_y, int *tile_h)
{
    int tx, ty, th;
    if (!tiles_x || !tiles_y || !tile_h) return PERKS_ENULL;
    if (W <= 0 || H <= 0 || tile_w <= 0 || grid <= 0 || r < 0 || W < r || H < r) return PERKS_ESIZE;
    tx = (W + tile_w - 1) / tile_w;
    if (W - (tx - 1) * tile_w < r) return PERKS_ESIZE; /* a last tile column narrower than r */
    if (tx > grid) return PERKS_ECORESIDENT;
    ty = grid / tx < H ? grid / tx : H;
    for (;;) {
        th = (H + ty - 1) / ty;
        ty = (H + th - 1) / th; /* drop empty tile rows */
        if (ty == 1 || H - (ty - 1) * th >= r) break;
        ty--;
    }
    *tiles_x = tx;
    *tiles_y = ty;
    *tile_h = th;
    return PERKS_SUCCESS;
}

/* elements of ONE row buffer (allocate two); the column buffer: perks_edge_elems(tiles, r, tile_h) */
static __host__ __device__ __forceinline__ size_t perks_tile_rows_elems(int tiles_y, int r, int W)
{
    return (size_t)tiles_y * 2 * (size_t)r * (size_t)W;
}

#define PERKS_TILE_AT(P, r, y, x) (((y) + (r)) * (P) + (x) + (r))
/* row-buffer index: tile row ty, side 0 top / 1 bottom, band row k < r from the outside in, column x */
#define PERKS_TILE_ROW_INDEX(ty, side, k, x, r, W) \
    ((((size_t)(ty) * 2 + (size_t)(side)) * (size_t)(r) + (size_t)(k)) * (size_t)(W) + (size_t)(x))

/* thread index and count, any block shape (docs/perks.md#tile-index-macros) */
#define PERKS__TID (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))
#define PERKS__NTH (blockDim.x * blockDim.y * blockDim.z)

/* interior of tile t from the W-wide domain into s, a cell a thread, row by row */
template <class S, class G>
static __device__ __forceinline__ void perks_tile_load(S *s, int P, int r, const perks_tile2d t, const G *src, int W)
{
    const int n = t.w * t.h;
    for (int i = (int)PERKS__TID; i < n; i += (int)PERKS__NTH) {
        const int y = i / t.w, x = i - y * t.w;
        const size_t g = (size_t)(t.y0 + y) * (size_t)W + (size_t)(t.x0 + x);
        s[PERKS_TILE_AT(P, r, y, x)] = src[g];
    }
}

/* interior of tile t from s to the W-wide domain dst */
template <class S, class G>
static __device__ __forceinline__ void perks_tile_store(const S *s, int P, int r, const perks_tile2d t, G *dst, int W)
{
    const int n = t.w * t.h;
    for (int i = (int)PERKS__TID; i < n; i += (int)PERKS__NTH) {
        const int y = i / t.w, x = i - y * t.w;
        const size_t g = (size_t)(t.y0 + y) * (size_t)W + (size_t)(t.x0 + x);
        dst[g] = s[PERKS_TILE_AT(P, r, y, x)];
    }
}

/* edges out: top band row k = tile row k, bottom: row h-1-k; left column k = column k, right: w-1-k */
template <class S, class B, class C>
static __device__ __forceinline__ void perks_tile_publish(const S *s, int P, int r, const perks_tile2d t, B *rows,
                                                          C *cols, int W, int len)
{
    int n = r * t.w;
    for (int i = (int)PERKS__TID; i < n; i += (int)PERKS__NTH) {
        const int k = i / t.w, x = i - k * t.w;
        rows[PERKS_TILE_ROW_INDEX(t.ty, 0, k, t.x0 + x, r, W)] = s[PERKS_TILE_AT(P, r, k, x)];
        rows[PERKS_TILE_ROW_INDEX(t.ty, 1, k, t.x0 + x, r, W)] = s[PERKS_TILE_AT(P, r, t.h - 1 - k, x)];
    }
    n = r * t.h;
    for (int i = (int)PERKS__TID; i < n; i += (int)PERKS__NTH) {
        const int k = i / t.h, y = i - k * t.h;
        cols[PERKS_EDGE_INDEX(t.id, 0, k, y, r, len)] = s[PERKS_TILE_AT(P, r, y, k)];
        cols[PERKS_EDGE_INDEX(t.id, 1, k, y, r, len)] = s[PERKS_TILE_AT(P, r, y, t.w - 1 - k)];
    }
}

/* frame in: row -1-k from the upper tile's bottom band k (columns -r .. w+r-1: corners included),
 * h+k from the lower one's top band k; column -1-k from the left tile's right side k, w+k from the
 * right one's left side k; by __ldcg */
template <class S, class B, class C, class F>
static __device__ __forceinline__ void perks_tile_load_frame(S *s, int P, int r, const perks_tile2d t, const B *rows,
                                                             const C *cols, int W, int H, int tiles_x, int tiles_y,
                                                             int len, int wrap, F fill)
{
    const int up = t.ty > 0 ? t.ty - 1 : wrap ? tiles_y - 1 : -1;
    const int dn = t.ty < tiles_y - 1 ? t.ty + 1 : wrap ? 0 : -1;
    const int lt = t.tx > 0 ? t.tx - 1 : wrap ? tiles_x - 1 : -1;
    const int rt = t.tx < tiles_x - 1 ? t.tx + 1 : wrap ? 0 : -1;
    const int fw = t.w + 2 * r;
    int n = r * fw;
    (void)H;
    for (int i = (int)PERKS__TID; i < n; i += (int)PERKS__NTH) {
        const int k = i / fw, x = i - k * fw - r;
        int gx = t.x0 + x;
        const int out = !wrap && (gx < 0 || gx >= W);
        gx = gx < 0 ? gx + W : gx >= W ? gx - W : gx;
        s[PERKS_TILE_AT(P, r, -1 - k, x)] =
            (up < 0 || out) ? fill : __ldcg(rows + PERKS_TILE_ROW_INDEX(up, 1, k, gx, r, W));
        s[PERKS_TILE_AT(P, r, t.h + k, x)] =
            (dn < 0 || out) ? fill : __ldcg(rows + PERKS_TILE_ROW_INDEX(dn, 0, k, gx, r, W));
    }
    n = r * t.h;
    for (int i = (int)PERKS__TID; i < n; i += (int)PERKS__NTH) {
        const int k = i / t.h, y = i - k * t.h;
        s[PERKS_TILE_AT(P, r, y, -1 - k)] =
            lt < 0 ? fill : __ldcg(cols + PERKS_EDGE_INDEX(t.ty * tiles_x + lt, 1, k, y, r, len));
        s[PERKS_TILE_AT(P, r, y, t.w + k)] =
            rt < 0 ? fill : __ldcg(cols + PERKS_EDGE_INDEX(t.ty * tiles_x + rt, 0, k, y, r, len));
    }
}

/* ---- the plan of a persistent tile kernel of one's own: docs/perks.md#tile-plan */
typedef struct perks_tile_opts {
    int tile_w;        /* columns a tile; 0: the block's threads */
    int pitch;         /* cells a framed tile row in shared memory; 0: tile_w + 2 r */
    int extra_rows;    /* shared rows of `pitch` cells beside the tile (e.g. a line buffer) */
    size_t smem_fixed; /* shared bytes beside those rows */
    int max_grid;      /* at most this many blocks; 0: all that can be co-resident */
} perks_tile_opts;

typedef struct perks_tile_plan {
    int W, H, r;             /* the domain (cells), the frame width */
    int tile_w, tile_h;      /* a tile's columns and rows (the last ones ragged) */
    int tiles_x, tiles_y;    /* grid = tiles_x tiles_y blocks, a tile each */
    int grid, block;         /* the cooperative launch */
    int pitch;               /* cells a framed tile row */
    int blocks_per_sm, sms;  /* the occupancy taken, the device's SMs */
    size_t cell_bytes;       /* bytes a cell */
    size_t smem;             /* dynamic shared bytes: (tile_h + 2 r + extra_rows) pitch cell_bytes + smem_fixed */
    size_t rows_bytes;       /* ONE row-edge buffer, 256-byte rounded */
    size_t cols_bytes;       /* ONE column-edge buffer, 256-byte rounded */
    size_t work_bytes;       /* the exchange's work buffer: 2 (rows_bytes + cols_bytes) */
    long long max_h;         /* the most rows a W-wide domain can have and still plan */
} perks_tile_plan;

#ifndef __CUDACC_RTC__ /* host code */
static inline size_t perks__tile_round(size_t b) { return (b + 255) / 256 * 256; }

/* one try of the planner for W x H (max_h left 0) */
static inline int perks__tile_plan_try(perks_tile_plan *p, const void *kernel, int block, int W, int H, int r,
                                       size_t cell_bytes, const perks_tile_opts *d)
{
    int bmax, sms, rc;
    rc = perks_occupancy(kernel, block, d->smem_fixed, &bmax, &sms);
    if (rc) return rc;
    for (int bps = bmax; bps >= 1; --bps) {
        int tx, ty, th, got, sms2, grid = bps * sms;
        if (d->max_grid > 0 && grid > d->max_grid) grid = d->max_grid;
        rc = perks_tile2d_split(W, H, d->tile_w, grid, r, &tx, &ty, &th);
        if (rc) return rc; /* PERKS_ECORESIDENT here stays so with fewer blocks */
        const size_t smem = (size_t)(th + 2 * r + d->extra_rows) * (size_t)d->pitch * cell_bytes + d->smem_fixed;
        rc = perks_occupancy(kernel, block, smem, &got, &sms2);
        if (rc == PERKS_ERESOURCE) continue;
        if (rc) return rc;
        if ((long long)got * sms2 < (long long)tx * ty) continue;
        memset(p, 0, sizeof *p);
        p->W = W; p->H = H; p->r = r;
        p->tile_w = d->tile_w; p->tile_h = th; p->tiles_x = tx; p->tiles_y = ty;
        p->grid = tx * ty; p->block = block; p->pitch = d->pitch;
        p->blocks_per_sm = bps; p->sms = sms; p->cell_bytes = cell_bytes; p->smem = smem;
        p->rows_bytes = perks__tile_round(perks_tile_rows_elems(ty, r, W) * cell_bytes);
        p->cols_bytes = perks__tile_round(perks_edge_elems(tx * ty, r, th) * cell_bytes);
        p->work_bytes = 2 * (p->rows_bytes + p->cols_bytes);
        return PERKS_SUCCESS;
    }
    return PERKS_ERESOURCE;
}

/* the plan for W x H with an r-cell frame: the most blocks per SM whose tiles fit, and max_h.
 * PERKS_ESIZE, PERKS_ECORESIDENT (W too wide), PERKS_ERESOURCE (H above max_h), ... */
static inline int perks_tile_plan_make(perks_tile_plan *p, const void *kernel, int block, int W, int H, int r,
                                       size_t cell_bytes, const perks_tile_opts *o)
{
    perks_tile_opts d = {0, 0, 0, 0, 0};
    perks_tile_plan q;
    int rc;
    long long lo, hi;
    if (!p || !kernel) return PERKS_ENULL;
    if (o) d = *o;
    if (!d.tile_w) d.tile_w = block;
    if (!d.pitch) d.pitch = d.tile_w + 2 * r;
    if (W <= 0 || H <= 0 || r < 0 || block <= 0 || block > ONCHIP_THREADS_PER_BLOCK_MAX || cell_bytes == 0 || d.tile_w <= 0 ||
        d.pitch < d.tile_w + 2 * r || d.extra_rows < 0 || d.max_grid < 0)
        return PERKS_ESIZE;
    rc = perks__tile_plan_try(p, kernel, block, W, H, r, cell_bytes, &d);
    if (rc) return rc;
    /* max_h: doubling, then bisection (taller tiles need more shared memory) */
    for (lo = H, hi = 2 * (long long)H; hi < (1LL << 30); lo = hi, hi *= 2) {
        const int rc2 = perks__tile_plan_try(&q, kernel, block, W, (int)hi, r, cell_bytes, &d);
        if (rc2 == PERKS_ERESOURCE) break;
        if (rc2) return rc2;
    }
    if (hi > (1LL << 30)) hi = 1LL << 30;
    while (lo < hi - 1) {
        const long long mid = lo + (hi - lo) / 2;
        const int rc2 = perks__tile_plan_try(&q, kernel, block, W, (int)mid, r, cell_bytes, &d);
        if (rc2 == 0) lo = mid;
        else if (rc2 == PERKS_ERESOURCE) hi = mid;
        else return rc2;
    }
    p->max_h = lo;
    return PERKS_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

/* the plan's tile `id` (row-major over the tiling) */
static __host__ __device__ __forceinline__ perks_tile2d perks_tile_of(const perks_tile_plan &p, int id)
{
    return perks_tile2d_at(id, p.tiles_x, p.tile_w, p.tile_h, p.W, p.H);
}
/* the edge buffers of step parity g in the plan's work buffer (T: the cell type) */
template <class T>
static __host__ __device__ __forceinline__ T *perks_tile_rows_buf(void *work, const perks_tile_plan &p, int g)
{
    return (T *)((char *)work + (size_t)(g & 1) * p.rows_bytes);
}
template <class T>
static __host__ __device__ __forceinline__ T *perks_tile_cols_buf(void *work, const perks_tile_plan &p, int g)
{
    return (T *)((char *)work + 2 * p.rows_bytes + (size_t)(g & 1) * p.cols_bytes);
}
/* the pieces with the plan's values: work the plan's work buffer, g the step (its parity picks) */
template <class S, class G>
static __device__ __forceinline__ void perks_tile_load(S *s, const perks_tile_plan &p, const perks_tile2d t, const G *src)
{
    perks_tile_load(s, p.pitch, p.r, t, src, p.W);
}
template <class S, class G>
static __device__ __forceinline__ void perks_tile_store(const S *s, const perks_tile_plan &p, const perks_tile2d t, G *dst)
{
    perks_tile_store(s, p.pitch, p.r, t, dst, p.W);
}
template <class S>
static __device__ __forceinline__ void perks_tile_publish(const S *s, const perks_tile_plan &p, const perks_tile2d t,
                                                          void *work, int g)
{
    perks_tile_publish(s, p.pitch, p.r, t, perks_tile_rows_buf<S>(work, p, g), perks_tile_cols_buf<S>(work, p, g), p.W,
                       p.tile_h);
}
template <class S, class F>
static __device__ __forceinline__ void perks_tile_load_frame(S *s, const perks_tile_plan &p, const perks_tile2d t,
                                                             void *work, int g, int wrap, F fill)
{
    perks_tile_load_frame(s, p.pitch, p.r, t, (const S *)perks_tile_rows_buf<S>(work, p, g),
                          (const S *)perks_tile_cols_buf<S>(work, p, g), p.W, p.H, p.tiles_x, p.tiles_y, p.tile_h, wrap,
                          fill);
}

/* the macro spellings */
#define PERKS_TILE_LOAD(s, P, r, t, src, W) perks_tile_load(s, P, r, t, src, W)
#define PERKS_TILE_STORE(s, P, r, t, dst, W) perks_tile_store(s, P, r, t, dst, W)
#define PERKS_TILE_PUBLISH(s, P, r, t, rows, cols, W, len) perks_tile_publish(s, P, r, t, rows, cols, W, len)
#define PERKS_TILE_LOAD_FRAME(s, P, r, t, rows, cols, W, H, tiles_x, tiles_y, len, wrap, fill) \
    perks_tile_load_frame(s, P, r, t, rows, cols, W, H, tiles_x, tiles_y, len, wrap, fill)

#endif /* PERKS_TILE_CUH */
#include <onchip/names_pop.h>
