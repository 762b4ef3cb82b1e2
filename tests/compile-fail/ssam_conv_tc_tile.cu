/* expect: SSAM_CONV2D_TC_DEFINE(many): the policy's QY, JX, WY, WX must be 0 (the mode's default) or more and WY x WX at most 32 warps */
#include <ssam/conv_tc.cuh>
SSAM_CONV2D_TC_DEFINE(many, tf32, 9, 9, ssam_conv_tc_policy<0, 0, 8, 8>)
