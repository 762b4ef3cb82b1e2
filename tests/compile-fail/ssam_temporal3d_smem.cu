/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3): TT levels of the tile's planes (NZ + 1 a level, NZ - 1 with SSAM_SCHEDULE_ZCOL) exceed 227 KB of shared memory; lower TT, P or B */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<4, 1024, SSAM_SCHEDULE_RING, 4>)
