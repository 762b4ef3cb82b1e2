/* ssam/scan.cuh -- warp scans as Kogge-Stone shifts (SSAM section 3.6) and a summed-area table.
 *
 * WHAT
 *   SSAM_WARP_SCAN_INCLUSIVE(T, v): v of lane l becomes v_0 + ... + v_l, in log2(32) = 5 steps: at
 *   step d each lane adds the value shifted up by d lanes (Fig. 1e: the partial sums move between
 *   lanes, the systolic pattern of eq. 1 with ctrl(E) = E for lanes >= d, 0 below).
 *   SSAM_WARP_SCAN_EXCLUSIVE(T, v): v_0 + ... + v_{l-1}, 0 on lane 0.
 *   Any T with + and shuffles (int, unsigned, long long, float, double).  All 32 lanes must call.
 *
 *   SSAM_SAT_DEFINE(name, T, B) defines a summed-area table (2D inclusive prefix sum)
 *       out(x, y) = sum_{i <= x, j <= y} in(i, j)
 *   as two kernels and a launcher int name_launch(const ssam_sat_args *, cudaStream_t):
 *     rows:    one warp per row, 32 columns per step, each step a warp scan plus the carry of the
 *              row so far (lane 31's sum, broadcast by a shuffle);
 *     columns: one thread per column walking down the rows with a running sum (coalesced across
 *              the warp); done in place on dst.
 *   Traffic: read src, write dst, read and write dst again (4 passes of the image).
 *
 * EXAMPLE
 *     SSAM_SAT_DEFINE(sat_f64, double, 256)
 *     ssam_sat_args a = {0};
 *     a.src = d_in; a.dst = d_sat; a.width = W; a.height = H;      // pitches 0: the width
 *     int rc = sat_f64_launch(&a, stream);                           // 0 or SSAM_E*
 *
 * LIMITS AND ACCURACY
 *   Sums accumulate in T, in order along each row and then each column: in float a table of N
 *   cells carries rounding of order N * 6e-8 times the sum of |in| (use double for large images).
 *   B a multiple of 32 up to 1024; width, height >= 1; src and dst must not overlap; pitches in
 *   elements (0 = width).  Errors: SSAM_ENULL, SSAM_ESIZE, SSAM_EPITCH, SSAM_ECUDA.
 */
#ifndef SSAM_SCAN_CUH
#define SSAM_SCAN_CUH

#include <cuda_runtime.h>

#include "base.cuh"

#define SSAM_WARP_SCAN_INCLUSIVE(T, v)                                                                     \
    do {                                                                                                  \
        const int ssam__lane = threadIdx.x & 31;                                                          \
        _Pragma("unroll") for (int ssam__d = 1; ssam__d < 32; ssam__d *= 2) {                             \
            T ssam__t = __shfl_up_sync(SSAM__FULL, (v), ssam__d);                                         \
            if (ssam__lane >= ssam__d) (v) += ssam__t;                                                    \
        }                                                                                                 \
    } while (0)

#define SSAM_WARP_SCAN_EXCLUSIVE(T, v)                                                                     \
    do {                                                                                                  \
        SSAM_WARP_SCAN_INCLUSIVE(T, v);                                                                   \
        T ssam__e = __shfl_up_sync(SSAM__FULL, (v), 1);                                                   \
        (v) = (threadIdx.x & 31) ? ssam__e : (T)0;                                                        \
    } while (0)

typedef struct ssam_sat_args {
    const void *src;                /* T *, device */
    void *dst;                      /* T *, device: the table, same size as src */
    int width, height;
    long long src_pitch, dst_pitch; /* elements between rows; 0 = width */
} ssam_sat_args;

static inline int ssam__sat_check(const ssam_sat_args *a, long long *sp, long long *dp)
{
    if (!a || !a->src || !a->dst) return SSAM_ENULL;
    if (a->width <= 0 || a->height <= 0) return SSAM_ESIZE;
    *sp = a->src_pitch ? a->src_pitch : a->width;
    *dp = a->dst_pitch ? a->dst_pitch : a->width;
    if (*sp < a->width || *dp < a->width) return SSAM_EPITCH;
    return SSAM_SUCCESS;
}

#define SSAM_SAT_DEFINE(name, T, B)                                                                        \
    typedef char name##__block_is_whole_warps[((B) % 32 == 0 && (B) > 0 && (B) <= 1024) ? 1 : -1];        \
    __global__ void __launch_bounds__(B) name##_rows(const T *__restrict__ src, T *__restrict__ dst, int w, \
                                                     int h, long long sp, long long dp)                    \
    {                                                                                                     \
        const int y = blockIdx.x * ((B) / 32) + (threadIdx.x >> 5), lane = threadIdx.x & 31;              \
        if (y >= h) return; /* whole warps */                                                             \
        const T *in = src + (long long)y * sp;                                                            \
        T *out = dst + (long long)y * dp;                                                                 \
        T carry = (T)0;                                                                                   \
        for (int x0 = 0; x0 < w; x0 += 32) {                                                              \
            const int x = x0 + lane;                                                                      \
            T v = x < w ? in[x] : (T)0;                                                                   \
            SSAM_WARP_SCAN_INCLUSIVE(T, v);                                                               \
            v += carry;                                                                                   \
            if (x < w) out[x] = v;                                                                        \
            carry = __shfl_sync(SSAM__FULL, v, 31);                                                       \
        }                                                                                                 \
    }                                                                                                     \
    __global__ void __launch_bounds__(B) name##_cols(T *__restrict__ dst, int w, int h, long long dp)     \
    {                                                                                                     \
        const int x = blockIdx.x * (B) + threadIdx.x;                                                     \
        if (x >= w) return;                                                                               \
        T *p = dst + x, s = (T)0;                                                                         \
        for (int y = 0; y < h; y++, p += dp) {                                                            \
            s += *p;                                                                                      \
            *p = s;                                                                                       \
        }                                                                                                 \
    }                                                                                                     \
    static inline __attribute__((unused)) int name##_launch(const ssam_sat_args *a, cudaStream_t stream)  \
    {                                                                                                     \
        long long sp, dp;                                                                                 \
        int rc = ssam__sat_check(a, &sp, &dp);                                                            \
        if (rc) return rc;                                                                                \
        name##_rows<<<(a->height + (B) / 32 - 1) / ((B) / 32), B, 0, stream>>>((const T *)a->src, (T *)a->dst, \
                                                                               a->width, a->height, sp, dp); \
        if (cudaPeekAtLastError() != cudaSuccess) return SSAM_ECUDA;                                      \
        name##_cols<<<(a->width + (B)-1) / (B), B, 0, stream>>>((T *)a->dst, a->width, a->height, dp);    \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                          \
    }

#endif /* SSAM_SCAN_CUH */
