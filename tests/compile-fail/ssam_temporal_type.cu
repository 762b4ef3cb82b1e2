/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8): T must be float or double */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, int, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<8, 128, SSAM_SCHEDULE_REGS>)
