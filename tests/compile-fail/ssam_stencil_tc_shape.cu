/* expect: SSAM_STENCIL3D_TC_DEFINE(far): SHAPE has a point beyond SSAM_STENCIL_RMAX (10) */
#include <ssam/stencil_tc.cuh>
#define FAR3_SHAPE(X) X(0, 0, 0, 0) X(1, 0, 11, 0)
SSAM_STENCIL3D_TC_DEFINE(far, f64, FAR3_SHAPE, ssam_stencil_tc_policy<>)
