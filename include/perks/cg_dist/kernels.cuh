#include <onchip/names_push.h>
/* perks/cg_dist/kernels.cuh -- the device side of the distributed CG: one rank's SpMV over its rows,
 * its dot products, its vector updates (perks/cg_dist.cuh, THE ITERATION).
 *
 * WHAT (PERKS paper section 3.2: the interior computed per rank, the boundary exchanged; each piece
 *   described where it is defined)
 *   perks__cgd_rowsum<A>, perks__cgd_rows<A, T>, perks__cgd_reduce   a row's sum, the rows, the sums
 *   perks__cgd_diag<T>, _resid<T>, _spmv<T>, _update<T>, _pupd<T>    the five kernels' bodies
 *   perks__cgd_cols, perks__cgd_vsum   the halo's column ranges; the virtual all-reduce
 *
 * EXAMPLE (what PERKS_CGD_DEFINE(name, T) defines for each of the five)
 *   [not compiled: what the generator expands to]
 *   static __global__ void __launch_bounds__(PERKS_CGD_BLOCK) name_spmv(perks__cgd_k a)
 *   { perks__cgd_spmv<T>(a); }
 *
 * LIMITS AND COSTS: PERKS_CGD_BLOCK = 256 threads per block; a.lanes a power of two <= 32; 32-bit
 * column indices.  The dot products are summed in double in a fixed order (the same bits on every
 * run).  One kernel per phase: the all-reduce between them is an NCCL call from the host.
 */
#ifndef PERKS_CG_DIST_KERNELS_CUH
#define PERKS_CG_DIST_KERNELS_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the math functions are built in */
#include <cuda_runtime.h>
#include <math.h>
#endif

#include "../barrier.cuh"
#include "../base.h"
#include "types.cuh"

/* sum over the nonzeros of row i of va[e] w[ci[e] - lo], by `lanes` lanes of the warp (lane l takes
 * nonzeros l, l + lanes, ...; every lane of the warp calls it, ok = 0 for lanes without a row);
 * accumulated in A (double for the true residual, T otherwise); the sum arrives in the first lane */
template <class A, class T>
static __device__ __forceinline__ A perks__cgd_rowsum(const perks__cgd_k &a, long long i, int ok, const T *w)
{
    const int l = threadIdx.x & (a.lanes - 1);
    A s = 0;
    if (ok)
        for (long long e = a.rp[i] + l; e < a.rp[i + 1]; e += a.lanes)
            s = fma((A)((const T *)a.va)[e], (A)w[a.ci[e] - a.lo], s);
    for (int o = a.lanes >> 1; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o, a.lanes);
    return s;
}

/* add v0..v2 over the block (thread 0 gets them) and, through an atomic ticket, over the grid: the
 * last block to finish sums the blocks' partials in block order into st->loc[slot ..] */
static __device__ __forceinline__ void perks__cgd_reduce(double v0, double v1, double v2, int nv, int slot,
                                                         double *part, perks__cgd_state *st)
{
    __shared__ double red[PERKS_CGD_BLOCK / 32][3];
    __shared__ int last;
    perks__warp_sum3<0>(v0, v1, v2, red);
    __syncthreads();
    if (threadIdx.x == 0) {
        double s[3] = {0, 0, 0};
        for (int w = 0; w < PERKS_CGD_BLOCK / 32; w++)
            for (int c = 0; c < nv; c++) s[c] += red[w][c];
        for (int c = 0; c < nv; c++) part[c * gridDim.x + blockIdx.x] = s[c];
        __threadfence();
        last = atomicAdd(&st->ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x < nv) { /* one thread per value, blocks in order: fixed bits */
        __threadfence();
        double s = 0;
        for (unsigned g = 0; g < gridDim.x; g++) s += ((volatile double *)part)[threadIdx.x * gridDim.x + g];
        st->loc[slot + threadIdx.x] = s;
        if (threadIdx.x == 0) st->ticket = 0;
    }
}

/* D^-1 (a.flag: Jacobi; a diagonal <= 0, missing or not finite is counted into st->loc[4], summed
 * over the ranks) or 1 */
template <class T> static __device__ __forceinline__ void perks__cgd_diag(const perks__cgd_k &a)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.own; i += (long long)gridDim.x * blockDim.x) {
        T d = 0; /* the sum of the row's entries in column first + i (duplicates add up) */
        for (long long e = a.rp[i]; e < a.rp[i + 1]; e++)
            if (a.ci[e] - a.lo == a.off + i) d += ((const T *)a.va)[e];
        if (a.flag && (!(d > 0) || !isfinite((double)d))) a.st->loc[4] = 1; /* summed over ranks */
        ((T *)a.dinv)[i] = a.flag ? (T)1 / d : (T)1;
    }
}

/* the rows of resid and spmv: this thread's lane group takes rows i in turn, warp-aligned so that
 * all 32 lanes iterate together (ok = 0 on the lanes past the last row, which still take part in
 * the shuffles of perks__cgd_rowsum); row(i, s) on the group's first lane */
template <class A, class T, class Row>
static __device__ __forceinline__ void perks__cgd_rows(const perks__cgd_k &a, const Row &row)
{
    A s;
    long long i;
    int ok;
    for (long long base = (blockIdx.x * (long long)blockDim.x + (threadIdx.x & ~31)) / a.lanes;
         i = base + (threadIdx.x & 31) / a.lanes, ok = i < a.own, base < a.own;
         base += (long long)gridDim.x * blockDim.x / a.lanes) {
        s = perks__cgd_rowsum<A>(a, i, ok, (const T *)a.w);
        if (ok && (threadIdx.x & (a.lanes - 1)) == 0) row(i, s);
    }
}

/* r = b - A w (rows in double), partials r.r, r.D^-1 r, b.b */
template <class T> static __device__ __forceinline__ void perks__cgd_resid(const perks__cgd_k &a)
{
    double rr = 0, rz = 0, bb = 0;
    /* this capture order keeps ptxas's register assignment */
    perks__cgd_rows<double, T>(a, [&bb, &rr, &rz, &a](long long i, double s) {
        const double b = ((const T *)a.b)[i], r = b - s;
        ((T *)a.r)[i] = (T)r;
        rr += r * r, rz += r * r * ((const T *)a.dinv)[i], bb += b * b;
    });
    perks__cgd_reduce(rr, rz, bb, 3, 1, a.part, a.st);
}

/* q = A p, partial p.q */
template <class T> static __device__ __forceinline__ void perks__cgd_spmv(const perks__cgd_k &a)
{
    if (a.st->status) return;
    double pq = 0;
    perks__cgd_rows<T, T>(a, [&](long long i, T s) {
        ((T *)a.q)[i] = s;
        pq += (double)((const T *)a.w)[a.off + i] * s;
    });
    perks__cgd_reduce(pq, 0, 0, 1, 0, a.part, a.st);
}

/* x += alpha p, r -= alpha q (partials r.r, r.z); p.q <= 0 or not finite: PERKS_EBREAKDOWN */
template <class T> static __device__ __forceinline__ void perks__cgd_update(const perks__cgd_k &a)
{
    perks__cgd_state *st = a.st;
    if (st->status) return;
    const double pq = st->glob[0];
    if (!(pq > 0) || !isfinite(pq)) { /* every block sees the same p.q */
        if (blockIdx.x == 0 && threadIdx.x == 0) st->status = PERKS_EBREAKDOWN, st->iters = a.it;
        return;
    }
    const T alpha = (T)(st->rzold[a.it & 1] / pq);
    double rr = 0, rz = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.own; i += (long long)gridDim.x * blockDim.x) {
        ((T *)a.x)[i] = fma(alpha, ((const T *)a.w)[a.off + i], ((T *)a.x)[i]);
        const T r = fma(-alpha, ((const T *)a.q)[i], ((T *)a.r)[i]);
        ((T *)a.r)[i] = r;
        rr += (double)r * r, rz += (double)r * r * ((const T *)a.dinv)[i];
    }
    perks__cgd_reduce(rr, rz, 0, 2, 1, a.part, st);
}

/* the stop test (r.r <= tol^2 b.b; every block decides alike), then p = D^-1 r + beta p; a.flag: a
 * (re)start after perks__cgd_resid: beta 0, b.b from the sums, a bad diagonal on some rank stops */
template <class T> static __device__ __forceinline__ void perks__cgd_pupd(const perks__cgd_k &a)
{
    perks__cgd_state *st = a.st;
    if (st->status) return;
    const double bb = a.flag ? st->glob[3] : st->bb, rz = st->glob[2];
    const int w0 = blockIdx.x == 0 && threadIdx.x == 0;
    if (a.flag && st->glob[4] > 0) { /* Jacobi: a bad diagonal on some rank; every rank stops */
        if (w0) st->status = PERKS_EDIAG;
        return;
    }
    if (w0) st->rzold[(a.it + 1) & 1] = rz, st->bb = bb;
    if (st->glob[1] <= st->tol2 * bb) { /* converged (every block decides alike) */
        if (w0) st->status = 1, st->iters = a.it + 1;
        return;
    }
    const T beta = a.flag ? (T)0 : (T)(rz / st->rzold[a.it & 1]);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.own; i += (long long)gridDim.x * blockDim.x) {
        T *p = (T *)a.w + a.off + i;
        *p = fma(beta, *p, ((const T *)a.dinv)[i] * ((const T *)a.r)[i]);
    }
}

/* need[2 q], need[2 q + 1]: the least and one past the greatest column of rank q's block that these
 * nonzeros touch (columns of my own block, firsts[me] .. firsts[me + 1] - 1, skipped: no atomics) */
static __global__ void __attribute__((unused)) perks__cgd_cols(const int *ci, long long nnz, const int *firsts, int P,
                                                              int me, int *need)
{
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < nnz; e += (long long)gridDim.x * blockDim.x) {
        const int c = ci[e];
        if (c >= firsts[me] && c < firsts[me + 1]) continue;
        int lo = 0, hi = P; /* the owner: firsts[q] <= c < firsts[q + 1] */
        while (hi - lo > 1) {
            const int m = (lo + hi) >> 1;
            if (firsts[m] <= c) lo = m; else hi = m;
        }
        atomicMin(&need[2 * lo], c);
        atomicMax(&need[2 * lo + 1], c + 1);
    }
}

/* virtual all-reduce: out[c] = sum over ranks of g[q * 5 + c], ranks in order */
static __global__ void __attribute__((unused)) perks__cgd_vsum(const double *g, int P, int slot, int cnt, double *out)
{
    if (threadIdx.x < (unsigned)cnt) {
        double s = 0;
        for (int q = 0; q < P; q++) s += g[q * 5 + slot + threadIdx.x];
        out[slot + threadIdx.x] = s;
    }
}

#endif /* PERKS_CG_DIST_KERNELS_CUH */
#include <onchip/names_pop.h>
