/* examples/cbi_matmul.cu -- a naive one-thread-per-output matrix product (the thesis's Listing 4),
 * with the threads remapped into columns by cbi (cbi/cbi.h) so that each block works on a narrow
 * strip of B that stays in its SM's L1.
 *
 *   cbi_matmul [N [column_width]]        (default N = 2048; column_width 0 = the cache model)
 *
 * Computes C = A B for random N x N matrices in both orders, checks both against a CPU dot
 * product in double on sampled entries, and prints the time of each. */
#include <cbi/cbi.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

static __device__ float dot(const float *__restrict__ a, const float *__restrict__ b, int N, int x, int y)
{
    float acc = 0.0f;
    for (int k = 0; k < N; k++) acc = fmaf(a[(size_t)y * N + k], b[(size_t)k * N + x], acc);
    return acc;
}

__global__ void mm_rows(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int N)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < (unsigned)N * N) c[tid] = dot(a, b, N, (int)(tid % N), (int)(tid / N));
}

__global__ void mm_cbi(cbi_plan p, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
    if (tid >= p.cells) return;
    cbi_remap32_xy(&p, tid, &x, &y);
    c[(size_t)y * p.width + x] = dot(a, b, (int)p.width, (int)x, (int)y);
}

int main(int argc, char **argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 2048;
    long long w = argc > 2 ? atoll(argv[2]) : 0;
    if (N <= 0 || N > 16384) { fprintf(stderr, "N must be in 1..16384\n"); return 1; }
    size_t n = (size_t)N * N;
    float *ha = (float *)malloc(n * 4), *hb = (float *)malloc(n * 4), *hc = (float *)malloc(n * 4),
          *hr = (float *)malloc(n * 4);
    srand(7);
    for (size_t i = 0; i < n; i++) {
        ha[i] = rand() / (float)RAND_MAX - 0.5f;
        hb[i] = rand() / (float)RAND_MAX - 0.5f;
    }
    float *a, *b, *c, *r;
    CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&c, n * 4)); CK(cudaMalloc(&r, n * 4));
    CK(cudaMemcpy(a, ha, n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb, n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(c, 0xFF, n * 4)); /* NaN: an output never written fails the check */
    CK(cudaMemset(r, 0xFF, n * 4));
    if (w <= 0) w = cbi_width_matmul(N, N, 4, 256 * 1024); /* one SM's L1 on sm_90 */
    cbi_plan p;
    int rc = cbi_plan_make(&p, N, N, w, CBI_INDEX32);
    if (rc) { fprintf(stderr, "%s\n", cbi_strerror(rc)); return 1; }
    unsigned blocks = (unsigned)((n + 255) / 256);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    float t_rows = 1e30f, t_cbi = 1e30f, ms;
    for (int it = 0; it < 4; it++) {
        CK(cudaEventRecord(e0));
        mm_rows<<<blocks, 256>>>(a, b, r, N);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
        if (it) t_rows = ms < t_rows ? ms : t_rows;
        CK(cudaEventRecord(e0));
        mm_cbi<<<blocks, 256>>>(p, a, b, c);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
        if (it) t_cbi = ms < t_cbi ? ms : t_cbi;
    }
    CK(cudaGetLastError());
    CK(cudaMemcpy(hc, c, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hr, r, n * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    int compared = 0;
    for (int s = 0; s < 2000; s++) { /* sampled entries against a dot product in double */
        size_t i = (size_t)rand() % n;
        int x = (int)(i % N), y = (int)(i / N);
        double ref = 0, mag = 0;
        for (int k = 0; k < N; k++) {
            ref += (double)ha[(size_t)y * N + k] * hb[(size_t)k * N + x];
            mag += fabs((double)ha[(size_t)y * N + k] * hb[(size_t)k * N + x]);
        }
        double e1 = fabs(hc[i] - ref) / mag, e2 = fabs(hr[i] - ref) / mag;
        if (!(e1 <= worst)) worst = e1; /* a NaN stays the worst (fmax would drop it) */
        if (!(e2 <= worst)) worst = e2;
        compared++;
    }
    double gflop = 2.0 * N * (double)N * N / 1e9;
    printf("cbi_matmul: C = A B, %d x %d fp32, one thread per output\n", N, N);
    printf("  row order %.3f ms (%.0f GFLOP/s), columns of %lld: %.3f ms (%.0f GFLOP/s), x%.2f\n", t_rows,
           gflop / t_rows * 1e3, p.w, t_cbi, gflop / t_cbi * 1e3, t_rows / t_cbi);
    const int ok = compared > 0 && worst < 1e-5;
    printf("  worst error |c - ref| / sum|a b| over %d sampled entries (both orders) = %.2e (%s)\n", compared, worst,
           ok ? "ok" : "TOO LARGE");
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(r);
    free(ha); free(hb); free(hc); free(hr);
    return ok ? 0 : 1;
}
