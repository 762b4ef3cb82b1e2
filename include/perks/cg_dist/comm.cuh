#include <onchip/names_push.h>
/* perks/cg_dist/comm.cuh -- the distributed CG's communication (host): kernel launches per rank, the
 * all-reduce of the dot products, the halo exchange of p, the setup's all-gather; through NCCL, or
 * by device copies when one process holds every rank ("virtual ranks") (perks/cg_dist.cuh).
 *
 * WHAT
 *   perks__cgd_kset                    the five kernels of one T (PERKS_CGD_DEFINE fills it)
 *   perks__cgd_virtual(rk, nlocal)     1 when no rank has a communicator
 *   perks__cgd_launch(k, fn, it, flag) one kernel on one rank's device and stream
 *   perks__cgd_allreduce(rk, nlocal, slot, cnt)   st->glob[slot ..] = the sum over ranks of st->loc[slot ..]
 *   perks__cgd_exchange(rk, nlocal)    each rank's window of p gets the columns it reads from the others
 *   perks__cgd_allgather(rk, nlocal, mine, all, cnt)   int buffers, every rank's into every rank
 *   perks__cgd_group(nlocal, call)     an NCCL group of call(i) over the local ranks
 *
 * EXAMPLE
 *   [compile: perks_cgd_rank *rk; int nlocal, i, it; const perks__cgd_kset *ks]
 *   int rc = perks__cgd_exchange(rk, nlocal);                     // p's halo
 *   for (i = 0; i < nlocal && !rc; i++) rc = perks__cgd_launch(&rk[i], ks->spmv, it, 0);
 *   if (!rc) rc = perks__cgd_allreduce(rk, nlocal, 0, 1);         // p.q on every rank
 *
 * LIMITS: each NCCL step is one ncclGroupStart/End over the local ranks; errors are codes (PERKS_ECUDA,
 * PERKS_ECOMM; PERKS_EUNSUPPORTED for NCCL ranks without <nccl.h>).
 */
#ifndef PERKS_CG_DIST_COMM_CUH
#define PERKS_CG_DIST_COMM_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <stddef.h>
#endif

#include "../base.h"
#include "kernels.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it: nothing under NVRTC */
typedef struct perks__cgd_kset {
    const void *diag, *resid, *spmv, *update, *pupd;
    int elt;
} perks__cgd_kset;

static inline int perks__cgd_virtual(const perks_cgd_rank *rk, int nlocal)
{
    for (int i = 0; i < nlocal; i++)
        if (rk[i].comm) return 0;
    return 1;
}

static inline int perks__cgd_launch(perks_cgd_rank *k, const void *fn, int it, int flag)
{
    perks__cgd_k a;
    a.rp = k->rp, a.ci = k->ci, a.va = k->va, a.b = k->b, a.x = k->x, a.w = k->w, a.r = k->r, a.q = k->q;
    a.dinv = k->dinv, a.part = k->part, a.st = k->st;
    a.own = k->own, a.lo = k->lo, a.off = k->first - k->lo, a.lanes = k->lanes, a.it = it, a.flag = flag;
    void *args[1] = {&a};
    if (cudaSetDevice(k->device) != cudaSuccess) return PERKS_ECUDA;
    return cudaLaunchKernel(fn, dim3(k->blocks), dim3(PERKS_CGD_BLOCK), args, 0, k->stream) == cudaSuccess ? 0 : PERKS_ECUDA;
}

#ifdef PERKS_CGD_NCCL
/* one NCCL group: call(i) for the local ranks i in turn until one fails (nonzero); PERKS_ECOMM or 0 */
template <class Call> static inline int perks__cgd_group(int nlocal, Call call)
{
    if (ncclGroupStart() != ncclSuccess) return PERKS_ECOMM;
    int bad = 0;
    for (int i = 0; i < nlocal && !bad; i++) bad = call(i);
    return ncclGroupEnd() != ncclSuccess || bad ? PERKS_ECOMM : 0;
}
#endif

/* every rank's st->glob[slot .. slot+cnt) = the sum over ranks of st->loc[slot ..] */
static inline int perks__cgd_allreduce(perks_cgd_rank *rk, int nlocal, int slot, int cnt)
{
    if (perks__cgd_virtual(rk, nlocal)) {
        perks_cgd_rank *z = &rk[0];
        for (int q = 0; q < nlocal; q++)
            if (cudaSetDevice(rk[q].device) != cudaSuccess || cudaEventRecord(rk[q].ev, rk[q].stream) != cudaSuccess ||
                cudaSetDevice(z->device) != cudaSuccess || cudaStreamWaitEvent(z->stream, rk[q].ev, 0) != cudaSuccess ||
                cudaMemcpyAsync(z->gath + 5 * q, rk[q].st->loc, 5 * sizeof(double), cudaMemcpyDefault, z->stream) !=
                    cudaSuccess)
                return PERKS_ECUDA;
        perks__cgd_vsum<<<1, 32, 0, z->stream>>>(z->gath, nlocal, slot, cnt, z->st->glob);
        if (cudaGetLastError() != cudaSuccess || cudaEventRecord(z->ev, z->stream) != cudaSuccess) return PERKS_ECUDA;
        for (int q = 1; q < nlocal; q++)
            if (cudaSetDevice(rk[q].device) != cudaSuccess || cudaStreamWaitEvent(rk[q].stream, z->ev, 0) != cudaSuccess ||
                cudaMemcpyAsync(rk[q].st->glob + slot, z->st->glob + slot, cnt * sizeof(double), cudaMemcpyDefault,
                                rk[q].stream) != cudaSuccess)
                return PERKS_ECUDA;
        return 0;
    }
#ifdef PERKS_CGD_NCCL
    return perks__cgd_group(nlocal, [&](int i) {
        return ncclAllReduce(rk[i].st->loc + slot, rk[i].st->glob + slot, cnt, ncclDouble, ncclSum,
                             (ncclComm_t)rk[i].comm, rk[i].stream) != ncclSuccess;
    });
#else
    return PERKS_EUNSUPPORTED;
#endif
}

/* the window vectors' halo: every rank's w gets, from each rank q, the columns of q's block it reads */
static inline int perks__cgd_exchange(perks_cgd_rank *rk, int nlocal)
{
    const int P = rk[0].nranks;
    if (perks__cgd_virtual(rk, nlocal)) {
        for (int q = 0; q < P; q++)
            if (cudaSetDevice(rk[q].device) != cudaSuccess || cudaEventRecord(rk[q].ev, rk[q].stream) != cudaSuccess)
                return PERKS_ECUDA;
        for (int r = 0; r < P; r++) {
            if (cudaSetDevice(rk[r].device) != cudaSuccess) return PERKS_ECUDA;
            for (int q = 0; q < P; q++) {
                const int c0 = rk[r].need[q][0], c1 = rk[r].need[q][1];
                if (c0 >= c1) continue;
                if (cudaStreamWaitEvent(rk[r].stream, rk[q].ev, 0) != cudaSuccess ||
                    cudaMemcpyAsync((char *)rk[r].w + (size_t)(c0 - rk[r].lo) * rk[r].elt,
                                    (const char *)rk[q].w + (size_t)(c0 - rk[q].lo) * rk[q].elt,
                                    (size_t)(c1 - c0) * rk[r].elt, cudaMemcpyDefault, rk[r].stream) != cudaSuccess)
                    return PERKS_ECUDA;
            }
        }
        return 0;
    }
#ifdef PERKS_CGD_NCCL
    const ncclDataType_t ty = rk[0].elt == 8 ? ncclDouble : ncclFloat;
    return perks__cgd_group(nlocal, [&](int i) {
        perks_cgd_rank *k = &rk[i];
        int bad = 0;
        for (int q = 0; q < P && !bad; q++) {
            if (k->give[q][0] < k->give[q][1])
                bad |= ncclSend((const char *)k->w + (size_t)(k->give[q][0] - k->lo) * k->elt,
                                (size_t)(k->give[q][1] - k->give[q][0]), ty, q, (ncclComm_t)k->comm, k->stream) != ncclSuccess;
            if (k->need[q][0] < k->need[q][1])
                bad |= ncclRecv((char *)k->w + (size_t)(k->need[q][0] - k->lo) * k->elt,
                                (size_t)(k->need[q][1] - k->need[q][0]), ty, q, (ncclComm_t)k->comm, k->stream) != ncclSuccess;
        }
        return bad;
    });
#else
    return PERKS_EUNSUPPORTED;
#endif
}

/* every rank's all[q * cnt ..] = rank q's mine[0 .. cnt) (device int buffers); an all-gather */
static inline int perks__cgd_allgather(perks_cgd_rank *rk, int nlocal, int *const *mine, int *const *all, int cnt)
{
    const int P = rk[0].nranks;
    if (perks__cgd_virtual(rk, nlocal)) {
        for (int r = 0; r < P; r++)
            for (int q = 0; q < P; q++)
                if (cudaMemcpy(all[r] + q * cnt, mine[q], cnt * sizeof(int), cudaMemcpyDefault) != cudaSuccess)
                    return PERKS_ECUDA;
        return 0;
    }
#ifdef PERKS_CGD_NCCL
    const int rc = perks__cgd_group(nlocal, [&](int i) {
        return ncclAllGather(mine[i], all[i], cnt, ncclInt32, (ncclComm_t)rk[i].comm, rk[i].stream) != ncclSuccess;
    });
    if (rc) return rc;
    for (int i = 0; i < nlocal; i++) {
        if (cudaSetDevice(rk[i].device) != cudaSuccess || cudaStreamSynchronize(rk[i].stream) != cudaSuccess)
            return PERKS_ECUDA;
    }
    return 0;
#else
    return PERKS_EUNSUPPORTED;
#endif
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_DIST_COMM_CUH */
#include <onchip/names_pop.h>
