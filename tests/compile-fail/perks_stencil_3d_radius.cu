/* expect: PERKS_STENCIL3D_DEFINE(far3): SHAPE reaches more than 4 cells away; r must be at most 4 */
#include <perks/stencil3d.cuh>
/* a 3D star whose z arms reach 5 planes */
#define FAR5(X) X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 1, 0, 0) X(3, 0, 0, -5) X(4, 0, 0, 5)
PERKS_STENCIL3D_DEFINE(far3, float, FAR5, perks_stencil3d_policy<32, 16, 4>)
