#include <onchip/names_push.h>
/* perks/cg.cuh -- conjugate gradient in one persistent kernel (CSR, fp64 or fp32): one thread-block
 * cluster (sm_90) for small systems, a cooperative grid for those that fit its shared memory, and
 * the same grid over a sliced-ELL copy of the matrix for systems that stream from device memory.
 * THE PIECES (perks/cg/, each usable alone): types.cuh, spmv.cuh, reduce.cuh, replace.cuh, stage.cuh,
 *   kernel_grid.cuh, kernel_cgear.cuh, kernel_cluster.cuh, kernel_cheb.cuh, kernel_fsai.cuh, resid.cuh,
 *   fsai_setup.cuh, plan.cuh, refine.cuh, precond.cuh, define.cuh, mixed.cuh.
 *   GLOSSARY of the internal bodies' names: docs/perks-cg.md#cg-glossary.
 *
 * WHAT (PERKS paper, Zhang et al. ICS'23, sections 3-4; CG is the paper's Krylov example)
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines the kernels name_kernel (grid), name_kernel1
 *   (Chronopoulos-Gear), name_ckernel (cluster, sm_90), name_skernel (stream path) and the verbs of
 *   onchip/plan.h over perks_cg_args a (n, nnz, row_ptr, col, val, b, x: device; opts; result: host):
 *       int name_plan(const perks_cg_args *a, perks_cg_plan *p)   checks a, picks the path, allocates
 *       int name_run(const perks_cg_args *a, const perks_cg_plan *p, cudaStream_t)   solves a's b into a's x
 *       int name_launch(const perks_cg_args *a, cudaStream_t)     plan, run, perks_cg_plan_free
 *   A x = b, A SPD in CSR (32-bit indices), classic preconditioned CG, dot products in double.  The
 *   plan OWNS device memory and serves many solves; perks_cg_plan_free releases it.  PERKS_SUCCESS
 *   only when the TRUE residual is <= tol (docs/perks-cg.md#reference-what-a-success-means).
 *   T perks_cg_mixed: docs/perks-cg.md#reference-mixed-precision.
 *
 * EXAMPLE
 *   [compile: int n, nnz; const int *d_rp, *d_ci; const double *d_va, *d_b, *d_b2; double *d_x]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cg64, double, 256)
 *
 *   perks_cg_result res;
 *   perks_cg_args a = {n, nnz, d_rp, d_ci, d_va, d_b, d_x, perks_cg_defaults(), &res};
 *   perks_cg_plan p;
 *   int rc = cg64_plan(&a, &p);                  // p.why: the path and why
 *   if (!rc) rc = cg64_run(&a, &p, 0);           // x = A^-1 b, in p.result (= d_x)
 *   a.b = d_b2;                                  // the same plan, another right-hand side
 *   if (!rc) rc = cg64_run(&a, &p, 0);
 *   perks_cg_plan_free(&p);
 *   if (rc) fprintf(stderr, "%s after %d iterations\n", perks_strerror(rc), res.iterations);
 *
 * PARAMETERS AND LIMITS (all: docs/perks-cg.md#reference-parameters-and-limits)
 *   T float, double or perks_cg_mixed; BLOCK a multiple of 32, 64..1024; static_asserts name the
 *   generator and the instance.  n >= 1, 0 <= nnz < 2^31, square A; the matrix as planned while the
 *   plan is used.  opts: tol, max_iter, jacobi, cache, blocks, x0, path (0 auto, 1 grid, 2 cluster,
 *   3 stream), cluster, barrier, variant, replace, mixed, cheb (Chebyshev p(D^-1 A) D^-1, degree
 *   1..16 or -1 the planner's: docs/perks-cg.md#reference-chebyshev-preconditioning), cheb_steps,
 *   fsai (M^-1 = G' G, G built by name_plan: docs/perks-cg.md#reference-fsai-preconditioning),
 *   fsai_width.
 *   name_plan's refusals (the code, p.why, p.passes 0, nothing launched): PERKS_ENULL, PERKS_ESIZE, PERKS_EEMPTYROW, PERKS_ENOCOOP,
 *   PERKS_ERESOURCE, PERKS_EUNSUPPORTED, PERKS_ECORESIDENT, PERKS_ECUDA, PERKS_ENOMEM.  One run at
 *   a time per plan.  The grid kernel has at most 64 registers (PERKS_CG_THREADS_PER_SM).
 * NVRTC (docs/python.md): PERKS_CG_DEFINE emits its kernels only (perks_cg_kargs).
 */
#ifndef PERKS_CG_CUH
#define PERKS_CG_CUH

#include "base.h"
#include "grid.cuh"
#include "barrier.cuh"
#include "cg/types.cuh"
#include "cg/spmv.cuh"
#include "cg/reduce.cuh"
#include "cg/replace.cuh"
#include "cg/kernel_grid.cuh"
#include "cg/kernel_cgear.cuh"
#include "cg/kernel_cluster.cuh"
#include "cg/kernel_cheb.cuh"
#include "cg/kernel_fsai.cuh"
#include "cg/resid.cuh"
#include "cg/plan.cuh"
#include "cg/refine.cuh"
#include "cg/precond.cuh"
#include "cg/define.cuh"
#include "cg/mixed.cuh"

#endif /* PERKS_CG_CUH */
#include <onchip/names_pop.h>
