/* perks/exchange.cuh -- the halo exchange of perks/decomp.h's slabs: by device copies between
 * subdomains one process holds (virtual ranks on one GPU, or one per GPU with peer access), and
 * through NCCL where <nccl.h> is present.
 *
 * WHAT (PERKS paper section 3.2: boundary planes exchanged between passes)
 *   perks_slab_exchange_local(slabs, bufs, nranks, plane_bytes, stream)
 *       every rank's halo planes copied into its neighbours' ghost planes (cudaMemcpyAsync on one
 *       stream, in rank order); bufs[r] is rank r's buffer of slabs[r].buf_planes planes.
 *   perks_slab_exchange_nccl(s, buf, plane_bytes, comm, stream)        (only with <nccl.h>)
 *       this rank's part of the same exchange: sends and receives in one ncclGroupStart/End, in
 *       decomp.h's ORDER.  One rank, periodic: a device copy within the buffer (no NCCL call).
 *   Both return PERKS_SUCCESS or PERKS_ENULL / PERKS_ESIZE (slabs that disagree on the domain) /
 *   PERKS_ECUDA / PERKS_ECOMM (an NCCL error: ncclGetLastError(comm) says which).
 *
 * EXAMPLE (one step of a one-pass stencil per exchange, halo = the stencil's reach)
 *     perks_slab s;  perks_slab_make(&s, ny, nranks, rank, 1, PERKS_SLAB_DIRICHLET);
 *     for (int t = 0; t < steps; t++) {
 *         perks_slab_exchange_nccl(&s, cur, nx * sizeof(float), comm, stream);
 *         stencil(cur -> nxt over the buffer's planes, ghosts kept);  swap(cur, nxt);
 *     }
 *   tests/gpu/test_perks_exchange.cu runs this with ssam's 5-point stencil and checks it against
 *   one undivided domain bit for bit.
 *
 * LIMITS
 *   The caller owns the buffers, the communicator and the stream, and makes all ranks call the
 *   exchange the same number of times (NCCL point-to-point has no timeout: a rank that stops
 *   calling leaves its peers waiting; compare perks_slab_fingerprint across ranks first).
 */
#ifndef PERKS_EXCHANGE_CUH
#define PERKS_EXCHANGE_CUH

#include <cuda_runtime.h>
#include <stddef.h>

#include "decomp.h"

/* the copies of one exchange among nranks subdomains held by this process */
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
            /* rank r's planes for its neighbour k land in p's ghosts on the other side (1 - k) */
            const char *from = (const char *)bufs[r] + (size_t)slabs[r].send_at[k] * plane_bytes;
            char *to = (char *)bufs[p] + (size_t)slabs[p].recv_at[1 - k] * plane_bytes;
            if (cudaMemcpyAsync(to, from, (size_t)slabs[r].halo * plane_bytes, cudaMemcpyDefault, stream) != cudaSuccess)
                return PERKS_ECUDA;
        }
    return PERKS_SUCCESS;
}

#if defined(__has_include)
#if __has_include(<nccl.h>)
#include <nccl.h>
#define PERKS_HAVE_NCCL 1
/* this rank's part of the exchange through NCCL (decomp.h's ORDER) */
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
#endif
#endif

#endif /* PERKS_EXCHANGE_CUH */
