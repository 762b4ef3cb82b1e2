#include <onchip/names_push.h>
/* perks/cg/fsai_setup.cuh -- opts.fsai's G and G' built on the device from the plan's CSR (perks/fsai.h's
 * construction, one block a row), for perks/cg/plan.cuh.
 *
 * WHAT
 *   perks__cgf_count_kernel     a row's entries of G (min(width, its entries j <= i)) and of G' (the rows
 *                               i >= j whose G row holds j); a row without its diagonal flagged
 *   perks__cgf_rows_kernel<T>   row i of G: A[P_i, P_i] in shared memory, Cholesky L L', the row L'^-1 e_last,
 *                               in double; a pivot not > 0 or not finite, or a row past double's range,
 *                               flagged (A is not SPD to working precision)
 *   perks__cgf_trans_kernel<T>  G' row by row in A's column order (no atomics: the same bits every run)
 *   perks__cg_fsai_build(...)   the three launches, the row pointers scanned on the host; the code
 *
 * EXAMPLE: called by perks__cg_plan_path only.
 *   [not compiled: no code, a pointer to the caller]
 *
 * LIMITS: width <= PERKS_FSAI_WIDTH_MAX (64: the submatrix, 32 KB, in one block's shared memory); A's
 * pattern symmetric (G' has nnz(G) entries, else PERKS_EFORMAT), rows sorted by column.
 */
#ifndef PERKS_CG_FSAI_SETUP_CUH
#define PERKS_CG_FSAI_SETUP_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base.h"
#include "../fsai.h"

#define PERKS__CGF_THREADS 64 /* threads of the row kernel: one a row of the submatrix (width <= 64) */

static inline size_t perks__cgf_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* the first entry of row i past its diagonal, or -1 without one (rows sorted) */
static __device__ __forceinline__ int perks__cgf_past_diag(const int *rp, const int *ci, int i)
{
    int lo = rp[i], hi = rp[i + 1];
    while (lo < hi) { /* the first entry with column > i */
        const int mid = (lo + hi) >> 1;
        if (ci[mid] <= i) lo = mid + 1;
        else hi = mid;
    }
    return lo > rp[i] && ci[lo - 1] == i ? lo : -1;
}

/* pass 0: gcnt[i] = entries of G's row i, bad[0] = the first row without a diagonal (INT_MAX: none);
 * pass 1 (grp, gci known): tcnt[j] = entries of G' row j */
static __global__ void __attribute__((unused)) perks__cgf_count_kernel(int n, const int *rp, const int *ci, int width,
                                                                       int pass, const int *grp, const int *gci,
                                                                       int *cnt, int *bad)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const int e = perks__cgf_past_diag(rp, ci, i);
        if (pass == 0) {
            if (e < 0) atomicMin(bad, i);
            const int m = e < 0 ? 1 : e - rp[i];
            cnt[i] = m < width ? m : width;
            continue;
        }
        /* G' row i: the entries (r, i), r >= i, of A's row i (symmetric pattern) whose G row r holds i */
        int c = 0;
        for (int k = (e < 0 ? rp[i + 1] : e - 1); k < rp[i + 1]; k++) {
            const int r = ci[k];
            c += r >= i && gci[grp[r]] <= i;
        }
        cnt[i] = c;
    }
}

/* row i of G in a block of PERKS__CGF_THREADS: P the last m entries j <= i of A's row i; M = A[P, P]
 * (thread a merges A's row P[a] with P), M = L L' (right-looking, a column a step), L' h = e_last
 * (backward, a column a step) into gva; bad[1] = the first row whose pivot is not > 0 or not
 * finite, or whose h is not finite */
template <class T>
static __global__ void __launch_bounds__(PERKS__CGF_THREADS) __attribute__((unused))
perks__cgf_rows_kernel(int n, const int *rp, const int *ci, const T *va, const int *grp, int *gci, T *gva, int *bad)
{
    extern __shared__ double perks__cgf_M[]; /* m x m, then g (m) */
    __shared__ int P[PERKS_FSAI_WIDTH_MAX];
    __shared__ int fail;
    for (int i = blockIdx.x; i < n; i += gridDim.x) {
        const int m = grp[i + 1] - grp[i], t = threadIdx.x, e = perks__cgf_past_diag(rp, ci, i);
        double *M = perks__cgf_M, *g = M + m * m;
        if (t == 0) fail = 0;
        if (t < m) {
            P[t] = ci[e - m + t];
            gci[grp[i] + t] = P[t];
        }
        __syncthreads();
        if (t < m) { /* row P[t] of A against P (both sorted) */
            double *Mt = M + t * m;
            int b = 0;
            for (int k = 0; k < m; k++) Mt[k] = 0;
            for (int k = rp[P[t]]; k < rp[P[t] + 1] && b < m; k++) {
                const int c = ci[k];
                while (b < m && P[b] < c) b++;
                if (b < m && P[b] == c) {
                    const double v = (double)va[k];
                    if (!isfinite(v)) atomicOr(&fail, 1);
                    Mt[b] = v;
                }
            }
        }
        __syncthreads();
        for (int j = 0; j < m; j++) { /* column j of L; the trailing submatrix updated */
            const double d = M[j * m + j];
            if (!(d > 0) || !isfinite(d)) {
                if (t == 0) fail = 1;
                break; /* d is the same in every thread: they all leave */
            }
            const double s = sqrt(d);
            __syncthreads();
            if (t > j && t < m) M[t * m + j] /= s;
            if (t == j) M[j * m + j] = s;
            __syncthreads();
            if (t > j && t < m) {
                const double lt = M[t * m + j];
                for (int k = j + 1; k <= t; k++) M[t * m + k] -= lt * M[k * m + j];
            }
            __syncthreads();
        }
        __syncthreads();
        if (!fail) { /* the row: L'^-1 e_last (perks/fsai.h), column a of L' a step */
            if (t < m) g[t] = t == m - 1;
            __syncthreads();
            for (int a = m - 1; a >= 0; a--) {
                if (t == 0) g[a] /= M[a * m + a];
                __syncthreads();
                if (t < a) g[t] -= M[a * m + t] * g[a];
                __syncthreads();
            }
            if (t < m) {
                if (!isfinite(g[t])) atomicOr(&fail, 1); /* past double's range */
                gva[grp[i] + t] = (T)g[t];
            }
            __syncthreads();
        }
        if (fail && t == 0) atomicMin(bad + 1, i);
        __syncthreads();
    }
}

/* G' row j: the rows r >= j of A's row j whose G row holds j, in column order; the value G[r][j] by
 * a binary search of G's row r */
template <class T>
static __global__ void __attribute__((unused))
perks__cgf_trans_kernel(int n, const int *rp, const int *ci, const int *grp, const int *gci, const T *gva,
                        const int *trp, int *tci, T *tva)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
        const int e = perks__cgf_past_diag(rp, ci, j);
        int o = trp[j];
        for (int k = (e < 0 ? rp[j + 1] : e - 1); k < rp[j + 1]; k++) {
            const int r = ci[k];
            if (r < j || gci[grp[r]] > j) continue;
            int lo = grp[r], hi = grp[r + 1] - 1;
            while (lo < hi) {
                const int mid = (lo + hi) >> 1;
                if (gci[mid] < j) lo = mid + 1;
                else hi = mid;
            }
            tci[o] = r;
            tva[o] = gva[lo];
            o++;
        }
    }
}

/* the row pointers of counts cnt[0..n-1] (device) into h (host, n + 1) and dst (device): 0, or
 * PERKS_ESIZE past 2^31 - 1 entries */
static inline int perks__cgf_scan(const int *cnt, int n, int *h, int *dst, long long *total)
{
    if (cudaMemcpy(h + 1, cnt, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    long long s = 0;
    h[0] = 0;
    for (int i = 0; i < n; i++) {
        s += h[i + 1];
        if (s > INT_MAX) return PERKS_ESIZE;
        h[i + 1] = (int)s;
    }
    *total = s;
    return cudaMemcpy(dst, h, sizeof(int) * ((size_t)n + 1), cudaMemcpyHostToDevice) == cudaSuccess ? PERKS_SUCCESS
                                                                                                  : PERKS_ECUDA;
}

/* G and G' of the device CSR (rp, ci, va in T of elt bytes) into one allocation *buf: grp, gci, gva,
 * then gtrp, gtci, gtva (pointers out[6]); nnz(G) into *gnnz.  PERKS_EFORMAT: a row without its
 * diagonal, or a pattern that is not symmetric; PERKS_EBREAKDOWN: A not SPD (a pivot, a non-finite
 * entry); PERKS_ESIZE: nnz(G) past 2^31 - 1 */
static inline int perks__cg_fsai_build(int n, const int *rp, const int *ci, const void *va, int elt, int width,
                                       void **buf, size_t *bytes, void *out[6], long long *gnnz)
{
    int *h = (int *)malloc(sizeof(int) * ((size_t)n + 1)), *dcnt = NULL, hbad[2] = {INT_MAX, INT_MAX}, rc = PERKS_SUCCESS;
    char *b = NULL;
    long long nz = 0, tz = 0;
    const int blocks = (n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096;
    *buf = NULL;
    if (!h) return PERKS_ENOMEM;
    if (cudaMalloc((void **)&dcnt, sizeof(int) * ((size_t)n + 2)) != cudaSuccess) {
        dcnt = NULL;
        rc = PERKS_ECUDA;
        goto done;
    }
    if (cudaMemcpy(dcnt + n, hbad, sizeof hbad, cudaMemcpyHostToDevice) != cudaSuccess) goto cuda;
    perks__cgf_count_kernel<<<blocks, 256>>>(n, rp, ci, width, 0, NULL, NULL, dcnt, dcnt + n);
    if (cudaGetLastError() != cudaSuccess || cudaMemcpy(hbad, dcnt + n, sizeof hbad, cudaMemcpyDeviceToHost) != cudaSuccess)
        goto cuda;
    if (hbad[0] != INT_MAX) {
        rc = PERKS_EFORMAT;
        goto done;
    }
    {
        /* one allocation, its G' part sized by nnz(G) (a symmetric pattern: G' has as many) */
        const size_t b_rp = perks__cgf_align(sizeof(int) * ((size_t)n + 1));
        size_t b_ci, b_va, half;
        if (cudaMemcpy(h + 1, dcnt, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost) != cudaSuccess) goto cuda;
        for (int i = 0; i < n; i++) nz += h[i + 1];
        if (nz > INT_MAX) {
            rc = PERKS_ESIZE;
            goto done;
        }
        b_ci = perks__cgf_align(sizeof(int) * (size_t)nz), b_va = perks__cgf_align((size_t)elt * (size_t)nz);
        half = b_rp + b_ci + b_va;
        if (cudaMalloc((void **)&b, 2 * half) != cudaSuccess) {
            b = NULL;
            goto cuda;
        }
        out[0] = b, out[1] = b + b_rp, out[2] = b + b_rp + b_ci;
        out[3] = b + half, out[4] = b + half + b_rp, out[5] = b + half + b_rp + b_ci;
        *bytes = 2 * half;
    }
    if ((rc = perks__cgf_scan(dcnt, n, h, (int *)out[0], &nz))) goto done;
    {
        const size_t smem = sizeof(double) * ((size_t)width * width + width);
        const int rb = n < 65536 ? n : 65536;
        if (elt == 8) {
            if (smem > 48 * 1024 && cudaFuncSetAttribute(perks__cgf_rows_kernel<double>,
                                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                         (int)smem) != cudaSuccess)
                goto cuda;
            perks__cgf_rows_kernel<double><<<rb, PERKS__CGF_THREADS, smem>>>(
                n, rp, ci, (const double *)va, (const int *)out[0], (int *)out[1], (double *)out[2], dcnt + n);
        } else {
            if (smem > 48 * 1024 && cudaFuncSetAttribute(perks__cgf_rows_kernel<float>,
                                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                         (int)smem) != cudaSuccess)
                goto cuda;
            perks__cgf_rows_kernel<float><<<rb, PERKS__CGF_THREADS, smem>>>(
                n, rp, ci, (const float *)va, (const int *)out[0], (int *)out[1], (float *)out[2], dcnt + n);
        }
    }
    perks__cgf_count_kernel<<<blocks, 256>>>(n, rp, ci, width, 1, (const int *)out[0], (const int *)out[1], dcnt,
                                             dcnt + n);
    if (cudaGetLastError() != cudaSuccess || cudaMemcpy(hbad, dcnt + n, sizeof hbad, cudaMemcpyDeviceToHost) != cudaSuccess)
        goto cuda;
    if (hbad[1] != INT_MAX) {
        rc = PERKS_EBREAKDOWN;
        goto done;
    }
    if ((rc = perks__cgf_scan(dcnt, n, h, (int *)out[3], &tz))) goto done;
    if (tz != nz) { /* the pattern is not symmetric: G' would miss entries */
        rc = PERKS_EFORMAT;
        goto done;
    }
    if (elt == 8)
        perks__cgf_trans_kernel<double><<<blocks, 256>>>(n, rp, ci, (const int *)out[0], (const int *)out[1],
                                                         (const double *)out[2], (const int *)out[3], (int *)out[4],
                                                         (double *)out[5]);
    else
        perks__cgf_trans_kernel<float><<<blocks, 256>>>(n, rp, ci, (const int *)out[0], (const int *)out[1],
                                                        (const float *)out[2], (const int *)out[3], (int *)out[4],
                                                        (float *)out[5]);
    if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) goto cuda;
    *gnnz = nz;
    *buf = b;
    b = NULL;
    goto done;
cuda:
    (void)cudaGetLastError();
    rc = PERKS_ECUDA;
done:
    if (b) cudaFree(b);
    if (dcnt) cudaFree(dcnt);
    free(h);
    return rc;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_FSAI_SETUP_CUH */
#include <onchip/names_pop.h>
