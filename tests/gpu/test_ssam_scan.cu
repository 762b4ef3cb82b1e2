/* tests/gpu/test_ssam_scan.cu -- ssam/scan.cuh: warp scans (inclusive, exclusive; int, long long,
 * float, double) against sequential sums, and the summed-area table (float, double) against a CPU
 * table on ragged sizes with pitches, outputs and padding poisoned; the error codes, each on a
 * poisoned buffer that must stay unwritten.
 * The references sum in long double; every element is held to its own bound (bounds_conv.h
 * bnd_prefix), from the roundings that make it, each at most u (2^-24 float, 2^-53 double) of
 * the sum of |x| below it:
 *   warp scan, lane l: the Kogge-Stone tree adds at the steps d = 1, 2, 4, 8, 16 with d <= l, so
 *     depth(l) = that count (<= 5): |out - ref| <= 2 (depth(l) + 1) u sum_{i<=l} |x_i| (exclusive:
 *     depth(l - 1) over the lanes below l; lane 0 exactly 0).  The double inputs carry 48
 *     significant bits, so a scan that loses them (in float) fails.
 *   summed-area table, cell (x, y): the row pass is a tree of height <= x (the warp scan, then one
 *     carry add a chunk of 32), the column pass a running sum of y adds, so
 *     |out - ref| <= 2 (x + y + 2) u A(x, y), A the table of |x| at the cell: an error near the
 *     origin is measured against the small sums there, not the far corner's.
 * Where long double is not wider than double, its own rounding (LDBL_EPSILON / 2 a step) is added. */
#include <float.h>
#include <ssam/scan.cuh>

#include "gpucheck.h"
#include "bounds_conv.h" /* bnd_prefix, bnd_track */

/* the unit roundoff of the references' long double, where it is no wider than double (else 0) */
static const double ld_u = LDBL_MANT_DIG > DBL_MANT_DIG ? 0.0 : LDBL_EPSILON / 2;
/* the Kogge-Stone scan's additions on lane l: the steps d = 1, 2, 4, 8, 16 with d <= l */
static int ks_depth(int l)
{
    int n = 0;
    for (int d = 1; d < 32; d *= 2) n += d <= l;
    return n;
}

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

/* 64 warps of random values; T's scans checked against sums in long double (integers exactly); the
 * outputs poisoned (all bits set: -1 for the integers, NaN for float and double) */
#define TEST_SCAN(kern, T, exact)                                                                         \
    do {                                                                                                  \
        const int n = 64 * 32;                                                                            \
        T h[64 * 32], hi[64 * 32], he[64 * 32], *d, *di, *de;                                             \
        for (int i = 0; i < n; i++) { /* double: 48 significant bits (two draws) */                      \
            const double u_ = (double)gpucheck_uniform() + (double)gpucheck_uniform() * 0x1p-24;          \
            h[i] = exact ? (T)(int)(gpucheck_uniform() * 1000) : (T)u_;                                   \
        }                                                                                                 \
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
        const double u = sizeof(T) == 8 ? 0x1p-53 : 0x1p-24; /* T's unit roundoff (floating T) */        \
        for (int w = 0; w < 64; w++) {                                                                    \
            long double s = 0;                                                                            \
            double mag = 0;                                                                               \
            for (int l = 0; l < 32; l++) {                                                                \
                int i = w * 32 + l;                                                                       \
                long double ex = s;                                                                       \
                double exmag = mag;                                                                       \
                s += (long double)h[i];                                                                   \
                mag += fabs((double)h[i]);                                                                \
                if (exact) {                                                                              \
                    CHECK((long double)hi[i] == s && (long double)he[i] == ex, #T " warp %d lane %d", w, l); \
                } else {                                                                                  \
                    const double bi = bnd_prefix(2, ks_depth(l) + 1, u, mag) + (l + 1) * ld_u * mag;      \
                    const double be = l ? bnd_prefix(2, ks_depth(l - 1) + 1, u, exmag) + l * ld_u * exmag : 0; \
                    const double ei = fabs((double)((long double)hi[i] - s));                             \
                    const double ee = fabs((double)((long double)he[i] - ex));                            \
                    CHECK(ei <= bi, #T " inclusive warp %d lane %d: %.17g for %.17Lg, error %.3g, bound %.3g", \
                          w, l, (double)hi[i], s, ei, bi);                                                \
                    CHECK(ee <= be, #T " exclusive warp %d lane %d: %.17g for %.17Lg, error %.3g, bound %.3g", \
                          w, l, (double)he[i], ex, ee, be);                                               \
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
static double worst_sat = 0; /* the largest error / per-element bound of the tables */

static void test_sat(const char *tname, sat_fn launch, int dbl, int light)
{
    static const int sizes[][2] = {{1, 1}, {31, 33}, {1000, 3}, {3, 1000}, {257, 190}, {2049, 67}};
    char name[96];
    snprintf(name, sizeof name, "ssam summed-area table, %s: ragged sizes, pitches, poisoned", tname);
    case_begin(name);
    size_t es = dbl ? 8 : 4;
    double tol = dbl ? 1e-13 : 1e-5, u = dbl ? 0x1p-53 : 0x1p-24;
    int ns = light ? 3 : (int)(sizeof sizes / sizeof *sizes);
    for (int si = 0; si < ns && !check__failed_case; si++)
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            int W = sizes[si][0], H = sizes[si][1];
            long long sp = pk ? W + 3 : W, dp = pk ? W + 7 : W;
            size_t nin = (size_t)sp * H, nout = (size_t)dp * H;
            double *x = (double *)malloc(nin * 8), *mag = (double *)malloc((size_t)W * H * 8);
            long double *ref = (long double *)malloc((size_t)W * H * sizeof(long double));
            char *hb = (char *)malloc((nin > nout ? nin : nout) * es);
            for (size_t i = 0; i < nin; i++) { /* double: 48 significant bits (two draws) */
                x[i] = (double)gpucheck_uniform() + (double)gpucheck_uniform() * 0x1p-24;
                if (dbl) ((double *)hb)[i] = x[i];
                else { ((float *)hb)[i] = (float)x[i]; x[i] = (float)x[i]; }
            }
            /* the table and the table of |x|: each row's running sums, then each column's */
            for (int y = 0; y < H; y++) {
                long double r = 0;
                double m = 0;
                for (int i = 0; i < W; i++) {
                    r += x[(size_t)y * sp + i];
                    m += fabs(x[(size_t)y * sp + i]);
                    ref[(size_t)y * W + i] = r + (y ? ref[(size_t)(y - 1) * W + i] : 0);
                    mag[(size_t)y * W + i] = m + (y ? mag[(size_t)(y - 1) * W + i] : 0);
                }
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
            bnd_worst bw;
            bnd_init(&bw);
            for (size_t i = 0; i < nout; i++) {
                size_t y = i / dp, c = i % dp;
                double v = dbl ? ((double *)hb)[i] : ((float *)hb)[i];
                if ((long long)c >= W) { bad += !isnan(v); continue; } /* padding stays poisoned */
                if (!isfinite(v)) { bad++; continue; }
                const size_t o = y * W + c;
                const double e = (double)((long double)v - ref[o]); /* the error, from long double */
                num += e * e;
                den += mag[o] * mag[o];
                const double depth = (double)c + (double)y + 2;
                bnd_track(&bw, (long long)o, e, 0, bnd_prefix(2, depth, u, mag[o]) + depth * ld_u * mag[o]);
            }
            double err = sqrt(num / den);
            CHECK(bad == 0, "%dx%d pitch %lld: %lld cells unwritten or padding written", W, H, sp, bad);
            CHECK(err < tol, "%dx%d pitch %lld: error / table of |x| = %.3g", W, H, sp, err);
            CHECK(bw.over == 0, "%dx%d pitch %lld: %lld cells past their own bound; the worst, (%lld, %lld) of the "
                  "table %.17Lg: off by %.3g, %.3g of the bound %.3g", W, H, sp, bw.over, bw.at % W, bw.at / W,
                  bw.at >= 0 ? ref[bw.at] : 0.0L, bw.got, bw.ratio, bw.bound);
            if (bw.at >= 0 && bw.ratio > worst_sat) worst_sat = bw.ratio;
            cudaFree(din);
            cudaFree(dout);
            free(x); free(ref); free(mag); free(hb);
        }
    case_end();
}

static void test_sat_errors(void)
{
    case_begin("ssam summed-area table error codes (nothing written)");
    float *d = NULL;
    const size_t dbytes = 1024;
    CUDA_OK(cudaMalloc(&d, dbytes));
    ssam_sat_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 64; a.width = 8; a.height = 8;
    /* b = a, stmt, the launch: the code; a failing call on the poisoned buffer leaves it as it was */
#define EXPECT(code, stmt)                                                                                   \
    do {                                                                                                     \
        b = a;                                                                                               \
        stmt;                                                                                                \
        if ((code) != 0) CUDA_OK(cudaMemset(d, 0xFF, dbytes));                                              \
        const int rc_ = sat_f32_launch(&b, 0);                                                               \
        CHECK(rc_ == (code), "%s: got %d (%s), want %d", #stmt, rc_, ssam_strerror(rc_), code);             \
        if ((code) != 0) {                                                                                   \
            const long long ch_ = gpucheck_poison_changed(d, dbytes);                                                 \
            CHECK(ch_ == 0, "%s: %lld bytes written by a call that failed", #stmt, ch_);                     \
        }                                                                                                    \
    } while (0)
    EXPECT(0, (void)0); /* valid */
    CUDA_OK(cudaMemset(d, 0xFF, dbytes));
    CHECK(sat_f32_launch(NULL, 0) == SSAM_ENULL && sat_f64_launch(NULL, 0) == SSAM_ENULL, "NULL args");
    CHECK(gpucheck_poison_changed(d, dbytes) == 0, "NULL args: the buffer written");
    EXPECT(SSAM_ENULL, b.src = NULL);
    EXPECT(SSAM_ENULL, b.dst = NULL);
    EXPECT(SSAM_ESIZE, b.width = 0);
    EXPECT(SSAM_ESIZE, b.height = -1);
    EXPECT(SSAM_EPITCH, b.src_pitch = 7);
    EXPECT(SSAM_EPITCH, b.dst_pitch = 4);
    EXPECT(SSAM_EOVERLAP, b.dst = d);                        /* in place */
    EXPECT(SSAM_EOVERLAP, b.dst = d + 63);                   /* dst starts on src's last element */
    EXPECT(SSAM_EOVERLAP, (b.src_pitch = 16, b.dst = d + 119)); /* the pitched src spans 7 * 16 + 8 */
    EXPECT(0, (b.src_pitch = 16, b.dst = d + 120));          /* dst after the pitched src */
#undef EXPECT
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);
    case_end();
}

/* usage: test_ssam_scan [--light] [--seed N] */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    check_plan(4); /* the warp scans, the float and double tables, the error codes */
    test_warp_scans();
    test_sat("float", sat_f32_launch, 0, light);
    test_sat("double", sat_f64_launch, 1, light);
    test_sat_errors();
    if (worst_sat > 0) printf("info: the tables' largest error / per-element bound: %.3g\n", worst_sat);
    return check_exit();
}
