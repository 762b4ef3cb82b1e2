/* expect: SSAM_CONV2D_DEFINE(tall): the register cache of V (P + N - 1) values must be at most 192 registers */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(tall, double, 5, 5, ssam_conv_policy<93, 128>)
