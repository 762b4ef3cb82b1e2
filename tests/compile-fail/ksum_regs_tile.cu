/* expect: KSUM_REGS_DEFINE(g): the microtile TM x TN must be 4 or 8 each (0: the default) */
#include <ksum/ksum.cuh>
KSUM_REGS_DEFINE(g, float, KSUM_GAUSS, ksum_regs_policy<1, 8, 6, 1>)
