#include <onchip/names_push.h>
/* ssam/stencil_tc/host.cuh -- the tensor-core stencils' host side: the box, the grid, the checks,
 * name_plan and name_run. */
#ifndef SSAM_STENCIL_TC_HOST_CUH
#define SSAM_STENCIL_TC_HOST_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the kernels only */
#include <string.h>
#endif

#include "../conv_tc/host.cuh"
#include "../plan.h"
#include "../stencil/host.cuh"
#include "../stencil_shapes.cuh"

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the box from the host array c: w[e] = c[I] at each point's position, in[e] its flag; 1 where an
 * offset is listed twice (refused: docs/ssam.md#box-stencils-on-tensor-cores-stencil_tccuh) */
template <int NX, int NY, int XLO, int YLO, int ZLO, class T, class... P>
static inline int ssam__stc_fill(T *w, unsigned char *in, const void *coef, onchip_shape<P...>)
{
    const T *c = (const T *)coef;
    int dup = 0;
    ((w[((P::dz - ZLO) * NY + P::dy - YLO) * NX + P::dx - XLO] = c[P::i],
      dup |= in[((P::dz - ZLO) * NY + P::dy - YLO) * NX + P::dx - XLO]++),
     ...);
    return dup;
}
/* the kernel parameter wt (the box, W: name_w) from a: SSAM_ENULL, SSAM_EFILTER (an offset listed
 * twice) or 0; the box stays zero when a->ncoef is wrong (the launch refuses it later) */
template <class S, int NX, int NY, int XLO, int YLO, int ZLO, class W>
static inline int ssam__stc_box(W *wt, const ssam_stencil_args *a)
{
    if (!a || !a->src || !a->dst || !a->coef) return SSAM_ENULL;
    memset(wt, 0, sizeof *wt); /* the box; an offset listed twice is refused on every path */
    if (a->ncoef == S::ncoef && ssam__stc_fill<NX, NY, XLO, YLO, ZLO>(wt->w, wt->in, a->coef, S())) return SSAM_EFILTER;
    return SSAM_SUCCESS;
}

/* 2D: a block walks a segment of the tile rows of its column (grid.z segments), the next tile's
 * copies in flight during this one: the segment length of ssam__stencil_segments_warm (whole waves
 * of resident blocks, one tile of warm-up) */
static inline int ssam__stc_grid2d(ssam_stencil_geom *g, int BH, const ssam__tc_dev *d, dim3 *grid)
{
    const long long rows = ((long long)g->ny + BH - 1) / BH;
    g->seg = (int)ssam__stencil_segments_warm(rows, grid->x, (long long)d->per_sm * d->sms, 1);
    grid->y = 1;
    grid->z = (unsigned)((rows + g->seg - 1) / g->seg);
    return grid->z <= 65535 ? SSAM_SUCCESS : SSAM_ESIZE;
}

/* a tensor-core stencil as its plan and run see it: the kernel, box (fills the kernel's parameter wt
 * from a: ssam__stc_box), the SIMT fallback's plan and run, dims 2 or 3, the shape's ncoef, the
 * block's tile BH x BWD and NT threads, the planes NZ the box spans, es the element's bytes, smem
 * the dynamic shared memory, policies the boundary policies it gives */
typedef struct ssam__stc_kern {
    const void *kernel;
    int (*box)(void *, const ssam_stencil_args *);
    int (*simt_plan)(const ssam_stencil_args *, ssam_plan *);
    int (*simt_run)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t);
    int dims, ncoef, BH, BWD, NT, NZ;
    size_t es, smem;
    unsigned policies;
} ssam__stc_kern;

/* the tensor-core launch's checks and geometry on device dv (dims 2: one plane, whatever plane
 * says, its tiles walked in segments); 0 or SSAM_E* with *why the refusal */
static inline int ssam__stc_geometry(const ssam_stencil_args *a, const ssam__stc_kern *t, const ssam__tc_dev *dv,
                                     ssam_stencil_geom *g, dim3 *grid, const char **why)
{
    ssam_stencil_args b = *a;
    ssam__stencil_kern k;
    int rc;
    if (t->dims == 2 && b.nz != 0 && b.nz != 1) return *why = "refused (SSAM_ESIZE): a 2D stencil takes nz 0 or 1", SSAM_ESIZE;
    if (t->dims == 2) b.nz = 1, b.plane = 0;
    memset(&k, 0, sizeof k);
    k.fn = t->kernel;
    k.dims = 3;
    k.ncoef = t->ncoef;
    k.es = t->es;
    k.V = (int)(16 / t->es);
    k.step = t->BWD;
    k.B = t->NT;
    k.P = 1;
    k.wy = t->dims == 2 ? (1 << 30) : t->BH;
    k.nzw = t->NZ;
    k.occ_smem = t->smem;
    k.warm = -1;
    k.policies = t->policies;
    rc = ssam__stencil_prepare_why(&b, &k, g, grid, why);
    if (rc) return rc;
    if (t->dims == 2 && (rc = ssam__stc_grid2d(g, t->BH, dv, grid)))
        return *why = "refused (SSAM_ESIZE): more than 65535 segments of tile rows", rc;
    return SSAM_SUCCESS;
}

/* name_plan of the tensor-core stencils (wt: room for the kernel's parameter): the box's check (an
 * offset listed twice), steps, a->path (0, SSAM_PATH_TC, SSAM_PATH_SIMT), the path (tensor cores
 * where the device and build run them, else the SIMT fallback, whose plan it then is), why */
static inline int ssam__stencil_tc_plan(const ssam_stencil_args *a, ssam_plan *p, const ssam__stc_kern *t, void *wt)
{
    static const int paths[2] = {SSAM_PATH_TC, SSAM_PATH_SIMT};
    ssam_stencil_args b;
    ssam_stencil_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    const char *why = "";
    int rc;
    if (!p) return SSAM_ENULL;
    rc = ssam__stencil_plan_check(a, paths, 2, "refused (SSAM_EFLAGS): args.path must be 0, SSAM_PATH_TC or SSAM_PATH_SIMT",
                                  &why);
    if (rc) return onchip__plan_refuse(p, rc, why);
    if (t->box(wt, a))
        return onchip__plan_refuse(p, SSAM_EFILTER, "refused (SSAM_EFILTER): the shape lists an offset twice (the box "
                                                     "holds one weight a position)");
    if (a->path == SSAM_PATH_SIMT) {
        dv.path = SSAM_PATH_SIMT;
        dv.why = "SIMT fallback, as args.path asks (SSAM_PATH_SIMT)";
    } else {
        if (ssam__conv_tc_setup(&dv, t->kernel, t->NT, t->smem))
            return onchip__plan_refuse(p, SSAM_ECUDA, "refused (SSAM_ECUDA): the device, or the kernel's shared-memory "
                                                       "limit or occupancy, could not be read or set");
        if (a->path == SSAM_PATH_TC && dv.path != SSAM_PATH_TC)
            return onchip__plan_refuse(p, SSAM_EFLAGS, "refused (SSAM_EFLAGS): args.path asks for SSAM_PATH_TC, which "
                                                        "cannot run here (a device or PTX below sm_80, or a block cannot "
                                                        "get the tile's shared memory)");
        if (a->path == SSAM_PATH_TC) dv.why = "tensor cores, as args.path asks (SSAM_PATH_TC)";
    }
    if (dv.path == SSAM_PATH_TC) {
        rc = ssam__stc_geometry(a, t, &dv, &g, &grid, &why);
        if (rc) return onchip__plan_refuse(p, rc, why);
        return ssam__stencil_accept(a, p, SSAM_PATH_TC, dv.why);
    }
    b = *a; /* the fallback: the SIMT instance's plan (its checks), with this path and why */
    b.path = 0;
    rc = t->simt_plan(&b, p);
    if (rc) return rc;
    p->path = SSAM_PATH_SIMT;
    if (a->steps) p->why = dv.why;
    return SSAM_SUCCESS;
}

/* name_run of the tensor-core stencils: SSAM_PATH_SIMT the fallback's run, else p->passes launches
 * of the kernel, ping-pong (wt: the kernel's parameter, filled here) */
static inline int ssam__stencil_tc_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t stream,
                                       const ssam__stc_kern *t, void *wt)
{
    ssam_stencil_args b;
    ssam_stencil_geom g;
    ssam__tc_dev dv;
    dim3 grid;
    const char *why;
    int rc;
    if (!a || !p) return SSAM_ENULL;
    if (p->passes < 1) return SSAM_SUCCESS;
    b = *a;
    b.path = 0;
    if (p->path == SSAM_PATH_SIMT) return t->simt_run(&b, p, stream);
    if ((rc = t->box(wt, a))) return rc;
    if (ssam__conv_tc_setup(&dv, t->kernel, t->NT, t->smem)) return SSAM_ECUDA;
    if (dv.path != SSAM_PATH_TC) return SSAM_ECUDA; /* a plan of another device */
    for (long long s = 0; s < p->passes; s++) {
        void *args[4] = {(void *)&b.src, (void *)&b.dst, (void *)&g, wt};
        b.src = (s & 1) ? (const void *)a->dst : a->src;
        b.dst = (s & 1) ? (void *)a->src : a->dst;
        if ((rc = ssam__stc_geometry(&b, t, &dv, &g, &grid, &why))) return rc;
        (void)cudaLaunchKernel(t->kernel, grid, dim3((unsigned)t->NT), args, t->smem, stream);
        if (cudaPeekAtLastError() != cudaSuccess) return SSAM_ECUDA;
    }
    return SSAM_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_STENCIL_TC_HOST_CUH */
#include <onchip/names_pop.h>
