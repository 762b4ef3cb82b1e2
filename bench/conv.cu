/* bench/conv.cu -- ssam 2D convolution against its peers in the same run, 8192^2 by default:
 *   ssam   SSAM_CONV2D_DEFINE kernels (register cache + systolic shifts), fp32 and fp64
 *   smem   a plain shared-memory tiled kernel (32x8 outputs per block, the tile and its halo in
 *          shared memory, weights in kernel parameters, loops unrolled): the usual baseline
 *   npp    nppiFilterBorder_32f_C1R_Ctx, replicate border       (built when NPP is found)
 *   cudnn  cudnnConvolutionForward, one channel, best algorithm by cudnnFind, FMA math (no TF32),
 *          odd filters only                                      (built when cuDNN is found)
 * All use the nearest/replicate border (cuDNN pads with zeros: its output is not compared).
 * ms is the median of --reps runs after warm-up; the floor is max(bytes / 4.27 TB/s, FMAs / peak)
 * with one read and one write of the image and FP32 67 TFLOP/s, FP64 34 TFLOP/s.
 * usage: conv [--json PATH] [--reps N] [--size S] [--only MxN] [--no-peers]
 *   --only 20x20 times that filter alone; --no-peers skips NPP and cuDNN (for ncu: profile with
 *   --only and --no-peers, e.g. ncu --kernel-name regex:ssam_f32_20x20 --launch-count 1 ...). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ssam/conv.cuh>

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
    SSAM_CONV2D_DEFINE(ssam_f32_##M##x##N, float, M, N, P, 128)                                          \
    SMEM_CONV_DEFINE(smem_f32_##M##x##N, float, M, N)
#define DEF_F64(M, N, P)                                                                                 \
    SSAM_CONV2D_DEFINE(ssam_f64_##M##x##N, double, M, N, P, BLOCK_F64(M))                                         \
    SMEM_CONV_DEFINE(smem_f64_##M##x##N, double, M, N)
FILTERS_F32(DEF_F32)
FILTERS_F64(DEF_F64)
#define DEF_ALT(M, N, P, MB) SSAM_CONV2D_DEFINE_OCC(ssam_f32_##M##x##N##_p##P##_m##MB, float, M, N, P, 128, MB)
ALTS_F32(DEF_ALT)

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
    a.weights = c->hw; a.fw = c->e->M; a.fh = c->e->N; a.border = SSAM_BORDER_NEAREST;
    int rc = c->e->ssam(&a, 0);
    if (rc) { fprintf(stderr, "ssam launch: %s\n", ssam_strerror(rc)); exit(2); }
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

static void report(const char *impl, const entry *e, int S, double ms, double check)
{
    double pix = (double)S * S, es = e->dbl ? 8 : 4;
    double fl_mem = 2 * pix * es / BW * 1e3, fl_fma = pix * e->M * e->N / (e->dbl ? FMA64 : FMA32) * 1e3;
    double floor_ms = fl_mem > fl_fma ? fl_mem : fl_fma;
    printf("%-6s %2dx%-2d %-6s %9.4f ms %8.2f GPix/s   floor %7.4f ms (%s) %5.1f%%", e->dbl ? "fp64" : "fp32", e->M,
           e->N, impl, ms, pix / ms / 1e6, floor_ms, fl_mem > fl_fma ? "mem" : "fma", 100 * floor_ms / ms);
    if (check >= 0) printf("   |%s - smem| / |smem| %.1e", impl, check);
    printf("\n");
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"M\": %d, \"N\": %d, \"P\": %d, \"impl\": \"%s\", \"size\": %d, "
                      "\"ms\": %.5f, \"gpix_s\": %.3f, \"floor_ms\": %.5f, \"floor\": \"%s\"}",
                json_rows++ ? ",\n" : "", e->dbl ? "fp64" : "fp32", e->M, e->N, e->P, impl, S, ms, pix / ms / 1e6,
                floor_ms, fl_mem > fl_fma ? "mem" : "fma");
}

/* relative difference of two device images (as float or double) */
#define compare gpucheck_devdiff

int main(int argc, char **argv)
{
    int S = 8192, only_m = 0, only_n = 0, peers = 1;
    const char *jpath = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) S = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &only_m, &only_n) == 2) i++;
        else if (!strcmp(argv[i], "--no-peers")) peers = 0;
        else { fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--size S] [--only MxN] [--no-peers]\n", argv[0]); return 2; }
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
        if (only_m && (e->M != only_m || e->N != only_n)) continue;
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
            t = time_it(run_ssam, &c);
            report(name, e, S, t, compare(c.out[1], ref, n, 0));
            continue;
        }
        t = time_it(run_smem, &c);
        CUDA_DIE(cudaMemcpy(ref, c.out[1], n * (e->dbl ? 8 : 4), cudaMemcpyDeviceToDevice));
        report("smem", e, S, t, -1);
        t = time_it(run_ssam, &c);
        report("ssam", e, S, t, compare(c.out[1], ref, n, e->dbl));
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
        if (e->M % 2 && e->N % 2 && peers) {
            cudnnDataType_t dt = e->dbl ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
            DNN(cudnnSetTensor4dDescriptor(c.xd, CUDNN_TENSOR_NCHW, dt, 1, 1, S, S));
            DNN(cudnnSetTensor4dDescriptor(c.yd, CUDNN_TENSOR_NCHW, dt, 1, 1, S, S));
            DNN(cudnnSetFilter4dDescriptor(c.fd, dt, CUDNN_TENSOR_NCHW, 1, 1, e->N, e->M));
            DNN(cudnnSetConvolution2dDescriptor(c.cd, e->N / 2, e->M / 2, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, dt));
            DNN(cudnnSetConvolutionMathType(c.cd, CUDNN_FMA_MATH));
            CUDA_DIE(cudaMemcpy(c.dw, c.hw, e->M * e->N * (e->dbl ? 8 : 4), cudaMemcpyHostToDevice));
            cudnnConvolutionFwdAlgoPerf_t perf[8];
            int got = 0;
            DNN(cudnnFindConvolutionForwardAlgorithm(c.dnn, c.xd, c.fd, c.cd, c.yd, 8, &got, perf));
            int best = -1;
            for (int i = 0; i < got && best < 0; i++)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) best = i;
            if (best >= 0) {
                c.algo = perf[best].algo;
                c.wsize = perf[best].memory;
                c.ws = NULL;
                if (c.wsize) CUDA_DIE(cudaMalloc(&c.ws, c.wsize));
                t = time_it(run_cudnn, &c);
                report("cudnn", e, S, t, -1);
                if (c.ws) cudaFree(c.ws);
            }
        }
#endif
    }
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    return 0;
}
