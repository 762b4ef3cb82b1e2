/* expect: SSAM_STENCIL3D_TC_DEFINE(box): the tile needs 1 <= D <= 7 */
#include <ssam/stencil_tc.cuh>
SSAM_STENCIL3D_TC_DEFINE(box, f64, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<8, 1, 1, 4, 1>)
