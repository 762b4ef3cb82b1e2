/* expect: KSUM_SMALLDIM_DEFINE(g): the last argument must be a ksum_smalldim_policy<DMAX, R, GF, NPOLY, MINB> */
#include <ksum/smalldim.cuh>
KSUM_SMALLDIM_DEFINE(g, KSUM_GAUSS, ksum_policy<3>)
