/* expect: SSAM_STENCIL2D_DEFINE(heat): P (output rows per lane) must be at least 1 */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<0, 128, 2>)
