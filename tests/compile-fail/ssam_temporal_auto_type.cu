/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat): T must be float or double */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat, long, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<>)
