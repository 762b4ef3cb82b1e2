/* expect: SSAM_CONV2D_TC_DEFINE(flat): QY, JX, WY, WX must be at least 1 and WY x WX at most 32 warps */
#include <ssam/conv_tc.cuh>
SSAM_CONV2D_TC_DEFINE_EX(flat, tf32, 9, 9, 0, 4, 2, 2, 1)
