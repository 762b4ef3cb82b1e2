/* tests/common/bounds_conv.h -- per-element error bounds for the GPU tests of sums of products
 * (test_ssam_conv, test_ssam_conv_tc, test_ssam_pieces, test_cbi) and of prefix sums
 * (test_ssam_scan).  A norm over the whole output hides a wrong cell among many right ones; these
 * bounds hold for every output on its own, from the arithmetic that makes it.
 *
 * A sum of products out = sum_k w_k x_k over K taps, checked against a reference in double that
 * sees the inputs as the kernel stores them, with mag = sum_k |w_k x_k| (the reference's companion):
 *   |out - ref| <= e + u_out (|ref| + e) + abs_out,   e = (u_in + c (K + 1) u_acc) mag
 *     u_in     the relative error of each product from inputs the kernel rounds further than the
 *              reference does (TF32 operands), 0 where the reference rounds them the same way
 *     u_acc    the unit roundoff of the accumulator: 2^-24 FP32 rounded to nearest, 2^-23 the
 *              tensor core's FP32 adder (it truncates), 2^-53 FP64 (2^-52 on tensor cores)
 *     c        the safety factor: one rounding per tap is the bound of any summation order (a
 *              product and its add as two roundings doubles it; the reference's own rounding in
 *              double adds one more for FP64)
 *     u_out    the unit roundoff of an output stored narrower than the accumulator (2^-11 half,
 *              2^-8 bf16: rounded to nearest, at most u_out of the accumulated value), else 0
 *     abs_out  the output's absolute rounding below its normal range (half: 2^-25), else 0
 * Prefix sums (a summed-area table, a warp scan) take bnd_prefix: depth roundings of the partial
 * sums, each at most u of the sum of |x| below it.
 * bnd_track keeps the count of outputs past their bound and the worst one (error / bound). */
#ifndef ONCHIP_TEST_BOUNDS_CONV_H
#define ONCHIP_TEST_BOUNDS_CONV_H
#include <math.h>

typedef struct bnd_rule {
    double u_in, u_acc, c, u_out, abs_out;
    int taps;
} bnd_rule;

/* the bound of one output of the rule */
static inline double bnd_of(const bnd_rule *r, double ref, double mag)
{
    const double e = (r->u_in + r->c * (r->taps + 1) * r->u_acc) * mag;
    return e + r->u_out * (fabs(ref) + e) + r->abs_out;
}
/* a prefix sum after `depth` roundings of unit roundoff u, each of at most the sum of |x| below it
 * (amag), with the safety factor c */
static inline double bnd_prefix(double c, double depth, double u, double amag) { return c * depth * u * amag; }

typedef struct bnd_worst {
    long long over;            /* outputs past their bound (a NaN counts) */
    double ratio;              /* the largest |got - ref| / bound (a NaN is the worst) */
    long long at;              /* where it is, -1 before any output */
    double got, ref, bound;
} bnd_worst;
static inline void bnd_init(bnd_worst *w)
{
    w->over = 0;
    w->ratio = 0;
    w->at = -1;
    w->got = w->ref = w->bound = 0;
}
/* one output: got against ref within bound */
static inline void bnd_track(bnd_worst *w, long long at, double got, double ref, double bound)
{
    const double e = fabs(got - ref);
    const double q = bound > 0 ? e / bound : (e > 0 ? INFINITY : (e == 0 ? 0 : NAN));
    if (!(e <= bound)) w->over++;
    if (w->at >= 0 && (isnan(w->ratio) || (!isnan(q) && q <= w->ratio))) return; /* not worse */
    w->ratio = q;
    w->at = at;
    w->got = got;
    w->ref = ref;
    w->bound = bound;
}
#endif
