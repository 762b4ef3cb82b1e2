/* expect: SSAM_STENCIL2D_DEFINE(heat): T must be float, double, __half or __nv_bfloat16 */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(heat, int, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<4>)
