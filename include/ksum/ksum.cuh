#include <onchip/names_push.h>
/* ksum/ksum.cuh -- fused kernel summation V = K(A, B) W: one kernel, no m x n matrix in memory.
 *
 * WHAT (Wang et al., fused kernel summation, Algorithm 2, generalised)
 *   KSUM_DEFINE(name, T, KERNEL, ksum_policy<R, MINB, SCHEDULE, WIDE_RES, WIDE_STREAM>) defines
 *       __global__ void name_norms(...), name_kernel(...)    the pre-pass and the fused kernel
 *       int name_plan(const ksum_args *a, ksum_plan *p)       checks a, chooses the path (p->path,
 *                                                            p->why: plan.h), launches nothing
 *       int name_run(const ksum_args *a, const ksum_plan *p, cudaStream_t s)   launches p for a
 *       int name_launch(const ksum_args *a, cudaStream_t s)  name_plan, then name_run; 0 or KSUM_E*
 *   computing, for targets a (m x dim) and sources b (n x dim), both point-major (see base.cuh),
 *       v[i][r] = sum_j KERNEL(|a_i - b_j|, h) * w[j][r]        (r < nrhs <= R)
 *   KERNEL is KSUM_GAUSS, KSUM_LAPLACE, KSUM_CAUCHY, KSUM_MATERN32, KSUM_MATERN52, KSUM_IMQ or a
 *   pair of macros of one's own (epilogue.cuh).  T: float (KSUM_PATH_STAGED, also
 *   name_kernel_stream), double (KSUM_PATH_REGS, microtile 4 x 4), ksum_tf32 / ksum_tf32x3 (float
 *   data, dot products on TF32 tensor cores, one pass or three: include tc.cuh).
 *   KSUM_REGS_DEFINE(name, T, KERNEL, ksum_regs_policy<R, TM, TN, MINB>): the register-staged kernel
 *   (KSUM_PATH_REGS; the same functions), microtile TM x TN (4 or 8 each; block tile 16 TM x 16 TN),
 *   19 KB of static shared memory; T float, double, ksum_tf32 / ksum_tf32x3 (tc.cuh).
 *   The fields (every one defaulted; 0 means the default):
 *     R      right-hand sides (1): w is n x nrhs, nrhs <= R at run time
 *     MINB   __launch_bounds__ blocks per SM (0: double 1, else 2 for R = 1 and 1 above)
 *     TM, TN the microtile (0: 8 x 8, double 4 x 4; ksum_tf32: 8 x 8 only)
 *     SCHEDULE, WIDE_RES, WIDE_STREAM: T ksum_tf32 / ksum_tf32x3 only (tc.cuh)
 *
 * EXAMPLE
 *   [compile: const float *d_targets, *d_sources, *d_weights; float *d_out; int M, N, D; cudaStream_t stream]
 *     #include <ksum/ksum.cuh>
 *     KSUM_DEFINE(gauss_f32, float, KSUM_GAUSS, ksum_policy<>)
 *
 *     ksum_args k = {};
 *     k.a = d_targets; k.b = d_sources; k.w = d_weights; k.v = d_out;
 *     k.m = M; k.n = N; k.dim = D; k.h = 0.5;
 *     ksum_plan p;
 *     int rc = gauss_f32_plan(&k, &p);                   // 0 or KSUM_E*; p.why says why
 *     if (!rc) rc = gauss_f32_run(&k, &p, stream);       // or gauss_f32_launch(&k, stream)
 *
 * ACCURACY  distances from norms: data far from the origin loses digits (centre it);
 *   docs/ksum.md#accuracy.
 *
 * LIMITS AND COSTS
 *   m, n, dim >= 1, any values (ragged tiles zero-padded); ceil(m / block targets) < 2^31 blocks;
 *   splits <= 65535; 256 threads.  Workspace p.workspace_bytes = (m + n + 4) sizeof(T) (a->work,
 *   else cudaMallocAsync on the stream); v zeroed first in atomic mode unless KSUM_ACCUMULATE.
 *   name_plan checks everything; the fields' limits are static_asserts naming the generator, the
 *   instance and the field.  Registers, shared memory, how each path runs: docs/ksum.md.
 *
 * STRUCTURE  Each kernel is one call of a body template with KERNEL as a functor, name_plan and
 *   name_run calls of host functions taking the kernels as pointers; the policy is typedef'd as
 *   name_policy.  ksum/ksum/: device.cuh, generic.cuh, staged.cuh (the bodies), launch.cuh (the
 *   host side); tc.cuh, wgmma.cuh, smalldim.cuh the code of the headers of those names.
 *   GLOSSARY of the internal bodies' names: docs/ksum.md#ksum-glossary.
 *
 * NVRTC (docs/python.md): kernels only; the arguments a caller repeats are ksum/ksum/launch.cuh's.
 */
#ifndef KSUM_KSUM_CUH
#define KSUM_KSUM_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "base.cuh"
#include "epilogue.cuh"
#include "gemm.cuh"
#include "ksum/device.cuh"
#include "ksum/generic.cuh"
#include "ksum/launch.cuh"
#include "ksum/staged.cuh"

/* ---- the policies and the precision tags */

/* T besides float and double: float data, the dot products on TF32 tensor cores (tc.cuh), one pass
 * or three (the split big + small) */
struct ksum_tf32 {};
struct ksum_tf32x3 {};

/* a ksum_policy's SCHEDULE (T ksum_tf32 / ksum_tf32x3): the wgmma kernel where it runs, else
 * mma.sync (AUTO); the mma.sync kernels only (MMA) */
#define KSUM_SCHEDULE_AUTO 0
#define KSUM_SCHEDULE_MMA 1

template <int R_ = 1, int MINB_ = 0, int SCHEDULE_ = KSUM_SCHEDULE_AUTO, int WIDE_RES_ = -1,
          int WIDE_STREAM_ = -1>
struct ksum_policy {
    enum { r = R_, minb = MINB_, schedule = SCHEDULE_, wide_res = WIDE_RES_, wide_stream = WIDE_STREAM_ };
};
template <int R_ = 1, int TM_ = 0, int TN_ = 0, int MINB_ = 0>
struct ksum_regs_policy {
    enum { r = R_, tm = TM_, tn = TN_, minb = MINB_ };
};

/* a generator's policy resolved for the kind K of T (0 float, 1 double, 2 ksum_tf32, 3 ksum_tf32x3):
 * defaults filled in, fields clamped to what compiles (the static_asserts say what is wrong) */
template <class P> struct ksum__pol : onchip_policy<ksum_policy, P> {};
template <class P> struct ksum__rpol : onchip_policy<ksum_regs_policy, P> {};
/* the fields' checks, and R, MINB resolved (MINB 0: 1 for double, else 2 for R = 1, 1 above) */
template <int K, int R_, int MINB_>
struct ksum__rm {
    enum {
        ok_r = R_ >= 1, ok_minb = MINB_ >= 0, tc = K >= 2, passes = K == 3 ? 3 : 1, r = R_ >= 1 ? R_ : 1,
        minb = MINB_ >= 1 ? MINB_ : K == 1 ? 1 : R_ > 1 ? 1 : 2
    };
};
/* KSUM_DEFINE: WIDE -1 the rule (4 resident / 0 streamed one pass, 1 / 0 three passes; why:
 * docs/ksum.md#tf32-wide-choice); tm, tn the microtile of double */
template <class P, int K, class Q = typename ksum__pol<P>::type>
struct ksum__def : ksum__rm<K, (int)Q::r, (int)Q::minb> {
    enum { sch_ = (int)Q::schedule, wr_ = (int)Q::wide_res, ws_ = (int)Q::wide_stream };
    enum {
        ok = ksum__pol<P>::value, tm = 4, tn = 4, wg = sch_ == KSUM_SCHEDULE_AUTO,
        ok_schedule = sch_ == KSUM_SCHEDULE_AUTO || sch_ == KSUM_SCHEDULE_MMA,
        ok_wide = wr_ >= -1 && wr_ <= 4 && ws_ >= -1 && ws_ <= 4,
        ok_tc = K >= 2 || (sch_ == KSUM_SCHEDULE_AUTO && wr_ == -1 && ws_ == -1),
        wide_res = wr_ >= 0 && wr_ <= 4 ? wr_ : K == 3 ? 1 : 4, wide_stream = ws_ >= 0 && ws_ <= 4 ? ws_ : 0
    };
};
/* KSUM_REGS_DEFINE: TM, TN 0 the default (8, double 4) */
template <class P, int K, class Q = typename ksum__rpol<P>::type>
struct ksum__regs : ksum__rm<K, (int)Q::r, (int)Q::minb> {
    enum { tm_ = (int)Q::tm, tn_ = (int)Q::tn };
    enum {
        ok = ksum__rpol<P>::value, ok_tile = (tm_ == 0 || tm_ == 4 || tm_ == 8) && (tn_ == 0 || tn_ == 4 || tn_ == 8),
        ok_tc = K < 2 || ((tm_ == 0 || tm_ == 8) && (tn_ == 0 || tn_ == 8)),
        tm = tm_ == 4 || tm_ == 8 ? tm_ : K == 1 ? 4 : 8, tn = tn_ == 4 || tn_ == 8 ? tn_ : K == 1 ? 4 : 8
    };
};
/* one template name per kind (a macro argument without commas) */
template <class P> struct ksum__def_float : ksum__def<P, 0> {};
template <class P> struct ksum__def_double : ksum__def<P, 1> {};
template <class P> struct ksum__def_tf32 : ksum__def<P, 2> {};
template <class P> struct ksum__def_tf32x3 : ksum__def<P, 3> {};
template <class P> struct ksum__regs_float : ksum__regs<P, 0> {};
template <class P> struct ksum__regs_double : ksum__regs<P, 1> {};
template <class P> struct ksum__regs_tf32 : ksum__regs<P, 2> {};
template <class P> struct ksum__regs_tf32x3 : ksum__regs<P, 3> {};

/* ---- the generators */

/* the main kernels' parameters, the variable part the generator's own ints (vec_a, vec_b; ks; vecs),
 * and the body's argument ksum__kargs<T> built from them */
#define KSUM__PARAMS(T, ...)                                                                           \
    const T *__restrict__ a, long long lda, const T *__restrict__ b, long long ldb, const T *__restrict__ w, \
        T *__restrict__ v, int m, int n, int dim, int nrhs, T m2scale, const T *__restrict__ norms,    \
        int tiles_per_split, __VA_ARGS__, int atomic, int accumulate
#define KSUM__KARGS(T, vec_a, vec_b, ks)                                                               \
    ksum__kargs<T> { a, lda, b, ldb, w, v, m, n, dim, nrhs, m2scale, norms, tiles_per_split, vec_a, vec_b, ks, \
                     atomic, accumulate }

/* T spelled float, double, ksum_tf32 or ksum_tf32x3 (KSUM__KIND: the suffix of the kind's macro, 0 for
 * any other T, which gives one static_assert only) */
#define KSUM__TYPE_OK(T) KSUM__PROBE(KSUM__XCAT(KSUM__TYPE_OK_, T))
#define KSUM__TYPE_OK_float ~, 1
#define KSUM__TYPE_OK_double ~, 1
#define KSUM__TYPE_OK_ksum_tf32 ~, 1
#define KSUM__TYPE_OK_ksum_tf32x3 ~, 1
#define KSUM__KIND(T) KSUM__PROBE(KSUM__XCAT(KSUM__KIND_, T))
#define KSUM__KIND_float ~, float
#define KSUM__KIND_double ~, double
#define KSUM__KIND_ksum_tf32 ~, tf32
#define KSUM__KIND_ksum_tf32x3 ~, tf32x3
/* the tensor-core kinds' generator MACRO (tc.cuh's), or the sentence that asks for tc.cuh */
#define KSUM__TC_GATE(gen, name, MACRO, KERNEL, CFG)                                                   \
    KSUM__XCAT(KSUM__TC_GATE_, KSUM__PROBE(KSUM__TC_HERE))(gen, name, MACRO, KERNEL, CFG)
#define KSUM__TC_GATE_1(gen, name, MACRO, KERNEL, CFG) MACRO(name, KERNEL, CFG)
#define KSUM__TC_GATE_0(gen, name, MACRO, KERNEL, CFG)                                                 \
    static_assert(KSUM__PROBE(KSUM__TC_HERE),                                                          \
                  gen "(" #name "): T ksum_tf32 and ksum_tf32x3 need #include <ksum/tc.cuh>");

#define KSUM_DEFINE(name, T, KERNEL, ...)                                                              \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                              \
    static_assert(ksum__pol<name##_policy>::value, "KSUM_DEFINE(" #name                                \
                  "): the last argument must be a ksum_policy<R, MINB, SCHEDULE, WIDE_RES, WIDE_STREAM>"); \
    static_assert(KSUM__TYPE_OK(T),                                                                    \
                  "KSUM_DEFINE(" #name "): T must be float, double, ksum_tf32 or ksum_tf32x3");        \
    KSUM__XCAT(KSUM__DEFINE_, KSUM__KIND(T))(name, KERNEL)
#define KSUM__DEFINE_0(name, KERNEL)
#define KSUM__DEFINE_float(name, KERNEL) KSUM__DEF_ASSERTS(name, ksum__def_float) KSUM__STAGED(name, KERNEL)
#define KSUM__DEFINE_double(name, KERNEL)                                                              \
    KSUM__DEF_ASSERTS(name, ksum__def_double)                                                          \
    KSUM__GENERIC(name, double, KERNEL, ksum__def_double, "register-staged SIMT kernel: KSUM_DEFINE of double (4 x 4)")
#define KSUM__DEFINE_tf32(name, KERNEL) KSUM__DEFINE_TC(name, KERNEL, ksum__def_tf32)
#define KSUM__DEFINE_tf32x3(name, KERNEL) KSUM__DEFINE_TC(name, KERNEL, ksum__def_tf32x3)
#define KSUM__DEFINE_TC(name, KERNEL, CFG)                                                             \
    KSUM__DEF_ASSERTS(name, CFG) KSUM__TC_GATE("KSUM_DEFINE", name, KSUM__TC, KERNEL, CFG)
#define KSUM__DEF_ASSERTS(name, CFG)                                                                   \
    static_assert(CFG<name##_policy>::ok_r, "KSUM_DEFINE(" #name "): R must be at least 1");           \
    static_assert(CFG<name##_policy>::ok_minb,                                                         \
                  "KSUM_DEFINE(" #name "): MINB must be 0 (the default) or more");                     \
    static_assert(CFG<name##_policy>::ok_schedule,                                                     \
                  "KSUM_DEFINE(" #name "): SCHEDULE must be KSUM_SCHEDULE_AUTO or KSUM_SCHEDULE_MMA"); \
    static_assert(CFG<name##_policy>::ok_wide,                                                         \
                  "KSUM_DEFINE(" #name "): WIDE_RES and WIDE_STREAM must be -1 (the default) to 4");   \
    static_assert(CFG<name##_policy>::ok_tc,                                                           \
                  "KSUM_DEFINE(" #name "): SCHEDULE, WIDE_RES and WIDE_STREAM need T ksum_tf32 or ksum_tf32x3");

#define KSUM_REGS_DEFINE(name, T, KERNEL, ...)                                                         \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                              \
    static_assert(ksum__rpol<name##_policy>::value,                                                    \
                  "KSUM_REGS_DEFINE(" #name "): the last argument must be a ksum_regs_policy<R, TM, TN, MINB>"); \
    static_assert(KSUM__TYPE_OK(T),                                                                    \
                  "KSUM_REGS_DEFINE(" #name "): T must be float, double, ksum_tf32 or ksum_tf32x3");   \
    KSUM__XCAT(KSUM__REGS_, KSUM__KIND(T))(name, KERNEL)
#define KSUM__REGS_0(name, KERNEL)
#define KSUM__REGS_float(name, KERNEL)                                                                 \
    KSUM__REGS_ASSERTS(name, ksum__regs_float) KSUM__GENERIC(name, float, KERNEL, ksum__regs_float, KSUM__REGS_WHY)
#define KSUM__REGS_double(name, KERNEL)                                                                \
    KSUM__REGS_ASSERTS(name, ksum__regs_double) KSUM__GENERIC(name, double, KERNEL, ksum__regs_double, KSUM__REGS_WHY)
#define KSUM__REGS_tf32(name, KERNEL) KSUM__REGS_TC(name, KERNEL, ksum__regs_tf32)
#define KSUM__REGS_tf32x3(name, KERNEL) KSUM__REGS_TC(name, KERNEL, ksum__regs_tf32x3)
#define KSUM__REGS_TC(name, KERNEL, CFG)                                                               \
    KSUM__REGS_ASSERTS(name, CFG) KSUM__TC_GATE("KSUM_REGS_DEFINE", name, KSUM__TC_REGS, KERNEL, CFG)
#define KSUM__REGS_ASSERTS(name, CFG)                                                                  \
    static_assert(CFG<name##_policy>::ok_tile,                                                         \
                  "KSUM_REGS_DEFINE(" #name "): the microtile TM x TN must be 4 or 8 each (0: the default)"); \
    static_assert(CFG<name##_policy>::ok_tc,                                                           \
                  "KSUM_REGS_DEFINE(" #name "): T ksum_tf32 and ksum_tf32x3 take the microtile 8 x 8"); \
    static_assert(CFG<name##_policy>::ok_r, "KSUM_REGS_DEFINE(" #name "): R must be at least 1");      \
    static_assert(CFG<name##_policy>::ok_minb,                                                         \
                  "KSUM_REGS_DEFINE(" #name "): MINB must be 0 (the default) or more");

/* the register-staged kernel of T float or double (CFG: r, tm, tn, minb; WHY: the plan's why) */
#define KSUM__REGS_WHY "register-staged SIMT kernel: KSUM_REGS_DEFINE of float or double"
#define KSUM__GENERIC(name, T, KERNEL, CFG, WHY)                                                       \
    KSUM__NORMS(name, T)                                                                               \
    __global__ void __launch_bounds__(KSUM_THREADS, (CFG<name##_policy>::minb))                        \
        name##_kernel(KSUM__PARAMS(T, int vec_a, int vec_b))                                           \
    {                                                                                                  \
        ksum__ex_body<T, CFG<name##_policy>::r, CFG<name##_policy>::tm, CFG<name##_policy>::tn>(       \
            KSUM__EVAL_FN(T, KERNEL), KSUM__KARGS(T, vec_a, vec_b, 0));                                \
    }                                                                                                  \
    KSUM__GENERIC_HOST(name, T, KERNEL, CFG, WHY)

/* the staged float kernels: targets resident (name_kernel) and streamed (name_kernel_stream) */
#define KSUM__STAGED(name, KERNEL)                                                                     \
    KSUM__NORMS(name, float)                                                                           \
    KSUM__STAGED_KERNEL(name##_kernel, KERNEL, ksum__def_float<name##_policy>::minb, ksum__f32_body,   \
                        ksum__def_float<name##_policy>::r, 1, KSUM__FACTOR(KERNEL))                    \
    KSUM__STAGED_KERNEL(name##_kernel_stream, KERNEL, ksum__def_float<name##_policy>::minb, ksum__f32_body, \
                        ksum__def_float<name##_policy>::r, 0, KSUM__FACTOR(KERNEL))                    \
    KSUM__STAGED_HOST(name, KERNEL)
/* a staged kernel (the ks of its stages its own parameter), MINB blocks per SM, the body BODY<...>
 * with the template arguments that follow */
#define KSUM__STAGED_KERNEL(kname, KERNEL, MINB, BODY, ...)                                           \
    __global__ void __launch_bounds__(KSUM_THREADS, (MINB)) kname(KSUM__PARAMS(float, int ks))         \
    {                                                                                                  \
        BODY<__VA_ARGS__>(KSUM__EVAL_FN(float, KERNEL), KSUM__KARGS(float, 0, 0, ks));                 \
    }

/* the host functions (none under NVRTC); KSUM__LAUNCH(name): name_launch, the plan then its run */
#ifndef __CUDACC_RTC__
#define KSUM__LAUNCH(name)                                                                             \
    static inline __attribute__((unused)) int name##_launch(const ksum_args *args, cudaStream_t stream) \
    {                                                                                                  \
        ksum_plan plan;                                                                                \
        const int rc = name##_plan(args, &plan);                                                       \
        return rc ? rc : name##_run(args, &plan, stream);                                              \
    }
/* name_plan returning PLAN, name_run returning RUN (expressions of their parameters args, plan,
 * stream), then name_launch */
#define KSUM__HOST(name, PLAN, RUN)                                                                    \
    static inline __attribute__((unused)) int name##_plan(const ksum_args *args, ksum_plan *plan)      \
    {                                                                                                  \
        return PLAN;                                                                                   \
    }                                                                                                  \
    static inline __attribute__((unused)) int name##_run(const ksum_args *args, const ksum_plan *plan, \
                                                         cudaStream_t stream)                          \
    {                                                                                                  \
        return RUN;                                                                                    \
    }                                                                                                  \
    KSUM__LAUNCH(name)
#define KSUM__GENERIC_HOST(name, T, KERNEL, CFG, WHY)                                                  \
    KSUM__HOST(name,                                                                                   \
               (ksum__plan_generic(args, plan, sizeof(T), KSUM__SCALE(KERNEL, args), CFG<name##_policy>::r, \
                                   CFG<name##_policy>::tm, CFG<name##_policy>::tn, CFG<name##_policy>::minb, \
                                   CFG<name##_policy>::tc, WHY)),                                      \
               (ksum__run_generic(args, plan, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                  sizeof(T), KSUM__SCALE(KERNEL, args))))
#define KSUM__STAGED_HOST(name, KERNEL)                                                                \
    KSUM__HOST(name,                                                                                   \
               (ksum__plan_staged(args, plan, KSUM__SCALE(KERNEL, args), ksum__def_float<name##_policy>::r, \
                                  ksum__def_float<name##_policy>::minb, KSUM_GEMM_P)),                 \
               (ksum__run_staged(args, plan, stream, (const void *)name##_norms, (const void *)name##_kernel, \
                                 (const void *)name##_kernel_stream, KSUM__SCALE(KERNEL, args))))
#else
#define KSUM__GENERIC_HOST(name, T, KERNEL, CFG, WHY)
#define KSUM__STAGED_HOST(name, KERNEL)
#endif

#endif
#include <onchip/names_pop.h>
