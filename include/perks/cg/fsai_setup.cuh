#include <onchip/names_push.h>
/* perks/cg/fsai_setup.cuh -- opts.fsai's G and G' built on the device from the plan's CSR (perks/fsai.h's
 * construction, one block a row), for perks/cg/plan.cuh.
 *
 * WHAT
 *   perks__cgf_count_kernel<T>  a row's entries of G (min(width, its entries j <= i)) and of G' (the rows
 *                               i >= j whose G row holds j); a malformed row or a non-finite entry flagged
 *   perks__cgf_rows_kernel<T>   row i of G: A[P_i, P_i] in shared memory, Cholesky L L', the row L'^-1 e_last,
 *                               in double; a pivot not > 0 or not finite, or a row past double's range,
 *                               flagged (A is not SPD to working precision)
 *   perks__cgf_trans_kernel<T>  G' row by row in A's column order (no atomics: the same bits every run)
 *   perks__cg_fsai_build(...)   perks__cgf_build<T>: the launches, the row pointers scanned on the host
 *                               (perks__cgf_scan), one allocation for both (perks__cgf_alloc); the code
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
static_assert(PERKS__CGF_THREADS >= PERKS_FSAI_WIDTH_MAX, "perks/cg/fsai_setup.cuh: a row kernel's thread a row of the "
                                                          "submatrix: PERKS__CGF_THREADS >= PERKS_FSAI_WIDTH_MAX");

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

/* the place of column j in G's row r (sorted), or -1 where the row does not hold it */
static __device__ __forceinline__ int perks__cgf_find(const int *grp, const int *gci, int r, int j)
{
    int lo = grp[r], hi = grp[r + 1] - 1;
    if (gci[lo] > j) return -1;
    while (lo < hi) { /* the first column >= j */
        const int mid = (lo + hi) >> 1;
        if (gci[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return gci[lo] == j ? lo : -1;
}

/* pass 0: cnt[i] = entries of G's row i; bad[0] = the first row without a diagonal, with a column
 * outside 0..n-1 or columns not increasing, bad[2] the first with an entry not finite (INT_MAX:
 * none).  Pass 1 (grp, gci known): cnt[j] = entries of G' row j, the rows r >= j of A's row j whose
 * G row holds j (an exact hit: with a pattern that is not symmetric the count falls short) */
template <class T>
static __global__ void __attribute__((unused)) perks__cgf_count_kernel(int n, const int *rp, const int *ci, const T *va,
                                                                       int width, int pass, const int *grp,
                                                                       const int *gci, int *cnt, int *bad)
{
    for (long long i_ = blockIdx.x * (long long)blockDim.x + threadIdx.x; i_ < n; i_ += (long long)gridDim.x * blockDim.x) {
        const int i = (int)i_;
        if (pass == 0) {
            int ok = rp[i + 1] > rp[i], fin = 1;
            for (int k = rp[i]; k < rp[i + 1]; k++) {
                ok &= ci[k] >= 0 && ci[k] < n && (k == rp[i] || ci[k] > ci[k - 1]);
                fin &= isfinite((double)va[k]);
            }
            const int e = ok ? perks__cgf_past_diag(rp, ci, i) : -1;
            if (e < 0) atomicMin(bad, i);
            if (!fin) atomicMin(bad + 2, i);
            const int m = e < 0 ? 1 : e - rp[i];
            cnt[i] = m < width ? m : width;
            continue;
        }
        const int e = perks__cgf_past_diag(rp, ci, i);
        int c = 0;
        for (int k = (e < 0 ? rp[i + 1] : e - 1); k < rp[i + 1]; k++) c += perks__cgf_find(grp, gci, ci[k], i) >= 0;
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
 * a binary search of G's row r (perks__cgf_find) */
template <class T>
static __global__ void __attribute__((unused))
perks__cgf_trans_kernel(int n, const int *rp, const int *ci, const int *grp, const int *gci, const T *gva,
                        const int *trp, int *tci, T *tva)
{
    for (long long j_ = blockIdx.x * (long long)blockDim.x + threadIdx.x; j_ < n; j_ += (long long)gridDim.x * blockDim.x) {
        const int j = (int)j_, e = perks__cgf_past_diag(rp, ci, j);
        int o = trp[j];
        for (int k = (e < 0 ? rp[j + 1] : e - 1); k < rp[j + 1]; k++) {
            const int r = ci[k], at = perks__cgf_find(grp, gci, r, j);
            if (at < 0) continue;
            tci[o] = r;
            tva[o] = gva[at];
            o++;
        }
    }
}

/* the row pointers of counts cnt[0..n-1] (device) into h (host, n + 1), their total into *total,
 * then (dst not NULL) into dst (device): 0, PERKS_ESIZE past 2^31 - 1 entries, or PERKS_ECUDA */
static inline int perks__cgf_scan(const int *cnt, int n, int *h, int *dst, long long *total)
{
    long long s = 0;
    if (cudaMemcpy(h + 1, cnt, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost) != cudaSuccess) return PERKS_ECUDA;
    h[0] = 0;
    for (int i = 0; i < n; i++) {
        s += h[i + 1];
        if (s > INT_MAX) return PERKS_ESIZE;
        h[i + 1] = (int)s;
    }
    *total = s;
    if (!dst) return PERKS_SUCCESS;
    return cudaMemcpy(dst, h, sizeof(int) * ((size_t)n + 1), cudaMemcpyHostToDevice) == cudaSuccess ? PERKS_SUCCESS
                                                                                                  : PERKS_ECUDA;
}

/* G's and G''s one allocation for nz entries of T each: out[0..2] G's row pointers, columns,
 * values, out[3..5] G''s (a symmetric pattern: G' has as many) */
template <class T>
static inline int perks__cgf_alloc(int n, long long nz, char **b, void *out[6], size_t *bytes)
{
    const size_t b_rp = perks__cgf_align(sizeof(int) * ((size_t)n + 1)),
                 b_ci = perks__cgf_align(sizeof(int) * (size_t)nz), b_va = perks__cgf_align(sizeof(T) * (size_t)nz),
                 half = b_rp + b_ci + b_va;
    if (cudaMalloc((void **)b, 2 * half) != cudaSuccess) {
        *b = NULL;
        return PERKS_ECUDA;
    }
    for (int t = 0; t < 2; t++)
        out[3 * t] = *b + t * half, out[3 * t + 1] = *b + t * half + b_rp, out[3 * t + 2] = *b + t * half + b_rp + b_ci;
    *bytes = 2 * half;
    return PERKS_SUCCESS;
}

/* perks__cg_fsai_build in T: pass 0 (G's counts, the input's checks), the scan and the allocation,
 * the rows of G, pass 1 (G''s counts: the symmetry check), the transpose.  h: n + 1 ints (host),
 * dcnt: n + 3 ints (device: the counts, then the three first bad rows) */
template <class T>
static inline int perks__cgf_build(int n, const int *rp, const int *ci, const T *va, int width, int *h, int *dcnt,
                                   char **b, void *out[6], size_t *bytes, long long *gnnz)
{
    int hbad[3] = {INT_MAX, INT_MAX, INT_MAX}, rc;
    long long nz = 0, tz = 0;
    const int blocks = (int)((n + 255LL) / 256 < 4096 ? (n + 255LL) / 256 : 4096), rb = n < 65536 ? n : 65536;
    const size_t smem = sizeof(double) * ((size_t)width * width + width);
    int *const bad = dcnt + n;
    if (cudaMemcpy(bad, hbad, sizeof hbad, cudaMemcpyHostToDevice) != cudaSuccess) return PERKS_ECUDA;
    perks__cgf_count_kernel<T><<<blocks, 256>>>(n, rp, ci, va, width, 0, NULL, NULL, dcnt, bad);
    if (cudaGetLastError() != cudaSuccess || cudaMemcpy(hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost) != cudaSuccess)
        return PERKS_ECUDA;
    if (hbad[0] != INT_MAX) return PERKS_EFORMAT;
    if (hbad[2] != INT_MAX) return PERKS_EBREAKDOWN;
    if ((rc = perks__cgf_scan(dcnt, n, h, NULL, &nz)) || (rc = perks__cgf_alloc<T>(n, nz, b, out, bytes))) return rc;
    if (cudaMemcpy(out[0], h, sizeof(int) * ((size_t)n + 1), cudaMemcpyHostToDevice) != cudaSuccess) return PERKS_ECUDA;
    if (smem > 48 * 1024 &&
        cudaFuncSetAttribute(perks__cgf_rows_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) !=
            cudaSuccess)
        return PERKS_ECUDA;
    perks__cgf_rows_kernel<T><<<rb, PERKS__CGF_THREADS, smem>>>(n, rp, ci, va, (const int *)out[0], (int *)out[1],
                                                               (T *)out[2], bad);
    if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;
    perks__cgf_count_kernel<T><<<blocks, 256>>>(n, rp, ci, va, width, 1, (const int *)out[0], (const int *)out[1], dcnt,
                                                bad);
    if (cudaGetLastError() != cudaSuccess || cudaMemcpy(hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost) != cudaSuccess)
        return PERKS_ECUDA;
    if (hbad[1] != INT_MAX) return PERKS_EBREAKDOWN;
    if ((rc = perks__cgf_scan(dcnt, n, h, (int *)out[3], &tz))) return rc;
    if (tz != nz) return PERKS_EFORMAT; /* the pattern is not symmetric: G' would miss entries */
    perks__cgf_trans_kernel<T><<<blocks, 256>>>(n, rp, ci, (const int *)out[0], (const int *)out[1],
                                                (const T *)out[2], (const int *)out[3], (int *)out[4], (T *)out[5]);
    if (cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess) return PERKS_ECUDA;
    *gnnz = nz;
    return PERKS_SUCCESS;
}

/* G and G' of the device CSR (rp, ci, va in T of elt bytes) into one allocation *buf: grp, gci, gva,
 * then gtrp, gtci, gtva (pointers out[6]); nnz(G) into *gnnz.  PERKS_EFORMAT: a row without its
 * diagonal, a column outside 0..n-1, columns not increasing in a row, or a pattern that is not
 * symmetric; PERKS_EBREAKDOWN: A not SPD (a pivot, a non-finite entry); PERKS_ESIZE: n < 1, width
 * outside 1..PERKS_FSAI_WIDTH_MAX, nnz(G) past 2^31 - 1.  On an error nothing is held */
static inline int perks__cg_fsai_build(int n, const int *rp, const int *ci, const void *va, int elt, int width,
                                       void **buf, size_t *bytes, void *out[6], long long *gnnz)
{
    int *h = NULL, *dcnt = NULL, rc;
    char *b = NULL;
    *buf = NULL;
    if (n < 1 || width < 1 || width > PERKS_FSAI_WIDTH_MAX) return PERKS_ESIZE;
    if (!(h = (int *)malloc(sizeof(int) * ((size_t)n + 1)))) return PERKS_ENOMEM;
    if (cudaMalloc((void **)&dcnt, sizeof(int) * ((size_t)n + 3)) != cudaSuccess) dcnt = NULL, rc = PERKS_ECUDA;
    else if (elt == 8) rc = perks__cgf_build<double>(n, rp, ci, (const double *)va, width, h, dcnt, &b, out, bytes, gnnz);
    else rc = perks__cgf_build<float>(n, rp, ci, (const float *)va, width, h, dcnt, &b, out, bytes, gnnz);
    if (rc == PERKS_ECUDA) (void)cudaGetLastError(); /* the failure is the code, not a sticky error */
    if (rc && b) cudaFree(b);
    if (!rc) *buf = b;
    if (dcnt) cudaFree(dcnt);
    free(h);
    return rc;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_FSAI_SETUP_CUH */
#include <onchip/names_pop.h>
