#include <onchip/names_push.h>
/* ssam/conv_tc/frag.cuh -- the tensor-core fragments of conv_tc.cuh, per mode (lane level).
 *
 * WHAT
 *   For each mode (f64, tf32, tf32x3, f16, bf16; conv_tc.cuh says what each computes):
 *     ssam_tch_MODE / ssam_tch4_MODE   a lane's share of an 8-row slab of A (k8 pair / k4 element)
 *     ssam_tcb_MODE, ssam_tcc_MODE     B (band) and C (sums) fragments; ssam_tcp_MODE a plain C
 *     ssam_tc_slab_MODE(p), ssam_tc_slab4_MODE(p)    a slab from shared memory
 *     ssam_tc_b_MODE(w0, w1)           B from the lane's two band elements
 *     ssam_tc_zero_MODE(&c), ssam_tc_plain_MODE(c)   C cleared; C as one plain fragment
 *     ssam_tc_mma_MODE(&c, lo, hi, b), ssam_tc_mma4_MODE(...)   c += (lo over hi) b
 *     ssam_tc_store_MODE(dst, dp, y, x, ow, oh, pair, c)        C to rows y, y + 8, columns x, x + 1
 *     ssam_tc_store2_MODE(dst, dp, y, y2, x, ow, oh, pair, c)   the same at rows y, y2
 *   The modes as types: ssam_tc_mode_MODE (SSAM_TC_MODE(MODE)) names elem_t, weight_t, h_t, h4_t,
 *   b_t, c_t, p_t; the overloads ssam_tc_slab(md, p), ... ssam_tc_store2 take a mode value first.
 *   ssam__tc_nonfinite<MD>(acc): 1 where a sum of the fragments acc[D][JX] is not finite.
 *   SSAM_TC_T_MODE / SSAM_TC_W_MODE: the element and weight types.  Layouts:
 *   docs/pieces.md#tensor-core-pieces-ssamconv_tc.
 * LIMITS
 *   The MMAs need sm_80+ (conv_tc/mma.cuh); slab pointers 8-byte (float, half pair) or 16-byte
 *   (double) aligned.
 */
#ifndef SSAM_CONV_TC_FRAG_CUH
#define SSAM_CONV_TC_FRAG_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "mma.cuh"

/* ---- per-mode constants */
#define SSAM_TC_T_f64 double
#define SSAM_TC_T_tf32 float
#define SSAM_TC_T_tf32x3 float
#define SSAM_TC_T_f16 __half
#define SSAM_TC_T_bf16 __nv_bfloat16
/* the weights' type, the one the plain-FMA tile sums in: float for the half-storage modes */
#define SSAM_TC_W_f64 double
#define SSAM_TC_W_tf32 float
#define SSAM_TC_W_tf32x3 float
#define SSAM_TC_W_f16 float
#define SSAM_TC_W_bf16 float

/* ---- fragments (docs/ssam.md#conv-tc-frag): A = (slab at row offset r, slab at r + 8), a slab a
 * lane's share of 8 rows; k8: k = c, c + 4 at columns 2c, 2c + 1 (one load), k4: column c.
 * p: &tile[row g][column 2c] (k8) or [column c] (k4) */
typedef struct ssam_tch_f64 { double v[2]; } ssam_tch_f64;    /* slab, k8: (g, k c), (g, k c + 4) */
typedef struct ssam_tch4_f64 { double v; } ssam_tch4_f64;     /* slab, k4: (g, k c) */
typedef struct ssam_tcb_f64 { double v[2]; } ssam_tcb_f64;    /* B, k8: (k c, n g), (k c + 4, n g); k4: v[0] */
typedef struct ssam_tcc_f64 { double v[4]; } ssam_tcc_f64;    /* C: (g, 2c), (g, 2c+1), (g+8, 2c), (g+8, 2c+1) */
typedef struct ssam_tch_tf32 { unsigned v[2]; } ssam_tch_tf32;
typedef struct ssam_tch4_tf32 { unsigned v; } ssam_tch4_tf32;
typedef struct ssam_tcb_tf32 { unsigned v[2]; } ssam_tcb_tf32;
typedef struct ssam_tcc_tf32 { float v[4]; } ssam_tcc_tf32;
typedef struct ssam_tch_tf32x3 { unsigned big[2], small[2]; } ssam_tch_tf32x3;
typedef struct ssam_tch4_tf32x3 { unsigned big, small; } ssam_tch4_tf32x3;
typedef struct ssam_tcb_tf32x3 { unsigned big[2], small[2]; } ssam_tcb_tf32x3;
/* tf32x3 keeps two sums: big.big products start from zero and are added to v in FP32, the cross
 * terms chain in lo; why: docs/ssam.md#conv-tc-design */
typedef struct ssam_tcc_tf32x3 { float v[4], lo[4]; } ssam_tcc_tf32x3;
/* FP16 / BF16 (m16n8k8, FP32 sums): columns 2c, 2c + 1 are the MMA's k pair, the same columns as the
 * k8 modes' (docs/ssam.md#design-notes-ssamconv_tcfragcuh); k4: the second element zero */
typedef struct ssam_tch_f16 { unsigned v; } ssam_tch_f16;   /* slab: (g, columns 2c, 2c + 1); k4: (g, column c), 0 */
typedef struct ssam_tcb_f16 { unsigned v; } ssam_tcb_f16;   /* B: the band at columns 2c, 2c + 1 (k4: c, 0) */
typedef ssam_tch_f16 ssam_tch4_f16;
typedef ssam_tcc_tf32 ssam_tcc_f16;                         /* C: as tf32's */
typedef ssam_tch_f16 ssam_tch_bf16;
typedef ssam_tch_f16 ssam_tch4_bf16;
typedef ssam_tcb_f16 ssam_tcb_bf16;
typedef ssam_tcc_tf32 ssam_tcc_bf16;

/* one slab from shared memory (k8: the lane's pair; k4: one element); TF32: as it is (the tensor
 * core truncates), tf32x3: split */
static __device__ __forceinline__ ssam_tch_f64 ssam_tc_slab_f64(const double *p)
{
    const double2 r = *(const double2 *)p;
    ssam_tch_f64 h = {{r.x, r.y}};
    return h;
}
static __device__ __forceinline__ ssam_tch_tf32 ssam_tc_slab_tf32(const float *p)
{
    const float2 r = *(const float2 *)p;
    ssam_tch_tf32 h = {{__float_as_uint(r.x), __float_as_uint(r.y)}};
    return h;
}
static __device__ __forceinline__ ssam_tch_tf32x3 ssam_tc_slab_tf32x3(const float *p)
{
    const float2 r = *(const float2 *)p;
    ssam_tch_tf32x3 h;
    ssam__tf32_split(r.x, &h.big[0], &h.small[0]);
    ssam__tf32_split(r.y, &h.big[1], &h.small[1]);
    return h;
}
/* FP16 and BF16 slabs: the pair as one register, the k4 element zero-extended */
static __device__ __forceinline__ ssam_tch_f16 ssam__tc_slab16(const void *p)
{
    ssam_tch_f16 h = {*(const unsigned *)p};
    return h;
}
static __device__ __forceinline__ ssam_tch_f16 ssam__tc_slab4_16(const void *p)
{
    ssam_tch_f16 h = {(unsigned)*(const unsigned short *)p};
    return h;
}
#define ssam_tc_slab_f16 ssam__tc_slab16
#define ssam_tc_slab_bf16 ssam__tc_slab16
#define ssam_tc_slab4_f16 ssam__tc_slab4_16
#define ssam_tc_slab4_bf16 ssam__tc_slab4_16
static __device__ __forceinline__ ssam_tch4_f64 ssam_tc_slab4_f64(const double *p)
{
    ssam_tch4_f64 h = {p[0]};
    return h;
}
static __device__ __forceinline__ ssam_tch4_tf32 ssam_tc_slab4_tf32(const float *p)
{
    ssam_tch4_tf32 h = {__float_as_uint(p[0])};
    return h;
}
static __device__ __forceinline__ ssam_tch4_tf32x3 ssam_tc_slab4_tf32x3(const float *p)
{
    ssam_tch4_tf32x3 h;
    ssam__tf32_split(p[0], &h.big, &h.small);
    return h;
}

static __device__ __forceinline__ ssam_tcb_f64 ssam_tc_b_f64(double w0, double w1)
{
    ssam_tcb_f64 b = {{w0, w1}};
    return b;
}
static __device__ __forceinline__ ssam_tcb_tf32 ssam_tc_b_tf32(float w0, float w1)
{
    ssam_tcb_tf32 b = {{ssam_tf32(w0), ssam_tf32(w1)}};
    return b;
}
static __device__ __forceinline__ ssam_tcb_tf32x3 ssam_tc_b_tf32x3(float w0, float w1)
{
    ssam_tcb_tf32x3 b;
    ssam__tf32_split(w0, &b.big[0], &b.small[0]);
    ssam__tf32_split(w1, &b.big[1], &b.small[1]);
    return b;
}

/* the weights rounded to FP16 / BF16 (the data is stored in it already) */
static __device__ __forceinline__ ssam_tcb_f16 ssam_tc_b_f16(float w0, float w1)
{
    const __half2 h = __floats2half2_rn(w0, w1);
    ssam_tcb_f16 b = {*(const unsigned *)&h};
    return b;
}
static __device__ __forceinline__ ssam_tcb_bf16 ssam_tc_b_bf16(float w0, float w1)
{
    const __nv_bfloat162 h = __floats2bfloat162_rn(w0, w1);
    ssam_tcb_bf16 b = {*(const unsigned *)&h};
    return b;
}
static __device__ __forceinline__ void ssam_tc_zero_f64(ssam_tcc_f64 *c) { c->v[0] = c->v[1] = c->v[2] = c->v[3] = 0; }
static __device__ __forceinline__ void ssam_tc_zero_tf32(ssam_tcc_tf32 *c) { c->v[0] = c->v[1] = c->v[2] = c->v[3] = 0; }
static __device__ __forceinline__ void ssam_tc_zero_tf32x3(ssam_tcc_tf32x3 *c)
{
    for (int k = 0; k < 4; k++) c->v[k] = c->lo[k] = 0;
}

/* c += A b with A = (slab lo at rows g, slab hi at rows g + 8): k8 (ssam_tc_mma_MODE) and k4
 * (ssam_tc_mma4_MODE, B's first half) */
static __device__ __forceinline__ void ssam_tc_mma_f64(ssam_tcc_f64 *c, ssam_tch_f64 lo, ssam_tch_f64 hi, ssam_tcb_f64 b)
{
    const double a[4] = {lo.v[0], hi.v[0], lo.v[1], hi.v[1]};
    ssam__mma_f64_k8(c->v, a, b.v);
}
static __device__ __forceinline__ void ssam_tc_mma4_f64(ssam_tcc_f64 *c, ssam_tch4_f64 lo, ssam_tch4_f64 hi, ssam_tcb_f64 b)
{
    ssam__mma_f64_k4(c->v, lo.v, hi.v, b.v[0]);
}
static __device__ __forceinline__ void ssam_tc_mma_tf32(ssam_tcc_tf32 *c, ssam_tch_tf32 lo, ssam_tch_tf32 hi, ssam_tcb_tf32 b)
{
    const unsigned a[4] = {lo.v[0], hi.v[0], lo.v[1], hi.v[1]};
    ssam__mma_tf32_k8(c->v, a, b.v);
}
static __device__ __forceinline__ void ssam_tc_mma4_tf32(ssam_tcc_tf32 *c, ssam_tch4_tf32 lo, ssam_tch4_tf32 hi, ssam_tcb_tf32 b)
{
    ssam__mma_tf32_k4(c->v, lo.v, hi.v, b.v[0]);
}
static __device__ __forceinline__ void ssam_tc_mma_tf32x3(ssam_tcc_tf32x3 *c, ssam_tch_tf32x3 lo, ssam_tch_tf32x3 hi,
                                                          ssam_tcb_tf32x3 b)
{
    const unsigned ab[4] = {lo.big[0], hi.big[0], lo.big[1], hi.big[1]};
    const unsigned as[4] = {lo.small[0], hi.small[0], lo.small[1], hi.small[1]};
    float t[4] = {0, 0, 0, 0};
    ssam__mma_tf32_k8(c->lo, as, b.big);
    ssam__mma_tf32_k8(c->lo, ab, b.small);
    ssam__mma_tf32_k8(t, ab, b.big);
    for (int k = 0; k < 4; k++) c->v[k] += t[k];
}
static __device__ __forceinline__ void ssam_tc_mma4_tf32x3(ssam_tcc_tf32x3 *c, ssam_tch4_tf32x3 lo, ssam_tch4_tf32x3 hi,
                                                           ssam_tcb_tf32x3 b)
{
    float t[4] = {0, 0, 0, 0};
    ssam__mma_tf32_k4(c->lo, lo.small, hi.small, b.big[0]);
    ssam__mma_tf32_k4(c->lo, lo.big, hi.big, b.small[0]);
    ssam__mma_tf32_k4(t, lo.big, hi.big, b.big[0]);
    for (int k = 0; k < 4; k++) c->v[k] += t[k];
}

static __device__ __forceinline__ void ssam_tc_mma_f16(ssam_tcc_f16 *c, ssam_tch_f16 lo, ssam_tch_f16 hi, ssam_tcb_f16 b)
{
    ssam__mma_h16_k8(c->v, lo.v, hi.v, b.v, 0);
}
static __device__ __forceinline__ void ssam_tc_mma_bf16(ssam_tcc_bf16 *c, ssam_tch_bf16 lo, ssam_tch_bf16 hi, ssam_tcb_bf16 b)
{
    ssam__mma_h16_k8(c->v, lo.v, hi.v, b.v, 1);
}
/* the k4 tail is the k8 MMA (a zero second element); C starts as tf32's */
#define ssam_tc_mma4_f16 ssam_tc_mma_f16
#define ssam_tc_mma4_bf16 ssam_tc_mma_bf16
#define ssam_tc_zero_f16 ssam_tc_zero_tf32
#define ssam_tc_zero_bf16 ssam_tc_zero_tf32

/* ---- stores: C rows y and y + 8, columns x, x + 1 (x >= -1; pair: x even, x >= 0, pair stores
 * allowed); columns outside [0, ow) are not stored */
/* two sums as the storage type's pair (one 8- or 16-byte store), FP16 / BF16 rounded once */
static __device__ __forceinline__ double2 ssam__tc_pair(const double *, double v0, double v1) { return make_double2(v0, v1); }
static __device__ __forceinline__ float2 ssam__tc_pair(const float *, float v0, float v1) { return make_float2(v0, v1); }
static __device__ __forceinline__ __half2 ssam__tc_pair(const __half *, float v0, float v1) { return __floats2half2_rn(v0, v1); }
static __device__ __forceinline__ __nv_bfloat162 ssam__tc_pair(const __nv_bfloat16 *, float v0, float v1)
{
    return __floats2bfloat162_rn(v0, v1);
}
/* dst[y][x], dst[y][x + 1] = v0, v1: a pair store where allowed, else each inside; each forms its
 * row address itself (docs/ssam.md#conv-tc-frag) */
template <class T, class V>
static __device__ __forceinline__ void ssam__tc_put2(T *dst, long long dp, int y, int x, int ow, int pair, V v0, V v1)
{
    if (pair && x + 1 < ow) {
        *(decltype(ssam__tc_pair(dst, v0, v1)) *)((dst + (long long)y * dp) + x) = ssam__tc_pair(dst, v0, v1);
    } else {
        if ((unsigned)x < (unsigned)ow) (dst + (long long)y * dp)[x] = v0;
        if ((unsigned)(x + 1) < (unsigned)ow) (dst + (long long)y * dp)[x + 1] = v1;
    }
}
/* ssam_tc_store2_MODE: rows g and g + 8 stored at rows y and y2 (e.g. stencil_tc.cuh's dilated ones) */
static __device__ __forceinline__ void ssam_tc_store2_f64(double *dst, long long dp, int y, int y2, int x, int ow,
                                                          int oh, int pair, ssam_tcc_f64 c)
{
    if (y < oh) ssam__tc_put2(dst, dp, y, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) ssam__tc_put2(dst, dp, y2, x, ow, pair, c.v[2], c.v[3]);
}
static __device__ __forceinline__ void ssam_tc_store2_tf32(float *dst, long long dp, int y, int y2, int x, int ow,
                                                           int oh, int pair, ssam_tcc_tf32 c)
{
    if (y < oh) ssam__tc_put2(dst, dp, y, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) ssam__tc_put2(dst, dp, y2, x, ow, pair, c.v[2], c.v[3]);
}
/* FP16 / BF16: the FP32 sums rounded once to the storage type */
static __device__ __forceinline__ void ssam_tc_store2_f16(__half *dst, long long dp, int y, int y2, int x, int ow,
                                                          int oh, int pair, ssam_tcc_f16 c)
{
    if (y < oh) ssam__tc_put2(dst, dp, y, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) ssam__tc_put2(dst, dp, y2, x, ow, pair, c.v[2], c.v[3]);
}
static __device__ __forceinline__ void ssam_tc_store2_bf16(__nv_bfloat16 *dst, long long dp, int y, int y2, int x,
                                                           int ow, int oh, int pair, ssam_tcc_bf16 c)
{
    if (y < oh) ssam__tc_put2(dst, dp, y, x, ow, pair, c.v[0], c.v[1]);
    if (y2 < oh) ssam__tc_put2(dst, dp, y2, x, ow, pair, c.v[2], c.v[3]);
}
static __device__ __forceinline__ void ssam_tc_store_f16(__half *dst, long long dp, int y, int x, int ow, int oh, int pair,
                                                         ssam_tcc_f16 c)
{
    ssam_tc_store2_f16(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
static __device__ __forceinline__ void ssam_tc_store_bf16(__nv_bfloat16 *dst, long long dp, int y, int x, int ow, int oh,
                                                          int pair, ssam_tcc_bf16 c)
{
    ssam_tc_store2_bf16(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
static __device__ __forceinline__ void ssam_tc_store_f64(double *dst, long long dp, int y, int x, int ow, int oh,
                                                         int pair, ssam_tcc_f64 c)
{
    ssam_tc_store2_f64(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
static __device__ __forceinline__ void ssam_tc_store_tf32(float *dst, long long dp, int y, int x, int ow, int oh,
                                                          int pair, ssam_tcc_tf32 c)
{
    ssam_tc_store2_tf32(dst, dp, y, y + 8, x, ow, oh, pair, c);
}
/* a mode's sums as one plain fragment (v[4] in the fragment's layout; tf32x3 adds its two sums),
 * and its store (rows y, y2) */
typedef ssam_tcc_f64 ssam_tcp_f64;
typedef ssam_tcc_tf32 ssam_tcp_tf32;
typedef ssam_tcc_tf32 ssam_tcp_tf32x3;
static __device__ __forceinline__ ssam_tcp_f64 ssam_tc_plain_f64(ssam_tcc_f64 c) { return c; }
static __device__ __forceinline__ ssam_tcp_tf32 ssam_tc_plain_tf32(ssam_tcc_tf32 c) { return c; }
static __device__ __forceinline__ ssam_tcp_tf32x3 ssam_tc_plain_tf32x3(ssam_tcc_tf32x3 c)
{
    ssam_tcc_tf32 s;
    for (int k = 0; k < 4; k++) s.v[k] = c.v[k] + c.lo[k];
    return s;
}
typedef ssam_tcc_f16 ssam_tcp_f16;
typedef ssam_tcc_bf16 ssam_tcp_bf16;
#define ssam_tc_plain_f16 ssam_tc_plain_tf32
#define ssam_tc_plain_bf16 ssam_tc_plain_tf32
#define ssam_tc_storep2_f64 ssam_tc_store2_f64
#define ssam_tc_storep2_tf32 ssam_tc_store2_tf32
#define ssam_tc_storep2_tf32x3 ssam_tc_store2_tf32
static __device__ __forceinline__ void ssam_tc_store_tf32x3(float *dst, long long dp, int y, int x, int ow, int oh,
                                                            int pair, ssam_tcc_tf32x3 c)
{
    ssam_tc_store_tf32(dst, dp, y, x, ow, oh, pair, ssam_tc_plain_tf32x3(c));
}


/* the half modes' plain fragment is their sums */
#define ssam_tc_storep2_f16 ssam_tc_store2_f16
#define ssam_tc_storep2_bf16 ssam_tc_store2_bf16

/* ---- the modes as types (the usage block); the overloads take a mode value first */
#define SSAM_TC_MODE(MODE) ssam_tc_mode_##MODE
/* ssam_tc_mode_MODE and its overloads, each the function of the mode's name */
#define SSAM__TC_MODE_TYPE(MODE)                                                                           \
    typedef struct ssam_tc_mode_##MODE {                                                                   \
        typedef SSAM_TC_T_##MODE elem_t;   /* the image's element (storage) type */                        \
        typedef SSAM_TC_W_##MODE weight_t; /* the weights' type, the plain-FMA sums' */                    \
        typedef ssam_tch_##MODE h_t;                                                                       \
        typedef ssam_tch4_##MODE h4_t;                                                                     \
        typedef ssam_tcb_##MODE b_t;                                                                       \
        typedef ssam_tcc_##MODE c_t;                                                                       \
        typedef ssam_tcp_##MODE p_t;                                                                       \
    } ssam_tc_mode_##MODE;                                                                                 \
    static __device__ __forceinline__ ssam_tch_##MODE ssam_tc_slab(ssam_tc_mode_##MODE,                    \
                                                                   const SSAM_TC_T_##MODE *p)              \
    { return ssam_tc_slab_##MODE(p); }                                                                     \
    static __device__ __forceinline__ ssam_tch4_##MODE ssam_tc_slab4(ssam_tc_mode_##MODE,                  \
                                                                     const SSAM_TC_T_##MODE *p)            \
    { return ssam_tc_slab4_##MODE(p); }                                                                    \
    static __device__ __forceinline__ ssam_tcb_##MODE ssam_tc_b(ssam_tc_mode_##MODE, SSAM_TC_W_##MODE w0,  \
                                                                SSAM_TC_W_##MODE w1)                       \
    { return ssam_tc_b_##MODE(w0, w1); }                                                                   \
    static __device__ __forceinline__ void ssam_tc_zero(ssam_tc_mode_##MODE, ssam_tcc_##MODE *c)           \
    { ssam_tc_zero_##MODE(c); }                                                                            \
    static __device__ __forceinline__ ssam_tcp_##MODE ssam_tc_plain(ssam_tc_mode_##MODE,                   \
                                                                    ssam_tcc_##MODE c)                     \
    { return ssam_tc_plain_##MODE(c); }                                                                    \
    static __device__ __forceinline__ void ssam_tc_mma(ssam_tc_mode_##MODE, ssam_tcc_##MODE *c,            \
                                                       ssam_tch_##MODE lo, ssam_tch_##MODE hi,             \
                                                       ssam_tcb_##MODE b)                                  \
    { ssam_tc_mma_##MODE(c, lo, hi, b); }                                                                  \
    static __device__ __forceinline__ void ssam_tc_mma4(ssam_tc_mode_##MODE, ssam_tcc_##MODE *c,           \
                                                        ssam_tch4_##MODE lo, ssam_tch4_##MODE hi,          \
                                                        ssam_tcb_##MODE b)                                 \
    { ssam_tc_mma4_##MODE(c, lo, hi, b); }                                                                 \
    static __device__ __forceinline__ void ssam_tc_store(ssam_tc_mode_##MODE, SSAM_TC_T_##MODE *dst,       \
                                                         long long dp, int y, int x, int ow, int oh,       \
                                                         int pair, ssam_tcc_##MODE c)                      \
    { ssam_tc_store_##MODE(dst, dp, y, x, ow, oh, pair, c); }                                              \
    static __device__ __forceinline__ void ssam_tc_store2(ssam_tc_mode_##MODE, SSAM_TC_T_##MODE *dst,      \
                                                          long long dp, int y, int y2, int x, int ow,      \
                                                          int oh, int pair, ssam_tcp_##MODE c)             \
    { ssam_tc_storep2_##MODE(dst, dp, y, y2, x, ow, oh, pair, c); }
SSAM__TC_MODE_TYPE(f64)
SSAM__TC_MODE_TYPE(tf32)
SSAM__TC_MODE_TYPE(tf32x3)
SSAM__TC_MODE_TYPE(f16)
SSAM__TC_MODE_TYPE(bf16)
#undef SSAM__TC_MODE_TYPE

/* 1 where a sum of one of the fragments acc is not finite (an Inf or NaN, or an overflow) */
template <class MD, int D, int JX>
static __device__ __forceinline__ int ssam__tc_nonfinite(const typename MD::c_t (&acc)[D][JX])
{
    int bad = 0;
#pragma unroll
    for (int o = 0; o < D; o++)
#pragma unroll
        for (int j = 0; j < JX; j++) {
            const typename MD::p_t p = ssam_tc_plain(MD(), acc[o][j]);
#pragma unroll
            for (int k = 0; k < 4; k++) bad |= !isfinite(p.v[k]);
        }
    return bad;
}

#endif /* SSAM_CONV_TC_FRAG_CUH */
#include <onchip/names_pop.h>
