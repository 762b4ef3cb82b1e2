#include <onchip/names_push.h>
/* perks/cg_dist/types.cuh -- the distributed CG's options, result, rank and kernel arguments
 * (perks/cg_dist.cuh describes the solver).
 *
 * WHAT
 *   perks_cgd_opts, perks_cgd_defaults()   tolerance, iterations, Jacobi, x0, lanes per row, timeout,
 *                                          blocks
 *   perks_cgd_result                       status, iterations, both residuals, restarts
 *   perks_cgd_rank                         one rank's part of the system (the caller's fields) and
 *                                          what name_plan sets up (window, halo tables, workspace)
 *   perks_cgd_args, perks_cgd_plan         one solve of this process's ranks; its plan (onchip_plan's
 *                                          head, the ranks it set up); PERKS_CGD_PATH_NCCL / _VIRTUAL
 *   perks__cgd_state, perks__cgd_k         the device state of a rank; the kernels' one argument
 *   PERKS_CGD_MAXRANKS, PERKS_CGD_POLL, PERKS_CGD_BLOCK, PERKS_CGD_RESTARTS; PERKS_CGD_NCCL when
 *   <nccl.h> is found (perks/exchange.cuh) and PERKS_NO_NCCL is not defined
 *
 * EXAMPLE
 *   [compile in a function]
 *   perks_cgd_opts o = perks_cgd_defaults();   // tol 1e-8, max_iter 10000, no Jacobi, from x = 0
 *   o.jacobi = 1;
 *
 * LIMITS: see perks/cg_dist.cuh.
 */
#ifndef PERKS_CG_DIST_TYPES_CUH
#define PERKS_CG_DIST_TYPES_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels' types only */
#include <cuda_runtime.h>
#endif

#include <onchip/plan.h>
#include "../cg/types.cuh" /* perks__cg_real */
#include "../exchange.cuh" /* PERKS_HAVE_NCCL, <nccl.h> */

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
    int blocks;   /* the kernels' blocks a rank: 0 eight an SM, else this many when fewer */
} perks_cgd_opts;

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
static inline perks_cgd_opts perks_cgd_defaults(void)
{
    perks_cgd_opts o;
    o.tol = 1e-8, o.max_iter = 10000, o.jacobi = 0, o.use_x0 = 0, o.lanes = 0, o.timeout_s = 300, o.blocks = 0;
    return o;
}
#endif

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

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
typedef struct perks_cgd_rank {
    /* the caller's */
    int device, nranks, rank;
    int n, first, own;
    const int *rp, *ci;
    const void *va, *b;
    void *x;
    void *comm; /* ncclComm_t, or NULL: virtual ranks in this process */
    cudaStream_t stream;
    /* set by name_plan */
    int lo, hi;                    /* the window of p: global columns [lo, hi) */
    int need[PERKS_CGD_MAXRANKS][2]; /* columns [need[q][0], need[q][1]) of rank q's block I read */
    int give[PERKS_CGD_MAXRANKS][2]; /* my columns rank q reads */
    int lanes, blocks, elt;
    void *ws; /* one allocation: window p, r, q, D^-1, partials, state, gather */
    size_t ws_bytes;
    void *w, *r, *q, *dinv;
    double *part, *gath;
    perks__cgd_state *st;
    cudaEvent_t ev;
} perks_cgd_rank;

#define PERKS_CGD_PATH_NCCL 1    /* every rank has a communicator: NCCL steps */
#define PERKS_CGD_PATH_VIRTUAL 2 /* this process holds every rank (comm NULL): device copies */

/* one solve (PERKS_CGD_DEFINE's name_plan, name_run, name_launch): this process's ranks, the
 * options (the same on every rank) and the record the run fills */
typedef struct perks_cgd_args {
    perks_cgd_rank *ranks;    /* ranks[0 .. nlocal-1]: the caller's fields set; name_plan sets up the rest */
    int nlocal;               /* the ranks this process drives, 1 .. PERKS_CGD_MAXRANKS */
    perks_cgd_opts opts;      /* perks_cgd_defaults() */
    perks_cgd_result *result; /* host: filled by name_run */
} perks_cgd_args;

typedef struct perks_cgd_plan {
    /* the head (onchip/plan.h): path PERKS_CGD_PATH_*; steps_per_pass 0; workspace_bytes the device memory
     * the plan holds on this process's ranks; result ranks[0].x (each rank's answer is its x) */
    ONCHIP_PLAN_HEAD
    /* the plan's own: the ranks it set up (their workspaces and halo tables live in them) */
    perks_cgd_rank *ranks;
    int nlocal;
    perks_cgd_opts opts;
} perks_cgd_plan;
#endif

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

#endif /* PERKS_CG_DIST_TYPES_CUH */
#include <onchip/names_pop.h>
