/* tests/mpi/ghosts.h -- what an exchange must leave in a buffer: in plane p of a slab, in a cell of
 * a pencil or block of perks/decomp3d.h */
#ifndef ONCHIP_TEST_MPI_GHOSTS_H
#define ONCHIP_TEST_MPI_GHOSTS_H
#include <perks/decomp.h>
#include <perks/decomp3d.h>

/* buffer plane p of slab s over n planes: the global plane it holds (its own, or the peer's it
 * mirrors; periodic ghosts wrap), or -1 for a ghost with no peer (Dirichlet ends: left as it was) */
static inline int ghosts_plane(const perks_slab *s, int n, int periodic, int p)
{
    const int g = s->first + p - s->halo;
    if (g >= 0 && g < n) return g;
    return periodic ? (g + n) % n : -1;
}

/* byte e of global cell g[] of an n[0] x n[1] x n[2] domain: what the own cells hold and the ghosts
 * get (a multiplicative hash of the cell's index: no short period) */
static inline unsigned char ghosts_val3(const int *n, const int *g, int e)
{
    const unsigned long h = ((unsigned long)(g[0] + n[0] * (g[1] + n[1] * g[2])) + 1ul) * 2654435761ul;
    return (unsigned char)((h >> (8 * (e & 3))) ^ (unsigned long)(e * 5 + 3));
}

/* block b's buffer cell x[] after an exchange of shape: 1 and the global cell in g[] (periodic
 * wraps; *own 1 for an own cell), or 0 for a ghost no region fills (a star's edges and corners:
 * left as it was) */
static inline int ghosts_cell3(const perks_block3 *b, int shape, const int *x, int *g, int *own)
{
    int axes = 0;
    for (int a = 0; a < 3; a++) {
        const int n = b->grid.n[a], t = b->first[a] - b->lo[a] + x[a];
        axes += x[a] < b->lo[a] || x[a] >= b->lo[a] + b->own[a];
        g[a] = (t % n + n) % n; /* a ghost exists only beside a peer: inside the domain, or periodic */
    }
    *own = axes == 0;
    return axes <= (shape == PERKS_STAR ? 1 : 3);
}

/* block b's own cells in buf (b->ext cells of eb bytes, x fastest) set to ghosts_val3, the rest
 * left as they are (the caller's poison) */
static inline void ghosts_fill3(const perks_block3 *b, int shape, const int *n, unsigned char *buf, int eb)
{
    int x[3], g[3], own;
    size_t at = 0;
    for (x[2] = 0; x[2] < b->ext[2]; x[2]++)
        for (x[1] = 0; x[1] < b->ext[1]; x[1]++)
            for (x[0] = 0; x[0] < b->ext[0]; x[0]++, at += (size_t)eb)
                if (ghosts_cell3(b, shape, x, g, &own) && own)
                    for (int e = 0; e < eb; e++) buf[at + (size_t)e] = ghosts_val3(n, g, e);
}

/* the bytes of buf that differ from what an exchange of shape must leave (the own cells and the
 * ghosts ghosts_val3 of the cell they mirror, every other ghost poison); the first's cell in first[] */
static inline size_t ghosts_bad3(const perks_block3 *b, int shape, const int *n, const unsigned char *buf, int eb,
                                 unsigned char poison, int *first)
{
    int x[3], g[3], own;
    size_t at = 0, bad = 0;
    for (x[2] = 0; x[2] < b->ext[2]; x[2]++)
        for (x[1] = 0; x[1] < b->ext[1]; x[1]++)
            for (x[0] = 0; x[0] < b->ext[0]; x[0]++, at += (size_t)eb) {
                const int filled = ghosts_cell3(b, shape, x, g, &own);
                for (int e = 0; e < eb; e++)
                    if (buf[at + (size_t)e] != (filled ? ghosts_val3(n, g, e) : poison) && !bad++)
                        first[0] = x[0], first[1] = x[1], first[2] = x[2];
            }
    return bad;
}
#endif
