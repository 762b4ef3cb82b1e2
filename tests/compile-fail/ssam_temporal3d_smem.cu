/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE_RING(heat3): TT levels of the tile's planes (NZ + 1 a level, NZ - 1 with _ZCOL) exceed 227 KB of shared memory; lower TT, P or B */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE_RING(heat3, float, ONCHIP_SHAPE_3D7PT, 4, 4, 1024)
