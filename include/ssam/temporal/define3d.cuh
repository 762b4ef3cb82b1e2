#include <onchip/names_push.h>
/* ssam/temporal/define3d.cuh -- SSAM_STENCIL3D_TEMPORAL_DEFINE: a 3D policy resolved, the checks and
 * kernels. */
#ifndef SSAM_TEMPORAL_DEFINE3D_CUH
#define SSAM_TEMPORAL_DEFINE3D_CUH

#include "body3d.cuh"
#include "define2d.cuh"
#include "host3d.cuh"
#include "plan.h"

/* a 3D policy resolved for T and the shape S: the schedule (AUTO: ZCOL where SSAM_TB3_ZCOL_RULE says,
 * else RING where SSAM_TB3_RING_RULE says, else SMEM), and TT, P, B (0: the schedule's rules) */
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_schedule(void)
{
    return POL::schedule != SSAM_SCHEDULE_AUTO ? (int)POL::schedule
           : SSAM_TB3_ZCOL_RULE(S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1, S::npts,
                                ssam__tb3z_fits(S()))
               ? SSAM_SCHEDULE_ZCOL
           : SSAM_TB3_RING_RULE(S::npts) ? SSAM_SCHEDULE_RING
                                         : SSAM_SCHEDULE_SMEM;
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_tt(void)
{
    return POL::tt != 0 ? (int)POL::tt
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL
               ? SSAM_TB3_ZCOL_TT_RULE(S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1)
               : SSAM_TB3_TT_RULE(sizeof(T), S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1, S::npts);
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_p(void)
{
    return POL::p != 0 ? (int)POL::p
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL ? SSAM_TB3_ZCOL_P_RULE : SSAM_TB3_P_RULE;
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_b(void)
{
    return POL::b != 0 ? (int)POL::b
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL ? SSAM_TB3_ZCOL_B_RULE : SSAM_TB3_B_RULE(S::npts);
}
/* the bodies' MODE: 0 shared rings (SMEM), 1 with the register ring (RING), 2 the z-column (ZCOL) */
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_mode(void)
{
    return ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL   ? 2
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_RING ? 1
                                                                   : 0;
}

/* SSAM_STENCIL3D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE, P>): the
 * union of the schedules' names, the kernels of the others empty (why: docs/ssam.md#temporal-policy) */
#define SSAM_STENCIL3D_TEMPORAL_DEFINE(name, T, SHAPE, ...)                                             \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                                \
    SSAM__TB3_DEFINE(name, "SSAM_STENCIL3D_TEMPORAL_DEFINE(" #name ")", T, typename ssam__stencil_real<T>::type, SHAPE, \
                     (ssam__tb3_tt<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb3_p<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb3_b<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb3_mode<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()))
/* WHO the sentences' subject, RT the real type of T, TT, P, B and MODE resolved */
#define SSAM__TB3_DEFINE(name, WHO, T, RT, SHAPE, TT, P, B, MODE)                                       \
    static_assert(ssam__is_temporal_policy<name##_policy>::value,                                       \
                  WHO ": the last argument must be an ssam_temporal_policy<TT, B, SCHEDULE, P, MINB>"); \
    static_assert(SSAM__TB_AUTO(name) || name##_policy::schedule == SSAM_SCHEDULE_SMEM ||               \
                      name##_policy::schedule == SSAM_SCHEDULE_RING || name##_policy::schedule == SSAM_SCHEDULE_ZCOL, \
                  WHO ": SCHEDULE must be SSAM_SCHEDULE_AUTO, SSAM_SCHEDULE_SMEM, SSAM_SCHEDULE_RING or SSAM_SCHEDULE_ZCOL"); \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 3)                                                        \
    enum { name##_ZLO = name##_shape::zlo, name##_ZHI = name##_shape::zhi };                            \
    SSAM__TB_CHECKS(WHO, TT, B)                                                                         \
    static_assert((P) >= 1, WHO ": P (output rows per lane) must be at least 1, or 0 for the rule's");  \
    SSAM__TB3_ONEPASS(name##_onepass, WHO, RT, SHAPE, SSAM__TB_AUTO(name))                              \
    SSAM__STENCIL_COMMON(name##_tb, WHO, RT, SHAPE, 3)                                                  \
    enum { name##_tb_ZLO = name##_tb_shape::zlo, name##_tb_ZHI = name##_tb_shape::zhi };                \
    SSAM__TB3_KERNEL(name##_tb, WHO, RT, TT, P, B, name##_policy::minb, SSAM__TB_AUTO(name) && (TT) >= 2, MODE) \
    SSAM__TB3_HOST(name##_tb, RT, TT, P, B, SSAM__TB_AUTO(name) && (TT) >= 2, MODE)                     \
    SSAM__TB3_KERNEL(name, WHO, T, TT, P, B, name##_policy::minb, !SSAM__TB_AUTO(name), MODE)           \
    SSAM__TB3_NAME_HOST(name, T, TT, P, B, MODE)
/* AUTO's one-pass kernel, SSAM_STENCIL3D_DEFINE's (P 4 fp32 / 2 fp64, 128 threads, the slice body
 * where SSAM_STENCIL3D_SLICE_RULE says); ON 0: an empty kernel, name_launch SSAM_ESIZE */
#define SSAM__TB3_ONEPASS(name, WHO, T, SHAPE, ON)                                                      \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 3)                                                        \
    enum { name##_ZLO = name##_shape::zlo, name##_ZHI = name##_shape::zhi };                            \
    enum { name##_SLICE = SSAM__STENCIL3D_RULE(name, T) };                                              \
    static_assert(!(ON) || ssam__stencil3d_wregs<T, name##_shape, SSAM__TB3_ONEPASS_P(T), name##_SLICE>() <= 192, \
                  WHO ": the one-pass kernel's register window exceeds 192 registers; SHAPE is too large"); \
    __global__ void __launch_bounds__(128, 1)                                                           \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        if constexpr ((ON) != 0)                                                                        \
            ssam__stencil3d_any_body<T, name##_shape, SSAM__TB3_ONEPASS_P(T), 128, name##_SLICE,        \
                                     SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI),              \
                                     SSAM__STENCIL3D_TRIM_DEFAULT>(src, dst, g, cf.c);                  \
    }                                                                                                   \
    SSAM__TB3_ONEPASS_HOST(name, T, SSAM__TB3_ONEPASS_P(T), SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), ON)
#define SSAM__TB3_ONEPASS_P(T) (sizeof(T) == 4 ? 4 : 2)
/* a 3D temporal kernel after its SSAM__STENCIL_COMMON and z extents: ON 0 an empty one, no limit
 * checked; MODE 0 shared rings, 1 the register ring, 2 the z-column (NZ - 1 planes a level) */
#define SSAM__TB3_KERNEL(name, WHO, T, TT, P, B, MINB, ON, MODE)                                        \
    enum {                                                                                              \
        name##_TT = (TT), name##_STEPX = SSAM_TEMPORAL_STEP(SSAM_STENCIL_V(T), name##_XLO, name##_XHI, TT), \
        name##_STEPY = (B) / 32 * (P) - (TT) * (name##_YHI - name##_YLO),                               \
        name##_SMEM = (int)SSAM_TEMPORAL3D_SMEM(TT, name##_ZHI - name##_ZLO + 1 - ((MODE) == 2 ? 2 : 0), \
                                                (B) / 32 * (P), name##_YLO, name##_YHI) /* ZCOL: NZ - 1 planes */ \
    };                                                                                                  \
    SSAM__TB3_CHECKS(name, WHO, T, ON)                                                                  \
    static_assert(!(ON) || (MODE) != 2 || ssam__tb3z_fits(name##_shape()),                              \
                  WHO ": SHAPE must read only the cell's own row off the centre plane (DY = 0 where DZ != 0) " \
                  "and reach both z neighbours, as 3d7pt and 3d13pt do; use SSAM_SCHEDULE_SMEM or SSAM_SCHEDULE_RING"); \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, int L, name##_coef cf) \
    {                                                                                                   \
        if constexpr ((ON) != 0)                                                                        \
            ssam__tb3_any_body<T, name##_shape, SSAM__TB_TT(TT), SSAM__STENCIL_P(P), B, MODE>(src, dst, g, L, cf.c); \
    }
/* the limits of a 3D temporal kernel (ON 0: none) */
#define SSAM__TB3_CHECKS(name, WHO, T, ON)                                                              \
    static_assert(!(ON) || name##_STEPY >= 1,                                                           \
                  WHO ": TT times the y extent leaves no tile row to store; raise B or P, or lower TT"); \
    static_assert(!(ON) || name##_STEPX >= SSAM_STENCIL_V(T),                                           \
                  WHO ": TT times the x radius leaves no column of the warp to store; lower TT");       \
    static_assert(!(ON) || name##_SMEM <= ONCHIP_SMEM_OPTIN_MAX,                                        \
                  WHO ": TT levels of the tile's planes (NZ + 1 a level, NZ - 1 with SSAM_SCHEDULE_ZCOL) exceed 227 KB of shared memory; lower TT, P or B"); \
    static_assert(!(ON) || SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) * (name##_ZHI - name##_ZLO + 1) *   \
                                   (name##_YHI - name##_YLO + 1) <= 128,                                \
                  WHO ": the shape's NZ x NY window exceeds 128 registers; SSAM_SCHEDULE_AUTO runs it one pass per step");

#endif /* SSAM_TEMPORAL_DEFINE3D_CUH */
#include <onchip/names_pop.h>
