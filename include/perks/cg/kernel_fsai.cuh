#include <onchip/names_push.h>
/* perks/cg/kernel_fsai.cuh -- CG preconditioned by a factorised sparse approximate inverse, z = G' G r
 * (perks/fsai.h), in one cooperative grid: the body of PERKS_CG_DEFINE's name_fkernel (opts.fsai).
 *
 * WHAT (the solve: docs/perks-cg.md#reference-fsai-preconditioning)
 *   perks_cg_fsai_body<T, BLOCK, K>(a)   classic PCG with M^-1 = G' G: an iteration is q = A p, the
 *       p.q reduction, x and r, w = G r, z = G' w and the r.r, r.z reduction, with a sync (the
 *       neighbour flags of a.ndep, else a grid barrier) before each of the two products.
 *   perks__cg_fsai_apply<T>   w = G r, the sync, z = G' w over the block's rows; r.z returned
 *   perks__cg_fsai_start<T, BLOCK>   the prologue: r = b - A x0, z, the totals
 *
 * EXAMPLE (what PERKS_CG_DEFINE(name, T, BLOCK) defines; name_run launches it)
 *   [not compiled: what the generator expands to]
 *   __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name_fkernel(perks_cg_kargs a)
 *   { struct k; perks_cg_fsai_body<T, BLOCK, k>(a); }
 *
 * LIMITS: T float or double, BLOCK a multiple of 32 from 64 to 1024; a cooperative launch of the
 * plan's G blocks; G (a.grp, a.gci, a.gva) and G' (a.gtrp, a.gtci, a.gtva) in device memory, CSR
 * in T; r, w, z, p gathered from device memory (a.r, a.dz, a.z, a.p0 / a.p1); the block's rows of
 * x, r, q, z, p in shared memory at a.cache >= 1 (5 nr T), its slice of A after them at a.cache 2;
 * barrier count or grid.sync; no residual replacement (the host refines, perks/cg/refine.cuh).
 */
#ifndef PERKS_CG_KERNEL_FSAI_CUH
#define PERKS_CG_KERNEL_FSAI_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "../base.h"
#include "kernel_cheb.cuh"
#include "reduce.cuh"
#include "spmv.cuh"
#include "stage.cuh"
#include "types.cuh"

/* the block's own rows (lr; shared memory at cache tier >= 1, else device memory at row r0) and the
 * gathered vectors (whole, index i, device memory) */
template <class T> struct perks__cg_fsai_vecs {
    T *x, *r, *q, *zo, *po; /* x, r, q = A p, z, p of the block's rows */
    T *R, *W, *Z;           /* r (G gathers it), w = G r (G' gathers it), z (phase A gathers it) */
};

/* z = G' (G r) over the block's rows, r published in v.R before the call: w = G r into v.W, the
 * sync, z = G' w into v.zo and v.Z; returns r.z of the block's rows (published by the caller's
 * reduction, whose barrier publishes z too) */
template <class T>
static __device__ __forceinline__ double perks__cg_fsai_apply(const perks_cg_kargs &a, const perks_cg_rows &g,
                                                              const perks__cg_fsai_vecs<T> &v, unsigned int &fb,
                                                              unsigned int &ns)
{
    perks_cg_rows h = g;
    h.mplain = 0; /* G and G' from device memory */
    h.k0 = __ldg(a.grp + g.r0);
    {
        const T *R = v.R;
        T *W = v.W;
        perks_cg_spmv<T, PERKS_CG_CHEB_UNROLL>(h, a.grp + g.r0, (const T *)a.gva + h.k0, a.gci + h.k0,
                                               [=](int j) { return __ldcg(R + j); },
                                               [=](int, int i, T s, T) { W[i] = s; });
    }
    perks__cg_cheb_sync(a, (int)gridDim.x, fb, ns);
    h.k0 = __ldg(a.gtrp + g.r0);
    double prz = 0;
    {
        const T *W = v.W;
        perks_cg_spmv<T, PERKS_CG_CHEB_UNROLL>(h, a.gtrp + g.r0, (const T *)a.gtva + h.k0, a.gtci + h.k0,
                                               [=](int j) { return __ldcg(W + j); },
                                               [=, &prz](int lr, int i, T s, T) {
                                                   v.zo[lr] = s;
                                                   v.Z[i] = s;
                                                   prz += (double)v.r[lr] * s;
                                               });
    }
    return prz;
}

/* the prologue: r = b - A x0 into v.r and v.R, x = x0 or 0, p_old = 0; the sync; z = G' G r; the
 * totals r.r, b.b, r.z into rr, bb, rz */
template <class T, int BLOCK>
static __device__ __forceinline__ void perks__cg_fsai_start(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                            const perks__cg_fsai_vecs<T> &v, const perks__cg_rctx &c,
                                                            T *Pold, unsigned int &fb, unsigned int &ns, double &rr,
                                                            double &bb, double &rz)
{
    const T *B = m.b, *gX = (const T *)a.x + m.rows.r0;
    double prr = 0, pbb = 0, prz;
    perks_cg_spmv<T, PERKS_CG_CHEB_UNROLL>(
        m.rows, m.row_ptr, m.values, m.cols, [&a](int j) { return a.use_x0 ? __ldcg((const T *)a.x + j) : (T)0; },
        [=, &a, &prr, &pbb](int lr, int i, T s, T) {
            const T rv = B[i] - s;
            v.r[lr] = rv;
            v.R[i] = rv;
            v.po[lr] = 0;
            Pold[i] = 0;
            if (a.cache >= 1 || !a.use_x0) v.x[lr] = a.use_x0 ? gX[lr] : (T)0;
            prr += (double)rv * rv;
            pbb += (double)B[i] * B[i];
        });
    perks__cg_cheb_sync(a, c.G, fb, ns);
    prz = perks__cg_fsai_apply<T>(a, m.rows, v, fb, ns);
    __syncthreads();
    /* slots 3..5: phase A's reduction (slot 0) follows with no grid barrier between, so a block may
     * write its p.q partial while another still reads these */
    perks__cg_reduce(a, c, prr, pbb, prz, 3, 3, fb, rr, bb, rz);
}

template <class T, int BLOCK, class K> static __device__ __forceinline__ void perks_cg_fsai_body(const perks_cg_kargs &a)
{
    double (&red)[BLOCK / 32][3] = perks__cg_red<K, BLOCK / 32>;
    double (&fred)[BLOCK / 32][PERKS_FLAG_NV] = perks__cg_fred<K, BLOCK / 32>;
    double (&tot)[4] = perks__cg_tot<K>;
    extern __shared__ double perks__cg_dyn[];
    const int G = gridDim.x;
    int k1;
    const perks_cg_rows g = perks__cg_block_rows<BLOCK>(a, k1);
    const int r0 = g.r0, nr = g.nr, k0 = g.k0;
    const int *RP = a.rp + r0;
    const T *VA = (const T *)a.va + k0;
    const int *CI = a.ci + k0;
    T *gX = (T *)a.x + r0;
    perks__cg_fsai_vecs<T> v = {gX, (T *)a.r + r0, (T *)a.q + r0, (T *)a.zo + r0, (T *)a.po + r0,
                                (T *)a.r, (T *)a.dz, (T *)a.z};
    if (a.cache >= 1) { /* the own rows in shared memory: x, r, q, z, p */
        T *sv = (T *)perks__cg_dyn;
        v.x = sv, v.r = sv + nr, v.q = sv + 2 * nr, v.zo = sv + 3 * nr, v.po = sv + 4 * nr;
    }
    if (a.cache >= 2) perks__cg_stage_matrix<T, BLOCK>((T *)perks__cg_dyn + 5 * nr, k1 - k0, nr, RP, VA, CI);
    const perks__cg_slice<T> m = {g, (const T *)a.b, RP, VA, CI};
    T *Pold = (T *)a.p0, *Pnew = (T *)a.p1; /* swapped every iteration */
    const perks__cg_rctx c = {red, fred, tot, G};
    unsigned int fb = 0, ns = 0;
    double t0 = 0, t1 = 0, t2 = 0, rr = 0, bb = 0, rz = 0;
    perks__cg_fsai_start<T, BLOCK>(a, m, v, c, Pold, fb, ns, rr, bb, rz);
    const double thr = a.tol * a.tol * bb;
    int status = PERKS_SUCCESS, it = 0;
    T beta = 0;

#pragma unroll 1
    while (status == PERKS_SUCCESS) {
        if (rr <= thr) break;
        if (it >= a.max_iter) {
            status = PERKS_ENOCONV;
            break;
        }
        if (!(rz > 0)) { /* G' G is not positive definite on r: not PCG on an SPD system */
            status = PERKS_EBREAKDOWN;
            break;
        }
        /* phase A: p_new = z + beta p_old, q = A p_new, p.q */
        const double ppq = perks__cg_pc_phase_a<T>(m, v.Z, Pold, Pnew, beta, v.po, v.zo, v.q);
        __syncthreads();
        perks__cg_reduce(a, c, ppq, 0, 0, 1, 0, fb, t0, t1, t2);
        if (!(t0 > 0)) {
            status = PERKS_EBREAKDOWN;
            break;
        }
        const T alpha = (T)(rz / t0);
        /* phase B: x += alpha p, r -= alpha q (published in v.R by the sync in front of G r), z = G' G r */
        double qrr = 0;
        for (int lr = threadIdx.x; lr < nr; lr += BLOCK) {
            v.x[lr] += alpha * v.po[lr];
            const T rv = v.r[lr] - alpha * v.q[lr];
            v.r[lr] = rv;
            v.R[r0 + lr] = rv;
            qrr += (double)rv * rv;
        }
        perks__cg_cheb_sync(a, G, fb, ns);
        const double qrz = perks__cg_fsai_apply<T>(a, g, v, fb, ns);
        __syncthreads();
        perks__cg_reduce(a, c, qrr, qrz, 0, 2, 1, fb, t0, t1, t2);
        rr = t0;
        beta = (T)(t1 / rz);
        rz = t1;
        ++it;
        PERKS_SWAP(T, Pold, Pnew);
    }
    if (a.cache >= 1) perks__cg_store_x<T, BLOCK>(gX, v.x, nr);
    perks__cg_store_result<K, 0>(a, status, it, rr, bb);
}

#endif /* PERKS_CG_KERNEL_FSAI_CUH */
#include <onchip/names_pop.h>
