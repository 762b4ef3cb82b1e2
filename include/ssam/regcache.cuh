/* ssam/regcache.cuh -- the register cache: a warp's tile of rows held in each lane's registers.
 *
 * WHAT (SSAM section 4.2, Fig. 2a)
 *   Each lane of a warp caches a column strip of the input: V adjacent columns (one 16-byte vector:
 *   4 floats or 2 doubles) by R rows, in a register array T data[V][R].  Across the warp the 32
 *   lanes read 32*V consecutive elements of each row -- coalesced, 16-byte loads where the row is
 *   aligned -- and the borders are applied as the data is loaded, so the compute loop never
 *   branches.  R = P + N - 1 for P output rows of an N-row filter (the sliding window: output row
 *   p reads data[.][p .. p+N-1]).  Streaming down a column, SSAM_REGCACHE_SLIDE keeps the last N-1
 *   rows and SSAM_REGCACHE_ROWS loads the next P, so each input row is loaded once per warp.
 *
 * EXAMPLE
 *     float data[4][C];
 *     SSAM_REGCACHE_LOAD(float, 4, C, data, src, pitch, x0 + 4 * lane, y0, w, h,
 *                        SSAM_BORDER_REFLECT, 0.0f, aligned);
 *
 * PARAMETERS
 *   T element type; V columns per lane (compile-time); R rows (compile-time); data the T[V][R]
 *   array; src the input (device, row pitch `pitch` elements); x the lane's first column (may lie
 *   outside the image), y the first row; w, h the image size; border an SSAM_BORDER_* mode; cval
 *   the constant for SSAM_BORDER_CONSTANT; vec nonzero when src and pitch allow 16-byte loads
 *   (src 16-byte aligned and pitch a multiple of V: ssam_vec_ok()).
 * RAW ROWS (prefetching half types)
 *   SSAM_REGCACHE_ROWS_RAW loads rows as uint4 without converting them, SSAM_REGCACHE_UNPACK
 *   converts them where they enter the window, SSAM_REGCACHE_BITS / _FROM_BITS do the same for
 *   single elements: a load whose data is converted at once stalls the warp right there.
 * COST
 *   V*R registers; R loads per lane (16-byte each inside the image, V scalar loads per row where
 *   the lane's columns cross an edge).  Register arrays are indexed with constants only.
 */
#ifndef SSAM_REGCACHE_CUH
#define SSAM_REGCACHE_CUH

#include <stdint.h>
#include <vector_types.h>

#include "base.cuh"

/* may a kernel use 16-byte loads of V-element vectors on this buffer? */
static __host__ __device__ __forceinline__ int ssam_vec_ok(const void *p, long long pitch, int v)
{
    return ((uintptr_t)p % 16u) == 0 && pitch % v == 0;
}

/* a 16-byte vector of V elements of T, for loads and stores of a lane's columns */
#define SSAM__VEC(T, V)            \
    struct __align__(16) {         \
        T v[V];                    \
    }


/* The lane's V column indices x .. x+V-1, mapped by the border once: cx[j] (-1: constant), and
 * in = 1 when all V lie inside and 16-byte loads are allowed. */
#define SSAM_REGCACHE_COLUMNS(V, cx, in, x, w, border, vec)                                                 \
    do {                                                                                                   \
        (in) = (vec) && (x) >= 0 && (x) + (V) <= (w);                                                      \
        _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)(cx)[ssam__j] =                  \
            ssam_border_index((x) + ssam__j, (w), (border));                                               \
    } while (0)

/* Load NR rows into data[.][r0 .. r0+NR-1]; row r comes from image row rows[r] (already mapped by
 * the border: -1 is a constant row), columns x .. x+V-1 mapped by SSAM_REGCACHE_COLUMNS (cx, in).
 * rows may live in shared memory (a table the block fills once) or registers. */
#define SSAM_REGCACHE_ROWS(T, V, data, r0, NR, src, pitch, x, cx, in, rows, cval)                           \
    SSAM_REGCACHE_ROWS_AS(T, T, V, data, r0, NR, src, pitch, x, cx, in, rows, cval)

/* The same from storage of type TS (e.g. __half, __nv_bfloat16: V = 8 per 16-byte vector) into a
 * cache of type T (e.g. float), each element converted as it is loaded. */
#define SSAM_REGCACHE_ROWS_AS(TS, T, V, data, r0, NR, src, pitch, x, cx, in, rows, cval)                    \
    do {                                                                                                   \
        typedef SSAM__VEC(TS, V) ssam__vec_t;                                                              \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NR); ssam__r++) {                               \
            const int ssam__yy = (rows)[ssam__r];                                                          \
            const TS *ssam__row = (src) + (long long)(ssam__yy < 0 ? 0 : ssam__yy) * (pitch);              \
            if (ssam__yy >= 0 && (in)) {                                                                   \
                const ssam__vec_t ssam__q = *(const ssam__vec_t *)(ssam__row + (x));                       \
                _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)                          \
                    (data)[ssam__j][(r0) + ssam__r] = (T)ssam__q.v[ssam__j];                               \
            } else {                                                                                       \
                _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)                          \
                    (data)[ssam__j][(r0) + ssam__r] = (ssam__yy < 0 || (cx)[ssam__j] < 0)                  \
                                                          ? (T)(cval) : (T)ssam__row[(cx)[ssam__j]];       \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* a raw vector and its V elements of type TS, one 16-byte union */
#define SSAM_REGCACHE_RAWU(TS, V)                                                                          \
    union {                                                                                                \
        uint4 r;                                                                                           \
        TS t[V];                                                                                           \
    }

/* The same rows left raw: raw[r0 + r] (uint4: the 16 bytes of the lane's V elements of type TS) for
 * NR rows.  A converting load (SSAM_REGCACHE_ROWS_AS with TS != T) makes the warp wait for the data
 * where the load is issued, since the conversion follows it; raw rows wait only where they are
 * unpacked, so a prefetch stays in flight (H200, conv half 3x3: 0.155 -> 0.082 ms with the queued
 * walk, which does this).  Constant rows and cells (-1) take cval. */
#define SSAM_REGCACHE_ROWS_RAW(TS, V, raw, r0, NR, src, pitch, x, cx, in, rows, cval)                      \
    do {                                                                                                   \
        typedef SSAM_REGCACHE_RAWU(TS, V) ssam__rawu_t;                                                    \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NR); ssam__r++) {                               \
            const int ssam__yy = (rows)[ssam__r];                                                          \
            const TS *ssam__row = (src) + (long long)(ssam__yy < 0 ? 0 : ssam__yy) * (pitch);              \
            if (ssam__yy >= 0 && (in)) {                                                                   \
                (raw)[(r0) + ssam__r] = *(const uint4 *)(ssam__row + (x));                                 \
            } else {                                                                                       \
                ssam__rawu_t ssam__u;                                                                      \
                _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++) ssam__u.t[ssam__j] =    \
                    (ssam__yy < 0 || (cx)[ssam__j] < 0) ? (TS)(cval) : ssam__row[(cx)[ssam__j]];           \
                (raw)[(r0) + ssam__r] = ssam__u.r;                                                         \
            }                                                                                              \
        }                                                                                                  \
    } while (0)

/* data[.][d0 + r] (type T) = raw row r0 + r (V elements of type TS), converted, for NR rows */
#define SSAM_REGCACHE_UNPACK(TS, T, V, data, d0, raw, r0, NR)                                               \
    do {                                                                                                   \
        typedef SSAM_REGCACHE_RAWU(TS, V) ssam__rawu_t;                                                    \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (NR); ssam__r++) {                               \
            ssam__rawu_t ssam__u;                                                                          \
            ssam__u.r = (raw)[(r0) + ssam__r];                                                             \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)                              \
                (data)[ssam__j][(d0) + ssam__r] = (T)ssam__u.t[ssam__j];                                   \
        }                                                                                                  \
    } while (0)

/* The bits of one element of a 2- or 4-byte type as a word, zero-extended by the load itself (a
 * union would clear the high half with an instruction that waits on the load), and back. */
#define SSAM_REGCACHE_BITS(TS, p) (sizeof(TS) == 2 ? (unsigned)*(const unsigned short *)(p) : *(const unsigned *)(p))
#define SSAM_REGCACHE_FROM_BITS(TS, T, bits, out)                                                          \
    do {                                                                                                   \
        union {                                                                                            \
            unsigned u;                                                                                    \
            TS t;                                                                                          \
        } ssam__b;                                                                                         \
        ssam__b.u = (bits);                                                                                \
        (out) = (T)ssam__b.t;                                                                              \
    } while (0)

/* Slide the window down by S rows: data[.][r] = data[.][r + S] for r < KEEP (register moves). */
#define SSAM_REGCACHE_SLIDE(V, data, KEEP, S)                                                                \
    do {                                                                                                   \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (KEEP); ssam__r++)                               \
            _Pragma("unroll") for (int ssam__j = 0; ssam__j < (V); ssam__j++)                              \
                (data)[ssam__j][ssam__r] = (data)[ssam__j][ssam__r + (S)];                                 \
    } while (0)

/* Load rows y .. y+R-1, columns x .. x+V-1 of src (borders applied) into data[V][R]. */
#define SSAM_REGCACHE_LOAD(T, V, R, data, src, pitch, x, y, w, h, border, cval, vec)                        \
    do {                                                                                                   \
        int ssam__cx[V], ssam__in, ssam__rows[R];                                                          \
        SSAM_REGCACHE_COLUMNS(V, ssam__cx, ssam__in, (x), (w), (border), (vec));                           \
        _Pragma("unroll") for (int ssam__r = 0; ssam__r < (R); ssam__r++) ssam__rows[ssam__r] =           \
            ssam_border_index((y) + ssam__r, (h), (border));                                               \
        SSAM_REGCACHE_ROWS(T, V, data, 0, R, src, pitch, (x), ssam__cx, ssam__in, ssam__rows, cval);       \
    } while (0)

#endif /* SSAM_REGCACHE_CUH */
