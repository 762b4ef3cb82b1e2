/* expect: KSUM_REGS_DEFINE(g): MINB must be 0 (the default) or more */
#include <ksum/ksum.cuh>
KSUM_REGS_DEFINE(g, float, KSUM_GAUSS, ksum_regs_policy<1, 8, 8, -1>)
