#include <onchip/names_push.h>
/* perks/cheb.h -- the host math of a Chebyshev polynomial preconditioner for the CG solvers: the
 * spectrum's ends from CG's own step coefficients, the interval a rule puts around them, and the
 * scalars of the three-term recurrence that applies p(A) r with one SpMV a step (C99; host-tested).
 * Formulas, the rules and their reasons: docs/perks-cg.md#chebyshev-preconditioning-the-host-math-perkschebh.
 *
 * WHAT
 *   perks_cheb_lanczos_bounds: the extreme eigenvalues of the k x k Lanczos tridiagonal T of k CG
 *   steps (alpha_j = r.z / p.Ap, beta_j = r_{j+1}.z_{j+1} / r_j.z_j), T = L D L' with D_j = 1 /
 *   alpha_j, L_{j+1,j}^2 = beta_j, by bisection on the negative pivots of L D L' - x I (Ritz values:
 *   inside the spectrum of A, lmax from below, lmin from above).  perks_cheb_margin: the interval
 *   [a, b] of a rule (PERKS_CHEB_PRECOND, PERKS_CHEB_SMOOTHER).  perks_cheb_coeffs: p of degree d,
 *   1 - x p(x) = T_{d+1}((theta - x) / delta) / T_{d+1}(sigma), theta = (b + a) / 2, delta = (b -
 *   a) / 2, sigma = theta / delta.  perks_cheb_eval: lambda p(lambda); perks_cheb_bound: max |1 -
 *   x p(x)| on [a, b] = 1 / T_{d+1}(sigma) (closed form, as the product of the rho_j).
 *
 * EXAMPLE
 *   [compile: double alpha[64], beta[64], *r, *z, *dz, *res; int k, n]
 *   void residual(const double *r, const double *z, double *res);  // res = r - A z: one SpMV
 *   double lmin, lmax, a, b;
 *   perks_cheb_rule rule;
 *   perks_cheb c;
 *   int rc = perks_cheb_lanczos_bounds(alpha, beta, k, &lmin, &lmax);  // k CG steps' scalars
 *   if (rc == 0) rc = perks_cheb_rule_default(PERKS_CHEB_PRECOND, &rule);
 *   if (rc == 0) rc = perks_cheb_margin(&rule, lmin, lmax, &a, &b);
 *   if (rc == 0) rc = perks_cheb_coeffs(a, b, 8, &c);
 *   for (int i = 0; i < n; i++) z[i] = dz[i] = 0;
 *   for (int s = 0; rc == 0 && s <= c.degree; s++) {  // z = p(A) r
 *       if (s > 0) residual(r, z, res);
 *       for (int i = 0; i < n; i++) dz[i] = c.mu[s] * dz[i] + c.nu[s] * (s > 0 ? res[i] : r[i]), z[i] += dz[i];
 *   }
 *
 * PARAMETERS
 *   alpha[0..k-1], beta[0..k-2] (beta[k-1] is not read; beta must not be NULL); 1 <= k <=
 *   PERKS_CHEB_KMAX.  A rule: kind, hi (b = lmax (1 + hi)), lo (PRECOND: a = lmin (1 - lo)),
 *   ratio (a >= b / ratio, ratio <= PERKS_CHEB_RATIO_MAX = 1e12; SMOOTHER: a = b / ratio, lmin not
 *   read).  0 <= degree <= PERKS_CHEB_DMAX; b / a <= PERKS_CHEB_RATIO_MAX, b - a >= 1e-300.
 *   The recurrence: z = dz = 0; for s = 0..degree: dz = mu[s] dz + nu[s] (r - A z), z += dz (s = 0:
 *   mu 0, nu 1 / theta, A z = 0: degree SpMVs in all).
 *
 * LIMITS
 *   lmin, lmax to a few ulps relative, in normal doubles (the pivots' recurrence is relatively
 *   stable on L D L' of D > 0), of T as given: CG's rounding is the caller's.  p > 0 on (0, b] for every degree; on every
 *   x > 0 for an even degree, on (0, a + b) for an odd one.  No allocation.
 *
 * COST
 *   lanczos_bounds: O(k) a bisection step, about 60 steps an end (more when lmin << lmax, at most
 *   2200).  The rest O(degree).
 *
 * ERRORS (perks/base.h): PERKS_ENULL; PERKS_EBREAKDOWN an alpha that is not finite and positive, a
 *   beta not finite and >= 0 (not the steps of CG on an SPD matrix); PERKS_ESIZE k, degree or a rule
 *   field out of range, an unknown rule, lmin or lmax not finite and positive or lmin > lmax, an
 *   interval coeffs does not take (a <= 0, a >= b, not finite, b / a > PERKS_CHEB_RATIO_MAX, b - a
 *   < 1e-300), an entry of T or an estimate past the range of double.
 *   On an error nothing is written.  eval and bound: NaN for NULL.
 */
#ifndef PERKS_CHEB_H
#define PERKS_CHEB_H

#include "base.h"

#define PERKS_CHEB_KMAX 64        /* the most CG steps perks_cheb_lanczos_bounds reads */
#define PERKS_CHEB_DMAX 16        /* the highest degree of p */
#define PERKS_CHEB_RATIO_MAX 1e12 /* the widest interval, b / a (sigma >= 1 + 2e-12) */
#define PERKS_CHEB_PRECOND 0      /* a = max(lmin (1 - lo), b / ratio), b = lmax (1 + hi) */
#define PERKS_CHEB_SMOOTHER 1     /* a = b / ratio, b = lmax (1 + hi): lmin not trusted */

typedef struct perks_cheb_rule {
    int kind;     /* PERKS_CHEB_PRECOND or PERKS_CHEB_SMOOTHER */
    double hi;    /* >= 0: b = lmax (1 + hi) */
    double lo;    /* PRECOND, 0 <= lo < 1: a = lmin (1 - lo) at least */
    double ratio; /* 1 < ratio <= PERKS_CHEB_RATIO_MAX: b / a at most (SMOOTHER: exactly) */
} perks_cheb_rule;

typedef struct perks_cheb {
    double a, b, theta, delta, sigma;
    int degree;
    double mu[PERKS_CHEB_DMAX + 1]; /* step s: dz = mu[s] dz + nu[s] (r - A z); z += dz */
    double nu[PERKS_CHEB_DMAX + 1]; /* [degree + 1 ..]: 0 */
    double bound;                   /* max |1 - x p(x)| on [a, b] = 1 / T_{degree+1}(sigma) */
} perks_cheb;

#ifndef __CUDACC_RTC__ /* host code (NVRTC: the structs and constants only) */
#include <float.h>
#include <math.h>

static inline int perks__cheb_finite(double x) { return x - x == 0; }

/* how many of L D L' - x I's pivots are negative: the eigenvalues below x (dd_j = D_j, ee_j = D_j L_j^2,
 * both in [0, 1]; stationary qd transform, a pivot of magnitude below DBL_MIN taken as -DBL_MIN) */
static inline int perks__cheb_below(const double *dd, const double *ee, int k, double x)
{
    double s = -x, piv;
    int j, n = 0;
    for (j = 0; j < k; j++) {
        piv = dd[j] + s;
        if (piv < DBL_MIN && piv > -DBL_MIN) piv = -DBL_MIN;
        n += piv < 0;
        s = ee[j] * (s / piv) - x; /* |s / piv| <= 2 / DBL_MIN: no overflow for |x| <= 5 */
    }
    return n;
}

/* the least x in [lo, hi] with at least `want` eigenvalues below, to 2 ulps relative */
static inline double perks__cheb_bisect(const double *dd, const double *ee, int k, int want, double lo, double hi)
{
    double mid;
    int it;
    for (it = 0; it < 2200; it++) {
        mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi) || hi - lo <= 2 * DBL_EPSILON * hi) break;
        if (perks__cheb_below(dd, ee, k, mid) >= want) hi = mid;
        else lo = mid;
    }
    return lo + (hi - lo) / 2;
}

static inline int perks_cheb_lanczos_bounds(const double *alpha, const double *beta, int k, double *lmin, double *lmax)
{
    double dd[PERKS_CHEB_KMAX] = {0}, ee[PERKS_CHEB_KMAX] = {0}, mx = 0, u = 0, mind = 0, row, lo, hi;
    int j;
    if (!alpha || !beta || !lmin || !lmax) return PERKS_ENULL;
    if (k < 1 || k > PERKS_CHEB_KMAX) return PERKS_ESIZE;
    for (j = 0; j < k; j++)
        if (!(alpha[j] > 0) || !perks__cheb_finite(alpha[j]) ||
            (j < k - 1 && (!(beta[j] >= 0) || !perks__cheb_finite(beta[j]))))
            return PERKS_EBREAKDOWN;
    for (j = 0; j < k; j++) {
        dd[j] = 1 / alpha[j];
        ee[j] = j < k - 1 ? beta[j] / alpha[j] : 0;
        if (!perks__cheb_finite(dd[j]) || !perks__cheb_finite(ee[j])) return PERKS_ESIZE;
        if (dd[j] > mx) mx = dd[j];
        if (ee[j] > mx) mx = ee[j];
    }
    /* T / mx: entries in [0, 1]; Gershgorin with |T_{j,j+1}| = sqrt(dd_j ee_j) <= (dd_j + ee_j) / 2 */
    for (j = 0; j < k; j++) dd[j] /= mx, ee[j] /= mx;
    for (j = 0; j < k; j++) {
        row = dd[j] + (j > 0 ? ee[j - 1] : 0);
        if (j == 0 || row < mind) mind = row;
        if (j > 0) row += (dd[j - 1] + ee[j - 1]) / 2;
        if (j < k - 1) row += (dd[j] + ee[j]) / 2;
        if (row > u) u = row;
    }
    u *= 1.01;
    hi = perks__cheb_bisect(dd, ee, k, k, 0, u) * mx;
    lo = perks__cheb_bisect(dd, ee, k, 1, 0, 2 * mind < u ? 2 * mind : u) * mx;
    if (lo > hi) lo = hi; /* a multiple eigenvalue, bisected twice */
    if (!perks__cheb_finite(hi) || !(lo > 0)) return PERKS_ESIZE;
    *lmin = lo, *lmax = hi;
    return PERKS_SUCCESS;
}

/* PRECOND: hi 0.05, lo 0.1, ratio 1e6; SMOOTHER: hi 0.05, lo 0 (not read), ratio 30 */
static inline int perks_cheb_rule_default(int kind, perks_cheb_rule *rule)
{
    if (!rule) return PERKS_ENULL;
    if (kind != PERKS_CHEB_PRECOND && kind != PERKS_CHEB_SMOOTHER) return PERKS_ESIZE;
    rule->kind = kind;
    rule->hi = 0.05;
    rule->lo = kind == PERKS_CHEB_PRECOND ? 0.1 : 0;
    rule->ratio = kind == PERKS_CHEB_PRECOND ? 1e6 : 30;
    return PERKS_SUCCESS;
}

/* 0 when coeffs takes [a, b]: finite, 0 < a < b, b / a <= PERKS_CHEB_RATIO_MAX (else p vanishes inside
 * [a, b] in rounding), b - a >= 1e-300 (p(x) <= p(0) <= (d + 1)^2 / delta: the recurrence's sums, and
 * every nu <= 2 / delta, stay doubles); theta and delta out */
static inline int perks__cheb_span(double a, double b, double *theta, double *delta)
{
    if (!perks__cheb_finite(a) || !perks__cheb_finite(b) || !(a > 0) || !(a < b)) return PERKS_ESIZE;
    if (a < b / PERKS_CHEB_RATIO_MAX) return PERKS_ESIZE;
    *theta = perks__cheb_finite(a + b) ? (a + b) / 2 : a / 2 + b / 2;
    if (!(b - a >= 1e-300)) return PERKS_ESIZE;
    *delta = (b - a) / 2;
    return PERKS_SUCCESS;
}

static inline int perks_cheb_margin(const perks_cheb_rule *rule, double lmin, double lmax, double *a, double *b)
{
    double top, bot, th, de;
    if (!rule || !a || !b) return PERKS_ENULL;
    if (rule->kind != PERKS_CHEB_PRECOND && rule->kind != PERKS_CHEB_SMOOTHER) return PERKS_ESIZE;
    if (!(rule->hi >= 0) || !perks__cheb_finite(rule->hi) || !(rule->ratio > 1 && rule->ratio <= PERKS_CHEB_RATIO_MAX))
        return PERKS_ESIZE;
    if (!(lmax > 0) || !perks__cheb_finite(lmax)) return PERKS_ESIZE;
    top = lmax * (1 + rule->hi);
    if (!perks__cheb_finite(top)) return PERKS_ESIZE;
    bot = top / rule->ratio;
    if (rule->kind == PERKS_CHEB_PRECOND) {
        if (!(rule->lo >= 0 && rule->lo < 1) || !(lmin > 0 && lmin <= lmax)) return PERKS_ESIZE;
        if (lmin * (1 - rule->lo) > bot) bot = lmin * (1 - rule->lo);
    }
    if (perks__cheb_span(bot, top, &th, &de) != 0) return PERKS_ESIZE;
    *a = bot, *b = top;
    return PERKS_SUCCESS;
}

static inline int perks_cheb_coeffs(double a, double b, int degree, perks_cheb *out)
{
    perks_cheb c;
    double rho, prev;
    int s;
    if (!out) return PERKS_ENULL;
    if (degree < 0 || degree > PERKS_CHEB_DMAX) return PERKS_ESIZE;
    if (perks__cheb_span(a, b, &c.theta, &c.delta) != 0) return PERKS_ESIZE;
    c.a = a, c.b = b, c.degree = degree;
    c.sigma = c.theta / c.delta; /* >= 1, below 2^54: delta is at least half an ulp of b */
    /* rho_s = T_s(sigma) / T_{s+1}(sigma) = 1 / (2 sigma - rho_{s-1}), rho_0 = 1 / sigma */
    rho = 1 / c.sigma;
    c.mu[0] = 0, c.nu[0] = 1 / c.theta, c.bound = rho;
    for (s = 1; s <= PERKS_CHEB_DMAX; s++) {
        if (s > degree) {
            c.mu[s] = 0, c.nu[s] = 0;
            continue;
        }
        prev = rho;
        rho = 1 / (2 * c.sigma - prev);
        c.mu[s] = rho * prev;
        c.nu[s] = 2 * rho / c.delta;
        c.bound *= rho;
    }
    *out = c;
    return PERKS_SUCCESS;
}

/* lambda p(lambda): the recurrence on the scalar lambda, r = 1 */
static inline double perks_cheb_eval(const perks_cheb *c, double lambda)
{
    double z = 0, dz = 0;
    int s;
    if (!c || c->degree < 0 || c->degree > PERKS_CHEB_DMAX) return NAN;
    for (s = 0; s <= c->degree; s++) {
        dz = c->mu[s] * dz + c->nu[s] * (1 - lambda * z);
        z += dz;
    }
    return lambda * z;
}

static inline double perks_cheb_bound(const perks_cheb *c) { return c ? c->bound : NAN; }

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CHEB_H */
#include <onchip/names_pop.h>
