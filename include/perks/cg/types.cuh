#include <onchip/names_push.h>
/* perks/cg/types.cuh -- the CG solver's options, result, arguments, plan and kernel arguments (perks/cg.cuh).
 *
 * WHAT (PERKS paper sections 3-4; the constants: docs/perks-cg.md#design-notes-perkscgtypescuh)
 *   perks_cg_opts, perks_cg_defaults()   what a solve is asked for
 *   perks_cg_result                      what it reports
 *   perks_cg_plan, perks_cg_kargs        a planned solve; the one argument of every CG kernel
 *   PERKS_CG_PATH_*, _BAR_*, _CLASSIC / _CGEAR, _RAN_*   option values; the #ifndef constants
 *   are tunable (define one before including perks/cg.cuh).
 *
 * EXAMPLE
 *   [compile in a function]
 *   #include <perks/cg/types.cuh>
 *   perks_cg_opts o = perks_cg_defaults();   // tol 1e-8, max_iter 10000, Jacobi off, cache on
 *   o.jacobi = 1;
 *   perks_cg_args a = {};                    // and n, nnz, row_ptr, col, val, b, x, result
 *   a.opts = o;
 *   if (a.opts.max_iter < 1) return;
 *
 * LIMITS: see perks/cg.cuh (PARAMETERS AND LIMITS).  Host C structs; device code reads
 * perks_cg_kargs only.
 */
#ifndef PERKS_CG_TYPES_CUH
#define PERKS_CG_TYPES_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels' types only */
#include <cuda_runtime.h>
#include <string.h>
#endif

#include <onchip/plan.h>
#include "../base.h"

#define PERKS_CG_WORK_PER_BLOCK 512 /* rows + nonzeros per block the planner aims at */
#ifndef PERKS_CG_MIXED_PERIOD
#define PERKS_CG_MIXED_PERIOD 200 /* mixed: a double replacement every 200 float iterations (opts.replace -1) */
#endif
#ifndef PERKS_CG_THREADS_PER_SM
#define PERKS_CG_THREADS_PER_SM 1024 /* the register budget's threads an SM (1024: <= 64 registers) */
#endif
#define PERKS__CG_MINB(BLOCK) ((PERKS_CG_THREADS_PER_SM / (BLOCK)) > 0 ? PERKS_CG_THREADS_PER_SM / (BLOCK) : 1)
#ifndef PERKS_CG_UNROLL
#define PERKS_CG_UNROLL 8 /* nonzeros a lane loads before it gathers */
#endif
#define PERKS_CG_ONCHIP_BPS 2 /* blocks per SM at most when the system fits in shared memory */
#define PERKS_CG_NNZ_PER_LANE 4      /* lanes a row: the least power of two giving <= 4 nonzeros each */
#define PERKS_CG_NNZ_PER_LANE_DRAM 8 /* the same when nothing is cached */
#define PERKS_CG_CBLOCK 1024         /* threads per block of the cluster kernel */
#define PERKS_CG_CMAX 16             /* blocks per cluster at most (non-portable size) */
#ifndef PERKS_CG_CLUSTER_WORK
#define PERKS_CG_CLUSTER_WORK 1024 /* rows + nonzeros per cluster block the planner aims at */
#endif

#define PERKS_CG_PATH_AUTO 0
#define PERKS_CG_PATH_GRID 1
#define PERKS_CG_PATH_CLUSTER 2
#define PERKS_CG_PATH_STREAM 3 /* the grid kernel over a sliced-ELL copy of the matrix */
#define PERKS_CG_SELL_C 32     /* stream path: rows a slice (a warp's) */
/* stream path: entries a lane loads before it gathers, double and float */
#ifndef PERKS_CG_SELL_UNROLL
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define PERKS_CG_SELL_UNROLL 2
#else
#define PERKS_CG_SELL_UNROLL 4
#endif
#endif
#ifndef PERKS_CG_SELL_UNROLL_F
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define PERKS_CG_SELL_UNROLL_F 7
#else
#define PERKS_CG_SELL_UNROLL_F 8
#endif
#endif
#ifndef PERKS_CG_SELL_THREADS_PER_SM
#define PERKS_CG_SELL_THREADS_PER_SM 1024 /* stream path: the register budget's threads per SM */
#endif
#define PERKS__CG_SMINB(BLOCK) \
    ((PERKS_CG_SELL_THREADS_PER_SM / (BLOCK)) > 0 ? PERKS_CG_SELL_THREADS_PER_SM / (BLOCK) : 1)
#ifndef PERKS_CG_SELL_PAD
#define PERKS_CG_SELL_PAD 1.25 /* auto's stream path: padded slices <= this times the nonzeros */
#endif
#define PERKS_CG_BAR_AUTO 0
#define PERKS_CG_BAR_GRID 1 /* grid.sync, then every block sums the partials */
/* PERKS_CG_BAR_AUTO is PERKS_CG_BAR_COUNT */
#define PERKS_CG_BAR_SUM 2  /* perks_sum_barrier */
#define PERKS_CG_BAR_FLAG 3 /* perks_flag_sum */
#define PERKS_CG_BAR_COUNT 4 /* perks_count_sum */
#define PERKS_CG_CLASSIC 0 /* opts.variant: Hestenes-Stiefel, 2 barriers an iteration (default) */
#define PERKS_CG_CGEAR 1   /* opts.variant: Chronopoulos-Gear, 1 barrier an iteration (grid path) */
#ifndef PERKS_CG1_UNROLL
#define PERKS_CG1_UNROLL 4 /* Chronopoulos-Gear: its gather loads 4 values a nonzero */
#endif

typedef struct perks_cg_opts {
    double tol;   /* stop when ||r|| <= tol ||b|| */
    int max_iter; /* PERKS_ENOCONV after this many iterations */
    int jacobi;   /* 1: Jacobi (diagonal) preconditioner */
    int cache;    /* 1: vectors / matrix in shared memory when they fit; 0: never (grid path) */
    int blocks;   /* grid path: 0 planner; else this many (at most the co-resident count) */
    int x0;       /* 1: start from the x passed in; 0: from x = 0 */
    int sum_barrier; /* 1: barrier = PERKS_CG_BAR_SUM */
    int path;        /* PERKS_CG_PATH_AUTO / _GRID / _CLUSTER / _STREAM */
    int cluster;     /* cluster path: 0 planner, else 1..16 blocks */
    int barrier;     /* grid path: PERKS_CG_BAR_AUTO / _GRID / _SUM / _FLAG / _COUNT */
    int variant;     /* PERKS_CG_CLASSIC or PERKS_CG_CGEAR (grid path, grid.sync) */
    int replace;     /* residual replacement: -1 auto, 0 never, k > 0 every k iterations (classic) */
    double replace_delta; /* and once ||r|| fell by this factor: -1 auto, 0 off, (0, 1) */
    int mixed;       /* T perks_cg_mixed: 0 auto (float when the double system streams), 1 always */
    int cheb;        /* Chebyshev preconditioner p(D^-1 A) D^-1: 0 off, -1 the degree of the cost model, 1..16 */
    int cheb_steps;  /* Chebyshev: Jacobi CG steps whose coefficients bound the spectrum: 0 auto (20), 2..64 */
    int fsai;        /* 1: the FSAI preconditioner G' G (perks/fsai.h), built by name_plan; 0 off */
    int fsai_width;  /* FSAI: the entries a row of G keeps at most: 0 (PERKS_FSAI_WIDTH) or 1 .. 64 */
} perks_cg_opts;

#ifndef __CUDACC_RTC__ /* host code */
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
    o.cheb = 0;
    o.cheb_steps = 0;
    o.fsai = 0;
    o.fsai_width = 0;
    return o;
}
#endif

typedef struct perks_cg_result {
    int status;           /* PERKS_SUCCESS (the TRUE residual met tol), _EINACCURATE, _ENOCONV,
                             _EBREAKDOWN or _EDIAG */
    int iterations;       /* done (not the one that broke down; mixed: all solves) */
    double rel_residual;  /* sqrt(r.r / b.b) of the recurrence residual at the end */
    double bnorm;         /* ||b|| */
    double true_residual; /* ||b - A x|| / ||b|| of the x returned, in double */
    int replacements;     /* in the kernel (mixed: the double updates) */
    int ran;              /* PERKS_CG_RAN_*: what computed x */
    double rounding_floor; /* eps ||(|A| |x|)|| / ||b||: a relative residual much below it is rounding */
    int at_floor;          /* 1: tol < PERKS_CG_FLOOR_MARGIN rounding_floor (success is still <= tol) */
    int path;              /* the path that computed x: PERKS_CG_PATH_GRID, _CLUSTER or _STREAM */
    int precond;           /* PERKS_CG_PC_NONE, _JACOBI, _CHEB, _MG or _FSAI: what preconditioned the iterations */
    int pc_degree;         /* Chebyshev: the degree of p (0: the solve ended in the Jacobi steps); MG: the levels;
                              FSAI: the width of G's rows */
    double pc_a, pc_b;     /* Chebyshev: the interval [a, b] p was fitted to (0 when pc_degree is 0) */
    double pc_setup_ms;    /* Chebyshev: the Jacobi steps and the host math, in ms (counted in iterations);
                              FSAI: name_plan's construction of G and G' on the device, in ms */
    int pc_setup_iterations; /* Chebyshev: the Jacobi steps' iterations (part of iterations) */
} perks_cg_result;

#define PERKS_CG_PC_NONE 0
#define PERKS_CG_PC_JACOBI 1
#define PERKS_CG_PC_CHEB 2 /* Chebyshev of D^-1 A after the Jacobi steps (opts.cheb) */
#define PERKS_CG_PC_MG 3   /* a geometric multigrid V-cycle (perks/mg.cuh; pc_degree: its levels) */
#define PERKS_CG_PC_FSAI 4 /* the factorised sparse approximate inverse G' G (opts.fsai, perks/fsai.h) */
#define PERKS_CG_CHEB_STEPS 20 /* opts.cheb_steps 0: Jacobi CG steps before the polynomial */
#ifndef PERKS_CG_CHEB_NDEP_MAX
#define PERKS_CG_CHEB_NDEP_MAX 64 /* a block's neighbours at most for the steps' neighbour sync (else barriers) */
#endif
#ifndef PERKS_CG_CHEB_NSYNC_PER_SM
#define PERKS_CG_CHEB_NSYNC_PER_SM 2 /* neighbour flags from this many blocks an SM on (fewer: the count barrier) */
#endif
#ifndef PERKS_CG_CHEB_SPAN
#define PERKS_CG_CHEB_SPAN 10.0 /* opts.cheb -1: the model's spectrum reaches this far below the steps' lmin */
#endif

#define PERKS_CG_FLOOR_MARGIN 10.0 /* at_floor: tol within this factor of the rounding floor */

#define PERKS_CG_RAN_NATIVE 0   /* the plan's own precision T */
#define PERKS_CG_RAN_MIXED 1    /* mixed: float CG iterations, x and the replaced residuals in double */
#define PERKS_CG_RAN_DOUBLE 2   /* mixed: the double solver alone (the system is on chip) */
#define PERKS_CG_RAN_FALLBACK 3 /* mixed: float stalled or broke down; double finished from its x */

typedef struct perks__cg_out {
    int status, iterations, repl, pad_;
    double rr, bb;
} perks__cg_out;

typedef struct perks_cg_kargs {
    int n, sub, cache, jacobi, use_x0, max_iter, bmode, nrmax;
    int rper;  /* replacement every rper iterations (0: none) */
    int rconv; /* replacement when the recurrence meets tol */
    double rdelta2; /* and when r.r fell below rdelta2 times its last replaced value (0: off) */
    const double *va_hi, *b_hi; /* mixed: the double values and b (else NULL) */
    void *xbest;                /* the best x of a stalled solve (n T) */
    double *x_hi;               /* mixed: x in double; the kernel's x (T) the correction since the last
                                   replacement */
    double tol;
    double *bar;  /* perks_sum_barrier workspace (PERKS_SUM_BARRIER_WORDS), zeroed by perks__cg_start */
    double *flag; /* perks_flag_sum workspace (PERKS_FLAG_WORDS(G)), set to 0xff bytes by perks__cg_start */
    int *cenc;    /* cluster path, matrix in device memory: the encoded columns (nnz) */
    const int *soff, *sci; /* stream path: slice s's entries from soff[s] on, column k of its row l at
                              soff[s] + 32 k + l; sci the columns (-1: padding) */
    const void *sva;       /* stream path: the values (T, 0 where padded) */
    const int *rp, *ci, *split;
    const void *va, *b;
    void *x, *r, *z, *p0, *p1, *q, *dinv; /* CGEAR: r, z the two quad buffers, p0 = p */
    double *part; /* 8 x G block partials */
    perks__cg_out *out;
    int cdeg, cpad_;   /* Chebyshev (name_pkernel): the degree of p */
    const double *cheb; /* Chebyshev: mu[0..16], nu[0..16] of perks_cheb (device) */
    double *lanc;       /* Chebyshev: alpha[0..63], beta[0..63] of the first iterations (device) */
    void *z2, *dz;      /* Chebyshev: the second z buffer, the step (n T each) */
    void *zo, *po;      /* Chebyshev, cache tier 0: the own rows' copies of z and p (n T each) */
    const int *ndep;      /* Chebyshev: block b's neighbours ndep[ndep[b] .. ndep[b + 1] - 1] (NULL: barriers) */
    unsigned int *nflag;  /* Chebyshev: the blocks' step ids (G, zeroed before each launch) */
    const int *grp, *gci, *gtrp, *gtci; /* FSAI (name_fkernel): G and G' in CSR (device) */
    const void *gva, *gtva;             /* FSAI: their values (T) */
} perks_cg_kargs;

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* one solve (PERKS_CG_DEFINE's name_plan, name_run, name_launch): A in CSR, b, x, the options and
 * the record the run fills.  T is the instance's (double for T perks_cg_mixed). */
typedef struct perks_cg_args {
    int n;                   /* rows = columns, >= 1 */
    long long nnz;           /* nonzeros = row_ptr[n], 0 .. 2^31 - 1 */
    const int *row_ptr;      /* device, n + 1 (row_ptr[0] = 0, increasing: no empty row) */
    const int *col;          /* device, nnz */
    const void *val;         /* T *, device, nnz */
    const void *b;           /* T *, device, n */
    void *x;                 /* T *, device, n: the answer (and the start with opts.x0) */
    perks_cg_opts opts;      /* perks_cg_defaults() fills one */
    perks_cg_result *result; /* host: filled by name_run */
} perks_cg_args;

/* a run's result when it runs nothing: zeros, the code */
static inline void perks__cg_result_error(perks_cg_result *res, int rc)
{
    memset(res, 0, sizeof *res);
    res->status = rc;
}

typedef struct perks_cg_plan {
    /* the head (onchip/plan.h): path PERKS_CG_PATH_*; steps_per_pass 0; passes the CG kernel's launches at
     * most; workspace_bytes the device memory the plan holds (perks_cg_plan_free); result a->x */
    ONCHIP_PLAN_HEAD
    /* the CG plan's own */
    int n, blocks, block, sub, cached, elt;
    int barrier; /* grid path: the barrier used (PERKS_CG_BAR_*) */
    long long nnz;
    size_t smem;
    perks_cg_opts opts;
    const void *kernel; /* the kernel launched */
    int variant;        /* PERKS_CG_CLASSIC or PERKS_CG_CGEAR */
    int cheb;           /* Chebyshev (name_pkernel): opts.cheb, else 0 */
    void *ws;           /* one allocation: vectors, partials, out, split, barrier words */
    void *sell;         /* stream path: the sliced-ELL copy */
    void *nbuf;         /* Chebyshev: the neighbour lists and step ids (device; NULL: barriers) */
    int fsai;           /* FSAI (name_fkernel): 1, else 0 */
    void *gbuf;         /* FSAI: G and G' (device) */
    long long fsai_nnz; /* FSAI: the entries of G */
    double fsai_ms;     /* FSAI: the construction and copy in name_plan, ms */
    long long sell_nnz; /* stream path: the slices' entries, padding included */
    double *rpart;      /* the true-residual kernel's block partials */
    cudaStream_t stream; /* the last perks__cg_start's stream */
    perks_cg_kargs args;
    /* T perks_cg_mixed: what a solve runs first (0: not a mixed plan) */
    int mixed;                 /* PERKS_CG_RAN_MIXED: this plan's float solve, dbl the double fallback;
                                  PERKS_CG_RAN_DOUBLE: this plan is the double solver alone */
    struct perks_cg_plan *dbl; /* PERKS_CG_RAN_MIXED: the double plan (host memory, owned) */
    void *fbuf;                /* PERKS_CG_RAN_MIXED: the float values, b and correction (device) */
} perks_cg_plan;
#endif

/* the replacement bookkeeping's limits (perks/cg/replace.cuh) */
#ifndef PERKS_CG_STALL
#define PERKS_CG_STALL 2
#endif
#ifndef PERKS_CG_DIVERGE
#define PERKS_CG_DIVERGE 1e4 /* a true r.r this far above the smallest replaced one: diverging */
#endif
#ifndef PERKS_CG_WINDOW
#define PERKS_CG_WINDOW 20
#endif
#ifndef PERKS_CG_MIXED_WINDOW
#define PERKS_CG_MIXED_WINDOW 2000 /* 10 mixed periods; each must halve ||r|| */
#endif
/* the host refinement (cg/refine.cuh) and the mixed driver (cg/mixed.cuh) */
#ifndef PERKS_CG_RESTARTS
#define PERKS_CG_RESTARTS 3 /* double / Chronopoulos-Gear: refinements at most */
#endif
#ifndef PERKS_CG_RESTART_TOL
#define PERKS_CG_RESTART_TOL 0.5 /* a refinement's correction solve aims at this fraction of tol */
#endif
#ifndef PERKS_CG_MIXED_DELTA
#define PERKS_CG_MIXED_DELTA 0.1 /* mixed: a double replacement once ||r|| fell 10x */
#endif
/* the true-residual kernel (perks/cg/resid.cuh) */
#define PERKS_CG_RESID_BLOCKS 264 /* blocks of perks__cg_resid_kernel */
#define PERKS_CG_RESID_THREADS 256

/* T of the kernel bodies: T for float and double, else double (docs/onchip.md#one-sentence) */
template <class T> struct perks__cg_real {
    typedef double type;
    enum { ok = 0 };
};
template <> struct perks__cg_real<float> {
    typedef float type;
    enum { ok = 1 };
};
template <> struct perks__cg_real<double> {
    typedef double type;
    enum { ok = 1 };
};

/* BLOCK when valid (a multiple of 32, 64..1024), else 256 (docs/onchip.md#one-sentence) */
template <int B> struct perks__cg_blk {
    enum { ok = B % 32 == 0 && B >= 64 && B <= ONCHIP_THREADS_PER_BLOCK_MAX, value = ok ? B : 256 };
};

/* T perks_cg_mixed of the CG generators: a double system, float iterations, double replacements
 * (the generators read the word: a typedef of it is refused) */
struct perks_cg_mixed {
};
template <class T> struct perks__cg_is_mixed {
    enum { value = 0 };
};
template <> struct perks__cg_is_mixed<perks_cg_mixed> {
    enum { value = 1 };
};
/* PERKS__CG_PICK(PREFIX, T): the macro PREFIX##1 where T is the word perks_cg_mixed, else PREFIX##0 */
#define PERKS__CG_PICK(PREFIX, T) PERKS__CG_CAT(PREFIX, PERKS__CG_IS_MIXED(T))
#define PERKS__CG_IS_MIXED(T) PERKS__CG_CHECK(PERKS__CG_PROBE_##T, 0)
#define PERKS__CG_PROBE_perks_cg_mixed ~, 1
#define PERKS__CG_CHECK(...) PERKS__CG_2ND(__VA_ARGS__, ~)
#define PERKS__CG_2ND(a, b, ...) b
#define PERKS__CG_CAT(a, b) PERKS__CG_CAT_(a, b)
#define PERKS__CG_CAT_(a, b) a##b

#endif /* PERKS_CG_TYPES_CUH */
#include <onchip/names_pop.h>
