/* expect: SSAM_DESIGN1D_DEFINE(bsm5): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/designs.cuh>
SSAM_DESIGN1D_DEFINE(bsm5, float, BSM, 5, 1, 100)
