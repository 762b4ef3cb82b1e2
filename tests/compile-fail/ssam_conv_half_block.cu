/* expect: SSAM_CONV2D_DEFINE(h3): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(h3, __half, 3, 3, ssam_conv_policy<4, 48>)
