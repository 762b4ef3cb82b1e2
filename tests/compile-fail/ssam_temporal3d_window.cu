/* expect: SSAM_STENCIL3D_TEMPORAL_DEFINE(tall): the shape's NZ x NY window exceeds 128 registers; SSAM_SCHEDULE_AUTO runs it one pass per step */
#include <ssam/temporal3d.cuh>
#define TALL_SHAPE(X) X(0, 0, 0, 0) X(1, 0, -5, 0) X(2, 0, 5, 0) X(3, 0, 0, -1) X(4, 0, 0, 1)
SSAM_STENCIL3D_TEMPORAL_DEFINE(tall, float, TALL_SHAPE, ssam_temporal_policy<1, 1024, SSAM_SCHEDULE_SMEM, 1, 1>)
