#include <onchip/names_push.h>
/* ssam/shift.cuh -- partial sums moved between lanes: the systolic step of SSAM (section 4.4).
 *
 * WHAT (docs/pieces.md#ssam-the-register-cache-and-the-systolic-step)
 *   A lane is a column of processing elements that hands its partial sum on with a shuffle.
 *   ssam_shift_down(v, d) / ssam_shift_up(v, d): lane l receives lane l+d's / l-d's v.
 *   SSAM_SYSTOLIC_ROW(T, V, M, N, out, data, p, w): one output row of an M-wide, N-high correlation
 *   from a register cache data[V][R]: out[k] of lane l is the output whose filter column 0 is the
 *   warp's local column V*l + k, from rows p .. p+N-1 and weights w[n*M + m].  Outputs at local
 *   columns > 32V - M are incomplete: the caller does not store them.
 *   SSAM_SYSTOLIC_ROW_OP(T, V, M, N, out, data, p, w, INIT, OP): the same with the combine as a
 *   parameter: out[k] = INIT, then OP(out[k], x, w) for every tap.  OP is the NAME of a macro or of a
 *   static __device__ function of three T (SSAM_OP_FMA, _MAX_ADD, _MIN_SUB below), INIT its
 *   identity; OP runs on lanes whose outputs are discarded too: no traps, no side effects.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#pieces-glossary.
 *
 * EXAMPLE (Listing 1 of the paper with V columns per lane)
 *   [not compiled: a piece of a kernel with the stores elided]
 *     float data[4][P + N - 1], out[4];
 *     SSAM_REGCACHE_LOAD(float, 4, P + N - 1, data, src, pitch, x, y, w, h, border, 0.f, vec);
 *     for (int p = 0; p < P; p++) {           // unrolled: P is a constant
 *         SSAM_SYSTOLIC_ROW(float, 4, M, N, out, data, p, weights);
 *         ... store out[0..3] for the lanes whose outputs are complete ...
 *     }
 *     ... or a 3x3 max filter (grey dilation by a flat square), weights all 0:
 *         SSAM_SYSTOLIC_ROW_OP(float, 4, 3, 3, out, data, p, zeros, -INFINITY, SSAM_OP_MAX_ADD);
 * COST
 *   V*M*N OPs and V*DMAX shuffles per lane and output row (docs/ssam.md#design-notes-ssamshiftcuh).
 */
#ifndef SSAM_SHIFT_CUH
#define SSAM_SHIFT_CUH

#ifndef __CUDACC_RTC__
#include <math.h> /* INFINITY for the operators' identities */
#elif !defined(INFINITY)
/* NVRTC has no math.h; <cuda/std/cmath> defines INFINITY too (include it first if you use it) */
#define INFINITY __int_as_float(0x7f800000)
#endif

#include "base.cuh"

/* lane l receives lane l+d's (down) or l-d's (up) v, d in 1..31; lanes whose source lies outside
 * the warp keep their own */
template <class T>
static __device__ __forceinline__ T ssam_shift_down(T v, int d)
{
    return __shfl_down_sync(SSAM__FULL, v, d);
}
template <class T>
static __device__ __forceinline__ T ssam_shift_up(T v, int d)
{
    return __shfl_up_sync(SSAM__FULL, v, d);
}

/* The ready operators: OP(acc, x, w) returns the new accumulator (acc, x, w are all T). */
#define SSAM_OP_FMA(acc, x, w) fma((x), (w), (acc))         /* correlation; INIT 0 */
#define SSAM_OP_MAX_ADD(acc, x, w) fmax((acc), (x) + (w))   /* grey dilation; INIT -INFINITY */
#define SSAM_OP_MIN_SUB(acc, x, w) fmin((acc), (x) - (w))   /* grey erosion; INIT INFINITY */

/* the systolic step with the operator as a parameter (the usage block) */
template <class T, int V, int M, int N, int R, class W, class Op>
static __device__ __forceinline__ void ssam_systolic_row_op(T (&out)[V], T (&data)[V][R], int p, const W &w, T init, Op op)
{
    enum { DMAX = (M + V - 2) / V };
#pragma unroll
    for (int k = 0; k < V; k++) out[k] = init;
#pragma unroll
    for (int d = DMAX; d >= 0; d--) {
        if (d < DMAX) {
#pragma unroll
            for (int k = 0; k < V; k++) out[k] = ssam_shift_down(out[k], 1);
        }
#pragma unroll
        for (int k = 0; k < V; k++) {
#pragma unroll
            for (int j = 0; j < V; j++) {
                const int m = V * d + j - k;
                if (m >= 0 && m < M) {
#pragma unroll
                    for (int n = 0; n < N; n++) out[k] = op(out[k], data[j][p + n], w[n * M + m]);
                }
            }
        }
    }
}
#define SSAM_SYSTOLIC_ROW_OP(T, V, M, N, out, data, p, w, INIT, OP)                                          \
    ssam_systolic_row_op<T, V, M, N>(out, data, p, w, (T)(INIT),                                           \
                                     [&](T ssam__a, T ssam__x, T ssam__w) -> T { return OP(ssam__a, ssam__x, ssam__w); })

/* the multiply-add step (correlation) of SSAM Listing 1 */
struct ssam_op_fma {
    template <class T, class U>
    __device__ __forceinline__ T operator()(T acc, T x, U w) const
    {
        return fma(x, w, acc);
    }
};
#define SSAM_SYSTOLIC_ROW(T, V, M, N, out, data, p, w) ssam_systolic_row_op<T, V, M, N>(out, data, p, w, (T)0, ssam_op_fma())

#endif /* SSAM_SHIFT_CUH */
#include <onchip/names_pop.h>
