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
 * *   T perks_cg_mixed (the word): name_fkernel (float), name_dkernel (double), the verbs with double
 *   b, x.  perks_cgs_args: nx, ny, nz; w (HOST, the shape's ncoef weights); b, x (device); opts;
 *   result.  (A v)(c) = sum over the points of w[I] v(c + (DX, DY, DZ)), v = 0 outside the grid; the
 *   plan owns its workspace and serves many solves: docs/perks-cg.md#matrix-free-perks_cg_stencil3d_define.
 *   The iteration (docs/perks-cg.md#reference-the-matrix-free-iteration), what a success means
 *   (docs/perks-cg.md#reference-matrix-free-success-and-mixed-precision): as perks/cg.cuh's grid
 *   path.  GLOSSARY: docs/perks-cg.md#cg-glossary.
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
#include "cg_stencil/define.cuh"

#endif /* PERKS_CG_STENCIL_CUH */
#include <onchip/names_pop.h>
