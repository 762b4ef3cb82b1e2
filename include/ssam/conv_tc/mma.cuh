#include <onchip/names_push.h>
/* ssam/conv_tc/mma.cuh -- the tensor-core instructions under conv_tc.cuh (lane level, sm_80+).
 *
 * WHAT
 *   The raw mma.sync shapes the banded convolution uses (m16n8k8 and m16n8k4: A rows g, g+8; B
 *   column g; C rows g, g+8 at columns 2c, 2c+1, where g = lane / 4, c = lane % 4):
 *     ssam__mma_tf32_k8 / _k4     TF32 inputs, FP32 sums
 *     ssam__mma_h16_k8            FP16 or BF16 inputs, FP32 sums
 *     ssam__mma_f64_k8 / _k4      FP64 (one instruction on sm_90, m8n8k4 pieces on sm_80)
 *   ssam_tf32(x): x rounded to TF32; ssam__tf32_split: x = big + small for three-pass TF32.
 *   SSAM__TC_SM80 / SSAM__TC_SM90: 1 where the device code is compiled for sm_80 / sm_90 and up.
 * LIMITS (docs/ssam.md#design-notes-ssamconv_tcmmacuh)
 *   Below sm_80 the MMAs trap (the launchers take the SIMT path there).  Every lane of the warp must
 *   execute each MMA.
 */
#ifndef SSAM_CONV_TC_MMA_CUH
#define SSAM_CONV_TC_MMA_CUH

#include <cuda_runtime.h>
#include <onchip/mma.cuh>

#include "../base.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SSAM__TC_SM80 1
#else
#define SSAM__TC_SM80 0
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SSAM__TC_SM90 1
#else
#define SSAM__TC_SM90 0
#endif

/* ---- the raw MMAs (the usage block's layout); below sm_80 they trap: never launched */
#if SSAM__TC_SM80
#define SSAM__TC_NO_MMA()
#else
#define SSAM__TC_NO_MMA() __trap() /* the launcher takes the SIMT path below sm_80 */
#endif
/* one mma.sync OP (its shape and types) with C, four registers of constraint CR ("+f", "+d"), summed
 * in place and inputs of constraint IR ("r", "d"): _A4 A a[0..3] and B b[0..1], _A2 A a0, a1 and B b */
#define SSAM__MMA_A4(OP, CR, IR, c, a, b)                                                                  \
    asm volatile(OP " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                               \
                 : CR(c[0]), CR(c[1]), CR(c[2]), CR(c[3])                                                  \
                 : IR(a[0]), IR(a[1]), IR(a[2]), IR(a[3]), IR(b[0]), IR(b[1]))
#define SSAM__MMA_A2(OP, CR, IR, c, a0, a1, b)                                                             \
    asm volatile(OP " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"                                        \
                 : CR(c[0]), CR(c[1]), CR(c[2]), CR(c[3])                                                  \
                 : IR(a0), IR(a1), IR(b))

static __device__ __forceinline__ void ssam__mma_tf32_k8(float *c, const unsigned *a, const unsigned *b)
{
    onchip__mma_tf32_k8(c, a, b);
    SSAM__TC_NO_MMA();
}
static __device__ __forceinline__ void ssam__mma_tf32_k4(float *c, unsigned a0, unsigned a1, unsigned b)
{
    onchip__mma_tf32_k4(c, a0, a1, b);
    SSAM__TC_NO_MMA();
}
/* m16n8k8 with FP16 (bf16 = 0) or BF16 (bf16 = 1, a constant at every call) inputs, FP32 sums: a0
 * rows g, a1 rows g + 8, each the k pair 2c, 2c + 1 in one register; b the k pair at column g */
static __device__ __forceinline__ void ssam__mma_h16_k8(float *c, unsigned a0, unsigned a1, unsigned b, int bf16)
{
#if SSAM__TC_SM80
    if (bf16)
        SSAM__MMA_A2("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", "+f", "r", c, a0, a1, b);
    else
        SSAM__MMA_A2("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "+f", "r", c, a0, a1, b);
#else
    (void)c; (void)a0; (void)a1; (void)b; (void)bf16;
    SSAM__TC_NO_MMA();
#endif
}
/* one m8n8k4 DMMA: rows g of a 8-row half, columns 2c, 2c+1 */
static __device__ __forceinline__ void ssam__mma_f64_884(double *c, double a, double b)
{
#if SSAM__TC_SM80
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(c[0]), "+d"(c[1])
                 : "d"(a), "d"(b));
#else
    (void)c; (void)a; (void)b;
    SSAM__TC_NO_MMA();
#endif
}
/* m16n8k8 f64: one instruction on sm_90, four m8n8k4 on sm_80 (the same fragment layout) */
static __device__ __forceinline__ void ssam__mma_f64_k8(double *c, const double *a, const double *b)
{
#if SSAM__TC_SM90
    SSAM__MMA_A4("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", "+d", "d", c, a, b);
#else
    ssam__mma_f64_884(c, a[0], b[0]);
    ssam__mma_f64_884(c + 2, a[1], b[0]);
    ssam__mma_f64_884(c, a[2], b[1]);
    ssam__mma_f64_884(c + 2, a[3], b[1]);
#endif
}
static __device__ __forceinline__ void ssam__mma_f64_k4(double *c, double a0, double a1, double b)
{
#if SSAM__TC_SM90
    SSAM__MMA_A2("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64", "+d", "d", c, a0, a1, b);
#else
    ssam__mma_f64_884(c, a0, b);
    ssam__mma_f64_884(c + 2, a1, b);
#endif
}

/* x rounded to nearest TF32 (10-bit mantissa), as the bit pattern an mma takes */
static __device__ __forceinline__ unsigned ssam_tf32(float x)
{
    unsigned y = __float_as_uint(x);
#if SSAM__TC_SM80
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(y) : "f"(x));
#endif
    return y;
}
static __device__ __forceinline__ void ssam__tf32_split(float x, unsigned *big, unsigned *small)
{
    *big = ssam_tf32(x);
    *small = ssam_tf32(x - __uint_as_float(*big));
}

#endif /* SSAM_CONV_TC_MMA_CUH */
#include <onchip/names_pop.h>
