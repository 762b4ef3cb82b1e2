#include <onchip/names_push.h>
/* ssam/stencil_tc/sizes.cuh -- the sizes of one tensor-core stencil instantiation: its tile, staging
 * slots, row pitch and shared memory. */
#ifndef SSAM_STENCIL_TC_SIZES_CUH
#define SSAM_STENCIL_TC_SIZES_CUH

#include "../conv_tc/warp.cuh"

/* ---- the sizes of one instantiation: TP the row pitch (D TP = 8 mod 32 floats, 8 mod 16 doubles:
 * no bank conflict), OFF the tile's start in its slot (16-byte chunks land aligned), VEC whole chunks
 * copied 16 bytes at a time, smem two staging slots and the padded coefficient rows in bytes.
 * why: docs/ssam.md#stencil-tc-design */
static __host__ __device__ constexpr int ssam__stc_pitch(int es, int tc, int D)
{
    return tc + (((es == 8 ? (D == 2 || D == 6 ? 4 : D == 4 ? 2 : 8)
                           : (D == 2 ? 4 : D == 3 || D == 7 ? 24 : D == 4 ? 2 : D == 6 ? 12 : 8)) -
                  tc % (es == 8 ? 16 : 32)) + (es == 8 ? 16 : 32)) % (es == 8 ? 16 : 32);
}
template <class T, int NX, int NY, int NZ, int XLO, int D, int JX, int WY, int WX>
struct ssam__stc_sizes {
    enum {
        S8 = SSAM_TC_S8(NX), T4 = SSAM_TC_T4(NX), WH = 16 * D, WW = 8 * JX, BH = WH * WY, BWD = WW * WX,
        TR = BH + NY - 1, TC = BWD - 8 + 8 * S8 + 4 * T4, V = (int)(16 / sizeof(T)), OFFR = ((XLO % V) + V) % V,
        TP = ssam__stc_pitch((int)sizeof(T), TC + OFFR, D), VEC = TP % V == 0 && OFFR % 2 == 0, OFF = VEC ? OFFR : 0,
        NCH = (TC + OFF + V - 1) / V, WP = 8 * S8 + 12, NT = 32 * WY * WX, SLOT = TR * TP,
        tile = D >= 1 && D <= 7 && JX >= 1 && WY * WX >= 1 && WY * WX <= 32
    };
    static constexpr size_t smem = ((size_t)2 * TR * TP + (size_t)NZ * NY * WP) * sizeof(T);
};

#endif /* SSAM_STENCIL_TC_SIZES_CUH */
#include <onchip/names_pop.h>
