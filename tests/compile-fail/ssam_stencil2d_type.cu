/* expect: SSAM_STENCIL2D_DEFINE(heat): T must be float or double */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(heat, int, ONCHIP_SHAPE_2D5PT, 4, 128)
