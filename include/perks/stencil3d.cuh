/* perks/stencil3d.cuh -- persistent 3D stencils: the time loop in one cooperative kernel, the domain
 * cached in shared memory between steps (all of it where it fits, a slab of planes per tile where
 * it does not), the rest streamed from device memory in the same pass.
 *
 * WHAT (PERKS paper §4.2 "2D planes loaded one after the other", Listing 1, §5)
 *   PERKS_STENCIL3D_DEFINE(name, T, SHAPE, BX, BY, RC) defines
 *       __global__ void name_kernel(...)                                the kernel (persistent when
 *                                                                       launched by name_launch)
 *       int name_launch(const perks_stencil3d_args *, cudaStream_t)     all steps, one cooperative launch
 *       int name_steps(const perks_stencil3d_args *, cudaStream_t)      the same steps, one ordinary
 *                                                                       launch each (the non-persistent
 *                                                                       baseline: same kernel, same sums)
 *       int name_plan(const perks_stencil3d_args *, perks_plan *)       the plan name_launch uses
 *       size_t name_work_bytes(const perks_plan *)                      edge-buffer scratch it needs
 *   PERKS_STENCIL3D_DEFINE_OCC(..., MINB) adds __launch_bounds__(BX*BY, MINB).
 *   SHAPE is an X-macro list X(I, DX, DY, DZ) -- ssam/stencil_shapes.cuh's 3D format, so SSAM_SHAPE_*
 *   3D lists work unchanged; PERKS_SHAPE_3D7PT ... PERKS_SHAPE_POISSON below repeat the catalogue.
 *   A step computes, for every cell at least r = max |offset| from each face of the domain,
 *       out(x, y, z) = sum over DZ ascending, then list order, of c[I] * in(x + DX, y + DY, z + DZ)
 *   (one fma per point; for the catalogue's boxes and poisson that is list order) and keeps the
 *   value of every cell within r of a face (Dirichlet).
 *
 *   Layout.  A block of BX x BY threads owns tiles of BX x BY columns (one (x, y) column per
 *   thread) by tile_len planes along z (perks/plan.h's slabs; where there are more tile columns
 *   than co-resident blocks, a block takes several tiles in turn).  Shared memory holds, per tile,
 *   the first `smem_planes` planes of the tile with a frame of r cells around each ((BX + 2r) x
 *   (BY + 2r) cells a plane) -- all of them where the domain fits ("resident": every plane of every
 *   tile on chip, the paper's 'F') -- plus a ring of 2 x RC planes through which every other plane
 *   streams from device memory.  A step walks the planes -r .. tile_len + r - 1 in chunks of RC:
 *   each plane is read ONCE from shared memory (the in-plane points of every DZ at once) and added
 *   into 2r + 1 register accumulators, one per output plane it touches (the 2.5D partial-sum
 *   order); output plane o is done when plane o + r has been read.  One block barrier per chunk:
 *   before it the next chunk's ring planes are stored (loaded one chunk earlier: their loads fly
 *   during the compute), after it the chunk's outputs overwrite the cached planes in place (no
 *   later chunk reads them) or go to device memory (streamed planes).
 *   Halo (§4.2): each cached plane's frame is refreshed at the start of a step -- the r columns left
 *   and right from the neighbours' edge buffers, stored TRANSPOSED (perks/cache.cuh's
 *   PERKS_EDGE_INDEX with row = plane x BY + y: a warp reads and writes consecutive (plane, y)),
 *   the r rows above and below (with the corners) from the domain array, where every tile writes
 *   its first and last r rows, its first and last r planes, and every streamed plane.  One grid
 *   barrier per step; the results land in a (steps even) or b (steps odd), bit for bit equal to
 *   name_steps (the same kernel run one step per launch with nothing cached).
 *
 * EXAMPLE
 *     #include <perks/stencil3d.cuh>
 *     PERKS_STENCIL3D_DEFINE(heat3, float, PERKS_SHAPE_3D7PT, 32, 16, 4)
 *     float c[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};  // (0,0,0), -x, +x, -y, +y, -z, +z
 *     perks_stencil3d_args a = {0};
 *     a.a = d_u; a.b = d_v; a.width = W; a.height = H; a.depth = D; a.steps = 100; a.weights = c;
 *     a.cache = PERKS_CACHE_SMEM;
 *     int rc = heat3_launch(&a, stream);  // result in d_u (even steps) or d_v (odd steps)
 *
 * PARAMETERS AND LIMITS
 *   T float or double.  BX a multiple of 32 (one warp = one row of a plane), BX x BY <= 1024
 *   threads; RC >= 1 planes per chunk (registers: ~RC + 2 x (2r + 1) + RC (BX+2r)(BY+2r)/(BX BY)
 *   per thread plus addressing; x2 for double).  r <= 4.  Any (ragged) sizes >= 1, dense layout
 *   (x fastest, then y, then z).  a and b must not overlap; both are written.  Weights (one per
 *   coefficient index I) are read from HOST memory at launch.  cache: PERKS_CACHE_NONE (everything
 *   streamed, persistent), PERKS_CACHE_SMEM or PERKS_CACHE_MIX (the same here: the 3D kernel has
 *   no register cache -- each plane is read once per step, so a register slice would save no
 *   traffic that shared memory does not), PERKS_CACHE_REG returns PERKS_ESIZE.  smem_planes_max
 *   > 0 caps the cached planes per tile.  work: device scratch of name_work_bytes (NULL: allocated
 *   and freed by the launcher, which synchronises).  The grid is always co-resident: perks_launch
 *   checks it again with the runtime (PERKS_ECORESIDENT, never a hang); blocks_per_sm above what
 *   the kernel allows returns PERKS_ESIZE.
 *
 *   The limits on T, BX, BY, RC and r are static_asserts: a bad instantiation stops the build with a
 *   sentence naming it.
 *
 * PIECES (each under 50 lines)
 *   PERKS_STENCIL3D_DEFINE_OCC only pastes names, sizes and types around: PERKS__S3D_TYPES,
 *   PERKS__S3D_KERNEL (PERKS__S3D_SETUP, _PROLOGUE, and per tile _TILE, _FRAME, _PASS (_PASS_START,
 *   _PLANES, _OUT over PERKS__LOAD3D / _STORE3D / _RING3D), _EDGES_OUT) and PERKS__S3D_HOST; the host
 *   logic lives in the perks__s3d_* functions below, one copy for all instantiations.
 *
 * This header includes perks/stencil.cuh (cache modes, perks_device_query) and nothing from ssam.
 */
#ifndef PERKS_STENCIL3D_CUH
#define PERKS_STENCIL3D_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>

#include "base.h"
#include "cache.cuh"
#include "grid.cuh"
#include "plan.h"
#include "stencil.cuh"

typedef struct perks_stencil3d_args {
    void *a, *b;         /* T *, device, width x height x depth each; the input in a.  After `steps`
                            steps the result is in a (steps even) or b (steps odd). */
    int width, height, depth; /* cells; x fastest, then y, then z (dense) */
    int steps;           /* >= 0 */
    const void *weights; /* T *, HOST: one coefficient per index I of the shape */
    int cache;           /* PERKS_CACHE_NONE, _SMEM, _MIX (= SMEM); _REG: PERKS_ESIZE */
    int blocks_per_sm;   /* 0: by perks/plan.h (Little's law, capped by resources) */
    int smem_planes_max; /* 0: as many cached planes per tile as fit; > 0: at most this many */
    void *work;          /* device scratch (edge buffers), name_work_bytes; NULL: allocated here */
    size_t work_bytes;
} perks_stencil3d_args;

/* ---- the 3D catalogue, X(I, DX, DY, DZ): the same lists as ssam/stencil_shapes.cuh ------------ */
#define PERKS_SHAPE_STAR3D_R1(X)                                                                     \
    X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 1, 0, 0) X(3, 0, -1, 0) X(4, 0, 1, 0) X(5, 0, 0, -1) X(6, 0, 0, 1)
#define PERKS_SHAPE_STAR3D_R2(X)                                                                     \
    PERKS_SHAPE_STAR3D_R1(X) X(7, -2, 0, 0) X(8, 2, 0, 0) X(9, 0, -2, 0) X(10, 0, 2, 0) X(11, 0, 0, -2) \
        X(12, 0, 0, 2)
#define PERKS__B3ROW1(X, B, DY, DZ) X(B, -1, DY, DZ) X(B + 1, 0, DY, DZ) X(B + 2, 1, DY, DZ)
#define PERKS__B3PLANE1(X, B, DZ) PERKS__B3ROW1(X, B, -1, DZ) PERKS__B3ROW1(X, B + 3, 0, DZ) PERKS__B3ROW1(X, B + 6, 1, DZ)
#define PERKS_SHAPE_BOX3D_R1(X) PERKS__B3PLANE1(X, 0, -1) PERKS__B3PLANE1(X, 9, 0) PERKS__B3PLANE1(X, 18, 1)
#define PERKS__B3ROW2(X, B, DY, DZ)                                                                  \
    X(B, -2, DY, DZ) X(B + 1, -1, DY, DZ) X(B + 2, 0, DY, DZ) X(B + 3, 1, DY, DZ) X(B + 4, 2, DY, DZ)
#define PERKS__B3PLANE2(X, B, DZ)                                                                    \
    PERKS__B3ROW2(X, B, -2, DZ) PERKS__B3ROW2(X, B + 5, -1, DZ) PERKS__B3ROW2(X, B + 10, 0, DZ)      \
        PERKS__B3ROW2(X, B + 15, 1, DZ) PERKS__B3ROW2(X, B + 20, 2, DZ)
#define PERKS_SHAPE_BOX3D_R2(X)                                                                      \
    PERKS__B3PLANE2(X, 0, -2) PERKS__B3PLANE2(X, 25, -1) PERKS__B3PLANE2(X, 50, 0) PERKS__B3PLANE2(X, 75, 1) \
        PERKS__B3PLANE2(X, 100, 2)
#define PERKS_SHAPE_POISSON3D_19(X)                                                                  \
    X(0, 0, -1, -1) X(1, -1, 0, -1) X(2, 0, 0, -1) X(3, 1, 0, -1) X(4, 0, 1, -1) X(5, -1, -1, 0)     \
        X(6, 0, -1, 0) X(7, 1, -1, 0) X(8, -1, 0, 0) X(9, 0, 0, 0) X(10, 1, 0, 0) X(11, -1, 1, 0)    \
            X(12, 0, 1, 0) X(13, 1, 1, 0) X(14, 0, -1, 1) X(15, -1, 0, 1) X(16, 0, 0, 1) X(17, 1, 0, 1) \
                X(18, 0, 1, 1)
/* the papers' names (PERKS Table 1 / SSAM): 3d7pt, 3d13pt, 3d27pt, 3d125pt, poisson (19 points) */
#define PERKS_SHAPE_3D7PT(X) PERKS_SHAPE_STAR3D_R1(X)
#define PERKS_SHAPE_3D13PT(X) PERKS_SHAPE_STAR3D_R2(X)
#define PERKS_SHAPE_3D27PT(X) PERKS_SHAPE_BOX3D_R1(X)
#define PERKS_SHAPE_3D125PT(X) PERKS_SHAPE_BOX3D_R2(X)
#define PERKS_SHAPE_POISSON(X) PERKS_SHAPE_POISSON3D_19(X)

/* compile-time extent of a 3D list: radius r = max |offset| (up to 4), point count */
#define PERKS__Q1(I, DX, DY, DZ) || PERKS__A(DX) >= 1 || PERKS__A(DY) >= 1 || PERKS__A(DZ) >= 1
#define PERKS__Q2(I, DX, DY, DZ) || PERKS__A(DX) >= 2 || PERKS__A(DY) >= 2 || PERKS__A(DZ) >= 2
#define PERKS__Q3(I, DX, DY, DZ) || PERKS__A(DX) >= 3 || PERKS__A(DY) >= 3 || PERKS__A(DZ) >= 3
#define PERKS__Q4(I, DX, DY, DZ) || PERKS__A(DX) >= 4 || PERKS__A(DY) >= 4 || PERKS__A(DZ) >= 4
#define PERKS__Q5(I, DX, DY, DZ) || PERKS__A(DX) >= 5 || PERKS__A(DY) >= 5 || PERKS__A(DZ) >= 5
#define PERKS_SHAPE3D_RADIUS(S)                                                                      \
    ((int)(0 S(PERKS__Q1)) + (int)(0 S(PERKS__Q2)) + (int)(0 S(PERKS__Q3)) + (int)(0 S(PERKS__Q4)))
#define PERKS_SHAPE3D_TOO_FAR(S) (0 S(PERKS__Q5))
#define PERKS__NPLUS3(I, DX, DY, DZ) +1
#define PERKS_SHAPE3D_NPTS(S) (0 S(PERKS__NPLUS3))

/* one point, for accumulator k (output plane o = p - r + k, so DZ = r - k): the compiler keeps
 * the points whose DZ matches the unrolled k and loads each in-plane offset once per plane */
#define PERKS__TERM3D(I, DX, DY, DZ)                                                                 \
    if ((DZ) == perks__R - perks__k)                                                                 \
        perks__acc[perks__k] = fma(perks__w.w[I], perks__src[perks__own + (DY)*perks__WX + (DX)], perks__acc[perks__k]);

/* ring chunk c (planes c*RC - r ... ) from device memory into registers pf: every plane that is not
 * cached (z frame, streamed planes), with its x / y frame; zeros outside the domain */
#define PERKS__LOAD3D(T, RC, c)                                                                      \
    _Pragma("unroll") for (int j = 0; j < perks__NPF; j++) {                                         \
        const int i = perks__tid + j * perks__NT;                                                    \
        T v = (T)0;                                                                                  \
        if (i < (RC)*perks__PP) {                                                                    \
            const int pl = i / perks__PP, rem = i - pl * perks__PP, wy = rem / perks__WX, wx = rem - wy * perks__WX; \
            const int p = (c) * (RC)-perks__R + pl, gz = perks__z0 + p;                              \
            const int gy = perks__y0 - perks__R + wy, gx = perks__x0 - perks__R + wx;                \
            if ((p < 0 || p >= perks__nce) && p < perks__the + perks__R && gz >= 0 && gz < perks__D && gy >= 0 && \
                gy < perks__H && gx >= 0 && gx < perks__W)                                           \
                v = perks__in[((size_t)gz * perks__H + gy) * perks__W + gx];                         \
        }                                                                                            \
        perks__pf[j] = v;                                                                            \
    }
/* chunk c holds a plane that streams through the ring (z frame or uncached): else its ring loads
 * and stores are skipped (a fully cached tile touches the ring only in its first and last chunks) */
#define PERKS__RING3D(RC, c)                                                                         \
    ((c) * (RC) < perks__R || min(((c) + 1) * (RC)-perks__R, perks__the + perks__R) > perks__nce)
#define PERKS__STORE3D(RC, c)                                                                        \
    _Pragma("unroll") for (int j = 0; j < perks__NPF; j++) {                                         \
        const int i = perks__tid + j * perks__NT;                                                    \
        if (i < (RC)*perks__PP) perks__ring[((c)&1) * (RC)*perks__PP + i] = perks__pf[j];            \
    }

/* ---- the kernel, piece by piece ---------------------------------------------------------------- */
/* the kernel's locals: this thread's (x, y) in the tile, its cell in a framed plane, the ring and
 * the cached planes in dynamic shared memory */
#define PERKS__S3D_SETUP(name, T, BX, RC)                                                            \
        enum { perks__R = name##_R, perks__WX = name##_WX, perks__PP = name##_PP, perks__NT = name##_NT, perks__NPF = name##_NPF }; \
        const int perks__tid = (int)threadIdx.x;                                                     \
        const int perks__tx = perks__tid % (BX), perks__ty = perks__tid / (BX);                      \
        const int perks__own = (perks__ty + perks__R) * perks__WX + perks__tx + perks__R;            \
        extern __shared__ __align__(16) unsigned char name##_dyn3[];                                 \
        T *perks__ring = (T *)name##_dyn3;                                                           \
        T *perks__cache0 = perks__ring + 2 * (RC)*perks__PP;
/* prologue: every tile's cached planes (own cells) from the input */
#define PERKS__S3D_PROLOGUE(T, BX, BY)                                                               \
        {                                                                                            \
            int s = 0;                                                                               \
            for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x, s++) {           \
                const int tix = tile % tiles_x, tiy = (tile / tiles_x) % tiles_y, tiz = tile / (tiles_x * tiles_y); \
                const int x = tix * (BX) + perks__tx, y = tiy * (BY) + perks__ty, z0 = tiz * perks__TH; \
                const int nce = min(nc, perks__D - z0);                                              \
                T *cache = perks__cache0 + (size_t)s * nc * perks__PP;                               \
                for (int o = 0; o < nce; o++)                                                        \
                    cache[o * perks__PP + perks__own] =                                              \
                        (x < perks__W && y < perks__H) ? a[((size_t)(z0 + o) * perks__H + y) * perks__W + x] : (T)0; \
            }                                                                                        \
        }
/* the tile's locals (tile number `tile`, s-th of this block) */
#define PERKS__S3D_TILE(T, BX, BY)                                                                   \
                const int tix = tile % tiles_x, tiy = (tile / tiles_x) % tiles_y, tiz = tile / (tiles_x * tiles_y); \
                const int perks__x0 = tix * (BX), perks__y0 = tiy * (BY), perks__z0 = tiz * perks__TH; \
                const int perks__the = min(perks__TH, perks__D - perks__z0);                         \
                const int perks__nce = min(nc, perks__the);                                          \
                const int x = perks__x0 + perks__tx, y = perks__y0 + perks__ty;                      \
                const int xyin = x < perks__W && y < perks__H;                                       \
                const int xyint = x >= perks__R && x < perks__W - perks__R && y >= perks__R && y < perks__H - perks__R; \
                const int has_l = tix > 0, has_r = tix < tiles_x - 1;                                \
                const int ylen = perks__nce * (BY);                                                  \
                T *cache = perks__cache0 + (size_t)s * nc * perks__PP;                               \
                T perks__pf[perks__NPF];
/* (1) the frame of the cached planes: x sides from the edge buffers (step 0: the input), y sides
 * with the corners from the domain array */
#define PERKS__S3D_FRAME(T, BX, BY)                                                                  \
                for (int i = perks__tid; i < 2 * perks__R * ylen; i += perks__NT) {                  \
                    const int side = i >= perks__R * ylen, j = i - side * perks__R * ylen;           \
                    const int k = j / ylen, q = j - k * ylen, o = q / (BY), yy = q - o * (BY);       \
                    const int gx = side ? perks__x0 + (BX) + k : perks__x0 - perks__R + k, gy = perks__y0 + yy; \
                    T v = (T)0;                                                                      \
                    if (gx >= 0 && gx < perks__W && gy < perks__H)                                   \
                        v = t == 0 ? perks__in[((size_t)(perks__z0 + o) * perks__H + gy) * perks__W + gx] \
                                   : perks__ein[PERKS_EDGE_INDEX(tile + (side ? 1 : -1), 1 - side, k, q, perks__R, perks__TH * (BY))]; \
                    cache[o * perks__PP + (yy + perks__R) * perks__WX + (side ? (BX) + perks__R + k : k)] = v; \
                }                                                                                    \
                for (int i = perks__tid; i < 2 * perks__R * perks__nce * perks__WX; i += perks__NT) { \
                    const int n1 = perks__R * perks__nce * perks__WX;                                \
                    const int side = i >= n1, j = i - side * n1;                                     \
                    const int k = j / (perks__nce * perks__WX), q = j - k * (perks__nce * perks__WX); \
                    const int o = q / perks__WX, wx = q - o * perks__WX;                             \
                    const int wy = side ? (BY) + perks__R + k : k;                                   \
                    const int gy = perks__y0 - perks__R + wy, gx = perks__x0 - perks__R + wx;        \
                    T v = (T)0;                                                                      \
                    if (gx >= 0 && gx < perks__W && gy >= 0 && gy < perks__H)                        \
                        v = perks__in[((size_t)(perks__z0 + o) * perks__H + gy) * perks__W + gx];    \
                    cache[o * perks__PP + wy * perks__WX + wx] = v;                                  \
                }
/* (2) before the first chunk: ring chunks 0 (stored) and 1 (loading), the accumulators */
#define PERKS__S3D_PASS_START(T, RC)                                                                 \
                const int nch = (perks__the + 2 * perks__R + (RC)-1) / (RC);                         \
                if (PERKS__RING3D(RC, 0)) {                                                          \
                    PERKS__LOAD3D(T, RC, 0)                                                          \
                    PERKS__STORE3D(RC, 0)                                                            \
                }                                                                                    \
                if (nch > 1 && PERKS__RING3D(RC, 1)) { PERKS__LOAD3D(T, RC, 1) }                     \
                __syncthreads();                                                                     \
                T perks__acc[2 * perks__R + 1];                                                      \
                T perks__hist[perks__R + 1];                                                         \
                _Pragma("unroll") for (int k = 0; k < 2 * perks__R + 1; k++) perks__acc[k] = (T)0;   \
                _Pragma("unroll") for (int k = 0; k < perks__R + 1; k++) perks__hist[k] = (T)0;
/* the RC planes p = c RC - r + j of chunk c, each read once into the accumulators; output plane
 * p - r done into perks__ov[j] */
#define PERKS__S3D_PLANES(T, SHAPE, RC)                                                              \
                    _Pragma("unroll") for (int j = 0; j < (RC); j++) {                               \
                        const int p = c * (RC)-perks__R + j;                                         \
                        const T *perks__src = (p >= 0 && p < perks__nce) ? cache + p * perks__PP     \
                                                                         : perks__ring + (((c)&1) * (RC) + j) * perks__PP; \
                        _Pragma("unroll") for (int k = 0; k < perks__R; k++) perks__hist[k] = perks__hist[k + 1]; \
                        perks__hist[perks__R] = perks__src[perks__own];                              \
                        _Pragma("unroll") for (int perks__k = 0; perks__k < 2 * perks__R + 1; perks__k++) { SHAPE(PERKS__TERM3D) } \
                        {                                                                            \
                            const int gz = perks__z0 + p - perks__R;                                 \
                            perks__ov[j] = (xyint && gz >= perks__R && gz < perks__D - perks__R) ? perks__acc[0] : perks__hist[0]; \
                        }                                                                            \
                        _Pragma("unroll") for (int k = 0; k < 2 * perks__R; k++) perks__acc[k] = perks__acc[k + 1]; \
                        perks__acc[2 * perks__R] = (T)0;                                             \
                    }
/* chunk c's outputs o = c RC - 2r + j: in place (cached) and / or to device memory */
#define PERKS__S3D_OUT(BY, RC)                                                                       \
                    if (xyin)                                                                        \
                        _Pragma("unroll") for (int j = 0; j < (RC); j++) {                           \
                            const int o = c * (RC)-2 * perks__R + j;                                 \
                            if (o >= 0 && o < perks__the) {                                          \
                                const int cached = o < perks__nce;                                   \
                                if (cached) cache[o * perks__PP + perks__own] = perks__ov[j];        \
                                if (perks__last || !cached || o < perks__R || o >= perks__the - perks__R || \
                                    perks__ty < perks__R || perks__ty >= (BY)-perks__R)              \
                                    perks__out[((size_t)(perks__z0 + o) * perks__H + y) * perks__W + x] = perks__ov[j]; \
                            }                                                                        \
                        }
/* (2) the planes -r .. the + r - 1 in chunks of RC, one barrier a chunk */
#define PERKS__S3D_PASS(T, SHAPE, BY, RC)                                                            \
                PERKS__S3D_PASS_START(T, RC)                                                         \
                _Pragma("unroll 1") for (int c = 0; c < nch; c++) {                                  \
                    T perks__ov[RC];                                                                 \
                    if (c + 1 < nch && PERKS__RING3D(RC, c + 1)) { PERKS__STORE3D(RC, c + 1) }       \
                    if (c + 2 < nch && PERKS__RING3D(RC, c + 2)) { PERKS__LOAD3D(T, RC, c + 2) }     \
                    PERKS__S3D_PLANES(T, SHAPE, RC)                                                  \
                    __syncthreads();                                                                 \
                    PERKS__S3D_OUT(BY, RC)                                                           \
                }                                                                                    \
                __syncthreads();
/* (3) the cached planes' x edges, transposed, for the neighbours' next step */
#define PERKS__S3D_EDGES_OUT(BX, BY)                                                                 \
                if (!perks__last)                                                                    \
                    for (int i = perks__tid; i < 2 * perks__R * ylen; i += perks__NT) {              \
                        const int side = i >= perks__R * ylen, j = i - side * perks__R * ylen;       \
                        const int k = j / ylen, q = j - k * ylen, o = q / (BY), yy = q - o * (BY);   \
                        if ((side ? has_r : has_l) && perks__y0 + yy < perks__H)                     \
                            perks__eout[PERKS_EDGE_INDEX(tile, side, k, q, perks__R, perks__TH * (BY))] = \
                                cache[o * perks__PP + (yy + perks__R) * perks__WX + (side ? (BX)-perks__R + k : k) + perks__R]; \
                    }
/* the kernel name_kernel: each step, each of the block's tiles: (1) (2) (3); one grid barrier */
#define PERKS__S3D_KERNEL(name, T, SHAPE, BX, BY, RC, MINB)                                          \
    __global__ void __launch_bounds__((BX) * (BY), MINB)                                             \
        name##_kernel(T *a, T *b, T *ea, T *eb, int perks__W, int perks__H, int perks__D, int steps, int ntiles, \
                      int tiles_x, int tiles_y, int perks__TH, int nc, name##_weights perks__w)      \
    {                                                                                                \
        PERKS__S3D_SETUP(name, T, BX, RC)                                                            \
        PERKS__S3D_PROLOGUE(T, BX, BY)                                                               \
        PERKS_FOR_STEPS(t, steps)                                                                    \
        {                                                                                            \
            PERKS__STEP_ARRAYS(T)                                                                    \
            int s = 0;                                                                               \
            for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x, s++) {           \
                PERKS__S3D_TILE(T, BX, BY)                                                           \
                PERKS__S3D_FRAME(T, BX, BY)                                                          \
                PERKS__S3D_PASS(T, SHAPE, BY, RC)                                                    \
                PERKS__S3D_EDGES_OUT(BX, BY)                                                         \
            }                                                                                        \
            if (!perks__last) PERKS_GRID_SYNC();                                                     \
        }                                                                                            \
    }
/* ---- the generator: names, sizes and types pasted around the pieces above -------------------- */
/* the coefficients (passed by value), the extents, the documented limits, the ring's size */
#define PERKS__S3D_TYPES(name, T, SHAPE, BX, BY, RC)                                                 \
    typedef struct name##_weights {                                                                  \
        T w[PERKS_SHAPE3D_NPTS(SHAPE)];                                                              \
    } name##_weights;                                                                                \
    enum {                                                                                           \
        name##_R = PERKS_SHAPE3D_RADIUS(SHAPE),                                                      \
        name##_WX = (BX) + 2 * PERKS_SHAPE3D_RADIUS(SHAPE),                                          \
        name##_PP = ((BX) + 2 * PERKS_SHAPE3D_RADIUS(SHAPE)) * ((BY) + 2 * PERKS_SHAPE3D_RADIUS(SHAPE)), \
        name##_NT = (BX) * (BY),                                                                     \
        name##_NPF = ((RC) * name##_PP + name##_NT - 1) / name##_NT                                  \
    };                                                                                               \
    static_assert((sizeof(T) == 4 || sizeof(T) == 8) && (T)0.5 != (T)0, #name ": T must be float or double."); \
    static_assert(!PERKS_SHAPE3D_TOO_FAR(SHAPE), #name ": the stencil reaches more than 4 cells away; r must be at most 4."); \
    static_assert((BX) % 32 == 0 && (BX) >= 32 && (BY) >= 1 && (BX) * (BY) <= 1024,                  \
                  #name ": BX must be a multiple of 32 and BX * BY at most 1024 threads.");          \
    static_assert((RC) >= 1 && (RC) <= 16, #name ": RC must be from 1 to 16 planes.");               \
    /* the ring (2 RC planes) at the start of dynamic shared memory; cached planes follow */       \
    static inline __attribute__((unused)) size_t name##_ring_bytes(void) { return (size_t)2 * (RC)*name##_PP * sizeof(T); }
/* the instantiation's sizes for the host functions (perks__s3d_geom) */
#define PERKS__S3D_GEOM(name, T, BX, BY)                                                             \
    { (BX), (BY), name##_R, name##_PP, name##_NT, name##_NPF, (int)sizeof(T), name##_ring_bytes() }
/* name_plan, name_work_bytes, name_launch, name_steps */
#define PERKS__S3D_HOST(name, T, BX, BY)                                                             \
    /* the plan name_launch uses: tiles, tiles per block, cached planes per tile, % cached */        \
    static inline __attribute__((unused)) int name##_plan(const perks_stencil3d_args *a, perks_plan *p) \
    {                                                                                                \
        const perks__s3d_geom g = PERKS__S3D_GEOM(name, T, BX, BY);                                  \
        return perks__s3d_plan(a, p, &g, (const void *)name##_kernel);                               \
    }                                                                                                \
    static inline __attribute__((unused)) size_t name##_work_bytes(const perks_plan *p)              \
    {                                                                                                \
        return p->smem_rows > 0 ? 2 * perks_edge_elems(p->tiles, name##_R, p->tile_len * (BY)) * sizeof(T) : 0; \
    }                                                                                                \
    static inline __attribute__((unused)) int name##_launch(const perks_stencil3d_args *a, cudaStream_t stream) \
    {                                                                                                \
        const perks__s3d_geom g = PERKS__S3D_GEOM(name, T, BX, BY);                                  \
        perks_plan p;                                                                                \
        name##_weights w;                                                                            \
        int rc;                                                                                      \
        if (!a) return PERKS_ENULL;                                                                  \
        if (!a->a || !a->b || !a->weights) return PERKS_ENULL;                                       \
        if ((rc = name##_plan(a, &p))) return rc;                                                    \
        if (a->steps == 0) return PERKS_SUCCESS;                                                     \
        return perks__s3d_launch(a, &p, &g, (const void *)name##_kernel, &w, sizeof w, stream);      \
    }                                                                                                \
    /* the same steps, one ordinary launch each: the same kernel with nothing cached, one step,      \
       tiles of at least 16 planes sized to fill about two waves of resident blocks */               \
    static inline __attribute__((unused)) int name##_steps(const perks_stencil3d_args *a, cudaStream_t stream) \
    {                                                                                                \
        name##_weights w;                                                                            \
        size_t sm = name##_ring_bytes();                                                             \
        int tx, ty, th;                                                                              \
        long long tiles;                                                                             \
        int rc = perks__s3d_steps_prep(a, (const void *)name##_kernel, (BX), (BY), sm, &w, sizeof w, &tx, &ty, &th, &tiles); \
        if (rc || a->steps == 0) return rc;                                                          \
        T *pa = (T *)a->a, *pb = (T *)a->b;                                                          \
        for (int t = 0; t < a->steps; t++) {                                                         \
            name##_kernel<<<(unsigned)tiles, name##_NT, sm, stream>>>((t & 1) ? pb : pa, (t & 1) ? pa : pb, NULL, NULL, \
                                                                     a->width, a->height, a->depth, 1, (int)tiles, tx, ty, th, 0, w); \
            if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;                               \
        }                                                                                            \
        return PERKS_SUCCESS;                                                                        \
    }

#define PERKS_STENCIL3D_DEFINE(name, T, SHAPE, BX, BY, RC) PERKS_STENCIL3D_DEFINE_OCC(name, T, SHAPE, BX, BY, RC, 1)
#define PERKS_STENCIL3D_DEFINE_OCC(name, T, SHAPE, BX, BY, RC, MINB)                                 \
    PERKS__S3D_TYPES(name, T, SHAPE, BX, BY, RC)                                                     \
    PERKS__S3D_KERNEL(name, T, SHAPE, BX, BY, RC, MINB)                                              \
    PERKS__S3D_HOST(name, T, BX, BY)

/* ---- host pieces of the 3D generator: one copy for every instantiation ------------------------ */
/* an instantiation's compile-time sizes (PERKS__S3D_GEOM fills one) */
typedef struct perks__s3d_geom {
    int bx, by, r, pp, nt, npf, cell_bytes; /* tile columns, rows, radius, framed plane's cells, threads,
                                               ring cells a thread, sizeof(T) */
    size_t ring_bytes;                      /* name_ring_bytes() */
} perks__s3d_geom;

/* name_plan */
static inline int perks__s3d_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g, const void *kernel)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc, bps, maxb, tx, ty, slabs, th, tpb, nc;
    long long across, planes, cs;
    if (!a || !p) return PERKS_ENULL;
    if (a->width <= 0 || a->height <= 0 || a->depth <= 0 || a->steps < 0 || a->blocks_per_sm < 0 || a->cache < 0 ||
        a->cache > 3 || a->cache == PERKS_CACHE_REG || a->smem_planes_max < 0)
        return PERKS_ESIZE;
    if ((rc = perks__stencil_kinfo(&d, &k, kernel, g->nt, (long)g->ring_bytes, g->npf * g->cell_bytes, g->cell_bytes, g->pp)))
        return rc;
    maxb = perks_plan_max_blocks(&d, &k);
    if (maxb < 1) return PERKS_ERESOURCE;
    if (a->blocks_per_sm > maxb) return PERKS_ESIZE;
    bps = a->blocks_per_sm;
    if (!bps) {
        bps = perks_plan_little(&d, &k);
        if (bps > maxb) bps = maxb;
    }
    rc = perks_plan_make(p, &d, &k, (long long)a->width * a->height * a->depth, bps);
    if (rc) return rc;
    planes = a->cache == PERKS_CACHE_NONE ? 0 : p->smem_cache_cells / g->pp;
    tx = (a->width + g->bx - 1) / g->bx;
    ty = (a->height + g->by - 1) / g->by;
    across = (long long)tx * ty;
    if (across <= p->grid) {
        slabs = (int)(p->grid / across);
        if (slabs > a->depth) slabs = a->depth;
        th = (a->depth + slabs - 1) / slabs;
        slabs = (a->depth + th - 1) / th;
        p->tiles = (int)(across * slabs);
        tpb = 1;
    } else {
        if (across > (1LL << 30)) return PERKS_ESIZE;
        slabs = 1;
        th = a->depth;
        p->tiles = (int)across;
        tpb = (int)((across + p->grid - 1) / p->grid);
    }
    p->grid = (p->tiles + tpb - 1) / tpb;
    nc = (int)(planes / tpb < th ? planes / tpb : th);
    if (a->smem_planes_max > 0 && nc > a->smem_planes_max) nc = a->smem_planes_max;
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
        int len = a->depth - i * th < th ? a->depth - i * th : th;
        cs += len < nc ? len : nc;
    }
    p->cells_reg = 0;
    p->cells_smem = cs * a->width * a->height;
    p->cells_dev = p->cells - p->cells_smem;
    p->cached_fraction = (double)p->cells_smem / (double)p->cells;
    p->resident = p->cells_smem == p->cells;
    return PERKS_SUCCESS;
}

/* name_launch after its plan: the edge buffers (a->work, or allocated and freed here; none when
 * nothing is cached), the weights, one cooperative launch */
static inline int perks__s3d_launch(const perks_stencil3d_args *a, const perks_plan *p, const perks__s3d_geom *g,
                                    const void *kernel, void *w, size_t wbytes, cudaStream_t stream)
{
    const size_t elems = p->smem_rows > 0 ? perks_edge_elems(p->tiles, g->r, p->tile_len * g->by) : 0;
    const size_t need = 2 * elems * g->cell_bytes;
    int rc;
    void *work, *pa, *pb, *ea, *eb;
    if (a->work && a->work_bytes < need) return PERKS_ESIZE;
    work = a->work;
    if (!work && need && cudaMalloc(&work, need) != cudaSuccess) return PERKS_ECUDA;
    memcpy(w, a->weights, wbytes);
    pa = a->a;
    pb = a->b;
    ea = need ? work : NULL;
    eb = need ? (char *)work + elems * g->cell_bytes : NULL;
    {
        int W = a->width, H = a->height, D = a->depth, steps = a->steps, nt = p->tiles, tx = p->tiles_x,
            ty = p->tiles_y, th = p->tile_len, nc = p->smem_rows;
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &D, &steps, &nt, &tx, &ty, &th, &nc, w};
        rc = perks_launch(kernel, dim3(p->grid), dim3(g->nt), args, (size_t)p->smem_bytes, stream);
    }
    if (!a->work && need) {
        if (cudaFree(work) != cudaSuccess && !rc) rc = PERKS_ECUDA;
    }
    return rc;
}

/* name_steps before its launches: checks, the kernel's shared memory, its tiles (at least 16 planes,
 * about two waves of resident blocks), the weights; nothing to do for 0 steps */
static inline int perks__s3d_steps_prep(const perks_stencil3d_args *a, const void *kernel, int bx, int by, size_t sm,
                                        void *w, size_t wbytes, int *tx, int *ty, int *th, long long *tiles)
{
    int dev, sms, bps = 0, slabs;
    long long across;
    *tx = *ty = *th = 0;
    *tiles = 0;
    if (!a) return PERKS_ENULL;
    if (!a->a || !a->b || !a->weights) return PERKS_ENULL;
    if (a->width <= 0 || a->height <= 0 || a->depth <= 0 || a->steps < 0) return PERKS_ESIZE;
    if (a->steps == 0) return PERKS_SUCCESS;
    if (cudaGetDevice(&dev) != cudaSuccess) return PERKS_ECUDA;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) return PERKS_ECUDA;
    if (sm > 48 * 1024 && cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm) != cudaSuccess)
        return PERKS_ECUDA;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, bx * by, sm) != cudaSuccess) return PERKS_ECUDA;
    if (bps < 1) return PERKS_ERESOURCE;
    *tx = (a->width + bx - 1) / bx;
    *ty = (a->height + by - 1) / by;
    across = (long long)*tx * *ty;
    slabs = (int)((2LL * bps * sms + across - 1) / across);
    if (slabs > a->depth) slabs = a->depth;
    *th = (a->depth + slabs - 1) / slabs;
    if (*th < 16) *th = a->depth < 16 ? a->depth : 16;
    *tiles = across * ((a->depth + *th - 1) / *th);
    if (*tiles > 0x7fffffffLL) return PERKS_ESIZE;
    memcpy(w, a->weights, wbytes);
    return PERKS_SUCCESS;
}

#endif /* PERKS_STENCIL3D_CUH */
