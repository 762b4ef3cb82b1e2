#include <onchip/names_push.h>
/* perks/mtx.h -- a Matrix Market (.mtx) reader to CSR, for perks/cg.cuh (C99; also C++ and CUDA).
 *
 * WHAT
 *   Reads the coordinate format of the NIST Matrix Market exchange format (the format of the
 *   SuiteSparse collection) into a compressed-sparse-row matrix with 32-bit indices and double
 *   values.  Malformed input is rejected with PERKS_EFORMAT, the 1-based line number and the
 *   reason; no input crashes it (tests/host/test_mtx.c fuzzes it).  Header-only, static inline.
 *
 * EXAMPLE
 *   perks_csr A;
 *   perks_mtx_error e;
 *   int rc = perks_mtx_read_path("bcsstk01.mtx", &A, &e);
 *   if (rc) { fprintf(stderr, "%s: line %ld: %s\n", perks_strerror(rc), e.line, e.message); return 1; }
 *   ... A.n_rows, A.n_cols, A.nnz, A.row_ptr[n_rows + 1], A.col[nnz], A.val[nnz] ...
 *   perks_csr_free(&A);
 *
 * WHAT IS ACCEPTED
 *   Banner   "%%MatrixMarket matrix coordinate FIELD SYMMETRY" (words case-insensitive), FIELD one
 *            of real, double, integer, pattern; SYMMETRY general or symmetric.  array format,
 *            complex, hermitian and skew-symmetric are rejected (PERKS_EFORMAT, "unsupported").
 *   Comments lines starting with '%' after the banner; blank (whitespace-only) lines are skipped.
 *   Sizes    "rows cols entries": rows, cols >= 1 and < 2^31 - 1, 0 <= entries <= rows x cols
 *            (symmetric: square and entries <= n (n + 1) / 2).
 *   Entries  "i j [value]" with 1-based i, j in range; pattern entries have no value (1.0 is
 *            stored); integer values are integers (|v| < 2^63); real values must be finite.
 *            Symmetric files store the lower triangle (i >= j, as the format says): an entry above
 *            the diagonal is rejected; off-diagonal entries are mirrored.  Trailing text on a line
 *            is rejected.  Exactly `entries` entry lines must follow.
 *   Duplicates (the same (i, j) more than once) are summed, as SciPy and MATLAB do; A.dups counts
 *            the entries merged away.  Explicit zeros are kept.
 *   Lines    at most PERKS_MTX_LINE_MAX (1024) characters, else "line too long".
 * RESULT
 *   CSR with rows sorted by column, row_ptr[n_rows] = nnz.  nnz counts the stored nonzeros after
 *   mirroring and merging (a symmetric file with d diagonal and o off-diagonal entries gives
 *   d + 2 o before merging).  Memory is malloc'ed; perks_csr_free releases it.
 * ERRORS
 *   PERKS_ENULL    a NULL argument; PERKS_EFORMAT malformed input (e->line, e->message);
 *   PERKS_ESIZE    the sizes exceed the caller's limit (perks_mtx_read_limited) or 32-bit indices;
 *   PERKS_ENOMEM   malloc failed.  On any error *A is left empty (all zero, nothing to free).
 *   e->line is 0 when the error belongs to no line (a NULL argument, an allocation, or
 *   perks_mtx_read_path failing to open the file: PERKS_EIO, "cannot open the file").
 * CHECKING A MATRIX BEFORE A SOLVE (any perks_csr, read or built by hand)
 *   int rc = perks_csr_check(&A, PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC, &row);
 *   always: A->row_ptr monotone from 0 to nnz, columns in range, values finite (PERKS_EFORMAT),
 *   square (PERKS_ENOTSQUARE), no empty row (PERKS_EEMPTYROW); PERKS_CSR_SPD_DIAG: every diagonal
 *   entry stored, finite and > 0, as in any SPD matrix and as Jacobi needs (PERKS_EDIAG);
 *   PERKS_CSR_SYMMETRIC: a_ji stored and equal to a_ij for every stored a_ij (PERKS_ENOTSYM; a
 *   binary search per entry where the row is sorted).  *row (may be NULL) gets the 0-based row of
 *   the first problem, -1 when there is none.  The solver itself cannot tell a non-SPD matrix from
 *   one that is hard to solve (both end in PERKS_EBREAKDOWN, PERKS_ENOCONV or PERKS_EINACCURATE).
 * COSTS
 *   One pass over the file (getc into a line buffer), 16 bytes per entry while
 *   reading, then the CSR (12 bytes per nonzero + 4 per row).  Sorting is per row (insertion sort
 *   for short rows, qsort for long ones).
 */
#ifndef PERKS_MTX_H
#define PERKS_MTX_H

#ifndef __CUDACC_RTC__ /* a host reader, all of it: nothing under NVRTC */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define PERKS_MTX_LINE_MAX 1024

typedef struct perks_csr {
    int n_rows, n_cols;
    long long nnz;   /* stored nonzeros, = row_ptr[n_rows] */
    int *row_ptr;    /* n_rows + 1 */
    int *col;        /* nnz, sorted within each row */
    double *val;     /* nnz */
    int symmetric;   /* 1 if the file said symmetric */
    long long dups;  /* duplicate entries merged (summed) */
} perks_csr;

typedef struct perks_mtx_error {
    long line;        /* 1-based line of the error; 0 when no line applies */
    char message[160];
} perks_mtx_error;

static inline void perks_csr_free(perks_csr *A)
{
    if (!A) return;
    free(A->row_ptr);
    free(A->col);
    free(A->val);
    memset(A, 0, sizeof *A);
}

typedef struct perks__mtx_entry {
    int i, j;
    double v;
} perks__mtx_entry;

static inline int perks__mtx_fail(perks_mtx_error *e, int rc, long line, const char *why)
{
    e->line = line;
    strncpy(e->message, why, sizeof e->message - 1);
    e->message[sizeof e->message - 1] = 0;
    return rc;
}

/* one line into buf (without the newline); 1 on a line, 0 at end of file, -1 if too long
 * (the rest of the line is consumed).  A NUL byte inside a line is reported as -2. */
static inline int perks__mtx_getline(FILE *f, char *buf, int cap)
{
    int c, n = 0, nul = 0, got = 0;
    while ((c = getc(f)) != EOF) {
        got = 1;
        if (c == '\n') break;
        if (c == 0) nul = 1;
        if (n < cap - 1) buf[n] = (char)c;
        n++;
    }
    if (!got) return 0;
    if (n > cap - 1) {
        buf[cap - 1] = 0;
        return -1;
    }
    if (n > 0 && buf[n - 1] == '\r') n--;
    buf[n] = 0;
    return nul ? -2 : 1;
}

static inline int perks__mtx_blank(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return *s == 0;
}

/* next whitespace-separated token: sets *tok, *len; returns the position after it */
static inline const char *perks__mtx_token(const char *s, const char **tok, int *len)
{
    while (*s && isspace((unsigned char)*s)) s++;
    *tok = s;
    while (*s && !isspace((unsigned char)*s)) s++;
    *len = (int)(s - *tok);
    return s;
}

static inline int perks__mtx_wordeq(const char *tok, int len, const char *word)
{
    int k;
    if ((int)strlen(word) != len) return 0;
    for (k = 0; k < len; k++)
        if (tolower((unsigned char)tok[k]) != word[k]) return 0;
    return 1;
}

/* a decimal integer token (optional sign, digits only) into *out; 0 on success */
static inline int perks__mtx_int(const char *tok, int len, long long *out)
{
    char tmp[32];
    char *end;
    int k = 0;
    long long v;
    if (len <= 0 || len >= (int)sizeof tmp) return -1;
    if (tok[0] == '+' || tok[0] == '-') k = 1;
    if (k == len) return -1;
    for (; k < len; k++)
        if (!isdigit((unsigned char)tok[k])) return -1;
    memcpy(tmp, tok, (size_t)len);
    tmp[len] = 0;
    errno = 0;
    v = strtoll(tmp, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

/* a real token (strtod syntax, no hex, no inf/nan) into *out; 0 on success, 1 if not finite */
static inline int perks__mtx_real(const char *tok, int len, double *out)
{
    char tmp[128];
    char *end;
    int k;
    double v;
    if (len <= 0 || len >= (int)sizeof tmp) return -1;
    for (k = 0; k < len; k++) {
        char c = tok[k];
        if (!(isdigit((unsigned char)c) || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E')) {
            if (c == 'i' || c == 'I' || c == 'n' || c == 'N') return 1; /* inf, nan */
            return -1;
        }
    }
    memcpy(tmp, tok, (size_t)len);
    tmp[len] = 0;
    errno = 0;
    v = strtod(tmp, &end);
    if (*end || end == tmp) return -1;
    if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) return 1;
    *out = v; /* underflow to 0 or a denormal is accepted */
    return 0;
}

static inline int perks__mtx_cmp_col(const void *a, const void *b)
{
    const perks__mtx_entry *x = (const perks__mtx_entry *)a, *y = (const perks__mtx_entry *)b;
    return (x->j > y->j) - (x->j < y->j);
}

/* Read a Matrix Market coordinate file into CSR; max_cells bounds rows + entries (0: no bound
 * beyond 32-bit indices) so that a hostile header cannot make it allocate gigabytes. */
static inline int perks_mtx_read_limited(FILE *f, long long max_cells, perks_csr *A, perks_mtx_error *e)
{
    char buf[PERKS_MTX_LINE_MAX + 1];
    const char *s, *tok;
    int len, rc, field = 0, sym = 0; /* field 0 real, 1 integer, 2 pattern */
    long line = 0, got_entries = 0;
    long long rows, cols, ents, k, cap = 0, n_out = 0, nnz;
    perks__mtx_entry *t = NULL, *st = NULL;
    int *rp = NULL, *cl = NULL;
    double *vl = NULL;
    if (!e) return PERKS_ENULL;
    e->line = 0;
    e->message[0] = 0;
    if (!f || !A) return perks__mtx_fail(e, PERKS_ENULL, 0, "NULL file or matrix");
    memset(A, 0, sizeof *A);

    /* banner */
    rc = perks__mtx_getline(f, buf, sizeof buf);
    line = 1;
    if (rc == 0) return perks__mtx_fail(e, PERKS_EFORMAT, 1, "empty file (no %%MatrixMarket banner)");
    if (rc < 0) return perks__mtx_fail(e, PERKS_EFORMAT, 1, rc == -1 ? "line too long" : "NUL byte in line");
    s = perks__mtx_token(buf, &tok, &len);
    if (!perks__mtx_wordeq(tok, len, "%%matrixmarket"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: the first line must start with %%MatrixMarket");
    s = perks__mtx_token(s, &tok, &len);
    if (!perks__mtx_wordeq(tok, len, "matrix"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: object must be 'matrix'");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_wordeq(tok, len, "array"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: unsupported format 'array' (coordinate only)");
    if (!perks__mtx_wordeq(tok, len, "coordinate"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: format must be 'coordinate'");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_wordeq(tok, len, "real") || perks__mtx_wordeq(tok, len, "double")) field = 0;
    else if (perks__mtx_wordeq(tok, len, "integer")) field = 1;
    else if (perks__mtx_wordeq(tok, len, "pattern")) field = 2;
    else if (perks__mtx_wordeq(tok, len, "complex"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: unsupported field 'complex'");
    else return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: field must be real, integer or pattern");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_wordeq(tok, len, "general")) sym = 0;
    else if (perks__mtx_wordeq(tok, len, "symmetric")) sym = 1;
    else if (perks__mtx_wordeq(tok, len, "skew-symmetric") || perks__mtx_wordeq(tok, len, "hermitian"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: unsupported symmetry (general or symmetric only)");
    else return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: symmetry must be general or symmetric");
    if (!perks__mtx_blank(s)) return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: trailing text after symmetry");

    /* comments, then the size line */
    for (;;) {
        rc = perks__mtx_getline(f, buf, sizeof buf);
        line++;
        if (rc == 0) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: file ends before the size line");
        if (rc < 0) return perks__mtx_fail(e, PERKS_EFORMAT, line, rc == -1 ? "line too long" : "NUL byte in line");
        if (buf[0] == '%' || perks__mtx_blank(buf)) continue;
        break;
    }
    s = perks__mtx_token(buf, &tok, &len);
    if (perks__mtx_int(tok, len, &rows)) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: rows is not an integer");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_int(tok, len, &cols)) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: cols is not an integer");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_int(tok, len, &ents))
        return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: entries is not an integer (expected 'rows cols entries')");
    if (!perks__mtx_blank(s)) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: trailing text after entries");
    if (rows < 1 || cols < 1) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: rows and cols must be >= 1");
    if (ents < 0) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: entries must be >= 0");
    if (rows >= INT_MAX || cols >= INT_MAX)
        return perks__mtx_fail(e, PERKS_ESIZE, line, "sizes: rows or cols do not fit 32-bit indices");
    if (sym && rows != cols) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: a symmetric matrix must be square");
    if ((sym && ents > rows * (rows + 1) / 2) || (!sym && ents > rows * cols))
        return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: more entries than the matrix has cells");
    if ((sym ? 2 * ents : ents) >= INT_MAX)
        return perks__mtx_fail(e, PERKS_ESIZE, line, "sizes: entries do not fit 32-bit row pointers");
    if (max_cells > 0 && rows + ents > max_cells)
        return perks__mtx_fail(e, PERKS_ESIZE, line, "sizes: rows + entries exceed the caller's limit");

    /* entries, into a growing triplet array (never trusting `ents` for the allocation) */
    for (;;) {
        long long iv, jv;
        double v = 1.0;
        rc = perks__mtx_getline(f, buf, sizeof buf);
        line++;
        if (rc == 0) break;
        if (rc < 0) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line, rc == -1 ? "line too long" : "NUL byte in line");
        }
        if (buf[0] == '%' || perks__mtx_blank(buf)) continue;
        if (got_entries >= ents) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: more entry lines than the size line declares");
        }
        s = perks__mtx_token(buf, &tok, &len);
        if (perks__mtx_int(tok, len, &iv)) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: row index is not an integer");
        }
        s = perks__mtx_token(s, &tok, &len);
        if (perks__mtx_int(tok, len, &jv)) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: column index missing or not an integer");
        }
        if (iv < 1 || iv > rows || jv < 1 || jv > cols) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: index out of range (1-based, within the sizes)");
        }
        if (sym && jv > iv) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line,
                                   "entries: symmetric file has an entry above the diagonal (lower triangle only)");
        }
        if (field != 2) {
            s = perks__mtx_token(s, &tok, &len);
            if (len == 0) {
                free(t);
                return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: value missing");
            }
            if (field == 1) {
                long long w;
                if (perks__mtx_int(tok, len, &w)) {
                    free(t);
                    return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: value is not an integer (field integer)");
                }
                v = (double)w;
            } else {
                int r2 = perks__mtx_real(tok, len, &v);
                if (r2) {
                    free(t);
                    return perks__mtx_fail(e, PERKS_EFORMAT, line,
                                           r2 > 0 ? "entries: value is not finite" : "entries: value is not a number");
                }
            }
        }
        if (!perks__mtx_blank(s)) {
            free(t);
            return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: trailing text after the entry");
        }
        if (n_out + 2 > cap) {
            long long nc = cap ? 2 * cap : 1024;
            perks__mtx_entry *nt;
            if (nc > (sym ? 2 * ents : ents) + 2) nc = (sym ? 2 * ents : ents) + 2;
            if (nc < n_out + 2) nc = n_out + 2;
            nt = (perks__mtx_entry *)realloc(t, (size_t)nc * sizeof *t);
            if (!nt) {
                free(t);
                return perks__mtx_fail(e, PERKS_ENOMEM, 0, "out of memory reading entries");
            }
            t = nt;
            cap = nc;
        }
        t[n_out].i = (int)(iv - 1);
        t[n_out].j = (int)(jv - 1);
        t[n_out].v = v;
        n_out++;
        if (sym && iv != jv) {
            t[n_out].i = (int)(jv - 1);
            t[n_out].j = (int)(iv - 1);
            t[n_out].v = v;
            n_out++;
        }
        got_entries++;
    }
    if (got_entries < ents) {
        char msg[160];
        free(t);
        snprintf(msg, sizeof msg, "entries: file ends after %ld of %lld declared entries", got_entries, ents);
        return perks__mtx_fail(e, PERKS_EFORMAT, line - 1 > 0 ? line - 1 : 1, msg);
    }

    /* triplets -> CSR: count, scatter by row, sort each row, merge duplicates */
    rp = (int *)calloc((size_t)rows + 1, sizeof *rp);
    st = (perks__mtx_entry *)malloc((size_t)(n_out ? n_out : 1) * sizeof *st);
    if (!rp || !st) {
        free(t);
        free(rp);
        free(st);
        return perks__mtx_fail(e, PERKS_ENOMEM, 0, "out of memory building CSR");
    }
    for (k = 0; k < n_out; k++) rp[t[k].i + 1]++;
    for (k = 0; k < rows; k++) rp[k + 1] += rp[k];
    for (k = 0; k < n_out; k++) st[rp[t[k].i]++] = t[k];
    for (k = rows; k > 0; k--) rp[k] = rp[k - 1];
    rp[0] = 0;
    free(t);
    nnz = 0;
    A->dups = 0;
    for (k = 0; k < rows; k++) {
        long long a = rp[k], b = rp[k + 1], m, w;
        if (b - a > 32) qsort(st + a, (size_t)(b - a), sizeof *st, perks__mtx_cmp_col);
        else
            for (m = a + 1; m < b; m++) { /* insertion sort, stable */
                perks__mtx_entry x = st[m];
                for (w = m; w > a && st[w - 1].j > x.j; w--) st[w] = st[w - 1];
                st[w] = x;
            }
        rp[k] = (int)nnz;
        for (m = a; m < b; m++) {
            if (m > a && st[m].j == st[nnz - 1].j) {
                st[nnz - 1].v += st[m].v;
                A->dups++;
            } else st[nnz++] = st[m];
        }
    }
    rp[rows] = (int)nnz;
    cl = (int *)malloc((size_t)(nnz ? nnz : 1) * sizeof *cl);
    vl = (double *)malloc((size_t)(nnz ? nnz : 1) * sizeof *vl);
    if (!cl || !vl) {
        free(st);
        free(rp);
        free(cl);
        free(vl);
        A->dups = 0;
        return perks__mtx_fail(e, PERKS_ENOMEM, 0, "out of memory building CSR");
    }
    for (k = 0; k < nnz; k++) {
        cl[k] = st[k].j;
        vl[k] = st[k].v;
    }
    free(st);
    A->n_rows = (int)rows;
    A->n_cols = (int)cols;
    A->nnz = nnz;
    A->row_ptr = rp;
    A->col = cl;
    A->val = vl;
    A->symmetric = sym;
    return PERKS_SUCCESS;
}

static inline int perks_mtx_read(FILE *f, perks_csr *A, perks_mtx_error *e)
{
    return perks_mtx_read_limited(f, 0, A, e);
}

static inline int perks_mtx_read_path(const char *path, perks_csr *A, perks_mtx_error *e)
{
    FILE *f;
    int rc;
    if (!e) return PERKS_ENULL;
    if (!path || !A) return perks__mtx_fail(e, PERKS_ENULL, 0, "NULL path or matrix");
    f = fopen(path, "rb");
    memset(A, 0, sizeof *A);
    if (!f) return perks__mtx_fail(e, PERKS_EIO, 0, "cannot open the file");
    rc = perks_mtx_read(f, A, e);
    fclose(f);
    return rc;
}

#define PERKS_CSR_SPD_DIAG 1  /* perks_csr_check: every a_ii stored, finite, > 0 */
#define PERKS_CSR_SYMMETRIC 2 /* perks_csr_check: a_ji == a_ij for every stored entry */

/* the stored a_ij of row i (binary search when the row is sorted, else a scan); 1 if found */
static inline int perks__csr_find(const perks_csr *A, int i, int j, double *v)
{
    int lo = A->row_ptr[i], hi = A->row_ptr[i + 1], k, sorted = 1;
    for (k = lo + 1; k < hi && sorted; k++) sorted = A->col[k - 1] < A->col[k];
    if (!sorted) {
        for (k = lo; k < hi; k++)
            if (A->col[k] == j) return *v = A->val[k], 1;
        return 0;
    }
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (A->col[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return lo < A->row_ptr[i + 1] && A->col[lo] == j ? (*v = A->val[lo], 1) : 0;
}

/* what a CG solve needs of A (see CHECKING A MATRIX above); 0 or the first problem's code */
static inline int perks_csr_check(const perks_csr *A, int flags, long long *row)
{
    int i, k;
    long long dummy;
    if (!row) row = &dummy;
    *row = -1;
    if (!A || !A->row_ptr || (A->nnz > 0 && (!A->col || !A->val))) return PERKS_ENULL;
    if (A->n_rows < 1 || A->n_cols < 1 || A->nnz < 0) return PERKS_ESIZE;
    if (A->n_rows != A->n_cols) return PERKS_ENOTSQUARE;
    if (A->row_ptr[0] != 0 || A->row_ptr[A->n_rows] != A->nnz) return PERKS_EFORMAT;
    for (i = 0; i < A->n_rows; i++) {
        *row = i;
        if (A->row_ptr[i + 1] < A->row_ptr[i]) return PERKS_EFORMAT;
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col[k] < 0 || A->col[k] >= A->n_cols || !isfinite(A->val[k])) return PERKS_EFORMAT;
    }
    for (i = 0; i < A->n_rows; i++) {
        double d = 0;
        *row = i;
        if (A->row_ptr[i + 1] == A->row_ptr[i]) return PERKS_EEMPTYROW;
        if ((flags & PERKS_CSR_SPD_DIAG) && !(perks__csr_find(A, i, i, &d) && d > 0)) return PERKS_EDIAG;
    }
    if (flags & PERKS_CSR_SYMMETRIC)
        for (i = 0; i < A->n_rows; i++) {
            *row = i;
            for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                double v = 0;
                if (A->col[k] != i && !(perks__csr_find(A, A->col[k], i, &v) && v == A->val[k])) return PERKS_ENOTSYM;
            }
        }
    *row = -1;
    return PERKS_SUCCESS;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_MTX_H */
#include <onchip/names_pop.h>
