#include <onchip/names_push.h>
/* ssam/temporal.cuh -- temporal blocking: TT time steps of a 2D stencil per pass through memory,
 * for domains far larger than the chip.
 *
 * WHAT (the PERKS paper's section 7 "next step"; the streaming scheme of AN5D (CGO'20) and EBISU
 * (ICS'23), built from SSAM's register pieces: SC'19 section 4, Listing 2)
 *   SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, TT, B) defines
 *       __global__ void name_kernel(...)                                  up to TT steps, one pass
 *       int name_launch(const ssam_stencil_args *a, int steps, cudaStream_t)   1 <= steps <= TT
 *       int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 *                      any steps >= 0: ceil(steps / TT) passes, the last one shorter, ping-pong
 *       int name_ncoef(void); enum name_NPTS, name_TT, name_STEP (columns a warp stores); name_coef
 *   for the shape SHAPE (the X-macro lists of ssam/stencil_shapes.cuh), TT steps fused per pass
 *   and B threads per block.  The arguments, boundaries and codes are ssam/stencil.cuh's.
 *   SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(name, T, SHAPE, TT, B, MINB): the same, MINB blocks per SM
 *       asked of ptxas (__launch_bounds__; the default 1 leaves the count to ptxas: 2d5pt fp32 TT 8
 *       takes 165 registers, 3 blocks of 128; a kernel just over 168 runs 2, and MINB 3 caps it).
 *   SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM(name, T, SHAPE, TT, B): the staged kernel, the same names
 *       and name_SMEM (its dynamic shared memory, bytes a block): the input rows in shared memory
 *       (HOW, last paragraph); for wide shapes whose windows fill the register file.
 *   SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(name, T, SHAPE, B): the planner's choice (ssam/tbplan.h):
 *       name_onepass_* (SSAM_STENCIL2D_DEFINE, 128 threads, its own rows per lane) and name_tb_*
 *       (TT = SSAM_TB_TT_RULE of the shape; the staged kernel and SSAM_TB_SMEM_TT_RULE's TT where
 *       SSAM_TB_SMEM_RULE says so), plus
 *       int name_plan(const ssam_stencil_args *a, int steps, ssam_tb_plan *p)   path, TT, why
 *       int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 *
 * HOW
 *   A warp owns a strip of 32 V columns (V = 16 / sizeof(T) per lane, one 16-byte load per row) and
 *   a segment of rows, and streams down it one input row at a time.  It keeps TT register windows:
 *   window t (0 <= t < TT) holds the last NY rows of time level t.  Each input row (level 0) enters
 *   window 0; then for t = 1 .. TT the row of level t that has just become computable (row j - t YHI
 *   after input row j) is computed from window t - 1 by ssam's systolic row (SSAM_STENCIL2D_ROW: lane
 *   shifts carry the partial sums across lanes) and enters window t; level TT's row is stored.  So
 *   each cell is read once and written once per TT steps.  The strip loses -XLO columns on the left
 *   and XHI on the right per level (the lanes there see no neighbours): after TT levels the lanes
 *   within HL = V ceil(-XLO TT / V) columns of the left end and HR of the right one are not stored,
 *   and neighbouring strips overlap by HL + HR columns (halo recompute): a warp stores
 *   name_STEP = 32 V - HL - HR columns.  In y, a segment of S rows reads S + TT (YHI - YLO) rows.
 *   Per input row and level: the stencil's FMAs and shuffles for V cells, no shared memory, no
 *   barrier.  The driver picks the number of row segments that best fills whole waves of resident
 *   blocks, counting each segment's extra TT (YHI - YLO) rows; the blocks of the first and last
 *   strips (slower: their lanes past the domain) come first in the launch order, and those lanes
 *   load whole vectors inside the domain (ssam__tb_xload), not single elements.
 *   Every level is one step of SSAM_STENCIL2D_DEFINE's kernel with the same operation order (the
 *   same row piece and select), so the result equals `steps` one-pass launches bit for bit (the
 *   tests check it) -- except for periodic domains whose width is not a multiple of V: there the
 *   wrapped copies of a column sit at another place in their lane and are summed in another order
 *   (rounding differences, bounded in the tests by 2 N npts eps max|u0| G^N, G = sum of |c|).
 *   The staged kernel keeps level 0's window, the input rows, in shared memory: each lane its own
 *   16 bytes of a row (no barrier, no bank conflict) in a ring of NY + 3 rows, each row written at
 *   slot s and s + NY + 3 so that the window is NY consecutive slots, filled by cp.async 3 rows ahead
 *   (SSAM_TEMPORAL_AHEAD).  The 2 NY 4 registers of the input window and the prefetch ring go to
 *   occupancy: 2d17pt fp32 takes 148 registers at TT 3 where the register kernel takes 252 at TT 4
 *   (3 blocks of 128 an SM against 2); the other levels and the arithmetic are the register
 *   kernel's, bit for bit.  H200, 8192^2, GCells/s against the register kernel: 2d13pt fp32 TT 4
 *   747 vs 647, 2d17pt TT 3 540 vs TT 4 509, 2d25pt TT 4 589 vs 537; 2d9pt TT 4 1026 vs 1058.
 *
 * PIECES FOR KERNELS OF ONE'S OWN (functions; the macro spellings are one-line wrappers)
 *   ssam_temporal_push(ring, ph, row), ssam_temporal_view(win, ring, ph)
 *       (SSAM_TEMPORAL_PUSH(V, NY, ring, ph, row), SSAM_TEMPORAL_VIEW(V, NY, win, ring, ph))
 *       a window of NY rows as a ring T ring[V][NY] indexed by the phase ph = row mod NY (a constant
 *       in a loop unrolled by NY): push enters a new row, view gives the rows in order as win[V][NY]
 *       (renamings, not moves)
 *   ssam_temporal_level<S, XLO, XHI, YLO>(out, win, coef, keep, colin, fast)
 *       (SSAM_TEMPORAL_LEVEL(T, V, SHAPE, XLO, XHI, YLO, out, win, coef, keep, colin, fast))
 *       out[k] = one stencil step of the window's row -YLO (ssam_stencil2d_row over win[V][NY]), or
 *       that row's own value where keep (a row flag) or bit k of colin is 0 (Dirichlet cells, idle
 *       levels); fast, a warp-uniform flag that keep holds and every lane's colin is full, skips
 *       the selects.  Every lane of the warp must execute it.
 *   SSAM_TEMPORAL_HL(V, XLO, TT), SSAM_TEMPORAL_HR(V, XHI, TT), SSAM_TEMPORAL_STEP(V, XLO, XHI, TT)
 *   The kernel body, ssam__tb2_body<T, S, TT, B>(src, dst, g, L, cf), and its pieces (ssam__tb2_load,
 *   ssam__tb2_levels, ssam__tb2_block, ssam__tb_xload) are internal.
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/temporal.cuh>
 *     SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, SSAM_SHAPE_2D5PT, 8, 128)
 *
 *     ssam_stencil_args a = {};   // ... as for SSAM_STENCIL2D_DEFINE ...
 *     void *u;
 *     int rc = heat8_advance(&a, 1000, &u, stream);    // 125 passes of 8 steps
 *
 * PARAMETERS AND LIMITS
 *   T float or double; TT >= 1 with the windows TT NY V sizeof(T)/4 = 4 TT NY <= 160 32-bit
 *   registers and 32 V - HL - HR >= V; B a multiple of 32 from 32 to 1024; the shape's limits as
 *   ssam/stencil.cuh's (each a compile-time check with a sentence naming the generator, the instance
 *   and the argument; tests/compile-fail/ssam_temporal_*.cu).  Registers: 4 TT NY windows + 4 NY
 *   prefetch + the row piece's (near the budget, wide shapes can spill: check with
 *   tools/check-resources).  No shared memory.  The staged kernel: 4 (TT - 1) NY window registers
 *   <= 160 and SSAM_TEMPORAL_SMEM_BYTES(NY, B) = B/32 2 (NY + 3) 512 bytes of shared memory <= 227 KB
 *   (a compile-time check; sm_75 gives a block 64 KB: more is SSAM_ECUDA at the launch).
 *   Boundaries: SSAM_STENCIL_DIRICHLET (cells whose stencil leaves the domain keep their values, at
 *   every step) and SSAM_STENCIL_PERIODIC (any domain size, indices wrap).  Any nx >= 1 and
 *   1 <= ny <= 65535 * 4096 (more: SSAM_ESIZE).
 *   src and dst must not overlap (SSAM_EOVERLAP); name_advance overwrites both (ping-pong).
 *   Codes: ssam/stencil.cuh's; steps outside 1 .. TT in name_launch is SSAM_ESIZE.
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ the generators emit their kernels only: name_kernel(src, dst, g, int L, cf)
 *   runs L steps (1 <= L <= TT) in one pass (the staged kernel with name_SMEM bytes of dynamic shared
 *   memory); AUTO gives name_onepass_kernel and name_tb_kernel; no
 *   name_launch, name_advance, name_plan (the plan rules of ssam/tbplan.h remain, as macros).
 */
#ifndef SSAM_TEMPORAL_CUH
#define SSAM_TEMPORAL_CUH

#include <onchip/async.cuh>

#include "stencil.cuh"
#include "tbplan.h"

/* the columns lost at each end of a warp's strip after TT levels (whole lanes), and those stored */
#define SSAM_TEMPORAL_HL(V, XLO, TT) (SSAM_STENCIL_QL(V, (XLO) * (TT)) * (V))
#define SSAM_TEMPORAL_HR(V, XHI, TT) (SSAM_STENCIL_QR(V, (XHI) * (TT)) * (V))
#define SSAM_TEMPORAL_STEP(V, XLO, XHI, TT) (32 * (V)-SSAM_TEMPORAL_HL(V, XLO, TT) - SSAM_TEMPORAL_HR(V, XHI, TT))
/* the register budget of the TT windows, in 32-bit registers */
#define SSAM_TEMPORAL_MAXREGS 160

/* ---- lane pieces ----------------------------------------------------------------------------- */
/* A window of NY rows kept as a ring: ring[k][s], the row at offset r (0: the oldest) in slot
 * (ph + r) % NY at phase ph, where the phase counts rows mod NY (a constant in a loop unrolled by
 * NY), so moving the window down is a renaming, not a register move.
 * ssam_temporal_view: the window as rows in order, win[k][r] (copies the compiler renames). */
template <class T, int V, int NY>
static __device__ __forceinline__ void ssam_temporal_view(T (&win)[V][NY], const T (&ring)[V][NY], int ph)
{
#pragma unroll
    for (int k = 0; k < V; k++)
#pragma unroll
        for (int r = 0; r < NY; r++) win[k][r] = ring[k][(ph + r) % NY];
}
#define SSAM_TEMPORAL_VIEW(V, NY, win, ring, ph) ssam_temporal_view(win, ring, ph)
/* row[k] enters the ring as its newest row at phase ph (it overwrites the oldest of phase ph - 1) */
template <class T, int V, int NY>
static __device__ __forceinline__ void ssam_temporal_push(T (&ring)[V][NY], int ph, const T (&row)[V])
{
#pragma unroll
    for (int k = 0; k < V; k++) ring[k][(ph + NY - 1) % NY] = row[k];
}
#define SSAM_TEMPORAL_PUSH(V, NY, ring, ph, row) ssam_temporal_push(ring, ph, row)

/* one step of the window's row -YLO: out[k] is the stencil where keep and colin bit k, else the
 * cell's own value; fast (warp-uniform: keep and every lane's colin full) skips the selects */
template <class S, int XLO, int XHI, int YLO, class T, int V, int NY>
static __device__ __forceinline__ void ssam_temporal_level(T (&out)[V], const T (&win)[V][NY], const T *coef, int keep,
                                                           int colin, int fast)
{
    ssam_stencil2d_row<S, XLO, XHI, YLO>(out, win, 0, coef);
    if (!fast) {
#pragma unroll
        for (int k = 0; k < V; k++) out[k] = (keep && ((colin >> k) & 1)) ? out[k] : win[k][-YLO];
    }
}
#define SSAM_TEMPORAL_LEVEL(T, V, SHAPE, XLO, XHI, YLO, out, win, coef, keep, colin, fast)              \
    ssam_temporal_level<SSAM_SHAPE2D_TYPE(SHAPE), XLO, XHI, YLO>(out, win, coef, keep, colin, fast)

/* ---- the kernel's pieces ----------------------------------------------------------------------- */
/* The column a lane loads its V columns x .. x + V - 1 from, and *in = 1 where one aligned vector
 * load there is legal.  A lane wholly outside the domain loads a whole vector inside it rather than
 * V single elements: periodic, its wrapped columns (when nx is a multiple of V); Dirichlet, any
 * (its cells are never stored, and the cells that read them keep their values).  Without this the
 * warps at the domain's left and right ends take 35% longer than the others, and a grid of one wave
 * waits for them (2d5pt fp32 TT 8 at 8192^2, H200: 1450 -> 1895 GCells/s over 1000 steps). */
static __device__ __forceinline__ int ssam__tb_xload(int x, int nx, int V, int periodic, int vld, int *in)
{
    int xl = x;
    if (vld && (x >= nx || x + V <= 0) && nx >= V && !(periodic && nx % V))
        xl = periodic ? ((x % nx) + nx) % nx : x < 0 ? 0 : (nx - V) / V * V;
    *in = vld && xl >= 0 && xl + V <= nx;
    return xl;
}

/* load input row j (border-mapped: wrap or nearest) into column slot s of q[V][.]: one vector at
 * column x where in, else V elements at the border-mapped columns x .. x + V - 1 (mapped here, not
 * kept in registers: only lanes at a ragged edge take this path).  Not ssam_regcache_rows_as: that
 * piece also serves constant borders (row or column -1), which wrap and nearest never give, and
 * built through it the 2d5pt TT 8 kernel has 33 more branches and 15 more compares. */
template <class T, int V, int NS>
static __device__ __forceinline__ void ssam__tb2_load(T (&q)[V][NS], int s, const T *src, const ssam_stencil_geom g, int j,
                                                      int x, int in, int bmode)
{
    const T *row = src + (long long)ssam_border_index(j, g.ny, bmode) * g.pitch;
    if (in) {
        const ssam_vec<T, V> v = *(const ssam_vec<T, V> *)(row + x);
#pragma unroll
        for (int k = 0; k < V; k++) q[k][s] = v.v[k];
    } else {
#pragma unroll
        for (int k = 0; k < V; k++) q[k][s] = row[ssam_border_index(x + k, g.nx, bmode)];
    }
}

/* After input row j has entered ring 0 at phase ph: levels 1 .. TT of their newest computable rows
 * (level t: row j - t YHI, from the row level t - 1 has just computed; levels above L keep their
 * values), level TT's row stored when it is the segment's.  (Levels made independent within an
 * iteration -- level t from level t - 1's rows of the previous input row -- measure 1-26% slower on
 * the H100: the overlapped levels need up to 90 more registers.)  A level's row y is computed when
 * y + YLO + yoff lies in [0, ylim). */
template <class S, int TT, class T, int V, int NY>
static __device__ __forceinline__ void ssam__tb2_levels(T (&ring)[TT][V][NY], int ph, T (&out)[V], T *dst,
                                                        const ssam_stencil_geom g, const T *cf, int L, int j, int Ys,
                                                        int Ye, int x, int colin, int allin, int yoff, int ylim, int store)
{
#pragma unroll
    for (int t = 1; t <= TT; t++) {
        const int y = j - t * S::yhi;
        const int keep = t <= L && (unsigned)(y + S::ylo + yoff) < (unsigned)ylim;
        T win[V][NY];
        ssam_temporal_view(win, ring[t - 1], ph);
        ssam_temporal_level<S, S::xlo, S::xhi, S::ylo>(out, win, cf, keep, colin, keep && allin);
        if (t < TT) ssam_temporal_push(ring[t], ph, out);
        else if (store && y >= Ys && y < Ye) /* selected already: every cell stores out */
            ssam__stencil_store<T>(dst, 0, (long long)y * g.pitch, x, g.nx, out, out, (1 << V) - 1, 1, g.vst);
    }
}

/* The block's strip group *bx and row segment *by.  The two groups that hold the domain's first and
 * last strips are slower (their lanes select the columns that keep their values), so their blocks,
 * of every segment, come first in the launch order: where the grid is more than one wave, the tail
 * is made of the other, shorter blocks (longest first).  Measured without it (H100, same run):
 * 2d5pt fp32 TT 8 4 % slower at 8192^2, 3 % at 16384^2, the 3 x 3 box 7 % and 4 %. */
static __device__ __forceinline__ void ssam__tb2_block(int *bx, int *by)
{
    const long long gx = gridDim.x, gy = gridDim.y, l = blockIdx.x + gx * blockIdx.y;
    if (gx <= 2) {
        *bx = (int)blockIdx.x;
        *by = (int)blockIdx.y;
    } else if (l < 2 * gy) {
        *by = (int)(l >> 1);
        *bx = (l & 1) ? (int)gx - 1 : 0;
    } else {
        *by = (int)((l - 2 * gy) / (gx - 2));
        *bx = (int)(1 + (l - 2 * gy) % (gx - 2));
    }
}

/* The kernel body.  Warp w of the grid's strip index owns output columns [X0, X0 + STEP) and the
 * rows [Ys, Ye) of segment by; it streams input rows j0 = Ys + TT YLO .. j1 - 1 = Ye - 1 + TT YHI
 * through TT rings of NY rows, the loop unrolled by NY (phase ph = (j - j0) % NY); the input rows
 * are prefetched NY rows ahead into a ring of their own (pf).  L: the steps of this pass (<= TT). */
template <class T, class S, int TT, int B>
static __device__ __forceinline__ void ssam__tb2_body(const T *src, T *dst, const ssam_stencil_geom g, int L, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, V = SSAM_STENCIL_V(T), NY = YHI - YLO + 1,
        HL = SSAM_TEMPORAL_HL(V, XLO, TT), HR = SSAM_TEMPORAL_HR(V, XHI, TT), STEP = 32 * V - HL - HR
    };
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int lane = threadIdx.x & 31;
    int bx, by;
    ssam__tb2_block(&bx, &by);
    const long long X0l = ((long long)bx * (B / 32) + (threadIdx.x >> 5)) * STEP;
    if (X0l >= g.nx) return; /* whole warps only: the shuffles need every lane */
    const int X0 = (int)X0l;
    const int x = X0 - HL + V * lane;
    const int store = lane >= HL / V && lane < 32 - HR / V && x < g.nx;
    const int Ys = by * g.seg, Ye = min(Ys + g.seg, g.ny);
    const int j0 = Ys + TT * YLO, j1 = Ye + TT * YHI; /* input rows [j0, j1) */
    int colin = 0;
    T ring[TT][V][NY], pf[V][NY], out[V];
    int in;
    /* xl: the columns loaded, x itself wherever the lane stores (x then lies in the domain) */
    const int xl = ssam__tb_xload(x, g.nx, V, g.periodic, g.vld, &in);
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    const int allin = __all_sync(0xffffffffu, colin == (1 << V) - 1);
    /* a level's row y is computed when y + YLO + yoff lies in [0, ylim): Dirichlet y + YLO in
     * [0, ny - (YHI - YLO)), periodic any y (|y| < 2^30) */
    const int yoff = g.periodic ? 0x40000000 : 0;
    const int ylim = g.periodic ? 0x7fffffff : max(g.ny - (YHI - YLO), 0);
#pragma unroll
    for (int t = 0; t < TT; t++) /* rows before j0: never stored, kept finite */
#pragma unroll
        for (int k = 0; k < V; k++)
#pragma unroll
            for (int r = 0; r < NY; r++) ring[t][k][r] = (T)0;
#pragma unroll
    for (int s = 0; s < NY; s++) ssam__tb2_load(pf, s, src, g, j0 + s, xl, in, bmode);
#pragma unroll 1
    for (int jb = j0; jb < j1; jb += NY) {
#pragma unroll
        for (int ph = 0; ph < NY; ph++) {
            const int j = jb + ph;
            if (j >= j1) break;
#pragma unroll
            for (int k = 0; k < V; k++) out[k] = pf[k][ph];
            ssam_temporal_push(ring[0], ph, out);
            if (j + NY < j1) ssam__tb2_load(pf, ph, src, g, j + NY, xl, in, bmode);
            ssam__tb2_levels<S, TT>(ring, ph, out, dst, g, cf, L, j, Ys, Ye, xl, colin, allin, yoff, ylim, store);
        }
    }
}

/* ---- the staged variant: the input rows in shared memory ---------------------------------------- */
/* rows of input a lane has in flight (cp.async) ahead of the row it computes from */
#define SSAM_TEMPORAL_AHEAD 3
/* the dynamic shared memory of the staged kernel: per warp 2 (NY + AHEAD) rows of 32 lanes x 16 bytes */
#define SSAM_TEMPORAL_SMEM_BYTES(NY, B) ((B) / 32 * 2 * ((NY) + SSAM_TEMPORAL_AHEAD) * 32 * 16)

/* input row j (border-mapped) into the lane's slot q0 and its copy q1: one 16-byte cp.async each
 * where in, else V elements at the border-mapped columns (ssam__tb2_load), stored */
template <class T, int V>
static __device__ __forceinline__ void ssam__tb2s_load(ssam_vec<T, V> *q0, ssam_vec<T, V> *q1, const T *src,
                                                       const ssam_stencil_geom g, int j, int x, int in, int bmode)
{
    if (in) {
        const T *row = src + (long long)ssam_border_index(j, g.ny, bmode) * g.pitch;
        onchip_cp_async16(q0, row + x);
        onchip_cp_async16(q1, row + x);
    } else { /* ssam__tb2_load's element path, stored */
        T e[V][1];
        ssam_vec<T, V> v;
        ssam__tb2_load(e, 0, src, g, j, x, 0, bmode);
#pragma unroll
        for (int k = 0; k < V; k++) v.v[k] = e[k][0];
        *q0 = v;
        *q1 = v;
    }
}

/* The staged body: ssam__tb2_body with level 0's window (the input rows) in shared memory instead of
 * registers.  Each lane keeps its own 16 bytes of a row (no barrier, no bank conflict: a warp's row
 * is 512 contiguous bytes) in a ring of R0 = NY + AHEAD slots, each row written twice (slots s and
 * s + R0), so the window of rows j - NY + 1 .. j is the NY slots from sb on, in order, whatever sb.
 * Row j + AHEAD is copied (cp.async, one group a row) into the slot of row j - NY once level 1 of row
 * j has read its window.  The registers this frees (2 NY V: the input window and the prefetch ring)
 * buy occupancy where the windows of wide shapes fill the register file.  Levels 1 .. TT - 1 keep
 * their register rings; the arithmetic is ssam__tb2_body's, bit for bit. */
template <class T, class S, int TT, int B>
static __device__ __forceinline__ void ssam__tb2s_body(const T *src, T *dst, const ssam_stencil_geom g, int L, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, V = SSAM_STENCIL_V(T), NY = YHI - YLO + 1,
        HL = SSAM_TEMPORAL_HL(V, XLO, TT), HR = SSAM_TEMPORAL_HR(V, XHI, TT), STEP = 32 * V - HL - HR,
        D = SSAM_TEMPORAL_AHEAD, R0 = NY + D, NR = TT > 1 ? TT - 1 : 1
    };
    typedef ssam_vec<T, V> vec;
    extern __shared__ __align__(16) unsigned char ssam__tb2s_smem[];
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int lane = threadIdx.x & 31;
    vec *const q = (vec *)ssam__tb2s_smem + (threadIdx.x >> 5) * (2 * R0 * 32) + lane; /* slot s: q[32 s] */
    int bx, by;
    ssam__tb2_block(&bx, &by);
    const long long X0l = ((long long)bx * (B / 32) + (threadIdx.x >> 5)) * STEP;
    if (X0l >= g.nx) return; /* whole warps only: the shuffles need every lane */
    const int X0 = (int)X0l;
    const int x = X0 - HL + V * lane;
    const int store = lane >= HL / V && lane < 32 - HR / V && x < g.nx;
    const int Ys = by * g.seg, Ye = min(Ys + g.seg, g.ny);
    const int j0 = Ys + TT * YLO, j1 = Ye + TT * YHI; /* input rows [j0, j1) */
    int colin = 0, in;
    T ring[NR][V][NY], out[V];
    const int xl = ssam__tb_xload(x, g.nx, V, g.periodic, g.vld, &in);
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    const int allin = __all_sync(0xffffffffu, colin == (1 << V) - 1);
    const int yoff = g.periodic ? 0x40000000 : 0;
    const int ylim = g.periodic ? 0x7fffffff : max(g.ny - (YHI - YLO), 0);
    { /* rows before j0 (never stored) read as 0, as ssam__tb2_body's rings */
        vec z;
#pragma unroll
        for (int k = 0; k < V; k++) z.v[k] = (T)0;
#pragma unroll
        for (int s = D; s < R0; s++) q[32 * s] = q[32 * (s + R0)] = z;
#pragma unroll
        for (int t = 0; t < NR; t++)
#pragma unroll
            for (int k = 0; k < V; k++)
#pragma unroll
                for (int r = 0; r < NY; r++) ring[t][k][r] = (T)0;
    }
#pragma unroll
    for (int s = 0; s < D; s++) { /* rows j0 .. j0 + D - 1 into slots 0 .. D - 1 */
        if (j0 + s < j1) ssam__tb2s_load(q + 32 * s, q + 32 * (s + R0), src, g, j0 + s, xl, in, bmode);
        onchip_cp_async_commit();
    }
    int sb = (R0 - NY + 1) % R0; /* the slot of row j - NY + 1, the oldest of level 0's window at row j */
#pragma unroll 1
    for (int jb = j0; jb < j1; jb += NY) {
#pragma unroll
        for (int ph = 0; ph < NY; ph++) {
            const int j = jb + ph;
            if (j >= j1) break;
            onchip_cp_async_wait<D - 1>(); /* row j's group is in */
#pragma unroll
            for (int t = 1; t <= TT; t++) {
                const int y = j - t * YHI;
                const int keep = t <= L && (unsigned)(y + YLO + yoff) < (unsigned)ylim;
                T win[V][NY];
                if (t == 1) {
#pragma unroll
                    for (int r = 0; r < NY; r++) {
                        const vec v = q[32 * (sb + r)];
#pragma unroll
                        for (int k = 0; k < V; k++) win[k][r] = v.v[k];
                    }
                } else
                    ssam_temporal_view(win, ring[t > 1 ? t - 2 : 0], ph);
                ssam_temporal_level<S, XLO, XHI, YLO>(out, win, cf, keep, colin, keep && allin);
                if (t == 1) { /* row j + D into the slot of row j - NY: (sb - 1) mod R0 */
                    const int s = sb == 0 ? R0 - 1 : sb - 1;
                    if (j + D < j1) ssam__tb2s_load(q + 32 * s, q + 32 * (s + R0), src, g, j + D, xl, in, bmode);
                    onchip_cp_async_commit();
                }
                if (t < TT) ssam_temporal_push(ring[t - 1], ph, out);
                else if (store && y >= Ys && y < Ye)
                    ssam__stencil_store<T>(dst, 0, (long long)y * g.pitch, xl, g.nx, out, out, (1 << V) - 1, 1, g.vst);
            }
            sb = sb + 1 == R0 ? 0 : sb + 1;
        }
    }
}

/* ---- host side and the generators --------------------------------------------------------------- */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the launchers' view of a temporal kernel: 2D segments that stream TT (YHI - YLO) extra rows */
template <class T, class S, int TT, int B>
static inline ssam__stencil_kern ssam__tb2_kern(const void *fn, int *occ)
{
    enum { V = SSAM_STENCIL_V(T) };
    const ssam__stencil_kern k = {fn, occ, 2, S::ncoef, S::npts, V, SSAM_TEMPORAL_STEP(V, S::xlo, S::xhi, TT), B, 1, 0,
                                  1, 1, TT * (S::yhi - S::ylo), sizeof(T), sizeof(T), 0, 0, 0};
    return k;
}
/* name_launch of the temporal kernels: 1 <= steps <= TT; on 0: no kernel (SSAM_ESIZE) */
static inline int ssam__temporal_launch(const ssam_stencil_args *a, int steps, cudaStream_t stream,
                                        const ssam__stencil_kern *k, void *cf, int TT, int on)
{
    if (steps < 1 || steps > TT || !on) return a ? SSAM_ESIZE : SSAM_ENULL;
    return ssam__stencil_launch(a, stream, k, cf, &steps);
}
/* name_advance: steps in passes of TT (the last one shorter), ping-pong as ssam/stencil.cuh's */
#define SSAM__TB2_ADVANCE(name, TT)                                                                     \
    static inline __attribute__((unused)) int name##_advance(const ssam_stencil_args *a, int steps,     \
                                                             void **result, cudaStream_t stream)        \
    {                                                                                                   \
        return ssam__stencil_advance_tt(a, steps, result, stream, TT, name##_launch);                   \
    }
/* name_launch, name_advance (SSAM__TB2_HOST) and AUTO's name_plan, name_advance (SSAM__TB2_AUTO_HOST):
 * host code, left out under NVRTC, where the generators emit their kernels only */
#define SSAM__TB2_HOST(name, T, TT, B, ON)                                                              \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, int steps, cudaStream_t stream) \
    {                                                                                                   \
        static int occ[2] = {0, 0}; /* resident blocks per SM, asked once per device */                 \
        name##_coef cf;                                                                                 \
        ssam__stencil_kern k = ssam__tb2_kern<T, name##_shape, TT, B>((const void *)name##_kernel, occ); \
        k.occ_smem = k.smem0 = (size_t)name##_SMEM;                                                     \
        return ssam__temporal_launch(a, steps, stream, &k, &cf, TT, ON);                                \
    }                                                                                                   \
    SSAM__TB2_ADVANCE(name, TT)
#define SSAM__TB2_AUTO_HOST(name)                                                                       \
    static inline __attribute__((unused)) int name##_plan(const ssam_stencil_args *a, int steps, ssam_tb_plan *p) \
    {                                                                                                   \
        if (!a || !p) return SSAM_ENULL;                                                                \
        return (name##_tb_SMEM ? ssam_tb_smem_plan_make(p, name##_tb_TT, steps, a->nx, a->ny)          \
                               : ssam_tb_plan_make(p, name##_tb_TT, steps))                             \
                   ? SSAM_ESIZE                                                                         \
                   : SSAM_SUCCESS;                                                                      \
    }                                                                                                   \
    static inline __attribute__((unused)) int name##_advance(const ssam_stencil_args *a, int steps,     \
                                                             void **result, cudaStream_t stream)        \
    {                                                                                                   \
        ssam_tb_plan p;                                                                                 \
        if (name##_plan(a, steps < 0 ? 0 : steps, &p) == SSAM_ENULL) return SSAM_ENULL;                 \
        return p.path == SSAM_TB_TEMPORAL ? name##_tb_advance(a, steps, result, stream)                 \
                                          : name##_onepass_advance(a, steps, result, stream);           \
    }
#else
#define SSAM__TB2_HOST(name, T, TT, B, ON)
#define SSAM__TB2_AUTO_HOST(name)
#endif /* !__CUDACC_RTC__ */

#define SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, TT, B)                                           \
    SSAM__STENCIL2D_TEMPORAL_GEN(name, "SSAM_STENCIL2D_TEMPORAL_DEFINE(" #name ")", T, SHAPE, TT, B, 1, 1, 0)
/* MINB blocks per SM (__launch_bounds__(B, MINB)) */
#define SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(name, T, SHAPE, TT, B, MINB)                                 \
    SSAM__STENCIL2D_TEMPORAL_GEN(name, "SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(" #name ")", T, SHAPE, TT, B, MINB, 1, 0)
/* the staged kernel: the input rows in shared memory (ssam__tb2s_body) */
#define SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM(name, T, SHAPE, TT, B)                                      \
    SSAM__STENCIL2D_TEMPORAL_GEN(name, "SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM(" #name ")", T, SHAPE, TT, B, 1, 1, 1)
/* WHO the sentences' subject; ON 0: no kernel (an empty one; name_launch refuses with SSAM_ESIZE),
 * the AUTO case of one pass per step; SM 1: the staged body (level 0's window in shared memory) */
#define SSAM__STENCIL2D_TEMPORAL_GEN(name, WHO, T, SHAPE, TT, B, MINB, ON, SM)                          \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    enum { name##_TT = (TT), name##_STEP = SSAM_TEMPORAL_STEP(SSAM_STENCIL_V(T), name##_XLO, name##_XHI, TT), \
           name##_SMEM = (SM) ? SSAM_TEMPORAL_SMEM_BYTES(name##_YHI - name##_YLO + 1, B) : 0 };         \
    static_assert((TT) >= 1, WHO ": TT (steps per pass) must be at least 1");                           \
    static_assert((SSAM__TB_TT(TT) - (SM)) * (name##_YHI - name##_YLO + 1) * SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) <= \
                      SSAM_TEMPORAL_MAXREGS, WHO ": the TT windows of NY rows exceed 160 registers; lower TT"); \
    static_assert(name##_STEP >= SSAM_STENCIL_V(T),                                                     \
                  WHO ": TT times the x radius leaves no column of the warp to store; lower TT");       \
    static_assert((B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX,                    \
                  WHO ": B must be a multiple of 32 from 32 to 1024");                                  \
    static_assert(name##_SMEM <= ONCHIP_SMEM_OPTIN_MAX, WHO ": the staged input rows, 2 (NY + 3) rows of 512 bytes a warp, " \
                                             "exceed 227 KB of shared memory; lower B");                \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, int L, name##_coef cf) \
    {                                                                                                   \
        if constexpr (!(ON)) {                                                                          \
        } else if constexpr ((SM) != 0)                                                                 \
            ssam__tb2s_body<T, name##_shape, SSAM__TB_TT(TT), B>(src, dst, g, L, cf.c);                 \
        else                                                                                            \
            ssam__tb2_body<T, name##_shape, SSAM__TB_TT(TT), B>(src, dst, g, L, cf.c);                  \
    }                                                                                                   \
    SSAM__TB2_HOST(name, T, TT, B, ON)
/* TT as the bodies take it: at least 1 (TT < 1 is refused by a sentence, not by the body) */
#define SSAM__TB_TT(TT) ((TT) >= 1 ? (TT) : 1)

/* ---- AUTO: the planner picks temporal blocking or one pass per step at run time ---------------- */
/* the one-pass kernel's rows per lane: 8 for shapes of up to 5 rows (3 in fp64), 4 beyond */
#define SSAM__TB_ONEPASS_P(T, NY) (((NY) <= 3 || (sizeof(T) == 4 && (NY) <= 5)) ? 8 : 4)
#define SSAM__TB_AUTO_SM(T, one) SSAM_TB_SMEM_RULE(sizeof(T), one##_XHI - one##_XLO + 1, one##_YHI - one##_YLO + 1, one##_NPTS)
#define SSAM__TB_AUTO_TT(T, one)                                                                        \
    (SSAM__TB_AUTO_SM(T, one) ? SSAM_TB_SMEM_TT_RULE(sizeof(T), one##_YHI - one##_YLO + 1)              \
                              : SSAM_TB_TT_RULE(sizeof(T), one##_XHI - one##_XLO + 1, one##_YHI - one##_YLO + 1, one##_NPTS))
/* SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(name, T, SHAPE, B): name_onepass_* (SSAM_STENCIL2D_DEFINE) and
 * name_tb_* (SSAM_STENCIL2D_TEMPORAL_DEFINE with TT = SSAM_TB_TT_RULE; where the rule says 1, an empty
 * kernel that name_tb_launch refuses with SSAM_ESIZE), and
 *   int name_plan(const ssam_stencil_args *a, int steps, ssam_tb_plan *p)   the path and why
 *   int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 * name_advance runs the planned path; its result equals the one-pass kernel's bit for bit
 * (periodic widths not a multiple of V: within rounding, see HOW in the usage block). */
#define SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(name, T, SHAPE, B)                                          \
    SSAM__STENCIL2D_GEN(name##_onepass, "SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(" #name ")", T, T, SHAPE,  \
                        SSAM__TB_ONEPASS_P(T, SSAM_SHAPE2D_YHI(SHAPE) - SSAM_SHAPE2D_YLO(SHAPE) + 1), 128, 1, \
                        SSAM__STENCIL_GHM_DEFAULT(T, name##_onepass_XLO, name##_onepass_XHI), -1)       \
    SSAM__STENCIL2D_TEMPORAL_GEN(name##_tb, "SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(" #name ")",           \
                                 typename ssam__stencil_real<T>::type, SHAPE,                           \
                                 SSAM__TB_AUTO_TT(T, name##_onepass), B, 1, SSAM__TB_AUTO_TT(T, name##_onepass) >= 2, \
                                 SSAM__TB_AUTO_SM(T, name##_onepass))                                   \
    SSAM__TB2_AUTO_HOST(name)

#endif /* SSAM_TEMPORAL_CUH */
#include <onchip/names_pop.h>
