/* expect: KSUM_SMALLDIM_DEFINE(g): DMAX must be 1 to 8 */
#include <ksum/smalldim.cuh>
KSUM_SMALLDIM_DEFINE(g, KSUM_GAUSS, ksum_smalldim_policy<9, 1, 1>)
