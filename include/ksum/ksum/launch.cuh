#include <onchip/names_push.h>
/* ksum/ksum/launch.cuh -- the host side of every ksum generator (part of ksum/ksum.cuh; smalldim.cuh,
 * tc.cuh and wgmma.cuh use it too): argument checks, the plan, the workspace, the launches
 * (cudaLaunchKernel on kernels passed as pointers).
 *
 * WHAT
 *   ksum__check            every argument check, 0 or a KSUM_E* code with the refusal
 *   ksum__plan_begin, ksum__plan_grid, ksum__refuse   a plan's checks, its grid, a refusal
 *   ksum__plan_generic / ksum__run_generic, ksum__plan_staged / ksum__plan_stage / ksum__run_staged
 *                          name_plan and name_run of the register-staged and the staged kernels;
 *                          shared: ksum__work_get/put, ksum__run_norms, ksum__zero_v, ksum__run_main
 *   A plan queries the device (onchip/device.cuh's cache) and launches nothing.  Never prints or
 *   exits; every CUDA call is checked (KSUM_ECUDA).
 */
#ifndef KSUM_KSUM_LAUNCH_CUH
#define KSUM_KSUM_LAUNCH_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#endif

#include "../base.cuh"
#include "../gemm.cuh"

#ifndef __CUDACC_RTC__ /* host code, all of it: under NVRTC the generators emit their kernels only */
/* a refused plan: every field 0 but why; returns rc */
static inline int ksum__refuse(ksum_plan *p, int rc, const char *why)
{
    *p = ksum_plan();
    p->why = why;
    return rc;
}

/* the bytes a, b, w, v and the norm workspace span (es the element size); KSUM_ESIZE past 2^60 */
static inline int ksum__spans(const ksum_args *a, long long es, long long *s)
{
    const long long r = a->nrhs > 0 ? a->nrhs : 1;
    s[0] = onchip_span(a->m, a->lda ? a->lda : a->dim, a->dim, es);
    s[1] = onchip_span(a->n, a->ldb ? a->ldb : a->dim, a->dim, es);
    s[2] = (long long)a->n * r * es;
    s[3] = (long long)a->m * r * es;
    s[4] = (long long)ksum_work_bytes(a->m, a->n, (size_t)es);
    return s[0] < 0 || s[1] < 0 ? KSUM_ESIZE : KSUM_SUCCESS;
}
/* whether `bytes` of a->work meet a, b, w or v (s: ksum__spans) */
static inline int ksum__work_meets(const ksum_args *a, const long long *s, long long bytes)
{
    return onchip_overlap(a->work, bytes, a->a, s[0]) || onchip_overlap(a->work, bytes, a->b, s[1]) ||
           onchip_overlap(a->work, bytes, a->w, s[2]) || onchip_overlap(a->work, bytes, a->v, s[3]);
}

/* the checks shared by every plan: 0, or a KSUM_E* code with *why the refusal */
static inline int ksum__check(const ksum_args *a, int R, double scale, int is_float, const char **why)
{
    const char *no = NULL;
    int rc = KSUM_SUCCESS;
    long long s[5];
    if (!a || !a->a || !a->b || !a->w || !a->v) rc = KSUM_ENULL, no = "refused (KSUM_ENULL): args, a, b, w or v is NULL";
    else if (a->m <= 0 || a->n <= 0 || a->dim <= 0)
        rc = KSUM_ESIZE, no = "refused (KSUM_ESIZE): m, n and dim must be at least 1";
    else if ((a->lda != 0 && a->lda < a->dim) || (a->ldb != 0 && a->ldb < a->dim))
        rc = KSUM_ESIZE, no = "refused (KSUM_ESIZE): lda and ldb must be 0 (dim) or at least dim";
    else if (!(a->h > 0) || !isfinite(a->h)) rc = KSUM_EH, no = "refused (KSUM_EH): h must be positive and finite";
    else if (!(scale > 0) || !isfinite(scale) || (is_float && scale > (double)FLT_MAX / 4))
        rc = KSUM_EH, no = "refused (KSUM_EH): the kernel's scale for this h is not finite in T (h too small)";
    else if (a->nrhs < 0 || a->nrhs > R)
        rc = KSUM_ERHS, no = "refused (KSUM_ERHS): nrhs must be 0 (1) to the instantiation's R";
    else if ((a->flags & ~KSUM__FLAGS) != 0 || a->splits < 0 || a->splits > 65535)
        rc = KSUM_EFLAGS, no = "refused (KSUM_EFLAGS): unknown flag bits, or splits outside 0 to 65535";
    else if (a->work && a->work_bytes < ksum_work_bytes(a->m, a->n, is_float ? 4 : 8))
        rc = KSUM_EWORK, no = "refused (KSUM_EWORK): work_bytes is below ksum_work_bytes(m, n, sizeof(T))";
    else if (ksum__spans(a, is_float ? 4 : 8, s) != KSUM_SUCCESS)
        rc = KSUM_ESIZE, no = "refused (KSUM_ESIZE): a or b spans more than 2^60 bytes";
    /* v is written while a, b and w are read (by other blocks too) */
    else if (onchip_overlap(a->v, s[3], a->a, s[0]) || onchip_overlap(a->v, s[3], a->b, s[1]) ||
             onchip_overlap(a->v, s[3], a->w, s[2]))
        rc = KSUM_EOVERLAP, no = "refused (KSUM_EOVERLAP): v overlaps a, b or w";
    else if (a->work && ksum__work_meets(a, s, s[4]))
        rc = KSUM_EOVERLAP, no = "refused (KSUM_EOVERLAP): the workspace overlaps a, b, w or v";
    *why = no;
    return rc;
}

/* the number of source splits into *splits: 1 when deterministic, else enough blocks for ~8 per SM;
 * 0 or KSUM_ECUDA (the SM count not known) */
static inline int ksum__splits(const ksum_args *a, long long rowtiles, int ntiles, int minb, int *splits)
{
    if (a->flags & KSUM_DETERMINISTIC) return *splits = 1, KSUM_SUCCESS;
    int s = a->splits;
    if (s == 0) {
        int dev = 0, sms = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || onchip_device_sms(dev, &sms) != cudaSuccess) return KSUM_ECUDA;
        long long want = (long long)sms * minb * 4;
        long long q = (want + rowtiles - 1) / rowtiles;
        s = (int)(q < 1 ? 1 : q > 65535 ? 65535 : q);
    }
    if (s > ntiles) s = ntiles;
    *splits = s;
    return KSUM_SUCCESS;
}

/* the grid every path plans: defaults filled in, bm targets per block, the sources in tiles of bn
 * split over gridDim.y */
typedef struct ksum__grid {
    int nrhs;                 /* right-hand sides (args->nrhs, 0 meaning 1) */
    long long lda, ldb;       /* elements between points (0 meaning dim) */
    long long rowtiles;       /* gridDim.x */
    int ntiles, per, ysplits; /* source tiles, tiles per split, gridDim.y */
    int atomic, accumulate;   /* the flags as the kernels take them */
} ksum__grid;

/* the grid's fields from the arguments alone (the plan gives rowtiles, per, ysplits) */
static inline void ksum__grid_args(ksum__grid *g, const ksum_args *args)
{
    g->nrhs = args->nrhs ? args->nrhs : 1;
    g->lda = args->lda ? args->lda : args->dim;
    g->ldb = args->ldb ? args->ldb : args->dim;
    g->atomic = !(args->flags & KSUM_DETERMINISTIC);
    g->accumulate = (args->flags & KSUM_ACCUMULATE) != 0;
}
static inline int ksum__grid_make(ksum__grid *g, const ksum_args *args, int bm, int bn, int minb)
{
    ksum__grid_args(g, args);
    g->rowtiles = ((long long)args->m + bm - 1) / bm;
    g->ntiles = (args->n + bn - 1) / bn;
    if (g->rowtiles > 2147483647LL) return KSUM_ESIZE;
    int splits = 1;
    const int rc = ksum__splits(args, g->rowtiles, g->ntiles, minb, &splits);
    if (rc) return rc;
    g->per = (g->ntiles + splits - 1) / splits;
    g->ysplits = (g->ntiles + g->per - 1) / g->per;
    return KSUM_SUCCESS;
}
/* the grid of a plan, for its run (ntiles: bn sources a tile) */
static inline ksum__grid ksum__grid_of(const ksum_args *args, const ksum_plan *p, int bn)
{
    ksum__grid g;
    ksum__grid_args(&g, args);
    g.rowtiles = p->blocks;
    g.ntiles = (args->n + bn - 1) / bn;
    g.per = p->tiles_per_split;
    g.ysplits = p->splits;
    return g;
}

/* a plan's start: the checks, then result a->v (the other fields 0); 0 or the refusal's code */
static inline int ksum__plan_begin(const ksum_args *a, ksum_plan *p, int R, double scale, int is_float)
{
    const char *why = NULL;
    if (!p) return KSUM_ENULL;
    const int rc = ksum__check(a, R, scale, is_float, &why);
    if (rc) return ksum__refuse(p, rc, why);
    *p = ksum_plan();
    p->result = a->v;
    return KSUM_SUCCESS;
}
/* KSUM_EUNSUPPORTED below sm_80 (the tensor-core paths), KSUM_ECUDA if the device can't be asked */
static inline int ksum__plan_sm80(ksum_plan *p)
{
    onchip_device_attrs d;
    if (onchip_device_current(NULL, &d) != cudaSuccess)
        return ksum__refuse(p, KSUM_ECUDA,
                            "refused (KSUM_ECUDA): the device's attributes could not be read (cudaPeekAtLastError)");
    if (d.cc_major < 8)
        return ksum__refuse(p, KSUM_EUNSUPPORTED,
                            "refused (KSUM_EUNSUPPORTED): the tensor-core kernels need an sm_80 device or newer");
    return KSUM_SUCCESS;
}
/* the grid into the plan (blocks, splits, tiles_per_split) */
static inline int ksum__plan_grid(const ksum_args *a, ksum_plan *p, int bm, int bn, int minb)
{
    ksum__grid g;
    const int rc = ksum__grid_make(&g, a, bm, bn, minb);
    if (rc == KSUM_ESIZE)
        return ksum__refuse(p, rc, "refused (KSUM_ESIZE): ceil(m / block targets) reaches 2^31 blocks");
    if (rc)
        return ksum__refuse(p, rc, "refused (KSUM_ECUDA): the device's SM count could not be read (cudaPeekAtLastError)");
    p->blocks = g.rowtiles;
    p->splits = g.ysplits;
    p->tiles_per_split = g.per;
    return KSUM_SUCCESS;
}

/* a kernel argument of the element type (float or double, by esize), for cudaLaunchKernel */
typedef union ksum__scalar {
    float f;
    double d;
} ksum__scalar;
static inline ksum__scalar ksum__scalar_make(double x, size_t esize)
{
    ksum__scalar s;
    if (esize == sizeof(float)) s.f = (float)x;
    else s.d = x;
    return s;
}

/* 0 if the launch went in, else KSUM_ECUDA (the CUDA error stays for cudaPeekAtLastError) */
static inline int ksum__launched(cudaError_t e)
{
    return e != cudaSuccess || cudaPeekAtLastError() != cudaSuccess ? KSUM_ECUDA : KSUM_SUCCESS;
}

/* a run's workspace: args->work where it holds p->workspace_bytes, else cudaMallocAsync on the
 * stream; ksum__work_put frees it */
static inline int ksum__work_get(const ksum_args *args, const ksum_plan *p, cudaStream_t stream, void **work)
{
    *work = args->work;
    if (*work && args->work_bytes >= p->workspace_bytes) return KSUM_SUCCESS;
    *work = NULL;
    if (p->workspace_bytes && cudaMallocAsync(work, p->workspace_bytes, stream) != cudaSuccess) return KSUM_ECUDA;
    return KSUM_SUCCESS;
}
static inline int ksum__work_put(const ksum_args *args, void *work, cudaStream_t stream, int rc)
{
    if (work && work != args->work && cudaFreeAsync(work, stream) != cudaSuccess && !rc) rc = KSUM_ECUDA;
    return rc;
}

/* the norm pre-pass name_norms over the first m targets and all sources, into out */
static inline int ksum__run_norms(const void *norms_fn, const ksum_args *args, const ksum__grid *p, int m,
                                  ksum__scalar scale, void *out, cudaStream_t stream)
{
    const void *a = args->a, *b = args->b;
    long long lda = p->lda, ldb = p->ldb;
    int n = args->n, dim = args->dim;
    void *kargs[] = {(void *)&a, &lda, &m, (void *)&b, &ldb, &n, &dim, &scale, &out};
    const size_t npts = (size_t)m + (size_t)n;
    return ksum__launched(cudaLaunchKernel(norms_fn, dim3((unsigned)((npts + 255) / 256)), dim3(256), kargs, 0, stream));
}

/* v = 0 before the atomic adds (unless accumulating) */
static inline int ksum__zero_v(const ksum_args *args, const ksum__grid *p, size_t esize, cudaStream_t stream)
{
    if (p->atomic && !p->accumulate &&
        cudaMemsetAsync(args->v, 0, (size_t)args->m * p->nrhs * esize, stream) != cudaSuccess)
        return KSUM_ECUDA;
    return KSUM_SUCCESS;
}

/* the main kernel (KSUM__PARAMS), x [y] the generator's own ints: nx = 2 (vec_a, vec_b) for the
 * generic kernels, nx = 1 (ks) for the staged ones */
static inline int ksum__run_main(const void *kernel_fn, const ksum_args *args, const ksum__grid *p,
                                 ksum__scalar m2scale, void *norms, int x, int y, int nx, size_t smem,
                                 cudaStream_t stream)
{
    const void *a = args->a, *b = args->b, *w = args->w;
    void *v = args->v;
    long long lda = p->lda, ldb = p->ldb;
    int m = args->m, n = args->n, dim = args->dim, nrhs = p->nrhs, per = p->per;
    int atomic = p->atomic, accumulate = p->accumulate;
    void *kargs2[] = {(void *)&a, &lda, (void *)&b, &ldb, (void *)&w, &v, &m, &n, &dim, &nrhs, &m2scale,
                      &norms, &per, &x, &y, &atomic, &accumulate};
    void *kargs1[] = {(void *)&a, &lda, (void *)&b, &ldb, (void *)&w, &v, &m, &n, &dim, &nrhs, &m2scale,
                      &norms, &per, &x, &atomic, &accumulate};
    const dim3 grid((unsigned)p->rowtiles, (unsigned)p->ysplits);
    return ksum__launched(cudaLaunchKernel(kernel_fn, grid, dim3(KSUM_THREADS), nx == 2 ? kargs2 : kargs1, smem, stream));
}

/* the register-staged plan (tc: KSUM_EUNSUPPORTED below sm_80): checks, the grid (block tile 16 tm x
 * 16 tn), the vector loads */
static inline int ksum__plan_generic(const ksum_args *a, ksum_plan *p, size_t esize, double scale, int R, int tm,
                                     int tn, int minb, int tc, const char *why)
{
    int rc = ksum__plan_begin(a, p, R, scale, esize == sizeof(float));
    if (rc) return rc;
    if (tc && (rc = ksum__plan_sm80(p)) != KSUM_SUCCESS) return rc;
    if ((rc = ksum__plan_grid(a, p, 16 * tm, 16 * tn, minb)) != KSUM_SUCCESS) return rc;
    const long long lda = a->lda ? a->lda : a->dim, ldb = a->ldb ? a->ldb : a->dim;
    const int ea = tm / 2, eb = tn / 2;
    const int vec_a = (ea == 4 || ea == 2) && a->dim % ea == 0 && lda % ea == 0 && ((uintptr_t)a->a % 16) == 0;
    const int vec_b = a->dim % eb == 0 && ldb % eb == 0 && ((uintptr_t)a->b % 16) == 0;
    p->path = tc ? KSUM_PATH_REGS_MMA : KSUM_PATH_REGS;
    p->why = why;
    p->passes = 2;
    p->workspace_bytes = ksum_work_bytes(a->m, a->n, esize);
    p->vec = vec_a | vec_b << 1;
    return KSUM_SUCCESS;
}
/* its run: workspace, the norm pre-pass, v zeroed in atomic mode, the main kernel */
static inline int ksum__run_generic(const ksum_args *args, const ksum_plan *p, cudaStream_t stream,
                                    const void *norms_fn, const void *kernel_fn, size_t esize, double scale)
{
    if (!args || !p) return KSUM_ENULL;
    if (p->passes == 0) return KSUM_SUCCESS;
    const ksum__grid g = ksum__grid_of(args, p, 1);
    void *work = NULL;
    if (ksum__work_get(args, p, stream, &work)) return KSUM_ECUDA;
    int rc = ksum__run_norms(norms_fn, args, &g, args->m, ksum__scalar_make(scale, esize), work, stream);
    if (!rc) rc = ksum__zero_v(args, &g, esize, stream);
    if (!rc)
        rc = ksum__run_main(kernel_fn, args, &g, ksum__scalar_make(-2.0 * scale, esize), work, p->vec & 1, p->vec >> 1,
                            2, 0, stream);
    return ksum__work_put(args, work, stream, rc);
}

/* shared-memory bytes of a staged kernel (rows of LDP floats): resident targets (res) or streamed */
static inline size_t ksum__stage_smem(int dp, int ks, int res, int R, int ldp)
{
    return ((size_t)(res ? dp + 2 * ks : 4 * ks) * ldp + 2 * 128 * (size_t)(1 + R) + 128) * sizeof(float);
}

/* why a staged plan: kind 0 SIMT float, 1 to 4 TF32 mma.sync and why not wgmma (SCHEDULE; no sm_90a
 * body; dim; workspace); mode 0 resident, 1 streamed by dim, 2 by MINB blocks' shared memory */
#define KSUM__WHY_RES ", targets resident: dim rounded up to 8 is at most 128 and MINB blocks fit an SM"
#define KSUM__WHY_DIM ", targets streamed: dim rounded up to 8 is above 128"
#define KSUM__WHY_SMEM ", targets streamed: MINB blocks with resident targets do not fit an SM's shared memory"
#define KSUM__WHY3(PRE) return mode == 0 ? PRE KSUM__WHY_RES : mode == 1 ? PRE KSUM__WHY_DIM : PRE KSUM__WHY_SMEM
static inline const char *ksum__why_staged(int kind, int mode)
{
    switch (kind) {
    case 0: KSUM__WHY3("staged SIMT kernel (KSUM_DEFINE of float)");
    case 1: KSUM__WHY3("TF32 mma.sync: SCHEDULE is KSUM_SCHEDULE_MMA");
    case 2: KSUM__WHY3("TF32 mma.sync: no wgmma body here (it needs an sm_90 device and sm_90a code)");
    case 3: KSUM__WHY3("TF32 mma.sync: dim is beyond the wgmma kernel's shared memory (227 KB: 288 one pass, 64 three)");
    default: KSUM__WHY3("TF32 mma.sync: a->work is smaller than the wgmma kernel's prepared sources");
    }
}
#undef KSUM__WHY3
#undef KSUM__WHY_RES
#undef KSUM__WHY_DIM
#undef KSUM__WHY_SMEM

/* the staged plan after the checks (kind: ksum__why_staged's; 1 to 4 KSUM_EUNSUPPORTED below
 * sm_80): the grid, resident or streamed, the stage from the shared memory (KSUM_ESIZE past it) */
static inline int ksum__plan_stage(const ksum_args *a, ksum_plan *p, int R, int minb, int ldp, int kind)
{
    int rc;
    if (kind && (rc = ksum__plan_sm80(p)) != KSUM_SUCCESS) return rc;
    if ((rc = ksum__plan_grid(a, p, 128, 128, minb)) != KSUM_SUCCESS) return rc;
    onchip_device_attrs d;
    if (onchip_device_current(NULL, &d) != cudaSuccess)
        return ksum__refuse(p, KSUM_ECUDA,
                            "refused (KSUM_ECUDA): the device's attributes could not be read (cudaPeekAtLastError)");
    const int optin = d.smem_optin, persm = d.smem_per_sm;
    const int dp = (a->dim + 7) & ~7;
    int ks = dp < 32 ? dp : 32;
    const int res = dp <= 128 && ksum__stage_smem(dp, ks, 1, R, ldp) <= (size_t)optin &&
                    (ksum__stage_smem(dp, ks, 1, R, ldp) + 2048) * minb <= (size_t)persm;
    while (!res && ks > 8 && ksum__stage_smem(dp, ks, 0, R, ldp) > (size_t)optin) ks -= 8;
    const size_t bytes = ksum__stage_smem(dp, ks, res, R, ldp);
    if (bytes > (size_t)optin)
        return ksum__refuse(p, KSUM_ESIZE,
                            "refused (KSUM_ESIZE): the staged kernel's shared memory at this dim is past the device's");
    p->path = kind ? KSUM_PATH_MMA : KSUM_PATH_STAGED;
    p->why = ksum__why_staged(kind, res ? 0 : dp > 128 ? 1 : 2);
    p->passes = 2;
    p->workspace_bytes = ksum_work_bytes(a->m, a->n, sizeof(float));
    p->resident = res;
    p->stage = ks;
    p->smem_bytes = bytes;
    return KSUM_SUCCESS;
}
/* KSUM_DEFINE of float: the checks, then the staged plan */
static inline int ksum__plan_staged(const ksum_args *a, ksum_plan *p, double scale, int R, int minb, int ldp)
{
    const int rc = ksum__plan_begin(a, p, R, scale, 1);
    return rc ? rc : ksum__plan_stage(a, p, R, minb, ldp, 0);
}
/* the run of a staged plan: the kernel's shared-memory limit raised (once per device), workspace,
 * norm pre-pass (s|x|^2 resident, -|x|^2/2 streamed), v zeroed in atomic mode, the kernel */
static inline int ksum__run_staged(const ksum_args *args, const ksum_plan *p, cudaStream_t stream,
                                   const void *norms_fn, const void *kernel_res, const void *kernel_stream, double scale)
{
    if (!args || !p) return KSUM_ENULL;
    if (p->passes == 0) return KSUM_SUCCESS;
    const ksum__grid g = ksum__grid_of(args, p, 128);
    const int res = p->resident;
    if (onchip_smem_allow(res ? kernel_res : kernel_stream, p->smem_bytes) != cudaSuccess) return KSUM_ECUDA;
    void *work = NULL;
    if (ksum__work_get(args, p, stream, &work)) return KSUM_ECUDA;
    /* resident: the targets' norms are summed in the kernel, the pre-pass does the sources */
    int rc = ksum__run_norms(norms_fn, args, &g, res ? 0 : args->m, ksum__scalar_make(res ? scale : -0.5, sizeof(float)),
                             res ? (float *)work + args->m : work, stream);
    if (!rc) rc = ksum__zero_v(args, &g, sizeof(float), stream);
    if (!rc)
        rc = ksum__run_main(res ? kernel_res : kernel_stream, args, &g, ksum__scalar_make(-2.0 * scale, sizeof(float)),
                            work, p->stage, 0, 1, p->smem_bytes, stream);
    return ksum__work_put(args, work, stream, rc);
}
#endif /* !__CUDACC_RTC__ */

#endif
#include <onchip/names_pop.h>
