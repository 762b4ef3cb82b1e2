#include <onchip/names_push.h>
/* perks/mg.cuh -- CG preconditioned by a geometric multigrid V-cycle for the 3D 7-point
 * constant-coefficient operator with homogeneous Dirichlet boundary, matrix-free; host-driven (a loop
 * of kernel launches on one stream).
 *
 * WHAT
 *   PERKS_MG3D_DEFINE(name, T)     T float or double; under NVRTC the kernels alone
 *       __global__ name_apply, _resid, _update, _dot, _pupdate, _scale, _jacobi, _restrict, _prolong
 *       int name_plan(const perks_cgs_args *a, perks_mg_plan *p)   checks a, the levels, allocates them
 *       int name_run(const perks_cgs_args *a, const perks_mg_plan *p, cudaStream_t)   one solve (synchronous)
 *       int name_launch(const perks_cgs_args *a, cudaStream_t)     plan, run, perks_mg_plan_free
 *   void perks_mg_plan_free(perks_mg_plan *p)
 *   The arguments are cg_stencil's (perks_cgs_args: nx, ny, nz, w, b, x, opts, result) with w the 7
 *   weights of ONCHIP_SHAPE_STAR3D_R1: (A v)(c) = w[0] v(c) + w[1] v(c-x) + w[2] v(c+x) + w[3] v(c-y)
 *   + w[4] v(c+y) + w[5] v(c-z) + w[6] v(c+z), v = 0 outside the grid.  Levels: coarse n = (n - 1) / 2
 *   per axis (coarse I at fine 2I+1), all axes together while each is >= 3 and the level has more than
 *   PERKS_MG_COARSE_CELLS (64) cells, at most PERKS_MG_LEVELS (12); coarse weights w / 4.  The V-cycle:
 *   PERKS_MG_NU (2) damped Jacobi sweeps from 0, full-weighting restriction R = P^T / 8 of the
 *   residual, the coarser level, trilinear prolongation P added, PERKS_MG_NU sweeps; the coarsest
 *   level PERKS_MG_COARSE_SWEEPS (40) sweeps from 0.  Jacobi's damping PERKS_MG_OMEGA (0.8) times
 *   min(1, 2 / g), g = (|w0| + sum |w_k|) / w0.  The preconditioner is a fixed SPD operator.  Outer:
 *   Hestenes-Stiefel PCG, dots in double (block partials summed on the host), stop at ||r|| <= tol ||b||
 *   (r the recurrence's), then the true residual ||b - A x|| / ||b|| in double decides success.
 *   result: status, iterations, rel_residual, bnorm, true_residual, precond PERKS_CG_PC_MG, pc_degree
 *   the levels, pc_setup_ms 0 (no setup besides name_plan).  Docs: docs/perks-cg.md#multigrid-perks_mg3d_define.
 *
 * EXAMPLE
 *   [compile: const double *d_b; double *d_x]
 *   #include <perks/mg.cuh>
 *   PERKS_MG3D_DEFINE(mgp, double)
 *
 *   const double w[7] = {6, -1, -1, -1, -1, -1, -1};       // -laplace, h = 1
 *   perks_cg_result res;
 *   perks_cgs_args a = {};
 *   a.nx = a.ny = a.nz = 128, a.w = w, a.b = d_b, a.x = d_x, a.opts = perks_cg_defaults(), a.result = &res;
 *   int rc = mgp_launch(&a, 0);                            // the answer in a.x
 *
 * LIMITS
 *   T float or double (a static_assert names the generator); at most 2^31 - 1 cells.  opts: tol, max_iter,
 *   x0 are read, jacobi and the grid-path options are ignored, cheb and a cell field (a.k) are
 *   refused.  One run at a time per plan; the plan is valid for the sizes and weights it was made
 *   from (b, x may change).
 *
 * ERRORS (name_plan: the code, p->why "refused: ...", nothing allocated, p->passes 0; name_run the same
 * codes in result->status)
 *   PERKS_ENULL a, w, b, x or result NULL; PERKS_ESIZE nx, ny, nz < 1, too many cells, tol not > 0,
 *   max_iter < 0 (name_run: a refused or freed plan); PERKS_EDIAG centre not > 0; PERKS_EFORMAT a weight
 *   not finite; PERKS_ENOTSYM w[1] != w[2], w[3] != w[4] or w[5] != w[6]; PERKS_EUNSUPPORTED opts.cheb;
 *   PERKS_ENOMEM the levels' allocation.  name_run: PERKS_ENOCONV after max_iter; PERKS_EBREAKDOWN p.Ap
 *   or r.z not > 0; PERKS_EINACCURATE the recurrence met tol, the true residual did not; PERKS_ECUDA.
 */
#ifndef PERKS_MG_CUH
#define PERKS_MG_CUH

#include "cg/types.cuh"
#include "mg/kernels.cuh"
#include "mg/host.cuh"

/* the kernels (NVRTC: those alone), then the table of them and the three verbs */
#define PERKS_MG3D_DEFINE(name, T)                                                                        \
    static_assert(perks__cg_real<T>::ok, "PERKS_MG3D_DEFINE(" #name "): T must be float or double");      \
    typedef perks__cg_real<T>::type name##__t;                                                             \
    PERKS__MG_KERNELS(name, name##__t)                                                                     \
    PERKS__MG_HOST(name)
#ifndef __CUDACC_RTC__
#define PERKS__MG_HOST(name)                                                                               \
    static const perks__mg_kern<name##__t> name##__kern = {name##_apply,  name##_resid,   name##_update,   \
                                                            name##_dot,    name##_pupdate, name##_scale,    \
                                                            name##_jacobi, name##_restrict, name##_prolong}; \
    static inline __attribute__((unused)) int name##_plan(const perks_cgs_args *a, perks_mg_plan *p)      \
    {                                                                                                      \
        return perks__mg_plan_make<name##__t>(&name##__kern, a, p);                                        \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_run(const perks_cgs_args *a, const perks_mg_plan *p, \
                                                         cudaStream_t stream)                              \
    {                                                                                                      \
        return perks__mg_solve<name##__t>(a, p, stream);                                                   \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_launch(const perks_cgs_args *a, cudaStream_t stream) \
    {                                                                                                      \
        perks_mg_plan p;                                                                                   \
        int rc = name##_plan(a, &p);                                                                       \
        if (!rc) rc = name##_run(a, &p, stream);                                                           \
        else if (a && a->result) perks__cg_result_error(a->result, rc);                                    \
        perks_mg_plan_free(&p);                                                                            \
        return rc;                                                                                         \
    }
#else
#define PERKS__MG_HOST(name)
#endif

#endif /* PERKS_MG_CUH */
#include <onchip/names_pop.h>
