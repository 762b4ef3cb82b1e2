/* expect: KSUM_DEFINE(g): SCHEDULE must be KSUM_SCHEDULE_AUTO or KSUM_SCHEDULE_MMA */
#include <ksum/tc.cuh>
KSUM_DEFINE(g, ksum_tf32x3, KSUM_GAUSS, ksum_policy<1, 0, 2>)
