/* expect: PERKS_CG_DEFINE(cg32t): BLOCK must be a multiple of 32 from 64 to 1024 */
#include <perks/cg.cuh>
PERKS_CG_DEFINE(cg32t, float, 32)
