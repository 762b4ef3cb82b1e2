/* expect: SSAM_STENCIL2D_DEFINE_OCC(heat): P (output rows per lane) must be at least 1 */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE_OCC(heat, float, ONCHIP_SHAPE_2D5PT, 0, 128, 2)
