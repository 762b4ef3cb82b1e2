/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3): TT (steps per pass) must be at least 1, or 0 for the rule's */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3, double, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<-1, 512, SSAM_SCHEDULE_SMEM, 2>)
