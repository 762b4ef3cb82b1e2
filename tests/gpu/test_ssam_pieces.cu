/* tests/gpu/test_ssam_pieces.cu -- ssam's pieces in kernels of the test's own (no *_DEFINE):
 * SSAM_REGCACHE_LOAD (regcache.cuh) + SSAM_SYSTOLIC_ROW_OP (shift.cuh) with every ready operator
 * and one user-defined operator, against a CPU reference in double:
 *   fma       SSAM_OP_FMA, and bit-for-bit equal to the plain SSAM_SYSTOLIC_ROW
 *   max_add   SSAM_OP_MAX_ADD (grey dilation by a structuring function)
 *   min_sub   SSAM_OP_MIN_SUB (grey erosion)
 *   min_plus  a static __device__ function of the test's own (tropical min-plus)
 * float and double, filters 1x1, 3x3, 5x4 (5 wide, 4 high), 7x7, ragged images, pitch equal to the
 * width (scalar loads) and padded (16-byte loads), every border mode.  Max and min are exact, so
 * they are compared exactly; fma by ||out - ref|| / ||sum |w x||| (fp32 < 1e-5, fp64 < 1e-12) and each
 * output by its own bound, 3 (K + 1) u sum |w x| of that output (bounds_conv.h; K = M N taps, u
 * 2^-24 float, 2^-53 double: one rounding a tap, 3 to spare).
 * Outputs and the padding are NaN-poisoned before each run.  Each case also checks that its
 * comparison can fail: the output must differ from the reference of the operator with the weights
 * negated (x - w for x + w, -w x for w x), so an op swapped for its twin fails the test.
 * And SSAM_STENCIL2D_ROW_FN (stencil.cuh), the stencil row with its operator pair as parameters, in
 * a kernel of the test's own on an asymmetric shape with a shared coefficient (periodic): max-plus
 * exactly against the CPU, fma/+/0 bit for bit against SSAM_STENCIL2D_ROW and within rounding of
 * the CPU sum in double (the norm, and each output within 3 (6 + 1) u of its sum |c x|).
 * And the raw rows of regcache.cuh (half, bf16): SSAM_REGCACHE_ROWS_RAW + _UNPACK and
 * SSAM_REGCACHE_BITS + _FROM_BITS against the converting load and the CPU, bit for bit. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <ssam/regcache.cuh>
#include <ssam/shift.cuh>
#include <ssam/stencil.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index: the CPU references' border rule */
#include "bounds_conv.h" /* the per-element bound */

enum { PK_WARPS = 4, PK_P = 4 };
#define PK_V(T) ((int)(16 / sizeof(T)))
/* complete outputs per warp and row, whole vectors (as conv.cuh) */
#define PK_STEP(T, M) ((32 * PK_V(T) - (M) + 1 - (PK_V(T) - 1)) / PK_V(T) * PK_V(T))

/* a user-defined operator: an inline function per type (tropical min-plus: INIT +infinity) */
static __device__ __forceinline__ float minplus_f(float acc, float x, float w) { return fminf(acc, x + w); }
static __device__ __forceinline__ double minplus_d(double acc, double x, double w) { return fmin(acc, x + w); }

/* the two steps the kernels take: the generic one, and the plain fma one (which ignores INIT, OP) */
#define PK_STEP_OP(T, V, M, N, out, data, p, w, INIT, OP) SSAM_SYSTOLIC_ROW_OP(T, V, M, N, out, data, p, w, INIT, OP)
#define PK_STEP_PLAIN(T, V, M, N, out, data, p, w, INIT, OP) SSAM_SYSTOLIC_ROW(T, V, M, N, out, data, p, w)

/* A kernel of one's own: each warp loads a fresh window of P + N - 1 rows with SSAM_REGCACHE_LOAD
 * and computes P output rows of STEP columns; anchor at the centre ((M-1)/2, (N-1)/2).  And its
 * host launcher (weights given in double, rounded to T). */
#define PK_DEFINE(name, T, M, N, STEPM, INIT, OP)                                                             \
    typedef struct name##_w {                                                                                \
        T w[(M) * (N)];                                                                                      \
    } name##_w;                                                                                              \
    __global__ void __launch_bounds__(PK_WARPS * 32) name##_kernel(const T *__restrict__ src, T *__restrict__ dst, \
                                                                  int w, int h, long long pitch, int border,   \
                                                                  T cval, int vec, name##_w wt)                \
    {                                                                                                        \
        enum { V = PK_V(T), STEP = PK_STEP(T, M), R = PK_P + (N)-1 };                                        \
        const int lane = threadIdx.x & 31;                                                                   \
        const int X0 = (blockIdx.x * PK_WARPS + (threadIdx.x >> 5)) * STEP;                                  \
        const int y0 = blockIdx.y * PK_P;                                                                    \
        if (X0 >= w) return;                                                                                 \
        const int xa = X0 - ((M)-1) / 2, xi = xa - (((xa % V) + V) % V), s = xa - xi;                        \
        const int x = xi + V * lane;                                                                         \
        T data[V][R], out[V];                                                                                \
        SSAM_REGCACHE_LOAD(T, V, R, data, src, pitch, x, y0 - ((N)-1) / 2, w, h, border, cval, vec);          \
        _Pragma("unroll") for (int p = 0; p < PK_P; p++) {                                                   \
            STEPM(T, V, M, N, out, data, p, wt.w, INIT, OP);                                                 \
            _Pragma("unroll") for (int k = 0; k < V; k++) {                                                  \
                const int u = V * lane + k - s;                                                              \
                if (y0 + p < h && u >= 0 && u < STEP && X0 + u < w) dst[(long long)(y0 + p) * pitch + X0 + u] = out[k]; \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static int name##_run(const void *src, void *dst, int w, int h, long long pitch, int border, double cval,   \
                          const double *hw)                                                                  \
    {                                                                                                        \
        name##_w wt;                                                                                         \
        for (int i = 0; i < (M) * (N); i++) wt.w[i] = (T)hw[i];                                              \
        dim3 grid((w + PK_WARPS * PK_STEP(T, M) - 1) / (PK_WARPS * PK_STEP(T, M)), (h + PK_P - 1) / PK_P);    \
        name##_kernel<<<grid, PK_WARPS * 32>>>((const T *)src, (T *)dst, w, h, pitch, border, (T)cval,         \
                                               ssam_vec_ok(src, pitch, PK_V(T)), wt);                        \
        return cudaPeekAtLastError() == cudaSuccess ? 0 : -1;                                                \
    }

/* every operator for one type and filter shape */
#define PK_SHAPE(sfx, T, M, N, MINPLUS)                                                                      \
    PK_DEFINE(fma_##sfx, T, M, N, PK_STEP_OP, 0, SSAM_OP_FMA)                                                \
    PK_DEFINE(plain_##sfx, T, M, N, PK_STEP_PLAIN, 0, SSAM_OP_FMA)                                           \
    PK_DEFINE(maxadd_##sfx, T, M, N, PK_STEP_OP, -INFINITY, SSAM_OP_MAX_ADD)                                 \
    PK_DEFINE(minsub_##sfx, T, M, N, PK_STEP_OP, INFINITY, SSAM_OP_MIN_SUB)                                  \
    PK_DEFINE(minplus_##sfx, T, M, N, PK_STEP_OP, INFINITY, MINPLUS)

PK_SHAPE(f1x1, float, 1, 1, minplus_f)
PK_SHAPE(f3x3, float, 3, 3, minplus_f)
PK_SHAPE(f5x4, float, 5, 4, minplus_f)
PK_SHAPE(f7x7, float, 7, 7, minplus_f)
PK_SHAPE(d1x1, double, 1, 1, minplus_d)
PK_SHAPE(d3x3, double, 3, 3, minplus_d)
PK_SHAPE(d5x4, double, 5, 4, minplus_d)
PK_SHAPE(d7x7, double, 7, 7, minplus_d)

typedef int (*run_fn)(const void *, void *, int, int, long long, int, double, const double *);
enum { OP_FMA, OP_MAXADD, OP_MINSUB, OP_MINPLUS };
static const char *op_name[] = {"fma (and = SSAM_SYSTOLIC_ROW)", "max_add (dilation)", "min_sub (erosion)",
                                "min_plus (user op)"};
typedef struct shape {
    const char *name;
    int M, N, is_double;
    run_fn run[4], plain; /* run[op]; plain: SSAM_SYSTOLIC_ROW, to equal run[OP_FMA] bit for bit */
} shape;

#define PK_ROW(sfx, M, N, D) {#sfx, M, N, D, {fma_##sfx##_run, maxadd_##sfx##_run, minsub_##sfx##_run, minplus_##sfx##_run}, plain_##sfx##_run}
static const shape shapes[] = {
    PK_ROW(f1x1, 1, 1, 0), PK_ROW(f3x3, 3, 3, 0), PK_ROW(f5x4, 5, 4, 0), PK_ROW(f7x7, 7, 7, 0),
    PK_ROW(d1x1, 1, 1, 1), PK_ROW(d3x3, 3, 3, 1), PK_ROW(d5x4, 5, 4, 1), PK_ROW(d7x7, 7, 7, 1),
};


/* x + w as the GPU rounds it: exact in double for two floats (or two doubles' sum in double) */
static double rsum(double x, double w, int dbl) { return dbl ? x + w : (double)(float)(x + w); }

/* out(x, y) = OP over the taps (m, n) of in(x + m - (M-1)/2, y + n - (N-1)/2) and w[n*M + m], in
 * double; sgn = -1 negates the weights (the decoy).  mag: sum |w v| (the scale of fma's rounding). */
static void reference(const double *in, int W, int H, long long sp, const double *w, int M, int N, int border,
                      double cval, int op, int dbl, double sgn, double *out, double *mag)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double acc = op == OP_FMA ? 0 : op == OP_MAXADD ? -INFINITY : INFINITY, a = 0;
            for (int n = 0; n < N; n++)
                for (int m = 0; m < M; m++) {
                    int jx = ref_index(x + m - (M - 1) / 2, W, border), jy = ref_index(y + n - (N - 1) / 2, H, border);
                    double v = (jx < 0 || jy < 0) ? cval : in[(long long)jy * sp + jx], t = sgn * w[n * M + m];
                    if (op == OP_FMA) acc += t * v;
                    else if (op == OP_MAXADD) acc = fmax(acc, rsum(v, t, dbl));
                    else if (op == OP_MINSUB) acc = fmin(acc, rsum(v, -t, dbl));
                    else acc = fmin(acc, rsum(v, t, dbl));
                    a += fabs(t * v);
                }
            out[(long long)y * W + x] = acc;
            mag[(long long)y * W + x] = a;
        }
}

static const char *border_name[] = {"constant", "nearest", "reflect", "mirror", "wrap"};

/* compare the device output (hbuf, pitch sp) with ref; returns the error (fma) or the number of
 * differing cells (max/min); counts unwritten cells and writes into the padding */
static double compare(const void *hbuf, int dbl, int W, int H, long long sp, const double *ref, const double *mag,
                      int op, long long *unwritten, long long *overwritten, const bnd_rule *rl, bnd_worst *bw)
{
    double num = 0, den = 0, ndiff = 0;
    *unwritten = *overwritten = 0;
    bnd_init(bw);
    for (long long i = 0; i < (long long)sp * H; i++) {
        long long y = i / sp, x = i % sp;
        double v = dbl ? ((const double *)hbuf)[i] : ((const float *)hbuf)[i];
        if (x >= W) { if (!isnan(v)) (*overwritten)++; continue; }
        if (isnan(v)) { (*unwritten)++; continue; }
        double r = ref[y * W + x];
        if (op == OP_FMA) {
            num += (v - r) * (v - r);
            den += mag[y * W + x] * mag[y * W + x];
            bnd_track(bw, y * W + x, v, r, bnd_of(rl, r, mag[y * W + x]));
        } else if (v != r) ndiff++;
    }
    if (op != OP_FMA) return ndiff;
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static void run_shape(const shape *sh, int op, int light)
{
    static const int sizes[][2] = {{1, 1}, {37, 29}, {131, 70}, {300, 5}, {5, 97}, {257, 66}};
    int nsizes = light ? 3 : (int)(sizeof sizes / sizeof *sizes);
    char name[160];
    snprintf(name, sizeof name, "ssam pieces %s %s %dx%d: every border, ragged sizes, scalar and 16-byte loads",
             op_name[op], sh->is_double ? "double" : "float", sh->M, sh->N);
    case_begin(name);
    const int dbl = sh->is_double, M = sh->M, N = sh->N, V = dbl ? 2 : 4;
    const size_t es = dbl ? 8 : 4;
    const double tol = dbl ? 1e-12 : 1e-5;
    const bnd_rule rule = {0, dbl ? 0x1p-53 : 0x1p-24, 3, 0, 0, M * N};
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        const int W = sizes[si][0], H = sizes[si][1];
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            /* pk 0: pitch = width (16-byte loads only where it is a multiple of V); 1: padded to V */
            const long long sp = pk ? (W + V) / V * V : W;
            const size_t nin = (size_t)sp * H;
            double *hin = (double *)malloc(nin * 8), *hw = (double *)malloc((size_t)M * N * 8);
            double *ref = (double *)malloc((size_t)W * H * 8), *mag = (double *)malloc((size_t)W * H * 8);
            double *dec = (double *)malloc((size_t)W * H * 8);
            void *hbuf = malloc(nin * es), *hbuf2 = malloc(nin * es);
            for (size_t i = 0; i < nin; i++) hin[i] = gpucheck_uniform();
            for (int i = 0; i < M * N; i++) hw[i] = gpucheck_uniform();
            for (size_t i = 0; i < nin; i++) { /* the reference sees what the GPU sees */
                if (dbl) ((double *)hbuf)[i] = hin[i];
                else { ((float *)hbuf)[i] = (float)hin[i]; hin[i] = (float)hin[i]; }
            }
            if (!dbl)
                for (int i = 0; i < M * N; i++) hw[i] = (float)hw[i];
            void *din = NULL, *dout = NULL;
            CUDA_OK(cudaMalloc(&din, nin * es));
            CUDA_OK(cudaMalloc(&dout, nin * es));
            CUDA_OK(cudaMemcpy(din, hbuf, nin * es, cudaMemcpyHostToDevice));
            for (int border = 0; border < 5 && !check__failed_case; border++) {
                const double cval = 0.375; /* exact in float too */
                reference(hin, W, H, sp, hw, M, N, border, cval, op, dbl, -1.0, dec, mag);
                reference(hin, W, H, sp, hw, M, N, border, cval, op, dbl, 1.0, ref, mag); /* mag: the same */
                long long unw, ovw;
                CUDA_OK(cudaMemset(dout, 0xFF, nin * es)); /* NaN poison */
                CHECK(sh->run[op](din, dout, W, H, sp, border, cval, hw) == 0, "launch failed");
                CUDA_OK(cudaDeviceSynchronize());
                CUDA_OK(cudaMemcpy(hbuf, dout, nin * es, cudaMemcpyDeviceToHost));
                bnd_worst bw, bwd;
                double e = compare(hbuf, dbl, W, H, sp, ref, mag, op, &unw, &ovw, &rule, &bw);
                double d = compare(hbuf, dbl, W, H, sp, dec, mag, op, &unw, &ovw, &rule, &bwd);
                CHECK(unw == 0 && ovw == 0, "%dx%d pitch %lld %s: %lld unwritten, %lld written in the padding", W, H,
                      sp, border_name[border], unw, ovw);
                if (op == OP_FMA) {
                    CHECK(e < tol, "%dx%d pitch %lld %s: error / sum|w x| = %.3g", W, H, sp, border_name[border], e);
                    CHECK(bw.over == 0, "%dx%d pitch %lld %s: %lld outputs past their own bound; the worst, (%lld, %lld): "
                          "%.9g for %.9g, error %.3g of the bound %.3g", W, H, sp, border_name[border], bw.over,
                          bw.at % W, bw.at / W, bw.got, bw.ref, bw.ratio, bw.bound);
                    /* the decoy (every weight negated: -ref) fails, on an image of 16 cells or more (one cell's
                     * sum can cancel to about 0, where -ref is ref) */
                    CHECK(W * H < 16 || bwd.over > 0, "%dx%d pitch %lld %s: the negated-weight decoy within the "
                          "per-element bound", W, H, sp, border_name[border]);
                    CHECK(W * H < 16 || d > 100 * tol, "%dx%d pitch %lld %s: the negated-weight decoy passes too (%.3g)",
                          W, H, sp, border_name[border], d);
                    /* the plain SSAM_SYSTOLIC_ROW: the same bits */
                    CUDA_OK(cudaMemset(dout, 0xFF, nin * es));
                    CHECK(sh->plain(din, dout, W, H, sp, border, cval, hw) == 0, "launch failed");
                    CUDA_OK(cudaDeviceSynchronize());
                    CUDA_OK(cudaMemcpy(hbuf2, dout, nin * es, cudaMemcpyDeviceToHost));
                    CHECK(memcmp(hbuf, hbuf2, nin * es) == 0, "%dx%d pitch %lld %s: SSAM_SYSTOLIC_ROW_OP(fma) and "
                          "SSAM_SYSTOLIC_ROW differ", W, H, sp, border_name[border]);
                } else {
                    CHECK(e == 0, "%dx%d pitch %lld %s: %.0f of %d cells differ from the reference", W, H, sp,
                          border_name[border], e, W * H);
                    CHECK(d > 0, "%dx%d pitch %lld %s: the negated-weight decoy passes too", W, H, sp,
                          border_name[border]);
                }
            }
            cudaFree(din);
            cudaFree(dout);
            free(hin); free(hw); free(ref); free(mag); free(dec); free(hbuf); free(hbuf2);
        }
    }
    case_end();
}

/* ---- SSAM_STENCIL2D_ROW_FN: a stencil row with a user operator pair --------------------------- */
#define SR_SHAPE(X) X(0, 0, 0) X(1, -1, 0) X(2, 2, 0) X(3, 0, -1) X(4, -3, 1) X(1, 1, 1)
enum { SR_NPTS = 6, SR_NCOEF = 5, SR_XLO = -3, SR_XHI = 2, SR_YLO = -1, SR_YHI = 1, SR_NY = 3 };
static __device__ __forceinline__ float sr_maxadd_f(float acc, float x, float c) { return fmaxf(acc, x + c); }
static __device__ __forceinline__ double sr_maxadd_d(double acc, double x, double c) { return fmax(acc, x + c); }
static __device__ __forceinline__ float sr_max_f(float a, float b) { return fmaxf(a, b); }
static __device__ __forceinline__ double sr_max_d(double a, double b) { return fmax(a, b); }
static __device__ __forceinline__ float sr_fma_f(float acc, float x, float c) { return fmaf(x, c, acc); }
static __device__ __forceinline__ double sr_fma_d(double acc, double x, double c) { return fma(x, c, acc); }
static __device__ __forceinline__ float sr_add_f(float a, float b) { return a + b; }
static __device__ __forceinline__ double sr_add_d(double a, double b) { return a + b; }
/* one warp per strip of STEP columns and one output row per blockIdx.y, periodic (wrapped loads);
 * out: max-plus, fma through ROW_FN, and the plain row, one after the other in dst (3 planes) */
#define SR_DEFINE(T, sfx)                                                                                    \
    typedef struct sr_c_##sfx {                                                                              \
        T c[SR_NCOEF];                                                                                       \
    } sr_c_##sfx;                                                                                            \
    __global__ void __launch_bounds__(32) sr_kernel_##sfx(const T *__restrict__ src, T *__restrict__ dst, int w, \
                                                          int h, sr_c_##sfx cf)                              \
    {                                                                                                        \
        enum { V = PK_V(T), QL = SSAM_STENCIL_QL(V, SR_XLO), QR = SSAM_STENCIL_QR(V, SR_XHI) };              \
        enum { STEP = SSAM_STENCIL_STEP(V, SR_XLO, SR_XHI) };                                                \
        const int lane = threadIdx.x & 31, y = blockIdx.y, X0 = blockIdx.x * STEP, x = X0 + V * (lane - QL); \
        T win[V][SR_NY], o[3][V];                                                                            \
        SSAM_REGCACHE_LOAD(T, V, SR_NY, win, src, w, x, y + SR_YLO, w, h, SSAM_BORDER_WRAP, (T)0, 0);         \
        SSAM_STENCIL2D_ROW_FN(T, V, SR_SHAPE, SR_XLO, SR_XHI, SR_YLO, o[0], win, 0, cf.c, -INFINITY,          \
                              sr_maxadd_##sfx, sr_max_##sfx);                                                \
        SSAM_STENCIL2D_ROW_FN(T, V, SR_SHAPE, SR_XLO, SR_XHI, SR_YLO, o[1], win, 0, cf.c, 0, sr_fma_##sfx,    \
                              sr_add_##sfx);                                                                 \
        SSAM_STENCIL2D_ROW(T, V, SR_SHAPE, SR_XLO, SR_XHI, SR_YLO, o[2], win, 0, cf.c);                       \
        if (lane < QL || lane >= 32 - QR) return; /* partial lanes */                                        \
        _Pragma("unroll") for (int k = 0; k < V; k++) if (x + k < w)                                         \
            _Pragma("unroll") for (int q = 0; q < 3; q++) dst[((long long)q * h + y) * w + x + k] = o[q][k];  \
    }
SR_DEFINE(float, f)
SR_DEFINE(double, d)
static const int sr_pts[SR_NPTS][3] = {{0, 0, 0}, {1, -1, 0}, {2, 2, 0}, {3, 0, -1}, {4, -3, 1}, {1, 1, 1}};

static void test_stencil_row_fn(int light)
{
    case_begin("ssam SSAM_STENCIL2D_ROW_FN in a kernel of its own: max-plus exact, fma/+/0 bit for bit "
               "SSAM_STENCIL2D_ROW's and within rounding of double, float and double, periodic, ragged sizes");
    static const int sizes[][2] = {{1, 1}, {7, 3}, {130, 5}, {1000, 37}};
    for (int dbl = 0; dbl < 2 && !check__failed_case; dbl++)
        for (int si = 0; si < (light ? 3 : 4) && !check__failed_case; si++) {
            const int w = sizes[si][0], h = sizes[si][1], es = dbl ? 8 : 4, V = 16 / es;
            const int step = SSAM_STENCIL_STEP(V, SR_XLO, SR_XHI);
            const size_t n = (size_t)w * h;
            char *hin = (char *)malloc(n * es), *hout = (char *)malloc(3 * n * es);
            double c[SR_NCOEF];
            void *din = NULL, *dout = NULL;
            sr_c_f cf;
            sr_c_d cd;
            for (int i = 0; i < SR_NCOEF; i++) {
                c[i] = gpucheck_uniform();
                cf.c[i] = (float)c[i];
                cd.c[i] = c[i];
                if (!dbl) c[i] = cf.c[i];
            }
            for (size_t i = 0; i < n; i++) {
                const double v = gpucheck_uniform();
                if (dbl) ((double *)hin)[i] = v;
                else ((float *)hin)[i] = (float)v;
            }
            CUDA_OK(cudaMalloc(&din, n * es));
            CUDA_OK(cudaMalloc(&dout, 3 * n * es));
            CUDA_OK(cudaMemcpy(din, hin, n * es, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(dout, 0xff, 3 * n * es)); /* NaN */
            dim3 grid((w + step - 1) / step, h);
            if (dbl) sr_kernel_d<<<grid, 32>>>((const double *)din, (double *)dout, w, h, cd);
            else sr_kernel_f<<<grid, 32>>>((const float *)din, (float *)dout, w, h, cf);
            CUDA_OK(cudaGetLastError());
            CUDA_OK(cudaMemcpy(hout, dout, 3 * n * es, cudaMemcpyDeviceToHost));
            long long bad_max = 0, bad_neg = 0, bad_bits = 0;
            double num = 0, den = 0;
            const bnd_rule rule = {0, dbl ? 0x1p-53 : 0x1p-24, 3, 0, 0, SR_NPTS};
            bnd_worst bw;
            bnd_init(&bw);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    double mx = -INFINITY, mneg = -INFINITY, sum = 0, asum = 0;
                    float mxf = -INFINITY;
                    for (int i = 0; i < SR_NPTS; i++) {
                        const size_t o = (size_t)ref_index(y + sr_pts[i][2], h, SSAM_BORDER_WRAP) * w +
                                         ref_index(x + sr_pts[i][1], w, SSAM_BORDER_WRAP);
                        const double v = dbl ? ((double *)hin)[o] : ((float *)hin)[o], cc = c[sr_pts[i][0]];
                        if (dbl) mx = fmax(mx, v + cc);
                        else mxf = fmaxf(mxf, (float)v + (float)cc);
                        mneg = fmax(mneg, v - cc);
                        sum += cc * v;
                        asum += fabs(cc * v);
                    }
                    if (!dbl) mx = mxf;
                    const size_t o = (size_t)y * w + x;
                    const double g0 = dbl ? ((double *)hout)[o] : ((float *)hout)[o];
                    const double g1 = dbl ? ((double *)hout)[n + o] : ((float *)hout)[n + o];
                    bad_max += !(g0 == mx);
                    bad_neg += g0 == mneg;
                    bad_bits += memcmp(hout + (n + o) * es, hout + (2 * n + o) * es, es) != 0;
                    num += (g1 - sum) * (g1 - sum);
                    den += asum * asum;
                    bnd_track(&bw, (long long)o, g1, sum, bnd_of(&rule, sum, asum));
                }
            const double err = sqrt(num / den);
            CHECK(bad_max == 0, "%s %dx%d: %lld max-plus outputs differ from the CPU's", dbl ? "double" : "float", w, h, bad_max);
            CHECK(bad_neg < (long long)n, "%s %dx%d: max-plus equals the x - c reference everywhere", dbl ? "double" : "float", w, h);
            CHECK(bad_bits == 0, "%s %dx%d: ROW_FN(fma, +, 0) differs from SSAM_STENCIL2D_ROW in %lld cells",
                  dbl ? "double" : "float", w, h, bad_bits);
            CHECK(err < (dbl ? 1e-14 : 1e-6), "%s %dx%d: |fma row - ref| / |sum |c x|| = %.3g", dbl ? "double" : "float", w,
                  h, err);
            CHECK(bw.over == 0, "%s %dx%d: %lld fma-row outputs past their own bound; the worst, (%lld, %lld): %.9g for "
                  "%.9g, error %.3g of the bound %.3g", dbl ? "double" : "float", w, h, bw.over, bw.at % w, bw.at / w,
                  bw.got, bw.ref, bw.ratio, bw.bound);
            cudaFree(din);
            cudaFree(dout);
            free(hin);
            free(hout);
        }
    case_end();
}

/* ---- raw rows (regcache.cuh): SSAM_REGCACHE_ROWS_RAW + _UNPACK, SSAM_REGCACHE_BITS + _FROM_BITS ----
 * A kernel of the test's own loads RAW_NR rows of a lane's 8 columns (half or bf16) both ways: the
 * converting load (SSAM_REGCACHE_ROWS_AS into float) and the raw one unpacked later, and the first
 * column's element as bits.  All three must equal the CPU's element at the border-mapped cell (the
 * constant, rounded to the type, outside), bit for bit.  The lanes start one vector left of the
 * image and run past its right edge, so every border path is taken. */
enum { RAW_NR = 3 };
#define RAW_DEFINE(name, TS)                                                                                 \
    __global__ void __launch_bounds__(128) name(const TS *__restrict__ src, float *__restrict__ o, int w, int h, \
                                                long long pitch, int border, float cval, unsigned cbits, int vec, int y0) \
    {                                                                                                        \
        enum { V = 8 };                                                                                      \
        const int gl = blockIdx.x * 128 + threadIdx.x, x = V * gl - V;                                       \
        int cx[V], in, rows[RAW_NR];                                                                         \
        float a[V][RAW_NR], b[V][RAW_NR], c[RAW_NR];                                                         \
        uint4 raw[RAW_NR];                                                                                   \
        SSAM_REGCACHE_COLUMNS(V, cx, in, x, w, border, vec);                                                 \
        _Pragma("unroll") for (int r = 0; r < RAW_NR; r++) rows[r] = ssam_border_index(y0 + r, h, border);  \
        SSAM_REGCACHE_ROWS_AS(TS, float, V, a, 0, RAW_NR, src, pitch, x, cx, in, rows, (float)(TS)cval);     \
        SSAM_REGCACHE_ROWS_RAW(TS, V, raw, 0, RAW_NR, src, pitch, x, cx, in, rows, cval);                    \
        _Pragma("unroll") for (int r = 0; r < RAW_NR; r++) {                                                 \
            const unsigned u = (rows[r] < 0 || cx[0] < 0) /* cbits: the constant's bits, from the host */     \
                                   ? cbits : SSAM_REGCACHE_BITS(TS, src + (long long)rows[r] * pitch + cx[0]); \
            SSAM_REGCACHE_FROM_BITS(TS, float, u, c[r]);                                                     \
        }                                                                                                    \
        SSAM_REGCACHE_UNPACK(TS, float, V, b, 0, raw, 0, RAW_NR);                                            \
        _Pragma("unroll") for (int r = 0; r < RAW_NR; r++) {                                                 \
            float *row = o + ((long long)r * gridDim.x * 128 + gl) * (2 * V + 1);                            \
            _Pragma("unroll") for (int j = 0; j < V; j++) row[j] = a[j][r], row[V + j] = b[j][r];            \
            row[2 * V] = c[r];                                                                               \
        }                                                                                                    \
    }
RAW_DEFINE(raw_half_kernel, __half)
RAW_DEFINE(raw_bf16_kernel, __nv_bfloat16)

static void test_raw_rows(int light)
{
    case_begin("ssam SSAM_REGCACHE_ROWS_RAW + _UNPACK and _BITS + _FROM_BITS equal the converting load and the "
               "CPU, bit for bit (half, bf16, every border, ragged, pitch)");
    static const int sizes[][2] = {{1, 1}, {37, 5}, {300, 9}, {1029, 4}};
    const int nsizes = light ? 2 : 4;
    for (int bf = 0; bf < 2 && !check__failed_case; bf++)
        for (int si = 0; si < nsizes && !check__failed_case; si++)
            for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
                const int W = sizes[si][0], H = sizes[si][1];
                const long long pitch = pk ? W + 3 : W; /* pk 1: odd pitch, no 16-byte loads */
                const size_t n = (size_t)pitch * H;
                unsigned short *hin = (unsigned short *)malloc(n * 2);
                for (size_t i = 0; i < n; i++) {
                    const float v = (float)(gpucheck_uniform() * 8 - 4);
                    hin[i] = bf ? __bfloat16_as_ushort(__float2bfloat16(v)) : __half_as_ushort(__float2half(v));
                }
                void *din = NULL;
                float *dout = NULL;
                const int lanes = (W + 8 + 8 + 7) / 8, blocks = (lanes + 127) / 128;
                const size_t nout = (size_t)RAW_NR * blocks * 128 * 17;
                float *hout = (float *)malloc(nout * 4);
                CUDA_OK(cudaMalloc(&din, n * 2));
                CUDA_OK(cudaMalloc((void **)&dout, nout * 4));
                CUDA_OK(cudaMemcpy(din, hin, n * 2, cudaMemcpyHostToDevice));
                const int vec = ssam_vec_ok(din, pitch, 8);
                for (int border = 0; border < 5 && !check__failed_case; border++)
                    for (int y0 = -2; y0 <= H && !check__failed_case; y0 += (H > 4 ? 3 : 1)) {
                        const float cval = 0.1f; /* not a half or bf16 value: rounded to the type */
                        CUDA_OK(cudaMemset(dout, 0xFF, nout * 4));
                        const unsigned cbits = bf ? __bfloat16_as_ushort(__float2bfloat16(cval)) : __half_as_ushort(__float2half(cval));
                        if (bf) raw_bf16_kernel<<<blocks, 128>>>((const __nv_bfloat16 *)din, dout, W, H, pitch, border, cval, cbits, vec, y0);
                        else raw_half_kernel<<<blocks, 128>>>((const __half *)din, dout, W, H, pitch, border, cval, cbits, vec, y0);
                        CUDA_OK(cudaGetLastError());
                        CUDA_OK(cudaMemcpy(hout, dout, nout * 4, cudaMemcpyDeviceToHost));
                        const float cr = bf ? __bfloat162float(__float2bfloat16(cval)) : __half2float(__float2half(cval));
                        long long bad = 0;
                        for (int r = 0; r < RAW_NR; r++)
                            for (int gl = 0; gl < lanes; gl++)
                                for (int j = 0; j <= 16; j++) {
                                    const int x = 8 * gl - 8 + (j < 16 ? j % 8 : 0);
                                    const int ix = ref_index(x, W, border), iy = ref_index(y0 + r, H, border);
                                    float e = cr;
                                    if (ix >= 0 && iy >= 0) {
                                        const unsigned short bits = hin[(size_t)iy * pitch + ix];
                                        e = bf ? __bfloat162float(__ushort_as_bfloat16(bits)) : __half2float(__ushort_as_half(bits));
                                    }
                                    const float got = hout[((size_t)r * blocks * 128 + gl) * 17 + j];
                                    if (memcmp(&got, &e, 4)) bad++;
                                }
                        CHECK(bad == 0, "%s %dx%d pitch %lld border %d rows %d..: %lld values differ from the CPU's",
                              bf ? "bf16" : "half", W, H, pitch, border, y0, bad);
                    }
                cudaFree(din);
                cudaFree(dout);
                free(hin);
                free(hout);
            }
    case_end();
}

/* usage: test_ssam_pieces [--light] [--seed N]   (--light: small sizes only, for compute-sanitizer) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const int nshapes = (int)(sizeof shapes / sizeof *shapes);
    check_plan(2 + nshapes * (OP_MINPLUS - OP_FMA + 1)); /* the stencil row, the raw rows, every shape and op */
    test_stencil_row_fn(light);
    test_raw_rows(light);
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (int op = OP_FMA; op <= OP_MINPLUS; op++) run_shape(&shapes[i], op, light);
    return check_exit();
}
