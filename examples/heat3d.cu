/* examples/heat3d.cu -- the 3D heat equation u_t = alpha (u_xx + u_yy + u_zz) with ssam's 7-point
 * stencil, explicit Euler in time:
 *     u'(x, y, z) = (1 - 6r) u + r (the six neighbours),  r = alpha dt / h^2   (stable for r <= 1/6)
 * in a cube whose faces are Dirichlet (the top face z = nz - 1 held at 1, the others at 0), starting
 * at 0 with a hot block inside.  The same steps run twice: one launch per step (SSAM_STENCIL3D_DEFINE)
 * and through ssam/temporal3d.cuh's generator with SSAM_SCHEDULE_AUTO, whose planner fuses TT steps
 * per pass through memory (the time levels in shared-memory planes) and says why; the two cubes must
 * agree bit for bit, and the first steps are checked against a CPU reference in double on a small
 * cube.
 *
 *   heat3d [--size N] [--steps S] [--r R]
 *
 * With no arguments: a 512^3 cube, 200 steps, r = 0.16.  On a smaller cube (256^3) the planner picks
 * one pass per step: its 120-column strips would store only 71% of the columns they compute. */
#include <ssam/stencil.cuh>
#include <ssam/temporal3d.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SSAM_STENCIL3D_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT, ssam_stencil_policy<4>)
/* heat3t_steps: temporal blocking (heat3t_tb_*, the z-column kernel by SSAM_TB3_ZCOL_RULE) or one pass
 * per step */
SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3t, float, ONCHIP_SHAPE_3D7PT, ssam_temporal_policy<>)

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

typedef int (*advance_fn)(const ssam_stencil_args *, int, void **, cudaStream_t);
/* `steps` steps of heat3, one launch each: the plan (a copy of a with those steps), its run, *res
 * the plan's result */
static int heat3_steps(const ssam_stencil_args *a, int steps, void **res, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    int rc = heat3_plan(&b, &p);
    if (!rc) rc = heat3_run(&b, &p, stream);
    *res = p.result;
    return rc;
}
/* the same with heat3t, the planner's path (temporal blocking or one pass per step) */
static int heat3t_steps(const ssam_stencil_args *a, int steps, void **res, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    int rc = heat3t_plan(&b, &p);
    if (!rc) rc = heat3t_run(&b, &p, stream);
    *res = p.result;
    return rc;
}

/* the start: 0, the top face 1, a hot block in the middle */
static void start(float *h, int n)
{
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                const int mid = x > n / 3 && x < n / 2 && y > n / 3 && y < 2 * n / 3 && z > n / 4 && z < n / 2;
                h[((size_t)z * n + y) * n + x] = z == n - 1 ? 1.0f : mid ? 0.8f : 0.0f;
            }
}

/* steps with fn from h, timed; the cube copied back into out; ms, or -1 on an error */
static float run(advance_fn fn, ssam_stencil_args *a, const float *h, float *out, size_t cells, int steps)
{
    cudaEvent_t t0, t1;
    void *res = NULL;
    float ms = 0;
    CK(cudaMemcpy((void *)a->src, h, cells * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(a->dst, 0xFF, cells * 4)); /* NaN: the other path's cube left in dst cannot stand in for this one's */
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventRecord(t0));
    const int rc = fn(a, steps, &res, 0);
    CK(cudaEventRecord(t1));
    CK(cudaEventSynchronize(t1));
    CK(cudaEventElapsedTime(&ms, t0, t1));
    if (rc) {
        fprintf(stderr, "advance: %s\n", ssam_stencil_strerror(rc));
        return -1;
    }
    CK(cudaMemcpy(out, res, cells * 4, cudaMemcpyDeviceToHost));
    return ms;
}

/* a CPU step in double (Dirichlet faces keep their values) */
static void cpu_step(const double *u, double *v, int n, double r)
{
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                const size_t o = ((size_t)z * n + y) * n + x;
                if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) { v[o] = u[o]; continue; }
                v[o] = (1 - 6 * r) * u[o] + r * (u[o - 1] + u[o + 1] + u[o - n] + u[o + n] + u[o - (size_t)n * n] +
                                                u[o + (size_t)n * n]);
            }
}

int main(int argc, char **argv)
{
    int n = 512, steps = 200;
    double r = 0.16;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--r") && i + 1 < argc) r = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--size N] [--steps S] [--r R]\n", argv[0]);
            return 2;
        }
    }
    if (n < 3 || n > 1024 || steps < 0 || !(r > 0 && r <= 1.0 / 6)) {
        fprintf(stderr, "%s: need 3 <= size <= 1024, steps >= 0, 0 < r <= 1/6\n", argv[0]);
        return 2;
    }
    const float c[7] = {(float)(1 - 6 * r), (float)r, (float)r, (float)r, (float)r, (float)r, (float)r};
    int bad = 0;
    /* 1. the first steps of a 24^3 cube against the CPU in double, both paths */
    {
        const int m = 24, k = 7;
        const size_t cells = (size_t)m * m * m;
        float *h = (float *)malloc(cells * 4), *g1 = (float *)malloc(cells * 4), *g2 = (float *)malloc(cells * 4);
        double *u = (double *)malloc(cells * 8), *v = (double *)malloc(cells * 8), err = 0;
        void *d[2];
        start(h, m);
        for (size_t i = 0; i < cells; i++) u[i] = h[i];
        for (int s = 0; s < k; s++) {
            double *t;
            cpu_step(u, v, m, c[1]);
            t = u, u = v, v = t;
        }
        for (int i = 0; i < 2; i++) CK(cudaMalloc(&d[i], cells * 4));
        ssam_stencil_args a;
        memset(&a, 0, sizeof a);
        a.src = d[0], a.dst = d[1], a.nx = a.ny = a.nz = m, a.coef = c, a.ncoef = 7, a.boundary = SSAM_STENCIL_DIRICHLET;
        if (run(heat3_steps, &a, h, g1, cells, k) < 0 || run(heat3t_steps, &a, h, g2, cells, k) < 0) return 1;
        for (size_t i = 0; i < cells; i++) {
            const double e1 = fabs(g1[i] - u[i]), e2 = fabs(g2[i] - u[i]);
            if (!(e1 <= err)) err = e1; /* a NaN stays the worst (fmax would drop it) */
            if (!(e2 <= err)) err = e2;
        }
        printf("check: %d steps of a %d^3 cube (%zu cells), both paths against the CPU in double: max error %.2e %s\n", k,
               m, cells, err, err < 1e-5 ? "(ok)" : "(TOO LARGE)");
        bad |= !(err < 1e-5);
        free(h), free(g1), free(g2), free(u), free(v);
        cudaFree(d[0]), cudaFree(d[1]);
    }
    /* 2. the run: one launch per step, then the planner's path, compared bit for bit */
    const size_t cells = (size_t)n * n * n;
    float *h = (float *)malloc(cells * 4), *g1 = (float *)malloc(cells * 4), *g2 = (float *)malloc(cells * 4);
    void *d[2];
    if (!h || !g1 || !g2) return 1;
    start(h, n);
    for (int i = 0; i < 2; i++) CK(cudaMalloc(&d[i], cells * 4));
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = d[0], a.dst = d[1], a.nx = a.ny = a.nz = n, a.coef = c, a.ncoef = 7, a.boundary = SSAM_STENCIL_DIRICHLET;
    ssam_plan p;
    a.steps = steps;
    if (heat3t_plan(&a, &p)) return 1;
    (void)run(heat3_steps, &a, h, g1, cells, steps < 2 ? steps : 2); /* warm-up */
    const float m1 = run(heat3_steps, &a, h, g1, cells, steps), m2 = run(heat3t_steps, &a, h, g2, cells, steps);
    if (m1 < 0 || m2 < 0) return 1;
    size_t unwritten = 0; /* two cubes of NaN (never written), or two starts left in place, are equal bit for bit */
    for (size_t i = 0; i < cells; i++) unwritten += !isfinite(g1[i]);
    const int moved = steps == 0 || memcmp(g1, h, cells * 4) != 0;
    const int same = memcmp(g1, g2, cells * 4) == 0 && unwritten == 0 && moved;
    double heat = 0;
    for (size_t i = 0; i < cells; i++) heat += g2[i];
    printf("%d^3, %d steps, r %.3f: one launch per step %.2f ms (%.1f GCells/s); planned path: %s, TT %d, %lld passes, "
           "%.2f ms (%.1f GCells/s, %.2fx); cube %s\n", n, steps, r, m1, (double)cells * steps / m1 / 1e6,
           p.path == SSAM_PATH_TEMPORAL ? "temporal blocking" : "one pass per step", p.steps_per_pass, p.passes, m2,
           (double)cells * steps / m2 / 1e6, m1 / m2, same ? "bit-identical" : unwritten ? "NOT WRITTEN (NaN)" : !moved ? "NOT MOVED from the start" : "DIFFERS");
    printf("why: %s\nmean temperature %.6f\n", p.why, heat / (double)cells);
    bad |= !same;
    free(h), free(g1), free(g2);
    cudaFree(d[0]), cudaFree(d[1]);
    return bad;
}
