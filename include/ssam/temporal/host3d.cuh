#include <onchip/names_push.h>
/* ssam/temporal/host3d.cuh -- the 3D generator's host functions: a kernel's launch view, its pass, the
 * three verbs. */
#ifndef SSAM_TEMPORAL_HOST3D_CUH
#define SSAM_TEMPORAL_HOST3D_CUH

#include "host.cuh"
#include "lane.cuh"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC, where the generators emit their kernels only */
/* the launchers' view of a 3D temporal kernel: tiles of STEPX x STEPY, planes in segments (each
 * streaming TT NZ extra planes; TT (NZ - 1) with the z-column kernel, MODE 2), smem bytes of shared memory */
template <class T, class S, int TT, int P, int B, int MODE>
static inline ssam__stencil_kern ssam__tb3_kern(const void *fn, int stepy, size_t smem)
{
    enum { V = SSAM_STENCIL_V(T), NZ = S::zhi - S::zlo + 1 };
    ssam__stencil_kern k = ssam__stencil_kern_of<S>(fn, 3, V, SSAM_TEMPORAL_STEP(V, S::xlo, S::xhi, TT), B, P);
    k.wy = stepy;
    k.nzw = TT * (MODE == 2 ? NZ - 1 : NZ) + 1;
    k.es = k.cs = sizeof(T);
    k.occ_smem = k.smem0 = smem;
    return k;
}
/* a kernel part's internal host side: name__kern (its launch's view) and name__pass(a, L, stream),
 * one pass of 1 <= L <= TT steps (ON 0: SSAM_ESIZE) */
#define SSAM__TB3_HOST(name, T, TT, P, B, ON, MODE)                                                     \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        return ssam__tb3_kern<T, name##_shape, TT, P, B, MODE>((const void *)name##_kernel, name##_STEPY, name##_SMEM); \
    }                                                                                                   \
    SSAM__TB_PASS(name, TT, ON)
/* AUTO's one-pass part: name__kern and name__pass(a, 1, stream), one step (on 0: SSAM_ESIZE) */
#define SSAM__TB3_ONEPASS_HOST(name, T, P, GHM, ON)                                                     \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        return ssam__stencil3d_kern<T, name##_shape, P, 128, name##_SLICE, GHM>((const void *)name##_kernel); \
    }                                                                                                   \
    SSAM__TB_ONEPASS_PASS(name, ON)
/* the 3D generator's own names: the fixed schedule's kernel part, the three verbs */
#define SSAM__TB3_NAME_HOST(name, T, TT, P, B, MODE)                                                    \
    SSAM__TB3_HOST(name, T, TT, P, B, !SSAM__TB_AUTO(name), MODE)                                       \
    SSAM__TB_NAME_HOST(name, ssam_tb3_plan_make(&t, name##_tb_TT, a->steps, a->nx, a->ny, a->nz, name##_tb_STEPX))
#else
#define SSAM__TB3_HOST(name, T, TT, P, B, ON, MODE)
#define SSAM__TB3_ONEPASS_HOST(name, T, P, GHM, ON)
#define SSAM__TB3_NAME_HOST(name, T, TT, P, B, MODE)
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_TEMPORAL_HOST3D_CUH */
#include <onchip/names_pop.h>
