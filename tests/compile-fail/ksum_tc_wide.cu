/* expect: KSUM_DEFINE(g): WIDE_RES and WIDE_STREAM must be -1 (the default) to 4 */
#include <ksum/tc.cuh>
KSUM_DEFINE(g, ksum_tf32, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_MMA, 5, 0>)
