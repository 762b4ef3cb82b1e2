/* tests/fuzz/fuzz_fsai.c -- perks/fsai.h under hostile CSR.  The input builds a matrix of n <= 24
 * rows: a random pattern (symmetric or not, rows sorted or not, diagonals present or not, columns in
 * or out of range, row pointers that may decrease), values that are often NaN, infinite, zero,
 * negative, huge or tiny, and often diagonally dominant (SPD); a width of -2 .. 70.  Every call must
 * return a documented code in bounded time: PERKS_ESIZE for n or width out of range, PERKS_EFORMAT
 * with the row for a malformed CSR or a missing diagonal, PERKS_EBREAKDOWN with the row when a
 * submatrix is not positive definite or an entry not finite, and *f empty on any error.  On success:
 * G's rows are the last min(width, count) entries j <= i of A's rows, the diagonal last and
 * positive, every value finite, (G A G')_ii = 1 to rounding where A is symmetric and diagonally
 * dominant, and
 * G' is G transposed entry for entry. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perks/fsai.h>

#include "fuzz.h"

#define FFSAI_NMAX 24

static double ffsai_value(fuzz_bytes *b)
{
    static const double edge[] = {0, -0.0, 1, -1, 1e-300, 1e300, 4.9406564584124654e-324, 1e-17, 0.5, 4};
    const uint64_t sel = fuzz_u64(b, 1);
    switch (sel % 8) {
    case 0: return sel & 8 ? -NAN : NAN;
    case 1: return sel & 8 ? -INFINITY : INFINITY;
    case 2: return edge[(sel >> 3) % (sizeof edge / sizeof *edge)];
    default: return ((double)fuzz_u64(b, 2) - 32768) / 8192;
    }
}

static int ffsai_empty(const perks_fsai *f)
{
    return !f->rp && !f->ci && !f->va && !f->trp && !f->tci && !f->tva && f->n == 0 && f->nnz == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes b;
    int rp[FFSAI_NMAX + 2], ci[FFSAI_NMAX * FFSAI_NMAX], n, width, nz = 0, i, j;
    double va[FFSAI_NMAX * FFSAI_NMAX], D[FFSAI_NMAX][FFSAI_NMAX];
    unsigned char pat[FFSAI_NMAX][FFSAI_NMAX];
    b.p = data, b.n = size, b.at = 0;
    const uint64_t mode = fuzz_u64(&b, 1);
    n = mode & 1 ? (int)(fuzz_u64(&b, 1) % (FFSAI_NMAX + 1)) : 1 + (int)(fuzz_u64(&b, 1) % FFSAI_NMAX);
    if (mode & 2) n = fuzz_int(&b) % (FFSAI_NMAX + 1) - (fuzz_u64(&b, 1) % 4 == 0); /* sometimes < 1 */
    width = (int)(fuzz_u64(&b, 1) % 73) - 2;
    const int sym = !(mode & 4), spd = !(mode & 8), hostile = mode & 16 ? 1 : 0, nodiag = (mode & 32) && (mode & 64);
    const int nn = n > 0 ? n : 0;
    memset(pat, 0, sizeof pat);
    memset(D, 0, sizeof D);
    memset(ci, 0, sizeof ci); /* a row pointer past nnz reads defined entries */
    memset(va, 0, sizeof va);
    for (i = 0; i < nn; i++)
        for (j = 0; j <= i; j++) {
            const int on = j == i ? !(nodiag && fuzz_u64(&b, 1) % 8 == 0) : fuzz_u64(&b, 1) % 4 == 0;
            if (!on) continue;
            const double v = hostile && fuzz_u64(&b, 1) % 8 == 0 ? ffsai_value(&b) : ((double)fuzz_u64(&b, 1) - 128) / 64;
            pat[i][j] = 1, D[i][j] = v;
            if (sym || fuzz_u64(&b, 1) % 8) pat[j][i] = 1, D[j][i] = v;
        }
    if (spd)
        for (i = 0; i < nn; i++) {
            double s = 0;
            for (j = 0; j < nn; j++) s += j != i && pat[i][j] ? fabs(D[i][j]) : 0;
            if (pat[i][i]) D[i][i] = s + 1 + (double)fuzz_u64(&b, 1) / 64;
        }
    rp[0] = 0;
    for (i = 0; i < nn; i++) {
        for (j = 0; j < nn; j++)
            if (pat[i][j]) ci[nz] = j, va[nz] = D[i][j], nz++;
        rp[i + 1] = nz;
    }
    int malformed = 0;
    if (nz > 0 && fuzz_u64(&b, 1) % 16 == 0) { /* malformed: a column out of range, unsorted, or rp down */
        malformed = 1;
        const int k = (int)(fuzz_u64(&b, 1) % (uint64_t)nz);
        switch (fuzz_u64(&b, 1) % 3) {
        case 0: ci[k] = fuzz_u64(&b, 1) & 1 ? -1 : nn + (int)(fuzz_u64(&b, 1) % 4); break;
        case 1: ci[k] = k > 0 ? ci[k - 1] : ci[k]; break;
        default: if (nn > 1) rp[1 + (int)(fuzz_u64(&b, 1) % (uint64_t)(nn - 1))] = rp[nn] + 1; break;
        }
    }
    perks_fsai f;
    long long bad = -7;
    const int rc = perks_fsai_build(n, rp, ci, va, width, &f, &bad);
    FUZZ_ASSERT(rc == PERKS_SUCCESS || rc == PERKS_ESIZE || rc == PERKS_EFORMAT || rc == PERKS_EBREAKDOWN ||
                    rc == PERKS_ENOMEM,
                "n %d width %d: rc %d", n, width, rc);
    if (n < 1 || width < 0 || width > PERKS_FSAI_WIDTH_MAX)
        FUZZ_ASSERT(rc == PERKS_ESIZE, "n %d width %d: rc %d, want PERKS_ESIZE", n, width, rc);
    if (rc) {
        FUZZ_ASSERT(ffsai_empty(&f), "rc %d: *f not empty", rc);
        FUZZ_ASSERT(rc == PERKS_ESIZE || rc == PERKS_ENOMEM || (bad >= 0 && bad < n), "rc %d: bad row %lld", rc, bad);
        return 0;
    }
    FUZZ_ASSERT(bad == -1, "success with bad row %lld", bad);
    /* success: a well-formed CSR with every diagonal; A SPD on every submatrix */
    const int w = width ? width : PERKS_FSAI_WIDTH;
    FUZZ_ASSERT(f.n == n && f.rp[0] == 0 && f.rp[n] == f.nnz && f.trp[0] == 0 && f.trp[n] == f.nnz, "shape");
    for (i = 0; i < n; i++) {
        int k = rp[i + 1], m;
        while (k > rp[i] && ci[k - 1] > i) k--;
        m = k - rp[i] < w ? k - rp[i] : w;
        FUZZ_ASSERT(f.rp[i + 1] - f.rp[i] == m && !memcmp(f.ci + f.rp[i], ci + k - m, sizeof(int) * (size_t)m),
                    "row %d: G's pattern", i);
        FUZZ_ASSERT(m >= 1 && f.ci[f.rp[i + 1] - 1] == i && f.va[f.rp[i + 1] - 1] > 0, "row %d: the diagonal", i);
        for (int t = f.rp[i]; t < f.rp[i + 1]; t++) {
            int found = 0;
            FUZZ_ASSERT(isfinite(f.va[t]), "row %d: a value not finite", i);
            for (int u = f.trp[f.ci[t]]; u < f.trp[f.ci[t] + 1]; u++) found += f.tci[u] == i && f.tva[u] == f.va[t];
            FUZZ_ASSERT(found == 1, "row %d: G' misses G's entry (%d, %d)", i, i, f.ci[t]);
        }
        /* (G A G')_ii over the pattern: g' A[P, P] g */
        double s = 0, scale = 0;
        for (int t = f.rp[i]; t < f.rp[i + 1]; t++)
            for (int u = f.rp[i]; u < f.rp[i + 1]; u++) {
                const double a = D[f.ci[t]][f.ci[u]] * (pat[f.ci[t]][f.ci[u]] ? 1 : 0);
                s += f.va[t] * a * f.va[u];
                scale += fabs(f.va[t] * a * f.va[u]);
            }
        /* A symmetric and diagonally dominant: M = A[P, P] is well conditioned and read as given */
        if (sym && spd && !malformed)
            FUZZ_ASSERT(fabs(s - 1) <= 1e-8 * (scale > 1 ? scale : 1), "row %d: (G A G')_ii = %.17g", i, s);
    }
    perks_fsai_free(&f);
    FUZZ_ASSERT(ffsai_empty(&f), "free");
    return 0;
}
