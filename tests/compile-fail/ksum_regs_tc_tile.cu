/* expect: KSUM_REGS_DEFINE(g): T ksum_tf32 and ksum_tf32x3 take the microtile 8 x 8 */
#include <ksum/tc.cuh>
KSUM_REGS_DEFINE(g, ksum_tf32, KSUM_GAUSS, ksum_regs_policy<1, 4, 4>)
