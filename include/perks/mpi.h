#include <onchip/names_push.h>
/* perks/mpi.h -- the slabs of perks/decomp.h and the pencils and blocks of perks/decomp3d.h over an
 * MPI communicator (C99, host; compiled where <mpi.h> is found, else empty): the node-local rank
 * that picks a device, the agreement check every rank runs once, and the halo exchange through MPI
 * on host buffers (the host-staged transport: the _staged forms copy between device and host).
 *
 * WHAT
 *   perks_mpi_local(comm, &local, &nlocal)      this rank's index among the ranks of its node, and
 *                                               their count (MPI_Comm_split_type, shared memory)
 *   perks_slab_agree_mpi(s, plane, comm)        PERKS_ESIZE on every rank unless every rank's slab
 *                                               is its rank of one domain (the fingerprint) and
 *                                               comm's rank and size are the slab's
 *   perks_slab_exchange_mpi(s, buf, plane_bytes, comm, timeout_s)
 *                                               the ghosts of buf (host) from the peers' planes:
 *                                               MPI_Isend / MPI_Irecv, waited for at most timeout_s
 *   perks_slab_exchange_mpi_staged(s, dbuf, hbuf, plane_bytes, comm, stream, timeout_s)
 *                                               (CUDA code) the same for a device buffer, through
 *                                               the host buffer hbuf (ranks may share a device)
 *   perks_block3_agree_mpi(b, shape, elem_bytes, comm), perks_block3_exchange_mpi(b, shape, buf,
 *   elem_bytes, comm, timeout_s), perks_block3_exchange_mpi_staged(b, shape, dbuf, hbuf, elem_bytes,
 *   comm, stream, timeout_s)                    the same for a pencil or block of perks/decomp3d.h
 *                                               (faces, or faces, edges and corners: one message a
 *                                               region, no packing; device memory with a CUDA-aware MPI)
 *   perks_nccl_from_mpi(comm, &nccl, &device)   (CUDA code with <nccl.h>) the device from the
 *                                               node-local rank, NCCL's communicator over comm's ranks
 *                                               for perks/exchange.cuh and perks/cg_dist.cuh
 *
 * EXAMPLE
 *   [not compiled: it needs <mpi.h>; tests/mpi/test_perks_mpi.c makes these calls]
 *   // MPI_Comm comm; int ny, nx, P, me; float *buf (host: own planes + 2 halo); perks_slab s
 *   int local = 0, nlocal = 1;
 *   if (perks_mpi_local(comm, &local, &nlocal)) return 1;   // cudaSetDevice(local % devices)
 *   const int made = perks_slab_make(&s, ny, P, me, 1, PERKS_SLAB_DIRICHLET);
 *   if (perks_slab_agree_mpi(made ? NULL : &s, nx, comm)) return 1;   // every rank, once
 *   if (perks_slab_exchange_mpi(&s, buf, nx * sizeof(float), comm, 60.0)) return 1;
 *
 * ERRORS (perks/base.h): PERKS_ENULL; PERKS_ESIZE (a halo past INT_MAX bytes, a timeout not > 0,
 *   ranks that disagree, an unknown shape, a cell of 0 bytes, a region past INT_MAX bytes); PERKS_EUNSUPPORTED (NCCL: more ranks than devices on a node); PERKS_ECOMM
 *   (an MPI call failed); PERKS_ETIMEOUT (the exchange did not end in timeout_s).  A failed exchange
 *   cancels its receives (buf no longer written) and releases its sends, which MPI may still read
 *   from buf: keep buf, and call MPI_Abort.  The collectives (perks_mpi_local, the agreement, the
 *   NCCL bootstrap) are called by every rank, a failing one too: each returns the same verdict.
 * LIMITS: one message (a slab's halo, a block's region) at most INT_MAX bytes; tags PERKS_MPI_TAG
 *   to PERKS_MPI_TAG + 28.
 */
#ifndef PERKS_MPI_H
#define PERKS_MPI_H

#if defined(__has_include)
#if __has_include(<mpi.h>)
#include <limits.h>
#if defined(__cplusplus) && !defined(OMPI_SKIP_MPICXX) /* the C API only: not MPI's C++ bindings */
#define OMPI_SKIP_MPICXX 1
#endif
#if defined(__cplusplus) && !defined(MPICH_SKIP_MPICXX)
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
#include <string.h>

#include "decomp.h"
#include "decomp3d.h"

#define PERKS_HAVE_MPI 1
#ifndef PERKS_MPI_TAG
#define PERKS_MPI_TAG 7100 /* the exchanges' tags: this to this + 28 */
#endif

/* collective: every rank of comm calls it (a rank with a NULL argument too: it gets PERKS_ENULL) */
static inline int perks_mpi_local(MPI_Comm comm, int *local, int *nlocal)
{
    MPI_Comm node;
    int rc, l = 0, nl = 0;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return PERKS_ECOMM;
    rc = MPI_Comm_rank(node, &l) == MPI_SUCCESS && MPI_Comm_size(node, &nl) == MPI_SUCCESS ? PERKS_SUCCESS : PERKS_ECOMM;
    MPI_Comm_free(&node);
    if (!local || !nlocal) return PERKS_ENULL;
    *local = l, *nlocal = nl;
    return rc;
}

/* collective: every rank calls it, one whose perks_slab_make failed too (with s NULL: it gets
 * PERKS_ENULL, the others PERKS_ESIZE) */
static inline int perks_slab_agree_mpi(const perks_slab *s, long long plane, MPI_Comm comm)
{
    int size = 0, rank = -1, match;
    unsigned long long f, v[2], lo[2];
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return PERKS_ECOMM;
    f = s ? (unsigned long long)perks_slab_fingerprint(s->n, s->nranks, s->halo, s->boundary, plane) : 0ull;
    match = s && size == s->nranks && rank == s->rank;
    /* min of f and of ~f: every rank equal iff min f == ~min ~f (a mismatched rank sends 0 and 0) */
    v[0] = match ? f : 0ull;
    v[1] = match ? ~f : 0ull;
    if (MPI_Allreduce(v, lo, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm) != MPI_SUCCESS) return PERKS_ECOMM;
    if (!s) return PERKS_ENULL;
    return lo[0] == f && ~lo[1] == f ? PERKS_SUCCESS : PERKS_ESIZE;
}

/* an exchange that failed or ran out of time: its receives cancelled and completed (buf is no
 * longer written), its sends released (MPI completes them from buf: keep it until MPI_Finalize or
 * MPI_Abort) */
static inline void perks__mpi_drop(MPI_Request *req, int nrecv, int nreq)
{
    for (int i = 0; i < nreq; i++) {
        if (req[i] == MPI_REQUEST_NULL) continue;
        if (i < nrecv) {
            MPI_Cancel(&req[i]);
            MPI_Wait(&req[i], MPI_STATUS_IGNORE);
        } else MPI_Request_free(&req[i]);
    }
}

/* an exchange's nreq requests (the first nrecv receives) waited for at most timeout_s; on a failure
or the timeout dropped (perks__mpi_drop) */
static inline int perks__mpi_wait(MPI_Request *req, int nrecv, int nreq, double timeout_s)
{
    int done = 0;
    const double t0 = MPI_Wtime();
    while (!done) {
        if (MPI_Testall(nreq, req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
            return perks__mpi_drop(req, nrecv, nreq), PERKS_ECOMM;
        if (!done && MPI_Wtime() - t0 > timeout_s) return perks__mpi_drop(req, nrecv, nreq), PERKS_ETIMEOUT;
    }
    return PERKS_SUCCESS;
}

/* an exchange's message: halo planes of plane_bytes (at most INT_MAX bytes, timeout_s > 0) */
static inline int perks__mpi_halo_bytes(const perks_slab *s, size_t plane_bytes, double timeout_s, size_t *bytes)
{
    if (!(timeout_s > 0) || (plane_bytes && (size_t)s->halo > (size_t)INT_MAX / plane_bytes)) return PERKS_ESIZE;
    *bytes = (size_t)s->halo * plane_bytes;
    return PERKS_SUCCESS;
}

static inline int perks_slab_exchange_mpi(const perks_slab *s, void *buf, size_t plane_bytes, MPI_Comm comm,
                                          double timeout_s)
{
    MPI_Request req[4];
    int nreq = 0, nrecv, k, rc;
    size_t bytes;
    if (!s || !buf) return PERKS_ENULL;
    if ((rc = perks__mpi_halo_bytes(s, plane_bytes, timeout_s, &bytes)) || bytes == 0) return rc;
    if (s->nranks == 1) { /* periodic: my own planes wrap into my ghosts */
        for (k = 0; k < 2; k++)
            if (s->peer[k] >= 0)
                memcpy((char *)buf + (size_t)s->recv_at[k] * plane_bytes,
                       (const char *)buf + (size_t)s->send_at[1 - k] * plane_bytes, bytes);
        return PERKS_SUCCESS;
    }
    /* the planes sent to the rank after carry tag + 1, to the rank before tag: a two-rank periodic
     * ring (both peers one rank) keeps its two messages apart */
    for (k = 0; k < 2; k++)
        if (s->peer[k] >= 0 && MPI_Irecv((char *)buf + (size_t)s->recv_at[k] * plane_bytes, (int)bytes, MPI_BYTE,
                                         s->peer[k], PERKS_MPI_TAG + (k == 0), comm, &req[nreq++]) != MPI_SUCCESS)
            return perks__mpi_drop(req, nreq - 1, nreq - 1), PERKS_ECOMM;
    nrecv = nreq;
    for (k = 0; k < 2; k++)
        if (s->peer[k] >= 0 && MPI_Isend((const char *)buf + (size_t)s->send_at[k] * plane_bytes, (int)bytes, MPI_BYTE,
                                         s->peer[k], PERKS_MPI_TAG + (k == 1), comm, &req[nreq++]) != MPI_SUCCESS)
            return perks__mpi_drop(req, nrecv, nreq - 1), PERKS_ECOMM;
    return perks__mpi_wait(req, nrecv, nreq, timeout_s);
}

/* collective: every rank calls it, one whose perks_block3_make failed too (with b NULL: it gets
 * PERKS_ENULL, the others PERKS_ESIZE); PERKS_ESIZE on every rank unless every rank's block is its
 * rank of one grid, shape and element size and comm's rank and size are the block's */
static inline int perks_block3_agree_mpi(const perks_block3 *b, int shape, size_t elem_bytes, MPI_Comm comm)
{
    int size = 0, rank = -1, match;
    unsigned long long f, v[2], lo[2];
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return PERKS_ECOMM;
    match = b && size == b->grid.nranks && rank == b->rank && elem_bytes > 0 && elem_bytes <= (size_t)INT_MAX &&
            (shape == PERKS_STAR || shape == PERKS_BOX);
    f = match ? (unsigned long long)perks_grid3_fingerprint(&b->grid, shape, (long long)elem_bytes) : 0ull;
    v[0] = match ? f : 0ull; /* as the slab's: min f == ~min ~f iff every rank sent f */
    v[1] = match ? ~f : 0ull;
    if (MPI_Allreduce(v, lo, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm) != MPI_SUCCESS) return PERKS_ECOMM;
    if (!b) return PERKS_ENULL;
    return match && lo[0] == f && ~lo[1] == f ? PERKS_SUCCESS : PERKS_ESIZE;
}

/* region r of block b as an MPI type over the whole buffer (x fastest): its cells at at[]; a region
 * past INT_MAX bytes is refused (PERKS_ESIZE: MPI_Type_size counts in an int) */
static inline int perks__mpi_region_type(const perks_block3 *b, const perks_region3 *r, const int *at,
                                         MPI_Datatype cell, size_t elem_bytes, MPI_Datatype *t)
{
    int sizes[3], sub[3], start[3], a;
    if ((size_t)r->count[0] * (size_t)r->count[1] * (size_t)r->count[2] > (size_t)INT_MAX / elem_bytes) return PERKS_ESIZE;
    for (a = 0; a < 3; a++) sizes[2 - a] = b->ext[a], sub[2 - a] = r->count[a], start[2 - a] = at[a];
    if (MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, cell, t) != MPI_SUCCESS) return PERKS_ECOMM;
    if (MPI_Type_commit(t) != MPI_SUCCESS) return MPI_Type_free(t), PERKS_ECOMM;
    return PERKS_SUCCESS;
}

/* the ghosts of buf (host memory, or device memory with a CUDA-aware MPI: b->ext[0] x ext[1] x
 * ext[2] cells of elem_bytes, x fastest) from the peers' own cells: one message a region of
 * perks_block3_regions(b, shape) (an MPI subarray type: no packing), the region sent in direction
 * d tagged PERKS_MPI_TAG + 2 + d (a peer met in several directions keeps them apart), waited for
 * at most timeout_s */
static inline int perks_block3_exchange_mpi(const perks_block3 *b, int shape, void *buf, size_t elem_bytes,
                                            MPI_Comm comm, double timeout_s)
{
    perks_region3 reg[26];
    MPI_Request req[52];
    MPI_Datatype cell, t;
    int nreg = 0, nreq = 0, nrecv, i, rc, d;
    if (!b || !buf) return PERKS_ENULL;
    if (!(timeout_s > 0) || elem_bytes == 0 || elem_bytes > (size_t)INT_MAX) return PERKS_ESIZE;
    if ((rc = perks_block3_regions(b, shape, reg, &nreg)) || nreg == 0) return rc;
    if (MPI_Type_contiguous((int)elem_bytes, MPI_BYTE, &cell) != MPI_SUCCESS) return PERKS_ECOMM;
    /* a type freed after its operation starts stays valid for it (MPI 4.0, 5.1.9) */
    for (i = 0; i < nreg && !rc; i++) { /* from the peer in direction dir: it sent it in direction -dir */
        d = (1 - reg[i].dir[0]) + 3 * (1 - reg[i].dir[1]) + 9 * (1 - reg[i].dir[2]);
        if (!(rc = perks__mpi_region_type(b, &reg[i], reg[i].recv_at, cell, elem_bytes, &t))) {
            if (MPI_Irecv(buf, 1, t, reg[i].peer, PERKS_MPI_TAG + 2 + d, comm, &req[nreq]) == MPI_SUCCESS) nreq++;
            else rc = PERKS_ECOMM;
            MPI_Type_free(&t);
        }
    }
    nrecv = nreq;
    for (i = 0; i < nreg && !rc; i++) {
        d = (1 + reg[i].dir[0]) + 3 * (1 + reg[i].dir[1]) + 9 * (1 + reg[i].dir[2]);
        if (!(rc = perks__mpi_region_type(b, &reg[i], reg[i].send_at, cell, elem_bytes, &t))) {
            if (MPI_Isend(buf, 1, t, reg[i].peer, PERKS_MPI_TAG + 2 + d, comm, &req[nreq]) == MPI_SUCCESS) nreq++;
            else rc = PERKS_ECOMM;
            MPI_Type_free(&t);
        }
    }
    MPI_Type_free(&cell);
    if (rc) return perks__mpi_drop(req, nrecv, nreq), rc;
    return perks__mpi_wait(req, nrecv, nreq, timeout_s);
}

#if defined(__CUDACC__) && !defined(PERKS_NO_NCCL) && __has_include(<nccl.h>)
#include <cuda_runtime.h>
#include <nccl.h>
#define PERKS_MPI_NCCL 1 /* perks_nccl_from_mpi is defined */
/* one NCCL communicator over comm's ranks: this rank's device local % devices (made current, into
 * *device), rank 0's unique id broadcast, ncclCommInitRank.  Collective; before the initialisation
 * every rank returns the worst rank's code: PERKS_ENULL, PERKS_ECUDA (no device), PERKS_EUNSUPPORTED
 * (a node with more ranks than devices: NCCL takes one device a rank; the MPI exchange shares
 * them), PERKS_ECOMM */
static inline int perks_nccl_from_mpi(MPI_Comm comm, ncclComm_t *nccl, int *device)
{
    int rank = 0, size = 0, local = 0, nlocal = 0, ndev = 0, rc, worst = 0;
    struct {
        int rc;
        ncclUniqueId id;
    } root;
    rc = perks_mpi_local(comm, &local, &nlocal);
    if (!rc && (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)) rc = PERKS_ECOMM;
    if (!rc && !(cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0)) rc = PERKS_ECUDA;
    if (!rc && nlocal > ndev) rc = PERKS_EUNSUPPORTED;
    if (!rc && cudaSetDevice(local % ndev) != cudaSuccess) rc = PERKS_ECUDA;
    if (!nccl || !device) rc = PERKS_ENULL;
    else *device = ndev > 0 ? local % ndev : -1;
    if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) return PERKS_ECOMM;
    if (worst) return worst; /* one verdict on every rank, its own failure's or another's */
    memset(&root, 0, sizeof root);
    if (rank == 0) root.rc = ncclGetUniqueId(&root.id) == ncclSuccess ? PERKS_SUCCESS : PERKS_ECOMM;
    if (MPI_Bcast(&root, (int)sizeof root, MPI_BYTE, 0, comm) != MPI_SUCCESS) return PERKS_ECOMM;
    if (root.rc) return root.rc;
    return ncclCommInitRank(nccl, size, root.id, rank) == ncclSuccess ? PERKS_SUCCESS : PERKS_ECOMM;
}
#endif
#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include "exchange.cuh" /* perks__box_copy */
/* the ghosts of a device buffer through host memory: the planes each peer takes copied to hbuf (a
 * host buffer of s->buf_planes planes, at the same offsets; pinned memory copies faster), exchanged
 * there by perks_slab_exchange_mpi, the ghosts copied back; waits for stream.  Any number of ranks
 * may share a device */
static inline int perks_slab_exchange_mpi_staged(const perks_slab *s, void *dbuf, void *hbuf, size_t plane_bytes,
                                                 MPI_Comm comm, cudaStream_t stream, double timeout_s)
{
    int k, rc;
    size_t bytes;
    if (!s || !dbuf || !hbuf) return PERKS_ENULL;
    if ((rc = perks__mpi_halo_bytes(s, plane_bytes, timeout_s, &bytes)) || bytes == 0) return rc;
    for (k = 0; k < 2; k++)
        if (s->peer[k] >= 0 && cudaMemcpyAsync((char *)hbuf + (size_t)s->send_at[k] * plane_bytes,
                                               (const char *)dbuf + (size_t)s->send_at[k] * plane_bytes, bytes,
                                               cudaMemcpyDeviceToHost, stream) != cudaSuccess)
            return PERKS_ECUDA;
    if (cudaStreamSynchronize(stream) != cudaSuccess) return PERKS_ECUDA;
    if ((rc = perks_slab_exchange_mpi(s, hbuf, plane_bytes, comm, timeout_s))) return rc;
    for (k = 0; k < 2; k++)
        if (s->peer[k] >= 0 && cudaMemcpyAsync((char *)dbuf + (size_t)s->recv_at[k] * plane_bytes,
                                               (const char *)hbuf + (size_t)s->recv_at[k] * plane_bytes, bytes,
                                               cudaMemcpyHostToDevice, stream) != cudaSuccess)
            return PERKS_ECUDA;
    return cudaStreamSynchronize(stream) == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}

/* perks_block3_exchange_mpi for a device buffer through host memory: the regions each peer takes
 * copied to hbuf (a host buffer of the block's cells, at the same offsets; cudaMallocHost memory best),
 * exchanged there, the ghosts copied back; waits for stream.  Any number of ranks may share a
 * device */
static inline int perks_block3_exchange_mpi_staged(const perks_block3 *b, int shape, void *dbuf, void *hbuf,
                                                   size_t elem_bytes, MPI_Comm comm, cudaStream_t stream,
                                                   double timeout_s)
{
    perks_region3 reg[26];
    int nreg = 0, i, rc;
    if (!b || !dbuf || !hbuf) return PERKS_ENULL;
    if (!(timeout_s > 0) || elem_bytes == 0 || elem_bytes > (size_t)INT_MAX) return PERKS_ESIZE;
    if ((rc = perks_block3_regions(b, shape, reg, &nreg)) || nreg == 0) return rc;
    for (i = 0; i < nreg; i++)
        if ((rc = perks__box_copy(hbuf, b->ext, reg[i].send_at, dbuf, b->ext, reg[i].send_at, reg[i].count, elem_bytes, stream)))
            return rc;
    if (cudaStreamSynchronize(stream) != cudaSuccess) return PERKS_ECUDA;
    if ((rc = perks_block3_exchange_mpi(b, shape, hbuf, elem_bytes, comm, timeout_s))) return rc;
    for (i = 0; i < nreg; i++)
        if ((rc = perks__box_copy(dbuf, b->ext, reg[i].recv_at, hbuf, b->ext, reg[i].recv_at, reg[i].count, elem_bytes, stream)))
            return rc;
    return cudaStreamSynchronize(stream) == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}
#endif
#endif
#endif

#endif /* PERKS_MPI_H */
#include <onchip/names_pop.h>
