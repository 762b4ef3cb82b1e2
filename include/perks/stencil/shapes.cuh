#include <onchip/names_push.h>
/* perks/stencil/shapes.cuh -- stencil shapes for the perks generators: the catalogue as X-macro lists
 * and a shape as a type, so that the function bodies take the shape as a template argument.
 *
 * WHAT (PERKS paper Table 1; the same list format as ssam/stencil_shapes.cuh, so SSAM_SHAPE_* lists
 * work here unchanged, while perks needs nothing from ssam)
 *   A shape is an X-macro list of points: X(I, DX, DY) in 2D, X(I, DX, DY, DZ) in 3D.  I is the
 *   coefficient's index, (DX, DY, DZ) the neighbour's offset; a step computes, in the list's order,
 *   one fma per point:  out(x, y) = sum of c[I] * in(x + DX, y + DY).
 *     #define MY(X) X(0, 0, 0) X(1, -1, 0) X(2, 1, 0)             // a user's own shape
 *     PERKS_STENCIL2D_DEFINE(my, float, MY, 256, 8, 0)
 *
 *   PERKS_SHAPE_STAR2D_R1..R6, PERKS_SHAPE_BOX2D_R1, _R2          the 2D catalogue
 *   PERKS_SHAPE_STAR3D_R1, _R2, PERKS_SHAPE_BOX3D_R1, _R2, PERKS_SHAPE_POISSON3D_19   the 3D one
 *   PERKS_SHAPE_2D5PT ... PERKS_SHAPE_POISSON                      the papers' names (aliases)
 *   PERKS_SHAPE2D_TYPE(S), PERKS_SHAPE3D_TYPE(S)   the list as perks_shape<perks_pt<I, DX, DY, DZ>...>:
 *       its points in the list's order and constant extents ::npts ::ncoef ::xlo ::xhi ::ylo ::yhi
 *       ::zlo ::zhi and ::r (the radius, max |offset|)
 *   perks_shape_each(S(), f)      calls f(perks_pt<I, DX, DY, DZ>()) once per point in the list's
 *                                 order, at compile time (a C++17 fold); f reads decltype(pt)::dx ...
 *                                 (under NVRTC f cannot be a generic lambda, whose call operator
 *                                 NVRTC makes a host function: use a functor with a template
 *                                 __device__ operator())
 *   PERKS_SHAPE2D_NPTS(S), PERKS_SHAPE2D_RADIUS(S), PERKS_SHAPE3D_NPTS(S), PERKS_SHAPE3D_RADIUS(S)
 *                                 the extents as constant expressions (also outside templates);
 *   PERKS_SHAPE2D_TOO_FAR(S), PERKS_SHAPE3D_TOO_FAR(S)   the radius past the generators' limit
 *
 * LIMITS
 *   Offsets are compile-time integers; the generators bound the radius (2D: 8, 3D: 4).
 */
#ifndef PERKS_STENCIL_SHAPES_CUH
#define PERKS_STENCIL_SHAPES_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

/* ---- a shape as a type ------------------------------------------------------------------------ */
template <int I, int DX, int DY, int DZ>
struct perks_pt {
    enum { i = I, dx = DX, dy = DY, dz = DZ };
};
/* compile-time only; NVRTC takes no function without an execution space, so there they say both */
#ifdef __CUDACC_RTC__
#define PERKS__CX static constexpr __host__ __device__
#else
#define PERKS__CX static constexpr
#endif
PERKS__CX int perks__cmin(int a) { return a; }
template <class... R>
PERKS__CX int perks__cmin(int a, int b, R... r) { return perks__cmin(a < b ? a : b, r...); }
PERKS__CX int perks__cmax(int a) { return a; }
template <class... R>
PERKS__CX int perks__cmax(int a, int b, R... r) { return perks__cmax(a > b ? a : b, r...); }
template <class... P>
struct perks_shape {
    enum {
        npts = (int)sizeof...(P),
        ncoef = perks__cmax(0, (P::i + 1)...),
        xlo = perks__cmin(0, P::dx...), xhi = perks__cmax(0, P::dx...),
        ylo = perks__cmin(0, P::dy...), yhi = perks__cmax(0, P::dy...),
        zlo = perks__cmin(0, P::dz...), zhi = perks__cmax(0, P::dz...),
        r = perks__cmax(-xlo, xhi, -ylo, yhi, -zlo, zhi)
    };
};
template <class F, class... P>
static __host__ __device__ __forceinline__ void perks_shape_each(perks_shape<P...>, F &&f)
{
    (f(P()), ...);
}
template <class Void, class... P>
struct perks__shape_of {
    typedef perks_shape<P...> type;
};
#define PERKS__PT2T(I, DX, DY) , perks_pt<(I), (DX), (DY), 0>
#define PERKS__PT3T(I, DX, DY, DZ) , perks_pt<(I), (DX), (DY), (DZ)>
#define PERKS_SHAPE2D_TYPE(S) typename perks__shape_of<void S(PERKS__PT2T)>::type
#define PERKS_SHAPE3D_TYPE(S) typename perks__shape_of<void S(PERKS__PT3T)>::type
#define PERKS_SHAPE2D_NPTS(S) ((int)perks__shape_of<void S(PERKS__PT2T)>::type::npts)
#define PERKS_SHAPE2D_RADIUS(S) ((int)perks__shape_of<void S(PERKS__PT2T)>::type::r)
#define PERKS_SHAPE3D_NPTS(S) ((int)perks__shape_of<void S(PERKS__PT3T)>::type::npts)
#define PERKS_SHAPE3D_RADIUS(S) ((int)perks__shape_of<void S(PERKS__PT3T)>::type::r)
#define PERKS_SHAPE2D_TOO_FAR(S) (PERKS_SHAPE2D_RADIUS(S) > 8) /* beyond PERKS_STENCIL2D_DEFINE's reach */
#define PERKS_SHAPE3D_TOO_FAR(S) (PERKS_SHAPE3D_RADIUS(S) > 4) /* beyond PERKS_STENCIL3D_DEFINE's reach */

/* ---- the 2D catalogue, X(I, DX, DY) ----------------------------------------------------------- */
#define PERKS_SHAPE_STAR2D_R1(X) X(0, 0, 0) X(1, -1, 0) X(2, 1, 0) X(3, 0, -1) X(4, 0, 1)
#define PERKS_SHAPE_STAR2D_R2(X) PERKS_SHAPE_STAR2D_R1(X) X(5, -2, 0) X(6, 2, 0) X(7, 0, -2) X(8, 0, 2)
#define PERKS_SHAPE_STAR2D_R3(X) PERKS_SHAPE_STAR2D_R2(X) X(9, -3, 0) X(10, 3, 0) X(11, 0, -3) X(12, 0, 3)
#define PERKS_SHAPE_STAR2D_R4(X) PERKS_SHAPE_STAR2D_R3(X) X(13, -4, 0) X(14, 4, 0) X(15, 0, -4) X(16, 0, 4)
#define PERKS_SHAPE_STAR2D_R5(X) PERKS_SHAPE_STAR2D_R4(X) X(17, -5, 0) X(18, 5, 0) X(19, 0, -5) X(20, 0, 5)
#define PERKS_SHAPE_STAR2D_R6(X) PERKS_SHAPE_STAR2D_R5(X) X(21, -6, 0) X(22, 6, 0) X(23, 0, -6) X(24, 0, 6)
#define PERKS_SHAPE_BOX2D_R1(X)                                                                       \
    X(0, -1, -1) X(1, 0, -1) X(2, 1, -1) X(3, -1, 0) X(4, 0, 0) X(5, 1, 0) X(6, -1, 1) X(7, 0, 1) X(8, 1, 1)
#define PERKS__BOXROW2(X, B, DY) X(B, -2, DY) X(B + 1, -1, DY) X(B + 2, 0, DY) X(B + 3, 1, DY) X(B + 4, 2, DY)
#define PERKS_SHAPE_BOX2D_R2(X)                                                                       \
    PERKS__BOXROW2(X, 0, -2) PERKS__BOXROW2(X, 5, -1) PERKS__BOXROW2(X, 10, 0) PERKS__BOXROW2(X, 15, 1) \
        PERKS__BOXROW2(X, 20, 2)
/* the papers' names (PERKS Table 1): 2d5pt, 2ds9pt, 2d13pt, 2d17pt, 2d21pt, 2ds25pt, 2d9pt, 2d25pt */
#define PERKS_SHAPE_2D5PT(X) PERKS_SHAPE_STAR2D_R1(X)
#define PERKS_SHAPE_2DS9PT(X) PERKS_SHAPE_STAR2D_R2(X)
#define PERKS_SHAPE_2D13PT(X) PERKS_SHAPE_STAR2D_R3(X)
#define PERKS_SHAPE_2D17PT(X) PERKS_SHAPE_STAR2D_R4(X)
#define PERKS_SHAPE_2D21PT(X) PERKS_SHAPE_STAR2D_R5(X)
#define PERKS_SHAPE_2DS25PT(X) PERKS_SHAPE_STAR2D_R6(X)
#define PERKS_SHAPE_2D9PT(X) PERKS_SHAPE_BOX2D_R1(X)
#define PERKS_SHAPE_2D25PT(X) PERKS_SHAPE_BOX2D_R2(X)

/* ---- the 3D catalogue, X(I, DX, DY, DZ) ------------------------------------------------------- */
#define PERKS_SHAPE_STAR3D_R1(X)                                                                     \
    X(0, 0, 0, 0) X(1, -1, 0, 0) X(2, 1, 0, 0) X(3, 0, -1, 0) X(4, 0, 1, 0) X(5, 0, 0, -1) X(6, 0, 0, 1)
#define PERKS_SHAPE_STAR3D_R2(X)                                                                     \
    PERKS_SHAPE_STAR3D_R1(X) X(7, -2, 0, 0) X(8, 2, 0, 0) X(9, 0, -2, 0) X(10, 0, 2, 0) X(11, 0, 0, -2) \
        X(12, 0, 0, 2)
#define PERKS__B3ROW1(X, B, DY, DZ) X(B, -1, DY, DZ) X(B + 1, 0, DY, DZ) X(B + 2, 1, DY, DZ)
#define PERKS__B3PLANE1(X, B, DZ) PERKS__B3ROW1(X, B, -1, DZ) PERKS__B3ROW1(X, B + 3, 0, DZ) PERKS__B3ROW1(X, B + 6, 1, DZ)
#define PERKS_SHAPE_BOX3D_R1(X) PERKS__B3PLANE1(X, 0, -1) PERKS__B3PLANE1(X, 9, 0) PERKS__B3PLANE1(X, 18, 1)
#define PERKS__B3ROW2(X, B, DY, DZ)                                                                  \
    X(B, -2, DY, DZ) X(B + 1, -1, DY, DZ) X(B + 2, 0, DY, DZ) X(B + 3, 1, DY, DZ) X(B + 4, 2, DY, DZ)
#define PERKS__B3PLANE2(X, B, DZ)                                                                    \
    PERKS__B3ROW2(X, B, -2, DZ) PERKS__B3ROW2(X, B + 5, -1, DZ) PERKS__B3ROW2(X, B + 10, 0, DZ)      \
        PERKS__B3ROW2(X, B + 15, 1, DZ) PERKS__B3ROW2(X, B + 20, 2, DZ)
#define PERKS_SHAPE_BOX3D_R2(X)                                                                      \
    PERKS__B3PLANE2(X, 0, -2) PERKS__B3PLANE2(X, 25, -1) PERKS__B3PLANE2(X, 50, 0) PERKS__B3PLANE2(X, 75, 1) \
        PERKS__B3PLANE2(X, 100, 2)
#define PERKS_SHAPE_POISSON3D_19(X)                                                                  \
    X(0, 0, -1, -1) X(1, -1, 0, -1) X(2, 0, 0, -1) X(3, 1, 0, -1) X(4, 0, 1, -1) X(5, -1, -1, 0)     \
        X(6, 0, -1, 0) X(7, 1, -1, 0) X(8, -1, 0, 0) X(9, 0, 0, 0) X(10, 1, 0, 0) X(11, -1, 1, 0)    \
            X(12, 0, 1, 0) X(13, 1, 1, 0) X(14, 0, -1, 1) X(15, -1, 0, 1) X(16, 0, 0, 1) X(17, 1, 0, 1) \
                X(18, 0, 1, 1)
/* the papers' names (PERKS Table 1 / SSAM): 3d7pt, 3d13pt, 3d27pt, 3d125pt, poisson (19 points) */
#define PERKS_SHAPE_3D7PT(X) PERKS_SHAPE_STAR3D_R1(X)
#define PERKS_SHAPE_3D13PT(X) PERKS_SHAPE_STAR3D_R2(X)
#define PERKS_SHAPE_3D27PT(X) PERKS_SHAPE_BOX3D_R1(X)
#define PERKS_SHAPE_3D125PT(X) PERKS_SHAPE_BOX3D_R2(X)
#define PERKS_SHAPE_POISSON(X) PERKS_SHAPE_POISSON3D_19(X)

#endif /* PERKS_STENCIL_SHAPES_CUH */
#include <onchip/names_pop.h>
