/* expect: ssam_queue3d_step: S must be a star (every point on an axis) */
#include <ssam/stencil/queue3d.cuh>
typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_BOX3D_R1) box;
__global__ void k(ssam_queue3d_args<float> a, const float *c) { ssam_queue3d_step<float, box, 8, 2>(a, c); }
