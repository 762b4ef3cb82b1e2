/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8): B must be a multiple of 32 from 32 to 1024, or 0 for the rule's */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<8, 48, SSAM_SCHEDULE_REGS>)
