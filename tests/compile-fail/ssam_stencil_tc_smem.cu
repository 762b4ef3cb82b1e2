/* expect: SSAM_STENCIL2D_TC_DEFINE_EX(box): the ring of planes exceeds 227 KB of shared memory */
#include <ssam/stencil_tc.cuh>
SSAM_STENCIL2D_TC_DEFINE_EX(box, f64, ONCHIP_SHAPE_BOX2D_R4, 4, 8, 2, 4, 1)
