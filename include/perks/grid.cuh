#include <onchip/names_push.h>
/* perks/grid.cuh -- the time loop inside the kernel: grid barrier, ping-pong, cooperative launch.
 *
 * WHAT (PERKS paper §3, Listing 1)
 *   A persistent kernel runs every time step itself, all its blocks resident at once, a grid
 *   barrier after each step.  PERKS_FOR_STEPS(t, steps), PERKS_GRID_SYNC() (this_grid().sync()),
 *   PERKS_SWAP(T, a, b) (ping-pong); perks_occupancy, perks_launch (co-residency checked).
 *
 * EXAMPLE (a 1D 3-point Jacobi, domain in device memory; see perks/stencil.cuh for cached ones)
 *   [compile: float *d_a, *d_b; int n, steps; cudaStream_t stream]
 *   __global__ void jacobi(float *a, float *b, int n, int steps) {
 *       int stride = gridDim.x * blockDim.x;
 *       PERKS_FOR_STEPS(t, steps) {
 *           for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
 *               b[i] = (i == 0 || i == n - 1) ? a[i] : (a[i - 1] + a[i] + a[i + 1]) / 3;
 *           PERKS_SWAP(float, a, b);
 *           PERKS_GRID_SYNC();
 *       }
 *   }
 *
 *   int bps, sms;
 *   perks_occupancy((const void *)jacobi, 256, 0, &bps, &sms);
 *   void *args[] = { &d_a, &d_b, &n, &steps };
 *   int rc = perks_launch((const void *)jacobi, dim3(bps * sms), dim3(256), args, 0, stream);
 *   // after an odd number of steps the result is in d_b
 *
 * LIMITS (a barrier's cost: docs/perks.md#the-time-loop-gridcuh)
 *   A kernel that uses PERKS_GRID_SYNC must be launched by perks_launch (or
 *   cudaLaunchCooperativeKernel); launched otherwise the barrier is undefined.
 */
#ifndef PERKS_GRID_CUH
#define PERKS_GRID_CUH

#include <cooperative_groups.h> /* under NVRTC it needs the toolkit's include and include/cccl folders */
#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif
#include <onchip/device.cuh>
#include "base.h"

#define PERKS_FOR_STEPS(t, steps) for (int t = 0; t < (steps); ++t)
#define PERKS_GRID_SYNC() (cooperative_groups::this_grid().sync())
/* a statement, not a function: docs/perks.md#design-notes-perksgridcuh */
#define PERKS_SWAP(T, a, b) do { T *perks__tmp = (a); (a) = (b); (b) = perks__tmp; } while (0)
/* the stencil bodies' step t of `steps` over a / b with edge buffers ea / eb: declares in, out, ein,
 * eout (a and b, ea and eb, alternating) and last (t the last step) */
#define PERKS__STEP_ARRAYS(T, t, steps, a, b, ea, eb)                                                  \
    const T *in = ((t) & 1) ? (b) : (a);                                                              \
    T *out = ((t) & 1) ? (a) : (b);                                                                   \
    const T *ein = ((t) & 1) ? (eb) : (ea);                                                           \
    T *eout = ((t) & 1) ? (ea) : (eb);                                                                \
    const int last = (t) == (steps) - 1

#ifndef __CUDACC_RTC__ /* host code */
/* blocks of `kernel` per SM with `block` threads and `smem` dynamic shared bytes (the kernel's limit
 * raised above 48 KiB), and the SMs; PERKS_ERESOURCE: not one fits, PERKS_ENOCOOP */
static inline int perks_occupancy(const void *kernel, int block, size_t smem, int *blocks_per_sm, int *sms)
{
    onchip_device_attrs a;
    int n = 0;
    if (!kernel || !blocks_per_sm || !sms) return PERKS_ENULL;
    if (block <= 0 || block > ONCHIP_THREADS_PER_BLOCK_MAX) return PERKS_ESIZE;
    if (onchip_device_current(NULL, &a) != cudaSuccess) return PERKS_ECUDA;
    if (!a.coop) return PERKS_ENOCOOP;
    if (smem > (size_t)a.smem_optin) return PERKS_ERESOURCE;
    if (onchip_smem_allow(kernel, smem) != cudaSuccess) return PERKS_ECUDA;
    if (onchip_occupancy(kernel, block, smem, &n) != cudaSuccess) return PERKS_ECUDA;
    if (n < 1) return PERKS_ERESOURCE;
    *sms = a.sms;
    *blocks_per_sm = n;
    return PERKS_SUCCESS;
}

/* a cooperative launch (args as for cudaLaunchKernel, asynchronous), PERKS_ECORESIDENT instead of
 * a grid that cannot be co-resident */
static inline int perks_launch(const void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t stream)
{
    int bps, sms, rc;
    long long blocks = (long long)grid.x * grid.y * grid.z, threads = (long long)block.x * block.y * block.z;
    if (!kernel || !args) return PERKS_ENULL;
    if (blocks <= 0 || threads <= 0 || threads > ONCHIP_THREADS_PER_BLOCK_MAX) return PERKS_ESIZE;
    rc = perks_occupancy(kernel, (int)threads, smem, &bps, &sms);
    if (rc) return rc;
    if (blocks > (long long)bps * sms) return PERKS_ECORESIDENT;
    if (cudaLaunchCooperativeKernel(kernel, grid, block, args, smem, stream) != cudaSuccess) return PERKS_ECUDA;
    return PERKS_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_GRID_CUH */
#include <onchip/names_pop.h>
