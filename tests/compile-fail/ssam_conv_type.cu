/* expect: SSAM_CONV2D_DEFINE(blur3): T must be float or double */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE(blur3, int, 3, 3, 4, 128)
