#include <onchip/names_push.h>
/* perks/cg/kernel_grid.cuh -- the classic CG iteration in one cooperative grid: the body of
 * PERKS_CG_DEFINE's name_kernel (perks/cg.cuh, THE ITERATION and THE GRID PATH).
 *
 * WHAT (PERKS paper sections 3-4)
 *   perks_cg_grid_body<T, BLOCK, K, SELL>(a)   every CG iteration of a solve (prologue, phase A,
 *       phase B, a barrier after each: docs/perks-cg.md#reference-the-iteration-both-paths), a residual
 *       replacement where one is due (float), the result into a.out.  K: a type of the kernel's own
 *       (its static shared memory is that kernel's).  SELL 1: the stream path
 *       (docs/perks-cg.md#reference-the-stream-path-path-3).
 *
 * EXAMPLE (what PERKS_CG_DEFINE(name, T, BLOCK) defines; name_run launches it)
 *   [not compiled: what the generator expands to]
 *   __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name_kernel(perks_cg_kargs a)
 *   { struct k; perks_cg_grid_body<T, BLOCK, k>(a); }
 *
 * LIMITS: T float or double, BLOCK a multiple of 32 from 64 to 1024; a cooperative launch of the
 * plan's G blocks with the plan's dynamic shared memory (a.cache 0, 1 the vectors, 2 the matrix
 * slice too); built for PERKS_CG_THREADS_PER_SM threads an SM (costs: docs/perks-cg.md).
 */
#ifndef PERKS_CG_KERNEL_GRID_CUH
#define PERKS_CG_KERNEL_GRID_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the math functions are built in */
#include <cuda_runtime.h>
#include <math.h>
#endif

#include "../base.h"
#include "../grid.cuh"
#include "reduce.cuh"
#include "replace.cuh"
#include "spmv.cuh"
#include "stage.cuh"
#include "types.cuh"

/* the grid body's vectors: device memory, or (cached tiers) the block's rows in shared memory (the
 * body holds the two p buffers, swapped every iteration) */
template <class T> struct perks__cg_grid_vectors {
    T *x_global, *r_global; /* the block's rows of x and r in device memory (gX, gR) */
    T *x, *r, *q, *dinv;    /* the block's rows of x, r, q, D^-1: shared memory when cached (sx, sr, sq, sd) */
    T *p;                   /* the block's p in shared memory when cached, else NULL (sp) */
    const T *z;             /* z (r without Jacobi) in device memory (Z) */
};

/* the prologue: r = b - A x0, the diagonal, z, p_old = 0; the totals r.r, r.z, b.b and the bad
 * diagonals (t1, t2: the flag barrier's unused outputs) */
template <class T, int BLOCK>
static __device__ __forceinline__ void perks__cg_grid_prologue(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                               const perks__cg_grid_vectors<T> &v, T *Pold,
                                                               const perks__cg_rctx &c, unsigned int &fb, double &rr,
                                                               double &rz, double &bb, double &bad)
{
    const int G = c.G, r0 = m.rows.r0, nr = m.rows.nr;
    double (*red)[3] = c.red, *tot = c.tot, t1, t2;
    const T *B = m.b;
    T *sr = v.r, *sd = v.dinv, *sp = v.p, *gR = v.r_global;
    double prr = 0, prz = 0, pbb = 0, pbad = 0;
    perks__cg_start_residual<T, 0>(a, m, sr, sd, v.x, v.x_global);
    __syncthreads();
    for (int lr = threadIdx.x; lr < nr; lr += BLOCK) {
        const int i = r0 + lr;
        const T rv = sr[lr], zv = a.jacobi ? sd[lr] * rv : rv, bv = B[i];
        if (a.jacobi) ((T *)a.z)[i] = zv;
        if (a.cache >= 1) gR[lr] = rv;
        Pold[i] = 0;
        if (a.cache >= 1) sp[lr] = 0;
        prr += (double)rv * rv;
        prz += (double)rv * zv;
        pbb += (double)bv * bv;
    }
    for (int lr = threadIdx.x; lr < nr; lr += BLOCK)
        if (a.jacobi && !(sd[lr] > 0 && isfinite(sd[lr]))) pbad += 1;
    double s0_ = 0, s1_ = 0, s2_ = 0, u0_ = 0, u1_ = 0, u2_ = 0;
    perks__cg_block_reduce(prr, prz, pbb, red, &s0_, &s1_, &s2_);
    __syncthreads();
    perks__cg_block_reduce(pbad, 0, 0, red, &u0_, &u1_, &u2_);
    if (a.bmode == PERKS_CG_BAR_FLAG) {
        perks_flag_sum(a.flag, G, fb++, 3, s0_, s1_, s2_, c.fred, &rr, &rz, &bb);
        __syncthreads(); /* fred is reused by the next call */
        perks_flag_sum(a.flag, G, fb++, 1, u0_, 0, 0, c.fred, &bad, &t1, &t2);
    } else {
        if (threadIdx.x == 0) {
            a.part[1 * G + blockIdx.x] = s0_;
            a.part[2 * G + blockIdx.x] = s1_;
            a.part[3 * G + blockIdx.x] = s2_;
            a.part[4 * G + blockIdx.x] = u0_;
        }
        if (a.bmode == PERKS_CG_BAR_SUM) perks_sum_barrier(a.bar, a.part, 1, 4, G, tot);
        else {
            ++fb;
            perks__cg_sync_total(a, 1, 4, G, (unsigned int)G * fb, tot);
        }
        rr = tot[0];
        rz = tot[1];
        bb = tot[2];
        bad = tot[3];
    }
}

/* phase A: q = A (z + beta p_old), p_new = z + beta p_old, the partial p.q returned; a replacement
 * publishes x instead (cached tiers hold it in shared memory).  The stream path (SELL: nothing
 * cached) takes the sliced-ELL rows and does the x update of the previous iteration (x += apend
 * p_old) while p_old is at hand */
template <class T, int BLOCK, int SELL>
static __device__ __forceinline__ double perks__cg_grid_phase_a(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                                const perks__cg_grid_vectors<T> &v, T *Pold, T *Pnew,
                                                                int repl, T beta, T apend)
{
    const int r0 = m.rows.r0, nr = m.rows.nr;
    T *sx = v.x, *sr = v.r, *sq = v.q, *sd = v.dinv, *sp = v.p, *gX = v.x_global;
    const T *Z = v.z;
    double ppq = 0;
    if (repl) {
        if (sizeof(T) == 4 ? a.x_hi : 0) /* mixed: the correction into x_hi, then from zero again */
            for (int lr = threadIdx.x; lr < nr; lr += BLOCK) {
                (sizeof(T) == 4 ? a.x_hi : 0)[r0 + lr] += (double)sx[lr];
                sx[lr] = 0;
            }
        else if (a.cache >= 1)
            for (int lr = threadIdx.x; lr < nr; lr += BLOCK) gX[lr] = sx[lr];
    } else if (SELL) {
        T *X = (T *)a.x, *Q = (T *)a.q;
        T po = 0; /* p_old of the lane's row, for the x update */
        perks_cg_sell_spmv<T, sizeof(T) == 4 ? PERKS_CG_SELL_UNROLL_F : PERKS_CG_SELL_UNROLL, BLOCK>(
            a.n, a.soff, a.sci, (const T *)a.sva,
            [=, &po](int i) {
                po = i < a.n ? __ldcg(Pold + i) : (T)0;
                return i < a.n ? fma(beta, po, __ldcg(Z + i)) : (T)0;
            },
            [=](int j) { return fma(beta, __ldcg(Pold + j), __ldcg(Z + j)); },
            [=, &ppq, &po](int i, T s, T, T pn) {
                Pnew[i] = pn;
                Q[i] = s;
                ppq += (double)pn * s;
                if (apend != (T)0) X[i] = __ldcg(X + i) + apend * po;
            });
    } else {
        perks_cg_spmv<T, PERKS_CG_UNROLL>(
            m.rows, m.row_ptr, m.values, m.cols, [=](int j) { return fma(beta, __ldcg(Pold + j), __ldcg(Z + j)); },
            [=, &a, &ppq](int lr, int i, T s, T) {
                const T zi = a.cache >= 1 ? (a.jacobi ? sd[lr] * sr[lr] : sr[lr]) : __ldcg(Z + i);
                const T pn = fma(beta, a.cache >= 1 ? sp[lr] : __ldcg(Pold + i), zi);
                Pnew[i] = pn;
                if (a.cache >= 1) sp[lr] = pn;
                sq[lr] = s;
                ppq += (double)pn * s;
            });
    }
    return ppq;
}

/* phase B: x += alpha p, r -= alpha q, z = D^-1 r; the partials r.r, r.z into qrr, qrz; a
 * replacement computes r = b - A x (sums in double) instead */
template <class T, int BLOCK, int SELL>
static __device__ __forceinline__ void perks__cg_grid_phase_b(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                              const perks__cg_grid_vectors<T> &v, T *Pnew, int repl,
                                                              T alpha, double &qrr, double &qrz)
{
    const int r0 = m.rows.r0, nr = m.rows.nr, k0 = m.rows.k0;
    const T *B = m.b, *VA = m.values;
    T *sx = v.x, *sr = v.r, *sq = v.q, *sd = v.dinv, *sp = v.p, *gR = v.r_global;
    if (repl) {
        perks_cg_rrows(
            m.rows, m.row_ptr, m.cols,
            [=, &a](int k) {
                return (sizeof(T) == 4 ? a.va_hi : 0) ? __ldg((sizeof(T) == 4 ? a.va_hi : 0) + k)
                                                      : (double)VA[k - k0];
            },
            [&a](int j) {
                return (sizeof(T) == 4 ? a.x_hi : 0) ? __ldcg((sizeof(T) == 4 ? a.x_hi : 0) + j)
                                                     : (double)__ldcg((const T *)a.x + j);
            },
            [=, &a, &qrr, &qrz](int lr, int i, double s) {
                const double rd_ =
                    ((sizeof(T) == 4 ? a.b_hi : 0) ? (sizeof(T) == 4 ? a.b_hi : 0)[i] : (double)B[i]) - s;
                perks__cg_replaced_row<T>(
                    a, rd_, sd, sr, lr,
                    [=, &a](T rv_, T zv_) {
                        if (a.cache >= 1) gR[lr] = rv_;
                        if (a.jacobi) ((T *)a.z)[i] = zv_;
                    },
                    qrr, qrz);
            });
        __syncthreads();
    } else {
#pragma unroll 4
        for (int lr = threadIdx.x; lr < nr; lr += BLOCK) {
            const int i = r0 + lr;
            if (!SELL) {
                const T pv = a.cache >= 1 ? sp[lr] : __ldcg(Pnew + i);
                sx[lr] += alpha * pv;
            }
            const T rv = sr[lr] - alpha * (SELL ? __ldcg(sq + lr) : sq[lr]); /* stream: q of other blocks */
            sr[lr] = rv;
            if (a.cache >= 1) gR[lr] = rv;
            T zv = rv;
            if (a.jacobi) {
                zv = sd[lr] * rv;
                ((T *)a.z)[i] = zv;
            }
            qrr += (double)rv * rv;
            qrz += (double)rv * zv;
        }
    }
}

template <class T, int BLOCK, class K, int SELL = 0>
static __device__ __forceinline__ void perks_cg_grid_body(const perks_cg_kargs &a)
{
    double (&red)[BLOCK / 32][3] = perks__cg_red<K, BLOCK / 32>;
    double (&fred)[BLOCK / 32][PERKS_FLAG_NV] = perks__cg_fred<K, BLOCK / 32>;
    double (&tot)[4] = perks__cg_tot<K>;
    /* setup: the block's rows, its pointers, the cache tiers in shared memory */
    extern __shared__ double perks__cg_dyn[];
    const int G = gridDim.x;
    int k1;
    const perks_cg_rows g = perks__cg_block_rows<BLOCK>(a, k1);
    const int r0 = g.r0, nr = g.nr, k0 = g.k0;
    double t0 = 0, t1 = 0, t2 = 0;
    T *gX = (T *)a.x + r0, *gR = (T *)a.r + r0, *gQ = (T *)a.q + r0, *gD = (T *)a.dinv + r0;
    T *sx = gX, *sr = gR, *sq = gQ, *sd = gD, *sp = NULL;
    const int *RP = a.rp + r0;
    const T *VA = (const T *)a.va + k0;
    const int *CI = a.ci + k0;
    const T *B = (const T *)a.b;
    const T *Z = (const T *)(a.jacobi ? a.z : a.r);
    T *Pold = (T *)a.p0, *Pnew = (T *)a.p1; /* swapped every iteration */
    if (a.cache >= 1) {
        sx = (T *)perks__cg_dyn;
        sr = sx + nr;
        sq = sr + nr;
        sp = sq + nr;
        sd = sp + nr;
    }
    if (a.cache >= 2) perks__cg_stage_matrix<T, BLOCK>(sd + (a.jacobi ? nr : 0), k1 - k0, nr, RP, VA, CI);
    const perks__cg_slice<T> m = {g, B, RP, VA, CI};
    const perks__cg_grid_vectors<T> v = {gX, gR, sx, sr, sq, sd, sp, Z};

    double rz, rr, bb, bad; /* this order, then fb: docs/perks-cg.md#kernel-stages */
    unsigned int fb = 0;
    const perks__cg_rctx c = {red, fred, tot, G};
    perks__cg_grid_prologue<T, BLOCK>(a, m, v, Pold, c, fb, rr, rz, bb, bad);
    const double thr = a.tol * a.tol * bb;
    int status = bad > 0 ? PERKS_EDIAG : PERKS_SUCCESS, it = 0;
    perks__cg_rstate_init<K>(rr); /* binds the bookkeeping after red, fred, tot: its place in shared memory */
    T beta = 0;
    T apend = 0; /* stream path: x += apend p_old is due (done in the next phase A, or here before x is read) */

#pragma unroll 1
    while (status == PERKS_SUCCESS) {
        /* a step is a CG iteration or a residual replacement (repl: 1 periodic, 2 the recurrence met
         * tol), through the same two reductions (slot 0, then slots 1-2) */
        int repl = perks__cg_want_replace<T, K>(a, it, rr, thr);
        if (SELL && apend != (T)0 && (repl || rr <= thr || it >= a.max_iter)) {
            for (int lr = threadIdx.x; lr < nr; lr += BLOCK) sx[lr] += apend * __ldcg(Pold + r0 + lr);
            apend = 0;
        }
        if (!repl && rr <= thr) break;
        if (!repl && it >= a.max_iter) {
            status = PERKS_ENOCONV;
            break;
        }
        const double ppq = perks__cg_grid_phase_a<T, BLOCK, SELL>(a, m, v, Pold, Pnew, repl, beta, apend);
        __syncthreads();
        perks__cg_reduce(a, c, ppq, 0, 0, 1, 0, fb, t0, t1, t2);
        repl = perks__cg_want_replace<T, K>(a, it, rr, thr); /* again: not held in a register across the SpMV */
        const double pq = t0;
        if (!repl && !(pq > 0)) {
            status = PERKS_EBREAKDOWN;
            break;
        }
        const T alpha = repl ? (T)0 : (T)(rz / pq);
        double qrr = 0, qrz = 0;
        perks__cg_grid_phase_b<T, BLOCK, SELL>(a, m, v, Pnew, repl, alpha, qrr, qrz);
        perks__cg_reduce(a, c, qrr, qrz, 0, 2, 1, fb, t0, t1, t2);
        /* the tail: a replacement rescales beta and goes on; an iteration sets beta and counts */
        repl = perks__cg_replaced_kind<T, K>(a, it, rr, thr);
        rr = t0;
        if (repl) {
            beta = it && rz != 0 ? (T)(beta * (t1 / rz)) : (T)0;
            rz = t1;
            if (perks__cg_replaced_stalled<T, K>(a, repl, it, rr, thr, sx, r0, nr)) status = PERKS_EINACCURATE;
            continue;
        }
        beta = (T)(t1 / rz);
        rz = t1;
        if (SELL) apend = alpha;
        ++it;
        PERKS_SWAP(T, Pold, Pnew);
    }

    /* the end: x out of the cache, the result */
    rr = perks__cg_restore_best<T, K>(a, status, rr, sx, r0, nr);
    if (a.cache >= 1) perks__cg_store_x<T, BLOCK>(gX, sx, nr);
    if (sizeof(T) == 4 ? a.x_hi : 0) /* mixed: what the correction holds since the last replacement */
        for (int lr = threadIdx.x; lr < nr; lr += BLOCK) (sizeof(T) == 4 ? a.x_hi : 0)[r0 + lr] += (double)sx[lr];
    perks__cg_store_result<K, 1>(a, status, it, rr, bb);
}

#endif /* PERKS_CG_KERNEL_GRID_CUH */
#include <onchip/names_pop.h>
