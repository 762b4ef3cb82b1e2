/* expect: PERKS_STENCIL3D_DEFINE(heat3): T must be float or double */
#include <perks/stencil3d.cuh>
PERKS_STENCIL3D_DEFINE(heat3, int, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 16, 4>)
