/* expect: PERKS_CGD_DEFINE(cgdi): T must be float or double */
#include <perks/cg_dist.cuh>
PERKS_CGD_DEFINE(cgdi, int)
