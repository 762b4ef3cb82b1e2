/* examples/python/ssam_kernels.cu -- the CUDA source that examples/python/ssam_cupy.py compiles at
 * run time with NVRTC (cupy.RawModule); `make test` compiles it too (tools/check-nvrtc).
 *
 * Two kernels:
 *   maxfilter5       a kernel of one's own from ssam's pieces (base.cuh, regcache.cuh, shift.cuh): a
 *                    5x5 maximum filter, SciPy's 'reflect' border, extern "C" (its plain name)
 *   blur5_kernel     SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<4, 128>)'s systolic kernel: under NVRTC
 *                    the generator emits its kernels only (blur5_kernel, blur5_qkernel) and the
 *                    caller does what blur5_launch does on the host (ssam/conv.cuh, NVRTC AND PYTHON)
 * and conv_geom_layout, which writes the size and field offsets of ssam_conv2d_geom, so that the
 * Python side can check the structured dtype it builds against the compiler's layout. */
#include <ssam/base.cuh>
#include <ssam/conv.cuh>
#include <ssam/regcache.cuh>
#include <ssam/shift.cuh>

/* ---- a 5x5 max filter from the pieces (the loop of examples/dilate.cu) ---- */
enum {
    MF_M = 5, MF_N = 5,                                       /* the window: M columns, N rows */
    MF_AX = (MF_M - 1) / 2, MF_AY = (MF_N - 1) / 2,           /* its centre (SciPy's origin 0) */
    MF_V = 4,                                                 /* columns per lane: one float4 */
    MF_P = 8,                                                 /* output rows per chunk */
    MF_R = MF_P + MF_N - 1,                                   /* rows in the register cache */
    MF_STEP = (32 * MF_V - MF_M + 1 - (MF_V - 1)) / MF_V * MF_V, /* complete outputs per warp and row */
    MF_WARPS = 4,                                             /* warps per block: 128 threads */
    MF_SEG = 64                                               /* output rows per block (a multiple of P) */
};

/* the operator of the systolic step: the max, the weight unused (a flat window) */
#define MF_MAX(acc, x, w) fmaxf((acc), (x))

/* dst = the maximum of src over the 5x5 window centred on each pixel, rows past an edge reflected
 * (d c b a | a b c d | d c b a, SciPy's mode='reflect').  src, dst: h rows of `pitch` floats; vec:
 * src 16-byte aligned and pitch a multiple of 4 (16-byte loads).  Grid: ceil(w / (4 MF_STEP)) x
 * ceil(h / MF_SEG) blocks of 128 threads, no dynamic shared memory. */
extern "C" __global__ void __launch_bounds__(MF_WARPS * 32)
    maxfilter5(const float *__restrict__ src, float *__restrict__ dst, int w, int h, long long pitch, int vec)
{
    const float zeros[MF_M * MF_N] = {}; /* the step's weights, unused by MF_MAX */
    const int border = SSAM_BORDER_REFLECT;
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * MF_WARPS + (threadIdx.x >> 5)) * MF_STEP; /* the warp's first output column */
    if (X0 >= w) return; /* whole warps only: the shuffles need every lane */
    const int Ys = blockIdx.y * MF_SEG, Ye = min(Ys + MF_SEG, h);
    const int xa = X0 - MF_AX;                     /* input column of output X0's tap m = 0 */
    const int xi = xa - (((xa % MF_V) + MF_V) % MF_V); /* the warp's first cached column, aligned */
    const int s = xa - xi;                         /* local column of output X0 */
    const int x = xi + MF_V * lane;                /* this lane's first column */
    float data[MF_V][MF_R], out[MF_V];
    int cx[MF_V], in, rows[MF_N - 1], prow[MF_P];

    SSAM_REGCACHE_COLUMNS(MF_V, cx, in, x, w, border, vec);
#pragma unroll
    for (int r = 0; r < MF_N - 1; r++) rows[r] = ssam_border_index(Ys - MF_AY + r, h, border);
    SSAM_REGCACHE_ROWS(float, MF_V, data, 0, MF_N - 1, src, pitch, x, cx, in, rows, 0.0f);
#pragma unroll 1
    for (int y0 = Ys; y0 < Ye; y0 += MF_P) {
#pragma unroll
        for (int r = 0; r < MF_P; r++) prow[r] = ssam_border_index(y0 - MF_AY + MF_N - 1 + r, h, border);
        SSAM_REGCACHE_ROWS(float, MF_V, data, MF_N - 1, MF_P, src, pitch, x, cx, in, prow, 0.0f);
#pragma unroll
        for (int p = 0; p < MF_P; p++) {
            SSAM_SYSTOLIC_ROW_OP(float, MF_V, MF_M, MF_N, out, data, p, zeros, -INFINITY, MF_MAX);
            if (y0 + p < Ye) {
                float *drow = dst + (long long)(y0 + p) * pitch;
#pragma unroll
                for (int k = 0; k < MF_V; k++) {
                    const int u = MF_V * lane + k - s; /* output column X0 + u; complete when u < STEP */
                    if (u >= 0 && u < MF_STEP && X0 + u < w) drow[X0 + u] = out[k];
                }
            }
        }
        SSAM_REGCACHE_SLIDE(MF_V, data, MF_N - 1, MF_P);
    }
}

/* ---- a generated convolution: 5x5 float, 4 output rows per step, 128 threads ---- */
SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<4, 128>)

/* the layout of ssam_conv2d_geom: out[0] its size, out[1 ..] the offsets of w, h, ow, oh, sp, dp, ax,
 * ay, border, vec, ovec, seg, cval */
extern "C" __global__ void conv_geom_layout(long long *out)
{
    ssam_conv2d_geom g;
    out[0] = (long long)sizeof(ssam_conv2d_geom);
    out[1] = (const char *)&g.w - (const char *)&g;
    out[2] = (const char *)&g.h - (const char *)&g;
    out[3] = (const char *)&g.ow - (const char *)&g;
    out[4] = (const char *)&g.oh - (const char *)&g;
    out[5] = (const char *)&g.sp - (const char *)&g;
    out[6] = (const char *)&g.dp - (const char *)&g;
    out[7] = (const char *)&g.ax - (const char *)&g;
    out[8] = (const char *)&g.ay - (const char *)&g;
    out[9] = (const char *)&g.border - (const char *)&g;
    out[10] = (const char *)&g.vec - (const char *)&g;
    out[11] = (const char *)&g.ovec - (const char *)&g;
    out[12] = (const char *)&g.seg - (const char *)&g;
    out[13] = (const char *)&g.cval - (const char *)&g;
}

/* the kernels tools/check-nvrtc asks NVRTC for when `make test` compiles this file (the names
 * ssam_cupy.py uses: blur5_kernel through RawModule's name_expressions, the others extern "C"):
//@ kernel maxfilter5
//@ kernel blur5_kernel
//@ kernel blur5_qkernel
//@ kernel conv_geom_layout
 */
