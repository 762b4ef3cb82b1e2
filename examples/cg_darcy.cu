/* examples/cg_darcy.cu -- a pressure solve of Darcy flow, -div(k grad p) = q, on an N^3 grid (p = 0
 * on the boundary), solved matrix-free with perks/cg_stencil.cuh's ONCHIP_OPERATOR_DIVK.
 *   cg_darcy [--n N] [--tol T] [--out PREFIX]
 * The permeability k is generated (no download): layers along z alternating sand (k = 1) and shale
 * (k = 1e-3) every N/8 planes, and a channel of gravel (k = 100) along x through the middle,
 * 1e5 between the extremes; faces harmonic (the flux-continuous rule).  q is an injector (+1) at
 * x = N/8 and a producer (-1) at x = 7N/8, both in the channel.  The example solves in mixed
 * precision (float iterations, double replacements) with Jacobi, prints the status, iterations,
 * time, µs an iteration beside its floor (48 bytes a cell an iteration over 4.27 TB/s), the true
 * residual the solver reports and the one computed here in double from k, q and p; writes the
 * mid-plane y = N/2 of log10 k and of p as PGM images (PREFIX_k.pgm; PREFIX_p.pgm, saturated at a
 * twentieth of max |p|).  Exit status 0 when the solve succeeded and the host's residual meets tol. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <perks/cg_stencil.cuh>

PERKS_CG_STENCIL3D_DEFINE(darcy, perks_cg_mixed, ONCHIP_SHAPE_STAR3D_R1, ONCHIP_OPERATOR_DIVK)

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                            \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* ||q - A p|| / ||q|| in double, A the operator of onchip/operator.h (weights -laplace, h = 1) */
static double host_resid(int n, const double *k, const double *q, const double *p)
{
    const long long pl = (long long)n * n, N = pl * n;
    double rr = 0, qq = 0;
    for (long long i = 0; i < N; i++) {
        const int x = (int)(i % n), y = (int)(i / n % n), z = (int)(i / pl);
        const int c[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z}, {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
        double s = 0;
        for (int m = 0; m < 6; m++) {
            const int out = c[m][0] < 0 || c[m][0] >= n || c[m][1] < 0 || c[m][1] >= n || c[m][2] < 0 || c[m][2] >= n;
            const long long j = out ? i : c[m][0] + n * (c[m][1] + (long long)n * c[m][2]);
            s += onchip_face_k(ONCHIP_FACE_HARMONIC, k[i], k[j]) * (p[i] - (out ? 0 : p[j]));
        }
        rr += (q[i] - s) * (q[i] - s), qq += q[i] * q[i];
    }
    return sqrt(rr / qq);
}

/* a w x h slice as a PGM, v mapped linearly from [lo, hi] to 0..255 */
static int write_pgm(const char *path, const double *v, int w, int h, double lo, double hi)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    fprintf(f, "P5\n%d %d\n255\n", w, h);
    for (int i = 0; i < w * h; i++) {
        const double t = hi > lo ? (v[i] - lo) / (hi - lo) : 0.5;
        fputc((int)(255 * (t < 0 ? 0 : t > 1 ? 1 : t)), f);
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    int n = 128;
    double tol = 1e-8;
    const char *out = "darcy";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc) tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else return fprintf(stderr, "usage: %s [--n N] [--tol T] [--out PREFIX]\n", argv[0]), 2;
    }
    if (n < 8 || n > 1000) return fprintf(stderr, "cg_darcy: --n from 8 to 1000\n"), 2;
    const long long N = (long long)n * n * n;
    double *k = (double *)malloc(sizeof(double) * N), *q = (double *)calloc(N, sizeof(double)),
           *p = (double *)malloc(sizeof(double) * N);
    if (!k || !q || !p) return fprintf(stderr, "cg_darcy: out of host memory\n"), 2;
    const int layer = n / 8 > 0 ? n / 8 : 1, ch0 = n / 2 - n / 16, ch1 = n / 2 + n / 16;
    for (long long i = 0; i < N; i++) {
        const int y = (int)(i / n % n), z = (int)(i / ((long long)n * n));
        const int channel = y >= ch0 && y <= ch1 && z >= ch0 && z <= ch1;
        k[i] = channel ? 100.0 : (z / layer) % 2 ? 1e-3 : 1.0;
    }
    const long long mid = (long long)n * (n / 2 + (long long)n * (n / 2));
    q[mid + n / 8] = 1, q[mid + 7 * n / 8] = -1;
    double *dk, *dq, *dp;
    CHECK_CUDA(cudaMalloc(&dk, sizeof(double) * N));
    CHECK_CUDA(cudaMalloc(&dq, sizeof(double) * N));
    CHECK_CUDA(cudaMalloc(&dp, sizeof(double) * N));
    CHECK_CUDA(cudaMemcpy(dk, k, sizeof(double) * N, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dq, q, sizeof(double) * N, cudaMemcpyHostToDevice));

    const double w[7] = {6, -1, -1, -1, -1, -1, -1}; /* -div(k grad p), h = 1 */
    perks_cg_result res;
    perks_cgs_args a = {};
    a.nx = a.ny = a.nz = n, a.w = w, a.b = dq, a.x = dp, a.result = &res;
    a.opts = perks_cg_defaults();
    a.opts.tol = tol, a.opts.jacobi = 1, a.opts.max_iter = 100000;
    a.k = dk, a.face = ONCHIP_FACE_HARMONIC;
    perks_cgs_plan plan;
    double t0 = now_ms();
    int rc = darcy_plan(&a, &plan);
    const double tplan = now_ms() - t0;
    if (rc) return fprintf(stderr, "cg_darcy: plan refused: %s (%s)\n", perks_strerror(rc), plan.why), 1;
    t0 = now_ms();
    rc = darcy_run(&a, &plan, 0);
    const double tsolve = now_ms() - t0;
    perks_cgs_plan_free(&plan);
    CHECK_CUDA(cudaMemcpy(p, dp, sizeof(double) * N, cudaMemcpyDeviceToHost));
    const double hr = host_resid(n, k, q, p), us = res.iterations ? 1e3 * tsolve / res.iterations : 0;
    printf("cg_darcy %d^3: k from 1e-3 to 100 (harmonic faces), mixed precision, Jacobi\n", n);
    printf("  %s after %d iterations (%d replacements), plan %.2f ms, solve %.1f ms, %.1f us an iteration (floor %.1f)\n",
           rc ? perks_strerror(rc) : "converged", res.iterations, res.replacements, tplan, tsolve, us,
           1e6 * 48.0 * N / 4.27e12);
    printf("  true residual %.3e (reported), %.3e (here, in double), tol %.0e\n", res.true_residual, hr, tol);
    /* the mid-plane y = n/2: log10 k and p */
    double *sk = (double *)malloc(sizeof(double) * n * n), *sp = (double *)malloc(sizeof(double) * n * n), pmax = 0;
    for (int z = 0; z < n; z++)
        for (int x = 0; x < n; x++) {
            const long long i = x + (long long)n * (n / 2 + (long long)n * z);
            sk[(n - 1 - z) * n + x] = log10(k[i]), sp[(n - 1 - z) * n + x] = p[i];
            if (fabs(p[i]) > pmax) pmax = fabs(p[i]);
        }
    char path[512];
    int werr = 0;
    snprintf(path, sizeof path, "%s_k.pgm", out);
    werr |= write_pgm(path, sk, n, n, -3, 2);
    snprintf(path, sizeof path, "%s_p.pgm", out);
    werr |= write_pgm(path, sp, n, n, -pmax / 20, pmax / 20); /* the wells saturate; the flow shows */
    if (werr) fprintf(stderr, "cg_darcy: cannot write the images under %s\n", out);
    else printf("  wrote %s_k.pgm (log10 k) and %s_p.pgm (p, gray 128 at 0, saturated at 1/20 of max |p|), the plane y = %d\n",
                out, out, n / 2);
    cudaFree(dk), cudaFree(dq), cudaFree(dp);
    free(k), free(q), free(p), free(sk), free(sp);
    return rc == PERKS_SUCCESS && hr <= tol && !werr ? 0 : 1;
}
