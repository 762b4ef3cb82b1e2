#include <onchip/names_push.h>
/* perks/cg/replace.cuh -- residual replacement inside the classic CG kernels (grid and cluster):
 * when to recompute r = b - A x, how a replaced residual is judged, the best x of a stalled solve
 * (perks/cg.cuh, WHAT A SUCCESS MEANS; the rules: docs/perks-cg.md#replace-rules).
 *
 * WHAT (reliable updates, Sleijpen and van der Vorst, for float solves and the mixed driver;
 * docs/perks-cg.md#design-notes-perkscgreplacecuh)
 *   perks__cg_rstate_init, perks__cg_want_replace, perks__cg_after_replace, perks__cg_stalled,
 *   perks__cg_restore_best, perks__cg_replacements: the steps, in a kernel's order; the
 *   bookkeeping (perks__cg_rs<K>, ...) in the block's shared memory, one set per kernel.
 *   Double kernels compile none of it: the fields a.x_hi, va_hi, b_hi, xbest are read as
 *   (sizeof(T) == 4 ? a.x_hi : 0).
 *
 * EXAMPLE (the head of a step of a classic kernel; see perks/cg/kernel_grid.cuh)
 *   [not compiled: a piece of the library's kernel bodies (the head of its loop)]
 *   perks__cg_rstate_init<K>(rr);
 *   int repl = perks__cg_want_replace<T, K>(a, it, rr, thr);
 *   if (!repl && rr <= thr) break;
 */
#ifndef PERKS_CG_REPLACE_CUH
#define PERKS_CG_REPLACE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "types.cuh"

/* written by thread 0 behind a barrier.  rs: [0] the last replacement's iteration (-1: none), [1]
 * stalls, [2] replacements, [3] W (0: not judging), [4] the last judged one's iteration, [5] this
 * one judged */
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

/* whether step it replaces (float kernels; mixed: also before the first iteration); read from
 * shared memory each time, not held in a register */
template <class T, class K>
static __device__ __forceinline__ int perks__cg_want_replace(const perks_cg_kargs &a, int it, double rr, double thr)
{
    const int *rs = perks__cg_rs<K>;
    return sizeof(T) == 4 && it != rs[0] &&
           ((rr <= thr && a.rconv) || (a.rper && it - (rs[0] < 0 ? 0 : rs[0]) >= a.rper) ||
            (a.rdelta2 > 0 && rr <= a.rdelta2 * perks__cg_rlast<K>) || (rs[3] && it - rs[0] >= rs[3]) ||
            ((sizeof(T) == 4 ? a.x_hi : 0) && rs[0] < 0));
}

/* after a replacement, every thread (conv: the recurrence had met tol): judged or not, stalls, the
 * best x into a.xbest (float kernels, not mixed) */
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

/* whether the solve ends PERKS_EINACCURATE (rr, the true r.r: stalled or diverging) */
template <class K> static __device__ __forceinline__ int perks__cg_stalled(double rr, double thr)
{
    return rr > thr && (perks__cg_rs<K>[1] >= PERKS_CG_STALL || rr > PERKS_CG_DIVERGE * perks__cg_rmin<K>);
}

/* a stalled solve above its best judged replacement: sx back to the best x; the r.r of the x held */
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
