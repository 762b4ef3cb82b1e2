#include <onchip/names_push.h>
/* ssam/stencil_tc/body.cuh -- the block pieces of the tensor-core stencils (staging, Dirichlet cells,
 * the FMA tile) and their kernel body, ssam__stencil_tc_body. */
#ifndef SSAM_STENCIL_TC_BODY_CUH
#define SSAM_STENCIL_TC_BODY_CUH

#include <onchip/async.cuh>

#include "../base.cuh"
#include "../conv_tc/block.cuh"
#include "../stencil/host.cuh"
#include "sizes.cuh"
#include "warp.cuh"

/* index i of an axis of n cells: itself inside, wrapped (periodic) or -1 (Dirichlet: staged as 0):
 * base.cuh's border rule, WRAP or CONSTANT */
static __host__ __device__ __forceinline__ int ssam__stc_index(int i, int n, int periodic)
{
    return ssam_border_index(i, n, periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_CONSTANT);
}

/* one element global -> shared without registers (onchip/async.cuh; zeros when !ok, src not read) */
static __device__ __forceinline__ void ssam__stc_cp(float *dst, const float *src, int ok) { onchip_cp_async4(dst, src, ok); }
static __device__ __forceinline__ void ssam__stc_cp(double *dst, const double *src, int ok) { onchip_cp_async8(dst, src, ok); }

/* ---- block pieces (Z: the instantiation's ssam__stc_sizes) ---------------------------------- */
/* the copies of one staging unit: plane pz (wrapped, or zeros), rows [ys, ys + TR), columns [xs, xs +
 * TC) into slot from column OFF on, columns from NC on as 0; 16-byte chunks where wholly inside (and
 * vld), else elements.  Asynchronous: onchip_cp_async_wait_all, then a barrier. */
template <class Z, class T>
static __device__ __forceinline__ void ssam__stc_copy(T *slot, const T *src, const ssam_stencil_geom g, int pz, int xs, int ys,
                                                      int NC)
{
    enum { TR = Z::TR, TC = Z::TC, TP = Z::TP, V = Z::V, OFF = Z::OFF, NCH = Z::NCH, NT = Z::NT };
    const int z = ssam__stc_index(pz, g.nz, g.periodic), v = Z::VEC && g.vld;
    if (v && z >= 0 && ys >= 0 && ys + TR <= g.ny && xs - OFF >= 0 && xs - OFF + NCH * V <= g.nx) {
        /* all inside: whole chunks (columns from NC on are finite data: they meet zero weights, and a
         * non-finite one only sends the tile to the FMA path) */
        const T *b = src + z * g.plane + (long long)ys * g.pitch + xs - OFF;
        for (int i = threadIdx.x; i < TR * NCH; i += NT) {
            const int r = i / NCH, h = i - r * NCH;
            onchip_cp_async16(slot + r * TP + h * V, b + r * g.pitch + h * V);
        }
        return;
    }
    for (int i = threadIdx.x; i < TR * NCH; i += NT) {
        const int r = i / NCH, c0 = (i - r * NCH) * V - OFF;
        const int y = ssam__stc_index(ys + r, g.ny, g.periodic);
        const T *row = src + z * g.plane + y * g.pitch;
        T *d = slot + r * TP + OFF + c0;
        if (v && z >= 0 && y >= 0 && c0 >= 0 && c0 + V <= NC && xs + c0 >= 0 && xs + c0 + V <= g.nx) {
            onchip_cp_async16(d, row + xs + c0);
        } else {
#pragma unroll
            for (int e = 0; e < V; e++) {
                const int c = c0 + e;
                if (c < 0 || c >= TC) continue;
                const int x = ssam__stc_index(xs + c, g.nx, g.periodic);
                const int ok = c < NC && z >= 0 && y >= 0 && x >= 0;
                ssam__stc_cp(d + e, ok ? row + x : src, ok);
            }
        }
    }
}

/* a cell of output plane z, row y, column x is a Dirichlet cell (its stencil leaves the domain); the
 * box's extents XLO .. ZHI */
template <int XLO, int XHI, int YLO, int YHI, int ZLO, int ZHI>
static __device__ __forceinline__ int ssam__stc_fixed(const ssam_stencil_geom g, int z, int y, int x)
{
    return !g.periodic && (z < -ZLO || z >= g.nz - ZHI || y < -YLO || y >= g.ny - YHI || x < -XLO || x >= g.nx - XHI);
}

/* fragment c: rows y, y2 (its rows g, g + 8), columns x, x + 1 of output plane z (srcz, dstz: that
 * plane in src and dst): Dirichlet cells take their input value (chk: the tile may hold some), then
 * it is stored */
template <class MD, int XLO, int XHI, int YLO, int YHI, int ZLO, int ZHI, class T>
static __device__ __forceinline__ void ssam__stc_put(const typename MD::c_t &c, const ssam_stencil_geom g, const T *srcz, T *dstz,
                                                     int z, int y, int y2, int x, int chk)
{
    typename MD::p_t p = ssam_tc_plain(MD(), c);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const int yy = k < 2 ? y : y2, xx = x + (k & 1);
        if (chk && yy < g.ny && xx < g.nx && ssam__stc_fixed<XLO, XHI, YLO, YHI, ZLO, ZHI>(g, z, yy, xx))
            p.v[k] = srcz[(long long)yy * g.pitch + xx];
    }
    ssam_tc_store2(MD(), dstz, g.pitch, y, y2, x, g.nx, g.ny, g.vst, p);
}

/* one output tile with plain FMAs over the shape's points (in[e] != 0, w[e]) from src; a loop (no
 * registers taken from the MMA path) */
template <class Z, int NX, int NY, int NZ, int XLO, int YLO, int ZLO, class T>
static __device__ __forceinline__ void ssam__stc_fma(const T *w, const unsigned char *in, const T *src,
                                                     const ssam_stencil_geom g, T *dst, int z, int yb, int xb)
{
    enum { BH = Z::BH, BWD = Z::BWD, NT = Z::NT, XHI = XLO + NX - 1, YHI = YLO + NY - 1, ZHI = ZLO + NZ - 1 };
    for (int o = threadIdx.x; o < BH * BWD; o += NT) {
        const int y = yb + o / BWD, x = xb + o % BWD;
        const long long at = z * g.plane + (long long)y * g.pitch + x;
        if (y >= g.ny || x >= g.nx) continue;
        T s = 0;
        if (ssam__stc_fixed<XLO, XHI, YLO, YHI, ZLO, ZHI>(g, z, y, x)) {
            s = src[at];
        } else {
#pragma unroll 1
            for (int e = 0; e < NX * NY * NZ; e++) {
                if (!in[e]) continue;
                const int pz = ssam__stc_index(z + e / (NX * NY) + ZLO, g.nz, 1);
                const int py = ssam__stc_index(y + e / NX % NY + YLO, g.ny, 1);
                const int px = ssam__stc_index(x + e % NX + XLO, g.nx, 1);
                s = fma(w[e], src[pz * g.plane + py * g.pitch + px], s);
            }
        }
        dst[at] = s;
    }
}

/* The kernel body: a block owns column tile x0 and steps [ka, kb) (3D, WALK 0: output planes; 2D,
 * WALK 1: tiles of a column); staging unit u + 1 copies while unit u is multiplied into acc, then
 * output ka + u - (NZ - 1) is stored (or computed again with FMAs) and the sums move one plane on */
template <class MD, int WALK, int NX, int NY, int NZ, int XLO, int YLO, int ZLO, int D, int JX, int WY, int WX>
static __device__ __forceinline__ void ssam__stencil_tc_body(const typename MD::elem_t *src, typename MD::elem_t *dst,
                                                             const ssam_stencil_geom g, const typename MD::elem_t *w,
                                                             const unsigned char *in)
{
    typedef typename MD::elem_t T;
    typedef ssam__stc_sizes<T, NX, NY, NZ, XLO, D, JX, WY, WX> Z;
    enum {
        S8 = Z::S8, T4 = Z::T4, WH = Z::WH, WW = Z::WW, BH = Z::BH, BWD = Z::BWD, TP = Z::TP, OFF = Z::OFF, WP = Z::WP,
        NT = Z::NT, SLOT = Z::SLOT, XHI = XLO + NX - 1, YHI = YLO + NY - 1, ZHI = ZLO + NZ - 1
    };
    static_assert(TP % 2 == 0, "ssam stencil_tc: the row pitch must be even (paired fragment loads)");
    extern __shared__ __align__(16) unsigned char ssam__tcsm[];
    T *wpad = (T *)ssam__tcsm, *ring = wpad + NZ * NY * WP;
    const int lane = threadIdx.x & 31, gq = lane >> 2, cq = lane & 3, warp = threadIdx.x >> 5;
    const int wr0 = warp / WX * WH, wc0 = warp % WX * WW;
    const int x0 = blockIdx.x * BWD, y0 = WALK ? 0 : blockIdx.y * BH, ka = blockIdx.z * g.seg;
    const int kn = WALK ? (g.ny + BH - 1) / BH : g.nz, kb = ka + g.seg < kn ? ka + g.seg : kn;
    const int units = kb - ka + NZ - 1;
    typename MD::c_t acc[NZ][D][JX];
#pragma unroll
    for (int i = 0; i < NZ; i++)
#pragma unroll
        for (int o = 0; o < D; o++)
#pragma unroll
            for (int j = 0; j < JX; j++) ssam_tc_zero(MD(), &acc[i][o][j]);
    ssam__conv_tc_weights<T, WP, NX, NZ * NY, NT>(wpad, w);
    ssam__stc_copy<Z>(ring, src, g, WALK ? 0 : ka + ZLO, x0 + XLO, (WALK ? ka * BH : y0) + YLO, BWD + NX - 1);
    onchip_cp_async_wait_all();
    __syncthreads();
    typename MD::b_t bands[ssam_tc_zbreg<MD, D, NY, NZ, S8, T4>() ? NY * NZ : 1][S8 + T4];
    ssam_tc_zbands<MD, D, NY, NZ, S8, T4>(bands, wpad + 7 + 2 * cq - gq, WP, cq);
    for (int u = 0; u < units; u++) {
        const int k = ka + u - (NZ - 1), z = WALK ? 0 : k, yb = WALK ? k * BH : y0;
        const T *slot = ring + (u & 1) * SLOT + OFF;
        if (u + 1 < units) /* the next unit's copies fly while this one is multiplied */
            ssam__stc_copy<Z>(ring + ((u + 1) & 1) * SLOT, src, g, WALK ? 0 : ka + ZLO + u + 1, x0 + XLO,
                              (WALK ? (ka + u + 1) * BH : y0) + YLO, BWD + NX - 1);
        ssam_tc_zrows<MD, D, NY, NZ, JX, S8, T4>(acc, slot + (wr0 + D * gq) * TP + wc0 + 2 * cq, TP, wpad + 7 + 2 * cq - gq, WP,
                                                 cq, bands);
        onchip_cp_async_wait_all();
        /* bad: a sum not finite (an Inf or NaN among the planes, which the band's zeros spread, or an
         * overflow), the tile then computed again with ssam__stc_fma */
        int bad = 0;
        if (k >= ka) bad |= ssam__tc_nonfinite<MD>(acc[0]);
        bad = __syncthreads_or(bad); /* the next unit visible to all; this slot free for copies */
        if (k >= ka) {
            const int chk = !g.periodic && (z < -ZLO || z >= g.nz - ZHI || yb < -YLO || yb + BH > g.ny - YHI || x0 < -XLO ||
                                            x0 + BWD > g.nx - XHI);
            if (bad) {
                ssam__stc_fma<Z, NX, NY, NZ, XLO, YLO, ZLO>(w, in, src, g, dst, z, yb, x0);
            } else {
#pragma unroll
                for (int o = 0; o < D; o++)
#pragma unroll
                    for (int j = 0; j < JX; j++)
                        ssam__stc_put<MD, XLO, XHI, YLO, YHI, ZLO, ZHI>(
                            acc[0][o][j], g, src + (long long)z * g.plane, dst + (long long)z * g.plane, z, yb + wr0 + D * gq + o,
                            yb + wr0 + D * (gq + 8) + o, x0 + wc0 + 8 * j + 2 * cq, chk);
            }
        }
#pragma unroll
        for (int i = 0; i + 1 < NZ; i++) /* the partial sums move one plane on */
#pragma unroll
            for (int o = 0; o < D; o++)
#pragma unroll
                for (int j = 0; j < JX; j++) acc[i][o][j] = acc[i + 1][o][j];
#pragma unroll
        for (int o = 0; o < D; o++)
#pragma unroll
            for (int j = 0; j < JX; j++) ssam_tc_zero(MD(), &acc[NZ - 1][o][j]);
    }
}

#endif /* SSAM_STENCIL_TC_BODY_CUH */
#include <onchip/names_pop.h>
