#include <onchip/names_push.h>
/* perks/cg/precond.cuh -- the Chebyshev preconditioner's solve (perks/cg.cuh, opts.cheb): Jacobi CG
 * steps whose alpha and beta bound the spectrum of D^-1 A, then CG preconditioned by p(D^-1 A) D^-1
 * from their x, both in name_pkernel (perks/cg/kernel_cheb.cuh).
 *
 * WHAT (docs/perks-cg.md#reference-chebyshev-preconditioning)
 *   perks__cg_cheb_degree(a, b)   opts.cheb -1: the degree d of 0..16 that minimises (d + 2)
 *       sqrt(kappa_d), kappa_d = (1 + e_d) / (1 - e_d), e_d = perks_cheb_bound on [a /
 *       PERKS_CG_CHEB_SPAN, b] (kappa_0 = b / that): an iteration's steps (d syncs and 2
 *       reductions, each about one SpMV's latency) times the iterations CG's bound predicts; 0 goes
 *       on with Jacobi
 *   perks__cg_cheb_solve(p, res)   the two launches on a plan copy p (perks__cg_run's), the result
 *       with res.precond PERKS_CG_PC_CHEB, pc_degree, pc_a, pc_b, pc_setup_ms, pc_setup_iterations
 *
 * EXAMPLE (inside perks__cg_run)
 *   [not compiled: a piece of the library's host code]
 *   rc = q.cheb ? perks__cg_cheb_solve(&q, a->b, a->x, stream, a->result) : ...;
 *
 * LIMITS: a grid plan of name_pkernel (p->cheb != 0).  The Jacobi steps: opts.cheb_steps (0:
 * PERKS_CG_CHEB_STEPS); a solve that meets tol within them returns with pc_degree 0.  The interval:
 * perks_cheb_rule_default(PERKS_CHEB_PRECOND) around the Ritz values.  A breakdown of the bounds
 * (alpha or beta not positive: not SPD) returns PERKS_EBREAKDOWN with the Jacobi steps' x.
 */
#ifndef PERKS_CG_PRECOND_CUH
#define PERKS_CG_PRECOND_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>
#endif

#include "../base.h"
#include "../cheb.h"
#include "plan.cuh"
#include "refine.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it */
static inline int perks__cg_cheb_degree(double a, double b)
{
    const double lo = a / PERKS_CG_CHEB_SPAN;
    double best = 2 * sqrt(b / lo); /* d = 0: Jacobi CG, two reductions an iteration */
    int d, pick = 0;
    for (d = 1; d <= PERKS_CHEB_DMAX; d++) {
        perks_cheb c;
        double e, cost;
        if (perks_cheb_coeffs(lo, b, d, &c) != PERKS_SUCCESS) continue;
        e = c.bound;
        if (!(e >= 0 && e < 1)) continue;
        cost = (d + 2) * sqrt((1 + e) / (1 - e));
        if (cost < best) best = cost, pick = d;
    }
    return pick;
}

/* the coefficients of degree d on [a, b] into the plan's device buffer (d 0: Jacobi, nu[0] 1) */
static inline int perks__cg_cheb_put(perks_cg_plan *p, const perks_cheb *c)
{
    double h[2 * (PERKS_CHEB_DMAX + 1)];
    memset(h, 0, sizeof h);
    if (c) {
        memcpy(h, c->mu, sizeof c->mu);
        memcpy(h + PERKS_CHEB_DMAX + 1, c->nu, sizeof c->nu);
        p->args.cdeg = c->degree;
    } else {
        h[PERKS_CHEB_DMAX + 1] = 1;
        p->args.cdeg = 0;
    }
    return cudaMemcpyAsync((void *)p->args.cheb, h, sizeof h, cudaMemcpyHostToDevice, p->stream) == cudaSuccess
               ? PERKS_SUCCESS
               : PERKS_ECUDA;
}

static inline int perks__cg_cheb_solve(perks_cg_plan *p, const void *d_b, void *d_x, cudaStream_t stream,
                                       perks_cg_result *res)
{
    const int mi = p->args.max_iter, x0 = p->args.use_x0;
    const int steps = p->opts.cheb_steps ? p->opts.cheb_steps : PERKS_CG_CHEB_STEPS;
    double lan[2 * PERKS_CHEB_KMAX], lmin = 0, lmax = 0, a = 0, b = 0;
    perks_cheb_rule rule;
    perks_cheb c;
    perks_cg_result r1;
    cudaEvent_t ev[2] = {NULL, NULL};
    float ms = 0;
    int rc, k, d;
    memset(res, 0, sizeof *res);
    memset(&r1, 0, sizeof r1);
    p->stream = stream;
    if (cudaEventCreate(&ev[0]) != cudaSuccess || cudaEventCreate(&ev[1]) != cudaSuccess) {
        rc = PERKS_ECUDA;
        goto done;
    }
    /* the Jacobi steps */
    if (cudaEventRecord(ev[0], stream) != cudaSuccess || (rc = perks__cg_cheb_put(p, NULL)) != PERKS_SUCCESS) {
        rc = PERKS_ECUDA;
        goto done;
    }
    p->args.max_iter = steps < mi ? steps : mi;
    rc = perks__cg_start(p, d_b, d_x, stream);
    if (!rc) rc = perks__cg_wait1(p, &r1);
    p->args.max_iter = mi;
    k = r1.iterations;
    /* met tol, failed, or no iterations left: the Jacobi steps' result (a recurrence that met tol
     * while the true residual did not goes on, preconditioned) */
    if ((rc != PERKS_ENOCONV && rc != PERKS_EINACCURATE) || k >= mi) {
        if (rc != PERKS_ECUDA && rc != PERKS_ESIZE && rc != PERKS_ENULL) {
            *res = r1;
            res->precond = PERKS_CG_PC_CHEB;
            res->pc_setup_iterations = k;
        }
        goto done;
    }
    /* the interval and the polynomial */
    if (cudaMemcpy(lan, p->args.lanc, sizeof lan, cudaMemcpyDeviceToHost) != cudaSuccess) {
        rc = PERKS_ECUDA;
        goto done;
    }
    rc = perks_cheb_lanczos_bounds(lan, lan + PERKS_CHEB_KMAX, k < PERKS_CHEB_KMAX ? k : PERKS_CHEB_KMAX, &lmin, &lmax);
    if (!rc) rc = perks_cheb_rule_default(PERKS_CHEB_PRECOND, &rule);
    if (!rc) rc = perks_cheb_margin(&rule, lmin, lmax, &a, &b);
    d = p->cheb > 0 ? p->cheb : 1;
    if (!rc && p->cheb < 0) d = perks__cg_cheb_degree(a, b);
    if (!rc) rc = perks_cheb_coeffs(a, b, d, &c);
    if (rc) { /* the steps' scalars are not CG's on an SPD system */
        *res = r1;
        res->status = rc = PERKS_EBREAKDOWN;
        res->precond = PERKS_CG_PC_CHEB;
        res->pc_setup_iterations = k;
        goto done;
    }
    if ((rc = perks__cg_cheb_put(p, &c)) != PERKS_SUCCESS || cudaEventRecord(ev[1], stream) != cudaSuccess) {
        rc = PERKS_ECUDA;
        goto done;
    }
    /* the preconditioned solve from the steps' x, with the iterations left */
    p->args.use_x0 = 1;
    p->args.max_iter = mi - k;
    rc = perks__cg_start(p, d_b, d_x, stream);
    if (!rc) rc = perks__cg_finish(p, res);
    p->args.use_x0 = x0, p->args.max_iter = mi;
    if (rc == PERKS_ECUDA || rc == PERKS_ESIZE || rc == PERKS_ENULL) goto done;
    res->iterations += k;
    res->precond = PERKS_CG_PC_CHEB;
    res->pc_degree = d;
    res->pc_a = a, res->pc_b = b;
    res->pc_setup_iterations = k;
    if (cudaEventElapsedTime(&ms, ev[0], ev[1]) == cudaSuccess) res->pc_setup_ms = ms;
done:
    if (ev[0]) cudaEventDestroy(ev[0]);
    if (ev[1]) cudaEventDestroy(ev[1]);
    res->status = rc;
    return rc;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_PRECOND_CUH */
#include <onchip/names_pop.h>
