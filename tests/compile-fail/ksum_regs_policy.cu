/* expect: KSUM_REGS_DEFINE(g): the last argument must be a ksum_regs_policy<R, TM, TN, MINB> */
#include <ksum/ksum.cuh>
KSUM_REGS_DEFINE(g, float, KSUM_GAUSS, ksum_policy<>)
