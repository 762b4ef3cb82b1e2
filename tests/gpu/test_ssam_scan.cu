/* tests/gpu/test_ssam_scan.cu -- ssam/scan.cuh: warp scans (inclusive, exclusive; int, long long,
 * float, double) against sequential sums, and the summed-area table (float, double) against a CPU
 * table in double on ragged sizes with pitches, outputs and padding poisoned; the error codes. */
#include <ssam/scan.cuh>

#include "gpucheck.h"

#define SCAN_KERNEL(name, T)                                                                              \
    __global__ void name(const T *in, T *incl, T *excl)                                                   \
    {                                                                                                     \
        const int i = blockIdx.x * blockDim.x + threadIdx.x;                                              \
        T a = in[i], b = in[i];                                                                           \
        SSAM_WARP_SCAN_INCLUSIVE(T, a);                                                                   \
        SSAM_WARP_SCAN_EXCLUSIVE(T, b);                                                                   \
        incl[i] = a;                                                                                      \
        excl[i] = b;                                                                                      \
    }
SCAN_KERNEL(scan_i32, int)
SCAN_KERNEL(scan_i64, long long)
SCAN_KERNEL(scan_f32, float)
SCAN_KERNEL(scan_f64, double)

SSAM_SAT_DEFINE(sat_f32, float, 256)
SSAM_SAT_DEFINE(sat_f64, double, 128)

/* 64 warps of random values; T's scans checked against sums in double (integers exactly) */
#define TEST_SCAN(kern, T, exact)                                                                         \
    do {                                                                                                  \
        const int n = 64 * 32;                                                                            \
        T h[64 * 32], hi[64 * 32], he[64 * 32], *d, *di, *de;                                             \
        for (int i = 0; i < n; i++) h[i] = exact ? (T)(int)(gpucheck_uniform() * 1000) : (T)gpucheck_uniform(); \
        CUDA_OK(cudaMalloc(&d, sizeof h));                                                                \
        CUDA_OK(cudaMalloc(&di, sizeof h));                                                               \
        CUDA_OK(cudaMalloc(&de, sizeof h));                                                               \
        CUDA_OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));                                      \
        CUDA_OK(cudaMemset(di, 0xFF, sizeof h));                                                          \
        CUDA_OK(cudaMemset(de, 0xFF, sizeof h));                                                          \
        kern<<<n / 128, 128>>>(d, di, de);                                                                \
        CUDA_OK(cudaGetLastError());                                                                      \
        CUDA_OK(cudaMemcpy(hi, di, sizeof h, cudaMemcpyDeviceToHost));                                    \
        CUDA_OK(cudaMemcpy(he, de, sizeof h, cudaMemcpyDeviceToHost));                                    \
        for (int w = 0; w < 64; w++) {                                                                    \
            double s = 0, mag = 0;                                                                        \
            for (int l = 0; l < 32; l++) {                                                                \
                int i = w * 32 + l;                                                                       \
                double ex = s, exmag = mag;                                                               \
                s += (double)h[i];                                                                        \
                mag += fabs((double)h[i]);                                                                \
                if (exact) {                                                                              \
                    CHECK((double)hi[i] == s && (double)he[i] == ex, #T " warp %d lane %d", w, l);        \
                } else {                                                                                  \
                    CHECK(fabs((double)hi[i] - s) <= 1e-6 * mag + 1e-30, #T " inclusive warp %d lane %d", w, l); \
                    CHECK(fabs((double)he[i] - ex) <= 1e-6 * exmag + 1e-30, #T " exclusive warp %d lane %d", w, l); \
                }                                                                                         \
            }                                                                                             \
        }                                                                                                 \
        cudaFree(d);                                                                                      \
        cudaFree(di);                                                                                     \
        cudaFree(de);                                                                                     \
    } while (0)

static void test_warp_scans(void)
{
    case_begin("ssam warp scans (Kogge-Stone) match sequential sums: int, long long, float, double");
    TEST_SCAN(scan_i32, int, 1);
    TEST_SCAN(scan_i64, long long, 1);
    TEST_SCAN(scan_f32, float, 0);
    TEST_SCAN(scan_f64, double, 0);
    case_end();
}

typedef int (*sat_fn)(const ssam_sat_args *, cudaStream_t);

static void test_sat(const char *tname, sat_fn launch, int dbl, int light)
{
    static const int sizes[][2] = {{1, 1}, {31, 33}, {1000, 3}, {3, 1000}, {257, 190}, {2049, 67}};
    char name[96];
    snprintf(name, sizeof name, "ssam summed-area table, %s: ragged sizes, pitches, poisoned", tname);
    case_begin(name);
    size_t es = dbl ? 8 : 4;
    double tol = dbl ? 1e-13 : 1e-5;
    int ns = light ? 3 : (int)(sizeof sizes / sizeof *sizes);
    for (int si = 0; si < ns && !check__failed_case; si++)
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            int W = sizes[si][0], H = sizes[si][1];
            long long sp = pk ? W + 3 : W, dp = pk ? W + 7 : W;
            size_t nin = (size_t)sp * H, nout = (size_t)dp * H;
            double *x = (double *)malloc(nin * 8), *ref = (double *)malloc((size_t)W * H * 8),
                   *mag = (double *)malloc((size_t)W * H * 8);
            char *hb = (char *)malloc((nin > nout ? nin : nout) * es);
            for (size_t i = 0; i < nin; i++) {
                x[i] = gpucheck_uniform();
                if (dbl) ((double *)hb)[i] = x[i];
                else { ((float *)hb)[i] = (float)x[i]; x[i] = (float)x[i]; }
            }
            for (int y = 0; y < H; y++) /* the table and the table of |x|, in double */
                for (int i = 0; i < W; i++) {
                    double up = y ? ref[(size_t)(y - 1) * W + i] : 0, left = i ? ref[(size_t)y * W + i - 1] : 0;
                    double diag = (y && i) ? ref[(size_t)(y - 1) * W + i - 1] : 0;
                    double mu = y ? mag[(size_t)(y - 1) * W + i] : 0, ml = i ? mag[(size_t)y * W + i - 1] : 0;
                    double md = (y && i) ? mag[(size_t)(y - 1) * W + i - 1] : 0;
                    ref[(size_t)y * W + i] = x[(size_t)y * sp + i] + up + left - diag;
                    mag[(size_t)y * W + i] = fabs(x[(size_t)y * sp + i]) + mu + ml - md;
                }
            void *din = NULL, *dout = NULL;
            CUDA_OK(cudaMalloc(&din, nin * es));
            CUDA_OK(cudaMalloc(&dout, nout * es));
            CUDA_OK(cudaMemcpy(din, hb, nin * es, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(dout, 0xFF, nout * es));
            ssam_sat_args a;
            memset(&a, 0, sizeof a);
            a.src = din; a.dst = dout; a.width = W; a.height = H;
            a.src_pitch = pk ? sp : 0; a.dst_pitch = pk ? dp : 0;
            int rc = launch(&a, 0);
            CHECK(rc == 0, "launch: %s", ssam_strerror(rc));
            CUDA_OK(cudaDeviceSynchronize());
            CUDA_OK(cudaMemcpy(hb, dout, nout * es, cudaMemcpyDeviceToHost));
            double num = 0, den = 0;
            long long bad = 0;
            for (size_t i = 0; i < nout; i++) {
                size_t y = i / dp, c = i % dp;
                double v = dbl ? ((double *)hb)[i] : ((float *)hb)[i];
                if ((long long)c >= W) { bad += !isnan(v); continue; } /* padding stays poisoned */
                if (!isfinite(v)) { bad++; continue; }
                double r = ref[y * W + c];
                num += (v - r) * (v - r);
                den += mag[y * W + c] * mag[y * W + c];
            }
            double err = sqrt(num / den);
            CHECK(bad == 0, "%dx%d pitch %lld: %lld cells unwritten or padding written", W, H, sp, bad);
            CHECK(err < tol, "%dx%d pitch %lld: error / table of |x| = %.3g", W, H, sp, err);
            cudaFree(din);
            cudaFree(dout);
            free(x); free(ref); free(mag); free(hb);
        }
    case_end();
}

static void test_sat_errors(void)
{
    case_begin("ssam summed-area table error codes");
    float *d = NULL;
    CUDA_OK(cudaMalloc(&d, 1024));
    ssam_sat_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 64; a.width = 8; a.height = 8;
    CHECK(sat_f32_launch(&a, 0) == 0, "valid");
    CHECK(sat_f32_launch(NULL, 0) == SSAM_ENULL, "NULL args");
    b = a; b.src = NULL; CHECK(sat_f32_launch(&b, 0) == SSAM_ENULL, "NULL src");
    b = a; b.dst = NULL; CHECK(sat_f32_launch(&b, 0) == SSAM_ENULL, "NULL dst");
    b = a; b.width = 0; CHECK(sat_f32_launch(&b, 0) == SSAM_ESIZE, "width 0");
    b = a; b.height = -1; CHECK(sat_f32_launch(&b, 0) == SSAM_ESIZE, "height < 0");
    b = a; b.src_pitch = 7; CHECK(sat_f32_launch(&b, 0) == SSAM_EPITCH, "src pitch < width");
    b = a; b.dst_pitch = 4; CHECK(sat_f32_launch(&b, 0) == SSAM_EPITCH, "dst pitch < width");
    b = a; b.dst = d; CHECK(sat_f32_launch(&b, 0) == SSAM_EOVERLAP, "in place");
    b = a; b.dst = d + 63; CHECK(sat_f32_launch(&b, 0) == SSAM_EOVERLAP, "dst starts on src's last element");
    b = a; b.src_pitch = 16; b.dst = d + 119; CHECK(sat_f32_launch(&b, 0) == SSAM_EOVERLAP, "pitched src (7 * 16 + 8)");
    b = a; b.src_pitch = 16; b.dst = d + 120; CHECK(sat_f32_launch(&b, 0) == 0, "dst after the pitched src");
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);
    case_end();
}

/* usage: test_ssam_scan [--light] */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    test_warp_scans();
    test_sat("float", sat_f32_launch, 0, light);
    test_sat("double", sat_f64_launch, 1, light);
    test_sat_errors();
    return check_exit();
}
