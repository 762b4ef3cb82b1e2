#include <onchip/names_push.h>
/* perks/cg_dist/define.cuh -- PERKS_CGD_DEFINE: the multi-GPU CG's five kernels and its verbs for one
 * T (perks/cg_dist.cuh describes them). */
#ifndef PERKS_CG_DIST_DEFINE_CUH
#define PERKS_CG_DIST_DEFINE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <math.h>
#include <string.h>
#endif

#include "kernels.cuh"
#include "solve.cuh"
#include "types.cuh"

/* the verbs and the kernels, for T float or double */
#define PERKS_CGD_DEFINE(name, T)                                                                          \
    static_assert(perks__cg_real<T>::ok, "PERKS_CGD_DEFINE(" #name "): T must be float or double");         \
    PERKS__CGD_KERNEL(name##_diag, perks__cgd_diag, T)                                                     \
    PERKS__CGD_KERNEL(name##_resid, perks__cgd_resid, T)                                                   \
    PERKS__CGD_KERNEL(name##_spmv, perks__cgd_spmv, T)                                                     \
    PERKS__CGD_KERNEL(name##_update, perks__cgd_update, T)                                                 \
    PERKS__CGD_KERNEL(name##_pupd, perks__cgd_pupd, T)                                                     \
    PERKS__CGD_HOST(name, T)
/* one kernel: its body for T */
#define PERKS__CGD_KERNEL(kname, body, T)                                                                  \
    static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) __attribute__((unused)) kname(perks__cgd_k a) \
    {                                                                                                      \
        body<perks__cg_real<T>::type>(a);                                                                  \
    }

/* name_plan, name_run, name_launch (host code: none under NVRTC, where the generator emits its five
 * kernels only); the ranks carry their streams, so the verbs take none */
#ifndef __CUDACC_RTC__
#define PERKS__CGD_HOST(name, T)                                                                           \
    static inline __attribute__((unused)) int name##_plan(const perks_cgd_args *a, perks_cgd_plan *p)     \
    {                                                                                                      \
        return perks__cgd_plan_make(a, p, (int)sizeof(T));                                                 \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_run(const perks_cgd_args *a, const perks_cgd_plan *p) \
    {                                                                                                      \
        const perks__cgd_kset ks = {(const void *)name##_diag, (const void *)name##_resid,                 \
                                    (const void *)name##_spmv, (const void *)name##_update,                \
                                    (const void *)name##_pupd, (int)sizeof(T)};                            \
        return perks__cgd_run(a, p, &ks);                                                                  \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_launch(const perks_cgd_args *a)                       \
    {                                                                                                      \
        perks_cgd_plan p;                                                                                  \
        int rc = name##_plan(a, &p);                                                                       \
        if (!rc) rc = name##_run(a, &p);                                                                   \
        else if (a && a->result) {                                                                         \
            memset(a->result, 0, sizeof *a->result);                                                       \
            a->result->true_residual = a->result->rel_residual = NAN, a->result->status = rc;              \
        }                                                                                                  \
        perks_cgd_plan_free(&p);                                                                           \
        return rc;                                                                                         \
    }
#else
#define PERKS__CGD_HOST(name, T)
#endif

#endif /* PERKS_CG_DIST_DEFINE_CUH */
#include <onchip/names_pop.h>
