#include <onchip/names_push.h>
/* perks/perks.cuh -- the whole perks module: persistent kernels with the domain cached on chip.
 *
 * WHAT (Zhang et al., "PERKS", ICS'23): every perks header -- base.h, grid.cuh, plan.h, cache.cuh,
 *   tile.cuh, stencil.cuh, stencil3d.cuh, barrier.cuh, cg.cuh, mtx.h, decomp.h, exchange.cuh,
 *   cg_dist.cuh (cg_stencil.cuh apart); what each holds: the header table of docs/perks.md.
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
