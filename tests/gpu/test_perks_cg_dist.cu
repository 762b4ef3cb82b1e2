/* tests/gpu/test_perks_cg_dist.cu -- perks/cg_dist.cuh: CG over row blocks.
 *   - virtual ranks on one GPU (1, 2, 3, 5; an uneven split too), double and float, Jacobi on and
 *     off, on 2D Poisson matrices and on the SuiteSparse files (../shared/data/mtx or .data/mtx):
 *     every split reaches tol in the iterations of one rank (+- 2; +- 2 % past 50), x is poisoned first, and the
 *     reported true residual equals ||b - A x|| / ||b|| recomputed here in double from the x returned
 *     (a success code is a promise);
 *     (a case a file; a file that is not there a counted skip);
 *   - with NCCL built in: one rank through a one-rank communicator against the virtual rank (runs on
 *     one GPU: never skipped outside --light); with two or more GPUs, one rank per GPU
 *     (ncclCommInitAll), the same checks (a counted skip on one GPU, or without <nccl.h>);
 *   - the error codes: bad splits, ranks that disagree on n or on the rank count, NULL pointers (x
 *     poisoned with a byte pattern: a refused solve writes nothing, and tells a NaN true residual; a
 *     refused plan names why, no pass), a missing diagonal with Jacobi, an indefinite matrix
 *     (breakdown), too few iterations (no convergence, true residual still told); one plan for two
 *     right-hand sides and the first again (bitwise); the plan's head after every plan. */
#include <perks/cg_dist.cuh>
#include <perks/mtx.h>
#include <stddef.h>

#include "gpucheck.h"

PERKS_CGD_DEFINE(cgd_d, double)
PERKS_CGD_DEFINE(cgd_f, float)

/* the 5-point Laplacian of an nx x ny grid (Dirichlet, SPD), or a diagonal matrix diag(d) */
/* the options every solve starts from: the defaults, with --light (under the sanitizers, whose time
 * grows with the blocks) 4 blocks a rank */
static int g_blocks;
static perks_cgd_opts opts0(void)
{
    perks_cgd_opts o = perks_cgd_defaults();
    o.blocks = g_blocks;
    return o;
}

static int poisson2d(perks_csr *A, int nx, int ny)
{
    const int n = nx * ny;
    A->n_rows = A->n_cols = n;
    A->row_ptr = (int *)malloc((n + 1) * sizeof(int));
    A->col = (int *)malloc(5 * (size_t)n * sizeof(int));
    A->val = (double *)malloc(5 * (size_t)n * sizeof(double));
    int e = 0;
    for (int i = 0; i < n; i++) {
        const int x = i % nx, y = i / nx;
        A->row_ptr[i] = e;
        if (y > 0) A->col[e] = i - nx, A->val[e++] = -1;
        if (x > 0) A->col[e] = i - 1, A->val[e++] = -1;
        A->col[e] = i, A->val[e++] = 4.0001;
        if (x < nx - 1) A->col[e] = i + 1, A->val[e++] = -1;
        if (y < ny - 1) A->col[e] = i + nx, A->val[e++] = -1;
    }
    A->row_ptr[n] = e;
    A->nnz = e;
    return n;
}

/* ||b - A x|| / ||b|| in double, of the system the solver was given (A and b rounded to float for
 * the float solver); *slack: how far two such sums in double may differ (another order of the
 * row sums: 64 eps || |A| |x| || / ||b||, large where A x nearly cancels b) */
static double true_resid(const perks_csr *A, const double *b, const double *x, int dbl, double *slack)
{
    double rr = 0, bb = 0, aa = 0;
    for (int i = 0; i < A->n_rows; i++) {
        double s = 0, sa = 0, bi = dbl ? b[i] : (double)(float)b[i];
        for (int e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) {
            const double a = dbl ? A->val[e] : (double)(float)A->val[e];
            s += a * x[A->col[e]], sa += fabs(a * x[A->col[e]]);
        }
        rr += (bi - s) * (bi - s), bb += bi * bi, aa += sa * sa;
    }
    if (slack) *slack = 64 * 2.2e-16 * sqrt(aa) / (bb > 0 ? sqrt(bb) : 1);
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

/* the plan's head is onchip_plan's (the same offsets), read alike through onchip_plan_head */
static_assert(offsetof(perks_cgd_plan, path) == offsetof(onchip_plan, path) &&
                  offsetof(perks_cgd_plan, why) == offsetof(onchip_plan, why) &&
                  offsetof(perks_cgd_plan, steps_per_pass) == offsetof(onchip_plan, steps_per_pass) &&
                  offsetof(perks_cgd_plan, passes) == offsetof(onchip_plan, passes) &&
                  offsetof(perks_cgd_plan, workspace_bytes) == offsetof(onchip_plan, workspace_bytes) &&
                  offsetof(perks_cgd_plan, result) == offsetof(onchip_plan, result),
              "perks_cgd_plan begins with onchip_plan's head");

/* the promise of a plan's head (rc what name_plan returned for a): made, its path (NCCL or virtual
 * ranks) and why, no fixed step count, 1 pass, the ranks' workspaces, result the first rank's x;
 * refused, why named and no pass */
static void check_head(const perks_cgd_plan *p, int rc, const perks_cgd_args *a)
{
    const onchip_plan h = onchip_plan_head(p);
    CHECK(h.why == p->why && p->why && p->why[0], "why: '%s'", p->why ? p->why : "(null)");
    if (rc) {
        CHECK(p->passes == 0 && p->workspace_bytes == 0, "refused (rc %d) with %lld passes", rc, p->passes);
        return;
    }
    const int virt = !a->ranks[0].comm;
    CHECK(p->path == (virt ? PERKS_CGD_PATH_VIRTUAL : PERKS_CGD_PATH_NCCL) &&
              !strncmp(p->why, virt ? "virtual" : "NCCL", virt ? 7 : 4),
          "path %d, why '%s'", p->path, p->why);
    CHECK(p->steps_per_pass == 0 && p->passes == 1 && p->workspace_bytes > 0 && p->result == a->ranks[0].x,
          "steps_per_pass %d, passes %lld, %zu bytes, result %p (ranks[0].x %p)", p->steps_per_pass, p->passes,
          p->workspace_bytes, p->result, a->ranks[0].x);
}

/* solve A x = b over P ranks (firsts: P + 1 row starts; dev[r] the GPU of rank r; comms NULL for
 * virtual ranks); x comes back in xout (double) */
static int solve(const perks_csr *A, const double *b, int dbl, int P, const int *firsts, const int *dev, void *const *comms,
                 const perks_cgd_opts *o, perks_cgd_result *res, double *xout)
{
    const size_t es = dbl ? 8 : 4;
    perks_cgd_rank rk[8];
    void *bufs[8][5];
    memset(rk, 0, sizeof rk);
    for (int r = 0; r < P; r++) {
        perks_cgd_rank *k = &rk[r];
        const int f = firsts[r], own = firsts[r + 1] - f, e0 = A->row_ptr[f], nnz = A->row_ptr[f + own] - e0;
        k->device = dev[r], k->nranks = P, k->rank = r, k->n = A->n_rows, k->first = f, k->own = own;
        k->comm = comms ? comms[r] : NULL;
        int *rp = (int *)malloc((own + 1) * sizeof(int));
        char *va = (char *)malloc((nnz ? nnz : 1) * es), *bb = (char *)malloc(own * es);
        for (int i = 0; i <= own; i++) rp[i] = A->row_ptr[f + i] - e0;
        for (int e = 0; e < nnz; e++)
            if (dbl) ((double *)va)[e] = A->val[e0 + e]; else ((float *)va)[e] = (float)A->val[e0 + e];
        for (int i = 0; i < own; i++)
            if (dbl) ((double *)bb)[i] = b[f + i]; else ((float *)bb)[i] = (float)b[f + i];
        CUDA_OK(cudaSetDevice(dev[r]));
        CUDA_OK(cudaStreamCreate(&k->stream));
        CUDA_OK(cudaMalloc(&bufs[r][0], (own + 1) * sizeof(int)));
        CUDA_OK(cudaMalloc(&bufs[r][1], (nnz ? nnz : 1) * sizeof(int)));
        CUDA_OK(cudaMalloc(&bufs[r][2], (nnz ? nnz : 1) * es));
        CUDA_OK(cudaMalloc(&bufs[r][3], own * es));
        CUDA_OK(cudaMalloc(&bufs[r][4], own * es));
        CUDA_OK(cudaMemcpy(bufs[r][0], rp, (own + 1) * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][1], A->col + e0, nnz * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][2], va, nnz * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][3], bb, own * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(bufs[r][4], 0xFF, own * es)); /* x poisoned: NaN */
        k->rp = (const int *)bufs[r][0], k->ci = (const int *)bufs[r][1], k->va = bufs[r][2], k->b = bufs[r][3];
        k->x = bufs[r][4];
        free(rp), free(va), free(bb);
    }
    int rc = -1;
    if (!check__failed_case) { /* plan (its head checked), run, free */
        perks_cgd_args a = {rk, P, *o, res};
        perks_cgd_plan p;
        rc = dbl ? cgd_d_plan(&a, &p) : cgd_f_plan(&a, &p);
        check_head(&p, rc, &a);
        if (!rc) rc = dbl ? cgd_d_run(&a, &p) : cgd_f_run(&a, &p);
        CHECK(rc == res->status, "returned %d, result.status %d", rc, res->status);
        perks_cgd_plan_free(&p);
    }
    char *xh = (char *)malloc(A->n_rows * es);
    for (int r = 0; r < P; r++) {
        CUDA_OK(cudaSetDevice(dev[r]));
        CUDA_OK(cudaMemcpy(xh + (size_t)firsts[r] * es, bufs[r][4], (size_t)rk[r].own * es, cudaMemcpyDeviceToHost));
        for (int j = 0; j < 5; j++) cudaFree(bufs[r][j]);
        cudaStreamDestroy(rk[r].stream);
    }
    for (int i = 0; i < A->n_rows; i++) xout[i] = dbl ? ((double *)xh)[i] : ((float *)xh)[i];
    free(xh);
    return rc;
}

static void even_split(int n, int P, int *firsts)
{
    for (int r = 0; r <= P; r++) firsts[r] = r < P ? perks_slab_first(n, P, r) : n;
}

/* one matrix over several splits: each equals one rank within an iteration, and tells the truth */
static void check_matrix(const char *what, const perks_csr *A, int dbl, int jacobi, double tol, const int *ranks, int nr,
                         const int *dev, void *const *comms)
{
    const int n = A->n_rows;
    double *b = (double *)malloc(n * sizeof(double)), *x = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) b[i] = gpucheck_uniform();
    perks_cgd_opts o = opts0();
    o.tol = tol, o.jacobi = jacobi, o.max_iter = 20000;
    int it1 = -1;
    for (int k = 0; k < nr && !check__failed_case; k++) {
        const int P = ranks[k];
        int firsts[9];
        even_split(n, P, firsts);
        if (P == 3 && !comms) firsts[1] = 1, firsts[2] = n - 2; /* uneven: a one-row block */
        perks_cgd_result res;
        int rc = solve(A, b, dbl, P, firsts, dev, comms, &o, &res, x);
        double slack;
        const double tr = true_resid(A, b, x, dbl, &slack);
        CHECK(rc == PERKS_SUCCESS, "%s %s jacobi %d, %d ranks%s: rc %d (%s), %d iterations, recurrence %.3g, true %.3g",
              what, dbl ? "double" : "float", jacobi, P, comms ? " (NCCL)" : "", rc, perks_strerror(rc), res.iterations,
              res.rel_residual, res.true_residual);
        /* <= tol up to the rounding of the residual itself: the solver's own |b - Ax| (another
         * summation order) and this one differ by up to slack, so a reported 9.98e-11 can be
         * recomputed as 1.0006e-10 (1138_bus, tol 1e-10, H200) */
        CHECK(tr <= tol + slack && fabs(tr - res.true_residual) <= 1e-6 * tr + slack,
              "%s %d ranks: reported true residual %.6g, recomputed %.6g (tol %g)", what, P, res.true_residual, tr, tol);
        if (it1 < 0) it1 = res.iterations;
        /* double: within two iterations, and 2 % more past 50 (rounding in another order moves the end,
         * and the right-hand side is fresh random data each run: 1138_bus, cond 8.6e6, by 2 of 1088 and
         * by 11 of 1093 (H200, 3 ranks); bcsstk05 with 5 virtual ranks on an H200 by 2 of
         * 148); float: restarts may come at other iterations.  A wrong split or halo does not converge
         * in max_iter or takes many times the iterations, which this still catches. */
        CHECK(abs(res.iterations - it1) <= (dbl ? 2 + it1 / 50 : 2 + it1 / 10), "%s %s, %d ranks: %d iterations, one rank %d",
              what, dbl ? "double" : "float", P, res.iterations, it1);
        if (P == ranks[nr - 1] && !check__failed_case)
            printf("  %s %s jacobi %d: %d ranks %d iterations (one rank %d), true residual %.3g, %d restarts\n", what,
                   dbl ? "double" : "float", jacobi, P, res.iterations, it1, res.true_residual, res.restarts);
    }
    free(b), free(x);
}

static const char *data_dir(void)
{
    static const char *dirs[] = {"../shared/data/mtx", ".data/mtx"};
    for (int k = 0; k < 2; k++) {
        char path[256];
        snprintf(path, sizeof path, "%s/bcsstk01.mtx", dirs[k]);
        FILE *f = fopen(path, "r");
        if (f) { fclose(f); return dirs[k]; }
    }
    return NULL;
}

static const char *const g_files[] = {"bcsstk05", "bcsstk09", "1138_bus", "crystm01"};
#define N_FILES ((int)(sizeof g_files / sizeof *g_files))
static int files_count(int light) { return light ? 1 : N_FILES; } /* --light (under the sanitizers): the first */

static void test_virtual(int light)
{
    const int dev[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    static const int ranks[] = {1, 3, 2, 5}; /* --light (under the sanitizers): the first two or three */
    /* --light: a smaller grid and the file to 1e-7, fewer iterations (each a few launches a rank) */
    const int px = light ? 15 : 37, py = light ? 11 : 29;
    const double ftol = light ? 1e-7 : 1e-10;
    char name[64], label[200];
    snprintf(name, sizeof name, "poisson %dx%d", px, py);
    snprintf(label, sizeof label, "perks cg_dist: virtual ranks on one GPU reach tol in one rank's iterations (+-2, 2 %% "
             "more past 50), true residual told (%s)", name);
    perks_csr A;
    memset(&A, 0, sizeof A);
    if (case_part(label)) {
        poisson2d(&A, px, py);
        check_matrix(name, &A, 1, 0, 1e-10, ranks, light ? 2 : 4, dev, NULL);
        check_matrix(name, &A, 0, 1, 1e-5, ranks, light ? 2 : 4, dev, NULL);
        perks_csr_free(&A);
        case_end();
    }
    const char *dir = data_dir();
    for (int f = 0; f < files_count(light); f++) {
        char path[300];
        perks_mtx_error e;
        snprintf(label, sizeof label, "perks cg_dist: virtual ranks on one GPU, SuiteSparse %s (tol %.0e)", g_files[f], ftol);
        if (!dir) {
            check_skip(label, "../shared/data/mtx and .data/mtx not found");
            continue;
        }
        snprintf(path, sizeof path, "%s/%s.mtx", dir, g_files[f]);
        const int rc = perks_mtx_read_path(path, &A, &e);
        if (rc == PERKS_EFORMAT && e.line == 0) {
            check_skip(label, "file not found");
            continue;
        }
        if (!case_part(label)) {
            if (rc == 0) perks_csr_free(&A);
            continue;
        }
        CHECK(rc == 0, "%s: %s line %ld: %s", path, perks_strerror(rc), e.line, e.message);
        if (rc == 0) {
            check_matrix(g_files[f], &A, 1, 1, ftol, ranks, light ? 2 : 4, dev, NULL);
            if (f < 2 && !light) check_matrix(g_files[f], &A, 0, 1, 1e-4, ranks, 3, dev, NULL);
            perks_csr_free(&A);
        }
        case_end();
    }
}

/* one rank through NCCL: a one-rank communicator on GPU 0 against the virtual rank (no communicator)
 * on the same system and b: the same iterations (+-1) and a true residual <= tol.  With NCCL built in
 * this runs on every machine (one GPU is enough) outside --light, where compute-sanitizer reports
 * NCCL's own start-up calls. */
static void test_nccl_one(int light)
{
    const char *label = "perks cg_dist: one rank through NCCL (a one-rank communicator) equals the virtual rank";
#ifdef PERKS_CGD_NCCL
    if (light) {
        check_skip(label, "--light: compute-sanitizer reports NCCL's own start-up calls");
        return;
    }
    case_begin(label);
    int dev[1] = {0};
    ncclComm_t comm;
    void *cv[1];
    CUDA_OK(cudaSetDevice(0));
    CHECK(ncclCommInitAll(&comm, 1, dev) == ncclSuccess, "ncclCommInitAll over 1 GPU");
    cv[0] = comm;
    if (!check__failed_case) {
        perks_csr A;
        memset(&A, 0, sizeof A);
        poisson2d(&A, 101, 67);
        const double tol = 1e-10;
        double *b = (double *)malloc(A.n_rows * sizeof(double)), *x = (double *)malloc(A.n_rows * sizeof(double));
        for (int i = 0; i < A.n_rows; i++) b[i] = gpucheck_uniform();
        perks_cgd_opts o = opts0();
        o.tol = tol, o.jacobi = 1, o.max_iter = 20000;
        perks_cgd_result r1, rn;
        int f1[2] = {0, A.n_rows};
        CHECK(solve(&A, b, 1, 1, f1, dev, NULL, &o, &r1, x) == 0, "the virtual rank");
        const int rc = solve(&A, b, 1, 1, f1, dev, cv, &o, &rn, x);
        CHECK(rc == 0, "one rank through NCCL: rc %d (%s)", rc, perks_strerror(rc));
        double slack;
        const double tr = true_resid(&A, b, x, 1, &slack);
        CHECK(tr <= tol + slack && fabs(tr - rn.true_residual) <= 1e-6 * tr + slack, "NCCL: reported %.6g, recomputed %.6g",
              rn.true_residual, tr);
        CHECK(abs(rn.iterations - r1.iterations) <= 1, "one rank through NCCL: %d iterations, the virtual rank %d",
              rn.iterations, r1.iterations);
        free(b), free(x);
        perks_csr_free(&A);
        /* after PERKS_ECOMM or PERKS_ETIMEOUT the solve has aborted the communicator: left alone */
        if (rc != PERKS_ECOMM && rc != PERKS_ETIMEOUT) ncclCommDestroy(comm);
    }
    case_end();
#else
    (void)light;
    check_skip(label, "no <nccl.h> in this build");
#endif
}

static void test_nccl(int light)
{
    const char *label = "perks cg_dist: one rank per GPU through NCCL reaches tol in one rank's iterations (+-2, 2 % more past 50)";
    int ngpu = 0;
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess) ngpu = 0;
#ifdef PERKS_CGD_NCCL
    if (ngpu < 2) {
        char why[96];
        snprintf(why, sizeof why, "several ranks need two GPUs (%d here; one rank: the case above)", ngpu);
        check_skip(label, why);
        return;
    }
    case_begin(label);
    int P = ngpu > 8 ? 8 : ngpu, dev[8];
    for (int r = 0; r < P; r++) dev[r] = r;
    ncclComm_t comms[8];
    void *cv[8];
    CHECK(ncclCommInitAll(comms, P, dev) == ncclSuccess, "ncclCommInitAll over %d GPUs", P);
    for (int r = 0; r < P; r++) cv[r] = comms[r];
    perks_csr A;
    memset(&A, 0, sizeof A);
    poisson2d(&A, light ? 45 : 301, light ? 31 : 97); /* light: under the sanitizers */
    /* one rank (virtual, GPU 0) against P ranks through NCCL: the same iterations +- 1 */
    {
        const double tol = 1e-10;
        double *b = (double *)malloc(A.n_rows * sizeof(double)), *x = (double *)malloc(A.n_rows * sizeof(double));
        for (int i = 0; i < A.n_rows; i++) b[i] = gpucheck_uniform();
        perks_cgd_opts o = opts0();
        o.tol = tol, o.jacobi = 1, o.max_iter = 20000;
        perks_cgd_result r1, rp;
        int f1[2] = {0, A.n_rows}, fp[9];
        even_split(A.n_rows, P, fp);
        CHECK(solve(&A, b, 1, 1, f1, dev, NULL, &o, &r1, x) == 0, "one rank");
        CHECK(solve(&A, b, 1, P, fp, dev, cv, &o, &rp, x) == 0, "%d ranks (NCCL): rc", P);
        double slack;
        const double tr = true_resid(&A, b, x, 1, &slack);
        CHECK(tr <= tol + slack && fabs(tr - rp.true_residual) <= 1e-6 * tr + slack, "NCCL: reported %.6g, recomputed %.6g",
              rp.true_residual, tr);
        CHECK(abs(rp.iterations - r1.iterations) <= 1, "NCCL %d ranks: %d iterations, one rank %d", P, rp.iterations,
              r1.iterations);
        printf("  poisson %dx%d double jacobi: %d GPUs through NCCL %d iterations, one rank %d\n", light ? 45 : 301,
               light ? 31 : 97, P, rp.iterations, r1.iterations);
        free(b), free(x);
    }
    check_matrix("poisson (NCCL)", &A, 0, 1, 1e-4, &P, 1, dev, cv);
    perks_csr_free(&A);
    /* after PERKS_ECOMM or PERKS_ETIMEOUT the solve has aborted the communicators: the test has
     * failed then, and the communicators are left alone */
    if (!check__failed_case)
        for (int r = 0; r < P; r++) ncclCommDestroy(comms[r]);
    case_end();
#else
    (void)light;
    char why[96];
    snprintf(why, sizeof why, "no <nccl.h> in this build (%d GPUs)", ngpu);
    check_skip(label, why);
#endif
}

/* one plan of P virtual ranks (device 0, double) for two right-hand sides, then the first again: each
 * answer's reported true residual the host's and <= tol, the third the first's bits */
static void reuse(const perks_csr *A, const double *b1, const double *b2, int P, const int *firsts, double tol)
{
    perks_cgd_rank rk[8];
    void *bufs[8][6];
    memset(rk, 0, sizeof rk);
    const double *bs[2] = {b1, b2};
    for (int r = 0; r < P; r++) {
        perks_cgd_rank *k = &rk[r];
        const int f = firsts[r], own = firsts[r + 1] - f, e0 = A->row_ptr[f], nnz = A->row_ptr[f + own] - e0;
        k->device = 0, k->nranks = P, k->rank = r, k->n = A->n_rows, k->first = f, k->own = own;
        int *rp = (int *)malloc((own + 1) * sizeof(int));
        for (int i = 0; i <= own; i++) rp[i] = A->row_ptr[f + i] - e0;
        CUDA_OK(cudaSetDevice(0));
        CUDA_OK(cudaStreamCreate(&k->stream));
        CUDA_OK(cudaMalloc(&bufs[r][0], (own + 1) * sizeof(int)));
        CUDA_OK(cudaMalloc(&bufs[r][1], (nnz ? nnz : 1) * sizeof(int)));
        CUDA_OK(cudaMalloc(&bufs[r][2], (nnz ? nnz : 1) * sizeof(double)));
        CUDA_OK(cudaMalloc(&bufs[r][3], own * sizeof(double)));
        CUDA_OK(cudaMalloc(&bufs[r][4], own * sizeof(double)));
        CUDA_OK(cudaMalloc(&bufs[r][5], own * sizeof(double)));
        CUDA_OK(cudaMemcpy(bufs[r][0], rp, (own + 1) * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][1], A->col + e0, nnz * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][2], A->val + e0, nnz * sizeof(double), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][3], b1 + f, own * sizeof(double), cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(bufs[r][5], b2 + f, own * sizeof(double), cudaMemcpyHostToDevice));
        k->rp = (const int *)bufs[r][0], k->ci = (const int *)bufs[r][1], k->va = bufs[r][2], k->b = bufs[r][3];
        k->x = bufs[r][4];
        free(rp);
    }
    perks_cgd_result res[3];
    perks_cgd_opts o = opts0();
    o.tol = tol;
    perks_cgd_args a = {rk, P, o, &res[0]};
    perks_cgd_plan p;
    int rc = cgd_d_plan(&a, &p);
    CHECK(rc == 0, "reuse: plan %s (%s)", perks_strerror(rc), p.why);
    check_head(&p, rc, &a);
    const int n = A->n_rows;
    double *x = (double *)malloc(3 * (size_t)n * sizeof(double));
    for (int k = 0; k < 3 && !rc; k++) {
        const int rhs = k == 1;
        for (int r = 0; r < P; r++) {
            rk[r].b = bufs[r][rhs ? 5 : 3];
            CUDA_OK(cudaMemset(rk[r].x, 0xFF, rk[r].own * sizeof(double))); /* NaN: the solve starts from 0 */
        }
        a.result = &res[k];
        const int rk_ = cgd_d_run(&a, &p);
        for (int r = 0; r < P; r++)
            CUDA_OK(cudaMemcpy(x + (size_t)k * n + firsts[r], rk[r].x, rk[r].own * sizeof(double), cudaMemcpyDeviceToHost));
        double slack;
        const double tr = true_resid(A, bs[rhs], x + (size_t)k * n, 1, &slack);
        CHECK(rk_ == PERKS_SUCCESS && rk_ == res[k].status, "reuse: solve %d: %s", k, perks_strerror(rk_));
        CHECK(tr <= tol + slack && fabs(tr - res[k].true_residual) <= 1e-6 * tr + slack,
              "reuse: solve %d: reported true residual %.6g, recomputed %.6g", k, res[k].true_residual, tr);
    }
    if (!rc)
        CHECK(res[2].iterations == res[0].iterations && !memcmp(x, x + 2 * (size_t)n, n * sizeof(double)) &&
                  memcmp(x, x + n, n * sizeof(double)),
              "reuse: the first right-hand side again: %d iterations (%d), or the second's x the same", res[2].iterations,
              res[0].iterations);
    perks_cgd_plan_free(&p);
    for (int r = 0; r < P; r++) {
        for (int j = 0; j < 6; j++) cudaFree(bufs[r][j]);
        cudaStreamDestroy(rk[r].stream);
    }
    free(x);
}

static void test_errors(void)
{
    case_begin("perks cg_dist error codes (bad splits, disagreeing ranks, diagonal, breakdown, no convergence); one plan, two right-hand sides");
    const int dev[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    perks_csr A;
    memset(&A, 0, sizeof A);
    const int n = poisson2d(&A, 9, 7);
    double *b = (double *)malloc(n * sizeof(double)), *x = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) b[i] = 1 + gpucheck_uniform();
    perks_cgd_opts o = opts0();
    perks_cgd_result res;
    {
        perks_cgd_args a = {NULL, 1, o, &res};
        CHECK(cgd_d_launch(&a) == PERKS_ENULL && res.status == PERKS_ENULL, "NULL ranks");
        perks_cgd_plan p;
        CHECK(cgd_d_plan(&a, &p) == PERKS_ENULL, "NULL ranks: plan");
        check_head(&p, PERKS_ENULL, &a);
        CHECK(cgd_d_plan(NULL, &p) == PERKS_ENULL && cgd_d_plan(&a, NULL) == PERKS_ENULL && cgd_d_launch(NULL) == PERKS_ENULL,
              "NULL arguments, NULL plan");
    }
    {   /* x (host memory here: never reached) poisoned with a byte pattern: each refusal leaves it */
        memset(x, 0xA5, n * sizeof(double));
#define X_UNTOUCHED(what)                                                                              \
    do {                                                                                               \
        int same__ = 1;                                                                                \
        for (size_t i__ = 0; i__ < n * sizeof(double); i__++) same__ &= ((unsigned char *)x)[i__] == 0xA5; \
        CHECK(same__, "%s: x written by a refused solve", what);                                       \
        CHECK(isnan(res.true_residual), "%s: no x judged, the true residual is NaN (%g)", what, res.true_residual); \
    } while (0)
        const int gap[3] = {0, 20, n};
        perks_cgd_rank rk[2];
        memset(rk, 0, sizeof rk);
        for (int r = 0; r < 2; r++) {
            rk[r].nranks = 2, rk[r].rank = r, rk[r].n = n, rk[r].first = gap[r], rk[r].own = gap[r + 1] - gap[r];
            rk[r].rp = rk[r].ci = (const int *)b, rk[r].va = rk[r].b = b, rk[r].x = x; /* not reached */
        }
        rk[1].first = 21; /* a gap between the blocks */
        rk[1].own = n - 21;
        perks_cgd_args a = {rk, 2, o, &res};
        int rc = cgd_d_launch(&a);
        CHECK(rc == PERKS_ECUDA || rc == PERKS_ESIZE, "host pointers: rc %d", rc);
        X_UNTOUCHED("a gap between the blocks");
        rk[1].rank = 0;
        CHECK(cgd_d_launch(&a) == PERKS_ESIZE, "two ranks 0");
        X_UNTOUCHED("two ranks 0");
        rk[1].rank = 1, rk[1].nranks = 3;
        CHECK(cgd_d_launch(&a) == PERKS_ESIZE, "ranks that disagree on nranks");
        X_UNTOUCHED("ranks that disagree on nranks");
        rk[1].nranks = 2, rk[1].first = 20, rk[1].own = n - 20, rk[1].n = n + 1; /* blocks that tile, n differs */
        CHECK(cgd_d_launch(&a) == PERKS_ESIZE, "ranks that disagree on n");
        {
            perks_cgd_plan p;
            CHECK(cgd_d_plan(&a, &p) == PERKS_ESIZE, "ranks that disagree on n: plan");
            check_head(&p, PERKS_ESIZE, &a);
        }
        X_UNTOUCHED("ranks that disagree on n");
        rk[1].n = n;
        a.opts.blocks = -1;
        CHECK(cgd_d_launch(&a) == PERKS_ESIZE, "opts.blocks -1");
        X_UNTOUCHED("opts.blocks -1");
        a.opts.blocks = o.blocks;
        a.result = NULL;
        CHECK(cgd_d_launch(&a) == PERKS_ENULL, "NULL result");
        a.result = &res, a.nlocal = 0;
        CHECK(cgd_d_launch(&a) == PERKS_ESIZE, "no rank");
        a.nlocal = 2;
        X_UNTOUCHED("no rank");
        rk[1].x = NULL; /* one rank's NULL: gathered, every rank */
        CHECK(cgd_d_launch(&a) == PERKS_ENULL, "a NULL x on rank 1");
        X_UNTOUCHED("a NULL x on rank 1");
#undef X_UNTOUCHED
    }
    {   /* one plan, two right-hand sides: 2 and 3 virtual ranks */
        double *b2 = (double *)malloc(n * sizeof(double));
        for (int i = 0; i < n; i++) b2[i] = gpucheck_uniform();
        const int f2[3] = {0, 30, n}, f3[4] = {0, 17, 40, n};
        reuse(&A, b, b2, 2, f2, 1e-10);
        reuse(&A, b, b2, 3, f3, 1e-10);
        free(b2);
    }
    {   /* too few iterations: no convergence, and the true residual still told */
        int firsts[3] = {0, 30, n};
        o.max_iter = 3;
        CHECK(solve(&A, b, 1, 2, firsts, dev, NULL, &o, &res, x) == PERKS_ENOCONV, "3 iterations: no convergence");
        double slack, tr = true_resid(&A, b, x, 1, &slack);
        CHECK(res.iterations == 3 && fabs(res.true_residual - tr) <= 1e-6 * tr + slack,
              "ENOCONV tells the true residual: %.6g vs %.6g", res.true_residual, tr);
        o.max_iter = 1000;
    }
    {   /* Jacobi with a zero diagonal entry; then an indefinite matrix: breakdown */
        for (int e = A.row_ptr[5]; e < A.row_ptr[6]; e++)
            if (A.col[e] == 5) A.val[e] = 0;
        int firsts[3] = {0, 30, n};
        o.jacobi = 1;
        CHECK(solve(&A, b, 1, 2, firsts, dev, NULL, &o, &res, x) == PERKS_EDIAG, "zero diagonal on rank 0 with Jacobi: rc");
        for (int e = A.row_ptr[5]; e < A.row_ptr[6]; e++)
            if (A.col[e] == 5) A.val[e] = 4.0001;
        for (int e = A.row_ptr[40]; e < A.row_ptr[41]; e++) /* now on rank 1 only: every rank must stop */
            if (A.col[e] == 40) A.val[e] = -1;
        CHECK(solve(&A, b, 1, 2, firsts, dev, NULL, &o, &res, x) == PERKS_EDIAG && res.iterations == 0,
              "negative diagonal on rank 1 with Jacobi: rc (every rank)");
        o.jacobi = 0;
        for (int i = 0; i < n; i++)
            for (int e = A.row_ptr[i]; e < A.row_ptr[i + 1]; e++) A.val[e] = A.col[e] == i ? -1.0 : 0.0;
        CHECK(solve(&A, b, 1, 2, firsts, dev, NULL, &o, &res, x) == PERKS_EBREAKDOWN && res.iterations == 0,
              "negative definite matrix: breakdown at the first iteration (%d)", res.iterations);
    }
    free(b), free(x);
    perks_csr_free(&A);
    case_end();
}

/* usage: test_perks_cg_dist [--light] [--part K/N]   (--light: 4 blocks a rank, a smaller grid, one file
 * to 1e-7; --part: the virtual-rank cases every N-th from the K-th, the others in every part) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    g_blocks = light ? 4 : 0;
    /* test_errors 1; test_virtual: poisson 1 + a case a file (--light: 1 file); NCCL: one rank 1, one rank
     * a GPU 1 (a counted skip where the machine or the build lacks it) */
    check_plan(1 + 1 + files_count(light) + 1 + 1);
    test_errors();
    test_virtual(light);
    test_nccl_one(light);
    test_nccl(light);
    return check_exit();
}
