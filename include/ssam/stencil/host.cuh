#include <onchip/names_push.h>
/* ssam/stencil/host.cuh -- the stencils' host side: arguments, geometry, checks, grids, plans, launches.
 *
 * WHAT (the host helpers of ssam/stencil.cuh, ssam/temporal.cuh, ssam/temporal3d.cuh, stencil_tc.cuh)
 *   ssam_stencil_args     onchip_stencil_args (onchip/stencil.h): what a user fills
 *   ssam_stencil_geom     what the kernels take besides pointers and coefficients
 *   ssam_stencil_strerror the stencils' names of the status codes
 *   ssam__stencil_prepare checks, geometry and grid of one launch (2D row segments, 3D z segments);
 *                         ssam__stencil_prepare_why the same with the refusal's sentence
 *   ssam__stencil_launch  prepare, the coefficients into the kernel's parameter, cudaLaunchKernel:
 *                         one launch of a kernel described by a ssam__stencil_kern
 *   ssam__stencil_plan, ssam__stencil_run   name_plan and name_run of the one-pass stencils: the
 *                         checks and the plan's head; a->steps launches, ping-pong
 *   ssam__stencil_accept    an accepted plan's head (onchip__plan_refuse: a refused one)
 *   Library code: every function returns a status code (ssam/base.cuh), never prints or exits.
 * COST
 *   The resident blocks per SM are asked once per device and kernel (onchip/device.cuh's cache).
 * NVRTC
 *   Under __CUDACC_RTC__ only the structs and boundary codes remain (the kernels take
 *   ssam_stencil_geom); the functions are host code.
 */
#ifndef SSAM_STENCIL_HOST_CUH
#define SSAM_STENCIL_HOST_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <cuda_runtime.h>
#include <string.h>
#endif

#include "../base.cuh"
#include "../plan.h"
#include "../regcache.cuh"
#include <onchip/boundary.h>
#include <onchip/stencil.h>

/* the boundary policies the ssam stencils take (onchip/boundary.h): keep-extent (also named
 * SSAM_STENCIL_DIRICHLET), periodic (SSAM_STENCIL_PERIODIC), and keep-radius for a shape whose extents
 * all equal its radius (the same cells); any other is SSAM_EBORDER */
#define SSAM_STENCIL_DIRICHLET ONCHIP_KEEP_EXTENT
#define SSAM_STENCIL_PERIODIC ONCHIP_PERIODIC

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
static inline const char *ssam_stencil_strerror(int rc)
{
    if (rc == SSAM_EBORDER) return "ssam: a boundary policy the stencil does not give (ONCHIP_KEEP_EXTENT, ONCHIP_PERIODIC; ONCHIP_KEEP_RADIUS for a shape whose extents all equal its radius)";
    if (rc == SSAM_EFILTER) return "ssam: ncoef differs from the stencil's number of coefficients";
    if (rc == SSAM_EFLAGS) return "ssam: args.path is a path the stencil does not take (0, its own, or SSAM_PATH_TC / SSAM_PATH_SIMT where a tensor-core stencil runs them)";
    return ssam_strerror(rc);
}
#endif

/* the arguments (onchip/stencil.h); what each stencil reads and ignores: docs/ssam.md's argument
 * table */
typedef onchip_stencil_args ssam_stencil_args;

/* the stencils' arithmetic types: float and double (the generators' first check); ::type is T, or
 * float for a refused T (a generator that defines two kernels checks T once, on the first) */
template <class T>
struct ssam__stencil_real : ssam__accept<0, float> {};
template <>
struct ssam__stencil_real<float> : ssam__accept<1, float> {};
template <>
struct ssam__stencil_real<double> : ssam__accept<1, double> {};

/* what the kernels need besides pointers and coefficients */
typedef struct ssam_stencil_geom {
    int nx, ny, nz;
    long long pitch, plane;
    int periodic; /* 1: wrap, 0: Dirichlet */
    int vld, vst; /* 16-byte loads / stores allowed */
    int seg;      /* rows (2D) or planes (3D) per block */
} ssam_stencil_geom;

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* 2D row segments for kernels that stream `warm` extra rows per segment (ssam/temporal.cuh): the
 * segment count s (at most 65535) whose waves of resident blocks x (segment + warm) is smallest,
 * stopping at segments shorter than max(warm, 16) rows; the segment length */
static inline long long ssam__stencil_segments_warm(long long ny, long long gx, long long resident, long long warm)
{
    long long s, best = 1, bcost = -1;
    for (s = 1; s <= ny && s <= 65535; s++) {
        const long long seg = (ny + s - 1) / s, nseg = (ny + seg - 1) / seg;
        const long long cost = ((gx * nseg + resident - 1) / resident) * (seg + warm);
        if (seg < (warm > 16 ? warm : 16) && bcost >= 0) break; /* shorter than their warm-up: no gain */
        if (bcost < 0 || cost * 1000 < bcost * 999) { bcost = cost; best = seg; }
    }
    return best;
}

/* One generated kernel as its launcher sees it: the shape's ncoef and npts; V the vector width; step
 * the columns a warp computes; B threads, P rows a thread; wy a 3D block's output rows (2D: 0); nzw
 * the planes the shape spans; grid2d, warm the 2D segment rules (below; warm -1: not warm); es, cs
 * the bytes of a cell and a coefficient; occ_smem the occupancy's shared memory, a launch's dynamic
 * one smem0 + smem_seg g.seg; policies: bit p for boundary policy p. */
typedef struct ssam__stencil_kern {
    const void *fn;
    int dims, ncoef, npts, V, step, B, P, wy, nzw, grid2d, warm;
    size_t es, cs, occ_smem, smem0, smem_seg;
    unsigned policies;
    int path;        /* the one-pass instance's path and why, for its name_plan */
    const char *why;
} ssam__stencil_kern;

/* the boundary policies of the one-pass and temporal kernels for shape S on a domain of dims 2 or 3:
 * keep-extent and periodic, and keep-radius where it keeps the same cells (every extent equal to the
 * radius) */
template <class S>
static inline unsigned ssam__stencil_policies(int dims)
{
    const onchip_extent e = {S::xlo, S::xhi, S::ylo, S::yhi, S::zlo, S::zhi, S::rmax, dims};
    return (1u << ONCHIP_KEEP_EXTENT) | (1u << ONCHIP_PERIODIC) |
           (onchip_boundary_same(ONCHIP_KEEP_EXTENT, ONCHIP_KEEP_RADIUS, &e) ? 1u << ONCHIP_KEEP_RADIUS : 0u);
}
/* a kernel of shape S: the fields every launcher sets; the rest 0 (wy, nzw 1, grid2d, smem), warm -1 */
template <class S>
static inline ssam__stencil_kern ssam__stencil_kern_of(const void *fn, int dims, int V, int step, int B, int P)
{
    ssam__stencil_kern k;
    memset(&k, 0, sizeof k);
    k.fn = fn;
    k.dims = dims;
    k.ncoef = S::ncoef;
    k.npts = S::npts;
    k.V = V;
    k.step = step;
    k.B = B;
    k.P = P;
    k.nzw = 1;
    k.warm = -1;
    k.policies = ssam__stencil_policies<S>(dims);
    return k;
}

/* 0 or an SSAM_E* code with *why the refusal; fills g and the grid of one launch of kernel k (its
 * resident blocks per SM, with k->occ_smem bytes, from onchip/device.cuh's cache) */
static inline int ssam__stencil_prepare_why(const ssam_stencil_args *a, const ssam__stencil_kern *k, ssam_stencil_geom *g,
                                            dim3 *grid, const char **why)
{
    const int dims = k->dims, step = k->step, B = k->B, P = k->P, wy = k->wy, nzw = k->nzw;
    long long gx, gy, gz = 1, span, resident;
    int dev = 0, sms = 0, occ = 0;
    if (!a || !a->src || !a->dst || !a->coef)
        return *why = "refused (SSAM_ENULL): the args, src, dst or coef is NULL", SSAM_ENULL;
    if (a->nx <= 0 || a->ny <= 0) return *why = "refused (SSAM_ESIZE): nx or ny <= 0", SSAM_ESIZE;
    if (dims == 2 ? (a->nz != 0 && a->nz != 1) : a->nz <= 0)
        return *why = dims == 2 ? "refused (SSAM_ESIZE): a 2D stencil takes nz 0 or 1" : "refused (SSAM_ESIZE): nz <= 0",
               SSAM_ESIZE;
    if (a->boundary < 0 || a->boundary > 31 || !(k->policies >> a->boundary & 1u))
        return *why = "refused (SSAM_EBORDER): a boundary policy the stencil does not give (keep-extent, periodic; "
                      "keep-radius where every extent equals the radius)",
               SSAM_EBORDER;
    if (a->ncoef != k->ncoef)
        return *why = "refused (SSAM_EFILTER): ncoef differs from the shape's coefficient count (its largest I + 1)",
               SSAM_EFILTER;
    if (onchip_stencil_plain_why(a))
        return *why = a->update != ONCHIP_UPDATE_SUM
                          ? "refused (SSAM_EUPDATE): an update other than ONCHIP_UPDATE_SUM (args.update); this stencil "
                            "forms the plain sum only"
                          : "refused (SSAM_EUPDATE): a coefficient field (args.field[]); this stencil takes constant "
                            "coefficients only",
               SSAM_EUPDATE;
    g->nx = a->nx;
    g->ny = a->ny;
    g->nz = dims == 2 ? 1 : a->nz;
    g->pitch = a->pitch ? a->pitch : a->nx;
    if (g->pitch < a->nx) return *why = "refused (SSAM_EPITCH): pitch < nx", SSAM_EPITCH;
    g->plane = a->plane ? a->plane : g->pitch * a->ny;
    if (dims == 3 && g->plane < g->pitch * a->ny) return *why = "refused (SSAM_EPITCH): plane < pitch * ny", SSAM_EPITCH;
    /* the elements each buffer spans; the two ranges must not meet */
    span = onchip_span(a->ny, g->pitch, a->nx, 1); /* elements of a plane's rows, then bytes of all planes */
    span = span < 0 ? -1 : onchip_span(g->nz, dims == 3 ? g->plane : 0, span, (long long)k->es);
    if (span < 0) return *why = "refused (SSAM_ESIZE): a buffer spans more bytes than a long long counts", SSAM_ESIZE;
    if (onchip_overlap(a->src, span, a->dst, span))
        return *why = "refused (SSAM_EOVERLAP): the bytes src and dst span meet", SSAM_EOVERLAP;
    g->periodic = a->boundary == ONCHIP_PERIODIC;
    g->vld = ssam_vec_ok(a->src, g->pitch, k->V) && (dims == 2 || g->plane % k->V == 0);
    g->vst = ssam_vec_ok(a->dst, g->pitch, k->V) && (dims == 2 || g->plane % k->V == 0);
    if (cudaGetDevice(&dev) != cudaSuccess || onchip_device_sms(dev, &sms) != cudaSuccess)
        return *why = "refused (SSAM_ECUDA): the device or its SM count could not be read", SSAM_ECUDA;
    if (onchip_smem_allow(k->fn, k->occ_smem) != cudaSuccess || onchip_occupancy(k->fn, B, k->occ_smem, &occ) != cudaSuccess)
        return *why = "refused (SSAM_ECUDA): the kernel's shared-memory limit or occupancy could not be set or read",
               SSAM_ECUDA;
    resident = (long long)(occ > 0 ? occ : 1) * sms; /* blocks the GPU holds at once */
    if (dims == 2) {
        /* column strips of B/32 warps; rows in segments so that the grid is at most n full waves
         * of resident blocks (no partial last wave; n = 4 by default, SSAM__STENCIL2D_GRID_DEFAULT) */
        long long warps_x = (a->nx + step - 1) / step, want;
        gx = (warps_x + B / 32 - 1) / (B / 32);
        if (k->warm >= 0) {
            if (a->ny > 65535LL * 4096) /* the documented limit, as the rule below */
                return *why = "refused (SSAM_ESIZE): ny > 65535 * 4096", SSAM_ESIZE;
            g->seg = (int)ssam__stencil_segments_warm(a->ny, gx, resident, k->warm);
        } else {
            if (k->grid2d == 1) /* the first rule: about 48 warps per SM, whatever the occupancy */
                want = (48LL * sms + warps_x - 1) / warps_x;
            else /* grid2d (0: 2) full waves */
                want = (k->grid2d >= 2 ? k->grid2d : 2) * resident / gx;
            if (want < 1) want = 1;
            g->seg = (int)((a->ny + want - 1) / want);
            if (g->seg > 4096) g->seg = 4096;
            g->seg = (g->seg + P - 1) / P * P;
        }
        gy = (a->ny + g->seg - 1) / g->seg;
    } else {
        /* column strips x (wy rows per block) tiles, planes in segments of >= 8 (NZ - 1) planes.
         * The number of segments s is chosen to fill the waves of resident blocks: the time is
         * about waves x (seg + NZ - 1) planes, so s maximises tiles nz / (waves resident (seg + NZ - 1))
         * (the first s wins ties: longer sweeps, fewer halo planes) */
        long long tiles, s, best = -1;
        const int minseg = 8 * (nzw > 1 ? nzw - 1 : 1);
        double bscore = -1.0;
        (void)P;
        gx = (a->nx + step - 1) / step;
        gy = (a->ny + wy - 1) / wy;
        tiles = gx * gy;
        for (s = 1; s <= a->nz && s <= 1024; s++) {
            const long long seg = (a->nz + s - 1) / s, nseg = (a->nz + seg - 1) / seg;
            const long long waves = (tiles * nseg + resident - 1) / resident;
            double score;
            if (seg > 4096) continue;
            if (seg < minseg && best > 0) break;
            score = (double)tiles * a->nz / ((double)waves * resident * (double)(seg + nzw - 1));
            if (score > bscore * 1.0001) { bscore = score; best = seg; }
        }
        g->seg = (int)(best > 0 ? best : 4096);
        gz = (a->nz + g->seg - 1) / g->seg;
    }
    if (gx > 2147483647LL || gy > 65535 || gz > 65535)
        return *why = dims == 2 ? "refused (SSAM_ESIZE): more than 65535 row segments (ny > 65535 * 4096) or 2^31 "
                                  "column strips"
                                : "refused (SSAM_ESIZE): more than 65535 row tiles or z segments, or 2^31 column strips",
               SSAM_ESIZE;
    grid->x = (unsigned)gx;
    grid->y = (unsigned)gy;
    grid->z = (unsigned)gz;
    return SSAM_SUCCESS;
}

/* the same without the sentence (the temporal stencils' launches) */
static inline int ssam__stencil_prepare(const ssam_stencil_args *a, const ssam__stencil_kern *k, ssam_stencil_geom *g,
                                        dim3 *grid)
{
    const char *why = "";
    return ssam__stencil_prepare_why(a, k, g, grid, &why);
}

/* name_launch of the stencils: checks and geometry, the kernel's coefficient parameter cf (npts
 * coefficients of cs bytes: the caller's host array, a->ncoef of them, the rest 0), the launch of
 * kernel(src, dst, g, [*steps,] cf) (steps: NULL, or the temporal kernels' step count) */
static inline int ssam__stencil_launch(const ssam_stencil_args *a, cudaStream_t stream, const ssam__stencil_kern *k,
                                       void *cf, const int *steps)
{
    ssam_stencil_geom g;
    dim3 grid;
    int rc = ssam__stencil_prepare(a, k, &g, &grid);
    if (rc) return rc;
    {
        const int n = a->ncoef < k->npts ? a->ncoef : k->npts;
        void *args5[5] = {(void *)&a->src, (void *)&a->dst, (void *)&g, (void *)steps, cf};
        void *args4[4] = {(void *)&a->src, (void *)&a->dst, (void *)&g, cf};
        memcpy(cf, a->coef, (size_t)n * k->cs);
        memset((char *)cf + (size_t)n * k->cs, 0, (size_t)(k->npts - n) * k->cs);
        (void)cudaLaunchKernel(k->fn, grid, dim3((unsigned)k->B), steps ? args5 : args4,
                               k->smem0 + k->smem_seg * (size_t)g.seg, stream);
    }
    return cudaPeekAtLastError() == cudaSuccess ? SSAM_SUCCESS : SSAM_ECUDA;
}

/* an accepted plan of one launch a step: path and why (0 steps: nothing to launch), a->steps passes,
 * no workspace, the state in src or dst by the parity of the steps */
static inline int ssam__stencil_accept(const ssam_stencil_args *a, ssam_plan *p, int path, const char *why)
{
    onchip__plan_set(p, path, a->steps == 0 ? ONCHIP_WHY_NO_STEPS : why, 1, a->steps, 0,
                     (a->steps & 1) ? a->dst : (void *)a->src);
    return SSAM_SUCCESS;
}
/* the checks of every stencil plan before the launch's: a, steps >= 0, a->path 0 or one of the
 * paths (n of them); 0, or the code with *why */
static inline int ssam__stencil_plan_check(const ssam_stencil_args *a, const int *paths, int n, const char *path_why,
                                           const char **why)
{
    int i, ok = a && a->path == 0;
    if (!a || !a->src || !a->dst || !a->coef)
        return *why = "refused (SSAM_ENULL): the args, src, dst or coef is NULL", SSAM_ENULL;
    if (a->steps < 0) return *why = "refused (SSAM_ESIZE): steps < 0", SSAM_ESIZE;
    for (i = 0; i < n; i++) ok |= a->path == paths[i];
    if (!ok) return *why = path_why, SSAM_EFLAGS;
    return SSAM_SUCCESS;
}

/* name_plan of the one-pass stencils: every check of kernel k's launch, the path (k->path:
 * SSAM_PATH_ONEPASS or SSAM_PATH_SLICE, the instance's one; a->path 0 or that) and why (k->why) */
static inline int ssam__stencil_plan(const ssam_stencil_args *a, ssam_plan *p, const ssam__stencil_kern *k)
{
    int path = k->path;
    ssam_stencil_geom g;
    dim3 grid;
    const char *no = "";
    int rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__stencil_plan_check(a, &path, 1,
                                  path == SSAM_PATH_SLICE
                                      ? "refused (SSAM_EFLAGS): args.path must be 0 or SSAM_PATH_SLICE (the instance's schedule)"
                                      : "refused (SSAM_EFLAGS): args.path must be 0 or SSAM_PATH_ONEPASS (the instance's schedule)",
                                  &no);
    if (!rc) rc = ssam__stencil_prepare_why(a, k, &g, &grid, &no);
    if (rc) return onchip__plan_refuse(p, rc, no);
    return ssam__stencil_accept(a, p, path, k->why);
}
/* name_run of the one-pass stencils: p->passes launches of kernel k (cf its coefficient parameter),
 * pass t reading src and writing dst for even t, the reverse for odd */
static inline int ssam__stencil_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t stream,
                                    const ssam__stencil_kern *k, void *cf)
{
    ssam_stencil_args b;
    if (!a || !p) return SSAM_ENULL;
    b = *a;
    for (long long t = 0; t < p->passes; t++) {
        int rc;
        b.src = (t & 1) ? (const void *)a->dst : a->src;
        b.dst = (t & 1) ? (void *)a->src : a->dst;
        if ((rc = ssam__stencil_launch(&b, stream, k, cf, NULL))) return rc;
    }
    return SSAM_SUCCESS;
}

#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_STENCIL_HOST_CUH */
#include <onchip/names_pop.h>
