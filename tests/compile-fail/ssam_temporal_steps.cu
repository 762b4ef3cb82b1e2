/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat0): TT (steps per pass) must be at least 1, or 0 for the rule's */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat0, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<-1, 128, SSAM_SCHEDULE_REGS>)
