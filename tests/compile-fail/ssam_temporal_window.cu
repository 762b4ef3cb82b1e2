/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat40): the TT windows of NY rows exceed 160 registers; lower TT */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat40, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<40, 128, SSAM_SCHEDULE_REGS, 0, 2>)
