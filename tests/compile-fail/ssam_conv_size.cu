/* expect: SSAM_CONV2D_DEFINE(empty): M and N must be at least 1 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(empty, float, 0, 3, ssam_conv_policy<4, 128>)
