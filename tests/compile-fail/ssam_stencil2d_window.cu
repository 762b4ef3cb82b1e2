/* expect: SSAM_STENCIL2D_DEFINE(wide): the window of P + NY - 1 rows and the P prefetched exceed 192 registers; lower P */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(wide, double, ONCHIP_SHAPE_BOX2D_R5, ssam_stencil_policy<40>)
