/* expect: KSUM_DEFINE(g): T ksum_tf32 and ksum_tf32x3 need #include <ksum/tc.cuh> */
#include <ksum/ksum.cuh>
KSUM_DEFINE(g, ksum_tf32, KSUM_GAUSS, ksum_policy<>)
