/* tests/host/test_cbi.c -- cbi/cbi.h on the host: bijection, inverse, zigzag, N-D folding, the
 * 32-bit fast path, domains past 2^31 cells, the width model and every error code.
 * The oracle is an independent walker that lists cells in column order with nested loops. */
#include <cbi/cbi.h>
#include <time.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

/* Column order by construction: columns left to right, rows top to bottom, x within the row. */
static long long walk(long long W, long long H, long long w, int zz, long long *out)
{
    long long k = 0, o, y, xl;
    for (o = 0; o < W; o += w) {
        long long wp = W - o < w ? W - o : w;
        for (y = 0; y < H; y++)
            for (xl = 0; xl < wp; xl++) {
                long long x = (zz && (y & 1)) ? wp - 1 - xl : xl;
                out[k++] = o + x + y * W;
            }
    }
    return k;
}

static void test_div32(void)
{
    static const uint32_t ds[] = {1, 2, 3, 5, 7, 31, 32, 33, 96, 641, 65535, 65536, 65537, 2147483647u,
                                  2147483648u, 2147483649u, 3000000019u, 4294967294u, 4294967295u};
    static const uint32_t ns[] = {0, 1, 2, 31, 32, 33, 65535, 65536, 2147483647u, 2147483648u, 4294967294u,
                                  4294967295u};
    size_t a, b;
    uint32_t d;
    case_begin("cbi div32: multiply-shift division is exact");
    for (a = 0; a < sizeof ds / sizeof *ds; a++) {
        uint32_t m;
        uint8_t s[2];
        cbi__magic32(ds[a], &m, s);
        for (b = 0; b < sizeof ns / sizeof *ns; b++)
            CHECK(cbi__div32(ns[b], m, s[0], s[1]) == ns[b] / ds[a], "%u / %u", ns[b], ds[a]);
        for (b = 0; b < 20000; b++) {
            uint32_t n = (uint32_t)rng();
            CHECK(cbi__div32(n, m, s[0], s[1]) == n / ds[a], "%u / %u", n, ds[a]);
        }
    }
    for (d = 1; d <= 5000; d++) {
        uint32_t m;
        uint8_t s[2];
        cbi__magic32(d, &m, s);
        for (b = 0; b < 200; b++) {
            uint32_t n = (b & 1) ? (uint32_t)rng() : (uint32_t)(rng() % (64u * d + 1));
            CHECK(cbi__div32(n, m, s[0], s[1]) == n / d, "%u / %u", n, d);
        }
        CHECK(cbi__div32(4294967295u, m, s[0], s[1]) == 4294967295u / d, "max / %u", d);
    }
    case_end();
}

/* Widths 1..128 and nine to 300 (a group count past 2 and 4 of every w, 2^k - 1, 2^k, 2^k + 1),
 * heights 1..40, column widths 1..70, zigzag off and on: every index, every path. */
static const long long wide[] = {129, 191, 192, 193, 255, 256, 257, 299, 300};
#define N_WIDTHS (128 + (long long)(sizeof wide / sizeof *wide))
static void test_exhaustive(int zz)
{
    long long *expect = malloc(sizeof *expect * 300 * 40);
    unsigned char *seen = malloc(300 * 40);
    long long W, H, w, i, k, plans = 0;
    case_begin(zz ? "cbi exhaustive 1..128 and 9 widths to 300 x 1..40, w 1..70, zigzag"
                  : "cbi exhaustive 1..128 and 9 widths to 300 x 1..40, w 1..70");
    for (k = 0; k < N_WIDTHS && !check__failed_case; k++)
        for (W = k < 128 ? k + 1 : wide[k - 128], H = 1; H <= 40 && !check__failed_case; H++)
            for (w = 1; w <= 70 && !check__failed_case; w++) {
                cbi_plan p;
                long long n, cells = W * H;
                int rc = cbi_plan_make(&p, W, H, w, (zz ? CBI_ZIGZAG : 0u) | CBI_INDEX32);
                CHECK(rc == 0, "plan %lldx%lld w %lld: rc %d", W, H, w, rc);
                if (rc) break;
                n = walk(W, H, w, zz, expect);
                CHECK(n == cells, "walker count");
                memset(seen, 0, (size_t)cells);
                for (i = 0; i < cells; i++) {
                    long long j = cbi_remap(&p, i), x, y;
                    uint32_t x32, y32;
                    CHECK(j == expect[i], "%lldx%lld w %lld: remap(%lld) = %lld, want %lld", W, H, w, i, j,
                          expect[i]);
                    CHECK(j >= 0 && j < cells && !seen[j], "%lldx%lld w %lld: not a bijection at %lld", W, H,
                          w, i);
                    if (j >= 0 && j < cells) seen[j] = 1;
                    cbi_remap_xy(&p, i, &x, &y);
                    CHECK(x + y * W == j && x >= 0 && x < W && y >= 0 && y < H, "remap_xy(%lld)", i);
                    cbi_remap32_xy(&p, (uint32_t)i, &x32, &y32);
                    CHECK(x32 == (uint32_t)x && y32 == (uint32_t)y, "%lldx%lld w %lld: remap32_xy(%lld)", W, H,
                          w, i);
                    CHECK(cbi_remap32(&p, (uint32_t)i) == (uint32_t)j, "remap32(%lld)", i);
                    CHECK(cbi_inverse(&p, j) == i, "%lldx%lld w %lld: inverse(%lld) = %lld, want %lld", W, H, w,
                          j, cbi_inverse(&p, j), i);
                    CHECK(cbi_inverse_xy(&p, x, y) == i, "inverse_xy");
                    if (check__failed_case) break;
                }
                CHECK(cbi_plan_is_identity(&p) == (w >= W && (!zz || H == 1 || W == 1)),
                      "is_identity %lldx%lld w %lld", W, H, w);
                if (cbi_plan_is_identity(&p))
                    for (i = 0; i < cells; i++) CHECK(expect[i] == i, "identity plan is not the identity");
                plans++;
            }
    CHECK(plans == N_WIDTHS * 40 * 70, "plans tested: %lld", plans);
    case_end();
    free(expect);
    free(seen);
}

static void test_nd(void)
{
    static const long long shapes[][7] = {
        {3, 7, 3, 5}, {4, 13, 1, 4, 2}, {3, 1, 1, 1}, {6, 31, 2, 2, 2, 2, 2}, {2, 100, 9}, {1, 77},
    };
    size_t s;
    case_begin("cbi N-D folding: remap + unfold covers every N-D cell once");
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int nd = (int)shapes[s][0], d;
        const long long *dims = &shapes[s][1];
        long long cells = 1, i, w;
        for (d = 0; d < nd; d++) cells *= dims[d];
        for (w = 1; w <= dims[0] + 1; w++) {
            cbi_plan p;
            unsigned char *seen = calloc((size_t)cells, 1);
            int rc = cbi_plan_make_nd(&p, nd, dims, w, (w & 1) ? CBI_ZIGZAG : 0u);
            CHECK(rc == 0 && p.width == dims[0] && p.cells == cells, "plan_make_nd shape %zu", s);
            for (i = 0; i < cells && rc == 0; i++) {
                long long x, y, coords[CBI_MAX_DIMS], lin = 0, stride = 1;
                cbi_remap_xy(&p, i, &x, &y);
                coords[0] = x;
                cbi_unfold(y, nd, dims, coords);
                for (d = 0; d < nd; d++) {
                    CHECK(coords[d] >= 0 && coords[d] < dims[d], "coord %d out of range", d);
                    lin += coords[d] * stride;
                    stride *= dims[d];
                }
                CHECK(lin == cbi_remap(&p, i), "N-D linear index differs from the 2D remap");
                CHECK(lin >= 0 && lin < cells && !seen[lin], "N-D not a bijection");
                if (lin >= 0 && lin < cells) seen[lin] = 1;
            }
            free(seen);
        }
    }
    case_end();
}

static void test_errors(void)
{
    cbi_plan p;
    long long dims[9] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
    long long bad[3] = {4, 0, 4};
    long long big[3] = {3037000500LL, 3037000500LL, 2};
    case_begin("cbi error codes");
    CHECK(cbi_plan_make(NULL, 4, 4, 2, 0) == CBI_ENULL, "NULL plan");
    CHECK(cbi_plan_make(&p, 0, 4, 2, 0) == CBI_EDIM, "width 0");
    CHECK(cbi_plan_make(&p, -3, 4, 2, 0) == CBI_EDIM, "width < 0");
    CHECK(cbi_plan_make(&p, 4, 0, 2, 0) == CBI_EDIM, "height 0");
    CHECK(cbi_plan_make(&p, 4, -1, 2, 0) == CBI_EDIM, "height < 0");
    CHECK(cbi_plan_make(&p, 4, 4, 0, 0) == CBI_EWIDTH, "w 0");
    CHECK(cbi_plan_make(&p, 4, 4, -32, 0) == CBI_EWIDTH, "w < 0");
    CHECK(cbi_plan_make(&p, 3037000500LL, 3037000500LL, 32, 0) == CBI_EOVERFLOW, "int64 overflow");
    CHECK(cbi_plan_make(&p, INT64_MAX, 2, 32, 0) == CBI_EOVERFLOW, "int64 overflow (2)");
    CHECK(cbi_plan_make(&p, 65536, 65536, 32, CBI_INDEX32) == CBI_EOVERFLOW, "2^32 cells with INDEX32");
    CHECK(cbi_plan_make(&p, 65535, 65537, 32, CBI_INDEX32) == 0, "2^32-1 cells with INDEX32");
    CHECK(cbi_plan_make(&p, 65536, 65536, 32, 0) == 0, "2^32 cells without INDEX32");
    CHECK(cbi_plan_make_nd(NULL, 3, dims, 2, 0) == CBI_ENULL, "nd NULL plan");
    CHECK(cbi_plan_make_nd(&p, 3, NULL, 2, 0) == CBI_ENULL, "nd NULL dims");
    CHECK(cbi_plan_make_nd(&p, 0, dims, 2, 0) == CBI_ENDIM, "ndims 0");
    CHECK(cbi_plan_make_nd(&p, 9, dims, 2, 0) == CBI_ENDIM, "ndims 9");
    CHECK(cbi_plan_make_nd(&p, 8, dims, 2, 0) == 0, "ndims 8");
    CHECK(cbi_plan_make_nd(&p, 3, bad, 2, 0) == CBI_EDIM, "a zero dimension");
    CHECK(cbi_plan_make_nd(&p, 3, big, 2, 0) == CBI_EOVERFLOW, "nd overflow");
    CHECK(cbi_block_plan_make(&p, 0, 3, 2, 0) == CBI_EDIM, "block plan tiles 0");
    CHECK(cbi_block_plan_make(&p, 5, 3, 0, 0) == CBI_EWIDTH, "block plan group 0");
    CHECK(strcmp(cbi_strerror(CBI_EOVERFLOW), cbi_strerror(CBI_EDIM)) != 0, "distinct messages");
    CHECK(strstr(cbi_strerror(12345), "unknown") != NULL, "unknown code");
    case_end();
}

/* More than 2^31 cells: the full bijection through the 32-bit path, and the 64-bit path sampled;
 * a domain past 2^32 cells through the 64-bit path. */
static void test_large(void)
{
    const long long W = 65539, H = 32771, w = 96; /* 2147811369 cells > 2^31; last column 67 wide */
    cbi_plan p, q;
    long long cells = W * H, i, k, missing = 0;
    uint64_t *bits;
    case_begin("cbi domain of 2147811369 cells (> 2^31): full bijection, 64-bit path sampled");
    CHECK(cells > 2147483648LL, "domain size");
    CHECK(cbi_plan_make(&p, W, H, w, CBI_ZIGZAG | CBI_INDEX32) == 0, "plan");
    CHECK(p.lastw == 67 && p.nfull == 682, "column split");
    bits = calloc((size_t)(cells / 64 + 1), sizeof *bits);
    CHECK(bits != NULL, "out of memory");
    for (i = 0; bits && i < cells; i++) {
        uint32_t j = cbi_remap32(&p, (uint32_t)i);
        uint64_t bit = (uint64_t)1 << (j & 63);
        if (j >= (uint64_t)cells || (bits[j >> 6] & bit)) {
            CHECK(0, "remap32(%lld) = %u repeats or leaves the domain", i, j);
            break;
        }
        bits[j >> 6] |= bit;
    }
    for (k = 0; bits && k < cells; k++) missing += !((bits[k >> 6] >> (k & 63)) & 1);
    CHECK(missing == 0, "%lld cells never produced", missing);
    free(bits);
    for (k = 0; k < 2000000; k++) {
        long long ii = (long long)(rng() % (uint64_t)cells), j = cbi_remap(&p, ii);
        CHECK(j == (long long)cbi_remap32(&p, (uint32_t)ii), "64 vs 32 at %lld", ii);
        CHECK(cbi_inverse(&p, j) == ii, "inverse at %lld", ii);
    }
    /* the column seams: the walker's formula checked exactly around each boundary */
    for (k = 1; k <= p.nfull; k++) {
        long long start = k * p.colsize, d;
        for (d = -3; d <= 3; d++) {
            long long ii = start + d, wp, r, c, x, y;
            if (ii < 0 || ii >= cells) continue;
            c = ii / p.colsize;
            r = ii - c * p.colsize;
            wp = c < p.nfull ? w : p.lastw;
            y = r / wp;
            x = r % wp;
            if (y & 1) x = wp - 1 - x;
            CHECK(cbi_remap(&p, ii) == c * w + x + y * W, "seam of column %lld", k);
        }
    }
    CHECK(cbi_plan_make(&q, 100003, 50021, 1000, 0) == 0, "plan past 2^32");
    for (k = 0; k < 1000000; k++) {
        long long ii = (long long)(rng() % (uint64_t)q.cells), x, y;
        long long j = cbi_remap(&q, ii);
        cbi_remap_xy(&q, ii, &x, &y);
        CHECK(j >= 0 && j < q.cells && x >= 0 && x < q.width && y >= 0 && y < q.height, "range past 2^32");
        CHECK(cbi_inverse(&q, j) == ii, "inverse past 2^32 at %lld", ii);
    }
    case_end();
}

static void test_blocks(void)
{
    cbi_plan p;
    long long i;
    case_begin("cbi block grouping: 10x7 tiles in groups of 4 (last group 2 wide)");
    CHECK(cbi_block_plan_make(&p, 10, 7, 4, CBI_INDEX32) == 0, "plan");
    /* first group: tiles x 0..3 row by row, then x 4..7, then the ragged group x 8..9 */
    for (i = 0; i < 70; i++) {
        uint32_t tx, ty;
        long long g = i < 56 ? i / 28 : 2, r = i < 56 ? i % 28 : i - 56, gw = i < 56 ? 4 : 2;
        cbi_remap32_xy(&p, (uint32_t)i, &tx, &ty);
        CHECK(tx == (uint32_t)(g * 4 + r % gw) && ty == (uint32_t)(r / gw), "block %lld -> (%u,%u)", i, tx, ty);
    }
    case_end();
}

static void test_width_model(void)
{
    long long c;
    case_begin("cbi width model: eqs of sections 4.3/4.4, multiples of 32, identity when it fits");
    /* stencil: c = (M - u(sh*sw + t)) / (sh*u) = (262144 - 4*(81+2048)) / 36 = 7045 -> 7040 */
    c = cbi_width_stencil(100000, 9, 9, 4, 262144, 2048);
    CHECK(c == 7040, "stencil width %lld", c);
    CHECK(cbi_width_stencil(4096, 9, 9, 4, 262144, 2048) == 4096, "fits: identity");
    CHECK(cbi_width_stencil(100000, 9, 9, 4, 8192, 2048) == 32, "tiny cache: 32");
    CHECK(cbi_width_stencil(20, 9, 9, 4, 8192, 2048) == 20, "narrow domain: its width");
    /* matmul: c = M / (u * height) = 262144 / (4 * 1024) = 64 */
    CHECK(cbi_width_matmul(1 << 20, 1024, 4, 262144) == 64, "matmul 64");
    CHECK(cbi_width_matmul(1 << 20, 1000, 4, 262144) == 64, "matmul 65 -> 64");
    CHECK(cbi_width_matmul(1 << 20, 100000, 4, 262144) == 32, "matmul floor 32");
    CHECK(cbi_width_matmul(48, 16, 4, 262144) == 48, "matmul fits: identity");
    for (c = 1; c < 5000; c += 7) {
        long long a = cbi_width_stencil(1 << 30, 5, 5, 4, c * 1000, 1024);
        long long b = cbi_width_matmul(1 << 30, c, 8, 1 << 22);
        CHECK(a % 32 == 0 && a >= 32 && b % 32 == 0 && b >= 32, "multiple of 32 (%lld, %lld)", a, b);
    }
    /* block groups: 1056 resident 32x8 tiles -> square wave G = 16 when row order overflows */
    CHECK(cbi_block_group(128, 32, 8, 4096, 4, 60 << 20, 1056) == 16, "block group 4096^2: %lld",
          cbi_block_group(128, 32, 8, 4096, 4, 60 << 20, 1056));
    CHECK(cbi_block_group(64, 32, 8, 2048, 4, 60 << 20, 1056) == 64, "2048^2 fits in row order");
    CHECK(cbi_block_group(256, 32, 4, 8192, 4, 60 << 20, 2112) == 16, "block group 8192^2, 32x4 tiles");
    CHECK(cbi_block_group(3, 32, 8, 1 << 20, 4, 1024, 1056) == 3, "clamped to tiles_x");
    CHECK(cbi_block_group(1000, 32, 8, 1 << 20, 4, 1024, 1) == 1, "one resident block: G = 1");
    CHECK(cbi_block_group(0, 32, 8, 1, 4, 1, 1) == 0 && cbi_block_group(9, 32, 8, 1, 4, 1, 0) == 0, "bad -> 0");
    CHECK(cbi_width_stencil(0, 9, 9, 4, 1, 1) == 0 && cbi_width_stencil(9, 9, 9, 4, 0, 1) == 0 &&
              cbi_width_matmul(9, 0, 4, 1) == 0 && cbi_width_matmul(9, 9, 0, 1) == 0,
          "bad arguments give 0");
    case_end();
}

/* the width and group choosers under hostile numbers: products past 2^63 compared, never formed;
 * the group search bounded (a few (resident_blocks)^(1/4) candidates, not one per G) */
static void test_choosers_hostile(void)
{
    clock_t t0 = clock();
    double secs;
    long long g;
    case_begin("cbi width and block-group choosers: hostile numbers answered exactly, the search bounded");
    /* elem_bytes * depth = 4 * 2^62 wraps to 0 in 64 bits: the model's c is 0, the floor 32 */
    CHECK(cbi_width_matmul(65536, 1LL << 62, 4, 65536) == 32, "matmul, depth 2^62");
    CHECK(cbi_width_matmul(65536, INT64_MAX, 2147483647, INT64_MAX) == 32 && cbi_width_matmul(20, INT64_MAX, 4, 1) == 20,
          "matmul, depth INT64_MAX");
    CHECK(cbi_width_matmul(INT64_MAX, 1, 1, INT64_MAX) == INT64_MAX, "matmul, a cache of INT64_MAX bytes, width INT64_MAX");
    /* u (sh sw + threads) past INT64_MAX: no cache holds it */
    CHECK(cbi_width_stencil(65536, 9, 9, 4, 65536, INT64_MAX) == 32, "stencil, INT64_MAX threads");
    CHECK(cbi_width_stencil(65536, 2147483647, 2147483647, 2147483647, INT64_MAX, 1) == 32, "stencil, int maxima");
    CHECK(cbi_width_stencil(65536, 1, 1, 1, INT64_MAX, INT64_MAX - 70000) == 65536, "stencil: the largest need that fits");
    /* block groups: f(G) = G + ceil(m^2 / G) is least (2m) first at G = m; tile sizes of 2^40 make
     * F pass 2^63 (compared in 128 bits) */
    g = cbi_block_group(INT64_MAX, 1, 1, 1, 1, 1, 3037000499LL * 3037000499LL);
    CHECK(g == 3037000499LL, "m = 3037000499: G %lld", g);
    g = cbi_block_group(INT64_MAX, 1LL << 40, 1LL << 40, 1, 1, 1, 3037000499LL * 3037000499LL);
    CHECK(g == 3037000499LL, "tiles of 2^40: G %lld", g);
    g = cbi_block_group(1000, 1LL << 40, 1LL << 40, 1, 1, 1, 3037000499LL * 3037000499LL);
    CHECK(g == 1000, "clamped to 1000 tile columns: G %lld", g);
    g = cbi_block_group(200000000, 32, 8, 4096, 4, 1, 200000000);
    CHECK(g == 7043, "2 x 10^8 tiles and blocks: G %lld (the search over every G says 7043)", g);
    /* row order past INT64_MAX bytes does not fit: the search answers */
    CHECK(cbi_block_group(INT64_MAX / 2, 4, 8, 1, 1, INT64_MAX, 64) == 11, "tiles_x tile_w past INT64_MAX: G %lld",
          cbi_block_group(INT64_MAX / 2, 4, 8, 1, 1, INT64_MAX, 64));
    CHECK(cbi_block_group(INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, 2147483647, INT64_MAX, INT64_MAX) >= 1,
          "every argument at its maximum");
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(secs < 0.5, "the choosers took %.3f s of CPU (a search per G takes minutes here)", secs);
    case_end();
}

/* usage: test_cbi [basic|exhaustive|zigzag|large|all] -- the parts run as separate processes so
 * that make -j spreads them over the cores. */
int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "all";
    int all;
    if (strcmp(part, "--list") == 0) {
        printf("basic\nexhaustive\nzigzag\nlarge\n");
        return 0;
    }
    all = strcmp(part, "all") == 0;
    if (!all && strcmp(part, "basic") && strcmp(part, "exhaustive") && strcmp(part, "zigzag") && strcmp(part, "large")) {
        printf("FAIL test_cbi %s: no such part (--list names them)\n", part); /* it would run nothing */
        return 1;
    }
    /* cases: basic 6, each other part 1 */
    check_plan(all ? 9 : strcmp(part, "basic") == 0 ? 6 : 1);
    if (all || strcmp(part, "basic") == 0) {
        test_div32();
        test_errors();
        test_nd();
        test_blocks();
        test_width_model();
        test_choosers_hostile();
    }
    if (all || strcmp(part, "exhaustive") == 0) test_exhaustive(0);
    if (all || strcmp(part, "zigzag") == 0) test_exhaustive(1);
    if (all || strcmp(part, "large") == 0) test_large();
    return check_exit();
}
