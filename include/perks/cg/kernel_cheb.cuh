#include <onchip/names_push.h>
/* perks/cg/kernel_cheb.cuh -- CG preconditioned by a Chebyshev polynomial of D^-1 A in one
 * cooperative grid: the body of PERKS_CG_DEFINE's name_pkernel (perks/cg.cuh, opts.cheb).
 *
 * WHAT (the preconditioner's math: perks/cheb.h; the solve: docs/perks-cg.md#reference-chebyshev-preconditioning)
 *   perks_cg_cheb_body<T, BLOCK, K>(a)   classic CG with z = p(D^-1 A) D^-1 r: a.cdeg Chebyshev
 *       steps an iteration, each one SpMV and one grid barrier (the last one's barrier is the r.z
 *       reduction), the coefficients a.cheb[0..16] (mu) and a.cheb[17..33] (nu) of perks_cheb.
 *       a.cdeg 0 with nu[0] 1 is Jacobi CG.  The alpha and beta of the first PERKS_CHEB_KMAX
 *       iterations into a.lanc[0..63] and a.lanc[64..127] (perks_cheb_lanczos_bounds reads them).
 *   perks__cg_cheb_apply<T, BLOCK>   the polynomial's steps 1..cdeg (step 0 is phase B's)
 *   perks__cg_bar                    a grid barrier with no sum (count barrier or grid.sync)
 *   perks__cg_cheb_sync              between two steps: the neighbour flags (a.ndep) or perks__cg_bar
 *
 * EXAMPLE (what PERKS_CG_DEFINE(name, T, BLOCK) defines; name_run launches it)
 *   [not compiled: what the generator expands to]
 *   __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name_pkernel(perks_cg_kargs a)
 *   { struct k; perks_cg_cheb_body<T, BLOCK, k>(a); }
 *
 * LIMITS: T float or double, BLOCK a multiple of 32 from 64 to 1024; a cooperative launch of the
 * plan's G blocks; z (a.z, a.z2: a step reads one, writes the other) and p (a.p0, a.p1) in device
 * memory; the block's rows of x, r, q, D^-1, dz, z, p in shared memory at a.cache >= 1 (7 nr T),
 * else in device memory (a.x, a.r, a.q, a.dinv, a.dz, a.zo, a.po); the block's CSR slice in shared
 * memory after them at a.cache 2; barrier count or grid.sync; no residual replacement (the host
 * refines, perks/cg/refine.cuh).
 */
#ifndef PERKS_CG_KERNEL_CHEB_CUH
#define PERKS_CG_KERNEL_CHEB_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the math functions are built in */
#include <cuda_runtime.h>
#include <math.h>
#endif

#include "../base.h"
#include "../cheb.h"
#include "../grid.cuh"
#include "reduce.cuh"
#include "spmv.cuh"
#include "stage.cuh"
#include "types.cuh"

#ifndef PERKS_CG_CHEB_UNROLL
#define PERKS_CG_CHEB_UNROLL 4 /* nonzeros a lane loads before it gathers (8 spills at 64 registers) */
#endif

/* a grid barrier without a sum: the count barrier's next target, or grid.sync; fb counts them as
 * perks__cg_reduce does */
static __device__ __forceinline__ void perks__cg_bar(const perks_cg_kargs &a, int G, unsigned int &fb)
{
    ++fb;
    if (a.bmode != PERKS_CG_BAR_COUNT) {
        PERKS_GRID_SYNC();
        return;
    }
    __syncthreads();
    if (threadIdx.x < 32) perks_count_arrive_wait(perks__cg_cnt(a), (unsigned int)G * fb);
    __syncthreads();
}

/* the sync between two polynomial steps: with a.ndep (the plan's neighbour lists) the block publishes
 * step id ns (release) and waits for the blocks whose rows it reads -- and that read its rows -- to
 * publish it too (acquire); else a grid barrier (perks__cg_bar).  A step reads z of its neighbours
 * from one buffer and writes the other: their id says they finished the step before, which both
 * wrote what this step reads and read what this step overwrites */
static __device__ __forceinline__ void perks__cg_cheb_sync(const perks_cg_kargs &a, int G, unsigned int &fb,
                                                           unsigned int &ns)
{
    if (!a.ndep) {
        perks__cg_bar(a, G, fb);
        return;
    }
    ++ns;
    __syncthreads();
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x, d0 = __ldg(a.ndep + blockIdx.x), d1 = __ldg(a.ndep + blockIdx.x + 1);
        if (lane == 0) perks__st_release_u32(a.nflag + blockIdx.x, ns);
        for (int k = d0 + lane; k < d1; k += 32) {
            const unsigned int *f = a.nflag + __ldg(a.ndep + k);
            while ((int)(perks__ld_acquire_u32(f) - ns) < 0) {
            }
        }
        __syncwarp();
    }
    __syncthreads();
}

/* the block's own rows (index lr): shared memory at cache tier >= 1, else device memory at row r0;
 * z and p, which other blocks gather, always in device memory as well (whole vectors, index i) */
template <class T> struct perks__cg_cheb_vecs {
    T *x, *r, *q, *dinv, *dz; /* x, r, q = A p, D^-1, the Chebyshev step */
    T *zo, *po;               /* the block's rows of z and p (copies of the gathered ones) */
    T *z0, *z1;               /* the two z buffers: a step reads one and writes the other */
    __device__ __forceinline__ T *z(int k) const { return k ? z1 : z0; } /* no indexed array: no stack frame */
};

/* z = p(D^-1 A) D^-1 r, steps 1..a.cdeg (step 0, dz = z = nu0 D^-1 r into v.z(zc), is phase B's and
 * published by a barrier after it): step s reads z from v.z(zc) in every block, writes v.z(zc ^ 1);
 * a barrier after each but the last.  Returns r.z of the block's rows at the last step (published by
 * the caller's reduction); zc: the buffer holding z at the end */
template <class T, int BLOCK>
static __device__ __forceinline__ double perks__cg_cheb_apply(const perks_cg_kargs &a, const perks__cg_slice<T> &m,
                                                              const perks__cg_cheb_vecs<T> &v, int &zc,
                                                              unsigned int &fb, unsigned int &ns)
{
    double prz = 0;
#pragma unroll 1
    for (int s = 1; s <= a.cdeg; ++s) {
        const T mu = (T)__ldg(a.cheb + s), nu = (T)__ldg(a.cheb + PERKS_CHEB_DMAX + 1 + s);
        const T *Zi = v.z(zc);
        T *Zo = v.z(zc ^ 1);
        const int last = s == a.cdeg;
        perks_cg_spmv<T, PERKS_CG_CHEB_UNROLL>(m.rows, m.row_ptr, m.values, m.cols,
                                               [=](int j) { return __ldcg(Zi + j); },
                                               [=, &prz](int lr, int i, T t, T) {
                                                   const T rv = v.r[lr], w = v.dinv[lr] * (rv - t);
                                                   const T dz = fma(mu, v.dz[lr], nu * w), zn = v.zo[lr] + dz;
                                                   v.dz[lr] = dz;
                                                   v.zo[lr] = zn;
                                                   Zo[i] = zn;
                                                   if (last) prz += (double)rv * zn;
                                               });
        zc ^= 1;
        if (!last) perks__cg_cheb_sync(a, (int)gridDim.x, fb, ns);
    }
    return prz;
}

/* phase A of the preconditioned grid bodies (Chebyshev, FSAI): p_new = z + beta p_old from the
 * gathered Z and Pold (the own rows' copies zo, po), p_new into Pnew and po, q = A p_new into q;
 * returns the block's p.q */
template <class T>
static __device__ __forceinline__ double perks__cg_pc_phase_a(const perks__cg_slice<T> &m, const T *Z, const T *Pold,
                                                              T *Pnew, T beta, T *po, const T *zo, T *q)
{
    double ppq = 0;
    perks_cg_spmv<T, PERKS_CG_CHEB_UNROLL>(m.rows, m.row_ptr, m.values, m.cols,
                                           [=](int j) { return fma(beta, __ldcg(Pold + j), __ldcg(Z + j)); },
                                           [=, &ppq](int lr, int i, T s, T) {
                                               const T pn = fma(beta, po[lr], zo[lr]);
                                               Pnew[i] = pn;
                                               po[lr] = pn;
                                               q[lr] = s;
                                               ppq += (double)pn * s;
                                           });
    return ppq;
}

template <class T, int BLOCK, class K> static __device__ __forceinline__ void perks_cg_cheb_body(const perks_cg_kargs &a)
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
    const T *B = (const T *)a.b;
    T *gX = (T *)a.x + r0;
    perks__cg_cheb_vecs<T> v = {gX,           (T *)a.r + r0,  (T *)a.q + r0, (T *)a.dinv + r0, (T *)a.dz + r0,
                                (T *)a.zo + r0, (T *)a.po + r0, (T *)a.z,      (T *)a.z2};
    if (a.cache >= 1) { /* the own rows in shared memory: x, r, q, D^-1, dz, z, p */
        T *sv = (T *)perks__cg_dyn;
        v.x = sv, v.r = sv + nr, v.q = sv + 2 * nr, v.dinv = sv + 3 * nr, v.dz = sv + 4 * nr, v.zo = sv + 5 * nr,
        v.po = sv + 6 * nr;
    }
    if (a.cache >= 2) perks__cg_stage_matrix<T, BLOCK>((T *)perks__cg_dyn + 7 * nr, k1 - k0, nr, RP, VA, CI);
    const perks__cg_slice<T> m = {g, B, RP, VA, CI};
    T *Pold = (T *)a.p0, *Pnew = (T *)a.p1; /* swapped every iteration */
    const perks__cg_rctx c = {red, fred, tot, G};
    const T nu0 = (T)__ldg(a.cheb + PERKS_CHEB_DMAX + 1);
    unsigned int fb = 0, ns = 0;
    double t0 = 0, t1 = 0, t2 = 0, rr, rz, bb;
    int zc = 0;

    /* the prologue: r = b - A x0, D^-1, x = x0 or 0, p_old = 0, z step 0; r.r, b.b, bad diagonals */
    {
        double prr = 0, pbb = 0, pbad = 0, prz = 0;
        perks_cg_spmv<T, PERKS_CG_CHEB_UNROLL>(
            m.rows, m.row_ptr, m.values, m.cols, [&a](int j) { return a.use_x0 ? __ldcg((const T *)a.x + j) : (T)0; },
            [=, &a, &prr, &pbb, &pbad, &prz](int lr, int i, T s, T d) {
                const T rv = B[i] - s, di = (T)1 / d, z0 = nu0 * di * rv;
                v.r[lr] = rv;
                v.dinv[lr] = di;
                v.dz[lr] = z0;
                v.zo[lr] = z0;
                v.z0[i] = z0;
                v.po[lr] = 0;
                Pold[i] = 0;
                if (a.cache >= 1 || !a.use_x0) v.x[lr] = a.use_x0 ? gX[lr] : (T)0;
                prr += (double)rv * rv;
                pbb += (double)B[i] * B[i];
                prz += (double)rv * z0;
                if (!(d > 0 && isfinite(di))) pbad += 1;
            });
        __syncthreads();
        perks__cg_reduce(a, c, prr, pbb, pbad, 3, 0, fb, t0, t1, t2);
        rr = t0, bb = t1;
        if (t2 > 0) {
            perks__cg_store_result<K, 0>(a, PERKS_EDIAG, 0, rr, bb);
            return;
        }
        prz = a.cdeg ? perks__cg_cheb_apply<T, BLOCK>(a, m, v, zc, fb, ns) : prz;
        __syncthreads();
        perks__cg_reduce(a, c, prz, 0, 0, 1, 3, fb, t0, t1, t2); /* slot 3: blocks may still read 0..2 */
        rz = t0;
    }
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
        if (!(rz > 0)) { /* p(D^-1 A) D^-1 is not positive definite here: not CG on an SPD system */
            status = PERKS_EBREAKDOWN;
            break;
        }
        /* phase A: p_new = z + beta p_old, q = A p_new, p.q */
        const double ppq = perks__cg_pc_phase_a<T>(m, v.z(zc), Pold, Pnew, beta, v.po, v.zo, v.q);
        __syncthreads();
        perks__cg_reduce(a, c, ppq, 0, 0, 1, 0, fb, t0, t1, t2);
        if (!(t0 > 0)) {
            status = PERKS_EBREAKDOWN;
            break;
        }
        const T alpha = (T)(rz / t0);
        if (blockIdx.x == 0 && threadIdx.x == 0 && it < PERKS_CHEB_KMAX) a.lanc[it] = rz / t0;
        /* phase B: x += alpha p, r -= alpha q, z step 0 into z(zc) (phase A's reads of it are behind
         * the barrier); r.r, and r.z when the polynomial is the constant nu0 */
        double qrr = 0, qrz = 0;
        {
            T *Zw = v.z(zc);
            for (int lr = threadIdx.x; lr < nr; lr += BLOCK) {
                v.x[lr] += alpha * v.po[lr];
                const T rv = v.r[lr] - alpha * v.q[lr], z0 = nu0 * v.dinv[lr] * rv;
                v.r[lr] = rv;
                v.dz[lr] = z0;
                v.zo[lr] = z0;
                Zw[r0 + lr] = z0;
                qrr += (double)rv * rv;
                qrz += (double)rv * z0;
            }
        }
        if (a.cdeg) { /* step 0 published by a sync; r.r rides on the last step's reduction */
            perks__cg_cheb_sync(a, G, fb, ns);
            qrz = perks__cg_cheb_apply<T, BLOCK>(a, m, v, zc, fb, ns);
        }
        __syncthreads();
        perks__cg_reduce(a, c, qrr, qrz, 0, 2, 1, fb, t0, t1, t2);
        rr = t0;
        beta = (T)(t1 / rz);
        if (blockIdx.x == 0 && threadIdx.x == 0 && it < PERKS_CHEB_KMAX) a.lanc[PERKS_CHEB_KMAX + it] = t1 / rz;
        rz = t1;
        ++it;
        PERKS_SWAP(T, Pold, Pnew);
    }
    if (a.cache >= 1) perks__cg_store_x<T, BLOCK>(gX, v.x, nr);
    perks__cg_store_result<K, 0>(a, status, it, rr, bb);
}

#endif /* PERKS_CG_KERNEL_CHEB_CUH */
#include <onchip/names_pop.h>
