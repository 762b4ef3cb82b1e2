#include <onchip/names_push.h>
/* perks/stencil/plan.cuh -- the host side of PERKS_STENCIL2D_DEFINE: arguments, cache modes, the
 * compile-time sizes of an instantiation, the plans that pick a kernel, the launches.
 *
 * WHAT (PERKS paper §5: the plan; perks/plan.h does the arithmetic, this header feeds it a kernel's
 * resources and turns the result into one cooperative launch)
 *   perks_stencil2d_args        what name_launch takes (perks/stencil.cuh's usage block)
 *   PERKS_CACHE_NONE/SMEM/REG/MIX, PERKS_KERNEL_AUTO/STREAM/RESIDENT/HYBRID, PERKS_HYB_WINS
 *   perks_device_query(&d)      the device's numbers for perks/plan.h
 *   perks__s2d_sizes<T, S, BX, RC>   the sizes the kernels and the plans share (radius, window,
 *                               shared-memory base, the builds' blocks per SM, loads in flight)
 *   perks__s2d_geom             the same sizes and the four kernels as run-time values, one struct
 *                               for every instantiation; name_geom() fills it
 *   perks__s2d_plan<T>, perks__s2d_run<T>, perks__s2d_steps, perks__s2d_res_plan,
 *   perks__s2d_hyb_plan, perks__s2d_stream_plan   name_plan, name_launch, name_steps and the rest:
 *                               one copy of the host logic for all instantiations
 *
 * LIMITS
 *   Every function returns a perks status (perks/base.h); none prints or exits.  name_launch
 *   allocates and frees the edge buffers itself when args.work is NULL (that synchronises).
 */
#ifndef PERKS_STENCIL_PLAN_CUH
#define PERKS_STENCIL_PLAN_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: the structs and sizes only */
#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>
#endif

#include <onchip/device.cuh>
#include "../base.h"
#include "../cache.cuh"
#include "../grid.cuh"
#include "../plan.h"
#include <onchip/boundary.h>
#include <onchip/check.h>

/* ---- cache modes */
#define PERKS_CACHE_NONE 0 /* persistent, domain in device memory */
#define PERKS_CACHE_SMEM 1 /* shared-memory cache only */
#define PERKS_CACHE_REG 2  /* register cache only */
#define PERKS_CACHE_MIX 3  /* registers, then shared memory */

typedef struct perks_stencil2d_args {
    void *a, *b;         /* T *, device, width x height each; the input in a.  After `steps` steps
                            the result is in a (steps even) or b (steps odd), as with ping-pong. */
    int width, height;   /* cells; rows are contiguous (pitch = width) */
    int steps;           /* >= 0 */
    const void *weights; /* T *, HOST: one coefficient per index I of the shape */
    int cache;           /* PERKS_CACHE_* */
    int blocks_per_sm;   /* 0: by perks/plan.h (Little's law, capped by resources) */
    int smem_rows_max;   /* 0: as many shared-memory cache rows as fit; > 0: at most this many */
    void *work;          /* device scratch (edge buffers), name_work_bytes; NULL: allocated here */
    size_t work_bytes;
    int kernel;          /* PERKS_KERNEL_*: 0 (AUTO) the resident kernel where the tiles fit in shared
                            memory (modes SMEM, MIX), else the streaming one */
    int boundary;        /* onchip/boundary.h: ONCHIP_KEEP_RADIUS (the cells within r of an edge keep
                            their values), or ONCHIP_KEEP_EXTENT (0) for a shape whose extents all
                            equal its radius (the same cells); any other: PERKS_EBOUNDARY */
} perks_stencil2d_args;

/* ---- which persistent kernel name_launch runs */
#define PERKS_KERNEL_AUTO 0     /* resident when the plan fits every tile in shared memory, else stream */
#define PERKS_KERNEL_STREAM 1   /* the chunked streaming kernel (any domain; caches part of it) */
#define PERKS_KERNEL_RESIDENT 2 /* the resident kernel only: PERKS_ERESOURCE if the tiles do not fit,
                                   PERKS_ESIZE with cache modes NONE and REG */
#define PERKS_KERNEL_HYBRID 3   /* the hybrid kernel: the first rows of each tile resident in shared
                                   memory (as many as fit; none with mode NONE), the rest streamed
                                   every step; PERKS_ESIZE with mode REG */
/* AUTO on a domain the resident kernel cannot hold: the hybrid kernel where this predicts it beats
 * the one-pass step, else name_steps (perks_plan.resident == PERKS_PLAN_STEPS).  T, points, radius,
 * the cached fraction; define it before this header to override.  why: docs/perks.md#reference-perks_hyb_wins */
#ifndef PERKS_HYB_WINS
#define PERKS_HYB_WINS(T, NPTS, R, FRAC) ((FRAC) >= 0.35 + 0.04 * (R) && !((int)sizeof(T) > 4 && (R) >= 4))
#endif

/* T is one the generators take: float or double */
template <class T>
struct perks__is_real {
    enum { value = (sizeof(T) == 4 || sizeof(T) == 8) && (T)0.5 != (T)0 };
};

/* ---- an instantiation's sizes: r, ww = BX + 2r, rr = max(RC, r), hwin (the hybrid windows, cells),
 * smem_base (bytes), the builds' blocks per SM (res_bps, hyb_bps), pf (chunks in flight, hybrid), fb
 * (frame cells a batch, resident).  why: docs/perks.md#reference-a-2d-instantiations-sizes-and-builds */
template <class T, class S, int BX, int RC>
struct perks__s2d_sizes {
    enum {
        r = S::rmax,
        ww = BX + 2 * S::rmax,
        rr = RC > S::rmax ? RC : S::rmax,
        hwin = 2 * (RC + 2 * S::rmax) * (BX + 2 * S::rmax),
        smem_base = (((RC + 2 * S::rmax) * (BX + 2 * S::rmax) + 2 * S::rmax * RC) * (int)sizeof(T) + 15) / 16 * 16,
        res_threads = (int)sizeof(T) > 4 ? 512 : S::npts > 9 ? 768 : 1024,
        res_minb = res_threads / BX > 0 ? res_threads / BX : 1,
        hyb_minb = ((int)sizeof(T) > 4 && S::rmax >= 4) ? (256 / BX > 0 ? 256 / BX : 1) : res_minb,
        res_bps_threads = ((int)sizeof(T) == 4 && S::npts > 9) ? 768 : 512,
        res_bps = res_bps_threads / BX > 0 ? res_bps_threads / BX : 1,
        hyb_bps = 512 / BX > 0 ? 512 / BX : 1,
        pf = (int)sizeof(T) > 4 && S::rmax >= 3 ? 1 : 2,
        fb = (int)sizeof(T) > 4 ? 4 : 8
    };
};

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* the sizes and kernels of one instantiation for the host functions (name_geom() fills one) */
typedef struct perks__s2d_geom {
    int bx, rc, r, ww, rr, depth, cell_bytes, hwin, smem_base; /* threads, rows a chunk, radius, BX + 2r,
                                                  resident rows a chunk, register rows, sizeof(T),
                                                  hybrid windows' cells, name_smem_base() */
    int npts, pf, res_bps, hyb_bps;            /* points, perks__s2d_sizes' pf, res_bps, hyb_bps */
    const void *kern[4];                       /* name_kernel, name_res_kernel, name_hyb_kernel,
                                                  name_step_kernel */
    unsigned policies;                         /* the boundary policies it gives (bit p for policy p) */
} perks__s2d_geom;

/* the boundary policies of the perks stencils for shape S in dims 2 or 3: keep-radius, and keep-extent
 * where it keeps the same cells (every extent equal to the radius) */
template <class S>
static inline unsigned perks__stencil_policies(int dims)
{
    const onchip_extent e = {S::xlo, S::xhi, S::ylo, S::yhi, S::zlo, S::zhi, S::rmax, dims};
    return (1u << ONCHIP_KEEP_RADIUS) |
           (onchip_boundary_same(ONCHIP_KEEP_RADIUS, ONCHIP_KEEP_EXTENT, &e) ? 1u << ONCHIP_KEEP_EXTENT : 0u);
}
/* PERKS_EBOUNDARY unless the kernel gives the policy asked for */
static inline int perks__boundary_check(int boundary, unsigned policies)
{
    return boundary >= 0 && boundary < 32 && (policies >> boundary & 1u) ? PERKS_SUCCESS : PERKS_EBOUNDARY;
}

template <class T, class S, int BX, int RC, int DEPTH>
static inline perks__s2d_geom perks__s2d_geom_of(const void *stream, const void *res, const void *hyb,
                                                 const void *step)
{
    typedef perks__s2d_sizes<T, S, BX, RC> Z;
    const perks__s2d_geom g = {BX, RC, Z::r, Z::ww, Z::rr, DEPTH, (int)sizeof(T), Z::hwin, Z::smem_base,
                               S::npts, Z::pf, Z::res_bps, Z::hyb_bps, {stream, res, hyb, step},
                               perks__stencil_policies<S>(2)};
    return g;
}

/* the device's numbers for perks/plan.h (bandwidth and latency: perks_device_h200's) */
static inline int perks_device_query(perks_device_info *d)
{
    onchip_device_attrs a;
    perks_device_info q;
    if (!d) return PERKS_ENULL;
    if (onchip_device_current(NULL, &a) != cudaSuccess) return PERKS_ECUDA;
    perks_device_h200(&q); /* the bandwidth, latency and register allocation of the preset */
    q.sms = a.sms;
    q.smem_per_sm = a.smem_per_sm;
    q.smem_per_block = a.smem_optin;
    q.smem_reserved_per_block = a.smem_reserved;
    q.regs_per_sm = a.regs_per_sm;
    q.max_threads_per_sm = a.threads_per_sm;
    q.max_blocks_per_sm = a.blocks_per_sm;
    *d = q;
    return PERKS_SUCCESS;
}

/* name_launch's and name_steps' test of the grids a and b, rows of width cells of es bytes each:
 * PERKS_EOVERLAP where their bytes meet (PERKS_ESIZE past 2^60 bytes) */
static inline int perks__ab_check(const void *a, const void *b, long long rows, long long width, long long es)
{
    const long long n = onchip_span(rows, width, width, es);
    if (n < 0) return PERKS_ESIZE;
    return onchip_overlap(a, n, b, n) ? PERKS_EOVERLAP : PERKS_SUCCESS;
}

/* the device and a kernel's resources for perks/plan.h */
static inline int perks__stencil_kinfo(perks_device_info *d, perks_kernel_info *k, const void *kernel, int block,
                                       long dyn_base, int in_flight, int cell_bytes, long quantum)
{
    onchip_func_attrs fa;
    int rc;
    if ((rc = perks_device_query(d))) return rc;
    if (onchip_func_get(kernel, &fa) != cudaSuccess) return PERKS_ECUDA;
    memset(k, 0, sizeof *k);
    k->block = block;
    k->regs_per_thread = fa.regs;
    k->static_smem = (long)fa.static_smem;
    k->dyn_smem_base = dyn_base;
    k->bytes_in_flight_per_thread = in_flight;
    k->cell_bytes = cell_bytes;
    k->smem_quantum_cells = quantum;
    return PERKS_SUCCESS;
}

/* shared bytes of the resident kernel for tiles of th rows (name_res_smem) */
static inline size_t perks__s2d_res_smem(const perks__s2d_geom *g, int th)
{
    return (size_t)(((th + g->rr - 1) / g->rr) * g->rr + 2 * g->r) * g->ww * g->cell_bytes;
}

/* shared bytes of the hybrid kernel caching sc rows a tile, its two streaming windows first
 * (name_hyb_smem) */
static inline size_t perks__s2d_hyb_smem(const perks__s2d_geom *g, int sc)
{
    return (size_t)g->hwin * g->cell_bytes + (sc > 0 ? perks__s2d_res_smem(g, sc) : 0);
}

/* edge-buffer scratch of a plan (name_work_bytes) */
static inline size_t perks__s2d_work_bytes(const perks__s2d_geom *g, const perks_plan *p)
{
    return 2 * perks_edge_elems(p->tiles, g->r, p->tile_len) * g->cell_bytes;
}

/* the resident or hybrid plan's blocks per SM and perks_plan_make: the default bps_def (capped by
 * what fits) unless the caller asks for a number */
static inline int perks__s2d_make(const perks_stencil2d_args *a, perks_plan *p, const perks_device_info *d,
                                  const perks_kernel_info *k, int bps_def)
{
    int maxb = perks_plan_max_blocks(d, k);
    int bps = a->blocks_per_sm ? a->blocks_per_sm : (bps_def < maxb ? bps_def : maxb);
    if (bps < 1) bps = 1;
    return perks_plan_make(p, d, k, (long long)a->width * a->height, bps);
}

/* name_res_plan: PERKS_ERESOURCE unless every tile fits in shared memory */
static inline int perks__s2d_res_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc;
    long rows;
    if (!a || !p) return PERKS_ENULL;
    if ((rc = perks__boundary_check(a->boundary, g->policies))) return rc;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kern[1], g->bx, (long)(2 * g->r * g->ww * (size_t)g->cell_bytes),
                                   g->rc * g->cell_bytes, g->cell_bytes, g->ww)))
        return rc;
    if ((rc = perks__s2d_make(a, p, &d, &k, g->res_bps))) return rc;
    rows = p->smem_cache_cells / g->ww;
    p->reg_rows = 0;
    if ((rc = perks_plan_tiles2d(p, a->width, a->height, g->bx, g->r))) return rc;
    if ((long)((p->tile_len + g->rr - 1) / g->rr) * g->rr > rows || (a->smem_rows_max > 0 && p->tile_len > a->smem_rows_max))
        return PERKS_ERESOURCE;
    p->resident = 1;
    p->smem_rows = p->tile_len;
    p->smem_cache_cells = (long)p->tile_len * g->ww;
    p->smem_bytes = (long)perks__s2d_res_smem(g, p->tile_len);
    p->cells_reg = 0;
    p->cells_smem = p->cells;
    p->cells_dev = 0;
    p->cached_fraction = 1.0;
    return PERKS_SUCCESS;
}

/* name_hyb_plan: rows [0, smem_rows) of each tile in shared memory (a multiple of RR, or the whole
 * tile), the rest streamed with pf chunks in flight; cache mode NONE: nothing cached */
static inline int perks__s2d_hyb_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc;
    long rows;
    if (!a || !p) return PERKS_ENULL;
    if ((rc = perks__boundary_check(a->boundary, g->policies))) return rc;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kern[2], g->bx, (long)((g->hwin + 2 * g->r * g->ww) * (size_t)g->cell_bytes),
                                   g->pf * g->rc * g->cell_bytes, g->cell_bytes, g->ww)))
        return rc;
    if ((rc = perks__s2d_make(a, p, &d, &k, g->hyb_bps))) return rc;
    rows = a->cache == PERKS_CACHE_NONE ? 0 : p->smem_cache_cells / g->ww;
    if (a->smem_rows_max > 0 && rows > a->smem_rows_max) rows = a->smem_rows_max;
    rows = rows / g->rr * g->rr;
    p->reg_rows = 0;
    p->smem_cache_cells = rows * g->bx;
    if ((rc = perks_plan_tiles2d(p, a->width, a->height, g->bx, g->r))) return rc;
    p->resident = PERKS_PLAN_HYBRID;
    p->smem_cache_cells = (long)p->smem_rows * g->ww;
    p->smem_bytes = (long)perks__s2d_hyb_smem(g, p->smem_rows);
    return PERKS_SUCCESS;
}

/* name_plan's argument checks */
static inline int perks__s2d_check(const perks_stencil2d_args *a, const perks_plan *p, const perks__s2d_geom *g)
{
    if (!a || !p) return PERKS_ENULL;
    if (perks__boundary_check(a->boundary, g->policies)) return PERKS_EBOUNDARY;
    if (a->width <= 0 || a->height <= 0 || a->steps < 0 || a->blocks_per_sm < 0 || a->cache < 0 || a->cache > 3 ||
        a->smem_rows_max < 0 || a->kernel < 0 || a->kernel > 3)
        return PERKS_ESIZE;
    return PERKS_SUCCESS;
}

/* the streaming kernel's plan (name_plan's last resort) */
static inline int perks__s2d_stream_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc, reg = a->cache == PERKS_CACHE_REG || a->cache == PERKS_CACHE_MIX;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kern[0], g->bx, 0, g->rc * g->cell_bytes, g->cell_bytes, g->bx))) return rc;
    k.dyn_smem_base = (long)g->smem_base;
    k.reg_cells_per_thread = reg ? g->depth : 0;
    rc = perks_plan_make(p, &d, &k, (long long)a->width * a->height, a->blocks_per_sm);
    if (rc) return rc;
    if (a->cache == PERKS_CACHE_NONE || a->cache == PERKS_CACHE_REG) {
        p->smem_cache_cells = 0;
        p->smem_bytes = k.dyn_smem_base;
    }
    if (a->smem_rows_max > 0 && p->smem_cache_cells > (long)a->smem_rows_max * g->bx)
        p->smem_cache_cells = (long)a->smem_rows_max * g->bx;
    return perks_plan_tiles2d(p, a->width, a->height, g->bx, g->r);
}

/* name_plan: the plan name_launch will use (tiles, cache rows, % cached; the resident, hybrid or
 * streaming kernel, or the one-pass steps).  T for PERKS_HYB_WINS. */
template <class T>
static inline int perks__s2d_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_plan q;
    int rc = perks__s2d_check(a, p, g);
    if (rc) return rc;
    if (a->kernel == PERKS_KERNEL_HYBRID) return a->cache == PERKS_CACHE_REG ? PERKS_ESIZE : perks__s2d_hyb_plan(a, p, g);
    if (a->kernel != PERKS_KERNEL_STREAM && (a->cache == PERKS_CACHE_SMEM || a->cache == PERKS_CACHE_MIX)) {
        rc = perks__s2d_res_plan(a, &q, g);
        if (!rc) *p = q;
        if (!rc || a->kernel == PERKS_KERNEL_RESIDENT) return rc;
        /* AUTO, partly cached: the hybrid kernel, or the one-pass steps where it would lose */
        if (!perks__s2d_hyb_plan(a, &q, g)) {
            if (!PERKS_HYB_WINS(T, g->npts, g->r, q.cached_fraction) && (a->height + g->rc - 1) / g->rc <= 65535)
                q.resident = PERKS_PLAN_STEPS;
            *p = q;
            return PERKS_SUCCESS;
        }
    } else if (a->kernel == PERKS_KERNEL_RESIDENT)
        return PERKS_ESIZE;
    return perks__s2d_stream_plan(a, p, g);
}

/* name_steps: the steps one ordinary launch each of name_step_kernel (the non-persistent baseline,
 * same arithmetic): checks, the weights (w: storage of wbytes), the grid, the launches */
static inline int perks__s2d_steps(const perks_stencil2d_args *a, const perks__s2d_geom *g, void *w, size_t wbytes,
                                   cudaStream_t stream)
{
    const size_t sm = (size_t)g->smem_base;
    void *pa, *pb;
    int W, H, rc;
    if (!a) return PERKS_ENULL;
    if (!a->a || !a->b || !a->weights) return PERKS_ENULL;
    if ((rc = perks__boundary_check(a->boundary, g->policies))) return rc;
    if (a->width <= 0 || a->height <= 0 || a->steps < 0) return PERKS_ESIZE;
    if ((a->height + g->rc - 1) / g->rc > 65535) return PERKS_ESIZE;
    if ((rc = perks__ab_check(a->a, a->b, a->height, a->width, g->cell_bytes))) return rc;
    memcpy(w, a->weights, wbytes);
    if (onchip_smem_allow(g->kern[3], sm) != cudaSuccess) return PERKS_ECUDA;
    W = a->width;
    H = a->height;
    for (int t = 0; t < a->steps; t++) {
        void *args[] = {&pa, &pb, &W, &H, w};
        pa = (t & 1) ? a->b : a->a;
        pb = (t & 1) ? a->a : a->b;
        cudaLaunchKernel(g->kern[3], dim3((a->width + g->bx - 1) / g->bx, (a->height + g->rc - 1) / g->rc),
                         dim3(g->bx), args, sm, stream);
        if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;
    }
    return PERKS_SUCCESS;
}

/* name_launch after its plan: the edge buffers (a->work, or allocated and freed here), the weights,
 * one cooperative launch of the streaming, resident or hybrid kernel */
static inline int perks__s2d_launch(const perks_stencil2d_args *a, const perks_plan *p, const perks__s2d_geom *g,
                                    void *w, size_t wbytes, cudaStream_t stream)
{
    const size_t elems = perks_edge_elems(p->tiles, g->r, p->tile_len), need = 2 * elems * g->cell_bytes;
    int rc, reg_on, sr;
    void *work, *pa, *pb, *ea, *eb;
    if (a->work && a->work_bytes < need) return PERKS_ESIZE;
    work = a->work;
    if (!work && cudaMalloc(&work, need) != cudaSuccess) return PERKS_ECUDA;
    memcpy(w, a->weights, wbytes);
    reg_on = (a->cache == PERKS_CACHE_REG || a->cache == PERKS_CACHE_MIX) && g->depth > 0;
    sr = p->smem_rows;
    pa = a->a;
    pb = a->b;
    ea = work;
    eb = (char *)work + elems * g->cell_bytes;
    {
        int W = a->width, H = a->height, steps = a->steps, tx = p->tiles_x, th = p->tile_len;
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &steps, &reg_on, &sr, &tx, &th, w};
        void *rargs[] = {&pa, &pb, &ea, &eb, &W, &H, &steps, &tx, &th, &sr, w};
        if (p->resident == PERKS_PLAN_RESIDENT || p->resident == PERKS_PLAN_HYBRID)
            rc = perks_launch(p->resident == PERKS_PLAN_HYBRID ? g->kern[2] : g->kern[1], dim3(p->tiles), dim3(g->bx),
                              rargs, (size_t)p->smem_bytes, stream);
        else
            rc = perks_launch(g->kern[0], dim3(p->tiles), dim3(g->bx), args, (size_t)p->smem_bytes, stream);
    }
    if (!a->work) {
        if (cudaFree(work) != cudaSuccess && !rc) rc = PERKS_ECUDA;
    }
    return rc;
}

/* name_launch: all steps in one cooperative launch (or, where the plan says PERKS_PLAN_STEPS, one
 * launch a step); w: storage of wbytes for the weights */
template <class T>
static inline int perks__s2d_run(const perks_stencil2d_args *a, const perks__s2d_geom *g, void *w, size_t wbytes,
                                 cudaStream_t stream)
{
    perks_plan p;
    int rc;
    if (!a) return PERKS_ENULL;
    if (!a->a || !a->b || !a->weights) return PERKS_ENULL;
    if ((rc = perks__s2d_plan<T>(a, &p, g))) return rc;
    if ((rc = perks__ab_check(a->a, a->b, a->height, a->width, g->cell_bytes))) return rc;
    if (a->steps == 0) return PERKS_SUCCESS;
    if (p.resident == PERKS_PLAN_STEPS) return perks__s2d_steps(a, g, w, wbytes, stream);
    return perks__s2d_launch(a, &p, g, w, wbytes, stream);
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_STENCIL_PLAN_CUH */
#include <onchip/names_pop.h>
