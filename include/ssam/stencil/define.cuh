#include <onchip/names_push.h>
/* ssam/stencil/define.cuh -- SSAM_STENCIL2D_DEFINE and SSAM_STENCIL3D_DEFINE: the layout defaults, the
 * 3D rule, ssam_stencil_policy, what the generators call, the checks, kernels and verbs. */
#ifndef SSAM_STENCIL_DEFINE_CUH
#define SSAM_STENCIL_DEFINE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../base.cuh"
#include "body2d.cuh"
#include "host.cuh"
#include "row.cuh"
#include "slice3d.cuh"
#include "stream3d.cuh"

/* the layout and grid defaults: ghost lanes while max(XHI, -XLO) <= 3; the 2D grid rule (0 or n >= 2:
 * about 2 or n full waves, 1: about 48 warps per SM); trimmed 3D plane slots.
 * why: docs/ssam.md#stencil-design */
#define SSAM__STENCIL_GHM_DEFAULT(T, XLO, XHI) (((XHI) > -(XLO) ? (XHI) : -(XLO)) <= 3)
#define SSAM__STENCIL2D_GRID_DEFAULT(GH) 4
#define SSAM__STENCIL3D_TRIM_DEFAULT 1

/* the 3D schedule SSAM_SCHEDULE_AUTO takes (1 slice, 0 streaming): slice for double shapes of NZ >= 5
 * planes that fill more than half their box; why: docs/ssam.md#stencil-3d-rule */
#define SSAM_STENCIL3D_SLICE_RULE(T, NPTS, NX, NY, NZ) (sizeof(T) == 8 && (NZ) >= 5 && 2 * (NPTS) > (NX) * (NY) * (NZ))

/* ---- the policy ---------------------------------------------------------------------------------- */
/* P output rows a lane and step, B threads, MINB blocks per SM, SCHEDULE SSAM_SCHEDULE_AUTO (3D: the
 * rule above), _STREAM or _SLICE (3D) */
template <int P_ = 8, int B_ = 128, int MINB_ = 1, int SCHEDULE_ = SSAM_SCHEDULE_AUTO>
struct ssam_stencil_policy {
    enum { p = P_, b = B_, minb = MINB_, schedule = SCHEDULE_ };
};
/* value 1 for an ssam_stencil_policy, and its fields; another type: 0 and the default policy's fields
 * (its sentence is then the only error) */
template <class X>
struct ssam__is_stencil_policy : onchip_policy<ssam_stencil_policy, X>::type {
    enum { value = onchip_policy<ssam_stencil_policy, X>::value };
};
#define SSAM__STENCIL_POL(name, F) ((int)ssam__is_stencil_policy<name##_policy>::F)
/* a 2D generator's T: ::store the state's type, ::calc the arithmetic's (float for __half and
 * __nv_bfloat16); a refused T: float */
template <class X>
struct ssam__stencil_types {
    enum { value = ssam__stencil_real<X>::value };
    typedef typename ssam__stencil_real<X>::type store, calc;
};
template <>
struct ssam__stencil_types<__half> {
    enum { value = 1 };
    typedef __half store;
    typedef float calc;
};
template <>
struct ssam__stencil_types<__nv_bfloat16> {
    enum { value = 1 };
    typedef __nv_bfloat16 store;
    typedef float calc;
};

/* ---- what the generators call ------------------------------------------------------------------ */
/* the 3D kernel's body: the slice variant (SL 1) or the streaming one (GHM, TRIM) */
template <class T, class S, int P, int B, int SL, int GHM, int TRIM>
static __device__ __forceinline__ void ssam__stencil3d_any_body(const T *src, T *dst, const ssam_stencil_geom g, const T *cf)
{
    if constexpr (SL != 0) ssam__stencil3s_body<T, S, P, B>(src, dst, g, cf);
    else ssam__stencil3d_body<T, S, P, B, GHM, TRIM>(src, dst, g, cf);
}
/* the registers of a 3D window in 32-bit words: the slice body's two rows of P + NY - 1, or the
 * streaming body's slots as ssam__stencil3d_slots gives them (TRIM) and the pieces prefetched into
 * them (a slot's rows that the slot above does not hold; the top slot's all) */
template <class T, class S, int P, int SL, int TRIM = SSAM__STENCIL3D_TRIM_DEFAULT>
static __host__ __device__ constexpr int ssam__stencil3d_wregs(void)
{
    const int w = SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4), NZ = S::zhi - S::zlo + 1;
    if (SL) return w * 2 * (P + S::yhi - S::ylo);
    int rows = 0;
    for (int zi = 0; zi < NZ; zi++) {
        const int lo0 = ssam__stencil3d_slot_row<S, P, TRIM, 0>(zi), hi0 = ssam__stencil3d_slot_row<S, P, TRIM, 1>(zi);
        const int lo1 = ssam__stencil3d_slot_row<S, P, TRIM, 0>(zi + 1), hi1 = ssam__stencil3d_slot_row<S, P, TRIM, 1>(zi + 1);
        const int lo = lo0 > lo1 ? lo0 : lo1, hi = hi0 < hi1 ? hi0 : hi1;
        rows += 2 * (hi0 - lo0 + 1) - (hi >= lo ? hi - lo + 1 : 0);
    }
    return w * rows;
}
#define SSAM__STENCIL3D_SLSMEM(T, S, P, B) SSAM__STENCIL3S_SMEM(T, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1, (B) / 32, P)

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the launchers' view of a 2D kernel (GRID -1: SSAM__STENCIL2D_GRID_DEFAULT of the layout) and of a
 * 3D one (SL 1: the slice kernel's grid and shared memory) */
template <class TS, class T, class S, int P, int B, int GHM, int GRID>
static inline ssam__stencil_kern ssam__stencil2d_kern(const void *fn)
{
    enum { V = SSAM_STENCIL_V(TS), STEP = ssam__stencil_wstep<S, V, GHM>() };
    ssam__stencil_kern k = ssam__stencil_kern_of<S>(fn, 2, V, STEP, B, P);
    k.grid2d = GRID >= 0 ? GRID : SSAM__STENCIL2D_GRID_DEFAULT(STEP == 32 * V);
    k.es = sizeof(TS);
    k.cs = sizeof(T);
    k.smem0 = (size_t)(S::yhi - S::ylo + P) * sizeof(int);
    k.smem_seg = sizeof(int);
    return k;
}
template <class T, class S, int P, int B, int SL, int GHM>
static inline ssam__stencil_kern ssam__stencil3d_kern(const void *fn)
{
    enum { V = SSAM_STENCIL_V(T), NY = S::yhi - S::ylo + 1, NZ = S::zhi - S::zlo + 1, WYP = SL ? P : B / 32 * P };
    const size_t sm = SL ? SSAM__STENCIL3D_SLSMEM(T, S, P, B) : 0;
    ssam__stencil_kern k = ssam__stencil_kern_of<S>(fn, 3, V, ssam__stencil_wstep<S, V, SL ? 1 : GHM>(), B, P);
    k.wy = WYP;
    k.nzw = NZ;
    k.es = k.cs = sizeof(T);
    k.occ_smem = sm;
    k.smem0 = SL ? sm : (size_t)(WYP + NY - 1 + NZ) * sizeof(int);
    k.smem_seg = SL ? 0 : sizeof(int);
    return k;
}
/* a 3D plan's why: the schedule (SSAM_SCHEDULE_*) that chose slices (sl 1) or streaming */
static inline const char *ssam__stencil3d_why(int sched, int sl)
{
    if (sched == SSAM_SCHEDULE_SLICE) return "one pass a step: 3D slices, as the policy's SSAM_SCHEDULE_SLICE asks";
    if (sched == SSAM_SCHEDULE_STREAM)
        return "one pass a step: 3D register streaming along z, as the policy's SSAM_SCHEDULE_STREAM asks";
    return sl ? "one pass a step: 3D slices, SSAM_SCHEDULE_AUTO's SSAM_STENCIL3D_SLICE_RULE (a double shape of NZ >= 5 "
                "planes filling more than half its box)"
              : "one pass a step: 3D register streaming along z, SSAM_SCHEDULE_AUTO's SSAM_STENCIL3D_SLICE_RULE (not a "
                "double shape of NZ >= 5 planes filling more than half its box)";
}
#endif /* !__CUDACC_RTC__ */

/* ---- the generators ---------------------------------------------------------------------------- */
/* the definitions' common part; WHO is "GENERATOR(name)", the sentences' subject */
#define SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, DIMS)                                                 \
    static_assert(ssam__stencil_real<T>::value, WHO ": T must be float or double");                     \
    typedef ONCHIP_SHAPE##DIMS##D_TYPE(SHAPE) name##_shape;                                             \
    static_assert(name##_shape::rmax <= SSAM_STENCIL_RMAX, WHO ": SHAPE has a point beyond SSAM_STENCIL_RMAX (10)"); \
    static_assert(!name##_shape::ibad, WHO ": SHAPE has a coefficient index I outside 0 .. (its points) - 1"); \
    enum {                                                                                              \
        name##_NPTS = name##_shape::npts, name##_NCOEF = name##_shape::ncoef, name##_XLO = name##_shape::xlo, \
        name##_XHI = name##_shape::xhi, name##_YLO = name##_shape::ylo, name##_YHI = name##_shape::yhi  \
    };                                                                                                  \
    typedef struct name##_coef {                                                                        \
        T c[name##_NPTS];                                                                               \
    } name##_coef;                                                                                      \
    SSAM__STENCIL_NCOEF_FN(name)
/* the block size and rows per lane */
#define SSAM__STENCIL_BP(name, WHO, P, B)                                                               \
    static_assert((B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX,                    \
                  WHO ": B must be a multiple of 32 from 32 to 1024");                                  \
    static_assert((P) >= 1, WHO ": P (output rows per lane) must be at least 1");
/* the host functions (none under NVRTC): name__kern (the kernel as ssam__stencil_plan and
 * ssam__stencil_run see it, with the instance's path and sentence), name_plan, name_run, name_launch */
#ifndef __CUDACC_RTC__
#define SSAM__STENCIL_NCOEF_FN(name) static inline __attribute__((unused)) int name##_ncoef(void) { return name##_NCOEF; }
#define SSAM__STENCIL2D_HOST(name, TS, T, P, B, GHM, GRID)                                              \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        ssam__stencil_kern k = ssam__stencil2d_kern<TS, T, name##_shape, P, B, GHM, GRID>((const void *)name##_kernel); \
        k.path = SSAM_PATH_ONEPASS;                                                                     \
        k.why = "one pass a step: 2D rows, a 2D stencil's one path";                                    \
        return k;                                                                                       \
    }                                                                                                   \
    SSAM__VERBS(name, ssam_stencil_args, ssam__stencil_kern, name##_coef, ssam__stencil_plan, ssam__stencil_run)
#define SSAM__STENCIL3D_HOST(name, T, P, B, GHM, SCHED)                                                 \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        ssam__stencil_kern k = ssam__stencil3d_kern<T, name##_shape, P, B, name##_SLICE, GHM>((const void *)name##_kernel); \
        k.path = name##_SLICE ? SSAM_PATH_SLICE : SSAM_PATH_ONEPASS;                                    \
        k.why = ssam__stencil3d_why(SCHED, name##_SLICE);                                               \
        return k;                                                                                       \
    }                                                                                                   \
    SSAM__VERBS(name, ssam_stencil_args, ssam__stencil_kern, name##_coef, ssam__stencil_plan, ssam__stencil_run)
#else
#define SSAM__STENCIL_NCOEF_FN(name)
#define SSAM__STENCIL2D_HOST(name, TS, T, P, B, GHM, GRID)
#define SSAM__STENCIL3D_HOST(name, T, P, B, GHM, SCHED)
#endif

/* the policy's checks (WHO the generator's name and the instance) */
#define SSAM__STENCIL_POLICY_CHECK(name, WHO)                                                           \
    static_assert(ssam__is_stencil_policy<name##_policy>::value,                                        \
                  WHO ": the last argument must be an ssam_stencil_policy<P, B, MINB, SCHEDULE>");      \
    static_assert(SSAM__STENCIL_POL(name, minb) >= 1, WHO ": MINB (blocks per SM) must be at least 1");
/* 2D: T float, double, or __half / __nv_bfloat16 stored and computed in float; one schedule */
#define SSAM_STENCIL2D_DEFINE(name, T, SHAPE, ...)                                                      \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                               \
    SSAM__STENCIL_POLICY_CHECK(name, "SSAM_STENCIL2D_DEFINE(" #name ")")                                \
    static_assert(ssam__stencil_types<T>::value,                                                        \
                  "SSAM_STENCIL2D_DEFINE(" #name "): T must be float, double, __half or __nv_bfloat16"); \
    static_assert(SSAM__STENCIL_POL(name, schedule) == SSAM_SCHEDULE_AUTO,                              \
                  "SSAM_STENCIL2D_DEFINE(" #name "): SCHEDULE must be SSAM_SCHEDULE_AUTO (a 2D stencil has one schedule)"); \
    SSAM__STENCIL2D_ONEPASS(name, "SSAM_STENCIL2D_DEFINE(" #name ")", ssam__stencil_types<T>::store,    \
                            ssam__stencil_types<T>::calc, SHAPE, SSAM__STENCIL_POL(name, p), SSAM__STENCIL_POL(name, b), \
                            SSAM__STENCIL_POL(name, minb),                                              \
                            SSAM__STENCIL_GHM_DEFAULT(ssam__stencil_types<T>::calc, name##_XLO, name##_XHI), -1)
/* GHM the ghost mode (0 overlap lanes, 1 ghost lanes where the shape allows), GRID the 2D grid rule
 * (-1: SSAM__STENCIL2D_GRID_DEFAULT of the layout) */
#define SSAM__STENCIL2D_DEFINE_X(name, T, SHAPE, P, B, MINB, GHM, GRID)                                 \
    SSAM__STENCIL2D_ONEPASS(name, "SSAM_STENCIL2D_DEFINE(" #name ")", T, T, SHAPE, P, B, MINB, GHM, GRID)
/* the 2D generator: WHO the sentences' subject, the state stored as TS and computed in T */
#define SSAM__STENCIL2D_ONEPASS(name, WHO, TS, T, SHAPE, P, B, MINB, GHM, GRID)                         \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    SSAM__STENCIL_BP(name, WHO, P, B)                                                                   \
    static_assert(SSAM_STENCIL_V(TS) * (int)(sizeof(T) / 4) * (2 * (P) + name##_YHI - name##_YLO) <= 192, \
                  WHO ": the window of P + NY - 1 rows and the P prefetched exceed 192 registers; lower P"); \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const TS *__restrict__ src, TS *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        ssam__stencil2d_body<TS, T, name##_shape, SSAM__STENCIL_P(P), B, GHM>(src, dst, g, cf.c);       \
    }                                                                                                   \
    SSAM__STENCIL2D_HOST(name, TS, T, P, B, GHM, GRID)

/* 3D: T float or double; SCHEDULE AUTO (SSAM__STENCIL3D_RULE), STREAM (the ghost mode and trimmed
 * slots of the defaults above) or SLICE */
#define SSAM_STENCIL3D_DEFINE(name, T, SHAPE, ...)                                                      \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                               \
    SSAM__STENCIL_POLICY_CHECK(name, "SSAM_STENCIL3D_DEFINE(" #name ")")                                \
    static_assert(ssam__stencil_real<T>::value, "SSAM_STENCIL3D_DEFINE(" #name "): T must be float or double"); \
    static_assert(SSAM__STENCIL_POL(name, schedule) == SSAM_SCHEDULE_AUTO ||                            \
                      SSAM__STENCIL_POL(name, schedule) == SSAM_SCHEDULE_STREAM ||                      \
                      SSAM__STENCIL_POL(name, schedule) == SSAM_SCHEDULE_SLICE,                         \
                  "SSAM_STENCIL3D_DEFINE(" #name "): SCHEDULE must be SSAM_SCHEDULE_AUTO, SSAM_SCHEDULE_STREAM or " \
                  "SSAM_SCHEDULE_SLICE");                                                               \
    SSAM__STENCIL3D_POLICY_GEN(name, ssam__stencil_real<T>::type, SHAPE)
/* the policy's schedule as SL, GHM and TRIM: the slice body (1, 1, 0), the streaming one (0, the
 * defaults), or the rule's choice (with the streaming defaults) */
#define SSAM__STENCIL3D_POLICY_GEN(name, T, SHAPE)                                                      \
    SSAM__STENCIL3D_ONEPASS(name, "SSAM_STENCIL3D_DEFINE(" #name ")", T, SHAPE, SSAM__STENCIL_POL(name, p), \
                            SSAM__STENCIL_POL(name, b), SSAM__STENCIL_POL(name, minb),                  \
                            SSAM__STENCIL3D_SCHED(name, 1, 0, SSAM__STENCIL3D_RULE(name, T)),          \
                            SSAM__STENCIL3D_SCHED(name, 1, SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), \
                                                  SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI)), \
                            SSAM__STENCIL3D_SCHED(name, 0, SSAM__STENCIL3D_TRIM_DEFAULT, SSAM__STENCIL3D_TRIM_DEFAULT), \
                            SSAM__STENCIL_POL(name, schedule))
#define SSAM__STENCIL3D_SCHED(name, SLICE, STREAM, AUTO)                                                \
    (SSAM__STENCIL_POL(name, schedule) == SSAM_SCHEDULE_SLICE    ? (SLICE)                              \
     : SSAM__STENCIL_POL(name, schedule) == SSAM_SCHEDULE_STREAM ? (STREAM)                             \
                                                                 : (AUTO))
/* GHM the ghost mode, TRIM the per-slot rows (see the defaults above) */
#define SSAM__STENCIL3D_STREAM_DEFINE_X(name, T, SHAPE, P, B, MINB, GHM, TRIM)                          \
    SSAM__STENCIL3D_ONEPASS(name, "SSAM_STENCIL3D_DEFINE(" #name ")", T, SHAPE, P, B, MINB, 0, GHM, TRIM, \
                            SSAM_SCHEDULE_STREAM)
#define SSAM__STENCIL3D_RULE(name, T)                                                                   \
    SSAM_STENCIL3D_SLICE_RULE(T, name##_NPTS, name##_XHI - name##_XLO + 1, name##_YHI - name##_YLO + 1, \
                              name##_ZHI - name##_ZLO + 1)
/* SL 1: the slice body (name_SLICE), else the streaming body with GHM and TRIM; SCHED the schedule
 * that chose (the plan's why) */
#define SSAM__STENCIL3D_ONEPASS(name, WHO, T, SHAPE, P, B, MINB, SL, GHM, TRIM, SCHED)                  \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 3)                                                        \
    enum { name##_ZLO = name##_shape::zlo, name##_ZHI = name##_shape::zhi };                            \
    enum { name##_SLICE = (SL) };                                                                       \
    SSAM__STENCIL_BP(name, WHO, P, B)                                                                   \
    static_assert(ssam__stencil3d_wregs<T, name##_shape, P, name##_SLICE, TRIM>() <= 192,               \
                  WHO ": the register window exceeds 192 registers; lower P");                          \
    static_assert(!name##_SLICE || SSAM__STENCIL3D_SLSMEM(T, name##_shape, P, B) <= ONCHIP_SMEM_OPTIN_MAX, \
                  WHO ": the slices' partial sums exceed 227 KB of shared memory; lower B or P");       \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        ssam__stencil3d_any_body<T, name##_shape, SSAM__STENCIL_P(P), B, name##_SLICE, GHM, TRIM>(src, dst, g, cf.c); \
    }                                                                                                   \
    SSAM__STENCIL3D_HOST(name, T, P, B, GHM, SCHED)
/* P as the bodies take it: at least 1 (P < 1 is refused by a sentence above, not by the body) */
#define SSAM__STENCIL_P(P) ((P) >= 1 ? (P) : 1)

#endif /* SSAM_STENCIL_DEFINE_CUH */
#include <onchip/names_pop.h>
