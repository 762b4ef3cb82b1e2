/* bench/ssam_stencil_tc.cu -- box stencils on tensor cores (ssam/stencil_tc.cuh) against the SIMT kernels
 * of stencil.cuh in the same run: the FMA-bound boxes (2D 8x8, r = 4, 5 at 8192^2; 3D r = 2 at
 * 512^3) and the memory-bound ones for reference (2D r = 2, 3D r = 1), fp64 on FP64 tensor cores
 * (f64) and fp32 on TF32 (tf32: one pass, ~2^-10; tf32x3: three passes, FP32-like), Dirichlet, one
 * step.  Each row prints GCells/s beside three floors: memory (one read and one write a cell at the
 * measured copy bandwidth), SIMT FMA (one FMA a point at the FP64 / FP32 peak of 17 / 33.5 TFMA/s)
 * and MMA (the band's multiply-adds, zeros included: NZ NY (8 S8 + 4 T4) a cell and pass, at the
 * mma.sync rates measured in this run), the SIMT kernel's time, and the difference of the two
 * outputs.  "-d.j.w..m." rows are other tiles (ssam_stencil_tc_policy: dilation D, JX, WY x WX
 * warps, MINB) timed beside the default.
 * usage: stencil_tc [--json PATH] [--reps N] [--only NAME] [--impl IMPL] [--light]
 *   (--only: stencils whose name contains NAME; --impl: the rows of that implementation only) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/stencil_tc.cuh>

#include "gpucheck.h"
#include "mma_rate.cuh"

#define FMA32 (67e12 / 2)
#define FMA64 (34e12 / 2)

/* the SIMT kernels (the configurations docs/PERFORMANCE.md found best) */
SSAM_STENCIL2D_DEFINE(s_d_box2d_r2, double, ONCHIP_SHAPE_BOX2D_R2, ssam_stencil_policy<4>)
SSAM_STENCIL2D_DEFINE(s_f_box2d_r2, float, ONCHIP_SHAPE_BOX2D_R2, ssam_stencil_policy<4>)
SSAM_STENCIL2D_DEFINE(s_d_box2d_8x8, double, ONCHIP_SHAPE_BOX2D_8X8, ssam_stencil_policy<2>)
SSAM_STENCIL2D_DEFINE(s_f_box2d_8x8, float, ONCHIP_SHAPE_BOX2D_8X8, ssam_stencil_policy<2>)
SSAM_STENCIL2D_DEFINE(s_d_box2d_r4, double, ONCHIP_SHAPE_BOX2D_R4, ssam_stencil_policy<2>)
SSAM_STENCIL2D_DEFINE(s_f_box2d_r4, float, ONCHIP_SHAPE_BOX2D_R4, ssam_stencil_policy<2>)
SSAM_STENCIL2D_DEFINE(s_d_box2d_r5, double, ONCHIP_SHAPE_BOX2D_R5, ssam_stencil_policy<1>)
SSAM_STENCIL2D_DEFINE(s_f_box2d_r5, float, ONCHIP_SHAPE_BOX2D_R5, ssam_stencil_policy<2>)
SSAM_STENCIL3D_DEFINE(s_d_box3d_r1, double, ONCHIP_SHAPE_BOX3D_R1, ssam_stencil_policy<2>)
SSAM_STENCIL3D_DEFINE(s_f_box3d_r1, float, ONCHIP_SHAPE_BOX3D_R1, ssam_stencil_policy<4>)
SSAM_STENCIL3D_DEFINE(s_d_box3d_r2, double, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_policy<1>)
SSAM_STENCIL3D_DEFINE(s_f_box3d_r2, float, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_policy<2>)

/* the tensor-core kernels: shape, dims, name */
#define TCLIST(X)                                                                                         \
    X(ONCHIP_SHAPE_BOX2D_R2, 2, box2d_r2)                                                                   \
    X(ONCHIP_SHAPE_BOX2D_8X8, 2, box2d_8x8)                                                                 \
    X(ONCHIP_SHAPE_BOX2D_R4, 2, box2d_r4)                                                                   \
    X(ONCHIP_SHAPE_BOX2D_R5, 2, box2d_r5)                                                                   \
    X(ONCHIP_SHAPE_BOX3D_R1, 3, box3d_r1)                                                                   \
    X(ONCHIP_SHAPE_BOX3D_R2, 3, box3d_r2)
#define DEFTC(S, D, n)                                                                                    \
    SSAM_STENCIL##D##D_TC_DEFINE(t_f64_##n, f64, S, ssam_stencil_tc_policy<>)                             \
    SSAM_STENCIL##D##D_TC_DEFINE(t_tf32_##n, tf32, S, ssam_stencil_tc_policy<>)                           \
    SSAM_STENCIL##D##D_TC_DEFINE(t_tf32x3_##n, tf32x3, S, ssam_stencil_tc_policy<>)
TCLIST(DEFTC)
/* other tiles: mode, shape, dims, name, D (dilation), JX, WY, WX, MINB */
#define ALTS(X)                                                                                           \
    X(f64, ONCHIP_SHAPE_BOX3D_R2, 3, box3d_r2, 1, 2, 1, 4, 3)                                               \
    X(f64, ONCHIP_SHAPE_BOX3D_R2, 3, box3d_r2, 2, 1, 1, 4, 2)                                               \
    X(tf32, ONCHIP_SHAPE_BOX3D_R2, 3, box3d_r2, 1, 2, 1, 4, 4)                                              \
    X(f64, ONCHIP_SHAPE_BOX2D_R4, 2, box2d_r4, 1, 4, 2, 2, 1)                                               \
    X(f64, ONCHIP_SHAPE_BOX2D_R4, 2, box2d_r4, 2, 2, 1, 4, 1)                                               \
    X(tf32, ONCHIP_SHAPE_BOX2D_R4, 2, box2d_r4, 1, 8, 2, 2, 1)
#define ALTNAME(MODE, n, QY, JX, WY, WX, MB) a_##MODE##_##n##_d##QY##_j##JX##_w##WY##x##WX##_m##MB
#define DEFALT_(nm, MODE, S, D, QY, JX, WY, WX, MB)                                                       \
    SSAM_STENCIL##D##D_TC_DEFINE(nm, MODE, S, ssam_stencil_tc_policy<QY, JX, WY, WX, MB>)
#define DEFALT(MODE, S, D, n, QY, JX, WY, WX, MB) DEFALT_(ALTNAME(MODE, n, QY, JX, WY, WX, MB), MODE, S, D, QY, JX, WY, WX, MB)
ALTS(DEFALT)

typedef int (*launch_fn)(const ssam_stencil_args *, cudaStream_t);
typedef struct entry {
    const char *name, *impl;
    int dims, dbl, passes, nx, ny, nz, npts; /* passes: MMA passes (tf32x3 3), 0 for SIMT rows */
    launch_fn launch, simt;
} entry;
#define CAT3(a, b, c) a##b##c
#define ENTTC(S, D, n)                                                                                    \
    {#n, "tc-f64", D, 1, 1, t_f64_##n##__NX, t_f64_##n##__NY, t_f64_##n##__NZ, t_f64_##n##_NPTS, t_f64_##n##_launch, s_d_##n##_launch}, \
    {#n, "tc-tf32", D, 0, 1, t_f64_##n##__NX, t_f64_##n##__NY, t_f64_##n##__NZ, t_f64_##n##_NPTS, t_tf32_##n##_launch, s_f_##n##_launch}, \
    {#n, "tc-tf32x3", D, 0, 3, t_f64_##n##__NX, t_f64_##n##__NY, t_f64_##n##__NZ, t_f64_##n##_NPTS, t_tf32x3_##n##_launch, s_f_##n##_launch},
#define ENTALT_(nm, MODE, D, n, QY, JX, WY, WX, MB)                                                       \
    {#n, "tc-" #MODE "-d" #QY "j" #JX "w" #WY "x" #WX "m" #MB, D, #MODE[0] == 'f', sizeof(#MODE) == 7 ? 3 : 1, t_f64_##n##__NX, t_f64_##n##__NY, \
     t_f64_##n##__NZ, t_f64_##n##_NPTS, CAT3(nm, _, launch), #MODE[0] == 'f' ? s_d_##n##_launch : s_f_##n##_launch},
#define ENTALT(MODE, S, D, n, QY, JX, WY, WX, MB)                                                         \
    ENTALT_(ALTNAME(MODE, n, QY, JX, WY, WX, MB), MODE, D, n, QY, JX, WY, WX, MB)
static const entry entries[] = {TCLIST(ENTTC) ALTS(ENTALT)};

typedef struct run_ctx {
    launch_fn f;
    ssam_stencil_args a[2];
} run_ctx;
static void run_one(void *p, int set)
{
    run_ctx *c = (run_ctx *)p;
    int rc = c->f(&c->a[set], 0);
    if (rc) { fprintf(stderr, "stencil_tc: launch failed: %s\n", ssam_stencil_strerror(rc)); exit(1); }
}

int main(int argc, char **argv)
{
    int reps = 7, S2 = 8192, S3 = 512;
    const char *jpath = NULL, *only = NULL, *impl = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--impl") && i + 1 < argc) impl = argv[++i];
        else if (!strcmp(argv[i], "--light")) S2 = 1024, S3 = 96, reps = 3;
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--only NAME] [--impl IMPL] [--light]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    const size_t nmax = (size_t)S2 * S2 > (size_t)S3 * S3 * S3 ? (size_t)S2 * S2 : (size_t)S3 * S3 * S3;
    void *buf[6];
    for (int k = 0; k < 6; k++) CUDA_DIE(cudaMalloc(&buf[k], nmax * 8));
    const double bw = gpucheck_copy_bw(buf[0], buf[1], nmax * 8);
    double rate[RATE_KINDS];
    printf("ssam box stencils on tensor cores, one step, Dirichlet; %s; copy %.0f GB/s; mma.sync (TFMA/s):", pr.name,
           bw * 1e-9);
    for (int k = 0; k < RATE_KINDS; k++) {
        rate[k] = (k < 3 || pr.major >= 9) ? mma_rate_of(k, pr.multiProcessorCount, buf[0]) : 1;
        printf(" %s %.1f", rate_name[k], rate[k] * 1e-12);
    }
    printf("\n%-10s %-5s %-20s %9s %9s %8s %8s %8s %6s %9s %7s %9s\n", "stencil", "type", "impl", "ms", "GCells/s",
           "mem fl", "fma fl", "mma fl", "% fl", "simt ms", "vs simt", "diff");
    FILE *json = jpath ? gpucheck_json_open(jpath, "stencil_tc", pr.name, reps) : NULL;
    int rows = 0, bad = 0;
    double coef[128];
    for (int i = 0; i < 125; i++) coef[i] = (0.5 + (i % 7) * 0.1) / 125;
    float coeff[128];
    for (int i = 0; i < 125; i++) coeff[i] = (float)coef[i];
    double last_simt_ms = 0;
    const char *last_simt = "";
    for (size_t e = 0; e < sizeof entries / sizeof *entries; e++) {
        const entry *t = &entries[e];
        if ((only && !strstr(t->name, only)) || (impl && strcmp(t->impl, impl))) continue;
        const int nx = t->dims == 2 ? S2 : S3, ny = nx, nz = t->dims == 2 ? 0 : S3;
        const size_t n = (size_t)nx * ny * (nz ? nz : 1), es = t->dbl ? 8 : 4;
        for (int k = 0; k < 4; k++) gpucheck_fill_dev<<<1024, 256>>>(buf[k], n, t->dbl, 7u + k, -1.0, 1.0);
        CUDA_DIE(cudaDeviceSynchronize());
        run_ctx c;
        memset(&c, 0, sizeof c);
        for (int s = 0; s < 2; s++) {
            c.a[s].src = buf[2 * s], c.a[s].dst = buf[2 * s + 1], c.a[s].nx = nx, c.a[s].ny = ny, c.a[s].nz = nz;
            c.a[s].coef = t->dbl ? (const void *)coef : (const void *)coeff, c.a[s].ncoef = t->npts;
            c.a[s].boundary = SSAM_STENCIL_DIRICHLET;
            c.a[s].steps = 1; /* name_launch: one step a call */
        }
        /* the SIMT kernel once per stencil and type (the rows of one come together) */
        char key[64];
        snprintf(key, sizeof key, "%s/%d", t->name, t->dbl);
        if (strcmp(key, last_simt)) {
            static char keep[64];
            c.f = t->simt;
            last_simt_ms = gpucheck_time_ms(run_one, &c, 3, reps);
            strcpy(keep, key);
            last_simt = keep;
        }
        c.f = t->simt; /* the SIMT output of set 0 into buf[4] */
        c.a[0].dst = buf[4];
        run_one(&c, 0);
        c.a[0].dst = buf[1];
        c.f = t->launch;
        const double ms = gpucheck_time_ms(run_one, &c, 3, reps);
        run_one(&c, 0);
        CUDA_DIE(cudaDeviceSynchronize());
        const double diff = gpucheck_devdiff(buf[1], buf[4], n, t->dbl);
        const double tol = t->dbl ? 1e-12 : t->passes == 3 ? 1e-5 : 2e-3;
        if (!(diff < tol)) bad = 1;
        const int s8 = SSAM_TC_S8(t->nx), t4 = SSAM_TC_T4(t->nx);
        const double cells = (double)n, rows_ = (double)t->ny * (t->dims == 3 ? t->nz : 1);
        /* per 16 x 8 outputs and band row: S8 k8 MMAs and T4 k4 ones */
        const double mma_s = cells / 128.0 * rows_ * t->passes *
                             (s8 * 16 * 8 * 8 / rate[t->dbl ? 4 : 2] + t4 * 16 * 8 * 4 / rate[t->dbl ? 3 : 0]);
        const double fl_mem = cells * 2 * es / bw, fl_fma = cells * t->npts / (t->dbl ? FMA64 : FMA32);
        const double fl = fl_mem > mma_s ? fl_mem : mma_s, gc = cells / (ms * 1e-3) * 1e-9;
        printf("%-10s %-5s %-20s %9.4f %9.1f %8.1f %8.1f %8.1f %5.0f%% %9.4f %6.2fx %9.2g%s\n", t->name,
               t->dbl ? "fp64" : "fp32", t->impl, ms, gc, cells / fl_mem * 1e-9, cells / fl_fma * 1e-9,
               cells / mma_s * 1e-9, 100 * fl / (ms * 1e-3), last_simt_ms, last_simt_ms / ms, diff,
               diff < tol ? "" : " DIFFERS");
        if (json)
            fprintf(json, "%s  {\"stencil\": \"%s\", \"type\": \"%s\", \"impl\": \"%s\", \"ms\": %.5f, \"gcells\": %.2f, "
                          "\"mem_floor_gcells\": %.1f, \"fma_floor_gcells\": %.1f, \"mma_floor_gcells\": %.1f, "
                          "\"simt_ms\": %.5f, \"vs_simt\": %.3f, \"diff\": %.3g}",
                    rows++ ? ",\n" : "", t->name, t->dbl ? "fp64" : "fp32", t->impl, ms, gc, cells / fl_mem * 1e-9,
                    cells / fl_fma * 1e-9, cells / mma_s * 1e-9, last_simt_ms, last_simt_ms / ms, diff);
    }
    if (json) {
        for (int k = 0; k < RATE_KINDS; k++)
            fprintf(json, "%s  {\"impl\": \"mma-rate\", \"kind\": \"%s\", \"fma_s\": %.4g}", rows++ ? ",\n" : "",
                    rate_name[k], rate[k]);
        fprintf(json, "\n]}\n"), fclose(json);
    }
    for (int k = 0; k < 6; k++) cudaFree(buf[k]);
    return bad;
}
