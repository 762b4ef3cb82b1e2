/* expect: SSAM_STENCIL2D_DEFINE(heat): SCHEDULE must be SSAM_SCHEDULE_AUTO (a 2D stencil has one schedule) */
#include <ssam/stencil.cuh>
SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<4, 128, 1, SSAM_SCHEDULE_SLICE>)
