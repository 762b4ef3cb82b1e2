/* examples/cbi_stencil.cu -- blur a grayscale image with a 9x9 box filter, walking the pixels in
 * column order with cbi (cbi/cbi.h), and compare with the plain row order.
 *
 *   cbi_stencil [in.pgm [out.pgm [column_width]]]
 *
 * With no input it blurs a generated 8192 x 8192 test pattern.  A binary PGM (P5, maxval 255) is
 * read as given, e.g. ../shared/data/img/eagle.pgm.  column_width 0 (the default) asks the cache
 * model (cbi_width_stencil) for the width; the model may answer "no remap" (the full width).
 * Prints the time of both orders and checks that they produce identical pixels. */
#include <cbi/cbi.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

#define R 4 /* 9x9 */

static __device__ float box(const float *__restrict__ in, int W, int H, int x, int y)
{
    float s = 0.0f;
#pragma unroll
    for (int dy = -R; dy <= R; dy++) { /* 32-bit index math: CBI_INDEX32 plans stay below 2^32 cells */
        unsigned row = (unsigned)min(max(y + dy, 0), H - 1) * W;
#pragma unroll
        for (int dx = -R; dx <= R; dx++) s += in[row + min(max(x + dx, 0), W - 1)];
    }
    return s * (1.0f / ((2 * R + 1) * (2 * R + 1)));
}

/* the only change cbi asks of a kernel: where a thread's (x, y) comes from */
__global__ void blur_cbi(cbi_plan p, const float *__restrict__ in, float *__restrict__ out)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
    if (tid >= p.cells) return;
    cbi_remap32_xy(&p, tid, &x, &y);
    out[(size_t)y * p.width + x] = box(in, (int)p.width, (int)p.height, (int)x, (int)y);
}

__global__ void blur_rows(const float *__restrict__ in, float *__restrict__ out, int W, int H)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= (unsigned)W * H) return;
    out[tid] = box(in, W, H, (int)(tid % W), (int)(tid / W));
}

static unsigned char *read_pgm(const char *path, int *W, int *H)
{
    FILE *f = fopen(path, "rb");
    int maxv = 0;
    if (!f) return NULL;
    if (fscanf(f, "P5 %d %d %d", W, H, &maxv) != 3 || maxv != 255 || *W <= 0 || *H <= 0 || fgetc(f) == EOF) {
        fclose(f);
        return NULL;
    }
    unsigned char *px = (unsigned char *)malloc((size_t)*W * *H);
    if (px && fread(px, 1, (size_t)*W * *H, f) != (size_t)*W * *H) { free(px); px = NULL; }
    fclose(f);
    return px;
}

int main(int argc, char **argv)
{
    int W = 8192, H = 8192;
    unsigned char *px = NULL;
    if (argc > 1) {
        if (!(px = read_pgm(argv[1], &W, &H))) { fprintf(stderr, "cannot read binary PGM %s\n", argv[1]); return 1; }
    }
    size_t n = (size_t)W * H;
    float *h = (float *)malloc(n * 4), *h2 = (float *)malloc(n * 4);
    for (size_t i = 0; i < n; i++) /* the image, or a pattern with edges and noise */
        h[i] = px ? px[i] : (float)(((i % W) / 64 + (i / W) / 64) % 2 * 200 + (i * 2654435761u >> 27));
    float *in, *out, *ref;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(out, 0xFF, n * 4)); /* NaN: a pixel neither order writes cannot pass as "identical" */
    CK(cudaMemset(ref, 0xFF, n * 4));

    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    long long w = argc > 3 ? atoll(argv[3]) : 0;
    if (w <= 0) /* the model: reuse lives in the L2, shared by every resident thread */
        w = cbi_width_stencil(W, 2 * R + 1, 2 * R + 1, 4, prop.l2CacheSize,
                              (long long)prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor);
    cbi_plan p;
    int rc = cbi_plan_make(&p, W, H, w, CBI_INDEX32);
    if (rc) { fprintf(stderr, "%s\n", cbi_strerror(rc)); return 1; }

    unsigned blocks = (unsigned)((n + 255) / 256);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float t_rows = 1e30f, t_cbi = 1e30f, ms;
    for (int it = 0; it < 10; it++) { /* best of 10 each, after the first (warm-up) */
        CK(cudaEventRecord(e0));
        blur_rows<<<blocks, 256>>>(in, ref, W, H);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (it) t_rows = ms < t_rows ? ms : t_rows;
        CK(cudaEventRecord(e0));
        blur_cbi<<<blocks, 256>>>(p, in, out);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (it) t_cbi = ms < t_cbi ? ms : t_cbi;
    }
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, out, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h2, ref, n * 4, cudaMemcpyDeviceToHost));
    size_t unwritten = 0;
    for (size_t i = 0; i < n; i++) unwritten += h[i] != h[i]; /* still NaN */
    int same = memcmp(h, h2, n * 4) == 0 && unwritten == 0;
    printf("cbi_stencil: 9x9 box blur of a %dx%d %s on %s\n", W, H, px ? "image" : "generated pattern", prop.name);
    printf("  column width %lld%s; row order %.3f ms, column order %.3f ms (x%.2f); outputs %s (%zu pixels compared, "
           "%zu not written)\n", p.w, cbi_plan_is_identity(&p) ? " (= image width: the model chose no remap)" : "", t_rows,
           t_cbi, t_rows / t_cbi, same ? "identical" : "DIFFER", n, unwritten);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "wb");
        if (!f) { perror(argv[2]); return 1; }
        fprintf(f, "P5\n%d %d\n255\n", W, H);
        for (size_t i = 0; i < n; i++) {
            float v = h[i] < 0 ? 0 : h[i] > 255 ? 255 : h[i];
            fputc((int)(v + 0.5f), f);
        }
        fclose(f);
        printf("  wrote %s\n", argv[2]);
    }
    cudaFree(in); cudaFree(out); cudaFree(ref);
    free(h); free(h2); free(px);
    return same ? 0 : 1;
}
