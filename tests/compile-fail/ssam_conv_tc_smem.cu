/* expect: SSAM_CONV2D_TC_DEFINE(big): the staged tile and weights exceed 227 KB of shared memory */
#include <ssam/conv_tc.cuh>
SSAM_CONV2D_TC_DEFINE(big, f64, 20, 20, ssam_conv_tc_policy<4, 8, 4, 4, 1>)
