#include <onchip/names_push.h>
/* perks/cg.cuh -- conjugate gradient in one persistent kernel (CSR, fp64 or fp32): one thread-block
 * cluster (sm_90) for small systems, a cooperative grid for those that fit its shared memory, and
 * the same grid over a sliced-ELL copy of the matrix for systems that stream from device memory.
 *
 * THE PIECES (perks/cg/, each header usable alone; this one includes them all)
 *   types.cuh     perks_cg_opts, perks_cg_result, perks_cg_plan, perks_cg_kargs, the constants
 *   spmv.cuh      perks_cg_spmv / perks_cg_rrows: a block's rows times a vector, W lanes per row;
 *                 perks_cg_sell_spmv: the stream path's rows from the sliced-ELL copy
 *   reduce.cuh    block sums, the grid's totals through a barrier (perks/barrier.cuh), the cluster's
 *   replace.cuh   residual replacement inside the classic kernels (when, judged, best x)
 *   kernel_grid.cuh     perks_cg_grid_body<T, BLOCK>      the classic iteration, one cooperative grid
 *   kernel_cgear.cuh    perks_cg_cgear_body<T, BLOCK>     Chronopoulos-Gear, one barrier per iteration
 *   kernel_cluster.cuh  perks_cg_cluster_body<T>          the classic iteration in one cluster (sm_90)
 *   resid.cuh     the true residual kernel and the small helper kernels
 *   plan.cuh      the planner (path, blocks, cache tier, split, workspace), perks_cg_run
 *   refine.cuh    perks_cg_wait and the host-side refinement
 *   define.cuh    PERKS_CG_DEFINE
 *   mixed.cuh     PERKS_CG_MIXED_DEFINE and its driver
 *
 * WHAT (PERKS paper, Zhang et al. ICS'23, sections 3-4: the time loop moved into the kernel, the
 * data that every iteration re-reads kept on chip; CG is the paper's Krylov example)
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines
 *       __global__ void name_kernel(perks_cg_kargs)     every CG iteration, one cooperative grid
 *       __global__ void name_ckernel(perks_cg_kargs)    the same in one cluster (sm_90 builds)
 *       __global__ void name_skernel(perks_cg_kargs)    the grid kernel of the stream path
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
 *   keeps its speed): when their recurrence met tol and the true residual did not,
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
 *   [compile: int n, nnz; const int *d_rp, *d_ci; const double *d_va, *d_b; double *d_x]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cg64, double, 256)
 *
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
 *   Barriers (opts.barrier): PERKS_CG_BAR_COUNT (the default) is perks_count_sum's protocol
 *   (perks/barrier.cuh): thread 0 arrives with one red.release.gpu on a counter that only grows,
 *   warp 0 spins with ld.acquire and loads the G partials the moment the count is reached (no fence
 *   and no block barrier in between), the same fixed order, so the same bits as PERKS_CG_BAR_GRID:
 *   cooperative_groups grid.sync, then every block sums the G partials (warp 0, fixed order); the
 *   count barrier measures 0.1-0.4 us per iteration faster on every system.  PERKS_CG_BAR_FLAG is
 *   perks_flag_sum (perks/barrier.cuh; G <= 2 BLOCK): each block stores its partials into its own
 *   slots after a fence, every block reads all G slots at once and sums them (the arrival of the
 *   values is the barrier: one L2 hop, no atomics) -- measured 2x slower per iteration than
 *   grid.sync on the H200 (docs/perks-cg.md, Design notes), an option only.  PERKS_CG_BAR_SUM is
 *   perks_sum_barrier (the last block to arrive sums; slower; opts.sum_barrier = 1 asks for it
 *   too).
 *   On-chip cache (PERKS section 4.1.3-4.1.4): when they fit in the shared memory left per block,
 *   each block keeps its rows of x, r, q, p (and D^-1) in shared memory (cached = 1), and also its
 *   slice of the matrix (cached = 2); otherwise they stay in device memory (cached = 0; opts.cache
 *   = 0 forces this).  p and z are read by other blocks through the SpMV gather, so they live in
 *   device memory (L2) on this path; r is written through.
 *   Breakdown (both paths): p.q <= 0 (or not a number) stops with PERKS_EBREAKDOWN, as does a
 *   non-positive diagonal with Jacobi; both mean A is not SPD.
 *
 * THE STREAM PATH (path 3; the auto path for a system the grid caches nothing of)
 *   The grid kernel (name_skernel: perks_cg_grid_body<T, BLOCK, K, 1>) with its SpMV over a copy of
 *   the matrix in sliced ELL (SELL-C with C = PERKS_CG_SELL_C = 32 rows a slice, no sorting),
 *   built by the plan: a slice's entries are stored entry-major (entry k of its 32 rows in 32
 *   consecutive words), each slice as wide as its longest row, padding column -1.  A warp takes a
 *   slice, a lane a row: every matrix load is one coalesced 128- or 256-byte request, streamed
 *   (evict-first).  The grid sweeps all rows as one front (round t: block b's warp w takes slice
 *   (t G + b) BLOCK/32 + w), so the rows in flight lie in a band of G BLOCK rows and the neighbours
 *   they gather (3D grids: the planes above and below) come from L2, not device memory, when later
 *   rows read them.  A row's own p' = z + beta p is loaded first; entries in the columns of the
 *   row and of its neighbouring lanes (i, i - 1, i + 1) take it through shuffles, without a load.
 *   x += alpha p is done in the next iteration's SpMV (which reads p anyway) or before x is read:
 *   9 vector passes an iteration (72 bytes a row in double) besides the matrix.  Phase B and the
 *   rest keep the grid path's row split (whole slices a block).  The sums are the grid path's with
 *   one lane a row, k order, so with one block the two give the same bits; with more, the dot
 *   products add other block partials.  Auto takes it when rows hold at most
 *   PERKS_CG_NNZ_PER_LANE_DRAM = 8 entries on average (where the grid path gives a row one lane;
 *   longer rows are measured nowhere: ask for path 3) and the padded slices at most
 *   PERKS_CG_SELL_PAD = 1.25 times the nonzeros.  Costs: the copy, 12 bytes an entry for double
 *   (8 for float) padding included, plus 4 a slice, allocated and filled by the plan (res.path and
 *   plan.sell_nnz say what ran); the CSR is still read by the prologue, replacements and the true
 *   residual.  Double loads PERKS_CG_SELL_UNROLL = 4 entries a lane at once, float
 *   PERKS_CG_SELL_UNROLL_F = 8 (64 registers at PERKS_CG_SELL_THREADS_PER_SM = 1024, no spills;
 *   2 and 7 when built for sm_75 / sm_80, where ptxas spills with more).
 *   Measured on the H200 (bench/perks_cg, docs/PERFORMANCE.md): 256^3 Poisson 829 us an iteration
 *   in double against the grid path's 1113.
 *
 * CHRONOPOULOS-GEAR (opts.variant = PERKS_CG_CGEAR; grid path; name_kernel1)
 *   One grid barrier per iteration: the three dot products r.u, w.u, r.r (w = A u) in one
 *   reduction, alpha from gamma / (delta - beta gamma / alpha_old).  The SpMV reads u_j of the
 *   new r without a barrier after the update: each reader recomputes it from row j's old
 *   (r, w, s, d) quad (perks__cg1_u, the owner's expressions, the same bits), from two ping-pong
 *   quad buffers in device memory.  Rounding differs from classic CG (the iteration counts of
 *   bench/perks_cg's Poisson systems to 1e-8 are equal to cuSPARSE's all the same); opt-in, not the
 *   default: measured faster on the systems that fit on chip up to ~8 MB and slower on the
 *   streamed ones (4 values gathered per nonzero).  Barrier: count (default) or grid.sync.
 *
 * PARAMETERS AND LIMITS
 *   T float or double; BLOCK a multiple of 32, 64..1024 (256 is a good default): static_asserts that
 *   name the generator and the instance ("PERKS_CG_DEFINE(cg64): BLOCK must be ...").  n >= 1,
 *   0 <= nnz < 2^31, square A.  opts: tol >= 0, max_iter >= 0; path (0 auto, 1 grid, 2 cluster,
 *   3 stream: classic CG only, entries of the padded slices < 2^31);
 *   cluster (0: the planner, else 1..16 blocks); blocks (grid path; 0: the planner chooses about
 *   one block per PERKS_CG_WORK_PER_BLOCK = 512 rows + nonzeros, at most the co-resident count, and
 *   at most PERKS_CG_ONCHIP_BPS = 2 per SM when the whole system then fits in shared memory);
 *   barrier (grid path, above); x0 (1: start from the x given, 0: from zero).  Setting blocks,
 *   barrier or sum_barrier, or cache = 0, makes the auto path the grid.  The result: status (0,
 *   PERKS_EINACCURATE, PERKS_ENOCONV, PERKS_EBREAKDOWN, PERKS_EDIAG: a diagonal entry <= 0 or missing
 *   with Jacobi), iterations, rel_residual = sqrt(r.r / b.b) of the recurrence (b = 0 gives
 *   sqrt(r.r)), true_residual, replacements, path (the path that computed x).  Check a matrix on the host first with perks_csr_check
 *   (perks/mtx.h: not square, empty rows, diagonal, symmetry).  Host errors before any launch:
 *   PERKS_EEMPTYROW (a row without entries), PERKS_ENULL, PERKS_ESIZE (sizes, tol, replace,
 *   max_iter, BLOCK, path, cluster, barrier, variant, a flag barrier over more than 2 BLOCK blocks,
 *   Chronopoulos-Gear with the cluster or stream path or the flag / sum barrier),
 *   PERKS_ENOCOOP, PERKS_ERESOURCE (path 2 asked for a system that does not fit a cluster),
 *   PERKS_EUNSUPPORTED (path 2 without sm_90), PERKS_ECORESIDENT, PERKS_ECUDA (allocation, copies).
 *   The plan copies row_ptr to the host once (for the split) and allocates its workspace; d_val
 *   etc. must stay valid while the plan is used.  Not reentrant: one perks_cg_run at a time per
 *   plan.  A solve of k iterations is one launch (no host round trips).  Registers: the grid kernel
 *   is built for PERKS_CG_THREADS_PER_SM = 1024 threads per SM (__launch_bounds__(BLOCK, 1024 /
 *   BLOCK): at most 64 registers, no spills; define it to 512 before PERKS_CG_DEFINE for the
 *   ~100-register build); the cluster kernel for 1024 threads (64 registers).  Measured on the
 *   H200 (bench/perks_cg, docs/perks-cg.md).
 *   Registers are not used as a cache (the paper also caches in registers): a row count per
 *   thread fixed at compile time would be needed; shared memory already holds every system whose
 *   CSR fits on chip.
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ (the toolkit's include and include/cccl folders on the path)
 *   PERKS_CG_DEFINE and PERKS_CG_MIXED_DEFINE emit their kernels only (name_kernel, name_kernel1,
 *   name_ckernel, name_skernel, and _f32_ / _f64_ ones): they take perks_cg_kargs, which the host planner fills
 *   (perks/cg/plan.cuh, host code), and a cooperative or cluster launch; no name_plan, name_solve.
 */
#ifndef PERKS_CG_CUH
#define PERKS_CG_CUH

#include "base.h"
#include "grid.cuh"
#include "barrier.cuh"
#include "cg/types.cuh"
#include "cg/spmv.cuh"
#include "cg/reduce.cuh"
#include "cg/replace.cuh"
#include "cg/kernel_grid.cuh"
#include "cg/kernel_cgear.cuh"
#include "cg/kernel_cluster.cuh"
#include "cg/resid.cuh"
#include "cg/plan.cuh"
#include "cg/refine.cuh"
#include "cg/define.cuh"
#include "cg/mixed.cuh"

#endif /* PERKS_CG_CUH */
#include <onchip/names_pop.h>
