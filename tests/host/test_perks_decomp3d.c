/* tests/host/test_perks_decomp3d.c -- perks/decomp3d.h on the host: every grid px x py x pz of
 * every domain up to 7 x 6 x 5 cells, halos 0..2, all eight periodic masks, against the rules (the
 * blocks tile the domain once, balanced; coordinates, peers and ghost extents as documented), and
 * the exchange simulated on integer buffers of global cell ids for stars and boxes: sends posted in
 * region order, receives in the opposite order, matched per pair of ranks in posting order as NCCL
 * matches them; every ghost that must be filled holds the right id, written once, every other cell
 * untouched.  perks_grid3_choose for every P 1..24 over the same domains against a brute force over
 * every factorisation (the least cost, the tie rule, the same refusal), the cost formula itself,
 * the fingerprint and every error code, with nothing written on an error. */
#include <perks/decomp3d.h>

#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAXR 210 /* the most ranks of a grid here (7 x 6 x 5) */

/* the cost of the documented formula, written out */
static long long cost_of(const int p[3], const int n[3], int h)
{
    long long c = 0;
    for (int a = 0; a < 3; a++) {
        const int b = (a + 1) % 3, e = (a + 2) % 3;
        if (p[a] > 1 && h > 0)
            c += 2LL * h * ((n[b] + p[b] - 1) / p[b]) * ((n[e] + p[e] - 1) / p[e]) + 2LL * PERKS_GRID3_MSG_CELLS;
    }
    return c;
}

/* whether grid p over n exchanges along a (a neighbour on some side) and is too thin there */
static int exchanges(const int p[3], int a, int h, int per) { return h > 0 && (p[a] > 1 || (per >> a & 1)); }
static int thin_grid(const int p[3], const int n[3], int h, int per)
{
    for (int a = 0; a < 3; a++)
        if (exchanges(p, a, h, per) && n[a] / p[a] < h) return 1;
    return 0;
}

static perks_block3 blk[MAXR];
static perks_region3 reg[MAXR][26];
static int nreg[MAXR];
static int *buf[MAXR], *writes[MAXR];
static int next_send[MAXR][MAXR]; /* per pair (from, to): the next of from's regions to match */

static int cell_index(const perks_block3 *b, const int x[3]) { return x[0] + b->ext[0] * (x[1] + b->ext[1] * x[2]); }

/* the exchange of one grid for one shape, simulated and checked; 0 when it failed */
static int simulate(const perks_grid3 *g, int shape)
{
    const int P = g->nranks, h = g->halo;
    for (int r = 0; r < P; r++) {
        const perks_block3 *b = &blk[r];
        const int cells = b->ext[0] * b->ext[1] * b->ext[2];
        CHECK(perks_block3_regions(b, shape, reg[r], &nreg[r]) == 0, "regions");
        buf[r] = (int *)malloc(sizeof(int) * (size_t)cells);
        writes[r] = (int *)calloc((size_t)cells, sizeof(int));
        for (int i = 0; i < cells; i++) buf[r][i] = -1;
        int x[3];
        for (x[2] = b->lo[2]; x[2] < b->lo[2] + b->own[2]; x[2]++)
            for (x[1] = b->lo[1]; x[1] < b->lo[1] + b->own[1]; x[1]++)
                for (x[0] = b->lo[0]; x[0] < b->lo[0] + b->own[0]; x[0]++)
                    buf[r][cell_index(b, x)] = (b->first[0] + x[0] - b->lo[0]) +
                                              g->n[0] * ((b->first[1] + x[1] - b->lo[1]) + g->n[1] * (b->first[2] + x[2] - b->lo[2]));
        for (int q = 0; q < P; q++) next_send[r][q] = 0;
    }
    /* the regions: one a direction with a peer (faces only for stars), its peer the block's, in index order */
    for (int r = 0; r < P; r++) {
        int k = 0;
        for (int d = 0; d < 27; d++) {
            const int ax = (d % 3 != 1) + (d / 3 % 3 != 1) + (d / 9 != 1);
            if (ax == 0 || blk[r].peer[d] < 0 || (shape == PERKS_STAR && ax > 1)) continue;
            CHECK(k < nreg[r] && reg[r][k].peer == blk[r].peer[d] && reg[r][k].dir[0] == d % 3 - 1 &&
                      reg[r][k].dir[1] == d / 3 % 3 - 1 && reg[r][k].dir[2] == d / 9 - 1,
                  "rank %d: region %d is not direction %d's", r, k, d);
            k++;
        }
        CHECK(k == nreg[r], "rank %d: %d regions, %d directions with a peer", r, nreg[r], k);
    }
    /* receives in the opposite order; each takes the sender's next unmatched send to this rank */
    for (int q = 0; q < P; q++)
        for (int i = nreg[q] - 1; i >= 0; i--) {
            const perks_region3 *rv = &reg[q][i];
            const int r = rv->peer;
            int j = next_send[r][q];
            while (j < nreg[r] && reg[r][j].peer != q) j++;
            CHECK(j < nreg[r], "rank %d's receive %d from %d matches no send", q, i, r);
            if (j >= nreg[r]) return 0;
            next_send[r][q] = j + 1;
            const perks_region3 *sd = &reg[r][j];
            CHECK(sd->count[0] == rv->count[0] && sd->count[1] == rv->count[1] && sd->count[2] == rv->count[2],
                  "rank %d region %d to %d: counts differ", r, j, q);
            int x[3];
            for (x[2] = 0; x[2] < rv->count[2]; x[2]++)
                for (x[1] = 0; x[1] < rv->count[1]; x[1]++)
                    for (x[0] = 0; x[0] < rv->count[0]; x[0]++) {
                        int s[3], t[3], own = 1, ghost = 0;
                        for (int a = 0; a < 3; a++) {
                            s[a] = sd->send_at[a] + x[a], t[a] = rv->recv_at[a] + x[a];
                            own &= s[a] >= blk[r].lo[a] && s[a] < blk[r].lo[a] + blk[r].own[a];
                            ghost |= t[a] < blk[q].lo[a] || t[a] >= blk[q].lo[a] + blk[q].own[a];
                            CHECK(t[a] >= 0 && t[a] < blk[q].ext[a], "receive outside the buffer");
                        }
                        CHECK(own, "rank %d region %d sends a cell that is not its own", r, j);
                        CHECK(ghost, "rank %d region %d writes an own cell", q, i);
                        if (!own || !ghost) return 0;
                        buf[q][cell_index(&blk[q], t)] = buf[r][cell_index(&blk[r], s)];
                        writes[q][cell_index(&blk[q], t)]++;
                    }
        }
    /* every cell: own cells kept; ghosts off 1 axis (any for boxes) hold their cell, once; the rest untouched */
    int ok = !check__failed_case;
    for (int r = 0; r < P && ok; r++) {
        const perks_block3 *b = &blk[r];
        int x[3];
        for (x[2] = 0; x[2] < b->ext[2]; x[2]++)
            for (x[1] = 0; x[1] < b->ext[1]; x[1]++)
                for (x[0] = 0; x[0] < b->ext[0]; x[0]++) {
                    int off = 0, gc[3];
                    for (int a = 0; a < 3; a++) {
                        off += x[a] < b->lo[a] || x[a] >= b->lo[a] + b->own[a];
                        gc[a] = b->first[a] + x[a] - b->lo[a];
                        gc[a] = gc[a] < 0 ? gc[a] + g->n[a] : gc[a] >= g->n[a] ? gc[a] - g->n[a] : gc[a];
                        CHECK(perks_block3_global(b, a, x[a]) == gc[a], "global of axis %d", a);
                    }
                    const int id = gc[0] + g->n[0] * (gc[1] + g->n[1] * gc[2]);
                    const int want_fill = off == 1 || (off > 1 && shape == PERKS_BOX);
                    const int i = cell_index(b, x);
                    if (off == 0)
                        ok = buf[r][i] == id && writes[r][i] == 0;
                    else
                        ok = want_fill ? buf[r][i] == id && writes[r][i] == 1 : buf[r][i] == -1 && writes[r][i] == 0;
                    CHECK(ok, "grid %dx%dx%d of %dx%dx%d halo %d per %d shape %d: rank %d cell (%d,%d,%d): %d written %d, want %d",
                          g->p[0], g->p[1], g->p[2], g->n[0], g->n[1], g->n[2], h, g->periodic, shape, r, x[0], x[1], x[2],
                          buf[r][i], writes[r][i], off == 0 || want_fill ? id : -1);
                    if (!ok) x[0] = x[1] = x[2] = 1 << 20;
                }
    }
    for (int r = 0; r < P; r++) free(buf[r]), free(writes[r]);
    return ok;
}

/* the blocks of one grid against the rules; 0 when it failed */
static int check_blocks(const perks_grid3 *g)
{
    static int owner[7 * 6 * 5];
    const int *p = g->p, *n = g->n, h = g->halo, per = g->periodic;
    for (int i = 0; i < n[0] * n[1] * n[2]; i++) owner[i] = 0;
    for (int r = 0; r < g->nranks; r++) {
        perks_block3 *b = &blk[r];
        CHECK(perks_block3_make(g, r, b) == 0, "block %d", r);
        CHECK(b->rank == r && b->c[0] + p[0] * (b->c[1] + p[1] * b->c[2]) == r && b->c[0] < p[0] && b->c[1] < p[1] &&
                  b->c[2] < p[2] && b->peer[13] == r, "rank %d: coordinates", r);
        for (int a = 0; a < 3; a++) {
            const int c = b->c[a], lo = exchanges(p, a, h, per) && (c > 0 || (per >> a & 1)) ? h : 0;
            const int hi = exchanges(p, a, h, per) && (c < p[a] - 1 || (per >> a & 1)) ? h : 0;
            const int more = c < n[a] % p[a], base = n[a] / p[a];
            CHECK(b->own[a] == base + more && b->first[a] == c * base + (more ? c : n[a] % p[a]),
                  "rank %d axis %d: first %d own %d", r, a, b->first[a], b->own[a]);
            CHECK(b->lo[a] == lo && b->hi[a] == hi && b->ext[a] == lo + b->own[a] + hi,
                  "rank %d axis %d: ghosts %d %d, want %d %d", r, a, b->lo[a], b->hi[a], lo, hi);
        }
        for (int z = 0; z < b->own[2]; z++)
            for (int y = 0; y < b->own[1]; y++)
                for (int x = 0; x < b->own[0]; x++) owner[(b->first[0] + x) + n[0] * ((b->first[1] + y) + n[1] * (b->first[2] + z))]++;
        /* peers: the coordinates one step along each axis of the direction, wrapped where periodic */
        for (int d = 0; d < 27; d++) {
            const int dd[3] = {d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1};
            int q[3], none = 0;
            for (int a = 0; a < 3; a++) {
                q[a] = b->c[a] + dd[a];
                if (dd[a] != 0 && h == 0) none = 1;
                if (q[a] < 0 || q[a] >= p[a]) {
                    if (per >> a & 1) q[a] = (q[a] + p[a]) % p[a];
                    else none = 1;
                }
            }
            const int want = none ? -1 : q[0] + p[0] * (q[1] + p[1] * q[2]);
            CHECK(b->peer[d] == want, "rank %d direction %d: peer %d, want %d", r, d, b->peer[d], want);
        }
    }
    for (int r = 0; r < g->nranks; r++)
        for (int d = 0; d < 27; d++)
            if (blk[r].peer[d] >= 0) CHECK(blk[blk[r].peer[d]].peer[26 - d] == r, "rank %d direction %d: peer does not point back", r, d);
    for (int i = 0; i < n[0] * n[1] * n[2]; i++) CHECK(owner[i] == 1, "cell %d owned %d times", i, owner[i]);
    return !check__failed_case;
}

static void test_grids(void)
{
    case_begin("perks decomp3d: every grid of domains up to 7x6x5, halo 0..2, every periodic mask: blocks, peers, star and box exchanges");
    long grids = 0, thin = 0;
    for (int nx = 1; nx <= 7; nx++)
        for (int ny = 1; ny <= 6; ny++)
            for (int nz = 1; nz <= 5 && !check__failed_case; nz++)
                for (int px = 1; px <= nx; px++)
                    for (int py = 1; py <= ny; py++)
                        for (int pz = 1; pz <= nz; pz++)
                            for (int h = 0; h <= 2; h++)
                                for (int per = 0; per < 8 && !check__failed_case; per++) {
                                    const int p[3] = {px, py, pz}, n[3] = {nx, ny, nz};
                                    perks_grid3 g;
                                    const int rc = perks_grid3_make(px, py, pz, nx, ny, nz, h, per, &g);
                                    const int want = thin_grid(p, n, h, per) ? PERKS_ETHIN : 0;
                                    CHECK(rc == want, "grid %dx%dx%d of %dx%dx%d halo %d per %d: %d, want %d", px, py, pz, nx, ny,
                                          nz, h, per, rc, want);
                                    if (rc) {
                                        thin++;
                                        continue;
                                    }
                                    CHECK(g.nranks == px * py * pz && g.halo == h && g.periodic == per && g.cost == cost_of(p, n, h),
                                          "grid fields, cost %lld", g.cost);
                                    if (check_blocks(&g) && simulate(&g, PERKS_STAR)) simulate(&g, PERKS_BOX);
                                    grids++;
                                }
    CHECK(grids > 0 && thin > 0, "%ld grids checked, %ld thin", grids, thin);
    printf("  %ld grids exchanged (star and box), %ld thin ones refused\n", grids, thin);
    case_end();
}

static void test_choose(void)
{
    case_begin("perks decomp3d: choose gives the least cost over every factorisation, ties to z then y; refuses as they all do");
    long chosen = 0;
    for (int P = 1; P <= 24; P++)
        for (int nx = 1; nx <= 7; nx++)
            for (int ny = 1; ny <= 6; ny++)
                for (int nz = 1; nz <= 5 && !check__failed_case; nz++)
                    for (int h = 0; h <= 2; h++)
                        for (int per = 0; per < 8; per++) {
                            const int n[3] = {nx, ny, nz};
                            perks_grid3 g, t;
                            int best[3] = {0, 0, 0}, any_thin = 0, rc;
                            long long bc = -1;
                            for (int px = 1; px <= nx; px++) /* more ranks than cells along an axis never fit */
                                for (int py = 1; py <= ny; py++)
                                    for (int pz = 1; pz <= nz; pz++) {
                                        const int p[3] = {px, py, pz};
                                        if (px * py * pz != P) continue;
                                        if (thin_grid(p, n, h, per)) {
                                            any_thin = 1;
                                            continue;
                                        }
                                        const long long c = cost_of(p, n, h);
                                        if (bc < 0 || c < bc || (c == bc && (pz > best[2] || (pz == best[2] && py > best[1]))))
                                            bc = c, best[0] = px, best[1] = py, best[2] = pz;
                                    }
                            memset(&g, 0x5a, sizeof g);
                            t = g;
                            rc = perks_grid3_choose(P, nx, ny, nz, h, per, &g);
                            if (bc < 0) {
                                CHECK(rc == (any_thin ? PERKS_ETHIN : PERKS_ESIZE) && memcmp(&g, &t, sizeof g) == 0,
                                      "P %d over %dx%dx%d halo %d: %d, nothing written", P, nx, ny, nz, h, rc);
                                continue;
                            }
                            CHECK(rc == 0 && g.p[0] == best[0] && g.p[1] == best[1] && g.p[2] == best[2] && g.cost == bc &&
                                      g.nranks == P && g.n[0] == nx && g.n[1] == ny && g.n[2] == nz && g.halo == h && g.periodic == per,
                                  "P %d over %dx%dx%d halo %d per %d: %dx%dx%d cost %lld, want %dx%dx%d cost %lld", P, nx, ny, nz, h,
                                  per, g.p[0], g.p[1], g.p[2], g.cost, best[0], best[1], best[2], bc);
                            chosen++;
                        }
    CHECK(chosen > 0, "%ld chosen", chosen);
    printf("  %ld grids chosen\n", chosen);
    /* the cost model on a large domain: 1024^3 over 64 ranks, halo 2 */
    {
        perks_grid3 g;
        CHECK(perks_grid3_choose(64, 1024, 1024, 1024, 2, 0, &g) == 0 && g.p[0] == 4 && g.p[1] == 4 && g.p[2] == 4 &&
                  g.cost == 3LL * 2 * (2LL * 256 * 256 + PERKS_GRID3_MSG_CELLS),
              "1024^3 over 64: %dx%dx%d, cost %lld", g.p[0], g.p[1], g.p[2], g.cost);
        CHECK(perks_grid3_choose(64, 4096, 4096, 1, 4, 0, &g) == 0 && g.p[0] == 8 && g.p[1] == 8 && g.p[2] == 1,
              "4096^2 over 64, halo 4: %dx%dx%d (pencils)", g.p[0], g.p[1], g.p[2]);
        CHECK(perks_grid3_choose(8, 4096, 4096, 1, 1, 0, &g) == 0 && g.p[0] == 1 && g.p[1] == 8 && g.p[2] == 1,
              "4096^2 over 8, halo 1: %dx%dx%d (slabs: the messages outweigh the thinner faces)", g.p[0], g.p[1], g.p[2]);
        CHECK(perks_grid3_choose(6, 64, 64, 64, 0, 0, &g) == 0 && g.p[2] == 6 && g.cost == 0, "halo 0: nothing sent, all along z");
    }
    case_end();
}

static void test_errors(void)
{
    perks_grid3 g, g0, ok;
    perks_block3 b, b0;
    perks_region3 r[26], r0[26];
    int cnt = 77;
    case_begin("perks decomp3d: error codes, nothing written on an error, the fingerprint");
    memset(&g, 0x5a, sizeof g);
    g0 = g;
    CHECK(perks_grid3_choose(4, 8, 8, 8, 1, 0, NULL) == PERKS_ENULL && perks_grid3_make(1, 1, 1, 8, 8, 8, 1, 0, NULL) == PERKS_ENULL,
          "NULL grid");
    CHECK(perks_grid3_choose(0, 8, 8, 8, 1, 0, &g) == PERKS_ESIZE && perks_grid3_choose(4, 0, 8, 8, 1, 0, &g) == PERKS_ESIZE &&
              perks_grid3_choose(4, 8, 0, 8, 1, 0, &g) == PERKS_ESIZE && perks_grid3_choose(4, 8, 8, 0, 1, 0, &g) == PERKS_ESIZE &&
              perks_grid3_choose(4, 8, 8, 8, -1, 0, &g) == PERKS_ESIZE && perks_grid3_choose(4, 8, 8, 8, 1, 8, &g) == PERKS_ESIZE &&
              perks_grid3_choose(4, 8, 8, 8, 1, -1, &g) == PERKS_ESIZE,
          "choose: P, sizes, halo, periodic");
    CHECK(perks_grid3_choose(7, 3, 3, 3, 0, 0, &g) == PERKS_ESIZE && perks_grid3_choose(28, 3, 3, 3, 0, 0, &g) == PERKS_ESIZE,
          "choose: no factorisation fits (7 ranks over 3^3; 28 > 27 cells)");
    CHECK(perks_grid3_choose(4, 4, 1, 1, 2, 0, &g) == PERKS_ETHIN && perks_grid3_choose(4, 4, 1, 1, 1, 0, &g) == 0 && g.p[0] == 4,
          "choose: 4 cells over 4 ranks, halo 2 thin, halo 1 fits");
    g = g0;
    CHECK(perks_grid3_make(0, 1, 1, 8, 8, 8, 1, 0, &g) == PERKS_ESIZE && perks_grid3_make(1, 1, -1, 8, 8, 8, 1, 0, &g) == PERKS_ESIZE &&
              perks_grid3_make(9, 1, 1, 8, 8, 8, 1, 0, &g) == PERKS_ESIZE && perks_grid3_make(1, 1, 1, 8, 8, 8, 1, 9, &g) == PERKS_ESIZE,
          "make: ranks, more ranks than cells, periodic");
    CHECK(perks_grid3_make(65536, 65536, 1, 65536, 65536, 1, 0, 0, &g) == PERKS_ESIZE &&
              perks_grid3_make(2048, 2048, 2048, 2048, 2048, 2048, 0, 0, &g) == PERKS_ESIZE,
          "make: px py pz past INT_MAX");
    CHECK(perks_grid3_make(1, 1, 1, 2000, 2000, 2000, 0, 0, &g) == PERKS_ESIZE &&
              perks_grid3_make(1, 1, 1, 2147483647, 1, 1, 1, PERKS_PERIODIC_X, &g) == PERKS_ESIZE &&
              perks_grid3_make(1, 1, 1, 5, 5, 5, 2147483647, PERKS_PERIODIC_Z, &g) == PERKS_ETHIN,
          "make: a buffer's cells past INT_MAX; n + 2 halo past INT_MAX; halo INT_MAX thin");
    CHECK(perks_grid3_make(1, 1, 1, 2147483647, 1, 1, 5, 0, &g) == 0 && g.cost == 0, "INT_MAX cells in one unsplit block");
    CHECK(perks_grid3_make(2, 1, 1, 5, 8, 8, 3, 0, &g) == PERKS_ETHIN && perks_grid3_make(1, 1, 1, 2, 8, 8, 3, PERKS_PERIODIC_X, &g) == PERKS_ETHIN &&
              perks_grid3_make(1, 1, 1, 2, 8, 8, 3, 0, &g) == 0,
          "make: thin along a split axis, along a periodic unsplit one; an unsplit Dirichlet axis may be thin");
    g = g0;
    CHECK(perks_grid3_make(2, 3, 1, 5, 8, 8, 3, 0, &g) == PERKS_ETHIN && memcmp(&g, &g0, sizeof g) == 0, "make: nothing written");
    CHECK(perks_grid3_make(2, 2, 2, 8, 8, 8, 1, 7, &ok) == 0, "a grid");
    memset(&b, 0x5a, sizeof b);
    b0 = b;
    CHECK(perks_block3_make(NULL, 0, &b) == PERKS_ENULL && perks_block3_make(&ok, 0, NULL) == PERKS_ENULL &&
              perks_block3_make(&ok, 8, &b) == PERKS_ESIZE && perks_block3_make(&ok, -1, &b) == PERKS_ESIZE && memcmp(&b, &b0, sizeof b) == 0,
          "block: NULL, rank outside, nothing written");
    CHECK(perks_block3_make(&ok, 7, &b) == 0, "a block");
    memset(r, 0x5a, sizeof r);
    memcpy(r0, r, sizeof r);
    CHECK(perks_block3_regions(NULL, PERKS_BOX, r, &cnt) == PERKS_ENULL && perks_block3_regions(&b, PERKS_BOX, NULL, &cnt) == PERKS_ENULL &&
              perks_block3_regions(&b, PERKS_BOX, r, NULL) == PERKS_ENULL && perks_block3_regions(&b, 2, r, &cnt) == PERKS_ESIZE &&
              perks_block3_regions(&b, -1, r, &cnt) == PERKS_ESIZE && cnt == 77 && memcmp(r, r0, sizeof r) == 0,
          "regions: NULL, shape, nothing written");
    CHECK(perks_block3_regions(&b, PERKS_STAR, r, &cnt) == 0 && cnt == 6 && perks_block3_regions(&b, PERKS_BOX, r, &cnt) == 0 && cnt == 26,
          "a periodic 2x2x2 block: 6 faces, 26 directions");
    /* the fingerprint: every input moves it */
    {
        const uint64_t f = perks_grid3_fingerprint(&ok, PERKS_BOX, 4);
        perks_grid3 v[8];
        int diff = 1;
        CHECK(f == perks_grid3_fingerprint(&ok, PERKS_BOX, 4) && perks_grid3_fingerprint(NULL, PERKS_BOX, 4) == 0, "stable");
        CHECK(f != perks_grid3_fingerprint(&ok, PERKS_STAR, 4) && f != perks_grid3_fingerprint(&ok, PERKS_BOX, 8), "shape, element");
        perks_grid3_make(2, 2, 2, 9, 8, 8, 1, 7, &v[0]);
        perks_grid3_make(2, 2, 2, 8, 9, 8, 1, 7, &v[1]);
        perks_grid3_make(2, 2, 2, 8, 8, 9, 1, 7, &v[2]);
        perks_grid3_make(4, 2, 1, 8, 8, 8, 1, 7, &v[3]);
        perks_grid3_make(2, 4, 1, 8, 8, 8, 1, 7, &v[4]);
        perks_grid3_make(1, 2, 4, 8, 8, 8, 1, 7, &v[5]);
        perks_grid3_make(2, 2, 2, 8, 8, 8, 2, 7, &v[6]);
        perks_grid3_make(2, 2, 2, 8, 8, 8, 1, 6, &v[7]);
        for (int i = 0; i < 8; i++) diff &= perks_grid3_fingerprint(&v[i], PERKS_BOX, 4) != f;
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < i; j++) diff &= perks_grid3_fingerprint(&v[i], PERKS_BOX, 4) != perks_grid3_fingerprint(&v[j], PERKS_BOX, 4);
        CHECK(diff, "every domain size, rank count, halo and periodic mask moves the fingerprint");
    }
    case_end();
}

/* usage: test_perks_decomp3d [--list | all]   (--list: the parts run-tests may run, one: all) */
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        printf("all\n");
        return 0;
    }
    check_plan(3);
    test_grids();
    test_choose();
    test_errors();
    return check_exit();
}
