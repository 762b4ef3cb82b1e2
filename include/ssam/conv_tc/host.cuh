#include <onchip/names_push.h>
/* ssam/conv_tc/host.cuh -- the host side of the tensor-core convolution: which path a launcher takes
 * on the current device, the grid, the launch.
 *
 * WHAT
 *   SSAM_PATH_SIMT, SSAM_PATH_TC     the two paths (name_path() of conv_tc.cuh / stencil_tc.cuh)
 *   ssam__conv_tc_path(kernel)       SSAM_PATH_TC where the kernel's PTX and the device are sm_80+
 *   ssam__tc_dev, ssam__conv_tc_setup(d, kernel, threads, smem)   what a launcher needs of the
 *                                    current device (onchip/device.cuh's cache)
 *   ssam__tc_path_of(kernel, ...)    name_path of a tensor-core launcher
 *   ssam__conv_tc_grid(g, BH, BW, sh, d, &grid)   as many blocks as are resident, no more than tiles
 *   ssam__conv2d_tc_launch(...)      SSAM_CONV2D_TC_DEFINE's name_launch: checks, the path (the SIMT
 *                                    launcher where the tensor cores are not there), the launch
 * Library code: no printing, no exit; every CUDA call checked, SSAM_E* codes returned.
 * Host code: under NVRTC (__CUDACC_RTC__) only the path codes remain.
 */
#ifndef SSAM_CONV_TC_HOST_CUH
#define SSAM_CONV_TC_HOST_CUH

#include "../conv.cuh"
#include "block.cuh"

#define SSAM_PATH_SIMT 1
#define SSAM_PATH_TC 2

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* which path a kernel takes: SSAM_PATH_TC where it is compiled for sm_80+ (its PTX, so a JIT build
 * from older PTX counts as old) and the current device is sm_80+, else SSAM_PATH_SIMT */
static inline int ssam__conv_tc_path(const void *kernel)
{
    onchip_device_attrs a;
    onchip_func_attrs fa;
    if (onchip_device_current(NULL, &a) != cudaSuccess) return SSAM_PATH_SIMT;
    if (a.cc_major < 8 || onchip_func_get(kernel, &fa) != cudaSuccess || fa.ptx < 80) return SSAM_PATH_SIMT;
    return SSAM_PATH_TC;
}

/* what a launcher needs of the current device (onchip/device.cuh's cache, as ssam__stencil_prepare's
 * occupancy): the path (the SIMT one also where the device cannot give a block smem bytes of shared
 * memory), and for the tensor-core path the shared-memory limit raised to smem, the blocks per SM
 * and the SM count.  *d is written on success only. */
typedef struct ssam__tc_dev {
    int path, per_sm, sms;
} ssam__tc_dev;
static inline int ssam__conv_tc_setup(ssam__tc_dev *d, const void *kernel, int threads, size_t smem)
{
    onchip_device_attrs a;
    ssam__tc_dev r = {SSAM_PATH_SIMT, 0, 0};
    if (onchip_device_current(NULL, &a) != cudaSuccess) return (void)cudaGetLastError(), SSAM_ECUDA;
    r.path = ssam__conv_tc_path(kernel);
    if ((size_t)a.smem_optin < smem) r.path = SSAM_PATH_SIMT; /* e.g. sm_86/89 (99 KB): the SIMT kernel runs */
    if (r.path == SSAM_PATH_TC) {
        if (onchip_smem_allow(kernel, smem) != cudaSuccess || onchip_occupancy(kernel, threads, smem, &r.per_sm) != cudaSuccess)
            return (void)cudaGetLastError(), SSAM_ECUDA; /* no sticky error left for later launches */
        if (r.per_sm < 1) return SSAM_ECUDA; /* the block does not fit: cannot happen below the static_assert's 227 KB */
        r.sms = a.sms;
    }
    *d = r;
    return SSAM_SUCCESS;
}

/* name_path of a tensor-core launcher: the path its launch takes on the current device (SIMT too
 * where the setup fails) */
static inline int ssam__tc_path_of(const void *kernel, int threads, size_t smem)
{
    ssam__tc_dev d;
    return ssam__conv_tc_setup(&d, kernel, threads, smem) ? SSAM_PATH_SIMT : d.path;
}

/* the grid: as many blocks as fit on the device at once (each walks tiles of BH x BW outputs with
 * the grid's stride; sh: the tile grid's shift, ssam__conv_tc_shift), no more than there are tiles */
static inline int ssam__conv_tc_grid(const ssam_conv2d_geom *g, int BH, int BW, int sh, const ssam__tc_dev *d, dim3 *grid)
{
    const long long tiles = ((g->ow + sh + (long long)BW - 1) / BW) * ((g->oh + (long long)BH - 1) / BH);
    const long long resident = (long long)d->per_sm * d->sms;
    if (tiles > 2147483647LL) return SSAM_ESIZE;
    grid->x = (unsigned)(tiles < resident ? tiles : resident);
    grid->y = grid->z = 1;
    return SSAM_SUCCESS;
}

/* a tensor-core convolution as its launcher sees it: the kernel, the SIMT launcher of the same filter
 * (where the tensor cores are not there), the weights' element bytes es, the filter M x N, V elements a
 * 16-byte vector, BH x BW tiles, threads a block, smem bytes of shared memory */
typedef struct ssam__conv_tc_kern {
    const void *kernel;
    int (*simt)(const ssam_conv2d_args *, cudaStream_t);
    size_t es;
    int M, N, V, BH, BW, threads;
    size_t smem;
} ssam__conv_tc_kern;

/* name_launch of SSAM_CONV2D_TC_DEFINE: the checks and geometry of conv.cuh, the path on this device,
 * the grid of tiles, the weights into wt, the launch */
static inline int ssam__conv2d_tc_launch(const ssam_conv2d_args *a, cudaStream_t stream, const ssam__conv_tc_kern *k,
                                         void *wt)
{
    ssam_conv2d_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    int rc = ssam__conv2d_geometry(a, k->M, k->N, k->V, &g);
    if (rc) return rc;
    rc = ssam__conv_tc_setup(&dv, k->kernel, k->threads, k->smem);
    if (rc) return rc;
    if (dv.path != SSAM_PATH_TC) return k->simt(a, stream);
    rc = ssam__conv_tc_grid(&g, k->BH, k->BW, ssam__conv_tc_shift(g.ax, k->V), &dv, &grid);
    if (rc) return rc;
    ssam__conv_weights(wt, a, k->es, k->M * k->N);
    return ssam__conv_launch(k->kernel, grid, k->threads, k->smem, stream, a, &g, wt);
}
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_CONV_TC_HOST_CUH */
#include <onchip/names_pop.h>
