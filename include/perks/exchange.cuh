#include <onchip/names_push.h>
/* perks/exchange.cuh -- the halo exchange of perks/decomp.h's slabs and perks/decomp3d.h's pencils
 * and blocks: by device copies between subdomains one process holds, and through NCCL where
 * <nccl.h> is present; with NCCL, a check that all ranks agree on the domain and a bounded wait (a
 * status code, not a hang).
 *
 * WHAT (PERKS paper section 3.2; docs/perks.md#design-notes-perksexchangecuh)
 *   perks_slab_exchange_local(slabs, bufs, nranks, plane_bytes, stream)   all ranks of a process
 *   perks_slab_exchange_nccl(s, buf, plane_bytes, comm, stream)           this rank's part
 *   perks_slab_agree_nccl(slabs, n, plane, comms, streams, timeout_s)     once, before the first
 *   perks_nccl_wait(comms, streams, n, timeout_s)     instead of cudaStreamSynchronize
 *   perks_block3_exchange_local(blocks, bufs, nranks, shape, elem_bytes, stream)   a box copy a region
 *   perks_block3_exchange_nccl(b, shape, buf, work, elem_bytes, comm, stream)      packed into work
 *   perks_block3_pack_bytes(b, shape, elem_bytes, &bytes)  work's size (the regions' cells, twice)
 *   Codes: PERKS_ENULL, _ESIZE, _ECUDA, _ECOMM (ncclGetLastError(comm) says which), _ETIMEOUT.
 *   The NCCL ones exist where PERKS_HAVE_NCCL is defined.
 *
 * EXAMPLE (one step of a one-pass stencil per exchange, halo = the stencil's reach)
 *   [not compiled: pseudo code (the stencil step, fail)]
 *     perks_slab s;  perks_slab_make(&s, ny, nranks, rank, 1, PERKS_SLAB_DIRICHLET);
 *     if (perks_slab_agree_nccl(&s, 1, nx, &comm, &stream, 60.0)) fail;
 *     for (int t = 0; t < steps; t++) {
 *         perks_slab_exchange_nccl(&s, cur, nx * sizeof(float), comm, stream);
 *         stencil(cur -> nxt over the buffer's planes, ghosts kept);  swap(cur, nxt);
 *     }
 *     if (perks_nccl_wait(&comm, &stream, 1, 60.0)) fail;   // comm aborted: do not destroy it
 *   A rank computes planes s.win[0] .. s.win[1] - 1 (docs/perks.md#reference-the-window-a-rank-computes).
 *   Several steps per exchange, overlap: docs/perks.md#reference-several-steps-per-exchange-and-overlap.
 *
 * LIMITS: the caller owns buffers, communicator and stream, and makes all ranks call the exchange
 *   equally often.  perks_nccl_wait bounds the stream's wait, not a blocking NCCL host call.  At
 *   most PERKS_NCCL_MAXLOCAL (64) ranks per process.  docs/perks.md#reference-exchange-limits.
 */
#ifndef PERKS_EXCHANGE_CUH
#define PERKS_EXCHANGE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <limits.h>
#include <stddef.h>
#endif

#include "decomp.h"
#include "decomp3d.h"

#ifndef __CUDACC_RTC__ /* host code, all of it (NCCL too) */
/* every rank's halo planes into its neighbours' ghosts (in rank order, one stream); bufs[r]: rank
 * r's buffer of slabs[r].buf_planes planes */
static inline int perks_slab_exchange_local(const perks_slab *slabs, void *const *bufs, int nranks, size_t plane_bytes,
                                            cudaStream_t stream)
{
    if (!slabs || !bufs) return PERKS_ENULL;
    for (int r = 0; r < nranks; r++)
        if (!bufs[r] || slabs[r].nranks != nranks || slabs[r].rank != r || slabs[r].n != slabs[0].n ||
            slabs[r].halo != slabs[0].halo || slabs[r].boundary != slabs[0].boundary)
            return bufs[r] ? PERKS_ESIZE : PERKS_ENULL;
    for (int r = 0; r < nranks; r++)
        for (int k = 0; k < 2; k++) {
            const int p = slabs[r].peer[k];
            if (p < 0) continue;
            /* into p's ghosts on the other side (1 - k) */
            const char *from = (const char *)bufs[r] + (size_t)slabs[r].send_at[k] * plane_bytes;
            char *to = (char *)bufs[p] + (size_t)slabs[p].recv_at[1 - k] * plane_bytes;
            if (cudaMemcpyAsync(to, from, (size_t)slabs[r].halo * plane_bytes, cudaMemcpyDefault, stream) != cudaSuccess)
                return PERKS_ECUDA;
        }
    return PERKS_SUCCESS;
}

/* a box of count[] cells of eb bytes (x fastest) from src (extents sext, at sat) to dst (dext, dat):
 * one cudaMemcpy3DAsync, cudaMemcpyDefault (device, host, or a peer device under UVA) */
static inline int perks__box_copy(void *dst, const int *dext, const int *dat, const void *src, const int *sext,
                                  const int *sat, const int *count, size_t eb, cudaStream_t stream)
{
    cudaMemcpy3DParms m = {};
    m.srcPtr = make_cudaPitchedPtr((void *)src, (size_t)sext[0] * eb, (size_t)sext[0] * eb, (size_t)sext[1]);
    m.dstPtr = make_cudaPitchedPtr(dst, (size_t)dext[0] * eb, (size_t)dext[0] * eb, (size_t)dext[1]);
    m.srcPos = make_cudaPos((size_t)sat[0] * eb, (size_t)sat[1], (size_t)sat[2]);
    m.dstPos = make_cudaPos((size_t)dat[0] * eb, (size_t)dat[1], (size_t)dat[2]);
    m.extent = make_cudaExtent((size_t)count[0] * eb, (size_t)count[1], (size_t)count[2]);
    m.kind = cudaMemcpyDefault;
    return cudaMemcpy3DAsync(&m, stream) == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}

/* every rank's regions (perks_block3_regions of shape) into its peers' ghosts, one stream; bufs[r]:
 * rank r's buffer (blocks[r].ext cells of elem_bytes, x fastest) on one device or peers under UVA */
static inline int perks_block3_exchange_local(const perks_block3 *blocks, void *const *bufs, int nranks, int shape,
                                              size_t elem_bytes, cudaStream_t stream)
{
    perks_region3 reg[26];
    int r, i, n = 0, rc;
    if (!blocks || !bufs) return PERKS_ENULL;
    if (nranks < 1 || elem_bytes == 0 || elem_bytes > (size_t)INT_MAX || (shape != PERKS_STAR && shape != PERKS_BOX))
        return PERKS_ESIZE;
    for (r = 0; r < nranks; r++) {
        if (!bufs[r]) return PERKS_ENULL;
        if (blocks[r].rank != r || blocks[r].grid.nranks != nranks ||
            perks_grid3_fingerprint(&blocks[r].grid, shape, 1) != perks_grid3_fingerprint(&blocks[0].grid, shape, 1))
            return PERKS_ESIZE;
    }
    for (r = 0; r < nranks; r++) {
        if ((rc = perks_block3_regions(&blocks[r], shape, reg, &n))) return rc;
        for (i = 0; i < n; i++) {
            const int from[3] = {-reg[i].dir[0], -reg[i].dir[1], -reg[i].dir[2]}; /* as the peer sees it */
            const perks_block3 *q = &blocks[reg[i].peer];
            int at[3];
            perks_block3_recv_at(q, from, at);
            if ((rc = perks__box_copy(bufs[reg[i].peer], q->ext, at, bufs[r], blocks[r].ext, reg[i].send_at, reg[i].count,
                                      elem_bytes, stream)))
                return rc;
        }
    }
    return PERKS_SUCCESS;
}

/* the workspace perks_block3_exchange_nccl packs into: the regions' cells twice (sent, received) */
static inline int perks_block3_pack_bytes(const perks_block3 *b, int shape, size_t elem_bytes, size_t *bytes)
{
    perks_region3 reg[26];
    int n = 0, i, rc;
    size_t cells = 0;
    if (!b || !bytes) return PERKS_ENULL;
    if (elem_bytes == 0 || elem_bytes > (size_t)INT_MAX) return PERKS_ESIZE;
    if ((rc = perks_block3_regions(b, shape, reg, &n))) return rc;
    for (i = 0; i < n; i++) cells += (size_t)reg[i].count[0] * reg[i].count[1] * reg[i].count[2];
    /* cells < 26 buffers of < 2^31 cells: the product fits a 64-bit size_t unless elem_bytes is huge */
    if (cells > (size_t)-1 / 2 / elem_bytes) return PERKS_ESIZE;
    *bytes = 2 * cells * elem_bytes;
    return PERKS_SUCCESS;
}

#if defined(__has_include) && !defined(PERKS_NO_NCCL)
#if __has_include(<nccl.h>)
#include <nccl.h>
#include <time.h>
#define PERKS_HAVE_NCCL 1
/* this rank's sends and receives in one NCCL group (docs/perks.md#slab-order); one rank,
 * periodic: a device copy */
static inline int perks_slab_exchange_nccl(const perks_slab *s, void *buf, size_t plane_bytes, ncclComm_t comm,
                                           cudaStream_t stream)
{
    const size_t bytes = s ? (size_t)s->halo * plane_bytes : 0;
    if (!s || !buf) return PERKS_ENULL;
    if (s->nranks == 1) { /* periodic: my own planes wrap into my ghosts */
        perks_slab one = *s;
        void *b = buf;
        return perks_slab_exchange_local(&one, &b, 1, plane_bytes, stream);
    }
    if (ncclGroupStart() != ncclSuccess) return PERKS_ECOMM;
    for (int k = 0; k < 2; k++)
        if (s->peer[k] >= 0 &&
            ncclSend((const char *)buf + (size_t)s->send_at[k] * plane_bytes, bytes, ncclChar, s->peer[k], comm, stream) != ncclSuccess) {
            ncclGroupEnd();
            return PERKS_ECOMM;
        }
    for (int k = 1; k >= 0; k--)
        if (s->peer[k] >= 0 &&
            ncclRecv((char *)buf + (size_t)s->recv_at[k] * plane_bytes, bytes, ncclChar, s->peer[k], comm, stream) != ncclSuccess) {
            ncclGroupEnd();
            return PERKS_ECOMM;
        }
    return ncclGroupEnd() == ncclSuccess ? PERKS_SUCCESS : PERKS_ECOMM;
}

/* this rank's regions packed into work (perks_block3_pack_bytes; device memory), sent and received
 * in one NCCL group (to a peer met in several directions in region order, from it in the reverse:
 * the sends' order; one rank alone on a periodic axis sends to itself), unpacked into buf's ghosts;
 * PERKS_ESIZE unless comm's size and rank are the block's */
static inline int perks_block3_exchange_nccl(const perks_block3 *b, int shape, void *buf, void *work, size_t elem_bytes,
                                             ncclComm_t comm, cudaStream_t stream)
{
    perks_region3 reg[26];
    size_t off[27], half = 0;
    int n = 0, i, rc, count = 0, me = -1;
    const int zero[3] = {0, 0, 0};
    if (!b || !buf) return PERKS_ENULL;
    if ((rc = perks_block3_pack_bytes(b, shape, elem_bytes, &half))) return rc;
    if (ncclCommCount(comm, &count) != ncclSuccess || ncclCommUserRank(comm, &me) != ncclSuccess) return PERKS_ECOMM;
    if (count != b->grid.nranks || me != b->rank) return PERKS_ESIZE;
    if (half == 0) return PERKS_SUCCESS; /* no region: nothing to send */
    if (!work) return PERKS_ENULL;
    half /= 2;
    perks_block3_regions(b, shape, reg, &n);
    for (off[0] = 0, i = 0; i < n; i++)
        off[i + 1] = off[i] + (size_t)reg[i].count[0] * reg[i].count[1] * reg[i].count[2] * elem_bytes;
    for (i = 0; i < n; i++)
        if ((rc = perks__box_copy((char *)work + off[i], reg[i].count, zero, buf, b->ext, reg[i].send_at, reg[i].count,
                                  elem_bytes, stream)))
            return rc;
    if (ncclGroupStart() != ncclSuccess) return PERKS_ECOMM;
    for (i = 0; i < n; i++)
        if (ncclSend((const char *)work + off[i], off[i + 1] - off[i], ncclChar, reg[i].peer, comm, stream) != ncclSuccess)
            return ncclGroupEnd(), PERKS_ECOMM;
    for (i = n - 1; i >= 0; i--)
        if (ncclRecv((char *)work + half + off[i], off[i + 1] - off[i], ncclChar, reg[i].peer, comm, stream) != ncclSuccess)
            return ncclGroupEnd(), PERKS_ECOMM;
    if (ncclGroupEnd() != ncclSuccess) return PERKS_ECOMM;
    for (i = 0; i < n; i++)
        if ((rc = perks__box_copy(buf, b->ext, reg[i].recv_at, (const char *)work + half + off[i], reg[i].count, zero,
                                  reg[i].count, elem_bytes, stream)))
            return rc;
    return PERKS_SUCCESS;
}

/* seconds on a monotonic clock */
static inline double perks__seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline void perks__abort_all(const ncclComm_t *comms, int n)
{
    for (int i = 0; i < n; i++) ncclCommAbort(comms[i]);
}

/* wait until streams[0..n) are idle, polling ncclCommGetAsyncError; on an error (PERKS_ECOMM) or
 * after timeout_s (PERKS_ETIMEOUT) every comms[i] is aborted */
static inline int perks_nccl_wait(const ncclComm_t *comms, const cudaStream_t *streams, int n, double timeout_s)
{
    const struct timespec nap = {0, 20000}; /* 20 us between polls */
    double t0;
    if (!comms || !streams) return PERKS_ENULL;
    if (n < 1 || !(timeout_s > 0)) return PERKS_ESIZE;
    t0 = perks__seconds();
    for (;;) {
        int busy = 0;
        for (int i = 0; i < n; i++) {
            const cudaError_t q = cudaStreamQuery(streams[i]);
            if (q == cudaErrorNotReady) busy = 1;
            else if (q != cudaSuccess) return PERKS_ECUDA;
        }
        if (!busy) return PERKS_SUCCESS;
        for (int i = 0; i < n; i++) {
            ncclResult_t st = ncclSuccess;
            if (ncclCommGetAsyncError(comms[i], &st) != ncclSuccess || (st != ncclSuccess && st != ncclInProgress)) {
                perks__abort_all(comms, n);
                return PERKS_ECOMM;
            }
        }
        if (perks__seconds() - t0 > timeout_s) {
            perks__abort_all(comms, n);
            return PERKS_ETIMEOUT;
        }
        nanosleep(&nap, NULL);
    }
}

#define PERKS_NCCL_MAXLOCAL 64
/* PERKS_ESIZE on every rank unless all agree (fingerprints, communicators); slabs[i]: the slab of
 * comms[i]'s rank, plane: elements a plane */
static inline int perks_slab_agree_nccl(const perks_slab *slabs, int n, long long plane, const ncclComm_t *comms,
                                        const cudaStream_t *streams, double timeout_s)
{
    unsigned long long *d[PERKS_NCCL_MAXLOCAL], h[PERKS_NCCL_MAXLOCAL][2], f[PERKS_NCCL_MAXLOCAL];
    int dev0 = 0, rc = PERKS_SUCCESS, i;
    if (!slabs || !comms || !streams) return PERKS_ENULL;
    if (n < 1 || n > PERKS_NCCL_MAXLOCAL || !(timeout_s > 0)) return PERKS_ESIZE;
    if (cudaGetDevice(&dev0) != cudaSuccess) return PERKS_ECUDA;
    for (i = 0; i < n; i++) d[i] = NULL;
    for (i = 0; i < n && !rc; i++) {
        int dev = 0, count = 0, rank = 0;
        const perks_slab *s = &slabs[i];
        f[i] = perks_slab_fingerprint(s->n, s->nranks, s->halo, s->boundary, plane);
        if (ncclCommCuDevice(comms[i], &dev) != ncclSuccess || ncclCommCount(comms[i], &count) != ncclSuccess ||
            ncclCommUserRank(comms[i], &rank) != ncclSuccess)
            rc = PERKS_ECOMM;
        else if (cudaSetDevice(dev) != cudaSuccess || cudaMalloc((void **)&d[i], 2 * sizeof(unsigned long long)) != cudaSuccess)
            rc = PERKS_ECUDA;
        else {
            const int match = count == s->nranks && rank == s->rank;
            h[i][0] = match ? f[i] : 0ull;
            h[i][1] = match ? f[i] : ~0ull;
            if (cudaMemcpyAsync(d[i], h[i], sizeof h[i], cudaMemcpyHostToDevice, streams[i]) != cudaSuccess) rc = PERKS_ECUDA;
        }
    }
    if (!rc) {
        if (ncclGroupStart() != ncclSuccess) rc = PERKS_ECOMM;
        for (i = 0; i < n && !rc; i++)
            if (ncclAllReduce(d[i], d[i], 1, ncclUint64, ncclMin, comms[i], streams[i]) != ncclSuccess ||
                ncclAllReduce(d[i] + 1, d[i] + 1, 1, ncclUint64, ncclMax, comms[i], streams[i]) != ncclSuccess)
                rc = PERKS_ECOMM;
        if (ncclGroupEnd() != ncclSuccess) rc = PERKS_ECOMM;
    }
    if (!rc) rc = perks_nccl_wait(comms, streams, n, timeout_s);
    if (rc == PERKS_ECOMM || rc == PERKS_ETIMEOUT) { /* a stream may be stuck: leave the buffers */
        cudaSetDevice(dev0);
        return rc;
    }
    for (i = 0; i < n; i++) {
        if (!d[i]) continue;
        if (!rc && (cudaMemcpyAsync(h[i], d[i], sizeof h[i], cudaMemcpyDeviceToHost, streams[i]) != cudaSuccess ||
                    cudaStreamSynchronize(streams[i]) != cudaSuccess))
            rc = PERKS_ECUDA;
        if (!rc && (h[i][0] != f[i] || h[i][1] != f[i])) rc = PERKS_ESIZE;
        cudaFree(d[i]);
    }
    if (cudaSetDevice(dev0) != cudaSuccess && !rc) rc = PERKS_ECUDA;
    return rc;
}
#endif
#endif
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_EXCHANGE_CUH */
#include <onchip/names_pop.h>
