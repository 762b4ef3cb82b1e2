/* bench/ssam_conv.cu -- ssam 2D convolution against its peers in the same run, 8192^2 by default:
 *   ssam   SSAM_CONV2D_DEFINE kernels (register cache + systolic shifts), fp32 and fp64; for the
 *          filters that take the queued walk (fp32 5x5 to 7x7) "ssam" is that walk and
 *          "ssam-systolic" the systolic walk of the same launcher (SSAM_SYSTOLIC_WALK)
 *   smem   a plain shared-memory tiled kernel (32x8 outputs per block, the tile and its halo in
 *          shared memory, weights in kernel parameters, loops unrolled): the usual baseline
 *   npp    nppiFilterBorder_32f_C1R_Ctx, replicate border       (built when NPP is found)
 *   cudnn  cudnnConvolutionForward, one channel, best algorithm by cudnnFind, FMA math (no TF32),
 *          odd filters only                                      (built when cuDNN is found)
 * All use the nearest/replicate border (cuDNN pads with zeros: its output is not compared).
 * ms is the median of --reps runs after warm-up; the floor is max(bytes / 4.27 TB/s, FMAs / peak)
 * with one read and one write of the image and FP32 67 TFLOP/s, FP64 34 TFLOP/s.
 * Then the tensor-core section (conv_tc.cuh): the measured mma.sync rates, and per filter the SIMT
 * kernel, each tensor-core mode (tf32, tf32x3, f64) beside its MMA floor (the band's zeros
 * included, at the measured rate) and cuDNN with tensor-op math allowed.
 * Then half-precision storage (SSAM_CONV2D_DEFINE with T __half / __nv_bfloat16) beside the fp32
 * kernel, the floor at the copy bandwidth measured in the run; up to 9x9 each on the queued walk and
 * the systolic walk.
 * usage: conv [--json PATH] [--reps N] [--size S] [--only MxN] [--no-peers] [--tc | --no-tc]
 *   --tc: the tensor-core section only; --no-tc: without it
 *   --only 20x20 times that filter alone; --no-peers skips NPP and cuDNN (for ncu: profile with
 *   --only and --no-peers, e.g. ncu --kernel-name regex:ssam_f32_20x20 --launch-count 1 ...). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ssam/conv.cuh>
#include <ssam/conv_tc.cuh>

#include "gpucheck.h"
#ifdef ONCHIP_HAVE_NPP
#include <npp.h>
#endif
#ifdef ONCHIP_HAVE_CUDNN
#include <cudnn.h>
#endif

#define BW 4.27e12
#define FMA32 (67e12 / 2)
#define FMA64 (34e12 / 2)

/* ---- the shared-memory baseline ------------------------------------------------------------- */
#define SMEM_TX 32
#define SMEM_TY 8
#define SMEM_CONV_DEFINE(name, T, M, N)                                                                   \
    typedef struct name##_w {                                                                            \
        T w[(M) * (N)];                                                                                  \
    } name##_w;                                                                                          \
    __global__ void __launch_bounds__(SMEM_TX *SMEM_TY) name(const T *__restrict__ in, T *__restrict__ out, \
                                                             int W, int H, name##_w wt)                  \
    {                                                                                                    \
        __shared__ T tile[SMEM_TY + (N)-1][SMEM_TX + (M)-1];                                             \
        const int x0 = blockIdx.x * SMEM_TX, y0 = blockIdx.y * SMEM_TY;                                  \
        for (int i = threadIdx.y * SMEM_TX + threadIdx.x; i < (SMEM_TY + (N)-1) * (SMEM_TX + (M)-1);     \
             i += SMEM_TX * SMEM_TY) {                                                                   \
            int ty = i / (SMEM_TX + (M)-1), tx = i % (SMEM_TX + (M)-1);                                  \
            int gx = min(max(x0 + tx - ((M)-1) / 2, 0), W - 1), gy = min(max(y0 + ty - ((N)-1) / 2, 0), H - 1); \
            tile[ty][tx] = in[(size_t)gy * W + gx];                                                      \
        }                                                                                                \
        __syncthreads();                                                                                 \
        const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;                                            \
        if (x >= W || y >= H) return;                                                                    \
        T s = 0;                                                                                         \
        _Pragma("unroll") for (int n = 0; n < (N); n++) _Pragma("unroll") for (int m = 0; m < (M); m++)  \
            s = fma(tile[threadIdx.y + n][threadIdx.x + m], wt.w[n * (M) + m], s);                        \
        out[(size_t)y * W + x] = s;                                                                      \
    }                                                                                                    \
    static void name##_run(const T *in, T *out, int W, int H, const T *w)                                \
    {                                                                                                    \
        name##_w wt;                                                                                     \
        memcpy(wt.w, w, sizeof wt.w);                                                                    \
        dim3 g((W + SMEM_TX - 1) / SMEM_TX, (H + SMEM_TY - 1) / SMEM_TY), b(SMEM_TX, SMEM_TY);          \
        name<<<g, b>>>(in, out, W, H, wt);                                                               \
    }

/* ---- the instantiations: (filter M x N, rows per step P) ------------------------------------- */
#define FILTERS_F32(X)                                                                                   \
    X(2, 2, 8) X(3, 3, 8) X(4, 4, 8) X(5, 5, 8) X(7, 7, 4) X(9, 9, 4) X(11, 11, 2) X(13, 13, 2) X(15, 15, 1) \
        X(17, 17, 1) X(20, 20, 1) X(9, 1, 8) X(1, 9, 8) X(7, 3, 8) X(3, 7, 4)
#define FILTERS_F64(X) X(3, 3, 4) X(5, 5, 4) X(9, 9, 2) X(15, 15, 1) X(20, 20, 1)
/* other rows-per-step and register-budget choices (M, N, P, MINB), timed too (impl
 * "ssam-P<p>-m<minb>"); the summary takes the fastest ssam row of each filter */
#define ALTS_F32(X)                                                                                      \
    X(3, 3, 4, 8) X(5, 5, 4, 6) X(7, 7, 4, 4) X(9, 9, 4, 4) X(11, 11, 1, 4) X(13, 13, 1, 4) X(15, 15, 1, 4) \
        X(17, 17, 1, 4) X(20, 20, 1, 3) X(20, 20, 1, 4)
/* block size per instantiation: 64 threads where the 168-register cap of 128 would spill */
#define BLOCK_F64(M) 128

#define DEF_F32(M, N, P)                                                                                 \
    SSAM_CONV2D_DEFINE(ssam_f32_##M##x##N, float, M, N, ssam_conv_policy<P, 128>)                        \
    SMEM_CONV_DEFINE(smem_f32_##M##x##N, float, M, N)
#define DEF_F64(M, N, P)                                                                                 \
    SSAM_CONV2D_DEFINE(ssam_f64_##M##x##N, double, M, N, ssam_conv_policy<P, BLOCK_F64(M)>)              \
    SMEM_CONV_DEFINE(smem_f64_##M##x##N, double, M, N)
FILTERS_F32(DEF_F32)
FILTERS_F64(DEF_F64)
#define DEF_ALT(M, N, P, MB)                                                                             \
    SSAM_CONV2D_DEFINE(ssam_f32_##M##x##N##_p##P##_m##MB, float, M, N, ssam_conv_policy<P, 128, MB>)
ALTS_F32(DEF_ALT)

/* ---- tensor cores (conv_tc.cuh): the filters where SIMT is FMA-bound, each mode ----------------- */
#define TC_F32(X) X(5, 5) X(9, 9) X(15, 15) X(20, 20)
#define TC_F64(X) X(5, 5) X(9, 9) X(15, 15) X(20, 20)
#define DEF_TC32(M, N)                                                                                   \
    SSAM_CONV2D_TC_DEFINE(tc_tf32_##M##x##N, tf32, M, N, ssam_conv_tc_policy<>)                          \
    SSAM_CONV2D_TC_DEFINE(tc_tf32x3_##M##x##N, tf32x3, M, N, ssam_conv_tc_policy<>)
#define DEF_TC64(M, N) SSAM_CONV2D_TC_DEFINE(tc_f64_##M##x##N, f64, M, N, ssam_conv_tc_policy<>)
TC_F32(DEF_TC32)
TC_F64(DEF_TC64)
/* half-precision storage (conv.cuh, fp32 math): the memory-bound filters move half the bytes */
/* up to 9x9 these take the queued walk, whose depth is its own (SSAM__CONV_QD); P is the systolic
 * walk's, timed beside it with SSAM_SYSTOLIC_WALK (H200, 8192^2, systolic walk: 3x3 P 1 / 2 / 4 0.159 /
 * 0.167 / 0.201 ms, 5x5 P 1 / 2 / 4 0.355 / 0.210 / 0.256; docs/ssam.md) */
SSAM_CONV2D_DEFINE(half_3x3, __half, 3, 3, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(half_5x5, __half, 5, 5, ssam_conv_policy<2, 128>)
SSAM_CONV2D_DEFINE(half_7x7, __half, 7, 7, ssam_conv_policy<2, 128>)
SSAM_CONV2D_DEFINE(half_9x9, __half, 9, 9, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(bf16_3x3, __nv_bfloat16, 3, 3, ssam_conv_policy<1, 128>)
/* and on tensor cores (conv_tc.cuh f16 / bf16: FP16 / BF16 MMAs, FP32 sums) for the FMA-bound filters */
SSAM_CONV2D_TC_DEFINE(tc_f16_9x9, f16, 9, 9, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(tc_f16_15x15, f16, 15, 15, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(tc_f16_20x20, f16, 20, 20, ssam_conv_tc_policy<>)
SSAM_CONV2D_TC_DEFINE(tc_bf16_20x20, bf16, 20, 20, ssam_conv_tc_policy<>)
typedef struct half_entry {
    int M, N;
    const char *impl;
    int (*launch)(const ssam_conv2d_args *, cudaStream_t);
    int bf16, tc;
} half_entry;
static const half_entry half_entries[] = {{3, 3, "half", half_3x3_launch, 0, 0},          {5, 5, "half", half_5x5_launch, 0, 0},
                                          {7, 7, "half", half_7x7_launch, 0, 0},          {9, 9, "half", half_9x9_launch, 0, 0},
                                          {3, 3, "bf16", bf16_3x3_launch, 1, 0},          {9, 9, "tc-f16", tc_f16_9x9_launch, 0, 1},
                                          {15, 15, "tc-f16", tc_f16_15x15_launch, 0, 1}, {20, 20, "tc-f16", tc_f16_20x20_launch, 0, 1},
                                          {20, 20, "tc-bf16", tc_bf16_20x20_launch, 1, 1}};
/* other tile shapes (MODE, M, N, QY, JX, WY, WX, MINB), timed as impl "tc-MODE-qQY-jJX-wWYxWX" */
#define TC_ALTS(X)                                                                                       \
    X(tf32, 20, 20, 4, 4, 2, 2, 3) X(tf32, 20, 20, 1, 4, 2, 2, 4) X(tf32x3, 20, 20, 1, 2, 2, 2, 3)              \
    X(f64, 15, 15, 1, 4, 2, 2, 3) X(f64, 20, 20, 2, 4, 2, 2, 2) X(f64, 15, 15, 1, 4, 4, 1, 4)                   \
    X(tf32, 20, 20, 2, 8, 2, 2, 2) X(tf32, 20, 20, 2, 4, 2, 2, 3) X(tf32, 20, 20, 1, 8, 4, 1, 3)                \
    X(f64, 15, 15, 2, 4, 2, 2, 2) X(tf32x3, 9, 9, 2, 4, 2, 2, 2) X(tf32, 15, 15, 2, 4, 2, 2, 3)                \
    X(tf32, 9, 9, 2, 4, 2, 2, 3) X(tf32x3, 20, 20, 2, 2, 2, 2, 2)
#define DEF_TCALT(MODE, M, N, QY, JX, WY, WX, MB)                                                       \
    SSAM_CONV2D_TC_DEFINE(tca_##MODE##_##M##x##N##_q##QY##_j##JX##_w##WY##x##WX, MODE, M, N,             \
                          ssam_conv_tc_policy<QY, JX, WY, WX, MB>)
TC_ALTS(DEF_TCALT)
typedef struct tc_entry {
    int M, N, passes, dbl; /* passes: MMAs per band step (3 for tf32x3) */
    const char *impl;
    int (*launch)(const ssam_conv2d_args *, cudaStream_t);
} tc_entry;
#define ENT_TC32(M, N) {M, N, 1, 0, "tc-tf32", tc_tf32_##M##x##N##_launch}, {M, N, 3, 0, "tc-tf32x3", tc_tf32x3_##M##x##N##_launch},
#define ENT_TC64(M, N) {M, N, 1, 1, "tc-f64", tc_f64_##M##x##N##_launch},
#define ENT_TCALT(MODE, M, N, QY, JX, WY, WX, MB)                                                       \
    {M, N, sizeof(#MODE) == 7 ? 3 : 1, #MODE[0] == 'f', "tc-" #MODE "-q" #QY "-j" #JX "-w" #WY "x" #WX,            \
     tca_##MODE##_##M##x##N##_q##QY##_j##JX##_w##WY##x##WX##_launch},
static const tc_entry tc_entries[] = {TC_F32(ENT_TC32) TC_F64(ENT_TC64) TC_ALTS(ENT_TCALT)};

#include "mma_rate.cuh" /* mma_rate_of: the measured mma.sync rates */

typedef int (*ssam_fn)(const ssam_conv2d_args *, cudaStream_t);
typedef struct entry {
    int M, N, P, dbl, alt; /* alt: the MINB of an alternative instantiation, 0 for the main one */
    ssam_fn ssam;
    void (*smem_f)(const float *, float *, int, int, const float *);
    void (*smem_d)(const double *, double *, int, int, const double *);
} entry;
#define ENT_F32(M, N, P) {M, N, P, 0, 0, ssam_f32_##M##x##N##_launch, smem_f32_##M##x##N##_run, NULL},
#define ENT_F64(M, N, P) {M, N, P, 1, 0, ssam_f64_##M##x##N##_launch, NULL, smem_f64_##M##x##N##_run},
#define ENT_ALT(M, N, P, MB) {M, N, P, 0, MB, ssam_f32_##M##x##N##_p##P##_m##MB##_launch, NULL, NULL},
static const entry entries[] = {FILTERS_F32(ENT_F32) FILTERS_F64(ENT_F64) ALTS_F32(ENT_ALT)};

static int reps = 20;
static FILE *json;
static int json_rows;

/* median ms of a launch sequence given as a callback with a rotating set index */
typedef gpucheck_run_fn run_fn;
static double time_it(run_fn f, void *ctx) { return gpucheck_time_ms(f, ctx, 3, reps); }

typedef struct ctx {
    const entry *e;
    int S;
    void *in[2], *out[2];
    void *hw;  /* host weights */
    unsigned flags; /* SSAM_SYSTOLIC_WALK to time the systolic walk where the queued walk applies */
    float *dw; /* device weights (NPP, cuDNN) */
#ifdef ONCHIP_HAVE_NPP
    NppStreamContext npp;
#endif
#ifdef ONCHIP_HAVE_CUDNN
    cudnnHandle_t dnn;
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t fd;
    cudnnConvolutionDescriptor_t cd;
    cudnnConvolutionFwdAlgo_t algo;
    void *ws;
    size_t wsize;
    void *dout;
#endif
} ctx;

static void run_ssam(void *p, int s)
{
    ctx *c = (ctx *)p;
    ssam_conv2d_args a;
    memset(&a, 0, sizeof a);
    a.src = c->in[s]; a.dst = c->out[s]; a.width = c->S; a.height = c->S;
    a.weights = c->hw; a.fw = c->e->M; a.fh = c->e->N; a.border = SSAM_BORDER_NEAREST; a.flags = c->flags;
    int rc = c->e->ssam(&a, 0);
    if (rc) { fprintf(stderr, "ssam launch: %s\n", ssam_strerror(rc)); exit(2); }
}
/* the launcher of c->e on the systolic walk (SSAM_SYSTOLIC_WALK), where "ssam" times the queued one */
static double time_systolic(ctx *c)
{
    c->flags = SSAM_SYSTOLIC_WALK;
    const double t = time_it(run_ssam, c);
    c->flags = 0;
    return t;
}
static void run_smem(void *p, int s)
{
    ctx *c = (ctx *)p;
    if (c->e->dbl) c->e->smem_d((const double *)c->in[s], (double *)c->out[s], c->S, c->S, (const double *)c->hw);
    else c->e->smem_f((const float *)c->in[s], (float *)c->out[s], c->S, c->S, (const float *)c->hw);
}
#ifdef ONCHIP_HAVE_NPP
static void run_npp(void *p, int s)
{
    ctx *c = (ctx *)p;
    NppiSize sz = {c->S, c->S}, ks = {c->e->M, c->e->N};
    NppiPoint off = {0, 0}, anchor = {c->e->M / 2, c->e->N / 2};
    NppStatus st = nppiFilterBorder_32f_C1R_Ctx((const Npp32f *)c->in[s], c->S * 4, sz, off, (Npp32f *)c->out[s],
                                                c->S * 4, sz, c->dw, ks, anchor, NPP_BORDER_REPLICATE, c->npp);
    if (st != NPP_SUCCESS) { fprintf(stderr, "npp status %d\n", (int)st); exit(2); }
}
#endif
#ifdef ONCHIP_HAVE_CUDNN
#define DNN(call)                                                                                        \
    do {                                                                                                 \
        cudnnStatus_t st_ = (call);                                                                      \
        if (st_ != CUDNN_STATUS_SUCCESS) { fprintf(stderr, "%s: %s\n", #call, cudnnGetErrorString(st_)); exit(2); } \
    } while (0)
static void run_cudnn(void *p, int s)
{
    ctx *c = (ctx *)p;
    float one = 1, zero = 0;
    double oned = 1, zerod = 0;
    DNN(cudnnConvolutionForward(c->dnn, c->e->dbl ? (void *)&oned : (void *)&one, c->xd, c->in[s], c->fd, c->dw,
                                c->cd, c->algo, c->ws, c->wsize, c->e->dbl ? (void *)&zerod : (void *)&zero, c->yd,
                                c->dout));
}
#endif

#ifdef ONCHIP_HAVE_CUDNN
/* cuDNN on this filter (odd sizes): the best algorithm cudnnFind gives; tensor_ops 0: FMA math,
 * 1: tensor cores allowed (TF32 for float); ms, or -1 when no algorithm ran */
static double time_cudnn(ctx *c, const entry *e, int S, int tensor_ops)
{
    double t = -1;
    cudnnDataType_t dt = e->dbl ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    DNN(cudnnSetTensor4dDescriptor(c->xd, CUDNN_TENSOR_NCHW, dt, 1, 1, S, S));
    DNN(cudnnSetTensor4dDescriptor(c->yd, CUDNN_TENSOR_NCHW, dt, 1, 1, S, S));
    DNN(cudnnSetFilter4dDescriptor(c->fd, dt, CUDNN_TENSOR_NCHW, 1, 1, e->N, e->M));
    DNN(cudnnSetConvolution2dDescriptor(c->cd, e->N / 2, e->M / 2, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, dt));
    DNN(cudnnSetConvolutionMathType(c->cd, tensor_ops ? CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION : CUDNN_FMA_MATH));
    CUDA_DIE(cudaMemcpy(c->dw, c->hw, e->M * e->N * (e->dbl ? 8 : 4), cudaMemcpyHostToDevice));
    cudnnConvolutionFwdAlgoPerf_t perf[8];
    int got = 0;
    DNN(cudnnFindConvolutionForwardAlgorithm(c->dnn, c->xd, c->fd, c->cd, c->yd, 8, &got, perf));
    int best = -1;
    for (int i = 0; i < got && best < 0; i++)
        if (perf[i].status == CUDNN_STATUS_SUCCESS) best = i;
    if (best >= 0) {
        c->algo = perf[best].algo;
        c->wsize = perf[best].memory;
        c->ws = NULL;
        if (c->wsize) CUDA_DIE(cudaMalloc(&c->ws, c->wsize));
        t = time_it(run_cudnn, c);
        if (c->ws) cudaFree(c->ws);
    }
    return t;
}
#endif

static void report(const char *impl, const entry *e, int S, double ms, double check)
{
    double pix = (double)S * S, es = e->dbl ? 8 : 4;
    double fl_mem = 2 * pix * es / BW * 1e3, fl_fma = pix * e->M * e->N / (e->dbl ? FMA64 : FMA32) * 1e3;
    double floor_ms = fl_mem > fl_fma ? fl_mem : fl_fma;
    printf("%-6s %2dx%-2d %-6s %9.4f ms %8.2f GPix/s   floor %7.4f ms (%s) %5.1f%%", e->dbl ? "fp64" : "fp32", e->M,
           e->N, impl, ms, pix / ms / 1e6, floor_ms, fl_mem > fl_fma ? "mem" : "fma", 100 * floor_ms / ms);
    if (!(check < 0)) printf("   |%s - smem| / |smem| %.1e", impl, check); /* NaN printed too */
    printf("\n");
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"M\": %d, \"N\": %d, \"P\": %d, \"impl\": \"%s\", \"size\": %d, "
                      "\"ms\": %.5f, \"gpix_s\": %.3f, \"floor_ms\": %.5f, \"floor\": \"%s\"}",
                json_rows++ ? ",\n" : "", e->dbl ? "fp64" : "fp32", e->M, e->N, e->P, impl, S, ms, pix / ms / 1e6,
                floor_ms, fl_mem > fl_fma ? "mem" : "fma");
}

/* a tensor-core row: the floors are memory, the SIMT FMA peak, and the MMA work (the band's zeros
 * included: N * K multiply-adds per output and pass) at the measured m16n8k8 rate */
static void report_tc(const tc_entry *t, int S, double ms, double simt_ms, double rate, double check)
{
    double pix = (double)S * S, es = t->dbl ? 8 : 4;
    int K = 8 * SSAM_TC_S8(t->M) + 4 * SSAM_TC_T4(t->M);
    double fl_mem = 2 * pix * es / BW * 1e3, fl_fma = pix * t->M * t->N / (t->dbl ? FMA64 : FMA32) * 1e3;
    double fl_mma = pix * t->N * K * t->passes / rate * 1e3;
    double fl = fl_mem > fl_mma ? fl_mem : fl_mma;
    printf("%-6s %2dx%-2d %-9s %9.4f ms %8.2f GPix/s   mma floor %7.4f ms (%4.1f%%)  mem %6.4f  simt-fma %6.4f  "
           "%5.2fx simt   |%s - smem| / |smem| %.1e\n",
           t->dbl ? "fp64" : "fp32", t->M, t->N, t->impl, ms, pix / ms / 1e6, fl_mma, 100 * fl / ms, fl_mem, fl_fma,
           simt_ms / ms, t->impl, check);
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"M\": %d, \"N\": %d, \"impl\": \"%s\", \"size\": %d, \"ms\": %.5f, "
                      "\"gpix_s\": %.3f, \"mma_floor_ms\": %.5f, \"mem_floor_ms\": %.5f, \"fma_floor_ms\": %.5f, "
                      "\"vs_simt\": %.3f, \"diff_smem\": %.3g}",
                json_rows++ ? ",\n" : "", t->dbl ? "fp64" : "fp32", t->M, t->N, t->impl, S, ms, pix / ms / 1e6, fl_mma,
                fl_mem, fl_fma, simt_ms / ms, check);
}

/* relative difference of two device images (as float or double) */
#define compare gpucheck_devdiff

int main(int argc, char **argv)
{
    int S = 8192, only_m = 0, only_n = 0, peers = 1, simt = 1, tc = 1;
    const char *jpath = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &only_m, &only_n) == 2) i++;
        else if (!strcmp(argv[i], "--no-peers")) peers = 0;
        else if (!strcmp(argv[i], "--tc")) simt = 0;
        else if (!strcmp(argv[i], "--no-tc")) tc = 0;
        else { fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--size S] [--only MxN] [--no-peers] [--tc | --no-tc]\n", argv[0]); return 2; }
    }
    if (reps < 1 || S < 64) { fprintf(stderr, "bad --reps or --size\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    printf("conv bench on %s, %dx%d, median of %d; peers%s:%s%s\n", pr.name, S, S, reps, peers ? "" : " (off)",
#ifdef ONCHIP_HAVE_NPP
           " npp",
#else
           " (no npp)",
#endif
#ifdef ONCHIP_HAVE_CUDNN
           " cudnn"
#else
           " (no cudnn)"
#endif
    );
    if (jpath) {
        json = gpucheck_json_open(jpath, "conv", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }
    gpucheck_seed(4242);
    size_t n = (size_t)S * S;
    ctx c;
    memset(&c, 0, sizeof c);
    c.S = S;
    for (int s = 0; s < 2; s++) {
        CUDA_DIE(cudaMalloc(&c.in[s], n * 8));
        CUDA_DIE(cudaMalloc(&c.out[s], n * 8));
    }
    void *ref = NULL;
    CUDA_DIE(cudaMalloc(&ref, n * 8));
    double *hin = (double *)malloc(n * 8);
    float *hinf = (float *)malloc(n * 4);
    for (size_t i = 0; i < n; i++) hin[i] = gpucheck_uniform();
    for (size_t i = 0; i < n; i++) hinf[i] = (float)hin[i];
    CUDA_DIE(cudaMalloc(&c.dw, 400 * 8));
#ifdef ONCHIP_HAVE_NPP
    c.npp.hStream = 0; c.npp.nCudaDeviceId = 0; c.npp.nMultiProcessorCount = pr.multiProcessorCount;
    c.npp.nMaxThreadsPerMultiProcessor = pr.maxThreadsPerMultiProcessor;
    c.npp.nMaxThreadsPerBlock = pr.maxThreadsPerBlock; c.npp.nSharedMemPerBlock = pr.sharedMemPerBlock;
    c.npp.nCudaDevAttrComputeCapabilityMajor = pr.major; c.npp.nCudaDevAttrComputeCapabilityMinor = pr.minor;
#endif
#ifdef ONCHIP_HAVE_CUDNN
    DNN(cudnnCreate(&c.dnn));
    DNN(cudnnCreateTensorDescriptor(&c.xd));
    DNN(cudnnCreateTensorDescriptor(&c.yd));
    DNN(cudnnCreateFilterDescriptor(&c.fd));
    DNN(cudnnCreateConvolutionDescriptor(&c.cd));
    CUDA_DIE(cudaMalloc(&c.dout, n * 8));
#endif
    int last_dbl = -1;
    for (size_t ei = 0; ei < sizeof entries / sizeof *entries; ei++) {
        const entry *e = &entries[ei];
        if (!simt || (only_m && (e->M != only_m || e->N != only_n))) continue;
        c.e = e;
        if (e->dbl != last_dbl) { /* the input in this precision */
            for (int s = 0; s < 2; s++)
                CUDA_DIE(cudaMemcpy(c.in[s], e->dbl ? (void *)hin : (void *)hinf, n * (e->dbl ? 8 : 4),
                                    cudaMemcpyHostToDevice));
            last_dbl = e->dbl;
        }
        double hw[400];
        float hwf[400];
        for (int i = 0; i < e->M * e->N; i++) { hw[i] = gpucheck_uniform(); hwf[i] = (float)hw[i]; }
        c.hw = e->dbl ? (void *)hw : (void *)hwf;
        double t;
        if (e->alt) { /* another P for the same filter: time it, check it against the smem kernel */
            char name[24];
            snprintf(name, sizeof name, "ssam-P%d-m%d", e->P, e->alt);
            entry base = *e;
            base.alt = 0;
            for (size_t k = 0; k < ei; k++)
                if (!entries[k].alt && !entries[k].dbl && entries[k].M == e->M && entries[k].N == e->N) base = entries[k];
            c.e = &base;
            run_smem(&c, 1);
            CUDA_DIE(cudaMemcpy(ref, c.out[1], n * 4, cudaMemcpyDeviceToDevice));
            c.e = e;
            t = time_systolic(&c); /* the alternatives explore the systolic walk's P and MINB */
            report(name, e, S, t, compare(c.out[1], ref, n, 0));
            continue;
        }
        t = time_it(run_smem, &c);
        CUDA_DIE(cudaMemcpy(ref, c.out[1], n * (e->dbl ? 8 : 4), cudaMemcpyDeviceToDevice));
        report("smem", e, S, t, -1);
        t = time_it(run_ssam, &c);
        report("ssam", e, S, t, compare(c.out[1], ref, n, e->dbl));
        if (!e->dbl && SSAM__CONV_QOK(float, e->M, e->N)) { /* "ssam" ran the queued walk: the systolic one too */
            t = time_systolic(&c);
            report("ssam-systolic", e, S, t, compare(c.out[1], ref, n, 0));
        }
#ifdef ONCHIP_HAVE_NPP
        if (!e->dbl && peers) {
            /* NPP correlates with the kernel reversed: give it the flipped weights, anchor (M/2, N/2) */
            float flip[400];
            for (int i = 0; i < e->M * e->N; i++) flip[i] = hwf[e->M * e->N - 1 - i];
            CUDA_DIE(cudaMemcpy(c.dw, flip, e->M * e->N * 4, cudaMemcpyHostToDevice));
            t = time_it(run_npp, &c);
            report("npp", e, S, t, (e->M % 2 && e->N % 2) ? compare(c.out[1], ref, n, 0) : -1);
        }
#endif
#ifdef ONCHIP_HAVE_CUDNN
        if (e->M % 2 && e->N % 2 && peers && (t = time_cudnn(&c, e, S, 0)) > 0) report("cudnn", e, S, t, -1);
#endif
    }
    /* ---- tensor cores: each mode beside the SIMT kernel and cuDNN with tensor cores allowed ---- */
    if (tc) {
        double rate[RATE_KINDS];
        printf("mma.sync measured (TFMA/s):");
        for (int k = 0; k < RATE_KINDS; k++) {
            rate[k] = (k < 3 || pr.major >= 9) ? mma_rate_of(k, pr.multiProcessorCount, ref) : 1;
            printf(" %s %.2f", rate_name[k], rate[k] / 1e12);
            if (json)
                fprintf(json, "%s  {\"impl\": \"mma-rate\", \"kind\": \"%s\", \"fma_s\": %.4g}", json_rows++ ? ",\n" : "",
                        rate_name[k], rate[k]);
        }
        printf("\n");
        int last_m = -1, last_n = -1;
        last_dbl = -1;
        double hw[400];
        float hwf[400];
        double simt_ms = 0;
        for (size_t ti = 0; ti < sizeof tc_entries / sizeof *tc_entries; ti++) {
            const tc_entry *t = &tc_entries[ti];
            if (only_m && (t->M != only_m || t->N != only_n)) continue;
            const entry *e = NULL;
            for (size_t k = 0; k < sizeof entries / sizeof *entries && !e; k++)
                if (!entries[k].alt && entries[k].dbl == t->dbl && entries[k].M == t->M && entries[k].N == t->N) e = &entries[k];
            if (!e) continue;
            c.e = e;
            if (t->dbl != last_dbl) {
                for (int s = 0; s < 2; s++)
                    CUDA_DIE(cudaMemcpy(c.in[s], t->dbl ? (void *)hin : (void *)hinf, n * (t->dbl ? 8 : 4),
                                        cudaMemcpyHostToDevice));
            }
            if (t->M != last_m || t->N != last_n || t->dbl != last_dbl) { /* a new filter: weights, reference, SIMT */
                for (int i = 0; i < t->M * t->N; i++) { hw[i] = gpucheck_uniform(); hwf[i] = (float)hw[i]; }
                c.hw = t->dbl ? (void *)hw : (void *)hwf;
                run_smem(&c, 1);
                CUDA_DIE(cudaMemcpy(ref, c.out[1], n * (t->dbl ? 8 : 4), cudaMemcpyDeviceToDevice));
                simt_ms = time_it(run_ssam, &c);
                report("ssam", e, S, simt_ms, compare(c.out[1], ref, n, e->dbl));
#ifdef ONCHIP_HAVE_CUDNN
                double tq;
                if (e->M % 2 && e->N % 2 && peers && (tq = time_cudnn(&c, e, S, 1)) > 0) report("cudnn-tc", e, S, tq, -1);
#endif
                last_m = t->M; last_n = t->N; last_dbl = t->dbl;
            }
            entry te = *e;
            te.ssam = t->launch;
            c.e = &te;
            double ms = time_it(run_ssam, &c);
            report_tc(t, S, ms, simt_ms, rate[t->dbl ? 4 : 2], compare(c.out[1], ref, n, t->dbl));
        }
    }
    /* ---- half-precision storage: 2 bytes a pixel in and out, beside the fp32 kernel ---- */
    if (simt) {
        double bw = gpucheck_copy_bw(c.out[0], c.in[0], n * 4);
        printf("half storage (SSAM_CONV2D_DEFINE, T __half / __nv_bfloat16), floor = 4 bytes a pixel at the copy bandwidth measured now, %.0f GB/s\n",
               bw / 1e9);
        float hwf[25];
        void *hbuf = malloc(n * 4);
        float *fout = (float *)malloc(n * 4);
        double r16 = 0; /* the f16 MMA rate, measured at the first tensor-core row */
        int sms = 132;
        CUDA_DIE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        for (size_t hi = 0; hi < sizeof half_entries / sizeof *half_entries; hi++) {
            const half_entry *h = &half_entries[hi];
            if (only_m && (h->M != only_m || h->N != only_n)) continue;
            const entry *e = NULL;
            for (size_t k = 0; k < sizeof entries / sizeof *entries && !e; k++)
                if (!entries[k].alt && !entries[k].dbl && entries[k].M == h->M && entries[k].N == h->N) e = &entries[k];
            if (!e) continue;
            for (int i = 0; i < h->M * h->N; i++) hwf[i] = gpucheck_uniform();
            c.hw = hwf;
            for (int s = 0; s < 2; s++) CUDA_DIE(cudaMemcpy(c.in[s], hinf, n * 4, cudaMemcpyHostToDevice));
            c.e = e;
            double t32 = time_it(run_ssam, &c);
            CUDA_DIE(cudaMemcpy(fout, c.out[1], n * 4, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; i++) {
                if (h->bf16) ((__nv_bfloat16 *)hbuf)[i] = __float2bfloat16(hinf[i]); /* the input, per entry */
                else ((__half *)hbuf)[i] = __float2half(hinf[i]);
            }
            for (int s = 0; s < 2; s++) CUDA_DIE(cudaMemcpy(c.in[s], hbuf, n * 2, cudaMemcpyHostToDevice));
            entry he = *e;
            he.ssam = h->launch;
            c.e = &he;
            double th = time_it(run_ssam, &c);
            CUDA_DIE(cudaMemcpy(hbuf, c.out[1], n * 2, cudaMemcpyDeviceToHost));
            double num = 0, den = 0;
            for (size_t i = 0; i < n; i++) {
                double v = h->bf16 ? __bfloat162float(((__nv_bfloat16 *)hbuf)[i]) : __half2float(((__half *)hbuf)[i]);
                num += (v - fout[i]) * (v - fout[i]);
                den += (double)fout[i] * fout[i];
            }
            double ts = -1; /* the same launcher on the systolic walk, where "ssam" took the queued one */
            if (!h->tc && SSAM__CONV_QOK(__half, h->M, h->N)) {
                ts = time_systolic(&c);
            }
            double floor_ms = 4.0 * n / bw * 1e3;
            if (h->tc) { /* the MMA floor: 16 x 8 outputs per band step of K columns, at the measured f16 rate */
                if (r16 == 0) r16 = mma_rate_of(5, sms, c.out[0]);
                const double mma_ms = (double)n * h->N * (8 * SSAM_TC_S8(h->M) + 8 * SSAM_TC_T4(h->M)) / r16 * 1e3;
                if (mma_ms > floor_ms) floor_ms = mma_ms;
            }
            printf("%-7s %2dx%-2d %-8s %9.4f ms %8.2f GPix/s   floor %7.4f ms (%s) %5.1f%%   fp32 %.4f ms (%.2fx)   "
                   "|%s - fp32| / |fp32| %.1e\n",
                   h->impl, h->M, h->N, h->tc ? "tc" : "ssam", th, n / th / 1e6, floor_ms,
                   h->tc ? "max of mem and mma at the f16 rate" : "mem, measured bw", 100 * floor_ms / th, t32, t32 / th,
                   h->impl, sqrt(num / den));
            if (ts > 0) printf("%-7s %2dx%-2d %-8s %9.4f ms %8.2f GPix/s   floor %7.4f ms (%s) %5.1f%%   (queued walk %.2fx)\n",
                               h->impl, h->M, h->N, "systolic", ts, n / ts / 1e6, floor_ms, "mem, measured bw",
                               100 * floor_ms / ts, ts / th);
            if (json && ts > 0)
                fprintf(json, "%s  {\"type\": \"%s\", \"M\": %d, \"N\": %d, \"impl\": \"ssam-storage-systolic\", \"size\": %d, "
                              "\"ms\": %.5f, \"floor_ms\": %.5f}",
                        json_rows++ ? ",\n" : "", h->bf16 ? "bf16" : "half", h->M, h->N, S, ts, floor_ms);
            if (json)
                fprintf(json, "%s  {\"type\": \"%s\", \"M\": %d, \"N\": %d, \"impl\": \"%s\", \"size\": %d, "
                              "\"ms\": %.5f, \"floor_ms\": %.5f, \"fp32_ms\": %.5f, \"diff_fp32\": %.3g, \"copy_bw\": %.4g}",
                        json_rows++ ? ",\n" : "", h->bf16 ? "bf16" : "half", h->M, h->N, h->tc ? h->impl : "ssam-storage", S, th,
                        floor_ms, t32, sqrt(num / den), bw);
        }
        free(hbuf);
        free(fout);
    }
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    return 0;
}
