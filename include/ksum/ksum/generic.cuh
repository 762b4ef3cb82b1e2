#include <onchip/names_push.h>
/* ksum/ksum/generic.cuh -- the body of KSUM_REGS_DEFINE's kernel: the generic register-staged fused
 * kernel summation, float or double, any microtile TM x TN in {4, 8}.
 *
 * WHAT (Wang et al., fused kernel summation, Algorithm 2; part of ksum/ksum.cuh)
 *   ksum__ex_body<T, R, TM, TN>(kf, ka)
 *   is the whole kernel (kf the kernel function on t = s d^2, ka its arguments): the block's 16 TM
 *   targets against its split of the source tiles of 16 TN, dim in chunks of 8 through registers
 *   (docs/ksum.md#how-each-path-runs).  The 8 k-steps of a chunk are written out (as a call, another
 *   register allocation).
 *
 * LIMITS AND COSTS
 *   256 threads.  Shared memory 2 * 8 * (BM + BN + 8) + 2 BN (1 + R) + BM elements (19 KB float
 *   8 x 8, R = 1).  Registers: TM TN accumulators, TM R row sums, (TM + TN) / 2 + ceil(BN (1 + R) /
 *   256) staging (float 8 x 8: 128).
 */
#ifndef KSUM_KSUM_GENERIC_CUH
#define KSUM_KSUM_GENERIC_CUH

#include "../epilogue.cuh"
#include "../gemm.cuh"
#include "device.cuh"

template <class T, int R, int TM, int TN, class K>
static __device__ __forceinline__ void ksum__ex_body(K kf, const ksum__kargs<T> &ka)
{
    enum { BM = 16 * TM, BN = 16 * TN, NW = BN * (1 + R), NWPER = (NW + KSUM_THREADS - 1) / KSUM_THREADS };
    __shared__ __align__(16) T sa[KSUM_GEMM_SMEM_ELEMS(BM)];
    __shared__ __align__(16) T sb[KSUM_GEMM_SMEM_ELEMS(BN)];
    __shared__ __align__(16) T sw[2 * NW]; /* [buf][0: s|b|^2, 1+r: w_r][BN] */
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const ksum__span blk = ksum__span_of<BM, BN>(ka);
    const long long row0 = blk.row0;
    if (blk.t0 >= blk.t1) return;
    const int nchunks = (ka.dim + KSUM_BK - 1) / KSUM_BK;
    const int nsteps = (blk.t1 - blk.t0) * nchunks;
    const T *nb = ka.norms + ka.m;
    __shared__ __align__(16) T sna[BM]; /* s|a_i|^2 of the block's targets */
    T acc[TM][TN], vacc[TM][R];
    for (int q = tid; q < BM; q += KSUM_THREADS) sna[q] = row0 + q < ka.m ? ka.norms[row0 + q] : (T)0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
#pragma unroll
        for (int r2 = 0; r2 < R; r2++) vacc[i][r2] = 0;
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = 0;
    }
    T ra[TM / 2], rb[TN / 2], rw[NWPER];
    int tpar = 0;     /* the tile parity of step s */
    int ls_tile = blk.t0; /* the tile of the staged loads */
    {
        ksum_gemm_load(ra, ka.a, ka.lda, ka.m, ka.dim, row0, 0 * KSUM_BK, tid, ka.vec_a);
        ksum_gemm_load(rb, ka.b, ka.ldb, ka.n, ka.dim, (long long)ls_tile * BN, 0 * KSUM_BK, tid, ka.vec_b);
        ksum__sw_load<T, BN, NW>(rw, nb, ka.w, (long long)ls_tile * BN, ka.n, ka.nrhs, tid);
        ksum_gemm_store<T, TM / 2, BM>(ra, sa, 0, tid, ka.m2scale);
        if (nchunks == 1) ksum_gemm_store<T, TM / 2, BM>(ra, sa, 1, tid, ka.m2scale);
        ksum_gemm_store<T, TN / 2, BN>(rb, sb, 0, tid, (T)1);
        ksum__sw_store<T, NW>(sw, rw, tid);
        __syncthreads();
    }
    int c = 0; /* the chunk of step s */
    for (int s = 0; s < nsteps; s++) {
        const int more = s + 1 < nsteps;
        int nc = c + 1, ntile_first = 0;
        if (nc == nchunks) { nc = 0; ntile_first = 1; }
        if (more) {
            if (ntile_first) ls_tile++;
            if (nchunks > 1) ksum_gemm_load(ra, ka.a, ka.lda, ka.m, ka.dim, row0, (nc)*KSUM_BK, tid, ka.vec_a);
            ksum_gemm_load(rb, ka.b, ka.ldb, ka.n, ka.dim, (long long)ls_tile * BN, (nc)*KSUM_BK, tid, ka.vec_b);
            if (ntile_first) ksum__sw_load<T, BN, NW>(rw, nb, ka.w, (long long)ls_tile * BN, ka.n, ka.nrhs, tid);
        }
        const T *swb = sw + tpar * NW;
        if (c == 0) {
            T nbv[TN], na[TM];
#pragma unroll
            for (int v4 = 0; v4 < TN / 4; v4++) ksum__lds4(nbv + 4 * v4, swb + tx * 4 + 64 * v4);
#pragma unroll
            for (int v4 = 0; v4 < TM / 4; v4++) ksum__lds4(na + 4 * v4, sna + ty * 4 + 64 * v4);
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] = na[i] + nbv[j];
        }
        const int kc = min(KSUM_BK, ka.dim - c * KSUM_BK);
        {
            const T *a__ = sa + (s & 1) * KSUM_BK * (BM + 4) + ty * 4;
            const T *b__ = sb + (s & 1) * KSUM_BK * (BN + 4) + tx * 4;
#pragma unroll
            for (int kk = 0; kk < KSUM_BK; kk++) {
                if (kk < kc) {
                    T fa[TM], fb[TN];
#pragma unroll
                    for (int v4 = 0; v4 < TM / 4; v4++) ksum__lds4(fa + 4 * v4, a__ + kk * (BM + 4) + 64 * v4);
#pragma unroll
                    for (int v4 = 0; v4 < TN / 4; v4++) ksum__lds4(fb + 4 * v4, b__ + kk * (BN + 4) + 64 * v4);
#pragma unroll
                    for (int i = 0; i < TM; i++)
#pragma unroll
                        for (int j = 0; j < TN; j++) acc[i][j] = fma(fa[i], fb[j], acc[i][j]);
                }
            }
        }
        if (c == nchunks - 1) {
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
            if (nchunks > 1) ksum_gemm_store<T, TM / 2, BM>(ra, sa, nb2, tid, ka.m2scale);
            ksum_gemm_store<T, TN / 2, BN>(rb, sb, nb2, tid, (T)1);
            if (ntile_first) ksum__sw_store<T, NW>(sw + (tpar ^ 1) * NW, rw, tid);
        }
        __syncthreads();
        if (ntile_first) tpar ^= 1;
        c = nc;
    }
    ksum_epi_rowsum16(vacc);
    ksum_epi_store(vacc, ka.v, row0, ka.m, ka.nrhs, tx, ty, ka.atomic, ka.accumulate);
}

#endif
#include <onchip/names_pop.h>
