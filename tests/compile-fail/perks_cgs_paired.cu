/* expect: PERKS_CG_STENCIL3D_DEFINE(upwind): SHAPE's points must come in opposite pairs (the operator is symmetric) */
#include <perks/cg_stencil.cuh>
#define UPWIND(X) X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 0, -1, 0) X(3, 0, 0, -1)
PERKS_CG_STENCIL3D_DEFINE(upwind, perks_cg_mixed, UPWIND)
