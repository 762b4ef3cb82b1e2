#include <onchip/names_push.h>
/* ssam/conv_tc/block.cuh -- the block pieces and the kernel body of the tensor-core convolution.
 *
 * WHAT (conv_tc.cuh's HOW: a block of WY x WX warps walks output tiles of (16 QY WY) x (8 JX WX))
 *   ssam__conv_tc_sizes<T, M, N, QY, JX, WY, WX> (::smem: a block's shared bytes), _shift, the
 *   tile's staging (ssam__conv_tc_stage16, _stage), the padded weights (ssam__conv_tc_weights,
 *   SSAM__CONV_TC_WEIGHTS), one tile (ssam__conv_tc_tile; _tile_fma where a sum is not finite) and
 *   the kernel body ssam_conv2d_tc_body<MD, M, N, QY, JX, WY, WX>(src, dst, g, w)
 * LIMITS (docs/ssam.md#design-notes-ssamconv_tcblockcuh)
 *   Dynamic shared memory of ::smem bytes (<= 227 KB: the generator's static_assert); the blocks
 *   walk the tiles with the grid's stride (up to 2^31 tiles); sm_80+.
 */
#ifndef SSAM_CONV_TC_BLOCK_CUH
#define SSAM_CONV_TC_BLOCK_CUH

#include <onchip/async.cuh>

#include "../conv.cuh"
#include "warp.cuh"

/* the tile grid's shift: 1 where OFF = (x0 - ax) mod V is odd and V > 2 (docs/ssam.md#conv-tc-design) */
static __host__ __device__ __forceinline__ int ssam__conv_tc_shift(int ax, int V)
{
    return V > 2 ? ((V - ax % V) % V) & 1 : 0;
}

/* a staged row's pitch: 8 mod 32 floats, 8 mod 16 doubles, 8 mod 64 halves (no bank conflict) */
static __host__ __device__ constexpr int ssam__conv_tc_pitch(int es, int tc)
{
    return es == 8   ? tc + ((8 - tc % 16) + 16) % 16
           : es == 4 ? tc + ((8 - tc % 32) + 32) % 32
                     : tc + ((8 - tc % 64) + 64) % 64;
}

/* one instantiation's sizes: block tile BH x BWD, staged tile TR x TC (NCH 16-byte chunks a row,
 * pitch TP), padded weight row WP, NT threads; smem the block's shared bytes; tile and ok the limits */
template <class T, class W, int M, int N, int QY, int JX, int WY, int WX>
struct ssam__conv_tc_sizes {
    enum {
        S8 = SSAM_TC_S8(M), T4 = SSAM_TC_T4(M), WH = 16 * QY, WW = 8 * JX, BH = WH * WY, BWD = WW * WX, TR = BH + N - 1,
        TC = 8 * JX * WX - 8 + 8 * S8 + 4 * T4, VW = SSAM_CONV_V(T), NCH = (TC + 2 * VW - 3) / VW,
        TP = ssam__conv_tc_pitch((int)sizeof(T), NCH * VW), WP = 8 * S8 + 12, NT = 32 * WY * WX,
        tile = QY >= 1 && JX >= 1 && WY >= 1 && WX >= 1 && WY * WX <= 32
    };
    static const size_t smem = (((size_t)N * WP * sizeof(W) + 15) & ~(size_t)15) + (size_t)TR * TP * sizeof(T);
    static const bool ok = tile && smem <= ONCHIP_SMEM_OPTIN_MAX;
};

/* an interior tile: rows [ys, ys + TR) x NCH chunks from column xs into slot, by cp.async
 * (onchip_cp_async_wait_all, then a barrier) */
template <class T, class Z>
static __device__ __forceinline__ void ssam__conv_tc_stage16(T *slot, const T *src, const ssam_conv2d_geom g, int xs, int ys)
{
    const T *b = src + (long long)ys * g.sp + xs;
    for (int i = threadIdx.x; i < Z::TR * Z::NCH; i += Z::NT) {
        const int r = i / Z::NCH, h = i - r * Z::NCH;
        onchip_cp_async16(slot + r * Z::TP + h * Z::VW, b + r * g.sp + h * Z::VW);
    }
}

/* any tile, element by element, borders applied; columns from NC on as 0 (they meet zero weights);
 * 8 loads in flight a thread; why: docs/ssam.md#conv-tc-design */
template <class T, int TR, int TC, int TP, int NC, int NT>
static __device__ __forceinline__ void ssam__conv_tc_stage(T *tile, const T *src, const ssam_conv2d_geom g, int x0, int y0)
{
    for (int i0 = 0; i0 < TR * TC; i0 += 8 * NT) {
        T v[8]; /* 8 loads in flight per thread, then 8 stores */
#pragma unroll
        for (int u = 0; u < 8; u++) {
            const int i = i0 + u * NT + threadIdx.x;
            const int r = i / TC, c = i - r * TC;
            const int iy = ssam_border_index(y0 + r, g.h, g.border);
            const int ix = ssam_border_index(x0 + c, g.w, g.border);
            v[u] = (T)0;
            if (i < TR * TC && c < NC) v[u] = (iy < 0 || ix < 0) ? (T)g.cval : src[(long long)iy * g.sp + ix];
        }
#pragma unroll
        for (int u = 0; u < 8; u++) {
            const int i = i0 + u * NT + threadIdx.x;
            if (i < TR * TC) tile[i / TC * TP + i % TC] = v[u];
        }
    }
}

/* the N filter rows, each padded with 7 zeros before and zeros after to WP elements */
template <class T, int WP, int M, int N, int NT, class WT>
static __device__ __forceinline__ void ssam__conv_tc_weights(T *wpad, const WT &w)
{
    for (int i = threadIdx.x; i < N * WP; i += NT) {
        const int r = i / WP, k = i - r * WP - 7;
        wpad[i] = (k >= 0 && k < M) ? w[r * M + k] : (T)0;
    }
}
#define SSAM__CONV_TC_WEIGHTS(T, wpad, WP, M, N, w, NT) ssam__conv_tc_weights<T, (WP), (M), (N), (NT)>(wpad, w)

/* one tile with plain FMAs in conv.cuh's order, sums in the weights' type W */
template <class T, class W, class Z, int M, int N>
static __device__ __forceinline__ void ssam__conv_tc_tile_fma(const T *tile, const W *wpad, T *dst, const ssam_conv2d_geom g,
                                                              int x0, int y0)
{
    for (int o = threadIdx.x; o < Z::BH * Z::BWD; o += Z::NT) {
        const int ly = o / Z::BWD, lx = o - ly * Z::BWD;
        if (y0 + ly >= g.oh || (unsigned)(x0 + lx) >= (unsigned)g.ow) continue;
        W s = 0;
        for (int n = 0; n < N; n++)
            for (int m = 0; m < M; m++) s = fma(wpad[n * Z::WP + 7 + m], (W)tile[(ly + n) * Z::TP + lx + m], s);
        dst[(long long)(y0 + ly) * g.dp + x0 + lx] = (T)s;
    }
}

/* one tile: the warps' MMAs over the N filter rows; stored where every sum of the block is finite,
 * else computed again with FMAs (every staged value enters some sum, so an Inf or NaN shows) */
template <class MD, class Z, int M, int N, int QY, int JX, int WX>
static __device__ __forceinline__ void ssam__conv_tc_tile(const typename MD::elem_t *tile, const typename MD::weight_t *wpad,
                                                          typename MD::elem_t *dst, const ssam_conv2d_geom g, int x0,
                                                          int y0, int pair)
{
    typedef typename MD::elem_t T;
    typedef typename MD::weight_t W;
    const int lane = threadIdx.x & 31, gq = lane >> 2, cq = lane & 3, warp = threadIdx.x >> 5;
    const int wy = warp / WX, wx = warp % WX;
    typename MD::c_t acc[QY][JX];
#pragma unroll
    for (int q = 0; q < QY; q++)
#pragma unroll
        for (int j = 0; j < JX; j++) ssam_tc_zero(MD(), &acc[q][j]);
    const T *ta = tile + (wy * Z::WH + gq) * Z::TP + wx * Z::WW + 2 * cq;
    const W *wr = wpad + 7 + 2 * cq - gq;
#pragma unroll 1
    for (int i0 = 0; i0 < (N < 8 ? N : 8); i0++)
        ssam_conv_tc_rows8<MD, QY, JX, Z::S8, Z::T4, N>(acc, ta + i0 * Z::TP, Z::TP, wr, Z::WP, i0, cq);
    if (__syncthreads_or(ssam__tc_nonfinite<MD>(acc))) {
        ssam__conv_tc_tile_fma<T, W, Z, M, N>(tile, wpad, dst, g, x0, y0);
        __syncthreads(); /* the tile is the next copy's target */
    } else {
#pragma unroll
        for (int q = 0; q < QY; q++)
#pragma unroll
            for (int j = 0; j < JX; j++)
                ssam_tc_store(MD(), dst, g.dp, y0 + wy * Z::WH + q * 16 + gq, x0 + wx * Z::WW + 8 * j + 2 * cq, g.ow, g.oh,
                              pair, acc[q][j]);
    }
}

/* the kernel body: blocks walk the tiles with the grid's stride */
template <class MD, int M, int N, int QY, int JX, int WY, int WX, class WT>
static __device__ __forceinline__ void ssam_conv2d_tc_body(const typename MD::elem_t *src, typename MD::elem_t *dst,
                                                           const ssam_conv2d_geom g, const WT &w)
{
    typedef typename MD::elem_t T;
    typedef typename MD::weight_t W;
    typedef ssam__conv_tc_sizes<T, W, M, N, QY, JX, WY, WX> Z;
    enum { V = Z::VW };
    extern __shared__ __align__(16) unsigned char ssam__tcsm[];
    W *wpad = (W *)ssam__tcsm;
    T *slot = (T *)(ssam__tcsm + (((N)*Z::WP * sizeof(W) + 15) & ~(size_t)15));
    const int sh = ssam__conv_tc_shift(g.ax, V), off = (V - g.ax % V) % V - sh;
    T *tile = slot + (off & ~1); /* an odd off (no shift): the element copy, from column 0 */
    const int tiles_x = (g.ow + sh + Z::BWD - 1) / Z::BWD;
    const long long tiles = (long long)tiles_x * ((g.oh + Z::BH - 1) / Z::BH);
    ssam__conv_tc_weights<W, Z::WP, M, N, Z::NT>(wpad, w);
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int x0 = (int)(t % tiles_x) * Z::BWD - sh, y0 = (int)(t / tiles_x) * Z::BH;
        const int xs = x0 - g.ax - off, ys = y0 - g.ay; /* xs: V-aligned */
        const bool inside = g.vec && !(off & 1) && ys >= 0 && ys + Z::TR <= g.h && xs >= 0 && xs + Z::NCH * V <= g.w;
        if (inside)
            ssam__conv_tc_stage16<T, Z>(slot, src, g, xs, ys);
        else
            ssam__conv_tc_stage<T, Z::TR, Z::TC, Z::TP, Z::BWD + M - 1, Z::NT>(tile, src, g, xs + off, ys);
        onchip_cp_async_wait_all();
        __syncthreads();
        ssam__conv_tc_tile<MD, Z, M, N, QY, JX, WX>(tile, wpad, dst, g, x0, y0, g.ovec && !sh);
    }
}

#endif /* SSAM_CONV_TC_BLOCK_CUH */
#include <onchip/names_pop.h>
