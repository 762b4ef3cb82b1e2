/* perks/stencil.cuh -- persistent 2D stencils: the time loop in one cooperative kernel, the domain
 * cached in registers and shared memory between steps.
 *
 * WHAT (PERKS paper §3-§4.2, Listing 1)
 *   PERKS_STENCIL2D_DEFINE(name, T, SHAPE, BX, RC, DEPTH) defines
 *       __global__ void name_kernel(...)                        the streaming persistent kernel
 *       __global__ void name_res_kernel(...), name_hyb_kernel(...)  the resident / hybrid ones
 *       __global__ void name_step_kernel(...)                   one non-persistent step (baseline)
 *       int name_launch(const perks_stencil2d_args *, cudaStream_t)   all steps, one launch
 *       int name_steps(const perks_stencil2d_args *, cudaStream_t)    all steps, one launch each
 *       int name_plan(const perks_stencil2d_args *, perks_plan *)     the plan name_launch uses
 *       size_t name_work_bytes(const perks_plan *)                  edge-buffer scratch it needs
 *   PERKS_STENCIL2D_DEFINE_OCC(..., MINB) adds __launch_bounds__(BX, MINB): with DEPTH 0 and MINB 2
 *   two blocks share an SM (the fastest build measured on the H200, docs/perks.md).
 *   for a stencil SHAPE given as an X-macro list of points X(I, DX, DY) -- the same format as
 *   ssam/stencil_shapes.cuh, so SSAM_SHAPE_* lists work here unchanged; PERKS_SHAPE_* below repeats
 *   the 2D catalogue so that perks needs nothing from ssam.  One step computes, for every cell at
 *   least r = max |offset| from the domain's edge,
 *       out(x, y) = sum over points, in list order, of  c[I] * in(x + DX, y + DY)
 *   (one fma per point, so the persistent and the non-persistent kernels agree bit for bit) and
 *   keeps the value of every cell closer than r to the edge (Dirichlet, as the ssam stencils).
 *
 *   Three persistent kernels, chosen by name_plan (perks_stencil2d_args.kernel can force one):
 *   RESIDENT (cache modes SMEM and MIX, whenever every tile fits in shared memory): the tile stays
 *   in shared memory for the whole run and each step is one pass over it (see "the resident
 *   kernel" below) -- 1.2-2.2x the one-pass kernels on the H200; HYBRID (SMEM and MIX when the
 *   tiles do not fit): the first rows of each tile resident as in the resident kernel, the other
 *   rows streamed from device memory every step in the same pass -- 1.1-1.6x where it caches
 *   about half the domain; STREAM (any domain): the chunked kernel described next.  AUTO does not
 *   run the hybrid kernel where PERKS_HYB_WINS predicts it loses to the one-pass step (8192^2:
 *   2-9% on chip): name_launch then runs name_steps (one launch a step, same results).
 *
 *   Layout.  Each block owns one tile: BX columns (one per thread) by tile_len rows; perks/plan.h
 *   chooses the tiling (one tile per co-resident block).  A thread walks down its column in chunks
 *   of RC rows; for each chunk the block stages an (RC + 2r) x (BX + 2r) window in shared memory
 *   (the thread's own column also stays in registers and slides down by RC rows: vertical
 *   neighbours come from registers, each row of the column is loaded once per step) and computes RC
 *   outputs per thread.  Rows [0, DEPTH) of the tile live in registers between steps (cache modes
 *   REG and MIX), the next smem_rows in shared memory (SMEM and MIX), the rest in device memory; the
 *   tile's halo goes through device memory (perks/cache.cuh: edge rows in place, edge columns
 *   transposed).  One grid barrier per step.
 *
 * EXAMPLE
 *     #include <perks/stencil.cuh>
 *     PERKS_STENCIL2D_DEFINE(heat, float, PERKS_SHAPE_STAR2D_R1, 256, 8, 32)
 *     float c[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f};   // (0,0), (-1,0), (1,0), (0,-1), (0,1)
 *     perks_stencil2d_args a = {0};
 *     a.a = d_u; a.b = d_v; a.width = W; a.height = H; a.steps = 100; a.weights = c;
 *     a.cache = PERKS_CACHE_MIX;
 *     int rc = heat_launch(&a, stream);   // result in d_u (even steps) or d_v (odd steps)
 *
 * PARAMETERS AND LIMITS
 *   T float or double.  BX threads per block, a multiple of 32, >= 64 and >= 2r.  RC rows per chunk,
 *   RC + 2r <= 32 (one warp loads each side halo with one lane per row).  DEPTH a multiple of RC
 *   (0: no register cache); registers about DEPTH + 2 RC + 2r (+ the same again for double) plus ~30
 *   per thread.  r <= 8.  Width and height >= 1, any (ragged) sizes, pitch = width.  a and b must
 *   not overlap; both are written.  The weights (one per coefficient index) are read from HOST
 *   memory at launch.  work: device scratch of name_work_bytes (NULL: the launcher allocates and
 *   frees it, which synchronises).  kernel: PERKS_KERNEL_AUTO (0), _STREAM, _RESIDENT (the latter
 *   returns PERKS_ERESOURCE when the tiles do not fit, PERKS_ESIZE with modes NONE / REG), _HYBRID
 *   (PERKS_ESIZE with mode REG; mode NONE caches nothing); perks_plan.resident (PERKS_PLAN_*) says
 *   which one name_launch runs.  The hybrid kernel takes 2 (RC + 2r)(BX + 2r) cells of shared
 *   memory for its streaming windows, then caches a multiple of RR rows a tile.  The
 *   resident kernel takes RR = max(RC, r) rows a chunk and (RR rounded tile rows + 2r) x (BX + 2r)
 *   cells of shared memory per block.  The grid must be co-resident: a domain wider than
 *   BX x (SMs x blocks per SM) returns PERKS_ECORESIDENT; never a hang.
 *   The limits on T, BX, RC, DEPTH and r are static_asserts: a bad instantiation stops the build
 *   with a sentence naming it.
 *
 * PIECES (each under 50 lines, so a compile error lands on a readable line)
 *   PERKS_STENCIL2D_DEFINE_OCC only pastes names, sizes and types around: PERKS__S2D_TYPES (weights,
 *   extents, static_asserts), PERKS__S2D_KERNEL (the streaming kernel: _SETUP, _REGS, _PROLOGUE,
 *   _REGPART, _CHUNKS, _EPILOGUE, over the chunk pieces PERKS__HALO2D, _FILL2D, _COMPUTE2D,
 *   _STAGE2D, _FLUSH2D), PERKS__S2D_STEP_KERNEL, PERKS__RES_DEFINE (the resident and hybrid kernels:
 *   PERKS__RES_SETUP, _FRAME1 / _FRAMEB, _PASS, _HALO_OUT, PERKS__HYB_STREAM), PERKS__S2D_PLANS and
 *   PERKS__S2D_LAUNCHERS.  The host logic (plans, launch) lives in the perks__s2d_* functions below,
 *   one copy for all instantiations.  The device pieces stay macros: moving their index math into
 *   __forceinline__ functions changed the generated code (up to +9% instructions), so it was not.
 *
 * OPTIONAL SSAM
 *   If ssam/stencil_shapes.cuh is included, its SSAM_SHAPE_* lists can be passed as SHAPE.  The
 *   per-step compute here is a plain shared-memory step (the paper's baseline); ssam's systolic
 *   step is not used by these generators (see docs/perks.md).
 */
#ifndef PERKS_STENCIL_CUH
#define PERKS_STENCIL_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>

#include "base.h"
#include "cache.cuh"
#include "grid.cuh"
#include "plan.h"

/* ---- cache modes --------------------------------------------------------------------------- */
#define PERKS_CACHE_NONE 0 /* persistent, domain in device memory */
#define PERKS_CACHE_SMEM 1 /* shared-memory cache only */
#define PERKS_CACHE_REG 2  /* register cache only */
#define PERKS_CACHE_MIX 3  /* registers, then shared memory */

typedef struct perks_stencil2d_args {
    void *a, *b;         /* T *, device, width x height each; the input in a.  After `steps` steps
                            the result is in a (steps even) or b (steps odd), as with ping-pong. */
    int width, height;   /* cells; rows are contiguous (pitch = width) */
    int steps;           /* >= 0 */
    const void *weights; /* T *, HOST: one coefficient per index I of the shape */
    int cache;           /* PERKS_CACHE_* */
    int blocks_per_sm;   /* 0: by perks/plan.h (Little's law, capped by resources) */
    int smem_rows_max;   /* 0: as many shared-memory cache rows as fit; > 0: at most this many */
    void *work;          /* device scratch (edge buffers), name_work_bytes; NULL: allocated here */
    size_t work_bytes;
    int kernel;          /* PERKS_KERNEL_*: 0 (AUTO) the resident kernel where the tiles fit in shared
                            memory (modes SMEM, MIX), else the streaming one */
} perks_stencil2d_args;

/* ---- which persistent kernel name_launch runs ------------------------------------------------ */
#define PERKS_KERNEL_AUTO 0     /* resident when the plan fits every tile in shared memory, else stream */
#define PERKS_KERNEL_STREAM 1   /* the chunked streaming kernel (any domain; caches part of it) */
#define PERKS_KERNEL_RESIDENT 2 /* the resident kernel only: PERKS_ERESOURCE if the tiles do not fit,
                                   PERKS_ESIZE with cache modes NONE and REG */
#define PERKS_KERNEL_HYBRID 3   /* the hybrid kernel: the first rows of each tile resident in shared
                                   memory (as many as fit; none with mode NONE), the rest streamed
                                   every step; PERKS_ESIZE with mode REG */
/* AUTO on a domain the resident kernel cannot hold (modes SMEM, MIX): the hybrid kernel when this
 * says it beats the one-pass step (name_steps), else name_launch runs name_steps itself
 * (perks_plan.resident == PERKS_PLAN_STEPS), so AUTO does not run a kernel measured slower than
 * one launch a step.  Arguments: T, points, radius, the hybrid plan's cached fraction.  Fitted to
 * the H200 (docs/perks.md, 2026-11-21): the hybrid kernel beats the step from about 0.35 + 0.04 r
 * cached (star r1 68%: 1.39x, r4 53%: 1.18x, r5 53%: 0.99x, r6 46%: 0.99x) and loses at 8192^2
 * (2-9% cached: 0.67-0.90x); fp64 of radius >= 4 (its build runs 256 threads an SM) never wins
 * clearly.  Define it before including this header to override. */
#ifndef PERKS_HYB_WINS
#define PERKS_HYB_WINS(T, NPTS, R, FRAC) ((FRAC) >= 0.35 + 0.04 * (R) && !((int)sizeof(T) > 4 && (R) >= 4))
#endif

/* ---- shapes: X(I, DX, DY), the same lists as ssam/stencil_shapes.cuh -------------------------- */
#define PERKS_SHAPE_STAR2D_R1(X) X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1)
#define PERKS_SHAPE_STAR2D_R2(X) PERKS_SHAPE_STAR2D_R1(X) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) X(8, 0, 2)
#define PERKS_SHAPE_STAR2D_R3(X) PERKS_SHAPE_STAR2D_R2(X) X(9, -3, 0) X(10, 3, 0) X(11, 0, -3) X(12, 0, 3)
#define PERKS_SHAPE_STAR2D_R4(X) PERKS_SHAPE_STAR2D_R3(X) X(13, -4, 0) X(14, 4, 0) X(15, 0, -4) X(16, 0, 4)
#define PERKS_SHAPE_STAR2D_R5(X) PERKS_SHAPE_STAR2D_R4(X) X(17, -5, 0) X(18, 5, 0) X(19, 0, -5) X(20, 0, 5)
#define PERKS_SHAPE_STAR2D_R6(X) PERKS_SHAPE_STAR2D_R5(X) X(21, -6, 0) X(22, 6, 0) X(23, 0, -6) X(24, 0, 6)
#define PERKS_SHAPE_BOX2D_R1(X)                                                                       \
    X(0, -1, -1) X(1, 0, -1) X(2, 1, -1) X(3, -1, 0) X(4, 0, 0) X(5, 1, 0) X(6, -1, 1) X(7, 0, 1) X(8, 1, 1)
#define PERKS__BOXROW2(X, B, DY) X(B, -2, DY) X(B + 1, -1, DY) X(B + 2, 0, DY) X(B + 3, 1, DY) X(B + 4, 2, DY)
#define PERKS_SHAPE_BOX2D_R2(X)                                                                       \
    PERKS__BOXROW2(X, 0, -2) PERKS__BOXROW2(X, 5, -1) PERKS__BOXROW2(X, 10, 0) PERKS__BOXROW2(X, 15, 1) \
        PERKS__BOXROW2(X, 20, 2)
/* the papers' names (PERKS Table 1): 2d5pt, 2ds9pt, 2d13pt, 2d17pt, 2d21pt, 2ds25pt, 2d9pt, 2d25pt */
#define PERKS_SHAPE_2D5PT(X) PERKS_SHAPE_STAR2D_R1(X)
#define PERKS_SHAPE_2DS9PT(X) PERKS_SHAPE_STAR2D_R2(X)
#define PERKS_SHAPE_2D13PT(X) PERKS_SHAPE_STAR2D_R3(X)
#define PERKS_SHAPE_2D17PT(X) PERKS_SHAPE_STAR2D_R4(X)
#define PERKS_SHAPE_2D21PT(X) PERKS_SHAPE_STAR2D_R5(X)
#define PERKS_SHAPE_2DS25PT(X) PERKS_SHAPE_STAR2D_R6(X)
#define PERKS_SHAPE_2D9PT(X) PERKS_SHAPE_BOX2D_R1(X)
#define PERKS_SHAPE_2D25PT(X) PERKS_SHAPE_BOX2D_R2(X)

/* compile-time extent of a list: radius r = max |offset| (up to 8) and the coefficient count */
#define PERKS__A(v) ((v) < 0 ? -(v) : (v))
#define PERKS__G1(I, DX, DY) || PERKS__A(DX) >= 1 || PERKS__A(DY) >= 1
#define PERKS__G2(I, DX, DY) || PERKS__A(DX) >= 2 || PERKS__A(DY) >= 2
#define PERKS__G3(I, DX, DY) || PERKS__A(DX) >= 3 || PERKS__A(DY) >= 3
#define PERKS__G4(I, DX, DY) || PERKS__A(DX) >= 4 || PERKS__A(DY) >= 4
#define PERKS__G5(I, DX, DY) || PERKS__A(DX) >= 5 || PERKS__A(DY) >= 5
#define PERKS__G6(I, DX, DY) || PERKS__A(DX) >= 6 || PERKS__A(DY) >= 6
#define PERKS__G7(I, DX, DY) || PERKS__A(DX) >= 7 || PERKS__A(DY) >= 7
#define PERKS__G8(I, DX, DY) || PERKS__A(DX) >= 8 || PERKS__A(DY) >= 8
#define PERKS__G9(I, DX, DY) || PERKS__A(DX) >= 9 || PERKS__A(DY) >= 9
#define PERKS_SHAPE2D_RADIUS(S)                                                                       \
    ((int)(0 S(PERKS__G1)) + (int)(0 S(PERKS__G2)) + (int)(0 S(PERKS__G3)) + (int)(0 S(PERKS__G4)) + \
     (int)(0 S(PERKS__G5)) + (int)(0 S(PERKS__G6)) + (int)(0 S(PERKS__G7)) + (int)(0 S(PERKS__G8)))
#define PERKS_SHAPE2D_TOO_FAR(S) (0 S(PERKS__G9))
#define PERKS__NPLUS(I, DX, DY) +1
#define PERKS_SHAPE2D_NPTS(S) (0 S(PERKS__NPLUS))

/* one term of the sum: vertical neighbours from the thread's column registers, others from the
 * shared-memory window (the compiler resolves DX == 0 at compile time) */
#define PERKS__TERM2D(I, DX, DY)                                                                      \
    perks__s = fma(perks__w.w[I], (DX) == 0 ? perks__col[perks__i + perks__R + (DY)]                  \
                                            : perks__win[(perks__i + perks__R + (DY)) * perks__WW + perks__tx + perks__R + (DX)], \
                   perks__s);

/* ---- the chunk: halo, window, compute ------------------------------------------------------ */
/* side halo of chunk c (rows c*RC - R ... c*RC + RC + R - 1) into registers h[R]: warp 0 the left
 * columns, warp 1 the right, one lane per row; from the neighbour's transposed edge when the row is
 * cached, else from the domain array (issued one chunk ahead: the loads fly during the compute) */
#define PERKS__HALO2D(T, BX, RC, c, h)                                                                \
    {                                                                                                 \
        const int perks__wid = perks__tx >> 5, perks__lane = perks__tx & 31;                          \
        if (perks__wid < 2 && perks__lane < (RC) + 2 * perks__R) {                                    \
            const int side = perks__wid, y = (c) * (RC)-perks__R + perks__lane, gy = perks__y0 + y;   \
            const int has = side ? perks__has_r : perks__has_l;                                       \
            const int ok = has && gy >= 0 && gy < perks__H;                                           \
            const int fromedge = ok && PERKS_CACHE_IS_CACHED(y, perks__the, perks__nreg, perks__ncached); \
            _Pragma("unroll") for (int k = 0; k < perks__R; k++) {                                    \
                const int gx = side ? perks__x0 + (BX) + k : perks__x0 - perks__R + k;                \
                T v = (T)0;                                                                           \
                if (fromedge)                                                                         \
                    v = perks__ein[PERKS_EDGE_INDEX((int)blockIdx.x + (side ? 1 : -1), 1 - side, k, y, perks__R, perks__TH)]; \
                else if (ok && gx < perks__W)                                                         \
                    v = perks__in[(size_t)gy * perks__W + gx];                                        \
                h[k] = v;                                                                             \
            }                                                                                         \
        }                                                                                             \
    }
/* the window: this thread's column (registers) and the halo registers */
#define PERKS__FILL2D(BX, RC)                                                                         \
    {                                                                                                 \
        const int perks__wid = perks__tx >> 5, perks__lane = perks__tx & 31;                          \
        _Pragma("unroll") for (int l = 0; l < (RC) + 2 * perks__R; l++) perks__win[l * perks__WW + perks__tx + perks__R] = perks__col[l]; \
        if (perks__wid < 2 && perks__lane < (RC) + 2 * perks__R)                                      \
            _Pragma("unroll") for (int k = 0; k < perks__R; k++)                                      \
                perks__win[perks__lane * perks__WW + (perks__wid ? (BX) + perks__R + k : k)] = perks__hal[k]; \
    }
/* barrier, then RC outputs of chunk c into perks__o (cells within R of the domain edge keep theirs) */
#define PERKS__COMPUTE2D(T, SHAPE, RC, c)                                                             \
    {                                                                                                 \
        __syncthreads();                                                                              \
        _Pragma("unroll") for (int perks__i = 0; perks__i < (RC); perks__i++) {                       \
            const int gy = perks__y0 + (c) * (RC) + perks__i;                                         \
            T perks__s = (T)0;                                                                        \
            SHAPE(PERKS__TERM2D)                                                                      \
            perks__o[perks__i] = (perks__xint && gy >= perks__R && gy < perks__H - perks__R) ? perks__s : perks__col[perks__i + perks__R]; \
        }                                                                                             \
    }

/* edge staging after compute (chunk c): left edge columns from threads 0..R-1, right from BX-R.. */
#define PERKS__STAGE2D(RC, BX)                                                                        \
    {                                                                                                 \
        if (perks__tx < perks__R)                                                                     \
            _Pragma("unroll") for (int i = 0; i < (RC); i++) perks__stage[(0 * perks__R + perks__tx) * (RC) + i] = perks__o[i]; \
        if (perks__tx >= (BX)-perks__R)                                                               \
            _Pragma("unroll") for (int i = 0; i < (RC); i++)                                          \
                perks__stage[(1 * perks__R + perks__tx - ((BX)-perks__R)) * (RC) + i] = perks__o[i];  \
    }
/* after the chunk's closing barrier: warps 0/1 write the staged edges transposed, one lane a row.
 * Edge column k counts from the tile's outside edge inwards on the left (x0 + k) and from the
 * left on the right (x0 + BX - R + k), so a neighbour reads column k of side 1 as its halo k. */
#define PERKS__FLUSH2D(RC, c)                                                                         \
    {                                                                                                 \
        const int perks__wid = perks__tx >> 5, perks__lane = perks__tx & 31;                          \
        if (!perks__last && perks__wid < 2 && perks__lane < (RC)) {                                   \
            const int side = perks__wid, y = (c) * (RC) + perks__lane;                                \
            if ((side ? perks__has_r : perks__has_l) && PERKS_CACHE_IS_CACHED(y, perks__the, perks__nreg, perks__ncached)) \
                _Pragma("unroll") for (int k = 0; k < perks__R; k++) perks__eout[PERKS_EDGE_INDEX(blockIdx.x, side, k, y, perks__R, perks__TH)] = \
                    perks__stage[(side * perks__R + k) * (RC) + perks__lane];                         \
        }                                                                                             \
    }

/* load row y (tile-relative, run time) of this thread's column: shared cache or device memory */
#define PERKS__LOAD2D(T, y)                                                                           \
    (((y) >= perks__nreg && PERKS_CACHE_IS_CACHED((y), perks__the, perks__nreg, perks__ncached))      \
         ? PERKS_SMEM_ROW(perks__scache, (y), perks__nreg, perks__BX, perks__tx)                      \
         : ((perks__xin && perks__y0 + (y) >= 0 && perks__y0 + (y) < perks__H) ? perks__in[(size_t)(perks__y0 + (y)) * perks__W + perks__x] : (T)0))
/* store row y (run time, not a register row) */
#define PERKS__STORE2D(y, v)                                                                          \
    {                                                                                                 \
        const int perks__c2 = PERKS_CACHE_IS_CACHED((y), perks__the, perks__nreg, perks__ncached);    \
        if (perks__c2 && !perks__last && (y) >= perks__nreg) PERKS_SMEM_ROW(perks__scache, (y), perks__nreg, perks__BX, perks__tx) = (v); \
        if (perks__xin && (perks__last || !perks__c2 || (y) < perks__R || (y) >= perks__the - perks__R)) \
            perks__out[(size_t)(perks__y0 + (y)) * perks__W + perks__x] = (v);                        \
    }

/* ---- the resident kernel: the whole tile in shared memory, one pass per step ------------------
 * Used by name_launch whenever the plan holds every row of every tile in shared memory (cache modes
 * SMEM and MIX; perks_stencil2d_args.kernel picks one kernel explicitly).  Shared memory holds the
 * tile with a frame of r rows and columns: element (y, x), y in [-r, rows + r), x in [-r, BX + r),
 * at S[(y + r) * (BX + 2r) + x + r]; rows = the tile's rows rounded up to RR = max(RC, r).
 * A step: (1) the frame (the neighbours' halo) from device memory: r rows above and below (all
 * BX + 2r columns, corners included) from the domain array, the r columns left and right from the
 * neighbours' transposed edge buffers (step 0: from the input itself); barrier.  (2) Every thread
 * walks down its own column in chunks of RR rows: vertical neighbours from a sliding register
 * window (each shared value of its column read once), horizontal ones straight from shared memory;
 * chunk c's results stay in registers until every thread has computed chunk c + 1 (one barrier per
 * chunk), then overwrite the tile in place (chunk c + 2 never reads chunk c since RR >= r).
 * (3) The tile's top and bottom r rows go to the domain array, its left and right r columns to the
 * transposed edge buffer (the last step: every row to the domain array); one grid barrier.
 * Per cell and step: 1 + (points off the centre column) shared loads, 1 shared store.  The frame
 * loads of (1) go in batches (PERKS__FB cells a thread in flight at once): +2% (2d5pt) to +15%
 * (fp64 2d5pt) over one load at a time on the H200 (docs/perks.md, round 3). */
#define PERKS__RTERM2D(I, DX, DY)                                                                     \
    perks__s = fma(perks__w.w[I], (DX) == 0 ? perks__col[perks__i + perks__R + (DY)]                  \
                                            : perks__S[(perks__yc + perks__i + perks__R + (DY)) * perks__WW + perks__tx + perks__R + (DX)], \
                   perks__s);
/* threads per SM the resident kernel is built for: 1024 (<= 64 registers) for fp32 stencils of up
 * to 9 points, 768 (<= 80) for larger fp32 ones, 512 (<= 128) for fp64: no spills across the
 * catalogue (make test checks).  name_plan's default blocks per SM (PERKS__RES_BPS): 512 threads,
 * 768 for fp32 stencils of more than 9 points -- the fastest measured on the H200 (docs/perks.md:
 * fewer, taller tiles mean less halo and a cheaper grid barrier; more warps only pay off when the
 * step has more arithmetic per cell) */
#define PERKS__RES_THREADS(T, SHAPE) ((int)sizeof(T) > 4 ? 512 : PERKS_SHAPE2D_NPTS(SHAPE) > 9 ? 768 : 1024)
#define PERKS__RES_MINB(T, SHAPE, BX) (PERKS__RES_THREADS(T, SHAPE) / (BX) > 0 ? PERKS__RES_THREADS(T, SHAPE) / (BX) : 1)
#define PERKS__RES_BPS(T, SHAPE, BX) ((((int)sizeof(T) == 4 && PERKS_SHAPE2D_NPTS(SHAPE) > 9) ? 768 : 512) / (BX) > 0 ? (((int)sizeof(T) == 4 && PERKS_SHAPE2D_NPTS(SHAPE) > 9) ? 768 : 512) / (BX) : 1)
#define PERKS__RES_DEFINE(name, T, SHAPE, BX, RC)                                                     \
    enum { name##_RR = (RC) > name##_R ? (RC) : name##_R,                                             \
           name##_HWIN = 2 * ((RC) + 2 * name##_R) * name##_WW };                                     \
    /* shared bytes of the resident kernel for tiles of th rows */                                    \
    static inline __attribute__((unused)) size_t name##_res_smem(int th)                              \
    {                                                                                                 \
        return (size_t)(((th + name##_RR - 1) / name##_RR) * name##_RR + 2 * name##_R) * name##_WW * sizeof(T); \
    }                                                                                                 \
    /* shared bytes of the hybrid kernel caching sc rows a tile (two streaming windows first) */      \
    static inline __attribute__((unused)) size_t name##_hyb_smem(int sc)                              \
    {                                                                                                 \
        return (size_t)name##_HWIN * sizeof(T) + (sc > 0 ? name##_res_smem(sc) : 0);                  \
    }                                                                                                 \
    __global__ void __launch_bounds__(BX, PERKS__RES_MINB(T, SHAPE, BX))                              \
        name##_res_kernel(T *a, T *b, T *ea, T *eb, int perks__W, int perks__H, int steps, int tiles_x, \
                          int perks__TH, int perks__SC, name##_weights perks__w)                      \
        PERKS__RES_BODY(name, T, SHAPE, BX, RC, 0)                                                    \
    __global__ void __launch_bounds__(BX, PERKS__HYB_MINB(T, SHAPE, BX))                              \
        name##_hyb_kernel(T *a, T *b, T *ea, T *eb, int perks__W, int perks__H, int steps, int tiles_x, \
                          int perks__TH, int perks__SC, name##_weights perks__w)                      \
        PERKS__RES_BODY(name, T, SHAPE, BX, RC, 1)

/* the resident kernel (HYB 0: every row of the tile cached, perks__SC unused) and the hybrid
 * kernel (HYB 1: rows [0, sc) of the tile cached in shared memory as in the resident kernel, rows
 * [sc, tile) streamed from device memory every step).  The streamed part is the non-persistent
 * step done by the persistent block: each thread slides its column down in chunks of RC rows
 * (vertical neighbours in registers), the block stages the chunk's (RC + 2r) x (BX + 2r) window in
 * shared memory (two windows, alternating, so one barrier a chunk), and the loads of the next
 * PERKS__HYB_PF chunks (rows and side halo) are in flight while a chunk is computed.  The streamed
 * rows read only the step's input array and write only its output array, so they need nothing
 * from the cached part of the same step: the cached part writes its first and last r rows to the
 * output array every step (the streamed rows and the neighbours read them next step), every
 * streamed row goes to the output array. */
/* the hybrid kernel's build: as the resident kernel, but fp64 stencils of radius >= 4 at 256 threads
 * per SM (their streamed part with the hoisted shared loads spills at 128 registers) */
#define PERKS__HYB_MINB(T, SHAPE, BX)                                                                 \
    (((int)sizeof(T) > 4 && PERKS_SHAPE2D_RADIUS(SHAPE) >= 4) ? (256 / (BX) > 0 ? 256 / (BX) : 1) : PERKS__RES_MINB(T, SHAPE, BX))
/* the hybrid plan's default blocks per SM: 512 threads (fewer if the build allows fewer) -- on the
 * H200 2 blocks of 256 beat 3-4 wherever the hybrid kernel wins (it then caches 53-68% instead of
 * 37-50%: docs/perks.md, hyb vs hyb2 on M) */
#define PERKS__HYB_BPS(BX) (512 / (BX) > 0 ? 512 / (BX) : 1)
/* chunks of loads in flight in the streamed part: 2 (fp64 with r >= 3: 1, 128 registers) */
#define PERKS__HYB_PF(T, R) ((int)sizeof(T) > 4 && (R) >= 3 ? 1 : 2)
/* frame cells a thread loads at once in the resident kernel (all of a batch in flight: one L2
 * round trip per batch instead of one per cell); the hybrid kernel keeps one cell at a time: the
 * batched loop, even of 1 or 2 cells, makes its fp64 box r2 build spill at 128 registers */
#define PERKS__FB(T) ((int)sizeof(T) > 4 ? 4 : 8)
/* the resident / hybrid kernel's locals: the tile, its cached rows, and the prologue that loads
 * them from the input (rows past the tile, up to RR, only feed discarded outputs) */
#define PERKS__RES_SETUP(name, T, BX, HYB)                                                            \
        enum { perks__R = name##_R, perks__WW = name##_WW, perks__RR = name##_RR };                   \
        const int perks__tx = (int)threadIdx.x;                                                       \
        extern __shared__ __align__(16) unsigned char name##_rdyn[];                                  \
        T *perks__S = (T *)name##_rdyn + ((HYB) ? (int)name##_HWIN : 0);                              \
        const int tix = blockIdx.x % tiles_x, tiy = blockIdx.x / tiles_x;                             \
        const int perks__x0 = tix * (BX), perks__y0 = tiy * perks__TH;                                \
        const int perks__the = min(perks__TH, perks__H - perks__y0);                                  \
        const int perks__sc = (HYB) ? min(perks__SC, perks__the) : perks__the;                        \
        const int perks__x = perks__x0 + perks__tx;                                                   \
        const int perks__xin = perks__x < perks__W;                                                   \
        const int perks__xint = perks__x >= perks__R && perks__x < perks__W - perks__R;               \
        const int perks__has_l = tix > 0, perks__has_r = tix < tiles_x - 1;                           \
        const int nch = (perks__sc + perks__RR - 1) / perks__RR;                                      \
        (void)perks__SC;                                                                              \
        _Pragma("unroll 1") for (int y = 0; y < perks__sc; y++)                                       \
            perks__S[(y + perks__R) * perks__WW + perks__tx + perks__R] =                             \
                perks__xin ? a[(size_t)(perks__y0 + y) * perks__W + perks__x] : (T)0;
/* step t's arrays: in / out alternate (a, b), so do the edge buffers (ea, eb) */
#define PERKS__STEP_ARRAYS(T)                                                                         \
            const T *perks__in = (t & 1) ? b : a;                                                     \
            T *perks__out = (t & 1) ? a : b;                                                          \
            const T *perks__ein = (t & 1) ? eb : ea;                                                  \
            T *perks__eout = (t & 1) ? ea : eb;                                                       \
            const int perks__last = t == steps - 1;
/* (1) the frame, one cell at a time (the hybrid kernel: batches spill its fp64 builds): rows above /
 * below (with the corners), then columns left / right */
#define PERKS__RES_FRAME1(T, BX)                                                                      \
                _Pragma("unroll 1") for (int i = perks__tx; i < 2 * perks__R * perks__WW; i += (BX)) { \
                    const int hr = i / perks__WW, cx = i - hr * perks__WW - perks__R;                 \
                    const int y = hr < perks__R ? hr - perks__R : perks__sc + hr - perks__R;          \
                    const int gy = perks__y0 + y, gx = perks__x0 + cx;                                \
                    perks__S[(y + perks__R) * perks__WW + cx + perks__R] =                            \
                        (gy >= 0 && gy < perks__H && gx >= 0 && gx < perks__W) ? perks__in[(size_t)gy * perks__W + gx] : (T)0; \
                }                                                                                     \
                _Pragma("unroll 1") for (int i = perks__tx; i < 2 * perks__R * perks__sc; i += (BX)) { \
                    const int side = i >= perks__R * perks__sc, j = i - side * perks__R * perks__sc;  \
                    const int k = j / perks__sc, y = j - k * perks__sc;                               \
                    const int cx = side ? (BX) + k : k - perks__R, gx = perks__x0 + cx;               \
                    T v = (T)0;                                                                       \
                    if (gx >= 0 && gx < perks__W)                                                     \
                        v = t == 0 ? perks__in[(size_t)(perks__y0 + y) * perks__W + gx]               \
                                   : perks__ein[PERKS_EDGE_INDEX((int)blockIdx.x + (side ? 1 : -1), 1 - side, k, y, perks__R, perks__TH)]; \
                    perks__S[(y + perks__R) * perks__WW + cx + perks__R] = v;                         \
                }
/* (1) the frame of the resident kernel: rows above / below (with the corners) and columns left /
 * right, in batches of PERKS__FB cells a thread, all the loads of a batch in flight at once */
#define PERKS__RES_FRAMEB(T, BX)                                                                      \
                {                                                                                     \
                    const int perks__nfr = 2 * perks__R * perks__WW, perks__nf = perks__nfr + 2 * perks__R * perks__sc; \
                    _Pragma("unroll 1") for (int i0 = perks__tx; i0 < perks__nf; i0 += PERKS__FB(T) * (BX)) { \
                        T perks__fv[PERKS__FB(T)];                                                    \
                        int perks__fo[PERKS__FB(T)];                                                  \
                        _Pragma("unroll") for (int q = 0; q < PERKS__FB(T); q++) {                    \
                            const int i = i0 + q * (BX);                                              \
                            T v = (T)0;                                                               \
                            int o = -1;                                                               \
                            if (i < perks__nfr) {                                                     \
                                const int hr = i / perks__WW, cx = i - hr * perks__WW - perks__R;     \
                                const int y = hr < perks__R ? hr - perks__R : perks__sc + hr - perks__R; \
                                const int gy = perks__y0 + y, gx = perks__x0 + cx;                    \
                                o = (y + perks__R) * perks__WW + cx + perks__R;                       \
                                if (gy >= 0 && gy < perks__H && gx >= 0 && gx < perks__W) v = perks__in[(size_t)gy * perks__W + gx]; \
                            } else if (i < perks__nf) {                                               \
                                const int i2 = i - perks__nfr;                                        \
                                const int side = i2 >= perks__R * perks__sc, j = i2 - side * perks__R * perks__sc; \
                                const int k = j / perks__sc, y = j - k * perks__sc;                   \
                                const int cx = side ? (BX) + k : k - perks__R, gx = perks__x0 + cx;   \
                                o = (y + perks__R) * perks__WW + cx + perks__R;                       \
                                if (gx >= 0 && gx < perks__W)                                         \
                                    v = t == 0 ? perks__in[(size_t)(perks__y0 + y) * perks__W + gx]   \
                                               : perks__ein[PERKS_EDGE_INDEX((int)blockIdx.x + (side ? 1 : -1), 1 - side, k, y, perks__R, perks__TH)]; \
                            }                                                                         \
                            perks__fv[q] = v;                                                         \
                            perks__fo[q] = o;                                                         \
                        }                                                                             \
                        _Pragma("unroll") for (int q = 0; q < PERKS__FB(T); q++)                      \
                            if (perks__fo[q] >= 0) perks__S[perks__fo[q]] = perks__fv[q];             \
                    }                                                                                 \
                }
/* (2) the step, in place, one chunk of RR rows behind; the last chunk is written once every
 * thread is past its compute (the loop's last barrier) */
#define PERKS__RES_PASS(T, SHAPE)                                                                     \
            {                                                                                         \
                T perks__col[perks__RR + 2 * perks__R];                                               \
                T perks__p[perks__RR];                                                                \
                _Pragma("unroll") for (int l = 0; l < perks__RR + 2 * perks__R; l++)                  \
                    perks__col[l] = perks__S[l * perks__WW + perks__tx + perks__R];                   \
                _Pragma("unroll") for (int i = 0; i < perks__RR; i++) perks__p[i] = (T)0;             \
                _Pragma("unroll 1") for (int c = 0; c < nch; c++) {                                   \
                    const int perks__yc = c * perks__RR;                                              \
                    T perks__o[perks__RR];                                                            \
                    _Pragma("unroll") for (int perks__i = 0; perks__i < perks__RR; perks__i++) {      \
                        const int gy = perks__y0 + perks__yc + perks__i;                              \
                        T perks__s = (T)0;                                                            \
                        SHAPE(PERKS__RTERM2D)                                                         \
                        perks__o[perks__i] = (perks__xint && gy >= perks__R && gy < perks__H - perks__R) ? perks__s : perks__col[perks__i + perks__R]; \
                    }                                                                                 \
                    _Pragma("unroll") for (int l = 0; l < 2 * perks__R; l++) perks__col[l] = perks__col[perks__RR + l]; \
                    if (c + 1 < nch)                                                                  \
                        _Pragma("unroll") for (int l = 0; l < perks__RR; l++)                         \
                            perks__col[2 * perks__R + l] = perks__S[(perks__yc + perks__RR + 2 * perks__R + l) * perks__WW + perks__tx + perks__R]; \
                    __syncthreads();                                                                  \
                    if (c > 0)                                                                        \
                        _Pragma("unroll") for (int i = 0; i < perks__RR; i++)                         \
                            perks__S[(perks__yc - perks__RR + i + perks__R) * perks__WW + perks__tx + perks__R] = perks__p[i]; \
                    _Pragma("unroll") for (int i = 0; i < perks__RR; i++) perks__p[i] = perks__o[i];  \
                }                                                                                     \
                if (nch > 0)                                                                          \
                    _Pragma("unroll") for (int i = 0; i < perks__RR; i++)                             \
                        if ((nch - 1) * perks__RR + i < perks__sc)                                    \
                            perks__S[((nch - 1) * perks__RR + i + perks__R) * perks__WW + perks__tx + perks__R] = perks__p[i]; \
            }
/* (3) the halo out: rows to the domain array (all rows after the last step), columns transposed
 * to the edge buffer */
#define PERKS__RES_HALO_OUT(BX)                                                                       \
            if (perks__xin && perks__last)                                                            \
                _Pragma("unroll 1") for (int y = 0; y < perks__sc; y++)                               \
                    perks__out[(size_t)(perks__y0 + y) * perks__W + perks__x] = perks__S[(y + perks__R) * perks__WW + perks__tx + perks__R]; \
            if (perks__xin && !perks__last)                                                           \
                _Pragma("unroll 1") for (int j = 0; j < 2 * perks__R; j++) {                          \
                    const int y = j < perks__R ? j : perks__sc - 2 * perks__R + j;                    \
                    if (y >= 0 && y < perks__sc)                                                      \
                        perks__out[(size_t)(perks__y0 + y) * perks__W + perks__x] = perks__S[(y + perks__R) * perks__WW + perks__tx + perks__R]; \
                }                                                                                     \
            if (!perks__last) {                                                                       \
                _Pragma("unroll 1") for (int i = perks__tx; i < 2 * perks__R * perks__sc; i += (BX)) { \
                    const int side = i >= perks__R * perks__sc, j = i - side * perks__R * perks__sc;  \
                    const int k = j / perks__sc, y = j - k * perks__sc;                               \
                    if (side ? perks__has_r : perks__has_l)                                           \
                        perks__eout[PERKS_EDGE_INDEX((int)blockIdx.x, side, k, y, perks__R, perks__TH)] = \
                            perks__S[(y + perks__R) * perks__WW + (side ? (BX)-perks__R + k : k) + perks__R]; \
                }                                                                                     \
            }
/* the kernel body: the tile's cached rows (1) (2) (3) each step, then (hybrid) the streamed rows */
#define PERKS__RES_BODY(name, T, SHAPE, BX, RC, HYB)                                                  \
    {                                                                                                 \
        PERKS__RES_SETUP(name, T, BX, HYB)                                                            \
        PERKS_FOR_STEPS(t, steps)                                                                     \
        {                                                                                             \
            PERKS__STEP_ARRAYS(T)                                                                     \
            if (!(HYB) || perks__sc > 0) {                                                            \
            if (HYB) {                                                                                \
                PERKS__RES_FRAME1(T, BX)                                                              \
            } else {                                                                                  \
                PERKS__RES_FRAMEB(T, BX)                                                              \
            }                                                                                         \
            __syncthreads();                                                                          \
            PERKS__RES_PASS(T, SHAPE)                                                                 \
            __syncthreads();                                                                          \
            PERKS__RES_HALO_OUT(BX)                                                                   \
            }                                                                                         \
            if (HYB) PERKS__HYB_STREAM(name, T, SHAPE, BX, RC)                                        \
            if (!perks__last) PERKS_GRID_SYNC();                                                      \
        }                                                                                             \
    }

/* row y (tile-relative) of this thread's column from the step's input (0 outside the domain) */
#define PERKS__HLD(T, y)                                                                              \
    ((perks__xin && perks__y0 + (y) >= 0 && perks__y0 + (y) < perks__H) ? perks__in[(size_t)(perks__y0 + (y)) * perks__W + perks__x] : (T)0)
/* side halo of streamed chunk k (rows sc + k RC - r ... + RC + r - 1) into h[r]: warp 0 the left
 * columns, warp 1 the right, one lane per row, from the input array */
#define PERKS__HHALO(T, BX, RC, k, h)                                                                 \
    {                                                                                                 \
        const int perks__wid = perks__tx >> 5, perks__lane = perks__tx & 31;                          \
        if (perks__wid < 2 && perks__lane < (RC) + 2 * perks__R) {                                    \
            const int gy = perks__y0 + perks__sc + (k) * (RC)-perks__R + perks__lane;                 \
            _Pragma("unroll") for (int kk = 0; kk < perks__R; kk++) {                                 \
                const int gx = perks__wid ? perks__x0 + (BX) + kk : perks__x0 - perks__R + kk;        \
                h[kk] = (gy >= 0 && gy < perks__H && gx >= 0 && gx < perks__W) ? perks__in[(size_t)gy * perks__W + gx] : (T)0; \
            }                                                                                         \
        }                                                                                             \
    }
#define PERKS__HTERM2D(I, DX, DY)                                                                     \
    perks__s = fma(perks__w.w[I], (DX) == 0 ? perks__hc[perks__i + perks__R + (DY)]                   \
                                            : perks__hw[(perks__i + perks__R + (DY)) * perks__WW + perks__tx + perks__R + (DX)], \
                   perks__s);
/* the streamed part's registers: the sliding column hc, and a queue of PF chunks (rows q, side halo
 * qh) whose loads are in flight; the first PF chunks are issued here */
#define PERKS__HYB_QUEUE(T, BX, RC)                                                                   \
        enum { perks__PF = PERKS__HYB_PF(T, perks__R), perks__HR = perks__R > 0 ? perks__R : 1 };     \
        const int nsc = (perks__the - perks__sc + (RC)-1) / (RC);                                     \
        T perks__hc[(RC) + 2 * perks__R];                                                             \
        T perks__q[perks__PF][RC];                                                                    \
        T perks__qh[perks__PF][perks__HR];                                                            \
        _Pragma("unroll") for (int l = 0; l < 2 * perks__R; l++) perks__hc[l] = PERKS__HLD(T, perks__sc - perks__R + l); \
        _Pragma("unroll") for (int j = 0; j < perks__PF; j++) {                                       \
            _Pragma("unroll") for (int l = 0; l < (RC); l++) perks__q[j][l] = (T)0;                   \
            _Pragma("unroll") for (int kk = 0; kk < perks__HR; kk++) perks__qh[j][kk] = (T)0;         \
            if (j < nsc) {                                                                            \
                _Pragma("unroll") for (int l = 0; l < (RC); l++)                                      \
                    perks__q[j][l] = PERKS__HLD(T, perks__sc + j * (RC) + perks__R + l);              \
                PERKS__HHALO(T, BX, RC, j, perks__qh[j])                                              \
            }                                                                                         \
        }
/* streamed chunk k's window (one of two, alternating): own column, and the side halo (warps 0
 * and 1, one lane per row) */
#define PERKS__HYB_WINDOW(name, T, BX, RC)                                                            \
            T *perks__hw = (T *)name##_rdyn + (k & 1) * ((RC) + 2 * perks__R) * perks__WW;            \
            _Pragma("unroll") for (int l = 0; l < (RC); l++) perks__hc[2 * perks__R + l] = perks__q[0][l]; \
            _Pragma("unroll") for (int l = 0; l < (RC) + 2 * perks__R; l++)                           \
                perks__hw[l * perks__WW + perks__tx + perks__R] = perks__hc[l];                       \
            {                                                                                         \
                const int perks__wid = perks__tx >> 5, perks__lane = perks__tx & 31;                  \
                if (perks__wid < 2 && perks__lane < (RC) + 2 * perks__R)                              \
                    _Pragma("unroll") for (int kk = 0; kk < perks__R; kk++)                           \
                        perks__hw[perks__lane * perks__WW + (perks__wid ? (BX) + perks__R + kk : kk)] = perks__qh[0][kk]; \
            }
/* the queue moves up; chunk k + PF's loads are issued before this chunk's compute */
#define PERKS__HYB_ADVANCE(T, BX, RC)                                                                 \
            _Pragma("unroll") for (int j = 0; j + 1 < perks__PF; j++) {                               \
                _Pragma("unroll") for (int l = 0; l < (RC); l++) perks__q[j][l] = perks__q[j + 1][l]; \
                _Pragma("unroll") for (int kk = 0; kk < perks__HR; kk++) perks__qh[j][kk] = perks__qh[j + 1][kk]; \
            }                                                                                         \
            if (k + perks__PF < nsc) {                                                                \
                _Pragma("unroll") for (int l = 0; l < (RC); l++)                                      \
                    perks__q[perks__PF - 1][l] = PERKS__HLD(T, perks__sc + (k + perks__PF) * (RC) + perks__R + l); \
                PERKS__HHALO(T, BX, RC, k + perks__PF, perks__qh[perks__PF - 1])                      \
            }
/* streamed chunk k's RC outputs, straight to the output array */
#define PERKS__HYB_OUT(T, SHAPE, RC)                                                                  \
            _Pragma("unroll") for (int perks__i = 0; perks__i < (RC); perks__i++) {                   \
                const int y = perks__sc + k * (RC) + perks__i, gy = perks__y0 + y;                    \
                T perks__s = (T)0;                                                                    \
                SHAPE(PERKS__HTERM2D)                                                                 \
                perks__s = (perks__xint && gy >= perks__R && gy < perks__H - perks__R) ? perks__s : perks__hc[perks__i + perks__R]; \
                if (perks__xin && y < perks__the) perks__out[(size_t)gy * perks__W + perks__x] = perks__s; \
            }                                                                                         \
            _Pragma("unroll") for (int l = 0; l < 2 * perks__R; l++) perks__hc[l] = perks__hc[(RC) + l];
/* the streamed rows [sc, the) of the tile: one pass, PERKS__HYB_PF chunks of loads in flight */
#define PERKS__HYB_STREAM(name, T, SHAPE, BX, RC)                                                     \
    {                                                                                                 \
        PERKS__HYB_QUEUE(T, BX, RC)                                                                   \
        _Pragma("unroll 1") for (int k = 0; k < nsc; k++) {                                           \
            PERKS__HYB_WINDOW(name, T, BX, RC)                                                        \
            PERKS__HYB_ADVANCE(T, BX, RC)                                                             \
            __syncthreads();                                                                          \
            PERKS__HYB_OUT(T, SHAPE, RC)                                                              \
        }                                                                                             \
    }

/* ---- the streaming kernel, piece by piece ---------------------------------------------------- */
/* the kernel's locals: shared memory (window, edge staging, cache), the tile, the register /
 * shared split.  Registers only where the whole register part and the bottom halo fit the tile, so
 * the unrolled register chunks never branch on the tile's length (equal for a row of tiles). */
#define PERKS__S2D_SETUP(name, T, BX, RC, DEPTH)                                                      \
        enum { perks__R = name##_R, perks__WW = name##_WW, perks__BX = (BX) };                        \
        const int perks__tx = (int)threadIdx.x;                                                       \
        extern __shared__ __align__(16) unsigned char name##_dyn[];                                   \
        T *perks__win = (T *)name##_dyn;                                                              \
        T *perks__stage = perks__win + ((RC) + 2 * perks__R) * perks__WW;                             \
        T *perks__scache = (T *)(name##_dyn + name##_SMEM_BASE);                                      \
        const int tix = blockIdx.x % tiles_x, tiy = blockIdx.x / tiles_x;                             \
        const int perks__x0 = tix * (BX), perks__y0 = tiy * perks__TH;                                \
        const int perks__the = min(perks__TH, perks__H - perks__y0);                                  \
        const int perks__x = perks__x0 + perks__tx;                                                   \
        const int perks__xin = perks__x < perks__W;                                                   \
        const int perks__xint = perks__x >= perks__R && perks__x < perks__W - perks__R;               \
        const int perks__has_l = tix > 0, perks__has_r = tix < tiles_x - 1;                           \
        const int perks__regblk = reg_on && (DEPTH) > 0 && perks__the >= (DEPTH) + perks__R;          \
        const int perks__nreg = perks__regblk ? (DEPTH) : 0;                                          \
        const int perks__ncached = min(perks__nreg + sr, perks__the);                                 \
        const int nch = (perks__the + (RC)-1) / (RC);
/* the kernel's registers: the register cache, the sliding column, outputs, prefetched rows, halo */
#define PERKS__S2D_REGS(T, RC, DEPTH)                                                                 \
        PERKS_REGCACHE(T, perks__reg, DEPTH);                                                         \
        T perks__col[(RC) + 2 * perks__R];                                                            \
        T perks__o[RC];                                                                               \
        T perks__pre[RC];                                                                             \
        T perks__hal[perks__R > 0 ? perks__R : 1];                                                    \
        _Pragma("unroll") for (int l = 0; l < (RC); l++) perks__pre[l] = (T)0;                        \
        _Pragma("unroll") for (int k = 0; k < (perks__R > 0 ? perks__R : 1); k++) perks__hal[k] = (T)0;
/* prologue: the caches and the transposed edges get the input (then one grid barrier) */
#define PERKS__S2D_PROLOGUE(T, BX, DEPTH)                                                             \
        _Pragma("unroll") for (int i = 0; i < ((DEPTH) > 0 ? (DEPTH) : 1); i++) perks__reg[i] = (T)0; \
        if (perks__regblk && perks__xin)                                                              \
            _Pragma("unroll") for (int i = 0; i < ((DEPTH) > 0 ? (DEPTH) : 1); i++)                   \
                perks__reg[i] = a[(size_t)(perks__y0 + i) * perks__W + perks__x];                     \
        for (int y = 0; y < perks__ncached; y++) {                                                    \
            T v = perks__xin ? a[(size_t)(perks__y0 + y) * perks__W + perks__x] : (T)0;               \
            if (y >= perks__nreg) PERKS_SMEM_ROW(perks__scache, y, perks__nreg, perks__BX, perks__tx) = v; \
            if (perks__has_l && perks__tx < perks__R)                                                 \
                ea[PERKS_EDGE_INDEX(blockIdx.x, 0, perks__tx, y, perks__R, perks__TH)] = v;           \
            if (perks__has_r && perks__tx >= (BX)-perks__R)                                           \
                ea[PERKS_EDGE_INDEX(blockIdx.x, 1, perks__tx - ((BX)-perks__R), y, perks__R, perks__TH)] = v; \
        }                                                                                             \
        if (steps > 0) PERKS_GRID_SYNC();
/* the end of chunk c: stage the edges, barrier, flush them, slide the column down by RC rows */
#define PERKS__S2D_CHUNK_END(BX, RC, c)                                                               \
                PERKS__STAGE2D(RC, BX)                                                                \
                __syncthreads();                                                                      \
                PERKS__FLUSH2D(RC, c)                                                                 \
                _Pragma("unroll") for (int l = 0; l < 2 * perks__R; l++) perks__col[l] = perks__col[(RC) + l]; \
                _Pragma("unroll") for (int l = 0; l < (RC); l++) perks__col[2 * perks__R + l] = perks__pre[l];
/* a step's register chunks, rows [0, DEPTH): unrolled, so register indices are constants; rows
 * -R .. R-1 and chunk 0's rows and halo first, later chunks are fetched one ahead */
#define PERKS__S2D_REGPART(T, SHAPE, BX, RC, DEPTH)                                                   \
                _Pragma("unroll") for (int l = 0; l < 2 * perks__R; l++) {                            \
                    const int y = l - perks__R;                                                       \
                    perks__col[l] = y >= 0 ? perks__reg[y >= 0 ? y : 0] : PERKS__LOAD2D(T, y);        \
                }                                                                                     \
                _Pragma("unroll") for (int l = 0; l < (RC); l++) {                                    \
                    const int y = perks__R + l;                                                       \
                    perks__col[2 * perks__R + l] = y < (DEPTH) ? perks__reg[y < (DEPTH) ? y : 0] : PERKS__LOAD2D(T, y); \
                }                                                                                     \
                PERKS__HALO2D(T, BX, RC, 0, perks__hal)                                               \
                _Pragma("unroll") for (int c = 0; c < (DEPTH) / (RC); c++) {                          \
                    PERKS__FILL2D(BX, RC)                                                             \
                    if (c + 1 < nch) {                                                                \
                        _Pragma("unroll") for (int l = 0; l < (RC); l++) {                            \
                            const int y = (c + 1) * (RC) + perks__R + l;                              \
                            perks__pre[l] = y < (DEPTH) ? perks__reg[y < (DEPTH) ? y : 0] : PERKS__LOAD2D(T, y); \
                        }                                                                             \
                        PERKS__HALO2D(T, BX, RC, c + 1, perks__hal)                                   \
                    }                                                                                 \
                    PERKS__COMPUTE2D(T, SHAPE, RC, c)                                                 \
                    _Pragma("unroll") for (int i = 0; i < (RC); i++) {                                \
                        const int y = c * (RC) + i;                                                   \
                        perks__reg[y] = perks__o[i];                                                  \
                        if (y < perks__R && perks__xin) perks__out[(size_t)(perks__y0 + y) * perks__W + perks__x] = perks__o[i]; \
                    }                                                                                 \
                    PERKS__S2D_CHUNK_END(BX, RC, c)                                                   \
                }
/* a step's chunks from c0 on: rows from the shared cache or device memory, one chunk ahead */
#define PERKS__S2D_CHUNKS(T, SHAPE, BX, RC, c0)                                                       \
            for (int c = c0; c < nch; c++) {                                                          \
                PERKS__FILL2D(BX, RC)                                                                 \
                if (c + 1 < nch) {                                                                    \
                    _Pragma("unroll") for (int l = 0; l < (RC); l++) {                                \
                        const int y = (c + 1) * (RC) + perks__R + l;                                  \
                        perks__pre[l] = PERKS__LOAD2D(T, y);                                          \
                    }                                                                                 \
                    PERKS__HALO2D(T, BX, RC, c + 1, perks__hal)                                       \
                }                                                                                     \
                PERKS__COMPUTE2D(T, SHAPE, RC, c)                                                     \
                _Pragma("unroll") for (int i = 0; i < (RC); i++) {                                    \
                    const int y = c * (RC) + i;                                                       \
                    if (y < perks__the) PERKS__STORE2D(y, perks__o[i])                                \
                }                                                                                     \
                PERKS__S2D_CHUNK_END(BX, RC, c)                                                       \
            }
/* epilogue: the register rows go to the last step's output (shared rows went in the loop) */
#define PERKS__S2D_EPILOGUE(T, DEPTH)                                                                 \
        if (steps > 0 && perks__regblk && perks__xin) {                                               \
            T *perks__fin = (steps & 1) ? b : a;                                                      \
            _Pragma("unroll") for (int i = 0; i < ((DEPTH) > 0 ? (DEPTH) : 1); i++)                   \
                perks__fin[(size_t)(perks__y0 + i) * perks__W + perks__x] = perks__reg[i];            \
        }
/* the streaming persistent kernel name_kernel */
#define PERKS__S2D_KERNEL(name, T, SHAPE, BX, RC, DEPTH, MINB)                                        \
    __global__ void __launch_bounds__(BX, MINB)                                                       \
        name##_kernel(T *a, T *b, T *ea, T *eb, int perks__W, int perks__H, int steps, int reg_on,    \
                      int sr, int tiles_x, int perks__TH, name##_weights perks__w)                    \
    {                                                                                                 \
        PERKS__S2D_SETUP(name, T, BX, RC, DEPTH)                                                      \
        PERKS__S2D_REGS(T, RC, DEPTH)                                                                 \
        PERKS__S2D_PROLOGUE(T, BX, DEPTH)                                                             \
        PERKS_FOR_STEPS(t, steps)                                                                     \
        {                                                                                             \
            PERKS__STEP_ARRAYS(T)                                                                     \
            int c0 = 0;                                                                               \
            if (perks__regblk) {                                                                      \
                PERKS__S2D_REGPART(T, SHAPE, BX, RC, DEPTH)                                           \
                c0 = (DEPTH) / (RC);                                                                  \
            } else {                                                                                  \
                _Pragma("unroll") for (int l = 0; l < (RC) + 2 * perks__R; l++) perks__col[l] = PERKS__LOAD2D(T, l - perks__R); \
                PERKS__HALO2D(T, BX, RC, 0, perks__hal)                                               \
            }                                                                                         \
            PERKS__S2D_CHUNKS(T, SHAPE, BX, RC, c0)                                                   \
            if (!perks__last) PERKS_GRID_SYNC();                                                      \
        }                                                                                             \
        PERKS__S2D_EPILOGUE(T, DEPTH)                                                                 \
    }
/* one non-persistent step (name_step_kernel): block = one chunk of one tile, everything through
 * device memory */
#define PERKS__S2D_STEP_KERNEL(name, T, SHAPE, BX, RC)                                                \
    __global__ void __launch_bounds__(BX) name##_step_kernel(const T *__restrict__ perks__in, T *__restrict__ perks__out, \
                                                             int perks__W, int perks__H, name##_weights perks__w) \
    {                                                                                                 \
        enum { perks__R = name##_R, perks__WW = name##_WW, perks__BX = (BX) };                        \
        const int perks__tx = (int)threadIdx.x;                                                       \
        extern __shared__ __align__(16) unsigned char name##_dyn[];                                   \
        T *perks__win = (T *)name##_dyn;                                                              \
        const int perks__x0 = blockIdx.x * (BX), perks__y0 = blockIdx.y * (RC);                       \
        const int perks__x = perks__x0 + perks__tx;                                                   \
        const int perks__xin = perks__x < perks__W;                                                   \
        const int perks__xint = perks__x >= perks__R && perks__x < perks__W - perks__R;               \
        const int perks__has_l = blockIdx.x > 0, perks__has_r = blockIdx.x < gridDim.x - 1;           \
        const int perks__the = (RC), perks__nreg = 0, perks__ncached = 0, perks__TH = 1;              \
        const T *perks__ein = NULL;                                                                   \
        T perks__col[(RC) + 2 * perks__R];                                                            \
        T perks__o[RC];                                                                               \
        (void)perks__TH;                                                                              \
        (void)perks__nreg;                                                                            \
        (void)perks__ein;                                                                             \
        _Pragma("unroll") for (int l = 0; l < (RC) + 2 * perks__R; l++) {                             \
            const int gy = perks__y0 - perks__R + l;                                                  \
            perks__col[l] = (perks__xin && gy >= 0 && gy < perks__H) ? perks__in[(size_t)gy * perks__W + perks__x] : (T)0; \
        }                                                                                             \
        T perks__hal[perks__R > 0 ? perks__R : 1];                                                    \
        _Pragma("unroll") for (int k = 0; k < (perks__R > 0 ? perks__R : 1); k++) perks__hal[k] = (T)0; \
        PERKS__HALO2D(T, BX, RC, 0, perks__hal)                                                       \
        PERKS__FILL2D(BX, RC)                                                                         \
        PERKS__COMPUTE2D(T, SHAPE, RC, 0)                                                             \
        _Pragma("unroll") for (int i = 0; i < (RC); i++) if (perks__xin && perks__y0 + i < perks__H)  \
            perks__out[(size_t)(perks__y0 + i) * perks__W + perks__x] = perks__o[i];                  \
    }
/* ---- the generator: names, sizes and types pasted around the pieces above -------------------- */
/* the coefficients (passed by value), the extents, the documented limits, the window's size */
#define PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH)                                               \
    typedef struct name##_weights {                                                                   \
        T w[PERKS_SHAPE2D_NPTS(SHAPE)];                                                               \
    } name##_weights;                                                                                 \
    enum { name##_R = PERKS_SHAPE2D_RADIUS(SHAPE), name##_WW = (BX) + 2 * PERKS_SHAPE2D_RADIUS(SHAPE) }; \
    static_assert((sizeof(T) == 4 || sizeof(T) == 8) && (T)0.5 != (T)0, #name ": T must be float or double."); \
    static_assert(!PERKS_SHAPE2D_TOO_FAR(SHAPE), #name ": the stencil reaches more than 8 cells away; r must be at most 8."); \
    static_assert((BX) % 32 == 0 && (BX) >= 64 && (BX) <= 1024, #name ": BX must be a multiple of 32 from 64 to 1024."); \
    static_assert((BX) >= 2 * name##_R, #name ": BX must be at least twice the stencil's radius.");   \
    static_assert((RC) >= 1 && (RC) + 2 * name##_R <= 32, #name ": RC must be at least 1 and RC + 2r at most 32."); \
    static_assert((DEPTH) >= 0 && (DEPTH) % (RC) == 0, #name ": DEPTH must be a multiple of RC (0: no register cache)."); \
    /* window + staging bytes at the start of dynamic shared memory (the cache follows) */            \
    enum { name##_SMEM_BASE = ((((RC) + 2 * name##_R) * name##_WW + 2 * name##_R * (RC)) * (int)sizeof(T) + 15) / 16 * 16 }; \
    static inline __attribute__((unused)) size_t name##_smem_base(void) { return (size_t)name##_SMEM_BASE; }
/* the instantiation's sizes for the host functions (perks__s2d_geom) */
#define PERKS__S2D_GEOM(name, T, BX, RC, DEPTH)                                                       \
    { (BX), (RC), name##_R, name##_WW, name##_RR, (DEPTH), (int)sizeof(T), (int)name##_HWIN, name##_SMEM_BASE }
/* name_res_plan, name_hyb_plan, name_plan, name_work_bytes */
#define PERKS__S2D_PLANS(name, T, SHAPE, BX, RC, DEPTH)                                               \
    /* the resident kernel's plan: PERKS_ERESOURCE unless every tile fits in shared memory */         \
    static inline __attribute__((unused)) int name##_res_plan(const perks_stencil2d_args *a, perks_plan *p) \
    {                                                                                                 \
        const perks__s2d_geom g = PERKS__S2D_GEOM(name, T, BX, RC, DEPTH);                            \
        return perks__s2d_res_plan(a, p, &g, (const void *)name##_res_kernel, PERKS__RES_BPS(T, SHAPE, BX)); \
    }                                                                                                 \
    /* the hybrid kernel's plan: rows [0, smem_rows) of each tile in shared memory (a multiple of     \
       RR, or the whole tile), the rest streamed; cache mode NONE: nothing cached (smem_rows 0) */    \
    static inline __attribute__((unused)) int name##_hyb_plan(const perks_stencil2d_args *a, perks_plan *p) \
    {                                                                                                 \
        const perks__s2d_geom g = PERKS__S2D_GEOM(name, T, BX, RC, DEPTH);                            \
        return perks__s2d_hyb_plan(a, p, &g, (const void *)name##_hyb_kernel, PERKS__HYB_PF(T, name##_R), PERKS__HYB_BPS(BX)); \
    }                                                                                                 \
    /* the plan name_launch will use (tiles, cache rows, % cached; resident, hybrid or streaming      \
       kernel, or the one-pass steps) */                                                              \
    static inline __attribute__((unused)) int name##_plan(const perks_stencil2d_args *a, perks_plan *p) \
    {                                                                                                 \
        const perks__s2d_geom g = PERKS__S2D_GEOM(name, T, BX, RC, DEPTH);                            \
        perks_plan q;                                                                                 \
        int rc = perks__s2d_check(a, p);                                                              \
        if (rc) return rc;                                                                            \
        if (a->kernel == PERKS_KERNEL_HYBRID) return a->cache == PERKS_CACHE_REG ? PERKS_ESIZE : name##_hyb_plan(a, p); \
        if (a->kernel != PERKS_KERNEL_STREAM && (a->cache == PERKS_CACHE_SMEM || a->cache == PERKS_CACHE_MIX)) { \
            rc = name##_res_plan(a, &q);                                                              \
            if (!rc) *p = q;                                                                          \
            if (!rc || a->kernel == PERKS_KERNEL_RESIDENT) return rc;                                 \
            /* AUTO, partly cached: the hybrid kernel, or the one-pass steps where it would lose */   \
            if (!name##_hyb_plan(a, &q)) {                                                            \
                if (!PERKS_HYB_WINS(T, PERKS_SHAPE2D_NPTS(SHAPE), name##_R, q.cached_fraction) && (a->height + (RC)-1) / (RC) <= 65535) \
                    q.resident = PERKS_PLAN_STEPS;                                                    \
                *p = q;                                                                            \
                return PERKS_SUCCESS;                                                                 \
            }                                                                                         \
        } else if (a->kernel == PERKS_KERNEL_RESIDENT)                                                \
            return PERKS_ESIZE;                                                                       \
        return perks__s2d_stream_plan(a, p, &g, (const void *)name##_kernel);                         \
    }                                                                                                 \
    static inline __attribute__((unused)) size_t name##_work_bytes(const perks_plan *p)               \
    {                                                                                                 \
        return 2 * perks_edge_elems(p->tiles, name##_R, p->tile_len) * sizeof(T);                     \
    }
/* name_launch (all steps, one cooperative launch) and name_steps (one ordinary launch a step) */
#define PERKS__S2D_LAUNCHERS(name, T, BX, RC, DEPTH)                                                  \
    static inline __attribute__((unused)) int name##_steps(const perks_stencil2d_args *a, cudaStream_t stream); \
    static inline __attribute__((unused)) int name##_launch(const perks_stencil2d_args *a, cudaStream_t stream) \
    {                                                                                                 \
        const perks__s2d_geom g = PERKS__S2D_GEOM(name, T, BX, RC, DEPTH);                            \
        const void *kern[3] = {(const void *)name##_kernel, (const void *)name##_res_kernel, (const void *)name##_hyb_kernel}; \
        perks_plan p;                                                                                 \
        name##_weights w;                                                                             \
        int rc;                                                                                       \
        if (!a) return PERKS_ENULL;                                                                   \
        if (!a->a || !a->b || !a->weights) return PERKS_ENULL;                                        \
        if ((rc = name##_plan(a, &p))) return rc;                                                     \
        if (a->steps == 0) return PERKS_SUCCESS;                                                      \
        if (p.resident == PERKS_PLAN_STEPS) return name##_steps(a, stream);                           \
        return perks__s2d_launch(a, &p, &g, kern, &w, sizeof w, stream);                              \
    }                                                                                                 \
    /* the same steps, one ordinary launch each (the non-persistent baseline, same arithmetic) */     \
    static inline __attribute__((unused)) int name##_steps(const perks_stencil2d_args *a, cudaStream_t stream) \
    {                                                                                                 \
        name##_weights w;                                                                             \
        dim3 g;                                                                                       \
        size_t sm = name##_smem_base();                                                               \
        int rc = perks__s2d_steps_prep(a, (BX), (RC), &w, sizeof w, (const void *)name##_step_kernel, sm, &g); \
        if (rc) return rc;                                                                            \
        T *pa = (T *)a->a, *pb = (T *)a->b;                                                           \
        for (int t = 0; t < a->steps; t++) {                                                          \
            name##_step_kernel<<<g, BX, sm, stream>>>((t & 1) ? pb : pa, (t & 1) ? pa : pb, a->width, a->height, w); \
            if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;                                \
        }                                                                                             \
        return PERKS_SUCCESS;                                                                         \
    }

#define PERKS_STENCIL2D_DEFINE(name, T, SHAPE, BX, RC, DEPTH) PERKS_STENCIL2D_DEFINE_OCC(name, T, SHAPE, BX, RC, DEPTH, 1)
#define PERKS_STENCIL2D_DEFINE_OCC(name, T, SHAPE, BX, RC, DEPTH, MINB)                               \
    PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH)                                                   \
    PERKS__S2D_KERNEL(name, T, SHAPE, BX, RC, DEPTH, MINB)                                            \
    PERKS__S2D_STEP_KERNEL(name, T, SHAPE, BX, RC)                                                    \
    PERKS__RES_DEFINE(name, T, SHAPE, BX, RC)                                                         \
    PERKS__S2D_PLANS(name, T, SHAPE, BX, RC, DEPTH)                                                   \
    PERKS__S2D_LAUNCHERS(name, T, BX, RC, DEPTH)

/* the device's numbers for perks/plan.h (bandwidth and latency: the H200's measured values) */
static inline int perks_device_query(perks_device_info *d)
{
    int dev, v;
    if (!d) return PERKS_ENULL;
    perks_device_h200(d);
    if (cudaGetDevice(&dev) != cudaSuccess) return PERKS_ECUDA;
    if (cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) return PERKS_ECUDA;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) != cudaSuccess) return PERKS_ECUDA;
    d->smem_per_sm = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) return PERKS_ECUDA;
    d->smem_per_block = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrReservedSharedMemoryPerBlock, dev) != cudaSuccess) return PERKS_ECUDA;
    d->smem_reserved_per_block = v;
    if (cudaDeviceGetAttribute(&d->regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor, dev) != cudaSuccess)
        return PERKS_ECUDA;
    if (cudaDeviceGetAttribute(&d->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev) != cudaSuccess)
        return PERKS_ECUDA;
    if (cudaDeviceGetAttribute(&d->max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev) != cudaSuccess)
        return PERKS_ECUDA;
    return PERKS_SUCCESS;
}

/* ---- host pieces of the 2D generator: one copy for every instantiation ------------------------ */
/* an instantiation's compile-time sizes (PERKS__S2D_GEOM fills one) */
typedef struct perks__s2d_geom {
    int bx, rc, r, ww, rr, depth, cell_bytes, hwin, smem_base; /* threads, rows a chunk, radius, BX + 2r, resident
                                                       rows a chunk, register rows, sizeof(T), hybrid
                                                       windows' cells, name_smem_base() */
} perks__s2d_geom;

/* the device and a kernel's resources for perks/plan.h */
static inline int perks__stencil_kinfo(perks_device_info *d, perks_kernel_info *k, const void *kernel, int block,
                                   long dyn_base, int in_flight, int cell_bytes, long quantum)
{
    struct cudaFuncAttributes fa;
    int rc;
    if ((rc = perks_device_query(d))) return rc;
    if (cudaFuncGetAttributes(&fa, kernel) != cudaSuccess) return PERKS_ECUDA;
    memset(k, 0, sizeof *k);
    k->block = block;
    k->regs_per_thread = fa.numRegs;
    k->static_smem = (long)fa.sharedSizeBytes;
    k->dyn_smem_base = dyn_base;
    k->bytes_in_flight_per_thread = in_flight;
    k->cell_bytes = cell_bytes;
    k->smem_quantum_cells = quantum;
    return PERKS_SUCCESS;
}

/* shared bytes of the resident kernel for tiles of th rows (name_res_smem) */
static inline size_t perks__s2d_res_smem(const perks__s2d_geom *g, int th)
{
    return (size_t)(((th + g->rr - 1) / g->rr) * g->rr + 2 * g->r) * g->ww * g->cell_bytes;
}

/* the resident or hybrid plan's blocks per SM and perks_plan_make: the default bps_def (capped by
 * what fits) unless the caller asks for a number */
static inline int perks__s2d_make(const perks_stencil2d_args *a, perks_plan *p, const perks_device_info *d,
                                  const perks_kernel_info *k, int bps_def)
{
    int maxb = perks_plan_max_blocks(d, k);
    int bps = a->blocks_per_sm ? a->blocks_per_sm : (bps_def < maxb ? bps_def : maxb);
    if (bps < 1) bps = 1;
    return perks_plan_make(p, d, k, (long long)a->width * a->height, bps);
}

/* name_res_plan: PERKS_ERESOURCE unless every tile fits in shared memory */
static inline int perks__s2d_res_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g,
                                      const void *kernel, int bps_def)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc;
    long rows;
    if ((rc = perks__stencil_kinfo(&d, &k, kernel, g->bx, (long)(2 * g->r * g->ww * (size_t)g->cell_bytes),
                               g->rc * g->cell_bytes, g->cell_bytes, g->ww)))
        return rc;
    if ((rc = perks__s2d_make(a, p, &d, &k, bps_def))) return rc;
    rows = p->smem_cache_cells / g->ww;
    p->reg_rows = 0;
    if ((rc = perks_plan_tiles2d(p, a->width, a->height, g->bx, g->r))) return rc;
    if ((long)((p->tile_len + g->rr - 1) / g->rr) * g->rr > rows || (a->smem_rows_max > 0 && p->tile_len > a->smem_rows_max))
        return PERKS_ERESOURCE;
    p->resident = 1;
    p->smem_rows = p->tile_len;
    p->smem_cache_cells = (long)p->tile_len * g->ww;
    p->smem_bytes = (long)perks__s2d_res_smem(g, p->tile_len);
    p->cells_reg = 0;
    p->cells_smem = p->cells;
    p->cells_dev = 0;
    p->cached_fraction = 1.0;
    return PERKS_SUCCESS;
}

/* name_hyb_plan: rows [0, smem_rows) of each tile in shared memory (a multiple of RR, or the whole
 * tile), the rest streamed with pf chunks in flight; cache mode NONE: nothing cached */
static inline int perks__s2d_hyb_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g,
                                      const void *kernel, int pf, int bps_def)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc;
    long rows;
    if ((rc = perks__stencil_kinfo(&d, &k, kernel, g->bx, (long)((g->hwin + 2 * g->r * g->ww) * (size_t)g->cell_bytes),
                               pf * g->rc * g->cell_bytes, g->cell_bytes, g->ww)))
        return rc;
    if ((rc = perks__s2d_make(a, p, &d, &k, bps_def))) return rc;
    rows = a->cache == PERKS_CACHE_NONE ? 0 : p->smem_cache_cells / g->ww;
    if (a->smem_rows_max > 0 && rows > a->smem_rows_max) rows = a->smem_rows_max;
    rows = rows / g->rr * g->rr;
    p->reg_rows = 0;
    p->smem_cache_cells = rows * g->bx;
    if ((rc = perks_plan_tiles2d(p, a->width, a->height, g->bx, g->r))) return rc;
    p->resident = PERKS_PLAN_HYBRID;
    p->smem_cache_cells = (long)p->smem_rows * g->ww;
    p->smem_bytes = (long)((size_t)g->hwin * g->cell_bytes + (p->smem_rows > 0 ? perks__s2d_res_smem(g, p->smem_rows) : 0));
    return PERKS_SUCCESS;
}

/* name_plan's argument checks */
static inline int perks__s2d_check(const perks_stencil2d_args *a, const perks_plan *p)
{
    if (!a || !p) return PERKS_ENULL;
    if (a->width <= 0 || a->height <= 0 || a->steps < 0 || a->blocks_per_sm < 0 || a->cache < 0 || a->cache > 3 ||
        a->smem_rows_max < 0 || a->kernel < 0 || a->kernel > 3)
        return PERKS_ESIZE;
    return PERKS_SUCCESS;
}

/* the streaming kernel's plan (name_plan's last resort) */
static inline int perks__s2d_stream_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g,
                                         const void *kernel)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc, reg = a->cache == PERKS_CACHE_REG || a->cache == PERKS_CACHE_MIX;
    if ((rc = perks__stencil_kinfo(&d, &k, kernel, g->bx, 0, g->rc * g->cell_bytes, g->cell_bytes, g->bx))) return rc;
    k.dyn_smem_base = (long)g->smem_base;
    k.reg_cells_per_thread = reg ? g->depth : 0;
    rc = perks_plan_make(p, &d, &k, (long long)a->width * a->height, a->blocks_per_sm);
    if (rc) return rc;
    if (a->cache == PERKS_CACHE_NONE || a->cache == PERKS_CACHE_REG) {
        p->smem_cache_cells = 0;
        p->smem_bytes = k.dyn_smem_base;
    }
    if (a->smem_rows_max > 0 && p->smem_cache_cells > (long)a->smem_rows_max * g->bx)
        p->smem_cache_cells = (long)a->smem_rows_max * g->bx;
    return perks_plan_tiles2d(p, a->width, a->height, g->bx, g->r);
}

/* name_launch after its plan: the edge buffers (a->work, or allocated and freed here), the weights,
 * one cooperative launch of kern[0] (stream), kern[1] (resident) or kern[2] (hybrid) */
static inline int perks__s2d_launch(const perks_stencil2d_args *a, const perks_plan *p, const perks__s2d_geom *g,
                                    const void *const kern[3], void *w, size_t wbytes, cudaStream_t stream)
{
    const size_t elems = perks_edge_elems(p->tiles, g->r, p->tile_len), need = 2 * elems * g->cell_bytes;
    int rc, reg_on, sr;
    void *work, *pa, *pb, *ea, *eb;
    if (a->work && a->work_bytes < need) return PERKS_ESIZE;
    work = a->work;
    if (!work && cudaMalloc(&work, need) != cudaSuccess) return PERKS_ECUDA;
    memcpy(w, a->weights, wbytes);
    reg_on = (a->cache == PERKS_CACHE_REG || a->cache == PERKS_CACHE_MIX) && g->depth > 0;
    sr = p->smem_rows;
    pa = a->a;
    pb = a->b;
    ea = work;
    eb = (char *)work + elems * g->cell_bytes;
    {
        int W = a->width, H = a->height, steps = a->steps, tx = p->tiles_x, th = p->tile_len;
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &steps, &reg_on, &sr, &tx, &th, w};
        void *rargs[] = {&pa, &pb, &ea, &eb, &W, &H, &steps, &tx, &th, &sr, w};
        if (p->resident == PERKS_PLAN_RESIDENT || p->resident == PERKS_PLAN_HYBRID)
            rc = perks_launch(p->resident == PERKS_PLAN_HYBRID ? kern[2] : kern[1], dim3(p->tiles), dim3(g->bx), rargs,
                              (size_t)p->smem_bytes, stream);
        else
            rc = perks_launch(kern[0], dim3(p->tiles), dim3(g->bx), args, (size_t)p->smem_bytes, stream);
    }
    if (!a->work) {
        if (cudaFree(work) != cudaSuccess && !rc) rc = PERKS_ECUDA;
    }
    return rc;
}

/* name_steps before its launches: checks, the weights, the grid, the step kernel's shared memory */
static inline int perks__s2d_steps_prep(const perks_stencil2d_args *a, int bx, int rc, void *w, size_t wbytes,
                                        const void *step_kernel, size_t sm, dim3 *g)
{
    if (!a) return PERKS_ENULL;
    if (!a->a || !a->b || !a->weights) return PERKS_ENULL;
    if (a->width <= 0 || a->height <= 0 || a->steps < 0) return PERKS_ESIZE;
    if ((a->height + rc - 1) / rc > 65535) return PERKS_ESIZE;
    memcpy(w, a->weights, wbytes);
    *g = dim3((a->width + bx - 1) / bx, (a->height + rc - 1) / rc);
    if (sm > 48 * 1024 &&
        cudaFuncSetAttribute(step_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm) != cudaSuccess)
        return PERKS_ECUDA;
    return PERKS_SUCCESS;
}

#endif /* PERKS_STENCIL_CUH */
