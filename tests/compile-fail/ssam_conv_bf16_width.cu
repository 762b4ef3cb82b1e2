/* expect: SSAM_CONV2D_DEFINE(b243): M must be at most 30 V + 2 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(b243, __nv_bfloat16, 243, 1, ssam_conv_policy<1, 128>)
