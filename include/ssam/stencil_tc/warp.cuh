#include <onchip/names_push.h>
/* ssam/stencil_tc/warp.cuh -- the warp pieces of the tensor-core stencils: an input plane's bands into
 * the partial sums of the output planes that read it. */
#ifndef SSAM_STENCIL_TC_WARP_CUH
#define SSAM_STENCIL_TC_WARP_CUH

#include "../conv_tc/warp.cuh"

/* ---- warp pieces: one input plane's bands into the partial sums of the NZ output planes that read
 * it.  acc[i][o][j]: output plane NZ - 1 - i planes back, rows D m + o, columns 8 j ..; ta =
 * &slot[first row + D g][first column + 2c]; wr = &wpad[band 0][7 + 2c - g], band (d, dy) at
 * wr + (d NY + dy) WP.  Phase t loads rows D g + t, D (g + 8) + t and feeds acc[NZ - 1 - d][t - dy].
 * ssam_tc_zbreg (<= 100 registers, D > 1): every band in registers (ssam_tc_zbands). */
template <class MD, int D, int NY, int NZ, int S8, int T4>
static __host__ __device__ constexpr int ssam_tc_zbreg(void)
{
    return NY * NZ * (S8 + T4) * (int)sizeof(typename MD::b_t) <= 400 && D > 1;
}
#define SSAM_TC_ZBREG(MODE, D, NY, NZ, S8, T4) ssam_tc_zbreg<ssam_tc_mode_##MODE, D, NY, NZ, S8, T4>()
template <class MD, int D, int NY, int NZ, int S8, int T4, int NB>
static __device__ __forceinline__ void ssam_tc_zbands(typename MD::b_t (&bands)[NB][S8 + T4], const typename MD::weight_t *wr,
                                                      int WP, int cq)
{
    enum { BREG = ssam_tc_zbreg<MD, D, NY, NZ, S8, T4>() };
    if (BREG) {
#pragma unroll
        for (int r = 0; r < NY * NZ; r++) ssam_conv_tc_b<MD, S8, T4>(bands[BREG ? r : 0], wr + r * WP, cq);
    }
}
#define SSAM_TC_ZBANDS(MODE, D, NY, NZ, S8, T4, bands, wr, WP, cq)                                      \
    ssam_tc_zbands<ssam_tc_mode_##MODE, D, NY, NZ, S8, T4>(bands, wr, WP, cq)
template <class MD, int D, int NY, int NZ, int JX, int S8, int T4, int NB>
static __device__ __forceinline__ void ssam_tc_zrows(typename MD::c_t (&acc)[NZ][D][JX], const typename MD::elem_t *ta, int TP,
                                                     const typename MD::weight_t *wr, int WP, int cq,
                                                     typename MD::b_t (&bands)[NB][S8 + T4])
{
    /* D 1: phase t is band row dy = t alone, and the phases stay a loop (fewer live registers) */
    enum { BREG = ssam_tc_zbreg<MD, D, NY, NZ, S8, T4>(), UNR = D > 1 ? D + NY - 1 : 1 };
    typename MD::b_t b[1][S8 + T4];
#pragma unroll(UNR)
    for (int t = 0; t < D + NY - 1; t++) {
        typename MD::h_t hl[JX - 1 + S8], hh[JX - 1 + S8];
        typename MD::h4_t h4l[JX], h4h[JX];
        ssam_conv_tc_slab<MD, JX, S8, T4>(hl, h4l, ta + t * TP, cq);
        ssam_conv_tc_slab<MD, JX, S8, T4>(hh, h4h, ta + (t + 8 * D) * TP, cq);
#pragma unroll
        for (int d = 0; d < NZ; d++)
#pragma unroll
            for (int y = 0; y < (D > 1 ? NY : 1); y++) {
                const int dy = D > 1 ? y : t, o = D > 1 ? t - y : 0;
                const int r = d * NY + dy, i = NZ - 1 - d;
                if (o < 0 || o >= D) continue;
                if (!BREG) ssam_conv_tc_b<MD, S8, T4>(b[0], wr + r * WP, cq);
                ssam__tc_band_mma<MD, JX, S8, T4>(acc[i][o], hl, hh, h4l, h4h, BREG ? bands[BREG ? r : 0] : b[0]);
            }
    }
}
#define SSAM_TC_ZROWS(MODE, D, NY, NZ, JX, S8, T4, acc, ta, TP, wr, WP, cq, bands)                      \
    ssam_tc_zrows<ssam_tc_mode_##MODE, D, NY, NZ, JX, S8, T4>(acc, ta, TP, wr, WP, cq, bands)

#endif /* SSAM_STENCIL_TC_WARP_CUH */
#include <onchip/names_pop.h>
