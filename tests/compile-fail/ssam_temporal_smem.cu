/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM(wide): the staged input rows, 2 (NY + 3) rows of 512 bytes a warp, exceed 227 KB of shared memory; lower B */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM(wide, float, ONCHIP_SHAPE_STAR2D_R2, 2, 1024)
