/* expect: SSAM_CONV2D_TC_DEFINE(blur9): the last argument must be an ssam_conv_tc_policy<QY, JX, WY, WX, MINB> */
#include <ssam/conv_tc.cuh>
SSAM_CONV2D_TC_DEFINE(blur9, f64, 9, 9, ssam_conv_policy<4, 128>)
