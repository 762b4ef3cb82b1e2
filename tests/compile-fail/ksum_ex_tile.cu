/* expect: KSUM_DEFINE_EX(g): the microtile TM x TN must be 4 or 8 each */
#include <ksum/ksum.cuh>
KSUM_DEFINE_EX(g, float, KSUM_GAUSS, 1, 8, 6, 1)
