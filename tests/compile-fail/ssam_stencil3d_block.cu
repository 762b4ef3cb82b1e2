/* expect: SSAM_STENCIL3D_DEFINE(heat3): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/stencil.cuh>
SSAM_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, ssam_stencil_policy<2, 16, 2, SSAM_SCHEDULE_STREAM>)
