#include <onchip/names_push.h>
/* onchip/operator.h -- the stencil model's operators: what a stencil's weights mean, and the face rule
 * of a coefficient field (C99; host and device; also NVRTC).
 *
 * WHAT (the engines that take them: docs/onchip.md#operators-onchipoperatorh)
 *   An operator is an int, given to a generator where the kernel depends on it:
 *     ONCHIP_OPERATOR_STENCIL  0  (A u)(c) = sum over the shape's points I of w[I] u(c + d_I)
 *     ONCHIP_OPERATOR_DIVK     1  (A u)(c) = s u(c) + sum over I != 0 of -w[I] k_I(c) (u(c) - u(c + d_I)),
 *                                 s = the sum of all w[I], k_I(c) = face(k(c), k(c + d_I)) from a cell
 *                                 field k > 0; k(c) stands in for k outside the domain
 *   With k = 1 everywhere DIVK is STENCIL (up to rounding).  On the radius-1 star with the weights of
 *   -laplace (centre 2 dims / h^2, arms -1 / h^2) DIVK is the finite-volume -div(k grad u); it is
 *   symmetric positive definite where every off-centre weight is <= 0 and s >= 0.
 *   The face rule (the engine's argument `face`):
 *     ONCHIP_FACE_ARITH     0  (a + b) / 2
 *     ONCHIP_FACE_HARMONIC  1  2 a b / (a + b), as 2 lo (hi / (lo + hi)): the same bits from either
 *                              side (lo, hi the smaller and the larger of a, b), relative error <= 3 u
 *
 * EXAMPLE
 *   [compile]
 *     #include <onchip/operator.h>
 *     double kf = onchip_face_k(ONCHIP_FACE_HARMONIC, 1.0, 1000.0);   // 1.998...
 *     int ok = onchip_face_valid(ONCHIP_FACE_ARITH);                  // 1
 *
 * FUNCTIONS (host and device; plain C99)
 *   onchip_face_valid(rule), onchip_face_name(rule) ("arithmetic", "harmonic" or a null pointer),
 *   onchip_face_k(rule, a, b) in double, onchip_face_kf(rule, a, b) in float, for a and b in
 *   [ONCHIP_FACE_KMIN, ONCHIP_FACE_KMAX] = [2^-64, 2^64] (the engines refuse a k outside it);
 *   device code (CUDA C++): onchip_face_k_dev(rule, a, b), float and double, the same rule without
 *   the division's slow path (that range keeps lo + hi far inside the fast reciprocal's)
 */
#ifndef ONCHIP_OPERATOR_H
#define ONCHIP_OPERATOR_H

#include <onchip/boundary.h> /* ONCHIP__HD */

#define ONCHIP_OPERATOR_STENCIL 0
#define ONCHIP_OPERATOR_DIVK 1
#define ONCHIP_FACE_ARITH 0
#define ONCHIP_FACE_HARMONIC 1
#define ONCHIP_FACE_KMIN 5.421010862427522e-20 /* 2^-64 */
#define ONCHIP_FACE_KMAX 1.8446744073709552e19 /* 2^64 */

ONCHIP__HD int onchip_face_valid(int rule) { return rule == ONCHIP_FACE_ARITH || rule == ONCHIP_FACE_HARMONIC; }

ONCHIP__HD const char *onchip_face_name(int rule)
{
    return rule == ONCHIP_FACE_ARITH ? "arithmetic" : rule == ONCHIP_FACE_HARMONIC ? "harmonic" : (const char *)0;
}

ONCHIP__HD double onchip_face_k(int rule, double a, double b)
{
    const double lo = a < b ? a : b, hi = a < b ? b : a;
    return rule == ONCHIP_FACE_HARMONIC ? 2 * lo * (hi / (lo + hi)) : 0.5 * (lo + hi);
}

ONCHIP__HD float onchip_face_kf(int rule, float a, float b)
{
    const float lo = a < b ? a : b, hi = a < b ? b : a;
    return rule == ONCHIP_FACE_HARMONIC ? 2 * lo * (hi / (lo + hi)) : 0.5f * (lo + hi);
}

#if defined(__CUDACC__)
/* float: __fdividef (lo + hi <= 2^65); double: 1 / (lo + hi) by two Newton steps from float's
 * reciprocal; the same bits from either side */
static __device__ __forceinline__ float onchip_face_k_dev(int rule, float a, float b)
{
    const float lo = fminf(a, b), hi = fmaxf(a, b);
    return rule == ONCHIP_FACE_HARMONIC ? 2 * lo * __fdividef(hi, lo + hi) : 0.5f * (lo + hi);
}
static __device__ __forceinline__ double onchip_face_k_dev(int rule, double a, double b)
{
    const double lo = fmin(a, b), hi = fmax(a, b), d = lo + hi;
    double r = (double)__frcp_rn((float)d);
    r = __fma_rn(r, __fma_rn(-d, r, 1.0), r);
    r = __fma_rn(r, __fma_rn(-d, r, 1.0), r);
    return rule == ONCHIP_FACE_HARMONIC ? 2 * lo * (hi * r) : 0.5 * d;
}
#endif

#endif /* ONCHIP_OPERATOR_H */
#include <onchip/names_pop.h>
