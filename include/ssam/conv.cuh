#include <onchip/names_push.h>
/* ssam/conv.cuh -- 1D and 2D correlation/convolution of any filter, as software systolic arrays.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 1, sections 4.1-4.7; docs/ssam.md#convolution-convcuh)
 *   SSAM_CONV2D_DEFINE(name, T, M, N, ssam_conv_policy<P, B, MINB>): an M-wide, N-high filter:
 *       __global__ name_kernel (the systolic walk), name_qkernel (the queued walk, small filters)
 *       int name_plan(const ssam_conv2d_args *a, ssam_plan *p)      every check, the walk; no launch
 *       int name_run(const ssam_conv2d_args *a, const ssam_plan *p, cudaStream_t)   launches p's walk
 *       int name_launch(const ssam_conv2d_args *a, cudaStream_t)    name_plan, then name_run
 *   The plan (ssam/plan.h): path SSAM_PATH_QUEUED or SSAM_PATH_SYSTOLIC, why (the rule that chose),
 *   passes 1, steps_per_pass 0, workspace_bytes 0, result a->dst; refused: the code, why, passes 0.
 *   ssam_conv_policy<P = 4, B = 128, MINB = 1>: P output rows a step, B threads, __launch_bounds__(B,
 *   MINB) on the systolic walk.  A 1D filter along every row: N = 1, P = 1.  T __half / __nv_bfloat16:
 *   stored so (V = 8), FP32 arithmetic, each output rounded once, the weights a FLOAT host array.
 *   Systolic walk: a warp keeps P+N-1 rows x 32V columns in registers (V = 16/sizeof(T)), each input
 *   row loaded once, the border applied at load; STEP = 32V - M + 1 outputs (whole vectors) a warp.
 *   Queued walk (half/bf16 up to 9x9, float 5x5 to 7x7, centred column anchor): lanes own their
 *   columns, halo by shuffles, partial sums along y.  a.flags |= SSAM_SYSTOLIC_WALK keeps the systolic.
 *
 * PIECES  ssam_conv2d_body<TS, T, M, N, P, B>(src, dst, g, w) (systolic), ssam_conv2d_qbody<TS, M, N,
 *   D, B> (queued); TS storage, T arithmetic type, g the ssam_conv2d_geom the launcher fills.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#conv-glossary.
 *
 * EXAMPLE
 *   [compile: const float *d_in; float *d_out; int W, H; cudaStream_t stream]
 *     #include <ssam/conv.cuh>
 *     SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<>)  // P 4 rows a step, 128 threads
 *
 *     float w[25] = {0};  // the taps, in host memory, 5 rows of 5, row-major
 *     ssam_conv2d_args a = {};
 *     a.src = d_in; a.dst = d_out; a.width = W; a.height = H; a.src_pitch = W; a.dst_pitch = W;
 *     a.weights = w; a.fw = 5; a.fh = 5; a.border = SSAM_BORDER_REFLECT;
 *     ssam_plan p;                                      // or both at once: blur5_launch(&a, stream)
 *     int rc = blur5_plan(&a, &p);                      // 0 or SSAM_E*: ssam_strerror(rc), p.why
 *     if (!rc) rc = blur5_run(&a, &p, stream);          // p.path SSAM_PATH_QUEUED (float 5x5)
 *     a.flags = SSAM_ANCHOR; a.anchor_x = 0; a.anchor_y = 4; // the filter's lower-left tap over (x, y)
 *
 * CONVENTIONS (docs/ssam.md#conv-anchor: SciPy's and OpenCV's anchors)
 *   Correlation: out(x, y) = sum_{n<N, m<M} w[n*M + m] in(x + m - ax, y + n - ay), anchor (ax, ay) =
 *   ((M-1)/2, (N-1)/2) unless SSAM_ANCHOR (a.anchor_x, a.anchor_y; set without the flag, or with
 *   SSAM_VALID: SSAM_EANCHOR).  SSAM_CONVOLVE flips the filter; SSAM_VALID gives (W-M+1) x (H-N+1)
 *   outputs, no border (SSAM_ESIZE when the filter is larger).  Weights: HOST memory, copied into the
 *   kernel's parameters at launch; fw, fh must equal M, N.  Pitches in elements (0: the width); src
 *   and dst must not overlap (SSAM_EOVERLAP).  The two walks agree to rounding, not bit for bit.
 *
 * PARAMETERS AND LIMITS (static_assert sentences)
 *   T float, double, __half or __nv_bfloat16; M, N >= 1, M <= 30V + 2 (122 float, 62 double, 242
 *   half); P >= 1; the cache V (P+N-1) <= 192 registers; B a multiple of 32 from 32 to 1024.  Images
 *   from 1x1 up to ceil(H/P) <= 65535 block rows; weights M N sizeof(T) bytes of parameters (32 KB).
 *
 * NVRTC (docs/python.md; the launcher's segment rule: docs/ssam.md#conv-segments)
 *   No host code: name_kernel(const TS *src, TS *dst, ssam_conv2d_geom g, name_weights wt) (C++
 *   linkage) and name_qkernel, same parameters (from Python use name_kernel); TS is T.  wt: struct
 *   { T w[M*N]; } (float for the half types), flipped both ways for a convolution.  g (64 bytes): int
 *   w, h, ow, oh at 0..12 (input; output, w-M+1, h-N+1 with SSAM_VALID); long long sp, dp at 16, 24
 *   (pitches); int ax, ay, border, vec, ovec, seg at 32..52 (anchor, SSAM_CONVOLVE: M-1-ax, N-1-ay,
 *   SSAM_VALID: 0, 0 and SSAM_BORDER_NEAREST; vec, ovec 1 where src / dst is 16-byte aligned with a
 *   pitch a multiple of V; seg output rows a block row, a multiple of P, <= 4096); double cval at 56.
 *   Grid ceil(ow / ((B/32) SSAM_CONV_STEP(TS, M))) x ceil(oh / seg) (<= 65535), B threads,
 *   (seg + N - 1 + P) * 4 bytes of dynamic shared memory.
 */
#ifndef SSAM_CONV_CUH
#define SSAM_CONV_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only (base.cuh has the integer types) */
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#endif

#include "base.cuh"
#include "plan.h"
#include "regcache.cuh"
#include "shift.cuh"

typedef struct ssam_conv2d_args {
    const void *src;                /* T *, device: height rows of src_pitch elements */
    void *dst;                      /* T *, device: output rows of dst_pitch elements */
    int width, height;              /* input size; the output's too unless SSAM_VALID */
    long long src_pitch, dst_pitch; /* elements between rows; 0 = the row's width */
    const void *weights;            /* T *, HOST memory: fh rows of fw weights, row-major */
    int fw, fh;                     /* the filter's width and height: must equal M and N */
    int border;                     /* SSAM_BORDER_* (ignored with SSAM_VALID) */
    double cval;                    /* the value outside the image for SSAM_BORDER_CONSTANT */
    unsigned flags;                 /* SSAM_CONVOLVE, SSAM_VALID, SSAM_ANCHOR */
    int anchor_x, anchor_y;         /* with SSAM_ANCHOR: the tap over the output pixel, 0..M-1, 0..N-1;
                                       without it they must be 0 (and the anchor is the centre) */
} ssam_conv2d_args;

/* what the kernel needs besides pointers and weights */
typedef struct ssam_conv2d_geom {
    int w, h, ow, oh;   /* input and output sizes */
    long long sp, dp;   /* pitches in elements */
    int ax, ay;         /* input column/row of tap (0, 0) is (x - ax, y - ay) */
    int border, vec;    /* border mode; 16-byte loads allowed */
    int ovec;           /* 16-byte stores allowed: dst 16-byte aligned, dst pitch a multiple of V */
    int seg;            /* output rows per block row (a multiple of P) */
    double cval;
} ssam_conv2d_geom;

/* columns per lane: one 16-byte vector */
#define SSAM_CONV_V(T) ((int)(16 / sizeof(T)))
/* outputs per warp and row: 32V - M + 1 less the worst misalignment, in whole vectors */
#define SSAM_CONV_STEP(T, M) (((32 * SSAM_CONV_V(T) - (M) + 1 - (SSAM_CONV_V(T) - 1)) / SSAM_CONV_V(T)) * SSAM_CONV_V(T))

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* an accepted plan: one launch of path, no time steps, no workspace, the answer in dst */
static inline int ssam__conv_accept(ssam_plan *p, int path, const char *why, void *dst)
{
    onchip__plan_set(p, path, why, 0, 1, 0, dst);
    return SSAM_SUCCESS;
}

/* the checks and geometry of every convolution kernel (SIMT and conv_tc.cuh); 0 or SSAM_E* with *why
 * the refusal */
static inline int ssam__conv2d_geometry(const ssam_conv2d_args *a, int M, int N, int V, ssam_conv2d_geom *g,
                                        const char **why)
{
    if (!a || !a->src || !a->dst || !a->weights)
        return *why = "refused (SSAM_ENULL): the args, src, dst or weights is NULL", SSAM_ENULL;
    if (a->flags & ~(SSAM_CONVOLVE | SSAM_VALID | SSAM_ANCHOR | SSAM_SYSTOLIC_WALK))
        return *why = "refused (SSAM_EFLAGS): flag bits besides SSAM_CONVOLVE, SSAM_VALID, SSAM_ANCHOR, "
                      "SSAM_SYSTOLIC_WALK", SSAM_EFLAGS;
    if (a->fw != M || a->fh != N)
        return *why = "refused (SSAM_EFILTER): fw, fh differ from the instance's filter M x N", SSAM_EFILTER;
    if (a->flags & SSAM_ANCHOR) {
        if ((a->flags & SSAM_VALID) || a->anchor_x < 0 || a->anchor_x >= M || a->anchor_y < 0 || a->anchor_y >= N)
            return *why = "refused (SSAM_EANCHOR): the placed anchor is outside the filter or given with SSAM_VALID",
                   SSAM_EANCHOR;
    } else if (a->anchor_x || a->anchor_y) {
        /* an anchor without its flag would be ignored: say so instead */
        return *why = "refused (SSAM_EANCHOR): anchor_x or anchor_y set without SSAM_ANCHOR", SSAM_EANCHOR;
    }
    if (a->width <= 0 || a->height <= 0) return *why = "refused (SSAM_ESIZE): width or height <= 0", SSAM_ESIZE;
    if (!(a->flags & SSAM_VALID) && (a->border < SSAM_BORDER_CONSTANT || a->border > SSAM_BORDER_WRAP))
        return *why = "refused (SSAM_EBORDER): border is none of SSAM_BORDER_*", SSAM_EBORDER;
    g->w = a->width;
    g->h = a->height;
    if (a->flags & SSAM_VALID) {
        if (M > a->width || N > a->height)
            return *why = "refused (SSAM_ESIZE): SSAM_VALID with a filter larger than the image", SSAM_ESIZE;
        g->ow = a->width - M + 1;
        g->oh = a->height - N + 1;
        g->ax = g->ay = 0;
        g->border = SSAM_BORDER_NEAREST; /* only lanes whose outputs are discarded read past the edge */
    } else {
        g->ow = a->width;
        g->oh = a->height;
        /* the kernel correlates: a convolution's flipped filter moves the anchor to M-1-ax */
        int ax = (a->flags & SSAM_ANCHOR) ? a->anchor_x : (M - 1) / 2;
        int ay = (a->flags & SSAM_ANCHOR) ? a->anchor_y : (N - 1) / 2;
        g->ax = (a->flags & SSAM_CONVOLVE) ? M - 1 - ax : ax;
        g->ay = (a->flags & SSAM_CONVOLVE) ? N - 1 - ay : ay;
        g->border = a->border;
    }
    g->sp = a->src_pitch ? a->src_pitch : a->width;
    g->dp = a->dst_pitch ? a->dst_pitch : g->ow;
    if (g->sp < a->width || g->dp < g->ow)
        return *why = "refused (SSAM_EPITCH): a pitch smaller than its image's width", SSAM_EPITCH;
    /* the bytes each image spans: in place, blocks would read rows others have overwritten */
    {
        const long long ss = onchip_span(a->height, g->sp, a->width, 16 / V), ds = onchip_span(g->oh, g->dp, g->ow, 16 / V);
        if (ss < 0 || ds < 0) return *why = "refused (SSAM_ESIZE): an image spans more bytes than a long long counts", SSAM_ESIZE;
        if (onchip_overlap(a->src, ss, a->dst, ds))
            return *why = "refused (SSAM_EOVERLAP): the bytes src and dst span meet (no in-place filtering)", SSAM_EOVERLAP;
    }
    g->vec = ssam_vec_ok(a->src, g->sp, V);
    g->ovec = ssam_vec_ok(a->dst, g->dp, V);
    g->cval = a->cval;
    g->seg = 0;
    return SSAM_SUCCESS;
}

/* a kernel's resident blocks of B threads per SM (no dynamic shared memory counted; onchip/device.cuh's
 * cache) into *n; 0 or SSAM_ECUDA */
static inline int ssam__conv_occupancy(const void *kernel, int B, int *n)
{
    if (onchip_occupancy(kernel, B, 0, n) != cudaSuccess || *n < 1) return (void)cudaGetLastError(), SSAM_ECUDA;
    return SSAM_SUCCESS;
}

/* the segments and grid of the SIMT kernels for geometry g: P rows a step, B threads, step columns a
 * warp; resident: 0 for the systolic walk's segments, else the queued walk's resident warps per SM (one
 * wave of segments).  Sets g->seg; 0 or SSAM_E* with *why the refusal */
static inline int ssam__conv2d_grid(ssam_conv2d_geom *g, int N, int P, int B, int step, int resident, dim3 *grid,
                                    const char **why)
{
    long long gx, gy;
    gx = (g->ow + (long long)(B / 32) * step - 1) / ((long long)(B / 32) * step);
    {
        int dev = 0, sms = 0;
        long long warps_x = (g->ow + step - 1) / step, want, want48, seg48, seg;
        if (cudaGetDevice(&dev) != cudaSuccess || onchip_device_sms(dev, &sms) != cudaSuccess)
            return *why = "refused (SSAM_ECUDA): the device's SM count could not be read", SSAM_ECUDA;
        if (resident > 0) {
            /* why: docs/ssam.md#conv-segments */
            want = ((long long)resident * sms + warps_x - 1) / warps_x;
            seg = (g->oh + want - 1) / want;
            if (seg < 4LL * (N - 1)) seg = 4LL * (N - 1);
        } else {
            /* 192 warps an SM, >= 4 (N - 1) rows, <= 48 warps' length; why: docs/ssam.md#conv-segments */
            want = (192LL * sms + warps_x - 1) / warps_x; /* segments wanted */
            want48 = (48LL * sms + warps_x - 1) / warps_x;
            seg = (g->oh + want - 1) / want;
            seg48 = (g->oh + want48 - 1) / want48;
            if (seg < 4LL * (N - 1)) seg = 4LL * (N - 1) < seg48 ? 4LL * (N - 1) : seg48;
        }
        g->seg = (int)(seg < 1 ? 1 : seg);
        if (g->seg > 4096) g->seg = 4096; /* the row table: (seg + N - 1 + 2 P) ints of shared memory */
        g->seg = (g->seg + P - 1) / P * P;
        gy = (g->oh + g->seg - 1) / g->seg;
    }
    if (gx > 2147483647LL || gy > 65535)
        return *why = "refused (SSAM_ESIZE): more than 65535 row segments (4096 rows each at most) or 2^31 block "
                      "columns", SSAM_ESIZE;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = 1;
    return SSAM_SUCCESS;
}

/* wt (mn elements of es bytes) from a->weights, flipped both ways for a convolution */
static inline void ssam__conv_weights(void *wt, const ssam_conv2d_args *a, size_t es, int mn)
{
    for (int i = 0; i < mn; i++)
        memcpy((char *)wt + (size_t)i * es,
               (const char *)a->weights + (size_t)((a->flags & SSAM_CONVOLVE) ? mn - 1 - i : i) * es, es);
}

/* launch kernel(src, dst, g, weights) on grid x threads, smem dynamic bytes; 0 or SSAM_ECUDA */
static inline int ssam__conv_launch(const void *kernel, dim3 grid, int threads, size_t smem, cudaStream_t stream,
                                    const ssam_conv2d_args *a, ssam_conv2d_geom *g, void *wt)
{
    const void *src = a->src;
    void *dst = a->dst;
    void *args[4] = {(void *)&src, (void *)&dst, (void *)g, wt};
    (void)cudaLaunchKernel(kernel, grid, dim3((unsigned)threads), args, smem, stream);
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}

/* a convolution as its plan and run see it: the systolic kernel and the queued one (qkernel), the
 * weights' element bytes es, the filter M x N, P rows a step, B threads, V the vector width, step the
 * columns a warp computes, qd the queued walk's rows in flight, q 1 where the filter has the queued walk
 * (SSAM__CONV_QOK) */
typedef struct ssam__conv_kern {
    const void *kernel, *qkernel;
    size_t es;
    int M, N, P, B, V, step, qd, q;
} ssam__conv_kern;

/* the walk for valid a of geometry g: SSAM_PATH_QUEUED for the queued walk's filters with the centred
 * column anchor, neither SSAM_VALID nor SSAM_SYSTOLIC_WALK; else SSAM_PATH_SYSTOLIC; *why the rule */
static inline int ssam__conv2d_walk(const ssam_conv2d_args *a, const ssam_conv2d_geom *g, const ssam__conv_kern *k,
                                    const char **why)
{
    if (!k->q)
        return *why = "systolic walk: the filter is none of the queued walk's (half / bf16 up to 9x9, float from 25 "
                      "taps up to 7x7)", SSAM_PATH_SYSTOLIC;
    if (a->flags & SSAM_SYSTOLIC_WALK) return *why = "systolic walk: SSAM_SYSTOLIC_WALK asks for it", SSAM_PATH_SYSTOLIC;
    if (a->flags & SSAM_VALID)
        return *why = "systolic walk: SSAM_VALID (the queued walk has no valid mode)", SSAM_PATH_SYSTOLIC;
    if (g->ax != (k->M - 1) / 2)
        return *why = "systolic walk: the anchor's column is not the centre (M-1)/2, where the queued walk's halo "
                      "lies (a convolution of even width moves it)", SSAM_PATH_SYSTOLIC;
    return *why = "queued walk: a small filter (half / bf16 up to 9x9, float from 25 taps up to 7x7) with the "
                  "centred column anchor", SSAM_PATH_QUEUED;
}

/* the checks, geometry and grid of one walk (q 1: the queued one, its occupancy asked first); 0 or
 * SSAM_E* with *why the refusal */
static inline int ssam__conv2d_prepare(const ssam_conv2d_args *a, const ssam__conv_kern *k, int q, ssam_conv2d_geom *g,
                                       dim3 *grid, const char **why)
{
    int occ = 0; /* the queued kernel's blocks per SM */
    int rc = q ? ssam__conv_occupancy(k->qkernel, k->B, &occ) : SSAM_SUCCESS;
    if (rc) return *why = "refused (SSAM_ECUDA): the queued kernel's occupancy could not be read", rc;
    rc = ssam__conv2d_geometry(a, k->M, k->N, k->V, g, why);
    if (rc) return rc;
    return ssam__conv2d_grid(g, k->N, q ? k->qd : k->P, k->B, q ? 32 * k->V : k->step, q ? occ * (k->B / 32) : 0,
                             grid, why);
}

/* name_plan of SSAM_CONV2D_DEFINE: every check name_run's launch needs, the walk and why */
static inline int ssam__conv2d_plan(const ssam_conv2d_args *a, ssam_plan *p, const ssam__conv_kern *k)
{
    ssam_conv2d_geom g;
    dim3 grid;
    const char *why = "", *rule = "";
    int path, rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__conv2d_geometry(a, k->M, k->N, k->V, &g, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    path = ssam__conv2d_walk(a, &g, k, &rule);
    rc = ssam__conv2d_prepare(a, k, path == SSAM_PATH_QUEUED, &g, &grid, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    return ssam__conv_accept(p, path, rule, a->dst);
}

/* name_run of SSAM_CONV2D_DEFINE: the walk p names (the queued one only where the filter has it), its
 * grid, the weights into wt, the launch with the walk's row table in shared memory; a plan of no passes
 * launches nothing */
static inline int ssam__conv2d_run(const ssam_conv2d_args *a, const ssam_plan *p, cudaStream_t stream,
                                   const ssam__conv_kern *k, void *wt)
{
    ssam_conv2d_geom g;
    dim3 grid;
    const char *why;
    int q, rc;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes < 1) return SSAM_SUCCESS;
    q = p->path == SSAM_PATH_QUEUED && k->q;
    rc = ssam__conv2d_prepare(a, k, q, &g, &grid, &why);
    if (rc) return rc;
    ssam__conv_weights(wt, a, k->es, k->M * k->N);
    return ssam__conv_launch(q ? k->qkernel : k->kernel, grid, k->B,
                             (size_t)(g.seg + k->N - 1 + (q ? 2 * k->qd : k->P)) * sizeof(int), stream, a, &g, wt);
}

#endif /* !__CUDACC_RTC__ */

/* ---- The systolic walk (SSAM Listing 1): any filter ---- */

/* o[k] = the output V*lane + k of the warp's STEP, from out[] computed with misalignment CS (own
 * lane's out[k + CS], or the next lane's out[k + CS - V] already shifted into nb[]) */
template <int CS, class T, int V>
static __device__ __forceinline__ void ssam__conv_realign(T (&o)[V], const T (&out)[V], const T (&nb)[V])
{
#pragma unroll
    for (int k = 0; k < V; k++) o[k] = (k + CS < V) ? out[(k + CS) % V] : nb[(k + CS) % V];
}

/* o[] from out[] for any misalignment s in [0, V) */
template <class T, int V>
static __device__ __forceinline__ void ssam__conv_realign_s(T (&o)[V], const T (&out)[V], const T (&nb)[V], int s)
{
    if (V <= 4) {
        switch (s) {
        case 0: ssam__conv_realign<0>(o, out, nb); break;
        case 1: ssam__conv_realign<1>(o, out, nb); break;
        case 2: ssam__conv_realign<2>(o, out, nb); break;
        default: ssam__conv_realign<3>(o, out, nb); break;
        }
    } else {
        switch (s) {
        case 0: ssam__conv_realign<0>(o, out, nb); break;
        case 1: ssam__conv_realign<1>(o, out, nb); break;
        case 2: ssam__conv_realign<2>(o, out, nb); break;
        case 3: ssam__conv_realign<3>(o, out, nb); break;
        case 4: ssam__conv_realign<4>(o, out, nb); break;
        case 5: ssam__conv_realign<5>(o, out, nb); break;
        case 6: ssam__conv_realign<6>(o, out, nb); break;
        default: ssam__conv_realign<7>(o, out, nb); break;
        }
    }
}

/* one output row: out[k] of lane l is output V l + k - s of the warp's STEP columns from X0; 16-byte
 * stores after a realigning shuffle where VST and ovec, else element by element.  The lane is read
 * here, not passed in: why: docs/ssam.md#conv-store */
template <class TS, int STEP, int VST, class T, int V>
static __device__ __forceinline__ void ssam__conv_store_row(TS *drow, const T (&out)[V], int ovec, int s, int X0, int ow)
{
    const int lane = threadIdx.x & 31;
    if (VST && ovec) {
        /* lane l takes outputs X0+V*l .. +V-1 (its own out[k+s] and the next lane's out[k+s-V]) */
        T nb[V], o[V];
#pragma unroll
        for (int k = 0; k < V; k++) nb[k] = ssam_shift_down(out[k], 1);
        ssam__conv_realign_s(o, out, nb, s);
        const int u0 = V * lane;
        if (u0 + V <= STEP && X0 + u0 + V <= ow) {
            ssam_vec<TS, V> q;
#pragma unroll
            for (int k = 0; k < V; k++) q.v[k] = (TS)o[k];
            *(ssam_vec<TS, V> *)(drow + X0 + u0) = q;
        } else {
#pragma unroll
            for (int k = 0; k < V; k++)
                if (u0 + k < STEP && X0 + u0 + k < ow) drow[X0 + u0 + k] = (TS)o[k];
        }
    } else {
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int u = V * lane + k - s; /* output offset within this warp's STEP */
            if (u >= 0 && u < STEP && X0 + u < ow) drow[X0 + u] = (TS)out[k];
        }
    }
}

/* The systolic body: a warp owns STEP output columns and the rows [Ys, Ye) of one segment, a window
 * of P+N-1 rows x 32V columns in registers, P rows loaded a chunk; the segment's rows mapped through
 * the border into a shared table first ((g.seg + N - 1 + P) ints).  TS storage, T arithmetic.
 * VST (vector stores): why: docs/ssam.md#conv-store */
template <class TS, class T, int M, int N, int P, int B, class W>
static __device__ __forceinline__ void ssam_conv2d_body(const TS *src, TS *dst, const ssam_conv2d_geom &g, const W &w)
{
    enum { V = SSAM_CONV_V(TS), R = P + N - 1, STEP = SSAM_CONV_STEP(TS, M), VST = M <= 4 || M * N <= 9 };
    enum { RAW = sizeof(TS) < sizeof(T) }; /* half types prefetch raw: converted where they are used */
    extern __shared__ int ssam__rowtab[];
    const int Ys = blockIdx.y * g.seg;
    const int Ye = min(Ys + g.seg, g.oh);
    for (int i = threadIdx.x; i < g.seg + N - 1 + P; i += B)
        ssam__rowtab[i] = ssam_border_index(Ys - g.ay + i, g.h, g.border);
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * (B / 32) + (threadIdx.x >> 5)) * STEP;
    if (X0 >= g.ow) return;                   /* whole warps only: the shuffles need every lane */
    const int xa = X0 - g.ax;                 /* input column of output X0's first tap */
    const int xi = xa - (((xa % V) + V) % V); /* the warp's first cached column, aligned */
    const int s = xa - xi;                    /* local column of output X0 */
    const int x = xi + V * lane;
    const T cval = (T)g.cval;
    int cx[V], in;
    T data[V][R], nxt[V][P], out[V];
    uint4 nraw[P];
    ssam_regcache_columns<V>(cx, in, x, g.w, g.border, g.vec);
    if constexpr (RAW) { /* every row the same way: a constant border too is rounded to the storage type */
        uint4 praw[N > 1 ? N - 1 : 1];
        ssam_regcache_rows_raw<N - 1, TS, V>(praw, 0, src, g.sp, x, cx, in, ssam__rowtab, cval);
        ssam_regcache_unpack<N - 1, TS>(data, 0, praw, 0);
        ssam_regcache_rows_raw<P, TS, V>(nraw, 0, src, g.sp, x, cx, in, ssam__rowtab + N - 1, cval);
    } else {
        if (N > 1) ssam_regcache_rows_as<N - 1, TS, T>(data, 0, src, g.sp, x, cx, in, ssam__rowtab, cval);
        ssam_regcache_rows_as<P, TS, T>(nxt, 0, src, g.sp, x, cx, in, ssam__rowtab + N - 1, cval);
    }
#pragma unroll 1
    for (int y0 = Ys; y0 < Ye; y0 += P) {
        /* the next chunk's loads fly while this one's FMAs run */
        const int *rn = ssam__rowtab + (y0 - Ys) + N - 1 + P;
        if constexpr (RAW) {
            ssam_regcache_unpack<P, TS>(data, N - 1, nraw, 0);
            ssam_regcache_rows_raw<P, TS, V>(nraw, 0, src, g.sp, x, cx, in, rn, cval);
        } else {
#pragma unroll
            for (int r = 0; r < P; r++)
#pragma unroll
                for (int j = 0; j < V; j++) data[j][N - 1 + r] = nxt[j][r];
            ssam_regcache_rows_as<P, TS, T>(nxt, 0, src, g.sp, x, cx, in, rn, cval);
        }
#pragma unroll
        for (int p = 0; p < P; p++) {
            ssam_systolic_row_op<T, V, M, N>(out, data, p, w, (T)0, ssam_op_fma());
            if (y0 + p < Ye) ssam__conv_store_row<TS, STEP, VST>(dst + (long long)(y0 + p) * g.dp, out, g.ovec, s, X0, g.ow);
        }
        ssam_regcache_slide<N - 1, P>(data);
    }
}

/* ---- The queued walk (small filters): lanes own their columns, D raw rows in flight, partial sums
 * along y (SSAM 4.3).  Which filters: docs/ssam.md#conv-queued */
#define SSAM__CONV_QOK(TS, M, N)                                                                           \
    ((sizeof(TS) == 2 && (M) <= 9 && (N) <= 9) || (sizeof(TS) == 4 && (M) <= 7 && (N) <= 7 && (M) * (N) >= 25))
/* rows in flight per lane; why: docs/ssam.md#conv-queued */
#define SSAM__CONV_QD(TS, M, N) ((sizeof(TS) == 2 && (M) * (N) > 25) ? 2 : 4)

/* a queued lane's loads, passed by const reference (the arrays cx, ce apart) */
template <class TS>
struct ssam__conv_qlane {
    const TS *src;  /* the input, rows sp elements apart */
    long long sp;
    int x;          /* the lane's first column */
    int vec_ok;     /* 1: its columns x .. x+V-1 are one aligned 16-byte load (in) */
    int edge;       /* 1: lanes 0 and 31, which load the halo columns */
    TS cval;        /* the constant outside, and its bits */
    unsigned cbits;
};

/* one row into the queue: q the lane's raw columns x .. x+V-1, qe[E] the bits of the halo columns
 * ce[] (lanes 0 and 31: edge); *rows the mapped row (-1: cval, bits cbits).  Raw words, and not
 * ssam_regcache_rows_raw: why: docs/ssam.md#conv-queued */
template <class TS, int V, int E>
static __device__ __forceinline__ void ssam__conv_qload(uint4 &q, unsigned (&qe)[E], const ssam__conv_qlane<TS> &ql,
                                                        const int *rows, const int (&cx)[V], const int (&ce)[E])
{
    /* the members read, as locals read before any store (docs/ssam.md#tb-context-structs) */
    const TS *const src = ql.src;
    const long long sp = ql.sp;
    const int x = ql.x, in = ql.vec_ok, edge = ql.edge;
    const TS cval = ql.cval;
    const unsigned cbits = ql.cbits;
    const int yy = *rows;
    const TS *row = src + (long long)(yy < 0 ? 0 : yy) * sp;
    if (in && yy >= 0) {
        q = *(const uint4 *)(row + x);
    } else {
        ssam_rawu<TS, V> u;
#pragma unroll
        for (int j = 0; j < V; j++) u.t[j] = (yy < 0 || cx[j] < 0) ? cval : row[cx[j]];
        q = u.r;
    }
    if (edge) {
#pragma unroll
        for (int e = 0; e < E; e++) qe[e] = (yy < 0 || ce[e] < 0) ? cbits : ssam_regcache_bits<TS>(row + ce[e]);
    }
}

/* r[HL + V + HR] (float) = the row's columns x-HL .. x+V+HR-1: the lane's own V converted once, the
 * halo from the neighbour lanes, or for lanes 0 / 31 from qe[] */
template <class TS, int V, int HL, int HR, int E>
static __device__ __forceinline__ void ssam__conv_qrow(float (&r)[HL + V + HR], uint4 q, const unsigned (&qe)[E], int lane)
{
    ssam_rawu<TS, V> u;
    u.r = q;
#pragma unroll
    for (int j = 0; j < V; j++) r[HL + j] = (float)u.t[j];
#pragma unroll
    for (int j = 0; j < HL; j++) {
        const float v = ssam_shift_up(r[V + j], 1); /* lane-1's column V-HL+j */
        const float o = ssam_regcache_from_bits<TS, float>(qe[j]);
        r[j] = lane == 0 ? o : v;
    }
#pragma unroll
    for (int j = 0; j < HR; j++) {
        const float v = ssam_shift_down(r[HL + j], 1); /* lane+1's column j */
        const float o = ssam_regcache_from_bits<TS, float>(qe[j]);
        r[HL + V + j] = lane == 31 ? o : v;
    }
}

/* row r[] adds tap row n to the output n rows above: out[] completes, acc[j] = acc[j+1] + ..., and
 * acc[N-2] starts the output whose first row this is.  N M V FMAs. */
template <int V, int M, int N, int NA, class W>
static __device__ __forceinline__ void ssam__conv_qacc(float (&acc)[NA][V], float (&out)[V], const float (&r)[V + M - 1],
                                                       const W &w)
{
#pragma unroll
    for (int k = 0; k < V; k++) {
        float s = N > 1 ? acc[0][k] : 0.f;
#pragma unroll
        for (int m = 0; m < M; m++) s = fmaf(w[(N - 1) * M + m], r[k + m], s);
        out[k] = s;
#pragma unroll
        for (int a = 0; a + 2 < N; a++) {
            float t = acc[a + 1][k];
#pragma unroll
            for (int m = 0; m < M; m++) t = fmaf(w[(N - 2 - a) * M + m], r[k + m], t);
            acc[a][k] = t;
        }
        if (N > 1) {
            float t = w[0] * r[k];
#pragma unroll
            for (int m = 1; m < M; m++) t = fmaf(w[m], r[k + m], t);
            acc[N > 1 ? N - 2 : 0][k] = t;
        }
    }
}

/* out[V] to the lane's columns x .. x+V-1 of drow: one 16-byte store inside the output, else
 * element by element up to the width */
template <class TS, int V>
static __device__ __forceinline__ void ssam__conv_qstore(TS *drow, const float (&out)[V], int x, int ow, int ovec)
{
    if (ovec && x + V <= ow) {
        ssam_rawu<TS, V> o;
#pragma unroll
        for (int j = 0; j < V; j++) o.t[j] = (TS)out[j];
        *(uint4 *)(drow + x) = o.r;
    } else {
#pragma unroll
        for (int j = 0; j < V; j++)
            if (x + j < ow) drow[x + j] = (TS)out[j];
    }
}

/* The queued body: a warp owns 32V output columns and rows [Ys, Ye), walks the Ye-Ys+N-1 input rows
 * D at a time (the next D in flight), stores each output row as its last tap row arrives; the row
 * table holds (g.seg + N - 1 + 2 D) ints. */
template <class TS, int M, int N, int D, int B, class W>
static __device__ __forceinline__ void ssam_conv2d_qbody(const TS *src, TS *dst, const ssam_conv2d_geom &g, const W &w)
{
    enum { V = SSAM_CONV_V(TS), HL = (M - 1) / 2, HR = M - 1 - HL, E = HR > 0 ? HR : 1, NA = N > 1 ? N - 1 : 1 };
    extern __shared__ int ssam__rowtab[];
    const int Ys = blockIdx.y * g.seg;
    const int Ye = min(Ys + g.seg, g.oh);
    const int nrow = Ye - Ys + N - 1; /* input rows the segment reads */
    for (int i = threadIdx.x; i < g.seg + N - 1 + 2 * D; i += B)
        ssam__rowtab[i] = ssam_border_index(Ys - g.ay + i, g.h, g.border);
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int X0 = (blockIdx.x * (B / 32) + (threadIdx.x >> 5)) * 32 * V;
    if (X0 >= g.ow) return; /* whole warps only: the shuffles need every lane */
    const int x = X0 + V * lane;
    const int edge = lane == 0 || lane == 31;
    const TS cval = (TS)(float)g.cval;
    union {
        unsigned u;
        TS t;
    } cb;
    cb.u = 0;
    cb.t = cval;
    const unsigned cbits = cb.u;
    int cx[V], ce[E], in;
    ssam_regcache_columns<V>(cx, in, x, g.w, g.border, g.vec);
#pragma unroll
    for (int e = 0; e < E; e++) /* lane 0: x-HL .. x-1; lane 31: x+V .. x+V+HR-1 */
        ce[e] = ssam_border_index(lane == 0 ? x - HL + e : x + V + e, g.w, g.border);
    uint4 q[D];
    unsigned qe[D][E];
    float acc[NA][V];
#pragma unroll
    for (int a = 0; a < NA; a++)
#pragma unroll
        for (int k = 0; k < V; k++) acc[a][k] = 0.f;
    const ssam__conv_qlane<TS> ql = {src, g.sp, x, in, edge, cval, cbits};
#pragma unroll
    for (int p = 0; p < D; p++) ssam__conv_qload<TS, V, E>(q[p], qe[p], ql, ssam__rowtab + p, cx, ce);
#pragma unroll 1
    for (int i0 = 0; i0 < nrow; i0 += D) {
#pragma unroll
        for (int p = 0; p < D; p++) {
            float r[HL + V + HR], out[V];
            ssam__conv_qrow<TS, V, HL, HR>(r, q[p], qe[p], lane);
            ssam__conv_qload<TS, V, E>(q[p], qe[p], ql, ssam__rowtab + i0 + p + D, cx, ce);
            ssam__conv_qacc<V, M, N>(acc, out, r, w);
            const int o = Ys + i0 + p - (N - 1); /* the output row completed */
            if (o >= Ys && o < Ye) ssam__conv_qstore<TS, V>(dst + (long long)o * g.dp, out, x, g.ow, g.ovec);
        }
    }
}

/* ---- The generators ---- */

/* the policy (the last argument of SSAM_CONV2D_DEFINE): P output rows a step of the systolic walk,
 * B threads a block, MINB the systolic walk's __launch_bounds__ minimum blocks per SM */
template <int P_ = 4, int B_ = 128, int MINB_ = 1>
struct ssam_conv_policy {
    enum { p = P_, b = B_, minb = MINB_ };
};
/* value: POL_ is an ssam_conv_policy; type: POL_, else the default policy (the generator's one sentence) */
template <class POL_>
struct ssam__is_conv_policy {
    enum { value = 0 };
    typedef ssam_conv_policy<> type;
};
template <int P_, int B_, int MINB_>
struct ssam__is_conv_policy<ssam_conv_policy<P_, B_, MINB_> > {
    enum { value = 1 };
    typedef ssam_conv_policy<P_, B_, MINB_> type;
};
/* the arithmetic type of a storage type: float for __half and __nv_bfloat16 */
template <class TS>
struct ssam__conv_calc {
    typedef TS type;
};
template <>
struct ssam__conv_calc<__half> {
    typedef float type;
};
template <>
struct ssam__conv_calc<__nv_bfloat16> {
    typedef float type;
};
/* the (storage, arithmetic) types the generators take: float, double, __half or __nv_bfloat16 with
 * its arithmetic type */
template <class TS, class T>
struct ssam__conv_types {
    enum {
        ok = ssam__type_in<TS, float, double, __half, __nv_bfloat16>::ok &&
             ssam__same<T, typename ssam__conv_calc<TS>::type>::value
    };
};

#define SSAM_CONV2D_DEFINE(name, T, M, N, ...)                                                             \
    typedef __VA_ARGS__ name##_policy;                                                                     \
    static_assert(ssam__is_conv_policy<name##_policy>::value,                                              \
                  "SSAM_CONV2D_DEFINE(" #name "): the last argument must be an ssam_conv_policy<P, B, MINB>"); \
    typedef ssam__is_conv_policy<name##_policy>::type name##__pol;                                         \
    typedef ssam__conv_calc<T>::type name##__calc;                                                         \
    SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV2D_DEFINE(" #name ")", ": use a smaller P", T, name##__calc, M, N,  \
                          name##__pol::p, name##__pol::b, name##__pol::minb)

/* one instantiation's limits; ok: all hold (the bodies are instantiated only then: one sentence) */
template <class TS, class T, int M, int N, int P, int B>
struct ssam__conv2d_limits {
    enum {
        type = ssam__conv_types<TS, T>::ok, V = type ? SSAM_CONV_V(TS) : 4, size = M >= 1 && N >= 1,
        width = ((32 * V - M + 1 - (V - 1)) / V) * V >= V, step = P >= 1, cache = V * (P + N - 1) <= 192,
        block = B % 32 == 0 && B >= 32 && B <= ONCHIP_THREADS_PER_BLOCK_MAX,
        ok = type && size && width && step && cache && block
    };
};
#define SSAM__CONV2D_LIMITS(name, WHO, HINT, TS, T, M, N, P, B)                                             \
    typedef ssam__conv2d_limits<TS, T, M, N, P, B> name##__lim;                                            \
    static_assert(name##__lim::type, WHO ": T must be float, double, __half or __nv_bfloat16");             \
    static_assert(name##__lim::size, WHO ": M and N must be at least 1");                                   \
    static_assert(name##__lim::width, WHO ": M must be at most 30 V + 2 (122 for float, 62 for double, 242 for half storage)"); \
    static_assert(name##__lim::step, WHO ": P must be at least 1");                                         \
    static_assert(name##__lim::cache,                                                                      \
                  WHO ": the register cache of V (P + N - 1) values must be at most 192 registers" HINT);     \
    static_assert(name##__lim::block, WHO ": B must be a multiple of 32 from 32 to 1024");

/* the weights, the kernels, name_plan, name_run and name_launch; TS storage, T arithmetic; Q: the queued
 * walk's filters (else an empty qkernel); MINB is the systolic walk's; HINT ends the cache sentence */
#define SSAM__CONV2D_DEFINE_X(name, WHO, HINT, TS, T, M, N, P, B, MINB)                                     \
    SSAM__CONV2D_LIMITS(name, WHO, HINT, TS, T, M, N, P, B)                                                 \
    enum { name##__Q = SSAM__CONV_QOK(TS, M, N), name##__QD = SSAM__CONV_QD(TS, M, N) };                    \
    typedef struct name##_weights {                                                                        \
        T w[(M) * (N) > 0 ? (M) * (N) : 1];                                                                \
    } name##_weights;                                                                                      \
    __global__ void __launch_bounds__(B, MINB) name##_kernel(const TS *__restrict__ src, TS *__restrict__ dst, \
                                                             ssam_conv2d_geom g, name##_weights wt)         \
    { if constexpr (name##__lim::ok) ssam_conv2d_body<TS, T, M, N, P, B>(src, dst, g, wt.w); }               \
    __global__ void __launch_bounds__(B, 1) name##_qkernel(const TS *__restrict__ src, TS *__restrict__ dst,   \
                                                           ssam_conv2d_geom g, name##_weights wt)           \
    { if constexpr (name##__lim::ok && name##__Q) ssam_conv2d_qbody<TS, M, N, name##__QD, B>(src, dst, g, wt.w); } \
    SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)

/* name_plan, name_run and name_launch (host code: none under NVRTC, where the generators emit the
 * kernels only); name__kern: the instance as ssam__conv2d_plan and ssam__conv2d_run see it */
#ifndef __CUDACC_RTC__
#define SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)                                                         \
    static inline __attribute__((unused)) ssam__conv_kern name##__kern(void)                               \
    {                                                                                                      \
        const ssam__conv_kern k = {(const void *)name##_kernel, (const void *)name##_qkernel, sizeof(T), M, N, P, B, \
                                   SSAM_CONV_V(TS), SSAM_CONV_STEP(TS, M), name##__QD, name##__Q};         \
        return k;                                                                                          \
    }                                                                                                      \
    SSAM__VERBS(name, ssam_conv2d_args, ssam__conv_kern, name##_weights, ssam__conv2d_plan, ssam__conv2d_run)
#else
#define SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)
#endif

#endif /* SSAM_CONV_CUH */
#include <onchip/names_pop.h>
