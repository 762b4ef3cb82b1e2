/* examples/conv_tc.cu -- a large filter on tensor cores: a 15x15 Gaussian blur in double precision
 * (FP64 DMMA) and a 20x20 box blur in float (three TF32 passes, FP32-like accuracy), each beside
 * ssam's SIMT kernel of conv.cuh on the same image.
 *
 *   conv_tc [in.pgm]          (default: a generated 8192 x 8192 pattern)
 *
 * Prints the time of each path, the path the tensor-core launcher took and why (its plan's path:
 * SSAM_PATH_TC on sm_80+, SSAM_PATH_SIMT below), and the largest difference between the two results
 * relative to the image's range.  Exits 1 if they disagree beyond the mode's bound. */
#include <ssam/conv_tc.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SSAM_CONV2D_DEFINE(blur15_simt, double, 15, 15, ssam_conv_policy<1, 128>) /* the SIMT kernel, for comparison */
SSAM_CONV2D_TC_DEFINE(blur15_tc, f64, 15, 15, ssam_conv_tc_policy<>)      /* FP64 tensor cores */
SSAM_CONV2D_DEFINE(box20_simt, float, 20, 20, ssam_conv_policy<1, 128>)
SSAM_CONV2D_TC_DEFINE(box20_tc, tf32x3, 20, 20, ssam_conv_tc_policy<>) /* float on TF32 tensor cores, three passes */

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

typedef int (*launch_fn)(const ssam_conv2d_args *, cudaStream_t);

/* best of 5 after one warm-up, in ms */
static float timed(launch_fn f, const ssam_conv2d_args *a)
{
    cudaEvent_t e0, e1;
    float best = 1e30f, ms;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int it = 0; it < 6; it++) {
        CK(cudaEventRecord(e0));
        int rc = f(a, 0);
        CK(cudaEventRecord(e1));
        if (rc) { fprintf(stderr, "launch: %s\n", ssam_strerror(rc)); exit(1); }
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (it && ms < best) best = ms;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return best;
}

/* read a binary PGM (P5, 8-bit, no comments); NULL if it is not one */
static double *read_pgm(const char *path, int *W, int *H)
{
    FILE *f = fopen(path, "rb");
    int maxv;
    if (!f) return NULL;
    if (fscanf(f, "P5 %d %d %d", W, H, &maxv) != 3 || maxv != 255 || *W <= 0 || *H <= 0) { fclose(f); return NULL; }
    fgetc(f);
    size_t n = (size_t)*W * *H;
    unsigned char *b = (unsigned char *)malloc(n);
    double *img = (double *)malloc(n * 8);
    if (fread(b, 1, n, f) != n) { fclose(f); free(b); free(img); return NULL; }
    for (size_t i = 0; i < n; i++) img[i] = b[i];
    fclose(f);
    free(b);
    return img;
}

int main(int argc, char **argv)
{
    int W = 8192, H = 8192;
    double *img = argc > 1 ? read_pgm(argv[1], &W, &H) : NULL;
    if (argc > 1 && !img) { fprintf(stderr, "cannot read %s (binary PGM P5, 8-bit)\n", argv[1]); return 1; }
    if (!img) {
        img = (double *)malloc((size_t)W * H * 8);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                img[(size_t)y * W + x] = 128 + 100 * sin(hypot(x - W / 2.0, y - H / 2.0) / 9.0) + (x * 7919u + y * 104729u) % 41;
    }
    const size_t n = (size_t)W * H;
    double g[225], gs = 0;
    float box[400];
    for (int i = 0; i < 225; i++) gs += (g[i] = exp(-((i % 15 - 7) * (i % 15 - 7) + (i / 15 - 7) * (i / 15 - 7)) / 18.0));
    for (int i = 0; i < 225; i++) g[i] /= gs;
    for (int i = 0; i < 400; i++) box[i] = 1.0f / 400;
    float *imgf = (float *)malloc(n * 4), *outf = (float *)malloc(2 * n * 4);
    double *out = (double *)malloc(2 * n * 8);
    for (size_t i = 0; i < n; i++) imgf[i] = (float)img[i];
    void *d_in, *d_out[2];
    CK(cudaMalloc(&d_in, n * 8));
    CK(cudaMalloc(&d_out[0], n * 8));
    CK(cudaMalloc(&d_out[1], n * 8));

    ssam_conv2d_args a;
    memset(&a, 0, sizeof a);
    a.src = d_in; a.width = W; a.height = H; a.border = SSAM_BORDER_REFLECT;
    int bad = 0;
    for (int pass = 0; pass < 2; pass++) { /* 0: double 15x15, 1: float 20x20 */
        const int dbl = pass == 0;
        CK(cudaMemcpy(d_in, dbl ? (void *)img : (void *)imgf, n * (dbl ? 8 : 4), cudaMemcpyHostToDevice));
        a.weights = dbl ? (const void *)g : (const void *)box;
        a.fw = a.fh = dbl ? 15 : 20;
        float ms[2];
        for (int k = 0; k < 2; k++) {
            a.dst = d_out[k];
            CK(cudaMemset(d_out[k], 0xFF, n * 8)); /* NaN: an output neither path writes cannot agree */
            ms[k] = timed(dbl ? (k ? blur15_tc_launch : blur15_simt_launch) : (k ? box20_tc_launch : box20_simt_launch), &a);
            CK(cudaMemcpy(dbl ? (void *)(out + k * n) : (void *)(outf + k * n), d_out[k], n * (dbl ? 8 : 4),
                          cudaMemcpyDeviceToHost));
        }
        double diff = 0;
        for (size_t i = 0; i < n; i++) {
            double d = dbl ? fabs(out[i] - out[n + i]) : fabs((double)outf[i] - outf[n + i]);
            if (!(d <= diff)) diff = d; /* NaN counts */
        }
        diff /= 255; /* relative to the image's range */
        const double bound = dbl ? 1e-13 : 1e-5;
        ssam_plan plan; /* what the tensor-core launcher did: its plan for the same arguments */
        const int prc = dbl ? blur15_tc_plan(&a, &plan) : box20_tc_plan(&a, &plan);
        printf("conv_tc: %s %dx%d on %dx%d: simt %.3f ms, tensor cores %.3f ms (%.2fx, path %s); max |tc - simt| / 255 = %.1e %s\n"
               "  (%s)\n", dbl ? "double gauss" : "float box", a.fw, a.fh, W, H, ms[0], ms[1], ms[0] / ms[1],
               prc ? "refused" : plan.path == SSAM_PATH_TC ? "tensor cores" : "SIMT fallback", diff,
               diff <= bound ? "(ok)" : "(TOO LARGE)", plan.why);
        bad |= !(diff <= bound);
    }
    cudaFree(d_in); cudaFree(d_out[0]); cudaFree(d_out[1]);
    free(img); free(imgf); free(out); free(outf);
    return bad;
}
