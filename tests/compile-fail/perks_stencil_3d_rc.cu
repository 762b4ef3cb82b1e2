/* expect: PERKS_STENCIL3D_DEFINE(heat3): RC must be from 1 to 16 planes */
#include <perks/stencil3d.cuh>
PERKS_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 16, 17>)
