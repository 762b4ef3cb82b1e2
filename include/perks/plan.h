#include <onchip/names_push.h>
/* perks/plan.h -- how many blocks per SM, and how much of the domain goes to registers and shared
 * memory (C99 host code; also compiles as C++ and CUDA).
 *
 * WHAT (PERKS paper §5 and §4.1.1)
 *   perks_plan_make picks the fewest blocks per SM whose bytes in flight (block x
 *   bytes_in_flight_per_thread) reach bandwidth x latency / SMs (Little's law), within the resources,
 *   and gives each block the shared memory left on its SM as cache, in whole quanta of cells
 *   (docs/perks.md#the-planner-planh).
 *   perks_plan_tiles2d/3d split a 2D or 3D domain into one tile per block (perks/stencil.cuh's
 *   layout: a tile is `tile_w` columns (x, and `tile_h` rows in 3D) of whole rows/planes along the
 *   last axis) and say which rows of each tile sit in registers, in shared memory, or in device
 *   memory.
 *   perks_plan begins with onchip/plan.h's head (path PERKS_PLAN_*, why, steps_per_pass, passes,
 *   workspace_bytes, result), which the stencils' name_plan fills; perks_plan_make sets path
 *   PERKS_PLAN_STREAM and plans no launch (passes 0).
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
 * ERRORS (perks/base.h)
 *   PERKS_ENULL a NULL argument; PERKS_ESIZE cells <= 0, a block outside 1..1024 or not a multiple
 *   of 32, a negative kernel use, a device description with zeros, a bandwidth or latency that is
 *   NaN or infinite, a forced blocks-per-SM above what the device allows, a grid (SMs x blocks per
 *   SM) past INT_MAX, capacities (grid x block x depth, grid x cache cells) past LLONG_MAX, a tiling
 *   whose W H (D) is not the plan's cells or whose shared-memory bytes pass LONG_MAX;
 *   PERKS_ERESOURCE the kernel's registers or shared memory leave no room for one block per SM (the
 *   plan "cannot work"; also shared-memory sums past LONG_MAX); PERKS_ECORESIDENT more tiles than
 *   co-resident blocks would be needed (perks_plan_tiles*: a tile column count that exceeds the
 *   grid).  On an error the plan is left unchanged; hostile
 *   sizes give a code, never a wrapped plan or a division by zero.
 *
 * LIMITS
 *   Register allocation is modelled as on sm_70..sm_90 (per warp, in units of reg_alloc_unit);
 *   perks_launch checks co-residency again with the runtime before any launch.
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
    long smem_per_sm;            /* shared memory per SM that blocks can use (bytes) */
    long smem_per_block;         /* opt-in maximum per block, static + dynamic (bytes) */
    long smem_reserved_per_block;/* the runtime's own shared memory per block (1 KiB on sm_80+) */
    int regs_per_sm;             /* 32-bit registers per SM */
    int regs_per_thread_max;     /* 255 */
    int reg_alloc_unit;          /* registers are granted per warp in multiples of this (256) */
    int max_threads_per_sm;      /* 2048 */
    int max_blocks_per_sm;       /* 32 */
    double mem_bw;               /* bytes per second (copy bandwidth) */
    double mem_latency;          /* seconds, a device-memory load under load */
} perks_device_info;

typedef struct perks_kernel_info {
    int block;                     /* threads per block, a multiple of 32 */
    int regs_per_thread;           /* the kernel's registers, register cache included (-Xptxas -v) */
    long static_smem;              /* static shared memory per block (bytes) */
    long dyn_smem_base;            /* dynamic shared memory the kernel needs besides the cache */
    int bytes_in_flight_per_thread;/* bytes a thread keeps in flight (ILP x bytes per load) */
    int reg_cells_per_thread;      /* register cache depth (compile-time in the kernel) */
    int cell_bytes;                /* bytes per cached cell (sizeof(T)) */
    long smem_quantum_cells;       /* the shared-memory cache is granted in multiples of this
                                      many cells per block (a row of the tile); 0 = 1 */
} perks_kernel_info;

typedef struct perks_plan {
    /* the head (onchip/plan.h), filled by the stencils' name_plan */
    int path;               /* PERKS_PLAN_*: which kernel name_run launches */
    const char *why;        /* why that path, or why the plan is refused (static storage) */
    int steps_per_pass;     /* steps one launch runs: args.steps (persistent), 1 (PERKS_PLAN_STEPS) */
    long long passes;       /* launches name_run makes: 1, args.steps (PERKS_PLAN_STEPS); 0: none */
    size_t workspace_bytes; /* device scratch (edge buffers) name_run needs: args.work's least size */
    void *result;           /* args.src or args.dst, by the parity of args.steps: the state after them */
    /* perks_plan_make */
    int sms, blocks_per_sm, max_blocks_per_sm, grid, block;
    long smem_cache_cells;  /* per block */
    long smem_bytes;        /* dynamic shared memory per block to launch with (base + cache) */
    long long cells;        /* the domain */
    long dyn_smem_base;     /* copied from the kernel info */
    int cell_bytes;         /* copied from the kernel info */
    long long cap_reg, cap_smem; /* cells the whole grid can hold in registers / shared memory */
    /* perks_plan_tiles2d / 3d */
    int tiles_x, tiles_y, tiles; /* tiles (= blocks used: grid is set to tiles) */
    int tile_w, tile_h;          /* columns (x) and, in 3D, rows (y) of a tile */
    int tile_len;                /* cells of a tile along the streamed axis (y in 2D, z in 3D) */
    int reg_rows, smem_rows;     /* rows (2D) / planes (3D) of each tile in registers / shared */
    long long cells_reg, cells_smem, cells_dev; /* where the domain's cells sit between steps */
    double cached_fraction;      /* (cells_reg + cells_smem) / cells */
} perks_plan;

/* perks_plan.path */
#define PERKS_PLAN_STREAM 0   /* the streaming persistent kernel */
#define PERKS_PLAN_RESIDENT 1 /* the resident kernel: every tile in shared memory */
#define PERKS_PLAN_HYBRID 2   /* the hybrid kernel: smem_rows of each tile resident, the rest streamed */
#define PERKS_PLAN_STEPS 3    /* no persistent kernel: the one-pass step, one launch a step
                                 (PERKS_KERNEL_STEPS; AUTO where the hybrid kernel is predicted to lose) */

#ifndef __CUDACC_RTC__ /* the planners are host code: under NVRTC the structs and codes only */
/* An H200 (132 SMs, 228 KB shared memory per SM, 227 KB per block opt-in, 64 K registers, 4.27 TB/s
 * copy, ~700 ns loaded latency): for host tests and for planning off-line. */
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

/* Blocks of this kernel that fit on one SM by registers, threads, blocks and shared memory
 * (shared memory counted without any cache).  0 when none fits: also for a NULL argument, a block
 * outside 1..1024, a negative shared-memory use, or sums of shared memory past LONG_MAX. */
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
    /* static + dynamic above the per-block maximum, compared without forming the sum */
    if (k->dyn_smem_base > d->smem_per_block || k->static_smem > d->smem_per_block - k->dyn_smem_base) return 0;
    fixed = k->static_smem + k->dyn_smem_base; /* <= smem_per_block */
    if (d->smem_reserved_per_block > LONG_MAX - fixed) return 0; /* more than any SM holds */
    smem = fixed + d->smem_reserved_per_block;
    if (smem > 0 && d->smem_per_sm / smem < n) n = (int)(d->smem_per_sm / smem);
    return n < 0 ? 0 : n;
}

/* Blocks per SM whose loads in flight reach bandwidth x latency (Little's law), in 1..INT_MAX
 * (1 where the device or kernel description gives no positive finite need). */
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

/* a double that is positive and finite (NaN and infinities are not) */
static inline int perks__plan_posfinite(double x) { return x > 0 && x <= DBL_MAX; }

/* Fill p: blocks per SM (blocks_per_sm > 0 forces it; 0 picks it by Little's law), the grid
 * (sms x blocks per SM), the shared-memory cache per block and the capacities.  See ERRORS above;
 * on an error *p is left unchanged. */
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
    /* max_blocks >= 1: static + dynamic + reserved fit in a long, static + dynamic in smem_per_block */
    per_block_fixed = k->static_smem + k->dyn_smem_base + d->smem_reserved_per_block;
    avail = d->smem_per_sm / bps - per_block_fixed;
    if (avail > d->smem_per_block - k->static_smem - k->dyn_smem_base)
        avail = d->smem_per_block - k->static_smem - k->dyn_smem_base;
    if (avail < 0) avail = 0;
    q = k->smem_quantum_cells > 0 ? k->smem_quantum_cells : 1;
    cache = avail / k->cell_bytes / q * q;
    /* the capacities: grid x block x depth and grid x cache cells, refused past LLONG_MAX */
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
    p->path = PERKS_PLAN_STREAM;
    p->why = "perks_plan_make: blocks per SM, grid and cache of one kernel; no launch planned";
    p->steps_per_pass = 0;
    p->passes = 0;
    p->workspace_bytes = 0;
    p->result = NULL;
    return PERKS_SUCCESS;
}

/* the rows of a slab of `rows` rows that sit in registers (the kernel's rule: only with at least
 * reg_rows + r rows) and in shared memory (at most sr of the rest) */
static inline long long perks__plan_rows_reg(const perks_plan *p, long long rows, int r)
{
    return (p->reg_rows > 0 && rows >= (long long)p->reg_rows + r) ? p->reg_rows : 0;
}
static inline long long perks__plan_rows_smem(const perks_plan *p, long long rows, int r, long long sr)
{
    long long rest = rows - perks__plan_rows_reg(p, rows, r);
    return rest < sr ? rest : sr;
}

/* the 2D and 3D tilers' common part, on a copy of the plan (tiles_x, tiles_y already set): the
 * streamed axis of length len in the fewest equal slabs that use the grid; per_tile_cells the cells
 * of a tile's row (plane), cols those of the domain's row (plane) */
static inline int perks__plan_slabs(perks_plan *p, long long across, int len, long long per_tile_cells, int r,
                                    long long cols)
{
    long long slabs, th, sr, last;
    if (across > p->grid) return PERKS_ECORESIDENT;
    slabs = p->grid / across;
    if (slabs > len) slabs = len;
    th = (len + slabs - 1) / slabs;
    slabs = (len + th - 1) / th; /* drop empty slabs */
    /* a tile without its register rows (too short for them) may cache every row in shared memory */
    sr = p->smem_cache_cells / per_tile_cells;
    if (sr > th) sr = th;
    if (sr * per_tile_cells > (LONG_MAX - p->dyn_smem_base) / p->cell_bytes) return PERKS_ESIZE;
    p->tiles = (int)(across * slabs); /* <= grid */
    p->tile_len = (int)th;
    p->grid = p->tiles;
    p->smem_rows = (int)sr;
    p->smem_bytes = p->dyn_smem_base + (long)(sr * per_tile_cells) * p->cell_bytes;
    /* the cells: slabs - 1 slabs of th rows and the last of len - (slabs - 1) th, reg rows first,
     * then smem; every slab spans the whole row (plane) of cols cells */
    last = len - (slabs - 1) * th;
    p->cells_reg = ((slabs - 1) * perks__plan_rows_reg(p, th, r) + perks__plan_rows_reg(p, last, r)) * cols;
    p->cells_smem = ((slabs - 1) * perks__plan_rows_smem(p, th, r, sr) + perks__plan_rows_smem(p, last, r, sr)) * cols;
    p->cells_dev = p->cells - p->cells_reg - p->cells_smem;
    p->cached_fraction = (double)(p->cells_reg + p->cells_smem) / (double)p->cells;
    return PERKS_SUCCESS;
}

/* what the tilers need of a plan: made by perks_plan_make (or kept in its ranges) */
static inline int perks__plan_tilable(const perks_plan *p)
{
    return p->grid > 0 && p->smem_cache_cells >= 0 && p->dyn_smem_base >= 0 && p->cell_bytes > 0 && p->reg_rows >= 0;
}

/* 2D: W x H cells, tiles of tile_w columns (the block's threads: one column each) and of
 * tile_len rows; r is the stencil's radius: a tile keeps rows in registers only when it has at
 * least reg_rows + r rows (perks/stencil.cuh's rule), else it caches rows [0, smem_rows) in shared
 * memory.  Fills tiles_*, tile_w, tile_len, smem_rows, cells_*, cached_fraction and sets
 * grid to the tiles used; smem_bytes shrinks to the rows used.  On an error *p is left unchanged. */
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

/* 3D: W x H x D cells, tiles of tile_w x tile_h columns (one per thread) streamed along z in
 * slabs of tile_len planes.  As perks_plan_tiles2d. */
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
