/* expect: KSUM_DEFINE_EX(g): T must be float or double */
#include <ksum/ksum.cuh>
KSUM_DEFINE_EX(g, __half, KSUM_GAUSS, 1, 8, 8, 1)
