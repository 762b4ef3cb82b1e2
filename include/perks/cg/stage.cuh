#include <onchip/names_push.h>
/* perks/cg/stage.cuh -- the stages the three CG kernel bodies share (grid, cluster,
 * Chronopoulos-Gear): the block's rows, the first residual, a replaced row, the end of a replacement
 * step, x out and the result (perks/cg.cuh, THE ITERATION).
 *
 * WHAT (docs/perks-cg.md#kernel-stages, docs/perks-cg.md#design-notes-perkscgstagecuh)
 *   perks__cg_slice, perks__cg_block_rows     a block's rows and its matrix slice
 *   perks__cg_start_residual                  r = b - A x0, D^-1, x
 *   perks__cg_replaced_row, perks__cg_replaced_kind, perks__cg_replaced_stalled   a replacement
 *   perks__cg_store_x, perks__cg_store_result the end
 *   Every thread of the block calls each of them (they run its row loops and barriers).
 *
 * EXAMPLE (the end of a classic step; see perks/cg/kernel_grid.cuh)
 *   [not compiled: a piece of the library's kernel bodies (a, it, rr, ... from the kernel)]
 *   repl = perks__cg_replaced_kind<T, K>(a, it, rr, thr);
 *   rr = t0;
 *   if (repl) {
 *       beta = it && rz != 0 ? (T)(beta * (t1 / rz)) : (T)0;
 *       rz = t1;
 *       if (perks__cg_replaced_stalled<T, K>(a, repl, it, rr, thr, sx, r0, nr)) status = PERKS_EINACCURATE;
 *       continue;
 *   }
 */
#ifndef PERKS_CG_STAGE_CUH
#define PERKS_CG_STAGE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "../base.h"
#include "replace.cuh"
#include "spmv.cuh"
#include "types.cuh"

/* a block's rows and where its slice is read from (device or, once cached, shared memory) */
template <class T> struct perks__cg_slice {
    perks_cg_rows rows;  /* the rows and how the lanes take them */
    const T *b;          /* the whole right-hand side (B) */
    const int *row_ptr;  /* the block's row pointers (RP), its values (VA), its columns (CI) */
    const T *values;
    const int *cols;
};

/* grid kernels: the block's rows from a.split, BLOCK / a.sub a round; k1: the nonzero after them */
template <int BLOCK>
static __device__ __forceinline__ perks_cg_rows perks__cg_block_rows(const perks_cg_kargs &a, int &k1)
{
    const int W = a.sub, S = BLOCK / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1);
    const int r0 = a.split[blockIdx.x], r1 = a.split[blockIdx.x + 1], nr = r1 - r0;
    const int k0 = __ldg(a.rp + r0);
    k1 = __ldg(a.rp + r1);
    const int rounds = (nr + S - 1) / S;
    const int mplain = a.cache >= 2;
    const perks_cg_rows g = {W, S, sw, sl, r0, nr, k0, rounds, mplain};
    return g;
}

/* r = b - A x0 (from device memory), D^-1 (Jacobi), x = x0 (or 0) where the cache or a zero x0 asks
 * for it; CLUSTER: always, x0 read by row */
template <class T, int CLUSTER>
static __device__ __forceinline__ void perks__cg_start_residual(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                                T *sr, T *sd, T *sx, const T *gX)
{
    const T *B = m.b;
    perks_cg_spmv<T, PERKS_CG_UNROLL>(
        m.rows, m.row_ptr, m.values, m.cols, [&a](int j) { return a.use_x0 ? __ldcg((const T *)a.x + j) : (T)0; },
        [=, &a](int lr, int i, T s, T d) {
            sr[lr] = B[i] - s;
            if (a.jacobi) sd[lr] = (T)1 / d;
            if (CLUSTER || a.cache >= 1 || !a.use_x0)
                sx[lr] = a.use_x0 ? (CLUSTER ? ((const T *)a.x)[i] : gX[lr]) : (T)0;
        });
}

/* a replaced row from rd = b_i - (A x)_i in double: r (T) into sr, z = D^-1 r, store(rv, zv) the
 * body's copies; r.r from the double value */
template <class T, class Store>
static __device__ __forceinline__ void perks__cg_replaced_row(const perks_cg_kargs &a, double rd, const T *sd, T *sr,
                                                              int lr, Store store, double &qrr, double &qrz)
{
    const T rv_ = (T)rd, zv_ = a.jacobi ? sd[lr] * rv_ : rv_;
    sr[lr] = rv_;
    store(rv_, zv_);
    qrr += rd * rd;
    qrz += (double)rv_ * zv_;
}

/* the end of a classic step: 0 no replacement, 1 one, 2 one after the recurrence met tol ("? 1 : 0":
 * docs/perks-cg.md#grid-tail) */
template <class T, class K>
static __device__ __forceinline__ int perks__cg_replaced_kind(const perks_cg_kargs &a, int it, double rr, double thr)
{
    return (perks__cg_want_replace<T, K>(a, it, rr, thr) ? 1 : 0) ? (rr <= thr ? 2 : 1) : 0;
}

/* after a replacement (rr: the replaced r.r): 1 when the solve ends PERKS_EINACCURATE; beta, r.z
 * and the status stay the body's (docs/perks-cg.md#kernel-stages) */
template <class T, class K>
static __device__ __forceinline__ int perks__cg_replaced_stalled(const perks_cg_kargs &a, int kind, int it, double rr,
                                                                 double thr, const T *sx, int r0, int nr)
{
    perks__cg_after_replace<T, K>(a, kind == 2, it, rr, sx, r0, nr);
    return perks__cg_stalled<K>(rr, thr);
}

/* x of the block's rows out of the cache (sx) into x (gX) */
template <class T, int BLOCK> static __device__ __forceinline__ void perks__cg_store_x(T *gX, const T *sx, int nr)
{
    for (int lr = threadIdx.x; lr < nr; lr += BLOCK) gX[lr] = sx[lr];
}

/* the result into a.out (block 0, thread 0); REPLACES: K's replacement count, else 0 */
template <class K, int REPLACES>
static __device__ __forceinline__ void perks__cg_store_result(const perks_cg_kargs &a, int status, int it, double rr,
                                                              double bb)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        a.out->status = status;
        a.out->iterations = it;
        if constexpr (REPLACES) a.out->repl = perks__cg_replacements<K>();
        else a.out->repl = 0;
        a.out->rr = rr;
        a.out->bb = bb;
    }
}

#endif /* PERKS_CG_STAGE_CUH */
#include <onchip/names_pop.h>
