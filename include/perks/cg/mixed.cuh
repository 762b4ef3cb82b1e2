#include <onchip/names_push.h>
/* perks/cg/mixed.cuh -- PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK): a double system solved by float
 * CG iterations whose residual replacements are done in double (perks/cg.cuh, MIXED PRECISION).
 *
 * WHAT
 *   PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK) (perks/cg/define.cuh) defines name_plan, name_run
 *   and name_launch over perks_cg_args with double val, b, x, and PERKS_CG_DEFINE's kernels and
 *   verbs for name_f32 (float) and name_f64 (double).
 *   perks__cg_mixed_plan(&fk, &dk, a, p)  the double plan (its stream copy left out), then, unless
 *                                         it holds the system on chip (opts.mixed 0: the double
 *                                         solver alone, p->mixed PERKS_CG_RAN_DOUBLE), the float
 *                                         values and the float plan (p->mixed PERKS_CG_RAN_MIXED)
 *   perks__cg_mixed_run(a, p, stream)     the float grid solve with x and the replaced residuals in
 *                                         double (a.x_hi, va_hi, b_hi), the double solver after a
 *                                         float stall or breakdown (res.ran says which)
 *
 * EXAMPLE
 *   [compile: perks_cg_args a]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cgm, perks_cg_mixed, 256)
 *
 *   int rc = cgm_launch(&a, 0);   // a.val, a.b, a.x double
 *
 * LIMITS: BLOCK a multiple of 32 from 64 to 1024 (a static_assert naming PERKS_CG_DEFINE);
 * classic CG on the grid path (Chronopoulos-Gear or path 2: PERKS_ESIZE); 4 nnz + 8 n bytes of
 * workspace beside the two plans; the float values are copied at name_plan.
 */
#ifndef PERKS_CG_MIXED_CUH
#define PERKS_CG_MIXED_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#include <string.h>
#endif

#include "../base.h"
#include "plan.cuh"
#include "refine.cuh"
#include "resid.cuh"
#include "types.cuh"


#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the float copies' bytes in p->fbuf: the values (fv), then b and the correction (fn each) */
static inline size_t perks__cg_mixed_fv(long long nnz) { return ((size_t)(nnz ? nnz : 1) * 4 + 255) & ~(size_t)255; }
static inline size_t perks__cg_mixed_fn(int n) { return ((size_t)n * 4 + 255) & ~(size_t)255; }

/* the double plan alone (auto on chip, or the fallback from the x reached) */
static inline int perks__cg_mixed_double(perks_cg_plan *dp, const double *d_b, double *d_x, int x0, int max_iter,
                                         int it0, int ran, perks_cg_result *res, cudaStream_t stream)
{
    int rc;
    dp->args.use_x0 = x0;
    dp->args.max_iter = max_iter > 0 ? max_iter : 0;
    rc = perks__cg_start(dp, d_b, d_x, stream);
    if (rc) return rc;
    rc = perks__cg_finish(dp, res);
    res->iterations += it0;
    res->ran = ran;
    return rc;
}

/* The plan of a double system (a.val, a.b, a.x double) for T perks_cg_mixed: fk / dk the float and
 * double instances' kernels.  The double plan first (without a stream path's copy of the matrix);
 * auto (opts.mixed 0) keeps it alone when it holds the system on chip (bound by barriers, not bytes:
 * float gains nothing); else the float values (rounded once, here) and a float plan on the grid or,
 * where the double one streams, the stream path, the double plan kept for the fallback. */
static inline int perks__cg_mixed_plan(const perks__cg_kset *fk, const perks__cg_kset *dk, const perks_cg_args *a,
                                       perks_cg_plan *p)
{
    perks_cg_plan *dp;
    perks_cg_args fa;
    char *buf = NULL;
    int rc;
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!a) return perks__cg_refuse(p, PERKS_ENULL, "refused: the arguments (a) are NULL");
    if (a->opts.mixed < 0 || a->opts.mixed > 1 || a->opts.variant != PERKS_CG_CLASSIC ||
        a->opts.path == PERKS_CG_PATH_CLUSTER)
        return perks__cg_refuse(p, PERKS_ESIZE,
                                "refused: opts.mixed outside 0 .. 1, or T perks_cg_mixed with Chronopoulos-Gear or the "
                                "cluster path (it runs classic CG on the grid or stream path)");
    dp = (perks_cg_plan *)malloc(sizeof *dp);
    if (!dp) return perks__cg_refuse(p, PERKS_ENOMEM, perks__cg_why_code(PERKS_ENOMEM));
    rc = perks__cg_plan_make(dp, dk, a, 0);
    if (rc) {
        const char *why = dp->why;
        free(dp);
        return perks__cg_refuse(p, rc, why);
    }
    if (!a->opts.mixed && (dp->path == PERKS_CG_PATH_CLUSTER || dp->cached == 2)) { /* the double solver alone */
        *p = *dp;
        free(dp);
        p->mixed = PERKS_CG_RAN_DOUBLE;
        p->why = perks__cg_why(p, &a->opts);
        return PERKS_SUCCESS;
    }
    {
        const size_t fv = perks__cg_mixed_fv(a->nnz), fn = perks__cg_mixed_fn(a->n);
        if (cudaMalloc((void **)&buf, fv + 2 * fn) != cudaSuccess) {
            perks_cg_plan_free(dp);
            free(dp);
            return perks__cg_refuse(p, PERKS_ECUDA, perks__cg_why_code(PERKS_ECUDA));
        }
        perks__cg_to_float<<<264, 256, 0, 0>>>(a->nnz, (const double *)a->val, 1.0, (float *)buf);
        fa = *a;
        fa.val = buf, fa.b = buf + fv, fa.x = buf + fv + fn;
        /* the cluster kernel has no double x; the float solve streams where the double one would */
        fa.opts.path = dp->path == PERKS_CG_PATH_STREAM ? PERKS_CG_PATH_STREAM : PERKS_CG_PATH_GRID;
        fa.opts.x0 = 0;
        rc = cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess
                 ? perks__cg_refuse(p, PERKS_ECUDA, perks__cg_why_code(PERKS_ECUDA))
                 : perks__cg_plan_make(p, fk, &fa, 1);
        if (rc) {
            perks_cg_plan_free(dp);
            free(dp);
            cudaFree(buf);
            return rc; /* p: refused, its why the float plan's */
        }
        p->workspace_bytes += fv + 2 * fn + dp->workspace_bytes;
    }
    p->args.va_hi = (const double *)a->val;
    {
        const double d = a->opts.replace_delta > 0 ? a->opts.replace_delta : PERKS_CG_MIXED_DELTA;
        p->args.rdelta2 = d * d;
        p->args.rper = a->opts.replace > 0 ? a->opts.replace : a->opts.replace < 0 ? PERKS_CG_MIXED_PERIOD : 0;
    }
    p->args.rconv = 1;
    p->mixed = PERKS_CG_RAN_MIXED;
    p->dbl = dp;
    p->fbuf = buf;
    p->why = perks__cg_why(p, &a->opts);
    p->passes = 1 + dp->passes; /* the float launch, then the double fallback's */
    p->result = a->x;
    return PERKS_SUCCESS;
}

/* the stream path's copy of the matrix for the fallback of a mixed plan (dp: a copy of its double
 * plan; the copy is this solve's, freed by the caller) */
static inline int perks__cg_mixed_sell(perks_cg_plan *dp)
{
    int *rp = (int *)malloc(sizeof(int) * ((size_t)dp->n + 1)), rc;
    if (!rp) return PERKS_ENOMEM;
    if (cudaMemcpy(rp, dp->args.rp, sizeof(int) * ((size_t)dp->n + 1), cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(rp);
        return PERKS_ECUDA;
    }
    rc = perks__cg_sell_build(dp, 8, dp->n, rp, dp->args.rp, dp->args.ci, dp->args.va);
    free(rp);
    return rc;
}

/* one solve of a mixed plan p (a.b, a.x double): the float solve whose replacements fold its x into
 * the double x and compute r = b - A x from the double matrix; the double solver goes on from the x
 * reached where float stalls or breaks down.  Works on copies of the plans (p is not changed). */
static inline int perks__cg_mixed_run(const perks_cg_args *a, const perks_cg_plan *p, cudaStream_t stream)
{
    perks_cg_result *res = a->result;
    perks_cg_plan fp, dp;
    int rc;
    if (p->mixed == PERKS_CG_RAN_DOUBLE) {
        dp = *p;
        rc = perks__cg_mixed_double(&dp, (const double *)a->b, (double *)a->x, p->opts.x0 ? 1 : 0, p->opts.max_iter,
                                    0, PERKS_CG_RAN_DOUBLE, res, stream);
        return res->status = rc;
    }
    {
        const perks_cg_opts *o = &p->dbl->opts; /* as asked (the float plan's path and x0 are its own) */
        const size_t fv = perks__cg_mixed_fv(p->nnz), fn = perks__cg_mixed_fn(p->n);
        float *bf = (float *)((char *)p->fbuf + fv), *xf = (float *)((char *)p->fbuf + fv + fn);
        fp = *p;
        fp.args.b_hi = (const double *)a->b;
        fp.args.x_hi = (double *)a->x;
        perks__cg_to_float<<<264, 256, 0, stream>>>(p->n, (const double *)a->b, 1.0, bf);
        rc = cudaGetLastError() != cudaSuccess ? PERKS_ECUDA : PERKS_SUCCESS;
        if (!rc && !o->x0 && cudaMemsetAsync(a->x, 0, sizeof(double) * p->n, stream) != cudaSuccess) rc = PERKS_ECUDA;
        if (!rc) rc = perks__cg_start(&fp, bf, xf, stream);
        if (!rc) {
            rc = perks__cg_finish(&fp, res);
            res->ran = PERKS_CG_RAN_MIXED;
            /* float could not carry the iteration to tol (cond(A) too large for float, or a float
             * breakdown of an SPD matrix): the double solver goes on from the x reached */
            if ((rc == PERKS_EINACCURATE || rc == PERKS_EBREAKDOWN) && res->iterations < o->max_iter) {
                int it = res->iterations, repl = res->replacements;
                dp = *p->dbl;
                rc = dp.path == PERKS_CG_PATH_STREAM ? perks__cg_mixed_sell(&dp) : PERKS_SUCCESS;
                if (!rc)
                    rc = perks__cg_mixed_double(&dp, (const double *)a->b, (double *)a->x, 1, o->max_iter - it, it,
                                                PERKS_CG_RAN_FALLBACK, res, stream);
                res->replacements += repl;
                if (dp.sell && dp.sell != p->dbl->sell) cudaFree(dp.sell);
            }
        }
    }
    res->status = rc;
    return rc;
}
#endif /* !__CUDACC_RTC__ */

/* PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK): name_plan, name_run, name_launch for a double system
 * (double values, b, x) that runs float CG solves with their replacements in double; the float and
 * double kernels are name_f32_* and name_f64_* (PERKS__CG_DEFINE's, perks/cg/define.cuh) */
#define PERKS__CG_DEFINE_T1(name, T, BLOCK)                                                                   \
    static_assert(perks__cg_blk<(BLOCK)>::ok,                                                                 \
                  "PERKS_CG_DEFINE(" #name "): BLOCK must be a multiple of 32 from 64 to 1024");                \
    PERKS__CG_DEFINE(name##_f32, float, BLOCK)                                                                \
    PERKS__CG_DEFINE(name##_f64, double, BLOCK)                                                               \
    PERKS__CG_MIXED_HOST(name, BLOCK)

/* name_plan (host code: none under NVRTC, where the generator emits the six kernels only); name_run
 * and name_launch: PERKS__CG_VERBS (perks/cg/define.cuh) */
#ifndef __CUDACC_RTC__
#define PERKS__CG_MIXED_HOST(name, BLOCK)                                                                     \
    static inline __attribute__((unused)) int name##_plan(const perks_cg_args *a, perks_cg_plan *p)          \
    {                                                                                                         \
        const perks__cg_kset fk = {(const void *)name##_f32_kernel, (const void *)name##_f32_kernel1,         \
                                   (const void *)name##_f32_ckernel, (const void *)name##_f32_skernel, 4,     \
                                   (BLOCK), NULL, NULL};                                                      \
        const perks__cg_kset dk = {(const void *)name##_f64_kernel, (const void *)name##_f64_kernel1,         \
                                   (const void *)name##_f64_ckernel, (const void *)name##_f64_skernel, 8,     \
                                   (BLOCK), NULL, NULL};                                                      \
        return perks__cg_mixed_plan(&fk, &dk, a, p);                                                          \
    }                                                                                                         \
    PERKS__CG_VERBS(name)
#else
#define PERKS__CG_MIXED_HOST(name, BLOCK)
#endif

#endif /* PERKS_CG_MIXED_CUH */
#include <onchip/names_pop.h>
