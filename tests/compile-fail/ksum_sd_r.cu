/* expect: KSUM_SMALLDIM_DEFINE(g): R must be at least 1 */
#include <ksum/smalldim.cuh>
KSUM_SMALLDIM_DEFINE(g, KSUM_CAUCHY, ksum_smalldim_policy<3, 0>)
