/* bench/ssam_temporal.cu -- temporal blocking (ssam/temporal.cuh) against one pass per step, same run.
 * For every 2D catalogue stencil, fp32 and fp64, Dirichlet boundary, on S x S (8192 by default; the
 * 2d5pt and 2d9pt rows also at 2S unless --no-large, and at S/4 and S/8, where both buffers fit
 * in the L2 or nearly, unless --no-small), N steps (1000 by default) from the same random start, it
 * times
 *   onepass  ssam/stencil.cuh's one-pass kernel (SSAM_STENCIL2D_DEFINE, bench/ssam_stencil's P), N launches
 *   perks    perks/stencil.cuh's name_launch, PERKS_KERNEL_AUTO, cache mode smem (2d5pt only): the
 *            persistent path; on a domain this large it caches a few percent and AUTO runs steps
 *   tb-TT    SSAM_STENCIL2D_TEMPORAL_DEFINE, SSAM_SCHEDULE_REGS, TT steps fused per pass, 128 threads
 *   tb-TT-mM the same with MINB M blocks per SM (TBX below)
 *   tbs-TT   SSAM_SCHEDULE_SMEM, the input rows staged in shared memory (TBSM below)
 * and prints GCells/s (cells x N / time), the speedup over onepass, and the one-pass memory floor:
 * one read and one write per cell and step at the copy bandwidth measured in this run (cudaMemcpy
 * device to device), with the temporal floor (the same over TT, before halo and warm-up rows)
 * beside it.  Every tb result is compared with onepass's (bit for bit: the same operation order).
 * usage: temporal [--json PATH] [--reps N] [--size S] [--steps N] [--only NAME] [--no-large] [--no-small] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perks/stencil.cuh>
#include <ssam/temporal.cuh>

#include "gpucheck.h"

/* (shape, name, paper name, P fp32, P fp64 of the one-pass kernel) */
#define SHAPES(X)                                                                                         \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, "2d5pt", 8, 8) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, "2ds9pt", 8, 4)  \
    X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, "2d13pt", 4, 4) X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, "2d17pt", 4, 4) \
    X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, "2d21pt", 4, 2) X(ONCHIP_SHAPE_STAR2D_R6, star2d_r6, "2ds25pt", 4, 2) \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, "2d9pt", 8, 8) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, "2d25pt", 4, 4)   \
    X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, "2d64pt", 2, 2) X(ONCHIP_SHAPE_BOX2D_R4, box2d_r4, "2d81pt", 2, 2)    \
    X(ONCHIP_SHAPE_BOX2D_R5, box2d_r5, "2d121pt", 2, 1)
/* (shape, name, type, TT): TT = 2, 4, 8, 12 (3 for radius 5) within the register budget
 * (SSAM_TEMPORAL_MAXREGS) and without spills or local memory (2ds25pt TT 3, 2d81pt fp32 TT 4 and 2d121pt
 * spill or index a local array: left out; 2d121pt runs one-pass only) */
#define TBS(X)                                                                                            \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 2) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 4)            \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 8) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 12)           \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, double, 2) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, double, 4)          \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, double, 8) X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, double, 12)         \
    X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, float, 2) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, float, 4)            \
    X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, float, 8) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, double, 2)           \
    X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, double, 4) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, double, 8)          \
    X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, float, 2) X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, float, 4)            \
    X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, double, 2) X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, double, 4)          \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, float, 2) X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, float, 4)            \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, double, 2) X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, double, 4)          \
    X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, float, 2) X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, float, 3)            \
    X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, double, 2) X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, double, 3)          \
    X(ONCHIP_SHAPE_STAR2D_R6, star2d_r6, float, 2) X(ONCHIP_SHAPE_STAR2D_R6, star2d_r6, double, 2)            \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 2) X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 4)                \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 8) X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, double, 2)               \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, double, 4) X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, double, 8)              \
    X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, float, 2) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, float, 4)                \
    X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, double, 2) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, double, 4)              \
    X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, float, 2) X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, float, 4)            \
    X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, double, 2) X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, double, 4)          \
    X(ONCHIP_SHAPE_BOX2D_R4, box2d_r4, float, 2)                                                            \
    X(ONCHIP_SHAPE_BOX2D_R4, box2d_r4, double, 2)

/* other choices timed beside the defaults: (shape, name, type, TT, MINB blocks per SM) */
#define TBX(X)                                                                                            \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 8, 3) X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 8, 3)

/* the staged kernels, input rows in shared memory (SSAM_SCHEDULE_SMEM): (shape, name, type, TT) */
#define TBSM(X)                                                                                           \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 8) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, float, 4)            \
    X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, float, 6) X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, double, 4)           \
    X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, float, 4) X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, double, 2)           \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, float, 3) X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, float, 4)            \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, double, 2) X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, float, 3)           \
    X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, float, 4) X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, double, 4)

#define DEFO(S, n, pn, PF, PD)                                                                            \
    SSAM_STENCIL2D_DEFINE(of_##n, float, S, ssam_stencil_policy<PF>)                                      \
    SSAM_STENCIL2D_DEFINE(od_##n, double, S, ssam_stencil_policy<PD>)
SHAPES(DEFO)
#define TBN(n, T, TT) tb_##n##_##T##_##TT
#define DEFT_(nm, S, T, TT) SSAM_STENCIL2D_TEMPORAL_DEFINE(nm, T, S, ssam_temporal_policy<TT, 128, SSAM_SCHEDULE_REGS>)
#define DEFT(S, n, T, TT) DEFT_(TBN(n, T, TT), S, T, TT)
TBS(DEFT)
#define TBXN(n, T, TT, M) tbx_##n##_##T##_##TT##_m##M
#define DEFTX_(nm, S, T, TT, M) SSAM_STENCIL2D_TEMPORAL_DEFINE(nm, T, S, ssam_temporal_policy<TT, 128, SSAM_SCHEDULE_REGS, 0, M>)
#define DEFTX(S, n, T, TT, M) DEFTX_(TBXN(n, T, TT, M), S, T, TT, M)
TBX(DEFTX)
#define TBSN(n, T, TT) tbs_##n##_##T##_##TT
#define DEFTS_(nm, S, T, TT) SSAM_STENCIL2D_TEMPORAL_DEFINE(nm, T, S, ssam_temporal_policy<TT, 128, SSAM_SCHEDULE_SMEM>)
#define DEFTS(S, n, T, TT) DEFTS_(TBSN(n, T, TT), S, T, TT)
TBSM(DEFTS)
PERKS_STENCIL2D_DEFINE(pk_float, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 64>)
PERKS_STENCIL2D_DEFINE(pk_double, double, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 32>)

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
#define SENT(S, n, pn, PF, PD)                                                                            \
    {#n, pn, of_##n##_NPTS, {plan_steps<of_##n##_plan, of_##n##_run>, plan_steps<od_##n##_plan, od_##n##_run>}},
static const shape shapes[] = {SHAPES(SENT)};
typedef struct tb {
    const char *name;
    int dbl, tt, step;
    advance_fn advance;
    int minb;   /* TBX rows; 0 for the defaults */
    int staged; /* TBSM rows */
} tb;
#define XCAT_(a, b) a##b
#define XCAT(a, b) XCAT_(a, b)
#define TENT(S, n, T, TT) {#n, sizeof(T) == 8, TT, XCAT(TBN(n, T, TT), _STEP), plan_steps<XCAT(TBN(n, T, TT), _plan), XCAT(TBN(n, T, TT), _run)>, 0, 0},
#define TXENT(S, n, T, TT, M) {#n, sizeof(T) == 8, TT, XCAT(TBXN(n, T, TT, M), _STEP), plan_steps<XCAT(TBXN(n, T, TT, M), _plan), XCAT(TBXN(n, T, TT, M), _run)>, M, 0},
#define TSENT(S, n, T, TT) {#n, sizeof(T) == 8, TT, XCAT(TBSN(n, T, TT), _STEP), plan_steps<XCAT(TBSN(n, T, TT), _plan), XCAT(TBSN(n, T, TT), _run)>, 0, 1},
static const tb tbs[] = {TBS(TENT) TBX(TXENT) TBSM(TSENT)};

static int reps = 3, steps = 1000;
static FILE *json;
static int json_rows;
static double bw; /* measured copy bandwidth, bytes/s */

typedef struct ctx {
    ssam_stencil_args a;
    advance_fn fn;
    perks_stencil2d_args pa;
    int dbl, perks;
    void *res;
} ctx;
static void run(void *p, int set)
{
    ctx *c = (ctx *)p;
    int rc;
    (void)set;
    if (c->perks) rc = c->dbl ? pk_double_launch(&c->pa, 0) : pk_float_launch(&c->pa, 0);
    else rc = c->fn(&c->a, steps, &c->res, 0);
    if (rc) { fprintf(stderr, "status %d\n", rc); exit(2); }
}

static void report(const shape *s, int dbl, int S, const char *impl, int tt, double ms, double base_ms, const char *check)
{
    const double cs = (double)S * S * steps, es = dbl ? 8 : 4;
    const double floor1 = bw / (2 * es) / 1e9; /* GCells/s of one pass per step at the copy bandwidth */
    printf("%-4s %-10s %-9s %6d %-12s %9.2f ms %8.1f GCells/s %6.2fx  floor 1-pass %6.1f%s", dbl ? "fp64" : "fp32",
           s->name, s->paper, S, impl, ms, cs / ms / 1e6, base_ms / ms, floor1, tt > 1 ? "" : "\n");
    if (tt > 1) printf("  TT-pass %7.1f  %s\n", floor1 * tt, check);
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"stencil\": \"%s\", \"paper\": \"%s\", \"impl\": \"%s\", \"tt\": %d, "
                      "\"size\": %d, \"steps\": %d, \"ms\": %.4f, \"gcells_s\": %.2f, \"speedup\": %.3f, "
                      "\"floor_onepass\": %.1f, \"bitwise\": %d}",
                json_rows++ ? ",\n" : "", dbl ? "fp64" : "fp32", s->name, s->paper, impl, tt, S, steps, ms, cs / ms / 1e6,
                base_ms / ms, floor1, strcmp(check, "bitwise") == 0);
}

/* one shape, one type, one size: onepass, perks (2d5pt), every tb */
static void bench_one(const shape *s, int dbl, int S, void **buf, void *ref)
{
    const size_t n = (size_t)S * S, es = dbl ? 8 : 4;
    double cd[128], sum = 0;
    float cf[128];
    ctx c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < s->npts; i++) { cd[i] = 0.5 + 0.5 * (gpucheck_uniform() + 1); sum += cd[i]; }
    for (int i = 0; i < s->npts; i++) { cd[i] /= sum; cf[i] = (float)cd[i]; }
    c.a.nx = c.a.ny = S;
    c.a.coef = dbl ? (const void *)cd : (const void *)cf;
    c.a.ncoef = s->npts;
    c.a.boundary = SSAM_STENCIL_DIRICHLET;
    c.dbl = dbl;
    /* the start in buf[2]; every run copies it into buf[0] first (not timed: warm-up and reps each
     * start from the state the last run left, which is as good a start as any) */
    gpucheck_fill_dev<<<1024, 256>>>(buf[2], n, dbl, 99u, 0.0, 1.0);
    CUDA_DIE(cudaMemcpy(buf[0], buf[2], n * es, cudaMemcpyDeviceToDevice));
    c.a.src = buf[0]; c.a.dst = buf[1];
    c.fn = s->onepass[dbl];
    const double base = gpucheck_time_ms(run, &c, 1, reps);
    report(s, dbl, S, "onepass", 1, base, base, "");
    /* the reference state: N one-pass steps from the start */
    CUDA_DIE(cudaMemcpy(buf[0], buf[2], n * es, cudaMemcpyDeviceToDevice));
    run(&c, 0);
    CUDA_DIE(cudaMemcpy(ref, c.res, n * es, cudaMemcpyDeviceToDevice));
    if (!strcmp(s->name, "star2d_r1")) {
        c.perks = 1;
        c.pa.src = buf[0]; c.pa.dst = buf[1]; c.pa.nx = S; c.pa.ny = S; c.pa.steps = steps;
        c.pa.coef = c.a.coef; c.pa.ncoef = pk_float_NCOEF; c.pa.cache = PERKS_CACHE_SMEM; c.pa.path = PERKS_KERNEL_AUTO;
        perks_plan pp;
        const int rc = dbl ? pk_double_plan(&c.pa, &pp) : pk_float_plan(&c.pa, &pp);
        if (rc) { fprintf(stderr, "perks plan: %s (%s)\n", perks_strerror(rc), pp.why); exit(2); }
        c.pa.work_bytes = pp.workspace_bytes;
        if (c.pa.work_bytes) CUDA_DIE(cudaMalloc(&c.pa.work, c.pa.work_bytes));
        report(s, dbl, S, "perks", 1, gpucheck_time_ms(run, &c, 1, reps), base, "");
        if (c.pa.work) cudaFree(c.pa.work);
        c.perks = 0;
    }
    void *h1 = malloc(n * es), *h2 = malloc(n * es);
    for (size_t i = 0; i < sizeof tbs / sizeof *tbs; i++) {
        const tb *t = &tbs[i];
        char impl[32], check[64];
        if (strcmp(t->name, s->name) || t->dbl != dbl) continue;
        c.fn = t->advance;
        const double ms = gpucheck_time_ms(run, &c, 1, reps);
        CUDA_DIE(cudaMemcpy(buf[0], buf[2], n * es, cudaMemcpyDeviceToDevice));
        run(&c, 0);
        CUDA_DIE(cudaDeviceSynchronize());
        CUDA_DIE(cudaMemcpy(h1, c.res, n * es, cudaMemcpyDeviceToHost));
        CUDA_DIE(cudaMemcpy(h2, ref, n * es, cudaMemcpyDeviceToHost));
        if (memcmp(h1, h2, n * es) == 0) snprintf(check, sizeof check, "bitwise");
        else snprintf(check, sizeof check, "DIFFERS: |tb - onepass|/|onepass| %.2e", gpucheck_devdiff(c.res, ref, n, dbl));
        if (t->staged) snprintf(impl, sizeof impl, "tbs-%d", t->tt);
        else if (t->minb) snprintf(impl, sizeof impl, "tb-%d-m%d", t->tt, t->minb);
        else snprintf(impl, sizeof impl, "tb-%d", t->tt);
        report(s, dbl, S, impl, t->tt, ms, base, check);
    }
    free(h1);
    free(h2);
}

int main(int argc, char **argv)
{
    int S = 8192, large = 1, small = 1;
    const char *jpath = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--no-large")) large = 0;
        else if (!strcmp(argv[i], "--no-small")) small = 0;
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--size S] [--steps N] [--only NAME] [--no-large] [--no-small]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || S < 64 || steps < 1) { fprintf(stderr, "bad --reps, --size or --steps\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    const int SL = large ? 2 * S : S;
    const size_t nmax = (size_t)SL * SL;
    void *buf[3], *ref;
    for (int i = 0; i < 3; i++) CUDA_DIE(cudaMalloc(&buf[i], nmax * 8));
    CUDA_DIE(cudaMalloc(&ref, nmax * 8));
    bw = gpucheck_copy_bw(buf[1], buf[0], nmax * 8); /* the largest buffer, median of 5 */
    printf("temporal bench on %s, %d^2 (2d5pt, 2d9pt also %d^2 and %d^2, %d^2), %d steps, Dirichlet, median of %d; "
           "copy bandwidth %.2f TB/s\n", pr.name, S, SL, S / 8, S / 4, steps, reps, bw / 1e12);
    if (jpath) {
        json = gpucheck_json_open(jpath, "temporal", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }
    gpucheck_seed(4242);
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const shape *s = &shapes[si];
        if (only && strcmp(only, s->name) && strcmp(only, s->paper)) continue;
        for (int dbl = 0; dbl < 2; dbl++) {
            const int two = !strcmp(s->name, "star2d_r1") || !strcmp(s->name, "box2d_r1");
            if (small && two) {
                bench_one(s, dbl, S / 8, buf, ref);
                bench_one(s, dbl, S / 4, buf, ref);
            }
            bench_one(s, dbl, S, buf, ref);
            if (large && SL != S && two) bench_one(s, dbl, SL, buf, ref);
        }
    }
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    for (int i = 0; i < 3; i++) cudaFree(buf[i]);
    cudaFree(ref);
    return 0;
}
