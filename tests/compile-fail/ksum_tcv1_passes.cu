/* expect: KSUM_DEFINE_TF32_V1(g): PASSES must be 1 or 3 */
#include <ksum/tc.cuh>
KSUM_DEFINE_TF32_V1(g, KSUM_GAUSS, 4, 1)
