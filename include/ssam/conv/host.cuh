#include <onchip/names_push.h>
/* ssam/conv/host.cuh -- the convolution's host side: checks and geometry, segments and grid, the walk,
 * name_plan and name_run. */
#ifndef SSAM_CONV_HOST_CUH
#define SSAM_CONV_HOST_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only (base.cuh has the integer types) */
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#endif

#include "../base.cuh"
#include "../plan.h"
#include "../regcache.cuh"
#include "geometry.cuh"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* an accepted plan: one launch of path, no time steps, no workspace, the answer in dst */
static inline int ssam__conv_accept(ssam_plan *p, int path, const char *why, void *dst)
{
    onchip__plan_set(p, path, why, 0, 1, 0, dst);
    return SSAM_SUCCESS;
}

/* the checks and geometry of every convolution kernel (SIMT and conv_tc.cuh); 0 or SSAM_E* with *why
 * the refusal */
static inline int ssam__conv2d_geometry(const ssam_conv2d_args *a, int M, int N, int V, ssam_conv2d_geom *g,
                                        const char **why)
{
    if (!a || !a->src || !a->dst || !a->weights)
        return *why = "refused (SSAM_ENULL): the args, src, dst or weights is NULL", SSAM_ENULL;
    if (a->flags & ~(SSAM_CONVOLVE | SSAM_VALID | SSAM_ANCHOR | SSAM_SYSTOLIC_WALK))
        return *why = "refused (SSAM_EFLAGS): flag bits besides SSAM_CONVOLVE, SSAM_VALID, SSAM_ANCHOR, "
                      "SSAM_SYSTOLIC_WALK", SSAM_EFLAGS;
    if (a->fw != M || a->fh != N)
        return *why = "refused (SSAM_EFILTER): fw, fh differ from the instance's filter M x N", SSAM_EFILTER;
    if (a->flags & SSAM_ANCHOR) {
        if ((a->flags & SSAM_VALID) || a->anchor_x < 0 || a->anchor_x >= M || a->anchor_y < 0 || a->anchor_y >= N)
            return *why = "refused (SSAM_EANCHOR): the placed anchor is outside the filter or given with SSAM_VALID",
                   SSAM_EANCHOR;
    } else if (a->anchor_x || a->anchor_y) {
        /* an anchor without its flag would be ignored: say so instead */
        return *why = "refused (SSAM_EANCHOR): anchor_x or anchor_y set without SSAM_ANCHOR", SSAM_EANCHOR;
    }
    if (a->width <= 0 || a->height <= 0) return *why = "refused (SSAM_ESIZE): width or height <= 0", SSAM_ESIZE;
    if (!(a->flags & SSAM_VALID) && (a->border < SSAM_BORDER_CONSTANT || a->border > SSAM_BORDER_WRAP))
        return *why = "refused (SSAM_EBORDER): border is none of SSAM_BORDER_*", SSAM_EBORDER;
    g->w = a->width;
    g->h = a->height;
    if (a->flags & SSAM_VALID) {
        if (M > a->width || N > a->height)
            return *why = "refused (SSAM_ESIZE): SSAM_VALID with a filter larger than the image", SSAM_ESIZE;
        g->ow = a->width - M + 1;
        g->oh = a->height - N + 1;
        g->ax = g->ay = 0;
        g->border = SSAM_BORDER_NEAREST; /* only lanes whose outputs are discarded read past the edge */
    } else {
        g->ow = a->width;
        g->oh = a->height;
        /* the kernel correlates: a convolution's flipped filter moves the anchor to M-1-ax */
        int ax = (a->flags & SSAM_ANCHOR) ? a->anchor_x : (M - 1) / 2;
        int ay = (a->flags & SSAM_ANCHOR) ? a->anchor_y : (N - 1) / 2;
        g->ax = (a->flags & SSAM_CONVOLVE) ? M - 1 - ax : ax;
        g->ay = (a->flags & SSAM_CONVOLVE) ? N - 1 - ay : ay;
        g->border = a->border;
    }
    g->sp = a->src_pitch ? a->src_pitch : a->width;
    g->dp = a->dst_pitch ? a->dst_pitch : g->ow;
    if (g->sp < a->width || g->dp < g->ow)
        return *why = "refused (SSAM_EPITCH): a pitch smaller than its image's width", SSAM_EPITCH;
    /* the bytes each image spans: in place, blocks would read rows others have overwritten */
    {
        const long long ss = onchip_span(a->height, g->sp, a->width, 16 / V), ds = onchip_span(g->oh, g->dp, g->ow, 16 / V);
        if (ss < 0 || ds < 0) return *why = "refused (SSAM_ESIZE): an image spans more bytes than a long long counts", SSAM_ESIZE;
        if (onchip_overlap(a->src, ss, a->dst, ds))
            return *why = "refused (SSAM_EOVERLAP): the bytes src and dst span meet (no in-place filtering)", SSAM_EOVERLAP;
    }
    g->vec = ssam_vec_ok(a->src, g->sp, V);
    g->ovec = ssam_vec_ok(a->dst, g->dp, V);
    g->cval = a->cval;
    g->seg = 0;
    return SSAM_SUCCESS;
}

/* a kernel's resident blocks of B threads per SM (no dynamic shared memory counted; onchip/device.cuh's
 * cache) into *n; 0 or SSAM_ECUDA */
static inline int ssam__conv_occupancy(const void *kernel, int B, int *n)
{
    if (onchip_occupancy(kernel, B, 0, n) != cudaSuccess || *n < 1) return (void)cudaGetLastError(), SSAM_ECUDA;
    return SSAM_SUCCESS;
}

/* the segments and grid of the SIMT kernels for geometry g: P rows a step, B threads, step columns a
 * warp; resident: 0 for the systolic walk's segments, else the queued walk's resident warps per SM (one
 * wave of segments).  Sets g->seg; 0 or SSAM_E* with *why the refusal */
static inline int ssam__conv2d_grid(ssam_conv2d_geom *g, int N, int P, int B, int step, int resident, dim3 *grid,
                                    const char **why)
{
    long long gx, gy;
    gx = (g->ow + (long long)(B / 32) * step - 1) / ((long long)(B / 32) * step);
    {
        int dev = 0, sms = 0;
        long long warps_x = (g->ow + step - 1) / step, want, want48, seg48, seg;
        if (cudaGetDevice(&dev) != cudaSuccess || onchip_device_sms(dev, &sms) != cudaSuccess)
            return *why = "refused (SSAM_ECUDA): the device's SM count could not be read", SSAM_ECUDA;
        if (resident > 0) {
            /* why: docs/ssam.md#conv-segments */
            want = ((long long)resident * sms + warps_x - 1) / warps_x;
            seg = (g->oh + want - 1) / want;
            if (seg < 4LL * (N - 1)) seg = 4LL * (N - 1);
        } else {
            /* 192 warps an SM, >= 4 (N - 1) rows, <= 48 warps' length; why: docs/ssam.md#conv-segments */
            want = (192LL * sms + warps_x - 1) / warps_x; /* segments wanted */
            want48 = (48LL * sms + warps_x - 1) / warps_x;
            seg = (g->oh + want - 1) / want;
            seg48 = (g->oh + want48 - 1) / want48;
            if (seg < 4LL * (N - 1)) seg = 4LL * (N - 1) < seg48 ? 4LL * (N - 1) : seg48;
        }
        g->seg = (int)(seg < 1 ? 1 : seg);
        if (g->seg > 4096) g->seg = 4096; /* the row table: (seg + N - 1 + 2 P) ints of shared memory */
        g->seg = (g->seg + P - 1) / P * P;
        gy = (g->oh + g->seg - 1) / g->seg;
    }
    if (gx > 2147483647LL || gy > 65535)
        return *why = "refused (SSAM_ESIZE): more than 65535 row segments (4096 rows each at most) or 2^31 block "
                      "columns", SSAM_ESIZE;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = 1;
    return SSAM_SUCCESS;
}

/* wt (mn elements of es bytes) from a->weights, flipped both ways for a convolution */
static inline void ssam__conv_weights(void *wt, const ssam_conv2d_args *a, size_t es, int mn)
{
    for (int i = 0; i < mn; i++)
        memcpy((char *)wt + (size_t)i * es,
               (const char *)a->weights + (size_t)((a->flags & SSAM_CONVOLVE) ? mn - 1 - i : i) * es, es);
}

/* launch kernel(src, dst, g, weights) on grid x threads, smem dynamic bytes; 0 or SSAM_ECUDA */
static inline int ssam__conv_launch(const void *kernel, dim3 grid, int threads, size_t smem, cudaStream_t stream,
                                    const ssam_conv2d_args *a, ssam_conv2d_geom *g, void *wt)
{
    const void *src = a->src;
    void *dst = a->dst;
    void *args[4] = {(void *)&src, (void *)&dst, (void *)g, wt};
    (void)cudaLaunchKernel(kernel, grid, dim3((unsigned)threads), args, smem, stream);
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}

/* a convolution as its plan and run see it: the systolic kernel and the queued one (qkernel), the
 * weights' element bytes es, the filter M x N, P rows a step, B threads, V the vector width, step the
 * columns a warp computes, qd the queued walk's rows in flight, q 1 where the filter has the queued walk
 * (SSAM__CONV_QOK) */
typedef struct ssam__conv_kern {
    const void *kernel, *qkernel;
    size_t es;
    int M, N, P, B, V, step, qd, q;
} ssam__conv_kern;

/* the walk for valid a of geometry g: SSAM_PATH_QUEUED for the queued walk's filters with the centred
 * column anchor, neither SSAM_VALID nor SSAM_SYSTOLIC_WALK; else SSAM_PATH_SYSTOLIC; *why the rule */
static inline int ssam__conv2d_walk(const ssam_conv2d_args *a, const ssam_conv2d_geom *g, const ssam__conv_kern *k,
                                    const char **why)
{
    if (!k->q)
        return *why = "systolic walk: the filter is none of the queued walk's (half / bf16 up to 9x9, float from 25 "
                      "taps up to 7x7)", SSAM_PATH_SYSTOLIC;
    if (a->flags & SSAM_SYSTOLIC_WALK) return *why = "systolic walk: SSAM_SYSTOLIC_WALK asks for it", SSAM_PATH_SYSTOLIC;
    if (a->flags & SSAM_VALID)
        return *why = "systolic walk: SSAM_VALID (the queued walk has no valid mode)", SSAM_PATH_SYSTOLIC;
    if (g->ax != (k->M - 1) / 2)
        return *why = "systolic walk: the anchor's column is not the centre (M-1)/2, where the queued walk's halo "
                      "lies (a convolution of even width moves it)", SSAM_PATH_SYSTOLIC;
    return *why = "queued walk: a small filter (half / bf16 up to 9x9, float from 25 taps up to 7x7) with the "
                  "centred column anchor", SSAM_PATH_QUEUED;
}

/* the checks, geometry and grid of one walk (q 1: the queued one, its occupancy asked first); 0 or
 * SSAM_E* with *why the refusal */
static inline int ssam__conv2d_prepare(const ssam_conv2d_args *a, const ssam__conv_kern *k, int q, ssam_conv2d_geom *g,
                                       dim3 *grid, const char **why)
{
    int occ = 0; /* the queued kernel's blocks per SM */
    int rc = q ? ssam__conv_occupancy(k->qkernel, k->B, &occ) : SSAM_SUCCESS;
    if (rc) return *why = "refused (SSAM_ECUDA): the queued kernel's occupancy could not be read", rc;
    rc = ssam__conv2d_geometry(a, k->M, k->N, k->V, g, why);
    if (rc) return rc;
    return ssam__conv2d_grid(g, k->N, q ? k->qd : k->P, k->B, q ? 32 * k->V : k->step, q ? occ * (k->B / 32) : 0,
                             grid, why);
}

/* name_plan of SSAM_CONV2D_DEFINE: every check name_run's launch needs, the walk and why */
static inline int ssam__conv2d_plan(const ssam_conv2d_args *a, ssam_plan *p, const ssam__conv_kern *k)
{
    ssam_conv2d_geom g;
    dim3 grid;
    const char *why = "", *rule = "";
    int path, rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__conv2d_geometry(a, k->M, k->N, k->V, &g, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    path = ssam__conv2d_walk(a, &g, k, &rule);
    rc = ssam__conv2d_prepare(a, k, path == SSAM_PATH_QUEUED, &g, &grid, &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    return ssam__conv_accept(p, path, rule, a->dst);
}

/* name_run of SSAM_CONV2D_DEFINE: the walk p names (the queued one only where the filter has it), its
 * grid, the weights into wt, the launch with the walk's row table in shared memory; a plan of no passes
 * launches nothing */
static inline int ssam__conv2d_run(const ssam_conv2d_args *a, const ssam_plan *p, cudaStream_t stream,
                                   const ssam__conv_kern *k, void *wt)
{
    ssam_conv2d_geom g;
    dim3 grid;
    const char *why;
    int q, rc;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes < 1) return SSAM_SUCCESS;
    q = p->path == SSAM_PATH_QUEUED && k->q;
    rc = ssam__conv2d_prepare(a, k, q, &g, &grid, &why);
    if (rc) return rc;
    ssam__conv_weights(wt, a, k->es, k->M * k->N);
    return ssam__conv_launch(q ? k->qkernel : k->kernel, grid, k->B,
                             (size_t)(g.seg + k->N - 1 + (q ? 2 * k->qd : k->P)) * sizeof(int), stream, a, &g, wt);
}

#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_CONV_HOST_CUH */
#include <onchip/names_pop.h>
