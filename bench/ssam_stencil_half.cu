/* bench/ssam_stencil_half.cu -- ssam 2D stencils with half-precision storage (SSAM_STENCIL2D_DEFINE
 * with T __half / __nv_bfloat16: 2 bytes a cell, computed in float) beside the same stencils stored
 * in float, one step at 8192^2 (Dirichlet), in the same run.  Floor: one read and one write per cell
 * over the copy bandwidth measured in the run (8 bytes a cell for float, 4 for FP16/BF16).  Each half
 * result is checked against the float kernel's (relative L2 difference, which is the storage rounding).
 * GCells/s = cells / time; ms is the median of --reps runs after 3 warm-ups, alternating two
 * input/output pairs (each larger than the L2).
 * usage: stencil_half [--json PATH] [--reps N] [--size S] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/stencil.cuh>

#include "gpucheck.h"

/* (shape, name, P of float, P of the half types) */
#define HLIST(X)                                                                                          \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, 4, 2) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, 4, 2)                     \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, 4, 2) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, 2, 1)
#define HDEF(S, n, PF, PH)                                                                                \
    SSAM_STENCIL2D_DEFINE(f_##n, float, S, ssam_stencil_policy<PF>)                                       \
    SSAM_STENCIL2D_DEFINE(h_##n, __half, S, ssam_stencil_policy<PH>)                                      \
    SSAM_STENCIL2D_DEFINE(h4_##n, __half, S, ssam_stencil_policy<4>)                                      \
    SSAM_STENCIL2D_DEFINE(b_##n, __nv_bfloat16, S, ssam_stencil_policy<PH>)
HLIST(HDEF)

typedef int (*launch_fn)(const ssam_stencil_args *, cudaStream_t);
typedef struct run_ctx {
    launch_fn f;
    ssam_stencil_args a[2];
} run_ctx;
static void run_one(void *p, int set)
{
    run_ctx *c = (run_ctx *)p;
    if (c->f(&c->a[set], 0)) { fprintf(stderr, "stencil_half: launch failed\n"); exit(1); }
}

static __global__ void to_half(const float *f, __half *h, __nv_bfloat16 *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        h[i] = __float2half(f[i]), b[i] = __float2bfloat16(f[i]);
}

/* relative L2 difference of a half-type result (2: FP16, 3: BF16) against the float one */
static double rel_diff(const void *got, const float *ref, size_t n, int t)
{
    unsigned short *g = (unsigned short *)malloc(n * 2);
    float *r = (float *)malloc(n * 4);
    double num = 0, den = 0;
    CUDA_DIE(cudaMemcpy(g, got, n * 2, cudaMemcpyDeviceToHost));
    CUDA_DIE(cudaMemcpy(r, ref, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        __half_raw hr;
        __nv_bfloat16_raw br;
        hr.x = g[i], br.x = g[i];
        const double v = t == 2 ? (double)__half2float(__half(hr)) : (double)__bfloat162float(__nv_bfloat16(br));
        num += (v - r[i]) * (v - r[i]), den += (double)r[i] * r[i];
    }
    free(g), free(r);
    return sqrt(num / den);
}

int main(int argc, char **argv)
{
    int S = 8192, reps = 7;
    const char *jpath = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--light")) S = 2048, reps = 3;
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--size S]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    const size_t n = (size_t)S * S;
    float *f[4];
    void *h[4], *b[4];
    for (int k = 0; k < 4; k++) {
        CUDA_DIE(cudaMalloc(&f[k], n * 4));
        CUDA_DIE(cudaMalloc(&h[k], n * 2));
        CUDA_DIE(cudaMalloc(&b[k], n * 2));
        gpucheck_fill_dev<<<1024, 256>>>(f[k], n, 0, 17u + k, -1.0, 1.0);
        to_half<<<1024, 256>>>(f[k], (__half *)h[k], (__nv_bfloat16 *)b[k], n);
    }
    CUDA_DIE(cudaDeviceSynchronize());
    const double bw = gpucheck_copy_bw(f[2], f[3], n * 4);
    printf("ssam stencils with half storage, %dx%d, one step, Dirichlet; %s; copy %.0f GB/s: floor %.0f GCells/s "
           "float, %.0f half\n", S, S, pr.name, bw * 1e-9, bw / 8 * 1e-9, bw / 4 * 1e-9);
    printf("%-10s %-6s %8s %9s %8s %9s %11s\n", "stencil", "type", "ms", "GCells/s", "floor", "of floor", "vs float");
    FILE *json = jpath ? gpucheck_json_open(jpath, "stencil_half", pr.name, reps) : NULL;
    int rows = 0, bad = 0;
    const float cf[25] = {0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f,
                          0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f, 0.04f};
#define HRUN(S_, n_, PF, PH)                                                                              \
    {                                                                                                     \
        const char *nm = #n_;                                                                             \
        const launch_fn fs[4] = {f_##n_##_launch, h_##n_##_launch, h4_##n_##_launch, b_##n_##_launch};    \
        const char *ty[4] = {"fp32", "fp16", "fp16P4", "bf16"};                                           \
        double tf = 0;                                                                                    \
        for (int k = 0; k < 4; k++) {                                                                     \
            run_ctx c;                                                                                    \
            void *const *buf = k == 0 ? (void *const *)f : k == 3 ? b : h;                                \
            memset(&c, 0, sizeof c);                                                                      \
            c.f = fs[k];                                                                                  \
            for (int s = 0; s < 2; s++) {                                                                 \
                c.a[s].src = buf[2 * s], c.a[s].dst = buf[2 * s + 1], c.a[s].nx = S, c.a[s].ny = S;       \
                c.a[s].coef = cf, c.a[s].ncoef = f_##n_##_ncoef(), c.a[s].boundary = SSAM_STENCIL_DIRICHLET; \
                c.a[s].steps = 1; /* name_launch: one step a call */                                      \
            }                                                                                             \
            const double ms = gpucheck_time_ms(run_one, &c, 3, reps);                                     \
            const double gc = n / (ms * 1e-3) * 1e-9, fl = (k ? bw / 4 : bw / 8) * 1e-9;                  \
            if (k == 0) tf = ms;                                                                          \
            double d = 0;                                                                                 \
            if (k) { /* the same step on set 0, against float's */                                        \
                run_one(&c, 0);                                                                           \
                c.f = fs[0], c.a[0].src = f[0], c.a[0].dst = f[1];                                        \
                run_one(&c, 0);                                                                           \
                CUDA_DIE(cudaDeviceSynchronize());                                                        \
                d = rel_diff(buf[1], f[1], n, k == 3 ? 3 : 2);                                            \
                if (!(d < (k == 3 ? 8e-3 : 1e-3))) bad = 1;                                               \
            }                                                                                             \
            printf("%-10s %-6s %8.4f %9.1f %8.0f %8.0f%% %6.2fx %s\n", nm, ty[k], ms, gc, fl, 100 * gc / fl, \
                   tf / ms, k ? (d < (k == 3 ? 8e-3 : 1e-3) ? "" : "DIFFERS") : "");                       \
            if (json)                                                                                     \
                fprintf(json, "%s  {\"stencil\": \"%s\", \"type\": \"%s\", \"ms\": %.5f, \"gcells\": %.2f, " \
                              "\"floor\": %.1f, \"rel_diff_vs_fp32\": %.3g}",                             \
                        rows++ ? ",\n" : "", nm, ty[k], ms, gc, fl, d);                                   \
        }                                                                                                 \
    }
    HLIST(HRUN)
    if (json) fprintf(json, "\n]}\n"), fclose(json);
    for (int k = 0; k < 4; k++) cudaFree(f[k]), cudaFree(h[k]), cudaFree(b[k]);
    return bad;
}
