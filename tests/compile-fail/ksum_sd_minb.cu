/* expect: KSUM_DEFINE_SMALLDIM_EX(g): MINB must be at least 1 */
#include <ksum/smalldim.cuh>
KSUM_DEFINE_SMALLDIM_EX(g, KSUM_GAUSS, 3, 1, 1, 0, 0)
