/* expect: SSAM_STENCIL3D_DEFINE(far): SHAPE has a point beyond SSAM_STENCIL_RMAX (10) */
#include <ssam/stencil.cuh>
#define FAR3_SHAPE(X) X(0, 0, 0, 0) X(1, 0, 0, -12)
SSAM_STENCIL3D_DEFINE(far, float, FAR3_SHAPE, ssam_stencil_policy<2, 128, 2, SSAM_SCHEDULE_SLICE>)
