/* expect: KSUM_DEFINE_TF32_EX(g): WIDE_RES and WIDE_STREAM must be 0 to 4 */
#include <ksum/tc.cuh>
KSUM_DEFINE_TF32_EX(g, KSUM_GAUSS, 1, 1, 5, 0)
