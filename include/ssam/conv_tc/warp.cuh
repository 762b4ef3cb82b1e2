#include <onchip/names_push.h>
/* ssam/conv_tc/warp.cuh -- the warp pieces of the tensor-core convolution: the filter row as a band,
 * slabs of the staged data, and their MMAs (conv_tc.cuh's HOW; docs/pieces.md).
 *
 * WHAT (MD a mode type, ssam_tc_mode_f64 ... ssam_tc_mode_bf16: conv_tc/frag.cuh)
 *   SSAM_TC_S8(M), SSAM_TC_T4(M)  the band of an M-wide filter row: K = 8 + M - 1 columns per 8-wide
 *                                 x tile, as S8 k8 steps and T4 (0 or 1) k4 steps
 *   ssam_conv_tc_b<MD, S8, T4>(b, wr, cq)
 *       the B fragments of one filter row (S8 k8 steps, T4 k4): wr = &(the row padded with 7 zeros
 *       before, zeros after)[7 + 2c - g]; the lane's band elements of k8 step s are wr[8s], wr[8s + 1],
 *       of the k4 tail wr[8 S8 - c] (its column is c, not 2c).  b: MD::b_t[S8 + T4].
 *   ssam_conv_tc_slab<MD, JX, S8, T4>(h, h4, p, cq)
 *       one slab of the warp's JX x tiles: the JX - 1 + S8 k8 steps (step u of tile j is step u - 1 of
 *       tile j + 1, 8 columns later) into h[JX - 1 + S8] and the JX k4 tails into h4[JX];
 *       p = &tile[row g of the slab][warp's first column + 2c].
 *   ssam__tc_band_mma<MD, JX, S8, T4>(c, hl, hh, h4l, h4h, b)
 *       c[j] += (lo over hi) band for the JX x tiles: S8 k8 steps (step s of tile j is slab j + s)
 *       and the k4 tail.
 *   ssam_conv_tc_rows8<MD, QY, JX, S8, T4, N>(acc, ta, pitch, wr, WP, i0, cq)
 *       acc[QY][JX] += the filter rows i0, i0 + 8, i0 + 16, ... (< N) over the warp's QY x JX tiles
 *       (16 x 8 outputs each).  The fragment of tile row q and filter row i sits at row offset
 *       16 q + i; within one residue i0 = i mod 8 the offsets are 8 apart, so the warp walks slabs
 *       k = 0, 1, ... (rows i0 + 8k + g), keeps the last two, and each pair feeds every (q, i) with
 *       16 q + i = i0 + 8 (k - 1).  ta = &tile[warp's first row + i0 + g][first column + 2c], wr as
 *       above for row 0, WP the padded row's length.
 *   The macro spellings with a MODE token (SSAM_CONV_TC_B, SSAM_CONV_TC_SLAB, SSAM__TC_BAND_MMA,
 *   SSAM_CONV_TC_ROWS8) are one-line wrappers of these.
 * LIMITS
 *   Sizes compile-time; every lane of the warp takes part; sm_80+ for the MMAs.
 */
#ifndef SSAM_CONV_TC_WARP_CUH
#define SSAM_CONV_TC_WARP_CUH

#include "frag.cuh"

#define SSAM_TC_S8(M) (((M) + 7) % 8 > 4 ? ((M) + 7) / 8 + 1 : ((M) + 7) / 8)
#define SSAM_TC_T4(M) (((M) + 7) % 8 > 0 && ((M) + 7) % 8 <= 4 ? 1 : 0)

template <class MD, int S8, int T4>
static __device__ __forceinline__ void ssam_conv_tc_b(typename MD::b_t (&b)[S8 + T4], const typename MD::weight_t *wr,
                                                      int cq)
{
#pragma unroll
    for (int s = 0; s < S8; s++) b[s] = ssam_tc_b(MD(), wr[8 * s], wr[8 * s + 1]);
    if (T4) b[S8 + T4 - 1] = ssam_tc_b(MD(), wr[8 * S8 - cq], 0);
}
#define SSAM_CONV_TC_B(MODE, S8, T4, b, wr, cq) ssam_conv_tc_b<ssam_tc_mode_##MODE, (S8), (T4)>(b, wr, cq)

template <class MD, int JX, int S8, int T4>
static __device__ __forceinline__ void ssam_conv_tc_slab(typename MD::h_t (&h)[JX - 1 + S8], typename MD::h4_t (&h4)[JX],
                                                         const typename MD::elem_t *p, int cq)
{
#pragma unroll
    for (int u = 0; u < JX - 1 + S8; u++) h[u] = ssam_tc_slab(MD(), p + 8 * u);
    if (T4) {
#pragma unroll
        for (int j = 0; j < JX; j++) h4[j] = ssam_tc_slab4(MD(), p + 8 * (j + S8) - cq);
    }
}
#define SSAM_CONV_TC_SLAB(MODE, JX, S8, T4, h, h4, p, cq)                                                   \
    ssam_conv_tc_slab<ssam_tc_mode_##MODE, (JX), (S8), (T4)>(h, h4, p, cq)

/* s outside j: consecutive MMAs are independent; why: docs/ssam.md#conv-tc-design */
template <class MD, int JX, int S8, int T4>
static __device__ __forceinline__ void ssam__tc_band_mma(typename MD::c_t (&c)[JX], const typename MD::h_t (&hl)[JX - 1 + S8],
                                                         const typename MD::h_t (&hh)[JX - 1 + S8],
                                                         const typename MD::h4_t (&h4l)[JX], const typename MD::h4_t (&h4h)[JX],
                                                         const typename MD::b_t (&b)[S8 + T4])
{
#pragma unroll
    for (int s = 0; s < S8; s++)
#pragma unroll
        for (int j = 0; j < JX; j++) ssam_tc_mma(MD(), &c[j], hl[j + s], hh[j + s], b[s]);
    if (T4) {
#pragma unroll
        for (int j = 0; j < JX; j++) ssam_tc_mma4(MD(), &c[j], h4l[j], h4h[j], b[S8 + T4 - 1]);
    }
}
#define SSAM__TC_BAND_MMA(MODE, JX, S8, T4, c, hl, hh, h4l, h4h, b)                                        \
    ssam__tc_band_mma<ssam_tc_mode_##MODE, (JX), (S8), (T4)>(c, hl, hh, h4l, h4h, b)

template <class MD, int QY, int JX, int S8, int T4, int N>
static __device__ __forceinline__ void ssam_conv_tc_rows8(typename MD::c_t (&acc)[QY][JX], const typename MD::elem_t *ta,
                                                          int pitch, const typename MD::weight_t *wr, int WP, int i0,
                                                          int cq)
{
    enum { MB = (N + 7) / 8, KS = MB + 2 * QY };
    typename MD::b_t b[QY > 1 ? MB : 1][S8 + T4]; /* QY 1: each row once, loaded at use */
    typename MD::h_t h[2][JX - 1 + S8];
    typename MD::h4_t h4[2][JX];
    if (QY > 1) {
#pragma unroll
        for (int m = 0; m < MB; m++)
            if (i0 + 8 * m < N) ssam_conv_tc_b<MD, S8, T4>(b[QY > 1 ? m : 0], wr + (i0 + 8 * m) * WP, cq);
    }
#pragma unroll
    for (int k = 0; k < KS; k++) {
        /* slab k is needed while a (q, i) pair still starts at offset 8k - 8 or 8k */
        if (i0 + 8 * k > 16 * QY + N - 9) break;
        ssam_conv_tc_slab<MD, JX, S8, T4>(h[k & 1], h4[k & 1], ta + 8 * k * pitch, cq);
        if (k == 0) continue;
#pragma unroll
        for (int q = 0; q < QY; q++) {
            const int m = k - 1 - 2 * q; /* filter row i0 + 8m */
            if (m < 0 || m >= MB || i0 + 8 * m >= N) continue;
            const int bm = QY > 1 ? m : 0;
            if (QY == 1) ssam_conv_tc_b<MD, S8, T4>(b[0], wr + (i0 + 8 * m) * WP, cq);
            ssam__tc_band_mma<MD, JX, S8, T4>(acc[q], h[(k - 1) & 1], h[k & 1], h4[(k - 1) & 1], h4[k & 1], b[bm]);
        }
    }
}
#define SSAM_CONV_TC_ROWS8(MODE, QY, JX, S8, T4, N, acc, ta, pitch, wr, WP, i0, cq)                         \
    ssam_conv_tc_rows8<ssam_tc_mode_##MODE, (QY), (JX), (S8), (T4), (N)>(acc, ta, pitch, wr, WP, i0, cq)

#endif /* SSAM_CONV_TC_WARP_CUH */
#include <onchip/names_pop.h>
