/* expect: KSUM_DEFINE(g): R must be at least 1 */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, float, KSUM_GAUSS, ksum_policy<0, 2>)
