#include <onchip/names_push.h>
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
 * PIECES (by scope, in conv_tc/; each mode: f64, tf32, tf32x3, f16, bf16; see docs/pieces.md)
 *   conv_tc/mma.cuh    lane: the raw mma.sync shapes, ssam_tf32(x) (x rounded to TF32), cp.async
 *   conv_tc/frag.cuh   lane: per mode ssam_tch_MODE / ssam_tch4_MODE (a lane's share of an 8-row slab
 *                      of A), ssam_tcb_MODE, ssam_tcc_MODE (B and C), ssam_tc_slab_MODE(p),
 *                      ssam_tc_b_MODE(w0, w1), ssam_tc_mma_MODE(&c, lo, hi, b), ssam_tc_store_MODE(...);
 *                      the modes as types, ssam_tc_mode_MODE, for function templates
 *   conv_tc/warp.cuh   warp: ssam_conv_tc_b (a filter row's band), ssam_conv_tc_slab (a slab of the
 *                      warp's tiles), ssam__tc_band_mma, ssam_conv_tc_rows8 (a warp's tiles over the
 *                      filter rows of one residue mod 8); SSAM_CONV_TC_B / _SLAB / _ROWS8 and
 *                      SSAM__TC_BAND_MMA are their spellings with a MODE token
 *   conv_tc/block.cuh  block: tile staging, padded weights, one tile; ssam_conv2d_tc_body, the kernel
 *   conv_tc/host.cuh   host: the path on this device, the grid, the launch
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/conv_tc.cuh>
 *     SSAM_CONV2D_TC_DEFINE(blur15, f64, 15, 15)      // double, FP64 tensor cores
 *     SSAM_CONV2D_TC_DEFINE(big20, tf32x3, 20, 20)    // float at FP32 accuracy on TF32 tensor cores
 *
 *     ssam_conv2d_args a = {};  // ...                // exactly as for SSAM_CONV2D_DEFINE
 *     int rc = blur15_launch(&a, stream);
 *   examples/conv_tc.cu runs both beside the SIMT kernel.
 *
 * LIMITS AND WHEN TO USE IT
 *   M, N >= 1 (conv.cuh's limits too: its kernel is the fallback); the staged tile and the padded
 *   weights must fit in 227 KB of shared memory (a static_assert says so).  Up to 2^31 output
 *   tiles.  The weights travel in the kernel's parameters (M N elements <= 32 KB).
 *   Measured on the H100 (docs/PERFORMANCE.md, conv_tc): f64 pays from 9x9 up (9x9 1.35x,
 *   15x15 1.50x, 20x20 2.60x the SIMT kernel), tf32 from 9x9 (1.1-1.3x; 15x15 1.75x, 20x20 2.86x),
 *   f16 from 9x9 (0.207 ms against conv.cuh's half kernel's 0.267); tf32x3 is slower than SIMT
 *   FP32 up to 15x15 (0.5-0.74x) and level at 20x20 (0.98x): three passes of mma.sync at 62-71%
 *   band efficiency -- it is the accurate mode of the TF32 path, not a faster FP32.  Small filters
 *   are memory-bound: use conv.cuh.
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ the generators emit their kernels only: name_kernel(src, dst, g, wt) (the
 *   tensor cores; sm_80+, an empty body where compiled for older targets) and the SIMT fallback's
 *   name_simt_kernel / name_simt_qkernel (conv.cuh's, with its NVRTC notes); no name_path or
 *   name_launch.  name_kernel takes conv.cuh's ssam_conv2d_geom and weights, NT = 32 WY WX threads,
 *   name__tcz::smem bytes of dynamic shared memory (over 48 KB: raise the kernel's limit first) and
 *   as many blocks as are resident, no more than the BH x BWD tiles (conv_tc/host.cuh).
 */
#ifndef SSAM_CONV_TC_CUH
#define SSAM_CONV_TC_CUH

#include "conv.cuh"
#include "conv_tc/mma.cuh"
#include "conv_tc/frag.cuh"
#include "conv_tc/warp.cuh"
#include "conv_tc/block.cuh"
#include "conv_tc/host.cuh"

/* the SIMT fallback of each mode (conv.cuh) */
#define SSAM__TC_SIMT_f64(name, M, N) SSAM__CONV2D_TC_SIMT(name, double, double, M, N)
#define SSAM__TC_SIMT_tf32(name, M, N) SSAM__CONV2D_TC_SIMT(name, float, float, M, N)
#define SSAM__TC_SIMT_tf32x3(name, M, N) SSAM__CONV2D_TC_SIMT(name, float, float, M, N)
#define SSAM__TC_SIMT_f16(name, M, N) SSAM__CONV2D_TC_SIMT(name, __half, float, M, N)
#define SSAM__TC_SIMT_bf16(name, M, N) SSAM__CONV2D_TC_SIMT(name, __nv_bfloat16, float, M, N)
/* the default tile of each mode (measured on the H100, bench/ssam_conv.cu --tc): QY fragment rows of 16
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
/* the fallback name_simt: conv.cuh's definition of the filter (P 1, 128 threads), its limits named
 * after the tensor-core generator */
#define SSAM__CONV2D_TC_SIMT(name, TS, T, M, N)                                                            \
    SSAM__CONV2D_DEFINE_X(name##_simt, "SSAM_CONV2D_TC_DEFINE(" #name ")", TS, T, M, N, 1, 128, 1)

/* SSAM_CONV2D_TC_DEFINE_EX: the tile shape explicit -- QY fragment rows (16 rows each) and JX
 * 8-column tiles per warp, WY x WX warps per block, MINB blocks per SM (__launch_bounds__) */
#define SSAM_CONV2D_TC_DEFINE(name, MODE, M, N)                                                             \
    SSAM_CONV2D_TC_DEFINE_EX(name, MODE, M, N, SSAM_TC_QY_##MODE, SSAM_TC_JX_##MODE, 2, 2, SSAM_TC_MINB_##MODE(M))
#define SSAM_CONV2D_TC_DEFINE_EX(name, MODE, M, N, QY, JX, WY, WX, MINB)                                    \
    SSAM__TC_SIMT_##MODE(name, M, N)                                                                       \
    typedef ssam__conv_tc_sizes<SSAM_TC_T_##MODE, SSAM_TC_W_##MODE, M, N, QY, JX, WY, WX> name##__tcz;     \
    static_assert(name##__tcz::tile,                                                                       \
                  "SSAM_CONV2D_TC_DEFINE(" #name "): QY, JX, WY, WX must be at least 1 and WY x WX at most 32 warps"); \
    static_assert(name##__tcz::smem <= ONCHIP_SMEM_OPTIN_MAX,                                              \
                  "SSAM_CONV2D_TC_DEFINE(" #name "): the staged tile and weights exceed 227 KB of shared memory; " \
                  "use a smaller tile (SSAM_CONV2D_TC_DEFINE_EX) or conv.cuh");                             \
    __global__ void __launch_bounds__(32 * (WY) * (WX), MINB)                                              \
        name##_kernel(const SSAM_TC_T_##MODE *__restrict__ src, SSAM_TC_T_##MODE *__restrict__ dst,        \
                      ssam_conv2d_geom g, const __grid_constant__ name##_simt_weights wt)                  \
    {                                                                                                      \
        if constexpr (name##_simt__lim::ok && name##__tcz::ok)                                             \
            ssam_conv2d_tc_body<ssam_tc_mode_##MODE, M, N, QY, JX, WY, WX>(src, dst, g, wt.w);             \
    }                                                                                                      \
    SSAM__CONV2D_TC_HOST(name, M, N)

/* name_path and name_launch (host code: none under NVRTC, where the generator emits the kernels only:
 * name_kernel and the SIMT fallback's name_simt_kernel, name_simt_qkernel) */
#ifndef __CUDACC_RTC__
#define SSAM__CONV2D_TC_HOST(name, M, N)                                                                   \
    static __attribute__((unused)) ssam__tc_dev name##__dev = {0, 0, 0, 0}; /* asked once per device */    \
    static inline __attribute__((unused)) int name##_path(void) /* the path name_launch takes here */     \
    { return ssam__tc_path_of(&name##__dev, (const void *)name##_kernel, name##__tcz::NT, name##__tcz::smem); } \
    static inline __attribute__((unused)) int name##_launch(const ssam_conv2d_args *a, cudaStream_t stream) \
    {                                                                                                      \
        name##_simt_weights wt;                                                                            \
        return ssam__conv2d_tc_launch(a, stream, &name##__dev, (const void *)name##_kernel, name##_simt_launch, &wt, \
                                      sizeof wt.w[0], M, N, name##__tcz::VW, name##__tcz::BH, name##__tcz::BWD, \
                                      name##__tcz::NT, name##__tcz::smem);                                 \
    }
#else
#define SSAM__CONV2D_TC_HOST(name, M, N)
#endif

#endif /* SSAM_CONV_TC_CUH */
#include <onchip/names_pop.h>
