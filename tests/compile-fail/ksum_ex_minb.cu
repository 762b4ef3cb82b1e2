/* expect: KSUM_DEFINE_EX(g): MINB must be at least 1 */
#include <ksum/ksum.cuh>
KSUM_DEFINE_EX(g, float, KSUM_GAUSS, 1, 8, 8, 0)
