/* bench/ssam_designs.cu -- the six 1-D systolic designs of the URE paper side by side (its Table 3 and
 * the analytical model of its Table 4), on a 2^26-sample fp32 signal, stride 1 and 2, 2..17 taps,
 * beside a plain kernel (one output per thread, taps read through L1) and the floors.
 *
 *   per design and shape: ms (median of --reps, inputs rotated between two sets larger than L2),
 *   G outputs/s, the memory floor (read n + write n/S samples at 4.27 TB/s), the FMA floor
 *   (Q FMAs per output at 33.5 T FMA/s), % of the larger floor, speed relative to the plain kernel,
 *   and the model: time steps per warp tile and lane use (useful FMAs / (32 x steps)).
 *
 * usage: designs [--json PATH] [--reps N] [--log2n L]
 */
#include <ssam/designs.cuh>

#include "gpucheck.h"

#define SHAPES(X) X(2, 1) X(5, 1) X(9, 1) X(17, 1) X(2, 2) X(5, 2) X(9, 2) X(17, 2)
#define DEF(Q, S)                                                                                           \
    SSAM_DESIGN1D_DEFINE(sbm_##Q##_##S, float, SBM, Q, S, 256)                                              \
    SSAM_DESIGN1D_DEFINE(bsm_##Q##_##S, float, BSM, Q, S, 256)                                              \
    SSAM_DESIGN1D_DEFINE(fsm_##Q##_##S, float, FSM, Q, S, 256)                                              \
    SSAM_DESIGN1D_DEFINE(bfs_##Q##_##S, float, BFS, Q, S, 256)                                              \
    SSAM_DESIGN1D_DEFINE(ffs_##Q##_##S, float, FFS, Q, S, 256)                                              \
    SSAM_DESIGN1D_DEFINE(fbs_##Q##_##S, float, FBS, Q, S, 256)
SHAPES(DEF)

typedef int (*d1_fn)(const ssam_design1d_args *, cudaStream_t);
typedef struct {
    const char *design;
    d1_fn launch;
    int q, s, tile;
} entry;
#define ENT(Q, S)                                                                                           \
    {"SBM", sbm_##Q##_##S##_launch, Q, S, SSAM_DESIGN1D_TILE_SIZE(SBM, float, Q, S)},                       \
    {"BSM", bsm_##Q##_##S##_launch, Q, S, SSAM_DESIGN1D_TILE_SIZE(BSM, float, Q, S)},                       \
    {"FSM", fsm_##Q##_##S##_launch, Q, S, SSAM_DESIGN1D_TILE_SIZE(FSM, float, Q, S)},                       \
    {"BFS", bfs_##Q##_##S##_launch, Q, S, SSAM_DESIGN1D_TILE_SIZE(BFS, float, Q, S)},                       \
    {"FFS", ffs_##Q##_##S##_launch, Q, S, SSAM_DESIGN1D_TILE_SIZE(FFS, float, Q, S)},                       \
    {"FBS", fbs_##Q##_##S##_launch, Q, S, SSAM_DESIGN1D_TILE_SIZE(FBS, float, Q, S)},
static const entry entries[] = {SHAPES(ENT)};

/* time steps of one warp tile (all phases) in our mapping of each design */
static int model_steps(const char *d, int q, int s)
{
    int steps = 0, qp = (q + s - 1) / s, r = (32 + qp - 1) / qp, l = qp * r;
    for (int f = 0; f < s; f++) {
        int qf = (q - f + s - 1) / s;
        if (!qf) continue;
        if (!strcmp(d, "SBM") || !strcmp(d, "FBS")) steps += qf;
        else if (!strcmp(d, "BFS")) steps += 31 + qf;
        else if (!strcmp(d, "FFS")) steps += 61 + 2 * qf;
        else if (!strcmp(d, "BSM")) steps += l + qp - 1;
        else steps += 2 * l + 2 * qp - 3; /* FSM */
    }
    return steps;
}

/* the plain kernel of each shape: one output per thread, taps read through L1, Q and S constants */
#define PLAIN(Q, S)                                                                                         \
    typedef struct { float w[Q]; } plain_w_##Q##_##S;                                                       \
    __global__ void plain_##Q##_##S(const float *__restrict__ x, float *__restrict__ y, long long nout,     \
                                    plain_w_##Q##_##S w)                                                    \
    {                                                                                                       \
        long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;                                     \
        if (c >= nout) return;                                                                              \
        float acc = 0;                                                                                      \
        _Pragma("unroll") for (int k = 0; k < (Q); k++) acc = fmaf(__ldg(x + (S) * c + k), w.w[k], acc);    \
        y[c] = acc;                                                                                         \
    }                                                                                                       \
    static void plain_run_##Q##_##S(const float *x, float *y, long long nout, const float *hw)              \
    {                                                                                                       \
        plain_w_##Q##_##S w;                                                                                \
        memcpy(w.w, hw, sizeof w.w);                                                                        \
        plain_##Q##_##S<<<(unsigned)((nout + 255) / 256), 256>>>(x, y, nout, w);                            \
    }
SHAPES(PLAIN)
typedef void (*plain_fn)(const float *, float *, long long, const float *);
typedef struct { int q, s; plain_fn run; } plain_entry;
#define PLAIN_ENT(Q, S) {Q, S, plain_run_##Q##_##S},
static const plain_entry plains[] = {SHAPES(PLAIN_ENT)};

static int reps = 20;
typedef struct {
    const entry *e; /* NULL: the plain kernel */
    int q, s;
    long long n, nout;
    float *x[2], *y[2], hw[17];
} ctx;

static void run(ctx *c, int set)
{
    if (c->e) {
        ssam_design1d_args a = {c->x[set], c->y[set], c->n, c->hw, 0};
        int rc = c->e->launch(&a, 0);
        if (rc) { fprintf(stderr, "launch: %s\n", ssam_strerror(rc)); exit(1); }
    } else {
        for (size_t i = 0; i < sizeof plains / sizeof *plains; i++)
            if (plains[i].q == c->q && plains[i].s == c->s) plains[i].run(c->x[set], c->y[set], c->nout, c->hw);
    }
}

static void run_set(void *c, int set) { run((ctx *)c, set); }
static double time_it(ctx *c) { return gpucheck_time_ms(run_set, c, 3, reps); }

int main(int argc, char **argv)
{
    const char *jpath = NULL;
    int log2n = 26;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--log2n") && i + 1 < argc) log2n = atoi(argv[++i]);
        else { fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--log2n L]\n", argv[0]); return 2; }
    }
    if (reps < 1 || log2n < 10 || log2n > 30) { fprintf(stderr, "bad --reps or --log2n\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    const long long n = 1LL << log2n;
    FILE *json = NULL;
    int rows = 0;
    if (jpath && !(json = gpucheck_json_open(jpath, "designs", pr.name, reps))) { perror(jpath); return 1; }
    ctx c;
    memset(&c, 0, sizeof c);
    c.n = n;
    for (int k = 0; k < 2; k++) {
        CUDA_DIE(cudaMalloc(&c.x[k], n * sizeof(float)));
        CUDA_DIE(cudaMalloc(&c.y[k], n * sizeof(float)));
        float *h = (float *)malloc(n * sizeof(float));
        for (long long i = 0; i < n; i++) h[i] = 2 * gpucheck_uniform() - 1;
        CUDA_DIE(cudaMemcpy(c.x[k], h, n * sizeof(float), cudaMemcpyHostToDevice));
        free(h);
    }
    float *ref = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
    printf("1-D correlation, %lld fp32 samples (%s), median of %d; floor = max(memory, FMA)\n", n, pr.name, reps);
    printf("%-6s %4s %2s %10s %9s %9s %7s %7s %6s %9s %8s\n", "design", "taps", "S", "ms", "GOut/s", "floor ms",
           "%floor", "xplain", "steps", "lane use", "maxdiff");
    const size_t ne = sizeof entries / sizeof *entries;
    double plain_ms = 0;
    for (size_t i = 0; i < ne; i++) {
        /* before each shape's six designs, the plain kernel of that shape */
        const entry *e = &entries[i];
        if (i % 6 == 0) {
            c.e = NULL;
            c.q = e->q; c.s = e->s;
            c.nout = ssam_design1d_outputs(n, c.q, c.s);
            for (int k = 0; k < 17; k++) c.hw[k] = k < c.q ? 2 * gpucheck_uniform() - 1 : 0;
            plain_ms = time_it(&c);
            CUDA_DIE(cudaMemcpy(ref, c.y[0], c.nout * sizeof(float), cudaMemcpyDeviceToHost));
            double mem = (double)(n + c.nout) * 4 / 4.27e12 * 1e3, fma = (double)c.nout * c.q / 33.5e12 * 1e3;
            double fl = mem > fma ? mem : fma;
            printf("%-6s %4d %2d %10.4f %9.1f %9.4f %6.1f%% %7.2f %6s %9s %8s\n", "plain", c.q, c.s, plain_ms,
                   c.nout / plain_ms / 1e6, fl, 100 * fl / plain_ms, 1.0, "-", "-", "-");
            if (json)
                fprintf(json, "%s  {\"impl\": \"plain\", \"taps\": %d, \"stride\": %d, \"ms\": %.5f, \"floor_ms\": %.5f}",
                        rows++ ? ",\n" : "", c.q, c.s, plain_ms, fl);
        }
        c.e = e;
        double ms = time_it(&c);
        CUDA_DIE(cudaMemcpy(got, c.y[0], c.nout * sizeof(float), cudaMemcpyDeviceToHost));
        double md = 0;
        for (long long o = 0; o < c.nout; o++) {
            double d = fabs((double)got[o] - ref[o]);
            if (!(d <= md)) md = d; /* NaN counts as worst */
        }
        int steps = model_steps(e->design, e->q, e->s);
        double use = (double)e->tile * e->q / (32.0 * steps);
        double mem = (double)(n + c.nout) * 4 / 4.27e12 * 1e3, fma = (double)c.nout * c.q / 33.5e12 * 1e3;
        double fl = mem > fma ? mem : fma;
        printf("%-6s %4d %2d %10.4f %9.1f %9.4f %6.1f%% %7.2f %6d %8.0f%% %8.1e\n", e->design, e->q, e->s, ms,
               c.nout / ms / 1e6, fl, 100 * fl / ms, plain_ms / ms, steps, 100 * use, md);
        if (json)
            fprintf(json, ",\n  {\"impl\": \"%s\", \"taps\": %d, \"stride\": %d, \"ms\": %.5f, \"floor_ms\": %.5f, "
                    "\"vs_plain\": %.3f, \"steps\": %d, \"lane_use\": %.3f, \"maxdiff\": %.3g}",
                    e->design, e->q, e->s, ms, fl, plain_ms / ms, steps, use, md);
    }
    if (json) { fprintf(json, "\n]}\n"); fclose(json); }
    free(ref); free(got);
    return 0;
}
