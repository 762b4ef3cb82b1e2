/* perks/tile.cuh -- a block's tile of a 2D domain kept in shared memory for a whole persistent run,
 * and the halo exchange between tiles through device memory: the pieces for a persistent kernel of
 * one's own (examples/life.cu builds Conway's Game of Life from them).
 *
 * WHAT (PERKS paper §3-§4.2: one tile per co-resident block, cached on chip between steps; only the
 * tile's edges travel through device memory, the side edges transposed)
 *   perks_tile2d_split(W, H, tile_w, grid, r, &tx, &ty, &th)   host: tiles of tile_w columns by th
 *                         rows, at most `grid` of them (one per co-resident block), every tile at
 *                         least r columns and r rows; PERKS_ECORESIDENT when W needs more tile
 *                         columns than `grid`
 *   perks_tile2d_at(id, tiles_x, tile_w, tile_h, W, H)   the tile `id` (row-major: id = ty tiles_x +
 *                         tx): its origin x0, y0, its (ragged) w x h, tx, ty, id
 *   PERKS_TILE_AT(P, r, y, x)      the shared-memory index of tile cell (y, x); the tile is stored
 *                         with a frame of r cells on every side, P elements a row (P >= tile_w + 2r),
 *                         y and x from -r to h + r - 1 / w + r - 1
 *   PERKS_TILE_LOAD(s, P, r, t, src, W)      interior of tile t from a W-wide domain (all threads)
 *   PERKS_TILE_STORE(s, P, r, t, dst, W)     interior of tile t to the domain (all threads)
 *   PERKS_TILE_PUBLISH(s, P, r, t, rows, cols, W, len)   the tile's r top and r bottom rows to the
 *                         row buffer (full-width rows, one pair of r-row bands per tile row) and its
 *                         r left and r right columns to the column buffer (transposed,
 *                         PERKS_EDGE_INDEX of perks/cache.cuh, len = tile_h): coalesced both ways
 *   PERKS_TILE_LOAD_FRAME(s, P, r, t, rows, cols, W, H, tiles_x, tiles_y, len, wrap, fill)
 *                         the frame from the neighbours' published edges: rows above and below
 *                         (corners included) from the row buffer, columns from the column buffer;
 *                         wrap 1: a torus (periodic), wrap 0: cells outside the domain read `fill`
 *   PERKS_TILE_ROW_INDEX(ty, side, k, x, r, W)   row-buffer index: tile row ty, side 0 top / 1
 *                         bottom, band row k < r from the outside in, column x < W
 *   perks_tile_rows_elems(tiles_y, r, W)  elements of ONE row buffer (allocate two: ping-pong);
 *                         the column buffer is perks_edge_elems(tiles_x tiles_y, r, tile_h)
 *
 * EXAMPLE (one step of a user's update between grid barriers; see examples/life_kernel.inc)
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
 *   One grid barrier per step is enough with two buffers: a block publishes into buffer g & 1 only
 *   after the barrier of step g - 1, which every block passes after its frame loads of step g - 2.
 *
 * LIMITS AND COSTS
 *   The macros are type-generic (s, src, dst, rows, cols point to the same element type; the
 *   exchange buffers are read with __ldcg, past the incoherent L1) and run on all threads of the
 *   block (1D, 2D or 3D blocks: flattened), each cell by one thread: no barrier inside; the caller
 *   puts __syncthreads between a step's writes of s and the next piece that reads them.  Shared
 *   memory: (tile_h + 2r) P elements.  Device memory per step: 2 r (w + h) elements written and
 *   2 r (w + 2r + h) read per tile.  Every tile needs at least r rows and r columns
 *   (perks_tile2d_split ensures it) and W, H >= r.  No registers beyond loop indices.
 */
#ifndef PERKS_TILE_CUH
#define PERKS_TILE_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include "base.h"
#include "cache.cuh"

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

/* W x H cells in tiles of tile_w columns; at most `grid` tiles, as many as the grid allows (tiles
 * of equal rows, the last one ragged), each with >= r rows and columns.  Host or device. */
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

static __host__ __device__ __forceinline__ size_t perks_tile_rows_elems(int tiles_y, int r, int W)
{
    return (size_t)tiles_y * 2 * (size_t)r * (size_t)W;
}

#define PERKS_TILE_AT(P, r, y, x) (((y) + (r)) * (P) + (x) + (r))
#define PERKS_TILE_ROW_INDEX(ty, side, k, x, r, W) \
    ((((size_t)(ty) * 2 + (size_t)(side)) * (size_t)(r) + (size_t)(k)) * (size_t)(W) + (size_t)(x))
/* this thread's index in the block and the block's threads (any block shape) */
#define PERKS__TID (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))
#define PERKS__NTH (blockDim.x * blockDim.y * blockDim.z)

/* interior of tile t <-> the W-wide domain, one cell per thread, row by row (coalesced);
 * STMT: the copy, given the domain index perks__g and the tile cell (perks__y, perks__x) */
#define PERKS__TILE_COPY(t, W, STMT)                                                                   \
    do {                                                                                               \
        const int perks__n = (t).w * (t).h;                                                            \
        for (int perks__i = (int)PERKS__TID; perks__i < perks__n; perks__i += (int)PERKS__NTH) {       \
            const int perks__y = perks__i / (t).w, perks__x = perks__i - perks__y * (t).w;             \
            const size_t perks__g = (size_t)((t).y0 + perks__y) * (size_t)(W) + (size_t)((t).x0 + perks__x); \
            STMT;                                                                                      \
        }                                                                                              \
    } while (0)
#define PERKS_TILE_LOAD(s, P, r, t, src, W) \
    PERKS__TILE_COPY(t, W, (s)[PERKS_TILE_AT(P, r, perks__y, perks__x)] = (src)[perks__g])
#define PERKS_TILE_STORE(s, P, r, t, dst, W) \
    PERKS__TILE_COPY(t, W, (dst)[perks__g] = (s)[PERKS_TILE_AT(P, r, perks__y, perks__x)])

/* the tile's edges out: band row k of the top side is tile row k, of the bottom side row h-1-k;
 * column k of the left side is tile column k, of the right side column w-1-k */
#define PERKS_TILE_PUBLISH(s, P, r, t, rows, cols, W, len)                                             \
    do {                                                                                               \
        int perks__n = (r) * (t).w;                                                                    \
        for (int perks__i = (int)PERKS__TID; perks__i < perks__n; perks__i += (int)PERKS__NTH) {       \
            const int perks__k = perks__i / (t).w, perks__x = perks__i - perks__k * (t).w;             \
            (rows)[PERKS_TILE_ROW_INDEX((t).ty, 0, perks__k, (t).x0 + perks__x, r, W)] =               \
                (s)[PERKS_TILE_AT(P, r, perks__k, perks__x)];                                          \
            (rows)[PERKS_TILE_ROW_INDEX((t).ty, 1, perks__k, (t).x0 + perks__x, r, W)] =               \
                (s)[PERKS_TILE_AT(P, r, (t).h - 1 - perks__k, perks__x)];                              \
        }                                                                                              \
        perks__n = (r) * (t).h;                                                                        \
        for (int perks__i = (int)PERKS__TID; perks__i < perks__n; perks__i += (int)PERKS__NTH) {       \
            const int perks__k = perks__i / (t).h, perks__y = perks__i - perks__k * (t).h;             \
            (cols)[PERKS_EDGE_INDEX((t).id, 0, perks__k, perks__y, r, len)] =                          \
                (s)[PERKS_TILE_AT(P, r, perks__y, perks__k)];                                          \
            (cols)[PERKS_EDGE_INDEX((t).id, 1, perks__k, perks__y, r, len)] =                          \
                (s)[PERKS_TILE_AT(P, r, perks__y, (t).w - 1 - perks__k)];                              \
        }                                                                                              \
    } while (0)

/* the frame in: row -1-k from the upper tile row's bottom band k (columns -r .. w+r-1, so the
 * corners come with it), row h+k from the lower one's top band k; column -1-k from the left tile's
 * right side k, column w+k from the right tile's left side k */
#define PERKS_TILE_LOAD_FRAME(s, P, r, t, rows, cols, W, H, tiles_x, tiles_y, len, wrap, fill)          \
    do {                                                                                               \
        const int perks__up = (t).ty > 0 ? (t).ty - 1 : (wrap) ? (tiles_y) - 1 : -1;                   \
        const int perks__dn = (t).ty < (tiles_y) - 1 ? (t).ty + 1 : (wrap) ? 0 : -1;                   \
        const int perks__lt = (t).tx > 0 ? (t).tx - 1 : (wrap) ? (tiles_x) - 1 : -1;                   \
        const int perks__rt = (t).tx < (tiles_x) - 1 ? (t).tx + 1 : (wrap) ? 0 : -1;                   \
        const int perks__fw = (t).w + 2 * (r);                                                         \
        int perks__n = (r) * perks__fw;                                                                \
        for (int perks__i = (int)PERKS__TID; perks__i < perks__n; perks__i += (int)PERKS__NTH) {       \
            const int perks__k = perks__i / perks__fw, perks__x = perks__i - perks__k * perks__fw - (r); \
            int perks__gx = (t).x0 + perks__x;                                                         \
            const int perks__out = !(wrap) && (perks__gx < 0 || perks__gx >= (W));                     \
            perks__gx = perks__gx < 0 ? perks__gx + (W) : perks__gx >= (W) ? perks__gx - (W) : perks__gx; \
            (s)[PERKS_TILE_AT(P, r, -1 - perks__k, perks__x)] = (perks__up < 0 || perks__out) ? (fill) \
                : __ldcg((rows) + PERKS_TILE_ROW_INDEX(perks__up, 1, perks__k, perks__gx, r, W));      \
            (s)[PERKS_TILE_AT(P, r, (t).h + perks__k, perks__x)] = (perks__dn < 0 || perks__out) ? (fill) \
                : __ldcg((rows) + PERKS_TILE_ROW_INDEX(perks__dn, 0, perks__k, perks__gx, r, W));      \
        }                                                                                              \
        perks__n = (r) * (t).h;                                                                        \
        for (int perks__i = (int)PERKS__TID; perks__i < perks__n; perks__i += (int)PERKS__NTH) {       \
            const int perks__k = perks__i / (t).h, perks__y = perks__i - perks__k * (t).h;             \
            (s)[PERKS_TILE_AT(P, r, perks__y, -1 - perks__k)] = perks__lt < 0 ? (fill)                 \
                : __ldcg((cols) + PERKS_EDGE_INDEX((t).ty * (tiles_x) + perks__lt, 1, perks__k, perks__y, r, len)); \
            (s)[PERKS_TILE_AT(P, r, perks__y, (t).w + perks__k)] = perks__rt < 0 ? (fill)              \
                : __ldcg((cols) + PERKS_EDGE_INDEX((t).ty * (tiles_x) + perks__rt, 0, perks__k, perks__y, r, len)); \
        }                                                                                              \
    } while (0)

#endif /* PERKS_TILE_CUH */
