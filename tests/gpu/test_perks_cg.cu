/* tests/gpu/test_perks_cg.cu -- perks/cg.cuh against a CPU CG in double with the same recurrences,
 * on both paths (the cooperative grid with each of its barriers: flag, grid.sync, sum; the cluster
 * with 1, 2, 3, 4, 5, 8 and 16 blocks, matrix in shared memory or not):
 * 2D and 3D Poisson, random symmetric diagonally dominant matrices with ragged row lengths (a few
 * rows of hundreds of entries), a 1 x 1 system, a matrix with a single long row; the solution of
 * the small cases against a dense Cholesky solve; Jacobi on and off, x0 given or zero, every cache
 * tier (matrix + vectors in shared memory, vectors only, none), 1 block and ragged block counts,
 * fp32; a non-SPD matrix (breakdown at the CPU's iteration), the iteration limit (ENOCONV after
 * exactly max_iter with the CPU's residual), a non-positive diagonal under Jacobi, bitwise
 * reproducibility, one plan for two right-hand sides (cg64 auto and stream, mixed forced and auto),
 * every host error code (x poisoned with a byte pattern: a refused call writes nothing; a refused
 * plan names why and makes no pass); the plan's head (onchip/plan.h) after every plan: why, no
 * fixed step count, the launches, the device memory held, result = a.x (where the answer is read);
 * the SuiteSparse files under ../shared/data/mtx or .data/mtx (each case of a file that is
 * not there a counted skip).  x is poisoned (NaN) before every zero-start solve.
 * Iterations must equal the CPU's up to rounding: |it - it_cpu| <= 1 + it_cpu / 50 (the sums run
 * in another order; ill-conditioned files and the ragged matrix without Jacobi get 1 + it_cpu / 10).
 *
 * Two kinds of check.  CORRECTNESS: the answer must be right -- the status, iterations and residual
 * of the CPU CG (compare(); an honest miss of tol only where the CPU's own x misses it in double,
 * or, in float, with a true residual within 10x of the float floor of the CPU's answer), the dense
 * Cholesky solution (direct()), the host's true residual of every x that is called a success, the
 * CPU CG behind the stream path's comparisons with the grid path, bitwise equal reruns.  HONESTY:
 * the solver reports what it achieved -- the reported true residual and rounding floor are the x's,
 * SUCCESS only at or below tol and EINACCURATE only above it; test_accuracy's tables on the
 * SuiteSparse files are honesty checks only (their correctness is compare()'s in test_files).
 * The cases are counted (check_plan(plan_cases(light))): a cluster case below sm_90 is a counted
 * skip (after checking that the cluster path is refused), so is each case of a missing file.
 *   test_perks_cg [--light] [--part K/N] [--seed N]   (--light: small systems, for compute-sanitizer;
 *   --part: of the solving cases (compare, direct, stream, repeat, reuse, accuracy; a mixed system's
 *   modes as one) every N-th from the K-th, the rest skipped) */
#include <perks/cg.cuh>
#include <perks/mtx.h>
#include <stddef.h>

#include "gpucheck.h"

PERKS_CG_DEFINE(cg64, double, 256)
PERKS_CG_DEFINE(cg32, float, 256)
PERKS_CG_DEFINE(cgm, perks_cg_mixed, 256)

static int g_cc_major; /* the device's compute capability: the cluster path needs 9 */

/* ---- matrices (host CSR, perks_csr from mtx.h) ---------------------------------------------- */
static void csr_alloc(perks_csr *A, int n, long long nnz)
{
    memset(A, 0, sizeof *A);
    A->n_rows = A->n_cols = n;
    A->row_ptr = (int *)calloc((size_t)n + 1, sizeof(int));
    A->col = (int *)malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
    A->val = (double *)malloc(sizeof(double) * (size_t)(nnz ? nnz : 1));
}

/* Poisson with Dirichlet borders: 2D 5-point (nz = 1) or 3D 7-point, shifted by sigma * I */
static void poisson(perks_csr *A, int nx, int ny, int nz, double sigma)
{
    int n = nx * ny * nz, i = 0;
    long long k = 0;
    csr_alloc(A, n, 7LL * n);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++, i++) {
                double diag = (nz > 1 ? 6.0 : 4.0) - sigma;
#define PUSH(c, v) (A->col[k] = (c), A->val[k] = (v), k++)
                if (z > 0) PUSH(i - nx * ny, -1.0);
                if (y > 0) PUSH(i - nx, -1.0);
                if (x > 0) PUSH(i - 1, -1.0);
                PUSH(i, diag);
                if (x < nx - 1) PUSH(i + 1, -1.0);
                if (y < ny - 1) PUSH(i + nx, -1.0);
                if (z < nz - 1) PUSH(i + nx * ny, -1.0);
#undef PUSH
                A->row_ptr[i + 1] = (int)k;
            }
    A->nnz = k;
}

/* random symmetric, strictly diagonally dominant with positive diagonal (SPD); most rows have a
 * few entries, `heavy` rows have about `wide` entries */
static void random_sdd(perks_csr *A, int n, int per_row, int heavy, int wide)
{
    /* build the lower triangle as a dense-free list, then symmetrise through mtx-like triplets */
    long long cap = (long long)n * per_row * 2 + (long long)heavy * wide * 2 + n, m = 0;
    int *ti = (int *)malloc(sizeof(int) * cap), *tj = (int *)malloc(sizeof(int) * cap);
    double *tv = (double *)malloc(sizeof(double) * cap), *rowsum = (double *)calloc(n, sizeof(double));
    for (int i = 0; i < n; i++) {
        int cnt = (i < heavy) ? wide : (int)((gpucheck_uniform() + 1) * 0.5 * per_row);
        for (int c = 0; c < cnt && i > 0; c++) {
            int j = (int)((gpucheck_uniform() + 1) * 0.5 * i);
            if (j >= i) j = i - 1;
            double v = gpucheck_uniform();
            ti[m] = i, tj[m] = j, tv[m] = v, m++;
            ti[m] = j, tj[m] = i, tv[m] = v, m++;
            rowsum[i] += fabs(v);
            rowsum[j] += fabs(v);
        }
    }
    for (int i = 0; i < n; i++) ti[m] = i, tj[m] = i, tv[m] = rowsum[i] + 0.5 + (gpucheck_uniform() + 1), m++;
    /* to CSR through a file-free path: counting sort by row, merge duplicate columns */
    csr_alloc(A, n, m);
    int *cnt = (int *)calloc((size_t)n + 1, sizeof(int));
    for (long long k = 0; k < m; k++) cnt[ti[k] + 1]++;
    for (int i = 0; i < n; i++) cnt[i + 1] += cnt[i];
    int *pos = (int *)malloc(sizeof(int) * ((size_t)n + 1));
    memcpy(pos, cnt, sizeof(int) * ((size_t)n + 1));
    int *cj = (int *)malloc(sizeof(int) * m);
    double *cv = (double *)malloc(sizeof(double) * m);
    for (long long k = 0; k < m; k++) cj[pos[ti[k]]] = tj[k], cv[pos[ti[k]]++] = tv[k];
    long long out = 0;
    for (int i = 0; i < n; i++) {
        int a = cnt[i], b = cnt[i + 1];
        for (int x = a + 1; x < b; x++) /* insertion sort by column */
            for (int y = x; y > a && cj[y - 1] > cj[y]; y--) {
                int tc = cj[y];
                cj[y] = cj[y - 1], cj[y - 1] = tc;
                double t = cv[y];
                cv[y] = cv[y - 1], cv[y - 1] = t;
            }
        for (int x = a; x < b; x++) {
            if (out > A->row_ptr[i] && A->col[out - 1] == cj[x]) A->val[out - 1] += cv[x];
            else A->col[out] = cj[x], A->val[out] = cv[x], out++;
        }
        A->row_ptr[i + 1] = (int)out;
    }
    A->nnz = out;
    free(ti), free(tj), free(tv), free(rowsum), free(cnt), free(pos), free(cj), free(cv);
}

/* ---- CPU references -------------------------------------------------------------------------- */
static void spmv(const perks_csr *A, const double *x, double *y)
{
    for (int i = 0; i < A->n_rows; i++) {
        double s = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) s += A->val[k] * x[A->col[k]];
        y[i] = s;
    }
}

typedef struct cpu_cg {
    int status, iterations;
    double rel;
} cpu_cg;

/* textbook preconditioned CG in double, the same recurrences as the kernel */
static cpu_cg cg_cpu(const perks_csr *A, const double *b, double *x, int jacobi, double tol, int max_iter, int x0)
{
    int n = A->n_rows, it = 0, st = PERKS_SUCCESS;
    double *r = (double *)malloc(sizeof(double) * n), *z = (double *)malloc(sizeof(double) * n),
           *p = (double *)calloc(n, sizeof(double)), *q = (double *)malloc(sizeof(double) * n),
           *d = (double *)malloc(sizeof(double) * n);
    double rr = 0, rz = 0, bb = 0, beta = 0;
    if (!x0)
        for (int i = 0; i < n; i++) x[i] = 0;
    spmv(A, x, q);
    for (int i = 0; i < n; i++) {
        double diag = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col[k] == i) diag += A->val[k];
        d[i] = 1.0 / diag;
        if (jacobi && !(d[i] > 0 && isfinite(d[i]))) st = PERKS_EDIAG;
        r[i] = b[i] - q[i];
        z[i] = jacobi ? d[i] * r[i] : r[i];
        rr += r[i] * r[i], rz += r[i] * z[i], bb += b[i] * b[i];
    }
    while (st == PERKS_SUCCESS) {
        if (rr <= tol * tol * bb) break;
        if (it >= max_iter) {
            st = PERKS_ENOCONV;
            break;
        }
        for (int i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
        spmv(A, p, q);
        double pq = 0;
        for (int i = 0; i < n; i++) pq += p[i] * q[i];
        if (!(pq > 0)) {
            st = PERKS_EBREAKDOWN;
            break;
        }
        double alpha = rz / pq, rzn = 0;
        rr = 0;
        for (int i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            z[i] = jacobi ? d[i] * r[i] : r[i];
            rr += r[i] * r[i], rzn += r[i] * z[i];
        }
        beta = rzn / rz;
        rz = rzn;
        it++;
    }
    cpu_cg res = {st, it, bb > 0 ? sqrt(rr / bb) : sqrt(rr)};
    free(r), free(z), free(p), free(q), free(d);
    return res;
}

/* Chronopoulos-Gear CG in double (one reduction per iteration), the recurrences of name_kernel1:
 * p = u + beta p, s = w + beta s, x += alpha p, r -= alpha s, u = D^-1 r, w = A u; gamma = r.u,
 * delta = w.u, beta = gamma / gamma_old, alpha = gamma / (delta - beta gamma / alpha_old) */
static cpu_cg cg_cpu_cgear(const perks_csr *A, const double *b, double *x, int jacobi, double tol, int max_iter,
                           int x0)
{
    int n = A->n_rows, it = 0, st = PERKS_SUCCESS;
    double *r = (double *)malloc(sizeof(double) * n), *u = (double *)calloc(n, sizeof(double)),
           *p = (double *)calloc(n, sizeof(double)), *s = (double *)calloc(n, sizeof(double)),
           *w = (double *)malloc(sizeof(double) * n), *d = (double *)malloc(sizeof(double) * n);
    double rr = 0, g = 0, dl = 0, bb = 0, gprev = 0, aprev = 0;
    if (!x0)
        for (int i = 0; i < n; i++) x[i] = 0;
    spmv(A, x, w);
    for (int i = 0; i < n; i++) {
        double diag = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col[k] == i) diag += A->val[k];
        d[i] = jacobi ? 1.0 / diag : 1.0;
        if (jacobi && !(d[i] > 0 && isfinite(d[i]))) st = PERKS_EDIAG;
        r[i] = b[i] - w[i];
        u[i] = d[i] * r[i];
        bb += b[i] * b[i];
    }
    spmv(A, u, w);
    for (int i = 0; i < n; i++) g += r[i] * u[i], dl += w[i] * u[i], rr += r[i] * r[i];
    while (st == PERKS_SUCCESS) {
        if (rr <= tol * tol * bb) break;
        if (it >= max_iter) {
            st = PERKS_ENOCONV;
            break;
        }
        double bt = it ? g / gprev : 0, den = it ? dl - bt * g / aprev : dl;
        if (!(den > 0)) {
            st = PERKS_EBREAKDOWN;
            break;
        }
        double al = g / den, gn = 0, dn = 0;
        for (int i = 0; i < n; i++) {
            p[i] = u[i] + bt * p[i];
            s[i] = w[i] + bt * s[i];
            x[i] += al * p[i];
            r[i] -= al * s[i];
            u[i] = d[i] * r[i];
        }
        spmv(A, u, w);
        rr = 0;
        for (int i = 0; i < n; i++) gn += r[i] * u[i], dn += w[i] * u[i], rr += r[i] * r[i];
        gprev = g, aprev = al, g = gn, dl = dn;
        it++;
    }
    cpu_cg res = {st, it, bb > 0 ? sqrt(rr / bb) : sqrt(rr)};
    free(r), free(u), free(p), free(s), free(w), free(d);
    return res;
}

/* dense Cholesky solve (small n): the direct solution */
static int cholesky_solve(const perks_csr *A, const double *b, double *x)
{
    int n = A->n_rows;
    double *L = (double *)calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) L[(size_t)i * n + A->col[k]] += A->val[k];
    for (int j = 0; j < n; j++) {
        double s = L[(size_t)j * n + j];
        for (int k = 0; k < j; k++) s -= L[(size_t)j * n + k] * L[(size_t)j * n + k];
        if (!(s > 0)) {
            free(L);
            return -1;
        }
        L[(size_t)j * n + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = L[(size_t)i * n + j];
            for (int k = 0; k < j; k++) t -= L[(size_t)i * n + k] * L[(size_t)j * n + k];
            L[(size_t)i * n + j] = t / L[(size_t)j * n + j];
        }
    }
    for (int i = 0; i < n; i++) {
        double t = b[i];
        for (int k = 0; k < i; k++) t -= L[(size_t)i * n + k] * x[k];
        x[i] = t / L[(size_t)i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double t = x[i];
        for (int k = i + 1; k < n; k++) t -= L[(size_t)k * n + i] * x[k];
        x[i] = t / L[(size_t)i * n + i];
    }
    free(L);
    return 0;
}

/* ||b - A x|| / ||b|| of the system a solve was given: A and b rounded to float for fp32 (dbl 0);
 * *bound: the rounding-error bound of that double computation relative to ||b|| (two sums in
 * different orders may differ by about this much) */
static double true_residual_as(const perks_csr *A, const double *b, const double *x, int dbl, double *bound)
{
    double num = 0, den = 0, eb = 0;
    int maxrow = 1;
    for (int i = 0; i < A->n_rows; i++) {
        const double bi = dbl ? b[i] : (double)(float)b[i];
        double s = 0, e = fabs(bi);
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            const double v = dbl ? A->val[k] : (double)(float)A->val[k];
            s += v * x[A->col[k]];
            e += fabs(v * x[A->col[k]]);
        }
        if (A->row_ptr[i + 1] - A->row_ptr[i] + 1 > maxrow) maxrow = A->row_ptr[i + 1] - A->row_ptr[i] + 1;
        num += (bi - s) * (bi - s), den += bi * bi, eb += e * e;
    }
    den = den > 0 ? den : 1;
    *bound = 2.0 * maxrow * 1.1102230246251565e-16 * sqrt(eb / den);
    return sqrt(num / den);
}

/* the rounding floor the solver reports (perks_cg_result.rounding_floor): eps ||(|A| |x|)|| / ||b|| with A,
 * b, x as the residual reads them (dbl 0: float, eps 2^-24; dbl 1: double, eps 2^-53) */
static double rounding_floor_as(const perks_csr *A, const double *b, const double *x, int dbl)
{
    double aa = 0, bb = 0;
    for (int i = 0; i < A->n_rows; i++) {
        const double bi = dbl ? b[i] : (double)(float)b[i];
        double e = 0;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            e += fabs((dbl ? A->val[k] : (double)(float)A->val[k]) * x[A->col[k]]);
        aa += e * e, bb += bi * bi;
    }
    return (dbl ? 1.1102230246251565e-16 : 5.9604644775390625e-08) * sqrt(bb > 0 ? aa / bb : aa);
}

/* the rounding-floor promise: the reported floor is the returned x's (host: computed from that x), and
 * at_floor says whether tol lies within PERKS_CG_FLOOR_MARGIN of it */
static void check_floor(double rep, int at_floor, double host, double tol)
{
    CHECK(fabs(rep - host) <= 1e-6 * host + 1e-300, "reported rounding floor %.6g, host %.6g", rep, host);
    CHECK(at_floor == (tol < PERKS_CG_FLOOR_MARGIN * host), "at_floor %d with tol %.3g and a floor of %.3g", at_floor, tol,
          host);
}

static double true_residual(const perks_csr *A, const double *b, const double *x)
{
    double bound;
    return true_residual_as(A, b, x, 1, &bound);
}

/* ---- device copies ---------------------------------------------------------------------------- */
typedef struct dev_csr {
    int *rp, *ci;
    void *va;
} dev_csr;

static void upload(const perks_csr *A, int dbl, dev_csr *d)
{
    size_t nz = (size_t)(A->nnz ? A->nnz : 1);
    CUDA_OK(cudaMalloc(&d->rp, sizeof(int) * ((size_t)A->n_rows + 1)));
    CUDA_OK(cudaMalloc(&d->ci, sizeof(int) * nz));
    CUDA_OK(cudaMalloc(&d->va, (dbl ? 8 : 4) * nz));
    CUDA_OK(cudaMemcpy(d->rp, A->row_ptr, sizeof(int) * ((size_t)A->n_rows + 1), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d->ci, A->col, sizeof(int) * (size_t)A->nnz, cudaMemcpyHostToDevice));
    if (dbl) CUDA_OK(cudaMemcpy(d->va, A->val, 8 * (size_t)A->nnz, cudaMemcpyHostToDevice));
    else {
        float *f = (float *)malloc(4 * nz);
        for (long long k = 0; k < A->nnz; k++) f[k] = (float)A->val[k];
        CUDA_OK(cudaMemcpy(d->va, f, 4 * (size_t)A->nnz, cudaMemcpyHostToDevice));
        free(f);
    }
}
static void dev_free(dev_csr *d)
{
    cudaFree(d->rp), cudaFree(d->ci), cudaFree(d->va);
    memset(d, 0, sizeof *d);
}

typedef struct run_cfg {
    int dbl, jacobi, cache, blocks, x0, max_iter, expect_cached; /* expect_cached -1: any */
    double tol;
    int path, cluster, barrier; /* perks_cg_opts' (0: auto) */
    int variant;                /* PERKS_CG_CLASSIC (0) or PERKS_CG_CGEAR */
} run_cfg;

typedef struct gpu_out {
    int rc, iterations, cached, blocks, sub, path, barrier, variant, repl;
    double rel, true_rel; /* the recurrence's; the host's ||b - A x|| / ||b|| of the original A, b */
    double rep_true;      /* the solver's reported true residual */
    double as_true, bound; /* the host's of the system as given (A, b rounded to T), its rounding bound */
    double rep_floor, host_floor; /* the solver's rounding floor, the host's from the x returned */
    int at_floor;
} gpu_out;

/* the plan's head is onchip_plan's (the same offsets), read alike through onchip_plan_head */
static_assert(offsetof(perks_cg_plan, path) == offsetof(onchip_plan, path) &&
                  offsetof(perks_cg_plan, why) == offsetof(onchip_plan, why) &&
                  offsetof(perks_cg_plan, steps_per_pass) == offsetof(onchip_plan, steps_per_pass) &&
                  offsetof(perks_cg_plan, passes) == offsetof(onchip_plan, passes) &&
                  offsetof(perks_cg_plan, workspace_bytes) == offsetof(onchip_plan, workspace_bytes) &&
                  offsetof(perks_cg_plan, result) == offsetof(onchip_plan, result),
              "perks_cg_plan begins with onchip_plan's head");

/* the promise of a plan's head (rc what name_plan returned for a): made, it names its path and why,
 * runs no fixed step count, makes 1 launch (or 1 + the refinements, + the mixed fallback's), holds
 * device memory and its result is a.x; refused, it says why and makes no launch */
static void check_head(const perks_cg_plan *p, int rc, const perks_cg_args *a)
{
    const onchip_plan h = onchip_plan_head(p);
    CHECK(h.why == p->why && p->why && p->why[0], "why: '%s' (head '%s')", p->why ? p->why : "(null)",
          h.why ? h.why : "(null)");
    if (rc) {
        CHECK(p->passes == 0 && p->workspace_bytes == 0, "refused (rc %d) with %lld passes, %zu bytes held", rc,
              p->passes, p->workspace_bytes);
        return;
    }
    CHECK(p->path == PERKS_CG_PATH_GRID || p->path == PERKS_CG_PATH_CLUSTER || p->path == PERKS_CG_PATH_STREAM,
          "path %d", p->path);
    CHECK(!strncmp(p->why, p->path == PERKS_CG_PATH_CLUSTER ? "cluster" : p->path == PERKS_CG_PATH_STREAM ? "stream" : "grid",
                   strlen(p->path == PERKS_CG_PATH_CLUSTER ? "cluster" : p->path == PERKS_CG_PATH_STREAM ? "stream" : "grid")) ||
              !strncmp(p->why, "mixed", 5),
          "path %d, why '%s'", p->path, p->why);
    CHECK(p->steps_per_pass == 0 && p->passes >= 1 && p->passes <= 2 + 2 * PERKS_CG_RESTARTS,
          "steps_per_pass %d, passes %lld", p->steps_per_pass, p->passes);
    CHECK(p->workspace_bytes > 0 && p->result == a->x, "workspace %zu bytes, result %p (a.x %p)", p->workspace_bytes,
          p->result, a->x);
}

/* one GPU solve of A x = b; x (double, host) receives the solution; x0 from x when cfg.x0 */
static gpu_out gpu_solve(const perks_csr *A, const double *b, double *x, const run_cfg *c)
{
    gpu_out g;
    memset(&g, 0, sizeof g);
    int n = A->n_rows, es = c->dbl ? 8 : 4;
    dev_csr d;
    upload(A, c->dbl, &d);
    void *db, *dx;
    CUDA_OK(cudaMalloc(&db, (size_t)es * n));
    CUDA_OK(cudaMalloc(&dx, (size_t)es * n));
    void *hb = malloc((size_t)es * n), *hx = malloc((size_t)es * n);
    for (int i = 0; i < n; i++) {
        if (c->dbl) ((double *)hb)[i] = b[i], ((double *)hx)[i] = c->x0 ? x[i] : NAN;
        else ((float *)hb)[i] = (float)b[i], ((float *)hx)[i] = c->x0 ? (float)x[i] : NAN;
    }
    CUDA_OK(cudaMemcpy(db, hb, (size_t)es * n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dx, hx, (size_t)es * n, cudaMemcpyHostToDevice));
    perks_cg_opts o = perks_cg_defaults();
    o.tol = c->tol, o.max_iter = c->max_iter, o.jacobi = c->jacobi, o.cache = c->cache, o.blocks = c->blocks;
    o.x0 = c->x0;
    o.path = c->path, o.cluster = c->cluster, o.barrier = c->barrier, o.variant = c->variant;
    perks_cg_plan p;
    perks_cg_result res = {};
    memset(&res, 0, sizeof res);
    perks_cg_args a = {};
    a.n = n, a.nnz = A->nnz, a.row_ptr = d.rp, a.col = d.ci, a.val = d.va, a.b = db, a.x = dx, a.opts = o;
    a.result = &res;
    int rc = c->dbl ? cg64_plan(&a, &p) : cg32_plan(&a, &p);
    check_head(&p, rc, &a);
    if (rc == 0) {
        g.cached = p.cached, g.blocks = p.blocks, g.sub = p.sub, g.path = p.path, g.barrier = p.barrier;
        g.variant = p.variant;
        rc = c->dbl ? cg64_run(&a, &p, 0) : cg32_run(&a, &p, 0);
        CHECK(res.status == rc, "run returned %d, result.status %d", rc, res.status);
        g.iterations = res.iterations, g.rel = res.rel_residual;
        g.rep_true = res.true_residual, g.repl = res.replacements;
        g.rep_floor = res.rounding_floor, g.at_floor = res.at_floor;
        perks_cg_plan_free(&p);
    }
    g.rc = rc;
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(hx, dx, (size_t)es * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) x[i] = c->dbl ? ((double *)hx)[i] : (double)((float *)hx)[i];
    g.true_rel = true_residual(A, b, x);
    g.as_true = true_residual_as(A, b, x, c->dbl, &g.bound);
    g.host_floor = rounding_floor_as(A, b, x, c->dbl);
    free(hb), free(hx);
    cudaFree(db), cudaFree(dx);
    dev_free(&d);
    return g;
}

static void fill_b(double *b, int n)
{
    for (int i = 0; i < n; i++) b[i] = gpucheck_uniform();
}

/* the label of a compare() case before the solve: what was asked */
static void compare_label0(char *label, size_t cap, const char *name, const perks_csr *A, const run_cfg *c)
{
    snprintf(label, cap, "perks cg %s%s %s n=%d nnz=%lld%s path=%d cluster=%d barrier=%d cache=%d blocks=%d x0=%d",
             c->variant == PERKS_CG_CGEAR ? "chronopoulos-gear " : "", name, c->dbl ? "fp64" : "fp32", A->n_rows, A->nnz,
             c->jacobi ? " jacobi" : "", c->path, c->cluster, c->barrier, c->cache, c->blocks, c->x0);
}

/* One full comparison: a GPU solve against the CPU CG in double (same recurrences) on the same A, b
 * and x0.  The case begins before the GPU work, so that a CUDA error is charged to it; its label is
 * what was asked until the solve returns, then what ran (path, tier, blocks, iterations).
 *
 * CORRECTNESS checks (the answer must be right; a kernel bug fails them):
 *   - the status is the CPU's; the one other outcome allowed is an honest miss of tol where the
 *     reference itself cannot promise tol: EINACCURATE (or ENOCONV after going on past the
 *     recurrence's tol) instead of SUCCESS,
 *       double: only when the CPU's own x misses tol too (its true residual in double > tol), and the
 *               GPU's x then has a true residual within 10x of max(tol, the CPU x's);
 *       float:  the CPU (double) always meets tol, so a float miss is allowed at the float rounding
 *               floor only: the GPU x's true residual within 10x of max(tol, the residual of the CPU
 *               x rounded to float, the float floor eps || |A| |x| || / ||b|| of the CPU x);
 *     so a bug confined to the persistent kernel's SpMV (a cache tier, a block count, a cluster size),
 *     which drives x to a wrong answer that the separate true-residual kernel then honestly reports
 *     as EINACCURATE, fails here;
 *   - iterations within 1 + it_cpu * slack of the CPU's when the statuses agree (and no refinement
 *     added iterations); with an honest miss, at least it_cpu - 1 - it_cpu * slack (the GPU's
 *     recurrence met tol: it cannot have done so much sooner);
 *   - SUCCESS: the host's true residual of the returned x (A, b as given, rounded to float for fp32)
 *     <= tol, the recurrence's <= tol, every entry of x finite;
 *   - ENOCONV in double after the CPU's iterations: the recurrence residual equal to the CPU's
 *     (1e-6 relative) and the true residual of x equal to the CPU x's (1e-6 relative, + rounding);
 *   - the path, cluster size, barrier, variant and cache tier are the ones asked for.
 * HONESTY checks (the solver reports what it achieved, whatever that is):
 *   - the reported true residual equals the host's recomputation from the x returned;
 *   - SUCCESS only with a true residual <= tol, EINACCURATE only with one > tol;
 *   - the reported rounding floor and at_floor are the x's (check_floor).
 * test_accuracy's tables on the SuiteSparse files are honesty checks only. */
static void compare(const char *name, const perks_csr *A, const run_cfg *c, double slack)
{
    int n = A->n_rows;
    double *b = (double *)malloc(sizeof(double) * n), *xg = (double *)malloc(sizeof(double) * n),
           *xc = (double *)malloc(sizeof(double) * n), *xf = (double *)malloc(sizeof(double) * n);
    char label[320];
    compare_label0(label, sizeof label, name, A, c);
    if (!case_part(label)) {
        free(b), free(xg), free(xc), free(xf);
        return;
    }
    fill_b(b, n);
    for (int i = 0; i < n; i++) xg[i] = xc[i] = c->x0 ? gpucheck_uniform() : 0;
    gpu_out g = gpu_solve(A, b, xg, c);
    if (c->path == PERKS_CG_PATH_CLUSTER && g_cc_major < 9) {
        CHECK(g.rc == PERKS_EUNSUPPORTED, "cluster path below sm_90: rc %d (%s), want PERKS_EUNSUPPORTED", g.rc,
              perks_strerror(g.rc));
        char why[96];
        snprintf(why, sizeof why, "the cluster path needs sm_90 (compute capability %d; refused as it must be)", g_cc_major);
        case_skip(why);
        free(b), free(xg), free(xc), free(xf);
        return;
    }
    cpu_cg r = c->variant == PERKS_CG_CGEAR ? cg_cpu_cgear(A, b, xc, c->jacobi, c->tol, c->max_iter, c->x0)
                                            : cg_cpu(A, b, xc, c->jacobi, c->tol, c->max_iter, c->x0);
    snprintf(label, sizeof label, "perks cg %s%s %s n=%d nnz=%lld%s %s%s cache=%d blocks=%d x0=%d (it %d, cpu %d)",
             c->variant == PERKS_CG_CGEAR ? "chronopoulos-gear " : "", name, c->dbl ? "fp64" : "fp32", n, A->nnz,
             c->jacobi ? " jacobi" : "",
             g.path == PERKS_CG_PATH_CLUSTER ? "cluster" : g.path == PERKS_CG_PATH_STREAM ? "stream" : "grid",
             g.path == PERKS_CG_PATH_CLUSTER ? ""
             : g.barrier == PERKS_CG_BAR_FLAG ? " flag"
             : g.barrier == PERKS_CG_BAR_SUM  ? " sumbar"
             : g.barrier == PERKS_CG_BAR_COUNT ? " count"
                                              : " grid.sync",
             g.cached, g.blocks, c->x0, g.iterations, r.iterations);
    if (c->path) CHECK(g.path == c->path, "path %d, asked %d (rc %d)", g.path, c->path, g.rc);
    if (c->cluster && g.path == PERKS_CG_PATH_CLUSTER) CHECK(g.blocks == c->cluster, "cluster of %d, asked %d", g.blocks, c->cluster);
    if (c->barrier && g.path != PERKS_CG_PATH_CLUSTER) CHECK(g.barrier == c->barrier, "barrier %d, asked %d", g.barrier, c->barrier);
    if (g.rc == 0 || g.rc == PERKS_ENOCONV || g.rc == PERKS_EBREAKDOWN)
        CHECK(g.variant == c->variant && (c->variant == PERKS_CG_CLASSIC || g.path == PERKS_CG_PATH_GRID),
              "variant %d on path %d, asked %d", g.variant, g.path, c->variant);
    /* honesty: the reported true residual is the x's; success only below tol; EINACCURATE only above */
    if (g.rc == 0 || g.rc == PERKS_EINACCURATE || g.rc == PERKS_ENOCONV)
        CHECK(fabs(g.rep_true - g.as_true) <= 1e-9 * g.as_true + 2 * g.bound,
              "reported true residual %.6g, host %.6g (bound %.2g)", g.rep_true, g.as_true, g.bound);
    if (g.rc == 0) CHECK(g.as_true <= c->tol * (1 + 1e-9) + 2 * g.bound, "success with a true residual %.3g > tol %.3g",
                         g.as_true, c->tol);
    if (g.rc == PERKS_EINACCURATE) CHECK(g.rep_true > c->tol, "EINACCURATE with a true residual %.3g <= tol", g.rep_true);
    if (g.rc == 0 || g.rc == PERKS_EINACCURATE || g.rc == PERKS_ENOCONV) check_floor(g.rep_floor, g.at_floor, g.host_floor, c->tol);
    /* correctness: the CPU's status, or an honest miss of tol the reference cannot rule out (above) */
    double cbound = 0, ctrue = true_residual_as(A, b, xc, 1, &cbound), fbound = 0, cfl = 0;
    for (int i = 0; i < n; i++) xf[i] = (double)(float)xc[i];
    cfl = true_residual_as(A, b, xf, 0, &fbound); /* the CPU's answer as a float x of the float system */
    const int miss = r.status == PERKS_SUCCESS && (g.rc == PERKS_EINACCURATE || g.rc == PERKS_ENOCONV) && g.rep_true > c->tol;
    const int honest = miss && (c->dbl ? ctrue > c->tol : 1);
    CHECK(g.rc == r.status || honest,
          "status %d (%s), cpu %d; true residual %.3g, the cpu x's %.3g (tol %.3g)", g.rc, perks_strerror(g.rc), r.status,
          g.as_true, ctrue, c->tol);
    if (honest) {
        const double ref = c->dbl ? fmax(c->tol, ctrue) : fmax(c->tol, fmax(cfl, rounding_floor_as(A, b, xc, 0)));
        CHECK(g.as_true <= 10 * ref + 2 * g.bound,
              "%s (honest miss) with a true residual %.3g: more than 10x %.3g (tol; the cpu x's %.3g, as float %.3g; "
              "floor of the x returned %.3g): a wrong x", perks_strerror(g.rc), g.as_true, ref, ctrue, cfl, g.host_floor);
        CHECK(g.iterations + 1 + (int)(r.iterations * slack) >= r.iterations,
              "%s after %d iterations: the cpu's recurrence needed %d", perks_strerror(g.rc), g.iterations, r.iterations);
    }
    if (c->expect_cached >= 0) CHECK(g.cached == c->expect_cached, "cache tier %d, want %d", g.cached, c->expect_cached);
    int dit = abs(g.iterations - r.iterations);
    if (g.rc == r.status && !((c->dbl || c->variant == PERKS_CG_CGEAR) && g.repl > 0)) /* a restart adds iterations */
        CHECK(dit <= 1 + (int)(r.iterations * slack), "iterations %d vs cpu %d", g.iterations, r.iterations);
    size_t bad = 0;
    for (int i = 0; i < n; i++) bad += !isfinite(xg[i]);
    CHECK(bad == 0, "%zu entries of x not finite (not written?)", bad);
    if (g.rc == PERKS_SUCCESS) {
        double tol = c->dbl ? c->tol : fmax(c->tol, 1e-6);
        CHECK(g.rel <= tol * 1.0000001, "recurrence residual %.3g > tol %.3g", g.rel, tol);
        CHECK(g.true_rel <= (c->dbl ? 100 * tol + 1e-13 : 1e-3), "true residual %.3g", g.true_rel);
    }
    if (r.status == PERKS_ENOCONV && g.rc == PERKS_ENOCONV && c->dbl && dit == 0) {
        /* the same iterations in double: the same recurrence residual and the same x */
        CHECK(fabs(g.rel - r.rel) <= 1e-6 * r.rel, "residual after max_iter %.17g vs cpu %.17g", g.rel, r.rel);
        CHECK(fabs(g.true_rel - ctrue) <= 1e-6 * ctrue + 4 * cbound, "true residual after max_iter %.17g vs cpu %.17g",
              g.true_rel, ctrue);
    }
    case_end();
    free(b), free(xg), free(xc), free(xf);
}

/* small systems: solution against the dense Cholesky solution */
static void direct(const char *name, const perks_csr *A, int dbl, int jacobi, int path, int variant)
{
    int n = A->n_rows;
    double *b = (double *)malloc(sizeof(double) * n), *xs = (double *)malloc(sizeof(double) * n),
           *xg = (double *)malloc(sizeof(double) * n);
    char label[200];
    snprintf(label, sizeof label, "perks cg %s %s path %d%s%s matches a direct Cholesky solve (n=%d)", name,
             dbl ? "fp64" : "fp32", path, variant ? " chronopoulos-gear" : "", jacobi ? " jacobi" : "", n);
    if (!case_part(label)) {
        free(b), free(xs), free(xg);
        return;
    }
    fill_b(b, n);
    int chol = cholesky_solve(A, b, xs);
    run_cfg c = {dbl, jacobi, 1, 0, 0, 10 * n + 10, -1, dbl ? 1e-12 : 1e-6, path, 0, 0, variant};
    gpu_out g = gpu_solve(A, b, xg, &c);
    if (path == PERKS_CG_PATH_CLUSTER && g_cc_major < 9) {
        CHECK(g.rc == PERKS_EUNSUPPORTED, "cluster path below sm_90: rc %d (%s)", g.rc, perks_strerror(g.rc));
        case_skip("the cluster path needs sm_90 (refused as it must be)");
        free(b), free(xs), free(xg);
        return;
    }
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) num += (xg[i] - xs[i]) * (xg[i] - xs[i]), den += xs[i] * xs[i];
    snprintf(label, sizeof label, "perks cg %s %s %s%s%s matches a direct Cholesky solve (n=%d, %d iterations)", name,
             dbl ? "fp64" : "fp32", g.path == PERKS_CG_PATH_CLUSTER ? "cluster" : "grid",
             variant ? " chronopoulos-gear" : "", jacobi ? " jacobi" : "", n, g.iterations);
    CHECK(chol == 0, "reference Cholesky failed");
    /* float Chronopoulos-Gear has no residual replacement: its recurrence may meet tol a little
     * before the true residual does, and then it must say so */
    CHECK(g.rc == 0 || (!dbl && variant && g.rc == PERKS_EINACCURATE && g.rep_true > c.tol && g.as_true <= 100 * c.tol),
          "rc %d %s (true residual %.3g)", g.rc, perks_strerror(g.rc), g.rep_true);
    CHECK(g.path == path, "path %d, asked %d", g.path, path);
    CHECK(sqrt(num / den) <= (dbl ? 1e-9 : 1e-3), "||x - x_direct|| / ||x_direct|| = %.3g", sqrt(num / den));
    case_end();
    free(b), free(xs), free(xg);
}

/* whether the n doubles at d still hold the byte pattern 0xA5 (the poison of an output that a call
 * which fails must leave alone) */
static int untouched(const double *d, int n)
{
    unsigned char h[8 * 64];
    if (n > 64) return 0;
    if (cudaMemcpy(h, d, 8 * (size_t)n, cudaMemcpyDeviceToHost) != cudaSuccess) return 0;
    for (int i = 0; i < 8 * n; i++)
        if (h[i] != 0xA5) return 0;
    return 1;
}

static void test_errors(void)
{
    perks_csr A;
    dev_csr d;
    case_begin("perks cg error codes before any launch (x poisoned: a refused call writes nothing; the plan says why)");
    poisson(&A, 8, 8, 1, 0);
    upload(&A, 1, &d);
    perks_cg_plan p;
    perks_cg_result res = {};
    double *db, *dx;
    CUDA_OK(cudaMalloc(&db, 8 * 64));
    CUDA_OK(cudaMalloc(&dx, 8 * 64));
    CUDA_OK(cudaMemset(db, 0, 8 * 64));
    CUDA_OK(cudaMemset(dx, 0xA5, 8 * 64)); /* checked after every call below that may touch x and fails */
    perks_cg_args a0 = {}, a;
    a0.n = 64, a0.nnz = A.nnz, a0.row_ptr = d.rp, a0.col = d.ci, a0.val = d.va, a0.b = db, a0.x = dx;
    a0.opts = perks_cg_defaults(), a0.result = &res;
/* a plan of a (changed by SET) refused with CODE: why named, no passes, x untouched */
#define REFUSED(SET, CODE, what)                                                                          \
    do {                                                                                                  \
        a = a0;                                                                                           \
        SET;                                                                                              \
        const int rc__ = cg64_plan(&a, &p);                                                               \
        CHECK(rc__ == (CODE), "%s: rc %d (%s), want %s", what, rc__, perks_strerror(rc__), #CODE);        \
        check_head(&p, rc__ ? rc__ : -1, &a);                                                             \
        CHECK(untouched(dx, 64), "%s: x written by a refused plan", what);                                \
        if (!rc__) perks_cg_plan_free(&p);                                                                \
    } while (0)
    CHECK(cg64_plan(&a0, NULL) == PERKS_ENULL, "NULL plan");
    CHECK(cg64_plan(NULL, &p) == PERKS_ENULL && p.passes == 0 && p.why && p.why[0], "NULL arguments");
    REFUSED(a.row_ptr = NULL, PERKS_ENULL, "NULL row_ptr");
    REFUSED(a.col = NULL, PERKS_ENULL, "NULL col");
    REFUSED(a.val = NULL, PERKS_ENULL, "NULL val");
    REFUSED(a.b = NULL, PERKS_ENULL, "NULL b");
    REFUSED(a.x = NULL, PERKS_ENULL, "NULL x");
    REFUSED(a.result = NULL, PERKS_ENULL, "NULL result");
    REFUSED(a.n = 0, PERKS_ESIZE, "n = 0");
    REFUSED(a.nnz = -1, PERKS_ESIZE, "nnz < 0");
    REFUSED(a.nnz = A.nnz + 1, PERKS_ESIZE, "row_ptr[n] != nnz");
    REFUSED(a.opts.tol = -1, PERKS_ESIZE, "tol < 0");
    REFUSED(a.opts.tol = NAN, PERKS_ESIZE, "tol NaN");
    REFUSED(a.opts.max_iter = -1, PERKS_ESIZE, "max_iter < 0");
    REFUSED(a.opts.blocks = -2, PERKS_ESIZE, "blocks < 0");
    {
        const perks__cg_kset ks = {(const void *)cg64_kernel, (const void *)cg64_kernel1, (const void *)cg64_ckernel,
                                   (const void *)cg64_skernel, 8, 256, (const void *)cg64_pkernel,
                                   (const void *)cg64_fkernel};
        perks__cg_kset k = ks;
        k.block = 48;
        CHECK(perks__cg_plan_make(&p, &k, &a0, 1) == PERKS_ESIZE && p.passes == 0, "block 48");
        k = ks, k.cluster = NULL;
        CHECK(perks__cg_plan_make(&p, &k, &a0, 1) == PERKS_ENULL && p.passes == 0, "NULL cluster kernel");
        k = ks, k.cgear = NULL;
        CHECK(perks__cg_plan_make(&p, &k, &a0, 1) == PERKS_ENULL && p.passes == 0, "NULL Chronopoulos-Gear kernel");
        k = ks, k.stream = NULL;
        CHECK(perks__cg_plan_make(&p, &k, &a0, 1) == PERKS_ENULL && p.passes == 0, "NULL stream kernel");
        CHECK(untouched(dx, 64), "x written by a refused plan");
    }
    REFUSED(a.opts.path = 4, PERKS_ESIZE, "path 4");
    REFUSED((a.opts.path = PERKS_CG_PATH_STREAM, a.opts.variant = PERKS_CG_CGEAR), PERKS_ESIZE,
            "Chronopoulos-Gear, stream path");
    REFUSED(a.opts.variant = 2, PERKS_ESIZE, "variant 2");
    REFUSED(a.opts.variant = -1, PERKS_ESIZE, "variant -1");
    REFUSED((a.opts.variant = PERKS_CG_CGEAR, a.opts.path = PERKS_CG_PATH_CLUSTER), PERKS_ESIZE,
            "Chronopoulos-Gear on the cluster");
    REFUSED((a.opts.variant = PERKS_CG_CGEAR, a.opts.barrier = PERKS_CG_BAR_FLAG), PERKS_ESIZE,
            "Chronopoulos-Gear, flag barrier");
    REFUSED((a.opts.variant = PERKS_CG_CGEAR, a.opts.sum_barrier = 1), PERKS_ESIZE, "Chronopoulos-Gear, sum barrier");
    a = a0;
    a.opts.variant = PERKS_CG_CGEAR;
    CHECK(cg64_plan(&a, &p) == 0 && p.path == PERKS_CG_PATH_GRID && p.variant == PERKS_CG_CGEAR &&
              p.kernel == (const void *)cg64_kernel1 && p.passes == 1 + PERKS_CG_RESTARTS,
          "Chronopoulos-Gear, auto: the grid kernel1, the launch and its refinements");
    check_head(&p, 0, &a);
    perks_cg_plan_free(&p);
    a = a0;
    a.opts.path = PERKS_CG_PATH_STREAM;
    CHECK(cg64_plan(&a, &p) == 0 && p.path == PERKS_CG_PATH_STREAM && p.kernel == (const void *)cg64_skernel &&
              p.cached == 0 && p.sell_nnz >= A.nnz && p.workspace_bytes > (size_t)12 * p.sell_nnz,
          "path 3: the stream kernel, nothing cached, the sliced-ELL copy held");
    check_head(&p, 0, &a);
    perks_cg_plan_free(&p);
    CHECK(p.workspace_bytes == 0 && p.passes == 0 && p.ws == NULL && p.sell == NULL, "a freed plan holds nothing");
    REFUSED(a.opts.path = -1, PERKS_ESIZE, "path -1");
    REFUSED(a.opts.cluster = 17, PERKS_ESIZE, "cluster 17");
    REFUSED(a.opts.cluster = -1, PERKS_ESIZE, "cluster -1");
    REFUSED(a.opts.barrier = 5, PERKS_ESIZE, "barrier 5");
    {
        /* the flag barrier reads 2 slots per thread: more than 2 x 256 blocks is refused when asked for */
        perks_csr L;
        dev_csr dl;
        double *ldb, *ldx;
        poisson(&L, 100, 100, 1, 0);
        upload(&L, 1, &dl);
        CUDA_OK(cudaMalloc(&ldb, 8 * (size_t)400 * 400));
        CUDA_OK(cudaMalloc(&ldx, 8 * (size_t)400 * 400));
        a = a0;
        a.n = L.n_rows, a.nnz = L.nnz, a.row_ptr = dl.rp, a.col = dl.ci, a.val = dl.va, a.b = ldb, a.x = ldx;
        a.opts.path = PERKS_CG_PATH_GRID, a.opts.barrier = PERKS_CG_BAR_FLAG, a.opts.blocks = 600;
        int rc = cg64_plan(&a, &p);
        CHECK(rc == PERKS_ESIZE || (rc == 0 && p.blocks <= 512), "flag barrier over %d blocks: rc %d", p.blocks, rc);
        check_head(&p, rc, &a);
        if (rc == 0) perks_cg_plan_free(&p);
        /* the cluster path asked for a system too large for a cluster's shared memory */
        perks_csr_free(&L);
        dev_free(&dl);
        poisson(&L, 400, 400, 1, 0);
        upload(&L, 1, &dl);
        a = a0;
        a.n = L.n_rows, a.nnz = L.nnz, a.row_ptr = dl.rp, a.col = dl.ci, a.val = dl.va, a.b = ldb, a.x = ldx;
        a.opts.path = PERKS_CG_PATH_CLUSTER;
        rc = cg64_plan(&a, &p);
        CHECK(rc == (g_cc_major >= 9 ? PERKS_ERESOURCE : PERKS_EUNSUPPORTED), "cluster path, 160000 rows: rc %d (%s)", rc,
              perks_strerror(rc));
        check_head(&p, rc, &a);
        CHECK(strstr(p.why, "cluster") != NULL, "the refusal names the cluster: '%s'", p.why);
        /* auto: the same system goes to the grid */
        a.opts.path = PERKS_CG_PATH_AUTO;
        rc = cg64_plan(&a, &p);
        CHECK(rc == 0 && p.path == PERKS_CG_PATH_GRID, "auto, 160000 rows: rc %d, path %d", rc, p.path);
        check_head(&p, rc, &a);
        if (rc == 0) perks_cg_plan_free(&p);
        perks_csr_free(&L);
        dev_free(&dl);
        cudaFree(ldb), cudaFree(ldx);
    }
    CHECK(cg64_plan(&a0, &p) == 0, "a good plan");
    check_head(&p, 0, &a0);
    a = a0;
    CHECK(cg64_run(NULL, &p, 0) == PERKS_ENULL && cg64_run(&a, NULL, 0) == PERKS_ENULL, "run NULL");
    a.b = NULL;
    CHECK(cg64_run(&a, &p, 0) == PERKS_ENULL && res.status == PERKS_ENULL, "run NULL b");
    a = a0, a.x = NULL;
    CHECK(cg64_run(&a, &p, 0) == PERKS_ENULL, "run NULL x");
    a = a0, a.result = NULL;
    CHECK(cg64_run(&a, &p, 0) == PERKS_ENULL, "run NULL result");
    CHECK(untouched(dx, 64), "x written by a run refused for a NULL argument");
    perks_cg_plan_free(&p);
    CHECK(cg64_run(&a0, &p, 0) == PERKS_ESIZE && res.status == PERKS_ESIZE, "freed plan");
    CHECK(untouched(dx, 64), "x written by a run of a freed plan");
    perks_cg_plan_free(NULL);
    a = a0, a.result = NULL;
    CHECK(cg64_launch(&a, 0) == PERKS_ENULL, "launch NULL result");
    CHECK(cg64_launch(NULL, 0) == PERKS_ENULL, "launch NULL arguments");
    CHECK(untouched(dx, 64), "x written by a launch refused for a NULL argument");
    a = a0, a.opts.tol = -1;
    CHECK(cg64_launch(&a, 0) == PERKS_ESIZE && res.status == PERKS_ESIZE, "launch tol < 0");
    CHECK(untouched(dx, 64), "x written by a launch refused for tol < 0");
    REFUSED(a.opts.replace = -2, PERKS_ESIZE, "replace -2");
    REFUSED((a.opts.replace = 10, a.opts.variant = PERKS_CG_CGEAR), PERKS_ESIZE, "replacement with Chronopoulos-Gear");
    REFUSED(a.opts.replace_delta = 1, PERKS_ESIZE, "replace_delta 1");
    REFUSED(a.opts.replace_delta = -0.5, PERKS_ESIZE, "replace_delta -0.5");
    REFUSED((a.opts.replace_delta = 0.1, a.opts.variant = PERKS_CG_CGEAR), PERKS_ESIZE,
            "reliable updates with Chronopoulos-Gear");
#undef REFUSED
    { /* T perks_cg_mixed: refused by name_plan (why named, no passes), by name_launch (x untouched) */
        static const char *what[4] = {"mixed Chronopoulos-Gear", "mixed 3", "mixed NULL result", "mixed cluster path"};
        for (int k = 0; k < 4; k++) {
            a = a0;
            if (k == 0) a.opts.variant = PERKS_CG_CGEAR;
            if (k == 1) a.opts.mixed = 3;
            if (k == 2) a.result = NULL;
            if (k == 3) a.opts.path = PERKS_CG_PATH_CLUSTER;
            const int want = k == 2 ? PERKS_ENULL : PERKS_ESIZE, rc = cgm_plan(&a, &p);
            CHECK(rc == want, "%s: plan rc %d (%s)", what[k], rc, perks_strerror(rc));
            check_head(&p, rc ? rc : -1, &a);
            CHECK(cgm_launch(&a, 0) == want, "%s: launch", what[k]);
            CHECK(untouched(dx, 64), "%s: x written by a refused mixed solve", what[k]);
        }
    }
    { /* a row without entries (row 1 of 3): refused by the plan, not a breakdown */
        int hrp[4] = {0, 1, 1, 2}, *erp, rc;
        CUDA_OK(cudaMalloc(&erp, sizeof hrp));
        CUDA_OK(cudaMemcpy(erp, hrp, sizeof hrp, cudaMemcpyHostToDevice));
        a = a0;
        a.n = 3, a.nnz = 2, a.row_ptr = erp;
        rc = cg64_plan(&a, &p);
        CHECK(rc == PERKS_EEMPTYROW, "empty row: rc %d (%s)", rc, perks_strerror(rc));
        check_head(&p, rc, &a);
        hrp[2] = 0; /* row_ptr going down */
        CUDA_OK(cudaMemcpy(erp, hrp, sizeof hrp, cudaMemcpyHostToDevice));
        rc = cg64_plan(&a, &p);
        CHECK(rc == PERKS_ESIZE, "row_ptr going down: rc %d (%s)", rc, perks_strerror(rc));
        check_head(&p, rc, &a);
        cudaFree(erp);
    }
    CHECK(untouched(dx, 64), "x written by a refused plan");
    CHECK(strstr(perks_strerror(PERKS_EBREAKDOWN), "SPD") != NULL, "strerror");
    CHECK(strstr(perks_strerror(PERKS_EINACCURATE), "true residual") != NULL, "strerror EINACCURATE");
    CHECK(strstr(perks_strerror(PERKS_EUNSUPPORTED), "the plan's why says") != NULL, "strerror EUNSUPPORTED");
    case_end();
    cudaFree(db), cudaFree(dx);
    dev_free(&d);
    perks_csr_free(&A);
}

/* one run of plan p (made from a's system) into x (host), a's b and x; returns the result, whose
 * true residual is checked against the host's of the x returned */
static perks_cg_result run_plan(const perks_cg_args *a0, const perks_csr *A, const perks_cg_plan *p, double *x)
{
    perks_cg_result r = {};
    perks_cg_args a = *a0;
    a.result = &r;
    const int n = a.n;
    CUDA_OK(cudaMemset(a.x, 0xff, 8 * (size_t)n)); /* poison */
    if (cg64_run(&a, p, 0) != r.status) r.status = -1;
    CUDA_OK(cudaMemcpy(x, p->result, 8 * (size_t)n, cudaMemcpyDeviceToHost)); /* where the plan says */
    if (r.status == 0 || r.status == PERKS_EINACCURATE || r.status == PERKS_ENOCONV) {
        double bound = 0, *b = (double *)malloc(8 * (size_t)n);
        CUDA_OK(cudaMemcpy(b, a.b, 8 * (size_t)n, cudaMemcpyDeviceToHost));
        const double tr = true_residual_as(A, b, x, 1, &bound);
        CHECK(fabs(r.true_residual - tr) <= 1e-9 * tr + 2 * bound, "reported true residual %.6g, host %.6g",
              r.true_residual, tr);
        free(b);
    }
    return r;
}

/* a plan of a with the options o (a.opts set) */
static int plan64(perks_cg_args *a, const perks_cg_opts *o, perks_cg_plan *p)
{
    a->opts = *o;
    const int rc = cg64_plan(a, p);
    check_head(p, rc, a);
    return rc;
}

/* the same solve twice gives the same bits (deterministic reductions), on every path and barrier;
 * the sum barrier gives the bits of grid.sync; the flag barrier and the cluster at many block
 * counts, each plan run twice (the barrier words are reset per run) */
static void test_repeat(int light)
{
    perks_csr A;
    /* 3600 rows: one cluster block holds them; --light (racecheck: its time grows with the iterations) 100 */
    int side = light ? 10 : 60, n = side * side;
    poisson(&A, side, side, 1, 0);
    dev_csr d;
    upload(&A, 1, &d);
    double *b = (double *)malloc(8 * n), *x1 = (double *)malloc(8 * n), *x2 = (double *)malloc(8 * n),
           *xref = (double *)malloc(8 * n), *db, *dx;
    fill_b(b, n);
    CUDA_OK(cudaMalloc(&db, 8 * n));
    CUDA_OK(cudaMalloc(&dx, 8 * n));
    CUDA_OK(cudaMemcpy(db, b, 8 * n, cudaMemcpyHostToDevice));
    perks_cg_opts o;
    perks_cg_plan p;
    perks_cg_result rplan = {}; /* the plans' a.result (each run_plan names its own) */
    perks_cg_args ar = {};
    ar.n = n, ar.nnz = A.nnz, ar.row_ptr = d.rp, ar.col = d.ci, ar.val = d.va, ar.b = db, ar.x = dx, ar.result = &rplan;
    perks_cg_result r1 = {}, r2 = {}, rref = {};
    int have_ref = 0; /* rref, xref: the grid.sync run; made by the first case, or (another --part ran it) by the
                       * first case that needs it, inside that case */
    auto repeat_ref = [&]() {
        if (have_ref) return;
        perks_cg_opts og = perks_cg_defaults();
        og.path = PERKS_CG_PATH_GRID, og.barrier = PERKS_CG_BAR_GRID;
        CHECK(plan64(&ar, &og, &p) == 0, "plan (the grid.sync reference)");
        rref = run_plan(&ar, &A, &p, xref), have_ref = 1;
        perks_cg_plan_free(&p);
    };
    static const char *what[] = {"grid.sync", "the flag barrier", "the cluster path", "the default (auto)",
                                 "Chronopoulos-Gear"};
    for (int v = 0; v < 5; v++) {
        char label[200];
        if (light && (v == 1 || v == 3)) continue; /* --light: grid.sync, the cluster, Chronopoulos-Gear */
        snprintf(label, sizeof label, "perks cg: %s, a plan run twice gives bitwise equal x and iterations", what[v]);
        if (v == 2 && g_cc_major < 9) {
            check_skip(label, "the cluster path needs sm_90");
            continue;
        }
        o = perks_cg_defaults();
        if (v == 0) o.path = PERKS_CG_PATH_GRID, o.barrier = PERKS_CG_BAR_GRID;
        if (v == 1) o.path = PERKS_CG_PATH_GRID, o.barrier = PERKS_CG_BAR_FLAG;
        if (v == 2) o.path = PERKS_CG_PATH_CLUSTER;
        if (v == 4) o.variant = PERKS_CG_CGEAR;
        if (!case_part(label)) continue;
        if (v > 0) repeat_ref();
        CHECK(plan64(&ar, &o, &p) == 0, "plan");
        r1 = run_plan(&ar, &A, &p, x1);
        r2 = run_plan(&ar, &A, &p, x2);
        CHECK(r1.status == 0 && r1.iterations == r2.iterations && r1.rel_residual == r2.rel_residual,
              "results differ: %d %d it, %g %g", r1.iterations, r2.iterations, r1.rel_residual, r2.rel_residual);
        CHECK(memcmp(x1, x2, 8 * n) == 0, "x differs between runs");
        {   /* the anchor of every comparison here: the x itself meets tol on the host */
            double bound = 0;
            const double tr = true_residual_as(&A, b, x1, 1, &bound);
            CHECK(tr <= o.tol * (1 + 1e-9) + 2 * bound, "host true residual %.3g of the x returned > tol %.3g", tr, o.tol);
        }
        if (v == 0) rref = r1, memcpy(xref, x1, 8 * n), have_ref = 1;
        else CHECK(abs(r1.iterations - rref.iterations) <= 2 + rref.iterations / 50, "%d iterations, grid.sync %d",
                   r1.iterations, rref.iterations);
        perks_cg_plan_free(&p);
        case_end();
    }
    /* the sum and count barriers add the partials in grid.sync's order: the same bits; the count
     * barrier also for Chronopoulos-Gear (against its grid.sync run), each plan run twice */
    for (int v = 0; v < 3; v++) {
        perks_cg_result rg = rref;
        if (light && v == 0) continue; /* --light: the count barriers only */
        if (!case_part(v == 0   ? "perks cg: sum_barrier = 1 (perks_sum_barrier) gives the bits of grid.sync"
                       : v == 1 ? "perks cg: the count barrier (perks_count_sum) gives the bits of grid.sync, twice"
                                : "perks cg: Chronopoulos-Gear, the count barrier gives the bits of grid.sync, twice"))
            continue;
        repeat_ref();
        rg = rref;
        o = perks_cg_defaults();
        if (v == 2) { /* the grid.sync reference of Chronopoulos-Gear */
            o.variant = PERKS_CG_CGEAR;
            CHECK(plan64(&ar, &o, &p) == 0, "plan");
            rg = run_plan(&ar, &A, &p, x2);
            perks_cg_plan_free(&p);
        }
        if (v == 0) o.sum_barrier = 1;
        else o.barrier = PERKS_CG_BAR_COUNT, o.path = PERKS_CG_PATH_GRID;
        CHECK(plan64(&ar, &o, &p) == 0, "plan");
        CHECK(p.path == PERKS_CG_PATH_GRID && p.barrier == (v ? PERKS_CG_BAR_COUNT : PERKS_CG_BAR_SUM),
              "path %d barrier %d", p.path, p.barrier);
        for (int rep = 0; rep < (v ? 2 : 1); rep++) {
            r1 = run_plan(&ar, &A, &p, x1);
            CHECK(r1.status == 0 && r1.iterations == rg.iterations && r1.rel_residual == rg.rel_residual,
                  "run %d: %d iterations (%d), residual %g (%g)", rep, r1.iterations, rg.iterations, r1.rel_residual,
                  rg.rel_residual);
            CHECK(memcmp(x1, v == 2 ? x2 : xref, 8 * n) == 0, "run %d: x differs from grid.sync", rep);
        }
        perks_cg_plan_free(&p);
        case_end();
    }
    /* every barrier at odd block counts, and the cluster at every size; two runs per plan */
    for (int v = 0; v < 5; v++) {
        static const int gl[] = {3, 61, 1, 2, 4, 5}, cl[] = {1, 3, 16, 2, 4, 5, 8};
        /* --light: the count barriers at 3 and 61 blocks only */
        const int *list = v != 2 ? gl : cl, cnt = v != 2 ? (light && v >= 3 ? 2 : 6) : light ? 2 : 7;
        if (light && v < 2) continue; /* --light: the cluster and the count barriers only */
        const char *what3 = v == 0 ? "perks cg: perks_sum_barrier with the block counts 1..5 and 61, twice per plan"
                            : v == 1 ? "perks cg: the flag barrier with the block counts 1..5 and 61, twice per plan"
                            : v == 2 ? "perks cg: clusters of 1, 3 (and 16, 2, 4, 5, 8 without --light) blocks, twice per plan"
                            : v == 3 ? "perks cg: the count barrier with the block counts 3, 61 (and 1, 2, 4, 5), twice per plan"
                                     : "perks cg: Chronopoulos-Gear, count barrier, block counts 3, 61 (and 1, 2, 4, 5), twice per plan";
        if (v == 2 && g_cc_major < 9) {
            check_skip(what3, "the cluster path needs sm_90");
            continue;
        }
        if (!case_part(what3)) continue;
        repeat_ref();
        for (int g = 0; g < cnt; g++) {
            o = perks_cg_defaults();
            if (v != 2) o.path = PERKS_CG_PATH_GRID, o.blocks = list[g];
            o.barrier = v == 0 ? PERKS_CG_BAR_SUM : v == 1 ? PERKS_CG_BAR_FLAG : v >= 3 ? PERKS_CG_BAR_COUNT : 0;
            if (v == 4) o.variant = PERKS_CG_CGEAR;
            if (v == 2) o.path = PERKS_CG_PATH_CLUSTER, o.cluster = list[g];
            CHECK(plan64(&ar, &o, &p) == 0, "plan %d", list[g]);
            CHECK(p.blocks == list[g], "%d blocks, asked %d", p.blocks, list[g]);
            r1 = run_plan(&ar, &A, &p, x1);
            r2 = run_plan(&ar, &A, &p, x2);
            CHECK(r2.status == 0 && abs(r2.iterations - rref.iterations) <= 2 + rref.iterations / 50,
                  "%d blocks: status %d, %d iterations (%d)", list[g], r2.status, r2.iterations, rref.iterations);
            CHECK(r1.iterations == r2.iterations && memcmp(x1, x2, 8 * n) == 0, "%d blocks: the second run differs",
                  list[g]);
            perks_cg_plan_free(&p);
        }
        case_end();
    }
    cudaFree(db), cudaFree(dx);
    free(b), free(x1), free(x2), free(xref);
    dev_free(&d);
    perks_csr_free(&A);
}

/* one plan, many solves: two right-hand sides, then the first again, with one plan of cg64 (auto,
 * the stream path) or of cgm (float forced, auto: the double solver alone on a system this small);
 * each answer where p.result says, its true residual the host's and <= tol, the third the first's */
#define N_REUSE 4
static void test_reuse(int light)
{
    typedef int (*plan_fn)(const perks_cg_args *, perks_cg_plan *);
    typedef int (*run_fn)(const perks_cg_args *, const perks_cg_plan *, cudaStream_t);
    static const char *what[N_REUSE] = {"cg64 auto", "cg64 stream path", "mixed, float forced", "mixed auto"};
    const plan_fn plans[N_REUSE] = {cg64_plan, cg64_plan, cgm_plan, cgm_plan};
    const run_fn runs[N_REUSE] = {cg64_run, cg64_run, cgm_run, cgm_run};
    perks_csr A;
    const int side = light ? 10 : 40, n = side * side; /* --light: 100 rows, as test_repeat */
    poisson(&A, side, side, 1, 0);
    dev_csr d;
    upload(&A, 1, &d);
    double *b = (double *)malloc(8 * 2 * (size_t)n), *x = (double *)malloc(8 * 3 * (size_t)n), *db, *dx;
    fill_b(b, 2 * n);
    CUDA_OK(cudaMalloc(&db, 8 * 2 * (size_t)n));
    CUDA_OK(cudaMalloc(&dx, 8 * (size_t)n));
    CUDA_OK(cudaMemcpy(db, b, 8 * 2 * (size_t)n, cudaMemcpyHostToDevice));
    for (int v = 0; v < N_REUSE; v++) {
        char label[200];
        snprintf(label, sizeof label, "perks cg: one plan (%s), two right-hand sides and the first again", what[v]);
        if (!case_part(label)) continue;
        perks_cg_result r[3] = {};
        perks_cg_args a = {};
        a.n = n, a.nnz = A.nnz, a.row_ptr = d.rp, a.col = d.ci, a.val = d.va, a.b = db, a.x = dx;
        a.opts = perks_cg_defaults(), a.opts.tol = 1e-10, a.result = &r[0];
        if (v == 1) a.opts.path = PERKS_CG_PATH_STREAM;
        if (v == 2) a.opts.mixed = 1;
        perks_cg_plan p;
        int rc = plans[v](&a, &p);
        CHECK(rc == 0, "plan: %s (%s)", perks_strerror(rc), p.why);
        check_head(&p, rc, &a);
        if (v == 1) CHECK(p.path == PERKS_CG_PATH_STREAM && p.sell != NULL, "stream path %d", p.path);
        if (v == 2) CHECK(p.mixed == PERKS_CG_RAN_MIXED && p.dbl != NULL && p.passes == 1 + p.dbl->passes, "mixed %d", p.mixed);
        if (v == 3) CHECK(p.mixed == PERKS_CG_RAN_DOUBLE && p.dbl == NULL, "mixed %d (the double solver alone)", p.mixed);
        for (int k = 0; k < 3 && rc == 0; k++) {
            const int rhs = k == 1;
            double bound = 0, *xk = x + (size_t)k * n;
            a.b = db + (size_t)rhs * n, a.result = &r[k];
            CUDA_OK(cudaMemset(dx, 0xff, 8 * (size_t)n)); /* NaN: every solve starts from x = 0 */
            const int rk = runs[v](&a, &p, 0);
            CUDA_OK(cudaMemcpy(xk, p.result, 8 * (size_t)n, cudaMemcpyDeviceToHost));
            const double tr = true_residual_as(&A, b + (size_t)rhs * n, xk, 1, &bound);
            CHECK(rk == PERKS_SUCCESS && rk == r[k].status, "solve %d: %s (status %d)", k, perks_strerror(rk), r[k].status);
            CHECK(fabs(r[k].true_residual - tr) <= 1e-9 * tr + 2 * bound, "solve %d: reported true residual %.6g, host %.6g",
                  k, r[k].true_residual, tr);
            CHECK(tr <= a.opts.tol * (1 + 1e-9) + 2 * bound, "solve %d: host true residual %.3g > tol", k, tr);
            if (v == 2) CHECK(r[k].ran == PERKS_CG_RAN_MIXED || r[k].ran == PERKS_CG_RAN_FALLBACK, "solve %d ran %d", k, r[k].ran);
            if (v == 3) CHECK(r[k].ran == PERKS_CG_RAN_DOUBLE, "solve %d ran %d", k, r[k].ran);
        }
        if (rc == 0) {
            CHECK(memcmp(x, x + n, 8 * (size_t)n) != 0, "the two right-hand sides gave the same x");
            CHECK(r[2].iterations == r[0].iterations && memcmp(x, x + 2 * (size_t)n, 8 * (size_t)n) == 0,
                  "the first right-hand side again: %d iterations (%d), x %s", r[2].iterations, r[0].iterations,
                  memcmp(x, x + 2 * (size_t)n, 8 * (size_t)n) ? "differs" : "the same");
        }
        perks_cg_plan_free(&p);
        case_end();
    }
    cudaFree(db), cudaFree(dx);
    free(b), free(x);
    dev_free(&d);
    perks_csr_free(&A);
}

/* where the SuiteSparse files are: ../shared/data/mtx, or .data/mtx (a copy inside the tree) */
static const char *data_dir(void)
{
    static const char *dirs[] = {"../shared/data/mtx", ".data/mtx"};
    for (int k = 0; k < 2; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/bcsstk01.mtx", dirs[k]);
        FILE *f = fopen(path, "r");
        if (f) return fclose(f), dirs[k];
    }
    return NULL;
}

static const char *const g_files[] = {"bcsstk01", "494_bus",  "bcsstk05", "1138_bus", "Trefethen_2000", "bcsstk09",
                                      "bcsstk21", "crystm01", "msc04515", "bcsstk13", "bcsstk38",       "bcsstk25"};
#define N_FILES ((int)(sizeof g_files / sizeof *g_files))
/* test_files: the files it reads (--light: the first), and the compare() cases of file k: auto, the
 * stream path, and Chronopoulos-Gear on the grid for the first 9 (the three slow ill-conditioned
 * files left out; not under --light) */
static int files_count(int light) { return light ? 1 : N_FILES; }
static int files_compares(int k, int light) { return 2 + (!light && k < 9); }

static void test_files(int light)
{
    const char *dir = data_dir();
    char path[512], label[300];
    for (int k = 0; k < files_count(light); k++) {
        perks_csr A;
        perks_mtx_error e;
        memset(&e, 0, sizeof e);
        const int nc = files_compares(k, light);
        static const char *what[] = {"auto", "stream path", "chronopoulos-gear"};
        snprintf(label, sizeof label, "perks cg SuiteSparse %s: read", g_files[k]);
        snprintf(path, sizeof path, "%s/%s.mtx", dir ? dir : "(none)", g_files[k]);
        int rc = dir ? perks_mtx_read_path(path, &A, &e) : PERKS_EFORMAT;
        if (!dir || (rc == PERKS_EFORMAT && e.line == 0)) { /* the data is not here: every case of the file skipped */
            const char *why = dir ? "file not found" : "../shared/data/mtx and .data/mtx not found";
            check_skip(label, why);
            for (int v = 0; v < nc; v++) {
                snprintf(label, sizeof label, "perks cg SuiteSparse %s: %s against the CPU CG", g_files[k], what[v]);
                check_skip(label, why);
            }
            continue;
        }
        case_begin(label);
        CHECK(rc == 0, "%s: %s line %ld: %s", path, perks_strerror(rc), e.line, e.message);
        case_end();
        if (rc) {
            for (int v = 0; v < nc; v++) {
                snprintf(label, sizeof label, "perks cg SuiteSparse %s: %s against the CPU CG", g_files[k], what[v]);
                check_skip(label, "the file did not read (failed above)");
            }
            continue;
        }
        run_cfg c = {1, 1, 1, 0, 0, 40000, -1, 1e-8, 0, 0, 0, 0}; /* auto: the cluster for the small files */
        compare(g_files[k], &A, &c, 0.1);
        c.path = PERKS_CG_PATH_STREAM; /* the sliced-ELL copy of the file's matrix (rows of 1 to 100+ entries) */
        compare(g_files[k], &A, &c, 0.1);
        c.path = 0;
        if (nc > 2) {
            c.variant = PERKS_CG_CGEAR;
            compare(g_files[k], &A, &c, 0.1);
        }
        perks_csr_free(&A);
    }
}

/* ---- accuracy: every file and generated systems, float and double, with and without Jacobi, both
 * variants; the promise of each status checked against the host's residual of the x returned ---- */

/* the systems of the accuracy and mixed lists: the SuiteSparse files (none under --light: racecheck),
 * then the generated Poisson systems, 2 (3 without --light, the last of 490 000 rows: it streams, the
 * mixed test's alone) */
static const char *const acc_files[] = {"bcsstk01", "494_bus", "bcsstk05",  "1138_bus", "Trefethen_2000", "bcsstk09",
                                        "bcsstk21", "crystm01", "msc04515", "bcsstk13", "bcsstk25",       "bcsstk38"};
#define N_ACC_FILES ((int)(sizeof acc_files / sizeof *acc_files))
static int acc_count(int light) { return (light ? 0 : N_ACC_FILES) + (light ? 2 : 3); }
static int acc_streamed(int k, int light) { return !light && k == acc_count(light) - 1; }
static int acc_variants(int light) { return light ? 4 : 8; } /* test_accuracy: fp32/fp64 x Jacobi (x both variants) */
static int mixed_systems(int light) { return light ? 1 : acc_count(light); } /* --light: poisson2d_10 alone */
static int mixed_modes(int light) { return light ? 2 : 3; }

/* system k (< acc_count) of the lists, its name in name: 1 read or made; 0 its file is not here
 * (why says so: a counted skip); 2 its file did not read (why says how: a failure) */
static int acc_system(int k, int light, perks_csr *A, char *name, size_t cap, char *why, size_t wcap)
{
    const int nf = light ? 0 : N_ACC_FILES;
    if (k < nf) {
        const char *dir = data_dir();
        char path[512];
        perks_mtx_error e;
        snprintf(name, cap, "%s", acc_files[k]);
        if (!dir) return snprintf(why, wcap, "../shared/data/mtx and .data/mtx not found"), 0;
        snprintf(path, sizeof path, "%s/%s.mtx", dir, acc_files[k]);
        const int rc = perks_mtx_read_path(path, A, &e);
        if (rc == PERKS_EFORMAT && e.line == 0) return snprintf(why, wcap, "%.300s not found", path), 0;
        if (rc) return snprintf(why, wcap, "%.300s: %s line %ld: %.160s", path, perks_strerror(rc), e.line, e.message), 2;
        return 1;
    }
    k -= nf;
    /* --light (racecheck's time grows with rows x iterations): 10^2 and 6^3 */
    const int s2 = light ? 10 : 100, s3 = light ? 6 : 24;
    if (k == 0) return snprintf(name, cap, "poisson2d_%d", s2), poisson(A, s2, s2, 1, 0), 1;
    if (k == 1) return snprintf(name, cap, "poisson3d_%d", s3), poisson(A, s3, s3, s3, 0), 1;
    return snprintf(name, cap, "poisson2d_700"), poisson(A, 700, 700, 1, 0), 1;
}

/* a system that could not be had: each of its cases skipped (not here) or failed (did not read) */
static void acc_absent(int got, const char *label, const char *why)
{
    if (got == 0) {
        check_skip(label, why);
        return;
    }
    case_begin(label);
    CHECK(0, "%s", why);
    case_end();
}

/* honesty only: whatever each solve achieves, it says so (the correctness of these kernels is
 * compare()'s, on the same files in test_files) */
static void test_accuracy(int light)
{
    int above = 0, cases = 0, others = 0; /* others: the solves of another --part */
    for (int k = 0; k < acc_count(light); k++) {
        perks_csr A;
        char name[64], label[256], why[600];
        if (acc_streamed(k, light)) continue; /* the streamed system: the mixed test's */
        const int got = acc_system(k, light, &A, name, sizeof name, why, sizeof why);
        if (got != 1) {
            for (int v = 0; v < acc_variants(light); v++) {
                snprintf(label, sizeof label, "perks cg accuracy %s variant %d", name, v);
                acc_absent(got, label, why);
            }
            continue;
        }
        double *b = (double *)malloc(sizeof(double) * A.n_rows), *x = (double *)malloc(sizeof(double) * A.n_rows);
        for (int v = 0; v < acc_variants(light); v++) {
            const int dbl = v & 1, jac = (v >> 1) & 1, var = v >> 2;
            run_cfg c = {dbl, jac, 1, 0, 0, 20000, -1, dbl ? 1e-8 : 1e-5, 0, 0, 0, var};
            snprintf(label, sizeof label, "perks cg accuracy %s %s%s%s", name, dbl ? "fp64" : "fp32", jac ? " jacobi" : "",
                     var ? " chronopoulos-gear" : "");
            if (!case_part(label)) {
                others++;
                continue;
            }
            fill_b(b, A.n_rows);
            gpu_out g = gpu_solve(&A, b, x, &c);
            snprintf(label, sizeof label, "perks cg accuracy %s %s%s%s: %s after %d iterations, %d replacements, recurrence %.2e, true %.2e (host %.2e)",
                     name, dbl ? "fp64" : "fp32", jac ? " jacobi" : "", var ? " chronopoulos-gear" : "",
                     perks_strerror(g.rc) + 7, g.iterations, g.repl, g.rel, g.rep_true, g.as_true);
            cases++;
            CHECK(g.rc == 0 || g.rc == PERKS_EINACCURATE || g.rc == PERKS_ENOCONV || g.rc == PERKS_EBREAKDOWN,
                  "rc %d (%s)", g.rc, perks_strerror(g.rc));
            if (g.rc != PERKS_EBREAKDOWN)
                CHECK(fabs(g.rep_true - g.as_true) <= 1e-9 * g.as_true + 2 * g.bound,
                      "reported true residual %.6g, host %.6g (rounding bound %.2g)", g.rep_true, g.as_true, g.bound);
            if (g.rc == 0 && !(g.as_true <= c.tol * (1 + 1e-9) + 2 * g.bound)) above++;
            CHECK(g.rc != 0 || g.as_true <= c.tol * (1 + 1e-9) + 2 * g.bound, "success above tolerance");
            CHECK(g.rc != PERKS_EINACCURATE || g.rep_true > c.tol, "EINACCURATE below tolerance");
            case_end();
        }
        free(b), free(x);
        perks_csr_free(&A);
    }
    case_begin("perks cg accuracy: no solve reports success above its tolerance");
    CHECK(above == 0 && cases + others > 0, "%d of %d", above, cases);
    case_end();
}

/* mixed precision to 1e-10 against the double solver on the same system and b; the double solve
 * (in the first mode's case) anchored on the host: its success is a true residual <= tol */
static void test_mixed(int light)
{
    for (int k = 0; k < mixed_systems(light); k++) {
        perks_csr A;
        char name[64], label[300], why[600];
        const int got = acc_system(k, light, &A, name, sizeof name, why, sizeof why);
        if (got != 1) {
            for (int mode = 0; mode < mixed_modes(light); mode++) {
                snprintf(label, sizeof label, "perks cg mixed %s mode %d", name, mode);
                acc_absent(got, label, why);
            }
            continue;
        }
        const int n = A.n_rows, jac = strncmp(name, "poisson", 7) != 0; /* Jacobi for the files */
        double *b = (double *)malloc(sizeof(double) * n), *x = (double *)malloc(sizeof(double) * n), bound = 0;
        dev_csr d;
        double *db = NULL, *dx = NULL;
        perks_cg_opts o = perks_cg_defaults();
        o.tol = 1e-10, o.max_iter = 30000, o.jacobi = jac;
        perks_cg_result rd = {}, rm = {};
        int rcd = -1, mine = 1; /* mine: the system's cases are this --part's (they share the first's reference) */
        for (int mode = 0; mode < mixed_modes(light); mode++) {
            snprintf(label, sizeof label, "perks cg mixed %s%s%s", name, jac ? " jacobi" : "",
                     mode == 2 ? " forced, stream" : mode ? " forced" : " auto");
            if (mode == 0) mine = case_part(label);
            else if (mine) case_begin(label);
            else check_skip(label, "another --part");
            if (!mine) continue;
            if (mode == 0) { /* the double reference */
                upload(&A, 1, &d);
                CUDA_OK(cudaMalloc(&db, 8 * (size_t)n));
                CUDA_OK(cudaMalloc(&dx, 8 * (size_t)n));
                fill_b(b, n);
                CUDA_OK(cudaMemcpy(db, b, 8 * (size_t)n, cudaMemcpyHostToDevice));
                CUDA_OK(cudaMemset(dx, 0xff, 8 * (size_t)n));
                perks_cg_args a = {};
                a.n = n, a.nnz = A.nnz, a.row_ptr = d.rp, a.col = d.ci, a.val = d.va, a.b = db, a.x = dx, a.opts = o;
                a.result = &rd;
                rcd = cg64_launch(&a, 0);
                CUDA_OK(cudaMemcpy(x, dx, 8 * (size_t)n, cudaMemcpyDeviceToHost));
                const double hd = true_residual_as(&A, b, x, 1, &bound);
                CHECK(rcd == rd.status, "double reference: returned %d, result says %d", rcd, rd.status);
                if (rcd == 0 || rcd == PERKS_EINACCURATE || rcd == PERKS_ENOCONV)
                    CHECK(fabs(rd.true_residual - hd) <= 1e-9 * hd + 2 * bound, "double reference: reported %.6g, host %.6g",
                          rd.true_residual, hd);
                if (rcd == 0) CHECK(hd <= o.tol * (1 + 1e-9) + 2 * bound, "double reference: success with a true residual %.3g", hd);
            }
            o.mixed = mode ? 1 : 0; /* 0 auto, 1 float forced, 2 float forced on the stream path */
            o.path = mode == 2 ? PERKS_CG_PATH_STREAM : PERKS_CG_PATH_AUTO;
            CUDA_OK(cudaMemset(dx, 0xff, 8 * (size_t)n)); /* NaN: x must be written */
            perks_cg_args am = {};
            am.n = n, am.nnz = A.nnz, am.row_ptr = d.rp, am.col = d.ci, am.val = d.va, am.b = db, am.x = dx, am.opts = o;
            am.result = &rm;
            int rcm = cgm_launch(&am, 0);
            CUDA_OK(cudaMemcpy(x, dx, 8 * (size_t)n, cudaMemcpyDeviceToHost));
            double host = true_residual_as(&A, b, x, 1, &bound);
            snprintf(label, sizeof label,
                     "perks cg mixed %s%s%s: %s, ran %s, %d replacements, %d iterations (double: %s, %d), true %.2e (host %.2e)",
                     name, jac ? " jacobi" : "", mode == 2 ? " forced, stream" : mode ? " forced" : " auto",
                     perks_strerror(rcm) + 7,
                     rm.ran == PERKS_CG_RAN_MIXED ? "mixed" : rm.ran == PERKS_CG_RAN_DOUBLE ? "double"
                     : rm.ran == PERKS_CG_RAN_FALLBACK ? "fallback" : "?",
                     rm.replacements, rm.iterations, perks_strerror(rcd) + 7, rd.iterations, rm.true_residual, host);
            CHECK(rcm == rm.status, "returned %d, result says %d", rcm, rm.status);
            CHECK(fabs(rm.true_residual - host) <= 1e-9 * host + 2 * bound, "reported %.6g, host %.6g", rm.true_residual, host);
            if (rcm == 0) CHECK(host <= o.tol * (1 + 1e-9) + 2 * bound, "success with a true residual %.3g", host);
            if (rcm == 0 || rcm == PERKS_EINACCURATE || rcm == PERKS_ENOCONV) {
                check_floor(rm.rounding_floor, rm.at_floor, rounding_floor_as(&A, b, x, 1), o.tol);
                printf("    %s: rounding floor %.3g (tol %.0e): at_floor %d\n", name, rm.rounding_floor, o.tol, rm.at_floor);
            }
            /* where tol is within PERKS_CG_FLOOR_MARGIN of the system's rounding floor (at_floor), reaching it
             * depends on the start: an honest EINACCURATE within the floor is the answer there */
            if (rcd == 0 && !(rm.at_floor && rcm == PERKS_EINACCURATE && host <= rm.rounding_floor))
                CHECK(rcm == 0, "the double solver reached 1e-10, mixed: %s", perks_strerror(rcm));
            if (mode) CHECK(rm.ran == PERKS_CG_RAN_MIXED || rm.ran == PERKS_CG_RAN_FALLBACK, "forced: ran %d", rm.ran);
            if (rm.ran == PERKS_CG_RAN_MIXED) CHECK(rm.replacements >= 1, "mixed without a double replacement");
            if (mode == 2) CHECK(rm.path == PERKS_CG_PATH_STREAM, "stream asked, result path %d", rm.path);
            case_end();
        }
        free(b), free(x);
        if (mine) cudaFree(db), cudaFree(dx), dev_free(&d);
        perks_csr_free(&A);
    }
}

/* the stream path against the grid path's solve from device memory where that one gives a row one
 * lane (at most 8 entries a row on average): with one block (the same rows a block, so the same
 * partial sums) bit for bit; with more (the stream path's blocks own whole slices of 32 rows, so the
 * dot products add other partials) the same status, iterations within 1 and x within xtol of the
 * grid's (relative, max norm).  Ragged systems, both types, every barrier, Jacobi and x0; the
 * planner's choice for a system that streams; x written at max_iter */
static void stream_same(const char *name, const perks_csr *A, run_cfg c, double xtol)
{
    const int n = A->n_rows;
    double *b = (double *)calloc(n, sizeof(double)), *xs = (double *)calloc(n, sizeof(double)),
           *xg = (double *)calloc(n, sizeof(double)), *xc = (double *)calloc(n, sizeof(double));
    char label[300];
    snprintf(label, sizeof label, "perks cg stream %s %s n=%d%s%s blocks=%d barrier=%d", name, c.dbl ? "fp64" : "fp32", n,
             c.jacobi ? " jacobi" : "", c.x0 ? " x0" : "", c.blocks, c.barrier);
    if (!case_part(label)) {
        free(b), free(xs), free(xg), free(xc);
        return;
    }
    fill_b(b, n);
    for (int i = 0; i < n; i++) xs[i] = xg[i] = xc[i] = c.x0 ? gpucheck_uniform() : 0;
    run_cfg cg = c;
    cg.path = PERKS_CG_PATH_GRID, cg.cache = 0, cg.expect_cached = -1;
    gpu_out s = gpu_solve(A, b, xs, &c), g = gpu_solve(A, b, xg, &cg);
    size_t diff = 0;
    double dmax = 0, xmax = 0;
    for (int i = 0; i < n; i++) {
        diff += memcmp(&xs[i], &xg[i], sizeof(double)) != 0;
        dmax = fmax(dmax, fabs(xs[i] - xg[i]));
        xmax = fmax(xmax, fabs(xg[i]));
    }
    snprintf(label, sizeof label, "perks cg stream %s %s n=%d%s%s blocks=%d barrier=%d: %s, %d it (grid %s, %d it, %d lanes)",
             name, c.dbl ? "fp64" : "fp32", n, c.jacobi ? " jacobi" : "", c.x0 ? " x0" : "", s.blocks, c.barrier,
             perks_strerror(s.rc) + 7, s.iterations, perks_strerror(g.rc) + 7, g.iterations, g.sub);
    CHECK(s.path == (c.path ? c.path : PERKS_CG_PATH_STREAM), "path %d", s.path);
    CHECK(g.path == PERKS_CG_PATH_GRID && g.cached == 0 && g.sub == 1, "grid reference: path %d tier %d, %d lanes",
          g.path, g.cached, g.sub);
    if (c.blocks == 1) {
        CHECK(s.blocks == 1 && g.blocks == 1, "blocks %d / %d", s.blocks, g.blocks);
        CHECK(s.rc == g.rc && s.iterations == g.iterations && s.repl == g.repl, "rc %d / %d, iterations %d / %d", s.rc,
              g.rc, s.iterations, g.iterations);
        CHECK(diff == 0, "%zu of %d entries of x differ from the grid path's", diff, n);
        CHECK(memcmp(&s.rep_true, &g.rep_true, sizeof(double)) == 0, "true residual %.17g / %.17g", s.rep_true,
              g.rep_true);
    } else {
        CHECK(s.rc == g.rc && abs(s.iterations - g.iterations) <= 1, "rc %d / %d, iterations %d / %d", s.rc, g.rc,
              s.iterations, g.iterations);
        CHECK(xmax > 0 && dmax <= xtol * xmax, "x differs from the grid path's by %.3g of its largest entry", dmax / xmax);
    }
    /* the anchor of the two (which might share a bug): the host's true residual of the stream path's
     * x on success, and in double the CPU CG's iterations (1 + it/50) or, at max_iter, its residual */
    if (s.rc == PERKS_SUCCESS)
        CHECK(s.as_true <= c.tol * (1 + 1e-9) + 2 * s.bound, "success with a host true residual %.3g > tol %.3g", s.as_true,
              c.tol);
    if (c.dbl) {
        const cpu_cg r = cg_cpu(A, b, xc, c.jacobi, c.tol, c.max_iter, c.x0);
        if (r.status == PERKS_SUCCESS && s.rc == PERKS_SUCCESS && s.repl == 0)
            CHECK(abs(s.iterations - r.iterations) <= 1 + r.iterations / 50, "%d iterations, the cpu CG %d", s.iterations,
                  r.iterations);
        else if (r.status == PERKS_ENOCONV)
            CHECK(s.rc == PERKS_ENOCONV && s.iterations == r.iterations && fabs(s.rel - r.rel) <= 1e-6 * r.rel,
                  "at max_iter: %s after %d iterations, residual %.17g; the cpu CG %d, %.17g", perks_strerror(s.rc),
                  s.iterations, s.rel, r.iterations, r.rel);
        else CHECK(s.rc == r.status, "status %s, the cpu CG's %d", perks_strerror(s.rc), r.status);
    }
    case_end();
    free(b), free(xs), free(xg), free(xc);
}

/* test_stream's 8 poisson3d stream_same configurations: --light leaves out 4 and 6 */
#define N_STREAM_CFG 8
static int stream_runs(int k, int light) { return !(light && (k == 4 || k == 6)); }
/* test_stream's cases: the poisson3d configurations + 1 compare; poisson2d 2; random SDD 3; 1 x 1 1;
 * indefinite 1; 128^3 2 (not under --light) */
static int stream_cases(int light)
{
    int n = 0;
    for (int k = 0; k < N_STREAM_CFG; k++) n += stream_runs(k, light);
    return n + 1 + 2 + 3 + 1 + 1 + (light ? 0 : 2);
}

static void test_stream(int light)
{
    perks_csr A;
    const int S = PERKS_CG_PATH_STREAM;
    /* 37 x 40 x 29 and 211 x 190: no multiple of 32 rows; 2D and 3D stars */
    poisson(&A, light ? 13 : 37, light ? 12 : 40, light ? 11 : 29, 0);
    {
        run_cfg cs[] = {
            {1, 0, 1, 1, 0, 20000, 0, 1e-10, S, 0, 0, 0},                    /* one block, count barrier */
            {0, 0, 1, 1, 0, 20000, 0, 1e-5, S, 0, 0, 0},                     /* fp32: replacements at convergence */
            {1, 1, 1, 1, 1, 20000, 0, 1e-10, S, 0, PERKS_CG_BAR_GRID, 0},    /* Jacobi, x0, grid.sync */
            {1, 0, 1, 1, 0, 9, 0, 1e-10, S, 0, PERKS_CG_BAR_SUM, 0},         /* max_iter: x after the last one */
            {0, 0, 1, 1, 0, 400, 0, 1e-12, S, 0, 0, 0},                      /* fp32 past its floor: stalls */
            {1, 0, 1, 0, 0, 20000, 0, 1e-10, S, 0, 0, 0},                    /* the planner's blocks */
            {1, 1, 1, 3, 1, 20000, 0, 1e-10, S, 0, PERKS_CG_BAR_SUM, 0},     /* Jacobi, x0, 3 blocks, sum barrier */
            {0, 1, 1, 7, 1, 20000, 0, 1e-5, S, 0, PERKS_CG_BAR_FLAG, 0},     /* fp32 Jacobi x0, 7 blocks, flag */
        };
        static_assert(sizeof cs / sizeof *cs == N_STREAM_CFG, "N_STREAM_CFG: the table's length (the plan counts it)");
        for (int k = 0; k < (int)(sizeof cs / sizeof *cs); k++) {
            if (!stream_runs(k, light)) continue;
            stream_same("poisson3d", &A, cs[k], cs[k].dbl ? 1e-9 : 1e-3);
        }
        run_cfg c = {1, 1, 1, 0, 1, 20000, 0, 1e-10, S, 0, 0, 0};
        compare("poisson3d", &A, &c, 0.02);
    }
    perks_csr_free(&A);
    poisson(&A, light ? 41 : 211, light ? 19 : 190, 1, 0);
    {
        run_cfg c = {1, 0, 1, 1, 0, 20000, 0, 1e-10, S, 0, 0, 0}, c2 = {0, 0, 1, 5, 0, 20000, 0, 1e-5, S, 0, 0, 0};
        stream_same("poisson2d", &A, c, 0);
        stream_same("poisson2d", &A, c2, 1e-3);
    }
    perks_csr_free(&A);
    /* rows of 1 to ~900 entries (heavy rows, wide bands): the slices pad; against the CPU CG */
    random_sdd(&A, light ? 300 : 20011, 9, 5, light ? 150 : 3000);
    {
        run_cfg c = {1, 0, 1, 0, 0, 20000, 0, 1e-11, S, 0, 0, 0}, c2 = {1, 1, 1, 3, 1, 20000, 0, 1e-11, S, 0, 0, 0},
                c3 = {0, 1, 1, 0, 0, 20000, 0, 1e-5, S, 0, 0, 0};
        compare("random SDD ragged", &A, &c, 0.1);
        compare("random SDD ragged", &A, &c2, 0.02);
        compare("random SDD ragged", &A, &c3, 10);
    }
    perks_csr_free(&A);
    /* 1 x 1; an indefinite system breaks down where the CPU CG does */
    csr_alloc(&A, 1, 1);
    A.row_ptr[1] = 1, A.col[0] = 0, A.val[0] = 3.5, A.nnz = 1;
    {
        run_cfg c = {1, 0, 1, 0, 0, 100, 0, 1e-12, S, 0, 0, 0};
        compare("1x1", &A, &c, 0);
    }
    perks_csr_free(&A);
    poisson(&A, 30, 30, 1, 4.5);
    {
        run_cfg c = {1, 0, 1, 0, 0, 5000, 0, 1e-10, S, 0, 0, 0};
        compare("indefinite (Laplacian - 4.5 I)", &A, &c, 0);
    }
    perks_csr_free(&A);
    /* the planner: a system that does not fit on chip streams (128^3; 30 iterations) */
    if (!light) {
        poisson(&A, 128, 128, 128, 0);
        run_cfg c = {1, 0, 1, 0, 0, 30, 0, 0, 0, 0, 0, 0}, c2 = {0, 0, 1, 0, 0, 30, 0, 0, 0, 0, 0, 0};
        stream_same("poisson3d 128^3, auto", &A, c, 1e-9);
        stream_same("poisson3d 128^3, auto", &A, c2, 1e-4);
        perks_csr_free(&A);
    }
}

/* main's table of poisson2d configurations (15; 5 and 14, clusters of 3 and 1 block, run on a
 * smaller system below); --light (racecheck, where a cluster of 16 blocks of 1024 threads is slow)
 * keeps 0, 1, 2, 3, 7, 13 */
#define N_MAIN_CFG 15
static int cs_runs(int k, int light)
{
    return !(k == 5 || k == 14 || (light && ((k >= 9 && k != 13) || k == 4 || k == 6 || k == 8)));
}
/* main's 9 Chronopoulos-Gear configurations; --light (racecheck) leaves out 1, 3, 4, 8 */
#define N_CGEAR_CFG 9
static int cgear_runs(int k, int light) { return !(light && (k == 1 || k == 3 || k == 4 || k == 8)); }
/* test_repeat's cases: 5 plans run twice (--light: 3), 3 bitwise barrier comparisons (2), 5 block-count
 * sweeps (3); a cluster case below sm_90 is a counted skip */
static int repeat_cases(int light) { return (light ? 3 : 5) + (light ? 2 : 3) + (light ? 3 : 5); }

/* the cases this program runs, in every mode (a cluster case below sm_90 and a SuiteSparse case
 * without its file are counted skips, so the count does not depend on the machine) */
static int plan_cases(int light)
{
    int n = 1; /* test_errors */
    n += 3 * 3 + 1; /* 1 x 1: 3 paths x (2 direct + 1 compare), 4 blocks */
    n += 3 * 2;     /* poisson2d 13x11 against Cholesky */
    n += 3 * 2;     /* random SDD against Cholesky */
    for (int k = 0; k < N_MAIN_CFG; k++) n += cs_runs(k, light);
    n += 2;         /* max_iter 7 on both paths */
    for (int k = 0; k < N_CGEAR_CFG; k++) n += cgear_runs(k, light);
    n += 2;         /* clusters of 3 and 1 */
    n += light ? 4 : 6; /* poisson3d: c, c2, c2 cgear, c4 (+ c cgear, c3) */
    n += light ? 3 : 6; /* random SDD ragged: c, c2, c2 cgear (+ c3, c4, c cgear) */
    n += light ? 0 : 2; /* random SDD 400/row */
    n += 3 * 2;     /* indefinite, negative diagonal on 3 paths */
    n += stream_cases(light) + repeat_cases(light) + N_REUSE;
    for (int k = 0; k < files_count(light); k++) n += 1 + files_compares(k, light);
    for (int k = 0; k < acc_count(light); k++) n += acc_streamed(k, light) ? 0 : acc_variants(light);
    n += 1; /* no success above tol */
    n += mixed_systems(light) * mixed_modes(light);
    return n;
}

int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    perks_csr A;
    check_plan(plan_cases(light));
    {
        int dev = 0;
        CUDA_OK(cudaGetDevice(&dev));
        CUDA_OK(cudaDeviceGetAttribute(&g_cc_major, cudaDevAttrComputeCapabilityMajor, dev));
    }
    test_errors();

    /* 1 x 1 */
    csr_alloc(&A, 1, 1);
    A.row_ptr[1] = 1, A.col[0] = 0, A.val[0] = 3.5, A.nnz = 1;
    for (int v = 1; v <= 3; v++) { /* grid, cluster, grid Chronopoulos-Gear */
        const int path = v == 2 ? 2 : 1, var = v == 3 ? PERKS_CG_CGEAR : 0;
        direct("1x1", &A, 1, 0, path, var);
        direct("1x1", &A, 1, 1, path, var);
        run_cfg c = {1, 0, 1, 0, 0, 100, 2, 1e-12, path, 0, 0, var};
        compare("1x1", &A, &c, 0);
    }
    {
        run_cfg c = {1, 0, 1, 0, 0, 100, 2, 1e-12, PERKS_CG_PATH_CLUSTER, 4, 0, 0}; /* 3 blocks without rows */
        compare("1x1, 4 blocks", &A, &c, 0);
    }
    perks_csr_free(&A);

    /* small Poisson and random SDD against the direct solve */
    poisson(&A, 13, 11, 1, 0);
    for (int v = 1; v <= 3; v++) {
        const int path = v == 2 ? 2 : 1, var = v == 3 ? PERKS_CG_CGEAR : 0;
        direct("poisson2d 13x11", &A, 1, 0, path, var);
        direct("poisson2d 13x11", &A, 0, 1, path, var);
    }
    perks_csr_free(&A);
    random_sdd(&A, light ? 150 : 400, 6, 3, 120);
    for (int v = 1; v <= 3; v++) {
        const int path = v == 2 ? 2 : 1, var = v == 3 ? PERKS_CG_CGEAR : 0;
        direct("random SDD", &A, 1, 0, path, var);
        direct("random SDD", &A, 1, 1, path, var);
    }
    perks_csr_free(&A);

    /* iterations and residuals against the CPU CG, every tier and option */
    {
        /* --light runs under compute-sanitizer racecheck, whose cost grows with shared-memory accesses
         * (rows x iterations) and threads: small systems (14 x 11, 6 x 7 x 5) */
        int s2 = light ? 14 : 200, s3 = light ? 6 : 40;
        poisson(&A, s2, s2 - 3, 1, 0);
        const int G = PERKS_CG_PATH_GRID, CL = PERKS_CG_PATH_CLUSTER;
        run_cfg cs[] = {
            {1, 0, 1, 0, 0, 20000, 2, 1e-10, G, 0, 0, 0},  /* grid, planner: on chip, grid.sync */
            {1, 0, 0, 0, 0, 20000, 0, 1e-10, G, 0, 0, 0},  /* no cache */
            {1, 1, 1, 0, 1, 20000, -1, 1e-10, G, 0, 0, 0}, /* Jacobi, x0 given */
            {0, 0, 1, 0, 0, 20000, -1, 1e-5, G, 0, 0, 0},  /* fp32 */
            {1, 0, 1, 0, 0, 20000, -1, 1e-10, 0, 0, 0, 0}, /* auto (the cluster on sm_90) */
            {1, 0, 1, 0, 0, 20000, -1, 1e-10, CL, 3, 0, 0},  /* cluster of 3 */
            {1, 1, 1, 0, 1, 20000, -1, 1e-10, CL, 16, 0, 0}, /* cluster of 16, Jacobi, x0 */
            {1, 0, 0, 0, 0, 20000, 1, 1e-10, CL, 16, 0, 0},  /* cluster, matrix from device memory */
            {0, 1, 1, 0, 0, 20000, -1, 1e-5, CL, 0, 0, 0},   /* cluster fp32, Jacobi */
            {1, 0, 1, 1, 0, 20000, 1, 1e-10, G, 0, 0, 0},  /* one block: vectors only (matrix too large) */
            {1, 0, 1, 7, 0, 20000, -1, 1e-10, G, 0, PERKS_CG_BAR_FLAG, 0}, /* 7 blocks, flag */
            {1, 0, 1, 61, 0, 20000, -1, 1e-10, G, 0, PERKS_CG_BAR_GRID, 0}, /* 61 blocks, grid.sync */
            {1, 1, 1, 3, 0, 20000, -1, 1e-10, G, 0, PERKS_CG_BAR_SUM, 0},  /* 3 blocks, sum barrier */
            {1, 1, 0, 0, 1, 20000, -1, 1e-10, G, 0, PERKS_CG_BAR_COUNT, 0}, /* count barrier, no cache, Jacobi, x0 */
            {1, 0, 1, 1, 0, 20000, -1, 1e-10, CL, 1, 0, 0},  /* one-block cluster */
        };
        static_assert(sizeof cs / sizeof *cs == N_MAIN_CFG, "N_MAIN_CFG: the table's length (the plan counts it)");
        for (int k = 0; k < (int)(sizeof cs / sizeof *cs); k++) {
            if (!cs_runs(k, light)) continue;
            if (!light && k == 9) cs[k].expect_cached = -1;
            if (light && k == 7) cs[k].cluster = 2;
            compare("poisson2d", &A, &cs[k], cs[k].dbl ? 0.02 : 10);
        }
        for (int path = 1; path <= 2; path++) {
            run_cfg c = {1, 0, 1, 0, 0, 7, -1, 1e-10, path, 0, 0, 0}; /* iteration limit */
            compare("poisson2d (max_iter 7)", &A, &c, 0);
        }
        {
            /* Chronopoulos-Gear (grid path): against a CPU Chronopoulos-Gear CG; every tier, Jacobi + x0,
             * fp32, 1 / 7 / 61 blocks, the iteration limit (residual after exactly max_iter) */
            const int CG = PERKS_CG_CGEAR;
            run_cfg cg[] = {
                {1, 0, 1, 0, 0, 20000, 2, 1e-10, 0, 0, 0, CG},  /* auto -> grid, planner: on chip */
                {1, 0, 0, 0, 0, 20000, 0, 1e-10, G, 0, 0, CG},  /* no cache */
                {1, 1, 1, 0, 1, 20000, -1, 1e-10, G, 0, 0, CG}, /* Jacobi, x0 */
                {0, 1, 1, 0, 0, 20000, -1, 1e-5, G, 0, 0, CG},  /* fp32 + Jacobi */
                {1, 0, 1, 1, 0, 20000, 1, 1e-10, G, 0, 0, CG},  /* one block: vectors only */
                {1, 1, 0, 7, 1, 20000, 0, 1e-10, G, 0, PERKS_CG_BAR_GRID, CG}, /* 7 blocks, no cache, Jacobi, x0 */
                {1, 0, 1, 61, 0, 20000, -1, 1e-10, G, 0, PERKS_CG_BAR_COUNT, CG}, /* 61 blocks, count barrier */
                {1, 0, 1, 0, 0, 7, -1, 1e-10, G, 0, 0, CG},      /* iteration limit */
                {1, 1, 0, 0, 0, 9, 0, 1e-10, G, 0, 0, CG},       /* iteration limit, no cache, Jacobi */
            };
            static_assert(sizeof cg / sizeof *cg == N_CGEAR_CFG, "N_CGEAR_CFG: the table's length (the plan counts it)");
            for (int k = 0; k < (int)(sizeof cg / sizeof *cg); k++) {
                if (!cgear_runs(k, light)) continue;
                if (!light && k == 4) cg[k].expect_cached = -1;
                compare("poisson2d", &A, &cg[k], k == 3 ? 10 : k >= 7 ? 0 : 0.02);
            }
        }
        perks_csr_free(&A);
        /* clusters of 3 and of 1 block need a system that fits 3 or 1 blocks' shared memory (--light: 10 x 9) */
        poisson(&A, light ? 10 : 40, light ? 9 : 37, 1, 0);
        compare("poisson2d", &A, &cs[5], 0.02);
        compare("poisson2d", &A, &cs[14], 0.02);
        perks_csr_free(&A);
        poisson(&A, s3, s3 + 1, s3 - 1, 0);
        {
            run_cfg c = {1, 0, 1, 0, 0, 20000, -1, 1e-10, PERKS_CG_PATH_GRID, 0, 0, 0},
                    c2 = {1, 1, 0, 0, 1, 20000, 0, 1e-9, PERKS_CG_PATH_GRID, 0, 0, 0},
                    c3 = {1, 0, 1, 0, 0, 20000, -1, 1e-10, PERKS_CG_PATH_CLUSTER, 0, 0, 0},
                    c4 = {1, 1, 1, 0, 1, 20000, -1, 1e-9, PERKS_CG_PATH_CLUSTER, 8, 0, 0};
            compare("poisson3d", &A, &c, 0.02);
            compare("poisson3d", &A, &c2, 0.02);
            c.variant = c2.variant = PERKS_CG_CGEAR;
            if (!light) compare("poisson3d", &A, &c, 0.02);
            compare("poisson3d", &A, &c2, 0.02);
            /* the cluster holds about 4 000 rows per block (16 blocks): a smaller 3D system */
            perks_csr_free(&A);
            poisson(&A, light ? 8 : 22, light ? 7 : 23, light ? 6 : 21, 0);
            if (!light) compare("poisson3d", &A, &c3, 0.02);
            if (light) c4.cluster = 2;
            compare("poisson3d", &A, &c4, 0.02);
        }
        perks_csr_free(&A);
        random_sdd(&A, light ? 200 : 20011, 9, 5, light ? 150 : 3000);
        {
            run_cfg c = {1, 0, 1, 0, 0, 20000, -1, 1e-11, PERKS_CG_PATH_GRID, 0, 0, 0},
                    c2 = {1, 1, 0, 3, 0, 20000, 0, 1e-11, PERKS_CG_PATH_GRID, 0, 0, 0},
                    c3 = {1, 1, 1, 0, 0, 20000, -1, 1e-11, PERKS_CG_PATH_CLUSTER, 0, 0, 0},
                    c4 = {1, 0, 1, 0, 0, 20000, -1, 1e-11, PERKS_CG_PATH_CLUSTER, 16, 0, 0};
            /* a few rows 300x heavier than the rest: outlying eigenvalues make the unpreconditioned
             * count sensitive to summation order (measured: GPU 145, CPU 151); Jacobi removes it */
            compare("random SDD ragged", &A, &c, 0.1);
            compare("random SDD ragged", &A, &c2, 0.02);
            if (!light) compare("random SDD ragged", &A, &c3, 0.02);
            if (!light) compare("random SDD ragged", &A, &c4, 0.1);
            c.variant = c2.variant = PERKS_CG_CGEAR;
            if (!light) compare("random SDD ragged", &A, &c, 0.1);
            compare("random SDD ragged", &A, &c2, 0.02);
        }
        perks_csr_free(&A);
        /* one block, vectors fit, matrix does not: tier 1 */
        random_sdd(&A, 1000, 400, 0, 0);
        if (!light) { /* 400 000 nonzeros: slow under racecheck */
            run_cfg c = {1, 0, 1, 1, 0, 20000, 1, 1e-10, PERKS_CG_PATH_GRID, 0, 0, 0},
                    c2 = {1, 0, 1, 0, 0, 20000, -1, 1e-10, PERKS_CG_PATH_CLUSTER, 2, 0, 0};
            compare("random SDD 400/row, 1 block", &A, &c, 0.02);
            compare("random SDD 400/row, cluster of 2", &A, &c2, 0.02);
        }
        perks_csr_free(&A);
    }

    /* not SPD: a shifted Laplacian (indefinite, diagonal -0.5) breaks down where the CPU CG does;
     * Jacobi with the negative diagonal is refused at iteration 0 */
    poisson(&A, 30, 30, 1, 4.5);
    {
        for (int v = 1; v <= 3; v++) {
            const int path = v == 2 ? 2 : 1, var = v == 3 ? PERKS_CG_CGEAR : 0;
            run_cfg c = {1, 0, 1, 0, 0, 5000, -1, 1e-10, path, 0, 0, var},
                    c2 = {1, 1, 1, 0, 0, 5000, -1, 1e-10, path, 0, 0, var};
            compare("indefinite (Laplacian - 4.5 I)", &A, &c, 0);
            compare("negative diagonal", &A, &c2, 0);
        }
    }
    perks_csr_free(&A);

    test_stream(light);
    test_repeat(light);
    test_reuse(light);
    test_files(light);
    test_mixed(light); /* before the accuracy sweep: the shortest runs under racecheck reach it */
    test_accuracy(light);
    return check_exit();
}
