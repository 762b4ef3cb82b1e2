#include <onchip/names_push.h>
/* perks/stencil/define.cuh -- PERKS_STENCIL2D_DEFINE and perks_stencil2d_policy: its checks, its four
 * kernels and its host functions (perks/stencil.cuh describes them). */
#ifndef PERKS_STENCIL_DEFINE_CUH
#define PERKS_STENCIL_DEFINE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#include <stddef.h>
#endif

#include <onchip/policy.cuh>
#include "../base.h"
#include "plan.cuh"
#include "resident.cuh"
#include "shapes.cuh"
#include "stream.cuh"

/* the policy, the generator's last argument (docs/perks.md#reference-2d-parameters-and-limits) */
template <int BX_ = 256, int RC_ = 8, int DEPTH_ = 32, int MINB_ = 1>
struct perks_stencil2d_policy {
    enum { bx = BX_, rc = RC_, depth = DEPTH_, minb = MINB_ };
};
/* a policy's fields and value 1; for another type value 0 and the defaults (docs/onchip.md#one-sentence) */
template <class X>
struct perks__is_s2d_policy : onchip_policy<perks_stencil2d_policy, X>::type {
    enum { value = onchip_policy<perks_stencil2d_policy, X>::value };
};

#define PERKS_STENCIL2D_DEFINE(name, T, SHAPE, ...)                                                   \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                             \
    static_assert(perks__is_s2d_policy<name##_policy>::value, "PERKS_STENCIL2D_DEFINE(" #name         \
                  "): the last argument must be a perks_stencil2d_policy<BX, RC, DEPTH, MINB>");       \
    PERKS__S2D_DEFINE(name, T, SHAPE, PERKS__S2D_FIELD(name, bx), PERKS__S2D_FIELD(name, rc),           \
                      PERKS__S2D_FIELD(name, depth), PERKS__S2D_FIELD(name, minb))
#define PERKS__S2D_FIELD(name, field) ((int)perks__is_s2d_policy<name##_policy>::field)
#define PERKS__S2D_DEFINE(name, T, SHAPE, BX, RC, DEPTH, MINB)                                        \
    PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH, MINB)                                             \
    PERKS__S2D_KERNELS(name, T, BX, RC, DEPTH, MINB)                                                  \
    PERKS__S2D_HOST(name, T, BX, RC, DEPTH)

/* the limits (T first: a wrong type stops here), the shape as a type, the sizes, the coefficients */
#define PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH, MINB)                                         \
    static_assert(perks__is_real<T>::value, "PERKS_STENCIL2D_DEFINE(" #name "): T must be float or double"); \
    typedef ONCHIP_SHAPE2D_TYPE(SHAPE) name##_shape;                                                   \
    static_assert(name##_shape::rmax <= PERKS_STENCIL2D_RMAX,                                        \
                  "PERKS_STENCIL2D_DEFINE(" #name "): SHAPE reaches more than 8 cells away; r must be at most 8"); \
    static_assert((BX) % 32 == 0 && (BX) >= 64 && (BX) <= ONCHIP_THREADS_PER_BLOCK_MAX,              \
                  "PERKS_STENCIL2D_DEFINE(" #name "): BX must be a multiple of 32 from 64 to 1024");  \
    static_assert((BX) >= 2 * name##_shape::rmax,                                                        \
                  "PERKS_STENCIL2D_DEFINE(" #name "): BX must be at least twice the stencil's radius"); \
    static_assert((RC) >= 1 && (RC) + 2 * name##_shape::rmax <= 32,                                      \
                  "PERKS_STENCIL2D_DEFINE(" #name "): RC must be at least 1 and RC + 2r at most 32"); \
    static_assert((DEPTH) >= 0 && (DEPTH) % ((RC) >= 1 ? (RC) : 1) == 0,                              \
                  "PERKS_STENCIL2D_DEFINE(" #name "): DEPTH must be a multiple of RC (0: no register cache)"); \
    static_assert((MINB) >= 1, "PERKS_STENCIL2D_DEFINE(" #name "): MINB must be at least 1");           \
    typedef perks__s2d_sizes<T, name##_shape, BX, RC> name##_sizes;                                   \
    typedef struct name##_weights {                                                                   \
        T w[name##_shape::npts];                                                                      \
    } name##_weights;                                                                                 \
    enum { name##_R = name##_sizes::r, name##_WW = name##_sizes::ww, name##_RR = name##_sizes::rr,    \
           name##_HWIN = name##_sizes::hwin, name##_SMEM_BASE = name##_sizes::smem_base,              \
           name##_NCOEF = name##_shape::ncoef };

/* the four kernels: one call of a body each */
#define PERKS__S2D_KERNELS(name, T, BX, RC, DEPTH, MINB)                                              \
    __global__ void __launch_bounds__(BX, MINB) name##_kernel(T *a, T *b, T *ea, T *eb, int nx, int ny, int steps, \
                                                              int reg_on, int sr, int tiles_x, int TH, name##_weights w) \
    { perks_stencil2d_stream<T, name##_shape, BX, RC, DEPTH>(a, b, ea, eb, nx, ny, steps, reg_on, sr, tiles_x, TH, w.w); } \
    __global__ void __launch_bounds__(BX) name##_step_kernel(const T *__restrict__ in, T *__restrict__ out, int nx, \
                                                             int ny, name##_weights w)                 \
    { perks_stencil2d_step<T, name##_shape, BX, RC>(in, out, nx, ny, w.w); }                            \
    __global__ void __launch_bounds__(BX, name##_sizes::res_minb) name##_res_kernel(                   \
        T *a, T *b, T *ea, T *eb, int nx, int ny, int steps, int tiles_x, int TH, int SC, name##_weights w) \
    { perks_stencil2d_resident<T, name##_shape, BX, RC, 0>(a, b, ea, eb, nx, ny, steps, tiles_x, TH, SC, w.w); } \
    __global__ void __launch_bounds__(BX, name##_sizes::hyb_minb) name##_hyb_kernel(                   \
        T *a, T *b, T *ea, T *eb, int nx, int ny, int steps, int tiles_x, int TH, int SC, name##_weights w) \
    { perks_stencil2d_resident<T, name##_shape, BX, RC, 1>(a, b, ea, eb, nx, ny, steps, tiles_x, TH, SC, w.w); }

/* the host side: each function one call of a shared one (perks/stencil/plan.cuh); none under NVRTC,
 * where the generator emits the four kernels only */
#ifndef __CUDACC_RTC__
#define PERKS__S2D_FN static inline __attribute__((unused))
#define PERKS__S2D_G(name) const perks__s2d_geom g = name##_geom()
#define PERKS__S2D_HOST(name, T, BX, RC, DEPTH)                                                       \
    PERKS__S2D_FN perks__s2d_geom name##_geom(void)                                                   \
    {                                                                                                 \
        return perks__s2d_geom_of<T, name##_shape, BX, RC, DEPTH>((const void *)name##_kernel, (const void *)name##_res_kernel, \
                                                                  (const void *)name##_hyb_kernel,    \
                                                                  (const void *)name##_step_kernel);  \
    }                                                                                                 \
    PERKS__S2D_FN size_t name##_smem_base(void) { return (size_t)name##_SMEM_BASE; }                  \
    PERKS__S2D_FN size_t name##_res_smem(int th) { PERKS__S2D_G(name); return perks__s2d_res_smem(&g, th); } \
    PERKS__S2D_FN size_t name##_hyb_smem(int sc) { PERKS__S2D_G(name); return perks__s2d_hyb_smem(&g, sc); } \
    PERKS__S2D_FN int name##_plan(const perks_stencil2d_args *a, perks_plan *p)                       \
    { PERKS__S2D_G(name); return perks__s2d_plan<T>(a, p, &g); }                                     \
    PERKS__S2D_FN int name##_run(const perks_stencil2d_args *a, const perks_plan *p, cudaStream_t stream) \
    { PERKS__S2D_G(name); name##_weights w; return perks__s2d_run(a, p, &g, &w, sizeof w, stream); } \
    ONCHIP__LAUNCH_VERB(name, perks_stencil2d_args, perks_plan)
#else
#define PERKS__S2D_HOST(name, T, BX, RC, DEPTH)
#endif

#endif /* PERKS_STENCIL_DEFINE_CUH */
#include <onchip/names_pop.h>
