/* expect: SSAM_CONV2D_DEFINE(none): P must be at least 1 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(none, float, 3, 3, ssam_conv_policy<0, 128>)
