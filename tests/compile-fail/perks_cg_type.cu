/* expect: PERKS_CG_DEFINE(cgi): T must be float or double */
#include <perks/cg.cuh>
PERKS_CG_DEFINE(cgi, int, 256)
