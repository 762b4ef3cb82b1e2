#include <onchip/names_push.h>
/* ksum/ksum/wgmma.cuh -- the wgmma code (part of ksum/wgmma.cuh): the warpgroup pieces, the kernel
 * ksum__wg_body and its pre-pass, KSUM__WG_KERNELS, the host side (the choice, the plan, the run).
 */
#ifndef KSUM_KSUM_WGMMA_CUH
#define KSUM_KSUM_WGMMA_CUH

#include <onchip/async.cuh>

#include "../ksum.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define KSUM_WG_ON 1
#else
#define KSUM_WG_ON 0
#endif

/* ---- pieces */

static __device__ __forceinline__ unsigned ksum_smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

static __device__ __forceinline__ unsigned ksum_wg_swz(int r, int k)
{
    return (unsigned)(r * 128 + ((((k >> 2) ^ r) & 7) << 4) + ((k & 3) << 2));
}
/* the descriptor of a 1024-byte aligned tile, +32 bytes a k-step of 8 (the bits:
 * docs/ksum.md#design-notes-ksumwgmmacuh) */
static __device__ __forceinline__ unsigned long long ksum_wg_desc(unsigned saddr)
{
    return (unsigned long long)((saddr & 0x3FFFFu) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}
/* an asm statement of an sm_90a instruction: nothing outside an sm_90a build */
#if KSUM_WG_ON
#define KSUM__WG_ASM(...) asm volatile(__VA_ARGS__)
#else
#define KSUM__WG_ASM(...) ((void)0)
#endif
static __device__ __forceinline__ void ksum_wg_fence(void)
{
    KSUM__WG_ASM("wgmma.fence.sync.aligned;\n" ::: "memory");
}
static __device__ __forceinline__ void ksum_wg_commit(void)
{
    KSUM__WG_ASM("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
static __device__ __forceinline__ void ksum_wg_wait(void)
{
    KSUM__WG_ASM("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
#define KSUM_WG_WAIT(N) ksum_wg_wait<N>()
/* A at da, B at db (K-major descriptors); acc 0: d starts at 0 */
static __device__ __forceinline__ void ksum_wg_mma_tf32(float *d, unsigned long long da, unsigned long long db, int acc)
{
    KSUM__WG_ASM("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(acc));
}
static __device__ __forceinline__ void ksum__fence_async(void)
{
    KSUM__WG_ASM("fence.proxy.async.shared::cta;\n" ::: "memory");
}
/* mbarriers (shared address saddr) and the bulk copy that completes on one */
static __device__ __forceinline__ void ksum_mbar_init(unsigned saddr, unsigned count)
{
    KSUM__WG_ASM("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(saddr), "r"(count) : "memory");
}
static __device__ __forceinline__ void ksum_mbar_init_fence(void)
{
    KSUM__WG_ASM("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
static __device__ __forceinline__ void ksum_mbar_expect(unsigned saddr, unsigned bytes)
{
    KSUM__WG_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(saddr), "r"(bytes) : "memory");
}
static __device__ __forceinline__ void ksum_mbar_wait(unsigned saddr, unsigned parity)
{
    unsigned done = 0;
    do {
        KSUM__WG_ASM("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(saddr), "r"(parity) : "memory");
    } while (KSUM_WG_ON && !done);
}
/* bytes (a multiple of 16) from global src to shared dst, both 16-byte aligned, completing on mbar */
static __device__ __forceinline__ void ksum_bulk_copy(unsigned dst, const void *src, unsigned bytes, unsigned mbar)
{
    KSUM__WG_ASM("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(mbar) : "memory");
}

/* ---- the kernel's pieces (the stage's chunk layout: docs/ksum.md#wgmma-loop) */

/* points j0.., coordinates k0.. of a point-major array into the swizzled tile at dst (16-byte copies
 * when vec, else 4-byte); zeros past np and dim */
static __device__ __forceinline__ void ksum__wg_copy(float *dst, const float *x, long long ld, long long np, int dim,
                                                     long long j0, int k0, int tid, int vec)
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const int e = tid + 256 * i, r = e >> 3, c = e & 7, k = k0 + 4 * c;
        const long long j = j0 + r;
        float *d = dst + (ksum_wg_swz(r, 4 * c) >> 2);
        const int left = j < np ? dim - k : 0; /* coordinates there */
        if (vec) {
            const int bytes = left >= 4 ? 16 : left > 0 ? 4 * left : 0;
            onchip_cp_async16_fill(d, bytes ? x + j * ld + k : x, bytes);
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++) onchip_cp_async4(d + q, q < left ? x + j * ld + k + q : x, q < left);
        }
    }
}

/* the pre-pass kernel's parameters, in order */
typedef struct ksum__wg_prep_kargs {
    const float *b;
    long long ldb;
    int n, dim;
    const float *w;
    int nrhs;
    float scale;
    float *out;
    long long ntiles;
    int nkb;
} ksum__wg_prep_kargs;

/* the sources' pre-pass, item i: a chunk rounded to TF32, or a tile's record
 * (docs/ksum.md#design-notes-ksumwgmmacuh) */
static __device__ __forceinline__ void ksum__wg_prep_b(const ksum__wg_prep_kargs &ka, int passes, int R, long long i)
{
    /* the fields as locals: docs/ksum.md#kernel-arguments */
    const float *b = ka.b, *w = ka.w;
    const long long ldb = ka.ldb, ntiles = ka.ntiles;
    const int n = ka.n, dim = ka.dim, nrhs = ka.nrhs, nkb = ka.nkb;
    const float scale = ka.scale;
    float *out = ka.out;
    const int items = 8 * nkb + 1, np = passes > 1 ? 2 : 1;
    const long long j = i / items, tile = j >> 7;
    const int it = (int)(i - j * items), r = (int)(j & 127);
    if (tile >= ntiles) return;
    const float *x = b + j * ldb;
    if (it < 8 * nkb) {
        const int kb = it >> 3, k = 4 * it;
        const int ok = j < n;
        const float4 v = make_float4(ok && k < dim ? x[k] : 0.0f, ok && k + 1 < dim ? x[k + 1] : 0.0f,
                                     ok && k + 2 < dim ? x[k + 2] : 0.0f, ok && k + 3 < dim ? x[k + 3] : 0.0f);
        float *d = out + (tile * nkb + kb) * np * 4096 + (ksum_wg_swz(r, k & 31) >> 2);
        const float4 big = ksum__tf32x4(v);
        *(float4 *)d = big;
        if (passes > 1) *(float4 *)(d + 4096) = ksum__tf32x4_rest(v, big);
    } else {
        float *rec = out + ntiles * nkb * np * 4096 + tile * 128 * (1 + R);
        rec[r] = j < n ? ksum__sqnorm(x, dim) * scale : 0.0f;
        for (int e = 0; e < R; e++) rec[128 * (1 + e) + r] = j < n && e < nrhs ? w[j * nrhs + e] : 0.0f;
    }
}
#ifndef __CUDACC_RTC__ /* host code */
/* its bytes: the tiles (x2 for 3 passes) and the records */
static inline size_t ksum__wg_work_bytes(int n, int dim, int passes, int R)
{
    const size_t ntiles = ((size_t)n + 127) / 128, nkb = ((size_t)dim + 31) / 32;
    return ntiles * (nkb * (passes > 1 ? 2 : 1) * 16384 + 512 * (size_t)(1 + R));
}
#endif

/* the resident targets (row tid / 2, half tid % 2) scaled and rounded in place (+ small part at
 * sA2); returns the half's unrounded sum of squares */
static __device__ __forceinline__ float ksum__wg_prep_a(float *sA, float *sA2, int nkb, float m2scale, int tid,
                                                        int passes)
{
    const int r = tid >> 1, hh = tid & 1;
    float sq = 0.0f;
    for (int q = hh * 4 * nkb; q < (hh + 1) * 4 * nkb; q++) { /* chunk q of the row's 8 nkb */
        const int off = (q >> 3) * 4096 + (ksum_wg_swz(r, 4 * (q & 7)) >> 2);
        const float4 x = *(const float4 *)(sA + off);
        sq = fmaf(x.x, x.x, sq); sq = fmaf(x.y, x.y, sq); sq = fmaf(x.z, x.z, sq); sq = fmaf(x.w, x.w, sq);
        const float4 u = make_float4(x.x * m2scale, x.y * m2scale, x.z * m2scale, x.w * m2scale);
        const float4 y = ksum__tf32x4(u);
        *(float4 *)(sA + off) = y;
        if (passes > 1) *(float4 *)(sA2 + off) = ksum__tf32x4_rest(u, y);
    }
    return sq;
}

/* a stage's MMAs of a warpgroup: 4 k-steps (x3 split), A at sa (sa2), B at sb (sb2); acc 0: zero */
static __device__ __forceinline__ void ksum__wg_stage_mma(float *d, unsigned sa, unsigned sa2, unsigned sb, unsigned sb2,
                                                          int acc, int passes)
{
    ksum_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        const unsigned long long da = ksum_wg_desc(sa + 32 * kk), db = ksum_wg_desc(sb + 32 * kk);
        if (passes > 1) {
            ksum_wg_mma_tf32(d, ksum_wg_desc(sa2 + 32 * kk), db, acc || kk > 0);
            ksum_wg_mma_tf32(d, da, ksum_wg_desc(sb2 + 32 * kk), 1);
            ksum_wg_mma_tf32(d, da, db, 1);
        } else {
            ksum_wg_mma_tf32(d, da, db, acc || kk > 0);
        }
    }
    ksum_wg_commit();
}

/* ---- the kernel: a stage (32 coordinates of 128 prepared sources) is one bulk copy into slot q % 4
 * of a ring; the frame below */
typedef struct ksum__wg {
    int tid, t4, t0, nkb, nq, ntiles;
    float *sB, *sw;
    unsigned saA, sbB;
    unsigned long long *mbar;
    const float *prep;
} ksum__wg;

/* stage q into slot q % 4 (at a tile's first, its record into slot tile % 4): thread 0's bulk
 * copies, completing on the slot's mbarrier */
template <int NP, int NW>
static __device__ __forceinline__ void ksum__wg_copy_stage(const ksum__wg &f, int q)
{
    enum { SLOT = NP * 4096 };
    if (f.tid == 0 && q < f.nq) {
        const int tl = f.t0 + q / f.nkb, kb = q % f.nkb, sl = q & 3;
        const unsigned mb = ksum_smem_u32(f.mbar + sl);
        ksum_mbar_expect(mb, NP * 16384 + (kb == 0 ? NW * 4 : 0));
        ksum_bulk_copy(ksum_smem_u32(f.sB + sl * SLOT), f.prep + ((long long)tl * f.nkb + kb) * SLOT, NP * 16384, mb);
        if (kb == 0)
            ksum_bulk_copy(ksum_smem_u32(f.sw + (tl & 3) * NW),
                           f.prep + (long long)f.ntiles * f.nkb * SLOT + (long long)tl * NW, NW * 4, mb);
    }
}

/* stage q (k-block kb) into the set acc: its copy waited for, a barrier, stage q + 2's copy, the
 * MMAs, stage q - 1's waited for (docs/ksum.md#design-notes-ksumwgmmacuh) */
template <int NP, int NW, int PASSES>
static __device__ __forceinline__ void ksum__wg_stage(const ksum__wg &f, float (&acc)[64], unsigned long long *mbar,
                                                      int q, int kb)
{
    enum { SLOT = NP * 4096 };
    const int sl = q & 3;
    ksum_mbar_wait(ksum_smem_u32(mbar + sl), (q >> 2) & 1);
    __syncthreads();
    ksum__wg_copy_stage<NP, NW>(f, q + 2);
    ksum__wg_stage_mma(acc, f.saA + kb * 16384, f.saA + (f.nkb + kb) * 16384, f.sbB + sl * SLOT * 4,
                       f.sbB + sl * SLOT * 4 + 16384, kb > 0, PASSES);
    ksum_wg_wait<1>();
}

/* a finished accumulator set X, columns 8 C0 .. 8 C1 - 1, against the tile's record: kernel values of
 * t = y (factorised, FAC && fac) or max(y + s|a|^2, 0), y = X + s|b|^2, weighted into vacc (the
 * loop a macro of t's expression: docs/ksum.md#bodies) */
#define KSUM__WG_EPI_COLS(TY)                                                                          \
    _Pragma("unroll") for (int nc = C0; nc < C1; nc++) {                                               \
        const float2 nbv = *(const float2 *)(rec + 8 * nc);                                            \
        float2 wv[R];                                                                                  \
        _Pragma("unroll") for (int r = 0; r < R; r++) wv[r] = *(const float2 *)(rec + (1 + r) * BN + 8 * nc); \
        _Pragma("unroll") for (int hh = 0; hh < 2; hh++) {                                             \
            float y = X[4 * nc + 2 * hh] + nbv.x;                                                      \
            const float k0 = kf(TY);                                                                   \
            y = X[4 * nc + 2 * hh + 1] + nbv.y;                                                        \
            const float k1 = kf(TY);                                                                   \
            _Pragma("unroll") for (int r = 0; r < R; r++)                                              \
                vacc[hh][r] = fmaf(k1, wv[r].y, fmaf(k0, wv[r].x, vacc[hh][r]));                       \
        }                                                                                              \
    }
template <int R, int FAC, int C0, int C1, class K>
static __device__ __forceinline__ void ksum__wg_epi(float (&vacc)[2][R], const float (&X)[64], const float *rec,
                                                    const float (&na)[2], int fac, K kf)
{
    enum { BN = 128 };
    if (FAC && fac) {
        KSUM__WG_EPI_COLS(y)
    } else {
        KSUM__WG_EPI_COLS(fmaxf(y + na[hh], 0.0f))
    }
}
#undef KSUM__WG_EPI_COLS

/* the previous tile's epilogue on its set X, half at each of a tile's first two stages */
template <int R, int FAC, class K>
static __device__ __forceinline__ void ksum__wg_epi_prev(float (&vacc)[2][R], const float (&X)[64], const float *rec,
                                                         const float (&na)[2], int fac, int on, int kb, int nkb, K kf)
{
    if (on && kb == 0) ksum__wg_epi<R, FAC, 0, 8>(vacc, X, rec, na, fac, kf);
    if (on && kb == (nkb > 1)) ksum__wg_epi<R, FAC, 8, 16>(vacc, X, rec, na, fac, kf);
}

/* the end: rows row, row + 8 (times 2^-s|a|^2 where factorised), quad sums, a store or atomic a row */
template <int R, int FAC>
static __device__ __forceinline__ void ksum__wg_finish(const float (&vacc)[2][R], const float (&na)[2], int fac,
                                                       const ksum__kargs<float> &ka, long long row, int t4)
{
    /* the fields as locals: docs/ksum.md#kernel-arguments */
    const int m = ka.m, nrhs = ka.nrhs, atomic = ka.atomic, accumulate = ka.accumulate;
    float *v = ka.v;
#pragma unroll
    for (int hh = 0; hh < 2; hh++) {
        const float fr = (FAC && fac) ? ksum_exp2neg_float(na[hh]) : 1.0f;
        const long long rw = row + 8 * hh;
#pragma unroll
        for (int r = 0; r < R; r++) {
            float x = vacc[hh][r] * fr;
            x += __shfl_xor_sync(0xffffffffu, x, 1);
            x += __shfl_xor_sync(0xffffffffu, x, 2);
            if (t4 == 0 && rw < m && r < nrhs) {
                float *d = v + rw * nrhs + r;
                if (atomic) atomicAdd(d, x);
                else *d = accumulate ? *d + x : x;
            }
        }
    }
}

/* the wgmma kernel's body (FAC = KSUM__FACTOR(KERNEL)); empty outside an sm_90a build */
template <int PASSES, int R, int FAC, class K>
static __device__ __forceinline__ void ksum__wg_body(K kf, const ksum__kargs<float> &ka)
{
#if KSUM_WG_ON
    enum { BM = 128, BN = 128, NP = PASSES > 1 ? 2 : 1, SLOT = NP * 4096, NW = BN * (1 + R) };
    __shared__ float sna[BM]; /* static shared memory: how the plan sees that this body was built */
    __shared__ __align__(8) unsigned long long mbar[4];
    extern __shared__ __align__(16) float ksum__smem[];
    ksum__wg f;
    const int tid = threadIdx.x, wg = tid >> 7, g = (tid & 31) >> 2, t4 = tid & 3;
    const ksum__span blk = ksum__span_of<BM, BN>(ka);
    const long long row0 = blk.row0;
    const int t0 = blk.t0;
    if (t0 >= blk.t1) return;
    const int ntl = blk.t1 - t0, nkb = (ka.dim + 31) >> 5, nq = ntl * nkb;
    /* 1024-byte aligned: sA (targets), sB (4 slots), sw (4 records); saA, sbB as shared addresses */
    const unsigned base = (ksum_smem_u32(ksum__smem) + 1023u) & ~1023u;
    float *sA = ksum__smem + ((base - ksum_smem_u32(ksum__smem)) >> 2), *sA2 = sA + nkb * 4096;
    float *sB = sA + NP * nkb * 4096, *sw = sB + 4 * SLOT;
    const unsigned saA = base + 8192 * wg, sbB = base + NP * nkb * 16384;
    f.tid = tid; f.t4 = t4; f.t0 = t0; f.nkb = nkb; f.nq = nq; f.ntiles = blk.ntiles;
    f.sB = sB; f.sw = sw; f.saA = saA; f.sbB = sbB; f.mbar = mbar;
    f.prep = ka.norms; /* the sources prepared by name_prepb */
    if (tid < 4) ksum_mbar_init(ksum_smem_u32(mbar + tid), 1);
    ksum_mbar_init_fence();
    /* the resident targets: their copies into sA (one group) */
    for (int kb = 0; kb < nkb; kb++)
        ksum__wg_copy(sA + kb * 4096, ka.a, ka.lda, ka.m, ka.dim, row0, 32 * kb, tid, ka.vec_a & 1);
    onchip_cp_async_commit();
    __syncthreads(); /* the mbarriers initialised */
    ksum__wg_copy_stage<NP, NW>(f, 0);
    ksum__wg_copy_stage<NP, NW>(f, 1);
    float na[2], acc0[64], acc1[64], vacc[2][R];
    int fac = 0;
    { /* the targets scaled and rounded in place, s|a|^2 into sna; this thread's na[2] and fac */
        onchip_cp_async_wait<0>();
        __syncthreads();
        const float sq = ksum__wg_prep_a(sA, sA2, nkb, ka.m2scale, tid, PASSES);
        const float sq2 = __shfl_xor_sync(0xffffffffu, sq, 1);
        if ((tid & 1) == 0) sna[tid >> 1] = (sq + sq2) * (-0.5f * ka.m2scale);
        ksum__fence_async();
        __syncthreads();
        na[0] = sna[64 * wg + 16 * ((tid >> 5) & 3) + g];
        na[1] = sna[64 * wg + 16 * ((tid >> 5) & 3) + g + 8];
        fac = na[0] <= KSUM__FACTOR_MAX && na[1] <= KSUM__FACTOR_MAX;
    }
#pragma unroll
    for (int i = 0; i < 64; i++) acc0[i] = acc1[i] = 0.0f;
#pragma unroll
    for (int hh = 0; hh < 2; hh++)
#pragma unroll
        for (int r = 0; r < R; r++) vacc[hh][r] = 0.0f;
    /* even tiles into acc0, odd into acc1, a stage at a time (docs/ksum.md#wgmma-loop) */
    int q = 0;
    for (int tl = 0; tl < ntl; tl += 2) {
        for (int kb = 0; kb < nkb; kb++, q++) {
            ksum__wg_stage<NP, NW, PASSES>(f, acc0, mbar, q, kb);
            ksum__wg_epi_prev<R, FAC>(vacc, acc1, sw + ((t0 + (tl - 1)) & 3) * NW + 2 * t4, na, fac, tl > 0, kb, nkb, kf);
        }
        ksum_wg_wait<0>();
        if (tl + 1 < ntl) {
            for (int kb = 0; kb < nkb; kb++, q++) {
                ksum__wg_stage<NP, NW, PASSES>(f, acc1, mbar, q, kb);
                ksum__wg_epi_prev<R, FAC>(vacc, acc0, sw + ((t0 + tl) & 3) * NW + 2 * t4, na, fac, 1, kb, nkb, kf);
            }
            ksum_wg_wait<0>();
        }
    }
    /* the last tile's epilogue, then one store or atomic per row */
    if (ntl & 1) ksum__wg_epi<R, FAC, 0, 16>(vacc, acc0, sw + ((t0 + (ntl - 1)) & 3) * NW + 2 * t4, na, fac, kf);
    else ksum__wg_epi<R, FAC, 0, 16>(vacc, acc1, sw + ((t0 + (ntl - 1)) & 3) * NW + 2 * t4, na, fac, kf);
    ksum__wg_finish<R, FAC>(vacc, na, fac, ka, row0 + 64 * wg + 16 * ((tid >> 5) & 3) + g, t4);
#else
    (void)kf; (void)ka;
#endif
}

/* the sources' pre-pass (ksum__wg_prep_b over every item); empty outside an sm_90a build */
template <int PASSES, int R>
static __device__ __forceinline__ void ksum__wg_prepb(const ksum__wg_prep_kargs &ka)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (KSUM_WG_ON) ksum__wg_prep_b(ka, PASSES, R, i);
    else (void)i;
}

#ifndef __CUDACC_RTC__ /* host code */
/* the shared memory: sA (NP x nkb tiles of 16 KB), sB (4 slots of NP tiles), sw (4 records), aligned
 * to 1024 bytes */
static inline size_t ksum__wg_smem_bytes(int nkb, int passes, int R)
{
    return (size_t)((passes > 1 ? 2 : 1) * (nkb + 4)) * 16384 + 4 * (size_t)128 * (1 + R) * 4 + 1024;
}
#endif

/* name_prepb and name_kernel_wg of KSUM_DEFINE with T ksum_tf32 / ksum_tf32x3, empty where the
 * policy's SCHEDULE is KSUM_SCHEDULE_MMA (CFG: wg, passes, r) */
#define KSUM__WG_KERNELS(name, KERNEL, CFG)                                                            \
    __global__ void name##_prepb(const float *__restrict__ b, long long ldb, int n, int dim,           \
                                 const float *__restrict__ w, int nrhs, float scale, float *__restrict__ out, \
                                 long long ntiles, int nkb)                                            \
    {                                                                                                  \
        if constexpr (CFG<name##_policy>::wg) {                                                        \
            const ksum__wg_prep_kargs ka = {b, ldb, n, dim, w, nrhs, scale, out, ntiles, nkb};         \
            ksum__wg_prepb<CFG<name##_policy>::passes, CFG<name##_policy>::r>(ka);                     \
        }                                                                                              \
    }                                                                                                  \
    __global__ void __launch_bounds__(256, 1) name##_kernel_wg(KSUM__PARAMS(float, int vecs))          \
    {                                                                                                  \
        if constexpr (CFG<name##_policy>::wg)                                                          \
            ksum__wg_body<CFG<name##_policy>::passes, CFG<name##_policy>::r, KSUM__FACTOR(KERNEL)>(    \
                KSUM__EVAL_FN(float, KERNEL), KSUM__KARGS(float, vecs, 0, 0));                         \
    }

/* ---- host: the choice, the plan and the run */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */

/* built: the kernel has its sm_90a body here (its static shared memory shows it); optin, stat: the
 * opt-in and the body's static shared memory; *d written on success only */
typedef struct ksum__wg_dev {
    int built;
    size_t optin, stat;
} ksum__wg_dev;

static inline int ksum__wg_setup(ksum__wg_dev *d, const void *kernel)
{
    onchip_device_attrs a;
    onchip_func_attrs fa;
    ksum__wg_dev r = {0, 0, 0};
    if (onchip_device_current(NULL, &a) != cudaSuccess) return KSUM_ECUDA;
    if (a.cc_major == 9 && a.cc_minor == 0) {
        if (onchip_func_get(kernel, &fa) == cudaSuccess) {
            r.built = fa.static_smem > 0;
            r.stat = fa.static_smem;
        } else {
            (void)cudaGetLastError(); /* no image for this device: not built */
        }
    }
    r.optin = (size_t)a.smem_optin;
    *d = r;
    return KSUM_SUCCESS;
}

/* 0 where the wgmma kernel takes the arguments (*bytes its shared memory), else ksum__why_staged's
 * kind: 2 no sm_90a body, 4 a caller's workspace too small, 3 dim beyond the shared memory */
static inline int ksum__wg_choose(const void *kernel, const ksum_args *a, int passes, int R, size_t *bytes)
{
    ksum__wg_dev d;
    if (ksum__wg_setup(&d, kernel) != KSUM_SUCCESS || !d.built) return 2;
    if (a->work && a->work_bytes < ksum__wg_work_bytes(a->n, a->dim, passes, R)) return 4;
    *bytes = ksum__wg_smem_bytes((a->dim + 31) / 32, passes, R);
    return *bytes + d.stat <= d.optin ? 0 : 3;
}

/* the wgmma plan after ksum__wg_choose: the grid (1 block per SM), the workspace (the prepared
 * sources, at least ksum_work_bytes), KSUM_EOVERLAP where a caller's meets a, b, w or v */
static inline int ksum__plan_wg(const ksum_args *a, ksum_plan *p, size_t bytes, int passes, int R)
{
    int rc = ksum__plan_grid(a, p, 128, 128, 1);
    if (rc) return rc;
    long long s[5];
    ksum__spans(a, 4, s);
    const size_t wb = ksum__wg_work_bytes(a->n, a->dim, passes, R), nk = (size_t)s[4];
    p->workspace_bytes = wb > nk ? wb : nk;
    if (a->work && ksum__work_meets(a, s, (long long)p->workspace_bytes))
        return ksum__refuse(p, KSUM_EOVERLAP, "refused (KSUM_EOVERLAP): the workspace overlaps a, b, w or v");
    const long long lda = a->lda ? a->lda : a->dim;
    p->path = KSUM_PATH_WGMMA;
    p->why = "TF32 wgmma: an sm_90 device with the sm_90a body, dim within its shared memory (227 KB: 288 one "
             "pass, 64 three), a->work NULL or holding the prepared sources";
    p->passes = 2;
    p->smem_bytes = bytes;
    p->vec = lda % 4 == 0 && (uintptr_t)a->a % 16 == 0 ? 1 : 0;
    return KSUM_SUCCESS;
}
/* its run: the shared memory limit raised, workspace, the sources' pre-pass, v zeroed in atomic mode,
 * the kernel */
static inline int ksum__run_wg(const ksum_args *args, const ksum_plan *p, cudaStream_t stream, const void *prepb,
                               const void *kernel, double scale)
{
    if (!args || !p) return KSUM_ENULL;
    if (p->passes == 0) return KSUM_SUCCESS;
    const ksum__grid g = ksum__grid_of(args, p, 128);
    if (onchip_smem_allow(kernel, p->smem_bytes) != cudaSuccess) return KSUM_ECUDA;
    void *work = NULL;
    if (ksum__work_get(args, p, stream, &work)) return KSUM_ECUDA;
    int rc;
    {
        const void *b = args->b, *w = args->w;
        long long ldb = g.ldb, ntiles = g.ntiles;
        int n = args->n, dim = args->dim, nrhs = g.nrhs, nkb = (args->dim + 31) / 32;
        float sc = (float)scale;
        void *kargs[] = {(void *)&b, &ldb, &n, &dim, (void *)&w, &nrhs, &sc, &work, &ntiles, &nkb};
        const long long items = ntiles * 128 * (8LL * nkb + 1);
        rc = ksum__launched(cudaLaunchKernel(prepb, dim3((unsigned)((items + 255) / 256)), dim3(256), kargs, 0, stream));
    }
    if (!rc) rc = ksum__zero_v(args, &g, sizeof(float), stream);
    if (!rc)
        rc = ksum__run_main(kernel, args, &g, ksum__scalar_make(-2.0 * scale, sizeof(float)), work, p->vec, 0, 1,
                            p->smem_bytes, stream);
    return ksum__work_put(args, work, stream, rc);
}
#endif /* !__CUDACC_RTC__ */

#endif
#include <onchip/names_pop.h>
