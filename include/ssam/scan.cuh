#include <onchip/names_push.h>
/* ssam/scan.cuh -- warp scans as Kogge-Stone shifts (SSAM section 3.6) and a summed-area table.
 *
 * WHAT (docs/ssam.md#summed-area-table-scancuh, docs/ssam.md#design-notes-ssamscancuh)
 *   ssam_warp_scan_inclusive(v) (SSAM_WARP_SCAN_INCLUSIVE(T, v)): v of lane l becomes
 *   v_0 + ... + v_l in 5 shift-and-add steps; ssam_warp_scan_exclusive(v)
 *   (SSAM_WARP_SCAN_EXCLUSIVE(T, v)): v_0 + ... + v_{l-1}, 0 on lane 0.  Any T with + and
 *   shuffles.  All 32 lanes must call.
 *   SSAM_SAT_DEFINE(name, T, B) defines a summed-area table out(x, y) = sum_{i <= x, j <= y} in(i, j)
 *   as two kernels (bodies ssam_sat_rows<T, B>, ssam_sat_cols<T, B>) and a launcher
 *   int name_launch(const ssam_sat_args *, cudaStream_t).
 *
 * EXAMPLE
 *   [compile: const double *d_in; double *d_sat; int W, H; cudaStream_t stream]
 *     SSAM_SAT_DEFINE(sat_f64, double, 256)
 *
 *     ssam_sat_args a = {};
 *     a.src = d_in; a.dst = d_sat; a.width = W; a.height = H;      // pitches 0: the width
 *     int rc = sat_f64_launch(&a, stream);                           // 0 or SSAM_E*
 *
 * LIMITS
 *   Sums accumulate in T along each row, then each column (float: rounding of order N * 6e-8 of
 *   sum |in|).  T int, unsigned, long long, unsigned long long, float or double; B a multiple of 32
 *   from 32 to 1024; width, height >= 1; src and dst apart; pitches in elements (0 = width).
 *   Errors: SSAM_ENULL, SSAM_ESIZE, SSAM_EPITCH, SSAM_EOVERLAP, SSAM_ECUDA.  Under NVRTC the two
 *   kernels only (their launch: the design notes).
 */
#ifndef SSAM_SCAN_CUH
#define SSAM_SCAN_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#endif

#include "base.cuh"

/* v of lane l = the sum of v over lanes 0 .. l (all 32 lanes call) */
template <class T>
static __device__ __forceinline__ void ssam_warp_scan_inclusive(T &v)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        T t = __shfl_up_sync(SSAM__FULL, v, d);
        if (lane >= d) v += t;
    }
}
/* v of lane l = the sum of v over lanes 0 .. l-1, 0 on lane 0 */
template <class T>
static __device__ __forceinline__ void ssam_warp_scan_exclusive(T &v)
{
    ssam_warp_scan_inclusive(v);
    T e = __shfl_up_sync(SSAM__FULL, v, 1);
    v = (threadIdx.x & 31) ? e : (T)0;
}
#define SSAM_WARP_SCAN_INCLUSIVE(T, v) ssam_warp_scan_inclusive<T>(v)
#define SSAM_WARP_SCAN_EXCLUSIVE(T, v) ssam_warp_scan_exclusive<T>(v)

typedef struct ssam_sat_args {
    const void *src;                /* T *, device */
    void *dst;                      /* T *, device: the table, same size as src */
    int width, height;
    long long src_pitch, dst_pitch; /* elements between rows; 0 = width */
} ssam_sat_args;

#ifndef __CUDACC_RTC__ /* host code */
static inline int ssam__sat_check(const ssam_sat_args *a, long long es, long long *sp, long long *dp)
{
    if (!a || !a->src || !a->dst) return SSAM_ENULL;
    if (a->width <= 0 || a->height <= 0) return SSAM_ESIZE;
    *sp = a->src_pitch ? a->src_pitch : a->width;
    *dp = a->dst_pitch ? a->dst_pitch : a->width;
    if (*sp < a->width || *dp < a->width) return SSAM_EPITCH;
    {
        const long long ss = onchip_span(a->height, *sp, a->width, es), ds = onchip_span(a->height, *dp, a->width, es);
        if (ss < 0 || ds < 0) return SSAM_ESIZE;
        if (onchip_overlap(a->src, ss, a->dst, ds)) return SSAM_EOVERLAP;
    }
    return SSAM_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

/* the rows: one warp per row, 32 columns per step, each step a warp scan plus the carry of the row
 * so far (lane 31's sum, broadcast) */
template <class T, int B>
static __device__ __forceinline__ void ssam_sat_rows(const T *src, T *dst, int w, int h, long long sp, long long dp)
{
    const int y = blockIdx.x * (B / 32) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (y >= h) return; /* whole warps */
    const T *in = src + (long long)y * sp;
    T *out = dst + (long long)y * dp;
    T carry = (T)0;
    for (int x0 = 0; x0 < w; x0 += 32) {
        const int x = x0 + lane;
        T v = x < w ? in[x] : (T)0;
        ssam_warp_scan_inclusive(v);
        v += carry;
        if (x < w) out[x] = v;
        carry = __shfl_sync(SSAM__FULL, v, 31);
    }
}
/* the columns, in place: one thread per column walking down the rows with a running sum */
template <class T, int B>
static __device__ __forceinline__ void ssam_sat_cols(T *dst, int w, int h, long long dp)
{
    const int x = blockIdx.x * B + threadIdx.x;
    if (x >= w) return;
    T *p = dst + x, s = (T)0;
    for (int y = 0; y < h; y++, p += dp) {
        s += *p;
        *p = s;
    }
}

#ifndef __CUDACC_RTC__ /* host code */
/* name_launch of SSAM_SAT_DEFINE: the checks (elements of es bytes), the rows kernel, the columns
 * kernel, B threads a block */
static inline int ssam__sat_launch(const ssam_sat_args *a, cudaStream_t stream, const void *rows, const void *cols,
                                   size_t es, int B)
{
    long long sp, dp;
    const void *src;
    void *dst;
    int w, h;
    int rc = ssam__sat_check(a, (long long)es, &sp, &dp);
    if (rc) return rc;
    src = a->src;
    dst = a->dst;
    w = a->width;
    h = a->height;
    {
        void *args[6] = {(void *)&src, (void *)&dst, (void *)&w, (void *)&h, (void *)&sp, (void *)&dp};
        (void)cudaLaunchKernel(rows, dim3((unsigned)((h + B / 32 - 1) / (B / 32))), dim3((unsigned)B), args, 0, stream);
    }
    if (cudaPeekAtLastError() != cudaSuccess) return SSAM_ECUDA;
    {
        void *args[4] = {(void *)&dst, (void *)&w, (void *)&h, (void *)&dp};
        (void)cudaLaunchKernel(cols, dim3((unsigned)((w + B - 1) / B)), dim3((unsigned)B), args, 0, stream);
    }
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}
#endif /* !__CUDACC_RTC__ */

/* the table's element types; the kernels are instantiated only for these and a valid B (one sentence) */
template <class T>
struct ssam__sat_type {
    enum { ok = ssam__type_in<T, int, unsigned, long long, unsigned long long, float, double>::ok };
};

#define SSAM_SAT_DEFINE(name, T, B)                                                                        \
    enum { name##__ok = ssam__sat_type<T>::ok && (B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX }; \
    static_assert(ssam__sat_type<T>::ok, "SSAM_SAT_DEFINE(" #name "): T must be int, unsigned, long long, "  \
                                         "unsigned long long, float or double");                           \
    static_assert((B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX,                       \
                  "SSAM_SAT_DEFINE(" #name "): B must be a multiple of 32 from 32 to 1024");               \
    __global__ void __launch_bounds__(B) name##_rows(const T *__restrict__ src, T *__restrict__ dst, int w,  \
                                                     int h, long long sp, long long dp)                    \
    { if constexpr (name##__ok) ssam_sat_rows<T, B>(src, dst, w, h, sp, dp); }                              \
    __global__ void __launch_bounds__(B) name##_cols(T *__restrict__ dst, int w, int h, long long dp)      \
    { if constexpr (name##__ok) ssam_sat_cols<T, B>(dst, w, h, dp); }                                       \
    SSAM__SAT_HOST(name, T, B)

/* name_launch (host code) */
#ifndef __CUDACC_RTC__
#define SSAM__SAT_HOST(name, T, B)                                                                         \
    static inline __attribute__((unused)) int name##_launch(const ssam_sat_args *a, cudaStream_t stream)   \
    { return ssam__sat_launch(a, stream, (const void *)name##_rows, (const void *)name##_cols, sizeof(T), B); }
#else
#define SSAM__SAT_HOST(name, T, B)
#endif

#endif /* SSAM_SCAN_CUH */
#include <onchip/names_pop.h>
