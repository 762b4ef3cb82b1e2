/* examples/cg_multi.cu -- CG over several ranks with perks/cg_dist.cuh: a matrix split into row
 * blocks, one block per GPU (or per virtual rank on one GPU), the halo through NCCL.
 *   one process:        cg_multi [FILE.mtx] [--ranks P] [--jacobi] [--tol T]
 *       one rank per GPU through NCCL when there are two or more GPUs (P = the GPU count), else P
 *       virtual ranks on GPU 0 (default 3) exchanging by device copies;
 *   one process a rank: cg_multi [FILE.mtx] --rank R --nranks P --id-file PATH [--jacobi] [--tol T]
 *       start P processes (R = 0 .. P-1, same PATH); rank 0 writes the NCCL id to PATH, the others
 *       wait for it (60 s at most); rank R uses GPU R mod the GPU count.
 * Every process reads the whole file and keeps its rows (perks_slab_first / perks_slab_own of
 * perks/decomp.h: an even split).  With no file: a 2D Poisson system (200 x 200 grid).
 * b = A * ones, so the exact x is all ones; every rank prints how far its block is from it, and
 * rank 0 the iterations and the true residual.  Exit status 0 when the solve succeeded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perks/cg_dist.cuh>
#include <perks/mtx.h>

PERKS_CGD_DEFINE(cgd64, double)

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static void poisson2d(perks_csr *A, int m)
{
    int n = m * m, k = 0;
    memset(A, 0, sizeof *A);
    A->row_ptr = (int *)malloc(sizeof(int) * (n + 1));
    A->col = (int *)malloc(sizeof(int) * 5 * n);
    A->val = (double *)malloc(sizeof(double) * 5 * n);
    for (int i = 0; i < n; i++) {
        int x = i % m, y = i / m;
        A->row_ptr[i] = k;
        if (y > 0) A->col[k] = i - m, A->val[k++] = -1;
        if (x > 0) A->col[k] = i - 1, A->val[k++] = -1;
        A->col[k] = i, A->val[k++] = 4;
        if (x < m - 1) A->col[k] = i + 1, A->val[k++] = -1;
        if (y < m - 1) A->col[k] = i + m, A->val[k++] = -1;
    }
    A->row_ptr[n] = k;
    A->n_rows = A->n_cols = n;
    A->nnz = k;
}

/* rank r of P: its rows of A on GPU dev, b = A * ones */
static void load_rank(perks_cgd_rank *k, const perks_csr *A, int P, int r, int dev)
{
    const int n = A->n_rows, f = perks_slab_first(n, P, r), own = perks_slab_own(n, P, r);
    const int e0 = A->row_ptr[f], nnz = A->row_ptr[f + own] - e0;
    int *rp = (int *)malloc((own + 1) * sizeof(int));
    double *b = (double *)malloc(own * sizeof(double));
    for (int i = 0; i <= own; i++) rp[i] = A->row_ptr[f + i] - e0;
    for (int i = 0; i < own; i++) {
        b[i] = 0;
        for (int e = A->row_ptr[f + i]; e < A->row_ptr[f + i + 1]; e++) b[i] += A->val[e];
    }
    memset(k, 0, sizeof *k);
    k->device = dev, k->nranks = P, k->rank = r, k->n = n, k->first = f, k->own = own;
    void *p[5];
    CK(cudaSetDevice(dev));
    CK(cudaStreamCreate(&k->stream));
    CK(cudaMalloc(&p[0], (own + 1) * sizeof(int)));
    CK(cudaMalloc(&p[1], nnz * sizeof(int)));
    CK(cudaMalloc(&p[2], nnz * sizeof(double)));
    CK(cudaMalloc(&p[3], own * sizeof(double)));
    CK(cudaMalloc(&p[4], own * sizeof(double)));
    CK(cudaMemcpy(p[0], rp, (own + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p[1], A->col + e0, nnz * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p[2], A->val + e0, nnz * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p[3], b, own * sizeof(double), cudaMemcpyHostToDevice));
    k->rp = (const int *)p[0], k->ci = (const int *)p[1], k->va = p[2], k->b = p[3], k->x = p[4];
    free(rp), free(b);
}

/* max |x_i - 1| over rank k's block */
static double block_error(const perks_cgd_rank *k)
{
    double *x = (double *)malloc(k->own * sizeof(double)), e = 0;
    CK(cudaSetDevice(k->device));
    CK(cudaMemcpy(x, k->x, k->own * sizeof(double), cudaMemcpyDeviceToHost));
    for (int i = 0; i < k->own; i++) {
        const double d = fabs(x[i] - 1);
        if (!(d <= e)) e = d; /* a NaN x shows as NaN (fmax would drop it) */
    }
    free(x);
    return e;
}

#ifdef PERKS_CGD_NCCL
/* rank 0 makes the NCCL id and writes it to path (a temporary file renamed: readers never see half
 * of it); the others wait for the file, 60 s at most */
static int share_id(ncclUniqueId *id, int rank, const char *path)
{
    if (rank == 0) {
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
        FILE *f = fopen(tmp, "wb");
        if (ncclGetUniqueId(id) != ncclSuccess || !f || fwrite(id, sizeof *id, 1, f) != 1 || fclose(f) ||
            rename(tmp, path))
            return 1;
        return 0;
    }
    for (int t = 0; t < 600; t++) {
        FILE *f = fopen(path, "rb");
        if (f) {
            size_t got = fread(id, sizeof *id, 1, f);
            fclose(f);
            if (got == 1) return 0;
        }
        usleep(100000);
    }
    return 1;
}
#endif

int main(int argc, char **argv)
{
    const char *path = NULL, *idfile = NULL;
    int P = 0, rank = -1, nranks = 0;
    perks_cgd_opts o = perks_cgd_defaults();
    o.tol = 1e-10;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ranks") && i + 1 < argc) P = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--jacobi")) o.jacobi = 1;
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) o.tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rank") && i + 1 < argc) rank = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nranks") && i + 1 < argc) nranks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--id-file") && i + 1 < argc) idfile = argv[++i];
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else {
            fprintf(stderr, "usage: %s [FILE.mtx] [--ranks P] [--jacobi] [--tol T] "
                            "[--rank R --nranks P --id-file PATH]\n", argv[0]);
            return 2;
        }
    }
    perks_csr A;
    if (path) {
        perks_mtx_error e;
        int rc = perks_mtx_read_path(path, &A, &e);
        if (rc) { fprintf(stderr, "%s: line %ld: %s (%s)\n", path, e.line, e.message, perks_strerror(rc)); return 1; }
    } else poisson2d(&A, 200);
    int ngpu = 0, nloc = 0, rc;
    CK(cudaGetDeviceCount(&ngpu));
    perks_cgd_rank rk[8];
    perks_cgd_result res;
    if (idfile) { /* one rank in this process */
#ifdef PERKS_CGD_NCCL
        ncclUniqueId id;
        ncclComm_t comm;
        if (rank < 0 || nranks < 1 || rank >= nranks || nranks > PERKS_CGD_MAXRANKS || share_id(&id, rank, idfile)) {
            fprintf(stderr, "rank %d of %d: no NCCL id in %s\n", rank, nranks, idfile);
            return 1;
        }
        CK(cudaSetDevice(rank % ngpu));
        if (ncclCommInitRank(&comm, nranks, id, rank) != ncclSuccess) { fprintf(stderr, "ncclCommInitRank failed\n"); return 1; }
        load_rank(&rk[0], &A, nranks, rank, rank % ngpu);
        rk[0].comm = comm;
        nloc = 1;
        const perks_cgd_args a = {rk, 1, o, &res};
        rc = cgd64_launch(&a); /* plan (the collective setup), run, free */
        if (rc != PERKS_ECOMM && rc != PERKS_ETIMEOUT) ncclCommDestroy(comm); /* else the solve aborted it */
        if (rank == 0) remove(idfile);
#else
        fprintf(stderr, "built without <nccl.h>: no multi-process mode\n");
        return 1;
#endif
    } else {
        void *comms[8] = {0};
        rank = 0;
#ifdef PERKS_CGD_NCCL
        ncclComm_t nc[8];
        if (ngpu >= 2) {
            int dev[8];
            P = ngpu > 8 ? 8 : ngpu;
            for (int r = 0; r < P; r++) dev[r] = r;
            if (ncclCommInitAll(nc, P, dev) != ncclSuccess) { fprintf(stderr, "ncclCommInitAll failed\n"); return 1; }
            for (int r = 0; r < P; r++) comms[r] = nc[r];
        }
#endif
        if (!comms[0]) P = P < 1 ? 3 : P > 8 ? 8 : P; /* virtual ranks on GPU 0 */
        for (int r = 0; r < P; r++) {
            load_rank(&rk[r], &A, P, r, comms[0] ? r : 0);
            rk[r].comm = comms[r];
        }
        nloc = P;
        printf("%d ranks in one process (%s)\n", P, comms[0] ? "one per GPU, NCCL" : "virtual, on GPU 0");
        const perks_cgd_args a = {rk, P, o, &res};
        rc = cgd64_launch(&a);
#ifdef PERKS_CGD_NCCL
        if (comms[0] && rc != PERKS_ECOMM && rc != PERKS_ETIMEOUT) /* else the solve aborted them */
            for (int r = 0; r < P; r++) ncclCommDestroy(nc[r]);
#endif
    }
    for (int i = 0; i < nloc; i++)
        printf("rank %d: rows %d..%d on GPU %d, max |x - 1| = %.3g\n", rk[i].rank, rk[i].first,
               rk[i].first + rk[i].own - 1, rk[i].device, block_error(&rk[i]));
    if (rank == 0)
        printf("%s: n %d, %d iterations, true residual %.3g (recurrence %.3g, tol %g): %s\n", path ? path : "poisson 200x200",
               A.n_rows, res.iterations, res.true_residual, res.rel_residual, o.tol, perks_strerror(rc));
    perks_csr_free(&A);
    return rc == PERKS_SUCCESS ? 0 : 1;
}
