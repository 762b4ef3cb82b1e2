/* expect: KSUM_DEFINE_TF32(g): PASSES must be 1 or 3 */
#include <ksum/tc.cuh>
KSUM_DEFINE_TF32(g, KSUM_GAUSS, 2, 1)
