#include <onchip/names_push.h>
/* ksum/ksum/staged.cuh -- the staged float path: KSUM_DEFINE's kernels of T float, and the staging
 * pieces that its tensor-core kernels (tc.cuh) share.
 *
 * WHAT (Wang et al., fused kernel summation, Algorithm 2; part of ksum/ksum.cuh)
 *   ksum__f32_body<R, RES, GAUSS>(kf, <the kernel's arguments>) is the whole kernel: 128 x 128 tiles,
 *   8 x 8 a thread, operands copied to shared memory by 4-byte cp.async (transposed, gemm.cuh
 *   ksum_gemm_tile_op) in stages of ks <= 32 coordinates, one barrier per stage, dim zero-padded to a
 *   multiple of 8.  RES = 1: name_kernel (dim <= 128, targets resident times -2s); RES = 0:
 *   name_kernel_stream (both streamed, t = -2s acc).  GAUSS: the factorised Gaussian (sm_80+).  How
 *   they run: docs/ksum.md#how-each-path-runs.  The frame (dp = dim rounded up to 8, nst stages a
 *   tile, shared sA, sB, sw, sna) and step loop are written out in each body; shared pieces:
 *     ksum__load_resident<P>       the resident targets (rows of P) times -2s, s|a_i|^2 into sna
 *     ksum__stage_sw<R>            a tile's record [norms, weights] by cp.async
 *     ksum__cp4_op                 the 4-byte copy as a ksum_gemm_tile_op operation
 *     ksum__lds8, ksum__outer8, ksum__f32_kstep(_init)     the 8 x 8 outer product of one coordinate
 *
 * LIMITS AND COSTS
 *   256 threads; R = 1: 127 registers (2 blocks per SM).  Dynamic shared memory (P (dp + 2 ks) +
 *   256 (1 + R) + 128) floats resident, (4 ks P + 256 (1 + R) + 128) streamed (ksum__stage_smem).
 *   Below sm_80 the copies are plain loads and stores (no factorisation).
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

/* the resident targets of the block (rows row0..row0+127, all dp coordinates) into sA (rows of P),
 * times -2s, and s|a_i|^2 into sna (s = -m2scale / 2): the 8 lanes holding one point add by shuffles */
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

/* 8 floats of a thread's accumulator rows (or columns) at p: p[0..3] and p[64..67] */
static __device__ __forceinline__ void ksum__lds8(float (&x)[8], const float *p)
{
    ksum__lds4(x, p);
    ksum__lds4(x + 4, p + 64);
}
/* acc[i][j] += fa[i] fb[j], an 8 x 8 outer product */
static __device__ __forceinline__ void ksum__outer8(float (&acc)[8][8], const float (&fa)[8], const float (&fb)[8])
{
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
}
/* one coordinate of the 8 x 8 outer product from the k-major shared rows at qa, qb (this thread's
 * rows and columns): two 16-byte loads of each operand, 64 FMAs */
static __device__ __forceinline__ void ksum__f32_kstep(float (&acc)[8][8], const float *qa, const float *qb)
{
    float fa[8], fb[8];
    ksum__lds8(fa, qa);
    ksum__lds8(fb, qb);
    ksum__outer8(acc, fa, fb);
}
/* the first coordinate of a tile: the accumulators start at init[j] (the FMA's addend) */
static __device__ __forceinline__ void ksum__f32_kstep_init(float (&acc)[8][8], const float *qa, const float *qb,
                                                            const float (&init)[8])
{
    float fa[8], fb[8];
    ksum__lds8(fa, qa);
    ksum__lds8(fb, qb);
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
    /* the frame: targets row0.., source tiles t0..t1, dp, nst stages of ks; shared sA (dp rows resident,
     * else 2 ks), sB (2 ks), sw (2 NW), sna (128) */
    const long long row0 = (long long)blockIdx.x * BM;
    const int ntiles = (ka.n + BN - 1) / BN;
    const int t0 = blockIdx.y * ka.tiles_per_split;
    const int t1 = min(ntiles, t0 + ka.tiles_per_split);
    if (t0 >= t1) return;
    const int dp = (ka.dim + 7) & ~7, nst = (dp + ka.ks - 1) / ka.ks;
    const int nsteps = (t1 - t0) * nst;
    float *sA = ksum__smem;
    float *sB = sA + (RES ? dp : 2 * ka.ks) * P;
    float *sw = sB + 2 * ka.ks * P;
    float *sna = sw + 2 * NW;
    const float *nb = ka.norms + ka.m;
    if (RES) ksum__load_resident<P>(sA, sna, ka.a, ka.lda, ka.m, ka.dim, row0, dp, ka.m2scale, tid);
    else ksum__sna_load<float, BM>(sna, ka.norms, row0, ka.m, tid);
    { /* stage 0 of tile t0 and its record, waited for */
        const int kz = min(ka.ks, dp);
        ksum_gemm_tile_op(ksum__cp4_op, sB, P, ka.b, ka.ldb, ka.n, ka.dim, (long long)t0 * BN, 0, kz, tid);
        if (!RES) ksum_gemm_tile_op(ksum__cp4_op, sA, P, ka.a, ka.lda, ka.m, ka.dim, row0, 0, kz, tid);
        ksum__stage_sw<R>(sw, t0, nb, ka.w, ka.n, ka.nrhs, tid);
        onchip_cp_async_wait_all();
        __syncthreads();
    }
    float acc[8][8], vacc[8][R];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int r = 0; r < R; r++) vacc[i][r] = 0.0f;
    int fac = 0; /* this thread's targets all have s|a|^2 <= 64 */
    if (FAC) {
        float na[8];
        ksum__lds8(na, sna + ty * 4);
        fac = 1;
#pragma unroll
        for (int i = 0; i < 8; i++) fac &= na[i] <= KSUM__FACTOR_MAX;
    }
    int st = 0, tile = t0, tpar = 0;
    for (int s = 0; s < nsteps; s++) {
        /* the next step's stage (nst2 of ntile; newtile when it starts a tile) and record copies, in
         * flight during this step; swb this tile's record */
        int nst2 = st + 1, ntile = tile, newtile = 0;
        if (nst2 == nst) { nst2 = 0; ntile++; newtile = 1; }
        if (s + 1 < nsteps) {
            const int buf = (s + 1) & 1, k0 = nst2 * ka.ks, kz = min(ka.ks, dp - k0);
            ksum_gemm_tile_op(ksum__cp4_op, sB + buf * ka.ks * P, P, ka.b, ka.ldb, ka.n, ka.dim, (long long)ntile * BN,
                              k0, kz, tid);
            if (!RES)
                ksum_gemm_tile_op(ksum__cp4_op, sA + buf * ka.ks * P, P, ka.a, ka.lda, ka.m, ka.dim, row0, k0, kz, tid);
            if (newtile) ksum__stage_sw<R>(sw + (tpar ^ 1) * NW, ntile, nb, ka.w, ka.n, ka.nrhs, tid);
        }
        const float *swb = sw + tpar * NW;
        if (!FAC && st == 0) { /* a tile's first stage: the accumulators start at the norms */
            float nbv[8], na[8];
            ksum__lds8(nbv, swb + tx * 4);
            ksum__lds8(na, sna + ty * 4);
            ksum_epi_start(acc, na, nbv);
        }
        { /* the coordinates of stage st, 8 at a time (the real ones of a partial last chunk) */
            const int k0 = st * ka.ks, kz = min(ka.ks, dp - k0);
            const float *pa = (RES ? sA + k0 * P : sA + (s & 1) * ka.ks * P) + ty * 4;
            const float *pb = sB + (s & 1) * ka.ks * P + tx * 4;
            const int kr = min(kz, ka.dim - k0); /* coordinates really there (the rest are zeros) */
            int c = 0;
            if (FAC && st == 0) { /* the first 8 coordinates; the accumulators start at s|b_j|^2 */
                float nbv[8];
                ksum__lds8(nbv, swb + tx * 4);
                ksum__f32_kstep_init(acc, pa, pb, nbv);
                if (kr >= KSUM_BK) {
#pragma unroll
                    for (int kk = 1; kk < KSUM_BK; kk++) ksum__f32_kstep(acc, pa + kk * P, pb + kk * P);
                } else {
#pragma unroll
                    for (int kk = 1; kk < KSUM_BK; kk++)
                        if (kk < kr) ksum__f32_kstep(acc, pa + kk * P, pb + kk * P);
                }
                c = KSUM_BK;
            }
            for (; c + KSUM_BK <= kr; c += KSUM_BK) {
#pragma unroll
                for (int kk = 0; kk < KSUM_BK; kk++) ksum__f32_kstep(acc, pa + (c + kk) * P, pb + (c + kk) * P);
            }
            if (c < kr) { /* a last partial chunk of 8 (dim % 8 != 0): only its real coordinates */
#pragma unroll
                for (int kk = 0; kk < KSUM_BK; kk++)
                    if (kk < kr - c) ksum__f32_kstep(acc, pa + (c + kk) * P, pb + (c + kk) * P);
            }
        }
        if (st == nst - 1) { /* a tile's last stage: kernel values, weighted row sums */
            float wv[8][R];
#pragma unroll
            for (int r = 0; r < R; r++) {
                float tmp[8];
                ksum__lds8(tmp, swb + (1 + r) * BN + tx * 4);
#pragma unroll
                for (int j = 0; j < 8; j++) wv[j][r] = tmp[j];
            }
            if (FAC && fac) { /* acc = t - s|a_i|^2: 2^-acc, the row factor at the end */
                ksum__epi_apply(vacc, wv, kf, [&](int i, int j) { return acc[i][j]; });
            } else if (FAC) { /* acc = t - s|a_i|^2 */
                float na[8];
                ksum__lds8(na, sna + ty * 4);
                ksum__epi_apply(vacc, wv, kf, [&](int i, int j) { return fmaxf(acc[i][j] + na[i], 0.0f); });
            } else { /* resident: t = acc; streamed: t = -2s acc */
                ksum__epi_apply(vacc, wv, kf, [&](int i, int j) {
                    return RES ? fmaxf(acc[i][j], 0.0f) : fmaxf(acc[i][j] * ka.m2scale, 0.0f);
                });
            }
        }
        /* this thread's copies done, then everyone's (one barrier), on to the next stage */
        onchip_cp_async_wait_all();
        __syncthreads();
        if (newtile) tpar ^= 1;
        st = nst2;
        tile = ntile;
    }
    /* the end: the rows' factors 2^-s|a_i|^2 (factorised), the row sums over 16 lanes, stores or atomics */
    if (FAC && fac) {
        float na[8];
        ksum__lds8(na, sna + ty * 4);
#pragma unroll
        for (int i = 0; i < 8; i++) {
            const float f = ksum_exp2neg_float(na[i]);
#pragma unroll
            for (int r = 0; r < R; r++) vacc[i][r] *= f;
        }
    }
    ksum_epi_rowsum16(vacc);
    ksum_epi_store(vacc, ka.v, row0, ka.m, ka.nrhs, tx, ty, ka.atomic, ka.accumulate);
}

#endif
#include <onchip/names_pop.h>
