#include <onchip/names_push.h>
/* perks/stencil/shapes.cuh -- the stencil shapes the perks stencils take: onchip/shape.cuh, the kit's
 * one shape model and catalogue (ONCHIP_SHAPE_STAR2D_R1 ..., ONCHIP_SHAPE2D_TYPE, onchip_shape).
 *
 * LIMITS
 *   PERKS_STENCIL2D_RMAX (8), PERKS_STENCIL3D_RMAX (4): the largest |offset| PERKS_STENCIL2D_DEFINE
 *   and PERKS_STENCIL3D_DEFINE take.
 */
#ifndef PERKS_STENCIL_SHAPES_CUH
#define PERKS_STENCIL_SHAPES_CUH

#include <onchip/shape.cuh>

#define PERKS_STENCIL2D_RMAX 8
#define PERKS_STENCIL3D_RMAX 4

#endif /* PERKS_STENCIL_SHAPES_CUH */
#include <onchip/names_pop.h>
