/* examples/life.cu -- Conway's Game of Life (B3/S23) on a torus, T generations in ONE persistent
 * cooperative kernel of its own (examples/life_kernel.inc), built from perks' pieces: the time loop
 * inside the kernel (PERKS_FOR_STEPS), the grid barrier (PERKS_GRID_SYNC), each block's tile of the
 * board cached in shared memory across all generations with only the tile edges exchanged through
 * device memory (perks/tile.cuh, perks/cache.cuh), and the checked cooperative launch
 * (perks_launch, perks_occupancy).
 *
 *   life [--size N | --width W --height H] [--gens T] [--seed S] [--density D]
 *
 * Defaults: 4096 x 4096, 64 generations, density 0.3.  The board is a torus (the edges wrap), cells
 * are bytes (0 dead, 1 alive; why bytes: examples/life_kernel.inc).  The program runs the board on
 * the CPU (the reference), then on the GPU in one persistent kernel and with one kernel launch per
 * generation, checks both against the reference cell for cell, and prints the time per generation
 * and cells per second of each.  A board whose tiles do not fit on chip (or wider than the
 * co-resident blocks x 512 columns) is not an error: the program says so and falls back to the
 * one-launch-per-generation kernel alone.  Exit status: 0 all match, 1 a mismatch or a CUDA
 * error, 2 bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "life_kernel.inc"

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "life: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--size N | --width W --height H] [--gens T] [--seed S] [--density D]\n", argv0);
}

/* cells where GPU and CPU differ; prints the first */
static size_t life_compare(const char *what, const uint8_t *got, const uint8_t *ref, int W, int H)
{
    size_t bad = 0, n = (size_t)W * H;
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i]) {
            if (!bad)
                fprintf(stderr, "life: %s: first mismatch at (x %d, y %d): gpu %d, cpu %d\n", what, (int)(i % W),
                        (int)(i / W), got[i], ref[i]);
            bad++;
        }
    return bad;
}

int main(int argc, char **argv)
{
    int W = 4096, H = 4096, gens = 64;
    unsigned long long seed = 12345;
    double density = 0.3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) W = H = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--width") && i + 1 < argc) W = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--height") && i + 1 < argc) H = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gens") && i + 1 < argc) gens = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--density") && i + 1 < argc) density = atof(argv[++i]);
        else {
            usage(argv[0]);
            return 2;
        }
    }
    if (W < 1 || H < 1 || W > 65536 || H > 65536 || gens < 0 || !(density >= 0 && density <= 1)) {
        fprintf(stderr, "life: need 1 <= width, height <= 65536, gens >= 0, 0 <= density <= 1\n");
        return 2;
    }
    const size_t n = (size_t)W * H;
    uint8_t *h0 = (uint8_t *)malloc(n), *ref = (uint8_t *)malloc(n), *got = (uint8_t *)malloc(n);
    if (!h0 || !ref || !got) {
        fprintf(stderr, "life: out of host memory\n");
        return 1;
    }
    unsigned long long st = seed * 2654435761ull + 1;
    for (size_t i = 0; i < n; i++) {
        st ^= st >> 12;
        st ^= st << 25;
        st ^= st >> 27;
        h0[i] = (uint8_t)((double)((st * 2685821657736338717ull) >> 11) / 9007199254740992.0 < density);
    }

    clock_t c0 = clock();
    if (life_cpu(h0, ref, W, H, gens)) {
        fprintf(stderr, "life: out of host memory\n");
        return 1;
    }
    double cpu_s = (double)(clock() - c0) / CLOCKS_PER_SEC;
    size_t alive0 = 0, alive = 0;
    for (size_t i = 0; i < n; i++) {
        alive0 += h0[i];
        alive += ref[i];
    }
    printf("life: %d x %d torus, %d generations, %zu -> %zu alive (CPU reference %.2f s)\n", W, H, gens, alive0, alive,
           cpu_s);

    uint8_t *d_in = NULL, *d_a = NULL, *d_b = NULL, *res = NULL;
    void *work = NULL;
    cudaEvent_t e0, e1;
    CK(cudaMalloc((void **)&d_in, n));
    CK(cudaMalloc((void **)&d_a, n));
    CK(cudaMalloc((void **)&d_b, n));
    CK(cudaMemcpy(d_in, h0, n, cudaMemcpyHostToDevice));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    int failed = 0;
    float ms_p = -1, ms_s = 0;

    /* one persistent kernel for all generations */
    perks_tile_plan p;
    int rc = life_plan_make(&p, W, H, 0);
    if (rc == PERKS_ERESOURCE || rc == PERKS_ECORESIDENT) {
        printf("life: persistent kernel: %s -- tiles of %d columns cannot all stay on chip for %d x %d;"
               " falling back to one launch per generation\n", perks_strerror(rc), LIFE_BLOCK, W, H);
    } else if (rc) {
        fprintf(stderr, "life: planning the persistent kernel: %s (%s)\n", perks_strerror(rc),
                cudaGetErrorString(cudaGetLastError()));
        return 1;
    } else {
        printf("life: persistent plan: %d x %d tiles of %d x %d cells, %d blocks (%d per SM on %d SMs), %zu B shared"
               " memory a block, %zu B exchange buffers; boards of %d columns fit up to %lld rows\n", p.tiles_x,
               p.tiles_y, LIFE_BLOCK, p.tile_h, p.grid, p.blocks_per_sm, p.sms, p.smem, p.work_bytes, W, p.max_h);
        CK(cudaMalloc(&work, p.work_bytes));
        CK(cudaMemset(d_a, 0xab, n)); /* poison: every cell must be written */
        /* warm-up (and the run that is checked), then a timed run */
        rc = life_run_persistent(&p, d_in, d_a, work, gens, 0);
        if (rc) {
            fprintf(stderr, "life: persistent launch: %s (%s)\n", perks_strerror(rc),
                    cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got, d_a, n, cudaMemcpyDeviceToHost));
        size_t bad = life_compare("persistent", got, ref, W, H);
        printf("check: persistent kernel vs CPU: %zu of %zu cells differ %s\n", bad, n, bad ? "FAIL" : "ok");
        failed |= bad != 0;
        CK(cudaEventRecord(e0));
        rc = life_run_persistent(&p, d_in, d_a, work, gens, 0);
        CK(cudaEventRecord(e1));
        if (rc) {
            fprintf(stderr, "life: persistent launch: %s\n", perks_strerror(rc));
            return 1;
        }
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms_p, e0, e1));
    }

    /* one launch per generation (the baseline); also checked */
    CK(cudaMemcpy(d_a, d_in, n, cudaMemcpyDeviceToDevice));
    CK(cudaMemset(d_b, 0xab, n));
    rc = life_run_steps(d_a, d_b, W, H, gens, 0, &res);
    if (rc) {
        fprintf(stderr, "life: step kernel: %s (%s)\n", perks_strerror(rc), cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got, res, n, cudaMemcpyDeviceToHost));
    size_t bad = life_compare("one launch per generation", got, ref, W, H);
    printf("check: one launch per generation vs CPU: %zu of %zu cells differ %s\n", bad, n, bad ? "FAIL" : "ok");
    failed |= bad != 0;
    CK(cudaMemcpy(d_a, d_in, n, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e0));
    rc = life_run_steps(d_a, d_b, W, H, gens, 0, &res);
    CK(cudaEventRecord(e1));
    if (rc) {
        fprintf(stderr, "life: step kernel: %s (%s)\n", perks_strerror(rc), cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms_s, e0, e1));

    if (gens > 0) {
        if (ms_p >= 0)
            printf("life: persistent kernel        %9.2f us a generation, %7.2f Gcells/s\n", 1e3 * ms_p / gens,
                   ms_p > 0 ? (double)n * gens / ms_p / 1e6 : 0.0);
        printf("life: one launch a generation  %9.2f us a generation, %7.2f Gcells/s\n", 1e3 * ms_s / gens,
               ms_s > 0 ? (double)n * gens / ms_s / 1e6 : 0.0);
        if (ms_p > 0) printf("life: persistent / per-launch speed-up %.2fx\n", ms_s / ms_p);
    }
    cudaFree(work);
    cudaFree(d_in);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    free(h0);
    free(ref);
    free(got);
    if (failed) fprintf(stderr, "life: FAIL: GPU result differs from the CPU reference\n");
    return failed ? 1 : 0;
}
