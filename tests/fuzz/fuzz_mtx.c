/* tests/fuzz/fuzz_mtx.c -- the Matrix Market reader (perks/mtx.h) on arbitrary bytes, read from
 * memory (fmemopen).  On every input it asserts the contract of mtx_invariants.h: success gives a
 * well-formed CSR (row pointers monotone from 0 to nnz, columns in range and increasing in each row,
 * values finite), symmetric files mirrored bit for bit, no more rows or nonzeros than the bytes can
 * describe, and a CSR that perks_csr_check accepts (an empty row aside); failure gives a known code, a
 * line of the input and a reason, and an empty matrix.  And two metamorphic promises:
 *   - a caller's bound (max_cells 64) only adds PERKS_ESIZE: any other outcome is the default's,
 *     to the byte;
 *   - the same file with CRLF line ends (a CR before every LF that has none) reads the same, to the
 *     byte: the CR is no part of a line.
 * The reader sorts with mtx_invariants.h's qsort (ties reversed), so an order of ties that the C
 * library's qsort happens to hide still breaks the mirror. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include "fuzz.h"
#include "mtx_invariants.h"

static int read_mem(const uint8_t *data, size_t size, long long max_cells, perks_csr *A, perks_mtx_error *e)
{
    static char none[1];
    FILE *f = fmemopen(size ? (void *)(uintptr_t)data : (void *)none, size, "rb");
    int rc;
    FUZZ_ASSERT(f != NULL, "fmemopen of %zu bytes failed", size);
    memset(e, 0x55, sizeof *e);
    rc = perks_mtx_read_limited(f, max_cells, A, e);
    fclose(f);
    return rc;
}

static int same_csr(const perks_csr *A, const perks_csr *B)
{
    if (A->n_rows != B->n_rows || A->n_cols != B->n_cols || A->nnz != B->nnz || A->symmetric != B->symmetric ||
        A->dups != B->dups)
        return 0;
    if (!A->row_ptr) return !B->row_ptr;
    return memcmp(A->row_ptr, B->row_ptr, sizeof(int) * ((size_t)A->n_rows + 1)) == 0 &&
           memcmp(A->col, B->col, sizeof(int) * (size_t)A->nnz) == 0 &&
           memcmp(A->val, B->val, sizeof(double) * (size_t)A->nnz) == 0;
}

static void same_outcome(int rc, const perks_csr *A, const perks_mtx_error *e, int rc2, const perks_csr *B,
                         const perks_mtx_error *e2, const char *what)
{
    FUZZ_ASSERT(rc == rc2, "%s: rc %d, but %d (line %ld '%s' / line %ld '%s')", what, rc, rc2, e->line, e->message,
                e2->line, e2->message);
    if (rc) FUZZ_ASSERT(e->line == e2->line && strcmp(e->message, e2->message) == 0,
                        "%s: line %ld '%s', but line %ld '%s'", what, e->line, e->message, e2->line, e2->message);
    else FUZZ_ASSERT(same_csr(A, B), "%s: another matrix", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    perks_csr A, B;
    perks_mtx_error e, e2;
    char why[256];
    int rc, rc2;
    size_t k, n_lf = 0;

    rc = read_mem(data, size, 0, &A, &e);
    FUZZ_ASSERT(mtx_outcome_ok(data, size, 0, rc, &A, &e, why, sizeof why), "default bound, rc %d: %s", rc, why);
    FUZZ_ASSERT(rc == 0 || rc == PERKS_EFORMAT || rc == PERKS_ESIZE, "rc %d (%s) from memory", rc, perks_strerror(rc));
    if (rc == 0 && A.n_rows == A.n_cols) {
        long long row;
        int c = perks_csr_check(&A, A.symmetric ? PERKS_CSR_SYMMETRIC : 0, &row);
        FUZZ_ASSERT(c == 0 || c == PERKS_EEMPTYROW, "perks_csr_check refuses the reader's CSR: %s at row %lld",
                    perks_strerror(c), row);
    }

    rc2 = read_mem(data, size, 64, &B, &e2);
    FUZZ_ASSERT(mtx_outcome_ok(data, size, 64, rc2, &B, &e2, why, sizeof why), "max_cells 64, rc %d: %s", rc2, why);
    if (rc2 == 0) FUZZ_ASSERT(rc == 0, "accepted under max_cells 64 but not by default: %s", e.message);
    if (rc != PERKS_ESIZE && rc2 != PERKS_ESIZE) same_outcome(rc, &A, &e, rc2, &B, &e2, "max_cells 64");
    perks_csr_free(&B);

    for (k = 0; k < size; k++) n_lf += data[k] == '\n' && (k == 0 || data[k - 1] != '\r');
    if (n_lf) {
        uint8_t *crlf = (uint8_t *)malloc(size + n_lf);
        size_t m = 0;
        FUZZ_ASSERT(crlf != NULL, "malloc");
        for (k = 0; k < size; k++) {
            if (data[k] == '\n' && (k == 0 || data[k - 1] != '\r')) crlf[m++] = '\r';
            crlf[m++] = data[k];
        }
        rc2 = read_mem(crlf, m, 0, &B, &e2);
        FUZZ_ASSERT(mtx_outcome_ok(crlf, m, 0, rc2, &B, &e2, why, sizeof why), "CRLF, rc %d: %s", rc2, why);
        same_outcome(rc, &A, &e, rc2, &B, &e2, "CRLF line ends");
        perks_csr_free(&B);
        free(crlf);
    }
    perks_csr_free(&A);
    return 0;
}
