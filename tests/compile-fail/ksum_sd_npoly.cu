/* expect: KSUM_DEFINE_GAUSS_SMALLDIM(g): NPOLY must be 0 to 8 */
#include <ksum/smalldim.cuh>
KSUM_DEFINE_GAUSS_SMALLDIM(g, 3, 1, 9)
