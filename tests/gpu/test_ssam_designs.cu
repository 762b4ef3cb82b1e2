/* tests/gpu/test_ssam_designs.cu -- ssam/designs.cuh: the six 1-D systolic designs of the URE paper
 * (SBM BSM FSM BFS FFS FBS), stride 1 and 2, against one CPU reference in double on ragged lengths,
 * outputs poisoned and a guard past the end that must stay poisoned; convolution flag; error codes,
 * each on a poisoned buffer that must stay unwritten.  Every output is held to its own bound:
 * |out - ref| <= 3 (Q + 1) u sum_q |w_q x_q| (u 2^-24 float, 2^-53 double): one rounding a tap in
 * any order of the sums (the stride-2 designs add their two phases once more), 3 to spare (a
 * product and its add, and double's own reference), and no more than 2e-6 (float) or 1e-14
 * (double) of it for many taps. */
#include <ssam/designs.cuh>

#include "gpucheck.h"

/* every design at each (T, Q, S) of this list */
#define DESIGN_CASES(X)                                                                                     \
    X(float, 1, 1)                                                                                          \
    X(float, 5, 1)                                                                                          \
    X(float, 32, 1)                                                                                         \
    X(float, 2, 2)                                                                                          \
    X(float, 7, 2)                                                                                          \
    X(double, 5, 2)

#define DEFINE_ALL(T, Q, S)                                                                                 \
    SSAM_DESIGN1D_DEFINE(sbm_##T##_##Q##_##S, T, SBM, Q, S, 128)                                            \
    SSAM_DESIGN1D_DEFINE(bsm_##T##_##Q##_##S, T, BSM, Q, S, 128)                                            \
    SSAM_DESIGN1D_DEFINE(fsm_##T##_##Q##_##S, T, FSM, Q, S, 128)                                            \
    SSAM_DESIGN1D_DEFINE(bfs_##T##_##Q##_##S, T, BFS, Q, S, 128)                                            \
    SSAM_DESIGN1D_DEFINE(ffs_##T##_##Q##_##S, T, FFS, Q, S, 128)                                            \
    SSAM_DESIGN1D_DEFINE(fbs_##T##_##Q##_##S, T, FBS, Q, S, 128)
DESIGN_CASES(DEFINE_ALL)

typedef int (*d1_fn)(const ssam_design1d_args *, cudaStream_t);
typedef struct {
    const char *name, *type;
    d1_fn launch;
    int q, s, dbl;
} d1_case;

#define LIST_ALL(T, Q, S)                                                                                   \
    {"SBM", #T, sbm_##T##_##Q##_##S##_launch, Q, S, sizeof(T) == 8},                                        \
    {"BSM", #T, bsm_##T##_##Q##_##S##_launch, Q, S, sizeof(T) == 8},                                        \
    {"FSM", #T, fsm_##T##_##Q##_##S##_launch, Q, S, sizeof(T) == 8},                                        \
    {"BFS", #T, bfs_##T##_##Q##_##S##_launch, Q, S, sizeof(T) == 8},                                        \
    {"FFS", #T, ffs_##T##_##Q##_##S##_launch, Q, S, sizeof(T) == 8},                                        \
    {"FBS", #T, fbs_##T##_##Q##_##S##_launch, Q, S, sizeof(T) == 8},
static const d1_case cases[] = {DESIGN_CASES(LIST_ALL)};

static void test_design(const d1_case *c, int light)
{
    char name[128];
    snprintf(name, sizeof name, "ssam 1-D design %s, %s, %d taps, stride %d: ragged lengths vs double reference",
             c->name, c->type, c->q, c->s);
    case_begin(name);
    const long long lens_all[] = {0, 1, 31, 1000, 33 * 7 + 5, 4099, 100003};
    const int nl = light ? 4 : (int)(sizeof lens_all / sizeof *lens_all);
    const int guard = 97;
    const size_t es = c->dbl ? 8 : 4;
    const double tol = fmin(3.0 * (c->q + 1) * (c->dbl ? 0x1p-53 : 0x1p-24), c->dbl ? 1e-14 : 2e-6);
    for (int li = 0; li < nl && !check__failed_case; li++)
        for (int conv = 0; conv < 2 && !check__failed_case; conv++) {
            long long n = c->q + lens_all[li], nout = ssam_design1d_outputs(n, c->q, c->s);
            double *x = (double *)malloc((size_t)n * 8), w[32];
            char *hx = (char *)malloc((size_t)n * es), *hy = (char *)malloc((size_t)(nout + guard) * es);
            char hw[32 * 8];
            for (long long i = 0; i < n; i++) {
                x[i] = 2 * gpucheck_uniform() - 1;
                if (c->dbl) ((double *)hx)[i] = x[i];
                else { ((float *)hx)[i] = (float)x[i]; x[i] = (float)x[i]; }
            }
            for (int q = 0; q < c->q; q++) {
                w[q] = 2 * gpucheck_uniform() - 1;
                if (c->dbl) ((double *)hw)[q] = w[q];
                else { ((float *)hw)[q] = (float)w[q]; w[q] = (float)w[q]; }
            }
            void *dx = NULL, *dy = NULL;
            CUDA_OK(cudaMalloc(&dx, (size_t)n * es));
            CUDA_OK(cudaMalloc(&dy, (size_t)(nout + guard) * es));
            CUDA_OK(cudaMemcpy(dx, hx, (size_t)n * es, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(dy, 0xFF, (size_t)(nout + guard) * es));
            ssam_design1d_args a = {dx, dy, n, hw, conv ? SSAM_CONVOLVE : 0u};
            int rc = c->launch(&a, 0);
            CHECK(rc == 0, "launch: %s", ssam_strerror(rc));
            CUDA_OK(cudaDeviceSynchronize());
            CUDA_OK(cudaMemcpy(hy, dy, (size_t)(nout + guard) * es, cudaMemcpyDeviceToHost));
            long long bad = 0, worst = -1;
            double maxerr = 0;
            for (long long o = 0; o < nout + guard; o++) {
                double v = c->dbl ? ((double *)hy)[o] : ((float *)hy)[o];
                if (o >= nout) { bad += !isnan(v); continue; } /* past the end: untouched */
                double r = 0, mag = 0;
                for (int q = 0; q < c->q; q++) {
                    double t = (conv ? w[c->q - 1 - q] : w[q]) * x[c->s * o + q];
                    r += t;
                    mag += fabs(t);
                }
                double e = isfinite(v) ? fabs(v - r) / (mag + 1e-300) : 1e30;
                if (!(e <= maxerr)) { maxerr = e; worst = o; } /* a NaN stays the worst */
            }
            /* the outputs compared: as many as the definition gives, at least one */
            CHECK(nout >= 1 && nout == (n - c->q) / c->s + 1, "n %lld: %lld outputs compared, %lld by the definition", n,
                  nout, (n - c->q) / c->s + 1);
            CHECK(bad == 0, "n %lld: %lld cells past the %lld outputs written", n, bad, nout);
            CHECK(maxerr <= tol, "n %lld %s: output %lld of %lld off by %.3g of sum |w x|", n,
                  conv ? "convolution" : "correlation", worst, nout, maxerr);
            cudaFree(dx);
            cudaFree(dy);
            free(x); free(hx); free(hy);
        }
    case_end();
}

static void test_errors(void)
{
    case_begin("ssam 1-D designs error codes (nothing written)");
    float *d = NULL, hw[5] = {1, 2, 3, 4, 5};
    const size_t dbytes = 4096;
    CUDA_OK(cudaMalloc(&d, dbytes));
    ssam_design1d_args a = {d, d + 512, 100, hw, 0}, b;
    /* b = a, stmt, launch: the code; a failing call on the poisoned buffer leaves it as it was */
#define EXPECT(code, launch, stmt)                                                                           \
    do {                                                                                                     \
        b = a;                                                                                               \
        stmt;                                                                                                \
        if ((code) != 0) CUDA_OK(cudaMemset(d, 0xFF, dbytes));                                              \
        const int rc_ = launch(&b, 0);                                                                       \
        CHECK(rc_ == (code), "%s (%s): got %d (%s), want %d", #stmt, #launch, rc_, ssam_strerror(rc_), code); \
        if ((code) != 0) {                                                                                   \
            const long long ch_ = gpucheck_poison_changed(d, dbytes);                                                 \
            CHECK(ch_ == 0, "%s (%s): %lld bytes written by a call that failed", #stmt, #launch, ch_);       \
        }                                                                                                    \
    } while (0)
    EXPECT(0, fbs_float_5_1_launch, (void)0); /* valid */
    CUDA_OK(cudaMemset(d, 0xFF, dbytes));
    CHECK(fbs_float_5_1_launch(NULL, 0) == SSAM_ENULL, "NULL args");
    CHECK(gpucheck_poison_changed(d, dbytes) == 0, "NULL args: the buffer written");
    EXPECT(SSAM_ENULL, bsm_float_5_1_launch, b.src = NULL);
    EXPECT(SSAM_ENULL, sbm_float_5_1_launch, b.dst = NULL);
    EXPECT(SSAM_ENULL, ffs_float_5_1_launch, b.weights = NULL);
    EXPECT(SSAM_ESIZE, bfs_float_5_1_launch, b.n = 4); /* n < taps */
    EXPECT(SSAM_ESIZE, fsm_float_5_1_launch, b.n = 0);
    EXPECT(SSAM_ESIZE, fbs_float_5_1_launch, b.n = -3);
    EXPECT(SSAM_EFLAGS, fbs_float_5_1_launch, b.flags = SSAM_VALID); /* unsupported flag */
    EXPECT(SSAM_EOVERLAP, fbs_float_5_1_launch, b.dst = d);          /* in place */
    EXPECT(SSAM_EOVERLAP, bsm_float_5_1_launch, b.dst = d + 99);     /* dst on src's last sample */
    EXPECT(0, bsm_float_5_1_launch, b.dst = d + 100);                /* right after src */
    EXPECT(SSAM_EOVERLAP, sbm_float_5_1_launch, b.src = d + 512 + 95); /* src on dst's last output (96) */
    EXPECT(0, sbm_float_5_1_launch, b.src = d + 512 + 96);           /* right after dst */
#undef EXPECT
    CHECK(ssam_design1d_outputs(10, 3, 2) == 4 && ssam_design1d_outputs(2, 3, 1) == 0, "output length");
    CUDA_OK(cudaDeviceSynchronize());
    cudaFree(d);
    case_end();
}

/* usage: test_ssam_designs [--light] [--seed N] */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    const int ncases = (int)(sizeof cases / sizeof *cases);
    check_plan(ncases + 1); /* every design at every (T, Q, S), the error codes */
    for (int i = 0; i < ncases; i++) test_design(&cases[i], light);
    test_errors();
    return check_exit();
}
