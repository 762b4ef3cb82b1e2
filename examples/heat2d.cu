/* examples/heat2d.cu -- the 2D heat equation u_t = alpha (u_xx + u_yy) with ssam's systolic 5-point
 * stencil, explicit Euler in time:
 *     u'(x, y) = (1 - 4r) u(x, y) + r (u(x-1, y) + u(x+1, y) + u(x, y-1) + u(x, y+1)),  r = alpha dt / h^2
 * (stable for r <= 1/4).  The edges are Dirichlet: the top edge is held at 1, the others at 0, and
 * the plate starts at 0 with a few hot squares.  The shape is described once, in the catalogue
 * (ONCHIP_SHAPE_2D5PT); the coefficients are run-time arguments; heat_plan and heat_run do the time
 * loop with two buffers (the plan's result names the one that holds the plate).
 *
 *   heat2d [--size N] [--steps S] [--r R] [--persistent | --temporal] [out.pgm]
 *
 * With no arguments: a 2048 x 2048 plate, 2000 steps, r = 0.24, a check of the first steps against
 * a CPU reference on a corner of the plate, and the timing.  out.pgm gets the final temperature as
 * an 8-bit image.  --persistent runs the time loop in one persistent kernel with the plate cached
 * on chip (perks/stencil.cuh, in heat2d_persistent.inc beside this file), checks it bit for bit
 * against one launch per step and prints both timings.  --temporal runs the same steps through
 * ssam/temporal.cuh's generator with SSAM_SCHEDULE_AUTO (the planner picks 8 steps per pass through
 * memory for this stencil, and says why), checks the plate bit for bit against one launch per step
 * and prints both timings. */
#include <ssam/stencil.cuh>
#include <ssam/temporal.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat2d_persistent.inc"

SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<>)
/* heatt: temporal blocking (heatt_tb_*, TT by SSAM_TB_TT_RULE) or one pass per step, as
 * heatt_plan says */
SSAM_STENCIL2D_TEMPORAL_DEFINE(heatt, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<>)

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--size N] [--steps S] [--r R] [--persistent | --temporal] [out.pgm]\n", argv0);
}

typedef int (*advance_fn)(const ssam_stencil_args *, int, void **, cudaStream_t);
/* `steps` steps of heat: the plan (a copy of a with those steps), its run, *res the plan's result */
static int heat_steps(const ssam_stencil_args *a, int steps, void **res, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    int rc = heat_plan(&b, &p);
    if (!rc) rc = heat_run(&b, &p, stream);
    *res = p.result;
    return rc;
}
/* the same with heatt, the planner's path (temporal blocking or one pass per step) */
static int heatt_steps(const ssam_stencil_args *a, int steps, void **res, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    int rc = heatt_plan(&b, &p);
    if (!rc) rc = heatt_run(&b, &p, stream);
    *res = p.result;
    return rc;
}
/* steps from the plate h (host) with fn, timed; the result copied back into out; ms returned */
static float run_timed(advance_fn fn, const char *name, ssam_stencil_args *a, const float *h, float *out, size_t cells,
                       int steps)
{
    cudaEvent_t t0, t1;
    void *res = NULL;
    float ms = 0;
    CK(cudaMemcpy((void *)a->src, h, cells * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(a->dst, 0xFF, cells * 4)); /* NaN: no earlier run's plate can stand in for this one's */
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventRecord(t0));
    int rc = fn(a, steps, &res, 0);
    CK(cudaEventRecord(t1));
    if (rc) { fprintf(stderr, "%s: %s\n", name, ssam_stencil_strerror(rc)); exit(1); }
    CK(cudaEventSynchronize(t1));
    CK(cudaEventElapsedTime(&ms, t0, t1));
    CK(cudaMemcpy(out, res, cells * 4, cudaMemcpyDeviceToHost));
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return ms;
}

/* the initial plate: top edge 1, a few hot squares inside */
static void initial(float *u, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float v = y == 0 ? 1.0f : 0.0f;
            for (int k = 1; k <= 3; k++) {
                int cx = k * n / 4, cy = (4 - k) * n / 4, h = n / 16;
                if (abs(x - cx) < h && abs(y - cy) < h) v = 1.0f;
            }
            u[(size_t)y * n + x] = v;
        }
}

int main(int argc, char **argv)
{
    int n = 2048, steps = 2000, persistent = 0, temporal = 0;
    double r = 0.24;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--r") && i + 1 < argc) r = atof(argv[++i]);
        else if (!strcmp(argv[i], "--persistent")) persistent = 1;
        else if (!strcmp(argv[i], "--temporal")) temporal = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[i]);
            usage(argv[0]);
            return 2;
        } else if (!out) out = argv[i];
        else { usage(argv[0]); return 2; }
    }
    if (n < 3 || n > 32768 || steps < 0 || !(r > 0 && r <= 0.25) || (persistent && temporal)) {
        fprintf(stderr, "%s: need 3 <= size <= 32768, steps >= 0, 0 < r <= 0.25, at most one of --persistent, --temporal\n",
                argv[0]);
        return 2;
    }
    size_t cells = (size_t)n * n;
    float *h = (float *)malloc(cells * 4), *d0 = NULL, *d1 = NULL;
    if (!h) { fprintf(stderr, "out of memory\n"); return 1; }
    initial(h, n);
    if (persistent) return heat2d_persistent(h, n, n, steps, (float)r);
    CK(cudaMalloc(&d0, cells * 4));
    CK(cudaMalloc(&d1, cells * 4));
    float c[5] = {(float)(1 - 4 * r), (float)r, (float)r, (float)r, (float)r}; /* centre, -x, +x, -y, +y */
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = d0; a.dst = d1; a.nx = n; a.ny = n; a.coef = c; a.ncoef = 5;
    a.boundary = SSAM_STENCIL_DIRICHLET;

    /* check: 5 steps on the GPU against the same 5 steps on the CPU (in double) */
    {
        int m = n < 256 ? n : 256, k = 5; /* the CPU runs a corner; the 5-step light cone stays inside */
        double *u = (double *)malloc((size_t)n * n * 8), *v = (double *)malloc((size_t)n * n * 8);
        for (size_t i = 0; i < cells; i++) u[i] = v[i] = h[i];
        for (int s = 0; s < k; s++) {
            for (int y = 1; y < n - 1 && y < m + 2 * k; y++)
                for (int x = 1; x < n - 1 && x < m + 2 * k; x++) {
                    size_t o = (size_t)y * n + x;
                    v[o] = (double)c[0] * u[o] + (double)c[1] * (u[o - 1] + u[o + 1] + u[o - n] + u[o + n]);
                }
            double *t = u; u = v; v = t;
        }
        ssam_stencil_args b = a;
        ssam_plan p;
        CK(cudaMemcpy(d0, h, cells * 4, cudaMemcpyHostToDevice));
        CK(cudaMemset(d1, 0xFF, cells * 4)); /* NaN: a cell never written fails the check */
        b.steps = k;
        int rc = heat_plan(&b, &p); /* one pass a step: k passes, the plate in d1 (k odd) */
        if (!rc) rc = heat_run(&b, &p, 0);
        if (rc) { fprintf(stderr, "heat: %s (%s)\n", ssam_stencil_strerror(rc), p.why); return 1; }
        float *g = (float *)malloc(cells * 4);
        CK(cudaMemcpy(g, p.result, cells * 4, cudaMemcpyDeviceToHost));
        double worst = 0;
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                const double d = fabs(g[(size_t)y * n + x] - u[(size_t)y * n + x]);
                if (!(d <= worst)) worst = d; /* a NaN stays the worst (fmax would drop it) */
            }
        printf("check: %d steps on a %dx%d corner (%d cells), max |gpu - cpu| = %.2e %s\n", k, m, m, m * m, worst,
               worst < 1e-5 ? "ok" : "FAIL");
        free(u); free(v); free(g);
        if (!(worst < 1e-5)) return 1;
    }

    /* the run, timed (and with --temporal, again through the planner, compared bit for bit) */
    float *h0 = (float *)malloc(cells * 4);
    if (!h0) { fprintf(stderr, "out of memory\n"); return 1; }
    memcpy(h0, h, cells * 4);
    float ms = run_timed(heat_steps, "heat", &a, h0, h, cells, steps);
    printf("heat2d: %dx%d plate, %d steps, r = %.3f: %.1f ms, %.1f GCells/s (ssam 2d5pt, one launch per step)\n", n, n,
           steps, r, ms, steps && ms > 0 ? (double)cells * steps / ms / 1e6 : 0.0);
    if (temporal) {
        ssam_plan p;
        float *g = (float *)malloc(cells * 4);
        ssam_stencil_args t = a;
        t.steps = steps;
        if (!g || heatt_plan(&t, &p)) { fprintf(stderr, "heatt_plan failed\n"); return 1; }
        run_timed(heatt_steps, "heatt", &a, h0, g, cells, steps < 16 ? steps : 16); /* warm-up, as heat's check */
        float mt = run_timed(heatt_steps, "heatt", &a, h0, g, cells, steps);
        size_t unwritten = 0; /* two plates of NaN (never written), or two starts left in place, are equal bit for bit */
        for (size_t i = 0; i < cells; i++) unwritten += !isfinite(g[i]);
        const int moved = steps == 0 || memcmp(h, h0, cells * 4) != 0;
        const int same = memcmp(g, h, cells * 4) == 0 && unwritten == 0 && moved;
        printf("heat2d: %s, %d steps per pass, %lld passes: %.1f ms, %.1f GCells/s, %.2fx one launch per step; "
               "plate %s\n", p.path == SSAM_PATH_TEMPORAL ? "temporal blocking" : "one pass per step", p.steps_per_pass, p.passes, mt,
               steps && mt > 0 ? (double)cells * steps / mt / 1e6 : 0.0, mt > 0 ? ms / mt : 0.0,
               same ? "bit for bit the same" : unwritten ? "NOT WRITTEN (NaN)" : !moved ? "NOT MOVED from the start" : "DIFFERS");
        printf("heat2d: the plan: %s\n", p.why);
        free(g);
        if (!same) return 1;
    }
    free(h0);
    double total = 0, mx = 0;
    for (size_t i = 0; i < cells; i++) { total += h[i]; mx = fmax(mx, h[i]); }
    printf("heat2d: mean temperature %.5f, max %.3f (the top edge holds 1)\n", total / cells, mx);
    if (out) {
        FILE *f = fopen(out, "wb");
        if (!f) { perror(out); return 1; }
        fprintf(f, "P5\n%d %d\n255\n", n, n);
        for (size_t i = 0; i < cells; i++) {
            double v = h[i] < 0 ? 0 : h[i] > 1 ? 1 : h[i];
            fputc((int)(sqrt(v) * 255 + 0.5), f); /* sqrt: the faint diffusion fronts show */
        }
        fclose(f);
        printf("wrote %s\n", out);
    }
    cudaFree(d0);
    cudaFree(d1);
    free(h);
    return 0;
}
