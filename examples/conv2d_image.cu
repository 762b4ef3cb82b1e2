/* examples/conv2d_image.cu -- filter a grayscale image with ssam's 2D convolution.
 *
 *   conv2d_image [-f box|gauss|sobel|sharpen|FILE] [-b constant|nearest|reflect|mirror|wrap] [--half]
 *                [in.pgm|in.pfm [out.pgm|out.pfm]]
 *
 * Reads a binary PGM (P5, 8-bit, no comment lines) or PFM (Pf, grayscale float) image -- e.g.
 * ../shared/data/img/camera.pgm -- or, with no input, generates a 4096 x 4096 test pattern.  The
 * filters are 5x5: box (mean), gauss (sigma 1), sobel (horizontal gradient, zero-padded to 5x5),
 * sharpen; FILE is a text file of 25 numbers, 5 rows of 5 (correlation: row 0 is the top row).
 * Writes the result as PGM (clamped to 0..255; sobel shifted by 128) or PFM (by the extension),
 * and prints what it did, how fast, and which walk conv.cuh took and why (filter5_plan: the queued
 * walk for small filters, else the systolic one; planned once, run six times).  One SSAM_CONV2D_DEFINE instantiation serves every
 * filter: the weights are arguments, only the 5x5 shape is compiled in.  --half keeps the image on
 * the device as __half (SSAM_CONV2D_DEFINE with T __half: 2 bytes a pixel, FP32 sums, each output
 * rounded once): half the bytes of float; 0..255 pixels are exact in half, the outputs carry its 11-bit
 * significand. */
#include <ssam/conv.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SSAM_CONV2D_DEFINE(filter5, float, 5, 5, ssam_conv_policy<8, 128>)
SSAM_CONV2D_DEFINE(filter5h, __half, 5, 5, ssam_conv_policy<2, 128>)

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

static int ends_with(const char *s, const char *t)
{
    size_t a = strlen(s), b = strlen(t);
    return a >= b && strcmp(s + a - b, t) == 0;
}

/* PGM (P5, maxval 255) or PFM (Pf, 1 channel; negative scale = little endian) into floats */
static float *read_image(const char *path, int *W, int *H)
{
    FILE *f = fopen(path, "rb");
    char magic[3] = {0};
    float *img = NULL;
    if (!f) return NULL;
    if (fscanf(f, "%2s", magic) != 1) goto done;
    if (!strcmp(magic, "P5")) {
        int maxv;
        if (fscanf(f, "%d %d %d", W, H, &maxv) != 3 || maxv != 255 || *W <= 0 || *H <= 0 || fgetc(f) == EOF) goto done;
        size_t n = (size_t)*W * *H;
        unsigned char *px = (unsigned char *)malloc(n);
        img = (float *)malloc(n * 4);
        if (!px || !img || fread(px, 1, n, f) != n) { free(px); free(img); img = NULL; goto done; }
        for (size_t i = 0; i < n; i++) img[i] = px[i];
        free(px);
    } else if (!strcmp(magic, "Pf")) {
        double scale;
        if (fscanf(f, "%d %d %lf", W, H, &scale) != 3 || *W <= 0 || *H <= 0 || scale >= 0 || fgetc(f) == EOF) goto done;
        size_t n = (size_t)*W * *H;
        img = (float *)malloc(n * 4);
        if (!img) goto done;
        for (int y = *H - 1; y >= 0; y--) /* PFM stores the bottom row first */
            if (fread(img + (size_t)y * *W, 4, (size_t)*W, f) != (size_t)*W) { free(img); img = NULL; goto done; }
    }
done:
    fclose(f);
    return img;
}

static int write_image(const char *path, const float *img, int W, int H, float offset)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    if (ends_with(path, ".pfm")) {
        fprintf(f, "Pf\n%d %d\n-1.0\n", W, H);
        for (int y = H - 1; y >= 0; y--) fwrite(img + (size_t)y * W, 4, (size_t)W, f);
    } else {
        fprintf(f, "P5\n%d %d\n255\n", W, H);
        for (size_t i = 0; i < (size_t)W * H; i++) {
            float v = img[i] + offset;
            fputc(v < 0 ? 0 : v > 255 ? 255 : (int)(v + 0.5f), f);
        }
    }
    return fclose(f);
}

static int make_filter(const char *name, float w[25], float *offset)
{
    *offset = 0;
    if (!strcmp(name, "box")) {
        for (int i = 0; i < 25; i++) w[i] = 1.0f / 25;
    } else if (!strcmp(name, "gauss")) {
        double s = 0, g[25];
        for (int i = 0; i < 25; i++) s += g[i] = exp(-((i % 5 - 2) * (i % 5 - 2) + (i / 5 - 2) * (i / 5 - 2)) / 2.0);
        for (int i = 0; i < 25; i++) w[i] = (float)(g[i] / s);
    } else if (!strcmp(name, "sobel")) {
        static const float k[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
        memset(w, 0, 25 * sizeof *w);
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 3; x++) w[(y + 1) * 5 + x + 1] = k[y][x];
        *offset = 128;
    } else if (!strcmp(name, "sharpen")) {
        memset(w, 0, 25 * sizeof *w);
        w[12] = 5; w[7] = w[11] = w[13] = w[17] = -1;
    } else { /* a file of 25 numbers */
        FILE *f = fopen(name, "r");
        if (!f) return -1;
        for (int i = 0; i < 25; i++)
            if (fscanf(f, "%f", &w[i]) != 1) { fclose(f); return -1; }
        fclose(f);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *fname = "gauss", *in = NULL, *out = NULL;
    int border = SSAM_BORDER_REFLECT, half = 0;
    static const char *bnames[] = {"constant", "nearest", "reflect", "mirror", "wrap"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-f") && i + 1 < argc) fname = argv[++i];
        else if (!strcmp(argv[i], "--half")) half = 1;
        else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
            border = -1;
            for (int b = 0; b < 5; b++) if (!strcmp(argv[i + 1], bnames[b])) border = b;
            if (border < 0) { fprintf(stderr, "unknown border %s\n", argv[i + 1]); return 2; }
            i++;
        } else if (!in) in = argv[i];
        else if (!out) out = argv[i];
        else { fprintf(stderr, "usage: %s [-f box|gauss|sobel|sharpen|FILE] [-b border] [--half] [in [out]]\n", argv[0]); return 2; }
    }
    float w[25], offset;
    if (make_filter(fname, w, &offset)) { fprintf(stderr, "cannot read 25 weights from %s\n", fname); return 1; }
    int W = 4096, H = 4096;
    float *img = in ? read_image(in, &W, &H) : NULL;
    if (in && !img) { fprintf(stderr, "cannot read %s (binary PGM P5 8-bit or PFM Pf)\n", in); return 1; }
    if (!img) { /* rings and noise */
        img = (float *)malloc((size_t)W * H * 4);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double r = hypot(x - W / 2.0, y - H / 2.0);
                img[(size_t)y * W + x] = (float)(128 + 100 * sin(r / 9.0) + ((x * 7919u + y * 104729u) % 41) - 20);
            }
    }
    size_t n = (size_t)W * H, es = half ? 2 : 4;
    void *d_in, *d_out, *staged = malloc(n * es);
    if (half) /* the reference below sees what the GPU sees: the pixels rounded to half */
        for (size_t i = 0; i < n; i++) {
            ((__half *)staged)[i] = __float2half(img[i]);
            img[i] = __half2float(((__half *)staged)[i]);
        }
    else
        memcpy(staged, img, n * 4);
    CK(cudaMalloc(&d_in, n * es));
    CK(cudaMalloc(&d_out, n * es));
    CK(cudaMemcpy(d_in, staged, n * es, cudaMemcpyHostToDevice));
    ssam_conv2d_args a;
    memset(&a, 0, sizeof a);
    a.src = d_in; a.dst = d_out; a.width = W; a.height = H;
    a.weights = w; a.fw = 5; a.fh = 5; a.border = border;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float best = 1e30f;
    ssam_plan plan; /* the checks and the walk, once: every run below launches what it says */
    int rc = half ? filter5h_plan(&a, &plan) : filter5_plan(&a, &plan);
    if (rc) { fprintf(stderr, "%s: %s\n", ssam_strerror(rc), plan.why); return 1; }
    for (int it = 0; it < 6; it++) { /* first run warms up; best of the other five */
        CK(cudaEventRecord(e0));
        rc = half ? filter5h_run(&a, &plan, 0) : filter5_run(&a, &plan, 0);
        CK(cudaEventRecord(e1));
        if (rc) { fprintf(stderr, "%s\n", ssam_strerror(rc)); return 1; }
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (it && ms < best) best = ms;
    }
    CK(cudaGetLastError());
    float *res = (float *)malloc(n * 4);
    CK(cudaMemcpy(staged, plan.result, n * es, cudaMemcpyDeviceToHost)); /* the answer: d_out */
    for (size_t i = 0; i < n; i++) res[i] = half ? __half2float(((__half *)staged)[i]) : ((float *)staged)[i];
    /* spot check: the centre pixel against the definition */
    double ref = 0;
    int cx = W / 2, cy = H / 2;
    for (int n5 = 0; n5 < 5; n5++)
        for (int m5 = 0; m5 < 5; m5++) {
            int x = ssam_border_index(cx + m5 - 2, W, border), y = ssam_border_index(cy + n5 - 2, H, border);
            ref += w[n5 * 5 + m5] * (double)(x < 0 || y < 0 ? 0.0f : img[(size_t)y * W + x]);
        }
    /* the bound: float rounding, or half's rounding of the stored output (2^-11 relative, 4.9e-4) */
    const double tol = half ? 1e-3 : 1e-4;
    double err = fabs(res[(size_t)cy * W + cx] - ref) / (fabs(ref) + 1e-3);
    printf("conv2d_image: %s 5x5 on a %dx%d %s, %s, border %s, %s walk: %.3f ms (%.1f GPix/s, %.0f GB/s); centre "
           "pixel %s\n  (%s)\n", fname, W, H, in ? "image" : "generated pattern", half ? "half" : "float",
           bnames[border], plan.path == SSAM_PATH_QUEUED ? "queued" : "systolic", best, n / best / 1e6,
           2.0 * es * n / best / 1e6, err < tol ? "matches" : "DIFFERS", plan.why);
    if (out) {
        if (write_image(out, res, W, H, offset)) { perror(out); return 1; }
        printf("  wrote %s\n", out);
    }
    cudaFree(d_in); cudaFree(d_out);
    free(img); free(res); free(staged);
    return err < tol ? 0 : 1;
}
