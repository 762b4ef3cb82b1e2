#include <onchip/names_push.h>
/* ssam/temporal.cuh -- temporal blocking: TT time steps of a 2D stencil per pass through memory,
 * for domains far larger than the chip.
 *
 * WHAT (the PERKS paper's section 7 "next step"; the streaming of AN5D (CGO'20) and EBISU (ICS'23),
 * built from SSAM's register pieces, SC'19 section 4, Listing 2; docs/ssam.md#temporal-blocking-2d-temporalcuh-tbplanh)
 *   SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE>) defines
 *       __global__ name_kernel                                                up to TT steps, one pass
 *       int name_plan(const ssam_stencil_args *a, ssam_plan *p)   every check; the path (ssam/plan.h):
 *           SSAM_PATH_TEMPORAL (steps_per_pass TT, ceil(a->steps / TT) passes, the last one shorter) or
 *           SSAM_PATH_ONEPASS (1, a->steps passes); p->result a->src or a->dst by the passes' parity
 *       int name_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t)   p's passes
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)  name_plan, then name_run
 *       int name_ncoef(void); enum name_NPTS, name_TT, name_STEP (columns a warp stores), name_SMEM
 *       (dynamic shared bytes a block); name_coef.  Arguments, boundaries, codes: ssam/stencil.cuh's.
 *   ssam_temporal_policy<TT = 0, B = 0, SCHEDULE = SSAM_SCHEDULE_AUTO, P = 0, MINB = 1>: TT, B 0 the
 *   rule's (tbplan.h; B 128); P is 3D's (0); MINB: __launch_bounds__(B, MINB).  SCHEDULE:
 *     SSAM_SCHEDULE_REGS  TT register windows (docs/ssam.md#temporal-registers)
 *     SSAM_SCHEDULE_SMEM  the staged kernel: level 0's window, the input rows, in shared memory
 *     SSAM_SCHEDULE_AUTO  name_plan chooses (ssam/tbplan.h's rules and why sentences) name_tb_kernel
 *         (SMEM where SSAM_TB_SMEM_RULE says) or name_onepass_kernel; a->path SSAM_PATH_TEMPORAL or
 *         _ONEPASS asks for one (a fixed SCHEDULE: 0 or TEMPORAL).  Other schedules' kernels: empty.
 *
 * HOW  A warp streams a strip of 32 V columns down a row segment, keeping TT register windows of NY
 *   rows (rings indexed by phase); input row j feeds level t's row j - t YHI, level TT's is stored.
 *   Halo recompute: a warp stores name_STEP = 32 V - HL - HR columns.  N steps equal N launches of
 *   SSAM_STENCIL2D_DEFINE's kernel bit for bit, except periodic widths not a multiple of V (within
 *   2 N npts eps max|u0| G^N, G = sum |c|).  Design and measurements: docs/ssam.md#temporal-design.
 *
 * PIECES FOR KERNELS OF ONE'S OWN (functions; the macro spellings are one-line wrappers)
 *   ssam_temporal_push(ring, ph, row), ssam_temporal_view(win, ring, ph): a window of NY rows as a
 *       ring T ring[V][NY] indexed by the phase ph = row mod NY (a constant in a loop unrolled by NY)
 *   ssam_temporal_level<S, XLO, XHI, YLO>(out, win, coef, keep, colin, fast): one step of the
 *       window's row -YLO, or its own value where keep or bit k of colin is 0; fast (warp-uniform:
 *       keep and every colin full) skips the selects.  Every lane of the warp must execute it.
 *   SSAM_TEMPORAL_HL(V, XLO, TT), SSAM_TEMPORAL_HR(V, XHI, TT), SSAM_TEMPORAL_STEP(V, XLO, XHI, TT)
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#temporal-glossary.
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/temporal.cuh>
 *     SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, ONCHIP_SHAPE_2D5PT,
 *                                    ssam_temporal_policy<8, 128, SSAM_SCHEDULE_REGS>)  // <>: AUTO
 *
 *     ssam_stencil_args a = {};   // ... as for SSAM_STENCIL2D_DEFINE ...
 *     a.steps = 1000; ssam_plan p;                    // or both at once: heat8_launch(&a, stream)
 *     int rc = heat8_plan(&a, &p);                    // 125 passes of 8 steps, p.why says why
 *     if (!rc) rc = heat8_run(&a, &p, stream);        // p.result: a.dst (125 passes: odd)
 *
 * PARAMETERS AND LIMITS (compile-time sentences; tests/compile-fail/ssam_temporal_*.cu)
 *   T float or double; TT >= 1, windows 4 TT NY <= 160 32-bit registers (SSAM_TEMPORAL_MAXREGS);
 *   name_STEP >= V; B a multiple of 32 from 32 to 1024; the shape's limits as stencil.cuh's.  REGS:
 *   no shared memory.  SMEM: 4 (TT - 1) NY <= 160 and SSAM_TEMPORAL_SMEM_BYTES(NY, B) =
 *   B/32 2 (NY + 3) 512 bytes <= 227 KB (a device giving less: SSAM_ECUDA).  Any nx >= 1,
 *   1 <= ny <= 65535 * 4096.  src and dst must not overlap; name_run overwrites both.
 *   Codes: stencil.cuh's; a->path another path: SSAM_EFLAGS (AUTO: TEMPORAL where TT is 1 too).
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(src, dst, g, int L, cf) runs L steps (1 <= L <= TT;
 *   SMEM with name_SMEM dynamic bytes); AUTO's are name_onepass_kernel and name_tb_kernel; no
 *   name_plan, name_run, name_launch (tbplan.h's rules remain, as macros).
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
 * (ph + r) % NY at phase ph = row mod NY (a constant in a loop unrolled by NY): moving the window
 * is a renaming.  ssam_temporal_view: the window as rows in order, win[k][r]. */
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
    ssam_temporal_level<ONCHIP_SHAPE2D_TYPE(SHAPE), XLO, XHI, YLO>(out, win, coef, keep, colin, fast)

/* ---- the kernel's pieces ----------------------------------------------------------------------- */
/* a pass's arguments, those of name_kernel(src, dst, g, L, cf), as the bodies' pieces take them */
template <class T>
struct ssam__tb_args {
    const T *src;
    T *dst;
    ssam_stencil_geom g;
    int steps; /* L: the steps of this pass, 1 .. TT */
    const T *coef;
};
/* the column a lane loads x .. x + V - 1 from, *in = 1 where one aligned vector load is legal; a lane
 * wholly outside the domain loads a vector inside it; why: docs/ssam.md#temporal-design */
static __device__ __forceinline__ int ssam__tb_xload(int x, int nx, int V, int periodic, int vld, int *in)
{
    int xl = x;
    if (vld && (x >= nx || x + V <= 0) && nx >= V && !(periodic && nx % V))
        xl = periodic ? ((x % nx) + nx) % nx : x < 0 ? 0 : (nx - V) / V * V;
    *in = vld && xl >= 0 && xl + V <= nx;
    return xl;
}

/* input row j (wrap or nearest) into slot s of q: one vector where in, else V mapped elements; not
 * ssam_regcache_rows_as: why: docs/ssam.md#temporal-design */
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

/* a warp's strip of rows (the 2D body): its segment and the row test of its levels */
struct ssam__tb2_strip {
    int seg_begin, seg_end;    /* Ys, Ye: the rows [Ys, Ye) of segment by, the ones stored */
    int row_offset, row_limit; /* yoff, ylim: a level computes row y where y + YLO + yoff lies in [0, ylim) */
    int warp_inside;           /* allin: every lane's col_inside_mask full (warp-uniform) */
};

/* after input row j entered ring 0: levels 1 .. TT of rows j - t YHI, one after another (why:
 * docs/ssam.md#temporal-design), levels above L keeping their values; level TT's row stored at the
 * lane's x_load (its x wherever it stores) */
template <class S, int TT, class T, int V, int NY>
static __device__ __forceinline__ void ssam__tb2_levels(T (&ring)[TT][V][NY], int ph, T (&out)[V], const ssam__tb_args<T> &a,
                                                        int j, const ssam__lane &lane, const ssam__tb2_strip &strip)
{
    /* the members read, as locals read before any store (why: docs/ssam.md#tb-context-structs) */
    const ssam_stencil_geom g = a.g;
    T *const dst = a.dst;
    const T *const cf = a.coef;
    const int L = a.steps, Ys = strip.seg_begin, Ye = strip.seg_end, yoff = strip.row_offset, ylim = strip.row_limit;
    const int allin = strip.warp_inside, x = lane.x_load, colin = lane.col_inside_mask, store = lane.store;
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

/* the block's strip group *bx and segment *by: the end strips' blocks first; why:
 * docs/ssam.md#temporal-design */
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

/* the first column *X0 of the warp's strip (the block's strip group, ssam__tb2_block, and the warp)
 * and the strip's segment *seg; 0 where the warp lies right of the domain (both 2D bodies) */
template <int B, int STEP>
static __device__ __forceinline__ int ssam__tb2_warp(const ssam_stencil_geom &g, int *X0, int *seg)
{
    int bx, by;
    ssam__tb2_block(&bx, &by);
    const long long X0l = ((long long)bx * (B / 32) + (threadIdx.x >> 5)) * STEP;
    *X0 = (int)X0l;
    *seg = by;
    return X0l < g.nx;
}

/* The kernel body: a warp streams input rows [j0, j1) of its strip through TT rings, the loop
 * unrolled by NY, the input prefetched NY rows ahead into pf */
template <class T, class S, int TT, int B>
static __device__ __forceinline__ void ssam__tb2_body(const T *src, T *dst, const ssam_stencil_geom g, int L, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, V = SSAM_STENCIL_V(T), NY = YHI - YLO + 1,
        HL = SSAM_TEMPORAL_HL(V, XLO, TT), HR = SSAM_TEMPORAL_HR(V, XHI, TT), STEP = 32 * V - HL - HR
    };
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int lane_id = threadIdx.x & 31;
    int X0, by;
    if (!ssam__tb2_warp<B, STEP>(g, &X0, &by)) return; /* whole warps only: the shuffles need every lane */
    const int x = X0 - HL + V * lane_id;
    const int store = lane_id >= HL / V && lane_id < 32 - HR / V && x < g.nx;
    const int Ys = by * g.seg, Ye = min(Ys + g.seg, g.ny);
    const int j0 = Ys + TT * YLO, j1 = Ye + TT * YHI; /* input rows [j0, j1) */
    int colin = 0;
    T ring[TT][V][NY], pf[V][NY], out[V];
    ssam__lane lane;
    lane.x = x;
    lane.store = store;
    /* xl: the columns loaded, x itself wherever the lane stores (x then lies in the domain) */
    lane.x_load = ssam__tb_xload(x, g.nx, V, g.periodic, g.vld, &lane.vec_ok);
    const int xl = lane.x_load, in = lane.vec_ok;
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    lane.col_inside_mask = colin;
    ssam__tb2_strip strip;
    strip.seg_begin = Ys, strip.seg_end = Ye;
    strip.warp_inside = __all_sync(0xffffffffu, colin == (1 << V) - 1);
    /* a level computes row y where y + YLO + yoff lies in [0, ylim) */
    strip.row_offset = g.periodic ? 0x40000000 : 0;
    strip.row_limit = g.periodic ? 0x7fffffff : max(g.ny - (YHI - YLO), 0);
    const ssam__tb_args<T> a = {src, dst, g, L, cf};
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
            ssam__tb2_levels<S, TT>(ring, ph, out, a, j, lane, strip);
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

/* The staged body: ssam__tb2_body with level 0's window in shared memory, a lane's own 16 bytes of
 * a row in a ring of R0 = NY + AHEAD slots, each row written at s and s + R0 (the window is the NY
 * slots from sb on); row j + AHEAD copied into row j - NY's slot after level 1 read it */
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
    int X0, by;
    if (!ssam__tb2_warp<B, STEP>(g, &X0, &by)) return; /* whole warps only: the shuffles need every lane */
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

/* ---- the policy --------------------------------------------------------------------------------- */
/* TT steps a pass, B threads a block, the SCHEDULE (SSAM_SCHEDULE_*, ssam/base.cuh), P rows a warp
 * (3D only), MINB blocks an SM (__launch_bounds__(B, MINB)); TT, B, P 0: the rule's (tbplan.h) */
template <int TT_ = 0, int B_ = 0, int SCHEDULE_ = SSAM_SCHEDULE_AUTO, int P_ = 0, int MINB_ = 1>
struct ssam_temporal_policy {
    enum { tt = TT_, b = B_, schedule = SCHEDULE_, p = P_, minb = MINB_ };
};
template <class X>
struct ssam__is_temporal_policy {
    enum { value = 0 };
};
template <int TT_, int B_, int SCHEDULE_, int P_, int MINB_>
struct ssam__is_temporal_policy<ssam_temporal_policy<TT_, B_, SCHEDULE_, P_, MINB_> > {
    enum { value = 1 };
};
/* a 2D policy resolved for T and the shape S: the schedule (AUTO: SMEM where SSAM_TB_SMEM_RULE says,
 * else REGS), TT (0: SSAM_TB_SMEM_TT_RULE or SSAM_TB_TT_RULE), B (0: 128) */
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb2_schedule(void)
{
    return POL::schedule != SSAM_SCHEDULE_AUTO ? (int)POL::schedule
           : SSAM_TB_SMEM_RULE(sizeof(T), S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::npts) ? SSAM_SCHEDULE_SMEM
                                                                                           : SSAM_SCHEDULE_REGS;
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb2_tt(void)
{
    return POL::tt != 0 ? (int)POL::tt
           : ssam__tb2_schedule<POL, T, S>() == SSAM_SCHEDULE_SMEM
               ? SSAM_TB_SMEM_TT_RULE(sizeof(T), S::yhi - S::ylo + 1)
               : SSAM_TB_TT_RULE(sizeof(T), S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::npts);
}
template <class POL>
static __host__ __device__ constexpr int ssam__tb2_b(void)
{
    return POL::b != 0 ? (int)POL::b : 128;
}

/* ---- host side and the generators --------------------------------------------------------------- */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the launchers' view of a temporal kernel: 2D segments that stream TT (YHI - YLO) extra rows */
template <class T, class S, int TT, int B>
static inline ssam__stencil_kern ssam__tb2_kern(const void *fn)
{
    enum { V = SSAM_STENCIL_V(T) };
    ssam__stencil_kern k = ssam__stencil_kern_of<S>(fn, 2, V, SSAM_TEMPORAL_STEP(V, S::xlo, S::xhi, TT), B, 1);
    k.grid2d = 1;
    k.warm = TT * (S::yhi - S::ylo);
    k.es = k.cs = sizeof(T);
    return k;
}
/* one pass of the temporal kernels (name__pass): 1 <= steps <= TT; on 0: no kernel (SSAM_ESIZE) */
static inline int ssam__temporal_launch(const ssam_stencil_args *a, int steps, cudaStream_t stream,
                                        const ssam__stencil_kern *k, void *cf, int TT, int on)
{
    if (steps < 1 || steps > TT || !on) return a ? SSAM_ESIZE : SSAM_ENULL;
    return ssam__stencil_launch(a, stream, k, cf, &steps);
}
/* a fixed schedule's passes: tt steps each (the last one shorter) */
static inline void ssam__tb_fixed_plan(ssam_tb_plan *t, int tt, int steps)
{
    t->path = SSAM_TB_TEMPORAL;
    t->tt = tt;
    t->passes = steps / tt + (steps % tt != 0);
    t->why = "the policy's fixed SCHEDULE: TT steps per pass through device memory";
}
/* name_plan's first checks: p, a, steps >= 0, a->path (AUTO: 0, SSAM_PATH_TEMPORAL or
 * SSAM_PATH_ONEPASS; a fixed schedule: 0 or SSAM_PATH_TEMPORAL) */
static inline int ssam__tb_plan_begin(const ssam_stencil_args *a, ssam_plan *p, int autoplan)
{
    static const int paths[2] = {SSAM_PATH_TEMPORAL, SSAM_PATH_ONEPASS};
    const char *why = "";
    int rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__stencil_plan_check(a, paths, autoplan ? 2 : 1,
                                  autoplan ? "refused (SSAM_EFLAGS): args.path must be 0, SSAM_PATH_TEMPORAL or "
                                             "SSAM_PATH_ONEPASS"
                                           : "refused (SSAM_EFLAGS): args.path must be 0 or SSAM_PATH_TEMPORAL (the "
                                             "instance's fixed schedule)",
                                  &why);
    return rc ? onchip__plan_refuse(p, rc, why) : SSAM_SUCCESS;
}
/* name_plan's end: the planner's plan *t (trc its code), args.path's choice, the checks of the chosen
 * path's kernel (kt the temporal one of TT steps, k1 the one-pass one, NULL for a fixed schedule),
 * the head */
static inline int ssam__tb_plan_end(const ssam_stencil_args *a, ssam_plan *p, ssam_tb_plan *t, int trc,
                                    const ssam__stencil_kern *kt, const ssam__stencil_kern *k1, int TT)
{
    ssam_stencil_geom g;
    dim3 grid;
    const char *why = "";
    long long passes;
    int rc;
    if (trc) { /* a size out of range: the launch's checks name it, else the planner's sentence */
        rc = ssam__stencil_prepare_why(a, k1 ? k1 : kt, &g, &grid, &why);
        return onchip__plan_refuse(p, rc ? rc : SSAM_ESIZE, rc ? why : t->why);
    }
    if (a->path == SSAM_PATH_TEMPORAL && t->path != SSAM_TB_TEMPORAL) {
        if (TT < 2)
            return onchip__plan_refuse(p, SSAM_EFLAGS, "refused (SSAM_EFLAGS): args.path SSAM_PATH_TEMPORAL, but the "
                                                        "instance has no temporal kernel for this shape (TT 1)");
        t->path = SSAM_TB_TEMPORAL;
        t->tt = TT;
        t->passes = a->steps / TT + (a->steps % TT != 0);
        t->why = "args.path SSAM_PATH_TEMPORAL: TT steps per pass through device memory";
    } else if (a->path == SSAM_PATH_ONEPASS && t->path != SSAM_TB_ONEPASS) {
        ssam__tb_plan_onepass(t, a->steps, "args.path SSAM_PATH_ONEPASS: one pass per step");
    }
    rc = ssam__stencil_prepare_why(a, t->path == SSAM_TB_TEMPORAL ? kt : k1, &g, &grid, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    passes = a->steps == 0 ? 0 : t->passes;
    onchip__plan_set(p, t->path == SSAM_TB_TEMPORAL ? SSAM_PATH_TEMPORAL : SSAM_PATH_ONEPASS,
                     a->steps == 0 ? ONCHIP_WHY_NO_STEPS : t->why, t->tt, passes, 0,
                     (passes & 1) ? a->dst : (void *)a->src);
    return SSAM_SUCCESS;
}
/* name_run of the temporal stencils: p->passes passes of p->steps_per_pass steps (the last one the
 * rest of a->steps), ping-pong; pass(a, L, stream) the path's one pass (tpass: SSAM_PATH_TEMPORAL,
 * opass: SSAM_PATH_ONEPASS, L 1) */
typedef int (*ssam__tb_pass_fn)(const ssam_stencil_args *, int, cudaStream_t);
static inline int ssam__tb_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t stream, ssam__tb_pass_fn tpass,
                               ssam__tb_pass_fn opass)
{
    ssam_stencil_args b;
    const ssam__tb_pass_fn pass = p && p->path == SSAM_PATH_TEMPORAL ? tpass : p && p->path == SSAM_PATH_ONEPASS ? opass : NULL;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes == 0) return SSAM_SUCCESS;
    if (!pass) return SSAM_EFLAGS;
    b = *a;
    for (long long t = 0; t < p->passes; t++) {
        const long long left = (long long)a->steps - t * p->steps_per_pass;
        int rc;
        b.src = (t & 1) ? (const void *)a->dst : a->src;
        b.dst = (t & 1) ? (void *)a->src : a->dst;
        if ((rc = pass(&b, left < p->steps_per_pass ? (int)left : p->steps_per_pass, stream))) return rc;
    }
    return SSAM_SUCCESS;
}
/* a kernel part's internal host side: name__kern (its launch's view) and name__pass(a, L, stream),
 * one pass of 1 <= L <= TT steps (ON 0: SSAM_ESIZE) */
#define SSAM__TB2_HOST(name, T, TT, B, ON)                                                              \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        ssam__stencil_kern k = ssam__tb2_kern<T, name##_shape, TT, B>((const void *)name##_kernel);     \
        k.occ_smem = k.smem0 = (size_t)name##_SMEM;                                                     \
        return k;                                                                                       \
    }                                                                                                   \
    SSAM__TB_PASS(name, TT, ON)
/* a temporal kernel part's name__pass: one pass of 1 <= L <= TT steps (ON 0: SSAM_ESIZE) */
#define SSAM__TB_PASS(name, TT, ON)                                                                     \
    static inline __attribute__((unused)) int name##__pass(const ssam_stencil_args *a, int steps, cudaStream_t stream) \
    {                                                                                                   \
        name##_coef cf;                                                                                 \
        const ssam__stencil_kern k = name##__kern();                                                    \
        return ssam__temporal_launch(a, steps, stream, &k, &cf, TT, ON);                                \
    }
/* AUTO's one-pass part: name__kern and name__pass(a, 1, stream), one step (on 0: SSAM_ESIZE) */
#define SSAM__TB2_ONEPASS_HOST(name, T, P, GHM, ON)                                                     \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        return ssam__stencil2d_kern<T, T, name##_shape, P, 128, GHM, -1>((const void *)name##_kernel);  \
    }                                                                                                   \
    SSAM__TB_ONEPASS_PASS(name, ON)
#define SSAM__TB_ONEPASS_PASS(name, ON)                                                                 \
    static inline __attribute__((unused)) int name##__pass(const ssam_stencil_args *a, int steps, cudaStream_t stream) \
    {                                                                                                   \
        (void)steps;                                                                                    \
        if constexpr (!(ON)) {                                                                          \
            return a ? SSAM_ESIZE : SSAM_ENULL;                                                         \
        } else {                                                                                        \
            name##_coef cf;                                                                             \
            const ssam__stencil_kern k = name##__kern();                                                \
            return ssam__stencil_launch(a, stream, &k, &cf, NULL);                                      \
        }                                                                                               \
    }
/* the generator's three verbs; PLANNER: AUTO's planner call filling ssam_tb_plan t for a */
#define SSAM__TB_NAME_HOST(name, PLANNER)                                                               \
    static inline __attribute__((unused)) int name##_plan(const ssam_stencil_args *a, ssam_plan *p)     \
    {                                                                                                   \
        ssam_tb_plan t;                                                                                 \
        const int rc = ssam__tb_plan_begin(a, p, SSAM__TB_AUTO(name));                                  \
        if (rc) return rc;                                                                              \
        if constexpr (SSAM__TB_AUTO(name)) {                                                            \
            const int trc = PLANNER;                                                                    \
            const ssam__stencil_kern kt = name##_tb__kern(), k1 = name##_onepass__kern();               \
            return ssam__tb_plan_end(a, p, &t, trc, &kt, &k1, name##_tb_TT);                            \
        } else {                                                                                        \
            const ssam__stencil_kern kt = name##__kern();                                               \
            ssam__tb_fixed_plan(&t, name##_TT, a->steps);                                               \
            return ssam__tb_plan_end(a, p, &t, 0, &kt, NULL, name##_TT);                                \
        }                                                                                               \
    }                                                                                                   \
    static inline __attribute__((unused)) int name##_run(const ssam_stencil_args *a, const ssam_plan *p, \
                                                         cudaStream_t stream)                           \
    {                                                                                                   \
        if constexpr (SSAM__TB_AUTO(name))                                                              \
            return ssam__tb_run(a, p, stream, name##_tb__pass, name##_onepass__pass);                   \
        else                                                                                            \
            return ssam__tb_run(a, p, stream, name##__pass, NULL);                                      \
    }                                                                                                   \
    ONCHIP__LAUNCH_VERB(name, ssam_stencil_args, ssam_plan)
/* the 2D generator's own names: the fixed schedule's kernel part, the three verbs */
#define SSAM__TB2_NAME_HOST(name, T, TT, B)                                                             \
    SSAM__TB2_HOST(name, T, TT, B, !SSAM__TB_AUTO(name))                                                \
    SSAM__TB_NAME_HOST(name, (name##_tb_SMEM ? ssam_tb_smem_plan_make(&t, name##_tb_TT, a->steps, a->nx, a->ny) \
                                             : ssam_tb_plan_make(&t, name##_tb_TT, a->steps)))
#else
#define SSAM__TB2_HOST(name, T, TT, B, ON)
#define SSAM__TB2_ONEPASS_HOST(name, T, P, GHM, ON)
#define SSAM__TB2_NAME_HOST(name, T, TT, B)
#endif /* !__CUDACC_RTC__ */

/* SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE>): the union
 * of the schedules' names, the kernels of the others empty (why: docs/ssam.md#temporal-policy) */
#define SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, ...)                                             \
    typedef __VA_ARGS__ name##_policy;                                                                  \
    SSAM__TB2_DEFINE(name, "SSAM_STENCIL2D_TEMPORAL_DEFINE(" #name ")", T, typename ssam__stencil_real<T>::type, SHAPE, \
                     (ssam__tb2_tt<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb2_b<name##_policy>()),                                                    \
                     (ssam__tb2_schedule<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>() == \
                      SSAM_SCHEDULE_SMEM))
#define SSAM__TB_AUTO(name) (name##_policy::schedule == SSAM_SCHEDULE_AUTO)
/* WHO the sentences' subject, RT the real type of T, TT, B and SM (the staged body) resolved */
#define SSAM__TB2_DEFINE(name, WHO, T, RT, SHAPE, TT, B, SM)                                            \
    static_assert(ssam__is_temporal_policy<name##_policy>::value,                                       \
                  WHO ": the last argument must be an ssam_temporal_policy<TT, B, SCHEDULE, P, MINB>"); \
    static_assert(SSAM__TB_AUTO(name) || name##_policy::schedule == SSAM_SCHEDULE_REGS ||               \
                      name##_policy::schedule == SSAM_SCHEDULE_SMEM,                                    \
                  WHO ": SCHEDULE must be SSAM_SCHEDULE_AUTO, SSAM_SCHEDULE_REGS or SSAM_SCHEDULE_SMEM"); \
    static_assert(name##_policy::p == 0, WHO ": P (rows per warp) is the 3D kernels'; leave it 0");     \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    SSAM__TB_CHECKS(WHO, TT, B)                                                                         \
    SSAM__TB2_ONEPASS(name##_onepass, WHO, RT, SHAPE, SSAM__TB_AUTO(name))                              \
    SSAM__STENCIL_COMMON(name##_tb, WHO, RT, SHAPE, 2)                                                  \
    SSAM__TB2_KERNEL(name##_tb, WHO, RT, TT, B, name##_policy::minb, SSAM__TB_AUTO(name) && (TT) >= 2, SM) \
    SSAM__TB2_HOST(name##_tb, RT, TT, B, SSAM__TB_AUTO(name) && (TT) >= 2)                              \
    SSAM__TB2_KERNEL(name, WHO, T, TT, B, name##_policy::minb, !SSAM__TB_AUTO(name), SM)                \
    SSAM__TB2_NAME_HOST(name, T, TT, B)
/* the policy's TT and B, resolved */
#define SSAM__TB_CHECKS(WHO, TT, B)                                                                     \
    static_assert((TT) >= 1, WHO ": TT (steps per pass) must be at least 1, or 0 for the rule's");      \
    static_assert((B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX,                    \
                  WHO ": B must be a multiple of 32 from 32 to 1024, or 0 for the rule's");
/* AUTO's one-pass kernel, SSAM_STENCIL2D_DEFINE's (P by SSAM__TB_ONEPASS_P, 128 threads; its window
 * always fits); ON 0: an empty kernel, name_launch SSAM_ESIZE */
#define SSAM__TB2_ONEPASS(name, WHO, T, SHAPE, ON)                                                      \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    __global__ void __launch_bounds__(128, 1)                                                           \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        if constexpr ((ON) != 0)                                                                        \
            ssam__stencil2d_body<T, T, name##_shape, SSAM__TB_ONEPASS_P(T, name##_YHI - name##_YLO + 1), 128, \
                                 SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI)>(src, dst, g, cf.c); \
    }                                                                                                   \
    SSAM__TB2_ONEPASS_HOST(name, T, SSAM__TB_ONEPASS_P(T, name##_YHI - name##_YLO + 1),                 \
                           SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), ON)
/* a temporal kernel after its SSAM__STENCIL_COMMON: ON 0 an empty one, no limit checked; SM 1 the
 * staged body (level 0's window in shared memory) */
#define SSAM__TB2_KERNEL(name, WHO, T, TT, B, MINB, ON, SM)                                             \
    enum { name##_TT = (TT), name##_STEP = SSAM_TEMPORAL_STEP(SSAM_STENCIL_V(T), name##_XLO, name##_XHI, TT), \
           name##_SMEM = (SM) ? SSAM_TEMPORAL_SMEM_BYTES(name##_YHI - name##_YLO + 1, B) : 0 };         \
    static_assert(!(ON) || (SSAM__TB_TT(TT) - (SM)) * (name##_YHI - name##_YLO + 1) * SSAM_STENCIL_V(T) * \
                                   (int)(sizeof(T) / 4) <= SSAM_TEMPORAL_MAXREGS,                       \
                  WHO ": the TT windows of NY rows exceed 160 registers; lower TT");                    \
    static_assert(!(ON) || name##_STEP >= SSAM_STENCIL_V(T),                                            \
                  WHO ": TT times the x radius leaves no column of the warp to store; lower TT");       \
    static_assert(!(ON) || name##_SMEM <= ONCHIP_SMEM_OPTIN_MAX,                                        \
                  WHO ": the staged input rows, 2 (NY + 3) rows of 512 bytes a warp, exceed 227 KB of shared memory; lower B"); \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, int L, name##_coef cf) \
    {                                                                                                   \
        if constexpr (!(ON)) {                                                                          \
        } else if constexpr ((SM) != 0)                                                                 \
            ssam__tb2s_body<T, name##_shape, SSAM__TB_TT(TT), B>(src, dst, g, L, cf.c);                 \
        else                                                                                            \
            ssam__tb2_body<T, name##_shape, SSAM__TB_TT(TT), B>(src, dst, g, L, cf.c);                  \
    }
/* TT as the bodies take it: at least 1 (TT < 1 is refused by a sentence, not by the body) */
#define SSAM__TB_TT(TT) ((TT) >= 1 ? (TT) : 1)
/* the one-pass kernel's rows per lane: 8 for shapes of up to 5 rows (3 in fp64), 4 beyond */
#define SSAM__TB_ONEPASS_P(T, NY) (((NY) <= 3 || (sizeof(T) == 4 && (NY) <= 5)) ? 8 : 4)

#endif /* SSAM_TEMPORAL_CUH */
#include <onchip/names_pop.h>
