/* tests/gpu/test_cbi.cu -- the cbi remap on the GPU: a 9x9 box stencil and a naive matmul in every
 * thread order (naive, 2D rows, cbi columns with and without zigzag, grouped tiles) give outputs
 * that are bit-identical to the naive order and match a CPU reference in double, on ragged sizes,
 * with the output poisoned (NaN) before every launch.  Beside the norm, each output is held to its
 * own bound (bounds_conv.h): the box's 81 float adds and its scaling by the float 1/81 (a rounding
 * of the constant and one of the product), 3 (81 + 1) 2^-24 sum |x| / 81 + 3 2^-24 |ref|; the
 * product's D fmaf, 3 (D + 1) 2^-24 sum_k |a b|. */
#include "cbi_kernels.cuh"
#include "gpucheck.h"
#include "bounds_conv.h" /* the per-element bound */

/* the box mean, and in *mag the mean of |x| over the box */
static double ref_box9(const float *in, int W, int H, int x, int y, double *mag)
{
    double s = 0, a = 0;
    for (int dy = -CBIK_R; dy <= CBIK_R; dy++)
        for (int dx = -CBIK_R; dx <= CBIK_R; dx++) {
            int yy = y + dy < 0 ? 0 : (y + dy >= H ? H - 1 : y + dy);
            int xx = x + dx < 0 ? 0 : (x + dx >= W ? W - 1 : x + dx);
            s += in[(size_t)yy * W + xx];
            a += fabs(in[(size_t)yy * W + xx]);
        }
    *mag = a / 81.0;
    return s / 81.0;
}

/* every order and a spread of widths/groups, for both block sizes */
static int make_cfgs(cbik_cfg *c, int W)
{
    static const long long widths[] = {1, 7, 32, 33, 64, 96, 128, 1 << 20};
    static const long long groups[] = {1, 2, 3, 8, 1 << 20};
    int n = 0;
    for (int b = 128; b <= 256; b += 128) {
        c[n++] = (cbik_cfg){CBIK_NAIVE, b, 0, 0};
        c[n++] = (cbik_cfg){CBIK_ROWS2D, b, 0, 0};
        for (size_t i = 0; i < sizeof widths / sizeof *widths; i++)
            for (unsigned z = 0; z < 2; z++) c[n++] = (cbik_cfg){CBIK_CBI, b, widths[i], z ? CBI_ZIGZAG : 0u};
        for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
            c[n++] = (cbik_cfg){CBIK_TILES, b, groups[i], (i & 1) ? CBI_ZIGZAG : 0u};
    }
    (void)W;
    return n;
}
static const char *order_name[] = {"naive", "rows2d", "cbi", "tiles"};

static void run(int matmul, int W, int H, int D)
{
    char name[160];
    snprintf(name, sizeof name, "cbi %s %dx%d%s%.0d: every order matches the CPU and is bit-identical",
             matmul ? "matmul" : "9x9 stencil", W, H, matmul ? " depth " : "", matmul ? D : 0);
    case_begin(name);
    size_t n = (size_t)W * H, na = matmul ? (size_t)H * D : n, nb = matmul ? (size_t)D * W : 0;
    float *ha = (float *)malloc(na * 4), *hb = (float *)malloc((nb ? nb : 1) * 4);
    float *out = (float *)malloc(n * 4), *first = (float *)malloc(n * 4);
    double *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8);
    gpucheck_fill(ha, na);
    gpucheck_fill(hb, nb);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (!matmul) { ref[(size_t)y * W + x] = ref_box9(ha, W, H, x, y, &mag[(size_t)y * W + x]); continue; }
            double s = 0, a = 0;
            for (int k = 0; k < D; k++) {
                const double t = (double)ha[(size_t)y * D + k] * hb[(size_t)k * W + x];
                s += t;
                a += fabs(t);
            }
            ref[(size_t)y * W + x] = s;
            mag[(size_t)y * W + x] = a;
        }
    /* the box: 81 adds (mag the mean of |x|: the sum's bound scaled by 1/81), and the rounding of
     * 1/81 and of the product (the u_out term); the product: D fmaf */
    const bnd_rule rule = {0, 0x1p-24, 3, matmul ? 0 : 3 * 0x1p-24, 0, matmul ? D : (2 * CBIK_R + 1) * (2 * CBIK_R + 1)};
    float *da = NULL, *db = NULL, *dout = NULL;
    CUDA_OK(cudaMalloc(&da, na * 4));
    CUDA_OK(cudaMalloc(&db, (nb ? nb : 1) * 4));
    CUDA_OK(cudaMalloc(&dout, n * 4));
    CUDA_OK(cudaMemcpy(da, ha, na * 4, cudaMemcpyHostToDevice));
    if (nb) CUDA_OK(cudaMemcpy(db, hb, nb * 4, cudaMemcpyHostToDevice));
    cbik_cfg cfg[64];
    int nc = make_cfgs(cfg, W);
    for (int i = 0; i < nc && !check__failed_case; i++) {
        CUDA_OK(cudaMemset(dout, 0xFF, n * 4)); /* NaN poison */
        int rc = cbik_launch(matmul, &cfg[i], da, db, dout, W, H, D, 0);
        CHECK(rc == 0, "launch rc %d", rc);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
        size_t bad;
        double err = gpucheck_relerr(out, ref, n, &bad);
        CHECK(bad == 0, "%s block %d w %lld flags %u: %zu outputs unwritten or not finite", order_name[cfg[i].order],
              cfg[i].block, cfg[i].w, cfg[i].flags, bad);
        CHECK(err < 1e-5, "%s block %d w %lld: relative error %.3g", order_name[cfg[i].order], cfg[i].block,
              cfg[i].w, err);
        bnd_worst bw;
        bnd_init(&bw);
        for (size_t o = 0; o < n; o++) bnd_track(&bw, (long long)o, out[o], ref[o], bnd_of(&rule, ref[o], mag[o]));
        CHECK(bw.over == 0, "%s block %d w %lld flags %u: %lld outputs past their own bound; the worst, (%lld, %lld): "
              "%.9g for %.9g, error %.3g of the bound %.3g", order_name[cfg[i].order], cfg[i].block, cfg[i].w,
              cfg[i].flags, bw.over, bw.at % W, bw.at / W, bw.got, bw.ref, bw.ratio, bw.bound);
        if (i == 0) memcpy(first, out, n * 4);
        else
            CHECK(memcmp(first, out, n * 4) == 0, "%s block %d w %lld flags %u: not bit-identical to naive",
                  order_name[cfg[i].order], cfg[i].block, cfg[i].w, cfg[i].flags);
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    free(ha); free(hb); free(out); free(first); free(ref); free(mag);
    case_end();
}

static void test_launch_errors(void)
{
    case_begin("cbi launcher rejects bad configurations before launching");
    cbik_cfg bad_block = {CBIK_NAIVE, 100, 0, 0}, bad_w = {CBIK_CBI, 128, 0, 0}, bad_g = {CBIK_TILES, 128, -1, 0};
    CHECK(cbik_launch(0, &bad_block, NULL, NULL, NULL, 10, 10, 0, 0) == -1, "block 100");
    CHECK(cbik_launch(0, &bad_w, NULL, NULL, NULL, 10, 10, 0, 0) == CBI_EWIDTH, "w 0");
    CHECK(cbik_launch(0, &bad_g, NULL, NULL, NULL, 10, 10, 0, 0) == CBI_EWIDTH, "group -1");
    CHECK(cbik_launch(0, &bad_w, NULL, NULL, NULL, 0, 10, 0, 0) == -1, "width 0");
    CHECK(cbik_launch(0, &bad_w, NULL, NULL, NULL, 70000, 70000, 0, 0) == CBI_EOVERFLOW, "2^32 cells");
    CUDA_OK(cudaGetLastError());
    case_end();
}

/* usage: test_cbi [--light] [--seed N]   (--light: the small sizes only, for runs under compute-sanitizer) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    static const int st[][2] = {{1, 1}, {31, 33}, {1000, 3}, {3, 1000}, {257, 190}, {4037, 61}, {2048, 96}};
    static const int mm[][3] = {{1, 1, 1}, {33, 31, 17}, {100, 7, 64}, {257, 129, 200}, {512, 256, 300}};
    const size_t nst = light ? 4 : sizeof st / sizeof *st, nmm = light ? 3 : sizeof mm / sizeof *mm;
    check_plan((int)(nst + nmm) + 1); /* the stencils, the products, the launcher's errors */
    for (size_t i = 0; i < nst; i++) run(0, st[i][0], st[i][1], 0);
    for (size_t i = 0; i < nmm; i++) run(1, mm[i][0], mm[i][1], mm[i][2]);
    test_launch_errors();
    return check_exit();
}
