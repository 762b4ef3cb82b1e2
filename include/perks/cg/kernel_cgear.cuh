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
 * barrier count (default) or grid.sync; no residual replacement in the kernel (perks_cg_wait refines
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
#include "types.cuh"

template <class T, int BLOCK, class K>
static __device__ __forceinline__ void perks_cg_cgear_body(const perks_cg_kargs &a)
{
    /* setup: rows, pointers, the cache tiers */
    extern __shared__ __align__(16) double perks__cg_dyn1[];
    __shared__ double red[BLOCK / 32][3];
    __shared__ double tot[4];
    const int G = gridDim.x, W = a.sub, S = BLOCK / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1);
    const int r0 = a.split[blockIdx.x], r1 = a.split[blockIdx.x + 1], nr = r1 - r0;
    const int k0 = __ldg(a.rp + r0), k1 = __ldg(a.rp + r1);
    const int rounds = (nr + S - 1) / S;
    const int mplain = a.cache >= 2;
    unsigned int nbar = 0;
    double t0 = 0, t1 = 0, t2 = 0;
    T *gX = (T *)a.x + r0, *sx = gX, *sp = (T *)a.p0 + r0, *sQ = NULL;
    T *QO = (T *)a.r, *QN = (T *)a.z;
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
    const perks_cg_rows g = {W, S, sw, sl, r0, nr, k0, rounds, mplain};

    /* prologue: r = b - A x0, d, w = s = p = 0 into both the cache and the quads */
    {
        double pbb = 0, pbad = 0, prr = 0;
        perks_cg_spmv<T, PERKS_CG_UNROLL>(
            g, RP, VA, CI, [&a](int j) { return a.use_x0 ? __ldcg((const T *)a.x + j) : (T)0; },
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
        perks__cg1_reduce(a, pbb, pbad, prr, 3, G, nbar, red, tot, t0, t1, t2);
    }
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

        /* the pass over the own rows (p, x, r, s; partials) */
        double pg = 0, pd = 0, prr = 0;
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
        __syncthreads();

        /* w = A u, the one reduction of the step */
        perks_cg_spmv<T, PERKS_CG1_UNROLL>(
            g, RP, VA, CI, [=, &a](int j) { return perks__cg1_u(QO + 4 * (size_t)j, alpha, beta, a.jacobi); },
            [=, &a, &pd](int lr, int i, T s, T) {
                T *qn_ = QN + 4 * (size_t)i;
                qn_[1] = s;
                const T rn_ = a.cache >= 1 ? sQ[4 * lr] : __ldcg(qn_);
                const T dn_ = a.cache >= 1 ? sQ[4 * lr + 3] : __ldcg(qn_ + 3);
                if (a.cache >= 1) sQ[4 * lr + 1] = s;
                pd += (double)s * (a.jacobi ? dn_ * rn_ : rn_);
            });
        perks__cg1_reduce(a, pg, pd, prr, 3, G, nbar, red, tot, t0, t1, t2);
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
    if (a.cache >= 1)
        for (int lr = threadIdx.x; lr < nr; lr += BLOCK) gX[lr] = sx[lr];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        a.out->status = status;
        a.out->iterations = it;
        a.out->repl = 0;
        a.out->rr = rr;
        a.out->bb = bb;
    }
}

#endif /* PERKS_CG_KERNEL_CGEAR_CUH */
#include <onchip/names_pop.h>
