/* examples/box3d_tc.cu -- a 125-point 3D box stencil (radius 2, every weight its own) on tensor cores:
 * 20 steps of a smoothing filter on a 256^3 cube in double precision, on the FP64 tensor cores
 * (ssam/stencil_tc.cuh) and on ssam's SIMT kernel of stencil.cuh, from the same start.
 *
 *   box3d_tc [n]          (default 256: an n^3 cube, Dirichlet boundary)
 *
 * Prints the time of each path and the path the tensor-core stencil's plan names (SSAM_PATH_TC on
 * sm_80+, SSAM_PATH_SIMT below) and why, then the largest difference of the two cubes after 20 steps relative to
 * the field's range, and the first step against a CPU reference at a few thousand cells.  Exits 1 if
 * either exceeds 1e-12. */
#include <ssam/stencil_tc.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SSAM_STENCIL3D_DEFINE(box_simt, double, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_policy<1>) /* the SIMT kernel, for comparison */
SSAM_STENCIL3D_TC_DEFINE(box_tc, f64, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<>)  /* FP64 tensor cores */

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

typedef int (*plan_fn)(const ssam_stencil_args *, ssam_plan *);
typedef int (*run_fn)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t);

/* the coefficients in the shape's point order (X(I, DX, DY, DZ)): a smoothing kernel whose weight
 * falls with distance, normalised to sum 1 */
#define W_PT(I, DX, DY, DZ) c[I] = exp(-0.25 * ((DX) * (DX) + (DY) * (DY) + (DZ) * (DZ)));
#define P_PT(I, DX, DY, DZ) {DX, DY, DZ},

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 256, steps = 20;
    if (n < 8 || n > 1024) { fprintf(stderr, "usage: box3d_tc [n: 8..1024]\n"); return 2; }
    const size_t cells = (size_t)n * n * n;
    double c[125], sum = 0;
    static const int pts[125][3] = {ONCHIP_SHAPE_BOX3D_R2(P_PT)};
    ONCHIP_SHAPE_BOX3D_R2(W_PT)
    for (int i = 0; i < 125; i++) sum += c[i];
    for (int i = 0; i < 125; i++) c[i] /= sum;
    double *h0 = (double *)malloc(cells * 8), *h[2] = {(double *)malloc(cells * 8), (double *)malloc(cells * 8)};
    for (size_t i = 0; i < cells; i++) { /* a smooth field plus a little noise */
        const int x = (int)(i % n), y = (int)(i / n % n), z = (int)(i / ((size_t)n * n));
        h0[i] = sin(0.05 * x) * cos(0.07 * y) + 0.5 * sin(0.03 * z) + 0.01 * ((i * 2654435761u) % 1000) / 1000.0;
    }
    void *d[4];
    for (int k = 0; k < 4; k++) CK(cudaMalloc(&d[k], cells * 8));
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.nx = a.ny = a.nz = n;
    a.coef = c; a.ncoef = 125; a.boundary = SSAM_STENCIL_DIRICHLET;
    const plan_fn plan[2] = {box_simt_plan, box_tc_plan};
    const run_fn run[2] = {box_simt_run, box_tc_run};
    const char *name[2] = {"SIMT (stencil.cuh)", "FP64 tensor cores (stencil_tc.cuh)"};
    ssam_plan p;
    a.steps = steps;
    for (int k = 0; k < 2; k++) {
        cudaEvent_t e0, e1;
        float ms;
        CK(cudaMemcpy(d[2 * k], h0, cells * 8, cudaMemcpyHostToDevice));
        a.src = d[2 * k]; a.dst = d[2 * k + 1];
        int rc = plan[k](&a, &p); /* the checks, the path; then `steps` launches, ping-pong */
        if (rc) { fprintf(stderr, "%s: %s (%s)\n", name[k], ssam_stencil_strerror(rc), p.why); return 1; }
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        CK(cudaEventRecord(e0));
        rc = run[k](&a, &p, 0);
        CK(cudaEventRecord(e1));
        if (rc) { fprintf(stderr, "%s: %s\n", name[k], ssam_stencil_strerror(rc)); return 1; }
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaMemcpy(h[k], p.result, cells * 8, cudaMemcpyDeviceToHost));
        printf("box3d_tc: %d^3, %d steps of the 125-point box, %-36s %8.2f ms (%.1f GCells/s)\n", n, steps, name[k], ms,
               (double)cells * steps / (ms * 1e-3) * 1e-9);
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
    }
    printf("box3d_tc: the tensor-core stencil's plan took the %s path: %s\n", p.path == SSAM_PATH_TC ? "tensor-core" : "SIMT",
           p.why);
    double diff = 0, lo = h0[0], hi = h0[0];
    for (size_t i = 0; i < cells; i++) {
        const double e = fabs(h[0][i] - h[1][i]);
        if (!(e <= diff)) diff = e; /* NaN counts */
        lo = h0[i] < lo ? h0[i] : lo, hi = h0[i] > hi ? h0[i] : hi;
    }
    diff /= hi - lo;
    /* one step on the tensor cores against a CPU reference at cells of a few planes */
    CK(cudaMemcpy(d[0], h0, cells * 8, cudaMemcpyHostToDevice));
    a.src = d[0]; a.dst = d[1]; a.steps = 1;
    if (box_tc_launch(&a, 0)) return 1; /* one step: the state in dst */
    CK(cudaMemcpy(h[1], d[1], cells * 8, cudaMemcpyDeviceToHost));
    double ref_err = 0;
    for (int z = 0; z < n; z += n / 4 + 1)
        for (int y = 0; y < n; y += 3)
            for (int x = 0; x < n; x += 7) {
                const size_t o = ((size_t)z * n + y) * n + x;
                double s = h0[o];
                if (x >= 2 && x < n - 2 && y >= 2 && y < n - 2 && z >= 2 && z < n - 2) {
                    s = 0;
                    for (int i = 0; i < 125; i++)
                        s += c[i] * h0[((size_t)(z + pts[i][2]) * n + y + pts[i][1]) * n + x + pts[i][0]];
                }
                const double e = fabs(h[1][o] - s) / (hi - lo);
                if (!(e <= ref_err)) ref_err = e;
            }
    printf("box3d_tc: after %d steps max |tc - simt| = %.2e of the range; step 1 against the CPU: %.2e: %s\n", steps,
           diff, ref_err, diff < 1e-12 && ref_err < 1e-12 ? "ok" : "DIFFER");
    for (int k = 0; k < 4; k++) cudaFree(d[k]);
    free(h0), free(h[0]), free(h[1]);
    return diff < 1e-12 && ref_err < 1e-12 ? 0 : 1;
}
