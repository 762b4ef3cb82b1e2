#include <onchip/names_push.h>
/* perks/stencil3d.cuh -- persistent 3D stencils: the time loop in one cooperative kernel, the domain
 * cached in shared memory between steps (all of it where it fits, a slab of planes per tile where
 * it does not), the rest streamed from device memory in the same pass.
 *
 * WHAT (PERKS paper §4.2 "2D planes loaded one after the other", Listing 1, §5)
 *   PERKS_STENCIL3D_DEFINE(name, T, SHAPE, perks_stencil3d_policy<BX, BY, RC, MINB>) defines
 *       __global__ void name_kernel(...)     the kernel (persistent when the plan says so)
 *       int name_plan(const perks_stencil3d_args *a, perks_plan *p)   checks a, plans the tiles and
 *                                    cached planes, fills p's head (onchip/plan.h: path, why, ...)
 *       int name_run(const perks_stencil3d_args *a, const perks_plan *p, cudaStream_t)   runs p
 *       int name_launch(const perks_stencil3d_args *a, cudaStream_t)  name_plan, then name_run
 *   (and name_ring_bytes, name_geom, the types name_policy, name_weights, name_shape, name_sizes
 *   and the constants name_R, name_WX, name_PP, name_NT, name_NPF, name_NCOEF).
 *   POLICY (defaults perks_stencil3d_policy<32, 16, 4, 1>): tiles of BX x BY columns (the threads),
 *   RC planes a chunk, MINB: __launch_bounds__(BX * BY, MINB).  SHAPE: an X-macro list
 *   X(I, DX, DY, DZ) (onchip/shape.cuh).  A step: out = sum over DZ ascending, then list order, of
 *   c[I] * in(x + DX, y + DY, z + DZ) for every cell at least r from each face, the others kept
 *   (args.boundary as in 2D); a tile's first smem_rows planes cached, the rest streamed; path
 *   PERKS_KERNEL_STEPS: the same kernel a launch a step, bit for bit the same
 *   (docs/perks.md#3d-stencils-perks_stencil3d_define).
 *
 * EXAMPLE
 *   [compile: float *d_u, *d_v; int W, H, D; cudaStream_t stream]
 *     #include <perks/stencil3d.cuh>
 *     PERKS_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 16, 4>)
 *
 *     float c[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};  // (0,0,0), -x, +x, -y, +y, -z, +z
 *     perks_stencil3d_args a = {};
 *     a.src = d_u; a.dst = d_v; a.nx = W; a.ny = H; a.nz = D; a.steps = 100; a.coef = c;
 *     a.ncoef = heat3_NCOEF; a.cache = PERKS_CACHE_SMEM;
 *     int rc = heat3_launch(&a, stream);  // result in d_u (even steps) or d_v (odd steps)
 *
 * PARAMETERS AND LIMITS (all: docs/perks.md#reference-3d-parameters-and-limits)
 *   T float or double; BX a multiple of 32, BX x BY <= 1024; RC 1..16; MINB >= 1; r <= 4.  Sizes
 *   >= 1, dense; src and dst apart; coef in HOST memory.  cache NONE, SMEM or MIX (REG: PERKS_ESIZE);
 *   path AUTO or STEPS.  Refused: the code, p.why, nothing launched; PERKS_ECORESIDENT, never a hang.
 *
 * PIECES: perks/stencil/{body3d,plan3d,define3d}.cuh (docs/perks.md#reference-the-3d-body-and-its-host-logic),
 *   and perks/stencil.cuh.  NVRTC: name_kernel only.  GLOSSARY: docs/perks.md#perks-stencil-glossary.
 */
#ifndef PERKS_STENCIL3D_CUH
#define PERKS_STENCIL3D_CUH

#include "stencil.cuh"
#include "stencil/body3d.cuh"
#include "stencil/plan3d.cuh"
#include "stencil/define3d.cuh"

#endif /* PERKS_STENCIL3D_CUH */
#include <onchip/names_pop.h>
