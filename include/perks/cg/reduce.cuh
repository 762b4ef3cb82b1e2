#include <onchip/names_push.h>
/* perks/cg/reduce.cuh -- the dot products of the CG kernels: block sums, then the grid's or the
 * cluster's totals, the same bits in every block (perks/cg.cuh, THE ITERATION).
 *
 * WHAT (PERKS paper section 3: each CG barrier exists to publish a dot product)
 *   perks__cg_block_reduce, _grid_total, _put_partials; perks__cg_rctx, perks__cg_reduce (classic), perks__cg1_reduce
 *   (Chronopoulos-Gear); perks__cg_cluster_sync, _ctotal, _creduce (the cluster path, sm_90);
 *   perks__cg_red, _fred, _tot, _cpart, _ctot: the kernels' static shared memory.
 *   Every thread of every block calls them, the same number of times; thread 0's values are the
 *   block's.  The partials are added in a fixed order: reruns give the same bits.
 *
 * EXAMPLE (inside a cooperative kernel of BLOCK threads, a.bmode = PERKS_CG_BAR_COUNT)
 *   [not compiled: a piece of the library's kernel bodies (a, mine, BLOCK from the kernel)]
 *   __shared__ double red[BLOCK / 32][3], fred[BLOCK / 32][PERKS_FLAG_NV], tot[4];
 *   const perks__cg_rctx c = {red, fred, tot, (int)gridDim.x};
 *   unsigned int fb = 0;
 *   double t0, t1, t2;
 *   perks__cg_reduce(a, c, mine, 0, 0, 1, 0, fb, t0, t1, t2);  // t0: the total
 *
 * LIMITS (docs/perks-cg.md#design-notes-perkscgreducecuh): nv <= 3; the workspaces of perks_cg_kargs
 * as perks__cg_plan_grid sizes them.  Built for devices before sm_90 the cluster pieces fall back
 * to the block (never launched there).
 */
#ifndef PERKS_CG_REDUCE_CUH
#define PERKS_CG_REDUCE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "../barrier.cuh"
#include "../grid.cuh"
#include "types.cuh"

/* the kernels' static shared memory, a set per kernel (K: its own type), bound in declaration order */
template <class K, int NW> static __shared__ double perks__cg_red[NW][3];            /* block sums: NW warps */
template <class K, int NW> static __shared__ double perks__cg_fred[NW][PERKS_FLAG_NV]; /* perks_flag_sum's */
template <class K> static __shared__ double perks__cg_tot[4];                        /* the totals */
typedef struct __align__(16) perks__cg_cpart_t { /* the cluster's block partials (16-byte loads; */
    double v[2][4];                                  /* __align__ works on a type, not a variable template) */
} perks__cg_cpart_t;
template <class K> static __shared__ perks__cg_cpart_t perks__cg_cpart;             /* cluster: block partials */
template <class K> static __shared__ double perks__cg_ctot[4];                       /* cluster: the totals */

/* perks_count_sum's counter (zeroed by perks__cg_start before each launch) */
static __device__ __forceinline__ unsigned int *perks__cg_cnt(const perks_cg_kargs &a)
{
    return (unsigned int *)(a.bar + 6);
}

/* the block's sums into thread 0's *s0..*s2 (shuffles, then the warps in order), after a
 * __syncthreads that orders the block's earlier writes */
static __device__ __forceinline__ void perks__cg_block_reduce(double v0, double v1, double v2, double (*red)[3],
                                                              double *s0, double *s1, double *s2)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1) {
        v0 += __shfl_xor_sync(0xffffffffu, v0, o);
        v1 += __shfl_xor_sync(0xffffffffu, v1, o);
        v2 += __shfl_xor_sync(0xffffffffu, v2, o);
    }
    if (lane == 0) {
        red[warp][0] = v0;
        red[warp][1] = v1;
        red[warp][2] = v2;
    }
    __syncthreads();
    if (warp == 0) {
        const int nw = blockDim.x >> 5;
        double a0 = lane < nw ? red[lane][0] : 0, a1 = lane < nw ? red[lane][1] : 0, a2 = lane < nw ? red[lane][2] : 0;
        for (int o = 16; o > 0; o >>= 1) {
            a0 += __shfl_xor_sync(0xffffffffu, a0, o);
            a1 += __shfl_xor_sync(0xffffffffu, a1, o);
            a2 += __shfl_xor_sync(0xffffffffu, a2, o);
        }
        *s0 = a0;
        *s1 = a1;
        *s2 = a2;
    }
}

/* after the grid barrier: the totals of part[slot .. slot+nv-1][0..G-1] into tot[0..nv-1] */
static __device__ __forceinline__ void perks__cg_grid_total(const double *part, int slot, int nv, int G,
                                                            double *tot)
{
    if (threadIdx.x < 32)
        perks_partials_total(part, slot, nv, G, (int)threadIdx.x, [=](int c, double s) { tot[c] = s; });
    __syncthreads();
}

/* the barrier of a.bmode (count: warp 0 spins to target; else grid.sync), then the totals */
static __device__ __forceinline__ void perks__cg_sync_total(const perks_cg_kargs &a, int slot, int nv, int G,
                                                            unsigned int target, double *tot)
{
    if (a.bmode != PERKS_CG_BAR_COUNT) PERKS_GRID_SYNC();
    else if (threadIdx.x < 32) perks_count_arrive_wait(perks__cg_cnt(a), target);
    perks__cg_grid_total(a.part, slot, nv, G, tot);
}

/* thread 0: the block's sums into part[(slot + c) * G + blockIdx.x], c < nv */
static __device__ __forceinline__ void perks__cg_put_partials(double *part, int slot, int nv, int G, double s0,
                                                              double s1, double s2)
{
    if (threadIdx.x == 0) {
        part[slot * G + blockIdx.x] = s0;
        if (nv > 1) part[(slot + 1) * G + blockIdx.x] = s1;
        if (nv > 2) part[(slot + 2) * G + blockIdx.x] = s2;
    }
}

/* a grid kernel's reductions: its shared memory (block sums, perks_flag_sum's or NULL, totals), blocks */
typedef struct perks__cg_rctx {
    double (*red)[3];
    double (*fred)[PERKS_FLAG_NV];
    double *tot;
    int G;
} perks__cg_rctx;

/* classic grid kernel: block sums, barrier a.bmode (fb counts them), totals in every thread */
static __device__ __forceinline__ void perks__cg_reduce(const perks_cg_kargs &a, const perks__cg_rctx &c, double v0,
                                                        double v1, double v2, int nv, int slot, unsigned int &fb,
                                                        double &t0, double &t1, double &t2)
{
    const int G = c.G;
    double *tot = c.tot;
    double s0_ = 0, s1_ = 0, s2_ = 0;
    perks__cg_block_reduce(v0, v1, v2, c.red, &s0_, &s1_, &s2_);
    if (a.bmode == PERKS_CG_BAR_FLAG) {
        perks_flag_sum(a.flag, G, fb++, nv, s0_, s1_, s2_, c.fred, &t0, &t1, &t2);
    } else {
        perks__cg_put_partials(a.part, slot, nv, G, s0_, s1_, s2_);
        if (a.bmode == PERKS_CG_BAR_SUM) perks_sum_barrier(a.bar, a.part, slot, nv, G, tot);
        else {
            ++fb;
            perks__cg_sync_total(a, slot, nv, G, (unsigned int)G * fb, tot);
        }
        t0 = tot[0];
        t1 = tot[1];
        t2 = tot[2];
    }
}

/* Chronopoulos-Gear: the same, count or grid.sync only; the partials alternate between slots 0-2
 * and 3-5 (docs/perks-cg.md#cgear-iteration); nbar counts the barriers */
static __device__ __forceinline__ void perks__cg1_reduce(const perks_cg_kargs &a, const perks__cg_rctx &c, double v0,
                                                         double v1, double v2, int nv, unsigned int &nbar, double &t0,
                                                         double &t1, double &t2)
{
    const int G = c.G;
    double *tot = c.tot;
    double s0_ = 0, s1_ = 0, s2_ = 0;
    perks__cg_block_reduce(v0, v1, v2, c.red, &s0_, &s1_, &s2_);
    const int ps_ = (int)(nbar++ & 1u) * 3;
    perks__cg_put_partials(a.part, ps_, nv, G, s0_, s1_, s2_);
    perks__cg_sync_total(a, ps_, nv, G, (unsigned int)G * nbar, tot);
    t0 = tot[0];
    t1 = tot[1];
    t2 = tot[2];
}

/* cluster barrier (release / acquire, the cluster's shared memory included); every thread */
static __device__ __forceinline__ __attribute__((unused)) void perks__cg_cluster_sync(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
#else
    __syncthreads();
#endif
}

/* cluster path: the totals of the C blocks' cp (4 doubles, 16-byte aligned) in every thread; warp 0
 * reads block l's in lane l (docs/perks-cg.md#design-notes, cluster size), xor butterfly */
static __device__ __forceinline__ __attribute__((unused)) void perks__cg_ctotal(const double *cp, int C, int nv,
                                                                                double *tot, double *t)
{
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        double2 c01 = make_double2(0, 0), c23 = make_double2(0, 0);
        if (lane < C) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            const double2 *r = (const double2 *)__cluster_map_shared_rank((const void *)cp, (unsigned)lane);
#else
            const double2 *r = (const double2 *)cp;
#endif
            c01 = r[0];
            if (nv > 2) c23 = r[1];
        }
        for (int o = 16; o > 0; o >>= 1) {
            c01.x += __shfl_xor_sync(0xffffffffu, c01.x, o);
            c01.y += __shfl_xor_sync(0xffffffffu, c01.y, o);
            if (nv > 2) {
                c23.x += __shfl_xor_sync(0xffffffffu, c23.x, o);
                c23.y += __shfl_xor_sync(0xffffffffu, c23.y, o);
            }
        }
        if (lane == 0) tot[0] = c01.x, tot[1] = c01.y, tot[2] = c23.x, tot[3] = c23.y;
    }
    __syncthreads();
    t[0] = tot[0];
    t[1] = tot[1];
    t[2] = tot[2];
    t[3] = tot[3];
}

/* cluster kernel: block sums into cp (this block's slot), cluster barrier, totals into tt[0..3] */
static __device__ __forceinline__ __attribute__((unused)) void
perks__cg_creduce(double v0, double v1, double v2, int nv, double *cp, int C, double (*red)[3], double *ctot,
                  double *tt)
{
    double s0_ = 0, s1_ = 0, s2_ = 0;
    perks__cg_block_reduce(v0, v1, v2, red, &s0_, &s1_, &s2_);
    if (threadIdx.x == 0) {
        cp[0] = s0_;
        cp[1] = s1_;
        cp[2] = s2_;
    }
    perks__cg_cluster_sync();
    perks__cg_ctotal(cp, C, nv, ctot, tt);
}

#endif /* PERKS_CG_REDUCE_CUH */
#include <onchip/names_pop.h>
