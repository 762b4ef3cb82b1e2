/* ksum/tc.cuh -- the tensor-core path: dot products on TF32 mma (sm_80+), FP32 epilogue.
 *
 * WHAT
 *   KSUM_DEFINE_TF32(name, KERNEL, PASSES, R) defines name_norms, name_kernel, name_kernel_stream and
 *       int name_launch(const ksum_args *a, cudaStream_t s)       same arguments as ksum.cuh (float)
 *   computing the same sum as KSUM_DEFINE(name, float, KERNEL) with the dot products a_i . b_j done
 *   by mma.sync.m16n8k8 TF32 tensor-core instructions (FP32 accumulation).  PASSES = 1: plain TF32
 *   (inputs rounded to 10-bit mantissas: the scaled distance t = s d^2 carries an absolute error of
 *   about 2^-11 * 2 s |a||b|, i.e. kernel values off by ~1e-3 relative where t is a few units);
 *   PASSES = 3: the three-pass split x = big + small, a.b ~ big.big + big.small + small.big, close to
 *   FP32 accuracy at 3x the tensor work.  Everything else (norms, the kernel function, the sums) is
 *   FP32 as in ksum.cuh.  Use it for dim >= 16; below that the SIMT path is exp- or issue-bound anyway.
 *   2 blocks per SM for R = 1, 1 for R > 1 (__launch_bounds__: no spills).
 *   Block: 256 threads = 8 warps as 4 x 2, a 128 x 128 tile, 32 x 64 per warp = 2 x 8 mma tiles;
 *   the chunk of 8 coordinates is one k-step; shared memory rows padded to 136 floats (the fragment
 *   reads of a warp, 8 rows x 4 k, fall in 32 distinct banks).  The accumulator fragment layout of
 *   m16n8k8 is known (c0, c1 at row g, columns 2t, 2t+1; c2, c3 at row g + 8), so the epilogue runs on
 *   the fragments in registers; the two warps sharing a row add their row sums in shared memory (two
 *   addends: the same result in either order, so KSUM_DETERMINISTIC still holds).
 *   Staging as ksum.cuh's float path (KSUM_DEFINE_F32): 4-byte cp.async copies in stages of up to 32
 *   coordinates (one barrier per stage), targets resident in shared memory times -2s with their
 *   norms summed in the kernel for dim <= 128, streamed above (shared rows of 136 floats here).
 *   Round 3 (KSUM_DEFINE_TF32_EX(name, KERNEL, PASSES, R, WIDE_RES, WIDE_STREAM)): the points of a
 *   warp's tile are permuted so that a thread's fragment elements at one k are adjacent in shared
 *   memory (6 LDS.128 per 8 coordinates instead of 24 LDS), a 32-coordinate stage is unrolled, the
 *   resident targets are rounded to TF32 once per block, and one pass uses m16n8k4 (fragments are
 *   single registers straight from the loads: no register moves; 61 instead of ~121 SASS instructions
 *   per 8 coordinates).  KSUM_DEFINE_TF32 picks per kernel what measured fastest (below).
 *   KSUM_DEFINE_TF32_V1(name, KERNEL, PASSES, R), the earlier kernel, stages each 8-coordinate
 *   chunk through registers with a barrier per chunk (static 19 KB of shared memory); kept for
 *   comparison (bench/ksum.cu, row tf32-v1) and for devices with little shared memory.
 *   On a device below sm_80 the launchers return KSUM_EUNSUPPORTED (after the argument checks); the
 *   header compiles for sm_75 (the mma pieces are empty there and never launched).
 *   HOPPER: on an sm_90 device, where the build has sm_90a code (nvcc -arch=sm_90a; the Makefile's
 *   ARCH=90), KSUM_DEFINE_TF32's launcher runs the wgmma kernel of ksum/wgmma.cuh instead (3-6x the
 *   FP32 path at dim 64-256 on the H200, docs/ksum.md), up to dim 288 (one pass) / 64 (three passes)
 *   and when a caller's workspace holds the prepared sources (ksum__wg_work_bytes); int
 *   name_path(const ksum_args *) says which kernel a call runs (KSUM_PATH_WGMMA or KSUM_PATH_MMA).
 *   KSUM_DEFINE_TF32_EX defines the mma.sync kernels alone (name_path: KSUM_PATH_MMA).
 *
 * EXAMPLE
 *     #include <ksum/tc.cuh>
 *     KSUM_DEFINE_TF32(gauss_tc, KSUM_GAUSS, 3, 1)     // 3-pass TF32, one right-hand side
 *     int rc = gauss_tc_launch(&k, stream);           // k as for KSUM_DEFINE (float data)
 */
#ifndef KSUM_TC_CUH
#define KSUM_TC_CUH

#include "ksum.cuh"
#include "wgmma.cuh"

#define KSUM__TC_PAD 136

/* c += a b, one m16n8k8 TF32 mma (a warp-wide instruction) */
static __device__ __forceinline__ void ksum__mma_tf32(float *c, const unsigned *a, const unsigned *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)c; (void)a; (void)b;
#endif
}
/* c += a b, one m16n8k4 TF32 mma: a = rows g, g + 8 at k t4; b = k t4 at column g (one register each) */
static __device__ __forceinline__ void ksum__mma_tf32_k4(float *c, unsigned a0, unsigned a1, unsigned b0)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
#else
    (void)c; (void)a0; (void)a1; (void)b0;
#endif
}
/* split x into big + small TF32 parts (small = 0 for PASSES 1) */
static __device__ __forceinline__ void ksum__split(float x, unsigned *big, unsigned *small, int passes)
{
    *big = ksum__tf32(x);
    *small = passes > 1 ? ksum__tf32(x - __uint_as_float(*big)) : 0u;
}

/* ---- pieces shared by the two tensor-core kernels; they expand inside the kernel and use its names
 * (the arguments, tid, lane, g, t4, wr, wc, acc, vacc, sred, swb, the enum BM, BN, P) -------------
 * WIDE (round 3, KSUM_DEFINE_TF32_EX): which shared point a fragment row or column stands for.  WIDE = 0
 * (and KSUM_DEFINE_TF32_V1): fragment row g of m-tile i is point wr + 16 i + g (column g of n-tile j is
 * wc + 8 j + g): one 4-byte LDS per fragment element, 24 per k-step.  WIDE >= 1: the points are permuted
 * inside the warp's tile so that a thread's elements at one k lie side by side: row g / g + 8 of m-tile
 * i is point wr + 4 g + 2 i (+ 1), column g of n-tile j is wc + 32 (j / 4) + 4 g + j % 4; a k-step then
 * reads 2 LDS.128 for A and 4 for B (a quarter-warp's 8 vectors at 8 t4 + 4 g mod 32 words: distinct
 * banks with rows of 136).  The sum over the points does not care which mma row holds which point;
 * the epilogue reads norms and weights, and adds row sums, through the same permutation.
 * WIDE = 2 also unrolls a whole 32-coordinate stage (4 k-steps) so that the next step's shared
 * loads can be issued ahead of this step's mma chain. */
#define KSUM__TC_ROW(WIDE, i, hh) ((WIDE) ? wr + 4 * g + 2 * (i) + (hh) : wr + 16 * (i) + g + 8 * (hh))
/* the shared column of accumulator element e (0, 1: fragment columns 2 t4, 2 t4 + 1) of n-tile j */
#define KSUM__TC_COL(WIDE, j, e) ((WIDE) ? wc + 32 * ((j) >> 2) + 8 * t4 + 4 * (e) + ((j)&3) : wc + 8 * (j) + 2 * t4 + (e))

/* the thread's place: lane, g = lane / 4 and t4 = lane % 4 (the mma fragment coordinates), the warp's
 * 32 x 64 tile at rows wr, columns wc of the block's 128 x 128 */
#define KSUM__TC_WARP()                                                                                \
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t4 = lane & 3;       \
    const int wr = (warp & 3) * 32, wc = (warp >> 2) * 64

/* the 2 x 2 x R row partial sums of the thread, zero */
#define KSUM__TC_ZERO_VACC(R)                                                                          \
    _Pragma("unroll") for (int i = 0; i < 2; i++) _Pragma("unroll") for (int hh = 0; hh < 2; hh++)     \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) vacc[i][hh][r2] = 0.0f

/* the kernel values of n-tile j's accumulators (t = acc resident, t = -2s acc streamed), weighted by
 * w0 / w1 (the weights of the fragment's two columns) into the row sums */
#define KSUM__TC_EPI_TILE_J(KERNEL, R, RES, j, w0, w1)                                                 \
    _Pragma("unroll") for (int i = 0; i < 2; i++) _Pragma("unroll") for (int hh = 0; hh < 2; hh++) {   \
        const float y0 = acc[i][j][2 * hh], y1 = acc[i][j][2 * hh + 1];                                \
        const float x0 = (RES) ? fmaxf(y0, 0.0f) : fmaxf(y0 * m2scale, 0.0f);                          \
        const float x1 = (RES) ? fmaxf(y1, 0.0f) : fmaxf(y1 * m2scale, 0.0f);                          \
        const float k0 = KERNEL##_EVAL(float, x0), k1 = KERNEL##_EVAL(float, x1);                      \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++)                                             \
            vacc[i][hh][r2] = fmaf(k1, w1[r2], fmaf(k0, w0[r2], vacc[i][hh][r2]));                     \
    }

/* rows: sum over the 4 lanes of a quad, then the 2 warps of a row band in shared sred (two addends:
 * the same result in either order), then one store or atomic per (row, rhs) */
#define KSUM__TC_FINISH(WIDE, R)                                                                       \
    do {                                                                                               \
        _Pragma("unroll") for (int i = 0; i < 2; i++) _Pragma("unroll") for (int hh = 0; hh < 2; hh++) \
            _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                       \
                float x = vacc[i][hh][r2];                                                             \
                x += __shfl_xor_sync(0xffffffffu, x, 1);                                               \
                x += __shfl_xor_sync(0xffffffffu, x, 2);                                               \
                if (t4 == 0) atomicAdd(&sred[KSUM__TC_ROW(WIDE, i, hh) * (R) + r2], x);                \
            }                                                                                          \
        __syncthreads();                                                                               \
        for (int q = tid; q < BM * (R); q += KSUM_THREADS) {                                           \
            const long long row = row0 + q / (R);                                                      \
            const int r2 = q % (R);                                                                    \
            if (row < m && r2 < nrhs) {                                                                \
                float *d = v + row * nrhs + r2;                                                        \
                if (atomic) atomicAdd(d, sred[q]);                                                     \
                else *d = accumulate ? *d + sred[q] : sred[q];                                         \
            }                                                                                          \
        }                                                                                              \
    } while (0)

/* the A fragments (ab big, as small parts) of one k-step of 8 at A (k-major rows of P) */
#define KSUM__TC_FRAG_A(A, PASSES, WIDE, PRE_A)                                                        \
    unsigned ab[2][4], as[2][4];                                                                       \
    if (WIDE) {                                                                                        \
        const float4 q0 = *(const float4 *)((A) + t4 * P + wr + 4 * g);                                \
        const float4 q1 = *(const float4 *)((A) + (t4 + 4) * P + wr + 4 * g);                          \
        if (PRE_A) { /* stored already rounded to TF32 */                                              \
            ab[0][0] = __float_as_uint(q0.x); ab[0][1] = __float_as_uint(q0.y);                        \
            ab[1][0] = __float_as_uint(q0.z); ab[1][1] = __float_as_uint(q0.w);                        \
            ab[0][2] = __float_as_uint(q1.x); ab[0][3] = __float_as_uint(q1.y);                        \
            ab[1][2] = __float_as_uint(q1.z); ab[1][3] = __float_as_uint(q1.w);                        \
            _Pragma("unroll") for (int e = 0; e < 4; e++) as[0][e] = as[1][e] = 0u;                    \
        } else {                                                                                       \
            ksum__split(q0.x, &ab[0][0], &as[0][0], PASSES); ksum__split(q0.y, &ab[0][1], &as[0][1], PASSES); \
            ksum__split(q0.z, &ab[1][0], &as[1][0], PASSES); ksum__split(q0.w, &ab[1][1], &as[1][1], PASSES); \
            ksum__split(q1.x, &ab[0][2], &as[0][2], PASSES); ksum__split(q1.y, &ab[0][3], &as[0][3], PASSES); \
            ksum__split(q1.z, &ab[1][2], &as[1][2], PASSES); ksum__split(q1.w, &ab[1][3], &as[1][3], PASSES); \
        }                                                                                              \
    } else {                                                                                           \
        _Pragma("unroll") for (int i = 0; i < 2; i++) {                                                \
            const int r = wr + i * 16 + g;                                                             \
            ksum__split((A)[t4 * P + r], &ab[i][0], &as[i][0], PASSES);                                \
            ksum__split((A)[t4 * P + r + 8], &ab[i][1], &as[i][1], PASSES);                            \
            ksum__split((A)[(t4 + 4) * P + r], &ab[i][2], &as[i][2], PASSES);                          \
            ksum__split((A)[(t4 + 4) * P + r + 8], &ab[i][3], &as[i][3], PASSES);                      \
        }                                                                                              \
    }

/* one k-step of 8 coordinates at A, B (k-major rows of P): 2 x 8 mma tiles per warp (x3 for the split) */
#define KSUM__TC_KSTEP8(A, B, PASSES, WIDE, PRE_A)                                                     \
    do {                                                                                               \
        KSUM__TC_FRAG_A(A, PASSES, WIDE, PRE_A)                                                        \
        _Pragma("unroll") for (int jj = 0; jj < 2; jj++) {                                             \
            float f0[4], f1[4];                                                                        \
            if (WIDE) {                                                                                \
                ksum__lds4_float(f0, (B) + t4 * P + wc + 32 * jj + 4 * g);                             \
                ksum__lds4_float(f1, (B) + (t4 + 4) * P + wc + 32 * jj + 4 * g);                       \
            }                                                                                          \
            _Pragma("unroll") for (int jq = 0; jq < 4; jq++) {                                         \
                const int j = 4 * jj + jq;                                                             \
                unsigned bb[2], bs[2];                                                                 \
                if (WIDE) {                                                                            \
                    ksum__split(f0[jq], &bb[0], &bs[0], PASSES);                                       \
                    ksum__split(f1[jq], &bb[1], &bs[1], PASSES);                                       \
                } else {                                                                               \
                    const int cc = wc + j * 8 + g;                                                     \
                    ksum__split((B)[t4 * P + cc], &bb[0], &bs[0], PASSES);                             \
                    ksum__split((B)[(t4 + 4) * P + cc], &bb[1], &bs[1], PASSES);                       \
                }                                                                                      \
                _Pragma("unroll") for (int i = 0; i < 2; i++) {                                        \
                    if ((PASSES) > 1) {                                                                \
                        ksum__mma_tf32(acc[i][j], as[i], bb);                                          \
                        ksum__mma_tf32(acc[i][j], ab[i], bs);                                          \
                    }                                                                                  \
                    ksum__mma_tf32(acc[i][j], ab[i], bb);                                              \
                }                                                                                      \
            }                                                                                          \
        }                                                                                              \
    } while (0)

/* ---- KSUM_DEFINE_TF32_V1: 8-coordinate chunks staged through registers (ksum.cuh's KSUM__REGS_LOAD),
 * stored transposed into rows of P = 136, a barrier per chunk ---- */

/* the staged registers of step s+1 into buffer buf: targets times -2s (into both buffers at the first
 * step when one chunk is all: they stay; skipped later then), sources */
#define KSUM__TC1_STORE(buf, store_a, both_a)                                                          \
    do {                                                                                               \
        float *A = sa + (buf)*KSUM_BK * P, *B = sb + (buf)*KSUM_BK * P;                                \
        _Pragma("unroll") for (int e = 0; e < 4; e++) {                                                \
            if (store_a) A[(sk + e) * P + sp] = ra[e] * m2scale;                                       \
            if (both_a) sa[KSUM_BK * P + (sk + e) * P + sp] = ra[e] * m2scale;                         \
            B[(sk + e) * P + sp] = rb[e];                                                              \
        }                                                                                              \
    } while (0)

/* a tile's first chunk: the accumulators start at s|a_i|^2 + s|b_j|^2 */
#define KSUM__TC1_ACC_INIT()                                                                           \
    _Pragma("unroll") for (int i = 0; i < 2; i++) {                                                    \
        const float n0 = sna[wr + i * 16 + g], n1 = sna[wr + i * 16 + g + 8];                          \
        _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                \
            const float2 bb = *(const float2 *)(swb + wc + j * 8 + 2 * t4);                            \
            acc[i][j][0] = n0 + bb.x; acc[i][j][1] = n0 + bb.y;                                        \
            acc[i][j][2] = n1 + bb.x; acc[i][j][3] = n1 + bb.y;                                        \
        }                                                                                              \
    }

/* a tile's last chunk: kernel values, weighted row sums */
#define KSUM__TC1_TILE_EPI(KERNEL, R)                                                                  \
    _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                    \
        float w0[R], w1[R];                                                                            \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                           \
            const float2 ww = *(const float2 *)(swb + (1 + r2) * BN + wc + j * 8 + 2 * t4);            \
            w0[r2] = ww.x; w1[r2] = ww.y;                                                              \
        }                                                                                              \
        KSUM__TC_EPI_TILE_J(KERNEL, R, 1, j, w0, w1)                                                   \
    }

/* step s: step s+1's loads, chunk c's k-step (accumulators started at a tile's first chunk, epilogue at
 * its last), step s+1 stored into the other buffer, one barrier */
#define KSUM__TC1_STEP(KERNEL, PASSES, R)                                                              \
    do {                                                                                               \
        const int more = s + 1 < nsteps;                                                               \
        int nc = c + 1, ntile_first = 0;                                                               \
        if (nc == nchunks) { nc = 0; ntile_first = 1; }                                                \
        if (more) {                                                                                    \
            if (ntile_first) ls_tile++;                                                                \
            KSUM__REGS_LOAD(float, 4, 4, nc, nchunks > 1, ntile_first);                                \
        }                                                                                              \
        const float *swb = sw + tpar * NW;                                                             \
        if (c == 0) KSUM__TC1_ACC_INIT();                                                              \
        KSUM__TC_KSTEP8(sa + (s & 1) * KSUM_BK * P, sb + (s & 1) * KSUM_BK * P, PASSES, 0, 0);         \
        if (c == nchunks - 1) KSUM__TC1_TILE_EPI(KERNEL, R);                                           \
        if (more) {                                                                                    \
            KSUM__TC1_STORE((s + 1) & 1, nchunks > 1, 0);                                              \
            if (ntile_first) ksum__sw_store_float(sw + (tpar ^ 1) * NW, rw, tid, NW, NWPER);           \
        }                                                                                              \
        __syncthreads();                                                                               \
        if (ntile_first) tpar ^= 1;                                                                    \
        c = nc;                                                                                        \
    } while (0)

#define KSUM__TC1_KERNEL(kname, KERNEL, PASSES, R)                                                     \
    __global__ void __launch_bounds__(KSUM_THREADS, (R) > 1 ? 1 : 2)                                   \
        kname(const float *__restrict__ a, long long lda, const float *__restrict__ b, long long ldb,  \
              const float *__restrict__ w, float *__restrict__ v, int m, int n, int dim, int nrhs,     \
              float m2scale, const float *__restrict__ norms, int tiles_per_split, int vec_a, int vec_b, \
              int atomic, int accumulate)                                                              \
    {                                                                                                  \
        enum { BM = 128, BN = 128, NW = BN * (1 + (R)), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS, P = KSUM__TC_PAD }; \
        __shared__ __align__(16) float sa[2 * KSUM_BK * P];                                            \
        __shared__ __align__(16) float sb[2 * KSUM_BK * P];                                            \
        __shared__ __align__(16) float sw[2 * NW];                                                     \
        __shared__ float sna[BM], sred[BM * (R)];                                                      \
        KSUM__TC_WARP();                                                                               \
        KSUM__TILE_RANGE();                                                                            \
        KSUM__CHUNKS(float);                                                                           \
        KSUM__SNA_LOAD(float);                                                                         \
        for (int q = tid; q < BM * (R); q += KSUM_THREADS) sred[q] = 0.0f;                             \
        float acc[2][8][4], vacc[2][2][R];                                                             \
        KSUM__TC_ZERO_VACC(R);                                                                         \
        float ra[4], rb[4], rw[NWPER];                                                                 \
        int ls_tile = t0;                                                                              \
        const int sp = tid >> 1, sk = (tid & 1) * 4; /* this thread's staging point and coordinate */  \
        KSUM__REGS_LOAD(float, 4, 4, 0, 1, 1);                                                         \
        KSUM__TC1_STORE(0, 1, nchunks == 1);                                                           \
        ksum__sw_store_float(sw, rw, tid, NW, NWPER);                                                  \
        __syncthreads();                                                                               \
        int c = 0, tpar = 0;                                                                           \
        for (int s = 0; s < nsteps; s++) KSUM__TC1_STEP(KERNEL, PASSES, R);                            \
        KSUM__TC_FINISH(0, R);                                                                         \
    }

#define KSUM_DEFINE_TF32_V1(name, KERNEL, PASSES, R)                                                   \
    static_assert((PASSES) == 1 || (PASSES) == 3, "KSUM_DEFINE_TF32_V1: PASSES must be 1 or 3");      \
    static_assert((R) >= 1, "KSUM_DEFINE_TF32_V1: R must be at least 1");                              \
    KSUM__NORMS(name, float)                                                                           \
    KSUM__TC1_KERNEL(name##_kernel, KERNEL, PASSES, R)                                                 \
    KSUM__LAUNCHER(name, float, KERNEL, R, 8, 8, (R) > 1 ? 1 : 2, 1)

/* ---- the staged tensor-core kernel (KSUM_DEFINE_TF32) ------------------------------------------
 * The same warp tiling and epilogue as KSUM_DEFINE_TF32_V1, on the staging of ksum.cuh's float path
 * (KSUM__STAGED_*): 4-byte cp.async copies of 32-coordinate stages (one barrier per stage instead of
 * one per 8), the targets resident in shared memory (times -2s) for dim <= 128, else streamed with
 * t = -2s acc.  WIDE: the fragment reads above. */

/* WIDE >= 4, one pass: the same k-step as two m16n8k4 mmas per tile, whose fragments are single
 * registers (A: rows g and g + 8 of one k, which the permutation puts side by side) taken straight
 * from the LDS.128 results, no register moves to pair k and k + 4 as m16n8k8 needs */
#define KSUM__TC_KSTEP4(A, B, PRE_A)                                                                   \
    do {                                                                                               \
        _Pragma("unroll") for (int kh = 0; kh < 2; kh++) {                                             \
            const float4 q = *(const float4 *)((A) + (t4 + 4 * kh) * P + wr + 4 * g);                  \
            unsigned a0[4];                                                                            \
            a0[0] = PRE_A ? __float_as_uint(q.x) : ksum__tf32(q.x);                                    \
            a0[1] = PRE_A ? __float_as_uint(q.y) : ksum__tf32(q.y);                                    \
            a0[2] = PRE_A ? __float_as_uint(q.z) : ksum__tf32(q.z);                                    \
            a0[3] = PRE_A ? __float_as_uint(q.w) : ksum__tf32(q.w);                                    \
            _Pragma("unroll") for (int jj = 0; jj < 2; jj++) {                                         \
                float f[4];                                                                            \
                ksum__lds4_float(f, (B) + (t4 + 4 * kh) * P + wc + 32 * jj + 4 * g);                   \
                _Pragma("unroll") for (int jq = 0; jq < 4; jq++) {                                     \
                    const unsigned bq = ksum__tf32(f[jq]);                                             \
                    ksum__mma_tf32_k4(acc[0][4 * jj + jq], a0[0], a0[1], bq);                          \
                    ksum__mma_tf32_k4(acc[1][4 * jj + jq], a0[2], a0[3], bq);                          \
                }                                                                                      \
            }                                                                                          \
        }                                                                                              \
    } while (0)
#define KSUM__TC_KSTEP(A, B, PASSES, WIDE, PRE_A)                                                      \
    do {                                                                                               \
        if ((WIDE) >= 4 && (PASSES) == 1) KSUM__TC_KSTEP4(A, B, PRE_A);                                \
        else KSUM__TC_KSTEP8(A, B, PASSES, WIDE, PRE_A);                                               \
    } while (0)

/* round the resident targets to TF32 once (what each k-step's cvt did) */
#define KSUM__TC_ROUND_RESIDENT()                                                                      \
    do {                                                                                               \
        __syncthreads();                                                                               \
        for (int q = tid; q < dp * BM; q += KSUM_THREADS) {                                            \
            float *x = sA + (q >> 7) * P + (q & 127);                                                  \
            *x = __uint_as_float(ksum__tf32(*x));                                                      \
        }                                                                                              \
    } while (0)

/* a tile's first stage: the accumulators start at s|a_i|^2 + s|b_j|^2 (-(|a|^2 + |b|^2)/2 streamed) */
#define KSUM__TC_ACC_INIT(WIDE)                                                                        \
    _Pragma("unroll") for (int i = 0; i < 2; i++) {                                                    \
        const float n0 = sna[KSUM__TC_ROW(WIDE, i, 0)], n1 = sna[KSUM__TC_ROW(WIDE, i, 1)];            \
        _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                \
            const float b0 = swb[KSUM__TC_COL(WIDE, j, 0)], b1 = swb[KSUM__TC_COL(WIDE, j, 1)];        \
            acc[i][j][0] = n0 + b0; acc[i][j][1] = n0 + b1;                                            \
            acc[i][j][2] = n1 + b0; acc[i][j][3] = n1 + b1;                                            \
        }                                                                                              \
    }

/* the k-steps of stage st (a whole 32-coordinate stage unrolled when WIDE >= 2) */
#define KSUM__TC_STAGE(PASSES, WIDE, PRE_A, RES)                                                       \
    do {                                                                                               \
        const int k0 = st * ks, kz = min(ks, dp - k0);                                                 \
        const float *pa = (RES) ? sA + k0 * P : sA + (s & 1) * ks * P;                                 \
        const float *pb = sB + (s & 1) * ks * P;                                                       \
        if ((WIDE) >= 2 && kz == 32) {                                                                 \
            _Pragma("unroll") for (int c = 0; c < 32; c += KSUM_BK) KSUM__TC_KSTEP(pa + c * P, pb + c * P, PASSES, WIDE, PRE_A); \
        } else {                                                                                       \
            for (int c = 0; c < kz; c += KSUM_BK) KSUM__TC_KSTEP(pa + c * P, pb + c * P, PASSES, WIDE, PRE_A); \
        }                                                                                              \
    } while (0)

/* a tile's last stage: kernel values, weighted row sums */
#define KSUM__TC_TILE_EPI(KERNEL, R, RES, WIDE)                                                        \
    _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                    \
        float w0[R], w1[R];                                                                            \
        _Pragma("unroll") for (int r2 = 0; r2 < (R); r2++) {                                           \
            w0[r2] = swb[(1 + r2) * BN + KSUM__TC_COL(WIDE, j, 0)];                                    \
            w1[r2] = swb[(1 + r2) * BN + KSUM__TC_COL(WIDE, j, 1)];                                    \
        }                                                                                              \
        KSUM__TC_EPI_TILE_J(KERNEL, R, RES, j, w0, w1)                                                 \
    }

#define KSUM__TC_KERNEL(kname, KERNEL, PASSES, R, RES, WIDE)                                           \
    __global__ void __launch_bounds__(KSUM_THREADS, (R) > 1 ? 1 : 2)                                   \
        kname(const float *__restrict__ a, long long lda, const float *__restrict__ b, long long ldb,  \
              const float *__restrict__ w, float *__restrict__ v, int m, int n, int dim, int nrhs,     \
              float m2scale, const float *__restrict__ norms, int tiles_per_split, int ks, int atomic, \
              int accumulate)                                                                          \
    {                                                                                                  \
        enum { BM = 128, BN = 128, P = KSUM__TC_PAD, NW = BN * (1 + (R)), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS, \
               PRE_A = (RES) && (PASSES) == 1 && (WIDE) >= 3 };                                        \
        extern __shared__ __align__(16) float ksum__smem[];                                            \
        __shared__ float sred[BM * (R)];                                                               \
        KSUM__TC_WARP();                                                                               \
        KSUM__STAGED_FRAME(RES);                                                                       \
        for (int q = tid; q < BM * (R); q += KSUM_THREADS) sred[q] = 0.0f;                             \
        if (RES) KSUM__LOAD_RESIDENT(P);                                                               \
        if (PRE_A) KSUM__TC_ROUND_RESIDENT();                                                          \
        if (!(RES)) KSUM__SNA_LOAD(float);                                                             \
        KSUM__STAGED_FIRST(RES);                                                                       \
        float acc[2][8][4], vacc[2][2][R];                                                             \
        KSUM__TC_ZERO_VACC(R);                                                                         \
        int st = 0, tile = t0, tpar = 0;                                                               \
        for (int s = 0; s < nsteps; s++) {                                                             \
            KSUM__STAGED_NEXT(RES);                                                                    \
            if (st == 0) KSUM__TC_ACC_INIT(WIDE);                                                      \
            KSUM__TC_STAGE(PASSES, WIDE, PRE_A, RES);                                                  \
            if (st == nst - 1) KSUM__TC_TILE_EPI(KERNEL, R, RES, WIDE);                                \
            KSUM__STAGED_END();                                                                        \
        }                                                                                              \
        KSUM__TC_FINISH(WIDE, R);                                                                      \
    }

/* the mma.sync kernels of a define: the norm pre-pass, resident and streamed kernels */
#define KSUM__TC_KERNELS(name, KERNEL, PASSES, R, WIDE_RES, WIDE_STREAM)                               \
    static_assert((PASSES) == 1 || (PASSES) == 3, "KSUM_DEFINE_TF32: PASSES must be 1 or 3");         \
    static_assert((R) >= 1, "KSUM_DEFINE_TF32: R must be at least 1");                                 \
    static_assert((WIDE_RES) >= 0 && (WIDE_RES) <= 4 && (WIDE_STREAM) >= 0 && (WIDE_STREAM) <= 4,      \
                  "KSUM_DEFINE_TF32_EX: WIDE_RES and WIDE_STREAM must be 0 to 4");                     \
    KSUM__NORMS(name, float)                                                                           \
    KSUM__TC_KERNEL(name##_kernel, KERNEL, PASSES, R, 1, WIDE_RES)                                     \
    KSUM__TC_KERNEL(name##_kernel_stream, KERNEL, PASSES, R, 0, WIDE_STREAM)

/* KSUM_DEFINE_TF32_EX(name, KERNEL, PASSES, R, WIDE_RES, WIDE_STREAM): the staged mma.sync kernel only
 * (no wgmma), with the fragment-read variant chosen per kernel (resident: dim <= 128; streamed: dim >
 * 128); name_path() is KSUM_PATH_MMA */
#define KSUM_DEFINE_TF32_EX(name, KERNEL, PASSES, R, WIDE_RES, WIDE_STREAM)                            \
    KSUM__TC_KERNELS(name, KERNEL, PASSES, R, WIDE_RES, WIDE_STREAM)                                   \
    KSUM__LAUNCHER_STAGED(name, KERNEL, R, (R) > 1 ? 1 : 2, KSUM__TC_PAD, 1)                           \
    static inline __attribute__((unused)) int name##_path(const ksum_args *args)                       \
    {                                                                                                  \
        (void)args;                                                                                    \
        return KSUM_PATH_MMA;                                                                          \
    }

/* name_launch of KSUM_DEFINE_TF32: the wgmma kernel where it runs (an sm_90 device, a build for sm_90a,
 * dim within its shared memory: wgmma.cuh), else the mma.sync kernels; name_path() says which */
#define KSUM__LAUNCHER_TC(name, KERNEL, PASSES, R)                                                     \
    static ksum__wg_dev name##__wg = {0, 0, 0, 0, 0};                                                  \
    static inline __attribute__((unused)) int name##_path(const ksum_args *args)                       \
    {                                                                                                  \
        size_t bytes = 0;                                                                              \
        return ksum__wg_path(&name##__wg, (const void *)name##_kernel_wg, args, PASSES, R, &bytes);    \
    }                                                                                                  \
    static inline __attribute__((unused)) int name##_launch(const ksum_args *args, cudaStream_t stream) \
    {                                                                                                  \
        static ksum__smem_set set = {{-1, -1}, {0, 0}};                                                \
        const double scale = args ? (double)(KERNEL##_SCALE(args->h)) : 0;                             \
        size_t bytes = 0;                                                                              \
        if (ksum__wg_path(&name##__wg, (const void *)name##_kernel_wg, args, PASSES, R, &bytes) == KSUM_PATH_WGMMA) \
            return ksum__launch_wg(args, stream, (const void *)name##_prepb, (const void *)name##_kernel_wg, \
                                   &name##__wg, bytes, scale, PASSES, R);                              \
        return ksum__launch_staged(args, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                   (const void *)name##_kernel_stream, &set, scale, R, (R) > 1 ? 1 : 2, \
                                   KSUM__TC_PAD, 1);                                                   \
    }

/* the variants chosen by the H200 measurements of 2026-11-21 (docs/ksum.md, round 3): one pass, resident
 * (dim <= 128): WIDE 4 (m16n8k4, 1.6-4.4 % faster at dim 128 and 65536^2 x 64, 1.7-2.9 % slower with
 * 1024 sources at dim 32/64); streamed (dim > 128): round 2's reads (2 % faster than WIDE 1 at dim 256);
 * three passes: WIDE 1 resident (6-9 % faster), round 2's streamed (WIDE 1 would spill) */
#define KSUM_DEFINE_TF32(name, KERNEL, PASSES, R)                                                      \
    KSUM__TC_KERNELS(name, KERNEL, PASSES, R, (PASSES) > 1 ? 1 : 4, 0)                                 \
    KSUM__WG_PREPB(name##_prepb, PASSES, R)                                                            \
    KSUM__WG_KERNEL(name##_kernel_wg, KERNEL, PASSES, R)                                               \
    KSUM__LAUNCHER_TC(name, KERNEL, PASSES, R)

#endif
