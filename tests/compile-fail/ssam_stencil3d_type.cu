/* expect: SSAM_STENCIL3D_STREAM_DEFINE(heat3): T must be float or double */
#include <ssam/stencil.cuh>
SSAM_STENCIL3D_STREAM_DEFINE(heat3, int, ONCHIP_SHAPE_3D7PT, 2, 128)
