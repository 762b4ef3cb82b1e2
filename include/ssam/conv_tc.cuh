/* ssam/conv_tc.cuh -- 2D convolution on tensor cores: the filter as a banded (Toeplitz) matrix.
 *
 * WHAT
 *   SSAM_CONV2D_TC_DEFINE(name, MODE, M, N) defines
 *       __global__ void name_kernel(...)                         the tensor-core kernel
 *       int name_launch(const ssam_conv2d_args *a, cudaStream_t) the same arguments, flags, borders,
 *                                                                anchors and codes as conv.cuh
 *       int name_path(void)                                      SSAM_PATH_TC or SSAM_PATH_SIMT: the
 *                                                                path name_launch takes on this device
 *       name_simt_*                                              conv.cuh's kernel (the fallback;
 *                                                                SSAM_SYSTOLIC_WALK chooses its walk
 *                                                                there and is ignored on tensor cores)
 *   for an M-wide, N-high filter.  MODE is a token:
 *       f64     double on FP64 tensor cores (mma.sync m16n8k8 f64 on sm_90, four m8n8k4 on sm_80),
 *               every product and sum in double: the SIMT path's accuracy (tested < 1e-12)
 *       tf32    float, one TF32 pass (m16n8k8, FP32 accumulation): the data truncated and the
 *               weights rounded to 10-bit mantissas; error ~ 2^-10 sum |w x| (tested < 1e-3 in the
 *               rms measure of test_ssam_conv_tc; measured 4e-4)
 *       tf32x3  float, three TF32 passes (x = big + small, w = big + small: big.big + big.small +
 *               small.big): < 8e-7 (3 2^-22 a product), within 2x the SIMT FP32 path's error for filters of 64 taps
 *               and more on real images (each product keeps 22 of 24 bits: with few taps, 4x)
 *       f16     images stored as __half (as conv.cuh's SSAM_CONV2D_DEFINE_HALF: 2 bytes a pixel, the
 *               weights a FLOAT host array), FP16 MMAs (m16n8k8) with FP32 sums, each output rounded
 *               once to half; the weights are rounded to half for the MMA: error < 2e-3 (tested)
 *       bf16    the same with __nv_bfloat16 (8-bit mantissas): < 1.6e-2 (tested)
 *   On a device below sm_80, or a build whose PTX is older than sm_80 (cudaFuncGetAttributes'
 *   ptxVersion), the launcher runs name_simt_launch instead; name_path() says which.
 *   SSAM_CONV2D_TC_DEFINE_EX(name, MODE, M, N, QY, JX, WY, WX, MINB) sets the tile (below).
 *
 * HOW (the systolic dataflow of SSAM / URE, done by the tensor core's array)
 *   For filter row i, out_i(y, x) = sum_m w[i][m] in(y + i, x + m).  Over a tile of 16 rows and 8
 *   outputs in x starting at x0 this is C = A B with A[y][k] = in(y + i, x0 + k) (data) and
 *   B[k][x] = w[i][k - x] (the filter row as a band, zero unless 0 <= k - x < M), K = 8 + M - 1
 *   covered by S8 k8 steps and at most one k4 step.  B depends only on (i, k - x), so it is a few
 *   registers per filter row; A's step s of x tile j is step s - 1 of tile j + 1 (8 columns on),
 *   so a warp doing JX tiles side by side loads JX - 1 + S8 steps for JX * S8 MMAs; and A's 16
 *   rows are two 8-row slabs, each shared by filter rows 8 apart (SSAM's sliding window at
 *   fragment granularity).  Useful work / MMA work = M / K: 15x15 62.5%, 20x20 71%, 9x9 56%.
 *   A block of WY x WX warps walks output tiles of (16 QY WY) x (8 JX WX) with the grid's stride:
 *   it stages the input tile in shared memory (a tile inside the image as 16-byte cp.async
 *   chunks; one that meets a border element by element, borders applied), each warp accumulates
 *   its QY x JX fragments over the N filter rows in registers, stores them.
 *   Inf and NaN: the MMA multiplies every staged column by the band, zeros included, and 0 * Inf
 *   is NaN, so a tile whose sums are not all finite (an Inf or NaN staged, or an overflow) is
 *   computed again with plain FMAs (the block decides with __syncthreads_or): every output is
 *   Inf or NaN exactly where conv.cuh's is.
 *   Shared rows are padded to 8 mod 32 floats (8 mod 16 doubles): a warp's paired loads fall in
 *   distinct banks.
 *
 * PIECES (lane and warp level, each mode: f64, tf32, tf32x3, f16, bf16; see docs/pieces.md)
 *   ssam_tch_MODE / ssam_tch4_MODE   a lane's share of an 8-row slab of A (k8 pair / k4 element)
 *   ssam_tcb_MODE, ssam_tcc_MODE     B (band) and C (sums) fragments
 *   ssam_tc_slab_MODE(p), ssam_tc_slab4_MODE(p)    a slab from shared memory
 *   ssam_tc_b_MODE(w0, w1)           B from the lane's two band elements
 *   ssam_tc_mma_MODE(&c, lo, hi, b), ssam_tc_mma4_MODE(...)   c += (lo over hi) b
 *   ssam_tc_store_MODE(dst, dp, y, x, ow, oh, pair, c)        C to rows y, y + 8, columns x, x + 1
 *   SSAM_CONV_TC_B, SSAM_CONV_TC_SLAB, SSAM_CONV_TC_ROWS8      a warp's band, slab, filter rows
 *   ssam_tf32(x)                     x rounded to TF32
 *
 * EXAMPLE
 *     #include <ssam/conv_tc.cuh>
 *     SSAM_CONV2D_TC_DEFINE(blur15, f64, 15, 15)      // double, FP64 tensor cores
 *     SSAM_CONV2D_TC_DEFINE(big20, tf32x3, 20, 20)    // float at FP32 accuracy on TF32 tensor cores
 *     ssam_conv2d_args a = {0};  ...                  // exactly as for SSAM_CONV2D_DEFINE
 *     int rc = blur15_launch(&a, stream);
 *   examples/conv_tc.cu runs both beside the SIMT kernel.
 *
 * LIMITS AND WHEN TO USE IT
 *   M, N >= 1 (conv.cuh's limits too: its kernel is the fallback); the staged tile and the padded
 *   weights must fit in 227 KB of shared memory (a static_assert says so).  Up to 2^31 output
 *   tiles.  The weights travel in the kernel's parameters (M N elements <= 32 KB).
 *   Measured on the H100 (docs/PERFORMANCE.md, 2026-11-26): f64 pays from 9x9 up (9x9 1.35x,
 *   15x15 1.50x, 20x20 2.60x the SIMT kernel), tf32 from 9x9 (1.1-1.3x; 15x15 1.75x, 20x20 2.86x),
 *   f16 from 9x9 (0.207 ms against conv.cuh's half kernel's 0.267); tf32x3 is slower than SIMT
 *   FP32 up to 15x15 (0.5-0.74x) and level at 20x20 (0.98x): three passes of mma.sync at 62-71%
 *   band efficiency -- it is the accurate mode of the TF32 path, not a faster FP32.  Small filters
 *   are memory-bound: use conv.cuh.
 */
#ifndef SSAM_CONV_TC_CUH
#define SSAM_CONV_TC_CUH

#include "conv.cuh"

#define SSAM_PATH_SIMT 1
#define SSAM_PATH_TC 2

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SSAM__TC_SM80 1
#else
#define SSAM__TC_SM80 0
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SSAM__TC_SM90 1
#else
#define SSAM__TC_SM90 0
#endif

/* ---- per-mode constants: element type, fragment rows per warp (16 rows each) ---- */
#define SSAM_TC_T_f64 double
#define SSAM_TC_T_tf32 float
#define SSAM_TC_T_tf32x3 float
#define SSAM_TC_T_f16 __half
#define SSAM_TC_T_bf16 __nv_bfloat16
/* the weights' type (the host array, the kernel parameter, the padded row in shared memory) and the
 * type the plain-FMA tile sums in: the storage type, but float for the half-storage modes (as
 * conv.cuh's SSAM_CONV2D_DEFINE_HALF) */
#define SSAM_TC_W_f64 double
#define SSAM_TC_W_tf32 float
#define SSAM_TC_W_tf32x3 float
#define SSAM_TC_W_f16 float
#define SSAM_TC_W_bf16 float
/* the SIMT fallback of each mode (conv.cuh) */
#define SSAM__TC_SIMT_f64(name, M, N) SSAM_CONV2D_DEFINE(name, double, M, N, 1, 128)
#define SSAM__TC_SIMT_tf32(name, M, N) SSAM_CONV2D_DEFINE(name, float, M, N, 1, 128)
#define SSAM__TC_SIMT_tf32x3(name, M, N) SSAM_CONV2D_DEFINE(name, float, M, N, 1, 128)
#define SSAM__TC_SIMT_f16(name, M, N) SSAM_CONV2D_DEFINE_HALF(name, M, N, 1, 128)
#define SSAM__TC_SIMT_bf16(name, M, N) SSAM_CONV2D_DEFINE_BF16(name, M, N, 1, 128)
/* the default tile of each mode (measured on the H100, bench/conv.cu --tc): QY fragment rows of 16
 * and JX 8-column tiles per warp; MINB blocks per SM, the most whose register budget leaves no
 * spills (the f64 band's k4 tail needs more registers) */
#define SSAM_TC_QY_f64 1
#define SSAM_TC_QY_tf32 1
#define SSAM_TC_QY_tf32x3 1
#define SSAM_TC_QY_f16 1
#define SSAM_TC_QY_bf16 1
#define SSAM_TC_JX_f64 4
#define SSAM_TC_JX_tf32 8
#define SSAM_TC_JX_tf32x3 4
#define SSAM_TC_JX_f16 8
#define SSAM_TC_JX_bf16 8
#define SSAM_TC_MINB_f64(M) (SSAM_TC_T4(M) ? 3 : 4)
#define SSAM_TC_MINB_tf32(M) 4
#define SSAM_TC_MINB_tf32x3(M) 2
#define SSAM_TC_MINB_f16(M) 4
#define SSAM_TC_MINB_bf16(M) 4

/* ---- the raw MMAs (m16n8k8 and m16n8k4 shapes: A rows g, g+8; B column g; C rows g, g+8 at
 * columns 2c, 2c+1, where g = lane / 4, c = lane % 4).  Below sm_80 they trap: never launched. ---- */
#if SSAM__TC_SM80
#define SSAM__TC_NO_MMA()
#else
#define SSAM__TC_NO_MMA() __trap() /* the launcher takes the SIMT path below sm_80 */
#endif

static __device__ __forceinline__ void ssam__mma_tf32_k8(float *c, const unsigned *a, const unsigned *b)
{
#if SSAM__TC_SM80
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)c; (void)a; (void)b;
    SSAM__TC_NO_MMA();
#endif
}
static __device__ __forceinline__ void ssam__mma_tf32_k4(float *c, unsigned a0, unsigned a1, unsigned b)
{
#if SSAM__TC_SM80
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b));
#else
    (void)c; (void)a0; (void)a1; (void)b;
    SSAM__TC_NO_MMA();
#endif
}
/* m16n8k8 with FP16 (bf16 = 0) or BF16 (bf16 = 1, a compile-time constant at every call) inputs and
 * FP32 sums: a0 = rows g, a1 = rows g + 8, each the lane's k pair 2c, 2c + 1 as one register; b = the
 * k pair at column g */
static __device__ __forceinline__ void ssam__mma_h16_k8(float *c, unsigned a0, unsigned a1, unsigned b, int bf16)
{
#if SSAM__TC_SM80
    if (bf16)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a0), "r"(a1), "r"(b));
    else
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a0), "r"(a1), "r"(b));
#else
    (void)c; (void)a0; (void)a1; (void)b; (void)bf16;
    SSAM__TC_NO_MMA();
#endif
}
/* one m8n8k4 DMMA: rows g of a 8-row half, columns 2c, 2c+1 */
static __device__ __forceinline__ void ssam__mma_f64_884(double *c, double a, double b)
{
#if SSAM__TC_SM80
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(c[0]), "+d"(c[1])
                 : "d"(a), "d"(b));
#else
    (void)c; (void)a; (void)b;
    SSAM__TC_NO_MMA();
#endif
}
/* m16n8k8 f64: one instruction on sm_90, four m8n8k4 on sm_80 (the same fragment layout) */
static __device__ __forceinline__ void ssam__mma_f64_k8(double *c, const double *a, const double *b)
{
#if SSAM__TC_SM90
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#else
    ssam__mma_f64_884(c, a[0], b[0]);
    ssam__mma_f64_884(c + 2, a[1], b[0]);
    ssam__mma_f64_884(c, a[2], b[1]);
    ssam__mma_f64_884(c + 2, a[3], b[1]);
#endif
}
static __device__ __forceinline__ void ssam__mma_f64_k4(double *c, double a0, double a1, double b)
{
#if SSAM__TC_SM90
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a0), "d"(a1), "d"(b));
#else
    ssam__mma_f64_884(c, a0, b);
    ssam__mma_f64_884(c + 2, a1, b);
#endif
}

/* x rounded to nearest TF32 (10-bit mantissa), as the bit pattern an mma takes */
static __device__ __forceinline__ unsigned ssam_tf32(float x)
{
    unsigned y = __float_as_uint(x);
#if SSAM__TC_SM80
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(y) : "f"(x));
#endif
    return y;
}
static __device__ __forceinline__ void ssam__tf32_split(float x, unsigned *big, unsigned *small)
{
    *big = ssam_tf32(x);
    *small = ssam_tf32(x - __uint_as_float(*big));
}

/* 16 bytes global -> shared without registers (cp.async, sm_80+; both addresses 16-byte aligned),
 * and the wait for this thread's copies; a plain copy below sm_80 (never launched there: the
 * launchers take the SIMT path) */
static __device__ __forceinline__ void ssam__tc_cp16(void *dst, const void *src)
{
#if SSAM__TC_SM80
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
#else
    *(float4 *)dst = *(const float4 *)src;
#endif
}
static __device__ __forceinline__ void ssam__tc_wait(void)
{
#if SSAM__TC_SM80
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

/* ---- fragments.  The data operand A (16 rows x k) is built from two 8-row SLABS: a slab is one
 * lane's share of 8 consecutive rows (row g), and A = (slab at row offset r, slab at r + 8).  One
 * slab serves the fragments at offsets r and r - 8, i.e. two filter rows 8 apart (the register
 * reuse of SSAM's sliding window, at fragment granularity).  A k8 step's two k-halves are laid on
 * adjacent columns (k = c at column 2c, k = c + 4 at 2c + 1), so a lane loads its pair with one 8-
 * or 16-byte load; the weights (B) follow the same order.  A k4 step (the band's tail) takes one
 * column c.  p: &tile[row g of the slab][column 2c] (k8) or [column c] (k4). ---- */
typedef struct ssam_tch_f64 { double v[2]; } ssam_tch_f64;    /* slab, k8: (g, k c), (g, k c + 4) */
typedef struct ssam_tch4_f64 { double v; } ssam_tch4_f64;     /* slab, k4: (g, k c) */
typedef struct ssam_tcb_f64 { double v[2]; } ssam_tcb_f64;    /* B, k8: (k c, n g), (k c + 4, n g); k4: v[0] */
typedef struct ssam_tcc_f64 { double v[4]; } ssam_tcc_f64;    /* C: (g, 2c), (g, 2c+1), (g+8, 2c), (g+8, 2c+1) */
typedef struct ssam_tch_tf32 { unsigned v[2]; } ssam_tch_tf32;
typedef struct ssam_tch4_tf32 { unsigned v; } ssam_tch4_tf32;
typedef struct ssam_tcb_tf32 { unsigned v[2]; } ssam_tcb_tf32;
typedef struct ssam_tcc_tf32 { float v[4]; } ssam_tcc_tf32;
typedef struct ssam_tch_tf32x3 { unsigned big[2], small[2]; } ssam_tch_tf32x3;
typedef struct ssam_tch4_tf32x3 { unsigned big, small; } ssam_tch4_tf32x3;
typedef struct ssam_tcb_tf32x3 { unsigned big[2], small[2]; } ssam_tcb_tf32x3;
/* tf32x3 keeps two sums.  The tensor core adds with truncation, so a long chain of MMAs into one
 * large accumulator drifts by up to an ulp of it per MMA (measured: 14x the SIMT path's error at
 * 20x20).  Each big.big product starts from zero and is added to v in FP32 (round to nearest);
 * the cross terms (2^-11 of the sum) chain in lo, where truncation costs nothing visible. */
typedef struct ssam_tcc_tf32x3 { float v[4], lo[4]; } ssam_tcc_tf32x3;
/* FP16 / BF16 (m16n8k8, FP32 sums): the lane's pair of columns 2c, 2c + 1 is its k pair 2c, 2c + 1 of
 * the MMA -- the same columns the permuted k pair of the k8 modes above takes, so the tile, the band
 * and their addressing are shared.  The k4 tail is a k8 MMA whose second element is zero (column c). */
typedef struct ssam_tch_f16 { unsigned v; } ssam_tch_f16;   /* slab: (g, columns 2c, 2c + 1); k4: (g, column c), 0 */
typedef struct ssam_tcb_f16 { unsigned v; } ssam_tcb_f16;   /* B: the band at columns 2c, 2c + 1 (k4: c, 0) */
typedef ssam_tch_f16 ssam_tch4_f16;
typedef ssam_tcc_tf32 ssam_tcc_f16;                         /* C: as tf32's */
typedef ssam_tch_f16 ssam_tch_bf16;
typedef ssam_tch_f16 ssam_tch4_bf16;
typedef ssam_tcb_f16 ssam_tcb_bf16;
typedef ssam_tcc_tf32 ssam_tcc_bf16;

/* one slab from shared memory (k8: the lane's pair; k4: one element).  One TF32 pass hands the
 * data over as it is (the tensor core truncates it to TF32); three passes split it. */
static __device__ __forceinline__ ssam_tch_f64 ssam_tc_slab_f64(const double *p)
{
    const double2 r = *(const double2 *)p;
    ssam_tch_f64 h = {{r.x, r.y}};
    return h;
}
static __device__ __forceinline__ ssam_tch_tf32 ssam_tc_slab_tf32(const float *p)
{
    const float2 r = *(const float2 *)p;
    ssam_tch_tf32 h = {{__float_as_uint(r.x), __float_as_uint(r.y)}};
    return h;
}
static __device__ __forceinline__ ssam_tch_tf32x3 ssam_tc_slab_tf32x3(const float *p)
{
    const float2 r = *(const float2 *)p;
    ssam_tch_tf32x3 h;
    ssam__tf32_split(r.x, &h.big[0], &h.small[0]);
    ssam__tf32_split(r.y, &h.big[1], &h.small[1]);
    return h;
}
/* FP16 and BF16 slabs are the same 16-bit loads: the pair as one register, the k4 element zero-extended */
static __device__ __forceinline__ ssam_tch_f16 ssam__tc_slab16(const void *p)
{
    ssam_tch_f16 h = {*(const unsigned *)p};
    return h;
}
static __device__ __forceinline__ ssam_tch_f16 ssam__tc_slab4_16(const void *p)
{
    ssam_tch_f16 h = {(unsigned)*(const unsigned short *)p};
    return h;
}
#define ssam_tc_slab_f16 ssam__tc_slab16
#define ssam_tc_slab_bf16 ssam__tc_slab16
#define ssam_tc_slab4_f16 ssam__tc_slab4_16
#define ssam_tc_slab4_bf16 ssam__tc_slab4_16
static __device__ __forceinline__ ssam_tch4_f64 ssam_tc_slab4_f64(const double *p)
{
    ssam_tch4_f64 h = {p[0]};
    return h;
}
static __device__ __forceinline__ ssam_tch4_tf32 ssam_tc_slab4_tf32(const float *p)
{
    ssam_tch4_tf32 h = {__float_as_uint(p[0])};
    return h;
}
static __device__ __forceinline__ ssam_tch4_tf32x3 ssam_tc_slab4_tf32x3(const float *p)
{
    ssam_tch4_tf32x3 h;
    ssam__tf32_split(p[0], &h.big, &h.small);
    return h;
}

static __device__ __forceinline__ ssam_tcb_f64 ssam_tc_b_f64(double w0, double w1)
{
    ssam_tcb_f64 b = {{w0, w1}};
    return b;
}
static __device__ __forceinline__ ssam_tcb_tf32 ssam_tc_b_tf32(float w0, float w1)
{
    ssam_tcb_tf32 b = {{ssam_tf32(w0), ssam_tf32(w1)}};
    return b;
}
static __device__ __forceinline__ ssam_tcb_tf32x3 ssam_tc_b_tf32x3(float w0, float w1)
{
    ssam_tcb_tf32x3 b;
    ssam__tf32_split(w0, &b.big[0], &b.small[0]);
    ssam__tf32_split(w1, &b.big[1], &b.small[1]);
    return b;
}

/* the weights rounded to FP16 / BF16 (the data is stored in it already) */
static __device__ __forceinline__ ssam_tcb_f16 ssam_tc_b_f16(float w0, float w1)
{
    const __half2 h = __floats2half2_rn(w0, w1);
    ssam_tcb_f16 b = {*(const unsigned *)&h};
    return b;
}
static __device__ __forceinline__ ssam_tcb_bf16 ssam_tc_b_bf16(float w0, float w1)
{
    const __nv_bfloat162 h = __floats2bfloat162_rn(w0, w1);
    ssam_tcb_bf16 b = {*(const unsigned *)&h};
    return b;
}
static __device__ __forceinline__ void ssam_tc_zero_f64(ssam_tcc_f64 *c) { c->v[0] = c->v[1] = c->v[2] = c->v[3] = 0; }
static __device__ __forceinline__ void ssam_tc_zero_tf32(ssam_tcc_tf32 *c) { c->v[0] = c->v[1] = c->v[2] = c->v[3] = 0; }
static __device__ __forceinline__ void ssam_tc_zero_tf32x3(ssam_tcc_tf32x3 *c)
{
    for (int k = 0; k < 4; k++) c->v[k] = c->lo[k] = 0;
}

/* c += A b with A = (slab lo at rows g, slab hi at rows g + 8): k8 (ssam_tc_mma_MODE) and k4
 * (ssam_tc_mma4_MODE, B's first half) */
static __device__ __forceinline__ void ssam_tc_mma_f64(ssam_tcc_f64 *c, ssam_tch_f64 lo, ssam_tch_f64 hi, ssam_tcb_f64 b)
{
    const double a[4] = {lo.v[0], hi.v[0], lo.v[1], hi.v[1]};
    ssam__mma_f64_k8(c->v, a, b.v);
}
static __device__ __forceinline__ void ssam_tc_mma4_f64(ssam_tcc_f64 *c, ssam_tch4_f64 lo, ssam_tch4_f64 hi, ssam_tcb_f64 b)
{
    ssam__mma_f64_k4(c->v, lo.v, hi.v, b.v[0]);
}
static __device__ __forceinline__ void ssam_tc_mma_tf32(ssam_tcc_tf32 *c, ssam_tch_tf32 lo, ssam_tch_tf32 hi, ssam_tcb_tf32 b)
{
    const unsigned a[4] = {lo.v[0], hi.v[0], lo.v[1], hi.v[1]};
    ssam__mma_tf32_k8(c->v, a, b.v);
}
static __device__ __forceinline__ void ssam_tc_mma4_tf32(ssam_tcc_tf32 *c, ssam_tch4_tf32 lo, ssam_tch4_tf32 hi, ssam_tcb_tf32 b)
{
    ssam__mma_tf32_k4(c->v, lo.v, hi.v, b.v[0]);
}
static __device__ __forceinline__ void ssam_tc_mma_tf32x3(ssam_tcc_tf32x3 *c, ssam_tch_tf32x3 lo, ssam_tch_tf32x3 hi,
                                                          ssam_tcb_tf32x3 b)
{
    const unsigned ab[4] = {lo.big[0], hi.big[0], lo.big[1], hi.big[1]};
    const unsigned as[4] = {lo.small[0], hi.small[0], lo.small[1], hi.small[1]};
    float t[4] = {0, 0, 0, 0};
    ssam__mma_tf32_k8(c->lo, as, b.big);
    ssam__mma_tf32_k8(c->lo, ab, b.small);
    ssam__mma_tf32_k8(t, ab, b.big);
    for (int k = 0; k < 4; k++) c->v[k] += t[k];
}
static __device__ __forceinline__ void ssam_tc_mma4_tf32x3(ssam_tcc_tf32x3 *c, ssam_tch4_tf32x3 lo, ssam_tch4_tf32x3 hi,
                                                           ssam_tcb_tf32x3 b)
{
    float t[4] = {0, 0, 0, 0};
    ssam__mma_tf32_k4(c->lo, lo.small, hi.small, b.big[0]);
    ssam__mma_tf32_k4(c->lo, lo.big, hi.big, b.small[0]);
    ssam__mma_tf32_k4(t, lo.big, hi.big, b.big[0]);
    for (int k = 0; k < 4; k++) c->v[k] += t[k];
}

static __device__ __forceinline__ void ssam_tc_mma_f16(ssam_tcc_f16 *c, ssam_tch_f16 lo, ssam_tch_f16 hi, ssam_tcb_f16 b)
{
    ssam__mma_h16_k8(c->v, lo.v, hi.v, b.v, 0);
}
static __device__ __forceinline__ void ssam_tc_mma_bf16(ssam_tcc_bf16 *c, ssam_tch_bf16 lo, ssam_tch_bf16 hi, ssam_tcb_bf16 b)
{
    ssam__mma_h16_k8(c->v, lo.v, hi.v, b.v, 1);
}
/* the k4 tail is the same k8 MMA (its slab and band carry a zero second element); C starts as tf32's */
#define ssam_tc_mma4_f16 ssam_tc_mma_f16
#define ssam_tc_mma4_bf16 ssam_tc_mma_bf16
#define ssam_tc_zero_f16 ssam_tc_zero_tf32
#define ssam_tc_zero_bf16 ssam_tc_zero_tf32

/* ---- stores: C rows y and y + 8, columns x, x + 1 (x >= -1; pair: x even, x >= 0 and 2-element
 * stores allowed); columns outside [0, ow) are not stored ---- */
#define SSAM__TC_PUT2(T2, make2, row, x, ow, pair, v0, v1)                                                 \
    do {                                                                                                   \
        if ((pair) && (x) + 1 < (ow)) {                                                                    \
            *(T2 *)((row) + (x)) = make2(v0, v1);                                                          \
        } else {                                                                                           \
            if ((unsigned)(x) < (unsigned)(ow)) (row)[x] = (v0);                                           \
            if ((unsigned)((x) + 1) < (unsigned)(ow)) (row)[(x) + 1] = (v1);                               \
        }                                                                                                  \
    } while (0)
/* ssam_tc_store2_MODE: the fragment's rows g and g + 8 stored at rows y and y2 (a layout other than
 * 16 consecutive rows, e.g. stencil_tc.cuh's dilated fragments) */
static __device__ __forceinline__ void ssam_tc_store2_f64(double *dst, long long dp, int y, int y2, int x, int ow,
                                                          int oh, int pair, ssam_tcc_f64 c)
{
    if (y < oh) SSAM__TC_PUT2(double2, make_double2, dst + (long long)y * dp, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) SSAM__TC_PUT2(double2, make_double2, dst + (long long)y2 * dp, x, ow, pair, c.v[2], c.v[3]);
}
static __device__ __forceinline__ void ssam_tc_store2_tf32(float *dst, long long dp, int y, int y2, int x, int ow,
                                                           int oh, int pair, ssam_tcc_tf32 c)
{
    if (y < oh) SSAM__TC_PUT2(float2, make_float2, dst + (long long)y * dp, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) SSAM__TC_PUT2(float2, make_float2, dst + (long long)y2 * dp, x, ow, pair, c.v[2], c.v[3]);
}
/* FP16 / BF16: the FP32 sums rounded once to the storage type */
static __device__ __forceinline__ void ssam_tc_store2_f16(__half *dst, long long dp, int y, int y2, int x, int ow,
                                                          int oh, int pair, ssam_tcc_f16 c)
{
    if (y < oh) SSAM__TC_PUT2(__half2, __floats2half2_rn, dst + (long long)y * dp, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) SSAM__TC_PUT2(__half2, __floats2half2_rn, dst + (long long)y2 * dp, x, ow, pair, c.v[2], c.v[3]);
}
static __device__ __forceinline__ void ssam_tc_store2_bf16(__nv_bfloat16 *dst, long long dp, int y, int y2, int x,
                                                           int ow, int oh, int pair, ssam_tcc_bf16 c)
{
    if (y < oh) SSAM__TC_PUT2(__nv_bfloat162, __floats2bfloat162_rn, dst + (long long)y * dp, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) SSAM__TC_PUT2(__nv_bfloat162, __floats2bfloat162_rn, dst + (long long)y2 * dp, x, ow, pair, c.v[2], c.v[3]);
}
static __device__ __forceinline__ void ssam_tc_store_f16(__half *dst, long long dp, int y, int x, int ow, int oh, int pair,
                                                         ssam_tcc_f16 c)
{
    ssam_tc_store2_f16(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
static __device__ __forceinline__ void ssam_tc_store_bf16(__nv_bfloat16 *dst, long long dp, int y, int x, int ow, int oh,
                                                          int pair, ssam_tcc_bf16 c)
{
    ssam_tc_store2_bf16(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
static __device__ __forceinline__ void ssam_tc_store_f64(double *dst, long long dp, int y, int x, int ow, int oh,
                                                         int pair, ssam_tcc_f64 c)
{
    ssam_tc_store2_f64(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
static __device__ __forceinline__ void ssam_tc_store_tf32(float *dst, long long dp, int y, int x, int ow, int oh,
                                                          int pair, ssam_tcc_tf32 c)
{
    ssam_tc_store2_tf32(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
/* a mode's sums as one plain fragment (ssam_tcp_MODE: v[4] in the fragment's layout; tf32x3 adds its
 * two sums), and the store of a plain fragment (rows y, y2) */
typedef ssam_tcc_f64 ssam_tcp_f64;
typedef ssam_tcc_tf32 ssam_tcp_tf32;
typedef ssam_tcc_tf32 ssam_tcp_tf32x3;
static __device__ __forceinline__ ssam_tcp_f64 ssam_tc_plain_f64(ssam_tcc_f64 c) { return c; }
static __device__ __forceinline__ ssam_tcp_tf32 ssam_tc_plain_tf32(ssam_tcc_tf32 c) { return c; }
static __device__ __forceinline__ ssam_tcp_tf32x3 ssam_tc_plain_tf32x3(ssam_tcc_tf32x3 c)
{
    ssam_tcc_tf32 s;
    for (int k = 0; k < 4; k++) s.v[k] = c.v[k] + c.lo[k];
    return s;
}
typedef ssam_tcc_f16 ssam_tcp_f16;
typedef ssam_tcc_bf16 ssam_tcp_bf16;
#define ssam_tc_plain_f16 ssam_tc_plain_tf32
#define ssam_tc_plain_bf16 ssam_tc_plain_tf32
#define ssam_tc_storep2_f64 ssam_tc_store2_f64
#define ssam_tc_storep2_tf32 ssam_tc_store2_tf32
#define ssam_tc_storep2_tf32x3 ssam_tc_store2_tf32
static __device__ __forceinline__ void ssam_tc_store_tf32x3(float *dst, long long dp, int y, int x, int ow, int oh,
                                                            int pair, ssam_tcc_tf32x3 c)
{
    ssam_tc_store_tf32(dst, dp, y, x, ow, oh, pair, ssam_tc_plain_tf32x3(c));
}

/* ---- the band: K = 8 + M - 1 columns per 8-wide x tile, as S8 k8 steps and T4 (0 or 1) k4 steps ---- */
#define SSAM_TC_S8(M) (((M) + 7) % 8 > 4 ? ((M) + 7) / 8 + 1 : ((M) + 7) / 8)
#define SSAM_TC_T4(M) (((M) + 7) % 8 > 0 && ((M) + 7) % 8 <= 4 ? 1 : 0)

/* ---- warp pieces ----
 * SSAM_CONV_TC_B(MODE, S8, T4, b, wr, cq): the B fragments of one filter row (S8 k8 steps, T4 k4):
 *   wr = &(the row padded with 7 zeros before, zeros after)[7 + 2c - g]; the lane's band elements
 *   of k8 step s are wr[8s], wr[8s + 1], of the k4 tail wr[8 S8 - c] (its column is c, not 2c).
 * SSAM_CONV_TC_SLAB(MODE, JX, S8, T4, h, h4, p, cq): one slab of the warp's JX x tiles: the JX - 1 +
 *   S8 k8 steps (step u of tile j is step u - 1 of tile j + 1, 8 columns later) and the JX k4 tails;
 *   p = &tile[row g of the slab][warp's first column + 2c].
 * SSAM_CONV_TC_ROWS8(...): acc[QY][JX] += the filter rows i0, i0 + 8, i0 + 16, ... (< N) over the
 *   warp's QY x JX tiles (16 x 8 outputs each).  The fragment of tile row q and filter row i sits
 *   at row offset 16 q + i; within one residue i0 = i mod 8 the offsets are 8 apart, so the warp
 *   walks slabs k = 0, 1, ... (rows i0 + 8k + g), keeps the last two, and each pair feeds every
 *   (q, i) with 16 q + i = i0 + 8 (k - 1).  ta = &tile[warp's first row + i0 + g][first column + 2c],
 *   wr as above for row 0, WP the padded row's length.  The MMAs of a slab pair: SSAM__TC_BAND_MMA. */
#define SSAM_CONV_TC_B(MODE, S8, T4, b, wr, cq)                                                             \
    do {                                                                                                   \
        _Pragma("unroll") for (int ssam__s = 0; ssam__s < (S8); ssam__s++)                                 \
            (b)[ssam__s] = ssam_tc_b_##MODE((wr)[8 * ssam__s], (wr)[8 * ssam__s + 1]);                     \
        if (T4) (b)[(S8) + (T4)-1] = ssam_tc_b_##MODE((wr)[8 * (S8) - (cq)], 0);                           \
    } while (0)
#define SSAM_CONV_TC_SLAB(MODE, JX, S8, T4, h, h4, p, cq)                                                   \
    do {                                                                                                   \
        _Pragma("unroll") for (int ssam__u = 0; ssam__u < (JX)-1 + (S8); ssam__u++)                        \
            (h)[ssam__u] = ssam_tc_slab_##MODE((p) + 8 * ssam__u);                                         \
        if (T4)                                                                                            \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (JX); ssam__j++)                             \
                (h4)[ssam__j] = ssam_tc_slab4_##MODE((p) + 8 * (ssam__j + (S8)) - (cq));                   \
    } while (0)
/* SSAM__TC_BAND_MMA(MODE, JX, S8, T4, c, hl, hh, h4l, h4h, b): c[j] += (lo over hi) band for the JX
 * x tiles: S8 k8 steps (step s of tile j is slab j + s) and the k4 tail.  Loops run s outside j:
 * consecutive MMAs are independent.  (Each MMA takes its A operand as four consecutive registers,
 * rows g and g + 8 interleaved, which a slab's paired load does not give: the compiler gathers
 * them with register moves, about 3 per tf32 MMA, H100.  Running u = j + s outside s instead left
 * the SASS's moves as they were.) */
#define SSAM__TC_BAND_MMA(MODE, JX, S8, T4, c, hl, hh, h4l, h4h, b)                                        \
    do {                                                                                                    \
        _Pragma("unroll") for (int ssam__s = 0; ssam__s < (S8); ssam__s++)                                  \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (JX); ssam__j++)                              \
                ssam_tc_mma_##MODE(&(c)[ssam__j], (hl)[ssam__j + ssam__s], (hh)[ssam__j + ssam__s], (b)[ssam__s]); \
        if (T4)                                                                                             \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (JX); ssam__j++)                              \
                ssam_tc_mma4_##MODE(&(c)[ssam__j], (h4l)[ssam__j], (h4h)[ssam__j], (b)[(S8) + (T4)-1]);     \
    } while (0)

#define SSAM_CONV_TC_ROWS8(MODE, QY, JX, S8, T4, N, acc, ta, pitch, wr, WP, i0, cq)                         \
    do {                                                                                                   \
        enum { ssam__MB = ((N) + 7) / 8, ssam__KS = ssam__MB + 2 * (QY) };                                  \
        ssam_tcb_##MODE ssam__b[(QY) > 1 ? ssam__MB : 1][(S8) + (T4)]; /* QY 1: each row once, loaded at use */ \
        ssam_tch_##MODE ssam__h[2][(JX)-1 + (S8)];                                                         \
        ssam_tch4_##MODE ssam__h4[2][(JX)];                                                                \
        if ((QY) > 1)                                                                                      \
            _Pragma("unroll") for (int ssam__m = 0; ssam__m < ssam__MB; ssam__m++)                         \
                if ((i0) + 8 * ssam__m < (N))                                                              \
                    SSAM_CONV_TC_B(MODE, S8, T4, ssam__b[(QY) > 1 ? ssam__m : 0], (wr) + ((i0) + 8 * ssam__m) * (WP), cq); \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < ssam__KS; ssam__k++) {                           \
            /* slab k is needed while a (q, i) pair still starts at offset 8k - 8 or 8k */                \
            if ((i0) + 8 * ssam__k > 16 * (QY) + (N)-9) break;                                             \
            SSAM_CONV_TC_SLAB(MODE, JX, S8, T4, ssam__h[ssam__k & 1], ssam__h4[ssam__k & 1],              \
                              (ta) + 8 * ssam__k * (pitch), cq);                                           \
            if (ssam__k == 0) continue;                                                                    \
            _Pragma("unroll") for (int ssam__q = 0; ssam__q < (QY); ssam__q++) {                           \
                const int ssam__m = ssam__k - 1 - 2 * ssam__q; /* filter row i0 + 8m */                    \
                if (ssam__m < 0 || ssam__m >= ssam__MB || (i0) + 8 * ssam__m >= (N)) continue;             \
                const int ssam__bm = (QY) > 1 ? ssam__m : 0;                                               \
                if ((QY) == 1) SSAM_CONV_TC_B(MODE, S8, T4, ssam__b[0], (wr) + ((i0) + 8 * ssam__m) * (WP), cq); \
                SSAM__TC_BAND_MMA(MODE, JX, S8, T4, (acc)[ssam__q], ssam__h[(ssam__k - 1) & 1], ssam__h[ssam__k & 1], \
                                  ssam__h4[(ssam__k - 1) & 1], ssam__h4[ssam__k & 1], ssam__b[ssam__bm]);   \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* ---- block pieces ---- */
/* the sizes of one instantiation: block tile BH x BWD, staged tile TR x TC, its row of NCH 16-byte
 * chunks of V elements (room for TC columns starting at any even OFF < V) and pitch TP (8 mod 32
 * floats, 8 mod 16 doubles, 8 mod 64 halves: a warp's paired fragment loads fall in distinct banks),
 * padded weight row WP */
#define SSAM__CONV_TC_PITCH(T, TC)                                                                         \
    (sizeof(T) == 8   ? (TC) + ((8 - (TC) % 16) + 16) % 16                                                  \
     : sizeof(T) == 4 ? (TC) + ((8 - (TC) % 32) + 32) % 32                                                  \
                      : (TC) + ((8 - (TC) % 64) + 64) % 64)
#define SSAM__CONV_TC_TC(M, JX, WX) (8 * (JX) * (WX)-8 + 8 * SSAM_TC_S8(M) + 4 * SSAM_TC_T4(M))
#define SSAM__CONV_TC_NCH(T, TC) (((TC) + 2 * SSAM_CONV_V(T) - 3) / SSAM_CONV_V(T))
#define SSAM__CONV_TC_TP(T, M, JX, WX)                                                                     \
    SSAM__CONV_TC_PITCH(T, SSAM__CONV_TC_NCH(T, SSAM__CONV_TC_TC(M, JX, WX)) * SSAM_CONV_V(T))
#define SSAM__CONV_TC_SIZES(T, M, N, QY, JX, WY, WX)                                                       \
    S8 = SSAM_TC_S8(M), T4 = SSAM_TC_T4(M), WH = 16 * (QY), WW = 8 * (JX), BH = WH * (WY), BWD = WW * (WX), \
    TR = BH + (N)-1, TC = SSAM__CONV_TC_TC(M, JX, WX), V = SSAM_CONV_V(T), NCH = SSAM__CONV_TC_NCH(T, TC),  \
    TP = SSAM__CONV_TC_TP(T, M, JX, WX), WP = 8 * S8 + 12, NT = 32 * (WY) * (WX)
/* Tile columns.  The staged tile starts at input column x0 - ax, OFF = (x0 - ax) mod V past a
 * 16-byte boundary.  Where OFF is even, the rows of a tile inside the image are copied as 16-byte
 * chunks into the slot from column OFF on (the fragments' paired loads need an even column).  An
 * odd OFF: float and half shift the tile grid one column left (x0 = tile * BWD - 1: the first
 * tile's column -1 is computed, not stored; the stores go one element at a time), and OFF is even
 * again; double (V = 2) copies element by element instead (measured, H100, 15x15: the shifted
 * grid 1.147 ms, the element copy 1.048, no 16-byte copy at all 1.083; float 15x15 shifted 0.50,
 * element copy 0.64). */
static __host__ __device__ __forceinline__ int ssam__conv_tc_shift(int ax, int V)
{
    return V > 2 ? ((V - ax % V) % V) & 1 : 0;
}

/* interior tiles: rows [ys, ys + TR) x the NCH chunks from column xs (V-aligned) into slot[TR][TP],
 * asynchronously (ssam__tc_wait, then a barrier) */
#define SSAM__CONV_TC_STAGE16(T, slot, src, g, xs, ys)                                                     \
    do {                                                                                                   \
        const T *ssam__b = (src) + (long long)(ys) * (g).sp + (xs);                                        \
        for (int ssam__i = threadIdx.x; ssam__i < TR * NCH; ssam__i += NT) {                                \
            const int ssam__r = ssam__i / NCH, ssam__h = ssam__i - ssam__r * NCH;                           \
            ssam__tc_cp16((slot) + ssam__r * TP + ssam__h * V, ssam__b + ssam__r * (g).sp + ssam__h * V);   \
        }                                                                                                  \
    } while (0)
/* any tile: rows [y0, y0 + TR) x columns [x0, x0 + TC) of the input into tile[TR][TP], borders
 * applied through the source index; the constant border's cells, and the columns past NC (they
 * meet only zero weights), stored as values; 8 loads in flight per thread.  (Measured: cp.async
 * copies into a second buffer, overlapping the next tile's copy with this one's MMAs, ran 5-35%
 * slower than a plain copy with more blocks per SM; one load at a time per thread, 30-50% slower.) */
#define SSAM__CONV_TC_STAGE(T, tile, TR, TC, TP, NC, src, g, x0, y0, NT)                                   \
    for (int ssam__i0 = 0; ssam__i0 < (TR) * (TC); ssam__i0 += 8 * (NT)) {                                \
        T ssam__v[8]; /* 8 loads in flight per thread, then 8 stores */                                    \
        _Pragma("unroll") for (int ssam__u = 0; ssam__u < 8; ssam__u++) {                                  \
            const int ssam__i = ssam__i0 + ssam__u * (NT) + threadIdx.x;                                   \
            const int ssam__r = ssam__i / (TC), ssam__c = ssam__i - ssam__r * (TC);                        \
            const int ssam__iy = ssam_border_index((y0) + ssam__r, (g).h, (g).border);                     \
            const int ssam__ix = ssam_border_index((x0) + ssam__c, (g).w, (g).border);                     \
            ssam__v[ssam__u] = (T)0;                                                                       \
            if (ssam__i < (TR) * (TC) && ssam__c < (NC))                                                   \
                ssam__v[ssam__u] = (ssam__iy < 0 || ssam__ix < 0) ? (T)(g).cval                           \
                                                                  : (src)[(long long)ssam__iy * (g).sp + ssam__ix]; \
        }                                                                                                  \
        _Pragma("unroll") for (int ssam__u = 0; ssam__u < 8; ssam__u++) {                                  \
            const int ssam__i = ssam__i0 + ssam__u * (NT) + threadIdx.x;                                   \
            if (ssam__i < (TR) * (TC)) (tile)[ssam__i / (TC) * (TP) + ssam__i % (TC)] = ssam__v[ssam__u];  \
        }                                                                                                  \
    }

/* the weights, each filter row padded with 7 zeros before and zeros after to WP elements (w: the
 * kernel's __grid_constant__ parameter, indexed in place) */
#define SSAM__CONV_TC_WEIGHTS(T, wpad, WP, M, N, w, NT)                                                     \
    for (int ssam__i = threadIdx.x; ssam__i < (N) * (WP); ssam__i += (NT)) {                              \
        const int ssam__r = ssam__i / (WP), ssam__k = ssam__i - ssam__r * (WP) - 7;                        \
        (wpad)[ssam__i] = (ssam__k >= 0 && ssam__k < (M)) ? (w)[ssam__r * (M) + ssam__k] : (T)0;           \
    }

/* one tile: the warp's accumulators over the N filter rows of the staged tile; then, where every
 * sum of the block is finite, stored, else the tile again with plain FMAs.  Every staged value
 * enters some sum (times a weight or a band zero), so an Inf or NaN in the tile, which the band's
 * zeros would spread up to 7 columns outside its footprint (0 * Inf is NaN), makes a sum non-
 * finite; so does a sum that overflows.  The FMA path then gives conv.cuh's Inf and NaN pattern. */
#define SSAM__CONV_TC_TILE(MODE, M, N, QY, JX, WX, tile, wpad, dst, g, x0, y0, pair)                        \
    do {                                                                                                   \
        const int lane = threadIdx.x & 31, gq = lane >> 2, cq = lane & 3, warp = threadIdx.x >> 5;         \
        const int wy = warp / (WX), wx = warp % (WX);                                                      \
        ssam_tcc_##MODE acc[QY][JX];                                                                       \
        _Pragma("unroll") for (int q = 0; q < (QY); q++)                                                   \
            _Pragma("unroll") for (int j = 0; j < (JX); j++) ssam_tc_zero_##MODE(&acc[q][j]);             \
        const T *ta = (tile) + (wy * WH + gq) * TP + wx * WW + 2 * cq;                                     \
        const W *wr = (wpad) + 7 + 2 * cq - gq;                                                            \
        _Pragma("unroll 1") for (int i0 = 0; i0 < ((N) < 8 ? (N) : 8); i0++)                               \
            SSAM_CONV_TC_ROWS8(MODE, QY, JX, S8, T4, N, acc, ta + i0 * TP, TP, wr, WP, i0, cq);           \
        int bad = 0;                                                                                       \
        _Pragma("unroll") for (int q = 0; q < (QY); q++)                                                   \
            _Pragma("unroll") for (int j = 0; j < (JX); j++) {                                             \
                const ssam_tcp_##MODE p = ssam_tc_plain_##MODE(acc[q][j]);                                 \
                _Pragma("unroll") for (int k = 0; k < 4; k++) bad |= !isfinite(p.v[k]);                    \
            }                                                                                              \
        if (__syncthreads_or(bad)) {                                                                       \
            SSAM__CONV_TC_TILE_FMA(T, W, M, N, tile, wpad, dst, g, x0, y0);                                \
            __syncthreads(); /* the tile is the next copy's target */                                      \
        } else {                                                                                           \
            _Pragma("unroll") for (int q = 0; q < (QY); q++)                                               \
                _Pragma("unroll") for (int j = 0; j < (JX); j++)                                           \
                    ssam_tc_store_##MODE(dst, (g).dp, (y0) + wy * WH + q * 16 + gq, (x0) + wx * WW + 8 * j + 2 * cq, \
                                         (g).ow, (g).oh, pair, acc[q][j]);                                 \
        }                                                                                                  \
    } while (0)

/* one tile with plain FMAs, in the definition's order (conv.cuh's): an Inf or NaN reaches exactly
 * the outputs whose taps read it */
#define SSAM__CONV_TC_TILE_FMA(T, W, M, N, tile, wpad, dst, g, x0, y0)                                      \
    for (int ssam__o = threadIdx.x; ssam__o < BH * BWD; ssam__o += NT) {                                  \
        const int ssam__ly = ssam__o / BWD, ssam__lx = ssam__o - ssam__ly * BWD;                           \
        if ((y0) + ssam__ly >= (g).oh || (unsigned)((x0) + ssam__lx) >= (unsigned)(g).ow) continue;         \
        W ssam__s = 0; /* sums in the weights' type: float for the half-storage modes */                 \
        for (int ssam__n = 0; ssam__n < (N); ssam__n++)                                                    \
            for (int ssam__m = 0; ssam__m < (M); ssam__m++)                                                \
                ssam__s = fma((wpad)[ssam__n * WP + 7 + ssam__m], (W)(tile)[(ssam__ly + ssam__n) * TP + ssam__lx + ssam__m], ssam__s); \
        (dst)[(long long)((y0) + ssam__ly) * (g).dp + (x0) + ssam__lx] = (T)ssam__s;                       \
    }

/* the kernel body: blocks walk the tiles (row-major) with a stride of the grid: stage, compute,
 * store.  slot: the staged tile's storage; tile = slot + OFF, its column 0 */
#define SSAM__CONV2D_TC_BODY(MODE, M, N, QY, JX, WY, WX, src, dst, g, wts)                                    \
    do {                                                                                                   \
        typedef SSAM_TC_T_##MODE T;                                                                        \
        typedef SSAM_TC_W_##MODE W;                                                                        \
        enum { SSAM__CONV_TC_SIZES(T, M, N, QY, JX, WY, WX) };                                             \
        extern __shared__ __align__(16) unsigned char ssam__tcsm[];                                        \
        W *wpad = (W *)ssam__tcsm;                                                                         \
        T *slot = (T *)(ssam__tcsm + (((N)*WP * sizeof(W) + 15) & ~(size_t)15));                           \
        const int sh = ssam__conv_tc_shift((g).ax, V), off = (V - (g).ax % V) % V - sh;                    \
        T *tile = slot + (off & ~1); /* an odd off (no shift): the element copy, from column 0 */          \
        const int tiles_x = ((g).ow + sh + BWD - 1) / BWD;                                                 \
        const long long tiles = (long long)tiles_x * (((g).oh + BH - 1) / BH);                             \
        SSAM__CONV_TC_WEIGHTS(W, wpad, WP, M, N, wts, NT);                                                  \
        for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {                                        \
            const int x0 = (int)(t % tiles_x) * BWD - sh, y0 = (int)(t / tiles_x) * BH;                    \
            const int xs = x0 - (g).ax - off, ys = y0 - (g).ay; /* xs: V-aligned */                        \
            if ((g).vec && !(off & 1) && ys >= 0 && ys + TR <= (g).h && xs >= 0 && xs + NCH * V <= (g).w)  \
                SSAM__CONV_TC_STAGE16(T, slot, src, g, xs, ys);                                            \
            else                                                                                           \
                SSAM__CONV_TC_STAGE(T, tile, TR, TC, TP, BWD + (M)-1, src, g, xs + off, ys, NT);          \
            ssam__tc_wait();                                                                               \
            __syncthreads();                                                                               \
            SSAM__CONV_TC_TILE(MODE, M, N, QY, JX, WX, tile, wpad, dst, g, x0, y0, (g).ovec && !sh);       \
        }                                                                                                  \
    } while (0)

/* shared bytes of one block: the padded weights (rounded to 16 bytes), the staged tile */
#define SSAM__CONV_TC_SMEM(MODE, M, N, QY, JX, WY, WX)                                                     \
    ((((size_t)(N) * (8 * SSAM_TC_S8(M) + 12) * sizeof(SSAM_TC_W_##MODE) + 15) & ~(size_t)15) +           \
     (size_t)(16 * (QY) * (WY) + (N)-1) * SSAM__CONV_TC_TP(SSAM_TC_T_##MODE, M, JX, WX) * sizeof(SSAM_TC_T_##MODE))

/* SSAM_CONV2D_TC_DEFINE_EX: the tile shape explicit -- QY fragment rows (16 rows each) and JX
 * 8-column tiles per warp, WY x WX warps per block, MINB blocks per SM (__launch_bounds__) */
#define SSAM_CONV2D_TC_DEFINE(name, MODE, M, N)                                                             \
    SSAM_CONV2D_TC_DEFINE_EX(name, MODE, M, N, SSAM_TC_QY_##MODE, SSAM_TC_JX_##MODE, 2, 2, SSAM_TC_MINB_##MODE(M))

#define SSAM_CONV2D_TC_DEFINE_EX(name, MODE, M, N, QY, JX, WY, WX, MINB)                              \
    SSAM__TC_SIMT_##MODE(name##_simt, M, N)                                                                \
    static_assert(SSAM__CONV_TC_SMEM(MODE, M, N, QY, JX, WY, WX) <= 227 * 1024,                            \
                  "ssam conv_tc: the staged tile and weights exceed 227 KB of shared memory; use a smaller "  \
                  "tile (SSAM_CONV2D_TC_DEFINE_EX) or conv.cuh");                                           \
    __global__ void __launch_bounds__(32 * (WY) * (WX), MINB)                                              \
        name##_kernel(const SSAM_TC_T_##MODE *__restrict__ src, SSAM_TC_T_##MODE *__restrict__ dst,        \
                      ssam_conv2d_geom g, const __grid_constant__ name##_simt_weights wt)                  \
    {                                                                                                      \
        SSAM__CONV2D_TC_BODY(MODE, M, N, QY, JX, WY, WX, src, dst, g, wt.w);                               \
    }                                                                                                      \
    static __attribute__((unused)) ssam__tc_dev name##__dev = {0, 0, 0, 0}; /* asked once per device */    \
    static inline __attribute__((unused)) int name##_path(void) /* the path name_launch takes here */     \
    {                                                                                                      \
        return ssam__tc_path_of(&name##__dev, (const void *)name##_kernel, 32 * (WY) * (WX),               \
                                SSAM__CONV_TC_SMEM(MODE, M, N, QY, JX, WY, WX));                            \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_launch(const ssam_conv2d_args *a, cudaStream_t stream) \
    {                                                                                                      \
        typedef SSAM_TC_T_##MODE T;                                                                        \
        const size_t smem = SSAM__CONV_TC_SMEM(MODE, M, N, QY, JX, WY, WX);                               \
        ssam_conv2d_geom g;                                                                                \
        name##_simt_weights wt;                                                                            \
        dim3 grid;                                                                                         \
        ssam__tc_dev *dv = &name##__dev;                                                                   \
        int rc = ssam__conv2d_geometry(a, M, N, SSAM_CONV_V(T), &g);                                       \
        if (rc) return rc;                                                                                 \
        rc = ssam__conv_tc_setup(dv, (const void *)name##_kernel, 32 * (WY) * (WX), smem);                 \
        if (rc) return rc;                                                                                 \
        if (dv->path != SSAM_PATH_TC) return name##_simt_launch(a, stream);                                \
        rc = ssam__conv_tc_grid(&g, 16 * (QY) * (WY), 8 * (JX) * (WX), ssam__conv_tc_shift(g.ax, SSAM_CONV_V(T)), dv, &grid); \
        if (rc) return rc;                                                                                 \
        for (int i = 0; i < (M) * (N); i++) /* convolution: the filter flipped both ways */                \
            wt.w[i] = (a->flags & SSAM_CONVOLVE) ? ((const SSAM_TC_W_##MODE *)a->weights)[(M) * (N)-1 - i] \
                                                 : ((const SSAM_TC_W_##MODE *)a->weights)[i];              \
        name##_kernel<<<grid, 32 * (WY) * (WX), smem, stream>>>((const T *)a->src, (T *)a->dst, g, wt);    \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                           \
    }

/* which path a kernel takes: SSAM_PATH_TC where it was compiled for sm_80+ (its PTX, so a JIT build
 * from older PTX counts as old) and the current device is sm_80+, else SSAM_PATH_SIMT */
static inline int ssam__conv_tc_path(const void *kernel)
{
    cudaFuncAttributes fa;
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess)
        return SSAM_PATH_SIMT;
    if (major < 8 || cudaFuncGetAttributes(&fa, kernel) != cudaSuccess || fa.ptxVersion < 80) return SSAM_PATH_SIMT;
    return SSAM_PATH_TC;
}

/* what a launcher needs of the current device, asked once per device (as ssam__stencil_prepare's
 * occupancy): the path (the SIMT one also where the device cannot give a block smem bytes of shared
 * memory), and for the tensor-core path the shared-memory limit raised to smem, the blocks per SM
 * and the SM count.  dev1 = device + 1 once filled. */
typedef struct ssam__tc_dev {
    int dev1, path, per_sm, sms;
} ssam__tc_dev;
static inline int ssam__conv_tc_setup(ssam__tc_dev *d, const void *kernel, int threads, size_t smem)
{
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError(), SSAM_ECUDA;
    if (d->dev1 == dev + 1) return SSAM_SUCCESS;
    d->path = ssam__conv_tc_path(kernel);
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return (void)cudaGetLastError(), SSAM_ECUDA;
    if ((size_t)optin < smem) d->path = SSAM_PATH_SIMT; /* e.g. sm_86/89 (99 KB): the SIMT kernel runs */
    if (d->path == SSAM_PATH_TC) {
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess ||
            cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d->per_sm, kernel, threads, smem) != cudaSuccess)
            return (void)cudaGetLastError(), SSAM_ECUDA; /* no sticky error left for later launches */
        if (d->per_sm < 1) return SSAM_ECUDA; /* the block does not fit: cannot happen below the static_assert's 227 KB */
    }
    d->dev1 = dev + 1;
    return SSAM_SUCCESS;
}

/* name_path of a tensor-core launcher: the path its launch takes on the current device (SIMT too
 * where the setup fails) */
static inline int ssam__tc_path_of(ssam__tc_dev *d, const void *kernel, int threads, size_t smem)
{
    return ssam__conv_tc_setup(d, kernel, threads, smem) ? SSAM_PATH_SIMT : d->path;
}

/* the grid: as many blocks as fit on the device at once (each walks tiles of BH x BW outputs with
 * the grid's stride; sh: the tile grid's shift, ssam__conv_tc_shift), no more than there are tiles */
static inline int ssam__conv_tc_grid(const ssam_conv2d_geom *g, int BH, int BW, int sh, const ssam__tc_dev *d, dim3 *grid)
{
    const long long tiles = ((g->ow + sh + (long long)BW - 1) / BW) * ((g->oh + (long long)BH - 1) / BH);
    const long long resident = (long long)d->per_sm * d->sms;
    if (tiles > 2147483647LL) return SSAM_ESIZE;
    grid->x = (unsigned)(tiles < resident ? tiles : resident);
    grid->y = grid->z = 1;
    return SSAM_SUCCESS;
}

#endif /* SSAM_CONV_TC_CUH */
