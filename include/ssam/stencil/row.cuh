#include <onchip/names_push.h>
/* ssam/stencil/row.cuh -- the lane pieces of the stencils: one output row from a register window.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 2, sections 4.5 and 4.8; the scope of ssam/stencil.cuh)
 *   Each lane holds V = 16 / sizeof(T) adjacent columns of a window of rows (regcache.cuh).  Points
 *   are grouped by lane distance; the groups' partial sums travel along the warp by shuffles (the
 *   schedule: docs/ssam.md#design-notes-ssamstencilrowcuh).  The QL lanes at the warp's left end
 *   and the QR at its right compute incomplete sums, unless the ghost-lane layout applies.
 *
 * PIECES (S a shape type, ONCHIP_SHAPE2D_TYPE(SHAPE) / ONCHIP_SHAPE3D_TYPE(SHAPE))
 *   ssam_stencil2d_row<S, XLO, XHI, YLO>(out, win, p, coef)
 *       out[k] (k < V) = sum c[I] in(lane's column k + DX, window row p + DY - YLO) from T win[V][R];
 *       coef a compile-time-indexed T array.  Every lane must execute it.
 *   ssam_stencil2d_row_fn<S, XLO, XHI, YLO>(out, win, p, coef, init, fn, cmb)
 *       the same with s <- s (+) (x (*) c) as fn(acc, x, c), combined by cmb (associative and
 *       commutative, init its identity)
 *   ssam_stencil3d_row<S, XLO, XHI, YLO, ZLO, R>(out, win, p, coef)   from T win[V][NZ * R]
 *   SSAM_STENCIL2D_ROW, _ROW_FN, SSAM_STENCIL3D_ROW take the X-macro list itself.
 *   SSAM_STENCIL_QL(V, XLO), _QR(V, XHI), _STEP(V, XLO, XHI): the partial lanes at each end and the
 *   columns a warp produces.  ssam__lane, ssam__ghost: a lane's columns, as the bodies take them.
 *
 * COST
 *   Per output row: V * NPTS FMAs, V * (QL + QR) shuffles per lane; no shared memory.
 */
#ifndef SSAM_STENCIL_ROW_CUH
#define SSAM_STENCIL_ROW_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: base.cuh has the integer types */
#include <stdint.h>
#endif

#include "../base.cuh"
#include "../regcache.cuh"
#include "../shift.cuh"
#include "../stencil_shapes.cuh"

#define SSAM_STENCIL_V(T) ((int)(16 / sizeof(T)))
#define SSAM_STENCIL_QL(V, XLO) ((XLO) < 0 ? (-(XLO) + (V)-1) / (V) : 0)
#define SSAM_STENCIL_QR(V, XHI) ((XHI) > 0 ? ((XHI) + (V)-1) / (V) : 0)
#define SSAM_STENCIL_STEP(V, XLO, XHI) ((32 - SSAM_STENCIL_QL(V, XLO) - SSAM_STENCIL_QR(V, XHI)) * (V))

/* ---- the shape's extents per plane, and the layout rules */
/* does any point have DX != 0 off the cell's row (and plane)? */
#define SSAM__OFFAX2(I, DX, DY) || ((DX) != 0 && (DY) != 0)
#define SSAM__OFFAX3(I, DX, DY, DZ) || ((DX) != 0 && ((DY) != 0 || (DZ) != 0))
template <class... P>
static __host__ __device__ constexpr int ssam__stencil_offax(onchip_shape<P...>)
{
    return (0 + ... + (P::dx != 0 && (P::dy != 0 || P::dz != 0))) != 0;
}
/* the ghost-lane layout applies (docs/ssam.md#design-notes-ssamstencilrowcuh) */
#define SSAM__STENCIL_GH(V, XLO, XHI, OFFAX) (SSAM_STENCIL_QL(V, XLO) <= 1 && SSAM_STENCIL_QR(V, XHI) <= 1 && !(OFFAX))
/* the columns a warp produces; GHM 0: overlap lanes always, 1, 2: ghost lanes where allowed */
#define SSAM__STENCIL_WSTEP(V, XLO, XHI, OFFAX) SSAM__STENCIL_WSTEPM(V, XLO, XHI, OFFAX, 1)
#define SSAM__STENCIL_WSTEPM(V, XLO, XHI, OFFAX, GHM)                                                   \
    (((GHM) != 0 && SSAM__STENCIL_GH(V, XLO, XHI, OFFAX)) ? 32 * (V) : SSAM_STENCIL_STEP(V, XLO, XHI))
/* the same two, for a shape type */
template <class S, int V, int GHM>
static __host__ __device__ constexpr int ssam__stencil_gh(void)
{
    return GHM != 0 && SSAM__STENCIL_GH(V, S::xlo, S::xhi, ssam__stencil_offax(S()));
}
template <class S, int V, int GHM>
static __host__ __device__ constexpr int ssam__stencil_wstep(void)
{
    return SSAM__STENCIL_WSTEPM(V, S::xlo, S::xhi, ssam__stencil_offax(S()), GHM);
}
/* the ghost window's columns (<= V where the layout applies) */
template <class S>
static __host__ __device__ constexpr int ssam__stencil_gw(void)
{
    return S::xhi > -S::xlo ? (S::xhi > 1 ? S::xhi : 1) : -S::xlo;
}
/* a lane's columns, passed to a body's pieces by const reference (docs/ssam.md#tb-context-structs) */
struct ssam__lane {
    int x;               /* the first of the V columns the lane computes */
    int x_load;          /* the first column it loads: x wherever the lane stores */
    int vec_ok;          /* 1: the lane's load at x_load is one aligned 16-byte vector */
    int col_inside_mask; /* bit k: every point of column x + k in the domain (or it wraps) */
    int store;           /* 1: the lane stores its columns */
};
/* a lane's ghost columns in the ghost-lane layout (lanes 0 and 31 load them; gcx apart) */
struct ssam__ghost {
    int x;      /* the first ghost column */
    int active; /* 1: this lane loads ghosts */
};
/* the extent of plane DZ == dz along AXIS ('x' or 'y'): its least offset (SIGN -1) or largest (SIGN
 * 1), 0 included; and whether the plane holds points (dz unrolled) */
template <char AXIS, int SIGN, class... P>
static __host__ __device__ __forceinline__ constexpr int ssam__shape_extent(onchip_shape<P...>, int dz)
{
    int m = 0;
    ((m = (P::dz == dz && SIGN * ((AXIS == 'x' ? P::dx : P::dy) - m) > 0) ? (AXIS == 'x' ? P::dx : P::dy) : m), ...);
    return m;
}
template <class... P>
static __host__ __device__ __forceinline__ constexpr int ssam__shape_has(onchip_shape<P...>, int dz)
{
    return (0 + ... + (P::dz == dz)) != 0;
}

/* ---- the lane schedule */
/* floor(v / V) for v > -64 V */
static __host__ __device__ __forceinline__ constexpr int ssam__fdiv(int v, int V) { return (v + 64 * V) / V - 64; }

struct ssam__st_fma { /* acc + x c as one fma: the stencils' point */
    template <class T>
    __device__ __forceinline__ T operator()(T acc, T x, T c) const
    {
        return fma(x, c, acc);
    }
};
struct ssam__st_add { /* the stencils' combination of the partial sums */
    template <class T>
    __device__ __forceinline__ T operator()(T a, T b) const
    {
        return a + b;
    }
};

/* acc = fn(acc, win[(k + DX - xoff) & (V - 1)][row], c[I]) over S's points d lanes away; SL 0: all,
 * row (DZ - ZLO) R + p + DY - YLO; SL 1: plane dz only, row p + DY - YLO (k, d, dz unrolled) */
#ifdef __CUDACC_RTC__
/* under NVRTC the fold calls this functor, not a generic lambda: docs/onchip.md#nvrtc-functors */
template <int V, int YLO, int ZLO, int R, int SL, class T, class W, class Fn>
struct ssam__stencil_pts_f {
    T &acc;
    const W &win;
    int k, d, xoff, p, dz;
    const T *cf;
    Fn &fn;
    template <class Pt>
    __device__ __forceinline__ void operator()(Pt) const
    {
        if ((!SL || Pt::dz == dz) && ssam__fdiv(k + Pt::dx, V) == d)
            acc = fn(acc, win[(k + Pt::dx - xoff) & (V - 1)][(SL ? 0 : (Pt::dz - ZLO) * R) + p + Pt::dy - YLO], cf[Pt::i]);
    }
};
#endif
template <class S, int V, int YLO, int ZLO, int R, int SL, class T, class W, class Fn>
static __device__ __forceinline__ T ssam__stencil_pts(T acc, const W &win, int k, int d, int xoff, int p, int dz,
                                                      const T *cf, Fn fn)
{
#ifndef __CUDACC_RTC__
    onchip_shape_each(S(), [&](auto pt) {
        typedef decltype(pt) Pt;
        if ((!SL || Pt::dz == dz) && ssam__fdiv(k + Pt::dx, V) == d)
            acc = fn(acc, win[(k + Pt::dx - xoff) & (V - 1)][(SL ? 0 : (Pt::dz - ZLO) * R) + p + Pt::dy - YLO], cf[Pt::i]);
    });
#else
    onchip_shape_each(S(), ssam__stencil_pts_f<V, YLO, ZLO, R, SL, T, W, Fn>{acc, win, k, d, xoff, p, dz, cf, fn});
#endif
    return acc;
}

/* one row's lane schedule: local points, right lanes by shfl.down, left by shfl.up, combined by cmb;
 * lxlo, lxhi the extent pts visits; GH 1: the last shifts rotate the ghosts' sums (gpts) in */
template <int V, int XLO, int XHI, int GH, class T, class Pts, class GPts, class Cmb>
static __device__ __forceinline__ void ssam__stencil_lanes(T (&out)[V], int lxlo, int lxhi, T init, Pts pts,
                                                           GPts gpts, Cmb cmb)
{
#pragma unroll
    for (int k = 0; k < V; k++) {
        const int qr = (k + lxhi >= V) ? (k + lxhi) / V : 0;
        const int ql = (k + lxlo < 0) ? (-(k + lxlo) + V - 1) / V : 0;
        T own, r = init, l = init;
        own = pts(init, k, 0);
#pragma unroll
        for (int d = SSAM_STENCIL_QR(V, XHI); d >= 1; d--) {
            if (d <= qr) {
                T acc = r;
                if (d < qr) acc = ssam_shift_down(acc, 1);
                r = pts(acc, k, d);
            }
        }
        if (qr >= 1) {
            if constexpr (GH != 0) {
                const T acc = gpts(init, k, 1);
                r = __shfl_sync(0xffffffffu, (threadIdx.x & 31) == 0 ? acc : r, (int)(threadIdx.x + 1) & 31);
            } else
                r = ssam_shift_down(r, 1);
        }
#pragma unroll
        for (int e = SSAM_STENCIL_QL(V, XLO); e >= 1; e--) {
            if (e <= ql) {
                T acc = l;
                if (e < ql) acc = ssam_shift_up(acc, 1);
                l = pts(acc, k, -e);
            }
        }
        if (ql >= 1) {
            if constexpr (GH != 0) {
                const T acc = gpts(init, k, -1);
                l = __shfl_sync(0xffffffffu, (threadIdx.x & 31) == 31 ? acc : l, (int)(threadIdx.x + 31) & 31);
            } else
                l = ssam_shift_up(l, 1);
        }
        out[k] = own;
        if (qr >= 1) out[k] = cmb(out[k], r);
        if (ql >= 1) out[k] = cmb(out[k], l);
    }
}

/* ---- one output row */
/* a 2D row; GH 1: the ghost-lane layout's (gw[GW][R]: lane 0's right, lane 31's left ghosts) */
template <class S, int XLO, int XHI, int YLO, int GH, class T, int V, int R, class G>
static __device__ __forceinline__ void ssam__stencil2d_rowg(T (&out)[V], const T (&win)[V][R], const G &gw, int p,
                                                            const T *coef)
{
    static_assert(V > 0 && (V & (V - 1)) == 0, "ssam_stencil2d_row: V (the lane's columns) must be a power of two");
    ssam__stencil_lanes<V, XLO, XHI, GH>(
        out, XLO, XHI, (T)0,
        [&](T acc, int k, int d) { return ssam__stencil_pts<S, V, YLO, 0, R, 0>(acc, win, k, d, 0, p, 0, coef, ssam__st_fma()); },
        [&](T acc, int k, int d) {
            return ssam__stencil_pts<S, V, YLO, 0, R, 0>(acc, gw, k, d, d < 0 ? XLO : 0, p, 0, coef, ssam__st_fma());
        },
        ssam__st_add());
}
template <class S, int XLO, int XHI, int YLO, class T, int V, int R>
static __device__ __forceinline__ void ssam_stencil2d_row(T (&out)[V], const T (&win)[V][R], int p, const T *coef)
{
    ssam__stencil2d_rowg<S, XLO, XHI, YLO, 0>(out, win, win, p, coef);
}
/* one output row of a 2D stencil from win[V][R] */
#define SSAM_STENCIL2D_ROW(T, V, SHAPE, XLO, XHI, YLO, out, win, p, coef)                               \
    ssam_stencil2d_row<ONCHIP_SHAPE2D_TYPE(SHAPE), XLO, XHI, YLO>(out, win, p, coef)

/* the same row with fn(acc, x, c) -> acc, cmb(a, b) */
template <class S, int XLO, int XHI, int YLO, class T, int V, int R, class Fn, class Cmb>
static __device__ __forceinline__ void ssam_stencil2d_row_fn(T (&out)[V], const T (&win)[V][R], int p, const T *coef,
                                                             T init, Fn fn, Cmb cmb)
{
    static_assert(V > 0 && (V & (V - 1)) == 0, "SSAM_STENCIL2D_ROW_FN: V must be a power of two");
    auto pts = [&](T acc, int k, int d) { return ssam__stencil_pts<S, V, YLO, 0, R, 0>(acc, win, k, d, 0, p, 0, coef, fn); };
    ssam__stencil_lanes<V, XLO, XHI, 0>(out, XLO, XHI, init, pts, pts, cmb);
}
/* FN and CMB: names of functions (or macros) T FN(T acc, T x, T c) and T CMB(T a, T b) */
#define SSAM_STENCIL2D_ROW_FN(T, V, SHAPE, XLO, XHI, YLO, out, win, p, coef, INIT, FN, CMB)             \
    ssam_stencil2d_row_fn<ONCHIP_SHAPE2D_TYPE(SHAPE), XLO, XHI, YLO>(                                     \
        out, win, p, coef, (T)(INIT), [&](T ssam__a, T ssam__x, T ssam__c) -> T { return FN(ssam__a, ssam__x, ssam__c); }, \
        [&](T ssam__a, T ssam__b) -> T { return CMB(ssam__a, ssam__b); })

/* a 3D row from win[V][NZ * R]; GH as in 2D */
template <class S, int XLO, int XHI, int YLO, int ZLO, int R, int GH, class T, int V, int W, class G>
static __device__ __forceinline__ void ssam__stencil3d_rowg(T (&out)[V], const T (&win)[V][W], const G &gw, int p,
                                                            const T *coef)
{
    static_assert(V > 0 && (V & (V - 1)) == 0, "ssam_stencil3d_row: V (the lane's columns) must be a power of two");
    ssam__stencil_lanes<V, XLO, XHI, GH>(
        out, XLO, XHI, (T)0,
        [&](T acc, int k, int d) { return ssam__stencil_pts<S, V, YLO, ZLO, R, 0>(acc, win, k, d, 0, p, 0, coef, ssam__st_fma()); },
        [&](T acc, int k, int d) {
            return ssam__stencil_pts<S, V, YLO, ZLO, R, 0>(acc, gw, k, d, d < 0 ? XLO : 0, p, 0, coef, ssam__st_fma());
        },
        ssam__st_add());
}
template <class S, int XLO, int XHI, int YLO, int ZLO, int R, class T, int V, int W>
static __device__ __forceinline__ void ssam_stencil3d_row(T (&out)[V], const T (&win)[V][W], int p, const T *coef)
{
    ssam__stencil3d_rowg<S, XLO, XHI, YLO, ZLO, R, 0>(out, win, win, p, coef);
}
#define SSAM_STENCIL3D_ROW(T, V, SHAPE, XLO, XHI, YLO, ZLO, R, out, win, p, coef)                       \
    ssam_stencil3d_row<ONCHIP_SHAPE3D_TYPE(SHAPE), XLO, XHI, YLO, ZLO, R>(out, win, p, coef)

/* ---- stores and ghost loads (the kernels' block-level pieces) */
/* a lane's V outputs into row dst + zoff + yoff (TS); Dirichlet cells (rowin 0 or bit j of colin 0)
 * take own[j]; the address formed in each branch, as one expression */
template <class TS, class T, int V>
static __device__ __forceinline__ void ssam__stencil_store(TS *dst, long long zoff, long long yoff, int x, int nx,
                                                           const T (&out)[V], const T (&own)[V], int colin, int rowin,
                                                           int vst)
{
    ssam_vec<TS, V> q;
#pragma unroll
    for (int j = 0; j < V; j++) q.v[j] = (TS)((rowin && ((colin >> j) & 1)) ? out[j] : own[j]);
    if (vst && x + V <= nx) *(ssam_vec<TS, V> *)(dst + zoff + yoff + x) = q;
    else {
#pragma unroll
        for (int j = 0; j < V; j++)
            if (x + j < nx) (dst + zoff + yoff)[x + j] = q.v[j];
    }
}

/* the ghost lanes' window: NR rows into gw[.][r0 ..] as T by scalar loads (only the elements the
 * shape reads survive); the other lanes' zeroed */
template <int NR, class TS, class T, int GW, int R>
static __device__ __forceinline__ void ssam__stencil_gload(T (&gw)[GW][R], int r0, const TS *src, long long pitch, int gx,
                                                           const int (&gcx)[GW], int glane, const int *rows)
{
    if (glane)
        ssam_regcache_rows_as<NR, TS, T>(gw, r0, src, pitch, gx, gcx, 0, rows, (T)0);
    else {
#pragma unroll
        for (int j = 0; j < GW; j++)
#pragma unroll
            for (int r = 0; r < NR; r++) gw[j][r0 + r] = (T)0;
    }
}
/* the same as raw bits (half types) for ssam_regcache_from_bits; 0 outside the ghost lanes */
template <int NR, class TS, int GW, int R>
static __device__ __forceinline__ void ssam__stencil_gload_raw(unsigned (&gw)[GW][R], int r0, const TS *src,
                                                               long long pitch, const int (&gcx)[GW], int glane,
                                                               const int *rows)
{
#pragma unroll
    for (int r = 0; r < NR; r++) {
        const int yy = rows[r];
        const TS *row = src + (long long)(yy < 0 ? 0 : yy) * pitch;
#pragma unroll
        for (int j = 0; j < GW; j++)
            gw[j][r0 + r] = (glane && yy >= 0 && gcx[j] >= 0) ? ssam_regcache_bits<TS>(row + gcx[j]) : 0u;
    }
}

#endif /* SSAM_STENCIL_ROW_CUH */
#include <onchip/names_pop.h>
