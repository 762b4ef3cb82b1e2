#include <onchip/names_push.h>
/* onchip/async.cuh -- asynchronous copies global -> shared memory (cp.async, sm_80+), the one set
 * every module uses.
 *
 * WHAT
 *   onchip_cp_async4(dst, src, ok)      one T of 4 bytes (T *dst, const T *src) through L1
 *                                       (cp.async.ca); zeros when !ok (src not read)
 *   onchip_cp_async8(dst, src, ok)      one T of 8 bytes, the same
 *   onchip_cp_async16(dst, src)         16 bytes, L2 only (cp.async.cg)
 *   onchip_cp_async16_fill(dst, src, n) 16 bytes, L2 only: the first n (0..16) from src, zeros after
 *   onchip_cp_async16_fill_unordered(dst, src, n)  the same without the memory clobber: the
 *                                       compiler may move other memory accesses across it, so the
 *                                       caller orders the reads of dst by the wait and a barrier
 *   onchip_cp_async_commit()            the end of a group of this thread's copies
 *   onchip_cp_async_wait<N>()           until at most N of this thread's groups are in flight
 *   onchip_cp_async_wait_all()          until every copy of this thread is in, grouped or not
 *   dst in shared memory, src in global memory, both aligned to the copy's size.  After the wait
 *   the bytes are visible to the thread that copied them; to the block after a __syncthreads().
 *
 * EXAMPLE
 *   [compile in a kernel: const float4 *g]
 *   __shared__ float4 s[32];
 *   onchip_cp_async16(&s[threadIdx.x % 32], g + threadIdx.x % 32);
 *   onchip_cp_async_commit();
 *   onchip_cp_async_wait<0>();
 *   __syncthreads();
 *
 * LIMITS
 *   Each is one volatile asm with a "memory" clobber.  Below sm_80 a copy is a load and a store at
 *   once (4 and 8 bytes through the read-only cache, __ldg: src must not change while the kernel
 *   runs), the commit and the waits are nothing.
 */
#ifndef ONCHIP_ASYNC_CUH
#define ONCHIP_ASYNC_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ONCHIP__CP_ASYNC 1
#else
#define ONCHIP__CP_ASYNC 0
#endif

/* one S-byte element of type T, zero-filled where !ok (T: the source pointer keeps its type, so that
 * the address arithmetic compiles as typed) */
template <int S, class T>
static __device__ __forceinline__ void onchip__cp_async_ca(T *dst, const T *src, int ok)
{
#if ONCHIP__CP_ASYNC
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src), "n"(S), "r"(ok ? S : 0) : "memory");
#else
    *dst = ok ? __ldg(src) : T();
#endif
}
template <class T>
static __device__ __forceinline__ void onchip_cp_async4(T *dst, const T *src, int ok)
{
    static_assert(sizeof(T) == 4, "onchip_cp_async4: T must be a 4-byte type");
    onchip__cp_async_ca<4>(dst, src, ok);
}
template <class T>
static __device__ __forceinline__ void onchip_cp_async8(T *dst, const T *src, int ok)
{
    static_assert(sizeof(T) == 8, "onchip_cp_async8: T must be an 8-byte type");
    onchip__cp_async_ca<8>(dst, src, ok);
}
static __device__ __forceinline__ void onchip_cp_async16(void *dst, const void *src)
{
#if ONCHIP__CP_ASYNC
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
#else
    *(float4 *)dst = *(const float4 *)src;
#endif
}
static __device__ __forceinline__ void onchip_cp_async16_fill(void *dst, const void *src, int n)
{
#if ONCHIP__CP_ASYNC
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(n) : "memory");
#else
    for (int i = 0; i < 16; i++) ((char *)dst)[i] = i < n ? ((const char *)src)[i] : 0;
#endif
}
static __device__ __forceinline__ void onchip_cp_async16_fill_unordered(void *dst, const void *src, int n)
{
#if ONCHIP__CP_ASYNC
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(n));
#else
    onchip_cp_async16_fill(dst, src, n);
#endif
}
static __device__ __forceinline__ void onchip_cp_async_commit(void)
{
#if ONCHIP__CP_ASYNC
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N>
static __device__ __forceinline__ void onchip_cp_async_wait(void)
{
#if ONCHIP__CP_ASYNC
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
static __device__ __forceinline__ void onchip_cp_async_wait_all(void)
{
#if ONCHIP__CP_ASYNC
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

#endif /* ONCHIP_ASYNC_CUH */
#include <onchip/names_pop.h>
