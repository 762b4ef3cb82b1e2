/* perks/barrier.cuh -- a grid barrier that also sums per-block partials (fixed order, same bits in
 * every block), for persistent kernels whose barriers exist to publish dot products (perks/cg.cuh).
 *
 * WHAT (PERKS paper section 3: the time loop inside one cooperative kernel; each CG barrier exists
 * only to publish a dot product)
 *   perks_sum_barrier(bar, part, slot, nv, G, tot)    called by every thread of every block:
 *     the block's thread 0 must already have written its partials part[(slot + c) * G + blockIdx.x],
 *     c < nv <= 4.  Thread 0 arrives on a counter (atomicAdd after __threadfence); the block that
 *     arrives last sums part[slot + c][0 .. G-1] with one warp (lane-strided, then a shuffle tree:
 *     a fixed order, so the bits do not depend on which block is last), stores the totals next to
 *     the barrier, resets the counter and releases the others by bumping a generation word
 *     (st.release); the others spin on that word (ld.acquire) and read the totals.  On return every
 *     thread of the block sees tot[0 .. nv-1] (shared memory) and everything written before the
 *     barrier by any block.
 *   Against cooperative_groups grid.sync() followed by every block reading the G partials, the
 *   waiting blocks do one L2 round trip for the totals instead of G / 32 dependent loads.
 *
 * EXAMPLE
 *   // workspace: PERKS_SUM_BARRIER_WORDS doubles, zeroed before the launch (cudaMemsetAsync)
 *   __shared__ double tot[4];
 *   if (threadIdx.x == 0) part[blockIdx.x] = my_block_sum;
 *   perks_sum_barrier(bar, part, 0, 1, gridDim.x, tot);
 *   double total = tot[0];
 *
 * LIMITS
 *   Every block of the grid must be co-resident (cooperative launch, perks_launch) and call it the
 *   same number of times; one barrier workspace per concurrently running kernel.  nv <= 4.
 *   sm_70 or newer uses ld.acquire / st.release; older devices fall back to volatile accesses with
 *   __threadfence.
 */
#ifndef PERKS_BARRIER_CUH
#define PERKS_BARRIER_CUH

#include <cuda_runtime.h>

/* layout (in doubles): [0] count (u32) + generation (u32), [1..4] totals */
#define PERKS_SUM_BARRIER_WORDS 8

static __device__ __forceinline__ unsigned int perks__ld_acquire_u32(const unsigned int *p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    unsigned int v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
#else
    unsigned int v = *(volatile const unsigned int *)p;
    __threadfence();
    return v;
#endif
}

static __device__ __forceinline__ void perks__st_release_u32(unsigned int *p, unsigned int v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
    __threadfence();
    *(volatile unsigned int *)p = v;
#endif
}

static __device__ __forceinline__ __attribute__((unused)) void perks_sum_barrier(double *bar, const double *part, int slot, int nv, int G,
                                                         double *tot)
{
    __shared__ unsigned int perks__sb_last, perks__sb_gen;
    unsigned int *cnt = (unsigned int *)bar, *gen = cnt + 1;
    double *gtot = bar + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned int g = perks__ld_acquire_u32(gen);
        __threadfence(); /* this block's partials and data before the arrival */
        const unsigned int old = atomicAdd(cnt, 1u);
        __threadfence();
        perks__sb_last = old == (unsigned int)G - 1u ? 1u : 0u;
        perks__sb_gen = g;
        if (!perks__sb_last) {
            while (perks__ld_acquire_u32(gen) == g) {
            }
            for (int c = 0; c < nv; ++c) tot[c] = __ldcg(gtot + c);
        }
    }
    __syncthreads();
    /* the last block: its first warp reads the partials after thread 0's fence and the block barrier */
    if (perks__sb_last && threadIdx.x < 32) {
        const int lane = threadIdx.x;
        for (int c = 0; c < nv; ++c) {
            double s = 0;
            _Pragma("unroll 4") for (int j = lane; j < G; j += 32) s += __ldcg(part + (slot + c) * G + j);
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            if (lane == 0) {
                tot[c] = s;
                gtot[c] = s;
            }
        }
        if (lane == 0) {
            *cnt = 0u;
            __threadfence();
            perks__st_release_u32(gen, perks__sb_gen + 1u);
        }
    }
    __syncthreads();
}

#endif /* PERKS_BARRIER_CUH */
