#include <onchip/names_push.h>
/* ssam/stencil_tc/define.cuh -- SSAM_STENCIL3D_TC_DEFINE and SSAM_STENCIL2D_TC_DEFINE: the modes, the
 * default tiles, ssam_stencil_tc_policy, the checks, kernels and verbs. */
#ifndef SSAM_STENCIL_TC_DEFINE_CUH
#define SSAM_STENCIL_TC_DEFINE_CUH

#include "../conv_tc/frag.cuh"
#include "../stencil.cuh"
#include "body.cuh"
#include "host.cuh"
#include "sizes.cuh"

/* the default tile of each mode, 3D and 2D (a policy's 0 fields); why: docs/ssam.md#stencil-tc-design */
#define SSAM_STC3_TILE_f64 1, 1, 1, 4, 4 /* D, JX, WY, WX, MINB */
#define SSAM_STC3_TILE_tf32 2, 1, 1, 4, 3
#define SSAM_STC3_TILE_tf32x3 1, 1, 1, 4, 4
#define SSAM_STC2_TILE_f64 1, 2, 2, 4, 1
#define SSAM_STC2_TILE_tf32 2, 2, 1, 4, 1
#define SSAM_STC2_TILE_tf32x3 1, 1, 1, 4, 1
/* conv_tc.cuh's half modes: refused by the generators with a sentence (MODE must be f64, tf32 or tf32x3) */
#define SSAM_STC3_TILE_f16 1, 1, 1, 4, 1
#define SSAM_STC3_TILE_bf16 1, 1, 1, 4, 1
#define SSAM_STC2_TILE_f16 1, 1, 1, 4, 1
#define SSAM_STC2_TILE_bf16 1, 1, 1, 4, 1

/* the modes this header serves; ::type the SIMT fallback's type (float for a refused mode, whose
 * sentence is then the only error) */
template <class MD>
struct ssam__stc_mode_ok : ssam__accept<0, float> {};
template <>
struct ssam__stc_mode_ok<ssam_tc_mode_f64> : ssam__accept<1, double> {};
template <>
struct ssam__stc_mode_ok<ssam_tc_mode_tf32> : ssam__accept<1, float> {};
template <>
struct ssam__stc_mode_ok<ssam_tc_mode_tf32x3> : ssam__accept<1, float> {};
#define SSAM__STC_SIMT_T(MODE) typename ssam__stc_mode_ok<ssam_tc_mode_##MODE>::type

/* ---- the generators -------------------------------------------------------------------------- */
/* the tile: D-dilated fragments, JX 8-column tiles a warp, WY x WX warps, MINB blocks per SM; a 0
 * field the MODE's default (SSAM_STC3_TILE_MODE, SSAM_STC2_TILE_MODE) */
template <int D_ = 0, int JX_ = 0, int WY_ = 0, int WX_ = 0, int MINB_ = 0>
struct ssam_stencil_tc_policy {
    enum { d = D_, jx = JX_, wy = WY_, wx = WX_, minb = MINB_ };
};
/* value 1 for an ssam_stencil_tc_policy, and its fields; another type: 0 and the defaults' zeros */
template <class X>
struct ssam__is_stencil_tc_policy : onchip_policy<ssam_stencil_tc_policy, X>::type {
    enum { value = onchip_policy<ssam_stencil_tc_policy, X>::value };
};
/* field F (K-th of the tile lists) of name_policy, or the MODE's default where it is 0 */
#define SSAM__STC_TILE(name, DIMS, MODE, F, K)                                                          \
    (ssam__is_stencil_tc_policy<name##_policy>::F ? (int)ssam__is_stencil_tc_policy<name##_policy>::F   \
                                                  : SSAM__STC_PICK(K, SSAM_STC##DIMS##_TILE_##MODE))
#define SSAM__STC_PICK(K, ...) SSAM__STC_PICK_(SSAM__STC_F##K, __VA_ARGS__)
#define SSAM__STC_PICK_(F, ...) F(__VA_ARGS__)
#define SSAM__STC_F0(d, jx, wy, wx, minb) d
#define SSAM__STC_F1(d, jx, wy, wx, minb) jx
#define SSAM__STC_F2(d, jx, wy, wx, minb) wy
#define SSAM__STC_F3(d, jx, wy, wx, minb) wx
#define SSAM__STC_F4(d, jx, wy, wx, minb) minb
/* 3D and 2D: the policy's check and tile, then the SIMT fallback (name_simt: stencil.cuh's kernel
 * of the shape, P 1, 128 threads) and the tensor-core kernel */
#define SSAM_STENCIL3D_TC_DEFINE(name, MODE, SHAPE, ...)                                                \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                               \
    SSAM__STC_POLICY(name, "SSAM_STENCIL3D_TC_DEFINE(" #name ")", 3, MODE, SHAPE)
#define SSAM_STENCIL2D_TC_DEFINE(name, MODE, SHAPE, ...)                                                \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                               \
    SSAM__STC_POLICY(name, "SSAM_STENCIL2D_TC_DEFINE(" #name ")", 2, MODE, SHAPE)
#define SSAM__STC_POLICY(name, WHO, DIMS, MODE, SHAPE)                                                  \
    static_assert(ssam__is_stencil_tc_policy<name##_policy>::value,                                     \
                  WHO ": the last argument must be an ssam_stencil_tc_policy<D, JX, WY, WX, MINB>");    \
    SSAM__STC##DIMS##_GEN(name, WHO, MODE, SHAPE, SSAM__STC_TILE(name, DIMS, MODE, d, 0),               \
                          SSAM__STC_TILE(name, DIMS, MODE, jx, 1), SSAM__STC_TILE(name, DIMS, MODE, wy, 2), \
                          SSAM__STC_TILE(name, DIMS, MODE, wx, 3), SSAM__STC_TILE(name, DIMS, MODE, minb, 4))
#define SSAM__STC3_GEN(name, WHO, MODE, SHAPE, D, JX, WY, WX, MINB)                                     \
    SSAM__STC_MODE_CHECK(WHO, MODE)                                                                     \
    SSAM__STENCIL3D_ONEPASS(name##_simt, WHO, SSAM__STC_SIMT_T(MODE), SHAPE, 1, 128, 1,                 \
                            SSAM__STENCIL3D_RULE(name##_simt, SSAM__STC_SIMT_T(MODE)),                  \
                            SSAM__STENCIL_GHM_DEFAULT(SSAM__STC_SIMT_T(MODE), name##_simt_XLO, name##_simt_XHI), \
                            SSAM__STENCIL3D_TRIM_DEFAULT, SSAM_SCHEDULE_AUTO)                           \
    SSAM__STENCIL_TC_GEN(name, WHO, MODE, 3, name##_simt_ZLO, name##_simt_ZHI, D, JX, WY, WX, MINB)
#define SSAM__STC2_GEN(name, WHO, MODE, SHAPE, D, JX, WY, WX, MINB)                                     \
    SSAM__STC_MODE_CHECK(WHO, MODE)                                                                     \
    SSAM__STENCIL2D_ONEPASS(name##_simt, WHO, SSAM__STC_SIMT_T(MODE), SSAM__STC_SIMT_T(MODE), SHAPE, 1, 128, 1, \
                            SSAM__STENCIL_GHM_DEFAULT(SSAM__STC_SIMT_T(MODE), name##_simt_XLO, name##_simt_XHI), -1) \
    SSAM__STENCIL_TC_GEN(name, WHO, MODE, 2, 0, 0, D, JX, WY, WX, MINB)
#define SSAM__STC_MODE_CHECK(WHO, MODE)                                                                 \
    static_assert(ssam__stc_mode_ok<ssam_tc_mode_##MODE>::value, WHO ": MODE must be f64, tf32 or tf32x3");
/* the kernel, name_plan, name_run, name_launch over name_simt (stencil.cuh's definition of the same
 * shape, which supplies the extents, name_simt_ncoef and the fallback) */
#define SSAM__STENCIL_TC_GEN(name, WHO, MODE, DIMS, ZLO_, ZHI_, D, JX, WY, WX, MINB)                    \
    enum {                                                                                              \
        name##_NPTS = name##_simt_NPTS, name##_XLO = name##_simt_XLO, name##_XHI = name##_simt_XHI,     \
        name##_YLO = name##_simt_YLO, name##_YHI = name##_simt_YHI, name##_ZLO = (ZLO_), name##_ZHI = (ZHI_), \
        name##__NX = name##_XHI - name##_XLO + 1, name##__NY = name##_YHI - name##_YLO + 1,             \
        name##__NZ = name##_ZHI - name##_ZLO + 1                                                        \
    };                                                                                                  \
    typedef struct name##_w { /* the box: coefficients, and which positions are points of the shape */  \
        SSAM_TC_T_##MODE w[name##__NX * name##__NY * name##__NZ];                                       \
        unsigned char in[name##__NX * name##__NY * name##__NZ];                                         \
    } name##_w;                                                                                         \
    typedef ssam__stc_sizes<SSAM_TC_T_##MODE, name##__NX, name##__NY, name##__NZ, name##_XLO, D, JX, WY, WX> name##__tcz; \
    SSAM__STENCIL_TC_CHECKS(name, WHO)                                                                  \
    __global__ void __launch_bounds__(32 * (WY) * (WX), MINB)                                           \
        name##_kernel(const SSAM_TC_T_##MODE *__restrict__ src, SSAM_TC_T_##MODE *__restrict__ dst,     \
                      ssam_stencil_geom g, const __grid_constant__ name##_w wt)                         \
    {                                                                                                   \
        if constexpr (name##__tcz::tile && ssam__stc_mode_ok<ssam_tc_mode_##MODE>::value)               \
            ssam__stencil_tc_body<ssam_tc_mode_##MODE, (DIMS) == 2, name##__NX, name##__NY, name##__NZ, name##_XLO, \
                                  name##_YLO, name##_ZLO, D, JX, WY, WX>(src, dst, g, wt.w, wt.in);     \
    }                                                                                                   \
    SSAM__STENCIL_TC_HOST(name, DIMS)
/* name_ncoef, name_plan, name_run and name_launch of a tensor-core stencil (host code: none under
 * NVRTC, where the generators emit the kernels only: name_kernel and the fallback's name_simt_kernel);
 * name__kern: the instance as ssam__stencil_tc_plan and ssam__stencil_tc_run see it, name__box its box */
#ifndef __CUDACC_RTC__
#define SSAM__STENCIL_TC_HOST(name, DIMS)                                                               \
    static inline __attribute__((unused)) int name##_ncoef(void) { return name##_simt_ncoef(); }        \
    static inline __attribute__((unused)) int name##__box(void *wt, const ssam_stencil_args *a)         \
    {                                                                                                   \
        return ssam__stc_box<name##_simt_shape, name##__NX, name##__NY, name##_XLO, name##_YLO, name##_ZLO>((name##_w *)wt, a); \
    }                                                                                                   \
    static inline __attribute__((unused)) ssam__stc_kern name##__kern(void)                             \
    {                                                                                                   \
        const ssam__stc_kern t = {(const void *)name##_kernel, name##__box, name##_simt_plan, name##_simt_run, DIMS, \
                                  name##_ncoef(), name##__tcz::BH, name##__tcz::BWD, name##__tcz::NT, name##__NZ, \
                                  sizeof(((name##_w *)0)->w[0]), name##__tcz::smem,                    \
                                  ssam__stencil_policies<name##_simt_shape>(DIMS)};                     \
        return t;                                                                                       \
    }                                                                                                   \
    static inline __attribute__((unused)) int name##_plan(const ssam_stencil_args *a, ssam_plan *p)     \
    {                                                                                                   \
        name##_w wt;                                                                                    \
        const ssam__stc_kern t = name##__kern();                                                        \
        return ssam__stencil_tc_plan(a, p, &t, &wt);                                                    \
    }                                                                                                   \
    SSAM__RUN_VERB(name, ssam_stencil_args, ssam__stc_kern, name##_w, ssam__stencil_tc_run)             \
    ONCHIP__LAUNCH_VERB(name, ssam_stencil_args, ssam_plan)
#else
#define SSAM__STENCIL_TC_HOST(name, DIMS)
#endif
/* the limits of a tensor-core stencil */
#define SSAM__STENCIL_TC_CHECKS(name, WHO)                                                              \
    static_assert(sizeof(name##_w) <= 31 * 1024,                                                        \
                  WHO ": the box's coefficients exceed 31 KB of kernel parameters; use stencil.cuh for this shape"); \
    static_assert(name##__tcz::tile, WHO ": the tile needs 1 <= D <= 7 (D 8 would need an odd row pitch, and the " \
                                     "fragments' paired loads even rows), JX >= 1 and 1 to 32 warps");  \
    static_assert(name##__tcz::smem <= ONCHIP_SMEM_OPTIN_MAX, WHO ": the ring of planes exceeds 227 KB of shared memory; use a " \
                                                   "smaller tile (the policy's D, JX, WY, WX) or stencil.cuh");

#endif /* SSAM_STENCIL_TC_DEFINE_CUH */
#include <onchip/names_pop.h>
