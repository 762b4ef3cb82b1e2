/* expect: SSAM_CONV2D_TC_DEFINE(wide): M must be at most 30 V + 2 */
#include <ssam/conv_tc.cuh>
SSAM_CONV2D_TC_DEFINE(wide, tf32, 123, 3, ssam_conv_tc_policy<>)
