#include <onchip/names_push.h>
/* perks/cg/replace.cuh -- residual replacement inside the classic CG kernels (grid and cluster):
 * when to recompute r = b - A x, how a replaced residual is judged, the best x of a stalled solve
 * (perks/cg.cuh, WHAT A SUCCESS MEANS).
 *
 * WHAT (reliable updates, Sleijpen and van der Vorst; float solves and the mixed driver)
 *   perks__cg_rs<K>, perks__cg_rbest<K>, ...   the bookkeeping in the block's shared memory, one
 *                                     set per kernel (K: a type of the kernel's own)
 *   perks__cg_rstate_init<K>(rr)      thread 0 sets it (rr: the first r.r)
 *   perks__cg_want_replace<T, K>(a, it, rr, thr)   whether step it is a replacement
 *   perks__cg_after_replace<T, K>(a, conv, it, rr, sx, r0, nr)   a replacement's bookkeeping:
 *                                     judged or not, stall count, best x
 *   perks__cg_stalled<K>(rr, thr)     whether the solve ends PERKS_EINACCURATE after it
 *   perks__cg_restore_best<T, K>(a, status, rr, sx, r0, nr)   a stalled solve ends at its best x
 *   perks__cg_replacements<K>()       the replacements done
 *   The mixed-precision fields (a.x_hi, va_hi, b_hi) and a.xbest are read as
 *   (sizeof(T) == 4 ? a.x_hi : 0), NULL in the double kernels: docs/perks-cg.md#replace-rules.
 *
 * When to replace and when a solve stalls: docs/perks-cg.md#replace-rules.
 *
 * EXAMPLE (the head of a step of a classic kernel; see perks/cg/kernel_grid.cuh)
 *   [not compiled: a piece of the library's kernel bodies (the head of its loop)]
 *   perks__cg_rstate_init<K>(rr);
 *   int repl = perks__cg_want_replace<T, K>(a, it, rr, thr);
 *   if (!repl && rr <= thr) break;
 *
 * COSTS: the bookkeeping lives in the block's shared memory (rs[0]: the iteration of the last
 * replacement, -1 before the first; rs[1] stalls; rs[2] replacements; rs[3] W, 0 before judging;
 * rs[4] the last judged replacement's iteration; rs[5] this one judged; rbest, rlast, rmin), written
 * by thread 0 behind a barrier.  Double kernels compile none of it (sizeof(T) == 8).
 */
#ifndef PERKS_CG_REPLACE_CUH
#define PERKS_CG_REPLACE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "types.cuh"

/* the bookkeeping's shared variables, one set per kernel (K: a type of the kernel's own) */
template <class K> static __shared__ int perks__cg_rs[6];
template <class K> static __shared__ double perks__cg_rbest;
template <class K> static __shared__ double perks__cg_rlast;
template <class K> static __shared__ double perks__cg_rmin;

/* thread 0 sets the bookkeeping (rr: the first r.r); every thread calls it */
template <class K> static __device__ __forceinline__ void perks__cg_rstate_init(double rr)
{
    int (&rs)[6] = perks__cg_rs<K>;
    double &rbest = perks__cg_rbest<K>, &rlast = perks__cg_rlast<K>, &rmin = perks__cg_rmin<K>;
    if (threadIdx.x == 0) rs[0] = -1, rs[1] = rs[2] = rs[3] = rs[4] = rs[5] = 0, rbest = rmin = 1e300, rlast = rr;
    __syncthreads();
}

/* whether step it is a residual replacement (float kernels only; mixed: also before the first
 * iteration); read from shared memory each time, not held in a register across the phases */
template <class T, class K>
static __device__ __forceinline__ int perks__cg_want_replace(const perks_cg_kargs &a, int it, double rr, double thr)
{
    const int *rs = perks__cg_rs<K>;
    return sizeof(T) == 4 && it != rs[0] &&
           ((rr <= thr && a.rconv) || (a.rper && it - (rs[0] < 0 ? 0 : rs[0]) >= a.rper) ||
            (a.rdelta2 > 0 && rr <= a.rdelta2 * perks__cg_rlast<K>) || (rs[3] && it - rs[0] >= rs[3]) ||
            ((sizeof(T) == 4 ? a.x_hi : 0) && rs[0] < 0));
}

/* a replacement's bookkeeping, every thread (conv: the recurrence had met tol): judged or not, the
 * stall count, the best x into a.xbest (float kernels, not mixed: docs/perks-cg.md#replace-rules);
 * perks__cg_stalled then says whether the solve ends */
template <class T, class K>
static __device__ __forceinline__ void perks__cg_after_replace(const perks_cg_kargs &a, int conv, int it, double rr,
                                                               const T *sx, int r0, int nr)
{
    int *rs = perks__cg_rs<K>;
    double &rbest = perks__cg_rbest<K>, &rmin = perks__cg_rmin<K>;
    __syncthreads(); /* every thread has read rs for this step before thread 0 writes it */
    if (threadIdx.x == 0) {
        rs[0] = it;
        ++rs[2];
        perks__cg_rlast<K> = rr;
        rmin = rr < rmin ? rr : rmin;
        rs[5] = conv || (rs[3] && it - rs[4] >= rs[3]); /* judged */
        if (rs[5]) {
            rs[4] = it;
            if (rr < 0.25 * rbest) rbest = rr, rs[1] = 0;
            else ++rs[1];
            if (!rs[3]) rs[3] = it / 2 > PERKS_CG_WINDOW ? it / 2 : PERKS_CG_WINDOW;
        } else if ((sizeof(T) == 4 ? a.x_hi : 0) && !rs[3]) { /* mixed: judged from the first replacement on */
            rs[3] = PERKS_CG_MIXED_WINDOW;
            rs[4] = it;
            rbest = rr;
        }
    }
    __syncthreads();
    if (!(sizeof(T) == 4 ? a.x_hi : 0) && (sizeof(T) == 4 ? a.xbest : 0) && rs[5] && rbest == rr)
        for (int lr = threadIdx.x; lr < nr; lr += blockDim.x) ((T *)a.xbest)[r0 + lr] = sx[lr];
}

/* after a replacement: whether the solve ends PERKS_EINACCURATE (rr, the true r.r, above tol after
 * PERKS_CG_STALL stalls in a row, or diverging) */
template <class K> static __device__ __forceinline__ int perks__cg_stalled(double rr, double thr)
{
    return rr > thr && (perks__cg_rs<K>[1] >= PERKS_CG_STALL || rr > PERKS_CG_DIVERGE * perks__cg_rmin<K>);
}

/* the end of a solve that stalled above its best judged replacement: sx back to the best x; returns
 * the r.r of the x held */
template <class T, class K>
static __device__ __forceinline__ double perks__cg_restore_best(const perks_cg_kargs &a, int status, double rr, T *sx,
                                                                int r0, int nr)
{
    if (!(sizeof(T) == 4 ? a.x_hi : 0) && (sizeof(T) == 4 ? a.xbest : 0) && status == PERKS_EINACCURATE &&
        rr > perks__cg_rbest<K>) {
        for (int lr = threadIdx.x; lr < nr; lr += blockDim.x) sx[lr] = ((const T *)a.xbest)[r0 + lr];
        rr = perks__cg_rbest<K>;
    }
    return rr;
}

/* the replacements done (the result's count) */
template <class K> static __device__ __forceinline__ int perks__cg_replacements(void) { return perks__cg_rs<K>[2]; }

#endif /* PERKS_CG_REPLACE_CUH */
#include <onchip/names_pop.h>
