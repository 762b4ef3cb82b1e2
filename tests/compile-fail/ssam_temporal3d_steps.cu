/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3): TT (steps per pass) must be at least 1 */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3, double, ONCHIP_SHAPE_3D7PT, 0, 2, 512)
