/* expect: PERKS_STENCIL2D_DEFINE(heat2): T must be float or double */
#include <perks/stencil.cuh>
PERKS_STENCIL2D_DEFINE_OCC(heat2, long, ONCHIP_SHAPE_STAR2D_R1, 256, 8, 0, 2)
