/* expect: ssam_queue3d_step: BY must be 1 .. 32 (32 x BY threads) */
#include <ssam/stencil/queue3d.cuh>
typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R2) star;
__global__ void k(ssam_queue3d_args<double> a, const double *c) { ssam_queue3d_step<double, star, 33, 2>(a, c); }
