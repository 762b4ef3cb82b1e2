/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3): T must be float or double */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3, int, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<2, 704, SSAM_SCHEDULE_SMEM, 2>)
