/* expect: KSUM_DEFINE_F32(g): MINB must be at least 1 */
#include <ksum/ksum.cuh>
KSUM_DEFINE_F32(g, KSUM_GAUSS, 1, 0)
