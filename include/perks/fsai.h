#include <onchip/names_push.h>
/* perks/fsai.h -- the factorised sparse approximate inverse (FSAI) of an SPD matrix in CSR, for the
 * CG solver's opts.fsai (perks/cg.cuh): G lower triangular with G A G' close to I, so that
 * M^-1 = G' G is applied with two sparse products (C99; host-tested).
 * Construction, its cost and its numbers: docs/perks-cg.md#reference-fsai-preconditioning.
 *
 * WHAT
 *   perks_fsai_build: row i of G has the pattern P_i of row i's entries j <= i (the diagonal last;
 *   at most width of them, those nearest the diagonal); g solves A[P_i, P_i] g = e_last by a
 *   dense Cholesky L L', and row i is g / sqrt(g_last) = L'^-1 e_last, so that (G A G')_ii = 1.  The pattern is A's
 *   lower triangle: a dense lower triangle gives G = L^-1 of A = L L'.  G' is built too (its rows,
 *   the columns of G), for the second product.
 *
 * EXAMPLE
 *   [compile: int n, *rp, *ci; double *va]
 *   perks_fsai f;
 *   long long bad = -1;
 *   int rc = perks_fsai_build(n, rp, ci, va, 0, &f, &bad);  // 0: PERKS_FSAI_WIDTH
 *   if (rc == 0) {
 *       // z = G' (G r): f.rp, f.ci, f.va (G, rows), f.trp, f.tci, f.tva (G', rows)
 *       perks_fsai_free(&f);
 *   }
 *
 * PARAMETERS
 *   n >= 1 rows; rp[n + 1], ci[rp[n]], va[rp[n]]: CSR with 32-bit indices, rows sorted by column,
 *   the pattern symmetric (only the lower triangle is read), every diagonal present; width 0
 *   (PERKS_FSAI_WIDTH) or 1 .. PERKS_FSAI_WIDTH_MAX (64).
 * ERRORS: PERKS_ENULL; PERKS_ESIZE n < 1, width out of range, nonzeros past 2^31 - 1;
 *   PERKS_EFORMAT a row pointer that decreases, a column outside 0..n-1 or unsorted, a row
 *   without its diagonal (*bad_row: the row); PERKS_EBREAKDOWN a submatrix A[P_i, P_i] that is
 *   not positive definite, a non-finite entry, or a row of G past double's range (A is not SPD to
 *   working precision; *bad_row: the row);
 *   PERKS_ENOMEM.  On any error *f is empty.
 * COST: sum over rows of |P_i|^3 / 3 + |P_i| x (row length) operations, 2 (nnz(G) (12 bytes) + n)
 *   of memory; host time measured in docs/perks-cg.md.
 */
#ifndef PERKS_FSAI_H
#define PERKS_FSAI_H

#ifndef __CUDACC_RTC__ /* host code, all of it */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#ifndef PERKS_FSAI_WIDTH
#define PERKS_FSAI_WIDTH 64 /* width 0: a row of G keeps at most this many entries */
#endif
#define PERKS_FSAI_WIDTH_MAX 64 /* the CG solver builds G on the device: a row's submatrix in shared memory */
#if PERKS_FSAI_WIDTH < 1 || PERKS_FSAI_WIDTH > PERKS_FSAI_WIDTH_MAX
#error "perks/fsai.h: PERKS_FSAI_WIDTH (the default width) must be 1 .. PERKS_FSAI_WIDTH_MAX (64)"
#endif

typedef struct perks_fsai {
    int n, width;
    long long nnz;         /* entries of G (= of G') */
    int *rp, *ci;          /* G: n + 1 row pointers, nnz columns (sorted, the diagonal last) */
    double *va;            /* G's values */
    int *trp, *tci;        /* G': its rows (the columns of G), sorted */
    double *tva;
} perks_fsai;

static inline void perks_fsai_free(perks_fsai *f)
{
    if (!f) return;
    free(f->rp), free(f->ci), free(f->va), free(f->trp), free(f->tci), free(f->tva);
    memset(f, 0, sizeof *f);
}

/* sum u[k] v[k], k < n, in four interleaved partial sums (independent chains) */
static inline double perks__fsai_dot(const double *u, const double *v, int n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int k = 0;
    for (; k + 4 <= n; k += 4)
        s0 += u[k] * v[k], s1 += u[k + 1] * v[k + 1], s2 += u[k + 2] * v[k + 2], s3 += u[k + 3] * v[k + 3];
    for (; k < n; k++) s0 += u[k] * v[k];
    return (s0 + s1) + (s2 + s3);
}

/* the m x m SPD matrix M (row major) = L L' in place (lower, row by row); 1 if a pivot is not > 0 */
static inline int perks__fsai_chol(double *M, int m)
{
    for (int i = 0; i < m; i++) {
        double *Li = M + (size_t)i * m;
        for (int j = 0; j < i; j++) Li[j] = (Li[j] - perks__fsai_dot(Li, M + (size_t)j * m, j)) / M[(size_t)j * m + j];
        {
            const double s = Li[i] - perks__fsai_dot(Li, Li, i);
            if (!(s > 0) || !isfinite(s)) return 1;
            Li[i] = sqrt(s);
        }
    }
    return 0;
}

/* the CSR's shape: rows increase, columns in range and sorted, every diagonal present (*bad) */
static inline int perks__fsai_check(int n, const int *rp, const int *ci, long long *bad)
{
    if (rp[0] != 0) return *bad = 0, PERKS_EFORMAT;
    for (int i = 0; i < n; i++) {
        int diag = 0;
        if (rp[i + 1] < rp[i]) return *bad = i, PERKS_EFORMAT;
        for (int k = rp[i]; k < rp[i + 1]; k++) {
            if (ci[k] < 0 || ci[k] >= n || (k > rp[i] && ci[k] <= ci[k - 1])) return *bad = i, PERKS_EFORMAT;
            diag |= ci[k] == i;
        }
        if (!diag) return *bad = i, PERKS_EFORMAT;
    }
    return PERKS_SUCCESS;
}

/* G' from G: counting sort of G's entries by column (rows of G' sorted, as G's rows are visited in order) */
static inline int perks__fsai_transpose(perks_fsai *f)
{
    const int n = f->n;
    f->trp = (int *)calloc((size_t)n + 1, sizeof(int));
    f->tci = (int *)malloc(sizeof(int) * (size_t)f->nnz);
    f->tva = (double *)malloc(sizeof(double) * (size_t)f->nnz);
    if (!f->trp || !f->tci || !f->tva) return PERKS_ENOMEM;
    for (long long k = 0; k < f->nnz; k++) f->trp[f->ci[k] + 1]++;
    for (int j = 0; j < n; j++) f->trp[j + 1] += f->trp[j];
    {
        int *next = (int *)malloc(sizeof(int) * (size_t)n);
        if (!next) return PERKS_ENOMEM;
        memcpy(next, f->trp, sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            for (int k = f->rp[i]; k < f->rp[i + 1]; k++) {
                const int t = next[f->ci[k]]++;
                f->tci[t] = i;
                f->tva[t] = f->va[k];
            }
        free(next);
    }
    return PERKS_SUCCESS;
}

/* row i of G: pattern P (m entries, the diagonal last) from A's lower part; M = A[P, P] through pos
 * (pos[c]: c's place in P, else -1; reset before return); g into out */
static inline int perks__fsai_row(int i, const int *rp, const int *ci, const double *va, const int *P, int m,
                                  int *pos, double *M, double *out)
{
    int bad = 0;
    for (int a = 0; a < m; a++) pos[P[a]] = a;
    memset(M, 0, sizeof(double) * (size_t)m * m);
    for (int a = 0; a < m && !bad; a++)
        for (int k = rp[P[a]]; k < rp[P[a] + 1]; k++) {
            const int b = ci[k] <= i ? pos[ci[k]] : -1;
            if (!isfinite(va[k])) bad = 1;
            if (b >= 0) M[a * m + b] = va[k];
        }
    for (int a = 0; a < m; a++) pos[P[a]] = -1;
    if (bad || perks__fsai_chol(M, m)) return PERKS_EBREAKDOWN;
    /* the row is h = L'^-1 e_last: M^-1 e_last = L'^-1 L^-1 e_last = h / L_last,last, and scaled by
     * 1 / sqrt of its last entry (1 / L_last,last^2) it is h itself -- no square of a small pivot */
    for (int a = 0; a < m; a++) out[a] = a == m - 1;
    for (int a = m - 1; a >= 0; a--) {
        double s = out[a];
        for (int k = a + 1; k < m; k++) s -= M[k * m + a] * out[k];
        out[a] = s / M[a * m + a];
        if (!isfinite(out[a])) return PERKS_EBREAKDOWN; /* past double's range: not SPD to working precision */
    }
    return PERKS_SUCCESS;
}

static inline int perks_fsai_build(int n, const int *rp, const int *ci, const double *va, int width,
                                   perks_fsai *f, long long *bad_row)
{
    long long bad = -1, nnz = 0;
    int rc = PERKS_SUCCESS, *pos = NULL;
    double *M = NULL;
    if (!f) return PERKS_ENULL;
    memset(f, 0, sizeof *f);
    if (bad_row) *bad_row = -1;
    if (!rp || !ci || !va) return PERKS_ENULL;
    if (n < 1 || width < 0 || width > PERKS_FSAI_WIDTH_MAX) return PERKS_ESIZE;
    if (!width) width = PERKS_FSAI_WIDTH;
    if ((rc = perks__fsai_check(n, rp, ci, &bad))) goto out;
    f->n = n, f->width = width;
    f->rp = (int *)malloc(sizeof(int) * ((size_t)n + 1));
    if (!f->rp) goto nomem;
    f->rp[0] = 0;
    for (int i = 0; i < n; i++) { /* the entries j <= i, at most width (rows are sorted: the last ones) */
        int m = 0;
        for (int k = rp[i]; k < rp[i + 1] && ci[k] <= i; k++) m++;
        nnz += m < width ? m : width;
        if (nnz > INT_MAX) {
            rc = PERKS_ESIZE;
            goto out;
        }
        f->rp[i + 1] = (int)nnz;
    }
    f->nnz = nnz;
    f->ci = (int *)malloc(sizeof(int) * (size_t)nnz);
    f->va = (double *)malloc(sizeof(double) * (size_t)nnz);
    pos = (int *)malloc(sizeof(int) * (size_t)n);
    M = (double *)malloc(sizeof(double) * (size_t)width * width);
    if (!f->ci || !f->va || !pos || !M) goto nomem;
    for (int j = 0; j < n; j++) pos[j] = -1;
    for (int i = 0; i < n; i++) {
        int e = rp[i];
        const int m = f->rp[i + 1] - f->rp[i];
        while (e < rp[i + 1] && ci[e] <= i) e++; /* one past the diagonal */
        memcpy(f->ci + f->rp[i], ci + e - m, sizeof(int) * (size_t)m);
        if ((rc = perks__fsai_row(i, rp, ci, va, f->ci + f->rp[i], m, pos, M, f->va + f->rp[i]))) {
            bad = i;
            goto out;
        }
    }
    if ((rc = perks__fsai_transpose(f))) goto out;
    goto out;
nomem:
    rc = PERKS_ENOMEM;
out:
    free(pos);
    free(M);
    if (rc) {
        perks_fsai_free(f);
        if (bad_row) *bad_row = bad;
    }
    return rc;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_FSAI_H */
#include <onchip/names_pop.h>
