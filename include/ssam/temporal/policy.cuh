#include <onchip/names_push.h>
/* ssam/temporal/policy.cuh -- ssam_temporal_policy, and a 2D policy resolved for a type and a shape by
 * the planner's rules. */
#ifndef SSAM_TEMPORAL_POLICY_CUH
#define SSAM_TEMPORAL_POLICY_CUH

#include "../base.cuh"
#include "plan.h"

/* TT steps a pass, B threads a block, the SCHEDULE (SSAM_SCHEDULE_*, ssam/base.cuh), P rows a warp
 * (3D only), MINB blocks an SM (__launch_bounds__(B, MINB)); TT, B, P 0: the rule's (tbplan.h) */
template <int TT_ = 0, int B_ = 0, int SCHEDULE_ = SSAM_SCHEDULE_AUTO, int P_ = 0, int MINB_ = 1>
struct ssam_temporal_policy {
    enum { tt = TT_, b = B_, schedule = SCHEDULE_, p = P_, minb = MINB_ };
};
template <class X>
struct ssam__is_temporal_policy : onchip_policy<ssam_temporal_policy, X>::type {
    enum { value = onchip_policy<ssam_temporal_policy, X>::value };
};
/* a 2D policy resolved for T and the shape S: the schedule (AUTO: SMEM where SSAM_TB_SMEM_RULE says,
 * else REGS), TT (0: SSAM_TB_SMEM_TT_RULE or SSAM_TB_TT_RULE), B (0: 128) */
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb2_schedule(void)
{
    return POL::schedule != SSAM_SCHEDULE_AUTO ? (int)POL::schedule
           : SSAM_TB_SMEM_RULE(sizeof(T), S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::npts) ? SSAM_SCHEDULE_SMEM
                                                                                           : SSAM_SCHEDULE_REGS;
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb2_tt(void)
{
    return POL::tt != 0 ? (int)POL::tt
           : ssam__tb2_schedule<POL, T, S>() == SSAM_SCHEDULE_SMEM
               ? SSAM_TB_SMEM_TT_RULE(sizeof(T), S::yhi - S::ylo + 1)
               : SSAM_TB_TT_RULE(sizeof(T), S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::npts);
}
template <class POL>
static __host__ __device__ constexpr int ssam__tb2_b(void)
{
    return POL::b != 0 ? (int)POL::b : 128;
}

#endif /* SSAM_TEMPORAL_POLICY_CUH */
#include <onchip/names_pop.h>
