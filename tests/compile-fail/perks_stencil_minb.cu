/* expect: PERKS_STENCIL2D_DEFINE(heat): MINB must be at least 1 */
#include <perks/stencil.cuh>
PERKS_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 0, 0>)
