#include <onchip/names_push.h>
/* perks/stencil/plan.cuh -- the host side of PERKS_STENCIL2D_DEFINE: arguments, cache modes, the
 * compile-time sizes of an instantiation, the plans that pick a kernel, the launches.
 *
 * WHAT (PERKS paper §5: the plan; perks/plan.h does the arithmetic, this header feeds it a kernel's
 * resources and turns the result into one cooperative launch)
 *   perks_stencil2d_args        onchip_stencil_args (onchip/stencil.h), what name_plan takes
 *   PERKS_CACHE_NONE/SMEM/REG/MIX, PERKS_KERNEL_AUTO/STREAM/RESIDENT/HYBRID/STEPS, PERKS_HYB_WINS
 *   perks_device_query(&d)      the device's numbers for perks/plan.h
 *   internal, described where defined (one copy of the host logic for every instantiation):
 *   perks__s2d_sizes, perks__s2d_geom, perks__stencil_check, perks__plan_refuse, perks__plan_done,
 *   perks__s2d_plan<T> (name_plan), perks__stencil_run<GEO> (name_run) and their pieces
 *
 * LIMITS
 *   Every function returns a perks status (perks/base.h); none prints or exits.  name_run
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
#include <onchip/stencil.h>
#include <onchip/check.h>

/* ---- cache modes */
#define PERKS_CACHE_NONE 0 /* persistent, domain in device memory */
#define PERKS_CACHE_SMEM 1 /* shared-memory cache only */
#define PERKS_CACHE_REG 2  /* register cache only */
#define PERKS_CACHE_MIX 3  /* registers, then shared memory */

/* the arguments (onchip/stencil.h).  perks reads: src, dst (T *, device, nx x ny dense each; both
 * written), nx, ny (nz 0 or 1), pitch (0 or nx) and plane (0 or nx * ny), coef (host, ncoef = the
 * shape's largest I + 1), boundary, steps, path (PERKS_KERNEL_*), cache (PERKS_CACHE_*),
 * blocks_per_sm (0: the plan's), cache_rows_max (0: as many shared-memory rows a tile as fit),
 * work / work_bytes (at least the plan's workspace_bytes; NULL: name_run allocates) */
typedef onchip_stencil_args perks_stencil2d_args;

/* ---- args.path: which kernel name_run launches (the plan's path, PERKS_PLAN_*, says which it chose) */
#define PERKS_KERNEL_AUTO 0     /* resident when the plan fits every tile in shared memory, else stream */
#define PERKS_KERNEL_STREAM 1   /* the chunked streaming kernel (any domain; caches part of it) */
#define PERKS_KERNEL_RESIDENT 2 /* the resident kernel only: PERKS_ERESOURCE if the tiles do not fit,
                                   PERKS_ESIZE with cache modes NONE and REG */
#define PERKS_KERNEL_HYBRID 3   /* the hybrid kernel: the first rows of each tile resident in shared
                                   memory (as many as fit; none with mode NONE), the rest streamed
                                   every step; PERKS_ESIZE with mode REG */
#define PERKS_KERNEL_STEPS 4    /* no persistent kernel: name_step_kernel, one launch a step (the
                                   non-persistent baseline, the same sums: bit for bit the same) */
/* AUTO on a domain the resident kernel cannot hold: the hybrid kernel where this predicts it beats
 * the one-pass step, else one launch a step (perks_plan.path == PERKS_PLAN_STEPS).  T, points, radius,
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
    int npts, ncoef, pf, res_bps, hyb_bps;     /* points, coefficients, perks__s2d_sizes' pf, res_bps,
                                                  hyb_bps */
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
                               S::npts, S::ncoef, Z::pf, Z::res_bps, Z::hyb_bps, {stream, res, hyb, step},
                               perks__stencil_policies<S>(2)};
    return g;
}

/* the device's numbers for perks/plan.h (bandwidth and latency: the preset's, perks/plan.h) */
static inline int perks_device_query(perks_device_info *d)
{
    onchip_device_attrs a;
    perks_device_info q;
    if (!d) return PERKS_ENULL;
    if (onchip_device_current(NULL, &a) != cudaSuccess) return PERKS_ECUDA;
    perks_device_h200(&q); /* the preset's bandwidth, latency and register allocation */
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

/* name_plan's test of the grids src and dst, rows of width cells of es bytes each: PERKS_EOVERLAP
 * where their bytes meet (PERKS_ESIZE past 2^60 bytes) */
static inline int perks__ab_check(const void *a, const void *b, long long rows, long long width, long long es)
{
    const long long n = onchip_span(rows, width, width, es);
    if (n < 0) return PERKS_ESIZE;
    return onchip_overlap(a, n, b, n) ? PERKS_EOVERLAP : PERKS_SUCCESS;
}

/* the sentence of a code that a planner piece (perks/plan.h, the device queries) returned */
static inline const char *perks__plan_why(int rc)
{
    switch (rc) {
    case PERKS_ECORESIDENT: return "more tile columns than co-resident blocks: the domain is too wide for this build";
    case PERKS_ERESOURCE: return "the kernel's registers or shared memory leave no room for one block per SM";
    case PERKS_ECUDA: return "a CUDA query (device, kernel attributes, occupancy) failed: cudaGetLastError has it";
    case PERKS_ENOCOOP: return "the device cannot launch cooperative kernels";
    case PERKS_ENULL: return "a NULL argument";
    default: return "blocks_per_sm above what the kernel allows, or a size past the planner's limits";
    }
}

/* a refused plan: the code rc, why (NULL: rc's sentence), nothing to launch */
static inline int perks__plan_refuse(perks_plan *p, int rc, const char *why)
{
    onchip__plan_set(p, PERKS_PLAN_STREAM, why ? why : perks__plan_why(rc), 0, 0, 0, NULL);
    return rc;
}

/* a chosen plan's head: path and why, the steps (one launch for all, or one a step), the workspace
 * of a persistent path (work bytes), the buffer of the result; PERKS_ESIZE where args.work is given
 * with fewer bytes */
static inline int perks__plan_done(const onchip_stencil_args *a, perks_plan *p, int path, const char *why, size_t work)
{
    const int none = a->steps == 0, stepped = path == PERKS_PLAN_STEPS;
    onchip__plan_set(p, path, none ? ONCHIP_WHY_NO_STEPS : why, stepped ? 1 : a->steps,
                     none ? 0 : stepped ? a->steps : 1, none || stepped ? 0 : work,
                     (a->steps & 1) ? a->dst : (void *)a->src);
    if (a->work && a->work_bytes < p->workspace_bytes)
        return perks__plan_refuse(p, PERKS_ESIZE, "work_bytes is below the plan's workspace_bytes");
    return PERKS_SUCCESS;
}

/* the checks every perks stencil plan makes first (dims 2 or 3; the shape's policies and ncoef, es
 * bytes a cell): 0, or the code with *why */
static inline int perks__stencil_check(const onchip_stencil_args *a, int dims, unsigned policies, int ncoef, int es,
                                       const char **why)
{
    const long long rows = dims == 3 ? (long long)a->ny * a->nz : a->ny;
    int rc;
    *why = NULL;
    if (!a->src || !a->dst || !a->coef) return *why = "a NULL pointer: src, dst and coef must be set", PERKS_ENULL;
    if (perks__boundary_check(a->boundary, policies))
        return *why = "a boundary policy this stencil does not give (ONCHIP_KEEP_RADIUS; ONCHIP_KEEP_EXTENT where the "
                      "shape's extents all equal its radius)",
               PERKS_EBOUNDARY;
    if (onchip_stencil_plain_why(a))
        return *why = a->update != ONCHIP_UPDATE_SUM
                          ? "an update other than ONCHIP_UPDATE_SUM (args.update): this stencil forms the plain sum only"
                          : "a coefficient field (args.field[]): this stencil takes constant coefficients only",
               PERKS_EUPDATE;
    if (a->nx <= 0 || a->ny <= 0 || (dims == 3 ? a->nz <= 0 : a->nz != 0 && a->nz != 1) || a->steps < 0)
        return *why = dims == 3 ? "nx, ny and nz must be at least 1, steps at least 0"
                                : "nx and ny must be at least 1, nz 0 or 1, steps at least 0",
               PERKS_ESIZE;
    if (a->blocks_per_sm < 0 || a->cache_rows_max < 0 || a->cache < PERKS_CACHE_NONE || a->cache > PERKS_CACHE_MIX)
        return *why = "blocks_per_sm and cache_rows_max must be at least 0, cache a PERKS_CACHE_* mode", PERKS_ESIZE;
    if (dims == 3 && a->path != PERKS_KERNEL_AUTO && a->path != PERKS_KERNEL_STEPS)
        return *why = "3D: path must be PERKS_KERNEL_AUTO or PERKS_KERNEL_STEPS", PERKS_ESIZE;
    if (a->path < PERKS_KERNEL_AUTO || a->path > PERKS_KERNEL_STEPS)
        return *why = "path must be a PERKS_KERNEL_* value", PERKS_ESIZE;
    if (dims == 3 && a->cache == PERKS_CACHE_REG)
        return *why = "3D: cache mode REG refused (the 3D kernel has no register cache)", PERKS_ESIZE;
    if (a->pitch != 0 && a->pitch != a->nx) return *why = "perks is dense: pitch must be 0 or nx", PERKS_ESIZE;
    if (a->plane != 0 && a->plane != (long long)a->nx * a->ny)
        return *why = "perks is dense: plane must be 0 or nx * ny", PERKS_ESIZE;
    if (a->ncoef != ncoef) return *why = "ncoef must be the shape's coefficient count (its largest I + 1)", PERKS_ESIZE;
    if ((rc = perks__ab_check(a->src, a->dst, rows, a->nx, es)))
        return *why = rc == PERKS_EOVERLAP ? "src and dst overlap" : "src and dst span more than 2^60 bytes", rc;
    return PERKS_SUCCESS;
}

/* the coefficients for a launch: the host array's ncoef values of es bytes into the kernel's
 * struct w of wbytes, the rest 0 */
static inline void perks__stencil_weights(void *w, size_t wbytes, const void *coef, int ncoef, int es)
{
    memset(w, 0, wbytes);
    memcpy(w, coef, (size_t)ncoef * es);
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

/* edge-buffer scratch of a persistent plan (its workspace_bytes) */
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
    return perks_plan_make(p, d, k, (long long)a->nx * a->ny, bps);
}

/* the resident kernel's plan (args checked): PERKS_ERESOURCE unless every tile fits in shared
 * memory (and in cache_rows_max rows) */
static inline int perks__s2d_res_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc;
    long rows;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kern[1], g->bx, (long)(2 * g->r * g->ww * (size_t)g->cell_bytes),
                                   g->rc * g->cell_bytes, g->cell_bytes, g->ww)))
        return rc;
    if ((rc = perks__s2d_make(a, p, &d, &k, g->res_bps))) return rc;
    rows = p->smem_cache_cells / g->ww;
    p->reg_rows = 0;
    if ((rc = perks_plan_tiles2d(p, a->nx, a->ny, g->bx, g->r))) return rc;
    if ((long)((p->tile_len + g->rr - 1) / g->rr) * g->rr > rows || (a->cache_rows_max > 0 && p->tile_len > a->cache_rows_max))
        return PERKS_ERESOURCE;
    p->path = PERKS_PLAN_RESIDENT;
    p->smem_rows = p->tile_len;
    p->smem_cache_cells = (long)p->tile_len * g->ww;
    p->smem_bytes = (long)perks__s2d_res_smem(g, p->tile_len);
    p->cells_reg = 0;
    p->cells_smem = p->cells;
    p->cells_dev = 0;
    p->cached_fraction = 1.0;
    return PERKS_SUCCESS;
}

/* the hybrid kernel's plan (args checked): rows [0, smem_rows) of each tile in shared memory (a
 * multiple of RR, or the whole tile), the rest streamed with pf chunks in flight; cache mode NONE:
 * nothing cached */
static inline int perks__s2d_hyb_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc;
    long rows;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kern[2], g->bx, (long)((g->hwin + 2 * g->r * g->ww) * (size_t)g->cell_bytes),
                                   g->pf * g->rc * g->cell_bytes, g->cell_bytes, g->ww)))
        return rc;
    if ((rc = perks__s2d_make(a, p, &d, &k, g->hyb_bps))) return rc;
    rows = a->cache == PERKS_CACHE_NONE ? 0 : p->smem_cache_cells / g->ww;
    if (a->cache_rows_max > 0 && rows > a->cache_rows_max) rows = a->cache_rows_max;
    rows = rows / g->rr * g->rr;
    p->reg_rows = 0;
    p->smem_cache_cells = rows * g->bx;
    if ((rc = perks_plan_tiles2d(p, a->nx, a->ny, g->bx, g->r))) return rc;
    p->path = PERKS_PLAN_HYBRID;
    p->smem_cache_cells = (long)p->smem_rows * g->ww;
    p->smem_bytes = (long)perks__s2d_hyb_smem(g, p->smem_rows);
    return PERKS_SUCCESS;
}

/* the streaming kernel's plan (args checked; name_plan's last resort) */
static inline int perks__s2d_stream_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_device_info d;
    perks_kernel_info k;
    int rc, reg = a->cache == PERKS_CACHE_REG || a->cache == PERKS_CACHE_MIX;
    if ((rc = perks__stencil_kinfo(&d, &k, g->kern[0], g->bx, 0, g->rc * g->cell_bytes, g->cell_bytes, g->bx))) return rc;
    k.dyn_smem_base = (long)g->smem_base;
    k.reg_cells_per_thread = reg ? g->depth : 0;
    rc = perks_plan_make(p, &d, &k, (long long)a->nx * a->ny, a->blocks_per_sm);
    if (rc) return rc;
    if (a->cache == PERKS_CACHE_NONE || a->cache == PERKS_CACHE_REG) {
        p->smem_cache_cells = 0;
        p->smem_bytes = k.dyn_smem_base;
    }
    if (a->cache_rows_max > 0 && p->smem_cache_cells > (long)a->cache_rows_max * g->bx)
        p->smem_cache_cells = (long)a->cache_rows_max * g->bx;
    return perks_plan_tiles2d(p, a->nx, a->ny, g->bx, g->r);
}

/* one launch a step: ceil(nx / BX) x ceil(ny / RC) blocks of name_step_kernel, nothing cached */
static inline int perks__stencil_steps_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    const int gx = (a->nx + g->bx - 1) / g->bx, gy = (a->ny + g->rc - 1) / g->rc;
    const long long blocks = (long long)gx * gy;
    if (gy > 65535) return PERKS_ESIZE;
    memset(p, 0, sizeof *p);
    p->path = PERKS_PLAN_STEPS;
    p->block = g->bx;
    p->tiles_x = gx;
    p->tiles_y = gy;
    p->tiles = p->grid = blocks > INT_MAX ? INT_MAX : (int)blocks; /* a gx x gy grid; INT_MAX: more */
    p->tile_w = g->bx;
    p->tile_h = 1;
    p->tile_len = g->rc;
    p->smem_bytes = g->smem_base;
    p->cells = (long long)a->nx * a->ny;
    p->cells_dev = p->cells;
    p->dyn_smem_base = g->smem_base;
    p->cell_bytes = g->cell_bytes;
    return PERKS_SUCCESS;
}

/* the head of name_plan, 2D and 3D alike: the checks, then for path STEPS the plan of one launch a
 * step (GEO's perks__stencil_steps_plan; PERKS_ESIZE: `big` says why); 1 where that settles the
 * plan, *rc its status */
template <class GEO>
static inline int perks__stencil_plan_head(const onchip_stencil_args *a, perks_plan *p, const GEO *g, int dims,
                                           const char *big, int *rc)
{
    const char *why = NULL;
    if (!p) return *rc = PERKS_ENULL, 1;
    if (!a) return *rc = perks__plan_refuse(p, PERKS_ENULL, "a NULL argument: args"), 1;
    if ((*rc = perks__stencil_check(a, dims, g->policies, g->ncoef, g->cell_bytes, &why)))
        return *rc = perks__plan_refuse(p, *rc, why), 1;
    if (a->path != PERKS_KERNEL_STEPS) return 0;
    if ((*rc = perks__stencil_steps_plan(a, p, g)))
        *rc = perks__plan_refuse(p, *rc, *rc == PERKS_ESIZE ? big : NULL);
    else
        *rc = perks__plan_done(a, p, PERKS_PLAN_STEPS, "one launch a step, as args.path asks: the non-persistent baseline", 0);
    return 1;
}

/* name_plan: the checks, then the kernel (resident, hybrid or streaming, or one launch a step) and
 * its tiles, cache rows and % cached, then the head.  T for PERKS_HYB_WINS. */
template <class T>
static inline int perks__s2d_plan(const perks_stencil2d_args *a, perks_plan *p, const perks__s2d_geom *g)
{
    perks_plan q;
    const char *why = NULL;
    int rc;
    if (perks__stencil_plan_head(a, p, g, 2, "one launch a step: more than 65535 chunks of RC rows (ny too large)", &rc))
        return rc;
    if (a->path == PERKS_KERNEL_HYBRID) {
        if (a->cache == PERKS_CACHE_REG)
            return perks__plan_refuse(p, PERKS_ESIZE, "the hybrid kernel has no register cache: cache mode REG refused");
        if ((rc = perks__s2d_hyb_plan(a, p, g))) return perks__plan_refuse(p, rc, NULL);
        return perks__plan_done(a, p, PERKS_PLAN_HYBRID,
                                "hybrid kernel, as args.path asks: the first rows of each tile in shared memory, the rest streamed",
                                perks__s2d_work_bytes(g, p));
    }
    if (a->path != PERKS_KERNEL_STREAM && (a->cache == PERKS_CACHE_SMEM || a->cache == PERKS_CACHE_MIX)) {
        rc = perks__s2d_res_plan(a, &q, g);
        if (!rc) {
            *p = q;
            return perks__plan_done(a, p, PERKS_PLAN_RESIDENT,
                                    a->path == PERKS_KERNEL_RESIDENT ? "resident kernel, as args.path asks: every tile fits in shared memory"
                                                                     : "resident kernel: every tile fits in shared memory",
                                    perks__s2d_work_bytes(g, p));
        }
        if (a->path == PERKS_KERNEL_RESIDENT)
            return perks__plan_refuse(p, rc, rc == PERKS_ERESOURCE ? "the resident kernel: a tile does not fit in shared "
                                                                     "memory (or in cache_rows_max rows)"
                                                                   : NULL);
        /* AUTO, partly cached: the hybrid kernel, or the one-pass steps where it would lose */
        if (!perks__s2d_hyb_plan(a, &q, g)) {
            *p = q;
            if (PERKS_HYB_WINS(T, g->npts, g->r, q.cached_fraction))
                why = "hybrid kernel: the tiles do not fit in shared memory and PERKS_HYB_WINS predicts the part it "
                      "caches beats one launch a step";
            else if ((a->ny + g->rc - 1) / g->rc > 65535)
                why = "hybrid kernel: PERKS_HYB_WINS predicts a loss, but one launch a step would take more than 65535 "
                      "chunks of rows";
            else
                return perks__plan_done(a, p, PERKS_PLAN_STEPS,
                                        "one launch a step: the tiles do not fit in shared memory and PERKS_HYB_WINS "
                                        "predicts the hybrid kernel, caching too little, loses to it",
                                        0);
            return perks__plan_done(a, p, PERKS_PLAN_HYBRID, why, perks__s2d_work_bytes(g, p));
        }
        why = "streaming kernel: the tiles fit neither the resident nor the hybrid kernel's plan";
    } else if (a->path == PERKS_KERNEL_RESIDENT)
        return perks__plan_refuse(p, PERKS_ESIZE, "the resident kernel needs cache mode SMEM or MIX");
    else
        why = a->path == PERKS_KERNEL_STREAM ? "streaming kernel, as args.path asks"
                                             : "streaming kernel: cache mode NONE or REG keeps no tile in shared memory";
    if ((rc = perks__s2d_stream_plan(a, p, g))) return perks__plan_refuse(p, rc, NULL);
    return perks__plan_done(a, p, PERKS_PLAN_STREAM, why, perks__s2d_work_bytes(g, p));
}

/* one ordinary launch of name_step_kernel a step (the non-persistent baseline, same arithmetic);
 * w: the weights */
static inline int perks__stencil_steps(const perks_stencil2d_args *a, const perks_plan *p, const perks__s2d_geom *g,
                                       void *w, cudaStream_t stream)
{
    const size_t sm = (size_t)g->smem_base;
    void *pa, *pb;
    int W = a->nx, H = a->ny;
    if (onchip_smem_allow(g->kern[3], sm) != cudaSuccess) return PERKS_ECUDA;
    for (long long t = 0; t < p->passes; t++) {
        void *args[] = {&pa, &pb, &W, &H, w};
        pa = (t & 1) ? a->dst : (void *)a->src;
        pb = (t & 1) ? (void *)a->src : a->dst;
        cudaLaunchKernel(g->kern[3], dim3((a->nx + g->bx - 1) / g->bx, (a->ny + g->rc - 1) / g->rc), dim3(g->bx), args, sm,
                         stream);
        if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;
    }
    return PERKS_SUCCESS;
}

/* the edge buffers of a cooperative launch, 2D and 3D alike: a->work, else need bytes allocated
 * here (none for 0) */
static inline int perks__stencil_work_get(const onchip_stencil_args *a, size_t need, void **work)
{
    *work = a->work;
    return !*work && need && cudaMalloc(work, need) != cudaSuccess ? PERKS_ECUDA : PERKS_SUCCESS;
}

/* after a launch of status rc: what perks__stencil_work_get allocated, freed */
static inline int perks__stencil_work_put(const onchip_stencil_args *a, size_t need, void *work, int rc)
{
    if (!a->work && need && cudaFree(work) != cudaSuccess && !rc) rc = PERKS_ECUDA;
    return rc;
}

/* one cooperative launch of the streaming, resident or hybrid kernel: the edge buffers (a->work,
 * or allocated and freed here), w the weights */
static inline int perks__stencil_launch(const perks_stencil2d_args *a, const perks_plan *p, const perks__s2d_geom *g,
                                        void *w, cudaStream_t stream)
{
    const size_t elems = perks_edge_elems(p->tiles, g->r, p->tile_len), need = p->workspace_bytes;
    int rc, reg_on, sr;
    void *work, *pa, *pb, *ea, *eb;
    if ((rc = perks__stencil_work_get(a, need, &work))) return rc;
    reg_on = (a->cache == PERKS_CACHE_REG || a->cache == PERKS_CACHE_MIX) && g->depth > 0;
    sr = p->smem_rows;
    pa = (void *)a->src;
    pb = a->dst;
    ea = work;
    eb = (char *)work + elems * g->cell_bytes;
    {
        int W = a->nx, H = a->ny, steps = a->steps, tx = p->tiles_x, th = p->tile_len;
        void *args[] = {&pa, &pb, &ea, &eb, &W, &H, &steps, &reg_on, &sr, &tx, &th, w};
        void *rargs[] = {&pa, &pb, &ea, &eb, &W, &H, &steps, &tx, &th, &sr, w};
        if (p->path == PERKS_PLAN_RESIDENT || p->path == PERKS_PLAN_HYBRID)
            rc = perks_launch(p->path == PERKS_PLAN_HYBRID ? g->kern[2] : g->kern[1], dim3(p->tiles), dim3(g->bx), rargs,
                              (size_t)p->smem_bytes, stream);
        else
            rc = perks_launch(g->kern[0], dim3(p->tiles), dim3(g->bx), args, (size_t)p->smem_bytes, stream);
    }
    return perks__stencil_work_put(a, need, work, rc);
}

/* name_run, 2D and 3D alike: the plan's passes (none, one cooperative launch, or one launch a step)
 * by GEO's perks__stencil_steps / _launch; w: storage of wbytes for the weights */
template <class GEO>
static inline int perks__stencil_run(const onchip_stencil_args *a, const perks_plan *p, const GEO *g, void *w, size_t wbytes,
                                     cudaStream_t stream)
{
    if (!a || !p) return PERKS_ENULL;
    if (p->passes <= 0) return PERKS_SUCCESS;
    perks__stencil_weights(w, wbytes, a->coef, g->ncoef, g->cell_bytes);
    if (p->path == PERKS_PLAN_STEPS) return perks__stencil_steps(a, p, g, w, stream);
    return perks__stencil_launch(a, p, g, w, stream);
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_STENCIL_PLAN_CUH */
#include <onchip/names_pop.h>
