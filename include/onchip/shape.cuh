#include <onchip/names_push.h>
/* onchip/shape.cuh -- the stencil model's shape: a list of points, one catalogue, a shape as a type.
 *
 * WHAT (SSAM, Chen et al. SC'19, Table 3; PERKS, Zhang et al. ICS'23, Table 1; docs/onchip.md)
 *   A shape is an X-macro list: a macro that calls its argument X once per point,
 *       2D:  X(I, DX, DY)        3D:  X(I, DX, DY, DZ)
 *   (DX, DY[, DZ]) the offset of the input cell (DX along a row, DY down the rows, DZ across
 *   planes), I the index of its coefficient (points may share one; every I in [0, npts)):
 *       out(x, y[, z]) = sum over points  c[I] * in(x + DX, y + DY[, z + DZ])
 *
 * EXAMPLE (a user's asymmetric 2D shape with a shared coefficient, and its extents)
 *   [compile]
 *     #define MY_UPWIND(X) X(0, 0, 0) X(1, -1, 0) X(1, 0, -1) X(2, -2, 0) X(3, 1, 2)
 *     typedef ONCHIP_SHAPE2D_TYPE(MY_UPWIND) upwind;
 *     static_assert(upwind::xlo == -2 && upwind::yhi == 2 && upwind::ncoef == 4, "extents");
 *     static_assert(ONCHIP_SHAPE2D_NPTS(ONCHIP_SHAPE_STAR2D_R4) == 17, "17 points");
 *
 * THE SHAPE AS A TYPE
 *   ONCHIP_SHAPE2D_TYPE(S), ONCHIP_SHAPE3D_TYPE(S): onchip_shape<onchip_pt<I, DX, DY, DZ>...> in the
 *   list's order, constants ::npts ::ncoef (largest I + 1) ::xlo ::xhi ::ylo ::yhi ::zlo ::zhi
 *   (lo <= 0 <= hi) ::rmax (the largest |offset|) ::ibad (1: an I outside [0, npts)); the same as
 *   expressions: ONCHIP_SHAPE2D_XLO(S) ... _NPTS(S), _RADIUS(S).  onchip_shape_each(S(), f) calls
 *   f(onchip_pt<...>()) per point at compile time (under NVRTC f is a functor, not a generic lambda).
 *
 * THE CATALOGUE (docs/onchip.md#the-catalogue; the papers' names as aliases, below)
 *   ONCHIP_SHAPE_STAR2D_R1 .. _R8, _BOX2D_R1, _R2, _R4, _R5, _BOX2D_8X8 (offsets -3 .. 4),
 *   _STAR3D_R1 .. _R8, _BOX3D_R1, _R2, _POISSON3D_19 (the 3x3x3 box less its corners); every
 *   point its own coefficient, in the order given beside each.
 * LIMITS
 *   Offsets are compile-time integers; each engine bounds the radius it takes (its own sentence).
 */
#ifndef ONCHIP_SHAPE_CUH
#define ONCHIP_SHAPE_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

template <int I, int DX, int DY, int DZ>
struct onchip_pt {
    enum { i = I, dx = DX, dy = DY, dz = DZ };
};
/* compile-time only; NVRTC takes no function without an execution space, so there they say both */
#ifdef __CUDACC_RTC__
#define ONCHIP__CX static constexpr __host__ __device__
#else
#define ONCHIP__CX static constexpr
#endif
ONCHIP__CX int onchip__cmin(int a) { return a; }
template <class... R>
ONCHIP__CX int onchip__cmin(int a, int b, R... r) { return onchip__cmin(a < b ? a : b, r...); }
ONCHIP__CX int onchip__cmax(int a) { return a; }
template <class... R>
ONCHIP__CX int onchip__cmax(int a, int b, R... r) { return onchip__cmax(a > b ? a : b, r...); }
template <class... P>
struct onchip_shape {
    enum {
        npts = (int)sizeof...(P),
        ncoef = onchip__cmax(0, (P::i + 1)...),
        xlo = onchip__cmin(0, P::dx...), xhi = onchip__cmax(0, P::dx...),
        ylo = onchip__cmin(0, P::dy...), yhi = onchip__cmax(0, P::dy...),
        zlo = onchip__cmin(0, P::dz...), zhi = onchip__cmax(0, P::dz...),
        rmax = onchip__cmax(-xlo, xhi, -ylo, yhi, -zlo, zhi),
        ibad = (0 + ... + (P::i < 0 || P::i >= npts)) != 0
    };
};
template <class F, class... P>
static __host__ __device__ __forceinline__ void onchip_shape_each(onchip_shape<P...>, F &&f)
{
    (f(P()), ...);
}
template <class Void, class... P>
struct onchip__shape_of {
    typedef onchip_shape<P...> type;
};
#define ONCHIP__PT2T(I, DX, DY) , onchip_pt<(I), (DX), (DY), 0>
#define ONCHIP__PT3T(I, DX, DY, DZ) , onchip_pt<(I), (DX), (DY), (DZ)>
#define ONCHIP_SHAPE2D_TYPE(S) typename onchip__shape_of<void S(ONCHIP__PT2T)>::type
#define ONCHIP_SHAPE3D_TYPE(S) typename onchip__shape_of<void S(ONCHIP__PT3T)>::type
#define ONCHIP__SHAPE2D(S, F) ((int)onchip__shape_of<void S(ONCHIP__PT2T)>::type::F)
#define ONCHIP__SHAPE3D(S, F) ((int)onchip__shape_of<void S(ONCHIP__PT3T)>::type::F)
#define ONCHIP_SHAPE2D_XLO(S) ONCHIP__SHAPE2D(S, xlo)
#define ONCHIP_SHAPE2D_XHI(S) ONCHIP__SHAPE2D(S, xhi)
#define ONCHIP_SHAPE2D_YLO(S) ONCHIP__SHAPE2D(S, ylo)
#define ONCHIP_SHAPE2D_YHI(S) ONCHIP__SHAPE2D(S, yhi)
#define ONCHIP_SHAPE2D_NPTS(S) ONCHIP__SHAPE2D(S, npts)
#define ONCHIP_SHAPE2D_RADIUS(S) ONCHIP__SHAPE2D(S, rmax)
#define ONCHIP_SHAPE3D_XLO(S) ONCHIP__SHAPE3D(S, xlo)
#define ONCHIP_SHAPE3D_XHI(S) ONCHIP__SHAPE3D(S, xhi)
#define ONCHIP_SHAPE3D_YLO(S) ONCHIP__SHAPE3D(S, ylo)
#define ONCHIP_SHAPE3D_YHI(S) ONCHIP__SHAPE3D(S, yhi)
#define ONCHIP_SHAPE3D_ZLO(S) ONCHIP__SHAPE3D(S, zlo)
#define ONCHIP_SHAPE3D_ZHI(S) ONCHIP__SHAPE3D(S, zhi)
#define ONCHIP_SHAPE3D_NPTS(S) ONCHIP__SHAPE3D(S, npts)
#define ONCHIP_SHAPE3D_RADIUS(S) ONCHIP__SHAPE3D(S, rmax)

/* ---- the catalogue */
/* the stars: the centre, then for r = 1, 2, ... the arms at distance r in the order -x, +x, -y, +y
 * (, -z, +z), numbered on */
#define ONCHIP__STAR2D_ARMS(X, R) X((4 * (R)-3), -(R), 0) X((4 * (R)-2), (R), 0) X((4 * (R)-1), 0, -(R)) X((4 * (R)), 0, (R))
#define ONCHIP__STAR3D_ARMS(X, R)                                                                       \
    X((6 * (R)-5), -(R), 0, 0) X((6 * (R)-4), (R), 0, 0) X((6 * (R)-3), 0, -(R), 0) X((6 * (R)-2), 0, (R), 0) \
    X((6 * (R)-1), 0, 0, -(R)) X((6 * (R)), 0, 0, (R))
#define ONCHIP_SHAPE_STAR2D_R1(X) \
    X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1)

#define ONCHIP_SHAPE_STAR2D_R2(X) ONCHIP_SHAPE_STAR2D_R1(X) ONCHIP__STAR2D_ARMS(X, 2)
#define ONCHIP_SHAPE_STAR2D_R3(X) ONCHIP_SHAPE_STAR2D_R2(X) ONCHIP__STAR2D_ARMS(X, 3)
#define ONCHIP_SHAPE_STAR2D_R4(X) ONCHIP_SHAPE_STAR2D_R3(X) ONCHIP__STAR2D_ARMS(X, 4)
#define ONCHIP_SHAPE_STAR2D_R5(X) ONCHIP_SHAPE_STAR2D_R4(X) ONCHIP__STAR2D_ARMS(X, 5)
#define ONCHIP_SHAPE_STAR2D_R6(X) ONCHIP_SHAPE_STAR2D_R5(X) ONCHIP__STAR2D_ARMS(X, 6)
#define ONCHIP_SHAPE_STAR2D_R7(X) ONCHIP_SHAPE_STAR2D_R6(X) ONCHIP__STAR2D_ARMS(X, 7)
#define ONCHIP_SHAPE_STAR2D_R8(X) ONCHIP_SHAPE_STAR2D_R7(X) ONCHIP__STAR2D_ARMS(X, 8)

/* box2d r1: 3x3, rows from (-1,-1) */
#define ONCHIP_SHAPE_BOX2D_R1(X) \
    X(0, -1, -1) X(1, 0, -1) X(2, 1, -1) \
    X(3, -1, 0) X(4, 0, 0) X(5, 1, 0) \
    X(6, -1, 1) X(7, 0, 1) X(8, 1, 1)

/* box2d r2: 5x5, rows from (-2,-2) */
#define ONCHIP_SHAPE_BOX2D_R2(X) \
    X(0, -2, -2) X(1, -1, -2) X(2, 0, -2) X(3, 1, -2) X(4, 2, -2) \
    X(5, -2, -1) X(6, -1, -1) X(7, 0, -1) X(8, 1, -1) X(9, 2, -1) \
    X(10, -2, 0) X(11, -1, 0) X(12, 0, 0) X(13, 1, 0) X(14, 2, 0) \
    X(15, -2, 1) X(16, -1, 1) X(17, 0, 1) X(18, 1, 1) X(19, 2, 1) \
    X(20, -2, 2) X(21, -1, 2) X(22, 0, 2) X(23, 1, 2) X(24, 2, 2)

/* box2d r4: 9x9, rows from (-4,-4) */
#define ONCHIP_SHAPE_BOX2D_R4(X) \
    X(0, -4, -4) X(1, -3, -4) X(2, -2, -4) X(3, -1, -4) X(4, 0, -4) X(5, 1, -4) X(6, 2, -4) X(7, 3, -4) X(8, 4, -4) \
    X(9, -4, -3) X(10, -3, -3) X(11, -2, -3) X(12, -1, -3) X(13, 0, -3) X(14, 1, -3) X(15, 2, -3) X(16, 3, -3) X(17, 4, -3) \
    X(18, -4, -2) X(19, -3, -2) X(20, -2, -2) X(21, -1, -2) X(22, 0, -2) X(23, 1, -2) X(24, 2, -2) X(25, 3, -2) X(26, 4, -2) \
    X(27, -4, -1) X(28, -3, -1) X(29, -2, -1) X(30, -1, -1) X(31, 0, -1) X(32, 1, -1) X(33, 2, -1) X(34, 3, -1) X(35, 4, -1) \
    X(36, -4, 0) X(37, -3, 0) X(38, -2, 0) X(39, -1, 0) X(40, 0, 0) X(41, 1, 0) X(42, 2, 0) X(43, 3, 0) X(44, 4, 0) \
    X(45, -4, 1) X(46, -3, 1) X(47, -2, 1) X(48, -1, 1) X(49, 0, 1) X(50, 1, 1) X(51, 2, 1) X(52, 3, 1) X(53, 4, 1) \
    X(54, -4, 2) X(55, -3, 2) X(56, -2, 2) X(57, -1, 2) X(58, 0, 2) X(59, 1, 2) X(60, 2, 2) X(61, 3, 2) X(62, 4, 2) \
    X(63, -4, 3) X(64, -3, 3) X(65, -2, 3) X(66, -1, 3) X(67, 0, 3) X(68, 1, 3) X(69, 2, 3) X(70, 3, 3) X(71, 4, 3) \
    X(72, -4, 4) X(73, -3, 4) X(74, -2, 4) X(75, -1, 4) X(76, 0, 4) X(77, 1, 4) X(78, 2, 4) X(79, 3, 4) X(80, 4, 4)

/* box2d r5: 11x11, rows from (-5,-5) */
#define ONCHIP_SHAPE_BOX2D_R5(X) \
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

/* box2d 8x8: offsets -3 .. 4, rows from (-3,-3) */
#define ONCHIP_SHAPE_BOX2D_8X8(X) \
    X(0, -3, -3) X(1, -2, -3) X(2, -1, -3) X(3, 0, -3) X(4, 1, -3) X(5, 2, -3) X(6, 3, -3) X(7, 4, -3) \
    X(8, -3, -2) X(9, -2, -2) X(10, -1, -2) X(11, 0, -2) X(12, 1, -2) X(13, 2, -2) X(14, 3, -2) X(15, 4, -2) \
    X(16, -3, -1) X(17, -2, -1) X(18, -1, -1) X(19, 0, -1) X(20, 1, -1) X(21, 2, -1) X(22, 3, -1) X(23, 4, -1) \
    X(24, -3, 0) X(25, -2, 0) X(26, -1, 0) X(27, 0, 0) X(28, 1, 0) X(29, 2, 0) X(30, 3, 0) X(31, 4, 0) \
    X(32, -3, 1) X(33, -2, 1) X(34, -1, 1) X(35, 0, 1) X(36, 1, 1) X(37, 2, 1) X(38, 3, 1) X(39, 4, 1) \
    X(40, -3, 2) X(41, -2, 2) X(42, -1, 2) X(43, 0, 2) X(44, 1, 2) X(45, 2, 2) X(46, 3, 2) X(47, 4, 2) \
    X(48, -3, 3) X(49, -2, 3) X(50, -1, 3) X(51, 0, 3) X(52, 1, 3) X(53, 2, 3) X(54, 3, 3) X(55, 4, 3) \
    X(56, -3, 4) X(57, -2, 4) X(58, -1, 4) X(59, 0, 4) X(60, 1, 4) X(61, 2, 4) X(62, 3, 4) X(63, 4, 4)

#define ONCHIP_SHAPE_STAR3D_R1(X) \
    X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 1, 0, 0) X(3, 0, -1, 0) X(4, 0, 1, 0) X(5, 0, 0, -1) \
    X(6, 0, 0, 1)

#define ONCHIP_SHAPE_STAR3D_R2(X) ONCHIP_SHAPE_STAR3D_R1(X) ONCHIP__STAR3D_ARMS(X, 2)
#define ONCHIP_SHAPE_STAR3D_R3(X) ONCHIP_SHAPE_STAR3D_R2(X) ONCHIP__STAR3D_ARMS(X, 3)
#define ONCHIP_SHAPE_STAR3D_R4(X) ONCHIP_SHAPE_STAR3D_R3(X) ONCHIP__STAR3D_ARMS(X, 4)
#define ONCHIP_SHAPE_STAR3D_R5(X) ONCHIP_SHAPE_STAR3D_R4(X) ONCHIP__STAR3D_ARMS(X, 5)
#define ONCHIP_SHAPE_STAR3D_R6(X) ONCHIP_SHAPE_STAR3D_R5(X) ONCHIP__STAR3D_ARMS(X, 6)
#define ONCHIP_SHAPE_STAR3D_R7(X) ONCHIP_SHAPE_STAR3D_R6(X) ONCHIP__STAR3D_ARMS(X, 7)
#define ONCHIP_SHAPE_STAR3D_R8(X) ONCHIP_SHAPE_STAR3D_R7(X) ONCHIP__STAR3D_ARMS(X, 8)

/* box3d r1: 27 points, x fastest, from (-1,-1,-1) */
#define ONCHIP_SHAPE_BOX3D_R1(X) \
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
#define ONCHIP_SHAPE_BOX3D_R2(X) \
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

/* poisson3d 19: the 3x3x3 box less its 8 corners, x fastest */
#define ONCHIP_SHAPE_POISSON3D_19(X) \
    X(0, 0, -1, -1) X(1, -1, 0, -1) X(2, 0, 0, -1) X(3, 1, 0, -1) X(4, 0, 1, -1) X(5, -1, -1, 0) X(6, 0, -1, 0) \
    X(7, 1, -1, 0) X(8, -1, 0, 0) X(9, 0, 0, 0) X(10, 1, 0, 0) X(11, -1, 1, 0) X(12, 0, 1, 0) X(13, 1, 1, 0) \
    X(14, 0, -1, 1) X(15, -1, 0, 1) X(16, 0, 0, 1) X(17, 1, 0, 1) X(18, 0, 1, 1)

/* ---- the papers' names ("S" marks the star where a count names a star and a box: 2DS9PT the
 * radius-2 star, 2D9PT the 3x3 box) */
#define ONCHIP_SHAPE_2D5PT(X) ONCHIP_SHAPE_STAR2D_R1(X)
#define ONCHIP_SHAPE_2DS9PT(X) ONCHIP_SHAPE_STAR2D_R2(X)
#define ONCHIP_SHAPE_2D13PT(X) ONCHIP_SHAPE_STAR2D_R3(X)
#define ONCHIP_SHAPE_2D17PT(X) ONCHIP_SHAPE_STAR2D_R4(X)
#define ONCHIP_SHAPE_2D21PT(X) ONCHIP_SHAPE_STAR2D_R5(X)
#define ONCHIP_SHAPE_2DS25PT(X) ONCHIP_SHAPE_STAR2D_R6(X)
#define ONCHIP_SHAPE_2D9PT(X) ONCHIP_SHAPE_BOX2D_R1(X)
#define ONCHIP_SHAPE_2D25PT(X) ONCHIP_SHAPE_BOX2D_R2(X)
#define ONCHIP_SHAPE_2D64PT(X) ONCHIP_SHAPE_BOX2D_8X8(X)
#define ONCHIP_SHAPE_2D81PT(X) ONCHIP_SHAPE_BOX2D_R4(X)
#define ONCHIP_SHAPE_2D121PT(X) ONCHIP_SHAPE_BOX2D_R5(X)
#define ONCHIP_SHAPE_3D7PT(X) ONCHIP_SHAPE_STAR3D_R1(X)
#define ONCHIP_SHAPE_3D13PT(X) ONCHIP_SHAPE_STAR3D_R2(X)
#define ONCHIP_SHAPE_3D25PT(X) ONCHIP_SHAPE_STAR3D_R4(X)
#define ONCHIP_SHAPE_3D27PT(X) ONCHIP_SHAPE_BOX3D_R1(X)
#define ONCHIP_SHAPE_3D125PT(X) ONCHIP_SHAPE_BOX3D_R2(X)
#define ONCHIP_SHAPE_POISSON(X) ONCHIP_SHAPE_POISSON3D_19(X)

#endif /* ONCHIP_SHAPE_CUH */
#include <onchip/names_pop.h>
