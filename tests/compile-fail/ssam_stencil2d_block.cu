/* expect: SSAM_STENCIL2D_DEFINE(heat): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<4, 100>)
