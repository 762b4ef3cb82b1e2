/* expect: KSUM_DEFINE_EX(g): R must be at least 1 */
#include <ksum/ksum.cuh>
KSUM_DEFINE_EX(g, double, KSUM_GAUSS, 0, 4, 4, 1)
