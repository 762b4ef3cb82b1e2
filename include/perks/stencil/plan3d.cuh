#include <onchip/names_push.h>
/* perks/stencil/plan3d.cuh -- the host side of PERKS_STENCIL3D_DEFINE: perks_stencil3d_args, the
 * geometry perks__s3d_geom (name_geom() fills one), perks__s3d_plan (name_plan), and the 3D
 * perks__stencil_steps / perks__stencil_launch that perks__stencil_run (perks/stencil/plan.cuh, name_run)
 * calls: one copy of the host logic for every instantiation.  Every function returns a perks status
 * (perks/base.h).  Under NVRTC: perks_stencil3d_args only.
 */
#ifndef PERKS_STENCIL_PLAN3D_CUH
#define PERKS_STENCIL_PLAN3D_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the arguments' type only */
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>
#endif

#include <onchip/device.cuh>
#include "../base.h"
#include "../plan.h"
#include "plan.cuh"

/* the arguments (onchip/stencil.h), as in 2D with nz >= 1 (plane 0 or nx * ny), cache NONE, SMEM
 * or MIX (the same here; REG: PERKS_ESIZE), cache_rows_max the cached planes a tile, path
 * PERKS_KERNEL_AUTO or PERKS_KERNEL_STEPS */
typedef onchip_stencil_args perks_stencil3d_args;

/* ---- host pieces of the 3D generator: one copy for every instantiation */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* an instantiation's sizes and kernel (name_geom() fills one) */
typedef struct perks__s3d_geom {
    int bx, by, r, pp, nt, npf, cell_bytes; /* tile columns, rows, radius, framed plane's cells, threads,
                                               ring cells a thread, sizeof(T) */
    int ncoef;                              /* the shape's coefficients */
    size_t ring_bytes;                      /* name_ring_bytes(): 2 RC planes */
    const void *kernel;                     /* name_kernel */
    unsigned policies;                      /* the boundary policies it gives (bit p for policy p) */
} perks__s3d_geom;

/* the persistent plan (args checked): tiles, cached planes, % cached */
static inline int perks__s3d_pers_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc, bps, maxb, tx, ty, slabs, th, tpb, nc;
    long long across, planes, cs;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kernel, g->nt, (long)g->ring_bytes, g->npf * g->cell_bytes, g->cell_bytes, g->pp)))
        return rc;
    maxb = perks_plan_max_blocks(&d, &k);
    if (maxb < 1) return PERKS_ERESOURCE;
    if (a->blocks_per_sm > maxb) return PERKS_ESIZE;
    bps = a->blocks_per_sm;
    if (!bps) {
        bps = perks_plan_little(&d, &k);
        if (bps > maxb) bps = maxb;
    }
    rc = perks_plan_make(p, &d, &k, (long long)a->nx * a->ny * a->nz, bps);
    if (rc) return rc;
    planes = a->cache == PERKS_CACHE_NONE ? 0 : p->smem_cache_cells / g->pp;
    tx = (a->nx + g->bx - 1) / g->bx;
    ty = (a->ny + g->by - 1) / g->by;
    across = (long long)tx * ty;
    if (across <= p->grid) {
        slabs = (int)(p->grid / across);
        if (slabs > a->nz) slabs = a->nz;
        th = (a->nz + slabs - 1) / slabs;
        slabs = (a->nz + th - 1) / th;
        p->tiles = (int)(across * slabs);
        tpb = 1;
    } else {
        if (across > (1LL << 30)) return PERKS_ESIZE;
        slabs = 1;
        th = a->nz;
        p->tiles = (int)across;
        tpb = (int)((across + p->grid - 1) / p->grid);
    }
    p->grid = (p->tiles + tpb - 1) / tpb;
    nc = (int)(planes / tpb < th ? planes / tpb : th);
    if (a->cache_rows_max > 0 && nc > a->cache_rows_max) nc = a->cache_rows_max;
    p->tiles_x = tx;
    p->tiles_y = ty;
    p->tile_w = g->bx;
    p->tile_h = g->by;
    p->tile_len = th;
    p->reg_rows = 0;
    p->smem_rows = nc;
    p->smem_cache_cells = (long)nc * g->pp;
    p->smem_bytes = (long)g->ring_bytes + (long)tpb * nc * g->pp * (long)g->cell_bytes;
    cs = 0;
    for (int i = 0; i < slabs; i++) {
        int len = a->nz - i * th < th ? a->nz - i * th : th;
        cs += len < nc ? len : nc;
    }
    p->cells_reg = 0;
    p->cells_smem = cs * a->nx * a->ny;
    p->cells_dev = p->cells - p->cells_smem;
    p->cached_fraction = (double)p->cells_smem / (double)p->cells;
    p->path = p->cells_smem == p->cells ? PERKS_PLAN_RESIDENT : PERKS_PLAN_STREAM;
    return PERKS_SUCCESS;
}

/* one launch a step (args checked): the same kernel with nothing cached, one step, tiles of at
 * least 16 planes sized to fill about two waves of resident blocks (the kernel's shared memory
 * raised to the ring, its occupancy queried; neither for 0 steps) */
static inline int perks__stencil_steps_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g)
{
    int dev, sms, bps = 0, slabs, tx, ty, th;
    long long across, tiles;
    memset(p, 0, sizeof *p);
    p->path = PERKS_PLAN_STEPS;
    p->block = g->nt;
    p->tile_w = g->bx;
    p->tile_h = g->by;
    p->smem_bytes = (long)g->ring_bytes;
    p->dyn_smem_base = (long)g->ring_bytes;
    p->cell_bytes = g->cell_bytes;
    p->cells = (long long)a->nx * a->ny * a->nz;
    p->cells_dev = p->cells;
    if (a->steps == 0) return PERKS_SUCCESS;
    if (cudaGetDevice(&dev) != cudaSuccess || onchip_device_sms(dev, &sms) != cudaSuccess) return PERKS_ECUDA;
    if (onchip_smem_allow(g->kernel, g->ring_bytes) != cudaSuccess) return PERKS_ECUDA;
    if (onchip_occupancy(g->kernel, g->nt, g->ring_bytes, &bps) != cudaSuccess) return PERKS_ECUDA;
    if (bps < 1) return PERKS_ERESOURCE;
    tx = (a->nx + g->bx - 1) / g->bx;
    ty = (a->ny + g->by - 1) / g->by;
    across = (long long)tx * ty;
    slabs = (int)((2LL * bps * sms + across - 1) / across);
    if (slabs > a->nz) slabs = a->nz;
    th = (a->nz + slabs - 1) / slabs;
    if (th < 16) th = a->nz < 16 ? a->nz : 16;
    tiles = across * ((a->nz + th - 1) / th);
    if (tiles > 0x7fffffffLL) return PERKS_ESIZE;
    p->tiles_x = tx;
    p->tiles_y = ty;
    p->tile_len = th;
    p->tiles = p->grid = (int)tiles;
    return PERKS_SUCCESS;
}

/* the edge buffers of a persistent plan (none when nothing is cached): its workspace_bytes */
static inline size_t perks__s3d_work_bytes(const perks__s3d_geom *g, const perks_plan *p)
{
    return p->smem_rows > 0 ? 2 * perks_edge_elems(p->tiles, g->r, p->tile_len * g->by) * g->cell_bytes : 0;
}

/* name_plan: the checks, the persistent plan or one launch a step, the head */
static inline int perks__s3d_plan(const perks_stencil3d_args *a, perks_plan *p, const perks__s3d_geom *g)
{
    const char *why = NULL;
    int rc;
    if (perks__stencil_plan_head(a, p, g, 3, "one launch a step: more than 2^31 - 1 tiles", &rc)) return rc;
    if ((rc = perks__s3d_pers_plan(a, p, g))) return perks__plan_refuse(p, rc, NULL);
    why = p->path == PERKS_PLAN_RESIDENT     ? "resident: every plane of every tile fits in shared memory"
          : a->cache == PERKS_CACHE_NONE     ? "streamed: cache mode NONE keeps no plane in shared memory"
          : p->smem_rows == 0                ? "streamed: not one plane of a tile fits in shared memory"
                                             : "partly cached: the first planes of each tile in shared memory, the rest "
                                               "streamed through the ring";
    return perks__plan_done(a, p, p->path, why, perks__s3d_work_bytes(g, p));
}

/* one cooperative launch: the edge buffers (a->work, or allocated and freed here; none when nothing
 * is cached), w the weights */
static inline int perks__stencil_launch(const perks_stencil3d_args *a, const perks_plan *p, const perks__s3d_geom *g,
                                        void *w, cudaStream_t stream)
{
    const size_t elems = p->smem_rows > 0 ? perks_edge_elems(p->tiles, g->r, p->tile_len * g->by) : 0;
    const size_t need = p->workspace_bytes;
    int rc;
    void *work, *pa, *pb, *ea, *eb;
    if ((rc = perks__stencil_work_get(a, need, &work))) return rc;
    pa = (void *)a->src;
    pb = a->dst;
    ea = need ? work : NULL;
    eb = need ? (char *)work + elems * g->cell_bytes : NULL;
    {
        int W = a->nx, H = a->ny, D = a->nz, steps = a->steps, nt = p->tiles, tx = p->tiles_x, ty = p->tiles_y,
            th = p->tile_len, nc = p->smem_rows;
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &D, &steps, &nt, &tx, &ty, &th, &nc, w};
        rc = perks_launch(g->kernel, dim3(p->grid), dim3(g->nt), args, (size_t)p->smem_bytes, stream);
    }
    return perks__stencil_work_put(a, need, work, rc);
}

/* one ordinary launch a step of the same kernel, nothing cached, on the plan's tiles; w the weights */
static inline int perks__stencil_steps(const perks_stencil3d_args *a, const perks_plan *p, const perks__s3d_geom *g,
                                       void *w, cudaStream_t stream)
{
    const size_t sm = g->ring_bytes;
    int tx = p->tiles_x, ty = p->tiles_y, th = p->tile_len, W = a->nx, H = a->ny, D = a->nz, one = 1, nt = p->tiles, nc = 0;
    void *pa, *pb, *ea = NULL, *eb = NULL;
    if (onchip_smem_allow(g->kernel, sm) != cudaSuccess) return PERKS_ECUDA;
    for (long long t = 0; t < p->passes; t++) {
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &D, &one, &nt, &tx, &ty, &th, &nc, w};
        pa = (t & 1) ? a->dst : (void *)a->src;
        pb = (t & 1) ? (void *)a->src : a->dst;
        cudaLaunchKernel(g->kernel, dim3((unsigned)nt), dim3(g->nt), args, sm, stream);
        if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;
    }
    return PERKS_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_STENCIL_PLAN3D_CUH */
#include <onchip/names_pop.h>
