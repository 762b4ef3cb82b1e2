#include <onchip/names_push.h>
/* ssam/temporal/lane3d.cuh -- the 3D temporal lane pieces: a lane's window from planes of 16-byte
 * vectors in shared memory, its values stored there, the planes' sizes. */
#ifndef SSAM_TEMPORAL_LANE3D_CUH
#define SSAM_TEMPORAL_LANE3D_CUH

#include "../regcache.cuh"

/* the rows of a tile plane in shared memory: RT rows and the -YLO above and YHI below them that the
 * windows of the end rows read (never written: zero, halo garbage only) */
#define SSAM_TEMPORAL3D_ROWS(RT, YLO, YHI) ((RT) + (YHI) - (YLO))
/* the shared memory of TT levels of NZ + 1 planes of such rows x 32 lanes x 16 bytes */
#define SSAM_TEMPORAL3D_SMEM(TT, NZ, RT, YLO, YHI) ((size_t)(TT) * ((NZ) + 1) * SSAM_TEMPORAL3D_ROWS(RT, YLO, YHI) * 512)

/* a lane's V values as one 16-byte vector at ring[i] */
template <class T, int V>
static __device__ __forceinline__ void ssam_temporal3d_put(ssam_vec<T, V> *ring, int i, const T (&vals)[V])
{
    ssam_vec<T, V> q;
#pragma unroll
    for (int k = 0; k < V; k++) q.v[k] = vals[k];
    ring[i] = q;
}
#define SSAM_TEMPORAL3D_PUT(T, V, ring, i, vals) ssam_temporal3d_put((ssam_vec<T, V> *)(ring), i, vals)

/* win[k][dz NY + dy] = the lane's column k of row r + YLO + dy of plane dz, from 16-byte vectors:
 * plane dz's row r at base[pl[dz] + r 32] (pl: vector offsets of the planes, constants after
 * unrolling, so every load is base + a constant); loads the shape does not read are dead code */
template <int NY, int NZ, int YLO, class T, int V, int W>
static __device__ __forceinline__ void ssam_temporal3d_window(T (&win)[V][W], const ssam_vec<T, V> *base, const int *pl,
                                                              int r)
{
#pragma unroll
    for (int z = 0; z < NZ; z++)
#pragma unroll
        for (int y = 0; y < NY; y++) {
            const ssam_vec<T, V> q = base[pl[z] + (r + YLO + y) * 32];
#pragma unroll
            for (int k = 0; k < V; k++) win[k][z * NY + y] = q.v[k];
        }
}
#define SSAM_TEMPORAL3D_WINDOW(T, V, NY, NZ, win, base, pl, r, YLO)                                     \
    ssam_temporal3d_window<NY, NZ, YLO>(win, (const ssam_vec<T, V> *)(base), pl, r)

#endif /* SSAM_TEMPORAL_LANE3D_CUH */
#include <onchip/names_pop.h>
