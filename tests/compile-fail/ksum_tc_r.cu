/* expect: KSUM_DEFINE_TF32(g): R must be at least 1 */
#include <ksum/tc.cuh>
KSUM_DEFINE_TF32(g, KSUM_GAUSS, 1, 0)
