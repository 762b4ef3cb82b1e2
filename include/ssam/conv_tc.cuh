#include <onchip/names_push.h>
/* ssam/conv_tc.cuh -- 2D convolution on tensor cores: the filter as a banded (Toeplitz) matrix.
 *
 * WHAT (docs/ssam.md#convolution-on-tensor-cores-conv_tccuh)
 *   SSAM_CONV2D_TC_DEFINE(name, MODE, M, N, ssam_conv_tc_policy<QY, JX, WY, WX, MINB>) defines, with
 *   conv.cuh's ssam_conv2d_args, flags, borders, anchors and codes:
 *       __global__ name_kernel                                   the tensor-core kernel
 *       int name_plan(const ssam_conv2d_args *a, ssam_plan *p)    every check, the path here; no launch
 *       int name_run(const ssam_conv2d_args *a, const ssam_plan *p, cudaStream_t)   launches p's path
 *       int name_launch(const ssam_conv2d_args *a, cudaStream_t)  name_plan, then name_run
 *       name_simt_*                conv.cuh's instance, the fallback (SSAM_SYSTOLIC_WALK applies there)
 *   The plan: path SSAM_PATH_TC or SSAM_PATH_SIMT (ssam/plan.h), why (the rule), passes 1,
 *   steps_per_pass 0, workspace_bytes 0, result a->dst; refused: the code, why, passes 0.
 *   MODE a token: f64 (double, FP64 MMAs: < 1e-12), tf32 (float, one TF32 pass: < 1e-3), tf32x3
 *   (float, three TF32 passes: < 8e-7), f16 / bf16 (images __half / __nv_bfloat16, weights a FLOAT
 *   host array, FP32 sums: < 2e-3 / < 1.6e-2); tested bounds of the rms error over sum |w x|.
 *   The fallback runs below sm_80, for PTX older than sm_80, or where a block cannot get the tile's
 *   shared memory.  The policy sets the tile: QY 16-row fragments and JX 8-column tiles a warp,
 *   WY x WX warps, MINB blocks per SM; a field 0 (every default of ssam_conv_tc_policy<>) is the
 *   MODE's choice: SSAM_TC_QY_MODE, SSAM_TC_JX_MODE, WY = WX = 2, SSAM_TC_MINB_MODE(M).
 *
 * HOW  Each filter row a banded matrix on the tensor cores; a tile whose sums are not all finite is
 *   computed again with FMAs (Inf and NaN as conv.cuh's): docs/ssam.md#conv-tc-design.
 *
 * PIECES (conv_tc/; per mode; docs/pieces.md)  mma.cuh: the raw MMAs, ssam_tf32; frag.cuh: a lane's
 *   fragments; warp.cuh: bands, slabs, ssam_conv_tc_rows8; block.cuh: staging, one tile,
 *   ssam_conv2d_tc_body; host.cuh: the path, the grid, the plan and the run.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#tc-glossary.
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/conv_tc.cuh>
 *     SSAM_CONV2D_TC_DEFINE(blur15, f64, 15, 15, ssam_conv_tc_policy<>)    // double, FP64 tensor cores
 *     SSAM_CONV2D_TC_DEFINE(big20, tf32x3, 20, 20, ssam_conv_tc_policy<>)  // float at FP32 accuracy, TF32
 *
 *     ssam_conv2d_args a = {};  // ...                // exactly as for SSAM_CONV2D_DEFINE
 *     ssam_plan p;
 *     int rc = blur15_plan(&a, &p);                      // p.path SSAM_PATH_TC on sm_80+, p.why
 *     if (!rc) rc = blur15_run(&a, &p, stream);          // or both: blur15_launch(&a, stream)
 *   examples/conv_tc.cu runs both beside the SIMT kernel.
 *
 * LIMITS AND WHEN TO USE IT
 *   conv.cuh's limits (its kernel is the fallback); QY, JX, WY, WX >= 0, WY WX <= 32; the staged tile
 *   and padded weights within 227 KB of shared memory (static_asserts); up to 2^31 output tiles;
 *   weights M N elements <= 32 KB of parameters.  f64, tf32, f16 / bf16 pay from about 9x9 up;
 *   tf32x3 is the accurate mode of TF32, not a quicker FP32; small filters belong to conv.cuh
 *   (docs/ssam.md#conv-tc-when).
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(src, dst, g, wt) (sm_80+; an empty body for
 *   older targets), name_simt_kernel / name_simt_qkernel (conv.cuh's).  name_kernel takes conv.cuh's
 *   ssam_conv2d_geom and weights, 32 WY WX threads (the tile resolved: name__tct::wy, ::wx),
 *   name__tcz::smem bytes of dynamic shared memory (over 48 KB: raise the kernel's limit first), as
 *   many blocks as are resident, at most the tiles.
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
/* the default tile of each mode; why: docs/ssam.md#conv-tc-design */
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
/* the fallback name_simt: conv.cuh's filter, P 1, 128 threads */
#define SSAM__CONV2D_TC_SIMT(name, TS, T, M, N)                                                            \
    SSAM__CONV2D_DEFINE_X(name##_simt, "SSAM_CONV2D_TC_DEFINE(" #name ")",                                 \
                          " (the SIMT fallback's, P 1: N at most 48 for float, 96 for double, 24 for half)",  \
                          TS, T, M, N, 1, 128, 1)

/* the policy (the last argument of SSAM_CONV2D_TC_DEFINE): QY 16-row fragments and JX 8-column tiles
 * a warp, WY x WX warps, MINB blocks per SM (__launch_bounds__); 0: the MODE's default */
template <int QY_ = 0, int JX_ = 0, int WY_ = 0, int WX_ = 0, int MINB_ = 0>
struct ssam_conv_tc_policy {
    enum { qy = QY_, jx = JX_, wy = WY_, wx = WX_, minb = MINB_ };
};
/* value: POL_ is an ssam_conv_tc_policy; type: POL_, else the default policy (the generator's one sentence) */
template <class POL_>
struct ssam__is_conv_tc_policy : onchip_policy<ssam_conv_tc_policy, POL_> {};
/* a policy's tile, its 0 fields the mode's defaults QY0, JX0, MINB0 and WY = WX = 2 */
template <class POL_, int QY0, int JX0, int MINB0>
struct ssam__conv_tc_resolve {
    typedef typename ssam__is_conv_tc_policy<POL_>::type pol;
    enum {
        qy = int(pol::qy) ? int(pol::qy) : QY0, jx = int(pol::jx) ? int(pol::jx) : JX0,
        wy = int(pol::wy) ? int(pol::wy) : 2, wx = int(pol::wx) ? int(pol::wx) : 2,
        minb = int(pol::minb) ? int(pol::minb) : MINB0
    };
};

#define SSAM_CONV2D_TC_DEFINE(name, MODE, M, N, ...)                                                       \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                                  \
    static_assert(ssam__is_conv_tc_policy<name##_policy>::value, "SSAM_CONV2D_TC_DEFINE(" #name            \
                  "): the last argument must be an ssam_conv_tc_policy<QY, JX, WY, WX, MINB>");            \
    typedef ssam__conv_tc_resolve<name##_policy, SSAM_TC_QY_##MODE, SSAM_TC_JX_##MODE, SSAM_TC_MINB_##MODE(M)> \
        name##__tct;                                                                                       \
    SSAM__CONV2D_TC_X(name, MODE, M, N, name##__tct::qy, name##__tct::jx, name##__tct::wy, name##__tct::wx, \
                      name##__tct::minb)
/* the fallback, the tile's checks, the kernel, name_plan, name_run and name_launch of one resolved tile */
#define SSAM__CONV2D_TC_X(name, MODE, M, N, QY, JX, WY, WX, MINB)                                           \
    SSAM__TC_SIMT_##MODE(name, M, N)                                                                       \
    typedef ssam__conv_tc_sizes<SSAM_TC_T_##MODE, SSAM_TC_W_##MODE, M, N, QY, JX, WY, WX> name##__tcz;     \
    static_assert(name##__tcz::tile, "SSAM_CONV2D_TC_DEFINE(" #name "): the policy's QY, JX, WY, WX must be " \
                  "0 (the mode's default) or more and WY x WX at most 32 warps");                          \
    static_assert(!name##__tcz::tile || name##__tcz::smem <= ONCHIP_SMEM_OPTIN_MAX,                        \
                  "SSAM_CONV2D_TC_DEFINE(" #name "): the staged tile and weights exceed 227 KB of shared memory; " \
                  "use a smaller tile (the policy's QY, JX, WY, WX) or conv.cuh");                         \
    __global__ void __launch_bounds__(32 * (WY) * (WX), MINB)                                              \
        name##_kernel(const SSAM_TC_T_##MODE *__restrict__ src, SSAM_TC_T_##MODE *__restrict__ dst,        \
                      ssam_conv2d_geom g, const __grid_constant__ name##_simt_weights wt)                  \
    {                                                                                                      \
        if constexpr (name##_simt__lim::ok && name##__tcz::ok)                                             \
            ssam_conv2d_tc_body<ssam_tc_mode_##MODE, M, N, QY, JX, WY, WX>(src, dst, g, wt.w);             \
    }                                                                                                      \
    SSAM__CONV2D_TC_HOST(name, M, N)

/* name_plan, name_run and name_launch (none under NVRTC); name__kern: the instance as
 * ssam__conv2d_tc_plan and ssam__conv2d_tc_run see it */
#ifndef __CUDACC_RTC__
#define SSAM__CONV2D_TC_HOST(name, M, N)                                                                   \
    static inline __attribute__((unused)) ssam__conv_tc_kern name##__kern(void)                            \
    {                                                                                                      \
        const ssam__conv_tc_kern k = {(const void *)name##_kernel, name##_simt_plan, name##_simt_launch,     \
                                      sizeof(((name##_simt_weights *)0)->w[0]), M, N, name##__tcz::VW,     \
                                      name##__tcz::BH, name##__tcz::BWD, name##__tcz::NT, name##__tcz::smem}; \
        return k;                                                                                          \
    }                                                                                                      \
    SSAM__VERBS(name, ssam_conv2d_args, ssam__conv_tc_kern, name##_simt_weights, ssam__conv2d_tc_plan,     \
                ssam__conv2d_tc_run)
#else
#define SSAM__CONV2D_TC_HOST(name, M, N)
#endif

#endif /* SSAM_CONV_TC_CUH */
#include <onchip/names_pop.h>
