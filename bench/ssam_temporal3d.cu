/* bench/ssam_temporal3d.cu -- 3D temporal blocking (ssam/temporal3d.cuh) against one pass per step, same run.
 * For every 3D catalogue stencil, fp32 and fp64, Dirichlet boundary, on S^3 (512 by default), N steps
 * (1000 by default) from the same random start, it times
 *   onepass  ssam/stencil.cuh's SSAM_STENCIL3D_DEFINE with bench/ssam_stencil's P and B, N launches
 *   tb-TT-pP-bB  SSAM_STENCIL3D_TEMPORAL_DEFINE, SSAM_SCHEDULE_SMEM: TT steps per pass, P rows per warp,
 *                B threads
 *   tb-TT-pP-bB-ring  SSAM_SCHEDULE_RING (the warp's own rows of each level in registers)
 *   tb-TT-pP-bB-zcol  SSAM_SCHEDULE_ZCOL (z-stars: NZ - 1 planes a level in shared memory)
 * and prints GCells/s (cells x N / time), the speedup over onepass, the one-pass memory floor (one
 * read and one write per cell and step at the copy bandwidth measured in this run) and the TT-pass
 * floor (the same over TT, before halo rows and planes).  Every tb result is compared with
 * onepass's bit for bit (the same operation order).  3d125pt has no temporal kernel (its window
 * exceeds the register budget): one pass only.
 * usage: temporal3d [--json PATH] [--reps N] [--size S] [--steps N] [--only NAME] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/temporal3d.cuh>

#include "gpucheck.h"

/* (shape, name, paper name, one-pass P, B, MINB fp32; P, B, MINB fp64): MINB 2 at 256 threads keeps
 * 3d13pt fp32 at 128 registers or fewer, two blocks an SM */
#define SHAPES(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, "3d7pt", 4, 128, 1, 4, 128, 1)                                     \
    X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, "3d13pt", 2, 256, 2, 2, 64, 1)                                     \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, "3d27pt", 4, 128, 1, 2, 128, 1)                                      \
    X(ONCHIP_SHAPE_BOX3D_R2, box3d_r2, "3d125pt", 2, 128, 1, 1, 64, 6)
/* (shape, name, type, TT, P, B, schedule: SMEM, RING or ZCOL): shared memory
 * TT (NZ + 1) (B/32 P + NY - 1) 512 bytes (NZ - 1 planes a level with ZCOL) */
#define TBS(X)                                                                                            \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 2, 2, 512, SMEM) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 3, 2, 512, SMEM) \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 4, 2, 384, SMEM) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 2, 2, 768, SMEM) \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 2, 2, 704, SMEM)                                            \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 2, 2, 512, RING)                                            \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 2, 2, 512, SMEM) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 3, 2, 512, SMEM) \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 4, 2, 384, SMEM) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 2, 2, 768, SMEM) \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 2, 2, 704, SMEM)                                           \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 2, 2, 512, RING)                                           \
    X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, float, 2, 2, 512, SMEM) X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 2, 2, 512, SMEM) \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, float, 2, 2, 512, SMEM) X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, float, 3, 2, 512, SMEM) \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, float, 2, 2, 512, RING)                                              \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, double, 2, 2, 512, SMEM) X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, double, 3, 2, 512, SMEM) \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, double, 2, 2, 512, RING)                                             \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 2, 2, 704, ZCOL) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 3, 3, 512, ZCOL) \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 4, 3, 512, ZCOL)                                            \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 2, 2, 704, ZCOL) X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 2, 3, 512, ZCOL) \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, double, 4, 3, 512, ZCOL) X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, float, 2, 3, 512, ZCOL) \
    X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 2, 3, 512, ZCOL)

#define DEFO(S, n, pn, PF, BF, MF, PD, BD, MD)                                                            \
    SSAM_STENCIL3D_DEFINE(of_##n, float, S, ssam_stencil_policy<PF, BF, MF>)                              \
    SSAM_STENCIL3D_DEFINE(od_##n, double, S, ssam_stencil_policy<PD, BD, MD>)
SHAPES(DEFO)
#define TBN(n, T, TT, P, B, G) tb_##n##_##T##_##TT##_##P##_##B##_##G
#define DEFT_(nm, S, T, TT, P, B, G) SSAM_STENCIL3D_TEMPORAL_DEFINE(nm, T, S, ssam_temporal_policy<TT, B, SSAM_SCHEDULE_##G, P>)
#define DEFT(S, n, T, TT, P, B, G) DEFT_(TBN(n, T, TT, P, B, G), S, T, TT, P, B, G)
TBS(DEFT)

typedef int (*advance_fn)(const ssam_stencil_args *, int, void **, cudaStream_t);
/* a stencil's `steps` steps in advance_fn's shape (one-pass or temporal): its plan (a copy of a
 * with those steps) and run, *result the plan's result */
template <int (*PLAN)(const ssam_stencil_args *, ssam_plan *),
          int (*RUN)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t)>
static int plan_steps(const ssam_stencil_args *a, int steps, void **result, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    int rc = PLAN(&b, &p);
    if (!rc) rc = RUN(&b, &p, stream);
    *result = p.result;
    return rc;
}
typedef struct shape {
    const char *name, *paper;
    int npts;
    advance_fn onepass[2];
} shape;
#define SENT(S, n, pn, PF, BF, MF, PD, BD, MD)                                                            \
    {#n, pn, of_##n##_NPTS, {plan_steps<of_##n##_plan, of_##n##_run>, plan_steps<od_##n##_plan, od_##n##_run>}},
static const shape shapes[] = {SHAPES(SENT)};
typedef struct tb {
    const char *name;
    int dbl, tt, p, b, stepx, stepy;
    const char *variant; /* "", "-ring" or "-zcol" */
    advance_fn advance;
} tb;
#define XCAT_(a, b) a##b
#define XCAT(a, b) XCAT_(a, b)
#define TENT(S, n, T, TT, P, B, G)                                                                        \
    {#n, sizeof(T) == 8, TT, P, B, XCAT(TBN(n, T, TT, P, B, G), _STEPX), XCAT(TBN(n, T, TT, P, B, G), _STEPY), \
     #G[0] == 'S' ? "" : #G[0] == 'R' ? "-ring" : "-zcol", plan_steps<XCAT(TBN(n, T, TT, P, B, G), _plan), XCAT(TBN(n, T, TT, P, B, G), _run)>},
static const tb tbs[] = {TBS(TENT)};

static int reps = 3, steps = 1000;
static FILE *json;
static int json_rows;
static double bw; /* measured copy bandwidth, bytes/s */

typedef struct ctx {
    ssam_stencil_args a;
    advance_fn fn;
    void *res;
} ctx;
static void run(void *p, int set)
{
    ctx *c = (ctx *)p;
    (void)set;
    const int rc = c->fn(&c->a, steps, &c->res, 0);
    if (rc) { fprintf(stderr, "status %d (%s)\n", rc, ssam_stencil_strerror(rc)); exit(2); }
}

static void report(const shape *s, int dbl, int S, const char *impl, int tt, double ms, double base_ms, const char *check)
{
    const double cs = (double)S * S * S * steps, es = dbl ? 8 : 4;
    const double floor1 = bw / (2 * es) / 1e9; /* GCells/s of one pass per step at the copy bandwidth */
    printf("%-4s %-10s %-8s %5d %-14s %9.2f ms %8.1f GCells/s %6.2fx  floor 1-pass %6.1f", dbl ? "fp64" : "fp32",
           s->name, s->paper, S, impl, ms, cs / ms / 1e6, base_ms / ms, floor1);
    if (tt > 1) printf("  TT-pass %7.1f  %s", floor1 * tt, check);
    printf("\n");
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"stencil\": \"%s\", \"paper\": \"%s\", \"impl\": \"%s\", \"tt\": %d, "
                      "\"size\": %d, \"steps\": %d, \"ms\": %.4f, \"gcells_s\": %.2f, \"speedup\": %.3f, "
                      "\"floor_onepass\": %.1f, \"bitwise\": %d}",
                json_rows++ ? ",\n" : "", dbl ? "fp64" : "fp32", s->name, s->paper, impl, tt, S, steps, ms, cs / ms / 1e6,
                base_ms / ms, floor1, strcmp(check, "bitwise") == 0);
}

/* one shape, one type: onepass, then every tb of it */
static void bench_one(const shape *s, int dbl, int S, void **buf, void *ref)
{
    const size_t n = (size_t)S * S * S, es = dbl ? 8 : 4;
    double cd[128], sum = 0;
    float cf[128];
    ctx c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < s->npts; i++) { cd[i] = 0.5 + 0.5 * (gpucheck_uniform() + 1); sum += cd[i]; }
    for (int i = 0; i < s->npts; i++) { cd[i] /= sum; cf[i] = (float)cd[i]; }
    c.a.nx = c.a.ny = c.a.nz = S;
    c.a.coef = dbl ? (const void *)cd : (const void *)cf;
    c.a.ncoef = s->npts;
    c.a.boundary = SSAM_STENCIL_DIRICHLET;
    gpucheck_fill_dev<<<1024, 256>>>(buf[2], n, dbl, 99u, 0.0, 1.0);
    CUDA_DIE(cudaMemcpy(buf[0], buf[2], n * es, cudaMemcpyDeviceToDevice));
    c.a.src = buf[0]; c.a.dst = buf[1];
    c.fn = s->onepass[dbl];
    const double base = gpucheck_time_ms(run, &c, 1, reps);
    report(s, dbl, S, "onepass", 1, base, base, "");
    CUDA_DIE(cudaMemcpy(buf[0], buf[2], n * es, cudaMemcpyDeviceToDevice));
    run(&c, 0);
    CUDA_DIE(cudaMemcpy(ref, c.res, n * es, cudaMemcpyDeviceToDevice));
    for (size_t i = 0; i < sizeof tbs / sizeof *tbs; i++) {
        const tb *t = &tbs[i];
        char impl[40], check[80];
        if (strcmp(t->name, s->name) || t->dbl != dbl) continue;
        c.fn = t->advance;
        const double ms = gpucheck_time_ms(run, &c, 1, reps);
        CUDA_DIE(cudaMemcpy(buf[0], buf[2], n * es, cudaMemcpyDeviceToDevice));
        run(&c, 0);
        CUDA_DIE(cudaDeviceSynchronize());
        const double d = gpucheck_devdiff(c.res, ref, n, dbl);
        if (d == 0) snprintf(check, sizeof check, "bitwise");
        else snprintf(check, sizeof check, "DIFFERS: |tb - onepass|/|onepass| %.2e", d);
        snprintf(impl, sizeof impl, "tb-%d-p%d-b%d%s", t->tt, t->p, t->b, t->variant);
        report(s, dbl, S, impl, t->tt, ms, base, check);
    }
}

int main(int argc, char **argv)
{
    int S = 512;
    const char *jpath = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--size S] [--steps N] [--only NAME]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || S < 16 || S > 1024 || steps < 1) { fprintf(stderr, "bad --reps, --size or --steps\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    const size_t nmax = (size_t)S * S * S;
    void *buf[3], *ref;
    for (int i = 0; i < 3; i++) CUDA_DIE(cudaMalloc(&buf[i], nmax * 8));
    CUDA_DIE(cudaMalloc(&ref, nmax * 8));
    bw = gpucheck_copy_bw(buf[1], buf[0], nmax * 8); /* the largest buffer, median of 5 */
    printf("temporal3d bench on %s, %d^3, %d steps, Dirichlet, median of %d; copy bandwidth %.2f TB/s\n", pr.name, S,
           steps, reps, bw / 1e12);
    if (jpath) {
        json = gpucheck_json_open(jpath, "temporal3d", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }
    gpucheck_seed(4243);
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const shape *s = &shapes[si];
        if (only && strcmp(only, s->name) && strcmp(only, s->paper)) continue;
        for (int dbl = 0; dbl < 2; dbl++) bench_one(s, dbl, S, buf, ref);
    }
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    for (int i = 0; i < 3; i++) cudaFree(buf[i]);
    cudaFree(ref);
    return 0;
}
