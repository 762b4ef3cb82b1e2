/* expect: SSAM_CONV2D_DEFINE_HALF(h3): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE_HALF(h3, 3, 3, 4, 48)
