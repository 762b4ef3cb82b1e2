#include <onchip/names_push.h>
/* perks/cg_dist/solve.cuh -- the distributed CG's iteration and its end (host): the true residual,
 * the restarts from it, the polls of the device state (perks/cg_dist.cuh, THE ITERATION and WHAT A
 * SUCCESS MEANS).
 *
 * WHAT
 *   perks__cgd_plan_make(a, p, elt)            name_plan: the process's checks, the setup (collective),
 *                                              onchip_plan's head; a refusal names why
 *   perks__cgd_run(a, p, ks)                   name_run: one solve with the kernels ks on the ranks the
 *                                              plan set up (collective)
 *   perks_cgd_plan_free(p)                     the ranks' workspaces released
 *   perks__cgd_residual(...)   w = x (or 0) exchanged, r = b - A w with its sums, all-reduced
 *   perks__cgd_iterate(...)    one CG iteration on every local rank (exchange, spmv, all-reduce,
 *                              update, all-reduce, pupd)
 *   perks__cgd_read(...)       the state of local rank 0, waited for (NCCL: at most timeout_s)
 *
 * EXAMPLE
 *   [not compiled: a library-internal step (perks__*), its kernel set elided]
 *   const perks__cgd_kset ks = {...the five kernels..., (int)sizeof(double)};
 *   int rc = perks__cgd_plan_make(&a, &p, ks.elt);
 *   if (!rc) rc = perks__cgd_run(&a, &p, &ks);
 *   perks_cgd_plan_free(&p);
 *
 * LIMITS: see perks/cg_dist.cuh; after PERKS_ECOMM or PERKS_ETIMEOUT the process's communicators are
 * aborted and the workspace is left allocated (the plan then holds nothing a run can use).
 */
#ifndef PERKS_CG_DIST_SOLVE_CUH
#define PERKS_CG_DIST_SOLVE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>
#endif

#include "../base.h"
#include "../exchange.cuh" /* perks_nccl_wait */
#include "comm.cuh"
#include "setup.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it: nothing under NVRTC */
/* w's own block = x (or 0), exchanged; r = b - A w with its sums (resid), all-reduced */
static inline int perks__cgd_residual(perks_cgd_rank *rk, int nlocal, const perks__cgd_kset *ks, int from_x, int cnt)
{
    int rc = 0;
    for (int i = 0; i < nlocal && !rc; i++) {
        perks_cgd_rank *k = &rk[i];
        char *own = (char *)k->w + (size_t)(k->first - k->lo) * k->elt;
        if (cudaSetDevice(k->device) != cudaSuccess ||
            (from_x ? cudaMemcpyAsync(own, k->x, (size_t)k->own * k->elt, cudaMemcpyDeviceToDevice, k->stream)
                    : cudaMemsetAsync(own, 0, (size_t)k->own * k->elt, k->stream)) != cudaSuccess)
            rc = PERKS_ECUDA;
    }
    if (!rc) rc = perks__cgd_exchange(rk, nlocal);
    for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->resid, 0, 0);
    return rc ? rc : perks__cgd_allreduce(rk, nlocal, 1, cnt);
}

/* one CG iteration on every local rank */
static inline int perks__cgd_iterate(perks_cgd_rank *rk, int nlocal, const perks__cgd_kset *ks, int it)
{
    int rc = perks__cgd_exchange(rk, nlocal);
    for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->spmv, it, 0);
    if (!rc) rc = perks__cgd_allreduce(rk, nlocal, 0, 1);
    for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->update, it, 0);
    if (!rc) rc = perks__cgd_allreduce(rk, nlocal, 1, 2);
    for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->pupd, it, 0);
    return rc;
}

/* the state of local rank 0 (every rank holds the same decisions); NCCL ranks wait at most
 * timeout_s (PERKS_ETIMEOUT or PERKS_ECOMM: the communicators are aborted) */
static inline int perks__cgd_read(perks_cgd_rank *rk, int nlocal, perks__cgd_state *s, double timeout_s, int *aborted)
{
#ifdef PERKS_CGD_NCCL
    if (!perks__cgd_virtual(rk, nlocal)) {
        ncclComm_t c[PERKS_CGD_MAXRANKS];
        cudaStream_t st[PERKS_CGD_MAXRANKS];
        for (int i = 0; i < nlocal; i++) c[i] = (ncclComm_t)rk[i].comm, st[i] = rk[i].stream;
        const int rc = perks_nccl_wait(c, st, nlocal, timeout_s);
        if (rc == PERKS_ECOMM || rc == PERKS_ETIMEOUT) *aborted = 1; /* perks_nccl_wait aborted them */
        if (rc) return rc;
    }
#else
    (void)timeout_s, (void)aborted;
#endif
    for (int i = 0; i < nlocal; i++) {
        if (cudaSetDevice(rk[i].device) != cudaSuccess || cudaStreamSynchronize(rk[i].stream) != cudaSuccess)
            return PERKS_ECUDA;
    }
    if (cudaSetDevice(rk[0].device) != cudaSuccess || cudaMemcpy(s, rk[0].st, sizeof *s, cudaMemcpyDeviceToHost) != cudaSuccess)
        return PERKS_ECUDA;
    return 0;
}

/* a failed NCCL call or wait: this process's communicators are aborted (the peers then end with
 * PERKS_ECOMM or PERKS_ETIMEOUT); the workspace stays allocated (freeing it could wait on a stuck
 * stream) and the ranks hold none */
static inline void perks__cgd_abandon(perks_cgd_rank *rk, int nlocal, int rc, int aborted)
{
#ifdef PERKS_CGD_NCCL
    if ((rc == PERKS_ECOMM || rc == PERKS_ETIMEOUT) && !perks__cgd_virtual(rk, nlocal)) {
        for (int i = 0; i < nlocal && !aborted; i++) ncclCommAbort((ncclComm_t)rk[i].comm);
        for (int i = 0; i < nlocal; i++) rk[i].ws = NULL, rk[i].ws_bytes = 0;
    }
#else
    (void)rk, (void)nlocal, (void)rc, (void)aborted;
#endif
}

static inline void perks_cgd_plan_free(perks_cgd_plan *p)
{
    if (!p) return;
    if (p->ranks) perks__cgd_release(p->ranks, p->nlocal);
    memset(p, 0, sizeof *p);
}

/* a refused plan: the code, why, no passes */
static inline int perks__cgd_refuse(perks_cgd_plan *p, int rc, const char *why)
{
    memset(p, 0, sizeof *p);
    p->why = why;
    return rc;
}

/* name_plan: what this process can check, then the setup (collective: every rank takes the same
 * decision and returns the same code); the ranks' workspaces and halo tables live in a->ranks */
static inline int perks__cgd_plan_make(const perks_cgd_args *a, perks_cgd_plan *p, int elt)
{
    int rc;
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!a) return perks__cgd_refuse(p, PERKS_ENULL, "refused: the arguments (a) are NULL");
    perks_cgd_rank *rk = a->ranks;
    const int nlocal = a->nlocal;
    rc = perks__cgd_check_process(rk, nlocal, &a->opts);
    if (rc)
        return perks__cgd_refuse(p, rc, rc == PERKS_ENULL ? "refused: a.ranks is NULL, or some ranks have a communicator and others none"
                                        : rc == PERKS_EUNSUPPORTED ? "refused: ranks with a communicator in a build without <nccl.h>"
                                                                   : "refused: nlocal outside 1 .. 64, or virtual ranks that are not "
                                                                     "0 .. nlocal-1 of nranks nlocal");
    if (!a->result) return perks__cgd_refuse(p, PERKS_ENULL, "refused: a.result is NULL");
    for (int i = 0; i < nlocal; i++) rk[i].ws = NULL, rk[i].ev = NULL, rk[i].ws_bytes = 0;
    rc = perks__cgd_setup(rk, nlocal, elt, &a->opts);
    if (rc) {
        perks__cgd_abandon(rk, nlocal, rc, 0);
        perks__cgd_release(rk, nlocal);
        return perks__cgd_refuse(p, rc, rc == PERKS_ENULL ? "refused: a rank's rp, ci, va, b or x is NULL (every rank says so)"
                                        : rc == PERKS_ESIZE ? "refused: the ranks' blocks do not tile 0 .. n-1 in rank order, "
                                                              "they disagree on n, T or nranks, or opts are out of range"
                                        : rc == PERKS_ENOMEM ? "refused: a rank's workspace did not fit its device"
                                        : rc == PERKS_ECOMM ? "refused: an NCCL call failed (the communicators are aborted)"
                                                            : "refused: a CUDA call failed during the setup");
    }
    p->ranks = rk, p->nlocal = nlocal, p->opts = a->opts;
    p->path = perks__cgd_virtual(rk, nlocal) ? PERKS_CGD_PATH_VIRTUAL : PERKS_CGD_PATH_NCCL;
    p->why = p->path == PERKS_CGD_PATH_VIRTUAL
                 ? "virtual ranks: this process holds every rank (comm NULL): p's halo and the dot products by device "
                   "copies between the ranks' buffers"
                 : "NCCL: every rank has a communicator: p's halo by ncclSend / ncclRecv, the dot products by "
                   "ncclAllReduce";
    p->steps_per_pass = 0;
    p->passes = 1;
    for (int i = 0; i < nlocal; i++) p->workspace_bytes += rk[i].ws_bytes;
    p->result = rk[0].x;
    return PERKS_SUCCESS;
}

/* name_run: one solve (collective) with the kernels ks on the ranks plan p set up, a's b and x (in
 * the ranks) and a->result; the device state reset first, so that one plan serves many solves */
static inline int perks__cgd_run(const perks_cgd_args *a, const perks_cgd_plan *p, const perks__cgd_kset *ks)
{
    perks__cgd_state s;
    int rc = 0, it = 0, aborted = 0;
    if (!a || !p || !a->result) return PERKS_ENULL;
    perks_cgd_result *res = a->result;
    memset(res, 0, sizeof *res), res->true_residual = res->rel_residual = NAN;
    if (!p->passes || a->ranks != p->ranks || a->nlocal != p->nlocal) return res->status = PERKS_ESIZE;
    perks_cgd_rank *rk = a->ranks;
    const int nlocal = a->nlocal;
    const perks_cgd_opts *o = &p->opts;
    for (int i = 0; i < nlocal; i++)
        if (!rk[i].ws) return res->status = PERKS_ESIZE; /* released, or abandoned after a failed NCCL step */
    for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_reset(&rk[i], o->tol);
    for (int i = 0; i < nlocal && !rc; i++) {
        rc = perks__cgd_launch(&rk[i], ks->diag, 0, o->jacobi);
        if (!rc && !o->use_x0 && cudaMemsetAsync(rk[i].x, 0, (size_t)rk[i].own * rk[i].elt, rk[i].stream) != cudaSuccess)
            rc = PERKS_ECUDA;
    }
    if (!rc) rc = perks__cgd_residual(rk, nlocal, ks, o->use_x0, 4); /* with the bad-diagonal count */
    for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->pupd, -1, 1);
    s.status = 0;
    for (;;) {
        while (!rc && !s.status && it < o->max_iter) {
            const int stop = o->max_iter - it > PERKS_CGD_POLL ? it + PERKS_CGD_POLL : o->max_iter;
            for (; it < stop && !rc; it++) rc = perks__cgd_iterate(rk, nlocal, ks, it);
            if (!rc) rc = perks__cgd_read(rk, nlocal, &s, o->timeout_s, &aborted);
        }
        if (!rc && o->max_iter == 0) rc = perks__cgd_read(rk, nlocal, &s, o->timeout_s, &aborted);
        if (rc) break;
        const int st = s.status;
        res->iterations = st == 1 || st == PERKS_EBREAKDOWN ? s.iters : st ? 0 : o->max_iter;
        res->bnorm = sqrt(s.bb);
        res->rel_residual = s.bb > 0 ? sqrt(s.glob[1] / s.bb) : sqrt(s.glob[1]);
        rc = perks__cgd_residual(rk, nlocal, ks, 1, 3); /* the true residual of the x returned: r = b - A x */
        if (!rc) rc = perks__cgd_read(rk, nlocal, &s, o->timeout_s, &aborted);
        if (rc) break;
        res->true_residual = s.glob[3] > 0 ? sqrt(s.glob[1] / s.glob[3]) : sqrt(s.glob[1]);
        if (st == 1 && !(res->true_residual <= o->tol) && res->restarts < PERKS_CGD_RESTARTS && s.iters < o->max_iter &&
            isfinite(res->true_residual)) { /* the recurrence drifted: go on from r = b - A x, p = D^-1 r */
            it = s.iters, s.status = 0, res->restarts++;
            res->true_residual = NAN; /* x changes from here */
            for (int i = 0; i < nlocal && !rc; i++)
                if (cudaSetDevice(rk[i].device) != cudaSuccess ||
                    cudaMemsetAsync(&rk[i].st->status, 0, sizeof(int), rk[i].stream) != cudaSuccess)
                    rc = PERKS_ECUDA;
            for (int i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->pupd, it - 1, 1);
            continue;
        }
        res->status = st == PERKS_EDIAG || st == PERKS_EBREAKDOWN ? st
                      : st != 1                                    ? PERKS_ENOCONV
                      : res->true_residual <= o->tol               ? PERKS_SUCCESS
                                                                   : PERKS_EINACCURATE;
        rc = res->status;
        break;
    }
    perks__cgd_abandon(rk, nlocal, rc, aborted);
    res->status = rc;
    return rc;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_DIST_SOLVE_CUH */
#include <onchip/names_pop.h>
