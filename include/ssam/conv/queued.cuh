#include <onchip/names_push.h>
/* ssam/conv/queued.cuh -- the queued walk (small filters): lanes own their columns, D raw rows in
 * flight, partial sums along y (SSAM 4.3); its body ssam_conv2d_qbody.  Which filters: docs/ssam.md#conv-queued */
#ifndef SSAM_CONV_QUEUED_CUH
#define SSAM_CONV_QUEUED_CUH

#include "../regcache.cuh"
#include "../shift.cuh"
#include "geometry.cuh"

#define SSAM__CONV_QOK(TS, M, N)                                                                           \
    ((sizeof(TS) == 2 && (M) <= 9 && (N) <= 9) || (sizeof(TS) == 4 && (M) <= 7 && (N) <= 7 && (M) * (N) >= 25))
/* rows in flight per lane; why: docs/ssam.md#conv-queued */
#define SSAM__CONV_QD(TS, M, N) ((sizeof(TS) == 2 && (M) * (N) > 25) ? 2 : 4)

/* a queued lane's loads, passed by const reference (the arrays cx, ce apart) */
template <class TS>
struct ssam__conv_qlane {
    const TS *src;  /* the input, rows sp elements apart */
    long long sp;
    int x;          /* the lane's first column */
    int vec_ok;     /* 1: its columns x .. x+V-1 are one aligned 16-byte load (in) */
    int edge;       /* 1: lanes 0 and 31, which load the halo columns */
    TS cval;        /* the constant outside, and its bits */
    unsigned cbits;
};

/* one row into the queue: q the lane's raw columns x .. x+V-1, qe[E] the bits of the halo columns
 * ce[] (lanes 0 and 31: edge); *rows the mapped row (-1: cval, bits cbits).  Raw words, and not
 * ssam_regcache_rows_raw: why: docs/ssam.md#conv-queued */
template <class TS, int V, int E>
static __device__ __forceinline__ void ssam__conv_qload(uint4 &q, unsigned (&qe)[E], const ssam__conv_qlane<TS> &ql,
                                                        const int *rows, const int (&cx)[V], const int (&ce)[E])
{
    /* the members read, as locals read before any store (docs/ssam.md#tb-context-structs) */
    const TS *const src = ql.src;
    const long long sp = ql.sp;
    const int x = ql.x, in = ql.vec_ok, edge = ql.edge;
    const TS cval = ql.cval;
    const unsigned cbits = ql.cbits;
    const int yy = *rows;
    const TS *row = src + (long long)(yy < 0 ? 0 : yy) * sp;
    if (in && yy >= 0) {
        q = *(const uint4 *)(row + x);
    } else {
        ssam_rawu<TS, V> u;
#pragma unroll
        for (int j = 0; j < V; j++) u.t[j] = (yy < 0 || cx[j] < 0) ? cval : row[cx[j]];
        q = u.r;
    }
    if (edge) {
#pragma unroll
        for (int e = 0; e < E; e++) qe[e] = (yy < 0 || ce[e] < 0) ? cbits : ssam_regcache_bits<TS>(row + ce[e]);
    }
}

/* r[HL + V + HR] (float) = the row's columns x-HL .. x+V+HR-1: the lane's own V converted once, the
 * halo from the neighbour lanes, or for lanes 0 / 31 from qe[] */
template <class TS, int V, int HL, int HR, int E>
static __device__ __forceinline__ void ssam__conv_qrow(float (&r)[HL + V + HR], uint4 q, const unsigned (&qe)[E], int lane)
{
    ssam_rawu<TS, V> u;
    u.r = q;
#pragma unroll
    for (int j = 0; j < V; j++) r[HL + j] = (float)u.t[j];
#pragma unroll
    for (int j = 0; j < HL; j++) {
        const float v = ssam_shift_up(r[V + j], 1); /* lane-1's column V-HL+j */
        const float o = ssam_regcache_from_bits<TS, float>(qe[j]);
        r[j] = lane == 0 ? o : v;
    }
#pragma unroll
    for (int j = 0; j < HR; j++) {
        const float v = ssam_shift_down(r[HL + j], 1); /* lane+1's column j */
        const float o = ssam_regcache_from_bits<TS, float>(qe[j]);
        r[HL + V + j] = lane == 31 ? o : v;
    }
}

/* row r[] adds tap row n to the output n rows above: out[] completes, acc[j] = acc[j+1] + ..., and
 * acc[N-2] starts the output whose first row this is.  N M V FMAs. */
template <int V, int M, int N, int NA, class W>
static __device__ __forceinline__ void ssam__conv_qacc(float (&acc)[NA][V], float (&out)[V], const float (&r)[V + M - 1],
                                                       const W &w)
{
#pragma unroll
    for (int k = 0; k < V; k++) {
        float s = N > 1 ? acc[0][k] : 0.f;
#pragma unroll
        for (int m = 0; m < M; m++) s = fmaf(w[(N - 1) * M + m], r[k + m], s);
        out[k] = s;
#pragma unroll
        for (int a = 0; a + 2 < N; a++) {
            float t = acc[a + 1][k];
#pragma unroll
            for (int m = 0; m < M; m++) t = fmaf(w[(N - 2 - a) * M + m], r[k + m], t);
            acc[a][k] = t;
        }
        if (N > 1) {
            float t = w[0] * r[k];
#pragma unroll
            for (int m = 1; m < M; m++) t = fmaf(w[m], r[k + m], t);
            acc[N > 1 ? N - 2 : 0][k] = t;
        }
    }
}

/* out[V] to the lane's columns x .. x+V-1 of drow: one 16-byte store inside the output, else
 * element by element up to the width */
template <class TS, int V>
static __device__ __forceinline__ void ssam__conv_qstore(TS *drow, const float (&out)[V], int x, int ow, int ovec)
{
    if (ovec && x + V <= ow) {
        ssam_rawu<TS, V> o;
#pragma unroll
        for (int j = 0; j < V; j++) o.t[j] = (TS)out[j];
        *(uint4 *)(drow + x) = o.r;
    } else {
#pragma unroll
        for (int j = 0; j < V; j++)
            if (x + j < ow) drow[x + j] = (TS)out[j];
    }
}

/* The queued body: a warp owns 32V output columns and rows [Ys, Ye), walks the Ye-Ys+N-1 input rows
 * D at a time (the next D in flight), stores each output row as its last tap row arrives; the row
 * table holds (g.seg + N - 1 + 2 D) ints. */
template <class TS, int M, int N, int D, int B, class W>
static __device__ __forceinline__ void ssam_conv2d_qbody(const TS *src, TS *dst, const ssam_conv2d_geom &g, const W &w)
{
    enum { V = SSAM_CONV_V(TS), HL = (M - 1) / 2, HR = M - 1 - HL, E = HR > 0 ? HR : 1, NA = N > 1 ? N - 1 : 1 };
    extern __shared__ int ssam__rowtab[];
    const int Ys = blockIdx.y * g.seg;
    const int Ye = min(Ys + g.seg, g.oh);
    const int nrow = Ye - Ys + N - 1; /* input rows the segment reads */
    for (int i = threadIdx.x; i < g.seg + N - 1 + 2 * D; i += B)
        ssam__rowtab[i] = ssam_border_index(Ys - g.ay + i, g.h, g.border);
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * (B / 32) + (threadIdx.x >> 5)) * 32 * V;
    if (X0 >= g.ow) return; /* whole warps only: the shuffles need every lane */
    const int x = X0 + V * lane;
    const int edge = lane == 0 || lane == 31;
    const TS cval = (TS)(float)g.cval;
    union {
        unsigned u;
        TS t;
    } cb;
    cb.u = 0;
    cb.t = cval;
    const unsigned cbits = cb.u;
    int cx[V], ce[E], in;
    ssam_regcache_columns<V>(cx, in, x, g.w, g.border, g.vec);
#pragma unroll
    for (int e = 0; e < E; e++) /* lane 0: x-HL .. x-1; lane 31: x+V .. x+V+HR-1 */
        ce[e] = ssam_border_index(lane == 0 ? x - HL + e : x + V + e, g.w, g.border);
    uint4 q[D];
    unsigned qe[D][E];
    float acc[NA][V];
#pragma unroll
    for (int a = 0; a < NA; a++)
#pragma unroll
        for (int k = 0; k < V; k++) acc[a][k] = 0.f;
    const ssam__conv_qlane<TS> ql = {src, g.sp, x, in, edge, cval, cbits};
#pragma unroll
    for (int p = 0; p < D; p++) ssam__conv_qload<TS, V, E>(q[p], qe[p], ql, ssam__rowtab + p, cx, ce);
#pragma unroll 1
    for (int i0 = 0; i0 < nrow; i0 += D) {
#pragma unroll
        for (int p = 0; p < D; p++) {
            float r[HL + V + HR], out[V];
            ssam__conv_qrow<TS, V, HL, HR>(r, q[p], qe[p], lane);
            ssam__conv_qload<TS, V, E>(q[p], qe[p], ql, ssam__rowtab + i0 + p + D, cx, ce);
            ssam__conv_qacc<V, M, N>(acc, out, r, w);
            const int o = Ys + i0 + p - (N - 1); /* the output row completed */
            if (o >= Ys && o < Ye) ssam__conv_qstore<TS, V>(dst + (long long)o * g.dp, out, x, g.ow, g.ovec);
        }
    }
}

#endif /* SSAM_CONV_QUEUED_CUH */
#include <onchip/names_pop.h>
