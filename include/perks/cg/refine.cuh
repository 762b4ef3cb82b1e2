#include <onchip/names_push.h>
/* perks/cg/refine.cuh -- a solve's outcome, and iterative refinement on the host for the kernels
 * without in-kernel replacement (double, Chronopoulos-Gear) (perks/cg.cuh, WHAT A SUCCESS MEANS).
 *
 * WHAT
 *   perks__cg_finish(p, &res)     waits for perks__cg_start's solve, reads its result and its true
 *                              residual; PERKS_SUCCESS only when the true residual met tol.  A
 *                              solve of those kernels whose recurrence alone met tol is refined
 *                              (docs/perks-cg.md#design-notes-perkscgrefinecuh)
 *   perks__cg_wait1(p, &res)   one launch's result (no refinement)
 *   perks__cg_refine(...)      one refinement
 *
 * EXAMPLE (name_run's steps, on its copy q of the plan)
 *   [compile: perks_cg_plan q; const double *d_b; double *d_x; cudaStream_t stream; int rc; perks_cg_result res]
 *   if (!perks__cg_start(&q, d_b, d_x, stream)) rc = perks__cg_finish(&q, &res);
 *
 * LIMITS: one perks__cg_start at a time per plan; res.iterations counts every iteration,
 * res.replacements the refinements.
 */
#ifndef PERKS_CG_REFINE_CUH
#define PERKS_CG_REFINE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>
#endif

#include "../base.h"
#include "plan.cuh"
#include "resid.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it */
/* one launch's result (perks__cg_finish without the restarts) */
static inline int perks__cg_wait1(perks_cg_plan *p, perks_cg_result *res)
{
    perks__cg_out out;
    double trr = 0, tbb = 0, taa = 0;
    if (!p || !res) return PERKS_ENULL;
    memset(res, 0, sizeof *res);
    if (!p->ws || !p->rpart) return PERKS_ESIZE;
    if (cudaStreamSynchronize(p->stream) != cudaSuccess) return PERKS_ECUDA;
    if (cudaMemcpy(&out, p->args.out, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    if (perks__cg_resid_read(p->rpart, &trr, &tbb, &taa)) return PERKS_ECUDA;
    res->status = out.status;
    res->iterations = out.iterations;
    res->replacements = out.repl;
    res->bnorm = out.bb > 0 ? sqrt(out.bb) : 0;
    res->rel_residual = out.bb > 0 ? sqrt(out.rr / out.bb) : sqrt(out.rr);
    res->true_residual = tbb > 0 ? sqrt(trr / tbb) : sqrt(trr);
    res->ran = PERKS_CG_RAN_NATIVE;
    res->path = p->path;
    res->precond = p->fsai   ? PERKS_CG_PC_FSAI
                   : p->cheb ? PERKS_CG_PC_CHEB
                   : p->args.jacobi ? PERKS_CG_PC_JACOBI
                                    : PERKS_CG_PC_NONE;
    if (p->fsai) /* the plan's G: its width and construction */
        res->pc_degree = p->opts.fsai_width ? p->opts.fsai_width : PERKS_FSAI_WIDTH, res->pc_setup_ms = p->fsai_ms;
    res->rounding_floor = perks__cg_floor(p->args.x_hi ? 8 : p->elt, taa, tbb);
    res->at_floor = p->opts.tol < PERKS_CG_FLOOR_MARGIN * res->rounding_floor;
    /* a success is the true residual's: the recurrence alone may have drifted from it */
    if (res->status == PERKS_SUCCESS && !(res->true_residual <= p->opts.tol)) res->status = PERKS_EINACCURATE;
    return res->status;
}


/* one refinement of a PERKS_EINACCURATE solve (prev): A d = r from d = 0 in at most `budget`
 * iterations, x += d; no progress: undone, *stop = 1.  docs/perks-cg.md#refine-correction */
static inline int perks__cg_refine(perks_cg_plan *p, const perks_cg_result *prev, int budget, perks_cg_result *res,
                                   int *stop)
{
    const int n = p->n, elt = p->elt;
    const size_t xb = perks__cg_align((size_t)elt * n);
    const void *b = p->args.b;
    void *x = p->args.x;
    double *rd = (double *)((char *)p->args.xbest + xb);
    void *d = (char *)rd + perks__cg_align((size_t)8 * n), *rt = elt == 8 ? (void *)rd : (char *)d + xb;
    const int x0 = p->args.use_x0, mi = p->args.max_iter;
    const double tol = p->args.tol;
    perks_cg_result in;
    double trr = 0, tbb = 0, taa = 0;
    int rc;
    *stop = 1;
    *res = *prev;
    rc = perks__cg_resid_launch(n, elt, p->args.rp, p->args.ci, p->args.va, b, x, rd, p->rpart, p->stream);
    if (!rc && elt == 4) perks__cg_to_float<<<264, 256, 0, p->stream>>>(n, rd, 1.0, (float *)rt);
    if (rc || cudaGetLastError() != cudaSuccess) return res->status = PERKS_ECUDA;
    p->args.use_x0 = 0;
    p->args.max_iter = budget;
    p->args.tol = tol * PERKS_CG_RESTART_TOL / prev->true_residual; /* relative to ||r|| = true ||b|| */
    rc = perks__cg_start(p, rt, d, p->stream);
    p->args.use_x0 = x0, p->args.max_iter = mi, p->args.tol = tol, p->args.b = b, p->args.x = x;
    if (rc) return res->status = rc;
    rc = perks__cg_wait1(p, &in);
    if (rc == PERKS_ECUDA) return res->status = rc;
    res->iterations += in.iterations;
    res->replacements++;
    if (rc != PERKS_SUCCESS && rc != PERKS_EINACCURATE && rc != PERKS_ENOCONV) return res->status; /* not added */
    if (cudaMemcpyAsync(p->args.xbest, x, (size_t)elt * n, cudaMemcpyDeviceToDevice, p->stream) != cudaSuccess)
        return res->status = PERKS_ECUDA;
    perks__cg_add<<<264, 256, 0, p->stream>>>(n, elt, x, d);
    if (cudaGetLastError() != cudaSuccess ||
        perks__cg_resid_launch(n, elt, p->args.rp, p->args.ci, p->args.va, b, x, NULL, p->rpart, p->stream) ||
        perks__cg_resid_read(p->rpart, &trr, &tbb, &taa))
        return res->status = PERKS_ECUDA;
    trr = tbb > 0 ? sqrt(trr / tbb) : sqrt(trr);
    if (!(trr < prev->true_residual)) { /* no progress: what T reaches here; the x before it stays */
        if (cudaMemcpy(x, p->args.xbest, (size_t)elt * n, cudaMemcpyDeviceToDevice) != cudaSuccess)
            return res->status = PERKS_ECUDA;
        return res->status;
    }
    res->true_residual = trr;
    res->rounding_floor = perks__cg_floor(elt, taa, tbb);
    res->at_floor = tol < PERKS_CG_FLOOR_MARGIN * res->rounding_floor;
    res->rel_residual = in.rel_residual * prev->true_residual; /* relative to ||b|| */
    res->status = trr <= tol ? PERKS_SUCCESS : rc == PERKS_ENOCONV ? PERKS_ENOCONV : PERKS_EINACCURATE;
    *stop = res->status != PERKS_EINACCURATE;
    return res->status;
}

/* Kernels without in-kernel replacement (double, Chronopoulos-Gear) whose recurrence met tol while
 * the true residual did not: up to PERKS_CG_RESTARTS refinements (perks__cg_refine) while each
 * lowers the true residual; the iterations add up, res.replacements counts the refinements. */
static inline int perks__cg_finish(perks_cg_plan *p, perks_cg_result *res)
{
    int rc = perks__cg_wait1(p, res), k, stop = 0;
    if (rc == PERKS_ENULL || rc == PERKS_ESIZE || rc == PERKS_ECUDA) return rc;
    for (k = 0; k < PERKS_CG_RESTARTS && !stop && rc == PERKS_EINACCURATE &&
                (perks__cg_refines(p->elt, p->variant) || p->cheb || p->fsai) &&
                p->opts.replace != 0 && !p->args.x_hi && res->iterations < p->args.max_iter &&
                isfinite(res->true_residual) && res->true_residual > 0;
         k++) {
        const perks_cg_result prev = *res;
        rc = perks__cg_refine(p, &prev, p->args.max_iter - prev.iterations, res, &stop);
    }
    return rc;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_REFINE_CUH */
#include <onchip/names_pop.h>
