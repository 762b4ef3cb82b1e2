/* expect: PERKS_STENCIL2D_DEFINE(heat): T must be float or double */
#include <perks/stencil.cuh>
PERKS_STENCIL2D_DEFINE(heat, int, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 8>)
