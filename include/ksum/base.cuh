#include <onchip/names_push.h>
/* ksum/base.cuh -- what every ksum header shares: status codes, flags, the argument struct.
 *
 * WHAT
 *   ksum (fused kernel summation, after Wang et al., "Fused kernel summation", Algorithm 2) computes
 *       V[i][r] = sum_{j < n} K(a_i, b_j) * W[j][r]        i < m, r < nrhs
 *   without writing the m x n kernel matrix: the dot products a_i . b_j come out of a register-tiled
 *   GEMM (gemm.cuh), the kernel function and the weighted row sums are applied to the accumulators
 *   in registers (epilogue.cuh), and ksum.cuh generates the whole kernel and its host launcher.
 *   This header holds the plain definitions only.
 *
 * ROLES OF THE TWO POINT SETS (stated because they trip people up)
 *   a: the TARGETS, m points of dim coordinates, row-major (point i at a + i*lda).  One output row each.
 *   b: the SOURCES, n points of dim coordinates, row-major (point j at b + j*ldb).  They carry the weights.
 *   w: n rows of nrhs weights (row-major, w[j*nrhs + r]);  v: m rows of nrhs results (v[i*nrhs + r]).
 *   (The paper's A is our a, its B^T is our b: both point sets are stored the same way, point-major.)
 *
 * STATUS CODES (returned by every host launcher; 0 is success, never printed or exited on)
 *   KSUM_SUCCESS 0, KSUM_ENULL a NULL pointer, KSUM_ESIZE m, n or dim <= 0 or a leading dimension
 *   < dim or a grid too large, KSUM_EH h <= 0, not finite, or a kernel scale not finite in T,
 *   KSUM_ERHS nrhs < 1 or larger than the instantiation's R, KSUM_EFLAGS unknown flag bits or
 *   splits < 0, KSUM_EWORK a workspace smaller than ksum_work_bytes(), KSUM_EUNSUPPORTED the
 *   tensor-core path on a device below sm_80, KSUM_ECUDA a CUDA call failed (cudaPeekAtLastError()
 *   keeps the CUDA error), KSUM_EOVERLAP the bytes v spans meet those of a, b or w, or the
 *   workspace meets any of the four.  ksum_strerror(rc) names each.
 *
 * FLAGS
 *   KSUM_DETERMINISTIC  one block per 128 targets walks all sources and stores its rows: no atomics,
 *                       bitwise the same result on every run (slower when m/128 is below ~4x the SMs).
 *   default             the sources are split over gridDim.y blocks; each block keeps its partial
 *                       sums in registers over all its source tiles and adds them with one atomicAdd
 *                       per (row, rhs) and split; v is zeroed first.  Order of the adds varies.
 *   KSUM_ACCUMULATE     v += the sum instead of v = (either mode).
 *
 * NVRTC
 *   Under __CUDACC_RTC__ the codes, flags and ksum_args only (the functions are host code).
 */
#ifndef KSUM_BASE_CUH
#define KSUM_BASE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: size_t is built in; the host functions below are left out */
#include <stddef.h>
#endif
#include <onchip/check.h>
#include <onchip/limits.h>

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
    const void *a;    /* T *, device: m targets x dim, point i at a + i*lda          */
    const void *b;    /* T *, device: n sources x dim, point j at b + j*ldb          */
    const void *w;    /* T *, device: n x nrhs weights, w[j*nrhs + r]                */
    void *v;          /* T *, device: m x nrhs results, v[i*nrhs + r] (must not overlap the inputs) */
    int m, n, dim;    /* sizes, all >= 1                                              */
    int nrhs;         /* right-hand sides, 1 <= nrhs <= the instantiation's R (0 means 1) */
    long long lda, ldb; /* elements between points; 0 means dim                      */
    double h;         /* bandwidth, > 0 and finite                                    */
    unsigned flags;   /* KSUM_DETERMINISTIC, KSUM_ACCUMULATE                           */
    int splits;       /* source splits (gridDim.y); 0 = automatic; ignored when deterministic */
    void *work;       /* optional device workspace of ksum_work_bytes(); NULL: cudaMallocAsync */
    size_t work_bytes;
} ksum_args;

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* bytes of workspace the launcher needs (the scaled squared norms of both point sets) */
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
