/* ssam/stencil.cuh -- 2D and 3D stencils as software systolic arrays: describe a stencil once (an
 * X-macro list of points, ssam/stencil_shapes.cuh), get a kernel.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 2, sections 4.8-4.9, Table 3)
 *   SSAM_STENCIL2D_DEFINE(name, T, SHAPE, P, B) defines
 *       __global__ void name_kernel(...)                                       one time step
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)              checks, sizes, launches
 *       int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 *                                                                              N steps, ping-pong
 *       enum name_NPTS, name_NCOEF; typedef struct name_coef { T c[NPTS]; }
 *   for the shape SHAPE (an X-macro list X(I, DX, DY)), P output rows per lane and step of the
 *   sliding window, B threads per block.  For a list X(I, DX, DY, DZ), two 3D variants:
 *     SSAM_STENCIL3D_STREAM_DEFINE(name, T, SHAPE, P, B)  register streaming: a warp holds P output
 *         rows and sweeps along Z, keeping the NZ planes the stencil spans in registers (each plane
 *         only the rows its points read: a star's planes dz != 0 hold the P output rows);
 *     SSAM_STENCIL3D_SLICE_DEFINE(name, T, SHAPE, P, B)   section 4.9: the B/32 warps of a block
 *         work on consecutive XY slices (planes) of one tile of P rows; each warp computes the
 *         in-plane partial sums of its plane for every plane offset dz systolically, and the Z
 *         partial sums travel between warps through shared memory (a ring of planes), the block
 *         sweeping along Z B/32 planes at a time;
 *     SSAM_STENCIL3D_DEFINE(name, T, SHAPE, P, B)         the default: the variant
 *         SSAM_STENCIL3D_SLICE_RULE(T, NPTS, NX, NY, NZ) picks at compile time (name_SLICE says
 *         which): see the rule's comment below.  All three define the same functions.
 *   _OCC variants add MINB blocks per SM (__launch_bounds__(B, MINB)), as in conv.cuh.
 *   SSAM_STENCIL2D_DEFINE_HALF / _BF16(name, SHAPE, P, B): the 2D kernel with the state stored as
 *       __half / __nv_bfloat16 (2 bytes a cell: a memory-bound stencil moves half the bytes),
 *       V = 8 cells a lane, computed in float (one rounding to the storage type at the store);
 *       the coefficients are a FLOAT host array.  Error per step: one rounding of the storage type
 *       (2^-11 relative for FP16, 2^-8 for BF16) beside float's sums; the tests bound it.
 *
 * HOW (Listing 2's schedule, generalised)
 *   Each lane caches V = 16/sizeof(T) adjacent columns (one 16-byte load per row) of a window of
 *   rows (regcache.cuh).  For each of its V output columns a lane groups the stencil's points by
 *   lane distance q = floor((k + DX) / V): the points at q = 0 are its own columns, summed locally;
 *   those at q > 0 live in lanes to the right, whose partial sums travel down the warp by Horner's
 *   scheme (shfl.down one lane per step, starting from the farthest), those at q < 0 travel up
 *   (shfl.up).  Coefficients whose column offset falls in one lane are one partial sum, so a 5-point
 *   star with V = 4 costs 5 FMAs and 0.5 shuffles per output; every point is one FMA.  The outputs
 *   are the lane's own columns, so stores are 16-byte vectors.  Lanes within QL = ceil(-XLO/V) of
 *   the warp's left end and QR = ceil(XHI/V) of its right end compute incomplete sums that are not
 *   stored (overlapped blocking, section 4.5): a warp produces (32 - QL - QR) V columns.
 *   Stars within one lane and of x radius <= 3 (QL, QR <= 1, W = max(XHI, -XLO) <= 3, every point
 *   with DX != 0 on the cell's row and plane) use ghost lanes instead: all 32 lanes store (32 V columns per warp, 16-byte aligned strips);
 *   lane 0 also loads the few columns right of the warp and lane 31 those left of it (scalar
 *   loads of only the elements the shape reads, one output step ahead), and the last shuffle of
 *   each side is a rotation carrying those ghosts' partial sums to lanes 31 and 0.
 *   Grids: resident blocks per SM are queried once per device (cudaOccupancy...); 2D segments
 *   rows to fill about four full waves, 3D picks the number of Z segments that best fills whole waves
 *   of resident blocks counting the NZ - 1 halo planes per segment.
 *   Slice variant: per plane offset dz the same lane schedule over that plane's points only, with
 *   that plane's own x extent (a star's planes dz != 0 are one FMA, no shuffle); the partials of
 *   dz < ZHI go to shared memory (16-byte vectors, 512 bytes per warp row), the warp of input
 *   plane z + ZHI adds its own dz = ZHI partial and the NZ - 1 partials of the planes before it
 *   and stores output plane z.  Two barriers per B/32 planes; one plane of P + NY - 1 rows in
 *   registers (plus the prefetched next one) instead of NZ.  Dirichlet cells read their own
 *   value back from src (the warp holds another plane).
 *
 * BOUNDARIES (a->boundary)
 *   SSAM_STENCIL_DIRICHLET  cells whose stencil would reach outside the domain keep their values:
 *                           out = in where x + XLO < 0 or x + XHI >= nx (and likewise in y, z), so
 *                           for a star or box of radius r the cells within r of an edge are fixed.
 *   SSAM_STENCIL_PERIODIC   every cell is computed; indices wrap (any distance: a 5 x 3 domain
 *                           under a radius-6 star is defined).
 *
 * PIECES FOR KERNELS OF ONE'S OWN (perks reuses them)
 *   SSAM_STENCIL2D_ROW(T, V, SHAPE, XLO, XHI, YLO, out, win, p, coef)
 *       out[k] (k < V) = sum c[I] in(lane's column k + DX, window row p + DY - YLO): one output row
 *       from a register window T win[V][R] whose row p holds the row at offset YLO of the output
 *       row (so window rows p .. p + YHI - YLO are used).  coef is a compile-time-indexed T array
 *       (kernel parameters); XLO, XHI, YLO the shape's extents as constants (SSAM_SHAPE2D_*).
 *       Every lane of the warp must execute it (shuffles); lanes < QL and >= 32 - QR are partial.
 *   SSAM_STENCIL2D_ROW_FN(T, V, SHAPE, XLO, XHI, YLO, out, win, p, coef, INIT, FN, CMB)
 *       the same row with the URE paper's s <- s (+) (x (*) c) as parameters: out[k] = the CMB-fold
 *       over the points of FN(acc, x, c), partial results starting at INIT.  FN, CMB: names of
 *       functions T FN(T acc, T x, T c) (returning acc (+) (x (*) c)) and T CMB(T a, T b) (the
 *       (+); associative and commutative, INIT its identity: the points are grouped by lane and
 *       the groups combined).  E.g. a max-plus (dilation-like) stencil: FN fmax(acc, x + c), CMB
 *       fmax, INIT -INFINITY; a weighted minimum: FN fmin(acc, x * c), CMB fmin, INIT INFINITY.
 *       fma/+/0 gives SSAM_STENCIL2D_ROW's sums.
 *   SSAM_STENCIL3D_ROW(T, V, SHAPE, XLO, XHI, YLO, ZLO, R, out, win, p, coef)
 *       the same for T win[V][NZ * R]: plane offset DZ lives at window rows (DZ - ZLO) * R + ...
 *   SSAM_STENCIL_QL(V, XLO), SSAM_STENCIL_QR(V, XHI), SSAM_STENCIL_STEP(V, XLO, XHI): the partial
 *   lanes at each end and the columns a warp produces.
 *
 * EXAMPLE
 *     #include <ssam/stencil.cuh>
 *     SSAM_STENCIL2D_DEFINE(heat, float, SSAM_SHAPE_2D5PT, 8, 128)
 *     float c[5] = {1 - 4 * r, r, r, r, r};          // host memory, in the shape's point order
 *     ssam_stencil_args a = {0};
 *     a.src = d_u0; a.dst = d_u1; a.nx = W; a.ny = H; a.coef = c; a.ncoef = 5;
 *     a.boundary = SSAM_STENCIL_DIRICHLET;
 *     void *u;
 *     int rc = heat_advance(&a, 1000, &u, stream);    // u is d_u0 or d_u1: the state after 1000 steps
 *
 * PARAMETERS AND LIMITS
 *   T float or double.  Offsets within +-10 (SSAM_STENCIL_RMAX).  P >= 1; B a multiple of 32 up to
 *   1024.  Registers per lane: V * (P + NY - 1) window + V * P prefetch (2D), V * (NZ (P + NY - 1)
 *   + P + NY - 1) (3D streaming; a bound: trimmed planes hold fewer), 2 V (P + NY - 1) (3D slice); the
 *   definitions refuse windows over 192 32-bit registers.  Slice shared memory: (B/32 + NZ - 1) (NZ - 1) P 512 bytes + a row table
 *   (SSAM__STENCIL3S_SMEM; at most 227 KB, compile-time check; over 48 KB is opted in at the first
 *   launch).  Coefficients travel in
 *   the kernel's parameters (NPTS * sizeof(T) bytes; read from HOST memory at launch).  The same
 *   pitch for src and dst (elements; 0 = dense); src and dst must not overlap (SSAM_EOVERLAP).
 *   name_advance overwrites both buffers (src too: it is the ping-pong partner).
 *   2D: ny up to 65535 * 4096 rows; 3D: ceil(ny / (P B/32)) (slice: ceil(ny / P)) and the z
 *   segments each <= 65535.
 *   Status codes: SSAM_ENULL, SSAM_ESIZE (a size <= 0, nz != 1 for 2D, steps < 0, grid too large),
 *   SSAM_EPITCH, SSAM_EBORDER (unknown boundary), SSAM_EFILTER (ncoef differs from the shape's),
 *   SSAM_EOVERLAP (src and dst overlap), SSAM_ECUDA; ssam_stencil_strerror names them.
 */
#ifndef SSAM_STENCIL_CUH
#define SSAM_STENCIL_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "base.cuh"
#include "regcache.cuh"
#include "shift.cuh"
#include "stencil_shapes.cuh"

#define SSAM_STENCIL_DIRICHLET 0
#define SSAM_STENCIL_PERIODIC 1

static inline const char *ssam_stencil_strerror(int rc)
{
    if (rc == SSAM_EBORDER) return "ssam: unknown boundary (SSAM_STENCIL_DIRICHLET or SSAM_STENCIL_PERIODIC)";
    if (rc == SSAM_EFILTER) return "ssam: ncoef differs from the stencil's number of coefficients";
    return ssam_strerror(rc);
}

typedef struct ssam_stencil_args {
    const void *src;         /* T *, device: the input state */
    void *dst;               /* T *, device: the output state (same layout) */
    int nx, ny, nz;          /* domain: nx cells per row, ny rows, nz planes (2D: nz 0 or 1) */
    long long pitch, plane;  /* elements between rows / planes, src and dst alike; 0 = dense */
    const void *coef;        /* T *, HOST memory: ncoef coefficients, c[I] for the shape's X(I, ...) */
    int ncoef;               /* must equal the shape's (max I) + 1 */
    int boundary;            /* SSAM_STENCIL_DIRICHLET or SSAM_STENCIL_PERIODIC */
} ssam_stencil_args;

/* what the kernels need besides pointers and coefficients */
typedef struct ssam_stencil_geom {
    int nx, ny, nz;
    long long pitch, plane;
    int periodic; /* 1: wrap, 0: Dirichlet */
    int vld, vst; /* 16-byte loads / stores allowed */
    int seg;      /* rows (2D) or planes (3D) per block */
} ssam_stencil_geom;

#define SSAM_STENCIL_V(T) ((int)(16 / sizeof(T)))
#define SSAM_STENCIL_QL(V, XLO) ((XLO) < 0 ? (-(XLO) + (V)-1) / (V) : 0)
#define SSAM_STENCIL_QR(V, XHI) ((XHI) > 0 ? ((XHI) + (V)-1) / (V) : 0)
#define SSAM_STENCIL_STEP(V, XLO, XHI) ((32 - SSAM_STENCIL_QL(V, XLO) - SSAM_STENCIL_QR(V, XHI)) * (V))

/* floor(v / V) for v > -64 V */
#define SSAM__FDIV(v, V) (((v) + 64 * (V)) / (V)-64)

/* the point callbacks: add point (DX, DY[, DZ]) to the partial sum ssam__acc of output column
 * ssam__k when its column lies ssam__d lanes away (constants after unrolling: the tests fold) */
#define SSAM__ST2_PT(I, DX, DY)                                                                              \
    if (SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                                      \
        ssam__acc = fma(ssam__win[(ssam__k + (DX)) & (ssam__V - 1)][ssam__p + (DY)-ssam__ylo], ssam__cf[I], ssam__acc);
#define SSAM__ST3_PT(I, DX, DY, DZ)                                                                          \
    if (SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                                      \
        ssam__acc = fma(ssam__win[(ssam__k + (DX)) & (ssam__V - 1)]                                          \
                                 [((DZ)-ssam__zlo) * ssam__R + ssam__p + (DY)-ssam__ylo],                    \
                        ssam__cf[I], ssam__acc);

/* the same with a user operator: ssam__acc = ssam__fn(ssam__acc, x, c) (SSAM_STENCIL2D_ROW_FN) */
#define SSAM__ST2_PTF(I, DX, DY)                                                                             \
    if (SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                                      \
        ssam__acc = ssam__fn(ssam__acc, ssam__win[(ssam__k + (DX)) & (ssam__V - 1)][ssam__p + (DY)-ssam__ylo], ssam__cf[I]);
#define SSAM__CMB_ADD(a, b) ((a) + (b))

/* the same for a ghost window gw[W][..]: lane 0's right ghost holds columns 32V + s, lane 31's left
 * ghost columns XLO + s (relative to the warp's first), s < W = max(XHI, -XLO) */
#define SSAM__ST2_GPT(I, DX, DY)                                                                             \
    if (SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                                      \
        ssam__acc = fma(ssam__win[(ssam__k + (DX) - (ssam__d < 0 ? ssam__gxlo : 0)) & (ssam__V - 1)]         \
                                 [ssam__p + (DY)-ssam__ylo], ssam__cf[I], ssam__acc);
#define SSAM__ST3_GPT(I, DX, DY, DZ)                                                                         \
    if (SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                                      \
        ssam__acc = fma(ssam__win[(ssam__k + (DX) - (ssam__d < 0 ? ssam__gxlo : 0)) & (ssam__V - 1)]         \
                                 [((DZ)-ssam__zlo) * ssam__R + ssam__p + (DY)-ssam__ylo],                    \
                        ssam__cf[I], ssam__acc);

/* The lane-distance schedule for one output row: for each of the lane's V columns, the local
 * points, then the right lanes' points by Horner over shfl.down, then the left lanes' by shfl.up.
 * Each partial starts at INIT and the three are combined by CMB(a, b) (0 and + for the stencils;
 * SSAM_STENCIL2D_ROW_FN's operator pair otherwise).
 * GH (a constant, 0 or 1; only with QL, QR <= 1): the warp has no overlap lanes; lane 0 also holds
 * the right ghost (the V columns after the warp's last) and lane 31 the left ghost (the V before
 * its first) in gwin, and the one-lane shifts become rotations in which lane 0 sends its ghost's
 * partial sum to lane 31 and lane 31 its ghost's to lane 0, so every lane's sum is complete. */
#define SSAM__STENCIL_LANES(T, V, XLO, XHI, LXLO, LXHI, SHAPE, PT, GPT, out, GH, gwin, INIT, CMB)         \
    _Pragma("unroll") for (int ssam__k = 0; ssam__k < (V); ssam__k++) {                                     \
        const int ssam__qr = (ssam__k + (LXHI) >= (V)) ? (ssam__k + (LXHI)) / (V) : 0;                      \
        const int ssam__ql = (ssam__k + (LXLO) < 0) ? (-(ssam__k + (LXLO)) + (V)-1) / (V) : 0;              \
        T ssam__own, ssam__r = (T)(INIT), ssam__l = (T)(INIT);                                              \
        {                                                                                                   \
            const int ssam__d = 0;                                                                          \
            T ssam__acc = (T)(INIT);                                                                        \
            SHAPE(PT)                                                                                       \
            ssam__own = ssam__acc;                                                                          \
        }                                                                                                   \
        _Pragma("unroll") for (int ssam__d = SSAM_STENCIL_QR(V, XHI); ssam__d >= 1; ssam__d--) {            \
            if (ssam__d <= ssam__qr) {                                                                      \
                T ssam__acc = ssam__r;                                                                      \
                if (ssam__d < ssam__qr) ssam__acc = ssam_shift_down(ssam__acc, 1);                          \
                SHAPE(PT)                                                                                   \
                ssam__r = ssam__acc;                                                                        \
            }                                                                                               \
        }                                                                                                   \
        if ((GH) && ssam__qr >= 1) {                                                                        \
            const int ssam__d = 1;                                                                          \
            T ssam__acc = (T)(INIT);                                                                        \
            const T(*const ssam__gw)[sizeof((gwin)[0]) / sizeof((gwin)[0][0])] = (gwin);                   \
            {                                                                                               \
                enum { ssam__gxlo = (XLO) };                                                                \
                const T(*const ssam__win)[sizeof((gwin)[0]) / sizeof((gwin)[0][0])] = ssam__gw;            \
                SHAPE(GPT)                                                                                  \
            }                                                                                               \
            ssam__r = __shfl_sync(0xffffffffu, (threadIdx.x & 31) == 0 ? ssam__acc : ssam__r,              \
                                  (int)(threadIdx.x + 1) & 31);                                             \
        } else if (ssam__qr >= 1)                                                                           \
            ssam__r = ssam_shift_down(ssam__r, 1);                                                          \
        _Pragma("unroll") for (int ssam__e = SSAM_STENCIL_QL(V, XLO); ssam__e >= 1; ssam__e--) {            \
            if (ssam__e <= ssam__ql) {                                                                      \
                const int ssam__d = -ssam__e;                                                               \
                T ssam__acc = ssam__l;                                                                      \
                if (ssam__e < ssam__ql) ssam__acc = ssam_shift_up(ssam__acc, 1);                            \
                SHAPE(PT)                                                                                   \
                ssam__l = ssam__acc;                                                                        \
            }                                                                                               \
        }                                                                                                   \
        if ((GH) && ssam__ql >= 1) {                                                                        \
            const int ssam__d = -1;                                                                         \
            T ssam__acc = (T)(INIT);                                                                        \
            const T(*const ssam__gw)[sizeof((gwin)[0]) / sizeof((gwin)[0][0])] = (gwin);                   \
            {                                                                                               \
                enum { ssam__gxlo = (XLO) };                                                                \
                const T(*const ssam__win)[sizeof((gwin)[0]) / sizeof((gwin)[0][0])] = ssam__gw;            \
                SHAPE(GPT)                                                                                  \
            }                                                                                               \
            ssam__l = __shfl_sync(0xffffffffu, (threadIdx.x & 31) == 31 ? ssam__acc : ssam__l,             \
                                  (int)(threadIdx.x + 31) & 31);                                            \
        } else if (ssam__ql >= 1)                                                                           \
            ssam__l = ssam_shift_up(ssam__l, 1);                                                            \
        (out)[ssam__k] = ssam__own;                                                                         \
        if (ssam__qr >= 1) (out)[ssam__k] = CMB((out)[ssam__k], ssam__r);                                   \
        if (ssam__ql >= 1) (out)[ssam__k] = CMB((out)[ssam__k], ssam__l);                                   \
    }

/* the ghost-lane layout is used when every point lies within one lane (|DX| <= V) and the points
 * off the cell's column all lie on its row (and plane): stars, whose ghosts are one value per
 * output row and side (OFFAX: does any point have DX != 0 off the row? boxes keep the overlap) */
#define SSAM__OFFAX2(I, DX, DY) || ((DX) != 0 && (DY) != 0)
#define SSAM__OFFAX3(I, DX, DY, DZ) || ((DX) != 0 && ((DY) != 0 || (DZ) != 0))
#define SSAM__STENCIL_GH(V, XLO, XHI, OFFAX) (SSAM_STENCIL_QL(V, XLO) <= 1 && SSAM_STENCIL_QR(V, XHI) <= 1 && !(OFFAX))
/* the columns a warp produces in the kernels here (32 V with ghosts, else SSAM_STENCIL_STEP) */
#define SSAM__STENCIL_WSTEP(V, XLO, XHI, OFFAX) SSAM__STENCIL_WSTEPM(V, XLO, XHI, OFFAX, 1)
/* the same for a ghost mode GHM (0: overlap lanes always; 1, 2: ghost lanes where the shape allows) */
#define SSAM__STENCIL_WSTEPM(V, XLO, XHI, OFFAX, GHM)                                                        \
    (((GHM) != 0 && SSAM__STENCIL_GH(V, XLO, XHI, OFFAX)) ? 32 * (V) : SSAM_STENCIL_STEP(V, XLO, XHI))

/* one output row of a 2D stencil from the register window win[V][R] (see the usage block) */
#define SSAM_STENCIL2D_ROW(T, V, SHAPE, XLO, XHI, YLO, out, win, p, coef)                                   \
    SSAM__STENCIL2D_ROWG(T, V, SHAPE, XLO, XHI, YLO, out, win, win, p, coef, 0)

/* one output row of a 2D stencil with the operator pair as parameters (see the usage block): FN and
 * CMB name functions T FN(T acc, T x, T c) and T CMB(T a, T b) */
#define SSAM_STENCIL2D_ROW_FN(T, V, SHAPE, XLO, XHI, YLO, out, win, p, coef, INIT, FN, CMB)                 \
    do {                                                                                                    \
        enum { ssam__V = (V), ssam__ylo = (YLO) };                                                          \
        static_assert((V) > 0 && ((V) & ((V)-1)) == 0, "SSAM_STENCIL2D_ROW_FN: V must be a power of two");  \
        T (*const ssam__fn)(T, T, T) = (FN);                                                                \
        T (*const ssam__cmb)(T, T) = (CMB);                                                                 \
        const T(*const ssam__win)[sizeof((win)[0]) / sizeof((win)[0][0])] = (win);                         \
        const T *const ssam__cf = (coef);                                                                   \
        const int ssam__p = (p);                                                                            \
        SSAM__STENCIL_LANES(T, V, XLO, XHI, XLO, XHI, SHAPE, SSAM__ST2_PTF, SSAM__ST2_PTF, out, 0, win, INIT, \
                            ssam__cmb)                                                                      \
    } while (0)

/* one output row of a 3D stencil from win[V][NZ * R]: plane offset DZ at rows (DZ - ZLO) * R + ... */
#define SSAM_STENCIL3D_ROW(T, V, SHAPE, XLO, XHI, YLO, ZLO, R, out, win, p, coef)                           \
    SSAM__STENCIL3D_ROWG(T, V, SHAPE, XLO, XHI, YLO, ZLO, R, out, win, win, p, coef, 0)

/* the same with the ghost-lane layout when GH is 1: gwin (same shape as win) holds lane 0's right
 * ghost and lane 31's left ghost; every lane's outputs are complete */
#define SSAM__STENCIL2D_ROWG(T, V, SHAPE, XLO, XHI, YLO, out, win, gwin, p, coef, GH)                       \
    do {                                                                                                    \
        enum { ssam__V = (V), ssam__ylo = (YLO) };                                                          \
        typedef char ssam__v_is_a_power_of_two[((V) > 0 && ((V) & ((V)-1)) == 0) ? 1 : -1];                \
        const T(*const ssam__win)[sizeof((win)[0]) / sizeof((win)[0][0])] = (win);                         \
        const T *const ssam__cf = (coef);                                                                   \
        const int ssam__p = (p);                                                                            \
        (void)sizeof(ssam__v_is_a_power_of_two);                                                            \
        SSAM__STENCIL_LANES(T, V, XLO, XHI, XLO, XHI, SHAPE, SSAM__ST2_PT, SSAM__ST2_GPT, out, GH, gwin, 0,   \
                            SSAM__CMB_ADD)                                                                  \
    } while (0)

#define SSAM__STENCIL3D_ROWG(T, V, SHAPE, XLO, XHI, YLO, ZLO, R, out, win, gwin, p, coef, GH)               \
    do {                                                                                                    \
        enum { ssam__V = (V), ssam__ylo = (YLO), ssam__zlo = (ZLO), ssam__R = (R) };                        \
        typedef char ssam__v_is_a_power_of_two[((V) > 0 && ((V) & ((V)-1)) == 0) ? 1 : -1];                \
        const T(*const ssam__win)[sizeof((win)[0]) / sizeof((win)[0][0])] = (win);                         \
        const T *const ssam__cf = (coef);                                                                   \
        const int ssam__p = (p);                                                                            \
        (void)sizeof(ssam__v_is_a_power_of_two);                                                            \
        SSAM__STENCIL_LANES(T, V, XLO, XHI, XLO, XHI, SHAPE, SSAM__ST3_PT, SSAM__ST3_GPT, out, GH, gwin, 0,   \
                            SSAM__CMB_ADD)                                                                  \
    } while (0)

/* store one lane's V outputs of row y (Dirichlet: cells whose stencil leaves the domain keep own[k]) */
#define SSAM__STENCIL_STORE(T, V, drow, x, nx, out, own, colin, rowin, vst)                                 \
    SSAM__STENCIL_STORE_AS(T, V, drow, x, nx, out, own, colin, rowin, vst)
/* the same into storage of type TS (out and own converted; own came from TS, so it is exact) */
#define SSAM__STENCIL_STORE_AS(TS, V, drow, x, nx, out, own, colin, rowin, vst)                             \
    do {                                                                                                    \
        typedef SSAM__VEC(TS, V) ssam__vec_t;                                                               \
        ssam__vec_t ssam__q;                                                                                \
        _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) ssam__q.v[ssam__j] =             \
            (TS)(((rowin) && (((colin) >> ssam__j) & 1)) ? (out)[ssam__j] : (own)[ssam__j]);                \
        if ((vst) && (x) + (V) <= (nx)) *(ssam__vec_t *)((drow) + (x)) = ssam__q;                          \
        else {                                                                                              \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) if ((x) + ssam__j < (nx))     \
                (drow)[(x) + ssam__j] = ssam__q.v[ssam__j];                                                 \
        }                                                                                                   \
    } while (0)

/* the kernel's coefficient struct from the caller's host array (a->ncoef of them; the rest 0) */
#define SSAM__STENCIL_COEF(T, NPTS, cf, a)                                                                  \
    for (int ssam__i = 0; ssam__i < (NPTS); ssam__i++)                                                      \
        (cf).c[ssam__i] = ssam__i < (a)->ncoef ? ((const T *)(a)->coef)[ssam__i] : (T)0

/* ---- host side: checks and geometry shared by every instantiation ----------------------------- */

/* ncoef of a shape: max I + 1, from its index list */
static inline int ssam__stencil_ncoef(const int *idx, int n)
{
    int m = -1;
    for (int i = 0; i < n; i++) m = idx[i] > m ? idx[i] : m;
    return m + 1;
}

/* 2D row segments for kernels that stream `warm` extra rows per segment (ssam/temporal.cuh): the
 * segment count s (at most 65535) whose waves of resident blocks x (segment + warm) is smallest,
 * stopping at segments shorter than max(warm, 16) rows; the segment length */
static inline long long ssam__stencil_segments_warm(long long ny, long long gx, long long resident, long long warm)
{
    long long s, best = 1, bcost = -1;
    for (s = 1; s <= ny && s <= 65535; s++) {
        const long long seg = (ny + s - 1) / s, nseg = (ny + seg - 1) / seg;
        const long long cost = ((gx * nseg + resident - 1) / resident) * (seg + warm);
        if (seg < (warm > 16 ? warm : 16) && bcost >= 0) break; /* shorter than their warm-up: no gain */
        if (bcost < 0 || cost * 1000 < bcost * 999) { bcost = cost; best = seg; }
    }
    return best;
}

/* 0 or an SSAM_E* code; fills g and the grid.  dims 2 or 3; step = columns per warp; wy = output
 * rows per block (3D) or 0 (2D); nzw = planes the stencil spans (3D); kern the kernel, whose
 * resident blocks per SM are queried once per device into occ[2] (device + 1, blocks); grid2d the
 * 2D segment rule (below); warm >= 0: 2D segments by ssam__stencil_segments_warm instead (each
 * segment streams warm extra rows), -1 otherwise */
static inline int ssam__stencil_prepare(const ssam_stencil_args *a, int dims, int ncoef, size_t es, int V,
                                        int step, int B, int P, int wy, int nzw, ssam_stencil_geom *g, dim3 *grid,
                                        const void *kern, int *occ, size_t dsmem, int grid2d, int warm)
{
    long long gx, gy, gz = 1, span, resident;
    int dev = 0, sms = 132;
    if (!a || !a->src || !a->dst || !a->coef) return SSAM_ENULL;
    if (a->nx <= 0 || a->ny <= 0) return SSAM_ESIZE;
    if (dims == 2 ? (a->nz != 0 && a->nz != 1) : a->nz <= 0) return SSAM_ESIZE;
    if (a->boundary != SSAM_STENCIL_DIRICHLET && a->boundary != SSAM_STENCIL_PERIODIC) return SSAM_EBORDER;
    if (a->ncoef != ncoef) return SSAM_EFILTER;
    g->nx = a->nx;
    g->ny = a->ny;
    g->nz = dims == 2 ? 1 : a->nz;
    g->pitch = a->pitch ? a->pitch : a->nx;
    if (g->pitch < a->nx) return SSAM_EPITCH;
    g->plane = a->plane ? a->plane : g->pitch * a->ny;
    if (dims == 3 && g->plane < g->pitch * a->ny) return SSAM_EPITCH;
    /* the elements each buffer spans; the two ranges must not meet */
    span = ((long long)(g->nz - 1) * (dims == 3 ? g->plane : 0) + (long long)(a->ny - 1) * g->pitch + a->nx) * (long long)es;
    if ((const char *)a->src < (const char *)a->dst + span && (const char *)a->dst < (const char *)a->src + span)
        return SSAM_EOVERLAP;
    g->periodic = a->boundary == SSAM_STENCIL_PERIODIC;
    g->vld = ssam_vec_ok(a->src, g->pitch, V) && (dims == 2 || g->plane % V == 0);
    g->vst = ssam_vec_ok(a->dst, g->pitch, V) && (dims == 2 || g->plane % V == 0);
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
        return SSAM_ECUDA;
    if (occ[0] != dev + 1) {
        int n = 0;
        if (dsmem > 48 * 1024 &&
            cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dsmem) != cudaSuccess)
            return SSAM_ECUDA;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kern, B, dsmem) != cudaSuccess) return SSAM_ECUDA;
        occ[1] = n > 0 ? n : 1;
        occ[0] = dev + 1;
    }
    resident = (long long)occ[1] * sms; /* blocks the GPU holds at once */
    if (dims == 2) {
        /* column strips of B/32 warps; rows in segments so that the grid is at most n full waves
         * of resident blocks (no partial last wave; n = 4 by default, SSAM__STENCIL2D_GRID_DEFAULT) */
        long long warps_x = (a->nx + step - 1) / step, want;
        gx = (warps_x + B / 32 - 1) / (B / 32);
        if (warm >= 0) {
            if (a->ny > 65535LL * 4096) return SSAM_ESIZE; /* the documented limit, as the rule below */
            g->seg = (int)ssam__stencil_segments_warm(a->ny, gx, resident, warm);
        } else {
            if (grid2d == 1) /* the first rule: about 48 warps per SM, whatever the occupancy */
                want = (48LL * sms + warps_x - 1) / warps_x;
            else /* grid2d (0: 2) full waves */
                want = (grid2d >= 2 ? grid2d : 2) * resident / gx;
            if (want < 1) want = 1;
            g->seg = (int)((a->ny + want - 1) / want);
            if (g->seg > 4096) g->seg = 4096;
            g->seg = (g->seg + P - 1) / P * P;
        }
        gy = (a->ny + g->seg - 1) / g->seg;
    } else {
        /* column strips x (wy rows per block) tiles, planes in segments of >= 8 (NZ - 1) planes.
         * The number of segments s is chosen to fill the waves of resident blocks: the time is
         * about waves x (seg + NZ - 1) planes, so s maximises tiles nz / (waves resident (seg + NZ - 1))
         * (the first s wins ties: longer sweeps, fewer halo planes) */
        long long tiles, s, best = -1;
        const int minseg = 8 * (nzw > 1 ? nzw - 1 : 1);
        double bscore = -1.0;
        (void)P;
        gx = (a->nx + step - 1) / step;
        gy = (a->ny + wy - 1) / wy;
        tiles = gx * gy;
        for (s = 1; s <= a->nz && s <= 1024; s++) {
            const long long seg = (a->nz + s - 1) / s, nseg = (a->nz + seg - 1) / seg;
            const long long waves = (tiles * nseg + resident - 1) / resident;
            double score;
            if (seg > 4096) continue;
            if (seg < minseg && best > 0) break;
            score = (double)tiles * a->nz / ((double)waves * resident * (double)(seg + nzw - 1));
            if (score > bscore * 1.0001) { bscore = score; best = seg; }
        }
        g->seg = (int)(best > 0 ? best : 4096);
        gz = (a->nz + g->seg - 1) / g->seg;
    }
    if (gx > 2147483647LL || gy > 65535 || gz > 65535) return SSAM_ESIZE;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = (unsigned)gz;
    return SSAM_SUCCESS;
}

/* the ghost lanes' window (GH layout): rows NR from the row table, scalar loads (so only the
 * elements the shape reads survive), the other lanes' copies zeroed (no merge with old values) */
#define SSAM__STENCIL_GLOAD(T, V, gw, r0, NR, src, pitch, gx, gcx, glane, rows)                             \
    SSAM__STENCIL_GLOAD_AS(T, T, V, gw, r0, NR, src, pitch, gx, gcx, glane, rows)
/* the same from storage of type TS (half types) into T */
#define SSAM__STENCIL_GLOAD_AS(TS, T, V, gw, r0, NR, src, pitch, gx, gcx, glane, rows)                      \
    do {                                                                                                    \
        if (glane)                                                                                          \
            SSAM_REGCACHE_ROWS_AS(TS, T, V, gw, r0, NR, src, pitch, gx, gcx, 0, rows, (T)0);                \
        else                                                                                                \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)                              \
                _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NR); ssam__r++)                         \
                    (gw)[ssam__j][(r0) + ssam__r] = (T)0;                                                   \
    } while (0)

/* the ghost lanes' window left raw (half types): the bits of each element, zero-extended, for
 * SSAM_REGCACHE_FROM_BITS where the window moves; 0 (+0.0) outside the ghost lanes */
#define SSAM__STENCIL_GLOAD_RAW(TS, V, gw, r0, NR, src, pitch, gcx, glane, rows)                           \
    do {                                                                                                    \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NR); ssam__r++) {                               \
            const int ssam__yy = (rows)[ssam__r];                                                           \
            const TS *ssam__row = (src) + (long long)(ssam__yy < 0 ? 0 : ssam__yy) * (pitch);               \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)(gw)[ssam__j][(r0) + ssam__r] = \
                ((glane) && ssam__yy >= 0 && (gcx)[ssam__j] >= 0) ? SSAM_REGCACHE_BITS(TS, ssam__row + (gcx)[ssam__j]) : 0u; \
        }                                                                                                   \
    } while (0)

/* ---- the 2D kernel body ---------------------------------------------------------------------- */
/* A warp owns STEP output columns and the rows [Ys, Ye) of one segment; it keeps a window of
 * P + NY - 1 rows x 32V columns in registers, loading each input row once (prefetching the next P
 * rows while computing the current P), borders applied at load time through a per-block row table. */
#define SSAM__STENCIL2D_BODY(T, SHAPE, XLO, XHI, YLO, YHI, P, B, GHM, src, dst, g, cf)                     \
    SSAM__STENCIL2D_BODY_AS(T, T, SHAPE, XLO, XHI, YLO, YHI, P, B, GHM, src, dst, g, cf)
/* the same with the state stored as TS and computed in T (half types: float); V from TS */
#define SSAM__STENCIL2D_BODY_AS(TS, T, SHAPE, XLO, XHI, YLO, YHI, P, B, GHM, src, dst, g, cf)               \
    do {                                                                                                    \
        enum {                                                                                              \
            V = SSAM_STENCIL_V(TS), NY = (YHI) - (YLO) + 1, R = (P) + NY - 1, QL = SSAM_STENCIL_QL(V, XLO), \
            QR = SSAM_STENCIL_QR(V, XHI), OFFAX = (0 SHAPE(SSAM__OFFAX2)),                                  \
            GH = (GHM) != 0 && SSAM__STENCIL_GH(V, XLO, XHI, OFFAX), STEP = GH ? 32 * V : SSAM_STENCIL_STEP(V, XLO, XHI), \
            LOFF = GH ? 0 : QL,                                                                             \
            GW = (XHI) > -(XLO) ? ((XHI) > 1 ? (XHI) : 1) : -(XLO) /* ghost columns (<= V with GH) */        \
        };                                                                                                  \
        extern __shared__ int ssam__rowtab[];                                                               \
        const int bmode = (g).periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;                            \
        const int Ys = blockIdx.y * (g).seg;                                                                \
        const int Ye = min(Ys + (g).seg, (g).ny);                                                           \
        for (int i = threadIdx.x; i < (g).seg + NY - 1 + (P); i += (B))                                     \
            ssam__rowtab[i] = ssam_border_index(Ys + (YLO) + i, (g).ny, bmode);                             \
        __syncthreads();                                                                                    \
        const int lane = threadIdx.x & 31;                                                                  \
        const int X0 = (blockIdx.x * ((B) / 32) + (threadIdx.x >> 5)) * STEP;                               \
        if (X0 >= (g).nx) return; /* whole warps only: the shuffles need every lane */                     \
        const int x = X0 + V * (lane - LOFF);                                                               \
        const int store = GH || (lane >= QL && lane < 32 - QR);                                             \
        const int glane = GH && ((lane == 0 && QR > 0) || (lane == 31 && QL > 0));                         \
        const int gx = lane == 0 ? X0 + 32 * V : X0 + (XLO);                                                \
        int cx[V], in, colin = 0, gcx[GW];                                                                   \
        T data[V][R], nxt[V][P], out[V], own[V], gdata[V][R], gnxt[V][R];                                    \
        /* half types prefetch raw (SSAM_REGCACHE_ROWS_RAW): converted where they enter the window */      \
        enum { RAW = sizeof(TS) < sizeof(T) };                                                              \
        uint4 nraw[RAW ? (P) : 1];                                                                          \
        unsigned graw[RAW ? GW : 1][RAW ? R : 1];                                                           \
        SSAM_REGCACHE_COLUMNS(V, cx, in, x, (g).nx, bmode, (g).vld);                                        \
        _Pragma("unroll") for (int j = 0; j < GW; j++) /* ghosts: scalar loads of the elements needed */    \
            gcx[j] = ssam_border_index(gx + j, (g).nx, bmode);                                              \
        _Pragma("unroll") for (int k = 0; k < V; k++) colin |=                                              \
            ((g).periodic || (x + k + (XLO) >= 0 && x + k + (XHI) < (g).nx)) << k;                          \
        if (NY > 1) SSAM_REGCACHE_ROWS_AS(TS, T, V, data, 0, NY - 1, src, (g).pitch, x, cx, in, ssam__rowtab, (T)0); \
        if (!RAW) {                                                                                         \
            SSAM_REGCACHE_ROWS_AS(TS, T, V, nxt, 0, P, src, (g).pitch, x, cx, in, ssam__rowtab + NY - 1, (T)0); \
            SSAM__STENCIL_GLOAD_AS(TS, T, GW, gnxt, 0, R, src, (g).pitch, gx, gcx, glane, ssam__rowtab);    \
        } else {                                                                                            \
            SSAM_REGCACHE_ROWS_RAW(TS, V, nraw, 0, P, src, (g).pitch, x, cx, in, ssam__rowtab + NY - 1, (T)0); \
            SSAM__STENCIL_GLOAD_RAW(TS, GW, graw, 0, R, src, (g).pitch, gcx, glane, ssam__rowtab);          \
        }                                                                                                   \
        _Pragma("unroll 1") for (int y0 = Ys; y0 < Ye; y0 += (P)) {                                         \
            if (!RAW) {                                                                                     \
                _Pragma("unroll") for (int r = 0; r < (P); r++)                                             \
                    _Pragma("unroll") for (int j = 0; j < V; j++) data[j][NY - 1 + r] = nxt[j][r];          \
                SSAM_REGCACHE_ROWS_AS(TS, T, V, nxt, 0, P, src, (g).pitch, x, cx, in,                       \
                                      ssam__rowtab + (y0 - Ys) + NY - 1 + (P), (T)0);                       \
                _Pragma("unroll") for (int j = 0; j < GW; j++)                                              \
                    _Pragma("unroll") for (int r = 0; r < R; r++) gdata[j][r] = gnxt[j][r];                 \
                SSAM__STENCIL_GLOAD_AS(TS, T, GW, gnxt, 0, R, src, (g).pitch, gx, gcx, glane,               \
                                       ssam__rowtab + (y0 - Ys) + (P));                                     \
            } else {                                                                                        \
                SSAM_REGCACHE_UNPACK(TS, T, V, data, NY - 1, nraw, 0, P);                                   \
                SSAM_REGCACHE_ROWS_RAW(TS, V, nraw, 0, P, src, (g).pitch, x, cx, in,                        \
                                       ssam__rowtab + (y0 - Ys) + NY - 1 + (P), (T)0);                      \
                _Pragma("unroll") for (int j = 0; j < GW; j++)                                              \
                    _Pragma("unroll") for (int r = 0; r < R; r++)                                           \
                        SSAM_REGCACHE_FROM_BITS(TS, T, graw[j][r], gdata[j][r]);                            \
                SSAM__STENCIL_GLOAD_RAW(TS, GW, graw, 0, R, src, (g).pitch, gcx, glane,                     \
                                        ssam__rowtab + (y0 - Ys) + (P));                                    \
            }                                                                                               \
            _Pragma("unroll") for (int p = 0; p < (P); p++) {                                               \
                SSAM__STENCIL2D_ROWG(T, V, SHAPE, XLO, XHI, YLO, out, data, gdata, p, cf, GH);              \
                const int y = y0 + p;                                                                       \
                if (y < Ye && store) {                                                                      \
                    const int rowin = (g).periodic || (y + (YLO) >= 0 && y + (YHI) < (g).ny);               \
                    _Pragma("unroll") for (int k = 0; k < V; k++) own[k] = data[k][p - (YLO)];              \
                    SSAM__STENCIL_STORE_AS(TS, V, (dst) + (long long)y * (g).pitch, x, (g).nx, out, own,    \
                                           colin, rowin, (g).vst);                                          \
                }                                                                                           \
            }                                                                                               \
            SSAM_REGCACHE_SLIDE(V, data, NY - 1, P);                                                        \
        }                                                                                                   \
    } while (0)

/* ---- the 3D kernel body ---------------------------------------------------------------------- */
/* per plane offset ssam__dz: the thermometer masks of its points' y extent */
#define SSAM__SL_MYLO(I, DX, DY, DZ) | ((DZ) == ssam__dz ? SSAM__THERM(-(DY)) : 0)
#define SSAM__SL_MYHI(I, DX, DY, DZ) | ((DZ) == ssam__dz ? SSAM__THERM(DY) : 0)
/* Pieces of SSAM__STENCIL3D_BODY (each expands where the body used to hold it; names as there). */
/* slot zi's window rows [slo[zi], shi[zi]] (constants after unrolling); slot NZ holds none */
#define SSAM__STENCIL3D_SLOTS(SHAPE, YLO, ZLO, P, NZ, R, TRIM, slo, shi)                                    \
    do {                                                                                                    \
        _Pragma("unroll") for (int zi = 0; zi < (NZ); zi++) { /* the window rows slot zi holds */          \
            const int ssam__dz = (ZLO) + zi;                                                                \
            (void)ssam__dz;                                                                                 \
            (slo)[zi] = (TRIM) ? -SSAM_THERM_COUNT(0 SHAPE(SSAM__SL_MYLO)) - (YLO) : 0;                     \
            (shi)[zi] = (TRIM) ? SSAM_THERM_COUNT(0 SHAPE(SSAM__SL_MYHI)) - (YLO) + (P)-1 : (R)-1;          \
        }                                                                                                   \
        (slo)[NZ] = (R); /* above the top slot: nothing */                                                  \
        (shi)[NZ] = -1;                                                                                     \
    } while (0)
/* the state after a move: slot zi holds the rows it shares with slot zi + 1; nxt the rest (planes
 * pl[pz .. pz+NZ-1] of the table), and the ghosts of those planes in gnxt */
#define SSAM__STENCIL3D_PRIME(T, V, GW, NZ, R, data, nxt, gnxt, src, g, pl, pz, rows, x, cx, in, gx, gcx, glane, slo, shi) \
    do {                                                                                                    \
        _Pragma("unroll") for (int zi = 0; zi < (NZ); zi++) {                                               \
            const T *const ssam__pl = (src) + (long long)(pl)[(pz) + zi] * (g).plane;                              \
            _Pragma("unroll") for (int r = 0; r < (R); r++) {                                               \
                if (r < (slo)[zi] || r > (shi)[zi]) continue;                                               \
                if (r >= (slo)[zi + 1] && r <= (shi)[zi + 1])                                               \
                    SSAM_REGCACHE_ROWS(T, V, data, zi * (R) + r, 1, ssam__pl, (g).pitch, x, cx, in, (rows) + r, (T)0); \
                else                                                                                        \
                    SSAM_REGCACHE_ROWS(T, V, nxt, zi * (R) + r, 1, ssam__pl, (g).pitch, x, cx, in, (rows) + r, (T)0); \
            }                                                                                               \
        }                                                                                                   \
        _Pragma("unroll") for (int zi = 0; zi < (NZ); zi++)                                                 \
            SSAM__STENCIL_GLOAD(T, GW, gnxt, zi * (R), R, (src) + (long long)(pl)[(pz) + zi] * (g).plane, (g).pitch, gx, gcx, \
                                glane, rows);                                                               \
    } while (0)
/* one output plane on: the prefetched pieces (nxt, gnxt) into the window, then the next plane's
 * pieces (planes pl[pz .. pz+NZ-1] of the table) prefetched */
#define SSAM__STENCIL3D_ADVANCE(T, V, GW, NZ, R, data, nxt, gdata, gnxt, src, g, pl, pz, rows, x, cx, in, gx, gcx, glane, slo, shi) \
    do {                                                                                                    \
        _Pragma("unroll") for (int zi = 0; zi < (NZ); zi++)                                                 \
            _Pragma("unroll") for (int r = 0; r < (R); r++)                                                 \
                if (r >= (slo)[zi] && r <= (shi)[zi] && !(r >= (slo)[zi + 1] && r <= (shi)[zi + 1]))        \
                    _Pragma("unroll") for (int j = 0; j < (V); j++) (data)[j][zi * (R) + r] = (nxt)[j][zi * (R) + r]; \
        _Pragma("unroll") for (int zi = 0; zi < (NZ); zi++) { /* the next plane's pieces */                 \
            const T *const ssam__pl = (src) + (long long)(pl)[(pz) + zi] * (g).plane;                              \
            _Pragma("unroll") for (int r = 0; r < (R); r++)                                                 \
                if (r >= (slo)[zi] && r <= (shi)[zi] && !(r >= (slo)[zi + 1] && r <= (shi)[zi + 1]))        \
                    SSAM_REGCACHE_ROWS(T, V, nxt, zi * (R) + r, 1, ssam__pl, (g).pitch, x, cx, in, (rows) + r, (T)0); \
        }                                                                                                   \
        _Pragma("unroll") for (int j = 0; j < (GW); j++)                                                    \
            _Pragma("unroll") for (int r = 0; r < (NZ) * (R); r++) (gdata)[j][r] = (gnxt)[j][r];           \
        _Pragma("unroll") for (int zi = 0; zi < (NZ); zi++)                                                 \
            SSAM__STENCIL_GLOAD(T, GW, gnxt, zi * (R), R, (src) + (long long)(pl)[(pz) + zi] * (g).plane,          \
                                (g).pitch, gx, gcx, glane, rows);                                           \
    } while (0)
/* move the window down one slot: slot zi takes slot zi + 1's shared rows */
#define SSAM__STENCIL3D_MOVE(V, NZ, R, data, slo, shi)                                                      \
    do {                                                                                                    \
        _Pragma("unroll") for (int zi = 0; zi < (NZ)-1; zi++)                                               \
            _Pragma("unroll") for (int r = 0; r < (R); r++)                                                 \
                if (r >= (slo)[zi] && r <= (shi)[zi] && r >= (slo)[zi + 1] && r <= (shi)[zi + 1])           \
                    _Pragma("unroll") for (int j = 0; j < (V); j++) (data)[j][zi * (R) + r] = (data)[j][(zi + 1) * (R) + r]; \
    } while (0)
/* A block is B/32 warps stacked in y, each owning P output rows of STEP columns; the block sweeps
 * the planes [Zs, Ze) of one segment.  Each warp keeps NZ planes in registers (win[V][NZ * R], plane
 * slot zi = plane offset ZLO + zi at rows zi * R + ...) and moves them down one slot per output
 * plane.  TRIM 0: every slot holds the P + NY - 1 rows of the window, and one new plane is loaded per
 * output plane (the next one prefetched).  TRIM 1: slot zi holds only the rows its own points read
 * ([slo, shi]: for a star's planes dz != 0 the P output rows); a plane is loaded in pieces as it
 * moves down (the rows slot zi needs and slot zi + 1 lacked, prefetched one plane ahead in nxt), so
 * the same rows are read per plane and a star keeps about (NZ - 1)(NY - 1) rows fewer in registers.
 * GHM: 0 overlap lanes, 1 ghost lanes where the shape allows them. */
#define SSAM__STENCIL3D_BODY(T, SHAPE, XLO, XHI, YLO, YHI, ZLO, ZHI, P, B, GHM, TRIM, src, dst, g, cf)   \
    do {                                                                                                    \
        enum {                                                                                              \
            V = SSAM_STENCIL_V(T), NY = (YHI) - (YLO) + 1, NZ = (ZHI) - (ZLO) + 1, R = (P) + NY - 1,       \
            QL = SSAM_STENCIL_QL(V, XLO), QR = SSAM_STENCIL_QR(V, XHI), OFFAX = (0 SHAPE(SSAM__OFFAX3)),    \
            GH = (GHM) != 0 && SSAM__STENCIL_GH(V, XLO, XHI, OFFAX), STEP = GH ? 32 * V : SSAM_STENCIL_STEP(V, XLO, XHI), \
            LOFF = GH ? 0 : QL, WY = (B) / 32,                                                              \
            GW = (XHI) > -(XLO) ? ((XHI) > 1 ? (XHI) : 1) : -(XLO) /* ghost columns (<= V with GH) */        \
        };                                                                                                  \
        extern __shared__ int ssam__tab3[];                                                                 \
        int *const rowt = ssam__tab3, *const plt = ssam__tab3 + WY * (P) + NY - 1;                         \
        const int bmode = (g).periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;                            \
        const int Yb = blockIdx.y * (WY * (P));                                                             \
        const int Zs = blockIdx.z * (g).seg;                                                                \
        const int Ze = min(Zs + (g).seg, (g).nz);                                                           \
        for (int i = threadIdx.x; i < WY * (P) + NY - 1; i += (B))                                          \
            rowt[i] = ssam_border_index(Yb + (YLO) + i, (g).ny, bmode);                                     \
        for (int i = threadIdx.x; i < (g).seg + NZ; i += (B))                                               \
            plt[i] = ssam_border_index(Zs + (ZLO) + i, (g).nz, bmode);                                      \
        __syncthreads();                                                                                    \
        const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;                                          \
        const int yw = Yb + wid * (P);                                                                      \
        if (yw >= (g).ny) return; /* whole warps only */                                                    \
        const int X0 = blockIdx.x * STEP;                                                                   \
        const int x = X0 + V * (lane - LOFF);                                                               \
        const int store = GH || (lane >= QL && lane < 32 - QR);                                             \
        const int glane = GH && ((lane == 0 && QR > 0) || (lane == 31 && QL > 0));                         \
        const int gx = lane == 0 ? X0 + 32 * V : X0 + (XLO);                                                \
        const int *const rows = rowt + wid * (P);                                                           \
        int cx[V], in, colin = 0, gcx[GW], slo[NZ + 1], shi[NZ + 1];                                        \
        T data[V][NZ * R], nxt[V][NZ * R], out[V], own[V], gdata[V][NZ * R], gnxt[V][NZ * R];              \
        SSAM__STENCIL3D_SLOTS(SHAPE, YLO, ZLO, P, NZ, R, TRIM, slo, shi);                                   \
        SSAM_REGCACHE_COLUMNS(V, cx, in, x, (g).nx, bmode, (g).vld);                                        \
        _Pragma("unroll") for (int j = 0; j < GW; j++) /* ghosts: scalar loads of the elements needed */    \
            gcx[j] = ssam_border_index(gx + j, (g).nx, bmode);                                              \
        _Pragma("unroll") for (int k = 0; k < V; k++) colin |=                                              \
            ((g).periodic || (x + k + (XLO) >= 0 && x + k + (XHI) < (g).nx)) << k;                          \
        SSAM__STENCIL3D_PRIME(T, V, GW, NZ, R, data, nxt, gnxt, src, g, plt, 0, rows, x, cx, in, gx, gcx, glane, slo, shi); \
        _Pragma("unroll 1") for (int z = Zs; z < Ze; z++) {                                                 \
            SSAM__STENCIL3D_ADVANCE(T, V, GW, NZ, R, data, nxt, gdata, gnxt, src, g, plt, z - Zs + 1, rows, x, cx, in, \
                                    gx, gcx, glane, slo, shi);                                              \
            const int zin = (g).periodic || (z + (ZLO) >= 0 && z + (ZHI) < (g).nz);                         \
            _Pragma("unroll") for (int p = 0; p < (P); p++) {                                               \
                SSAM__STENCIL3D_ROWG(T, V, SHAPE, XLO, XHI, YLO, ZLO, R, out, data, gdata, p, cf, GH);      \
                const int y = yw + p;                                                                       \
                if (y < (g).ny && store) {                                                                  \
                    const int rowin = zin && ((g).periodic || (y + (YLO) >= 0 && y + (YHI) < (g).ny));      \
                    _Pragma("unroll") for (int k = 0; k < V; k++) own[k] = data[k][(-(ZLO)) * R + p - (YLO)]; \
                    SSAM__STENCIL_STORE(T, V, (dst) + (long long)z * (g).plane + (long long)y * (g).pitch, x, \
                                        (g).nx, out, own, colin, rowin, (g).vst);                           \
                }                                                                                           \
            }                                                                                               \
            SSAM__STENCIL3D_MOVE(V, NZ, R, data, slo, shi); /* move down one slot */                       \
        }                                                                                                   \
    } while (0)

/* ---- the 3D slice kernel body (section 4.9) -------------------------------------------------- */
/* The point callbacks of one plane offset ssam__dz (a constant after unrolling): only the points
 * with DZ == ssam__dz, read from a one-plane window win[V][R]. */
#define SSAM__SL_PT(I, DX, DY, DZ)                                                                           \
    if ((DZ) == ssam__dz && SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                  \
        ssam__acc = fma(ssam__win[(ssam__k + (DX)) & (ssam__V - 1)][ssam__p + (DY)-ssam__ylo], ssam__cf[I], ssam__acc);
#define SSAM__SL_GPT(I, DX, DY, DZ)                                                                          \
    if ((DZ) == ssam__dz && SSAM__FDIV(ssam__k + (DX), ssam__V) == ssam__d)                                  \
        ssam__acc = fma(ssam__win[(ssam__k + (DX) - (ssam__d < 0 ? ssam__gxlo : 0)) & (ssam__V - 1)]         \
                                 [ssam__p + (DY)-ssam__ylo], ssam__cf[I], ssam__acc);
/* per plane offset ssam__dz: does the plane hold points, and the thermometer masks of its x extent */
#define SSAM__SL_HAS(I, DX, DY, DZ) || (DZ) == ssam__dz
#define SSAM__SL_MXLO(I, DX, DY, DZ) | ((DZ) == ssam__dz ? SSAM__THERM(-(DX)) : 0)
#define SSAM__SL_MXHI(I, DX, DY, DZ) | ((DZ) == ssam__dz ? SSAM__THERM(DX) : 0)

/* the in-plane partial sum of plane offset dz for output row p, from the one-plane window win[V][R]
 * (and the ghost window gwin with GH): the lane schedule restricted to that plane's points, with
 * that plane's own x extent (a star's off-centre planes cost one FMA and no shuffle) */
#define SSAM__STENCIL3S_ROW(T, V, SHAPE, XLO, XHI, YLO, dz, out, win, gwin, p, coef, GH)                    \
    do {                                                                                                    \
        enum { ssam__V = (V), ssam__ylo = (YLO) };                                                          \
        const int ssam__dz = (dz);                                                                          \
        const int ssam__mlo = (0 SHAPE(SSAM__SL_MXLO)), ssam__mhi = (0 SHAPE(SSAM__SL_MXHI));               \
        const int ssam__lxlo = -SSAM_THERM_COUNT(ssam__mlo), ssam__lxhi = SSAM_THERM_COUNT(ssam__mhi);       \
        const T(*const ssam__win)[sizeof((win)[0]) / sizeof((win)[0][0])] = (win);                         \
        const T *const ssam__cf = (coef);                                                                   \
        const int ssam__p = (p);                                                                            \
        SSAM__STENCIL_LANES(T, V, XLO, XHI, ssam__lxlo, ssam__lxhi, SHAPE, SSAM__SL_PT, SSAM__SL_GPT, out, GH, \
                            gwin, 0, SSAM__CMB_ADD)                                                         \
    } while (0)

/* A block of NW = B/32 warps owns one tile of STEP columns x P rows and sweeps the planes
 * [Zs, Ze) of one segment, NW input planes at a time: warp w loads input plane Zs + ZLO + it + w
 * (one plane of P + NY - 1 rows in registers, the next one prefetched) and computes, for every
 * plane offset dz, the in-plane partial sum of the output plane zi - dz systolically (lane
 * shifts).  The partials of dz < ZHI go to a ring of NS = NW + NZ - 1 plane slots in shared
 * memory; after a barrier the warp sums, for the output plane zo = zi - ZHI, its own dz = ZHI
 * partial (registers) and the NZ - 1 partials its predecessors (the warps or iterations of the
 * planes zo + ZLO .. zo + ZHI - 1) left in the ring, and stores.  A second barrier guards the
 * ring before the next planes are written. */
#define SSAM__STENCIL3S_NPART(NZ, NW, P) ((NZ) > 1 ? ((NW) + (NZ)-1) * ((NZ)-1) * (P)*32 : 0)
#define SSAM__STENCIL3S_SMEM(T, NY, NZ, NW, P)                                                                \
    ((size_t)SSAM__STENCIL3S_NPART(NZ, NW, P) * 16 + (size_t)((P) + (NY)-1) * sizeof(int))
/* Pieces of SSAM__STENCIL3S_BODY (each expands where the body used to hold it; names as there). */
/* this warp's partial sums of its input plane for the P rows: plane offsets ZLO .. ZHI-1 into the
 * shared ring (slot), the last one (dz = ZHI) kept in registers (last[P][V]); VT the vector type */
#define SSAM__STENCIL3S_PARTIALS(T, V, SHAPE, XLO, XHI, YLO, ZLO, NZ, P, GH, VT, out, data, gdata, cf, slot, last) \
    do {                                                                                                    \
        _Pragma("unroll") for (int p = 0; p < (P); p++) {                                                   \
            _Pragma("unroll") for (int j = 0; j < (NZ); j++) {                                              \
                const int ssam__dz = (ZLO) + j;                                                             \
                if (0 SHAPE(SSAM__SL_HAS)) {                                                                \
                    SSAM__STENCIL3S_ROW(T, V, SHAPE, XLO, XHI, YLO, (ZLO) + j, out, data, gdata, p, cf, GH); \
                    if (j < (NZ)-1) {                                                                       \
                        VT ssam__q;                                                                         \
                        _Pragma("unroll") for (int k = 0; k < (V); k++) ssam__q.v[k] = (out)[k];            \
                        (slot)[(j * (P) + p) * 32] = ssam__q;                                               \
                    } else                                                                                  \
                        _Pragma("unroll") for (int k = 0; k < (V); k++) (last)[p][k] = (out)[k];            \
                } else if (j == (NZ)-1)                                                                     \
                    _Pragma("unroll") for (int k = 0; k < (V); k++) (last)[p][k] = (T)0;                    \
            }                                                                                               \
        }                                                                                                   \
    } while (0)
/* the output plane zo = Zs + rel - (NZ - 1): this warp's last[] plus its predecessors' partials from
 * the ring, stored (Dirichlet cells keep their value) */
#define SSAM__STENCIL3S_FINISH(T, V, SHAPE, YLO, YHI, ZLO, ZHI, NZ, NS, SLOT, FULL, P, VT, src, dst, g, part, last, \
                               out, own, Zs, Yb, rel, lane, x, store, colin)                                \
    do {                                                                                                    \
        const int zo = (Zs) + (rel) - ((NZ)-1);                                                             \
        const int zin = (g).periodic || (zo + (ZLO) >= 0 && zo + (ZHI) < (g).nz);                           \
        _Pragma("unroll") for (int p = 0; p < (P); p++) {                                                   \
            const int y = (Yb) + p;                                                                         \
            if (y < (g).ny && (store)) {                                                                    \
                const int rowin = zin && ((g).periodic || (y + (YLO) >= 0 && y + (YHI) < (g).ny));          \
                T *const drow = (dst) + (long long)zo * (g).plane + (long long)y * (g).pitch;               \
                _Pragma("unroll") for (int k = 0; k < (V); k++)(out)[k] = (last)[p][k];                     \
                _Pragma("unroll") for (int j = 0; j < (NZ)-1; j++) {                                        \
                    const int ssam__dz = (ZLO) + j;                                                         \
                    if (0 SHAPE(SSAM__SL_HAS)) {                                                            \
                        const VT ssam__q = (part)[(((rel) - ((NZ)-1) + j) % (NS)) * (SLOT) + (j * (P) + p) * 32 + (lane)]; \
                        _Pragma("unroll") for (int k = 0; k < (V); k++)(out)[k] += ssam__q.v[k];            \
                    }                                                                                       \
                }                                                                                           \
                _Pragma("unroll") for (int k = 0; k < (V); k++)(own)[k] = (out)[k];                         \
                if (!rowin || (colin) != (FULL)) { /* Dirichlet cells keep their value: read it */          \
                    const T *const srow = (src) + (long long)zo * (g).plane + (long long)y * (g).pitch;     \
                    _Pragma("unroll") for (int k = 0; k < (V); k++) if ((x) + k < (g).nx)(own)[k] = srow[(x) + k]; \
                }                                                                                           \
                SSAM__STENCIL_STORE(T, V, drow, x, (g).nx, out, own, colin, rowin, (g).vst);                \
            }                                                                                               \
        }                                                                                                   \
    } while (0)
#define SSAM__STENCIL3S_BODY(T, SHAPE, XLO, XHI, YLO, YHI, ZLO, ZHI, P, B, GHM, TRIM, src, dst, g, cf)   \
    do {                                                                                                    \
        enum {                                                                                              \
            V = SSAM_STENCIL_V(T), NY = (YHI) - (YLO) + 1, NZ = (ZHI) - (ZLO) + 1, R = (P) + NY - 1,       \
            QL = SSAM_STENCIL_QL(V, XLO), QR = SSAM_STENCIL_QR(V, XHI), OFFAX = (0 SHAPE(SSAM__OFFAX3)),    \
            GH = SSAM__STENCIL_GH(V, XLO, XHI, OFFAX), STEP = SSAM__STENCIL_WSTEP(V, XLO, XHI, OFFAX),      \
            LOFF = GH ? 0 : QL, NW = (B) / 32, NS = NW + NZ - 1, SLOT = (NZ > 1 ? NZ - 1 : 1) * (P)*32,     \
            FULL = (1 << V) - 1,                                                                            \
            GW = (XHI) > -(XLO) ? ((XHI) > 1 ? (XHI) : 1) : -(XLO) /* ghost columns (<= V with GH) */        \
        };                                                                                                  \
        typedef SSAM__VEC(T, V) ssam__vec_t;                                                                \
        extern __shared__ int4 ssam__slsm[];                                                                \
        ssam__vec_t *const part = (ssam__vec_t *)ssam__slsm;                                                \
        int *const rowt = (int *)(ssam__slsm + SSAM__STENCIL3S_NPART(NZ, NW, P));                          \
        const int bmode = (g).periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;                            \
        const int X0 = blockIdx.x * STEP, Yb = blockIdx.y * (P);                                            \
        if (X0 >= (g).nx) return; /* the whole block */                                                     \
        const int Zs = blockIdx.z * (g).seg;                                                                \
        const int Ze = min(Zs + (g).seg, (g).nz);                                                           \
        for (int i = threadIdx.x; i < R; i += (B)) rowt[i] = ssam_border_index(Yb + (YLO) + i, (g).ny, bmode); \
        __syncthreads();                                                                                    \
        const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;                                          \
        const int x = X0 + V * (lane - LOFF);                                                               \
        const int store = GH || (lane >= QL && lane < 32 - QR);                                             \
        const int glane = GH && ((lane == 0 && QR > 0) || (lane == 31 && QL > 0));                         \
        const int gx = lane == 0 ? X0 + 32 * V : X0 + (XLO);                                                 \
        const int nin = Ze - Zs + NZ - 1; /* input planes of the segment */                                 \
        int cx[V], in, colin = 0, gcx[GW];                                                                   \
        T data[V][R], nxt[V][R], gdata[V][R], gnxt[V][R], out[V], own[V], last[P][V];                      \
        SSAM_REGCACHE_COLUMNS(V, cx, in, x, (g).nx, bmode, (g).vld);                                        \
        _Pragma("unroll") for (int j = 0; j < GW; j++) gcx[j] = ssam_border_index(gx + j, (g).nx, bmode);  \
        _Pragma("unroll") for (int k = 0; k < V; k++) colin |=                                              \
            ((g).periodic || (x + k + (XLO) >= 0 && x + k + (XHI) < (g).nx)) << k;                          \
        if (wid < nin) {                                                                                    \
            const T *const ssam__pl = (src) + (long long)ssam_border_index(Zs + (ZLO) + wid, (g).nz, bmode) * (g).plane; \
            SSAM_REGCACHE_ROWS(T, V, nxt, 0, R, ssam__pl, (g).pitch, x, cx, in, rowt, (T)0);                \
            SSAM__STENCIL_GLOAD(T, GW, gnxt, 0, R, ssam__pl, (g).pitch, gx, gcx, glane, rowt);              \
        }                                                                                                   \
        _Pragma("unroll 1") for (int it = 0; it < nin; it += NW) {                                          \
            const int rel = it + wid; /* this warp's input plane, Zs + ZLO + rel */                         \
            { /* no branch around the shuffles: past the last plane the warp computes unused sums */       \
                _Pragma("unroll") for (int r = 0; r < R; r++)                                               \
                    _Pragma("unroll") for (int j = 0; j < V; j++) data[j][r] = nxt[j][r];                   \
                _Pragma("unroll") for (int r = 0; r < R; r++)                                               \
                    _Pragma("unroll") for (int j = 0; j < GW; j++) gdata[j][r] = gnxt[j][r];                \
                if (rel + NW < nin) {                                                                       \
                    const T *const ssam__pl =                                                               \
                        (src) + (long long)ssam_border_index(Zs + (ZLO) + rel + NW, (g).nz, bmode) * (g).plane; \
                    SSAM_REGCACHE_ROWS(T, V, nxt, 0, R, ssam__pl, (g).pitch, x, cx, in, rowt, (T)0);        \
                    SSAM__STENCIL_GLOAD(T, GW, gnxt, 0, R, ssam__pl, (g).pitch, gx, gcx, glane, rowt);      \
                }                                                                                           \
                ssam__vec_t *const slot = part + (rel % NS) * SLOT + lane;                                  \
                SSAM__STENCIL3S_PARTIALS(T, V, SHAPE, XLO, XHI, YLO, ZLO, NZ, P, GH, ssam__vec_t, out, data, gdata, cf, \
                                         slot, last);                                                       \
            }                                                                                               \
            if (NZ > 1) __syncthreads();                                                                    \
            if (rel < nin && rel >= NZ - 1) /* output plane Zs + rel - (NZ - 1) */                          \
                SSAM__STENCIL3S_FINISH(T, V, SHAPE, YLO, YHI, ZLO, ZHI, NZ, NS, SLOT, FULL, P, ssam__vec_t, src, dst, g, \
                                       part, last, out, own, Zs, Yb, rel, lane, x, store, colin);           \
            if (NZ > 1) __syncthreads();                                                                    \
        }                                                                                                   \
    } while (0)

/* compile-time check that every coefficient index I lies in [0, NPTS) (inside a function) */
#define SSAM__IBAD2(I, DX, DY) || (I) < 0 || (I) >= ssam__npts
#define SSAM__IBAD3(I, DX, DY, DZ) || (I) < 0 || (I) >= ssam__npts

/* ---- the generators -------------------------------------------------------------------------- */
/* The definitions' layout and grid choices (internal; docs/ssam.md has the timings behind them):
 *   SSAM__STENCIL_GHM_DEFAULT(T, XLO, XHI)  1: ghost lanes where the shape allows them, 0: overlap
 *       lanes.  Ghosts while W = max(XHI, -XLO) <= 3: lanes 0 and 31 issue W scalar loads per row
 *       and side, and at W = 4 (2d17pt fp32) the overlap layout was 14% faster (406 vs 357
 *       GCells/s), at W = 3 (2d13pt fp32) ghosts 4% (438 vs 421), at W = 2 fp64 12% (238 vs 213);
 *       one 16-byte ghost load instead of W scalars was tried and lost (more registers: 2d9pt fp32
 *       451 -> 320, 3d7pt fp32 452 -> 423)
 *   SSAM__STENCIL2D_GRID_DEFAULT(GH)  2D grid rule (GH 1: ghost lanes): 0 or n >= 2 about 2 or n full
 *       waves of resident blocks, 1 about 48 warps per SM (the first rule).  4 waves: shorter row
 *       segments, the same for both layouts (2d9pt-box fp32 397 -> 425 GCells/s, 2d25pt 404 -> 412,
 *       2d21pt 371 -> 377, 2d5pt 443 -> 444 against 2 waves; 3 waves in between)
 *   SSAM__STENCIL3D_TRIM_DEFAULT  3D streaming: 1 each plane slot keeps only the rows its points
 *       read (3d13pt fp32 347 -> 376 GCells/s, fp64 128 -> 163; boxes and poisson: the same code) */
#define SSAM__STENCIL_GHM_DEFAULT(T, XLO, XHI) (((XHI) > -(XLO) ? (XHI) : -(XLO)) <= 3)
#define SSAM__STENCIL2D_GRID_DEFAULT(GH) 4
#define SSAM__STENCIL3D_TRIM_DEFAULT 1

#define SSAM_STENCIL2D_DEFINE(name, T, SHAPE, P, B) SSAM_STENCIL2D_DEFINE_OCC(name, T, SHAPE, P, B, 1)
#define SSAM_STENCIL2D_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                               \
    SSAM__STENCIL2D_DEFINE_X(name, T, SHAPE, P, B, MINB, SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), -1)

/* the 2D definitions' common part: extents, the coefficient struct, the offsets check, name_ncoef
 * (ssam/temporal.cuh's generator shares it) */
#define SSAM__STENCIL2D_COMMON(name, T, SHAPE)                                                              \
    enum {                                                                                                  \
        name##__MXLO = SSAM_SHAPE_MXLO(SHAPE), name##__MXHI = SSAM_SHAPE_MXHI(SHAPE),                       \
        name##__MYLO = SSAM_SHAPE_MYLO(SHAPE), name##__MYHI = SSAM_SHAPE_MYHI(SHAPE)                        \
    };                                                                                                      \
    enum {                                                                                                  \
        name##_NPTS = SSAM_SHAPE2D_NPTS(SHAPE),                                                             \
        name##_XLO = -SSAM_THERM_COUNT(name##__MXLO),                                                       \
        name##_XHI = SSAM_THERM_COUNT(name##__MXHI),                                                        \
        name##_YLO = -SSAM_THERM_COUNT(name##__MYLO),                                                       \
        name##_YHI = SSAM_THERM_COUNT(name##__MYHI)                                                         \
    };                                                                                                      \
    typedef struct name##_coef {                                                                            \
        T c[name##_NPTS];                                                                                   \
    } name##_coef;                                                                                          \
    typedef char name##__offsets_within_rmax[SSAM_SHAPE2D_TOO_FAR(SHAPE) ? -1 : 1];                         \
    static inline __attribute__((unused)) int name##_ncoef(void)                                            \
    {                                                                                                       \
        static const int idx[] = {SHAPE(SSAM_SHAPE2D_INDEX)};                                               \
        return ssam__stencil_ncoef(idx, name##_NPTS);                                                       \
    }
/* GHM the ghost mode (above), GRID the 2D grid rule (-1: SSAM__STENCIL2D_GRID_DEFAULT of the layout) */
#define SSAM__STENCIL2D_DEFINE_X(name, T, SHAPE, P, B, MINB, GHM, GRID)                                     \
    SSAM__STENCIL2D_DEFINE_XS(name, T, T, SHAPE, P, B, MINB, GHM, GRID)
/* the same with the state stored as TS and computed in T (TS = T, or a half type with T float) */
#define SSAM__STENCIL2D_DEFINE_XS(name, TS, T, SHAPE, P, B, MINB, GHM, GRID)                                \
    SSAM__STENCIL2D_COMMON(name, T, SHAPE)                                                                  \
    typedef char name##__window_fits_registers[(SSAM_STENCIL_V(TS) * (int)(sizeof(T) / 4) * (2 * (P) + name##_YHI - name##_YLO) <= 192) ? 1 : -1]; \
    typedef char name##__block_is_whole_warps[((B) % 32 == 0 && (B) > 0 && (B) <= 1024 && (P) >= 1) ? 1 : -1]; \
    __global__ void __launch_bounds__(B, MINB)                                                              \
        name##_kernel(const TS *__restrict__ src, TS *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                       \
        enum { ssam__npts = name##_NPTS };                                                                  \
        (void)sizeof(char[(0 SHAPE(SSAM__IBAD2)) ? -1 : 1]); /* every I in [0, NPTS) */                     \
        SSAM__STENCIL2D_BODY_AS(TS, T, SHAPE, name##_XLO, name##_XHI, name##_YLO, name##_YHI, P, B, GHM, src, dst, g, cf.c); \
    }                                                                                                       \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, cudaStream_t stream) \
    {                                                                                                       \
        ssam_stencil_geom g;                                                                                \
        name##_coef cf;                                                                                     \
        dim3 grid;                                                                                          \
        enum {                                                                                              \
            V_ = SSAM_STENCIL_V(TS),                                                                        \
            STEP_ = SSAM__STENCIL_WSTEPM(V_, name##_XLO, name##_XHI, (0 SHAPE(SSAM__OFFAX2)), GHM),        \
            GRID_ = (GRID) >= 0 ? (GRID) : SSAM__STENCIL2D_GRID_DEFAULT(STEP_ == 32 * V_)                  \
        };                                                                                                  \
        static int occ[2] = {0, 0};                                                                         \
        int rc = ssam__stencil_prepare(a, 2, name##_ncoef(), sizeof(TS), V_, STEP_, B, P, 0, 1, &g, &grid, \
                                       (const void *)name##_kernel, occ, 0, GRID_, -1);                     \
        if (rc) return rc;                                                                                  \
        SSAM__STENCIL_COEF(T, name##_NPTS, cf, a);                                                          \
        name##_kernel<<<grid, B, (size_t)(g.seg + name##_YHI - name##_YLO + (P)) * sizeof(int), stream>>>( \
            (const TS *)a->src, (TS *)a->dst, g, cf);                                                       \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                            \
    }                                                                                                       \
    SSAM__STENCIL_ADVANCE(name)

/* Half-precision storage (FP16 __half, BF16 __nv_bfloat16): the state in and out is 2 bytes a
 * cell, loaded 8 to a lane (16 bytes) and computed in float (every point an fma in float, one
 * rounding to the storage type at the store); the coefficients are a FLOAT host array.  A
 * memory-bound stencil moves half the bytes of float.  Dirichlet cells keep their stored value
 * exactly. */
#define SSAM_STENCIL2D_DEFINE_HALF(name, SHAPE, P, B)                                                      \
    SSAM__STENCIL2D_DEFINE_XS(name, __half, float, SHAPE, P, B, 1,                                          \
                              SSAM__STENCIL_GHM_DEFAULT(float, name##_XLO, name##_XHI), -1)
#define SSAM_STENCIL2D_DEFINE_BF16(name, SHAPE, P, B)                                                      \
    SSAM__STENCIL2D_DEFINE_XS(name, __nv_bfloat16, float, SHAPE, P, B, 1,                                   \
                              SSAM__STENCIL_GHM_DEFAULT(float, name##_XLO, name##_XHI), -1)

/* N steps with ping-pong: step 1 reads src and writes dst, step 2 the reverse, ...; *result is
 * the buffer holding the state after `steps` (src when steps is 0 or even). */
#define SSAM__STENCIL_ADVANCE(name)                                                                         \
    static inline __attribute__((unused)) int name##_advance(const ssam_stencil_args *a, int steps,        \
                                                             void **result, cudaStream_t stream)            \
    {                                                                                                       \
        ssam_stencil_args b;                                                                                \
        int rc;                                                                                             \
        if (!a || !result || !a->src || !a->dst || !a->coef) return SSAM_ENULL;                             \
        if (steps < 0) return SSAM_ESIZE;                                                                   \
        b = *a;                                                                                             \
        for (int s = 0; s < steps; s++) {                                                                   \
            rc = name##_launch(&b, stream);                                                                 \
            if (rc) return rc;                                                                              \
            b.src = b.dst;                                                                                  \
            b.dst = (void *)(s % 2 == 0 ? a->src : a->dst);                                                 \
        }                                                                                                   \
        *result = (void *)b.src;                                                                            \
        return SSAM_SUCCESS;                                                                                \
    }

/* the definitions' common part: extents, the coefficient struct, checks, name_ncoef */
#define SSAM__STENCIL3D_COMMON(name, T, SHAPE, P, B)                                                        \
    enum {                                                                                                  \
        name##__MXLO = SSAM_SHAPE_MXLO(SHAPE), name##__MXHI = SSAM_SHAPE_MXHI(SHAPE),                       \
        name##__MYLO = SSAM_SHAPE_MYLO(SHAPE), name##__MYHI = SSAM_SHAPE_MYHI(SHAPE),                       \
        name##__MZLO = SSAM_SHAPE_MZLO(SHAPE), name##__MZHI = SSAM_SHAPE_MZHI(SHAPE)                        \
    };                                                                                                      \
    enum {                                                                                                  \
        name##_NPTS = SSAM_SHAPE3D_NPTS(SHAPE),                                                             \
        name##_XLO = -SSAM_THERM_COUNT(name##__MXLO),                                                       \
        name##_XHI = SSAM_THERM_COUNT(name##__MXHI),                                                        \
        name##_YLO = -SSAM_THERM_COUNT(name##__MYLO),                                                       \
        name##_YHI = SSAM_THERM_COUNT(name##__MYHI),                                                        \
        name##_ZLO = -SSAM_THERM_COUNT(name##__MZLO),                                                       \
        name##_ZHI = SSAM_THERM_COUNT(name##__MZHI)                                                         \
    };                                                                                                      \
    typedef struct name##_coef {                                                                            \
        T c[name##_NPTS];                                                                                   \
    } name##_coef;                                                                                          \
    typedef char name##__offsets_within_rmax[SSAM_SHAPE3D_TOO_FAR(SHAPE) ? -1 : 1];                         \
    typedef char name##__block_is_whole_warps[((B) % 32 == 0 && (B) > 0 && (B) <= 1024 && (P) >= 1) ? 1 : -1]; \
    static inline __attribute__((unused)) int name##_ncoef(void)                                            \
    {                                                                                                       \
        static const int idx[] = {SHAPE(SSAM_SHAPE3D_INDEX)};                                               \
        return ssam__stencil_ncoef(idx, name##_NPTS);                                                       \
    }

/* registers of the streaming window, in 32-bit words; the slice variant's shared memory */
#define SSAM__STENCIL3D_WREGS(name, T, P)                                                                   \
    (SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) * (name##_ZHI - name##_ZLO + 2) * ((P) + name##_YHI - name##_YLO))
#define SSAM__STENCIL3D_SLREGS(name, T, P) (SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) * 2 * ((P) + name##_YHI - name##_YLO))
#define SSAM__STENCIL3D_SLSMEM(name, T, P, B)                                                               \
    SSAM__STENCIL3S_SMEM(T, name##_YHI - name##_YLO + 1, name##_ZHI - name##_ZLO + 1, (B) / 32, P)

/* The default variant (SSAM_STENCIL3D_DEFINE): 1 = slice, 0 = streaming.  Slice for double
 * precision when the stencil spans 5 or more planes (NZ >= 5: z radius 2 and up) and fills more than
 * half of its NX x NY x NZ box (a dense shape: every plane reads every row, so the streaming window
 * cannot be trimmed), streaming otherwise.  Measured at 512^3 on the H200 (docs/ssam.md,
 * 2026-11-21), best configuration of each: fp64 3d125pt slice 62.8 GCells/s vs streaming 51.8;
 * fp64 3d13pt (a star: its planes dz != 0 keep one row per output row) trimmed streaming 163 vs
 * slice 135; streaming leads by 20-40% for every NZ = 3 shape in both types (3d7pt, 3d27pt,
 * poisson) and for fp32 3d13pt (376 vs 265) and 3d125pt (84.9 vs 78.6). */
#define SSAM_STENCIL3D_SLICE_RULE(T, NPTS, NX, NY, NZ) (sizeof(T) == 8 && (NZ) >= 5 && 2 * (NPTS) > (NX) * (NY) * (NZ))

#define SSAM__STENCIL3D_KERNEL(name, T, SHAPE, P, B, MINB, BODY, GHM, TRIM)                                \
    __global__ void __launch_bounds__(B, MINB)                                                              \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf)  \
    {                                                                                                       \
        enum { ssam__npts = name##_NPTS };                                                                  \
        (void)sizeof(char[(0 SHAPE(SSAM__IBAD3)) ? -1 : 1]); /* every I in [0, NPTS) */                     \
        BODY(T, SHAPE, name##_XLO, name##_XHI, name##_YLO, name##_YHI, name##_ZLO, name##_ZHI, P, B, GHM, TRIM, \
             src, dst, g, cf.c);                                                                            \
    }
/* the body of the kernel of SSAM_STENCIL3D_DEFINE: the variant the rule picks (the other one is
 * dead code, removed by the compiler) */
#define SSAM__STENCIL3D_AUTO_BODY(T, SHAPE, XLO, XHI, YLO, YHI, ZLO, ZHI, P, B, GHM, TRIM, src, dst, g, cf) \
    do {                                                                                                    \
        if (SSAM_STENCIL3D_SLICE_RULE(T, SSAM_SHAPE3D_NPTS(SHAPE), (XHI) - (XLO) + 1, (YHI) - (YLO) + 1,   \
                                      (ZHI) - (ZLO) + 1))                                                   \
            SSAM__STENCIL3S_BODY(T, SHAPE, XLO, XHI, YLO, YHI, ZLO, ZHI, P, B, 1, 0, src, dst, g, cf);      \
        else                                                                                                \
            SSAM__STENCIL3D_BODY(T, SHAPE, XLO, XHI, YLO, YHI, ZLO, ZHI, P, B, GHM, TRIM, src, dst, g, cf); \
    } while (0)

/* name_launch and name_advance (SL 1: the slice kernel's grid and shared memory) */
#define SSAM__STENCIL3D_LAUNCH(name, T, SHAPE, P, B, SL, GHM)                                               \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, cudaStream_t stream) \
    {                                                                                                       \
        ssam_stencil_geom g;                                                                                \
        name##_coef cf;                                                                                     \
        dim3 grid;                                                                                          \
        enum {                                                                                              \
            V_ = SSAM_STENCIL_V(T), STEP_ = SSAM__STENCIL_WSTEPM(V_, name##_XLO, name##_XHI, (0 SHAPE(SSAM__OFFAX3)), (SL) ? 1 : (GHM)), \
            NY_ = name##_YHI - name##_YLO + 1, NZ_ = name##_ZHI - name##_ZLO + 1, WYP_ = (SL) ? (P) : (B) / 32 * (P) \
        };                                                                                                  \
        static int occ[2] = {0, 0};                                                                         \
        const size_t smem_ = (SL) ? SSAM__STENCIL3D_SLSMEM(name, T, P, B) : 0;                              \
        int rc = ssam__stencil_prepare(a, 3, name##_ncoef(), sizeof(T), V_, STEP_, B, P, WYP_, NZ_, &g, &grid, \
                                       (const void *)name##_kernel, occ, smem_, 0, -1);                     \
        if (rc) return rc;                                                                                  \
        SSAM__STENCIL_COEF(T, name##_NPTS, cf, a);                                                          \
        name##_kernel<<<grid, B, (SL) ? smem_ : (size_t)(WYP_ + NY_ - 1 + g.seg + NZ_) * sizeof(int), stream>>>( \
            (const T *)a->src, (T *)a->dst, g, cf);                                                         \
        return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;                            \
    }                                                                                                       \
    SSAM__STENCIL_ADVANCE(name)

/* register streaming along Z */
#define SSAM_STENCIL3D_STREAM_DEFINE(name, T, SHAPE, P, B) SSAM_STENCIL3D_STREAM_DEFINE_OCC(name, T, SHAPE, P, B, 1)
#define SSAM_STENCIL3D_STREAM_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                        \
    SSAM__STENCIL3D_STREAM_DEFINE_X(name, T, SHAPE, P, B, MINB, SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), \
                                    SSAM__STENCIL3D_TRIM_DEFAULT)
/* GHM the ghost mode, TRIM the per-slot rows (see the defaults above) */
#define SSAM__STENCIL3D_STREAM_DEFINE_X(name, T, SHAPE, P, B, MINB, GHM, TRIM)                              \
    SSAM__STENCIL3D_COMMON(name, T, SHAPE, P, B)                                                            \
    typedef char name##__window_fits_registers[SSAM__STENCIL3D_WREGS(name, T, P) <= 192 ? 1 : -1];          \
    SSAM__STENCIL3D_KERNEL(name, T, SHAPE, P, B, MINB, SSAM__STENCIL3D_BODY, GHM, TRIM)                     \
    SSAM__STENCIL3D_LAUNCH(name, T, SHAPE, P, B, 0, GHM)

/* section 4.9: warps on XY slices, Z partial sums through shared memory */
#define SSAM_STENCIL3D_SLICE_DEFINE(name, T, SHAPE, P, B) SSAM_STENCIL3D_SLICE_DEFINE_OCC(name, T, SHAPE, P, B, 1)
#define SSAM_STENCIL3D_SLICE_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                         \
    SSAM__STENCIL3D_COMMON(name, T, SHAPE, P, B)                                                            \
    typedef char name##__window_fits_registers[SSAM__STENCIL3D_SLREGS(name, T, P) <= 192 ? 1 : -1];         \
    typedef char name##__partials_fit_shared_memory[SSAM__STENCIL3D_SLSMEM(name, T, P, B) <= 227 * 1024 ? 1 : -1]; \
    SSAM__STENCIL3D_KERNEL(name, T, SHAPE, P, B, MINB, SSAM__STENCIL3S_BODY, 1, 0)                          \
    SSAM__STENCIL3D_LAUNCH(name, T, SHAPE, P, B, 1, 1)

/* the default: the variant SSAM_STENCIL3D_SLICE_RULE picks for the shape and type */
#define SSAM_STENCIL3D_DEFINE(name, T, SHAPE, P, B) SSAM_STENCIL3D_DEFINE_OCC(name, T, SHAPE, P, B, 1)
#define SSAM_STENCIL3D_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                               \
    SSAM__STENCIL3D_COMMON(name, T, SHAPE, P, B)                                                            \
    enum {                                                                                                  \
        name##_SLICE = SSAM_STENCIL3D_SLICE_RULE(T, name##_NPTS, name##_XHI - name##_XLO + 1,                \
                                                 name##_YHI - name##_YLO + 1, name##_ZHI - name##_ZLO + 1)  \
    };                                                                                                      \
    typedef char name##__window_fits_registers                                                              \
        [(name##_SLICE ? SSAM__STENCIL3D_SLREGS(name, T, P) : SSAM__STENCIL3D_WREGS(name, T, P)) <= 192 ? 1 : -1]; \
    typedef char name##__partials_fit_shared_memory                                                         \
        [(!name##_SLICE || SSAM__STENCIL3D_SLSMEM(name, T, P, B) <= 227 * 1024) ? 1 : -1];                  \
    SSAM__STENCIL3D_KERNEL(name, T, SHAPE, P, B, MINB, SSAM__STENCIL3D_AUTO_BODY,                           \
                           SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), SSAM__STENCIL3D_TRIM_DEFAULT) \
    SSAM__STENCIL3D_LAUNCH(name, T, SHAPE, P, B, name##_SLICE, SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI))

#endif /* SSAM_STENCIL_CUH */
