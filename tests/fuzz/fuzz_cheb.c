/* tests/fuzz/fuzz_cheb.c -- perks/cheb.h under hostile numbers.  The first byte picks a function,
 * the rest are its arguments (doubles that are often NaN, infinite, zero, negative, subnormal, tiny,
 * huge or any 64 bits; ints that are often edge values).  Every call must return in bounded time
 * with a documented code, the one the arguments call for; on an error nothing is written.  On
 * success: lanczos_bounds gives 0 < lmin <= lmax, finite, lmin at most T's least diagonal entry and
 * lmax at least its greatest (Rayleigh quotients), lmax at most T's Gershgorin bound, and scales
 * exactly when every alpha is doubled; margin gives the interval of its rule, 0 < a < b, one that
 * coeffs takes; coeffs
 * gives finite scalars, 0 < bound <= 1, sigma >= 1, and lambda p(lambda) > 0 with |1 - lambda
 * p(lambda)| <= bound (to rounding) at points of [a, b]. */
#include <float.h>
#include <math.h>
#include <string.h>

#include <perks/cheb.h>

#include "fuzz.h"

/* a double that is often an edge value, else a typical one, else any 64 bits */
static double fcheb_double(fuzz_bytes *b, double typical)
{
    static const double edge[] = {0, -0.0, 1, -1, 1e-300, 1e300, 4.9406564584124654e-324, 2.2250738585072014e-308,
                                  1.7976931348623157e308, 1e-17, 1 + 2.220446049250313e-16, 0.5, 30, 1e6};
    uint64_t sel = fuzz_u64(b, 1), bits;
    double v;
    switch (sel % 8) {
    case 0: return sel & 8 ? -NAN : NAN;
    case 1: return sel & 8 ? -INFINITY : INFINITY;
    case 2: return edge[(sel >> 3) % (sizeof edge / sizeof *edge)];
    case 3:
        bits = fuzz_u64(b, 8);
        memcpy(&v, &bits, sizeof v);
        return v;
    case 4: return typical * pow(10, (double)(int)(fuzz_u64(b, 1) % 61) - 30);
    default: return typical * (double)(1 + fuzz_u64(b, 2)) / 1000.0;
    }
}

static int fcheb_ok(double x) { return x - x == 0; }

static void fcheb_lanczos(fuzz_bytes *b)
{
    double alpha[PERKS_CHEB_KMAX + 1], beta[PERKS_CHEB_KMAX + 1], a2[PERKS_CHEB_KMAX + 1];
    double lmin = -7, lmax = -7, l2 = -7, h2 = -7, dmin = 0, dmax = 0, gersh = 0, t;
    int k = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % (PERKS_CHEB_KMAX + 2)), j, rc, want, exact = 1;
    const int mode = (int)(fuzz_u64(b, 1) % 4); /* 0: every value hostile; else typical, a few hostile */
    for (j = 0; j <= PERKS_CHEB_KMAX; j++) {
        alpha[j] = mode == 0 || fuzz_u64(b, 1) % 16 == 0 ? fcheb_double(b, 1) : 0.05 + (double)fuzz_u64(b, 2) / 3000;
        beta[j] = mode == 0 || fuzz_u64(b, 1) % 16 == 0 ? fcheb_double(b, 0.5) : (double)fuzz_u64(b, 2) / 65536;
    }
    want = k < 1 || k > PERKS_CHEB_KMAX ? PERKS_ESIZE : 0;
    for (j = 0; want == 0 && j < k; j++)
        if (!(alpha[j] > 0 && fcheb_ok(alpha[j])) || (j < k - 1 && !(beta[j] >= 0 && fcheb_ok(beta[j]))))
            want = PERKS_EBREAKDOWN;
    rc = perks_cheb_lanczos_bounds(alpha, beta, k, &lmin, &lmax);
    FUZZ_ASSERT(perks_cheb_lanczos_bounds(NULL, beta, k, &lmin, &lmax) == PERKS_ENULL &&
                    perks_cheb_lanczos_bounds(alpha, beta, k, NULL, &lmax) == PERKS_ENULL,
                "NULL");
    if (want) FUZZ_ASSERT(rc == want, "k %d: rc %d, want %d", k, rc, want);
    else FUZZ_ASSERT(rc == 0 || rc == PERKS_ESIZE, "k %d: rc %d", k, rc);
    if (rc) {
        FUZZ_ASSERT(lmin == -7 && lmax == -7, "a failed call wrote (rc %d)", rc);
        return;
    }
    FUZZ_ASSERT(lmin > 0 && lmin <= lmax && fcheb_ok(lmax), "k %d: lmin %g lmax %g", k, lmin, lmax);
    for (j = 0; j < k; j++) { /* T's diagonal and Gershgorin rows, where they are finite */
        double d = 1 / alpha[j] + (j > 0 ? beta[j - 1] / alpha[j - 1] : 0), row = d;
        if (j > 0) row += sqrt(beta[j - 1]) / alpha[j - 1];
        if (j < k - 1) row += sqrt(beta[j]) / alpha[j];
        if (j == 0 || d < dmin) dmin = d;
        if (d > dmax) dmax = d;
        if (row > gersh) gersh = row;
    }
    if (fcheb_ok(gersh) && dmin >= 1e-290) /* (subnormal entries: ulps far above 1e-16) */
        FUZZ_ASSERT(lmin <= dmin * (1 + 1e-12), "k %d: lmin %.17g above T's least diagonal entry %.17g", k, lmin, dmin);
    if (fcheb_ok(gersh) && dmax >= 1e-290) {
        FUZZ_ASSERT(lmax >= dmax * (1 - 1e-12), "k %d: lmax %.17g below T's greatest diagonal entry %.17g", k, lmax, dmax);
        FUZZ_ASSERT(lmax <= gersh * (1 + 1e-12), "k %d: lmax %.17g above Gershgorin's %.17g", k, lmax, gersh);
    }
    /* doubling every alpha halves T: exact when no value of the computation is subnormal */
    for (j = 0; j < k; j++) {
        a2[j] = 2 * alpha[j];
        t = j < k - 1 ? beta[j] / a2[j] : 1;
        exact &= fcheb_ok(a2[j]) && 1 / a2[j] >= 4 * DBL_MIN && (t == 0 || t >= 4 * DBL_MIN);
    }
    if (exact && lmin >= 4 * DBL_MIN) {
        FUZZ_ASSERT(perks_cheb_lanczos_bounds(a2, beta, k, &l2, &h2) == 0, "k %d: doubled alpha refused", k);
        FUZZ_ASSERT(l2 == lmin / 2 && h2 == lmax / 2, "k %d: doubled alpha: %.17g %.17g, want %.17g %.17g", k, l2, h2,
                    lmin / 2, lmax / 2);
    }
}

static void fcheb_margin(fuzz_bytes *b)
{
    perks_cheb_rule rule;
    double lmin, lmax, lo = -7, hi = -7, bot;
    int rc, kind = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 2);
    rc = perks_cheb_rule_default(kind, &rule);
    FUZZ_ASSERT(rc == (kind == 0 || kind == 1 ? 0 : PERKS_ESIZE), "default kind %d: rc %d", kind, rc);
    if (rc) rule.kind = kind, rule.hi = 0.05, rule.lo = 0.1, rule.ratio = 10;
    if (fuzz_u64(b, 1) & 1) rule.hi = fcheb_double(b, 0.05);
    if (fuzz_u64(b, 1) & 1) rule.lo = fcheb_double(b, 0.1);
    if (fuzz_u64(b, 1) & 1) rule.ratio = fcheb_double(b, 30);
    lmax = fcheb_double(b, 4);
    lmin = fuzz_u64(b, 1) & 1 ? fcheb_double(b, 0.01) : lmax * (double)fuzz_u64(b, 2) / 65536;
    rc = perks_cheb_margin(&rule, lmin, lmax, &lo, &hi);
    FUZZ_ASSERT(rc == 0 || rc == PERKS_ESIZE, "margin rc %d", rc);
    FUZZ_ASSERT(perks_cheb_margin(NULL, lmin, lmax, &lo, &hi) == PERKS_ENULL, "NULL rule");
    if (rc) {
        FUZZ_ASSERT(lo == -7 && hi == -7, "a failed margin wrote");
        return;
    }
    FUZZ_ASSERT(kind == 0 || kind == 1, "kind %d accepted", kind);
    FUZZ_ASSERT(rule.hi >= 0 && fcheb_ok(rule.hi) && rule.ratio > 1 && rule.ratio <= PERKS_CHEB_RATIO_MAX && lmax > 0 &&
                    fcheb_ok(lmax),
                "accepted hi %g ratio %g lmax %g", rule.hi, rule.ratio, lmax);
    FUZZ_ASSERT(lo > 0 && lo < hi && fcheb_ok(hi) && hi == lmax * (1 + rule.hi), "[%g, %g]", lo, hi);
    bot = hi / rule.ratio;
    if (kind == PERKS_CHEB_PRECOND) {
        FUZZ_ASSERT(lmin > 0 && lmin <= lmax && rule.lo >= 0 && rule.lo < 1, "accepted lmin %g lo %g", lmin, rule.lo);
        if (lmin * (1 - rule.lo) > bot) bot = lmin * (1 - rule.lo);
    }
    FUZZ_ASSERT(lo == bot, "a %.17g, the rule's %.17g", lo, bot);
    {
        perks_cheb c; /* the rule's interval is one coeffs takes */
        FUZZ_ASSERT(perks_cheb_coeffs(lo, hi, PERKS_CHEB_DMAX, &c) == 0, "coeffs refused the rule's [%.17g, %.17g]", lo, hi);
    }
}

static void fcheb_coeffs(fuzz_bytes *b)
{
    perks_cheb c, c0;
    double lo = fcheb_double(b, 1), hi = fuzz_u64(b, 1) & 1 ? fcheb_double(b, 30) : lo * (1 + (double)fuzz_u64(b, 2));
    int d = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % (PERKS_CHEB_DMAX + 2)), rc, s;
    memset(&c0, 0x5a, sizeof c0);
    c = c0;
    rc = perks_cheb_coeffs(lo, hi, d, &c);
    FUZZ_ASSERT(perks_cheb_coeffs(lo, hi, d, NULL) == PERKS_ENULL, "NULL");
    FUZZ_ASSERT(rc == 0 || rc == PERKS_ESIZE, "coeffs rc %d", rc);
    if (d < 0 || d > PERKS_CHEB_DMAX || !(lo > 0 && lo < hi && fcheb_ok(hi)) || lo < hi / PERKS_CHEB_RATIO_MAX ||
        !(hi - lo >= 1e-300))
        FUZZ_ASSERT(rc == PERKS_ESIZE, "accepted [%g, %g] d %d", lo, hi, d);
    if (rc) {
        FUZZ_ASSERT(memcmp(&c, &c0, sizeof c) == 0, "a failed coeffs wrote");
        return;
    }
    FUZZ_ASSERT(c.a == lo && c.b == hi && c.degree == d && c.theta > 0 && c.delta > 0 && c.sigma >= 1 &&
                    fcheb_ok(c.sigma) && c.bound > 0 && c.bound <= 1,
                "[%g, %g] d %d: theta %g delta %g sigma %g bound %g", lo, hi, d, c.theta, c.delta, c.sigma, c.bound);
    FUZZ_ASSERT(c.mu[0] == 0, "mu[0] %g", c.mu[0]);
    for (s = 0; s <= PERKS_CHEB_DMAX; s++)
        FUZZ_ASSERT(s <= d ? fcheb_ok(c.mu[s]) && fcheb_ok(c.nu[s]) && c.nu[s] > 0 && c.mu[s] >= 0
                           : c.mu[s] == 0 && c.nu[s] == 0,
                    "step %d of %d: mu %g nu %g", s, d, c.mu[s], c.nu[s]);
    for (s = 0; s <= 8; s++) { /* a, b and points between */
        const double lam = s == 8 ? hi : lo + (hi - lo) * (s / 8.0 + (double)fuzz_u64(b, 1) / 2048), e = perks_cheb_eval(&c, lam);
        FUZZ_ASSERT(e > 0 && fabs(1 - e) <= c.bound * (1 + 1e-9) + 1e-9, "[%.17g, %.17g] d %d at %.17g: lambda p %.17g, bound %.17g",
                    lo, hi, d, lam, e, c.bound);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes b;
    b.p = data, b.n = size, b.at = 0;
    switch (fuzz_u64(&b, 1) % 3) {
    case 0: fcheb_lanczos(&b); break;
    case 1: fcheb_margin(&b); break;
    default: fcheb_coeffs(&b); break;
    }
    return 0;
}
