#include <onchip/names_push.h>
/* ksum/ksum/device.cuh -- the device pieces every ksum kernel shares, and the generators' helpers
 * (part of ksum/ksum.cuh; smalldim.cuh, tc.cuh and wgmma.cuh use it too).
 *
 * WHAT
 *   ksum__sqnorm(p, dim)   |p|^2, one FMA after another (the pre-passes' order)
 *   ksum__norms<T>         the norm pre-pass: out[i] = scale |x_i|^2, the m targets then the n sources
 *   ksum__sna_load<T, BM>  s|a_i|^2 of the block's BM targets into shared sna, zero past m
 *   ksum__sw_load / ksum__sw_store   the per-tile record of the register-staged kernels
 *   ksum__kargs<T>         the main kernels' arguments, the one argument of their bodies
 *   ksum__span_of<BM, BN>  the block's targets (row0) and its split of the source tiles (t0..t1)
 *   ksum__zero, ksum__acc_start, ksum__rec_weights   registers zeroed, started, a record's weights
 *   KSUM__EVAL_FN(T, KERNEL) the functor; KSUM__NORMS(name, T) name_norms; KSUM__FACTOR(K) 1 for
 *   KSUM_GAUSS; KSUM__SCALE(KERNEL, a) s for a->h.
 *
 * LIMITS  256 threads (KSUM_THREADS); register arrays indexed with unrolled constants only.
 */
#ifndef KSUM_KSUM_DEVICE_CUH
#define KSUM_KSUM_DEVICE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "../epilogue.cuh"
#include "../gemm.cuh"
#include <onchip/policy.cuh>

/* the operands every main kernel takes first, in its parameters' order */
template <class T>
struct ksum__operands {
    const T *a;
    long long lda;
    const T *b;
    long long ldb;
    const T *w;
    T *v;
    int m, n, dim, nrhs;
};
/* the main kernels' arguments (KSUM__PARAMS): vec_a, vec_b 16-byte loads (vec_a: wgmma's vecs), ks
 * the staged kernels' stage */
template <class T>
struct ksum__kargs : ksum__operands<T> {
    T m2scale;
    const T *norms;
    int tiles_per_split, vec_a, vec_b, ks, atomic, accumulate;
};

/* the block's BM targets from row0 and its split t0..t1 of the ntiles source tiles of BN (none: t0 >= t1) */
typedef struct ksum__span {
    long long row0;
    int ntiles, t0, t1;
} ksum__span;
template <int BM, int BN, class T>
static __device__ __forceinline__ ksum__span ksum__span_of(const ksum__kargs<T> &ka)
{
    ksum__span sp;
    sp.row0 = (long long)blockIdx.x * BM;
    sp.ntiles = (ka.n + BN - 1) / BN;
    sp.t0 = blockIdx.y * ka.tiles_per_split;
    sp.t1 = min(sp.ntiles, sp.t0 + ka.tiles_per_split);
    return sp;
}

/* |p|^2 over dim coordinates, one FMA after another (the pre-passes' order) */
template <class T>
static __device__ __forceinline__ T ksum__sqnorm(const T *p, int dim)
{
    T s = 0;
    for (int k = 0; k < dim; k++) s = fma(p[k], p[k], s);
    return s;
}
/* the pre-pass: scale * |x|^2 for the m targets, then the n sources, into out[m + n] */
template <class T>
static __device__ __forceinline__ void ksum__norms(const T *a, long long lda, int m, const T *b, long long ldb, int n,
                                                   int dim, T scale, T *out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)m + n) return;
    out[i] = ksum__sqnorm(i < m ? a + i * lda : b + (i - m) * ldb, dim) * scale;
}

/* s|a_i|^2 of the block's BM targets from the pre-pass into shared sna, zero past m */
template <class T, int BM>
static __device__ __forceinline__ void ksum__sna_load(T *sna, const T *norms, long long row0, int m, int tid)
{
    for (int q = tid; q < BM; q += KSUM_THREADS) sna[q] = row0 + q < m ? norms[row0 + q] : (T)0;
}

/* the per-tile record: element e = tid + 256 q of [0: s|b_j|^2, 1 + r: w_r][BN] for sources j0.. */
template <class T, int BN, int NW, int NWPER>
static __device__ __forceinline__ void ksum__sw_load(T (&rw)[NWPER], const T *nb, const T *w, long long j0, int n,
                                                     int nrhs, int tid)
{
#pragma unroll
    for (int q = 0; q < NWPER; q++) {
        const int e = tid + q * KSUM_THREADS, qq = e / BN;
        const long long j = j0 + e % BN;
        rw[q] = (T)0;
        if (e < NW && j < n) rw[q] = qq == 0 ? nb[j] : (qq - 1 < nrhs ? w[j * nrhs + qq - 1] : (T)0);
    }
}
template <class T, int NW, int NWPER>
static __device__ __forceinline__ void ksum__sw_store(T *d, const T (&rw)[NWPER], int tid)
{
#pragma unroll
    for (int q = 0; q < NWPER; q++)
        if (tid + q * KSUM_THREADS < NW) d[tid + q * KSUM_THREADS] = rw[q];
}

/* every element of a register array (of any rank) set to 0 */
template <class T>
static __device__ __forceinline__ void ksum__zero(T &x)
{
    x = 0;
}
template <class T, int N>
static __device__ __forceinline__ void ksum__zero(T (&x)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++) ksum__zero(x[i]);
}
/* acc[i][j] = na[i] + nb[j], na and nb (the caller's registers) read from pa and pb */
template <class T, int TM, int TN>
static __device__ __forceinline__ void ksum__acc_start(T (&acc)[TM][TN], T (&nbv)[TN], T (&na)[TM], const T *pa, const T *pb)
{
    ksum__ldsn(nbv, pb);
    ksum__ldsn(na, pa);
    ksum_epi_start(acc, na, nbv);
}
/* the weights wv[j][r] of a tile's record (rows of BN after the norms) from p */
template <class T, int TN, int R, int BN>
static __device__ __forceinline__ void ksum__rec_weights(T (&wv)[TN][R], const T *p)
{
#pragma unroll
    for (int r = 0; r < R; r++) {
        T tmp[TN];
        ksum__ldsn(tmp, p + (1 + r) * BN);
#pragma unroll
        for (int j = 0; j < TN; j++) wv[j][r] = tmp[j];
    }
}

/* ---- the generators' helpers */
#define KSUM__CAT(a, b) a##b
#define KSUM__XCAT(a, b) KSUM__CAT(a, b)
/* preprocessor probes: KSUM__PROBE(x) is 1 (or what follows) where x expands to "~, 1", else 0 */
#define KSUM__PROBE_2ND(x, y, ...) y
#define KSUM__PROBE(...) KSUM__PROBE_2ND(__VA_ARGS__, 0, 0)
#define KSUM__FACTOR(K) KSUM__PROBE(KSUM__FACTOR_##K)
#define KSUM__FACTOR_KSUM_GAUSS ~, 1

#define KSUM__EVAL_FN(T, KERNEL) [](T t__) { return KERNEL##_EVAL(T, t__); }
#define KSUM__SCALE(KERNEL, args) ((args) ? (double)(KERNEL##_SCALE((args)->h)) : 0)
#define KSUM__NORMS(name, T)                                                                           \
    __global__ void name##_norms(const T *__restrict__ a, long long lda, int m, const T *__restrict__ b, \
                                 long long ldb, int n, int dim, T scale, T *__restrict__ out)         \
    { ksum__norms<T>(a, lda, m, b, ldb, n, dim, scale, out); }

#endif
#include <onchip/names_pop.h>
