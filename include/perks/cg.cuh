#include <onchip/names_push.h>
/* perks/cg.cuh -- conjugate gradient in one persistent kernel (CSR, fp64 or fp32): one thread-block
 * cluster (sm_90) for small systems, a cooperative grid for those that fit its shared memory, and
 * the same grid over a sliced-ELL copy of the matrix for systems that stream from device memory.
 *
 * THE PIECES (perks/cg/, each usable alone): types.cuh (opts, result, plan, kargs, constants),
 *   spmv.cuh, reduce.cuh, replace.cuh, stage.cuh, kernel_grid.cuh, kernel_cgear.cuh, kernel_cluster.cuh,
 *   resid.cuh, plan.cuh (planner, perks_cg_run), refine.cuh (perks_cg_wait), define.cuh, mixed.cuh.
 *
 * WHAT (PERKS paper, Zhang et al. ICS'23, sections 3-4: the time loop in the kernel, the data every
 * iteration re-reads on chip; CG is the paper's Krylov example)
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines the kernels name_kernel (grid), name_ckernel (cluster,
 *   sm_90), name_skernel (stream path) and
 *       int name_plan(perks_cg_plan *, n, nnz, d_row_ptr, d_col, d_val, const perks_cg_opts *)
 *       int name_solve(n, nnz, d_row_ptr, d_col, d_val, d_b, d_x, opts, perks_cg_result *, stream)
 *   and, for any plan, perks_cg_run(plan, d_b, d_x, stream) (asynchronous), perks_cg_wait(plan,
 *   &res) (the solve's status), perks_cg_plan_free(plan).  A x = b, A SPD in CSR (32-bit indices,
 *   device memory), classic preconditioned CG (optional Jacobi M = diag(A)); T vectors and matrix,
 *   dot products in double.
 *
 * WHAT A SUCCESS MEANS: every solve ends with the TRUE residual ||b - A x|| / ||b|| of the x it
 *   returns (res.true_residual, summed in double); PERKS_SUCCESS only when it is <= tol, else
 *   PERKS_EINACCURATE with x returned.  Float classic CG replaces the residual in the kernel;
 *   double and Chronopoulos-Gear solves refine on the host (docs/perks-cg.md#reference-what-a-success-means).
 *
 * MIXED PRECISION (PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK): name_solve, the same arguments,
 *   double A, b, x; the kernels of name_f32 and name_f64)
 *   A float CG whose residual replacements are done in double (reliable updates), handing over to the
 *   double solver where float stalls; 4 nnz + 8 n bytes of workspace beside the two plans.
 *   docs/perks-cg.md#reference-mixed-precision.
 *
 * EXAMPLE
 *   [compile: int n, nnz; const int *d_rp, *d_ci; const double *d_va, *d_b; double *d_x]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cg64, double, 256)
 *
 *   perks_cg_opts o = perks_cg_defaults();      // tol 1e-8, max_iter 10000, Jacobi off, cache on
 *   perks_cg_result res;
 *   int rc = cg64_solve(n, nnz, d_rp, d_ci, d_va, d_b, d_x, &o, &res, 0);
 *   if (rc) fprintf(stderr, "%s after %d iterations\n", perks_strerror(rc), res.iterations);
 *   // repeated solves with one matrix: cg64_plan once, then perks_cg_run + perks_cg_wait
 *
 * HOW: 2 barriers an iteration, textbook CG arithmetic; the cluster (path 2), grid (1), stream (3)
 *   paths and Chronopoulos-Gear (opts.variant): docs/perks-cg.md#reference-the-iteration-both-paths.
 *
 * PARAMETERS AND LIMITS (all of them: docs/perks-cg.md#reference-parameters-and-limits)
 *   T float, double or perks_cg_mixed; BLOCK a multiple of 32, 64..1024 (256 a good default);
 *   static_asserts name the generator and the instance.  n >= 1, 0 <= nnz < 2^31, square A, device
 *   memory valid while the plan is used.  opts: tol >= 0, max_iter >= 0, path (0 auto, 1 grid, 2
 *   cluster, 3 stream), cluster, blocks, barrier, variant, x0, replace, mixed.  res: status,
 *   iterations, rel_residual, true_residual, replacements, path.  Host errors before any launch
 *   (PERKS_ENULL, PERKS_ESIZE, PERKS_EEMPTYROW, PERKS_ENOCOOP, PERKS_ERESOURCE, PERKS_EUNSUPPORTED,
 *   PERKS_ECORESIDENT, PERKS_ECUDA); check a matrix first with perks_csr_check (perks/mtx.h).  One
 *   perks_cg_run at a time per plan.  A solve is one launch; the grid kernel has at most 64
 *   registers (1024 threads per SM; PERKS_CG_THREADS_PER_SM 512 for the ~100-register build).
 * NVRTC (docs/python.md): PERKS_CG_DEFINE emits its kernels only (perks_cg_kargs, filled by the
 *   host planner); no name_plan, name_solve.
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
#include "cg/resid.cuh"
#include "cg/plan.cuh"
#include "cg/refine.cuh"
#include "cg/define.cuh"
#include "cg/mixed.cuh"

#endif /* PERKS_CG_CUH */
#include <onchip/names_pop.h>
