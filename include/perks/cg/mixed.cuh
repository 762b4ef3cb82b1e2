#include <onchip/names_push.h>
/* perks/cg/mixed.cuh -- PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK): a double system solved by float
 * CG iterations whose residual replacements are done in double (perks/cg.cuh, MIXED PRECISION).
 *
 * WHAT
 *   PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK) (perks/cg/define.cuh) defines
 *       int name_solve(n, nnz, d_row_ptr, d_col, const double *d_val, const double *d_b, double *d_x,
 *                      const perks_cg_opts *, perks_cg_result *, stream)
 *   and PERKS_CG_DEFINE's kernels, plans and solves for name_f32 (float) and name_f64 (double).
 *   perks__cg_mixed_solve(fk, dk, ...) is the driver: the float grid solve with x and the replaced
 *   residuals in double (a.x_hi, va_hi, b_hi), the double solver alone when the double plan holds
 *   the system on chip (opts.mixed = 0), or after a float stall or breakdown (res.ran says which).
 *
 * EXAMPLE
 *   [compile: int n, nnz; const int *d_rp, *d_ci; const double *d_va, *d_b; double *d_x; perks_cg_opts o; perks_cg_result res]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cgm, perks_cg_mixed, 256)
 *
 *   int rc = cgm_solve(n, nnz, d_rp, d_ci, d_va, d_b, d_x, &o, &res, 0);   // double A, b, x
 *
 * LIMITS: BLOCK a multiple of 32 from 64 to 1024 (a static_assert naming PERKS_CG_DEFINE);
 * classic CG on the grid path (Chronopoulos-Gear or path 2: PERKS_ESIZE); 4 nnz + 8 n bytes of
 * workspace beside the two plans.
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
 * See PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK). */
static inline int perks__cg_mixed_solve(const void *const fk[4], const void *const dk[4], int block, int n,
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
    /* the double plan: the choice below, and the fallback (a stream plan's copy is built only then) */
    rc = perks__cg_plan_make2(&dp, dk[0], dk[1], dk[2], dk[3], 8, block, n, nnz, d_rp, d_ci, d_val, o, 0);
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
    /* the cluster kernel has no double x; the float solve streams where the double one would */
    fo.path = dp.path == PERKS_CG_PATH_STREAM ? PERKS_CG_PATH_STREAM : PERKS_CG_PATH_GRID;
    fo.x0 = 0;
    rc = cudaGetLastError() != cudaSuccess ? PERKS_ECUDA
         : perks__cg_plan_make(&fp, fk[0], fk[1], fk[2], fk[3], 4, block, n, nnz, d_rp, d_ci, vf, &fo);
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
            if (dp.path == PERKS_CG_PATH_STREAM) {
                perks_cg_plan_free(&dp);
                rc = perks__cg_plan_make(&dp, dk[0], dk[1], dk[2], dk[3], 8, block, n, nnz, d_rp, d_ci, d_val, o);
            } else rc = PERKS_SUCCESS;
            if (!rc)
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
#endif /* !__CUDACC_RTC__ */

/* PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK): name_solve for a double system (double values, b, x)
 * that runs float CG solves with their residual replacements in double; the float and double
 * kernels are name_f32_* and name_f64_* (PERKS__CG_DEFINE's, perks/cg/define.cuh) */
#define PERKS__CG_DEFINE_T1(name, T, BLOCK)                                                                   \
    static_assert(perks__cg_blk<(BLOCK)>::ok,                                                                 \
                  "PERKS_CG_DEFINE(" #name "): BLOCK must be a multiple of 32 from 64 to 1024");                \
    PERKS__CG_DEFINE(name##_f32, float, BLOCK)                                                                \
    PERKS__CG_DEFINE(name##_f64, double, BLOCK)                                                               \
    PERKS__CG_MIXED_HOST(name, BLOCK)

/* name_solve (host code: none under NVRTC, where the generator emits the six kernels only) */
#ifndef __CUDACC_RTC__
#define PERKS__CG_MIXED_HOST(name, BLOCK)                                                                     \
    static inline __attribute__((unused)) int name##_solve(int n, long long nnz, const int *d_row_ptr,        \
                                                           const int *d_col, const double *d_val,             \
                                                           const double *d_b, double *d_x,                    \
                                                           const perks_cg_opts *o, perks_cg_result *res,      \
                                                           cudaStream_t stream)                               \
    {                                                                                                         \
        const void *const fk[4] = {(const void *)name##_f32_kernel, (const void *)name##_f32_kernel1,         \
                                   (const void *)name##_f32_ckernel, (const void *)name##_f32_skernel};       \
        const void *const dk[4] = {(const void *)name##_f64_kernel, (const void *)name##_f64_kernel1,         \
                                   (const void *)name##_f64_ckernel, (const void *)name##_f64_skernel};       \
        return perks__cg_mixed_solve(fk, dk, (BLOCK), n, nnz, d_row_ptr, d_col, d_val, d_b, d_x, o, res,      \
                                     stream);                                                                 \
    }
#else
#define PERKS__CG_MIXED_HOST(name, BLOCK)
#endif

#endif /* PERKS_CG_MIXED_CUH */
#include <onchip/names_pop.h>
