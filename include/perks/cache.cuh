#include <onchip/names_push.h>
/* perks/cache.cuh -- the domain cached on chip between time steps: register cache, shared-memory
 * cache, and the halo exchange through device memory (side edges stored transposed).
 *
 * WHAT (PERKS paper §4.2 and Listing 1; docs/perks.md#design-notes-perkscachecuh)
 *   A block owns a fixed tile for the run; between steps the first `depth` rows of each thread's
 *   column stay in registers, the next `smem_rows` in dynamic shared memory, the rest in device
 *   memory.  The halo goes through device memory, the side columns TRANSPOSED to an edge buffer
 *   (docs/perks.md#cache-transposed-edges).
 *
 * PIECES
 *   PERKS_REGCACHE(T, name, DEPTH)          T name[DEPTH] (at least one), constant indices only
 *   PERKS_CACHE_IS_CACHED(y, len, nreg, ncached)   row y of a tile of len rows stays on chip
 *   PERKS_SMEM_ROW(cache, y, nreg, tile_w, x)      the shared slot of row y, column x
 *   PERKS_EDGE_INDEX(tile, side, k, y, r, len)     edge-buffer index: side 0 left / 1 right,
 *                                           column k < r from the outside in, row y < len
 *   perks_edge_elems(tiles, r, len)         elements of ONE edge buffer (allocate two: ping-pong)
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
