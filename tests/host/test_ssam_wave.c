/* test_ssam_wave -- ssam/wave.h in plain C99: the central second-derivative weights of every order
 * (exact for the polynomials of their degree, not one degree past; the known orders 2, 4, 8), the
 * leapfrog's stability bound (a 1D periodic run stays bounded just below it and grows just above it,
 * orders 2 and 8), the Ricker wavelet (peak, symmetry, zero crossings, zero mean) and the trilinear
 * weights (partition of unity, trilinear functions exact, hostile points refused, nothing written). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/wave.h>

#include "check.h"

/* f''(0) of f(x) = (x + 0.5)^p by the weights w of order 2M */
static double fd2_apply(const double *w, int M, int p)
{
    double s = w[0] * pow(0.5, p);
    int r;
    for (r = 1; r <= M; r++) s += w[r] * (pow(r + 0.5, p) + pow(-r + 0.5, p));
    return s;
}

static void test_weights(void)
{
    double w[9];
    int M, p;
    static const double w2[2] = {-2.0, 1.0}, w4[3] = {-2.5, 4.0 / 3, -1.0 / 12},
                        w8[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
    case_begin("ssam_fd2_weights: exact to degree 2M + 1, not at 2M + 2; orders 2, 4, 8 as tabulated; errors");
    for (M = 1; M <= 8; M++) {
        CHECK(ssam_fd2_weights(M, w) == SSAM_SUCCESS, "M %d", M);
        for (p = 0; p <= 2 * M + 2; p++) {
            const double want = p < 2 ? 0.0 : p * (p - 1) * pow(0.5, p - 2), got = fd2_apply(w, M, p);
            const double scale = pow(M + 0.5, p) * 64;
            if (p <= 2 * M + 1) CHECK(fabs(got - want) <= 1e-12 * scale, "M %d p %d: %.17g, not %.17g", M, p, got, want);
            else CHECK(fabs(got - want) > 1e-6, "M %d p %d: exact one degree too far (%.17g)", M, p, got);
        }
    }
    ssam_fd2_weights(1, w);
    for (p = 0; p < 2; p++) CHECK(fabs(w[p] - w2[p]) < 1e-15, "order 2 w[%d] %.17g", p, w[p]);
    ssam_fd2_weights(2, w);
    for (p = 0; p < 3; p++) CHECK(fabs(w[p] - w4[p]) < 1e-15, "order 4 w[%d] %.17g", p, w[p]);
    ssam_fd2_weights(4, w);
    for (p = 0; p < 5; p++) CHECK(fabs(w[p] - w8[p]) < 1e-15, "order 8 w[%d] %.17g", p, w[p]);
    w[0] = 42.0;
    CHECK(ssam_fd2_weights(0, w) == SSAM_ESIZE && ssam_fd2_weights(9, w) == SSAM_ESIZE && w[0] == 42.0, "M 0, 9");
    CHECK(ssam_fd2_weights(2, NULL) == SSAM_ENULL, "NULL");
    case_end();
}

/* the largest |u| after `steps` leapfrog steps on a periodic 1D grid of n cells at Courant number c */
static double run_1d(const double *w, int M, double c, int steps)
{
    enum { n = 256 };
    double u[n], up[n], un[n], big = 0;
    int i, t, r;
    unsigned s = 12345u;
    for (i = 0; i < n; i++) s = s * 1103515245u + 12345u, u[i] = up[i] = (double)(s >> 8) / 16777216.0 - 0.5;
    for (t = 0; t < steps; t++) {
        for (i = 0; i < n; i++) {
            double L = w[0] * u[i];
            for (r = 1; r <= M; r++) L += w[r] * (u[(i + r) % n] + u[(i - r + n) % n]);
            un[i] = 2 * u[i] - up[i] + c * c * L;
        }
        memcpy(up, u, sizeof u);
        memcpy(u, un, sizeof u);
    }
    for (i = 0; i < n; i++) {
        if (!(fabs(u[i]) <= 1e300)) return 1e300; /* grown past double (Inf, NaN) */
        big = fabs(u[i]) > big ? fabs(u[i]) : big;
    }
    return big;
}

static void test_courant(void)
{
    double w[9], c1, c3;
    int M;
    case_begin("ssam_wave_courant_max: 1 and 1/sqrt(3) for order 2; a 1D run bounded at 0.98 of it, growing at 1.02 (orders 2, 8)");
    ssam_fd2_weights(1, w);
    c1 = ssam_wave_courant_max(w, 1, 1), c3 = ssam_wave_courant_max(w, 1, 3);
    CHECK(fabs(c1 - 1.0) < 1e-9 && fabs(c3 - 1.0 / sqrt(3.0)) < 1e-9, "order 2: %.12g %.12g", c1, c3);
    for (M = 1; M <= 4; M += 3) {
        double c, lo, hi;
        ssam_fd2_weights(M, w);
        c = ssam_wave_courant_max(w, M, 1);
        lo = run_1d(w, M, 0.98 * c, 3000), hi = run_1d(w, M, 1.02 * c, 3000);
        CHECK(lo < 100.0 && hi > 1e6, "order %d, cmax %.6f: |u| %.3g below, %.3g above", 2 * M, c, lo, hi);
    }
    CHECK(ssam_wave_courant_max(NULL, 1, 1) == 0.0 && ssam_wave_courant_max(w, 9, 1) == 0.0 &&
              ssam_wave_courant_max(w, 1, 4) == 0.0,
          "bad arguments: 0");
    case_end();
}

static void test_ricker(void)
{
    const double f = 15.0, t0 = 0.1, tz = 1.0 / (3.14159265358979323846 * f * sqrt(2.0));
    double sum = 0;
    int i;
    case_begin("ssam_ricker: 1 at t0, symmetric, zero at t0 +- 1/(pi f sqrt 2), zero mean");
    CHECK(fabs(ssam_ricker(f, t0, t0) - 1.0) < 1e-15, "peak");
    CHECK(fabs(ssam_ricker(f, t0, t0 + 0.013) - ssam_ricker(f, t0, t0 - 0.013)) < 1e-15, "symmetric");
    CHECK(fabs(ssam_ricker(f, t0, t0 + tz)) < 1e-12 && fabs(ssam_ricker(f, t0, t0 - tz)) < 1e-12, "zero crossings");
    for (i = 0; i <= 20000; i++) sum += ssam_ricker(f, t0, i * 1e-5) * 1e-5;
    CHECK(fabs(sum) < 1e-6, "mean %.3g", sum);
    case_end();
}

static void test_trilinear(void)
{
    ssam_trilinear_pt p, q;
    int k, i;
    unsigned s = 7u;
    case_begin("ssam_trilinear: weights sum to 1, a trilinear function exact, hostile points refused with nothing written");
    for (k = 0; k < 1000; k++) {
        double x, y, z, sum = 0, got = 0, want;
        s = s * 1103515245u + 12345u, x = (s >> 8) / 16777216.0 * 100;
        s = s * 1103515245u + 12345u, y = (s >> 8) / 16777216.0 * 50;
        s = s * 1103515245u + 12345u, z = (s >> 8) / 16777216.0 * 7;
        if (k == 0) x = 3.0, y = 0.0, z = 6.0; /* on cells */
        CHECK(ssam_trilinear(x, y, z, &p) == SSAM_SUCCESS, "(%g %g %g)", x, y, z);
        want = 1 + 2 * x - 3 * y + 0.5 * z + 0.25 * x * y - 0.1 * y * z + 0.01 * x * y * z;
        for (i = 0; i < 8; i++) {
            const double cx = p.x0 + (i & 1), cy = p.y0 + ((i >> 1) & 1), cz = p.z0 + ((i >> 2) & 1);
            sum += p.w[i];
            got += p.w[i] * (1 + 2 * cx - 3 * cy + 0.5 * cz + 0.25 * cx * cy - 0.1 * cy * cz + 0.01 * cx * cy * cz);
            CHECK(p.w[i] >= 0.0, "weight %d %g", i, p.w[i]);
        }
        CHECK(fabs(sum - 1) < 1e-14 && fabs(got - want) < 1e-9 * (1 + fabs(want)), "(%g %g %g): sum %.17g, %.17g vs %.17g", x, y, z,
              sum, got, want);
        CHECK(p.x0 == (int)floor(x) && p.y0 == (int)floor(y) && p.z0 == (int)floor(z), "corner");
    }
    memset(&q, 0x5A, sizeof q);
    memcpy(&p, &q, sizeof p);
    CHECK(ssam_trilinear(-0.5, 1, 1, &p) == SSAM_ESIZE && ssam_trilinear(1, NAN, 1, &p) == SSAM_ESIZE &&
              ssam_trilinear(1, 1, 1073741824.0, &p) == SSAM_ESIZE && ssam_trilinear(INFINITY, 1, 1, &p) == SSAM_ESIZE,
          "outside, NaN, 2^30, Inf");
    CHECK(memcmp(&p, &q, sizeof p) == 0, "a refused point wrote its result");
    CHECK(ssam_trilinear(1, 1, 1, NULL) == SSAM_ENULL, "NULL");
    /* inside a domain: the last cell's points keep 8 cells inside, with weight 1 on the point */
    CHECK(ssam_trilinear_in(9.0, 4.0, 2.0, 10, 5, 3, &p) == SSAM_SUCCESS && p.x0 == 8 && p.y0 == 3 && p.z0 == 1 &&
              fabs(p.w[7] - 1.0) < 1e-15,
          "the last cell: corner (%d %d %d), w[7] %g", p.x0, p.y0, p.z0, p.w[7]);
    CHECK(ssam_trilinear_in(8.5, 0.25, 1.5, 10, 5, 3, &p) == SSAM_SUCCESS && p.x0 == 8 && p.y0 == 0 && p.z0 == 1 &&
              fabs(p.w[0] - 0.5 * 0.75 * 0.5) < 1e-15,
          "inside: corner (%d %d %d)", p.x0, p.y0, p.z0);
    memcpy(&p, &q, sizeof p);
    CHECK(ssam_trilinear_in(9.01, 1, 1, 10, 5, 3, &p) == SSAM_ESIZE && ssam_trilinear_in(1, 1, 1, 1, 5, 3, &p) == SSAM_ESIZE &&
              ssam_trilinear_in(1, NAN, 1, 10, 5, 3, &p) == SSAM_ESIZE && memcmp(&p, &q, sizeof p) == 0,
          "outside the domain, a domain of 1 cell, NaN: refused, nothing written");
    case_end();
}

int main(void)
{
    check_plan(4);
    test_weights();
    test_courant();
    test_ricker();
    test_trilinear();
    return check_exit();
}
