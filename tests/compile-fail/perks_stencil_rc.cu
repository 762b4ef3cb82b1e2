/* expect: PERKS_STENCIL2D_DEFINE(heat): RC must be at least 1 and RC + 2r at most 32 */
#include <perks/stencil.cuh>
/* RC + 2r = 31 + 2 = 33: one warp cannot load a side halo a lane a row */
PERKS_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 31, 0>)
