/* expect: KSUM_DEFINE(g): the last argument must be a ksum_policy<R, MINB, SCHEDULE, WIDE_RES, WIDE_STREAM> */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, double, KSUM_GAUSS)
