/* expect: SSAM_STENCIL2D_DEFINE(heat): the last argument must be an ssam_stencil_policy<P, B, MINB, SCHEDULE> */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1)
