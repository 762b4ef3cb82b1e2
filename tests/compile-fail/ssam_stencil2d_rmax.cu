/* expect: SSAM_STENCIL2D_DEFINE(far): SHAPE has a point beyond SSAM_STENCIL_RMAX (10) */
#include <ssam/stencil.cuh>
#define FAR_SHAPE(X) X(0, 0, 0) X(1, 11, 0) X(2, 0, -1)
SSAM_STENCIL2D_DEFINE(far, float, FAR_SHAPE, ssam_stencil_policy<4>)
