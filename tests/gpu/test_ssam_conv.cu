/* tests/gpu/test_ssam_conv.cu -- ssam/conv.cuh against a CPU reference in double: square and
 * non-square filters from 1x1 to 20x20 and wider than a warp (33 columns), float and double, half
 * and bf16 storage (T __half / __nv_bfloat16: fp32 math, the bound of the stored output), 1D,
 * images from 1x1 to ragged sizes, pitch larger than the width (aligned and not), every border mode,
 * 'valid', correlation and convolution; outputs and the padding past the width poisoned first;
 * both walks (the queued walk of small filters, and SSAM_SYSTOLIC_WALK); every error code; a placed
 * anchor (SSAM_ANCHOR): every position of 3x3, 4x4 and 2x3 filters, for
 * correlation and convolution, and the centre placed by hand equal bit for bit to the default.
 * Error measures, both on every run:
 *   the norm  ||out - ref|| / ||sum |w x| || (fp32 < 1e-5, fp64 < 1e-12, half < 1e-3, bf16 < 8e-3): the
 *             scale of rounding, which ||ref|| is not when a sum cancels (a 1x1 image under a 20x20 filter);
 *   each output on its own (bounds_conv.h): |out - ref| <= 3 (K + 1) u mag + u_out (|ref| + ...) with
 *             mag = sum |w x| of that output, K = M N taps, u the arithmetic's unit roundoff (2^-24
 *             float and the half types' FP32 sums, 2^-53 double), u_out the stored output's rounding
 *             (half 2^-11 with 2^-25 below its normal range, bf16 2^-8; an eighth to spare): a wrong
 *             cell among right ones fails, which the norm over an image does not see.
 * The error codes return before anything is written: the buffer is poisoned before each failing
 * call and must be unchanged after it; a refused plan names why, has no passes and launches nothing.
 * The plan (name_plan): every run of every kernel goes through name_plan + name_run, with the walk the
 * rule names (walk_of) and the answer read at p.result (= dst); the walks told apart bit for bit:
 * name_launch gives name_run's bits, a plan naming the systolic walk gives the bits of
 * SSAM_SYSTOLIC_WALK, a plan naming the queued walk those of a queued plan. */
#include <ssam/conv.cuh>

#include "gpucheck.h"
#include "ssam_ref.h" /* ref_index, ref_conv2d: the CPU references */
#include "bounds_conv.h" /* the per-element bound */

SSAM_CONV2D_DEFINE(f1x1, float, 1, 1, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(f2x2, float, 2, 2, ssam_conv_policy<8, 128>)
SSAM_CONV2D_DEFINE(f3x3, float, 3, 3, ssam_conv_policy<8, 128>)
SSAM_CONV2D_DEFINE(f4x4, float, 4, 4, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(f2x3, float, 2, 3, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(f5x5, float, 5, 5, ssam_conv_policy<8, 256>)
SSAM_CONV2D_DEFINE(f9x1, float, 9, 1, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(f1x9, float, 1, 9, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(f7x3, float, 7, 3, ssam_conv_policy<4, 64>)
SSAM_CONV2D_DEFINE(f3x7, float, 3, 7, ssam_conv_policy<2, 128>)
SSAM_CONV2D_DEFINE(f9x9, float, 9, 9, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(f20x20, float, 20, 20, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(f33x5, float, 33, 5, ssam_conv_policy<2, 128>)
SSAM_CONV2D_DEFINE(d1x1, double, 1, 1, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(d3x3, double, 3, 3, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(d2x3, double, 2, 3, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(d4x6, double, 4, 6, ssam_conv_policy<2, 96>)
SSAM_CONV2D_DEFINE(d20x20, double, 20, 20, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(f1d9, float, 9, 1, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(d1d15, double, 15, 1, ssam_conv_policy<1, 64>)
SSAM_CONV2D_DEFINE(h3x3, __half, 3, 3, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(h5x5, __half, 5, 5, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(h2x3, __half, 2, 3, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(h20x20, __half, 20, 20, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(b3x3, __nv_bfloat16, 3, 3, ssam_conv_policy<4, 128>)

typedef int (*launch_fn)(const ssam_conv2d_args *, cudaStream_t);
typedef int (*plan_fn)(const ssam_conv2d_args *, ssam_plan *);
typedef int (*run_fn)(const ssam_conv2d_args *, const ssam_plan *, cudaStream_t);
typedef struct kern {
    const char *name;
    launch_fn launch;
    plan_fn plan;
    run_fn run;
    int M, N, type; /* 0 float, 1 double, 2 half (__half storage, float math), 3 bf16 */
} kern;
#define K(label, n, M, N, type) {label, n##_launch, n##_plan, n##_run, M, N, type}

static const kern kernels[] = {
    K("float 1x1", f1x1, 1, 1, 0),       K("float 2x2", f2x2, 2, 2, 0),
    K("float 3x3", f3x3, 3, 3, 0),       K("float 5x5", f5x5, 5, 5, 0),
    K("float 4x4", f4x4, 4, 4, 0),       K("float 2x3", f2x3, 2, 3, 0),
    K("float 9x1", f9x1, 9, 1, 0),       K("float 1x9", f1x9, 1, 9, 0),
    K("float 7x3", f7x3, 7, 3, 0),       K("float 3x7", f3x7, 3, 7, 0),
    K("float 9x9", f9x9, 9, 9, 0),       K("float 20x20", f20x20, 20, 20, 0),
    K("float 33x5", f33x5, 33, 5, 0),    K("float 1D 9", f1d9, 9, 1, 0),
    K("double 1x1", d1x1, 1, 1, 1),      K("double 3x3", d3x3, 3, 3, 1),
    K("double 4x6", d4x6, 4, 6, 1),      K("double 20x20", d20x20, 20, 20, 1),
    K("double 2x3", d2x3, 2, 3, 1),
    K("double 1D 15", d1d15, 15, 1, 1),
    K("half 3x3", h3x3, 3, 3, 2),        K("half 5x5", h5x5, 5, 5, 2),
    K("half 2x3", h2x3, 2, 3, 2),        K("half 20x20", h20x20, 20, 20, 2),
    K("bf16 3x3", b3x3, 3, 3, 3),
};
#undef K
static const kern *kernel_named(const char *name)
{
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
        if (!strcmp(kernels[i].name, name)) return &kernels[i];
    return NULL;
}

/* the walk of the documented rule (docs/ssam.md, the queued walk): queued for half / bf16 filters up
 * to 9x9 and float ones from 25 taps up to 7x7, with the anchor's column (ax, flipped by
 * SSAM_CONVOLVE) the centre (M-1)/2, neither SSAM_VALID nor SSAM_SYSTOLIC_WALK; else systolic */
static int walk_of(const kern *k, unsigned flags, int ax)
{
    const int small = k->type >= 2 ? k->M <= 9 && k->N <= 9
                                   : k->type == 0 && k->M <= 7 && k->N <= 7 && k->M * k->N >= 25;
    const int cx = (flags & SSAM_CONVOLVE) ? k->M - 1 - ax : ax;
    return small && !(flags & (SSAM_VALID | SSAM_SYSTOLIC_WALK)) && cx == (k->M - 1) / 2 ? SSAM_PATH_QUEUED
                                                                                       : SSAM_PATH_SYSTOLIC;
}
static const char *path_name(int path)
{
    return path == SSAM_PATH_QUEUED ? "queued" : path == SSAM_PATH_SYSTOLIC ? "systolic" : "no path";
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

/* the element types: size, a value stored (rounded to the type; returns what was stored), read
 * back, the weights' type (double for double, float otherwise), and the error bound: rounding of
 * the arithmetic (float, double) or of the stored output (half 2^-11, bf16 2^-8 of |out|) */
static size_t elem_size(const kern *k) { return k->type == 1 ? 8 : k->type == 0 ? 4 : 2; }
static double put_elem(const kern *k, void *buf, size_t i, double v)
{
    switch (k->type) {
    case 1: ((double *)buf)[i] = v; return v;
    case 0: ((float *)buf)[i] = (float)v; return (float)v;
    case 2: ((__half *)buf)[i] = __float2half((float)v); return __half2float(((__half *)buf)[i]);
    default: ((__nv_bfloat16 *)buf)[i] = __float2bfloat16((float)v); return __bfloat162float(((__nv_bfloat16 *)buf)[i]);
    }
}
static double get_elem(const kern *k, const void *buf, size_t i)
{
    switch (k->type) {
    case 1: return ((const double *)buf)[i];
    case 0: return ((const float *)buf)[i];
    case 2: return __half2float(((const __half *)buf)[i]);
    default: return __bfloat162float(((const __nv_bfloat16 *)buf)[i]);
    }
}
static double put_weight(const kern *k, void *buf, int i, double v)
{
    if (k->type == 1) return ((double *)buf)[i] = v;
    return ((float *)buf)[i] = (float)v;
}
static double tol_of(const kern *k) { return k->type == 1 ? 1e-12 : k->type == 0 ? 1e-5 : k->type == 2 ? 1e-3 : 8e-3; }
/* the per-element rule of a kernel: fma sums in T (float for the half types), one rounding a tap
 * (3 to spare: a product and its add, and double's own reference), the output rounded once to
 * the storage type */
static bnd_rule rule_of(const kern *k)
{
    bnd_rule r = {0, k->type == 1 ? 0x1p-53 : 0x1p-24, 3, 0, 0, k->M * k->N};
    if (k->type == 2) { r.u_out = 1.125 * 0x1p-11; r.abs_out = 0x1p-25; }
    if (k->type == 3) r.u_out = 1.125 * 0x1p-8;
    return r;
}
static double worst_seen = 0;      /* the largest error / per-element bound over the program */
static char worst_where[160] = ""; /* and where */
static void note_worst(const bnd_worst *w, const char *kname, int W, int H)
{
    if (w->at >= 0 && w->ratio > worst_seen) {
        worst_seen = w->ratio;
        snprintf(worst_where, sizeof worst_where, "%s %dx%d", kname, W, H);
    }
}


static const char *border_name[] = {"constant", "nearest", "reflect", "mirror", "wrap"};

/* one kernel over every size, pitch, border, mode and flip */
static void run_kernel(const kern *k, int light)
{
    static const int sizes[][2] = {{1, 1}, {31, 33}, {1000, 3}, {3, 200}, {257, 190}, {130, 67}, {530, 21}};
    int nsizes = light ? 3 : (int)(sizeof sizes / sizeof *sizes);
    char name[128];
    snprintf(name, sizeof name, "ssam conv %s: every border, valid, conv/corr, pitch, ragged sizes", k->name);
    if (!case_part(name)) return; /* --part: this part's kernels only */
    size_t es = elem_size(k);
    double tol = tol_of(k);
    const bnd_rule rule = rule_of(k);
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        int W = sizes[si][0], H = sizes[si][1];
        for (int pk = 0; pk < 2 && !check__failed_case; pk++) {
            /* pk 0: pitch = width; pk 1: a larger pitch (odd: no 16-byte loads) */
            long long sp = pk ? W + 5 : W, dp = pk ? W + 3 : W;
            size_t nin = (size_t)sp * H, nout = (size_t)dp * H;
            double *hin = (double *)malloc(nin * 8), *hw = (double *)malloc((size_t)k->M * k->N * 8);
            double *ref = (double *)malloc((size_t)W * H * 8), *mag = (double *)malloc((size_t)W * H * 8);
            void *hbuf = malloc((nin > nout ? nin : nout) * 8), *hwt = malloc((size_t)k->M * k->N * 8);
            for (size_t i = 0; i < nin; i++) hin[i] = gpucheck_uniform();
            for (int i = 0; i < k->M * k->N; i++) hw[i] = gpucheck_uniform();
            /* the reference sees what the GPU sees: inputs rounded to the element type */
            for (size_t i = 0; i < nin; i++) hin[i] = put_elem(k, hbuf, i, hin[i]);
            for (int i = 0; i < k->M * k->N; i++) hw[i] = put_weight(k, hwt, i, hw[i]);
            void *din = NULL, *dout = NULL;
            CUDA_OK(cudaMalloc(&din, nin * es));
            CUDA_OK(cudaMalloc(&dout, nout * es));
            CUDA_OK(cudaMemcpy(din, hbuf, nin * es, cudaMemcpyHostToDevice));
            for (int mode = 0; mode < 6 && !check__failed_case; mode++) { /* 5 borders, then valid */
                for (int cw = 0; cw < 4 && !check__failed_case; cw++) { /* conv/corr x queued/systolic walk */
                    const int conv = cw & 1, walk = cw >> 1;
                    unsigned flags = (conv ? SSAM_CONVOLVE : 0u) | (mode == 5 ? SSAM_VALID : 0u) | (walk ? SSAM_SYSTOLIC_WALK : 0u);
                    int border = mode == 5 ? SSAM_BORDER_NEAREST : mode;
                    if (mode == 5 && (k->M > W || k->N > H)) continue;
                    double cval = 0.375;
                    int ow, oh;
                    ref_conv2d(hin, W, H, sp, hw, k->M, k->N, border, cval, flags, (k->M - 1) / 2, (k->N - 1) / 2, ref,
                              mag, &ow, &oh);
                    long long odp = (mode == 5 && pk == 0) ? ow : dp; /* valid, pitch 0: the output width */
                    CUDA_OK(cudaMemset(dout, 0xFF, nout * es)); /* NaN poison */
                    ssam_conv2d_args a;
                    memset(&a, 0, sizeof a);
                    a.src = din; a.dst = dout; a.width = W; a.height = H;
                    a.src_pitch = sp; a.dst_pitch = pk ? dp : 0;
                    a.weights = hwt; a.fw = k->M; a.fh = k->N;
                    a.border = border; a.cval = cval; a.flags = flags;
                    ssam_plan p;
                    memset(&p, 0x5A, sizeof p);
                    int rc = k->plan(&a, &p);
                    CHECK(rc == 0, "plan rc %d (%s): %s", rc, ssam_strerror(rc), p.why);
                    const int want = walk_of(k, flags, (k->M - 1) / 2);
                    CHECK(rc || (p.path == want && !plan_bad(&p, dout)), "%dx%d %s%s%s: plan path %s (want %s), "
                          "passes %lld, result %s dst: %s", W, H, mode == 5 ? "valid" : border_name[mode],
                          conv ? " convolve" : "", walk ? " systolic walk" : "", path_name(p.path), path_name(want),
                          p.passes, p.result == dout ? "=" : "!=", p.why);
                    if (!rc) rc = k->run(&a, &p, 0);
                    CHECK(rc == 0, "run rc %d (%s)", rc, ssam_strerror(rc));
                    CUDA_OK(cudaDeviceSynchronize());
                    CUDA_OK(cudaMemcpy(hbuf, rc ? dout : p.result, nout * es, cudaMemcpyDeviceToHost)); /* the answer */
                    double num = 0, den = 0;
                    long long unwritten = 0, overwritten = 0;
                    bnd_worst bw;
                    bnd_init(&bw);
                    for (long long i = 0; i < (long long)nout; i++) {
                        long long y = i / odp, x = i % odp;
                        double v = get_elem(k, hbuf, (size_t)i);
                        if (y < oh && x < ow) {
                            if (!isfinite(v)) { unwritten++; continue; }
                            double r = ref[y * ow + x];
                            num += (v - r) * (v - r);
                            den += mag[y * ow + x] * mag[y * ow + x];
                            bnd_track(&bw, y * ow + x, v, r, bnd_of(&rule, r, mag[y * ow + x]));
                        } else if (!isnan(v)) overwritten++; /* padding and rows past the output */
                    }
                    double err = den > 0 ? sqrt(num / den) : sqrt(num);
                    note_worst(&bw, k->name, W, H);
                    CHECK(unwritten == 0 && overwritten == 0, "%dx%d pitch %lld %s%s%s: %lld unwritten, %lld written "
                          "outside the output", W, H, sp, mode == 5 ? "valid" : border_name[mode],
                          conv ? " convolve" : "", walk ? " systolic walk" : "", unwritten, overwritten);
                    CHECK(err < tol, "%dx%d pitch %lld %s%s%s: error / sum|w x| = %.3g", W, H, sp,
                          mode == 5 ? "valid" : border_name[mode], conv ? " convolve" : "", walk ? " systolic walk" : "", err);
                    CHECK(bw.over == 0, "%dx%d pitch %lld %s%s%s: %lld outputs past their own bound; the worst, (%lld, %lld): "
                          "%.9g for %.9g, error %.3g of the bound %.3g", W, H, sp, mode == 5 ? "valid" : border_name[mode],
                          conv ? " convolve" : "", walk ? " systolic walk" : "", bw.over, bw.at % ow, bw.at / ow, bw.got,
                          bw.ref, bw.ratio, bw.bound);
                }
            }
            cudaFree(din);
            cudaFree(dout);
            free(hin); free(hw); free(ref); free(mag); free(hbuf); free(hwt);
        }
    }
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam conv error codes are returned before any launch (nothing written)");
    float w[9] = {0}, *d = NULL;
    const size_t dbytes = 64 * 64 * 4;
    CUDA_OK(cudaMalloc(&d, dbytes));
    ssam_conv2d_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 32 * 64; a.width = 32; a.height = 16; a.weights = w; a.fw = 3; a.fh = 3;
    a.border = SSAM_BORDER_REFLECT;
    /* b = a, stmt, name_plan: the code; refused: why, no passes, no result, and name_run of that plan,
     * name_launch of b (the code again) leave the poisoned buffer as it was; else the plan's head */
#define EXPECT(code, name, stmt)                                                                             \
    do {                                                                                                     \
        b = a;                                                                                               \
        stmt;                                                                                                \
        ssam_plan p_;                                                                                        \
        memset(&p_, 0x5A, sizeof p_);                                                                        \
        const int pc_ = name##_plan(&b, &p_);                                                                \
        CHECK(pc_ == (code), "%s (%s): plan %d (%s), want %d", #stmt, #name, pc_, ssam_strerror(pc_), code); \
        if ((code) != 0) {                                                                                   \
            CHECK(!refusal_bad(&p_), "%s (%s): the refused plan: why \"%s\", passes %lld", #stmt, #name,      \
                  p_.why ? p_.why : "(NULL)", p_.passes);                                                    \
            CUDA_OK(cudaMemset(d, 0xFF, dbytes));                                                           \
            const int rr_ = name##_run(&b, &p_, 0);                                                          \
            CHECK(rr_ == 0, "%s (%s): name_run of a refused plan: %d", #stmt, #name, rr_);                   \
            const int rc_ = name##_launch(&b, 0);                                                            \
            CHECK(rc_ == (code), "%s (%s): launch %d (%s), want %d", #stmt, #name, rc_, ssam_strerror(rc_), code); \
            const long long ch_ = gpucheck_poison_changed(d, dbytes);                                        \
            CHECK(ch_ == 0, "%s (%s): %lld bytes written by a refused plan or call", #stmt, #name, ch_);     \
        } else {                                                                                             \
            CHECK(!plan_bad(&p_, b.dst), "%s (%s): the plan's head (passes %lld, why \"%s\")", #stmt, #name,  \
                  p_.passes, p_.why);                                                                        \
            const int rc_ = name##_launch(&b, 0);                                                            \
            CHECK(rc_ == 0, "%s (%s): launch %d (%s)", #stmt, #name, rc_, ssam_strerror(rc_));               \
        }                                                                                                    \
    } while (0)
    EXPECT(0, f3x3, (void)0); /* valid arguments */
    CUDA_OK(cudaMemset(d, 0xFF, dbytes));
    CHECK(f3x3_launch(NULL, 0) == SSAM_ENULL && h3x3_launch(NULL, 0) == SSAM_ENULL, "NULL args");
    {
        ssam_plan p;
        memset(&p, 0x5A, sizeof p);
        CHECK(f3x3_plan(NULL, &p) == SSAM_ENULL && !refusal_bad(&p), "NULL args: the plan");
        CHECK(f3x3_plan(&a, NULL) == SSAM_ENULL, "NULL plan");
        CHECK(f3x3_plan(&a, &p) == 0 && f3x3_run(NULL, &p, 0) == SSAM_ENULL && f3x3_run(&a, NULL, 0) == SSAM_ENULL,
              "name_run: NULL args or plan");
    }
    CHECK(gpucheck_poison_changed(d, dbytes) == 0, "NULL args: the buffer written");
    EXPECT(SSAM_ENULL, f3x3, b.src = NULL);
    EXPECT(SSAM_ENULL, f3x3, b.dst = NULL);
    EXPECT(SSAM_ENULL, f3x3, b.weights = NULL);
    EXPECT(SSAM_ESIZE, f3x3, b.width = 0);
    EXPECT(SSAM_ESIZE, f3x3, b.height = -2);
    EXPECT(SSAM_EPITCH, f3x3, b.src_pitch = 31);
    EXPECT(SSAM_EPITCH, f3x3, b.dst_pitch = 8);
    EXPECT(SSAM_EBORDER, f3x3, b.border = 5);
    EXPECT(SSAM_EBORDER, f3x3, b.border = -1);
    EXPECT(SSAM_EFILTER, f3x3, b.fw = 5);
    EXPECT(SSAM_EFILTER, f3x3, b.fh = 1);
    EXPECT(SSAM_EFLAGS, f3x3, b.flags = 16);
    EXPECT(SSAM_ESIZE, f3x3, (b.flags = SSAM_VALID, b.width = 2)); /* valid, filter wider */
    EXPECT(0, f3x3, (b.flags = SSAM_VALID, b.border = 99));       /* valid ignores the border */
    EXPECT(0, f3x3, (b.flags = SSAM_ANCHOR, b.anchor_x = 2, b.anchor_y = 0));
    EXPECT(SSAM_EANCHOR, f3x3, (b.flags = SSAM_ANCHOR, b.anchor_x = 3));
    EXPECT(SSAM_EANCHOR, f3x3, (b.flags = SSAM_ANCHOR, b.anchor_x = -1));
    EXPECT(SSAM_EANCHOR, f3x3, (b.flags = SSAM_ANCHOR, b.anchor_y = 3));
    EXPECT(SSAM_EANCHOR, f3x3, (b.flags = SSAM_ANCHOR, b.anchor_y = -2));
    EXPECT(SSAM_EANCHOR, f3x3, (b.flags = SSAM_ANCHOR | SSAM_CONVOLVE, b.anchor_x = 3));
    EXPECT(SSAM_EANCHOR, f3x3, b.flags = SSAM_ANCHOR | SSAM_VALID);
    EXPECT(SSAM_EANCHOR, f3x3, b.anchor_x = 1); /* set without SSAM_ANCHOR */
    EXPECT(SSAM_EANCHOR, f3x3, b.anchor_y = 2);
    EXPECT(SSAM_EFILTER, f3x3, (b.flags = SSAM_ANCHOR, b.anchor_x = 7, b.fw = 5)); /* filter before anchor */
    /* overlap: the bytes each image spans, rows times pitch (src 16 rows of pitch 64: 15 * 64 + 32) */
    EXPECT(SSAM_EOVERLAP, f3x3, b.dst = d); /* in place */
    EXPECT(SSAM_EOVERLAP, h3x3, b.dst = d);
    EXPECT(SSAM_EOVERLAP, f3x3, b.dst = d + 511); /* dst starts on src's last element */
    EXPECT(0, f3x3, b.dst = d + 512);             /* right after src */
    EXPECT(SSAM_EOVERLAP, f3x3, (b.src_pitch = 64, b.dst = d + 991)); /* inside the pitched span */
    EXPECT(0, f3x3, (b.src_pitch = 64, b.dst = d + 992));
    EXPECT(SSAM_EOVERLAP, f3x3, b.src = d + 2048 + 511); /* src starts on dst's last element */
    EXPECT(0, f3x3, b.src = d + 2048 + 512);
    /* the valid output (30 x 14) ending on src's last element, and right after src */
    EXPECT(SSAM_EOVERLAP, f3x3, (b.flags = SSAM_VALID, b.dst = d + 32 * 16 - 14 * 30));
    EXPECT(0, f3x3, (b.flags = SSAM_VALID, b.dst = d + 32 * 16));
#undef EXPECT
    CHECK(strstr(ssam_strerror(SSAM_EOVERLAP), "overlap") != NULL, "strerror overlap");
    CHECK(strstr(ssam_strerror(SSAM_EANCHOR), "anchor") != NULL, "strerror anchor");
    CHECK(strstr(ssam_strerror(SSAM_EPITCH), "pitch") != NULL && strstr(ssam_strerror(77), "unknown"), "strerror");
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);
    case_end();
}

/* name_run(a, p) on the poisoned dst, the answer copied from p->result into h (bytes); its code */
static int run_at(const kern *k, const ssam_conv2d_args *a, const ssam_plan *p, void *h, size_t bytes)
{
    CUDA_OK(cudaMemset(a->dst, 0xFF, bytes));
    const int rc = k->run(a, p, 0);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h, rc || !p->result ? a->dst : p->result, bytes, cudaMemcpyDeviceToHost));
    return rc;
}

/* The plan's promise beyond every run's (run_kernel and run_anchor go through name_plan + name_run
 * with the rule's walk and read the answer at p.result): the rule on the arguments that decide it,
 * with a why that names it; and on one image per kernel the walk named is the walk taken, told apart
 * bit for bit: name_launch gives name_run's bits; a systolic plan gives SSAM_SYSTOLIC_WALK's; a plan
 * switched to the other walk gives that walk's (a queued plan given the arguments with
 * SSAM_SYSTOLIC_WALK gives the queued bits; a queued plan of a filter without the queued walk runs
 * the systolic one); the queued bits differ from the systolic ones (the walks sum in other orders) on
 * at least one kernel, or the test could not tell them apart. */
static void test_plan(int light)
{
    case_begin("ssam conv plan: the rule's walk and why, result dst, name_launch = plan + run, the walk named runs");
    float w[400] = {0}, *d = NULL;
    CUDA_OK(cudaMalloc(&d, 64 * 64 * 4));
    ssam_conv2d_args a, b;
    memset(&a, 0, sizeof a);
    a.src = d; a.dst = d + 32 * 64; a.width = 32; a.height = 16; a.weights = w; a.fw = 3; a.fh = 3;
    a.border = SSAM_BORDER_REFLECT;
    /* b = a, stmt: name_plan's walk, the plan's head, and a why that names the rule (word) */
#define WALK(name, want, word, stmt)                                                                         \
    do {                                                                                                     \
        ssam_plan p_;                                                                                        \
        b = a;                                                                                               \
        stmt;                                                                                                \
        memset(&p_, 0x5A, sizeof p_);                                                                        \
        const int rc_ = name##_plan(&b, &p_);                                                                \
        CHECK(rc_ == 0 && p_.path == (want) && !plan_bad(&p_, b.dst) && strstr(p_.why, word),                \
              "%s (%s): plan %d, path %s, want %s, why \"%s\" (naming %s)", #stmt, #name, rc_,                 \
              path_name(p_.path), path_name(want), p_.why, word);                                           \
    } while (0)
    WALK(h3x3, SSAM_PATH_QUEUED, "queued", (void)0);
    WALK(b3x3, SSAM_PATH_QUEUED, "queued", (void)0);
    WALK(f5x5, SSAM_PATH_QUEUED, "queued", (b.fw = b.fh = 5));
    WALK(h5x5, SSAM_PATH_QUEUED, "queued", (b.fw = b.fh = 5));
    WALK(f3x3, SSAM_PATH_SYSTOLIC, "filter", (void)0); /* not among the queued walk's filters */
    WALK(d3x3, SSAM_PATH_SYSTOLIC, "filter", (void)0);
    WALK(h20x20, SSAM_PATH_SYSTOLIC, "filter", (b.fw = b.fh = 20));
    WALK(h3x3, SSAM_PATH_SYSTOLIC, "SSAM_SYSTOLIC_WALK", b.flags = SSAM_SYSTOLIC_WALK);
    WALK(f3x3, SSAM_PATH_SYSTOLIC, "filter", b.flags = SSAM_SYSTOLIC_WALK);
    WALK(h3x3, SSAM_PATH_SYSTOLIC, "SSAM_VALID", b.flags = SSAM_VALID);
    WALK(h3x3, SSAM_PATH_SYSTOLIC, "anchor", (b.flags = SSAM_ANCHOR, b.anchor_x = 0, b.anchor_y = 1));
    WALK(h3x3, SSAM_PATH_QUEUED, "queued", (b.flags = SSAM_ANCHOR, b.anchor_x = 1, b.anchor_y = 0));
    WALK(h2x3, SSAM_PATH_QUEUED, "queued", (b.fw = 2, b.fh = 3)); /* the centre column of 2: 0 */
    WALK(h2x3, SSAM_PATH_SYSTOLIC, "anchor", (b.fw = 2, b.fh = 3, b.flags = SSAM_CONVOLVE)); /* flipped: 1 */
#undef WALK
    b = a;
    b.flags = SSAM_SYSTOLIC_WALK;
    CHECK(f3x3_launch(&b, 0) == 0, "float 3x3 with SSAM_SYSTOLIC_WALK: launch");
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);

    static const char *names[] = {"float 5x5", "half 3x3", "half 5x5", "half 2x3", "bf16 3x3",
                                  "float 3x3", "double 3x3", "half 20x20"};
    const int W = light ? 67 : 257, H = light ? 45 : 190;
    const size_t n = (size_t)W * H;
    void *din = NULL, *dout = NULL;
    CUDA_OK(cudaMalloc(&din, n * 8));
    CUDA_OK(cudaMalloc(&dout, n * 8));
    double *hin = (double *)malloc(n * 8), *hw = (double *)malloc(400 * 8), *ref = (double *)malloc(n * 8),
           *mag = (double *)malloc(n * 8);
    void *hbuf = malloc(n * 8), *hwt = malloc(400 * 8), *hrun = malloc(n * 8), *hsys = malloc(n * 8);
    int told = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names && !check__failed_case; i++) {
        const kern *k = kernel_named(names[i]);
        CHECK(k != NULL, "no kernel %s", names[i]);
        if (!k) break;
        const size_t es = elem_size(k), bytes = n * es;
        for (size_t j = 0; j < n; j++) hin[j] = put_elem(k, hbuf, j, gpucheck_uniform());
        for (int j = 0; j < k->M * k->N; j++) hw[j] = put_weight(k, hwt, j, gpucheck_uniform());
        CUDA_OK(cudaMemcpy(din, hbuf, bytes, cudaMemcpyHostToDevice));
        int ow, oh;
        ref_conv2d(hin, W, H, W, hw, k->M, k->N, SSAM_BORDER_REFLECT, 0, 0, (k->M - 1) / 2, (k->N - 1) / 2, ref, mag,
                   &ow, &oh);
        memset(&a, 0, sizeof a);
        a.src = din; a.dst = dout; a.width = W; a.height = H;
        a.weights = hwt; a.fw = k->M; a.fh = k->N; a.border = SSAM_BORDER_REFLECT;
        ssam_plan p, ps, pf;
        memset(&p, 0x5A, sizeof p);
        int rc = k->plan(&a, &p);
        const int want = walk_of(k, 0, (k->M - 1) / 2);
        CHECK(rc == 0 && p.path == want && !plan_bad(&p, dout), "%s: plan %d, path %s, want %s", k->name, rc,
              path_name(p.path), path_name(want));
        if (rc) break;
        /* the answer at p.result */
        rc = run_at(k, &a, &p, hrun, bytes);
        double num = 0, den = 0;
        long long unwritten = 0;
        for (size_t j = 0; j < n; j++) {
            const double v = get_elem(k, hrun, j);
            if (!isfinite(v)) { unwritten++; continue; }
            num += (v - ref[j]) * (v - ref[j]);
            den += mag[j] * mag[j];
        }
        const double err = den > 0 ? sqrt(num / den) : sqrt(num);
        CHECK(rc == 0 && unwritten == 0 && err < tol_of(k), "%s %s walk: run %d, %lld unwritten, error / sum|w x| = "
              "%.3g", k->name, path_name(p.path), rc, unwritten, err);
        /* name_launch: name_run's bits */
        CUDA_OK(cudaMemset(dout, 0xFF, bytes));
        rc = k->launch(&a, 0);
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(hbuf, dout, bytes, cudaMemcpyDeviceToHost));
        CHECK(rc == 0 && memcmp(hbuf, hrun, bytes) == 0, "%s: name_launch (%d) differs from name_plan + name_run",
              k->name, rc);
        /* SSAM_SYSTOLIC_WALK: the systolic plan and its bits */
        b = a;
        b.flags = SSAM_SYSTOLIC_WALK;
        rc = k->plan(&b, &ps);
        CHECK(rc == 0 && ps.path == SSAM_PATH_SYSTOLIC && !plan_bad(&ps, dout), "%s, SSAM_SYSTOLIC_WALK: plan %d, "
              "path %s", k->name, rc, path_name(ps.path));
        if (rc) break;
        CHECK(run_at(k, &b, &ps, hsys, bytes) == 0, "%s, SSAM_SYSTOLIC_WALK: run", k->name);
        if (p.path == SSAM_PATH_SYSTOLIC) {
            CHECK(memcmp(hrun, hsys, bytes) == 0, "%s: the systolic plan's bits differ from SSAM_SYSTOLIC_WALK's",
                  k->name);
            pf = p;
            pf.path = SSAM_PATH_QUEUED; /* a filter without the queued walk: the systolic one runs */
            CHECK(run_at(k, &a, &pf, hbuf, bytes) == 0 && memcmp(hbuf, hsys, bytes) == 0,
                  "%s: a queued plan of a filter without the queued walk did not run the systolic walk", k->name);
        } else {
            pf = p;
            pf.path = SSAM_PATH_SYSTOLIC;
            CHECK(run_at(k, &a, &pf, hbuf, bytes) == 0 && memcmp(hbuf, hsys, bytes) == 0,
                  "%s: a plan switched to the systolic walk differs from SSAM_SYSTOLIC_WALK's bits", k->name);
            pf = ps;
            pf.path = SSAM_PATH_QUEUED;
            CHECK(run_at(k, &b, &pf, hbuf, bytes) == 0 && memcmp(hbuf, hrun, bytes) == 0,
                  "%s: a queued plan run on SSAM_SYSTOLIC_WALK's arguments differs from the queued bits", k->name);
            told += memcmp(hrun, hsys, bytes) != 0;
        }
    }
    CHECK(told > 0, "the queued and the systolic walk gave the same bits on every kernel: the walks are not told apart");
    cudaFree(din);
    cudaFree(dout);
    free(hin); free(hw); free(ref); free(mag); free(hbuf); free(hwt); free(hrun); free(hsys);
    case_end();
}

/* every anchor position of one kernel (a small filter), correlation and convolution, every border,
 * against the reference with that anchor; and SSAM_ANCHOR at the centre equal to the default */
static void run_anchor(const kern *k, int light)
{
    static const int sizes[][2] = {{37, 23}, {1, 1}, {131, 9}};
    int nsizes = light ? 2 : (int)(sizeof sizes / sizeof *sizes);
    char name[128];
    snprintf(name, sizeof name, "ssam conv %s: every anchor (SSAM_ANCHOR), conv/corr, every border", k->name);
    if (!case_part(name)) return;
    const size_t es = elem_size(k);
    const double tol = tol_of(k);
    const bnd_rule rule = rule_of(k);
    const int M = k->M, N = k->N;
    for (int si = 0; si < nsizes && !check__failed_case; si++) {
        const int W = sizes[si][0], H = sizes[si][1];
        const size_t n = (size_t)W * H;
        double *hin = (double *)malloc(n * 8), *hw = (double *)malloc((size_t)M * N * 8);
        double *ref = (double *)malloc(n * 8), *mag = (double *)malloc(n * 8);
        void *hbuf = malloc(n * 8), *hdef = malloc(n * 8), *hwt = malloc((size_t)M * N * 8);
        for (size_t i = 0; i < n; i++) hin[i] = put_elem(k, hbuf, i, gpucheck_uniform());
        for (int i = 0; i < M * N; i++) hw[i] = put_weight(k, hwt, i, gpucheck_uniform());
        void *din = NULL, *dout = NULL;
        CUDA_OK(cudaMalloc(&din, n * es));
        CUDA_OK(cudaMalloc(&dout, n * es));
        CUDA_OK(cudaMemcpy(din, hbuf, n * es, cudaMemcpyHostToDevice));
        for (int border = 0; border < 5 && !check__failed_case; border++)
            for (int conv = 0; conv < 2 && !check__failed_case; conv++) {
                ssam_conv2d_args a;
                memset(&a, 0, sizeof a);
                a.src = din; a.dst = dout; a.width = W; a.height = H;
                a.weights = hwt; a.fw = M; a.fh = N; a.border = border; a.cval = -0.625;
                a.flags = conv ? SSAM_CONVOLVE : 0u;
                /* the default (no flag): kept to compare with the centre placed by hand */
                CUDA_OK(cudaMemset(dout, 0xFF, n * es));
                CHECK(k->launch(&a, 0) == 0, "default-anchor launch");
                CUDA_OK(cudaMemcpy(hdef, dout, n * es, cudaMemcpyDeviceToHost));
                for (int ay = 0; ay < N && !check__failed_case; ay++)
                    for (int ax = 0; ax < M && !check__failed_case; ax++) {
                        int ow, oh;
                        ref_conv2d(hin, W, H, W, hw, M, N, border, a.cval, a.flags, ax, ay, ref, mag, &ow, &oh);
                        ssam_conv2d_args b = a;
                        b.flags |= SSAM_ANCHOR; b.anchor_x = ax; b.anchor_y = ay;
                        CUDA_OK(cudaMemset(dout, 0xFF, n * es)); /* NaN poison */
                        ssam_plan p;
                        memset(&p, 0x5A, sizeof p);
                        int rc = k->plan(&b, &p);
                        const int want = walk_of(k, b.flags, ax);
                        CHECK(rc == 0 && p.path == want && !plan_bad(&p, dout), "%dx%d %s%s anchor (%d, %d): plan %d "
                              "(%s), path %s, want %s", W, H, border_name[border], conv ? " convolve" : "", ax, ay, rc,
                              ssam_strerror(rc), path_name(p.path), path_name(want));
                        if (!rc) rc = k->run(&b, &p, 0);
                        CHECK(rc == 0, "run rc %d (%s)", rc, ssam_strerror(rc));
                        CUDA_OK(cudaDeviceSynchronize());
                        CUDA_OK(cudaMemcpy(hbuf, rc ? dout : p.result, n * es, cudaMemcpyDeviceToHost)); /* the answer */
                        double num = 0, den = 0;
                        long long unwritten = 0;
                        bnd_worst bw;
                        bnd_init(&bw);
                        for (size_t i = 0; i < n; i++) {
                            double v = get_elem(k, hbuf, (size_t)i);
                            if (!isfinite(v)) { unwritten++; continue; }
                            num += (v - ref[i]) * (v - ref[i]);
                            den += mag[i] * mag[i];
                            bnd_track(&bw, (long long)i, v, ref[i], bnd_of(&rule, ref[i], mag[i]));
                        }
                        double err = den > 0 ? sqrt(num / den) : sqrt(num);
                        note_worst(&bw, k->name, W, H);
                        CHECK(unwritten == 0 && err < tol, "%dx%d %s%s anchor (%d, %d): %lld unwritten, error / "
                              "sum|w x| = %.3g", W, H, border_name[border], conv ? " convolve" : "", ax, ay,
                              unwritten, err);
                        CHECK(bw.over == 0, "%dx%d %s%s anchor (%d, %d): %lld outputs past their own bound; the worst, "
                              "(%lld, %lld): %.9g for %.9g, error %.3g of the bound %.3g", W, H, border_name[border],
                              conv ? " convolve" : "", ax, ay, bw.over, bw.at % W, bw.at / W, bw.got, bw.ref, bw.ratio,
                              bw.bound);
                        if (ax == (M - 1) / 2 && ay == (N - 1) / 2)
                            CHECK(memcmp(hbuf, hdef, n * es) == 0, "%dx%d %s%s: the centre placed by hand differs "
                                  "from the default", W, H, border_name[border], conv ? " convolve" : "");
                    }
            }
        cudaFree(din);
        cudaFree(dout);
        free(hin); free(hw); free(ref); free(mag); free(hbuf); free(hdef); free(hwt);
    }
    case_end();
}

/* the kernels whose every anchor run_anchor tries: the small filters, 3x3, 4x4, 2x3 (and 2x2) */
static int anchor_kernel(const kern *k) { return k->M * k->N <= 16 && k->M > 1 && k->N > 1; }

/* usage: test_ssam_conv [--light] [--seed N]   (--light: small sizes only, for compute-sanitizer) */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const size_t nk = sizeof kernels / sizeof *kernels;
    int nanchor = 0;
    for (size_t i = 0; i < nk; i++) nanchor += anchor_kernel(&kernels[i]);
    check_plan(2 + (int)nk + nanchor); /* the error codes, the plan, every kernel, the anchors of the small ones */
    test_errors();
    test_plan(light);
    for (size_t i = 0; i < nk; i++) run_kernel(&kernels[i], light);
    for (size_t i = 0; i < nk; i++)
        if (anchor_kernel(&kernels[i])) run_anchor(&kernels[i], light);
    if (worst_seen > 0) printf("info: the largest error / per-element bound: %.3g (%s)\n", worst_seen, worst_where);
    return check_exit();
}
