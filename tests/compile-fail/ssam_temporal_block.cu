/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, ONCHIP_SHAPE_2D5PT, 8, 48)
