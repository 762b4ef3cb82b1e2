#include <onchip/names_push.h>
/* ksum/base.cuh -- what every ksum header shares: status codes, flags, the argument struct, the plan
 * (plan.h).
 *
 * WHAT (docs/ksum.md#arguments-flags-status-codes-basecuh)
 *   ksum computes V[i][r] = sum_{j < n} K(a_i, b_j) * W[j][r] (i < m, r < nrhs) without writing the
 *   m x n kernel matrix.  a: the TARGETS, m points of dim coordinates, point i at a + i*lda, one
 *   output row each; b: the SOURCES, n points, point j at b + j*ldb, they carry the weights;
 *   w: n rows of nrhs weights (w[j*nrhs + r]); v: m rows of nrhs results (v[i*nrhs + r]).
 *
 * STATUS CODES (name_plan, name_run, name_launch; 0 is success): ksum_strerror(rc) names each;
 *   KSUM_ECUDA leaves the CUDA error for cudaPeekAtLastError().
 *
 * FLAGS  KSUM_DETERMINISTIC: no atomics, bitwise reruns; default: source splits added by atomics, v
 *   zeroed first; KSUM_ACCUMULATE: v += the sum (either mode).
 *
 * NVRTC: the codes, flags, ksum_args and ksum_plan only.
 */
#ifndef KSUM_BASE_CUH
#define KSUM_BASE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: size_t is built in; the host functions below are left out */
#include <stddef.h>
#endif
#include <onchip/device.cuh> /* the device and occupancy cache of the host code */
#include <onchip/check.h>
#include <onchip/limits.h>

#include "plan.h" /* ksum_plan, KSUM_PATH_* */

#define KSUM_SUCCESS 0
#define KSUM_ENULL 1
#define KSUM_ESIZE 2
#define KSUM_EH 3
#define KSUM_ERHS 4
#define KSUM_EFLAGS 5
#define KSUM_EWORK 6
#define KSUM_EUNSUPPORTED 7
#define KSUM_ECUDA 8
#define KSUM_EOVERLAP 9

#define KSUM_DETERMINISTIC 1u
#define KSUM_ACCUMULATE 2u
#define KSUM__FLAGS (KSUM_DETERMINISTIC | KSUM_ACCUMULATE)

typedef struct ksum_args {
    const void *a;    /* T *, device: m targets x dim, point i at a + i*lda */
    const void *b;    /* T *, device: n sources x dim, point j at b + j*ldb */
    const void *w;    /* T *, device: n x nrhs weights, w[j*nrhs + r] */
    void *v;          /* T *, device: m x nrhs results, v[i*nrhs + r] (must not overlap the inputs) */
    int m, n, dim;    /* sizes, all >= 1 */
    int nrhs;         /* right-hand sides, 1 <= nrhs <= the instantiation's R (0 means 1) */
    long long lda, ldb; /* elements between points; 0 means dim */
    double h;         /* bandwidth, > 0 and finite */
    unsigned flags;   /* KSUM_DETERMINISTIC, KSUM_ACCUMULATE */
    int splits;       /* source splits (gridDim.y); 0 = automatic; ignored when deterministic */
    void *work;       /* optional device workspace of the plan's workspace_bytes; NULL: cudaMallocAsync */
    size_t work_bytes;
} ksum_args;

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* bytes of the norm workspace (the scaled squared norms of both point sets): what a->work must hold at
 * least; the plan's workspace_bytes says what its path uses */
static inline size_t ksum_work_bytes(int m, int n, size_t elem_size)
{
    return ((size_t)(m > 0 ? m : 0) + (size_t)(n > 0 ? n : 0) + 4) * elem_size;
}

static inline const char *ksum_strerror(int rc)
{
    switch (rc) {
    case KSUM_SUCCESS: return "ksum: success";
    case KSUM_ENULL: return "ksum: NULL pointer argument";
    case KSUM_ESIZE: return "ksum: m, n or dim <= 0, leading dimension < dim, or grid too large";
    case KSUM_EH: return "ksum: bandwidth h <= 0 or not finite, or the kernel's scale overflows the type";
    case KSUM_ERHS: return "ksum: nrhs < 1 or larger than the instantiated R";
    case KSUM_EFLAGS: return "ksum: unknown flag bits or splits < 0";
    case KSUM_EWORK: return "ksum: workspace smaller than ksum_work_bytes()";
    case KSUM_EUNSUPPORTED: return "ksum: the tensor-core path needs sm_80 or newer";
    case KSUM_ECUDA: return "ksum: CUDA call failed (see cudaPeekAtLastError)";
    case KSUM_EOVERLAP: return "ksum: the output v (or the workspace) overlaps an input";
    default: return "ksum: unknown status code";
    }
}
#endif /* !__CUDACC_RTC__ */
#endif
#include <onchip/names_pop.h>
