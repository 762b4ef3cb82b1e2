/* tests/fuzz/fuzz_csr.c -- perks_csr_check (perks/mtx.h) on arrays decoded from the input, each
 * allocated to exactly the size the contract promises (row_ptr[n_rows + 1], col[nnz], val[nnz]), so
 * that AddressSanitizer catches any read past them.  The answer (code and row) must equal that of a
 * plain reference written from the contract (linear scans, no sorting), so the checker accepts only
 * arrays that keep the invariants, and refuses each defect with its code at its row.
 *
 * Input: byte 0 = flags (bits 0-1: PERKS_CSR_SPD_DIAG, PERKS_CSR_SYMMETRIC), then
 *   bit 2 clear (raw arrays): bit 3 col NULL, bit 4 val NULL, bit 5 nnz = row_ptr[n] (when in 0..4096),
 *     bit 6 n_cols = n_rows; n_rows = the next byte as a signed number (-128..127); n_cols (unless bit 6) = fuzz_int;
 *     row_ptr[i]: a byte b, b < 240: row_ptr[i - 1] + b % 8 (row_ptr[0]: 0), else fuzz_int;
 *     nnz (unless bit 5): fuzz_int, into -2..4096; col[k]: a byte b, b < 224: b % n_cols, else
 *     fuzz_int; val[k]: a byte, one of 16 values (finite, zero, -0, NaN, infinities, extremes).
 *   bit 2 set (a symmetric matrix, then mutated): n = 1 + byte % 48, a byte of entry count, entries
 *     (i, j, value byte) mirrored, diagonal n + 1 unless an entry sets it; bit 7: every row stored in
 *     decreasing column order; bit 3: each row's first entry stored twice; then a byte of mutation
 *     count (% 5), each (kind, position byte x2, value byte): a value, a column, a row pointer
 *     (+-1), or two entries swapped. */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include <perks/mtx.h>

/* a value from a byte: 14 finite ones (zeros of both signs, extremes, a denormal), NaN, +-infinity */
static double val_of(unsigned b)
{
    static const double finite[14] = {1.0, -1.0, 0.0, 2.0, 0.5, 4.0, -0.0, 3.0, -2.0, 1e308, 5e-324, -1e-300,
                                      1.0 / 3.0, 100.0};
    if (b % 16 == 14) return NAN;
    if (b % 16 == 15) return (b & 16) ? INFINITY : -INFINITY;
    return finite[b % 16];
}

/* the first stored a_ij of row i in storage order (a scan); 1 if found */
static int ref_find(const perks_csr *A, int i, int j, double *v)
{
    int k;
    for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
        if (A->col[k] == j) return *v = A->val[k], 1;
    return 0;
}

/* perks_csr_check as its contract reads, in its order of checks */
static int ref_check(const perks_csr *A, int flags, long long *row)
{
    int i, k, n = A->n_rows;
    *row = -1;
    if (!A->row_ptr || (A->nnz > 0 && (!A->col || !A->val))) return PERKS_ENULL;
    if (A->n_rows < 1 || A->n_cols < 1 || A->nnz < 0) return PERKS_ESIZE;
    if (A->n_rows != A->n_cols) return PERKS_ENOTSQUARE;
    if (A->row_ptr[0] != 0 || A->row_ptr[n] != A->nnz) return PERKS_EFORMAT;
    for (i = 0; i < n; i++)
        if (A->row_ptr[i + 1] < A->row_ptr[i]) return *row = i, PERKS_EFORMAT;
    for (i = 0; i < n; i++)
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col[k] < 0 || A->col[k] >= A->n_cols || !isfinite(A->val[k])) return *row = i, PERKS_EFORMAT;
    for (i = 0; i < n; i++) {
        double d = 0;
        if (A->row_ptr[i + 1] == A->row_ptr[i]) return *row = i, PERKS_EEMPTYROW;
        if ((flags & PERKS_CSR_SPD_DIAG) && !(ref_find(A, i, i, &d) && d > 0)) return *row = i, PERKS_EDIAG;
    }
    if (flags & PERKS_CSR_SYMMETRIC)
        for (i = 0; i < n; i++)
            for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                double v = 0;
                if (A->col[k] != i && !(ref_find(A, A->col[k], i, &v) && v == A->val[k]))
                    return *row = i, PERKS_ENOTSYM;
            }
    return PERKS_SUCCESS;
}

/* exactly bytes bytes (at least one, so that a pointer exists and any read of it is caught) */
static void *alloc_exact(size_t bytes) { return malloc(bytes ? bytes : 1); }

/* a symmetric matrix of n <= 48 rows from the input, with dense staging; 0 on success */
static int gen_symmetric(fuzz_bytes *b, int mode, perks_csr *A)
{
    static double D[48][48];
    static unsigned char S[48][48];
    int n = 1 + (int)(fuzz_u64(b, 1) % 48), ents = (int)fuzz_u64(b, 1), q, i, j, k, dup = (mode >> 3) & 1;
    long long nnz = 0;
    memset(S, 0, sizeof S);
    for (i = 0; i < n; i++) D[i][i] = n + 1, S[i][i] = 1;
    for (q = 0; q < ents; q++) {
        i = (int)(fuzz_u64(b, 1) % (uint64_t)n);
        j = (int)(fuzz_u64(b, 1) % (uint64_t)n);
        D[i][j] = D[j][i] = val_of((unsigned)fuzz_u64(b, 1));
        S[i][j] = S[j][i] = 1;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) nnz += S[i][j];
    if (dup) nnz += n;
    A->n_rows = A->n_cols = n;
    A->nnz = nnz;
    A->row_ptr = (int *)alloc_exact(sizeof(int) * (size_t)(n + 1));
    A->col = (int *)alloc_exact(sizeof(int) * (size_t)nnz);
    A->val = (double *)alloc_exact(sizeof(double) * (size_t)nnz);
    if (!A->row_ptr || !A->col || !A->val) return -1;
    k = 0;
    for (i = 0; i < n; i++) {
        int first = 1;
        A->row_ptr[i] = k;
        for (q = 0; q < n; q++) {
            j = (mode & 128) ? n - 1 - q : q;
            if (!S[i][j]) continue;
            A->col[k] = j, A->val[k++] = D[i][j];
            if (first && dup) A->col[k] = j, A->val[k++] = D[i][j];
            first = 0;
        }
    }
    A->row_ptr[n] = k;
    q = (int)(fuzz_u64(b, 1) % 5);
    while (q-- > 0) {
        int kind = (int)(fuzz_u64(b, 1) % 4), at = (int)fuzz_u64(b, 2), v = (int)fuzz_u64(b, 1);
        if (kind == 2) {
            A->row_ptr[at % (n + 1)] += (v & 1) ? 1 : -1;
            continue;
        }
        if (nnz == 0) continue;
        at %= (int)nnz;
        if (kind == 0) A->val[at] = val_of((unsigned)v);
        else if (kind == 1) A->col[at] = v % n;
        else {
            int o = v % (int)nnz, c = A->col[at];
            double x = A->val[at];
            A->col[at] = A->col[o], A->val[at] = A->val[o];
            A->col[o] = c, A->val[o] = x;
        }
    }
    return 0;
}

/* raw arrays as the header of this file says; 0 on success */
static int gen_raw(fuzz_bytes *b, int mode, perks_csr *A)
{
    int n = (int)fuzz_u64(b, 1), i;
    long long nnz = 0, k;
    if (n >= 128) n -= 256; /* the byte as a signed number */
    A->n_rows = n;
    A->n_cols = (mode & 64) ? n : fuzz_int(b);
    A->row_ptr = (int *)alloc_exact(n > 0 ? sizeof(int) * (size_t)(n + 1) : 0);
    if (!A->row_ptr) return -1;
    for (i = 0; n > 0 && i <= n; i++) { /* a step that passes INT_MAX wraps (unsigned arithmetic) */
        unsigned s = (unsigned)fuzz_u64(b, 1);
        A->row_ptr[i] = s < 240 ? (i ? (int)((unsigned)A->row_ptr[i - 1] + s % 8) : 0) : fuzz_int(b);
    }
    if ((mode & 32) && n > 0 && A->row_ptr[n] >= 0 && A->row_ptr[n] <= 4096) nnz = A->row_ptr[n];
    else {
        nnz = fuzz_int(b);
        if (nnz > 4096) nnz %= 4097;
        if (nnz < -2) nnz = -1;
    }
    A->nnz = nnz;
    A->col = (mode & 8) ? NULL : (int *)alloc_exact(nnz > 0 ? sizeof(int) * (size_t)nnz : 0);
    A->val = (mode & 16) ? NULL : (double *)alloc_exact(nnz > 0 ? sizeof(double) * (size_t)nnz : 0);
    if ((!(mode & 8) && !A->col) || (!(mode & 16) && !A->val)) return -1;
    for (k = 0; k < nnz; k++) {
        unsigned s = (unsigned)fuzz_u64(b, 1);
        if (A->col) A->col[k] = s < 224 ? (A->n_cols > 0 ? (int)(s % (unsigned)A->n_cols) : (int)s) : fuzz_int(b);
        if (A->val) A->val[k] = val_of((unsigned)fuzz_u64(b, 1));
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes b = {data, size, 0};
    perks_csr A;
    int mode = (int)fuzz_u64(&b, 1), flags = mode & 3, rc, want, made;
    long long row = 7, want_row = 7;
    memset(&A, 0, sizeof A);
    made = (mode & 4) ? gen_symmetric(&b, mode, &A) : gen_raw(&b, mode, &A);
    FUZZ_ASSERT(made == 0, "malloc");
    rc = perks_csr_check(&A, flags, &row);
    want = ref_check(&A, flags, &want_row);
    FUZZ_ASSERT(rc == want && row == want_row, "flags %d, %d x %d, nnz %lld: code %d (%s) at row %lld, the contract "
                "says %d (%s) at row %lld", flags, A.n_rows, A.n_cols, A.nnz, rc, perks_strerror(rc), row, want,
                perks_strerror(want), want_row);
    FUZZ_ASSERT(perks_csr_check(&A, flags, NULL) == rc, "another code without the row pointer");
    free(A.row_ptr);
    free(A.col);
    free(A.val);
    return 0;
}
