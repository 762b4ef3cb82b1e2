/* bench/perks_scale.cu -- stencils over 1, 2, 4 and 8 GPUs of one process: slabs (perks/decomp.h), ghost
 * planes through NCCL (perks/exchange.cuh; ncclCommInitAll over the first P GPUs), one exchange per
 * pass.  Parts:
 *   weak2d    2d5pt fp32, S x S cells per GPU (S = 16384), slabs of rows; ssam's one-pass kernel
 *   temporal  the same domains, ssam's temporal blocking, 8 steps a pass with 8 ghost rows
 *   strong2d  2d5pt fp32, one L x L domain (L = 32768) over P GPUs
 *   weak3d    3d7pt fp32, C^3 cells per GPU (C = 512), slabs of z planes; ssam's one-pass 3D kernel
 * each plain (exchange, then the pass over the slab), overlapped (the interior while the ghosts
 * travel, exchange.cuh's OVERLAP recipe) and "auto" (both timed for 16 passes twice on the same
 * ranks, the faster kept: the row names the choice), N steps (1000) after a warm-up of two passes, wall time
 * over all GPUs.  It prints GCells/s, the time per step, the speed-up and efficiency against the
 * same part on 1 GPU, and the one-pass memory floor: P x (copy bandwidth of GPU 0, measured in this
 * run) / 8 bytes per cell and step.  Before each timed configuration the same code runs a small
 * ragged domain (21 steps) and its gathered result is compared bit for bit with the undivided
 * domain stepped by the one-pass kernel on GPU 0 ("bitwise" in the table, or "DIFFERS").
 * With one GPU, or built without NCCL, it runs P = 1 only and says so.
 * usage: scale [--json PATH] [--only weak2d|temporal|strong2d|weak3d] [--n S] [--strong L] [--n3 C]
 *              [--steps N] [--reps R] [--gpus P] [--no-overlap]
 *   --n (or --size) S: the 2D side per GPU; --strong L: the strong-scaling side (2 S by default);
 *   --n3 C: the 3D side per GPU; --gpus P: at most P GPUs; --no-overlap: the plain runs only (no overlapped, no auto)
 *   a short run: scale --n 4096 --strong 8192 --n3 256 --steps 100 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perks/exchange.cuh>
#include <ssam/stencil.cuh>
#include <ssam/temporal.cuh>

#include "gpucheck.h"

SSAM_STENCIL2D_DEFINE(s2, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<>)
SSAM_STENCIL2D_TEMPORAL_DEFINE(t2, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<8, 128, SSAM_SCHEDULE_REGS>)
SSAM_STENCIL3D_DEFINE(s3, float, ONCHIP_SHAPE_3D7PT, ssam_stencil_policy<4>)

#define PK(call)                                                                                    \
    do {                                                                                            \
        int rc_ = (call);                                                                           \
        if (rc_) {                                                                                  \
            fprintf(stderr, "%s:%d: %s: status %d (%s)\n", __FILE__, __LINE__, #call, rc_,           \
                    perks_strerror(rc_));                                                           \
            exit(2);                                                                                \
        }                                                                                           \
    } while (0)
#define SK(call)                                                                                    \
    do {                                                                                            \
        int rc_ = (call);                                                                           \
        if (rc_) {                                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, ssam_stencil_strerror(rc_)); \
            exit(2);                                                                                \
        }                                                                                           \
    } while (0)

#define MAXG 8

static const float coef2[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f};
static const float coef3[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};

/* the domain: nx x ny planes (2D: ny = 1), `planes` of them along the split axis */
typedef struct dom {
    int nx, ny, planes;
} dom;

/* one pass of s steps over `planes` planes from src to dst (pointers at the window's first plane) */
typedef void (*pass_fn)(const float *src, float *dst, const dom *d, int planes, int s, cudaStream_t st);
static void pass_2d(const float *src, float *dst, const dom *d, int planes, int s, cudaStream_t st)
{
    ssam_stencil_args a;
    (void)s;
    memset(&a, 0, sizeof a);
    a.src = src; a.dst = dst; a.nx = d->nx; a.ny = planes; a.coef = coef2; a.ncoef = 5; a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = 1; /* one-pass: a pass is one step */
    SK(s2_launch(&a, st));
}
static void pass_tb(const float *src, float *dst, const dom *d, int planes, int s, cudaStream_t st)
{
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = src; a.dst = dst; a.nx = d->nx; a.ny = planes; a.coef = coef2; a.ncoef = 5; a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = s; /* s <= TT 8: one pass, src to dst */
    SK(t2_launch(&a, st));
}
static void pass_3d(const float *src, float *dst, const dom *d, int planes, int s, cudaStream_t st)
{
    ssam_stencil_args a;
    (void)s;
    memset(&a, 0, sizeof a);
    a.src = src; a.dst = dst; a.nx = d->nx; a.ny = d->ny; a.nz = planes; a.coef = coef3; a.ncoef = 7;
    a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = 1; /* one-pass: a pass is one step */
    SK(s3_launch(&a, st));
}

typedef struct part {
    const char *name, *stencil;
    int tt;   /* steps a pass (1: one-pass) = the ghost planes (reach 1) */
    int weak; /* cells per GPU fixed (1) or the domain (0) */
    int dims;
    pass_fn fn;
} part;
static const part parts[] = {
    {"weak2d", "2d5pt", 1, 1, 2, pass_2d},
    {"temporal", "2d5pt", 8, 1, 2, pass_tb},
    {"strong2d", "2d5pt", 1, 0, 2, pass_2d},
    {"weak3d", "3d7pt", 1, 1, 3, pass_3d},
};

/* one rank: slab, parts, buffers, streams, events */
typedef struct rk {
    perks_slab s;
    perks_slab_parts q;
    int dev;
    float *cur, *nxt, *scr;
    cudaStream_t cs, xs;
    cudaEvent_t landed, done;
#ifdef PERKS_HAVE_NCCL
    ncclComm_t comm;
#endif
} rk;

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* P ranks over the domain; own planes from host (h: the whole domain) or a per-rank hash */
static void ranks_init(rk *R, int P, const part *pt, const dom *d, const float *h)
{
    const size_t plane = (size_t)d->nx * d->ny;
    for (int r = 0; r < P; r++) {
        rk *A = &R[r];
        PK(perks_slab_make(&A->s, d->planes, P, r, pt->tt, PERKS_SLAB_DIRICHLET));
        PK(perks_slab_parts_make(&A->s, pt->tt, &A->q));
        A->dev = r;
        CUDA_DIE(cudaSetDevice(r));
        const size_t bytes = (size_t)A->s.buf_planes * plane * sizeof(float);
        CUDA_DIE(cudaMalloc(&A->cur, bytes));
        CUDA_DIE(cudaMalloc(&A->nxt, bytes));
        CUDA_DIE(cudaMalloc(&A->scr, (A->q.scratch_planes + 1) * plane * sizeof(float)));
        CUDA_DIE(cudaMemset(A->cur, 0xFF, bytes)); /* NaN ghosts until exchanged */
        CUDA_DIE(cudaMemset(A->nxt, 0xFF, bytes));
        float *own = A->cur + (size_t)A->s.halo * plane;
        if (h) CUDA_DIE(cudaMemcpy(own, h + (size_t)A->s.first * plane, (size_t)A->s.own * plane * sizeof(float), cudaMemcpyHostToDevice));
        else gpucheck_fill_dev<<<1024, 256>>>(own, (size_t)A->s.own * plane, 0, 77u + (unsigned)r, 0.0, 1.0);
        CUDA_DIE(cudaGetLastError());
        CUDA_DIE(cudaDeviceSynchronize()); /* the non-blocking streams below do not wait for the default stream */
        CUDA_DIE(cudaStreamCreateWithFlags(&A->cs, cudaStreamNonBlocking));
        CUDA_DIE(cudaStreamCreateWithFlags(&A->xs, cudaStreamNonBlocking));
        CUDA_DIE(cudaEventCreateWithFlags(&A->landed, cudaEventDisableTiming));
        CUDA_DIE(cudaEventCreateWithFlags(&A->done, cudaEventDisableTiming));
        CUDA_DIE(cudaDeviceSynchronize());
    }
}

static void ranks_free(rk *R, int P)
{
    for (int r = 0; r < P; r++) {
        CUDA_DIE(cudaSetDevice(R[r].dev));
        CUDA_DIE(cudaDeviceSynchronize());
        cudaFree(R[r].cur);
        cudaFree(R[r].nxt);
        cudaFree(R[r].scr);
        cudaStreamDestroy(R[r].cs);
        cudaStreamDestroy(R[r].xs);
        cudaEventDestroy(R[r].landed);
        cudaEventDestroy(R[r].done);
    }
}

/* the ghost planes: one rank needs none (Dirichlet); several go through NCCL in one group */
static void exchange(rk *R, int P, size_t plane_bytes)
{
    if (P == 1) {
        CUDA_DIE(cudaSetDevice(R[0].dev));
        CUDA_DIE(cudaStreamWaitEvent(R[0].xs, R[0].done, 0));
        void *b = R[0].cur;
        PK(perks_slab_exchange_local(&R[0].s, &b, 1, plane_bytes, R[0].xs));
        CUDA_DIE(cudaEventRecord(R[0].landed, R[0].xs));
        return;
    }
#ifdef PERKS_HAVE_NCCL
    if (ncclGroupStart() != ncclSuccess) { fprintf(stderr, "ncclGroupStart failed\n"); exit(2); }
    for (int r = 0; r < P; r++) {
        CUDA_DIE(cudaSetDevice(R[r].dev));
        CUDA_DIE(cudaStreamWaitEvent(R[r].xs, R[r].done, 0));
        PK(perks_slab_exchange_nccl(&R[r].s, R[r].cur, plane_bytes, R[r].comm, R[r].xs));
    }
    if (ncclGroupEnd() != ncclSuccess) { fprintf(stderr, "ncclGroupEnd failed\n"); exit(2); }
    for (int r = 0; r < P; r++) {
        CUDA_DIE(cudaSetDevice(R[r].dev));
        CUDA_DIE(cudaEventRecord(R[r].landed, R[r].xs));
    }
#endif
}

/* `steps` steps on P ranks, plain or overlapped */
static void advance(rk *R, int P, const part *pt, const dom *d, int steps, int overlap)
{
    const size_t plane = (size_t)d->nx * d->ny;
    for (int done = 0, s; done < steps; done += s) {
        s = steps - done < pt->tt ? steps - done : pt->tt;
        if (overlap)
            for (int r = 0; r < P; r++) {
                const int w0 = R[r].q.inner_win[0], w1 = R[r].q.inner_win[1];
                if (w1 == w0) continue;
                CUDA_DIE(cudaSetDevice(R[r].dev));
                pt->fn(R[r].cur + w0 * plane, R[r].nxt + w0 * plane, d, w1 - w0, s, R[r].cs);
            }
        exchange(R, P, plane * sizeof(float));
        for (int r = 0; r < P; r++) {
            rk *A = &R[r];
            CUDA_DIE(cudaSetDevice(A->dev));
            CUDA_DIE(cudaStreamWaitEvent(A->cs, A->landed, 0));
            if (overlap) {
                for (int k = 0; k < 2; k++) {
                    const int e0 = A->q.edge[k][0], e1 = A->q.edge[k][1], w0 = A->q.edge_win[k][0], w1 = A->q.edge_win[k][1];
                    if (e1 == e0) continue;
                    pt->fn(A->cur + w0 * plane, A->scr, d, w1 - w0, s, A->cs);
                    CUDA_DIE(cudaMemcpyAsync(A->nxt + e0 * plane, A->scr + (e0 - w0) * plane, (e1 - e0) * plane * sizeof(float),
                                             cudaMemcpyDeviceToDevice, A->cs));
                }
            } else {
                const int p0 = A->s.win[0], p1 = A->s.win[1];
                pt->fn(A->cur + p0 * plane, A->nxt + p0 * plane, d, p1 - p0, s, A->cs);
            }
            CUDA_DIE(cudaEventRecord(A->done, A->cs));
            float *x = A->cur; A->cur = A->nxt; A->nxt = x;
        }
    }
}

/* wait for all ranks (bounded through NCCL: a failed peer is an error, not a hang) */
static void finish(rk *R, int P)
{
#ifdef PERKS_HAVE_NCCL
    if (P > 1) {
        ncclComm_t c[MAXG];
        cudaStream_t st[MAXG];
        for (int r = 0; r < P; r++) { c[r] = R[r].comm; st[r] = R[r].cs; }
        PK(perks_nccl_wait(c, st, P, 600.0));
        return;
    }
#endif
    for (int r = 0; r < P; r++) CUDA_DIE(cudaStreamSynchronize(R[r].cs));
}

#ifdef PERKS_HAVE_NCCL
static ncclComm_t comms[MAXG + 1][MAXG]; /* comms[P]: a communicator over GPUs 0..P-1 */
#endif
static void attach(rk *R, int P)
{
#ifdef PERKS_HAVE_NCCL
    if (P > 1) {
        perks_slab S[MAXG];
        cudaStream_t st[MAXG];
        for (int r = 0; r < P; r++) { R[r].comm = comms[P][r]; S[r] = R[r].s; st[r] = R[r].cs; }
        PK(perks_slab_agree_nccl(S, P, 1, comms[P], st, 60.0)); /* the ranks agree on the domain */
    }
#else
    (void)R; (void)P;
#endif
}

/* the faster of plain and overlapped on these ranks (1: overlapped): both run a trial of 16 passes,
 * twice, alternating, after a warm-up; the best time of each is kept in *tp, *to (seconds).  The
 * overlap pays only where the exchange it hides costs more than the edge passes and copies it adds */
static int choose_overlap(rk *R, int P, const part *pt, const dom *d, double *tp, double *to)
{
    const int n = 16 * pt->tt;
    double best[2] = {1e30, 1e30};
    for (int m = 0; m < 2; m++) { advance(R, P, pt, d, 2 * pt->tt, m); finish(R, P); }
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 2; m++) {
            const double t0 = seconds();
            advance(R, P, pt, d, n, m);
            finish(R, P);
            const double t = seconds() - t0;
            if (t < best[m]) best[m] = t;
        }
    *tp = best[0] / n, *to = best[1] / n;
    return best[1] < best[0];
}

/* the check: a small ragged domain for 21 steps on P ranks against the undivided one-pass run */
static int check_small(const part *pt, int P, int overlap)
{
    const int steps = 21;
    dom d;
    if (pt->dims == 2) { d.nx = 1000; d.ny = 1; d.planes = pt->weak ? 61 * P + 7 : 389; }
    else { d.nx = 67; d.ny = 45; d.planes = 13 * P + 3; }
    const size_t plane = (size_t)d.nx * d.ny, n = plane * d.planes;
    float *h = (float *)malloc(n * 4), *ref = (float *)malloc(n * 4), *got = (float *)malloc(n * 4);
    if (!h || !ref || !got) { fprintf(stderr, "out of memory\n"); exit(2); }
    for (size_t i = 0; i < n; i++) h[i] = 0.5f * (gpucheck_uniform() + 1.0f);
    /* the undivided domain, one pass a step */
    float *a, *b;
    CUDA_DIE(cudaSetDevice(0));
    CUDA_DIE(cudaMalloc(&a, n * 4));
    CUDA_DIE(cudaMalloc(&b, n * 4));
    CUDA_DIE(cudaMemcpy(a, h, n * 4, cudaMemcpyHostToDevice));
    for (int t = 0; t < steps; t++) {
        (pt->dims == 2 ? pass_2d : pass_3d)(a, b, &d, d.planes, 1, 0);
        float *x = a; a = b; b = x;
    }
    CUDA_DIE(cudaMemcpy(ref, a, n * 4, cudaMemcpyDeviceToHost));
    cudaFree(a);
    cudaFree(b);
    /* the slabs */
    rk R[MAXG];
    ranks_init(R, P, pt, &d, h);
    attach(R, P);
    advance(R, P, pt, &d, steps, overlap);
    finish(R, P);
    for (int r = 0; r < P; r++) {
        CUDA_DIE(cudaSetDevice(R[r].dev));
        CUDA_DIE(cudaMemcpy(got + (size_t)R[r].s.first * plane, R[r].cur + (size_t)R[r].s.halo * plane,
                            (size_t)R[r].s.own * plane * 4, cudaMemcpyDeviceToHost));
    }
    ranks_free(R, P);
    const int same = memcmp(got, ref, n * 4) == 0;
    free(h); free(ref); free(got);
    return same;
}

static FILE *json;
static int json_rows;

int main(int argc, char **argv)
{
    int S = 16384, L = 0, C = 512, steps = 1000, reps = 1, maxg = MAXG, overlap_too = 1;
    const char *jpath = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        const int more = i + 1 < argc;
        if (!strcmp(argv[i], "--json") && more) jpath = argv[++i];
        else if (!strcmp(argv[i], "--only") && more) only = argv[++i];
        else if ((!strcmp(argv[i], "--n") || !strcmp(argv[i], "--size")) && more) S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--strong") && more) L = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--n3") && more) C = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && more) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && more) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gpus") && more) maxg = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-overlap")) overlap_too = 0;
        else {
            fprintf(stderr, "usage: %s [--json PATH] [--only weak2d|temporal|strong2d|weak3d] [--n S] [--strong L] [--n3 C] "
                            "[--steps N] [--reps R] [--gpus P] [--no-overlap]\n", argv[0]);
            return 2;
        }
    }
    if (!L) L = 2 * S;
    if (S < 64 || L < 64 || C < 16 || steps < 1 || reps < 1 || reps > 256 || maxg < 1 || L > 46340 || S > 46340) {
        fprintf(stderr, "%s: need 64 <= S, L <= 46340, C >= 16, steps >= 1, 1 <= reps <= 256, gpus >= 1\n", argv[0]);
        return 2;
    }
    if (only) {
        int known = 0;
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) known |= !strcmp(only, parts[i].name);
        if (!known) { fprintf(stderr, "%s: --only weak2d, temporal, strong2d or weak3d\n", argv[0]); return 2; }
    }
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* no NVLink multicast: point-to-point and 16-byte reductions only */
    int ngpu = 0;
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceCount(&ngpu));
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    int counts[4], ncounts = 0;
    for (int P = 1; P <= MAXG; P *= 2)
        if (P <= ngpu && P <= maxg) counts[ncounts++] = P;
#ifdef PERKS_HAVE_NCCL
    for (int c = 1; c < ncounts; c++) {
        int devs[MAXG];
        for (int r = 0; r < counts[c]; r++) devs[r] = r;
        if (ncclCommInitAll(comms[counts[c]], counts[c], devs) != ncclSuccess) {
            fprintf(stderr, "ncclCommInitAll over %d GPUs failed\n", counts[c]);
            return 2;
        }
    }
    if (ngpu < 2) printf("scale: one GPU visible: P = 1 only\n");
#else
    ncounts = 1;
    printf("scale: built without NCCL (no <nccl.h>): P = 1 only\n");
#endif
    /* the copy bandwidth of GPU 0 (the memory floor) */
    double bw;
    {
        const size_t bytes = (size_t)1 << 30;
        void *x, *y;
        CUDA_DIE(cudaSetDevice(0));
        CUDA_DIE(cudaMalloc(&x, bytes));
        CUDA_DIE(cudaMalloc(&y, bytes));
        CUDA_DIE(cudaMemset(x, 0, bytes));
        bw = gpucheck_copy_bw(y, x, bytes);
        cudaFree(x);
        cudaFree(y);
    }
    printf("scale bench on %d x %s (%d visible), %d steps, median of %d; copy bandwidth of GPU 0 %.2f TB/s: one-pass floor "
           "%.1f GCells/s per GPU (fp32, 8 bytes per cell and step)\n", counts[ncounts - 1], pr.name, ngpu, steps, reps, bw / 1e12,
           bw / 8 / 1e9);
    printf("%-8s %-7s %-22s %4s %-19s %9s %9s %8s %6s %15s  %s\n", "part", "stencil", "impl", "gpus", "domain", "ms/step",
           "GCells/s", "speed-up", "eff", "floor (of it)", "check");
    if (jpath) {
        json = gpucheck_json_open(jpath, "scale", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }
    gpucheck_seed(4242);
    int failed = 0;
    for (size_t pi = 0; pi < sizeof parts / sizeof parts[0]; pi++) {
        const part *pt = &parts[pi];
        if (only && strcmp(only, pt->name)) continue;
        for (int ov = 0; ov <= 2 * overlap_too; ov++) { /* plain, overlapped, the faster of the two */
            double base = 0;
            for (int c = 0; c < ncounts; c++) {
                const int P = counts[c];
                dom d;
                if (pt->dims == 3) { d.nx = C; d.ny = C; d.planes = C * P; }
                else if (pt->weak) { d.nx = S; d.ny = 1; d.planes = S * P; }
                else { d.nx = L; d.ny = 1; d.planes = L; }
                rk R[MAXG];
                ranks_init(R, P, pt, &d, NULL);
                attach(R, P);
                double tplain = 0, tover = 0;
                const int mode = ov < 2 ? ov : choose_overlap(R, P, pt, &d, &tplain, &tover);
                const int same = check_small(pt, P, mode);
                failed |= !same;
                double t[256];
                for (int k = 0; k < reps; k++) {
                    advance(R, P, pt, &d, 2 * pt->tt, mode); /* warm-up: the first sends connect */
                    finish(R, P);
                    const double t0 = seconds();
                    advance(R, P, pt, &d, steps, mode);
                    finish(R, P);
                    t[k] = seconds() - t0;
                }
                ranks_free(R, P);
                const double sec = gpucheck_median(t, reps);
                const double cells = (double)d.nx * d.ny * d.planes, gc = cells * steps / sec / 1e9;
                const double floor = P * bw / 8 / 1e9;
                if (c == 0) base = gc;
                char impl[40], domain[48];
                snprintf(impl, sizeof impl, "%s%s", pt->tt > 1 ? "tb-8" : "onepass",
                         ov == 2 ? (mode ? "+auto(overlap)" : "+auto(plain)") : ov ? "+overlap" : "");
                if (pt->dims == 3) snprintf(domain, sizeof domain, "%dx%dx%d", d.nx, d.ny, d.planes);
                else snprintf(domain, sizeof domain, "%dx%d", d.nx, d.planes);
                printf("%-8s %-7s %-22s %4d %-19s %9.4f %9.1f %7.2fx %5.0f%% %7.1f (%3.0f%%)  %s\n", pt->name, pt->stencil, impl, P,
                       domain, sec * 1e3 / steps, gc, base > 0 ? gc / base : 0.0, base > 0 ? 100.0 * gc / base / P : 0.0, floor,
                       100.0 * gc / floor, same ? "bitwise" : "DIFFERS from the undivided domain");
                fflush(stdout);
                if (json)
                    fprintf(json, "%s  {\"part\": \"%s\", \"stencil\": \"%s\", \"type\": \"fp32\", \"impl\": \"%s\", \"tt\": %d, "
                                  "\"overlap\": %d, \"auto\": %d, \"trial_plain_ms\": %.4f, \"trial_overlap_ms\": %.4f, \"gpus\": %d, \"nx\": %d, \"ny\": %d, \"nz\": %d, \"steps\": %d, \"ms\": %.4f, "
                                  "\"ms_per_step\": %.5f, \"gcells_s\": %.2f, \"speedup\": %.3f, \"efficiency\": %.3f, "
                                  "\"floor_onepass\": %.1f, \"bitwise\": %d}",
                            json_rows++ ? ",\n" : "", pt->name, pt->stencil, impl, pt->tt, mode, ov == 2, tplain * 1e3, tover * 1e3, P, d.nx,
                            pt->dims == 3 ? d.ny : d.planes, pt->dims == 3 ? d.planes : 1, steps, sec * 1e3,
                            sec * 1e3 / steps, gc, base > 0 ? gc / base : 0.0, base > 0 ? gc / base / P : 0.0, floor, same);
            }
        }
    }
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
#ifdef PERKS_HAVE_NCCL
    for (int c = 1; c < ncounts; c++)
        for (int r = 0; r < counts[c]; r++) ncclCommDestroy(comms[counts[c]][r]);
#endif
    return failed ? 1 : 0;
}
