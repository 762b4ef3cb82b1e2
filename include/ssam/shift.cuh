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
 * EXAMPLE (Listing 1 of the paper with V columns per lane)
 *     float data[4][P + N - 1], out[4];
 *     SSAM_REGCACHE_LOAD(float, 4, P + N - 1, data, src, pitch, x, y, w, h, border, 0.f, vec);
 *     for (int p = 0; p < P; p++) {           // unrolled: P is a constant
 *         SSAM_SYSTOLIC_ROW(float, 4, M, N, out, data, p, weights);
 *         ... store out[0..3] for the lanes whose outputs are complete ...
 *     }
 * COST
 *   V*M*N FMAs and V*DMAX shuffles per lane and output row; w should be a compile-time-indexed
 *   array in kernel parameters or constant memory, so each FMA reads its weight as an operand.
 */
#ifndef SSAM_SHIFT_CUH
#define SSAM_SHIFT_CUH

#include "base.cuh"

#define ssam_shift_down(v, d) __shfl_down_sync(SSAM__FULL, (v), (d))
#define ssam_shift_up(v, d) __shfl_up_sync(SSAM__FULL, (v), (d))

#define SSAM_SYSTOLIC_ROW(T, V, M, N, out, data, p, w)                                                        \
    do {                                                                                                     \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)(out)[ssam__k] = (T)0;             \
        _Pragma("unroll") for (int ssam__d = ((M) + (V)-2) / (V); ssam__d >= 0; ssam__d--) {                \
            if (ssam__d < ((M) + (V)-2) / (V)) {                                                             \
                _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)(out)[ssam__k] =           \
                    ssam_shift_down((out)[ssam__k], 1);                                                      \
            }                                                                                                \
            _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++) {                             \
                _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) {                         \
                    const int ssam__m = (V)*ssam__d + ssam__j - ssam__k;                                     \
                    if (ssam__m >= 0 && ssam__m < (M)) {                                                     \
                        _Pragma("unroll") for (int ssam__n = 0; ssam__n < (N); ssam__n++)(out)[ssam__k] =   \
                            fma((data)[ssam__j][(p) + ssam__n], (w)[ssam__n * (M) + ssam__m], (out)[ssam__k]); \
                    }                                                                                        \
                }                                                                                            \
            }                                                                                                \
        }                                                                                                    \
    } while (0)

#endif /* SSAM_SHIFT_CUH */
