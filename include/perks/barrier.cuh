#include <onchip/names_push.h>
/* perks/barrier.cuh -- grid barriers that also sum per-block partials (fixed order, same bits in
 * every block), for persistent kernels whose barriers exist to publish dot products (perks/cg.cuh).
 *
 * WHAT (PERKS paper section 3; protocols: docs/perks.md#reference-the-three-summing-barriers)
 *   perks_flag_sum(slots, G, k, nv, v0, v1, v2, fred, &t0, &t1, &t2)   one hop, no atomics
 *   perks_sum_barrier(bar, part, slot, nv, G, tot)    the last block to arrive sums
 *   perks_count_sum(cnt, part, slot, nv, G, target, v0, v1, v2, tot)   grid.sync's protocol with
 *     the partials' read folded in (perks/cg.cuh's default); perks_count_arrive_wait its barrier
 *   perks_partials_total(part, slot, nv, G, lane, put)   the fixed-order reduction they share
 *   perks__warp_sum3<XOR>(v0, v1, v2, red)   three sums over a warp into red[warp]
 *   perks__block_sum<NT, NV>(v0, v1)    one or two sums over a block into thread 0's
 *   Call each from every thread of every block, the same number of times, after a __syncthreads
 *   that orders the block's writes; thread 0's values count.
 *
 * EXAMPLE
 *   [not compiled: a piece of a kernel (block_sum, ws, BLOCK from the kernel)]
 *   // workspace: PERKS_FLAG_WORDS(G) doubles, cudaMemsetAsync(ws, 0xff, ...) before the launch
 *   __shared__ double fred[BLOCK / 32][PERKS_FLAG_NV];
 *   unsigned int k = 0;
 *   double t0, t1, t2;
 *   double mine = block_sum(...);                       // in thread 0, after a __syncthreads
 *   perks_flag_sum(ws, gridDim.x, k++, 1, mine, 0, 0, fred, &t0, &t1, &t2);   // t0: the total
 *
 * LIMITS (docs/perks.md#design-notes-perksbarriercuh)
 *   Every block co-resident (cooperative launch, perks_launch); one workspace per running kernel.
 *   perks_flag_sum: nv <= 3, G <= 2 blockDim.x, blockDim.x a multiple of 32; perks_sum_barrier:
 *   nv <= 4.  sm_70+: ld.acquire / st.release; older devices: volatile accesses, __threadfence.
 */
#ifndef PERKS_BARRIER_CUH
#define PERKS_BARRIER_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

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

/* one warp (all 32 lanes) sums part[(slot + c) * G + 0 .. G-1] for c < nv in a fixed order (the
 * same bits in every block) and lane 0 calls put(c, total); after the barrier that publishes them */
template <class Put>
static __device__ __forceinline__ void perks_partials_total(const double *part, int slot, int nv, int G, int lane,
                                                            Put put)
{
    for (int c = 0; c < nv; ++c) {
        double s = 0;
#pragma unroll 8
        for (int j = lane; j < G; j += 32) s += __ldcg(part + (slot + c) * G + j);
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == 0) put(c, s);
    }
}

/* v0..v(NV-1) summed over the warp (XOR 1: butterfly, in every lane; 0: shuffle down), lane 0's
 * into red[warp] */
template <int XOR, int NV = 3>
static __device__ __forceinline__ void perks__warp_sum3(double &v0, double &v1, double &v2, double (*red)[3])
{
    for (int o = 16; o > 0; o >>= 1) {
        v0 += XOR ? __shfl_xor_sync(0xffffffffu, v0, o) : __shfl_down_sync(0xffffffffu, v0, o);
        if (NV > 1) v1 += XOR ? __shfl_xor_sync(0xffffffffu, v1, o) : __shfl_down_sync(0xffffffffu, v1, o);
        if (NV > 2) v2 += XOR ? __shfl_xor_sync(0xffffffffu, v2, o) : __shfl_down_sync(0xffffffffu, v2, o);
    }
    if ((threadIdx.x & 31) == 0) {
        red[threadIdx.x >> 5][0] = v0;
        if (NV > 1) red[threadIdx.x >> 5][1] = v1;
        if (NV > 2) red[threadIdx.x >> 5][2] = v2;
    }
}

/* v0 (NV 1) or v0 and v1 (NV 2) summed over a block of NT threads into thread 0's: the warps', then
 * theirs by a shuffle tree in warp 0; every thread calls it, the block's shared memory free after */
template <int NT, int NV>
static __device__ __forceinline__ void perks__block_sum(double &v0, double &v1)
{
    __shared__ double red[NT / 32][3];
    double v2 = 0;
    perks__warp_sum3<0, NV>(v0, v1, v2, red);
    __syncthreads();
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        v0 = lane < NT / 32 ? red[lane][0] : 0.0;
        if (NV > 1) v1 = lane < NT / 32 ? red[lane][1] : 0.0;
        for (int o = 16; o > 0; o >>= 1) {
            v0 += __shfl_down_sync(0xffffffffu, v0, o);
            if (NV > 1) v1 += __shfl_down_sync(0xffffffffu, v1, o);
        }
    }
    __syncthreads();
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
    /* the last block's first warp reads the partials (after thread 0's fence and the barrier) */
    if (perks__sb_last && threadIdx.x < 32) {
        const int lane = threadIdx.x;
        perks_partials_total(part, slot, nv, G, lane, [=](int c, double s) {
            tot[c] = s;
            gtot[c] = s;
        });
        if (lane == 0) {
            *cnt = 0u;
            __threadfence();
            perks__st_release_u32(gen, perks__sb_gen + 1u);
        }
    }
    __syncthreads();
}

/* ---- perks_flag_sum */
#define PERKS_FLAG_NV 3 /* values per call at most */
#define PERKS_FLAG_U 2  /* slots each thread reads at most: G <= 2 blockDim.x */
#define PERKS_FLAG_WORDS(G) ((size_t)3 * PERKS_FLAG_NV * (size_t)(G))
#define PERKS_FLAG_EMPTY 0xffffffffffffffffull
#ifndef PERKS_FLAG_SLEEP_NS
#define PERKS_FLAG_SLEEP_NS 0 /* __nanosleep between re-reads of a slot still empty (0: none) */
#endif

static __device__ __forceinline__ unsigned long long perks__ld_relaxed_u64(const unsigned long long *p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
#else
    return *(volatile const unsigned long long *)p;
#endif
}

static __device__ __forceinline__ void perks__st_relaxed_u64(unsigned long long *p, unsigned long long v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
    *(volatile unsigned long long *)p = v;
#endif
}

/* fence.acq_rel.gpu, not __threadfence (fence.sc): docs/perks.md#reference-the-three-summing-barriers */
static __device__ __forceinline__ void perks__fence_acq_rel_gpu(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
    __threadfence();
#endif
}

static __device__ __forceinline__ __attribute__((unused)) void
perks_flag_sum(double *slots, int G, unsigned int k, int nv, double v0, double v1, double v2,
               double (*fred)[PERKS_FLAG_NV], double *t0, double *t1, double *t2)
{
    unsigned long long *w = (unsigned long long *)slots;
    const size_t GS = (size_t)G;
    unsigned long long *cur = w + (size_t)(k % 3u) * PERKS_FLAG_NV * GS;
    unsigned long long *nxt = w + (size_t)((k + 1u) % 3u) * PERKS_FLAG_NV * GS;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if (threadIdx.x == 0) {
        const double v[PERKS_FLAG_NV] = {v0, v1, v2};
        /* all slots: the next call through that buffer may publish more values */
        for (int c = 0; c < PERKS_FLAG_NV; ++c) perks__st_relaxed_u64(nxt + c * GS + blockIdx.x, PERKS_FLAG_EMPTY);
        perks__fence_acq_rel_gpu(); /* release: the block's writes first */
        for (int c = 0; c < nv; ++c) {
            const unsigned long long bits =
                v[c] != v[c] ? 0x7ff8000000000000ull : (unsigned long long)__double_as_longlong(v[c]);
            perks__st_relaxed_u64(cur + c * GS + blockIdx.x, bits);
        }
    }
    /* the block's own value is out before its threads spin (docs/perks.md#barrier-own-value) */
    __syncthreads();
    unsigned long long x[PERKS_FLAG_NV][PERKS_FLAG_U];
    _Pragma("unroll") for (int c = 0; c < PERKS_FLAG_NV; ++c)
    _Pragma("unroll") for (int u = 0; u < PERKS_FLAG_U; ++u) {
        const int j = threadIdx.x + u * blockDim.x;
        x[c][u] = (c < nv && j < G) ? perks__ld_relaxed_u64(cur + c * GS + j) : 0ull;
    }
    _Pragma("unroll") for (int c = 0; c < PERKS_FLAG_NV; ++c)
    _Pragma("unroll") for (int u = 0; u < PERKS_FLAG_U; ++u) {
        const int j = threadIdx.x + u * blockDim.x;
        if (c < nv && j < G)
            while (x[c][u] == PERKS_FLAG_EMPTY) {
#if PERKS_FLAG_SLEEP_NS > 0 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
                __nanosleep(PERKS_FLAG_SLEEP_NS);
#endif
                x[c][u] = perks__ld_relaxed_u64(cur + c * GS + j);
            }
    }
    if (threadIdx.x < G) perks__fence_acq_rel_gpu(); /* acquire */
    double s[PERKS_FLAG_NV];
    _Pragma("unroll") for (int c = 0; c < PERKS_FLAG_NV; ++c) {
        s[c] = 0;
        _Pragma("unroll") for (int u = 0; u < PERKS_FLAG_U; ++u) s[c] += __longlong_as_double((long long)x[c][u]);
        /* xor butterfly: the same bits in every lane */
        for (int o = 16; o > 0; o >>= 1) s[c] += __shfl_xor_sync(0xffffffffu, s[c], o);
    }
    if (lane == 0) {
        _Pragma("unroll") for (int c = 0; c < PERKS_FLAG_NV; ++c) fred[warp][c] = s[c];
    }
    __syncthreads();
    double r[PERKS_FLAG_NV] = {0, 0, 0};
    for (int q = 0; q < nw; ++q) {
        _Pragma("unroll") for (int c = 0; c < PERKS_FLAG_NV; ++c) r[c] += fred[q][c];
    }
    *t0 = r[0];
    *t1 = r[1];
    *t2 = r[2];
}

/* ---- perks_count_sum */
static __device__ __forceinline__ void perks__atom_add_release_u32(unsigned int *p, unsigned int v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
    __threadfence();
    atomicAdd(p, v);
#endif
}

/* the barrier alone, for warp 0 (all lanes): lane 0 arrives (release), every lane spins (acquire)
 * until cnt reaches target; the other warps wait at a __syncthreads after it */
static __device__ __forceinline__ __attribute__((unused)) void perks_count_arrive_wait(unsigned int *cnt,
                                                                                       unsigned int target)
{
    if ((threadIdx.x & 31) == 0) perks__atom_add_release_u32(cnt, 1u);
    __syncwarp();
    while ((int)(perks__ld_acquire_u32(cnt) - target) < 0) {
    }
}

static __device__ __forceinline__ __attribute__((unused)) void
perks_count_sum(unsigned int *cnt, double *part, int slot, int nv, int G, unsigned int target, double v0, double v1,
                double v2, double *tot)
{
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        if (lane == 0) {
            part[slot * G + blockIdx.x] = v0;
            if (nv > 1) part[(slot + 1) * G + blockIdx.x] = v1;
            if (nv > 2) part[(slot + 2) * G + blockIdx.x] = v2;
        }
        perks_count_arrive_wait(cnt, target);
        perks_partials_total(part, slot, nv, G, lane, [=](int c, double s) { tot[c] = s; });
    }
    __syncthreads();
}

#endif /* PERKS_BARRIER_CUH */
#include <onchip/names_pop.h>
