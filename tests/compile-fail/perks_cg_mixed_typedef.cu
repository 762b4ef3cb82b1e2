/* expect: PERKS_CG_DEFINE(cgm): T must be the word perks_cg_mixed, not another name for it */
#include <perks/cg.cuh>
typedef perks_cg_mixed mixed_t;
PERKS_CG_DEFINE(cgm, mixed_t, 256)
