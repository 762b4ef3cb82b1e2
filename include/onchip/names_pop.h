/* onchip/names_pop.h -- the end of every kit header: the names onchip/names_push.h set aside at its
 * start (N, M, P, T, V, R, B, W, H, BLOCK, TILE) get the user's definitions back, or none.  No
 * include guard.  Nothing under NVRTC (no pop_macro there; names_push.h refuses the names). */
#ifndef __CUDACC_RTC__
#pragma pop_macro("N")
#pragma pop_macro("M")
#pragma pop_macro("P")
#pragma pop_macro("T")
#pragma pop_macro("V")
#pragma pop_macro("R")
#pragma pop_macro("B")
#pragma pop_macro("W")
#pragma pop_macro("H")
#pragma pop_macro("BLOCK")
#pragma pop_macro("TILE")
#endif
