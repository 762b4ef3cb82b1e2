/* expect: SSAM_DESIGN1D_DEFINE(sbm3): S must be 1 or 2 */
#include <ssam/designs.cuh>
SSAM_DESIGN1D_DEFINE(sbm3, float, SBM, 5, 3, 128)
