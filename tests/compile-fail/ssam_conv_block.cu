/* expect: SSAM_CONV2D_DEFINE(blur5): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<8, 100>)
