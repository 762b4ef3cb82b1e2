/* perks/cg.cuh -- conjugate gradient in one persistent cooperative kernel (CSR, fp64 or fp32).
 *
 * WHAT (PERKS paper, Zhang et al. ICS'23, sections 3-4: the time loop moved into the kernel, the
 * data that every iteration re-reads kept on chip; CG is the paper's Krylov example)
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines
 *       __global__ void name_kernel(perks_cg_kargs)     every CG iteration, in one launch
 *       int name_plan(perks_cg_plan *, n, nnz, d_row_ptr, d_col, d_val, const perks_cg_opts *)
 *       int name_solve(n, nnz, d_row_ptr, d_col, d_val, d_b, d_x, opts, perks_cg_result *, stream)
 *   and these type-free functions work on any plan:
 *       int perks_cg_run(perks_cg_plan *, const void *d_b, void *d_x, cudaStream_t)   (asynchronous)
 *       int perks_cg_wait(perks_cg_plan *, perks_cg_result *)     waits, returns the solve's status
 *       void perks_cg_plan_free(perks_cg_plan *)
 *   The solve: A x = b with A symmetric positive definite in CSR (32-bit indices, device memory),
 *   classic (Hestenes-Stiefel) preconditioned CG with an optional Jacobi preconditioner
 *   M = diag(A), stopping when ||r_k|| <= tol ||b|| (the recurrence residual, as every CG does)
 *   or after max_iter iterations.  Vectors and the matrix are T; dot products are accumulated in
 *   double for both T.
 *
 * EXAMPLE
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cg64, double, 256)
 *   perks_cg_opts o = perks_cg_defaults();      // tol 1e-8, max_iter 10000, Jacobi off, cache on
 *   perks_cg_result res;
 *   int rc = cg64_solve(n, nnz, d_rp, d_ci, d_va, d_b, d_x, &o, &res, 0);
 *   if (rc) fprintf(stderr, "%s after %d iterations\n", perks_strerror(rc), res.iterations);
 *   // repeated solves with one matrix: cg64_plan once, then perks_cg_run + perks_cg_wait
 *
 * THE KERNEL: 2 grid barriers per iteration, classic CG arithmetic
 *   Block b owns the rows [split[b], split[b+1]), split so that rows + nonzeros are even across
 *   blocks (a merge-path split of the CSR at block level: irregular matrices stay balanced).
 *   Inside a block, a row is handled by W lanes (W = 1..32, the least power of two giving at most
 *   PERKS_CG_NNZ_PER_LANE = 4 nonzeros per lane on average, 8 when nothing is cached: a warp per
 *   row for long rows, a lane per row for short ones).  Each lane loads PERKS_CG_UNROLL = 8 of its
 *   row's column indices and values at once (predicated), then gathers all 8, then sums them in
 *   k order: one memory latency per 8 nonzeros instead of one per nonzero.  When the matrix is in
 *   shared memory (cached = 2) a plain one-nonzero-at-a-time loop is used instead (same sums in
 *   the same order, so the same bits; faster there).  One iteration:
 *     phase A   q_i = sum_j a_ij (z_j + beta p_j),  p'_i = z_i + beta p_i,  partial p'.q
 *               -- the update p = z + beta p is evaluated inside the SpMV gather, so it needs no
 *               barrier of its own; the new p goes to the other buffer of a ping-pong pair
 *     barrier 1 every block sums the G partials in the same order: p.q, alpha = rz / p.q
 *     phase B   x += alpha p, r -= alpha q, z = D^-1 r (Jacobi) or z = r, partials r.r and r.z
 *     barrier 2 rr, rz, beta = rz_new / rz; stop when rr <= tol^2 b.b
 *   The formulas are those of textbook CG (no pipelined or merged recurrences), so iteration counts
 *   follow a CPU CG in double up to rounding (the sums run in another order).  The paper's CG uses
 *   5 barriers.  Dot products are deterministic: each block writes its partial, every block adds
 *   the G partials in the same order, so all blocks take the same decisions and reruns give the
 *   same bits.  The barrier is cooperative_groups grid.sync; opts.sum_barrier = 1 uses
 *   perks/barrier.cuh instead (the last block to arrive sums, the others read the totals: same
 *   bits; measured 2-3 us per iteration slower on the H200, so not the default).
 *   On-chip cache (PERKS section 4.1.3-4.1.4): when they fit in the shared memory left per block,
 *   each block keeps its rows of x, r, q, p (and D^-1) in shared memory (cached = 1), and also its
 *   slice of the matrix: values, column indices and row pointers (cached = 2); otherwise they stay in device
 *   memory (cached = 0; opts.cache = 0 forces this).  p and z are read by other blocks through the
 *   SpMV gather, so they live in device memory (L2) in every mode; r is written through.
 *   Breakdown: p.q <= 0 (or not a number) stops with PERKS_EBREAKDOWN, as does a non-positive
 *   diagonal with Jacobi; both mean A is not SPD.
 *
 * PARAMETERS AND LIMITS
 *   T float or double; BLOCK a multiple of 32, 64..1024 (256 is a good default).  n >= 1,
 *   0 <= nnz < 2^31, square A.  opts: tol >= 0, max_iter >= 0, blocks (0: the planner chooses about
 *   one block per PERKS_CG_WORK_PER_BLOCK = 512 rows + nonzeros, at most the co-resident count, and
 *   at most PERKS_CG_ONCHIP_BPS = 2 per SM when the whole system then fits in shared memory),
 *   x0 (1: start from the x given, 0: from zero), sum_barrier (above).  The result: status (0, PERKS_ENOCONV, PERKS_EBREAKDOWN), iterations,
 *   rel_residual = sqrt(r.r / b.b) of the recurrence (b = 0 gives sqrt(r.r)).
 *   Host errors before any launch: PERKS_ENULL, PERKS_ESIZE (sizes, tol, max_iter, BLOCK),
 *   PERKS_ENOCOOP, PERKS_ERESOURCE, PERKS_ECORESIDENT, PERKS_ECUDA (allocation, copies).
 *   The plan copies row_ptr to the host once (for the split) and allocates 6 n T + 5 G + 8 doubles
 *   of workspace; d_val etc. must stay valid while the plan is used.  Not reentrant: one
 *   perks_cg_run at a time per plan.  A solve of k iterations is one launch (no host round trips).
 *   Costs per iteration: 2 grid barriers, one pass over the matrix (from shared memory when
 *   cached = 2), two gathered vectors (z, p) and about 8 more vector accesses per row.  Registers:
 *   built for PERKS_CG_THREADS_PER_SM = 1024 threads per SM (__launch_bounds__(BLOCK, 1024 / BLOCK):
 *   at most 64 registers, no spills; define it to 512 before PERKS_CG_DEFINE for the ~100-register
 *   build).  Measured on the H200 (bench/cg, docs/perks-cg.md): 6.2-16.5 us per iteration for
 *   systems that fit on chip (2-3x the cuSPARSE loop in a CUDA graph); 1.15-1.35x the graph at
 *   128^3 and 1024^2, on par at 256^3 (2.2x the bandwidth floor there).
 *   Registers are not used as a cache (the paper also caches in registers): a row count per
 *   thread fixed at compile time would be needed; shared memory already holds every system whose
 *   CSR fits on chip.
 */
#ifndef PERKS_CG_CUH
#define PERKS_CG_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "grid.cuh"
#include "barrier.cuh"

#define PERKS_CG_WORK_PER_BLOCK 512 /* rows + nonzeros per block the planner aims at */
/* blocks per SM the register budget is set for: 1024 threads per SM (at most 64 registers a thread) */
#ifndef PERKS_CG_THREADS_PER_SM
#define PERKS_CG_THREADS_PER_SM 1024 /* read when PERKS_CG_DEFINE expands: 1024 -> at most 64 registers */
#endif
#define PERKS__CG_MINB(BLOCK) ((PERKS_CG_THREADS_PER_SM / (BLOCK)) > 0 ? PERKS_CG_THREADS_PER_SM / (BLOCK) : 1)
#ifndef PERKS_CG_UNROLL
#define PERKS_CG_UNROLL 8 /* nonzeros a lane loads before it gathers (independent loads in flight) */
#endif
#define PERKS_CG_ONCHIP_BPS 2 /* blocks per SM at most when the system fits in shared memory */
#define PERKS_CG_NNZ_PER_LANE 4      /* lanes per row: the least power of two giving <= 4 nonzeros each */
#define PERKS_CG_NNZ_PER_LANE_DRAM 8 /* the same when nothing is cached (more rows in flight) */

typedef struct perks_cg_opts {
    double tol;   /* stop when ||r|| <= tol ||b|| */
    int max_iter; /* PERKS_ENOCONV after this many iterations */
    int jacobi;   /* 1: Jacobi (diagonal) preconditioner */
    int cache;    /* 1: keep vectors / matrix in shared memory when they fit; 0: never */
    int blocks;   /* 0: planner; else this many blocks (at most the co-resident count) */
    int x0;       /* 1: start from the x passed in; 0: from x = 0 (x is overwritten) */
    int sum_barrier; /* 0: cooperative_groups grid.sync, then every block sums the partials;
                        1: perks_sum_barrier (barrier.cuh), the last block to arrive sums (same bits,
                        measured slower on the H200: kept as an option) */
} perks_cg_opts;

static inline perks_cg_opts perks_cg_defaults(void)
{
    perks_cg_opts o;
    o.tol = 1e-8;
    o.max_iter = 10000;
    o.jacobi = 0;
    o.cache = 1;
    o.blocks = 0;
    o.x0 = 0;
    o.sum_barrier = 0;
    return o;
}

typedef struct perks_cg_result {
    int status;          /* PERKS_SUCCESS, PERKS_ENOCONV or PERKS_EBREAKDOWN */
    int iterations;      /* iterations done (the one that broke down not counted) */
    double rel_residual; /* sqrt(r.r / b.b) of the recurrence residual at the end */
    double bnorm;        /* ||b|| */
} perks_cg_result;

typedef struct perks__cg_out {
    int status, iterations;
    double rr, bb;
} perks__cg_out;

typedef struct perks_cg_kargs {
    int n, sub, cache, jacobi, use_x0, max_iter, sum_barrier;
    double tol;
    double *bar; /* perks_sum_barrier workspace (PERKS_SUM_BARRIER_WORDS), zeroed by perks_cg_run */
    const int *rp, *ci, *split;
    const void *va, *b;
    void *x, *r, *z, *p0, *p1, *q, *dinv;
    double *part; /* 5 x G block partials */
    perks__cg_out *out;
} perks_cg_kargs;

typedef struct perks_cg_plan {
    int n, blocks, block, sub, cached, elt;
    long long nnz;
    size_t smem;
    perks_cg_opts opts;
    const void *kernel;
    void *ws; /* one allocation: vectors, partials, out, split */
    perks_cg_kargs args;
} perks_cg_plan;

/* ---- device pieces -------------------------------------------------------------------------- */

/* sum up to 3 doubles over the block; thread 0 writes them to part[slot + c][blockIdx.x] */
static __device__ __forceinline__ void perks__cg_block_sum(double v0, double v1, double v2, int nv,
                                                           double (*red)[3], double *part, int slot, int G)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1) {
        v0 += __shfl_xor_sync(0xffffffffu, v0, o);
        v1 += __shfl_xor_sync(0xffffffffu, v1, o);
        v2 += __shfl_xor_sync(0xffffffffu, v2, o);
    }
    if (lane == 0) {
        red[warp][0] = v0;
        red[warp][1] = v1;
        red[warp][2] = v2;
    }
    __syncthreads();
    if (warp == 0) {
        const int nw = blockDim.x >> 5;
        double s0 = lane < nw ? red[lane][0] : 0, s1 = lane < nw ? red[lane][1] : 0, s2 = lane < nw ? red[lane][2] : 0;
        for (int o = 16; o > 0; o >>= 1) {
            s0 += __shfl_xor_sync(0xffffffffu, s0, o);
            s1 += __shfl_xor_sync(0xffffffffu, s1, o);
            s2 += __shfl_xor_sync(0xffffffffu, s2, o);
        }
        if (lane == 0) {
            part[slot * G + blockIdx.x] = s0;
            if (nv > 1) part[(slot + 1) * G + blockIdx.x] = s1;
            if (nv > 2) part[(slot + 2) * G + blockIdx.x] = s2;
        }
    }
}

/* after the grid barrier: the totals of part[slot .. slot+nv-1][0..G-1], the same bits in every
 * block (fixed order), into tot[0..nv-1] for the whole block */
static __device__ __forceinline__ void perks__cg_grid_total(const double *part, int slot, int nv, int G,
                                                            double *tot)
{
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        for (int c = 0; c < nv; ++c) {
            double s = 0;
            _Pragma("unroll 4") for (int j = lane; j < G; j += 32) s += __ldcg(part + (slot + c) * G + j);
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            if (lane == 0) tot[c] = s;
        }
    }
    __syncthreads();
}

/* SpMV row loop: W lanes per row; all threads of the block run `rounds` times (shuffles stay
 * converged).  GATHER is the vector element j (an expression in j); ROWDONE(lr, i, s, d) runs on the row's first
 * lane with the row sum s and the diagonal d (sum of a_ii, 0 if absent). */
#define PERKS__CG_SPMV(T, GATHER, ROWDONE)                                                            \
    for (int rd = 0; rd < rounds; ++rd) {                                                            \
        const int lr = rd * S + sw, i = r0 + lr;                                                     \
        T s = 0, d = 0;                                                                              \
        if (lr < nr) {                                                                               \
            const int kb = RP[lr], ke = RP[lr + 1];                                                  \
            if (a.cache >= 2) {                                                                      \
                /* matrix in shared memory: one nonzero at a time (the batched chunk below costs    \
                 * more than it hides at shared-memory latency); same products, same k order.       \
                 * unroll 2, not 4: with 4, ptxas (CUDA 13.0, sm_90) interleaves the batched loop's  \
                 * gathers with its column loads, serializing the streamed path */                   \
                _Pragma("unroll 2") for (int k = kb + sl; k < ke; k += W) {                          \
                    const int j = CI[k - k0];                                                        \
                    const T v = VA[k - k0];                                                          \
                    s += v * (T)(GATHER);                                                            \
                    if (j == i) d += v;                                                              \
                }                                                                                    \
            } else {                                                                                 \
                _Pragma("unroll 1") for (int kk = kb + sl; kk < ke; kk += PERKS_CG_UNROLL * W) {     \
                    /* all column and value loads of the chunk first, then all gathers: one memory  \
                     * latency for the chunk instead of one per nonzero; the sum keeps the k order */ \
                    int jj[PERKS_CG_UNROLL];                                                         \
                    T vv[PERKS_CG_UNROLL], gg[PERKS_CG_UNROLL];                                      \
                    _Pragma("unroll") for (int u = 0; u < PERKS_CG_UNROLL; ++u) {                    \
                        const int k = kk + u * W;                                                    \
                        jj[u] = k < ke ? CI[k - k0] : -1;                                            \
                        vv[u] = k < ke ? VA[k - k0] : (T)0;                                          \
                    }                                                                                \
                    _Pragma("unroll") for (int u = 0; u < PERKS_CG_UNROLL; ++u) {                    \
                        const int j = jj[u];                                                         \
                        gg[u] = j >= 0 ? (T)(GATHER) : (T)0;                                         \
                    }                                                                                \
                    _Pragma("unroll") for (int u = 0; u < PERKS_CG_UNROLL; ++u) {                    \
                        if (jj[u] >= 0) s += vv[u] * gg[u];                                          \
                        if (jj[u] == i) d += vv[u];                                                  \
                    }                                                                                \
                }                                                                                    \
            }                                                                                        \
        }                                                                                            \
        for (int o = W >> 1; o > 0; o >>= 1) {                                                       \
            s += __shfl_xor_sync(0xffffffffu, s, o, W);                                              \
            d += __shfl_xor_sync(0xffffffffu, d, o, W);                                              \
        }                                                                                            \
        if (lr < nr && sl == 0) { ROWDONE(lr, i, s, d); }                                            \
    }

/* the ROWDONE bodies, expanded inside the kernel (they use its locals; perks__cg_T is T) */
#define PERKS__CG_ROW_PRO(lr, i, s, d)                                                                \
    sr[lr] = B[i] - (s);                                                                             \
    if (a.jacobi) sd[lr] = (perks__cg_T)1 / (d);                                                     \
    if (a.cache >= 1 || !a.use_x0) sx[lr] = a.use_x0 ? gX[lr] : (perks__cg_T)0;
#define PERKS__CG_ROW_A(lr, i, s, d)                                                                  \
    {                                                                                                \
        const perks__cg_T zi = a.cache >= 1 ? (a.jacobi ? sd[lr] * sr[lr] : sr[lr]) : __ldcg(Z + (i)); \
        const perks__cg_T pn = fma(beta, a.cache >= 1 ? sp[lr] : __ldcg(Pold + (i)), zi);            \
        Pnew[i] = pn;                                                                                \
        if (a.cache >= 1) sp[lr] = pn;                                                               \
        sq[lr] = (s);                                                                                \
        ppq += (double)pn * (s);                                                                     \
    }

/* the grid barrier that publishes the totals of part[slot .. slot+nv-1] into tot (kernel locals) */
#define PERKS__CG_SYNC_TOTAL(slot, nv)                                                                \
    if (!a.sum_barrier) {                                                                            \
        PERKS_GRID_SYNC();                                                                           \
        perks__cg_grid_total(a.part, (slot), (nv), G, tot);                                          \
    } else {                                                                                         \
        perks_sum_barrier(a.bar, a.part, (slot), (nv), G, tot);                                      \
    }

/* PERKS_CG_DEFINE(name, T, BLOCK): the kernel name_kernel and the typed name_plan / name_solve */
#define PERKS_CG_DEFINE(name, T, BLOCK)                                                                \
    __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name##_kernel(perks_cg_kargs a)                           \
    {                                                                                                  \
        typedef T perks__cg_T;                                                                         \
        extern __shared__ double perks__cg_dyn[];                                                      \
        __shared__ double red[(BLOCK) / 32][3];                                                        \
        __shared__ double tot[4];                                                                      \
        const int G = gridDim.x, W = a.sub, S = (BLOCK) / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1); \
        const int r0 = a.split[blockIdx.x], r1 = a.split[blockIdx.x + 1], nr = r1 - r0;                \
        const int k0 = __ldg(a.rp + r0), k1 = __ldg(a.rp + r1);                                        \
        const int rounds = (nr + S - 1) / S;                                                           \
        T *gX = (T *)a.x + r0, *gR = (T *)a.r + r0, *gQ = (T *)a.q + r0, *gD = (T *)a.dinv + r0;       \
        T *sx = gX, *sr = gR, *sq = gQ, *sd = gD, *sp = NULL;                                          \
        const int *RP = a.rp + r0;                                                                     \
        const T *VA = (const T *)a.va + k0;                                                            \
        const int *CI = a.ci + k0;                                                                     \
        const T *B = (const T *)a.b;                                                                   \
        const T *Z = (const T *)(a.jacobi ? a.z : a.r);                                                \
        T *Pold = (T *)a.p0, *Pnew = (T *)a.p1;                                                        \
        if (a.cache >= 1) {                                                                            \
            sx = (T *)perks__cg_dyn;                                                                   \
            sr = sx + nr;                                                                              \
            sq = sr + nr;                                                                              \
            sp = sq + nr;                                                                              \
            sd = sp + nr;                                                                              \
        }                                                                                              \
        if (a.cache >= 2) {                                                                            \
            T *sv = sd + (a.jacobi ? nr : 0);                                                          \
            int *sc = (int *)(sv + (k1 - k0)), *srp = sc + (k1 - k0);                                  \
            for (int k = threadIdx.x; k < k1 - k0; k += (BLOCK)) {                                     \
                sv[k] = VA[k];                                                                         \
                sc[k] = __ldg(CI + k);                                                                 \
            }                                                                                          \
            for (int k = threadIdx.x; k <= nr; k += (BLOCK)) srp[k] = __ldg(RP + k);                   \
            VA = sv;                                                                                   \
            CI = sc;                                                                                   \
            RP = srp;                                                                                  \
            __syncthreads();                                                                           \
        }                                                                                              \
        /* prologue: r = b - A x0, the diagonal, z, p_old = 0; partials r.r, r.z, b.b, bad */         \
        double prr = 0, prz = 0, pbb = 0, pbad = 0;                                                    \
        _Pragma("unroll 1") PERKS__CG_SPMV(T, a.use_x0 ? __ldcg((const T *)a.x + (j)) : (T)0, PERKS__CG_ROW_PRO) \
        __syncthreads();                                                                               \
        for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) {                                           \
            const int i = r0 + lr;                                                                     \
            const T rv = sr[lr], zv = a.jacobi ? sd[lr] * rv : rv, bv = B[i];                          \
            if (a.jacobi) ((T *)a.z)[i] = zv;                                                          \
            if (a.cache >= 1) gR[lr] = rv;                                                             \
            Pold[i] = 0;                                                                               \
            if (a.cache >= 1) sp[lr] = 0;                                                              \
            prr += (double)rv * rv;                                                                    \
            prz += (double)rv * zv;                                                                    \
            pbb += (double)bv * bv;                                                                    \
        }                                                                                              \
        for (int lr = threadIdx.x; lr < nr; lr += (BLOCK))                                             \
            if (a.jacobi && !(sd[lr] > 0 && isfinite(sd[lr]))) pbad += 1;                             \
        perks__cg_block_sum(prr, prz, pbb, 3, red, a.part, 1, G);                                      \
        __syncthreads();                                                                               \
        perks__cg_block_sum(pbad, 0, 0, 1, red, a.part, 4, G);                                         \
        PERKS__CG_SYNC_TOTAL(1, 4);                                                                    \
        double rr = tot[0], rz = tot[1];                                                               \
        const double bb = tot[2], thr = a.tol * a.tol * bb;                                            \
        int status = tot[3] > 0 ? PERKS_EBREAKDOWN : PERKS_SUCCESS, it = 0;                            \
        T beta = 0;                                                                                    \
        _Pragma("unroll 1") while (status == PERKS_SUCCESS) {                                          \
            if (rr <= thr) break;                                                                      \
            if (it >= a.max_iter) {                                                                    \
                status = PERKS_ENOCONV;                                                                \
                break;                                                                                 \
            }                                                                                          \
            /* phase A: q = A (z + beta p_old), p_new = z + beta p_old, partial p.q */                 \
            double ppq = 0;                                                                            \
            _Pragma("unroll 1") PERKS__CG_SPMV(T, fma(beta, __ldcg(Pold + (j)), __ldcg(Z + (j))), PERKS__CG_ROW_A) \
            __syncthreads();                                                                           \
            perks__cg_block_sum(ppq, 0, 0, 1, red, a.part, 0, G);                                      \
            PERKS__CG_SYNC_TOTAL(0, 1);                                                                \
            const double pq = tot[0];                                                                  \
            if (!(pq > 0)) {                                                                           \
                status = PERKS_EBREAKDOWN;                                                             \
                break;                                                                                 \
            }                                                                                          \
            const T alpha = (T)(rz / pq);                                                              \
            /* phase B: x += alpha p, r -= alpha q, z = D^-1 r; partials r.r, r.z */                   \
            double qrr = 0, qrz = 0;                                                                   \
            _Pragma("unroll 4") for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) {                   \
                const int i = r0 + lr;                                                                 \
                const T pv = a.cache >= 1 ? sp[lr] : __ldcg(Pnew + i);                                 \
                sx[lr] += alpha * pv;                                                                  \
                const T rv = sr[lr] - alpha * sq[lr];                                                  \
                sr[lr] = rv;                                                                           \
                if (a.cache >= 1) gR[lr] = rv;                                                         \
                T zv = rv;                                                                             \
                if (a.jacobi) {                                                                        \
                    zv = sd[lr] * rv;                                                                  \
                    ((T *)a.z)[i] = zv;                                                                \
                }                                                                                      \
                qrr += (double)rv * rv;                                                                \
                qrz += (double)rv * zv;                                                                \
            }                                                                                          \
            perks__cg_block_sum(qrr, qrz, 0, 2, red, a.part, 1, G);                                    \
            PERKS__CG_SYNC_TOTAL(1, 2);                                                                \
            rr = tot[0];                                                                               \
            beta = (T)(tot[1] / rz);                                                                   \
            rz = tot[1];                                                                               \
            ++it;                                                                                      \
            PERKS_SWAP(T, Pold, Pnew);                                                                 \
        }                                                                                              \
        if (a.cache >= 1)                                                                              \
            for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) gX[lr] = sx[lr];                        \
        if (blockIdx.x == 0 && threadIdx.x == 0) {                                                     \
            a.out->status = status;                                                                    \
            a.out->iterations = it;                                                                    \
            a.out->rr = rr;                                                                            \
            a.out->bb = bb;                                                                            \
        }                                                                                              \
    }                                                                                                  \
    static inline __attribute__((unused)) int name##_plan(perks_cg_plan *p, int n, long long nnz, const int *d_row_ptr,        \
                                  const int *d_col, const T *d_val, const perks_cg_opts *o)            \
    {                                                                                                  \
        return perks__cg_plan_make(p, (const void *)name##_kernel, (int)sizeof(T), (BLOCK), n, nnz,    \
                                   d_row_ptr, d_col, d_val, o);                                        \
    }                                                                                                  \
    static inline __attribute__((unused)) int name##_solve(int n, long long nnz, const int *d_row_ptr, const int *d_col,       \
                                   const T *d_val, const T *d_b, T *d_x, const perks_cg_opts *o,       \
                                   perks_cg_result *res, cudaStream_t stream)                          \
    {                                                                                                  \
        perks_cg_plan p;                                                                               \
        int rc = name##_plan(&p, n, nnz, d_row_ptr, d_col, d_val, o);                                  \
        if (res) memset(res, 0, sizeof *res);                                                          \
        if (rc) return rc;                                                                             \
        rc = perks_cg_run(&p, d_b, d_x, stream);                                                       \
        if (!rc) rc = perks_cg_wait(&p, res);                                                        \
        perks_cg_plan_free(&p);                                                                        \
        return rc;                                                                                     \
    }


/* ---- host side ------------------------------------------------------------------------------ */

static inline void perks_cg_plan_free(perks_cg_plan *p)
{
    if (!p) return;
    if (p->ws) cudaFree(p->ws);
    memset(p, 0, sizeof *p);
}

static inline size_t perks__cg_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* first row of block b: the smallest row i with i + row_ptr[i] >= b (n + nnz) / G */
static inline int perks__cg_split_row(const int *rp, int n, long long target)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((long long)mid + rp[mid] < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static inline int perks__cg_plan_make(perks_cg_plan *p, const void *kernel, int elt, int block, int n,
                                      long long nnz, const int *d_rp, const int *d_ci, const void *d_va,
                                      const perks_cg_opts *o)
{
    int dev, sms, bps0, bps, G, G2, Gmax, W, b, nv, *rp = NULL, *split = NULL, smem_sm = 0, optin = 0, rc;
    long long maxr = 0, maxk = 0;
    size_t need1, need2, avail, off, vec, total;
    char *ws;
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!kernel || !d_rp || !d_ci || !d_va || !o) return PERKS_ENULL;
    if (n < 1 || nnz < 0 || nnz > 2147483647LL || block < 64 || block > 1024 || block % 32) return PERKS_ESIZE;
    if (!(o->tol >= 0) || o->max_iter < 0 || o->blocks < 0) return PERKS_ESIZE;
    rc = perks_occupancy(kernel, block, 0, &bps0, &sms);
    if (rc) return rc;
    Gmax = bps0 * sms;
    rp = (int *)malloc(sizeof(int) * ((size_t)n + 1));
    if (!rp) return PERKS_ENOMEM;
    if (cudaMemcpy(rp, d_rp, sizeof(int) * ((size_t)n + 1), cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(rp);
        return PERKS_ECUDA;
    }
    if (rp[0] != 0 || rp[n] != nnz) {
        free(rp);
        return PERKS_ESIZE;
    }
    if (o->blocks) G = o->blocks < Gmax ? o->blocks : Gmax;
    else {
        long long g = ((long long)n + nnz + PERKS_CG_WORK_PER_BLOCK - 1) / PERKS_CG_WORK_PER_BLOCK;
        G = g < Gmax ? (int)g : Gmax;
    }
    if (G > n) G = n;
    if (G < 1) G = 1;
    /* lanes per row: the power of two nearest the mean row length */
    {
        double mean = (double)nnz / n;
        W = 1;
        while (W < 32 && W * PERKS_CG_NNZ_PER_LANE < mean) W *= 2;
    }
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
        free(rp);
        return PERKS_ECUDA;
    }
    nv = 4 + (o->jacobi ? 1 : 0); /* x, r, q, p (+ D^-1) */
    /* when the whole system fits on chip at PERKS_CG_ONCHIP_BPS blocks per SM, use no more blocks
     * than that (measured: beyond it the barriers cost more than the extra threads give); systems
     * that stream from device memory take every co-resident block */
    G2 = (!o->blocks && o->cache && G > PERKS_CG_ONCHIP_BPS * sms) ? PERKS_CG_ONCHIP_BPS * sms : 0;
    for (;;) {
        const int Gt = G2 ? G2 : G;
        split = (int *)malloc(sizeof(int) * ((size_t)Gt + 1));
        if (!split) {
            free(rp);
            return PERKS_ENOMEM;
        }
        split[0] = 0;
        split[Gt] = n;
        maxr = maxk = 0;
        for (b = 1; b < Gt; b++) split[b] = perks__cg_split_row(rp, n, ((long long)n + nnz) * b / Gt);
        for (b = 0; b < Gt; b++) {
            long long r = split[b + 1] - split[b], k = (long long)rp[split[b + 1]] - rp[split[b]];
            if (r > maxr) maxr = r;
            if (k > maxk) maxk = k;
        }
        /* the on-chip cache tier that fits the shared memory left per block */
        need1 = (size_t)nv * maxr * elt;
        need2 = need1 + (size_t)maxk * (elt + 4) + (size_t)(maxr + 1) * 4;
        {
            int per_sm = (Gt + sms - 1) / sms;
            avail = (size_t)smem_sm / per_sm;
            avail = avail > 2048 ? avail - 2048 : 0; /* static shared memory and the per-block reserve */
            if (avail > (size_t)optin) avail = (size_t)optin;
        }
        if (G2 && need2 > avail) { /* not on chip at the capped count: all the blocks */
            free(split);
            G2 = 0;
            continue;
        }
        G = Gt;
        break;
    }
    free(rp);
    p->cached = 0;
    p->smem = 0;
    if (o->cache) {
        if (need2 <= avail) {
            p->cached = 2;
            p->smem = need2;
        } else if (need1 <= avail) {
            p->cached = 1;
            p->smem = need1;
        }
    }
    for (;;) { /* the tier must leave G blocks co-resident; fall back otherwise */
        rc = perks_occupancy(kernel, block, p->smem, &bps, &sms);
        if (rc == PERKS_SUCCESS && (long long)bps * sms >= G) break;
        if (p->cached == 0) {
            free(split);
            return rc ? rc : PERKS_ECORESIDENT;
        }
        p->cached--;
        p->smem = p->cached == 1 ? need1 : 0;
    }
    /* workspace: r, z, p0, p1, q, dinv (n T each), partials 5 G, out, split */
    vec = perks__cg_align((size_t)n * elt);
    off = 6 * vec;
    total = off + perks__cg_align(sizeof(double) * 5 * G) + perks__cg_align(sizeof(perks__cg_out)) +
            perks__cg_align(sizeof(int) * ((size_t)G + 1)) + perks__cg_align(sizeof(double) * PERKS_SUM_BARRIER_WORDS);
    if (cudaMalloc(&p->ws, total) != cudaSuccess) {
        free(split);
        p->ws = NULL;
        return PERKS_ECUDA;
    }
    ws = (char *)p->ws;
    p->args.r = ws;
    p->args.z = ws + vec;
    p->args.p0 = ws + 2 * vec;
    p->args.p1 = ws + 3 * vec;
    p->args.q = ws + 4 * vec;
    p->args.dinv = ws + 5 * vec;
    p->args.part = (double *)(ws + off);
    off += perks__cg_align(sizeof(double) * 5 * G);
    p->args.out = (perks__cg_out *)(ws + off);
    off += perks__cg_align(sizeof(perks__cg_out));
    p->args.split = (const int *)(ws + off);
    p->args.bar = (double *)(ws + off + perks__cg_align(sizeof(int) * ((size_t)G + 1)));
    if (cudaMemcpy(ws + off, split, sizeof(int) * ((size_t)G + 1), cudaMemcpyHostToDevice) != cudaSuccess) {
        free(split);
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    free(split);
    if (p->cached == 0) { /* from device memory: more rows in flight per round (short rows: a lane each) */
        double mean = (double)nnz / n;
        W = 1;
        while (W < 32 && W * PERKS_CG_NNZ_PER_LANE_DRAM < mean) W *= 2;
    }
    p->n = n;
    p->nnz = nnz;
    p->blocks = G;
    p->block = block;
    p->sub = W;
    p->elt = elt;
    p->opts = *o;
    p->kernel = kernel;
    p->args.n = n;
    p->args.sub = W;
    p->args.cache = p->cached;
    p->args.jacobi = o->jacobi ? 1 : 0;
    p->args.use_x0 = o->x0 ? 1 : 0;
    p->args.max_iter = o->max_iter;
    p->args.sum_barrier = o->sum_barrier ? 1 : 0;
    p->args.tol = o->tol;
    p->args.rp = d_rp;
    p->args.ci = d_ci;
    p->args.va = d_va;
    return PERKS_SUCCESS;
}

/* launch one solve (asynchronous on stream); perks_cg_wait waits and reads the outcome */
static inline int perks_cg_run(perks_cg_plan *p, const void *d_b, void *d_x, cudaStream_t stream)
{
    void *args[1];
    if (!p || !d_b || !d_x) return PERKS_ENULL;
    if (!p->ws || !p->kernel) return PERKS_ESIZE;
    p->args.b = d_b;
    p->args.x = d_x;
    args[0] = &p->args;
    if (cudaMemsetAsync(p->args.bar, 0, sizeof(double) * PERKS_SUM_BARRIER_WORDS, stream) != cudaSuccess)
        return PERKS_ECUDA;
    return perks_launch(p->kernel, dim3(p->blocks), dim3(p->block), args, p->smem, stream);
}

static inline int perks_cg_wait(perks_cg_plan *p, perks_cg_result *res)
{
    perks__cg_out out;
    if (!p || !res) return PERKS_ENULL;
    memset(res, 0, sizeof *res);
    if (!p->ws) return PERKS_ESIZE;
    if (cudaMemcpy(&out, p->args.out, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    res->status = out.status;
    res->iterations = out.iterations;
    res->bnorm = out.bb > 0 ? sqrt(out.bb) : 0;
    res->rel_residual = out.bb > 0 ? sqrt(out.rr / out.bb) : sqrt(out.rr);
    return out.status;
}

#endif /* PERKS_CG_CUH */
