/* expect: PERKS_STENCIL2D_DEFINE(heat2): the last argument must be a perks_stencil2d_policy<BX, RC, DEPTH, MINB> */
#include <perks/stencil.cuh>
PERKS_STENCIL2D_DEFINE(heat2, float, ONCHIP_SHAPE_STAR2D_R1)
