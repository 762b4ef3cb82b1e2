#include <onchip/names_push.h>
/* perks/cg_dist.cuh -- conjugate gradient over several ranks: a CSR system split into row blocks,
 * the halo of the SpMV exchanged through NCCL (or by device copies between ranks one process holds),
 * the dot products through ncclAllReduce.
 *
 * THE PIECES (perks/cg_dist/, each header usable alone; this one includes them all)
 *   types.cuh    perks_cgd_opts, perks_cgd_result, perks_cgd_rank, the device state, the constants
 *   kernels.cuh  the device side: a rank's SpMV rows, its dot products, the five kernel bodies
 *   comm.cuh     launches, the all-reduce, the halo exchange, the all-gather (NCCL or device copies)
 *   setup.cuh    the collective argument checks, the halo tables, the workspaces
 *   solve.cuh    the iteration, the true residual, the restarts
 *   this file    PERKS_CGD_DEFINE
 *
 * WHAT (PERKS paper section 3.2: the interior computed per rank, the boundary exchanged; the CPU-Free
 * model's distributed CG)
 *   PERKS_CGD_DEFINE(name, T) defines, for T float or double,
 *       int name_solve(perks_cgd_rank *rk, int nlocal, const perks_cgd_opts *o, perks_cgd_result *res)
 *   and its kernels name_diag / _resid / _spmv / _update / _pupd (each one call of its body,
 *   perks__cgd_diag<T> ..., perks/cg_dist/kernels.cuh); T other than float or double stops at a
 *   static_assert naming the generator and the instance.  rk[0 .. nlocal-1] are the ranks this
 *   process drives (one thread drives them all; each NCCL step is one ncclGroupStart/End over
 *   them).  Every process calls name_solve with its ranks; the solve is collective.  A solve sets
 *   up its halo, allocates its workspace on each rank's device and frees it before it returns.
 *
 *   The rank's part (set by the caller, device memory, the caller's):
 *     n          the global number of rows (every rank the same)
 *     first, own this rank's rows [first, first + own); the ranks' blocks must tile 0 .. n-1 in
 *                rank order (perks_slab_first / perks_slab_own of perks/decomp.h give an even split)
 *     rp, ci, va own + 1 row pointers (rp[0] = 0), the GLOBAL column of each nonzero, the values (T)
 *     b, x       own entries each (T); x is the result (and the start with o->use_x0)
 *     device, stream, nranks, rank
 *     comm       an ncclComm_t (as void *) spanning all ranks, or NULL for every rank: then the
 *                process holds all ranks (nlocal == nranks, "virtual ranks") and the exchange and
 *                the sums are device copies (ranks may share one GPU: the tests run 1-7 on one)
 *
 * THE ITERATION (classic preconditioned CG, Jacobi optional; the same formulas as perks/cg.cuh)
 *     exchange   p's halo: rank q sends the entries of its own block that rank r's rows touch
 *     spmv       q = A p (own rows), partial p.q                   -> ncclAllReduce (1 double)
 *     update     alpha = rz / p.q;  x += alpha p;  r -= alpha q;  partials r.r, r.D^-1 r
 *                                                                   -> ncclAllReduce (2 doubles)
 *     pupd       stop when r.r <= tol^2 b.b; beta = rz' / rz;  p = D^-1 r + beta p
 *   Dot products are summed in double: each rank's partial in a fixed order (the last block to
 *   finish adds the block partials), then across ranks by NCCL, whose result is the same bits on
 *   every rank, so every rank takes the same decisions.  Scalars stay on the device; the host reads
 *   the state every PERKS_CGD_POLL iterations (iterations after convergence do nothing).
 *   The halo: at setup each rank finds, for each other rank, the least and the greatest column of
 *   that rank's block its rows touch (a kernel over its nonzeros); an all-gather tells every rank
 *   what to send.  Each rank keeps p over the window [lo, hi) of the columns its rows touch (its own
 *   block included), so the SpMV reads p at ci - lo: no column renumbering.  For a banded matrix
 *   (a 3D Poisson: one plane each side) the window is the block plus the planes next to it.
 *
 * WHAT A SUCCESS MEANS (as perks/cg.cuh)
 *   The solve ends with the TRUE residual ||b - A x|| / ||b|| of the x it returns (x exchanged,
 *   one more SpMV, rows summed in double): res.true_residual.  PERKS_SUCCESS only when it is <= tol;
 *   when the recurrence met tol and the true residual did not (float drifts), the solve goes on
 *   from r = b - A x (that residual, rounded to T) and p = D^-1 r, with the iterations left, up to
 *   PERKS_CGD_RESTARTS = 2 times (res.restarts); then PERKS_EINACCURATE (x is returned).
 *   PERKS_ENOCONV after max_iter iterations, PERKS_EBREAKDOWN when p.q <= 0
 *   or is not a number (A not SPD), PERKS_EDIAG when Jacobi finds a diagonal entry <= 0, missing or
 *   not finite.
 *
 * EXAMPLE (one process, one rank per GPU; tests/gpu/test_perks_cg_dist.cu, bench/perks_cg_dist.cu)
 *   [compile: int r, P, n; void *comms[8]]
 *     PERKS_CGD_DEFINE(cgd64, double)
 *
 *     perks_cgd_rank rk[8] = {};
 *     for (r = 0; r < P; r++) {
 *         rk[r].device = r; rk[r].comm = comms[r]; rk[r].nranks = P; rk[r].rank = r; rk[r].n = n;
 *         rk[r].first = perks_slab_first(n, P, r); rk[r].own = perks_slab_own(n, P, r);
 *         // ... rp, ci, va, b, x on device r, a stream ...
 *     }
 *     perks_cgd_opts o = perks_cgd_defaults();  perks_cgd_result res;
 *     int rc = cgd64_solve(rk, P, &o, &res);
 *
 * LIMITS
 *   32-bit indices; nranks <= PERKS_CGD_MAXRANKS.  Without <nccl.h> (or with PERKS_NO_NCCL defined)
 *   only virtual ranks work (a non-NULL comm: PERKS_EUNSUPPORTED).  Each rank holds p over its window: for a matrix
 *   whose rows reach far columns the window grows to n entries.  The persistent kernel of
 *   perks/cg.cuh is not used per rank: its two grid barriers per iteration would become kernel
 *   ends anyway, since the all-reduce between them is an NCCL call from the host.  NCCL point-to-point
 *   and collectives have no timeout of their own, so the solve makes every rank take the same
 *   decisions: the setup gathers each rank's arguments (n, its rows, T, its rank and the
 *   communicator's, its own checks) and then each rank's workspace allocation, and every rank
 *   returns the largest code found (PERKS_ESIZE: blocks that do not tile 0 .. n-1 in rank order,
 *   or ranks that disagree on n, T or the rank count; PERKS_ENULL: a NULL pointer on some rank;
 *   PERKS_ENOMEM: a rank could not allocate its workspace).  A bad diagonal (Jacobi) on any rank
 *   is summed with the first all-reduce: every rank returns PERKS_EDIAG.  Only a NULL rk or o, or
 *   nlocal outside 1 .. PERKS_CGD_MAXRANKS, returns at once without a collective call.  All ranks
 *   must pass the same opts (max_iter, tol).  The solve waits for the devices through
 *   perks_nccl_wait (opts.timeout_s): a peer that died gives PERKS_ETIMEOUT or PERKS_ECOMM, not a
 *   hang.  After PERKS_ECOMM or PERKS_ETIMEOUT this process's communicators are aborted (do not
 *   use or destroy them) and its workspace is left allocated (freeing it could wait on a stuck
 *   stream).  On any error code but the solver's own (ENOCONV, EINACCURATE, EBREAKDOWN, EDIAG),
 *   res.true_residual is NaN: no x was judged.
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ PERKS_CGD_DEFINE emits its five kernels only (static, perks__cgd_k
 *   arguments); the solver is host code (NCCL, streams, events) and is left out.
 */
#ifndef PERKS_CG_DIST_CUH
#define PERKS_CG_DIST_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#endif

#include "decomp.h"
#include "exchange.cuh" /* perks_nccl_wait */
#include "cg_dist/types.cuh"
#include "cg_dist/kernels.cuh"
#include "cg_dist/comm.cuh"
#include "cg_dist/setup.cuh"
#include "cg_dist/solve.cuh"

/* name_solve and its kernels, for T float or double */
#define PERKS_CGD_DEFINE(name, T)                                                                          \
    static_assert(perks__cgd_real<T>::ok, "PERKS_CGD_DEFINE(" #name "): T must be float or double");        \
    PERKS__CGD_KERNEL(name##_diag, perks__cgd_diag, T)                                                     \
    PERKS__CGD_KERNEL(name##_resid, perks__cgd_resid, T)                                                   \
    PERKS__CGD_KERNEL(name##_spmv, perks__cgd_spmv, T)                                                     \
    PERKS__CGD_KERNEL(name##_update, perks__cgd_update, T)                                                 \
    PERKS__CGD_KERNEL(name##_pupd, perks__cgd_pupd, T)                                                     \
    PERKS__CGD_HOST(name, T)
/* name_solve (host code: none under NVRTC, where the generator emits its five kernels only) */
#ifndef __CUDACC_RTC__
#define PERKS__CGD_HOST(name, T)                                                                           \
    static inline __attribute__((unused)) int name##_solve(perks_cgd_rank *rk, int nlocal,                 \
                                                           const perks_cgd_opts *o, perks_cgd_result *res) \
    {                                                                                                      \
        const perks__cgd_kset ks = {(const void *)name##_diag, (const void *)name##_resid,                 \
                                    (const void *)name##_spmv, (const void *)name##_update,                \
                                    (const void *)name##_pupd, (int)sizeof(T)};                            \
        return perks__cgd_solve(rk, nlocal, o, res, &ks);                                                  \
    }
#else
#define PERKS__CGD_HOST(name, T)
#endif
/* one kernel: its body for T */
#define PERKS__CGD_KERNEL(kname, body, T)                                                                  \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) kname(perks__cgd_k a) \
    {                                                                                                      \
        body<perks__cgd_real<T>::type>(a);                                                                 \
    }

#endif /* PERKS_CG_DIST_CUH */
#include <onchip/names_pop.h>
