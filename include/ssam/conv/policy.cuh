#include <onchip/names_push.h>
/* ssam/conv/policy.cuh -- ssam_conv_policy, and the storage and arithmetic types the generators take. */
#ifndef SSAM_CONV_POLICY_CUH
#define SSAM_CONV_POLICY_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../base.cuh"

/* the policy (the last argument of SSAM_CONV2D_DEFINE): P output rows a step of the systolic walk,
 * B threads a block, MINB the systolic walk's __launch_bounds__ minimum blocks per SM */
template <int P_ = 4, int B_ = 128, int MINB_ = 1>
struct ssam_conv_policy {
    enum { p = P_, b = B_, minb = MINB_ };
};
/* value: POL_ is an ssam_conv_policy; type: POL_, else the default policy (the generator's one sentence) */
template <class POL_>
struct ssam__is_conv_policy : onchip_policy<ssam_conv_policy, POL_> {};
/* the arithmetic type of a storage type: float for __half and __nv_bfloat16 */
template <class TS>
struct ssam__conv_calc {
    typedef TS type;
};
template <>
struct ssam__conv_calc<__half> {
    typedef float type;
};
template <>
struct ssam__conv_calc<__nv_bfloat16> {
    typedef float type;
};
/* the (storage, arithmetic) types the generators take: float, double, __half or __nv_bfloat16 with
 * its arithmetic type */
template <class TS, class T>
struct ssam__conv_types {
    enum {
        ok = ssam__type_in<TS, float, double, __half, __nv_bfloat16>::ok &&
             ssam__same<T, typename ssam__conv_calc<TS>::type>::value
    };
};

#endif /* SSAM_CONV_POLICY_CUH */
#include <onchip/names_pop.h>
