/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(box): SHAPE must read only the cell's own row off the centre plane (DY = 0 where DZ != 0) and reach both z neighbours, as 3d7pt and 3d13pt do; use SSAM_SCHEDULE_SMEM or SSAM_SCHEDULE_RING */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE(box, float, ONCHIP_SHAPE_3D27PT, ssam_temporal_policy<2, 512, SSAM_SCHEDULE_ZCOL, 2>)
