/* bench/mma_rate.cuh -- the mma.sync rates this device gives (bench/ssam_conv.cu, bench/ssam_stencil_tc.cu):
 * the MMA floors' denominators, measured in the same run as the kernels they judge.  Needs
 * ssam/conv_tc.cuh (the MMA wrappers) and gpucheck.h. */
#ifndef ONCHIP_BENCH_MMA_RATE_CUH
#define ONCHIP_BENCH_MMA_RATE_CUH

/* the tensor rate this device gives mma.sync: 8 independent accumulators per warp, 4 blocks of 256
 * threads per SM; FMAs per second (the MMA floor's denominator).  Kinds: 0 m16n8k4 tf32, 1 m8n8k4 f64
 * (sm_80's DMMA), 2 m16n8k8 tf32 (conv_tc's float MMA), 3 m16n8k4 f64, 4 m16n8k8 f64 (conv_tc's double
 * MMA on sm_90; the f64 m16n8 shapes are sm_90 only), 5 m16n8k8 f16 (conv_tc's f16 / bf16 MMA) */
#define RATE_KINDS 6
static const char *rate_name[RATE_KINDS] = {"m16n8k4.tf32", "m8n8k4.f64", "m16n8k8.tf32", "m16n8k4.f64", "m16n8k8.f64",
                                            "m16n8k8.f16"};
static const int rate_fma[RATE_KINDS] = {512, 256, 1024, 512, 1024, 1024};
/* one kernel per kind: 8 independent accumulators per warp, the operands in registers */
#define RATE_KERNEL(kname, CT, NC, ARCH, ...)                                                            \
    __global__ void __launch_bounds__(256) kname(double *out, int iters)                                 \
    {                                                                                                    \
        CT c[8][NC] = {};                                                                                \
        CT fa = (CT)(threadIdx.x * 1e-3), fb = (CT)1;                                                    \
        double acc = (double)fb - 1;                                                                     \
        unsigned ua = ssam_tf32((float)fa), ub = ssam_tf32(1.0f);                                        \
        (void)ua; (void)ub; (void)fa; (void)fb;                                                          \
        if (ARCH)                                                                                        \
            for (int it = 0; it < iters; it++)                                                           \
                _Pragma("unroll") for (int k = 0; k < 8; k++) { __VA_ARGS__; }                                  \
        for (int k = 0; k < 8; k++)                                                                      \
            for (int e = 0; e < NC; e++) acc += c[k][e];                                                 \
        if (acc == 12345.678) out[0] = acc; /* keeps the MMAs alive */                                   \
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define RATE_SM90 1
#else
#define RATE_SM90 0
#endif
RATE_KERNEL(rate_k0, float, 4, 1, ssam__mma_tf32_k4(c[k], ua, ub, ub))
RATE_KERNEL(rate_k1, double, 2, 1, ssam__mma_f64_884(c[k], fa, fb))
RATE_KERNEL(rate_k2, float, 4, 1, unsigned a4[4] = {ua, ub, ua, ub}; unsigned b2[2] = {ub, ua}; ssam__mma_tf32_k8(c[k], a4, b2))
RATE_KERNEL(rate_k3, double, 4, RATE_SM90, ssam__mma_f64_k4(c[k], fa, fb, fb))
RATE_KERNEL(rate_k4, double, 4, RATE_SM90, double a4[4] = {fa, fb, fa, fb}; double b2[2] = {fb, fa}; ssam__mma_f64_k8(c[k], a4, b2))
RATE_KERNEL(rate_k5, float, 4, 1, ssam__mma_h16_k8(c[k], ua, ub, ub, 0))
typedef void (*rate_fn)(double *, int);
static const rate_fn rate_kernels[] = {rate_k0, rate_k1, rate_k2, rate_k3, rate_k4, rate_k5};
typedef struct rate_ctx { void *out; int kind, blocks; } rate_ctx;
static void run_rate(void *p, int s)
{
    rate_ctx *r = (rate_ctx *)p;
    (void)s;
    rate_kernels[r->kind]<<<r->blocks, 256>>>((double *)r->out, 256);
}
static double mma_rate_of(int kind, int sms, void *scratch)
{
    rate_ctx r = {scratch, kind, 4 * sms};
    double ms = gpucheck_time_ms(run_rate, &r, 2, 7);
    return (double)r.blocks * 8 * 256 * 8 * rate_fma[kind] / (ms * 1e-3);
}


#endif /* ONCHIP_BENCH_MMA_RATE_CUH */
