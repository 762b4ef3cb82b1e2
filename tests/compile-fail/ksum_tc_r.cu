/* expect: KSUM_DEFINE(g): R must be at least 1 */
#include <ksum/tc.cuh>
KSUM_DEFINE(g, ksum_tf32, KSUM_GAUSS, ksum_policy<0>)
