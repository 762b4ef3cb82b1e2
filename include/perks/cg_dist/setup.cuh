#include <onchip/names_push.h>
/* perks/cg_dist/setup.cuh -- the distributed CG's setup (host): argument checks that every rank
 * agrees on, the halo tables, each rank's workspace (perks/cg_dist.cuh, LIMITS).
 *
 * WHAT
 *   perks__cgd_check_process(rk, nlocal, o)   what one process can check before any collective call
 *   perks__cgd_check_rank(k, o, P)            one rank's own arguments (gathered, so every rank returns
 *                                             the largest code found)
 *   perks__cgd_setup(rk, nlocal, elt, o)      two all-gathers: the ranks' blocks (must tile 0 .. n-1 in
 *                                             rank order), then each rank's column window and the
 *                                             columns each rank sends; the workspaces
 *   perks__cgd_alloc / perks__cgd_release     one rank's workspace
 *   perks__cgd_reset(k, tol)                  one rank's device state as a solve starts it
 *
 * EXAMPLE
 *   [compile: perks_cgd_rank *rk; int nlocal; perks_cgd_opts o]
 *   int rc = perks__cgd_setup(rk, nlocal, (int)sizeof(double), &o);   // collective
 *   // ...
 *   perks__cgd_release(rk, nlocal);
 *
 * LIMITS: nranks <= PERKS_CGD_MAXRANKS; codes PERKS_ENULL, PERKS_ESIZE, PERKS_ENOMEM, PERKS_ECUDA,
 * PERKS_ECOMM, PERKS_EUNSUPPORTED, the same on every rank.
 */
#ifndef PERKS_CG_DIST_SETUP_CUH
#define PERKS_CG_DIST_SETUP_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>
#endif

#include <onchip/device.cuh>
#include "../base.h"
#include "comm.cuh"
#include "kernels.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it: nothing under NVRTC */
/* what can be checked before any collective call: the process's own arguments (a failure here is
 * returned at once by every process that made it, without a collective call) */
static inline int perks__cgd_check_process(const perks_cgd_rank *rk, int nlocal, const perks_cgd_opts *o)
{
    if (!rk || !o) return PERKS_ENULL;
    if (nlocal < 1 || nlocal > PERKS_CGD_MAXRANKS) return PERKS_ESIZE;
    const int virt = perks__cgd_virtual(rk, nlocal);
    for (int i = 0; i < nlocal; i++)
        if (!virt && !rk[i].comm) return PERKS_ENULL; /* all NCCL or all virtual */
    if (virt && (rk[0].nranks != nlocal)) return PERKS_ESIZE;
    for (int i = 0; virt && i < nlocal; i++)
        if (rk[i].rank != i || rk[i].nranks != nlocal) return PERKS_ESIZE;
#ifndef PERKS_CGD_NCCL
    if (!virt) return PERKS_EUNSUPPORTED;
#endif
    return 0;
}

/* one rank's own arguments (0 or a code, which the setup gathers so that every rank returns it) */
static inline int perks__cgd_check_rank(const perks_cgd_rank *k, const perks_cgd_opts *o, int P)
{
    if (!k->rp || !k->ci || !k->va || !k->b || !k->x) return PERKS_ENULL;
    if (k->nranks != P || k->rank < 0 || k->rank >= P || k->n < 1 || k->own < 1 || k->first < 0 ||
        k->first > k->n - k->own)
        return PERKS_ESIZE;
    if (!(o->tol >= 0) || o->max_iter < 0 || !(o->timeout_s > 0) || o->lanes < 0 || o->lanes > 32 ||
        (o->lanes & (o->lanes - 1)) || o->blocks < 0)
        return PERKS_ESIZE;
#ifdef PERKS_CGD_NCCL
    if (k->comm) {
        int cnt = 0, me = -1;
        if (ncclCommCount((ncclComm_t)k->comm, &cnt) != ncclSuccess || ncclCommUserRank((ncclComm_t)k->comm, &me) != ncclSuccess)
            return PERKS_ECOMM;
        if (cnt != P || me != k->rank) return PERKS_ESIZE; /* the slab's rank is not the communicator's */
    }
#endif
    return 0;
}

/* the ranks in the communicator (virtual: nlocal) */
static inline int perks__cgd_nranks(const perks_cgd_rank *rk, int nlocal)
{
#ifdef PERKS_CGD_NCCL
    int cnt = 0;
    if (!perks__cgd_virtual(rk, nlocal)) return ncclCommCount((ncclComm_t)rk[0].comm, &cnt) == ncclSuccess ? cnt : -1;
#else
    (void)rk;
#endif
    return nlocal;
}

static inline size_t perks__cgd_al(size_t x) { return (x + 255) & ~(size_t)255; }

#define PERKS__CGD_NV 5 /* sums: p.q, r.r, r.z, b.b, bad diagonals */

/* one rank's device state as a solve starts it (the sums 0, tol^2), waited for */
static inline int perks__cgd_reset(perks_cgd_rank *k, double tol)
{
    perks__cgd_state s;
    memset(&s, 0, sizeof s);
    s.tol2 = tol * tol;
    return cudaSetDevice(k->device) == cudaSuccess &&
                   cudaMemcpyAsync(k->st, &s, sizeof s, cudaMemcpyHostToDevice, k->stream) == cudaSuccess &&
                   cudaStreamSynchronize(k->stream) == cudaSuccess
               ? 0
               : PERKS_ECUDA;
}

/* the workspace of one rank (its window known) */
static inline int perks__cgd_alloc(perks_cgd_rank *k, int elt, double tol, int blocks)
{
    int sms = 0;
    k->elt = elt;
    if (cudaSetDevice(k->device) != cudaSuccess || onchip_device_sms(k->device, &sms) != cudaSuccess) return PERKS_ECUDA;
    k->blocks = sms * (2048 / PERKS_CGD_BLOCK);
    if (blocks > 0 && blocks < k->blocks) k->blocks = blocks;
    const size_t vb = perks__cgd_al((size_t)k->own * elt), wb = perks__cgd_al((size_t)(k->hi - k->lo) * elt);
    const size_t pb = perks__cgd_al(3 * sizeof(double) * k->blocks), sb = perks__cgd_al(sizeof(perks__cgd_state));
    const size_t gb = perks__cgd_al(PERKS__CGD_NV * sizeof(double) * k->nranks);
    if (cudaMalloc(&k->ws, wb + 3 * vb + pb + sb + gb) != cudaSuccess) { k->ws = NULL; return PERKS_ENOMEM; }
    k->ws_bytes = wb + 3 * vb + pb + sb + gb;
    char *c = (char *)k->ws;
    k->w = c, c += wb;
    k->r = c, c += vb;
    k->q = c, c += vb;
    k->dinv = c, c += vb;
    k->part = (double *)c, c += pb;
    k->st = (perks__cgd_state *)c, c += sb;
    k->gath = (double *)c;
    if (perks__cgd_reset(k, tol) || cudaEventCreateWithFlags(&k->ev, cudaEventDisableTiming) != cudaSuccess)
        return PERKS_ECUDA;
    return 0;
}

/* a copy on the rank's stream, waited for (ordered with the caller's work on that stream) */
static inline int perks__cgd_copy(const perks_cgd_rank *k, void *to, const void *from, size_t bytes)
{
    return cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, k->stream) == cudaSuccess &&
                   cudaStreamSynchronize(k->stream) == cudaSuccess ? 0 : PERKS_ECUDA;
}

/* The setup, in two all-gathers, so that every rank takes the same decision: (1) each rank's n,
 * first, own, T, nranks and argument check, the largest code on every rank; (2) the columns of the
 * other ranks' blocks its rows touch, its workspace for that window, the table and the allocation's
 * code.  docs/perks-cg.md#cgd-setup */
static inline int perks__cgd_setup(perks_cgd_rank *rk, int nlocal, int elt, const perks_cgd_opts *o)
{
    const int P = perks__cgd_nranks(rk, nlocal);
    if (P < 1 || P > PERKS_CGD_MAXRANKS) return P < 1 ? PERKS_ECOMM : PERKS_ESIZE; /* the same on every rank */
    int *sm[PERKS_CGD_MAXRANKS] = {0}, *small[PERKS_CGD_MAXRANKS] = {0}, *need_d[PERKS_CGD_MAXRANKS] = {0},
        *tab_d[PERKS_CGD_MAXRANKS] = {0};
    int info[PERKS_CGD_MAXRANKS * 6], tab[PERKS_CGD_MAXRANKS * (2 * PERKS_CGD_MAXRANKS + 1)], rc = 0, bad = 0;
    /* one scratch per rank: 6 ints of mine, 6 P gathered, P + 1 firsts, 2 P + 1 needs, P (2 P + 1) gathered */
    const size_t words = 6 + 6 * P + P + 1 + 2 * P + 1 + (size_t)P * (2 * P + 1);
    for (int i = 0; i < nlocal && !rc; i++) {
        const int me[6] = {rk[i].n, rk[i].first, rk[i].own, elt, rk[i].nranks, perks__cgd_check_rank(&rk[i], o, P)};
        if (cudaSetDevice(rk[i].device) != cudaSuccess || cudaMalloc((void **)&sm[i], words * sizeof(int)) != cudaSuccess ||
            perks__cgd_copy(&rk[i], sm[i], me, sizeof me))
            rc = PERKS_ECUDA;
        small[i] = sm[i] + 6, need_d[i] = sm[i] + 6 + 7 * P + 1, tab_d[i] = need_d[i] + 2 * P + 1;
    }
    if (!rc) rc = perks__cgd_allgather(rk, nlocal, sm, small, 6);
    for (int i = 0; i < nlocal && !rc && !bad; i++) { /* every rank reads the same table */
        perks_cgd_rank *k = &rk[i];
        int firsts[PERKS_CGD_MAXRANKS + 1], at = 0;
        if (cudaSetDevice(k->device) != cudaSuccess || perks__cgd_copy(k, info, small[i], 6 * P * sizeof(int))) {
            rc = PERKS_ECUDA;
            break;
        }
        for (int q = 0; q < P; q++) bad = info[6 * q + 5] > bad ? info[6 * q + 5] : bad;
        for (int q = 0; q < P && !bad; q++) { /* blocks in rank order, tiling 0 .. n-1; one n, T, P */
            if (info[6 * q] != info[0] || info[6 * q + 1] != at || info[6 * q + 3] != elt || info[6 * q + 4] != P)
                bad = PERKS_ESIZE;
            firsts[q] = at, at += info[6 * q + 2];
        }
        if (bad || at != info[0]) { bad = bad ? bad : PERKS_ESIZE; break; }
        firsts[P] = at;
        int init[2 * PERKS_CGD_MAXRANKS + 1], nnz = 0;
        for (int q = 0; q < P; q++) init[2 * q] = 0x7fffffff, init[2 * q + 1] = -1;
        if (perks__cgd_copy(k, small[i] + 6 * P, firsts, (P + 1) * sizeof(int)) ||
            perks__cgd_copy(k, need_d[i], init, 2 * P * sizeof(int)) || perks__cgd_copy(k, &nnz, k->rp + k->own, sizeof(int))) {
            rc = PERKS_ECUDA;
            break;
        }
        if (nnz > 0) perks__cgd_cols<<<1024, 256, 0, k->stream>>>(k->ci, nnz, small[i] + 6 * P, P, k->rank, need_d[i]);
        if ((nnz > 0 && cudaPeekAtLastError() != cudaSuccess) || perks__cgd_copy(k, init, need_d[i], 2 * P * sizeof(int))) {
            rc = PERKS_ECUDA;
            break;
        }
        k->lo = k->first, k->hi = k->first + k->own;
        for (int q = 0; q < P; q++) {
            k->need[q][0] = init[2 * q], k->need[q][1] = init[2 * q + 1];
            if (q == k->rank || k->need[q][0] >= k->need[q][1]) k->need[q][0] = k->need[q][1] = 0; /* none */
            else {
                k->lo = k->need[q][0] < k->lo ? k->need[q][0] : k->lo;
                k->hi = k->need[q][1] > k->hi ? k->need[q][1] : k->hi;
            }
            init[2 * q] = k->need[q][0], init[2 * q + 1] = k->need[q][1];
        }
        k->lanes = o->lanes ? o->lanes : 1;
        while (!o->lanes && k->lanes < 32 && (long long)nnz > 4LL * k->lanes * k->own) k->lanes *= 2;
        init[2 * P] = perks__cgd_alloc(k, elt, o->tol, o->blocks); /* a rank that cannot allocate tells the others */
        if (perks__cgd_copy(k, need_d[i], init, (2 * P + 1) * sizeof(int))) rc = PERKS_ECUDA;
    }
    if (!rc && !bad) rc = perks__cgd_allgather(rk, nlocal, need_d, tab_d, 2 * P + 1);
    for (int i = 0; i < nlocal && !rc && !bad; i++) { /* what rank q reads of my block */
        perks_cgd_rank *k = &rk[i];
        if (cudaSetDevice(k->device) != cudaSuccess || perks__cgd_copy(k, tab, tab_d[i], (size_t)P * (2 * P + 1) * sizeof(int))) {
            rc = PERKS_ECUDA;
            break;
        }
        for (int q = 0; q < P; q++) {
            const int *t = tab + (2 * P + 1) * q;
            k->give[q][0] = t[2 * k->rank], k->give[q][1] = t[2 * k->rank + 1];
            bad = t[2 * P] > bad ? t[2 * P] : bad;
        }
    }
    for (int i = 0; i < nlocal; i++)
        if (sm[i]) cudaSetDevice(rk[i].device), cudaFree(sm[i]);
    return rc ? rc : bad;
}

static inline void perks__cgd_release(perks_cgd_rank *rk, int nlocal)
{
    for (int i = 0; i < nlocal; i++) {
        cudaSetDevice(rk[i].device);
        if (rk[i].ws) cudaStreamSynchronize(rk[i].stream), cudaFree(rk[i].ws);
        if (rk[i].ev) cudaEventDestroy(rk[i].ev);
        rk[i].ws = NULL, rk[i].ev = NULL, rk[i].ws_bytes = 0;
    }
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_DIST_SETUP_CUH */
#include <onchip/names_pop.h>
