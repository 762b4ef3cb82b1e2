/* expect: SSAM_STENCIL3D_DEFINE(box): the slices' partial sums exceed 227 KB of shared memory; lower B or P */
#include <ssam/stencil.cuh>
SSAM_STENCIL3D_DEFINE(box, double, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_policy<16, 1024, 1, SSAM_SCHEDULE_SLICE>)
