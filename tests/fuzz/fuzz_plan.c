/* tests/fuzz/fuzz_plan.c -- the host planners and index math under hostile numbers: perks/plan.h,
 * cbi/cbi.h, perks/decomp.h and ssam/tbplan.h.  The first byte picks a module, the rest are its
 * arguments (fuzz_int's edge values, and 64-bit ones from fuzz_ll below).  Every call must return
 * in bounded time with a documented status code; on success the plan keeps its promises (inside
 * the sizes given, no wrapped count, bijective remaps on small plans, sends landing in the peer's
 * ghosts, passes covering the steps), on failure the outputs are as documented (left unchanged,
 * or ssam's one-pass plan of 0 passes).  tests/host/test_props.c feeds the same function random
 * and extreme inputs under gcc, with FUZZ_ASSERT made a CHECK: every helper here returns int (0)
 * so that such an assertion can return 1. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include <cbi/cbi.h>
#include <perks/decomp.h>
#include <perks/plan.h>
#include <ssam/tbplan.h>

#include "fuzz.h"

/* unsigned 128-bit arithmetic for the reference answers (a GCC / Clang extension, tests only) */
__extension__ typedef unsigned __int128 fplan_u128;

/* a 64-bit value that is often an edge (0, +-1, the ends of int and long long, their halves and
 * square roots), small, or any */
static long long fplan_ll(fuzz_bytes *b)
{
    static const long long edge[] = {0,          1,          -1,         2,
                                     LLONG_MAX,  LLONG_MIN,  LLONG_MAX - 1, INT_MAX,
                                     (long long)INT_MAX + 1, 4294967295LL, 4294967296LL, 3037000499LL,
                                     3037000500LL, 1LL << 62, 65536,  32};
    uint64_t sel = fuzz_u64(b, 1);
    if (sel < 80) return edge[sel % (sizeof edge / sizeof *edge)];
    if (sel < 160) return (long long)(fuzz_u64(b, 2) % 5000);
    if (sel < 200) return fuzz_int(b);
    return (long long)fuzz_u64(b, 8);
}

/* a double that is often NaN, an infinity, zero, negative, tiny or huge */
static double fplan_double(fuzz_bytes *b, double typical)
{
    uint64_t sel = fuzz_u64(b, 1);
    switch (sel % 10) {
    case 0: return sel & 16 ? -NAN : NAN;
    case 1: return sel & 16 ? -INFINITY : INFINITY;
    case 2: return 0;
    case 3: return -typical;
    case 4: return 1e-300;
    case 5: return 1e300;
    default: return typical * (double)(1 + fuzz_u64(b, 2)) / 1000.0;
    }
}

/* ---- perks/plan.h ---------------------------------------------------------------------------- */

/* the rows of a slab that the kernel keeps in registers / shared memory (its rule, by brute force) */
static long long fplan_brute_rows(const perks_plan *p, long long len, int r, int smem)
{
    long long y0, total = 0;
    for (y0 = 0; y0 < len; y0 += p->tile_len) {
        long long rows = len - y0 < p->tile_len ? len - y0 : p->tile_len, y;
        long long nreg = (p->reg_rows > 0 && rows >= (long long)p->reg_rows + r) ? p->reg_rows : 0;
        for (y = 0; y < rows; y++) total += smem ? (y >= nreg && y < nreg + p->smem_rows) : (y < nreg);
    }
    return total;
}

static int fplan_tiles(fuzz_bytes *b, perks_plan *p, int three, int W, int H, int D, int trimmed)
{
    int tw = (int)(fuzz_u64(b, 1) & 1 ? fuzz_int(b) : 32 * (int)(1 + fuzz_u64(b, 1) % 32));
    int th = three ? (fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(1 + fuzz_u64(b, 1) % 16)) : 1;
    int r = (int)(fuzz_u64(b, 1) & 3) == 0 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 5);
    perks_plan before = *p;
    long long across, slabs, len = three ? D : H, ptc = (long long)tw * th, cols = three ? (long long)W * H : W;
    int rc = three ? perks_plan_tiles3d(p, W, H, D, tw, th, r) : perks_plan_tiles2d(p, W, H, tw, r);
    FUZZ_ASSERT(rc == 0 || rc == PERKS_ESIZE || rc == PERKS_ECORESIDENT, "tiles rc %d", rc);
    if (rc) {
        FUZZ_ASSERT(memcmp(&before, p, sizeof before) == 0, "a failed tiling changed the plan (rc %d)", rc);
        return 0;
    }
    FUZZ_ASSERT(tw > 0 && th > 0 && r >= 0 && W > 0 && H > 0 && (!three || D > 0), "tiled bad sizes");
    FUZZ_ASSERT(p->tile_w == tw && p->tile_h == th, "tile size");
    /* the tile columns cover the domain exactly: (n - 1) tiles fall short, n reach it */
    FUZZ_ASSERT(p->tiles_x >= 1 && (long long)(p->tiles_x - 1) * tw < W && (long long)p->tiles_x * tw >= W,
                "tiles_x %d for W %d / %d", p->tiles_x, W, tw);
    FUZZ_ASSERT(p->tiles_y >= 1, "tiles_y %d", p->tiles_y);
    if (three)
        FUZZ_ASSERT((long long)(p->tiles_y - 1) * th < H && (long long)p->tiles_y * th >= H, "tiles_y %d", p->tiles_y);
    across = three ? (long long)p->tiles_x * p->tiles_y : p->tiles_x;
    FUZZ_ASSERT(p->tiles >= 1 && p->tiles <= before.grid && p->grid == p->tiles && p->tiles % across == 0,
                "tiles %d grid %d across %lld", p->tiles, before.grid, across);
    slabs = p->tiles / across;
    FUZZ_ASSERT(p->tile_len >= 1 && slabs * p->tile_len >= len && (slabs - 1) * p->tile_len < len,
                "slabs %lld x %d rows for %lld", slabs, p->tile_len, len);
    FUZZ_ASSERT(p->smem_rows >= 0 && p->smem_rows <= p->tile_len && p->smem_rows * ptc <= p->smem_cache_cells,
                "smem rows %d", p->smem_rows);
    FUZZ_ASSERT(p->smem_bytes >= 0 && p->smem_bytes == p->dyn_smem_base + (long)(p->smem_rows * ptc) * p->cell_bytes,
                "smem bytes %ld", p->smem_bytes);
    FUZZ_ASSERT(trimmed || p->smem_bytes <= before.smem_bytes, "smem bytes grew: %ld > %ld", p->smem_bytes, before.smem_bytes);
    FUZZ_ASSERT(p->cells_reg >= 0 && p->cells_smem >= 0 && p->cells_dev >= 0 &&
                    p->cells_reg + p->cells_smem + p->cells_dev == p->cells,
                "cells %lld + %lld + %lld != %lld", p->cells_reg, p->cells_smem, p->cells_dev, p->cells);
    FUZZ_ASSERT(p->cells_reg % cols == 0 && p->cells_smem % cols == 0, "cells by rows of %lld", cols);
    FUZZ_ASSERT(p->cached_fraction >= 0 && p->cached_fraction <= 1, "fraction %g", p->cached_fraction);
    if (len <= 4096) {
        FUZZ_ASSERT(p->cells_reg == fplan_brute_rows(p, len, r, 0) * cols, "reg cells %lld", p->cells_reg);
        FUZZ_ASSERT(p->cells_smem == fplan_brute_rows(p, len, r, 1) * cols, "smem cells %lld", p->cells_smem);
    }
    return 0;
}

static int fplan_perks(fuzz_bytes *b)
{
    perks_device_info d;
    perks_kernel_info k;
    perks_plan p, before;
    uint64_t mask = fuzz_u64(b, 3);
    int W, H, D = 1, three, bps, rc, maxb, little;
    long long cells;
    perks_device_h200(&d);
    memset(&k, 0, sizeof k);
    k.block = 256, k.regs_per_thread = 64, k.static_smem = 10240, k.bytes_in_flight_per_thread = 32;
    k.reg_cells_per_thread = 16, k.cell_bytes = 4, k.smem_quantum_cells = 256;
    /* each bit of the mask replaces one field by a hostile value */
    if (mask & 1) d.sms = fuzz_int(b);
    if (mask & 2) d.smem_per_sm = (long)fplan_ll(b);
    if (mask & 4) d.smem_per_block = (long)fplan_ll(b);
    if (mask & 8) d.smem_reserved_per_block = (long)fplan_ll(b);
    if (mask & 16) d.regs_per_sm = fuzz_int(b);
    if (mask & 32) d.regs_per_thread_max = fuzz_int(b);
    if (mask & 64) d.reg_alloc_unit = fuzz_int(b);
    if (mask & 128) d.max_threads_per_sm = fuzz_int(b);
    if (mask & 256) d.max_blocks_per_sm = fuzz_int(b);
    if (mask & 512) d.mem_bw = fplan_double(b, 4e12);
    if (mask & 1024) d.mem_latency = fplan_double(b, 7e-7);
    if (mask & 2048) k.block = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : 32 * (int)(fuzz_u64(b, 1) % 40);
    if (mask & 4096) k.regs_per_thread = fuzz_int(b);
    if (mask & 8192) k.static_smem = (long)fplan_ll(b);
    if (mask & 16384) k.dyn_smem_base = (long)fplan_ll(b);
    if (mask & 32768) k.bytes_in_flight_per_thread = fuzz_int(b);
    if (mask & 65536) k.reg_cells_per_thread = fuzz_int(b);
    if (mask & 131072) k.cell_bytes = fuzz_int(b);
    if (mask & 262144) k.smem_quantum_cells = (long)fplan_ll(b);
    bps = mask & 524288 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 4);
    three = (mask & 1048576) != 0;
    W = fuzz_int(b), H = fuzz_int(b);
    if (three) D = fuzz_int(b);
    cells = (long long)W * H;
    if (three && D > 0 && cells > 0) cells = cells > LLONG_MAX / D ? -1 : cells * D;
    if (mask & 2097152) cells = fplan_ll(b); /* a count that may not match the sizes */

    maxb = perks_plan_max_blocks(&d, &k);
    little = perks_plan_little(&d, &k);
    FUZZ_ASSERT(maxb >= 0, "max blocks %d", maxb);
    FUZZ_ASSERT(little >= 1, "little %d", little);
    FUZZ_ASSERT(perks_plan_max_blocks(NULL, &k) == 0 && perks_plan_max_blocks(&d, NULL) == 0, "NULL max blocks");

    memset(&p, 0x5a, sizeof p);
    before = p;
    rc = perks_plan_make(&p, &d, &k, cells, bps);
    FUZZ_ASSERT(rc == 0 || rc == PERKS_ESIZE || rc == PERKS_ERESOURCE, "make rc %d", rc);
    FUZZ_ASSERT(perks_plan_make(NULL, &d, &k, cells, bps) == PERKS_ENULL, "NULL plan");
    if (rc) {
        FUZZ_ASSERT(memcmp(&before, &p, sizeof p) == 0, "a failed make changed the plan (rc %d)", rc);
        if (rc == PERKS_ERESOURCE) FUZZ_ASSERT(maxb == 0, "ERESOURCE with %d blocks fitting", maxb);
        return 0;
    }
    /* inputs the plan accepted */
    FUZZ_ASSERT(cells > 0 && k.block >= 32 && k.block <= 1024 && k.block % 32 == 0 && k.cell_bytes > 0,
                "accepted bad sizes");
    FUZZ_ASSERT(d.mem_bw > 0 && d.mem_bw <= 1.7976931348623157e308 && d.mem_latency > 0 &&
                    d.mem_latency <= 1.7976931348623157e308,
                "accepted a bandwidth %g or latency %g that is not positive and finite", d.mem_bw, d.mem_latency);
    FUZZ_ASSERT(p.max_blocks_per_sm == maxb && maxb >= 1, "max blocks %d vs %d", p.max_blocks_per_sm, maxb);
    FUZZ_ASSERT(p.blocks_per_sm >= 1 && p.blocks_per_sm <= maxb && (bps == 0 || p.blocks_per_sm == bps),
                "blocks per SM %d (asked %d, max %d)", p.blocks_per_sm, bps, maxb);
    FUZZ_ASSERT(p.grid > 0 && (long long)p.grid == (long long)d.sms * p.blocks_per_sm, "grid %d", p.grid);
    FUZZ_ASSERT(p.smem_cache_cells >= 0 && p.smem_bytes >= 0 && p.smem_bytes >= k.dyn_smem_base, "smem %ld", p.smem_bytes);
    FUZZ_ASSERT(p.smem_bytes - k.dyn_smem_base == p.smem_cache_cells * k.cell_bytes, "smem bytes %ld", p.smem_bytes);
    FUZZ_ASSERT(k.static_smem <= d.smem_per_block - p.smem_bytes, "static %ld + smem %ld above the block's %ld",
                k.static_smem, p.smem_bytes, d.smem_per_block);
    FUZZ_ASSERT(k.static_smem + p.smem_bytes <= LONG_MAX - d.smem_reserved_per_block &&
                    k.static_smem + p.smem_bytes + d.smem_reserved_per_block <= d.smem_per_sm / p.blocks_per_sm,
                "%d blocks of %ld + %ld + %ld bytes above the SM's %ld", p.blocks_per_sm, k.static_smem, p.smem_bytes,
                d.smem_reserved_per_block, d.smem_per_sm);
    FUZZ_ASSERT(p.smem_cache_cells % (k.smem_quantum_cells > 0 ? k.smem_quantum_cells : 1) == 0, "quantum");
    FUZZ_ASSERT(p.cap_reg >= 0 && (k.reg_cells_per_thread == 0 || p.cap_reg / k.reg_cells_per_thread == (long long)p.grid * k.block),
                "cap_reg %lld", p.cap_reg);
    FUZZ_ASSERT(p.cap_smem >= 0 && (p.smem_cache_cells == 0 ? p.cap_smem == 0 : p.cap_smem / p.smem_cache_cells == p.grid),
                "cap_smem %lld", p.cap_smem);
    FUZZ_ASSERT(p.cells == cells && p.cells_dev == cells && p.path == PERKS_PLAN_STREAM && p.passes == 0, "copied fields");
    if (mask & 4194304) p.smem_cache_cells = fplan_ll(b) & LONG_MAX; /* as the stencil planners set it */
    return fplan_tiles(b, &p, three, W, H, D, (mask & 4194304) != 0);
}

/* ---- cbi/cbi.h ------------------------------------------------------------------------------- */

static int fplan_cbi_check(const cbi_plan *p, fuzz_bytes *b)
{
    long long i, n;
    FUZZ_ASSERT(p->cells == p->width * p->height && p->w >= 1 && p->w <= p->width &&
                    p->nfull * p->w + p->lastw == p->width && p->lastw >= 0 && p->lastw < p->w &&
                    p->colsize == p->w * p->height,
                "plan fields %lld x %lld w %lld", p->width, p->height, p->w);
    if (p->flags & CBI_INDEX32) FUZZ_ASSERT(p->cells <= 4294967295LL, "INDEX32 plan of %lld cells", p->cells);
    if (p->cells <= 4096) { /* exhaustive: a bijection, its inverse, the 32-bit path */
        static unsigned char seen[4096];
        memset(seen, 0, (size_t)p->cells);
        for (i = 0; i < p->cells; i++) {
            long long j = cbi_remap(p, i), x, y;
            cbi_remap_xy(p, i, &x, &y);
            FUZZ_ASSERT(j >= 0 && j < p->cells && !seen[j], "remap(%lld) = %lld repeats or leaves the domain", i, j);
            seen[j] = 1;
            FUZZ_ASSERT(x >= 0 && x < p->width && y >= 0 && y < p->height && x + y * p->width == j, "remap_xy(%lld)", i);
            FUZZ_ASSERT(cbi_inverse(p, j) == i && cbi_inverse_xy(p, x, y) == i, "inverse(%lld)", j);
            if (p->flags & CBI_INDEX32) FUZZ_ASSERT(cbi_remap32(p, (uint32_t)i) == (uint32_t)j, "remap32(%lld)", i);
        }
        return 0;
    }
    for (n = 0; n < 64; n++) { /* sampled */
        long long j, x, y;
        i = (long long)(fuzz_u64(b, 8) % (uint64_t)p->cells);
        j = cbi_remap(p, i);
        cbi_remap_xy(p, i, &x, &y);
        FUZZ_ASSERT(j >= 0 && j < p->cells && x >= 0 && x < p->width && y >= 0 && y < p->height, "remap(%lld)", i);
        FUZZ_ASSERT(cbi_inverse(p, j) == i, "inverse(remap(%lld))", i);
        if (p->flags & CBI_INDEX32) FUZZ_ASSERT(cbi_remap32(p, (uint32_t)i) == (uint32_t)j, "remap32(%lld)", i);
    }
    return 0;
}

static int fplan_cbi_plans(fuzz_bytes *b)
{
    cbi_plan p, before;
    long long dims[CBI_MAX_DIMS + 1], wid = fplan_ll(b), hei = fplan_ll(b), w = fplan_ll(b), h = 1;
    unsigned flags = (unsigned)fuzz_u64(b, 1) & 3u;
    int rc, want, ndims = (int)(fuzz_u64(b, 1) % (CBI_MAX_DIMS + 2)), d;
    fplan_u128 cells = (fplan_u128)(uint64_t)wid * (uint64_t)hei;
    memset(&p, 0x5a, sizeof p);
    before = p;
    rc = cbi_plan_make(&p, wid, hei, w, flags);
    want = wid <= 0 || hei <= 0 ? CBI_EDIM : w <= 0 ? CBI_EWIDTH
         : cells > (fplan_u128)LLONG_MAX || ((flags & CBI_INDEX32) && cells > 4294967295u) ? CBI_EOVERFLOW : 0;
    FUZZ_ASSERT(rc == want, "plan %lld x %lld w %lld flags %u: rc %d, want %d", wid, hei, w, flags, rc, want);
    FUZZ_ASSERT(cbi_plan_make(NULL, wid, hei, w, flags) == CBI_ENULL, "NULL plan");
    if (rc) FUZZ_ASSERT(memcmp(&before, &p, sizeof p) == 0, "a failed plan changed");
    else if (fplan_cbi_check(&p, b)) return 1;
    /* N-D: dims[0] the width, the rest folded */
    for (d = 0; d < CBI_MAX_DIMS + 1; d++) dims[d] = fuzz_u64(b, 1) & 1 ? fplan_ll(b) : (long long)(1 + fuzz_u64(b, 1) % 6);
    rc = cbi_plan_make_nd(&p, ndims, dims, w, flags);
    if (ndims < 1 || ndims > CBI_MAX_DIMS) {
        FUZZ_ASSERT(rc == CBI_ENDIM, "ndims %d: rc %d", ndims, rc);
        return 0;
    }
    FUZZ_ASSERT(rc == 0 || rc == CBI_EDIM || rc == CBI_EWIDTH || rc == CBI_EOVERFLOW, "nd rc %d", rc);
    if (rc) return 0;
    for (d = 1; d < ndims; d++) h *= dims[d];
    FUZZ_ASSERT(p.width == dims[0] && p.height == h, "folded %lld x %lld", p.width, p.height);
    if (p.cells <= 4096) { /* every folded row unfolds to coordinates inside dims, in order */
        long long y, c[CBI_MAX_DIMS];
        for (y = 0; y < p.height; y++) {
            long long back = 0;
            cbi_unfold(y, ndims, dims, c);
            for (d = ndims - 1; d >= 1; d--) {
                FUZZ_ASSERT(c[d] >= 0 && c[d] < dims[d], "unfold coordinate %d", d);
                back = back * dims[d] + c[d];
            }
            FUZZ_ASSERT(back == y, "unfold(%lld)", y);
        }
    }
    return fplan_cbi_check(&p, b);
}

/* the reference for cbi_block_group: its definition (the header's comment), by brute force in 128 bits */
static long long fplan_block_group_ref(long long tx, long long tw, long long th, long long depth, int eb,
                                       long long cache, long long nb)
{
    long long g, gmax = tx < nb ? tx : nb, best = 1;
    fplan_u128 sum = (fplan_u128)(uint64_t)tx * (uint64_t)tw + (fplan_u128)(uint64_t)((nb - 1) / tx + 1) * (uint64_t)th,
               fbest = 0;
    if (sum <= (fplan_u128)LLONG_MAX && (double)eb * depth * (double)(long long)sum <= (double)cache) return tx;
    for (g = 1; g <= gmax; g++) {
        fplan_u128 f = (fplan_u128)(uint64_t)g * (uint64_t)tw + (fplan_u128)(uint64_t)((nb - 1) / g + 1) * (uint64_t)th;
        if (g == 1 || f < fbest) fbest = f, best = g;
    }
    return best;
}

/* a width chooser's result: width itself, or a multiple of 32 (at least 32) below it */
static int fplan_width_ok(long long c, long long width) { return c == width || (c >= 32 && c < width && c % 32 == 0); }

static int fplan_cbi_choose(fuzz_bytes *b)
{
    long long width = fplan_ll(b), depth = fplan_ll(b), cache = fplan_ll(b), threads = fplan_ll(b);
    long long tx = fplan_ll(b), tw = fplan_ll(b), th = fplan_ll(b), nb = fplan_ll(b), c;
    int sw = fuzz_int(b), sh = fuzz_int(b), eb = fuzz_int(b);
    c = cbi_width_stencil(width, sw, sh, eb, cache, threads);
    if (width <= 0 || sw <= 0 || sh <= 0 || eb <= 0 || cache <= 0 || threads <= 0) FUZZ_ASSERT(c == 0, "stencil %lld", c);
    else {
        fplan_u128 need = (fplan_u128)(uint64_t)eb * ((fplan_u128)(uint64_t)sh * (uint64_t)sw + (uint64_t)threads);
        long long model = need >= (fplan_u128)(uint64_t)cache ? 0
                                                             : (long long)(((uint64_t)cache - (uint64_t)need) /
                                                                           ((uint64_t)sh * (uint64_t)eb));
        FUZZ_ASSERT(fplan_width_ok(c, width), "stencil width %lld of %lld", c, width);
        FUZZ_ASSERT(c == (model >= width ? width : model < 32 ? (32 < width ? 32 : width) : model / 32 * 32),
                    "stencil width %lld, model %lld", c, model);
    }
    c = cbi_width_matmul(width, depth, eb, cache);
    if (width <= 0 || depth <= 0 || eb <= 0 || cache <= 0) FUZZ_ASSERT(c == 0, "matmul %lld", c);
    else {
        fplan_u128 ud = (fplan_u128)(uint64_t)eb * (uint64_t)depth;
        long long model = (long long)((fplan_u128)(uint64_t)cache / ud);
        FUZZ_ASSERT(c == (model >= width ? width : model < 32 ? (32 < width ? 32 : width) : model / 32 * 32),
                    "matmul width %lld, model %lld", c, model);
    }
    c = cbi_block_group(tx, tw, th, depth, eb, cache, nb);
    if (tx <= 0 || tw <= 0 || th <= 0 || depth <= 0 || eb <= 0 || cache <= 0 || nb <= 0) {
        FUZZ_ASSERT(c == 0, "block group %lld", c);
        return 0;
    }
    FUZZ_ASSERT(c >= 1 && c <= tx && (c == tx || c <= nb), "block group %lld of %lld tiles, %lld blocks", c, tx, nb);
    if ((tx < nb ? tx : nb) <= 4096)
        FUZZ_ASSERT(c == fplan_block_group_ref(tx, tw, th, depth, eb, cache, nb), "block group %lld, brute force %lld", c,
                    fplan_block_group_ref(tx, tw, th, depth, eb, cache, nb));
    return 0;
}

/* ---- perks/decomp.h -------------------------------------------------------------------------- */

static int fplan_decomp(fuzz_bytes *b)
{
    int n = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 200);
    int P = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 20);
    int halo = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 8);
    int bd = fuzz_u64(b, 1) % 3 == 2 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) & 1);
    int rank0 = fuzz_int(b), want, r, k, i;
    perks_slab s[64], before;
    long long first = 0;
    want = n < 1 || P < 1 || rank0 < 0 || rank0 >= P || halo < 0 ||
                   (bd != PERKS_SLAB_DIRICHLET && bd != PERKS_SLAB_PERIODIC)
               ? PERKS_ESIZE
           : (long long)n + 2LL * halo > INT_MAX ? PERKS_ESIZE
           : n / P < halo                        ? PERKS_ETHIN
                                                 : 0;
    memset(&before, 0x5a, sizeof before);
    s[0] = before;
    r = perks_slab_make(&s[0], n, P, rank0, halo, bd);
    FUZZ_ASSERT(r == want, "slab n %d P %d rank %d halo %d bd %d: rc %d, want %d", n, P, rank0, halo, bd, r, want);
    FUZZ_ASSERT(perks_slab_make(NULL, n, P, rank0, halo, bd) == PERKS_ENULL, "NULL slab");
    if (r) {
        FUZZ_ASSERT(memcmp(&before, &s[0], sizeof before) == 0, "a failed slab changed");
        return 0;
    }
    if (P > 64) return 0; /* the whole split only for a few ranks */
    for (r = 0; r < P; r++) {
        FUZZ_ASSERT(perks_slab_make(&s[r], n, P, r, halo, bd) == 0, "rank %d of a valid split", r);
        FUZZ_ASSERT(s[r].first == first && s[r].own >= 0 && s[r].buf_planes == s[r].own + 2 * halo && s[r].own >= halo,
                    "rank %d: first %d own %d buf %d", r, s[r].first, s[r].own, s[r].buf_planes);
        FUZZ_ASSERT(s[r].win[0] >= 0 && s[r].win[0] <= s[r].win[1] && s[r].win[1] <= s[r].buf_planes, "window");
        first += s[r].own;
    }
    FUZZ_ASSERT(first == n, "the slabs cover %lld of %d planes", first, n);
    for (r = 0; r < P; r++)
        for (k = 0; k < 2; k++) {
            int q = s[r].peer[k];
            if (q < 0) continue;
            FUZZ_ASSERT(q < P && s[q].peer[1 - k] >= 0, "rank %d peer %d", r, q);
            /* what r sends to q lands in q's ghosts on the side facing r, plane by plane */
            for (i = 0; i < halo; i = i < 3 || i >= halo - 4 ? i + 1 : halo - 4) {
                int g_send = perks_slab_global(&s[r], s[r].send_at[k] + i);
                int g_recv = perks_slab_global(&s[q], s[q].recv_at[1 - k] + i);
                FUZZ_ASSERT(g_send >= 0 && g_send == g_recv && s[q].recv_at[1 - k] + i < s[q].buf_planes,
                            "rank %d -> %d plane %d: sends %d, lands as %d", r, q, i, g_send, g_recv);
                FUZZ_ASSERT(g_send >= s[r].first && g_send < s[r].first + s[r].own, "sends a plane it does not own");
            }
        }
    {
        perks_slab_parts pa, pb;
        int reach = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % (halo + 2));
        memset(&pa, 0x5a, sizeof pa);
        pb = pa;
        r = perks_slab_parts_make(&s[0], reach, &pa);
        FUZZ_ASSERT(r == (reach < 0 || reach > halo ? PERKS_ESIZE : 0), "parts reach %d rc %d", reach, r);
        if (r) {
            FUZZ_ASSERT(memcmp(&pa, &pb, sizeof pa) == 0, "failed parts changed");
            return 0;
        }
        FUZZ_ASSERT(pa.edge[0][0] == halo && pa.edge[0][1] == pa.inner[0] && pa.inner[0] <= pa.inner[1] &&
                        pa.inner[1] == pa.edge[1][0] && pa.edge[1][1] == halo + s[0].own,
                    "parts cover the own planes");
        for (k = 0; k < 2; k++)
            FUZZ_ASSERT(pa.edge_win[k][0] >= 0 && pa.edge_win[k][0] <= pa.edge_win[k][1] &&
                            pa.edge_win[k][1] <= s[0].buf_planes && pa.edge_win[k][1] - pa.edge_win[k][0] <= pa.scratch_planes,
                        "edge window %d", k);
    }
    return 0;
}

/* ---- ssam/tbplan.h --------------------------------------------------------------------------- */

static int fplan_tb_result(const ssam_tb_plan *p, int rc, int want, int tt, long long steps)
{
    FUZZ_ASSERT(rc == want, "tb rc %d, want %d (tt %d steps %lld)", rc, want, tt, steps);
    FUZZ_ASSERT(p->why != NULL && (p->path == SSAM_TB_ONEPASS || p->path == SSAM_TB_TEMPORAL), "path %d", p->path);
    if (rc) {
        FUZZ_ASSERT(p->path == SSAM_TB_ONEPASS && p->tt == 1 && p->passes == 0, "a failed plan is not empty");
        return 0;
    }
    if (p->path == SSAM_TB_ONEPASS) FUZZ_ASSERT(p->tt == 1 && p->passes == steps, "one pass: %lld passes", p->passes);
    else /* passes * tt covers the steps, one pass fewer does not */
        FUZZ_ASSERT(p->tt == tt && tt >= 2 && steps >= 2 && p->passes >= 1 && p->passes - 1 == (steps - 1) / tt,
                    "temporal: %lld passes of %d for %lld steps", p->passes, p->tt, steps);
    return 0;
}

static int fplan_tb(fuzz_bytes *b)
{
    ssam_tb_plan p;
    int tt = fuzz_u64(b, 1) & 1 ? fuzz_int(b) : (int)(fuzz_u64(b, 1) % 10), stepx = fuzz_int(b), want, bad;
    long long steps = fplan_ll(b), nx = fplan_ll(b), ny = fplan_ll(b), nz = fplan_ll(b);
    fplan_u128 c2, c3, strips;
    FUZZ_ASSERT(ssam_tb_plan_make(NULL, tt, steps) == SSAM_TB_EINVAL && ssam_tb_smem_plan_make(NULL, tt, steps, nx, ny) ==
                    SSAM_TB_EINVAL && ssam_tb3_plan_make(NULL, tt, steps, nx, ny, nz, stepx) == SSAM_TB_EINVAL,
                "NULL plan");
    bad = tt < 1 || steps < 0;
    memset(&p, 0x5a, sizeof p);
    if (fplan_tb_result(&p, ssam_tb_plan_make(&p, tt, steps), bad ? SSAM_TB_EINVAL : 0, tt, steps)) return 1;
    c2 = nx > 0 && ny > 0 ? (fplan_u128)(uint64_t)nx * (uint64_t)ny : 0;
    want = nx < 1 || ny < 1 ? SSAM_TB_EINVAL : c2 > (fplan_u128)LLONG_MAX ? SSAM_TB_ESIZE : bad ? SSAM_TB_EINVAL : 0;
    memset(&p, 0x5a, sizeof p);
    if (fplan_tb_result(&p, ssam_tb_smem_plan_make(&p, tt, steps, nx, ny), want, tt, steps)) return 1;
    if (want == 0 && p.path == SSAM_TB_TEMPORAL) FUZZ_ASSERT(c2 >= (fplan_u128)SSAM_TB_SMEM_MIN_CELLS, "small staged");
    c3 = nz > 0 && c2 <= (fplan_u128)LLONG_MAX ? c2 * (uint64_t)nz : 0;
    strips = stepx > 0 && nx > 0 ? ((fplan_u128)(uint64_t)nx + (uint64_t)stepx - 1) / (uint64_t)stepx * (uint64_t)stepx : 0;
    want = nx < 1 || ny < 1 || nz < 1 || stepx < 1 ? SSAM_TB_EINVAL
         : c2 > (fplan_u128)LLONG_MAX || c3 > (fplan_u128)LLONG_MAX || strips > (fplan_u128)LLONG_MAX ? SSAM_TB_ESIZE
         : bad ? SSAM_TB_EINVAL : 0;
    memset(&p, 0x5a, sizeof p);
    if (fplan_tb_result(&p, ssam_tb3_plan_make(&p, tt, steps, nx, ny, nz, stepx), want, tt, steps)) return 1;
    if (want == 0 && p.path == SSAM_TB_TEMPORAL) FUZZ_ASSERT(c3 >= (fplan_u128)SSAM_TB3_MIN_CELLS, "small 3D temporal");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes b;
    b.p = data, b.n = size, b.at = 0;
    switch (fuzz_u64(&b, 1) % 5) {
    case 0: return fplan_perks(&b) * 0;
    case 1: return fplan_cbi_plans(&b) * 0;
    case 2: return fplan_cbi_choose(&b) * 0;
    case 3: return fplan_decomp(&b) * 0;
    default: return fplan_tb(&b) * 0;
    }
}
