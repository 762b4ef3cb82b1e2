/* ksum/gemm.cuh -- register-microtile GEMM pieces: block tiles in double-buffered shared memory,
 * TM x TN accumulators per thread, 16-byte loads.  Usable alone for other fused GEMMs.
 *
 * WHAT (Wang et al., fused kernel summation, section III.A-B)
 *   A block of 256 threads (16 x 16: tx = tid % 16, ty = tid / 16) owns a BM x BN tile of
 *   C = P Q^T, where P (BM rows) and Q (BN rows) are point-major (row-major, ld elements between
 *   points) and the dot products run over dim coordinates in chunks of KSUM_BK = 8.  BM = 16 TM,
 *   BN = 16 TN, TM, TN in {4, 8}.  Each thread holds TM x TN accumulators in registers; its rows are
 *   KSUM_GEMM_ROW(i, ty), its columns KSUM_GEMM_ROW(j, tx): two groups of 4 consecutive rows 64
 *   apart (one group when TM = 4), so that a warp's 16-byte shared-memory reads of a chunk row touch
 *   each address once (broadcast across the other half-warp) -- the paper's bank-conflict-free
 *   placement (Fig. 5) in the form it takes with 16-byte loads.
 *   Shared memory holds each chunk transposed, k-major: s[buf][k][p], rows padded to BM + 4 so that
 *   the transposing stores of a warp (16 or 8 points x 2 or 4 k) fall in distinct banks.
 *
 * PIECES
 *   KSUM_GEMM_SMEM_ELEMS(BM)               elements of one double-buffered operand: 2 * 8 * (BM + 4)
 *   KSUM_GEMM_LOAD(T, E, r, src, ld, np, dim, p0, k0, tid, vec)
 *        global -> registers: thread tid loads E (= TM/2 or TN/2) consecutive coordinates of one point
 *        of the chunk (points p0.., coordinates k0..k0+7): point p0 + tid/(8/E), coordinate
 *        k0 + (tid%(8/E))*E; zeros past np points or dim coordinates.  vec != 0 (dim % E == 0,
 *        ld % E == 0, src 16-byte aligned) uses 8- or 16-byte vector loads.
 *   KSUM_GEMM_STORE(T, E, r, s, BM, buf, tid, scale)  registers -> shared buffer buf, times scale
 *   KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, buf, kc, tx, ty)
 *        acc[i][j] += sum_{k < kc} sa[buf][k][row i] * sb[buf][k][col j]   (kc <= 8, run-time)
 *   KSUM_GEMM_PER_POINT(T, N, r, src, stride, p0, np, t)
 *        a thread's N values of a per-point array in global memory, in the order of its accumulator
 *        rows (t = ty, N = TM) or columns (t = tx, N = TN): r[i] = src[(p0 + KSUM_GEMM_ROW(i, t)) *
 *        stride], 0 past np points; read-only path.  Norms (stride 1), weights (src = w + r, stride
 *        nrhs) or any other per-point value a kernel of one's own needs in its epilogue.
 *   One step of a double-buffered main loop (load step s+1 while computing step s; one barrier):
 *       T ra[TM / 2], rb[TN / 2];
 *       KSUM_GEMM_LOAD(...s+1...);  KSUM_GEMM_CHUNK(...s & 1...);  KSUM_GEMM_STORE(...(s+1) & 1...);
 *       __syncthreads();
 *
 * LIMITS AND COSTS
 *   256 threads per block (the pieces assume it).  Registers: TM*TN accumulators + TM + TN
 *   fragments + (TM + TN)/2 staging.  Shared memory: 2 * 8 * (BM + BN + 8) * sizeof(T) bytes
 *   (16.9 KB for float 128 x 128).  Register arrays are indexed with unrolled constants only.
 */
#ifndef KSUM_GEMM_CUH
#define KSUM_GEMM_CUH

#include <cuda_runtime.h>

#define KSUM_BK 8
#define KSUM_THREADS 256
#define KSUM_GEMM_SMEM_ELEMS(BM) (2 * KSUM_BK * ((BM) + 4))
/* row (or column) of a thread's i-th accumulator row within the tile; t is ty (or tx) */
#define KSUM_GEMM_ROW(i, t) ((((i) >> 2) << 6) + (t)*4 + ((i)&3))

/* 16- and 8-byte global loads (read-only path) and 16-byte shared loads, per element type */
static __device__ __forceinline__ void ksum__ldg4_float(float *r, const float *p)
{
    float4 v = __ldg((const float4 *)p);
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
static __device__ __forceinline__ void ksum__ldg2_float(float *r, const float *p)
{
    float2 v = __ldg((const float2 *)p);
    r[0] = v.x; r[1] = v.y;
}
static __device__ __forceinline__ void ksum__ldg4_double(double *r, const double *p)
{
    double2 v = __ldg((const double2 *)p), u = __ldg((const double2 *)p + 1);
    r[0] = v.x; r[1] = v.y; r[2] = u.x; r[3] = u.y;
}
static __device__ __forceinline__ void ksum__ldg2_double(double *r, const double *p)
{
    double2 v = __ldg((const double2 *)p);
    r[0] = v.x; r[1] = v.y;
}
static __device__ __forceinline__ void ksum__lds4_float(float *r, const float *p)
{
    float4 v = *(const float4 *)p;
    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
}
static __device__ __forceinline__ void ksum__lds4_double(double *r, const double *p)
{
    double2 v = *(const double2 *)p, u = *((const double2 *)p + 1);
    r[0] = v.x; r[1] = v.y; r[2] = u.x; r[3] = u.y;
}

#define KSUM_GEMM_LOAD(T, E, r, src, ld, np, dim, p0, k0, tid, vec)                                    \
    do {                                                                                               \
        const long long p__ = (long long)(p0) + (tid) / (KSUM_BK / (E));                               \
        const int k__ = (k0) + ((tid) % (KSUM_BK / (E))) * (E);                                        \
        const T *q__ = (const T *)(src) + p__ * (long long)(ld) + k__;                                 \
        if ((vec) && p__ < (np) && k__ < (dim)) {                                                      \
            if ((E) == 4) ksum__ldg4_##T(r, q__);                                                      \
            else ksum__ldg2_##T(r, q__);                                                               \
        } else {                                                                                       \
            _Pragma("unroll") for (int e__ = 0; e__ < (E); e__++)                                      \
                (r)[e__] = (p__ < (np) && k__ + e__ < (dim)) ? __ldg(q__ + e__) : (T)0;                 \
        }                                                                                              \
    } while (0)

#define KSUM_GEMM_STORE(T, E, r, s, BM, buf, tid, scale)                                               \
    do {                                                                                               \
        const int p__ = (tid) / (KSUM_BK / (E)), k__ = ((tid) % (KSUM_BK / (E))) * (E);                \
        T *d__ = (s) + (buf)*KSUM_BK * ((BM) + 4) + k__ * ((BM) + 4) + p__;                             \
        _Pragma("unroll") for (int e__ = 0; e__ < (E); e__++) d__[e__ * ((BM) + 4)] = (r)[e__] * (scale); \
    } while (0)

#define KSUM_GEMM_CHUNK(T, TM, TN, acc, sa, sb, BM, BN, buf, kc, tx, ty)                               \
    do {                                                                                               \
        const T *a__ = (sa) + (buf)*KSUM_BK * ((BM) + 4) + (ty)*4;                                      \
        const T *b__ = (sb) + (buf)*KSUM_BK * ((BN) + 4) + (tx)*4;                                      \
        _Pragma("unroll") for (int kk__ = 0; kk__ < KSUM_BK; kk__++) {                                 \
            if (kk__ < (kc)) {                                                                         \
                T fa__[TM], fb__[TN];                                                                  \
                _Pragma("unroll") for (int v__ = 0; v__ < (TM) / 4; v__++)                             \
                    ksum__lds4_##T(fa__ + 4 * v__, a__ + kk__ * ((BM) + 4) + 64 * v__);               \
                _Pragma("unroll") for (int v__ = 0; v__ < (TN) / 4; v__++)                             \
                    ksum__lds4_##T(fb__ + 4 * v__, b__ + kk__ * ((BN) + 4) + 64 * v__);               \
                _Pragma("unroll") for (int i__ = 0; i__ < (TM); i__++)                                 \
                    _Pragma("unroll") for (int j__ = 0; j__ < (TN); j__++)                             \
                        (acc)[i__][j__] = fma(fa__[i__], fb__[j__], (acc)[i__][j__]);                  \
            }                                                                                          \
        }                                                                                              \
    } while (0)

#define KSUM_GEMM_PER_POINT(T, N, r, src, stride, p0, np, t)                                           \
    do {                                                                                               \
        _Pragma("unroll") for (int i__ = 0; i__ < (N); i__++) {                                        \
            const long long p__ = (long long)(p0) + KSUM_GEMM_ROW(i__, t);                             \
            (r)[i__] = p__ < (long long)(np) ? __ldg((const T *)(src) + p__ * (long long)(stride)) : (T)0; \
        }                                                                                              \
    } while (0)

/* ---- k-major tiles copied straight from global memory (the float path of ksum.cuh) ----------------
 *   KSUM_GEMM_P                       row length of a k-major shared tile of 128 points: 128 + 4
 *   ksum__cp4(dst, src, ok)           4-byte asynchronous copy global -> shared (cp.async.ca, sm_80+;
 *                                     a plain load and store below sm_80), zero when !ok
 *   ksum__cp_wait()                   wait for this thread's copies (cp.async.wait_all; no-op below sm_80)
 *   KSUM_GEMM_TILE_OP(OP, s, LDP, src, ld, np, dim, p0, k0, ks, tid)
 *        for points p0..p0+127 and coordinates k0..k0+ks-1 (ks a multiple of 8, <= 32) of a
 *        point-major float array: OP(dst, srcptr, ok) with dst = s + k*LDP + p (the k-major tile,
 *        transposed on the way, rows of LDP >= 128 floats), ok = point < np && coordinate < dim.
 *        Each thread takes ks / 2 elements; a warp's 32 elements are 4 points x 8 consecutive
 *        coordinates (32-byte global segments); with LDP = 132 (= 4 mod 32) they land in 32
 *        distinct banks.  A whole tile inside the arrays takes an unpredicated path.
 */
#define KSUM_GEMM_P 132

static __device__ __forceinline__ void ksum__cp4(float *dst, const float *src, int ok)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 4 : 0) : "memory");
#else
    *dst = ok ? __ldg(src) : 0.0f;
#endif
}
static __device__ __forceinline__ void ksum__cp_wait(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

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
/* four floats rounded to TF32 (as floats); ksum__tf32x4_rest: what x - big leaves, rounded (the small
 * part of the three-pass split) */
static __device__ __forceinline__ float4 ksum__tf32x4(float4 x)
{
    return make_float4(__uint_as_float(ksum__tf32(x.x)), __uint_as_float(ksum__tf32(x.y)), __uint_as_float(ksum__tf32(x.z)),
                       __uint_as_float(ksum__tf32(x.w)));
}
static __device__ __forceinline__ float4 ksum__tf32x4_rest(float4 x, float4 big)
{
    return ksum__tf32x4(make_float4(x.x - big.x, x.y - big.y, x.z - big.z, x.w - big.w));
}

#define KSUM_GEMM_TILE_OP(OP, s, LDP, src, ld, np, dim, p0, k0, ks, tid)                                    \
    do {                                                                                               \
        const int pb__ = (((tid) >> 5) << 2) + ((tid)&3), kb__ = ((tid) >> 2) & 7;                     \
        const long long pp__ = (long long)(p0) + pb__, ld32__ = 32LL * (long long)(ld);                \
        const float *q__ = (const float *)(src) + pp__ * (long long)(ld) + (k0) + kb__;                \
        float *d__ = (s) + kb__ * (LDP) + pb__;                                                  \
        if ((ks) == 32 && (long long)(p0) + 128 <= (long long)(np) && (k0) + 32 <= (dim)) {           \
            /* a whole 32-coordinate tile inside: one 64-bit address per point, 4 fixed offsets */    \
            _Pragma("unroll") for (int pq__ = 0; pq__ < 4; pq__++) {                                   \
                const float *qp__ = q__ + pq__ * ld32__;                                               \
                _Pragma("unroll") for (int kg__ = 0; kg__ < 4; kg__++)                                 \
                    OP(d__ + kg__ * 8 * (LDP) + 32 * pq__, qp__ + kg__ * 8, 1);                        \
            }                                                                                          \
        } else if ((long long)(p0) + 128 <= (long long)(np) && (k0) + (ks) <= (dim)) { /* inside */   \
            _Pragma("unroll") for (int kg__ = 0; kg__ < 4; kg__++) {                                   \
                if (kg__ * 8 < (ks)) {                                                                 \
                    _Pragma("unroll") for (int pq__ = 0; pq__ < 4; pq__++)                             \
                        OP(d__ + kg__ * 8 * (LDP) + 32 * pq__, q__ + pq__ * ld32__ + kg__ * 8, 1); \
                }                                                                                      \
            }                                                                                          \
        } else {                                                                                       \
            _Pragma("unroll") for (int kg__ = 0; kg__ < 4; kg__++) {                                   \
                if (kg__ * 8 < (ks)) {                                                                 \
                    const int kok__ = (k0) + kb__ + kg__ * 8 < (dim);                                  \
                    _Pragma("unroll") for (int pq__ = 0; pq__ < 4; pq__++) {                           \
                        const int ok__ = kok__ && pp__ + 32 * pq__ < (long long)(np);                  \
                        OP(d__ + kg__ * 8 * (LDP) + 32 * pq__,                                   \
                           ok__ ? q__ + pq__ * ld32__ + kg__ * 8 : (const float *)(src), ok__);        \
                    }                                                                                  \
                }                                                                                      \
            }                                                                                          \
        }                                                                                              \
    } while (0)

#endif
