/* expect: SSAM_STENCIL3D_DEFINE(box): the register window exceeds 192 registers; lower P */
#include <ssam/stencil.cuh>
SSAM_STENCIL3D_DEFINE(box, float, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_policy<>)
