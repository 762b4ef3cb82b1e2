#include <onchip/names_push.h>
/* ssam/conv/systolic.cuh -- the systolic walk (SSAM Listing 1), any filter: its body ssam_conv2d_body
 * and the realigning row store. */
#ifndef SSAM_CONV_SYSTOLIC_CUH
#define SSAM_CONV_SYSTOLIC_CUH

#include "../regcache.cuh"
#include "../shift.cuh"
#include "geometry.cuh"

/* o[k] = the output V*lane + k of the warp's STEP, from out[] computed with misalignment CS (own
 * lane's out[k + CS], or the next lane's out[k + CS - V] already shifted into nb[]) */
template <int CS, class T, int V>
static __device__ __forceinline__ void ssam__conv_realign(T (&o)[V], const T (&out)[V], const T (&nb)[V])
{
#pragma unroll
    for (int k = 0; k < V; k++) o[k] = (k + CS < V) ? out[(k + CS) % V] : nb[(k + CS) % V];
}

/* o[] from out[] for any misalignment s in [0, V) */
template <class T, int V>
static __device__ __forceinline__ void ssam__conv_realign_s(T (&o)[V], const T (&out)[V], const T (&nb)[V], int s)
{
    if (V <= 4) {
        switch (s) {
        case 0: ssam__conv_realign<0>(o, out, nb); break;
        case 1: ssam__conv_realign<1>(o, out, nb); break;
        case 2: ssam__conv_realign<2>(o, out, nb); break;
        default: ssam__conv_realign<3>(o, out, nb); break;
        }
    } else {
        switch (s) {
        case 0: ssam__conv_realign<0>(o, out, nb); break;
        case 1: ssam__conv_realign<1>(o, out, nb); break;
        case 2: ssam__conv_realign<2>(o, out, nb); break;
        case 3: ssam__conv_realign<3>(o, out, nb); break;
        case 4: ssam__conv_realign<4>(o, out, nb); break;
        case 5: ssam__conv_realign<5>(o, out, nb); break;
        case 6: ssam__conv_realign<6>(o, out, nb); break;
        default: ssam__conv_realign<7>(o, out, nb); break;
        }
    }
}

/* one output row: out[k] of lane l is output V l + k - s of the warp's STEP columns from X0; 16-byte
 * stores after a realigning shuffle where VST and ovec, else element by element.  The lane is read
 * here, not passed in: why: docs/ssam.md#conv-store */
template <class TS, int STEP, int VST, class T, int V>
static __device__ __forceinline__ void ssam__conv_store_row(TS *drow, const T (&out)[V], int ovec, int s, int X0, int ow)
{
    const int lane = threadIdx.x & 31;
    if (VST && ovec) {
        /* lane l takes outputs X0+V*l .. +V-1 (its own out[k+s] and the next lane's out[k+s-V]) */
        T nb[V], o[V];
#pragma unroll
        for (int k = 0; k < V; k++) nb[k] = ssam_shift_down(out[k], 1);
        ssam__conv_realign_s(o, out, nb, s);
        const int u0 = V * lane;
        if (u0 + V <= STEP && X0 + u0 + V <= ow) {
            ssam_vec<TS, V> q;
#pragma unroll
            for (int k = 0; k < V; k++) q.v[k] = (TS)o[k];
            *(ssam_vec<TS, V> *)(drow + X0 + u0) = q;
        } else {
#pragma unroll
            for (int k = 0; k < V; k++)
                if (u0 + k < STEP && X0 + u0 + k < ow) drow[X0 + u0 + k] = (TS)o[k];
        }
    } else {
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int u = V * lane + k - s; /* output offset within this warp's STEP */
            if (u >= 0 && u < STEP && X0 + u < ow) drow[X0 + u] = (TS)out[k];
        }
    }
}

/* The systolic body: a warp owns STEP output columns and the rows [Ys, Ye) of one segment, a window
 * of P+N-1 rows x 32V columns in registers, P rows loaded a chunk; the segment's rows mapped through
 * the border into a shared table first ((g.seg + N - 1 + P) ints).  TS storage, T arithmetic.
 * VST (vector stores): why: docs/ssam.md#conv-store */
template <class TS, class T, int M, int N, int P, int B, class W>
static __device__ __forceinline__ void ssam_conv2d_body(const TS *src, TS *dst, const ssam_conv2d_geom &g, const W &w)
{
    enum { V = SSAM_CONV_V(TS), R = P + N - 1, STEP = SSAM_CONV_STEP(TS, M), VST = M <= 4 || M * N <= 9 };
    enum { RAW = sizeof(TS) < sizeof(T) }; /* half types prefetch raw: converted where they are used */
    extern __shared__ int ssam__rowtab[];
    const int Ys = blockIdx.y * g.seg;
    const int Ye = min(Ys + g.seg, g.oh);
    for (int i = threadIdx.x; i < g.seg + N - 1 + P; i += B)
        ssam__rowtab[i] = ssam_border_index(Ys - g.ay + i, g.h, g.border);
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * (B / 32) + (threadIdx.x >> 5)) * STEP;
    if (X0 >= g.ow) return;                   /* whole warps only: the shuffles need every lane */
    const int xa = X0 - g.ax;                 /* input column of output X0's first tap */
    const int xi = xa - (((xa % V) + V) % V); /* the warp's first cached column, aligned */
    const int s = xa - xi;                    /* local column of output X0 */
    const int x = xi + V * lane;
    const T cval = (T)g.cval;
    int cx[V], in;
    T data[V][R], nxt[V][P], out[V];
    uint4 nraw[P];
    ssam_regcache_columns<V>(cx, in, x, g.w, g.border, g.vec);
    if constexpr (RAW) { /* every row the same way: a constant border too is rounded to the storage type */
        uint4 praw[N > 1 ? N - 1 : 1];
        ssam_regcache_rows_raw<N - 1, TS, V>(praw, 0, src, g.sp, x, cx, in, ssam__rowtab, cval);
        ssam_regcache_unpack<N - 1, TS>(data, 0, praw, 0);
        ssam_regcache_rows_raw<P, TS, V>(nraw, 0, src, g.sp, x, cx, in, ssam__rowtab + N - 1, cval);
    } else {
        if (N > 1) ssam_regcache_rows_as<N - 1, TS, T>(data, 0, src, g.sp, x, cx, in, ssam__rowtab, cval);
        ssam_regcache_rows_as<P, TS, T>(nxt, 0, src, g.sp, x, cx, in, ssam__rowtab + N - 1, cval);
    }
#pragma unroll 1
    for (int y0 = Ys; y0 < Ye; y0 += P) {
        /* the next chunk's loads fly while this one's FMAs run */
        const int *rn = ssam__rowtab + (y0 - Ys) + N - 1 + P;
        if constexpr (RAW) {
            ssam_regcache_unpack<P, TS>(data, N - 1, nraw, 0);
            ssam_regcache_rows_raw<P, TS, V>(nraw, 0, src, g.sp, x, cx, in, rn, cval);
        } else {
#pragma unroll
            for (int r = 0; r < P; r++)
#pragma unroll
                for (int j = 0; j < V; j++) data[j][N - 1 + r] = nxt[j][r];
            ssam_regcache_rows_as<P, TS, T>(nxt, 0, src, g.sp, x, cx, in, rn, cval);
        }
#pragma unroll
        for (int p = 0; p < P; p++) {
            ssam_systolic_row_op<T, V, M, N>(out, data, p, w, (T)0, ssam_op_fma());
            if (y0 + p < Ye) ssam__conv_store_row<TS, STEP, VST>(dst + (long long)(y0 + p) * g.dp, out, g.ovec, s, X0, g.ow);
        }
        ssam_regcache_slide<N - 1, P>(data);
    }
}

#endif /* SSAM_CONV_SYSTOLIC_CUH */
#include <onchip/names_pop.h>
