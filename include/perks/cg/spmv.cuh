#include <onchip/names_push.h>
/* perks/cg/spmv.cuh -- a block's rows of a CSR matrix times a vector, W lanes per row, and the
 * gathers the CG kernels feed it (perks/cg.cuh, THE ITERATION).
 *
 * WHAT (PERKS paper section 4.1.3-4.1.4: the matrix slice cached in shared memory when it fits)
 *   perks_cg_rows                      a block's rows [r0, r0 + nr) and how its lanes take them
 *   perks__cg_stage_matrix<T, BLOCK>(sv, nk, nr, RP, VA, CI)   cache tier 2: the block's slice of
 *                                      the matrix into shared memory at sv; RP, VA, CI point there
 *   perks_cg_spmv<T, U>(g, RP, VA, CI, gather, rowdone)   s = sum_k a_ik gather(j_k) in T, d = a_ii;
 *                                      on the row's first lane rowdone(lr, i, s, d)
 *   perks_cg_rrows(g, RP, CI, val, gather, rowdone)        the same in double, val(k) * gather(j):
 *                                      r = b - A x
 *   perks_cg_sell_spmv<T, U, BLOCK>(n, SO, SC, SV, self, gather, rowdone)   the stream path: all
 *                                      rows from the sliced-ELL copy, a warp a slice, a lane a row,
 *                                      the grid sweeping them as one front, the band's diagonals
 *                                      through shuffles
 *   perks__cg_cgather(zp, e, beta)     cluster path: z_j + beta p_j through distributed shared memory
 *   perks__cg1_step / perks__cg1_u     Chronopoulos-Gear: r' of row j recomputed by its readers
 *   gather, val and rowdone are functors or lambdas; every thread of the block calls the row loops
 *   (all run the same number of rounds, so the lane shuffles stay converged).
 *
 * EXAMPLE (q = A p over a block's rows, inside a kernel of BLOCK threads)
 *   [not compiled: a piece of the library's kernel bodies (a, W, p, q from the kernel)]
 *   const int r0 = a.split[blockIdx.x], nr = a.split[blockIdx.x + 1] - r0, k0 = a.rp[r0];
 *   const perks_cg_rows g = {W, BLOCK / W, threadIdx.x / W, threadIdx.x % W, r0, nr, k0,
 *                            (nr + BLOCK / W - 1) / (BLOCK / W), 0};
 *   perks_cg_spmv<double, PERKS_CG_UNROLL>(g, a.rp + r0, (const double *)a.va + k0, a.ci + k0,
 *                                          [=](int j) { return p[j]; },
 *                                          [=](int lr, int i, double s, double d) { q[i] = s; });
 *
 * LIMITS AND COSTS: W a power of two <= 32 dividing BLOCK; 32-bit indices.  From device memory a lane
 * loads U column indices and values at once (predicated), then gathers all U, then sums in k
 * order; from shared memory (mplain) one nonzero at a time: the same products in the same order.
 */
#ifndef PERKS_CG_SPMV_CUH
#define PERKS_CG_SPMV_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "types.cuh"

/* a block's rows of the CSR matrix and how its lanes take them */
typedef struct perks_cg_rows {
    int W, S, sw, sl;   /* lanes per row, rows per round, this thread's row slot and its lane in it */
    int r0, nr, k0;     /* the block's first row, its rows, its first nonzero */
    int rounds, mplain; /* rounds of the row loop; 1: the matrix is in shared memory (one nonzero at a time) */
} perks_cg_rows;

/* cache tier 2 (both grid kernels): the block's slice of the matrix (values, columns, row pointers:
 * nk nonzeros, nr + 1 pointers) into shared memory from sv on; RP, VA, CI point there afterwards */
template <class T, int BLOCK>
static __device__ __forceinline__ void perks__cg_stage_matrix(T *sv, int nk, int nr, const int *&RP, const T *&VA,
                                                              const int *&CI)
{
    int *sc = (int *)(sv + nk), *srp = sc + nk;
    for (int k = threadIdx.x; k < nk; k += BLOCK) {
        sv[k] = VA[k];
        sc[k] = __ldg(CI + k);
    }
    for (int k = threadIdx.x; k <= nr; k += BLOCK) srp[k] = __ldg(RP + k);
    VA = sv;
    CI = sc;
    RP = srp;
    __syncthreads();
}

/* SpMV row loop: W lanes per row; all threads of the block run g.rounds times (shuffles stay
 * converged).  gather(j) is the vector element j; rowdone(lr, i, s, d) runs on the row's first
 * lane with the row sum s and the diagonal d (sum of a_ii, 0 if absent).  U: the nonzeros a lane
 * loads at once from device memory. */
template <class T, int U, class Gather, class RowDone>
static __device__ __forceinline__ void perks_cg_spmv(const perks_cg_rows &g, const int *RP, const T *VA, const int *CI,
                                                     Gather gather, RowDone rowdone)
{
    const int W = g.W, sl = g.sl, k0 = g.k0;
#pragma unroll 1
    for (int rd = 0; rd < g.rounds; ++rd) {
        const int lr = rd * g.S + g.sw, i = g.r0 + lr;
        T d = 0, s = 0; /* d declared first: keeps the register assignment ptxas gives the kernels */
        if (lr < g.nr) {
            const int kb = RP[lr], ke = RP[lr + 1];
            if (g.mplain) {
                /* matrix in shared memory: one nonzero at a time, unroll 2 (why: docs/perks-cg.md#sell-spmv) */
#pragma unroll 2
                for (int k = kb + sl; k < ke; k += W) {
                    const int j = CI[k - k0];
                    const T v = VA[k - k0];
                    s += v * (T)gather(j);
                    if (j == i) d += v;
                }
            } else {
#pragma unroll 1
                for (int kk = kb + sl; kk < ke; kk += U * W) {
                    /* the chunk's column and value loads first, then its gathers; the sum keeps the k order */
                    int jj[U];
                    T vv[U], gg[U];
#pragma unroll
                    for (int u = 0; u < U; ++u) {
                        const int k = kk + u * W;
                        jj[u] = k < ke ? CI[k - k0] : -1;
                        vv[u] = k < ke ? VA[k - k0] : (T)0;
                    }
#pragma unroll
                    for (int u = 0; u < U; ++u) {
                        const int j = jj[u];
                        gg[u] = j >= 0 ? (T)gather(j) : (T)0;
                    }
#pragma unroll
                    for (int u = 0; u < U; ++u) {
                        if (jj[u] >= 0) s += vv[u] * gg[u];
                        if (jj[u] == i) d += vv[u];
                    }
                }
            }
        }
        for (int o = W >> 1; o > 0; o >>= 1) {
            s += __shfl_xor_sync(0xffffffffu, s, o, W);
            d += __shfl_xor_sync(0xffffffffu, d, o, W);
        }
        if (lr < g.nr && sl == 0) rowdone(lr, i, s, d);
    }
}

/* the stream path's SpMV: every row from the sliced-ELL copy (slice s: rows 32 s .. 32 s + 31, entry
 * k of its row l at SO[s] + 32 k + l; column SC, -1 where padded; value SV), a warp a slice, a lane a
 * row, summed in k order: perks_cg_spmv's sums with one lane a row, bit for bit.  rowdone(i, s, d,
 * self) on every lane with a row i < n; self(i) (= gather(i)) is called for i >= n too (the last
 * slice's padding lanes) and must not read there.  The sweep and the shuffles:
 * docs/perks-cg.md#sell-spmv */
#ifndef PERKS_CG_SELL_LOAD
#define PERKS_CG_SELL_LOAD(p) __ldcs(p)
#endif
template <class T, int U, int BLOCK, class Self, class Gather, class RowDone>
static __device__ __forceinline__ void perks_cg_sell_spmv(int n, const int *SO, const int *SC, const T *SV, Self self,
                                                          Gather gather, RowDone rowdone)
{
    const int lane = threadIdx.x & 31, ns = (n + PERKS_CG_SELL_C - 1) / PERKS_CG_SELL_C;
#pragma unroll 1
    for (int sl = blockIdx.x * (BLOCK / 32) + threadIdx.x / 32; sl < ns; sl += gridDim.x * (BLOCK / 32)) {
        const int i = sl * PERKS_CG_SELL_C + lane;
        const int kb = __ldg(SO + sl), w = (__ldg(SO + sl + 1) - kb) / PERKS_CG_SELL_C;
        const int *c = SC + kb + lane;
        const T *v = SV + kb + lane;
        const T gc = self(i), gm = __shfl_up_sync(0xffffffffu, gc, 1), gp = __shfl_down_sync(0xffffffffu, gc, 1);
        T d = 0, s = 0;
#pragma unroll 1
        for (int k = 0; k < w; k += U) {
            int jj[U];
            T vv[U], gg[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                jj[u] = k + u < w ? PERKS_CG_SELL_LOAD(c + (k + u) * PERKS_CG_SELL_C) : -1;
                vv[u] = k + u < w ? PERKS_CG_SELL_LOAD(v + (k + u) * PERKS_CG_SELL_C) : (T)0;
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int j = jj[u];
                gg[u] = j == i                      ? gc
                        : j == i - 1 && lane > 0    ? gm
                        : j == i + 1 && lane < 31   ? gp
                        : j >= 0                    ? (T)gather(j)
                                                    : (T)0;
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (jj[u] >= 0) s += vv[u] * gg[u];
                if (jj[u] == i) d += vv[u];
            }
        }
        if (i < n) rowdone(i, s, d, gc);
    }
}

/* residual replacement's row loop: the same lanes per row, one nonzero at a time, the row sum s in
 * double whatever T is (r = b - A x as exactly as x allows): s = sum_k val(k) gather(j_k);
 * rowdone(lr, i, s) on the first lane */
template <class Val, class Gather, class RowDone>
static __device__ __forceinline__ void perks_cg_rrows(const perks_cg_rows &g, const int *RP, const int *CI, Val val,
                                                      Gather gather, RowDone rowdone)
{
    const int W = g.W, sl = g.sl, k0 = g.k0;
#pragma unroll 1
    for (int rd = 0; rd < g.rounds; ++rd) {
        const int lr = rd * g.S + g.sw, i = g.r0 + lr;
        double s = 0;
        if (lr < g.nr)
            for (int k = RP[lr] + sl; k < RP[lr + 1]; k += W) {
                const int j = CI[k - k0];
                s += (double)val(k) * (double)gather(j);
            }
        for (int o = W >> 1; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o, W);
        if (lr < g.nr && sl == 0) rowdone(lr, i, s);
    }
}

/* cluster path: z_j + beta p_j of row j = (rank << 24 | local) from the (z, p) pairs of block rank:
 * a 32-bit shared::cluster address (mapa) and one 16-byte ld.shared::cluster (8 bytes for float);
 * asm volatile keeps it between the cluster barriers (which are volatile asm too) */
static __device__ __forceinline__ __attribute__((unused)) double perks__cg_cgather(const double *zp, int e, double beta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned sa = (unsigned)__cvta_generic_to_shared(zp) + 16u * (unsigned)(e & 0xffffff);
    unsigned ra;
    double z, p;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"((unsigned)e >> 24));
    asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];" : "=d"(z), "=d"(p) : "r"(ra));
    return fma(beta, p, z);
#else
    const double2 v = *(const double2 *)(zp + 2 * (e & 0xffffff));
    return fma(beta, v.y, v.x);
#endif
}
static __device__ __forceinline__ __attribute__((unused)) float perks__cg_cgather(const float *zp, int e, float beta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned sa = (unsigned)__cvta_generic_to_shared(zp) + 8u * (unsigned)(e & 0xffffff);
    unsigned ra;
    float z, p;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"((unsigned)e >> 24));
    asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(z), "=f"(p) : "r"(ra));
    return fmaf(beta, p, z);
#else
    const float2 v = *(const float2 *)(zp + 2 * (e & 0xffffff));
    return fmaf(beta, v.y, v.x);
#endif
}

/* Chronopoulos-Gear kernel: r_j of the next iteration, recomputed by every reader from row j's quad
 * (r, w = A u, s_old, d) of the previous phase with the expressions its owner uses, s = w + beta s_old
 * and r' = r - alpha s (u' = d r' with Jacobi, else r'), so the neighbours need no barrier between
 * the owner's update and the SpMV that reads u' */
static __device__ __forceinline__ __attribute__((unused)) double perks__cg1_step(double r, double w, double so,
                                                                                 double alpha, double beta,
                                                                                 double *s_out)
{
    const double s = fma(beta, so, w);
    *s_out = s;
    return fma(-alpha, s, r);
}
static __device__ __forceinline__ __attribute__((unused)) float perks__cg1_step(float r, float w, float so,
                                                                                float alpha, float beta, float *s_out)
{
    const float s = fmaf(beta, so, w);
    *s_out = s;
    return fmaf(-alpha, s, r);
}
/* u'_j gathered from the quad of row j (device memory, L2) */
static __device__ __forceinline__ __attribute__((unused)) double perks__cg1_u(const double *q, double alpha,
                                                                              double beta, int jac)
{
    const double2 rw = __ldcg((const double2 *)q), sd = __ldcg((const double2 *)q + 1);
    double s;
    const double x = perks__cg1_step(rw.x, rw.y, sd.x, alpha, beta, &s);
    return jac ? sd.y * x : x;
}
static __device__ __forceinline__ __attribute__((unused)) float perks__cg1_u(const float *q, float alpha, float beta,
                                                                             int jac)
{
    const float4 v = __ldcg((const float4 *)q);
    float s;
    const float x = perks__cg1_step(v.x, v.y, v.z, alpha, beta, &s);
    return jac ? v.w * x : x;
}

#endif /* PERKS_CG_SPMV_CUH */
#include <onchip/names_pop.h>
