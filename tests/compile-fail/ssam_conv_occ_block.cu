/* expect: SSAM_CONV2D_DEFINE_OCC(blur5): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE_OCC(blur5, float, 5, 5, 4, 1056, 2)
