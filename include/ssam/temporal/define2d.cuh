#include <onchip/names_push.h>
/* ssam/temporal/define2d.cuh -- SSAM_STENCIL2D_TEMPORAL_DEFINE: its checks and kernels. */
#ifndef SSAM_TEMPORAL_DEFINE2D_CUH
#define SSAM_TEMPORAL_DEFINE2D_CUH

#include "../stencil.cuh"
#include "body2d.cuh"
#include "host.cuh"
#include "policy.cuh"
#include "staged2d.cuh"

/* SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE>): the union
 * of the schedules' names, the kernels of the others empty (why: docs/ssam.md#temporal-policy) */
#define SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, ...)                                             \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                               \
    SSAM__TB2_DEFINE(name, "SSAM_STENCIL2D_TEMPORAL_DEFINE(" #name ")", T, typename ssam__stencil_real<T>::type, SHAPE, \
                     (ssam__tb2_tt<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb2_b<name##_policy>()),                                                    \
                     (ssam__tb2_schedule<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>() == \
                      SSAM_SCHEDULE_SMEM))
#define SSAM__TB_AUTO(name) (name##_policy::schedule == SSAM_SCHEDULE_AUTO)
/* WHO the sentences' subject, RT the real type of T, TT, B and SM (the staged body) resolved */
#define SSAM__TB2_DEFINE(name, WHO, T, RT, SHAPE, TT, B, SM)                                            \
    static_assert(ssam__is_temporal_policy<name##_policy>::value,                                       \
                  WHO ": the last argument must be an ssam_temporal_policy<TT, B, SCHEDULE, P, MINB>"); \
    static_assert(SSAM__TB_AUTO(name) || name##_policy::schedule == SSAM_SCHEDULE_REGS ||               \
                      name##_policy::schedule == SSAM_SCHEDULE_SMEM,                                    \
                  WHO ": SCHEDULE must be SSAM_SCHEDULE_AUTO, SSAM_SCHEDULE_REGS or SSAM_SCHEDULE_SMEM"); \
    static_assert(name##_policy::p == 0, WHO ": P (rows per warp) is the 3D kernels'; leave it 0");     \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    SSAM__TB_CHECKS(WHO, TT, B)                                                                         \
    SSAM__TB2_ONEPASS(name##_onepass, WHO, RT, SHAPE, SSAM__TB_AUTO(name))                              \
    SSAM__STENCIL_COMMON(name##_tb, WHO, RT, SHAPE, 2)                                                  \
    SSAM__TB2_KERNEL(name##_tb, WHO, RT, TT, B, name##_policy::minb, SSAM__TB_AUTO(name) && (TT) >= 2, SM) \
    SSAM__TB2_HOST(name##_tb, RT, TT, B, SSAM__TB_AUTO(name) && (TT) >= 2)                              \
    SSAM__TB2_KERNEL(name, WHO, T, TT, B, name##_policy::minb, !SSAM__TB_AUTO(name), SM)                \
    SSAM__TB2_NAME_HOST(name, T, TT, B)
/* the policy's TT and B, resolved */
#define SSAM__TB_CHECKS(WHO, TT, B)                                                                     \
    static_assert((TT) >= 1, WHO ": TT (steps per pass) must be at least 1, or 0 for the rule's");      \
    static_assert((B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX,                    \
                  WHO ": B must be a multiple of 32 from 32 to 1024, or 0 for the rule's");
/* AUTO's one-pass kernel, SSAM_STENCIL2D_DEFINE's (P by SSAM__TB_ONEPASS_P, 128 threads; its window
 * always fits); ON 0: an empty kernel, name_launch SSAM_ESIZE */
#define SSAM__TB2_ONEPASS(name, WHO, T, SHAPE, ON)                                                      \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    __global__ void __launch_bounds__(128, 1)                                                           \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        if constexpr ((ON) != 0)                                                                        \
            ssam__stencil2d_body<T, T, name##_shape, SSAM__TB_ONEPASS_P(T, name##_YHI - name##_YLO + 1), 128, \
                                 SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI)>(src, dst, g, cf.c); \
    }                                                                                                   \
    SSAM__TB2_ONEPASS_HOST(name, T, SSAM__TB_ONEPASS_P(T, name##_YHI - name##_YLO + 1),                 \
                           SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), ON)
/* a temporal kernel after its SSAM__STENCIL_COMMON: ON 0 an empty one, no limit checked; SM 1 the
 * staged body (level 0's window in shared memory) */
#define SSAM__TB2_KERNEL(name, WHO, T, TT, B, MINB, ON, SM)                                             \
    enum { name##_TT = (TT), name##_STEP = SSAM_TEMPORAL_STEP(SSAM_STENCIL_V(T), name##_XLO, name##_XHI, TT), \
           name##_SMEM = (SM) ? SSAM_TEMPORAL_SMEM_BYTES(name##_YHI - name##_YLO + 1, B) : 0 };         \
    static_assert(!(ON) || (SSAM__TB_TT(TT) - (SM)) * (name##_YHI - name##_YLO + 1) * SSAM_STENCIL_V(T) * \
                                   (int)(sizeof(T) / 4) <= SSAM_TEMPORAL_MAXREGS,                       \
                  WHO ": the TT windows of NY rows exceed 160 registers; lower TT");                    \
    static_assert(!(ON) || name##_STEP >= SSAM_STENCIL_V(T),                                            \
                  WHO ": TT times the x radius leaves no column of the warp to store; lower TT");       \
    static_assert(!(ON) || name##_SMEM <= ONCHIP_SMEM_OPTIN_MAX,                                        \
                  WHO ": the staged input rows, 2 (NY + 3) rows of 512 bytes a warp, exceed 227 KB of shared memory; lower B"); \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, int L, name##_coef cf) \
    {                                                                                                   \
        if constexpr (!(ON)) {                                                                          \
        } else if constexpr ((SM) != 0)                                                                 \
            ssam__tb2s_body<T, name##_shape, SSAM__TB_TT(TT), B>(src, dst, g, L, cf.c);                 \
        else                                                                                            \
            ssam__tb2_body<T, name##_shape, SSAM__TB_TT(TT), B>(src, dst, g, L, cf.c);                  \
    }
/* TT as the bodies take it: at least 1 (TT < 1 is refused by a sentence, not by the body) */
#define SSAM__TB_TT(TT) ((TT) >= 1 ? (TT) : 1)
/* the one-pass kernel's rows per lane: 8 for shapes of up to 5 rows (3 in fp64), 4 beyond */
#define SSAM__TB_ONEPASS_P(T, NY) (((NY) <= 3 || (sizeof(T) == 4 && (NY) <= 5)) ? 8 : 4)

#endif /* SSAM_TEMPORAL_DEFINE2D_CUH */
#include <onchip/names_pop.h>
