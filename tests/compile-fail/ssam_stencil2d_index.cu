/* expect: SSAM_STENCIL2D_DEFINE(gap): SHAPE has a coefficient index I outside 0 .. (its points) - 1 */
#include <ssam/stencil.cuh>
#define GAP_SHAPE(X) X(0, 0, 0) X(1, -1, 0) X(3, 1, 0)
SSAM_STENCIL2D_DEFINE(gap, float, GAP_SHAPE, ssam_stencil_policy<4>)
