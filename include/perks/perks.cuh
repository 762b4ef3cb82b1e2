#include <onchip/names_push.h>
/* perks/perks.cuh -- the whole perks module: persistent kernels with the domain cached on chip.
 *
 * WHAT (Zhang et al., "PERKS", ICS'23; docs/perks.md)
 *   base.h     status codes, perks_strerror
 *   grid.cuh   PERKS_FOR_STEPS, PERKS_GRID_SYNC, PERKS_SWAP, perks_occupancy, perks_launch
 *   plan.h     blocks per SM by Little's law, cache sizes, tilings (C99)
 *   cache.cuh  register / shared-memory cache pieces, transposed halo edges
 *   tile.cuh   a block's tile in shared memory for the whole run, halo exchange between tiles
 *              (perks_tile_load / _store / _publish / _load_frame)
 *   stencil.cuh PERKS_STENCIL2D_DEFINE: persistent 2D stencils, cache modes none/smem/reg/mix
 *              (its parts in stencil/: shapes.cuh the catalogue and a shape as a type, plan.cuh the
 *              host side, stream.cuh and resident.cuh the kernels' bodies)
 *   stencil3d.cuh PERKS_STENCIL3D_DEFINE: persistent 3D stencils (resident, partly cached, streamed)
 *   barrier.cuh perks_sum_barrier: a grid barrier that also sums per-block values (used by cg.cuh)
 *   cg.cuh     PERKS_CG_DEFINE: conjugate gradient in one cooperative kernel (name_plan / _run / _launch)
 *   mtx.h      Matrix Market reader to CSR (C99)
 *   decomp.h   a slab split over ranks and its halo exchange, as index math (C99)
 *   exchange.cuh the slab halo exchange by device copies or NCCL, agreement check, bounded wait
 *   cg_dist.cuh PERKS_CGD_DEFINE: CG over row blocks on several ranks (NCCL or virtual ranks)
 *
 * EXAMPLE
 *   [compile]
 *   #include <perks/perks.cuh>
 *   PERKS_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 32>)
 *   // ... heat_launch(&args, stream) ...   (see perks/stencil.cuh)
 */
#ifndef PERKS_PERKS_CUH
#define PERKS_PERKS_CUH

#include "base.h"
#include "cache.cuh"
#include "tile.cuh"
#include "grid.cuh"
#include "plan.h"
#include "decomp.h"
#include "stencil.cuh"
#include "stencil3d.cuh"
#include "barrier.cuh"
#include "cg.cuh"
#include "mtx.h"
#include "exchange.cuh"
#include "cg_dist.cuh"

#endif /* PERKS_PERKS_CUH */
#include <onchip/names_pop.h>
