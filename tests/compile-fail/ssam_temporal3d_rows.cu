/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3): TT times the y extent leaves no tile row to store; raise B or P, or lower TT */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<2, 32, SSAM_SCHEDULE_SMEM, 1>)
