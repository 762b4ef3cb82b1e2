/* expect: PERKS_STENCIL2D_DEFINE(far): SHAPE reaches more than 8 cells away; r must be at most 8 */
#include <perks/stencil.cuh>
/* a star whose arms reach 9 cells */
#define FAR9(X) X(0, 0, 0) X(1, -9, 0) X(2, 9, 0) X(3, 0, -1) X(4, 0, 1)
PERKS_STENCIL2D_DEFINE(far, float, FAR9, perks_stencil2d_policy<256, 4, 0>)
