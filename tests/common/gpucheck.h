/* tests/common/gpucheck.h -- the host harness (tests/host/check.h) plus CUDA helpers for GPU tests. */
#ifndef ONCHIP_TEST_GPUCHECK_H
#define ONCHIP_TEST_GPUCHECK_H
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../host/check.h"

/* CUDA_OK(call): a failed CUDA call fails the current case with the runtime's message */
#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        cudaError_t e__ = (call);                                                                  \
        CHECK(e__ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(e__));                       \
    } while (0)

/* CUDA_DIE(call): for setup that cannot go on (benchmarks, examples) */
#define CUDA_DIE(call)                                                                             \
    do {                                                                                           \
        cudaError_t e__ = (call);                                                                  \
        if (e__ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e__)); \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

/* the benchmarks' device inputs: element i = lo + (hi - lo) u, u in [0, 1) a hash of i and seed
 * (float or double, grid-stride: any launch shape) */
__global__ void gpucheck_fill_dev(void *p, size_t n, int dbl, unsigned seed, double lo, double hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
        h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 29;
        const double v = lo + (hi - lo) * ((double)(h >> 11) * (1.0 / 9007199254740992.0));
        if (dbl) ((double *)p)[i] = v;
        else ((float *)p)[i] = (float)v;
    }
}

static uint64_t gpucheck_rng = 0x2545F4914F6CDD1Dull;
static inline void gpucheck_seed(uint64_t s) { gpucheck_rng = s ? s : 1; }
/* uniform in [-1, 1) */
static inline float gpucheck_uniform(void)
{
    gpucheck_rng ^= gpucheck_rng >> 12;
    gpucheck_rng ^= gpucheck_rng << 25;
    gpucheck_rng ^= gpucheck_rng >> 27;
    return (float)((double)((gpucheck_rng * 2685821657736338717ull) >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}
static inline void gpucheck_fill(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = gpucheck_uniform();
}
/* ||out - ref|| / ||ref|| over the finite outputs (||out - ref|| when ref is all 0), and how many
 * outputs are not finite (the poison is NaN); NaN when nothing was compared (n 0, or no finite
 * output), so that no `err < tol` passes on an empty comparison */
static inline double gpucheck_relerr(const float *out, const double *ref, size_t n, size_t *nonfinite)
{
    double num = 0, den = 0;
    *nonfinite = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(out[i])) { (*nonfinite)++; continue; }
        num += (out[i] - ref[i]) * (out[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    if (*nonfinite == n) return NAN; /* no element compared */
    return den > 0 ? sqrt(num / den) : sqrt(num);
}
/* the device's pending error, for check.h's hook: the device is synchronized first, so that a
 * fault of a kernel launched in the case just ended is found there and not later */
static inline int gpucheck__pending(char *msg, size_t size)
{
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e == cudaSuccess) return 0;
    snprintf(msg, size, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    return 1;
}
/* the value of "--seed N" among the arguments, else the time (printed either way, and named on
 * every FAIL line, so that a failure can be replayed with --seed N) */
static inline uint64_t gpucheck_seed_arg(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--seed")) return strtoull(argv[i + 1], NULL, 0);
    return (uint64_t)time(NULL);
}
/* whether FLAG is among the arguments */
static inline int gpucheck_flag(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], flag)) return 1;
    return 0;
}
static inline int gpucheck_part(int argc, char **argv, int *k, int *n);
/* the start of every GPU test: the seed (--seed N, else the time; printed), device errors checked
 * at every case boundary, the cases of --part K/N (case_part; a bad part fails the program), and
 * whether --light (small sizes, for compute-sanitizer) was asked for */
static inline int gpucheck_begin(int argc, char **argv)
{
    int k, n;
    if (gpucheck_part(argc, argv, &k, &n) == 0) check_part(k, n);
    else CHECK(0, "--part: not K/N with 0 <= K < N"); /* outside a case: the program fails */
    uint64_t seed = gpucheck_seed_arg(argc, argv);
    gpucheck_seed(seed);
    check_seed((unsigned long long)seed);
    check__hook = gpucheck__pending;
    printf("seed %llu\n", (unsigned long long)seed);
    return gpucheck_flag(argc, argv, "--light");
}
/* error-code tests: a refused call writes nothing.  gpucheck_poison fills `bytes` bytes of device
 * memory at d with 0xFF; gpucheck_poison_changed counts the bytes there that are no longer 0xFF
 * (after synchronizing: a kernel the call should not have launched has finished) */
static inline void gpucheck_poison(void *d, size_t bytes)
{
    CUDA_OK(cudaMemset(d, 0xFF, bytes));
}
static inline long long gpucheck_poison_changed(const void *d, size_t bytes)
{
    unsigned char *h = (unsigned char *)malloc(bytes);
    long long changed = 0;
    if (!h) return -1;
    memset(h, 0xFF, bytes); /* a failed copy is CUDA_OK's failure, not a count */
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes; i++) changed += h[i] != 0xFF;
    free(h);
    return changed;
}
/* the SUBSTRING of "--only SUBSTRING" among the arguments, or NULL: run only the kernels whose name
 * contains it */
static inline const char *gpucheck_only(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--only")) return argv[i + 1];
    return NULL;
}

/* "--part K/N" among the arguments: *k = K, *n = N (a test runs its cases i with i % N == K, the
 * others counted as skipped: racecheck in parts side by side); else 0 and 1.  0, or -1 for a bad
 * part */
static inline int gpucheck_part(int argc, char **argv, int *k, int *n)
{
    *k = 0, *n = 1;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--part")) {
            if (sscanf(argv[i + 1], "%d/%d", k, n) != 2 || *n < 1 || *k < 0 || *k >= *n) return *k = 0, *n = 1, -1;
        }
    return 0;
}

/* open a benchmark's JSON file and write its header up to the opening of "rows" */
static inline FILE *gpucheck_json_open(const char *path, const char *bench, const char *device, int reps)
{
    FILE *f = fopen(path, "w");
    time_t now = time(NULL);
    char date[32];
    if (!f) return NULL;
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(f, "{\"bench\": \"%s\", \"device\": \"%s\", \"date\": \"%s\", \"reps\": %d, \"rows\": [\n", bench, device,
            date, reps);
    return f;
}
static inline int gpucheck__cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* the median of t[0..n) (sorts t) */
static inline double gpucheck_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, gpucheck__cmpd);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Median milliseconds of `reps` (at most 256) timed calls of run(ctx, set) after `warm` untimed
 * ones, each timed alone with CUDA events on the default stream; set alternates 0, 1, 0, ... over
 * all calls, for benchmarks that rotate two sets of buffers. */
typedef void (*gpucheck_run_fn)(void *ctx, int set);
static inline double gpucheck_time_ms(gpucheck_run_fn run, void *ctx, int warm, int reps)
{
    cudaEvent_t a, b;
    double t[256];
    int n = reps < 256 ? reps : 256;
    CUDA_DIE(cudaEventCreate(&a));
    CUDA_DIE(cudaEventCreate(&b));
    for (int i = -warm; i < n; i++) {
        float ms;
        CUDA_DIE(cudaEventRecord(a));
        run(ctx, (i + warm) & 1);
        CUDA_DIE(cudaEventRecord(b));
        CUDA_DIE(cudaEventSynchronize(b));
        CUDA_DIE(cudaGetLastError());
        CUDA_DIE(cudaEventElapsedTime(&ms, a, b));
        if (i >= 0) t[i] = ms;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return gpucheck_median(t, n);
}
/* the copy bandwidth in bytes/s (bytes read + bytes written): a device-to-device cudaMemcpy of
 * `bytes` from src to dst, median of 5 after one warm-up */
typedef struct gpucheck__copy {
    void *dst;
    const void *src;
    size_t bytes;
} gpucheck__copy;
static inline void gpucheck__copy_run(void *p, int set)
{
    const gpucheck__copy *c = (const gpucheck__copy *)p;
    (void)set;
    CUDA_DIE(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice));
}
static inline double gpucheck_copy_bw(void *dst, const void *src, size_t bytes)
{
    gpucheck__copy c = {dst, src, bytes};
    return 2.0 * bytes / (gpucheck_time_ms(gpucheck__copy_run, &c, 1, 5) * 1e-3);
}
/* ||a - b|| / ||b|| of two device arrays of n floats (dbl 0) or doubles (dbl 1); ||a - b|| when b is 0;
 * NaN when n is 0 (nothing compared) or either array holds a NaN */
static inline double gpucheck_devdiff(const void *a, const void *b, size_t n, int dbl)
{
    size_t es = dbl ? 8 : 4;
    if (n == 0) return NAN; /* an empty comparison is no agreement */
    char *x = (char *)malloc(n * es), *y = (char *)malloc(n * es);
    double num = 0, den = 0;
    if (!x || !y) { fprintf(stderr, "gpucheck_devdiff: out of memory\n"); exit(1); }
    CUDA_DIE(cudaMemcpy(x, a, n * es, cudaMemcpyDeviceToHost));
    CUDA_DIE(cudaMemcpy(y, b, n * es, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        double u = dbl ? ((double *)x)[i] : ((float *)x)[i], v = dbl ? ((double *)y)[i] : ((float *)y)[i];
        num += (u - v) * (u - v);
        den += v * v;
    }
    free(x);
    free(y);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}
#endif
