/* expect: SSAM_STENCIL3D_TC_DEFINE(box): MODE must be f64, tf32 or tf32x3 */
#include <ssam/stencil_tc.cuh>
SSAM_STENCIL3D_TC_DEFINE(box, f16, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<>)
