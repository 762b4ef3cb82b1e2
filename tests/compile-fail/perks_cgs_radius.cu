/* expect: PERKS_CG_STENCIL2D_DEFINE(far): SHAPE's radius must be at most 4 */
#include <perks/cg_stencil.cuh>
PERKS_CG_STENCIL2D_DEFINE(far, float, ONCHIP_SHAPE_STAR2D_R6)
