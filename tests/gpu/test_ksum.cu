/* tests/gpu/test_ksum.cu -- ksum/ksum.cuh against a CPU reference in double: every kernel function,
 * float and double, ragged m, n and dim (1, 7, 129, 1000, ...; dim 1 ... 256), leading dimensions
 * larger than dim (aligned and not), several right-hand sides, other microtiles, h tiny (everything
 * underflows to 0) and huge (K = 1), deterministic and atomic modes, KSUM_ACCUMULATE, a user-defined
 * kernel, every error code.  Outputs are NaN-poisoned first.  Options: --light (fewer kernels and
 * shapes), --only SUBSTRING (the kernels whose name contains it), --seed N.
 *
 * Error bound (per output, checked elementwise), eps the unit roundoff of T, t = s d^2:
 *   |v - ref| <= eps * sum_j |w_j| ( |K'(t)| s (dim + 6)(|a|^2 + |b|^2 + 2|a||b|) + 8 K(t) )
 *              + eps (n/16 + 8 + splits) sum_j |K w_j| + 1e-37 sum_j |w_j|
 * i.e. the rounding of the norm-trick distance carried through the kernel's slope, the kernel's own
 * evaluation (ex2.approx: 2^-22 relative), the summation order, and the flush to zero of results below
 * 2^-126 (float).  The worst ratio error / bound is printed per case.  Three-pass tensor-core split
 * (ksum/tc.cuh): eps 4 x float's.  One-pass TF32 (the Gaussian): a reference that rounds the dot
 * product's operands to TF32 exactly as the kernel does (which ones depends on the path: resident or
 * streamed targets, tests/common/ksum_ref.h), so that the bound is fp32's alone, (dim + 8) 2^-22 of the
 * distance's sum of magnitudes, with the ex2 and the row sums' roundings (ksum_ref.h derives it); each
 * one-pass kernel is also run with its scale 1 % off and with 8 coordinates left out of the distance,
 * which the bound must reject.  Plans: each case is planned (name_plan), checked against the path,
 * targets, launches, workspace and grid this test expects for the device and sizes, planned again with
 * a caller's workspace of exactly its workspace_bytes and run (name_run) on it; the one-pass TF32
 * reference rounds as the planned path does.  Error codes: each call on a poisoned buffer holding a,
 * b, w and v; a refused plan says why, plans no launch, and neither its run nor name_launch writes a
 * word of it; a successful call writes nothing but its v and workspace.
 * KSUM_EUNSUPPORTED (the tensor-core path below sm_80) cannot be produced on an sm_80+ device: its
 * check is shown passing. */
#include <ksum/ksum.cuh>
#include <ksum/smalldim.cuh>
#include <ksum/tc.cuh>

#include "gpucheck.h"
#include "ksum_ref.h"

#define MYK_SCALE(h) (1.0 / ((h) * (h)))
#define MYK_EVAL(T, t) ksum_rcp_##T(((T)1 + (t)) * ((T)1 + (t)))

KSUM_DEFINE(f_gauss, float, KSUM_GAUSS, ksum_policy<>)
KSUM_DEFINE(f_laplace, float, KSUM_LAPLACE, ksum_policy<>)
KSUM_DEFINE(f_cauchy, float, KSUM_CAUCHY, ksum_policy<>)
KSUM_DEFINE(f_matern32, float, KSUM_MATERN32, ksum_policy<>)
KSUM_DEFINE(f_matern52, float, KSUM_MATERN52, ksum_policy<>)
KSUM_DEFINE(f_imq, float, KSUM_IMQ, ksum_policy<>)
KSUM_DEFINE(f_user, float, MYK, ksum_policy<>)
KSUM_REGS_DEFINE(f_gauss_r4, float, KSUM_GAUSS, ksum_regs_policy<4, 8, 8, 1>)
KSUM_REGS_DEFINE(f_gauss_t44, float, KSUM_GAUSS, ksum_regs_policy<2, 4, 4, 2>)
KSUM_DEFINE(d_gauss, double, KSUM_GAUSS, ksum_policy<>)
KSUM_DEFINE(d_laplace, double, KSUM_LAPLACE, ksum_policy<>)
KSUM_DEFINE(d_matern52, double, KSUM_MATERN52, ksum_policy<>)
KSUM_REGS_DEFINE(d_imq_r3, double, KSUM_IMQ, ksum_regs_policy<3, 4, 4, 1>)
KSUM_DEFINE(f_tc1_gauss, ksum_tf32, KSUM_GAUSS, ksum_policy<>)
KSUM_DEFINE(f_tc3_gauss_r2, ksum_tf32x3, KSUM_GAUSS, ksum_policy<2>)
KSUM_DEFINE(f_tc3_matern52, ksum_tf32x3, KSUM_MATERN52, ksum_policy<>)
KSUM_SMALLDIM_DEFINE(f_sd_gauss3, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 1>)
KSUM_SMALLDIM_DEFINE(f_sd_gauss8_r2, KSUM_GAUSS, ksum_smalldim_policy<8, 2, 1, 2>)
KSUM_SMALLDIM_DEFINE(f_sd_gauss4_poly, KSUM_GAUSS, ksum_smalldim_policy<4, 1, 1, 8>)
KSUM_SMALLDIM_DEFINE(f_sd_matern52, KSUM_MATERN52, ksum_smalldim_policy<5>)
KSUM_SMALLDIM_DEFINE(f_sd_gauss3_b3, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 0, 3>)
KSUM_DEFINE(f_gauss_f32r4, float, KSUM_GAUSS, ksum_policy<4, 1>)
KSUM_REGS_DEFINE(f_tc1v1_gauss, ksum_tf32, KSUM_GAUSS, ksum_regs_policy<>)
/* the staged tensor-core kernel's other fragment-read variants (tc.cuh, WIDE; the default of ksum_tf32
 * is 4/0: m16n8k4 resident, scalar reads streamed): 3/1 = permuted points, LDS.128 reads, m16n8k8,
 * targets rounded once (resident), 1 streamed; 0/0 = scalar reads (one 4-byte LDS an element) */
KSUM_DEFINE(f_tc1w3_gauss_r2, ksum_tf32, KSUM_GAUSS, ksum_policy<2, 0, KSUM_SCHEDULE_MMA, 3, 1>)
KSUM_DEFINE(f_tc1r2_gauss, ksum_tf32, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 0, 0>)
/* the mma.sync kernels of KSUM_DEFINE's ksum_tf32 / ksum_tf32x3 (their fallback where wgmma does not run:
 * sm_80/89, sm_90 without an sm_90a build, dim beyond the wgmma kernel's shared memory), tested on every
 * device */
KSUM_DEFINE(f_tc1mma_gauss, ksum_tf32, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 4, 0>)
KSUM_DEFINE(f_tc3mma_gauss_r2, ksum_tf32x3, KSUM_GAUSS, ksum_policy<2, 0, KSUM_SCHEDULE_MMA, 1, 0>)

enum { K_GAUSS, K_LAPLACE, K_CAUCHY, K_M32, K_M52, K_IMQ, K_USER };
typedef int (*launch_fn)(const ksum_args *, cudaStream_t);
typedef int (*plan_fn)(const ksum_args *, ksum_plan *);
typedef int (*run_fn)(const ksum_args *, const ksum_plan *, cudaStream_t);
/* a generator's three verbs */
typedef struct gen {
    launch_fn launch;
    plan_fn plan;
    run_fn run;
} gen;
#define GEN(n) gen{n##_launch, n##_plan, n##_run}
typedef struct kern {
    const char *name;
    gen g;
    int kind, R, dbl, bm;
    int tc;   /* tensor-core passes (0: SIMT) */
    int dmax; /* small-dim variant (ksum/smalldim.cuh): dim <= dmax; 0: any dim */
    int path; /* the plan's path: KSUM_PATH_*; KSUM_PATH_WGMMA: wgmma where it takes the arguments, else
                 KSUM_PATH_MMA (KSUM_DEFINE of ksum_tf32 / ksum_tf32x3, SCHEDULE AUTO) */
    const void *wg; /* that generator's name_kernel_wg, else NULL */
} kern;
#define KERN(label, n, kind, R, dbl, bm, tc, dmax, path) {label, GEN(n), kind, R, dbl, bm, tc, dmax, path, NULL}
#define KERN_WG(label, n, kind, R, tc) \
    {label, GEN(n), kind, R, 0, 128, tc, 0, KSUM_PATH_WGMMA, (const void *)n##_kernel_wg}
static const kern kernels[] = {
    KERN("float gauss", f_gauss, K_GAUSS, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float laplace", f_laplace, K_LAPLACE, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float cauchy", f_cauchy, K_CAUCHY, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float matern32", f_matern32, K_M32, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float matern52", f_matern52, K_M52, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float imq", f_imq, K_IMQ, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float user (1+d^2/h^2)^-2", f_user, K_USER, 1, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("float gauss R=4", f_gauss_r4, K_GAUSS, 4, 0, 128, 0, 0, KSUM_PATH_REGS),
    KERN("float gauss 4x4 R=2", f_gauss_t44, K_GAUSS, 2, 0, 64, 0, 0, KSUM_PATH_REGS),
    KERN("double gauss", d_gauss, K_GAUSS, 1, 1, 64, 0, 0, KSUM_PATH_REGS),
    KERN("double laplace", d_laplace, K_LAPLACE, 1, 1, 64, 0, 0, KSUM_PATH_REGS),
    KERN("double matern52", d_matern52, K_M52, 1, 1, 64, 0, 0, KSUM_PATH_REGS),
    KERN("double imq R=3 4x4", d_imq_r3, K_IMQ, 3, 1, 64, 0, 0, KSUM_PATH_REGS),
    KERN_WG("tf32 1-pass gauss", f_tc1_gauss, K_GAUSS, 1, 1),
    KERN_WG("tf32 3-pass gauss R=2", f_tc3_gauss_r2, K_GAUSS, 2, 3),
    KERN_WG("tf32 3-pass matern52", f_tc3_matern52, K_M52, 1, 3),
    KERN("smalldim gauss dim<=3 1/8 poly", f_sd_gauss3, K_GAUSS, 1, 0, 2048, 0, 3, KSUM_PATH_SMALLDIM),
    KERN("smalldim gauss dim<=8 R=2 2/8 poly", f_sd_gauss8_r2, K_GAUSS, 2, 0, 2048, 0, 8, KSUM_PATH_SMALLDIM),
    KERN("smalldim gauss dim<=4 all poly", f_sd_gauss4_poly, K_GAUSS, 1, 0, 2048, 0, 4, KSUM_PATH_SMALLDIM),
    KERN("smalldim matern52 dim<=5", f_sd_matern52, K_M52, 1, 0, 2048, 0, 5, KSUM_PATH_SMALLDIM),
    KERN("smalldim gauss dim<=3 no poly 3 blocks/SM", f_sd_gauss3_b3, K_GAUSS, 1, 0, 2048, 0, 3, KSUM_PATH_SMALLDIM),
    KERN("float gauss R=4 (the staged path)", f_gauss_f32r4, K_GAUSS, 4, 0, 128, 0, 0, KSUM_PATH_STAGED),
    KERN("tf32 1-pass gauss (register-staged)", f_tc1v1_gauss, K_GAUSS, 1, 0, 128, 1, 0, KSUM_PATH_REGS_MMA),
    KERN("tf32 1-pass gauss R=2 (WIDE 3/1: m16n8k8, LDS.128)", f_tc1w3_gauss_r2, K_GAUSS, 2, 0, 128, 1, 0, KSUM_PATH_MMA),
    KERN("tf32 1-pass gauss (WIDE 0: scalar reads)", f_tc1r2_gauss, K_GAUSS, 1, 0, 128, 1, 0, KSUM_PATH_MMA),
    KERN("tf32 1-pass gauss (mma.sync kernels only)", f_tc1mma_gauss, K_GAUSS, 1, 0, 128, 1, 0, KSUM_PATH_MMA),
    KERN("tf32 3-pass gauss R=2 (mma.sync kernels only)", f_tc3mma_gauss_r2, K_GAUSS, 2, 0, 128, 3, 0, KSUM_PATH_MMA),
};
/* the plan's head is onchip_plan's, field by field */
static_assert(offsetof(ksum_plan, path) == offsetof(onchip_plan, path) &&
                  offsetof(ksum_plan, why) == offsetof(onchip_plan, why) &&
                  offsetof(ksum_plan, steps_per_pass) == offsetof(onchip_plan, steps_per_pass) &&
                  offsetof(ksum_plan, passes) == offsetof(onchip_plan, passes) &&
                  offsetof(ksum_plan, workspace_bytes) == offsetof(onchip_plan, workspace_bytes) &&
                  offsetof(ksum_plan, result) == offsetof(onchip_plan, result),
              "ksum_plan must begin with onchip_plan's fields");
/* small-dim variants take the shapes' dims folded into 1..dmax */
static int fold_dim(const kern *k, int dim) { return k->dmax && dim > k->dmax ? 1 + dim % k->dmax : dim; }

/* the kernel's scale s and, on t = s d^2, its value and |slope| -- from the definitions */
static double kscale(int kind, double h)
{
    switch (kind) {
    case K_GAUSS: return 1.4426950408889634 / (2 * h * h);
    case K_M32: return 3 / (h * h);
    case K_M52: return 5 / (h * h);
    default: return 1 / (h * h);
    }
}
static double kval(int kind, double t, double *slope)
{
    double r = sqrt(t), e;
    switch (kind) {
    case K_GAUSS: e = exp2(-t); *slope = 0.6931471805599453 * e; return e;
    case K_LAPLACE: e = exp(-r); *slope = e / (2 * (r > 1e-150 ? r : 1e-150)); return e;
    case K_CAUCHY: *slope = 1 / ((1 + t) * (1 + t)); return 1 / (1 + t);
    case K_M32: e = exp(-r); *slope = e / 2; return (1 + r) * e;
    case K_M52: e = exp(-r); *slope = (1 + r) * e / 6; return (1 + r + t / 3) * e;
    case K_IMQ: *slope = 0.5 * pow(1 + t, -1.5); return 1 / sqrt(1 + t);
    default: *slope = 2 / ((1 + t) * (1 + t) * (1 + t)); return 1 / ((1 + t) * (1 + t));
    }
}

typedef struct shape {
    int m, n, dim, pad, nrhs; /* pad: lda = ldb = dim + pad */
    double hf;                /* h = hf * sqrt(dim) (hf < 0: h = -hf absolute) */
    int det;                  /* KSUM_DETERMINISTIC */
} shape;

/* a wrong computation put on the GPU on purpose (the bound must reject it): the scale s times smul
 * (h / sqrt(smul) given to the kernel), and the last drop coordinates left out of the distance (dim -
 * drop given, the rows still ld apart); the reference keeps the right values */
typedef struct fault {
    double smul;
    int drop;
} fault;

/* the why of a plan's head (onchip/plan.h: any family's plan read alike) */
static const char *head_why(const ksum_plan *p) { return onchip_plan_head(p).why; }

/* an sm_90 device and a build with sm_90a code (the Makefile's ARCH=90 builds sm_90a and says so with
 * ONCHIP_SM90A): where KSUM_DEFINE of ksum_tf32 / ksum_tf32x3 has its wgmma kernel */
static int wg_built(void)
{
#ifdef ONCHIP_SM90A
    int dev = 0, major = 0, minor = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    return major == 9 && minor == 0;
#else
    return 0;
#endif
}
/* the wgmma kernel's prepared sources: ceil(n / 128) tiles of ceil(dim / 32) 16 KB blocks (x2 for three
 * passes) and a record of 128 (1 + R) floats (docs/ksum.md) */
static size_t wg_work(const kern *k, const ksum_args *a)
{
    return (size_t)((a->n + 127) / 128) *
           ((size_t)((a->dim + 31) / 32) * 16384 * (k->tc == 3 ? 2 : 1) + 512 * (size_t)(1 + k->R));
}
/* whether k's wgmma kernel takes these arguments: built here, its shared memory ((4 + ceil(dim / 32))
 * tiles of 16 KB, x2 for three passes, 4 records of 128 (1 + R) floats, 1 KB of alignment and its
 * static part) within the device's opt-in limit, a caller's workspace (if any) holding the prepared
 * sources */
static int wg_takes(const kern *k, const ksum_args *a)
{
    if (!k->wg || !wg_built()) return 0;
    int dev = 0, optin = 0;
    cudaFuncAttributes fa;
    memset(&fa, 0, sizeof fa);
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    CUDA_OK(cudaFuncGetAttributes(&fa, k->wg));
    const long long np = k->tc == 3 ? 2 : 1, nkb = (a->dim + 31) / 32;
    const long long bytes = np * (nkb + 4) * 16384 + 4LL * 128 * (1 + k->R) * 4 + 1024 + (long long)fa.sharedSizeBytes;
    return bytes <= optin && (!a->work || a->work_bytes >= wg_work(k, a));
}
/* the path the plan must take for k and a */
static int want_path(const kern *k, const ksum_args *a)
{
    if (k->path != KSUM_PATH_WGMMA) return k->path;
    return wg_takes(k, a) ? KSUM_PATH_WGMMA : KSUM_PATH_MMA;
}
/* the staged kernels' targets (float, and TF32 mma.sync): resident when dim rounded up to 8 is at most
 * 128 and MINB blocks of the resident kernel's shared memory (+ 2 KB each) fit an SM (MINB the default
 * of the instances here: 2 for R = 1, else 1), else streamed */
static int want_resident(const kern *k, const ksum_args *a)
{
    int dev = 0, optin = 0, persm = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    CUDA_OK(cudaDeviceGetAttribute(&persm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    const int dp = (a->dim + 7) & ~7, ks = dp < 32 ? dp : 32, minb = k->R > 1 ? 1 : 2;
    const size_t bytes = ksum__stage_smem(dp, ks, 1, k->R, k->tc ? KSUM__TC_PAD : KSUM_GEMM_P);
    return dp <= 128 && bytes <= (size_t)optin && (bytes + 2048) * minb <= (size_t)persm;
}
/* the workspace a plan of this path uses: the norms (ksum_work_bytes); wgmma the prepared sources,
 * small-dim in deterministic mode with several splits the splits' partial sums, each at least the norms'
 * bytes (a caller's workspace passes that check); small-dim otherwise none */
static size_t want_work(const kern *k, const ksum_args *a, const ksum_plan *p)
{
    const size_t nk = ksum_work_bytes(a->m, a->n, k->dbl ? 8 : 4);
    size_t w = nk;
    if (p->path == KSUM_PATH_WGMMA) w = wg_work(k, a);
    if (p->path == KSUM_PATH_SMALLDIM) {
        if (!(a->flags & KSUM_DETERMINISTIC) || p->splits < 2) return 0;
        w = (size_t)p->splits * (size_t)a->m * (size_t)(a->nrhs ? a->nrhs : 1) * 4;
    }
    return w > nk ? w : nk;
}
/* the promise of a successful plan: the path this test expects of k for a, its why a sentence the head
 * reads too, no steps, the launches name_run makes (the pre-pass and the small-dim reduction count),
 * the workspace, the answer in v, the staged kernels' targets, a grid over all targets and sources */
static void check_plan_ok(const kern *k, const ksum_args *a, const ksum_plan *p)
{
    const int want = want_path(k, a);
    CHECK(p->path == want, "plan path %d (%s), want %d (m %d n %d dim %d, work %zu bytes)", p->path,
          p->why ? p->why : "no why", want, a->m, a->n, a->dim, a->work ? a->work_bytes : 0);
    CHECK(p->why && p->why[0] && head_why(p) == p->why, "the plan's why is empty or not the head's");
    CHECK(p->result == a->v, "result %p, v %p", p->result, a->v);
    const int det = (a->flags & KSUM_DETERMINISTIC) != 0;
    const long long passes = p->path == KSUM_PATH_SMALLDIM && !(det && p->splits > 1) ? 1 : 2;
    CHECK(p->steps_per_pass == 0 && p->passes == passes, "steps_per_pass %d passes %lld, want 0 and %lld",
          p->steps_per_pass, p->passes, passes);
    const size_t wb = want_work(k, a, p);
    CHECK(p->workspace_bytes == wb, "workspace_bytes %zu, want %zu (%s)", p->workspace_bytes, wb, p->why);
    if (p->path == KSUM_PATH_STAGED || p->path == KSUM_PATH_MMA) {
        const int res = want_resident(k, a);
        CHECK(p->resident == res, "targets %s, want %s (dim %d)", p->resident ? "resident" : "streamed",
              res ? "resident" : "streamed", a->dim);
    } else CHECK(p->resident == 0, "resident %d off the staged paths", p->resident);
    const int bn = k->dmax ? 256 : k->bm;
    const long long ntiles = (a->n + bn - 1) / bn;
    CHECK(p->blocks == ((long long)a->m + k->bm - 1) / k->bm, "blocks %lld for m %d", p->blocks, a->m);
    CHECK(p->splits >= 1 && p->tiles_per_split >= 1 && (long long)p->splits * p->tiles_per_split >= ntiles &&
              (long long)(p->splits - 1) * p->tiles_per_split < ntiles,
          "splits %d x %d tiles for %lld", p->splits, p->tiles_per_split, ntiles);
    if (det && !k->dmax) CHECK(p->splits == 1, "deterministic: %d splits", p->splits);
}

/* run_case's workspace: 0 a caller's of exactly the plan's workspace_bytes, 1 one of ksum_work_bytes (the
 * least the checks take: KSUM_DEFINE of ksum_tf32 then runs mma.sync where the prepared sources are larger) */
static int run_min_work = 0;

/* the largest |g - ref| / bound over the cnt outputs g (float or double in buf); *bad counts those
 * beyond their bound (a NaN ratio counts as beyond), *nonfinite those not finite */
static double compare(const void *buf, int dbl, const double *ref, const double *bound, size_t cnt, long long *bad,
                      long long *nonfinite)
{
    double worst = 0;
    *bad = *nonfinite = 0;
    for (size_t i = 0; i < cnt; i++) {
        double g = dbl ? ((const double *)buf)[i] : ((const float *)buf)[i];
        if (!isfinite(g)) { (*nonfinite)++; continue; }
        double e = fabs(g - ref[i]) / bound[i];
        if (!(e <= worst)) worst = e; /* a NaN ratio (a bound of 0) stays the worst */
        if (!(e <= 1)) (*bad)++;      /* and fails */
    }
    return worst;
}

/* one case: fresh data, poison, launch, compare with the bound; returns the worst error/bound.  With a
 * fault (f != NULL) the outputs beyond the bound are counted into *nbad instead of failing the case. */
static double run_case(const kern *k, const shape *sh, unsigned extra_flags, int splits, const fault *f, long long *nbad)
{
    const int m = sh->m, n = sh->n, dim = sh->dim, R = sh->nrhs;
    const long long ld = dim + sh->pad;
    const double h = sh->hf < 0 ? -sh->hf : sh->hf * sqrt((double)dim);
    const size_t es = k->dbl ? 8 : 4;
    /* unit roundoff: T's, 4 x float's for the three-pass tensor-core split (one pass: ksum_ref.h) */
    const double eps = k->dbl ? 1.1102230246251565e-16 : k->tc == 3 ? 2.384185791015625e-07 : 5.960464477539063e-08;
    double *ha = (double *)malloc((size_t)m * ld * 8), *hb = (double *)malloc((size_t)n * ld * 8);
    double *hw = (double *)malloc((size_t)n * R * 8), *v0 = (double *)malloc((size_t)m * R * 8);
    double *ref = (double *)malloc((size_t)m * R * 8), *bound = (double *)malloc((size_t)m * R * 8);
    void *buf = malloc(((size_t)(m > n ? m : n) * (ld > R ? ld : R)) * es);
    for (size_t i = 0; i < (size_t)m * ld; i++) ha[i] = gpucheck_uniform();
    for (size_t i = 0; i < (size_t)n * ld; i++) hb[i] = gpucheck_uniform();
    for (size_t i = 0; i < (size_t)n * R; i++) hw[i] = gpucheck_uniform();
    for (size_t i = 0; i < (size_t)m * R; i++) v0[i] = (extra_flags & KSUM_ACCUMULATE) ? gpucheck_uniform() : 0;
    /* round to T: the reference sees what the GPU sees */
#define ROUND(x, cnt) for (size_t i_ = 0; i_ < (size_t)(cnt); i_++) if (!k->dbl) (x)[i_] = (float)(x)[i_];
    ROUND(ha, (size_t)m * ld) ROUND(hb, (size_t)n * ld) ROUND(hw, (size_t)n * R) ROUND(v0, (size_t)m * R)
    void *da, *db, *dw, *dv;
    CUDA_OK(cudaMalloc(&da, (size_t)m * ld * es));
    CUDA_OK(cudaMalloc(&db, (size_t)n * ld * es));
    CUDA_OK(cudaMalloc(&dw, (size_t)n * R * es));
    CUDA_OK(cudaMalloc(&dv, (size_t)m * R * es));
#define UPLOAD(d, x, cnt)                                                                               \
    do {                                                                                                \
        for (size_t i_ = 0; i_ < (size_t)(cnt); i_++)                                                   \
            if (k->dbl) ((double *)buf)[i_] = (x)[i_]; else ((float *)buf)[i_] = (float)(x)[i_];        \
        CUDA_OK(cudaMemcpy(d, buf, (size_t)(cnt)*es, cudaMemcpyHostToDevice));                         \
    } while (0)
    UPLOAD(da, ha, (size_t)m * ld);
    UPLOAD(db, hb, (size_t)n * ld);
    UPLOAD(dw, hw, (size_t)n * R);
    if (extra_flags & KSUM_ACCUMULATE) UPLOAD(dv, v0, (size_t)m * R);
    else CUDA_OK(cudaMemset(dv, 0xFF, (size_t)m * R * es)); /* NaN poison */
    ksum_args a;
    memset(&a, 0, sizeof a);
    a.a = da; a.b = db; a.w = dw; a.v = dv; a.m = m; a.n = n; a.dim = dim; a.nrhs = R;
    a.lda = sh->pad ? ld : 0; a.ldb = ld; a.h = h; a.splits = splits;
    a.flags = (sh->det ? KSUM_DETERMINISTIC : 0u) | extra_flags;
    if (f) { /* the wrong computation: another scale, fewer coordinates (rows still ld apart) */
        a.h = h / sqrt(f->smul);
        a.dim = dim - f->drop;
        a.lda = ld;
    }
    /* the plan (workspace NULL), then again with a caller's workspace of its workspace_bytes (or of
     * ksum_work_bytes: run_min_work), poisoned (the run writes what it reads there): the run uses it */
    ksum_plan p;
    memset(&p, 0, sizeof p);
    int rc = k->g.plan(&a, &p);
    CHECK(rc == 0, "plan rc %d (%s): %s (m %d n %d dim %d)", rc, ksum_strerror(rc), p.why ? p.why : "no why", m, n, dim);
    if (!rc) check_plan_ok(k, &a, &p);
    const size_t wbytes = run_min_work ? ksum_work_bytes(m, n, es) : p.workspace_bytes;
    void *dwork = NULL;
    if (!rc && wbytes) {
        CUDA_OK(cudaMalloc(&dwork, wbytes));
        CUDA_OK(cudaMemset(dwork, 0xFF, wbytes));
        a.work = dwork;
        a.work_bytes = wbytes;
        ksum_plan q;
        memset(&q, 0, sizeof q);
        rc = k->g.plan(&a, &q);
        CHECK(rc == 0, "plan with a workspace of %zu bytes: rc %d (%s)", wbytes, rc, ksum_strerror(rc));
        if (!rc) {
            check_plan_ok(k, &a, &q);
            if (!run_min_work)
                CHECK(q.path == p.path && q.workspace_bytes == p.workspace_bytes && q.resident == p.resident,
                      "with a workspace of its workspace_bytes the plan changed: path %d -> %d, %zu -> %zu bytes",
                      p.path, q.path, p.workspace_bytes, q.workspace_bytes);
            p = q;
        }
    }
    /* reference */
    int model = -1;
    if (k->tc == 1) { /* one-pass TF32 (Gaussian): the reference rounds the operands as the kernel does: the
                       * targets resident (wgmma, register-staged, staged resident) or streamed, as planned */
        CHECK(k->kind == K_GAUSS, "no one-pass TF32 reference for this kernel function");
        model = p.path == KSUM_PATH_MMA && !p.resident ? KSUM_REF_STREAMED : KSUM_REF_RESIDENT;
        CHECK(ksum_ref_tc1_gauss(model, m, n, dim, ld, ha, hb, hw, R, v0, KSUM_GAUSS_SCALE(h), ref, bound) == 0,
              "out of memory");
    } else {
        const double s = kscale(k->kind, h);
        double *nb = (double *)malloc((size_t)n * 8);
        for (int j = 0; j < n; j++) {
            double q = 0;
            for (int c = 0; c < dim; c++) q += hb[j * ld + c] * hb[j * ld + c];
            nb[j] = q;
        }
        for (int i = 0; i < m; i++) {
            double na = 0;
            for (int c = 0; c < dim; c++) na += ha[i * ld + c] * ha[i * ld + c];
            double acc[8] = {0}, mag[8] = {0}, sl[8] = {0}, wabs = 0;
            for (int j = 0; j < n; j++) {
                double d2 = 0;
                for (int c = 0; c < dim; c++) {
                    double x = ha[i * ld + c] - hb[j * ld + c];
                    d2 += x * x;
                }
                double slope, kv = kval(k->kind, s * d2, &slope);
                double dt = s * (dim + 6) * (na + nb[j] + 2 * sqrt(na * nb[j]));
                for (int r = 0; r < R; r++) {
                    double wj = hw[j * R + r];
                    acc[r] += kv * wj;
                    mag[r] += fabs(kv * wj);
                    sl[r] += fabs(wj) * (slope * (dt + 4 * s * d2) + 8 * kv);
                    if (r == 0) wabs += fabs(wj);
                }
            }
            for (int r = 0; r < R; r++) {
                ref[i * R + r] = v0[i * R + r] + acc[r];
                bound[i * R + r] = eps * (sl[r] + (n / 16.0 + 8 + splits + 2) * mag[r] + fabs(v0[i * R + r])) + 1e-37 * wabs * R;
            }
        }
        free(nb);
    }
    if (!rc) {
        rc = k->g.run(&a, &p, 0);
        CHECK(rc == 0, "run rc %d (%s) m %d n %d dim %d", rc, ksum_strerror(rc), m, n, dim);
    }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(buf, dv, (size_t)m * R * es, cudaMemcpyDeviceToHost)); /* p.result is v */
    long long bad = 0, nonfinite = 0;
    const double worst = compare(buf, k->dbl, ref, bound, (size_t)m * R, &bad, &nonfinite);
    CHECK(nonfinite == 0, "%lld outputs not written or not finite (m %d n %d dim %d)", nonfinite, m, n, dim);
    if (f) *nbad = bad;
    else if (bad && model >= 0) { /* say also how the outputs compare with the other operand rounding */
        const int other = model == KSUM_REF_RESIDENT ? KSUM_REF_STREAMED : KSUM_REF_RESIDENT;
        long long bad2 = 0, nf2 = 0;
        double worst2 = NAN;
        if (ksum_ref_tc1_gauss(other, m, n, dim, ld, ha, hb, hw, R, v0, KSUM_GAUSS_SCALE(h), ref, bound) == 0)
            worst2 = compare(buf, 0, ref, bound, (size_t)m * R, &bad2, &nf2);
        CHECK(bad == 0,
              "%lld outputs beyond the bound, worst error/bound %.3g (m %d n %d dim %d h %g nrhs %d; TF32 operands "
              "%s; against the %s rounding: %lld beyond, worst %.3g)",
              bad, worst, m, n, dim, h, R, model == KSUM_REF_RESIDENT ? "resident" : "streamed",
              other == KSUM_REF_RESIDENT ? "resident" : "streamed", bad2, worst2);
    } else
        CHECK(bad == 0, "%lld outputs beyond the bound, worst error/bound %.3g (m %d n %d dim %d h %g nrhs %d)", bad,
              worst, m, n, dim, h, R);
    if (!f && sh->det && !(extra_flags & KSUM_ACCUMULATE)) {
        /* deterministic: bitwise the same twice, the second by name_launch with its own workspace */
        void *again = malloc((size_t)m * R * es);
        CUDA_OK(cudaMemset(dv, 0xFF, (size_t)m * R * es));
        a.work = NULL;
        a.work_bytes = 0;
        rc = k->g.launch(&a, 0);
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(again, dv, (size_t)m * R * es, cudaMemcpyDeviceToHost));
        CHECK(rc == 0 && memcmp(again, buf, (size_t)m * R * es) == 0, "deterministic mode: two runs differ");
        free(again);
    }
    cudaFree(da); cudaFree(db); cudaFree(dw); cudaFree(dv);
    if (dwork) cudaFree(dwork);
    free(ha); free(hb); free(hw); free(v0); free(ref); free(bound); free(buf);
    return worst;
}

static void run_kernel(const kern *k, int light)
{
    /* m, n, dim, pad, nrhs, hf, det */
    const shape shapes[] = {
        {1, 1, 1, 0, 1, 0.5, 0},      {7, 129, 3, 0, 1, 0.3, 0},     {129, 7, 8, 0, 1, 1.0, 1},
        {1000, 1000, 3, 0, 1, 0.2, 0}, {65, 2, 129, 0, 1, 1.0, 0},    {7, 1000, 9, 3, 1, 0.4, 1},
        {300, 257, 64, 4, 1, 0.5, 0},  {1000, 129, 256, 0, 1, 0.3, 0}, {129, 1000, 33, 0, 1, 0.5, 0},
        {200, 300, 17, 1, 1, 0.7, 1},  {1000, 3, 32, 0, 1, 0.5, 0},   {333, 444, 255, 0, 1, 0.6, 0},
        {257, 1, 16, 0, 1, 0.5, 0},   {2, 1000, 5, 0, 1, 0.5, 1},
    };
    const int nsh = light ? 5 : (int)(sizeof shapes / sizeof *shapes);
    char name[160];
    snprintf(name, sizeof name, "ksum %s: ragged m, n, dim (1..256), ld > dim, det/atomic", k->name);
    case_begin(name);
    double worst = 0;
    for (int si = 0; si < nsh && !check__failed_case; si++) {
        shape sh = shapes[si];
        sh.nrhs = k->R;
        sh.dim = fold_dim(k, sh.dim);
        double w = run_case(k, &sh, 0, 0, NULL, NULL);
        if (!(w <= worst)) worst = w;
        if (k->R > 1 && !check__failed_case) { /* fewer right-hand sides than R */
            sh.nrhs = k->R - 1;
            w = run_case(k, &sh, 0, 0, NULL, NULL);
            if (!(w <= worst)) worst = w;
        }
    }
    printf("    worst error/bound %.3g\n", worst);
    case_end();
}

/* h tiny (every kernel value underflows: v = 0 except within round-off of coincident points) and
 * h huge (every value 1: v = sum w), splits forced, KSUM_ACCUMULATE in both modes; KSUM_DEFINE of
 * ksum_tf32 with a workspace too small for wgmma */
static void run_extremes(const kern *k)
{
    char name[160];
    snprintf(name, sizeof name, "ksum %s: h tiny and huge, forced splits, accumulate", k->name);
    case_begin(name);
    shape tiny = {129, 300, 7, 0, k->R, k->dbl ? -1e-100 : -1e-6, 0};
    shape huge = {300, 129, 40, 0, k->R, -1e6, 1};
    shape mid = {500, 1000, 12, 0, k->R, 0.5, 0};
    tiny.dim = fold_dim(k, tiny.dim); huge.dim = fold_dim(k, huge.dim); mid.dim = fold_dim(k, mid.dim);
    if (k->dmax) { /* s|a|^2 on both sides of 64: threads on the factorised and the general path */
        shape mixed = {5000, 700, k->dmax, 0, k->R, 0.05, 0};
        run_case(k, &mixed, 0, 0, NULL, NULL);
        mixed.det = 1; mixed.m = 2100; mixed.n = 3000; /* 12 chunks in one split, ragged last one */
        run_case(k, &mixed, 0, 0, NULL, NULL);
    }
    if (!k->dmax && !k->dbl && !k->tc && k->kind == K_GAUSS) {
        /* the staged float Gaussian factorises 2^-t = 2^-s|a|^2 2^-(t - s|a|^2) when a thread's 8 targets
         * all have s|a|^2 <= 64: here ~10 % of threads exceed it (general path), at dim 8 and dim 32 */
        shape mixed8 = {3000, 700, 8, 0, k->R, 0.08, 0}, mixed32 = {2000, 500, 32, 0, k->R, 0.07, 1};
        run_case(k, &mixed8, 0, 0, NULL, NULL);
        run_case(k, &mixed32, 0, 0, NULL, NULL);
    }
    if (k->path == KSUM_PATH_WGMMA) {
        /* a caller's workspace of ksum_work_bytes only: smaller than the prepared sources, so the plan
         * takes mma.sync, whose streamed targets (dim 256) round other operands than wgmma's */
        shape wide = {300, 257, 256, 0, k->R, 0.3, 0};
        run_min_work = 1;
        if (k->tc == 1) run_case(k, &wide, 0, 0, NULL, NULL);
        run_case(k, &mid, 0, 0, NULL, NULL);
        run_min_work = 0;
    }
    run_case(k, &tiny, 0, 0, NULL, NULL);
    run_case(k, &huge, 0, 0, NULL, NULL);
    run_case(k, &mid, 0, 3, NULL, NULL);
    run_case(k, &mid, 0, 8, NULL, NULL);
    run_case(k, &mid, KSUM_ACCUMULATE, 0, NULL, NULL);
    mid.det = 1;
    run_case(k, &mid, KSUM_ACCUMULATE, 0, NULL, NULL);
    case_end();
}

/* one call of the error-code case on the 4096 floats at d (a, b, w and v of g inside them): d poisoned
 * (0xFF bytes) first; name_plan returns the code; refused, the plan says why, plans no launch, its run
 * launches nothing and name_launch returns the same code; planned, the run succeeds; then every word
 * of d is read back: a refused call writes nothing anywhere in it, a successful one only its v (m x nrhs)
 * and the workspace it was given */
enum { ERR_WORDS = 4096 };
static void expect_call(const char *what, int code, gen g, const ksum_args *a, float *d, unsigned *hv)
{
    CUDA_OK(cudaMemset(d, 0xFF, ERR_WORDS * 4));
    ksum_plan p;
    memset(&p, 0, sizeof p);
    p.passes = -1; p.why = NULL; p.result = (void *)&p; /* each must be written */
    const int rc = g.plan(a, &p);
    CHECK(rc == code, "%s: plan %d (%s: %s), want %d", what, rc, ksum_strerror(rc), p.why ? p.why : "no why", code);
    CHECK(p.why && p.why[0] && head_why(&p) == p.why, "%s: the plan's why is empty", what);
    if (code != KSUM_SUCCESS) {
        CHECK(p.passes == 0, "%s: a refused plan with %lld passes", what, p.passes);
        const int rr = g.run(a, &p, 0); /* nothing to launch */
        CHECK(rr == (a ? KSUM_SUCCESS : KSUM_ENULL), "%s: the refused plan's run returned %d", what, rr);
        const int rl = g.launch(a, 0);
        CHECK(rl == code, "%s: launch %d (%s), want %d", what, rl, ksum_strerror(rl), code);
    } else {
        CHECK(p.passes >= 1 && p.result == a->v, "%s: %lld passes, result %p (v %p)", what, p.passes, p.result, a->v);
        const int rr = g.run(a, &p, 0);
        CHECK(rr == KSUM_SUCCESS, "%s: run %d (%s)", what, rr, ksum_strerror(rr));
    }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(hv, d, ERR_WORDS * 4, cudaMemcpyDeviceToHost));
    const float *v = a ? (const float *)a->v : NULL, *wk = a ? (const float *)a->work : NULL;
    const long long nv = a ? (long long)a->m * (a->nrhs > 0 ? a->nrhs : 1) : 0;
    const long long nwk = a && wk ? (long long)(a->work_bytes / 4) : 0;
    long long stray = 0;
    for (long long i = 0; i < ERR_WORDS; i++) {
        const float *q = d + i;
        const int mine = code == KSUM_SUCCESS && ((v && q >= v && q < v + nv) || (wk && q >= wk && q < wk + nwk));
        if (hv[i] != 0xFFFFFFFFu && !mine) stray++;
    }
    CHECK(stray == 0, "%s: %lld words written %s", what, stray,
          code == KSUM_SUCCESS ? "outside its v and workspace" : "by a refused call");
}

static void run_errors(void)
{
    case_begin("ksum error codes: NULL, sizes, ld, h, scale overflow, nrhs, flags, splits, workspace; nothing written");
    float *d = NULL;
    unsigned *hv = (unsigned *)malloc(ERR_WORDS * 4);
    CUDA_OK(cudaMalloc(&d, ERR_WORDS * 4));
    ksum_args g;
    memset(&g, 0, sizeof g);
    g.a = d; g.b = d + 1024; g.w = d + 2048; g.v = d + 3072; g.m = 10; g.n = 10; g.dim = 3; g.h = 1;
    ksum_args a;
#define EXPECT(code, n, stmt)                                                                           \
    do {                                                                                                \
        a = g;                                                                                          \
        stmt;                                                                                           \
        expect_call(#n ": " #stmt, (code), GEN(n), &a, d, hv);                                          \
    } while (0)
    expect_call("NULL args", KSUM_ENULL, GEN(f_gauss), NULL, d, hv);
    expect_call("NULL args, small-dim", KSUM_ENULL, GEN(f_sd_gauss3), NULL, d, hv);
    expect_call("NULL args, tf32", KSUM_ENULL, GEN(f_tc1_gauss), NULL, d, hv);
    EXPECT(KSUM_ENULL, f_gauss, a.a = NULL);
    EXPECT(KSUM_ENULL, f_gauss, a.b = NULL);
    EXPECT(KSUM_ENULL, f_gauss, a.w = NULL);
    EXPECT(KSUM_ENULL, f_gauss, a.v = NULL);
    EXPECT(KSUM_ESIZE, f_gauss, a.m = 0);
    EXPECT(KSUM_ESIZE, f_gauss, a.n = -1);
    EXPECT(KSUM_ESIZE, f_gauss, a.dim = 0);
    EXPECT(KSUM_ESIZE, f_gauss, a.lda = 2);
    EXPECT(KSUM_ESIZE, f_gauss, a.ldb = 1);
    EXPECT(KSUM_EH, f_gauss, a.h = 0);
    EXPECT(KSUM_EH, f_gauss, a.h = -1);
    EXPECT(KSUM_EH, f_gauss, a.h = NAN);
    EXPECT(KSUM_EH, f_gauss, a.h = INFINITY);
    EXPECT(KSUM_EH, f_gauss, a.h = 1e-30);   /* scale 7e59 overflows float */
    EXPECT(KSUM_EH, d_gauss, a.h = 1e-170);  /* scale overflows double */
    EXPECT(KSUM_ERHS, f_gauss, a.nrhs = 2);
    EXPECT(KSUM_ERHS, f_gauss, a.nrhs = -1);
    EXPECT(KSUM_ERHS, f_gauss_r4, a.nrhs = 5);
    EXPECT(KSUM_EFLAGS, f_gauss, a.flags = 8);
    EXPECT(KSUM_EFLAGS, f_gauss, a.splits = -1);
    EXPECT(KSUM_EWORK, f_gauss, (a.work = d, a.work_bytes = 8));
    EXPECT(KSUM_ESIZE, f_sd_gauss3, a.dim = 4); /* beyond the small-dim variant's DMAX */
    EXPECT(KSUM_ENULL, f_sd_gauss3, a.w = NULL);
    EXPECT(KSUM_EH, f_sd_matern52, a.h = 0);
    EXPECT(KSUM_ERHS, f_sd_gauss8_r2, a.nrhs = 3);
    EXPECT(KSUM_EFLAGS, f_sd_gauss3, a.flags = 4);
    /* overlap: v (m x nrhs) against a (m points of lda), b (n points of ldb), w (n x nrhs), and the
     * workspace ((m + n + 4) elements) against all four */
    EXPECT(KSUM_EOVERLAP, f_gauss, a.v = d);
    EXPECT(KSUM_EOVERLAP, f_gauss, a.v = d + 27);                  /* on a's last element (9 * 3) */
    EXPECT(KSUM_SUCCESS, f_gauss, a.v = d + 30);
    EXPECT(KSUM_EOVERLAP, f_gauss, (a.lda = 8, a.v = d + 74));     /* 9 * 8 + 2 */
    EXPECT(KSUM_EOVERLAP, f_gauss, a.v = d + 1024 + 20);           /* inside b */
    EXPECT(KSUM_EOVERLAP, f_gauss, a.v = d + 2048 - 9);            /* v's last element on w's first */
    EXPECT(KSUM_SUCCESS, f_gauss, a.v = d + 2048 - 10);
    EXPECT(KSUM_EOVERLAP, f_gauss_r4, (a.nrhs = 4, a.v = d + 2048 + 39)); /* on w's last (10 x 4) */
    EXPECT(KSUM_EOVERLAP, f_sd_gauss3, a.v = d + 2048);
    EXPECT(KSUM_EOVERLAP, f_gauss, (a.work = d + 3072 + 5, a.work_bytes = 4096));
    EXPECT(KSUM_EOVERLAP, f_gauss, (a.work = d + 1024 - 23, a.work_bytes = 4096)); /* its 24 floats end on b */
    EXPECT(KSUM_SUCCESS, f_gauss, (a.work = d + 1024 - 24 - 64, a.work_bytes = 96, a.v = d + 30));
    /* every engine refuses alike (the checks are shared) and runs the small call; the staged TF32
     * kernels with a workspace of the norms' bytes (too small for wgmma's prepared sources) use it */
    EXPECT(KSUM_ERHS, f_tc1_gauss, a.nrhs = 2);
    EXPECT(KSUM_EWORK, f_tc3_gauss_r2, (a.work = d, a.work_bytes = 95));
    EXPECT(KSUM_ENULL, f_tc1mma_gauss, a.b = NULL);
    EXPECT(KSUM_EFLAGS, f_tc1v1_gauss, a.splits = 65536);
    EXPECT(KSUM_ESIZE, d_gauss, a.ldb = 2);
    EXPECT(KSUM_EOVERLAP, f_tc1_gauss, a.v = d + 1024 + 29);
    EXPECT(KSUM_SUCCESS, f_tc1_gauss, (a.work = d + 1024 - 24 - 64, a.work_bytes = 96, a.v = d + 30));
    EXPECT(KSUM_SUCCESS, f_tc3mma_gauss_r2, a.v = d + 30);
    EXPECT(KSUM_SUCCESS, f_tc1v1_gauss, a.flags = KSUM_DETERMINISTIC);
    EXPECT(KSUM_SUCCESS, f_gauss_r4, (a.nrhs = 3, a.v = d + 3000));
    EXPECT(KSUM_SUCCESS, f_sd_gauss3, a.flags = KSUM_DETERMINISTIC | KSUM_ACCUMULATE);
    EXPECT(KSUM_SUCCESS, f_sd_gauss8_r2, (a.work = d + 1024 - 24 - 64, a.work_bytes = 96));
    CHECK(strstr(ksum_strerror(KSUM_EOVERLAP), "overlap") != NULL, "strerror overlap");
    /* NULL arguments or plan: name_plan and name_run refuse, write nothing */
    {
        const gen gs[] = {GEN(f_gauss), GEN(d_gauss), GEN(f_tc1_gauss), GEN(f_tc1v1_gauss), GEN(f_sd_gauss3)};
        for (int i = 0; i < (int)(sizeof gs / sizeof *gs); i++) {
            ksum_plan p;
            a = g;
            CHECK(gs[i].plan(&a, NULL) == KSUM_ENULL, "generator %d: a plan into NULL", i);
            CHECK(gs[i].plan(&a, &p) == KSUM_SUCCESS, "generator %d: plan", i);
            CHECK(gs[i].run(NULL, &p, 0) == KSUM_ENULL && gs[i].run(&a, NULL, 0) == KSUM_ENULL,
                  "generator %d: a run of NULL arguments or plan", i);
        }
    }
    /* a valid call with a caller's workspace of exactly the plan's workspace_bytes (ksum_work_bytes) */
    a = g;
    ksum_plan p;
    CHECK(f_gauss_plan(&a, &p) == 0 && p.workspace_bytes == ksum_work_bytes(10, 10, 4), "workspace_bytes %zu",
          p.workspace_bytes);
    float *work = NULL;
    CUDA_OK(cudaMalloc(&work, p.workspace_bytes));
    a.work = work; a.work_bytes = p.workspace_bytes;
    CHECK(f_gauss_plan(&a, &p) == 0 && f_gauss_run(&a, &p, 0) == 0, "valid call with a workspace");
    CHECK(f_gauss_launch(&a, 0) == 0, "valid call with a workspace");
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(ksum__plan_sm80(&p) == KSUM_SUCCESS, "this device is sm_80+: the tensor-core check should pass");
    CHECK(strcmp(ksum_strerror(KSUM_EH), ksum_strerror(KSUM_ERHS)) != 0 && ksum_strerror(99) != NULL, "strerror");
    cudaFree(work);
    cudaFree(d);
    free(hv);
    case_end();
}

/* the path KSUM_DEFINE of ksum_tf32 / ksum_tf32x3 plans: wgmma on an sm_90 device where the build has
 * sm_90a code while its shared memory fits (227 KB: dim <= 288 one pass, <= 64 three passes) and a
 * caller's workspace holds the prepared sources, mma.sync otherwise; KSUM_SCHEDULE_MMA always mma.sync.
 * The cases above then ran on the paths printed here. */
static void run_paths(void)
{
    case_begin("ksum plans: tf32 on wgmma where built and it fits, mma.sync otherwise; the head; the workspace");
    int dev = 0, major = 0, minor = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    const kern *k1 = &kernels[13], *k3 = &kernels[14], *km = &kernels[25];
    CHECK(k1->g.plan == f_tc1_gauss_plan && k3->g.plan == f_tc3_gauss_r2_plan && km->g.plan == f_tc1mma_gauss_plan,
          "the table's tf32 rows moved");
    enum { M = 100, DMAX = 1000 };
    float *da = NULL, *db = NULL, *dw = NULL, *dv = NULL, *dk = NULL;
    CUDA_OK(cudaMalloc(&da, (size_t)M * DMAX * 4));
    CUDA_OK(cudaMalloc(&db, (size_t)M * DMAX * 4));
    CUDA_OK(cudaMalloc(&dw, (size_t)M * 2 * 4));
    CUDA_OK(cudaMalloc(&dv, (size_t)M * 2 * 4));
    ksum_args a;
    memset(&a, 0, sizeof a);
    a.a = da; a.b = db; a.w = dw; a.v = dv; a.m = a.n = M; a.h = 1;
    const int dims[] = {1, 32, 33, 64, 65, 96, 128, 255, 256, 288, 289, 1000};
    for (int i = 0; i < (int)(sizeof dims / sizeof *dims); i++) {
        a.dim = dims[i];
        ksum_plan p1, p3, pm;
        const int r1 = f_tc1_gauss_plan(&a, &p1), r3 = f_tc3_gauss_r2_plan(&a, &p3), rm = f_tc1mma_gauss_plan(&a, &pm);
        CHECK(r1 == 0 && r3 == 0 && rm == 0, "dim %d: plans %d %d %d", a.dim, r1, r3, rm);
        const int w1 = want_path(k1, &a), w3 = want_path(k3, &a);
        CHECK(p1.path == w1 && p3.path == w3, "dim %d: paths %d / %d, want %d / %d (%s; %s)", a.dim, p1.path, p3.path,
              w1, w3, p1.why, p3.why);
        CHECK(pm.path == KSUM_PATH_MMA && strstr(pm.why, "KSUM_SCHEDULE_MMA") != NULL,
              "KSUM_SCHEDULE_MMA is mma.sync only: %s", pm.why);
        check_plan_ok(k1, &a, &p1);
        check_plan_ok(k3, &a, &p3);
        check_plan_ok(km, &a, &pm);
        if (a.dim == 64 || a.dim == 65 || a.dim == 288 || a.dim == 289)
            printf("    dim %d: 1 pass %s, 3 passes %s\n", a.dim, p1.path == KSUM_PATH_WGMMA ? "wgmma" : "mma.sync",
                   p3.path == KSUM_PATH_WGMMA ? "wgmma" : "mma.sync");
    }
    /* a caller's workspace too small for the prepared sources: mma.sync (it needs only ksum_work_bytes);
     * large enough: wgmma where built, the plan's workspace_bytes that size */
    a.dim = 64;
    const size_t big = wg_work(k1, &a);
    CUDA_OK(cudaMalloc(&dk, big));
    a.work = dk;
    a.work_bytes = ksum_work_bytes(a.m, a.n, 4);
    ksum_plan p;
    CHECK(f_tc1_gauss_plan(&a, &p) == 0 && p.path == KSUM_PATH_MMA && p.workspace_bytes == a.work_bytes &&
              (!wg_built() || strstr(p.why, "a->work") != NULL),
          "a small workspace must select mma.sync: path %d, %zu bytes (%s)", p.path, p.workspace_bytes, p.why);
    a.work_bytes = big;
    const int wg = wg_built() ? KSUM_PATH_WGMMA : KSUM_PATH_MMA;
    CHECK(f_tc1_gauss_plan(&a, &p) == 0 && p.path == wg &&
              p.workspace_bytes == (wg == KSUM_PATH_WGMMA ? big : ksum_work_bytes(a.m, a.n, 4)),
          "a large workspace: path %d, want %d; %zu bytes (%s)", p.path, wg, p.workspace_bytes, p.why);
    a.work = NULL;
    a.work_bytes = 0;
    CHECK(f_tc1_gauss_plan(&a, &p) == 0, "plan");
    printf("    this device (sm_%d%d), dim 64: KSUM_DEFINE of ksum_tf32 plans %s (%s)\n", major, minor,
           p.path == KSUM_PATH_WGMMA ? "wgmma" : "mma.sync", p.why);
    /* the head, read alike through onchip_plan_head */
    const ksum_plan *pp = &p;
    const onchip_plan h = onchip_plan_head(pp);
    CHECK(h.path == p.path && h.why == p.why && h.steps_per_pass == 0 && h.passes == p.passes &&
              h.workspace_bytes == p.workspace_bytes && h.result == (void *)dv,
          "the head reads other values than the plan");
    cudaFree(da); cudaFree(db); cudaFree(dw); cudaFree(dv); cudaFree(dk);
    case_end();
}

/* the FMA-pipe 2^-u of ksum/smalldim.cuh against exp2 in double over its whole range, u in
 * [-64, 130] (clamped at 125: 2^-125), relative error <= 2^-21 (the 2^-22 of the fit plus rounding) */
__global__ void poly_kernel(float *out, int cnt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < cnt) out[i] = ksum__exp2neg_poly(-64.0f + 194.0f * (float)i / (float)cnt);
}
static void run_poly(int light)
{
    case_begin("ksum smalldim 2^-u polynomial (Cody-Waite + degree 5) vs exp2, u in [-64, 130]");
    const int cnt = light ? 1 << 14 : 1 << 22;
    float *d = NULL, *h = (float *)malloc((size_t)cnt * 4);
    CUDA_OK(cudaMalloc(&d, (size_t)cnt * 4));
    CUDA_OK(cudaMemset(d, 0xFF, (size_t)cnt * 4));
    poly_kernel<<<(cnt + 255) / 256, 256>>>(d, cnt);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(h, d, (size_t)cnt * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    long long bad = 0;
    for (int i = 0; i < cnt; i++) {
        const float u = -64.0f + 194.0f * (float)i / (float)cnt; /* the same float as on the GPU */
        const double ref = exp2(-(double)(u < 125.0f ? u : 125.0f));
        const double e = fabs(h[i] - ref) / ref;
        if (!(e <= 4.8e-7)) bad++;
        if (e > worst || e != e) worst = e;
    }
    CHECK(bad == 0, "%lld values beyond 2^-21 relative, worst %.3g", bad, worst);
    printf("    worst relative error %.3g (2^%.1f)\n", worst, log2(worst));
    cudaFree(d);
    free(h);
    case_end();
}

/* the one-pass TF32 bound rejects wrong answers: the kernel run with its scale 1 % off (h / sqrt(1.01))
 * and with the last 8 coordinates left out of the distance (dim - 8 given, rows dim apart), at dim 33
 * and 256, against the right reference: some outputs beyond the bound in each of the four runs */
static void run_faults(const kern *k)
{
    char name[200];
    snprintf(name, sizeof name, "ksum %s: the bound rejects a scale 1 %% off and a distance without 8 coordinates",
             k->name);
    case_begin(name);
    const shape shs[] = {{129, 1000, 33, 0, 1, 0.5, 0}, {1000, 129, 256, 0, 1, 0.3, 0}};
    const fault fs[] = {{1.01, 0}, {1.0, 8}};
    const char *what[] = {"scale 1 % off", "distance without 8 coordinates"};
    for (int si = 0; si < 2 && !check__failed_case; si++)
        for (int fi = 0; fi < 2 && !check__failed_case; fi++) {
            shape sh = shs[si];
            sh.nrhs = k->R;
            long long bad = 0;
            const double w = run_case(k, &sh, 0, 0, &fs[fi], &bad);
            printf("    dim %d, %s: %lld of %d outputs beyond the bound, worst error/bound %.3g\n", sh.dim, what[fi], bad,
                   sh.m * sh.nrhs, w);
            CHECK(bad > 0, "dim %d: the %s passed (worst error/bound %.3g)", sh.dim, what[fi], w);
        }
    case_end();
}

/* whether kernel i runs: --light takes a few, --only SUBSTRING those whose name contains it */
static int selected(int i, int light, const char *only)
{
    if (light && i % 3 != 0 && i != 7 && i != 13 && i != 14 && i != 16 && i != 23 && i != 26) return 0;
    return !only || strstr(kernels[i].name, only) != NULL;
}

int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    const char *only = gpucheck_only(argc, argv);
    const int nk = (int)(sizeof kernels / sizeof *kernels);
    int cases = 3; /* errors, paths, polynomial */
    for (int i = 0; i < nk; i++)
        if (selected(i, light, only)) cases += 1 + (!light || i == 0) + (kernels[i].tc == 1);
    check_plan(cases);
    run_errors();
    run_paths();
    run_poly(light);
    for (int i = 0; i < nk; i++) {
        if (!selected(i, light, only)) continue;
        run_kernel(&kernels[i], light);
        if (!light || i == 0) run_extremes(&kernels[i]);
        if (kernels[i].tc == 1) run_faults(&kernels[i]);
    }
    return check_exit();
}
