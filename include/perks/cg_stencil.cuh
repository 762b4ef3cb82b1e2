#include <onchip/names_push.h>
/* perks/cg_stencil.cuh -- matrix-free conjugate gradient: the operator is a stencil on a 2D or 3D grid
 * with homogeneous Dirichlet boundary -- constant weights, or the divergence form -div(k grad u) of
 * a cell field k -- applied on the fly inside one persistent kernel; double, float, or mixed (float
 * iterations, double replacements and true residual).
 *
 * WHAT (PERKS paper sections 3-4: the CG time loop inside one cooperative kernel; the operator is
 * recomputed from the vector each phase instead of being read as a matrix)
 *   PERKS_CG_STENCIL3D_DEFINE(name, T, SHAPE [, OPERATOR])   SHAPE a 3D X-macro list (onchip/shape.cuh)
 *   PERKS_CG_STENCIL2D_DEFINE(name, T, SHAPE [, OPERATOR])   SHAPE a 2D list; the grid's nz is 1
 *       __global__ void name_kernel(perks_cgs_kargs)   every CG iteration (perks_cgs_body<T, S, k>)
 *       int name_plan(const perks_cgs_args *a, perks_cgs_plan *p)    checks a, allocates the workspace
 *       int name_run(const perks_cgs_args *a, const perks_cgs_plan *p, cudaStream_t)   one solve (synchronous)
 *       int name_launch(const perks_cgs_args *a, cudaStream_t)      plan, run, perks_cgs_plan_free
 * *   T perks_cg_mixed (the word): name_fkernel (float), name_dkernel (double), the verbs with double
 *   b, x.  perks_cgs_args: nx, ny, nz; w (HOST, the shape's ncoef weights); b, x (device); opts;
 *   result; k, face.  OPERATOR (onchip/operator.h): ONCHIP_OPERATOR_STENCIL (left out) (A v)(c) = sum
 *   over the points of w[I] v(c + (DX, DY, DZ)); ONCHIP_OPERATOR_DIVK s v(c) + sum over I != 0 of
 *   -w[I] k_I (v(c) - v(c + d_I)), k_I = face(k(c), k(c + d_I)) by a.face, s the weights' sum, Jacobi
 *   from each cell's diagonal.  v = 0 outside the grid; the plan owns its workspace and serves many
 *   solves: docs/perks-cg.md#matrix-free-perks_cg_stencil3d_define.
 *   The iteration (docs/perks-cg.md#reference-the-matrix-free-iteration), what a success means
 *   (docs/perks-cg.md#reference-matrix-free-success-and-mixed-precision): as perks/cg.cuh's grid
 *   path.  GLOSSARY: docs/perks-cg.md#cg-glossary.
 *
 * EXAMPLE
 *   [compile: const double *d_b, *d_k; double *d_x]
 *   #include <perks/cg_stencil.cuh>
 *   PERKS_CG_STENCIL3D_DEFINE(poisson, double, ONCHIP_SHAPE_STAR3D_R1)
 *   PERKS_CG_STENCIL3D_DEFINE(darcy, double, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)
 *
 *   const double w[7] = {6, -1, -1, -1, -1, -1, -1};       // -laplace, h = 1
 *   perks_cg_result res;
 *   perks_cgs_args a = {};
 *   a.nx = a.ny = a.nz = 256, a.w = w, a.b = d_b, a.x = d_x, a.opts = perks_cg_defaults(), a.result = &res;
 *   int rc = poisson_launch(&a, 0);                        // the answer in a.x
 *   a.k = d_k, a.face = ONCHIP_FACE_HARMONIC;              // -div(k grad u) = b
 *   if (!rc) rc = darcy_launch(&a, 0);
 *
 * LIMITS AND ERRORS (all: docs/perks-cg.md#reference-matrix-free-limits-and-errors)
 *   Static: T float, double or perks_cg_mixed; SHAPE holds the centre, comes in opposite pairs,
 *   radius <= 4, at most PERKS_CGS_MAXCOEF (128) coefficients; OPERATOR one of the two.  name_plan
 *   checks sizes, tol, max_iter and the weights (centre > 0, symmetric, finite; DIVK: off-centre
 *   <= 0, sum >= 0, every k in [2^-64, 2^64], read by the plan): a refusal is the code, p.why,
 *   p.passes 0, nothing launched.  result->status = the code name_run returns.  One run at a time
 *   per plan; a DIVK plan holds the diagonal of the k it read (a new k: a new plan; name_run refuses
 *   another a.k with PERKS_EUNSUPPORTED).
 */
#ifndef PERKS_CG_STENCIL_CUH
#define PERKS_CG_STENCIL_CUH

#include "cg_stencil/body.cuh"
#include "cg_stencil/host.cuh"
#include "cg_stencil/define.cuh"

#endif /* PERKS_CG_STENCIL_CUH */
#include <onchip/names_pop.h>
