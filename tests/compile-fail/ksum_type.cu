/* expect: KSUM_DEFINE(g): T must be float, double, ksum_tf32 or ksum_tf32x3 */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, int, KSUM_GAUSS, ksum_policy<>)
