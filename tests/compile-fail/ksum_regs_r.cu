/* expect: KSUM_REGS_DEFINE(g): R must be at least 1 */
#include <ksum/ksum.cuh>
KSUM_REGS_DEFINE(g, double, KSUM_GAUSS, ksum_regs_policy<0, 4, 4, 1>)
