/* bench/ssam_stencil.cu -- ssam stencils against their peers in the same run: every catalogue stencil
 * (SSAM Table 3) at 8192^2 (2D) and 512^3 (3D), fp32 and fp64, Dirichlet boundary, one step:
 *   ssam   SSAM_STENCIL2D_DEFINE kernels (register window + lane shifts), plus a few other
 *          rows-per-step (P) and register-budget (MINB) choices, "ssam-P<p>-b<B>-m<minb>"
 *   stream SSAM_STENCIL3D_DEFINE with SSAM_SCHEDULE_STREAM (register streaming along Z), "stream-P.."
 *          alternatives (and "-gh|ovl-gridN|trimN" rows: layout, 2D grid rule and 3D per-slot-row
 *          options through the internal *_DEFINE_X macros, timed beside the defaults)
 *   slice  SSAM_STENCIL3D_DEFINE with SSAM_SCHEDULE_SLICE (section 4.9: warps on XY slices, Z partial
 *          sums through shared memory), "slice-P.." alternatives; each 3D row also names the variant
 *          SSAM_SCHEDULE_AUTO picks (SSAM_STENCIL3D_SLICE_RULE)
 *   smem   a plain shared-memory tiled kernel of the same stencil (the usual baseline of the PERKS
 *          paper): 2D 32x8 outputs per block, 3D 32x4x4, tile and halo in shared memory, the same
 *          coefficients in kernel parameters, the same Dirichlet rule; its output checks ssam's
 *   conv   for the 2D boxes, the ssam convolution path (SSAM_CONV2D_DEFINE, nearest border: it also
 *          computes the edge cells, so it is timed, not compared)
 * GCells/s = cells / time; the floor is max(one read + one write per cell at 4.27 TB/s, one FMA per
 * point at 33.5 (fp32) / 17 (fp64) TFMA/s).  ms is the median of --reps runs after 3 warm-ups,
 * alternating two input/output pairs (each larger than the L2).
 * usage: stencil [--json PATH] [--reps N] [--size2 S] [--size3 S] [--only NAME] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/conv.cuh>
#include <ssam/stencil.cuh>

#include "gpucheck.h"

#define BW 4.27e12
#define FMA32 (67e12 / 2)
#define FMA64 (34e12 / 2)

/* ---- shared-memory baselines ----------------------------------------------------------------- */
#define SM_TX 32
#define SM_TY 8
#define SM_PT2(I, DX, DY) s = fma(tile[ty + (DY)-YLO][tx + (DX)-XLO], cf.c[I], s);
#define SM_PT3(I, DX, DY, DZ) s = fma(tile[tz + (DZ)-ZLO][ty + (DY)-YLO][tx + (DX)-XLO], cf.c[I], s);
#define SMEM2D_DEFINE(name, T, SHAPE, ref)                                                                \
    __global__ void __launch_bounds__(SM_TX *SM_TY) name(const T *__restrict__ in, T *__restrict__ out, int W,  \
                                                         int H, ref##_coef cf)                            \
    {                                                                                                     \
        enum { XLO = ref##_XLO, XHI = ref##_XHI, YLO = ref##_YLO, YHI = ref##_YHI };                      \
        __shared__ T tile[SM_TY + YHI - YLO][SM_TX + XHI - XLO];                                          \
        const int x0 = blockIdx.x * SM_TX, y0 = blockIdx.y * SM_TY;                                       \
        for (int i = threadIdx.y * SM_TX + threadIdx.x; i < (SM_TY + YHI - YLO) * (SM_TX + XHI - XLO);     \
             i += SM_TX * SM_TY) {                                                                        \
            int ty = i / (SM_TX + XHI - XLO), tx = i % (SM_TX + XHI - XLO);                               \
            int gx = min(max(x0 + tx + XLO, 0), W - 1), gy = min(max(y0 + ty + YLO, 0), H - 1);           \
            tile[ty][tx] = in[(size_t)gy * W + gx];                                                       \
        }                                                                                                 \
        __syncthreads();                                                                                  \
        const int tx = threadIdx.x, ty = threadIdx.y, x = x0 + tx, y = y0 + ty;                           \
        if (x >= W || y >= H) return;                                                                     \
        T s = 0;                                                                                          \
        SHAPE(SM_PT2)                                                                                     \
        if (!(x + XLO >= 0 && x + XHI < W && y + YLO >= 0 && y + YHI < H)) s = tile[ty - YLO][tx - XLO];  \
        out[(size_t)y * W + x] = s;                                                                       \
    }
#define SM3_X 32
#define SM3_Y 4
#define SM3_Z 4
#define SMEM3D_DEFINE(name, T, SHAPE, ref)                                                                \
    __global__ void __launch_bounds__(SM3_X *SM3_Y *SM3_Z) name(const T *__restrict__ in, T *__restrict__ out, \
                                                                int W, int H, int D, ref##_coef cf)       \
    {                                                                                                     \
        enum { XLO = ref##_XLO, XHI = ref##_XHI, YLO = ref##_YLO, YHI = ref##_YHI, ZLO = ref##_ZLO, ZHI = ref##_ZHI }; \
        enum { TX = SM3_X + XHI - XLO, TY = SM3_Y + YHI - YLO, TZ = SM3_Z + ZHI - ZLO };                   \
        __shared__ T tile[TZ][TY][TX];                                                                    \
        const int x0 = blockIdx.x * SM3_X, y0 = blockIdx.y * SM3_Y, z0 = blockIdx.z * SM3_Z;              \
        const int tid = (threadIdx.z * SM3_Y + threadIdx.y) * SM3_X + threadIdx.x;                        \
        for (int i = tid; i < TX * TY * TZ; i += SM3_X * SM3_Y * SM3_Z) {                                  \
            int tz = i / (TX * TY), ty = i / TX % TY, tx = i % TX;                                        \
            int gx = min(max(x0 + tx + XLO, 0), W - 1), gy = min(max(y0 + ty + YLO, 0), H - 1);           \
            int gz = min(max(z0 + tz + ZLO, 0), D - 1);                                                   \
            tile[tz][ty][tx] = in[((size_t)gz * H + gy) * W + gx];                                        \
        }                                                                                                 \
        __syncthreads();                                                                                  \
        const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;                                   \
        const int x = x0 + tx, y = y0 + ty, z = z0 + tz;                                                  \
        if (x >= W || y >= H || z >= D) return;                                                           \
        T s = 0;                                                                                          \
        SHAPE(SM_PT3)                                                                                     \
        if (!(x + XLO >= 0 && x + XHI < W && y + YLO >= 0 && y + YHI < H && z + ZLO >= 0 && z + ZHI < D)) \
            s = tile[tz - ZLO][ty - YLO][tx - XLO];                                                       \
        out[((size_t)z * H + y) * W + x] = s;                                                             \
    }

/* ---- the catalogue: (shape, name, paper name, P fp32, P fp64, conv size or 0, conv P) ---------- */
#define CAT2D(X)                                                                                          \
    X(ONCHIP_SHAPE_STAR2D_R1, star2d_r1, "2d5pt", 8, 8, 0, 0)                                               \
    X(ONCHIP_SHAPE_STAR2D_R2, star2d_r2, "2ds9pt", 8, 4, 0, 0)                                               \
    X(ONCHIP_SHAPE_STAR2D_R3, star2d_r3, "2d13pt", 4, 4, 0, 0)                                              \
    X(ONCHIP_SHAPE_STAR2D_R4, star2d_r4, "2d17pt", 4, 4, 0, 0)                                              \
    X(ONCHIP_SHAPE_STAR2D_R5, star2d_r5, "2d21pt", 4, 2, 0, 0)                                              \
    X(ONCHIP_SHAPE_STAR2D_R6, star2d_r6, "2ds25pt", 4, 2, 0, 0)                                             \
    X(ONCHIP_SHAPE_BOX2D_R1, box2d_r1, "2d9pt", 8, 8, 3, 8)                                             \
    X(ONCHIP_SHAPE_BOX2D_R2, box2d_r2, "2d25pt", 4, 4, 5, 8)                                                \
    X(ONCHIP_SHAPE_BOX2D_8X8, box2d_8x8, "2d64pt", 2, 2, 8, 4)                                              \
    X(ONCHIP_SHAPE_BOX2D_R4, box2d_r4, "2d81pt", 2, 2, 9, 4)                                                \
    X(ONCHIP_SHAPE_BOX2D_R5, box2d_r5, "2d121pt", 2, 1, 11, 1)
/* (shape, name, paper name, P fp32, B fp32 (MINB 2 at 256 threads: 128 registers at most, two blocks an
 * SM), P fp64, B fp64, MINB fp64 of the streaming kernel; P fp32,
 * P fp64, B fp64 of the slice kernel (fp32 B 128)) */
#define CAT3D(X)                                                                                          \
    X(ONCHIP_SHAPE_STAR3D_R1, star3d_r1, "3d7pt", 4, 128, 4, 128, 1, 2, 2, 128)                             \
    X(ONCHIP_SHAPE_STAR3D_R2, star3d_r2, "3d13pt", 2, 256, 2, 64, 1, 4, 2, 256)                             \
    X(ONCHIP_SHAPE_BOX3D_R1, box3d_r1, "3d27pt", 4, 128, 2, 128, 1, 4, 2, 128)                              \
    X(ONCHIP_SHAPE_BOX3D_R2, box3d_r2, "3d125pt", 2, 128, 1, 64, 6, 2, 1, 128)                              \
    X(ONCHIP_SHAPE_POISSON3D_19, poisson3d_19, "poisson", 4, 128, 2, 128, 5, 8, 4, 128)
/* other choices timed too: (kind, dims, shape, name, type, P, B, MINB); kind 2D, 3D_STREAM, 3D_SLICE */
#define ALTS(X)                                                                                           \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 4, 128, 1) X(2D, 2, ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 8, 64, 1) \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R1, star2d_r1, double, 4, 128, 1)                                          \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 4, 64, 1)                                     \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 1, 128, 1)                                   \
    X(3D_SLICE, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 1, 256, 1)                                    \
    X(3D_SLICE, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 2, 512, 1)                                    \
    X(3D_SLICE, 3, ONCHIP_SHAPE_BOX3D_R2, box3d_r2, double, 1, 256, 1)                                      \
    X(3D_SLICE, 3, ONCHIP_SHAPE_BOX3D_R2, box3d_r2, double, 1, 64, 1)

/* layout, grid and window choices timed beside the defaults (the internal definitions): (kind, dims,
 * shape, name, type, P, B, MINB, GHM, OPT); GHM 0 overlap lanes, 1 ghost lanes where the shape allows
 * them; OPT the 2D grid rule (0 two full waves of resident blocks, n >= 2 n waves, 1 ~48 warps per SM)
 * or the 3D per-slot rows (TRIM; 0: every plane slot keeps the full window of rows) */
#define ALTX(X)                                                                                           \
    X(2D, 2, ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 8, 128, 1, 1, 1)                                       \
    X(2D, 2, ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 8, 128, 1, 1, 3)                                       \
    X(2D, 2, ONCHIP_SHAPE_BOX2D_R1, box2d_r1, float, 8, 128, 1, 1, 4)                                       \
    X(2D, 2, ONCHIP_SHAPE_BOX2D_R2, box2d_r2, float, 4, 128, 1, 1, 3)                                       \
    X(2D, 2, ONCHIP_SHAPE_BOX2D_R2, box2d_r2, float, 4, 128, 1, 1, 4)                                       \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R5, star2d_r5, float, 4, 128, 1, 1, 3)                                     \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R5, star2d_r5, float, 4, 128, 1, 1, 4)                                     \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 8, 128, 1, 1, 3)                                     \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R1, star2d_r1, float, 8, 128, 1, 1, 4)                                     \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R4, star2d_r4, float, 4, 128, 1, 1, 0)                                     \
    X(2D, 2, ONCHIP_SHAPE_STAR2D_R4, star2d_r4, float, 4, 128, 1, 0, 3)                                     \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R1, star3d_r1, float, 4, 128, 1, 1, 0)                              \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, float, 4, 128, 1, 1, 0)                              \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, float, 4, 128, 1, 1, 1)                              \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, float, 2, 128, 1, 1, 1)                              \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 2, 128, 1, 1, 0)                             \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 2, 256, 1, 1, 1)                             \
    X(3D_STREAM, 3, ONCHIP_SHAPE_STAR3D_R2, star3d_r2, double, 2, 128, 1, 1, 1)

#define DEF2(S, n, pn, PF, PD, CM, CP)                                                                    \
    SSAM_STENCIL2D_DEFINE(f_##n, float, S, ssam_stencil_policy<PF>)                                       \
    SSAM_STENCIL2D_DEFINE(d_##n, double, S, ssam_stencil_policy<PD>)                                      \
    SMEM2D_DEFINE(smf_##n, float, S, f_##n)                                                               \
    SMEM2D_DEFINE(smd_##n, double, S, d_##n)
#define DEF3(S, n, pn, PF, BF, PD, BD, MD, SPF, SPD, SBD)                                                 \
    SSAM_STENCIL3D_DEFINE(f_##n, float, S, ssam_stencil_policy<PF, BF, ((BF) >= 256 ? 2 : 1), SSAM_SCHEDULE_STREAM>) \
    SSAM_STENCIL3D_DEFINE(d_##n, double, S, ssam_stencil_policy<PD, BD, MD, SSAM_SCHEDULE_STREAM>)        \
    SSAM_STENCIL3D_DEFINE(fs_##n, float, S, ssam_stencil_policy<SPF, 128, 1, SSAM_SCHEDULE_SLICE>)        \
    SSAM_STENCIL3D_DEFINE(ds_##n, double, S, ssam_stencil_policy<SPD, SBD, 1, SSAM_SCHEDULE_SLICE>)       \
    SMEM3D_DEFINE(smf_##n, float, S, f_##n)                                                               \
    SMEM3D_DEFINE(smd_##n, double, S, d_##n)
CAT2D(DEF2)
CAT3D(DEF3)
#define DEFALT_2D(nm, T, S, P, B, MB) SSAM_STENCIL2D_DEFINE(nm, T, S, ssam_stencil_policy<P, B, MB>)
#define DEFALT_3D_STREAM(nm, T, S, P, B, MB)                                                              \
    SSAM_STENCIL3D_DEFINE(nm, T, S, ssam_stencil_policy<P, B, MB, SSAM_SCHEDULE_STREAM>)
#define DEFALT_3D_SLICE(nm, T, S, P, B, MB)                                                               \
    SSAM_STENCIL3D_DEFINE(nm, T, S, ssam_stencil_policy<P, B, MB, SSAM_SCHEDULE_SLICE>)
#define DEFALT(K, D, S, n, T, P, B, MB) DEFALT_##K(alt_##K##_##n##_##T##_p##P##_b##B##_m##MB, T, S, P, B, MB)
ALTS(DEFALT)
#define XNAME(K, n, T, P, B, MB, G, O) altx_##K##_##n##_##T##_p##P##_b##B##_m##MB##_g##G##_o##O
#define XCAT_(a, b) a##b
#define XCAT(a, b) XCAT_(a, b)
#define DEFX2_(nm, T, S, P, B, MB, G, O) SSAM__STENCIL2D_DEFINE_X(nm, T, S, P, B, MB, G, O)
#define DEFX3_(nm, T, S, P, B, MB, G, O) SSAM__STENCIL3D_STREAM_DEFINE_X(nm, T, S, P, B, MB, G, O)
#define DEFX_2D(n, T, S, P, B, MB, G, O) DEFX2_(XNAME(2D, n, T, P, B, MB, G, O), T, S, P, B, MB, G, O)
#define DEFX_3D_STREAM(n, T, S, P, B, MB, G, O)                                                          \
    DEFX3_(XNAME(3D_STREAM, n, T, P, B, MB, G, O), T, S, P, B, MB, G, O)
#define DEFALTX(K, D, S, n, T, P, B, MB, G, O) DEFX_##K(n, T, S, P, B, MB, G, O)
ALTX(DEFALTX)
/* the convolution path for the boxes */
SSAM_CONV2D_DEFINE(cvf_3, float, 3, 3, ssam_conv_policy<8, 128>)
SSAM_CONV2D_DEFINE(cvf_5, float, 5, 5, ssam_conv_policy<8, 128>)
SSAM_CONV2D_DEFINE(cvf_8, float, 8, 8, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(cvf_9, float, 9, 9, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(cvf_11, float, 11, 11, ssam_conv_policy<1, 128>)
SSAM_CONV2D_DEFINE(cvd_3, double, 3, 3, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(cvd_5, double, 5, 5, ssam_conv_policy<4, 128>)
SSAM_CONV2D_DEFINE(cvd_8, double, 8, 8, ssam_conv_policy<2, 128>)
SSAM_CONV2D_DEFINE(cvd_9, double, 9, 9, ssam_conv_policy<2, 128>)
SSAM_CONV2D_DEFINE(cvd_11, double, 11, 11, ssam_conv_policy<1, 128>)

typedef int (*launch_fn)(const ssam_stencil_args *, cudaStream_t);
typedef int (*conv_fn)(const ssam_conv2d_args *, cudaStream_t);
typedef void (*smem_fn)(const void *, void *, int, int, int, const void *);
typedef struct entry {
    const char *name, *paper, *impl;
    int dims, dbl, npts, P, B, minb, cm;
    launch_fn ssam;
    smem_fn smem;
    conv_fn conv;
    launch_fn slice; /* 3D: the slice variant (P sp, B sb), beside the streaming one (ssam) */
    int sp, sb, dflt; /* its P and B; the default's variant (SSAM_STENCIL3D_SLICE_RULE: 1 slice) */
    int ghm, opt;     /* ALTX rows: ghost mode and grid rule / TRIM (-1: the definition's default) */
} entry;

/* smem launchers with one signature */
#define SMRUN2(n, T, ref)                                                                                 \
    static void run_##n(const void *in, void *out, int W, int H, int D, const void *c)                    \
    {                                                                                                     \
        ref##_coef cf;                                                                                    \
        (void)D;                                                                                          \
        memcpy(cf.c, c, sizeof cf.c);                                                                     \
        dim3 g((W + SM_TX - 1) / SM_TX, (H + SM_TY - 1) / SM_TY), b(SM_TX, SM_TY);                       \
        n<<<g, b>>>((const T *)in, (T *)out, W, H, cf);                                                   \
    }
#define SMRUN3(n, T, ref)                                                                                 \
    static void run_##n(const void *in, void *out, int W, int H, int D, const void *c)                    \
    {                                                                                                     \
        ref##_coef cf;                                                                                    \
        memcpy(cf.c, c, sizeof cf.c);                                                                     \
        dim3 g((W + SM3_X - 1) / SM3_X, (H + SM3_Y - 1) / SM3_Y, (D + SM3_Z - 1) / SM3_Z), b(SM3_X, SM3_Y, SM3_Z); \
        n<<<g, b>>>((const T *)in, (T *)out, W, H, D, cf);                                                \
    }
#define RUNS2(S, n, pn, PF, PD, CM, CP) SMRUN2(smf_##n, float, f_##n) SMRUN2(smd_##n, double, d_##n)
#define RUNS3(S, n, pn, PF, BF, PD, BD, MD, SPF, SPD, SBD) SMRUN3(smf_##n, float, f_##n) SMRUN3(smd_##n, double, d_##n)
CAT2D(RUNS2)
CAT3D(RUNS3)

static conv_fn conv_for(int m, int dbl)
{
    switch (m) {
    case 3: return dbl ? cvd_3_launch : cvf_3_launch;
    case 5: return dbl ? cvd_5_launch : cvf_5_launch;
    case 8: return dbl ? cvd_8_launch : cvf_8_launch;
    case 9: return dbl ? cvd_9_launch : cvf_9_launch;
    case 11: return dbl ? cvd_11_launch : cvf_11_launch;
    default: return NULL;
    }
}

#define ENT2(S, n, pn, PF, PD, CM, CP)                                                                    \
    {#n, pn, "ssam", 2, 0, f_##n##_NPTS, PF, 128, 1, CM, f_##n##_launch, run_smf_##n, NULL, NULL, 0, 0, 0, -1, -1}, \
    {#n, pn, "ssam", 2, 1, d_##n##_NPTS, PD, 128, 1, CM, d_##n##_launch, run_smd_##n, NULL, NULL, 0, 0, 0, -1, -1},
#define RULE3(n, T) SSAM_STENCIL3D_SLICE_RULE(T, n##_NPTS, n##_XHI - n##_XLO + 1, n##_YHI - n##_YLO + 1, n##_ZHI - n##_ZLO + 1)
#define ENT3(S, n, pn, PF, BF, PD, BD, MD, SPF, SPD, SBD)                                                 \
    {#n, pn, "ssam", 3, 0, f_##n##_NPTS, PF, BF, 1, 0, f_##n##_launch, run_smf_##n, NULL, fs_##n##_launch, SPF, \
     128, RULE3(f_##n, float), -1, -1},                                                                   \
    {#n, pn, "ssam", 3, 1, d_##n##_NPTS, PD, BD, MD, 0, d_##n##_launch, run_smd_##n, NULL, ds_##n##_launch, SPD, \
     SBD, RULE3(d_##n, double), -1, -1},
#define ENTALT(K, D, S, n, T, P, B, MB)                                                                   \
    {#n, "", #K, D, sizeof(T) == 8, alt_##K##_##n##_##T##_p##P##_b##B##_m##MB##_NPTS, P, B, MB, 0,        \
     alt_##K##_##n##_##T##_p##P##_b##B##_m##MB##_launch, NULL, NULL, NULL, 0, 0, 0, -1, -1},
#define ENTALTX(K, D, S, n, T, P, B, MB, G, O)                                                            \
    {#n, "", #K, D, sizeof(T) == 8, XCAT(XNAME(K, n, T, P, B, MB, G, O), _NPTS), P, B, MB, 0,                   \
     XCAT(XNAME(K, n, T, P, B, MB, G, O), _launch), NULL, NULL, NULL, 0, 0, 0, G, O},
static const entry entries[] = {CAT2D(ENT2) CAT3D(ENT3) ALTS(ENTALT) ALTX(ENTALTX)};

static int reps = 20;
static FILE *json;
static int json_rows;

typedef struct ctx {
    const entry *e;
    int nx, ny, nz;
    void *in[2], *out[2];
    double cd[128];
    float cf[128];
} ctx;
static const void *coefs(const ctx *c) { return c->e->dbl ? (const void *)c->cd : (const void *)c->cf; }

static void run_ssam(void *p, int s)
{
    const ctx *c = (const ctx *)p;
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = c->in[s]; a.dst = c->out[s]; a.nx = c->nx; a.ny = c->ny; a.nz = c->e->dims == 3 ? c->nz : 0;
    a.coef = coefs(c); a.ncoef = c->e->npts; a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = 1; /* name_launch: one step a call */
    int rc = c->e->ssam(&a, 0);
    if (rc) { fprintf(stderr, "ssam launch %s: %s\n", c->e->name, ssam_stencil_strerror(rc)); exit(2); }
}
static void run_smem(void *p, int s)
{
    const ctx *c = (const ctx *)p;
    c->e->smem(c->in[s], c->out[s], c->nx, c->ny, c->nz, coefs(c));
}
static double conv_w[121];
static void run_conv(void *p, int s)
{
    const ctx *c = (const ctx *)p;
    ssam_conv2d_args a;
    memset(&a, 0, sizeof a);
    a.src = c->in[s]; a.dst = c->out[s]; a.width = c->nx; a.height = c->ny;
    a.weights = conv_w; a.fw = c->e->cm; a.fh = c->e->cm; a.border = SSAM_BORDER_NEAREST;
    int rc = conv_for(c->e->cm, c->e->dbl)(&a, 0);
    if (rc) { fprintf(stderr, "conv launch: %s\n", ssam_strerror(rc)); exit(2); }
}

static double time_it(gpucheck_run_fn f, ctx *c) { return gpucheck_time_ms(f, c, 3, reps); }

static void report(const char *impl, const ctx *c, double ms, double check)
{
    const entry *e = c->e;
    double cells = (double)c->nx * c->ny * (e->dims == 3 ? c->nz : 1), es = e->dbl ? 8 : 4;
    double fl_mem = 2 * cells * es / BW * 1e3, fl_fma = cells * e->npts / (e->dbl ? FMA64 : FMA32) * 1e3;
    double floor_ms = fl_mem > fl_fma ? fl_mem : fl_fma;
    printf("%-4s %-13s %-9s %-16s %8.4f ms %7.1f GCells/s  floor %7.1f (%s) %5.1f%%", e->dbl ? "fp64" : "fp32", e->name,
           e->paper, impl, ms, cells / ms / 1e6, cells / floor_ms / 1e6, fl_mem > fl_fma ? "mem" : "fma",
           100 * floor_ms / ms);
    if (!(check < 0)) printf("  |ssam - smem|/|smem| %.1e", check); /* NaN printed too */
    printf("\n");
    fflush(stdout);
    if (json)
        fprintf(json, "%s  {\"type\": \"%s\", \"stencil\": \"%s\", \"paper\": \"%s\", \"impl\": \"%s\", \"dims\": %d, "
                      "\"npts\": %d, \"P\": %d, \"B\": %d, \"minb\": %d, \"size\": %d, \"ms\": %.5f, \"gcells_s\": %.2f, "
                      "\"floor_ms\": %.5f, \"floor\": \"%s\", \"pct_floor\": %.1f}",
                json_rows++ ? ",\n" : "", e->dbl ? "fp64" : "fp32", e->name, e->paper, impl, e->dims, e->npts, e->P,
                e->B, e->minb, c->nx, ms, cells / ms / 1e6, floor_ms, fl_mem > fl_fma ? "mem" : "fma", 100 * floor_ms / ms);
}

#define compare gpucheck_devdiff

int main(int argc, char **argv)
{
    int S2 = 8192, S3 = 512;
    const char *jpath = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) jpath = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size2") && i + 1 < argc) S2 = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size3") && i + 1 < argc) S3 = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else { fprintf(stderr, "usage: %s [--json PATH] [--reps N] [--size2 S] [--size3 S] [--only NAME]\n", argv[0]); return 2; }
    }
    if (reps < 1 || S2 < 64 || S3 < 16) { fprintf(stderr, "bad --reps or size\n"); return 2; }
    cudaDeviceProp pr;
    CUDA_DIE(cudaGetDeviceProperties(&pr, 0));
    printf("stencil bench on %s, 2D %d^2, 3D %d^3, Dirichlet, median of %d\n", pr.name, S2, S3, reps);
    if (jpath) {
        json = gpucheck_json_open(jpath, "stencil", pr.name, reps);
        if (!json) { perror(jpath); return 1; }
    }
    size_t n2 = (size_t)S2 * S2, n3 = (size_t)S3 * S3 * S3, nmax = n2 > n3 ? n2 : n3;
    ctx c;
    memset(&c, 0, sizeof c);
    void *ref = NULL;
    for (int s = 0; s < 2; s++) {
        CUDA_DIE(cudaMalloc(&c.in[s], nmax * 8));
        CUDA_DIE(cudaMalloc(&c.out[s], nmax * 8));
    }
    CUDA_DIE(cudaMalloc(&ref, nmax * 8));
    gpucheck_seed(4242);
    int last = -1;
    for (size_t ei = 0; ei < sizeof entries / sizeof *entries; ei++) {
        const entry *e = &entries[ei];
        if (only && strcmp(only, e->name) && strcmp(only, e->paper)) continue;
        c.e = e;
        c.nx = c.ny = e->dims == 2 ? S2 : S3;
        c.nz = e->dims == 2 ? 1 : S3;
        size_t n = e->dims == 2 ? n2 : n3;
        int key = e->dims * 2 + e->dbl;
        if (key != last) { /* fresh inputs in this precision and size */
            for (int s = 0; s < 2; s++) gpucheck_fill_dev<<<1024, 256>>>(c.in[s], n, e->dbl, 17u + s, -1.0, 1.0);
            CUDA_DIE(cudaDeviceSynchronize());
            last = key;
        }
        /* coefficients: an averaging stencil (positive, summing to 1) */
        double sum = 0;
        for (int i = 0; i < e->npts; i++) { c.cd[i] = 0.5 + 0.5 * (gpucheck_uniform() + 1); sum += c.cd[i]; }
        for (int i = 0; i < e->npts; i++) { c.cd[i] /= sum; c.cf[i] = (float)c.cd[i]; }
        double t;
        if (e->smem) {
            t = time_it(run_smem, &c);
            CUDA_DIE(cudaMemcpy(ref, c.out[1], n * (e->dbl ? 8 : 4), cudaMemcpyDeviceToDevice));
            report("smem", &c, t, -1);
            t = time_it(run_ssam, &c);
            report(e->dims == 3 ? "stream" : "ssam", &c, t, compare(c.out[1], ref, n, e->dbl));
            if (e->slice) {
                char name[48];
                entry es = *e;
                ctx cs = c;
                es.ssam = e->slice; es.P = e->sp; es.B = e->sb; es.minb = 1;
                cs.e = &es;
                t = time_it(run_ssam, &cs);
                snprintf(name, sizeof name, "slice-P%d-b%d", e->sp, e->sb);
                report(name, &cs, t, compare(c.out[1], ref, n, e->dbl));
                printf("     %-13s default (SSAM_STENCIL3D_DEFINE): %s\n", e->name, e->dflt ? "slice" : "stream");
            }
            if (e->cm) {
                /* the box's coefficients as the filter (the conv path computes the edge cells too) */
                for (int i = 0; i < e->cm * e->cm; i++) {
                    if (e->dbl) conv_w[i] = c.cd[i % e->npts];
                    else ((float *)conv_w)[i] = c.cf[i % e->npts];
                }
                t = time_it(run_conv, &c);
                report("conv", &c, t, -1);
            }
        } else {
            char name[48];
            int o = snprintf(name, sizeof name, "%s-P%d-b%d-m%d",
                             e->dims == 2 ? "ssam" : strcmp(e->impl, "3D_SLICE") ? "stream" : "slice", e->P, e->B, e->minb);
            if (e->ghm >= 0) /* ghost mode (overlap / ghost / ghost with vector loads), then grid rule or trim */
                snprintf(name + o, sizeof name - o, "-%s-%s%d", e->ghm == 0 ? "ovl" : e->ghm == 1 ? "gh" : "ghv",
                         e->dims == 2 ? "grid" : "trim", e->opt);
            t = time_it(run_ssam, &c);
            report(name, &c, t, -1);
        }
    }
    if (json) {
        fprintf(json, "\n]}\n");
        fclose(json);
    }
    return 0;
}
