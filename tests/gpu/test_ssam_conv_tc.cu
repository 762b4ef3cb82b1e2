/* tests/gpu/test_ssam_conv_tc.cu -- ssam/conv_tc.cuh (tensor-core convolution) against the CPU
 * reference in double, and against conv.cuh's SIMT kernel on the same data:
 *   f64     (DMMA): the SIMT path's bound, error / sum|w x| < 1e-12
 *   tf32    (one TF32 pass: data truncated, weights rounded to TF32): the documented bound, < 1e-3
 *   tf32x3  (three passes): < 8e-7 everywhere, and within 2x the SIMT FP32 path's error on the
 *           same input for filters of 64 taps and more on images of 64 pixels and more.  Why not
 *           2x everywhere: x = big + small keeps 22 of the 24 significant bits (small is itself
 *           rounded to TF32), so each product is off by up to 2^-22 of itself, 4x FP32's rounding;
 *           with few taps, or a 1x1 image whose one pixel meets every tap, that is the whole error,
 *           while over many taps of varied data FP32's own summation error is as large (measured:
 *           x1x1 4.2x, a 1x1 image under 20x20 10x, the 9x9 and 20x20 filters on images within 2x).
 *           The bound everywhere is 3 2^-22 of each product (x's and w's split residuals, 2^-22 of
 *           each, and the small.small term the three passes drop) plus FP32's rounding: 8e-7; a
 *           1x1 filter on a 1x1 image reaches 3.35e-7 on some data, so 2.5e-7 is too tight
 * Filters 1x1 to 20x20 and 33x5, images from 1x1 to several blocks each way (ragged), pitch larger
 * than the width, every border, 'valid', correlation and convolution, every anchor of the small
 * filters; outputs and padding NaN-poisoned first (an unwritten or NaN output fails), writes past
 * the output fail; an Inf and a NaN in the image reach exactly the outputs whose taps read them;
 * the error codes; the path taken (tensor cores on sm_80+).
 *   f16 / bf16 (images stored in FP16 / BF16, FP32 sums; the weights rounded to the storage type for
 *           the MMA): < 2e-3 / < 1.6e-2 (the weights' and the output's rounding, 2^-11 / 2^-8 each)
 * Error measure as test_ssam_conv: sqrt(sum (out - ref)^2 / sum (sum |w x|)^2), against the reference of
 * the weights as given.  And every output on its own (bounds_conv.h), against a reference of the
 * operands as the tensor core takes them: f16 / bf16 the weights rounded to the storage type (to
 * nearest), tf32 the weights rounded to TF32 (to nearest, ties away: cvt.rna) and the data truncated
 * to TF32 (or rounded to nearest even: an output within the bound of either passes); f64 and
 * tf32x3 the reference as given.  The bound: |out - ref| <= u_in mag + 3 (K + 1) u_acc mag + u_out
 * (|ref| + ...), mag = sum |w x| of that output, K = M N taps, u_acc 2^-23 (the tensor core's FP32
 * adder truncates: one unit a tap for its alignment, one for the accumulator, one for the result)
 * or 2^-52 (f64), u_in 1.25 x 3 2^-22 for tf32x3's split (none elsewhere), u_out the output's
 * rounding (f16 2^-11 with 2^-25 below its normal range, bf16 2^-8; an eighth to spare).  The
 * tf32x3 launch's SIMT FP32 twin: 3 (K + 1) 2^-24 mag.  An error code leaves the poisoned buffer
 * unwritten; a refused plan names why, has no passes and launches nothing.  Every run goes through
 * name_plan + name_run (the twin: name_simt_plan + name_simt_run), the answer read at p.result (=
 * dst); the plan names the tensor-core path (sm_80+), and the path named is the path taken, told
 * apart bit for bit: name_launch gives name_run's bits, a plan switched to SSAM_PATH_SIMT gives
 * name_simt_launch's, which differ from the tensor cores' (tf32 at least). */
#include <ssam/conv_tc.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index, ref_conv2d: the CPU references */
#include "bounds_conv.h" /* the per-element bound */

SSAM_CONV2D_TC_DEFINE(d1x1, f64, 1, 1, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(d2x3, f64, 2, 3, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(d4x6, f64, 4, 6, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(d15x15, f64, 15, 15, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(d20x20, f64, 20, 20, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(t3x3, tf32, 3, 3, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(t20x20, tf32, 20, 20, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(x1x1, tf32x3, 1, 1, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(x2x3, tf32x3, 2, 3, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(x9x9, tf32x3, 9, 9, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(x20x20, tf32x3, 20, 20, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(x33x5, tf32x3, 33, 5, ssam_conv_tc_policy<>)
/* other tiles through the policy: two and four fragment rows per warp (the band rows held for all of a
 * residue's filter rows), one warp column, wide warps */
SSAM_CONV2D_TC_DEFINE(e9x7, f64, 9, 7, ssam_conv_tc_policy<2, 4, 2, 2, 2>)
SSAM_CONV2D_TC_DEFINE(u20x17, tf32, 20, 17, ssam_conv_tc_policy<4, 4, 2, 2, 3>)
SSAM_CONV2D_TC_DEFINE(v5x11, tf32x3, 5, 11, ssam_conv_tc_policy<2, 2, 4, 1, 2>)
SSAM_CONV2D_TC_DEFINE(h3x3, f16, 3, 3, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(h20x20, f16, 20, 20, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(h5x11, f16, 5, 11, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(b9x9, bf16, 9, 9, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(b2x3, bf16, 2, 3, ssam_conv_tc_policy<2, 2, 2, 2, 2>)

typedef int (*launch_fn)(const ssam_conv2d_args *, cudaStream_t);
typedef int (*plan_fn)(const ssam_conv2d_args *, ssam_plan *);
typedef int (*run_fn)(const ssam_conv2d_args *, const ssam_plan *, cudaStream_t);
typedef struct kern {
    const char *name;
    launch_fn launch, simt;
    plan_fn plan, simt_plan;
    run_fn run, simt_run;
    int M, N, mode; /* mode: 64 f64, 1 tf32, 3 tf32x3, 16 f16, 17 bf16 */
} kern;
#define K(n, mode) {#n, n##_launch, n##_simt_launch, n##_plan, n##_simt_plan, n##_run, n##_simt_run, 0, 0, mode}

static kern kernels[] = {K(d1x1, 64), K(d2x3, 64),  K(d4x6, 64),  K(d15x15, 64), K(d20x20, 64), K(t3x3, 1),
                         K(t20x20, 1), K(x1x1, 3), K(x2x3, 3), K(x9x9, 3),    K(x20x20, 3),  K(x33x5, 3),
                         K(e9x7, 64),  K(u20x17, 1), K(v5x11, 3), K(h3x3, 16), K(h20x20, 16), K(h5x11, 16),
                         K(b9x9, 17),  K(b2x3, 17)};

/* the image's element (and the weights': float for the half modes) by mode, stored and read back */
static size_t esz(int mode) { return mode == 64 ? 8 : mode >= 16 ? 2 : 4; }
static size_t wsz(int mode) { return mode == 64 ? 8 : 4; }
static void put(void *b, size_t i, double x, int mode)
{
    if (mode == 64) ((double *)b)[i] = x;
    else if (mode == 16) ((__half *)b)[i] = __float2half((float)x);
    else if (mode == 17) ((__nv_bfloat16 *)b)[i] = __float2bfloat16((float)x);
    else ((float *)b)[i] = (float)x;
}
static double get(const void *b, size_t i, int mode)
{
    if (mode == 64) return ((const double *)b)[i];
    if (mode == 16) return __half2float(((const __half *)b)[i]);
    if (mode == 17) return __bfloat162float(((const __nv_bfloat16 *)b)[i]);
    return ((const float *)b)[i];
}
static void put_w(void *b, size_t i, double x, int mode)
{
    if (mode == 64) ((double *)b)[i] = x;
    else ((float *)b)[i] = (float)x;
}
static double tolerance(int mode) { return mode == 64 ? 1e-12 : mode == 1 ? 1e-3 : mode == 3 ? 8e-7 : mode == 16 ? 2e-3 : 1.6e-2; }
static const char *mode_name(int mode) { return mode == 64 ? "f64" : mode == 1 ? "tf32" : mode == 3 ? "tf32x3" : mode == 16 ? "f16" : "bf16"; }

/* x as a TF32 operand (10-bit mantissa, low 13 bits cleared): rounded to nearest with ties away
 * (cvt.rna, the weights), truncated (what the tensor core does to FP32 data), to nearest even */
static float tf32_bits(float x, int how)
{
    unsigned u;
    memcpy(&u, &x, 4);
    if (how == 0) u += 0x1000u;
    else if (how == 2) u += 0x0FFFu + ((u >> 13) & 1u);
    u &= 0xFFFFE000u;
    memcpy(&x, &u, 4);
    return x;
}
enum { TF32_RNA = 0, TF32_TRUNC = 1, TF32_RNE = 2 };
/* a weight as the MMA takes it: f16 / bf16 rounded to the storage type, tf32 to TF32 (rna) */
static double w_seen(double w, int mode)
{
    if (mode == 16) return __half2float(__float2half((float)w));
    if (mode == 17) return __bfloat162float(__float2bfloat16((float)w));
    if (mode == 1) return tf32_bits((float)w, TF32_RNA);
    return w;
}
/* the per-element rule of a mode (simt: the tf32x3 launch's SIMT FP32 twin) */
static bnd_rule rule_of(const kern *k, int simt)
{
    bnd_rule r = {0, 0x1p-23, 3, 0, 0, k->M * k->N};
    if (simt) r.u_acc = 0x1p-24;
    else if (k->mode == 64) r.u_acc = 0x1p-52;
    else if (k->mode == 3) r.u_in = 1.25 * 3 * 0x1p-22;
    else if (k->mode == 16) { r.u_out = 1.125 * 0x1p-11; r.abs_out = 0x1p-25; }
    else if (k->mode == 17) r.u_out = 1.125 * 0x1p-8;
    return r;
}
/* the operands as the tensor core takes them, where they differ from the given ones (f16, bf16,
 * tf32): the data (tf32: truncated, and in2 rounded to nearest even; else the data as given), the
 * weights; the references of each, and mag of the first */
typedef struct seen {
    const double *in, *in2, *w;
    double *ref, *ref2, *mag;
} seen;

static const kern *kernel_named(const char *name)
{
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!strcmp(kernels[i].name, name)) return &kernels[i];
    return NULL;
}
static const char *path_name(int path)
{
    return path == SSAM_PATH_TC ? "tensor cores" : path == SSAM_PATH_SIMT ? "SIMT" : path == SSAM_PATH_QUEUED ? "queued"
           : path == SSAM_PATH_SYSTOLIC ? "systolic" : "no path";
}
/* an accepted plan's head: why a sentence (the same through onchip_plan_head), one pass, no time
 * steps, no workspace, the answer in dst; 0 when all hold */
static int plan_bad(const ssam_plan *p, const void *dst)
{
    const onchip_plan h = onchip_plan_head(p);
    return !p->why || !p->why[0] || h.why != p->why || p->passes != 1 || p->steps_per_pass != 0 ||
           p->workspace_bytes != 0 || p->result != dst;
}
/* a refused plan: why a sentence (the same through onchip_plan_head), no passes, no result */
static int refusal_bad(const ssam_plan *p)
{
    const onchip_plan h = onchip_plan_head(p);
    return !p->why || !p->why[0] || h.why != p->why || p->passes != 0 || p->result != NULL;
}

static const char *border_name[] = {"constant", "nearest", "reflect", "mirror", "wrap"};
static double worst_bound = 0;      /* the largest error / per-element bound */
static char worst_where[192] = "";
static double worst_ratio = 0; /* tf32x3 error / SIMT fp32 error, the largest seen */

/* error of a device output against the reference (count of unwritten / overwritten cells too), and
 * each output against its bound (rule r) from pref / pmag (and pref2: within either passes) */
static double out_error(const void *hbuf, int mode, long long nout, long long odp, int ow, int oh, const double *ref,
                        const double *mag, const bnd_rule *r, const double *pref, const double *pref2,
                        const double *pmag, bnd_worst *bw, long long *unwritten, long long *overwritten)
{
    double num = 0, den = 0;
    *unwritten = *overwritten = 0;
    bnd_init(bw);
    for (long long i = 0; i < nout; i++) {
        long long y = i / odp, x = i % odp;
        double v = get(hbuf, (size_t)i, mode);
        if (y < oh && x < ow) {
            if (!isfinite(v)) { (*unwritten)++; continue; }
            const long long o = y * ow + x;
            num += (v - ref[o]) * (v - ref[o]);
            den += mag[o] * mag[o];
            const double b = bnd_of(r, pref[o], pmag[o]);
            if (pref2 && fabs(v - pref2[o]) < fabs(v - pref[o])) bnd_track(bw, o, v, pref2[o], bnd_of(r, pref2[o], pmag[o]));
            else bnd_track(bw, o, v, pref[o], b);
        } else if (!isnan(v)) (*overwritten)++;
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* one configuration: the TC launch (and the SIMT one for tf32x3) against the reference */
static void one(const kern *k, const void *din, void *dout, void *hbuf, const double *hin, int W, int H, long long sp,
                long long dp, const double *hw, const void *hwt, int border, unsigned flags, int ax, int ay,
                double *ref, double *mag, const seen *sn, const char *what)
{
    const size_t es = esz(k->mode);
    int ow, oh;
    int cx = (flags & SSAM_ANCHOR) ? ax : (k->M - 1) / 2, cy = (flags & SSAM_ANCHOR) ? ay : (k->N - 1) / 2;
    double cval = 0.375;
    ref_conv2d(hin, W, H, sp, hw, k->M, k->N, border, cval, flags & ~SSAM_ANCHOR, cx, cy, ref, mag, &ow, &oh);
    const double *pref = ref, *pref2 = NULL, *pmag = mag; /* the references of the bound */
    if (sn) {
        double *m2 = (double *)malloc((size_t)W * H * 8);
        ref_conv2d(sn->in, W, H, sp, sn->w, k->M, k->N, border, cval, flags & ~SSAM_ANCHOR, cx, cy, sn->ref, sn->mag,
                   &ow, &oh);
        if (sn->in2) ref_conv2d(sn->in2, W, H, sp, sn->w, k->M, k->N, border, cval, flags & ~SSAM_ANCHOR, cx, cy,
                                sn->ref2, m2, &ow, &oh);
        free(m2);
        pref = sn->ref; pref2 = sn->in2 ? sn->ref2 : NULL; pmag = sn->mag;
    }
    long long odp = dp ? dp : ow;
    long long nout = odp * (long long)H;
    ssam_conv2d_args a;
    memset(&a, 0, sizeof a);
    a.src = din; a.dst = dout; a.width = W; a.height = H; a.src_pitch = sp; a.dst_pitch = dp;
    a.weights = hwt; a.fw = k->M; a.fh = k->N; a.border = border; a.cval = cval; a.flags = flags;
    if (flags & SSAM_ANCHOR) { a.anchor_x = ax; a.anchor_y = ay; }
    double err[2] = {0, 0};
    for (int pass = 0; pass < (k->mode == 3 ? 2 : 1) && !check__failed_case; pass++) {
        CUDA_OK(cudaMemset(dout, 0xFF, (size_t)nout * es)); /* NaN poison */
        ssam_plan p;
        memset(&p, 0x5A, sizeof p);
        int rc = pass ? k->simt_plan(&a, &p) : k->plan(&a, &p);
        CHECK(rc == 0, "%s%s: plan rc %d (%s): %s", what, pass ? " (simt)" : "", rc, ssam_strerror(rc), p.why);
        /* the tensor-core path on this sm_80+ device; the twin: conv.cuh's walks */
        CHECK(rc || ((pass ? p.path == SSAM_PATH_QUEUED || p.path == SSAM_PATH_SYSTOLIC : p.path == SSAM_PATH_TC) &&
                     !plan_bad(&p, dout)), "%s%s: plan path %s, passes %lld, result %s dst: %s", what,
              pass ? " (simt)" : "", path_name(p.path), p.passes, p.result == dout ? "=" : "!=", p.why);
        if (!rc) rc = pass ? k->simt_run(&a, &p, 0) : k->run(&a, &p, 0);
        CHECK(rc == 0, "%s%s: run rc %d (%s)", what, pass ? " (simt)" : "", rc, ssam_strerror(rc));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hbuf, rc ? dout : p.result, (size_t)nout * es, cudaMemcpyDeviceToHost)); /* the answer */
        long long unw, over;
        const bnd_rule r = rule_of(k, pass);
        bnd_worst bw;
        /* the SIMT twin takes the operands as given */
        err[pass] = out_error(hbuf, k->mode, nout, odp, ow, oh, ref, mag, &r, pass ? ref : pref, pass ? NULL : pref2,
                              pass ? mag : pmag, &bw, &unw, &over);
        CHECK(unw == 0 && over == 0, "%s%s: %lld unwritten or NaN, %lld written outside the output", what,
              pass ? " (simt)" : "", unw, over);
        CHECK(bw.over == 0, "%s%s: %lld outputs past their own bound; the worst, (%lld, %lld): %.9g for %.9g, error "
              "%.3g of the bound %.3g", what, pass ? " (simt)" : "", bw.over, bw.at % ow, bw.at / ow, bw.got, bw.ref,
              bw.ratio, bw.bound);
        if (bw.at >= 0 && bw.ratio > worst_bound) {
            worst_bound = bw.ratio;
            snprintf(worst_where, sizeof worst_where, "%s%s %s", k->name, pass ? " (simt)" : "", what);
        }
    }
    double tol = tolerance(k->mode);
    CHECK(err[0] < tol, "%s: error / sum|w x| = %.3g (tolerance %.1g)", what, err[0], tol);
    if (k->mode == 3 && k->M * k->N >= 64 && W * H >= 64) {
        CHECK(err[0] <= 2 * err[1] + 1e-9, "%s: tf32x3 error %.3g > 2x the SIMT fp32 error %.3g", what, err[0], err[1]);
        if (err[1] > 1e-9 && err[0] / err[1] > worst_ratio) worst_ratio = err[0] / err[1];
    }
}

static void run_kernel(const kern *k, int light)
{
    static const int sizes[][2] = {{1, 1}, {31, 33}, {257, 190}, {1000, 3}, {3, 200}, {130, 67}, {304, 260}};
    const int nsizes = light ? 3 : (int)(sizeof sizes / sizeof *sizes);
    const size_t es = esz(k->mode), ws = wsz(k->mode);
    char name[160];
    snprintf(name, sizeof name, "ssam conv_tc %s (%dx%d %s): every border, valid, conv/corr, pitch, ragged sizes%s",
             k->name, k->M, k->N, mode_name(k->mode),
             k->M * k->N <= 24 && k->M * k->N > 1 ? ", every anchor" : "");
    if (!case_part(name)) return; /* --part: this part's kernels only */
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        const int W = sizes[si][0], H = sizes[si][1];
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            long long sp = pk ? W + 5 : W, dp = pk ? W + 3 : 0;
            size_t nin = (size_t)sp * H, nout = (size_t)(W + 3) * H;
            double *hin = (double *)malloc(nin * 8), *hw = (double *)malloc((size_t)k->M * k->N * 8);
            double *ref = (double *)malloc((size_t)W * H * 8), *mag = (double *)malloc((size_t)W * H * 8);
            void *hbuf = malloc((nin > nout ? nin : nout) * es), *hwt = malloc((size_t)k->M * k->N * ws);
            for (size_t i = 0; i < nin; i++) { /* the reference sees the stored values */
                put(hbuf, i, gpucheck_uniform(), k->mode);
                hin[i] = get(hbuf, i, k->mode);
            }
            for (int i = 0; i < k->M * k->N; i++) {
                put_w(hwt, (size_t)i, gpucheck_uniform(), k->mode);
                hw[i] = k->mode == 64 ? ((double *)hwt)[i] : ((float *)hwt)[i];
            }
            /* the operands as the tensor core takes them (f16, bf16: the weights; tf32: both) */
            const int hasseen = k->mode == 1 || k->mode >= 16;
            double *tin = NULL, *tin2 = NULL, *sw = (double *)malloc((size_t)k->M * k->N * 8);
            double *sref = (double *)malloc((size_t)W * H * 8), *sref2 = (double *)malloc((size_t)W * H * 8);
            double *smag = (double *)malloc((size_t)W * H * 8);
            for (int i = 0; i < k->M * k->N; i++) sw[i] = w_seen(hw[i], k->mode);
            if (k->mode == 1) {
                tin = (double *)malloc(nin * 8);
                tin2 = (double *)malloc(nin * 8);
                for (size_t i = 0; i < nin; i++) {
                    tin[i] = tf32_bits((float)hin[i], TF32_TRUNC);
                    tin2[i] = tf32_bits((float)hin[i], TF32_RNE);
                }
            }
            const seen sn = {tin ? tin : hin, tin2, sw, sref, sref2, smag};
            const seen *psn = hasseen ? &sn : NULL;
            void *din = NULL, *dout = NULL;
            CUDA_OK(cudaMalloc(&din, nin * es));
            CUDA_OK(cudaMalloc(&dout, nout * es));
            CUDA_OK(cudaMemcpy(din, hbuf, nin * es, cudaMemcpyHostToDevice));
            for (int mode = 0; mode < 6 && !check__failed_case; mode++)
                for (int conv = 0; conv < 2 && !check__failed_case; conv++) {
                    unsigned flags = (conv ? SSAM_CONVOLVE : 0u) | (mode == 5 ? SSAM_VALID : 0u);
                    int border = mode == 5 ? SSAM_BORDER_NEAREST : mode;
                    if (mode == 5 && (k->M > W || k->N > H)) continue;
                    char what[160];
                    snprintf(what, sizeof what, "%dx%d pitch %lld %s%s", W, H, sp,
                             mode == 5 ? "valid" : border_name[mode], conv ? " convolve" : "");
                    one(k, din, dout, hbuf, hin, W, H, sp, dp, hw, hwt, border, flags, 0, 0, ref, mag, psn, what);
                }
            /* every anchor of a small filter, two borders, on the middle size without pitch */
            if (si == 1 && pk == 0 && k->M * k->N <= 24 && k->M * k->N > 1)
                for (int border = 1; border < 5 && !check__failed_case; border += 3)
                    for (int ay = 0; ay < k->N && !check__failed_case; ay++)
                        for (int ax = 0; ax < k->M && !check__failed_case; ax++) {
                            char what[160];
                            snprintf(what, sizeof what, "%dx%d %s anchor (%d, %d)", W, H, border_name[border], ax, ay);
                            one(k, din, dout, hbuf, hin, W, H, sp, dp, hw, hwt, border, SSAM_ANCHOR | (ax & 1 ? SSAM_CONVOLVE : 0u),
                                ax, ay, ref, mag, psn, what);
                        }
            cudaFree(din);
            cudaFree(dout);
            free(hin); free(hw); free(ref); free(mag); free(hbuf); free(hwt);
            free(tin); free(tin2); free(sw); free(sref); free(sref2); free(smag);
        }
    }
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam conv_tc error codes are conv.cuh's, returned before any launch (nothing written)");
    double w[6] = {0}, *d = NULL;
    const size_t dbytes = 64 * 64 * 8;
    CUDA_OK(cudaMalloc(&d, dbytes));
    ssam_conv2d_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 32 * 64; a.width = 32; a.height = 16; a.weights = w; a.fw = 2; a.fh = 3;
    a.border = SSAM_BORDER_REFLECT;
    /* b = a, stmt, d2x3_plan: the code; refused: why, no passes, no result, and name_run of that plan,
     * name_launch of b (the code again) leave the poisoned buffer as it was; else the plan's head */
#define EXPECT(code, stmt)                                                                                   \
    do {                                                                                                     \
        b = a;                                                                                               \
        stmt;                                                                                                \
        ssam_plan p_;                                                                                        \
        memset(&p_, 0x5A, sizeof p_);                                                                        \
        const int pc_ = d2x3_plan(&b, &p_);                                                                  \
        CHECK(pc_ == (code), "%s: plan %d (%s), want %d", #stmt, pc_, ssam_strerror(pc_), code);            \
        if ((code) != 0) {                                                                                   \
            CHECK(!refusal_bad(&p_), "%s: the refused plan: why \"%s\", passes %lld", #stmt,                  \
                  p_.why ? p_.why : "(NULL)", p_.passes);                                                    \
            CUDA_OK(cudaMemset(d, 0xFF, dbytes));                                                           \
            const int rr_ = d2x3_run(&b, &p_, 0);                                                            \
            CHECK(rr_ == 0, "%s: name_run of a refused plan: %d", #stmt, rr_);                               \
            const int rc_ = d2x3_launch(&b, 0);                                                              \
            CHECK(rc_ == (code), "%s: launch %d (%s), want %d", #stmt, rc_, ssam_strerror(rc_), code);      \
            const long long ch_ = gpucheck_poison_changed(d, dbytes);                                        \
            CHECK(ch_ == 0, "%s: %lld bytes written by a refused plan or call", #stmt, ch_);                 \
        } else {                                                                                             \
            CHECK(p_.path == SSAM_PATH_TC && !plan_bad(&p_, b.dst), "%s: the plan (path %s, passes %lld, why "  \
                  "\"%s\")", #stmt, path_name(p_.path), p_.passes, p_.why);                                  \
            const int rc_ = d2x3_launch(&b, 0);                                                              \
            CHECK(rc_ == 0, "%s: launch %d (%s)", #stmt, rc_, ssam_strerror(rc_));                           \
        }                                                                                                    \
    } while (0)
    EXPECT(0, (void)0); /* valid arguments */
    CUDA_OK(cudaMemset(d, 0xFF, dbytes));
    CHECK(d2x3_launch(NULL, 0) == SSAM_ENULL, "NULL args");
    {
        ssam_plan p;
        memset(&p, 0x5A, sizeof p);
        CHECK(d2x3_plan(NULL, &p) == SSAM_ENULL && !refusal_bad(&p), "NULL args: the plan");
        CHECK(d2x3_plan(&a, NULL) == SSAM_ENULL, "NULL plan");
        CHECK(d2x3_plan(&a, &p) == 0 && d2x3_run(NULL, &p, 0) == SSAM_ENULL && d2x3_run(&a, NULL, 0) == SSAM_ENULL,
              "name_run: NULL args or plan");
    }
    CHECK(gpucheck_poison_changed(d, dbytes) == 0, "NULL args: the buffer written");
    EXPECT(SSAM_ENULL, b.src = NULL);
    EXPECT(SSAM_ENULL, b.dst = NULL);
    EXPECT(SSAM_ENULL, b.weights = NULL);
    EXPECT(SSAM_ESIZE, b.width = 0);
    EXPECT(SSAM_EPITCH, b.src_pitch = 31);
    EXPECT(SSAM_EBORDER, b.border = 5);
    EXPECT(SSAM_EFILTER, b.fw = 3);
    EXPECT(SSAM_EFLAGS, b.flags = 16);
    EXPECT(SSAM_ESIZE, (b.flags = SSAM_VALID, b.height = 2)); /* valid, filter taller */
    EXPECT(SSAM_EANCHOR, (b.flags = SSAM_ANCHOR, b.anchor_x = 2));
    EXPECT(SSAM_EANCHOR, b.anchor_y = 1); /* set without SSAM_ANCHOR */
    EXPECT(SSAM_ESIZE, (b.height = b.width = 1 << 30, b.src_pitch = 0)); /* 2^60 pixels: too many tiles */
    EXPECT(SSAM_EOVERLAP, b.dst = d);          /* in place */
    EXPECT(SSAM_EOVERLAP, b.dst = d + 511);    /* dst starts on src's last element */
    EXPECT(0, b.dst = d + 512);                /* right after src */
    EXPECT(SSAM_EOVERLAP, b.src = d + 2048 + 511); /* src starts on dst's last element */
#undef EXPECT
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);
    case_end();
}

/* name_run(a, p) (run) on the poisoned dst, the answer copied from p->result into h (bytes); its code */
static int run_at(run_fn run, const ssam_conv2d_args *a, const ssam_plan *p, void *h, size_t bytes)
{
    CUDA_OK(cudaMemset(a->dst, 0xFF, bytes));
    const int rc = run(a, p, 0);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h, rc || !p->result ? a->dst : p->result, bytes, cudaMemcpyDeviceToHost));
    return rc;
}

/* The plan's promise beyond every run's (one() goes through name_plan + name_run and reads the answer
 * at p.result): on one image per kernel, the tensor-core path and a why naming it; the answer at
 * p.result; name_launch gives name_run's bits; a plan switched to SSAM_PATH_SIMT runs the fallback
 * (name_simt_launch's bits), whose bits differ from the tensor cores' on at least one kernel (tf32
 * truncates its operands), or the test could not tell the paths apart. */
static void test_plan(void)
{
    case_begin("ssam conv_tc plan: the tensor-core path and why, result dst, name_launch = plan + run, "
               "SSAM_PATH_SIMT runs the fallback");
    static const char *names[] = {"t3x3", "d15x15", "x9x9", "h3x3", "b2x3"};
    const int W = 131, H = 67;
    const size_t n = (size_t)W * H;
    void *din = NULL, *dout = NULL;
    CUDA_OK(cudaMalloc(&din, n * 8));
    CUDA_OK(cudaMalloc(&dout, n * 8));
    double *hin = (double *)malloc(n * 8), *hw = (double *)malloc(225 * 8), *ref = (double *)malloc(n * 8),
           *mag = (double *)malloc(n * 8);
    void *hbuf = malloc(n * 8), *hwt = malloc(225 * 8), *hrun = malloc(n * 8);
    int told = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names && !check__failed_case; i++) {
        const kern *k = kernel_named(names[i]);
        CHECK(k != NULL, "no kernel %s", names[i]);
        if (!k) break;
        const size_t es = esz(k->mode), bytes = n * es;
        for (size_t j = 0; j < n; j++) {
            put(hbuf, j, gpucheck_uniform(), k->mode);
            hin[j] = get(hbuf, j, k->mode);
        }
        for (int j = 0; j < k->M * k->N; j++) {
            put_w(hwt, (size_t)j, gpucheck_uniform(), k->mode);
            hw[j] = k->mode == 64 ? ((double *)hwt)[j] : ((float *)hwt)[j];
        }
        CUDA_OK(cudaMemcpy(din, hbuf, bytes, cudaMemcpyHostToDevice));
        int ow, oh;
        ref_conv2d(hin, W, H, W, hw, k->M, k->N, SSAM_BORDER_MIRROR, 0, 0, (k->M - 1) / 2, (k->N - 1) / 2, ref, mag,
                   &ow, &oh);
        ssam_conv2d_args a;
        memset(&a, 0, sizeof a);
        a.src = din; a.dst = dout; a.width = W; a.height = H;
        a.weights = hwt; a.fw = k->M; a.fh = k->N; a.border = SSAM_BORDER_MIRROR;
        ssam_plan p, pf, ps;
        memset(&p, 0x5A, sizeof p);
        int rc = k->plan(&a, &p);
        CHECK(rc == 0 && p.path == SSAM_PATH_TC && !plan_bad(&p, dout) && strstr(p.why, "tensor cores"),
              "%s: plan %d, path %s, why \"%s\"", k->name, rc, path_name(p.path), rc ? "" : p.why);
        if (rc) break;
        rc = run_at(k->run, &a, &p, hrun, bytes);
        double num = 0, den = 0;
        long long unwritten = 0;
        for (size_t j = 0; j < n; j++) {
            const double v = get(hrun, j, k->mode);
            if (!isfinite(v)) { unwritten++; continue; }
            num += (v - ref[j]) * (v - ref[j]);
            den += mag[j] * mag[j];
        }
        const double err = den > 0 ? sqrt(num / den) : sqrt(num);
        CHECK(rc == 0 && unwritten == 0 && err < tolerance(k->mode), "%s: run %d, %lld unwritten, error / sum|w x| = "
              "%.3g", k->name, rc, unwritten, err);
        /* name_launch: name_run's bits */
        CUDA_OK(cudaMemset(dout, 0xFF, bytes));
        rc = k->launch(&a, 0);
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hbuf, dout, bytes, cudaMemcpyDeviceToHost));
        CHECK(rc == 0 && memcmp(hbuf, hrun, bytes) == 0, "%s: name_launch (%d) differs from name_plan + name_run",
              k->name, rc);
        /* the fallback's plan, and a plan switched to SSAM_PATH_SIMT: name_simt_launch's bits */
        rc = k->simt_plan(&a, &ps);
        CHECK(rc == 0 && (ps.path == SSAM_PATH_QUEUED || ps.path == SSAM_PATH_SYSTOLIC) && !plan_bad(&ps, dout),
              "%s: the fallback's plan %d, path %s", k->name, rc, path_name(ps.path));
        CUDA_OK(cudaMemset(dout, 0xFF, bytes));
        rc = k->simt(&a, 0);
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hbuf, dout, bytes, cudaMemcpyDeviceToHost));
        CHECK(rc == 0, "%s: name_simt_launch %d", k->name, rc);
        told += memcmp(hbuf, hrun, bytes) != 0; /* hbuf: the fallback's bits; hrun: the tensor cores' */
        pf = p;
        pf.path = SSAM_PATH_SIMT;
        CHECK(run_at(k->run, &a, &pf, hrun, bytes) == 0 && memcmp(hrun, hbuf, bytes) == 0,
              "%s: a plan switched to SSAM_PATH_SIMT differs from name_simt_launch's bits", k->name);
    }
    CHECK(told > 0, "the tensor cores and the SIMT fallback gave the same bits on every kernel: the paths are not "
          "told apart");
    cudaFree(din);
    cudaFree(dout);
    free(hin); free(hw); free(ref); free(mag); free(hbuf); free(hwt); free(hrun);
    case_end();
}

/* an Inf and a NaN in the image: every output whose taps read one is Inf or NaN, every other
 * output finite and correct (the band's zeros must not carry them to neighbours: 0 * Inf is NaN).
 * The tiles that meet them are computed again with plain FMAs of the weights as given, the others
 * on the tensor cores: the data and weights are values the tensor core takes as they are (TF32 or
 * the storage type), so that one reference serves both.  The output is poisoned with bytes 0x7B (a
 * large finite value in every type: an unwritten NaN or Inf cell, or an unwritten finite one, fails). */
static void run_nonfinite(const kern *k)
{
    char name[160];
    snprintf(name, sizeof name, "ssam conv_tc %s: an Inf and a NaN reach exactly the outputs that read them", k->name);
    if (!case_part(name)) return;
    const int W = 320, H = 100; /* a multiple of 8 wide: tiles inside the image take the 16-byte copy */
    const size_t n = (size_t)W * H, es = esz(k->mode), ws = wsz(k->mode);
    double *hin = (double *)malloc(n * 8), *hw = (double *)malloc((size_t)k->M * k->N * 8);
    double *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8);
    void *hbuf = malloc(n * es), *hwt = malloc((size_t)k->M * k->N * ws);
    const int tf = k->mode == 1 || k->mode == 3;
    for (size_t i = 0; i < n; i++) {
        const double u = gpucheck_uniform();
        put(hbuf, i, tf ? tf32_bits((float)u, TF32_RNE) : u, k->mode);
        hin[i] = get(hbuf, i, k->mode);
    }
    put(hbuf, 30 * W + 40, NAN, k->mode);
    put(hbuf, 45 * W + 160, INFINITY, k->mode); /* inside the image: the 16-byte copy's tiles */
    hin[30 * W + 40] = NAN;
    hin[45 * W + 160] = INFINITY;
    for (int i = 0; i < k->M * k->N; i++) { /* no zero weight: a tap that reads Inf gives Inf */
        const double u = 0.25 + 0.5 * fabs(gpucheck_uniform());
        put_w(hwt, (size_t)i, tf ? tf32_bits((float)u, TF32_RNE) : w_seen(u, k->mode), k->mode);
        hw[i] = k->mode == 64 ? ((double *)hwt)[i] : ((float *)hwt)[i];
    }
    int ow, oh;
    ref_conv2d(hin, W, H, W, hw, k->M, k->N, SSAM_BORDER_NEAREST, 0, 0, (k->M - 1) / 2, (k->N - 1) / 2, ref, mag, &ow, &oh);
    void *din = NULL, *dout = NULL;
    CUDA_OK(cudaMalloc(&din, n * es));
    CUDA_OK(cudaMalloc(&dout, n * es));
    CUDA_OK(cudaMemcpy(din, hbuf, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dout, 0x7B, n * es));
    ssam_conv2d_args a;
    memset(&a, 0, sizeof a);
    a.src = din; a.dst = dout; a.width = W; a.height = H; a.weights = hwt; a.fw = k->M; a.fh = k->N;
    a.border = SSAM_BORDER_NEAREST;
    CHECK(k->launch(&a, 0) == 0, "launch");
    CUDA_OK(cudaMemcpy(hbuf, dout, n * es, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaDeviceSynchronize());
    long long wrong = 0, nonfinite = 0;
    double num = 0, den = 0;
    const bnd_rule r = rule_of(k, 0);
    bnd_worst bw;
    bnd_init(&bw);
    for (size_t i = 0; i < n; i++) {
        double v = get(hbuf, i, k->mode);
        nonfinite += !isfinite(ref[i]);
        if (isfinite(v) != isfinite(ref[i]) || (isnan(v) != isnan(ref[i])) || (isinf(v) && v != ref[i])) wrong++;
        else if (isfinite(v)) {
            num += (v - ref[i]) * (v - ref[i]);
            den += mag[i] * mag[i];
            bnd_track(&bw, (long long)i, v, ref[i], bnd_of(&r, ref[i], mag[i]));
        }
    }
    double err = sqrt(num / den), tol = tolerance(k->mode);
    CHECK(wrong == 0 && nonfinite > 0, "%lld outputs differ in finiteness from the reference (%lld non-finite expected)",
          wrong, nonfinite);
    CHECK(err < tol, "finite outputs: error / sum|w x| = %.3g", err);
    CHECK(bw.over == 0, "%lld finite outputs past their own bound; the worst, (%lld, %lld): %.9g for %.9g, error %.3g of "
          "the bound %.3g", bw.over, bw.at % W, bw.at / W, bw.got, bw.ref, bw.ratio, bw.bound);
    cudaFree(din);
    cudaFree(dout);
    free(hin); free(hw); free(ref); free(mag); free(hbuf); free(hwt);
    case_end();
}

/* usage: test_ssam_conv_tc [--light] [--seed N]   (--light: small sizes only, for compute-sanitizer) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const size_t nk = sizeof kernels / sizeof *kernels;
    for (size_t i = 0; i < nk; i++) {
        kern *k = &kernels[i];
        if (sscanf(k->name + 1, "%dx%d", &k->M, &k->N) != 2) return 2; /* the name says the filter */
    }
    check_plan(2 + 2 * (int)nk); /* the error codes, the plan, every kernel, every kernel's Inf and NaN */
    test_errors();
    test_plan();
    for (size_t i = 0; i < nk; i++) run_kernel(&kernels[i], light);
    for (size_t i = 0; i < nk; i++) run_nonfinite(&kernels[i]);
    if (worst_ratio > 0) printf("info: tf32x3 error / SIMT fp32 error, the largest: %.2f\n", worst_ratio);
    if (worst_bound > 0) printf("info: the largest error / per-element bound: %.3g (%s)\n", worst_bound, worst_where);
    return check_exit();
}
