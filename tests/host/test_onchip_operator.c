/* tests/host/test_onchip_operator.c -- onchip/operator.h's face rules: against their formulas in long
 * double (relative error within 3 u: three roundings), the same bits from either side, between the
 * two values, the mean of equal values exactly that value, across the whole range [2^-64, 2^64] of
 * k (random log-uniform pairs and the range's ends), in double and float; names and validity. */
#include <math.h>
#include <onchip/operator.h>

#include "check.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;
static double uni(void) /* uniform in [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}
static double krand(void) { return ldexp(1.0 + uni(), (int)floor(128 * uni()) - 64) * 0.5; } /* [2^-65, 2^64) */

static long double exact(int rule, long double a, long double b)
{
    return rule == ONCHIP_FACE_HARMONIC ? 2 * a * b / (a + b) : (a + b) / 2;
}

static void rule_case(int rule, int fl)
{
    char name[96];
    snprintf(name, sizeof name, "face rule %s in %s: formula, symmetry, bounds", onchip_face_name(rule),
             fl ? "float" : "double");
    case_begin(name);
    const double eps = fl ? 5.9604644775390625e-08 : 1.1102230246251565e-16;
    static const double ends[] = {ONCHIP_FACE_KMIN, ONCHIP_FACE_KMAX, 1.0, 1000.0};
    int bad = 0;
    for (int t = 0; t < 200000 && bad < 5; t++) {
        double a = t < 16 ? ends[t % 4] : krand(), b = t < 16 ? ends[t / 4] : krand();
        if (a < ONCHIP_FACE_KMIN) a = ONCHIP_FACE_KMIN;
        if (b < ONCHIP_FACE_KMIN) b = ONCHIP_FACE_KMIN;
        if (fl) a = (float)a, b = (float)b;
        const double f = fl ? onchip_face_kf(rule, (float)a, (float)b) : onchip_face_k(rule, a, b);
        const double g = fl ? onchip_face_kf(rule, (float)b, (float)a) : onchip_face_k(rule, b, a);
        const long double e = exact(rule, a, b);
        const double lo = a < b ? a : b, hi = a < b ? b : a;
        if (f != g) { CHECK(0, "%a, %a: %a from one side, %a from the other", a, b, f, g); bad++; }
        if (!(fabsl((long double)f - e) <= 3.0001L * eps * e)) { CHECK(0, "%a, %a: %a, exact %La", a, b, f, e); bad++; }
        if (!(f >= lo && f <= hi)) { CHECK(0, "%a, %a: %a outside [lo, hi]", a, b, f); bad++; }
        const double s = fl ? onchip_face_kf(rule, (float)a, (float)a) : onchip_face_k(rule, a, a);
        if (s != a) { CHECK(0, "%a with itself: %a", a, s); bad++; }
    }
    case_end();
}

int main(void)
{
    check_plan(5);
    rule_case(ONCHIP_FACE_ARITH, 0);
    rule_case(ONCHIP_FACE_HARMONIC, 0);
    rule_case(ONCHIP_FACE_ARITH, 1);
    rule_case(ONCHIP_FACE_HARMONIC, 1);
    case_begin("face rules: names and validity");
    CHECK(onchip_face_valid(ONCHIP_FACE_ARITH) && onchip_face_valid(ONCHIP_FACE_HARMONIC), "valid rules");
    CHECK(!onchip_face_valid(-1) && !onchip_face_valid(2), "invalid rules");
    CHECK(onchip_face_name(2) == NULL && onchip_face_name(ONCHIP_FACE_ARITH) && onchip_face_name(ONCHIP_FACE_HARMONIC),
          "names");
    CHECK(ONCHIP_OPERATOR_STENCIL != ONCHIP_OPERATOR_DIVK, "operators differ");
    case_end();
    return check_exit();
}
