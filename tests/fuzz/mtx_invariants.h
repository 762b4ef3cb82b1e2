/* tests/fuzz/mtx_invariants.h -- the contract of perks/mtx.h's reader, checked on one outcome: what
 * tests/fuzz/fuzz_mtx.c (libFuzzer, or replayed under gcc) and tests/host/test_mtx.c (its plain-C
 * fuzz) both assert.  Include it instead of <perks/mtx.h>.
 *
 * qsort gives equal elements in an unspecified order; the reader must not depend on it.  Here qsort
 * is replaced, for the reader and everything after this header, by a sort that puts every run of
 * equal elements in the reverse of the order the C library's qsort left them in: a reader whose
 * result depends on the order of ties differs from one C library to the next, and fails here on
 * every one of them.
 *
 *   char why[200];
 *   rc = perks_mtx_read_limited(f, max_cells, &A, &e);
 *   if (!mtx_outcome_ok(text, len, max_cells, rc, &A, &e, why, sizeof why)) ... why ...
 */
#ifndef ONCHIP_MTX_INVARIANTS_H
#define ONCHIP_MTX_INVARIANTS_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* qsort, then each run of elements the comparator calls equal reversed in place */
static void mtx_inv_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    unsigned char *b = (unsigned char *)base;
    size_t s = 0;
    qsort(base, n, size, cmp);
    while (s < n) {
        size_t e = s + 1, lo, hi;
        while (e < n && cmp(b + s * size, b + e * size) == 0) e++;
        for (lo = s, hi = e - 1; lo < hi; lo++, hi--) {
            size_t q;
            for (q = 0; q < size; q++) {
                unsigned char c = b[lo * size + q];
                b[lo * size + q] = b[hi * size + q];
                b[hi * size + q] = c;
            }
        }
        s = e;
    }
}
#define qsort mtx_inv_qsort

#include <perks/mtx.h>

/* the stored a_ij of a CSR whose rows are sorted (binary search); NULL when it is not stored */
static const double *mtx_inv_at(const perks_csr *A, int i, int j)
{
    int lo = A->row_ptr[i], hi = A->row_ptr[i + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (A->col[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return lo < A->row_ptr[i + 1] && A->col[lo] == j ? &A->val[lo] : NULL;
}

#define MTX_INV_FAIL(...) return (snprintf(why, nwhy, __VA_ARGS__), 0)

/* 1 when the outcome (rc, *A, *e) of reading the len bytes of text with max_cells keeps the
 * contract; else 0 and the broken promise in why.
 *   success: CSR well formed (row_ptr from 0 to nnz and monotone, columns in range and strictly
 *            increasing in each row, values finite), symmetric files square and mirrored bit for
 *            bit, and no larger than the bytes could describe: nnz + dups <= 2 per line (1 per
 *            line for general files), rows within the reader's bound (max_cells, or the default
 *            PERKS_MTX_FREE_ROWS / PERKS_MTX_ROWS_PER_ENTRY per line);
 *   failure: a known code; a format or size error names a line of the input and a reason; the
 *            matrix left empty. */
static int mtx_outcome_ok(const void *text, size_t len, long long max_cells, int rc, const perks_csr *A,
                          const perks_mtx_error *e, char *why, size_t nwhy)
{
    const unsigned char *t = (const unsigned char *)text;
    long long lines = 1, q, cells;
    size_t k;
    int i;
    for (k = 0; k < len; k++) lines += t[k] == '\n';
    if (rc != PERKS_SUCCESS) {
        if (rc != PERKS_EFORMAT && rc != PERKS_ESIZE && rc != PERKS_ENOMEM && rc != PERKS_EIO)
            MTX_INV_FAIL("unexpected code %d (%s)", rc, perks_strerror(rc));
        if (!memchr(e->message, 0, sizeof e->message) || !e->message[0]) MTX_INV_FAIL("code %d without a reason", rc);
        if ((rc == PERKS_EFORMAT || rc == PERKS_ESIZE) && (e->line < 1 || e->line > lines + 1))
            MTX_INV_FAIL("code %d at line %ld, outside the input's %lld lines: %.80s", rc, e->line, lines, e->message);
        if (A->row_ptr || A->col || A->val || A->nnz || A->n_rows || A->n_cols || A->dups || A->symmetric)
            MTX_INV_FAIL("code %d but the matrix is not left empty", rc);
        return 1;
    }
    if (A->n_rows < 1 || A->n_cols < 1 || !A->row_ptr || !A->col || !A->val)
        MTX_INV_FAIL("success with sizes %d x %d or a NULL array", A->n_rows, A->n_cols);
    if (A->nnz < 0 || A->dups < 0) MTX_INV_FAIL("nnz %lld, dups %lld", A->nnz, A->dups);
    if (A->row_ptr[0] != 0 || A->row_ptr[A->n_rows] != A->nnz)
        MTX_INV_FAIL("row_ptr runs from %d to %d, nnz %lld", A->row_ptr[0], A->row_ptr[A->n_rows], A->nnz);
    for (i = 0; i < A->n_rows; i++)
        if (A->row_ptr[i + 1] < A->row_ptr[i]) MTX_INV_FAIL("row_ptr falls at row %d", i);
    for (i = 0; i < A->n_rows; i++)
        for (q = A->row_ptr[i]; q < A->row_ptr[i + 1]; q++) {
            if (A->col[q] < 0 || A->col[q] >= A->n_cols) MTX_INV_FAIL("row %d: column %d out of range", i, A->col[q]);
            if (q > A->row_ptr[i] && A->col[q] <= A->col[q - 1]) MTX_INV_FAIL("row %d: columns not increasing", i);
            if (!isfinite(A->val[q])) MTX_INV_FAIL("row %d column %d: value %g not finite", i, A->col[q], A->val[q]);
        }
    cells = (long long)A->n_rows * A->n_cols;
    if (A->nnz > cells) MTX_INV_FAIL("nnz %lld > %lld cells", A->nnz, cells);
    if (A->nnz + A->dups > (A->symmetric ? 2 : 1) * lines)
        MTX_INV_FAIL("nnz %lld + dups %lld from %lld lines", A->nnz, A->dups, lines);
    if (max_cells > 0 ? A->n_rows > max_cells
                      : A->n_rows > PERKS_MTX_FREE_ROWS && A->n_rows > PERKS_MTX_ROWS_PER_ENTRY * lines)
        MTX_INV_FAIL("%d rows from %lld lines (max_cells %lld)", A->n_rows, lines, max_cells);
    if (A->symmetric) {
        if (A->n_rows != A->n_cols) MTX_INV_FAIL("symmetric but %d x %d", A->n_rows, A->n_cols);
        for (i = 0; i < A->n_rows; i++)
            for (q = A->row_ptr[i]; q < A->row_ptr[i + 1]; q++) {
                const double *m = mtx_inv_at(A, A->col[q], i);
                if (!m || memcmp(m, &A->val[q], sizeof *m) != 0)
                    MTX_INV_FAIL("symmetric: a(%d,%d) = %.17g but a(%d,%d) %s %.17g", i, A->col[q], A->val[q],
                                 A->col[q], i, m ? "=" : "is not stored,", m ? *m : 0.0);
            }
    }
    return 1;
}
#undef MTX_INV_FAIL
#endif
