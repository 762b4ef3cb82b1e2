#include <onchip/names_push.h>
/* ssam/stencil.cuh -- 2D and 3D stencils as software systolic arrays: describe a stencil once (an
 * X-macro list of points, ssam/stencil_shapes.cuh), get a kernel.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 2, sections 4.8-4.9, Table 3)
 *   SSAM_STENCIL2D_DEFINE(name, T, SHAPE, P, B) defines
 *       __global__ void name_kernel(...)                                       one time step
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)              checks, sizes, launches
 *       int name_advance(const ssam_stencil_args *a, int steps, void **result, cudaStream_t)
 *                                                                              N steps, ping-pong
 *       enum name_NPTS, name_NCOEF, name_XLO .. name_YHI (3D .. name_ZHI); typedef struct name_coef
 *       { T c[NPTS]; }; typedef name_shape (the shape as a type, SSAM_SHAPE2D_TYPE); name_ncoef()
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
 * HOW (Listing 2's schedule, generalised; the pieces by scope, each header with its own usage block)
 *   ssam/stencil/row.cuh       lane pieces: the lane-distance schedule (a lane's V = 16/sizeof(T)
 *                              columns, points grouped by lane distance, partial sums moved by
 *                              Horner's scheme over shfl.down / shfl.up), the row pieces, the
 *                              ghost-lane layout (stars of x radius <= 3: all 32 lanes store), stores
 *   ssam/stencil/body2d.cuh    the 2D body: a window of P + NY - 1 rows in registers, each input
 *                              row loaded once per warp, the next P prefetched; half types raw
 *   ssam/stencil/stream3d.cuh  the 3D streaming body: NZ planes in registers, trimmed per slot
 *   ssam/stencil/slice3d.cuh   the 3D slice body (section 4.9): warps on XY slices, Z partial sums
 *                              through a ring of planes in shared memory
 *   ssam/stencil/host.cuh      arguments, geometry, the grid rules, the launch and ping-pong helpers
 *   Grids: resident blocks per SM are queried once per device (cudaOccupancy...); 2D segments
 *   rows to fill about four full waves, 3D picks the number of Z segments that best fills whole waves
 *   of resident blocks counting the NZ - 1 halo planes per segment.
 *   A generator is names and sizes pasted around one call of the body per __global__ (the shape as
 *   a type: SSAM_SHAPE2D_TYPE / SSAM_SHAPE3D_TYPE) and a launcher that calls ssam__stencil_launch.
 *
 * BOUNDARIES (a->boundary)
 *   SSAM_STENCIL_DIRICHLET  cells whose stencil would reach outside the domain keep their values:
 *                           out = in where x + XLO < 0 or x + XHI >= nx (and likewise in y, z), so
 *                           for a star or box of radius r the cells within r of an edge are fixed.
 *   SSAM_STENCIL_PERIODIC   every cell is computed; indices wrap (any distance: a 5 x 3 domain
 *                           under a radius-6 star is defined).
 *
 * PIECES FOR KERNELS OF ONE'S OWN (function forms in ssam/stencil/row.cuh: ssam_stencil2d_row<S, XLO,
 *   XHI, YLO>(out, win, p, coef), ssam_stencil2d_row_fn, ssam_stencil3d_row<S, ..., ZLO, R>)
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
 *   [compile: float *d_u0, *d_u1; int W, H; float r; cudaStream_t stream]
 *     #include <ssam/stencil.cuh>
 *     SSAM_STENCIL2D_DEFINE(heat, float, SSAM_SHAPE_2D5PT, 8, 128)
 *
 *     float c[5] = {1 - 4 * r, r, r, r, r};          // host memory, in the shape's point order
 *     ssam_stencil_args a = {};
 *     a.src = d_u0; a.dst = d_u1; a.nx = W; a.ny = H; a.coef = c; a.ncoef = 5;
 *     a.boundary = SSAM_STENCIL_DIRICHLET;
 *     void *u;
 *     int rc = heat_advance(&a, 1000, &u, stream);    // u is d_u0 or d_u1: the state after 1000 steps
 *
 * PARAMETERS AND LIMITS (each refused at compile time with a sentence naming the generator, the
 * instance and the argument; tests/compile-fail/ssam_stencil_*.cu)
 *   T float or double.  Offsets within +-10 (SSAM_STENCIL_RMAX); every index I in [0, NPTS).  P >= 1;
 *   B a multiple of 32 from 32 to 1024.  Registers per lane: V * (P + NY - 1) window + V * P prefetch
 *   (2D), V * (NZ (P + NY - 1) + P + NY - 1) (3D streaming; a bound: trimmed planes hold fewer),
 *   2 V (P + NY - 1) (3D slice); the definitions refuse windows over 192 32-bit registers.  Slice
 *   shared memory: (B/32 + NZ - 1) (NZ - 1) P 512 bytes + a row table (SSAM__STENCIL3S_SMEM; at most
 *   227 KB; over 48 KB is opted in at the first launch).  Coefficients travel in the kernel's
 *   parameters (NPTS * sizeof(T) bytes; read from HOST memory at launch).  The same pitch for src
 *   and dst (elements; 0 = dense); src and dst must not overlap (SSAM_EOVERLAP).
 *   name_advance overwrites both buffers (src too: it is the ping-pong partner).
 *   2D: ny up to 65535 * 4096 rows; 3D: ceil(ny / (P B/32)) (slice: ceil(ny / P)) and the z
 *   segments each <= 65535.
 *   Status codes: SSAM_ENULL, SSAM_ESIZE (a size <= 0, nz != 1 for 2D, steps < 0, grid too large),
 *   SSAM_EPITCH, SSAM_EBORDER (unknown boundary), SSAM_EFILTER (ncoef differs from the shape's),
 *   SSAM_EOVERLAP (src and dst overlap), SSAM_ECUDA; ssam_stencil_strerror names them.
 *
 * NVRTC (docs/python.md)
 *   Under __CUDACC_RTC__ (options -I<onchip>/include --std=c++17 -I<toolkit>/include) each generator
 *   emits its kernel only, name_kernel(const TS *src, TS *dst, ssam_stencil_geom g, name_coef cf), and
 *   the enums and name_coef above: no name_launch, name_advance or name_ncoef (use name_NCOEF).
 *   The grid, the segments (g.seg) and the dynamic shared memory are ssam__stencil_prepare's
 *   (ssam/stencil/host.cuh, host code), which a caller repeats.
 */
#ifndef SSAM_STENCIL_CUH
#define SSAM_STENCIL_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only (base.cuh has the integer types) */
#include <cuda_runtime.h>
#include <stdint.h>
#endif

#include "base.cuh"
#include "regcache.cuh"
#include "shift.cuh"
#include "stencil_shapes.cuh"
#include "stencil/body2d.cuh"
#include "stencil/host.cuh"
#include "stencil/row.cuh"
#include "stencil/slice3d.cuh"
#include "stencil/stream3d.cuh"

/* ---- the definitions' layout and grid choices (internal; docs/ssam.md has the timings) -------
 *   SSAM__STENCIL_GHM_DEFAULT(T, XLO, XHI)  1: ghost lanes where the shape allows them, 0: overlap
 *       lanes.  Ghosts while W = max(XHI, -XLO) <= 3: lanes 0 and 31 issue W scalar loads per row
 *       and side, and at W = 4 (2d17pt fp32) the overlap layout is 14% faster (406 vs 357
 *       GCells/s), at W = 3 (2d13pt fp32) ghosts 4% (438 vs 421), at W = 2 fp64 12% (238 vs 213);
 *       one 16-byte ghost load instead of W scalars loses (more registers: 2d9pt fp32 451 -> 320,
 *       3d7pt fp32 452 -> 423)
 *   SSAM__STENCIL2D_GRID_DEFAULT(GH)  2D grid rule (GH 1: ghost lanes): 0 or n >= 2 about 2 or n full
 *       waves of resident blocks, 1 about 48 warps per SM.  4 waves: shorter row segments, the same
 *       for both layouts (2d9pt-box fp32 397 -> 425 GCells/s, 2d25pt 404 -> 412, 2d21pt 371 -> 377,
 *       2d5pt 443 -> 444 against 2 waves; 3 waves in between)
 *   SSAM__STENCIL3D_TRIM_DEFAULT  3D streaming: 1 each plane slot keeps only the rows its points
 *       read (3d13pt fp32 347 -> 376 GCells/s, fp64 128 -> 163; boxes and poisson: the same code) */
#define SSAM__STENCIL_GHM_DEFAULT(T, XLO, XHI) (((XHI) > -(XLO) ? (XHI) : -(XLO)) <= 3)
#define SSAM__STENCIL2D_GRID_DEFAULT(GH) 4
#define SSAM__STENCIL3D_TRIM_DEFAULT 1

/* The default 3D variant (SSAM_STENCIL3D_DEFINE): 1 = slice, 0 = streaming.  Slice for double
 * precision when the stencil spans 5 or more planes (NZ >= 5: z radius 2 and up) and fills more
 * than half of its NX x NY x NZ box (a dense shape: every plane reads every row, so the streaming
 * window cannot be trimmed), streaming otherwise.  Measured at 512^3 on the H200 (docs/ssam.md,
 * Stencils, the 3D rule), best configuration of each: fp64 3d125pt slice 62.8 GCells/s vs streaming
 * 51.8; fp64 3d13pt (a star: its planes dz != 0 keep one row per output row) trimmed streaming 163
 * vs slice 135; streaming leads by 20-40% for every NZ = 3 shape in both types (3d7pt, 3d27pt,
 * poisson) and for fp32 3d13pt (376 vs 265) and 3d125pt (84.9 vs 78.6). */
#define SSAM_STENCIL3D_SLICE_RULE(T, NPTS, NX, NY, NZ) (sizeof(T) == 8 && (NZ) >= 5 && 2 * (NPTS) > (NX) * (NY) * (NZ))

/* ---- what the generators call ------------------------------------------------------------------ */
/* the 3D kernel's body: the slice variant (SL 1) or the streaming one (GHM, TRIM) */
template <class T, class S, int P, int B, int SL, int GHM, int TRIM>
static __device__ __forceinline__ void ssam__stencil3d_any_body(const T *src, T *dst, const ssam_stencil_geom g, const T *cf)
{
    if constexpr (SL != 0) ssam__stencil3s_body<T, S, P, B>(src, dst, g, cf);
    else ssam__stencil3d_body<T, S, P, B, GHM, TRIM>(src, dst, g, cf);
}
/* the registers of a 3D window in 32-bit words: streaming (SL 0) or slice */
template <class T, class S, int P, int SL>
static __host__ __device__ constexpr int ssam__stencil3d_wregs(void)
{
    return SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) * (SL ? 2 : S::zhi - S::zlo + 2) * (P + S::yhi - S::ylo);
}
#define SSAM__STENCIL3D_SLSMEM(T, S, P, B) SSAM__STENCIL3S_SMEM(T, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1, (B) / 32, P)

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the launchers' view of a 2D kernel (GRID -1: SSAM__STENCIL2D_GRID_DEFAULT of the layout) and of a
 * 3D one (SL 1: the slice kernel's grid and shared memory) */
template <class TS, class T, class S, int P, int B, int GHM, int GRID>
static inline ssam__stencil_kern ssam__stencil2d_kern(const void *fn, int *occ)
{
    enum { V = SSAM_STENCIL_V(TS), STEP = ssam__stencil_wstep<S, V, GHM>() };
    const ssam__stencil_kern k = {fn, occ, 2, S::ncoef, S::npts, V, STEP, B, P, 0, 1,
                                  GRID >= 0 ? GRID : SSAM__STENCIL2D_GRID_DEFAULT(STEP == 32 * V), -1, sizeof(TS), sizeof(T),
                                  0, (size_t)(S::yhi - S::ylo + P) * sizeof(int), sizeof(int)};
    return k;
}
template <class T, class S, int P, int B, int SL, int GHM>
static inline ssam__stencil_kern ssam__stencil3d_kern(const void *fn, int *occ)
{
    enum { V = SSAM_STENCIL_V(T), NY = S::yhi - S::ylo + 1, NZ = S::zhi - S::zlo + 1, WYP = SL ? P : B / 32 * P };
    const size_t sm = SL ? SSAM__STENCIL3D_SLSMEM(T, S, P, B) : 0;
    const ssam__stencil_kern k = {fn, occ, 3, S::ncoef, S::npts, V, ssam__stencil_wstep<S, V, SL ? 1 : GHM>(), B, P, WYP,
                                  NZ, 0, -1, sizeof(T), sizeof(T), sm,
                                  SL ? sm : (size_t)(WYP + NY - 1 + NZ) * sizeof(int), SL ? 0 : sizeof(int)};
    return k;
}
#endif /* !__CUDACC_RTC__ */

/* ---- the generators ---------------------------------------------------------------------------- */
/* The definitions' common part: the shape as a type (name_shape), its checks, the extents, the
 * coefficient struct and name_ncoef.  WHO is "GENERATOR(name)", the sentences' subject. */
#define SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, DIMS)                                                 \
    static_assert(ssam__stencil_real<T>::value, WHO ": T must be float or double");                     \
    typedef SSAM_SHAPE##DIMS##D_TYPE(SHAPE) name##_shape;                                               \
    static_assert(name##_shape::rmax <= SSAM_STENCIL_RMAX, WHO ": SHAPE has a point beyond SSAM_STENCIL_RMAX (10)"); \
    static_assert(!name##_shape::ibad, WHO ": SHAPE has a coefficient index I outside 0 .. (its points) - 1"); \
    enum {                                                                                              \
        name##_NPTS = name##_shape::npts, name##_NCOEF = name##_shape::ncoef, name##_XLO = name##_shape::xlo, \
        name##_XHI = name##_shape::xhi, name##_YLO = name##_shape::ylo, name##_YHI = name##_shape::yhi  \
    };                                                                                                  \
    typedef struct name##_coef {                                                                        \
        T c[name##_NPTS];                                                                               \
    } name##_coef;                                                                                      \
    SSAM__STENCIL_NCOEF_FN(name)
/* the block size and rows per lane */
#define SSAM__STENCIL_BP(name, WHO, P, B)                                                               \
    static_assert((B) % 32 == 0 && (B) >= 32 && (B) <= ONCHIP_THREADS_PER_BLOCK_MAX,                    \
                  WHO ": B must be a multiple of 32 from 32 to 1024");                                  \
    static_assert((P) >= 1, WHO ": P (output rows per lane) must be at least 1");
/* The host functions of the generators (name_ncoef, name_launch, name_advance); under NVRTC they
 * are left out and a generator emits its kernel only.  name_advance: N steps, ping-pong
 * (ssam__stencil_advance over name_launch). */
#ifndef __CUDACC_RTC__
#define SSAM__STENCIL_NCOEF_FN(name) static inline __attribute__((unused)) int name##_ncoef(void) { return name##_NCOEF; }
#define SSAM__STENCIL_ADVANCE(name)                                                                     \
    static inline __attribute__((unused)) int name##_advance(const ssam_stencil_args *a, int steps,     \
                                                             void **result, cudaStream_t stream)        \
    {                                                                                                   \
        return ssam__stencil_advance(a, steps, result, stream, name##_launch);                          \
    }
#define SSAM__STENCIL2D_HOST(name, TS, T, P, B, GHM, GRID)                                              \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, cudaStream_t stream) \
    {                                                                                                   \
        static int occ[2] = {0, 0}; /* resident blocks per SM, asked once per device */                 \
        name##_coef cf;                                                                                 \
        const ssam__stencil_kern k = ssam__stencil2d_kern<TS, T, name##_shape, P, B, GHM, GRID>((const void *)name##_kernel, occ); \
        return ssam__stencil_launch(a, stream, &k, &cf, NULL);                                          \
    }                                                                                                   \
    SSAM__STENCIL_ADVANCE(name)
#define SSAM__STENCIL3D_HOST(name, T, P, B, GHM)                                                        \
    static inline __attribute__((unused)) int name##_launch(const ssam_stencil_args *a, cudaStream_t stream) \
    {                                                                                                   \
        static int occ[2] = {0, 0}; /* resident blocks per SM, asked once per device */                 \
        name##_coef cf;                                                                                 \
        const ssam__stencil_kern k = ssam__stencil3d_kern<T, name##_shape, P, B, name##_SLICE, GHM>((const void *)name##_kernel, occ); \
        return ssam__stencil_launch(a, stream, &k, &cf, NULL);                                          \
    }                                                                                                   \
    SSAM__STENCIL_ADVANCE(name)
#else
#define SSAM__STENCIL_NCOEF_FN(name)
#define SSAM__STENCIL_ADVANCE(name)
#define SSAM__STENCIL2D_HOST(name, TS, T, P, B, GHM, GRID)
#define SSAM__STENCIL3D_HOST(name, T, P, B, GHM)
#endif

#define SSAM_STENCIL2D_DEFINE(name, T, SHAPE, P, B)                                                     \
    SSAM__STENCIL2D_GEN(name, "SSAM_STENCIL2D_DEFINE(" #name ")", T, T, SHAPE, P, B, 1, SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), -1)
#define SSAM_STENCIL2D_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                           \
    SSAM__STENCIL2D_GEN(name, "SSAM_STENCIL2D_DEFINE_OCC(" #name ")", T, T, SHAPE, P, B, MINB,          \
                        SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), -1)
/* Half-precision storage (FP16 __half, BF16 __nv_bfloat16): the state in and out is 2 bytes a
 * cell, loaded 8 to a lane (16 bytes) and computed in float (every point an fma in float, one
 * rounding to the storage type at the store); the coefficients are a FLOAT host array.  A
 * memory-bound stencil moves half the bytes of float.  Dirichlet cells keep their stored value
 * exactly. */
#define SSAM_STENCIL2D_DEFINE_HALF(name, SHAPE, P, B)                                                   \
    SSAM__STENCIL2D_GEN(name, "SSAM_STENCIL2D_DEFINE_HALF(" #name ")", __half, float, SHAPE, P, B, 1,   \
                        SSAM__STENCIL_GHM_DEFAULT(float, name##_XLO, name##_XHI), -1)
#define SSAM_STENCIL2D_DEFINE_BF16(name, SHAPE, P, B)                                                   \
    SSAM__STENCIL2D_GEN(name, "SSAM_STENCIL2D_DEFINE_BF16(" #name ")", __nv_bfloat16, float, SHAPE, P, B, 1, \
                        SSAM__STENCIL_GHM_DEFAULT(float, name##_XLO, name##_XHI), -1)
/* GHM the ghost mode (0 overlap lanes, 1 ghost lanes where the shape allows), GRID the 2D grid rule
 * (-1: SSAM__STENCIL2D_GRID_DEFAULT of the layout) */
#define SSAM__STENCIL2D_DEFINE_X(name, T, SHAPE, P, B, MINB, GHM, GRID)                                 \
    SSAM__STENCIL2D_GEN(name, "SSAM_STENCIL2D_DEFINE(" #name ")", T, T, SHAPE, P, B, MINB, GHM, GRID)
/* the 2D generator: WHO the sentences' subject, the state stored as TS and computed in T */
#define SSAM__STENCIL2D_GEN(name, WHO, TS, T, SHAPE, P, B, MINB, GHM, GRID)                             \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 2)                                                        \
    SSAM__STENCIL_BP(name, WHO, P, B)                                                                   \
    static_assert(SSAM_STENCIL_V(TS) * (int)(sizeof(T) / 4) * (2 * (P) + name##_YHI - name##_YLO) <= 192, \
                  WHO ": the window of P + NY - 1 rows and the P prefetched exceed 192 registers; lower P"); \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const TS *__restrict__ src, TS *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        ssam__stencil2d_body<TS, T, name##_shape, SSAM__STENCIL_P(P), B, GHM>(src, dst, g, cf.c);       \
    }                                                                                                   \
    SSAM__STENCIL2D_HOST(name, TS, T, P, B, GHM, GRID)

/* the 3D generators: register streaming along Z, the slices of section 4.9, and the default */
#define SSAM_STENCIL3D_STREAM_DEFINE(name, T, SHAPE, P, B)                                              \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_STREAM_DEFINE(" #name ")", T, SHAPE, P, B, 1, 0,          \
                        SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), SSAM__STENCIL3D_TRIM_DEFAULT)
#define SSAM_STENCIL3D_STREAM_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                    \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_STREAM_DEFINE_OCC(" #name ")", T, SHAPE, P, B, MINB, 0,   \
                        SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), SSAM__STENCIL3D_TRIM_DEFAULT)
/* GHM the ghost mode, TRIM the per-slot rows (see the defaults above) */
#define SSAM__STENCIL3D_STREAM_DEFINE_X(name, T, SHAPE, P, B, MINB, GHM, TRIM)                          \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_STREAM_DEFINE(" #name ")", T, SHAPE, P, B, MINB, 0, GHM, TRIM)
#define SSAM_STENCIL3D_SLICE_DEFINE(name, T, SHAPE, P, B)                                               \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_SLICE_DEFINE(" #name ")", T, SHAPE, P, B, 1, 1, 1, 0)
#define SSAM_STENCIL3D_SLICE_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                     \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_SLICE_DEFINE_OCC(" #name ")", T, SHAPE, P, B, MINB, 1, 1, 0)
#define SSAM_STENCIL3D_DEFINE(name, T, SHAPE, P, B)                                                     \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_DEFINE(" #name ")", T, SHAPE, P, B, 1, SSAM__STENCIL3D_RULE(name, T), \
                        SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), SSAM__STENCIL3D_TRIM_DEFAULT)
#define SSAM_STENCIL3D_DEFINE_OCC(name, T, SHAPE, P, B, MINB)                                           \
    SSAM__STENCIL3D_GEN(name, "SSAM_STENCIL3D_DEFINE_OCC(" #name ")", T, SHAPE, P, B, MINB, SSAM__STENCIL3D_RULE(name, T), \
                        SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), SSAM__STENCIL3D_TRIM_DEFAULT)
#define SSAM__STENCIL3D_RULE(name, T)                                                                   \
    SSAM_STENCIL3D_SLICE_RULE(T, name##_NPTS, name##_XHI - name##_XLO + 1, name##_YHI - name##_YLO + 1, \
                              name##_ZHI - name##_ZLO + 1)
/* SL 1: the slice body (name_SLICE), else the streaming body with GHM and TRIM */
#define SSAM__STENCIL3D_GEN(name, WHO, T, SHAPE, P, B, MINB, SL, GHM, TRIM)                             \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 3)                                                        \
    enum { name##_ZLO = name##_shape::zlo, name##_ZHI = name##_shape::zhi };                            \
    enum { name##_SLICE = (SL) };                                                                       \
    SSAM__STENCIL_BP(name, WHO, P, B)                                                                   \
    static_assert(ssam__stencil3d_wregs<T, name##_shape, P, name##_SLICE>() <= 192,                     \
                  WHO ": the register window exceeds 192 registers; lower P");                          \
    static_assert(!name##_SLICE || SSAM__STENCIL3D_SLSMEM(T, name##_shape, P, B) <= ONCHIP_SMEM_OPTIN_MAX, \
                  WHO ": the slices' partial sums exceed 227 KB of shared memory; lower B or P");       \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        ssam__stencil3d_any_body<T, name##_shape, SSAM__STENCIL_P(P), B, name##_SLICE, GHM, TRIM>(src, dst, g, cf.c); \
    }                                                                                                   \
    SSAM__STENCIL3D_HOST(name, T, P, B, GHM)
/* P as the bodies take it: at least 1 (P < 1 is refused by a sentence above, not by the body) */
#define SSAM__STENCIL_P(P) ((P) >= 1 ? (P) : 1)

#endif /* SSAM_STENCIL_CUH */
#include <onchip/names_pop.h>
