/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8): P (rows per warp) is the 3D kernels'; leave it 0 */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<8, 128, SSAM_SCHEDULE_REGS, 2>)
