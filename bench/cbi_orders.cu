/* bench/cbi_orders.cu -- column-based iteration against the naive order, as in the thesis's section 5.1:
 * the 9x9 box stencil (4096^2, 4037^2, 8192^2, 16384^2) and the naive matrix product (1024^2 ..
 * 8192^2), fp32.  Orders: naive (Listing 3/4), rows2d (a 2D launch), cbi columns of width
 * {32, 64, 128, 256} with and without zigzag, grouped tiles (block swizzle, G tiles per group),
 * and `auto`: 32 x (B/32) tiles grouped as the cbi models say (cbi_width_stencil for the stencil,
 * cbi_block_group for the matmul); the identity plan runs as a plain 2D launch (rows2d).
 * Block sizes 128 and 256.  CUDA events, warm-up, median of --reps runs (default 20), inputs
 * rotated over enough buffers to exceed 3x the L2.  Prints ms, the ratio naive/this (> 1 is faster)
 * and the floor (bytes over 4.27 TB/s for the stencil, FMAs over 67 TFLOP/s for the matmul);
 * --json PATH writes every row.
 * usage: cbi [--json PATH] [--reps N] [--quick] [--only stencil|matmul] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cbi_kernels.cuh"
#include "gpucheck.h"

#define BW_BYTES_PER_S 4.27e12 /* measured H200 copy bandwidth (DESIGN.md) */
#define FMA_PER_S (67e12 / 2)  /* FP32 FMA peak: 67 TFLOP/s */

typedef struct row {
    const char *kernel;
    int W, H, D;
    cbik_cfg cfg;
    const char *label;
    double ms, floor_ms;
} row;

static row rows[4096];
static int nrows;
static int reps = 20;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* median time of one configuration over rotating buffer sets */
static double time_cfg(int matmul, const cbik_cfg *k, float **a, float **b, float **out, int nsets, int W, int H,
                       int D)
{
    cudaEvent_t e0, e1;
    CUDA_DIE(cudaEventCreate(&e0));
    CUDA_DIE(cudaEventCreate(&e1));
    double t[256];
    int n = reps < 256 ? reps : 256;
    for (int i = -2; i < n; i++) { /* two warm-up launches */
        int s = (i + 2) % nsets;
        CUDA_DIE(cudaEventRecord(e0));
        int rc = cbik_launch(matmul, k, a[s], b ? b[s] : NULL, out[s], W, H, D, 0);
        CUDA_DIE(cudaEventRecord(e1));
        if (rc) { fprintf(stderr, "launch rc %d\n", rc); exit(2); }
        CUDA_DIE(cudaGetLastError());
        CUDA_DIE(cudaEventSynchronize(e1));
        float ms;
        CUDA_DIE(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 0) t[i] = ms;
    }
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void bench_size(int matmul, int W, int H, int D, long long auto_g, const char *auto_label, size_t l2)
{
    size_t n = (size_t)W * H, na = matmul ? (size_t)H * D : n, nb = matmul ? (size_t)D * W : 0;
    size_t set_bytes = (na + nb + n) * 4;
    int nsets = (int)((3 * l2 + set_bytes - 1) / set_bytes);
    if (nsets < 1) nsets = 1;
    if (nsets > 8) nsets = 8;
    float *a[8], *b[8], *out[8];
    float *h = (float *)malloc((na > nb ? na : nb) * 4);
    for (int s = 0; s < nsets; s++) {
        CUDA_DIE(cudaMalloc(&a[s], na * 4));
        CUDA_DIE(cudaMalloc(&out[s], n * 4));
        gpucheck_fill(h, na);
        CUDA_DIE(cudaMemcpy(a[s], h, na * 4, cudaMemcpyHostToDevice));
        b[s] = NULL;
        if (nb) {
            CUDA_DIE(cudaMalloc(&b[s], nb * 4));
            gpucheck_fill(h, nb);
            CUDA_DIE(cudaMemcpy(b[s], h, nb * 4, cudaMemcpyHostToDevice));
        }
    }
    free(h);
    double floor_ms = matmul ? (double)W * H * D / FMA_PER_S * 1e3 : 2.0 * n * 4 / BW_BYTES_PER_S * 1e3;
    static const long long widths[] = {32, 64, 128, 256};
    static const long long groups[] = {2, 4, 8, 16, 32};
    cbik_cfg cfgs[64];
    const char *labels[64];
    int nc = 0;
    for (int blk = 128; blk <= 256; blk += 128) {
        cfgs[nc] = (cbik_cfg){CBIK_NAIVE, blk, 0, 0}; labels[nc++] = "naive";
        cfgs[nc] = (cbik_cfg){CBIK_ROWS2D, blk, 0, 0}; labels[nc++] = "rows2d";
        for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
            cfgs[nc] = (cbik_cfg){CBIK_CBI, blk, widths[i], 0}; labels[nc++] = "cbi";
            cfgs[nc] = (cbik_cfg){CBIK_CBI, blk, widths[i], CBI_ZIGZAG}; labels[nc++] = "cbi-zigzag";
        }
        for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
            cfgs[nc] = (cbik_cfg){CBIK_TILES, blk, groups[i], 0}; labels[nc++] = "tiles";
        }
    }
    /* auto: 32 x (B/32) tiles in column groups of auto_g tiles (the cbi models' choice); a group as
     * wide as the grid is the identity plan, run as a plain 2D launch with no remap */
    int ablk = matmul ? 128 : 256;
    cfgs[nc] = auto_g >= (W + 31) / 32 ? (cbik_cfg){CBIK_ROWS2D, ablk, auto_g, 0} : (cbik_cfg){CBIK_TILES, ablk, auto_g, 0};
    labels[nc++] = auto_label;
    double naive_ms[2] = {0, 0};
    for (int i = 0; i < nc; i++) {
        row *r = &rows[nrows++];
        r->kernel = matmul ? "matmul" : "stencil9x9";
        r->W = W; r->H = H; r->D = D;
        r->cfg = cfgs[i];
        r->label = labels[i];
        r->ms = time_cfg(matmul, &cfgs[i], a, b, out, nsets, W, H, D);
        r->floor_ms = floor_ms;
        if (cfgs[i].order == CBIK_NAIVE && strcmp(labels[i], "naive") == 0) naive_ms[cfgs[i].block / 128 - 1] = r->ms;
        int is_auto = strncmp(labels[i], "auto", 4) == 0;
        double base = naive_ms[cfgs[i].block / 128 - 1];
        if (is_auto) base = naive_ms[0] < naive_ms[1] ? naive_ms[0] : naive_ms[1];
        printf("%-10s %5dx%-5d %-11s b%-3d w/G %-5lld %9.4f ms  x%5.3f vs naive  floor %8.4f ms (%4.1f%%)\n",
               r->kernel, W, H, r->label, cfgs[i].block, cfgs[i].w, r->ms,
               base / r->ms, floor_ms, 100 * floor_ms / r->ms);
        fflush(stdout);
    }
    for (int s = 0; s < nsets; s++) {
        cudaFree(a[s]);
        cudaFree(out[s]);
        if (b[s]) cudaFree(b[s]);
    }
}

int main(int argc, char **argv)
{
    const char *json = NULL, *only = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else { fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--quick] [--only stencil|matmul]\n", argv[0]); return 2; }
    }
    if (reps < 1) reps = 1;
    cudaDeviceProp prop;
    CUDA_DIE(cudaGetDeviceProperties(&prop, 0));
    size_t l2 = (size_t)prop.l2CacheSize;
    long long resident = (long long)prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
    printf("device %s, %d SMs, L2 %.0f MB, %lld resident threads; median of %d runs\n", prop.name,
           prop.multiProcessorCount, l2 / 1048576.0, resident, reps);
    gpucheck_seed(12345);
    /* stencil: the model with the L2 and every resident thread (blocks go round-robin over SMs, so
     * the reuse a row order can keep lives in the L2); matmul: see below */
    static const int st_sizes[] = {4096, 4037, 8192, 16384};
    static const int mm_sizes[] = {1024, 2048, 4096, 8192};
    int nst = quick ? 2 : 4, nmm = quick ? 3 : 4;
    if (!only || !strcmp(only, "stencil"))
        for (int i = 0; i < nst; i++) {
            int N = st_sizes[i];
            long long w = cbi_width_stencil(N, 9, 9, 4, (long long)l2, resident);
            bench_size(0, N, N, 0, (w + 31) / 32, "auto", l2); /* column width in cells -> group in tiles */
        }
    if (!only || !strcmp(only, "matmul"))
        for (int i = 0; i < nmm; i++) {
            int N = mm_sizes[i];
            /* matmul: block groups from the wave model (cbi_block_group) with the L2 and the
             * blocks of 32x4 tiles (128 threads) resident at once */
            int per_sm = 0;
            CUDA_DIE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cbik_matmul_tiles, 128, 0));
            long long g = cbi_block_group((N + 31) / 32, 32, 4, N, 4, (long long)l2,
                                          (long long)per_sm * prop.multiProcessorCount);
            bench_size(1, N, N, N, g, "auto", l2);
        }
    if (json) {
        FILE *f = gpucheck_json_open(json, "cbi", prop.name, reps);
        if (!f) { perror(json); return 1; }
        for (int i = 0; i < nrows; i++) {
            row *r = &rows[i];
            fprintf(f,
                    "  {\"kernel\": \"%s\", \"W\": %d, \"H\": %d, \"D\": %d, \"order\": \"%s\", \"block\": %d, "
                    "\"w\": %lld, \"zigzag\": %d, \"ms\": %.5f, \"floor_ms\": %.5f}%s\n",
                    r->kernel, r->W, r->H, r->D, r->label, r->cfg.block, r->cfg.w, (r->cfg.flags & CBI_ZIGZAG) != 0,
                    r->ms, r->floor_ms, i + 1 < nrows ? "," : "");
        }
        fprintf(f, "]}\n");
        fclose(f);
    }
    return 0;
}
