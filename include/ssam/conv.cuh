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
 * EXAMPLE
 *     #include <ssam/conv.cuh>
 *     SSAM_CONV2D_DEFINE(blur5, float, 5, 5, 4, 128)
 *     float w[25] = {...};                              // host memory, 5 rows of 5, row-major
 *     ssam_conv2d_args a = {0};
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
 *     not "-1 means centred": `ssam_conv2d_args a = {0}` has always meant the centre, and 0 is a
 *     real anchor, so the zeroed struct needs a flag to tell them apart; anchor fields set without
 *     the flag return SSAM_EANCHOR rather than being ignored.  Other libraries' words:
 *       SciPy ndimage.correlate/convolve(origin=o): ax = M // 2 + o (both correlate and convolve),
 *         so SciPy's default (o = 0) is ax = M // 2: the same as ours for odd M, one to the right
 *         for even M (ours is (M-1)/2, i.e. SciPy's o = -1).  o = ax - M // 2.
 *       OpenCV filter2D(anchor=(ax, ay)): the same ax, ay (it correlates); its default (-1, -1) is
 *         (M/2, N/2), again one to the right/below ours for even sizes.  OpenCV's convolution
 *         recipe (flip the kernel, anchor M-1-ax) is what SSAM_CONVOLVE does with anchor ax.
 *     The anchor is a run-time offset into the source coordinates: one instantiation serves every
 *     anchor, and the centred default runs the same code as before the anchor existed.
 *   - flags |= SSAM_VALID: output (W-M+1) x (H-N+1), out(x, y) = sum w[n*M+m] in(x+m, y+n) (or the
 *     flipped filter), no border involved; SSAM_ESIZE when the filter is larger than the input.
 *   - Weights are read from HOST memory at launch and travel in the kernel's parameters, so the
 *     host array may be reused as soon as the launch returns.  fw/fh must equal M/N.
 *   - Pitches are in elements (0 means the row width).  src and dst must not overlap.
 *   - Half storage: the constant of SSAM_BORDER_CONSTANT is rounded to the storage type, as the
 *     image is.
 *   - The two walks sum in different orders: outputs agree to rounding, not bit for bit.
 *
 * PARAMETERS AND LIMITS
 *   T float or double (or half storage, above); M, N >= 1 with M <= 30 V + 2 (122 for float, 62 for
 *   double, 242 for half types); P >= 1; B a
 *   multiple of 32 up to 1024.  Registers per lane about V*(P+N-1) for the cache plus V*P sums:
 *   the definition refuses caches over 192 registers at compile time, and make test checks the
 *   instantiations it builds for 0 spills.  Images from 1x1 up to ceil(H/P) <= 65535 block rows.
 *   The weights are M*N*sizeof(T) bytes of kernel parameters (CUDA allows 32 KB on sm_70+).
 */
#ifndef SSAM_CONV_CUH
#define SSAM_CONV_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

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
             * 0.158 ms at P 1, float 0.166 -> 0.153; docs/ssam.md); never longer than the 48 warps per
             * SM rule that served before */
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

/* 16-byte stores after a realigning shuffle pay off for narrow, memory-bound filters (measured on
 * the H200: 2x2 0.196 -> 0.160 ms, 1x9 0.372 -> 0.167, 3x3 0.176 -> 0.170) and cost time on wider
 * ones (9x9 0.322 -> 0.358: the shuffles and selects join the FMA-bound loop) */
#define SSAM__CONV_VSTORE(M, N) ((M) <= 4 || (M) * (N) <= 9)

/* o[k] = the output V*lane + k of the warp's STEP, from out[] computed with misalignment CS (own
 * lane's out[k + CS], or the next lane's out[k + CS - V] already shifted into nb[]) */
#define SSAM__CONV_REALIGN(V, o, out, nb, CS)                                                              \
    _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++)(o)[ssam__k] =                       \
        (ssam__k + (CS) < (V)) ? (out)[(ssam__k + (CS)) % (V)] : (nb)[(ssam__k + (CS)) % (V)]

/* o[] from out[] for any misalignment s in [0, V): a switch over s (4 cases for V <= 4, 8 for V = 8;
 * the other switch is compiled away) */
#define SSAM__CONV_REALIGN_S(V, o, out, nb, s)                                                             \
    do {                                                                                                   \
        if ((V) <= 4) {                                                                                    \
            switch (s) {                                                                                   \
            case 0: SSAM__CONV_REALIGN(V, o, out, nb, 0); break;                                           \
            case 1: SSAM__CONV_REALIGN(V, o, out, nb, 1); break;                                           \
            case 2: SSAM__CONV_REALIGN(V, o, out, nb, 2); break;                                           \
            default: SSAM__CONV_REALIGN(V, o, out, nb, 3); break;                                          \
            }                                                                                              \
        } else {                                                                                           \
            switch (s) {                                                                                   \
            case 0: SSAM__CONV_REALIGN(V, o, out, nb, 0); break;                                           \
            case 1: SSAM__CONV_REALIGN(V, o, out, nb, 1); break;                                           \
            case 2: SSAM__CONV_REALIGN(V, o, out, nb, 2); break;                                           \
            case 3: SSAM__CONV_REALIGN(V, o, out, nb, 3); break;                                           \
            case 4: SSAM__CONV_REALIGN(V, o, out, nb, 4); break;                                           \
            case 5: SSAM__CONV_REALIGN(V, o, out, nb, 5); break;                                           \
            case 6: SSAM__CONV_REALIGN(V, o, out, nb, 6); break;                                           \
            default: SSAM__CONV_REALIGN(V, o, out, nb, 7); break;                                          \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* Store one output row: out[k] (type T) of lane l is the output at offset V l + k - s of the warp's
 * STEP columns starting at X0; written to drow (type TS) with 16-byte stores after a realigning
 * shuffle where VST (narrow filters, aligned destination), else element by element. */
#define SSAM__CONV_STORE_ROW(TS, T, V, STEP, VST, drow, out, s, lane, X0, ow)                               \
    do {                                                                                                   \
        if (VST) {                                                                                         \
            /* lane l takes outputs X0+V*l .. +V-1 (its own out[k+s] and the next lane's out[k+s-V]) */   \
            T ssam__nb[V], ssam__o[V];                                                                     \
            _Pragma("unroll") for (int k = 0; k < V; k++) ssam__nb[k] = ssam_shift_down(out[k], 1);        \
            SSAM__CONV_REALIGN_S(V, ssam__o, out, ssam__nb, s);                                            \
            const int u0 = V * (lane);                                                                     \
            if (u0 + V <= STEP && (X0) + u0 + V <= (ow)) {                                                 \
                typedef SSAM__VEC(TS, V) ssam__ovec_t;                                                     \
                ssam__ovec_t ssam__q;                                                                      \
                _Pragma("unroll") for (int k = 0; k < V; k++) ssam__q.v[k] = (TS)ssam__o[k];               \
                *(ssam__ovec_t *)((drow) + (X0) + u0) = ssam__q;                                           \
            } else {                                                                                       \
                _Pragma("unroll") for (int k = 0; k < V; k++)                                              \
                    if (u0 + k < STEP && (X0) + u0 + k < (ow)) (drow)[(X0) + u0 + k] = (TS)ssam__o[k];     \
            }                                                                                              \
        } else {                                                                                           \
            _Pragma("unroll") for (int k = 0; k < V; k++) {                                                \
                const int u = V * (lane) + k - (s); /* output offset within this warp's STEP */           \
                if (u >= 0 && u < STEP && (X0) + u < (ow)) (drow)[(X0) + u] = (TS)out[k];                  \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* The kernel body.  A warp owns STEP output columns and the rows [Ys, Ye) of one segment; it keeps
 * a window of P+N-1 rows x 32V columns in registers, loading each input row once: N-1 rows before
 * the first chunk, then P rows per chunk of P output rows, sliding the window between chunks.  The
 * block first maps the segment's input rows through the border into a shared table (rows[]), so
 * no border arithmetic is unrolled into the loads.  TS is the stored element type (V = 16 /
 * sizeof(TS) per lane), T the type of the cache and the arithmetic (TS, or float for half types). */
#define SSAM__CONV2D_BODY(TS, T, M, N, P, B, src, dst, g, wts)                                              \
    do {                                                                                                   \
        enum { V = SSAM_CONV_V(TS), R = (P) + (N)-1, STEP = SSAM_CONV_STEP(TS, M) };                       \
        extern __shared__ int ssam__rowtab[];                                                              \
        const int Ys = blockIdx.y * (g).seg;                                                               \
        const int Ye = min(Ys + (g).seg, (g).oh);                                                          \
        for (int i = threadIdx.x; i < (g).seg + (N)-1 + (P); i += (B))                                    \
            ssam__rowtab[i] = ssam_border_index(Ys - (g).ay + i, (g).h, (g).border);                       \
        __syncthreads();                                                                                   \
        const int lane = threadIdx.x & 31;                                                                 \
        const int X0 = (blockIdx.x * ((B) / 32) + (threadIdx.x >> 5)) * STEP;                              \
        if (X0 >= (g).ow) return; /* whole warps only: the shuffles need every lane */                    \
        const int xa = X0 - (g).ax;                  /* input column of output X0's first tap */           \
        const int xi = xa - (((xa % V) + V) % V);     /* the warp's first cached column, aligned */        \
        const int s = xa - xi;                       /* local column of output X0 */                       \
        const int x = xi + V * lane;                                                                       \
        const T cval = (T)(g).cval;                                                                        \
        int cx[V], in;                                                                                     \
        T data[V][R], nxt[V][P], out[V];                                                                   \
        enum { RAW = sizeof(TS) < sizeof(T) }; /* half types prefetch raw: converted where they are used */ \
        uint4 nraw[P];                                                                                     \
        SSAM_REGCACHE_COLUMNS(V, cx, in, x, (g).w, (g).border, (g).vec);                                   \
        if (RAW) { /* every row the same way: a constant border too is rounded to the storage type */      \
            uint4 praw[(N) > 1 ? (N)-1 : 1];                                                               \
            SSAM_REGCACHE_ROWS_RAW(TS, V, praw, 0, (N)-1, src, (g).sp, x, cx, in, ssam__rowtab, cval);      \
            SSAM_REGCACHE_UNPACK(TS, T, V, data, 0, praw, 0, (N)-1);                                       \
            SSAM_REGCACHE_ROWS_RAW(TS, V, nraw, 0, P, src, (g).sp, x, cx, in, ssam__rowtab + (N)-1, cval); \
        } else {                                                                                           \
            if ((N) > 1) SSAM_REGCACHE_ROWS_AS(TS, T, V, data, 0, (N)-1, src, (g).sp, x, cx, in, ssam__rowtab, cval); \
            SSAM_REGCACHE_ROWS_AS(TS, T, V, nxt, 0, P, src, (g).sp, x, cx, in, ssam__rowtab + (N)-1, cval); \
        }                                                                                                  \
        _Pragma("unroll 1") for (int y0 = Ys; y0 < Ye; y0 += (P)) {                                        \
            /* this chunk's rows were prefetched; fetch the next chunk's before computing this one, so  \
             * the loads fly while the FMAs run (the table covers P rows past the segment) */             \
            const int *ssam__rn = ssam__rowtab + (y0 - Ys) + (N)-1 + (P);                                  \
            if (RAW) {                                                                                     \
                SSAM_REGCACHE_UNPACK(TS, T, V, data, (N)-1, nraw, 0, P);                                   \
                SSAM_REGCACHE_ROWS_RAW(TS, V, nraw, 0, P, src, (g).sp, x, cx, in, ssam__rn, cval);         \
            } else {                                                                                       \
                _Pragma("unroll") for (int r = 0; r < (P); r++)                                            \
                    _Pragma("unroll") for (int j = 0; j < V; j++) data[j][(N)-1 + r] = nxt[j][r];          \
                SSAM_REGCACHE_ROWS_AS(TS, T, V, nxt, 0, P, src, (g).sp, x, cx, in, ssam__rn, cval);        \
            }                                                                                              \
            _Pragma("unroll") for (int p = 0; p < (P); p++) {                                              \
                SSAM_SYSTOLIC_ROW(T, V, M, N, out, data, p, wts);                                          \
                if (y0 + p < Ye) {                                                                         \
                    TS *drow = (dst) + (long long)(y0 + p) * (g).dp;                                       \
                    SSAM__CONV_STORE_ROW(TS, T, V, STEP, SSAM__CONV_VSTORE(M, N) && (g).ovec, drow, out, s, lane, \
                                         X0, (g).ow);                                                      \
                }                                                                                          \
            }                                                                                              \
            SSAM_REGCACHE_SLIDE(V, data, (N)-1, P);                                                        \
        }                                                                                                  \
    } while (0)

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
 * Which filters (H200, 8192^2, ms queued / systolic): half 3x3 0.082 / 0.155 (0.132 once the
 * systolic walk's half prefetch stayed raw), 5x5 0.109 / 0.208,
 * 7x7 0.234 / 0.267 (H100, once the halo went through SSAM_REGCACHE_FROM_BITS: 0.166 / 0.203), 9x9
 * 0.267 / 0.396; float 5x5 0.161 / 0.170, 7x7 0.206 / 0.210, but float 3x3
 * 0.169 / 0.154 and 2x2, 4x4, 7x3 slower too: float moves twice the bytes a pixel, and the systolic
 * walk's many short segments keep more of them in flight (docs/ssam.md). */
#define SSAM__CONV_QOK(TS, M, N)                                                                           \
    ((sizeof(TS) == 2 && (M) <= 9 && (N) <= 9) || (sizeof(TS) == 4 && (M) <= 7 && (N) <= 7 && (M) * (N) >= 25))
/* rows in flight per lane (H100, 8192^2, ms at depth 2 / 4: half 3x3 0.108 / 0.107, 5x5 0.122 / 0.116,
 * 7x7 0.234 / 0.280 (168 registers); float 5x5 0.253 / 0.201, 7x7 0.279 / 0.217.  H200, half 3x3:
 * depth 6 and 8 slower (0.091, 0.089 against 0.080), and so is a queue in shared memory filled by
 * cp.async (0.082): the walk is at the rate of a plain copy kernel, not short of loads in flight) */
#define SSAM__CONV_QD(TS, M, N) ((sizeof(TS) == 2 && (M) * (N) > 25) ? 2 : 4)

/* The queue holds raw words (as SSAM_REGCACHE_ROWS_RAW, with SSAM_REGCACHE_BITS for the halo):
 * converting each vector as it arrives would make the warp wait on every load where it is issued;
 * words are unpacked where they are used.  (Not SSAM_REGCACHE_ROWS_RAW itself: built on it, the
 * half 3x3 kernel took 184 more instructions.) */
#define SSAM__CONV_QTYPES(TS, V)                                                                           \
    typedef SSAM_REGCACHE_RAWU(TS, V) ssam__qvec_t;                                                        \
    typedef union {                                                                                        \
        unsigned u;                                                                                        \
        TS t;                                                                                              \
    } ssam__qone_t

/* one row into the queue: q (uint4: the raw lane's columns x .. x+V-1, regcache.cuh) and qe[E] (the
 * bits of the halo columns ce[] beside the warp, lanes 0 and 31 only); *rows the mapped row (-1:
 * constant) */
#define SSAM__CONV_QLOAD(TS, V, E, q, qe, src, sp, rows, x, cx, in, ce, edge, cval, cbits)                      \
    do {                                                                                                   \
        const int ssam__yy = *(rows);                                                                      \
        const TS *ssam__row = (src) + (long long)(ssam__yy < 0 ? 0 : ssam__yy) * (sp);                     \
        if ((in) && ssam__yy >= 0) {                                                                       \
            (q) = *(const uint4 *)(ssam__row + (x));                                                       \
        } else {                                                                                           \
            ssam__qvec_t ssam__u;                                                                          \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) ssam__u.t[ssam__j] =        \
                (ssam__yy < 0 || (cx)[ssam__j] < 0) ? (cval) : ssam__row[(cx)[ssam__j]];                   \
            (q) = ssam__u.r;                                                                               \
        }                                                                                                  \
        if (edge) {                                                                                        \
            _Pragma("unroll") for (int ssam__e = 0; ssam__e < (E); ssam__e++)(qe)[ssam__e] =              \
                (ssam__yy < 0 || (ce)[ssam__e] < 0) ? (cbits) : SSAM_REGCACHE_BITS(TS, ssam__row + (ce)[ssam__e]); \
        }                                                                                                  \
    } while (0)

/* r[HL + V + HR] (float) = the row's columns x-HL .. x+V+HR-1: the lane's own V converted once, the
 * halo from the neighbour lanes, or for lanes 0 / 31 from qe[] */
#define SSAM__CONV_QROW(TS, V, HL, HR, r, q, qe, lane)                                                      \
    do {                                                                                                   \
        ssam__qvec_t ssam__u;                                                                              \
        ssam__u.r = (q);                                                                                   \
        _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)(r)[(HL) + ssam__j] =            \
            (float)ssam__u.t[ssam__j];                                                                     \
        _Pragma("unroll") for (int ssam__j = 0; ssam__j < (HL); ssam__j++) {                               \
            const float ssam__v = ssam_shift_up((r)[(V) + ssam__j], 1); /* lane-1's column V-HL+j */       \
            float ssam__o;                                                                                 \
            SSAM_REGCACHE_FROM_BITS(TS, float, (qe)[ssam__j], ssam__o);                                    \
            (r)[ssam__j] = (lane) == 0 ? ssam__o : ssam__v;                                                \
        }                                                                                                  \
        _Pragma("unroll") for (int ssam__j = 0; ssam__j < (HR); ssam__j++) {                               \
            const float ssam__v = ssam_shift_down((r)[(HL) + ssam__j], 1); /* lane+1's column j */         \
            float ssam__o;                                                                                 \
            SSAM_REGCACHE_FROM_BITS(TS, float, (qe)[ssam__j], ssam__o);                                    \
            (r)[(HL) + (V) + ssam__j] = (lane) == 31 ? ssam__o : ssam__v;                                  \
        }                                                                                                  \
    } while (0)

/* the row r[] adds tap row n to the sums of the output n rows above: out[] (the output whose last
 * tap row this is) is complete; acc[j] moves up one output (acc[j] = acc[j+1] + ...) and acc[N-2]
 * starts the output whose first row this is.  N*M*V FMAs, the weights w[n*M + m] from parameters. */
#define SSAM__CONV_QACC(V, M, N, acc, out, r, w)                                                            \
    do {                                                                                                   \
        _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++) {                                \
            float ssam__s = (N) > 1 ? (acc)[0][ssam__k] : 0.f;                                             \
            _Pragma("unroll") for (int ssam__m = 0; ssam__m < (M); ssam__m++) ssam__s =                    \
                fmaf((w)[((N)-1) * (M) + ssam__m], (r)[ssam__k + ssam__m], ssam__s);                       \
            (out)[ssam__k] = ssam__s;                                                                      \
            _Pragma("unroll") for (int ssam__a = 0; ssam__a + 2 < (N); ssam__a++) {                        \
                float ssam__t = (acc)[ssam__a + 1][ssam__k];                                               \
                _Pragma("unroll") for (int ssam__m = 0; ssam__m < (M); ssam__m++) ssam__t =                \
                    fmaf((w)[((N)-2 - ssam__a) * (M) + ssam__m], (r)[ssam__k + ssam__m], ssam__t);         \
                (acc)[ssam__a][ssam__k] = ssam__t;                                                         \
            }                                                                                              \
            if ((N) > 1) {                                                                                 \
                float ssam__t = (w)[0] * (r)[ssam__k];                                                     \
                _Pragma("unroll") for (int ssam__m = 1; ssam__m < (M); ssam__m++) ssam__t =                \
                    fmaf((w)[ssam__m], (r)[ssam__k + ssam__m], ssam__t);                                   \
                (acc)[(N) > 1 ? (N)-2 : 0][ssam__k] = ssam__t;                                             \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* out[V] to the lane's columns x .. x+V-1 of drow: one 16-byte store inside the output, else
 * element by element up to the width */
#define SSAM__CONV_QSTORE(TS, V, drow, out, x, ow, ovec)                                                    \
    do {                                                                                                   \
        if ((ovec) && (x) + (V) <= (ow)) {                                                                 \
            ssam__qvec_t ssam__o;                                                                          \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) ssam__o.t[ssam__j] = (TS)(out)[ssam__j]; \
            *(uint4 *)((drow) + (x)) = ssam__o.r;                                                          \
        } else {                                                                                           \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) if ((x) + ssam__j < (ow))    \
                (drow)[(x) + ssam__j] = (TS)(out)[ssam__j];                                                \
        }                                                                                                  \
    } while (0)

/* The queued kernel body: a warp owns 32V output columns and the rows [Ys, Ye) of one segment, walks
 * the segment's Ye-Ys+N-1 input rows D at a time with the next D rows' loads in flight, and stores
 * each output row as its last tap row arrives.  The row table (shared) covers the walk rounded up
 * to D rows plus the D rows prefetched past it. */
#define SSAM__CONV2D_QBODY(TS, M, N, D, B, src, dst, g, wts)                                                \
    do {                                                                                                   \
        enum { V = SSAM_CONV_V(TS), HL = ((M)-1) / 2, HR = (M)-1 - HL, E = HR > 0 ? HR : 1,                \
               NA = (N) > 1 ? (N)-1 : 1 };                                                                 \
        SSAM__CONV_QTYPES(TS, V);                                                                          \
        extern __shared__ int ssam__rowtab[];                                                              \
        const int Ys = blockIdx.y * (g).seg;                                                               \
        const int Ye = min(Ys + (g).seg, (g).oh);                                                          \
        const int nrow = Ye - Ys + (N)-1; /* input rows the segment reads */                              \
        for (int i = threadIdx.x; i < (g).seg + (N)-1 + 2 * (D); i += (B))                                \
            ssam__rowtab[i] = ssam_border_index(Ys - (g).ay + i, (g).h, (g).border);                       \
        __syncthreads();                                                                                   \
        const int lane = threadIdx.x & 31;                                                                 \
        const int X0 = (blockIdx.x * ((B) / 32) + (threadIdx.x >> 5)) * 32 * V;                            \
        if (X0 >= (g).ow) return; /* whole warps only: the shuffles need every lane */                    \
        const int x = X0 + V * lane;                                                                       \
        const int edge = lane == 0 || lane == 31;                                                          \
        const TS cval = (TS)(float)(g).cval;                                                               \
        ssam__qone_t cb;                                                                                   \
        cb.u = 0;                                                                                          \
        cb.t = cval;                                                                                       \
        const unsigned cbits = cb.u;                                                                       \
        int cx[V], ce[E], in;                                                                              \
        SSAM_REGCACHE_COLUMNS(V, cx, in, x, (g).w, (g).border, (g).vec);                                   \
        _Pragma("unroll") for (int e = 0; e < E; e++) /* lane 0: x-HL .. x-1; lane 31: x+V .. x+V+HR-1 */  \
            ce[e] = ssam_border_index(lane == 0 ? x - (HL) + e : x + V + e, (g).w, (g).border);            \
        uint4 q[D];                                                                                        \
        unsigned qe[D][E];                                                                                 \
        float acc[NA][V];                                                                                  \
        _Pragma("unroll") for (int a = 0; a < NA; a++) _Pragma("unroll") for (int k = 0; k < V; k++) acc[a][k] = 0.f; \
        _Pragma("unroll") for (int p = 0; p < (D); p++)                                                    \
            SSAM__CONV_QLOAD(TS, V, E, q[p], qe[p], src, (g).sp, ssam__rowtab + p, x, cx, in, ce, edge, cval, cbits); \
        _Pragma("unroll 1") for (int i0 = 0; i0 < nrow; i0 += (D)) {                                        \
            _Pragma("unroll") for (int p = 0; p < (D); p++) {                                              \
                float r[HL + V + HR], out[V];                                                              \
                SSAM__CONV_QROW(TS, V, HL, HR, r, q[p], qe[p], lane);                                      \
                SSAM__CONV_QLOAD(TS, V, E, q[p], qe[p], src, (g).sp, ssam__rowtab + i0 + p + (D), x, cx, in, ce, \
                                 edge, cval, cbits);                                                       \
                SSAM__CONV_QACC(V, M, N, acc, out, r, wts);                                                \
                const int o = Ys + i0 + p - ((N)-1); /* the output row completed */                        \
                if (o >= Ys && o < Ye) SSAM__CONV_QSTORE(TS, V, (dst) + (long long)o * (g).dp, out, x, (g).ow, (g).ovec); \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* SSAM_CONV2D_DEFINE_OCC: the same with a register budget -- MINB blocks of B threads must fit on
 * one SM (__launch_bounds__(B, MINB)), trading registers for resident warps; 1 lets the compiler
 * use up to 255. */
#define SSAM_CONV2D_DEFINE(name, T, M, N, P, B) SSAM_CONV2D_DEFINE_OCC(name, T, M, N, P, B, 1)
#define SSAM_CONV2D_DEFINE_OCC(name, T, M, N, P, B, MINB)                                                 \
    SSAM__CONV2D_DEFINE_X(name, T, T, M, N, P, B, MINB, SSAM__CONV_QOK(T, M, N))

/* Half-precision storage (FP16 __half, BF16 __nv_bfloat16): the image in and out is 2 bytes a pixel
 * (8 per lane and 16-byte vector), the cache and the arithmetic FP32, each output rounded once to
 * the storage type; the weights are FLOAT host arrays.  Memory-bound filters move half the bytes
 * of float. */
#define SSAM_CONV2D_DEFINE_HALF(name, M, N, P, B) SSAM__CONV2D_DEFINE_X(name, __half, float, M, N, P, B, 1, SSAM__CONV_QOK(__half, M, N))
#define SSAM_CONV2D_DEFINE_BF16(name, M, N, P, B) SSAM__CONV2D_DEFINE_X(name, __nv_bfloat16, float, M, N, P, B, 1, SSAM__CONV_QOK(__nv_bfloat16, M, N))

#define SSAM__CONV2D_DEFINE_X(name, TS, T, M, N, P, B, MINB, Q)                                             \
    typedef struct name##_weights {                                                                        \
        T w[(M) * (N)];                                                                                    \
    } name##_weights;                                                                                      \
    typedef char name##__filter_fits_a_warp[(SSAM_CONV_STEP(TS, M) >= SSAM_CONV_V(TS)) ? 1 : -1];          \
    typedef char name##__cache_fits_registers[(SSAM_CONV_V(TS) * ((P) + (N)-1) <= 192) ? 1 : -1];          \
    typedef char name##__block_is_whole_warps[((B) % 32 == 0 && (B) > 0 && (B) <= 1024 && (P) >= 1) ? 1 : -1]; \
    __global__ void __launch_bounds__(B, MINB) name##_kernel(const TS *__restrict__ src, TS *__restrict__ dst, \
                                                       ssam_conv2d_geom g, name##_weights wt)               \
    {                                                                                                      \
        SSAM__CONV2D_BODY(TS, T, M, N, P, B, src, dst, g, wt.w);                                           \
    }                                                                                                      \
    /* the queued walk (Q: small filters; an empty kernel otherwise).  Its loads in flight come from its \
     * queue, not from resident warps: MINB is the systolic walk's. */                                    \
    __global__ void __launch_bounds__(B, 1) name##_qkernel(const TS *__restrict__ src, TS *__restrict__ dst, \
                                                        ssam_conv2d_geom g, name##_weights wt)              \
    {                                                                                                      \
        if (Q) SSAM__CONV2D_QBODY(TS, (Q) ? (M) : 1, (Q) ? (N) : 1, SSAM__CONV_QD(TS, M, N), B, src, dst, g, wt.w); \
    }                                                                                                      \
    /* 1 when name_launch(a) runs the queued walk, 0 the systolic walk (or a is invalid) */               \
    static inline __attribute__((unused)) int name##_queued(const ssam_conv2d_args *a)                    \
    {                                                                                                      \
        ssam_conv2d_geom g;                                                                                \
        return (Q) && !ssam__conv2d_geometry(a, M, N, SSAM_CONV_V(TS), &g) && g.ax == ((M)-1) / 2 &&         \
               !(a->flags & (SSAM_VALID | SSAM_SYSTOLIC_WALK));                                           \
    }                                                                                                      \
    static inline __attribute__((unused)) int name##_launch(const ssam_conv2d_args *a, cudaStream_t stream) \
    {                                                                                                      \
        ssam_conv2d_geom g;                                                                                \
        name##_weights wt;                                                                                 \
        dim3 grid;                                                                                         \
        const T *hw;                                                                                       \
        static int occ[2] = {0, 0}; /* the queued kernel's blocks per SM: device + 1, blocks */            \
        const int q = name##_queued(a);                                                                    \
        int rc = q ? ssam__conv_occupancy((const void *)name##_qkernel, B, occ) : SSAM_SUCCESS;           \
        if (rc) return rc;                                                                                 \
        rc = ssam__conv2d_prepare(a, M, N, q ? SSAM__CONV_QD(TS, M, N) : (P), B, SSAM_CONV_V(TS),            \
                                  q ? 32 * SSAM_CONV_V(TS) : SSAM_CONV_STEP(TS, M), q ? occ[1] * ((B) / 32) : 0, &g, \
                                  &grid);                                                                  \
        if (rc) return rc;                                                                                 \
        hw = (const T *)a->weights;                                                                        \
        for (int i = 0; i < (M) * (N); i++) /* convolution: the filter flipped both ways */                \
            wt.w[i] = (a->flags & SSAM_CONVOLVE) ? hw[(M) * (N)-1 - i] : hw[i];                            \
        if (q)                                                                                             \
            name##_qkernel<<<grid, B, (size_t)(g.seg + (N)-1 + 2 * SSAM__CONV_QD(TS, M, N)) * sizeof(int), stream>>>( \
                (const TS *)a->src, (TS *)a->dst, g, wt);                                                  \
        else                                                                                               \
            name##_kernel<<<grid, B, (size_t)(g.seg + (N)-1 + (P)) * sizeof(int), stream>>>((const TS *)a->src, \
                                                                                         (TS *)a->dst, g, wt); \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                           \
    }

/* a 1D filter of M taps along every row (N = 1, one row per lane) */
#define SSAM_CONV1D_DEFINE(name, T, M, B) SSAM_CONV2D_DEFINE(name, T, M, 1, 1, B)

#endif /* SSAM_CONV_CUH */
