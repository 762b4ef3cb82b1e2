#include <onchip/names_push.h>
/* ksum/ksum/tc.cuh -- the tensor-core path's code (part of ksum/tc.cuh): the mma.sync pieces
 * (ksum__split, ksum__tc_*), the bodies ksum__tc_body (staged) and ksum__tc1_body (register-staged),
 * the generators of T ksum_tf32 / ksum_tf32x3, the host side.  docs/ksum.md#ksum-glossary.
 */
#ifndef KSUM_KSUM_TC_CUH
#define KSUM_KSUM_TC_CUH

#include <onchip/mma.cuh>

#include "../ksum.cuh"
#include "wgmma.cuh"

#define KSUM__TC_PAD 136

/* split x into big + small TF32 parts (small = 0 for PASSES 1) */
static __device__ __forceinline__ void ksum__split(float x, unsigned *big, unsigned *small, int passes)
{
    *big = ksum__tf32(x);
    *small = passes > 1 ? ksum__tf32(x - __uint_as_float(*big)) : 0u;
}

/* ---- pieces shared by the tensor-core kernels: a lane's fragment coordinates and WIDE placements
 * (docs/ksum.md#tf32-fragment-placement) */
typedef struct ksum__tc_lane {
    int g, t4, wr, wc;
} ksum__tc_lane;
/* the shared row of accumulator row half hh of m-tile i */
template <int WIDE>
static __device__ __forceinline__ int ksum__tc_row(const ksum__tc_lane &L, int i, int hh)
{
    return WIDE ? L.wr + 4 * L.g + 2 * i + hh : L.wr + 16 * i + L.g + 8 * hh;
}
/* the shared column of accumulator element e (0, 1: fragment columns 2 t4, 2 t4 + 1) of n-tile j */
template <int WIDE>
static __device__ __forceinline__ int ksum__tc_col(const ksum__tc_lane &L, int j, int e)
{
    return WIDE ? L.wc + 32 * (j >> 2) + 8 * L.t4 + 4 * e + (j & 3) : L.wc + 8 * j + 2 * L.t4 + e;
}

/* p at n-tile j's columns of elements 0 and 1 (V2: one 8-byte load, WIDE 0) */
template <int WIDE, int V2>
static __device__ __forceinline__ float2 ksum__tc_cols(const ksum__tc_lane &L, const float *p, int j)
{
    if (V2 && !WIDE) return *(const float2 *)(p + ksum__tc_col<0>(L, j, 0));
    return make_float2(p[ksum__tc_col<WIDE>(L, j, 0)], p[ksum__tc_col<WIDE>(L, j, 1)]);
}
/* the accumulators start at s|a_i|^2 + s|b_j|^2 (sna, the record swb) */
template <int WIDE, int V2>
static __device__ __forceinline__ void ksum__tc_start(float (&acc)[2][8][4], const float *sna, const float *swb,
                                                      const ksum__tc_lane &L)
{
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const float n0 = sna[ksum__tc_row<WIDE>(L, i, 0)], n1 = sna[ksum__tc_row<WIDE>(L, i, 1)];
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const float2 b = ksum__tc_cols<WIDE, V2>(L, swb, j);
            acc[i][j][0] = n0 + b.x; acc[i][j][1] = n0 + b.y;
            acc[i][j][2] = n1 + b.x; acc[i][j][3] = n1 + b.y;
        }
    }
}

/* the kernel values of n-tile j's accumulators (t = acc resident, t = -2s acc streamed), weighted by
 * w0 / w1 (the weights of the fragment's two columns) into the row sums */
template <int R, int RES, class K>
static __device__ __forceinline__ void ksum__tc_epi_j(float (&vacc)[2][2][R], const float (&acc)[2][8][4], int j,
                                                      const float (&w0)[R], const float (&w1)[R], float m2scale, K kf)
{
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            const float y0 = acc[i][j][2 * hh], y1 = acc[i][j][2 * hh + 1];
            const float x0 = RES ? fmaxf(y0, 0.0f) : fmaxf(y0 * m2scale, 0.0f);
            const float x1 = RES ? fmaxf(y1, 0.0f) : fmaxf(y1 * m2scale, 0.0f);
            const float k0 = kf(x0), k1 = kf(x1);
#pragma unroll
            for (int r = 0; r < R; r++) vacc[i][hh][r] = fmaf(k1, w1[r], fmaf(k0, w0[r], vacc[i][hh][r]));
        }
}

/* rows: sum over the 4 lanes of a quad, then the 2 warps of a row band in shared sred (two addends:
 * the same result in either order), then one store or atomic per (row, rhs) */
template <int WIDE, int R>
static __device__ __forceinline__ void ksum__tc_finish(const float (&vacc)[2][2][R], float *sred, const ksum__tc_lane &L,
                                                       int tid, float *v, long long row0, int m, int nrhs, int atomic,
                                                       int accumulate)
{
    enum { BM = 128 };
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int hh = 0; hh < 2; hh++)
#pragma unroll
            for (int r = 0; r < R; r++) {
                float x = vacc[i][hh][r];
                x += __shfl_xor_sync(0xffffffffu, x, 1);
                x += __shfl_xor_sync(0xffffffffu, x, 2);
                if (L.t4 == 0) atomicAdd(&sred[ksum__tc_row<WIDE>(L, i, hh) * R + r], x);
            }
    __syncthreads();
    for (int q = tid; q < BM * R; q += KSUM_THREADS) {
        const long long row = row0 + q / R;
        const int r = q % R;
        if (row < m && r < nrhs) {
            float *d = v + row * nrhs + r;
            if (atomic) atomicAdd(d, sred[q]);
            else *d = accumulate ? *d + sred[q] : sred[q];
        }
    }
}

/* one k-step of 8 coordinates at A, B (k-major rows of P): 2 x 8 m16n8k8 mma tiles per warp (x3 for
 * the split); the A fragments (ab big, as small parts) first */
template <int PASSES, int WIDE, int PRE_A, int P>
static __device__ __forceinline__ void ksum__tc_kstep8(float (&acc)[2][8][4], const float *A, const float *B,
                                                       const ksum__tc_lane &L)
{
    const int g = L.g, t4 = L.t4, wr = L.wr, wc = L.wc;
    unsigned ab[2][4], as[2][4];
    if (WIDE) {
        const float4 q0 = *(const float4 *)(A + t4 * P + wr + 4 * g);
        const float4 q1 = *(const float4 *)(A + (t4 + 4) * P + wr + 4 * g);
        if (PRE_A) { /* stored already rounded to TF32 */
            ab[0][0] = __float_as_uint(q0.x); ab[0][1] = __float_as_uint(q0.y);
            ab[1][0] = __float_as_uint(q0.z); ab[1][1] = __float_as_uint(q0.w);
            ab[0][2] = __float_as_uint(q1.x); ab[0][3] = __float_as_uint(q1.y);
            ab[1][2] = __float_as_uint(q1.z); ab[1][3] = __float_as_uint(q1.w);
#pragma unroll
            for (int e = 0; e < 4; e++) as[0][e] = as[1][e] = 0u;
        } else {
            ksum__split(q0.x, &ab[0][0], &as[0][0], PASSES); ksum__split(q0.y, &ab[0][1], &as[0][1], PASSES);
            ksum__split(q0.z, &ab[1][0], &as[1][0], PASSES); ksum__split(q0.w, &ab[1][1], &as[1][1], PASSES);
            ksum__split(q1.x, &ab[0][2], &as[0][2], PASSES); ksum__split(q1.y, &ab[0][3], &as[0][3], PASSES);
            ksum__split(q1.z, &ab[1][2], &as[1][2], PASSES); ksum__split(q1.w, &ab[1][3], &as[1][3], PASSES);
        }
    } else {
#pragma unroll
        for (int i = 0; i < 2; i++) {
            const int r = wr + i * 16 + g;
            ksum__split(A[t4 * P + r], &ab[i][0], &as[i][0], PASSES);
            ksum__split(A[t4 * P + r + 8], &ab[i][1], &as[i][1], PASSES);
            ksum__split(A[(t4 + 4) * P + r], &ab[i][2], &as[i][2], PASSES);
            ksum__split(A[(t4 + 4) * P + r + 8], &ab[i][3], &as[i][3], PASSES);
        }
    }
#pragma unroll
    for (int jj = 0; jj < 2; jj++) {
        float f0[4], f1[4];
        if (WIDE) {
            ksum__lds4(f0, B + t4 * P + wc + 32 * jj + 4 * g);
            ksum__lds4(f1, B + (t4 + 4) * P + wc + 32 * jj + 4 * g);
        }
#pragma unroll
        for (int jq = 0; jq < 4; jq++) {
            const int j = 4 * jj + jq;
            unsigned bb[2], bs[2];
            if (WIDE) {
                ksum__split(f0[jq], &bb[0], &bs[0], PASSES);
                ksum__split(f1[jq], &bb[1], &bs[1], PASSES);
            } else {
                const int cc = wc + j * 8 + g;
                ksum__split(B[t4 * P + cc], &bb[0], &bs[0], PASSES);
                ksum__split(B[(t4 + 4) * P + cc], &bb[1], &bs[1], PASSES);
            }
#pragma unroll
            for (int i = 0; i < 2; i++) {
                if (PASSES > 1) {
                    onchip__mma_tf32_k8(acc[i][j], as[i], bb);
                    onchip__mma_tf32_k8(acc[i][j], ab[i], bs);
                }
                onchip__mma_tf32_k8(acc[i][j], ab[i], bb);
            }
        }
    }
}

/* WIDE >= 4, one pass: two m16n8k4 mmas per tile, fragments straight from the LDS.128 results */
template <int PRE_A, int P>
static __device__ __forceinline__ void ksum__tc_kstep4(float (&acc)[2][8][4], const float *A, const float *B,
                                                       const ksum__tc_lane &L)
{
    const int g = L.g, t4 = L.t4, wr = L.wr, wc = L.wc;
#pragma unroll
    for (int kh = 0; kh < 2; kh++) {
        const float4 q = *(const float4 *)(A + (t4 + 4 * kh) * P + wr + 4 * g);
        unsigned a0[4];
        a0[0] = PRE_A ? __float_as_uint(q.x) : ksum__tf32(q.x);
        a0[1] = PRE_A ? __float_as_uint(q.y) : ksum__tf32(q.y);
        a0[2] = PRE_A ? __float_as_uint(q.z) : ksum__tf32(q.z);
        a0[3] = PRE_A ? __float_as_uint(q.w) : ksum__tf32(q.w);
#pragma unroll
        for (int jj = 0; jj < 2; jj++) {
            float f[4];
            ksum__lds4(f, B + (t4 + 4 * kh) * P + wc + 32 * jj + 4 * g);
#pragma unroll
            for (int jq = 0; jq < 4; jq++) {
                const unsigned bq = ksum__tf32(f[jq]);
                onchip__mma_tf32_k4(acc[0][4 * jj + jq], a0[0], a0[1], bq);
                onchip__mma_tf32_k4(acc[1][4 * jj + jq], a0[2], a0[3], bq);
            }
        }
    }
}
template <int PASSES, int WIDE, int PRE_A, int P>
static __device__ __forceinline__ void ksum__tc_kstep(float (&acc)[2][8][4], const float *A, const float *B,
                                                      const ksum__tc_lane &L)
{
    if (WIDE >= 4 && PASSES == 1) ksum__tc_kstep4<PRE_A, P>(acc, A, B, L);
    else ksum__tc_kstep8<PASSES, WIDE, PRE_A, P>(acc, A, B, L);
}

/* ---- the register-staged kernel (KSUM_REGS_DEFINE): 8-coordinate chunks staged through registers,
 * rows of P = 136 */

template <int PASSES, int R, class K>
static __device__ __forceinline__ void ksum__tc1_body(K kf, const ksum__kargs<float> &ka)
{
    enum { BM = 128, BN = 128, NW = BN * (1 + R), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS, P = KSUM__TC_PAD };
    __shared__ __align__(16) float sa[2 * KSUM_BK * P];
    __shared__ __align__(16) float sb[2 * KSUM_BK * P];
    __shared__ __align__(16) float sw[2 * NW];
    __shared__ float sna[BM], sred[BM * R];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const ksum__tc_lane L = {lane >> 2, lane & 3, (warp & 3) * 32, (warp >> 2) * 64};
    const ksum__span blk = ksum__span_of<BM, BN>(ka);
    const long long row0 = blk.row0;
    if (blk.t0 >= blk.t1) return;
    const ksum__rs f = ksum__rs_of(ka, blk);
    const float *nb = ka.norms + ka.m;
    ksum__sna_load<float, BM>(sna, ka.norms, row0, ka.m, tid);
    for (int q = tid; q < BM * R; q += KSUM_THREADS) sred[q] = 0.0f;
    float acc[2][8][4], vacc[2][2][R];
    ksum__zero(vacc);
    float ra[4], rb[4], rw[NWPER];
    int ls_tile = blk.t0;
    const int sp = tid >> 1, sk = (tid & 1) * 4; /* this thread's staging point and coordinate */
    ksum_gemm_load(ra, ka.a, ka.lda, ka.m, ka.dim, row0, 0, tid, ka.vec_a);
    ksum_gemm_load(rb, ka.b, ka.ldb, ka.n, ka.dim, (long long)ls_tile * BN, 0, tid, ka.vec_b);
    ksum__sw_load<float, BN, NW>(rw, nb, ka.w, (long long)ls_tile * BN, ka.n, ka.nrhs, tid);
    { /* step 0 into buffer 0 (the targets into both when one chunk is all: they stay) */
        const int both = f.nchunks == 1;
#pragma unroll
        for (int e = 0; e < 4; e++) {
            sa[(sk + e) * P + sp] = ra[e] * ka.m2scale;
            if (both) sa[KSUM_BK * P + (sk + e) * P + sp] = ra[e] * ka.m2scale;
            sb[(sk + e) * P + sp] = rb[e];
        }
    }
    ksum__sw_store<float, NW>(sw, rw, tid);
    __syncthreads();
    int c = 0, tpar = 0;
    for (int s = 0; s < f.nsteps; s++) {
        /* as ksum__ex_body's loop, the k-step on mma.sync */
        const int more = s + 1 < f.nsteps;
        const ksum__rs_next nx = ksum__rs_next_of(c, f.nchunks);
        if (more) ls_tile = ksum__rs_load<float, BN, NW>(ra, rb, rw, nb, ka, row0, ls_tile, f, nx, tid);
        const float *swb = sw + tpar * NW;
        if (c == 0) ksum__tc_start<0, 1>(acc, sna, swb, L);
        ksum__tc_kstep8<PASSES, 0, 0, P>(acc, sa + (s & 1) * KSUM_BK * P, sb + (s & 1) * KSUM_BK * P, L);
        if (c == f.nchunks - 1) { /* a tile's last chunk: kernel values, weighted row sums */
#pragma unroll
            for (int j = 0; j < 8; j++) {
                float w0[R], w1[R];
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const float2 ww = *(const float2 *)(swb + (1 + r) * BN + L.wc + j * 8 + 2 * L.t4);
                    w0[r] = ww.x; w1[r] = ww.y;
                }
                ksum__tc_epi_j<R, 1>(vacc, acc, j, w0, w1, ka.m2scale, kf);
            }
        }
        if (more) {
            /* the staged registers into the other buffer (the targets only when they change) */
            float *A = sa + ((s + 1) & 1) * KSUM_BK * P, *B = sb + ((s + 1) & 1) * KSUM_BK * P;
#pragma unroll
            for (int e = 0; e < 4; e++) {
                if (f.nchunks > 1) A[(sk + e) * P + sp] = ra[e] * ka.m2scale;
                B[(sk + e) * P + sp] = rb[e];
            }
            if (nx.first) ksum__sw_store<float, NW>(sw + (tpar ^ 1) * NW, rw, tid);
        }
        __syncthreads();
        if (nx.first) tpar ^= 1;
        c = nx.c;
    }
    ksum__tc_finish<0, R>(vacc, sred, L, tid, ka.v, row0, ka.m, ka.nrhs, ka.atomic, ka.accumulate);
}

/* ---- the staged tensor-core kernel (KSUM_DEFINE): the tiling and epilogue above on staged.cuh's
 * staging */

template <int PASSES, int R, int RES, int WIDE, class K>
static __device__ __forceinline__ void ksum__tc_body(K kf, const ksum__kargs<float> &ka)
{
    enum { BM = 128, BN = 128, P = KSUM__TC_PAD, NW = BN * (1 + R), PRE_A = RES && PASSES == 1 && WIDE >= 3 };
    extern __shared__ __align__(16) float ksum__smem[];
    __shared__ float sred[BM * R];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const ksum__tc_lane L = {lane >> 2, lane & 3, (warp & 3) * 32, (warp >> 2) * 64};
    const ksum__span blk = ksum__span_of<BM, BN>(ka);
    if (blk.t0 >= blk.t1) return;
    const ksum__stg f = ksum__stg_frame(ka, blk);
    float *sA = ksum__smem, *sB = sA + (RES ? f.dp : 2 * ka.ks) * P, *sw = sB + 2 * ka.ks * P, *sna = sw + 2 * NW;
    const ksum__stg_smem m = {sA, sB, sw, sna, ka.norms + ka.m};
    for (int q = tid; q < BM * R; q += KSUM_THREADS) sred[q] = 0.0f;
    if (RES) ksum__load_resident<P>(sA, sna, ka.a, ka.lda, ka.m, ka.dim, blk.row0, f.dp, ka.m2scale, tid);
    if (PRE_A) { /* round the resident targets to TF32 once (what each k-step's cvt did) */
        __syncthreads();
        for (int q = tid; q < f.dp * BM; q += KSUM_THREADS) {
            float *x = sA + (q >> 7) * P + (q & 127);
            *x = __uint_as_float(ksum__tf32(*x));
        }
    }
    if (!RES) ksum__sna_load<float, BM>(sna, ka.norms, blk.row0, ka.m, tid);
    ksum__stg_pos at = ksum__stg_first<R, RES, P>(m, f, ka, tid);
    float acc[2][8][4], vacc[2][2][R];
    ksum__zero(vacc);
    for (int s = 0; s < f.nsteps; s++) {
        const ksum__stg_pos nx = ksum__stg_next(at, f.nst);
        ksum__stg_prefetch<R, RES, P, NW>(m, f, ka, at, nx, s, tid); /* in flight during this step */
        const float *swb = sw + at.tpar * NW;
        if (at.st == 0) ksum__tc_start<WIDE, 0>(acc, sna, swb, L);
        { /* the k-steps of stage st (a whole 32-coordinate stage unrolled when WIDE >= 2) */
            const int k0 = at.st * ka.ks, kz = min(ka.ks, f.dp - k0);
            const float *pa = RES ? sA + k0 * P : sA + (s & 1) * ka.ks * P;
            const float *pb = sB + (s & 1) * ka.ks * P;
            if (WIDE >= 2 && kz == 32) {
#pragma unroll
                for (int c = 0; c < 32; c += KSUM_BK) ksum__tc_kstep<PASSES, WIDE, PRE_A, P>(acc, pa + c * P, pb + c * P, L);
            } else {
                for (int c = 0; c < kz; c += KSUM_BK) ksum__tc_kstep<PASSES, WIDE, PRE_A, P>(acc, pa + c * P, pb + c * P, L);
            }
        }
        if (at.st == f.nst - 1) { /* a tile's last stage: kernel values, weighted row sums */
#pragma unroll
            for (int j = 0; j < 8; j++) {
                float w0[R], w1[R];
#pragma unroll
                for (int r = 0; r < R; r++) {
                    w0[r] = swb[(1 + r) * BN + ksum__tc_col<WIDE>(L, j, 0)];
                    w1[r] = swb[(1 + r) * BN + ksum__tc_col<WIDE>(L, j, 1)];
                }
                ksum__tc_epi_j<R, RES>(vacc, acc, j, w0, w1, ka.m2scale, kf);
            }
        }
        onchip_cp_async_wait_all(); /* this thread's copies done, then everyone's: one barrier */
        __syncthreads();
        at = ksum__stg_advance(nx);
    }
    ksum__tc_finish<WIDE, R>(vacc, sred, L, tid, ka.v, blk.row0, ka.m, ka.nrhs, ka.atomic, ka.accumulate);
}

/* ---- the generators of T ksum_tf32 / ksum_tf32x3 (CFG: ksum.cuh's resolved policy) */
#define KSUM__TC_HERE ~, 1

/* the staged mma.sync kernels (resident, streamed), the wgmma kernels, the host functions */
#define KSUM__TC(name, KERNEL, CFG)                                                                    \
    KSUM__NORMS(name, float)                                                                           \
    KSUM__STAGED_KERNEL(name##_kernel, KERNEL, CFG<name##_policy>::minb, ksum__tc_body, CFG<name##_policy>::passes, \
                        CFG<name##_policy>::r, 1, CFG<name##_policy>::wide_res)                        \
    KSUM__STAGED_KERNEL(name##_kernel_stream, KERNEL, CFG<name##_policy>::minb, ksum__tc_body,         \
                        CFG<name##_policy>::passes, CFG<name##_policy>::r, 0, CFG<name##_policy>::wide_stream) \
    KSUM__WG_KERNELS(name, KERNEL, CFG)                                                                \
    KSUM__TC_HOST(name, KERNEL, CFG)

/* the register-staged mma.sync kernel, launched as KSUM_REGS_DEFINE's */
#define KSUM__TC_REGS(name, KERNEL, CFG)                                                               \
    KSUM__NORMS(name, float)                                                                           \
    __global__ void __launch_bounds__(KSUM_THREADS, (CFG<name##_policy>::minb))                        \
        name##_kernel(KSUM__PARAMS(float, int vec_a, int vec_b))                                       \
    {                                                                                                  \
        ksum__tc1_body<CFG<name##_policy>::passes, CFG<name##_policy>::r>(KSUM__EVAL_FN(float, KERNEL), \
                                                                          KSUM__KARGS(float, vec_a, vec_b, 0)); \
    }                                                                                                  \
    KSUM__GENERIC_HOST(name, float, KERNEL, CFG, KSUM__TC_REGS_WHY)
#define KSUM__TC_REGS_WHY "register-staged TF32 mma.sync: KSUM_REGS_DEFINE of ksum_tf32 or ksum_tf32x3"

/* the host functions (none under NVRTC): wgmma where its kernel takes the arguments (wg: SCHEDULE
 * AUTO), else the staged mma.sync kernels */
#ifndef __CUDACC_RTC__
static inline int ksum__plan_tc(const ksum_args *a, ksum_plan *p, const void *kernel_wg, double scale, int passes,
                                int R, int minb, int wg)
{
    int rc = ksum__plan_begin(a, p, R, scale, 1);
    if (rc) return rc;
    size_t bytes = 0;
    const int kind = wg ? ksum__wg_choose(kernel_wg, a, passes, R, &bytes) : 1;
    return kind ? ksum__plan_stage(a, p, R, minb, KSUM__TC_PAD, kind) : ksum__plan_wg(a, p, bytes, passes, R);
}
static inline int ksum__run_tc(const ksum_args *args, const ksum_plan *p, cudaStream_t stream, const void *norms,
                               const void *kernel, const void *kernel_stream, const void *prepb, const void *kernel_wg,
                               double scale)
{
    if (p && p->path == KSUM_PATH_WGMMA) return ksum__run_wg(args, p, stream, prepb, kernel_wg, scale);
    return ksum__run_staged(args, p, stream, norms, kernel, kernel_stream, scale);
}
#define KSUM__TC_HOST(name, KERNEL, CFG)                                                               \
    KSUM__HOST(name,                                                                                   \
               (ksum__plan_tc(args, plan, (const void *)name##_kernel_wg, KSUM__SCALE(KERNEL, args),   \
                              CFG<name##_policy>::passes, CFG<name##_policy>::r, CFG<name##_policy>::minb, \
                              CFG<name##_policy>::wg)),                                                \
               (ksum__run_tc(args, plan, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                             (const void *)name##_kernel_stream, (const void *)name##_prepb,           \
                             (const void *)name##_kernel_wg, KSUM__SCALE(KERNEL, args))))
#else
#define KSUM__TC_HOST(name, KERNEL, CFG)
#endif

#endif
#include <onchip/names_pop.h>
