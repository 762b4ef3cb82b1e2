/* expect: PERKS_CG_STENCIL3D_DEFINE(cgi): T must be float, double or perks_cg_mixed */
#include <perks/cg_stencil.cuh>
PERKS_CG_STENCIL3D_DEFINE(cgi, int, ONCHIP_SHAPE_STAR3D_R1)
