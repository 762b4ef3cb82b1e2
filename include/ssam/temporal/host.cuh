#include <onchip/names_push.h>
/* ssam/temporal/host.cuh -- the temporal stencils' host side: a pass's launch, name_plan's checks and
 * path, name_run's passes, and the 2D generator's host functions. */
#ifndef SSAM_TEMPORAL_HOST_CUH
#define SSAM_TEMPORAL_HOST_CUH

#include "../stencil.cuh"
#include "lane.cuh"
#include "plan.h"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the launchers' view of a temporal kernel: 2D segments that stream TT (YHI - YLO) extra rows */
template <class T, class S, int TT, int B>
static inline ssam__stencil_kern ssam__tb2_kern(const void *fn)
{
    enum { V = SSAM_STENCIL_V(T) };
    ssam__stencil_kern k = ssam__stencil_kern_of<S>(fn, 2, V, SSAM_TEMPORAL_STEP(V, S::xlo, S::xhi, TT), B, 1);
    k.grid2d = 1;
    k.warm = TT * (S::yhi - S::ylo);
    k.es = k.cs = sizeof(T);
    return k;
}
/* one pass of the temporal kernels (name__pass): 1 <= steps <= TT; on 0: no kernel (SSAM_ESIZE) */
static inline int ssam__temporal_launch(const ssam_stencil_args *a, int steps, cudaStream_t stream,
                                        const ssam__stencil_kern *k, void *cf, int TT, int on)
{
    if (steps < 1 || steps > TT || !on) return a ? SSAM_ESIZE : SSAM_ENULL;
    return ssam__stencil_launch(a, stream, k, cf, &steps);
}
/* a fixed schedule's passes: tt steps each (the last one shorter) */
static inline void ssam__tb_fixed_plan(ssam_tb_plan *t, int tt, int steps)
{
    t->path = SSAM_TB_TEMPORAL;
    t->tt = tt;
    t->passes = steps / tt + (steps % tt != 0);
    t->why = "the policy's fixed SCHEDULE: TT steps per pass through device memory";
}
/* name_plan's first checks: p, a, steps >= 0, a->path (AUTO: 0, SSAM_PATH_TEMPORAL or
 * SSAM_PATH_ONEPASS; a fixed schedule: 0 or SSAM_PATH_TEMPORAL) */
static inline int ssam__tb_plan_begin(const ssam_stencil_args *a, ssam_plan *p, int autoplan)
{
    static const int paths[2] = {SSAM_PATH_TEMPORAL, SSAM_PATH_ONEPASS};
    const char *why = "";
    int rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__stencil_plan_check(a, paths, autoplan ? 2 : 1,
                                  autoplan ? "refused (SSAM_EFLAGS): args.path must be 0, SSAM_PATH_TEMPORAL or "
                                             "SSAM_PATH_ONEPASS"
                                           : "refused (SSAM_EFLAGS): args.path must be 0 or SSAM_PATH_TEMPORAL (the "
                                             "instance's fixed schedule)",
                                  &why);
    return rc ? onchip__plan_refuse(p, rc, why) : SSAM_SUCCESS;
}
/* name_plan's end: the planner's plan *t (trc its code), args.path's choice, the checks of the chosen
 * path's kernel (kt the temporal one of TT steps, k1 the one-pass one, NULL for a fixed schedule),
 * the head */
static inline int ssam__tb_plan_end(const ssam_stencil_args *a, ssam_plan *p, ssam_tb_plan *t, int trc,
                                    const ssam__stencil_kern *kt, const ssam__stencil_kern *k1, int TT)
{
    ssam_stencil_geom g;
    dim3 grid;
    const char *why = "";
    long long passes;
    int rc;
    if (trc) { /* a size out of range: the launch's checks name it, else the planner's sentence */
        rc = ssam__stencil_prepare_why(a, k1 ? k1 : kt, &g, &grid, &why);
        return onchip__plan_refuse(p, rc ? rc : SSAM_ESIZE, rc ? why : t->why);
    }
    if (a->path == SSAM_PATH_TEMPORAL && t->path != SSAM_TB_TEMPORAL) {
        if (TT < 2)
            return onchip__plan_refuse(p, SSAM_EFLAGS, "refused (SSAM_EFLAGS): args.path SSAM_PATH_TEMPORAL, but the "
                                                        "instance has no temporal kernel for this shape (TT 1)");
        t->path = SSAM_TB_TEMPORAL;
        t->tt = TT;
        t->passes = a->steps / TT + (a->steps % TT != 0);
        t->why = "args.path SSAM_PATH_TEMPORAL: TT steps per pass through device memory";
    } else if (a->path == SSAM_PATH_ONEPASS && t->path != SSAM_TB_ONEPASS) {
        ssam__tb_plan_onepass(t, a->steps, "args.path SSAM_PATH_ONEPASS: one pass per step");
    }
    rc = ssam__stencil_prepare_why(a, t->path == SSAM_TB_TEMPORAL ? kt : k1, &g, &grid, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    passes = a->steps == 0 ? 0 : t->passes;
    onchip__plan_set(p, t->path == SSAM_TB_TEMPORAL ? SSAM_PATH_TEMPORAL : SSAM_PATH_ONEPASS,
                     a->steps == 0 ? ONCHIP_WHY_NO_STEPS : t->why, t->tt, passes, 0,
                     (passes & 1) ? a->dst : (void *)a->src);
    return SSAM_SUCCESS;
}
/* name_run of the temporal stencils: p->passes passes of p->steps_per_pass steps (the last one the
 * rest of a->steps), ping-pong; pass(a, L, stream) the path's one pass (tpass: SSAM_PATH_TEMPORAL,
 * opass: SSAM_PATH_ONEPASS, L 1) */
typedef int (*ssam__tb_pass_fn)(const ssam_stencil_args *, int, cudaStream_t);
static inline int ssam__tb_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t stream, ssam__tb_pass_fn tpass,
                               ssam__tb_pass_fn opass)
{
    ssam_stencil_args b;
    const ssam__tb_pass_fn pass = p && p->path == SSAM_PATH_TEMPORAL ? tpass : p && p->path == SSAM_PATH_ONEPASS ? opass : NULL;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes == 0) return SSAM_SUCCESS;
    if (!pass) return SSAM_EFLAGS;
    b = *a;
    for (long long t = 0; t < p->passes; t++) {
        const long long left = (long long)a->steps - t * p->steps_per_pass;
        int rc;
        b.src = (t & 1) ? (const void *)a->dst : a->src;
        b.dst = (t & 1) ? (void *)a->src : a->dst;
        if ((rc = pass(&b, left < p->steps_per_pass ? (int)left : p->steps_per_pass, stream))) return rc;
    }
    return SSAM_SUCCESS;
}
/* a kernel part's internal host side: name__kern (its launch's view) and name__pass(a, L, stream),
 * one pass of 1 <= L <= TT steps (ON 0: SSAM_ESIZE) */
#define SSAM__TB2_HOST(name, T, TT, B, ON)                                                              \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        ssam__stencil_kern k = ssam__tb2_kern<T, name##_shape, TT, B>((const void *)name##_kernel);     \
        k.occ_smem = k.smem0 = (size_t)name##_SMEM;                                                     \
        return k;                                                                                       \
    }                                                                                                   \
    SSAM__TB_PASS(name, TT, ON)
/* a temporal kernel part's name__pass: one pass of 1 <= L <= TT steps (ON 0: SSAM_ESIZE) */
#define SSAM__TB_PASS(name, TT, ON)                                                                     \
    static inline __attribute__((unused)) int name##__pass(const ssam_stencil_args *a, int steps, cudaStream_t stream) \
    {                                                                                                   \
        name##_coef cf;                                                                                 \
        const ssam__stencil_kern k = name##__kern();                                                    \
        return ssam__temporal_launch(a, steps, stream, &k, &cf, TT, ON);                                \
    }
/* AUTO's one-pass part: name__kern and name__pass(a, 1, stream), one step (on 0: SSAM_ESIZE) */
#define SSAM__TB2_ONEPASS_HOST(name, T, P, GHM, ON)                                                     \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        return ssam__stencil2d_kern<T, T, name##_shape, P, 128, GHM, -1>((const void *)name##_kernel);  \
    }                                                                                                   \
    SSAM__TB_ONEPASS_PASS(name, ON)
#define SSAM__TB_ONEPASS_PASS(name, ON)                                                                 \
    static inline __attribute__((unused)) int name##__pass(const ssam_stencil_args *a, int steps, cudaStream_t stream) \
    {                                                                                                   \
        (void)steps;                                                                                    \
        if constexpr (!(ON)) {                                                                          \
            return a ? SSAM_ESIZE : SSAM_ENULL;                                                         \
        } else {                                                                                        \
            name##_coef cf;                                                                             \
            const ssam__stencil_kern k = name##__kern();                                                \
            return ssam__stencil_launch(a, stream, &k, &cf, NULL);                                      \
        }                                                                                               \
    }
/* the generator's three verbs; PLANNER: AUTO's planner call filling ssam_tb_plan t for a */
#define SSAM__TB_NAME_HOST(name, PLANNER)                                                               \
    static inline __attribute__((unused)) int name##_plan(const ssam_stencil_args *a, ssam_plan *p)     \
    {                                                                                                   \
        ssam_tb_plan t;                                                                                 \
        const int rc = ssam__tb_plan_begin(a, p, SSAM__TB_AUTO(name));                                  \
        if (rc) return rc;                                                                              \
        if constexpr (SSAM__TB_AUTO(name)) {                                                            \
            const int trc = PLANNER;                                                                    \
            const ssam__stencil_kern kt = name##_tb__kern(), k1 = name##_onepass__kern();               \
            return ssam__tb_plan_end(a, p, &t, trc, &kt, &k1, name##_tb_TT);                            \
        } else {                                                                                        \
            const ssam__stencil_kern kt = name##__kern();                                               \
            ssam__tb_fixed_plan(&t, name##_TT, a->steps);                                               \
            return ssam__tb_plan_end(a, p, &t, 0, &kt, NULL, name##_TT);                                \
        }                                                                                               \
    }                                                                                                   \
    static inline __attribute__((unused)) int name##_run(const ssam_stencil_args *a, const ssam_plan *p, \
                                                         cudaStream_t stream)                           \
    {                                                                                                   \
        if constexpr (SSAM__TB_AUTO(name))                                                              \
            return ssam__tb_run(a, p, stream, name##_tb__pass, name##_onepass__pass);                   \
        else                                                                                            \
            return ssam__tb_run(a, p, stream, name##__pass, NULL);                                      \
    }                                                                                                   \
    ONCHIP__LAUNCH_VERB(name, ssam_stencil_args, ssam_plan)
/* the 2D generator's own names: the fixed schedule's kernel part, the three verbs */
#define SSAM__TB2_NAME_HOST(name, T, TT, B)                                                             \
    SSAM__TB2_HOST(name, T, TT, B, !SSAM__TB_AUTO(name))                                                \
    SSAM__TB_NAME_HOST(name, (name##_tb_SMEM ? ssam_tb_smem_plan_make(&t, name##_tb_TT, a->steps, a->nx, a->ny) \
                                             : ssam_tb_plan_make(&t, name##_tb_TT, a->steps)))
#else
#define SSAM__TB2_HOST(name, T, TT, B, ON)
#define SSAM__TB2_ONEPASS_HOST(name, T, P, GHM, ON)
#define SSAM__TB2_NAME_HOST(name, T, TT, B)
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_TEMPORAL_HOST_CUH */
#include <onchip/names_pop.h>
