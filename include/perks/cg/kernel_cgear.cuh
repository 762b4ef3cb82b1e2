#include <onchip/names_push.h>
/* perks/cg/kernel_cgear.cuh -- Chronopoulos-Gear CG in one cooperative grid, one grid barrier per
 * iteration: the body of PERKS_CG_DEFINE's name_kernel1 (perks/cg.cuh, CHRONOPOULOS-GEAR).
 *
 * WHAT (PERKS paper sections 3-4, with the single-reduction CG of Chronopoulos and Gear)
 *   perks_cg_cgear_body<T, BLOCK, K>(a)   every iteration of a solve, the result into a.out (K: a
 *                                     type of the kernel's own, as for perks_cg_grid_body)
 *   Device memory: two buffers of (r, w, s, d) quads per row, p (cached = 0) and x; shared memory
 *   (cached >= 1): the block's quads, x, p, (cached = 2) the matrix slice.  One barrier an iteration:
 *   docs/perks-cg.md#cgear-iteration.
 *
 * EXAMPLE (what PERKS_CG_DEFINE(name, T, BLOCK) defines; opts.variant = PERKS_CG_CGEAR runs it)
 *   [not compiled: what the generator expands to]
 *   __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name_kernel1(perks_cg_kargs a)
 *   { struct k; perks_cg_cgear_body<T, BLOCK, k>(a); }
 *
 * LIMITS AND COSTS: T float or double, BLOCK a multiple of 32 from 64 to 1024; a cooperative launch;
 * barrier count (default) or grid.sync; no residual replacement in the kernel (perks__cg_finish refines
 * on the host).  4 values gathered per nonzero (PERKS_CG1_UNROLL in flight per lane).
 */
#ifndef PERKS_CG_KERNEL_CGEAR_CUH
#define PERKS_CG_KERNEL_CGEAR_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the math functions are built in */
#include <cuda_runtime.h>
#include <math.h>
#endif

#include "../base.h"
#include "../grid.cuh"
#include "reduce.cuh"
#include "spmv.cuh"
#include "stage.cuh"
#include "types.cuh"

/* the Chronopoulos-Gear body's vectors of the block's rows (the body holds the two (r, w, s, d)
 * quad buffers of device memory, QO and QN, swapped every iteration) */
template <class T> struct perks__cg_cgear_vectors {
    T *x_global; /* the block's rows of x in device memory (gX) */
    T *x, *p;    /* the block's x and p: shared memory when cached (sx, sp) */
    T *quads;    /* cached: the block's quads [nr][4] in shared memory, else NULL (sQ) */
};

/* the prologue: r = b - A x0, d, w = s = p = 0 into both the cache and the quads; the totals b.b,
 * bad diagonals, r.r into t0, t1, t2 */
template <class T, int BLOCK>
static __device__ __forceinline__ void perks__cg_cgear_prologue(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                                const perks__cg_cgear_vectors<T> &v, T *QO, T *QN,
                                                                const perks__cg_rctx &c, unsigned int &nbar, double &t0,
                                                                double &t1, double &t2)
{
    const T *B = m.b;
    T *gX = v.x_global, *sx = v.x, *sp = v.p, *sQ = v.quads;
    double pbb = 0, pbad = 0, prr = 0;
    perks_cg_spmv<T, PERKS_CG_UNROLL>(
        m.rows, m.row_ptr, m.values, m.cols, [&a](int j) { return a.use_x0 ? __ldcg((const T *)a.x + j) : (T)0; },
        [=, &a, &pbb, &pbad, &prr](int lr, int i, T s, T d) {
            const T rv_ = B[i] - s, dv_ = a.jacobi ? (T)1 / d : (T)1;
            T *qo_ = QO + 4 * (size_t)i, *qn_ = QN + 4 * (size_t)i;
            qo_[0] = rv_;
            qo_[1] = 0;
            qo_[2] = 0;
            qo_[3] = dv_;
            qn_[3] = dv_;
            if (a.cache >= 1) {
                sQ[4 * lr] = rv_;
                sQ[4 * lr + 1] = 0;
                sQ[4 * lr + 2] = 0;
                sQ[4 * lr + 3] = dv_;
            }
            if (a.cache >= 1 || !a.use_x0) sx[lr] = a.use_x0 ? gX[lr] : (T)0;
            sp[lr] = 0;
            pbb += (double)B[i] * B[i];
            prr += (double)rv_ * rv_;
            if (a.jacobi && !(dv_ > 0 && isfinite(dv_))) pbad += 1;
        });
    __syncthreads();
    perks__cg1_reduce(a, c, pbb, pbad, prr, 3, nbar, t0, t1, t2);
}

/* the pass over the block's own rows: p = u + beta p, x += alpha p, s, r -= alpha s into the new
 * quads; the partials r.u into pg and r.r into prr (docs/perks-cg.md#cgear-iteration) */
template <class T, int BLOCK>
static __device__ __forceinline__ void perks__cg_cgear_pass(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                            const perks__cg_cgear_vectors<T> &v, const T *QO, T *QN,
                                                            T alpha, T beta, double &pg, double &prr)
{
    const int r0 = m.rows.r0, nr = m.rows.nr;
    T *sx = v.x, *sp = v.p, *sQ = v.quads;
#pragma unroll 2
    for (int lr = threadIdx.x; lr < nr; lr += BLOCK) {
        const int i = r0 + lr;
        const T *q_ = a.cache >= 1 ? sQ + 4 * lr : QO + 4 * (size_t)i;
        const T rv = a.cache >= 1 ? q_[0] : __ldcg(q_), wv = a.cache >= 1 ? q_[1] : __ldcg(q_ + 1);
        const T so = a.cache >= 1 ? q_[2] : __ldcg(q_ + 2), dv = a.cache >= 1 ? q_[3] : __ldcg(q_ + 3);
        const T uc = a.jacobi ? dv * rv : rv;
        const T pv = fma(beta, sp[lr], uc);
        sp[lr] = pv;
        sx[lr] += alpha * pv;
        T sv;
        const T rn = perks__cg1_step(rv, wv, so, alpha, beta, &sv);
        const T un = a.jacobi ? dv * rn : rn;
        T *qn = QN + 4 * (size_t)i;
        qn[0] = rn;
        qn[2] = sv;
        if (a.cache >= 1) {
            sQ[4 * lr] = rn;
            sQ[4 * lr + 2] = sv;
        }
        pg += (double)rn * un;
        prr += (double)rn * rn;
    }
}

template <class T, int BLOCK, class K>
static __device__ __forceinline__ void perks_cg_cgear_body(const perks_cg_kargs &a)
{
    /* setup: rows, pointers, the cache tiers */
    __shared__ double red[BLOCK / 32][3];
    __shared__ double tot[4];
    extern __shared__ __align__(16) double perks__cg_dyn1[];
    const int G = gridDim.x;
    int k1;
    const perks_cg_rows g = perks__cg_block_rows<BLOCK>(a, k1);
    const int r0 = g.r0, nr = g.nr, k0 = g.k0;
    unsigned int nbar = 0;
    double t0 = 0, t1 = 0, t2 = 0;
    T *gX = (T *)a.x + r0, *sx = gX, *sp = (T *)a.p0 + r0, *sQ = NULL;
    T *QO = (T *)a.r, *QN = (T *)a.z; /* swapped every iteration */
    const int *RP = a.rp + r0;
    const T *VA = (const T *)a.va + k0;
    const int *CI = a.ci + k0;
    const T *B = (const T *)a.b;
    if (a.cache >= 1) {
        sQ = (T *)perks__cg_dyn1;
        sx = sQ + 4 * nr;
        sp = sx + nr;
    }
    if (a.cache >= 2) perks__cg_stage_matrix<T, BLOCK>(sp + nr, k1 - k0, nr, RP, VA, CI);
    const perks__cg_slice<T> m = {g, B, RP, VA, CI};
    const perks__cg_cgear_vectors<T> v = {gX, sx, sp, sQ};
    const perks__cg_rctx c = {red, NULL, tot, G};
    perks__cg_cgear_prologue<T, BLOCK>(a, m, v, QO, QN, c, nbar, t0, t1, t2);
    const double bb = t0, thr = a.tol * a.tol * bb;
    double rr = t2, gm = 0, dl = 0, gprev = 0, aprev = 0, al = 0, bt = 0;
    int status = t1 > 0 ? PERKS_EDIAG : PERKS_SUCCESS, it = -1;

    /* it = -1: the pass with alpha = beta = 0 that makes w = A u and the first dot products */
#pragma unroll 1
    while (status == PERKS_SUCCESS) {
        /* the stopping tests, alpha and beta of the step */
        if (it >= 0) {
            if (rr <= thr) break;
            if (it >= a.max_iter) {
                status = PERKS_ENOCONV;
                break;
            }
            bt = it ? gm / gprev : 0.0;
            const double den = it ? dl - bt * gm / aprev : dl;
            if (!(den > 0)) {
                status = PERKS_EBREAKDOWN;
                break;
            }
            al = gm / den;
        }
        const T alpha = (T)al, beta = (T)bt;
        double pg = 0, pd = 0, prr = 0;
        perks__cg_cgear_pass<T, BLOCK>(a, m, v, QO, QN, alpha, beta, pg, prr);
        __syncthreads();

        /* w = A u, the one reduction of the step */
        perks_cg_spmv<T, PERKS_CG1_UNROLL>(
            g, RP, VA, CI,
            [=, &a](int j) { return perks__cg1_u(QO + 4 * (size_t)j, alpha, beta, a.jacobi); },
            [=, &a, &pd](int lr, int i, T s, T) {
                T *qn_ = QN + 4 * (size_t)i;
                qn_[1] = s;
                const T rn_ = a.cache >= 1 ? sQ[4 * lr] : __ldcg(qn_);
                const T dn_ = a.cache >= 1 ? sQ[4 * lr + 3] : __ldcg(qn_ + 3);
                if (a.cache >= 1) sQ[4 * lr + 1] = s;
                pd += (double)s * (a.jacobi ? dn_ * rn_ : rn_);
            });
        perks__cg1_reduce(a, c, pg, pd, prr, 3, nbar, t0, t1, t2);
        gprev = gm;
        aprev = al;
        gm = t0;
        dl = t1;
        rr = t2;
        ++it;
        PERKS_SWAP(T, QO, QN);
    }

    /* the end: x out of the cache, the result */
    if (it < 0) it = 0;
    if (a.cache >= 1) perks__cg_store_x<T, BLOCK>(gX, sx, nr);
    perks__cg_store_result<K, 0>(a, status, it, rr, bb);
}

#endif /* PERKS_CG_KERNEL_CGEAR_CUH */
#include <onchip/names_pop.h>
