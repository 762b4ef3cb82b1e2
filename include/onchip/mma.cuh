#include <onchip/names_push.h>
/* onchip/mma.cuh -- the warp-level TF32 mma.sync (sm_80+) the modules share.
 *
 * WHAT
 *   onchip__mma_tf32_k8(c, a, b)        c[4] += A B, one m16n8k8 (a[4], b[2] TF32 bit patterns)
 *   onchip__mma_tf32_k4(c, a0, a1, b)   c[4] += A B, one m16n8k4
 *   The fragments' layout: ssam/conv_tc/mma.cuh.  Every lane of the warp executes each one.
 *
 * LIMITS: one volatile asm each; nothing below sm_80 (the callers' paths do not run there).
 */
#ifndef ONCHIP_MMA_CUH
#define ONCHIP_MMA_CUH

static __device__ __forceinline__ void onchip__mma_tf32_k8(float *c, const unsigned *a, const unsigned *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)c; (void)a; (void)b;
#endif
}
static __device__ __forceinline__ void onchip__mma_tf32_k4(float *c, unsigned a0, unsigned a1, unsigned b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b));
#else
    (void)c; (void)a0; (void)a1; (void)b;
#endif
}

#endif /* ONCHIP_MMA_CUH */
#include <onchip/names_pop.h>
