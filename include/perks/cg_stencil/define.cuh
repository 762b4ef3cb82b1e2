#include <onchip/names_push.h>
/* perks/cg_stencil/define.cuh -- PERKS_CG_STENCIL3D_DEFINE and PERKS_CG_STENCIL2D_DEFINE: their
 * checks, kernels and verbs (perks/cg_stencil.cuh describes them). */
#ifndef PERKS_CG_STENCIL_DEFINE_CUH
#define PERKS_CG_STENCIL_DEFINE_CUH

#include "body.cuh"
#include "host.cuh"

/* ---- the generators */
#define PERKS__CGS_ASSERTS(GEN, name, S, OP)                                                                \
    static_assert((OP) == ONCHIP_OPERATOR_STENCIL || (OP) == ONCHIP_OPERATOR_DIVK,                           \
                  #GEN "(" #name "): OPERATOR must be ONCHIP_OPERATOR_STENCIL or ONCHIP_OPERATOR_DIVK");     \
    static_assert(perks__cgs_shape<S>::centre, #GEN "(" #name "): SHAPE must contain the centre point (0, 0, 0)"); \
    static_assert(perks__cgs_shape<S>::paired,                                                               \
                  #GEN "(" #name "): SHAPE's points must come in opposite pairs (the operator is symmetric)"); \
    static_assert(S::rmax <= 4, #GEN "(" #name "): SHAPE's radius must be at most 4");                        \
    static_assert(S::ncoef <= PERKS_CGS_MAXCOEF, #GEN "(" #name "): SHAPE may have at most 128 coefficients")
#define PERKS__CGS_KERNEL(kname, T, S, MX, OP)                                                              \
    __global__ void __launch_bounds__(PERKS_CGS_BLOCK, (perks__cgs_cfg<perks__cg_real<T>::type, S, MX, OP>::minb)) \
        kname(perks_cgs_kargs a)                                                                              \
    { struct k; perks_cgs_body<perks__cg_real<T>::type, S, k, MX, OP>(a); }

/* the arguments after T: SHAPE [, OPERATOR] (ONCHIP_OPERATOR_STENCIL when left out); T the word
 * perks_cg_mixed: PERKS__CGS_DEFINE_T1, else PERKS__CGS_DEFINE_T0 */
#define PERKS_CG_STENCIL3D_DEFINE(name, T, ...) PERKS__CGS_DEFINE(PERKS_CG_STENCIL3D_DEFINE, name, T, 3, __VA_ARGS__, 0, )
#define PERKS_CG_STENCIL2D_DEFINE(name, T, ...) PERKS__CGS_DEFINE(PERKS_CG_STENCIL2D_DEFINE, name, T, 2, __VA_ARGS__, 0, )
#define PERKS__CGS_DEFINE(GEN, name, T, DIMS, SHAPE, OP, ...)                                               \
    PERKS__CG_PICK(PERKS__CGS_DEFINE_T, T)(GEN, name, T, ONCHIP_SHAPE##DIMS##D_TYPE(SHAPE), DIMS, (OP))
#define PERKS__CGS_DEFINE_T0(GEN, name, T, ST, DIMS, OP)                                                    \
    typedef ST name##__shape;                                                                                \
    static_assert(perks__cg_real<T>::ok || perks__cg_is_mixed<T>::value,                                     \
                  #GEN "(" #name "): T must be float, double or perks_cg_mixed");                            \
    static_assert(!perks__cg_is_mixed<T>::value,                                                             \
                  #GEN "(" #name "): T must be the word perks_cg_mixed, not another name for it");          \
    PERKS__CGS_ASSERTS(GEN, name, name##__shape, OP);                                                        \
    PERKS__CGS_KERNEL(name##_kernel, T, name##__shape, false, OP)                                            \
    PERKS__CGS_HOST(name, T, name##__shape, DIMS, OP, name##_kernel, NULL)
/* mixed: the float kernel (double replacements) and the double one (the fallback) */
#define PERKS__CGS_DEFINE_T1(GEN, name, T, ST, DIMS, OP)                                                    \
    typedef ST name##__shape;                                                                                \
    PERKS__CGS_ASSERTS(GEN, name, name##__shape, OP);                                                        \
    PERKS__CGS_KERNEL(name##_fkernel, float, name##__shape, true, OP)                                        \
    PERKS__CGS_KERNEL(name##_dkernel, double, name##__shape, false, OP)                                      \
    PERKS__CGS_HOST(name, double, name##__shape, DIMS, OP, name##_dkernel, name##_fkernel)

/* name_plan, name_run, name_launch (host code: none under NVRTC, where the generators emit the
 * kernels only) */
#ifndef __CUDACC_RTC__
#define PERKS__CGS_HOST(name, T, S, DIMS, OP, KNATIVE, KFLOAT)                                              \
    static inline __attribute__((unused)) int name##_plan(const perks_cgs_args *a, perks_cgs_plan *p)       \
    {                                                                                                        \
        return perks__cgs_plan_make<S, OP, T>((const void *)KNATIVE, (const void *)KFLOAT, DIMS, a, p);     \
    }                                                                                                        \
    static inline __attribute__((unused)) int name##_run(const perks_cgs_args *a, const perks_cgs_plan *p,  \
                                                         cudaStream_t stream)                                \
    {                                                                                                        \
        return perks__cgs_solve<S, T, OP>(a, p, stream);                                                     \
    }                                                                                                        \
    static inline __attribute__((unused)) int name##_launch(const perks_cgs_args *a, cudaStream_t stream)   \
    {                                                                                                        \
        perks_cgs_plan p;                                                                                    \
        int rc = name##_plan(a, &p);                                                                         \
        if (!rc) rc = name##_run(a, &p, stream);                                                             \
        else if (a && a->result) perks__cg_result_error(a->result, rc);                                      \
        perks_cgs_plan_free(&p);                                                                             \
        return rc;                                                                                           \
    }
#else
#define PERKS__CGS_HOST(name, T, S, DIMS, OP, KNATIVE, KFLOAT)
#endif

#endif /* PERKS_CG_STENCIL_DEFINE_CUH */
#include <onchip/names_pop.h>
