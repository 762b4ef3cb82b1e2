/* expect: PERKS_CG_DEFINE(cgm): BLOCK must be a multiple of 32 from 64 to 1024 */
#include <perks/cg.cuh>
PERKS_CG_DEFINE(cgm, perks_cg_mixed, 200)
