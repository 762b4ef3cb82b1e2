/* expect: SSAM_STENCIL2D_TC_DEFINE(box): the ring of planes exceeds 227 KB of shared memory */
#include <ssam/stencil_tc.cuh>
SSAM_STENCIL2D_TC_DEFINE(box, f64, ONCHIP_SHAPE_BOX2D_R4, ssam_stencil_tc_policy<4, 8, 2, 4, 1>)
