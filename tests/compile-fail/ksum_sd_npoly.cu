/* expect: KSUM_SMALLDIM_DEFINE(g): NPOLY must be 0 to 8 */
#include <ksum/smalldim.cuh>
KSUM_SMALLDIM_DEFINE(g, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 9>)
