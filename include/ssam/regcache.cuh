#include <onchip/names_push.h>
/* ssam/regcache.cuh -- the register cache: a warp's tile of rows held in each lane's registers.
 *
 * WHAT (SSAM section 4.2, Fig. 2a; docs/ssam.md#design-notes-ssamregcachecuh)
 *   Each lane caches V adjacent columns (one 16-byte vector) by R rows of the input in T data[V][R];
 *   the warp's loads of a row are coalesced and the borders are applied as the data is loaded, so
 *   the compute loop never branches.  R = P + N - 1 for P output rows of an N-row filter (output
 *   row p reads data[.][p .. p+N-1]); SSAM_REGCACHE_SLIDE keeps the last N-1 rows and
 *   SSAM_REGCACHE_ROWS loads the next P.
 *
 * EXAMPLE
 *   [not compiled: a piece of a kernel (C, src, lane, ... from the kernel)]
 *     float data[4][C];
 *     SSAM_REGCACHE_LOAD(float, 4, C, data, src, pitch, x0 + 4 * lane, y0, w, h,
 *                        SSAM_BORDER_REFLECT, 0.0f, aligned);
 *
 * PARAMETERS
 *   T element type; V columns per lane, R rows (compile-time); data the T[V][R] array; src the
 *   input (device, row pitch `pitch` elements); x the lane's first column (may lie outside), y the
 *   first row; w, h the image size; border an SSAM_BORDER_* mode; cval the constant of
 *   SSAM_BORDER_CONSTANT; vec nonzero for 16-byte loads (ssam_vec_ok()).
 *   Raw rows (prefetching half types): SSAM_REGCACHE_ROWS_RAW, _UNPACK, _BITS, _FROM_BITS.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#pieces-glossary.
 * COST
 *   V*R registers; R loads per lane.  Register arrays are indexed with constants only.
 */
#ifndef SSAM_REGCACHE_CUH
#define SSAM_REGCACHE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: uint4 is built in, the integer types come from base.cuh */
#include <stdint.h>
#include <vector_types.h>
#endif

#include "base.cuh"

/* may a kernel use 16-byte loads of V-element vectors on this buffer? */
static __host__ __device__ __forceinline__ int ssam_vec_ok(const void *p, long long pitch, int v)
{
    return ((uintptr_t)p % 16u) == 0 && pitch % v == 0;
}

/* a 16-byte vector of V elements of T, for loads and stores of a lane's columns */
template <class T, int V>
struct __align__(16) ssam_vec {
    T v[V];
};
#define SSAM__VEC(T, V) ssam_vec<T, V>

/* a raw vector and its V elements of type TS, one 16-byte union */
template <class TS, int V>
union ssam_rawu {
    uint4 r;
    TS t[V];
};
#define SSAM_REGCACHE_RAWU(TS, V) ssam_rawu<TS, V>

/* The lane's V column indices x .. x+V-1, mapped by the border once: cx[j] (-1: constant), and
 * in = 1 when all V lie inside and 16-byte loads are allowed. */
template <int V>
static __device__ __forceinline__ void ssam_regcache_columns(int (&cx)[V], int &in, int x, int w, int border, int vec)
{
    in = vec && x >= 0 && x + V <= w;
#pragma unroll
    for (int j = 0; j < V; j++) cx[j] = ssam_border_index(x + j, w, border);
}
#define SSAM_REGCACHE_COLUMNS(V, cx, in, x, w, border, vec) ssam_regcache_columns<V>(cx, in, x, w, border, vec)

/* NR rows into data[.][r0 ..] (T) from storage TS, converted as loaded; row r is image row rows[r]
 * (border-mapped, -1 constant; shared table or registers), columns cx / in of ssam_regcache_columns */
template <int NR, class TS, class T, int V, int R>
static __device__ __forceinline__ void ssam_regcache_rows_as(T (&data)[V][R], int r0, const TS *src, long long pitch,
                                                             int x, const int (&cx)[V], int in, const int *rows, T cval)
{
#pragma unroll
    for (int r = 0; r < NR; r++) {
        const int yy = rows[r];
        /* a compiler barrier a row (inside vectors only); why: docs/ssam.md#regcache-raw */
        if (in) asm volatile("" ::: "memory");
        const TS *row = src + (long long)(yy < 0 ? 0 : yy) * pitch;
        if (yy >= 0 && in) {
            const ssam_vec<TS, V> q = *(const ssam_vec<TS, V> *)(row + x);
#pragma unroll
            for (int j = 0; j < V; j++) data[j][r0 + r] = (T)q.v[j];
        } else {
#pragma unroll
            for (int j = 0; j < V; j++) data[j][r0 + r] = (yy < 0 || cx[j] < 0) ? cval : (T)row[cx[j]];
        }
    }
}
#define SSAM_REGCACHE_ROWS_AS(TS, T, V, data, r0, NR, src, pitch, x, cx, in, rows, cval)                    \
    ssam_regcache_rows_as<NR, TS, T>(data, r0, src, pitch, x, cx, in, rows, (T)(cval))
#define SSAM_REGCACHE_ROWS(T, V, data, r0, NR, src, pitch, x, cx, in, rows, cval)                           \
    ssam_regcache_rows_as<NR, T, T>(data, r0, src, pitch, x, cx, in, rows, (T)(cval))

/* the same rows raw, raw[r0 + r] the lane's 16 bytes, unpacked where used; cval converted where a
 * cell takes it.  why: docs/ssam.md#regcache-raw */
template <int NR, class TS, int V, int NRAW, class C>
static __device__ __forceinline__ void ssam_regcache_rows_raw(uint4 (&raw)[NRAW], int r0, const TS *src, long long pitch,
                                                              int x, const int (&cx)[V], int in, const int *rows, C cval)
{
#pragma unroll
    for (int r = 0; r < NR; r++) {
        const int yy = rows[r];
        const TS *row = src + (long long)(yy < 0 ? 0 : yy) * pitch;
        if (yy >= 0 && in) {
            raw[r0 + r] = *(const uint4 *)(row + x);
        } else {
            ssam_rawu<TS, V> u;
#pragma unroll
            for (int j = 0; j < V; j++) u.t[j] = (yy < 0 || cx[j] < 0) ? (TS)cval : row[cx[j]];
            raw[r0 + r] = u.r;
        }
    }
}
#define SSAM_REGCACHE_ROWS_RAW(TS, V, raw, r0, NR, src, pitch, x, cx, in, rows, cval)                      \
    ssam_regcache_rows_raw<NR, TS, V>(raw, r0, src, pitch, x, cx, in, rows, cval)

/* data[.][d0 + r] (type T) = raw row r0 + r (V elements of type TS), converted, for NR rows */
template <int NR, class TS, class T, int V, int R, int NRAW>
static __device__ __forceinline__ void ssam_regcache_unpack(T (&data)[V][R], int d0, const uint4 (&raw)[NRAW], int r0)
{
#pragma unroll
    for (int r = 0; r < NR; r++) {
        ssam_rawu<TS, V> u;
        u.r = raw[r0 + r];
#pragma unroll
        for (int j = 0; j < V; j++) data[j][d0 + r] = (T)u.t[j];
    }
}
#define SSAM_REGCACHE_UNPACK(TS, T, V, data, d0, raw, r0, NR) ssam_regcache_unpack<NR, TS>(data, d0, raw, r0)

/* one 2- or 4-byte element's bits as a word, zero-extended by the load itself (not a union), and back */
template <class TS>
static __device__ __forceinline__ unsigned ssam_regcache_bits(const TS *p)
{
    if (sizeof(TS) == 2) return (unsigned)*(const unsigned short *)p;
    return *(const unsigned *)p;
}
template <class TS, class T>
static __device__ __forceinline__ T ssam_regcache_from_bits(unsigned bits)
{
    union {
        unsigned u;
        TS t;
    } b;
    b.u = bits;
    return (T)b.t;
}
#define SSAM_REGCACHE_BITS(TS, p) ssam_regcache_bits<TS>(p)
#define SSAM_REGCACHE_FROM_BITS(TS, T, bits, out) ((out) = ssam_regcache_from_bits<TS, T>(bits))

/* slide the window down by S rows: data[.][r] = data[.][r + S] for r < KEEP */
template <int KEEP, int S, class T, int V, int R>
static __device__ __forceinline__ void ssam_regcache_slide(T (&data)[V][R])
{
#pragma unroll
    for (int r = 0; r < KEEP; r++)
#pragma unroll
        for (int j = 0; j < V; j++) data[j][r] = data[j][r + S];
}
#define SSAM_REGCACHE_SLIDE(V, data, KEEP, S) ssam_regcache_slide<KEEP, S>(data)

/* rows y .. y+R-1, columns x .. x+V-1 of src (borders applied) into data[V][R] */
template <class T, int V, int R>
static __device__ __forceinline__ void ssam_regcache_load(T (&data)[V][R], const T *src, long long pitch, int x, int y,
                                                          int w, int h, int border, T cval, int vec)
{
    int cx[V], in, rows[R];
    ssam_regcache_columns<V>(cx, in, x, w, border, vec);
#pragma unroll
    for (int r = 0; r < R; r++) rows[r] = ssam_border_index(y + r, h, border);
    ssam_regcache_rows_as<R, T, T>(data, 0, src, pitch, x, cx, in, rows, cval);
}
#define SSAM_REGCACHE_LOAD(T, V, R, data, src, pitch, x, y, w, h, border, cval, vec)                        \
    ssam_regcache_load<T, V, R>(data, src, pitch, x, y, w, h, border, (T)(cval), vec)

#endif /* SSAM_REGCACHE_CUH */
#include <onchip/names_pop.h>
