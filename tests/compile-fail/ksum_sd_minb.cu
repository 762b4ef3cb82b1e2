/* expect: KSUM_SMALLDIM_DEFINE(g): MINB must be 0 (the default) or more */
#include <ksum/smalldim.cuh>
KSUM_SMALLDIM_DEFINE(g, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1, 0, -1>)
