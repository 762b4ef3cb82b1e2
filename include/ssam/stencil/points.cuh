#include <onchip/names_push.h>
/* ssam/stencil/points.cuh -- sources and receivers at off-grid points, for a user's kernel: a value
 * added to the 8 cells around a point by their trilinear weights, and a field read there.
 *
 * WHAT
 *   ssam_point_add(u, pitch, plane, p, v)     u's 8 cells of point p (ssam/wave.h's
 *                                             ssam_trilinear_pt) += p.w[k] v, atomically (points
 *                                             may share cells)
 *   ssam_point_read(u, pitch, plane, p)       sum of p.w[k] times the 8 cells: a receiver's sample
 *   T float or double; pitch and plane in elements; p's cells inside the domain (ssam_trilinear_in).
 *
 * EXAMPLE
 *   [compile]
 *   __global__ void shot(float *u, long long pitch, long long plane, const ssam_trilinear_pt *src, float amp,
 *                        const ssam_trilinear_pt *rec, float *trace, int nrec)
 *   {
 *       const int i = blockIdx.x * blockDim.x + threadIdx.x;
 *       if (i == 0) ssam_point_add(u, pitch, plane, *src, amp);      // the source's sample this step
 *       if (i < nrec) trace[i] = ssam_point_read((const float *)u, pitch, plane, rec[i]);
 *   }
 *
 * LIMITS
 *   The add is 8 atomicAdds of T; reading and adding in one kernel sees either order.
 */
#ifndef SSAM_STENCIL_POINTS_CUH
#define SSAM_STENCIL_POINTS_CUH

#include "../wave.h"

template <class T>
static __device__ __forceinline__ void ssam_point_add(T *u, long long pitch, long long plane, const ssam_trilinear_pt &p, T v)
{
    T *c = u + (long long)p.z0 * plane + (long long)p.y0 * pitch + p.x0;
#pragma unroll
    for (int k = 0; k < 8; k++)
        atomicAdd(c + ((k >> 2) & 1) * plane + ((k >> 1) & 1) * pitch + (k & 1), (T)p.w[k] * v);
}
template <class T>
static __device__ __forceinline__ T ssam_point_read(const T *u, long long pitch, long long plane, const ssam_trilinear_pt &p)
{
    const T *c = u + (long long)p.z0 * plane + (long long)p.y0 * pitch + p.x0;
    T s = T(0);
#pragma unroll
    for (int k = 0; k < 8; k++) s += (T)p.w[k] * c[((k >> 2) & 1) * plane + ((k >> 1) & 1) * pitch + (k & 1)];
    return s;
}

#endif /* SSAM_STENCIL_POINTS_CUH */
#include <onchip/names_pop.h>
