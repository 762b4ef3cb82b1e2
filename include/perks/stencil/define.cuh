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
/* ---- the pieces of both generators (2D here, 3D in perks/stencil/define3d.cuh) */
/* a policy of template TPL: its fields and value 1; for another type value 0 and TPL's defaults
 * (docs/onchip.md#one-sentence) */
template <template <int...> class TPL, class X>
struct perks__policy : onchip_policy<TPL, X>::type {
    enum { value = onchip_policy<TPL, X>::value };
};
/* generator GEN (a string): name_policy from `...`, its sentence (SPELL spells TPL), then IMPL with
 * the policy's fields F1 - F4 */
#define PERKS__GENERATE(GEN, TPL, SPELL, IMPL, F1, F2, F3, F4, name, T, SHAPE, ...)                    \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                             \
    static_assert(perks__policy<TPL, name##_policy>::value, GEN "(" #name "): the last argument must be a " SPELL); \
    IMPL(name, T, SHAPE, PERKS__POL_FIELD(TPL, name, F1), PERKS__POL_FIELD(TPL, name, F2),              \
         PERKS__POL_FIELD(TPL, name, F3), PERKS__POL_FIELD(TPL, name, F4))
#define PERKS__POL_FIELD(TPL, name, field) ((int)perks__policy<TPL, name##_policy>::field)
/* T's check (first: a wrong type stops here), name_shape, its radius's check (RTEXT the largest),
 * name_weights */
#define PERKS__SHAPE_TYPES(GEN, DIM, RTEXT, name, T, SHAPE)                                           \
    static_assert(perks__is_real<T>::value, GEN "(" #name "): T must be float or double");            \
    typedef ONCHIP_SHAPE##DIM##_TYPE(SHAPE) name##_shape;                                             \
    static_assert(name##_shape::rmax <= PERKS_STENCIL##DIM##_RMAX,                                    \
                  GEN "(" #name "): SHAPE reaches more than " RTEXT " cells away; r must be at most " RTEXT); \
    typedef struct name##_weights {                                                                   \
        T w[name##_shape::npts];                                                                      \
    } name##_weights;

#define PERKS_STENCIL2D_DEFINE(name, T, SHAPE, ...)                                                   \
    PERKS__GENERATE("PERKS_STENCIL2D_DEFINE", perks_stencil2d_policy, "perks_stencil2d_policy<BX, RC, DEPTH, MINB>", \
                    PERKS__S2D_DEFINE, bx, rc, depth, minb, name, T, SHAPE, __VA_ARGS__)
#define PERKS__S2D_DEFINE(name, T, SHAPE, BX, RC, DEPTH, MINB)                                        \
    PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH, MINB)                                             \
    PERKS__S2D_KERNELS(name, T, BX, RC, DEPTH, MINB)                                                  \
    PERKS__S2D_HOST(name, T, BX, RC, DEPTH)

/* the limits, the shape as a type, the sizes, the coefficients */
#define PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH, MINB)                                         \
    PERKS__SHAPE_TYPES("PERKS_STENCIL2D_DEFINE", 2D, "8", name, T, SHAPE)                             \
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
#define PERKS__STENCIL_FN static inline __attribute__((unused))
#define PERKS__S2D_G(name) const perks__s2d_geom g = name##_geom()
/* name_plan, name_run and name_launch, 2D and 3D alike (A the arguments, G the geometry's type, PLAN
 * the planner) */
#define PERKS__STENCIL_ENTRIES(name, A, G, PLAN)                                                      \
    PERKS__STENCIL_FN int name##_plan(const A *a, perks_plan *p)                                      \
    { const G g = name##_geom(); return PLAN(a, p, &g); }                                             \
    PERKS__STENCIL_FN int name##_run(const A *a, const perks_plan *p, cudaStream_t stream)            \
    { const G g = name##_geom(); name##_weights w; return perks__stencil_run(a, p, &g, &w, sizeof w, stream); } \
    ONCHIP__LAUNCH_VERB(name, A, perks_plan)
#define PERKS__S2D_HOST(name, T, BX, RC, DEPTH)                                                       \
    PERKS__STENCIL_FN perks__s2d_geom name##_geom(void)                                                   \
    {                                                                                                 \
        return perks__s2d_geom_of<T, name##_shape, BX, RC, DEPTH>((const void *)name##_kernel, (const void *)name##_res_kernel, \
                                                                  (const void *)name##_hyb_kernel,    \
                                                                  (const void *)name##_step_kernel);  \
    }                                                                                                 \
    PERKS__STENCIL_FN size_t name##_smem_base(void) { return (size_t)name##_SMEM_BASE; }                  \
    PERKS__STENCIL_FN size_t name##_res_smem(int th) { PERKS__S2D_G(name); return perks__s2d_res_smem(&g, th); } \
    PERKS__STENCIL_FN size_t name##_hyb_smem(int sc) { PERKS__S2D_G(name); return perks__s2d_hyb_smem(&g, sc); } \
    PERKS__STENCIL_ENTRIES(name, perks_stencil2d_args, perks__s2d_geom, perks__s2d_plan<T>)
#else
#define PERKS__S2D_HOST(name, T, BX, RC, DEPTH)
#endif

#endif /* PERKS_STENCIL_DEFINE_CUH */
#include <onchip/names_pop.h>
