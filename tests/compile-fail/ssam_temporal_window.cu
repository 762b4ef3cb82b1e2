/* expect: SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(heat40): the TT windows of NY rows exceed 160 registers; lower TT */
#include <ssam/temporal.cuh>
SSAM_STENCIL2D_TEMPORAL_DEFINE_OCC(heat40, float, ONCHIP_SHAPE_2D5PT, 40, 128, 2)
