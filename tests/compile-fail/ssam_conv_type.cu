/* expect: SSAM_CONV2D_DEFINE(blur3): T must be float, double, __half or __nv_bfloat16 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(blur3, int, 3, 3, ssam_conv_policy<4, 128>)
