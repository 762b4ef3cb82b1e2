/* expect: KSUM_DEFINE(g): SCHEDULE, WIDE_RES and WIDE_STREAM need T ksum_tf32 or ksum_tf32x3 */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, float, KSUM_GAUSS, ksum_policy<1, 0, KSUM_SCHEDULE_AUTO, 4>)
