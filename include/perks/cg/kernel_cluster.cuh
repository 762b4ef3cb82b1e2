#include <onchip/names_push.h>
/* perks/cg/kernel_cluster.cuh -- classic CG in one thread-block cluster (sm_90): the body of
 * PERKS_CG_DEFINE's name_ckernel (perks/cg.cuh, THE CLUSTER PATH).
 *
 * WHAT (PERKS paper sections 3-4: the whole system on chip; barriers in hardware)
 *   perks_cg_cluster_body<T, K>(a)  every CG iteration of a solve in one cluster of gridDim.x <= 16
 *                                   blocks of PERKS_CG_CBLOCK threads; the result into a.out
 *   perks_cg_cluster_kernel_body<T, K>(a)   the same where the device code is built for sm_90 or newer
 *                                   (and in the host pass); a stub that reports PERKS_EUNSUPPORTED
 *                                   otherwise (the planner does not launch it there)
 *   K: a type of the kernel's own.  Shared memory and the distributed reads:
 *   docs/perks-cg.md#reference-the-cluster-path-path-2.
 *
 * EXAMPLE (what PERKS_CG_DEFINE(name, T, BLOCK) defines; launched with cudaLaunchKernelEx)
 *   [not compiled: what the generator expands to]
 *   __global__ void __launch_bounds__(PERKS_CG_CBLOCK, 1) name_ckernel(perks_cg_kargs a)
 *   { struct k; perks_cg_cluster_kernel_body<T, k>(a); }
 *
 * LIMITS AND COSTS: T float or double; blockDim.x = PERKS_CG_CBLOCK = 1024 (64 registers); at most
 * PERKS_CG_CMAX = 16 blocks (non-portable cluster size); local rows < 2^24 per block.  Built for
 * sm_75/80 the kernel is the stub.
 */
#ifndef PERKS_CG_KERNEL_CLUSTER_CUH
#define PERKS_CG_KERNEL_CLUSTER_CUH

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

/* the block split of the cluster (C + 1 rows), in each block's shared memory; one per kernel (K) */
template <class K> static __shared__ int perks__cg_csplit[PERKS_CG_CMAX + 1];

/* the cluster body's vectors of the block's rows in shared memory (the body holds the (z, p) pair
 * buffers ZPc, ZPn of this step and the next, read by every block) */
template <class T> struct perks__cg_cluster_vectors {
    T *x, *q, *r, *dinv; /* [nr] T each, after the two [2 nrmax] T pair buffers (sx, sq, sr, sd) */
    T *x_global;         /* the block's rows of x in device memory (gX) */
};

/* the prologue's end (r, D^-1 in place): the (z, 0) pairs; the totals r.r, r.z, b.b, bad diagonals
 * into tt[0..3] */
template <class T, class K>
static __device__ __forceinline__ void perks__cg_cluster_first_totals(const perks_cg_kargs &a,
                                                                      const perks__cg_slice<T> &m,
                                                                      const perks__cg_cluster_vectors<T> &v, T *ZPc,
                                                                      double (*red)[3], double *tt)
{
    double (&cpart)[2][4] = perks__cg_cpart<K>.v;
    double (&ctot)[4] = perks__cg_ctot<K>;
    const int C = gridDim.x, r0 = m.rows.r0, nr = m.rows.nr;
    const T *B = m.b;
    T *sr = v.r, *sd = v.dinv;
    double prr = 0, prz = 0, pbb = 0, pbad = 0;
    for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) {
        const T rv = sr[lr], zv = a.jacobi ? sd[lr] * rv : rv, bv = B[r0 + lr];
        ZPc[2 * lr] = zv;
        ZPc[2 * lr + 1] = 0;
        prr += (double)rv * rv;
        prz += (double)rv * zv;
        pbb += (double)bv * bv;
        if (a.jacobi && !(sd[lr] > 0 && isfinite(sd[lr]))) pbad += 1;
    }
    double s0_ = 0, s1_ = 0, s2_ = 0, u0_ = 0, u1_ = 0, u2_ = 0;
    perks__cg_block_reduce(prr, prz, pbb, red, &s0_, &s1_, &s2_);
    __syncthreads();
    perks__cg_block_reduce(pbad, 0, 0, red, &u0_, &u1_, &u2_);
    if (threadIdx.x == 0) {
        cpart[1][0] = s0_;
        cpart[1][1] = s1_;
        cpart[1][2] = s2_;
        cpart[1][3] = u0_;
    }
    perks__cg_cluster_sync();
    perks__cg_ctotal(cpart[1], C, 4, ctot, tt);
}

/* phase A: q = A (z + beta p), p' = z + beta p (the pairs of every block, through distributed
 * shared memory), the partial p'.q returned.  A replacement puts (x, 0) into the free pairs. */
template <class T>
static __device__ __forceinline__ double perks__cg_cluster_phase_a(const perks__cg_slice<T> &m,
                                                                   const perks__cg_cluster_vectors<T> &v, T *ZPc,
                                                                   T *ZPn, int repl, T beta)
{
    const int nr = m.rows.nr;
    T *sx = v.x, *sq = v.q;
    double ppq = 0;
    if (repl) {
        for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) {
            ZPn[2 * lr] = sx[lr];
            ZPn[2 * lr + 1] = 0;
        }
    } else {
        perks_cg_spmv<T, PERKS_CG_UNROLL>(
            m.rows, m.row_ptr, m.values, m.cols, [=](int j) { return perks__cg_cgather(ZPc, j, beta); },
            [=, &ppq](int lr, int, T s, T) {
                const T pn = fma(beta, ZPc[2 * lr + 1], ZPc[2 * lr]);
                ZPn[2 * lr + 1] = pn;
                sq[lr] = s;
                ppq += (double)pn * s;
            });
    }
    return ppq;
}

/* phase B: x += alpha p', r -= alpha q, z = D^-1 r into the pairs; the partials r.r, r.z into qrr,
 * qrz.  A replacement gathers x (beta 0: exactly x) and computes r = b - A x in double. */
template <class T>
static __device__ __forceinline__ void perks__cg_cluster_phase_b(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                                 const perks__cg_cluster_vectors<T> &v, T *ZPc, T *ZPn,
                                                                 int repl, T alpha, double &qrr, double &qrz)
{
    const int nr = m.rows.nr, k0 = m.rows.k0;
    const T *B = m.b, *VA = m.values;
    T *sx = v.x, *sq = v.q, *sr = v.r, *sd = v.dinv;
    if (repl) {
        perks_cg_rrows(
            m.rows, m.row_ptr, m.cols, [=](int k) { return VA[k - k0]; },
            [=](int j) { return perks__cg_cgather(ZPn, j, (T)0); },
            [=, &a, &qrr, &qrz](int lr, int i, double s) {
                perks__cg_replaced_row<T>(
                    a, (double)B[i] - s, sd, sr, lr, [=](T, T zv_) { ZPc[2 * lr] = zv_; }, qrr, qrz);
            });
    } else {
        for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) {
            sx[lr] += alpha * ZPn[2 * lr + 1];
            const T rv = sr[lr] - alpha * sq[lr];
            sr[lr] = rv;
            const T zv = a.jacobi ? sd[lr] * rv : rv;
            ZPn[2 * lr] = zv;
            qrr += (double)rv * rv;
            qrz += (double)rv * zv;
        }
    }
}

template <class T, class K>
static __device__ __forceinline__ __attribute__((unused)) void perks_cg_cluster_body(const perks_cg_kargs &a)
{
    /* setup: the static shared memory (bound in this order), the block split, the block's rows and
     * its shared-memory layout */
    extern __shared__ __align__(16) double perks__cg_cdyn[];
    double (&red)[PERKS_CG_CBLOCK / 32][3] = perks__cg_red<K, PERKS_CG_CBLOCK / 32>;
    double (&cpart)[2][4] = perks__cg_cpart<K>.v;
    double (&ctot)[4] = perks__cg_ctot<K>;
    int (&csplit)[PERKS_CG_CMAX + 1] = perks__cg_csplit<K>;
    const int C = gridDim.x, W = a.sub, S = PERKS_CG_CBLOCK / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1);
    if (threadIdx.x <= C) csplit[threadIdx.x] = a.split[threadIdx.x];
    __syncthreads();
    const int r0 = csplit[blockIdx.x], r1 = csplit[blockIdx.x + 1], nr = r1 - r0;
    const int k0 = __ldg(a.rp + r0), k1 = __ldg(a.rp + r1), nk = k1 - k0;
    const int rounds = (nr + S - 1) / S;
    int mplain = 0;
    double tt[4] = {0, 0, 0, 0};
    T *ZPc = (T *)perks__cg_cdyn, *ZPn = ZPc + 2 * a.nrmax;
    T *sx = ZPn + 2 * a.nrmax, *sq = sx + nr, *sr = sq + nr, *sd = sr + nr;
    T *gX = (T *)a.x + r0;
    const T *B = (const T *)a.b;
    const int *RP = a.rp + r0;
    const T *VA = (const T *)a.va + k0;
    const int *CI = a.ci + k0;

    /* prologue: r = b - A x0 (matrix and x0 from device memory), the diagonal; the columns as (block
     * rank << 24 | local row) and (cached = 2) the matrix slice into shared memory */
    perks__cg_start_residual<T, 1>(a, {{W, S, sw, sl, r0, nr, k0, rounds, mplain}, B, RP, VA, CI}, sr, sd, sx, gX);
    {
        T *mv = sd + (a.jacobi ? nr : 0);
        int *ce = a.cache >= 2 ? (int *)(mv + nk) : a.cenc + k0, *mrp = (int *)(mv + nk) + nk;
        for (int k = threadIdx.x; k < nk; k += PERKS_CG_CBLOCK) {
            const int j = __ldg(CI + k);
            int rk = 0;
            while (rk + 1 < C && j >= csplit[rk + 1]) ++rk;
            ce[k] = (rk << 24) | (j - csplit[rk]);
            if (a.cache >= 2) mv[k] = __ldg(VA + k);
        }
        if (a.cache >= 2) {
            for (int k = threadIdx.x; k <= nr; k += PERKS_CG_CBLOCK) mrp[k] = __ldg(RP + k);
            VA = mv;
            RP = mrp;
        }
        CI = ce;
        mplain = a.cache >= 2;
    }
    __syncthreads();
    const perks__cg_slice<T> m = {{W, S, sw, sl, r0, nr, k0, rounds, mplain}, B, RP, VA, CI};
    const perks__cg_cluster_vectors<T> v = {sx, sq, sr, sd, gX};
    perks__cg_cluster_first_totals<T, K>(a, m, v, ZPc, red, tt);
    double rr = tt[0], rz = tt[1];
    const double bb = tt[2], thr = a.tol * a.tol * bb;
    int status = tt[3] > 0 ? PERKS_EDIAG : PERKS_SUCCESS, it = 0;
    perks__cg_rstate_init<K>(rr);
    T beta = 0;

#pragma unroll 1
    while (status == PERKS_SUCCESS) {
        /* a CG iteration or a residual replacement (as in the grid kernel) */
        int repl = perks__cg_want_replace<T, K>(a, it, rr, thr);
        if (!repl && rr <= thr) break;
        if (!repl && it >= a.max_iter) {
            status = PERKS_ENOCONV;
            break;
        }
        const double ppq = perks__cg_cluster_phase_a<T>(m, v, ZPc, ZPn, repl, beta);
        perks__cg_creduce(ppq, 0, 0, 1, cpart[0], C, red, ctot, tt);
        const double pq = tt[0];
        if (!repl && !(pq > 0)) {
            status = PERKS_EBREAKDOWN;
            break;
        }
        const T alpha = repl ? (T)0 : (T)(rz / pq);
        double qrr = 0, qrz = 0;
        perks__cg_cluster_phase_b<T>(a, m, v, ZPc, ZPn, repl, alpha, qrr, qrz);
        perks__cg_creduce(qrr, qrz, 0, 2, cpart[1], C, red, ctot, tt);
        /* the tail, as in the grid kernel */
        repl = perks__cg_replaced_kind<T, K>(a, it, rr, thr);
        rr = tt[0];
        if (repl) {
            beta = it && rz != 0 ? (T)(beta * (tt[1] / rz)) : (T)0;
            rz = tt[1];
            if (perks__cg_replaced_stalled<T, K>(a, repl, it, rr, thr, v.x, r0, nr)) status = PERKS_EINACCURATE;
            continue;
        }
        beta = (T)(tt[1] / rz);
        rz = tt[1];
        ++it;
        PERKS_SWAP(T, ZPc, ZPn);
    }

    /* the end: x out, the result */
    rr = perks__cg_restore_best<T, K>(a, status, rr, v.x, r0, nr);
    perks__cg_store_x<T, PERKS_CG_CBLOCK>(v.x_global, v.x, nr);
    perks__cg_store_result<K, 1>(a, status, it, rr, bb);
    perks__cg_cluster_sync(); /* no block leaves while another may still read its shared memory */
}

/* the cluster kernel's body where the device code is built for sm_90 or newer (and in the host
 * pass), a stub that reports PERKS_EUNSUPPORTED otherwise */
template <class T, class K>
static __device__ __forceinline__ void perks_cg_cluster_kernel_body(const perks_cg_kargs &a)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    perks__cg_store_result<K, 0>(a, PERKS_EUNSUPPORTED, 0, 0, 0);
#else
    perks_cg_cluster_body<T, K>(a);
#endif
}

#endif /* PERKS_CG_KERNEL_CLUSTER_CUH */
#include <onchip/names_pop.h>
