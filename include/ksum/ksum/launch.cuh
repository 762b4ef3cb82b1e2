#include <onchip/names_push.h>
/* ksum/ksum/launch.cuh -- the host side of every ksum launcher: argument checks, the grid plan, the
 * workspace, the launches (cudaLaunchKernel on kernels passed as pointers).
 *
 * WHAT (part of ksum/ksum.cuh; smalldim.cuh, tc.cuh and wgmma.cuh use it too)
 *   ksum__check(args, R, scale, is_float)      every argument check, 0 or a KSUM_E* code
 *   ksum__plan_make(&p, args, bm, bn, minb)    the grid: bm targets a block, source tiles of bn split
 *                                              over gridDim.y (ksum__splits)
 *   ksum__launch_generic(...), ksum__launch_staged(...)   name_launch of the register-staged and the
 *                                              staged kernels; shared pieces ksum__work_get/put,
 *                                              ksum__run_norms, ksum__zero_v, ksum__run_main.
 *   Never prints or exits; every CUDA call is checked (KSUM_ECUDA).
 *
 * LIMITS: splits <= 65535, ceil(m / bm) < 2^31 blocks (KSUM_ESIZE).  The device comes from
 *   onchip/device.cuh's cache; a staged launcher raises its kernels' shared-memory limit once per
 *   device there.
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
/* checks shared by every launcher; returns 0 or a KSUM_E* code */
static inline int ksum__check(const ksum_args *a, int R, double scale, int is_float)
{
    if (!a || !a->a || !a->b || !a->w || !a->v) return KSUM_ENULL;
    if (a->m <= 0 || a->n <= 0 || a->dim <= 0) return KSUM_ESIZE;
    if ((a->lda != 0 && a->lda < a->dim) || (a->ldb != 0 && a->ldb < a->dim)) return KSUM_ESIZE;
    if (!(a->h > 0) || !isfinite(a->h)) return KSUM_EH;
    if (!(scale > 0) || !isfinite(scale) || (is_float && scale > (double)FLT_MAX / 4)) return KSUM_EH;
    if (a->nrhs < 0 || a->nrhs > R) return KSUM_ERHS;
    if ((a->flags & ~KSUM__FLAGS) != 0 || a->splits < 0 || a->splits > 65535) return KSUM_EFLAGS;
    if (a->work && a->work_bytes < ksum_work_bytes(a->m, a->n, is_float ? 4 : 8)) return KSUM_EWORK;
    {
        /* the bytes each array spans: v is written while a, b and w are read (by other blocks too) */
        const long long es = is_float ? 4 : 8, r = a->nrhs > 0 ? a->nrhs : 1;
        const long long na = onchip_span(a->m, a->lda ? a->lda : a->dim, a->dim, es);
        const long long nb = onchip_span(a->n, a->ldb ? a->ldb : a->dim, a->dim, es);
        const long long nw = (long long)a->n * r * es, nv = (long long)a->m * r * es;
        if (na < 0 || nb < 0) return KSUM_ESIZE;
        const long long nk = (long long)ksum_work_bytes(a->m, a->n, (size_t)es);
        if (onchip_overlap(a->v, nv, a->a, na) || onchip_overlap(a->v, nv, a->b, nb) || onchip_overlap(a->v, nv, a->w, nw))
            return KSUM_EOVERLAP;
        if (a->work && (onchip_overlap(a->work, nk, a->a, na) || onchip_overlap(a->work, nk, a->b, nb) ||
                        onchip_overlap(a->work, nk, a->w, nw) || onchip_overlap(a->work, nk, a->v, nv)))
            return KSUM_EOVERLAP;
    }
    return KSUM_SUCCESS;
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

/* KSUM_EUNSUPPORTED below sm_80 (the tensor-core launchers), KSUM_ECUDA if the device can't be asked */
static inline int ksum__need_sm80(void)
{
    onchip_device_attrs d;
    if (onchip_device_current(NULL, &d) != cudaSuccess) return KSUM_ECUDA;
    return d.cc_major >= 8 ? KSUM_SUCCESS : KSUM_EUNSUPPORTED;
}

/* the grid every launcher plans: defaults filled in, bm targets per block, the sources in tiles of bn
 * split over gridDim.y */
typedef struct ksum__plan {
    int nrhs;                 /* right-hand sides (args->nrhs, 0 meaning 1) */
    long long lda, ldb;       /* elements between points (0 meaning dim) */
    long long rowtiles;       /* gridDim.x */
    int ntiles, per, ysplits; /* source tiles, tiles per split, gridDim.y */
    int atomic, accumulate;   /* the flags as the kernels take them */
} ksum__plan;

static inline int ksum__plan_make(ksum__plan *p, const ksum_args *args, int bm, int bn, int minb)
{
    p->nrhs = args->nrhs ? args->nrhs : 1;
    p->lda = args->lda ? args->lda : args->dim;
    p->ldb = args->ldb ? args->ldb : args->dim;
    p->rowtiles = ((long long)args->m + bm - 1) / bm;
    p->ntiles = (args->n + bn - 1) / bn;
    if (p->rowtiles > 2147483647LL) return KSUM_ESIZE;
    int splits = 1;
    const int rc = ksum__splits(args, p->rowtiles, p->ntiles, minb, &splits);
    if (rc) return rc;
    p->per = (p->ntiles + splits - 1) / splits;
    p->ysplits = (p->ntiles + p->per - 1) / p->per;
    p->atomic = !(args->flags & KSUM_DETERMINISTIC);
    p->accumulate = (args->flags & KSUM_ACCUMULATE) != 0;
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

/* the workspace: args->work, or cudaMallocAsync on the stream (given back by ksum__work_put) */
static inline int ksum__work_get(const ksum_args *args, size_t esize, cudaStream_t stream, void **work)
{
    *work = args->work;
    if (!*work && cudaMallocAsync(work, ksum_work_bytes(args->m, args->n, esize), stream) != cudaSuccess)
        return KSUM_ECUDA;
    return KSUM_SUCCESS;
}
static inline int ksum__work_put(const ksum_args *args, void *work, cudaStream_t stream, int rc)
{
    if (!args->work && cudaFreeAsync(work, stream) != cudaSuccess && !rc) rc = KSUM_ECUDA;
    return rc;
}

/* the norm pre-pass name_norms over the first m targets and all sources, into out */
static inline int ksum__run_norms(const void *norms_fn, const ksum_args *args, const ksum__plan *p, int m,
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
static inline int ksum__zero_v(const ksum_args *args, const ksum__plan *p, size_t esize, cudaStream_t stream)
{
    if (p->atomic && !p->accumulate &&
        cudaMemsetAsync(args->v, 0, (size_t)args->m * p->nrhs * esize, stream) != cudaSuccess)
        return KSUM_ECUDA;
    return KSUM_SUCCESS;
}

/* the main kernel of ksum.cuh and tc.cuh: (a, lda, b, ldb, w, v, m, n, dim, nrhs, -2s, norms,
 * tiles_per_split, x, [y,] atomic, accumulate), x y the generator's own ints: nx = 2 (vec_a, vec_b) for
 * the generic kernels, nx = 1 (ks) for the staged ones */
static inline int ksum__run_main(const void *kernel_fn, const ksum_args *args, const ksum__plan *p,
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

/* the launcher of the register-staged kernels (KSUM_REGS_DEFINE, KSUM_DEFINE of double): checks
 * (KSUM_EUNSUPPORTED below sm_80 when need_sm80), the plan, workspace, the norm pre-pass, v zeroed in
 * atomic mode, the main kernel (block tile 16 tm x 16 tn) */
static inline int ksum__launch_generic(const ksum_args *args, cudaStream_t stream, const void *norms_fn,
                                       const void *kernel_fn, size_t esize, double scale, int R, int tm, int tn,
                                       int minb, int need_sm80)
{
    int rc = ksum__check(args, R, scale, esize == sizeof(float));
    if (rc) return rc;
    if (need_sm80 && (rc = ksum__need_sm80()) != KSUM_SUCCESS) return rc;
    ksum__plan p;
    if ((rc = ksum__plan_make(&p, args, 16 * tm, 16 * tn, minb)) != KSUM_SUCCESS) return rc;
    const int ea = tm / 2, eb = tn / 2;
    const int vec_a = (ea == 4 || ea == 2) && args->dim % ea == 0 && p.lda % ea == 0 && ((uintptr_t)args->a % 16) == 0;
    const int vec_b = args->dim % eb == 0 && p.ldb % eb == 0 && ((uintptr_t)args->b % 16) == 0;
    void *work = NULL;
    if (ksum__work_get(args, esize, stream, &work)) return KSUM_ECUDA;
    rc = ksum__run_norms(norms_fn, args, &p, args->m, ksum__scalar_make(scale, esize), work, stream);
    if (!rc) rc = ksum__zero_v(args, &p, esize, stream);
    if (!rc) rc = ksum__run_main(kernel_fn, args, &p, ksum__scalar_make(-2.0 * scale, esize), work, vec_a, vec_b, 2, 0, stream);
    return ksum__work_put(args, work, stream, rc);
}

/* shared-memory bytes of a staged kernel (rows of LDP floats): resident targets (res) or streamed */
static inline size_t ksum__stage_smem(int dp, int ks, int res, int R, int ldp)
{
    return ((size_t)(res ? dp + 2 * ks : 4 * ks) * ldp + 2 * 128 * (size_t)(1 + R) + 128) * sizeof(float);
}

/* the launcher of the staged float kernels (KSUM_DEFINE of float, ksum_tf32, ksum_tf32x3): checks
 * (KSUM_EUNSUPPORTED below sm_80 when need_sm80), resident or streamed mode and stage size from the
 * device's shared memory, workspace, norm pre-pass (s|x|^2 resident, -|x|^2/2 streamed), v zeroed in
 * atomic mode, the kernel */
static inline int ksum__launch_staged(const ksum_args *args, cudaStream_t stream, const void *norms_fn,
                                      const void *kernel_res, const void *kernel_stream, double scale, int R,
                                      int minb, int ldp, int need_sm80)
{
    int rc = ksum__check(args, R, scale, 1);
    if (rc) return rc;
    if (need_sm80 && (rc = ksum__need_sm80()) != KSUM_SUCCESS) return rc;
    ksum__plan p;
    if ((rc = ksum__plan_make(&p, args, 128, 128, minb)) != KSUM_SUCCESS) return rc;
    onchip_device_attrs d;
    if (onchip_device_current(NULL, &d) != cudaSuccess) return KSUM_ECUDA;
    const int optin = d.smem_optin, persm = d.smem_per_sm;
    const int dp = (args->dim + 7) & ~7;
    int ks = dp < 32 ? dp : 32;
    const int res = dp <= 128 && ksum__stage_smem(dp, ks, 1, R, ldp) <= (size_t)optin &&
                    (ksum__stage_smem(dp, ks, 1, R, ldp) + 2048) * minb <= (size_t)persm;
    while (!res && ks > 8 && ksum__stage_smem(dp, ks, 0, R, ldp) > (size_t)optin) ks -= 8;
    const size_t bytes = ksum__stage_smem(dp, ks, res, R, ldp);
    if (bytes > (size_t)optin) return KSUM_ESIZE;
    if (onchip_smem_allow(res ? kernel_res : kernel_stream, bytes) != cudaSuccess) return KSUM_ECUDA;
    void *work = NULL;
    if (ksum__work_get(args, sizeof(float), stream, &work)) return KSUM_ECUDA;
    /* resident: the targets' norms are summed in the kernel, the pre-pass does the sources */
    rc = ksum__run_norms(norms_fn, args, &p, res ? 0 : args->m, ksum__scalar_make(res ? scale : -0.5, sizeof(float)),
                         res ? (float *)work + args->m : work, stream);
    if (!rc) rc = ksum__zero_v(args, &p, sizeof(float), stream);
    if (!rc)
        rc = ksum__run_main(res ? kernel_res : kernel_stream, args, &p, ksum__scalar_make(-2.0 * scale, sizeof(float)),
                            work, ks, 0, 1, bytes, stream);
    return ksum__work_put(args, work, stream, rc);
}
#endif /* !__CUDACC_RTC__ */

#endif
#include <onchip/names_pop.h>
