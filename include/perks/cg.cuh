/* perks/cg.cuh -- conjugate gradient in one persistent kernel (CSR, fp64 or fp32): a cooperative
 * grid for large systems, one thread-block cluster (sm_90) for small ones.
 *
 * WHAT (PERKS paper, Zhang et al. ICS'23, sections 3-4: the time loop moved into the kernel, the
 * data that every iteration re-reads kept on chip; CG is the paper's Krylov example)
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines
 *       __global__ void name_kernel(perks_cg_kargs)     every CG iteration, one cooperative grid
 *       __global__ void name_ckernel(perks_cg_kargs)    the same in one cluster (sm_90 builds)
 *       int name_plan(perks_cg_plan *, n, nnz, d_row_ptr, d_col, d_val, const perks_cg_opts *)
 *       int name_solve(n, nnz, d_row_ptr, d_col, d_val, d_b, d_x, opts, perks_cg_result *, stream)
 *   and these type-free functions work on any plan:
 *       int perks_cg_run(perks_cg_plan *, const void *d_b, void *d_x, cudaStream_t)   (asynchronous)
 *       int perks_cg_wait(perks_cg_plan *, perks_cg_result *)     waits, returns the solve's status
 *       void perks_cg_plan_free(perks_cg_plan *)
 *   The solve: A x = b with A symmetric positive definite in CSR (32-bit indices, device memory),
 *   classic (Hestenes-Stiefel) preconditioned CG with an optional Jacobi preconditioner
 *   M = diag(A), or after max_iter iterations.  Vectors and the matrix are T; dot products are
 *   accumulated in double for both T.
 *
 * WHAT A SUCCESS MEANS (no silent wrong answers)
 *   Every solve ends with the TRUE residual ||b - A x|| / ||b|| of the x it returns, summed in double
 *   from A, b and x as stored (one extra SpMV, perks__cg_resid_kernel): res.true_residual, beside the
 *   recurrence's res.rel_residual.  PERKS_SUCCESS only when res.true_residual <= tol; when the
 *   recurrence met tol but the true residual did not, PERKS_EINACCURATE (x is still returned: the
 *   tolerance is below what T reaches for this matrix's conditioning).  The recurrence residual of
 *   float CG drifts from the true one by orders of magnitude on ill-conditioned matrices.
 *   Residual replacement (float, classic CG, both paths): the kernel recomputes r = b - A x (row
 *   sums in double: one SpMV and the step's two reductions) and goes on from it, keeping p.  By
 *   default it does so whenever the recurrence meets tol: a true residual at or below tol ends the
 *   solve with PERKS_SUCCESS; one above it means the recurrence had drifted, and the solve goes on,
 *   replacing again at the next convergence or every W = max(it / 2, 20) iterations.
 *   PERKS_CG_STALL (2) such replacements in a row whose true residual did not fall to a quarter of
 *   the best end it with PERKS_EINACCURATE: float has reached what it can for this matrix, in at
 *   most about twice the iterations of the first convergence; the solve then returns the x of the
 *   smallest true residual it saw (kept in the plan's workspace at each judged replacement).
 *   Options: opts.replace = k > 0 also replaces every k iterations; opts.replace_delta = d in (0, 1)
 *   also whenever ||r|| fell by d since the last replacement (reliable updates, Sleijpen and van der
 *   Vorst); replace = 0 never replaces (the final check still reports).  Measured on the SuiteSparse
 *   files (docs/perks-cg.md): neither periodic nor reliable replacement lets float reach a smaller
 *   true residual than the default; both cost iterations.  Double and Chronopoulos-Gear solves have
 *   no in-kernel replacement (the double kernel has no register to spare on sm_80, and its iteration
 *   stays as fast as before): when their recurrence met tol and the true residual did not,
 *   perks_cg_wait refines x (iterative refinement in T: r = b - A x summed in double, the same
 *   kernel solves A d = r from d = 0 aiming at PERKS_CG_RESTART_TOL = 0.5 tol ||b||, x += d), up
 *   to PERKS_CG_RESTARTS = 3 times while each lowers the true residual (one that does not is
 *   undone: x comes back from the plan's best-x buffer); res.replacements counts the refinements,
 *   res.iterations all iterations (replace = 0: none).  A correction is small, so its own drift is
 *   small; restarting in place from x drifts as much as the first solve.  bcsstk25 with Jacobi at
 *   1e-10 (a CPU CG in double, three b): the first solve ends at 4e-10 .. 1.7e-9; a restart in place
 *   aiming at tol/2 ends at 5e-11 .. 1.3e-9, a refinement at 4.8e-11 .. 6.3e-11.
 *
 * MIXED PRECISION (PERKS_CG_MIXED_DEFINE(name, BLOCK): name_solve, the same arguments, double A, b, x)
 *   One float CG (the matrix values and vectors in float: fewer bytes per iteration) whose residual
 *   replacements are done in double ("reliable updates"): the float x holds the correction since the
 *   last replacement; a replacement adds it to the double x (the caller's d_x) and recomputes
 *   r = b - A x from the double matrix; p and the Krylov space go on (no restart).  Replacements:
 *   before the first iteration, every PERKS_CG_MIXED_PERIOD = 200 iterations (opts.replace = k > 0:
 *   every k; 0: none), when ||r|| fell by PERKS_CG_MIXED_DELTA = 10x (or opts.replace_delta)
 *   since the last one, and when the recurrence meets tol (the double true
 *   residual decides).  opts.mixed = 0 (auto) runs the double solver alone when the double plan keeps
 *   the whole system on chip (bound by barriers, not bytes; res.ran = PERKS_CG_RAN_DOUBLE); a float
 *   iteration that stalls (PERKS_EINACCURATE: cond(A) too large for float; judged from the start,
 *   every PERKS_CG_MIXED_WINDOW = 2000 iterations: two windows in a row that did not halve the
 *   true residual, so a recurrence that never meets tol still ends) or breaks down hands x to the
 *   double solver (PERKS_CG_RAN_FALLBACK), which goes on with the iterations left.  The float
 *   solve uses the grid path (the cluster kernel has no double x); Chronopoulos-Gear or path 2 with
 *   it: PERKS_ESIZE.  Costs 4 nnz + 8 n
 *   bytes of workspace beside the two plans.
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
 * THE ITERATION (both paths): 2 barriers, classic CG arithmetic
 *     phase A   q_i = sum_j a_ij (z_j + beta p_j),  p'_i = z_i + beta p_i,  partial p'.q
 *               -- the update p = z + beta p is evaluated inside the SpMV gather (fma, the same
 *               bits its owner stores), so it needs no barrier of its own; the new p goes to the
 *               other buffer of a ping-pong pair
 *     barrier 1 the totals of the partials, the same bits in every block: p.q, alpha = rz / p.q
 *     phase B   x += alpha p, r -= alpha q, z = D^-1 r (Jacobi) or z = r, partials r.r and r.z
 *     barrier 2 rr, rz, beta = rz_new / rz; stop when rr <= tol^2 b.b
 *   The formulas are those of textbook CG (no pipelined or merged recurrences), so iteration counts
 *   follow a CPU CG in double up to rounding (the sums run in another order).  The paper's CG uses
 *   5 barriers.  Dot products are deterministic: every block adds the same partials in the same
 *   order, so all blocks take the same decisions and reruns give the same bits.
 *   Rows: block b owns the rows [split[b], split[b+1]), split so that rows + nonzeros are even (a
 *   merge-path split of the CSR at block level).  Inside a block a row gets W lanes (W = 1..32, the
 *   least power of two giving at most PERKS_CG_NNZ_PER_LANE = 4 nonzeros per lane on average, 8
 *   when nothing is cached).  When the matrix comes from device memory each lane loads
 *   PERKS_CG_UNROLL = 8 column indices and values at once (predicated), then gathers all 8, then
 *   sums in k order; from shared memory a plain one-nonzero-at-a-time loop (same sums, same order).
 *
 * THE CLUSTER PATH (path 2; small systems; sm_90 and a build for sm_90)
 *   One thread-block cluster of C <= 16 blocks of PERKS_CG_CBLOCK = 1024 threads (C = 1 is the
 *   one-block path), launched with cudaLaunchKernelEx.  Everything per row lives in the blocks'
 *   shared memory: x, r, q, (D^-1), and two buffers of (z, p) pairs that the other blocks read
 *   through distributed shared memory (one 16-byte load per nonzero: the column index is stored as
 *   block rank << 24 | local row); the matrix slice too when it fits (cached = 2), else it is read
 *   from device memory (cached = 1).  The barriers are cluster barriers (barrier.cluster, in
 *   hardware); each block's partials sit in its shared memory and every warp adds the C partials
 *   of the other blocks through distributed shared memory.  No vector goes to device memory
 *   until x at the end.  The auto path takes it when everything fits the cluster's shared memory,
 *   the matrix included (per block: 56 B per row for fp64, 72 with Jacobi, plus 12 B per nonzero
 *   and 4 per row for the matrix: about 2.5 MB of CSR over 16 blocks); measured on the H200 with
 *   the matrix read from device memory instead (cached = 1, path 2 asked for) it is slower than
 *   the grid, so auto does not take that.  C is the least power of two giving at most
 *   PERKS_CG_CLUSTER_WORK = 1024 rows + nonzeros per block that fits, 16 at most (non-portable
 *   cluster size; 8 when the device refuses 16): measured, 16 blocks beat 8 and 4 on every on-chip
 *   system.  Built for sm_75/80 the cluster kernel is a stub: the planner sees it
 *   (cudaFuncGetAttributes) and uses the grid; asking for path 2 then returns PERKS_EUNSUPPORTED.
 *
 * THE GRID PATH (path 1; one cooperative launch, G blocks of BLOCK threads)
 *   Barriers (opts.barrier): PERKS_CG_BAR_COUNT (the default since round 2) is perks_count_sum's
 *   protocol (perks/barrier.cuh): thread 0 arrives with one red.release.gpu on a counter that only
 *   grows, warp 0 spins with ld.acquire and loads the G partials the moment the count is reached
 *   (no fence and no block barrier in between), the same fixed order, so the same bits as
 *   PERKS_CG_BAR_GRID: cooperative_groups grid.sync, then every block sums the G partials (warp 0,
 *   fixed order); the count barrier measured 0.1-0.4 us per iteration faster on every system.  PERKS_CG_BAR_FLAG is perks_flag_sum
 *   (perks/barrier.cuh; G <= 2 BLOCK): each block stores its partials into its own slots after a
 *   fence, every block reads all G slots at once and sums them (the arrival of the values is the
 *   barrier: one L2 hop, no atomics) -- measured 2x slower per iteration than grid.sync on the
 *   H200 (docs/perks-cg.md), kept as an option.  PERKS_CG_BAR_SUM is the first software barrier
 *   (the last block to arrive sums; slower; opts.sum_barrier = 1 is its old name).
 *   On-chip cache (PERKS section 4.1.3-4.1.4): when they fit in the shared memory left per block,
 *   each block keeps its rows of x, r, q, p (and D^-1) in shared memory (cached = 1), and also its
 *   slice of the matrix (cached = 2); otherwise they stay in device memory (cached = 0; opts.cache
 *   = 0 forces this).  p and z are read by other blocks through the SpMV gather, so they live in
 *   device memory (L2) on this path; r is written through.
 *   Breakdown (both paths): p.q <= 0 (or not a number) stops with PERKS_EBREAKDOWN, as does a
 *   non-positive diagonal with Jacobi; both mean A is not SPD.
 *
 * CHRONOPOULOS-GEAR (opts.variant = PERKS_CG_CGEAR; grid path; name_kernel1)
 *   One grid barrier per iteration: the three dot products r.u, w.u, r.r (w = A u) in one
 *   reduction, alpha from gamma / (delta - beta gamma / alpha_old).  The SpMV reads u_j of the
 *   new r without a barrier after the update: each reader recomputes it from row j's old
 *   (r, w, s, d) quad (perks__cg1_u, the owner's expressions, the same bits), from two ping-pong
 *   quad buffers in device memory.  Rounding differs from classic CG (the iteration counts of
 *   bench/cg's Poisson systems to 1e-8 were equal to cuSPARSE's all the same); opt-in, not the
 *   default: measured faster on the systems that fit on chip up to ~8 MB and slower on the
 *   streamed ones (4 values gathered per nonzero).  Barrier: count (default) or grid.sync.
 *
 * PARAMETERS AND LIMITS
 *   T float or double; BLOCK a multiple of 32, 64..1024 (256 is a good default).  n >= 1,
 *   0 <= nnz < 2^31, square A.  opts: tol >= 0, max_iter >= 0; path (0 auto, 1 grid, 2 cluster);
 *   cluster (0: the planner, else 1..16 blocks); blocks (grid path; 0: the planner chooses about
 *   one block per PERKS_CG_WORK_PER_BLOCK = 512 rows + nonzeros, at most the co-resident count, and
 *   at most PERKS_CG_ONCHIP_BPS = 2 per SM when the whole system then fits in shared memory);
 *   barrier (grid path, above); x0 (1: start from the x given, 0: from zero).  Setting blocks,
 *   barrier or sum_barrier, or cache = 0, makes the auto path the grid.  The result: status (0,
 *   PERKS_EINACCURATE, PERKS_ENOCONV, PERKS_EBREAKDOWN, PERKS_EDIAG: a diagonal entry <= 0 or missing
 *   with Jacobi), iterations, rel_residual = sqrt(r.r / b.b) of the recurrence (b = 0 gives
 *   sqrt(r.r)), true_residual, replacements.  Check a matrix on the host first with perks_csr_check
 *   (perks/mtx.h: not square, empty rows, diagonal, symmetry).  Host errors before any launch:
 *   PERKS_EEMPTYROW (a row without entries), PERKS_ENULL, PERKS_ESIZE (sizes, tol, replace,
 *   max_iter, BLOCK, path, cluster, barrier, variant, a flag barrier over more than 2 BLOCK blocks,
 *   Chronopoulos-Gear with the cluster path or the flag / sum barrier),
 *   PERKS_ENOCOOP, PERKS_ERESOURCE (path 2 asked for a system that does not fit a cluster),
 *   PERKS_EUNSUPPORTED (path 2 without sm_90), PERKS_ECORESIDENT, PERKS_ECUDA (allocation, copies).
 *   The plan copies row_ptr to the host once (for the split) and allocates its workspace; d_val
 *   etc. must stay valid while the plan is used.  Not reentrant: one perks_cg_run at a time per
 *   plan.  A solve of k iterations is one launch (no host round trips).  Registers: the grid kernel
 *   is built for PERKS_CG_THREADS_PER_SM = 1024 threads per SM (__launch_bounds__(BLOCK, 1024 /
 *   BLOCK): at most 64 registers, no spills; define it to 512 before PERKS_CG_DEFINE for the
 *   ~100-register build); the cluster kernel for 1024 threads (64 registers).  Measured on the
 *   H200 (bench/cg, docs/perks-cg.md).
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
#ifndef PERKS_CG_MIXED_PERIOD
#define PERKS_CG_MIXED_PERIOD 200 /* mixed: a double replacement every 200 float iterations (opts.replace -1) */
#endif
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
#define PERKS_CG_CBLOCK 1024         /* threads per block of the cluster kernel */
#define PERKS_CG_CMAX 16             /* blocks per cluster at most (16: non-portable size) */
#ifndef PERKS_CG_CLUSTER_WORK
#define PERKS_CG_CLUSTER_WORK 1024 /* rows + nonzeros per cluster block the planner aims at (then 16) */
#endif

#define PERKS_CG_PATH_AUTO 0
#define PERKS_CG_PATH_GRID 1
#define PERKS_CG_PATH_CLUSTER 2
#define PERKS_CG_BAR_AUTO 0
#define PERKS_CG_BAR_GRID 1 /* cooperative_groups grid.sync, then every block sums the partials */
/* PERKS_CG_BAR_AUTO is PERKS_CG_BAR_COUNT (below) */
#define PERKS_CG_BAR_SUM 2  /* perks_sum_barrier: the last block to arrive sums */
#define PERKS_CG_BAR_FLAG 3 /* perks_flag_sum: every block reads every block's published partials */
#define PERKS_CG_BAR_COUNT 4 /* perks_count_sum: grid.sync's counter with the partials' read folded in */
#define PERKS__CG_CNT(a) ((unsigned int *)((a).bar + 6)) /* perks_count_sum's counter (zeroed per run) */
#define PERKS_CG_CLASSIC 0 /* opts.variant: Hestenes-Stiefel CG, 2 barriers per iteration (default) */
#define PERKS_CG_CGEAR 1   /* opts.variant: Chronopoulos-Gear CG, 1 barrier per iteration (grid path) */
#ifndef PERKS_CG1_UNROLL
#define PERKS_CG1_UNROLL 4 /* the Chronopoulos-Gear gather loads 4 values per nonzero: fewer in flight */
#endif

typedef struct perks_cg_opts {
    double tol;   /* stop when ||r|| <= tol ||b|| */
    int max_iter; /* PERKS_ENOCONV after this many iterations */
    int jacobi;   /* 1: Jacobi (diagonal) preconditioner */
    int cache;    /* 1: keep vectors / matrix in shared memory when they fit; 0: never (grid path) */
    int blocks;   /* grid path: 0 planner; else this many blocks (at most the co-resident count) */
    int x0;       /* 1: start from the x passed in; 0: from x = 0 (x is overwritten) */
    int sum_barrier; /* 1: the same as barrier = PERKS_CG_BAR_SUM (the old name) */
    int path;        /* PERKS_CG_PATH_AUTO / _GRID / _CLUSTER */
    int cluster;     /* cluster path: 0 planner, else 1..16 blocks */
    int barrier;     /* grid path: PERKS_CG_BAR_AUTO / _GRID / _SUM / _FLAG / _COUNT */
    int variant;     /* PERKS_CG_CLASSIC (default) or PERKS_CG_CGEAR (grid path, grid.sync barrier) */
    int replace;     /* residual replacement: -1 auto, 0 never, k > 0 every k iterations (classic CG) */
    double replace_delta; /* and once ||r|| fell by this factor since the last one: -1 auto, 0 off, (0, 1) */
    int mixed;       /* PERKS_CG_MIXED_DEFINE: 0 auto (float only when the double system streams), 1 always */
} perks_cg_opts;

static inline perks_cg_opts perks_cg_defaults(void)
{
    perks_cg_opts o;
    memset(&o, 0, sizeof o);
    o.tol = 1e-8;
    o.max_iter = 10000;
    o.jacobi = 0;
    o.cache = 1;
    o.blocks = 0;
    o.x0 = 0;
    o.sum_barrier = 0;
    o.path = PERKS_CG_PATH_AUTO;
    o.cluster = 0;
    o.barrier = PERKS_CG_BAR_AUTO;
    o.variant = PERKS_CG_CLASSIC;
    o.replace = -1;
    o.replace_delta = -1;
    o.mixed = 0;
    return o;
}

typedef struct perks_cg_result {
    int status;           /* PERKS_SUCCESS (the TRUE residual met tol), PERKS_EINACCURATE, PERKS_ENOCONV,
                             PERKS_EBREAKDOWN or PERKS_EDIAG */
    int iterations;       /* iterations done (the one that broke down not counted; mixed: all solves) */
    double rel_residual;  /* sqrt(r.r / b.b) of the recurrence residual at the end */
    double bnorm;         /* ||b|| */
    double true_residual; /* ||b - A x|| / ||b|| of the x returned, summed in double after the solve */
    int replacements;     /* residual replacements done in the kernel (mixed: the double updates) */
    int ran;              /* PERKS_CG_RAN_*: what computed x */
} perks_cg_result;

#define PERKS_CG_RAN_NATIVE 0   /* the plan's own precision T */
#define PERKS_CG_RAN_MIXED 1    /* mixed: float CG iterations, x and the replaced residuals in double */
#define PERKS_CG_RAN_DOUBLE 2   /* mixed: the double solver alone (the system is on chip: bytes do not bound it) */
#define PERKS_CG_RAN_FALLBACK 3 /* mixed: the float iteration stalled or broke down (float cannot hold A well
                                   enough); the double solver finished from the x reached */

typedef struct perks__cg_out {
    int status, iterations, repl, pad_;
    double rr, bb;
} perks__cg_out;

typedef struct perks_cg_kargs {
    int n, sub, cache, jacobi, use_x0, max_iter, bmode, nrmax;
    int rper;  /* residual replacement every rper iterations (0: none) */
    int rconv; /* replacement when the recurrence meets tol: the true residual decides */
    double rdelta2; /* replace also when r.r fell below rdelta2 times its value at the last one (0: off) */
    const double *va_hi, *b_hi; /* mixed: the double matrix values and b (NULL otherwise) */
    void *xbest;                /* the best x of a stalled solve (n T, beside the residual partials) */
    double *x_hi;               /* mixed: x in double; the kernel's x (T) holds the correction since the
                                   last replacement */
    double tol;
    double *bar;  /* perks_sum_barrier workspace (PERKS_SUM_BARRIER_WORDS), zeroed by perks_cg_run */
    double *flag; /* perks_flag_sum workspace (PERKS_FLAG_WORDS(G)), set to 0xff bytes by perks_cg_run */
    int *cenc;    /* cluster path, matrix in device memory: the encoded columns (nnz) */
    const int *rp, *ci, *split;
    const void *va, *b;
    void *x, *r, *z, *p0, *p1, *q, *dinv; /* CGEAR kernel: r, z = the two (r, w, s, d) quad buffers, p0 = p */
    double *part; /* 8 x G block partials */
    perks__cg_out *out;
} perks_cg_kargs;

typedef struct perks_cg_plan {
    int n, blocks, block, sub, cached, elt;
    int path;    /* PERKS_CG_PATH_GRID or PERKS_CG_PATH_CLUSTER */
    int barrier; /* grid path: the barrier used (PERKS_CG_BAR_*) */
    long long nnz;
    size_t smem;
    perks_cg_opts opts;
    const void *kernel; /* the kernel launched (grid, grid Chronopoulos-Gear or cluster) */
    int variant;        /* PERKS_CG_CLASSIC or PERKS_CG_CGEAR */
    void *ws;           /* one allocation: vectors, partials, out, split, barrier words */
    double *rpart;      /* the true-residual kernel's block partials (2 PERKS_CG_RESID_BLOCKS) */
    cudaStream_t stream; /* the last perks_cg_run's stream (perks_cg_wait synchronizes it) */
    perks_cg_kargs args;
} perks_cg_plan;

/* ---- device pieces -------------------------------------------------------------------------- */


/* after the grid barrier: the totals of part[slot .. slot+nv-1][0..G-1], the same bits in every
 * block (fixed order), into tot[0..nv-1] for the whole block */
static __device__ __forceinline__ void perks__cg_grid_total(const double *part, int slot, int nv, int G,
                                                            double *tot)
{
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        for (int c = 0; c < nv; ++c) {
            double s = 0;
            _Pragma("unroll 8") for (int j = lane; j < G; j += 32) s += __ldcg(part + (slot + c) * G + j);
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            if (lane == 0) tot[c] = s;
        }
    }
    __syncthreads();
}

/* SpMV row loop: W lanes per row; all threads of the block run `rounds` times (shuffles stay
 * converged).  GATHER is the vector element j (an expression in j); ROWDONE(lr, i, s, d) runs on the row's first
 * lane with the row sum s and the diagonal d (sum of a_ii, 0 if absent). */
#define PERKS__CG_SPMV_U(T, GATHER, ROWDONE, U)                                                          \
    for (int rd = 0; rd < rounds; ++rd) {                                                            \
        const int lr = rd * S + sw, i = r0 + lr;                                                     \
        T s = 0, d = 0;                                                                              \
        if (lr < nr) {                                                                               \
            const int kb = RP[lr], ke = RP[lr + 1];                                                  \
            if (mplain) {                                                                           \
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
                _Pragma("unroll 1") for (int kk = kb + sl; kk < ke; kk += (U) * W) {     \
                    /* all column and value loads of the chunk first, then all gathers: one memory  \
                     * latency for the chunk instead of one per nonzero; the sum keeps the k order */ \
                    int jj[(U)];                                                         \
                    T vv[(U)], gg[(U)];                                      \
                    _Pragma("unroll") for (int u = 0; u < (U); ++u) {                    \
                        const int k = kk + u * W;                                                    \
                        jj[u] = k < ke ? CI[k - k0] : -1;                                            \
                        vv[u] = k < ke ? VA[k - k0] : (T)0;                                          \
                    }                                                                                \
                    _Pragma("unroll") for (int u = 0; u < (U); ++u) {                    \
                        const int j = jj[u];                                                         \
                        gg[u] = j >= 0 ? (T)(GATHER) : (T)0;                                         \
                    }                                                                                \
                    _Pragma("unroll") for (int u = 0; u < (U); ++u) {                    \
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
#define PERKS__CG_SPMV(T, GATHER, ROWDONE) PERKS__CG_SPMV_U(T, GATHER, ROWDONE, PERKS_CG_UNROLL)

/* residual replacement's row loop: the same lanes per row, one nonzero at a time, the row sum s in
 * double whatever T is (r = b - A x as exactly as x allows); ROWDONE(lr, i, s) on the first lane */
#define PERKS__CG_RROWS(VAL, GATHER, ROWDONE)                                                                 \
    for (int rd = 0; rd < rounds; ++rd) {                                                                     \
        const int lr = rd * S + sw, i = r0 + lr;                                                              \
        double s = 0;                                                                                         \
        if (lr < nr)                                                                                          \
            for (int k = RP[lr] + sl; k < RP[lr + 1]; k += W) {                                               \
                const int j = CI[k - k0];                                                                     \
                s += (double)(VAL) * (double)(GATHER);                                                        \
            }                                                                                                 \
        for (int o = W >> 1; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o, W);                      \
        if (lr < nr && sl == 0) { ROWDONE(lr, i, s); }                                                        \
    }

/* the mixed-precision fields (x_hi, va_hi, b_hi) and xbest only in float kernels: NULL, so the code
 * that reads them folds away, in the double ones (keeps the double grid kernel at 64 registers without spills) */
#define PERKS__CG_HI(ptr) (sizeof(perks__cg_T) == 4 ? (ptr) : 0)

/* the replaced row: r = b - A x rounded to T, z = D^-1 r; r.r from the double value (the stopping
 * test then reads the residual of the x held, not its rounding) */
#define PERKS__CG_ROW_RR(lr, i, s)                                                                            \
    {                                                                                                         \
        const double rd_ = (PERKS__CG_HI(a.b_hi) ? PERKS__CG_HI(a.b_hi)[i] : (double)B[i]) - (s);                                         \
        const perks__cg_T rv_ = (perks__cg_T)rd_, zv_ = a.jacobi ? sd[lr] * rv_ : rv_;                        \
        sr[lr] = rv_;                                                                                         \
        if (a.cache >= 1) gR[lr] = rv_;                                                                       \
        if (a.jacobi) ((perks__cg_T *)a.z)[i] = zv_;                                                          \
        qrr += rd_ * rd_;                                                                                     \
        qrz += (double)rv_ * zv_;                                                                             \
    }
#define PERKS__CG_ROW_CRR(lr, i, s)                                                                           \
    {                                                                                                         \
        const double rd_ = (double)B[i] - (s);                                                                \
        const perks__cg_T rv_ = (perks__cg_T)rd_, zv_ = a.jacobi ? sd[lr] * rv_ : rv_;                        \
        sr[lr] = rv_;                                                                                         \
        ZPc[2 * (lr)] = zv_;                                                                                  \
        qrr += rd_ * rd_;                                                                                     \
        qrz += (double)rv_ * zv_;                                                                             \
    }

/* when to replace (both classic kernels): when the recurrence meets tol (a.rconv: the true residual
 * then decides), every a.rper iterations, once r.r fell below a.rdelta2 times its value at the last
 * replacement (reliable updates), and, after the first convergence whose true residual was above
 * tol, every W = max(it / 2, PERKS_CG_WINDOW) iterations (it: that convergence's iteration).  From
 * that first convergence on, a judged replacement (one at a convergence, or the first W or more
 * iterations after the last judged one) whose true residual did not fall to a quarter of the best
 * earlier one is a stall; PERKS_CG_STALL stalls in a row end the solve with PERKS_EINACCURATE (the
 * tolerance is below what T reaches for this matrix): at most about 2x the iterations of the first
 * convergence in all.  Mixed solves (a.x_hi) are judged from their first replacement on, every
 * W = PERKS_CG_MIXED_WINDOW iterations: a float iteration whose recurrence never meets tol (the
 * matrix too ill-conditioned for float) still ends, and hands over to double.  A replaced true
 * residual 100x above the smallest earlier one (float iterations diverging) ends the solve likewise. */
#ifndef PERKS_CG_STALL
#define PERKS_CG_STALL 2
#endif
#ifndef PERKS_CG_DIVERGE
#define PERKS_CG_DIVERGE 1e4 /* a true r.r this far above the smallest replaced one: diverging (||r|| 100x) */
#endif
#ifndef PERKS_CG_WINDOW
#define PERKS_CG_WINDOW 20
#endif
#ifndef PERKS_CG_MIXED_WINDOW
#define PERKS_CG_MIXED_WINDOW 2000 /* 10 periods of PERKS_CG_MIXED_PERIOD; each must halve ||r|| (r.r to a quarter) */
#endif
/* The bookkeeping lives in the block's shared memory (rs: the iteration of the last replacement, -1
 * before the first; the stall count; the replacement count; W, 0 before judging starts; the
 * iteration of the last judged replacement; whether this one was judged; rbest; rlast), written by
 * thread 0 behind a barrier: registers in the loop would push the
 * 64-register kernels into spills.  Beta of the next step is rz_new / rz_old, the recurrence's beta
 * times rz_true / rz_recurrence. */
#define PERKS__CG_REPL_STATE                                                                                  \
    __shared__ int rs[6];                                                                                     \
    __shared__ double rbest, rlast, rmin;                                                                     \
    if (threadIdx.x == 0) rs[0] = -1, rs[1] = rs[2] = rs[3] = rs[4] = rs[5] = 0, rbest = rmin = 1e300, rlast = rr; \
    __syncthreads();
/* mixed (a.x_hi): also before the first iteration */
#define PERKS__CG_WANT_REPLACE()                                                                              \
    (sizeof(perks__cg_T) == 4 && it != rs[0] && ((rr <= thr && a.rconv) || (a.rper && it - (rs[0] < 0 ? 0 : rs[0]) >= a.rper) ||        \
                     (a.rdelta2 > 0 && rr <= a.rdelta2 * rlast) || (rs[3] && it - rs[0] >= rs[3]) ||           \
                     (PERKS__CG_HI(a.x_hi) && rs[0] < 0)))
/* the head of a step (both classic kernels): a replacement due, or the stopping tests */
#define PERKS__CG_STEP_HEAD()                                                                                \
    int repl = PERKS__CG_WANT_REPLACE();                                                                     \
    if (!repl && rr <= thr) break;                                                                           \
    if (!repl && it >= a.max_iter) {                                                                         \
        status = PERKS_ENOCONV;                                                                              \
        break;                                                                                               \
    }
/* the tail of a step from its second reduction's totals rr_new, rz_new: a replacement (the test
 * evaluated again from shared memory rather than held in a register across the phases; 2 when the
 * recurrence had met tol) rescales beta and goes on; an iteration sets beta and counts */
#define PERKS__CG_STEP_TAIL(T, rr_new, rz_new)                                                               \
    /* "? 1 : 0" kept: without it the float cluster kernel compiles to 3.7% more instructions */          \
    repl = (PERKS__CG_WANT_REPLACE() ? 1 : 0) ? (rr <= thr ? 2 : 1) : 0;                                     \
    rr = (rr_new);                                                                                           \
    if (repl) {                                                                                              \
        beta = it && rz != 0 ? (T)(beta * ((rz_new) / rz)) : (T)0;                                           \
        rz = (rz_new);                                                                                       \
        PERKS__CG_AFTER_REPLACE(repl == 2)                                                                   \
        continue;                                                                                            \
    }                                                                                                        \
    beta = (T)((rz_new) / rz);                                                                               \
    rz = (rz_new);                                                                                           \
    ++it;
#define PERKS__CG_AFTER_REPLACE(conv)                                                                         \
    __syncthreads(); /* every thread has read rs for this step before thread 0 writes it */                  \
    if (threadIdx.x == 0) {                                                                                   \
        rs[0] = it;                                                                                           \
        ++rs[2];                                                                                              \
        rlast = rr;                                                                                           \
        rmin = rr < rmin ? rr : rmin;                                                                         \
        rs[5] = (conv) || (rs[3] && it - rs[4] >= rs[3]); /* judged */                                        \
        if (rs[5]) {                                                                                          \
            rs[4] = it;                                                                                       \
            if (rr < 0.25 * rbest) rbest = rr, rs[1] = 0;                                                     \
            else ++rs[1];                                                                                     \
            if (!rs[3]) rs[3] = it / 2 > PERKS_CG_WINDOW ? it / 2 : PERKS_CG_WINDOW;                          \
        } else if (PERKS__CG_HI(a.x_hi) && !rs[3]) { /* mixed: judged from the first replacement on */       \
            rs[3] = PERKS_CG_MIXED_WINDOW;                                                                    \
            rs[4] = it;                                                                                       \
            rbest = rr;                                                                                       \
        }                                                                                                     \
    }                                                                                                         \
    __syncthreads();                                                                                          \
    PERKS__CG_KEEP_BEST()                                                                                     \
    if (rr > thr && (rs[1] >= PERKS_CG_STALL || rr > PERKS_CG_DIVERGE * rmin)) status = PERKS_EINACCURATE;

/* the best x so far (the smallest true residual of a judged replacement) into a.xbest, and back into
 * sx when the solve ends inaccurate above it: a stalled float solve returns the best x it saw, not
 * the last.  Float kernels only (the double grid kernel has no register to spare on sm_80, and
 * double solves seldom stall); not in mixed solves (their x is the double x_hi; a stall hands over
 * to double). */
#define PERKS__CG_KEEP_BEST()                                                                                 \
    if (!PERKS__CG_HI(a.x_hi) && PERKS__CG_HI(a.xbest) && rs[5] && rbest == rr)                                         \
        for (int lr = threadIdx.x; lr < nr; lr += blockDim.x) ((perks__cg_T *)a.xbest)[r0 + lr] = sx[lr];
#define PERKS__CG_RESTORE_BEST()                                                                              \
    if (!PERKS__CG_HI(a.x_hi) && PERKS__CG_HI(a.xbest) && status == PERKS_EINACCURATE && rr > rbest) {                     \
        for (int lr = threadIdx.x; lr < nr; lr += blockDim.x) sx[lr] = ((const perks__cg_T *)a.xbest)[r0 + lr]; \
        rr = rbest;                                                                                           \
    }

/* the ROWDONE bodies, expanded inside the kernel (they use its locals; perks__cg_T is T) */

/* the block's sums of v0, v1, v2 into *s0, *s1, *s2 of thread 0 (warp shuffles, then the warps in
 * order); every thread calls it; ends with thread 0 after a __syncthreads (the block's earlier
 * writes are ordered before whatever thread 0 does next) */
static __device__ __forceinline__ void perks__cg_block_reduce(double v0, double v1, double v2, double (*red)[3],
                                                              double *s0, double *s1, double *s2)
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
        double a0 = lane < nw ? red[lane][0] : 0, a1 = lane < nw ? red[lane][1] : 0, a2 = lane < nw ? red[lane][2] : 0;
        for (int o = 16; o > 0; o >>= 1) {
            a0 += __shfl_xor_sync(0xffffffffu, a0, o);
            a1 += __shfl_xor_sync(0xffffffffu, a1, o);
            a2 += __shfl_xor_sync(0xffffffffu, a2, o);
        }
        *s0 = a0;
        *s1 = a1;
        *s2 = a2;
    }
}

/* cluster path: z_j + beta p_j of row j = (rank << 24 | local) from the (z, p) pairs of block rank:
 * a 32-bit shared::cluster address (mapa) and one 16-byte ld.shared::cluster (8 bytes for float);
 * asm volatile keeps it between the cluster barriers (which are volatile asm too) */
static __device__ __forceinline__ __attribute__((unused)) double perks__cg_cgather(const double *zp, int e, double beta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned sa = (unsigned)__cvta_generic_to_shared(zp) + 16u * (unsigned)(e & 0xffffff);
    unsigned ra;
    double z, p;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"((unsigned)e >> 24));
    asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];" : "=d"(z), "=d"(p) : "r"(ra));
    return fma(beta, p, z);
#else
    const double2 v = *(const double2 *)(zp + 2 * (e & 0xffffff));
    return fma(beta, v.y, v.x);
#endif
}
static __device__ __forceinline__ __attribute__((unused)) float perks__cg_cgather(const float *zp, int e, float beta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned sa = (unsigned)__cvta_generic_to_shared(zp) + 8u * (unsigned)(e & 0xffffff);
    unsigned ra;
    float z, p;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"((unsigned)e >> 24));
    asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(z), "=f"(p) : "r"(ra));
    return fmaf(beta, p, z);
#else
    const float2 v = *(const float2 *)(zp + 2 * (e & 0xffffff));
    return fmaf(beta, v.y, v.x);
#endif
}

/* Chronopoulos-Gear kernel: r_j of the next iteration, recomputed by every reader from row j's quad
 * (r, w = A u, s_old, d) of the previous phase with the expressions its owner uses, s = w + beta s_old
 * and r' = r - alpha s (u' = d r' with Jacobi, else r'), so the neighbours need no barrier between
 * the owner's update and the SpMV that reads u' */
static __device__ __forceinline__ __attribute__((unused)) double perks__cg1_step(double r, double w, double so,
                                                                                 double alpha, double beta,
                                                                                 double *s_out)
{
    const double s = fma(beta, so, w);
    *s_out = s;
    return fma(-alpha, s, r);
}
static __device__ __forceinline__ __attribute__((unused)) float perks__cg1_step(float r, float w, float so,
                                                                                float alpha, float beta, float *s_out)
{
    const float s = fmaf(beta, so, w);
    *s_out = s;
    return fmaf(-alpha, s, r);
}
/* u'_j gathered from the quad of row j (device memory, L2) */
static __device__ __forceinline__ __attribute__((unused)) double perks__cg1_u(const double *q, double alpha,
                                                                              double beta, int jac)
{
    const double2 rw = __ldcg((const double2 *)q), sd = __ldcg((const double2 *)q + 1);
    double s;
    const double x = perks__cg1_step(rw.x, rw.y, sd.x, alpha, beta, &s);
    return jac ? sd.y * x : x;
}
static __device__ __forceinline__ __attribute__((unused)) float perks__cg1_u(const float *q, float alpha, float beta,
                                                                             int jac)
{
    const float4 v = __ldcg((const float4 *)q);
    float s;
    const float x = perks__cg1_step(v.x, v.y, v.z, alpha, beta, &s);
    return jac ? v.w * x : x;
}

/* cluster barrier: every thread of every block of the cluster; release / acquire (shared memory
 * of the whole cluster included) */
static __device__ __forceinline__ __attribute__((unused)) void perks__cg_cluster_sync(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
#else
    __syncthreads();
#endif
}

/* cluster path: the totals of the nv values in cp (16-byte aligned, 4 doubles) of the C blocks, in
 * every thread: warp 0 reads them (lane l block l's, 16-byte loads through distributed shared
 * memory; then an xor butterfly: a fixed order) into tot (shared), then a __syncthreads.  One warp
 * per block, not every warp: C remote loads per block instead of 32 C (measured: every warp reading
 * made the barrier grow with C). */
static __device__ __forceinline__ __attribute__((unused)) void perks__cg_ctotal(const double *cp, int C, int nv,
                                                                                double *tot, double *t)
{
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        double2 c01 = make_double2(0, 0), c23 = make_double2(0, 0);
        if (lane < C) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            const double2 *r = (const double2 *)__cluster_map_shared_rank((const void *)cp, (unsigned)lane);
#else
            const double2 *r = (const double2 *)cp;
#endif
            c01 = r[0];
            if (nv > 2) c23 = r[1];
        }
        for (int o = 16; o > 0; o >>= 1) {
            c01.x += __shfl_xor_sync(0xffffffffu, c01.x, o);
            c01.y += __shfl_xor_sync(0xffffffffu, c01.y, o);
            if (nv > 2) {
                c23.x += __shfl_xor_sync(0xffffffffu, c23.x, o);
                c23.y += __shfl_xor_sync(0xffffffffu, c23.y, o);
            }
        }
        if (lane == 0) tot[0] = c01.x, tot[1] = c01.y, tot[2] = c23.x, tot[3] = c23.y;
    }
    __syncthreads();
    t[0] = tot[0];
    t[1] = tot[1];
    t[2] = tot[2];
    t[3] = tot[3];
}


/* the cluster kernel's body: the real one where the device code is built for sm_90 or newer (and
 * in the host pass), a stub that reports PERKS_EUNSUPPORTED otherwise (the planner does not launch
 * it there: it reads the kernel's PTX version first) */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define PERKS__CG_CLUSTER_ARCH_BODY(T)                                                              \
    if (blockIdx.x == 0 && threadIdx.x == 0) {                                                       \
        a.out->status = PERKS_EUNSUPPORTED;                                                          \
        a.out->iterations = 0;                                                                       \
        a.out->repl = 0;                                                                             \
        a.out->rr = 0;                                                                               \
        a.out->bb = 0;                                                                               \
    }
#else
#define PERKS__CG_CLUSTER_ARCH_BODY(T) PERKS__CG_CLUSTER_BODY(T)
#endif

/* the ROWDONE bodies, expanded inside the kernels (they use their locals; perks__cg_T is T) */
#define PERKS__CG_ROW_PRO(lr, i, s, d)                                                                        \
    sr[lr] = B[i] - (s);                                                                                      \
    if (a.jacobi) sd[lr] = (perks__cg_T)1 / (d);                                                              \
    if (a.cache >= 1 || !a.use_x0) sx[lr] = a.use_x0 ? gX[lr] : (perks__cg_T)0;

#define PERKS__CG_ROW_A(lr, i, s, d)                                                                          \
    {                                                                                                         \
        const perks__cg_T zi = a.cache >= 1 ? (a.jacobi ? sd[lr] * sr[lr] : sr[lr]) : __ldcg(Z + (i));        \
        const perks__cg_T pn = fma(beta, a.cache >= 1 ? sp[lr] : __ldcg(Pold + (i)), zi);                     \
        Pnew[i] = pn;                                                                                         \
        if (a.cache >= 1) sp[lr] = pn;                                                                        \
        sq[lr] = (s);                                                                                         \
        ppq += (double)pn * (s);                                                                              \
    }

/* cluster kernel: the prologue row (x from x0 in device memory) and phase A's row */
#define PERKS__CG_ROW_CPRO(lr, i, s, d)                                                                       \
    sr[lr] = B[i] - (s);                                                                                      \
    if (a.jacobi) sd[lr] = (perks__cg_T)1 / (d);                                                              \
    sx[lr] = a.use_x0 ? ((const perks__cg_T *)a.x)[i] : (perks__cg_T)0;

#define PERKS__CG_ROW_CA(lr, i, s, d)                                                                         \
    {                                                                                                         \
        const perks__cg_T pn = fma(beta, ZPc[2 * (lr) + 1], ZPc[2 * (lr)]);                                   \
        ZPn[2 * (lr) + 1] = pn;                                                                               \
        sq[lr] = (s);                                                                                         \
        ppq += (double)pn * (s);                                                                              \
    }

/* grid kernel: the block sums of v0..v2 published to the grid (barrier per a.bmode); the totals
 * into t0, t1, t2 in every thread */
#define PERKS__CG_REDUCE(v0, v1, v2, nv, slot)                                                                \
    {                                                                                                         \
        double s0_ = 0, s1_ = 0, s2_ = 0;                                                                     \
        perks__cg_block_reduce((v0), (v1), (v2), red, &s0_, &s1_, &s2_);                                      \
        if (a.bmode == PERKS_CG_BAR_FLAG) {                                                                   \
            perks_flag_sum(a.flag, G, fb++, (nv), s0_, s1_, s2_, fred, &t0, &t1, &t2);                        \
        } else {                                                                                              \
            if (threadIdx.x == 0) {                                                                           \
                a.part[(slot) * G + blockIdx.x] = s0_;                                                        \
                if ((nv) > 1) a.part[((slot) + 1) * G + blockIdx.x] = s1_;                                    \
                if ((nv) > 2) a.part[((slot) + 2) * G + blockIdx.x] = s2_;                                    \
            }                                                                                                 \
            if (a.bmode == PERKS_CG_BAR_SUM) perks_sum_barrier(a.bar, a.part, (slot), (nv), G, tot);          \
            else {                                                                                            \
                ++fb;                                                                                         \
                if (a.bmode != PERKS_CG_BAR_COUNT) PERKS_GRID_SYNC();                                         \
                else if (threadIdx.x < 32) perks_count_arrive_wait(PERKS__CG_CNT(a), (unsigned int)G * fb);   \
                perks__cg_grid_total(a.part, (slot), (nv), G, tot);                                           \
            }                                                                                                 \
            t0 = tot[0];                                                                                      \
            t1 = tot[1];                                                                                      \
            t2 = tot[2];                                                                                      \
        }                                                                                                     \
    }

/* cluster kernel: the block sums of v0..v2 into cpart[slot] (shared), cluster barrier, totals */
#define PERKS__CG_CREDUCE(v0, v1, v2, nv, slot)                                                               \
    {                                                                                                         \
        double s0_ = 0, s1_ = 0, s2_ = 0;                                                                     \
        perks__cg_block_reduce((v0), (v1), (v2), red, &s0_, &s1_, &s2_);                                      \
        if (threadIdx.x == 0) {                                                                               \
            cpart[slot][0] = s0_;                                                                             \
            cpart[slot][1] = s1_;                                                                             \
            cpart[slot][2] = s2_;                                                                             \
        }                                                                                                     \
        perks__cg_cluster_sync();                                                                             \
        perks__cg_ctotal(cpart[slot], C, (nv), ctot, tt);                                                           \
    }

/* cache tier 2 (both grid kernels): the block's slice of the matrix (values, columns, row pointers)
 * into shared memory from base on; VA, CI, RP point there afterwards */
#define PERKS__CG_STAGE_MATRIX(T, BLOCK, base)                                                               \
    if (a.cache >= 2) {                                                                                      \
        T *sv = (base);                                                                                      \
        int *sc = (int *)(sv + (k1 - k0)), *srp = sc + (k1 - k0);                                            \
        for (int k = threadIdx.x; k < k1 - k0; k += (BLOCK)) {                                               \
            sv[k] = VA[k];                                                                                   \
            sc[k] = __ldg(CI + k);                                                                           \
        }                                                                                                    \
        for (int k = threadIdx.x; k <= nr; k += (BLOCK)) srp[k] = __ldg(RP + k);                             \
        VA = sv;                                                                                             \
        CI = sc;                                                                                             \
        RP = srp;                                                                                            \
        __syncthreads();                                                                                     \
    }

/* the grid kernel (one cooperative launch of G blocks) */
/* grid kernel, setup: the block's rows, its pointers, the cache tiers in shared memory */
#define PERKS__CG_GRID_SETUP(T, BLOCK)                                                                       \
    typedef T perks__cg_T;                                                                                   \
    extern __shared__ double perks__cg_dyn[];                                                                \
    __shared__ double red[(BLOCK) / 32][3];                                                                  \
    __shared__ double fred[(BLOCK) / 32][PERKS_FLAG_NV];                                                     \
    __shared__ double tot[4];                                                                                \
    const int G = gridDim.x, W = a.sub, S = (BLOCK) / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1);   \
    const int r0 = a.split[blockIdx.x], r1 = a.split[blockIdx.x + 1], nr = r1 - r0;                          \
    const int k0 = __ldg(a.rp + r0), k1 = __ldg(a.rp + r1);                                                  \
    const int rounds = (nr + S - 1) / S;                                                                     \
    const int mplain = a.cache >= 2;                                                                         \
    unsigned int fb = 0;                                                                                     \
    double t0 = 0, t1 = 0, t2 = 0;                                                                           \
    T *gX = (T *)a.x + r0, *gR = (T *)a.r + r0, *gQ = (T *)a.q + r0, *gD = (T *)a.dinv + r0;                 \
    T *sx = gX, *sr = gR, *sq = gQ, *sd = gD, *sp = NULL;                                                    \
    const int *RP = a.rp + r0;                                                                               \
    const T *VA = (const T *)a.va + k0;                                                                      \
    const int *CI = a.ci + k0;                                                                               \
    const T *B = (const T *)a.b;                                                                             \
    const T *Z = (const T *)(a.jacobi ? a.z : a.r);                                                          \
    T *Pold = (T *)a.p0, *Pnew = (T *)a.p1;                                                                  \
    if (a.cache >= 1) {                                                                                      \
        sx = (T *)perks__cg_dyn;                                                                             \
        sr = sx + nr;                                                                                        \
        sq = sr + nr;                                                                                        \
        sp = sq + nr;                                                                                        \
        sd = sp + nr;                                                                                        \
    }                                                                                                        \
    PERKS__CG_STAGE_MATRIX(T, BLOCK, sd + (a.jacobi ? nr : 0))

/* grid kernel, prologue: r = b - A x0, z, p_old = 0, the first dot products, the replacement state */
#define PERKS__CG_GRID_PROLOGUE(T, BLOCK)                                                                    \
    /* prologue: r = b - A x0, the diagonal, z, p_old = 0; partials r.r, r.z, b.b, bad */                    \
    double prr = 0, prz = 0, pbb = 0, pbad = 0;                                                              \
    _Pragma("unroll 1") PERKS__CG_SPMV(T, a.use_x0 ? __ldcg((const T *)a.x + (j)) : (T)0, PERKS__CG_ROW_PRO) \
    __syncthreads();                                                                                         \
    for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) {                                                     \
        const int i = r0 + lr;                                                                               \
        const T rv = sr[lr], zv = a.jacobi ? sd[lr] * rv : rv, bv = B[i];                                    \
        if (a.jacobi) ((T *)a.z)[i] = zv;                                                                    \
        if (a.cache >= 1) gR[lr] = rv;                                                                       \
        Pold[i] = 0;                                                                                         \
        if (a.cache >= 1) sp[lr] = 0;                                                                        \
        prr += (double)rv * rv;                                                                              \
        prz += (double)rv * zv;                                                                              \
        pbb += (double)bv * bv;                                                                              \
    }                                                                                                        \
    for (int lr = threadIdx.x; lr < nr; lr += (BLOCK))                                                       \
        if (a.jacobi && !(sd[lr] > 0 && isfinite(sd[lr]))) pbad += 1;                                        \
    double rr, rz, bb, bad;                                                                                  \
    {                                                                                                        \
        double s0_ = 0, s1_ = 0, s2_ = 0, u0_ = 0, u1_ = 0, u2_ = 0;                                         \
        perks__cg_block_reduce(prr, prz, pbb, red, &s0_, &s1_, &s2_);                                        \
        __syncthreads();                                                                                     \
        perks__cg_block_reduce(pbad, 0, 0, red, &u0_, &u1_, &u2_);                                           \
        if (a.bmode == PERKS_CG_BAR_FLAG) {                                                                  \
            perks_flag_sum(a.flag, G, fb++, 3, s0_, s1_, s2_, fred, &rr, &rz, &bb);                          \
            __syncthreads(); /* fred is reused by the next call */                                           \
            perks_flag_sum(a.flag, G, fb++, 1, u0_, 0, 0, fred, &bad, &t1, &t2);                             \
        } else {                                                                                             \
            if (threadIdx.x == 0) {                                                                          \
                a.part[1 * G + blockIdx.x] = s0_;                                                            \
                a.part[2 * G + blockIdx.x] = s1_;                                                            \
                a.part[3 * G + blockIdx.x] = s2_;                                                            \
                a.part[4 * G + blockIdx.x] = u0_;                                                            \
            }                                                                                                \
            if (a.bmode == PERKS_CG_BAR_SUM) perks_sum_barrier(a.bar, a.part, 1, 4, G, tot);                 \
            else {                                                                                           \
                ++fb;                                                                                        \
                if (a.bmode != PERKS_CG_BAR_COUNT) PERKS_GRID_SYNC();                                        \
                else if (threadIdx.x < 32) perks_count_arrive_wait(PERKS__CG_CNT(a), (unsigned int)G * fb);  \
                perks__cg_grid_total(a.part, 1, 4, G, tot);                                                  \
            }                                                                                                \
            rr = tot[0];                                                                                     \
            rz = tot[1];                                                                                     \
            bb = tot[2];                                                                                     \
            bad = tot[3];                                                                                    \
        }                                                                                                    \
    }                                                                                                        \
    const double thr = a.tol * a.tol * bb;                                                                   \
    int status = bad > 0 ? PERKS_EDIAG : PERKS_SUCCESS, it = 0;                                              \
    PERKS__CG_REPL_STATE                                                                                     \
    T beta = 0;

/* grid kernel, phase A of a step: q = A p (or publishing x for a replacement), p.q, alpha */
#define PERKS__CG_GRID_PHASE_A(T, BLOCK)                                                                     \
    /* a step is a CG iteration or a residual replacement (repl: 1 periodic, 2 the recurrence met tol),      \
     * through the same two reductions (slot 0, then slots 1-2) */                                           \
    PERKS__CG_STEP_HEAD()                                                                                    \
    /* phase A: q = A (z + beta p_old), p_new = z + beta p_old, partial p.q; a replacement                   \
     * publishes x instead (cached tiers hold it in shared memory) */                                        \
    double ppq = 0;                                                                                          \
    if (repl) {                                                                                              \
        if (PERKS__CG_HI(a.x_hi)) /* mixed: the correction into x_hi, then from zero again */                \
            for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) {                                             \
                PERKS__CG_HI(a.x_hi)[r0 + lr] += (double)sx[lr];                                             \
                sx[lr] = 0;                                                                                  \
            }                                                                                                \
        else if (a.cache >= 1)                                                                               \
            for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) gX[lr] = sx[lr];                              \
    } else {                                                                                                 \
        _Pragma("unroll 1") PERKS__CG_SPMV(T, fma(beta, __ldcg(Pold + (j)), __ldcg(Z + (j))), PERKS__CG_ROW_A) \
    }                                                                                                        \
    __syncthreads();                                                                                         \
    PERKS__CG_REDUCE(ppq, 0, 0, 1, 0);                                                                       \
    repl = PERKS__CG_WANT_REPLACE(); /* again: not held in a register across the SpMV */                     \
    const double pq = t0;                                                                                    \
    if (!repl && !(pq > 0)) {                                                                                \
        status = PERKS_EBREAKDOWN;                                                                           \
        break;                                                                                               \
    }                                                                                                        \
    const T alpha = repl ? (T)0 : (T)(rz / pq);

/* grid kernel, phase B of a step: x, r, z updated (or r = b - A x), r.r and r.z, beta */
#define PERKS__CG_GRID_PHASE_B(T, BLOCK)                                                                     \
    /* phase B: x += alpha p, r -= alpha q, z = D^-1 r; partials r.r, r.z; a replacement                     \
     * computes r = b - A x (sums in double) instead */                                                      \
    double qrr = 0, qrz = 0;                                                                                 \
    if (repl) {                                                                                              \
        _Pragma("unroll 1") PERKS__CG_RROWS(PERKS__CG_HI(a.va_hi) ? __ldg(PERKS__CG_HI(a.va_hi) + (k)) : (double)VA[(k) - k0], \
                                        PERKS__CG_HI(a.x_hi) ? __ldcg(PERKS__CG_HI(a.x_hi) + (j)) : (double)__ldcg((const T *)a.x + (j)), \
                                        PERKS__CG_ROW_RR)                                                    \
        __syncthreads();                                                                                     \
    } else {                                                                                                 \
        _Pragma("unroll 4") for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) {                             \
            const int i = r0 + lr;                                                                           \
            const T pv = a.cache >= 1 ? sp[lr] : __ldcg(Pnew + i);                                           \
            sx[lr] += alpha * pv;                                                                            \
            const T rv = sr[lr] - alpha * sq[lr];                                                            \
            sr[lr] = rv;                                                                                     \
            if (a.cache >= 1) gR[lr] = rv;                                                                   \
            T zv = rv;                                                                                       \
            if (a.jacobi) {                                                                                  \
                zv = sd[lr] * rv;                                                                            \
                ((T *)a.z)[i] = zv;                                                                          \
            }                                                                                                \
            qrr += (double)rv * rv;                                                                          \
            qrz += (double)rv * zv;                                                                          \
        }                                                                                                    \
    }                                                                                                        \
    PERKS__CG_REDUCE(qrr, qrz, 0, 2, 1);                                                                     \
    PERKS__CG_STEP_TAIL(T, t0, t1)                                                                           \
    PERKS_SWAP(T, Pold, Pnew);

/* grid kernel, the end: x out of the cache, the result */
#define PERKS__CG_GRID_FINISH(T, BLOCK)                                                                      \
    PERKS__CG_RESTORE_BEST()                                                                                 \
    if (a.cache >= 1)                                                                                        \
        for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) gX[lr] = sx[lr];                                  \
    if (PERKS__CG_HI(a.x_hi)) /* mixed: what the correction holds since the last replacement */              \
        for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) PERKS__CG_HI(a.x_hi)[r0 + lr] += (double)sx[lr];  \
    if (blockIdx.x == 0 && threadIdx.x == 0) {                                                               \
        a.out->status = status;                                                                              \
        a.out->iterations = it;                                                                              \
        a.out->repl = rs[2];                                                                                 \
        a.out->rr = rr;                                                                                      \
        a.out->bb = bb;                                                                                      \
    }

#define PERKS__CG_GRID_KERNEL(name, T, BLOCK)                                                                 \
    __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name##_kernel(perks_cg_kargs a)           \
    {                                                                                                         \
        PERKS__CG_GRID_SETUP(T, BLOCK)                                                                       \
        PERKS__CG_GRID_PROLOGUE(T, BLOCK)                                                                    \
        _Pragma("unroll 1") while (status == PERKS_SUCCESS) {                                                 \
            PERKS__CG_GRID_PHASE_A(T, BLOCK)                                                                 \
            PERKS__CG_GRID_PHASE_B(T, BLOCK)                                                                 \
        }                                                                                                     \
        PERKS__CG_GRID_FINISH(T, BLOCK)                                                                      \
    }

/* the Chronopoulos-Gear grid kernel name_kernel1 (opts.variant = PERKS_CG_CGEAR): one grid barrier
 * per iteration.  Device memory: two buffers of (r, w, s, d) quads per row (a phase reads one and
 * writes the other), p (cached = 0) and x.  Shared memory (cached >= 1): the block's quads [nr][4],
 * x [nr], p [nr]; (cached = 2) then the matrix slice.  u = d r with d = 1 / a_ii (Jacobi) or 1.
 *   prologue  r = b - A x0, d, w = s = p = 0; partials b.b, bad diagonals, r.r            barrier
 *             the pass below with alpha = beta = 0: w = A u, gamma = r.u, delta = w.u     barrier
 *   loop      stop if rr <= tol^2 b.b; ENOCONV at max_iter
 *             beta = gamma / gamma_old (0 first), den = delta - beta gamma / alpha_old (delta
 *             first: (p, A p) in exact arithmetic); den <= 0 or NaN -> PERKS_EBREAKDOWN;
 *             alpha = gamma / den
 *     pass    own rows: p = u + beta p, x += alpha p, s = w + beta s, r -= alpha s, u = d r
 *             w = A u (u_j recomputed by the reader from row j's old quad: perks__cg1_u)
 *             partials r.u, w.u, r.r                                                       barrier
 * Partials alternate between two sets of 3 slots (a block may publish the next barrier's partials
 * while a slower one still reads the last's). */
#define PERKS__CG1_ROW_PRO(lr, i, s, d)                                                                       \
    {                                                                                                         \
        const perks__cg_T rv_ = B[i] - (s), dv_ = a.jacobi ? (perks__cg_T)1 / (d) : (perks__cg_T)1;            \
        perks__cg_T *qo_ = QO + 4 * (size_t)(i), *qn_ = QN + 4 * (size_t)(i);                                  \
        qo_[0] = rv_;                                                                                         \
        qo_[1] = 0;                                                                                           \
        qo_[2] = 0;                                                                                           \
        qo_[3] = dv_;                                                                                         \
        qn_[3] = dv_;                                                                                         \
        if (a.cache >= 1) {                                                                                   \
            sQ[4 * (lr)] = rv_;                                                                               \
            sQ[4 * (lr) + 1] = 0;                                                                             \
            sQ[4 * (lr) + 2] = 0;                                                                             \
            sQ[4 * (lr) + 3] = dv_;                                                                           \
        }                                                                                                     \
        if (a.cache >= 1 || !a.use_x0) sx[lr] = a.use_x0 ? gX[lr] : (perks__cg_T)0;                           \
        sp[lr] = 0;                                                                                           \
        pbb += (double)B[i] * B[i];                                                                           \
        prr += (double)rv_ * rv_;                                                                             \
        if (a.jacobi && !(dv_ > 0 && isfinite(dv_))) pbad += 1;                                               \
    }

#define PERKS__CG1_ROW_W(lr, i, s, d)                                                                         \
    {                                                                                                         \
        perks__cg_T *qn_ = QN + 4 * (size_t)(i);                                                               \
        qn_[1] = (s);                                                                                         \
        const perks__cg_T rn_ = a.cache >= 1 ? sQ[4 * (lr)] : __ldcg(qn_);                                     \
        const perks__cg_T dn_ = a.cache >= 1 ? sQ[4 * (lr) + 3] : __ldcg(qn_ + 3);                             \
        if (a.cache >= 1) sQ[4 * (lr) + 1] = (s);                                                             \
        pd += (double)(s) * (a.jacobi ? dn_ * rn_ : rn_);                                                     \
    }

#define PERKS__CG1_REDUCE(v0, v1, v2, nv)                                                                     \
    {                                                                                                         \
        double s0_ = 0, s1_ = 0, s2_ = 0;                                                                     \
        perks__cg_block_reduce((v0), (v1), (v2), red, &s0_, &s1_, &s2_);                                      \
        const int ps_ = (int)(nbar++ & 1u) * 3;                                                               \
        if (threadIdx.x == 0) {                                                                               \
            a.part[ps_ * G + blockIdx.x] = s0_;                                                               \
            if ((nv) > 1) a.part[(ps_ + 1) * G + blockIdx.x] = s1_;                                           \
            if ((nv) > 2) a.part[(ps_ + 2) * G + blockIdx.x] = s2_;                                           \
        }                                                                                                     \
        if (a.bmode != PERKS_CG_BAR_COUNT) PERKS_GRID_SYNC();                                                 \
        else if (threadIdx.x < 32) perks_count_arrive_wait(PERKS__CG_CNT(a), (unsigned int)G * nbar);         \
        perks__cg_grid_total(a.part, ps_, (nv), G, tot);                                                      \
        t0 = tot[0];                                                                                          \
        t1 = tot[1];                                                                                          \
        t2 = tot[2];                                                                                          \
    }

/* Chronopoulos-Gear kernel, setup: rows, pointers, the cache tiers */
#define PERKS__CG_GRID1_SETUP(T, BLOCK)                                                                      \
    typedef T perks__cg_T;                                                                                   \
    extern __shared__ __align__(16) double perks__cg_dyn1[];                                                 \
    __shared__ double red[(BLOCK) / 32][3];                                                                  \
    __shared__ double tot[4];                                                                                \
    const int G = gridDim.x, W = a.sub, S = (BLOCK) / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1);   \
    const int r0 = a.split[blockIdx.x], r1 = a.split[blockIdx.x + 1], nr = r1 - r0;                          \
    const int k0 = __ldg(a.rp + r0), k1 = __ldg(a.rp + r1);                                                  \
    const int rounds = (nr + S - 1) / S;                                                                     \
    const int mplain = a.cache >= 2;                                                                         \
    unsigned int nbar = 0;                                                                                   \
    double t0 = 0, t1 = 0, t2 = 0;                                                                           \
    T *gX = (T *)a.x + r0, *sx = gX, *sp = (T *)a.p0 + r0, *sQ = NULL;                                       \
    T *QO = (T *)a.r, *QN = (T *)a.z;                                                                        \
    const int *RP = a.rp + r0;                                                                               \
    const T *VA = (const T *)a.va + k0;                                                                      \
    const int *CI = a.ci + k0;                                                                               \
    const T *B = (const T *)a.b;                                                                             \
    if (a.cache >= 1) {                                                                                      \
        sQ = (T *)perks__cg_dyn1;                                                                            \
        sx = sQ + 4 * nr;                                                                                    \
        sp = sx + nr;                                                                                        \
    }                                                                                                        \
    PERKS__CG_STAGE_MATRIX(T, BLOCK, sp + nr)

/* Chronopoulos-Gear kernel, prologue: r = b - A x0, d, the first dot products */
#define PERKS__CG_GRID1_PROLOGUE(T, BLOCK)                                                                   \
    /* prologue: r = b - A x0, d, w = s = p = 0 into both the cache and the quads */                         \
    {                                                                                                        \
        double pbb = 0, pbad = 0, prr = 0;                                                                   \
        _Pragma("unroll 1") PERKS__CG_SPMV(T, a.use_x0 ? __ldcg((const T *)a.x + (j)) : (T)0, PERKS__CG1_ROW_PRO) \
        __syncthreads();                                                                                     \
        PERKS__CG1_REDUCE(pbb, pbad, prr, 3);                                                                \
    }                                                                                                        \
    const double bb = t0, thr = a.tol * a.tol * bb;                                                          \
    double rr = t2, g = 0, dl = 0, gprev = 0, aprev = 0, al = 0, bt = 0;                                     \
    int status = t1 > 0 ? PERKS_EDIAG : PERKS_SUCCESS, it = -1;

/* Chronopoulos-Gear kernel: the stopping tests, alpha and beta of the step */
#define PERKS__CG_GRID1_COEF(T, BLOCK)                                                                       \
    if (it >= 0) {                                                                                           \
        if (rr <= thr) break;                                                                                \
        if (it >= a.max_iter) {                                                                              \
            status = PERKS_ENOCONV;                                                                          \
            break;                                                                                           \
        }                                                                                                    \
        bt = it ? g / gprev : 0.0;                                                                           \
        const double den = it ? dl - bt * g / aprev : dl;                                                    \
        if (!(den > 0)) {                                                                                    \
            status = PERKS_EBREAKDOWN;                                                                       \
            break;                                                                                           \
        }                                                                                                    \
        al = g / den;                                                                                        \
    }                                                                                                        \
    const T alpha = (T)al, beta = (T)bt;

/* Chronopoulos-Gear kernel: the pass over the own rows (p, x, r, s; partials) */
#define PERKS__CG_GRID1_ROWS(T, BLOCK)                                                                       \
    double pg = 0, pd = 0, prr = 0;                                                                          \
    _Pragma("unroll 2") for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) {                                 \
        const int i = r0 + lr;                                                                               \
        const T *q_ = a.cache >= 1 ? sQ + 4 * lr : QO + 4 * (size_t)i;                                       \
        const T rv = a.cache >= 1 ? q_[0] : __ldcg(q_), wv = a.cache >= 1 ? q_[1] : __ldcg(q_ + 1);          \
        const T so = a.cache >= 1 ? q_[2] : __ldcg(q_ + 2), dv = a.cache >= 1 ? q_[3] : __ldcg(q_ + 3);      \
        const T uc = a.jacobi ? dv * rv : rv;                                                                \
        const T pv = fma(beta, sp[lr], uc);                                                                  \
        sp[lr] = pv;                                                                                         \
        sx[lr] += alpha * pv;                                                                                \
        T sv;                                                                                                \
        const T rn = perks__cg1_step(rv, wv, so, alpha, beta, &sv);                                          \
        const T un = a.jacobi ? dv * rn : rn;                                                                \
        T *qn = QN + 4 * (size_t)i;                                                                          \
        qn[0] = rn;                                                                                          \
        qn[2] = sv;                                                                                          \
        if (a.cache >= 1) {                                                                                  \
            sQ[4 * lr] = rn;                                                                                 \
            sQ[4 * lr + 2] = sv;                                                                             \
        }                                                                                                    \
        pg += (double)rn * un;                                                                               \
        prr += (double)rn * rn;                                                                              \
    }                                                                                                        \
    __syncthreads();

/* Chronopoulos-Gear kernel: w = A u, the one reduction of the step */
#define PERKS__CG_GRID1_SPMV(T, BLOCK)                                                                       \
    _Pragma("unroll 1") PERKS__CG_SPMV_U(T, perks__cg1_u(QO + 4 * (size_t)(j), alpha, beta, a.jacobi),       \
                                         PERKS__CG1_ROW_W, PERKS_CG1_UNROLL)                                 \
    PERKS__CG1_REDUCE(pg, pd, prr, 3);                                                                       \
    gprev = g;                                                                                               \
    aprev = al;                                                                                              \
    g = t0;                                                                                                  \
    dl = t1;                                                                                                 \
    rr = t2;                                                                                                 \
    ++it;                                                                                                    \
    PERKS_SWAP(T, QO, QN);

/* Chronopoulos-Gear kernel, the end: x out of the cache, the result */
#define PERKS__CG_GRID1_FINISH(T, BLOCK)                                                                     \
    if (it < 0) it = 0;                                                                                      \
    if (a.cache >= 1)                                                                                        \
        for (int lr = threadIdx.x; lr < nr; lr += (BLOCK)) gX[lr] = sx[lr];                                  \
    if (blockIdx.x == 0 && threadIdx.x == 0) {                                                               \
        a.out->status = status;                                                                              \
        a.out->iterations = it;                                                                              \
        a.out->repl = 0;                                                                                     \
        a.out->rr = rr;                                                                                      \
        a.out->bb = bb;                                                                                      \
    }

#define PERKS__CG_GRID1_KERNEL(name, T, BLOCK)                                                                \
    __global__ void __launch_bounds__(BLOCK, PERKS__CG_MINB(BLOCK)) name##_kernel1(perks_cg_kargs a)          \
    {                                                                                                         \
        PERKS__CG_GRID1_SETUP(T, BLOCK)                                                                      \
        PERKS__CG_GRID1_PROLOGUE(T, BLOCK)                                                                   \
        /* it = -1: the pass with alpha = beta = 0 that makes w = A u and the first dot products */           \
        _Pragma("unroll 1") while (status == PERKS_SUCCESS) {                                                 \
            PERKS__CG_GRID1_COEF(T, BLOCK)                                                                   \
            PERKS__CG_GRID1_ROWS(T, BLOCK)                                                                   \
            PERKS__CG_GRID1_SPMV(T, BLOCK)                                                                   \
        }                                                                                                     \
        PERKS__CG_GRID1_FINISH(T, BLOCK)                                                                     \
    }

/* the cluster kernel: one cluster of gridDim.x <= 16 blocks of PERKS_CG_CBLOCK threads; shared
 * memory (16-byte aligned, the same offsets in every block): (z, p) pairs [2][2 nrmax] T, then
 * x, q, r (, D^-1) [nr] T, then (cached = 2) values [nnz_b] T, encoded columns [nnz_b] int, row
 * pointers [nr + 1] int */
/* cluster kernel, setup: the block's rows, shared-memory layout, pointers */
#define PERKS__CG_CLUSTER_SETUP(T)                                                                           \
    typedef T perks__cg_T;                                                                                   \
    extern __shared__ __align__(16) double perks__cg_cdyn[];                                                 \
    __shared__ double red[PERKS_CG_CBLOCK / 32][3];                                                          \
    __shared__ __align__(16) double cpart[2][4];                                                             \
    __shared__ double ctot[4];                                                                               \
    __shared__ int csplit[PERKS_CG_CMAX + 1];                                                                \
    const int C = gridDim.x, W = a.sub, S = PERKS_CG_CBLOCK / W, sw = threadIdx.x / W, sl = threadIdx.x & (W - 1); \
    if (threadIdx.x <= C) csplit[threadIdx.x] = a.split[threadIdx.x];                                        \
    __syncthreads();                                                                                         \
    const int r0 = csplit[blockIdx.x], r1 = csplit[blockIdx.x + 1], nr = r1 - r0;                            \
    const int k0 = __ldg(a.rp + r0), k1 = __ldg(a.rp + r1), nk = k1 - k0;                                    \
    const int rounds = (nr + S - 1) / S;                                                                     \
    int mplain = 0;                                                                                          \
    double tt[4] = {0, 0, 0, 0};                                                                             \
    T *ZPc = (T *)perks__cg_cdyn, *ZPn = ZPc + 2 * a.nrmax;                                                  \
    T *sx = ZPn + 2 * a.nrmax, *sq = sx + nr, *sr = sq + nr, *sd = sr + nr;                                  \
    T *gX = (T *)a.x + r0;                                                                                   \
    const T *B = (const T *)a.b;                                                                             \
    const int *RP = a.rp + r0;                                                                               \
    const T *VA = (const T *)a.va + k0;                                                                      \
    const int *CI = a.ci + k0;                                                                               \
    (void)gX;

/* cluster kernel, prologue: the matrix slice into shared memory, r = b - A x0, first dot products */
#define PERKS__CG_CLUSTER_PROLOGUE(T)                                                                        \
    /* prologue: r = b - A x0 (matrix and x0 from device memory), the diagonal */                            \
    {                                                                                                        \
        double prr = 0, prz = 0, pbb = 0, pbad = 0;                                                          \
        _Pragma("unroll 1") PERKS__CG_SPMV(T, a.use_x0 ? __ldcg((const T *)a.x + (j)) : (T)0, PERKS__CG_ROW_CPRO) \
        /* the columns as (block rank << 24 | local row); the matrix slice into shared memory */             \
        {                                                                                                    \
            T *mv = sd + (a.jacobi ? nr : 0);                                                                \
            int *ce = a.cache >= 2 ? (int *)(mv + nk) : a.cenc + k0, *mrp = (int *)(mv + nk) + nk;           \
            for (int k = threadIdx.x; k < nk; k += PERKS_CG_CBLOCK) {                                        \
                const int j = __ldg(CI + k);                                                                 \
                int rk = 0;                                                                                  \
                while (rk + 1 < C && j >= csplit[rk + 1]) ++rk;                                              \
                ce[k] = (rk << 24) | (j - csplit[rk]);                                                       \
                if (a.cache >= 2) mv[k] = __ldg(VA + k);                                                     \
            }                                                                                                \
            if (a.cache >= 2) {                                                                              \
                for (int k = threadIdx.x; k <= nr; k += PERKS_CG_CBLOCK) mrp[k] = __ldg(RP + k);             \
                VA = mv;                                                                                     \
                RP = mrp;                                                                                    \
            }                                                                                                \
            CI = ce;                                                                                         \
            mplain = a.cache >= 2;                                                                           \
        }                                                                                                    \
        __syncthreads();                                                                                     \
        for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) {                                         \
            const T rv = sr[lr], zv = a.jacobi ? sd[lr] * rv : rv, bv = B[r0 + lr];                          \
            ZPc[2 * lr] = zv;                                                                                \
            ZPc[2 * lr + 1] = 0;                                                                             \
            prr += (double)rv * rv;                                                                          \
            prz += (double)rv * zv;                                                                          \
            pbb += (double)bv * bv;                                                                          \
            if (a.jacobi && !(sd[lr] > 0 && isfinite(sd[lr]))) pbad += 1;                                    \
        }                                                                                                    \
        double s0_ = 0, s1_ = 0, s2_ = 0, u0_ = 0, u1_ = 0, u2_ = 0;                                         \
        perks__cg_block_reduce(prr, prz, pbb, red, &s0_, &s1_, &s2_);                                        \
        __syncthreads();                                                                                     \
        perks__cg_block_reduce(pbad, 0, 0, red, &u0_, &u1_, &u2_);                                           \
        if (threadIdx.x == 0) {                                                                              \
            cpart[1][0] = s0_;                                                                               \
            cpart[1][1] = s1_;                                                                               \
            cpart[1][2] = s2_;                                                                               \
            cpart[1][3] = u0_;                                                                               \
        }                                                                                                    \
        perks__cg_cluster_sync();                                                                            \
        perks__cg_ctotal(cpart[1], C, 4, ctot, tt);                                                          \
    }                                                                                                        \
    double rr = tt[0], rz = tt[1];                                                                           \
    const double bb = tt[2], thr = a.tol * a.tol * bb;                                                       \
    int status = tt[3] > 0 ? PERKS_EDIAG : PERKS_SUCCESS, it = 0;                                            \
    PERKS__CG_REPL_STATE                                                                                     \
    T beta = 0;

/* cluster kernel, phase A: q = A p through DSMEM (or x for a replacement), p.q, alpha */
#define PERKS__CG_CLUSTER_PHASE_A(T)                                                                         \
    /* a CG iteration or a residual replacement (as in the grid kernel) */                                   \
    PERKS__CG_STEP_HEAD()                                                                                    \
    /* phase A: q = A (z + beta p), p' = z + beta p (the pairs of every block, through                       \
     * distributed shared memory); partial p'.q.  A replacement puts (x, 0) into the free pairs. */          \
    double ppq = 0;                                                                                          \
    if (repl) {                                                                                              \
        for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) {                                         \
            ZPn[2 * lr] = sx[lr];                                                                            \
            ZPn[2 * lr + 1] = 0;                                                                             \
        }                                                                                                    \
    } else {                                                                                                 \
        _Pragma("unroll 1") PERKS__CG_SPMV(T, perks__cg_cgather(ZPc, (j), beta), PERKS__CG_ROW_CA)           \
    }                                                                                                        \
    PERKS__CG_CREDUCE(ppq, 0, 0, 1, 0);                                                                      \
    const double pq = tt[0];                                                                                 \
    if (!repl && !(pq > 0)) {                                                                                \
        status = PERKS_EBREAKDOWN;                                                                           \
        break;                                                                                               \
    }                                                                                                        \
    const T alpha = repl ? (T)0 : (T)(rz / pq);

/* cluster kernel, phase B: x, r, z (or r = b - A x), r.r, r.z, beta */
#define PERKS__CG_CLUSTER_PHASE_B(T)                                                                         \
    /* phase B: x += alpha p', r -= alpha q, z = D^-1 r into the pairs; partials r.r, r.z.  A                \
     * replacement gathers x (beta 0: exactly x) and computes r = b - A x in double. */                      \
    double qrr = 0, qrz = 0;                                                                                 \
    if (repl) {                                                                                              \
        _Pragma("unroll 1") PERKS__CG_RROWS(VA[(k) - k0], perks__cg_cgather(ZPn, (j), (T)0), PERKS__CG_ROW_CRR) \
    } else {                                                                                                 \
        for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) {                                         \
            sx[lr] += alpha * ZPn[2 * lr + 1];                                                               \
            const T rv = sr[lr] - alpha * sq[lr];                                                            \
            sr[lr] = rv;                                                                                     \
            const T zv = a.jacobi ? sd[lr] * rv : rv;                                                        \
            ZPn[2 * lr] = zv;                                                                                \
            qrr += (double)rv * rv;                                                                          \
            qrz += (double)rv * zv;                                                                          \
        }                                                                                                    \
    }                                                                                                        \
    PERKS__CG_CREDUCE(qrr, qrz, 0, 2, 1);                                                                    \
    PERKS__CG_STEP_TAIL(T, tt[0], tt[1])                                                                     \
    PERKS_SWAP(T, ZPc, ZPn);

/* cluster kernel, the end: x out, the result */
#define PERKS__CG_CLUSTER_FINISH(T)                                                                          \
    PERKS__CG_RESTORE_BEST()                                                                                 \
    for (int lr = threadIdx.x; lr < nr; lr += PERKS_CG_CBLOCK) gX[lr] = sx[lr];                              \
    if (blockIdx.x == 0 && threadIdx.x == 0) {                                                               \
        a.out->status = status;                                                                              \
        a.out->iterations = it;                                                                              \
        a.out->repl = rs[2];                                                                                 \
        a.out->rr = rr;                                                                                      \
        a.out->bb = bb;                                                                                      \
    }

#define PERKS__CG_CLUSTER_BODY(T)                                                                             \
    PERKS__CG_CLUSTER_SETUP(T)                                                                               \
    PERKS__CG_CLUSTER_PROLOGUE(T)                                                                            \
    _Pragma("unroll 1") while (status == PERKS_SUCCESS) {                                                     \
        PERKS__CG_CLUSTER_PHASE_A(T)                                                                         \
        PERKS__CG_CLUSTER_PHASE_B(T)                                                                         \
    }                                                                                                         \
    PERKS__CG_CLUSTER_FINISH(T)                                                                              \
    perks__cg_cluster_sync(); /* no block leaves while another may still read its shared memory */

#define PERKS__CG_CLUSTER_KERNEL(name, T)                                                                     \
    __global__ void __launch_bounds__(PERKS_CG_CBLOCK, 1) name##_ckernel(perks_cg_kargs a)                    \
    {                                                                                                         \
        PERKS__CG_CLUSTER_ARCH_BODY(T)                                                                        \
    }

/* PERKS_CG_DEFINE(name, T, BLOCK): the kernels name_kernel, name_ckernel and the typed name_plan /
 * name_solve */
#define PERKS_CG_DEFINE(name, T, BLOCK)                                                                       \
    PERKS__CG_GRID_KERNEL(name, T, BLOCK)                                                                     \
    PERKS__CG_GRID1_KERNEL(name, T, BLOCK)                                                                    \
    PERKS__CG_CLUSTER_KERNEL(name, T)                                                                         \
    static inline __attribute__((unused)) int name##_plan(perks_cg_plan *p, int n, long long nnz, const int *d_row_ptr, \
                                                          const int *d_col, const T *d_val, const perks_cg_opts *o) \
    {                                                                                                         \
        return perks__cg_plan_make(p, (const void *)name##_kernel, (const void *)name##_kernel1,               \
                                   (const void *)name##_ckernel, (int)sizeof(T),                              \
                                   (BLOCK), n, nnz, d_row_ptr, d_col, d_val, o);                              \
    }                                                                                                         \
    static inline __attribute__((unused)) int name##_solve(int n, long long nnz, const int *d_row_ptr, const int *d_col, \
                                                           const T *d_val, const T *d_b, T *d_x, const perks_cg_opts *o, \
                                                           perks_cg_result *res, cudaStream_t stream)         \
    {                                                                                                         \
        perks_cg_plan p;                                                                                      \
        int rc = name##_plan(&p, n, nnz, d_row_ptr, d_col, d_val, o);                                         \
        if (res) memset(res, 0, sizeof *res);                                                                 \
        if (rc) return rc;                                                                                    \
        rc = perks_cg_run(&p, d_b, d_x, stream);                                                              \
        if (!rc) rc = perks_cg_wait(&p, res);                                                                 \
        perks_cg_plan_free(&p);                                                                               \
        return rc;                                                                                            \
    }


/* ---- the true residual (after every solve) and the mixed-precision helpers ------------------- */

#define PERKS_CG_RESID_BLOCKS 264 /* blocks of perks__cg_resid_kernel; the host adds their partials in order */
#define PERKS_CG_RESID_THREADS 256

/* element k of a float (elt 4) or double (elt 8) array, as double */
static __device__ __forceinline__ double perks__cg_ld(const void *v, long long k, int elt)
{
    return elt == 8 ? __ldg((const double *)v + k) : (double)__ldg((const float *)v + k);
}

/* ||b - A x||^2 and ||b||^2 summed in double from A, b, x as stored (float or double): block partials
 * part[2 blk] and part[2 blk + 1]; r = b - A x into r_out (double) when it is not NULL.  One thread
 * per row, a fixed grid: the same bits on every run. */
static __global__ void __launch_bounds__(PERKS_CG_RESID_THREADS) __attribute__((unused))
perks__cg_resid_kernel(int n, int elt, const int *rp, const int *ci, const void *va, const void *b, const void *x,
                       double *r_out, double *part)
{
    __shared__ double red[PERKS_CG_RESID_THREADS / 32][2];
    double rr = 0, bb = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double s = 0;
        for (int k = __ldg(rp + i); k < __ldg(rp + i + 1); ++k)
            s += perks__cg_ld(va, k, elt) * perks__cg_ld(x, __ldg(ci + k), elt);
        const double bi = perks__cg_ld(b, i, elt), ri = bi - s;
        if (r_out) r_out[i] = ri;
        rr += ri * ri;
        bb += bi * bi;
    }
    for (int o = 16; o > 0; o >>= 1) {
        rr += __shfl_xor_sync(0xffffffffu, rr, o);
        bb += __shfl_xor_sync(0xffffffffu, bb, o);
    }
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5][0] = rr, red[threadIdx.x >> 5][1] = bb;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < PERKS_CG_RESID_THREADS / 32; ++w) rr += red[w][0], bb += red[w][1];
        part[2 * blockIdx.x] = rr;
        part[2 * blockIdx.x + 1] = bb;
    }
}

/* mixed precision: f[i] = (float)(scale d[i]) */
static __global__ void __attribute__((unused)) perks__cg_to_float(long long n, const double *d, double scale, float *f)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        f[i] = (float)(scale * d[i]);
}
/* a refinement: x += d (float, elt 4, or double, elt 8) */
static __global__ void __attribute__((unused)) perks__cg_add(int n, int elt, void *x, const void *d)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (elt == 8) ((double *)x)[i] += ((const double *)d)[i];
        else ((float *)x)[i] += ((const float *)d)[i];
    }
}
/* launch the true-residual kernel on stream */
static inline int perks__cg_resid_launch(int n, int elt, const int *rp, const int *ci, const void *va, const void *b,
                                         const void *x, double *r_out, double *part, cudaStream_t stream)
{
    perks__cg_resid_kernel<<<PERKS_CG_RESID_BLOCKS, PERKS_CG_RESID_THREADS, 0, stream>>>(n, elt, rp, ci, va, b, x,
                                                                                         r_out, part);
    return cudaGetLastError() == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}

/* wait for the partials and add them in block order: ||b - A x||^2 and ||b||^2 */
static inline int perks__cg_resid_read(const double *part, double *rr, double *bb)
{
    double h[2 * PERKS_CG_RESID_BLOCKS];
    int k;
    if (cudaMemcpy(h, part, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    *rr = *bb = 0;
    for (k = 0; k < PERKS_CG_RESID_BLOCKS; k++) *rr += h[2 * k], *bb += h[2 * k + 1];
    return PERKS_SUCCESS;
}

/* ---- host side ------------------------------------------------------------------------------ */

static inline void perks_cg_plan_free(perks_cg_plan *p)
{
    if (!p) return;
    if (p->ws) cudaFree(p->ws);
    if (p->rpart) cudaFree(p->rpart);
    memset(p, 0, sizeof *p);
}

static inline size_t perks__cg_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* the plans perks_cg_wait refines (no in-kernel replacement): double and Chronopoulos-Gear ones,
 * not the float part of a mixed solve; and the bytes their refinement buffers take behind xbest */
static inline int perks__cg_refines(int elt, int variant) { return elt == 8 || variant == PERKS_CG_CGEAR; }
static inline size_t perks__cg_refine_bytes(int elt, int n)
{
    return perks__cg_align((size_t)8 * n) + 2 * perks__cg_align((size_t)elt * n);
}

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

/* split the rows into G parts with even rows + nonzeros; the largest part's rows and nonzeros */
static inline void perks__cg_split(const int *rp, int n, long long nnz, int G, int *split, long long *maxr,
                                   long long *maxk)
{
    int b;
    split[0] = 0;
    split[G] = n;
    *maxr = *maxk = 0;
    for (b = 1; b < G; b++) split[b] = perks__cg_split_row(rp, n, ((long long)n + nnz) * b / G);
    for (b = 0; b < G; b++) {
        long long r = split[b + 1] - split[b], k = (long long)rp[split[b + 1]] - rp[split[b]];
        if (r > *maxr) *maxr = r;
        if (k > *maxk) *maxk = k;
    }
}

/* lanes per row: the least power of two giving at most per_lane nonzeros per lane on average */
static inline int perks__cg_lanes(int n, long long nnz, int per_lane)
{
    double mean = (double)nnz / n;
    int W = 1;
    while (W < 32 && W * per_lane < mean) W *= 2;
    return W;
}

static inline void perks__cg_set_common(perks_cg_plan *p, int n, long long nnz, int elt, const perks_cg_opts *o,
                                        const int *d_rp, const int *d_ci, const void *d_va)
{
    p->n = n;
    p->nnz = nnz;
    p->elt = elt;
    p->opts = *o;
    p->args.n = n;
    p->args.cache = p->cached;
    p->args.jacobi = o->jacobi ? 1 : 0;
    p->args.use_x0 = o->x0 ? 1 : 0;
    p->args.max_iter = o->max_iter;
    p->args.tol = o->tol;
    /* replacement (classic CG only): at convergence by default; periodic or reliable updates only when
     * asked for (measured: neither lets float reach a smaller true residual, docs/perks-cg.md) */
    {
        const int classic = p->variant == PERKS_CG_CLASSIC && o->replace != 0;
        const double d = classic && o->replace_delta > 0 ? o->replace_delta : 0;
        p->args.rper = classic && o->replace > 0 ? o->replace : 0;
        p->args.rdelta2 = d * d;
        p->args.rconv = classic;
    }
    p->args.rp = d_rp;
    p->args.ci = d_ci;
    p->args.va = d_va;
}

/* a launch of one cluster of C blocks of PERKS_CG_CBLOCK threads */
static inline void perks__cg_cluster_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *at, int C, size_t smem,
                                            cudaStream_t stream)
{
    cfg->gridDim = dim3(C);
    cfg->blockDim = dim3(PERKS_CG_CBLOCK);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = stream;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = C;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg->attrs = at;
    cfg->numAttrs = 1;
}

/* the cluster path: PERKS_SUCCESS and a filled plan, or why not (PERKS_EUNSUPPORTED: no sm_90
 * device or build; PERKS_ERESOURCE: does not fit; auto: also not small enough) */
static inline int perks__cg_plan_cluster(perks_cg_plan *p, const void *ckernel, int elt, int n, long long nnz,
                                         const int *rp, const perks_cg_opts *o, int is_auto)
{
    int dev, major = 0, optin = 0, want, C = 0, tier, cmax = PERKS_CG_CMAX, split[PERKS_CG_CMAX + 1];
    long long maxr = 0, maxk = 0;
    size_t need = 0, total, off;
    struct cudaFuncAttributes fa;
    char *ws;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return PERKS_ECUDA;
    if (major < 9) return PERKS_EUNSUPPORTED;
    if (cudaFuncGetAttributes(&fa, ckernel) != cudaSuccess) return PERKS_ECUDA;
    if (fa.ptxVersion < 90 || fa.binaryVersion < 90) return PERKS_EUNSUPPORTED; /* built without sm_90 */
    if (cudaFuncSetAttribute(ckernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
        (void)cudaGetLastError();
        cmax = 8;
    }
    /* auto: only with the matrix in shared memory too (measured: with the matrix read from device
     * memory by 16 SMs the cluster is slower than the grid on every system of the bench) */
    tier = is_auto ? 2 : 0;
    want = 1;
    while (want < cmax && (long long)want * PERKS_CG_CLUSTER_WORK < (long long)n + nnz) want *= 2;
    if (o->cluster) want = o->cluster;
    /* the matrix in shared memory at the least cluster size that holds it; else vectors only */
    for (int t = 2; t >= 1 && !C; t--) {
        if (t < tier || (t == 2 && !o->cache)) continue;
        for (int c = want; c <= (o->cluster ? want : cmax) && !C; c = c < 2 ? 2 : 2 * c) {
            int ncl = 0;
            if (c > cmax) break;
            perks__cg_split(rp, n, nnz, c, split, &maxr, &maxk);
            if (maxr >= (1LL << 24)) continue;
            need = (size_t)elt * ((size_t)4 * maxr + (size_t)(o->jacobi ? 4 : 3) * maxr);
            if (t == 2) need += (size_t)maxk * (elt + 4) + (size_t)(maxr + 1) * 4;
            if (need + fa.sharedSizeBytes > (size_t)optin) continue; /* static shared memory counts too */
            if (cudaFuncSetAttribute(ckernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)need) != cudaSuccess)
                return PERKS_ECUDA;
            {
                cudaLaunchConfig_t cfg = {};
                cudaLaunchAttribute at[1] = {};
                perks__cg_cluster_config(&cfg, at, c, need, 0);
                if (cudaOccupancyMaxActiveClusters(&ncl, ckernel, &cfg) != cudaSuccess) {
                    (void)cudaGetLastError();
                    ncl = 0;
                }
            }
            if (ncl >= 1) {
                C = c;
                p->cached = t;
            }
        }
    }
    if (!C) return PERKS_ERESOURCE;
    /* workspace: out, split, the encoded columns (matrix in device memory) */
    total = perks__cg_align(sizeof(perks__cg_out)) + perks__cg_align(sizeof(int) * (PERKS_CG_CMAX + 1)) +
            (p->cached == 1 ? perks__cg_align(sizeof(int) * (size_t)(nnz ? nnz : 1)) : 0);
    if (cudaMalloc(&p->ws, total) != cudaSuccess) {
        p->ws = NULL;
        return PERKS_ECUDA;
    }
    ws = (char *)p->ws;
    p->args.out = (perks__cg_out *)ws;
    off = perks__cg_align(sizeof(perks__cg_out));
    p->args.split = (const int *)(ws + off);
    if (cudaMemcpy(ws + off, split, sizeof(int) * ((size_t)C + 1), cudaMemcpyHostToDevice) != cudaSuccess) {
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    off += perks__cg_align(sizeof(int) * (PERKS_CG_CMAX + 1));
    p->args.cenc = p->cached == 1 ? (int *)(ws + off) : NULL;
    p->path = PERKS_CG_PATH_CLUSTER;
    p->barrier = 0;
    p->blocks = C;
    p->block = PERKS_CG_CBLOCK;
    p->sub = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE);
    p->smem = need;
    p->kernel = ckernel;
    p->args.sub = p->sub;
    p->args.nrmax = (int)maxr;
    p->args.bmode = 0;
    return PERKS_SUCCESS;
}

/* the grid path (the rows of the host row_ptr rp) */
static inline int perks__cg_plan_grid(perks_cg_plan *p, const void *kernel, int elt, int block, int n, long long nnz,
                                      const int *rp, const perks_cg_opts *o)
{
    const int cgear = o->variant == PERKS_CG_CGEAR;
    int dev, sms, bps0, bps, G, G2, Gmax, W, nv, *split = NULL, smem_sm = 0, optin = 0, rc, bmode;
    long long maxr = 0, maxk = 0;
    size_t need1 = 0, need2 = 0, avail = 0, off, vec, total;
    char *ws;
    rc = perks_occupancy(kernel, block, 0, &bps0, &sms);
    if (rc) return rc;
    Gmax = bps0 * sms;
    if (o->blocks) G = o->blocks < Gmax ? o->blocks : Gmax;
    else {
        long long g = ((long long)n + nnz + PERKS_CG_WORK_PER_BLOCK - 1) / PERKS_CG_WORK_PER_BLOCK;
        G = g < Gmax ? (int)g : Gmax;
    }
    /* the flag barrier reads PERKS_FLAG_U slots per thread: at most that many blocks per thread */
    if (!o->blocks && o->barrier == PERKS_CG_BAR_FLAG && G > PERKS_FLAG_U * block) G = PERKS_FLAG_U * block;
    if (G > n) G = n;
    if (G < 1) G = 1;
    W = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE);
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return PERKS_ECUDA;
    nv = cgear ? 6 : 4 + (o->jacobi ? 1 : 0); /* x, r, q, p (+ D^-1); Chronopoulos-Gear: quads, x, p */
    /* when the whole system fits on chip at PERKS_CG_ONCHIP_BPS blocks per SM, use no more blocks
     * than that (measured: beyond it the barriers cost more than the extra threads give); systems
     * that stream from device memory take every co-resident block */
    G2 = (!o->blocks && o->cache && G > PERKS_CG_ONCHIP_BPS * sms) ? PERKS_CG_ONCHIP_BPS * sms : 0;
    for (;;) {
        const int Gt = G2 ? G2 : G;
        split = (int *)malloc(sizeof(int) * ((size_t)Gt + 1));
        if (!split) return PERKS_ENOMEM;
        perks__cg_split(rp, n, nnz, Gt, split, &maxr, &maxk);
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
    /* the barrier: the count barrier unless asked otherwise (grid.sync's protocol and bits; measured
     * 0.1-0.4 us per iteration faster on every grid system of bench/cg, docs/perks-cg.md); the flag
     * barrier needs G <= PERKS_FLAG_U BLOCK */
    bmode = o->barrier ? o->barrier : o->sum_barrier ? PERKS_CG_BAR_SUM : PERKS_CG_BAR_COUNT;
    if (cgear && bmode != PERKS_CG_BAR_COUNT) bmode = PERKS_CG_BAR_GRID;
    if (bmode == PERKS_CG_BAR_FLAG && G > PERKS_FLAG_U * block) {
        if (o->barrier == PERKS_CG_BAR_FLAG) {
            free(split);
            return PERKS_ESIZE;
        }
        bmode = PERKS_CG_BAR_GRID;
    }
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
    /* workspace: r, z, p0, p1, q, dinv (n T each; Chronopoulos-Gear: two quad buffers of 4 n T and
     * p), partials 8 G, out, split, barrier words */
    vec = perks__cg_align((size_t)n * elt);
    off = (cgear ? 9 : 6) * vec;
    total = off + perks__cg_align(sizeof(double) * 8 * G) + perks__cg_align(sizeof(perks__cg_out)) +
            perks__cg_align(sizeof(int) * ((size_t)G + 1)) + perks__cg_align(sizeof(double) * PERKS_SUM_BARRIER_WORDS) +
            perks__cg_align(sizeof(double) * PERKS_FLAG_WORDS(G));
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
    if (cgear) {
        p->args.r = ws;           /* quads, buffer 0 */
        p->args.z = ws + 4 * vec; /* quads, buffer 1 */
        p->args.p0 = ws + 8 * vec;
        p->args.p1 = p->args.q = p->args.dinv = NULL;
    }
    p->args.part = (double *)(ws + off);
    off += perks__cg_align(sizeof(double) * 8 * G);
    p->args.out = (perks__cg_out *)(ws + off);
    off += perks__cg_align(sizeof(perks__cg_out));
    p->args.split = (const int *)(ws + off);
    if (cudaMemcpy(ws + off, split, sizeof(int) * ((size_t)G + 1), cudaMemcpyHostToDevice) != cudaSuccess) {
        free(split);
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    off += perks__cg_align(sizeof(int) * ((size_t)G + 1));
    p->args.bar = (double *)(ws + off);
    off += perks__cg_align(sizeof(double) * PERKS_SUM_BARRIER_WORDS);
    p->args.flag = (double *)(ws + off);
    free(split);
    if (p->cached == 0) W = perks__cg_lanes(n, nnz, PERKS_CG_NNZ_PER_LANE_DRAM); /* more rows in flight */
    p->path = PERKS_CG_PATH_GRID;
    p->variant = cgear ? PERKS_CG_CGEAR : PERKS_CG_CLASSIC;
    p->barrier = bmode;
    p->blocks = G;
    p->block = block;
    p->sub = W;
    p->kernel = kernel;
    p->args.sub = W;
    p->args.bmode = bmode;
    p->args.nrmax = (int)maxr;
    return PERKS_SUCCESS;
}

static inline int perks__cg_plan_make(perks_cg_plan *p, const void *kernel, const void *kernel1, const void *ckernel,
                                      int elt, int block, int n, long long nnz, const int *d_rp, const int *d_ci,
                                      const void *d_va, const perks_cg_opts *o)
{
    int *rp, rc = PERKS_ERESOURCE, is_auto;
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!kernel || !kernel1 || !ckernel || !d_rp || !d_ci || !d_va || !o) return PERKS_ENULL;
    if (n < 1 || nnz < 0 || nnz > 2147483647LL || block < 64 || block > 1024 || block % 32) return PERKS_ESIZE;
    if (!(o->tol >= 0) || o->max_iter < 0 || o->blocks < 0) return PERKS_ESIZE;
    if (o->path < 0 || o->path > 2 || o->cluster < 0 || o->cluster > PERKS_CG_CMAX || o->barrier < 0 || o->barrier > 4)
        return PERKS_ESIZE;
    if (o->replace < -1 || (o->replace > 0 && o->variant != PERKS_CG_CLASSIC)) return PERKS_ESIZE;
    if (!(o->replace_delta == -1 || (o->replace_delta >= 0 && o->replace_delta < 1)) ||
        (o->replace_delta > 0 && o->variant != PERKS_CG_CLASSIC))
        return PERKS_ESIZE;
    /* Chronopoulos-Gear: the grid path with grid.sync only */
    if (o->variant < 0 || o->variant > 1 ||
        (o->variant == PERKS_CG_CGEAR && (o->path == PERKS_CG_PATH_CLUSTER || o->sum_barrier ||
                                          (o->barrier && o->barrier != PERKS_CG_BAR_GRID &&
                                           o->barrier != PERKS_CG_BAR_COUNT))))
        return PERKS_ESIZE;
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
    for (int i = 0; i < n; i++)
        if (rp[i + 1] <= rp[i]) { /* an empty row (A singular) or a row_ptr that goes down */
            rc = rp[i + 1] == rp[i] ? PERKS_EEMPTYROW : PERKS_ESIZE;
            free(rp);
            return rc;
        }
    /* auto: the cluster when the system is small and no grid option was asked for */
    is_auto = o->path == PERKS_CG_PATH_AUTO && !o->blocks && !o->barrier && !o->sum_barrier && o->cache &&
              o->variant == PERKS_CG_CLASSIC;
    if (o->path == PERKS_CG_PATH_CLUSTER || is_auto) {
        rc = perks__cg_plan_cluster(p, ckernel, elt, n, nnz, rp, o, is_auto);
        if (rc != PERKS_SUCCESS) {
            perks_cg_plan_free(p);
            if (rc == PERKS_ECUDA) (void)cudaGetLastError();
        }
    }
    if (rc != PERKS_SUCCESS && o->path != PERKS_CG_PATH_CLUSTER)
        rc = perks__cg_plan_grid(p, o->variant == PERKS_CG_CGEAR ? kernel1 : kernel, elt, block, n, nnz, rp, o);
    free(rp);
    if (rc != PERKS_SUCCESS) {
        perks_cg_plan_free(p);
        return rc;
    }
    /* the true-residual partials, then the best-x buffer (n T); solves refined on the host (double,
     * Chronopoulos-Gear) also r = b - A x (n double), the correction d and r in T (n T each) */
    if (cudaMalloc((void **)&p->rpart, sizeof(double) * 2 * PERKS_CG_RESID_BLOCKS + perks__cg_align((size_t)elt * n) +
                                           (perks__cg_refines(elt, p->variant) ? perks__cg_refine_bytes(elt, n) : 0)) != cudaSuccess) {
        p->rpart = NULL;
        perks_cg_plan_free(p);
        return PERKS_ECUDA;
    }
    perks__cg_set_common(p, n, nnz, elt, o, d_rp, d_ci, d_va);
    p->args.xbest = (char *)p->rpart + sizeof(double) * 2 * PERKS_CG_RESID_BLOCKS;
    return PERKS_SUCCESS;
}

/* launch one solve (asynchronous on stream); perks_cg_wait waits and reads the outcome */
static inline int perks_cg_run(perks_cg_plan *p, const void *d_b, void *d_x, cudaStream_t stream)
{
    void *args[1];
    int rc;
    if (!p || !d_b || !d_x) return PERKS_ENULL;
    if (!p->ws || !p->kernel || !p->rpart) return PERKS_ESIZE;
    p->stream = stream;
    p->args.b = d_b;
    p->args.x = d_x;
    args[0] = &p->args;
    if (p->path == PERKS_CG_PATH_CLUSTER) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute at[1] = {};
        perks__cg_cluster_config(&cfg, at, p->blocks, p->smem, stream);
        if (cudaLaunchKernelExC(&cfg, p->kernel, args) != cudaSuccess) return PERKS_ECUDA;
        return perks__cg_resid_launch(p->n, p->elt, p->args.rp, p->args.ci, p->args.va, d_b, d_x, NULL, p->rpart,
                                      stream);
    }
    if ((p->args.bmode == PERKS_CG_BAR_SUM || p->args.bmode == PERKS_CG_BAR_COUNT) &&
        cudaMemsetAsync(p->args.bar, 0, sizeof(double) * PERKS_SUM_BARRIER_WORDS, stream) != cudaSuccess)
        return PERKS_ECUDA;
    if (p->args.bmode == PERKS_CG_BAR_FLAG &&
        cudaMemsetAsync(p->args.flag, 0xff, sizeof(double) * PERKS_FLAG_WORDS(p->blocks), stream) != cudaSuccess)
        return PERKS_ECUDA;
    rc = perks_launch(p->kernel, dim3(p->blocks), dim3(p->block), args, p->smem, stream);
    if (rc) return rc;
    if (p->args.x_hi) /* mixed: the double system's residual of the double x */
        return perks__cg_resid_launch(p->n, 8, p->args.rp, p->args.ci, p->args.va_hi, p->args.b_hi, p->args.x_hi,
                                      NULL, p->rpart, stream);
    return perks__cg_resid_launch(p->n, p->elt, p->args.rp, p->args.ci, p->args.va, d_b, d_x, NULL, p->rpart, stream);
}

/* one launch's result (perks_cg_wait without the restarts) */
static inline int perks__cg_wait1(perks_cg_plan *p, perks_cg_result *res)
{
    perks__cg_out out;
    double trr = 0, tbb = 0;
    if (!p || !res) return PERKS_ENULL;
    memset(res, 0, sizeof *res);
    if (!p->ws || !p->rpart) return PERKS_ESIZE;
    if (cudaStreamSynchronize(p->stream) != cudaSuccess) return PERKS_ECUDA;
    if (cudaMemcpy(&out, p->args.out, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    if (perks__cg_resid_read(p->rpart, &trr, &tbb)) return PERKS_ECUDA;
    res->status = out.status;
    res->iterations = out.iterations;
    res->replacements = out.repl;
    res->bnorm = out.bb > 0 ? sqrt(out.bb) : 0;
    res->rel_residual = out.bb > 0 ? sqrt(out.rr / out.bb) : sqrt(out.rr);
    res->true_residual = tbb > 0 ? sqrt(trr / tbb) : sqrt(trr);
    res->ran = PERKS_CG_RAN_NATIVE;
    /* a success is the true residual's: the recurrence alone may have drifted from it */
    if (res->status == PERKS_SUCCESS && !(res->true_residual <= p->opts.tol)) res->status = PERKS_EINACCURATE;
    return res->status;
}

#ifndef PERKS_CG_RESTARTS
#define PERKS_CG_RESTARTS 3 /* double / Chronopoulos-Gear: restarts from x when only the recurrence met tol */
#endif
#ifndef PERKS_CG_RESTART_TOL
#define PERKS_CG_RESTART_TOL 0.5 /* a refinement's correction solve aims at this fraction of tol */
#endif

/* One refinement of a solve that ended PERKS_EINACCURATE (prev): r = b - A x (double, then T), the
 * correction A d = r solved from d = 0 in at most `budget` iterations, aiming at PERKS_CG_RESTART_TOL
 * tol ||b|| (the correction is small, so its own drift is small: restarting in place from x drifts
 * by as much as the first solve), x += d and its true residual.  A correction that does not lower
 * the true residual is undone (x comes back from the plan's best-x buffer) and 1 is returned in
 * *stop; a correction solve that breaks down is not added. */
static inline int perks__cg_refine(perks_cg_plan *p, const perks_cg_result *prev, int budget, perks_cg_result *res,
                                   int *stop)
{
    const int n = p->n, elt = p->elt;
    const size_t xb = perks__cg_align((size_t)elt * n);
    const void *b = p->args.b;
    void *x = p->args.x;
    double *rd = (double *)((char *)p->args.xbest + xb);
    void *d = (char *)rd + perks__cg_align((size_t)8 * n), *rt = elt == 8 ? (void *)rd : (char *)d + xb;
    const int x0 = p->args.use_x0, mi = p->args.max_iter;
    const double tol = p->args.tol;
    perks_cg_result in;
    double trr = 0, tbb = 0;
    int rc;
    *stop = 1;
    *res = *prev;
    rc = perks__cg_resid_launch(n, elt, p->args.rp, p->args.ci, p->args.va, b, x, rd, p->rpart, p->stream);
    if (!rc && elt == 4) perks__cg_to_float<<<264, 256, 0, p->stream>>>(n, rd, 1.0, (float *)rt);
    if (rc || cudaGetLastError() != cudaSuccess) return res->status = PERKS_ECUDA;
    p->args.use_x0 = 0;
    p->args.max_iter = budget;
    p->args.tol = tol * PERKS_CG_RESTART_TOL / prev->true_residual; /* relative to ||r|| = true ||b|| */
    rc = perks_cg_run(p, rt, d, p->stream);
    p->args.use_x0 = x0, p->args.max_iter = mi, p->args.tol = tol, p->args.b = b, p->args.x = x;
    if (rc) return res->status = rc;
    rc = perks__cg_wait1(p, &in);
    if (rc == PERKS_ECUDA) return res->status = rc;
    res->iterations += in.iterations;
    res->replacements++;
    if (rc != PERKS_SUCCESS && rc != PERKS_EINACCURATE && rc != PERKS_ENOCONV) return res->status; /* not added */
    if (cudaMemcpyAsync(p->args.xbest, x, (size_t)elt * n, cudaMemcpyDeviceToDevice, p->stream) != cudaSuccess)
        return res->status = PERKS_ECUDA;
    perks__cg_add<<<264, 256, 0, p->stream>>>(n, elt, x, d);
    if (cudaGetLastError() != cudaSuccess ||
        perks__cg_resid_launch(n, elt, p->args.rp, p->args.ci, p->args.va, b, x, NULL, p->rpart, p->stream) ||
        perks__cg_resid_read(p->rpart, &trr, &tbb))
        return res->status = PERKS_ECUDA;
    trr = tbb > 0 ? sqrt(trr / tbb) : sqrt(trr);
    if (!(trr < prev->true_residual)) { /* no progress: what T reaches here; the x before it stays */
        if (cudaMemcpy(x, p->args.xbest, (size_t)elt * n, cudaMemcpyDeviceToDevice) != cudaSuccess)
            return res->status = PERKS_ECUDA;
        return res->status;
    }
    res->true_residual = trr;
    res->rel_residual = in.rel_residual * prev->true_residual; /* the correction's recurrence, relative to ||b|| */
    res->status = trr <= tol ? PERKS_SUCCESS : rc == PERKS_ENOCONV ? PERKS_ENOCONV : PERKS_EINACCURATE;
    *stop = res->status != PERKS_EINACCURATE;
    return res->status;
}

/* Kernels without in-kernel replacement (double, Chronopoulos-Gear) whose recurrence met tol while
 * the true residual did not: up to PERKS_CG_RESTARTS refinements (perks__cg_refine) while each
 * lowers the true residual; the iterations add up, res.replacements counts the refinements. */
static inline int perks_cg_wait(perks_cg_plan *p, perks_cg_result *res)
{
    int rc = perks__cg_wait1(p, res), k, stop = 0;
    if (rc == PERKS_ENULL || rc == PERKS_ESIZE || rc == PERKS_ECUDA) return rc;
    for (k = 0; k < PERKS_CG_RESTARTS && !stop && rc == PERKS_EINACCURATE && perks__cg_refines(p->elt, p->variant) &&
                p->opts.replace != 0 && !p->args.x_hi && res->iterations < p->args.max_iter &&
                isfinite(res->true_residual) && res->true_residual > 0;
         k++) {
        const perks_cg_result prev = *res;
        rc = perks__cg_refine(p, &prev, p->args.max_iter - prev.iterations, res, &stop);
    }
    return rc;
}

/* ---- mixed precision: float CG iterations, x and the replaced residuals in double ------------- */

#ifndef PERKS_CG_MIXED_DELTA
#define PERKS_CG_MIXED_DELTA 0.1 /* mixed: a double replacement once ||r|| fell 10x since the last one */
#endif

/* the double plan alone (auto on chip, or the fallback from the x reached) */
static inline int perks__cg_mixed_double(perks_cg_plan *dp, const double *d_b, double *d_x, int x0, int max_iter,
                                         int it0, int ran, perks_cg_result *res, cudaStream_t stream)
{
    int rc;
    dp->args.use_x0 = x0;
    dp->args.max_iter = max_iter > 0 ? max_iter : 0;
    rc = perks_cg_run(dp, d_b, d_x, stream);
    if (rc) return rc;
    rc = perks_cg_wait(dp, res);
    res->iterations += it0;
    res->ran = ran;
    return rc;
}

/* A x = b for a double matrix: the float grid kernel on A_f, b_f (rounded to float) whose residual
 * replacements fold its x into the double x and compute r = b - A x from the double matrix
 * (a.x_hi / va_hi / b_hi).  fk / dk: the float and double kernels (grid, Chronopoulos-Gear, cluster).
 * See PERKS_CG_MIXED_DEFINE. */
static inline int perks__cg_mixed_solve(const void *const fk[3], const void *const dk[3], int block, int n,
                                        long long nnz, const int *d_rp, const int *d_ci, const double *d_val,
                                        const double *d_b, double *d_x, const perks_cg_opts *o,
                                        perks_cg_result *res, cudaStream_t stream)
{
    perks_cg_plan dp, fp;
    perks_cg_opts fo;
    char *buf = NULL;
    float *vf, *bf, *xf;
    int rc;
    const size_t fv = ((size_t)(nnz ? nnz : 1) * 4 + 255) & ~(size_t)255, fn = ((size_t)n * 4 + 255) & ~(size_t)255;
    if (!res) return PERKS_ENULL;
    memset(res, 0, sizeof *res);
    memset(&fp, 0, sizeof fp);
    if (!d_b || !d_x || !o) return PERKS_ENULL;
    if (o->mixed < 0 || o->mixed > 1 || o->variant != PERKS_CG_CLASSIC || o->path == PERKS_CG_PATH_CLUSTER)
        return PERKS_ESIZE;
    rc = perks__cg_plan_make(&dp, dk[0], dk[1], dk[2], 8, block, n, nnz, d_rp, d_ci, d_val, o);
    if (rc) return rc;
    /* auto: a system the double plan holds on chip is bound by barriers, not bytes: float gains nothing */
    if (!o->mixed && (dp.path == PERKS_CG_PATH_CLUSTER || dp.cached == 2)) {
        rc = perks__cg_mixed_double(&dp, d_b, d_x, o->x0 ? 1 : 0, o->max_iter, 0, PERKS_CG_RAN_DOUBLE, res, stream);
        perks_cg_plan_free(&dp);
        return rc;
    }
    /* the float copies of the values and b, the float correction */
    if (cudaMalloc((void **)&buf, fv + 2 * fn) != cudaSuccess) {
        perks_cg_plan_free(&dp);
        return PERKS_ECUDA;
    }
    vf = (float *)buf;
    bf = (float *)(buf + fv);
    xf = (float *)(buf + fv + fn);
    perks__cg_to_float<<<264, 256, 0, stream>>>(nnz, d_val, 1.0, vf);
    perks__cg_to_float<<<264, 256, 0, stream>>>(n, d_b, 1.0, bf);
    fo = *o;
    fo.path = PERKS_CG_PATH_GRID; /* the cluster kernel has no double x */
    fo.x0 = 0;
    rc = cudaGetLastError() != cudaSuccess ? PERKS_ECUDA
         : perks__cg_plan_make(&fp, fk[0], fk[1], fk[2], 4, block, n, nnz, d_rp, d_ci, vf, &fo);
    if (!rc) {
        fp.args.va_hi = d_val;
        fp.args.b_hi = d_b;
        fp.args.x_hi = d_x;
        {
            const double d = o->replace_delta > 0 ? o->replace_delta : PERKS_CG_MIXED_DELTA;
            fp.args.rdelta2 = d * d;
            fp.args.rper = o->replace > 0 ? o->replace : o->replace < 0 ? PERKS_CG_MIXED_PERIOD : 0;
        }
        fp.args.rconv = 1;
        if (!o->x0 && cudaMemsetAsync(d_x, 0, sizeof(double) * n, stream) != cudaSuccess) rc = PERKS_ECUDA;
    }
    if (!rc) rc = perks_cg_run(&fp, bf, xf, stream);
    if (!rc) {
        rc = perks_cg_wait(&fp, res);
        res->ran = PERKS_CG_RAN_MIXED;
        /* float could not carry the iteration to tol (cond(A) too large for float, or a float
         * breakdown of an SPD matrix): the double solver goes on from the x reached */
        if ((rc == PERKS_EINACCURATE || rc == PERKS_EBREAKDOWN) && res->iterations < o->max_iter) {
            int it = res->iterations, repl = res->replacements;
            rc = perks__cg_mixed_double(&dp, d_b, d_x, 1, o->max_iter - it, it, PERKS_CG_RAN_FALLBACK, res, stream);
            res->replacements += repl;
        }
    }
    res->status = rc;
    perks_cg_plan_free(&fp);
    perks_cg_plan_free(&dp);
    cudaFree(buf);
    return rc;
}

/* PERKS_CG_MIXED_DEFINE(name, BLOCK): name_solve for a double system (double values, b, x) that runs
 * float CG solves inside double iterative refinement; the float and double kernels are
 * name_f32_* and name_f64_* (PERKS_CG_DEFINE) */
#define PERKS_CG_MIXED_DEFINE(name, BLOCK)                                                                    \
    PERKS_CG_DEFINE(name##_f32, float, BLOCK)                                                                 \
    PERKS_CG_DEFINE(name##_f64, double, BLOCK)                                                                \
    static inline __attribute__((unused)) int name##_solve(int n, long long nnz, const int *d_row_ptr,        \
                                                           const int *d_col, const double *d_val,             \
                                                           const double *d_b, double *d_x,                    \
                                                           const perks_cg_opts *o, perks_cg_result *res,      \
                                                           cudaStream_t stream)                               \
    {                                                                                                         \
        const void *const fk[3] = {(const void *)name##_f32_kernel, (const void *)name##_f32_kernel1,         \
                                   (const void *)name##_f32_ckernel};                                         \
        const void *const dk[3] = {(const void *)name##_f64_kernel, (const void *)name##_f64_kernel1,         \
                                   (const void *)name##_f64_ckernel};                                         \
        return perks__cg_mixed_solve(fk, dk, (BLOCK), n, nnz, d_row_ptr, d_col, d_val, d_b, d_x, o, res,      \
                                     stream);                                                                 \
    }

#endif /* PERKS_CG_CUH */
