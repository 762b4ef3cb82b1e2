/* expect: KSUM_DEFINE_SMALLDIM_EX(g): GF = 1 needs KERNEL KSUM_GAUSS */
#include <ksum/smalldim.cuh>
KSUM_DEFINE_SMALLDIM_EX(g, KSUM_CAUCHY, 3, 1, 1, 0, 2)
