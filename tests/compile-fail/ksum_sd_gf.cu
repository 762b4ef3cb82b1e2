/* expect: KSUM_SMALLDIM_DEFINE(g): GF = 1 needs KERNEL KSUM_GAUSS */
#include <ksum/smalldim.cuh>
KSUM_SMALLDIM_DEFINE(g, KSUM_CAUCHY, ksum_smalldim_policy<3, 1, 1, 0, 2>)
