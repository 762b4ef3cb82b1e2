/* expect: PERKS_STENCIL3D_DEFINE(heat3): BX must be a multiple of 32 and BX * BY at most 1024 threads */
#include <perks/stencil3d.cuh>
/* 32 x 64 = 2048 threads a block */
PERKS_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, perks_stencil3d_policy<32, 64, 4>)
