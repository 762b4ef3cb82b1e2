#include <onchip/names_push.h>
/* ksum/ksum/smalldim.cuh -- the small-dimension path's code (part of ksum/smalldim.cuh): the body
 * ksum__sd_body and its pieces, ksum__sd_reduce, the host side, the policy and KSUM_SMALLDIM_DEFINE.
 */
#ifndef KSUM_KSUM_SMALLDIM_CUH
#define KSUM_KSUM_SMALLDIM_CUH

#include "../ksum.cuh"

#define KSUM_SD_TI 8      /* targets per thread */
#define KSUM_SD_CHUNK 256 /* sources per shared-memory chunk (one per thread) */

/* 2^-u, u <= 64 + rounding, on the FMA pipe (NPOLY: ksum/smalldim.cuh) */
static __device__ __forceinline__ float ksum__exp2neg_poly(float u)
{
    const float uc = fminf(u, 125.0f);
    const float y = 12582912.0f - uc; /* 1.5 * 2^23: rounds -uc to an integer j in y's low bits */
    const float jf = y - 12582912.0f;
    const float f = -uc - jf; /* in [-1/2, 1/2] */
    float p = 1.339086331e-03f;
    p = fmaf(p, f, 9.676031768e-03f);
    p = fmaf(p, f, 5.550356954e-02f);
    p = fmaf(p, f, 2.402210683e-01f);
    p = fmaf(p, f, 6.931471825e-01f);
    p = fmaf(p, f, 1.000000119e+00f);
    return __int_as_float(__float_as_int(p) + (__float_as_int(y) << 23)); /* times 2^j */
}

/* blocks per SM in __launch_bounds__ by default: 2 (128 registers) while DMAX + R <= 9, else 1 */
#define KSUM__SD_MINB(DMAX, R) ((DMAX) + (R) <= 9 ? 2 : 1)

/* deterministic mode: the splits' partial sums part[y][e], in split order, into v (v += when accumulate) */
static __device__ __forceinline__ void ksum__sd_reduce(const float *part, float *v, long long cnt, int splits,
                                                       int accumulate)
{
    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= cnt) return;
    float s = accumulate ? v[e] : 0.0f;
    for (int y = 0; y < splits; y++) s += part[(long long)y * cnt + e];
    v[e] = s;
}

/* ---- the kernel (docs/ksum.md#small-dim-path) */

/* record jj of the chunk (a broadcast: every thread reads the same one) into sr */
template <int SR4>
static __device__ __forceinline__ void ksum__sd_read(float (&sr)[4 * SR4], const float4 *srec)
{
#pragma unroll
    for (int q4 = 0; q4 < SR4; q4++) {
        const float4 t4 = srec[q4];
        sr[4 * q4] = t4.x; sr[4 * q4 + 1] = t4.y; sr[4 * q4 + 2] = t4.z; sr[4 * q4 + 3] = t4.w;
    }
}

/* the kernel's arguments (its parameters, in order: ksum/ksum/device.cuh's operands first) */
struct ksum__sd_kargs : ksum__operands<float> {
    float scale;
    int chunks_per_split, atomic, accumulate;
    long long vstride;
};

/* the thread's targets row0, row0 + 256, ... into registers: coordinates ta, s|a|^2 na, vacc = 0;
 * returns the largest na */
template <int DMAX, int R>
static __device__ __forceinline__ float ksum__sd_targets(float (&ta)[KSUM_SD_TI][DMAX], float (&na)[KSUM_SD_TI],
                                                         float (&vacc)[KSUM_SD_TI][R], const ksum__sd_kargs &ka,
                                                         long long row0)
{
    float namax = 0;
#pragma unroll
    for (int i = 0; i < KSUM_SD_TI; i++) {
        const long long row = row0 + (long long)KSUM_THREADS * i;
        float q = 0;
#pragma unroll
        for (int k = 0; k < DMAX; k++) {
            ta[i][k] = (row < ka.m && k < ka.dim) ? __ldg(ka.a + row * ka.lda + k) : 0.0f;
            q = fmaf(ta[i][k], ta[i][k], q);
        }
        na[i] = q * ka.scale;
        namax = fmaxf(namax, na[i]);
#pragma unroll
        for (int r = 0; r < R; r++) vacc[i][r] = 0;
    }
    return namax;
}
/* the thread's rows (times 2^-s|a|^2 on the Gaussian shortcut, fast) into split blockIdx.y's part of v */
template <int R>
static __device__ __forceinline__ void ksum__sd_store(const float (&vacc)[KSUM_SD_TI][R], const float (&na)[KSUM_SD_TI],
                                                      int fast, const ksum__sd_kargs &ka, long long row0)
{
#pragma unroll
    for (int i = 0; i < KSUM_SD_TI; i++) {
        const long long row = row0 + (long long)KSUM_THREADS * i;
        const float f = fast ? ksum_exp2neg_float(na[i]) : 1.0f;
        if (row < ka.m) {
            float *d = ka.v + (long long)blockIdx.y * ka.vstride + row * ka.nrhs;
#pragma unroll
            for (int r = 0; r < R; r++) {
                if (r < ka.nrhs) {
                    if (ka.atomic) atomicAdd(d + r, vacc[i][r] * f);
                    else d[r] = ka.accumulate ? d[r] + vacc[i][r] * f : vacc[i][r] * f;
                }
            }
        }
    }
}

/* GF: Gaussian factorisation (1) or the general path only (0) */
template <int DMAX, int R, int GF, int NPOLY, class K>
static __device__ __forceinline__ void ksum__sd_body(K kf, const ksum__sd_kargs &ka)
{
    enum { SR4 = (DMAX + 1 + R + 3) / 4, SR = 4 * SR4 };
    __shared__ float4 srec[KSUM_SD_CHUNK * SR4];
    const int tid = threadIdx.x;
    const long long row0 = (long long)blockIdx.x * (KSUM_THREADS * KSUM_SD_TI);
    const int nchunks = (ka.n + KSUM_SD_CHUNK - 1) / KSUM_SD_CHUNK;
    const int c0 = blockIdx.y * ka.chunks_per_split, c1 = min(nchunks, c0 + ka.chunks_per_split);
    if (c0 >= c1) return;
    float ta[KSUM_SD_TI][DMAX], na[KSUM_SD_TI], vacc[KSUM_SD_TI][R];
    const float namax = ksum__sd_targets<DMAX, R>(ta, na, vacc, ka, row0 + tid);
    const int fast = GF && namax <= 64.0f;
    const float m2s = -2.0f * ka.scale;
    float pb[DMAX + R]; /* the staged source: coordinates then weights */
    /* source c * CHUNK + tid of chunk c into registers pb (coordinates then weights; zero past n) */
    const auto load = [&](int c) {
        const long long j = (long long)c * KSUM_SD_CHUNK + tid;
#pragma unroll
        for (int e = 0; e < DMAX + R; e++) pb[e] = 0;
        if (j < ka.n) {
#pragma unroll
            for (int k = 0; k < DMAX; k++) pb[k] = k < ka.dim ? __ldg(ka.b + j * ka.ldb + k) : 0.0f;
#pragma unroll
            for (int r = 0; r < R; r++) pb[DMAX + r] = r < ka.nrhs ? __ldg(ka.w + j * ka.nrhs + r) : 0.0f;
        }
    };
    load(c0);
    for (int c = c0; c < c1; c++) {
        { /* the record of the staged source (-2s b, s|b|^2, w, zeros) into srec, after a barrier */
            float rec[SR], q = 0;
#pragma unroll
            for (int k = 0; k < DMAX; k++) {
                rec[k] = pb[k] * m2s;
                q = fmaf(pb[k], pb[k], q);
            }
            rec[DMAX] = q * ka.scale;
#pragma unroll
            for (int r = 0; r < R; r++) rec[DMAX + 1 + r] = pb[DMAX + r];
#pragma unroll
            for (int e = DMAX + 1 + R; e < SR; e++) rec[e] = 0;
            if (c > c0) __syncthreads(); /* everyone is done with the previous chunk */
#pragma unroll
            for (int q4 = 0; q4 < SR4; q4++)
                srec[tid * SR4 + q4] = make_float4(rec[4 * q4], rec[4 * q4 + 1], rec[4 * q4 + 2], rec[4 * q4 + 3]);
            __syncthreads();
        }
        if (c + 1 < c1) load(c + 1); /* in flight during this chunk's work */
        const int cnt = min(KSUM_SD_CHUNK, ka.n - c * KSUM_SD_CHUNK); /* sources past n: zero records */
        if (fast) {
            /* the Gaussian shortcut: vacc += 2^-u w, u = s|b|^2 - 2s a.b, 8 sources at a time (NPOLY of
             * each 8 pairs by the polynomial) */
            for (int j0 = 0; j0 < cnt; j0 += 8) {
#pragma unroll
                for (int qq = 0; qq < 8; qq++) {
                    float sr[SR];
                    ksum__sd_read<SR4>(sr, srec + (j0 + qq) * SR4);
#pragma unroll
                    for (int i = 0; i < KSUM_SD_TI; i++) {
                        float u = sr[DMAX];
#pragma unroll
                        for (int k = 0; k < DMAX; k++) u = fmaf(ta[i][k], sr[k], u);
                        const float kv = ((qq + i) & 7) < NPOLY ? ksum__exp2neg_poly(u) : ksum_exp2neg_float(u);
#pragma unroll
                        for (int r = 0; r < R; r++) vacc[i][r] = fmaf(kv, sr[DMAX + 1 + r], vacc[i][r]);
                    }
                }
            }
        } else {
            /* the general path: vacc += kf(max(s|a|^2 + s|b|^2 - 2s a.b, 0)) w */
            for (int j0 = 0; j0 < cnt; j0++) {
                float sr[SR];
                ksum__sd_read<SR4>(sr, srec + j0 * SR4);
#pragma unroll
                for (int i = 0; i < KSUM_SD_TI; i++) {
                    float t = na[i] + sr[DMAX];
#pragma unroll
                    for (int k = 0; k < DMAX; k++) t = fmaf(ta[i][k], sr[k], t);
                    t = fmaxf(t, 0.0f);
                    const float kv = kf(t);
#pragma unroll
                    for (int r = 0; r < R; r++) vacc[i][r] = fmaf(kv, sr[DMAX + 1 + r], vacc[i][r]);
                }
            }
        }
    }
    ksum__sd_store<R>(vacc, na, fast, ka, row0 + tid);
}

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the plan: the checks, dim <= dmax, the splits (deterministic ones reduced in split order) */
static inline int ksum__plan_sd(const ksum_args *a, ksum_plan *p, double scale, int dmax, int R, int minb)
{
    int rc = ksum__plan_begin(a, p, R, scale, 1);
    if (rc) return rc;
    if (a->dim > dmax)
        return ksum__refuse(p, KSUM_ESIZE, "refused (KSUM_ESIZE): dim is above the small-dim instance's DMAX");
    ksum_args split_args = *a; /* deterministic mode splits too (reduced in order) */
    split_args.flags &= ~KSUM_DETERMINISTIC;
    if ((rc = ksum__plan_grid(&split_args, p, KSUM_THREADS * KSUM_SD_TI, KSUM_SD_CHUNK, minb)) != KSUM_SUCCESS) return rc;
    const int det = (a->flags & KSUM_DETERMINISTIC) != 0, part = det && p->splits > 1;
    p->path = KSUM_PATH_SMALLDIM;
    p->passes = part ? 2 : 1;
    if (part) { /* the splits' partial sums, at least ksum_work_bytes (a caller's workspace must pass that check) */
        long long s[5];
        ksum__spans(a, 4, s);
        const size_t pb = (size_t)p->splits * (size_t)a->m * (size_t)(a->nrhs > 0 ? a->nrhs : 1) * sizeof(float);
        p->workspace_bytes = pb > (size_t)s[4] ? pb : (size_t)s[4];
        if (a->work && a->work_bytes >= p->workspace_bytes && ksum__work_meets(a, s, (long long)p->workspace_bytes))
            return ksum__refuse(p, KSUM_EOVERLAP, "refused (KSUM_EOVERLAP): the workspace overlaps a, b, w or v");
    }
    p->why = !det   ? "small-dim kernel: dim <= DMAX; atomic adds over the source splits"
             : part ? "small-dim kernel: dim <= DMAX; deterministic: each split's sums into the workspace, added in "
                      "split order by name_reduce"
                    : "small-dim kernel: dim <= DMAX; deterministic: one split, its sums stored in v";
    return KSUM_SUCCESS;
}
/* its run: v zeroed in atomic mode, the kernel (into the workspace when reduced), name_reduce */
static inline int ksum__run_sd(const ksum_args *args, const ksum_plan *p, cudaStream_t stream, const void *kernel_fn,
                               const void *reduce_fn, double scale)
{
    if (!args || !p) return KSUM_ENULL;
    if (p->passes == 0) return KSUM_SUCCESS;
    const ksum__grid g = ksum__grid_of(args, p, KSUM_SD_CHUNK);
    long long cnt = (long long)args->m * g.nrhs;
    const int reduce = p->passes > 1;
    void *work = NULL;
    int rc = KSUM_SUCCESS;
    if (g.atomic && !g.accumulate && cudaMemsetAsync(args->v, 0, (size_t)cnt * sizeof(float), stream) != cudaSuccess)
        return KSUM_ECUDA;
    if (reduce && ksum__work_get(args, p, stream, &work)) return KSUM_ECUDA;
    float *part = reduce ? (float *)work : NULL;
    {
        const void *a = args->a, *b = args->b, *w = args->w;
        void *v = part ? (void *)part : args->v;
        long long lda = g.lda, ldb = g.ldb, vstride = part ? cnt : 0;
        int m = args->m, n = args->n, dim = args->dim, nrhs = g.nrhs, per = g.per, atomic = g.atomic;
        int accumulate = part ? 0 : g.accumulate;
        float s = (float)scale;
        void *kargs[] = {(void *)&a, &lda, (void *)&b, &ldb, (void *)&w, &v, &m, &n, &dim, &nrhs, &s,
                         &per, &atomic, &accumulate, &vstride};
        rc = ksum__launched(cudaLaunchKernel(kernel_fn, dim3((unsigned)g.rowtiles, (unsigned)g.ysplits),
                                             dim3(KSUM_THREADS), kargs, 0, stream));
    }
    if (part) {
        if (!rc) {
            float *v = (float *)args->v;
            int ysplits = g.ysplits, accumulate = g.accumulate;
            void *kargs[] = {&part, &v, &cnt, &ysplits, &accumulate};
            rc = ksum__launched(cudaLaunchKernel(reduce_fn, dim3((unsigned)((cnt + 255) / 256)), dim3(256), kargs, 0, stream));
        }
        rc = ksum__work_put(args, work, stream, rc);
    }
    return rc;
}
#endif /* !__CUDACC_RTC__ */

template <int DMAX_ = 8, int R_ = 1, int GF_ = 0, int NPOLY_ = 0, int MINB_ = 0>
struct ksum_smalldim_policy {
    enum { dmax = DMAX_, r = R_, gf = GF_, npoly = NPOLY_, minb = MINB_ };
};
/* the policy resolved: MINB 0 the rule, the others clamped to what compiles (the static_asserts say
 * what is wrong) */
template <class P> struct ksum__sdpol : onchip_policy<ksum_smalldim_policy, P> {};
template <class P, int FACTOR, class Q = typename ksum__sdpol<P>::type>
struct ksum__sd {
    enum {
        ok = ksum__sdpol<P>::value, ok_dmax = (int)Q::dmax >= 1 && (int)Q::dmax <= 8, ok_r = (int)Q::r >= 1,
        ok_minb = (int)Q::minb >= 0, ok_npoly = (int)Q::npoly >= 0 && (int)Q::npoly <= 8,
        ok_gf = !(int)Q::gf || FACTOR,
        dmax = ok_dmax ? (int)Q::dmax : 8, r = ok_r ? (int)Q::r : 1, gf = ok_gf ? (int)Q::gf : 0,
        npoly = ok_npoly ? (int)Q::npoly : 0, minb = (int)Q::minb >= 1 ? (int)Q::minb : KSUM__SD_MINB(dmax, r)
    };
};

#define KSUM_SMALLDIM_DEFINE(name, KERNEL, ...)                                                        \
    typedef ONCHIP_POLICY_ARG(__VA_ARGS__) name##_policy;                                              \
    static_assert(ksum__sdpol<name##_policy>::value, "KSUM_SMALLDIM_DEFINE(" #name                     \
                  "): the last argument must be a ksum_smalldim_policy<DMAX, R, GF, NPOLY, MINB>");    \
    static_assert(ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::ok_dmax,                              \
                  "KSUM_SMALLDIM_DEFINE(" #name "): DMAX must be 1 to 8");                             \
    static_assert(ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::ok_r,                                 \
                  "KSUM_SMALLDIM_DEFINE(" #name "): R must be at least 1");                            \
    static_assert(ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::ok_minb,                              \
                  "KSUM_SMALLDIM_DEFINE(" #name "): MINB must be 0 (the default) or more");            \
    static_assert(ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::ok_npoly,                             \
                  "KSUM_SMALLDIM_DEFINE(" #name "): NPOLY must be 0 to 8");                            \
    static_assert(ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::ok_gf,                                \
                  "KSUM_SMALLDIM_DEFINE(" #name "): GF = 1 needs KERNEL KSUM_GAUSS");                  \
    __global__ void name##_reduce(const float *__restrict__ part, float *__restrict__ v, long long cnt, \
                                  int splits, int accumulate)                                          \
    { ksum__sd_reduce(part, v, cnt, splits, accumulate); }                                             \
    __global__ void __launch_bounds__(KSUM_THREADS, (ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::minb)) \
        name##_kernel(const float *__restrict__ a, long long lda, const float *__restrict__ b, long long ldb, \
                      const float *__restrict__ w, float *__restrict__ v, int m, int n, int dim, int nrhs, \
                      float scale, int chunks_per_split, int atomic, int accumulate, long long vstride) \
    {                                                                                                  \
        typedef ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)> ksum__c;                                 \
        const ksum__sd_kargs ka = {a, lda, b, ldb, w, v, m, n, dim, nrhs, scale, chunks_per_split, atomic, \
                                   accumulate, vstride};                                               \
        ksum__sd_body<ksum__c::dmax, ksum__c::r, ksum__c::gf, ksum__c::npoly>(KSUM__EVAL_FN(float, KERNEL), ka); \
    }                                                                                                  \
    KSUM__SD_HOST(name, KERNEL)
/* name_plan, name_run, name_launch (none under NVRTC) */
#ifndef __CUDACC_RTC__
#define KSUM__SD_HOST(name, KERNEL)                                                                    \
    KSUM__HOST(name,                                                                                   \
               (ksum__plan_sd(args, plan, KSUM__SCALE(KERNEL, args),                                   \
                              ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::dmax,                     \
                              ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::r,                        \
                              ksum__sd<name##_policy, KSUM__FACTOR(KERNEL)>::minb)),                   \
               (ksum__run_sd(args, plan, stream, (const void *)name##_kernel, (const void *)name##_reduce, \
                             KSUM__SCALE(KERNEL, args))))
#else
#define KSUM__SD_HOST(name, KERNEL)
#endif

#endif
#include <onchip/names_pop.h>
