#include <onchip/names_push.h>
/* perks/cg/define.cuh -- PERKS_CG_DEFINE: the CG kernels and the typed plan / solve of one T and
 * BLOCK (perks/cg.cuh describes the solver); T perks_cg_mixed: perks/cg/mixed.cuh's solver.
 *
 * WHAT
 *   PERKS_CG_DEFINE(name, T, BLOCK) defines
 *       __global__ void name_kernel(perks_cg_kargs)    perks_cg_grid_body<T, BLOCK, k>       (classic, grid)
 *       __global__ void name_kernel1(perks_cg_kargs)   perks_cg_cgear_body<T, BLOCK, k>      (Chronopoulos-Gear)
 *       __global__ void name_ckernel(perks_cg_kargs)   perks_cg_cluster_kernel_body<T, k>    (one cluster, sm_90)
 *       __global__ void name_skernel(perks_cg_kargs)   perks_cg_grid_body<T, BLOCK, k, 1>    (the stream path)
 *       int name_plan(perks_cg_plan *, n, nnz, d_row_ptr, d_col, const T *d_val, const perks_cg_opts *)
 *       int name_solve(n, nnz, d_row_ptr, d_col, d_val, d_b, d_x, opts, perks_cg_result *, stream)
 *   Each kernel is one call of its body (k: a struct declared in the kernel: its own static shared
 *   memory), the plan one call of perks__cg_plan_make, the solve one of perks__cg_solve.
 *   PERKS_CG_DEFINE(name, perks_cg_mixed, BLOCK) defines name_solve for double A, b, x and these
 *   kernels, plans and solves for name_f32 (float) and name_f64 (double): perks/cg/mixed.cuh.
 *
 * EXAMPLE
 *   [compile: int n, nnz; const int *d_rp, *d_ci; const double *d_va, *d_b; double *d_x; perks_cg_opts o; perks_cg_result res]
 *   #include <perks/cg.cuh>
 *   PERKS_CG_DEFINE(cg64, double, 256)
 *
 *   int rc = cg64_solve(n, nnz, d_rp, d_ci, d_va, d_b, d_x, &o, &res, 0);
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
#include "kernel_cluster.cuh"
#include "kernel_grid.cuh"
#include "mixed.cuh"
#include "plan.cuh"
#include "refine.cuh"
#include "types.cuh"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* name_solve: one plan (rc: what name_plan returned), one run, its result, the plan freed */
static inline __attribute__((unused)) int perks__cg_solve(perks_cg_plan *p, int rc, const void *d_b, void *d_x,
                                                          perks_cg_result *res, cudaStream_t stream)
{
    if (res) memset(res, 0, sizeof *res);
    if (rc) return rc;
    rc = perks_cg_run(p, d_b, d_x, stream);
    if (!rc) rc = perks_cg_wait(p, res);
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
    PERKS__CG_DEFINE(name, T, BLOCK)

/* the kernels (k: a struct of each kernel's own, see perks_cg_grid_body), name_plan and name_solve
 * without the checks (the mixed generator checks once); TB: BLOCK if valid, else 256 */
#define PERKS__CG_DEFINE(name, T, BLOCK) PERKS__CG_DEFINE_B(name, T, BLOCK, perks__cg_blk<(BLOCK)>::value)
#define PERKS__CG_DEFINE_B(name, T, BLOCK, TB)                                                                \
    __global__ void __launch_bounds__(TB, PERKS__CG_MINB(TB)) name##_kernel(perks_cg_kargs a)                \
    { struct k; perks_cg_grid_body<perks__cg_real<T>::type, TB, k>(a); }                                      \
    __global__ void __launch_bounds__(TB, PERKS__CG_MINB(TB)) name##_kernel1(perks_cg_kargs a)               \
    { struct k; perks_cg_cgear_body<perks__cg_real<T>::type, TB, k>(a); }                                     \
    __global__ void __launch_bounds__(PERKS_CG_CBLOCK, 1) name##_ckernel(perks_cg_kargs a)                    \
    { struct k; perks_cg_cluster_kernel_body<perks__cg_real<T>::type, k>(a); }                                \
    __global__ void __launch_bounds__(TB, PERKS__CG_SMINB(TB)) name##_skernel(perks_cg_kargs a)              \
    { struct k; perks_cg_grid_body<perks__cg_real<T>::type, TB, k, 1>(a); }                                   \
    PERKS__CG_HOST(name, T, BLOCK)

/* name_plan and name_solve (host code: none under NVRTC, where the generators emit the kernels only) */
#ifndef __CUDACC_RTC__
#define PERKS__CG_HOST(name, T, BLOCK)                                                                        \
    static inline __attribute__((unused)) int name##_plan(perks_cg_plan *p, int n, long long nnz,              \
                                                          const int *d_row_ptr, const int *d_col,             \
                                                          const T *d_val, const perks_cg_opts *o)            \
    {                                                                                                         \
        return perks__cg_plan_make(p, (const void *)name##_kernel, (const void *)name##_kernel1,              \
                                   (const void *)name##_ckernel, (const void *)name##_skernel, (int)sizeof(T), \
                                   (BLOCK), n, nnz, d_row_ptr,                                                \
                                   d_col, d_val, o);                                                          \
    }                                                                                                         \
    static inline __attribute__((unused)) int name##_solve(int n, long long nnz, const int *d_row_ptr,         \
                                                           const int *d_col, const T *d_val, const T *d_b,    \
                                                           T *d_x, const perks_cg_opts *o,                    \
                                                           perks_cg_result *res, cudaStream_t stream)         \
    {                                                                                                         \
        perks_cg_plan p;                                                                                      \
        const int rc = name##_plan(&p, n, nnz, d_row_ptr, d_col, d_val, o);                                   \
        return perks__cg_solve(&p, rc, d_b, d_x, res, stream);                                                \
    }
#else
#define PERKS__CG_HOST(name, T, BLOCK)
#endif

#endif /* PERKS_CG_DEFINE_CUH */
#include <onchip/names_pop.h>
