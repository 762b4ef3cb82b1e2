/* expect: SSAM_CONV2D_DEFINE(blur5): the last argument must be an ssam_conv_policy<P, B, MINB> */
#include <ssam/conv_tc.cuh>
SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_tc_policy<>)
