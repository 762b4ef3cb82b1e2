/* expect: SSAM_CONV2D_DEFINE(fir9): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(fir9, float, 9, 1, ssam_conv_policy<1, 40>)
