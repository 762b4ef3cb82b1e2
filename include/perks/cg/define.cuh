#include <onchip/names_push.h>
/* perks/cg/define.cuh -- PERKS_CG_DEFINE: the CG kernels and the verbs of one T and BLOCK (perks/cg.cuh
 * describes the solver); T perks_cg_mixed: perks/cg/mixed.cuh's solver.
 *
 * WHAT
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines
 *       __global__ void name_kernel(perks_cg_kargs)    perks_cg_grid_body<T, BLOCK, k>       (classic, grid)
 *       __global__ void name_kernel1(perks_cg_kargs)   perks_cg_cgear_body<T, BLOCK, k>      (Chronopoulos-Gear)
 *       __global__ void name_ckernel(perks_cg_kargs)   perks_cg_cluster_kernel_body<T, k>    (one cluster, sm_90)
 *       __global__ void name_skernel(perks_cg_kargs)   perks_cg_grid_body<T, BLOCK, k, 1>    (the stream path)
 *       __global__ void name_pkernel(perks_cg_kargs)   perks_cg_cheb_body<T, BLOCK, k>       (Chebyshev, grid;
 *                                                       not for T perks_cg_mixed)
 *       __global__ void name_fkernel(perks_cg_kargs)   perks_cg_fsai_body<T, BLOCK, k>       (FSAI, grid; not
 *                                                       for T perks_cg_mixed)
 *       int name_plan(const perks_cg_args *a, perks_cg_plan *p)      checks a, chooses, allocates
 *       int name_run(const perks_cg_args *a, const perks_cg_plan *p, cudaStream_t)   one solve of a's b
 *       int name_launch(const perks_cg_args *a, cudaStream_t)        name_plan, name_run, the plan freed
 *   Each kernel is one call of its body (k: a struct declared in the kernel: its own static shared
 *   memory), name_plan one call of perks__cg_plan_make, name_run one of perks__cg_run.
 *   PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK) defines the three verbs for double A, b, x and these
 *   kernels and verbs for name_f32 (float) and name_f64 (double): perks/cg/mixed.cuh.
 *
 * EXAMPLE
 *   [compile: perks_cg_args a]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cg64, double, 256)
 *
 *   int rc = cg64_launch(&a, 0);
 *
 * LIMITS (static_asserts, each naming the generator and the instance): T float, double or
 * perks_cg_mixed (the word: a typedef of it is refused); BLOCK a multiple of 32 from 64 to 1024.
 * PERKS_CG_THREADS_PER_SM (default 1024 threads per SM: at most 64 registers) is read where
 * PERKS_CG_DEFINE expands, PERKS_CG_SELL_THREADS_PER_SM (the same for name_skernel) too.
 */
#ifndef PERKS_CG_DEFINE_CUH
#define PERKS_CG_DEFINE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#include <string.h>
#endif

#include "kernel_cgear.cuh"
#include "kernel_cheb.cuh"
#include "kernel_cluster.cuh"
#include "kernel_fsai.cuh"
#include "kernel_grid.cuh"
#include "mixed.cuh"
#include "plan.cuh"
#include "precond.cuh"
#include "refine.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* name_run: one solve of a's b into a's x with plan p (made from a's system and options), its result
 * into *a->result (status = the code returned).  Works on a copy of p: p is not changed, and one plan
 * serves many solves, one at a time. */
static inline __attribute__((unused)) int perks__cg_run(const perks_cg_args *a, const perks_cg_plan *p,
                                                        cudaStream_t stream)
{
    perks_cg_plan q;
    int rc;
    if (!a || !p) return PERKS_ENULL;
    if (!a->result) return PERKS_ENULL;
    perks__cg_result_error(a->result, PERKS_SUCCESS);
    if (!a->b || !a->x) rc = PERKS_ENULL;
    else if (!p->passes) rc = PERKS_ESIZE; /* refused or freed */
    else if (p->mixed) return perks__cg_mixed_run(a, p, stream);
    else {
        q = *p;
        if (q.cheb) rc = perks__cg_cheb_solve(&q, a->b, a->x, stream, a->result);
        else {
            rc = perks__cg_start(&q, a->b, a->x, stream);
            if (!rc) rc = perks__cg_finish(&q, a->result);
        }
    }
    a->result->status = rc;
    return rc;
}

/* name_launch: rc what name_plan returned into p; then name_run, the plan freed */
static inline __attribute__((unused)) int perks__cg_launch(const perks_cg_args *a, perks_cg_plan *p, int rc,
                                                           cudaStream_t stream)
{
    if (!rc) rc = perks__cg_run(a, p, stream);
    else if (a && a->result) perks__cg_result_error(a->result, rc);
    perks_cg_plan_free(p);
    return rc;
}
#endif

/* T the word perks_cg_mixed: PERKS__CG_DEFINE_T1 (perks/cg/mixed.cuh), else PERKS__CG_DEFINE_T0 */
#define PERKS_CG_DEFINE(name, T, BLOCK) PERKS__CG_PICK(PERKS__CG_DEFINE_T, T)(name, T, BLOCK)
#define PERKS__CG_DEFINE_T0(name, T, BLOCK)                                                                   \
    static_assert(perks__cg_real<T>::ok || perks__cg_is_mixed<T>::value,                                      \
                  "PERKS_CG_DEFINE(" #name "): T must be float, double or perks_cg_mixed");                    \
    static_assert(!perks__cg_is_mixed<T>::value,                                                              \
                  "PERKS_CG_DEFINE(" #name "): T must be the word perks_cg_mixed, not another name for it");  \
    static_assert(perks__cg_blk<(BLOCK)>::ok,                                                                 \
                  "PERKS_CG_DEFINE(" #name "): BLOCK must be a multiple of 32 from 64 to 1024");                \
    PERKS__CG_DEFINE_B(name, T, BLOCK, perks__cg_blk<(BLOCK)>::value, PERKS__CG_PKERNEL, name##_pkernel,        \
                       name##_fkernel)

/* the kernels (k: a struct of each kernel's own, see perks_cg_grid_body) and the three verbs without
 * the checks (the mixed generator checks once, and its instances have no Chebyshev or FSAI kernel);
 * TB: BLOCK if valid, else 256; PK(name, T, TB) the Chebyshev and FSAI kernels pk, fk or nothing
 * (pk, fk then 0) */
#define PERKS__CG_DEFINE(name, T, BLOCK)                                                                      \
    PERKS__CG_DEFINE_B(name, T, BLOCK, perks__cg_blk<(BLOCK)>::value, PERKS__CG_NOPK, 0, 0)
#define PERKS__CG_PKERNEL(name, T, TB)                                                                        \
    __global__ void __launch_bounds__(TB, PERKS__CG_MINB(TB)) name##_pkernel(perks_cg_kargs a)               \
    { struct k; perks_cg_cheb_body<perks__cg_real<T>::type, TB, k>(a); }                                      \
    __global__ void __launch_bounds__(TB, PERKS__CG_MINB(TB)) name##_fkernel(perks_cg_kargs a)               \
    { struct k; perks_cg_fsai_body<perks__cg_real<T>::type, TB, k>(a); }
#define PERKS__CG_NOPK(name, T, TB)
#define PERKS__CG_DEFINE_B(name, T, BLOCK, TB, PK, pk, fk)                                                    \
    __global__ void __launch_bounds__(TB, PERKS__CG_MINB(TB)) name##_kernel(perks_cg_kargs a)                \
    { struct k; perks_cg_grid_body<perks__cg_real<T>::type, TB, k>(a); }                                      \
    __global__ void __launch_bounds__(TB, PERKS__CG_MINB(TB)) name##_kernel1(perks_cg_kargs a)               \
    { struct k; perks_cg_cgear_body<perks__cg_real<T>::type, TB, k>(a); }                                     \
    __global__ void __launch_bounds__(PERKS_CG_CBLOCK, 1) name##_ckernel(perks_cg_kargs a)                    \
    { struct k; perks_cg_cluster_kernel_body<perks__cg_real<T>::type, k>(a); }                                \
    __global__ void __launch_bounds__(TB, PERKS__CG_SMINB(TB)) name##_skernel(perks_cg_kargs a)              \
    { struct k; perks_cg_grid_body<perks__cg_real<T>::type, TB, k, 1>(a); }                                   \
    PK(name, T, TB)                                                                                           \
    PERKS__CG_HOST(name, T, BLOCK, pk, fk)

/* name_plan, name_run, name_launch (host code: none under NVRTC, where the generators emit the
 * kernels only); PERKS__CG_VERBS: name_run and name_launch, the same for every T */
#ifndef __CUDACC_RTC__
#define PERKS__CG_HOST(name, T, BLOCK, pk, fk)                                                                \
    static inline __attribute__((unused)) int name##_plan(const perks_cg_args *a, perks_cg_plan *p)          \
    {                                                                                                         \
        const perks__cg_kset ks = {(const void *)name##_kernel, (const void *)name##_kernel1,                 \
                                   (const void *)name##_ckernel, (const void *)name##_skernel, (int)sizeof(T), \
                                   (BLOCK), (const void *)pk, (const void *)fk};                              \
        return perks__cg_plan_make(p, &ks, a, 1);                                                             \
    }                                                                                                         \
    PERKS__CG_VERBS(name)
#define PERKS__CG_VERBS(name)                                                                                 \
    static inline __attribute__((unused)) int name##_run(const perks_cg_args *a, const perks_cg_plan *p,     \
                                                         cudaStream_t stream)                                 \
    {                                                                                                         \
        return perks__cg_run(a, p, stream);                                                                   \
    }                                                                                                         \
    static inline __attribute__((unused)) int name##_launch(const perks_cg_args *a, cudaStream_t stream)     \
    {                                                                                                         \
        perks_cg_plan p;                                                                                      \
        const int rc = name##_plan(a, &p);                                                                    \
        return perks__cg_launch(a, &p, rc, stream);                                                           \
    }
#else
#define PERKS__CG_HOST(name, T, BLOCK, pk, fk)
#endif

#endif /* PERKS_CG_DEFINE_CUH */
#include <onchip/names_pop.h>
