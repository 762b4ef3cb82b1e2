/* expect: PERKS_STENCIL3D_DEFINE(heat3): the last argument must be a perks_stencil3d_policy<BX, BY, RC, MINB> */
#include <perks/stencil3d.cuh>
PERKS_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT)
