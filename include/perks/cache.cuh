#include <onchip/names_push.h>
/* perks/cache.cuh -- the domain cached on chip between time steps: register cache, shared-memory
 * cache, and the halo exchange through device memory (side edges stored transposed).
 *
 * WHAT (PERKS paper §4.2 and Listing 1)
 *   A block owns a fixed tile for the whole run; between steps the first `depth` rows of each
 *   thread's column stay in registers (T reg[DEPTH], constant indices only), the next `smem_rows`
 *   in dynamic shared memory (row-major, tile_w cells a row, each thread its own column: no
 *   barrier), the rest in device memory.  The halo always goes through device memory: top and
 *   bottom r rows to the domain array, left and right r columns TRANSPOSED to an edge buffer, both
 *   ping-ponging with the step.  Why transposed: docs/perks.md#cache-transposed-edges.
 *
 * PIECES
 *   PERKS_REGCACHE(T, name, DEPTH)          declares T name[DEPTH] (at least one element)
 *   PERKS_CACHE_IS_CACHED(y, len, nreg, ncached)
 *                                           row y of a tile of len rows sits on chip between steps
 *                                           (registers: y < nreg; shared: nreg <= y < ncached)
 *   PERKS_SMEM_ROW(cache, y, nreg, tile_w, x) the shared-memory slot of row y, column x of the tile
 *   PERKS_EDGE_INDEX(tile, side, k, y, r, len) index in the transposed edge buffer: tile `tile`,
 *                                           side 0 = left / 1 = right, column k < r from the
 *                                           outside in, row y < len
 *   perks_edge_elems(tiles, r, len)         elements of ONE edge buffer (allocate two: ping-pong);
 *                                           host or device
 *
 * COSTS
 *   Register cache: DEPTH registers per thread (2 DEPTH for double); choose the largest DEPTH that
 *   compiles with 0 spills (-Xptxas -v; make test checks the kit's instantiations).  Shared cache:
 *   smem_rows x tile_w x sizeof(T) bytes of dynamic shared memory, sized by perks/plan.h.
 *   Edge buffers: 2 x tiles x 2 x r x len elements.
 */
#ifndef PERKS_CACHE_CUH
#define PERKS_CACHE_CUH

#ifndef __CUDACC_RTC__ /* NVRTC: size_t is built in */
#include <cuda_runtime.h>
#include <stddef.h>
#endif
#include "base.h"

#define PERKS_REGCACHE(T, name, DEPTH) T name[(DEPTH) > 0 ? (DEPTH) : 1]
#define PERKS_CACHE_IS_CACHED(y, len, nreg, ncached) ((y) >= 0 && (y) < (len) && (y) < (ncached))
#define PERKS_SMEM_ROW(cache, y, nreg, tile_w, x) ((cache)[(size_t)((y) - (nreg)) * (tile_w) + (x)])
#define PERKS_EDGE_INDEX(tile, side, k, y, r, len) \
    (((size_t)((tile) * 2 + (side)) * (size_t)(r) + (size_t)(k)) * (size_t)(len) + (size_t)(y))

static __host__ __device__ __forceinline__ size_t perks_edge_elems(int tiles, int r, int len)
{
    return (size_t)tiles * 2 * (size_t)r * (size_t)len;
}

#endif /* PERKS_CACHE_CUH */
#include <onchip/names_pop.h>
