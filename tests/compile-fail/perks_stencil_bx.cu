/* expect: PERKS_STENCIL2D_DEFINE(heat): BX must be a multiple of 32 from 64 to 1024 */
#include <perks/stencil.cuh>
PERKS_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<100, 8, 8>)
