/* expect: KSUM_DEFINE(g): T must be float or double */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, int, KSUM_GAUSS)
