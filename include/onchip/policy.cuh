#include <onchip/names_push.h>
/* onchip/policy.cuh -- a generator's last argument, its policy (a class template of named ints with
 * defaults: ssam_stencil_policy<P, B, MINB, SCHEDULE>, ksum_policy<...>), read alike in every family.
 *
 * WHAT
 *   ONCHIP_POLICY_ARG(...)  the policy type a generator's `...` gives; void for none or several
 *   onchip_policy<TPL, X>   ::value 1 and ::type X where X is a TPL<...>; else 0 and TPL<> (the
 *                           defaults: the generator's sentence about X is then its only error)
 *
 * EXAMPLE
 *   [compile]
 *   #include <onchip/policy.cuh>
 *   template <int P_ = 8, int B_ = 128> struct my_policy { enum { p = P_, b = B_ }; };
 *   typedef onchip_policy<my_policy, ONCHIP_POLICY_ARG(my_policy<4>)> given;
 *   static_assert(given::value && given::type::b == 128, "");
 *   static_assert(!onchip_policy<my_policy, ONCHIP_POLICY_ARG()>::value, "no policy given");
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
