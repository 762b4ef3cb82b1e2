#include <onchip/names_push.h>
/* ssam/stencil_shapes.cuh -- the stencil shapes the ssam stencils take: onchip/shape.cuh, the kit's
 * one shape model and catalogue (ONCHIP_SHAPE_STAR2D_R1 ..., ONCHIP_SHAPE2D_TYPE, onchip_shape).
 *
 * LIMITS
 *   SSAM_STENCIL_RMAX (10): the largest |offset| the ssam stencil generators take.
 */
#ifndef SSAM_STENCIL_SHAPES_CUH
#define SSAM_STENCIL_SHAPES_CUH

#include "base.cuh"
#include <onchip/shape.cuh>

#define SSAM_STENCIL_RMAX 10

#endif /* SSAM_STENCIL_SHAPES_CUH */
#include <onchip/names_pop.h>
