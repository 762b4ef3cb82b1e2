/* expect: KSUM_DEFINE(g): MINB must be 0 (the default) or more */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, float, KSUM_GAUSS, ksum_policy<1, -1>)
