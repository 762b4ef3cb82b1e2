#include <onchip/names_push.h>
/* perks/cg/resid.cuh -- the true residual of every CG solve and the small kernels of the host-side
 * refinement and the mixed driver (perks/cg.cuh, WHAT A SUCCESS MEANS).
 *
 * WHAT
 *   perks__cg_resid_kernel, perks__cg_resid_launch, perks__cg_resid_read   ||b - A x||^2, ||b||^2,
 *                                     || |A| |x| ||^2 in double from A, b, x as stored
 *   perks__cg_floor(elt, aa, bb)      the rounding floor of a relative residual
 *   perks__cg_to_float, perks__cg_add, perks__cg_sell_fill   the mixed driver's float copies, a
 *                                     refinement's x += d, the stream path's sliced-ELL copy
 *
 * EXAMPLE
 *   [compile: int n; const int *d_rp, *d_ci; const double *d_va, *d_b, *d_x; double *d_part; cudaStream_t stream]
 *   perks__cg_resid_launch(n, 8, d_rp, d_ci, d_va, d_b, d_x, NULL, d_part, stream);
 *   double rr, bb;
 *   perks__cg_resid_read(d_part, &rr, &bb, NULL);    // ||b - A x|| / ||b|| = sqrt(rr / bb)
 *
 * LIMITS: a fixed grid of PERKS_CG_RESID_BLOCKS x PERKS_CG_RESID_THREADS, a thread a row (the sums
 * in one order); part holds 3 PERKS_CG_RESID_BLOCKS doubles.
 */
#ifndef PERKS_CG_RESID_CUH
#define PERKS_CG_RESID_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "../barrier.cuh"
#include "../base.h"
#include "types.cuh"

/* element k of a float (elt 4) or double (elt 8) array, as double */
static __device__ __forceinline__ double perks__cg_ld(const void *v, long long k, int elt)
{
    return elt == 8 ? __ldg((const double *)v + k) : (double)__ldg((const float *)v + k);
}

/* the three sums in double from A, b, x as stored (elt 4 or 8) as block partials part[3 blk ..
 * 3 blk + 2]; r = b - A x into r_out (double) when not NULL; the same bits on every run */
static __global__ void __launch_bounds__(PERKS_CG_RESID_THREADS) __attribute__((unused))
perks__cg_resid_kernel(int n, int elt, const int *rp, const int *ci, const void *va, const void *b, const void *x,
                       double *r_out, double *part)
{
    __shared__ double red[PERKS_CG_RESID_THREADS / 32][3];
    double rr = 0, bb = 0, aa = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double s = 0, sa = 0;
        for (int k = __ldg(rp + i); k < __ldg(rp + i + 1); ++k) {
            const double t = perks__cg_ld(va, k, elt) * perks__cg_ld(x, __ldg(ci + k), elt);
            s += t;
            sa += fabs(t);
        }
        const double bi = perks__cg_ld(b, i, elt), ri = bi - s;
        if (r_out) r_out[i] = ri;
        rr += ri * ri;
        bb += bi * bi;
        aa += sa * sa;
    }
    perks__warp_sum3<1>(rr, bb, aa, red);
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < PERKS_CG_RESID_THREADS / 32; ++w) rr += red[w][0], bb += red[w][1], aa += red[w][2];
        part[3 * blockIdx.x] = rr;
        part[3 * blockIdx.x + 1] = bb;
        part[3 * blockIdx.x + 2] = aa;
    }
}

/* mixed precision: f[i] = (float)(scale d[i]) */
static __global__ void __attribute__((unused)) perks__cg_to_float(long long n, const double *d, double scale, float *f)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        f[i] = (float)(scale * d[i]);
}
/* a refinement: x += d (float, elt 4, or double, elt 8) */
static __global__ void __attribute__((unused)) perks__cg_add(int n, int elt, void *x, const void *d)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (elt == 8) ((double *)x)[i] += ((const double *)d)[i];
        else ((float *)x)[i] += ((const float *)d)[i];
    }
}
/* the stream path's copy (soff given): row i's k-th entry at soff[i / 32] + 32 k + i % 32, padded
 * (column -1, value 0) to its slice's width; rows >= n pad only */
static __global__ void __attribute__((unused)) perks__cg_sell_fill(int n, int elt, const int *rp, const int *ci,
                                                                   const void *va, const int *soff, int *sci,
                                                                   void *sva)
{
    const int nrow = (n + PERKS_CG_SELL_C - 1) / PERKS_CG_SELL_C * PERKS_CG_SELL_C;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nrow; i += gridDim.x * blockDim.x) {
        const int s = i / PERKS_CG_SELL_C, base = soff[s] + i % PERKS_CG_SELL_C;
        const int w = (soff[s + 1] - soff[s]) / PERKS_CG_SELL_C, kb = i < n ? rp[i] : 0, len = i < n ? rp[i + 1] - kb : 0;
        for (int k = 0; k < w; k++) {
            const int e = base + k * PERKS_CG_SELL_C;
            sci[e] = k < len ? ci[kb + k] : -1;
            if (elt == 8) ((double *)sva)[e] = k < len ? ((const double *)va)[kb + k] : 0.0;
            else ((float *)sva)[e] = k < len ? ((const float *)va)[kb + k] : 0.0f;
        }
    }
}
#ifndef __CUDACC_RTC__ /* host code */
/* launch the true-residual kernel on stream */
static inline int perks__cg_resid_launch(int n, int elt, const int *rp, const int *ci, const void *va, const void *b,
                                         const void *x, double *r_out, double *part, cudaStream_t stream)
{
    perks__cg_resid_kernel<<<PERKS_CG_RESID_BLOCKS, PERKS_CG_RESID_THREADS, 0, stream>>>(n, elt, rp, ci, va, b, x,
                                                                                         r_out, part);
    return cudaGetLastError() == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}

/* wait for the partials and add them in block order (aa may be NULL) */
static inline int perks__cg_resid_read(const double *part, double *rr, double *bb, double *aa)
{
    double h[3 * PERKS_CG_RESID_BLOCKS], a = 0;
    int k;
    if (cudaMemcpy(h, part, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    *rr = *bb = 0;
    for (k = 0; k < PERKS_CG_RESID_BLOCKS; k++) *rr += h[3 * k], *bb += h[3 * k + 1], a += h[3 * k + 2];
    if (aa) *aa = a;
    return PERKS_SUCCESS;
}

/* eps || |A| |x| || / ||b||, eps x's unit roundoff (elt 4: 2^-24, 8: 2^-53): a relative residual
 * much below it is not to be expected (docs/perks-cg.md#design-notes-perkscgresidcuh) */
static inline double perks__cg_floor(int elt, double aa, double bb)
{
    const double eps = elt == 8 ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
    return bb > 0 ? eps * sqrt(aa / bb) : eps * sqrt(aa);
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_RESID_CUH */
#include <onchip/names_pop.h>
