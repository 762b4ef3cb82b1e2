/* expect: KSUM_DEFINE_GAUSS_SMALLDIM(g): DMAX must be 1 to 8 */
#include <ksum/smalldim.cuh>
KSUM_DEFINE_GAUSS_SMALLDIM(g, 9, 1, 0)
