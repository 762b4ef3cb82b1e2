/* expect: SSAM_STENCIL2D_TC_DEFINE(box): the tile needs 1 <= D <= 7 */
#include <ssam/stencil_tc.cuh>
SSAM_STENCIL2D_TC_DEFINE(box, tf32, ONCHIP_SHAPE_BOX2D_R4, ssam_stencil_tc_policy<1, 1, 8, 8, 1>)
