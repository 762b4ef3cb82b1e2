/* tests/host/test_perks_fsai.c -- perks/fsai.h on the host.  On 2D Poisson matrices (ragged sizes)
 * and random SPD matrices (random symmetric sparse patterns, diagonally dominant, entries over 1e6
 * in scale): (G A G')_ii = 1 for every row, G's pattern A's lower triangle (or its width nearest
 * the diagonal), G' the transpose of G entry for entry; a dense lower pattern gives G A G' = I;
 * PCG with G' G in double takes fewer iterations than Jacobi's and reaches 1e-10 in the true
 * residual; a matrix that is not SPD (a negative eigenvalue, a non-finite entry) is refused with
 * its row; every error code with *f empty.
 * usage: test_perks_fsai [--list | all] [--seed N] */
#include <perks/fsai.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static unsigned long long rng_state = 0x2545f4914f6cdd1dull;
static double urand(void) /* in [0, 1) */
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

typedef struct csr {
    int n, *rp, *ci;
    double *va;
} csr;

static void csr_free(csr *a) { free(a->rp), free(a->ci), free(a->va); }

/* from a dense symmetric n x n matrix (n small) */
static csr from_dense(const double *D, int n)
{
    csr a;
    int k = 0;
    a.n = n;
    a.rp = (int *)malloc(sizeof(int) * (n + 1));
    a.ci = (int *)malloc(sizeof(int) * n * n);
    a.va = (double *)malloc(sizeof(double) * n * n);
    a.rp[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            if (D[i * n + j] != 0 || i == j) a.ci[k] = j, a.va[k] = D[i * n + j], k++;
        a.rp[i + 1] = k;
    }
    return a;
}

static double *poisson_dense(int nx, int ny)
{
    const int n = nx * ny;
    double *D = (double *)calloc((size_t)n * n, sizeof(double));
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            const int i = y * nx + x;
            D[i * n + i] = 4;
            if (x > 0) D[i * n + i - 1] = -1;
            if (x < nx - 1) D[i * n + i + 1] = -1;
            if (y > 0) D[i * n + i - nx] = -1;
            if (y < ny - 1) D[i * n + i + nx] = -1;
        }
    return D;
}

/* symmetric, sparse, strictly diagonally dominant (SPD), scale s */
static double *random_spd_dense(int n, double density, double s)
{
    double *D = (double *)calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (urand() < density) D[i * n + j] = D[j * n + i] = s * (2 * urand() - 1);
    for (int i = 0; i < n; i++) {
        double r = 0;
        for (int j = 0; j < n; j++) r += j == i ? 0 : fabs(D[i * n + j]);
        D[i * n + i] = r + s * (0.1 + urand());
    }
    return D;
}

/* (G A G')_ii for every i, into the largest |value - 1|; and G' against G */
static double diag_error(const csr *a, const perks_fsai *f, int *transpose_ok)
{
    const int n = a->n;
    double *g = (double *)calloc(n, sizeof(double)), *ag = (double *)malloc(sizeof(double) * n), worst = 0;
    *transpose_ok = 1;
    for (int i = 0; i < n; i++) {
        double v = 0;
        for (int k = f->rp[i]; k < f->rp[i + 1]; k++) g[f->ci[k]] = f->va[k];
        for (int r = 0; r < n; r++) {
            double s = 0;
            for (int k = a->rp[r]; k < a->rp[r + 1]; k++) s += a->va[k] * g[a->ci[k]];
            ag[r] = s;
        }
        for (int r = 0; r < n; r++) v += g[r] * ag[r];
        if (fabs(v - 1) > worst) worst = fabs(v - 1);
        for (int k = f->rp[i]; k < f->rp[i + 1]; k++) { /* G[i][ci[k]] in G' row ci[k] */
            const int j = f->ci[k];
            int found = 0;
            for (int t = f->trp[j]; t < f->trp[j + 1]; t++) found |= f->tci[t] == i && f->tva[t] == f->va[k];
            *transpose_ok &= found;
            g[j] = 0;
        }
    }
    *transpose_ok &= f->trp[n] == f->nnz;
    free(g), free(ag);
    return worst;
}

static void spmv(const csr *a, const double *x, double *y)
{
    for (int i = 0; i < a->n; i++) {
        double s = 0;
        for (int k = a->rp[i]; k < a->rp[i + 1]; k++) s += a->va[k] * x[a->ci[k]];
        y[i] = s;
    }
}

/* z = G' G r (f) or D^-1 r (f NULL) */
static void prec(const csr *a, const perks_fsai *f, const double *r, double *w, double *z)
{
    const int n = a->n;
    if (!f) {
        for (int i = 0; i < n; i++)
            for (int k = a->rp[i]; k < a->rp[i + 1]; k++)
                if (a->ci[k] == i) z[i] = r[i] / a->va[k];
        return;
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = f->rp[i]; k < f->rp[i + 1]; k++) s += f->va[k] * r[f->ci[k]];
        w[i] = s;
    }
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int t = f->trp[j]; t < f->trp[j + 1]; t++) s += f->tva[t] * w[f->tci[t]];
        z[j] = s;
    }
}

/* PCG from 0 to ||b - A x|| <= tol ||b||: the iterations (-1: none within 10 n), the true residual */
static int pcg(const csr *a, const perks_fsai *f, const double *b, double tol, double *true_res)
{
    const int n = a->n;
    const size_t sz = n > 0 ? (size_t)n : 1;
    double *x = calloc(sz, 8), *r = calloc(sz, 8), *z = calloc(sz, 8), *p = calloc(sz, 8), *q = calloc(sz, 8),
           *w = calloc(sz, 8), bb = 0, rz = 0, rr = 0;
    int it = 0;
    for (int i = 0; i < n; i++) r[i] = b[i], bb += b[i] * b[i];
    prec(a, f, r, w, z);
    for (int i = 0; i < n; i++) p[i] = z[i], rz += r[i] * z[i], rr += r[i] * r[i];
    while (rr > tol * tol * bb && it < 10 * n) {
        double pq = 0, rz2 = 0, al;
        spmv(a, p, q);
        for (int i = 0; i < n; i++) pq += p[i] * q[i];
        al = rz / pq, rr = 0;
        for (int i = 0; i < n; i++) x[i] += al * p[i], r[i] -= al * q[i], rr += r[i] * r[i];
        prec(a, f, r, w, z);
        for (int i = 0; i < n; i++) rz2 += r[i] * z[i];
        for (int i = 0; i < n; i++) p[i] = z[i] + rz2 / rz * p[i];
        rz = rz2, ++it;
    }
    spmv(a, x, q);
    rr = 0;
    for (int i = 0; i < n; i++) rr += (b[i] - q[i]) * (b[i] - q[i]);
    *true_res = sqrt(rr / bb);
    free(x), free(r), free(z), free(p), free(q), free(w);
    return it < 10 * n ? it : -1;
}

static void test_property(const char *label, double *D, int n, int width)
{
    csr a = from_dense(D, n);
    perks_fsai f;
    long long bad = 0;
    int tok = 0, rc;
    double *b = (double *)malloc(sizeof(double) * n), res_j = 0, res_f = 0;
    char name[160];
    snprintf(name, sizeof name, "fsai %s n %d width %d", label, n, width);
    case_begin(name);
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, width, &f, &bad);
    CHECK(rc == PERKS_SUCCESS && bad == -1, "rc %d bad %lld", rc, bad);
    if (rc == PERKS_SUCCESS) {
        const int w = width ? width : PERKS_FSAI_WIDTH;
        const double e = diag_error(&a, &f, &tok);
        int it_j, it_f, pattern = 1;
        for (int i = 0; i < n; i++) { /* the last min(w, lower count) lower entries of row i, in order */
            int m = 0, k = a.rp[i + 1];
            while (k > a.rp[i] && a.ci[k - 1] > i) k--;
            m = k - a.rp[i] < w ? k - a.rp[i] : w;
            pattern &= f.rp[i + 1] - f.rp[i] == m && !memcmp(f.ci + f.rp[i], a.ci + k - m, sizeof(int) * m) &&
                       f.ci[f.rp[i + 1] - 1] == i && f.va[f.rp[i + 1] - 1] > 0;
        }
        CHECK(pattern, "G's pattern is not A's lower triangle (width %d)", w);
        CHECK(e < 1e-10, "(G A G')_ii off 1 by %.3g", e);
        CHECK(tok, "G' is not G transposed");
        for (int i = 0; i < n; i++) b[i] = 2 * urand() - 1;
        it_j = pcg(&a, NULL, b, 1e-10, &res_j);
        it_f = pcg(&a, &f, b, 1e-10, &res_f);
        CHECK(it_f > 0 && res_f <= 1e-10 * 1.01, "fsai pcg %d iterations, true residual %.3g", it_f, res_f);
        CHECK(it_j < 0 || it_f <= it_j, "fsai %d iterations, jacobi %d", it_f, it_j);
        printf("# %s: jacobi %d, fsai %d iterations (nnz G %lld)\n", name, it_j, it_f, f.nnz);
        perks_fsai_free(&f);
    }
    case_end();
    free(b);
    csr_free(&a);
}

/* the dense lower pattern: G = L^-1, G A G' = I entry for entry */
static void test_dense(void)
{
    const int n = 23;
    double *D = random_spd_dense(n, 1.0, 1.0), *g = calloc(n * n, 8), worst = 0;
    csr a = from_dense(D, n);
    perks_fsai f;
    long long bad;
    int rc;
    case_begin("fsai dense pattern: G A G' = I");
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, n, &f, &bad);
    CHECK(rc == PERKS_SUCCESS, "rc %d", rc);
    if (!rc) {
        for (int i = 0; i < n; i++)
            for (int k = f.rp[i]; k < f.rp[i + 1]; k++) g[i * n + f.ci[k]] = f.va[k];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int r = 0; r < n; r++)
                    for (int c = 0; c < n; c++) s += g[i * n + r] * D[r * n + c] * g[j * n + c];
                if (fabs(s - (i == j)) > worst) worst = fabs(s - (i == j));
            }
        CHECK(worst < 1e-11, "G A G' off I by %.3g", worst);
        perks_fsai_free(&f);
    }
    case_end();
    csr_free(&a);
    free(D), free(g);
}

static int empty(const perks_fsai *f)
{
    return !f->rp && !f->ci && !f->va && !f->trp && !f->tci && !f->tva && f->n == 0 && f->nnz == 0;
}

static void test_refusals(void)
{
    const int n = 9;
    double *D = poisson_dense(3, 3);
    csr a = from_dense(D, n);
    perks_fsai f;
    long long bad = 0;
    int rc;
    case_begin("fsai refusals: not SPD, non-finite, malformed, sizes, NULL");
    /* an indefinite matrix: row 4's submatrix fails */
    a.va[a.rp[4] + 2] = -4; /* A[4][4] (its entries: 1, 3, 4, 5, 7) */
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_EBREAKDOWN && bad == 4 && empty(&f), "indefinite: rc %d bad %lld", rc, bad);
    a.va[a.rp[4] + 2] = 4;
    a.va[a.rp[6]] = NAN; /* A[6][3] */
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_EBREAKDOWN && bad >= 3 && empty(&f), "NaN: rc %d bad %lld", rc, bad);
    a.va[a.rp[6]] = -1;
    a.ci[a.rp[2] + 1] = 7; /* row 2 loses its diagonal */
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_EFORMAT && bad == 2 && empty(&f), "no diagonal: rc %d bad %lld", rc, bad);
    a.ci[a.rp[2] + 1] = 2;
    a.ci[a.rp[5]] = -3;
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_EFORMAT && bad == 5 && empty(&f), "column -3: rc %d bad %lld", rc, bad);
    a.ci[a.rp[5]] = 2;
    a.ci[a.rp[8]] = 99;
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_EFORMAT && bad == 8, "column 99: rc %d bad %lld", rc, bad);
    a.ci[a.rp[8]] = 5;
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_SUCCESS, "restored: rc %d", rc);
    if (!rc) perks_fsai_free(&f);
    rc = perks_fsai_build(0, a.rp, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_ESIZE && empty(&f), "n 0: rc %d", rc);
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, PERKS_FSAI_WIDTH_MAX + 1, &f, &bad);
    CHECK(rc == PERKS_ESIZE && empty(&f), "width: rc %d", rc);
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, -1, &f, &bad);
    CHECK(rc == PERKS_ESIZE && empty(&f), "width -1: rc %d", rc);
    rc = perks_fsai_build(n, NULL, a.ci, a.va, 0, &f, &bad);
    CHECK(rc == PERKS_ENULL && empty(&f), "rp NULL: rc %d", rc);
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, NULL, &bad);
    CHECK(rc == PERKS_ENULL, "f NULL: rc %d", rc);
    rc = perks_fsai_build(n, a.rp, a.ci, a.va, 0, &f, NULL); /* bad_row may be NULL */
    CHECK(rc == PERKS_SUCCESS, "bad_row NULL: rc %d", rc);
    if (!rc) perks_fsai_free(&f);
    perks_fsai_free(NULL);
    case_end();
    csr_free(&a);
    free(D);
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
    {
        double *D = poisson_dense(13, 7);
        test_property("poisson2d 13x7", D, 91, 0);
        test_property("poisson2d 13x7", D, 91, 2);
        free(D);
        D = poisson_dense(17, 11);
        test_property("poisson2d 17x11", D, 187, 0);
        free(D);
    }
    {
        double *D = random_spd_dense(150, 0.05, 1.0);
        test_property("random spd", D, 150, 0);
        test_property("random spd", D, 150, 3);
        free(D);
        D = random_spd_dense(97, 0.2, 1e6);
        test_property("random spd scale 1e6", D, 97, 0);
        free(D);
    }
    test_dense();
    test_refusals();
    return check_exit();
}
