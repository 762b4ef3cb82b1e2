#include <onchip/names_push.h>
/* perks/stencil/body3d.cuh -- the 3D persistent kernel's body, perks_stencil3d<T, S, BX, BY, RC>(a, b,
 * ea, eb, W, H, D, steps, ntiles, tiles_x, tiles_y, TH, nc, w): the body of PERKS_STENCIL3D_DEFINE's
 * name_kernel, every step of the run (one launch a step where steps is 1 and nc 0), and
 * perks__s3d_sizes<S, BX, BY, RC>, the sizes it and the plans share.  S is a shape type
 * (ONCHIP_SHAPE3D_TYPE); w points to one coefficient a point.  Limits: PERKS_STENCIL3D_DEFINE's
 * (perks/stencil3d.cuh).
 */
#ifndef PERKS_STENCIL_BODY3D_CUH
#define PERKS_STENCIL_BODY3D_CUH

#ifndef __CUDACC_RTC__
#include <stddef.h>
#endif

#include "../cache.cuh"
#include "../grid.cuh"
#include "shapes.cuh"

/* an instantiation's sizes: r the radius, wx = BX + 2r a framed plane's row, pp its cells, nt the
 * threads, npf the ring cells a thread loads per chunk */
template <class S, int BX, int BY, int RC>
struct perks__s3d_sizes {
    enum {
        r = S::rmax,
        wx = BX + 2 * S::rmax,
        pp = (BX + 2 * S::rmax) * (BY + 2 * S::rmax),
        nt = BX * BY,
        npf = (RC * (BX + 2 * S::rmax) * (BY + 2 * S::rmax) + BX * BY - 1) / (BX * BY)
    };
};

/* ---- the kernel: the body of name_kernel, its steps written out (docs/perks.md#kernel-bodies) */
#ifdef __CUDACC_RTC__
/* under NVRTC the fold calls this functor, not a generic lambda: docs/onchip.md#nvrtc-functors */
template <class T, int R, int WX>
struct perks__s3d_taps_f {
    T &acc;
    const T *w;
    const T *src;
    int own, k;
    template <class P>
    __device__ __forceinline__ void operator()(P) const
    {
        if (P::dz == R - k) acc = fma(w[P::i], src[own + P::dy * WX + P::dx], acc);
    }
};
#endif
/* the ring's pieces: chunk ch's uncached planes of the framed tile into the thread's registers pf
 * (NPF cells; ch is CH where CH >= 0, else c), and pf into ring half ch & 1; k the tile's context */
template <class T>
struct perks__s3d_ring {
    const T *in;
    int tid, x0, y0, z0, the, nce, W, H, D;
};
template <class T, int R, int RC, int WX, int PP, int NT, int NPF, int CH = -1>
static __device__ __forceinline__ void perks__s3d_load(T (&pf)[NPF], const perks__s3d_ring<T> &k, const int &c = 0)
{
    const int ch = CH >= 0 ? CH : c;
    const T *in = k.in;
    const int tid = k.tid, x0 = k.x0, y0 = k.y0, z0 = k.z0, the = k.the, nce = k.nce, W = k.W, H = k.H, D = k.D;
#pragma unroll
    for (int j = 0; j < NPF; j++) {
        const int i = tid + j * NT;
        T v = (T)0;
        if (i < RC * PP) {
            const int pl = i / PP, rem = i - pl * PP, wy = rem / WX, wx = rem - wy * WX;
            const int p = ch * RC - R + pl, gz = z0 + p;
            const int gy = y0 - R + wy, gx = x0 - R + wx;
            if ((p < 0 || p >= nce) && p < the + R && gz >= 0 && gz < D && gy >= 0 && gy < H && gx >= 0 && gx < W)
                v = in[((size_t)gz * H + gy) * W + gx];
        }
        pf[j] = v;
    }
}
template <class T, int RC, int PP, int NT, int NPF>
static __device__ __forceinline__ void perks__s3d_store(T *ring, const T (&pf)[NPF], const int &tid, const int &ch)
{
#pragma unroll
    for (int j = 0; j < NPF; j++) {
        const int i = tid + j * NT;
        if (i < RC * PP) ring[(ch & 1) * RC * PP + i] = pf[j];
    }
}
template <class T, class S, int BX, int BY, int RC>
static __device__ __forceinline__ void perks_stencil3d(T *a, T *b, T *ea, T *eb, int W, int H, int D, int steps,
                                                       int ntiles, int tiles_x, int tiles_y, int TH, int nc, const T *w)
{
    typedef perks__s3d_sizes<S, BX, BY, RC> Z;
    enum { R = S::rmax, WX = Z::wx, PP = Z::pp, NT = Z::nt, NPF = Z::npf };
    const int tid = (int)threadIdx.x;
    const int tx = tid % BX, ty = tid / BX;
    const int own = (ty + R) * WX + tx + R;
    extern __shared__ __align__(16) unsigned char perks__s3d_dyn[];
    T *ring = (T *)perks__s3d_dyn;
    T *cache0 = ring + 2 * RC * PP;
    {
        int s = 0;
        for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x, s++) {
            const int tix = tile % tiles_x, tiy = (tile / tiles_x) % tiles_y, tiz = tile / (tiles_x * tiles_y);
            const int x = tix * BX + tx, y = tiy * BY + ty, z0 = tiz * TH;
            const int nce = min(nc, D - z0);
            T *cache = cache0 + (size_t)s * nc * PP;
            for (int o = 0; o < nce; o++)
                cache[o * PP + own] = (x < W && y < H) ? a[((size_t)(z0 + o) * H + y) * W + x] : (T)0;
        }
    }
    PERKS_FOR_STEPS(t, steps)
    {
        PERKS__STEP_ARRAYS(T, t, steps, a, b, ea, eb);
        int s = 0;
        for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x, s++) {
            const int tix = tile % tiles_x, tiy = (tile / tiles_x) % tiles_y, tiz = tile / (tiles_x * tiles_y);
            const int x0 = tix * BX, y0 = tiy * BY, z0 = tiz * TH;
            const int the = min(TH, D - z0);
            const int nce = min(nc, the);
            const int x = x0 + tx, y = y0 + ty;
            const int xyin = x < W && y < H;
            const int xyint = x >= R && x < W - R && y >= R && y < H - R;
            const int has_l = tix > 0, has_r = tix < tiles_x - 1;
            const int ylen = nce * BY;
            T *cache = cache0 + (size_t)s * nc * PP;
            T pf[NPF];
            /* (1) the frame of the cached planes: x sides from the edge buffers (step 0: the input), y
             * sides with the corners from the domain array */
            for (int i = tid; i < 2 * R * ylen; i += NT) {
                const int side = i >= R * ylen, j = i - side * R * ylen;
                const int k = j / ylen, q = j - k * ylen, o = q / BY, yy = q - o * BY;
                const int gx = side ? x0 + BX + k : x0 - R + k, gy = y0 + yy;
                T v = (T)0;
                if (gx >= 0 && gx < W && gy < H)
                    v = t == 0 ? in[((size_t)(z0 + o) * H + gy) * W + gx]
                               : ein[PERKS_EDGE_INDEX(tile + (side ? 1 : -1), 1 - side, k, q, R, TH * BY)];
                cache[o * PP + (yy + R) * WX + (side ? BX + R + k : k)] = v;
            }
            for (int i = tid; i < 2 * R * nce * WX; i += NT) {
                const int n1 = R * nce * WX;
                const int side = i >= n1, j = i - side * n1;
                const int k = j / (nce * WX), q = j - k * (nce * WX);
                const int o = q / WX, wx = q - o * WX;
                const int wy = side ? BY + R + k : k;
                const int gy = y0 - R + wy, gx = x0 - R + wx;
                T v = (T)0;
                if (gx >= 0 && gx < W && gy >= 0 && gy < H) v = in[((size_t)(z0 + o) * H + gy) * W + gx];
                cache[o * PP + wy * WX + wx] = v;
            }
            /* (2) the pass */
            const perks__s3d_ring<T> rk = {in, tid, x0, y0, z0, the, nce, W, H, D};
            const int nch = (the + 2 * R + RC - 1) / RC;
            if (((0) * RC < R || min(((0) + 1) * RC - R, the + R) > nce)) {
                perks__s3d_load<T, R, RC, WX, PP, NT, NPF, 0>(pf, rk);
                perks__s3d_store<T, RC, PP, NT, NPF>(ring, pf, tid, 0);
            }
            if (nch > 1 && ((1) * RC < R || min(((1) + 1) * RC - R, the + R) > nce)) {
                perks__s3d_load<T, R, RC, WX, PP, NT, NPF, 1>(pf, rk);
            }
            __syncthreads();
            T acc[2 * R + 1];
            T hist[R + 1];
#pragma unroll
            for (int k = 0; k < 2 * R + 1; k++) acc[k] = (T)0;
#pragma unroll
            for (int k = 0; k < R + 1; k++) hist[k] = (T)0;
#pragma unroll 1
            for (int c = 0; c < nch; c++) {
                T ov[RC];
                if (c + 1 < nch && ((c + 1) * RC < R || min(((c + 1) + 1) * RC - R, the + R) > nce)) {
                    perks__s3d_store<T, RC, PP, NT, NPF>(ring, pf, tid, c + 1);
                }
                if (c + 2 < nch && ((c + 2) * RC < R || min(((c + 2) + 1) * RC - R, the + R) > nce)) {
                    perks__s3d_load<T, R, RC, WX, PP, NT, NPF>(pf, rk, c + 2);
                }
#pragma unroll
                for (int j = 0; j < RC; j++) {
                    const int p = c * RC - R + j;
                    const T *src = (p >= 0 && p < nce) ? cache + p * PP : ring + (((c)&1) * RC + j) * PP;
#pragma unroll
                    for (int k = 0; k < R; k++) hist[k] = hist[k + 1];
                    hist[R] = src[own];
#pragma unroll
                    for (int k = 0; k < 2 * R + 1; k++) {
#ifndef __CUDACC_RTC__
                        onchip_shape_each(S(), [&](auto pt) {
                            typedef decltype(pt) P;
                            if (P::dz == R - k) acc[k] = fma(w[P::i], src[own + P::dy * WX + P::dx], acc[k]);
                        });
#else
                        onchip_shape_each(S(), perks__s3d_taps_f<T, R, WX>{acc[k], w, src, own, k});
#endif
                    }
                    {
                        const int gz = z0 + p - R;
                        ov[j] = (xyint && gz >= R && gz < D - R) ? acc[0] : hist[0];
                    }
#pragma unroll
                    for (int k = 0; k < 2 * R; k++) acc[k] = acc[k + 1];
                    acc[2 * R] = (T)0;
                }
                __syncthreads();
                if (xyin)
#pragma unroll
                    for (int j = 0; j < RC; j++) {
                        const int o = c * RC - 2 * R + j;
                        if (o >= 0 && o < the) {
                            const int cached = o < nce;
                            if (cached) cache[o * PP + own] = ov[j];
                            if (last || !cached || o < R || o >= the - R || ty < R || ty >= BY - R)
                                out[((size_t)(z0 + o) * H + y) * W + x] = ov[j];
                        }
                    }
            }
            __syncthreads();
            /* (3) the cached planes' x edges, transposed, for the neighbours' next step */
            if (!last)
                for (int i = tid; i < 2 * R * ylen; i += NT) {
                    const int side = i >= R * ylen, j = i - side * R * ylen;
                    const int k = j / ylen, q = j - k * ylen, o = q / BY, yy = q - o * BY;
                    if ((side ? has_r : has_l) && y0 + yy < H)
                        eout[PERKS_EDGE_INDEX(tile, side, k, q, R, TH * BY)] =
                            cache[o * PP + (yy + R) * WX + (side ? BX - R + k : k) + R];
                }
        }
        if (!last) PERKS_GRID_SYNC();
    }
}

#endif /* PERKS_STENCIL_BODY3D_CUH */
#include <onchip/names_pop.h>
