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
 *   SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(name, T, SHAPE, B): the planner's choice (ssam/tbplan.h):
 *       name_onepass_* (SSAM_STENCIL2D_DEFINE, 128 threads, its own rows per lane) and name_tb_*
 *       (TT = SSAM_TB_TT_RULE of the shape), plus
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
 *
 * PIECES FOR KERNELS OF ONE'S OWN
 *   SSAM_TEMPORAL_PUSH(V, NY, ring, ph, row), SSAM_TEMPORAL_VIEW(V, NY, win, ring, ph)
 *       a window of NY rows as a ring T ring[V][NY] indexed by the phase ph = row mod NY (a constant
 *       in a loop unrolled by NY): PUSH enters a new row, VIEW gives the rows in order as win[V][NY]
 *       (renamings, not moves)
 *   SSAM_TEMPORAL_LEVEL(T, V, SHAPE, XLO, XHI, YLO, out, win, coef, keep, colin, fast)
 *       out[k] = one stencil step of the window's row -YLO (SSAM_STENCIL2D_ROW over win[V][NY]), or
 *       that row's own value where keep (a row flag) or bit k of colin is 0 (Dirichlet cells, idle
 *       levels); fast, a warp-uniform flag that keep holds and every lane's colin is full, skips
 *       the selects.  Every lane of the warp must execute it.
 *   SSAM_TEMPORAL_HL(V, XLO, TT), SSAM_TEMPORAL_HR(V, XHI, TT), SSAM_TEMPORAL_STEP(V, XLO, XHI, TT)
 *
 * EXAMPLE
 *     #include <ssam/temporal.cuh>
 *     SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, SSAM_SHAPE_2D5PT, 8, 128)
 *     ssam_stencil_args a = {0};   ... as for SSAM_STENCIL2D_DEFINE ...
 *     void *u;
 *     int rc = heat8_advance(&a, 1000, &u, stream);    // 125 passes of 8 steps
 *
 * PARAMETERS AND LIMITS
 *   T float or double; TT >= 1 with the windows TT NY V sizeof(T)/4 = 4 TT NY <= 160 32-bit
 *   registers and 32 V - HL - HR >= V (compile-time checks with a sentence); B a multiple of 32 up
 *   to 1024.  Registers: 4 TT NY windows + 4 NY prefetch + the row piece's (near the budget, wide
 *   shapes can spill: check with tools/check-resources).  No shared memory.
 *   Boundaries: SSAM_STENCIL_DIRICHLET (cells whose stencil leaves the domain keep their values, at
 *   every step) and SSAM_STENCIL_PERIODIC (any domain size, indices wrap).  Any nx >= 1 and
 *   1 <= ny <= 65535 * 4096 (more: SSAM_ESIZE).
 *   src and dst must not overlap (SSAM_EOVERLAP); name_advance overwrites both (ping-pong).
 *   Codes: ssam/stencil.cuh's; steps outside 1 .. TT in name_launch is SSAM_ESIZE.
 */
#ifndef SSAM_TEMPORAL_CUH
#define SSAM_TEMPORAL_CUH

#include "stencil.cuh"
#include "tbplan.h"

/* the columns lost at each end of a warp's strip after TT levels (whole lanes), and those stored */
#define SSAM_TEMPORAL_HL(V, XLO, TT) (SSAM_STENCIL_QL(V, (XLO) * (TT)) * (V))
#define SSAM_TEMPORAL_HR(V, XHI, TT) (SSAM_STENCIL_QR(V, (XHI) * (TT)) * (V))
#define SSAM_TEMPORAL_STEP(V, XLO, XHI, TT) (32 * (V)-SSAM_TEMPORAL_HL(V, XLO, TT) - SSAM_TEMPORAL_HR(V, XHI, TT))
/* the register budget of the TT windows, in 32-bit registers */
#define SSAM_TEMPORAL_MAXREGS 160

/* A window of NY rows kept as a ring: ring[k][s], the row at offset r (0: the oldest) in slot
 * (ph + r) % NY at phase ph, where the phase counts rows mod NY (a constant in a loop unrolled by
 * NY), so moving the window down is a renaming, not a register move.
 * SSAM_TEMPORAL_VIEW: the window as rows in order, win[k][r] (copies the compiler renames). */
#define SSAM_TEMPORAL_VIEW(V, NY, win, ring, ph)                                                            \
    _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)                                       \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NY); ssam__r++)                                  \
            (win)[ssam__k][ssam__r] = (ring)[ssam__k][((ph) + ssam__r) % (NY)]
/* row[k] enters the ring as its newest row at phase ph (it overwrites the oldest of phase ph - 1) */
#define SSAM_TEMPORAL_PUSH(V, NY, ring, ph, row)                                                            \
    _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)                                       \
        (ring)[ssam__k][((ph) + (NY)-1) % (NY)] = (row)[ssam__k]

/* one step of the window's row -YLO: out[k] is the stencil where keep and colin bit k, else the
 * cell's own value; fast (warp-uniform: keep and every lane's colin full) skips the selects */
#define SSAM_TEMPORAL_LEVEL(T, V, SHAPE, XLO, XHI, YLO, out, win, coef, keep, colin, fast)                  \
    do {                                                                                                    \
        SSAM_STENCIL2D_ROW(T, V, SHAPE, XLO, XHI, YLO, out, win, 0, coef);                                  \
        if (!(fast))                                                                                        \
            _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)(out)[ssam__k] =              \
                ((keep) && (((colin) >> ssam__k) & 1)) ? (out)[ssam__k] : (win)[ssam__k][-(YLO)];           \
    } while (0)

/* The column a lane loads its V columns x .. x + V - 1 from, and *in = 1 where one aligned vector
 * load there is legal.  A lane wholly outside the domain loads a whole vector inside it rather than
 * V single elements: periodic, its wrapped columns (when nx is a multiple of V); Dirichlet, any
 * (its cells are never stored, and the cells that read them keep their values).  Without this the
 * warps at the domain's left and right ends took 35% longer than the others, and a grid of one wave
 * waited for them (2d5pt fp32 TT 8 at 8192^2, H200: 1450 -> 1895 GCells/s over 1000 steps). */
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
 * kept in registers: only lanes at a ragged edge take this path).  Not SSAM_REGCACHE_ROWS: that
 * piece also serves constant borders (row or column -1), which wrap and nearest never give, and
 * built through it the 2d5pt TT 8 kernel had 33 more branches and 15 more compares. */
#define SSAM__TB2_LOAD(T, V, q, s, src, g, j, x, in, bmode)                                                 \
    do {                                                                                                    \
        typedef SSAM__VEC(T, V) ssam__vec_t;                                                                \
        const T *ssam__row = (src) + (long long)ssam_border_index((j), (g).ny, (bmode)) * (g).pitch;        \
        if (in) {                                                                                           \
            const ssam__vec_t ssam__q = *(const ssam__vec_t *)(ssam__row + (x));                            \
            _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)(q)[ssam__k][s] = ssam__q.v[ssam__k]; \
        } else                                                                                              \
            _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)(q)[ssam__k][s] =              \
                ssam__row[ssam_border_index((x) + ssam__k, (g).nx, (bmode))];                               \
    } while (0)

/* After input row j has entered ring 0 at phase ph: levels 1 .. TT of their newest computable rows
 * (level t: row j - t YHI, from the row level t - 1 has just computed; levels above L keep their
 * values), level TT's row stored when it is the segment's.  (Levels made independent within an
 * iteration -- level t from level t - 1's rows of the previous input row -- were measured 1-26%
 * slower on the H100: the overlapped levels need up to 90 more registers.) */
#define SSAM__TB2_LEVELS(T, V, SHAPE, XLO, XHI, YLO, YHI, NY, TT, ring, ph, out, dst, g, cf, L, j, Ys, Ye, x, colin, allin, yoff, ylim, store) \
    do {                                                                                                    \
        _Pragma("unroll") for (int t = 1; t <= (TT); t++) {                                                 \
            const int y = (j)-t * (YHI);                                                                    \
            const int keep = t <= (L) && (unsigned)(y + (YLO) + (yoff)) < (unsigned)(ylim);                 \
            T win[V][NY];                                                                                   \
            SSAM_TEMPORAL_VIEW(V, NY, win, ring[t - 1], ph);                                                \
            SSAM_TEMPORAL_LEVEL(T, V, SHAPE, XLO, XHI, YLO, out, win, cf, keep, colin, keep && (allin));    \
            if (t < (TT)) SSAM_TEMPORAL_PUSH(V, NY, ring[t], ph, out);                                      \
            else if ((store) && y >= (Ys) && y < (Ye)) /* selected already: every cell stores out */        \
                SSAM__STENCIL_STORE(T, V, (dst) + (long long)y * (g).pitch, x, (g).nx, out, out, (1 << (V)) - 1, 1, \
                                    (g).vst);                                                               \
        }                                                                                                   \
    } while (0)

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
 * rows [Ys, Ye) of segment blockIdx.y; it streams input rows j0 = Ys + TT YLO .. j1 - 1 = Ye - 1 + TT YHI
 * through TT rings of NY rows, the loop unrolled by NY (phase
 * ph = (j - j0) % NY); the input rows are prefetched NY rows ahead into a ring of their own (pf). */
#define SSAM__TB2_BODY(T, SHAPE, XLO, XHI, YLO, YHI, TT, B, src, dst, g, L, cf)                             \
    do {                                                                                                    \
        enum {                                                                                              \
            V = SSAM_STENCIL_V(T), NY = (YHI) - (YLO) + 1, HL = SSAM_TEMPORAL_HL(V, XLO, TT),               \
            HR = SSAM_TEMPORAL_HR(V, XHI, TT), STEP = 32 * V - HL - HR                                      \
        };                                                                                                  \
        const int bmode = (g).periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;                            \
        const int lane = threadIdx.x & 31;                                                                  \
        int bx, by;                                                                                         \
        ssam__tb2_block(&bx, &by);                                                                          \
        const long long X0l = ((long long)bx * ((B) / 32) + (threadIdx.x >> 5)) * STEP;                     \
        if (X0l >= (g).nx) return; /* whole warps only: the shuffles need every lane */                    \
        const int X0 = (int)X0l;                                                                            \
        const int x = X0 - HL + V * lane;                                                                   \
        const int store = lane >= HL / V && lane < 32 - HR / V && x < (g).nx;                               \
        const int Ys = by * (g).seg, Ye = min(Ys + (g).seg, (g).ny);                                        \
        const int j0 = Ys + (TT) * (YLO), j1 = Ye + (TT) * (YHI); /* input rows [j0, j1) */                 \
        int colin = 0;                                                                                      \
        T ring[TT][V][NY], pf[V][NY], out[V];                                                               \
        int in;                                                                                             \
        /* xl: the columns loaded, x itself wherever the lane stores (x then lies in the domain) */      \
        const int xl = ssam__tb_xload(x, (g).nx, V, (g).periodic, (g).vld, &in);                            \
        _Pragma("unroll") for (int k = 0; k < V; k++) colin |=                                              \
            ((g).periodic || (x + k + (XLO) >= 0 && x + k + (XHI) < (g).nx)) << k;                          \
        const int allin = __all_sync(0xffffffffu, colin == (1 << V) - 1);                                   \
        /* a level's row y is computed when y + YLO + yoff lies in [0, ylim): Dirichlet y + YLO in       \
         * [0, ny - (YHI - YLO)), periodic any y (|y| < 2^30) */                                         \
        const int yoff = (g).periodic ? 0x40000000 : 0;                                                     \
        const int ylim = (g).periodic ? 0x7fffffff : max((g).ny - ((YHI) - (YLO)), 0);                     \
        _Pragma("unroll") for (int t = 0; t < (TT); t++) /* rows before j0: never stored, kept finite */    \
            _Pragma("unroll") for (int k = 0; k < V; k++) _Pragma("unroll") for (int r = 0; r < NY; r++) ring[t][k][r] = (T)0; \
        _Pragma("unroll") for (int s = 0; s < NY; s++) SSAM__TB2_LOAD(T, V, pf, s, src, g, j0 + s, xl, in, bmode); \
        _Pragma("unroll 1") for (int jb = j0; jb < j1; jb += NY) {                                          \
            _Pragma("unroll") for (int ph = 0; ph < NY; ph++) {                                             \
                const int j = jb + ph;                                                                      \
                if (j >= j1) break;                                                                         \
                _Pragma("unroll") for (int k = 0; k < V; k++) out[k] = pf[k][ph];                           \
                SSAM_TEMPORAL_PUSH(V, NY, ring[0], ph, out);                                                \
                if (j + NY < j1) SSAM__TB2_LOAD(T, V, pf, ph, src, g, j + NY, xl, in, bmode);            \
                SSAM__TB2_LEVELS(T, V, SHAPE, XLO, XHI, YLO, YHI, NY, TT, ring, ph, out, dst, g, cf, L, j, Ys, Ye, xl, colin, \
                                 allin, yoff, ylim, store);                                                 \
            }                                                                                               \
        }                                                                                                   \
    } while (0)

/* ---- the generator --------------------------------------------------------------------------- */
/* ON 0: an empty kernel (AUTO builds none when the rule says one pass per step) */
#define SSAM__TB2_KERNEL(name, T, SHAPE, TT, B, MINB, ON)                                                   \
    __global__ void __launch_bounds__(B, MINB)                                                               \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, int L, name##_coef cf) \
    {                                                                                                       \
        enum { ssam__npts = name##_NPTS };                                                                  \
        (void)sizeof(char[(0 SHAPE(SSAM__IBAD2)) ? -1 : 1]); /* every I in [0, NPTS) */                     \
        if (ON) SSAM__TB2_BODY(T, SHAPE, name##_XLO, name##_XHI, name##_YLO, name##_YHI, TT, B, src, dst, g, L, cf.c); \
    }

#define SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, TT, B) SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(name, T, SHAPE, TT, B, 1)
/* MINB blocks per SM (__launch_bounds__(B, MINB)) */
#define SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(name, T, SHAPE, TT, B, MINB)                                     \
    SSAM__STENCIL2D_TEMPORAL_DEFINE_X(name, T, SHAPE, TT, B, MINB, 1)
/* ON 0: no kernel (name_launch refuses with SSAM_ESIZE); SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE's case */
#define SSAM__STENCIL2D_TEMPORAL_DEFINE_X(name, T, SHAPE, TT, B, MINB, ON)                                  \
    SSAM__STENCIL2D_COMMON(name, T, SHAPE)                                                                  \
    enum {                                                                                                  \
        name##_TT = (TT),                                                                                   \
        name##_STEP = SSAM_TEMPORAL_STEP(SSAM_STENCIL_V(T), name##_XLO, name##_XHI, TT)                     \
    };                                                                                                      \
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "SSAM_STENCIL2D_TEMPORAL_DEFINE: T must be float or double"); \
    static_assert((TT) >= 1, "SSAM_STENCIL2D_TEMPORAL_DEFINE: TT (steps per pass) must be at least 1");     \
    static_assert((TT) * (name##_YHI - name##_YLO + 1) * SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) <=        \
                      SSAM_TEMPORAL_MAXREGS,                                                                \
                  "SSAM_STENCIL2D_TEMPORAL_DEFINE: the TT windows of NY rows exceed 160 registers; lower TT"); \
    static_assert(name##_STEP >= SSAM_STENCIL_V(T),                                                         \
                  "SSAM_STENCIL2D_TEMPORAL_DEFINE: TT times the x radius leaves no column of the warp to store; lower TT"); \
    static_assert((B) % 32 == 0 && (B) > 0 && (B) <= 1024,                                                  \
                  "SSAM_STENCIL2D_TEMPORAL_DEFINE: B must be a multiple of 32 up to 1024");                \
    SSAM__TB2_KERNEL(name, T, SHAPE, TT, B, MINB, ON)                                                       \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, int steps,         \
                                                            cudaStream_t stream)                            \
    {                                                                                                       \
        ssam_stencil_geom g;                                                                                \
        name##_coef cf;                                                                                     \
        dim3 grid;                                                                                          \
        static int occ[2] = {0, 0};                                                                         \
        int rc;                                                                                             \
        if (steps < 1 || steps > (TT) || !(ON)) return a ? SSAM_ESIZE : SSAM_ENULL;                         \
        rc = ssam__stencil_prepare(a, 2, name##_ncoef(), sizeof(T), SSAM_STENCIL_V(T), name##_STEP, B, 1, 0, 1, \
                                   &g, &grid, (const void *)name##_kernel, occ, 0, 1, (TT) * (name##_YHI - name##_YLO)); \
        if (rc) return rc;                                                                                  \
        SSAM__STENCIL_COEF(T, name##_NPTS, cf, a);                                                          \
        name##_kernel<<<grid, B, 0, stream>>>((const T *)a->src, (T *)a->dst, g, steps, cf);               \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                            \
    }                                                                                                       \
    SSAM__TB2_ADVANCE(name, TT)

/* steps in passes of TT (the last one shorter), ping-pong as ssam/stencil.cuh's name_advance */
#define SSAM__TB2_ADVANCE(name, TT)                                                                         \
    static inline __attribute__((unused)) int name##_advance(const ssam_stencil_args *a, int steps,        \
                                                             void **result, cudaStream_t stream)            \
    {                                                                                                       \
        ssam_stencil_args b;                                                                                \
        int rc, pass = 0;                                                                                   \
        if (!a || !result || !a->src || !a->dst || !a->coef) return SSAM_ENULL;                             \
        if (steps < 0) return SSAM_ESIZE;                                                                   \
        b = *a;                                                                                             \
        for (int done = 0; done < steps; done += (TT), pass++) {                                            \
            rc = name##_launch(&b, steps - done < (TT) ? steps - done : (TT), stream);                      \
            if (rc) return rc;                                                                              \
            b.src = b.dst;                                                                                  \
            b.dst = (void *)(pass % 2 == 0 ? a->src : a->dst);                                              \
        }                                                                                                   \
        *result = (void *)b.src;                                                                            \
        return SSAM_SUCCESS;                                                                                \
    }

/* ---- AUTO: the planner picks temporal blocking or one pass per step at run time ---------------- */
/* the one-pass kernel's rows per lane: 8 for shapes of up to 5 rows (3 in fp64), 4 beyond */
#define SSAM__TB_ONEPASS_P(T, NY) (((NY) <= 3 || (sizeof(T) == 4 && (NY) <= 5)) ? 8 : 4)
#define SSAM__TB_AUTO_TT(T, one) SSAM_TB_TT_RULE(sizeof(T), one##_XHI - one##_XLO + 1, one##_YHI - one##_YLO + 1, one##_NPTS)
/* SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(name, T, SHAPE, B): name_onepass_* (SSAM_STENCIL2D_DEFINE) and
 * name_tb_* (SSAM_STENCIL2D_TEMPORAL_DEFINE with TT = SSAM_TB_TT_RULE; where the rule says 1, an empty
 * kernel that name_tb_launch refuses with SSAM_ESIZE), and
 *   int name_plan(const ssam_stencil_args *a, int steps, ssam_tb_plan *p)   the path and why
 *   int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 * name_advance runs the planned path; its result equals the one-pass kernel's bit for bit
 * (periodic widths not a multiple of V: within rounding, see HOW in the usage block). */
#define SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE(name, T, SHAPE, B)                                              \
    SSAM_STENCIL2D_DEFINE(name##_onepass, T, SHAPE,                                                         \
                          SSAM__TB_ONEPASS_P(T, SSAM_SHAPE2D_YHI(SHAPE) - SSAM_SHAPE2D_YLO(SHAPE) + 1), 128) \
    SSAM__STENCIL2D_TEMPORAL_DEFINE_X(name##_tb, T, SHAPE, SSAM__TB_AUTO_TT(T, name##_onepass), B, 1,       \
                                      SSAM__TB_AUTO_TT(T, name##_onepass) >= 2)                             \
    static inline __attribute__((unused)) int name##_plan(const ssam_stencil_args *a, int steps, ssam_tb_plan *p) \
    {                                                                                                       \
        if (!a || !p) return SSAM_ENULL;                                                                    \
        return ssam_tb_plan_make(p, name##_tb_TT, steps) ? SSAM_ESIZE : SSAM_SUCCESS;                       \
    }                                                                                                       \
    static inline __attribute__((unused)) int name##_advance(const ssam_stencil_args *a, int steps,        \
                                                             void **result, cudaStream_t stream)            \
    {                                                                                                       \
        ssam_tb_plan p;                                                                                     \
        if (name##_plan(a, steps < 0 ? 0 : steps, &p) == SSAM_ENULL) return SSAM_ENULL;                    \
        return p.path == SSAM_TB_TEMPORAL ? name##_tb_advance(a, steps, result, stream)                    \
                                          : name##_onepass_advance(a, steps, result, stream);               \
    }

#endif /* SSAM_TEMPORAL_CUH */
