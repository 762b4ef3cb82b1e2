#include <onchip/names_push.h>
/* perks/base.h -- status codes shared by every perks header (C99; also compiles as C++ and CUDA).
 *
 * WHAT
 *   perks (persistent kernels, Zhang et al., ICS'23; docs/perks.md#design-notes-perksbaseh).
 *   Every perks host function returns an int status: PERKS_SUCCESS (0) or a code below;
 *   perks_strerror names them.  Library code never prints and never exits.  Under NVRTC the codes
 *   only (docs/python.md).
 *
 * EXAMPLE
 *   [compile: const void *my_kernel; dim3 grid, block; void **args; size_t smem; cudaStream_t stream]
 *   int rc = perks_launch((const void *)my_kernel, grid, block, args, smem, stream);
 *   if (rc) fprintf(stderr, "%s\n", perks_strerror(rc));
 *
 * CODES (docs/perks.md#status-codes-baseh, docs/perks-cg.md#status-codes)
 *   PERKS_ENULL, _ESIZE, _ENOCOOP, _ECORESIDENT, _ERESOURCE, _ECUDA (cudaGetLastError() has it),
 *   _EBREAKDOWN, _ENOCONV, _EFORMAT, _ENOMEM, _EIO, _EUNSUPPORTED, _EINACCURATE (x returned),
 *   _ENOTSQUARE, _EEMPTYROW, _EDIAG, _ENOTSYM, _ETHIN, _ECOMM, _ETIMEOUT (communicators aborted),
 *   _EOVERLAP, _EBOUNDARY, _EUPDATE; perks_strerror(rc) says each in a sentence.
 */
#ifndef PERKS_BASE_H
#define PERKS_BASE_H

#define PERKS_SUCCESS 0
#define PERKS_ENULL 1
#define PERKS_ESIZE 2
#define PERKS_ENOCOOP 3
#define PERKS_ECORESIDENT 4
#define PERKS_ERESOURCE 5
#define PERKS_ECUDA 6
#define PERKS_EBREAKDOWN 7
#define PERKS_ENOCONV 8
#define PERKS_EFORMAT 9
#define PERKS_ENOMEM 10
#define PERKS_EIO 11
#define PERKS_EUNSUPPORTED 12
#define PERKS_EINACCURATE 13
#define PERKS_ENOTSQUARE 14
#define PERKS_EEMPTYROW 15
#define PERKS_EDIAG 16
#define PERKS_ENOTSYM 17
#define PERKS_ETHIN 18
#define PERKS_ECOMM 19
#define PERKS_ETIMEOUT 20
#define PERKS_EOVERLAP 21
#define PERKS_EBOUNDARY 22
#define PERKS_EUPDATE 23

#include <onchip/limits.h>

#ifndef __CUDACC_RTC__ /* host code (NVRTC: the codes only) */
static inline const char *perks_strerror(int rc)
{
    switch (rc) {
    case PERKS_SUCCESS: return "perks: success";
    case PERKS_ENULL: return "perks: NULL pointer argument";
    case PERKS_ESIZE: return "perks: size or count out of range";
    case PERKS_ENOCOOP: return "perks: device cannot launch cooperative kernels";
    case PERKS_ECORESIDENT: return "perks: grid larger than the blocks that can be co-resident";
    case PERKS_ERESOURCE: return "perks: registers or shared memory do not fit the plan";
    case PERKS_ECUDA: return "perks: CUDA call failed (see cudaGetLastError)";
    case PERKS_EBREAKDOWN: return "perks: CG breakdown, p'Ap <= 0 (matrix not SPD)";
    case PERKS_ENOCONV: return "perks: CG reached the iteration limit before the tolerance";
    case PERKS_EFORMAT: return "perks: malformed input";
    case PERKS_ENOMEM: return "perks: out of host memory";
    case PERKS_EIO: return "perks: cannot open or read the file";
    case PERKS_EUNSUPPORTED:
        return "perks: not supported by this device, build or instance, or with these options (the plan's why says)";
    case PERKS_EINACCURATE:
        return "perks: CG recurrence converged but the true residual ||b - Ax||/||b|| is above the tolerance";
    case PERKS_ENOTSQUARE: return "perks: matrix is not square";
    case PERKS_EEMPTYROW: return "perks: matrix has an empty row (singular)";
    case PERKS_EDIAG: return "perks: a diagonal entry is missing, zero, negative or not finite";
    case PERKS_ENOTSYM: return "perks: matrix is not symmetric";
    case PERKS_ETHIN: return "perks: a slab or block is thinner than the halo (fewer ranks, or fewer steps between exchanges)";
    case PERKS_ECOMM: return "perks: an NCCL or MPI call failed (for NCCL, ncclGetLastError says which)";
    case PERKS_ETIMEOUT: return "perks: timed out waiting for a stream (the NCCL communicators were aborted) or an MPI exchange";
    case PERKS_EOVERLAP: return "perks: buffers that must not overlap do (a and b)";
    case PERKS_EBOUNDARY:
        return "perks: a boundary policy the stencil does not give (ONCHIP_KEEP_RADIUS; ONCHIP_KEEP_EXTENT for a shape "
               "whose extents all equal its radius)";
    case PERKS_EUPDATE:
        return "perks: an update or coefficient field (args.update, args.field) the stencil does not form";
    default: return "perks: unknown status code";
    }
}
#endif

#endif /* PERKS_BASE_H */
#include <onchip/names_pop.h>
