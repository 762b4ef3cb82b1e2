/* tests/host/test_mtx.c -- perks/mtx.h, the Matrix Market reader: every accepted field and symmetry
 * against a dense oracle built independently from the entry list, duplicates, comments, CRLF and
 * blank lines, one malformed file per error path (the code, the line and the reason), hostile
 * inputs (headers that claim gigabytes, duplicates that overflow, long rows of ties in symmetric
 * files, CRLF at the line limit, read errors), perks_csr_check (each defect, row pointers that fall
 * back, large arrow matrices in bounded time), the real matrices under ../shared/data/mtx or
 * .data/mtx when present, and a fuzz: mutated valid files and random generated ones must keep the
 * contract of tests/fuzz/mtx_invariants.h (the one tests/fuzz/fuzz_mtx.c asserts) -- never a crash
 * (run it under valgrind or -fsanitize=address for more).  The reader here sorts with
 * mtx_invariants.h's qsort, which reverses every run of ties.
 * usage: test_mtx [--list | basic | errors | hostile | check | files | fuzz | fuzz-long N [SEED] | all]
 *   fuzz       (in make test) 20000 mutated inputs, fixed seed: a few seconds
 *   fuzz-long  by hand: N inputs from SEED (default: the time), e.g. test_mtx fuzz-long 5000000 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen, setrlimit, sysconf */
#include "../fuzz/mtx_invariants.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static int rnd(int n) { return (int)(rng() % (uint64_t)n); }

/* parse a string through a temporary file (tmpfile is C99) */
static int read_str(const char *text, size_t len, long long limit, perks_csr *A, perks_mtx_error *e)
{
    FILE *f = tmpfile();
    int rc;
    if (!f) return -100;
    if (len && fwrite(text, 1, len, f) != len) {
        fclose(f);
        return -101;
    }
    rewind(f);
    rc = perks_mtx_read_limited(f, limit, A, e);
    fclose(f);
    return rc;
}

/* CSR invariants: monotone row pointers, sorted unique in-range columns, finite values */
static int csr_ok(const perks_csr *A, char *why, size_t n)
{
    int i;
    long long k;
    if (A->n_rows < 1 || A->n_cols < 1 || !A->row_ptr || !A->col || !A->val) return snprintf(why, n, "empty"), 0;
    if (A->row_ptr[0] != 0 || A->row_ptr[A->n_rows] != A->nnz) return snprintf(why, n, "row_ptr ends"), 0;
    for (i = 0; i < A->n_rows; i++) {
        if (A->row_ptr[i + 1] < A->row_ptr[i]) return snprintf(why, n, "row_ptr decreases at %d", i), 0;
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            if (A->col[k] < 0 || A->col[k] >= A->n_cols) return snprintf(why, n, "col out of range"), 0;
            if (k > A->row_ptr[i] && A->col[k] <= A->col[k - 1]) return snprintf(why, n, "cols not increasing"), 0;
            if (!isfinite(A->val[k])) return snprintf(why, n, "value not finite"), 0;
        }
    }
    return 1;
}

/* dense image of a CSR (n x m doubles) */
static void csr_dense(const perks_csr *A, double *D)
{
    int i;
    long long k;
    memset(D, 0, sizeof(double) * (size_t)A->n_rows * (size_t)A->n_cols);
    for (i = 0; i < A->n_rows; i++)
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) D[(size_t)i * A->n_cols + A->col[k]] += A->val[k];
}

/* generate a valid random file (field f, symmetry s) with duplicates, comments and odd spacing;
 * the oracle D receives the matrix it describes.  Returns the text length. */
static size_t gen_valid(char *out, size_t cap, int *rows, int *cols, int field, int sym, double *D, int dmax,
                        int *nnz_struct)
{
    static const char *fields[] = {"real", "integer", "pattern"};
    int n = 1 + rnd(dmax), m = sym ? n : 1 + rnd(dmax), ents = rnd(n * m / 2 + 2), k;
    size_t len = 0;
    *rows = n;
    *cols = m;
    memset(D, 0, sizeof(double) * (size_t)n * m);
    len += (size_t)snprintf(out + len, cap - len, "%s %s %s %s %s\n", rnd(2) ? "%%MatrixMarket" : "%%matrixmarket",
                            rnd(2) ? "matrix" : "MATRIX", rnd(2) ? "coordinate" : "Coordinate", fields[field],
                            sym ? (rnd(2) ? "symmetric" : "Symmetric") : "general");
    if (rnd(2)) len += (size_t)snprintf(out + len, cap - len, "%% a comment\n%%\n");
    len += (size_t)snprintf(out + len, cap - len, "%d %d %d%s\n", n, m, ents, rnd(4) ? "" : "  \r");
    for (k = 0; k < ents && len + 128 < cap; k++) {
        int i = rnd(n), j = rnd(m);
        double v = 1.0;
        if (sym && j > i) {
            int t = i;
            i = j;
            j = t;
        }
        if (field == 0) {
            v = (double)(rnd(2001) - 1000) / 8.0;
            len += (size_t)snprintf(out + len, cap - len, "%d\t%d  %.17g\n", i + 1, j + 1, v);
        } else if (field == 1) {
            v = (double)(rnd(201) - 100);
            len += (size_t)snprintf(out + len, cap - len, " %d %d %+d\n", i + 1, j + 1, (int)v);
        } else len += (size_t)snprintf(out + len, cap - len, "%d %d\n", i + 1, j + 1);
        if (rnd(8) == 0) len += (size_t)snprintf(out + len, cap - len, "%% between entries\n\n");
        D[(size_t)i * m + j] += v;
        if (sym && i != j) D[(size_t)j * m + i] += v;
    }
    (void)nnz_struct;
    return len;
}

static void test_basic(void)
{
    static char text[1 << 16];
    static double D[64 * 64], G[64 * 64];
    perks_csr A;
    perks_mtx_error e;
    int rc, trial, f, s;
    char why[128];

    case_begin("mtx reads a small general real file exactly");
    {
        const char *t = "%%MatrixMarket matrix coordinate real general\n% comment\n3 4 5\n1 1 1.5\n3 4 -2e3\n"
                        "2 2 0.25\n1 3 7\n3 1 1e-300\n";
        rc = read_str(t, strlen(t), 0, &A, &e);
        CHECK(rc == 0, "rc %d line %ld %s", rc, e.line, e.message);
        if (rc == 0) {
            CHECK(A.n_rows == 3 && A.n_cols == 4 && A.nnz == 5 && !A.symmetric, "sizes %d %d %lld", A.n_rows,
                  A.n_cols, A.nnz);
            CHECK(A.row_ptr[1] == 2 && A.row_ptr[2] == 3 && A.row_ptr[3] == 5, "row_ptr");
            CHECK(A.col[0] == 0 && A.col[1] == 2 && A.val[1] == 7 && A.col[3] == 0 && A.val[3] == 1e-300 &&
                      A.col[4] == 3 && A.val[4] == -2e3,
                  "entries sorted by column");
        }
        perks_csr_free(&A);
    }
    case_end();

    case_begin("mtx symmetric: mirrored, duplicates summed, CRLF, blank lines, pattern and integer");
    {
        const char *t = "%%MatrixMarket matrix coordinate integer symmetric\r\n\r\n3 3 5\r\n1 1 4\r\n2 1 -1\r\n"
                        "3 3 2\r\n2 1 -3\r\n\r\n3 2 7\r\n";
        rc = read_str(t, strlen(t), 0, &A, &e);
        CHECK(rc == 0, "rc %d line %ld %s", rc, e.line, e.message);
        if (rc == 0) {
            csr_dense(&A, G);
            CHECK(A.nnz == 6 && A.symmetric && A.dups == 2, "nnz %lld dups %lld", A.nnz, A.dups);
            CHECK(G[0] == 4 && G[1] == -4 && G[3] == -4 && G[5] == 7 && G[7] == 7 && G[8] == 2 && G[4] == 0,
                  "values");
        }
        perks_csr_free(&A);
        t = "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n2 1\n1 2\n";
        rc = read_str(t, strlen(t), 0, &A, &e);
        CHECK(rc == 0 && A.nnz == 2 && A.val[0] == 1 && A.val[1] == 1 && A.col[0] == 1, "pattern rc %d", rc);
        perks_csr_free(&A);
        t = "%%MatrixMarket matrix coordinate real general\n1 1 0\n";
        rc = read_str(t, strlen(t), 0, &A, &e);
        CHECK(rc == 0 && A.nnz == 0 && A.n_rows == 1 && A.row_ptr[1] == 0, "empty 1x1: rc %d", rc);
        perks_csr_free(&A);
    }
    case_end();

    case_begin("mtx random valid files equal the dense oracle (all fields, general and symmetric)");
    for (trial = 0; trial < 3000; trial++) {
        int n, m;
        size_t len;
        f = trial % 3;
        s = (trial / 3) % 2;
        len = gen_valid(text, sizeof text, &n, &m, f, s, D, 40, NULL);
        rc = read_str(text, len, 0, &A, &e);
        CHECK(rc == 0, "trial %d rc %d line %ld %s", trial, rc, e.line, e.message);
        if (rc) break;
        CHECK(csr_ok(&A, why, sizeof why), "trial %d: %s", trial, why);
        CHECK(A.n_rows == n && A.n_cols == m, "trial %d sizes", trial);
        csr_dense(&A, G);
        {
            int q, bad = 0;
            for (q = 0; q < n * m; q++)
                if (G[q] != D[q]) bad++;
            CHECK(bad == 0, "trial %d: %d cells differ from the oracle", trial, bad);
        }
        perks_csr_free(&A);
        if (check__failed_case) break;
    }
    case_end();

    case_begin("mtx NULL arguments");
    CHECK(perks_mtx_read(NULL, &A, &e) == PERKS_ENULL && e.line == 0, "NULL file");
    CHECK(perks_mtx_read(stdin, NULL, &e) == PERKS_ENULL, "NULL matrix");
    CHECK(perks_mtx_read(stdin, &A, NULL) == PERKS_ENULL, "NULL error");
    CHECK(perks_mtx_read_path(NULL, &A, &e) == PERKS_ENULL, "NULL path");
    CHECK(perks_mtx_read_path("/nonexistent/dir/x.mtx", &A, &e) == PERKS_EIO && e.line == 0 && A.row_ptr == NULL,
          "missing file");
    perks_csr_free(NULL);
    case_end();
}

typedef struct bad_case {
    const char *text;
    int rc;
    long line;
    const char *why; /* a substring of the message */
} bad_case;

static void test_errors(void)
{
    static const bad_case cases[] = {
        {"", PERKS_EFORMAT, 1, "empty"},
        {"hello\n", PERKS_EFORMAT, 1, "MatrixMarket"},
        {"%%MatrixMarket vector coordinate real general\n", PERKS_EFORMAT, 1, "object"},
        {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", PERKS_EFORMAT, 1, "array"},
        {"%%MatrixMarket matrix coord real general\n", PERKS_EFORMAT, 1, "format"},
        {"%%MatrixMarket matrix coordinate complex general\n", PERKS_EFORMAT, 1, "complex"},
        {"%%MatrixMarket matrix coordinate float general\n", PERKS_EFORMAT, 1, "field"},
        {"%%MatrixMarket matrix coordinate real hermitian\n", PERKS_EFORMAT, 1, "unsupported symmetry"},
        {"%%MatrixMarket matrix coordinate real skew-symmetric\n", PERKS_EFORMAT, 1, "unsupported symmetry"},
        {"%%MatrixMarket matrix coordinate real upper\n", PERKS_EFORMAT, 1, "symmetry"},
        {"%%MatrixMarket matrix coordinate real general extra\n", PERKS_EFORMAT, 1, "trailing"},
        {"%%MatrixMarket matrix coordinate real general\n% only comments\n", PERKS_EFORMAT, 3, "ends before"},
        {"%%MatrixMarket matrix coordinate real general\n2 x 1\n", PERKS_EFORMAT, 2, "cols"},
        {"%%MatrixMarket matrix coordinate real general\n2 2\n", PERKS_EFORMAT, 2, "entries is not"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1 9\n", PERKS_EFORMAT, 2, "trailing"},
        {"%%MatrixMarket matrix coordinate real general\n0 2 0\n", PERKS_EFORMAT, 2, ">= 1"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 -1\n", PERKS_EFORMAT, 2, ">= 0"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 5\n", PERKS_EFORMAT, 2, "more entries than"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n", PERKS_EFORMAT, 2, "more entries than"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", PERKS_EFORMAT, 2, "square"},
        {"%%MatrixMarket matrix coordinate real general\n3000000000 2 1\n", PERKS_ESIZE, 2, "32-bit"},
        {"%%MatrixMarket matrix coordinate real general\n99999999999999999999 2 1\n", PERKS_EFORMAT, 2, "rows"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n", PERKS_EFORMAT, 3, "1 of 2"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n", PERKS_EFORMAT, 4, "more entry lines"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", PERKS_EFORMAT, 3, "out of range"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n", PERKS_EFORMAT, 3, "out of range"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n-1 1 1\n", PERKS_EFORMAT, 3, "out of range"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1.5 1 1\n", PERKS_EFORMAT, 3, "row index"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1\n", PERKS_EFORMAT, 3, "column index"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", PERKS_EFORMAT, 3, "value missing"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n", PERKS_EFORMAT, 3, "not a number"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n", PERKS_EFORMAT, 3, "not finite"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 -inf\n", PERKS_EFORMAT, 3, "not finite"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1e999\n", PERKS_EFORMAT, 3, "not finite"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 0x10\n", PERKS_EFORMAT, 3, "not a number"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 2\n", PERKS_EFORMAT, 3, "trailing"},
        {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", PERKS_EFORMAT, 3, "integer"},
        {"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", PERKS_EFORMAT, 3, "trailing"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", PERKS_EFORMAT, 3, "above the diagonal"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\0\n", PERKS_EFORMAT, 3, "NUL"},
    };
    static char longline[4096];
    size_t c;
    perks_csr A;
    perks_mtx_error e;
    case_begin("mtx rejects each malformed input with its line and reason");
    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t len = strlen(cases[c].text);
        int rc;
        if (strstr(cases[c].why, "NUL")) len += 2; /* the NUL byte and the newline after it */
        rc = read_str(cases[c].text, len, 0, &A, &e);
        CHECK(rc == cases[c].rc && e.line == cases[c].line && strstr(e.message, cases[c].why),
              "case %d: rc %d (want %d) line %ld (want %ld) '%s' (want '%s')", (int)c, rc, cases[c].rc, e.line,
              cases[c].line, e.message, cases[c].why);
        CHECK(A.row_ptr == NULL && A.nnz == 0, "case %d: matrix not left empty", (int)c);
    }
    memset(longline, ' ', sizeof longline);
    memcpy(longline, "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1", 56);
    longline[sizeof longline - 1] = '\n';
    {
        int rc = read_str(longline, sizeof longline, 0, &A, &e);
        CHECK(rc == PERKS_EFORMAT && e.line == 3 && strstr(e.message, "too long"), "long line: rc %d line %ld %s", rc,
              e.line, e.message);
        rc = read_str(longline, 52, 1, &A, &e);
        CHECK(rc == PERKS_ESIZE && e.line == 2 && strstr(e.message, "limit"), "limit: rc %d line %ld %s", rc, e.line,
              e.message);
    }
    case_end();
}

/* a temporary file holding text; its path in path (PATH_MAX-free: a fixed template); 0 on success */
static int write_tmp(char *path, size_t cap, const char *text, size_t len)
{
    const char *dir = getenv("TMPDIR");
    FILE *f;
    int fd;
    snprintf(path, cap, "%s/test_mtx.XXXXXX", dir && *dir ? dir : "/tmp");
    if ((fd = mkstemp(path)) < 0) return -1;
    if (!(f = fdopen(fd, "wb"))) {
        close(fd);
        remove(path);
        return -1;
    }
    if ((len && fwrite(text, 1, len, f) != len) | (fclose(f) != 0)) {
        remove(path);
        return -1;
    }
    return 0;
}

/* the address space limited to what the process maps now plus extra bytes (Linux, from
 * /proc/self/statm), so that a reader allocating what a header claims fails at once with
 * PERKS_ENOMEM instead of touching gigabytes; 1 when the limit is set (restore with *old) */
static int limit_memory(size_t extra, struct rlimit *old)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    long page = sysconf(_SC_PAGESIZE);
    struct rlimit lim;
    int got = f && fscanf(f, "%llu", &pages) == 1;
    if (f) fclose(f);
    if (!got || page <= 0 || getrlimit(RLIMIT_AS, old) != 0) return 0;
    lim = *old;
    lim.rlim_cur = (rlim_t)(pages * (unsigned long long)page + extra);
    if (old->rlim_cur != RLIM_INFINITY && lim.rlim_cur > old->rlim_cur) lim.rlim_cur = old->rlim_cur;
    return setrlimit(RLIMIT_AS, &lim) == 0;
}

static double cpu_s(clock_t t0) { return (double)(clock() - t0) / CLOCKS_PER_SEC; }

/* the banner of a general real file */
#define MTX_GENERAL "%%MatrixMarket matrix coordinate real general\n"

static void test_hostile(void)
{
    perks_csr A;
    perks_mtx_error e;
    char path[512];
    int rc;

    case_begin("mtx allocates by what the file holds: 2^31 - 2 or 2^28 rows with 0 entries are PERKS_ESIZE at once "
               "(perks_mtx_read and perks_mtx_read_path); perks_mtx_read_path_limited takes a caller's bound");
    {
        static const char *const heads[] = {MTX_GENERAL "2147483646 1 0\n", MTX_GENERAL "268435456 1 0\n",
                                            MTX_GENERAL "1048577 1 0\n", MTX_GENERAL "1048577 3 65536\n"};
        struct rlimit old;
        int limited = limit_memory((size_t)256 << 20, &old), h;
        clock_t t0 = clock();
        CHECK(strlen(heads[0]) == 61, "the 61-byte file is %d bytes", (int)strlen(heads[0]));
        for (h = 0; h < 4; h++) {
            rc = read_str(heads[h], strlen(heads[h]), 0, &A, &e);
            CHECK(rc == PERKS_ESIZE && e.line == 2 && strstr(e.message, "rows") && A.row_ptr == NULL,
                  "header %d, perks_mtx_read: rc %d line %ld '%s'", h, rc, e.line, e.message);
            perks_csr_free(&A);
            if (write_tmp(path, sizeof path, heads[h], strlen(heads[h])) == 0) {
                rc = perks_mtx_read_path(path, &A, &e);
                CHECK(rc == PERKS_ESIZE && e.line == 2 && strstr(e.message, "rows") && A.row_ptr == NULL,
                      "header %d, perks_mtx_read_path: rc %d line %ld '%s'", h, rc, e.line, e.message);
                perks_csr_free(&A);
                remove(path);
            } else CHECK(0, "cannot write a temporary file under TMPDIR or /tmp");
        }
        CHECK(cpu_s(t0) < 0.5, "the refusals took %.2f s of CPU", cpu_s(t0));
        if (limited) setrlimit(RLIMIT_AS, &old);
        /* the caller's bound replaces the default: 2^20 + 1 rows, no entries (8 MB of row pointers) */
        if (write_tmp(path, sizeof path, heads[2], strlen(heads[2])) == 0) {
            rc = perks_mtx_read_path_limited(path, 1 << 21, &A, &e);
            CHECK(rc == 0 && A.n_rows == 1048577 && A.nnz == 0 && A.row_ptr && A.row_ptr[1048577] == 0,
                  "perks_mtx_read_path_limited(2^21): rc %d line %ld '%s'", rc, e.line, e.message);
            perks_csr_free(&A);
            rc = perks_mtx_read_path_limited(path, 1048576, &A, &e);
            CHECK(rc == PERKS_ESIZE && e.line == 2 && strstr(e.message, "limit"),
                  "perks_mtx_read_path_limited(2^20): rc %d line %ld '%s'", rc, e.line, e.message);
            perks_csr_free(&A);
            remove(path);
        }
        CHECK(perks_mtx_read_path_limited(NULL, 1, &A, &e) == PERKS_ENULL, "NULL path");
        /* rows up to PERKS_MTX_ROWS_PER_ENTRY per entry: 2^20 + 16 rows with 65537 entries pass */
        {
            size_t cap = 128 + 4 * (size_t)65537, len, k;
            char *t = (char *)malloc(cap);
            CHECK(t != NULL, "malloc");
            if (t) {
                len = (size_t)snprintf(t, cap, "%%%%MatrixMarket matrix coordinate pattern general\n1048592 1 65537\n");
                for (k = 0; k < 65537; k++) memcpy(t + len, "1 1\n", 4), len += 4;
                rc = read_str(t, len, 0, &A, &e);
                CHECK(rc == 0 && A.n_rows == 1048592 && A.nnz == 1 && A.val[0] == 65537 && A.dups == 65536,
                      "2^20 + 16 rows, 65537 entries: rc %d line %ld '%s'", rc, e.line, e.message);
                perks_csr_free(&A);
                free(t);
            }
        }
    }
    case_end();

    case_begin("mtx duplicates whose sum is not finite are PERKS_EFORMAT at the line where the sum overflows");
    {
        static const bad_case cases[] = {
            {MTX_GENERAL "2 2 3\n1 1 1e308\n2 2 1\n1 1 1e308\n", PERKS_EFORMAT, 5, "not finite"},
            {MTX_GENERAL "2 2 4\n2 1 -1e308\n% c\n2 1 -1e308\n2 1 1e308\n1 1 1\n", PERKS_EFORMAT, 5, "not finite"},
            {MTX_GENERAL "2 2 3\n2 2 1\n2 2 1.7976931348623157e308\n2 2 1.7976931348623157e308\n", PERKS_EFORMAT, 5,
             "duplicate"},
            {"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n3 1 9e307\n2 2 1\n3 1 9e307\n", PERKS_EFORMAT,
             5, "not finite"},
        };
        size_t c;
        for (c = 0; c < sizeof cases / sizeof *cases; c++) {
            rc = read_str(cases[c].text, strlen(cases[c].text), 0, &A, &e);
            CHECK(rc == cases[c].rc && e.line == cases[c].line && strstr(e.message, cases[c].why) &&
                      A.row_ptr == NULL,
                  "case %d: rc %d (want %d) line %ld (want %ld) '%s' (want '%s')", (int)c, rc, cases[c].rc, e.line,
                  cases[c].line, e.message, cases[c].why);
            perks_csr_free(&A);
        }
        /* a finite sum through large values stays accepted */
        {
            const char *t = MTX_GENERAL "2 2 3\n1 1 1e308\n1 1 -1e308\n1 1 1e308\n";
            rc = read_str(t, strlen(t), 0, &A, &e);
            CHECK(rc == 0 && A.nnz == 1 && A.val[0] == 1e308 && A.dups == 2, "1e308 - 1e308 + 1e308: rc %d '%s'", rc,
                  e.message);
            perks_csr_free(&A);
        }
    }
    case_end();

    case_begin("mtx symmetric files with rows of over 32 entries and tied duplicates mirror bit for bit, summed "
               "in file order");
    {
        /* row 40 holds (40, 1) three times (1, 1e16, -1e16: 0 in file order, 1 in reverse) and (40, 2..40),
         * 42 entries; row 1 holds (1, 1) and the three mirrored (1, 40) */
        static char t[4096];
        size_t len = (size_t)snprintf(t, sizeof t, "%%%%MatrixMarket matrix coordinate real symmetric\n40 40 43\n"
                                                   "40 1 1\n1 1 4\n40 1 1e16\n");
        int j;
        for (j = 2; j <= 40; j++) len += (size_t)snprintf(t + len, sizeof t - len, "40 %d %d\n", j, j == 40 ? 100 : 1);
        len += (size_t)snprintf(t + len, sizeof t - len, "40 1 -1e16\n");
        rc = read_str(t, len, 0, &A, &e);
        CHECK(rc == 0, "rc %d line %ld '%s'", rc, e.line, e.message);
        if (rc == 0) {
            const double *lo = mtx_inv_at(&A, 39, 0), *up = mtx_inv_at(&A, 0, 39);
            char why[200];
            CHECK(A.row_ptr[40] - A.row_ptr[39] == 40 && A.dups == 4, "row 40 has %d entries, %lld dups",
                  A.row_ptr[40] - A.row_ptr[39], A.dups);
            CHECK(lo && up && memcmp(lo, up, sizeof *lo) == 0, "a(40,1) = %.17g, a(1,40) = %.17g", lo ? *lo : -1.0,
                  up ? *up : -1.0);
            CHECK(lo && *lo == 0.0, "a(40,1) = %.17g, not (1 + 1e16) - 1e16 = 0 (file order)", lo ? *lo : -1.0);
            CHECK(mtx_outcome_ok(t, len, 0, rc, &A, &e, why, sizeof why), "%s", why);
        }
        perks_csr_free(&A);
    }
    case_end();

    case_begin("mtx line length: a CR before the LF does not count (1024 characters + CRLF pass, 1025 do not)");
    {
        static char t[4096];
        int extra, crlf;
        for (crlf = 0; crlf < 2; crlf++)
            for (extra = 0; extra < 2; extra++) {
                const char *nl = crlf ? "\r\n" : "\n";
                size_t len = (size_t)snprintf(t, sizeof t, "%%%%MatrixMarket matrix coordinate real general%s1 1 1%s",
                                              nl, nl);
                memset(t + len, ' ', (size_t)(PERKS_MTX_LINE_MAX + extra));
                memcpy(t + len, "1 1 2.5", 7);
                len += (size_t)(PERKS_MTX_LINE_MAX + extra);
                memcpy(t + len, nl, strlen(nl));
                len += strlen(nl);
                rc = read_str(t, len, 0, &A, &e);
                if (extra == 0)
                    CHECK(rc == 0 && A.val[0] == 2.5, "%d characters + %s: rc %d line %ld '%s'", PERKS_MTX_LINE_MAX,
                          crlf ? "CRLF" : "LF", rc, e.line, e.message);
                else
                    CHECK(rc == PERKS_EFORMAT && e.line == 3 && strstr(e.message, "too long"),
                          "%d characters + %s: rc %d line %ld '%s'", PERKS_MTX_LINE_MAX + 1, crlf ? "CRLF" : "LF", rc,
                          e.line, e.message);
                perks_csr_free(&A);
            }
    }
    case_end();

    case_begin("mtx read errors are PERKS_EIO: a directory as the path, a stream open for writing only");
    {
        FILE *f;
        rc = perks_mtx_read_path(".", &A, &e);
        CHECK(rc == PERKS_EIO && e.line == 1 && strstr(e.message, "read") && A.row_ptr == NULL,
              "a directory: rc %d line %ld '%s'", rc, e.line, e.message);
        if (write_tmp(path, sizeof path, "", 0) == 0 && (f = fopen(path, "wb")) != NULL) {
            rc = perks_mtx_read(f, &A, &e);
            CHECK(rc == PERKS_EIO && e.line == 1 && strstr(e.message, "read") && A.row_ptr == NULL,
                  "a write-only stream: rc %d line %ld '%s'", rc, e.line, e.message);
            fclose(f);
            remove(path);
        } else CHECK(0, "cannot write a temporary file under TMPDIR or /tmp");
    }
    case_end();
}

/* the real matrices: read, square, symmetric as stored, nnz as the header implies */
static void test_files(void)
{
    static const char *names[] = {"bcsstk01", "bcsstk05", "494_bus", "1138_bus", "Trefethen_2000", "bcsstk13",
                                  "crystm01", "bcsstk38"};
    const char *dirs[] = {"../shared/data/mtx", ".data/mtx"};
    const char *dir = NULL;
    char path[512], why[128];
    size_t d, k, nread = 0;
    for (d = 0; d < 2 && !dir; d++) {
        FILE *f;
        snprintf(path, sizeof path, "%s/bcsstk01.mtx", dirs[d]);
        if ((f = fopen(path, "r")) != NULL) {
            fclose(f);
            dir = dirs[d];
        }
    }
    if (!dir) {
        check_skip("mtx reads the SuiteSparse files", "../shared/data/mtx and .data/mtx not found");
        return;
    }
    case_begin("mtx reads the SuiteSparse files (square, symmetric, valid CSR)");
    for (k = 0; k < sizeof names / sizeof *names; k++) {
        perks_csr A;
        perks_mtx_error e;
        int rc, i;
        long long q, asym = 0;
        snprintf(path, sizeof path, "%s/%s.mtx", dir, names[k]);
        rc = perks_mtx_read_path(path, &A, &e);
        if (rc == PERKS_EFORMAT && e.line == 0) continue; /* not in this copy */
        CHECK(rc == 0, "%s: rc %d line %ld %s", names[k], rc, e.line, e.message);
        if (rc) continue;
        CHECK(csr_ok(&A, why, sizeof why), "%s: %s", names[k], why);
        CHECK(A.n_rows == A.n_cols && A.symmetric, "%s: not square symmetric", names[k]);
        for (i = 0; i < A.n_rows; i++) /* every (i, j) has its (j, i) with the same value */
            for (q = A.row_ptr[i]; q < A.row_ptr[i + 1]; q++) {
                int j = A.col[q], lo = A.row_ptr[j], hi = A.row_ptr[j + 1] - 1, found = 0;
                while (lo <= hi) {
                    int mid = (lo + hi) / 2;
                    if (A.col[mid] == i) {
                        found = A.val[mid] == A.val[q];
                        break;
                    }
                    if (A.col[mid] < i) lo = mid + 1;
                    else hi = mid - 1;
                }
                asym += !found;
            }
        CHECK(asym == 0, "%s: %lld entries without their mirror", names[k], asym);
        rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &q);
        CHECK(rc == 0, "%s: perks_csr_check %s at row %lld", names[k], perks_strerror(rc), q);
        printf("  %s: %d rows, %lld nonzeros, %lld duplicates\n", names[k], A.n_rows, A.nnz, A.dups);
        perks_csr_free(&A);
        nread++;
    }
    /* bcsstk01 was found above: at least that file must have been read and checked */
    printf("  %zu of %zu files read and checked\n", nread, sizeof names / sizeof *names);
    CHECK(nread >= 1, "%zu of %zu files read and checked", nread, sizeof names / sizeof *names);
    case_end();
}

/* mutate a valid file: flips, inserts from a hostile alphabet, deletions, truncation, splices */
static size_t mutate(char *t, size_t len, size_t cap)
{
    static const char alpha[] = "0123456789 \t\n\r%-+.eEinfaNx\0";
    int m = 1 + rnd(4), k;
    for (k = 0; k < m; k++) {
        int op = rnd(6);
        size_t pos = len ? (size_t)rnd((int)len) : 0;
        if (op == 0 && len) t[pos] = (char)rng();
        else if (op == 1 && len + 1 < cap) {
            memmove(t + pos + 1, t + pos, len - pos);
            t[pos] = alpha[rnd((int)sizeof alpha - 1)];
            len++;
        } else if (op == 2 && len) {
            memmove(t + pos, t + pos + 1, len - pos - 1);
            len--;
        } else if (op == 3) len = pos;
        else if (op == 4 && len + 24 < cap) { /* a big number */
            static const char *big[] = {"99999999999", "2147483647", "2147483648", "-0", "1e308", "1e-400", "+",
                                        "4294967296", "000000000000000000001"};
            const char *b = big[rnd((int)(sizeof big / sizeof *big))];
            size_t bl = strlen(b);
            memmove(t + pos + bl, t + pos, len - pos);
            memcpy(t + pos, b, bl);
            len += bl;
        } else if (op == 5 && len && len * 2 < cap) { /* repeat a chunk */
            static char chunk[1 << 16];
            size_t a = (size_t)rnd((int)len), l = (size_t)rnd((int)(len - a) + 1);
            memcpy(chunk, t + a, l);
            memmove(t + pos + l, t + pos, len - pos);
            memcpy(t + pos, chunk, l);
            len += l;
        }
    }
    return len;
}

/* a symmetric real file of 33..64 rows whose few columns collect many tied duplicates with values
 * whose sum depends on the order (1e16, -1e16, 1, 0.1, ...): rows of over 32 entries are sorted by
 * qsort, their mirrors often by insertion; the two must agree bit for bit */
static size_t gen_ties(char *out, size_t cap)
{
    static const char *vals[] = {"1e16", "-1e16", "1", "0.1", "-0.3", "3.3e-5", "1e-300", "-2.5e15", "7"};
    int n = 33 + rnd(32), ents = 40 + rnd(200), k, hot = 1 + rnd(3);
    size_t len = (size_t)snprintf(out, cap, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", n, n, ents);
    for (k = 0; k < ents && len + 64 < cap; k++) {
        int i = rnd(n), j = rnd(4) ? rnd(hot) : rnd(n);
        if (rnd(3) == 0) i = n - 1 - rnd(2); /* the last rows long */
        if (j > i) {
            int t = i;
            i = j;
            j = t;
        }
        len += (size_t)snprintf(out + len, cap - len, "%d %d %s\n", i + 1, j + 1, vals[rnd((int)(sizeof vals / sizeof *vals))]);
    }
    return len;
}

static void fuzz(long iters, uint64_t seed, const char *name)
{
    static char text[1 << 16];
    static double D[24 * 24];
    long it, ok = 0, bad = 0;
    char why[200];
    rng_state = seed ? seed : 1;
    case_begin(name);
    for (it = 0; it < iters; it++) {
        perks_csr A;
        perks_mtx_error e;
        int n, m, rc;
        long long limit = rnd(2) ? 1 << 20 : 0;
        size_t len = rnd(8) == 0 ? gen_ties(text, sizeof text / 2)
                                 : gen_valid(text, sizeof text / 2, &n, &m, rnd(3), rnd(2), D, 20, NULL);
        if (rnd(4)) len = mutate(text, len, sizeof text);
        if (rnd(50) == 0) { /* pure noise */
            size_t k;
            len = (size_t)rnd(200);
            for (k = 0; k < len; k++) text[k] = (char)rng();
        }
        memset(&e, 0x55, sizeof e);
        rc = read_str(text, len, limit, &A, &e);
        CHECK(rc != -100 && rc != -101, "iteration %ld: cannot write a temporary file", it);
        CHECK(mtx_outcome_ok(text, len, limit, rc, &A, &e, why, sizeof why), "iteration %ld (seed %llu): rc %d: %s",
              it, (unsigned long long)seed, rc, why);
        CHECK(rc == 0 || rc == PERKS_EFORMAT || rc == PERKS_ESIZE, "iteration %ld: rc %d", it, rc);
        if (rc == 0) ok++;
        else bad++;
        perks_csr_free(&A);
        if (check__failed_case) break;
    }
    printf("  fuzz: %ld inputs, %ld accepted, %ld rejected\n", it, ok, bad);
    CHECK(it > 0 && ok + bad == it, "%ld inputs tried (%ld accepted, %ld rejected)", it, ok, bad);
    case_end();
}

/* perks_csr_check: each code on a matrix built to have exactly that defect (and the row named) */
static void test_check(void)
{
    /* 3 x 3 SPD: [4 -1 0; -1 4 -1; 0 -1 4] */
    int rp[4] = {0, 2, 5, 7}, ci[7] = {0, 1, 0, 1, 2, 1, 2};
    double va[7] = {4, -1, -1, 4, -1, -1, 4};
    perks_csr A;
    long long row = 99;
    int rc;
    memset(&A, 0, sizeof A);
    A.n_rows = A.n_cols = 3, A.nnz = 7, A.row_ptr = rp, A.col = ci, A.val = va;
    case_begin("perks_csr_check: each defect gives its own code and row");
    rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &row);
    CHECK(rc == 0 && row == -1, "valid SPD matrix: rc %d row %lld", rc, row);
    CHECK(perks_csr_check(NULL, 0, &row) == PERKS_ENULL, "NULL");
    A.n_cols = 4;
    CHECK(perks_csr_check(&A, 0, &row) == PERKS_ENOTSQUARE, "3 x 4 not refused");
    A.n_cols = 3;
    va[6] = -4; /* a negative diagonal in row 2: fine without the flag, EDIAG with it */
    CHECK(perks_csr_check(&A, PERKS_CSR_SYMMETRIC, &row) == 0, "negative diagonal without PERKS_CSR_SPD_DIAG");
    rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG, &row);
    CHECK(rc == PERKS_EDIAG && row == 2, "negative diagonal: rc %d row %lld", rc, row);
    va[6] = 0;
    rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG, &row);
    CHECK(rc == PERKS_EDIAG && row == 2, "zero diagonal: rc %d row %lld", rc, row);
    va[6] = 4;
    ci[3] = 2, ci[4] = 1, va[3] = -1, va[4] = 4; /* row 1 unsorted (still valid); symmetric */
    rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &row);
    CHECK(rc == 0, "unsorted row: rc %d row %lld", rc, row);
    ci[3] = 1, ci[4] = 2, va[3] = 4, va[4] = -1;
    va[2] = -2; /* a_10 != a_01 */
    rc = perks_csr_check(&A, PERKS_CSR_SYMMETRIC, &row);
    CHECK(rc == PERKS_ENOTSYM && row == 0, "asymmetric: rc %d row %lld", rc, row);
    va[2] = -1;
    va[4] = NAN;
    rc = perks_csr_check(&A, 0, &row);
    CHECK(rc == PERKS_EFORMAT && row == 1, "NaN value: rc %d row %lld", rc, row);
    va[4] = -1;
    ci[1] = 3;
    CHECK(perks_csr_check(&A, 0, &row) == PERKS_EFORMAT && row == 0, "column out of range");
    ci[1] = 1;
    { /* a row without entries: [4 0 0; 0 . 0; 0 0 4], stored 0 | - | 2 */
        int rp2[4] = {0, 1, 1, 2}, ci2[2] = {0, 2};
        double va2[2] = {4, 4};
        perks_csr E = A;
        E.nnz = 2, E.row_ptr = rp2, E.col = ci2, E.val = va2;
        rc = perks_csr_check(&E, 0, &row);
        CHECK(rc == PERKS_EEMPTYROW && row == 1, "empty row: rc %d row %lld", rc, row);
        rp2[3] = 1; /* row_ptr[n] != nnz */
        CHECK(perks_csr_check(&E, 0, &row) == PERKS_EFORMAT, "row_ptr[n] != nnz");
    }
    { /* a missing diagonal (row 1 stores only its off-diagonals) */
        int rp3[4] = {0, 2, 4, 6}, ci3[6] = {0, 1, 0, 2, 1, 2};
        double va3[6] = {4, -1, -1, -1, -1, 4};
        perks_csr M = A;
        M.nnz = 6, M.row_ptr = rp3, M.col = ci3, M.val = va3;
        rc = perks_csr_check(&M, PERKS_CSR_SPD_DIAG, &row);
        CHECK(rc == PERKS_EDIAG && row == 1, "missing diagonal: rc %d row %lld", rc, row);
        CHECK(perks_csr_check(&M, PERKS_CSR_SYMMETRIC, &row) == 0, "missing diagonal, symmetric");
    }
    case_end();
}

/* perks_csr_check on row pointers that rise past nnz and fall back (the ends right), and on arrow
 * matrices (full first row and column + diagonal): n = 200000 with sorted and with unsorted rows */
static void test_check_hostile(void)
{
    perks_csr A;
    long long row = 99;
    int rc;
    case_begin("perks_csr_check: row_ptr {0, 3, 1} with nnz 1 is PERKS_EFORMAT at row 1, col and val past nnz unread");
    {
        /* col and val hold poison past nnz (a column out of range, NaN): a check that reads them
         * reports row 0 */
        int rp[3] = {0, 3, 1}, ci[3] = {0, -5, -5};
        double va[3] = {1, NAN, NAN};
        int rp2[4] = {0, 2147483647, 0, 1}, rp3[4] = {0, 2, -1, 1};
        memset(&A, 0, sizeof A);
        A.n_rows = A.n_cols = 2, A.nnz = 1, A.row_ptr = rp, A.col = ci, A.val = va;
        rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &row);
        CHECK(rc == PERKS_EFORMAT && row == 1, "{0, 3, 1}: rc %d row %lld", rc, row);
        A.n_rows = A.n_cols = 3, A.row_ptr = rp2;
        rc = perks_csr_check(&A, 0, &row);
        CHECK(rc == PERKS_EFORMAT && row == 1, "{0, INT_MAX, 0, 1}: rc %d row %lld", rc, row);
        A.row_ptr = rp3;
        rc = perks_csr_check(&A, 0, &row);
        CHECK(rc == PERKS_EFORMAT && row == 1, "{0, 2, -1, 1}: rc %d row %lld", rc, row);
    }
    case_end();

    case_begin("perks_csr_check SYMMETRIC | SPD_DIAG on arrow matrices, n = 200000 (sorted rows, reversed rows, "
               "duplicates): well under a second");
    {
        const int n = 200000;
        long long nnz = 3LL * n - 2, k = 0;
        int *rp = (int *)malloc(sizeof(int) * (size_t)(n + 1)), *ci = (int *)malloc(sizeof(int) * (size_t)nnz), i,
            pass;
        double *va = (double *)malloc(sizeof(double) * (size_t)nnz);
        CHECK(rp && ci && va, "malloc");
        for (pass = 0; pass < 2 && rp && ci && va; pass++) { /* pass 1: every row in decreasing column order */
            clock_t t0;
            double s;
            k = 0;
            rp[0] = 0;
            for (i = 0; i < n; i++) {
                int j;
                if (i == 0)
                    for (j = 0; j < n; j++) ci[k] = pass ? n - 1 - j : j, va[k] = ci[k] == 0 ? (double)n : 1.0, k++;
                else if (pass) ci[k] = i, va[k++] = 2.0, ci[k] = 0, va[k++] = 1.0;
                else ci[k] = 0, va[k++] = 1.0, ci[k] = i, va[k++] = 2.0;
                rp[i + 1] = (int)k;
            }
            memset(&A, 0, sizeof A);
            A.n_rows = A.n_cols = n, A.nnz = nnz, A.row_ptr = rp, A.col = ci, A.val = va;
            t0 = clock();
            rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &row);
            CHECK(rc == 0 && row == -1, "%s arrow: rc %d row %lld", pass ? "reversed" : "sorted", rc, row);
            va[pass ? nnz - 1 : nnz - 2] = 0.5; /* a(n-1, 0) != a(0, n-1): found from row 0 */
            rc = perks_csr_check(&A, PERKS_CSR_SYMMETRIC, &row);
            CHECK(rc == PERKS_ENOTSYM && row == 0, "%s arrow, a(n-1,0) changed: rc %d row %lld",
                  pass ? "reversed" : "sorted", rc, row);
            s = cpu_s(t0);
            printf("  %s arrow, n = %d: two checks in %.3f s of CPU\n", pass ? "reversed" : "sorted", n, s);
            CHECK(s < 1.0, "%s arrow: two checks took %.2f s of CPU", pass ? "reversed" : "sorted", s);
        }
        free(rp);
        free(ci);
        free(va);
    }
    { /* an unsorted row with a duplicate column: every stored entry is compared with the first mirror in
       * storage order */
        int rp[3] = {0, 2, 5}, ci[5] = {0, 1, 0, 1, 0};
        double va[5] = {4, -1, -1, 4, -1};
        memset(&A, 0, sizeof A);
        A.n_rows = A.n_cols = 2, A.nnz = 5, A.row_ptr = rp, A.col = ci, A.val = va;
        rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &row);
        CHECK(rc == 0 && row == -1, "a(1,0) stored twice, -1 and -1: rc %d row %lld", rc, row);
        va[4] = -2;
        rc = perks_csr_check(&A, PERKS_CSR_SYMMETRIC, &row);
        CHECK(rc == PERKS_ENOTSYM && row == 1, "a(1,0) = -1, then -2: rc %d row %lld", rc, row);
        va[2] = -2, va[4] = -1;
        rc = perks_csr_check(&A, PERKS_CSR_SYMMETRIC, &row);
        CHECK(rc == PERKS_ENOTSYM && row == 0, "a(1,0) = -2, then -1: rc %d row %lld", rc, row);
    }
    case_end();
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "all";
    int all = strcmp(part, "all") == 0;
    if (strcmp(part, "--list") == 0) {
        printf("basic\nerrors\nhostile\ncheck\nfiles\nfuzz\n");
        return 0;
    }
    if (strcmp(part, "fuzz-long") == 0) {
        long n = argc > 2 ? atol(argv[2]) : 1000000;
        uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : (uint64_t)time(NULL);
        printf("seed %llu\n", (unsigned long long)seed);
        check_seed(seed);
        check_plan(1);
        fuzz(n, seed, "mtx fuzz-long: mutated and random inputs keep the contract of mtx_invariants.h");
        return check_exit();
    }
    if (!all && strcmp(part, "basic") && strcmp(part, "errors") && strcmp(part, "hostile") && strcmp(part, "check") && strcmp(part, "files") &&
        strcmp(part, "fuzz")) { /* a part that names nothing runs nothing: not a pass */
        printf("FAIL test_mtx %s: no such part (--list names them)\n", part);
        return 1;
    }
    /* cases: basic 4, errors 1, hostile 5, check 3, files 1, fuzz 1 */
    check_plan(all                           ? 15
               : strcmp(part, "basic") == 0   ? 4
               : strcmp(part, "hostile") == 0 ? 5
               : strcmp(part, "check") == 0   ? 3
                                              : 1);
    if (all || strcmp(part, "basic") == 0) test_basic();
    if (all || strcmp(part, "errors") == 0) test_errors();
    if (all || strcmp(part, "hostile") == 0) test_hostile();
    if (all || strcmp(part, "check") == 0) test_check(), test_check_hostile();
    if (all || strcmp(part, "files") == 0) test_files();
    if (all || strcmp(part, "fuzz") == 0)
        fuzz(20000, 12345, "mtx fuzz: 20000 mutated and random inputs keep the contract of mtx_invariants.h");
    return check_exit();
}
