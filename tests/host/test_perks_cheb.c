/* tests/host/test_perks_cheb.c -- perks/cheb.h on the host.  The Lanczos bounds of a plain CG in
 * double run here on 1D Poisson matrices (eigenvalues 2 - 2 cos(pi j / (n + 1))) and on random
 * diagonal spectra (condition 10 .. 1e8, scaled by 1e-200 and 1e200): inside the true spectrum,
 * monotone in k, converging to its ends, and equal to a dense Jacobi eigenvalue iteration on the
 * k x k tridiagonal built from the formula (also for random alpha, beta not from a CG).  The
 * Chebyshev scalars: lambda p(lambda) against the closed form 1 - T_{d+1}(t) / T_{d+1}(sigma) for
 * every degree on a sweep of lambda, the bound against 1 / cosh((d + 1) acosh sigma) and against
 * the sweep's maximum (attained at the Chebyshev extrema), the sign of p inside and past [a, b];
 * p(A) r by the stored recurrence against the eigendecomposition of a Poisson matrix; the rules;
 * a preconditioned CG with p(A) that takes fewer steps than CG; every error code, nothing written.
 * usage: test_perks_cheb [--list | all] [--seed N] */
#include <perks/cheb.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NMAX 400
static const double PI = 3.14159265358979323846;

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void) /* in [0, 1) */
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A: symmetric tridiagonal (diagonal dg, off-diagonal od[i] = A_{i,i+1}); y = A x */
static void tri_mv(int n, const double *dg, const double *od, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = dg[i] * x[i] + (i > 0 ? od[i - 1] * x[i - 1] : 0) + (i < n - 1 ? od[i] * x[i + 1] : 0);
}
static double dot(int n, const double *x, const double *y)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

/* k steps of plain CG on A x = rhs from x = 0: alpha[j] = r.r / p.Ap, beta[j] = r'.r' / r.r */
static void cg_steps(int n, const double *dg, const double *od, const double *rhs, int k, double *alpha, double *beta)
{
    static double r[NMAX], p[NMAX], q[NMAX];
    double rr = dot(n, rhs, rhs), rr2;
    memcpy(r, rhs, sizeof(double) * (size_t)n);
    memcpy(p, rhs, sizeof(double) * (size_t)n);
    for (int j = 0; j < k; j++) {
        tri_mv(n, dg, od, p, q);
        alpha[j] = rr / dot(n, p, q);
        for (int i = 0; i < n; i++) r[i] -= alpha[j] * q[i];
        rr2 = dot(n, r, r);
        beta[j] = rr2 / rr;
        rr = rr2;
        for (int i = 0; i < n; i++) p[i] = r[i] + beta[j] * p[i];
    }
}

/* the extreme eigenvalues of a symmetric k x k matrix t (overwritten), by cyclic Jacobi rotations
 * on t / max |t_ij| */
static void jacobi_eigs(double t[64][64], int k, double *emin, double *emax)
{
    double mx = 0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) mx = fabs(t[i][j]) > mx ? fabs(t[i][j]) : mx;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) t[i][j] /= mx;
    for (int sweep = 0; sweep < 30; sweep++) {
        double norm = 0, off = 0;
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) *(i == j ? &norm : &off) += t[i][j] * t[i][j];
        if (off <= 1e-31 * norm) break;
        for (int p = 0; p < k; p++)
            for (int q = p + 1; q < k; q++) {
                double apq = t[p][q], th, tn, cs, sn;
                if (apq == 0) continue;
                th = (t[q][q] - t[p][p]) / (2 * apq);
                tn = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                cs = 1 / sqrt(tn * tn + 1), sn = tn * cs;
                for (int i = 0; i < k; i++) { /* columns p, q */
                    double ip = t[i][p], iq = t[i][q];
                    t[i][p] = cs * ip - sn * iq, t[i][q] = sn * ip + cs * iq;
                }
                for (int i = 0; i < k; i++) { /* rows p, q */
                    double pi = t[p][i], qi = t[q][i];
                    t[p][i] = cs * pi - sn * qi, t[q][i] = sn * pi + cs * qi;
                }
            }
    }
    *emin = *emax = t[0][0];
    for (int i = 1; i < k; i++) {
        if (t[i][i] < *emin) *emin = t[i][i];
        if (t[i][i] > *emax) *emax = t[i][i];
    }
    *emin *= mx, *emax *= mx;
}

/* the tridiagonal of the formula: T_jj = 1/alpha_j + beta_{j-1}/alpha_{j-1}, T_{j,j+1} = sqrt(beta_j)/alpha_j */
static void jacobi_ref(const double *alpha, const double *beta, int k, double *lmin, double *lmax)
{
    static double t[64][64];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) t[i][j] = 0;
    for (int j = 0; j < k; j++) {
        t[j][j] = 1 / alpha[j] + (j > 0 ? beta[j - 1] / alpha[j - 1] : 0);
        if (j < k - 1) t[j][j + 1] = t[j + 1][j] = sqrt(beta[j]) / alpha[j];
    }
    jacobi_eigs(t, k, lmin, lmax);
}

/* lmin to a few ulps relative: 1 / lmax(T^-1), T^-1 = L^-T D^-1 L^-1 of T = L D L' (D_j = 1 / alpha_j,
 * L_{j+1,j} = -sqrt(beta_j)): (T^-1)_ij = sum_{m >= max(i, j)} alpha_m P(i, m) P(j, m), P(i, m) = the product
 * of sqrt(beta_t), t = i .. m - 1, every term positive (no cancellation) */
static double inverse_ref(const double *alpha, const double *beta, int k)
{
    static double t[64][64], pr[64][64];
    double emin, emax;
    for (int i = 0; i < k; i++) {
        pr[i][i] = 1;
        for (int m = i + 1; m < k; m++) pr[i][m] = pr[i][m - 1] * sqrt(beta[m - 1]);
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            double s = 0;
            for (int m = k - 1; m >= (i > j ? i : j); m--) s += alpha[m] * pr[i][m] * pr[j][m];
            t[i][j] = s;
        }
    jacobi_eigs(t, k, &emin, &emax);
    return 1 / emax;
}

static void poisson(int n, double *dg, double *od)
{
    for (int i = 0; i < n; i++) dg[i] = 2, od[i] = -1;
}
static double poisson_eig(int n, int j) { return 2 - 2 * cos(PI * j / (n + 1)); } /* j = 1..n */

/* the bounds of k = 1..kmax CG steps against the true ends [tmin, tmax] and the Jacobi reference;
 * at kmax, within conv (relative) of the ends when conv > 0 */
static void check_cg_bounds(const char *what, int n, const double *dg, const double *od, double tmin, double tmax,
                            int kmax, double conv_max, double conv_min)
{
    static double rhs[NMAX], alpha[64], beta[64];
    double pmin = 0, pmax = 0, lmin, lmax, rmin, rmax;
    for (int i = 0; i < n; i++) rhs[i] = urand() - 0.5;
    cg_steps(n, dg, od, rhs, kmax, alpha, beta);
    for (int k = 1; k <= kmax; k++) {
        int rc = perks_cheb_lanczos_bounds(alpha, beta, k, &lmin, &lmax);
        CHECK(rc == 0, "%s k %d: rc %d", what, k, rc);
        if (rc) return;
        if (k <= 4 || k == 13 || k == 32 || k == kmax) {
            jacobi_ref(alpha, beta, k, &rmin, &rmax);
            CHECK(fabs(lmax - rmax) <= 1e-13 * rmax, "%s k %d: lmax %.17g, Jacobi %.17g", what, k, lmax, rmax);
            CHECK(fabs(lmin - rmin) <= 1e-13 * rmax, "%s k %d: lmin %.17g, Jacobi %.17g", what, k, lmin, rmin);
            rmin = inverse_ref(alpha, beta, k);
            CHECK(fabs(lmin - rmin) <= 1e-12 * rmin, "%s k %d: lmin %.17g, 1 / lmax(T^-1) %.17g", what, k, lmin, rmin);
        }
        CHECK(lmin > 0 && lmin <= lmax, "%s k %d: lmin %g lmax %g", what, k, lmin, lmax);
        CHECK(lmax <= tmax * (1 + 1e-12), "%s k %d: lmax %.17g above the true %.17g", what, k, lmax, tmax);
        CHECK(lmin >= tmin * (1 - 1e-12), "%s k %d: lmin %.17g below the true %.17g", what, k, lmin, tmin);
        if (k > 1) { /* Ritz values interlace: the ends move outwards with k */
            CHECK(lmax >= pmax * (1 - 1e-13), "%s k %d: lmax %.17g fell from %.17g", what, k, lmax, pmax);
            CHECK(lmin <= pmin * (1 + 1e-12), "%s k %d: lmin %.17g rose from %.17g", what, k, lmin, pmin);
        }
        pmin = lmin, pmax = lmax;
    }
    if (conv_max > 0) CHECK(tmax - lmax <= conv_max * tmax, "%s: lmax %.17g of %.17g at k %d", what, lmax, tmax, kmax);
    if (conv_min > 0) CHECK(lmin - tmin <= conv_min * tmin, "%s: lmin %.17g of %.17g at k %d", what, lmin, tmin, kmax);
}

static void test_lanczos_poisson(void)
{
    static double dg[NMAX], od[NMAX];
    static const int ns[] = {1, 2, 10, 40, 64, 100, 400};
    char what[64];
    case_begin("lanczos: CG on 1D Poisson");
    for (size_t t = 0; t < sizeof ns / sizeof *ns; t++) {
        const int n = ns[t], kmax = n < 64 ? n : 64;
        poisson(n, dg, od);
        snprintf(what, sizeof what, "Poisson n %d", n);
        /* k = n steps: T has A's eigenvalues (to CG's rounding) */
        check_cg_bounds(what, n, dg, od, poisson_eig(n, 1), poisson_eig(n, n), kmax, n <= 64 ? 1e-10 : 0,
                        n <= 64 ? 1e-6 : 0);
    }
    case_end();
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void test_lanczos_diag(void)
{
    static double dg[NMAX], od[NMAX], e[NMAX];
    static const double conds[] = {10, 1e3, 1e8};
    static const double scales[] = {1, 1e-200, 1e200};
    char what[96];
    case_begin("lanczos: CG on random diagonal spectra");
    for (size_t c = 0; c < sizeof conds / sizeof *conds; c++)
        for (size_t s = 0; s < sizeof scales / sizeof *scales; s++)
            for (int rep = 0; rep < 3; rep++) {
                const int n = 200;
                /* log-uniform in [1, cond], the top one set apart (2x the next): lmax converges fast */
                for (int i = 0; i < n; i++) e[i] = exp(urand() * log(conds[c]));
                qsort(e, (size_t)n, sizeof *e, cmp_double);
                e[0] = 1, e[n - 1] = 2 * e[n - 2];
                for (int i = 0; i < n; i++) dg[i] = e[i] * scales[s], od[i] = 0;
                snprintf(what, sizeof what, "diag cond %g scale %g rep %d", conds[c], scales[s], rep);
                check_cg_bounds(what, n, dg, od, dg[0], dg[n - 1], 64, 1e-10, 0);
            }
    /* the same CG scalars scaled: the bounds scale with them */
    {
        double alpha[64], beta[64], as[64], l0, h0, l1, h1;
        for (int j = 0; j < 64; j++) alpha[j] = 0.1 + urand(), beta[j] = urand() * 0.9;
        CHECK(perks_cheb_lanczos_bounds(alpha, beta, 64, &l0, &h0) == 0, "unscaled");
        for (int p = -300; p <= 300; p += 50) {
            for (int j = 0; j < 64; j++) as[j] = alpha[j] * pow(2, p);
            CHECK(perks_cheb_lanczos_bounds(as, beta, 64, &l1, &h1) == 0, "scaled by 2^%d", p);
            CHECK(l1 == ldexp(l0, -p) && h1 == ldexp(h0, -p), "2^%d: %.17g %.17g vs %.17g %.17g", p, l1, h1,
                  ldexp(l0, -p), ldexp(h0, -p));
        }
    }
    case_end();
}

static void test_lanczos_tri(void)
{
    double alpha[64], beta[64], lmin, lmax, rmin, rmax;
    case_begin("lanczos: random alpha, beta against Jacobi");
    for (int rep = 0; rep < 300; rep++) {
        const int k = 1 + rep % 64;
        const double spread = rep % 3 == 0 ? 1 : rep % 3 == 1 ? 4 : 12; /* decades of alpha and beta */
        for (int j = 0; j < k; j++) {
            alpha[j] = pow(10, spread * (urand() - 0.5));
            beta[j] = rep % 7 == 0 && j % 5 == 2 ? 0 : pow(10, spread * (urand() - 0.5));
        }
        if (perks_cheb_lanczos_bounds(alpha, beta, k, &lmin, &lmax) != 0) {
            CHECK(0, "rep %d k %d: refused", rep, k);
            continue;
        }
        jacobi_ref(alpha, beta, k, &rmin, &rmax);
        CHECK(fabs(lmax - rmax) <= 1e-13 * rmax, "rep %d k %d: lmax %.17g, Jacobi %.17g", rep, k, lmax, rmax);
        CHECK(fabs(lmin - rmin) <= 1e-13 * rmax, "rep %d k %d: lmin %.17g, Jacobi %.17g", rep, k, lmin, rmin);
        if (spread <= 4) {
            rmin = inverse_ref(alpha, beta, k);
            CHECK(fabs(lmin - rmin) <= 1e-12 * rmin, "rep %d k %d: lmin %.17g, 1 / lmax(T^-1) %.17g", rep, k, lmin, rmin);
        }
    }
    /* one step: 1 / alpha_0, beta not read */
    alpha[0] = 3, beta[0] = NAN;
    CHECK(perks_cheb_lanczos_bounds(alpha, beta, 1, &lmin, &lmax) == 0 && fabs(lmin - 1 / 3.) <= 4e-16 &&
              lmin == lmax,
          "k 1: %.17g %.17g", lmin, lmax);
    /* T = I (beta 0): a multiple eigenvalue */
    for (int j = 0; j < 64; j++) alpha[j] = 1, beta[j] = 0;
    CHECK(perks_cheb_lanczos_bounds(alpha, beta, 64, &lmin, &lmax) == 0 && fabs(lmin - 1) <= 4e-16 &&
              fabs(lmax - 1) <= 4e-16 && lmin <= lmax,
          "T = I: %.17g %.17g", lmin, lmax);
    case_end();
}

/* T_m(t), closed form */
static double cheb_t(int m, double t)
{
    if (fabs(t) <= 1) return cos(m * acos(t));
    return (t < 0 && m % 2 ? -1 : 1) * cosh(m * acosh(fabs(t)));
}
/* lambda p(lambda) = 1 - T_{d+1}((theta - lambda) / delta) / T_{d+1}(sigma) */
static double lp_ref(double a, double b, int d, double lambda)
{
    const double th = (a + b) / 2, de = (b - a) / 2;
    return 1 - cheb_t(d + 1, (th - lambda) / de) / cheb_t(d + 1, th / de);
}

static void test_coeffs(void)
{
    static const double ratios[] = {1.5, 11, 30, 1e3, 1e6, 1e12};
    static const double lows[] = {1e-3, 1, 7e5};
    perks_cheb c;
    case_begin("coeffs: eval and bound against the closed form");
    for (size_t ri = 0; ri < sizeof ratios / sizeof *ratios; ri++)
        for (size_t li = 0; li < sizeof lows / sizeof *lows; li++)
            for (int d = 0; d <= PERKS_CHEB_DMAX; d++) {
                const double a = lows[li], b = a * ratios[ri], th = (a + b) / 2, de = (b - a) / 2, m = d + 1;
                const double bound = 1 / cosh(m * acosh(th / de));
                double worst = 0;
                int rc = perks_cheb_coeffs(a, b, d, &c);
                CHECK(rc == 0, "[%g, %g] d %d: rc %d", a, b, d, rc);
                if (rc) continue;
                CHECK(c.a == a && c.b == b && c.degree == d && fabs(c.theta - th) <= 1e-15 * th &&
                          fabs(c.delta - de) <= 1e-15 * de && fabs(c.sigma - th / de) <= 1e-15 * th / de,
                      "[%g, %g] d %d: fields", a, b, d);
                CHECK(fabs(perks_cheb_bound(&c) - bound) <= 1e-9 * bound && c.bound < 1 && c.bound > 0,
                      "[%g, %g] d %d: bound %.17g, closed form %.17g", a, b, d, perks_cheb_bound(&c), bound);
                for (int s = d + 1; s <= PERKS_CHEB_DMAX; s++) CHECK(c.mu[s] == 0 && c.nu[s] == 0, "unused step %d", s);
                for (int i = 0; i <= 2000; i++) { /* [a, b]: |1 - lambda p| <= bound, p > 0 */
                    const double lam = a + (b - a) * i / 2000, e = perks_cheb_eval(&c, lam);
                    CHECK(fabs(e - lp_ref(a, b, d, lam)) <= 1e-11, "[%g, %g] d %d at %.17g: %.17g, closed form %.17g", a,
                          b, d, lam, e, lp_ref(a, b, d, lam));
                    CHECK(fabs(1 - e) <= c.bound * (1 + 1e-9) + 1e-14, "[%g, %g] d %d at %g: |1 - %.17g| > bound %.17g",
                          a, b, d, lam, e, c.bound);
                    CHECK(e > 0, "[%g, %g] d %d at %g: lambda p %g", a, b, d, lam, e);
                    if (fabs(1 - e) > worst) worst = fabs(1 - e);
                }
                CHECK(worst >= c.bound * (1 - 1e-3), "[%g, %g] d %d: the sweep's max %.17g far below the bound %.17g", a,
                      b, d, worst, c.bound);
                for (int j = 0; j <= d + 1; j++) { /* equioscillation at the extrema of T_{d+1} */
                    const double lam = th - de * cos(j * PI / m), e = 1 - perks_cheb_eval(&c, lam);
                    CHECK(fabs(fabs(e) - c.bound) <= 1e-9 * c.bound + 1e-13 && (c.bound < 1e-12 || (e > 0) == (j % 2 == 0)),
                          "[%g, %g] d %d extremum %d: %.17g, bound %.17g", a, b, d, j, e, c.bound);
                }
                for (int i = 1; i <= 200; i++) { /* (0, a): 0 < lambda p < 1 */
                    const double lam = a * i / 200, e = perks_cheb_eval(&c, lam);
                    CHECK(e > 0 && e < 1 + 1e-12 && fabs(e - lp_ref(a, b, d, lam)) <= 1e-11,
                          "[%g, %g] d %d at %g: lambda p %.17g", a, b, d, lam, e);
                }
                if (ratios[ri] <= 1e3) { /* past b: even d p > 0 beyond, odd d p > 0 up to a + b only */
                    const double in = (a + b) * (1 - 1e-3), out = (a + b) * (1 + 1e-3), far = 10 * b;
                    CHECK(perks_cheb_eval(&c, in) > 0, "[%g, %g] d %d: p(%g) <= 0", a, b, d, in);
                    CHECK(d % 2 ? perks_cheb_eval(&c, out) < 0 : perks_cheb_eval(&c, out) > 0 && perks_cheb_eval(&c, far) > 0,
                          "[%g, %g] d %d: lambda p(%g) %g, (%g) %g", a, b, d, out, perks_cheb_eval(&c, out), far,
                          perks_cheb_eval(&c, far));
                }
            }
    case_end();
}

/* z = p(A) r by the stored recurrence, one tri_mv a step */
static void cheb_apply(const perks_cheb *c, int n, const double *dg, const double *od, const double *r, double *z)
{
    static double dz[NMAX], az[NMAX];
    for (int i = 0; i < n; i++) z[i] = dz[i] = 0;
    for (int s = 0; s <= c->degree; s++) {
        if (s > 0) tri_mv(n, dg, od, z, az);
        for (int i = 0; i < n; i++) {
            dz[i] = c->mu[s] * dz[i] + c->nu[s] * (r[i] - (s > 0 ? az[i] : 0));
            z[i] += dz[i];
        }
    }
}

static void test_apply(void)
{
    static double dg[NMAX], od[NMAX], r[NMAX], z[NMAX], zr[NMAX];
    const int n = 50;
    perks_cheb c;
    case_begin("coeffs: p(A) r by the recurrence against A's eigendecomposition");
    poisson(n, dg, od);
    for (int i = 0; i < n; i++) r[i] = urand() - 0.5;
    for (int d = 0; d <= PERKS_CHEB_DMAX; d++)
        for (int w = 0; w < 3; w++) {
            /* the whole spectrum; its upper part; an interval inside */
            const double a = w == 0 ? poisson_eig(n, 1) : w == 1 ? poisson_eig(n, n) / 30 : 0.5;
            const double b = w == 2 ? 3 : poisson_eig(n, n) * (w == 1 ? 1.05 : 1);
            double err = 0, norm = 0;
            CHECK(perks_cheb_coeffs(a, b, d, &c) == 0, "coeffs");
            cheb_apply(&c, n, dg, od, r, z);
            /* z_ref = sum_j v_j p(lambda_j) (v_j . r), v_j(i) = sqrt(2 / (n + 1)) sin(pi i j / (n + 1)) */
            for (int i = 0; i < n; i++) zr[i] = 0;
            for (int j = 1; j <= n; j++) {
                const double lam = poisson_eig(n, j), pj = lp_ref(a, b, d, lam) / lam;
                double vr = 0;
                for (int i = 0; i < n; i++) vr += sqrt(2.0 / (n + 1)) * sin(PI * (i + 1) * j / (n + 1)) * r[i];
                for (int i = 0; i < n; i++) zr[i] += sqrt(2.0 / (n + 1)) * sin(PI * (i + 1) * j / (n + 1)) * pj * vr;
            }
            for (int i = 0; i < n; i++) err += (z[i] - zr[i]) * (z[i] - zr[i]), norm += zr[i] * zr[i];
            CHECK(sqrt(err) <= 1e-11 * sqrt(norm), "d %d interval %d: |z - z_ref| %g of %g", d, w, sqrt(err), sqrt(norm));
        }
    /* a diagonal A: z_i = p(lambda_i) r_i with p from perks_cheb_eval */
    for (int i = 0; i < n; i++) dg[i] = 1 + 99 * urand(), od[i] = 0;
    CHECK(perks_cheb_coeffs(1, 100, 9, &c) == 0, "coeffs");
    cheb_apply(&c, n, dg, od, r, z);
    for (int i = 0; i < n; i++) {
        const double want = perks_cheb_eval(&c, dg[i]) / dg[i] * r[i];
        CHECK(fabs(z[i] - want) <= 1e-14 * fabs(r[i]), "diagonal %d: %.17g vs %.17g", i, z[i], want);
    }
    case_end();
}

static void test_rules(void)
{
    perks_cheb_rule p, s;
    double a, b;
    case_begin("margin: the two rules");
    CHECK(perks_cheb_rule_default(PERKS_CHEB_PRECOND, &p) == 0 && p.kind == PERKS_CHEB_PRECOND && p.hi == 0.05 &&
              p.lo == 0.1 && p.ratio == 1e6,
          "PRECOND defaults");
    CHECK(perks_cheb_rule_default(PERKS_CHEB_SMOOTHER, &s) == 0 && s.kind == PERKS_CHEB_SMOOTHER && s.hi == 0.05 &&
              s.ratio == 30,
          "SMOOTHER defaults");
    CHECK(perks_cheb_margin(&p, 0.01, 4, &a, &b) == 0 && b == 4 * 1.05 && a == 0.01 * 0.9, "PRECOND [%g, %g]", a, b);
    CHECK(perks_cheb_margin(&p, 1e-9, 4, &a, &b) == 0 && b == 4 * 1.05 && a == 4 * 1.05 / 1e6, "PRECOND capped [%g, %g]", a,
          b);
    CHECK(perks_cheb_margin(&s, NAN, 4, &a, &b) == 0 && b == 4 * 1.05 && a == 4 * 1.05 / 30, "SMOOTHER [%g, %g]", a, b);
    CHECK(perks_cheb_margin(&s, 3, 4, &a, &b) == 0 && a == 4 * 1.05 / 30, "SMOOTHER does not read lmin: [%g, %g]", a, b);
    p.hi = 0, p.lo = 0;
    CHECK(perks_cheb_margin(&p, 1, 2, &a, &b) == 0 && a == 1 && b == 2, "PRECOND, no margins [%g, %g]", a, b);
    p.hi = 0.5, p.lo = 0.5, p.ratio = 3;
    CHECK(perks_cheb_margin(&p, 1, 2, &a, &b) == 0 && a == 1 && b == 3, "PRECOND, cap 3 [%g, %g]", a, b);
    CHECK(perks_cheb_margin(&p, 3, 3, &a, &b) == 0 && a == 1.5 && b == 4.5, "lmin = lmax [%g, %g]", a, b);
    for (int i = 0; i < 200; i++) { /* the widest rule's interval is one coeffs takes */
        perks_cheb c;
        p.ratio = PERKS_CHEB_RATIO_MAX, s.ratio = PERKS_CHEB_RATIO_MAX, p.lo = 0.1, p.hi = urand();
        CHECK(perks_cheb_margin(&p, 1e-300, 0.1 + 1e3 * urand(), &a, &b) == 0 && perks_cheb_coeffs(a, b, 16, &c) == 0,
              "PRECOND ratio 1e12: [%.17g, %.17g]", a, b);
        CHECK(perks_cheb_margin(&s, 0, 1e-200 + urand(), &a, &b) == 0 && perks_cheb_coeffs(a, b, 16, &c) == 0,
              "SMOOTHER ratio 1e12: [%.17g, %.17g]", a, b);
    }
    case_end();
}

/* CG with z = p(A) r against plain CG on a 1D Poisson matrix, p from the bounds of 20 CG steps */
static int pcg(int n, const double *dg, const double *od, const double *rhs, const perks_cheb *c, double tol, double *x)
{
    static double r[NMAX], z[NMAX], p[NMAX], q[NMAX];
    double rz, rz2, bb = dot(n, rhs, rhs);
    int it;
    for (int i = 0; i < n; i++) x[i] = 0, r[i] = rhs[i];
    if (c) cheb_apply(c, n, dg, od, r, z);
    else memcpy(z, r, sizeof(double) * (size_t)n);
    memcpy(p, z, sizeof(double) * (size_t)n);
    rz = dot(n, r, z);
    for (it = 0; it < 10 * n && dot(n, r, r) > tol * tol * bb; it++) {
        double al;
        tri_mv(n, dg, od, p, q);
        al = rz / dot(n, p, q);
        for (int i = 0; i < n; i++) x[i] += al * p[i], r[i] -= al * q[i];
        if (c) cheb_apply(c, n, dg, od, r, z);
        else memcpy(z, r, sizeof(double) * (size_t)n);
        rz2 = dot(n, r, z);
        for (int i = 0; i < n; i++) p[i] = z[i] + rz2 / rz * p[i];
        rz = rz2;
    }
    return it;
}

static void test_pcg(void)
{
    static double dg[NMAX], od[NMAX], rhs[NMAX], x[NMAX], ax[NMAX], alpha[64], beta[64];
    const int n = 400;
    double lmin, lmax, a, b, res = 0;
    perks_cheb_rule rule;
    perks_cheb c;
    int plain, pre;
    case_begin("end to end: CG preconditioned by p(A) of the estimated interval");
    poisson(n, dg, od);
    for (int i = 0; i < n; i++) rhs[i] = urand() - 0.5;
    cg_steps(n, dg, od, rhs, 20, alpha, beta);
    CHECK(perks_cheb_lanczos_bounds(alpha, beta, 20, &lmin, &lmax) == 0, "bounds");
    CHECK(perks_cheb_rule_default(PERKS_CHEB_PRECOND, &rule) == 0, "rule");
    CHECK(perks_cheb_margin(&rule, lmin, lmax, &a, &b) == 0 && b >= poisson_eig(n, n), "margin [%g, %g]", a, b);
    CHECK(perks_cheb_coeffs(a, b, 8, &c) == 0, "coeffs");
    for (int j = 1; j <= n; j++) /* SPD: p > 0 at every eigenvalue of A */
        CHECK(perks_cheb_eval(&c, poisson_eig(n, j)) > 0, "p(lambda_%d) <= 0", j);
    plain = pcg(n, dg, od, rhs, NULL, 1e-10, x);
    pre = pcg(n, dg, od, rhs, &c, 1e-10, x);
    tri_mv(n, dg, od, x, ax);
    for (int i = 0; i < n; i++) res += (rhs[i] - ax[i]) * (rhs[i] - ax[i]);
    CHECK(sqrt(res) <= 1e-9 * sqrt(dot(n, rhs, rhs)), "true residual %g", sqrt(res / dot(n, rhs, rhs)));
    CHECK(pre * 4 <= plain, "%d preconditioned steps, %d plain", pre, plain);
    printf("  Poisson n %d: CG %d steps; with p(A) of degree 8 on [%.4g, %.4g] %d steps of 9 SpMVs\n", n, plain, a, b, pre);
    case_end();
}

static void test_errors(void)
{
    double alpha[65], beta[65], lmin = -7, lmax = -7, a = -7, b = -7;
    perks_cheb c, c0;
    perks_cheb_rule rule, r0;
    case_begin("errors: every code, nothing written");
    for (int j = 0; j < 65; j++) alpha[j] = 1, beta[j] = 0.5;
#define BOUNDS(want, al, be, k)                                                                          \
    do {                                                                                                 \
        int rc_ = perks_cheb_lanczos_bounds(al, be, k, &lmin, &lmax);                                    \
        CHECK(rc_ == (want) && lmin == -7 && lmax == -7, "bounds line %d: rc %d (%s)", __LINE__, rc_,    \
              perks_strerror(rc_));                                                                      \
    } while (0)
    BOUNDS(PERKS_ENULL, NULL, beta, 4);
    BOUNDS(PERKS_ENULL, alpha, NULL, 4);
    CHECK(perks_cheb_lanczos_bounds(alpha, beta, 4, NULL, &lmax) == PERKS_ENULL && lmax == -7, "NULL lmin");
    CHECK(perks_cheb_lanczos_bounds(alpha, beta, 4, &lmin, NULL) == PERKS_ENULL && lmin == -7, "NULL lmax");
    BOUNDS(PERKS_ESIZE, alpha, beta, 0);
    BOUNDS(PERKS_ESIZE, alpha, beta, -1);
    BOUNDS(PERKS_ESIZE, alpha, beta, PERKS_CHEB_KMAX + 1);
    {
        static const double bad_alpha[] = {0, -0.0, -1, NAN, -NAN, INFINITY, -INFINITY};
        static const double bad_beta[] = {-1e-300, -1, NAN, INFINITY, -INFINITY};
        for (size_t i = 0; i < sizeof bad_alpha / sizeof *bad_alpha; i++)
            for (int at = 0; at < 4; at++) {
                alpha[at] = bad_alpha[i];
                BOUNDS(PERKS_EBREAKDOWN, alpha, beta, 4);
                alpha[at] = 1;
            }
        for (size_t i = 0; i < sizeof bad_beta / sizeof *bad_beta; i++)
            for (int at = 0; at < 3; at++) {
                beta[at] = bad_beta[i];
                BOUNDS(PERKS_EBREAKDOWN, alpha, beta, 4);
                beta[at] = 0.5;
            }
    }
    alpha[1] = 1e-320; /* 1 / alpha past double */
    BOUNDS(PERKS_ESIZE, alpha, beta, 4);
    alpha[1] = 1e-300, beta[1] = 1e300; /* beta / alpha past double */
    BOUNDS(PERKS_ESIZE, alpha, beta, 4);
    alpha[1] = 1e-308, beta[1] = 0; /* T_11 = 1 / alpha_1 + beta_0 / alpha_0 finite, lmax past double */
    beta[0] = 1e308, alpha[0] = 1;
    BOUNDS(PERKS_ESIZE, alpha, beta, 4);
    alpha[0] = alpha[1] = 1, beta[0] = beta[1] = 0.5;
    beta[3] = NAN; /* beta[k-1] is not read */
    CHECK(perks_cheb_lanczos_bounds(alpha, beta, 4, &lmin, &lmax) == 0, "beta[k-1] read");
    lmin = lmax = -7;

    memset(&r0, 0x5a, sizeof r0);
    rule = r0;
    CHECK(perks_cheb_rule_default(PERKS_CHEB_PRECOND, NULL) == PERKS_ENULL, "default NULL");
    CHECK(perks_cheb_rule_default(2, &rule) == PERKS_ESIZE && memcmp(&rule, &r0, sizeof r0) == 0, "default kind 2");
    CHECK(perks_cheb_rule_default(-1, &rule) == PERKS_ESIZE && memcmp(&rule, &r0, sizeof r0) == 0, "default kind -1");

#define MARGIN(want, ru, l0, l1)                                                                          \
    do {                                                                                                  \
        int rc_ = perks_cheb_margin(ru, l0, l1, &a, &b);                                                  \
        CHECK(rc_ == (want) && a == -7 && b == -7, "margin line %d: rc %d", __LINE__, rc_);               \
    } while (0)
    perks_cheb_rule_default(PERKS_CHEB_PRECOND, &r0);
    rule = r0;
    MARGIN(PERKS_ENULL, NULL, 1, 2);
    CHECK(perks_cheb_margin(&rule, 1, 2, NULL, &b) == PERKS_ENULL && b == -7, "NULL a");
    CHECK(perks_cheb_margin(&rule, 1, 2, &a, NULL) == PERKS_ENULL && a == -7, "NULL b");
    {
        static const double bad_hi[] = {-0.1, NAN, INFINITY};
        static const double bad_lo[] = {-0.1, 1, 2, NAN, INFINITY};
        static const double bad_ratio[] = {1, 0.5, 0, -3, 1e12 * (1 + 4 * DBL_EPSILON), NAN, INFINITY};
        static const double bad_l[] = {0, -1, NAN, INFINITY, -INFINITY};
        for (size_t i = 0; i < sizeof bad_hi / sizeof *bad_hi; i++) {
            rule.hi = bad_hi[i];
            MARGIN(PERKS_ESIZE, &rule, 1, 2);
            rule = r0;
        }
        for (size_t i = 0; i < sizeof bad_lo / sizeof *bad_lo; i++) {
            rule.lo = bad_lo[i];
            MARGIN(PERKS_ESIZE, &rule, 1, 2);
            rule = r0;
        }
        for (int kind = 0; kind < 2; kind++)
            for (size_t i = 0; i < sizeof bad_ratio / sizeof *bad_ratio; i++) {
                perks_cheb_rule_default(kind, &rule);
                rule.ratio = bad_ratio[i];
                MARGIN(PERKS_ESIZE, &rule, 1, 2);
            }
        rule = r0;
        for (size_t i = 0; i < sizeof bad_l / sizeof *bad_l; i++) {
            MARGIN(PERKS_ESIZE, &rule, bad_l[i], 2);
            MARGIN(PERKS_ESIZE, &rule, 1, bad_l[i]);
        }
    }
    MARGIN(PERKS_ESIZE, &rule, 3, 2);        /* lmin > lmax */
    MARGIN(PERKS_ESIZE, &rule, 1, DBL_MAX);  /* b past double */
    rule.kind = 5;
    MARGIN(PERKS_ESIZE, &rule, 1, 2);
    rule = r0, rule.hi = 0, rule.lo = 0;
    MARGIN(PERKS_ESIZE, &rule, 2, 2);        /* a = b */
    perks_cheb_rule_default(PERKS_CHEB_SMOOTHER, &rule);
    rule.ratio = 1e12;
    MARGIN(PERKS_ESIZE, &rule, NAN, 5e-301); /* b - a < 1e-300: an interval coeffs does not take */

    memset(&c0, 0x5a, sizeof c0);
    c = c0;
#define COEFFS(want, a_, b_, d_)                                                                          \
    do {                                                                                                  \
        int rc_ = perks_cheb_coeffs(a_, b_, d_, &c);                                                      \
        CHECK(rc_ == (want) && memcmp(&c, &c0, sizeof c) == 0, "coeffs line %d: rc %d", __LINE__, rc_);   \
    } while (0)
    CHECK(perks_cheb_coeffs(1, 2, 3, NULL) == PERKS_ENULL, "coeffs NULL");
    COEFFS(PERKS_ESIZE, 1, 2, -1);
    COEFFS(PERKS_ESIZE, 1, 2, PERKS_CHEB_DMAX + 1);
    COEFFS(PERKS_ESIZE, 0, 2, 3);
    COEFFS(PERKS_ESIZE, -1, 2, 3);
    COEFFS(PERKS_ESIZE, 2, 2, 3);
    COEFFS(PERKS_ESIZE, 3, 2, 3);
    COEFFS(PERKS_ESIZE, NAN, 2, 3);
    COEFFS(PERKS_ESIZE, 1, NAN, 3);
    COEFFS(PERKS_ESIZE, 1, INFINITY, 3);
    COEFFS(PERKS_ESIZE, -INFINITY, 2, 3);
    COEFFS(PERKS_ESIZE, 3 * 4.9406564584124654e-324, 4 * 4.9406564584124654e-324, 3); /* delta 0 or nu past double */
    COEFFS(PERKS_ESIZE, 1e-310, 2e-310, 3);                                           /* 2 rho / delta past double */
    COEFFS(PERKS_ESIZE, 1e-310, 2e-310, 0);                                           /* 1 / theta past double */
    COEFFS(PERKS_ESIZE, 1e-300, 1.99e-300, 0);                                        /* b - a < 1e-300 */
    CHECK(perks_cheb_coeffs(1e-300, 2e-300, PERKS_CHEB_DMAX, &c) == 0 && perks_cheb_eval(&c, 1e-303) > 0 &&
              fabs(perks_cheb_eval(&c, 1.5e-300) - 1) <= c.bound * (1 + 1e-9),
          "b - a = 1e-300");
    c = c0;
    CHECK(perks_cheb_coeffs(DBL_MAX / 2, DBL_MAX, 3, &c) == 0 && c.theta > 0 && c.theta < DBL_MAX, "a + b past double");
    c = c0;
    COEFFS(PERKS_ESIZE, 1e-300, 1, 3);                          /* b / a past PERKS_CHEB_RATIO_MAX */
    COEFFS(PERKS_ESIZE, 1, 1e12 * (1 + 4 * DBL_EPSILON), 3);
    CHECK(perks_cheb_coeffs(1, 1e12, PERKS_CHEB_DMAX, &c) == 0 && c.sigma > 1 && c.bound < 1, "b / a = 1e12");
    CHECK(isnan(perks_cheb_eval(NULL, 1)) && isnan(perks_cheb_bound(NULL)), "eval, bound NULL");
    c.degree = PERKS_CHEB_DMAX + 1;
    CHECK(isnan(perks_cheb_eval(&c, 1)), "eval of a bad degree");
    CHECK(strstr(perks_strerror(PERKS_EBREAKDOWN), "not SPD") != NULL, "EBREAKDOWN's sentence");
    case_end();
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            printf("all\n");
            return 0;
        }
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) rng_state = strtoull(argv[++i], NULL, 10) | 1;
    }
    check_seed(rng_state);
    check_plan(8);
    test_lanczos_poisson();
    test_lanczos_diag();
    test_lanczos_tri();
    test_coeffs();
    test_apply();
    test_rules();
    test_pcg();
    test_errors();
    return check_exit();
}
