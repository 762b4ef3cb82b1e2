#include <onchip/names_push.h>
/* ksum/ksum/staged.cuh -- the staged float path (part of ksum/ksum.cuh): KSUM_DEFINE's kernels of
 * T float, and the staging pieces its tensor-core kernels (tc.cuh) share.
 *
 * WHAT (docs/ksum.md#how-each-path-runs)
 *   ksum__f32_body<R, RES, GAUSS>(kf, <the kernel's arguments>) is the whole kernel: 128 x 128 tiles,
 *   8 x 8 a thread, stages of ks <= 32 coordinates.  RES = 1: name_kernel (dim <= 128, targets
 *   resident); RES = 0: name_kernel_stream.  GAUSS: the factorised Gaussian (sm_80+).  The stages it
 *   shares with tc.cuh's ksum__tc_body (docs/ksum.md#bodies):
 *     ksum__stg*                   the frame, the shared memory, a step's position, a stage's copies
 *     ksum__load_resident<P>       the resident targets (rows of P) times -2s, s|a_i|^2 into sna
 *     ksum__stage_sw<R>            a tile's record [norms, weights] by cp.async
 *     ksum__cp4_op                 the 4-byte copy as a ksum_gemm_tile_op operation
 *
 * LIMITS  256 threads; dynamic shared memory ksum__stage_smem.  Below sm_80 the copies are plain
 *   loads and stores (no factorisation).
 */
#ifndef KSUM_KSUM_STAGED_CUH
#define KSUM_KSUM_STAGED_CUH

#include "../epilogue.cuh"
#include "../gemm.cuh"
#include "device.cuh"

/* the factorised Gaussian's largest s|a_i|^2: why: docs/ksum.md#factor-max */
#define KSUM__FACTOR_MAX 64.0f
/* below sm_80 (plain loads instead of cp.async: more registers) the factorised kernel would spill */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define KSUM__FACTOR_ARCH 0
#else
#define KSUM__FACTOR_ARCH 1
#endif

/* the 4-byte copy as a tile op (gemm.cuh ksum_gemm_tile_op) */
static __device__ __forceinline__ void ksum__cp4_op(float *d, const float *q, int ok, int) { onchip_cp_async4(d, q, ok); }

/* the block's 128 resident targets (dp coordinates) into sA (rows of P) times -2s, s|a_i|^2 into sna
 * (the 8 lanes of a point add by shuffles) */
template <int P>
static __device__ __forceinline__ void ksum__load_resident(float *sA, float *sna, const float *a, long long lda, int m,
                                                           int dim, long long row0, int dp, float m2scale, int tid)
{
    float nsq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < dp; k0 += 32)
        ksum_gemm_tile_op(
            [&](float *d, const float *q, int ok, int pq) {
                const float x = ok ? __ldg(q) : 0.0f;
                nsq[pq] = fmaf(x, x, nsq[pq]);
                *d = x * m2scale;
            },
            sA + k0 * P, P, a, lda, m, dim, row0, k0, min(32, dp - k0), tid);
#pragma unroll
    for (int pq = 0; pq < 4; pq++) {
        float x = nsq[pq];
        x += __shfl_xor_sync(0xffffffffu, x, 4);
        x += __shfl_xor_sync(0xffffffffu, x, 8);
        x += __shfl_xor_sync(0xffffffffu, x, 16);
        if ((tid & 31) < 4) sna[(((tid >> 5) << 2) + (tid & 3)) + 32 * pq] = x * (-0.5f * m2scale);
    }
}

/* the tile's record into dst by 4-byte copies: [0..127] s|b_j|^2 (or -|b_j|^2/2, from nb), then the
 * weights w_r, zero past n */
template <int R>
static __device__ __forceinline__ void ksum__stage_sw(float *dst, int tile, const float *nb, const float *w, int n, int nrhs,
                                                      int tid)
{
    enum { BN = 128, NW = BN * (1 + R), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS };
#pragma unroll
    for (int q = 0; q < NWPER; q++) {
        const int e = tid + q * KSUM_THREADS, qq = e >> 7;
        if (e < NW) {
            const int j = tile * BN + (e & 127); /* < n + 128: no overflow */
            const float *base = qq == 0 ? nb : w + (qq - 1); /* per-thread constants */
            const int str = qq == 0 ? 1 : nrhs;
            const int ok = j < n && (qq == 0 || qq - 1 < nrhs);
            onchip_cp_async4(dst + e, ok ? base + (long long)j * str : nb, ok);
        }
    }
}

/* ---- the stages of the staged kernels (ksum__f32_body, tc.cuh's ksum__tc_body) */

/* the block's span; dp = dim rounded up to 8, nst stages of ks a tile, nsteps in all */
typedef struct ksum__stg {
    ksum__span blk;
    int dp, nst, nsteps;
} ksum__stg;
static __device__ __forceinline__ ksum__stg ksum__stg_frame(const ksum__kargs<float> &ka, const ksum__span &blk)
{
    ksum__stg f;
    f.blk = blk;
    f.dp = (ka.dim + 7) & ~7;
    f.nst = (f.dp + ka.ks - 1) / ka.ks;
    f.nsteps = (blk.t1 - blk.t0) * f.nst;
    return f;
}
/* the body's shared sA (dp rows of P resident, else 2 ks), sB (2 ks), sw (2 records), sna; norms nb */
typedef struct ksum__stg_smem {
    float *sA, *sB, *sw, *sna;
    const float *nb;
} ksum__stg_smem;
/* a step's position: stage st of tile, record buffer tpar; newtile: st starts tile */
typedef struct ksum__stg_pos {
    int st, tile, tpar, newtile;
} ksum__stg_pos;

/* stage st of tile into buffer buf by cp.async: the sources, and the targets when streamed */
template <int RES, int P>
static __device__ __forceinline__ void ksum__stg_copy(const ksum__stg_smem &m, const ksum__stg &f,
                                                      const ksum__kargs<float> &ka, const ksum__stg_pos &at, int buf,
                                                      int tid)
{
    const int k0 = at.st * ka.ks, kz = min(ka.ks, f.dp - k0);
    ksum_gemm_tile_op(ksum__cp4_op, m.sB + buf * ka.ks * P, P, ka.b, ka.ldb, ka.n, ka.dim, (long long)at.tile * 128, k0,
                      kz, tid);
    if (!RES)
        ksum_gemm_tile_op(ksum__cp4_op, m.sA + buf * ka.ks * P, P, ka.a, ka.lda, ka.m, ka.dim, f.blk.row0, k0, kz, tid);
}
/* stage 0 of the first tile and its record, waited for; the first step's position */
template <int R, int RES, int P>
static __device__ __forceinline__ ksum__stg_pos ksum__stg_first(const ksum__stg_smem &m, const ksum__stg &f,
                                                                const ksum__kargs<float> &ka, int tid)
{
    const ksum__stg_pos at = {0, f.blk.t0, 0, 1};
    ksum__stg_copy<RES, P>(m, f, ka, at, 0, tid);
    ksum__stage_sw<R>(m.sw, f.blk.t0, m.nb, ka.w, ka.n, ka.nrhs, tid);
    onchip_cp_async_wait_all();
    __syncthreads();
    return at;
}
/* the next step's position (its copies go in flight during this step) */
static __device__ __forceinline__ ksum__stg_pos ksum__stg_next(ksum__stg_pos at, int nst)
{
    ksum__stg_pos nx = at;
    nx.st = at.st + 1;
    nx.newtile = 0;
    if (nx.st == nst) { nx.st = 0; nx.tile++; nx.newtile = 1; }
    return nx;
}
/* step s's copies of the next step nx (its stage, at a tile's start its record), unless s is the last */
template <int R, int RES, int P, int NW>
static __device__ __forceinline__ void ksum__stg_prefetch(const ksum__stg_smem &m, const ksum__stg &f,
                                                          const ksum__kargs<float> &ka, const ksum__stg_pos &at,
                                                          const ksum__stg_pos &nx, int s, int tid)
{
    if (s + 1 < f.nsteps) {
        ksum__stg_copy<RES, P>(m, f, ka, nx, (s + 1) & 1, tid);
        if (nx.newtile) ksum__stage_sw<R>(m.sw + (at.tpar ^ 1) * NW, nx.tile, m.nb, ka.w, ka.n, ka.nrhs, tid);
    }
}
/* the position nx after the step: the other record buffer where nx starts a tile */
static __device__ __forceinline__ ksum__stg_pos ksum__stg_advance(ksum__stg_pos nx)
{
    if (nx.newtile) nx.tpar ^= 1;
    return nx;
}

/* ---- the float kernel's pieces */

/* the first coordinate of a tile: the accumulators start at init[j] (the FMA's addend) */
static __device__ __forceinline__ void ksum__f32_kstep_init(float (&acc)[8][8], const float *qa, const float *qb,
                                                            const float (&init)[8])
{
    float fa[8], fb[8];
    ksum__ldsn(fa, qa);
    ksum__ldsn(fb, qb);
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = fmaf(fa[i], fb[j], init[j]);
}

/* the kernel: GAUSS = KSUM__FACTOR(KERNEL) (the factorisation where RES, on sm_80+) */
template <int R, int RES, int GAUSS, class K>
static __device__ __forceinline__ void ksum__f32_body(K kf, const ksum__kargs<float> &ka)
{
    enum { BM = 128, BN = 128, P = KSUM_GEMM_P, NW = BN * (1 + R) };
    /* the factorised Gaussian (resident targets): K = 2^-s|a|^2 2^-(t - s|a|^2) */
    enum { FAC = RES && GAUSS && KSUM__FACTOR_ARCH };
    extern __shared__ __align__(16) float ksum__smem[];
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const ksum__span blk = ksum__span_of<BM, BN>(ka);
    if (blk.t0 >= blk.t1) return;
    const ksum__stg f = ksum__stg_frame(ka, blk);
    float *sA = ksum__smem, *sB = sA + (RES ? f.dp : 2 * ka.ks) * P, *sw = sB + 2 * ka.ks * P, *sna = sw + 2 * NW;
    const ksum__stg_smem m = {sA, sB, sw, sna, ka.norms + ka.m};
    if (RES) ksum__load_resident<P>(sA, sna, ka.a, ka.lda, ka.m, ka.dim, blk.row0, f.dp, ka.m2scale, tid);
    else ksum__sna_load<float, BM>(sna, ka.norms, blk.row0, ka.m, tid);
    ksum__stg_pos at = ksum__stg_first<R, RES, P>(m, f, ka, tid);
    float acc[8][8], vacc[8][R];
    ksum__zero(vacc);
    int fac = 0; /* this thread's targets all have s|a|^2 <= 64 */
    if (FAC) {
        float na[8];
        ksum__ldsn(na, sna + ty * 4);
        fac = 1;
#pragma unroll
        for (int i = 0; i < 8; i++) fac &= na[i] <= KSUM__FACTOR_MAX;
    }
    for (int s = 0; s < f.nsteps; s++) {
        const ksum__stg_pos nx = ksum__stg_next(at, f.nst);
        ksum__stg_prefetch<R, RES, P, NW>(m, f, ka, at, nx, s, tid); /* in flight during this step */
        const float *swb = sw + at.tpar * NW;
        if (!FAC && at.st == 0) { /* a tile's first stage: the accumulators start at the norms */
            float nbv[8], na[8];
            ksum__acc_start(acc, nbv, na, sna + ty * 4, swb + tx * 4);
        }
        { /* the coordinates of stage st, 8 at a time (the real ones of a partial last chunk) */
            const int k0 = at.st * ka.ks, kz = min(ka.ks, f.dp - k0);
            const float *pa = (RES ? sA + k0 * P : sA + (s & 1) * ka.ks * P) + ty * 4;
            const float *pb = sB + (s & 1) * ka.ks * P + tx * 4;
            const int kr = min(kz, ka.dim - k0); /* coordinates really there (the rest are zeros) */
            int c = 0;
            if (FAC && at.st == 0) { /* the first 8 coordinates; the accumulators start at s|b_j|^2 */
                float nbv[8];
                ksum__ldsn(nbv, swb + tx * 4);
                ksum__f32_kstep_init(acc, pa, pb, nbv);
                if (kr >= KSUM_BK) {
#pragma unroll
                    for (int kk = 1; kk < KSUM_BK; kk++) ksum__kstep(acc, pa + kk * P, pb + kk * P);
                } else {
#pragma unroll
                    for (int kk = 1; kk < KSUM_BK; kk++)
                        if (kk < kr) ksum__kstep(acc, pa + kk * P, pb + kk * P);
                }
                c = KSUM_BK;
            }
            for (; c + KSUM_BK <= kr; c += KSUM_BK) {
#pragma unroll
                for (int kk = 0; kk < KSUM_BK; kk++) ksum__kstep(acc, pa + (c + kk) * P, pb + (c + kk) * P);
            }
            if (c < kr) { /* a last partial chunk of 8 (dim % 8 != 0): only its real coordinates */
#pragma unroll
                for (int kk = 0; kk < KSUM_BK; kk++)
                    if (kk < kr - c) ksum__kstep(acc, pa + (c + kk) * P, pb + (c + kk) * P);
            }
        }
        if (at.st == f.nst - 1) { /* a tile's last stage: kernel values, weighted row sums */
            float wv[8][R];
            ksum__rec_weights<float, 8, R, BN>(wv, swb + tx * 4);
            if (FAC && fac) { /* acc = t - s|a_i|^2: 2^-acc, the row factor at the end */
                ksum__epi_apply(vacc, wv, kf, [&](int i, int j) { return acc[i][j]; });
            } else if (FAC) { /* acc = t - s|a_i|^2 */
                float na[8];
                ksum__ldsn(na, sna + ty * 4);
                ksum__epi_apply(vacc, wv, kf, [&](int i, int j) { return fmaxf(acc[i][j] + na[i], 0.0f); });
            } else { /* resident: t = acc; streamed: t = -2s acc */
                ksum__epi_apply(vacc, wv, kf, [&](int i, int j) {
                    return RES ? fmaxf(acc[i][j], 0.0f) : fmaxf(acc[i][j] * ka.m2scale, 0.0f);
                });
            }
        }
        onchip_cp_async_wait_all(); /* this thread's copies done, then everyone's: one barrier */
        __syncthreads();
        at = ksum__stg_advance(nx);
    }
    /* the end: the rows' factors 2^-s|a_i|^2 (factorised), the row sums over 16 lanes, stores or atomics */
    if (FAC && fac) {
        float na[8];
        ksum__ldsn(na, sna + ty * 4);
#pragma unroll
        for (int i = 0; i < 8; i++) {
            const float fr = ksum_exp2neg_float(na[i]);
#pragma unroll
            for (int r = 0; r < R; r++) vacc[i][r] *= fr;
        }
    }
    ksum_epi_rowsum16(vacc);
    ksum_epi_store(vacc, ka.v, blk.row0, ka.m, ka.nrhs, tx, ty, ka.atomic, ka.accumulate);
}

#endif
#include <onchip/names_pop.h>
