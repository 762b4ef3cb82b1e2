#include <onchip/names_push.h>
/* ssam/conv/define.cuh -- SSAM_CONV2D_DEFINE: an instantiation's limits, its kernels and verbs. */
#ifndef SSAM_CONV_DEFINE_CUH
#define SSAM_CONV_DEFINE_CUH

#include "../base.cuh"
#include "geometry.cuh"
#include "host.cuh"
#include "policy.cuh"
#include "queued.cuh"
#include "systolic.cuh"

#define SSAM_CONV2D_DEFINE(name, T, M, N, ...)                                                             \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                                  \
    static_assert(ssam__is_conv_policy<name##_policy>::value,                                              \
                  "SSAM_CONV2D_DEFINE(" #name "): the last argument must be an ssam_conv_policy<P, B, MINB>"); \
    typedef ssam__is_conv_policy<name##_policy>::type name##__pol;                                         \
    typedef ssam__conv_calc<T>::type name##__calc;                                                         \
    SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV2D_DEFINE(" #name ")", ": use a smaller P", T, name##__calc, M, N,  \
                          name##__pol::p, name##__pol::b, name##__pol::minb)

/* one instantiation's limits; ok: all hold (the bodies are instantiated only then: one sentence) */
template <class TS, class T, int M, int N, int P, int B>
struct ssam__conv2d_limits {
    enum {
        type = ssam__conv_types<TS, T>::ok, V = type ? SSAM_CONV_V(TS) : 4, size = M >= 1 && N >= 1,
        width = ((32 * V - M + 1 - (V - 1)) / V) * V >= V, step = P >= 1, cache = V * (P + N - 1) <= 192,
        block = B % 32 == 0 && B >= 32 && B <= ONCHIP_THREADS_PER_BLOCK_MAX,
        ok = type && size && width && step && cache && block
    };
};
#define SSAM__CONV2D_LIMITS(name, WHO, HINT, TS, T, M, N, P, B)                                             \
    typedef ssam__conv2d_limits<TS, T, M, N, P, B> name##__lim;                                            \
    static_assert(name##__lim::type, WHO ": T must be float, double, __half or __nv_bfloat16");             \
    static_assert(name##__lim::size, WHO ": M and N must be at least 1");                                   \
    static_assert(name##__lim::width, WHO ": M must be at most 30 V + 2 (122 for float, 62 for double, 242 for half storage)"); \
    static_assert(name##__lim::step, WHO ": P must be at least 1");                                         \
    static_assert(name##__lim::cache,                                                                      \
                  WHO ": the register cache of V (P + N - 1) values must be at most 192 registers" HINT);     \
    static_assert(name##__lim::block, WHO ": B must be a multiple of 32 from 32 to 1024");

/* the weights, the kernels, name_plan, name_run and name_launch; TS storage, T arithmetic; Q: the queued
 * walk's filters (else an empty qkernel); MINB is the systolic walk's; HINT ends the cache sentence */
#define SSAM__CONV2D_DEFINE_X(name, WHO, HINT, TS, T, M, N, P, B, MINB)                                     \
    SSAM__CONV2D_LIMITS(name, WHO, HINT, TS, T, M, N, P, B)                                                 \
    enum { name##__Q = SSAM__CONV_QOK(TS, M, N), name##__QD = SSAM__CONV_QD(TS, M, N) };                    \
    typedef struct name##_weights {                                                                        \
        T w[(M) * (N) > 0 ? (M) * (N) : 1];                                                                \
    } name##_weights;                                                                                      \
    __global__ void __launch_bounds__(B, MINB) name##_kernel(const TS *__restrict__ src, TS *__restrict__ dst, \
                                                             ssam_conv2d_geom g, name##_weights wt)         \
    { if constexpr (name##__lim::ok) ssam_conv2d_body<TS, T, M, N, P, B>(src, dst, g, wt.w); }               \
    __global__ void __launch_bounds__(B, 1) name##_qkernel(const TS *__restrict__ src, TS *__restrict__ dst,   \
                                                           ssam_conv2d_geom g, name##_weights wt)           \
    { if constexpr (name##__lim::ok && name##__Q) ssam_conv2d_qbody<TS, M, N, name##__QD, B>(src, dst, g, wt.w); } \
    SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)

/* name_plan, name_run and name_launch (host code: none under NVRTC, where the generators emit the
 * kernels only); name__kern: the instance as ssam__conv2d_plan and ssam__conv2d_run see it */
#ifndef __CUDACC_RTC__
#define SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)                                                         \
    static inline __attribute__((unused)) ssam__conv_kern name##__kern(void)                               \
    {                                                                                                      \
        const ssam__conv_kern k = {(const void *)name##_kernel, (const void *)name##_qkernel, sizeof(T), M, N, P, B, \
                                   SSAM_CONV_V(TS), SSAM_CONV_STEP(TS, M), name##__QD, name##__Q};         \
        return k;                                                                                          \
    }                                                                                                      \
    SSAM__VERBS(name, ssam_conv2d_args, ssam__conv_kern, name##_weights, ssam__conv2d_plan, ssam__conv2d_run)
#else
#define SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)
#endif

#endif /* SSAM_CONV_DEFINE_CUH */
#include <onchip/names_pop.h>
