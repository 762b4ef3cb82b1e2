/* expect: SSAM_STENCIL3D_DEFINE(heat3): T must be float or double */
#include <ssam/stencil.cuh>
SSAM_STENCIL3D_DEFINE(heat3, __half, ONCHIP_SHAPE_3D7PT, ssam_stencil_policy<2>)
