#include <onchip/names_push.h>
/* perks/stencil.cuh -- persistent 2D stencils: the time loop in one cooperative kernel, the domain
 * cached in registers and shared memory between steps.
 *
 * WHAT (PERKS paper §3-§4.2, Listing 1)
 *   PERKS_STENCIL2D_DEFINE(name, T, SHAPE, BX, RC, DEPTH) defines
 *       __global__ void name_kernel(...)                        the streaming persistent kernel
 *       __global__ void name_res_kernel(...), name_hyb_kernel(...)  the resident / hybrid ones
 *       __global__ void name_step_kernel(...)                   one non-persistent step (baseline)
 *       int name_launch(const perks_stencil2d_args *, cudaStream_t)   all steps, one launch
 *       int name_steps(const perks_stencil2d_args *, cudaStream_t)    all steps, one launch each
 *       int name_plan(const perks_stencil2d_args *, perks_plan *)     the plan name_launch uses
 *       size_t name_work_bytes(const perks_plan *)                  edge-buffer scratch it needs
 *   (and name_res_plan, name_hyb_plan, name_smem_base, name_res_smem, name_hyb_smem, name_geom,
 *   the types name_weights, name_shape, name_sizes and the constants name_R, name_WW, name_RR,
 *   name_HWIN, name_SMEM_BASE).
 *   PERKS_STENCIL2D_DEFINE_OCC(..., MINB) adds __launch_bounds__(BX, MINB): with DEPTH 0 and MINB 2
 *   two blocks share an SM (the fastest build measured on the H200, docs/perks.md).
 *   for a stencil SHAPE given as an X-macro list of points X(I, DX, DY) -- the same format as
 *   ssam/stencil_shapes.cuh, so SSAM_SHAPE_* lists work here unchanged; perks/stencil/shapes.cuh
 *   repeats the catalogue (PERKS_SHAPE_*) so that perks needs nothing from ssam.  One step computes,
 *   for every cell at least r = max |offset| from the domain's edge,
 *       out(x, y) = sum over points, in list order, of  c[I] * in(x + DX, y + DY)
 *   (one fma per point, so the persistent and the non-persistent kernels agree bit for bit) and
 *   keeps the value of every cell closer than r to the edge (Dirichlet, as the ssam stencils).
 *
 *   Three persistent kernels, chosen by name_plan (perks_stencil2d_args.kernel can force one):
 *   RESIDENT (cache modes SMEM and MIX, whenever every tile fits in shared memory): the tile stays
 *   in shared memory for the whole run and each step is one pass over it (perks/stencil/resident.cuh)
 *   -- 1.2-2.2x the one-pass kernels on the H200; HYBRID (SMEM and MIX when the tiles do not fit):
 *   the first rows of each tile resident as in the resident kernel, the other rows streamed from
 *   device memory every step in the same pass -- 1.1-1.6x where it caches about half the domain;
 *   STREAM (any domain): the chunked kernel described next.  AUTO does not run the hybrid kernel
 *   where PERKS_HYB_WINS predicts it loses to the one-pass step (8192^2: 2-9% on chip): name_launch
 *   then runs name_steps (one launch a step, same results).
 *
 *   Layout.  Each block owns one tile: BX columns (one per thread) by tile_len rows; perks/plan.h
 *   chooses the tiling (one tile per co-resident block).  A thread walks down its column in chunks
 *   of RC rows; for each chunk the block stages an (RC + 2r) x (BX + 2r) window in shared memory
 *   (the thread's own column also stays in registers and slides down by RC rows: vertical
 *   neighbours come from registers, each row of the column is loaded once per step) and computes RC
 *   outputs per thread.  Rows [0, DEPTH) of the tile live in registers between steps (cache modes
 *   REG and MIX), the next smem_rows in shared memory (SMEM and MIX), the rest in device memory; the
 *   tile's halo goes through device memory (perks/cache.cuh: edge rows in place, edge columns
 *   transposed).  One grid barrier per step.
 *
 * EXAMPLE
 *   [compile: float *d_u, *d_v; int W, H; cudaStream_t stream]
 *     #include <perks/stencil.cuh>
 *     PERKS_STENCIL2D_DEFINE(heat, float, PERKS_SHAPE_STAR2D_R1, 256, 8, 32)
 *
 *     float c[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f};   // (0,0), (-1,0), (1,0), (0,-1), (0,1)
 *     perks_stencil2d_args a = {};
 *     a.a = d_u; a.b = d_v; a.width = W; a.height = H; a.steps = 100; a.weights = c;
 *     a.cache = PERKS_CACHE_MIX;
 *     int rc = heat_launch(&a, stream);   // result in d_u (even steps) or d_v (odd steps)
 *
 * PARAMETERS AND LIMITS
 *   T float or double.  BX threads per block, a multiple of 32, >= 64 and >= 2r.  RC rows per chunk,
 *   RC + 2r <= 32 (one warp loads each side halo with one lane per row).  DEPTH a multiple of RC
 *   (0: no register cache); registers about DEPTH + 2 RC + 2r (+ the same again for double) plus ~30
 *   per thread.  r <= 8.  Width and height >= 1, any (ragged) sizes, pitch = width.  a and b must
 *   not overlap; both are written.  The weights (one per point of the shape) are read from HOST
 *   memory at launch.  work: device scratch of name_work_bytes (NULL: the launcher allocates and
 *   frees it, which synchronises).  kernel: PERKS_KERNEL_AUTO (0), _STREAM, _RESIDENT (the latter
 *   returns PERKS_ERESOURCE when the tiles do not fit, PERKS_ESIZE with modes NONE / REG), _HYBRID
 *   (PERKS_ESIZE with mode REG; mode NONE caches nothing); perks_plan.resident (PERKS_PLAN_*) says
 *   which one name_launch runs.  The hybrid kernel takes 2 (RC + 2r)(BX + 2r) cells of shared
 *   memory for its streaming windows, then caches a multiple of RR rows a tile.  The
 *   resident kernel takes RR = max(RC, r) rows a chunk and (RR rounded tile rows + 2r) x (BX + 2r)
 *   cells of shared memory per block.  The grid must be co-resident: a domain wider than
 *   BX x (SMs x blocks per SM) returns PERKS_ECORESIDENT; never a hang.
 *   The limits on T, SHAPE (r), BX, RC and DEPTH are static_asserts: a bad instantiation stops the
 *   build with a sentence naming the generator, the instance and the argument, e.g.
 *       PERKS_STENCIL2D_DEFINE(heat): RC must be at least 1 and RC + 2r at most 32
 *
 * PIECES (by scope; a kernel of one's own can take any of them)
 *   perks/stencil/shapes.cuh    the catalogue, PERKS_SHAPE2D_TYPE, perks_shape_each
 *   perks/stencil/stream.cuh    perks_stencil2d_stream, perks_stencil2d_step: the streaming and
 *                               one-step bodies over the chunk pieces perks__s2d_fill, _point,
 *                               _compute, _stage (the row loads and stores, the side halo and the
 *                               flush are written out in the bodies, see there why)
 *   perks/stencil/resident.cuh  perks_stencil2d_resident: the resident and hybrid bodies over
 *                               perks__s2d_frame1 / _frameb, _halo_out, _hhalo
 *   perks/stencil/plan.cuh      perks_stencil2d_args, cache modes, PERKS_KERNEL_*, PERKS_HYB_WINS,
 *                               perks_device_query, the sizes (perks__s2d_sizes) and the host
 *                               functions every instantiation shares (perks__s2d_plan, _run, _steps)
 *   The generator below only pastes names, sizes and types around one call of a body per kernel.
 *
 * OPTIONAL SSAM
 *   If ssam/stencil_shapes.cuh is included, its SSAM_SHAPE_* lists can be passed as SHAPE.  The
 *   per-step compute here is a plain shared-memory step (the paper's baseline); ssam's systolic
 *   step is not used by these generators (see docs/perks.md).
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ (options: -I include --std=c++17 and the toolkit's include and include/cccl
 *   folders, which cooperative_groups needs) the generator emits its four kernels only: name_kernel,
 *   name_res_kernel, name_hyb_kernel (persistent: the planner's tiling and a cooperative launch,
 *   e.g. CuPy's enable_cooperative_groups=True) and name_step_kernel(in, out, W, H, weights), one
 *   ordinary launch a step on ceil(W / BX) x ceil(H / RC) blocks of BX threads with name_SMEM_BASE
 *   bytes of dynamic shared memory; no host functions.
 */
#ifndef PERKS_STENCIL_CUH
#define PERKS_STENCIL_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>
#endif

#include "base.h"
#include "cache.cuh"
#include "grid.cuh"
#include "plan.h"
#include "stencil/shapes.cuh"
#include "stencil/plan.cuh"
#include "stencil/stream.cuh"
#include "stencil/resident.cuh"

#define PERKS_STENCIL2D_DEFINE(name, T, SHAPE, BX, RC, DEPTH) PERKS_STENCIL2D_DEFINE_OCC(name, T, SHAPE, BX, RC, DEPTH, 1)
#define PERKS_STENCIL2D_DEFINE_OCC(name, T, SHAPE, BX, RC, DEPTH, MINB)                               \
    PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH)                                                   \
    PERKS__S2D_KERNELS(name, T, BX, RC, DEPTH, MINB)                                                  \
    PERKS__S2D_HOST(name, T, BX, RC, DEPTH)

/* the limits (T first: a wrong type stops here), the shape as a type, the sizes, the coefficients */
#define PERKS__S2D_TYPES(name, T, SHAPE, BX, RC, DEPTH)                                               \
    static_assert(perks__is_real<T>::value, "PERKS_STENCIL2D_DEFINE(" #name "): T must be float or double"); \
    typedef PERKS_SHAPE2D_TYPE(SHAPE) name##_shape;                                                   \
    static_assert(name##_shape::r <= 8,                                                               \
                  "PERKS_STENCIL2D_DEFINE(" #name "): SHAPE reaches more than 8 cells away; r must be at most 8"); \
    static_assert((BX) % 32 == 0 && (BX) >= 64 && (BX) <= ONCHIP_THREADS_PER_BLOCK_MAX,              \
                  "PERKS_STENCIL2D_DEFINE(" #name "): BX must be a multiple of 32 from 64 to 1024");  \
    static_assert((BX) >= 2 * name##_shape::r,                                                        \
                  "PERKS_STENCIL2D_DEFINE(" #name "): BX must be at least twice the stencil's radius"); \
    static_assert((RC) >= 1 && (RC) + 2 * name##_shape::r <= 32,                                      \
                  "PERKS_STENCIL2D_DEFINE(" #name "): RC must be at least 1 and RC + 2r at most 32"); \
    static_assert((DEPTH) >= 0 && (DEPTH) % ((RC) >= 1 ? (RC) : 1) == 0,                              \
                  "PERKS_STENCIL2D_DEFINE(" #name "): DEPTH must be a multiple of RC (0: no register cache)"); \
    typedef perks__s2d_sizes<T, name##_shape, BX, RC> name##_sizes;                                   \
    typedef struct name##_weights {                                                                   \
        T w[name##_shape::npts];                                                                      \
    } name##_weights;                                                                                 \
    enum { name##_R = name##_sizes::r, name##_WW = name##_sizes::ww, name##_RR = name##_sizes::rr,    \
           name##_HWIN = name##_sizes::hwin, name##_SMEM_BASE = name##_sizes::smem_base };

/* the four kernels: one call of a body each */
#define PERKS__S2D_KERNELS(name, T, BX, RC, DEPTH, MINB)                                              \
    __global__ void __launch_bounds__(BX, MINB) name##_kernel(T *a, T *b, T *ea, T *eb, int nx, int ny, int steps, \
                                                              int reg_on, int sr, int tiles_x, int TH, name##_weights w) \
    { perks_stencil2d_stream<T, name##_shape, BX, RC, DEPTH>(a, b, ea, eb, nx, ny, steps, reg_on, sr, tiles_x, TH, w.w); } \
    __global__ void __launch_bounds__(BX) name##_step_kernel(const T *__restrict__ in, T *__restrict__ out, int nx, \
                                                             int ny, name##_weights w)                 \
    { perks_stencil2d_step<T, name##_shape, BX, RC>(in, out, nx, ny, w.w); }                            \
    __global__ void __launch_bounds__(BX, name##_sizes::res_minb) name##_res_kernel(                   \
        T *a, T *b, T *ea, T *eb, int nx, int ny, int steps, int tiles_x, int TH, int SC, name##_weights w) \
    { perks_stencil2d_resident<T, name##_shape, BX, RC, 0>(a, b, ea, eb, nx, ny, steps, tiles_x, TH, SC, w.w); } \
    __global__ void __launch_bounds__(BX, name##_sizes::hyb_minb) name##_hyb_kernel(                   \
        T *a, T *b, T *ea, T *eb, int nx, int ny, int steps, int tiles_x, int TH, int SC, name##_weights w) \
    { perks_stencil2d_resident<T, name##_shape, BX, RC, 1>(a, b, ea, eb, nx, ny, steps, tiles_x, TH, SC, w.w); }

/* the host side: each function one call of a shared one (perks/stencil/plan.cuh); none under NVRTC,
 * where the generator emits the four kernels only */
#ifndef __CUDACC_RTC__
#define PERKS__S2D_FN static inline __attribute__((unused))
#define PERKS__S2D_G(name) const perks__s2d_geom g = name##_geom()
#define PERKS__S2D_HOST(name, T, BX, RC, DEPTH)                                                       \
    PERKS__S2D_FN perks__s2d_geom name##_geom(void)                                                   \
    {                                                                                                 \
        return perks__s2d_geom_of<T, name##_shape, BX, RC, DEPTH>((const void *)name##_kernel, (const void *)name##_res_kernel, \
                                                                  (const void *)name##_hyb_kernel,    \
                                                                  (const void *)name##_step_kernel);  \
    }                                                                                                 \
    PERKS__S2D_FN size_t name##_smem_base(void) { return (size_t)name##_SMEM_BASE; }                  \
    PERKS__S2D_FN size_t name##_res_smem(int th) { PERKS__S2D_G(name); return perks__s2d_res_smem(&g, th); } \
    PERKS__S2D_FN size_t name##_hyb_smem(int sc) { PERKS__S2D_G(name); return perks__s2d_hyb_smem(&g, sc); } \
    PERKS__S2D_FN size_t name##_work_bytes(const perks_plan *p) { PERKS__S2D_G(name); return perks__s2d_work_bytes(&g, p); } \
    PERKS__S2D_FN int name##_res_plan(const perks_stencil2d_args *a, perks_plan *p)                   \
    { PERKS__S2D_G(name); return perks__s2d_res_plan(a, p, &g); }                                    \
    PERKS__S2D_FN int name##_hyb_plan(const perks_stencil2d_args *a, perks_plan *p)                   \
    { PERKS__S2D_G(name); return perks__s2d_hyb_plan(a, p, &g); }                                    \
    PERKS__S2D_FN int name##_plan(const perks_stencil2d_args *a, perks_plan *p)                       \
    { PERKS__S2D_G(name); return perks__s2d_plan<T>(a, p, &g); }                                     \
    PERKS__S2D_FN int name##_launch(const perks_stencil2d_args *a, cudaStream_t stream)               \
    { PERKS__S2D_G(name); name##_weights w; return perks__s2d_run<T>(a, &g, &w, sizeof w, stream); } \
    PERKS__S2D_FN int name##_steps(const perks_stencil2d_args *a, cudaStream_t stream)                \
    { PERKS__S2D_G(name); name##_weights w; return perks__s2d_steps(a, &g, &w, sizeof w, stream); }
#else
#define PERKS__S2D_HOST(name, T, BX, RC, DEPTH)
#endif

#endif /* PERKS_STENCIL_CUH */
#include <onchip/names_pop.h>
