/* bench/perks_cg_dist.cu -- perks/cg_dist.cuh over 1, 2, 4, 8 GPUs (as many as there are): strong scaling of
 * CG on the 3D Poisson matrix (7-point Laplacian, Dirichlet, N^3 rows; every row stores 7 entries,
 * those past the edge as explicit zeros), double, Jacobi.
 *   Time per iteration: (solve of K2 iterations - solve of K1) / (K2 - K1), tol 0 (no convergence), so
 *   the setup cancels.  Beside it the floor: the bytes one iteration moves over the copy bandwidth
 *   measured on GPU 0 (200 bytes per row for double: the CSR 12 per nonzero + 4 per row, the
 *   vectors' reads and writes).  Then a convergence check at a smaller size: P ranks reach 1e-8 in
 *   the iterations of one rank (+- 1) with the same true residual.
 * usage: cgdist [--n N] [--json PATH] [--light] [--lanes L]  (default N 512; --light: N 128; L: lanes per row)
 */
#include <perks/cg_dist.cuh>

#include "gpucheck.h"

PERKS_CGD_DEFINE(cgd64, double)

/* rows [first, first + own) of the N^3 Poisson matrix: 7 entries per row, global columns */
static __global__ void poisson3d_rows(int N, int first, int own, int *rp, int *ci, double *va, double *b)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i <= own; i += (long long)gridDim.x * blockDim.x) {
        rp[i] = (int)(7 * i);
        if (i == own) break;
        const long long g = first + i, x = g % N, y = g / N % N, z = g / ((long long)N * N);
        const long long nb[7] = {g - (long long)N * N, g - N, g - 1, g, g + 1, g + N, g + (long long)N * N};
        const int in[7] = {z > 0, y > 0, x > 0, 1, x < N - 1, y < N - 1, z < N - 1};
        for (int k = 0; k < 7; k++) {
            ci[7 * i + k] = (int)(in[k] ? nb[k] : g);
            va[7 * i + k] = k == 3 ? 6.0 : in[k] ? -1.0 : 0.0;
        }
        b[i] = 1.0;
    }
}

typedef struct rankbuf {
    int *rp, *ci;
    double *va, *b, *x;
} rankbuf;

static void make_ranks(perks_cgd_rank *rk, rankbuf *rb, int P, int N, const int *dev, void *const *comms)
{
    const int n = N * N * N;
    for (int r = 0; r < P; r++) {
        perks_cgd_rank *k = &rk[r];
        memset(k, 0, sizeof *k);
        k->device = dev[r], k->nranks = P, k->rank = r, k->n = n;
        k->first = perks_slab_first(n, P, r), k->own = perks_slab_own(n, P, r);
        k->comm = comms ? comms[r] : NULL;
        CUDA_DIE(cudaSetDevice(dev[r]));
        CUDA_DIE(cudaStreamCreate(&k->stream));
        CUDA_DIE(cudaMalloc(&rb[r].rp, (k->own + 1) * sizeof(int)));
        CUDA_DIE(cudaMalloc(&rb[r].ci, 7 * (size_t)k->own * sizeof(int)));
        CUDA_DIE(cudaMalloc(&rb[r].va, 7 * (size_t)k->own * sizeof(double)));
        CUDA_DIE(cudaMalloc(&rb[r].b, k->own * sizeof(double)));
        CUDA_DIE(cudaMalloc(&rb[r].x, k->own * sizeof(double)));
        poisson3d_rows<<<1024, 256, 0, k->stream>>>(N, k->first, k->own, rb[r].rp, rb[r].ci, rb[r].va, rb[r].b);
        CUDA_DIE(cudaGetLastError());
        CUDA_DIE(cudaStreamSynchronize(k->stream));
        k->rp = rb[r].rp, k->ci = rb[r].ci, k->va = rb[r].va, k->b = rb[r].b, k->x = rb[r].x;
    }
}

static void free_ranks(perks_cgd_rank *rk, rankbuf *rb, int P)
{
    for (int r = 0; r < P; r++) {
        CUDA_DIE(cudaSetDevice(rk[r].device));
        cudaFree(rb[r].rp), cudaFree(rb[r].ci), cudaFree(rb[r].va), cudaFree(rb[r].b), cudaFree(rb[r].x);
        cudaStreamDestroy(rk[r].stream);
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* wall milliseconds of one solve of `iters` iterations (tol 0) */
static int lanes_opt = 0;
static double solve_ms(perks_cgd_rank *rk, int P, int iters)
{
    perks_cgd_opts o = perks_cgd_defaults();
    perks_cgd_result res;
    o.tol = 0, o.max_iter = iters, o.jacobi = 1, o.lanes = lanes_opt;
    const perks_cgd_args a = {rk, P, o, &res};
    const double t0 = now_ms();
    int rc = cgd64_launch(&a); /* plan (the setup), run, free: the whole call, as before */
    const double t = now_ms() - t0;
    if (rc != PERKS_ENOCONV || res.iterations != iters) {
        fprintf(stderr, "cgdist: solve rc %d (%s), %d iterations\n", rc, perks_strerror(rc), res.iterations);
        exit(1);
    }
    return t;
}

int main(int argc, char **argv)
{
    int N = 512, light = 0, ngpu = 0;
    const char *jpath = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) N = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--light")) light = 1, N = 128;
        else if (!strcmp(argv[i], "--lanes") && i + 1 < argc) lanes_opt = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--n N] [--json PATH] [--light] [--lanes L]\n", argv[0]);
            return 2;
        }
    }
    CUDA_DIE(cudaGetDeviceCount(&ngpu));
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    if (N < 2 || (long long)N * N * N > 0x7fffffffLL) {
        fprintf(stderr, "cgdist: N^3 rows must fit 32-bit indices (N <= 1290)\n");
        return 2;
    }
    const int n = N * N * N;
    double bw;
    {
        void *a, *b;
        const size_t bytes = (size_t)1 << 30;
        CUDA_DIE(cudaMalloc(&a, bytes));
        CUDA_DIE(cudaMalloc(&b, bytes));
        bw = gpucheck_copy_bw(a, b, bytes);
        cudaFree(a), cudaFree(b);
    }
    printf("perks cg_dist: 3D Poisson %d^3 (%d rows, 7 per row), double, Jacobi; %d GPU(s) %s; copy %.0f GB/s on GPU 0\n",
           N, n, ngpu, pr.name, bw * 1e-9);
    FILE *json = jpath ? gpucheck_json_open(jpath, "cgdist", pr.name, 1) : NULL;
    int rows = 0, dev[8];
    for (int r = 0; r < 8; r++) dev[r] = r < ngpu ? r : 0;
#ifndef PERKS_CGD_NCCL
    if (ngpu > 1) printf("built without <nccl.h>: one GPU only\n");
    ngpu = 1;
#endif
    const int K1 = light ? 10 : 20, K2 = light ? 40 : 120;
    double t1 = 0;
    printf("%5s %12s %12s %9s %10s %12s\n", "GPUs", "ms/iter", "floor ms", "of floor", "speed-up", "efficiency");
    for (int P = 1; P <= ngpu && P <= 8; P *= 2) {
        perks_cgd_rank rk[8];
        rankbuf rb[8];
        void *cv[8];
#ifdef PERKS_CGD_NCCL
        ncclComm_t comms[8];
        if (P > 1) {
            if (ncclCommInitAll(comms, P, dev) != ncclSuccess) { fprintf(stderr, "ncclCommInitAll failed\n"); return 1; }
            for (int r = 0; r < P; r++) cv[r] = comms[r];
        }
#endif
        make_ranks(rk, rb, P, N, dev, P > 1 ? cv : NULL);
        solve_ms(rk, P, 4); /* warm-up */
        const double ms = (solve_ms(rk, P, K2) - solve_ms(rk, P, K1)) / (K2 - K1);
        if (P == 1) t1 = ms;
        const double floor_ms = 200.0 * perks_slab_own(n, P, 0) / bw * 1e3;
        printf("%5d %12.3f %12.3f %8.0f%% %9.2fx %11.0f%%\n", P, ms, floor_ms, 100 * floor_ms / ms, t1 / ms,
               100 * t1 / ms / P);
        if (json)
            fprintf(json, "%s  {\"case\": \"poisson3d %d^3 double jacobi\", \"gpus\": %d, \"ms_per_iter\": %.4f, "
                          "\"floor_ms\": %.4f, \"speedup\": %.3f}", rows++ ? ",\n" : "", N, P, ms, floor_ms, t1 / ms);
        free_ranks(rk, rb, P);
#ifdef PERKS_CGD_NCCL
        if (P > 1)
            for (int r = 0; r < P; r++) ncclCommDestroy(comms[r]);
#endif
    }
    /* convergence: P ranks against one, at a size that converges quickly */
    {
        const int Nc = 64, P = ngpu > 8 ? 8 : ngpu;
        perks_cgd_rank rk[8];
        rankbuf rb[8];
        void *cv[8];
        perks_cgd_opts o = perks_cgd_defaults();
        perks_cgd_result r1, rp;
        o.tol = 1e-8, o.jacobi = 1;
        make_ranks(rk, rb, 1, Nc, dev, NULL);
        const perks_cgd_args a1 = {rk, 1, o, &r1};
        int rc1 = cgd64_launch(&a1);
        free_ranks(rk, rb, 1);
        int rcp = rc1;
        rp = r1;
#ifdef PERKS_CGD_NCCL
        ncclComm_t comms[8];
        if (P > 1) {
            if (ncclCommInitAll(comms, P, dev) != ncclSuccess) { fprintf(stderr, "ncclCommInitAll failed\n"); return 1; }
            for (int r = 0; r < P; r++) cv[r] = comms[r];
            make_ranks(rk, rb, P, Nc, dev, cv);
            const perks_cgd_args ap = {rk, P, o, &rp};
            rcp = cgd64_launch(&ap);
            free_ranks(rk, rb, P);
            if (rcp != PERKS_ECOMM && rcp != PERKS_ETIMEOUT) /* else the solve aborted them */
                for (int r = 0; r < P; r++) ncclCommDestroy(comms[r]);
        }
#endif
        (void)cv;
        const int ok = rc1 == 0 && rcp == 0 && abs(rp.iterations - r1.iterations) <= 1;
        printf("convergence %d^3 to 1e-8: 1 GPU %d iterations (true residual %.3g), %d GPUs %d iterations (%.3g): %s\n",
               Nc, r1.iterations, r1.true_residual, P, rp.iterations, rp.true_residual, ok ? "ok" : "MISMATCH");
        if (json)
            fprintf(json, "%s  {\"case\": \"poisson3d %d^3 to 1e-8\", \"gpus\": %d, \"iterations\": %d, \"iterations_1gpu\": %d, "
                          "\"true_residual\": %.4g}", rows++ ? ",\n" : "", Nc, P, rp.iterations, r1.iterations, rp.true_residual);
        if (!ok) return 1;
    }
    if (json) fprintf(json, "\n]}\n"), fclose(json);
    return 0;
}
