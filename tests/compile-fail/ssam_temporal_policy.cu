/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8): the last argument must be an ssam_temporal_policy<TT, B, SCHEDULE, P, MINB> */
#include <ssam/temporal.cuh>
struct not_a_policy {
    enum { tt = 8, b = 128, schedule = SSAM_SCHEDULE_REGS, p = 0, minb = 1 };
};
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, ONCHIP_SHAPE_2D5PT, not_a_policy)
