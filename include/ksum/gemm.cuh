#include <onchip/names_push.h>
/* ksum/gemm.cuh -- register-microtile GEMM pieces: block tiles in double-buffered shared memory,
 * TM x TN accumulators per thread, 16-byte loads.  Usable alone for other fused GEMMs.
 *
 * WHAT (Wang et al., fused kernel summation, section III.A-B)
 *   A block of 256 threads (tx = tid % 16, ty = tid / 16) owns a BM x BN tile of C = P Q^T, P and Q
 *   point-major, over dim coordinates in chunks of KSUM_BK = 8.  BM = 16 TM, BN = 16 TN, TM, TN in
 *   {4, 8}; a thread's rows KSUM_GEMM_ROW(i, ty), columns KSUM_GEMM_ROW(j, tx).
 *
 * PIECES (T float or double; KSUM_GEMM_* the one-line macro wrappers; the table and a main-loop
 * step: docs/ksum.md#pieces-for-a-kernel-of-ones-own)
 *   KSUM_GEMM_SMEM_ELEMS(BM)    elements of one double-buffered operand
 *   ksum_gemm_load<T, E>(r, src, ld, np, dim, p0, k0, tid, vec)   global -> T r[E], zeros past np, dim
 *   ksum_gemm_store<T, E, BM>(r, s, buf, tid, scale)   registers -> shared buffer buf, times scale
 *   ksum_gemm_chunk<T, TM, TN, BM, BN>(acc, sa, sb, buf, kc, tx, ty)   acc += one chunk's products
 *   ksum_gemm_per_point<T, N>(r, src, stride, p0, np, t)   a per-point array in accumulator order
 *
 * LIMITS  256 threads.  Shared memory 2 * 8 * (BM + BN + 8) * sizeof(T) bytes.  Register arrays
 *   indexed with unrolled constants only.
 */
#ifndef KSUM_GEMM_CUH
#define KSUM_GEMM_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif
#include <onchip/async.cuh>

#define KSUM_BK 8
#define KSUM_THREADS 256
#define KSUM_GEMM_SMEM_ELEMS(BM) (2 * KSUM_BK * ((BM) + 4))
/* row (or column) of a thread's i-th accumulator row within the tile; t is ty (or tx) */
#define KSUM_GEMM_ROW(i, t) ((((i) >> 2) << 6) + (t)*4 + ((i)&3))

/* 16- and 8-byte global loads (read-only path), 16-byte shared loads */
static __device__ __forceinline__ void ksum__ldg4(float *r, const float *p)
{
    float4 v = __ldg((const float4 *)p);
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
static __device__ __forceinline__ void ksum__ldg2(float *r, const float *p)
{
    float2 v = __ldg((const float2 *)p);
    r[0] = v.x; r[1] = v.y;
}
static __device__ __forceinline__ void ksum__ldg4(double *r, const double *p)
{
    double2 v = __ldg((const double2 *)p), u = __ldg((const double2 *)p + 1);
    r[0] = v.x; r[1] = v.y; r[2] = u.x; r[3] = u.y;
}
static __device__ __forceinline__ void ksum__ldg2(double *r, const double *p)
{
    double2 v = __ldg((const double2 *)p);
    r[0] = v.x; r[1] = v.y;
}
static __device__ __forceinline__ void ksum__lds4(float *r, const float *p)
{
    float4 v = *(const float4 *)p;
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
static __device__ __forceinline__ void ksum__lds4(double *r, const double *p)
{
    double2 v = *(const double2 *)p, u = *((const double2 *)p + 1);
    r[0] = v.x; r[1] = v.y; r[2] = u.x; r[3] = u.y;
}
/* N values of a thread's accumulator rows (or columns) at p: p[0..3], p[64..67], ... */
template <class T, int N>
static __device__ __forceinline__ void ksum__ldsn(T (&x)[N], const T *p)
{
    static_assert(N == 4 || N == 8, "ksum__ldsn: 4 or 8 values");
    ksum__lds4(x, p);
    if constexpr (N == 8) ksum__lds4(x + 4, p + 64);
}
/* one coordinate of the TM x TN outer product from the k-major shared rows at qa, qb (this thread's
 * rows and columns): acc[i][j] += fa[i] fb[j] */
template <class T, int TM, int TN>
static __device__ __forceinline__ void ksum__kstep(T (&acc)[TM][TN], const T *qa, const T *qb)
{
    T fa[TM], fb[TN];
    ksum__ldsn(fa, qa);
    ksum__ldsn(fb, qb);
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = fma(fa[i], fb[j], acc[i][j]);
}

template <class T, int E>
static __device__ __forceinline__ void ksum_gemm_load(T (&r)[E], const T *src, long long ld, long long np, int dim,
                                                      long long p0, int k0, int tid, int vec)
{
    const long long p = p0 + tid / (KSUM_BK / E);
    const int k = k0 + (tid % (KSUM_BK / E)) * E;
    const T *q = src + p * ld + k;
    if (vec && p < np && k < dim) {
        if (E == 4) ksum__ldg4(r, q);
        else ksum__ldg2(r, q);
    } else {
#pragma unroll
        for (int e = 0; e < E; e++) r[e] = (p < np && k + e < dim) ? __ldg(q + e) : (T)0;
    }
}

template <class T, int E, int BM>
static __device__ __forceinline__ void ksum_gemm_store(const T (&r)[E], T *s, int buf, int tid, T scale)
{
    const int p = tid / (KSUM_BK / E), k = (tid % (KSUM_BK / E)) * E;
    T *d = s + buf * KSUM_BK * (BM + 4) + k * (BM + 4) + p;
#pragma unroll
    for (int e = 0; e < E; e++) d[e * (BM + 4)] = r[e] * scale;
}

/* acc += the products of k-steps kk < KC of the k-major rows at pa, pb (rows of BM + 4, BN + 4); a
 * macro: docs/ksum.md#bodies */
#define KSUM__GEMM_KLOOP(T, TM, TN, acc, pa, pb, BM, BN, KC)                                           \
    _Pragma("unroll") for (int kk = 0; kk < KSUM_BK; kk++) {                                           \
        if (kk < (KC)) {                                                                               \
            T fa[TM], fb[TN];                                                                          \
            _Pragma("unroll") for (int q = 0; q < (TM) / 4; q++)                                       \
                ksum__lds4(fa + 4 * q, (pa) + kk * ((BM) + 4) + 64 * q);                               \
            _Pragma("unroll") for (int q = 0; q < (TN) / 4; q++)                                       \
                ksum__lds4(fb + 4 * q, (pb) + kk * ((BN) + 4) + 64 * q);                               \
            _Pragma("unroll") for (int i = 0; i < (TM); i++)                                           \
                _Pragma("unroll") for (int j = 0; j < (TN); j++)                                       \
                    acc[i][j] = fma(fa[i], fb[j], acc[i][j]);                                          \
        }                                                                                              \
    }
template <class T, int TM, int TN, int BM, int BN>
static __device__ __forceinline__ void ksum_gemm_chunk(T (&acc)[TM][TN], const T *sa, const T *sb, int buf, int kc, int tx,
                                                       int ty)
{
    const T *pa = sa + buf * KSUM_BK * (BM + 4) + ty * 4;
    const T *pb = sb + buf * KSUM_BK * (BN + 4) + tx * 4;
    KSUM__GEMM_KLOOP(T, TM, TN, acc, pa, pb, BM, BN, min(KSUM_BK, kc))
}

template <class T, int N>
static __device__ __forceinline__ void ksum_gemm_per_point(T (&r)[N], const T *src, long long stride, long long p0,
                                                           long long np, int t)
{
#pragma unroll
    for (int i = 0; i < N; i++) {
        const long long p = p0 + KSUM_GEMM_ROW(i, t);
        r[i] = p < np ? __ldg(src + p * stride) : (T)0;
    }
}

#define KSUM_GEMM_LOAD(T, E, r, src, ld, np, dim, p0, k0, tid, vec) \
    ksum_gemm_load<T, E>(r, (const T *)(src), ld, np, dim, p0, k0, tid, vec)
#define KSUM_GEMM_STORE(T, E, r, s, BM, buf, tid, scale) ksum_gemm_store<T, E, BM>(r, s, buf, tid, scale)
#define KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, buf, kc, tx, ty) \
    ksum_gemm_chunk<T, TM, TN, BM, BN>(acc, sa, sb, buf, kc, tx, ty)
#define KSUM_GEMM_PER_POINT(T, N, r, src, stride, p0, np, t) \
    ksum_gemm_per_point<T, N>(r, (const T *)(src), stride, p0, np, t)

/* ---- k-major tiles copied straight from global memory (docs/ksum.md#design-notes-ksumgemmcuh).
 * KSUM_GEMM_P: a 128-point tile's row length.  ksum_gemm_tile_op(op, s, ldp, src, ld, np, dim, p0,
 * k0, ks, tid), KSUM_GEMM_TILE_OP(OP, ...): op(dst, srcptr, ok, pq) (OP(dst, srcptr, ok)) for points
 * p0..p0+127, coordinates k0..k0+ks-1 (ks a multiple of 8, <= 32), dst = s + k ldp + p, ok = point
 * < np && coordinate < dim, pq = 0..3 the point's group */
#define KSUM_GEMM_P 132

/* x rounded to TF32 (as the bit pattern the mma takes) */
static __device__ __forceinline__ unsigned ksum__tf32(float x)
{
    unsigned y = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(y) : "f"(x));
#else
    y = __float_as_uint(x);
#endif
    return y;
}
/* four floats rounded to TF32; ksum__tf32x4_rest: x - big rounded (the three-pass split's small part) */
static __device__ __forceinline__ float4 ksum__tf32x4(float4 x)
{
    return make_float4(__uint_as_float(ksum__tf32(x.x)), __uint_as_float(ksum__tf32(x.y)), __uint_as_float(ksum__tf32(x.z)),
                       __uint_as_float(ksum__tf32(x.w)));
}
static __device__ __forceinline__ float4 ksum__tf32x4_rest(float4 x, float4 big)
{
    return ksum__tf32x4(make_float4(x.x - big.x, x.y - big.y, x.z - big.z, x.w - big.w));
}

template <class OP>
static __device__ __forceinline__ void ksum_gemm_tile_op(OP op, float *s, int ldp, const float *src, long long ld,
                                                         long long np, int dim, long long p0, int k0, int ks, int tid)
{
    const int pb = ((tid >> 5) << 2) + (tid & 3), kb = (tid >> 2) & 7;
    const long long pp = p0 + pb, ld32 = 32LL * ld;
    const float *q = src + pp * ld + k0 + kb;
    float *d = s + kb * ldp + pb;
    if (ks == 32 && p0 + 128 <= np && k0 + 32 <= dim) {
        /* a whole 32-coordinate tile inside: one 64-bit address per point, 4 fixed offsets */
#pragma unroll
        for (int pq = 0; pq < 4; pq++) {
            const float *qp = q + pq * ld32;
#pragma unroll
            for (int kg = 0; kg < 4; kg++) op(d + kg * 8 * ldp + 32 * pq, qp + kg * 8, 1, pq);
        }
    } else if (p0 + 128 <= np && k0 + ks <= dim) { /* inside */
#pragma unroll
        for (int kg = 0; kg < 4; kg++) {
            if (kg * 8 < ks) {
#pragma unroll
                for (int pq = 0; pq < 4; pq++) op(d + kg * 8 * ldp + 32 * pq, q + pq * ld32 + kg * 8, 1, pq);
            }
        }
    } else {
#pragma unroll
        for (int kg = 0; kg < 4; kg++) {
            if (kg * 8 < ks) {
                const int kok = k0 + kb + kg * 8 < dim;
#pragma unroll
                for (int pq = 0; pq < 4; pq++) {
                    const int ok = kok && pp + 32 * pq < np;
                    op(d + kg * 8 * ldp + 32 * pq, ok ? q + pq * ld32 + kg * 8 : src, ok, pq);
                }
            }
        }
    }
}
#define KSUM_GEMM_TILE_OP(OP, s, LDP, src, ld, np, dim, p0, k0, ks, tid)                              \
    ksum_gemm_tile_op([&](float *d__, const float *q__, int ok__, int) { OP(d__, q__, ok__); }, s, LDP, \
                      (const float *)(src), ld, np, dim, p0, k0, ks, tid)

#endif
#include <onchip/names_pop.h>
