#include <onchip/names_push.h>
/* ssam/stencil_tc.cuh -- box stencils on tensor cores: each (dz, dy) row of the stencil's box as a
 * banded matrix (conv_tc.cuh's band), the domain streamed along z with the partial sums of the planes
 * in flight kept in registers.
 *
 * WHAT (docs/ssam.md#box-stencils-on-tensor-cores-stencil_tccuh)
 *   SSAM_STENCIL3D_TC_DEFINE(name, MODE, SHAPE, ssam_stencil_tc_policy<D, JX, WY, WX, MINB>)  3D shape
 *   SSAM_STENCIL2D_TC_DEFINE(name, MODE, SHAPE, ssam_stencil_tc_policy<...>)  a 2D shape X(I, DX, DY)
 *   define, with stencil.cuh's ssam_stencil_args, boundaries and codes:
 *       __global__ name_kernel                                the tensor-core kernel
 *       int name_plan(const ssam_stencil_args *a, ssam_plan *p)   every check, the path here; no launch
 *       int name_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t)   a->steps steps
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)  name_plan, then name_run
 *       int name_ncoef(void), enum name_NPTS, name_XLO .. name_ZHI
 *       name_simt_*                                           stencil.cuh's instance (the fallback)
 *   The plan: path SSAM_PATH_TC or SSAM_PATH_SIMT (a->path 0: this device's; either one forces it, TC
 *   where it cannot run is SSAM_EFLAGS), why; the rest as stencil.cuh's (passes a->steps, result ...).
 *   MODE f64 (FP64 MMAs, every product and sum in double), tf32 (one TF32 pass, ~2^-10 a product),
 *   tf32x3 (three TF32 passes: FP32-like).  The fallback runs below sm_80, for PTX older than sm_80,
 *   or where the device lacks the shared memory.  The policy is the tile: D-dilated fragments, JX
 *   8-column tiles a warp, WY x WX warps, MINB blocks per SM; a field 0 (every one by default:
 *   ssam_stencil_tc_policy<>) the MODE's default tile (SSAM_STC3_TILE_MODE, SSAM_STC2_TILE_MODE).
 *
 * HOW  Each (dz, dy) row of the box is a 1D correlation, C += A B with A the staged data and B the
 *   row's band (B[k][x] = c(k - x + XLO, dy, dz)).  A block stages each input plane once (cp.async)
 *   and multiplies it into the NZ output planes that read it, acc[NZ][D][JX] a warp; fragment o holds
 *   rows D m + o, so D + NY - 1 loads of A feed D NY NZ products.  Dirichlet cells get their input back
 *   at the store; a tile whose sums are not all finite is computed again with FMAs over the shape's
 *   points.  A shape that is not a full box is computed as its box.  docs/ssam.md#stencil-tc-design.
 *
 * PIECES (MD a mode type: conv_tc/frag.cuh)  warp: ssam_tc_zrows<MD, D, NY, NZ, JX, S8, T4>(acc, ta,
 *   TP, wr, WP, cq, bands) (SSAM_TC_ZROWS), ssam_tc_zbands, ssam_tc_zbreg; block: ssam__stc_copy, _put,
 *   _fma, ssam__stencil_tc_body; host: ssam__stc_box, ssam__stencil_tc_plan, ssam__stencil_tc_run
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#tc-glossary.
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/stencil_tc.cuh>
 *     SSAM_STENCIL3D_TC_DEFINE(box125, f64, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<>)
 *
 *     ssam_stencil_args a = {};  // ...               // exactly as for SSAM_STENCIL3D_DEFINE
 *     ssam_plan p;
 *     a.steps = 100;
 *     int rc = box125_plan(&a, &p);                   // p.path SSAM_PATH_TC on sm_80+, p.why
 *     if (!rc) rc = box125_run(&a, &p, stream);       // p.result a.src; both: box125_launch(&a, stream)
 *   examples/box3d_tc.cu runs it beside the SIMT kernel; bench/ssam_stencil_tc.cu times every box.
 *
 * LIMITS AND WHEN TO USE IT
 *   stencil.cuh's limits, and its SSAM_STENCIL3D_DEFINE (P 1, 128 threads) of the shape must compile
 *   (the fallback: for float a box of radius <= 2 in y and z).  An offset listed twice: SSAM_EFILTER
 *   on every device.  Two staging slots of (16 D WY + NY - 1) rows and the padded coefficients within
 *   227 KB of shared memory, the box's coefficients and flags within 31 KB of parameters, 1 <= D <= 7
 *   (static_asserts; tests/compile-fail/ssam_stencil_tc_*.cu).  ceil(ny / (16 D WY)) <= 65535 and the
 *   segments <= 65535.  Another shape than the catalogue's may need a policy's smaller MINB (check
 *   with -Xptxas -v).  Accuracy (tested): f64 < 1e-12 relative a step, tf32 5e-3 rms, tf32x3 1e-5.
 *   It pays for the large boxes (3D radius 2, 2D r >= 4); stars and memory-bound boxes belong to
 *   stencil.cuh (docs/ssam.md#stencil-tc-design).
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(src, dst, g, name_w wt) (sm_80+), name_simt_kernel;
 *   no name_plan, name_run, name_launch, name_ncoef (name_w's box is ssam__stc_box's, host code).
 */
#ifndef SSAM_STENCIL_TC_CUH
#define SSAM_STENCIL_TC_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <string.h>
#endif

#include <onchip/async.cuh>

#include "conv_tc.cuh"
#include "stencil.cuh"

/* the default tile of each mode, 3D and 2D (a policy's 0 fields); why: docs/ssam.md#stencil-tc-design */
#define SSAM_STC3_TILE_f64 1, 1, 1, 4, 4 /* D, JX, WY, WX, MINB */
#define SSAM_STC3_TILE_tf32 2, 1, 1, 4, 3
#define SSAM_STC3_TILE_tf32x3 1, 1, 1, 4, 4
#define SSAM_STC2_TILE_f64 1, 2, 2, 4, 1
#define SSAM_STC2_TILE_tf32 2, 2, 1, 4, 1
#define SSAM_STC2_TILE_tf32x3 1, 1, 1, 4, 1
/* conv_tc.cuh's half modes: refused by the generators with a sentence (MODE must be f64, tf32 or tf32x3) */
#define SSAM_STC3_TILE_f16 1, 1, 1, 4, 1
#define SSAM_STC3_TILE_bf16 1, 1, 1, 4, 1
#define SSAM_STC2_TILE_f16 1, 1, 1, 4, 1
#define SSAM_STC2_TILE_bf16 1, 1, 1, 4, 1

/* index i of an axis of n cells: itself inside, wrapped (periodic) or -1 (Dirichlet: staged as 0):
 * base.cuh's border rule, WRAP or CONSTANT */
static __host__ __device__ __forceinline__ int ssam__stc_index(int i, int n, int periodic)
{
    return ssam_border_index(i, n, periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_CONSTANT);
}

/* one element global -> shared without registers (onchip/async.cuh; zeros when !ok, src not read) */
static __device__ __forceinline__ void ssam__stc_cp(float *dst, const float *src, int ok) { onchip_cp_async4(dst, src, ok); }
static __device__ __forceinline__ void ssam__stc_cp(double *dst, const double *src, int ok) { onchip_cp_async8(dst, src, ok); }

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

/* ---- block pieces (Z: the instantiation's ssam__stc_sizes) ---------------------------------- */
/* the copies of one staging unit: plane pz (wrapped, or zeros), rows [ys, ys + TR), columns [xs, xs +
 * TC) into slot from column OFF on, columns from NC on as 0; 16-byte chunks where wholly inside (and
 * vld), else elements.  Asynchronous: onchip_cp_async_wait_all, then a barrier. */
template <class Z, class T>
static __device__ __forceinline__ void ssam__stc_copy(T *slot, const T *src, const ssam_stencil_geom g, int pz, int xs, int ys,
                                                      int NC)
{
    enum { TR = Z::TR, TC = Z::TC, TP = Z::TP, V = Z::V, OFF = Z::OFF, NCH = Z::NCH, NT = Z::NT };
    const int z = ssam__stc_index(pz, g.nz, g.periodic), v = Z::VEC && g.vld;
    if (v && z >= 0 && ys >= 0 && ys + TR <= g.ny && xs - OFF >= 0 && xs - OFF + NCH * V <= g.nx) {
        /* all inside: whole chunks (columns from NC on are finite data: they meet zero weights, and a
         * non-finite one only sends the tile to the FMA path) */
        const T *b = src + z * g.plane + (long long)ys * g.pitch + xs - OFF;
        for (int i = threadIdx.x; i < TR * NCH; i += NT) {
            const int r = i / NCH, h = i - r * NCH;
            onchip_cp_async16(slot + r * TP + h * V, b + r * g.pitch + h * V);
        }
        return;
    }
    for (int i = threadIdx.x; i < TR * NCH; i += NT) {
        const int r = i / NCH, c0 = (i - r * NCH) * V - OFF;
        const int y = ssam__stc_index(ys + r, g.ny, g.periodic);
        const T *row = src + z * g.plane + y * g.pitch;
        T *d = slot + r * TP + OFF + c0;
        if (v && z >= 0 && y >= 0 && c0 >= 0 && c0 + V <= NC && xs + c0 >= 0 && xs + c0 + V <= g.nx) {
            onchip_cp_async16(d, row + xs + c0);
        } else {
#pragma unroll
            for (int e = 0; e < V; e++) {
                const int c = c0 + e;
                if (c < 0 || c >= TC) continue;
                const int x = ssam__stc_index(xs + c, g.nx, g.periodic);
                const int ok = c < NC && z >= 0 && y >= 0 && x >= 0;
                ssam__stc_cp(d + e, ok ? row + x : src, ok);
            }
        }
    }
}

/* a cell of output plane z, row y, column x is a Dirichlet cell (its stencil leaves the domain); the
 * box's extents XLO .. ZHI */
template <int XLO, int XHI, int YLO, int YHI, int ZLO, int ZHI>
static __device__ __forceinline__ int ssam__stc_fixed(const ssam_stencil_geom g, int z, int y, int x)
{
    return !g.periodic && (z < -ZLO || z >= g.nz - ZHI || y < -YLO || y >= g.ny - YHI || x < -XLO || x >= g.nx - XHI);
}

/* fragment c: rows y, y2 (its rows g, g + 8), columns x, x + 1 of output plane z (srcz, dstz: that
 * plane in src and dst): Dirichlet cells take their input value (chk: the tile may hold some), then
 * it is stored */
template <class MD, int XLO, int XHI, int YLO, int YHI, int ZLO, int ZHI, class T>
static __device__ __forceinline__ void ssam__stc_put(const typename MD::c_t &c, const ssam_stencil_geom g, const T *srcz, T *dstz,
                                                     int z, int y, int y2, int x, int chk)
{
    typename MD::p_t p = ssam_tc_plain(MD(), c);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const int yy = k < 2 ? y : y2, xx = x + (k & 1);
        if (chk && yy < g.ny && xx < g.nx && ssam__stc_fixed<XLO, XHI, YLO, YHI, ZLO, ZHI>(g, z, yy, xx))
            p.v[k] = srcz[(long long)yy * g.pitch + xx];
    }
    ssam_tc_store2(MD(), dstz, g.pitch, y, y2, x, g.nx, g.ny, g.vst, p);
}

/* one output tile with plain FMAs over the shape's points (in[e] != 0, w[e]) from src; a loop (no
 * registers taken from the MMA path) */
template <class Z, int NX, int NY, int NZ, int XLO, int YLO, int ZLO, class T>
static __device__ __forceinline__ void ssam__stc_fma(const T *w, const unsigned char *in, const T *src,
                                                     const ssam_stencil_geom g, T *dst, int z, int yb, int xb)
{
    enum { BH = Z::BH, BWD = Z::BWD, NT = Z::NT, XHI = XLO + NX - 1, YHI = YLO + NY - 1, ZHI = ZLO + NZ - 1 };
    for (int o = threadIdx.x; o < BH * BWD; o += NT) {
        const int y = yb + o / BWD, x = xb + o % BWD;
        const long long at = z * g.plane + (long long)y * g.pitch + x;
        if (y >= g.ny || x >= g.nx) continue;
        T s = 0;
        if (ssam__stc_fixed<XLO, XHI, YLO, YHI, ZLO, ZHI>(g, z, y, x)) {
            s = src[at];
        } else {
#pragma unroll 1
            for (int e = 0; e < NX * NY * NZ; e++) {
                if (!in[e]) continue;
                const int pz = ssam__stc_index(z + e / (NX * NY) + ZLO, g.nz, 1);
                const int py = ssam__stc_index(y + e / NX % NY + YLO, g.ny, 1);
                const int px = ssam__stc_index(x + e % NX + XLO, g.nx, 1);
                s = fma(w[e], src[pz * g.plane + py * g.pitch + px], s);
            }
        }
        dst[at] = s;
    }
}

/* The kernel body: a block owns column tile x0 and steps [ka, kb) (3D, WALK 0: output planes; 2D,
 * WALK 1: tiles of a column); staging unit u + 1 copies while unit u is multiplied into acc, then
 * output ka + u - (NZ - 1) is stored (or computed again with FMAs) and the sums move one plane on */
template <class MD, int WALK, int NX, int NY, int NZ, int XLO, int YLO, int ZLO, int D, int JX, int WY, int WX>
static __device__ __forceinline__ void ssam__stencil_tc_body(const typename MD::elem_t *src, typename MD::elem_t *dst,
                                                             const ssam_stencil_geom g, const typename MD::elem_t *w,
                                                             const unsigned char *in)
{
    typedef typename MD::elem_t T;
    typedef ssam__stc_sizes<T, NX, NY, NZ, XLO, D, JX, WY, WX> Z;
    enum {
        S8 = Z::S8, T4 = Z::T4, WH = Z::WH, WW = Z::WW, BH = Z::BH, BWD = Z::BWD, TP = Z::TP, OFF = Z::OFF, WP = Z::WP,
        NT = Z::NT, SLOT = Z::SLOT, XHI = XLO + NX - 1, YHI = YLO + NY - 1, ZHI = ZLO + NZ - 1
    };
    static_assert(TP % 2 == 0, "ssam stencil_tc: the row pitch must be even (paired fragment loads)");
    extern __shared__ __align__(16) unsigned char ssam__tcsm[];
    T *wpad = (T *)ssam__tcsm, *ring = wpad + NZ * NY * WP;
    const int lane = threadIdx.x & 31, gq = lane >> 2, cq = lane & 3, warp = threadIdx.x >> 5;
    const int wr0 = warp / WX * WH, wc0 = warp % WX * WW;
    const int x0 = blockIdx.x * BWD, y0 = WALK ? 0 : blockIdx.y * BH, ka = blockIdx.z * g.seg;
    const int kn = WALK ? (g.ny + BH - 1) / BH : g.nz, kb = ka + g.seg < kn ? ka + g.seg : kn;
    const int units = kb - ka + NZ - 1;
    typename MD::c_t acc[NZ][D][JX];
#pragma unroll
    for (int i = 0; i < NZ; i++)
#pragma unroll
        for (int o = 0; o < D; o++)
#pragma unroll
            for (int j = 0; j < JX; j++) ssam_tc_zero(MD(), &acc[i][o][j]);
    ssam__conv_tc_weights<T, WP, NX, NZ * NY, NT>(wpad, w);
    ssam__stc_copy<Z>(ring, src, g, WALK ? 0 : ka + ZLO, x0 + XLO, (WALK ? ka * BH : y0) + YLO, BWD + NX - 1);
    onchip_cp_async_wait_all();
    __syncthreads();
    typename MD::b_t bands[ssam_tc_zbreg<MD, D, NY, NZ, S8, T4>() ? NY * NZ : 1][S8 + T4];
    ssam_tc_zbands<MD, D, NY, NZ, S8, T4>(bands, wpad + 7 + 2 * cq - gq, WP, cq);
    for (int u = 0; u < units; u++) {
        const int k = ka + u - (NZ - 1), z = WALK ? 0 : k, yb = WALK ? k * BH : y0;
        const T *slot = ring + (u & 1) * SLOT + OFF;
        if (u + 1 < units) /* the next unit's copies fly while this one is multiplied */
            ssam__stc_copy<Z>(ring + ((u + 1) & 1) * SLOT, src, g, WALK ? 0 : ka + ZLO + u + 1, x0 + XLO,
                              (WALK ? (ka + u + 1) * BH : y0) + YLO, BWD + NX - 1);
        ssam_tc_zrows<MD, D, NY, NZ, JX, S8, T4>(acc, slot + (wr0 + D * gq) * TP + wc0 + 2 * cq, TP, wpad + 7 + 2 * cq - gq, WP,
                                                 cq, bands);
        onchip_cp_async_wait_all();
        /* bad: a sum not finite (an Inf or NaN among the planes, which the band's zeros spread, or an
         * overflow), the tile then computed again with ssam__stc_fma */
        int bad = 0;
        if (k >= ka) bad |= ssam__tc_nonfinite<MD>(acc[0]);
        bad = __syncthreads_or(bad); /* the next unit visible to all; this slot free for copies */
        if (k >= ka) {
            const int chk = !g.periodic && (z < -ZLO || z >= g.nz - ZHI || yb < -YLO || yb + BH > g.ny - YHI || x0 < -XLO ||
                                            x0 + BWD > g.nx - XHI);
            if (bad) {
                ssam__stc_fma<Z, NX, NY, NZ, XLO, YLO, ZLO>(w, in, src, g, dst, z, yb, x0);
            } else {
#pragma unroll
                for (int o = 0; o < D; o++)
#pragma unroll
                    for (int j = 0; j < JX; j++)
                        ssam__stc_put<MD, XLO, XHI, YLO, YHI, ZLO, ZHI>(
                            acc[0][o][j], g, src + (long long)z * g.plane, dst + (long long)z * g.plane, z, yb + wr0 + D * gq + o,
                            yb + wr0 + D * (gq + 8) + o, x0 + wc0 + 8 * j + 2 * cq, chk);
            }
        }
#pragma unroll
        for (int i = 0; i + 1 < NZ; i++) /* the partial sums move one plane on */
#pragma unroll
            for (int o = 0; o < D; o++)
#pragma unroll
                for (int j = 0; j < JX; j++) acc[i][o][j] = acc[i + 1][o][j];
#pragma unroll
        for (int o = 0; o < D; o++)
#pragma unroll
            for (int j = 0; j < JX; j++) ssam_tc_zero(MD(), &acc[NZ - 1][o][j]);
    }
}

/* ---- host side ------------------------------------------------------------------------------ */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the box from the host array c: w[e] = c[I] at each point's position, in[e] its flag; 1 where an
 * offset is listed twice (refused: docs/ssam.md#box-stencils-on-tensor-cores-stencil_tccuh) */
template <int NX, int NY, int XLO, int YLO, int ZLO, class T, class... P>
static inline int ssam__stc_fill(T *w, unsigned char *in, const void *coef, onchip_shape<P...>)
{
    const T *c = (const T *)coef;
    int dup = 0;
    ((w[((P::dz - ZLO) * NY + P::dy - YLO) * NX + P::dx - XLO] = c[P::i],
      dup |= in[((P::dz - ZLO) * NY + P::dy - YLO) * NX + P::dx - XLO]++),
     ...);
    return dup;
}
/* the kernel parameter wt (the box, W: name_w) from a: SSAM_ENULL, SSAM_EFILTER (an offset listed
 * twice) or 0; the box stays zero when a->ncoef is wrong (the launch refuses it later) */
template <class S, int NX, int NY, int XLO, int YLO, int ZLO, class W>
static inline int ssam__stc_box(W *wt, const ssam_stencil_args *a)
{
    if (!a || !a->src || !a->dst || !a->coef) return SSAM_ENULL;
    memset(wt, 0, sizeof *wt); /* the box; an offset listed twice is refused on every path */
    if (a->ncoef == S::ncoef && ssam__stc_fill<NX, NY, XLO, YLO, ZLO>(wt->w, wt->in, a->coef, S())) return SSAM_EFILTER;
    return SSAM_SUCCESS;
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

/* a tensor-core stencil as its plan and run see it: the kernel, box (fills the kernel's parameter wt
 * from a: ssam__stc_box), the SIMT fallback's plan and run, dims 2 or 3, the shape's ncoef, the
 * block's tile BH x BWD and NT threads, the planes NZ the box spans, es the element's bytes, smem
 * the dynamic shared memory, policies the boundary policies it gives */
typedef struct ssam__stc_kern {
    const void *kernel;
    int (*box)(void *, const ssam_stencil_args *);
    int (*simt_plan)(const ssam_stencil_args *, ssam_plan *);
    int (*simt_run)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t);
    int dims, ncoef, BH, BWD, NT, NZ;
    size_t es, smem;
    unsigned policies;
} ssam__stc_kern;

/* the tensor-core launch's checks and geometry on device dv (dims 2: one plane, whatever plane
 * says, its tiles walked in segments); 0 or SSAM_E* with *why the refusal */
static inline int ssam__stc_geometry(const ssam_stencil_args *a, const ssam__stc_kern *t, const ssam__tc_dev *dv,
                                     ssam_stencil_geom *g, dim3 *grid, const char **why)
{
    ssam_stencil_args b = *a;
    ssam__stencil_kern k;
    int rc;
    if (t->dims == 2 && b.nz != 0 && b.nz != 1) return *why = "refused (SSAM_ESIZE): a 2D stencil takes nz 0 or 1", SSAM_ESIZE;
    if (t->dims == 2) b.nz = 1, b.plane = 0;
    memset(&k, 0, sizeof k);
    k.fn = t->kernel;
    k.dims = 3;
    k.ncoef = t->ncoef;
    k.es = t->es;
    k.V = (int)(16 / t->es);
    k.step = t->BWD;
    k.B = t->NT;
    k.P = 1;
    k.wy = t->dims == 2 ? (1 << 30) : t->BH;
    k.nzw = t->NZ;
    k.occ_smem = t->smem;
    k.warm = -1;
    k.policies = t->policies;
    rc = ssam__stencil_prepare_why(&b, &k, g, grid, why);
    if (rc) return rc;
    if (t->dims == 2 && (rc = ssam__stc_grid2d(g, t->BH, dv, grid)))
        return *why = "refused (SSAM_ESIZE): more than 65535 segments of tile rows", rc;
    return SSAM_SUCCESS;
}

/* name_plan of the tensor-core stencils (wt: room for the kernel's parameter): the box's check (an
 * offset listed twice), steps, a->path (0, SSAM_PATH_TC, SSAM_PATH_SIMT), the path (tensor cores
 * where the device and build run them, else the SIMT fallback, whose plan it then is), why */
static inline int ssam__stencil_tc_plan(const ssam_stencil_args *a, ssam_plan *p, const ssam__stc_kern *t, void *wt)
{
    static const int paths[2] = {SSAM_PATH_TC, SSAM_PATH_SIMT};
    ssam_stencil_args b;
    ssam_stencil_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    const char *why = "";
    int rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__stencil_plan_check(a, paths, 2, "refused (SSAM_EFLAGS): args.path must be 0, SSAM_PATH_TC or SSAM_PATH_SIMT",
                                  &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    if (t->box(wt, a))
        return onchip__plan_refuse(p, SSAM_EFILTER, "refused (SSAM_EFILTER): the shape lists an offset twice (the box "
                                                     "holds one weight a position)");
    if (a->path == SSAM_PATH_SIMT) {
        dv.path = SSAM_PATH_SIMT;
        dv.why = "SIMT fallback, as args.path asks (SSAM_PATH_SIMT)";
    } else {
        if (ssam__conv_tc_setup(&dv, t->kernel, t->NT, t->smem))
            return onchip__plan_refuse(p, SSAM_ECUDA, "refused (SSAM_ECUDA): the device, or the kernel's shared-memory "
                                                       "limit or occupancy, could not be read or set");
        if (a->path == SSAM_PATH_TC && dv.path != SSAM_PATH_TC)
            return onchip__plan_refuse(p, SSAM_EFLAGS, "refused (SSAM_EFLAGS): args.path asks for SSAM_PATH_TC, which "
                                                        "cannot run here (a device or PTX below sm_80, or a block cannot "
                                                        "get the tile's shared memory)");
        if (a->path == SSAM_PATH_TC) dv.why = "tensor cores, as args.path asks (SSAM_PATH_TC)";
    }
    if (dv.path == SSAM_PATH_TC) {
        rc = ssam__stc_geometry(a, t, &dv, &g, &grid, &why);
        if (rc) return onchip__plan_refuse(p, rc, why);
        return ssam__stencil_accept(a, p, SSAM_PATH_TC, dv.why);
    }
    b = *a; /* the fallback: the SIMT instance's plan (its checks), with this path and why */
    b.path = 0;
    rc = t->simt_plan(&b, p);
    if (rc) return rc;
    p->path = SSAM_PATH_SIMT;
    if (a->steps) p->why = dv.why;
    return SSAM_SUCCESS;
}

/* name_run of the tensor-core stencils: SSAM_PATH_SIMT the fallback's run, else p->passes launches
 * of the kernel, ping-pong (wt: the kernel's parameter, filled here) */
static inline int ssam__stencil_tc_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t stream,
                                       const ssam__stc_kern *t, void *wt)
{
    ssam_stencil_args b;
    ssam_stencil_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    const char *why;
    int rc;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes < 1) return SSAM_SUCCESS;
    b = *a;
    b.path = 0;
    if (p->path == SSAM_PATH_SIMT) return t->simt_run(&b, p, stream);
    if ((rc = t->box(wt, a))) return rc;
    if (ssam__conv_tc_setup(&dv, t->kernel, t->NT, t->smem)) return SSAM_ECUDA;
    if (dv.path != SSAM_PATH_TC) return SSAM_ECUDA; /* a plan of another device */
    for (long long s = 0; s < p->passes; s++) {
        void *args[4] = {(void *)&b.src, (void *)&b.dst, (void *)&g, wt};
        b.src = (s & 1) ? (const void *)a->dst : a->src;
        b.dst = (s & 1) ? (void *)a->src : a->dst;
        if ((rc = ssam__stc_geometry(&b, t, &dv, &g, &grid, &why))) return rc;
        (void)cudaLaunchKernel(t->kernel, grid, dim3((unsigned)t->NT), args, t->smem, stream);
        if (cudaPeekAtLastError() != cudaSuccess) return SSAM_ECUDA;
    }
    return SSAM_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

/* the modes this header serves; ::type the SIMT fallback's type (float for a refused mode, whose
 * sentence is then the only error) */
template <class MD>
struct ssam__stc_mode_ok : ssam__accept<0, float> {};
template <>
struct ssam__stc_mode_ok<ssam_tc_mode_f64> : ssam__accept<1, double> {};
template <>
struct ssam__stc_mode_ok<ssam_tc_mode_tf32> : ssam__accept<1, float> {};
template <>
struct ssam__stc_mode_ok<ssam_tc_mode_tf32x3> : ssam__accept<1, float> {};
#define SSAM__STC_SIMT_T(MODE) typename ssam__stc_mode_ok<ssam_tc_mode_##MODE>::type

/* ---- the generators -------------------------------------------------------------------------- */
/* the tile: D-dilated fragments, JX 8-column tiles a warp, WY x WX warps, MINB blocks per SM; a 0
 * field the MODE's default (SSAM_STC3_TILE_MODE, SSAM_STC2_TILE_MODE) */
template <int D_ = 0, int JX_ = 0, int WY_ = 0, int WX_ = 0, int MINB_ = 0>
struct ssam_stencil_tc_policy {
    enum { d = D_, jx = JX_, wy = WY_, wx = WX_, minb = MINB_ };
};
/* value 1 for an ssam_stencil_tc_policy, and its fields; another type: 0 and the defaults' zeros */
template <class X>
struct ssam__is_stencil_tc_policy {
    enum { value = 0, d = 0, jx = 0, wy = 0, wx = 0, minb = 0 };
};
template <int D_, int JX_, int WY_, int WX_, int MINB_>
struct ssam__is_stencil_tc_policy<ssam_stencil_tc_policy<D_, JX_, WY_, WX_, MINB_> > {
    enum { value = 1, d = D_, jx = JX_, wy = WY_, wx = WX_, minb = MINB_ };
};
/* field F (K-th of the tile lists) of name_policy, or the MODE's default where it is 0 */
#define SSAM__STC_TILE(name, DIMS, MODE, F, K)                                                          \
    (ssam__is_stencil_tc_policy<name##_policy>::F ? (int)ssam__is_stencil_tc_policy<name##_policy>::F   \
                                                  : SSAM__STC_PICK(K, SSAM_STC##DIMS##_TILE_##MODE))
#define SSAM__STC_PICK(K, ...) SSAM__STC_PICK_(SSAM__STC_F##K, __VA_ARGS__)
#define SSAM__STC_PICK_(F, ...) F(__VA_ARGS__)
#define SSAM__STC_F0(d, jx, wy, wx, minb) d
#define SSAM__STC_F1(d, jx, wy, wx, minb) jx
#define SSAM__STC_F2(d, jx, wy, wx, minb) wy
#define SSAM__STC_F3(d, jx, wy, wx, minb) wx
#define SSAM__STC_F4(d, jx, wy, wx, minb) minb
/* 3D and 2D: the policy's check and tile, then the SIMT fallback (name_simt: stencil.cuh's kernel
 * of the shape, P 1, 128 threads) and the tensor-core kernel */
#define SSAM_STENCIL3D_TC_DEFINE(name, MODE, SHAPE, ...)                                                \
    typedef __VA_ARGS__ name##_policy;                                                                  \
    SSAM__STC_POLICY(name, "SSAM_STENCIL3D_TC_DEFINE(" #name ")", 3, MODE, SHAPE)
#define SSAM_STENCIL2D_TC_DEFINE(name, MODE, SHAPE, ...)                                                \
    typedef __VA_ARGS__ name##_policy;                                                                  \
    SSAM__STC_POLICY(name, "SSAM_STENCIL2D_TC_DEFINE(" #name ")", 2, MODE, SHAPE)
#define SSAM__STC_POLICY(name, WHO, DIMS, MODE, SHAPE)                                                  \
    static_assert(ssam__is_stencil_tc_policy<name##_policy>::value,                                     \
                  WHO ": the last argument must be an ssam_stencil_tc_policy<D, JX, WY, WX, MINB>");    \
    SSAM__STC##DIMS##_GEN(name, WHO, MODE, SHAPE, SSAM__STC_TILE(name, DIMS, MODE, d, 0),               \
                          SSAM__STC_TILE(name, DIMS, MODE, jx, 1), SSAM__STC_TILE(name, DIMS, MODE, wy, 2), \
                          SSAM__STC_TILE(name, DIMS, MODE, wx, 3), SSAM__STC_TILE(name, DIMS, MODE, minb, 4))
#define SSAM__STC3_GEN(name, WHO, MODE, SHAPE, D, JX, WY, WX, MINB)                                     \
    SSAM__STC_MODE_CHECK(WHO, MODE)                                                                     \
    SSAM__STENCIL3D_ONEPASS(name##_simt, WHO, SSAM__STC_SIMT_T(MODE), SHAPE, 1, 128, 1,                 \
                            SSAM__STENCIL3D_RULE(name##_simt, SSAM__STC_SIMT_T(MODE)),                  \
                            SSAM__STENCIL_GHM_DEFAULT(SSAM__STC_SIMT_T(MODE), name##_simt_XLO, name##_simt_XHI), \
                            SSAM__STENCIL3D_TRIM_DEFAULT, SSAM_SCHEDULE_AUTO)                           \
    SSAM__STENCIL_TC_GEN(name, WHO, MODE, 3, name##_simt_ZLO, name##_simt_ZHI, D, JX, WY, WX, MINB)
#define SSAM__STC2_GEN(name, WHO, MODE, SHAPE, D, JX, WY, WX, MINB)                                     \
    SSAM__STC_MODE_CHECK(WHO, MODE)                                                                     \
    SSAM__STENCIL2D_ONEPASS(name##_simt, WHO, SSAM__STC_SIMT_T(MODE), SSAM__STC_SIMT_T(MODE), SHAPE, 1, 128, 1, \
                            SSAM__STENCIL_GHM_DEFAULT(SSAM__STC_SIMT_T(MODE), name##_simt_XLO, name##_simt_XHI), -1) \
    SSAM__STENCIL_TC_GEN(name, WHO, MODE, 2, 0, 0, D, JX, WY, WX, MINB)
#define SSAM__STC_MODE_CHECK(WHO, MODE)                                                                 \
    static_assert(ssam__stc_mode_ok<ssam_tc_mode_##MODE>::value, WHO ": MODE must be f64, tf32 or tf32x3");
/* the kernel, name_plan, name_run, name_launch over name_simt (stencil.cuh's definition of the same
 * shape, which supplies the extents, name_simt_ncoef and the fallback) */
#define SSAM__STENCIL_TC_GEN(name, WHO, MODE, DIMS, ZLO_, ZHI_, D, JX, WY, WX, MINB)                    \
    enum {                                                                                              \
        name##_NPTS = name##_simt_NPTS, name##_XLO = name##_simt_XLO, name##_XHI = name##_simt_XHI,     \
        name##_YLO = name##_simt_YLO, name##_YHI = name##_simt_YHI, name##_ZLO = (ZLO_), name##_ZHI = (ZHI_), \
        name##__NX = name##_XHI - name##_XLO + 1, name##__NY = name##_YHI - name##_YLO + 1,             \
        name##__NZ = name##_ZHI - name##_ZLO + 1                                                        \
    };                                                                                                  \
    typedef struct name##_w { /* the box: coefficients, and which positions are points of the shape */  \
        SSAM_TC_T_##MODE w[name##__NX * name##__NY * name##__NZ];                                       \
        unsigned char in[name##__NX * name##__NY * name##__NZ];                                         \
    } name##_w;                                                                                         \
    typedef ssam__stc_sizes<SSAM_TC_T_##MODE, name##__NX, name##__NY, name##__NZ, name##_XLO, D, JX, WY, WX> name##__tcz; \
    SSAM__STENCIL_TC_CHECKS(name, WHO)                                                                  \
    __global__ void __launch_bounds__(32 * (WY) * (WX), MINB)                                           \
        name##_kernel(const SSAM_TC_T_##MODE *__restrict__ src, SSAM_TC_T_##MODE *__restrict__ dst,     \
                      ssam_stencil_geom g, const __grid_constant__ name##_w wt)                         \
    {                                                                                                   \
        if constexpr (name##__tcz::tile && ssam__stc_mode_ok<ssam_tc_mode_##MODE>::value)               \
            ssam__stencil_tc_body<ssam_tc_mode_##MODE, (DIMS) == 2, name##__NX, name##__NY, name##__NZ, name##_XLO, \
                                  name##_YLO, name##_ZLO, D, JX, WY, WX>(src, dst, g, wt.w, wt.in);     \
    }                                                                                                   \
    SSAM__STENCIL_TC_HOST(name, DIMS)
/* name_ncoef, name_plan, name_run and name_launch of a tensor-core stencil (host code: none under
 * NVRTC, where the generators emit the kernels only: name_kernel and the fallback's name_simt_kernel);
 * name__kern: the instance as ssam__stencil_tc_plan and ssam__stencil_tc_run see it, name__box its box */
#ifndef __CUDACC_RTC__
#define SSAM__STENCIL_TC_HOST(name, DIMS)                                                               \
    static inline __attribute__((unused)) int name##_ncoef(void) { return name##_simt_ncoef(); }        \
    static inline __attribute__((unused)) int name##__box(void *wt, const ssam_stencil_args *a)         \
    {                                                                                                   \
        return ssam__stc_box<name##_simt_shape, name##__NX, name##__NY, name##_XLO, name##_YLO, name##_ZLO>((name##_w *)wt, a); \
    }                                                                                                   \
    static inline __attribute__((unused)) ssam__stc_kern name##__kern(void)                             \
    {                                                                                                   \
        const ssam__stc_kern t = {(const void *)name##_kernel, name##__box, name##_simt_plan, name##_simt_run, DIMS, \
                                  name##_ncoef(), name##__tcz::BH, name##__tcz::BWD, name##__tcz::NT, name##__NZ, \
                                  sizeof(((name##_w *)0)->w[0]), name##__tcz::smem,                    \
                                  ssam__stencil_policies<name##_simt_shape>(DIMS)};                     \
        return t;                                                                                       \
    }                                                                                                   \
    static inline __attribute__((unused)) int name##_plan(const ssam_stencil_args *a, ssam_plan *p)     \
    {                                                                                                   \
        name##_w wt;                                                                                    \
        const ssam__stc_kern t = name##__kern();                                                        \
        return ssam__stencil_tc_plan(a, p, &t, &wt);                                                    \
    }                                                                                                   \
    SSAM__RUN_VERB(name, ssam_stencil_args, ssam__stc_kern, name##_w, ssam__stencil_tc_run)             \
    ONCHIP__LAUNCH_VERB(name, ssam_stencil_args, ssam_plan)
#else
#define SSAM__STENCIL_TC_HOST(name, DIMS)
#endif
/* the limits of a tensor-core stencil */
#define SSAM__STENCIL_TC_CHECKS(name, WHO)                                                              \
    static_assert(sizeof(name##_w) <= 31 * 1024,                                                        \
                  WHO ": the box's coefficients exceed 31 KB of kernel parameters; use stencil.cuh for this shape"); \
    static_assert(name##__tcz::tile, WHO ": the tile needs 1 <= D <= 7 (D 8 would need an odd row pitch, and the " \
                                     "fragments' paired loads even rows), JX >= 1 and 1 to 32 warps");  \
    static_assert(name##__tcz::smem <= ONCHIP_SMEM_OPTIN_MAX, WHO ": the ring of planes exceeds 227 KB of shared memory; use a " \
                                                   "smaller tile (the policy's D, JX, WY, WX) or stencil.cuh");

#endif /* SSAM_STENCIL_TC_CUH */
#include <onchip/names_pop.h>
