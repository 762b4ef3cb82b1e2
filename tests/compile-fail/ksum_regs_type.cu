/* expect: KSUM_REGS_DEFINE(g): T must be float, double, ksum_tf32 or ksum_tf32x3 */
#include <ksum/ksum.cuh>
KSUM_REGS_DEFINE(g, __half, KSUM_GAUSS, ksum_regs_policy<1, 8, 8, 1>)
