#include <onchip/names_push.h>
/* onchip/boundary.h -- the stencil model's boundary policies: what a step does at the domain's edge.
 *
 * WHAT (the engines: docs/onchip.md#design-notes-onchipboundaryh)
 *   A policy is an int, named by what it does (C99; the engines take it in their arguments):
 *     ONCHIP_KEEP_EXTENT   0  a cell whose stencil would read outside the domain keeps its value,
 *                             per direction by the shape's extents: x < -xlo or x >= nx - xhi, ...
 *     ONCHIP_PERIODIC      1  the domain wraps in every direction; every cell is computed
 *     ONCHIP_KEEP_RADIUS   2  a cell within rmax (the largest |offset|) of any face keeps its value
 *     ONCHIP_ZERO_OUTSIDE  3  values outside the domain read as 0; every cell is computed
 *   Where a shape's extents all equal its radius (the catalogue but ONCHIP_SHAPE_BOX2D_8X8),
 *   KEEP_EXTENT and KEEP_RADIUS keep the same cells (onchip_boundary_same), and an engine built for
 *   one takes the other.  An engine refuses a policy it cannot give with its own code.
 *
 * EXAMPLE (which cells of a 2D domain keep their value under the upwind shape of onchip/shape.cuh)
 *   [compile]
 *     #include <onchip/boundary.h>
 *     onchip_extent e = {-2, 1, -1, 2, 0, 0, 2, 2};   // xlo xhi ylo yhi zlo zhi, rmax, dims
 *     int keep = onchip_boundary_keeps(ONCHIP_KEEP_EXTENT, &e, 1, 0, 0, 64, 64, 1);   // 1: x < 2
 *     int same = onchip_boundary_same(ONCHIP_KEEP_EXTENT, ONCHIP_KEEP_RADIUS, &e);    // 0
 *
 * FUNCTIONS (host and device; plain C99)
 *   onchip_boundary_valid(p), onchip_boundary_name(p) ("keep-extent", ... or a null pointer),
 *   onchip_boundary_keeps(p, &e, x, y, z, nx, ny, nz), onchip_boundary_same(a, b, &e)
 */
#ifndef ONCHIP_BOUNDARY_H
#define ONCHIP_BOUNDARY_H

#if defined(__CUDACC__)
#define ONCHIP__HD static __host__ __device__ __forceinline__
#else
#define ONCHIP__HD static inline
#endif

#define ONCHIP_KEEP_EXTENT 0
#define ONCHIP_PERIODIC 1
#define ONCHIP_KEEP_RADIUS 2
#define ONCHIP_ZERO_OUTSIDE 3

/* a shape's extents (onchip_shape's xlo ... zhi and rmax) and its dimensions (2 or 3) */
typedef struct onchip_extent {
    int xlo, xhi, ylo, yhi, zlo, zhi;
    int rmax, dims;
} onchip_extent;

ONCHIP__HD int onchip_boundary_valid(int p) { return p >= ONCHIP_KEEP_EXTENT && p <= ONCHIP_ZERO_OUTSIDE; }

ONCHIP__HD const char *onchip_boundary_name(int p)
{
    return p == ONCHIP_KEEP_EXTENT    ? "keep-extent"
           : p == ONCHIP_PERIODIC     ? "periodic"
           : p == ONCHIP_KEEP_RADIUS  ? "keep-radius"
           : p == ONCHIP_ZERO_OUTSIDE ? "zero-outside"
                                      : (const char *)0;
}

/* 1 where cell (x, y, z) of an nx x ny x nz domain keeps its value under policy p (2D: z 0, nz 1) */
ONCHIP__HD int onchip_boundary_keeps(int p, const onchip_extent *e, long long x, long long y, long long z,
                                     long long nx, long long ny, long long nz)
{
    if (p == ONCHIP_KEEP_EXTENT)
        return x < -e->xlo || x >= nx - e->xhi || y < -e->ylo || y >= ny - e->yhi ||
               (e->dims == 3 && (z < -e->zlo || z >= nz - e->zhi));
    if (p == ONCHIP_KEEP_RADIUS)
        return x < e->rmax || x >= nx - e->rmax || y < e->rmax || y >= ny - e->rmax ||
               (e->dims == 3 && (z < e->rmax || z >= nz - e->rmax));
    return 0;
}

/* 1 when policies a and b give the same step for every domain, for a shape of extents e */
ONCHIP__HD int onchip_boundary_same(int a, int b, const onchip_extent *e)
{
    int sym;
    if (!onchip_boundary_valid(a) || !onchip_boundary_valid(b)) return 0;
    if (a == b) return 1;
    sym = -e->xlo == e->rmax && e->xhi == e->rmax && -e->ylo == e->rmax && e->yhi == e->rmax &&
          (e->dims != 3 || (-e->zlo == e->rmax && e->zhi == e->rmax));
    return sym && (a == ONCHIP_KEEP_EXTENT || a == ONCHIP_KEEP_RADIUS) &&
           (b == ONCHIP_KEEP_EXTENT || b == ONCHIP_KEEP_RADIUS);
}

#endif /* ONCHIP_BOUNDARY_H */
#include <onchip/names_pop.h>
