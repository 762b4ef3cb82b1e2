/* ssam/stencil_tc.cuh -- box stencils on tensor cores: each (dz, dy) row of the stencil's box as a
 * banded matrix (conv_tc.cuh's band), the domain streamed along Z with the partial sums of the planes
 * in flight kept in registers.
 *
 * WHAT
 *   SSAM_STENCIL3D_TC_DEFINE(name, MODE, SHAPE)   a 3D shape X(I, DX, DY, DZ)
 *   SSAM_STENCIL2D_TC_DEFINE(name, MODE, SHAPE)   a 2D shape X(I, DX, DY)
 *   define, with stencil.cuh's arguments, boundaries and codes (ssam_stencil_args):
 *       __global__ void name_kernel(...)                      the tensor-core kernel
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)          one time step
 *       int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 *       int name_path(void)                                   SSAM_PATH_TC or SSAM_PATH_SIMT
 *       int name_ncoef(void), enum name_NPTS, name_XLO .. name_ZHI
 *       name_simt_*                                           stencil.cuh's kernel (the fallback)
 *   MODE as in conv_tc.cuh: f64 (double, FP64 tensor cores, every product and sum in double),
 *   tf32 (float, one TF32 pass: data truncated, weights rounded to 10-bit mantissas, ~2^-10
 *   relative per product), tf32x3 (float, three TF32 passes: FP32-like).  Below sm_80, or for PTX older than sm_80, the launcher runs name_simt_launch;
 *   name_path() says which.  _EX(name, MODE, SHAPE, D, JX, WY, WX, MINB) sets the tile: D-dilated
 *   fragments (below), JX 8-column tiles a warp, WY x WX warps, MINB blocks per SM.
 *
 * HOW
 *   out(z, y, x) = sum over the box's NZ x NY rows (dz, dy) of sum_dx c(dx, dy, dz) in(z+dz, y+dy,
 *   x+dx): each row is a 1D correlation, which the tensor core does as C += A B with A the staged
 *   data (16 rows x K columns) and B the row's coefficients as a band (B[k][x] = c(k - x + XLO, dy,
 *   dz)), K = 8 + NX - 1 rounded up to a multiple of 4 (conv_tc.cuh's k8 steps and k4 tail).
 *   - Partial sums in registers (SSAM section 4.9's Z partial sums, held by the warp): a block owns
 *     a tile of (16 D WY) x (8 JX WX) cells and a segment of planes.  Each input plane is staged
 *     ONCE in shared memory (cp.async, 16 bytes at a time, the next plane's copies in flight while
 *     this one is multiplied) and multiplied into the NZ output planes that read it, each with its
 *     own dz bands: acc[NZ][D][JX] fragments per warp; after each plane the oldest is complete.
 *   - Dilated fragments: a warp's fragment o holds its rows D m + o (m = 0..15), so that one load of
 *     A, rows D m + t, serves every (o, dy) with o + dy = t: D + NY - 1 loads of A per plane feed
 *     D NY NZ band products (SSAM_TC_ZROWS).
 *   - 2D is one plane (NZ 1); a block walks a column of tiles, the next tile's copies in flight.
 *   Useful work / MMA work = NX / K: 5/12 for a radius-2 box (3d125pt: 300 MMA multiply-adds a cell),
 *   9/16 for 9 x 9, 11/20 for 11 x 11.  So f64 (DMMA at twice the FP64 FMA rate) beats a SIMT kernel
 *   only where that kernel is well below its FMA peak: the MMA floor of 3d125pt fp64 is 1.7x the
 *   SIMT path's 63 GCells/s (H200), not 2x.  A shape that is not a full box is computed as its box
 *   with zero coefficients: correct, but it pays for the whole box.
 *   Boundaries: periodic stages wrapped planes, rows and columns; Dirichlet stages zeros outside the
 *   domain and the store puts back the input value of every cell whose stencil leaves it (read from
 *   src: the same bits as stencil.cuh keeps).
 *   Inf and NaN: the band's zeros multiply every staged column and 0 * Inf is NaN, so an Inf or NaN
 *   would spread to cells that do not read it.  A tile whose sums are not all finite (the block
 *   votes at the barrier it needs anyway) is computed again with plain FMAs over the shape's own
 *   points from src (SSAM__STENCIL_TC_FMA): an Inf or NaN reaches exactly the cells that read it.
 *
 * PIECES (warp: SSAM_TC_ZROWS with conv_tc.cuh's, SSAM__TC_BAND_MMA among them; block: the rest)
 *   SSAM_TC_ZROWS             one plane's bands into the partial sums of the NZ planes that read it
 *   SSAM__STENCIL_TC_COPY     one plane (or 2D tile) and its halo into a slot, boundaries applied
 *   SSAM__STENCIL_TC_PUT      Dirichlet cells put back, one fragment stored
 *   SSAM__STENCIL_TC_FMA      a tile with plain FMAs (Inf/NaN)
 *
 * EXAMPLE
 *     #include <ssam/stencil_tc.cuh>
 *     SSAM_STENCIL3D_TC_DEFINE(box125, f64, SSAM_SHAPE_BOX3D_R2)
 *     ssam_stencil_args a = {0};  ...                 // exactly as for SSAM_STENCIL3D_DEFINE
 *     int rc = box125_advance(&a, 100, &u, stream);
 *   examples/box3d_tc.cu runs it beside the SIMT kernel; bench/stencil_tc.cu times every box.
 *
 * LIMITS AND WHEN TO USE IT
 *   stencil.cuh's limits (offsets within +-10), and its SSAM_STENCIL3D_DEFINE (P 1, 128 threads) of the
 *   shape must compile, being the fallback: for float its streaming window of 4 (NZ + 1) NY
 *   registers must be <= 192 (a box of radius <= 2 in y and z), for double the slice or streaming
 *   window its rule picks.  An offset listed twice is refused (SSAM_EFILTER, see SSAM__STC_W3), on
 *   every device.  Two staging slots of (16 D WY + NY - 1) rows and
 *   the padded coefficients must fit in 227 KB of shared memory, and the box's coefficients and
 *   flags in 31 KB of kernel parameters (static_asserts say which).  ceil(ny / (16 D WY)) <= 65535
 *   and the segments <= 65535.  The default tiles fit the catalogue's boxes in their register cap
 *   without spills; another shape may need _EX with a smaller MINB (check with -Xptxas -v).
 *   Accuracy: f64 sums the same products in another order than stencil.cuh (tested < 1e-12
 *   relative per step); tf32 ~2^-10 per product (tested 5e-3 rms); tf32x3 FP32-like (tested 1e-5).
 *   Measured on the H200 (docs/PERFORMANCE.md, "box stencils on tensor cores"): f64 3d125pt 1.07x,
 *   2D r4 / r5 1.08x / 1.21x the SIMT kernel; tf32 3d125pt 1.35x; tf32x3 0.3-0.5x (it is the
 *   accurate mode of the TF32 path, not a faster FP32).  Stars and memory-bound boxes (r <= 2 in
 *   2D, r = 1 in 3D) belong to stencil.cuh.
 */
#ifndef SSAM_STENCIL_TC_CUH
#define SSAM_STENCIL_TC_CUH

#include <string.h>

#include "conv_tc.cuh"
#include "stencil.cuh"

/* the default tile of each mode, 3D and 2D (measured on the H100, bench/stencil_tc.cu): D-dilated
 * fragments (below), JX 8-column tiles per warp, WY x WX warps, MINB blocks per SM (the register cap
 * that fits the catalogue's boxes without spills) */
#define SSAM_STC3_TILE_f64 1, 1, 1, 4, 4 /* D, JX, WY, WX, MINB */
#define SSAM_STC3_TILE_tf32 2, 1, 1, 4, 3
#define SSAM_STC3_TILE_tf32x3 1, 1, 1, 4, 4
#define SSAM_STC2_TILE_f64 1, 2, 2, 4, 1
#define SSAM_STC2_TILE_tf32 2, 2, 1, 4, 1
#define SSAM_STC2_TILE_tf32x3 1, 1, 1, 4, 1

/* index i of an axis of n cells: itself inside, wrapped (periodic) or -1 (Dirichlet: staged as 0):
 * base.cuh's border rule, WRAP or CONSTANT */
#define SSAM__STC_INDEX(i, n, periodic) ssam_border_index(i, n, (periodic) ? SSAM_BORDER_WRAP : SSAM_BORDER_CONSTANT)

/* one element global -> shared without registers (cp.async, sm_80+; zeros when !ok, src not read);
 * a plain copy below sm_80 (never launched there: the launcher takes the SIMT path) */
static __device__ __forceinline__ void ssam__stc_cp4(float *dst, const float *src, int ok)
{
#if SSAM__TC_SM80
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 4 : 0) : "memory");
#else
    *dst = ok ? *src : 0.0f;
#endif
}
static __device__ __forceinline__ void ssam__stc_cp8(double *dst, const double *src, int ok)
{
#if SSAM__TC_SM80
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(ok ? 8 : 0) : "memory");
#else
    *dst = ok ? *src : 0.0;
#endif
}
#define SSAM__STC_CP(T, dst, src, ok)                                                                       \
    do {                                                                                                    \
        if (sizeof(T) == 8) ssam__stc_cp8((double *)(dst), (const double *)(src), ok);                      \
        else ssam__stc_cp4((float *)(dst), (const float *)(src), ok);                                        \
    } while (0)

/* ---- the sizes of one instantiation.  A warp's fragments are D-DILATED: fragment o (0 <= o < D)
 * holds the warp's rows D m + o (m = 0..15), so that one A fragment, rows D m + t of the staged
 * tile, serves every band (dy) and fragment (o) with o + dy = t: D + NY - 1 fragment loads per
 * plane instead of NY (D = 3, NY = 5: 7 loads for 15 products).  The row pitch TP puts a warp's
 * D-strided fragment rows in distinct banks (D TP = 8 mod 32 floats, 8 mod 16 doubles; D <= 7, as
 * TP must stay even for the fragments' paired loads). */
#define SSAM__STC_R(T, D)                                                                                   \
    (sizeof(T) == 8 ? ((D) == 2 || (D) == 6 ? 4 : (D) == 4 ? 2 : 8)                                             \
                    : ((D) == 2 ? 4 : (D) == 3 || (D) == 7 ? 24 : (D) == 4 ? 2 : (D) == 6 ? 12 : 8))
#define SSAM__STC_PITCH(T, TC, D)                                                                           \
    ((TC) + ((SSAM__STC_R(T, D) - (TC) % (sizeof(T) == 8 ? 16 : 32)) + (sizeof(T) == 8 ? 16 : 32)) %        \
                (sizeof(T) == 8 ? 16 : 32))
/* OFF: the staged tile starts OFF elements into its slot, so that a 16-byte chunk of a source row
 * lands on a 16-byte boundary (the tile's first column, x0 + XLO, is XLO mod V past one: x0 is a
 * multiple of 8).  VEC: whole chunks may be copied 16 bytes at a time: rows of a multiple of V, and
 * an even OFF (the fragments' paired loads need even columns; an odd XLO copies element by element) */
#define SSAM__STC_OFF(T, XLO) ((((XLO) % (int)(16 / sizeof(T))) + (int)(16 / sizeof(T))) % (int)(16 / sizeof(T)))
#define SSAM__STC_SIZES(T, NX, NY, XLO, D, JX, WY, WX)                                                     \
    S8 = SSAM_TC_S8(NX), T4 = SSAM_TC_T4(NX), WH = 16 * (D), WW = 8 * (JX), BH = WH * (WY), BWD = WW * (WX),   \
    TR = BH + (NY)-1, TC = BWD - 8 + 8 * S8 + 4 * T4, V = 16 / sizeof(T), OFFR = SSAM__STC_OFF(T, XLO),        \
    TP = SSAM__STC_PITCH(T, TC + OFFR, D), VEC = TP % V == 0 && OFFR % 2 == 0, OFF = VEC ? OFFR : 0,           \
    NCH = (TC + OFF + V - 1) / V, WP = 8 * S8 + 12, NT = 32 * (WY) * (WX), SLOT = TR * TP

/* ---- warp piece: the bands of ONE input plane into the partial sums of the NZ output planes that
 * read it.  acc[NZ][D][JX]: acc[i] belongs to the output plane NZ - 1 - i planes before this input
 * plane's own (band dz index NZ - 1 - i); fragment acc[i][o][j] holds rows D m + o (m = 0..15) of the
 * warp's 16 D rows, columns 8 j .. 8 j + 7.  ta = &slot[warp's first row + D g][warp's first column
 * + 2c]; wr = &wpad[band 0][7 + 2c - g], band (d, dy) at wr + (d NY + dy) WP (conv_tc.cuh's padded
 * rows).  Phase t loads A = (rows D g + t, rows D (g + 8) + t) for the JX x tiles (conv_tc.cuh's
 * slabs) and multiplies it by band (d, dy) into acc[NZ - 1 - d][t - dy] for every d and every dy
 * with 0 <= t - dy < D: D + NY - 1 loads of A feed D NY NZ band products.  B: where SSAM_TC_ZBREG
 * (at most 100 registers, D > 1) every band stays in registers, bands[NY NZ][S8 + T4], loaded once
 * by SSAM_TC_ZBANDS; else each is loaded where it is used. */
#define SSAM_TC_ZBREG(MODE, D, NY, NZ, S8, T4) ((NY) * (NZ) * ((S8) + (T4)) * (int)sizeof(ssam_tcb_##MODE) <= 400 && (D) > 1)
/* the bands in registers, loaded once (where SSAM_TC_ZBREG): ssam_tcb_MODE bands[NY NZ][S8 + T4] */
#define SSAM_TC_ZBANDS(MODE, D, NY, NZ, S8, T4, bands, wr, WP, cq)                                          \
    do {                                                                                                    \
        if (SSAM_TC_ZBREG(MODE, D, NY, NZ, S8, T4))                                                         \
            _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NY) * (NZ); ssam__r++)                       \
                SSAM_CONV_TC_B(MODE, S8, T4, (bands)[SSAM_TC_ZBREG(MODE, D, NY, NZ, S8, T4) ? ssam__r : 0],  \
                               (wr) + ssam__r * (WP), cq);                                                  \
    } while (0)
#define SSAM_TC_ZROWS(MODE, D, NY, NZ, JX, S8, T4, acc, ta, TP, wr, WP, cq, bands)                         \
    do {                                                                                                    \
        /* D 1: phase t is band row dy = t alone, and the phases stay a loop (fewer live registers) */    \
        enum { ssam__BREG = SSAM_TC_ZBREG(MODE, D, NY, NZ, S8, T4), ssam__UNR = (D) > 1 ? (D) + (NY)-1 : 1 }; \
        ssam_tcb_##MODE ssam__b[1][(S8) + (T4)];                                                           \
        _Pragma("unroll (ssam__UNR)") for (int ssam__t = 0; ssam__t < (D) + (NY)-1; ssam__t++) {            \
            ssam_tch_##MODE ssam__hl[(JX)-1 + (S8)], ssam__hh[(JX)-1 + (S8)];                              \
            ssam_tch4_##MODE ssam__4l[(JX)], ssam__4h[(JX)];                                               \
            SSAM_CONV_TC_SLAB(MODE, JX, S8, T4, ssam__hl, ssam__4l, (ta) + ssam__t * (TP), cq);              \
            SSAM_CONV_TC_SLAB(MODE, JX, S8, T4, ssam__hh, ssam__4h, (ta) + (ssam__t + 8 * (D)) * (TP), cq);  \
            _Pragma("unroll") for (int ssam__d = 0; ssam__d < (NZ); ssam__d++)                              \
                _Pragma("unroll") for (int ssam__y = 0; ssam__y < ((D) > 1 ? (NY) : 1); ssam__y++) {        \
                    const int ssam__dy = (D) > 1 ? ssam__y : ssam__t, ssam__o = (D) > 1 ? ssam__t - ssam__y : 0; \
                    const int ssam__r = ssam__d * (NY) + ssam__dy, ssam__i = (NZ)-1 - ssam__d;              \
                    if (ssam__o < 0 || ssam__o >= (D)) continue;                                            \
                    if (!ssam__BREG) SSAM_CONV_TC_B(MODE, S8, T4, ssam__b[0], (wr) + ssam__r * (WP), cq);   \
                    SSAM__TC_BAND_MMA(MODE, JX, S8, T4, (acc)[ssam__i][ssam__o], ssam__hl, ssam__hh, ssam__4l, \
                                      ssam__4h, ssam__BREG ? (bands)[ssam__BREG ? ssam__r : 0] : ssam__b[0]); \
                }                                                                                           \
        }                                                                                                   \
    } while (0)
/* ---- block pieces (inside SSAM__STENCIL_TC_BODY: its sizes TR, TC, TP, V, OFF, VEC, NCH, BH, BWD, NT) ---- */
/* issue the copies of one staging unit: input plane pz (any integer: wrapped, or zeros), rows [ys, ys +
 * TR), columns [xs, xs + TC) into slot[TR][TP] from column OFF on; columns from NC on as 0 (they meet
 * only zero band weights).  A tile wholly inside the domain goes 16 bytes at a time (when vld: src
 * and its pitch 16-byte aligned); otherwise chunks of V columns wholly inside the domain and [0, NC)
 * do, the rest element by element.  Asynchronous: ssam__tc_wait, then a barrier before use. */
#define SSAM__STENCIL_TC_COPY(T, slot, src, g, pz, xs, ys, NC)                                              \
    do {                                                                                                    \
        const int ssam__z = SSAM__STC_INDEX(pz, (g).nz, (g).periodic), ssam__v = VEC && (g).vld;            \
        if (ssam__v && ssam__z >= 0 && (ys) >= 0 && (ys) + TR <= (g).ny && (xs)-OFF >= 0 &&                  \
            (xs)-OFF + NCH * V <= (g).nx) { /* all inside: whole chunks (columns from NC on are finite data: \
                                               they meet zero weights, and a non-finite one only sends the  \
                                               tile to the FMA path) */                                     \
            const T *ssam__b = (src) + ssam__z * (g).plane + (long long)(ys) * (g).pitch + (xs)-OFF;        \
            for (int ssam__i = threadIdx.x; ssam__i < TR * NCH; ssam__i += NT) {                            \
                const int ssam__r = ssam__i / NCH, ssam__h = ssam__i - ssam__r * NCH;                       \
                ssam__tc_cp16((slot) + ssam__r * TP + ssam__h * V, ssam__b + ssam__r * (g).pitch + ssam__h * V); \
            }                                                                                               \
            break;                                                                                          \
        }                                                                                                   \
        for (int ssam__i = threadIdx.x; ssam__i < TR * NCH; ssam__i += NT) {                                \
            const int ssam__r = ssam__i / NCH, ssam__c0 = (ssam__i - ssam__r * NCH) * V - OFF;              \
            const int ssam__y = SSAM__STC_INDEX((ys) + ssam__r, (g).ny, (g).periodic);                      \
            const T *ssam__row = (src) + ssam__z * (g).plane + ssam__y * (g).pitch;                         \
            T *ssam__d = (slot) + ssam__r * TP + OFF + ssam__c0;                                            \
            if (ssam__v && ssam__z >= 0 && ssam__y >= 0 && ssam__c0 >= 0 && ssam__c0 + V <= (NC) &&           \
                (xs) + ssam__c0 >= 0 && (xs) + ssam__c0 + V <= (g).nx) {                                    \
                ssam__tc_cp16(ssam__d, ssam__row + (xs) + ssam__c0);                                       \
            } else {                                                                                        \
                _Pragma("unroll") for (int ssam__e = 0; ssam__e < V; ssam__e++) {                           \
                    const int ssam__c = ssam__c0 + ssam__e;                                                 \
                    if (ssam__c < 0 || ssam__c >= TC) continue;                                             \
                    const int ssam__x = SSAM__STC_INDEX((xs) + ssam__c, (g).nx, (g).periodic);              \
                    const int ssam__ok = ssam__c < (NC) && ssam__z >= 0 && ssam__y >= 0 && ssam__x >= 0;    \
                    SSAM__STC_CP(T, ssam__d + ssam__e, ssam__ok ? ssam__row + ssam__x : (src), ssam__ok);   \
                }                                                                                           \
            }                                                                                               \
        }                                                                                                   \
    } while (0)

/* bad |= one of the fragments' sums is not finite (an Inf or NaN among the planes, which the band's
 * zeros spread, or an overflow): the tile is then computed again with SSAM__STENCIL_TC_FMA */
#define SSAM__STENCIL_TC_NONFINITE(MODE, D, JX, acc, bad)                                                   \
    _Pragma("unroll") for (int ssam__o = 0; ssam__o < (D); ssam__o++)                                       \
        _Pragma("unroll") for (int ssam__j = 0; ssam__j < (JX); ssam__j++) {                                \
            const ssam_tcp_##MODE ssam__p = ssam_tc_plain_##MODE((acc)[ssam__o][ssam__j]);                  \
            _Pragma("unroll") for (int ssam__k = 0; ssam__k < 4; ssam__k++) (bad) |= !isfinite(ssam__p.v[ssam__k]); \
        }

/* a cell of output plane z, row y, column x is a Dirichlet cell (its stencil leaves the domain) */
#define SSAM__STENCIL_TC_FIXED(g, z, y, x, XLO, XHI, YLO, YHI, ZLO, ZHI)                                     \
    (!(g).periodic && ((z) < -(ZLO) || (z) >= (g).nz - (ZHI) || (y) < -(YLO) || (y) >= (g).ny - (YHI) ||        \
                       (x) < -(XLO) || (x) >= (g).nx - (XHI)))

/* fragment c: rows y, y2 (its rows g, g + 8), columns x, x + 1 of output plane z (srcz, dstz: that
 * plane in src and dst): Dirichlet cells take their input value (chk: the tile may hold some), then
 * it is stored */
#define SSAM__STENCIL_TC_PUT(MODE, c, g, srcz, dstz, z, y, y2, x, chk, XLO, XHI, YLO, YHI, ZLO, ZHI)           \
    do {                                                                                                    \
        ssam_tcp_##MODE ssam__p = ssam_tc_plain_##MODE(c);                                                  \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < 4; ssam__k++) {                                   \
            const int ssam__y = ssam__k < 2 ? (y) : (y2), ssam__x = (x) + (ssam__k & 1);                    \
            if ((chk) && ssam__y < (g).ny && ssam__x < (g).nx &&                                            \
                SSAM__STENCIL_TC_FIXED(g, z, ssam__y, ssam__x, XLO, XHI, YLO, YHI, ZLO, ZHI))                \
                ssam__p.v[ssam__k] = (srcz)[(long long)ssam__y * (g).pitch + ssam__x];                      \
        }                                                                                                   \
        ssam_tc_storep2_##MODE(dstz, (g).pitch, y, y2, x, (g).nx, (g).ny, (g).vst, ssam__p);                \
    } while (0)

/* one output tile of plane z (rows yb.., columns xb..) with plain FMAs over the box's positions that
 * are points of the shape (in[e] != 0; coefficients w[e], both the kernel's parameters), values read
 * from src: for the outputs whose planes hold an Inf or NaN (the band's zeros would spread them).  A
 * loop, not an unrolled point list: this rare path must not cost the MMA path registers. */
#define SSAM__STENCIL_TC_FMA(T, NX, NY, NZ, w, in, src, g, dst, z, yb, xb, XLO, XHI, YLO, YHI, ZLO, ZHI)     \
    for (int ssam__o = threadIdx.x; ssam__o < BH * BWD; ssam__o += NT) {                                   \
        const int ssam__y = (yb) + ssam__o / BWD, ssam__x = (xb) + ssam__o % BWD;                           \
        const long long ssam__at = (z) * (g).plane + (long long)ssam__y * (g).pitch + ssam__x;              \
        if (ssam__y >= (g).ny || ssam__x >= (g).nx) continue;                                               \
        T ssam__s = 0;                                                                                      \
        if (SSAM__STENCIL_TC_FIXED(g, z, ssam__y, ssam__x, XLO, XHI, YLO, YHI, ZLO, ZHI)) {                  \
            ssam__s = (src)[ssam__at];                                                                      \
        } else {                                                                                            \
            _Pragma("unroll 1") for (int ssam__e = 0; ssam__e < (NX) * (NY) * (NZ); ssam__e++) {            \
                if (!(in)[ssam__e]) continue;                                                               \
                const int ssam__pz = SSAM__STC_INDEX((z) + ssam__e / ((NX) * (NY)) + (ZLO), (g).nz, 1);      \
                const int ssam__py = SSAM__STC_INDEX(ssam__y + ssam__e / (NX) % (NY) + (YLO), (g).ny, 1);    \
                const int ssam__px = SSAM__STC_INDEX(ssam__x + ssam__e % (NX) + (XLO), (g).nx, 1);           \
                ssam__s = fma((w)[ssam__e], (src)[ssam__pz * (g).plane + ssam__py * (g).pitch + ssam__px], ssam__s); \
            }                                                                                               \
        }                                                                                                   \
        (dst)[ssam__at] = ssam__s;                                                                          \
    }

/* the kernel body.  A block owns column tile x0 and a segment [ka, kb) of steps; 3D (WALK 0): step k
 * is output plane k of the tile at rows y0, and input plane ka + ZLO + u is staging unit u (the
 * segment's kb - ka + NZ - 1 planes); 2D (WALK 1, NZ 1): step k is the tile at rows k BH, unit u the
 * tile ka + u.  Unit u + 1 is copied into one slot while unit u is multiplied from the other into
 * the partial sums acc[NZ][D][JX] (SSAM_TC_ZROWS); then output k = ka + u - (NZ - 1), acc[0], is
 * complete: stored, or computed again with FMAs when a sum is not finite (the barrier's vote), and
 * the sums move one plane on. */
#define SSAM__STENCIL_TC_BODY(MODE, WALK, NX, NY, NZ, XLO, YLO, ZLO, D, JX, WY, WX, src, dst, g, w, in)     \
    do {                                                                                                    \
        typedef SSAM_TC_T_##MODE T;                                                                         \
        enum { SSAM__STC_SIZES(T, NX, NY, XLO, D, JX, WY, WX) };                                            \
        enum { XHI_ = (XLO) + (NX)-1, YHI_ = (YLO) + (NY)-1, ZHI_ = (ZLO) + (NZ)-1 };                        \
        static_assert(TP % 2 == 0, "ssam stencil_tc: the row pitch must be even (paired fragment loads)");  \
        extern __shared__ __align__(16) unsigned char ssam__tcsm[];                                         \
        T *wpad = (T *)ssam__tcsm, *ring = wpad + (NZ) * (NY)*WP;                                           \
        const int lane = threadIdx.x & 31, gq = lane >> 2, cq = lane & 3, warp = threadIdx.x >> 5;          \
        const int wr0 = warp / (WX) * WH, wc0 = warp % (WX) * WW;                                           \
        const int x0 = blockIdx.x * BWD, y0 = (WALK) ? 0 : blockIdx.y * BH, ka = blockIdx.z * (g).seg;      \
        const int kn = (WALK) ? ((g).ny + BH - 1) / BH : (g).nz, kb = ka + (g).seg < kn ? ka + (g).seg : kn; \
        const int units = kb - ka + (NZ)-1;                                                                 \
        ssam_tcc_##MODE acc[NZ][D][JX];                                                                     \
        _Pragma("unroll") for (int i = 0; i < (NZ); i++)                                                    \
            _Pragma("unroll") for (int o = 0; o < (D); o++)                                                 \
                _Pragma("unroll") for (int j = 0; j < (JX); j++) ssam_tc_zero_##MODE(&acc[i][o][j]);        \
        SSAM__CONV_TC_WEIGHTS(T, wpad, WP, NX, (NZ) * (NY), w, NT);                                         \
        SSAM__STENCIL_TC_COPY(T, ring, src, g, (WALK) ? 0 : ka + (ZLO), x0 + (XLO), ((WALK) ? ka * BH : y0) + (YLO), \
                              BWD + (NX)-1);                                                                \
        ssam__tc_wait();                                                                               \
        __syncthreads();                                                                                    \
        ssam_tcb_##MODE bands[SSAM_TC_ZBREG(MODE, D, NY, NZ, S8, T4) ? (NY) * (NZ) : 1][S8 + T4];          \
        SSAM_TC_ZBANDS(MODE, D, NY, NZ, S8, T4, bands, wpad + 7 + 2 * cq - gq, WP, cq);                     \
        for (int u = 0; u < units; u++) {                                                                   \
            const int k = ka + u - ((NZ)-1), z = (WALK) ? 0 : k, yb = (WALK) ? k * BH : y0;                 \
            const T *slot = ring + (u & 1) * SLOT + OFF;                                                    \
            if (u + 1 < units) /* the next unit's copies fly while this one is multiplied */               \
                SSAM__STENCIL_TC_COPY(T, ring + ((u + 1) & 1) * SLOT, src, g, (WALK) ? 0 : ka + (ZLO) + u + 1, \
                                      x0 + (XLO), ((WALK) ? (ka + u + 1) * BH : y0) + (YLO), BWD + (NX)-1); \
            SSAM_TC_ZROWS(MODE, D, NY, NZ, JX, S8, T4, acc, slot + (wr0 + (D)*gq) * TP + wc0 + 2 * cq, TP,      \
                          wpad + 7 + 2 * cq - gq, WP, cq, bands);                                           \
            ssam__tc_wait();                                                                               \
            int bad = 0;                                                                                    \
            if (k >= ka) SSAM__STENCIL_TC_NONFINITE(MODE, D, JX, acc[0], bad);                              \
            bad = __syncthreads_or(bad); /* the next unit visible to all; this slot free for copies */     \
            if (k >= ka) {                                                                                  \
                const int chk = !(g).periodic && (z < -(ZLO) || z >= (g).nz - ZHI_ || yb < -(YLO) ||              \
                                                  yb + BH > (g).ny - YHI_ || x0 < -(XLO) || x0 + BWD > (g).nx - XHI_); \
                if (bad) {                                                                                  \
                    SSAM__STENCIL_TC_FMA(T, NX, NY, NZ, w, in, src, g, dst, z, yb, x0, XLO, XHI_, YLO, YHI_, ZLO, ZHI_); \
                } else {                                                                                    \
                    _Pragma("unroll") for (int o = 0; o < (D); o++)                                         \
                        _Pragma("unroll") for (int j = 0; j < (JX); j++)                                    \
                            SSAM__STENCIL_TC_PUT(MODE, acc[0][o][j], g, (src) + (long long)z * (g).plane,   \
                                                 (dst) + (long long)z * (g).plane, z, yb + wr0 + (D)*gq + o, \
                                                 yb + wr0 + (D) * (gq + 8) + o, x0 + wc0 + 8 * j + 2 * cq, chk, XLO, \
                                                 XHI_, YLO, YHI_, ZLO, ZHI_);                               \
                }                                                                                           \
            }                                                                                               \
            _Pragma("unroll") for (int i = 0; i + 1 < (NZ); i++) /* the partial sums move one plane on */  \
                _Pragma("unroll") for (int o = 0; o < (D); o++)                                             \
                    _Pragma("unroll") for (int j = 0; j < (JX); j++) acc[i][o][j] = acc[i + 1][o][j];       \
            _Pragma("unroll") for (int o = 0; o < (D); o++)                                                 \
                _Pragma("unroll") for (int j = 0; j < (JX); j++) ssam_tc_zero_##MODE(&acc[(NZ)-1][o][j]);   \
        }                                                                                                   \
    } while (0)

/* shared bytes of one block: the padded coefficient rows and two staging slots */
#define SSAM__STENCIL_TC_SMEM(MODE, NX, NY, NZ, XLO, D, JX, WY, WX)                                         \
    (((size_t)2 * (16 * (D) * (WY) + (NY)-1) *                                                             \
          SSAM__STC_PITCH(SSAM_TC_T_##MODE,                                                                 \
                          8 * (JX) * (WX)-8 + 8 * SSAM_TC_S8(NX) + 4 * SSAM_TC_T4(NX) + SSAM__STC_OFF(SSAM_TC_T_##MODE, XLO), D) + \
      (size_t)(NZ) * (NY) * (8 * SSAM_TC_S8(NX) + 12)) *                                                   \
     sizeof(SSAM_TC_T_##MODE))

/* the box's coefficients on the host: c[I] at its (DZ, DY, DX) (the function's enum ssam__nx ..
 * ssam__zlo names the box), and in[] flags the shape's points; ssam__dup: an offset listed twice,
 * refused (SSAM_EFILTER): the tensor cores would see one coefficient, the sum, and where an Inf
 * meets it that differs from stencil.cuh's two products (Inf - Inf is NaN, (c1 - c2) Inf is not) */
#define SSAM__STC_W3(I, DX, DY, DZ)                                                                         \
    ssam__w->w[(((DZ)-ssam__zlo) * ssam__ny + (DY)-ssam__ylo) * ssam__nx + (DX)-ssam__xlo] = ssam__c[I];          \
    ssam__dup |= ssam__w->in[(((DZ)-ssam__zlo) * ssam__ny + (DY)-ssam__ylo) * ssam__nx + (DX)-ssam__xlo]++;
#define SSAM__STC_W2(I, DX, DY) SSAM__STC_W3(I, DX, DY, 0)

/* the kernel, name_path, name_launch, name_advance over name_simt (stencil.cuh's definition of the
 * same shape, which supplies the extents, name_simt_ncoef and the fallback) */
#define SSAM__STENCIL_TC_DEFINE_X(name, MODE, SHAPE, WPT, DIMS, ZLO_, ZHI_, D, JX, WY, WX, MINB)             \
    enum {                                                                                                  \
        name##_NPTS = name##_simt_NPTS, name##_XLO = name##_simt_XLO, name##_XHI = name##_simt_XHI,          \
        name##_YLO = name##_simt_YLO, name##_YHI = name##_simt_YHI, name##_ZLO = (ZLO_), name##_ZHI = (ZHI_), \
        name##__NX = name##_XHI - name##_XLO + 1, name##__NY = name##_YHI - name##_YLO + 1,                  \
        name##__NZ = name##_ZHI - name##_ZLO + 1                                                            \
    };                                                                                                      \
    typedef struct name##_w { /* the box: coefficients, and which positions are points of the shape */     \
        SSAM_TC_T_##MODE w[name##__NX * name##__NY * name##__NZ];                                           \
        unsigned char in[name##__NX * name##__NY * name##__NZ];                                             \
    } name##_w;                                                                                             \
    static_assert(sizeof(name##_w) <= 31 * 1024, "ssam stencil_tc: the box's coefficients exceed 31 KB of "  \
                                                  "kernel parameters; use stencil.cuh for this shape");     \
    static_assert(SSAM__STENCIL_TC_SMEM(MODE, name##__NX, name##__NY, name##__NZ, name##_XLO, D, JX, WY, WX) <= 227 * 1024, \
                  "ssam stencil_tc: the ring of planes exceeds 227 KB of shared memory; use a smaller tile "  \
                  "(SSAM_STENCIL3D_TC_DEFINE_EX) or stencil.cuh");                                          \
    static_assert((D) >= 1 && (D) <= 7 && (JX) >= 1 && (WY) * (WX) >= 1 && (WY) * (WX) <= 32,             \
                  "ssam stencil_tc: the tile needs 1 <= D <= 7 (D 8 would need an odd row pitch, and the "  \
                  "fragments' paired loads even rows), JX >= 1 and 1 to 32 warps");                         \
    __global__ void __launch_bounds__(32 * (WY) * (WX), MINB)                                               \
        name##_kernel(const SSAM_TC_T_##MODE *__restrict__ src, SSAM_TC_T_##MODE *__restrict__ dst,         \
                      ssam_stencil_geom g, const __grid_constant__ name##_w wt)                             \
    {                                                                                                       \
        SSAM__STENCIL_TC_BODY(MODE, (DIMS) == 2, name##__NX, name##__NY, name##__NZ, name##_XLO, name##_YLO, \
                              name##_ZLO, D, JX, WY, WX, src, dst, g, wt.w, wt.in);                         \
    }                                                                                                       \
    static inline __attribute__((unused)) int name##_ncoef(void) { return name##_simt_ncoef(); }           \
    static __attribute__((unused)) ssam__tc_dev name##__dev = {0, 0, 0, 0}; /* asked once per device */     \
    static inline __attribute__((unused)) int name##_path(void) /* the path name_launch takes here */      \
    {                                                                                                       \
        return ssam__tc_path_of(&name##__dev, (const void *)name##_kernel, 32 * (WY) * (WX),                 \
                                SSAM__STENCIL_TC_SMEM(MODE, name##__NX, name##__NY, name##__NZ, name##_XLO, D, JX, WY, WX)); \
    }                                                                                                       \
    SSAM__STENCIL_TC_LAUNCH(name, MODE, SHAPE, WPT, DIMS, D, JX, WY, WX)                                    \
    SSAM__STENCIL_ADVANCE(name)

#define SSAM__STENCIL_TC_LAUNCH(name, MODE, SHAPE, WPT, DIMS, D, JX, WY, WX)                                \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, cudaStream_t stream) \
    {                                                                                                       \
        typedef SSAM_TC_T_##MODE T;                                                                         \
        enum { ssam__nx = name##__NX, ssam__ny = name##__NY, ssam__xlo = name##_XLO, ssam__ylo = name##_YLO, \
               ssam__zlo = name##_ZLO };                                                                    \
        const size_t smem = SSAM__STENCIL_TC_SMEM(MODE, name##__NX, name##__NY, name##__NZ, name##_XLO, D, JX, WY, WX);  \
        ssam__tc_dev *dv = &name##__dev;                                                                    \
        static int occ[2] = {0, 0};                                                                         \
        ssam_stencil_args b;                                                                                \
        ssam_stencil_geom g;                                                                                \
        name##_w wt, *ssam__w = &wt;                                                                        \
        dim3 grid;                                                                                          \
        int rc;                                                                                             \
        if (!a || !a->src || !a->dst || !a->coef) return SSAM_ENULL;                                        \
        memset(&wt, 0, sizeof wt); /* the box; an offset listed twice is refused on every path */          \
        if (a->ncoef == name##_ncoef()) {                                                                   \
            const T *ssam__c = (const T *)a->coef;                                                          \
            int ssam__dup = 0;                                                                              \
            SHAPE(WPT)                                                                                      \
            if (ssam__dup) return SSAM_EFILTER;                                                             \
        }                                                                                                   \
        rc = ssam__conv_tc_setup(dv, (const void *)name##_kernel, 32 * (WY) * (WX), smem);                  \
        if (rc) return rc;                                                                                  \
        if (dv->path != SSAM_PATH_TC) return name##_simt_launch(a, stream);                                 \
        b = *a; /* a 2D domain is one plane (whatever plane says), its tiles walked in segments */         \
        if ((DIMS) == 2 && b.nz != 0 && b.nz != 1) return SSAM_ESIZE;                                       \
        if ((DIMS) == 2) b.nz = 1, b.plane = 0;                                                             \
        rc = ssam__stencil_prepare(&b, 3, name##_ncoef(), sizeof(T), SSAM_STENCIL_V(T), 8 * (JX) * (WX),    \
                                   32 * (WY) * (WX), 1, (DIMS) == 2 ? (1 << 30) : 16 * (D) * (WY), name##__NZ, \
                                   &g, &grid, (const void *)name##_kernel, occ, smem, 0, -1);               \
        if (rc) return rc;                                                                                  \
        if ((DIMS) == 2) rc = ssam__stc_grid2d(&g, 16 * (D) * (WY), dv, &grid);                             \
        if (rc) return rc;                                                                                  \
        name##_kernel<<<grid, 32 * (WY) * (WX), smem, stream>>>((const T *)a->src, (T *)a->dst, g, wt);     \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                            \
    }

/* 2D: a block walks a segment of the tile rows of its column (grid.z segments), the next tile's
 * copies in flight during this one: the segment length of ssam__stencil_segments_warm (whole waves
 * of resident blocks, one tile of warm-up) */
static inline int ssam__stc_grid2d(ssam_stencil_geom *g, int BH, const ssam__tc_dev *d, dim3 *grid)
{
    const long long rows = ((long long)g->ny + BH - 1) / BH;
    g->seg = (int)ssam__stencil_segments_warm(rows, grid->x, (long long)d->per_sm * d->sms, 1);
    grid->y = 1;
    grid->z = (unsigned)((rows + g->seg - 1) / g->seg);
    return grid->z <= 65535 ? SSAM_SUCCESS : SSAM_ESIZE;
}

/* the generators */
#define SSAM_STENCIL3D_TC_DEFINE(name, MODE, SHAPE) SSAM__STC3_DEFAULT(name, MODE, SHAPE, SSAM_STC3_TILE_##MODE)
#define SSAM__STC3_DEFAULT(name, MODE, SHAPE, ...) SSAM_STENCIL3D_TC_DEFINE_EX(name, MODE, SHAPE, __VA_ARGS__)
#define SSAM_STENCIL3D_TC_DEFINE_EX(name, MODE, SHAPE, D, JX, WY, WX, MINB)                                 \
    SSAM_STENCIL3D_DEFINE(name##_simt, SSAM_TC_T_##MODE, SHAPE, 1, 128)                                     \
    SSAM__STENCIL_TC_DEFINE_X(name, MODE, SHAPE, SSAM__STC_W3, 3, name##_simt_ZLO,            \
                              name##_simt_ZHI, D, JX, WY, WX, MINB)
#define SSAM_STENCIL2D_TC_DEFINE(name, MODE, SHAPE) SSAM__STC2_DEFAULT(name, MODE, SHAPE, SSAM_STC2_TILE_##MODE)
#define SSAM__STC2_DEFAULT(name, MODE, SHAPE, ...) SSAM_STENCIL2D_TC_DEFINE_EX(name, MODE, SHAPE, __VA_ARGS__)
#define SSAM_STENCIL2D_TC_DEFINE_EX(name, MODE, SHAPE, D, JX, WY, WX, MINB)                                 \
    SSAM_STENCIL2D_DEFINE(name##_simt, SSAM_TC_T_##MODE, SHAPE, 1, 128)                                     \
    SSAM__STENCIL_TC_DEFINE_X(name, MODE, SHAPE, SSAM__STC_W2, 2, 0, 0, D, JX, WY, WX, MINB)

#endif /* SSAM_STENCIL_TC_CUH */
