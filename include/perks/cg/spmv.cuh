#include <onchip/names_push.h>
/* perks/cg/spmv.cuh -- a block's rows of a CSR matrix times a vector, W lanes per row, and the
 * gathers the CG kernels feed it (perks/cg.cuh, THE ITERATION).
 *
 * WHAT (PERKS paper section 4.1.3-4.1.4: the matrix slice cached in shared memory when it fits)
 *   perks_cg_rows, perks__cg_stage_matrix   a block's rows; its matrix slice into shared memory
 *   perks_cg_spmv, perks_cg_rrows      the row loops: in T, and in double for r = b - A x
 *   perks_cg_sell_spmv                 the stream path's loop over the sliced-ELL copy
 *   perks__cg_cgather, perks__cg1_step, perks__cg1_u   the cluster and Chronopoulos-Gear gathers
 *   gather, val and rowdone are functors or lambdas; every thread of the block calls the row loops.
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
 * LIMITS: W a power of two <= 32 dividing BLOCK; 32-bit indices.  Loads and order:
 *   docs/perks-cg.md#design-notes-perkscgspmvcuh.
 */
#ifndef PERKS_CG_SPMV_CUH
#define PERKS_CG_SPMV_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "types.cuh"

/* a block's rows of the CSR matrix and how its lanes take them */
typedef struct perks_cg_rows {
    int W, S, sw, sl;   /* lanes per row, rows per round, this thread's row slot and lane */
    int r0, nr, k0;     /* the block's first row, its rows, its first nonzero */
    int rounds, mplain; /* rounds of the row loop; 1: the matrix is in shared memory */
} perks_cg_rows;

/* cache tier 2: the block's slice (nk values and columns, nr + 1 row pointers) into shared memory
 * at sv; RP, VA, CI point there afterwards */
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

/* W lanes a row, g.rounds rounds on every thread; rowdone(lr, i, s, d) on the row's first lane,
 * s = sum_k a_ik gather(j_k), d = a_ii (0 if absent); U: nonzeros a lane loads at once */
template <class T, int U, class Gather, class RowDone>
static __device__ __forceinline__ void perks_cg_spmv(const perks_cg_rows &g, const int *RP, const T *VA, const int *CI,
                                                     Gather gather, RowDone rowdone)
{
    const int W = g.W, sl = g.sl, k0 = g.k0;
#pragma unroll 1
    for (int rd = 0; rd < g.rounds; ++rd) {
        const int lr = rd * g.S + g.sw, i = g.r0 + lr;
        T d = 0, s = 0; /* d first: keeps ptxas's register assignment */
        if (lr < g.nr) {
            const int kb = RP[lr], ke = RP[lr + 1];
            if (g.mplain) {
                /* one nonzero at a time, unroll 2 (docs/perks-cg.md#sell-spmv) */
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
                    /* loads first, then gathers; the sum keeps the k order */
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

/* the stream path: every row from the sliced-ELL copy (entry k of slice s's row l at SO[s] + 32 k
 * + l; column SC, -1: padding), a lane a row; rowdone(i, s, d, self) for i < n; self(i) = gather(i)
 * is called for i >= n too and must not read there.  docs/perks-cg.md#sell-spmv */
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

/* residual replacement's loop: s = sum_k val(k) gather(j_k) in double, one nonzero at a time;
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

/* cluster path: z_j + beta p_j of row j = (rank << 24 | local) from block rank's (z, p) pairs (mapa,
 * one ld.shared::cluster); volatile keeps it between the cluster barriers.  T float or double */
template <class T> struct alignas(2 * sizeof(T)) perks__cg_zpair {
    T z, p;
};
template <class T> static __device__ __forceinline__ T perks__cg_cgather(const T *zp, int e, T beta)
{
    T z, p;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned sa = (unsigned)__cvta_generic_to_shared(zp) + 2u * (unsigned)sizeof(T) * (unsigned)(e & 0xffffff);
    unsigned ra;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"((unsigned)e >> 24));
    if constexpr (sizeof(T) == 8)
        asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];" : "=d"(z), "=d"(p) : "r"(ra));
    else
        asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(z), "=f"(p) : "r"(ra));
#else
    const perks__cg_zpair<T> v = *(const perks__cg_zpair<T> *)(zp + 2 * (e & 0xffffff));
    z = v.z, p = v.p;
#endif
    return fma(beta, p, z);
}

/* Chronopoulos-Gear: r'_j = r - alpha (w + beta s_old) from row j's quad (r, w, s_old, d), as its
 * owner computes it; every reader recomputes it (docs/perks-cg.md#cgear-iteration) */
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
