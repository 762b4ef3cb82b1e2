#include <onchip/names_push.h>
/* ksum/ksum/generic.cuh -- the register-staged body (part of ksum/ksum.cuh): KSUM_REGS_DEFINE's
 * kernel, float or double, microtile TM x TN in {4, 8}.
 *
 * WHAT (docs/ksum.md#how-each-path-runs)
 *   ksum__ex_body<T, R, TM, TN>(kf, ka) is the whole kernel (kf the kernel function on t = s d^2, ka
 *   its arguments): the block's 16 TM targets against its split of the source tiles of 16 TN, dim in
 *   chunks of 8 through registers.  ksum__rs*: the stages it shares with tc.cuh's ksum__tc1_body.
 *
 * LIMITS  256 threads.
 */
#ifndef KSUM_KSUM_GENERIC_CUH
#define KSUM_KSUM_GENERIC_CUH

#include "../epilogue.cuh"
#include "../gemm.cuh"
#include "device.cuh"

/* ---- the stages of the register-staged kernels (ksum__ex_body, tc.cuh's ksum__tc1_body) */

/* nsteps steps of the block's source tiles in nchunks chunks of 8 coordinates */
typedef struct ksum__rs {
    int nchunks, nsteps;
} ksum__rs;
template <class T>
static __device__ __forceinline__ ksum__rs ksum__rs_of(const ksum__kargs<T> &ka, const ksum__span &blk)
{
    ksum__rs f;
    f.nchunks = (ka.dim + KSUM_BK - 1) / KSUM_BK;
    f.nsteps = (blk.t1 - blk.t0) * f.nchunks;
    return f;
}
/* the next step's chunk c; first: it starts a tile */
typedef struct ksum__rs_next {
    int c, first;
} ksum__rs_next;
static __device__ __forceinline__ ksum__rs_next ksum__rs_next_of(int c, int nchunks)
{
    ksum__rs_next nx = {c + 1, 0};
    if (nx.c == nchunks) { nx.c = 0; nx.first = 1; }
    return nx;
}
/* step nx's loads into registers (the targets' when several chunks; a new tile's record); its tile */
template <class T, int BN, int NW, int EA, int EB, int NWPER>
static __device__ __forceinline__ int ksum__rs_load(T (&ra)[EA], T (&rb)[EB], T (&rw)[NWPER], const T *nb,
                                                    const ksum__kargs<T> &ka, long long row0, int tile,
                                                    const ksum__rs &f, const ksum__rs_next &nx, int tid)
{
    if (nx.first) tile++;
    if (f.nchunks > 1) ksum_gemm_load(ra, ka.a, ka.lda, ka.m, ka.dim, row0, nx.c * KSUM_BK, tid, ka.vec_a);
    ksum_gemm_load(rb, ka.b, ka.ldb, ka.n, ka.dim, (long long)tile * BN, nx.c * KSUM_BK, tid, ka.vec_b);
    if (nx.first) ksum__sw_load<T, BN, NW>(rw, nb, ka.w, (long long)tile * BN, ka.n, ka.nrhs, tid);
    return tile;
}

template <class T, int R, int TM, int TN, class K>
static __device__ __forceinline__ void ksum__ex_body(K kf, const ksum__kargs<T> &ka)
{
    enum { BM = 16 * TM, BN = 16 * TN, NW = BN * (1 + R), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS };
    __shared__ __align__(16) T sa[KSUM_GEMM_SMEM_ELEMS(BM)];
    __shared__ __align__(16) T sb[KSUM_GEMM_SMEM_ELEMS(BN)];
    __shared__ __align__(16) T sw[2 * NW]; /* [buf][0: s|b|^2, 1+r: w_r][BN] */
    __shared__ __align__(16) T sna[BM];    /* s|a_i|^2 of the block's targets */
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const ksum__span blk = ksum__span_of<BM, BN>(ka);
    const long long row0 = blk.row0;
    if (blk.t0 >= blk.t1) return;
    const ksum__rs f = ksum__rs_of(ka, blk);
    const T *nb = ka.norms + ka.m;
    T acc[TM][TN], vacc[TM][R];
    ksum__sna_load<T, BM>(sna, ka.norms, row0, ka.m, tid);
    ksum__zero(vacc);
    ksum__zero(acc);
    T ra[TM / 2], rb[TN / 2], rw[NWPER];
    int tpar = 0;         /* the tile parity of step s */
    int ls_tile = blk.t0; /* the tile of the staged loads */
    { /* step 0 into buffer 0 (the targets into both when one chunk is all: they stay) */
        ksum_gemm_load(ra, ka.a, ka.lda, ka.m, ka.dim, row0, 0, tid, ka.vec_a);
        ksum_gemm_load(rb, ka.b, ka.ldb, ka.n, ka.dim, (long long)ls_tile * BN, 0, tid, ka.vec_b);
        ksum__sw_load<T, BN, NW>(rw, nb, ka.w, (long long)ls_tile * BN, ka.n, ka.nrhs, tid);
        ksum_gemm_store<T, TM / 2, BM>(ra, sa, 0, tid, ka.m2scale);
        if (f.nchunks == 1) ksum_gemm_store<T, TM / 2, BM>(ra, sa, 1, tid, ka.m2scale);
        ksum_gemm_store<T, TN / 2, BN>(rb, sb, 0, tid, (T)1);
        ksum__sw_store<T, NW>(sw, rw, tid);
        __syncthreads();
    }
    int c = 0; /* the chunk of step s */
    for (int s = 0; s < f.nsteps; s++) {
        /* step s+1's loads, chunk c's 8 k-steps, step s+1 stored into the other buffer, one barrier */
        const int more = s + 1 < f.nsteps;
        const ksum__rs_next nx = ksum__rs_next_of(c, f.nchunks);
        if (more) ls_tile = ksum__rs_load<T, BN, NW>(ra, rb, rw, nb, ka, row0, ls_tile, f, nx, tid);
        const T *swb = sw + tpar * NW;
        if (c == 0) {
            T nbv[TN], na[TM];
            ksum__acc_start(acc, nbv, na, sna + ty * 4, swb + tx * 4);
        }
        const int kc = min(KSUM_BK, ka.dim - c * KSUM_BK);
        {
            const T *a__ = sa + (s & 1) * KSUM_BK * (BM + 4) + ty * 4;
            const T *b__ = sb + (s & 1) * KSUM_BK * (BN + 4) + tx * 4;
            KSUM__GEMM_KLOOP(T, TM, TN, acc, a__, b__, BM, BN, kc)
        }
        if (c == f.nchunks - 1) {
            T wv[TN][R];
#pragma unroll
            for (int r2 = 0; r2 < R; r2++) {
                T tmp[TN];
#pragma unroll
                for (int v4 = 0; v4 < TN / 4; v4++) ksum__lds4(tmp + 4 * v4, swb + (1 + r2) * BN + tx * 4 + 64 * v4);
#pragma unroll
                for (int j = 0; j < TN; j++) wv[j][r2] = tmp[j];
            }
            ksum_epi_tile(acc, wv, vacc, kf);
        }
        if (more) {
            const int nb2 = (s + 1) & 1;
            if (f.nchunks > 1) ksum_gemm_store<T, TM / 2, BM>(ra, sa, nb2, tid, ka.m2scale);
            ksum_gemm_store<T, TN / 2, BN>(rb, sb, nb2, tid, (T)1);
            if (nx.first) ksum__sw_store<T, NW>(sw + (tpar ^ 1) * NW, rw, tid);
        }
        __syncthreads();
        if (nx.first) tpar ^= 1;
        c = nx.c;
    }
    ksum_epi_rowsum16(vacc);
    ksum_epi_store(vacc, ka.v, row0, ka.m, ka.nrhs, tx, ty, ka.atomic, ka.accumulate);
}

#endif
#include <onchip/names_pop.h>
