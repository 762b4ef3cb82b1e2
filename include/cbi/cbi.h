#include <onchip/names_push.h>
/* cbi/cbi.h -- column-based iteration: remap linear work indices into column order.
 *
 * WHAT
 *   A 2D domain of width x height cells is normally walked row after row: index i is cell
 *   (i % width, i / width).  Column-based iteration (Prasetya 2022, "Column based iteration",
 *   section 4.1, equations 4.1-4.6) cuts the domain into vertical columns of width w and walks
 *   the columns one after the other, each row by row; when w does not divide the width the last
 *   column is narrower.  Consecutive threads then stay inside a w-wide strip, so the rows a stencil
 *   or a matrix product re-reads stay in cache.  The header gives:
 *     - a plan with the invariant parts precomputed (the idea of the thesis's Listing 8), including
 *       multiply-shift constants so the 32-bit device remap has no integer division;
 *     - the remap i -> j (and its x, y), the zigzag variant (eq. 4.7) and the inverse j -> i;
 *     - N-D domains folded to 2D (section 4.1.2): dims[0] is the width, the product of the rest
 *       the height; cbi_unfold() splits the folded y back into coordinates;
 *     - the same remap for thread blocks over a grid of tiles (the block "swizzle" of CUTLASS and
 *       the GROUP_SIZE_M grouping of Triton): column groups of `group` tiles, the last ragged;
 *     - width choosers from the thesis's cache models (sections 4.3 and 4.4), rounded to
 *       multiples of 32 as its measurements (section 5.1) found best.
 *   Plain C99: the same functions run on the host and, under nvcc, on the device.
 *
 * EXAMPLE (Listing 5 of the thesis, with a plan)
 *   [compile: unsigned width, height; const float *in; float *out]
 *     #include <cbi/cbi.h>
 *     __global__ void k(cbi_plan p, const float *in, float *out) {
 *         unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
 *         if (tid >= p.cells) return;
 *         cbi_remap32_xy(&p, tid, &x, &y);          // cell this thread works on
 *         out[y * p.width + x] = in[y * p.width + x];
 *     }
 *
 *     cbi_plan p;
 *     int rc = cbi_plan_make(&p, width, height, 32, CBI_INDEX32);   // 0 or a CBI_E* code
 *     if (rc) fprintf(stderr, "%s\n", cbi_strerror(rc));
 *     k<<<(width * height + 255) / 256, 256>>>(p, in, out);
 *
 *   Thread blocks over a grid of tiles (tiles_x x tiles_y), in column groups of 8 tiles:
 *     cbi_plan_make(&bp, tiles_x, tiles_y, 8, CBI_INDEX32);
 *     cbi_remap32_xy(&bp, blockIdx.x, &tile_x, &tile_y);
 *   To group rows instead (Triton's GROUP_SIZE_M), make the plan on the transposed grid
 *   (width = tiles_y, height = tiles_x) and swap the two results.
 *
 * DEFINITIONS (w' is the width of the column that i falls in)
 *   column c = i / (w * height)              (eq. 4.1: offset o = c * w)
 *   w'       = w, or width - o for the last column when w does not divide width   (eq. 4.2)
 *   r        = i - c * w * height            (eq. 4.3; also right for the narrow last column)
 *   x, y     = r % w', r / w'                (eqs. 4.4, 4.5)
 *   zigzag   : on odd y, x = w' - 1 - x.  Eq. 4.7 as printed writes w' - x and reverses the even
 *              rows; w' - x would leave the column at x = 0, so the kit reverses odd rows with
 *              w' - 1 - x: row 0 of each column runs left to right.
 *   result   : cell (o + x, y), linear j = (o + x) + y * width          (eq. 4.6)
 *   w >= width gives the identity (one column): cbi_plan_is_identity() says so, and a caller may
 *   then skip the remap entirely.
 *
 * PARAMETERS AND LIMITS
 *   width, height >= 1; w >= 1 (w > width is clamped to width).  Indices are long long; with the
 *   flag CBI_INDEX32 the plan also guarantees width * height <= 2^32 - 1 so that the fast
 *   cbi_remap32* functions (unsigned, no division) are valid.  cbi_remap32* on a plan made without
 *   CBI_INDEX32 is undefined.  cbi_remap/cbi_inverse (64-bit) work for any plan.
 *   Errors (return values of the constructors, never a wrong mapping):
 *     CBI_EDIM width/height/dims <= 0, CBI_EWIDTH w <= 0, CBI_EOVERFLOW cells overflow the index
 *     type, CBI_ENULL a NULL pointer, CBI_ENDIM ndims outside 1..CBI_MAX_DIMS.
 *   Cost: cbi_remap32_xy is 2 multiply-high divisions and a handful of integer ops; the plan is
 *   88 bytes (pass it to kernels by value).
 *
 * CHOOSING w (cbi_width_stencil, cbi_width_matmul): see the comment above those functions.
 */
#ifndef CBI_CBI_H
#define CBI_CBI_H

#ifndef __CUDACC_RTC__
#include <stdint.h>
#else
/* NVRTC (run-time compilation: CuPy's RawModule, cuda-python) has no C library headers: the
 * fixed-width integer types from libcu++ where its folder (the toolkit's include/cccl) is on the
 * include path, else typedefs of the same builtin types it names (the same block is in
 * ssam/base.cuh).  Every function below is __host__ __device__ there too. */
#if defined(__has_include) && __has_include(<cuda/std/cstdint>)
#include <cuda/std/cstdint>
#elif !defined(ONCHIP__RTC_STDINT)
#define ONCHIP__RTC_STDINT
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
#define INT64_MAX 9223372036854775807LL
#define UINT32_MAX 4294967295U
#endif
#endif

#ifdef __CUDACC__
#define CBI_FN static __host__ __device__ __forceinline__
#else
#define CBI_FN static inline
#endif

#define CBI_VERSION 100         /* 1.0.0 */
#define CBI_MAX_DIMS 8

/* status codes */
#define CBI_SUCCESS 0
#define CBI_EDIM 1      /* a width, height or dimension <= 0 */
#define CBI_EWIDTH 2    /* column width <= 0 */
#define CBI_EOVERFLOW 3 /* the number of cells overflows the index type */
#define CBI_ENULL 4     /* a NULL pointer argument */
#define CBI_ENDIM 5     /* ndims outside 1..CBI_MAX_DIMS */

/* flags */
#define CBI_ZIGZAG 1u   /* reverse x on odd rows of each column (eq. 4.7) */
#define CBI_INDEX32 2u  /* require width*height <= 2^32-1 so cbi_remap32* may be used */

typedef struct cbi_plan {
    long long width, height; /* domain (after folding) */
    long long cells;         /* width * height */
    long long w;             /* column width (clamped to width) */
    long long nfull;         /* number of full-width columns */
    long long lastw;         /* width of the narrow last column, 0 when w divides width */
    long long colsize;       /* w * height: cells in a full column */
    unsigned flags;          /* CBI_ZIGZAG | CBI_INDEX32 */
    /* multiply-shift constants for 32-bit unsigned division (valid with CBI_INDEX32) */
    uint32_t m_col, m_w, m_last;
    uint8_t s_col[2], s_w[2], s_last[2];
} cbi_plan;

CBI_FN const char *cbi_strerror(int rc)
{
    switch (rc) {
    case CBI_SUCCESS: return "cbi: success";
    case CBI_EDIM: return "cbi: width, height or a dimension is <= 0";
    case CBI_EWIDTH: return "cbi: column width is <= 0";
    case CBI_EOVERFLOW: return "cbi: number of cells overflows the index type";
    case CBI_ENULL: return "cbi: NULL pointer argument";
    case CBI_ENDIM: return "cbi: ndims outside 1..CBI_MAX_DIMS";
    default: return "cbi: unknown status code";
    }
}

/* ---- division by an invariant 32-bit divisor (Granlund & Montgomery 1994, Fig. 4.1) ----------
 * For d >= 1, l = ceil(log2 d), m = floor(2^32 (2^l - d) / d) + 1:
 *   t = mulhi(m, n);  n / d = (t + ((n - t) >> s1)) >> s2,  s1 = min(l, 1), s2 = max(l - 1, 0),
 * exact for every 32-bit unsigned n. */
CBI_FN void cbi__magic32(uint32_t d, uint32_t *m, uint8_t s[2])
{
    unsigned l = 0;
    while (l < 32 && ((uint64_t)1 << l) < (uint64_t)d) l++;
    *m = (uint32_t)(((((uint64_t)1 << l) - d) << 32) / d + 1);
    s[0] = (uint8_t)(l < 1 ? l : 1);
    s[1] = (uint8_t)(l > 1 ? l - 1 : 0);
}

CBI_FN uint32_t cbi__div32(uint32_t n, uint32_t m, unsigned s1, unsigned s2)
{
#ifdef __CUDA_ARCH__
    uint32_t t = __umulhi(m, n);
#else
    uint32_t t = (uint32_t)(((uint64_t)m * n) >> 32);
#endif
    return (t + ((n - t) >> s1)) >> s2;
}

/* ---- plans ---------------------------------------------------------------------------------- */

/* Plan the column remap of a width x height domain with column width w. */
CBI_FN int cbi_plan_make(cbi_plan *p, long long width, long long height, long long w, unsigned flags)
{
    if (!p) return CBI_ENULL;
    if (width <= 0 || height <= 0) return CBI_EDIM;
    if (w <= 0) return CBI_EWIDTH;
    if (width > INT64_MAX / height) return CBI_EOVERFLOW;
    if ((flags & CBI_INDEX32) && width * height > (long long)UINT32_MAX) return CBI_EOVERFLOW;
    if (w > width) w = width;
    p->width = width;
    p->height = height;
    p->cells = width * height;
    p->w = w;
    p->nfull = width / w;
    p->lastw = width - p->nfull * w;
    p->colsize = w * height; /* <= cells: no overflow */
    p->flags = flags & (CBI_ZIGZAG | CBI_INDEX32);
    p->m_col = p->m_w = p->m_last = 0;
    p->s_col[0] = p->s_col[1] = p->s_w[0] = p->s_w[1] = p->s_last[0] = p->s_last[1] = 0;
    if (flags & CBI_INDEX32) {
        cbi__magic32((uint32_t)p->colsize, &p->m_col, p->s_col);
        cbi__magic32((uint32_t)w, &p->m_w, p->s_w);
        cbi__magic32((uint32_t)(p->lastw ? p->lastw : w), &p->m_last, p->s_last);
    }
    return CBI_SUCCESS;
}

/* N-D domain dims[0] x dims[1] x ... folded to 2D: width dims[0], height the product of the rest
 * (section 4.1.2: only the innermost dimension has spatial locality worth splitting). */
CBI_FN int cbi_plan_make_nd(cbi_plan *p, int ndims, const long long *dims, long long w, unsigned flags)
{
    long long h = 1;
    int d;
    if (!p || !dims) return CBI_ENULL;
    if (ndims < 1 || ndims > CBI_MAX_DIMS) return CBI_ENDIM;
    for (d = 0; d < ndims; d++)
        if (dims[d] <= 0) return CBI_EDIM;
    for (d = 1; d < ndims; d++) {
        if (h > INT64_MAX / dims[d]) return CBI_EOVERFLOW;
        h *= dims[d];
    }
    return cbi_plan_make(p, dims[0], h, w, flags);
}

/* Thread blocks over a tiles_x x tiles_y grid, in column groups of `group` tiles (the last group
 * ragged).  The same plan as cbi_plan_make; the name says what it is for. */
CBI_FN int cbi_block_plan_make(cbi_plan *p, long long tiles_x, long long tiles_y, long long group,
                               unsigned flags)
{
    return cbi_plan_make(p, tiles_x, tiles_y, group, flags);
}

/* True when the remap is the identity (a single column): a caller may skip it. */
CBI_FN int cbi_plan_is_identity(const cbi_plan *p)
{
    return p->w >= p->width && (p->height == 1 || !(p->flags & CBI_ZIGZAG) || p->width == 1);
}

/* ---- the remap (64-bit, any plan) ------------------------------------------------------------ */

CBI_FN void cbi_remap_xy(const cbi_plan *p, long long i, long long *x, long long *y)
{
    long long c = i / p->colsize;
    long long r = i - c * p->colsize;
    long long wp = c < p->nfull ? p->w : p->lastw;
    long long yy = r / wp;
    long long xx = r - yy * wp;
    if ((p->flags & CBI_ZIGZAG) && (yy & 1)) xx = wp - 1 - xx;
    *x = c * p->w + xx;
    *y = yy;
}

CBI_FN long long cbi_remap(const cbi_plan *p, long long i)
{
    long long x, y;
    cbi_remap_xy(p, i, &x, &y);
    return x + y * p->width;
}

/* The inverse: the linear index i whose remap is cell j (0 <= j < cells). */
CBI_FN long long cbi_inverse(const cbi_plan *p, long long j)
{
    long long gy = j / p->width;
    long long gx = j - gy * p->width;
    long long c = gx / p->w;
    long long xl = gx - c * p->w;
    long long wp = c < p->nfull ? p->w : p->lastw;
    if ((p->flags & CBI_ZIGZAG) && (gy & 1)) xl = wp - 1 - xl;
    return c * p->colsize + gy * wp + xl;
}

CBI_FN long long cbi_inverse_xy(const cbi_plan *p, long long x, long long y)
{
    return cbi_inverse(p, x + y * p->width);
}

/* ---- the remap (32-bit, no division; plan made with CBI_INDEX32) ----------------------------- */

CBI_FN void cbi_remap32_xy(const cbi_plan *p, uint32_t i, uint32_t *x, uint32_t *y)
{
    uint32_t c = cbi__div32(i, p->m_col, p->s_col[0], p->s_col[1]);
    uint32_t r = i - c * (uint32_t)p->colsize;
    int last = c >= (uint32_t)p->nfull; /* the narrow last column: select its divisor */
    uint32_t wp = last ? (uint32_t)p->lastw : (uint32_t)p->w;
    uint32_t yy = cbi__div32(r, last ? p->m_last : p->m_w, last ? p->s_last[0] : p->s_w[0],
                             last ? p->s_last[1] : p->s_w[1]);
    uint32_t xx = r - yy * wp;
    if ((p->flags & CBI_ZIGZAG) && (yy & 1u)) xx = wp - 1u - xx;
    *x = c * (uint32_t)p->w + xx;
    *y = yy;
}

CBI_FN uint32_t cbi_remap32(const cbi_plan *p, uint32_t i)
{
    uint32_t x, y;
    cbi_remap32_xy(p, i, &x, &y);
    return x + y * (uint32_t)p->width;
}

/* ---- N-D helpers ----------------------------------------------------------------------------- */

/* Split a folded row index y of a plan made by cbi_plan_make_nd back into coords[1..ndims-1]
 * (coords[0] is the x of the remap).  dims as given to cbi_plan_make_nd. */
CBI_FN void cbi_unfold(long long y, int ndims, const long long *dims, long long *coords)
{
    int d;
    for (d = 1; d < ndims; d++) {
        coords[d] = y % dims[d];
        y /= dims[d];
    }
}

/* ---- choosing the column width -----------------------------------------------------------------
 * The thesis models the cache a column needs (LRU, no associativity):
 *   stencil (section 4.3), s_w x s_h stencil, t threads in flight, u bytes per cell:
 *       M = u (t + s_h (c + s_w))    ->   c = (M - u (s_h s_w + t)) / (s_h u)
 *   matmul (section 4.4), C = A B, B of depth x width, u bytes per element: a c-wide strip of B
 *       (depth rows; the thesis's I_h for square matrices) must stay cached:
 *       M = u depth c                ->   c = M / (u depth)
 * where M is the cache (bytes) that must hold the reuse.  Section 5.1 found the model's c a poor
 * predictor and multiples of 32 (a warp, a 128-byte line) best, so the result is rounded down to
 * a multiple of 32 (at least 32).  When c >= width the naive row order already fits the cache:
 * the width is returned, which makes the plan the identity (no remap) -- the right answer where
 * the model says reordering cannot pay.  cache_bytes and threads are the caller's statement of
 * which cache holds the reuse (e.g. one SM's L1 and its resident threads, or the L2 and the
 * threads of the whole device); docs/cbi.md gives the values measured best on the H200.
 * Returns 0 when an argument is <= 0.  Any sizes: a need past INT64_MAX bytes (u depth, u (s_h s_w +
 * t)) is compared, never formed, and fits no cache (the floor of 32). */
CBI_FN long long cbi__round32(long long c, long long width)
{
    if (c >= width) return width;
    c = (c / 32) * 32;
    if (c < 32) c = 32;
    return c < width ? c : width;
}

CBI_FN long long cbi_width_stencil(long long width, int sw, int sh, int elem_bytes, long long cache_bytes,
                                   long long threads)
{
    long long u = elem_bytes, s, lim, c;
    if (width <= 0 || sw <= 0 || sh <= 0 || elem_bytes <= 0 || cache_bytes <= 0 || threads <= 0) return 0;
    s = (long long)sh * sw;
    lim = INT64_MAX / u;
    /* u (s + t) past INT64_MAX exceeds any cache: the model's c is negative, the floor of 32 */
    if (s > lim || threads > lim - s) return cbi__round32(0, width);
    c = (cache_bytes - u * (s + threads)) / ((long long)sh * u);
    return cbi__round32(c, width);
}

CBI_FN long long cbi_width_matmul(long long width, long long depth, int elem_bytes, long long cache_bytes)
{
    long long c;
    if (width <= 0 || depth <= 0 || elem_bytes <= 0 || cache_bytes <= 0) return 0;
    c = cache_bytes / elem_bytes / depth; /* = M / (u depth), the product never formed */
    return cbi__round32(c, width);
}

/* ---- choosing the block group -------------------------------------------------------------------
 * The kit's extension of section 4.4 to thread blocks (not in the thesis).  A kernel whose blocks
 * each compute a tile_w x tile_h tile of C = A B (depth = the inner dimension) runs
 * `resident_blocks` blocks at once (SMs x blocks per SM): one wave.  With the tiles taken in column
 * groups of G, a wave spans G tile columns and ceil(resident_blocks / G) tile rows, so it reads
 *     F(G) = u depth (G tile_w + ceil(resident_blocks / G) tile_h)   bytes
 * of B columns and A rows, which should stay in the cache (the L2: blocks go round-robin to SMs, so
 * only the L2 sees a whole wave).  When row order (G = tiles_x) already fits, tiles_x is returned:
 * no grouping.  Otherwise the smallest G in 1..min(tiles_x, resident_blocks) that minimises F(G)
 * (about sqrt(resident_blocks tile_h / tile_w): a square wave).  Returns 0 when an argument is <= 0.
 * Any arguments: the F compared are exact (128-bit), and only the G near the real minimum are
 * tried, the smallest of each value of ceil(resident_blocks / G): a few (resident_blocks)^(1/4)
 * at most (about 2 x 10^5 at 2^63), not one per G. */

/* an unsigned 128-bit value, for exact comparisons of sums of two 63-bit products */
typedef struct cbi__u128 {
    uint64_t hi, lo;
} cbi__u128;

/* a b + c d for a, b, c, d < 2^63 (the sum < 2^127) */
CBI_FN cbi__u128 cbi__muladd128(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    cbi__u128 r;
    uint64_t lo[2], hi[2], v[2][2];
    int k;
    v[0][0] = a, v[0][1] = b, v[1][0] = c, v[1][1] = d;
    for (k = 0; k < 2; k++) {
        uint64_t x0 = v[k][0] & 0xffffffffu, x1 = v[k][0] >> 32, y0 = v[k][1] & 0xffffffffu, y1 = v[k][1] >> 32;
        uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
        uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
        lo[k] = (mid << 32) | (p00 & 0xffffffffu);
        hi[k] = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    }
    r.lo = lo[0] + lo[1];
    r.hi = hi[0] + hi[1] + (r.lo < lo[0]);
    return r;
}

CBI_FN int cbi__lt128(cbi__u128 a, cbi__u128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

/* the square root of v >= 0 to about the last bit (no C library: this header is also device code) */
CBI_FN double cbi__sqrt(double v)
{
    double x = 1;
    int i;
    if (!(v > 0)) return 0;
    while (x * x < v) x *= 2; /* at most 2^512 (v < 2^1024) */
    for (i = 0; i < 60; i++) {
        double y = 0.5 * (x + v / x);
        if (y >= x) break; /* from above, the Newton steps fall until they stop */
        x = y;
    }
    return x;
}

CBI_FN long long cbi_block_group(long long tiles_x, long long tile_w, long long tile_h, long long depth,
                                 int elem_bytes, long long cache_bytes, long long resident_blocks)
{
    long long nb = resident_blocks, gmax, g, g0, lo, hi, best, q;
    double gs, fu, disc, sq, gl, gr;
    cbi__u128 f, fbest;
    if (tiles_x <= 0 || tile_w <= 0 || tile_h <= 0 || depth <= 0 || elem_bytes <= 0 || cache_bytes <= 0 ||
        resident_blocks <= 0)
        return 0;
    /* row order: the wave covers all of B's columns and ceil(nb / tiles_x) tile rows of A (a sum
     * past INT64_MAX bytes fits no cache) */
    q = (nb - 1) / tiles_x + 1;
    if (tiles_x <= INT64_MAX / tile_w && q <= INT64_MAX / tile_h && tiles_x * tile_w <= INT64_MAX - q * tile_h &&
        (double)elem_bytes * depth * (tiles_x * tile_w + q * tile_h) <= (double)cache_bytes)
        return tiles_x;
    /* the minimum of F over G in 1..gmax: F(G) >= h(G) = tile_w G + tile_h nb / G (convex, least at
     * gs), so only the G with h(G) <= F(g0) can win; those lie between the roots gl, gr of
     * tile_w G^2 - F(g0) G + tile_h nb, each widened past the rounding of doubles */
    gmax = tiles_x < nb ? tiles_x : nb;
    gs = cbi__sqrt((double)tile_h * (double)nb / (double)tile_w);
    g0 = gs < 1 ? 1 : gs >= (double)gmax ? gmax : (long long)gs;
    q = (nb - 1) / g0 + 1;
    fu = ((double)tile_w * (double)g0 + (double)tile_h * (double)q) * (1 + 1e-12) + 1; /* >= F(g0) / (u depth) */
    disc = fu * fu * (1 + 1e-12) - 4 * (double)tile_w * (double)tile_h * (double)nb * (1 - 1e-12);
    sq = cbi__sqrt(disc > 0 ? disc : 0) * (1 + 1e-12) + 1;
    gl = 2 * (double)tile_h * (double)nb / (fu + sq) * (1 - 1e-9) - 2;
    gr = (fu + sq) / (2 * (double)tile_w) * (1 + 1e-9) + 2;
    lo = gl <= 1 ? 1 : gl >= (double)gmax ? gmax : (long long)gl;
    hi = gr >= (double)gmax ? gmax : gr <= 1 ? 1 : (long long)gr;
    /* the smallest G of each value of ceil(nb / G) in [lo, hi] (a larger G of the same value only
     * adds tile_w), in increasing G: the first of equal F is kept */
    best = lo;
    fbest.hi = fbest.lo = 0;
    for (g = lo;;) {
        q = (nb - 1) / g + 1;
        f = cbi__muladd128((uint64_t)g, (uint64_t)tile_w, (uint64_t)q, (uint64_t)tile_h);
        if (g == lo || cbi__lt128(f, fbest)) {
            fbest = f;
            best = g;
        }
        if (q == 1) break;
        g = (nb - 1) / (q - 1) + 1; /* the smallest G with ceil(nb / G) = q - 1 or less */
        if (g > hi) break;
    }
    return best;
}

#endif /* CBI_CBI_H */
#include <onchip/names_pop.h>
