/* tests/host/test_perks_plan.c -- perks/plan.h on the host: blocks per SM by Little's law and by
 * resources (checked against hand-worked H200 numbers), the shared-memory cache per block, the 2D and
 * 3D tilings against a brute-force walk over every tile and row, every error code, and hostile
 * numbers (sizes near INT_MAX, NaN, products past 2^63, zero divisors). */
#include <perks/plan.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static perks_kernel_info kern(int block, int regs, long smem, int bif, int depth, int cb, long q)
{
    perks_kernel_info k;
    memset(&k, 0, sizeof k);
    k.block = block; k.regs_per_thread = regs; k.static_smem = smem; k.bytes_in_flight_per_thread = bif;
    k.reg_cells_per_thread = depth; k.cell_bytes = cb; k.smem_quantum_cells = q;
    return k;
}

static void test_little(void)
{
    perks_device_info d;
    perks_kernel_info k;
    perks_plan p;
    case_begin("perks plan: blocks per SM by Little's law (H200)");
    perks_device_h200(&d);
    /* need = 4.27e12 * 700e-9 / 132 = 22644 bytes per SM; 256 threads x 32 B = 8192 -> 3 blocks */
    k = kern(256, 64, 10240, 32, 0, 4, 256);
    memset(&p, 0x5a, sizeof p); /* every field the plan owns gets set: the head too */
    CHECK(perks_plan_make(&p, &d, &k, 1000000, 0) == PERKS_SUCCESS, "make");
    CHECK(p.path == PERKS_PLAN_STREAM && p.passes == 0 && p.steps_per_pass == 0 && p.workspace_bytes == 0 &&
              p.result == NULL && p.why && p.why[0],
          "head: path %d, %lld passes", p.path, p.passes);
    /* perks_plan begins with onchip_plan's head, read alike through onchip_plan_head */
    CHECK(offsetof(perks_plan, path) == offsetof(onchip_plan, path) && offsetof(perks_plan, why) == offsetof(onchip_plan, why) &&
              offsetof(perks_plan, steps_per_pass) == offsetof(onchip_plan, steps_per_pass) &&
              offsetof(perks_plan, passes) == offsetof(onchip_plan, passes) &&
              offsetof(perks_plan, workspace_bytes) == offsetof(onchip_plan, workspace_bytes) &&
              offsetof(perks_plan, result) == offsetof(onchip_plan, result),
          "perks_plan's head is not onchip_plan's");
    {
        const onchip_plan h = onchip_plan_head(&p);
        CHECK(h.why == p.why && h.path == p.path && h.passes == p.passes, "onchip_plan_head");
    }
    CHECK(p.blocks_per_sm == 3, "bps %d", p.blocks_per_sm);
    CHECK(p.grid == 396 && p.sms == 132 && p.block == 256, "grid %d", p.grid);
    /* 64 regs x 256 threads = 16384 regs: 4 blocks by registers; smem 11264 per block -> 20 */
    CHECK(p.max_blocks_per_sm == 4, "max %d", p.max_blocks_per_sm);
    /* shared memory per block: 233472 / 3 - 11264 = 66560 bytes -> 16640 floats -> 65 rows of 256 */
    CHECK(p.smem_cache_cells == 65 * 256, "cache %ld", p.smem_cache_cells);
    CHECK(p.smem_bytes == 65 * 256 * 4, "smem %ld", p.smem_bytes);
    /* 1024 threads x 32 B = 32 KB in flight -> 1 block */
    k = kern(1024, 32, 0, 32, 0, 4, 0);
    CHECK(perks_plan_make(&p, &d, &k, 5, 0) == 0 && p.blocks_per_sm == 1, "bps %d", p.blocks_per_sm);
    /* capped by the opt-in per-block maximum: 232448 - 1024 reserved vs 227 KB - 0 */
    CHECK(p.smem_cache_cells == 227L * 1024 / 4, "cache %ld", p.smem_cache_cells);
    /* 32 threads x 4 B: 177 blocks wanted, capped by 32 blocks per SM */
    k = kern(32, 16, 0, 4, 0, 8, 0);
    CHECK(perks_plan_make(&p, &d, &k, 5, 0) == 0 && p.blocks_per_sm == 32, "bps %d", p.blocks_per_sm);
    CHECK(p.smem_cache_cells == (228L * 1024 / 32 - 1024) / 8, "cache %ld", p.smem_cache_cells);
    /* forced */
    k = kern(256, 64, 10240, 32, 16, 4, 256);
    CHECK(perks_plan_make(&p, &d, &k, 1000000, 1) == 0 && p.blocks_per_sm == 1 && p.grid == 132, "forced");
    CHECK(p.cap_reg == 132LL * 256 * 16, "cap_reg %lld", p.cap_reg);
    CHECK(p.smem_cache_cells == (227L * 1024 - 10240) / 4 / 256 * 256, "cache %ld", p.smem_cache_cells);
    CHECK(p.cap_smem == 132LL * p.smem_cache_cells, "cap_smem");
    case_end();
}

static void test_resources(void)
{
    perks_device_info d;
    perks_kernel_info k;
    int block, regs, want;
    case_begin("perks plan: resource model (registers per warp, threads, smem)");
    perks_device_h200(&d);
    for (block = 32; block <= 1024; block += 32)
        for (regs = 16; regs <= 255; regs += 7) {
            long rw = (regs * 32 + 255) / 256 * 256;
            int w = block / 32, byreg = (int)(65536 / (rw * w)), bythr = 2048 / block;
            want = byreg < bythr ? byreg : bythr;
            if (want > 32) want = 32;
            k = kern(block, regs, 0, 16, 0, 4, 0);
            CHECK(perks_plan_max_blocks(&d, &k) == want, "block %d regs %d: %d vs %d", block, regs,
                  perks_plan_max_blocks(&d, &k), want);
        }
    k = kern(128, 32, 100 * 1024, 16, 0, 4, 0);
    CHECK(perks_plan_max_blocks(&d, &k) == 2, "smem-limited %d", perks_plan_max_blocks(&d, &k));
    case_end();
}

static void test_errors(void)
{
    perks_device_info d, bad;
    perks_kernel_info k;
    perks_plan p;
    case_begin("perks plan: error codes");
    perks_device_h200(&d);
    k = kern(256, 64, 0, 32, 0, 4, 256);
    CHECK(perks_plan_make(NULL, &d, &k, 10, 0) == PERKS_ENULL, "NULL plan");
    CHECK(perks_plan_make(&p, NULL, &k, 10, 0) == PERKS_ENULL, "NULL device");
    CHECK(perks_plan_make(&p, &d, NULL, 10, 0) == PERKS_ENULL, "NULL kernel");
    CHECK(perks_plan_make(&p, &d, &k, 0, 0) == PERKS_ESIZE, "0 cells");
    CHECK(perks_plan_make(&p, &d, &k, -5, 0) == PERKS_ESIZE, "negative cells");
    CHECK(perks_plan_make(&p, &d, &k, 10, -1) == PERKS_ESIZE, "negative bps");
    CHECK(perks_plan_make(&p, &d, &k, 10, 5) == PERKS_ESIZE, "forced bps above the 4 that fit");
    k.block = 100;
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ESIZE, "block not a multiple of 32");
    k.block = 2048;
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ESIZE, "block 2048");
    k = kern(256, 64, 0, 32, 0, 0, 256);
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ESIZE, "cell_bytes 0");
    k = kern(256, 64, -1, 32, 0, 4, 256);
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ESIZE, "negative smem");
    bad = d; bad.sms = 0;
    k = kern(256, 64, 0, 32, 0, 4, 256);
    CHECK(perks_plan_make(&p, &bad, &k, 10, 0) == PERKS_ESIZE, "device with 0 SMs");
    bad = d; bad.mem_bw = 0;
    CHECK(perks_plan_make(&p, &bad, &k, 10, 0) == PERKS_ESIZE, "device with 0 bandwidth");
    /* plans that cannot work */
    k = kern(1024, 128, 0, 32, 0, 4, 0);
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ERESOURCE, "1024 x 128 registers > 64K");
    k = kern(256, 256, 0, 32, 0, 4, 0);
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ERESOURCE, "256 registers per thread");
    k = kern(256, 32, 228L * 1024, 32, 0, 4, 0);
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ERESOURCE, "static smem above the block maximum");
    k = kern(256, 32, 100 * 1024, 32, 0, 4, 0);
    k.dyn_smem_base = 128 * 1024;
    CHECK(perks_plan_make(&p, &d, &k, 10, 0) == PERKS_ERESOURCE, "static + base dynamic smem too large");
    /* tilers */
    k = kern(256, 64, 0, 32, 0, 4, 256);
    CHECK(perks_plan_make(&p, &d, &k, 256LL * 200 * 100, 1) == 0, "make");
    CHECK(perks_plan_tiles2d(NULL, 1, 1, 1, 1) == PERKS_ENULL, "tiles2d NULL");
    CHECK(perks_plan_tiles2d(&p, 0, 100, 256, 1) == PERKS_ESIZE, "W 0");
    CHECK(perks_plan_tiles2d(&p, 256 * 200, 99, 256, 1) == PERKS_ESIZE, "W*H != cells");
    CHECK(perks_plan_tiles2d(&p, 256 * 200, 100, 256, 1) == PERKS_ECORESIDENT, "200 tile columns > 132 blocks");
    CHECK(perks_plan_make(&p, &d, &k, 100, 1) == 0, "make");
    CHECK(perks_plan_tiles2d(&p, 10, 10, 256, -1) == PERKS_ESIZE, "negative radius");
    CHECK(perks_plan_make(&p, &d, &k, 10LL * 10 * 10, 1) == 0, "make 3d");
    CHECK(perks_plan_tiles3d(NULL, 10, 10, 10, 8, 8, 1) == PERKS_ENULL, "tiles3d NULL");
    CHECK(perks_plan_tiles3d(&p, 10, 10, 10, 0, 8, 1) == PERKS_ESIZE, "tile_w 0");
    CHECK(perks_plan_tiles3d(&p, 10, 10, 11, 8, 8, 1) == PERKS_ESIZE, "W*H*D != cells");
    CHECK(perks_plan_make(&p, &d, &k, 2000LL * 2000 * 4, 1) == 0, "make 3d big");
    CHECK(perks_plan_tiles3d(&p, 2000, 2000, 4, 16, 16, 1) == PERKS_ECORESIDENT, "125^2 tile columns > 132");
    case_end();
}

/* brute force: walk every tile and row of the plan's layout and count where each cell sits */
static void brute(const perks_plan *p, long long len, long long cols_total, int r, long long *reg, long long *sm)
{
    long long s, y;
    *reg = *sm = 0;
    for (s = 0; s * p->tile_len < len; s++) {
        long long rows = 0, nreg;
        for (y = 0; y < p->tile_len && s * p->tile_len + y < len; y++) rows++;
        nreg = (p->reg_rows > 0 && rows >= p->reg_rows + r) ? p->reg_rows : 0; /* the kernel's rule */
        for (y = 0; y < rows; y++) {
            if (y < nreg) *reg += cols_total;
            else if (y < nreg + p->smem_rows) *sm += cols_total;
        }
    }
}

static void test_tiles(void)
{
    perks_device_info d;
    perks_kernel_info k;
    perks_plan p;
    int it, brute2 = 0, brute3 = 0, coresident = 0; /* random cases compared with brute force (2D, 3D); refused */
    long long r, s;
    case_begin("perks plan: 2D tiling 3000^2 (hand-worked) and random 2D/3D against brute force");
    perks_device_h200(&d);
    k = kern(256, 100, 10368, 32, 32, 4, 256);
    CHECK(perks_plan_make(&p, &d, &k, 3000LL * 3000, 1) == 0, "make");
    CHECK(perks_plan_tiles2d(&p, 3000, 3000, 256, 1) == 0, "tiles");
    /* 12 tile columns, 132 / 12 = 11 slabs of 273 rows (the last 270) */
    CHECK(p.tiles_x == 12 && p.tiles_y == 11 && p.tiles == 132 && p.grid == 132, "%d x %d", p.tiles_x, p.tiles_y);
    CHECK(p.tile_len == 273, "tile_len %d", p.tile_len);
    /* cache: (227 KB - 10368) / 4 / 256 = 216 rows; 32 register rows + 216 < 273 */
    CHECK(p.smem_rows == 216, "smem rows %d", p.smem_rows);
    CHECK(p.smem_bytes == 216L * 256 * 4, "smem bytes %ld", p.smem_bytes);
    CHECK(p.cells_reg == 32LL * 11 * 3000 && p.cells_smem == 216LL * 11 * 3000, "cells");
    CHECK(p.cells_dev == 3000LL * 3000 - p.cells_reg - p.cells_smem, "dev");
    CHECK(p.cached_fraction > 0.90 && p.cached_fraction < 0.91, "fraction %f", p.cached_fraction);
    /* the short-tile rule: 300 x 2500, 2 x 66 tiles of 38 rows, the last 30 < 32 + 1: no registers
       there, all 30 rows in shared memory (38 rows of 256 fit) */
    k = kern(256, 100, 10368, 32, 32, 4, 256);
    CHECK(perks_plan_make(&p, &d, &k, 300LL * 2500, 1) == 0, "make");
    CHECK(perks_plan_tiles2d(&p, 300, 2500, 256, 1) == 0, "tiles");
    CHECK(p.tiles_x == 2 && p.tiles == 132 && p.tile_len == 38 && p.smem_rows == 38, "%d %d %d %d", p.tiles_x,
          p.tiles, p.tile_len, p.smem_rows);
    CHECK(p.cells_reg == 65LL * 32 * 300 && p.cells_smem == (65LL * 6 + 30) * 300, "reg %lld smem %lld", p.cells_reg,
          p.cells_smem);
    CHECK(p.cached_fraction == 1.0, "fraction %f", p.cached_fraction);
    for (it = 0; it < 3000 && !check__failed_case; it++) {
        int tw = 32 * (1 + (int)(rng() % 8)), th3 = 1 + (int)(rng() % 8), bps = 1 + (int)(rng() % 2);
        int W = 1 + (int)(rng() % 5000), H = 1 + (int)(rng() % 5000), D = 1 + (int)(rng() % 300);
        int three = (int)(rng() & 1), rcx, rad = (int)(rng() % 4);
        long long cols_total = three ? (long long)W * H : W;
        k = kern(tw * (three ? th3 : 1) > 1024 ? 1024 : tw * (three ? th3 : 1), 32, 4096, 32,
                 (int)(rng() % 5) * 8, 4 << (rng() & 1), tw * (three ? th3 : 1));
        if (k.block != tw * (three ? th3 : 1)) continue;
        if (perks_plan_make(&p, &d, &k, three ? (long long)W * H * D : (long long)W * H, bps)) {
            CHECK(0, "make failed: block %d bps %d", k.block, bps);
            break;
        }
        rcx = three ? perks_plan_tiles3d(&p, W, H, D, tw, th3, rad) : perks_plan_tiles2d(&p, W, H, tw, rad);
        if (rcx == PERKS_ECORESIDENT) {
            long long across = three ? (long long)((W + tw - 1) / tw) * ((H + th3 - 1) / th3) : (W + tw - 1) / tw;
            CHECK(across > 132LL * bps, "ECORESIDENT with %lld tile columns", across);
            coresident++;
            continue;
        }
        CHECK(rcx == 0, "tiles rc %d", rcx);
        CHECK(p.tiles <= 132 * bps && p.grid == p.tiles, "tiles %d", p.tiles);
        CHECK((long long)p.tile_len * (p.tiles / (three ? p.tiles_x * p.tiles_y : p.tiles_x)) >= (three ? D : H),
              "slabs cover");
        brute(&p, three ? D : H, cols_total, rad, &r, &s);
        CHECK(r == p.cells_reg && s == p.cells_smem, "W %d H %d D %d: reg %lld/%lld smem %lld/%lld", W, H, D, r,
              p.cells_reg, s, p.cells_smem);
        CHECK((long long)p.smem_rows * k.smem_quantum_cells <= p.smem_cache_cells, "smem rows fit");
        CHECK(p.smem_bytes == (long)p.smem_rows * k.smem_quantum_cells * k.cell_bytes, "smem bytes");
        if (three) brute3++;
        else brute2++;
    }
    /* the loop skips blocks over 1024 threads and tilings refused as not co-resident: some of each
     * kind must still have been compared */
    printf("  random tilings against brute force: %d 2D, %d 3D (%d refused as not co-resident)\n", brute2, brute3,
           coresident);
    CHECK(brute2 >= 10 && brute3 >= 10, "random tilings compared with brute force: %d 2D, %d 3D, wanted >= 10 each",
          brute2, brute3);
    case_end();
}

/* hostile numbers: each is refused with its code (the plan left unchanged) or answered exactly */
static void test_hostile(void)
{
    perks_device_info d, bad;
    perks_kernel_info k;
    perks_plan p, before;
    case_begin("perks plan: hostile numbers (overflow, NaN, zero divisors) refused or answered exactly");
    perks_device_h200(&d);
    k = kern(256, 64, 10240, 32, 16, 4, 256);
    /* tiles2d, W near INT_MAX: one tile column of INT_MAX, or 8388608 columns of 256 (not co-resident) */
    CHECK(perks_plan_make(&p, &d, &k, 2147483646LL, 1) == 0, "make W = INT_MAX - 1");
    before = p;
    CHECK(perks_plan_tiles2d(&p, 2147483646, 1, 256, 1) == PERKS_ECORESIDENT && memcmp(&p, &before, sizeof p) == 0,
          "W INT_MAX - 1, tile_w 256: ECORESIDENT, plan untouched");
    CHECK(perks_plan_tiles2d(&p, 2147483646, 1, 2147483647, 1) == 0 && p.tiles_x == 1 && p.tiles == 1 && p.tile_len == 1 &&
              p.smem_rows == 0 && p.cells_reg == 0 && p.cells_dev == 2147483646LL,
          "W INT_MAX - 1, tile_w INT_MAX: one tile (tiles_x %d)", p.tiles_x);
    /* tiles3d, tile_w * tile_h = 2^32 cells a plane: no shared-memory row fits, one tile */
    CHECK(perks_plan_make(&p, &d, &k, 65536LL * 65536, 1) == 0, "make 65536^2");
    CHECK(perks_plan_tiles3d(&p, 65536, 65536, 1, 65536, 65536, 1) == 0 && p.tiles == 1 && p.smem_rows == 0 &&
              p.smem_bytes == 0 && p.cells_smem == 0,
          "65536^2 tile: smem rows %d", p.smem_rows);
    /* a 65536 x 32769 tile (2147549184 cells a plane) with a huge cache: 4 planes cached, not a wrapped count */
    bad = d;
    bad.sms = 1;
    bad.smem_per_sm = bad.smem_per_block = 1L << 62;
    k = kern(256, 64, 10240, 32, 0, 1, 1);
    CHECK(perks_plan_make(&p, &bad, &k, 65536LL * 32769 * 4, 1) == 0, "make huge cache");
    CHECK(perks_plan_tiles3d(&p, 65536, 32769, 4, 65536, 32769, 0) == 0 && p.tiles == 1 && p.smem_rows == 4 &&
              p.smem_bytes == 4 * 2147549184L && p.cells_smem == p.cells && p.cached_fraction == 1.0,
          "65536 x 32769 tile: smem rows %d, smem bytes %ld", p.smem_rows, p.smem_bytes);
    /* perks_plan_make: NaN and infinities refused, the grid an int, sums of shared memory, capacities */
    k = kern(256, 64, 10240, 32, 16, 4, 256);
    memset(&p, 0x5a, sizeof p);
    before = p;
    bad = d; bad.mem_bw = 0.0 / 0.0;
    CHECK(perks_plan_make(&p, &bad, &k, 100, 0) == PERKS_ESIZE, "NaN bandwidth");
    bad = d; bad.mem_latency = 1.0 / 0.0;
    CHECK(perks_plan_make(&p, &bad, &k, 100, 0) == PERKS_ESIZE, "infinite latency");
    bad = d; bad.mem_bw = -1.0 / 0.0;
    CHECK(perks_plan_make(&p, &bad, &k, 100, 0) == PERKS_ESIZE, "-inf bandwidth");
    bad = d; bad.sms = 2147483647;
    CHECK(perks_plan_make(&p, &bad, &k, 100, 2) == PERKS_ESIZE, "INT_MAX SMs x 2 blocks: the grid past INT_MAX");
    bad = d; bad.sms = 1 << 30;
    k = kern(256, 64, 10240, 32, 2147483647, 4, 256);
    CHECK(perks_plan_make(&p, &bad, &k, 100, 1) == PERKS_ESIZE, "cap_reg past LLONG_MAX");
    k = kern(256, 64, LONG_MAX, 32, 16, 4, 256);
    k.dyn_smem_base = 1;
    CHECK(perks_plan_make(&p, &d, &k, 100, 0) == PERKS_ERESOURCE && perks_plan_max_blocks(&d, &k) == 0,
          "static LONG_MAX + dynamic 1: no block fits");
    k = kern(256, 64, 10240, 32, 16, 4, 256);
    bad = d; bad.smem_reserved_per_block = LONG_MAX;
    CHECK(perks_plan_make(&p, &bad, &k, 100, 0) == PERKS_ERESOURCE && perks_plan_max_blocks(&bad, &k) == 0,
          "reserved LONG_MAX: no block fits");
    CHECK(memcmp(&p, &before, sizeof p) == 0, "failed makes left the plan untouched");
    /* the zero divisors of the public helpers */
    k = kern(0, 64, 0, 32, 0, 4, 0);
    CHECK(perks_plan_max_blocks(&d, &k) == 0 && perks_plan_little(&d, &k) >= 1, "block 0: none fits");
    k = kern(2147483647, 64, 0, 32, 0, 4, 0);
    CHECK(perks_plan_max_blocks(&d, &k) == 0, "block INT_MAX: none fits");
    k = kern(256, 64, 0, 32, 0, 4, 0);
    bad = d; bad.mem_bw = 0.0 / 0.0;
    CHECK(perks_plan_little(&bad, &k) == 1, "Little's law of a NaN bandwidth: 1");
    bad = d; bad.mem_bw = 1e300; bad.mem_latency = 1e300;
    CHECK(perks_plan_little(&bad, &k) == 2147483647, "an infinite need: INT_MAX");
    case_end();
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        printf("all\n");
        return 0;
    }
    check_plan(5);
    test_little();
    test_resources();
    test_errors();
    test_tiles();
    test_hostile();
    return check_exit();
}
