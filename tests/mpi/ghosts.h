/* tests/mpi/ghosts.h -- what an exchange must leave in buffer plane p of slab s over n planes: the
 * global plane it holds (its own, or the peer's it mirrors; periodic ghosts wrap), or -1 for a ghost
 * with no peer (Dirichlet ends: left as it was) */
#ifndef ONCHIP_TEST_MPI_GHOSTS_H
#define ONCHIP_TEST_MPI_GHOSTS_H
#include <perks/decomp.h>

static inline int ghosts_plane(const perks_slab *s, int n, int periodic, int p)
{
    const int g = s->first + p - s->halo;
    if (g >= 0 && g < n) return g;
    return periodic ? (g + n) % n : -1;
}
#endif
