#include <onchip/names_push.h>
/* ssam/conv.cuh -- 1D and 2D correlation/convolution of any filter, as software systolic arrays.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 1, sections 4.1-4.7)
 *   SSAM_CONV2D_DEFINE(name, T, M, N, P, B) defines
 *       __global__ void name_kernel(...)                         the kernel
 *       int name_launch(const ssam_conv2d_args *a, cudaStream_t) checks, sizes the grid, launches
 *   for an M-wide, N-high filter (M columns, N rows -- the paper's order: M is the width), P output
 *   rows per step of the sliding window, B threads per block.  Each warp walks down a segment of
 *   rows keeping a window of 32*V columns (V = 16/sizeof(T): 4 floats or 2 doubles per lane,
 *   loaded as 16-byte vectors) by P+N-1 rows in registers -- each input row loaded once, the
 *   border applied while loading -- and computes P output rows per step with SSAM_SYSTOLIC_ROW:
 *   V*M*N FMAs and about M shuffles per lane and row, the weights read from the kernel's
 *   parameters.  Warps overlap by M-1 columns (overlapped blocking, section 4.5): each produces
 *   STEP = 32V - M + 1 rounded down to whole vectors, so no lane branches in the hot loop.
 *   SSAM_CONV1D_DEFINE(name, T, M, B) is the same along rows (N = 1, P = 1): a 1D filter applied to
 *   every row of a 2D array (one row: a 1D signal).
 *   SSAM_CONV2D_DEFINE_HALF / _BF16(name, M, N, P, B): the image stored as __half / __nv_bfloat16
 *   (2 bytes a pixel, V = 8 per lane), converted to FP32 as it is used, FP32 FMAs, each output
 *   rounded once to the storage type; the weights are FLOAT host arrays.
 *   The queued walk: for small filters (half / bf16 up to 9x9, float 5x5 to 7x7) with the centred
 *   column anchor, the launcher runs a second kernel the generator defines, whose lanes own their
 *   columns outright (halo by shuffles) and keep 2-4 raw rows in flight, adding each input row to
 *   the N output rows that read it (partial sums along y).  H200, 8192^2: half 3x3 0.082 ms
 *   against 0.155 on the systolic walk, at the rate of a plain copy kernel.  name_queued(a) says
 *   which walk name_launch(a) takes; a.flags |= SSAM_SYSTOLIC_WALK keeps the systolic one.
 *
 * PIECES (function templates; the generators paste names around one call of a body per kernel)
 *   ssam_conv2d_body<TS, T, M, N, P, B>(src, dst, g, w)   the systolic walk (any filter)
 *   ssam_conv2d_qbody<TS, M, N, D, B>(src, dst, g, w)     the queued walk (small filters), over
 *       ssam__conv_qload / _qrow / _qacc / _qstore (one row into the queue, its halo, the partial
 *       sums along y, one output row)
 *   ssam__conv_store_row, ssam__conv_realign_s            an output row of the systolic walk
 *   Host: ssam__conv2d_geometry (checks), ssam__conv2d_prepare (grid), ssam__conv2d_launch
 *   (name_launch), ssam__conv2d_queued (name_queued).  TS the storage type, T the arithmetic type,
 *   g the ssam_conv2d_geom the launcher fills, w the M N weights (the kernel's parameter).
 *
 * EXAMPLE
 *   [compile: const float *d_in; float *d_out; int W, H; cudaStream_t stream]
 *     #include <ssam/conv.cuh>
 *     SSAM_CONV2D_DEFINE(blur5, float, 5, 5, 4, 128)
 *
 *     float w[25] = {0};  // the taps, in host memory, 5 rows of 5, row-major
 *     ssam_conv2d_args a = {};
 *     a.src = d_in; a.dst = d_out; a.width = W; a.height = H; a.src_pitch = W; a.dst_pitch = W;
 *     a.weights = w; a.fw = 5; a.fh = 5; a.border = SSAM_BORDER_REFLECT;
 *     int rc = blur5_launch(&a, stream);                // 0 or SSAM_E*: ssam_strerror(rc)
 *     a.flags = SSAM_ANCHOR; a.anchor_x = 0; a.anchor_y = 4; // the filter's lower-left tap over (x, y)
 *
 * CONVENTIONS (stated because they trip people up)
 *   - Correlation by default:  out(x, y) = sum_{n<N, m<M} w[n*M + m] * in(x + m - ax, y + n - ay)
 *     with the anchor at the centre, ax = (M-1)/2, ay = (N-1)/2 (for even sizes the anchor is the
 *     left/upper of the two middle taps).  flags |= SSAM_CONVOLVE gives convolution:
 *     out(x, y) = sum w[n*M + m] * in(x - m + ax, y - n + ay), i.e. the filter flipped.
 *   - The anchor is the filter tap (ax, ay) that lies over the output pixel (it reads in(x, y), for
 *     correlation and convolution alike).  flags |= SSAM_ANCHOR places it: ax = a.anchor_x in
 *     0..M-1, ay = a.anchor_y in 0..N-1 (else SSAM_EANCHOR; not with SSAM_VALID).  Why a flag and
 *     not "-1 means centred": `ssam_conv2d_args a = {};` means the centre, and 0 is a
 *     real anchor, so the zeroed struct needs a flag to tell them apart; anchor fields set without
 *     the flag return SSAM_EANCHOR rather than being ignored.  Other libraries' words:
 *       SciPy ndimage.correlate/convolve(origin=o): ax = M // 2 + o (both correlate and convolve),
 *         so SciPy's default (o = 0) is ax = M // 2: the same as ours for odd M, one to the right
 *         for even M (ours is (M-1)/2, i.e. SciPy's o = -1).  o = ax - M // 2.
 *       OpenCV filter2D(anchor=(ax, ay)): the same ax, ay (it correlates); its default (-1, -1) is
 *         (M/2, N/2), again one to the right/below ours for even sizes.  OpenCV's convolution
 *         recipe (flip the kernel, anchor M-1-ax) is what SSAM_CONVOLVE does with anchor ax.
 *     The anchor is a run-time offset into the source coordinates: one instantiation serves every
 *     anchor, the centred default included.
 *   - flags |= SSAM_VALID: output (W-M+1) x (H-N+1), out(x, y) = sum w[n*M+m] in(x+m, y+n) (or the
 *     flipped filter), no border involved; SSAM_ESIZE when the filter is larger than the input.
 *   - Weights are read from HOST memory at launch and travel in the kernel's parameters, so the
 *     host array may be reused as soon as the launch returns.  fw/fh must equal M/N.
 *   - Pitches are in elements (0 means the row width).  src and dst must not overlap: the bytes
 *     they span (rows times pitch) must not meet, else SSAM_EOVERLAP (no in-place filtering).
 *   - Half storage: the constant of SSAM_BORDER_CONSTANT is rounded to the storage type, as the
 *     image is.
 *   - The two walks sum in different orders: outputs agree to rounding, not bit for bit.
 *
 * PARAMETERS AND LIMITS
 *   T float or double (or half storage, above); M, N >= 1 with M <= 30 V + 2 (122 for float, 62 for
 *   double, 242 for half types); P >= 1; B a multiple of 32 from 32 to 1024 (each a static_assert
 *   sentence).  Registers per lane about V*(P+N-1) for the cache plus V*P sums:
 *   the definition refuses caches over 192 registers at compile time, and make test checks the
 *   instantiations it builds for 0 spills.  Images from 1x1 up to ceil(H/P) <= 65535 block rows.
 *   The weights are M*N*sizeof(T) bytes of kernel parameters (CUDA allows 32 KB on sm_70+).
 *
 * NVRTC AND PYTHON (CuPy's RawModule, cuda-python; docs/python.md, examples/python/ssam_cupy.py)
 *   Options: -I<onchip>/include --std=c++17 -I<toolkit>/include (cuda_fp16.h; CuPy adds it too).
 *   Under NVRTC (__CUDACC_RTC__) the header has no host code: every generator above emits its
 *   kernels only, no name_launch / name_queued, and the caller does name_launch's work:
 *     __global__ void name_kernel(const TS *src, TS *dst, ssam_conv2d_geom g, name_weights wt)
 *   the systolic walk (any filter; C++ linkage: CuPy's name_expressions=("name_kernel",)), and
 *   name_qkernel with the same parameters (the queued walk, SSAM__CONV_QOK's filters, whose grid and
 *   shared memory follow ssam__conv2d_launch's queued rule: from Python use name_kernel).
 *     wt   struct { T w[M*N]; }: the weights row-major, for a convolution flipped both ways
 *     g    w, h the input; ow, oh the output (w, h; SSAM_VALID: w-M+1, h-N+1); sp, dp the pitches in
 *          elements; ax, ay the anchor ((M-1)/2, (N-1)/2; SSAM_CONVOLVE: M-1-ax, N-1-ay; SSAM_VALID:
 *          0, 0 and border SSAM_BORDER_NEAREST); border; vec, ovec 1 where src / dst is 16-byte
 *          aligned and sp / dp a multiple of V = SSAM_CONV_V(TS); seg output rows a block row (a
 *          multiple of P, at most 4096); cval.  64 bytes: int w, h, ow, oh at 0, 4, 8, 12; long long
 *          sp, dp at 16, 24; int ax, ay, border, vec, ovec, seg at 32 .. 52; double cval at 56.
 *     grid ceil(ow / ((B/32) STEP)) x ceil(oh / seg) (<= 65535) blocks of B threads, STEP =
 *          SSAM_CONV_STEP(TS, M); (seg + N - 1 + P) * 4 bytes of dynamic shared memory.
 *          The launcher's seg (any valid one computes the same outputs): warps_x = ceil(ow / STEP),
 *          seg = ceil(oh / ceil(192 SMs / warps_x)), raised to 4 (N - 1) but not past
 *          ceil(oh / ceil(48 SMs / warps_x)), at least 1, at most 4096, rounded up to P.
 *   src and dst must not overlap (the launcher's SSAM_EOVERLAP check is the caller's job there).
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
/* Host-side checks and the geometry every convolution kernel shares (SIMT and tensor-core, conv_tc.cuh):
 * sizes, anchor, border, pitches, vector flags for V-element vectors; 0 or an SSAM_E* code. */
static inline int ssam__conv2d_geometry(const ssam_conv2d_args *a, int M, int N, int V, ssam_conv2d_geom *g)
{
    if (!a || !a->src || !a->dst || !a->weights) return SSAM_ENULL;
    if (a->flags & ~(SSAM_CONVOLVE | SSAM_VALID | SSAM_ANCHOR | SSAM_SYSTOLIC_WALK)) return SSAM_EFLAGS;
    if (a->fw != M || a->fh != N) return SSAM_EFILTER;
    if (a->flags & SSAM_ANCHOR) {
        if ((a->flags & SSAM_VALID) || a->anchor_x < 0 || a->anchor_x >= M || a->anchor_y < 0 || a->anchor_y >= N)
            return SSAM_EANCHOR;
    } else if (a->anchor_x || a->anchor_y) {
        return SSAM_EANCHOR; /* an anchor without its flag would be ignored: say so instead */
    }
    if (a->width <= 0 || a->height <= 0) return SSAM_ESIZE;
    if (!(a->flags & SSAM_VALID) && (a->border < SSAM_BORDER_CONSTANT || a->border > SSAM_BORDER_WRAP))
        return SSAM_EBORDER;
    g->w = a->width;
    g->h = a->height;
    if (a->flags & SSAM_VALID) {
        if (M > a->width || N > a->height) return SSAM_ESIZE;
        g->ow = a->width - M + 1;
        g->oh = a->height - N + 1;
        g->ax = g->ay = 0;
        g->border = SSAM_BORDER_NEAREST; /* only lanes whose outputs are discarded read past the edge */
    } else {
        g->ow = a->width;
        g->oh = a->height;
        /* the anchor (centre (M-1)/2 or the user's); the kernel correlates, so a convolution's
         * flipped filter moves it to M-1-ax.  A run-time offset: the kernel is the same for all. */
        int ax = (a->flags & SSAM_ANCHOR) ? a->anchor_x : (M - 1) / 2;
        int ay = (a->flags & SSAM_ANCHOR) ? a->anchor_y : (N - 1) / 2;
        g->ax = (a->flags & SSAM_CONVOLVE) ? M - 1 - ax : ax;
        g->ay = (a->flags & SSAM_CONVOLVE) ? N - 1 - ay : ay;
        g->border = a->border;
    }
    g->sp = a->src_pitch ? a->src_pitch : a->width;
    g->dp = a->dst_pitch ? a->dst_pitch : g->ow;
    if (g->sp < a->width || g->dp < g->ow) return SSAM_EPITCH;
    /* the bytes each image spans (V elements are 16 bytes): an in-place filter would read rows that
     * other blocks have already overwritten */
    {
        const long long ss = onchip_span(a->height, g->sp, a->width, 16 / V), ds = onchip_span(g->oh, g->dp, g->ow, 16 / V);
        if (ss < 0 || ds < 0) return SSAM_ESIZE;
        if (onchip_overlap(a->src, ss, a->dst, ds)) return SSAM_EOVERLAP;
    }
    g->vec = ssam_vec_ok(a->src, g->sp, V);
    g->ovec = ssam_vec_ok(a->dst, g->dp, V);
    g->cval = a->cval;
    g->seg = 0;
    return SSAM_SUCCESS;
}

/* a kernel's resident blocks of B threads per SM (no dynamic shared memory counted), asked once per
 * device into occ[2] = {device + 1, blocks} (a launcher's static); 0 or SSAM_ECUDA */
static inline int ssam__conv_occupancy(const void *kernel, int B, int *occ)
{
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError(), SSAM_ECUDA;
    if (occ[0] == dev + 1) return SSAM_SUCCESS;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, B, 0) != cudaSuccess || n < 1)
        return (void)cudaGetLastError(), SSAM_ECUDA;
    occ[1] = n;
    occ[0] = dev + 1;
    return SSAM_SUCCESS;
}

/* Checks, geometry and the grid of the SIMT kernels; 0 or an SSAM_E* code.  resident: 0 for the
 * general walk's segment rule, else the queued walk's resident warps per SM (one wave of segments). */
static inline int ssam__conv2d_prepare(const ssam_conv2d_args *a, int M, int N, int P, int B, int V, int step,
                                       int resident, ssam_conv2d_geom *g, dim3 *grid)
{
    long long gx, gy;
    int rc = ssam__conv2d_geometry(a, M, N, V, g);
    if (rc) return rc;
    gx = (g->ow + (long long)(B / 32) * step - 1) / ((long long)(B / 32) * step);
    {
        int dev = 0, sms = 132;
        long long warps_x = (g->ow + step - 1) / step, want, want48, seg48, seg;
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
            return SSAM_ECUDA;
        if (resident > 0) {
            /* the queued walk keeps P loads in flight per lane whatever the segment's length: one
             * wave of segments, each as long as it can be (H100, half 3x3 P 4, 8192^2: 0.109 ms at
             * two waves, 0.108 at one; docs/ssam.md) */
            want = ((long long)resident * sms + warps_x - 1) / warps_x;
            seg = (g->oh + want - 1) / want;
            if (seg < 4LL * (N - 1)) seg = 4LL * (N - 1);
        } else {
            /* segments: short ones for many warps in flight (a warp walks its segment one chunk of
             * loads ahead: the walk is latency-bound), but not shorter than 4 (N - 1) rows, where the
             * N - 1 halo rows each segment loads again start to cost (H200, 8192^2: 3x3 half 0.222 ->
             * 0.158 ms at P 1, float 0.166 -> 0.153; docs/ssam.md); never longer than the segments of
             * 48 warps per SM */
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
    if (gx > 2147483647LL || gy > 65535) return SSAM_ESIZE;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = 1;
    return SSAM_SUCCESS;
}

/* the kernel's weights parameter wt (mn elements of es bytes) from the host array a->weights, the
 * filter flipped both ways for a convolution */
static inline void ssam__conv_weights(void *wt, const ssam_conv2d_args *a, size_t es, int mn)
{
    for (int i = 0; i < mn; i++)
        memcpy((char *)wt + (size_t)i * es,
               (const char *)a->weights + (size_t)((a->flags & SSAM_CONVOLVE) ? mn - 1 - i : i) * es, es);
}

/* launch kernel(src, dst, g, weights) -- the parameters of every convolution kernel -- on grid x
 * threads with smem bytes of dynamic shared memory; 0 or SSAM_ECUDA */
static inline int ssam__conv_launch(const void *kernel, dim3 grid, int threads, size_t smem, cudaStream_t stream,
                                    const ssam_conv2d_args *a, ssam_conv2d_geom *g, void *wt)
{
    const void *src = a->src;
    void *dst = a->dst;
    void *args[4] = {(void *)&src, (void *)&dst, (void *)g, wt};
    (void)cudaLaunchKernel(kernel, grid, dim3((unsigned)threads), args, smem, stream);
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}

/* name_queued of the generators: 1 when name_launch(a) runs the queued walk (q: the filter is one of
 * SSAM__CONV_QOK's; the centred column anchor, neither SSAM_VALID nor SSAM_SYSTOLIC_WALK), 0 when it
 * runs the systolic walk or a is invalid */
static inline int ssam__conv2d_queued(const ssam_conv2d_args *a, int q, int M, int N, int V)
{
    ssam_conv2d_geom g;
    return q && !ssam__conv2d_geometry(a, M, N, V, &g) && g.ax == (M - 1) / 2 &&
           !(a->flags & (SSAM_VALID | SSAM_SYSTOLIC_WALK));
}

/* name_launch of the generators: the walk (q: name_queued(a); occ the launcher's static of
 * ssam__conv_occupancy), the checks, geometry and grid of that walk (P rows a step and STEP columns a
 * warp for the systolic kernel, QD rows in flight and 32 V columns for the queued qkernel), the
 * weights (M N elements of es bytes) into wt, the launch with the walk's row table in shared memory */
static inline int ssam__conv2d_launch(const ssam_conv2d_args *a, cudaStream_t stream, const void *kernel,
                                      const void *qkernel, int q, int *occ, void *wt, size_t es, int M, int N, int P,
                                      int B, int V, int step, int qd)
{
    ssam_conv2d_geom g;
    dim3 grid;
    int rc = q ? ssam__conv_occupancy(qkernel, B, occ) : SSAM_SUCCESS;
    if (rc) return rc;
    rc = ssam__conv2d_prepare(a, M, N, q ? qd : P, B, V, q ? 32 * V : step, q ? occ[1] * (B / 32) : 0, &g, &grid);
    if (rc) return rc;
    ssam__conv_weights(wt, a, es, M * N);
    return ssam__conv_launch(q ? qkernel : kernel, grid, B, (size_t)(g.seg + N - 1 + (q ? 2 * qd : P)) * sizeof(int), stream,
                             a, &g, wt);
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

/* o[] from out[] for any misalignment s in [0, V): a switch over s (4 cases for V <= 4, 8 for V = 8;
 * the other switch is compiled away) */
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

/* Store one output row: out[k] (type T) of lane l is the output at offset V l + k - s of the warp's
 * STEP columns starting at X0; written to drow (type TS) with 16-byte stores after a realigning
 * shuffle where VST and ovec (narrow filters, aligned destination), else element by element.  (The
 * lane is read here: passed in, the compiler folds V lane + V <= STEP into other setup code.) */
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

/* The kernel body.  A warp owns STEP output columns and the rows [Ys, Ye) of one segment; it keeps
 * a window of P+N-1 rows x 32V columns in registers, loading each input row once: N-1 rows before
 * the first chunk, then P rows per chunk of P output rows, sliding the window between chunks.  The
 * block first maps the segment's input rows through the border into a shared table (rows[]), so
 * no border arithmetic is unrolled into the loads.  TS is the stored element type (V = 16 /
 * sizeof(TS) per lane), T the type of the cache and the arithmetic (TS, or float for half types);
 * w the M N weights (the kernel's parameter).  Dynamic shared memory: (g.seg + N - 1 + P) ints.
 * 16-byte stores after a realigning shuffle (VST) pay off for narrow, memory-bound filters (measured
 * on the H200: 2x2 0.196 -> 0.160 ms, 1x9 0.372 -> 0.167, 3x3 0.176 -> 0.170) and cost time on wider
 * ones (9x9 0.322 -> 0.358: the shuffles and selects join the FMA-bound loop). */
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
        /* this chunk's rows are prefetched; fetch the next chunk's before computing this one, so
         * the loads fly while the FMAs run (the table covers P rows past the segment) */
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

/* ---- The queued walk: small filters, memory-bound (above all in half storage: 2 bytes a pixel) ----
 * The systolic walk above keeps one chunk of loads in flight and, for a half 3x3 filter, spends
 * about 35 instructions a pixel (ncu, H200: half the issue slots busy, half the stalls on loads).
 * For the filters of SSAM__CONV_QOK with the centred column anchor, the generators' launchers run
 * this walk instead (name_queued(a) says which; the flag SSAM_SYSTOLIC_WALK keeps the systolic one):
 *   - no overlap between warps: a lane owns the V outputs under its own V columns; the halo
 *     columns come from the neighbour lanes (shuffles) and, for lanes 0 and 31, from HL / HR
 *     element loads beside the warp;
 *   - D rows in flight: a queue of D raw 16-byte vectors per lane (4 registers each), each input
 *     row converted once, where it is used;
 *   - partial sums (SSAM section 4.3, along y): an input row adds its N tap rows to the N output
 *     rows that read it, so the registers hold N-1 rows of V sums, not N rows of input.
 * Which filters (H200, 8192^2, ms queued / systolic): half 3x3 0.082 / 0.155 (0.132 with the
 * systolic walk's half prefetch raw), 5x5 0.109 / 0.208, 7x7 0.234 / 0.267 (H100, the halo through
 * ssam_regcache_from_bits: 0.166 / 0.203), 9x9 0.267 / 0.396; float 5x5 0.161 / 0.170, 7x7 0.206 /
 * 0.210, but float 3x3
 * 0.169 / 0.154 and 2x2, 4x4, 7x3 slower too: float moves twice the bytes a pixel, and the systolic
 * walk's many short segments keep more of them in flight (docs/ssam.md). */
#define SSAM__CONV_QOK(TS, M, N)                                                                           \
    ((sizeof(TS) == 2 && (M) <= 9 && (N) <= 9) || (sizeof(TS) == 4 && (M) <= 7 && (N) <= 7 && (M) * (N) >= 25))
/* rows in flight per lane (H100, 8192^2, ms at depth 2 / 4: half 3x3 0.108 / 0.107, 5x5 0.122 / 0.116,
 * 7x7 0.234 / 0.280 (168 registers); float 5x5 0.253 / 0.201, 7x7 0.279 / 0.217.  H200, half 3x3:
 * depth 6 and 8 slower (0.091, 0.089 against 0.080), and so is a queue in shared memory filled by
 * cp.async (0.082): the walk is at the rate of a plain copy kernel, not short of loads in flight) */
#define SSAM__CONV_QD(TS, M, N) ((sizeof(TS) == 2 && (M) * (N) > 25) ? 2 : 4)

/* One row into the queue: q (uint4: the raw lane's columns x .. x+V-1, as ssam_regcache_rows_raw)
 * and qe[E] (the bits of the halo columns ce[] beside the warp, lanes 0 and 31 only: edge, as
 * ssam_regcache_bits); *rows the mapped row (-1: constant, cval and its bits cbits).  The queue holds
 * raw words: converting each vector as it arrives would make the warp wait on every load where it
 * is issued; words are unpacked where they are used.  (Not ssam_regcache_rows_raw itself: built on
 * it, the half 3x3 kernel has 184 more instructions.) */
template <class TS, int V, int E>
static __device__ __forceinline__ void ssam__conv_qload(uint4 &q, unsigned (&qe)[E], const TS *src, long long sp,
                                                        const int *rows, int x, const int (&cx)[V], int in,
                                                        const int (&ce)[E], int edge, TS cval, unsigned cbits)
{
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

/* the row r[] adds tap row n to the sums of the output n rows above: out[] (the output whose last
 * tap row this is) is complete; acc[j] moves up one output (acc[j] = acc[j+1] + ...) and acc[N-2]
 * starts the output whose first row this is.  N*M*V FMAs, the weights w[n*M + m] from parameters. */
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

/* The queued kernel body: a warp owns 32V output columns and the rows [Ys, Ye) of one segment, walks
 * the segment's Ye-Ys+N-1 input rows D at a time with the next D rows' loads in flight, and stores
 * each output row as its last tap row arrives.  The row table (shared, (g.seg + N - 1 + 2 D) ints)
 * covers the walk rounded up to D rows plus the D rows prefetched past it.  w: the M N weights. */
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
#pragma unroll
    for (int p = 0; p < D; p++)
        ssam__conv_qload<TS, V, E>(q[p], qe[p], src, g.sp, ssam__rowtab + p, x, cx, in, ce, edge, cval, cbits);
#pragma unroll 1
    for (int i0 = 0; i0 < nrow; i0 += D) {
#pragma unroll
        for (int p = 0; p < D; p++) {
            float r[HL + V + HR], out[V];
            ssam__conv_qrow<TS, V, HL, HR>(r, q[p], qe[p], lane);
            ssam__conv_qload<TS, V, E>(q[p], qe[p], src, g.sp, ssam__rowtab + i0 + p + D, x, cx, in, ce, edge, cval,
                                       cbits);
            ssam__conv_qacc<V, M, N>(acc, out, r, w);
            const int o = Ys + i0 + p - (N - 1); /* the output row completed */
            if (o >= Ys && o < Ye) ssam__conv_qstore<TS, V>(dst + (long long)o * g.dp, out, x, g.ow, g.ovec);
        }
    }
}

/* ---- The generators ---- */

/* the element types the generators take: T float or double stored as itself; __half and
 * __nv_bfloat16 storage computed in float (_HALF, _BF16) */
template <class TS, class T>
struct ssam__conv_types {
    enum { ok = 0 };
};
template <>
struct ssam__conv_types<float, float> {
    enum { ok = 1 };
};
template <>
struct ssam__conv_types<double, double> {
    enum { ok = 1 };
};
template <>
struct ssam__conv_types<__half, float> {
    enum { ok = 1 };
};
template <>
struct ssam__conv_types<__nv_bfloat16, float> {
    enum { ok = 1 };
};

/* SSAM_CONV2D_DEFINE_OCC: the same with a register budget -- MINB blocks of B threads must fit on
 * one SM (__launch_bounds__(B, MINB)), trading registers for resident warps; 1 lets the compiler
 * use up to 255. */
#define SSAM_CONV2D_DEFINE(name, T, M, N, P, B)                                                             \
    SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV2D_DEFINE(" #name ")", T, T, M, N, P, B, 1)
#define SSAM_CONV2D_DEFINE_OCC(name, T, M, N, P, B, MINB)                                                   \
    SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV2D_DEFINE_OCC(" #name ")", T, T, M, N, P, B, MINB)
/* a 1D filter of M taps along every row (N = 1, one row per lane) */
#define SSAM_CONV1D_DEFINE(name, T, M, B) SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV1D_DEFINE(" #name ")", T, T, M, 1, 1, B, 1)

/* Half-precision storage (FP16 __half, BF16 __nv_bfloat16): the image in and out is 2 bytes a pixel
 * (8 per lane and 16-byte vector), the cache and the arithmetic FP32, each output rounded once to
 * the storage type; the weights are FLOAT host arrays.  Memory-bound filters move half the bytes
 * of float. */
#define SSAM_CONV2D_DEFINE_HALF(name, M, N, P, B)                                                           \
    SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV2D_DEFINE_HALF(" #name ")", __half, float, M, N, P, B, 1)
#define SSAM_CONV2D_DEFINE_BF16(name, M, N, P, B)                                                           \
    SSAM__CONV2D_DEFINE_X(name, "SSAM_CONV2D_DEFINE_BF16(" #name ")", __nv_bfloat16, float, M, N, P, B, 1)

/* the limits of one instantiation: the generators' static_asserts, and ok (all hold: the kernels'
 * bodies are instantiated only then, so that a wrong argument gives its sentence alone) */
template <class TS, class T, int M, int N, int P, int B>
struct ssam__conv2d_limits {
    enum {
        type = ssam__conv_types<TS, T>::ok, V = type ? SSAM_CONV_V(TS) : 4, size = M >= 1 && N >= 1,
        width = ((32 * V - M + 1 - (V - 1)) / V) * V >= V, step = P >= 1, cache = V * (P + N - 1) <= 192,
        block = B % 32 == 0 && B >= 32 && B <= ONCHIP_THREADS_PER_BLOCK_MAX,
        ok = type && size && width && step && cache && block
    };
};
#define SSAM__CONV2D_LIMITS(name, WHO, TS, T, M, N, P, B)                                                   \
    typedef ssam__conv2d_limits<TS, T, M, N, P, B> name##__lim;                                            \
    static_assert(name##__lim::type, WHO ": T must be float or double (half storage: SSAM_CONV2D_DEFINE_HALF, _BF16)"); \
    static_assert(name##__lim::size, WHO ": M and N must be at least 1");                                   \
    static_assert(name##__lim::width, WHO ": M must be at most 30 V + 2 (122 for float, 62 for double, 242 for half storage)"); \
    static_assert(name##__lim::step, WHO ": P must be at least 1");                                         \
    static_assert(name##__lim::cache,                                                                      \
                  WHO ": the register cache of V (P + N - 1) values must be at most 192 registers: use a smaller P"); \
    static_assert(name##__lim::block, WHO ": B must be a multiple of 32 from 32 to 1024");

/* the weights, the two kernels (one call of a body each), name_queued and name_launch; Q: the queued
 * walk's filters (an empty qkernel otherwise), whose loads in flight come from its queue, not from
 * resident warps: MINB is the systolic walk's */
#define SSAM__CONV2D_DEFINE_X(name, WHO, TS, T, M, N, P, B, MINB)                                           \
    SSAM__CONV2D_LIMITS(name, WHO, TS, T, M, N, P, B)                                                       \
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

/* name_queued and name_launch (host code: none under NVRTC, where the generators emit the kernels only) */
#ifndef __CUDACC_RTC__
#define SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)                                                         \
    static inline __attribute__((unused)) int name##_queued(const ssam_conv2d_args *a) /* the walk name_launch takes */ \
    { return ssam__conv2d_queued(a, name##__Q, M, N, SSAM_CONV_V(TS)); }                                   \
    static inline __attribute__((unused)) int name##_launch(const ssam_conv2d_args *a, cudaStream_t stream) \
    {                                                                                                      \
        static int occ[2] = {0, 0}; /* the queued kernel's blocks per SM: device + 1, blocks */            \
        name##_weights wt;                                                                                 \
        return ssam__conv2d_launch(a, stream, (const void *)name##_kernel, (const void *)name##_qkernel, name##_queued(a), \
                                   occ, &wt, sizeof(T), M, N, P, B, SSAM_CONV_V(TS), SSAM_CONV_STEP(TS, M), name##__QD); \
    }
#else
#define SSAM__CONV2D_HOST(name, TS, T, M, N, P, B)
#endif

#endif /* SSAM_CONV_CUH */
#include <onchip/names_pop.h>
