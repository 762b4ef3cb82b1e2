#include <onchip/names_push.h>
/* ssam/conv_tc/host.cuh -- the host side of the tensor-core convolution: which path a launcher takes
 * on the current device, the grid, the plan and the run.
 *
 * WHAT
 *   ssam__conv_tc_path(kernel, &why) SSAM_PATH_TC where the kernel's PTX and the device are sm_80+
 *   ssam__tc_dev, ssam__conv_tc_setup(d, kernel, threads, smem)   what a launcher needs of the
 *                                    current device (onchip/device.cuh's cache), the path and why
 *   ssam__tc_path_of(kernel, ...)    the path a tensor-core launcher takes here
 *   ssam__conv_tc_grid(g, BH, BW, sh, d, &grid)   as many blocks as are resident, no more than tiles
 *   ssam__conv2d_tc_plan(...), ssam__conv2d_tc_run(...)   SSAM_CONV2D_TC_DEFINE's name_plan and
 *                                    name_run: conv.cuh's checks, the path (SSAM_PATH_SIMT: the SIMT
 *                                    instance's plan and launch), the grid, the launch
 * The path codes are ssam/plan.h's.  Library code: no printing, no exit; every CUDA call checked,
 * SSAM_E* codes returned.  Host code: none under NVRTC (__CUDACC_RTC__).
 */
#ifndef SSAM_CONV_TC_HOST_CUH
#define SSAM_CONV_TC_HOST_CUH

#include "../conv.cuh"
#include "../plan.h"
#include "block.cuh"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* which path a kernel takes: SSAM_PATH_TC where it is compiled for sm_80+ (its PTX, so a JIT build
 * from older PTX counts as old) and the current device is sm_80+, else SSAM_PATH_SIMT; *why the rule */
static inline int ssam__conv_tc_path(const void *kernel, const char **why)
{
    onchip_device_attrs a;
    onchip_func_attrs fa;
    if (onchip_device_current(NULL, &a) != cudaSuccess)
        return *why = "SIMT fallback: the device's attributes could not be read", SSAM_PATH_SIMT;
    if (a.cc_major < 8) return *why = "SIMT fallback: the device is below sm_80", SSAM_PATH_SIMT;
    if (onchip_func_get(kernel, &fa) != cudaSuccess || fa.ptx < 80)
        return *why = "SIMT fallback: the kernel's PTX is older than sm_80 (or its attributes cannot be read)",
               SSAM_PATH_SIMT;
    return *why = "tensor cores: the device and the kernel's PTX are sm_80+ and a block gets the tile's shared "
                  "memory", SSAM_PATH_TC;
}

/* what a launcher needs of the current device (onchip/device.cuh's cache, as ssam__stencil_prepare's
 * occupancy): the path and why (the SIMT one also where the device cannot give a block smem bytes of
 * shared memory), and for the tensor-core path the shared-memory limit raised to smem, the blocks per
 * SM and the SM count.  *d is written on success only. */
typedef struct ssam__tc_dev {
    int path, per_sm, sms;
    const char *why;
} ssam__tc_dev;
static inline int ssam__conv_tc_setup(ssam__tc_dev *d, const void *kernel, int threads, size_t smem)
{
    onchip_device_attrs a;
    ssam__tc_dev r = {SSAM_PATH_SIMT, 0, 0, ""};
    if (onchip_device_current(NULL, &a) != cudaSuccess) return (void)cudaGetLastError(), SSAM_ECUDA;
    r.path = ssam__conv_tc_path(kernel, &r.why);
    if (r.path == SSAM_PATH_TC && (size_t)a.smem_optin < smem) { /* e.g. sm_86/89 (99 KB): the SIMT kernel runs */
        r.path = SSAM_PATH_SIMT;
        r.why = "SIMT fallback: a block cannot get the tile's shared memory on this device (sm_86 / sm_89: 99 KB)";
    }
    if (r.path == SSAM_PATH_TC) {
        if (onchip_smem_allow(kernel, smem) != cudaSuccess || onchip_occupancy(kernel, threads, smem, &r.per_sm) != cudaSuccess)
            return (void)cudaGetLastError(), SSAM_ECUDA; /* no sticky error left for later launches */
        if (r.per_sm < 1) return SSAM_ECUDA; /* the block does not fit: cannot happen below the static_assert's 227 KB */
        r.sms = a.sms;
    }
    *d = r;
    return SSAM_SUCCESS;
}

/* the path a tensor-core launcher takes on the current device (SIMT too where the setup fails) */
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

/* a tensor-core convolution as its plan and run see it: the kernel, the SIMT instance of the same
 * filter (its plan and launch, where the tensor cores are not there), the weights' element bytes es,
 * the filter M x N, V elements a 16-byte vector, BH x BW tiles, threads a block, smem bytes of shared
 * memory */
typedef struct ssam__conv_tc_kern {
    const void *kernel;
    int (*simt_plan)(const ssam_conv2d_args *, ssam_plan *);
    int (*simt_launch)(const ssam_conv2d_args *, cudaStream_t);
    size_t es;
    int M, N, V, BH, BW, threads;
    size_t smem;
} ssam__conv_tc_kern;

/* the checks, the path on this device (*dv) and, on the tensor-core path, the grid of tiles; 0 or
 * SSAM_E* with *why the refusal */
static inline int ssam__conv2d_tc_prepare(const ssam_conv2d_args *a, const ssam__conv_tc_kern *k, ssam_conv2d_geom *g,
                                          ssam__tc_dev *dv, dim3 *grid, const char **why)
{
    int rc = ssam__conv2d_geometry(a, k->M, k->N, k->V, g, why);
    if (rc) return rc;
    rc = ssam__conv_tc_setup(dv, k->kernel, k->threads, k->smem);
    if (rc)
        return *why = "refused (SSAM_ECUDA): the device, or the kernel's shared-memory limit or occupancy, could not "
                      "be read or set", rc;
    if (dv->path != SSAM_PATH_TC) return SSAM_SUCCESS;
    rc = ssam__conv_tc_grid(g, k->BH, k->BW, ssam__conv_tc_shift(g->ax, k->V), dv, grid);
    if (rc) return *why = "refused (SSAM_ESIZE): more than 2^31 output tiles", rc;
    return SSAM_SUCCESS;
}

/* name_plan of SSAM_CONV2D_TC_DEFINE: conv.cuh's checks, the path on this device and why; on the SIMT
 * path the SIMT instance's plan too (its checks; the walk it names is its own) */
static inline int ssam__conv2d_tc_plan(const ssam_conv2d_args *a, ssam_plan *p, const ssam__conv_tc_kern *k)
{
    ssam_conv2d_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    const char *why = "";
    int rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__conv2d_tc_prepare(a, k, &g, &dv, &grid, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    if (dv.path == SSAM_PATH_TC) return ssam__conv_accept(p, SSAM_PATH_TC, dv.why, a->dst);
    rc = k->simt_plan(a, p);
    if (rc) return rc;
    p->path = SSAM_PATH_SIMT;
    p->why = dv.why;
    return SSAM_SUCCESS;
}

/* name_run of SSAM_CONV2D_TC_DEFINE: SSAM_PATH_SIMT the SIMT instance's launch, else the grid of tiles,
 * the weights into wt, the tensor-core launch; a plan of no passes launches nothing */
static inline int ssam__conv2d_tc_run(const ssam_conv2d_args *a, const ssam_plan *p, cudaStream_t stream,
                                      const ssam__conv_tc_kern *k, void *wt)
{
    ssam_conv2d_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    const char *why;
    int rc;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes < 1) return SSAM_SUCCESS;
    if (p->path == SSAM_PATH_SIMT) return k->simt_launch(a, stream);
    rc = ssam__conv2d_tc_prepare(a, k, &g, &dv, &grid, &why);
    if (rc) return rc;
    if (dv.path != SSAM_PATH_TC) return SSAM_ECUDA; /* a plan of another device */
    ssam__conv_weights(wt, a, k->es, k->M * k->N);
    return ssam__conv_launch(k->kernel, grid, k->threads, k->smem, stream, a, &g, wt);
}
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_CONV_TC_HOST_CUH */
#include <onchip/names_pop.h>
