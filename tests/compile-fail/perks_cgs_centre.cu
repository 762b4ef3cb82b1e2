/* expect: PERKS_CG_STENCIL2D_DEFINE(ring): SHAPE must contain the centre point (0, 0, 0) */
#include <perks/cg_stencil.cuh>
#define RING(X) X(0, -1, 0) X(1, 1, 0) X(2, 0, -1) X(3, 0, 1)
PERKS_CG_STENCIL2D_DEFINE(ring, double, RING)
