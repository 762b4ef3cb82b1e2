#include <onchip/names_push.h>
/* onchip/policy.cuh -- a generator's last argument, its policy: a class template of named integers
 * (ssam_stencil_policy<P, B, MINB, SCHEDULE>, ksum_policy<...> ...), read the same way in every
 * family (C++; also CUDA and NVRTC).
 *
 * WHAT
 *   ONCHIP_POLICY_ARG(...)     the type a generator's `...` names: the policy given, or void where the
 *                              call gives none or more than one type (the generator's sentence says so)
 *   onchip_policy<TPL, X>      ::value 1 where X is an instance of the policy template TPL, and ::type
 *                              X; else ::value 0 and ::type TPL<> (the defaults, so that the generator's
 *                              sentence about X is its only error)
 *
 * EXAMPLE
 *   [compile]
 *   #include <onchip/policy.cuh>
 *   template <int P_ = 8, int B_ = 128> struct my_policy { enum { p = P_, b = B_ }; };
 *   typedef ONCHIP_POLICY_ARG(my_policy<4>) given;
 *   static_assert(onchip_policy<my_policy, given>::value && onchip_policy<my_policy, given>::type::b == 128, "");
 *   static_assert(!onchip_policy<my_policy, ONCHIP_POLICY_ARG()>::value, "no policy given");
 *
 * LIMITS
 *   A policy template's parameters are ints, each with a default.
 */
#ifndef ONCHIP_POLICY_CUH
#define ONCHIP_POLICY_CUH

template <class F>
struct onchip__policy_arg {
    typedef void type;
};
template <class X>
struct onchip__policy_arg<void(X)> {
    typedef X type;
};
#define ONCHIP_POLICY_ARG(...) onchip__policy_arg<void(__VA_ARGS__)>::type

template <template <int...> class TPL, class X>
struct onchip_policy {
    enum { value = 0 };
    typedef TPL<> type;
};
template <template <int...> class TPL, int... V>
struct onchip_policy<TPL, TPL<V...> > {
    enum { value = 1 };
    typedef TPL<V...> type;
};

#endif /* ONCHIP_POLICY_CUH */
#include <onchip/names_pop.h>
