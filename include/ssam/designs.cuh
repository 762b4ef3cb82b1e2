/* ssam/designs.cuh -- the 1-D convolution systolic designs of the URE paper, as warp kernels.
 *
 * WHAT
 *   Rong et al., "Systolic design space exploration with uniform recurrence equations" (the Intel
 *   URE paper, ../shared/papers/systolic-design-space-ure.txt, section 5, Tables 2-4) name a 1-D
 *   convolution's systolic designs by what each of input, weight and partial sum does in the
 *   processing elements (PEs): Stays, is Broadcast, is Forwarded PE to PE; a partial sum Migrates
 *   or is Sedimented (stays where it is accumulated).  Here a PE is a lane and "moves" is a shuffle:
 *
 *   design  input       weight      partial sum  on a warp (per tile, Q taps, stride 1)
 *   SBM     stays       broadcast   migrates     SSAM's own design (ssam/conv.cuh): lane l keeps x(l);
 *                                                the sum moves one lane down per tap (Horner),
 *                                                33-Q outputs per warp (overlapped blocking, SSAM 4.5)
 *   BSM     broadcast   stays       migrates     groups of Q lanes, lane q keeps w(q); x(t) broadcast
 *                                                to the group, the sum moves one lane up per step and
 *                                                leaves lane Q-1 finished: 32/Q groups of ~32 outputs
 *   FSM     forwarded   stays       migrates     as BSM, but x enters at lane Q-1 every 2 steps and
 *                                                moves down while sums move up (half the PEs idle)
 *   BFS     broadcast   forwarded   sedimented   lane l accumulates output l; x(t) broadcast to the
 *                                                warp, weights enter lane 0 and move up: 31+Q steps
 *   FFS     forwarded   forwarded   sedimented   lane l accumulates output l; x moves up, w moves down,
 *                                                one meets the other every 2 steps: 61+2Q steps
 *   FBS     forwarded   broadcast   sedimented   the paper's new design: lane l accumulates output l;
 *                                                w(q) broadcast at step q, x moves one lane down per
 *                                                step: Q steps for 32 outputs
 *
 *   Stride 2 (out(c) = sum_q w(q) x(2c + q)) runs every design on the two polyphase streams
 *   x(2i) and x(2i+1) with the even and odd taps and adds the two: for FBS this is the paper's
 *   stride-2 UREs (an input moves one PE every two taps, X(c,q) = X(c+1,q-2)).
 *   The paper's model (Table 4) predicts SBM and FBS best (full lane use, few steps), then BSM/FSM,
 *   with BFS and FFS last; bench/designs measures the six side by side (its Table 3).
 *
 * EXAMPLE
 *     #include <ssam/designs.cuh>
 *     SSAM_DESIGN1D_DEFINE(fbs5, float, FBS, 5, 1, 256)   // FBS design, 5 taps, stride 1, 256 threads
 *     ssam_design1d_args a = { d_x, d_y, n, h_w, 0 };      // h_w: the 5 taps, in HOST memory
 *     int rc = fbs5_launch(&a, stream);                    // y[c] = sum_q h_w[q] x[c + q]
 *
 * SEMANTICS
 *   'valid' correlation: y[c] = sum_{q<Q} w[q] x[S c + q] for c = 0 .. (n - Q)/S, computed in T.
 *   flags SSAM_CONVOLVE flips the taps (convolution).  Borders and 2-D filters are conv.cuh's job.
 *   ssam_design1d_outputs(n, Q, S) is the output length.
 *
 * LIMITS AND COSTS
 *   Q (taps) 1..32, S 1 or 2, B a multiple of 32 up to 1024; n >= Q.  Weights travel in the kernel
 *   parameters (Q values).  Registers: BSM/FSM keep about 2*32/ceil(Q/S) + 2 values per lane, the
 *   others a few.  Errors before any launch: SSAM_ENULL, SSAM_ESIZE (n < Q or n <= 0),
 *   SSAM_EFLAGS; SSAM_ECUDA if the launch fails.
 */
#ifndef SSAM_DESIGNS_CUH
#define SSAM_DESIGNS_CUH

#include <cuda_runtime.h>
#include "base.cuh"

typedef struct ssam_design1d_args {
    const void *src;     /* n samples of T (device) */
    void *dst;           /* ssam_design1d_outputs(n, Q, S) results of T (device) */
    long long n;         /* input length */
    const void *weights; /* Q taps of T (host memory) */
    unsigned flags;      /* 0 or SSAM_CONVOLVE */
} ssam_design1d_args;

static inline long long ssam_design1d_outputs(long long n, int q, int s)
{
    return (n < q || q < 1 || s < 1) ? 0 : (n - q) / s + 1;
}

/* taps of phase f (0 <= f < S): w(S k + f) for k < SSAM__D1_QF */
#define SSAM__D1_QF(Q, S, f) (((Q) - (f) + (S)-1) / (S))
#define SSAM__D1_QP(Q, S) (((Q) + (S)-1) / (S)) /* PEs of the weight-stationary groups */
#define SSAM__D1_R(T, Q, S) ((128 / (int)sizeof(T) + SSAM__D1_QP(Q, S) - 1) / SSAM__D1_QP(Q, S))
#define SSAM__D1_L(T, Q, S) (SSAM__D1_QP(Q, S) * SSAM__D1_R(T, Q, S)) /* outputs per group: >= 32 floats, 16 doubles */
#define SSAM__D1_G(Q, S) (32 / SSAM__D1_QP(Q, S))               /* groups per warp */
/* tap i (a constant), clamped into [0, Q) so that branches not taken never index out of bounds */
#define SSAM__D1_WC(w, Q, i) ((w)[(i) < 0 ? 0 : (i) >= (Q) ? (Q)-1 : (i)])
#define SSAM__D1_W(T, w, Q, S, f, k) ((S) * (k) + (f) < (Q) ? SSAM__D1_WC(w, Q, (S) * (k) + (f)) : (T)0)

/* outputs per warp and tile, by design */
#define SSAM__D1_TILE_SBM(T, Q, S) (33 - SSAM__D1_QP(Q, S))
#define SSAM__D1_TILE_FBS(T, Q, S) 32
#define SSAM__D1_TILE_BFS(T, Q, S) 32
#define SSAM__D1_TILE_FFS(T, Q, S) 32
#define SSAM__D1_TILE_BSM(T, Q, S) (SSAM__D1_G(Q, S) * SSAM__D1_L(T, Q, S))
#define SSAM__D1_TILE_FSM(T, Q, S) (SSAM__D1_G(Q, S) * SSAM__D1_L(T, Q, S))

/* x of phase f at local index i of a tile starting at output c0 (0 past the end) */
#define SSAM__D1_X(T, x, n, S, f, c0, i)                                                                    \
    ((long long)(S) * ((c0) + (i)) + (f) < (n) ? __ldg((x) + (long long)(S) * ((c0) + (i)) + (f)) : (T)0)

/* --- sedimented designs: lane l accumulates output c0 + l ------------------------------------------ */

/* FBS: x forwarded one lane down per tap (a = local x(l+k), b = x(l+32+k)), w(k) broadcast */
#define SSAM__D1_BODY_FBS(ssam__f, T, Q, S, x, n, c0, w, lane, acc)                                                  \
    {                                    \
        T ssam__a = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane));                                           \
        T ssam__b = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane) + 32);                                      \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < SSAM__D1_QF(Q, S, ssam__f); ssam__k++) {         \
            (acc) = fma(ssam__a, SSAM__D1_WC(w, Q, (S)*ssam__k + ssam__f), (acc));                                       \
            if (ssam__k + 1 < SSAM__D1_QF(Q, S, ssam__f)) {                                                 \
                T ssam__ra = __shfl_sync(SSAM__FULL, ssam__a, ((lane) + 1) & 31);                          \
                T ssam__rb = __shfl_sync(SSAM__FULL, ssam__b, ((lane) + 1) & 31);                          \
                ssam__a = (lane) == 31 ? ssam__rb : ssam__ra;                                               \
                ssam__b = ssam__rb;                                                                         \
            }                                                                                               \
        }                                                                                                   \
    }

/* BFS: x(t) broadcast at step t, weights enter lane 0 and move one lane up per step */
#define SSAM__D1_BODY_BFS(ssam__f, T, Q, S, x, n, c0, w, lane, acc)                                                  \
    {                                    \
        T ssam__a = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane));                                           \
        T ssam__b = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane) + 32);                                      \
        T ssam__wr = (T)0;                                                                                  \
        _Pragma("unroll") for (int ssam__t = 0; ssam__t < 31 + SSAM__D1_QF(Q, S, ssam__f); ssam__t++) {    \
            T ssam__xb = __shfl_sync(SSAM__FULL, ssam__t < 32 ? ssam__a : ssam__b, ssam__t & 31);          \
            T ssam__up = __shfl_up_sync(SSAM__FULL, ssam__wr, 1);                                          \
            ssam__wr = (lane) == 0 ? (ssam__t < SSAM__D1_QF(Q, S, ssam__f) ? SSAM__D1_WC(w, Q, (S)*ssam__t + ssam__f) : (T)0) \
                                   : ssam__up;                                                             \
            (acc) = fma(ssam__xb, ssam__wr, (acc));                                                        \
        }                                                                                                   \
    }

/* FFS: x(i) enters lane 0 at step 2(I-i) and moves up; w(q) enters lane 31 at step 31+2(Q-1-q) and
 * moves down; x(l+q) meets w(q) at lane l.  Between them the lanes carry zeros. */
#define SSAM__D1_BODY_FFS(ssam__f, T, Q, S, x, n, c0, w, lane, acc)                                                  \
    {                                    \
        const int ssam__qf = SSAM__D1_QF(Q, S, ssam__f), ssam__I = 31 + ssam__qf - 1;                      \
        T ssam__a = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane));                                           \
        T ssam__b = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane) + 32);                                      \
        T ssam__xr = (T)0, ssam__wr = (T)0;                                                                 \
        _Pragma("unroll") for (int ssam__t = 0; ssam__t <= 2 * ssam__I; ssam__t++) {                       \
            const int ssam__i = ssam__I - ssam__t / 2, ssam__q = ssam__qf - 1 - (ssam__t - 31) / 2;        \
            T ssam__xi = (T)0, ssam__up, ssam__dn;                                                          \
            if (ssam__t % 2 == 0)                                                                           \
                ssam__xi = __shfl_sync(SSAM__FULL, ssam__i < 32 ? ssam__a : ssam__b, ssam__i & 31);        \
            ssam__up = __shfl_up_sync(SSAM__FULL, ssam__xr, 1);                                            \
            ssam__dn = __shfl_down_sync(SSAM__FULL, ssam__wr, 1);                                          \
            ssam__xr = (lane) == 0 ? ssam__xi : ssam__up;                                                   \
            ssam__wr = (lane) == 31 ? ((ssam__t >= 31 && (ssam__t - 31) % 2 == 0 && ssam__q >= 0)           \
                                           ? SSAM__D1_WC(w, Q, (S)*ssam__q + ssam__f) : (T)0)          \
                                    : ssam__dn;                                                             \
            (acc) = fma(ssam__xr, ssam__wr, (acc));                                                        \
        }                                                                                                   \
    }

/* --- migrating designs -------------------------------------------------------------------------- */

/* SBM: x stays (lane l keeps local x(l)), w broadcast, the sum moves one lane down per tap */
#define SSAM__D1_BODY_SBM(ssam__f, T, Q, S, x, n, c0, w, lane, acc)                                                  \
    {                                    \
        const int ssam__qf = SSAM__D1_QF(Q, S, ssam__f);                                                   \
        T ssam__a = SSAM__D1_X(T, x, n, S, ssam__f, c0, (lane));                                           \
        T ssam__p = ssam__a * SSAM__D1_WC(w, Q, (S) * (ssam__qf - 1) + ssam__f);                                         \
        _Pragma("unroll") for (int ssam__k = ssam__qf - 2; ssam__k >= 0; ssam__k--) {                      \
            ssam__p = __shfl_down_sync(SSAM__FULL, ssam__p, 1);                                            \
            ssam__p = fma(ssam__a, SSAM__D1_WC(w, Q, (S)*ssam__k + ssam__f), ssam__p);                                    \
        }                                                                                                   \
        (acc) += ssam__p;                                                                                   \
    }

/* weight-stationary groups: lane = g*QP + p (p < QP, g < G); group g computes local outputs
 * g*L .. g*L+L-1; its input stream element i lives in lane g*QP + i%QP, register i/QP. */
#define SSAM__D1_GROUP_SETUP(T, Q, S, lane)                                                                 \
    const int ssam__QP = SSAM__D1_QP(Q, S), ssam__L = SSAM__D1_L(T, Q, S);                                    \
    const int ssam__g = (lane) / ssam__QP, ssam__p = (lane) % ssam__QP;                                    \
    const bool ssam__on = ssam__g < SSAM__D1_G(Q, S);                                                      \
    const int ssam__g0 = ssam__on ? ssam__g * ssam__QP : 0;

#define SSAM__D1_GROUP_LOAD(T, Q, S, x, n, c0, f, in)                                                       \
    _Pragma("unroll") for (int ssam__k = 0; ssam__k <= SSAM__D1_R(T, Q, S); ssam__k++)(in)[ssam__k] =          \
        ssam__on ? SSAM__D1_X(T, x, n, S, f, (c0) + (long long)ssam__g * ssam__L, ssam__k * ssam__QP + ssam__p) \
                 : (T)0;

/* this lane's stationary weight of phase f */
#define SSAM__D1_GROUP_WEIGHT(T, Q, S, w, f, wl)                                                            \
    (wl) = (T)0;                                                                                            \
    _Pragma("unroll") for (int ssam__k = 0; ssam__k < SSAM__D1_QP(Q, S); ssam__k++) if (ssam__p == ssam__k) \
        (wl) = SSAM__D1_W(T, w, Q, S, f, ssam__k);

/* BSM: x(t) broadcast to the group at step t, the sum moves one lane up, leaves lane QP-1 done */
#define SSAM__D1_BODY_BSM(ssam__f, T, Q, S, x, n, c0, w, lane, out)                                                  \
    {                                    \
        T ssam__in[SSAM__D1_R(T, Q, S) + 1], ssam__wl, ssam__ps = (T)0;                                       \
        SSAM__D1_GROUP_LOAD(T, Q, S, x, n, c0, ssam__f, ssam__in)                                          \
        SSAM__D1_GROUP_WEIGHT(T, Q, S, w, ssam__f, ssam__wl)                                               \
        _Pragma("unroll") for (int ssam__t = 0; ssam__t < SSAM__D1_L(T, Q, S) + SSAM__D1_QP(Q, S) - 1; ssam__t++) { \
            T ssam__xb = __shfl_sync(SSAM__FULL, ssam__in[ssam__t / SSAM__D1_QP(Q, S)],                    \
                                     ssam__g0 + ssam__t % SSAM__D1_QP(Q, S));                              \
            T ssam__up = __shfl_up_sync(SSAM__FULL, ssam__ps, 1);                                          \
            ssam__ps = fma(ssam__xb, ssam__wl, ssam__p == 0 ? (T)0 : ssam__up);                            \
            if (ssam__t >= SSAM__D1_QP(Q, S) - 1) {                                                         \
                const int ssam__j = ssam__t - (SSAM__D1_QP(Q, S) - 1);                                      \
                T ssam__v = __shfl_sync(SSAM__FULL, ssam__ps, ssam__g0 + SSAM__D1_QP(Q, S) - 1);           \
                if (ssam__p == ssam__j % SSAM__D1_QP(Q, S)) (out)[ssam__j / SSAM__D1_QP(Q, S)] += ssam__v;  \
            }                                                                                               \
        }                                                                                                   \
    }

/* FSM: x(i) enters lane QP-1 at step 2i and moves down one lane per step, the sum of output c
 * starts at lane 0 at step 2c+QP-1 and moves up; it leaves lane QP-1 at step 2c+2QP-2. */
#define SSAM__D1_BODY_FSM(ssam__f, T, Q, S, x, n, c0, w, lane, out)                                                  \
    {                                    \
        T ssam__in[SSAM__D1_R(T, Q, S) + 1], ssam__wl, ssam__ps = (T)0, ssam__xr = (T)0;                      \
        SSAM__D1_GROUP_LOAD(T, Q, S, x, n, c0, ssam__f, ssam__in)                                          \
        SSAM__D1_GROUP_WEIGHT(T, Q, S, w, ssam__f, ssam__wl)                                               \
        _Pragma("unroll") for (int ssam__t = 0; ssam__t <= 2 * SSAM__D1_L(T, Q, S) + 2 * SSAM__D1_QP(Q, S) - 4; \
                               ssam__t++) {                                                                \
            const int ssam__i = ssam__t / 2;                                                                \
            T ssam__xi = (T)0, ssam__dn, ssam__up;                                                          \
            if (ssam__t % 2 == 0 && ssam__i <= SSAM__D1_L(T, Q, S) + SSAM__D1_QP(Q, S) - 2)                    \
                ssam__xi = __shfl_sync(SSAM__FULL, ssam__in[ssam__i / SSAM__D1_QP(Q, S)],                  \
                                       ssam__g0 + ssam__i % SSAM__D1_QP(Q, S));                            \
            ssam__dn = __shfl_down_sync(SSAM__FULL, ssam__xr, 1);                                          \
            ssam__up = __shfl_up_sync(SSAM__FULL, ssam__ps, 1);                                            \
            ssam__xr = ssam__p == SSAM__D1_QP(Q, S) - 1 ? ssam__xi : ssam__dn;                              \
            ssam__ps = fma(ssam__xr, ssam__wl, ssam__p == 0 ? (T)0 : ssam__up);                            \
            if (ssam__t >= 2 * SSAM__D1_QP(Q, S) - 2 && ssam__t % 2 == 0) {                                 \
                const int ssam__c = (ssam__t - 2 * SSAM__D1_QP(Q, S) + 2) / 2;                              \
                T ssam__v = __shfl_sync(SSAM__FULL, ssam__ps, ssam__g0 + SSAM__D1_QP(Q, S) - 1);           \
                if (ssam__p == ssam__c % SSAM__D1_QP(Q, S)) (out)[ssam__c / SSAM__D1_QP(Q, S)] += ssam__v;  \
            }                                                                                               \
        }                                                                                                   \
    }

/* the phases of stride S (each a literal, so that every loop bound is a constant) */
#define SSAM__D1_PHASES(D, T, Q, S, x, n, c0, w, lane, acc)                                               \
    SSAM__D1_BODY_##D(0, T, Q, S, x, n, c0, w, lane, acc)                                                   \
    if ((S) == 2 && SSAM__D1_QF(Q, S, 1) > 0) {                                                             \
        SSAM__D1_BODY_##D(1, T, Q, S, x, n, c0, w, lane, acc)                                               \
    }

/* --- tiles: compute and store one warp tile of outputs starting at c0 ------------------------------ */
#define SSAM__D1_TILE_LANE(D, T, Q, S, x, n, y, nout, c0, w, lane)                                          \
    do {                                                                                                    \
        T ssam__acc = (T)0;                                                                                 \
        SSAM__D1_PHASES(D, T, Q, S, x, n, c0, w, lane, ssam__acc)                                            \
        if ((lane) < SSAM__D1_TILE_##D(T, Q, S) && (c0) + (lane) < (nout)) (y)[(c0) + (lane)] = ssam__acc;     \
    } while (0)
#define SSAM__D1_TILE_GROUP(D, T, Q, S, x, n, y, nout, c0, w, lane)                                         \
    do {                                                                                                    \
        SSAM__D1_GROUP_SETUP(T, Q, S, lane)                                                                 \
        T ssam__out[SSAM__D1_R(T, Q, S)];                                                                      \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < SSAM__D1_R(T, Q, S); ssam__k++) ssam__out[ssam__k] = (T)0; \
        SSAM__D1_PHASES(D, T, Q, S, x, n, c0, w, lane, ssam__out)                                            \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < SSAM__D1_R(T, Q, S); ssam__k++) {                    \
            const long long ssam__c = (c0) + (long long)ssam__g * ssam__L + ssam__k * ssam__QP + ssam__p;   \
            if (ssam__on && ssam__c < (nout)) (y)[ssam__c] = ssam__out[ssam__k];                            \
        }                                                                                                   \
    } while (0)
#define SSAM__D1_TILE_SBM_(T, Q, S, x, n, y, nout, c0, w, l) SSAM__D1_TILE_LANE(SBM, T, Q, S, x, n, y, nout, c0, w, l)
#define SSAM__D1_TILE_FBS_(T, Q, S, x, n, y, nout, c0, w, l) SSAM__D1_TILE_LANE(FBS, T, Q, S, x, n, y, nout, c0, w, l)
#define SSAM__D1_TILE_BFS_(T, Q, S, x, n, y, nout, c0, w, l) SSAM__D1_TILE_LANE(BFS, T, Q, S, x, n, y, nout, c0, w, l)
#define SSAM__D1_TILE_FFS_(T, Q, S, x, n, y, nout, c0, w, l) SSAM__D1_TILE_LANE(FFS, T, Q, S, x, n, y, nout, c0, w, l)
#define SSAM__D1_TILE_BSM_(T, Q, S, x, n, y, nout, c0, w, l) SSAM__D1_TILE_GROUP(BSM, T, Q, S, x, n, y, nout, c0, w, l)
#define SSAM__D1_TILE_FSM_(T, Q, S, x, n, y, nout, c0, w, l) SSAM__D1_TILE_GROUP(FSM, T, Q, S, x, n, y, nout, c0, w, l)

/* SSAM_DESIGN1D_TILE(D, T, Q, S, x, n, y, nout, c0, w): inside a kernel of one's own, one warp
 * computes and stores the SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S) outputs from c0 with design D (all 32
 * lanes must take part; w a compile-time-indexed array of Q taps). */
#define SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S) SSAM__D1_TILE_##D(T, Q, S)
#define SSAM_DESIGN1D_TILE(D, T, Q, S, x, n, y, nout, c0, w)                                                \
    SSAM__D1_TILE_##D##_(T, Q, S, x, n, y, nout, c0, w, (int)(threadIdx.x & 31))

static inline int ssam__design1d_check(const ssam_design1d_args *a, int q, int s, long long *nout)
{
    if (!a || !a->src || !a->dst || !a->weights) return SSAM_ENULL;
    if (a->flags & ~SSAM_CONVOLVE) return SSAM_EFLAGS;
    if (a->n <= 0 || a->n < q) return SSAM_ESIZE;
    *nout = ssam_design1d_outputs(a->n, q, s);
    return SSAM_SUCCESS;
}

/* SSAM_DESIGN1D_DEFINE(name, T, D, Q, S, B): kernel name_kernel and host launcher
 *   int name_launch(const ssam_design1d_args *a, cudaStream_t stream)
 * for design D (SBM BSM FSM BFS FFS FBS), Q taps, stride S, B threads per block. */
#define SSAM_DESIGN1D_DEFINE(name, T, D, Q, S, B)                                                          \
    typedef struct name##_weights {                                                                        \
        T w[Q];                                                                                            \
    } name##_weights;                                                                                      \
    typedef char name##__taps_fit_a_warp[((Q) >= 1 && (Q) <= 32 && ((S) == 1 || (S) == 2)) ? 1 : -1];    \
    typedef char name##__block_is_whole_warps[((B) % 32 == 0 && (B) > 0 && (B) <= 1024) ? 1 : -1];          \
    __global__ void __launch_bounds__(B) name##_kernel(const T *__restrict__ x, T *__restrict__ y, long long n, \
                                                       long long nout, name##_weights wt)                  \
    {                                                                                                      \
        const long long ssam__tile = SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S);                                     \
        const long long ssam__nw = (long long)gridDim.x * ((B) / 32);                                      \
        for (long long ssam__c0 = ((long long)blockIdx.x * ((B) / 32) + threadIdx.x / 32) * ssam__tile;    \
             ssam__c0 < nout; ssam__c0 += ssam__nw * ssam__tile)                                           \
            SSAM_DESIGN1D_TILE(D, T, Q, S, x, n, y, nout, ssam__c0, wt.w);                                  \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_launch(const ssam_design1d_args *a, cudaStream_t stream) \
    {                                                                                                      \
        long long nout, tiles, blocks;                                                                     \
        name##_weights wt;                                                                                 \
        int rc = ssam__design1d_check(a, Q, S, &nout);                                                     \
        if (rc) return rc;                                                                                 \
        for (int i = 0; i < (Q); i++)                                                                      \
            wt.w[i] = ((const T *)a->weights)[(a->flags & SSAM_CONVOLVE) ? (Q)-1 - i : i];                 \
        tiles = (nout + SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S) - 1) / SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S);          \
        blocks = (tiles + (B) / 32 - 1) / ((B) / 32);                                                      \
        if (blocks > (1LL << 24)) blocks = 1LL << 24; /* the kernel strides over the rest */    \
        name##_kernel<<<(unsigned)blocks, B, 0, stream>>>((const T *)a->src, (T *)a->dst, a->n, nout, wt); \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                           \
    }

#endif /* SSAM_DESIGNS_CUH */
