#include <onchip/names_push.h>
/* perks/stencil/define3d.cuh -- PERKS_STENCIL3D_DEFINE and perks_stencil3d_policy: its checks, its
 * kernel and its host functions (perks/stencil3d.cuh describes them). */
#ifndef PERKS_STENCIL_DEFINE3D_CUH
#define PERKS_STENCIL_DEFINE3D_CUH

#include <onchip/policy.cuh>
#include "../base.h"
#include "body3d.cuh"
#include "define.cuh"
#include "plan3d.cuh"
#include "shapes.cuh"

/* ---- the generator: names, sizes and types pasted around one call of the body */
/* the policy, the generator's last argument (docs/perks.md#reference-3d-parameters-and-limits) */
template <int BX_ = 32, int BY_ = 16, int RC_ = 4, int MINB_ = 1>
struct perks_stencil3d_policy {
    enum { bx = BX_, by = BY_, rc = RC_, minb = MINB_ };
};

#define PERKS_STENCIL3D_DEFINE(name, T, SHAPE, ...)                                                  \
    PERKS__GENERATE("PERKS_STENCIL3D_DEFINE", perks_stencil3d_policy, "perks_stencil3d_policy<BX, BY, RC, MINB>", \
                    PERKS__S3D_DEFINE, bx, by, rc, minb, name, T, SHAPE, __VA_ARGS__)
#define PERKS__S3D_DEFINE(name, T, SHAPE, BX, BY, RC, MINB)                                         \
    PERKS__S3D_TYPES(name, T, SHAPE, BX, BY, RC, MINB)                                               \
    __global__ void __launch_bounds__((BX) * (BY), MINB)                                             \
        name##_kernel(T *a, T *b, T *ea, T *eb, int nx, int ny, int D, int steps, int ntiles, int tiles_x, int tiles_y, \
                      int TH, int nc, name##_weights w)                                              \
    { perks_stencil3d<T, name##_shape, BX, BY, RC>(a, b, ea, eb, nx, ny, D, steps, ntiles, tiles_x, tiles_y, TH, nc, w.w); } \
    PERKS__S3D_HOST(name, T, BX, BY, RC)

/* the limits, the shape as a type, the sizes, the coefficients */
#define PERKS__S3D_TYPES(name, T, SHAPE, BX, BY, RC, MINB)                                           \
    PERKS__SHAPE_TYPES("PERKS_STENCIL3D_DEFINE", 3D, "4", name, T, SHAPE)                            \
    static_assert((BX) % 32 == 0 && (BX) >= 32 && (BY) >= 1 && (BX) * (BY) <= ONCHIP_THREADS_PER_BLOCK_MAX, \
                  "PERKS_STENCIL3D_DEFINE(" #name "): BX must be a multiple of 32 and BX * BY at most 1024 threads"); \
    static_assert((RC) >= 1 && (RC) <= 16, "PERKS_STENCIL3D_DEFINE(" #name "): RC must be from 1 to 16 planes"); \
    static_assert((MINB) >= 1, "PERKS_STENCIL3D_DEFINE(" #name "): MINB must be at least 1");           \
    typedef perks__s3d_sizes<name##_shape, BX, BY, RC> name##_sizes;                                 \
    enum { name##_R = name##_sizes::r, name##_WX = name##_sizes::wx, name##_PP = name##_sizes::pp,   \
           name##_NT = name##_sizes::nt, name##_NPF = name##_sizes::npf, name##_NCOEF = name##_shape::ncoef };

/* the host side: each function one call of a shared one (above); none under NVRTC, where the
 * generator emits the kernel only */
#ifndef __CUDACC_RTC__
#define PERKS__S3D_HOST(name, T, BX, BY, RC)                                                         \
    PERKS__STENCIL_FN perks__s3d_geom name##_geom(void)                                                  \
    {                                                                                                \
        const perks__s3d_geom g = {(BX), (BY), name##_R, name##_PP, name##_NT, name##_NPF, (int)sizeof(T), \
                                   name##_NCOEF, (size_t)2 * (RC) * name##_PP * sizeof(T), (const void *)name##_kernel, \
                                   perks__stencil_policies<name##_shape>(3)};                        \
        return g;                                                                                    \
    }                                                                                                \
    /* the ring (2 RC planes) at the start of dynamic shared memory; cached planes follow */       \
    PERKS__STENCIL_FN size_t name##_ring_bytes(void) { return name##_geom().ring_bytes; }                \
    PERKS__STENCIL_ENTRIES(name, perks_stencil3d_args, perks__s3d_geom, perks__s3d_plan)
#else
#define PERKS__S3D_HOST(name, T, BX, BY, RC)
#endif

#endif /* PERKS_STENCIL_DEFINE3D_CUH */
#include <onchip/names_pop.h>
