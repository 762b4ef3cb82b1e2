/* expect: SSAM_CONV2D_DEFINE(wide): M must be at most 30 V + 2 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(wide, float, 123, 1, ssam_conv_policy<1, 128>)
