/* expect: SSAM_STENCIL3D_TC_DEFINE(box): the last argument must be an ssam_stencil_tc_policy<D, JX, WY, WX, MINB> */
#include <ssam/stencil_tc.cuh>
SSAM_STENCIL3D_TC_DEFINE(box, f64, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_policy<1>)
