/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE_ZCOL(box): SHAPE must read only the cell's own row off the centre plane (DY = 0 where DZ != 0) and reach both z neighbours */
#include <ssam/temporal3d.cuh>
SSAM_STENCIL3D_TEMPORAL_DEFINE_ZCOL(box, float, ONCHIP_SHAPE_3D27PT, 2, 2, 512)
