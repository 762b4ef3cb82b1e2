/* expect: PERKS_CG_DEFINE(cgi): T must be float, double or perks_cg_mixed */
#include <perks/cg.cuh>
PERKS_CG_DEFINE(cgi, int, 256)
