/* examples/dilate.cu -- grey dilation and erosion (max / min filters) of an image, in a kernel of
 * one's own built from ssam's pieces: the register cache (regcache.cuh), the border modes
 * (base.cuh) and the operator-generic systolic step SSAM_SYSTOLIC_ROW_OP (shift.cuh).
 *
 *   dilate [-e square|disk|ball] [-b constant|nearest|reflect|mirror|wrap] [-o dilate|erode|gradient]
 *          [in.pgm [out.pgm]]
 *
 * Reads a binary PGM (P5, 8-bit, no comment lines) -- e.g. ../shared/data/img/eagle.pgm -- or, with
 * no input, generates a 2000 x 1500 test pattern.  The structuring element is 5x5:
 *   square  flat 5x5 (a plain max / min filter)
 *   disk    flat, the 21 taps within radius 2.3 of the centre (the corners left out: -INFINITY)
 *   ball    non-flat: heights 8 - 2 (dx^2 + dy^2) on the disk (a rolling-ball structuring function)
 *   dilation  D(x, y) = max_{m,n} in(x + m - 2, y + n - 2) + b[n][m]
 *   erosion   E(x, y) = min_{m,n} in(x + m - 2, y + n - 2) - b[n][m]
 * (the correlation form, anchor at the centre; the three elements are symmetric, so this is also
 * the textbook dilation, which reflects b).  Both run on the GPU, are checked pixel by pixel
 * against a CPU loop (max and min are exact: any difference is a bug), and the one picked by -o
 * (default: dilate; gradient is D - E) is written to out.pgm, clamped to 0..255.  The program
 * prints the times and exits 1 on a mismatch.
 *
 * The kernel: a warp owns STEP output columns and a segment of SEG rows.  Each lane caches V = 4
 * adjacent columns (one 16-byte load per row) of a window of P + N - 1 rows; per chunk of P output
 * rows it loads P new rows (borders applied as they load), runs the systolic step P times -- each
 * output row costs V * M * N (add, max) pairs and about M / V shuffles per lane -- stores the
 * complete outputs and slides the window.  Change SE_M / SE_N for another size: only the shape
 * is compiled in; the heights are a kernel argument. */
#include <ssam/base.cuh>
#include <ssam/regcache.cuh>
#include <ssam/shift.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SE_M = 5,                          /* structuring element width (columns) */
    SE_N = 5,                          /* and height (rows) */
    AX = (SE_M - 1) / 2,               /* anchor: the centre tap */
    AY = (SE_N - 1) / 2,
    V = 4,                             /* columns per lane: one float4 */
    P = 8,                             /* output rows per chunk */
    R = P + SE_N - 1,                  /* rows in the register cache */
    STEP = (32 * V - SE_M + 1 - (V - 1)) / V * V, /* complete outputs per warp and row, whole vectors */
    WARPS = 4,                         /* warps per block */
    SEG = 64                           /* output rows per block (a multiple of P) */
};

/* the structuring function travels in the kernel's parameters: each tap is an operand */
typedef struct se_weights {
    float w[SE_M * SE_N];
} se_weights;

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

/* erode = 0: dst = in (+) b (dilation); 1: dst = in (-) b (erosion).  src, dst: h rows of pitch
 * floats; vec: src and pitch allow 16-byte loads (ssam_vec_ok). */
__global__ void __launch_bounds__(WARPS * 32) morph_kernel(const float *__restrict__ src, float *__restrict__ dst,
                                                           int w, int h, long long pitch, int border, float cval,
                                                           int vec, se_weights se, int erode)
{
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * WARPS + (threadIdx.x >> 5)) * STEP; /* the warp's first output column */
    if (X0 >= w) return; /* whole warps only: the shuffles need every lane */
    const int Ys = blockIdx.y * SEG, Ye = min(Ys + SEG, h);
    const int xa = X0 - AX;                    /* input column of output X0's tap m = 0 */
    const int xi = xa - (((xa % V) + V) % V);  /* the warp's first cached column, 16-byte aligned */
    const int s = xa - xi;                     /* local column of output X0 */
    const int x = xi + V * lane;               /* this lane's first column */
    float data[V][R], out[V];
    int cx[V], in, rows[SE_N > 1 ? SE_N - 1 : 1], prow[P];

    /* the lane's columns through the border once; then the first N-1 rows of the window */
    SSAM_REGCACHE_COLUMNS(V, cx, in, x, w, border, vec);
#pragma unroll
    for (int r = 0; r < SE_N - 1; r++) rows[r] = ssam_border_index(Ys - AY + r, h, border);
    if (SE_N > 1) SSAM_REGCACHE_ROWS(float, V, data, 0, SE_N - 1, src, pitch, x, cx, in, rows, cval);

#pragma unroll 1
    for (int y0 = Ys; y0 < Ye; y0 += P) {
        /* P new rows below the N-1 kept ones (rows past the image come through the border) */
#pragma unroll
        for (int r = 0; r < P; r++) prow[r] = ssam_border_index(y0 - AY + SE_N - 1 + r, h, border);
        SSAM_REGCACHE_ROWS(float, V, data, SE_N - 1, P, src, pitch, x, cx, in, prow, cval);
#pragma unroll
        for (int p = 0; p < P; p++) {
            /* out[k] = the output whose tap m = 0 is local column V*lane + k (erode is warp-uniform) */
            if (erode) SSAM_SYSTOLIC_ROW_OP(float, V, SE_M, SE_N, out, data, p, se.w, INFINITY, SSAM_OP_MIN_SUB);
            else SSAM_SYSTOLIC_ROW_OP(float, V, SE_M, SE_N, out, data, p, se.w, -INFINITY, SSAM_OP_MAX_ADD);
            if (y0 + p < Ye) {
                float *drow = dst + (long long)(y0 + p) * pitch;
#pragma unroll
                for (int k = 0; k < V; k++) {
                    const int u = V * lane + k - s; /* output column X0 + u; complete when u < STEP */
                    if (u >= 0 && u < STEP && X0 + u < w) drow[X0 + u] = out[k];
                }
            }
        }
        SSAM_REGCACHE_SLIDE(V, data, SE_N - 1, P);
    }
}

/* validate, size the grid, launch; 0 or an SSAM_E* code (like the kit's own launchers) */
static int morph(const float *d_src, float *d_dst, int w, int h, long long pitch, int border, float cval,
                 const float *b, int erode, cudaStream_t stream)
{
    se_weights se;
    if (!d_src || !d_dst || !b) return SSAM_ENULL;
    if (w <= 0 || h <= 0) return SSAM_ESIZE;
    if (pitch < w) return SSAM_EPITCH;
    if (border < SSAM_BORDER_CONSTANT || border > SSAM_BORDER_WRAP) return SSAM_EBORDER;
    memcpy(se.w, b, sizeof se.w);
    dim3 grid((unsigned)((w + WARPS * STEP - 1) / (WARPS * STEP)), (unsigned)((h + SEG - 1) / SEG));
    if (grid.y > 65535) return SSAM_ESIZE;
    morph_kernel<<<grid, WARPS * 32, 0, stream>>>(d_src, d_dst, w, h, pitch, border, cval,
                                                  ssam_vec_ok(d_src, pitch, V), se, erode);
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}

/* the same definition on the CPU, one pixel at a time */
static void morph_cpu(const float *in, int w, int h, int border, float cval, const float *b, int erode, float *out)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float acc = erode ? INFINITY : -INFINITY;
            for (int n = 0; n < SE_N; n++)
                for (int m = 0; m < SE_M; m++) {
                    int ix = ssam_border_index(x + m - AX, w, border), iy = ssam_border_index(y + n - AY, h, border);
                    float v = (ix < 0 || iy < 0) ? cval : in[(size_t)iy * w + ix];
                    acc = erode ? fminf(acc, v - b[n * SE_M + m]) : fmaxf(acc, v + b[n * SE_M + m]);
                }
            out[(size_t)y * w + x] = acc;
        }
}

static float *read_pgm(const char *path, int *W, int *H)
{
    FILE *f = fopen(path, "rb");
    int maxv = 0;
    float *img = NULL;
    if (!f) return NULL;
    if (fscanf(f, "P5 %d %d %d", W, H, &maxv) == 3 && maxv == 255 && *W > 0 && *H > 0 && fgetc(f) != EOF) {
        size_t n = (size_t)*W * *H;
        unsigned char *px = (unsigned char *)malloc(n);
        img = (float *)malloc(n * sizeof *img);
        if (px && img && fread(px, 1, n, f) == n) {
            for (size_t i = 0; i < n; i++) img[i] = px[i];
        } else {
            free(img);
            img = NULL;
        }
        free(px);
    }
    fclose(f);
    return img;
}

static int write_pgm(const char *path, const float *img, int W, int H)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fprintf(f, "P5\n%d %d\n255\n", W, H);
    for (size_t i = 0; i < (size_t)W * H; i++) fputc(img[i] < 0 ? 0 : img[i] > 255 ? 255 : (int)(img[i] + 0.5f), f);
    return fclose(f);
}

/* the 5x5 structuring elements (-INFINITY: the tap is not in the element) */
static int make_se(const char *name, float b[SE_M * SE_N])
{
    for (int n = 0; n < SE_N; n++)
        for (int m = 0; m < SE_M; m++) {
            int dx = m - AX, dy = n - AY, r2 = dx * dx + dy * dy;
            float *t = &b[n * SE_M + m];
            if (!strcmp(name, "square")) *t = 0;
            else if (!strcmp(name, "disk")) *t = r2 <= 5 ? 0 : -INFINITY;
            else if (!strcmp(name, "ball")) *t = r2 <= 5 ? (float)(8 - 2 * r2) : -INFINITY;
            else return -1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    const char *se_name = "ball", *in = NULL, *outp = NULL, *what = "dilate";
    static const char *bnames[] = {"constant", "nearest", "reflect", "mirror", "wrap"};
    int border = SSAM_BORDER_REFLECT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-e") && i + 1 < argc) se_name = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) what = argv[++i];
        else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
            border = -1;
            for (int b = 0; b < 5; b++)
                if (!strcmp(argv[i + 1], bnames[b])) border = b;
            if (border < 0) { fprintf(stderr, "unknown border %s\n", argv[i + 1]); return 2; }
            i++;
        } else if (!in) in = argv[i];
        else if (!outp) outp = argv[i];
        else {
            fprintf(stderr, "usage: %s [-e square|disk|ball] [-b border] [-o dilate|erode|gradient] [in.pgm [out.pgm]]\n",
                    argv[0]);
            return 2;
        }
    }
    float b[SE_M * SE_N];
    if (make_se(se_name, b)) { fprintf(stderr, "unknown structuring element %s\n", se_name); return 2; }
    if (strcmp(what, "dilate") && strcmp(what, "erode") && strcmp(what, "gradient")) {
        fprintf(stderr, "unknown output %s (dilate, erode or gradient)\n", what);
        return 2;
    }
    int W = 2000, H = 1500;
    float *img = in ? read_pgm(in, &W, &H) : NULL;
    if (in && !img) { fprintf(stderr, "cannot read %s (binary PGM P5, 8-bit)\n", in); return 1; }
    if (!img) { /* rings, specks and a ramp: integers 0..255 */
        img = (float *)malloc((size_t)W * H * sizeof *img);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double r = hypot(x - W / 2.0, y - H / 2.0);
                int v = (int)(110 + 90 * sin(r / 7.0)) + (int)((x * 7919u + y * 104729u) % 37) - 18;
                img[(size_t)y * W + x] = (float)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
    }
    /* rows padded to a multiple of 4 floats, so every row starts 16-byte aligned */
    const long long pitch = (W + 3) / 4 * 4;
    const size_t n = (size_t)W * H, bytes = (size_t)pitch * H * sizeof(float);
    const float cval = 0; /* the value outside the image for -b constant */
    float *d_in, *d_out[2], *res[2], *ref = (float *)malloc(n * sizeof *ref);
    CK(cudaMalloc(&d_in, bytes));
    CK(cudaMemcpy2D(d_in, pitch * sizeof(float), img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    long long bad = 0;
    float best[2];
    for (int erode = 0; erode < 2; erode++) {
        CK(cudaMalloc(&d_out[erode], bytes));
        res[erode] = (float *)malloc(n * sizeof(float));
        best[erode] = 1e30f;
        for (int it = 0; it < 6; it++) { /* the first run warms up; best of the other five */
            CK(cudaEventRecord(e0));
            int rc = morph(d_in, d_out[erode], W, H, pitch, border, cval, b, erode, 0);
            CK(cudaEventRecord(e1));
            if (rc) { fprintf(stderr, "%s\n", ssam_strerror(rc)); return 1; }
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (it && ms < best[erode]) best[erode] = ms;
        }
        CK(cudaGetLastError());
        CK(cudaMemcpy2D(res[erode], W * sizeof(float), d_out[erode], pitch * sizeof(float), W * sizeof(float), H,
                        cudaMemcpyDeviceToHost));
        morph_cpu(img, W, H, border, cval, b, erode, ref);
        long long diff = 0;
        for (size_t i = 0; i < n; i++)
            if (res[erode][i] != ref[i]) { /* exact: max and min do not round */
                if (!diff)
                    fprintf(stderr, "  %s differs at (%d, %d): GPU %g, CPU %g\n", erode ? "erosion" : "dilation",
                            (int)(i % W), (int)(i / W), res[erode][i], ref[i]);
                diff++;
            }
        bad += diff;
        printf("dilate: %s by a 5x5 %s on a %dx%d %s, border %s: %.3f ms (%.1f GPix/s); %s\n",
               erode ? "erosion " : "dilation", se_name, W, H, in ? "image" : "generated pattern", bnames[border],
               best[erode], n / best[erode] / 1e6, diff ? "DIFFERS from the CPU" : "matches the CPU exactly");
    }
    if (outp) {
        float *o = res[0];
        if (!strcmp(what, "erode")) o = res[1];
        else if (!strcmp(what, "gradient"))
            for (size_t i = 0; i < n; i++) res[0][i] -= res[1][i]; /* morphological gradient */
        if (write_pgm(outp, o, W, H)) { perror(outp); return 1; }
        printf("  wrote the %s to %s\n", what, outp);
    }
    cudaFree(d_in); cudaFree(d_out[0]); cudaFree(d_out[1]);
    free(img); free(res[0]); free(res[1]); free(ref);
    return bad ? 1 : 0;
}
