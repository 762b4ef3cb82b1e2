#include <onchip/names_push.h>
/* perks/mtx.h -- a Matrix Market (.mtx) reader to CSR, for perks/cg.cuh (C99; also C++ and CUDA).
 *
 * WHAT
 *   Reads the coordinate format of the NIST Matrix Market exchange format (the SuiteSparse
 *   collection's) into CSR with 32-bit indices and double values.  Malformed input is rejected
 *   with PERKS_EFORMAT, the 1-based line and the reason; no input crashes it or makes it allocate
 *   more than its entries can fill.  perks_csr_check tests any perks_csr before a solve.
 *
 * EXAMPLE
 *   [compile in a function]
 *   perks_csr A;
 *   perks_mtx_error e;
 *   int rc = perks_mtx_read_path("bcsstk01.mtx", &A, &e);
 *   if (rc) { fprintf(stderr, "%s: line %ld: %s\n", perks_strerror(rc), e.line, e.message); return; }
 *   // ... A.n_rows, A.n_cols, A.nnz, A.row_ptr[n_rows + 1], A.col[nnz], A.val[nnz] ...
 *   perks_csr_free(&A);
 *
 * READERS
 *   perks_mtx_read(f, &A, &e), perks_mtx_read_path(path, &A, &e): the default bound;
 *   perks_mtx_read_limited(f, max_cells, ...), perks_mtx_read_path_limited(path, max_cells, ...):
 *   rows + entries <= max_cells (> 0; else PERKS_ESIZE), max_cells <= 0 the default bound.
 * ACCEPTED (in full: docs/perks-cg.md#reference-what-the-reader-accepts)
 *   FIELD real, double, integer or pattern; SYMMETRY general or symmetric (the lower triangle,
 *   mirrored); duplicates summed in file order (A.dups); lines <= PERKS_MTX_LINE_MAX (1024).
 * RESULT: CSR, rows sorted by column, malloc'ed (perks_csr_free releases it).
 * ERRORS (docs/perks-cg.md#design-notes-perksmtxh)
 *   PERKS_ENULL; PERKS_EFORMAT (e->line, e->message); PERKS_ESIZE past the bound or 32-bit
 *   indices; PERKS_EIO cannot open (e->line 0) or read; PERKS_ENOMEM.  On any error *A is empty.
 */
#ifndef PERKS_MTX_H
#define PERKS_MTX_H

#ifndef __CUDACC_RTC__ /* host code, all of it */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define PERKS_MTX_LINE_MAX 1024
/* the default bound: rows <= PERKS_MTX_FREE_ROWS or <= PERKS_MTX_ROWS_PER_ENTRY x entries */
#ifndef PERKS_MTX_FREE_ROWS
#define PERKS_MTX_FREE_ROWS (1 << 20)
#endif
#ifndef PERKS_MTX_ROWS_PER_ENTRY
#define PERKS_MTX_ROWS_PER_ENTRY 16
#endif

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
    long line; /* the entry's line: the order in which duplicates are summed */
} perks__mtx_entry;

static inline int perks__mtx_fail(perks_mtx_error *e, int rc, long line, const char *why)
{
    size_t k = 0;
    e->line = line;
    while (k + 1 < sizeof e->message && why[k]) { /* a truncating copy (strncpy warns under -O3) */
        e->message[k] = why[k];
        k++;
    }
    e->message[k] = 0;
    return rc;
}

/* one line into buf (max + 1 chars; no newline, no CR before it): 1 a line, 0 the end, -1 longer
 * than max (the rest consumed), -2 a NUL byte, -3 a read error */
static inline int perks__mtx_getline(FILE *f, char *buf, int max)
{
    int c, n = 0, nul = 0, got = 0, last = 0;
    while ((c = getc(f)) != EOF) {
        got = 1;
        if (c == '\n') break;
        if (c == 0) nul = 1;
        if (n < max + 2) { /* counted up to max + 2: a line of max characters and its CR fit */
            if (n <= max) buf[n] = (char)c;
            n++;
        }
        last = c;
    }
    if (ferror(f)) return -3;
    if (!got) return 0;
    if (last == '\r') n--;
    if (n > max) {
        buf[max] = 0;
        return -1;
    }
    buf[n] = 0;
    return nul ? -2 : 1;
}

/* a line that perks__mtx_getline could not give (rc < 0) as the reader's error */
static inline int perks__mtx_line_fail(perks_mtx_error *e, int rc, long line)
{
    char msg[sizeof e->message];
    if (rc == -1) return perks__mtx_fail(e, PERKS_EFORMAT, line, "line too long");
    if (rc == -2) return perks__mtx_fail(e, PERKS_EFORMAT, line, "NUL byte in line");
    snprintf(msg, sizeof msg, "read error: %s", errno ? strerror(errno) : "the stream's error indicator is set");
    return perks__mtx_fail(e, PERKS_EIO, line, msg);
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

/* entries of one row by column, then by line: a total order (duplicates summed in file order) */
static inline int perks__mtx_cmp_col(const void *a, const void *b)
{
    const perks__mtx_entry *x = (const perks__mtx_entry *)a, *y = (const perks__mtx_entry *)b;
    if (x->j != y->j) return x->j < y->j ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* the banner line: field 0 real, 1 integer, 2 pattern; sym 1 symmetric, 0 general */
static inline int perks__mtx_banner(const char *buf, int *field, int *sym, perks_mtx_error *e)
{
    const char *s, *tok;
    int len;
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
    if (perks__mtx_wordeq(tok, len, "real") || perks__mtx_wordeq(tok, len, "double")) *field = 0;
    else if (perks__mtx_wordeq(tok, len, "integer")) *field = 1;
    else if (perks__mtx_wordeq(tok, len, "pattern")) *field = 2;
    else if (perks__mtx_wordeq(tok, len, "complex"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: unsupported field 'complex'");
    else return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: field must be real, integer or pattern");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_wordeq(tok, len, "general")) *sym = 0;
    else if (perks__mtx_wordeq(tok, len, "symmetric")) *sym = 1;
    else if (perks__mtx_wordeq(tok, len, "skew-symmetric") || perks__mtx_wordeq(tok, len, "hermitian"))
        return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: unsupported symmetry (general or symmetric only)");
    else return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: symmetry must be general or symmetric");
    if (!perks__mtx_blank(s)) return perks__mtx_fail(e, PERKS_EFORMAT, 1, "header: trailing text after symmetry");
    return PERKS_SUCCESS;
}

/* the declared sizes of a file (its size line) */
typedef struct perks__mtx_sizes {
    long long rows, cols, ents;
} perks__mtx_sizes;

/* the size line (buf, at `line`): the sizes, checked against the symmetry and the bounds of
 * perks_mtx_read_limited */
static inline int perks__mtx_size_line(const char *buf, long line, int sym, long long max_cells, perks__mtx_sizes *z,
                                       perks_mtx_error *e)
{
    const char *s, *tok;
    int len;
    long long rows, cols, ents;
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
    if (max_cells <= 0 && rows > PERKS_MTX_FREE_ROWS && rows > (long long)PERKS_MTX_ROWS_PER_ENTRY * ents) {
        char msg[160];
        snprintf(msg, sizeof msg, "sizes: %lld rows for %lld entries, over %ld and %d per entry (a larger bound: "
                 "perks_mtx_read_limited)", rows, ents, (long)PERKS_MTX_FREE_ROWS, (int)PERKS_MTX_ROWS_PER_ENTRY);
        return perks__mtx_fail(e, PERKS_ESIZE, line, msg);
    }
    z->rows = rows;
    z->cols = cols;
    z->ents = ents;
    return PERKS_SUCCESS;
}

/* one entry line (buf, at `line`) into *x (0-based indices) */
static inline int perks__mtx_entry_line(const char *buf, long line, int field, int sym, const perks__mtx_sizes *z,
                                        perks__mtx_entry *x, perks_mtx_error *e)
{
    const char *s, *tok;
    int len;
    long long iv, jv;
    double v = 1.0;
    s = perks__mtx_token(buf, &tok, &len);
    if (perks__mtx_int(tok, len, &iv)) return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: row index is not an integer");
    s = perks__mtx_token(s, &tok, &len);
    if (perks__mtx_int(tok, len, &jv))
        return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: column index missing or not an integer");
    if (iv < 1 || iv > z->rows || jv < 1 || jv > z->cols)
        return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: index out of range (1-based, within the sizes)");
    if (sym && jv > iv)
        return perks__mtx_fail(e, PERKS_EFORMAT, line,
                               "entries: symmetric file has an entry above the diagonal (lower triangle only)");
    if (field != 2) {
        s = perks__mtx_token(s, &tok, &len);
        if (len == 0) return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: value missing");
        if (field == 1) {
            long long w;
            if (perks__mtx_int(tok, len, &w))
                return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: value is not an integer (field integer)");
            v = (double)w;
        } else {
            int r2 = perks__mtx_real(tok, len, &v);
            if (r2)
                return perks__mtx_fail(e, PERKS_EFORMAT, line,
                                       r2 > 0 ? "entries: value is not finite" : "entries: value is not a number");
        }
    }
    if (!perks__mtx_blank(s)) return perks__mtx_fail(e, PERKS_EFORMAT, line, "entries: trailing text after the entry");
    x->i = (int)(iv - 1);
    x->j = (int)(jv - 1);
    x->v = v;
    x->line = line;
    return PERKS_SUCCESS;
}

/* the triplets read so far: a growing array, never larger than the declared entries (mirrored) + 2 */
typedef struct perks__mtx_triplets {
    perks__mtx_entry *t;
    long long n, cap;
} perks__mtx_triplets;

/* x appended, and its mirror image off the diagonal of a symmetric file */
static inline int perks__mtx_append(perks__mtx_triplets *tr, perks__mtx_entry x, int sym, long long ents,
                                    perks_mtx_error *e)
{
    if (tr->n + 2 > tr->cap) {
        long long nc = tr->cap ? 2 * tr->cap : 1024;
        perks__mtx_entry *nt;
        if (nc > (sym ? 2 * ents : ents) + 2) nc = (sym ? 2 * ents : ents) + 2;
        if (nc < tr->n + 2) nc = tr->n + 2;
        nt = (perks__mtx_entry *)realloc(tr->t, (size_t)nc * sizeof *tr->t);
        if (!nt) return perks__mtx_fail(e, PERKS_ENOMEM, 0, "out of memory reading entries");
        tr->t = nt;
        tr->cap = nc;
    }
    tr->t[tr->n++] = x;
    if (sym && x.i != x.j) {
        const int i = x.i;
        x.i = x.j;
        x.j = i;
        tr->t[tr->n++] = x;
    }
    return PERKS_SUCCESS;
}

/* every entry line after the size line, into tr: exactly z->ents of them */
static inline int perks__mtx_entries(FILE *f, char *buf, long *line, int field, int sym, const perks__mtx_sizes *z,
                                     perks__mtx_triplets *tr, perks_mtx_error *e)
{
    long got = 0;
    int rc;
    for (;;) {
        perks__mtx_entry x;
        rc = perks__mtx_getline(f, buf, PERKS_MTX_LINE_MAX);
        ++*line;
        if (rc == 0) break;
        if (rc < 0) return perks__mtx_line_fail(e, rc, *line);
        if (buf[0] == '%' || perks__mtx_blank(buf)) continue;
        if (got >= z->ents)
            return perks__mtx_fail(e, PERKS_EFORMAT, *line, "entries: more entry lines than the size line declares");
        if ((rc = perks__mtx_entry_line(buf, *line, field, sym, z, &x, e)) != PERKS_SUCCESS) return rc;
        if ((rc = perks__mtx_append(tr, x, sym, z->ents, e)) != PERKS_SUCCESS) return rc;
        got++;
    }
    if (got < z->ents) {
        char msg[160];
        snprintf(msg, sizeof msg, "entries: file ends after %ld of %lld declared entries", got, z->ents);
        return perks__mtx_fail(e, PERKS_EFORMAT, *line - 1 > 0 ? *line - 1 : 1, msg);
    }
    return PERKS_SUCCESS;
}

/* triplets -> CSR: scatter by row (file order), sort rows by (column, line), merge; frees tr->t */
static inline int perks__mtx_to_csr(perks__mtx_triplets *tr, long long rows, perks_csr *A, perks_mtx_error *e)
{
    const perks__mtx_entry *t = tr->t;
    const long long n_out = tr->n;
    perks__mtx_entry *st;
    int *rp, *cl = NULL;
    double *vl = NULL;
    long long k, nnz = 0, dups = 0;
    long bad_line = 0;
    rp = (int *)calloc((size_t)rows + 1, sizeof *rp);
    st = (perks__mtx_entry *)malloc((size_t)(n_out ? n_out : 1) * sizeof *st);
    if (!rp || !st) {
        free(rp);
        free(st);
        return perks__mtx_fail(e, PERKS_ENOMEM, 0, "out of memory building CSR");
    }
    for (k = 0; k < n_out; k++) rp[t[k].i + 1]++;
    for (k = 0; k < rows; k++) rp[k + 1] += rp[k];
    for (k = 0; k < n_out; k++) st[rp[t[k].i]++] = t[k];
    for (k = rows; k > 0; k--) rp[k] = rp[k - 1];
    rp[0] = 0;
    free(tr->t);
    tr->t = NULL;
    for (k = 0; k < rows; k++) {
        long long a = rp[k], b = rp[k + 1], m, w;
        if (b - a > 32) qsort(st + a, (size_t)(b - a), sizeof *st, perks__mtx_cmp_col);
        else
            for (m = a + 1; m < b; m++) { /* insertion sort */
                perks__mtx_entry x = st[m];
                for (w = m; w > a && perks__mtx_cmp_col(&st[w - 1], &x) > 0; w--) st[w] = st[w - 1];
                st[w] = x;
            }
        rp[k] = (int)nnz;
        for (m = a; m < b; m++) {
            if (m > a && st[m].j == st[nnz - 1].j) {
                st[nnz - 1].v += st[m].v;
                /* the first line at which a sum leaves the finite doubles (later lines keep it there) */
                if (!isfinite(st[nnz - 1].v) && (bad_line == 0 || st[m].line < bad_line)) bad_line = st[m].line;
                dups++;
            } else st[nnz++] = st[m];
        }
    }
    rp[rows] = (int)nnz;
    if (!bad_line) {
        cl = (int *)malloc((size_t)(nnz ? nnz : 1) * sizeof *cl);
        vl = (double *)malloc((size_t)(nnz ? nnz : 1) * sizeof *vl);
    }
    if (bad_line || !cl || !vl) {
        free(st);
        free(rp);
        free(cl);
        free(vl);
        return bad_line ? perks__mtx_fail(e, PERKS_EFORMAT, bad_line,
                                          "entries: duplicates of this entry sum to a value that is not finite")
                        : perks__mtx_fail(e, PERKS_ENOMEM, 0, "out of memory building CSR");
    }
    for (k = 0; k < nnz; k++) {
        cl[k] = st[k].j;
        vl[k] = st[k].v;
    }
    free(st);
    A->n_rows = (int)rows;
    A->nnz = nnz;
    A->row_ptr = rp;
    A->col = cl;
    A->val = vl;
    A->dups = dups;
    return PERKS_SUCCESS;
}

/* a Matrix Market coordinate file into CSR; max_cells > 0 bounds rows + entries, <= 0 the default
 * bound.  Stages: the banner, comments and the size line, the entries, the CSR. */
static inline int perks_mtx_read_limited(FILE *f, long long max_cells, perks_csr *A, perks_mtx_error *e)
{
    char buf[PERKS_MTX_LINE_MAX + 1];
    int rc, field = 0, sym = 0;
    long line;
    perks__mtx_sizes z;
    perks__mtx_triplets tr = {NULL, 0, 0};
    if (!e) return PERKS_ENULL;
    e->line = 0;
    e->message[0] = 0;
    if (!f || !A) return perks__mtx_fail(e, PERKS_ENULL, 0, "NULL file or matrix");
    memset(A, 0, sizeof *A);

    rc = perks__mtx_getline(f, buf, PERKS_MTX_LINE_MAX);
    line = 1;
    if (rc == 0) return perks__mtx_fail(e, PERKS_EFORMAT, 1, "empty file (no %%MatrixMarket banner)");
    if (rc < 0) return perks__mtx_line_fail(e, rc, 1);
    if ((rc = perks__mtx_banner(buf, &field, &sym, e)) != PERKS_SUCCESS) return rc;
    for (;;) { /* comments, then the size line */
        rc = perks__mtx_getline(f, buf, PERKS_MTX_LINE_MAX);
        line++;
        if (rc == 0) return perks__mtx_fail(e, PERKS_EFORMAT, line, "sizes: file ends before the size line");
        if (rc < 0) return perks__mtx_line_fail(e, rc, line);
        if (buf[0] == '%' || perks__mtx_blank(buf)) continue;
        break;
    }
    if ((rc = perks__mtx_size_line(buf, line, sym, max_cells, &z, e)) != PERKS_SUCCESS) return rc;
    /* a growing triplet array (the declared count is not trusted); row pointers after it */
    rc = perks__mtx_entries(f, buf, &line, field, sym, &z, &tr, e);
    if (rc == PERKS_SUCCESS) rc = perks__mtx_to_csr(&tr, z.rows, A, e);
    free(tr.t);
    if (rc != PERKS_SUCCESS) {
        memset(A, 0, sizeof *A);
        return rc;
    }
    A->n_cols = (int)z.cols;
    A->symmetric = sym;
    return PERKS_SUCCESS;
}

static inline int perks_mtx_read(FILE *f, perks_csr *A, perks_mtx_error *e)
{
    return perks_mtx_read_limited(f, 0, A, e);
}

/* the file at path, read with perks_mtx_read_limited(f, max_cells, ...) */
static inline int perks_mtx_read_path_limited(const char *path, long long max_cells, perks_csr *A, perks_mtx_error *e)
{
    FILE *f;
    int rc;
    if (!e) return PERKS_ENULL;
    if (!path || !A) return perks__mtx_fail(e, PERKS_ENULL, 0, "NULL path or matrix");
    f = fopen(path, "rb");
    memset(A, 0, sizeof *A);
    if (!f) return perks__mtx_fail(e, PERKS_EIO, 0, "cannot open the file");
    rc = perks_mtx_read_limited(f, max_cells, A, e);
    fclose(f);
    return rc;
}

static inline int perks_mtx_read_path(const char *path, perks_csr *A, perks_mtx_error *e)
{
    return perks_mtx_read_path_limited(path, 0, A, e);
}

#define PERKS_CSR_SPD_DIAG 1  /* perks_csr_check: every a_ii stored, finite, > 0 */
#define PERKS_CSR_SYMMETRIC 2 /* perks_csr_check: a_ji == a_ij for every stored entry */

/* heapsort of positions h[0..n) by (col[p], p) */
static inline int perks__csr_before(const int *col, int a, int b)
{
    return col[a] < col[b] || (col[a] == col[b] && a < b);
}
static inline void perks__csr_sift(const int *col, int *h, long long root, long long n)
{
    for (;;) {
        long long c = 2 * root + 1;
        int x;
        if (c >= n) return;
        if (c + 1 < n && perks__csr_before(col, h[c], h[c + 1])) c++;
        if (!perks__csr_before(col, h[root], h[c])) return;
        x = h[root], h[root] = h[c], h[c] = x;
        root = c;
    }
}
static inline void perks__csr_sort_row(const int *col, int *h, long long n)
{
    long long r;
    for (r = n / 2 - 1; r >= 0; r--) perks__csr_sift(col, h, r, n);
    for (r = n - 1; r > 0; r--) {
        int x = h[0];
        h[0] = h[r], h[r] = x;
        perks__csr_sift(col, h, 0, r);
    }
}

/* the first a_ij of row i in storage order; 1 if stored.  Binary search on col (sorted) or on
 * perm (each row's positions by (column, position)); without either, an unsorted row is scanned */
static inline int perks__csr_find(const perks_csr *A, const int *perm, int sorted, int i, int j, double *v)
{
    int lo = A->row_ptr[i], hi = A->row_ptr[i + 1], end = hi, k;
    if (!sorted && !perm) {
        int up = 1;
        for (k = lo + 1; k < hi && up; k++) up = A->col[k - 1] < A->col[k];
        if (!up) {
            for (k = lo; k < hi; k++)
                if (A->col[k] == j) return *v = A->val[k], 1;
            return 0;
        }
    }
    if (sorted) perm = NULL;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (A->col[perm ? perm[mid] : mid] < j) lo = mid + 1;
        else hi = mid;
    }
    if (lo == end) return 0;
    k = perm ? perm[lo] : lo;
    return A->col[k] == j ? (*v = A->val[k], 1) : 0;
}

/* what a CG solve needs of A (docs/perks-cg.md#reference-perks_csr_check): row pointers, columns,
 * finite values, square, no empty row; flags PERKS_CSR_SPD_DIAG, PERKS_CSR_SYMMETRIC.  *row (may be
 * NULL): the first problem's row, -1 if none */
static inline int perks_csr_check(const perks_csr *A, int flags, long long *row)
{
    int i, k, sorted = 1, rc = PERKS_SUCCESS;
    int *perm = NULL;
    long long dummy;
    if (!row) row = &dummy;
    *row = -1;
    if (!A || !A->row_ptr || (A->nnz > 0 && (!A->col || !A->val))) return PERKS_ENULL;
    if (A->n_rows < 1 || A->n_cols < 1 || A->nnz < 0) return PERKS_ESIZE;
    if (A->n_rows != A->n_cols) return PERKS_ENOTSQUARE;
    if (A->row_ptr[0] != 0 || A->row_ptr[A->n_rows] != A->nnz) return PERKS_EFORMAT;
    /* every row pointer before any column or value */
    for (i = 0; i < A->n_rows; i++)
        if (A->row_ptr[i + 1] < A->row_ptr[i]) return *row = i, PERKS_EFORMAT;
    for (i = 0; i < A->n_rows; i++)
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            if (A->col[k] < 0 || A->col[k] >= A->n_cols || !isfinite(A->val[k])) return *row = i, PERKS_EFORMAT;
            if (k > A->row_ptr[i] && A->col[k - 1] >= A->col[k]) sorted = 0;
        }
    /* rows not strictly increasing: each row's positions sorted once, for binary searches */
    if (!sorted && (flags & (PERKS_CSR_SPD_DIAG | PERKS_CSR_SYMMETRIC)) &&
        (perm = (int *)malloc((size_t)A->nnz * sizeof *perm)) != NULL)
        for (i = 0; i < A->n_rows; i++) {
            int lo = A->row_ptr[i], hi = A->row_ptr[i + 1], up = 1;
            for (k = lo; k < hi; k++) {
                perm[k] = k;
                if (k > lo && A->col[k - 1] >= A->col[k]) up = 0;
            }
            if (!up) perks__csr_sort_row(A->col, perm + lo, hi - lo);
        }
    for (i = 0; i < A->n_rows && !rc; i++) {
        double d = 0;
        *row = i;
        if (A->row_ptr[i + 1] == A->row_ptr[i]) rc = PERKS_EEMPTYROW;
        else if ((flags & PERKS_CSR_SPD_DIAG) && !(perks__csr_find(A, perm, sorted, i, i, &d) && d > 0))
            rc = PERKS_EDIAG;
    }
    if (!rc && (flags & PERKS_CSR_SYMMETRIC))
        for (i = 0; i < A->n_rows && !rc; i++) {
            *row = i;
            for (k = A->row_ptr[i]; k < A->row_ptr[i + 1] && !rc; k++) {
                double v = 0;
                if (A->col[k] != i && !(perks__csr_find(A, perm, sorted, A->col[k], i, &v) && v == A->val[k]))
                    rc = PERKS_ENOTSYM;
            }
        }
    free(perm);
    if (!rc) *row = -1;
    return rc;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_MTX_H */
#include <onchip/names_pop.h>
