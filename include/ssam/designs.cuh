#include <onchip/names_push.h>
/* ssam/designs.cuh -- the 1-D convolution systolic designs of the URE paper, as warp kernels.
 *
 * WHAT (Rong et al., "Systolic design space exploration with uniform recurrence equations", the Intel
 * URE paper, section 5, Tables 2-4; the designs: docs/ssam.md#1-d-systolic-designs-designscuh)
 *   A design names what the input, the weight and the partial sum do in the processing elements
 *   (lanes): Stay, Broadcast, Forward; Migrate or Sediment: SBM (SSAM's own), BSM, FSM, BFS, FFS,
 *   FBS (the paper's new design).  Stride 2: the polyphase streams, the two results added.
 *
 * PIECES (function templates; D one of SSAM_DESIGN_SBM ... SSAM_DESIGN_FBS)
 *   ssam_design1d_tile<D, T, Q, S>(x, n, y, nout, c0, w)   one warp (all 32 lanes) computes and
 *       stores the ssam_design1d_tile_size<D, T, Q, S>() outputs from c0; w: Q taps indexed with
 *       constants (kernel parameters or constant memory)
 *   ssam_design1d_body<D, T, Q, S, B>(x, y, n, nout, w)   the kernel body: the warps stride the tiles
 *   SSAM_DESIGN1D_TILE(D, T, Q, S, ...), SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S): D as a token (SBM ...).
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#pieces-glossary.
 *
 * EXAMPLE
 *   [compile: const float *d_x; float *d_y; int n; const float *h_w; cudaStream_t stream]
 *     #include <ssam/designs.cuh>
 *     SSAM_DESIGN1D_DEFINE(fbs5, float, FBS, 5, 1, 256)   // FBS design, 5 taps, stride 1, 256 threads
 *
 *     ssam_design1d_args a = { d_x, d_y, n, h_w, 0 };      // h_w: the 5 taps, in HOST memory
 *     int rc = fbs5_launch(&a, stream);                    // y[c] = sum_q h_w[q] x[c + q]
 *
 * SEMANTICS AND LIMITS
 *   'valid' correlation y[c] = sum_{q<Q} w[q] x[S c + q], c < ssam_design1d_outputs(n, Q, S), in T;
 *   SSAM_CONVOLVE flips the taps.  T float or double, Q 1..32, S 1 or 2, B a multiple of 32 from 32
 *   to 1024 (static_asserts); n >= Q.  Codes: SSAM_ENULL, SSAM_ESIZE, SSAM_EFLAGS, SSAM_EOVERLAP,
 *   SSAM_ECUDA.  NVRTC: name_kernel only (docs/ssam.md#design-notes-ssamdesignscuh).
 */
#ifndef SSAM_DESIGNS_CUH
#define SSAM_DESIGNS_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#include <string.h>
#endif

#include "base.cuh"

typedef struct ssam_design1d_args {
    const void *src;     /* n samples of T (device) */
    void *dst;           /* ssam_design1d_outputs(n, Q, S) results of T (device) */
    long long n;         /* input length */
    const void *weights; /* Q taps of T (host memory) */
    unsigned flags;      /* 0 or SSAM_CONVOLVE */
} ssam_design1d_args;

#ifndef __CUDACC_RTC__ /* host code */
static inline long long ssam_design1d_outputs(long long n, int q, int s)
{
    return (n < q || q < 1 || s < 1) ? 0 : (n - q) / s + 1;
}
#endif

/* the designs (the generators paste SSAM_DESIGN_##D from the token) */
enum { SSAM_DESIGN_SBM = 1, SSAM_DESIGN_BSM, SSAM_DESIGN_FSM, SSAM_DESIGN_BFS, SSAM_DESIGN_FFS, SSAM_DESIGN_FBS };

/* taps of phase f (0 <= f < s) of q taps at stride s: w(s k + f) for k < ssam__d1_qf(q, s, f) */
static __host__ __device__ constexpr int ssam__d1_qf(int q, int s, int f)
{
    return (q - f + s - 1) / s;
}
/* QP PEs a weight-stationary group (a phase's taps), R inputs a PE, L = QP R outputs a group, G
 * groups a warp */
template <class T, int Q, int S>
struct ssam__d1_sizes {
    enum { QP = (Q + S - 1) / S, R = (128 / (int)sizeof(T) + QP - 1) / QP, L = QP * R, G = 32 / QP };
};

/* outputs per warp and tile, by design */
template <int D, class T, int Q, int S>
static __host__ __device__ constexpr int ssam_design1d_tile_size()
{
    typedef ssam__d1_sizes<T, Q, S> Z;
    return D == SSAM_DESIGN_SBM ? 33 - Z::QP : (D == SSAM_DESIGN_BSM || D == SSAM_DESIGN_FSM) ? Z::G * Z::L : 32;
}

/* tap i (a constant), clamped into [0, Q): branches not taken never index out of bounds */
template <class T, int Q, class W>
static __device__ __forceinline__ T ssam__d1_wc(const W &w, int i)
{
    return w[i < 0 ? 0 : i >= Q ? Q - 1 : i];
}
/* tap S k + f, 0 past the last */
template <class T, int Q, int S, class W>
static __device__ __forceinline__ T ssam__d1_w(const W &w, int f, int k)
{
    return S * k + f < Q ? ssam__d1_wc<T, Q>(w, S * k + f) : (T)0;
}

/* x of phase f at local index i of a tile starting at output c0 (0 past the end) */
template <class T, int S>
static __device__ __forceinline__ T ssam__d1_x(const T *x, long long n, int f, long long c0, int i)
{
    return (long long)S * (c0 + i) + f < n ? __ldg(x + (long long)S * (c0 + i) + f) : (T)0;
}

/* --- sedimented designs: lane l accumulates output c0 + l */

/* FBS: x forwarded one lane down per tap (a = local x(l+k), b = x(l+32+k)), w(k) broadcast */
template <int F, class T, int Q, int S, class W>
static __device__ __forceinline__ void ssam__d1_body_fbs(const T *x, long long n, long long c0, const W &w, int lane, T &acc)
{
    enum { QF = ssam__d1_qf(Q, S, F) };
    T a = ssam__d1_x<T, S>(x, n, F, c0, lane);
    T b = ssam__d1_x<T, S>(x, n, F, c0, lane + 32);
#pragma unroll
    for (int k = 0; k < QF; k++) {
        acc = fma(a, ssam__d1_wc<T, Q>(w, S * k + F), acc);
        if (k + 1 < QF) {
            T ra = __shfl_sync(SSAM__FULL, a, (lane + 1) & 31);
            T rb = __shfl_sync(SSAM__FULL, b, (lane + 1) & 31);
            a = lane == 31 ? rb : ra;
            b = rb;
        }
    }
}

/* BFS: x(t) broadcast at step t, weights enter lane 0 and move one lane up per step */
template <int F, class T, int Q, int S, class W>
static __device__ __forceinline__ void ssam__d1_body_bfs(const T *x, long long n, long long c0, const W &w, int lane, T &acc)
{
    enum { QF = ssam__d1_qf(Q, S, F) };
    T a = ssam__d1_x<T, S>(x, n, F, c0, lane);
    T b = ssam__d1_x<T, S>(x, n, F, c0, lane + 32);
    T wr = (T)0;
#pragma unroll
    for (int t = 0; t < 31 + QF; t++) {
        T xb = __shfl_sync(SSAM__FULL, t < 32 ? a : b, t & 31);
        T up = __shfl_up_sync(SSAM__FULL, wr, 1);
        wr = lane == 0 ? (t < QF ? ssam__d1_wc<T, Q>(w, S * t + F) : (T)0) : up;
        acc = fma(xb, wr, acc);
    }
}

/* FFS: x(i) enters lane 0 at step 2(I-i), moves up; w(q) enters lane 31 at step 31+2(Q-1-q), moves
 * down; x(l+q) meets w(q) at lane l (zeros between) */
template <int F, class T, int Q, int S, class W>
static __device__ __forceinline__ void ssam__d1_body_ffs(const T *x, long long n, long long c0, const W &w, int lane, T &acc)
{
    const int qf = ssam__d1_qf(Q, S, F), I = 31 + qf - 1;
    T a = ssam__d1_x<T, S>(x, n, F, c0, lane);
    T b = ssam__d1_x<T, S>(x, n, F, c0, lane + 32);
    T xr = (T)0, wr = (T)0;
#pragma unroll
    for (int t = 0; t <= 2 * I; t++) {
        const int i = I - t / 2, q = qf - 1 - (t - 31) / 2;
        T xi = (T)0, up, dn;
        if (t % 2 == 0) xi = __shfl_sync(SSAM__FULL, i < 32 ? a : b, i & 31);
        up = __shfl_up_sync(SSAM__FULL, xr, 1);
        dn = __shfl_down_sync(SSAM__FULL, wr, 1);
        xr = lane == 0 ? xi : up;
        wr = lane == 31 ? ((t >= 31 && (t - 31) % 2 == 0 && q >= 0) ? ssam__d1_wc<T, Q>(w, S * q + F) : (T)0) : dn;
        acc = fma(xr, wr, acc);
    }
}

/* --- migrating designs */

/* SBM: x stays (lane l keeps local x(l)), w broadcast, the sum moves one lane down per tap */
template <int F, class T, int Q, int S, class W>
static __device__ __forceinline__ void ssam__d1_body_sbm(const T *x, long long n, long long c0, const W &w, int lane, T &acc)
{
    const int qf = ssam__d1_qf(Q, S, F);
    T a = ssam__d1_x<T, S>(x, n, F, c0, lane);
    T p = a * ssam__d1_wc<T, Q>(w, S * (qf - 1) + F);
#pragma unroll
    for (int k = qf - 2; k >= 0; k--) {
        p = __shfl_down_sync(SSAM__FULL, p, 1);
        p = fma(a, ssam__d1_wc<T, Q>(w, S * k + F), p);
    }
    acc += p;
}

/* weight-stationary groups: lane = g*QP + p; group g computes local outputs g*L .. g*L+L-1, its
 * input element i in lane g*QP + i%QP, register i/QP; on: in a group; g0: the group's first lane */
typedef struct ssam__d1_group {
    int g, p, g0;
    bool on;
} ssam__d1_group;

/* the group's input stream of phase f (R + 1 elements a lane), and the lane's stationary weight */
template <int F, class T, int Q, int S, int R1>
static __device__ __forceinline__ void ssam__d1_group_load(T (&in)[R1], const T *x, long long n, long long c0,
                                                           const ssam__d1_group &gr)
{
    typedef ssam__d1_sizes<T, Q, S> Z;
    /* ssam__d1_x's expression written out (docs/ssam.md#designs-written-out) */
#pragma unroll
    for (int k = 0; k <= Z::R; k++)
        in[k] = gr.on ? ((long long)S * ((c0 + (long long)gr.g * Z::L) + (k * Z::QP + gr.p)) + F < n
                             ? __ldg(x + (long long)S * ((c0 + (long long)gr.g * Z::L) + (k * Z::QP + gr.p)) + F)
                             : (T)0)
                      : (T)0;
}
template <int F, class T, int Q, int S, class W>
static __device__ __forceinline__ T ssam__d1_group_weight(const W &w, const ssam__d1_group &gr)
{
    T wl = (T)0;
#pragma unroll
    for (int k = 0; k < ssam__d1_sizes<T, Q, S>::QP; k++)
        if (gr.p == k) wl = ssam__d1_w<T, Q, S>(w, F, k);
    return wl;
}

/* BSM: x(t) broadcast to the group at step t, the sum moves one lane up, leaves lane QP-1 done */
template <int F, class T, int Q, int S, class W, int R>
static __device__ __forceinline__ void ssam__d1_body_bsm(const T *x, long long n, long long c0, const W &w,
                                                         const ssam__d1_group &gr, T (&out)[R])
{
    typedef ssam__d1_sizes<T, Q, S> Z;
    T in[Z::R + 1], wl, ps = (T)0;
    ssam__d1_group_load<F, T, Q, S>(in, x, n, c0, gr);
    wl = ssam__d1_group_weight<F, T, Q, S>(w, gr);
#pragma unroll
    for (int t = 0; t < Z::L + Z::QP - 1; t++) {
        T xb = __shfl_sync(SSAM__FULL, in[t / Z::QP], gr.g0 + t % Z::QP);
        T up = __shfl_up_sync(SSAM__FULL, ps, 1);
        ps = fma(xb, wl, gr.p == 0 ? (T)0 : up);
        if (t >= Z::QP - 1) {
            const int j = t - (Z::QP - 1);
            T v = __shfl_sync(SSAM__FULL, ps, gr.g0 + Z::QP - 1);
            if (gr.p == j % Z::QP) out[j / Z::QP] += v;
        }
    }
}

/* FSM: x(i) enters lane QP-1 at step 2i, moves down; output c's sum starts at lane 0 at step
 * 2c+QP-1, moves up, leaves lane QP-1 at step 2c+2QP-2 */
template <int F, class T, int Q, int S, class W, int R>
static __device__ __forceinline__ void ssam__d1_body_fsm(const T *x, long long n, long long c0, const W &w,
                                                         const ssam__d1_group &gr, T (&out)[R])
{
    typedef ssam__d1_sizes<T, Q, S> Z;
    T in[Z::R + 1], wl, ps = (T)0, xr = (T)0;
    ssam__d1_group_load<F, T, Q, S>(in, x, n, c0, gr);
    wl = ssam__d1_group_weight<F, T, Q, S>(w, gr);
#pragma unroll
    for (int t = 0; t <= 2 * Z::L + 2 * Z::QP - 4; t++) {
        const int i = t / 2;
        T xi = (T)0, dn, up;
        if (t % 2 == 0 && i <= Z::L + Z::QP - 2) xi = __shfl_sync(SSAM__FULL, in[i / Z::QP], gr.g0 + i % Z::QP);
        dn = __shfl_down_sync(SSAM__FULL, xr, 1);
        up = __shfl_up_sync(SSAM__FULL, ps, 1);
        xr = gr.p == Z::QP - 1 ? xi : dn;
        ps = fma(xr, wl, gr.p == 0 ? (T)0 : up);
        if (t >= 2 * Z::QP - 2 && t % 2 == 0) {
            const int c = (t - 2 * Z::QP + 2) / 2;
            T v = __shfl_sync(SSAM__FULL, ps, gr.g0 + Z::QP - 1);
            if (gr.p == c % Z::QP) out[c / Z::QP] += v;
        }
    }
}

/* one phase f of design D: a lane design into acc (lane), a group design into out[R] */
template <int D, int F, class T, int Q, int S, class W>
static __device__ __forceinline__ void ssam__d1_phase(const T *x, long long n, long long c0, const W &w, int lane, T &acc)
{
    if constexpr (D == SSAM_DESIGN_SBM) ssam__d1_body_sbm<F, T, Q, S>(x, n, c0, w, lane, acc);
    else if constexpr (D == SSAM_DESIGN_FBS) ssam__d1_body_fbs<F, T, Q, S>(x, n, c0, w, lane, acc);
    else if constexpr (D == SSAM_DESIGN_BFS) ssam__d1_body_bfs<F, T, Q, S>(x, n, c0, w, lane, acc);
    else ssam__d1_body_ffs<F, T, Q, S>(x, n, c0, w, lane, acc);
}
template <int D, int F, class T, int Q, int S, class W, int R>
static __device__ __forceinline__ void ssam__d1_phase(const T *x, long long n, long long c0, const W &w,
                                                      const ssam__d1_group &gr, T (&out)[R])
{
    if constexpr (D == SSAM_DESIGN_BSM) ssam__d1_body_bsm<F, T, Q, S>(x, n, c0, w, gr, out);
    else ssam__d1_body_fsm<F, T, Q, S>(x, n, c0, w, gr, out);
}

/* --- tiles: one warp tile of outputs from c0, phase by phase (each a constant); the lane is read
 * from threadIdx where it is used (why: docs/ssam.md#designs-design) */
template <int D, class T, int Q, int S, class W>
static __device__ __forceinline__ void ssam_design1d_tile(const T *x, long long n, T *y, long long nout, long long c0,
                                                          const W &w)
{
    typedef ssam__d1_sizes<T, Q, S> Z;
    const int lane = (int)(threadIdx.x & 31);
    if constexpr (D == SSAM_DESIGN_BSM || D == SSAM_DESIGN_FSM) {
        ssam__d1_group gr; /* the lane's place in the groups */
        gr.g = (int)(threadIdx.x & 31) / Z::QP;
        gr.p = (int)(threadIdx.x & 31) % Z::QP;
        gr.on = gr.g < Z::G;
        gr.g0 = gr.on ? gr.g * Z::QP : 0;
        T out[Z::R];
#pragma unroll
        for (int k = 0; k < Z::R; k++) out[k] = (T)0;
        ssam__d1_phase<D, 0, T, Q, S>(x, n, c0, w, gr, out);
        if (S == 2 && ssam__d1_qf(Q, S, 1) > 0) ssam__d1_phase<D, 1, T, Q, S>(x, n, c0, w, gr, out);
#pragma unroll
        for (int k = 0; k < Z::R; k++) {
            const long long c = c0 + (long long)gr.g * Z::L + k * Z::QP + gr.p;
            if (gr.on && c < nout) y[c] = out[k];
        }
    } else {
        T acc = (T)0;
        ssam__d1_phase<D, 0, T, Q, S>(x, n, c0, w, lane, acc);
        if (S == 2 && ssam__d1_qf(Q, S, 1) > 0) ssam__d1_phase<D, 1, T, Q, S>(x, n, c0, w, lane, acc);
        /* the lane read from threadIdx again: with `lane` here ptxas adds an instruction to SBM */
        if ((int)(threadIdx.x & 31) < ssam_design1d_tile_size<D, T, Q, S>() && c0 + (int)(threadIdx.x & 31) < nout)
            y[c0 + (int)(threadIdx.x & 31)] = acc;
    }
}

/* the kernel body: the warps of the grid walk the tiles with its stride */
template <int D, class T, int Q, int S, int B, class W>
static __device__ __forceinline__ void ssam_design1d_body(const T *x, T *y, long long n, long long nout, const W &w)
{
    const long long tile = ssam_design1d_tile_size<D, T, Q, S>();
    const long long nw = (long long)gridDim.x * (B / 32);
    for (long long c0 = ((long long)blockIdx.x * (B / 32) + threadIdx.x / 32) * tile; c0 < nout; c0 += nw * tile)
        ssam_design1d_tile<D, T, Q, S>(x, n, y, nout, c0, w);
}

/* SSAM_DESIGN1D_TILE, SSAM_DESIGN1D_TILE_SIZE: the usage block's PIECES */
#define SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S) ssam_design1d_tile_size<SSAM_DESIGN_##D, T, Q, S>()
#define SSAM_DESIGN1D_TILE(D, T, Q, S, x, n, y, nout, c0, w)                                                \
    ssam_design1d_tile<SSAM_DESIGN_##D, T, Q, S>(x, n, y, nout, c0, w)

#ifndef __CUDACC_RTC__ /* host code */
static inline int ssam__design1d_check(const ssam_design1d_args *a, int q, int s, long long es, long long *nout)
{
    if (!a || !a->src || !a->dst || !a->weights) return SSAM_ENULL;
    if (a->flags & ~SSAM_CONVOLVE) return SSAM_EFLAGS;
    if (a->n <= 0 || a->n < q) return SSAM_ESIZE;
    *nout = ssam_design1d_outputs(a->n, q, s);
    if (onchip_overlap(a->src, a->n * es, a->dst, *nout * es)) return SSAM_EOVERLAP;
    return SSAM_SUCCESS;
}

/* name_launch: the checks, the taps into wt (flipped for SSAM_CONVOLVE), the launch */
static inline int ssam__design1d_launch(const ssam_design1d_args *a, cudaStream_t stream, const void *kernel, void *wt,
                                        size_t es, int q, int s, int B, long long tile)
{
    long long nout, tiles, blocks, n;
    const void *src;
    void *dst;
    int rc = ssam__design1d_check(a, q, s, (long long)es, &nout);
    if (rc) return rc;
    for (int i = 0; i < q; i++)
        memcpy((char *)wt + (size_t)i * es,
               (const char *)a->weights + (size_t)((a->flags & SSAM_CONVOLVE) ? q - 1 - i : i) * es, es);
    tiles = (nout + tile - 1) / tile;
    blocks = (tiles + B / 32 - 1) / (B / 32);
    if (blocks > (1LL << 24)) blocks = 1LL << 24;
    src = a->src;
    dst = a->dst;
    n = a->n;
    {
        void *args[5] = {(void *)&src, (void *)&dst, (void *)&n, (void *)&nout, wt};
        (void)cudaLaunchKernel(kernel, dim3((unsigned)blocks), dim3((unsigned)B), args, 0, stream);
    }
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}
#endif /* !__CUDACC_RTC__ */

/* the limits; ok: all hold (the body is instantiated only then: one sentence) */
template <class T, int Q, int S, int B>
struct ssam__d1_limits {
    enum {
        type = ssam__type_in<T, float, double>::ok, taps = Q >= 1 && Q <= 32, stride = S == 1 || S == 2,
        block = B % 32 == 0 && B >= 32 && B <= ONCHIP_THREADS_PER_BLOCK_MAX, ok = type && taps && stride && block
    };
};

/* SSAM_DESIGN1D_DEFINE(name, T, D, Q, S, B): name_kernel, name_launch */
#define SSAM_DESIGN1D_DEFINE(name, T, D, Q, S, B)                                                          \
    typedef ssam__d1_limits<T, Q, S, B> name##__lim;                                                       \
    static_assert(name##__lim::type, "SSAM_DESIGN1D_DEFINE(" #name "): T must be float or double");         \
    static_assert(name##__lim::taps, "SSAM_DESIGN1D_DEFINE(" #name "): Q must be from 1 to 32 taps");       \
    static_assert(name##__lim::stride, "SSAM_DESIGN1D_DEFINE(" #name "): S must be 1 or 2");                \
    static_assert(name##__lim::block, "SSAM_DESIGN1D_DEFINE(" #name "): B must be a multiple of 32 from 32 to 1024"); \
    typedef struct name##_weights {                                                                        \
        T w[(Q) > 0 ? (Q) : 1];                                                                            \
    } name##_weights;                                                                                      \
    __global__ void __launch_bounds__(B) name##_kernel(const T *__restrict__ x, T *__restrict__ y, long long n, \
                                                       long long nout, name##_weights wt)                  \
    { if constexpr (name##__lim::ok) ssam_design1d_body<SSAM_DESIGN_##D, T, Q, S, B>(x, y, n, nout, wt.w); } \
    SSAM__DESIGN1D_HOST(name, T, D, Q, S, B)

/* name_launch (host code: none under NVRTC, where SSAM_DESIGN1D_DEFINE emits the kernel only) */
#ifndef __CUDACC_RTC__
#define SSAM__DESIGN1D_HOST(name, T, D, Q, S, B)                                                           \
    static inline __attribute__((unused)) int name##_launch(const ssam_design1d_args *a, cudaStream_t stream) \
    {                                                                                                      \
        name##_weights wt;                                                                                 \
        return ssam__design1d_launch(a, stream, (const void *)name##_kernel, &wt, sizeof(T), Q, S, B,       \
                                     SSAM_DESIGN1D_TILE_SIZE(D, T, Q, S));                                  \
    }
#else
#define SSAM__DESIGN1D_HOST(name, T, D, Q, S, B)
#endif

#endif /* SSAM_DESIGNS_CUH */
#include <onchip/names_pop.h>
