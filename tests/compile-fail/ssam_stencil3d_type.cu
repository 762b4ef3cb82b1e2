/* expect: SSAM_STENCIL3D_DEFINE(heat3): T must be float or double */
#include <ssam/stencil.cuh>
SSAM_STENCIL3D_DEFINE(heat3, int, ONCHIP_SHAPE_3D7PT, ssam_stencil_policy<2, 128, 1, SSAM_SCHEDULE_STREAM>)
