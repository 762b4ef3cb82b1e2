#include <onchip/names_push.h>
/* perks/plan.h -- how many blocks per SM, and how much of the domain goes to registers and shared
 * memory (C99 host code; also compiles as C++ and CUDA).
 *
 * WHAT (PERKS paper §5 and §4.1.1; docs/perks.md#the-planner-planh)
 *   perks_plan_make   the fewest blocks per SM whose bytes in flight reach bandwidth x latency / SMs
 *                     (Little's law) within the resources; a block's cache: its SM's shared memory
 *                     left, in whole quanta of cells
 *   perks_plan_tiles2d/3d   a tile per block (perks/stencil.cuh's layout) and where each tile's
 *                     rows sit: registers, shared or device memory
 *   perks_plan begins with onchip/plan.h's head (path PERKS_PLAN_*, why, steps_per_pass, passes,
 *                     workspace_bytes, result), which the stencils' name_plan fills;
 *                     perks_plan_make sets path PERKS_PLAN_STREAM and plans no launch (passes 0)
 *
 * EXAMPLE
 *   [compile in a function]
 *   perks_device_info d;  perks_device_h200(&d);        // or perks_device_query (perks/stencil.cuh)
 *   perks_kernel_info k = {0};
 *   k.block = 256; k.regs_per_thread = 96; k.static_smem = 10368; k.cell_bytes = 4;
 *   k.bytes_in_flight_per_thread = 8 * 4;             // 8 independent loads of 4 bytes
 *   k.reg_cells_per_thread = 32; k.smem_quantum_cells = 256;
 *   perks_plan p;
 *   int rc = perks_plan_make(&p, &d, &k, 3000LL * 3000, 0);   // 0: blocks per SM by Little's law
 *   rc = rc ? rc : perks_plan_tiles2d(&p, 3000, 3000, 256, 1);   // radius 1    // p.cached_fraction, p.smem_rows...
 *
 * ERRORS (perks/base.h; the full list: docs/perks.md#design-notes-perksplanh)
 *   PERKS_ENULL; PERKS_ESIZE a size or description out of range or a result past the integer
 *   types; PERKS_ERESOURCE no room for one block per SM; PERKS_ECORESIDENT more tile columns than
 *   the grid.  On an error the plan is left unchanged.
 *
 * LIMITS
 *   Register allocation as on sm_70..sm_90 (per warp, in units of reg_alloc_unit); perks_launch
 *   checks co-residency again before any launch.
 */
#ifndef PERKS_PLAN_H
#define PERKS_PLAN_H

#include "base.h"
#include <onchip/plan.h>

#ifndef __CUDACC_RTC__
#include <float.h>
#include <limits.h>
#endif

typedef struct perks_device_info {
    int sms;                     /* multiprocessors */
    long smem_per_sm;            /* shared bytes per SM usable by blocks */
    long smem_per_block;         /* opt-in maximum per block, static + dynamic */
    long smem_reserved_per_block;/* the runtime's own per block (1 KiB on sm_80+) */
    int regs_per_sm;             /* 32-bit registers per SM */
    int regs_per_thread_max;     /* 255 */
    int reg_alloc_unit;          /* registers granted per warp in multiples of this (256) */
    int max_threads_per_sm;      /* 2048 */
    int max_blocks_per_sm;       /* 32 */
    double mem_bw;               /* bytes per second (copy bandwidth) */
    double mem_latency;          /* seconds, a load under load */
} perks_device_info;

typedef struct perks_kernel_info {
    int block;                     /* threads per block, a multiple of 32 */
    int regs_per_thread;           /* register cache included (-Xptxas -v) */
    long static_smem;              /* static shared bytes per block */
    long dyn_smem_base;            /* dynamic shared bytes besides the cache */
    int bytes_in_flight_per_thread;/* ILP x bytes per load */
    int reg_cells_per_thread;      /* register cache depth */
    int cell_bytes;                /* sizeof(T) */
    long smem_quantum_cells;       /* the cache is granted in multiples of this (a tile row); 0 = 1 */
} perks_kernel_info;

typedef struct perks_plan {
    /* the head (onchip/plan.h): path PERKS_PLAN_*; steps_per_pass args.steps (persistent) or 1
     * (PERKS_PLAN_STEPS); workspace_bytes the edge buffers' (args.work's least size) */
    ONCHIP_PLAN_HEAD
    /* perks_plan_make */
    int sms, blocks_per_sm, max_blocks_per_sm, grid, block;
    long smem_cache_cells;  /* per block */
    long smem_bytes;        /* dynamic shared bytes to launch with (base + cache) */
    long long cells;        /* the domain */
    long dyn_smem_base;     /* from the kernel info */
    int cell_bytes;         /* from the kernel info */
    long long cap_reg, cap_smem; /* cells the grid holds in registers / shared memory */
    /* perks_plan_tiles2d / 3d */
    int tiles_x, tiles_y, tiles; /* tiles (= blocks: grid is set to tiles) */
    int tile_w, tile_h;          /* columns (x) and, in 3D, rows (y) of a tile */
    int tile_len;                /* cells along the streamed axis (y in 2D, z in 3D) */
    int reg_rows, smem_rows;     /* rows (planes) of a tile in registers / shared */
    long long cells_reg, cells_smem, cells_dev; /* where the cells sit between steps */
    double cached_fraction;      /* (cells_reg + cells_smem) / cells */
} perks_plan;

/* perks_plan.path */
#define PERKS_PLAN_STREAM 0   /* the streaming persistent kernel */
#define PERKS_PLAN_RESIDENT 1 /* the resident kernel: every tile in shared memory */
#define PERKS_PLAN_HYBRID 2   /* the hybrid kernel: smem_rows of a tile resident, the rest streamed */
#define PERKS_PLAN_STEPS 3    /* one launch a step (PERKS_KERNEL_STEPS; AUTO where the hybrid kernel would lose) */

#ifndef __CUDACC_RTC__ /* host code (NVRTC: the structs and codes only) */
/* a preset sm_90 device for host tests and off-line plans (its numbers: docs/perks.md#design-notes-perksplanh) */
static inline void perks_device_h200(perks_device_info *d)
{
    d->sms = 132;
    d->smem_per_sm = ONCHIP_SM90_SMEM_PER_SM;
    d->smem_per_block = ONCHIP_SMEM_OPTIN_MAX;
    d->smem_reserved_per_block = ONCHIP_SM90_SMEM_RESERVED;
    d->regs_per_sm = ONCHIP_SM90_REGS_PER_SM;
    d->regs_per_thread_max = ONCHIP_REGS_PER_THREAD_MAX;
    d->reg_alloc_unit = 256;
    d->max_threads_per_sm = ONCHIP_SM90_THREADS_PER_SM;
    d->max_blocks_per_sm = ONCHIP_SM90_BLOCKS_PER_SM;
    d->mem_bw = 4.27e12;
    d->mem_latency = 700e-9;
}

/* blocks that fit on one SM by registers, threads, blocks and shared memory (no cache); 0 when
 * none fits or the arguments are out of range */
static inline int perks_plan_max_blocks(const perks_device_info *d, const perks_kernel_info *k)
{
    int warps, n;
    long long unit, regs_warp;
    long fixed, smem;
    if (!d || !k || k->block < 1 || k->block > ONCHIP_THREADS_PER_BLOCK_MAX || k->static_smem < 0 || k->dyn_smem_base < 0 ||
        d->smem_reserved_per_block < 0)
        return 0;
    warps = (k->block + 31) / 32;
    n = d->max_blocks_per_sm;
    unit = d->reg_alloc_unit > 0 ? d->reg_alloc_unit : 256;
    regs_warp = ((long long)k->regs_per_thread * 32 + unit - 1) / unit * unit;
    if (k->regs_per_thread > d->regs_per_thread_max) return 0;
    if (regs_warp > 0 && d->regs_per_sm / (regs_warp * warps) < n) n = (int)(d->regs_per_sm / (regs_warp * warps));
    if (d->max_threads_per_sm / (warps * 32) < n) n = d->max_threads_per_sm / (warps * 32);
    /* static + dynamic above the per-block maximum, without forming the sum */
    if (k->dyn_smem_base > d->smem_per_block || k->static_smem > d->smem_per_block - k->dyn_smem_base) return 0;
    fixed = k->static_smem + k->dyn_smem_base; /* <= smem_per_block */
    if (d->smem_reserved_per_block > LONG_MAX - fixed) return 0; /* more than any SM holds */
    smem = fixed + d->smem_reserved_per_block;
    if (smem > 0 && d->smem_per_sm / smem < n) n = (int)(d->smem_per_sm / smem);
    return n < 0 ? 0 : n;
}

/* blocks per SM whose loads in flight reach bandwidth x latency, in 1..INT_MAX (1: no finite need) */
static inline int perks_plan_little(const perks_device_info *d, const perks_kernel_info *k)
{
    double need, per_block, q;
    int n;
    if (!d || !k || d->sms <= 0) return 1;
    need = d->mem_bw * d->mem_latency / d->sms;
    per_block = (double)k->block * (k->bytes_in_flight_per_thread > 0 ? k->bytes_in_flight_per_thread : 4);
    if (!(need > 0) || !(per_block > 0)) return 1; /* NaN, zero or negative */
    q = need / per_block;
    if (!(q < (double)INT_MAX)) return INT_MAX; /* an infinite or huge need: as many as allowed */
    n = (int)q;
    if (n * per_block < need) n++;
    return n < 1 ? 1 : n;
}

/* positive and finite (not NaN, not infinite) */
static inline int perks__plan_posfinite(double x) { return x > 0 && x <= DBL_MAX; }

/* p: blocks per SM (blocks_per_sm > 0 forces it, 0: Little's law), the grid, the cache per block,
 * the capacities.  ERRORS above. */
static inline int perks_plan_make(perks_plan *p, const perks_device_info *d, const perks_kernel_info *k,
                                  long long cells, int blocks_per_sm)
{
    long per_block_fixed, avail, q, cache;
    long long grid, cap_reg, cap_smem;
    int maxb, bps;
    if (!p || !d || !k) return PERKS_ENULL;
    if (cells <= 0 || k->block <= 0 || k->block > ONCHIP_THREADS_PER_BLOCK_MAX || k->block % 32 || blocks_per_sm < 0)
        return PERKS_ESIZE;
    if (k->regs_per_thread < 0 || k->static_smem < 0 || k->dyn_smem_base < 0 || k->reg_cells_per_thread < 0 ||
        k->cell_bytes <= 0 || k->smem_quantum_cells < 0 || k->bytes_in_flight_per_thread < 0)
        return PERKS_ESIZE;
    if (d->sms <= 0 || d->smem_per_sm <= 0 || d->smem_per_block <= 0 || d->regs_per_sm <= 0 ||
        d->max_threads_per_sm <= 0 || d->max_blocks_per_sm <= 0 || d->regs_per_thread_max <= 0 ||
        !perks__plan_posfinite(d->mem_bw) || !perks__plan_posfinite(d->mem_latency) || d->smem_reserved_per_block < 0)
        return PERKS_ESIZE;
    maxb = perks_plan_max_blocks(d, k);
    if (maxb < 1) return PERKS_ERESOURCE;
    if (blocks_per_sm > maxb) return PERKS_ESIZE;
    bps = blocks_per_sm ? blocks_per_sm : perks_plan_little(d, k);
    if (bps > maxb) bps = maxb;
    grid = (long long)d->sms * bps;
    if (grid > INT_MAX) return PERKS_ESIZE; /* the grid is an int */
    /* maxb >= 1: these sums fit */
    per_block_fixed = k->static_smem + k->dyn_smem_base + d->smem_reserved_per_block;
    avail = d->smem_per_sm / bps - per_block_fixed;
    if (avail > d->smem_per_block - k->static_smem - k->dyn_smem_base)
        avail = d->smem_per_block - k->static_smem - k->dyn_smem_base;
    if (avail < 0) avail = 0;
    q = k->smem_quantum_cells > 0 ? k->smem_quantum_cells : 1;
    cache = avail / k->cell_bytes / q * q;
    /* capacities past LLONG_MAX refused */
    if (k->reg_cells_per_thread > 0 && grid * k->block > LLONG_MAX / k->reg_cells_per_thread) return PERKS_ESIZE;
    if (cache > 0 && grid > LLONG_MAX / cache) return PERKS_ESIZE;
    cap_reg = grid * k->block * k->reg_cells_per_thread;
    cap_smem = grid * cache;
    p->sms = d->sms;
    p->max_blocks_per_sm = maxb;
    p->blocks_per_sm = bps;
    p->grid = (int)grid;
    p->block = k->block;
    p->cells = cells;
    p->dyn_smem_base = k->dyn_smem_base;
    p->cell_bytes = k->cell_bytes;
    p->smem_cache_cells = cache;
    p->smem_bytes = k->dyn_smem_base + cache * k->cell_bytes; /* <= smem_per_block - static_smem */
    p->cap_reg = cap_reg;
    p->cap_smem = cap_smem;
    p->tiles_x = p->tiles_y = p->tiles = 0;
    p->tile_w = p->tile_h = p->tile_len = 0;
    p->reg_rows = k->reg_cells_per_thread;
    p->smem_rows = 0;
    p->cells_reg = p->cells_smem = 0;
    p->cells_dev = cells;
    p->cached_fraction = 0;
    onchip__plan_set(p, PERKS_PLAN_STREAM, "perks_plan_make: blocks per SM, grid and cache of one kernel; no launch planned",
                     0, 0, 0, NULL);
    return PERKS_SUCCESS;
}

/* a slab's rows in registers (only with >= reg_rows + r rows) and shared memory (<= sr of the rest) */
static inline long long perks__plan_rows_reg(const perks_plan *p, long long rows, int r)
{
    return (p->reg_rows > 0 && rows >= (long long)p->reg_rows + r) ? p->reg_rows : 0;
}
static inline long long perks__plan_rows_smem(const perks_plan *p, long long rows, int r, long long sr)
{
    long long rest = rows - perks__plan_rows_reg(p, rows, r);
    return rest < sr ? rest : sr;
}

/* the tilers' common part on a copy of the plan: the streamed axis (len) in the fewest equal slabs
 * that use the grid; per_tile_cells: a tile's row (plane), cols: the domain's */
static inline int perks__plan_slabs(perks_plan *p, long long across, int len, long long per_tile_cells, int r,
                                    long long cols)
{
    long long slabs, th, sr, last;
    if (across > p->grid) return PERKS_ECORESIDENT;
    slabs = p->grid / across;
    if (slabs > len) slabs = len;
    th = (len + slabs - 1) / slabs;
    slabs = (len + th - 1) / th; /* drop empty slabs */
    /* a tile too short for register rows may cache every row in shared memory */
    sr = p->smem_cache_cells / per_tile_cells;
    if (sr > th) sr = th;
    if (sr * per_tile_cells > (LONG_MAX - p->dyn_smem_base) / p->cell_bytes) return PERKS_ESIZE;
    p->tiles = (int)(across * slabs); /* <= grid */
    p->tile_len = (int)th;
    p->grid = p->tiles;
    p->smem_rows = (int)sr;
    p->smem_bytes = p->dyn_smem_base + (long)(sr * per_tile_cells) * p->cell_bytes;
    /* slabs - 1 slabs of th rows and a last one of the rest, each cols cells wide */
    last = len - (slabs - 1) * th;
    p->cells_reg = ((slabs - 1) * perks__plan_rows_reg(p, th, r) + perks__plan_rows_reg(p, last, r)) * cols;
    p->cells_smem = ((slabs - 1) * perks__plan_rows_smem(p, th, r, sr) + perks__plan_rows_smem(p, last, r, sr)) * cols;
    p->cells_dev = p->cells - p->cells_reg - p->cells_smem;
    p->cached_fraction = (double)(p->cells_reg + p->cells_smem) / (double)p->cells;
    return PERKS_SUCCESS;
}

/* a plan the tilers take (perks_plan_make's ranges) */
static inline int perks__plan_tilable(const perks_plan *p)
{
    return p->grid > 0 && p->smem_cache_cells >= 0 && p->dyn_smem_base >= 0 && p->cell_bytes > 0 && p->reg_rows >= 0;
}

/* 2D: W x H cells in tiles of tile_w columns (a thread each) and tile_len rows, r the radius
 * (docs/perks.md#design-notes-perksplanh); grid becomes the tiles used, smem_bytes the rows used */
static inline int perks_plan_tiles2d(perks_plan *p, int W, int H, int tile_w, int r)
{
    perks_plan q;
    int rc;
    if (!p) return PERKS_ENULL;
    if (W <= 0 || H <= 0 || tile_w <= 0 || r < 0 || !perks__plan_tilable(p)) return PERKS_ESIZE;
    if ((long long)W * H != p->cells) return PERKS_ESIZE;
    q = *p;
    q.tiles_x = W / tile_w + (W % tile_w != 0);
    q.tile_w = tile_w;
    q.tile_h = 1;
    rc = perks__plan_slabs(&q, q.tiles_x, H, tile_w, r, W);
    if (rc) return rc;
    q.tiles_y = q.tiles / q.tiles_x;
    *p = q;
    return PERKS_SUCCESS;
}

/* 3D: tiles of tile_w x tile_h columns streamed along z; as perks_plan_tiles2d */
static inline int perks_plan_tiles3d(perks_plan *p, int W, int H, int D, int tile_w, int tile_h, int r)
{
    perks_plan q;
    int rc;
    if (!p) return PERKS_ENULL;
    if (W <= 0 || H <= 0 || D <= 0 || tile_w <= 0 || tile_h <= 0 || r < 0 || !perks__plan_tilable(p))
        return PERKS_ESIZE;
    if ((long long)W * H > LLONG_MAX / D || (long long)W * H * D != p->cells) return PERKS_ESIZE;
    q = *p;
    q.tiles_x = W / tile_w + (W % tile_w != 0);
    q.tiles_y = H / tile_h + (H % tile_h != 0);
    q.tile_w = tile_w;
    q.tile_h = tile_h;
    rc = perks__plan_slabs(&q, (long long)q.tiles_x * q.tiles_y, D, (long long)tile_w * tile_h, r, (long long)W * H);
    if (rc) return rc;
    *p = q;
    return PERKS_SUCCESS;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_PLAN_H */
#include <onchip/names_pop.h>
