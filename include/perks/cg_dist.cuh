/* perks/cg_dist.cuh -- conjugate gradient over several ranks: a CSR system split into row blocks,
 * the halo of the SpMV exchanged through NCCL (or by device copies between ranks one process holds),
 * the dot products through ncclAllReduce.
 *
 * WHAT (PERKS paper section 3.2: the interior computed per rank, the boundary exchanged; the CPU-Free
 * model's distributed CG)
 *   PERKS_CGD_DEFINE(name, T) defines, for T float or double,
 *       int name_solve(perks_cgd_rank *rk, int nlocal, const perks_cgd_opts *o, perks_cgd_result *res)
 *   and its kernels name_diag / _resid / _spmv / _update / _pupd.  rk[0 .. nlocal-1] are the ranks
 *   this process drives (one thread drives them all; each NCCL step is one ncclGroupStart/End over
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
 *   PERKS_CGD_RESTARTS = 2 times (res.restarts); then PERKS_EINACCURATE (x is returned).  PERKS_ENOCONV after max_iter iterations, PERKS_EBREAKDOWN when p.q <= 0
 *   or is not a number (A not SPD), PERKS_EDIAG when Jacobi finds a diagonal entry <= 0, missing or
 *   not finite.
 *
 * EXAMPLE (one process, one rank per GPU; tests/gpu/test_perks_cg_dist.cu, bench/cgdist.cu)
 *     PERKS_CGD_DEFINE(cgd64, double)
 *     perks_cgd_rank rk[8] = {0};
 *     for (r = 0; r < P; r++) {
 *         rk[r].device = r; rk[r].comm = comms[r]; rk[r].nranks = P; rk[r].rank = r; rk[r].n = n;
 *         rk[r].first = perks_slab_first(n, P, r); rk[r].own = perks_slab_own(n, P, r);
 *         ... rp, ci, va, b, x on device r, a stream ...
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
 */
#ifndef PERKS_CG_DIST_CUH
#define PERKS_CG_DIST_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "decomp.h"
#include "exchange.cuh" /* perks_nccl_wait */

#ifdef PERKS_HAVE_NCCL /* <nccl.h> found, PERKS_NO_NCCL not defined (perks/exchange.cuh) */
#define PERKS_CGD_NCCL 1
#endif

#define PERKS_CGD_MAXRANKS 64
#define PERKS_CGD_POLL 16   /* the host reads the solver's state every 16 iterations */
#define PERKS_CGD_BLOCK 256 /* threads per block of every kernel */
#define PERKS_CGD_RESTARTS 2 /* restarts from r = b - A x when only the recurrence met tol */

typedef struct perks_cgd_opts {
    double tol;   /* stop when ||r|| <= tol ||b|| (default 1e-8) */
    int max_iter; /* default 10000 */
    int jacobi;   /* 1: M = diag(A) */
    int use_x0;   /* 1: start from x (else from 0; x is then not read) */
    int lanes;    /* lanes of a warp per row of the SpMV, a power of two <= 32; 0: the least power
                     of two giving at most 4 nonzeros a lane on average */
    double timeout_s; /* NCCL ranks: each wait for the devices (every PERKS_CGD_POLL iterations) at
                         most this long, else PERKS_ETIMEOUT and the communicators aborted
                         (perks_nccl_wait); default 300 */
} perks_cgd_opts;

static inline perks_cgd_opts perks_cgd_defaults(void)
{
    perks_cgd_opts o;
    o.tol = 1e-8, o.max_iter = 10000, o.jacobi = 0, o.use_x0 = 0, o.lanes = 0, o.timeout_s = 300;
    return o;
}

typedef struct perks_cgd_result {
    int status;           /* PERKS_SUCCESS only when true_residual <= tol */
    int iterations;       /* iterations done */
    double rel_residual;  /* sqrt(r.r / b.b) of the recurrence at the end */
    double true_residual; /* ||b - A x|| / ||b|| of the x returned */
    double bnorm;         /* ||b|| */
    int restarts;         /* restarts from the true residual (see WHAT A SUCCESS MEANS) */
} perks_cgd_result;

/* the device state of one rank: the sums and the decisions */
typedef struct perks__cgd_state {
    double loc[5];   /* this rank's partials: p.q, r.r, r.z, b.b, bad diagonals (Jacobi) */
    double glob[5];  /* their sums over all ranks */
    double rzold[2]; /* r.z of the last two iterations (by parity) */
    double bb, tol2;
    int status; /* 0 running, 1 converged, PERKS_EBREAKDOWN */
    int iters;
    unsigned ticket;
    int pad_;
} perks__cgd_state;

typedef struct perks_cgd_rank {
    /* the caller's */
    int device, nranks, rank;
    int n, first, own;
    const int *rp, *ci;
    const void *va, *b;
    void *x;
    void *comm; /* ncclComm_t, or NULL: virtual ranks in this process */
    cudaStream_t stream;
    /* set by the solve */
    int lo, hi;                    /* the window of p: global columns [lo, hi) */
    int need[PERKS_CGD_MAXRANKS][2]; /* columns [need[q][0], need[q][1]) of rank q's block I read */
    int give[PERKS_CGD_MAXRANKS][2]; /* my columns rank q reads */
    int lanes, blocks, elt;
    void *ws; /* one allocation: window p, r, q, D^-1, partials, state, gather */
    void *w, *r, *q, *dinv;
    double *part, *gath;
    perks__cgd_state *st;
    cudaEvent_t ev;
} perks_cgd_rank;

/* the kernels' arguments (one struct for all five) */
typedef struct perks__cgd_k {
    const int *rp, *ci;
    const void *va, *b;
    void *x, *w, *r, *q, *dinv;
    double *part;
    perks__cgd_state *st;
    int own, lo, off, lanes, it;
    int flag; /* diag: Jacobi; pupd: a (re)start (beta 0, b.b from the sums) */
} perks__cgd_k;

/* ---- device pieces ---------------------------------------------------------------------------- */

/* sum over the nonzeros of row i of va[e] w[ci[e] - lo], by `lanes` lanes of the warp (lane l takes
 * nonzeros l, l + lanes, ...; every lane of the warp calls it, ok = 0 for lanes without a row);
 * accumulated in A (double for the true residual, T otherwise) */
#define PERKS__CGD_ROWSUM(A, a, i, ok, w_, s)                                                                \
    do {                                                                                                  \
        const int l__ = threadIdx.x & ((a).lanes - 1);                                                   \
        s = 0;                                                                                            \
        if (ok)                                                                                           \
            for (long long e__ = (a).rp[i] + l__; e__ < (a).rp[(i) + 1]; e__ += (a).lanes)               \
                s = fma((A)((const perks__cgd_T *)(a).va)[e__], (A)(w_)[(a).ci[e__] - (a).lo], s);      \
        for (int o__ = (a).lanes >> 1; o__; o__ >>= 1) s += __shfl_down_sync(0xffffffffu, s, o__, (a).lanes); \
    } while (0)

/* add v0..v2 over the block (thread 0 gets them) and, through an atomic ticket, over the grid: the
 * last block to finish sums the blocks' partials in block order into st->loc[slot ..] */
static __device__ __forceinline__ void perks__cgd_reduce(double v0, double v1, double v2, int nv, int slot,
                                                         double *part, perks__cgd_state *st)
{
    __shared__ double red[PERKS_CGD_BLOCK / 32][3];
    __shared__ int last;
    for (int o = 16; o; o >>= 1) {
        v0 += __shfl_down_sync(0xffffffffu, v0, o);
        v1 += __shfl_down_sync(0xffffffffu, v1, o);
        v2 += __shfl_down_sync(0xffffffffu, v2, o);
    }
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5][0] = v0, red[threadIdx.x >> 5][1] = v1, red[threadIdx.x >> 5][2] = v2;
    __syncthreads();
    if (threadIdx.x == 0) {
        double s[3] = {0, 0, 0};
        for (int w = 0; w < PERKS_CGD_BLOCK / 32; w++)
            for (int c = 0; c < nv; c++) s[c] += red[w][c];
        for (int c = 0; c < nv; c++) part[c * gridDim.x + blockIdx.x] = s[c];
        __threadfence();
        last = atomicAdd(&st->ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x < nv) { /* one thread per value, blocks in order: fixed bits */
        __threadfence();
        double s = 0;
        for (unsigned g = 0; g < gridDim.x; g++) s += ((volatile double *)part)[threadIdx.x * gridDim.x + g];
        st->loc[slot + threadIdx.x] = s;
        if (threadIdx.x == 0) st->ticket = 0;
    }
}

/* the rows this thread's lane group takes in turn: warp-aligned so that all 32 lanes iterate together */
#define PERKS__CGD_ROWS(a, i, ok)                                                                            \
    for (long long base__ = (blockIdx.x * (long long)blockDim.x + (threadIdx.x & ~31)) / (a).lanes;          \
         i = base__ + (threadIdx.x & 31) / (a).lanes, ok = i < (a).own, base__ < (a).own;                    \
         base__ += (long long)gridDim.x * blockDim.x / (a).lanes)

/* the five kernels of one T (thin: the work is in the pieces above) */
#define PERKS__CGD_KERNELS(name, T)                                                                       \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) name##_diag(perks__cgd_k a) \
    {                                                                                                       \
        typedef T perks__cgd_T;                                                                             \
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.own;                     \
             i += (long long)gridDim.x * blockDim.x) {                                                      \
            T d = 0; /* the sum of the row's entries in column first + i (duplicates add up) */             \
            for (long long e = a.rp[i]; e < a.rp[i + 1]; e++)                                               \
                if (a.ci[e] - a.lo == a.off + i) d += ((const T *)a.va)[e];                                 \
            if (a.flag && (!(d > 0) || !isfinite((double)d))) a.st->loc[4] = 1; /* summed over ranks */   \
            ((T *)a.dinv)[i] = a.flag ? (T)1 / d : (T)1;                                                  \
        }                                                                                                   \
    }                                                                                                       \
    /* r = b - A w (rows in double), partials r.r, r.D^-1 r, b.b */                                         \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) name##_resid(perks__cgd_k a) \
    {                                                                                                       \
        typedef T perks__cgd_T;                                                                             \
        double rr = 0, rz = 0, bb = 0, s;                                                                   \
        long long i;                                                                                        \
        int ok;                                                                                             \
        PERKS__CGD_ROWS(a, i, ok) {                                                                         \
            PERKS__CGD_ROWSUM(double, a, i, ok, (const T *)a.w, s);                                         \
            if (ok && (threadIdx.x & (a.lanes - 1)) == 0) {                                                 \
                const double b = ((const T *)a.b)[i], r = b - s;                                            \
                ((T *)a.r)[i] = (T)r;                                                                       \
                rr += r * r, rz += r * r * ((const T *)a.dinv)[i], bb += b * b;                             \
            }                                                                                               \
        }                                                                                                   \
        perks__cgd_reduce(rr, rz, bb, 3, 1, a.part, a.st);                                                  \
    }                                                                                                       \
    /* q = A p, partial p.q */                                                                              \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) name##_spmv(perks__cgd_k a) \
    {                                                                                                       \
        typedef T perks__cgd_T;                                                                             \
        if (a.st->status) return;                                                                           \
        double pq = 0;                                                                                      \
        T s;                                                                                                \
        long long i;                                                                                        \
        int ok;                                                                                             \
        PERKS__CGD_ROWS(a, i, ok) {                                                                         \
            PERKS__CGD_ROWSUM(T, a, i, ok, (const T *)a.w, s);                                              \
            if (ok && (threadIdx.x & (a.lanes - 1)) == 0) {                                                 \
                ((T *)a.q)[i] = s;                                                                          \
                pq += (double)((const T *)a.w)[a.off + i] * s;                                              \
            }                                                                                               \
        }                                                                                                   \
        perks__cgd_reduce(pq, 0, 0, 1, 0, a.part, a.st);                                                    \
    }                                                                                                       \
    PERKS__CGD_VECTOR_KERNELS(name, T)

/* x += alpha p, r -= alpha q (partials r.r, r.z); then p = D^-1 r + beta p and the stop test */
#define PERKS__CGD_VECTOR_KERNELS(name, T)                                                                \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) name##_update(perks__cgd_k a) \
    {                                                                                                       \
        perks__cgd_state *st = a.st;                                                                        \
        if (st->status) return;                                                                             \
        const double pq = st->glob[0];                                                                      \
        if (!(pq > 0) || !isfinite(pq)) { /* every block sees the same p.q */                               \
            if (blockIdx.x == 0 && threadIdx.x == 0) st->status = PERKS_EBREAKDOWN, st->iters = a.it;       \
            return;                                                                                         \
        }                                                                                                   \
        const T alpha = (T)(st->rzold[a.it & 1] / pq);                                                      \
        double rr = 0, rz = 0;                                                                              \
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.own;                     \
             i += (long long)gridDim.x * blockDim.x) {                                                      \
            ((T *)a.x)[i] = fma(alpha, ((const T *)a.w)[a.off + i], ((T *)a.x)[i]);                        \
            const T r = fma(-alpha, ((const T *)a.q)[i], ((T *)a.r)[i]);                                    \
            ((T *)a.r)[i] = r;                                                                              \
            rr += (double)r * r, rz += (double)r * r * ((const T *)a.dinv)[i];                              \
        }                                                                                                   \
        perks__cgd_reduce(rr, rz, 0, 2, 1, a.part, st);                                                     \
    }                                                                                                       \
    /* a.flag: a (re)start after name_resid: beta 0, and b.b kept */                                        \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) name##_pupd(perks__cgd_k a) \
    {                                                                                                       \
        perks__cgd_state *st = a.st;                                                                        \
        if (st->status) return;                                                                             \
        const double bb = a.flag ? st->glob[3] : st->bb, rz = st->glob[2];                                  \
        const int w0 = blockIdx.x == 0 && threadIdx.x == 0;                                                 \
        if (a.flag && st->glob[4] > 0) { /* Jacobi: a bad diagonal on some rank; every rank stops */        \
            if (w0) st->status = PERKS_EDIAG;                                                               \
            return;                                                                                         \
        }                                                                                                   \
        if (w0) st->rzold[(a.it + 1) & 1] = rz, st->bb = bb;                                                \
        if (st->glob[1] <= st->tol2 * bb) { /* converged (every block decides alike) */                    \
            if (w0) st->status = 1, st->iters = a.it + 1;                                                   \
            return;                                                                                         \
        }                                                                                                   \
        const T beta = a.flag ? (T)0 : (T)(rz / st->rzold[a.it & 1]);                                       \
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.own;                     \
             i += (long long)gridDim.x * blockDim.x) {                                                      \
            T *p = (T *)a.w + a.off + i;                                                                    \
            *p = fma(beta, *p, ((const T *)a.dinv)[i] * ((const T *)a.r)[i]);                               \
        }                                                                                                   \
    }

/* need[2 q], need[2 q + 1]: the least and one past the greatest column of rank q's block that these
 * nonzeros touch (columns of my own block, firsts[me] .. firsts[me + 1] - 1, skipped: no atomics) */
static __global__ void __attribute__((unused)) perks__cgd_cols(const int *ci, long long nnz, const int *firsts, int P,
                                                              int me, int *need)
{
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < nnz; e += (long long)gridDim.x * blockDim.x) {
        const int c = ci[e];
        if (c >= firsts[me] && c < firsts[me + 1]) continue;
        int lo = 0, hi = P; /* the owner: firsts[q] <= c < firsts[q + 1] */
        while (hi - lo > 1) {
            const int m = (lo + hi) >> 1;
            if (firsts[m] <= c) lo = m; else hi = m;
        }
        atomicMin(&need[2 * lo], c);
        atomicMax(&need[2 * lo + 1], c + 1);
    }
}

/* virtual all-reduce: out[c] = sum over ranks of g[q * 5 + c], ranks in order */
static __global__ void __attribute__((unused)) perks__cgd_vsum(const double *g, int P, int slot, int cnt, double *out)
{
    if (threadIdx.x < (unsigned)cnt) {
        double s = 0;
        for (int q = 0; q < P; q++) s += g[q * 5 + slot + threadIdx.x];
        out[slot + threadIdx.x] = s;
    }
}

/* ---- host: one copy for every T ----------------------------------------------------------------- */

typedef struct perks__cgd_kset {
    const void *diag, *resid, *spmv, *update, *pupd;
    int elt;
} perks__cgd_kset;

#define PERKS__CGD_CK(call) \
    do { if ((call) != cudaSuccess) return PERKS_ECUDA; } while (0)
#ifdef PERKS_CGD_NCCL
#define PERKS__CGD_NK(call) \
    do { if ((call) != ncclSuccess) return PERKS_ECOMM; } while (0)
#endif

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

/* every rank's st->glob[slot .. slot+cnt) = the sum over ranks of st->loc[slot ..] */
static inline int perks__cgd_allreduce(perks_cgd_rank *rk, int nlocal, int slot, int cnt)
{
    if (perks__cgd_virtual(rk, nlocal)) {
        perks_cgd_rank *z = &rk[0];
        for (int q = 0; q < nlocal; q++) {
            PERKS__CGD_CK(cudaSetDevice(rk[q].device));
            PERKS__CGD_CK(cudaEventRecord(rk[q].ev, rk[q].stream));
            PERKS__CGD_CK(cudaSetDevice(z->device));
            PERKS__CGD_CK(cudaStreamWaitEvent(z->stream, rk[q].ev, 0));
            PERKS__CGD_CK(cudaMemcpyAsync(z->gath + 5 * q, rk[q].st->loc, 5 * sizeof(double), cudaMemcpyDefault, z->stream));
        }
        perks__cgd_vsum<<<1, 32, 0, z->stream>>>(z->gath, nlocal, slot, cnt, z->st->glob);
        PERKS__CGD_CK(cudaGetLastError());
        PERKS__CGD_CK(cudaEventRecord(z->ev, z->stream));
        for (int q = 1; q < nlocal; q++) {
            PERKS__CGD_CK(cudaSetDevice(rk[q].device));
            PERKS__CGD_CK(cudaStreamWaitEvent(rk[q].stream, z->ev, 0));
            PERKS__CGD_CK(cudaMemcpyAsync(rk[q].st->glob + slot, z->st->glob + slot, cnt * sizeof(double),
                                          cudaMemcpyDefault, rk[q].stream));
        }
        return 0;
    }
#ifdef PERKS_CGD_NCCL
    PERKS__CGD_NK(ncclGroupStart());
    for (int i = 0; i < nlocal; i++)
        if (ncclAllReduce(rk[i].st->loc + slot, rk[i].st->glob + slot, cnt, ncclDouble, ncclSum, (ncclComm_t)rk[i].comm,
                          rk[i].stream) != ncclSuccess) {
            ncclGroupEnd();
            return PERKS_ECOMM;
        }
    PERKS__CGD_NK(ncclGroupEnd());
    return 0;
#else
    return PERKS_EUNSUPPORTED;
#endif
}

/* the window vectors' halo: every rank's w gets, from each rank q, the columns of q's block it reads */
static inline int perks__cgd_exchange(perks_cgd_rank *rk, int nlocal)
{
    const int P = rk[0].nranks;
    if (perks__cgd_virtual(rk, nlocal)) {
        for (int q = 0; q < P; q++) {
            PERKS__CGD_CK(cudaSetDevice(rk[q].device));
            PERKS__CGD_CK(cudaEventRecord(rk[q].ev, rk[q].stream));
        }
        for (int r = 0; r < P; r++) {
            PERKS__CGD_CK(cudaSetDevice(rk[r].device));
            for (int q = 0; q < P; q++) {
                const int c0 = rk[r].need[q][0], c1 = rk[r].need[q][1];
                if (c0 >= c1) continue;
                PERKS__CGD_CK(cudaStreamWaitEvent(rk[r].stream, rk[q].ev, 0));
                PERKS__CGD_CK(cudaMemcpyAsync((char *)rk[r].w + (size_t)(c0 - rk[r].lo) * rk[r].elt,
                                              (const char *)rk[q].w + (size_t)(c0 - rk[q].lo) * rk[q].elt,
                                              (size_t)(c1 - c0) * rk[r].elt, cudaMemcpyDefault, rk[r].stream));
            }
        }
        return 0;
    }
#ifdef PERKS_CGD_NCCL
    const ncclDataType_t ty = rk[0].elt == 8 ? ncclDouble : ncclFloat;
    PERKS__CGD_NK(ncclGroupStart());
    for (int i = 0; i < nlocal; i++) {
        perks_cgd_rank *k = &rk[i];
        for (int q = 0; q < P; q++) {
            int bad = 0;
            if (k->give[q][0] < k->give[q][1])
                bad |= ncclSend((const char *)k->w + (size_t)(k->give[q][0] - k->lo) * k->elt,
                                (size_t)(k->give[q][1] - k->give[q][0]), ty, q, (ncclComm_t)k->comm, k->stream) != ncclSuccess;
            if (k->need[q][0] < k->need[q][1])
                bad |= ncclRecv((char *)k->w + (size_t)(k->need[q][0] - k->lo) * k->elt,
                                (size_t)(k->need[q][1] - k->need[q][0]), ty, q, (ncclComm_t)k->comm, k->stream) != ncclSuccess;
            if (bad) {
                ncclGroupEnd();
                return PERKS_ECOMM;
            }
        }
    }
    PERKS__CGD_NK(ncclGroupEnd());
    return 0;
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
                PERKS__CGD_CK(cudaMemcpy(all[r] + q * cnt, mine[q], cnt * sizeof(int), cudaMemcpyDefault));
        return 0;
    }
#ifdef PERKS_CGD_NCCL
    PERKS__CGD_NK(ncclGroupStart());
    for (int i = 0; i < nlocal; i++)
        if (ncclAllGather(mine[i], all[i], cnt, ncclInt32, (ncclComm_t)rk[i].comm, rk[i].stream) != ncclSuccess) {
            ncclGroupEnd();
            return PERKS_ECOMM;
        }
    PERKS__CGD_NK(ncclGroupEnd());
    for (int i = 0; i < nlocal; i++) {
        PERKS__CGD_CK(cudaSetDevice(rk[i].device));
        PERKS__CGD_CK(cudaStreamSynchronize(rk[i].stream));
    }
    return 0;
#else
    return PERKS_EUNSUPPORTED;
#endif
}

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
        (o->lanes & (o->lanes - 1)))
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
#endif
    return nlocal;
}

static inline size_t perks__cgd_al(size_t x) { return (x + 255) & ~(size_t)255; }

#define PERKS__CGD_NV 5 /* sums: p.q, r.r, r.z, b.b, bad diagonals */

/* the workspace of one rank (its window known) */
static inline int perks__cgd_alloc(perks_cgd_rank *k, int elt, double tol)
{
    int sms = 0;
    k->elt = elt;
    if (cudaSetDevice(k->device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, k->device) != cudaSuccess) return PERKS_ECUDA;
    k->blocks = sms * (2048 / PERKS_CGD_BLOCK);
    const size_t vb = perks__cgd_al((size_t)k->own * elt), wb = perks__cgd_al((size_t)(k->hi - k->lo) * elt);
    const size_t pb = perks__cgd_al(3 * sizeof(double) * k->blocks), sb = perks__cgd_al(sizeof(perks__cgd_state));
    const size_t gb = perks__cgd_al(PERKS__CGD_NV * sizeof(double) * k->nranks);
    if (cudaMalloc(&k->ws, wb + 3 * vb + pb + sb + gb) != cudaSuccess) { k->ws = NULL; return PERKS_ENOMEM; }
    char *c = (char *)k->ws;
    k->w = c, c += wb;
    k->r = c, c += vb;
    k->q = c, c += vb;
    k->dinv = c, c += vb;
    k->part = (double *)c, c += pb;
    k->st = (perks__cgd_state *)c, c += sb;
    k->gath = (double *)c;
    perks__cgd_state s;
    memset(&s, 0, sizeof s);
    s.tol2 = tol * tol;
    if (cudaMemcpyAsync(k->st, &s, sizeof s, cudaMemcpyHostToDevice, k->stream) != cudaSuccess ||
        cudaStreamSynchronize(k->stream) != cudaSuccess ||
        cudaEventCreateWithFlags(&k->ev, cudaEventDisableTiming) != cudaSuccess) return PERKS_ECUDA;
    return 0;
}

/* a copy on the rank's stream, waited for (ordered with the caller's work on that stream) */
static inline int perks__cgd_copy(const perks_cgd_rank *k, void *to, const void *from, size_t bytes)
{
    return cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, k->stream) == cudaSuccess &&
                   cudaStreamSynchronize(k->stream) == cudaSuccess ? 0 : PERKS_ECUDA;
}

/* The setup, in two all-gathers so that every rank takes the same decision (no rank waits for a
 * peer that gave up):
 *   1. each rank's n, first, own, T, nranks and its own argument check; any problem on any rank:
 *      every rank returns the largest code (PERKS_ESIZE for blocks that do not tile 0 .. n-1 in
 *      rank order, or disagreeing n, T or rank counts);
 *   2. each rank finds the columns of every other rank's block its rows touch (one kernel),
 *      allocates its workspace for that window, and gathers the table and its allocation's code:
 *      every rank learns what to send, or every rank returns the failure. */
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
        init[2 * P] = perks__cgd_alloc(k, elt, o->tol); /* a rank that cannot allocate tells the others */
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
        rk[i].ws = NULL, rk[i].ev = NULL;
    }
}

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
        PERKS__CGD_CK(cudaSetDevice(rk[i].device));
        PERKS__CGD_CK(cudaStreamSynchronize(rk[i].stream));
    }
    PERKS__CGD_CK(cudaSetDevice(rk[0].device));
    PERKS__CGD_CK(cudaMemcpy(s, rk[0].st, sizeof *s, cudaMemcpyDeviceToHost));
    return 0;
}

static inline int perks__cgd_solve(perks_cgd_rank *rk, int nlocal, const perks_cgd_opts *o, perks_cgd_result *res,
                                   const perks__cgd_kset *ks)
{
    perks__cgd_state s;
    int rc = perks__cgd_check_process(rk, nlocal, o), it = 0, aborted = 0;
    if (res) memset(res, 0, sizeof *res), res->true_residual = res->rel_residual = NAN;
    if (rc) return rc;
    if (!res) return PERKS_ENULL;
    for (int i = 0; i < nlocal; i++) rk[i].ws = NULL, rk[i].ev = NULL;
    rc = perks__cgd_setup(rk, nlocal, ks->elt, o);
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
#ifdef PERKS_CGD_NCCL
    if ((rc == PERKS_ECOMM || rc == PERKS_ETIMEOUT) && !perks__cgd_virtual(rk, nlocal)) {
        /* a failed NCCL call or wait: this process's communicators are aborted (the peers then end
         * with PERKS_ECOMM or PERKS_ETIMEOUT); the workspace stays allocated (freeing it could wait
         * on a stuck stream) */
        for (int i = 0; i < nlocal && !aborted; i++) ncclCommAbort((ncclComm_t)rk[i].comm);
        for (int i = 0; i < nlocal; i++) rk[i].ws = NULL;
    }
#endif
    perks__cgd_release(rk, nlocal);
    return rc;
}

/* name_solve and its kernels, for T float or double */
#define PERKS_CGD_DEFINE(name, T)                                                                          \
    PERKS__CGD_KERNELS(name, T)                                                                            \
    static inline __attribute__((unused)) int name##_solve(perks_cgd_rank *rk, int nlocal, const perks_cgd_opts *o, \
                                                           perks_cgd_result *res)                         \
    {                                                                                                      \
        static_assert((T)0.5 != 0 && (sizeof(T) == 4 || sizeof(T) == 8),                                   \
                      "PERKS_CGD_DEFINE: T must be float or double");                                      \
        const perks__cgd_kset ks = {(const void *)name##_diag, (const void *)name##_resid,                 \
                                    (const void *)name##_spmv, (const void *)name##_update,                \
                                    (const void *)name##_pupd, (int)sizeof(T)};                            \
        return perks__cgd_solve(rk, nlocal, o, res, &ks);                                                  \
    }

#endif /* PERKS_CG_DIST_CUH */
