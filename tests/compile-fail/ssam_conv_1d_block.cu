/* expect: SSAM_CONV1D_DEFINE(fir9): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/conv.cuh>
SSAM_CONV1D_DEFINE(fir9, float, 9, 40)
