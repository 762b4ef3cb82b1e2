#include <onchip/names_push.h>
/* ssam/base.cuh -- what every ssam header shares: status codes, border modes, flags.
 *
 * WHAT
 *   ssam (software systolic arrays, Chen et al., SC'19) keeps a warp's input in registers and moves
 *   partial sums between lanes with shuffles.  This header holds the module's plain definitions;
 *   the pieces are in regcache.cuh (register-cache loads, borders), shift.cuh (lane shifts, the
 *   systolic step), scan.cuh (warp scans), and the generators' headers (conv.cuh, conv_tc.cuh,
 *   stencil.cuh, designs.cuh, ...).  ssam.cuh includes them all.
 *
 * STATUS CODES SSAM_SUCCESS (0), SSAM_ENULL, _ESIZE, _EPITCH, _EBORDER, _EFILTER, _EFLAGS, _ECUDA,
 *   _EOVERLAP, _EANCHOR, _EUPDATE: returned by every host launcher, never printed or exited on;
 *   ssam_strerror(rc) names each, docs/ssam.md#conventions says when each comes.
 * BORDER MODES (SciPy's names, for any distance past the edge; docs/ssam.md#conventions)
 *   SSAM_BORDER_CONSTANT (the args' cval), _NEAREST, _REFLECT (edge repeated), _MIRROR (edge not
 *   repeated), _WRAP.
 */
#ifndef SSAM_BASE_CUH
#define SSAM_BASE_CUH

#include <onchip/stdint.h> /* also under NVRTC */
#include <onchip/device.cuh> /* the device and occupancy cache of the host code */
#include <onchip/check.h>
#include <onchip/limits.h>
#include <onchip/policy.cuh> /* the generators' last argument */

#include "codes.h" /* the status codes, C99 */

#define SSAM_BORDER_CONSTANT 0
#define SSAM_BORDER_NEAREST 1
#define SSAM_BORDER_REFLECT 2
#define SSAM_BORDER_MIRROR 3
#define SSAM_BORDER_WRAP 4

/* flags of the convolution arguments */
#define SSAM_CONVOLVE 1u /* flip the filter: convolution instead of correlation */
#define SSAM_VALID 2u    /* output only where the filter fits inside the input (no border) */
#define SSAM_ANCHOR 4u   /* use the args' anchor_x, anchor_y instead of the centre (conv.cuh) */
#define SSAM_SYSTOLIC_WALK 8u /* conv.cuh: the systolic walk even where the queued walk applies */

/* the schedules a stencil policy names (ssam_stencil_policy, ssam_temporal_policy): AUTO the
 * generator's rule; STREAM / SLICE the 3D one-pass bodies; REGS / SMEM the 2D temporal windows in
 * registers / the input rows staged; SMEM / RING / ZCOL the 3D temporal planes staged, in a register
 * ring, in z-columns */
#define SSAM_SCHEDULE_AUTO 0
#define SSAM_SCHEDULE_STREAM 1
#define SSAM_SCHEDULE_SLICE 2
#define SSAM_SCHEDULE_REGS 3
#define SSAM_SCHEDULE_SMEM 4
#define SSAM_SCHEDULE_RING 5
#define SSAM_SCHEDULE_ZCOL 6

/* a row of a generator's table of accepted types: value OK, ::type T */
template <int OK, class T>
struct ssam__accept {
    enum { value = OK };
    typedef T type;
};

#define SSAM_WARP 32
#define SSAM__FULL 0xffffffffu

/* value 1: A and B are one type; ssam__type_in<T, L...>::ok 1: T is one of L (the generators' checks) */
template <class A, class B>
struct ssam__same {
    enum { value = 0 };
};
template <class A>
struct ssam__same<A, A> {
    enum { value = 1 };
};
template <class T, class... L>
struct ssam__type_in {
    enum { ok = (0 + ... + ssam__same<T, L>::value) != 0 };
};

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
static inline const char *ssam_strerror(int rc)
{
    switch (rc) {
    case SSAM_SUCCESS: return "ssam: success";
    case SSAM_ENULL: return "ssam: NULL pointer argument";
    case SSAM_ESIZE: return "ssam: size <= 0, filter larger than a 'valid' input, or grid too large";
    case SSAM_EPITCH: return "ssam: row pitch smaller than the row width";
    case SSAM_EBORDER: return "ssam: unknown border mode";
    case SSAM_EFILTER: return "ssam: filter shape differs from the instantiated kernel's";
    case SSAM_EFLAGS: return "ssam: unknown flag bits";
    case SSAM_ECUDA: return "ssam: CUDA launch failed (see cudaPeekAtLastError)";
    case SSAM_EOVERLAP: return "ssam: src and dst overlap";
    case SSAM_EANCHOR: return "ssam: anchor outside the filter, with SSAM_VALID, or set without SSAM_ANCHOR";
    case SSAM_EUPDATE: return "ssam: an update or coefficient field (args.update, args.field) the stencil does not form";
    default: return "ssam: unknown status code";
    }
}

/* a generator's name_plan, name_run and name_launch over its family's functions: name__kern() the
 * instance as PLAN_FN(a, p, &k) and RUN_FN(a, p, stream, &k, &wt) see it, SCRATCH (wt) the kernel's
 * parameter that RUN_FN fills */
#define SSAM__PLAN_VERB(name, ARGS, KERN, PLAN_FN)                                                      \
    static inline __attribute__((unused)) int name##_plan(const ARGS *a, ssam_plan *p)                  \
    {                                                                                                   \
        const KERN k = name##__kern();                                                                  \
        return PLAN_FN(a, p, &k);                                                                       \
    }
#define SSAM__RUN_VERB(name, ARGS, KERN, SCRATCH, RUN_FN)                                               \
    static inline __attribute__((unused)) int name##_run(const ARGS *a, const ssam_plan *p, cudaStream_t stream) \
    {                                                                                                   \
        SCRATCH wt;                                                                                     \
        const KERN k = name##__kern();                                                                  \
        return RUN_FN(a, p, stream, &k, &wt);                                                           \
    }
#define SSAM__VERBS(name, ARGS, KERN, SCRATCH, PLAN_FN, RUN_FN)                                         \
    SSAM__PLAN_VERB(name, ARGS, KERN, PLAN_FN)                                                          \
    SSAM__RUN_VERB(name, ARGS, KERN, SCRATCH, RUN_FN)                                                   \
    ONCHIP__LAUNCH_VERB(name, ARGS, ssam_plan)
#endif /* !__CUDACC_RTC__ */

/* Index i of a row of n cells, mapped into [0, n) by a border mode; -1 for SSAM_BORDER_CONSTANT
 * (the caller uses its constant).  Inside the row it returns i unchanged. */
static __host__ __device__ __forceinline__ int ssam_border_index(int i, int n, int border)
{
    int p, r;
    if ((unsigned)i < (unsigned)n) return i;
    switch (border) {
    case SSAM_BORDER_NEAREST: return i < 0 ? 0 : n - 1;
    case SSAM_BORDER_WRAP:
        r = i % n;
        return r < 0 ? r + n : r;
    case SSAM_BORDER_REFLECT: /* period 2n: a b c d d c b a */
        p = 2 * n;
        r = i % p;
        if (r < 0) r += p;
        return r < n ? r : p - 1 - r;
    case SSAM_BORDER_MIRROR: /* period 2n-2: a b c d c b */
        if (n == 1) return 0;
        p = 2 * n - 2;
        r = i % p;
        if (r < 0) r += p;
        return r < n ? r : p - r;
    default: return -1;
    }
}

#endif /* SSAM_BASE_CUH */
#include <onchip/names_pop.h>
