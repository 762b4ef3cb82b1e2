/* expect: PERKS_STENCIL2D_DEFINE(heat): DEPTH must be a multiple of RC (0: no register cache) */
#include <perks/stencil.cuh>
PERKS_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 12>)
