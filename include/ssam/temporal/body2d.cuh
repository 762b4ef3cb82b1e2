#include <onchip/names_push.h>
/* ssam/temporal/body2d.cuh -- the 2D register kernel's body (SSAM_SCHEDULE_REGS) and the pieces the
 * other temporal bodies share: a pass's arguments, a lane's loads, a warp's strip. */
#ifndef SSAM_TEMPORAL_BODY2D_CUH
#define SSAM_TEMPORAL_BODY2D_CUH

#include "../stencil/host.cuh"
#include "../stencil/row.cuh"
#include "lane.cuh"

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

#endif /* SSAM_TEMPORAL_BODY2D_CUH */
#include <onchip/names_pop.h>
