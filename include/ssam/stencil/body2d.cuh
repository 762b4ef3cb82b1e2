#include <onchip/names_push.h>
/* ssam/stencil/body2d.cuh -- the 2D stencil kernel's body (SSAM_STENCIL2D_DEFINE, T float, double,
 * __half or __nv_bfloat16).
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 2, sections 4.5 and 4.8)
 *   ssam__stencil2d_body<TS, T, S, P, B, GHM>(src, dst, g, cf): one time step of the shape type S
 *   (ONCHIP_SHAPE2D_TYPE) over the state stored as TS and computed in T (TS = T, or __half /
 *   __nv_bfloat16 into float), P output rows per lane and step, B threads per block, GHM the ghost
 *   mode (0 overlap lanes; 1 ghost lanes where the shape allows: ssam/stencil/row.cuh).  The
 *   kernel's dynamic shared memory holds the row table: (g.seg + NY - 1 + P) ints.
 * HOW
 *   A warp owns STEP output columns and the rows [Ys, Ye) of one segment; it keeps a window of
 *   P + NY - 1 rows x 32 V columns in registers, loading each input row once (prefetching the next P
 *   rows while computing the current P), borders applied at load time through the block's row table.
 *   Half types prefetch raw (ssam_regcache_rows_raw): a row is converted where it enters the window.
 * COST
 *   Registers: V (P + NY - 1) window + V P prefetch (+ the ghost window: GW (P + NY - 1) on lanes 0
 *   and 31's rows); loads: each input row once per warp.
 */
#ifndef SSAM_STENCIL_BODY2D_CUH
#define SSAM_STENCIL_BODY2D_CUH

#include "host.cuh"
#include "row.cuh"

template <class TS, class T, class S, int P, int B, int GHM>
static __device__ __forceinline__ void ssam__stencil2d_body(const TS *src, TS *dst, const ssam_stencil_geom g, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, V = SSAM_STENCIL_V(TS), NY = YHI - YLO + 1,
        R = P + NY - 1, QL = SSAM_STENCIL_QL(V, XLO), QR = SSAM_STENCIL_QR(V, XHI), GH = ssam__stencil_gh<S, V, GHM>(),
        STEP = ssam__stencil_wstep<S, V, GHM>(), LOFF = GH ? 0 : QL, GW = ssam__stencil_gw<S>() /* ghost columns */
    };
    /* half types prefetch raw: converted where they enter the window */
    enum { RAW = sizeof(TS) < sizeof(T) };
    extern __shared__ int ssam__rowtab[];
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int Ys = blockIdx.y * g.seg;
    const int Ye = min(Ys + g.seg, g.ny);
    for (int i = threadIdx.x; i < g.seg + NY - 1 + P; i += B) ssam__rowtab[i] = ssam_border_index(Ys + YLO + i, g.ny, bmode);
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * (B / 32) + (threadIdx.x >> 5)) * STEP;
    if (X0 >= g.nx) return; /* whole warps only: the shuffles need every lane */
    const int x = X0 + V * (lane - LOFF);
    const int store = GH || (lane >= QL && lane < 32 - QR);
    const int glane = GH && ((lane == 0 && QR > 0) || (lane == 31 && QL > 0));
    const int gx = lane == 0 ? X0 + 32 * V : X0 + XLO;
    int cx[V], in, colin = 0, gcx[GW];
    T data[V][R], nxt[V][P], out[V], own[V], gdata[GW][R], gnxt[GW][R];
    uint4 nraw[RAW ? P : 1];
    unsigned graw[RAW ? GW : 1][RAW ? R : 1];
    ssam_regcache_columns<V>(cx, in, x, g.nx, bmode, g.vld);
#pragma unroll
    for (int j = 0; j < GW; j++) gcx[j] = ssam_border_index(gx + j, g.nx, bmode); /* ghosts: the elements needed */
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    if (NY > 1) ssam_regcache_rows_as<NY - 1, TS, T>(data, 0, src, g.pitch, x, cx, in, ssam__rowtab, (T)0);
    if constexpr (!RAW) {
        ssam_regcache_rows_as<P, TS, T>(nxt, 0, src, g.pitch, x, cx, in, ssam__rowtab + NY - 1, (T)0);
        ssam__stencil_gload<R, TS, T>(gnxt, 0, src, g.pitch, gx, gcx, glane, ssam__rowtab);
    } else {
        ssam_regcache_rows_raw<P, TS>(nraw, 0, src, g.pitch, x, cx, in, ssam__rowtab + NY - 1, (TS)(T)0);
        ssam__stencil_gload_raw<R, TS>(graw, 0, src, g.pitch, gcx, glane, ssam__rowtab);
    }
#pragma unroll 1
    for (int y0 = Ys; y0 < Ye; y0 += P) {
        if constexpr (!RAW) {
#pragma unroll
            for (int r = 0; r < P; r++)
#pragma unroll
                for (int j = 0; j < V; j++) data[j][NY - 1 + r] = nxt[j][r];
            ssam_regcache_rows_as<P, TS, T>(nxt, 0, src, g.pitch, x, cx, in, ssam__rowtab + (y0 - Ys) + NY - 1 + P, (T)0);
#pragma unroll
            for (int j = 0; j < GW; j++)
#pragma unroll
                for (int r = 0; r < R; r++) gdata[j][r] = gnxt[j][r];
            ssam__stencil_gload<R, TS, T>(gnxt, 0, src, g.pitch, gx, gcx, glane, ssam__rowtab + (y0 - Ys) + P);
        } else {
            ssam_regcache_unpack<P, TS>(data, NY - 1, nraw, 0);
            ssam_regcache_rows_raw<P, TS>(nraw, 0, src, g.pitch, x, cx, in, ssam__rowtab + (y0 - Ys) + NY - 1 + P, (TS)(T)0);
#pragma unroll
            for (int j = 0; j < GW; j++)
#pragma unroll
                for (int r = 0; r < R; r++) gdata[j][r] = ssam_regcache_from_bits<TS, T>(graw[j][r]);
            ssam__stencil_gload_raw<R, TS>(graw, 0, src, g.pitch, gcx, glane, ssam__rowtab + (y0 - Ys) + P);
        }
#pragma unroll
        for (int p = 0; p < P; p++) {
            ssam__stencil2d_rowg<S, XLO, XHI, YLO, GH>(out, data, gdata, p, cf);
            const int y = y0 + p;
            if (y < Ye && store) {
                const int rowin = g.periodic || (y + YLO >= 0 && y + YHI < g.ny);
#pragma unroll
                for (int k = 0; k < V; k++) own[k] = data[k][p - YLO];
                ssam__stencil_store<TS>(dst, 0, (long long)y * g.pitch, x, g.nx, out, own, colin, rowin, g.vst);
            }
        }
        ssam_regcache_slide<NY - 1, P>(data);
    }
}

#endif /* SSAM_STENCIL_BODY2D_CUH */
#include <onchip/names_pop.h>
