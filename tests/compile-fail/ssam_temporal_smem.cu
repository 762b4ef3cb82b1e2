/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(wide): the staged input rows, 2 (NY + 3) rows of 512 bytes a warp, exceed 227 KB of shared memory; lower B */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(wide, float, ONCHIP_SHAPE_STAR2D_R2, ssam_temporal_policy<2, 1024, SSAM_SCHEDULE_SMEM>)
