#include <onchip/names_push.h>
/* ssam/shift.cuh -- partial sums moved between lanes: the systolic step of SSAM (section 4.4).
 *
 * WHAT
 *   A systolic array's processing element computes s <- r (x) x (+) s and passes s on (eq. 1).  In
 *   SSAM a lane is a column of processing elements: it multiplies its cached inputs by filter
 *   weights and hands the partial sum to the next lane with a shuffle, so an M-wide filter costs
 *   M-1 shuffles per output instead of M*N shared-memory reads (eq. 5).
 *
 *   ssam_shift_down(v, d) / ssam_shift_up(v, d): lane l receives lane l+d's / l-d's v (lanes whose
 *   source is outside the warp keep their own v).  Any d in 1..31, any 4- or 8-byte T.
 *
 *   SSAM_SYSTOLIC_ROW(T, V, M, N, out, data, p, w): one output row of an M-wide, N-high
 *   correlation from a register cache data[V][R] (regcache.cuh) whose lanes each hold V adjacent
 *   columns.  out[k] of lane l is the output whose first tap (filter column 0) is the warp's local
 *   column V*l + k, using cached rows p .. p+N-1 and weights w[n*M + m] (row n, column m).  The
 *   partial sums travel down the warp, one lane per step, starting from the lane farthest away
 *   (Horner's scheme over lane distance): DMAX = (M + V - 2) / V steps of V shuffles each.
 *   Outputs whose taps run past lane 31 (local column > 32V - M) are incomplete: the caller does
 *   not store them (overlapped blocking, section 4.5).  Every lane executes the same instructions.
 *
 *   SSAM_SYSTOLIC_ROW_OP(T, V, M, N, out, data, p, w, INIT, OP): the same step with the combine
 *   operation as a parameter -- the URE form s <- s (+) (r (x) x) of the paper's eq. 1:
 *       out[k] = INIT;  for every tap (m, n):  out[k] = OP(out[k], data[.][p + n], w[n*M + m])
 *   in the same tap order and with the same shuffles.  OP(acc, x, w) is the NAME of a macro or a
 *   static __device__ __forceinline__ function taking three T and returning the new accumulator;
 *   INIT is OP's identity (what an empty window gives).  SSAM_SYSTOLIC_ROW is this step with
 *   SSAM_OP_FMA and INIT 0.  Ready operators (max/min results are exact, whatever the order):
 *       SSAM_OP_FMA      fma(x, w, acc)        correlation                      INIT 0
 *       SSAM_OP_MAX_ADD  fmax(acc, x + w)      grey dilation by a structuring    INIT -INFINITY
 *                                              function w (w = 0: a flat max filter; w = -INFINITY:
 *                                              a tap outside the structuring element)
 *       SSAM_OP_MIN_SUB  fmin(acc, x - w)      grey erosion (w = 0: a min filter; INIT INFINITY
 *                                              w = -INFINITY: a tap left out)
 *   An operator of one's own: the step folds the taps in a fixed order of its own (filter columns
 *   from far lanes to near ones, rows n = 0 .. N-1 inside a column), so an associative and
 *   commutative OP (max, min, integer sums) equals any loop over the taps exactly, a floating-point
 *   sum up to rounding; an OP that depends on the order is not a fit.  E.g.
 *       #define MY_MINPLUS(acc, x, w) fmin((acc), (x) + (w))    // tropical (min, +): INIT INFINITY
 *       #define MY_COUNT(acc, x, w) ((acc) + ((x) > 0.5f && (w) != 0.f))  // live neighbours: INIT 0
 *       static __device__ __forceinline__ float my_absdiff(float a, float x, float w)
 *       { return a + fabsf(x - w); }                   // template matching (SAD): INIT 0
 *   OP is applied to the partial result of every lane, including lanes whose outputs the caller
 *   discards, so it must not trap or have side effects; NaN follows fmax/fmin (a NaN input is
 *   ignored where another tap is a number).
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
 *   V*M*N OPs (FMAs; an add and a max for MAX_ADD) and V*DMAX shuffles per lane and output row;
 *   V registers for out[] besides the cache; w should be a compile-time-indexed
 *   array in kernel parameters or constant memory, so each FMA reads its weight as an operand.
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

/* lane l receives lane l+d's (down) or l-d's (up) v; lanes whose source lies outside the warp keep
 * their own */
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

/* The systolic step with the operator as a parameter: out[k] = init, then out[k] = op(out[k], x, w)
 * for every tap (x the cached input data[j][p + n], w its weight w[n * M + m]), the partial results
 * moving down the warp one lane per step, from the farthest lane to the nearest.  w is any array or
 * pointer indexable with a constant (kernel parameters, constant memory). */
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
