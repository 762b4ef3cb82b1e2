#include <onchip/names_push.h>
/* perks/decomp3d.h -- a 2D (pencil) or 3D (block) split of a stencil domain over a grid of ranks,
 * and each rank's halo exchange as a list of regions, as plain index math (C99; host-tested).  The
 * transport is the caller's.  Rules and layout: docs/perks.md#decompositions-in-2d-and-3d-perksdecomp3dh.
 *
 * WHAT
 *   P ranks as a grid px x py x pz over nx x ny x nz cells (2D: nz = 1), r = rx + px (ry + py rz);
 *   each axis split as perks_slab_own/first split planes.  perks_grid3_choose: the grid of least
 *   cost (face cells sent plus PERKS_GRID3_MSG_CELLS a message; ties: most ranks along z, then y).
 *   A buffer (x fastest): the own cells, `halo` ghosts on each side with a neighbour (none at a
 *   Dirichlet edge).  perks_block3_regions: the cells sent to and received from each neighbour
 *   (6 faces for PERKS_STAR, 26 directions for PERKS_BOX).
 *
 * EXAMPLE
 *   [compile: int nprocs, rank, nx, ny, nz; float *buf]
 *   void send(float *buf, const int *at, const int *count, int peer);
 *   void recv(float *buf, const int *at, const int *count, int peer);
 *
 *   perks_grid3 g;
 *   perks_block3 b;
 *   perks_region3 reg[26];
 *   int nreg = 0, rc = perks_grid3_choose(nprocs, nx, ny, nz, 1, PERKS_PERIODIC_X, &g);
 *   if (rc == 0) rc = perks_block3_make(&g, rank, &b);
 *   if (rc == 0) rc = perks_block3_regions(&b, PERKS_BOX, reg, &nreg);
 *   // buf: b.ext[0] * b.ext[1] * b.ext[2] cells; own cells from b.lo[a] along axis a
 *   for (int i = 0; i < nreg; i++)          // in one ncclGroupStart/End
 *       send(buf, reg[i].send_at, reg[i].count, reg[i].peer);
 *   for (int i = nreg - 1; i >= 0; i--)     // receives in the opposite order
 *       recv(buf, reg[i].recv_at, reg[i].count, reg[i].peer);
 *   uint64_t f = perks_grid3_fingerprint(&g, PERKS_BOX, sizeof(float));  // equal on every rank
 *
 * ERRORS (perks/base.h): PERKS_ENULL; PERKS_ESIZE P or a size < 1, halo < 0, a periodic mask
 *   outside 0..7, more ranks than cells along an axis (choose: no factorisation fits), px py pz or
 *   a buffer's cells past INT_MAX, a rank outside 0..P-1, an unknown shape; PERKS_ETHIN a block
 *   thinner than the halo along an axis it exchanges on (choose: every fitting grid is).  On an
 *   error nothing is written.
 */
#ifndef PERKS_DECOMP3D_H
#define PERKS_DECOMP3D_H

#ifndef __CUDACC_RTC__
#include <stdint.h>
#endif

#include "base.h"
#include "decomp.h"

#define PERKS_STAR 0 /* faces only: 6 directions */
#define PERKS_BOX 1  /* faces, edges and corners: 26 directions */
#define PERKS_PERIODIC_X 1
#define PERKS_PERIODIC_Y 2
#define PERKS_PERIODIC_Z 4
#define PERKS_GRID3_MSG_CELLS 4096 /* the cost of one message, in cells sent */

typedef struct perks_grid3 {
    int n[3];          /* the domain's cells along x, y, z */
    int p[3];          /* the ranks along x, y, z */
    int nranks, halo, periodic;
    long long cost;
} perks_grid3;

typedef struct perks_block3 {
    perks_grid3 grid;
    int rank, c[3];           /* rank = c[0] + p[0] (c[1] + p[1] c[2]) */
    int first[3], own[3];     /* global cells first[a] .. first[a] + own[a] - 1 along axis a */
    int lo[3], hi[3];         /* ghosts before and after the own cells: halo, or 0 without a neighbour */
    int ext[3];               /* lo + own + hi: the buffer's extents */
    int peer[27];             /* the rank at (dx, dy, dz): [(dx + 1) + 3 (dy + 1) + 9 (dz + 1)]; -1 none; [13] rank */
} perks_block3;

typedef struct perks_region3 {
    int dir[3];     /* (dx, dy, dz) */
    int peer;
    int send_at[3]; /* in the buffer: the first own cell sent to peer */
    int recv_at[3]; /* the first ghost received from it */
    int count[3];
} perks_region3;

#ifndef __CUDACC_RTC__ /* host code (NVRTC: the structs and codes only) */
/* c's neighbour along axis a, step s (-1, 1); -1: none */
static inline int perks__grid3_next(const perks_grid3 *g, int a, int c, int s)
{
    if (g->halo == 0) return -1;
    if (c + s >= 0 && c + s < g->p[a]) return c + s;
    return g->periodic >> a & 1 ? (c + s + g->p[a]) % g->p[a] : -1;
}

/* 2 faces a split axis: halo cells plus PERKS_GRID3_MSG_CELLS each */
static inline long long perks_grid3_cost(const perks_grid3 *g)
{
    long long cost = 0, face;
    int a, b;
    for (a = 0; a < 3; a++) {
        if (g->p[a] < 2 || g->halo == 0) continue;
        for (face = 1, b = 0; b < 3; b++)
            if (b != a) face *= (g->n[b] + g->p[b] - 1) / g->p[b];
        cost += 2 * (face * g->halo + PERKS_GRID3_MSG_CELLS);
    }
    return cost;
}

/* 0 when grid g (p, n, halo, periodic) fits, else PERKS_ESIZE or PERKS_ETHIN */
static inline int perks__grid3_fit(const perks_grid3 *g)
{
    long long cells = 1, ext;
    int a, exch[3];
    for (a = 0; a < 3; a++)
        if (g->p[a] > g->n[a]) return PERKS_ESIZE;
    for (a = 0; a < 3; a++) {
        exch[a] = g->halo > 0 && (g->p[a] > 1 || (g->periodic >> a & 1));
        if (exch[a] && g->n[a] / g->p[a] < g->halo) return PERKS_ETHIN;
    }
    for (a = 0; a < 3; a++) {
        ext = (g->n[a] + g->p[a] - 1) / g->p[a] + (exch[a] ? 2LL * g->halo : 0);
        if (ext > 2147483647LL / cells) return PERKS_ESIZE; /* a buffer's cells past an int */
        cells *= ext;
    }
    return PERKS_SUCCESS;
}

/* periodic: PERKS_PERIODIC_X | _Y | _Z */
static inline int perks_grid3_make(int px, int py, int pz, int nx, int ny, int nz, int halo, int periodic,
                                   perks_grid3 *g)
{
    perks_grid3 t;
    int rc;
    if (!g) return PERKS_ENULL;
    if (px < 1 || py < 1 || pz < 1 || nx < 1 || ny < 1 || nz < 1 || halo < 0 || periodic < 0 || periodic > 7)
        return PERKS_ESIZE;
    if ((long long)px * py > 2147483647LL || (long long)px * py * pz > 2147483647LL) return PERKS_ESIZE;
    t.n[0] = nx, t.n[1] = ny, t.n[2] = nz;
    t.p[0] = px, t.p[1] = py, t.p[2] = pz;
    t.nranks = px * py * pz, t.halo = halo, t.periodic = periodic;
    if ((rc = perks__grid3_fit(&t)) != 0) return rc;
    t.cost = perks_grid3_cost(&t);
    *g = t;
    return PERKS_SUCCESS;
}

/* the least cost; ties: the most ranks along z, then y */
static inline int perks_grid3_choose(int P, int nx, int ny, int nz, int halo, int periodic, perks_grid3 *g)
{
    perks_grid3 best, t;
    int px, py, pz, rc, found = 0, thin = 0;
    if (!g) return PERKS_ENULL;
    if (P < 1 || nx < 1 || ny < 1 || nz < 1 || halo < 0 || periodic < 0 || periodic > 7) return PERKS_ESIZE;
    for (pz = P < nz ? P : nz; pz >= 1; pz--)
        for (py = P / pz < ny ? P / pz : ny; py >= 1; py--) {
            if (P % pz || (P / pz) % py) continue;
            px = P / pz / py;
            rc = perks_grid3_make(px, py, pz, nx, ny, nz, halo, periodic, &t);
            thin |= rc == PERKS_ETHIN;
            if (rc == 0 && (!found || t.cost < best.cost)) best = t, found = 1;
        }
    if (!found) return thin ? PERKS_ETHIN : PERKS_ESIZE;
    *g = best;
    return PERKS_SUCCESS;
}

static inline int perks_block3_make(const perks_grid3 *g, int rank, perks_block3 *b)
{
    perks_block3 t;
    int a, d;
    if (!g || !b) return PERKS_ENULL;
    if (rank < 0 || rank >= g->nranks) return PERKS_ESIZE;
    t.grid = *g;
    t.rank = rank;
    t.c[0] = rank % g->p[0];
    t.c[1] = rank / g->p[0] % g->p[1];
    t.c[2] = rank / g->p[0] / g->p[1];
    for (a = 0; a < 3; a++) {
        t.first[a] = perks_slab_first(g->n[a], g->p[a], t.c[a]);
        t.own[a] = perks_slab_own(g->n[a], g->p[a], t.c[a]);
        t.lo[a] = perks__grid3_next(g, a, t.c[a], -1) >= 0 ? g->halo : 0;
        t.hi[a] = perks__grid3_next(g, a, t.c[a], 1) >= 0 ? g->halo : 0;
        t.ext[a] = t.lo[a] + t.own[a] + t.hi[a];
    }
    for (d = 0; d < 27; d++) {
        int q[3];
        q[0] = t.c[0] + d % 3 - 1, q[1] = t.c[1] + d / 3 % 3 - 1, q[2] = t.c[2] + d / 9 - 1;
        for (a = 0; a < 3; a++)
            if (q[a] != t.c[a]) q[a] = perks__grid3_next(g, a, t.c[a], q[a] - t.c[a]);
        t.peer[d] = q[0] < 0 || q[1] < 0 || q[2] < 0 ? -1 : q[0] + g->p[0] * (q[1] + g->p[1] * q[2]);
    }
    *b = t;
    return PERKS_SUCCESS;
}

/* the global coordinate along axis a of buffer coordinate x (periodic wraps; -1 outside) */
static inline int perks_block3_global(const perks_block3 *b, int a, int x)
{
    const int n = b->grid.n[a];
    int g = b->first[a] - b->lo[a] + x;
    if (g >= 0 && g < n) return g;
    if (!(b->grid.periodic >> a & 1) || g < -n || g >= 2 * n) return -1;
    return g < 0 ? g + n : g - n;
}

/* where block b receives from direction dir[] (the ghosts before its own cells where d = -1, after
 * them where d = +1, its own range where d = 0): a region's recv_at, and where a peer's region sent
 * in direction -dir lands */
static inline void perks_block3_recv_at(const perks_block3 *b, const int *dir, int *at)
{
    int a;
    for (a = 0; a < 3; a++) at[a] = dir[a] < 0 ? 0 : b->lo[a] + (dir[a] > 0 ? b->own[a] : 0);
}

/* one region a direction with a peer, in peer[]'s order; *count of them into r[26] */
static inline int perks_block3_regions(const perks_block3 *b, int shape, perks_region3 *r, int *count)
{
    int d, a, k = 0;
    if (!b || !r || !count) return PERKS_ENULL;
    if (shape != PERKS_STAR && shape != PERKS_BOX) return PERKS_ESIZE;
    for (d = 0; d < 27; d++) {
        const int dir[3] = {d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1};
        const int axes = (dir[0] != 0) + (dir[1] != 0) + (dir[2] != 0);
        if (axes == 0 || b->peer[d] < 0 || (shape == PERKS_STAR && axes > 1)) continue;
        for (a = 0; a < 3; a++) {
            const int h = b->grid.halo, lo = b->lo[a], own = b->own[a];
            r[k].dir[a] = dir[a];
            r[k].count[a] = dir[a] == 0 ? own : h;
            r[k].send_at[a] = dir[a] <= 0 ? lo : lo + own - h;
        }
        perks_block3_recv_at(b, dir, r[k].recv_at);
        r[k++].peer = b->peer[d];
    }
    *count = k;
    return PERKS_SUCCESS;
}

/* a hash of what every rank must agree on */
static inline uint64_t perks_grid3_fingerprint(const perks_grid3 *g, int shape, long long elem_bytes)
{
    long long v[10];
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the ten values' bytes */
    int i, j;
    if (!g) return 0;
    for (i = 0; i < 3; i++) v[i] = g->n[i], v[3 + i] = g->p[i];
    v[6] = g->halo, v[7] = g->periodic, v[8] = shape, v[9] = elem_bytes;
    for (i = 0; i < 10; i++)
        for (j = 0; j < 8; j++) h = (h ^ (uint64_t)(((unsigned long long)v[i] >> (8 * j)) & 0xffu)) * 0x100000001b3ull;
    return h;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_DECOMP3D_H */
#include <onchip/names_pop.h>
