#include <onchip/names_push.h>
/* ssam/stencil_shapes.cuh -- stencil shapes as X-macro lists, and their extents at compile time.
 *
 * WHAT (SSAM, Chen et al. SC'19, Table 3 and sections 4.8-4.9)
 *   A stencil is a list of points with a coefficient each.  Here a list is an X-macro: a macro that
 *   takes a callback X and calls it once per point,
 *       2D:  X(I, DX, DY)        3D:  X(I, DX, DY, DZ)
 *   where (DX, DY[, DZ]) is the offset of the input cell (DX along a row, DY down the rows, DZ across
 *   planes) and I the index of its coefficient in the run-time coefficient array.  Points may share
 *   a coefficient (equal I); every I must lie in [0, number of points).  The stencil computes
 *       out(x, y[, z]) = sum over points  c[I] * in(x + DX, y + DY[, z + DZ])
 *   Offsets are compile-time integers with |offset| <= SSAM_STENCIL_RMAX (10).  The extent of a
 *   shape always includes 0 (a cell's own value is in every window).  This header depends on
 *   nothing but ssam/base.cuh, so other modules (perks) can share the catalogue.
 *
 * EXAMPLE (a user-defined, asymmetric 2D stencil: an upwind scheme with a shared coefficient)
 *   [compile]
 *     #define MY_UPWIND(X) X(0, 0, 0) X(1, -1, 0) X(1, 0, -1) X(2, -2, 0) X(3, 1, 2)
 *     enum { lo = SSAM_SHAPE2D_XLO(MY_UPWIND) };           // -2, a compile-time constant
 *     SSAM_STENCIL2D_DEFINE(upwind, float, MY_UPWIND, 4, 128)   // ssam/stencil.cuh; 4 coefficients
 *
 * EXTENTS (integer constant expressions, for enums and array sizes)
 *   SSAM_SHAPE2D_XLO/XHI/YLO/YHI(S), SSAM_SHAPE3D_XLO/XHI/YLO/YHI/ZLO/ZHI(S): the smallest and
 *   largest offsets (XLO <= 0 <= XHI); SSAM_SHAPE2D_NPTS(S), SSAM_SHAPE3D_NPTS(S): the number of
 *   points.  Each bound expands the list 10 times: evaluate it once into an enum, or evaluate the
 *   mask SSAM_SHAPE_MXLO(S) (one expansion) into an enum and take SSAM_THERM_COUNT of that.
 *
 * THE CATALOGUE (named by shape and radius; the papers' names as aliases: the papers disagree --
 * SSAM's 2d9pt is the radius-2 star, PERKS's 2d9pt is the 3x3 box)
 *   name                      points  alias(es)
 *   SSAM_SHAPE_STAR2D_R1         5    SSAM_SHAPE_2D5PT
 *   SSAM_SHAPE_STAR2D_R2         9    SSAM_SHAPE_2D9PT (SSAM)
 *   SSAM_SHAPE_STAR2D_R3        13    SSAM_SHAPE_2D13PT
 *   SSAM_SHAPE_STAR2D_R4        17    SSAM_SHAPE_2D17PT
 *   SSAM_SHAPE_STAR2D_R5        21    SSAM_SHAPE_2D21PT
 *   SSAM_SHAPE_STAR2D_R6        25    SSAM_SHAPE_2DS25PT
 *   SSAM_SHAPE_BOX2D_R1          9    SSAM_SHAPE_2D9PT_BOX (PERKS's 2d9pt)
 *   SSAM_SHAPE_BOX2D_R2         25    SSAM_SHAPE_2D25PT
 *   SSAM_SHAPE_BOX2D_R4         81    SSAM_SHAPE_2D81PT
 *   SSAM_SHAPE_BOX2D_R5        121    SSAM_SHAPE_2D121PT
 *   SSAM_SHAPE_BOX2D_8X8        64    SSAM_SHAPE_2D64PT   (offsets -3 .. +4 in x and y)
 *   SSAM_SHAPE_STAR3D_R1         7    SSAM_SHAPE_3D7PT
 *   SSAM_SHAPE_STAR3D_R2        13    SSAM_SHAPE_3D13PT
 *   SSAM_SHAPE_BOX3D_R1         27    SSAM_SHAPE_3D27PT
 *   SSAM_SHAPE_BOX3D_R2        125    SSAM_SHAPE_3D125PT
 *   SSAM_SHAPE_POISSON3D_19     19    SSAM_SHAPE_POISSON (the 3x3x3 box less its 8 corners)
 *   Coefficient order: stars list (0,0[,0]) first, then for k = 1..r the points at -k and +k along
 *   x, then y (then z); boxes and poisson list their points with x fastest, then y, then z, from
 *   the most negative corner.  Every catalogue point has its own coefficient (I = list position).
 */
#ifndef SSAM_STENCIL_SHAPES_CUH
#define SSAM_STENCIL_SHAPES_CUH

#include "base.cuh"

#define SSAM_STENCIL_RMAX 10

/* Extents by thermometer codes: THERM(v) = 2^min(v,10) - 1 for v > 0, else 0; the OR over a list
 * is the thermometer code of the largest v, and its bit count that v.  One list expansion per mask
 * (SSAM_SHAPE2D_MXLO ...); the generators evaluate each mask once into an enum. */
#define SSAM__THERM(v) ((v) <= 0 ? 0 : (1 << ((v) > 10 ? 10 : (v))) - 1)
#define SSAM__MXLO(I, DX, ...) | SSAM__THERM(-(DX))
#define SSAM__MXHI(I, DX, ...) | SSAM__THERM(DX)
#define SSAM__MYLO(I, DX, DY, ...) | SSAM__THERM(-(DY))
#define SSAM__MYHI(I, DX, DY, ...) | SSAM__THERM(DY)
#define SSAM__MZLO(I, DX, DY, DZ) | SSAM__THERM(-(DZ))
#define SSAM__MZHI(I, DX, DY, DZ) | SSAM__THERM(DZ)
#define SSAM__ONE(I, ...) +1
/* the bit count of a thermometer code m (0 .. 10) */
#define SSAM_THERM_COUNT(m)                                                                                 \
    (((m) > 0) + ((m) > 1) + ((m) > 3) + ((m) > 7) + ((m) > 15) + ((m) > 31) + ((m) > 63) + ((m) > 127) +  \
     ((m) > 255) + ((m) > 511))

#define SSAM_SHAPE_MXLO(S) (0 S(SSAM__MXLO))
#define SSAM_SHAPE_MXHI(S) (0 S(SSAM__MXHI))
#define SSAM_SHAPE_MYLO(S) (0 S(SSAM__MYLO))
#define SSAM_SHAPE_MYHI(S) (0 S(SSAM__MYHI))
#define SSAM_SHAPE_MZLO(S) (0 S(SSAM__MZLO))
#define SSAM_SHAPE_MZHI(S) (0 S(SSAM__MZHI))
#define SSAM_SHAPE2D_XLO(S) (-SSAM_THERM_COUNT(SSAM_SHAPE_MXLO(S)))
#define SSAM_SHAPE2D_XHI(S) (SSAM_THERM_COUNT(SSAM_SHAPE_MXHI(S)))
#define SSAM_SHAPE2D_YLO(S) (-SSAM_THERM_COUNT(SSAM_SHAPE_MYLO(S)))
#define SSAM_SHAPE2D_YHI(S) (SSAM_THERM_COUNT(SSAM_SHAPE_MYHI(S)))
#define SSAM_SHAPE2D_NPTS(S) (0 S(SSAM__ONE))
#define SSAM_SHAPE3D_XLO(S) SSAM_SHAPE2D_XLO(S)
#define SSAM_SHAPE3D_XHI(S) SSAM_SHAPE2D_XHI(S)
#define SSAM_SHAPE3D_YLO(S) SSAM_SHAPE2D_YLO(S)
#define SSAM_SHAPE3D_YHI(S) SSAM_SHAPE2D_YHI(S)
#define SSAM_SHAPE3D_ZLO(S) (-SSAM_THERM_COUNT(SSAM_SHAPE_MZLO(S)))
#define SSAM_SHAPE3D_ZHI(S) (SSAM_THERM_COUNT(SSAM_SHAPE_MZHI(S)))
#define SSAM_SHAPE3D_NPTS(S) (0 S(SSAM__ONE))

/* ---- a shape as a type: what the generators' function bodies take ---------------------------
 * SSAM_SHAPE2D_TYPE(S) / SSAM_SHAPE3D_TYPE(S) turn an X-macro list into ssam_shape<ssam_pt<I, DX,
 * DY, DZ>...>, whose points keep the list's order and whose extents are constants:
 *     typedef SSAM_SHAPE2D_TYPE(SSAM_SHAPE_STAR2D_R1) star;   // star::npts 5, star::xlo -1, ...
 * ssam_shape_each(S(), f) calls f(ssam_pt<I, DX, DY, DZ>()) once per point, in the list's order, at
 * compile time (a fold): a body reads the point's constants as decltype(pt)::dx and so on (under
 * NVRTC f cannot be a generic lambda, whose call operator NVRTC makes a host function: use a functor
 * with a template __device__ operator(), as ssam/stencil/row.cuh does there).
 * ::rmax is the largest |offset| (the generators refuse more than SSAM_STENCIL_RMAX), ::ibad 1 where
 * an index I lies outside [0, npts). */
template <int I, int DX, int DY, int DZ>
struct ssam_pt {
    enum { i = I, dx = DX, dy = DY, dz = DZ };
};
/* compile-time only; NVRTC takes no function without an execution space, so there they say both */
#ifdef __CUDACC_RTC__
#define SSAM__CX static constexpr __host__ __device__
#else
#define SSAM__CX static constexpr
#endif
SSAM__CX int ssam__cmin(int a) { return a; }
template <class... R>
SSAM__CX int ssam__cmin(int a, int b, R... r) { return ssam__cmin(a < b ? a : b, r...); }
SSAM__CX int ssam__cmax(int a) { return a; }
template <class... R>
SSAM__CX int ssam__cmax(int a, int b, R... r) { return ssam__cmax(a > b ? a : b, r...); }
template <class... P>
struct ssam_shape {
    enum {
        npts = (int)sizeof...(P),
        ncoef = ssam__cmax(0, (P::i + 1)...),
        xlo = ssam__cmin(0, P::dx...), xhi = ssam__cmax(0, P::dx...),
        ylo = ssam__cmin(0, P::dy...), yhi = ssam__cmax(0, P::dy...),
        zlo = ssam__cmin(0, P::dz...), zhi = ssam__cmax(0, P::dz...),
        rmax = ssam__cmax(-xlo, xhi, -ylo, yhi, -zlo, zhi),   /* the largest |offset| */
        ibad = (0 + ... + (P::i < 0 || P::i >= npts)) != 0   /* an index I outside [0, npts) */
    };
};
template <class F, class... P>
static __host__ __device__ __forceinline__ void ssam_shape_each(ssam_shape<P...>, F &&f)
{
    (f(P()), ...);
}
template <class Void, class... P>
struct ssam__shape_of {
    typedef ssam_shape<P...> type;
};
#define SSAM__PT2T(I, DX, DY) , ssam_pt<(I), (DX), (DY), 0>
#define SSAM__PT3T(I, DX, DY, DZ) , ssam_pt<(I), (DX), (DY), (DZ)>
#define SSAM_SHAPE2D_TYPE(S) typename ssam__shape_of<void S(SSAM__PT2T)>::type
#define SSAM_SHAPE3D_TYPE(S) typename ssam__shape_of<void S(SSAM__PT3T)>::type

/* ---- the catalogue (generated: every point listed) ------------------------------------------ */
/* star2d r1: 5 points, (0,0) first, then (-k,0) (k,0) (0,-k) (0,k) for k = 1..1 */
#define SSAM_SHAPE_STAR2D_R1(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1)

/* star2d r2: 9 points, (0,0) first, then (-k,0) (k,0) (0,-k) (0,k) for k = 1..2 */
#define SSAM_SHAPE_STAR2D_R2(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) \
    X(8, 0, 2)

/* star2d r3: 13 points, (0,0) first, then (-k,0) (k,0) (0,-k) (0,k) for k = 1..3 */
#define SSAM_SHAPE_STAR2D_R3(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) \
    X(8, 0, 2) X(9, -3, 0) X(10, 3, 0) X(11, 0, -3) X(12, 0, 3)

/* star2d r4: 17 points, (0,0) first, then (-k,0) (k,0) (0,-k) (0,k) for k = 1..4 */
#define SSAM_SHAPE_STAR2D_R4(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) \
    X(8, 0, 2) X(9, -3, 0) X(10, 3, 0) X(11, 0, -3) X(12, 0, 3) X(13, -4, 0) X(14, 4, 0) X(15, 0, -4) \
    X(16, 0, 4)

/* star2d r5: 21 points, (0,0) first, then (-k,0) (k,0) (0,-k) (0,k) for k = 1..5 */
#define SSAM_SHAPE_STAR2D_R5(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) \
    X(8, 0, 2) X(9, -3, 0) X(10, 3, 0) X(11, 0, -3) X(12, 0, 3) X(13, -4, 0) X(14, 4, 0) X(15, 0, -4) \
    X(16, 0, 4) X(17, -5, 0) X(18, 5, 0) X(19, 0, -5) X(20, 0, 5)

/* star2d r6: 25 points, (0,0) first, then (-k,0) (k,0) (0,-k) (0,k) for k = 1..6 */
#define SSAM_SHAPE_STAR2D_R6(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) \
    X(8, 0, 2) X(9, -3, 0) X(10, 3, 0) X(11, 0, -3) X(12, 0, 3) X(13, -4, 0) X(14, 4, 0) X(15, 0, -4) \
    X(16, 0, 4) X(17, -5, 0) X(18, 5, 0) X(19, 0, -5) X(20, 0, 5) X(21, -6, 0) X(22, 6, 0) X(23, 0, -6) \
    X(24, 0, 6)

/* box2d r1: 3x3 points, row-major from (-1,-1) */
#define SSAM_SHAPE_BOX2D_R1(X) \
    X(0, -1, -1) X(1, 0, -1) X(2, 1, -1) \
    X(3, -1, 0) X(4, 0, 0) X(5, 1, 0) \
    X(6, -1, 1) X(7, 0, 1) X(8, 1, 1)

/* box2d r2: 5x5 points, row-major from (-2,-2) */
#define SSAM_SHAPE_BOX2D_R2(X) \
    X(0, -2, -2) X(1, -1, -2) X(2, 0, -2) X(3, 1, -2) X(4, 2, -2) \
    X(5, -2, -1) X(6, -1, -1) X(7, 0, -1) X(8, 1, -1) X(9, 2, -1) \
    X(10, -2, 0) X(11, -1, 0) X(12, 0, 0) X(13, 1, 0) X(14, 2, 0) \
    X(15, -2, 1) X(16, -1, 1) X(17, 0, 1) X(18, 1, 1) X(19, 2, 1) \
    X(20, -2, 2) X(21, -1, 2) X(22, 0, 2) X(23, 1, 2) X(24, 2, 2)

/* box2d r4: 9x9 points, row-major from (-4,-4) */
#define SSAM_SHAPE_BOX2D_R4(X) \
    X(0, -4, -4) X(1, -3, -4) X(2, -2, -4) X(3, -1, -4) X(4, 0, -4) X(5, 1, -4) X(6, 2, -4) X(7, 3, -4) X(8, 4, -4) \
    X(9, -4, -3) X(10, -3, -3) X(11, -2, -3) X(12, -1, -3) X(13, 0, -3) X(14, 1, -3) X(15, 2, -3) X(16, 3, -3) X(17, 4, -3) \
    X(18, -4, -2) X(19, -3, -2) X(20, -2, -2) X(21, -1, -2) X(22, 0, -2) X(23, 1, -2) X(24, 2, -2) X(25, 3, -2) X(26, 4, -2) \
    X(27, -4, -1) X(28, -3, -1) X(29, -2, -1) X(30, -1, -1) X(31, 0, -1) X(32, 1, -1) X(33, 2, -1) X(34, 3, -1) X(35, 4, -1) \
    X(36, -4, 0) X(37, -3, 0) X(38, -2, 0) X(39, -1, 0) X(40, 0, 0) X(41, 1, 0) X(42, 2, 0) X(43, 3, 0) X(44, 4, 0) \
    X(45, -4, 1) X(46, -3, 1) X(47, -2, 1) X(48, -1, 1) X(49, 0, 1) X(50, 1, 1) X(51, 2, 1) X(52, 3, 1) X(53, 4, 1) \
    X(54, -4, 2) X(55, -3, 2) X(56, -2, 2) X(57, -1, 2) X(58, 0, 2) X(59, 1, 2) X(60, 2, 2) X(61, 3, 2) X(62, 4, 2) \
    X(63, -4, 3) X(64, -3, 3) X(65, -2, 3) X(66, -1, 3) X(67, 0, 3) X(68, 1, 3) X(69, 2, 3) X(70, 3, 3) X(71, 4, 3) \
    X(72, -4, 4) X(73, -3, 4) X(74, -2, 4) X(75, -1, 4) X(76, 0, 4) X(77, 1, 4) X(78, 2, 4) X(79, 3, 4) X(80, 4, 4)

/* box2d r5: 11x11 points, row-major from (-5,-5) */
#define SSAM_SHAPE_BOX2D_R5(X) \
    X(0, -5, -5) X(1, -4, -5) X(2, -3, -5) X(3, -2, -5) X(4, -1, -5) X(5, 0, -5) X(6, 1, -5) X(7, 2, -5) X(8, 3, -5) X(9, 4, -5) X(10, 5, -5) \
    X(11, -5, -4) X(12, -4, -4) X(13, -3, -4) X(14, -2, -4) X(15, -1, -4) X(16, 0, -4) X(17, 1, -4) X(18, 2, -4) X(19, 3, -4) X(20, 4, -4) X(21, 5, -4) \
    X(22, -5, -3) X(23, -4, -3) X(24, -3, -3) X(25, -2, -3) X(26, -1, -3) X(27, 0, -3) X(28, 1, -3) X(29, 2, -3) X(30, 3, -3) X(31, 4, -3) X(32, 5, -3) \
    X(33, -5, -2) X(34, -4, -2) X(35, -3, -2) X(36, -2, -2) X(37, -1, -2) X(38, 0, -2) X(39, 1, -2) X(40, 2, -2) X(41, 3, -2) X(42, 4, -2) X(43, 5, -2) \
    X(44, -5, -1) X(45, -4, -1) X(46, -3, -1) X(47, -2, -1) X(48, -1, -1) X(49, 0, -1) X(50, 1, -1) X(51, 2, -1) X(52, 3, -1) X(53, 4, -1) X(54, 5, -1) \
    X(55, -5, 0) X(56, -4, 0) X(57, -3, 0) X(58, -2, 0) X(59, -1, 0) X(60, 0, 0) X(61, 1, 0) X(62, 2, 0) X(63, 3, 0) X(64, 4, 0) X(65, 5, 0) \
    X(66, -5, 1) X(67, -4, 1) X(68, -3, 1) X(69, -2, 1) X(70, -1, 1) X(71, 0, 1) X(72, 1, 1) X(73, 2, 1) X(74, 3, 1) X(75, 4, 1) X(76, 5, 1) \
    X(77, -5, 2) X(78, -4, 2) X(79, -3, 2) X(80, -2, 2) X(81, -1, 2) X(82, 0, 2) X(83, 1, 2) X(84, 2, 2) X(85, 3, 2) X(86, 4, 2) X(87, 5, 2) \
    X(88, -5, 3) X(89, -4, 3) X(90, -3, 3) X(91, -2, 3) X(92, -1, 3) X(93, 0, 3) X(94, 1, 3) X(95, 2, 3) X(96, 3, 3) X(97, 4, 3) X(98, 5, 3) \
    X(99, -5, 4) X(100, -4, 4) X(101, -3, 4) X(102, -2, 4) X(103, -1, 4) X(104, 0, 4) X(105, 1, 4) X(106, 2, 4) X(107, 3, 4) X(108, 4, 4) X(109, 5, 4) \
    X(110, -5, 5) X(111, -4, 5) X(112, -3, 5) X(113, -2, 5) X(114, -1, 5) X(115, 0, 5) X(116, 1, 5) X(117, 2, 5) X(118, 3, 5) X(119, 4, 5) X(120, 5, 5)

/* box2d 8x8: dx, dy in [-3, 4], row-major from (-3,-3) */
#define SSAM_SHAPE_BOX2D_8X8(X) \
    X(0, -3, -3) X(1, -2, -3) X(2, -1, -3) X(3, 0, -3) X(4, 1, -3) X(5, 2, -3) X(6, 3, -3) X(7, 4, -3) \
    X(8, -3, -2) X(9, -2, -2) X(10, -1, -2) X(11, 0, -2) X(12, 1, -2) X(13, 2, -2) X(14, 3, -2) X(15, 4, -2) \
    X(16, -3, -1) X(17, -2, -1) X(18, -1, -1) X(19, 0, -1) X(20, 1, -1) X(21, 2, -1) X(22, 3, -1) X(23, 4, -1) \
    X(24, -3, 0) X(25, -2, 0) X(26, -1, 0) X(27, 0, 0) X(28, 1, 0) X(29, 2, 0) X(30, 3, 0) X(31, 4, 0) \
    X(32, -3, 1) X(33, -2, 1) X(34, -1, 1) X(35, 0, 1) X(36, 1, 1) X(37, 2, 1) X(38, 3, 1) X(39, 4, 1) \
    X(40, -3, 2) X(41, -2, 2) X(42, -1, 2) X(43, 0, 2) X(44, 1, 2) X(45, 2, 2) X(46, 3, 2) X(47, 4, 2) \
    X(48, -3, 3) X(49, -2, 3) X(50, -1, 3) X(51, 0, 3) X(52, 1, 3) X(53, 2, 3) X(54, 3, 3) X(55, 4, 3) \
    X(56, -3, 4) X(57, -2, 4) X(58, -1, 4) X(59, 0, 4) X(60, 1, 4) X(61, 2, 4) X(62, 3, 4) X(63, 4, 4)

/* star3d r1: 7 points, (0,0,0) first, then -x +x -y +y -z +z for k = 1..1 */
#define SSAM_SHAPE_STAR3D_R1(X) \
    X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 1, 0, 0) X(3, 0, -1, 0) X(4, 0, 1, 0) X(5, 0, 0, -1) X(6, 0, 0, 1)

/* star3d r2: 13 points, (0,0,0) first, then -x +x -y +y -z +z for k = 1..2 */
#define SSAM_SHAPE_STAR3D_R2(X) \
    X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 1, 0, 0) X(3, 0, -1, 0) X(4, 0, 1, 0) X(5, 0, 0, -1) X(6, 0, 0, 1) \
    X(7, -2, 0, 0) X(8, 2, 0, 0) X(9, 0, -2, 0) X(10, 0, 2, 0) X(11, 0, 0, -2) X(12, 0, 0, 2)

/* box3d r1: 27 points, x fastest, from (-1,-1,-1) */
#define SSAM_SHAPE_BOX3D_R1(X) \
    X(0, -1, -1, -1) X(1, 0, -1, -1) X(2, 1, -1, -1) \
    X(3, -1, 0, -1) X(4, 0, 0, -1) X(5, 1, 0, -1) \
    X(6, -1, 1, -1) X(7, 0, 1, -1) X(8, 1, 1, -1) \
    X(9, -1, -1, 0) X(10, 0, -1, 0) X(11, 1, -1, 0) \
    X(12, -1, 0, 0) X(13, 0, 0, 0) X(14, 1, 0, 0) \
    X(15, -1, 1, 0) X(16, 0, 1, 0) X(17, 1, 1, 0) \
    X(18, -1, -1, 1) X(19, 0, -1, 1) X(20, 1, -1, 1) \
    X(21, -1, 0, 1) X(22, 0, 0, 1) X(23, 1, 0, 1) \
    X(24, -1, 1, 1) X(25, 0, 1, 1) X(26, 1, 1, 1)

/* box3d r2: 125 points, x fastest, from (-2,-2,-2) */
#define SSAM_SHAPE_BOX3D_R2(X) \
    X(0, -2, -2, -2) X(1, -1, -2, -2) X(2, 0, -2, -2) X(3, 1, -2, -2) X(4, 2, -2, -2) \
    X(5, -2, -1, -2) X(6, -1, -1, -2) X(7, 0, -1, -2) X(8, 1, -1, -2) X(9, 2, -1, -2) \
    X(10, -2, 0, -2) X(11, -1, 0, -2) X(12, 0, 0, -2) X(13, 1, 0, -2) X(14, 2, 0, -2) \
    X(15, -2, 1, -2) X(16, -1, 1, -2) X(17, 0, 1, -2) X(18, 1, 1, -2) X(19, 2, 1, -2) \
    X(20, -2, 2, -2) X(21, -1, 2, -2) X(22, 0, 2, -2) X(23, 1, 2, -2) X(24, 2, 2, -2) \
    X(25, -2, -2, -1) X(26, -1, -2, -1) X(27, 0, -2, -1) X(28, 1, -2, -1) X(29, 2, -2, -1) \
    X(30, -2, -1, -1) X(31, -1, -1, -1) X(32, 0, -1, -1) X(33, 1, -1, -1) X(34, 2, -1, -1) \
    X(35, -2, 0, -1) X(36, -1, 0, -1) X(37, 0, 0, -1) X(38, 1, 0, -1) X(39, 2, 0, -1) \
    X(40, -2, 1, -1) X(41, -1, 1, -1) X(42, 0, 1, -1) X(43, 1, 1, -1) X(44, 2, 1, -1) \
    X(45, -2, 2, -1) X(46, -1, 2, -1) X(47, 0, 2, -1) X(48, 1, 2, -1) X(49, 2, 2, -1) \
    X(50, -2, -2, 0) X(51, -1, -2, 0) X(52, 0, -2, 0) X(53, 1, -2, 0) X(54, 2, -2, 0) \
    X(55, -2, -1, 0) X(56, -1, -1, 0) X(57, 0, -1, 0) X(58, 1, -1, 0) X(59, 2, -1, 0) \
    X(60, -2, 0, 0) X(61, -1, 0, 0) X(62, 0, 0, 0) X(63, 1, 0, 0) X(64, 2, 0, 0) \
    X(65, -2, 1, 0) X(66, -1, 1, 0) X(67, 0, 1, 0) X(68, 1, 1, 0) X(69, 2, 1, 0) \
    X(70, -2, 2, 0) X(71, -1, 2, 0) X(72, 0, 2, 0) X(73, 1, 2, 0) X(74, 2, 2, 0) \
    X(75, -2, -2, 1) X(76, -1, -2, 1) X(77, 0, -2, 1) X(78, 1, -2, 1) X(79, 2, -2, 1) \
    X(80, -2, -1, 1) X(81, -1, -1, 1) X(82, 0, -1, 1) X(83, 1, -1, 1) X(84, 2, -1, 1) \
    X(85, -2, 0, 1) X(86, -1, 0, 1) X(87, 0, 0, 1) X(88, 1, 0, 1) X(89, 2, 0, 1) \
    X(90, -2, 1, 1) X(91, -1, 1, 1) X(92, 0, 1, 1) X(93, 1, 1, 1) X(94, 2, 1, 1) \
    X(95, -2, 2, 1) X(96, -1, 2, 1) X(97, 0, 2, 1) X(98, 1, 2, 1) X(99, 2, 2, 1) \
    X(100, -2, -2, 2) X(101, -1, -2, 2) X(102, 0, -2, 2) X(103, 1, -2, 2) X(104, 2, -2, 2) \
    X(105, -2, -1, 2) X(106, -1, -1, 2) X(107, 0, -1, 2) X(108, 1, -1, 2) X(109, 2, -1, 2) \
    X(110, -2, 0, 2) X(111, -1, 0, 2) X(112, 0, 0, 2) X(113, 1, 0, 2) X(114, 2, 0, 2) \
    X(115, -2, 1, 2) X(116, -1, 1, 2) X(117, 0, 1, 2) X(118, 1, 1, 2) X(119, 2, 1, 2) \
    X(120, -2, 2, 2) X(121, -1, 2, 2) X(122, 0, 2, 2) X(123, 1, 2, 2) X(124, 2, 2, 2)

/* poisson 3d19: the 3x3x3 box less its 8 corners (|dx|+|dy|+|dz| <= 2), x fastest */
#define SSAM_SHAPE_POISSON3D_19(X) \
    X(0, 0, -1, -1) X(1, -1, 0, -1) X(2, 0, 0, -1) X(3, 1, 0, -1) X(4, 0, 1, -1) X(5, -1, -1, 0) X(6, 0, -1, 0) \
    X(7, 1, -1, 0) X(8, -1, 0, 0) X(9, 0, 0, 0) X(10, 1, 0, 0) X(11, -1, 1, 0) X(12, 0, 1, 0) X(13, 1, 1, 0) \
    X(14, 0, -1, 1) X(15, -1, 0, 1) X(16, 0, 0, 1) X(17, 1, 0, 1) X(18, 0, 1, 1)

/* ---- the papers' names ---------------------------------------------------------------------- */
#define SSAM_SHAPE_2D5PT(X) SSAM_SHAPE_STAR2D_R1(X)
#define SSAM_SHAPE_2D9PT(X) SSAM_SHAPE_STAR2D_R2(X)
#define SSAM_SHAPE_2D13PT(X) SSAM_SHAPE_STAR2D_R3(X)
#define SSAM_SHAPE_2D17PT(X) SSAM_SHAPE_STAR2D_R4(X)
#define SSAM_SHAPE_2D21PT(X) SSAM_SHAPE_STAR2D_R5(X)
#define SSAM_SHAPE_2DS25PT(X) SSAM_SHAPE_STAR2D_R6(X)
#define SSAM_SHAPE_2D9PT_BOX(X) SSAM_SHAPE_BOX2D_R1(X)
#define SSAM_SHAPE_2D25PT(X) SSAM_SHAPE_BOX2D_R2(X)
#define SSAM_SHAPE_2D64PT(X) SSAM_SHAPE_BOX2D_8X8(X)
#define SSAM_SHAPE_2D81PT(X) SSAM_SHAPE_BOX2D_R4(X)
#define SSAM_SHAPE_2D121PT(X) SSAM_SHAPE_BOX2D_R5(X)
#define SSAM_SHAPE_3D7PT(X) SSAM_SHAPE_STAR3D_R1(X)
#define SSAM_SHAPE_3D13PT(X) SSAM_SHAPE_STAR3D_R2(X)
#define SSAM_SHAPE_3D27PT(X) SSAM_SHAPE_BOX3D_R1(X)
#define SSAM_SHAPE_3D125PT(X) SSAM_SHAPE_BOX3D_R2(X)
#define SSAM_SHAPE_POISSON(X) SSAM_SHAPE_POISSON3D_19(X)

#endif /* SSAM_STENCIL_SHAPES_CUH */
#include <onchip/names_pop.h>
