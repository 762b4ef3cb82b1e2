/* expect: SSAM_STENCIL2D_DEFINE(wide): the window of P + NY - 1 rows and the P prefetched exceed 192 registers; lower P */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(wide, __half, ONCHIP_SHAPE_BOX2D_R4, ssam_stencil_policy<9>)
