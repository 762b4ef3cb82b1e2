#include <onchip/names_push.h>
/* perks/cg_stencil.cuh -- matrix-free conjugate gradient: the operator is a constant-coefficient stencil
 * on a 2D or 3D grid with homogeneous Dirichlet boundary, applied on the fly inside one persistent
 * kernel; double, float, or mixed (float iterations, double replacements and true residual).
 *
 * WHAT (PERKS paper sections 3-4: the CG time loop inside one cooperative kernel; the operator is
 * recomputed from the vector each phase instead of being read as a matrix)
 *   PERKS_CG_STENCIL3D_DEFINE(name, T, SHAPE)   SHAPE a 3D X-macro list (perks/stencil/shapes.cuh)
 *   PERKS_CG_STENCIL2D_DEFINE(name, T, SHAPE)   SHAPE a 2D list; the grid's nz is 1
 *       __global__ void name_kernel(perks_cgs_kargs)   every CG iteration (perks_cgs_body<T, S, k>)
 *       int name_plan(const perks_cgs_args *a, perks_cgs_plan *p)    checks a, allocates the workspace
 *       int name_run(const perks_cgs_args *a, const perks_cgs_plan *p, cudaStream_t)   one solve (synchronous)
 *       int name_launch(const perks_cgs_args *a, cudaStream_t)      plan, run, perks_cgs_plan_free
 *   perks_cgs_args: nx, ny, nz; w (HOST: the shape's ncoef weights, by coefficient index); b, x
 *   (device, T); opts (perks_cg_opts: tol > 0, max_iter, jacobi, x0 are read); result (host).
 *   T perks_cg_mixed (the word; a typedef of it is refused): float iterations, double replacements;
 *       name_fkernel (float), name_dkernel (double), the verbs with double b, x.
 *   The system: cells (x, y, z), x fastest (index x + nx (y + ny z)), one unknown each;
 *       (A v)(c) = sum over the shape's points (I, DX, DY, DZ) of w[I] v(c + (DX, DY, DZ))
 *   with v = 0 outside the grid (Dirichlet values belong in b).  The plan (onchip/plan.h's head: path
 *   PERKS_CG_PATH_GRID, why, steps_per_pass 0, passes, workspace_bytes, result = a.x) owns its
 *   workspace (6 n doubles): one plan serves many solves of its grid and weights (other b, x).
 *
 * THE ITERATION: classic CG as perks/cg.cuh's grid kernel, 2 grid barriers, q = A p' recomputed in
 *   phase B; 8 vectors an iteration (docs/perks-cg.md#reference-the-matrix-free-iteration).
 *   GLOSSARY of the internal bodies' names: docs/perks-cg.md#cg-glossary.
 * WHAT A SUCCESS MEANS (as perks/cg.cuh): the true residual decides; refinement (double, float) or
 *   in-kernel double replacements (mixed): docs/perks-cg.md#reference-matrix-free-success-and-mixed-precision.
 *
 * EXAMPLE
 *   [compile: const double *d_b; double *d_x]
 *   #include <perks/cg_stencil.cuh>
 *   PERKS_CG_STENCIL3D_DEFINE(poisson, double, ONCHIP_SHAPE_STAR3D_R1)
 *
 *   const double w[7] = {6, -1, -1, -1, -1, -1, -1};       // -laplace, h = 1
 *   perks_cg_result res;
 *   perks_cgs_args a = {256, 256, 256, w, d_b, d_x, perks_cg_defaults(), &res};
 *   int rc = poisson_launch(&a, 0);                        // the answer in a.x
 *
 * LIMITS AND ERRORS (all: docs/perks-cg.md#reference-matrix-free-limits-and-errors)
 *   Static: T float, double or perks_cg_mixed; SHAPE holds the centre, comes in opposite pairs,
 *   radius <= 4, at most PERKS_CGS_MAXCOEF (128) coefficients.  name_plan checks sizes, tol,
 *   max_iter and the weights (centre > 0, symmetric, finite): a refusal is the code, p.why, p.passes
 *   0, nothing launched.  result->status = the code name_run returns.  One run at a time per plan.
 */
#ifndef PERKS_CG_STENCIL_CUH
#define PERKS_CG_STENCIL_CUH

#include "cg_stencil/body.cuh"
#include "cg_stencil/host.cuh"

/* ---- the generators */
#define PERKS__CGS_ASSERTS(GEN, name, S)                                                                    \
    static_assert(perks__cgs_shape<S>::centre, #GEN "(" #name "): SHAPE must contain the centre point (0, 0, 0)"); \
    static_assert(perks__cgs_shape<S>::paired,                                                               \
                  #GEN "(" #name "): SHAPE's points must come in opposite pairs (the operator is symmetric)"); \
    static_assert(S::rmax <= 4, #GEN "(" #name "): SHAPE's radius must be at most 4");                        \
    static_assert(S::ncoef <= PERKS_CGS_MAXCOEF, #GEN "(" #name "): SHAPE may have at most 128 coefficients")
#define PERKS__CGS_KERNEL(kname, T, S, MX)                                                                  \
    __global__ void __launch_bounds__(PERKS_CGS_BLOCK, (perks__cgs_cfg<perks__cg_real<T>::type, S, MX>::minb)) \
        kname(perks_cgs_kargs a)                                                                              \
    { struct k; perks_cgs_body<perks__cg_real<T>::type, S, k, MX>(a); }

/* T the word perks_cg_mixed: PERKS__CGS_DEFINE_T1, else PERKS__CGS_DEFINE_T0 */
#define PERKS_CG_STENCIL3D_DEFINE(name, T, SHAPE)                                                            \
    PERKS__CG_PICK(PERKS__CGS_DEFINE_T, T)(PERKS_CG_STENCIL3D_DEFINE, name, T, ONCHIP_SHAPE3D_TYPE(SHAPE), 3)
#define PERKS_CG_STENCIL2D_DEFINE(name, T, SHAPE)                                                            \
    PERKS__CG_PICK(PERKS__CGS_DEFINE_T, T)(PERKS_CG_STENCIL2D_DEFINE, name, T, ONCHIP_SHAPE2D_TYPE(SHAPE), 2)
#define PERKS__CGS_DEFINE_T0(GEN, name, T, ST, DIMS)                                                        \
    typedef ST name##__shape;                                                                                \
    static_assert(perks__cg_real<T>::ok || perks__cg_is_mixed<T>::value,                                     \
                  #GEN "(" #name "): T must be float, double or perks_cg_mixed");                            \
    static_assert(!perks__cg_is_mixed<T>::value,                                                             \
                  #GEN "(" #name "): T must be the word perks_cg_mixed, not another name for it");          \
    PERKS__CGS_ASSERTS(GEN, name, name##__shape);                                                            \
    PERKS__CGS_KERNEL(name##_kernel, T, name##__shape, false)                                                       \
    PERKS__CGS_HOST(name, T, name##__shape, DIMS, name##_kernel, NULL)
/* mixed: the float kernel (double replacements) and the double one (the fallback) */
#define PERKS__CGS_DEFINE_T1(GEN, name, T, ST, DIMS)                                                        \
    typedef ST name##__shape;                                                                                \
    PERKS__CGS_ASSERTS(GEN, name, name##__shape);                                                            \
    PERKS__CGS_KERNEL(name##_fkernel, float, name##__shape, true)                                                  \
    PERKS__CGS_KERNEL(name##_dkernel, double, name##__shape, false)                                                 \
    PERKS__CGS_HOST(name, double, name##__shape, DIMS, name##_dkernel, name##_fkernel)

/* name_plan, name_run, name_launch (host code: none under NVRTC, where the generators emit the
 * kernels only) */
#ifndef __CUDACC_RTC__
#define PERKS__CGS_HOST(name, T, S, DIMS, KNATIVE, KFLOAT)                                                  \
    static inline __attribute__((unused)) int name##_plan(const perks_cgs_args *a, perks_cgs_plan *p)       \
    {                                                                                                        \
        return perks__cgs_plan_make<S>((const void *)KNATIVE, (const void *)KFLOAT, DIMS, a, p);            \
    }                                                                                                        \
    static inline __attribute__((unused)) int name##_run(const perks_cgs_args *a, const perks_cgs_plan *p,  \
                                                         cudaStream_t stream)                                \
    {                                                                                                        \
        return perks__cgs_solve<S, T>(a, p, stream);                                                         \
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
#define PERKS__CGS_HOST(name, T, S, DIMS, KNATIVE, KFLOAT)
#endif

#endif /* PERKS_CG_STENCIL_CUH */
#include <onchip/names_pop.h>
