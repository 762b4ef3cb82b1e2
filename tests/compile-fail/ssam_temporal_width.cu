/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(wide): TT times the x radius leaves no column of the warp to store; lower TT */
#include <ssam/temporal.cuh>
#define WIDE_SHAPE(X) X(0, 0, 0) X(1, -10, 0) X(2, 10, 0)
SSAM_STENCIL2D_TEMPORAL_DEFINE(wide, double, WIDE_SHAPE, ssam_temporal_policy<4, 128, SSAM_SCHEDULE_REGS>)
