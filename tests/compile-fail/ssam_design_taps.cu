/* expect: SSAM_DESIGN1D_DEFINE(fbs33): Q must be from 1 to 32 taps */
#include <ssam/designs.cuh>
SSAM_DESIGN1D_DEFINE(fbs33, float, FBS, 33, 1, 128)
