#include <onchip/names_push.h>
/* cbi/cbi.h -- column-based iteration: remap linear work indices into column order.
 *
 * WHAT (Prasetya 2022, "Column based iteration", section 4.1; docs/cbi.md#design-notes-cbicbih)
 *   Walks a width x height domain in columns of width w, each row by row (the last one narrower):
 *   consecutive threads stay in a w-wide strip whose re-read rows stay in cache.  A plan holds the
 *   invariant parts (Listing 8; CBI_INDEX32: no division).  Also zigzag, the inverse, N-D folded to
 *   2D, blocks over tiles in column groups, width choosers.  C99, host and device.
 *
 * EXAMPLE (Listing 5 of the thesis, with a plan)
 *   [compile: unsigned width, height; const float *in; float *out]
 *     #include <cbi/cbi.h>
 *     #include <stdio.h>
 *     __global__ void k(cbi_plan p, const float *in, float *out) {
 *         unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
 *         if (tid >= p.cells) return;
 *         cbi_remap32_xy(&p, tid, &x, &y);   // this thread's cell
 *         out[y * p.width + x] = in[y * p.width + x];
 *     }
 *
 *     cbi_plan p;
 *     int rc = cbi_plan_make(&p, width, height, 32, CBI_INDEX32);   // 0 or a CBI_E* code
 *     if (rc) fprintf(stderr, "%s\n", cbi_strerror(rc));
 *     k<<<(width * height + 255) / 256, 256>>>(p, in, out);
 *
 *   Blocks over tiles, column groups of 8: the same plan on tiles_x x tiles_y, remap blockIdx.x.
 *
 * PARAMETERS AND LIMITS
 *   width, height >= 1; w >= 1 (w >= width: the identity, cbi_plan_is_identity).  Indices are
 *   long long; CBI_INDEX32 also requires width * height <= 2^32 - 1 and makes cbi_remap32* valid
 *   (undefined on other plans).  Errors are return values, never a wrong mapping.
 * COST: cbi_remap32_xy 2 multiply-highs and a few integer ops; the plan 80 bytes (docs/cbi.md#costs).
 * GLOSSARY of the internal bodies' names: docs/cbi.md#cbi-glossary.
 */
#ifndef CBI_CBI_H
#define CBI_CBI_H

#include <onchip/stdint.h> /* also under NVRTC */

#ifdef __CUDACC__
#define CBI_FN static __host__ __device__ __forceinline__
#else
#define CBI_FN static inline
#endif

#define CBI_VERSION 100 /* 1.0.0 */
#define CBI_MAX_DIMS 8

/* status codes: cbi_strerror says each */
#define CBI_SUCCESS 0
#define CBI_EDIM 1
#define CBI_EWIDTH 2
#define CBI_EOVERFLOW 3
#define CBI_ENULL 4
#define CBI_ENDIM 5

#define CBI_ZIGZAG 1u   /* reverse x on odd rows of each column (eq. 4.7) */
#define CBI_INDEX32 2u  /* width*height <= 2^32-1: cbi_remap32* valid */

typedef struct cbi_plan {
    long long width, height; /* after folding */
    long long cells;
    long long w;             /* column width, <= width */
    long long nfull;         /* full-width columns */
    long long lastw;         /* the narrow last column's width, 0 when w divides width */
    long long colsize;       /* w * height */
    unsigned flags;
    uint32_t m_col, m_w, m_last; /* multiply-shift divisors (CBI_INDEX32) */
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

/* ---- division by an invariant 32-bit divisor (Granlund & Montgomery; docs/cbi.md#costs) */
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

/* ---- plans */

/* the column remap of a width x height domain, column width w */
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

/* N-D dims folded to 2D: width dims[0], height the product of the rest */
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

/* blocks over tiles_x x tiles_y tiles in column groups of `group` (= cbi_plan_make) */
CBI_FN int cbi_block_plan_make(cbi_plan *p, long long tiles_x, long long tiles_y, long long group,
                               unsigned flags)
{
    return cbi_plan_make(p, tiles_x, tiles_y, group, flags);
}

/* the remap is the identity (one column): a caller may skip it */
CBI_FN int cbi_plan_is_identity(const cbi_plan *p)
{
    return p->w >= p->width && (p->height == 1 || !(p->flags & CBI_ZIGZAG) || p->width == 1);
}

/* ---- the remap (64-bit, any plan) */

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

/* the inverse: the index i whose remap is cell j (0 <= j < cells) */
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

/* ---- the remap (32-bit, no division; a CBI_INDEX32 plan) */

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

/* a cbi_plan_make_nd plan's folded y into coords[1..ndims-1] (coords[0]: the remap's x) */
CBI_FN void cbi_unfold(long long y, int ndims, const long long *dims, long long *coords)
{
    int d;
    for (d = 1; d < ndims; d++) {
        coords[d] = y % dims[d];
        y /= dims[d];
    }
}

/* ---- the column width: the cache models rounded down to a multiple of 32; the width when the
 * naive order fits; 0 on an argument <= 0 (docs/cbi.md#choosing-the-width) */
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

/* ---- the block group: the G minimising a wave's bytes F(G) (docs/cbi.md#choosing-the-width) */

typedef struct cbi__u128 {
    uint64_t hi, lo;
} cbi__u128;

/* a b + c d, all < 2^63 */
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

/* sqrt to about the last bit (no C library: device code too) */
CBI_FN double cbi__sqrt(double v)
{
    double x = 1;
    int i;
    if (!(v > 0)) return 0;
    while (x * x < v) x *= 2;
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
    /* row order fits: no grouping */
    q = (nb - 1) / tiles_x + 1;
    if (tiles_x <= INT64_MAX / tile_w && q <= INT64_MAX / tile_h && tiles_x * tile_w <= INT64_MAX - q * tile_h &&
        (double)elem_bytes * depth * (tiles_x * tile_w + q * tile_h) <= (double)cache_bytes)
        return tiles_x;
    /* only G between the roots of tile_w G^2 - F(g0) G + tile_h nb can win (docs/cbi.md) */
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
    /* the smallest G of each ceil(nb / G), increasing: the first of equal F is kept */
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
