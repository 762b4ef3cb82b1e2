/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat0): TT (steps per pass) must be at least 1 */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat0, float, ONCHIP_SHAPE_2D5PT, 0, 128)
