#include <onchip/names_push.h>
/* perks/cg_dist.cuh -- conjugate gradient over several ranks: a CSR system split into row blocks,
 * the halo of the SpMV exchanged through NCCL (or by device copies between ranks one process holds),
 * the dot products through ncclAllReduce.
 * THE PIECES (perks/cg_dist/): types.cuh, kernels.cuh, comm.cuh, setup.cuh, solve.cuh, define.cuh.
 * GLOSSARY of the internal bodies' names: docs/perks-cg.md#cg-glossary.
 *
 * WHAT (PERKS paper section 3.2: the interior computed per rank, the boundary exchanged; the CPU-Free
 * model's distributed CG)
 *   PERKS_CGD_DEFINE(name, T) defines, for T float or double, the verbs of onchip/plan.h over
 *   perks_cgd_args a (ranks, nlocal: this process's ranks; opts; result: host):
 *       int name_plan(const perks_cgd_args *a, perks_cgd_plan *p)   the halo tables and each rank's
 *                                   workspace, set up in a->ranks (collective); p's head: path
 *                                   PERKS_CGD_PATH_NCCL or _VIRTUAL, why, passes 1, workspace_bytes
 *       int name_run(const perks_cgd_args *a, const perks_cgd_plan *p)   one solve (collective)
 *       int name_launch(const perks_cgd_args *a)     plan, run, perks_cgd_plan_free(&p)
 *   (the ranks carry their streams: the verbs take none), and the kernels name_diag / _resid / _spmv /
 *   _update / _pupd (each one call of its body, perks/cg_dist/kernels.cuh).  T other than float or
 *   double stops at a static_assert naming the generator and the instance.  One thread drives
 *   ranks[0 .. nlocal-1]; every process calls each verb with its ranks; the plan owns the ranks'
 *   workspaces (a->ranks must outlive it) and serves many solves.  A rank (perks_cgd_rank, the
 *   caller's): n, first, own (the blocks tile 0 .. n-1 in rank order), rp, ci (GLOBAL columns), va,
 *   b, x, device, stream, nranks, rank, comm (NULL on every rank: virtual ranks, device copies):
 *   docs/perks-cg.md#several-gpus-perks_cgd_define; the iteration:
 *   docs/perks-cg.md#reference-the-distributed-iteration.
 *
 * WHAT A SUCCESS MEANS (as perks/cg.cuh): PERKS_SUCCESS only when the true residual is <= tol; up
 *   to PERKS_CGD_RESTARTS restarts, then PERKS_EINACCURATE (docs/perks-cg.md#several-gpus-perks_cgd_define).
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
 *     perks_cgd_result res;
 *     perks_cgd_args a = {rk, P, perks_cgd_defaults(), &res};
 *     int rc = cgd64_launch(&a);   // or cgd64_plan(&a, &p) once, cgd64_run(&a, &p) per b
 *
 *   32-bit indices; nranks <= PERKS_CGD_MAXRANKS.  Without <nccl.h> (or with PERKS_NO_NCCL) virtual
 *   ranks only.  Every rank takes the same decisions and returns the largest code found; a peer
 *   that dies gives PERKS_ETIMEOUT or PERKS_ECOMM (communicators aborted), not a hang.  All ranks
 *   pass the same opts.  docs/perks-cg.md#reference-limits-and-collective-errors.
 *
 * NVRTC (docs/python.md): PERKS_CGD_DEFINE emits its five kernels only (static, perks__cgd_k
 *   arguments); the verbs are host code (NCCL, streams, events) and are left out.
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
#include "cg_dist/define.cuh"

#endif /* PERKS_CG_DIST_CUH */
#include <onchip/names_pop.h>
