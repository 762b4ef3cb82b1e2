/* expect: SSAM_CONV2D_DEFINE_BF16(b243): M must be at most 30 V + 2 */
#include <ssam/conv.cuh>
SSAM_CONV2D_DEFINE_BF16(b243, 243, 1, 1, 128)
