/* expect: KSUM_DEFINE_SMALLDIM(g): R must be at least 1 */
#include <ksum/smalldim.cuh>
KSUM_DEFINE_SMALLDIM(g, KSUM_CAUCHY, 3, 0)
